// The ladder: every named player on this host, sortable by column, per variant; and the
// host's games with a link to each one's replay.

import { api } from "./api.js";
import { h, title } from "./dom.js";

const COLUMNS = [
  ["rank", "#", null], ["name", "Player", "name"], ["rating", "Rating", "rating"],
  ["games", "Games", "games"], ["wins", "W", "wins"], ["draws", "D", null], ["losses", "L", null],
  ["points", "Points", "points"], ["average_score", "Avg score", "average_score"],
  ["best_score", "Best", "best_score"],
];
const root = document.getElementById("view");
let sort = "rating";
let order = "desc";
let variant = "all";

const body = h("tbody");
const head = h("tr");
const error = h("p.error", { role: "alert", "data-testid": "ladder-error" });
const note = h("p.note", { "data-testid": "ladder-note" });
const games = h("ul.games", { "data-testid": "ladder-games" });

function drawHead() {
  head.replaceChildren(...COLUMNS.map(([key, label, sortKey]) => {
    const attrs = { scope: "col" };
    if (sortKey === sort) attrs["aria-sort"] = order === "asc" ? "ascending" : "descending";
    return h("th", attrs, sortKey
      ? h("button", { type: "button", "data-testid": `sort-${key}`, onclick: () => {
        order = sort === sortKey ? (order === "asc" ? "desc" : "asc") : sortKey === "name" ? "asc" : "desc";
        sort = sortKey;
        load();
      } }, label)
      : label);
  }));
}

async function load() {
  drawHead();
  try {
    const data = await api("GET", `/players?sort=${sort}&order=${order}&variant=${variant}`);
    note.textContent = `Ratings: Elo from two-player games, start ${data.start_rating}, K ${data.k_factor}. ` +
      "Win 22, draw 8, loss 3 points.";
    body.replaceChildren(...data.players.map((p) => h("tr", { "data-testid": `ladder-row-${p.name}` },
      ...COLUMNS.map(([key]) => h("td", {}, key === "name"
        ? h("a", { href: `/player.html?name=${encodeURIComponent(p.name)}` }, p.name)
        : p[key] === null ? "–" : String(p[key]))))));
    if (!data.players.length) body.append(h("tr", {}, h("td", { colspan: COLUMNS.length }, "No finished games yet.")));
  } catch (err) {
    error.textContent = err.message;
  }
}

async function loadGames() {
  try {
    const data = await api("GET", "/games");
    const list = (data.games || []).sort((a, b) => (b.created_at || 0) - (a.created_at || 0)).slice(0, 30);
    games.replaceChildren(...list.map((g) => h("li.game-line", {},
      h("span.game-desc", {}, `${title(g.variant)} · `,
        g.seats.map((s) => (s.kind === "computer" ? "Computer" : s.name || "open")).join(", "),
        h("span.tag", {}, g.status)),
      h("a.btn.small", { href: `/replay.html?game=${encodeURIComponent(g.id)}`, "data-testid": `replay-${g.id}` }, "Replay"))));
  } catch (err) {
    games.replaceChildren(h("li.error", {}, err.message));
  }
}

const variantSel = h("select", { "data-testid": "ladder-variant", "aria-label": "Variant",
  onchange: (e) => { variant = e.target.value; load(); } },
["all", "duo", "trio", "classic"].map((v) => h("option", { value: v }, v === "all" ? "All variants" : title(v))));

root.append(
  h("header.bar", {}, h("h1", {}, "Ladder"),
    h("span.controls", {}, h("a.btn.small", { href: "/replay.html", "data-testid": "to-import" }, "Import replay"),
      h("a.btn.small", { href: "/", "data-testid": "to-lobby" }, "Lobby"))),
  h("section.card", {}, variantSel, note,
    h("div.scroll-x", {}, h("table.ladder", { "data-testid": "ladder-table" }, h("thead", {}, head), body)), error),
  h("section.card", {}, h("h2", {}, "Games and replays"), games));
load();
loadGames();
