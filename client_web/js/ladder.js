// The ladder: one game's named players (the game picked from the catalog; ?game=<id>),
// sortable by column, per variant, with the game's own statistics (labels from the catalog's
// `stats`); and the host's games of that game with a link to each one's replay.

import { newestOnly } from "./api.js";
import { catalog, variantOf } from "./catalog.js";
import { h, title } from "./dom.js";

// The columns every game has; the game's own statistics follow them.
const COMMON = [
  ["rank", "#", null], ["name", "Player", "name"], ["rating", "Rating", "rating"],
  ["games", "Games", "games"], ["wins", "W", "wins"], ["draws", "D", null], ["losses", "L", null],
  ["points", "Points", "points"], ["average_score", "Avg score", "average_score"],
  ["best_score", "Best", "best_score"],
];
const root = document.getElementById("view");
const params = new URLSearchParams(location.search);
let sort = "rating";
let order = "desc";
let variant = "all";
let games = []; // the catalog's
let entry = null; // the game shown
// What the players table shows (the query it answers) and how many answers came, shown or
// dropped: for the console and the browser tests.
const shown = { query: null, answers: 0 };
window.ccLadder = shown;
// An answer that comes after a later load began (another game, variant or sort picked
// meanwhile) is dropped, so the table never shows an earlier pick's players.
const getPlayers = newestOnly(() => { shown.answers += 1; });
const getGames = newestOnly();

const body = h("tbody");
const head = h("tr");
const error = h("p.error", { role: "alert", "data-testid": "ladder-error" });
const note = h("p.note", { "data-testid": "ladder-note" });
const gameList = h("ul.games", { "data-testid": "ladder-games" });
const gameSel = h("select", { "data-testid": "ladder-game", "aria-label": "Game",
  onchange: (e) => pickGame(e.target.value, true) });
const variantSel = h("select", { "data-testid": "ladder-variant", "aria-label": "Variant",
  onchange: (e) => { variant = e.target.value; load(); } });

/** The game's statistics as columns: a number also has its average per game. */
const statColumns = () => (entry?.stats || []).map((s) => [`stat:${s.key}`, title(s.label), null]);
const columns = () => [...COMMON, ...statColumns()];

function cellText(p, key) {
  const v = key.startsWith("stat:") ? p.stats?.[key.slice(5)] : p[key];
  if (v === null || v === undefined) return "–";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}

function drawHead() {
  head.replaceChildren(...columns().map(([key, label, sortKey]) => {
    const attrs = { scope: "col" };
    if (sortKey === sort) attrs["aria-sort"] = order === "asc" ? "ascending" : "descending";
    return h("th", attrs, sortKey
      ? h("button", { type: "button", "data-testid": `sort-${key}`, onclick: () => {
        order = sort === sortKey ? (order === "asc" ? "desc" : "asc") : sortKey === "name" ? "asc" : "desc";
        sort = sortKey;
        load();
      } }, label)
      : h("span", { "data-testid": `col-${key.replace(":", "-")}` }, label));
  }));
}

async function load() {
  if (!entry) return;
  drawHead();
  error.textContent = "";
  try {
    const q = new URLSearchParams({ game: entry.game, sort, order, variant });
    const data = await getPlayers(`/players?${q}`);
    if (data === null) return;
    shown.query = q.toString();
    // A table shows one rating per player: the shown variant's if it is rated, else the
    // game's first rated variant's (the host says which in `rating_key`).
    const key = data.players.find((p) => p.rating_key)?.rating_key;
    const rated = variantOf(entry, key ? key.split("/")[1] : variant) || entry.variants.find((v) => v.rated);
    note.textContent = rated && rated.rated
      ? `Rating: ${entry.title} ${rated.label}, Elo from two-player games, start ${data.start_rating}, K ${data.k_factor}.`
      : `${entry.title} has no rated variant: points and statistics only.`;
    const cols = columns();
    body.replaceChildren(...data.players.map((p) => h("tr", { "data-testid": `ladder-row-${p.name}` },
      ...cols.map(([key]) => h("td", {}, key === "name"
        ? h("a", { href: `/player.html?name=${encodeURIComponent(p.name)}&game=${encodeURIComponent(entry.game)}` }, p.name)
        : cellText(p, key))))));
    if (!data.players.length) body.append(h("tr", {}, h("td", { colspan: cols.length }, "No finished games yet.")));
  } catch (err) {
    error.textContent = err.message;
  }
}

async function loadGames() {
  if (!entry) return;
  try {
    const data = await getGames("/games");
    if (data === null) return;
    const list = (data.games || []).filter((g) => g.game === entry.game)
      .sort((a, b) => (b.created_at || 0) - (a.created_at || 0)).slice(0, 30);
    gameList.replaceChildren(...list.map((g) => h("li.game-line", {},
      h("span.game-desc", {}, `${variantOf(entry, g.variant)?.label || title(g.variant)} · `,
        g.seats.map((s) => s.name || (s.claimed ? "Guest" : "open")).join(", "),
        h("span.tag", {}, g.status)),
      h("a.btn.small", { href: `/replay.html?game=${encodeURIComponent(g.id)}`, "data-testid": `replay-${g.id}` }, "Replay"))));
    if (!list.length) gameList.append(h("li.note", {}, `No ${entry.title} games yet.`));
  } catch (err) {
    gameList.replaceChildren(h("li.error", {}, err.message));
  }
}

function pickGame(game, push = false) {
  entry = games.find((g) => g.game === game) || games[0];
  gameSel.value = entry.game;
  variant = "all";
  if (!COMMON.some(([, , s]) => s === sort)) sort = "rating";
  variantSel.replaceChildren(h("option", { value: "all" }, "All variants"),
    ...entry.variants.map((v) => h("option", { value: v.name }, v.label)));
  variantSel.value = variant;
  if (push) history.replaceState(null, "", `?game=${encodeURIComponent(entry.game)}`);
  load();
  loadGames();
}

root.append(
  h("header.bar", {}, h("h1", {}, "Ladder"),
    h("span.controls", {}, h("a.btn.small", { href: "/replay.html", "data-testid": "to-import" }, "Import replay"),
      h("a.btn.small", { href: "/", "data-testid": "to-lobby" }, "Lobby"))),
  h("section.card", {}, h("div.controls", {}, gameSel, variantSel), note,
    h("div.scroll-x", {}, h("table.ladder", { "data-testid": "ladder-table" }, h("thead", {}, head), body)), error),
  h("section.card", {}, h("h2", {}, "Games and replays"), gameList));

catalog().then((data) => {
  games = data.games || [];
  gameSel.replaceChildren(...games.map((g) => h("option", { value: g.game }, g.title)));
  if (games.length) pickGame(params.get("game") || games[0].game);
}).catch((err) => {
  error.textContent = `Cannot read the host's games: ${err.message}`;
});
