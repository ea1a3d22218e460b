// The turn line (whose turn, waiting for players, who won) and the notice of standing facts
// for this phone (a seat of mine with no move left, or only watching).

import { title } from "../dom.js";
import { abandoned, endingText } from "../seats.js";
import { resultText } from "../results.js";

/** The turn line's text for the table `g`, read through its seat view `v`. */
export function turnText(g, v) {
  const s = g.state;
  if (s.result && (abandoned(s) || s.result.reason === "everyone_left")) return endingText(s);
  if (v.finished()) {
    const who = resultText(s.result, v.nameOf, true); // a team's win names the team
    return who ? `Game over — ${who}` : "Game over";
  }
  if (s.closed) return "The host closed this game";
  if (s.status === "open") {
    const open = s.seats.filter((x) => !x.claimed).length;
    return `Waiting for ${open} more player${open === 1 ? "" : "s"}`;
  }
  const who = title(v.colourOf(s.to_move));
  if (v.activeSeat() && v.isHotSeat()) { // one phone, several people: the person by name
    const name = v.seatsOf()[s.to_move - 1]?.name;
    return `${name ? `${name}'s turn (${who})` : `${who}'s turn`} — pass the phone`;
  }
  if (v.activeSeat()) return `Your turn (${who})`;
  if (v.outOfMoves().length && !v.isHotSeat()) return `${who}'s turn — you have no moves left`;
  if (g.thinking[s.to_move]) return `${who}'s turn — computer is thinking…`;
  const seat = s.seats[s.to_move - 1];
  return `${who}'s turn${seat?.away ? " (away)" : ""}`;
}

/** Shows in `notice` what stands for this phone: its seats out of moves, or only watching. */
export function renderNotice(notice, g, v) {
  const s = g.state;
  const out = v.outOfMoves();
  let text = "";
  let kind = "";
  if (out.length) {
    kind = "out-of-moves";
    text = v.isHotSeat()
      ? out.map((x) => `${title(v.colourOf(x))} has no moves left: ${title(v.colourOf(x))}'s turn is skipped.`).join(" ")
      : "No moves left: your turn is skipped. The others play on to the end.";
  } else if (!v.mySeats().length && !v.finished() && s.status !== "open") {
    kind = "watching";
    text = "You are watching this game: only the players at the table can move.";
  } else if (!v.mySeats().length && g.watch && !v.finished()) {
    kind = "watching";
    text = "You are watching this game.";
  }
  notice.hidden = !text;
  notice.textContent = text;
  notice.dataset.kind = kind;
  notice.className = `notice${out.length === 1 ? " c-" + v.colourOf(out[0]) : ""}`;
}
