// Corners' board module (served as /boards/corners.js; the interface is in docs/ui.md): the
// 8×8 board, the move number / home deadline / game limit and both clocks above it, the piece
// picked and where it can go, the path of a move, the last move, the home-return warning.
//
// It holds no rules. Picking one of your pieces asks the host, through the shell's
// `host.legal(seat, {from: square})`, where that piece can go (each entry: the move's full
// path "c3-e3-e5", `from`, `to`, and `loses` when it returns a piece home after the deadline);
// the board lights the `to` squares and draws an entry's path. The clocks are the host's: on
// every state they are set again from `remaining_ms` and `running_since_ms`.

import { h, title } from "/js/dom.js";

/** The seat colours as the shell shows them: chip fill, text on it, the chip's sign. */
export const palette = {
  white: { fill: "#f4f1e8", ink: "#111", mark: "○" },
  black: { fill: "#141414", ink: "#fff", mark: "●" },
};

const COLUMNS = "abcdefghijklmnop";
const SVG = "http://www.w3.org/2000/svg";

// Second cues besides colour: a white piece is a plain disc with a dark rim, a black one a disc
// with a light ring inside; targets are hollow diamonds (a losing one a red ×), the chosen
// target a filled diamond; homes carry a corner notch of the owner's colour.
const CSS = `
.cn { width: 100%; }
.cn-info { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; justify-content: center;
  font-size: .9rem; margin: 4px 0; color: var(--muted, #555); }
.cn-info b { color: var(--text, #111); font-variant-numeric: tabular-nums; }
.cn-info .warn { color: #ffb15c; font-weight: 700; }
.cn-clocks { display: flex; gap: 8px; margin: 4px 0 6px; }
.cn-clock { flex: 1; display: flex; align-items: center; gap: 6px; padding: 4px 8px; border-radius: 10px;
  border: 2px solid var(--line, #999); background: var(--panel, #eee); font-variant-numeric: tabular-nums; }
.cn-clock .chip { width: 22px; height: 22px; }
.cn-clock .cn-time { margin-left: auto; font-size: 1.25rem; font-weight: 800; }
.cn-clock[data-running="true"] { border-color: #3d7bf0; box-shadow: 0 0 0 1px #3d7bf0; }
.cn-clock[data-running="true"] .cn-time::before { content: "▶ "; font-size: .8rem; }
.cn-clock.low .cn-time { color: #ff8a80; }
.cn-frame { position: relative; width: 100%; aspect-ratio: 1; }
@media (min-aspect-ratio: 1/1) { .cn-frame { width: min(100%, calc(100vh - 160px)); margin: 0 auto; } }
.cn-board { display: grid; grid-template-columns: repeat(var(--n), 1fr); grid-template-rows: repeat(var(--n), 1fr);
  position: absolute; inset: 0; border: 3px solid #5b4630; border-radius: 4px; touch-action: manipulation;
  -webkit-tap-highlight-color: transparent; user-select: none; -webkit-user-select: none; -webkit-touch-callout: none; }
.cn-cell { position: relative; background: #ead7b0; cursor: pointer; min-width: 0; }
.cn-cell.dark { background: #b68c5e; }
.cn-cell.home1::before, .cn-cell.home2::before { content: ""; position: absolute; width: 22%; height: 22%; left: 0; bottom: 0;
  background: linear-gradient(45deg, #fbfaf5 50%, transparent 50%); opacity: .9; }
.cn-cell.home2::before { left: auto; bottom: auto; right: 0; top: 0; background: linear-gradient(225deg, #1b1b1b 50%, transparent 50%); }
.cn-coord { position: absolute; font-size: 9px; line-height: 1; color: rgba(40,25,10,.75); pointer-events: none; }
.cn-coord.file { right: 2px; bottom: 1px; }
.cn-coord.rank { left: 2px; top: 1px; }
.cn-piece { position: absolute; inset: 11%; border-radius: 50%; pointer-events: none; z-index: 1; }
.cn-piece.w { background: radial-gradient(circle at 35% 30%, #fff, #e9e4d6 70%); border: 3px solid #2b2b2b; }
.cn-piece.b { background: radial-gradient(circle at 35% 30%, #555, #111 70%); border: 2px solid #111;
  box-shadow: inset 0 0 0 4px #111, inset 0 0 0 6px #e8e8e8; }
.cn-cell.from .cn-piece { transform: scale(1.08); box-shadow: 0 0 0 3px #3d7bf0, 0 4px 8px rgba(0,0,0,.45); }
.cn-cell.from.b-piece .cn-piece { box-shadow: inset 0 0 0 4px #111, inset 0 0 0 6px #e8e8e8, 0 0 0 3px #3d7bf0, 0 4px 8px rgba(0,0,0,.45); }
.cn-cell.target::after { content: ""; position: absolute; inset: 33%; border: 3px solid #1560d4; background: rgba(255,255,255,.55);
  transform: rotate(45deg); z-index: 2; }
.cn-cell.target.chosen::after { background: #1560d4; border-color: #fff; inset: 27%; }
.cn-cell.target.loses::after { content: "×"; transform: none; inset: 18%; border: 3px dashed #c62828; border-radius: 50%;
  background: rgba(255,255,255,.7); color: #c62828; font-weight: 900; display: grid; place-items: center; font-size: 1.1em; }
.cn-cell.target.loses.chosen::after { background: #c62828; color: #fff; border-color: #fff; }
.cn-cell.last-from, .cn-cell.last-to { box-shadow: inset 0 0 0 3px rgba(255, 214, 0, .85); }
.cn-cell.cursor { outline: 4px solid #8fb8ff; outline-offset: -4px; z-index: 3; }
.cn-paths { position: absolute; inset: 3px; width: calc(100% - 6px); height: calc(100% - 6px); pointer-events: none; z-index: 4; }
.cn-paths .last { stroke: #ffd600; stroke-width: .09; fill: none; stroke-dasharray: .18 .12; stroke-linecap: round; stroke-linejoin: round; opacity: .9; }
.cn-paths .shown { stroke: #1560d4; stroke-width: .14; fill: none; stroke-linecap: round; stroke-linejoin: round; }
.cn-paths .shown.loses { stroke: #c62828; stroke-dasharray: .2 .12; }
.cn-paths .dot { fill: #1560d4; }
.cn-paths .dot.loses { fill: #c62828; }
.cn-detail { font-size: .85rem; color: var(--muted, #555); margin-top: 2px; }
.cn-hint { min-height: 1.2em; font-size: .9rem; margin: 4px 0; }
`;
document.head.append(h("style", { "data-board": "corners" }, CSS));

