// One table on /tv: the game drawn by its own board module from the host's pushed states alone
// (boards/watch.js, live, read-only), its seats (names in their colours, scores, the seat to
// move marked, what the board adds under a seat), the turn line, and at the end the result
// over the table for a while. It follows its game as a spectator does: `join` with no token.
// A rematch started at the table replaces the game in the tile.

import { gameEntry, loadBoard, variantOf, colourMark } from "../catalog.js";
import { h, title } from "../dom.js";
import { follow, unfollow } from "../net.js";
import { endingText, seatName } from "../seats.js";
import { watchBoard } from "../boards/watch.js";
import { fitInto } from "./fit.js";

export const OVER_MS = 15_000; // how long the result stays over a finished table

/** What the turn line says and in whose colour. */
function turnOf(s, thinking) {
  if (s.result) return { text: endingText(s), colour: null };
  if (s.status === "open") {
    const open = s.seats.filter((x) => !x.claimed).length;
    return { text: `Waiting for ${open} more player${open === 1 ? "" : "s"}`, colour: null };
  }
  const seat = s.seats[s.to_move - 1];
  if (!seat) return { text: "", colour: null };
  // The colour says whose side it is: the pill is drawn in it.
  return { text: `${seatName(seat)}${thinking[seat.seat] ? " is thinking…" : "'s turn"}`, colour: seat.colour };
}

/** A colour's chip sign in the game's own palette (two games may both have a "red"). */
export const markOf = (entry, colour) => entry?.palette?.[colour]?.mark || colourMark(colour);

function seatLine(seat, s, thinking, detail, entry) {
  const toMove = !s.result && s.status === "running" && s.to_move === seat.seat;
  const tags = [];
  if (seat.left) tags.push("left");
  else if (seat.away) tags.push("away");
  else if (!seat.claimed) tags.push("open seat");
  if (thinking[seat.seat]) tags.push("thinking…");
  if (seat.out_of_moves && !seat.left && !s.result) tags.push("no moves left");
  return h(`li.tv-seat.c-${seat.colour}`, { "data-testid": `tv-seat-${seat.seat}`, "data-to-move": String(toMove) },
    h("div.tv-seat-head", {},
      h("span.tv-marker", { "aria-hidden": "true" }, toMove ? "▶" : ""),
      h(`span.chip.c-${seat.colour}`, { "aria-hidden": "true" }, markOf(entry, seat.colour)),
      h("span.tv-name", {}, seatName(seat)),
      seat.score === null || seat.score === undefined ? null : h("span.tv-score", {}, String(seat.score))),
    tags.length ? h("div.tv-tags", {}, tags.join(" · ")) : null,
    detail ? h("div.tv-detail", {}, detail) : null);
}

/** The result over the table: who won, how it ended (the game's words), the scores. */
function overCard(s, entry) {
  const r = s.result || {};
  const closed = r.reason === "closed" || r.reason === "cancelled";
  return [
    h("p.tv-over-title", { "data-testid": "tv-over-title" }, closed ? endingText(s) : `Game over — ${endingText(s)}`),
    !closed && r.ending ? h("p.tv-over-ending", { "data-testid": "tv-over-ending" }, r.ending) : null,
    h("ol.tv-over-scores", {}, s.seats.map((seat, i) => h(`li.c-${seat.colour}`, {},
      h(`span.chip.c-${seat.colour}`, { "aria-hidden": "true" }, markOf(entry, seat.colour)), " ", seatName(seat),
      h("b", {}, ` ${r.scores ? r.scores[i] : seat.score ?? ""}`),
      closed || !r.results?.[i] ? null : h("span.tv-result", {}, ` ${r.results[i]}`)))),
  ];
}

/**
 * A tile following `gameId`. `on`: {over(tile) when the result has been shown its while (or
 * the host has no such game),
 * rematch(tile, id) when the game's rematch starts, drawn(tile) after each state drawn}.
 * Returns {el, gameId(), state(), lingering(), broken(), show(id), destroy()}.
 */
