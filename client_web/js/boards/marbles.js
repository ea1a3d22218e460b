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
import { seatName } from "/js/seats.js";

/** The seat colours as the shell shows them: chip fill, text on it, the chip's sign. */
export const palette = {
  red: { fill: "#c62828", ink: "#fff", mark: "▲" },
  yellow: { fill: "#f2c81b", ink: "#111", mark: "▶" },
};

const COLUMNS = "abcdef";
const ROWS = "123456";
const MARBLES = {
  Y: "yellow", R: "red", G: "green", B: "blue", W: "white", S: "grey", K: "black",
};
const POINTS = [1, 3, 6, 10, 13, 16, 20, 24];
// Where each seat's arrow sits: seat 1 at the bottom, then round the table to its left.
const GROOVES = { 1: "bottom", 2: "left", 3: "top", 4: "right" };
const POINTING = { bottom: "▲", top: "▼", left: "▶", right: "◀" };

// Second cues besides colour: every marble carries its letter (Y R G B W S K); black is
// striped and crossed out, since it can never be taken; a marble you can take has a blue
// dashed ring, the chosen one a solid ring; the cell taken last a dotted yellow ring.
const CSS = `
.mb { width: 100%; }
.mb-info { display: flex; flex-wrap: wrap; gap: 4px 10px; justify-content: center; font-size: .9rem; margin: 4px 0;
  color: var(--muted, #555); }
.mb-info b { color: var(--text, #111); }
.mb-frame { display: grid; grid-template-columns: .62fr repeat(6, 1fr) .62fr; grid-template-rows: .62fr repeat(6, 1fr) .62fr;
  width: 100%; aspect-ratio: 1; background: #7a5635; border-radius: 10px; padding: 2px; box-sizing: border-box;
  touch-action: manipulation; user-select: none; -webkit-user-select: none; -webkit-tap-highlight-color: transparent; }
@media (min-aspect-ratio: 1/1) { .mb-frame { width: min(100%, calc(100vh - 200px)); margin: 0 auto; } }
.mb-cell { position: relative; display: grid; place-items: center; min-width: 0; cursor: pointer; }
.mb-cell::before { content: ""; position: absolute; inset: 22%; border-radius: 50%; background: #3e2a18; box-shadow: inset 0 2px 3px #000; }
.mb-cell.online { background: rgba(255,255,255,.16); }
.mb-marble { position: absolute; inset: 8%; border-radius: 50%; display: grid; place-items: center; font-weight: 900;
  font-size: clamp(12px, 4.2vw, 22px); box-shadow: inset -3px -4px 6px rgba(0,0,0,.35), 0 1px 2px rgba(0,0,0,.5);
  pointer-events: none; z-index: 1; }
.m-Y { background: #f6d23a; color: #222; } .m-R { background: #d32f2f; color: #fff; }
.m-G { background: #2e9d44; color: #fff; } .m-B { background: #1e5bd8; color: #fff; }
.m-W { background: #f7f7f2; color: #222; } .m-S { background: #9a9a9a; color: #111; }
.m-K { background: repeating-linear-gradient(45deg, #111 0 5px, #3a3a3a 5px 8px); color: #ddd; }
.mb-cell .m-K::after { content: ""; position: absolute; inset: 18%; border: 2px solid #bbb; border-radius: 50%;
  background: linear-gradient(45deg, transparent 45%, #bbb 45% 55%, transparent 55%); opacity: .8; }
.mb-cell.k { cursor: not-allowed; }
.mb-cell.take::after { content: ""; position: absolute; inset: 1%; border-radius: 50%; border: 4px dashed #1560d4; z-index: 2; }
.mb-cell.take.focus::after { border: 5px solid #1560d4; box-shadow: 0 0 0 3px #fff; }
.mb-cell.last::after { content: ""; position: absolute; inset: 14%; border-radius: 50%; border: 3px dotted #ffd600; z-index: 2; }
.mb-slot { position: relative; display: grid; place-items: center; min-width: 0; font-size: clamp(14px, 5vw, 26px);
  line-height: 1; color: rgba(255,255,255,.25); border: 0; background: transparent; padding: 0; font-family: inherit; }
.mb-slot::before { content: ""; position: absolute; background: #4a321d; border-radius: 3px; }
.mb-slot.g-top::before, .mb-slot.g-bottom::before { left: 0; right: 0; top: 40%; bottom: 40%; }
.mb-slot.g-left::before, .mb-slot.g-right::before { top: 0; bottom: 0; left: 40%; right: 40%; }
.mb-slot .arrow { position: relative; z-index: 1; font-weight: 900; -webkit-text-stroke: 1px #000; }
.mb-slot .arrow.red { color: #ff5a4f; } .mb-slot .arrow.yellow { color: #ffe04a; }
.mb-slot.mine::before { background: #6b4a2c; box-shadow: 0 0 0 2px #8fb8ff; }
.mb-slot.mine .arrow { text-shadow: 0 0 6px #fff; }
.mb-slot.legal { cursor: pointer; }
.mb-slot.legal::after { content: ""; position: absolute; inset: 12%; border-radius: 50%; border: 3px dashed #8fb8ff; }
.mb-slot.chosen::after { border: 4px solid #fff; background: rgba(21,96,212,.55); }
.mb-slot.mine { touch-action: none; }
.mb-corner { min-width: 0; }
.mb-fly { position: fixed; z-index: 50; pointer-events: none; inset: auto; }
.mb-trays { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; margin: 6px 0; }
.mb-tray { border: 2px solid var(--line, #999); border-radius: 10px; padding: 4px 6px; font-size: .85rem; min-width: 0; }
.mb-tray.to-move { border-color: #3d7bf0; box-shadow: 0 0 0 1px #3d7bf0; }
.mb-tray h4 { margin: 0 0 3px; font-size: .9rem; display: flex; gap: 4px; align-items: center; }
.mb-tray ul { list-style: none; margin: 0; padding: 0; }
.mb-tray li { display: flex; align-items: center; gap: 4px; white-space: nowrap; }
.mb-tray .mini { position: relative; inset: auto; width: 18px; height: 18px; font-size: 11px; display: inline-grid; }
.mb-tray .dbl { color: #e65100; font-weight: 800; }
.mb-tray .sum { margin-top: 3px; font-weight: 700; }
.mb-score-table { border-collapse: collapse; font-size: .75rem; margin: 4px auto; }
.mb-score-table td, .mb-score-table th { border: 1px solid var(--line, #999); padding: 1px 4px; text-align: center; }
.mb-rounds { font-size: .85rem; margin: 2px 0; text-align: center; }
.mb-summary { border: 2px solid #3d7bf0; border-radius: 10px; padding: 6px 8px; margin: 6px 0; font-size: .9rem; }
.mb-detail { font-size: .85rem; color: var(--muted, #555); margin-top: 2px; }
`;
if (!document.querySelector("style[data-board=marbles]")) document.head.append(h("style", { "data-board": "marbles" }, CSS));

