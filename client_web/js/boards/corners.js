// Corners' board module (served as /boards/corners.js; the interface is in docs/ui.md): the
// board of the state's size (8×8, or 16×16 with a zoom where its squares are small), the move
// number / home deadline / game limit and both clocks above it, the move list under it (live
// tables), the piece picked and where it can go, the path of a move, the last move, the
// home-return warning.
//
// It holds no rules. Picking one of your pieces asks the host, through the shell's
// `host.legal(seat, {from: square})`, where that piece can go (each entry: the move's full
// path "c3-e3-e5", `from`, `to`, and `loses` when it returns a piece home after the deadline);
// the board lights the `to` squares and draws an entry's path. A move is two taps (the piece,
// then a lit square) or a drag of the piece onto a lit square.

import { h, title } from "/js/dom.js";
import { createClocks, clockText } from "/js/boards/corners/clocks.js";
import { boardKeys } from "/js/boards/corners/keys.js";
import { infoBits, seatDetailOf } from "/js/boards/corners/info.js";
import { createMoveList } from "/js/boards/corners/movelist.js";
import { createPaths } from "/js/boards/corners/paths.js";
import { watchPointer } from "/js/boards/corners/pointer.js";
import { installStyle } from "/js/boards/corners/style.js";
import { createZoom } from "/js/boards/corners/zoom.js";
import { spectatorView } from "/js/boards/watch.js";

export { clockText };
export const setupOf /* replay's "Set up from here": loaded when asked */ = async (f) => (await import("/js/boards/corners/setup.js")).setupOf(f);
export const thumbnail /* the lobby's picture: its own module */ = async () => (await import("/js/boards/corners/thumb.js")).thumbnail();
export const editSetup /* loaded when it opens, not with a table */ = async (ctx) => (await import("/js/boards/corners/editor.js")).editSetup(ctx);

/** The seat colours as the shell shows them: chip fill, text on it, the chip's sign. */
export const palette = {
  white: { fill: "#f4f1e8", ink: "#111", mark: "○" },
  black: { fill: "#141414", ink: "#fff", mark: "●" },
};

const COLUMNS = "abcdefghijklmnop";
installStyle();

/** A board under the contract (./contract.js); it asks `host.legal(seat, {from})`.
 * @param {import("./contract.js").BoardContext} ctx @returns {import("./contract.js").Board} */
