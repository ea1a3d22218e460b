// Corners' move list at the table: the moves in pairs as the seed writes them
// ("12. c3-e3-e5 f6-e6"), read from the host's board view (`moves`, every move's path, white's
// first). A box of fixed height under the board: it scrolls inside itself, the newest move in
// view, so the board never moves as the list grows.

import { h } from "/js/dom.js";

export function createMoveList() {
  const el = h("ol.cn-moves", { "data-testid": "move-list", "aria-label": "Moves", tabindex: "0" });
  let shown = null;

  function render(moves) {
    const key = moves.join(" ");
    if (key === shown) return;
    shown = key;
    const pairs = [];
    for (let i = 0; i < moves.length; i += 2) {
      const number = i / 2 + 1;
      const ply = (k) => h(`span.cn-ply${k === moves.length - 1 ? ".newest" : ""}`,
        { "data-testid": `move-list-ply-${k + 1}` }, moves[k]);
      pairs.push(h("li", { "data-number": String(number) }, h("span.cn-num", {}, `${number}.`), " ", ply(i),
        i + 1 < moves.length ? [" ", ply(i + 1)] : null));
    }
    el.replaceChildren(...(pairs.length ? pairs : [h("li.cn-none", {}, "No moves yet")]));
    el.scrollTop = el.scrollHeight; // the newest in view (inside the box only: the page stays)
  }

  return { el, render };
}
