// The table shell: the screen around any game's board. It lays out the turn line, the seats,
// the controls and the panels, loads the game's board module (state.game → the catalog's
// board_url → createBoard), which draws the host's board view and turns taps into move text,
// and wires the parts in table/: the state in seq order (state.js), the commands to the host
// (commands.js), the panels and dialogs (panels.js), the turn line (turn.js), the "your turn"
// call (alert.js) and who this phone is at the table (view.js); the screen is kept on while
// this phone plays (wake.js).
//
// Neither holds rules. The board asks the host what is legal through `host.legal` and plays
// through `play(seat, move)`; moves go to the host with the seq they were made on, and a
// refusal is shown in the host's own words.

import { memory } from "./api.js";
import { gameEntry, loadBoard, openGuide } from "./catalog.js";
import { h } from "./dom.js";
import { unfollow } from "./net.js";
import { seatCards } from "./seats.js";
import { button as btn, gameActions, turnControls } from "./controls.js";
import { keepAwake } from "./wake.js";
import { settingsButton } from "./settings.js";
import { seatView } from "./table/view.js";
import { stateKeeper } from "./table/state.js";
import { boardHost, tableCommands } from "./table/commands.js";
import { tablePanels } from "./table/panels.js";
import { renderNotice, turnText } from "./table/turn.js";
import { turnAlert } from "./table/alert.js";

