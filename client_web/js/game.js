// The table shell: the screen around any game's board. It holds the turn line, the seats, the
// claim / takeback / leave / game-over / rematch panels, the live link (follow, reconnect) and
// the keyboard; the board itself is the game's board module (state.game → the catalog's
// board_url → createBoard), which draws the host's board view and turns taps into move text.
//
// Neither holds rules. The board asks the host what is legal through `host.legal` and plays
// through `play(seat, move)`; moves go to the host with the seq they were made on, and a
// refusal is shown in the host's own words.

import { api, memory, HostError } from "./api.js";
import { gameEntry, loadBoard } from "./catalog.js";
import { h, title } from "./dom.js";
import { follow, unfollow } from "./net.js";
import { seatCards, gameOverCard, seatName, abandoned, endingText } from "./seats.js";
import { button as btn, gameActions, turnControls, undoRefusal } from "./controls.js";
import { resultText } from "./results.js";
import { keepAwake } from "./wake.js";

export function mountGame(root, gameId, { watch = false } = {}) {
  const g = {
    id: gameId,
    watch,
    state: null,
    entry: null, // the game's catalog line
    board: null, // the board module's instance
    tokens: memory.tokens(gameId), // {seat: token}
    thinking: {},
    busy: false,
    lastActive: null,
    gone: false,
  };

  // ---- layout -------------------------------------------------------------------------
  const turn = h("div.turn", { "data-testid": "turn", role: "status", "aria-live": "polite" }, "Connecting…");
  const message = h("p.message", { "data-testid": "message", role: "alert" });
  // Standing facts for this phone: a seat of mine with no move left, or only watching.
  const notice = h("p.notice", { "data-testid": "notice", role: "status", hidden: true });
  const boardWrap = h("div.board-wrap", { "data-testid": "board-area" });
  const boardSide = h("div.board-side"); // the board module's own controls (Corner Claim's tray)
  // Pass, Hint, Take back, Leave, and the news of what the others did (controls.js).
  const controls = turnControls({ pass: () => pass(), hint: () => hint(), undo: () => undo(),
    leave: () => askLeave() });
  const dialog = h("dialog.confirm", { "data-testid": "leave-dialog", "aria-labelledby": "leave-title" });
  const actions = gameActions({ dialog, send: (seat, name) => sendAction(seat, name) });
  // The host's phone may end the game before its end: abandoned, nobody wins (or cancelled
  // while it still waits for players).
  const closeBtn = btn("close-game", "Close game", "Close this game: nobody wins", () => askClose(), ".danger");
  const hostControls = h("div.controls", { role: "group", "aria-label": "Host", hidden: true }, closeBtn);
  // The game's own actions (resign, offer a draw…): what the host says each of my seats may do
  // now (seats[].actions), labelled from the catalog's `actions` (controls.js).
  const seatsBox = h("div.seats", { "data-testid": "seats" });
  const panel = h("div.panel"); // claim, undo request, game over
  const screen = h("div.game", { "data-testid": "game" },
    h("header.bar.game-bar", {}, h("a.btn.small", { href: "#/", "aria-label": "Back to the lobby" }, "←"), turn,
      h("a.btn.small", { href: `#/invite/${gameId}`, "aria-label": "Invite to this game" }, "Invite")),
    h("div.play", {}, boardWrap,
      h("div.side", {}, notice, controls.news, message, boardSide, controls.el, actions.el, panel, seatsBox, hostControls)),
    dialog);
  root.append(screen);

  // ---- who am I -----------------------------------------------------------------------
  const seatsOf = () => (g.state ? g.state.seats : []);
  const colourOf = (seat) => seatsOf()[seat - 1]?.colour || "";
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
  /** What the board module is told besides the state. */
  const boardView = () => ({ active: activeSeat(), shown: finished() ? null : viewSeat(), busy: g.busy,
    finished: finished(), watching: mySeats().length === 0 });

  // ---- the game's board module --------------------------------------------------------
  // What the board may ask of the host: the legal moves (once per seq, seat and query) and a
  // hint. It never decides legality itself.
  const legalCache = { seq: null, answers: new Map() };
  const host = {
    legal(seat, query = {}) {
      const seq = g.state.seq;
      if (legalCache.seq !== seq) {
        legalCache.seq = seq;
        legalCache.answers.clear();
      }
      const params = new URLSearchParams({ seat: String(seat) });
      const name = g.entry?.legal_query;
      if (name && query[name] !== undefined) params.set(name, String(query[name]));
      const key = params.toString();
      if (!legalCache.answers.has(key)) {
        const ask = api("GET", `/games/${gameId}/legal?${key}`, { token: g.tokens[seat] });
        ask.catch(() => legalCache.seq === seq && legalCache.answers.delete(key));
        legalCache.answers.set(key, ask);
      }
      return legalCache.answers.get(key);
    },
    hint(seat) {
      return api("GET", `/games/${gameId}/hint?seat=${seat}`, { token: g.tokens[seat] });
    },
  };

  let boardFor = null;
  let boardError = null; // why the board module did not load, while it is shown
  async function ensureBoard(game) {
    if (boardFor === game) return;
    boardFor = game;
    try {
      g.entry = await gameEntry(game);
      const mod = await loadBoard(g.entry);
      if (g.gone || boardFor !== game) return;
      g.board?.destroy();
      g.board = mod.createBoard({ el: boardWrap, side: boardSide, entry: g.entry, readOnly: false, host,
        play, say });
      if (boardError && message.textContent === boardError) say("");
      boardError = null;
      render();
    } catch (err) {
      boardFor = null; // the next state from the host tries again
      boardError = err.message;
      say(err.message);
    }
  }

  // ---- state from the host ------------------------------------------------------------
  function applyState(s) {
    if (!s || s.id !== gameId) return;
    if (g.state && s.seq < g.state.seq) return; // an older picture than the one shown
    const seqChanged = !g.state || s.seq !== g.state.seq;
    g.state = s;
    if (seqChanged) say("");
    if (activeSeat()) g.lastActive = activeSeat();
    ensureBoard(s.game);
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
    document.body.dataset.turn = s.to_move ? colourOf(s.to_move) : "";
    screen.dataset.hotseat = String(isHotSeat());
    screen.dataset.game = s.game || "";
    g.board?.render(s, boardView());
    turn.textContent = turnText();
    turn.className = `turn ${s.to_move && !finished() ? "t c-" + colourOf(s.to_move) : ""}`;
    renderSeats();
    renderPanel();
    renderNotice();
    const spectator = mySeats().length === 0;
    controls.render({ state: s, entry: g.entry, active: a, spectator, finished: finished(), busy: g.busy,
      mine: mySeats(), nameOf });
    hostControls.hidden = !memory.hostToken(gameId) || finished() || g.watch;
    closeBtn.textContent = s.status === "open" ? "Cancel game" : "Close game";
    actions.render({ state: s, entry: g.entry, seats: finished() || g.watch ? [] : mySeats(), busy: g.busy, colourOf });
  }

  function sendAction(seat, name) {
    act(async () => {
      seqAtAction = g.state.seq;
      const answer = await api("POST", `/games/${gameId}/actions`, {
        body: { seat, action: name, seq: g.state.seq }, token: g.tokens[seat] });
      afterAction(answer);
    });
  }

  /** My seats that have no move left while the game goes on (the host skips their turns). */
  const outOfMoves = () => (finished() ? [] : mySeats().filter((x) => seatsOf()[x - 1]?.out_of_moves));

  function renderNotice() {
    const s = g.state;
    const out = outOfMoves();
    let text = "";
    let kind = "";
    if (out.length) {
      kind = "out-of-moves";
      text = isHotSeat()
        ? out.map((x) => `${title(colourOf(x))} has no moves left: ${title(colourOf(x))}'s turn is skipped.`).join(" ")
        : "No moves left: your turn is skipped. The others play on to the end.";
    } else if (!mySeats().length && !finished() && s.status !== "open") {
      kind = "watching";
      text = "You are watching this game: only the players at the table can move.";
    } else if (!mySeats().length && g.watch && !finished()) {
      kind = "watching";
      text = "You are watching this game.";
    }
    notice.hidden = !text;
    notice.textContent = text;
    notice.dataset.kind = kind;
    notice.className = `notice${out.length === 1 ? " c-" + colourOf(out[0]) : ""}`;
  }

  function turnText() {
    const s = g.state;
    if (s.result && (abandoned(s) || s.result.reason === "everyone_left")) return endingText(s);
    if (finished()) {
      const who = resultText(s.result, nameOf, true); // a team's win names the team
      return who ? `Game over — ${who}` : "Game over";
    }
    if (s.closed) return "The host closed this game";
    if (s.status === "open") {
      const open = s.seats.filter((x) => !x.claimed).length;
      return `Waiting for ${open} more player${open === 1 ? "" : "s"}`;
    }
    const who = title(colourOf(s.to_move));
    if (activeSeat() && isHotSeat()) { // one phone, several people: the person by name
      const name = seatsOf()[s.to_move - 1]?.name;
      return `${name ? `${name}'s turn (${who})` : `${who}'s turn`} — pass the phone`;
    }
    if (activeSeat()) return `Your turn (${who})`;
    if (outOfMoves().length && !isHotSeat()) return `${who}'s turn — you have no moves left`;
    if (g.thinking[s.to_move]) return `${who}'s turn — computer is thinking…`;
    const seat = s.seats[s.to_move - 1];
    return `${who}'s turn${seat?.away ? " (away)" : ""}`;
  }

  function renderSeats() {
    const view = boardView();
    seatsBox.replaceChildren(...seatCards(g.state, { tokens: g.tokens, thinking: g.thinking,
      finished: finished(), canDeclare: mySeats().length > 0 || !!memory.hostToken(gameId), onDeclareLeft: declareLeft,
      onSeatComputer: memory.hostToken(gameId) && g.entry?.levels?.length ? seatComputer : null,
      detail: (seat) => g.board?.seatDetail?.(seat, view) || null }));
  }

  let panelKey = "";
  function renderPanel() {
    const s = g.state;
    const parts = [];
    const mine = mySeats();
    // Rebuilt only when what it shows changes, so a half-typed name is not wiped by a push.
    const key = JSON.stringify([g.watch, mine, s.seats.map((x) => [x.claimed, x.left, x.kind]), s.undo_request,
      s.status, s.result, s.rematch_id, finished() && !!g.entry]); // the game-over card lists its formats
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
    return gameOverCard(g.state, { gameId, formats: g.entry?.formats || [],
      canRematch: mine.length > 0 || !!memory.hostToken(gameId), onRematch: rematch });
  }

  // ---- actions ------------------------------------------------------------------------
  async function act(fn) {
    if (g.busy) return false;
    g.busy = true;
    controls.acted();
    if (g.state) g.board?.render(g.state, boardView());
    try {
      await fn();
      return true;
    } catch (err) {
      say(err instanceof HostError ? err.message : String(err));
      if (err.code === "stale_seq" || err.status === 409) fetchState();
      return false;
    } finally {
      g.busy = false;
      if (g.state) render();
    }
  }

  function afterAction(answer) {
    if (answer?.state) applyState(answer.state);
    // The socket brings the new state; fetch it in case the socket is down.
    setTimeout(() => !g.gone && g.state && g.state.seq <= seqAtAction && fetchState(), 1200);
  }
  let seqAtAction = 0;

  /** The board's move: sent with the seq it was made on; true if the host took it. */
  function play(seat, move) {
    if (!g.state || !g.tokens[seat]) return Promise.resolve(false);
    return act(async () => {
      seqAtAction = g.state.seq;
      const answer = await api("POST", `/games/${gameId}/moves`, {
        body: { seat, move, seq: g.state.seq }, token: g.tokens[seat] });
      say("");
      afterAction(answer);
    });
  }

  function pass() {
    say("You have no move: the host skips your turn by itself.");
  }

  /** The host's suggested move for the seat to move: the board shows it if it can. */
  async function hint() {
    const a = activeSeat();
    if (!a || !g.entry?.hint) return;
    try {
      const answer = await host.hint(a);
      if (!answer?.move) say("The host has no move to suggest.");
      else if (activeSeat() === a && !g.board?.showHint?.(answer.move)) say(`Hint: ${answer.move}`);
    } catch (err) {
      say(err.message);
    }
  }

  function undo() {
    const s = g.state;
    if (!s || !mySeats().length) return;
    if (undoRefusal(s)) return say(undoRefusal(s)); // the game's words, not a refused request
    const mine = mySeats();
    const seat = s.last_move && mine.includes(s.last_move.seat) ? s.last_move.seat : viewSeat();
    act(async () => {
      seqAtAction = s.seq;
      // The other seats this phone holds are not asked to allow its own takeback.
      const deviceTokens = Object.entries(g.tokens).filter(([k]) => Number(k) !== seat).map(([, t]) => t);
      const answer = await api("POST", `/games/${gameId}/undo`,
        { body: { seat, seq: s.seq, device_tokens: deviceTokens }, token: g.tokens[seat] });
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

  /** The host seats a computer (the catalog's first level) at an open seat nobody claimed. */
  function seatComputer(seat) {
    const level = g.entry.levels[0].number;
    act(async () => {
      const s = await api("POST", `/games/${gameId}/seats/${seat}/computer`, { body: { level },
        token: memory.hostToken(gameId) });
      applyState(s);
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
          act(async () => {
            seqAtAction = g.state.seq;
            applyState(await api("POST", `/games/${gameId}/close`, { token: memory.hostToken(gameId) }));
          });
        }, ".danger")));
    dialog.showModal();
  }

  function askLeave() {
    const seat = viewSeat();
    if (!seat) return;
    const n = g.state.seats.length;
    const variant = (g.entry?.variants || []).find((v) => v.name === g.state.variant);
    const text = variant?.leaving ? variant.leaving : n === 2
      ? "With two players, leaving resigns: the other player wins this game."
      : "You stop playing and cannot win. What you played stays on the board and the others play on to the end.";
    dialog.replaceChildren(h("h2", { id: "leave-title" }, `Leave as ${title(colourOf(seat))}?`),
      h("p", { "data-testid": "leave-text" }, text),
      h("div.controls", {},
        btn("leave-cancel", "Stay", "Stay in the game", () => dialog.close()),
        btn("leave-confirm", n === 2 ? "Resign" : "Leave", "Leave the game", () => {
          dialog.close();
          act(async () => {
            seqAtAction = g.state.seq;
            const answer = await api("POST", `/games/${gameId}/leave`, { body: { seat }, token: g.tokens[seat] });
            afterAction(answer);
          });
        }, ".danger")));
    dialog.showModal();
  }

  // ---- keyboard: the board first (its own keys), then the table's ---------------------
  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || dialog.open) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    if (g.board?.onKey?.(e)) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (key === "z") undo();
    else if (key === "h") hint();
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
          renderSeats();
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
    g.gone = true;
    g.board?.destroy();
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("visibilitychange", onVisible);
    document.body.dataset.turn = "";
    wake.release();
    unfollow();
  };
}
