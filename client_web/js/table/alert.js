// "Your turn": the title and favicon marked while it is this phone's turn ("Your turn, Ann · …"
// on a hot-seat phone), and a chime and a buzz (js/notify.js, as the settings allow) once a
// turn that came from elsewhere (another phone's or the computer's move, the game starting);
// never for a watcher, the state a table opens on, or a turn this phone's own move gave it.
// And a player's clock running low: two buzzes (docs/boards.md).

import { title } from "../dom.js";
import { callPlayer, mark, readyAudio, unmark } from "../notify.js";
import { settings } from "../settings.js";

/** This phone's player's clock running low: two buzzes, as the settings allow (not before
 *  the page's first tap, which Chrome refuses). */
export function lowClockAlert() {
  if (settings().vibrate && (navigator.userActivation?.hasBeenActive ?? true)) navigator.vibrate?.([120, 80, 120]);
}

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