export function mountGame(root, gameId, { watch = false } = {}) {
  const g = {
    id: gameId,
    watch,
    state: null,
    entry: null, // the game's catalog line
    /** @type {import("./boards/contract.js").Board|null} the board module's instance */
    board: null,
    tokens: memory.tokens(gameId), // {seat: token}
    thinking: {},
    busy: false,
    lastActive: null,
    gone: false,
  };
  const v = seatView(g);

  // ---- layout -------------------------------------------------------------------------
  const turn = h("div.turn", { "data-testid": "turn", role: "status", "aria-live": "polite" }, "Connecting…");
  const message = h("p.message", { "data-testid": "message", role: "alert" });
  // Standing facts for this phone: a seat of mine with no move left, or only watching.
  const notice = h("p.notice", { "data-testid": "notice", role: "status", hidden: true });
  const boardWrap = h("div.board-wrap", { "data-testid": "board-area" });
  const boardSide = h("div.board-side"); // the board module's own controls (Corner Claim's tray)
  const say = (text) => { message.textContent = text || ""; };
  // The turn controls (Hint, Take back, Leave, the game's Pass where its catalog line has one)
  // and the news of what the others did (controls.js).
  const controls = turnControls({ say, hint: () => cmd.hint(), undo: () => cmd.undo(),
    leave: () => panels.askLeave() });
  const dialog = h("dialog.confirm", { "data-testid": "leave-dialog", "aria-labelledby": "leave-title" });
  // The game's own actions: what the host says each of my seats may do now (seats[].actions),
  // in the words of the catalog's `actions` (controls.js).
  const actions = gameActions({ dialog, send: (seat, name) => cmd.action(seat, name) });
  // The host's phone may end the game before its end: abandoned, nobody wins (or cancelled
  // while it still waits for players).
  const closeBtn = btn("close-game", "Close game", "Close this game: nobody wins", () => panels.askClose(), ".danger");
  const hostControls = h("div.controls", { role: "group", "aria-label": "Host", hidden: true }, closeBtn);
  const seatsBox = h("div.seats", { "data-testid": "seats" });
  const panel = h("div.panel"); // claim, undo request, game over
  const screen = h("div.game", { "data-testid": "game" },
    h("header.bar.game-bar", {}, h("a.btn.small", { href: "#/", "aria-label": "Back to the lobby" }, "←"), turn,
      h("a.btn.small", { href: `#/invite/${gameId}`, "aria-label": "Invite to this game" }, "Invite"),
      h("button.btn.small", { type: "button", "data-testid": "howto", "aria-label": "How to play", title: "How to play",
        onclick: () => g.entry && openGuide(g.entry) }, "?"), settingsButton()),
    h("div.play", {}, boardWrap,
      h("div.side", {}, notice, controls.news, message, boardSide, controls.el, actions.el, panel, seatsBox, hostControls)),
    dialog);
  root.append(screen);

  // ---- the parts ----------------------------------------------------------------------
  const host = boardHost(g);
  const keeper = stateKeeper(g, v, {
    say,
    changed: () => {
      ensureBoard(g.state.game);
      render();
    },
    render,
    thinking: () => {
      turn.textContent = turnText(g, v);
      renderSeats();
    },
    failed: (err) => {
      if (err.status === 404) turn.textContent = "No such game on this host.";
      say(err.message);
    },
  });
  const cmd = tableCommands(g, v, host, keeper, {
    say,
    started: () => {
      controls.acted();
      if (g.state) g.board?.render(g.state, v.boardView());
    },
    render,
  });
  const panels = tablePanels(g, v, { panel, dialog, cmd });
  // "Your turn" (chime, buzz, the title marked) and the screen kept on while this phone plays.
  const yourTurn = turnAlert(g, v);
  const wake = keepAwake(() => !!g.state && !v.finished() && !g.watch && v.mySeats().length > 0);

  // ---- the game's board module --------------------------------------------------------
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
        play: cmd.play, say });
      if (boardError && message.textContent === boardError) say("");
      boardError = null;
      render();
    } catch (err) {
      boardFor = null; // the next state from the host tries again
      boardError = err.message;
      say(err.message);
    }
  }

  // ---- rendering ----------------------------------------------------------------------
  function render() {
    const s = g.state;
    if (!s) return;
    const finished = v.finished();
    document.body.dataset.turn = s.to_move ? v.colourOf(s.to_move) : "";
    screen.dataset.hotseat = String(v.isHotSeat());
    screen.dataset.game = s.game || "";
    g.board?.render(s, v.boardView());
    turn.textContent = turnText(g, v);
    turn.className = `turn ${s.to_move && !finished ? "t c-" + v.colourOf(s.to_move) : ""}`;
    renderSeats();
    panels.render();
    renderNotice(notice, g, v);
    controls.render({ state: s, entry: g.entry, board: g.board, active: v.activeSeat(),
      spectator: v.mySeats().length === 0, finished, busy: g.busy, mine: v.mySeats(), nameOf: v.nameOf });
    hostControls.hidden = !memory.hostToken(gameId) || finished || g.watch || s.seats.length === 1; // one seat: Leave ends it
    closeBtn.textContent = s.status === "open" ? "Cancel game" : "Close game";
    actions.render({ state: s, entry: g.entry, board: g.board, seats: finished || g.watch ? [] : v.mySeats(),
      busy: g.busy, colourOf: v.colourOf });
    yourTurn.update();
    wake.update();
  }

  function renderSeats() {
    const view = v.boardView();
    const hostToken = memory.hostToken(gameId);
    seatsBox.replaceChildren(...seatCards(g.state, { tokens: g.tokens, thinking: g.thinking,
      finished: v.finished(), canDeclare: v.mySeats().length > 0 || !!hostToken, onDeclareLeft: cmd.declareLeft,
      onSeatComputer: hostToken && g.entry?.levels?.length ? cmd.seatComputer : null,
      detail: (seat) => g.board?.seatDetail?.(seat, view) || null }));
  }

  // ---- keyboard: the board first (its own keys), then the table's ---------------------
  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || dialog.open) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    if (g.board?.onKey?.(e)) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (key === "z") cmd.undo();
    else if (key === "h") cmd.hint();
  }
  document.addEventListener("keydown", onKey);

  // ---- start: the state, then the live link -------------------------------------------
  keeper.fetch().then(keeper.follow);
  const onVisible = () => document.visibilityState === "visible" && keeper.fetch();
  document.addEventListener("visibilitychange", onVisible);
  window.ccGame = g; // for debugging from the console

  return () => {
    g.gone = true;
    g.board?.destroy();
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("visibilitychange", onVisible);
    document.body.dataset.turn = "";
    wake.release();
    yourTurn.stop();
    unfollow();
  };
}
