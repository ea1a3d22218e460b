// Around Corner's board: each side's tray (points per colour, the points this round and the
// total), the rounds played, the seed's score table and the summary between rounds.

import { h, title } from "/js/dom.js";
import { seatName } from "/js/seats.js";

const POINTS = [1, 3, 6, 10, 13, 16, 20, 24];

/** The seat colours as the shell shows them: chip fill, text on it, the chip's sign. */
export const palette = {
  red: { fill: "#c62828", ink: "#fff", mark: "▲" },
  yellow: { fill: "#f2c81b", ink: "#111", mark: "▶" },
};

export const marble = (letter, cls = "") =>
  h(`span.mb-marble.m-${letter}${cls}`, { "aria-hidden": "true" }, letter);

export function scoreTable() {
  return h("table.mb-score-table", { "data-testid": "score-table", "aria-label": "Points per colour" },
    h("tr", {}, h("th", {}, "marbles"), ...POINTS.map((_, i) => h("td", {}, String(i + 1)))),
    h("tr", {}, h("th", {}, "points"), ...POINTS.map((p) => h("td", {}, String(p)))),
    h("tr", {}, h("td", { colspan: 9 }, "×2 for a colour only one side holds")));
}

/** Each side's tray. Its header is two short lines: the side, then who plays it. */
export function paintTrays(trays, state) {
  const b = state.board;
  const sides = b.sides || {};
  const toMove = (b.arrows || []).find((a) => a.seat === b.to_move)?.side;
  trays.replaceChildren(...["red", "yellow"].filter((s) => sides[s]).map((side) => {
    const s = sides[side];
    const names = (s.seats || []).map((n) => state.seats?.[n - 1]).filter(Boolean).map(seatName)
      .filter((n) => n !== title(side)).join(", ");
    return h(`div.mb-tray${toMove === side && !b.result ? ".to-move" : ""}`, { "data-testid": `tray-${side}` },
      h("h4", { title: names || null }, h(`span.chip.c-${side}`, { "aria-hidden": "true" }, palette[side].mark),
        title(side), names ? h("span.names", {}, ` · ${names}`) : null),
      h("ul", {}, ...(s.colours || []).map((c) => h("li", { "data-testid": `tray-${side}-${c.letter}` },
        marble(c.letter, ".mini"), `${c.count}: ${c.points} pt`,
        c.doubled ? h("span.dbl", { title: "only this side holds it" }, " ×2") : null,
        c.doubled ? ` = ${c.score}` : null))),
      (s.colours || []).length ? null : h("div.mb-detail", {}, "no marbles yet"),
      // Points, not a round's number: "10 points this round · Total 20".
      h("div.sum", { "data-testid": `tray-${side}-sum` },
        h("span", { "data-testid": `tray-${side}-score` }, String(s.score ?? 0)),
        ` point${(s.score ?? 0) === 1 ? "" : "s"} this round · Total `,
        h("span", { "data-testid": `tray-${side}-total` }, String(s.total ?? 0))));
  }));
}

/** The rounds played, and between rounds (nothing taken yet in the new round, or the deal
 * still due) what the round that ended gave and the new deal. */
export function paintRounds(rounds, summary, b) {
  const done = b.rounds || [];
  rounds.replaceChildren(...done.map((r) => h("div", { "data-testid": `round-${r.round}` },
    `Round ${r.round}: Red ${r.scores.red} · Yellow ${r.scores.yellow}`)));
  const sides = b.sides || {};
  const taken = ["red", "yellow"].reduce((n, s) => n + Object.values(sides[s]?.marbles || {}).reduce((a, x) => a + x, 0), 0);
  const lastRound = done[done.length - 1];
  const between = lastRound && !b.result && (b.status === "dealing" || (taken === 0 && b.round > lastRound.round));
  summary.hidden = !between;
  if (!between) return;
  const t = b.team_scores || {};
  const lead = t.red === t.yellow ? `level at ${t.red}` : t.red > t.yellow ? `Red leads ${t.red}–${t.yellow}` : `Yellow leads ${t.yellow}–${t.red}`;
  const starter = (b.arrows || []).find((a) => a.seat === b.starter);
  summary.replaceChildren(
    h("b", {}, `Round ${lastRound.round} over: Red ${lastRound.scores.red}, Yellow ${lastRound.scores.yellow}`),
    h("div", {}, `Total: ${lead}.`),
    h("div", {}, b.status === "dealing" ? "Dealing the next round…"
      : `Round ${b.round} dealt${starter ? `: ${title(starter.side)} starts` : ""}.`));
}
