// Corners' picture for the lobby's card, and the boards the how-to-play sheet draws
// (js/howto/corners.js): the checkered board, the two homes, white and black pieces.

import { picture, squares, svg } from "/js/howto/svg.js";

const LIGHT = "#ead7b0", DARK = "#b68c5e";

/** A piece at square (x, y), x from the left, y from the top: "w" white or "b" black. */
export function piece(kind, x, y) {
  return svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.36, fill: kind === "w" ? "#f7f3e8" : "#161616",
    stroke: kind === "w" ? "#2b2b2b" : "#e8e8e8", "stroke-width": 0.07 });
}

/** A board drawn from rows of letters (w a white piece, b a black one, "." empty, "+" an
 *  empty square of a home), the top row first; `label` its accessible name; `extra` over it. */
export function cornersBoard(rows, label = "", ...extra) {
  const w = rows[0].length, hgt = rows.length;
  return picture(w, hgt, label,
    squares(w, hgt, (x, y) => ((x + y) % 2 ? DARK : LIGHT)),
    rows.flatMap((row, y) => [...row].map((c, x) => (c === "+"
      ? svg("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, fill: "none", stroke: "#1560d4", "stroke-width": 0.08, "stroke-dasharray": "0.15 0.1" })
      : c === "w" || c === "b" ? piece(c, x, y) : null))),
    extra);
}

/** The lobby card's picture: the race under way on 8×8, each side half out of its home. */
export function thumbnail() {
  return cornersBoard([
    ".....bbb",
    "....b.bb",
    "...b.b.b",
    "..w.b...",
    "...w.w..",
    "w.w.....",
    "ww.w....",
    "w.w.....",
  ]);
}
