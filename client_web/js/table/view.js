// Who this phone is at the table, read from the host's state and the seat tokens it holds:
// its seats, the seat to move if it is one of them, the seat its board shows, and what the
// board module is told besides the state.

import { seatName } from "../seats.js";

/** Selectors over the table `g` ({state, tokens, lastActive, busy}). */
export function seatView(g) {
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
  /** My seats that have no move left while the game goes on (the host skips their turns). */
  const outOfMoves = () => (finished() ? [] : mySeats().filter((x) => seatsOf()[x - 1]?.out_of_moves));
  /** What the board module is told besides the state. */
  const boardView = () => ({ active: activeSeat(), shown: finished() ? null : viewSeat(), busy: g.busy,
    finished: finished(), watching: mySeats().length === 0 });
  return { seatsOf, colourOf, mySeats, isHotSeat, finished, activeSeat, viewSeat, nameOf, outOfMoves, boardView };
}
