// The computer's review of a finished game in the replay viewer: the Analyse button, a
// progress bar while the host works (the replay stays usable), the graph of the estimate move
// by move from the first player's side, a label on every move of the move list with a count
// per player, and "Show the better move" at any reviewed move.
//
// Everything comes from the host: `POST /api/games/{id}/analysis` starts it, `GET` reads it,
// and the game's room pushes `analysis` (the same body) as it goes; the unit of the values
// ("win": a win chance, "points": a score difference) is the host's. A socket that cannot
// connect falls back to asking GET again. The board module draws the better move
// (`previewMove(move, seat)`) on the position before the move.

import { api, HostError } from "../api.js";
import { h } from "../dom.js";
import { evalGraph } from "./graph.js";

const POLL_MS = 1000; // only without the socket
const MARKS = { book: "book", best: "best", good: "good", inaccuracy: "?!", mistake: "?", blunder: "??" };
const COUNTED = ["inaccuracy", "mistake", "blunder"];
const plural = (n, word) => (n === 1 ? `${n} ${word}` : `${n} ${word.replace(/y$/, "ie")}s`);

/** The socket.io client, loaded once, only when an analysis is followed. */
let ioLoading = null;
function loadIo() {
  if (typeof window.io === "function") return Promise.resolve(window.io);
  ioLoading ||= new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = "/vendor/socket.io.min.js";
    s.onload = () => (typeof window.io === "function" ? resolve(window.io) : reject(new Error("no socket")));
    s.onerror = () => reject(new Error("no socket"));
    document.head.append(s);
  });
  return ioLoading;
}

/** A value in words, from the mover's side: "62 %" or "+3". */
function worded(v, unit) {
  if (unit === "win") return `${Math.round(v * 100)} %`;
  const r = Math.round(v * 10) / 10;
  return `${r > 0 ? "+" : r < 0 ? "−" : ""}${Math.abs(r)}`;
}
function lossWords(loss, unit) {
  if (unit === "win") return `${Math.round(loss * 100)} % of win chance`;
  const r = Math.round(loss * 10) / 10;
  return plural(r, "point");
}

/**
 * ctx: {gameId, go(i), redraw(), colourFill(colour), colourMark(colour)}. Returns {el, graphBox,
 * setData(data), decorate(moveList), mark(index), better(index)}: `better(index)` is what the
 * board should show at frame `index` instead of the frame (null: the frame itself).
 */
