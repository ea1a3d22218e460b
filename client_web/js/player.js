// A player's page: per game they played (?game=<id> first), the rating over time and the
// stats overall and by variant, with the game's own statistics labelled from the catalog's
// `stats`; then their recent games.

import { api } from "./api.js";
import { catalog, variantOf } from "./catalog.js";
import { h, title } from "./dom.js";
import { lineChart } from "./charts.js";

const root = document.getElementById("view");
const params = new URLSearchParams(location.search);
const name = params.get("name") || "";

// The rows every game has; the game's own statistics follow them.
const COMMON = [
  ["games", "Games"], ["wins", "Wins"], ["draws", "Draws"], ["losses", "Losses"], ["points", "Points"],
  ["average_score", "Average score"], ["best_score", "Best score"],
];
const show = (v) => (v === null || v === undefined ? "–" : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(2) : String(v));
const statOf = (s, key) => (key.startsWith("stat:") ? s.stats?.[key.slice(5)] : s[key]);

/** The game's statistics as rows: each one, and its average per game where the host gives it. */
function statRows(entry, sections) {
  const rows = [...COMMON];
  for (const st of entry?.stats || []) {
    rows.push([`stat:${st.key}`, title(st.label)]);
    if (sections.some((s) => s.stats && `average_${st.key}` in s.stats)) rows.push([`stat:average_${st.key}`, `Average ${st.label}`]);
  }
  return rows;
}

function statsTable(entry, columns) {
  const rows = statRows(entry, columns.map(([, s]) => s));
  const id = (key) => key.replace(/^stat:/, "");
  return h("div.scroll-x", {}, h("table.ladder", { "data-testid": "player-stats" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), ...columns.map(([label]) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, ...rows.map(([key, label]) => h("tr", {}, h("th", { scope: "row" }, label),
      ...columns.map(([col, s]) => h("td", { "data-testid": `stat-${col.toLowerCase()}-${id(key)}` }, show(statOf(s, key)))))))));
}

function gameSection(section, entry) {
  const history = section.rating_history || [];
  const ratings = [history.length ? history[0].before : section.rating ?? 1500, ...history.map((r) => r.after)];
  const chart = lineChart([{ label: "Rating", colour: "#8fb8ff", values: ratings }],
    { label: `${section.title} rating after each rated game`, testid: "rating-chart" });
  chart.mark(ratings.length - 1);
  const variants = Object.entries(section.by_variant || {}).map(([v, s]) => [variantOf(entry, v)?.label || title(v), s]);
  const rating = section.rating === null || section.rating === undefined
    ? "No rated games yet."
    : `Rating ${section.rating} (peak ${section.peak_rating}) after ${section.rated_games} rated games`;
  const perVariant = Object.entries(section.ratings || {}).map(([v, r]) =>
    `${variantOf(entry, v)?.label || title(v)} ${r.rating} (peak ${r.peak_rating}, ${r.rated_games} rated)`);
  return h("div", { "data-testid": `player-game-${section.game}` },
    h("section.card", {}, h("h2", {}, section.title || entry?.title || section.game),
      h("p", { "data-testid": "player-rating" }, rating),
      perVariant.length > 1 ? h("p.note", { "data-testid": "player-ratings" }, `Ratings: ${perVariant.join(" · ")}`) : "",
      statsTable(entry, [["All", section], ...variants])),
    h("section.card.chart", {}, h("h2", {}, "Rating over time"),
      history.length ? chart.el : h("p.note", {}, "No two-player games yet: the rating starts where the ladder starts.")));
}

async function main() {
  const header = h("header.bar", {}, h("h1", { "data-testid": "player-name" }, name),
    h("span.controls", {}, h("a.btn.small", { href: "/ladder.html" }, "Ladder"), h("a.btn.small", { href: "/" }, "Lobby")));
  root.append(header);
  let p;
  let games = [];
  try {
    [p, { games }] = await Promise.all([api("GET", `/players/${encodeURIComponent(name)}`), catalog()]);
  } catch (err) {
    root.append(h("p.error", { role: "alert", "data-testid": "player-error" }, err.message));
    return;
  }
  header.firstChild.textContent = p.name;
  document.title = p.name;
  const sections = Object.values(p.games || {});
  const entryOf = (game) => games.find((g) => g.game === game);
  const shownBox = h("div");
  const showGame = (game) => {
    const section = sections.find((s) => s.game === game) || sections[0];
    shownBox.replaceChildren(section ? gameSection(section, entryOf(section.game)) : h("p.note", {}, "No games yet."));
  };
  const picker = sections.length > 1
    ? h("select", { "data-testid": "player-game", "aria-label": "Game", onchange: (e) => showGame(e.target.value) },
      sections.map((s) => h("option", { value: s.game }, s.title || s.game)))
    : null;
  const first = sections.find((s) => s.game === params.get("game")) ? params.get("game") : sections[0]?.game;
  if (picker && first) picker.value = first;
  showGame(first);
  const t = p.totals || {};
  root.append(
    h("p.note", { "data-testid": "player-totals" },
      `Every game: ${t.games ?? 0} played, ${t.wins ?? 0} won, ${t.draws ?? 0} drawn, ${t.losses ?? 0} lost.`),
    picker ? h("div.controls", {}, picker) : "",
    shownBox,
    h("section.card", {}, h("h2", {}, "Recent games"),
      h("ul.games", { "data-testid": "player-games" }, ...p.recent_games.map((g) => {
        const entry = entryOf(g.game);
        const what = `${entry?.title || g.game} ${variantOf(entry, g.variant)?.label || title(g.variant)}`;
        return h("li.game-line", {},
          h("span.game-desc", {}, `${what} · ${g.result}${g.left ? " (left)" : ""} · score ${g.score} · ` +
            `${g.points} pts` + (g.rating_change !== null ? ` · ${g.rating_change > 0 ? "+" : ""}${Math.round(g.rating_change)}` : "") +
            ` · vs ${g.opponents.join(", ")}`),
          h("a.btn.small", { href: `/replay.html?game=${encodeURIComponent(g.game_id)}` }, "Replay"));
      }))));
}

main();