/** "m:ss", or "s.t" in the last twenty seconds. */
export function clockText(ms) {
  ms = Math.max(0, ms);
  if (ms < 20_000) return `0:${String(Math.floor(ms / 1000)).padStart(2, "0")}.${Math.floor((ms % 1000) / 100)}`;
  const s = Math.ceil(ms / 1000);
  const hours = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/**
 * ctx: {el, side, entry, readOnly, host: {legal(seat, {from})}, play(seat, move) → Promise<bool>,
 * say(text)}. Returns {render(state, view), seatDetail(seat, view), describeMove(frame),
 * numberMove(frame), showHint(move), onKey(e), destroy()}.
 */
export function createBoard(ctx) {
  const g = {
    state: null,
    view: {},
    n: 0,
    cells: new Map(), // square name -> {row, col, el}
    turned: false, // black's home at the bottom
    perspective: null, // the seat whose side of the board is at the bottom
    picked: null, // {seat, from, seq, moves: null while asked | [entries]}
    chosen: null, // a target tapped once (touch): its path is shown, a second tap moves
    hover: null, // the target under the mouse
    cursor: null, // the keyboard's square
    clock: null, // {remaining: [ms, ms], running, at: performance.now() when set}
    confirming: null,
  };
  const say = (text) => ctx.say?.(text);

  // ---- layout -------------------------------------------------------------------------
  const info = h("div.cn-info", { "data-testid": "corners-info" });
  const clocks = h("div.cn-clocks", { "data-testid": "clocks", hidden: true });
  const grid = h("div.cn-board.board", { "data-testid": "board", role: "grid", "aria-label": "Board" });
  const paths = document.createElementNS(SVG, "svg");
  paths.setAttribute("class", "cn-paths");
  paths.setAttribute("aria-hidden", "true");
  const hint = h("p.cn-hint", { "data-testid": "move-hint", "aria-live": "polite" });
  const root = h("div.cn", {}, info, clocks, h("div.cn-frame", {}, grid, paths));
  ctx.el.replaceChildren(root);
  if (ctx.side) ctx.side.prepend(hint);
  const dialog = h("dialog.confirm", { "data-testid": "home-return-dialog", "aria-labelledby": "cn-confirm-title" });
  if (!ctx.readOnly) document.body.append(dialog);

  function build(n) {
    g.n = n;
    g.cells.clear();
    grid.style.setProperty("--n", n);
    paths.setAttribute("viewBox", `0 0 ${n} ${n}`);
    const els = [];
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        const name = `${COLUMNS[col]}${n - row}`;
        const el = h(`div.cn-cell${(row + col) % 2 === 0 ? "" : ".dark"}`, { role: "gridcell", "data-testid": `cell-${name}`,
          "data-square": name });
        g.cells.set(name, { row, col, el });
        els.push(el);
      }
    }
    grid.replaceChildren(...els);
    g.turned = null;
  }

  /** Where a square sits on the screen (row, column from the top left). */
  const screenOf = (c) => (g.turned ? [g.n - 1 - c.row, g.n - 1 - c.col] : [c.row, c.col]);

  function orient(turned) {
    if (g.turned === turned) return;
    g.turned = turned;
    grid.dataset.turned = String(turned);
    for (const [name, c] of g.cells) {
      const [r, col] = screenOf(c);
      c.el.style.gridRow = String(r + 1);
      c.el.style.gridColumn = String(col + 1);
      // Coordinates along the bottom and left edges as seen.
      const marks = [];
      if (r === g.n - 1) marks.push(h("span.cn-coord.file", {}, name[0]));
      if (col === 0) marks.push(h("span.cn-coord.rank", {}, name.slice(1)));
      c.coords = marks;
    }
  }

  // ---- state --------------------------------------------------------------------------
  const owner = (name) => {
    const c = g.cells.get(name);
    return c && g.state ? Number(g.state.board.rows[c.row][c.col]) : 0;
  };
  const colourOf = (seat) => g.state?.seats?.[seat - 1]?.colour || ["white", "black"][seat - 1] || "";
  const nameOfSeat = (seat) => title(colourOf(seat));

  function render(state, view = {}) {
    const seqChanged = !g.state || state.seq !== g.state.seq;
    const n = state.board.size || state.board.rows.length;
    if (g.n !== n) build(n);
    g.state = state;
    g.view = view;
    if (view.shown) g.perspective = view.shown;
    orient(!ctx.readOnly && g.perspective === 2);
    if (seqChanged || !view.active || (g.picked && g.picked.seat !== view.active)) {
      g.picked = null;
      g.chosen = null;
      g.hover = null;
    }
    setClock(state);
    paint();
  }

  function targets() {
    return g.picked?.moves || [];
  }
  const entryTo = (name) => targets().find((m) => toOf(m) === name);
  const toOf = (m) => m.to || m.move.split("-").at(-1);
  const fromOf = (m) => m.from || m.move.split("-")[0];

  function paint() {
    const s = g.state;
    if (!s) return;
    const b = s.board;
    const homes = [new Set(b.homes?.["1"] || []), new Set(b.homes?.["2"] || [])];
    const lastPath = (b.last_move || s.last_move?.move || "").split("-").filter(Boolean);
    const lit = new Map(targets().map((m) => [toOf(m), m]));
    const shown = shownEntry();
    for (const [name, c] of g.cells) {
      const v = Number(b.rows[c.row][c.col]);
      const parts = [...(c.coords || [])];
      if (v) parts.push(h(`span.cn-piece.${v === 1 ? "w" : "b"}`));
      c.el.replaceChildren(...parts);
      const m = lit.get(name);
      const cls = c.el.classList;
      cls.toggle("home1", homes[0].has(name));
      cls.toggle("home2", homes[1].has(name));
      cls.toggle("b-piece", v === 2);
      cls.toggle("from", g.picked?.from === name);
      cls.toggle("target", !!m);
      cls.toggle("loses", !!m?.loses);
      cls.toggle("chosen", !!m && shown === m);
      cls.toggle("last-from", lastPath.length > 1 && lastPath[0] === name);
      cls.toggle("last-to", lastPath.length > 1 && lastPath.at(-1) === name);
      cls.toggle("cursor", g.cursor === name && !ctx.readOnly);
      c.el.dataset.target = m ? (m.loses ? "loses" : "true") : "false";
      const what = v ? `${colourOf(v)} piece` : "empty";
      c.el.setAttribute("aria-label", `${name}, ${what}${m ? (m.loses ? ", a move that loses" : ", you can move here") : ""}`);
    }
    grid.dataset.picked = g.picked?.from || "";
    grid.dataset.cursor = g.cursor || "";
    grid.dataset.targets = [...lit.keys()].sort().join(" ");
    grid.setAttribute("aria-label", `Board, ${g.turned ? "black" : "white"} side at the bottom`);
    drawPaths(lastPath, shown);
    paintInfo();
    paintHint(shown);
  }

  /** The legal entry whose path is shown: the chosen target, the hovered one or the cursor's. */
  function shownEntry() {
    for (const name of [g.chosen, g.hover, g.cursor]) {
      const m = name && entryTo(name);
      if (m) return m;
    }
    return null;
  }

  function centre(name) {
    const c = g.cells.get(name);
    if (!c) return null;
    const [r, col] = screenOf(c);
    return [col + 0.5, r + 0.5];
  }

  function polyline(squares, cls, testid) {
    const pts = squares.map(centre).filter(Boolean);
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
    line.setAttribute("class", cls);
    line.dataset.testid = testid;
    line.dataset.path = squares.join("-");
    return line;
  }

  function drawPaths(lastPath, shown) {
    const parts = [];
    if (lastPath.length > 1) parts.push(polyline(lastPath, "last", "last-path"));
    if (shown) {
      const squares = shown.move.split("-");
      const cls = shown.loses ? " loses" : "";
      parts.push(polyline(squares, `shown${cls}`, "path"));
      for (const sq of squares.slice(1, -1)) {
        const [x, y] = centre(sq);
        const dot = document.createElementNS(SVG, "circle");
        dot.setAttribute("cx", x);
        dot.setAttribute("cy", y);
        dot.setAttribute("r", ".12");
        dot.setAttribute("class", `dot${cls}`);
        parts.push(dot);
      }
    }
    paths.replaceChildren(...parts);
  }

  function paintInfo() {
    const b = g.state.board;
    const bits = [
      h("span", { "data-testid": "move-number" }, "Move ", h("b", {}, String(b.move_number ?? 1))),
      h("span", { "data-testid": "home-deadline" }, "Leave home by ", h("b", {}, String(b.home_deadline ?? "—"))),
      h("span", { "data-testid": "move-limit" }, "Limit ", h("b", {}, String(b.move_limit ?? "—"))),
    ];
    if (b.after_deadline) bits.push(h("span.warn", { "data-testid": "after-deadline" }, "Past the deadline: a piece back home loses"));
    if (b.pending_reply) bits.push(h("span.warn", { "data-testid": "pending-reply" }, `${nameOfSeat(2)} has the last move`));
    if (b.draw_offer) bits.push(h("span.warn", { "data-testid": "draw-offer" }, `${nameOfSeat(Number(b.draw_offer))} offers a draw`));
    info.replaceChildren(...bits);
  }

  function paintHint(shown) {
    if (ctx.readOnly) return;
    const p = g.picked;
    let text = "";
    if (!g.view.active) text = "";
    else if (!p) text = "Tap one of your pieces.";
    else if (!p.moves) text = `${p.from}: asking the host…`;
    else if (!p.moves.length) text = `The piece on ${p.from} cannot move.`;
    else if (g.chosen && shown) text = shown.loses ? `${shown.move} brings a piece back home and loses. Tap ${toOf(shown)} again to decide.` : `${shown.move}: tap ${toOf(shown)} again to move.`;
    else text = `${p.from}: pick a lit square (${p.moves.length}).`;
    hint.textContent = text;
  }

  // ---- the clocks: the host's remaining time, counted down from running_since_ms ---------
  let ticker = null;
  function setClock(state) {
    const c = state.board.clock;
    clocks.hidden = !c;
    if (!c) {
      g.clock = null;
      stopTicker();
      return;
    }
    const remaining = [...c.remaining_ms];
    const running = ctx.readOnly || state.result ? null : c.running;
    let at = performance.now();
    if (running && c.running_since_ms != null) {
      // The host's epoch: its own time if it says it (now_ms), else this phone's clock, never
      // counting back before the host started it.
      const hostNow = state.now_ms ?? c.now_ms ?? state.server_time_ms;
      const elapsed = hostNow != null ? hostNow - c.running_since_ms : Date.now() - c.running_since_ms;
      remaining[running - 1] -= Math.max(0, elapsed);
      at = performance.now();
    }
    g.clock = { remaining, running, at };
    if (!clocks.firstChild) {
      clocks.replaceChildren(...[1, 2].map((seat) => h("div.cn-clock", { "data-testid": `clock-${seat}` },
        h(`span.chip.c-${colourOf(seat)}`, { "aria-hidden": "true" }, palette[colourOf(seat)]?.mark || ""),
        h("span.cn-who", {}, nameOfSeat(seat)), h("span.cn-time", { "data-testid": `clock-${seat}-time` }))));
    }
    // The clock of the side at the top of the board comes first.
    const order = g.turned ? [1, 2] : [2, 1];
    for (const seat of order) clocks.append(clocks.querySelector(`[data-testid=clock-${seat}]`));
    tick();
    if (running && !ticker) ticker = setInterval(tick, 100);
    if (!running) stopTicker();
  }
  function stopTicker() {
    clearInterval(ticker);
    ticker = null;
  }
  function tick() {
    const c = g.clock;
    if (!c) return;
    for (const seat of [1, 2]) {
      let ms = c.remaining[seat - 1];
      if (c.running === seat) ms -= performance.now() - c.at;
      const box = clocks.querySelector(`[data-testid=clock-${seat}]`);
      if (!box) continue;
      box.dataset.running = String(c.running === seat);
      box.classList.toggle("low", ms < 20_000);
      const text = clockText(ms);
      const t = box.querySelector(".cn-time");
      if (t.textContent !== text) t.textContent = text;
      box.setAttribute("aria-label", `${nameOfSeat(seat)}'s clock ${text}${c.running === seat ? ", running" : ""}`);
    }
  }

  // ---- picking and moving ---------------------------------------------------------------
  async function pick(seat, from) {
    const seq = g.state.seq;
    g.picked = { seat, from, seq, moves: null };
    g.chosen = null;
    g.hover = null;
    paint();
    try {
      const answer = await ctx.host.legal(seat, { from });
      if (g.picked?.from !== from || g.picked.seq !== seq || g.state.seq !== seq) return;
      g.picked.moves = (answer.moves || []).filter((m) => fromOf(m) === from);
    } catch (err) {
      if (g.picked?.from === from) g.picked = null;
      say(err.message);
    }
    paint();
  }

  function cancel() {
    g.picked = null;
    g.chosen = null;
    g.hover = null;
    paint();
  }

  /** A tap, click or Enter on a square; `how` is "touch", "mouse" or "key". */
  function activate(name, how) {
    const seat = g.view.active;
    if (ctx.readOnly || !seat || g.view.busy || g.confirming) return;
    if (owner(name) === seat) {
      if (g.picked?.from === name && how !== "key") return cancel();
      if (g.picked?.from === name) return;
      pick(seat, name);
      return;
    }
    const m = g.picked && entryTo(name);
    if (!m) {
      if (g.chosen) {
        g.chosen = null;
        paint();
      }
      return;
    }
    // On touch the first tap shows the path; the mouse saw it while hovering, the keys on
    // the cursor.
    if (how === "touch" && g.chosen !== name) {
      g.chosen = name;
      paint();
      return;
    }
    move(seat, m);
  }

  function move(seat, m) {
    if (m.loses) return confirmLoss(seat, m);
    commit(seat, m);
  }

  async function commit(seat, m) {
    const picked = g.picked;
    const ok = await ctx.play(seat, m.move);
    if (ok && g.picked === picked) cancel();
  }

  function confirmLoss(seat, m) {
    g.confirming = m;
    const b = g.state.board;
    const close = () => {
      g.confirming = null;
      if (dialog.open) dialog.close();
    };
    dialog.onclose = () => { g.confirming = null; };
    dialog.replaceChildren(
      h("h2", { id: "cn-confirm-title" }, "Back into your own home?"),
      h("p", { "data-testid": "home-return-text" },
        `${m.move} brings a piece back into your own home after the home deadline (move ${b.home_deadline}): `
        + "you lose the game."),
      h("div.controls", {},
        h("button.btn", { type: "button", "data-testid": "home-return-cancel", onclick: close }, "Don't move"),
        h("button.btn.danger", { type: "button", "data-testid": "home-return-play",
          onclick: () => { close(); commit(seat, m); } }, "Move and lose")));
    dialog.showModal();
  }

  // ---- touch and mouse ----------------------------------------------------------------
  let pointerKind = "mouse";
  const squareAt = (e) => e.target.closest?.(".cn-cell")?.dataset.square || null;
  if (!ctx.readOnly) {
    grid.addEventListener("pointerdown", (e) => { pointerKind = e.pointerType === "mouse" ? "mouse" : "touch"; });
    grid.addEventListener("click", (e) => {
      const name = squareAt(e);
      if (name) activate(name, pointerKind);
    });
    grid.addEventListener("pointermove", (e) => {
      if (e.pointerType !== "mouse") return;
      const name = squareAt(e);
      const over = name && entryTo(name) ? name : null;
      if (over !== g.hover) {
        g.hover = over;
        paint();
      }
    });
    grid.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "mouse" && g.hover) {
        g.hover = null;
        paint();
      }
    });
    grid.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  // ---- keyboard: arrows choose a square, Enter picks or moves, Esc cancels --------------
  function firstCursor() {
    if (g.picked) return g.picked.from;
    const seat = g.view.active;
    const mine = [...g.cells.entries()].filter(([name]) => owner(name) === seat);
    // The piece nearest the middle of the board as seen.
    mine.sort((a, b) => dist(a[1]) - dist(b[1]));
    return mine[0]?.[0] || g.cells.keys().next().value;
  }
  const dist = (c) => Math.abs(c.row - (g.n - 1) / 2) + Math.abs(c.col - (g.n - 1) / 2);

  function nudge(dr, dc) {
    if (!g.cursor) g.cursor = firstCursor();
    else {
      const [r, c] = screenOf(g.cells.get(g.cursor));
      const nr = Math.max(0, Math.min(g.n - 1, r + dr));
      const nc = Math.max(0, Math.min(g.n - 1, c + dc));
      const [row, col] = g.turned ? [g.n - 1 - nr, g.n - 1 - nc] : [nr, nc];
      g.cursor = `${COLUMNS[col]}${g.n - row}`;
    }
    g.chosen = null;
    paint();
    const m = entryTo(g.cursor);
    const v = owner(g.cursor);
    say(`${g.cursor}: ${v ? `${colourOf(v)} piece` : "empty"}${m ? `, ${m.move}${m.loses ? " (loses)" : ""}` : ""}`);
  }

  function onKey(e) {
    if (ctx.readOnly) return false;
    if (g.confirming) return true; // the dialog has the keys (Esc closes it)
    const seat = g.view.active;
    const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (arrows[e.key]) {
      if (!seat) return false;
      e.preventDefault();
      nudge(...arrows[e.key]);
      return true;
    }
    if (e.key === "Enter") {
      if (!seat) return false;
      e.preventDefault();
      if (!g.cursor) {
        g.cursor = firstCursor();
        paint();
        return true;
      }
      activate(g.cursor, "key");
      return true;
    }
    if (e.key === "Escape") {
      if (!g.picked && !g.cursor) return false;
      if (g.picked) cancel();
      else {
        g.cursor = null;
        paint();
      }
      return true;
    }
    return false;
  }

  // ---- the rest of the interface ------------------------------------------------------
  /** Under a seat's card: its pieces in the target and still at home. */
  function seatDetail(seat) {
    const v = seat.view || {};
    const homes = g.state?.board.homes || {};
    const of = (homes[String(seat.seat)] || []).length || "?";
    return h("div.cn-detail", { "data-testid": `corners-detail-${seat.seat}` },
      `In the target ${v.pieces_in_target ?? 0}/${of} · at home ${v.pieces_home ?? 0}`);
  }

  /** A replay's move line in the table's notation: "12. c3-e3-e5", "12... f6-e6". */
  const describeMove = (frame) => frame.details?.notation || frame.move;

  /** The replay lists moves in pairs: the move's number and its path. */
  const numberMove = (frame) => (frame.details?.number ? { number: frame.details.number, text: frame.move } : null);

  /** The host's hint (a move's path): its piece picked and the path shown on its target. */
  function showHint(text) {
    const seat = g.view.active;
    const path = String(text).split("-");
    if (!seat || path.length < 2 || owner(path[0]) !== seat) return false;
    const to = path.at(-1);
    pick(seat, path[0]).then(() => {
      if (g.picked?.from === path[0] && entryTo(to)) {
        g.chosen = to;
        g.cursor = to;
        paint();
      }
    });
    say(`Hint: ${text}`);
    return true;
  }

  return {
    render,
    seatDetail,
    describeMove,
    numberMove,
    showHint,
    onKey,
    destroy() {
      stopTicker();
      hint.remove();
      dialog.remove();
      ctx.el.replaceChildren();
    },
  };
}
