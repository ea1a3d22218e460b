// Corner's board module (served as /boards/marbles.js; the interface is in docs/ui.md): the
// 6×6 board of marbles, the arrows in their grooves along the edges, the lines the seat to
// move may slide to, the marbles it can take there, each side's tray with its points per
// colour, the rounds and the seed's score table.
//
// It holds no rules. On my turn the board asks the host's legal list once per seq
// (`host.legal(seat)`: `{move: "c", line: "c"}` for an opening placement, else
// `{move: "c4", line: "c", colour, by}`) and marks the lines that appear in it; a tap on a
// line shows the entries on that line, a tap on one of them plays its own move text.

import { h, title } from "/js/dom.js";
import { addStyles } from "/js/boards/marbles/style.js";
import { COLUMNS, ROWS, grooveOf, seatOfGroove, quartersFor, place, screenEdge, pointing, squareOfCell,
  squareOfSlot } from "/js/boards/marbles/view.js";
import { marble, paintRounds, paintTrays, scoreTable } from "/js/boards/marbles/trays.js";
import { spectatorView } from "/js/boards/watch.js";

export { palette } from "/js/boards/marbles/trays.js";
export const thumbnail /* the lobby's picture: its own module */ = async () => (await import("/js/boards/marbles/thumb.js")).thumbnail();

const MARBLES = {
  Y: "yellow", R: "red", G: "green", B: "blue", W: "white", S: "grey", K: "black",
};

addStyles(h);

/** A board under the contract (./contract.js); it asks `host.legal(seat)`.
 * @param {import("./contract.js").BoardContext} ctx @returns {import("./contract.js").Board} */
