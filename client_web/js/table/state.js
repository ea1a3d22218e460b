// The table's state from the host, in seq order. States come three ways: pushed by the live
// link, fetched with GET, and in the answer to a command; an older picture than the one shown
// is dropped, and so is an event's push at the seq shown (a command's answer brought it). Seat
// changes (claims, presence) keep the same seq, so a GET answer that set out before a pushed
// state arrived may be older than it: such an answer is dropped too.

import { api } from "../api.js";
import { follow } from "../net.js";

/** Keeps `g.state`: {apply, fetch, follow}. `on`: changed() after a new state, render(),
 *  thinking() when a computer starts or stops thinking, say(text), failed(err) for a GET. */
export function stateKeeper(g, v, on) {
  function apply(s) {
    if (!s || s.id !== g.id) return;
    if (g.state && s.seq < g.state.seq) return; // an older picture than the one shown
    const seqChanged = !g.state || s.seq !== g.state.seq;
    g.state = s;
    if (seqChanged) on.say("");
    if (v.activeSeat()) g.lastActive = v.activeSeat();
    on.changed();
  }

  let pushes = 0;
  const pushed = (s) => {
    pushes += 1;
    apply(s);
  };

  async function fetch() {
    const mark = pushes;
    try {
      const s = await api("GET", `/games/${g.id}`);
      if (mark !== pushes && g.state && s.seq <= g.state.seq) return;
      apply(s);
    } catch (err) {
      on.failed(err);
    }
  }

  /** The live link: the host's pushes, takeback requests, presence and thinking. */
  function followTable() {
    follow(g.id, g.tokens, {
      lastSeq: () => (g.state ? g.state.seq : 0),
      onJoin: (ack) => {
        if (!ack || ack.ok === false) {
          if (ack?.error) on.say(ack.error.message);
          return fetch();
        }
        if (ack.state) pushed(ack.state);
        else fetch();
      },
      onEvent: (msg) => {
        if (!msg.state) return fetch();
        // an event's state at the seq shown came in a command's answer (or a read) already
        if (msg.event && g.state && msg.state.seq <= g.state.seq) return;
        pushed(msg.state);
      },
      onUndoRequest: (msg) => {
        if (!g.state) return;
        g.state.undo_request = msg.undo_request || null;
        if (msg.dropped && g.tokens[msg.dropped.seat] && msg.reason === "declined") on.say("The takeback was refused.");
        if (msg.dropped && msg.reason === "timeout" && g.tokens[msg.dropped.seat]) on.say("Nobody answered the takeback request.");
        on.render();
      },
      onPresence: (msg) => {
        if (!g.state) return;
        for (const p of msg.seats || []) Object.assign(g.state.seats[p.seat - 1] || {}, p);
        on.render();
      },
      onThinking: (msg) => {
        g.thinking[msg.seat] = !!msg.thinking;
        if (g.state) on.thinking();
      },
    });
  }

  return { apply, fetch, follow: followTable };
}