const marble = (letter, cls = "") =>
  h(`span.mb-marble.m-${letter}${cls}`, { "aria-hidden": "true" }, letter);

/**
 * ctx: {el, side, entry, readOnly, host: {legal(seat)}, play(seat, move) → Promise<bool>,
 * say(text)}. Returns {render(state, view), seatDetail(seat, view), describeMove(frame),
 * onKey(e), destroy()}.
 */
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
  };
  const say = (text) => ctx.say?.(text);

  // ---- layout -------------------------------------------------------------------------
  const info = h("div.mb-info", { "data-testid": "marbles-info" });
  const summary = h("div.mb-summary", { "data-testid": "round-summary", hidden: true, "aria-live": "polite" });
  const frame = h("div.mb-frame.board", { "data-testid": "board", role: "grid", "aria-label": "Board" });
  const trays = h("div.mb-trays", { "data-testid": "trays" });
  const rounds = h("div.mb-rounds", { "data-testid": "rounds" });
  const table = h("table.mb-score-table", { "data-testid": "score-table", "aria-label": "Points per colour" },
    h("tr", {}, h("th", {}, "marbles"), ...POINTS.map((_, i) => h("td", {}, String(i + 1)))),
    h("tr", {}, h("th", {}, "points"), ...POINTS.map((p) => h("td", {}, String(p)))),
    h("tr", {}, h("td", { colspan: 9 }, "×2 for a colour only one side holds")));
  const root = h("div.mb", {}, info, summary, frame, trays, rounds, table);
  ctx.el.replaceChildren(root);

  function build() {
    const els = [];
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 8; c++) {
        const edgeRow = r === 0 || r === 7;
        const edgeCol = c === 0 || c === 7;
        if (edgeRow && edgeCol) {
          els.push(h("div.mb-corner"));
        } else if (edgeRow || edgeCol) {
          const groove = r === 0 ? "top" : r === 7 ? "bottom" : c === 0 ? "left" : "right";
          const line = edgeRow ? COLUMNS[c - 1] : ROWS[6 - r];
          const el = h(`button.mb-slot.g-${groove}`, { type: "button", "data-groove": groove, "data-line": line,
            "data-testid": `groove-${groove}-${line}`, "aria-label": `${groove} groove, line ${line}`, tabindex: "-1",
            onclick: () => tapLine(groove, line) });
          g.slots.set(`${groove}:${line}`, el);
          els.push(el);
        } else {
          const name = `${COLUMNS[c - 1]}${ROWS[6 - r]}`;
          const el = h("div.mb-cell", { role: "gridcell", "data-testid": `cell-${name}`, "data-cell": name,
            onclick: () => tapCell(name) });
          g.cells.set(name, el);
          els.push(el);
        }
      }
    }
    frame.replaceChildren(...els);
  }
  build();

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
  const grooveOf = (seat) => GROOVES[seat] || "bottom";
  const seatOfGroove = (groove) => Number(Object.keys(GROOVES).find((s) => GROOVES[s] === groove));
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
  const myAxis = () => arrowOf(g.view.active)?.axis || (g.view.active % 2 === 1 ? "column" : "row");

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
    if (takes.length) say(takes.length === 1 ? `Line ${line}: take ${takes[0].move}`
      : `Line ${line}: take ${takes.map((m) => m.move).join(" or ")} (Tab switches)`);
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

  function step(dir) {
    const lines = linesLegal();
    if (!lines.length) return;
    const axis = myAxis();
    const order = axis === "column" ? COLUMNS : ROWS;
    const from = g.line ?? arrowOf(g.view.active)?.line ?? null;
    let i = from === null ? (dir > 0 ? -1 : 6) : order.indexOf(from);
    for (i += dir; i >= 0 && i < 6; i += dir) {
      if (lines.includes(order[i])) return choose(order[i]);
    }
    if (!g.line) choose(lines[dir > 0 ? lines.length - 1 : 0]);
  }

  function onKey(e) {
    if (ctx.readOnly || !g.view.active || g.view.busy) return false;
    const axis = myAxis();
    const keys = axis === "column" ? { ArrowLeft: -1, ArrowRight: 1 } : { ArrowDown: -1, ArrowUp: 1 };
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
      say(`Take ${takesOn(g.line)[g.focus].move}`);
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
  function render(state, view = {}) {
    const seqChanged = state.seq !== g.state?.seq;
    const before = g.state?.seq;
    g.state = state;
    g.view = view;
    if (seqChanged || !view.active) g.line = null;
    paint();
    const take = state.board?.last_take;
    if (!ctx.readOnly && before !== undefined && take && take.seq > before) fly(take);
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
      const myGroove = seat && groove === grooveOf(seat) && !ctx.readOnly;
      const legal = myGroove && lines.includes(line);
      el.classList.toggle("mine", !!mine && groove === grooveOf(mine));
      el.classList.toggle("legal", !!legal);
      el.classList.toggle("chosen", !!legal && g.line === line);
      el.dataset.legal = String(!!legal);
      el.dataset.arrow = arrow ? String(arrow.seat) : "";
      el.tabIndex = legal ? 0 : -1;
      // The seat to move's slots carry the short test ids, so a test taps "line-c".
      el.dataset.testid = myGroove ? `line-${line}` : `groove-${groove}-${line}`;
      el.replaceChildren(...(arrow ? [h(`span.arrow.${arrow.side}`, { "aria-hidden": "true" }, POINTING[groove])] : []));
      el.setAttribute("aria-label", `${groove} groove, line ${line}${arrow ? `, ${arrow.side} arrow` : ""}${legal ? ", you can slide here" : ""}`);
    }
    frame.dataset.lines = lines.join(" ");
    frame.dataset.line = g.line || "";
    frame.dataset.takes = takes.map((m) => m.move).join(" ");
    frame.dataset.focus = focused || "";
    frame.dataset.legal = !seat || ctx.readOnly ? "none" : g.legal?.moves ? "ready" : "loading";
    frame.dataset.opening = String(!!b.opening);
    paintInfo(b);
    paintTrays(b);
    paintRounds(b);
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

  function paintTrays(b) {
    const sides = b.sides || {};
    const toMove = (b.arrows || []).find((a) => a.seat === b.to_move)?.side;
    trays.replaceChildren(...["red", "yellow"].filter((s) => sides[s]).map((side) => {
      const s = sides[side];
      const names = (s.seats || []).map((n) => g.state.seats?.[n - 1]).filter(Boolean).map(seatName)
        .filter((n) => n !== title(side)).join(", ");
      return h(`div.mb-tray${toMove === side && !b.result ? ".to-move" : ""}`, { "data-testid": `tray-${side}` },
        h("h4", {}, h(`span.chip.c-${side}`, { "aria-hidden": "true" }, palette[side].mark), `${title(side)}`,
          names ? h("span.mb-detail", {}, ` · ${names}`) : null),
        h("ul", {}, ...(s.colours || []).map((c) => h("li", { "data-testid": `tray-${side}-${c.letter}` },
          marble(c.letter, ".mini"), `${c.count}: ${c.points} pt`,
          c.doubled ? h("span.dbl", { title: "only this side holds it" }, " ×2") : null,
          c.doubled ? ` = ${c.score}` : null))),
        (s.colours || []).length ? null : h("div.mb-detail", {}, "no marbles yet"),
        h("div.sum", {}, "Round ", h("span", { "data-testid": `tray-${side}-score` }, String(s.score ?? 0)),
          " · Total ", h("span", { "data-testid": `tray-${side}-total` }, String(s.total ?? 0))));
    }));
  }

  function paintRounds(b) {
    const done = b.rounds || [];
    rounds.replaceChildren(...done.map((r) => h("div", { "data-testid": `round-${r.round}` },
      `Round ${r.round}: Red ${r.scores.red} · Yellow ${r.scores.yellow}`)));
    // Between rounds (nothing taken yet in the new round, or the deal still due): what the
    // round that ended gave, and the new deal.
    const sides = b.sides || {};
    const taken = ["red", "yellow"].reduce((n, s) => n + Object.values(sides[s]?.marbles || {}).reduce((a, x) => a + x, 0), 0);
    const lastRound = done[done.length - 1];
    const between = lastRound && !b.result && (b.status === "dealing" || (taken === 0 && b.round > lastRound.round));
    summary.hidden = !between;
    if (between) {
      const t = b.team_scores || {};
      const lead = t.red === t.yellow ? `level at ${t.red}` : t.red > t.yellow ? `Red leads ${t.red}–${t.yellow}` : `Yellow leads ${t.yellow}–${t.red}`;
      const starter = (b.arrows || []).find((a) => a.seat === b.starter);
      summary.replaceChildren(
        h("b", {}, `Round ${lastRound.round} over: Red ${lastRound.scores.red}, Yellow ${lastRound.scores.yellow}`),
        h("div", {}, `Total: ${lead}.`),
        h("div", {}, b.status === "dealing" ? "Dealing the next round…"
          : `Round ${b.round} dealt${starter ? `: ${title(starter.side)} starts` : ""}.`));
    }
  }

  function seatDetail({ seat }) {
    const a = arrowOf(seat);
    if (!a) return null;
    const computer = (board().computer_seats || []).includes(seat);
    return h("div.mb-detail", { "data-testid": `marbles-detail-${seat}` },
      `${POINTING[grooveOf(seat)]} arrow on ${a.line ?? "—"}${computer ? " · played by the computer" : ""}`);
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

  return {
    render,
    seatDetail,
    describeMove,
    showHint,
    onKey,
    destroy() {
      for (const m of g.flying) m.remove();
      root.remove();
    },
  };
}
