// The table's turn controls (Pass, Hint, Take back, Leave) and the news line under them. What
// each shows comes from the host: Pass only in a game whose catalog line has a pass, Hint only
// where it offers hints, Take back disabled with the game's own reason where the state's
// `undo` says the game takes none. The news line words what another seat just did (the
// state's `last_step`: "Computer L3 declined the draw offer"), until this phone acts again.

import { h } from "./dom.js";

export const button = (id, label, aria, onclick, cls = "") =>
  h(`button.btn${cls}`, { type: "button", "data-testid": id, "aria-label": aria, onclick }, label);
const key = (k) => h("kbd.key", { "aria-hidden": "true" }, k); // shown with a mouse (app.css)

const UNDO_ARIA = "Take back your last move and every move played after it (Z)";

/** The controls: {el, news, render(view), undoRefusal(state)}; `on` holds pass, hint, undo
 *  and leave. */
export function turnControls(on) {
  const b = {
    pass: button("pass", "Pass", "Pass: only when you have no move", on.pass),
    hint: button("hint", ["Hint", key("H")], "Ask the host for a move (H)", on.hint),
    // A takeback goes back to before my last move: the moves played since go too.
    undo: button("undo", ["↶ Take back", key("Z")], UNDO_ARIA, on.undo),
    leave: button("leave", "Leave", "Leave this game", on.leave, ".danger"),
  };
  const why = h("span.why", { "data-testid": "undo-why", hidden: true });
  b.undo.append(why);
  const el = h("div.controls", { role: "group", "aria-label": "Turn" }, b.pass, b.hint, b.undo, b.leave);
  const news = h("p.news", { "data-testid": "news", role: "status", "aria-live": "polite", hidden: true });
  let newsSeq = 0;

  /** `view`: {state, entry, active, spectator, finished, busy, mine, nameOf}. */
  function render(view) {
    const { state: s, entry, active, spectator, finished, busy } = view;
    el.hidden = spectator || finished;
    b.pass.hidden = !entry?.pass; // a game without passing has no Pass button
    b.pass.disabled = !active || s.seats[active - 1].can_move;
    b.hint.hidden = !entry?.hint; // only for a game whose catalog line offers hints
    b.hint.disabled = !active || busy;
    const refusal = undoRefusal(s);
    why.hidden = !refusal;
    why.textContent = refusal || "";
    b.undo.classList.toggle("refused", !!refusal);
    b.undo.setAttribute("aria-label", refusal ? `Take back: ${refusal}` : UNDO_ARIA);
    b.undo.disabled = spectator || !!refusal || !s.last_move || busy;
    b.leave.disabled = spectator;
    renderNews(view);
  }

  /** What another seat did last, in the game's words, shown until this phone acts. */
  function renderNews({ state: s, mine, nameOf, finished }) {
    const step = s.last_step;
    if (step && step.seq > newsSeq && step.text && step.kind !== "move" && step.seat && !mine.includes(step.seat)) {
      newsSeq = step.seq;
      news.textContent = `${nameOf(step.seat)} ${step.text}.`;
    }
    news.hidden = finished || !news.textContent;
  }

  /** This phone acted: what the others did before is old news. */
  function acted() {
    news.textContent = "";
    news.hidden = true;
  }

  return { el, news, render, acted };
}

/** The game's reason it takes no takeback now (the state's `undo`), or null. */
export const undoRefusal = (s) => (s?.undo && s.undo.allowed === false ? s.undo.reason || "No takebacks in this game" : null);
