// Corners' move list at the table: the moves in pairs as the seed writes them
// ("12. c3-e3-e5 f6-e6"), read from the host's board view (`moves`, every move's path, white's
// first). A box of fixed height under the board: it scrolls inside itself, the newest move in
// view, so the board never moves as the list grows.

import { h } from "/js/dom.js";

export function createMoveList() {
  const el = h("ol.cn-moves", { "data-testid": "move-list", "aria-label": "Moves", tabindex: "0" });
  let shown = null;

  /** `first`: the plies before the first listed (a set-up position's: black may make the
   *  first move listed, "12. … f6-e6"); `solo`: every move has its own number. */
  function render(moves, first = 0, solo = false) {
    const key = `${first} ${solo} ${moves.join(" ")}`;
    if (key === shown) return;
    shown = key;
    const pairs = [];
    const per = solo ? 1 : 2;
    const ply = (k) => h(`span.cn-ply${k === moves.length - 1 ? ".newest" : ""}`,
      { "data-testid": `move-list-ply-${k + 1}` }, moves[k]);
    const lead = first % per; // the listed moves of the first row's other side
    for (let i = -lead; i < moves.length; i += per) {
      const number = Math.floor((first + i) / per) + 1;
      const row = [];
      for (let k = i; k < i + per && k < moves.length; k++) row.push(" ", k < 0 ? "…" : ply(k));
      pairs.push(h("li", { "data-number": String(number) }, h("span.cn-num", {}, `${number}.`), ...row));
    }
    el.replaceChildren(...(pairs.length ? pairs : [h("li.cn-none", {}, "No moves yet")]));
    el.scrollTop = el.scrollHeight; // the newest in view (inside the box only: the page stays)
  }

  return { el, render };
}
