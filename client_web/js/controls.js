// The table's turn controls (Pass, Hint, Take back, Leave) and the news line under them. What
// each shows comes from the host: Pass only in a game whose catalog line has a pass, Hint only
// where it offers hints, Take back disabled with the game's own reason where the state's
// `undo` says the game takes none. The news line words what another seat just did (the
// state's `last_step`: "Computer L3 declined the draw offer"), until this phone acts again.

import { h, title } from "./dom.js";

export const button = (id, label, aria, onclick, cls = "") =>
  h(`button.btn${cls}`, { type: "button", "data-testid": id, "aria-label": aria, onclick }, label);
const key = (k) => h("kbd.key", { "aria-hidden": "true" }, k); // shown with a mouse (app.css)

const UNDO_ARIA = "Take back your last move and every move played after it (Z)";

/** The controls: {el, news, render(view), acted()}; `on` holds hint, undo, leave and say(text).
 *  A game's pass is the host's: it skips a seat with no move left by itself, so Pass only
 *  says so. */
export function turnControls(on) {
  const b = {
    pass: button("pass", "Pass", "Pass: only when you have no move",
      () => on.say("You have no move: the host skips your turn by itself.")),
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

  /** `view`: {state, entry, board, active, spectator, finished, busy, mine, nameOf}. */
  function render(view) {
    const { state: s, entry, board, active, spectator, finished, busy } = view;
    el.hidden = spectator || finished;
    b.pass.hidden = !entry?.pass; // a game without passing has no Pass button
    b.pass.disabled = !active || s.seats[active - 1].can_move;
    // only for a game whose catalog line offers hints, once its board module can show one
    b.hint.hidden = !entry?.hint || !board;
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

/** The game's own actions (resign, offer a draw…) for this phone's seats: a button per
 *  action the host says a seat may take now (seats[].actions), once the game's board module is
 *  loaded. Their words come from the catalog's `actions` (a list of names, of {name, label,
 *  confirm}, or name → label), else from the board module's `actions` (name → {label, confirm,
 *  danger}), else from the name; one with a `confirm` asks first in `dialog`. `send(seat,
 *  name)` posts it. Returns {el, render({state, entry, board, seats, busy, colourOf})}. */
export function gameActions({ dialog, send }) {
  const el = h("div.controls.actions", { "data-testid": "actions", role: "group", "aria-label": "Game actions",
    hidden: true });
  let entry = null;
  let board = null;
  let colourOf = () => "";
  let shownKey = "";

  /** What the catalog and the board module say of an action: {label, confirm, danger}. */
  function words(name) {
    const list = entry?.actions;
    const found = Array.isArray(list) ? list.find((a) => a && typeof a === "object" && a.name === name)
      : list && typeof list === "object" ? { label: list[name] } : null;
    const own = board?.actions?.[name] || {};
    return { label: found?.label || own.label || title(name.replace(/_/g, " ")),
      confirm: found?.confirm ?? own.confirm ?? null, danger: !!own.danger };
  }
  const label = (name) => words(name).label;

  function ask(seat, name) {
    const why = words(name).confirm;
    if (!why) return send(seat, name);
    dialog.replaceChildren(h("h2", { id: "leave-title" }, `${label(name)} as ${title(colourOf(seat))}?`),
      h("p", { "data-testid": "action-text" }, why),
      h("div.controls", {},
        button("action-cancel", "Cancel", "Cancel", () => dialog.close()),
        button("action-confirm", label(name), label(name), () => {
          dialog.close();
          send(seat, name);
        }, ".danger")));
    dialog.showModal();
  }

  function render(view) {
    entry = view.entry;
    board = view.board;
    colourOf = view.colourOf;
    const s = view.state;
    const offers = board ? view.seats.map((seat) => [seat, s.seats[seat - 1]?.actions || []]).filter(([, a]) => a.length)
      : [];
    const several = offers.length > 1;
    // Rebuilt only when what it offers changes, so focus survives the host's pushes.
    const key = JSON.stringify([offers, view.busy, several, !!entry]);
    if (key === shownKey) return;
    shownKey = key;
    el.hidden = !offers.length;
    el.replaceChildren(...offers.flatMap(([seat, names]) => names.map((name) => {
      const text = several ? `${title(colourOf(seat))}: ${label(name)}` : label(name);
      const b = button(several ? `action-${name}-${seat}` : `action-${name}`, text, text, () => ask(seat, name),
        words(name).danger ? ".danger" : "");
      b.disabled = view.busy;
      return b;
    })));
  }

  return { el, render };
}

/** The game's reason it takes no takeback now (the state's `undo`), or null. */
export const undoRefusal = (s) => (s?.undo && s.undo.allowed === false ? s.undo.reason || "No takebacks in this game" : null);
