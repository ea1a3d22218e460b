// The seats list (scores, tags, every other seat's remaining shapes) and the game-over table.
// Pure views: they take the host's state and what this phone knows, and return elements.

import { h, COLOUR_LETTER, title } from "./dom.js";
import { PIECES, shapeSvg } from "./shapes.js";

/** A seat's display name: its player's name, or its colour for computers and empty seats. */
export function seatName(seat) {
  if (!seat) return "";
  return seat.kind === "computer" ? `Computer (${title(seat.colour)})` : seat.name || title(seat.colour);
}

/**
 * One card per seat. `ctx`: {tokens, thinking, viewSeat (its shapes are in the tray, not
 * here), finished, canDeclare (this phone holds a seat or the host token), onDeclareLeft(seat)}.
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
    const colour = title(seat.colour);
    return h(`div.seat.c-${seat.colour}`, { "data-testid": `seat-${seat.seat}`,
      "data-to-move": String(state.to_move === seat.seat && !ctx.finished) },
      h("div.seat-head", {},
        h(`span.chip.c-${seat.colour}`, { "aria-hidden": "true" }, COLOUR_LETTER[seat.colour]),
        h("span.seat-name", {}, seat.kind === "computer" ? colour : seat.name || colour),
        tags.map((t) => h("span.tag", { "data-testid": `tag-${seat.seat}-${t.split(" ")[0].replace("…", "")}` }, t)),
        h("span.score", { "data-testid": `score-${seat.seat}`, "aria-label": `${colour} score ${seat.score}` },
          String(seat.score))),
      declareButton(seat, ctx, state.seats.length),
      seat.seat === ctx.viewSeat ? null : h("div.mini", { "aria-label": `${seat.pieces_left.length} pieces left` },
        seat.pieces_left.map((p) => shapeSvg(PIECES[p], 5, "mini-piece"))));
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

/** Final scores, winner or draw, match points, rematch and replay links. `ctx`: {gameId,
 * canRematch, onRematch}. */
export function gameOverCard(state, ctx) {
  const r = state.result || {};
  const w = r.winners || [];
  const name = (n) => seatName(state.seats[n - 1]);
  const rows = state.seats.map((seat, i) => h("tr", { "data-testid": `final-${seat.seat}` },
    h("td", {}, h(`span.chip.c-${seat.colour}`, { "aria-hidden": "true" }, COLOUR_LETTER[seat.colour]), " ", name(seat.seat)),
    h("td.num", {}, String(r.scores ? r.scores[i] : seat.score)),
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
      h("a.btn", { href: `/api/games/${id}/replay.json`, download: `cornerclaim-${id}.json`, "data-testid": "replay" }, "Replay (JSON)"),
      h("a.btn", { href: `/api/games/${id}/replay.blksgf`, download: `cornerclaim-${id}.blksgf` }, "Replay (Pentobi)")));
}
