// Corner Claim's board module (served as /boards/cornerclaim.js; the interface is in
// docs/ui.md): the board grid, the tray of pieces, the piece in hand (lift, turn, flip, drag by
// touch or mouse, arrows), its preview, and the remaining pieces in each seat's card.
//
// It holds no rules. For the seat to move it asks the host, through the shell's `host.legal`,
// for the legal placements of a piece when that piece is first lifted (cached until the host's
// seq changes) and, while dragging, only looks the cells under the piece up in that list. A
// placement goes to the shell's `play(seat, moveText)`; a refusal is shown in the host's words.
// The piece shapes are this module's own knowledge (no endpoint gives them): ./cornerclaim/shapes.js.

import { h, title } from "/js/dom.js";
import { Board } from "/js/boards/cornerclaim/grid.js";
import { installStyle } from "/js/boards/cornerclaim/style.js";
import { spectatorView } from "/js/boards/watch.js";
import { LegalPlacements } from "/js/boards/cornerclaim/legal.js";
import { PIECES, PIECE_NAMES, rotate, flip, normalise, canRotate, canFlip, cellsKey, anchorOf,
  parseCell, cellName, shapeSvg } from "/js/boards/cornerclaim/shapes.js";

export const thumbnail /* the lobby's picture: its own module */ = async () => (await import("/js/boards/cornerclaim/thumb.js")).thumbnail();
/** The seat colours as the shell shows them: chip fill, text on it, the chip's letter. */
export const palette = {
  blue: { fill: "#2f6fde", ink: "#fff", mark: "B" },
  yellow: { fill: "#e0b400", ink: "#111", mark: "Y" },
  red: { fill: "#d63c3c", ink: "#fff", mark: "R" },
  green: { fill: "#2e9e4f", ink: "#fff", mark: "G" },
};

installStyle();

const perf = (window.ccPerf = window.ccPerf || { work: [], drag: [], frame: [] });

/** A seat's remaining pieces under its card: 8-px squares, 15-px once tapped (`big`). */
function miniPieces(seat, names, big, onToggle) {
  const who = title(seat.colour);
  const el = h(`button.mini${big ? ".big" : ""}`, { type: "button", "data-testid": `pieces-${seat.seat}`,
    "aria-expanded": String(big), "aria-label": names.length
      ? `${who}'s ${names.length} pieces left: ${names.join(", ")}. Tap to ${big ? "shrink" : "enlarge"}.`
      : `${who} has placed every piece.`,
    onclick: () => {
      const now = el.classList.toggle("big");
      el.setAttribute("aria-expanded", String(now));
      onToggle(now);
    } },
  names.length ? names.map((p) => {
    const svg = shapeSvg(PIECES[p], 8, "mini-piece");
    svg.style.setProperty("--w", svg.getAttribute("width") / 8);
    svg.style.setProperty("--hh", svg.getAttribute("height") / 8);
    svg.dataset.piece = p;
    return svg;
  }) : h("span.none", {}, "every piece placed"));
  return el;
}

/** A board under the contract (./contract.js); it asks `host.legal(seat, {piece})`.
 * @param {import("./contract.js").BoardContext} ctx @returns {import("./contract.js").Board} */
