// What this phone asks of the host at a table: the board's questions (the legal moves, a
// hint) and the commands (play, take back, answer a takeback, leave, close, claim a seat,
// seat a computer, rematch, the game's actions). A command goes with the seq it was made on;
// one at a time (`g.busy`); a refusal is shown in the host's own words, and a stale seq
// fetches the state again.

import { api, memory, HostError } from "../api.js";
import { undoRefusal } from "../controls.js";

/** What the board may ask of the host: the legal moves (once per seq, seat and query) and a
 *  hint. It never decides legality itself. */
export function boardHost(g) {
  const cache = { seq: null, answers: new Map() };
  return {
    legal(seat, query = {}) {
      const seq = g.state.seq;
      if (cache.seq !== seq) {
        cache.seq = seq;
        cache.answers.clear();
      }
      const params = new URLSearchParams({ seat: String(seat), seq: String(seq) });
      const name = g.entry?.legal_query;
      if (name && query[name] !== undefined) params.set(name, String(query[name]));
      const key = params.toString();
      if (!cache.answers.has(key)) {
        const ask = api("GET", `/games/${g.id}/legal?${key}`, { token: g.tokens[seat] });
        ask.catch(() => cache.seq === seq && cache.answers.delete(key));
        cache.answers.set(key, ask);
      }
      return cache.answers.get(key);
    },
    hint(seat) {
      return api("GET", `/games/${g.id}/hint?seat=${seat}`, { token: g.tokens[seat] });
    },
  };
}

/** The table's commands. `keeper`: the state keeper (apply, fetch, follow); `on`: say(text),
 *  started() when a command sets out, render() when it is over. */
export function tableCommands(g, v, host, keeper, on) {
  const say = on.say;
  const post = (path, body, token) => api("POST", `/games/${g.id}${path}`, { body, token });
  let seqAtAction = 0;

  async function act(fn) {
    if (g.busy) return false;
    g.busy = true;
    on.started();
    try {
      await fn();
      return true;
    } catch (err) {
      say(err instanceof HostError ? err.message : String(err));
      if (err.code === "stale_seq" || err.status === 409) keeper.fetch();
      return false;
    } finally {
      g.busy = false;
      if (g.state) on.render();
    }
  }

  /** A command the host answered: the state in its answer, shown at once if newer than the
   *  one shown (the room's push of it, later, changes nothing); an answer without one waits
   *  for the socket's, fetched in case the socket is down. */
  function sent(answer) {
    const s = answer?.state;
    if (s) {
      if (!g.state || s.seq > g.state.seq) keeper.apply(s);
      return;
    }
    setTimeout(() => !g.gone && g.state && g.state.seq <= seqAtAction && keeper.fetch(), 1200);
  }
  /** A command on the state shown, for `seat`, whose answer is a command's answer. */
  const command = (path, body, seat) => act(async () => {
    seqAtAction = g.state.seq;
    sent(await post(path, body, g.tokens[seat]));
  });

  /** The board's move: sent with the seq it was made on; true if the host took it. */
  function play(seat, move) {
    if (!g.state || !g.tokens[seat]) return Promise.resolve(false);
    return act(async () => {
      seqAtAction = g.state.seq;
      const answer = await post("/moves", { seat, move, seq: g.state.seq }, g.tokens[seat]);
      say("");
      sent(answer);
    });
  }

  /** The host's suggested move for the seat to move: the board shows it if it can. The Hint
   *  button is aria-busy (a spinner) until it comes. */
  async function hint() {
    const a = v.activeSeat();
    if (!a || !g.entry?.hint || !g.board) return; // the board module shows the hint
    const button = document.querySelector("[data-testid=hint]"); // the turn controls' Hint
    button?.setAttribute("aria-busy", "true");
    try {
      const answer = await host.hint(a);
      if (!answer?.move) say("The host has no move to suggest.");
      else if (v.activeSeat() === a && !g.board?.showHint?.(answer.move)) say(`Hint: ${answer.move}`);
    } catch (err) {
      say(err.message);
    } finally {
      button?.removeAttribute("aria-busy");
    }
  }

  function undo() {
    const s = g.state;
    if (!s || !v.mySeats().length) return;
    if (undoRefusal(s)) return say(undoRefusal(s)); // the game's words, not a refused request
    const mine = v.mySeats();
    const seat = s.last_move && mine.includes(s.last_move.seat) ? s.last_move.seat : v.viewSeat();
    act(async () => {
      seqAtAction = s.seq;
      // The other seats this phone holds are not asked to allow its own takeback.
      const deviceTokens = Object.entries(g.tokens).filter(([k]) => Number(k) !== seat).map(([, t]) => t);
      const answer = await post("/undo", { seat, seq: s.seq, device_tokens: deviceTokens }, g.tokens[seat]);
      if (answer?.undo_request) say("Asked the others to allow the takeback…");
      sent(answer);
    });
  }

  const answerUndo = (seat, accept) => command("/undo/answer", { seat, accept }, seat);
  const action = (seat, name) => command("/actions", { seat, action: name, seq: g.state.seq }, seat);
  const leave = (seat) => command("/leave", { seat }, seat);

  function declareLeft(seat) {
    const token = memory.hostToken(g.id) || g.tokens[v.mySeats()[0]];
    act(async () => {
      seqAtAction = g.state.seq;
      sent(await post(`/seats/${seat}/left`, undefined, token));
    });
  }

  /** The host seats a computer (the catalog's first level) at an open seat nobody claimed. */
  function seatComputer(seat) {
    const level = g.entry.levels[0].number;
    act(async () => keeper.apply(await post(`/seats/${seat}/computer`, { level }, memory.hostToken(g.id))));
  }

  function close() {
    act(async () => {
      seqAtAction = g.state.seq;
      keeper.apply(await post("/close", undefined, memory.hostToken(g.id)));
    });
  }

  function claim(seat, name) {
    name = (name || "").trim();
    if (!name) return say("Type your name first.");
    memory.name = name;
    act(async () => {
      const answer = await post(`/seats/${seat}`, { name });
      memory.remember(g.id, { seats: { [seat]: answer.token } });
      g.tokens = memory.tokens(g.id);
      keeper.follow();
      await keeper.fetch();
    });
  }

  function rematch() {
    const mine = Object.keys(g.tokens);
    const token = g.tokens[mine[0]] || memory.hostToken(g.id);
    act(async () => {
      const answer = await post("/rematch", undefined, token);
      // Same people at the same seats keep the same credentials.
      memory.remember(answer.id, { seats: g.tokens, host: memory.hostToken(g.id) });
      location.hash = `#/game/${answer.id}`;
    });
  }

  return { play, hint, undo, answerUndo, action, leave, declareLeft, seatComputer, close, claim, rematch };
}
