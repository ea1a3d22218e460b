// Corners' keys (through the shell): arrows move a cursor square as seen, Enter picks the
// piece under it or plays the move to the lit square under it, Esc puts the piece down (again:
// hides the cursor).

const COLUMNS = "abcdefghijklmnop";

/**
 * b: the board's parts the keys use: {g (its state: n, cells, picked, cursor, chosen, view,
 * turned, confirming), readOnly, owner(square), screenOf(cell), entryTo(square),
 * colourOf(seat), activate(square), cancel(), paint(), say(text)}. Returns onKey(e) → whether
 * the board used the key.
 */
export function boardKeys(b) {
  const { g } = b;
  const dist = (c) => Math.abs(c.row - (g.n - 1) / 2) + Math.abs(c.col - (g.n - 1) / 2);

  function firstCursor() {
    if (g.picked) return g.picked.from;
    const seat = g.view.active;
    const mine = [...g.cells.entries()].filter(([name]) => b.owner(name) === seat);
    // The piece nearest the middle of the board as seen.
    mine.sort((x, y) => dist(x[1]) - dist(y[1]));
    return mine[0]?.[0] || g.cells.keys().next().value;
  }

  function nudge(dr, dc) {
    if (!g.cursor) g.cursor = firstCursor();
    else {
      const [r, c] = b.screenOf(g.cells.get(g.cursor));
      const nr = Math.max(0, Math.min(g.n - 1, r + dr));
      const nc = Math.max(0, Math.min(g.n - 1, c + dc));
      const [row, col] = g.turned ? [g.n - 1 - nr, g.n - 1 - nc] : [nr, nc];
      g.cursor = `${COLUMNS[col]}${g.n - row}`;
    }
    g.chosen = null;
    b.paint();
    const m = b.entryTo(g.cursor);
    const v = b.owner(g.cursor);
    b.say(`${g.cursor}: ${v ? `${b.colourOf(v)} piece` : "empty"}${m ? `, ${m.move}${m.loses ? " (loses)" : ""}` : ""}`);
  }

  return function onKey(e) {
    if (b.readOnly) return false;
    if (g.confirming) return true; // the dialog has the keys (Esc closes it)
    const seat = g.view.active;
    const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (arrows[e.key]) {
      if (!seat) return false;
      e.preventDefault();
      nudge(...arrows[e.key]);
      return true;
    }
    if (e.key === "Enter") {
      if (!seat) return false;
      e.preventDefault();
      if (!g.cursor) {
        g.cursor = firstCursor();
        b.paint();
        return true;
      }
      b.activate(g.cursor);
      return true;
    }
    if (e.key === "Escape") {
      if (!g.picked && !g.cursor) return false;
      if (g.picked) b.cancel();
      else {
        g.cursor = null;
        b.paint();
      }
      return true;
    }
    return false;
  };
}
