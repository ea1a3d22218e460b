// The table's panels under the controls (take a seat, a takeback asked by another player,
// the game-over card) and its confirm dialogs (close the game, leave it).

import { memory } from "../api.js";
import { h, title } from "../dom.js";
import { gameOverCard } from "../seats.js";
import { button as btn } from "../controls.js";

/** The panels of the table `g` in `panel`, the dialogs in `dialog`; `cmd`: the commands.
 *  Returns {render(), askClose(), askLeave()}. */
export function tablePanels(g, v, { panel, dialog, cmd }) {
  let panelKey = "";
  function render() {
    const s = g.state;
    const parts = [];
    const mine = v.mySeats();
    // Rebuilt only when what it shows changes, so a half-typed name is not wiped by a push.
    const key = JSON.stringify([g.watch, mine, s.seats.map((x) => [x.claimed, x.left, x.kind]), s.undo_request,
      s.status, s.result, s.rematch_id, v.finished() && !!g.entry]); // the game-over card lists its formats
    if (key === panelKey) return;
    panelKey = key;
    const claim = claimCard(mine);
    if (claim) parts.push(claim);
    if (s.undo_request) parts.push(undoRequestCard(s.undo_request, mine));
    if (v.finished()) parts.push(gameOver());
    panel.replaceChildren(...parts);
    // The end of the game comes into view by itself (it sits under the board on a phone).
    if (v.finished()) requestAnimationFrame(() => panel.lastChild?.scrollIntoView?.({ block: "nearest" }));
  }

  /** Take a seat: a name, remembered on this phone. */
  function claimCard(mine) {
    const open = g.state.seats.filter((x) => x.kind === "open" && !x.claimed && !x.left);
    if (g.watch || mine.length || !open.length || v.finished()) return null;
    const name = h("input", { type: "text", maxlength: 24, value: memory.name, placeholder: "Your name",
      "data-testid": "claim-name", "aria-label": "Your name", autocomplete: "nickname" });
    return h("section.card.claim", { "data-testid": "claim" }, h("h2", {}, "Take a seat"),
      h("label.field", {}, "Name ", name),
      h("div.controls", {}, open.map((x) => h(`button.btn.primary.c-${x.colour}`, { type: "button",
        "data-testid": `claim-${x.seat}`, onclick: () => cmd.claim(x.seat, name.value) }, `Play ${title(x.colour)}`))),
      h("a.btn", { href: `#/game/${g.id}/watch` }, "Just watch"));
  }

  /** A takeback asked by another player: this phone answers for its seats. */
  function undoRequestCard(req, mine) {
    const answering = (req.waiting || []).filter((x) => mine.includes(x));
    const asker = v.nameOf(req.seat);
    return h("section.card.undo-req", { "data-testid": "undo-request" },
      h("p", {}, answering.length ? `${asker} asks to take back their last move.` : `${asker} asked to take back their last move; waiting for the others.`),
      answering.length ? h("div.controls", {},
        btn("undo-allow", "Allow", "Allow the takeback", () => cmd.answerUndo(answering[0], true), ".primary"),
        btn("undo-refuse", "Refuse", "Refuse the takeback", () => cmd.answerUndo(answering[0], false))) : null);
  }

  function gameOver() {
    const mine = v.mySeats().length ? v.mySeats() : Object.keys(g.tokens);
    return gameOverCard(g.state, { gameId: g.id, formats: g.entry?.formats || [],
      canRematch: mine.length > 0 || !!memory.hostToken(g.id), onRematch: cmd.rematch });
  }

  /** Asks, then ends the game before its end (the host's phone): abandoned, nobody wins. */
  function askClose() {
    const waiting = g.state.status === "open";
    dialog.replaceChildren(h("h2", { id: "leave-title" }, waiting ? "Cancel this game?" : "Close this game?"),
      h("p", { "data-testid": "close-text" }, waiting
        ? "Nobody has taken the open seat yet: the game ends before it starts, and nothing counts."
        : "The game ends now, unfinished: nobody wins, nothing counts for the ladder, and the scores stay as they stand."),
      h("div.controls", {},
        btn("close-cancel", "Keep playing", "Keep the game going", () => dialog.close()),
        btn("close-confirm", waiting ? "Cancel game" : "Close game", "Close the game", () => {
          dialog.close();
          cmd.close();
        }, ".danger")));
    dialog.showModal();
  }

  /** Asks, then leaves the game for the seat shown, in the variant's words where it has them. */
  function askLeave() {
    const seat = v.viewSeat();
    if (!seat) return;
    const n = g.state.seats.length;
    const variant = (g.entry?.variants || []).find((x) => x.name === g.state.variant);
    const text = variant?.leaving ? variant.leaving : n === 1 ? "You play alone: leaving ends the game here." : n === 2
      ? "With two players, leaving resigns: the other player wins this game."
      : "You stop playing and cannot win. What you played stays on the board and the others play on to the end.";
    dialog.replaceChildren(h("h2", { id: "leave-title" }, `Leave as ${title(v.colourOf(seat))}?`),
      h("p", { "data-testid": "leave-text" }, text),
      h("div.controls", {},
        btn("leave-cancel", "Stay", "Stay in the game", () => dialog.close()),
        btn("leave-confirm", n === 2 ? "Resign" : "Leave", "Leave the game", () => {
          dialog.close();
          cmd.leave(seat);
        }, ".danger")));
    dialog.showModal();
  }

  return { render, askClose, askLeave };
}
