// How to play Corner Claim: the guide its how-to-play sheet shows (js/howto/sheet.js), with
// small boards drawn by the game's picture module (js/boards/cornerclaim/thumb.js).

import { h } from "/js/dom.js";
import { claimBoard } from "/js/boards/cornerclaim/thumb.js";
import { mark } from "/js/howto/svg.js";
import { figure, points, section } from "/js/howto/parts.js";

const ok = (yes) => mark(yes, 4.55, 0.65);

/** The guide's parts, for the sheet; `entry` is the game's catalog line. */
export function guide() {
  return [
    section("The goal",
      "Everyone holds the same 21 shapes in their own colour, from a single square up to twelve shapes of five squares. " +
      "Take turns laying them on the board. Every square you cannot lay costs you a point at the end, so the aim is to " +
      "fit as much of your colour on the board as you can.",
      "Two players share a 14×14 board; three or four share a 20×20 one. There is no luck and nothing hidden."),
    section("Your turn",
      "Lay one of your shapes on empty squares. You may turn it and flip it over first. Tap a shape in your tray, " +
      "move it over the board (lit in your colour where it fits, dark and crossed where it does not) and tap Place. " +
      "A piece stays where it is laid for the rest of the game."),
    section("Your first piece",
      "Your first shape must cover your start square, marked with a dot. With four players the start squares are the " +
      "board's corners; with two they sit a little way inside, so the colours meet early.",
      figure([claimBoard(["s....", ".....", ".....", ".....", "....."], "An empty corner with the start square marked"),
        "The start square"],
      [claimBoard(["BBB..", "B....", ".....", ".....", "....."], "A first blue piece covering the start square"),
        "The first piece covers it"])),
    section("Corners yes, sides never",
      "Every shape after the first must touch one of your own shapes at a corner, point to point. " +
      "And none of your shapes may ever share a side with another of yours. That one pair of rules is the whole game: " +
      "your colour grows as a chain of corner contacts.",
      figure([claimBoard(["BB...", "B....", ".BB..", "..B..", "....."], "Two blue pieces meeting at a corner: allowed", ok(true)),
        "Touching at a corner: yes"],
      [claimBoard(["BB...", "B....", "BB...", ".B...", "....."], "Two blue pieces sharing a side: not allowed", ok(false)),
        "Sharing a side: no"],
      [claimBoard(["BB...", "BYY..", "..Y..", ".....", "....."], "A yellow piece along a blue one's side: allowed", ok(true)),
        "Another colour's side: fine"])),
    section("Other colours",
      "Other colours do not limit you: lay your shape right along theirs, and they along yours. They only get in your " +
      "way by taking squares you wanted. Blocking the corner an opponent needs is often as good as opening one of your own."),
    section("Passing and the end",
      "When none of your shapes fits anywhere, you are out of moves: the table skips your turns from then on. " +
      "You cannot pass while a shape still fits. The game ends when nobody can lay anything; most players still hold a few shapes then."),
    section("Scoring",
      points("Each square still in your hand: −1 point.",
        "All 21 shapes laid: +15 instead.",
        "All 21 laid with the single square last: +20."),
      "The highest score wins, so most games are won in negatives: −6 beats −13. A tie for the top score is a draw. " +
      "A player who leaves a three- or four-player game stops laying shapes and cannot win; the others play on."),
    section("Tips",
      points("Lay the big five-square shapes first: they are the hardest to fit late.",
        "Head for the middle, where every shape opens more corners.",
        "Keep the single square for the end: it fits where nothing else does."),
      h("p.note", {}, "Keys at a desk: arrows move the shape, R turns it, F flips it, Space places it, Escape puts it back.")),
  ];
}