export function createBoard(ctx) {
  const g = {
    state: null,
    view: {},
    legal: null, // {seq, seat, moves: null while asked | [entries]}
    line: null, // the line chosen (tapped or by the keys)
    focus: 0, // which of the chosen line's marbles Enter takes
    cells: new Map(), // "c4" -> element
    slots: new Map(), // "bottom:c" -> element
    drag: null, // {groove, start, moved}: a finger sliding my arrow along its groove
    flying: new Set(), // marbles on their way to a tray
    preview: null, // {seat, line, cell}: a move drawn over the position (previewMove)
  };
  const say = (text) => {
    g.said = text;
    ctx.say?.(text);
  };
  const unsay = () => {
    if (g.said) say("");
    g.said = null;
  };

  // ---- layout -------------------------------------------------------------------------
  const info = h("div.mb-info", { "data-testid": "marbles-info" });
  const summary = h("div.mb-summary", { "data-testid": "round-summary", hidden: true, "aria-live": "polite" });
  const frame = h("div.mb-frame.board", { "data-testid": "board", role: "grid", "aria-label": "Board" });
  const trays = h("div.mb-trays", { "data-testid": "trays" });
  const rounds = h("div.mb-rounds", { "data-testid": "rounds" });
  const root = h("div.mb", {}, info, summary, frame, trays, rounds, scoreTable());
  ctx.el.replaceChildren(root);

  // Every cell and slot is made once; orient() puts them where the seat seen from has them.
  function build() {
    const els = [];
    for (const groove of ["top", "left", "right", "bottom"]) {
      for (const line of groove === "top" || groove === "bottom" ? COLUMNS : ROWS) {
        const el = h("button.mb-slot", { type: "button", "data-groove": groove, "data-line": line,
          "data-testid": `groove-${groove}-${line}`, "aria-label": `${groove} groove, line ${line}`, tabindex: "-1",
          onclick: () => tapLine(groove, line) });
        el.square = squareOfSlot(groove, line);
        g.slots.set(`${groove}:${line}`, el);
        els.push(el);
      }
    }
    for (const row of ROWS) {
      for (const col of COLUMNS) {
        const name = `${col}${row}`;
        const el = h("div.mb-cell", { role: "gridcell", "data-testid": `cell-${name}`, "data-cell": name,
          onclick: () => tapCell(name) });
        el.square = squareOfCell(name);
        g.cells.set(name, el);
        els.push(el);
      }
    }
    for (const square of [[0, 0], [0, 7], [7, 0], [7, 7]]) els.push(Object.assign(h("div.mb-corner"), { square }));
    for (const el of els) el.style.gridArea = `${el.square[0] + 1} / ${el.square[1] + 1}`;
    frame.replaceChildren(...els);
  }
  build();

  /** Turns the board so `seat`'s groove is at the bottom (seat 1's picture for none). */
  function orient(seat) {
    const quarters = quartersFor(seat);
    if (g.quarters === quarters) return;
    g.quarters = quarters;
    frame.dataset.view = String(seat || 1);
    for (const el of frame.children) {
      const [r, c] = place(el.square[0], el.square[1], quarters);
      el.style.gridArea = `${r + 1} / ${c + 1}`;
    }
    for (const [key, el] of g.slots) {
      const edge = screenEdge(key.split(":")[0], quarters);
      el.className = el.className.replace(/\bg-\w+/g, "").trim();
      el.classList.add(`g-${edge}`);
      el.dataset.edge = edge;
    }
  }
  orient(null);

  // What the player is using, for the words of a hint: a finger, a mouse or the keys.
  g.input = window.matchMedia?.("(hover: none)").matches ? "touch" : "mouse";
  // Any tap on the board's area first clears what the board said last (it is stale now).
  root.addEventListener("pointerdown", (e) => {
    g.input = e.pointerType === "mouse" ? "mouse" : "touch";
    unsay();
  }, true);

  // Sliding my arrow along its groove: the line under the finger is chosen as it passes.
  const slotAt = (x, y) => document.elementFromPoint(x, y)?.closest?.(".mb-slot");
  frame.addEventListener("pointerdown", (e) => {
    const slot = e.target.closest?.(".mb-slot");
    const seat = g.view.active;
    if (ctx.readOnly || !slot || !seat || slot.dataset.groove !== grooveOf(seat)) return;
    g.drag = { groove: slot.dataset.groove, start: slot.dataset.line, moved: false };
  });
  frame.addEventListener("pointermove", (e) => {
    if (!g.drag) return;
    const slot = slotAt(e.clientX, e.clientY);
    if (!slot || slot.dataset.groove !== g.drag.groove || slot.dataset.legal !== "true") return;
    if (slot.dataset.line !== g.drag.start) g.drag.moved = true;
    if (g.drag.moved && slot.dataset.line !== g.line) choose(slot.dataset.line);
  });
  const endDrag = () => {
    if (g.drag?.moved) g.suppressClick = true;
    g.drag = null;
    setTimeout(() => { g.suppressClick = false; }, 0);
  };
  frame.addEventListener("pointerup", endDrag);
  frame.addEventListener("pointercancel", endDrag);

  // ---- what the host says ---------------------------------------------------------------
  const board = () => g.state?.board || {};
  const arrowOf = (seat) => (board().arrows || []).find((a) => a.seat === seat);
  const cellAt = (name) => {
    const cells = board().cells || "";
    const i = (Number(name[1]) - 1) * 6 + COLUMNS.indexOf(name[0]);
    return cells[i] && cells[i] !== "." ? cells[i] : null;
  };
  const legalMoves = () => (g.legal && g.legal.seq === g.state?.seq && g.legal.seat === g.view.active
    ? g.legal.moves || [] : []);
  const linesLegal = () => [...new Set(legalMoves().map((m) => m.line))];
  const takesOn = (line) => legalMoves().filter((m) => m.line === line && m.move !== m.line);
  const openingOn = (line) => legalMoves().find((m) => m.line === line && m.move === m.line);

  async function askLegal() {
    const seat = g.view.active;
    const seq = g.state.seq;
    if (ctx.readOnly || !seat || !g.state.board || board().status !== "playing") return;
    if (g.legal && g.legal.seq === seq && g.legal.seat === seat) return;
    g.legal = { seq, seat, moves: null };
    try {
      const answer = await ctx.host.legal(seat, {});
      if (g.legal?.seq !== seq || g.legal.seat !== seat) return;
      g.legal.moves = answer.moves || [];
    } catch (err) {
      if (g.legal?.seq === seq) g.legal = null;
      say(err.message || String(err));
    }
    paint();
  }

  // ---- taps and keys ------------------------------------------------------------------
  function choose(line, focus = 0) {
    g.line = line;
    g.focus = focus;
    const takes = takesOn(line);
    const which = takes.map((m) => m.move).join(" or ");
    if (takes.length === 1) say(`Line ${line}: take ${which}`);
    else if (takes.length) say(`Line ${line}: take ${which}${g.input === "touch" ? " — tap one of them" : " (Tab switches)"}`);
    paint();
  }

  function tapLine(groove, line) {
    if (g.suppressClick) return; // the end of a slide along the groove, not a tap
    const seat = g.view.active;
    if (ctx.readOnly || !seat || g.view.busy || groove !== grooveOf(seat)) return;
    if (!linesLegal().includes(line)) {
      if (g.legal?.moves) say(`Your arrow cannot go to ${line}`);
      return;
    }
    const opening = openingOn(line);
    if (opening) return play(opening.move);
    choose(line);
  }

  function tapCell(name) {
    const seat = g.view.active;
    if (ctx.readOnly || !seat || g.view.busy) return;
    const entry = legalMoves().find((m) => m.move === name);
    if (!entry) {
      const letter = cellAt(name);
      if (letter === "K") say("A black marble cannot be taken");
      return;
    }
    if (g.line === entry.line) return play(entry.move);
    choose(entry.line, takesOn(entry.line).indexOf(entry));
  }

  async function play(move) {
    const seat = g.view.active;
    if (!seat) return;
    const ok = await ctx.play(seat, move);
    if (!ok) paint();
  }

  /** The next listed line along my groove as seen, left to right (or top to bottom). */
  function step(dir) {
    const lines = linesLegal();
    if (!lines.length) return;
    const groove = grooveOf(g.view.active);
    const at = (line) => g.slots.get(`${groove}:${line}`)?.style.gridArea || "";
    const pos = (line) => at(line).split(" / ").map(Number).reduce((a, b) => a + b, 0);
    const order = [...(groove === "top" || groove === "bottom" ? COLUMNS : ROWS)].sort((x, y) => pos(x) - pos(y));
    const from = g.line ?? arrowOf(g.view.active)?.line ?? null;
    let i = from === null ? (dir > 0 ? -1 : 6) : order.indexOf(from);
    for (i += dir; i >= 0 && i < 6; i += dir) {
      if (lines.includes(order[i])) return choose(order[i]);
    }
    if (!g.line) choose(order.filter((l) => lines.includes(l)).at(dir > 0 ? -1 : 0));
  }

  function onKey(e) {
    if (ctx.readOnly || !g.view.active || g.view.busy) return false;
    g.input = "key";
    unsay();
    // My groove is at the bottom as seen: Left and Right move along it (Up and Down on a side).
    const edge = screenEdge(grooveOf(g.view.active), g.quarters);
    const keys = edge === "left" || edge === "right" ? { ArrowUp: -1, ArrowDown: 1 } : { ArrowLeft: -1, ArrowRight: 1 };
    if (keys[e.key] !== undefined) {
      e.preventDefault();
      step(keys[e.key]);
      return true;
    }
    if (e.key === "Enter" && g.line) {
      e.preventDefault();
      const opening = openingOn(g.line);
      const takes = takesOn(g.line);
      if (opening) play(opening.move);
      else if (takes.length) play(takes[g.focus % takes.length].move);
      return true;
    }
    if (e.key === "Tab" && g.line && takesOn(g.line).length > 1) {
      e.preventDefault();
      g.focus = (g.focus + (e.shiftKey ? -1 : 1) + takesOn(g.line).length) % takesOn(g.line).length;
      say(`Take ${takesOn(g.line)[g.focus].move} (Enter takes it)`);
      paint();
      return true;
    }
    if (e.key === "Escape" && g.line) {
      g.line = null;
      paint();
      return true;
    }
    return false;
  }

  // ---- drawing ------------------------------------------------------------------------
  function render(state, view = spectatorView(state)) {
    const seqChanged = state.seq !== g.state?.seq;
    const before = g.state?.seq;
    g.state = state;
    g.view = view;
    g.preview = null;
    if (seqChanged || !view.active) g.line = null;
    if (seqChanged) g.said = null; // the shell clears its message on a move
    if (view.shown) g.perspective = view.shown;
    orient(ctx.readOnly ? null : g.perspective);
    paint();
    const take = state.board?.last_take;
    // the marble taken flies to its tray at a live table (not in a replay's frames)
    if ((ctx.live ?? !ctx.readOnly) && before !== undefined && take && take.seq > before) fly(take);
    if (view.active && !ctx.readOnly) askLegal();
  }

  function paint() {
    const b = board();
    if (!b.cells) return;
    const seat = g.view.active;
    const mine = ctx.readOnly ? null : g.view.shown || seat;
    const lines = linesLegal();
    const takes = g.line ? takesOn(g.line) : [];
    const focused = takes.length ? takes[g.focus % takes.length].move : null;
    const last = b.last_take?.cell;
    for (const [name, el] of g.cells) {
      const letter = cellAt(name);
      const onLine = g.line && (name[0] === g.line || name[1] === g.line);
      const take = takes.some((m) => m.move === name);
      el.classList.toggle("k", letter === "K");
      el.classList.toggle("online", !!onLine);
      el.classList.toggle("take", take);
      el.classList.toggle("focus", take && focused === name);
      el.classList.toggle("last", !letter && name === last);
      el.classList.toggle("better", g.preview?.cell === name);
      el.dataset.marble = letter || "";
      el.dataset.take = String(take);
      el.setAttribute("aria-label", `${name}, ${letter ? MARBLES[letter] : "empty"}${letter === "K" ? ", cannot be taken" : ""}${take ? ", you can take it" : ""}`);
      const have = el.querySelector(".mb-marble");
      if (!letter) have?.remove();
      else if (!have || have.textContent !== letter) el.replaceChildren(marble(letter));
    }
    const arrows = b.arrows || [];
    for (const [key, el] of g.slots) {
      const [groove, line] = key.split(":");
      const owner = seatOfGroove(groove);
      const arrow = arrows.find((a) => a.seat === owner && a.line === line);
      const ghost = g.preview && groove === grooveOf(g.preview.seat) && line === g.preview.line
        ? arrowOf(g.preview.seat)?.side || "red" : null;
      const myGroove = seat && groove === grooveOf(seat) && !ctx.readOnly;
      const legal = myGroove && lines.includes(line);
      el.classList.toggle("mine", !!mine && groove === grooveOf(mine));
      el.classList.toggle("legal", !!legal);
      el.classList.toggle("chosen", !!legal && g.line === line);
      el.classList.toggle("better", !!ghost);
      el.dataset.legal = String(!!legal);
      el.dataset.arrow = arrow ? String(arrow.seat) : "";
      el.tabIndex = legal ? 0 : -1;
      // The seat to move's slots carry the short test ids, so a test taps "line-c".
      el.dataset.testid = myGroove ? `line-${line}` : `groove-${groove}-${line}`;
      el.replaceChildren(h("span.mb-coord", { "aria-hidden": "true" }, line),
        ...(arrow && !ghost ? [h(`span.arrow.${arrow.side}`, { "aria-hidden": "true" }, pointing(el.dataset.edge))] : []),
        ...(ghost ? [h(`span.arrow.ghost.${ghost}`, { "aria-hidden": "true" }, pointing(el.dataset.edge))] : []));
      el.setAttribute("aria-label", `${groove} groove, line ${line}${arrow ? `, ${arrow.side} arrow` : ""}${legal ? ", you can slide here" : ""}`);
    }
    frame.dataset.lines = lines.join(" ");
    frame.dataset.line = g.line || "";
    frame.dataset.takes = takes.map((m) => m.move).join(" ");
    frame.dataset.focus = focused || "";
    // "ready" only once the list for this seq and seat is in (an older one is no answer).
    const fresh = g.legal?.moves && g.legal.seq === g.state.seq && g.legal.seat === seat;
    frame.dataset.legal = !seat || ctx.readOnly ? "none" : fresh ? "ready" : "loading";
    frame.dataset.opening = String(!!b.opening);
    frame.dataset.preview = g.preview?.move || "";
    const seen = arrowOf(g.perspective)?.side;
    frame.setAttribute("aria-label", ctx.readOnly || !seen ? "Board" : `Board, ${seen} groove at the bottom`);
    paintInfo(b);
    paintTrays(trays, g.state);
    paintRounds(rounds, summary, b);
  }

  // The marble just taken flies from its cell to the taker's tray.
  function fly(take) {
    const side = arrowOf(take.seat)?.side;
    const from = g.cells.get(take.cell)?.getBoundingClientRect();
    const to = trays.querySelector(`[data-testid=tray-${side}]`)?.getBoundingClientRect();
    if (!from || !to || !from.width || !take.colour) return;
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches || !document.body.animate) return;
    const m = marble(take.colour, ".mb-fly");
    Object.assign(m.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`,
      height: `${from.height}px` });
    document.body.append(m);
    g.flying.add(m);
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    const done = () => { m.remove(); g.flying.delete(m); };
    const anim = m.animate([{ transform: "translate(0, 0) scale(1)", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(.35)`, opacity: .6 }], { duration: 450, easing: "ease-in" });
    anim.onfinish = done;
    anim.oncancel = done;
  }

  function paintInfo(b) {
    const starter = (b.arrows || []).find((a) => a.seat === b.starter);
    const bits = [h("span", { "data-testid": "round-number" }, "Round ", h("b", {}, String(b.round || 0)), ` of ${b.round_count || "?"}`)];
    if (starter) bits.push(h("span", {}, `${title(starter.side)} starts`));
    if (b.status === "dealing") bits.push(h("span", {}, "Dealing…"));
    if (b.opening && g.view.active) bits.push(h("b", {}, "Place your arrow on a line"));
    else if (g.view.active && !g.line) bits.push(h("b", {}, "Tap a marked line"));
    info.replaceChildren(...bits);
  }

  function seatDetail({ seat }) {
    const a = arrowOf(seat);
    if (!a) return null;
    const computer = (board().computer_seats || []).includes(seat);
    return h("div.mb-detail", { "data-testid": `marbles-detail-${seat}` },
      `${pointing(grooveOf(seat))} arrow on ${a.line ?? "—"}${computer ? " · played by the computer" : ""}`);
  }

  const describeMove = (frame) => {
    if (frame.kind === "deal") return `Round ${frame.details?.round ?? ""} dealt`;
    const d = frame.details || {};
    if (d.opening) return `${frame.move} (placed)`;
    return d.colour ? `${frame.move} ${d.colour}` : frame.move;
  };

  // The host's hint: its line chosen and its marble ready, so a tap or Enter takes it.
  function showHint(move) {
    const entry = legalMoves().find((m) => m.move === String(move).toLowerCase());
    if (!entry) return false;
    if (entry.move === entry.line) {
      choose(entry.line);
      say(`Hint: place your arrow on ${entry.line}`);
    } else {
      choose(entry.line, takesOn(entry.line).indexOf(entry));
      say(`Hint: take ${entry.move}`);
    }
    return true;
  }

  /** Draw `seat`'s move `move` (the game's notation: "c4", or a line "c" / "4" opening a round)
   * over the position rendered: its arrow ghosted on the new line and a dashed ring on the
   * marble it takes; render() clears it. False if the text names no line of the seat's. */
  function previewMove(move, seat) {
    const text = String(move || "").trim().toLowerCase();
    const columns = ["top", "bottom"].includes(grooveOf(seat));
    let line = null;
    let cell = null;
    if (/^[a-f][1-6]$/.test(text)) {
      cell = text;
      line = columns ? text[0] : text[1];
    } else if (columns ? /^[a-f]$/.test(text) : /^[1-6]$/.test(text)) line = text;
    if (!line) return false;
    g.preview = { seat, line, cell, move: text };
    paint();
    return true;
  }

  return {
    render,
    seatDetail,
    describeMove,
    showHint,
    previewMove,
    onKey,
    destroy() {
      for (const m of g.flying) m.remove();
      root.remove();
    },
  };
}
