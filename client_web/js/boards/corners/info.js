// What Corners' board shows above and beside it, from the host's board view: the move number,
// the home deadline and the game limit (the solo race: the moves made and the best known),
// a practice badge, the warnings; under a seat's card its pieces in the target and at home.

import { h } from "/js/dom.js";

/** The info line's parts for the board view `b`; `nameOfSeat(seat)` names a side. */
export function infoBits(b, nameOfSeat) {
  const bits = b.solo
    ? [ // the solo race: my moves so far and the fewest known for this variant
      h("span", { "data-testid": "solo-moves" }, "Moves ", h("b", {}, String(b.solo.moves))),
      h("span", { "data-testid": "solo-best", title: b.solo.best ? `found by ${b.solo.best[1]}` : "" },
        "Best known ", h("b", {}, b.solo.best ? String(b.solo.best[0]) : "—")),
    ]
    : [
      h("span", { "data-testid": "move-number" }, "Move ", h("b", {}, String(b.move_number ?? 1))),
      h("span", { "data-testid": "home-deadline" }, "Leave home by ", h("b", {}, String(b.home_deadline ?? "—"))),
      h("span", { "data-testid": "move-limit" }, "Limit ", h("b", {}, String(b.move_limit ?? "—"))),
    ];
  if (b.practice) bits.unshift(h("span.tag", { "data-testid": "practice-badge" }, b.solo ? "Solo race" : "Practice"));
  if (b.after_deadline) bits.push(h("span.warn", { "data-testid": "after-deadline" }, "Past the deadline: a piece back home loses"));
  if (b.pending_reply) bits.push(h("span.warn", { "data-testid": "pending-reply" }, `${nameOfSeat(2)} has the last move`));
  if (b.draw_offer) bits.push(h("span.warn", { "data-testid": "draw-offer" }, `${nameOfSeat(Number(b.draw_offer))} offers a draw`));
  return bits;
}

/** Under a seat's card: its pieces in the target and still at home (`board`: the view). */
export function seatDetailOf(seat, board) {
  const v = seat.view || {};
  const homes = board?.homes || {};
  const of = (homes[String(seat.seat)] || []).length || "?";
  return h("div.cn-detail", { "data-testid": `corners-detail-${seat.seat}` },
    `In the target ${v.pieces_in_target ?? 0}/${of} · at home ${v.pieces_home ?? 0}`);
}
