// The seats list (scores, tags, and what the game's board module adds under a seat) and the
// game-over table. Pure views: they take the host's state and what this phone knows, and
// return elements.

import { h, title } from "./dom.js";
import { colourMark } from "./catalog.js";

/** A seat's display name: its player's name, or its colour for computers and empty seats. */
export function seatName(seat) {
  if (!seat) return "";
  return seat.kind === "computer" ? `Computer (${title(seat.colour)})` : seat.name || title(seat.colour);
}

/**
 * One card per seat. `ctx`: {tokens, thinking, finished, canDeclare (this phone holds a seat
 * or the host token), onDeclareLeft(seat), detail(seat) → the board module's element for the
 * seat (Corner Claim: its pieces left) or null}.
 */
export function seatCards(state, ctx) {
  return state.seats.map((seat) => {
    const tags = [];
    if (seat.kind === "computer") tags.push(`computer${seat.level ? " L" + seat.level : ""}`);
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
        h("span.seat-name", {}, seat.kind === "computer" ? colour : seat.name || colour),
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
 * players and the host. */
function declareButton(seat, ctx, nuSeats) {
  if (!ctx.canDeclare || ctx.finished || seat.left) return null;
  const colour = title(seat.colour);
  const empty = seat.kind === "open" && !seat.claimed;
  if (!seat.away && !(empty && nuSeats > 2)) return null; // two players: wait for the other
  return h("button.btn.small", { type: "button", "data-testid": `declare-left-${seat.seat}`,
    "aria-label": empty ? `Play without ${colour}` : `Declare ${colour} left (after the host's grace period)`,
    onclick: () => ctx.onDeclareLeft(seat.seat) }, empty ? "Play without" : "Declare left");
}

/** Final scores, winner or draw, match points, rematch and replay links (JSON, and the
 * game's own formats from the catalog). `ctx`: {gameId, formats, canRematch, onRematch}. */
export function gameOverCard(state, ctx) {
  const r = state.result || {};
  const w = r.winners || [];
  const name = (n) => seatName(state.seats[n - 1]);
  const rows = state.seats.map((seat, i) => h("tr", { "data-testid": `final-${seat.seat}` },
    h("td", {}, h(`span.chip.c-${seat.colour}`, { "aria-hidden": "true" }, colourMark(seat.colour)), " ", name(seat.seat)),
    h("td.num", {}, String(r.scores ? r.scores[i] : seat.score ?? "")),
    h("td", {}, r.results ? r.results[i] : ""),
    h("td.num", {}, r.points ? `+${r.points[i]}` : "")));
  const id = ctx.gameId;
  return h("section.card.gameover", { "data-testid": "gameover" },
    h("h2", {}, w.length === 1 ? `${name(w[0])} wins` : w.length ? `Draw between ${w.map(name).join(" and ")}` : "Game over"),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Score"), h("th", {}, "Result"), h("th", {}, "Match points"))),
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
