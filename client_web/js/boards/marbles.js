// Corner's board module (served as /boards/marbles.js; the interface is in docs/ui.md).

import { h } from "/js/dom.js";

export const palette = {
  red: { fill: "#c62828", ink: "#fff", mark: "▲" },
  yellow: { fill: "#f2c81b", ink: "#111", mark: "▶" },
};

export function createBoard(ctx) {
  const root = h("div.mb", { "data-testid": "board" });
  ctx.el.replaceChildren(root);
  return {
    render(state) {
      root.textContent = (state.board?.rows || []).join("\n");
    },
    seatDetail: () => null,
    describeMove: (frame) => (frame.kind === "deal" ? `Round ${frame.details?.round} dealt` : frame.move),
    onKey: () => false,
    destroy() { root.remove(); },
  };
}
