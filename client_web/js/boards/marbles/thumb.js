// Corner's picture for the lobby's card, and the boards the how-to-play sheet draws
// (js/howto/marbles.js): the 6×6 board of marbles, red's arrow under a column, yellow's
// beside a row (as seat 1 and seat 2 see their grooves).

import { picture, svg } from "/js/howto/svg.js";

/** A marble's letter → its fill (the board module's colours). */
export const MARBLES = { Y: "#f6d23a", R: "#d32f2f", G: "#2e9d44", B: "#1e5bd8", W: "#f7f7f2", S: "#9a9a9a", K: "#161616" };

/** A marble of colour `c` at cell (x, y) of the board, x from the left, y from the top. */
export const marble = (c, x, y, r = 0.36) => svg("circle", { cx: x + 1.5, cy: y + 0.5, r, fill: MARBLES[c],
  stroke: c === "K" ? "#888" : "rgba(0,0,0,.35)", "stroke-width": 0.05 });

const pointer = (points, fill, ghost) => svg("polygon", { points, fill, stroke: "#111", "stroke-width": 0.05,
  opacity: ghost ? 0.35 : null, "stroke-dasharray": ghost ? "0.1 0.08" : null });
/** Red's arrow under column `col` (0-5 from the left); `ghost`: where it stood before. */
export const redArrow = (col, ghost = false) => pointer(`${col + 1.5},6.15 ${col + 1.15},6.95 ${col + 1.85},6.95`, "#ff5a4f", ghost);
/** Yellow's arrow left of row `row` (0-5 from the top). */
export const yellowArrow = (row, ghost = false) => pointer(`0.85,${row + 0.5} 0.1,${row + 0.15} 0.1,${row + 0.85}`, "#ffe04a", ghost);
/** A white ring round the marble at (x, y): the one taken. */
export const ring = (x, y) => svg("circle", { cx: x + 1.5, cy: y + 0.5, r: 0.47, fill: "none", stroke: "#fff", "stroke-width": 0.1 });

/** The board drawn from six rows of six letters (a marble's letter, "." an empty hole), the
 *  top row first; `label` its accessible name; `extra` (arrows, rings) drawn over it. */
export function marblesBoard(rows, label = "", ...extra) {
  const holes = rows.flatMap((line, y) => [...line].flatMap((c, x) => [
    svg("circle", { cx: x + 1.5, cy: y + 0.5, r: 0.3, fill: "#3e2a18" }), c === "." ? null : marble(c, x, y)]));
  return picture(7.1, 7.1, label, svg("rect", { x: 1, y: 0, width: 6, height: 6, rx: 0.3, fill: "#7a5635" }), holes, extra);
}

/** The lobby card's picture: a round under way, the two arrows crossing at a marble. */
export function thumbnail() {
  return marblesBoard(["YR.GBY", "W.YKR.", "GY.BYS", "R.G.WY", "KBYR.G", "S.RYWK"], "", redArrow(3), yellowArrow(2), ring(3, 2));
}
