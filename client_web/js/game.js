// The game screen: board, tray, seats, and the controls of the piece in hand.
//
// The client holds no rules. For the seat to move it asks the host for the legal placements
// of a piece when that piece is first lifted (cached until the host's seq changes) and, while
// dragging, only looks the cells under the piece up in that list. Moves go to the host with
// the seq they were made on; a refusal is shown in the host's own words.

import { api, memory, HostError } from "./api.js";
import { Board } from "./board.js";
import { h, title } from "./dom.js";
import { LegalPlacements } from "./legal.js";
import { follow, unfollow } from "./net.js";
import { seatCards, gameOverCard, seatName } from "./seats.js";
import { PIECES, PIECE_NAMES, rotate, flip, canRotate, canFlip, cellsKey, anchorOf,
  parseCell, cellName, shapeSvg } from "./shapes.js";
import { keepAwake } from "./wake.js";

const perf = (window.ccPerf = window.ccPerf || { work: [], drag: [], frame: [] });

export function mountGame(root, gameId, { watch = false } = {}) {
  const g = {
    id: gameId,
    watch,
    state: null,
    board: null,
    tokens: memory.tokens(gameId), // {seat: token}
    thinking: {},
    legal: new LegalPlacements(gameId),
    hand: null, // {seat, piece, cells, x, y}
    drag: null,
    busy: false,
    lastActive: null,
  };

  // ---- layout -------------------------------------------------------------------------
  const turn = h("div.turn", { "data-testid": "turn", role: "status", "aria-live": "polite" }, "Connecting…");
  const message = h("p.message", { "data-testid": "message", role: "alert" });
  const boardWrap = h("div.board-wrap");
  const handInfo = h("p.sr-only", { "aria-live": "polite", "data-testid": "hand-info" });
  const btn = (id, label, aria, onclick, cls = "") =>
    h(`button.btn${cls}`, { type: "button", "data-testid": id, "aria-label": aria, onclick }, label);
  const b = {
    rotate: btn("rotate", "⟳ Turn", "Turn the piece a quarter (R)", () => turnHand(rotate)),
    flip: btn("flip", "⇋ Flip", "Flip the piece over (F)", () => turnHand(flip)),
    place: btn("place", "Place", "Place the piece here (Space)", () => place(), ".primary"),
    pass: btn("pass", "Pass", "Pass: only when nothing you hold fits", () => pass()),
    undo: btn("undo", "↶ Undo", "Take back your last move (Z)", () => undo()),
    leave: btn("leave", "Leave", "Leave this game", () => askLeave(), ".danger"),
  };
  const handControls = h("div.controls.hand-controls", { role: "group", "aria-label": "Piece in hand" },
    b.rotate, b.flip, b.place);
  const turnControls = h("div.controls", { role: "group", "aria-label": "Turn" }, b.pass, b.undo, b.leave);
  const tray = h("div.tray", { "data-testid": "tray", role: "group", "aria-label": "Your pieces" });
  const seatsBox = h("div.seats", { "data-testid": "seats" });
  const panel = h("div.panel"); // claim, undo request, game over
  const dialog = h("dialog.confirm", { "data-testid": "leave-dialog", "aria-labelledby": "leave-title" });
  const screen = h("div.game", { "data-testid": "game" },
    h("header.bar.game-bar", {}, h("a.btn.small", { href: "#/", "aria-label": "Back to the lobby" }, "←"), turn,
      h("a.btn.small", { href: `#/invite/${gameId}`, "aria-label": "Invite to this game" }, "Invite")),
    h("div.play", {}, boardWrap,
      h("div.side", {}, message, handInfo, handControls, tray, turnControls, panel, seatsBox)),
    dialog);
  root.append(screen);

  // ---- who am I -----------------------------------------------------------------------
  const seatsOf = () => (g.state ? g.state.seats : []);
  const colourOf = (seat) => seatsOf()[seat - 1]?.colour || "blue";
  const colours = () => Object.fromEntries(seatsOf().map((s) => [s.seat, s.colour]));
  const mySeats = () => seatsOf().filter((s) => g.tokens[s.seat] && !s.left).map((s) => s.seat);
  const isHotSeat = () => mySeats().length > 1;
  const finished = () => g.state?.status === "finished" || !!g.state?.result;
  const activeSeat = () => {
    const s = g.state;
    return s && !finished() && s.status === "running" && mySeats().includes(s.to_move) ? s.to_move : null;
  };
  const viewSeat = () => {
    const mine = mySeats();
    const a = activeSeat();
    if (a) return a;
    if (mine.includes(g.lastActive)) return g.lastActive;
    return mine[0] || null;
  };
  const nameOf = (seat) => seatName(seatsOf()[seat - 1]);
  const say = (text) => { message.textContent = text || ""; };

  // ---- state from the host ------------------------------------------------------------
  function applyState(s) {
    if (!s || s.id !== gameId) return;
    if (g.state && s.seq < g.state.seq) return; // an older picture than the one shown
    const seqChanged = !g.state || s.seq !== g.state.seq;
    const sizeChanged = !g.state || s.size !== g.state.size;
    g.state = s;
    if (seqChanged) {
      const a = activeSeat();
      if (g.hand && (g.hand.seat !== a || !s.seats[a - 1].pieces_left.includes(g.hand.piece))) {
        g.hand = null;
        g.drag = null;
      }
      if (!g.hand) say("");
    }
    if (sizeChanged) {
      g.board = new Board(s.size);
      boardWrap.replaceChildren(g.board.el);
      attachPointer(g.board.el);
    }
    if (activeSeat()) g.lastActive = activeSeat();
    render();
  }

  // Seat changes (claims, presence) keep the same seq, so a GET answer that set out before a
  // pushed state arrived may be older than it: such an answer is dropped.
  let pushes = 0;
  const pushed = (s) => {
    pushes += 1;
    applyState(s);
  };

  async function fetchState() {
    const mark = pushes;
    try {
      const s = await api("GET", `/games/${gameId}`);
      if (mark !== pushes && g.state && s.seq <= g.state.seq) return;
      applyState(s);
    } catch (err) {
      if (err.status === 404) {
        turn.textContent = "No such game on this host.";
        say(err.message);
      } else say(err.message);
    }
  }

  // ---- rendering ----------------------------------------------------------------------
  function render() {
    const s = g.state;
    if (!s) return;
    const a = activeSeat();
    const v = viewSeat();
    const col = colours();
    document.body.dataset.turn = s.to_move ? col[s.to_move] : "";
    screen.dataset.hotseat = String(isHotSeat());
    // Open corners of the seat whose tray is shown (or of the seat to move, for watchers).
    const cornerSeat = v || s.to_move;
    const corners = cornerSeat ? s.seats[cornerSeat - 1].open_corners || [] : [];
    g.board.paint(s, { colours: col, corners, cornerColour: cornerSeat ? col[cornerSeat] : null });
    turn.textContent = turnText();
    turn.className = `turn ${s.to_move && !finished() ? "t-" + col[s.to_move] : ""}`;
    renderTray(v, a);
    renderSeats(v);
    renderPanel();
    renderHand();
    const playing = !!a;
    const spectator = mySeats().length === 0;
    turnControls.hidden = spectator || finished();
    b.pass.disabled = !playing || s.seats[a - 1].can_move;
    b.undo.disabled = spectator || !s.last_move || g.busy;
    b.leave.disabled = spectator;
  }

  function turnText() {
    const s = g.state;
    if (finished()) {
      const w = s.result?.winners || [];
      if (w.length === 1) return `Game over — ${nameOf(w[0])} wins`;
      if (w.length > 1) return `Game over — draw between ${w.map(nameOf).join(" and ")}`;
      return "Game over";
    }
    if (s.closed) return "The host closed this game";
    if (s.status === "open") {
      const open = s.seats.filter((x) => !x.claimed).length;
      return `Waiting for ${open} more player${open === 1 ? "" : "s"}`;
    }
    const who = title(colourOf(s.to_move));
    if (activeSeat()) return isHotSeat() ? `${who}'s turn — pass the phone` : `Your turn (${who})`;
    if (g.thinking[s.to_move]) return `${who}'s turn — computer is thinking…`;
    const seat = s.seats[s.to_move - 1];
    return `${who}'s turn${seat?.away ? " (away)" : ""}`;
  }

  // Tray buttons are made once per seat shown and then updated in place, so keyboard focus
  // survives the host's pushes (presence, thinking) that re-render the screen.
  let trayFor = null;
  const trayButtons = new Map();
  function renderTray(v, a) {
    tray.hidden = !v || finished();
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
    const left = new Set(seat.pieces_left);
    tray.setAttribute("aria-label", `${title(seat.colour)}'s pieces`);
    tray.className = `tray c-${seat.colour}`;
    for (const [p, el] of trayButtons) {
      const held = g.hand?.piece === p;
      const n = PIECES[p].length;
      el.hidden = !left.has(p);
      el.disabled = v !== a;
      el.setAttribute("aria-pressed", String(held));
      el.setAttribute("aria-label", `${held ? "Put back" : "Pick up"} ${p}, ${n} square${n > 1 ? "s" : ""}`);
    }
  }

  function renderSeats(v) {
    seatsBox.replaceChildren(...seatCards(g.state, { tokens: g.tokens, thinking: g.thinking, viewSeat: finished() ? null : v,
      finished: finished(), canDeclare: mySeats().length > 0 || !!memory.hostToken(gameId), onDeclareLeft: declareLeft }));
  }

  let panelKey = "";
  function renderPanel() {
    const s = g.state;
    const parts = [];
    const mine = mySeats();
    // Rebuilt only when what it shows changes, so a half-typed name is not wiped by a push.
    const key = JSON.stringify([g.watch, mine, s.seats.map((x) => [x.claimed, x.left, x.kind]), s.undo_request,
      s.status, s.result, s.rematch_id]);
    if (key === panelKey) return;
    panelKey = key;
    // Claim a seat: a name, remembered on this phone.
    const open = s.seats.filter((x) => x.kind === "open" && !x.claimed && !x.left);
    if (!g.watch && !mine.length && open.length && !finished()) {
      const name = h("input", { type: "text", maxlength: 24, value: memory.name, placeholder: "Your name",
        "data-testid": "claim-name", "aria-label": "Your name", autocomplete: "nickname" });
      parts.push(h("section.card.claim", { "data-testid": "claim" }, h("h2", {}, "Take a seat"),
        h("label.field", {}, "Name ", name),
        h("div.controls", {}, open.map((x) => h(`button.btn.primary.c-${x.colour}`, { type: "button",
          "data-testid": `claim-${x.seat}`, onclick: () => claim(x.seat, name.value) }, `Play ${title(x.colour)}`))),
        h("a.btn", { href: `#/game/${gameId}/watch` }, "Just watch")));
    }
    // A takeback asked by another player: this phone answers for its seats.
    const req = s.undo_request;
    if (req) {
      const answering = (req.waiting || []).filter((x) => mine.includes(x));
      const asker = nameOf(req.seat);
      parts.push(h("section.card.undo-req", { "data-testid": "undo-request" },
        h("p", {}, answering.length ? `${asker} asks to take back their last move.` : `${asker} asked to take back their last move; waiting for the others.`),
        answering.length ? h("div.controls", {},
          btn("undo-allow", "Allow", "Allow the takeback", () => answerUndo(answering[0], true), ".primary"),
          btn("undo-refuse", "Refuse", "Refuse the takeback", () => answerUndo(answering[0], false))) : null));
    }
    if (finished()) parts.push(gameOver());
    panel.replaceChildren(...parts);
    // The end of the game comes into view by itself (it sits under the board on a phone).
    if (finished()) requestAnimationFrame(() => panel.lastChild?.scrollIntoView?.({ block: "nearest" }));
  }

  function gameOver() {
    const mine = mySeats().length ? mySeats() : Object.keys(g.tokens);
    return gameOverCard(g.state, { gameId, canRematch: mine.length > 0 || !!memory.hostToken(gameId),
      onRematch: rematch });
  }

  // ---- the piece in hand --------------------------------------------------------------
  const handCells = () => g.hand.cells.map(([x, y]) => [x + g.hand.x, y + g.hand.y]);

  const legalEntry = (seat, piece) => g.legal.get(g.state.seq, seat, piece);

  function loadLegal(seat, piece) {
    g.legal.load(g.state.seq, seat, piece, g.tokens[seat])
      .then((arrived) => arrived && g.hand?.piece === piece && renderHand())
      .catch((err) => say(err.message));
  }

  /** "legal", "illegal", or "pending" while the list is loading; never a rule of our own. */
  function verdict() {
    const cells = handCells();
    if (!cells.every(g.board.inside)) return "illegal";
    const entry = legalEntry(g.hand.seat, g.hand.piece);
    if (!entry) return "pending";
    return entry.byKey.has(cellsKey(cells)) ? "legal" : "illegal";
  }

  function renderHand() {
    const hand = g.hand;
    handControls.hidden = !hand;
    b.rotate.hidden = !hand || !canRotate(hand.piece);
    b.flip.hidden = !hand || !canFlip(hand.piece);
    b.place.disabled = !hand || g.busy;
    if (!g.board) return;
    if (!hand) {
      g.board.setCover([]);
      g.board.setPreview([], "none");
      delete g.board.el.dataset.hand;
      handInfo.textContent = "";
      return;
    }
    g.board.el.dataset.hand = colourOf(hand.seat);
    const entry = legalEntry(hand.seat, hand.piece);
    if (entry === undefined) loadLegal(hand.seat, hand.piece); // the seq moved on, still my turn
    g.board.setCover(entry ? entry.cover : []);
    paintPreview();
  }

  function paintPreview() {
    const v = verdict();
    const cells = handCells();
    g.board.setPreview(cells, v);
    const where = cells.filter(g.board.inside).map(([x, y]) => cellName(x, y));
    handInfo.textContent = `${g.hand.piece} at ${where.join(" ") || "off the board"}: ${v === "legal" ? "fits" : v === "pending" ? "checking" : "does not fit"}`;
  }

  function toggleLift(piece) {
    const a = activeSeat();
    if (!a || !g.state.seats[a - 1].pieces_left.includes(piece)) return;
    if (g.hand?.piece === piece) {
      g.hand = null;
      say("");
    } else {
      const cells = PIECES[piece].map((c) => [...c]);
      const corner = (g.state.seats[a - 1].open_corners || [])[0];
      const at = corner ? parseCell(corner) : [Math.floor(g.state.size / 2), Math.floor(g.state.size / 2)];
      const [ax, ay] = anchorOf(cells);
      g.hand = { seat: a, piece, cells, x: at[0] - ax, y: at[1] - ay };
      clampHand();
      loadLegal(a, piece);
      say("");
    }
    renderTray(viewSeat(), activeSeat());
    renderHand();
  }

  function clampHand() {
    const n = g.state.size;
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
      if (!g.hand || g.busy || (e.pointerType === "mouse" && e.button !== 0)) return;
      e.preventDefault();
      const cell = g.board.cellAt(e.clientX, e.clientY);
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
      const cell = g.board.cellAt(e.clientX, e.clientY);
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
      if (!g.board.contains(e.clientX, e.clientY)) {
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

  // ---- actions ------------------------------------------------------------------------
  async function act(fn) {
    if (g.busy) return;
    g.busy = true;
    renderHand();
    try {
      await fn();
    } catch (err) {
      say(err instanceof HostError ? err.message : String(err));
      if (err.code === "stale_seq" || err.status === 409) fetchState();
    } finally {
      g.busy = false;
      if (g.state) render();
    }
  }

  function afterAction(answer) {
    if (answer?.state) applyState(answer.state);
    // The socket brings the new state; fetch it in case the socket is down.
    setTimeout(() => g.state && g.state.seq <= seqAtAction && fetchState(), 1200);
  }
  let seqAtAction = 0;

  function place() {
    if (!g.hand) return;
    const cells = handCells();
    if (!cells.every(g.board.inside)) {
      say("That doesn't fit: part of the piece is off the board.");
      return;
    }
    const hand = g.hand;
    const move = legalEntry(hand.seat, hand.piece)?.byKey.get(cellsKey(cells)) || cellsKey(cells);
    act(async () => {
      seqAtAction = g.state.seq;
      const answer = await api("POST", `/games/${gameId}/moves`, {
        body: { seat: hand.seat, move, seq: g.state.seq }, token: g.tokens[hand.seat] });
      if (g.hand === hand) g.hand = null;
      say("");
      afterAction(answer);
    });
  }

  function pass() {
    say("Nothing you hold fits: the host skips your turn by itself.");
  }

  function undo() {
    const s = g.state;
    if (!s || !mySeats().length) return;
    const mine = mySeats();
    const seat = s.last_move && mine.includes(s.last_move.seat) ? s.last_move.seat : viewSeat();
    act(async () => {
      seqAtAction = s.seq;
      const answer = await api("POST", `/games/${gameId}/undo`, { body: { seat, seq: s.seq }, token: g.tokens[seat] });
      g.hand = null;
      if (answer?.undo_request) say("Asked the others to allow the takeback…");
      afterAction(answer);
    });
  }

  function answerUndo(seat, accept) {
    act(async () => {
      seqAtAction = g.state.seq;
      const answer = await api("POST", `/games/${gameId}/undo/answer`, { body: { seat, accept }, token: g.tokens[seat] });
      afterAction(answer);
    });
  }

  function declareLeft(seat) {
    const token = memory.hostToken(gameId) || g.tokens[mySeats()[0]];
    act(async () => {
      seqAtAction = g.state.seq;
      afterAction(await api("POST", `/games/${gameId}/seats/${seat}/left`, { token }));
    });
  }

  function claim(seat, name) {
    name = (name || "").trim();
    if (!name) return say("Type your name first.");
    memory.name = name;
    act(async () => {
      const answer = await api("POST", `/games/${gameId}/seats/${seat}`, { body: { name } });
      memory.remember(gameId, { seats: { [seat]: answer.token } });
      g.tokens = memory.tokens(gameId);
      startFollowing();
      await fetchState();
    });
  }

  function rematch() {
    const mine = Object.keys(g.tokens);
    const token = g.tokens[mine[0]] || memory.hostToken(gameId);
    act(async () => {
      const answer = await api("POST", `/games/${gameId}/rematch`, { token });
      // Same people at the same seats keep the same credentials.
      memory.remember(answer.id, { seats: g.tokens, host: memory.hostToken(gameId) });
      location.hash = `#/game/${answer.id}`;
    });
  }

  function askLeave() {
    const seat = viewSeat();
    if (!seat) return;
    const n = g.state.seats.length;
    const text = n === 2
      ? "With two players, leaving resigns: the other player wins this game."
      : "You stop placing and cannot win. Your pieces stay on the board and the others play on to the end.";
    dialog.replaceChildren(h("h2", { id: "leave-title" }, `Leave as ${title(colourOf(seat))}?`),
      h("p", { "data-testid": "leave-text" }, text),
      h("div.controls", {},
        btn("leave-cancel", "Stay", "Stay in the game", () => dialog.close()),
        btn("leave-confirm", n === 2 ? "Resign" : "Leave", "Leave the game", () => {
          dialog.close();
          act(async () => {
            seqAtAction = g.state.seq;
            const answer = await api("POST", `/games/${gameId}/leave`, { body: { seat }, token: g.tokens[seat] });
            g.hand = null;
            afterAction(answer);
          });
        }, ".danger")));
    dialog.showModal();
  }

  // ---- keyboard -----------------------------------------------------------------------
  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || dialog.open) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[key] && g.hand) {
      e.preventDefault();
      nudge(...moves[key]);
    } else if (key === "r" && g.hand) turnHand(rotate);
    else if (key === "f" && g.hand) turnHand(flip);
    else if (key === " " && g.hand) {
      e.preventDefault();
      place();
    } else if (key === "z") undo();
    else if (key === "Escape" && g.hand) toggleLift(g.hand.piece);
  }
  document.addEventListener("keydown", onKey);

  // ---- live link ----------------------------------------------------------------------
  function startFollowing() {
    follow(gameId, g.tokens, {
      lastSeq: () => (g.state ? g.state.seq : 0),
      onJoin: (ack) => {
        if (!ack || ack.ok === false) {
          if (ack?.error) say(ack.error.message);
          return fetchState();
        }
        if (ack.state) pushed(ack.state);
        else fetchState();
      },
      onEvent: (msg) => {
        if (msg.state) pushed(msg.state);
        else fetchState();
      },
      onUndoRequest: (msg) => {
        if (!g.state) return;
        g.state.undo_request = msg.undo_request || null;
        if (msg.dropped && g.tokens[msg.dropped.seat] && msg.reason === "declined") say("The takeback was refused.");
        if (msg.dropped && msg.reason === "timeout" && g.tokens[msg.dropped.seat]) say("Nobody answered the takeback request.");
        render();
      },
      onPresence: (msg) => {
        if (!g.state) return;
        for (const p of msg.seats || []) Object.assign(g.state.seats[p.seat - 1] || {}, p);
        render();
      },
      onThinking: (msg) => {
        g.thinking[msg.seat] = !!msg.thinking;
        if (g.state) {
          turn.textContent = turnText();
          renderSeats(viewSeat());
        }
      },
    });
  }

  const wake = keepAwake(() => !!g.state && !finished() && mySeats().length > 0);
  fetchState().then(startFollowing);
  const onVisible = () => document.visibilityState === "visible" && fetchState();
  document.addEventListener("visibilitychange", onVisible);
  window.ccGame = g; // for debugging from the console

  return () => {
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("visibilitychange", onVisible);
    document.body.dataset.turn = "";
    wake.release();
    unfollow();
  };
}
