// Corner Claim's board as a grid of cells (data-testid cell-<name>, a1 bottom-left), with markers for
// open corners, where the lifted piece can go, the last move, and the piece in hand.

import { h } from "/js/dom.js";
import { cellName } from "/js/boards/cornerclaim/shapes.js";

export class Board {
  constructor(size) {
    this.size = size;
    this.el = h("div.board", { "data-testid": "board", role: "grid", "aria-label": `Board, ${size} by ${size}`,
      "data-preview": "none", style: `--n:${size}` });
    this.cells = []; // cells[y][x], y = 0 is the bottom row
    for (let y = 0; y < size; y++) this.cells.push([]);
    for (let y = size - 1; y >= 0; y--) {
      for (let x = 0; x < size; x++) {
        const c = h("div.cell", { "data-testid": `cell-${cellName(x, y)}` });
        this.cells[y][x] = c;
        this.el.append(c);
      }
    }
    this.preview = [];
    this.cover = [];
  }

  /** The cell [x, y] under a point on screen (may lie outside the board). */
  cellAt(clientX, clientY) {
    const r = this.el.getBoundingClientRect();
    const x = Math.floor(((clientX - r.left) / r.width) * this.size);
    const y = this.size - 1 - Math.floor(((clientY - r.top) / r.height) * this.size);
    return [x, y];
  }

  contains(clientX, clientY) {
    const r = this.el.getBoundingClientRect();
    return clientX >= r.left && clientX < r.right && clientY >= r.top && clientY < r.bottom;
  }

  inside = ([x, y]) => x >= 0 && y >= 0 && x < this.size && y < this.size;

  /** Paint the host's board view ({size, rows}: top row first, seat numbers) and markers.
   * `colours[seat]` is a colour name; `last` the move text of the last move (or null). */
  paint(board, { colours, last: lastMove = null, corners = [], cornerColour = null }) {
    this.setPreview([], "none");
    this.setCover([]);
    const n = this.size;
    const last = new Set(lastMove ? lastMove.split(",") : []);
    const cornerSet = new Set(corners);
    for (let row = 0; row < n; row++) {
      const y = n - 1 - row;
      for (let x = 0; x < n; x++) {
        const seat = Number(board.rows[row][x]);
        const name = cellName(x, y);
        const c = this.cells[y][x];
        let cls = "cell";
        if (seat) cls += ` o-${colours[seat]}`;
        if (last.has(name)) cls += " last";
        if (!seat && cornerSet.has(name)) cls += ` corner k-${cornerColour}`;
        if (c.dataset.base !== cls) {
          c.dataset.base = cls;
          c.className = cls;
          if (seat) c.setAttribute("aria-label", `${name} ${colours[seat]}`);
          else c.removeAttribute("aria-label");
        }
      }
    }
  }

  /** Mark every cell some legal placement of the lifted piece covers. */
  setCover(names) {
    for (const c of this.cover) c.classList.remove("can");
    this.cover = [];
    for (const name of names) {
      const m = /^([a-z])(\d+)$/.exec(name);
      const x = m[1].charCodeAt(0) - 97;
      const y = Number(m[2]) - 1;
      const c = this.cells[y]?.[x];
      if (c) {
        c.classList.add("can");
        this.cover.push(c);
      }
    }
  }

  /** Show the piece in hand: `verdict` is "legal", "illegal" or "pending" (list not loaded);
   * "better": a move drawn over the position (the replay's better move). */
  setPreview(cells, verdict) {
    for (const c of this.preview) c.classList.remove("pv", "pv-legal", "pv-illegal", "pv-pending", "pv-better");
    this.preview = [];
    for (const [x, y] of cells) {
      const c = this.inside([x, y]) && this.cells[y][x];
      if (!c) continue;
      c.classList.add("pv", `pv-${verdict}`);
      this.preview.push(c);
    }
    this.el.dataset.preview = cells.length ? verdict : "none";
  }
}
