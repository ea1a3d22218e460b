// How to play Corners (Ugolki): the guide its how-to-play sheet shows (js/howto/sheet.js),
// with small boards drawn by the game's picture module (js/boards/corners/thumb.js).

import { cornersBoard } from "/js/boards/corners/thumb.js";
import { arrow, mark } from "/js/howto/svg.js";
import { figure, points, section } from "/js/howto/parts.js";

const centre = ([x, y]) => [x + 0.5, y + 0.5];
/** A piece's path over squares [x, y], starting at the piece's rim, not over its middle. */
function path(...squares) {
  const [[x0, y0], [x1, y1], ...rest] = squares.map(centre);
  const d = Math.hypot(x1 - x0, y1 - y0);
  return arrow([[x0 + ((x1 - x0) * 0.38) / d, y0 + ((y1 - y0) * 0.38) / d], [x1, y1], ...rest], "#1560d4", 0.14);
}

/** The guide's parts, for the sheet; `entry` is the game's catalog line. */
export function guide() {
  return [
    section("The goal",
      "A race with no captures. Each side starts with its pieces packed in its own corner, its home. " +
      "The first to fill every square of the other side's home with its own pieces wins.",
      figure([cornersBoard([".....bbb", ".....bbb", ".....bbb", "........", "........", "www.....", "www.....", "www....."],
        "The start of the classic game: white's home bottom left, black's top right"),
      "The classic start: White in the a1 corner, Black opposite. White moves first."])),
    section("A move: a step",
      "Move one of your pieces to a neighbouring empty square: up, down, left or right. " +
      "In the diagonal variants and in Halma, diagonal steps are allowed too.",
      figure([cornersBoard([".....", ".....", "..w..", ".....", "....."], "A white piece and its four steps",
        path([2, 2], [2, 1]), path([2, 2], [3, 2]), path([2, 2], [2, 3]), path([2, 2], [1, 2])), "A step to any side"])),
    section("A move: jumps",
      "Or jump: over a neighbouring piece, yours or your opponent's, to the empty square right behind it. " +
      "Jumps chain: after one you may jump again with the same piece, in any direction, and stop whenever you like. " +
      "A chain never lands twice on the same square. A move is either one step or one chain of jumps, never both, and you cannot pass.",
      figure([cornersBoard(["......", "......", "......", "..w...", "wb....", "......"], "A white piece jumping over a black piece, then over a white one",
        path([0, 4], [2, 4], [2, 2])), "Two jumps in one move"],
      [cornersBoard(["....", ".b..", "w...", "...."], "A step and a jump in one move: not allowed",
        path([0, 2], [0, 1]), path([0, 1], [2, 1]), mark(false, 3.45, 0.55)), "No step then jump"])),
    section("Leave home in time",
      "Every piece must be out of its own home by move 40 (30 in the diagonal variants, 60 in Halma; a move is White's turn and Black's). " +
      "After Black's move of that number, a side with a piece still at home loses; if both have one, it is a draw. " +
      "From then on a piece that lands back in its own home loses the game (the table asks before such a move). Jumping through it is fine."),
    section("No locking in",
      "In the classic variants you may not make a move after which one of your opponent's pieces can neither step nor jump " +
      "and one of your pieces helps to block it. The table does not offer such moves. The diagonal variants and Halma allow it."),
    section("Winning",
      figure([cornersBoard([".....www", ".....www", ".....www", "........", "....b...", "...b.b..", "..b.bbb.", ".b....b."],
        "White's pieces fill Black's home"), "White has filled Black's home"]),
      points("Fill the other home first and you win. White moves first, so Black always gets its reply: " +
        "if Black fills White's home with it, the game is a draw.",
      "At move 80 (150 in Halma) the side with more pieces in the other's home wins; equal is a draw.",
      "The same position three times is a draw, and so is a side left with no move at all.",
      "With a clock, the side whose time runs out loses.")),
    section("At the table",
      "Tap one of your pieces: the squares it can reach light up. Tap one to move there; the table takes the shortest chain of jumps. " +
      "You can drag the piece instead. At a desk the arrows choose a square, Enter picks and moves, Escape lets go."),
  ];
}