export function createBoard(ctx) {
  const live = ctx.live ?? !ctx.readOnly; // a table's states, not a replay's frames
  const g = {
    state: null,
    view: {},
    n: 0,
    cells: new Map(), // square name -> {row, col, el}
    turned: false, // black's home at the bottom
    perspective: null, // the seat whose side of the board is at the bottom
    picked: null, // {seat, from, seq, moves: null while asked | [entries], ready: Promise}
    chosen: null, // a target whose path stays shown (the host's hint, a move waiting for a yes)
    pressed: null, // the target under a finger (or a held mouse button): its path is shown
    hover: null, // the square under the mouse (its path shows if it is a target)
    cursor: null, // the keyboard's square
    confirming: null,
    mouse: false, // the last pointer was a mouse: the hints say "click"
  };
  const say = (text) => ctx.say?.(text);
  // ---- layout -------------------------------------------------------------------------
  const info = h("div.cn-info", { "data-testid": "corners-info" });
  const colourOf = (seat) => g.state?.seats?.[seat - 1]?.colour || ["white", "black"][seat - 1] || "";
  const nameOfSeat = (seat) => title(colourOf(seat));
  const clocks = createClocks({ readOnly: !live, colourOf, nameOf: nameOfSeat,
    mark: (colour) => palette[colour]?.mark || "" });
  const grid = h("div.cn-board.board", { "data-testid": "board", role: "grid", "aria-label": "Board" });
  const paths = createPaths();
  const ghost = h("div.cn-ghost", { "data-testid": "drag-piece", hidden: true });
  const frame = h("div.cn-frame", {}, grid, paths.el, ghost);
  const view = h("div.cn-view", { "data-testid": "board-view" }, frame);
  const zoom = createZoom(view, () => paint());
  const moveList = live ? createMoveList() : null;
  const hint = h("p.cn-hint", { "data-testid": "move-hint", "aria-live": "polite" });
  const root = h("div.cn", {}, info, clocks.el, view, moveList?.el);
  ctx.el.replaceChildren(root);
  if (ctx.side) ctx.side.prepend(hint);
  let confirm = null; // the question before a losing move (js/boards/corners/confirm.js)

  function build(n) {
    g.n = n;
    g.cells.clear();
    grid.style.setProperty("--n", n);
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
    zoom.size(n);
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

  function render(state, view = spectatorView(state)) {
    const seqChanged = !g.state || state.seq !== g.state.seq;
    const n = state.board.size || state.board.rows.length;
    if (g.n !== n) build(n);
    else zoom.fit();
    g.state = state;
    g.view = view;
    g.preview = null;
    if (view.shown) g.perspective = view.shown;
    orient(!ctx.readOnly && g.perspective === 2);
    if (seqChanged || !view.active || (g.picked && g.picked.seat !== view.active)) putDown();
    // Nothing of a turn stays once it is not this phone's: no cursor or hint ring (the end).
    if (!view.active) g.cursor = null;
    clocks.set(state, g.turned, view.active);
    moveList?.render(state.board.moves || [], state.board.first_ply || 0, !!state.board.solo);
    paint();
  }

  function putDown() {
    g.picked = null;
    g.chosen = null;
    g.pressed = null;
    g.hover = null;
    ghost.hidden = true;
  }

  const targets = () => g.picked?.moves || [];
  const toOf = (m) => m.to || m.move.split("-").at(-1);
  const fromOf = (m) => m.from || m.move.split("-")[0];
  const entryTo = (name) => (name ? targets().find((m) => toOf(m) === name) : undefined);

  function paint() {
    const s = g.state;
    if (!s) return;
    const b = s.board;
    const homes = [new Set(b.homes?.["1"] || []), new Set(b.homes?.["2"] || [])];
    const lastPath = (b.last_move || s.last_move?.move || "").split("-").filter(Boolean);
    const lit = new Map(targets().map((m) => [toOf(m), m]));
    const shown = shownEntry();
    const lifted = !ghost.hidden && g.picked?.from;
    for (const [name, c] of g.cells) {
      const v = Number(b.rows[c.row][c.col]);
      // Zoomed, every square shows its name (the edges' coordinates may be out of view).
      const parts = zoom.on() ? [h("span.cn-coord.name", {}, name)] : [...(c.coords || [])];
      if (v) parts.push(h(`span.cn-piece.${v === 1 ? "w" : "b"}`));
      c.el.replaceChildren(...parts);
      const m = lit.get(name);
      const cls = c.el.classList;
      cls.toggle("home1", homes[0].has(name));
      cls.toggle("home2", homes[1].has(name));
      cls.toggle("b-piece", v === 2);
      cls.toggle("from", g.picked?.from === name);
      cls.toggle("lifted", lifted === name);
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
    grid.dataset.active = String(!ctx.readOnly && !!g.view.active);
    grid.dataset.picked = g.picked?.from || "";
    grid.dataset.cursor = g.cursor || "";
    grid.dataset.targets = [...lit.keys()].sort().join(" ");
    grid.setAttribute("aria-label", `Board, ${g.turned ? "black" : "white"} side at the bottom`);
    paths.draw(g.n, centre, lastPath, g.preview ? { move: g.preview } : shown);
    grid.dataset.preview = g.preview || "";
    paintInfo();
    paintHint(shown);
    if (g.cursor !== g.revealed) zoom.reveal(g.cells.get((g.revealed = g.cursor))?.el);
  }

  /** The legal entry whose path is shown: under the finger, chosen, hovered or the cursor's. */
  function shownEntry() {
    for (const name of [g.pressed, g.chosen, g.hover, g.cursor]) {
      const m = entryTo(name);
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

  function paintInfo() {
    info.replaceChildren(...infoBits(g.state.board, nameOfSeat), zoom.el);
  }

  function paintHint(shown) {
    if (ctx.readOnly) return;
    const p = g.picked;
    let text = "";
    if (!g.view.active) text = "";
    else if (!p) text = `${g.mouse ? "Click" : "Tap"} one of your pieces, or drag it.`;
    else if (!p.moves) text = `${p.from}: asking the host…`;
    else if (!p.moves.length) text = `The piece on ${p.from} cannot move.`;
    else if (shown?.loses) text = `${shown.move} brings a piece back home and loses.`;
    else if (shown && g.pressed) text = `${shown.move}: let go to move.`;
    else if (shown) text = `${shown.move}: ${g.mouse ? "click" : "tap"} ${toOf(shown)} to move.`;
    else text = `${p.from}: ${g.mouse ? "click" : "tap"} a lit square (${p.moves.length}).`;
    hint.textContent = text;
  }

  // ---- picking and moving ---------------------------------------------------------------
  function pick(seat, from) {
    const seq = g.state.seq;
    const picked = { seat, from, seq, moves: null };
    g.picked = picked;
    g.chosen = null;
    g.hover = null;
    paint();
    picked.ready = (async () => {
      try {
        const answer = await ctx.host.legal(seat, { from });
        if (g.picked !== picked || g.state.seq !== seq) return;
        picked.moves = (answer.moves || []).filter((m) => fromOf(m) === from);
      } catch (err) {
        if (g.picked === picked) g.picked = null;
        say(err.message);
      }
      paint();
    })();
    return picked.ready;
  }

  function cancel() {
    putDown();
    paint();
  }

  const canAct = () => !ctx.readOnly && g.view.active && !g.view.busy && !g.confirming;

  /** Enter on the cursor's square, or an activation without a pointer (assistive technology). */
  function activate(name) {
    const seat = g.view.active;
    if (!canAct()) return;
    if (owner(name) === seat) {
      if (g.picked?.from !== name) pick(seat, name);
      return;
    }
    const m = entryTo(name);
    if (m) move(seat, m);
    else if (g.chosen) {
      g.chosen = null;
      paint();
    }
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

  async function confirmLoss(seat, m) {
    g.confirming = m;
    g.chosen = toOf(m); // its path stays drawn while the table asks
    paint();
    confirm ??= (await import("/js/boards/corners/confirm.js")).createConfirm(); // asked rarely: loaded then
    confirm.ask(m.move, g.state.board.home_deadline, () => commit(seat, m), () => {
      g.confirming = null;
      if (g.chosen === toOf(m)) g.chosen = null;
      paint();
    });
  }

  // ---- touch and mouse: tap the piece, then a lit square; or drag the piece onto it --------
  // A press on a lit square draws its path while the finger (or button) is down, and the
  // release on a lit square plays that one; sliding off the board and letting go plays nothing.
  function showGhost(x, y) {
    const c = g.picked && g.cells.get(g.picked.from);
    if (!c) return;
    const box = frame.getBoundingClientRect();
    const size = box.width / g.n;
    if (ghost.hidden) {
      ghost.replaceChildren(h(`span.cn-piece.${owner(g.picked.from) === 1 ? "w" : "b"}`));
      ghost.hidden = false;
      paint();
    }
    Object.assign(ghost.style, { width: `${size}px`, height: `${size}px`, left: `${x - box.left}px`,
      top: `${y - box.top}px` });
  }

  function dropGhost() {
    if (ghost.hidden) return;
    ghost.hidden = true;
    paint();
  }

  const stopPointer = ctx.readOnly ? () => {} : watchPointer(grid, {
    press(square, p) {
      g.mouse = p.kind === "mouse";
      if (!canAct()) return;
      const seat = g.view.active;
      if (owner(square) === seat) {
        p.piece = square;
        p.wasPicked = g.picked?.from === square;
        if (!p.wasPicked) pick(seat, square);
        return;
      }
      if (entryTo(square)) {
        p.target = true;
        g.pressed = square;
        paint();
        return;
      }
      p.elsewhere = true;
    },
    slide(square, p) {
      if (!p.target && !(p.piece && p.dragging)) return;
      const over = entryTo(square) ? square : null;
      if (over !== g.pressed) {
        g.pressed = over;
        paint();
      }
    },
    drag(x, y, p) {
      if (p.piece && g.picked?.from === p.piece) showGhost(x, y);
    },
    async release(square, p) {
      g.pressed = null;
      dropGhost();
      const seat = g.view.active;
      if (!canAct()) return paint();
      if (p.piece && p.dragging && square && square !== p.piece) {
        const picked = g.picked;
        await picked?.ready; // a quick drag may land before the host has answered
        const m = g.picked === picked && entryTo(square);
        if (m && canAct()) return move(seat, m);
      } else if (p.piece && !p.dragging && p.wasPicked && square === p.piece) {
        return cancel(); // a tap on the picked piece puts it down
      } else if (p.target) {
        const m = entryTo(square);
        if (m) return move(seat, m);
      } else if (p.elsewhere && g.picked && square === p.square) {
        return cancel(); // a tap elsewhere puts it down
      }
      paint();
    },
    abort() {
      g.pressed = null;
      dropGhost();
      paint();
    },
    hover(square) {
      g.mouse = true;
      if (square !== g.hover) {
        g.hover = square;
        paint();
      }
    },
  });
  // A click with no pointer behind it (detail 0: assistive technology) acts as Enter would.
  grid.addEventListener("click", (e) => {
    const name = e.detail === 0 && e.target.closest?.(".cn-cell")?.dataset.square;
    if (name) activate(name);
  });

  const onKey = boardKeys({ g, readOnly: ctx.readOnly, owner, screenOf, entryTo, colourOf, activate, cancel,
    paint, say });

  // ---- the rest of the interface ------------------------------------------------------
  const seatDetail = (seat) => seatDetailOf(seat, g.state?.board);

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
        g.cursor = to; // Enter plays it
        paint();
      }
    });
    say(`Hint: ${text}`);
    return true;
  }

  /** Draw a move's path ("c3-e3-e5") over the position rendered; render() clears it. */
  function previewMove(text) {
    const path = String(text || "").split("-");
    if (path.length < 2 || path.some((sq) => !g.cells.has(sq))) return false;
    g.preview = path.join("-");
    paint();
    return true;
  }

  return {
    render,
    previewMove,
    // The words of its actions' buttons (the shell's): resigning is asked first.
    actions: { resign: { confirm: "The other side wins this game.", danger: true } },
    seatDetail,
    describeMove,
    numberMove,
    showHint,
    onKey,
    destroy() {
      clocks.stop();
      zoom.destroy();
      stopPointer();
      hint.remove();
      confirm?.remove();
      ctx.el.replaceChildren();
    },
  };
}