export function createBoard(ctx) {
  const g = {
    state: null,
    view: {},
    grid: null,
    legal: ctx.readOnly ? null : new LegalPlacements((seat, q) => ctx.host.legal(seat, q)),
    hand: null, // {seat, piece, cells, x, y}
    drag: null,
  };
  const say = (text) => ctx.say?.(text);
  const colourOf = (seat) => g.state?.seats[seat - 1]?.colour || "";
  const seatView = (seat) => g.state?.seats[seat - 1]?.view || {};

  // ---- the board's own controls (in the shell's side panel) ----------------------------
  const handInfo = h("p.sr-only", { "aria-live": "polite", "data-testid": "hand-info" });
  const btn = (id, label, aria, onclick, cls = "") =>
    h(`button.btn${cls}`, { type: "button", "data-testid": id, "aria-label": aria, onclick }, label);
  const key = (k) => h("kbd.key", { "aria-hidden": "true" }, k);
  const b = {
    rotate: btn("rotate", ["⟳ Turn", key("R")], "Turn the piece a quarter (R)", () => turnHand(rotate)),
    flip: btn("flip", ["⇋ Flip", key("F")], "Flip the piece over (F)", () => turnHand(flip)),
    place: btn("place", ["Place", key("Space")], "Place the piece here (Space)", () => place(), ".primary"),
  };
  const handControls = h("div.controls.hand-controls.idle", { role: "group", "aria-label": "Piece in hand",
    hidden: true }, b.rotate, b.flip, b.place);
  const tray = h("div.tray", { "data-testid": "tray", role: "group", "aria-label": "Your pieces", hidden: true });
  // The keys, shown where there is a keyboard and a mouse (app.css: .keys-only).
  const keysHelp = h("p.keys-help.keys-only", { "data-testid": "keys-help", hidden: true },
    "Keys: arrows move the piece · R turn · F flip · Space place · Esc put back");
  if (ctx.side) ctx.side.append(handInfo, handControls, tray, keysHelp);

  function render(state, view = spectatorView(state)) {
    const seqChanged = !g.state || state.seq !== g.state.seq;
    const size = state.board.size;
    if (!g.grid || g.grid.size !== size) {
      g.grid = new Board(size);
      g.grid.el.classList.add("cc-board");
      ctx.el.replaceChildren(g.grid.el);
      if (!ctx.readOnly) attachPointer(g.grid.el);
    }
    g.state = state;
    g.view = view;
    if (seqChanged && g.hand) {
      g.hand = null; // a new event: the piece goes back (the host's position moved on)
      g.drag = null;
    }
    const colours = Object.fromEntries(state.seats.map((s, i) => [i + 1, s.colour]));
    // Open corners of the seat whose tray is shown (or of the seat to move, for watchers).
    // A seat with no move left has no corner to build from: its dead corners are not drawn.
    const cornerSeat = view.shown || state.to_move;
    const live = cornerSeat && !view.finished && (ctx.live ?? !ctx.readOnly) && state.status !== "finished" && !state.result
      && !state.seats[cornerSeat - 1]?.out_of_moves;
    const corners = live ? seatView(cornerSeat).open_corners || [] : [];
    g.grid.el.className = `board cc-board${cornerSeat ? " c-" + colourOf(cornerSeat) : ""}`;
    g.grid.paint(state.board, { colours, corners, last: state.last_move?.move || null });
    g.grid.el.dataset.corners = String(corners.length);
    if (ctx.readOnly) return;
    renderTray();
    renderHand();
  }

  // Tray buttons are made once per seat shown and then updated in place, so keyboard focus
  // survives the host's pushes (presence, thinking) that re-render the screen.
  let trayFor = null;
  const trayButtons = new Map();
  function renderTray() {
    const v = g.view.shown;
    tray.hidden = !v || g.view.finished;
    keysHelp.hidden = tray.hidden;
    if (tray.hidden) return;
    const seat = g.state.seats[v - 1];
    if (trayFor !== v) {
      trayFor = v;
      trayButtons.clear();
      tray.replaceChildren(...PIECE_NAMES.map((p) => {
        const el = h("button.piece", { type: "button", "data-testid": `piece-${p}`, onclick: () => toggleLift(p) },
          shapeSvg(PIECES[p], 12));
        trayButtons.set(p, el);
        return el;
      }));
    }
    const left = new Set(seat.view?.pieces_left || []);
    tray.setAttribute("aria-label", `${title(seat.colour)}'s pieces`);
    tray.className = `tray c-${seat.colour}`;
    for (const [p, el] of trayButtons) {
      const held = g.hand?.piece === p;
      const n = PIECES[p].length;
      el.hidden = !left.has(p);
      el.disabled = v !== g.view.active;
      el.setAttribute("aria-pressed", String(held));
      el.setAttribute("aria-label", `${held ? "Put back" : "Pick up"} ${p}, ${n} square${n > 1 ? "s" : ""}`);
    }
  }

  // ---- the piece in hand --------------------------------------------------------------
  const handCells = () => g.hand.cells.map(([x, y]) => [x + g.hand.x, y + g.hand.y]);
  const legalEntry = (seat, piece) => g.legal.get(g.state.seq, seat, piece);

  function loadLegal(seat, piece) {
    g.legal.load(g.state.seq, seat, piece)
      .then((arrived) => arrived && g.hand?.piece === piece && renderHand())
      .catch((err) => say(err.message));
  }

  /** "legal", "illegal", or "pending" while the list is loading; never a rule of our own. */
  function verdict() {
    const cells = handCells();
    if (!cells.every(g.grid.inside)) return "illegal";
    const entry = legalEntry(g.hand.seat, g.hand.piece);
    if (!entry) return "pending";
    return entry.byKey.has(cellsKey(cells)) ? "legal" : "illegal";
  }

  /** A button that would not change the piece keeps its space but is not shown. */
  function offWhen(el, off) {
    if (off) el.dataset.off = "";
    else delete el.dataset.off;
    el.disabled = off;
  }

  function renderHand() {
    const hand = g.hand;
    // The row keeps its place while nothing is held (lifting a shape moves nothing).
    handControls.hidden = tray.hidden;
    handControls.classList.toggle("idle", !hand);
    offWhen(b.rotate, !hand || !canRotate(hand.piece));
    offWhen(b.flip, !hand || !canFlip(hand.piece));
    b.place.disabled = !hand || !!g.view.busy;
    if (!hand) {
      g.grid.setCover([]);
      g.grid.setPreview([], "none");
      g.grid.el.style.removeProperty("--h");
      handInfo.textContent = "";
      return;
    }
    g.grid.el.style.setProperty("--h", palette[colourOf(hand.seat)]?.fill || "#888");
    const entry = legalEntry(hand.seat, hand.piece);
    if (entry === undefined) loadLegal(hand.seat, hand.piece); // the seq moved on, still my turn
    g.grid.setCover(entry ? entry.cover : []);
    paintPreview();
  }

  function paintPreview() {
    const v = verdict();
    const cells = handCells();
    g.grid.setPreview(cells, v);
    const where = cells.filter(g.grid.inside).map(([x, y]) => cellName(x, y));
    handInfo.textContent = `${g.hand.piece} at ${where.join(" ") || "off the board"}: ${v === "legal" ? "fits" : v === "pending" ? "checking" : "does not fit"}`;
  }

  function toggleLift(piece) {
    const a = g.view.active;
    if (!a || !(seatView(a).pieces_left || []).includes(piece)) return;
    if (g.hand?.piece === piece) {
      g.hand = null;
      say("");
    } else {
      const cells = PIECES[piece].map((c) => [...c]);
      const corner = (seatView(a).open_corners || [])[0];
      const mid = Math.floor(g.state.board.size / 2);
      const at = corner ? parseCell(corner) : [mid, mid];
      const [ax, ay] = anchorOf(cells);
      g.hand = { seat: a, piece, cells, x: at[0] - ax, y: at[1] - ay };
      clampHand();
      loadLegal(a, piece);
      say("");
    }
    renderTray();
    renderHand();
  }

  function clampHand() {
    const n = g.state.board.size;
    const w = Math.max(...g.hand.cells.map((c) => c[0]));
    const hgt = Math.max(...g.hand.cells.map((c) => c[1]));
    g.hand.x = Math.max(0, Math.min(n - 1 - w, g.hand.x));
    g.hand.y = Math.max(0, Math.min(n - 1 - hgt, g.hand.y));
  }

  /** Turn or flip the piece in hand about the square nearest its middle. */
  function turnHand(fn) {
    if (!g.hand) return;
    const [ax, ay] = anchorOf(g.hand.cells);
    const cells = fn(g.hand.cells);
    const [bx, by] = anchorOf(cells);
    Object.assign(g.hand, { cells, x: g.hand.x + ax - bx, y: g.hand.y + ay - by });
    clampHand();
    paintPreview();
  }

  function nudge(dx, dy) {
    if (!g.hand) return;
    g.hand.x += dx;
    g.hand.y += dy;
    clampHand();
    paintPreview();
  }

  // ---- touch and mouse ----------------------------------------------------------------
  function attachPointer(el) {
    el.addEventListener("pointerdown", (e) => {
      if (!g.hand || g.view.busy || (e.pointerType === "mouse" && e.button !== 0)) return;
      e.preventDefault();
      const cell = g.grid.cellAt(e.clientX, e.clientY);
      const abs = handCells();
      const onPiece = abs.some(([x, y]) => x === cell[0] && y === cell[1]);
      // Grabbing the piece keeps its offset under the finger; touching elsewhere brings it.
      const grab = onPiece ? [cell[0] - g.hand.x, cell[1] - g.hand.y] : anchorOf(g.hand.cells);
      g.drag = { id: e.pointerId, grab, moved: false, start: cell, dragged: false };
      el.setPointerCapture?.(e.pointerId);
      moveTo(cell, e);
    });
    el.addEventListener("pointermove", (e) => {
      if (!g.drag || e.pointerId !== g.drag.id) return;
      e.preventDefault();
      const cell = g.grid.cellAt(e.clientX, e.clientY);
      if (cell[0] !== g.drag.start[0] || cell[1] !== g.drag.start[1]) g.drag.dragged = true;
      moveTo(cell, e);
    });
    const end = (e, cancelled) => {
      if (!g.drag || e.pointerId !== g.drag.id) return;
      const { dragged } = g.drag;
      g.drag = null;
      // A tap only brings the piece there (the player sees it lit or red first); lifting the
      // finger after a drag lays it.
      if (cancelled || !dragged) return;
      if (!g.grid.contains(e.clientX, e.clientY)) {
        clampHand();
        paintPreview();
        say("Still in your hand: drop it on the board, or tap it in the tray to put it back.");
        return;
      }
      place(); // lifting the finger lays the piece (or says why not)
    };
    el.addEventListener("pointerup", (e) => end(e, false));
    el.addEventListener("pointercancel", (e) => end(e, true));
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  function moveTo(cell, e) {
    if (!g.hand) return;
    const x = cell[0] - g.drag.grab[0];
    const y = cell[1] - g.drag.grab[1];
    if (x === g.hand.x && y === g.hand.y && g.drag.moved) return;
    const began = performance.now();
    g.drag.moved = true;
    g.hand.x = x;
    g.hand.y = y;
    paintPreview();
    // Feedback time (docs/performance.md): our work, input event to DOM, and to the next frame.
    const handled = performance.now();
    perf.work.push(handled - began);
    perf.drag.push(handled - e.timeStamp);
    requestAnimationFrame(() => perf.frame.push(performance.now() - e.timeStamp));
    if (perf.drag.length > 1000) for (const k of ["work", "drag", "frame"]) perf[k].splice(0, 500);
  }

  function place() {
    if (!g.hand || g.view.busy) return;
    const cells = handCells();
    if (!cells.every(g.grid.inside)) {
      say("That doesn't fit: part of the piece is off the board.");
      return;
    }
    const hand = g.hand;
    const entry = legalEntry(hand.seat, hand.piece);
    if (entry === null) {
      // The host's list is on its way: decide when it is here (what it rules out is not sent).
      const seq = g.state.seq;
      const at = cellsKey(cells);
      say("Checking with the host…");
      g.legal.settled(seq, hand.seat, hand.piece).then(() => {
        if (g.hand === hand && g.state.seq === seq && cellsKey(handCells()) === at && legalEntry(hand.seat, hand.piece)) {
          say("");
          place();
        }
      });
      return;
    }
    if (entry && !entry.byKey.has(cellsKey(cells))) {
      say(whyNot(hand.piece, cells, entry)); // the host's list has no such placement: not sent
      return;
    }
    // The host's own text for the placement if it listed it; else (no list: asking failed) the
    // cells, and the host says why not.
    const move = entry?.byKey.get(cellsKey(cells)) || cellsKey(cells);
    ctx.play(hand.seat, move).then((ok) => {
      if (ok && g.hand === hand) {
        g.hand = null;
        if (g.state) render(g.state, g.view);
      }
    });
  }

  /** Why a placement is not played, from the host's legal list of that piece (no rule of ours). */
  function whyNot(piece, cells, entry) {
    const n = entry.byKey.size;
    if (!n) return `${piece} fits nowhere now: the host lists no placement of it. Choose another piece.`;
    const where = cells.map(([x, y]) => cellName(x, y)).join(" ");
    return `${piece} does not fit on ${where}: it is not one of the ${n} placement${n === 1 ? "" : "s"} the host ` +
      "lists for it (the tinted squares). Turn, flip or move it.";
  }

  // ---- keyboard: the shell hands every key to the board first --------------------------
  function onKey(e) {
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (!g.hand) return false;
    if (moves[key]) {
      e.preventDefault();
      nudge(...moves[key]);
    } else if (key === "r") turnHand(rotate);
    else if (key === "f") turnHand(flip);
    else if (key === " ") {
      e.preventDefault();
      place();
    } else if (key === "Escape") toggleLift(g.hand.piece);
    else return false;
    return true;
  }

  /** The pieces a seat has left, under its card (not for the seat whose tray is shown);
   * a tap enlarges them, and they stay enlarged through the host's pushes. */
  const enlarged = new Set();
  function seatDetail(seat, view = {}) {
    if (seat.seat === view.shown) return null;
    return miniPieces(seat, seat.view?.pieces_left || [], enlarged.has(seat.seat),
      (big) => (big ? enlarged.add(seat.seat) : enlarged.delete(seat.seat)));
  }

  /** Show the host's hint (a placement's move text): the piece of the seat's pieces left that
   * covers those cells, lifted and laid over them (still to be placed). False if no piece
   * of ours has that shape (the shell then shows the text). */
  function showHint(move) {
    const a = g.view.active;
    const cells = move.split(",").map(parseCell);
    if (!a || cells.some((c) => !c)) return false;
    const want = JSON.stringify(normalise(cells));
    for (const p of seatView(a).pieces_left || []) {
      if (PIECES[p].length !== cells.length) continue;
      let shape = normalise(PIECES[p]);
      for (let i = 0; i < 8; i++) {
        if (JSON.stringify(shape) === want) {
          g.hand = { seat: a, piece: p, cells: shape, x: Math.min(...cells.map((c) => c[0])),
            y: Math.min(...cells.map((c) => c[1])) };
          loadLegal(a, p);
          renderTray();
          renderHand();
          say(`Hint: ${p} at ${move}`);
          return true;
        }
        shape = i === 3 ? flip(shape) : rotate(shape);
      }
    }
    return false;
  }

  /** Draw `seat`'s placement `move` (its squares, "e9,e10,…") over the position rendered: a
   * ghost piece in the seat's colour (the replay's better move); render() clears it. */
  function previewMove(move, seat) {
    const cells = String(move || "").split(",").map(parseCell);
    if (!g.grid || !cells.length || cells.some((c) => !c)) return false;
    g.grid.el.style.setProperty("--h", palette[colourOf(seat)]?.fill || "#888");
    g.grid.setPreview(cells, "better");
    return true;
  }

  /** A replay's move line: the piece and its squares. */
  const describeMove = (frame) => (frame.details?.piece ? `${frame.details.piece} ${frame.move}` : frame.move);

  return {
    render,
    seatDetail,
    describeMove,
    showHint,
    previewMove,
    onKey,
    destroy() {
      handInfo.remove();
      handControls.remove();
      tray.remove();
      keysHelp.remove();
      ctx.el.replaceChildren();
    },
  };
}
