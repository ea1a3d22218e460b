// A player's page: stats overall and by variant, the rating over time, recent games.

import { api } from "./api.js";
import { h, title } from "./dom.js";
import { lineChart } from "./charts.js";

const root = document.getElementById("view");
const name = new URLSearchParams(location.search).get("name") || "";

const STATS = [
  ["games", "Games"], ["wins", "Wins"], ["draws", "Draws"], ["losses", "Losses"], ["points", "Points"],
  ["average_score", "Average score"], ["best_score", "Best score"], ["all_placed", "All 21 placed"],
  ["single_last", "Single square last"], ["average_squares_left", "Average squares left"],
];
const show = (v) => (v === null || v === undefined ? "–" : String(v));

function statsTable(columns) {
  return h("div.scroll-x", {}, h("table.ladder", { "data-testid": "player-stats" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), ...columns.map(([label]) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, ...STATS.map(([key, label]) => h("tr", {}, h("th", { scope: "row" }, label),
      ...columns.map(([col, s]) => h("td", { "data-testid": `stat-${col.toLowerCase()}-${key}` }, show(s[key]))))))));
}

async function main() {
  const header = h("header.bar", {}, h("h1", { "data-testid": "player-name" }, name),
    h("span.controls", {}, h("a.btn.small", { href: "/ladder.html" }, "Ladder"), h("a.btn.small", { href: "/" }, "Lobby")));
  root.append(header);
  let p;
  try {
    p = await api("GET", `/players/${encodeURIComponent(name)}`);
  } catch (err) {
    root.append(h("p.error", { role: "alert", "data-testid": "player-error" }, err.message));
    return;
  }
  header.firstChild.textContent = p.name;
  document.title = `${p.name} · Corner Claim`;
  const ratings = [1500, ...p.rating_history.map((r) => r.after)];
  if (p.rating_history.length) ratings[0] = p.rating_history[0].before;
  const chart = lineChart([{ label: "Rating", colour: "#8fb8ff", values: ratings }],
    { label: "Rating after each rated game", testid: "rating-chart" });
  chart.mark(ratings.length - 1);
  const variants = Object.entries(p.by_variant).map(([v, s]) => [title(v), s]);
  root.append(
    h("section.card", {}, h("p", { "data-testid": "player-rating" },
      `Rating ${p.rating} (peak ${p.peak_rating}) after ${p.rated_games} rated games`),
    statsTable([["All", p], ...variants])),
    h("section.card.chart", {}, h("h2", {}, "Rating over time"),
      p.rating_history.length ? chart.el : h("p.note", {}, "No two-player games yet: the rating starts at 1500.")),
    h("section.card", {}, h("h2", {}, "Recent games"),
      h("ul.games", { "data-testid": "player-games" }, ...p.recent_games.map((g) => h("li.game-line", {},
        h("span.game-desc", {}, `${title(g.variant)} · ${g.result}${g.left ? " (left)" : ""} · score ${g.score} · ` +
          `${g.points} pts` + (g.rating_change !== null ? ` · ${g.rating_change > 0 ? "+" : ""}${g.rating_change}` : "") +
          ` · vs ${g.opponents.join(", ")}`),
        h("a.btn.small", { href: `/replay.html?game=${encodeURIComponent(g.game_id)}` }, "Replay"))))));
}

main();
