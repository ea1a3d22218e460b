// Tonight's standings, as the host keeps them (GET /api/tonight, the lobby's `tonight` push):
// every player of the evening, most points first, with their games, wins, draws and losses
// and their points per game. Drawn by the phones' lobby and by /tv; no game is named here
// (a game's title comes from the catalog, through `titleOf`).

import { h } from "./dom.js";

const CSS = `
.tonight-table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
.tonight-table th, .tonight-table td { padding: .2em .35em; text-align: left; border-bottom: 1px solid var(--line, #999); }
.tonight-table th { color: var(--muted, #555); font-weight: 600; white-space: nowrap; }
.tonight-table .num { text-align: right; }
.tonight-table .pts { font-weight: 800; }
.tonight-table .by-game { color: var(--muted, #555); font-size: .85em; }
.tonight-table td.who { overflow-wrap: anywhere; }
`;

function installStyle() {
  if (!document.head.querySelector("style[data-tonight]")) document.head.append(h("style", { "data-tonight": "" }, CSS));
}

/** "since 19:02" for the evening's start (an ISO time), in this screen's clock. */
export function sinceText(iso) {
  const at = iso ? new Date(iso) : null;
  if (!at || Number.isNaN(at.getTime())) return "";
  return `since ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
}

/** A player's points per game in words: "Corner Claim 3 · Corners 1". */
const byGame = (p, titleOf) => Object.entries(p.by_game || {}).map(([game, pts]) => `${titleOf(game)} ${pts}`).join(" · ");

/**
 * The standings table of `body` ({since, players: [{name, points, games, wins, draws, losses,
 * by_game}]}), in the host's order. `titleOf(game)` names a game; `limit` rows at most.
 * With nobody yet, a line that says so.
 */
export function standings(body, { titleOf = (g) => g, limit = 50 } = {}) {
  installStyle();
  const players = (body?.players || []).slice(0, limit);
  if (!players.length) return h("p.note", { "data-testid": "tonight-empty" }, "No games finished tonight yet.");
  return h("table.tonight-table", { "aria-label": "Tonight's standings" },
    h("thead", {}, h("tr", {}, h("th.rank", {}, "#"), h("th.who", {}, "Player"), h("th.num.pts", {}, "Points"),
      h("th.num.games", { title: "games played" }, "Games"), h("th.num.wdl", { title: "wins, draws, losses" }, "W–D–L"))),
    h("tbody", {}, players.map((p, i) => h("tr", { "data-testid": `tonight-row-${i + 1}`, "data-name": p.name },
      h("td.num.rank", {}, String(i + 1)),
      h("td.who", {}, h("span.name", {}, p.name), byGame(p, titleOf)
        ? [h("br"), h("span.by-game", { "data-testid": `tonight-by-game-${i + 1}` }, byGame(p, titleOf))] : null),
      h("td.num.pts", { "data-testid": `tonight-points-${i + 1}` }, String(p.points)),
      h("td.num.games", {}, String(p.games)),
      h("td.num.wdl", {}, `${p.wins}–${p.draws}–${p.losses}`)))));
}
