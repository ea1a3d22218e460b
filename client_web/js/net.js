// The live link to the host: one Socket.IO connection for the page, rejoined after any drop
// (Wi-Fi, a sleeping phone) with each followed game's last seq, and an offline banner while
// it is down. It follows any number of games at once (the phone's table follows one, /tv
// up to four) and, on request, the lobby (`watch_lobby`: the game list and tonight's
// standings, then their changes as pushes).

/* global io */
let socket = null;
// game_id -> {gameId, tokens, lastSeq: () => number, onJoin, onEvent, onUndoRequest,
// onPresence, onThinking}; every handler but lastSeq is optional.
const followed = new Map();
let lobby = null; // {onWatch(ack | null), onGame(entry), onTonight(body)}
const banner = () => document.getElementById("offline");

function showOffline(off) {
  const el = banner();
  if (el) el.hidden = !off;
  document.body.classList.toggle("is-offline", off);
}

export function isOnline() {
  return !!socket?.connected && navigator.onLine !== false;
}

/** The push `name` handed to the followed game it names, through its handler `handler`. */
function toGame(name, handler) {
  socket.on(name, (msg) => followed.get(msg?.game_id)?.[handler]?.(msg));
}

function connect() {
  if (socket) return socket;
  if (typeof io !== "function") {
    showOffline(true);
    return null;
  }
  // WebSocket first (on a LAN nothing stands in its way, and a closed page is seen at once by
  // the host's presence); long-polling only if the WebSocket cannot open.
  socket = io({ transports: ["websocket", "polling"], tryAllTransports: true,
    reconnectionDelay: 300, reconnectionDelayMax: 2000, timeout: 5000 });
  socket.on("connect", () => {
    showOffline(false);
    rejoinAll();
  });
  socket.on("disconnect", () => showOffline(true));
  socket.on("connect_error", () => showOffline(true));
  toGame("event", "onEvent");
  toGame("state", "onEvent");
  toGame("undo_request", "onUndoRequest");
  toGame("presence", "onPresence");
  toGame("thinking", "onThinking");
  socket.on("lobby", (msg) => msg?.game && lobby?.onGame?.(msg.game));
  socket.on("tonight", (body) => body && lobby?.onTonight?.(body));
  return socket;
}

function rejoinAll() {
  for (const j of followed.values()) emitJoin(j);
  if (lobby) emitWatch(lobby);
}

function emitJoin(j) {
  const payload = { game_id: j.gameId, last_seq: j.lastSeq() };
  const tokens = Object.values(j.tokens || {});
  if (tokens.length) payload.tokens = tokens;
  socket.timeout(5000).emit("join", payload, (err, ack) => {
    if (followed.get(j.gameId) !== j) return; // unfollowed, or followed anew, meanwhile
    j.onJoin?.(err ? null : ack);
  });
}

/** Follow a game live; `handlers` get the join ack (null if none came) and every push for
 *  it. Following a game already followed replaces its handlers. `tokens`: {seat: token} of
 *  the seats this page holds ({} to watch). */
export function follow(gameId, tokens, handlers) {
  connect();
  const j = { gameId, tokens, ...handlers };
  followed.set(gameId, j);
  if (socket?.connected) emitJoin(j);
}

/** Stop following `gameId`; with no id, every game followed. */
export function unfollow(gameId) {
  for (const id of gameId === undefined ? [...followed.keys()] : [gameId]) {
    if (!followed.delete(id)) continue;
    if (socket?.connected) socket.emit("unjoin", { game_id: id });
  }
}

function emitWatch(w) {
  socket.timeout(5000).emit("watch_lobby", {}, (err, ack) => {
    if (lobby !== w) return;
    w.onWatch?.(!err && ack?.ok === true ? ack : null); // an error ack: no watch
  });
}

/** Watch the lobby: on every (re)connection `onWatch` gets the host's answer ({games,
 *  tonight}, or null if it gave none), then `onGame(entry)` each lobby line that is created
 *  or changes (an upsert by id) and `onTonight(body)` each change of tonight's standings.
 *  Returns the function that stops watching. */
export function watchLobby(handlers) {
  const w = { ...handlers };
  lobby = w;
  if (!connect()) queueMicrotask(() => lobby === w && w.onWatch?.(null)); // no live link at all
  else if (socket.connected) emitWatch(w);
  return () => {
    if (lobby !== w) return;
    lobby = null;
    if (socket?.connected) socket.emit("unwatch_lobby", {}, () => {}); // asked with an ack, as every message
  };
}

/** Rejoin now (the phone woke or came back online): the host sends what was missed. */
export function resync() {
  if (!socket) return;
  if (!socket.connected) socket.connect();
  else rejoinAll();
}

window.addEventListener("offline", () => {
  showOffline(true);
  // A dead Wi-Fi link can take the socket's ping timeout to notice; drop it now and let the
  // 'online' event bring it back.
  socket?.disconnect();
});
window.addEventListener("online", () => socket && socket.connect());
// Leaving the page (closing the tab, reloading): say goodbye so the others see "away" at once.
window.addEventListener("pagehide", () => socket?.disconnect());
window.addEventListener("pageshow", (e) => e.persisted && resync()); // back from the page cache
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") resync();
});
