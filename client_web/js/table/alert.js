// "Your turn": the table calls its player when the turn comes to a seat this phone holds. The
// page's title and favicon are marked for as long as it is this phone's turn ("Your turn ·
// Corner games"; on a hot-seat phone the person by name, "Your turn, Ann · …"), and the
// turn's coming is told once with a chime and a buzz (js/notify.js; the settings sheet turns
// either off) — once a turn, and only when the turn came from elsewhere: another phone's or
// the computer's move, or the game starting once the last seat was taken.
//
// Not called: a phone that only watches or holds no seat; the state a table opens on (the
// player is looking); a turn this phone's own move gave it (a seat that moves again, the
// others skipped, or the next person of a hot-seat phone: the phone is in hand already).

import { title } from "../dom.js";
import { callPlayer, mark, readyAudio, unmark } from "../notify.js";

/** The alert of the table `g`, read through its seat view `v`: {update(), stop()}, `update()`
 *  after every state. */
export function turnAlert(g, v) {
  let opened = false; // a state has been seen: the one the table opened on is not called
  let wasSeated = false; // this phone held a seat in the state before
  let lastTurn = null; // the turn last seen as this phone's: "seat@seq of the move before it"
  const stopAudio = g.watch ? () => {} : readyAudio(); // a watcher is never called

  function update() {
    const s = g.state;
    const seat = g.watch ? null : v.activeSeat();
    if (!seat || s.seats[seat - 1]?.kind === "computer") unmark();
    else {
      const turn = `${seat}@${s.last_move?.seq ?? 0}`;
      mark(v.isHotSeat() ? `Your turn, ${v.seatsOf()[seat - 1]?.name || title(v.colourOf(seat))}` : "Your turn");
      const mine = s.last_move && v.mySeats().includes(s.last_move.seat);
      if (opened && wasSeated && turn !== lastTurn && !mine) callPlayer();
      lastTurn = turn;
    }
    opened = !!s;
    wasSeated = v.mySeats().length > 0;
  }

  function stop() {
    unmark();
    stopAudio();
  }

  return { update, stop };
}