export function createReview(ctx) {
  let data = null; // the replay's data
  let body = null; // the host's analysis
  let socket = null;
  let poll = null;
  let showing = null; // the frame index whose better move is on the board
  let index = 0;
  let graph = null;
  let points = []; // the frame each graph point stands for

  const button = h("button.btn.small.primary", { type: "button", "data-testid": "review-analyse",
    onclick: () => start() }, "Analyse");
  const progress = h("progress.rv-progress", { max: 1, value: 0, "data-testid": "review-progress",
    "aria-label": "Analysis progress", hidden: true });
  const status = h("p.note", { "data-testid": "review-status", "aria-live": "polite" });
  const counts = h("div.rv-counts", { "data-testid": "review-counts" });
  const betterText = h("p.rv-better-text", { "data-testid": "review-better-text", "aria-live": "polite" });
  const betterBtn = h("button.btn.small", { type: "button", "data-testid": "review-better", hidden: true,
    "aria-pressed": "false", onclick: () => toggleBetter() }, "Show the better move");
  const legend = h("p.note.rv-legend", { hidden: true },
    "?! inaccuracy · ? mistake · ?? blunder");
  const graphBox = h("div.chart.rv-graph-box", { "data-testid": "review-graph-box", hidden: true });
  const el = h("section.card.rv-review", { "aria-label": "Computer review", "data-testid": "review", hidden: true },
    h("h3", {}, "Computer review"), h("div.controls", {}, button, progress), status, counts, legend,
    h("div.rv-better", {}, betterBtn, betterText));

  const plies = () => body?.plies || [];
  const frameOfSeq = () => new Map((data?.frames || []).map((f) => [f.seq, f.index]));
  const plyAt = (i) => {
    const f = data?.frames[i];
    return f && f.kind === "move" ? plies().find((p) => p.seq === f.seq) || null : null;
  };

  // ---- the host ------------------------------------------------------------------------
  let asked = false; // the host asked once where the review stands (the game over)
  async function setData(fresh) {
    data = fresh;
    el.hidden = !data.over;
    if (asked || el.hidden) return paint();
    asked = true;
    // the replay says whether there is a review: none, and GET would only answer 404
    if (!data.analysis || data.analysis === "none") return paint();
    try {
      apply(await api("GET", `/games/${encodeURIComponent(ctx.gameId)}/analysis`));
    } catch (err) {
      if (!(err instanceof HostError && err.status === 404)) status.textContent = err.message;
      paint();
    }
  }

  async function start() {
    button.disabled = true;
    status.textContent = "Asking the host…";
    try {
      apply(await api("POST", `/games/${encodeURIComponent(ctx.gameId)}/analysis`));
    } catch (err) {
      status.textContent = err.message;
      button.disabled = false;
    }
  }

  function apply(fresh) {
    if (!fresh || (fresh.game_id && fresh.game_id !== ctx.gameId)) return;
    // a push can overtake a slower answer: never go back to fewer moves reviewed
    const going = (b) => b.status === "queued" || b.status === "running";
    if (body && body.status === "done" && fresh.status !== "done") return;
    if (body && going(body) && going(fresh) && (fresh.plies || []).length < plies().length) return;
    body = fresh;
    if (body.status === "queued" || body.status === "running") follow();
    else unfollow();
    paint();
    ctx.redraw();
  }

  function follow() {
    if (socket || poll) return;
    loadIo().then((io) => {
      if (body?.status === "done" || body?.status === "failed") return;
      socket = io({ transports: ["websocket", "polling"], reconnectionDelay: 300, timeout: 5000 });
      socket.on("analysis", apply);
      socket.on("connect", () => {
        socket.timeout(5000).emit("join", { game_id: ctx.gameId, last_seq: data.seq }, (err) => {
          if (err) return pollNow();
          // what was reviewed before the room took this socket in
          api("GET", `/games/${encodeURIComponent(ctx.gameId)}/analysis`).then(apply, () => {});
        });
      });
      socket.on("connect_error", pollNow);
    }, pollNow);
  }

  function pollNow() {
    if (poll || !body || body.status === "done" || body.status === "failed") return;
    socket?.disconnect();
    socket = null;
    const again = async () => {
      try {
        apply(await api("GET", `/games/${encodeURIComponent(ctx.gameId)}/analysis`));
      } catch (err) {
        status.textContent = err.message;
      }
      if (body && (body.status === "queued" || body.status === "running")) poll = setTimeout(again, POLL_MS);
      else poll = null;
    };
    poll = setTimeout(again, POLL_MS);
  }

  function unfollow() {
    if (socket) {
      socket.emit("unjoin", { game_id: ctx.gameId });
      socket.disconnect();
      socket = null;
    }
    clearTimeout(poll);
    poll = null;
  }

  // ---- drawing -------------------------------------------------------------------------
  function paint() {
    if (!data) return;
    const st = body?.status || null;
    const running = st === "queued" || st === "running";
    button.hidden = st === "done" || running;
    button.disabled = false;
    progress.hidden = !running;
    progress.value = body?.progress || 0;
    el.dataset.status = st || "none";
    status.textContent = !st ? "The computer can review every move of this game."
      : st === "queued" ? "Waiting for the computer…"
        : st === "running" ? `Reviewing: ${Math.round((body.progress || 0) * 100)} %`
          : st === "failed" ? `The review failed${body.error ? `: ${body.error}` : ""}.`
            : `Reviewed ${plural(plies().length, "move")}${body.unit === "win" ? " (win chance)" : " (points)"}.`;
    if (st === "failed") button.hidden = false;
    paintCounts();
    paintGraph();
    legend.hidden = !plies().length;
    paintBetter();
  }

  /** "Pia: 2 mistakes, 1 blunder", per player (a player with several seats once). */
  function paintCounts() {
    const by = new Map();
    for (const p of plies()) {
      const name = data.players[p.seat - 1] || `Seat ${p.seat}`;
      if (!by.has(name)) by.set(name, { seat: p.seat, n: {} });
      const c = by.get(name).n;
      c[p.label] = (c[p.label] || 0) + 1;
    }
    counts.replaceChildren(...[...by].map(([name, { seat, n }]) => {
      const bits = COUNTED.filter((l) => n[l]).map((l) => plural(n[l], l));
      return h("p.rv-count", { "data-testid": `review-count-${seat}` },
        `${name}: ${bits.length ? bits.join(", ") : "no inaccuracies"}`);
    }));
  }

  /** Whose side a seat is on: with seat 1 (same colour or same player) or not; two sides
   * when every other seat is one colour or one player. */
  function sides() {
    const n = data.players.length;
    const withFirst = (s) => s === 1 || data.colours[s - 1] === data.colours[0] || data.players[s - 1] === data.players[0];
    const others = [...Array(n).keys()].map((i) => i + 1).filter((s) => !withFirst(s));
    const two = n === 2 || new Set(others.map((s) => data.colours[s - 1])).size === 1
      || new Set(others.map((s) => data.players[s - 1])).size === 1;
    return { two, withFirst };
  }

  function paintGraph() {
    const list = plies();
    const frames = frameOfSeq();
    const shown = list.filter((p) => frames.has(p.seq));
    graphBox.hidden = !shown.length;
    if (!shown.length) {
      graph = null;
      graphBox.replaceChildren();
      return;
    }
    const unit = body.unit || "points";
    const { two, withFirst } = sides();
    const flip = (v) => (unit === "win" ? 1 - v : -v);
    points = [Math.max(0, frames.get(shown[0].seq) - 1), ...shown.map((p) => frames.get(p.seq))];
    let lines;
    if (two) {
      const first = (v, seat) => (withFirst(seat) ? v : flip(v));
      const values = [first(shown[0].value_before, shown[0].seat), ...shown.map((p) => first(p.value_after, p.seat))];
      const who = data.players[0];
      lines = [{ label: who, colour: ctx.colourFill(data.colours[0]), values }];
    } else {
      // more than two sides: each seat's own estimate, kept from its last move
      lines = data.players.map((name, i) => {
        const seat = i + 1;
        let now = shown.find((p) => p.seat === seat)?.value_before ?? (unit === "win" ? 1 / data.players.length : 0);
        const values = [now, ...shown.map((p) => (p.seat === seat ? (now = p.value_after) : now))];
        return { label: name, colour: ctx.colourFill(data.colours[i]), values };
      });
    }
    ending(lines, unit, two);
    const what = unit === "win" ? "win chance" : "expected score difference";
    const label = two ? `${data.players[0]}'s ${what} after each move` : `Each player's ${what} after each move`;
    graph = evalGraph(lines, { unit, label, testid: "review-graph", onPick: (i) => ctx.go(points[i]) });
    graphBox.replaceChildren(h("h3", {}, two ? `${data.players[0]}'s ${what}` : `Each player's ${what}`), graph.el);
    mark(index);
  }

  /** The graph's last point is how the game ended (the host's `end_value`, from seat 1's
   * side), however it ended: the last frame, or the last move's point when the game ended
   * on it. With more than two sides, the other seats' lines end at their own results. */
  function ending(lines, unit, two) {
    const end = body.end_value;
    const f = data.frames.at(-1);
    if (end === undefined || end === null || !f.result) return;
    const own = (seat) => {
      if (seat === 1) return end;
      const r = f.result.results?.[seat - 1];
      return unit === "win" && r ? { win: 1, draw: 0.5 }[r] ?? 0 : null;
    };
    const extra = points.at(-1) !== f.index;
    if (extra) points.push(f.index);
    lines.forEach((line, i) => {
      const v = two ? end : own(i + 1) ?? line.values.at(-1);
      if (extra) line.values.push(v);
      else line.values[line.values.length - 1] = v;
    });
  }

  /** A label on each reviewed move's button in the move list. */
  function decorate(moveList) {
    const frames = frameOfSeq();
    for (const p of plies()) {
      const i = frames.get(p.seq);
      const b = i === undefined ? null : moveList.querySelector(`button[data-index="${i}"]`);
      if (!b) continue;
      b.querySelector(".rv-label")?.remove();
      b.dataset.label = p.label;
      b.append(h(`span.rv-label.l-${p.label}`, { "data-testid": `review-label-${i}`, "data-label": p.label,
        title: p.label, "aria-label": p.label }, MARKS[p.label] || p.label));
    }
  }

  function mark(i) {
    index = i;
    if (showing !== null && showing !== i) showing = null;
    if (graph) {
      let at = 0;
      points.forEach((f, k) => { if (f <= i) at = k; });
      graph.mark(at);
    }
    paintBetter();
  }

  // ---- the better move -----------------------------------------------------------------
  function paintBetter() {
    const p = plyAt(index);
    const unit = body?.unit || "points";
    if (!p) {
      betterBtn.hidden = true;
      betterText.textContent = plies().length ? "Pick a move to see what the computer thinks of it." : "";
      return;
    }
    const who = data.players[p.seat - 1];
    const mark_ = p.label === "best" || p.label === "book" ? p.label : `${p.label} (${lossWords(p.loss, unit)} lost)`;
    const same = !p.best || p.best.toLowerCase() === p.move.toLowerCase();
    betterBtn.hidden = same;
    betterBtn.setAttribute("aria-pressed", String(showing === index));
    betterBtn.textContent = showing === index ? "Show the move played" : "Show the better move";
    if (same) {
      betterText.textContent = `${who}: ${p.move} — ${mark_}. The computer's move too.`;
    } else if (showing === index) {
      betterText.textContent = `Better: ${p.best} — ${worded(p.value_before, unit)} for ${who} instead of ` +
        `${worded(p.value_after, unit)} after ${p.move} (${lossWords(p.loss, unit)} more).`;
    } else {
      betterText.textContent = `${who}: ${p.move} — ${mark_}. The computer prefers ${p.best}.`;
    }
  }

  function toggleBetter() {
    showing = showing === index ? null : index;
    ctx.redraw();
    paintBetter();
    ctx.reveal?.();
  }

  /** What the board shows at frame `i` while the better move is on: the frame before the
   * move, and the move to draw on it. */
  function better(i) {
    if (showing !== i) return null;
    const p = plyAt(i);
    if (!p || i === 0) return null;
    return { frame: i - 1, move: p.best, seat: p.seat };
  }

  return { el, graphBox, setData, decorate, mark, better, destroy: unfollow };
}
