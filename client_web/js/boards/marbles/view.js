// Where things sit on Corner's board as seen from one seat's side.
//
// The board is an 8×8 grid: the 6×6 marbles framed by four grooves. Seen from seat 1, columns
// a–f run from the left and rows 1–6 from the bottom (the host's notation); seat 1's groove is
// at the bottom, seat 2's at the left, seat 3's at the top, seat 4's at the right. Each seat
// sees the board turned so its own groove is at the bottom, as a player sitting at that edge
// of the table does.

export const COLUMNS = "abcdef";
export const ROWS = "123456";
/** Each seat's groove, named as seen from seat 1. */
export const GROOVES = { 1: "bottom", 2: "left", 3: "top", 4: "right" };
const POINTING = { bottom: "▲", top: "▼", left: "▶", right: "◀" };
// The edges in the order a quarter turn to the left moves them: bottom to right, right to top…
const EDGES = ["bottom", "right", "top", "left"];

export const grooveOf = (seat) => GROOVES[seat] || "bottom";
export const seatOfGroove = (groove) => Number(Object.keys(GROOVES).find((s) => GROOVES[s] === groove));

/** How many quarter turns to the left bring `seat`'s groove to the bottom (0 for none). */
export function quartersFor(seat) {
  const from = EDGES.indexOf(grooveOf(seat));
  return seat ? (4 - from) % 4 : 0;
}

/** Where the grid square (row, col) of seat 1's picture lands after `quarters` left turns. */
export function place(row, col, quarters) {
  let [r, c] = [row, col];
  for (let i = 0; i < quarters; i++) [r, c] = [7 - c, r];
  return [r, c];
}

/** The edge of the screen a groove is on after `quarters` left turns. */
export const screenEdge = (groove, quarters) => EDGES[(EDGES.indexOf(groove) + quarters) % 4];

/** The arrow's glyph in a groove on that screen edge: it points into the board. */
export const pointing = (edge) => POINTING[edge];

/** The grid square (row, col) of seat 1's picture for a cell name like "c4". */
export const squareOfCell = (name) => [7 - Number(name[1]), COLUMNS.indexOf(name[0]) + 1];

/** The grid square of seat 1's picture for a groove's slot of `line`. */
export function squareOfSlot(groove, line) {
  if (groove === "top" || groove === "bottom") return [groove === "top" ? 0 : 7, COLUMNS.indexOf(line) + 1];
  return [7 - Number(line), groove === "left" ? 0 : 7];
}
