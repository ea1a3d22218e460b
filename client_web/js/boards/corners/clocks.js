// Corners' two clocks above the board. They are the host's: on every state they are set again
// from `remaining_ms` and `running_since_ms`, and the running one counts down between states.
// Each under its player's name; under LOW_MS red, and this phone's running one buzzes once.

import { h } from "/js/dom.js";
import { seatName } from "/js/seats.js";

export const LOW_MS = 10_000;

/** "m:ss", or "s.t" in the last twenty seconds. */
export function clockText(ms) {
  ms = Math.max(0, ms);
  if (ms < 20_000) return `0:${String(Math.floor(ms / 1000)).padStart(2, "0")}.${Math.floor((ms % 1000) / 100)}`;
  const s = Math.ceil(ms / 1000);
  const hours = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/**
 * opts: {readOnly, colourOf(seat), nameOf(seat), mark(colour)}. Returns {el, set(state,
 * turned, active), stop()}: `set` shows the state's clocks, the side at the top of the board
 * first; `active`: the seat this phone plays on its turn.
 */
export function createClocks(opts) {
  const el = h("div.cn-clocks", { "data-testid": "clocks", hidden: true });
  let clock = null; // {remaining: [ms, ms], running, at: performance.now() when set}
  let ticker = null;
  let names = ["", ""]; // the players' (a guest's: its colour)
  let mine = null;
  const shown = [null, null]; // each clock's time at the last tick

  function set(state, turned, active = null) {
    mine = active;
    names = [1, 2].map((seat) => seatName(state.seats?.[seat - 1]) || opts.nameOf(seat));
    const c = state.board.clock;
    el.hidden = !c;
    if (!c) {
      clock = null;
      stop();
      return;
    }
    const remaining = [...c.remaining_ms];
    const running = opts.readOnly || state.result ? null : c.running;
    if (running && c.running_since_ms != null) {
      // The host's epoch: its own time if it says it (now_ms), else this phone's clock, never
      // counting back before the host started it.
      const hostNow = state.now_ms ?? c.now_ms ?? state.server_time_ms;
      const elapsed = hostNow != null ? hostNow - c.running_since_ms : Date.now() - c.running_since_ms;
      remaining[running - 1] -= Math.max(0, elapsed);
    }
    clock = { remaining, running, at: performance.now() };
    if (!el.firstChild) {
      el.replaceChildren(...[1, 2].map((seat) => h("div.cn-clock", { "data-testid": `clock-${seat}` },
        h(`span.chip.c-${opts.colourOf(seat)}`, { "aria-hidden": "true" }, opts.mark(opts.colourOf(seat))),
        h("span.cn-who", { "data-testid": `clock-${seat}-name` }), h("span.cn-time", { "data-testid": `clock-${seat}-time` }))));
    }
    for (const seat of [1, 2]) el.querySelector(`[data-testid=clock-${seat}-name]`).textContent = names[seat - 1];
    for (const seat of turned ? [1, 2] : [2, 1]) el.append(el.querySelector(`[data-testid=clock-${seat}]`));
    tick();
    if (running && !ticker) ticker = setInterval(tick, 100);
    if (!running) stop();
  }

  function stop() {
    clearInterval(ticker);
    ticker = null;
  }

  function tick() {
    if (!clock) return;
    for (const seat of [1, 2]) {
      let ms = clock.remaining[seat - 1];
      if (clock.running === seat) ms -= performance.now() - clock.at;
      const box = el.querySelector(`[data-testid=clock-${seat}]`);
      if (!box) continue;
      box.dataset.running = String(clock.running === seat);
      box.classList.toggle("low", ms < LOW_MS);
      const was = shown[seat - 1];
      shown[seat - 1] = ms;
      // the alert is the table's module (loaded already on a phone; never on /tv: no seat there)
      if (clock.running === seat && seat === mine && was >= LOW_MS && ms < LOW_MS) {
        import("/js/table/alert.js").then((m) => m.lowClockAlert());
      }
      const text = clockText(ms);
      const t = box.querySelector(".cn-time");
      if (t.textContent !== text) t.textContent = text;
      const colour = opts.nameOf(seat);
      const who = names[seat - 1] === colour ? colour : `${names[seat - 1]} (${colour})`;
      box.setAttribute("aria-label", `${who}'s clock ${text}${clock.running === seat ? ", running" : ""}${ms < LOW_MS ? ", under ten seconds" : ""}`);
    }
  }

  return { el, set, stop };
}
