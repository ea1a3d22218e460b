// Tic-tac-toe's board module (the test-only game; served as /boards/tictactoe.js once
// tests/games/tictactoe.py is registered). The same interface as every board module
// (docs/ui.md): a 3×3 grid of buttons; a tap on a cell asks the host's legal list and plays
// the cell's name if the host lists it. It holds no rules of its own.

/** Seat colours as the shell shows them: chip fill, the text on it, the chip's sign. */
export const palette = {
  cross: { fill: "#c2410c", ink: "#fff", mark: "✕" },
  nought: { fill: "#0f766e", ink: "#fff", mark: "◯" },
};
const MARKS = { cross: "✕", nought: "◯" };
const COLUMNS = "abc";

const style = document.createElement("style");
style.dataset.board = "tictactoe";
style.textContent = `
.ttt-board { display: grid; grid-template-columns: repeat(3, 1fr); gap: 6px; width: min(100%, 420px);
  aspect-ratio: 1; margin: 0 auto; touch-action: manipulation; }
.ttt-cell { min-height: 44px; border-radius: 10px; border: 2px solid var(--line); background: var(--empty);
  color: #111; font-size: clamp(28px, 12vw, 72px); font-weight: 800; display: grid; place-items: center;
  cursor: pointer; padding: 0; }
.ttt-cell.o-cross { color: #c2410c; }
.ttt-cell.o-nought { color: #0f766e; }
.ttt-cell.last { box-shadow: 0 0 0 3px #fff; }
.ttt-cell:disabled { cursor: default; }
`;
document.head.append(style);

/** ctx: {el, side, readOnly, host: {legal(seat)}, play(seat, move) → Promise<bool>, say(text)}. */
export function createBoard(ctx) {
  let view = {};
  const grid = document.createElement("div");
  grid.className = "ttt-board";
  grid.dataset.testid = "board";
  grid.setAttribute("role", "grid");
  grid.setAttribute("aria-label", "Board, 3 by 3");
  const cells = [];
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 3; col++) {
      const name = `${COLUMNS[col]}${3 - row}`;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "ttt-cell";
      b.dataset.testid = `cell-${name}`;
      b.addEventListener("click", () => tap(name));
      cells.push({ row, col, name, el: b });
      grid.append(b);
    }
  }
  ctx.el.replaceChildren(grid);

  async function tap(name) {
    const seat = view.active;
    if (ctx.readOnly || !seat || view.busy) return;
    try {
      const answer = await ctx.host.legal(seat);
      const listed = (answer.moves || []).find((m) => m.move === name);
      if (!listed) return ctx.say(`${name} is not a move the host offers.`);
      await ctx.play(seat, listed.move);
    } catch (err) {
      ctx.say(err.message);
    }
  }

  function render(s, v = {}) {
    view = v;
    const colours = s.seats.map((seat) => seat.colour);
    const last = s.last_move?.move;
    for (const c of cells) {
      const seat = Number(s.board.rows[c.row][c.col]);
      const colour = seat ? colours[seat - 1] : "";
      c.el.textContent = seat ? MARKS[colour] || String(seat) : "";
      c.el.className = `ttt-cell${colour ? " o-" + colour : ""}${c.name === last ? " last" : ""}`;
      c.el.disabled = ctx.readOnly || !view.active || !!view.busy || !!seat;
      c.el.setAttribute("aria-label", seat ? `${c.name} ${colour}` : `${c.name} empty`);
    }
  }

  return {
    render,
    seatDetail: () => null,
    describeMove: (frame) => frame.move,
    onKey: () => false,
    destroy() {
      ctx.el.replaceChildren();
    },
  };
}
