// How to play Corner (the marble game): the guide its how-to-play sheet shows
// (js/howto/sheet.js), with small boards drawn by the game's picture module
// (js/boards/marbles/thumb.js).

import { h } from "/js/dom.js";
import { marblesBoard, redArrow, ring, yellowArrow } from "/js/boards/marbles/thumb.js";
import { mark } from "/js/howto/svg.js";
import { figure, points, section } from "/js/howto/parts.js";

const BOARD = ["YRGGBY", "WBYKRR", "GYWBYS", "RYGSWY", "KBYRGG", "SWRYBK"];
const taken = (rows, x, y) => rows.map((r, i) => (i === y ? r.slice(0, x) + "." + r.slice(x + 1) : r));
const POINTS = [1, 3, 6, 10, 13, 16, 20, 24];

/** The guide's parts, for the sheet; `entry` is the game's catalog line. */
export function guide() {
  const afterYellow = taken(BOARD, 2, 2);
  return [
    section("The goal",
      "36 marbles fill a 6×6 board: 8 yellow, 7 red, 6 green, 5 blue, 4 white, 3 grey and 3 black. " +
      "Players take them one at a time and score for each colour they collect; many marbles of one colour score far more than a few of each."),
    section("Two arrows",
      "Red's arrow sits under the board and points up a column; Yellow's sits beside it and points along a row. " +
      "Where the two lines cross is the marble the player who just moved takes.",
      figure([marblesBoard(BOARD, "Red's arrow under the third column", redArrow(2)),
        "Red opens a round by pointing at any column; it takes nothing yet."],
      [marblesBoard(BOARD, "Yellow's arrow at the third row; the white marble where the lines cross is taken", redArrow(2), yellowArrow(2), ring(2, 2)),
        "Yellow points at a row and takes the marble at the crossing."])),
    section("Every move after that",
      "On your turn slide your own arrow to a different line, never the one it is on, and take the marble where your new line " +
      "crosses your opponent's arrow. You may not pass, and the crossing must hold a marble you can take: " +
      "black marbles are never taken, and neither is an empty hole.",
      figure([marblesBoard(afterYellow, "Red's arrow moved from the third column to the fifth; the yellow marble at the crossing is taken",
        redArrow(2, true), redArrow(4), yellowArrow(2), ring(4, 2)), "Red slides to a new column and takes at Yellow's row."],
      [marblesBoard(afterYellow, "Red's arrow at the fourth column crossing Yellow's second row at a black marble: not allowed",
        redArrow(3), yellowArrow(1), ring(3, 1), mark(false, 0.5, 6.55)), "A black marble can never be taken."])),
    section("The end of a round",
      "The round ends when the player to move has no line left that crosses a marble they may take. " +
      "Each side then scores every colour it holds:",
      h("table.howto-table", {}, h("tr", {}, h("th", { scope: "row" }, "Marbles"), POINTS.map((_, i) => h("td", {}, String(i + 1)))),
        h("tr", {}, h("th", { scope: "row" }, "Points"), POINTS.map((p) => h("td", {}, String(p))))),
      points("A colour held by one side only scores double, even if marbles of it are still on the board.",
        "Black never scores.",
        "The board is dealt again for the next round, and the other colour opens it.")),
    section("The game",
      "A game has the number of rounds chosen when it was made (two by default, so each colour opens once). " +
      "The side with the higher total after the last round wins; equal totals are a draw."),
    section("Four players",
      "Two teams, partners sitting opposite: two red arrows against two yellow ones, turns going round the table. " +
      "You take where your new line crosses either opponent's arrow, so there are often two marbles to choose from. " +
      "The round ends when the player to move cannot take anything, even if their partner still could. Marbles and points belong to the team."),
    section("At the table",
      "Tap one of the lit lines in your groove, then one of the ringed marbles on it; or slide your finger along the groove. " +
      "At a desk, Left and Right move your arrow, Enter places or takes, Escape lets go."),
  ];
}
