// The seats list (scores, tags, and what the game's board module adds under a seat) and the
// game-over table. Pure views: they take the host's state and what this phone knows, and
// return elements.

import { h, title } from "./dom.js";
import { colourMark } from "./catalog.js";
import { resultText } from "./results.js";

/** A seat's display name: the host's name for it (a player's, or a computer's "Computer L3"),
 * else its colour (a guest nobody named, an empty seat). */
export function seatName(seat) {
  if (!seat) return "";
  return seat.name || title(seat.colour);
}

/** Whether the host ended the game before its end: abandoned, with no result. */
export function abandoned(state) {
  const reason = state.result?.reason;
  return reason === "closed" || reason === "cancelled";
}

/** How the game ended, in a line: who won (a team by its name and players), or why nobody
 * did. From the host's results and teams (results.js), never the count of winners. */
export function endingText(state) {
  const r = state.result || {};
  const name = (n) => seatName(state.seats[n - 1]);
  if (r.reason === "closed") return "The host closed this game";
  if (r.reason === "cancelled") return "The host cancelled this game";
  const who = resultText(r, name);
  if (who) return who;
  if (r.reason === "everyone_left") return "Everyone left: nobody wins";
  return "Game over";
}

/**
 * One card per seat. `ctx`: {tokens, thinking, finished, canDeclare (this phone holds a seat
 * or the host token), onDeclareLeft(seat), detail(seat) → the board module's element for the
 * seat (Corner Claim: its pieces left) or null}.
 */
export function seatCards(state, ctx) {
  return state.seats.map((seat) => {
    const tags = [];
    if (ctx.tokens[seat.seat]) tags.push("you");
    if (seat.left) tags.push("left");
    else if (seat.away) tags.push("away");
    else if (!seat.claimed) tags.push("open seat");
    if (ctx.thinking[seat.seat]) tags.push("thinking…");
    // Still at the table with nothing that fits: the host skips the seat's turns.
    const out = seat.out_of_moves && !seat.left && !ctx.finished;
    const colour = title(seat.colour);
    return h(`div.seat.c-${seat.colour}`, { "data-testid": `seat-${seat.seat}`,
      "data-to-move": String(state.to_move === seat.seat && !ctx.finished) },
      h("div.seat-head", {},
        h(`span.chip.c-${seat.colour}`, { "aria-hidden": "true" }, colourMark(seat.colour)),
        h("span.seat-name", { "data-testid": `seat-name-label-${seat.seat}` }, seatName(seat)),
        tags.map((t) => h("span.tag", { "data-testid": `tag-${seat.seat}-${t.split(" ")[0].replace("…", "")}` }, t)),
        out ? h("span.tag.out", { "data-testid": `tag-${seat.seat}-out` }, "no moves left: turn skipped") : null,
        seat.score === null || seat.score === undefined ? null
          : h("span.score", { "data-testid": `score-${seat.seat}`, "aria-label": `${colour} score ${seat.score}` },
            String(seat.score))),
      declareButton(seat, ctx, state.seats.length),
      ctx.detail ? ctx.detail(seat) : null);
  });
}

/** An away seat may be declared left (after the host's grace period); in a 3–4 seat game an
 * open seat nobody claimed may be left empty so the others can start. Offered to seated
 * players and the host. The host may instead seat a computer at an open seat nobody claimed
 * (`ctx.onSeatComputer`): in a two-seat game that is the way to start without the opponent,
 * since an empty seat there would hand the other a win. */
function declareButton(seat, ctx, nuSeats) {
  if (!ctx.canDeclare || ctx.finished || seat.left) return null;
  const colour = title(seat.colour);
  const empty = seat.kind === "open" && !seat.claimed;
  const computer = empty && ctx.onSeatComputer
    ? h("button.btn.small", { type: "button", "data-testid": `seat-computer-${seat.seat}`,
      "aria-label": `A computer plays ${colour}`, onclick: () => ctx.onSeatComputer(seat.seat) }, "Computer plays")
    : null;
  if (!seat.away && !(empty && nuSeats > 2)) return computer; // two players: no empty seat
  return [computer, h("button.btn.small", { type: "button", "data-testid": `declare-left-${seat.seat}`,
    "aria-label": empty ? `Play without ${colour}` : `Declare ${colour} left (after the host's grace period)`,
    onclick: () => ctx.onDeclareLeft(seat.seat) }, empty ? "Play without" : "Declare left")];
}

/** Final scores, winner or draw, how the game ended (the game's words), match points, a
 * leaver's "(left)", rematch and replay links (JSON, and the game's own formats from the
 * catalog). A game the host closed shows the scores as they stood and no result.
 * `ctx`: {gameId, formats, canRematch, onRematch}. */
export function gameOverCard(state, ctx) {
  const r = state.result || {};
  const name = (n) => seatName(state.seats[n - 1]);
  const none = abandoned(state);
  const counts = !state.practice; // a practice game counts for nothing: no match points
  const rows = state.seats.map((seat, i) => h("tr", { "data-testid": `final-${seat.seat}` },
    h("td", {}, h(`span.chip.c-${seat.colour}`, { "aria-hidden": "true" }, colourMark(seat.colour)), " ", name(seat.seat)),
    h("td.num", {}, String(r.scores ? r.scores[i] : seat.score ?? "")),
    h("td", { "data-testid": `final-result-${seat.seat}` }, none ? "—"
      : `${r.results?.[i] ?? ""}${seat.left && r.results?.[i] ? " (left)" : ""}`),
    counts ? h("td.num", {}, none ? "—" : r.points?.length ? `+${r.points[i]}` : "") : null));
  const id = ctx.gameId;
  return h("section.card.gameover", { "data-testid": "gameover", "data-reason": r.reason || "" },
    h("h2", { "data-testid": "gameover-title" }, endingText(state)),
    // How it ended, in the game's own words (the host's result.ending).
    !none && r.ending ? h("p.ending", { "data-testid": "gameover-ending" }, r.ending) : null,
    none ? h("p.note", { "data-testid": "gameover-note" }, r.reason === "cancelled"
      ? "It ended before it started: nobody wins and nothing counts."
      : "It ended before its end: nobody wins and nothing counts. The scores as they stood:") : null,
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Score"), h("th", {}, "Result"),
        counts ? h("th", {}, "Match points") : null)),
      h("tbody", {}, rows)),
    h("div.controls", {},
      state.rematch_id
        ? h("a.btn.primary", { href: `#/game/${state.rematch_id}`, "data-testid": "rematch-link" }, "Go to the rematch")
        : ctx.canRematch
          ? h("button.btn.primary", { type: "button", "data-testid": "rematch", "aria-label": "Play again with the same seats",
            onclick: ctx.onRematch }, "Rematch")
          : null,
      h("a.btn", { href: `/replay.html?game=${encodeURIComponent(id)}`, "data-testid": "replay-viewer" }, "Watch the replay"),
      h("a.btn", { href: `/api/games/${id}/replay.json`, download: `${state.game}-${id}.json`, "data-testid": "replay" }, "Replay (JSON)"),
      (ctx.formats || []).map((f) => h("a.btn", { href: `/api/games/${id}/replay.${f.ext}`, download: `${state.game}-${id}.${f.ext}`,
        "data-testid": `replay-${f.ext}` }, `Replay (${f.label})`))));
}
