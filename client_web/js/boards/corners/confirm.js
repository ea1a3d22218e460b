// The question before a move that loses (a piece back into its own home after the home
// deadline): "Don't move" or "Move and lose".

import { h } from "/js/dom.js";

/** Returns {ask(move, deadline, play, closed), remove()}: `play()` on yes, `closed()` either way. */
export function createConfirm() {
  const dialog = h("dialog.confirm", { "data-testid": "home-return-dialog", "aria-labelledby": "cn-confirm-title" });
  document.body.append(dialog);

  function ask(move, deadline, play, closed) {
    const close = () => dialog.open && dialog.close();
    dialog.onclose = closed;
    dialog.replaceChildren(
      h("h2", { id: "cn-confirm-title" }, "Back into your own home?"),
      h("p", { "data-testid": "home-return-text" },
        `${move} brings a piece back into your own home after the home deadline (move ${deadline}): `
        + "you lose the game."),
      h("div.controls", {},
        h("button.btn", { type: "button", "data-testid": "home-return-cancel", onclick: close }, "Don't move"),
        h("button.btn.danger", { type: "button", "data-testid": "home-return-play",
          onclick: () => { close(); play(); } }, "Move and lose")));
    dialog.showModal();
  }

  return { ask, remove: () => dialog.remove() };
}
