// The live link to the host: one Socket.IO connection, rejoined with the last seq after any
// drop (Wi-Fi, a sleeping phone), and an offline banner while it is down.

/* global io */
let socket = null;
let joined = null; // {gameId, tokens, lastSeq: () => number, onJoin, onEvent, onPresence, onThinking}
const banner = () => document.getElementById("offline");

function showOffline(off) {
  const el = banner();
  if (el) el.hidden = !off;
  document.body.classList.toggle("is-offline", off);
}

export function isOnline() {
  return !!socket?.connected && navigator.onLine !== false;
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
    if (joined) emitJoin();
  });
  socket.on("disconnect", () => showOffline(true));
  socket.on("connect_error", () => showOffline(true));
  socket.on("event", (msg) => joined && msg?.game_id === joined.gameId && joined.onEvent(msg));
  socket.on("state", (msg) => joined && msg?.game_id === joined.gameId && joined.onEvent(msg));
  socket.on("undo_request", (msg) => joined && msg?.game_id === joined.gameId && joined.onUndoRequest(msg));
  socket.on("presence", (msg) => joined && msg?.game_id === joined.gameId && joined.onPresence(msg));
  socket.on("thinking", (msg) => joined && msg?.game_id === joined.gameId && joined.onThinking(msg));
  return socket;
}

function emitJoin() {
  const j = joined;
  const payload = { game_id: j.gameId, last_seq: j.lastSeq() };
  const tokens = Object.values(j.tokens);
  if (tokens.length) payload.tokens = tokens;
  socket.timeout(5000).emit("join", payload, (err, ack) => {
    if (joined !== j) return;
    if (err) return j.onJoin(null);
    j.onJoin(ack);
  });
}

/** Follow one game live; `handlers` get the join ack and every broadcast for it. */
export function follow(gameId, tokens, handlers) {
  connect();
  joined = { gameId, tokens, ...handlers };
  if (socket?.connected) emitJoin();
}

export function unfollow() {
  if (joined && socket?.connected) socket.emit("unjoin", { game_id: joined.gameId });
  joined = null;
}

/** Rejoin now (the phone woke or came back online): the host sends what was missed. */
export function resync() {
  if (!socket) return;
  if (!socket.connected) socket.connect();
  else if (joined) emitJoin();
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