export function createTile(gameId, on, { overMs = OVER_MS } = {}) {
  let id = null;
  let state = null;
  let thinking = {};
  let shown = null; // {game, watched}: the board module drawing this tile
  let loading = null;
  let overTimer = null;
  let lingering = false;
  let broken = false; // the host answered the join with no state (no such game)
  let gone = false;

  const heading = h("span.tv-title", { "data-testid": "tv-table-title" });
  const turn = h("span.tv-turn", { "data-testid": "tv-turn" });
  const content = h("div.tv-board");
  const box = h("div.tv-board-box", {}, content);
  const seats = h("ol.tv-seats", { "data-testid": "tv-seats" });
  const over = h("div.tv-over", { "data-testid": "tv-over", role: "status", hidden: true });
  const el = h("article.tv-tile", { "data-testid": "tv-table", "aria-live": "off" },
    h("header.tv-head", {}, heading, turn), h("div.tv-body", {}, box, seats), over);
  const fitter = fitInto(box, content);

  function apply(s) {
    if (gone || !s || s.id !== id) return;
    if (state && s.seq < state.seq) return; // an older picture than the one shown
    state = s;
    ensureBoard(s.game).then(draw, (err) => { turn.textContent = err.message; });
  }

  async function ensureBoard(game) {
    if (shown?.game === game) return;
    if (!loading || loading.game !== game) {
      loading = { game, ready: (async () => {
        const entry = await gameEntry(game);
        const mod = await loadBoard(entry);
        if (gone || loading?.game !== game) return;
        shown?.watched.destroy();
        content.replaceChildren();
        shown = { game, entry, watched: watchBoard(mod, { el: content, entry, live: true }) };
      })() };
    }
    return loading.ready;
  }

  function draw() {
    const s = state;
    if (gone || !s || !shown || shown.game !== s.game) return;
    shown.watched.render(s);
    const variant = variantOf(shown.entry, s.variant);
    heading.textContent = `${shown.entry.title} · ${variant?.label || title(s.variant)}`;
    const t = turnOf(s, thinking);
    turn.textContent = t.text;
    turn.className = `tv-turn${t.colour ? ` t c-${t.colour}` : ""}`;
    seats.dataset.seats = String(s.seats.length);
    seats.replaceChildren(...s.seats.map((seat) => seatLine(seat, s, thinking, shown.watched.seatDetail(seat), shown.entry)));
    el.dataset.kind = s.game;
    el.dataset.game = s.id;
    el.dataset.seq = String(s.seq);
    el.dataset.status = s.result ? "over" : s.status;
    el.setAttribute("aria-label", `${heading.textContent}: ${t.text}`);
    fitter.fit();
    if (s.result) showOver(s, shown.entry);
    if (s.rematch_id && s.rematch_id !== id) on.rematch?.(tile, s.rematch_id);
    on.drawn?.(tile);
  }

  function showOver(s, entry) {
    over.replaceChildren(...overCard(s, entry));
    if (!over.hidden) return;
    over.hidden = false;
    lingering = true;
    overTimer = setTimeout(() => {
      lingering = false;
      on.over?.(tile);
    }, overMs);
  }

  /** Follow game `next` in this tile (the first game, or the rematch of the one shown). */
  function show(next) {
    if (next === id) return;
    if (id) unfollow(id);
    id = next;
    state = null;
    thinking = {};
    clearTimeout(overTimer);
    over.hidden = true;
    lingering = false;
    broken = false;
    // Nothing of the game shown before stays said: data-seq is only ever the seq drawn of
    // the game in data-game.
    el.dataset.game = next;
    delete el.dataset.seq;
    delete el.dataset.status;
    turn.textContent = "";
    seats.replaceChildren();
    follow(next, {}, {
      lastSeq: () => (state ? state.seq : 0),
      onJoin: (ack) => {
        if (ack?.state) apply(ack.state);
        else if (ack && !state) { // an error answer: the game is not there
          broken = true;
          on.over?.(tile);
        }
      },
      onEvent: (msg) => apply(msg.state),
      onPresence: (msg) => {
        if (!state || msg.game_id !== id) return;
        for (const p of msg.seats || []) Object.assign(state.seats[p.seat - 1] || {}, p);
        draw();
      },
      onThinking: (msg) => {
        thinking[msg.seat] = !!msg.thinking;
        draw();
      },
    });
  }

  const tile = {
    el,
    gameId: () => id,
    state: () => state,
    lingering: () => lingering,
    broken: () => broken,
    show,
    destroy() {
      gone = true;
      if (id) unfollow(id);
      clearTimeout(overTimer);
      fitter.stop();
      shown?.watched.destroy();
      el.remove();
    },
  };
  show(gameId);
  return tile;
}
