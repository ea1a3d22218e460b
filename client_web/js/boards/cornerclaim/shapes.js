// Corner Claim's piece shapes and cell names: geometry only, no rules (the host says what is
// legal). No endpoint of the host gives the shapes, so this table is the board module's own
// knowledge of its game; the shell never sees it.
// Cells are [x, y] with y growing upwards (a1 is the bottom-left square), as in engine/cornerclaim/pieces.py.

export const PIECES = {
  "1": [[0, 0]],
  "2": [[0, 0], [1, 0]],
  I3: [[0, 0], [1, 0], [2, 0]],
  V3: [[0, 0], [1, 0], [0, 1]],
  I4: [[0, 0], [1, 0], [2, 0], [3, 0]],
  L4: [[0, 0], [1, 0], [0, 1], [0, 2]],
  O4: [[0, 0], [1, 0], [0, 1], [1, 1]],
  T4: [[0, 0], [1, 0], [2, 0], [1, 1]],
  Z4: [[0, 0], [1, 0], [1, 1], [2, 1]],
  F: [[1, 0], [0, 1], [1, 1], [1, 2], [2, 2]],
  I5: [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]],
  L5: [[0, 0], [1, 0], [0, 1], [0, 2], [0, 3]],
  N: [[0, 1], [1, 1], [1, 0], [2, 0], [3, 0]],
  P: [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2]],
  T5: [[1, 0], [1, 1], [0, 2], [1, 2], [2, 2]],
  U: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1]],
  V: [[0, 0], [1, 0], [2, 0], [0, 1], [0, 2]],
  W: [[0, 0], [1, 0], [1, 1], [2, 1], [2, 2]],
  X: [[1, 0], [0, 1], [1, 1], [2, 1], [1, 2]],
  Y: [[0, 0], [1, 0], [2, 0], [3, 0], [1, 1]],
  Z5: [[0, 0], [1, 0], [1, 1], [1, 2], [2, 2]],
};
export const PIECE_NAMES = Object.keys(PIECES);
const COLUMNS = "abcdefghijklmnopqrstuvwxyz";

/** Translate so min x = min y = 0 and sort by row then column. */
export function normalise(cells) {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return cells.map(([x, y]) => [x - mx, y - my]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** A quarter turn clockwise (as the R key and the turn button do). */
export const rotate = (cells) => normalise(cells.map(([x, y]) => [y, -x]));
/** Mirror left-right. */
export const flip = (cells) => normalise(cells.map(([x, y]) => [-x, y]));

const same = (a, b) => JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));
export const canRotate = (name) => !same(rotate(PIECES[name]), PIECES[name]);
/** Whether mirroring changes the shape as it lies (as engine Piece.can_flip). */
export const canFlip = (name) => !same(flip(PIECES[name]), PIECES[name]);

export const cellName = (x, y) => `${COLUMNS[x]}${y + 1}`;
export function parseCell(text) {
  const m = /^([a-z])(\d{1,2})$/i.exec(text.trim());
  return m ? [COLUMNS.indexOf(m[1].toLowerCase()), Number(m[2]) - 1] : null;
}
/** Canonical key of a set of cells: names sorted by row then column, comma separated. */
export function cellsKey(cells) {
  return [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([x, y]) => cellName(x, y)).join(",");
}
export const moveKey = (text) => cellsKey(text.split(",").map(parseCell));

/** The cell nearest the middle of a shape: what sits under the finger when it jumps. */
export function anchorOf(cells) {
  const w = Math.max(...cells.map((c) => c[0]));
  const h = Math.max(...cells.map((c) => c[1]));
  let best = cells[0];
  let bestD = Infinity;
  for (const c of cells) {
    const d = (c[0] - w / 2) ** 2 + (c[1] - h / 2) ** 2;
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

const SVG = "http://www.w3.org/2000/svg";
/** A small SVG drawing of a shape (top row drawn first), `unit` pixels a square. */
export function shapeSvg(cells, unit, cls = "") {
  const w = Math.max(...cells.map((c) => c[0])) + 1;
  const h = Math.max(...cells.map((c) => c[1])) + 1;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("width", w * unit);
  svg.setAttribute("height", h * unit);
  svg.setAttribute("aria-hidden", "true");
  if (cls) svg.setAttribute("class", cls);
  for (const [x, y] of cells) {
    const r = document.createElementNS(SVG, "rect");
    r.setAttribute("x", x + 0.06);
    r.setAttribute("y", h - 1 - y + 0.06);
    r.setAttribute("width", 0.88);
    r.setAttribute("height", 0.88);
    r.setAttribute("rx", 0.12);
    svg.appendChild(r);
  }
  return svg;
}
