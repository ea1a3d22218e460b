// Corner Claim's picture for the lobby's card, and the boards the how-to-play sheet draws
// (js/howto/cornerclaim.js): squares in the seat colours on the empty grid.

import { picture, squares, svg } from "/js/howto/svg.js";

/** A square's letter → its fill: the seat colours (the board module's palette), empty. */
export const FILLS = { B: "#2f6fde", Y: "#e0b400", R: "#d63c3c", G: "#2e9e4f", ".": "#dde3ec", s: "#dde3ec" };

/** A board drawn from rows of letters (B Y R G a colour, "." empty, "s" a start square
 *  still empty), the top row first; `label` its accessible name; `extra` drawn over it. */
export function claimBoard(rows, label = "", ...extra) {
  const w = rows[0].length, hgt = rows.length;
  const at = (x, y) => rows[y][x];
  return picture(w + 0.2, hgt + 0.2, label,
    svg("rect", { width: w + 0.2, height: hgt + 0.2, rx: 0.2, fill: "#b9c2d0" }),
    svg("g", { transform: "translate(0.1 0.1)" },
      squares(w, hgt, (x, y) => FILLS[at(x, y)] || FILLS["."], 0.08),
      rows.flatMap((row, y) => [...row].map((c, x) => (c === "s"
        ? svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.2, fill: "#2f6fde" }) : null))),
      extra));
}

/** The lobby card's picture: four colours grown from the corners, touching corner to corner. */
export function thumbnail() {
  return claimBoard([
    "BB.....GG",
    "B.......G",
    ".BBB..GG.",
    "....B.G..",
    "....BB.G.",
    "..YY..RR.",
    ".YY..RR.R",
    "Y.......R",
    "YYY....RR",
  ]);
}
