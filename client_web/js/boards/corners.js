// Corners' board module (served as /boards/corners.js; the interface is in docs/ui.md): an
// 8×8 board of buttons. Tap one of your pieces, then a lit square (twice) to move there.
// It holds no rules: where a piece can go is the host's legal list for that square.

import { h } from "/js/dom.js";

export const palette = {
  white: { fill: "#f4f1e8", ink: "#111", mark: "○" },
  black: { fill: "#222", ink: "#fff", mark: "●" },
};

const COLUMNS = "abcdefgh";
const CSS = `
.cn-board { display: grid; grid-template-columns: repeat(8, 1fr); width: 100%; aspect-ratio: 1;
  border: 2px solid #5b4630; border-radius: 4px; touch-action: manipulation; user-select: none; }
.cn-cell { position: relative; border: 0; padding: 0; min-width: 0; background: #e8d3a8; cursor: pointer; }
.cn-cell.dark { background: #b48a5a; }
.cn-cell:disabled { cursor: default; }
.cn-piece { position: absolute; inset: 12%; border-radius: 50%; }
.cn-piece.w { background: #f8f6ef; border: 2px solid #333; }
.cn-piece.b { background: #1d1d1d; border: 2px solid #ddd; }
.cn-cell.target::after { content: ""; position: absolute; inset: 36%; border: 3px solid #1c7c3a; transform: rotate(45deg); }
.cn-cell.picked { box-shadow: inset 0 0 0 3px #1c7c3a; }
`;
document.head.append(h("style", { "data-board": "corners" }, CSS));

const nameOf = (row, col) => `${COLUMNS[col]}${8 - row}`;

export function createBoard(ctx) {
  let state = null;
  let view = {};
  let picked = null; // {seat, from, moves}
  let chosen = null; // a destination tapped once
  const grid = h("div.cn-board", { "data-testid": "board", role: "grid", "aria-label": "Board, 8 by 8" });
  const cells = new Map();
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const name = nameOf(row, col);
      const el = h(`button.cn-cell${(row + col) % 2 ? ".dark" : ""}`, { type: "button", "data-testid": `cell-${name}`,
        onclick: () => tap(name) });
      cells.set(name, { row, col, el });
      grid.append(el);
    }
  }
  ctx.el.replaceChildren(grid);

  const owner = (name) => {
    const c = cells.get(name);
    return state ? state.board.rows[c.row][c.col] : 0;
  };

  async function tap(name) {
    const seat = view.active;
    if (ctx.readOnly || !seat || view.busy) return;
    if (owner(name) === seat) {
      const answer = await ctx.host.legal(seat, { from: name });
      picked = { seat, from: name, moves: answer.moves || [] };
      chosen = null;
      paint();
      return;
    }
    const m = picked?.moves.find((x) => x.to === name);
    if (!m) return;
    if (chosen !== name) {
      chosen = name;
      paint();
      return;
    }
    if (await ctx.play(seat, m.move)) {
      picked = null;
      chosen = null;
    }
  }

  function paint() {
    if (!state) return;
    const targets = new Set((picked?.moves || []).map((m) => m.to));
    for (const [name, c] of cells) {
      const v = state.board.rows[c.row][c.col];
      c.el.replaceChildren(v ? h(`span.cn-piece.${v === 1 ? "w" : "b"}`) : "");
      c.el.classList.toggle("target", targets.has(name));
      c.el.classList.toggle("picked", picked?.from === name);
      c.el.setAttribute("aria-label", `${name} ${v === 1 ? "white" : v === 2 ? "black" : "empty"}`);
    }
  }

  function render(s, v = {}) {
    if (state && s.seq !== state.seq) {
      picked = null;
      chosen = null;
    }
    state = s;
    view = v;
    paint();
  }

  return {
    render,
    seatDetail: () => null,
    describeMove: (frame) => frame.details?.notation || frame.move,
    onKey: () => false,
    destroy() {
      ctx.el.replaceChildren();
    },
  };
}
