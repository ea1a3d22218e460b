// The replay viewer: /replay.html?game=<id> (a game on this host, running or finished) or
// ?import=<id> (a record imported with POST /api/replays); without either, an import form.
// Every fact (board, whose turn, scores, result) comes from the host's replay data (its frames
// made whole on arrival, frames.js); the board is drawn by the game's own board module from
// each frame alone, as a watcher's screen draws a table (boards/watch.js, not live), the
// export links are the game's formats from the catalog (and the JSON log).

import { HostError, newestOnly } from "./api.js";
import { catalog, colourFill, colourMark, gameEntry, loadBoard } from "./catalog.js";
import { h, title } from "./dom.js";
import { expandFrames } from "./frames.js";
import { lineChart } from "./charts.js";
import { resultText } from "./results.js";
import { createReview } from "./review/review.js";
import { watchBoard } from "./boards/watch.js";

const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1000; // one move a second at 1×
const POLL_MS = 3000; // a running game's replay is fetched again this often

const params = new URLSearchParams(location.search);
// How many of the host's replay answers came, shown or dropped (a page signal for tests).
const answers = { count: 0 };
window.ccReplay = answers;
const root = document.getElementById("view");

/** A frame as the board module sees a state: the same board view and seat views. */
function frameState(f) {
  return { seq: f.seq, board: f.board, seats: f.seats || [], to_move: f.to_move, result: f.result,
    last_move: f.kind === "move" && f.move ? { seat: f.seat, move: f.move, seq: f.seq } : null };
}

/** A frame in words: a move as the game's board module words it, anything else in the
 *  host's words for the step (`text`, its seat's name put before it). */
function moveLabel(f, data, board) {
  const who = data.players[f.seat - 1];
  if (f.kind === "move") return `${who}: ${board?.describeMove?.(f) || f.move}`;
  if (f.kind === "start") return "Start";
  if (f.text) return f.seat ? `${who} ${f.text}` : f.text;
  return f.seat ? `${who}: ${f.kind.replace(/_/g, " ")}` : board?.describeMove?.(f) || f.kind.replace(/_/g, " ");
}

/** A move's words, each kept whole: a line breaks between words, never inside a move
 *  ("o15-m13"), and a word longer than the list is cut short (the button's title has it). */
const words = (text) => text.split(" ").flatMap((w, i) => [i ? " " : "", h("span.rv-word", {}, w)]);

/** What the counter counts, the same as the move list numbers: for a board that numbers
 *  its moves in rows (numberMove), the number of the move in play at each frame (a row
 *  not yet full is in play; a full one has the next number in play), as the board's own
 *  move number says; else the frames, as the list numbers them. */
function counting(data, board) {
  if (!board?.numberMove) return null;
  let number = 1;
  let row = null;
  let inRow = 0;
  let any = false;
  const at = data.frames.map((f) => {
    const numbered = f.kind === "move" && !f.taken_back ? board.numberMove(f) : null;
    if (numbered) {
      any = true;
      inRow = numbered.number === row ? inRow + 1 : 1;
      row = numbered.number;
      number = inRow >= data.players.length ? row + 1 : row;
    }
    return number;
  });
  return any ? at : null;
}

const hostEnded = (result) => result.reason === "closed" || result.reason === "cancelled";

/** Who won, from the host's results and teams (results.js): "Game over: Cleo wins". */
function resultLine(result, data) {
  if (result.reason === "closed") return "The host closed this game: nobody won, nothing counts";
  if (result.reason === "cancelled") return "The host cancelled this game: nobody won, nothing counts";
  if (result.reason === "everyone_left") return "Game over: everyone left, nobody won";
  const who = resultText(result, (s) => data.players[s - 1], true);
  return who ? `Game over: ${who}` : "Game over: nobody won";
}

function mountViewer(source, id) {
  const base = source === "game" ? `/games/${encodeURIComponent(id)}` : `/replays/${encodeURIComponent(id)}`;
  const replayPath = source === "game" ? `${base}/replay` : base;
  let data = null;
  let index = 0;
  let renders = 0; // render() calls, so that a late "Set up from here" answer is dropped
  let showTakebacks = false;
  let speed = 1;
  let timer = null;
  let poll = null;

  const heading = h("h1", { "data-testid": "replay-title" }, "Replay");
  // a practice game (unrated, never on the ladder), as the host says
  const practiceBadge = h("span.tag", { "data-testid": "replay-practice", hidden: true }, "practice");
  // "Set up from here": the position shown, in the lobby's editor (a board module's setupOf)
  const setupLink = h("a.btn.small", { "data-testid": "replay-setup", hidden: true,
    title: "Start a game from the position shown" }, "Set up from here");
  const error = h("p.error", { role: "alert", "data-testid": "replay-error" });
  const boardBox = h("div.rv-board", { "data-testid": "replay-board", role: "img", "aria-label": "Board" });
  const counter = h("span.rv-counter", { "data-testid": "replay-counter", "aria-live": "polite" });
  const status = h("div.rv-status", { "data-testid": "replay-status" });
  const turn = h("p.note", { "data-testid": "replay-turn" });
  const result = h("p.rv-result", { "data-testid": "replay-result", hidden: true });
  const ending = h("p.note", { "data-testid": "replay-ending", hidden: true }); // the game's words
  const slider = h("input.rv-slider", { type: "range", min: 0, max: 0, value: 0, "data-testid": "replay-slider",
    "aria-label": "Jump to move", oninput: (e) => go(Number(e.target.value)) });
  const moveList = h("ol.rv-moves", { "data-testid": "replay-moves", "aria-label": "Moves" });
  const chartBox = h("div.chart", { "data-testid": "replay-chart-box" });
  const links = h("div.controls", { "data-testid": "replay-links" });
  const takebacksBox = h("input", { type: "checkbox", "data-testid": "replay-takebacks",
    onchange: (e) => { showTakebacks = e.target.checked; load(true); } });
  const takebacksLabel = h("label.field", {}, takebacksBox, "Show takebacks");
  const btn = (label, testid, onclick, text) => h("button.btn.small", { type: "button", "aria-label": label, "data-testid": testid, onclick }, text);
  const playBtn = btn("Play", "replay-play", () => (timer ? stop() : play()), "▶ Play");
  const speedSel = h("select", { "data-testid": "replay-speed", "aria-label": "Autoplay speed",
    onchange: (e) => { speed = Number(e.target.value); if (timer) { stop(); play(); } } },
  SPEEDS.map((s) => h("option", { value: s }, `${s}×`)));
  speedSel.value = "1";
  let chart = null;
  /** @type {import("./boards/contract.js").WatchedBoard|null} the game's board module, drawing frames read-only */
  let watched = null;
  /** @type {import("./boards/contract.js").Board|null} its board (describeMove, numberMove, previewMove) */
  let board = null;
  let entry = null; // the game's catalog line
  let boardGame = null;
  /** @type {import("./boards/contract.js").BoardModule|null} its exports (setupOf) */
  let boardModule = null;
  let numbers = null; // the counter's number per frame (counting), or null: the frame's index
  // The computer's review of a finished game on this host (review/review.js).
  const review = source === "game" ? createReview({ gameId: id, go: (i) => { stop(); go(i); },
    redraw: () => { if (data) { review.decorate(moveList); render(); } }, reveal: boardInView,
    colourFill, colourMark }) : null;

  /** The board back in view when a move is picked below it (the move list, "Show the better
   *  move" on a phone): scrolled in if less than half of it shows. */
  function boardInView() {
    const r = boardBox.getBoundingClientRect();
    const seen = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    if (seen < Math.min(r.height, innerHeight) / 2) boardBox.scrollIntoView({ block: "nearest" });
  }

  function go(i) {
    if (!data) return;
    index = Math.max(0, Math.min(i, data.frames.length - 1));
    render();
  }
  function play() {
    if (!data) return;
    if (index >= data.frames.length - 1) go(0);
    playBtn.textContent = "⏸ Pause";
    playBtn.setAttribute("aria-label", "Pause");
    timer = setInterval(() => {
      if (index >= data.frames.length - 1) return stop();
      go(index + 1);
    }, STEP_MS / speed);
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    playBtn.textContent = "▶ Play";
    playBtn.setAttribute("aria-label", "Play");
  }

  function render() {
    const last = data.frames.length - 1;
    // "Show the better move": the position before the move, with the computer's move drawn;
    // the seats, whose turn and the result then tell of that position
    const better = board?.previewMove ? review?.better(index) : null;
    const f = data.frames[better ? better.frame : index];
    watched?.render(frameState(f));
    if (better) board.previewMove(better.move, better.seat);
    boardBox.setAttribute("aria-label", numbers ? `Board at move ${numbers[index]}` : `Board after move ${index}`);
    counter.textContent = numbers ? `Move ${numbers[index]} / ${numbers[last]}` : `Move ${index} / ${last}`;
    slider.max = last;
    slider.value = index;
    status.replaceChildren(...data.players.map((name, i) => {
      const colour = data.colours[i];
      return h(`span.rv-seat${f.to_move === i + 1 ? ".to-move" : ""}${f.left.includes(i + 1) ? ".gone" : ""}`,
        { "data-testid": `replay-seat-${i + 1}` },
        h(`span.chip.c-${colour}`, { "aria-hidden": "true" }, colourMark(colour)),
        `${name}: `, h("b", { "data-testid": `replay-score-${i + 1}` }, String(f.scores[i])),
        f.left.includes(i + 1) ? " (left)" : "");
    }));
    turn.textContent = better ? `${data.players[better.seat - 1]} to move: the computer's ${better.move} shown`
      : f.to_move ? `${data.players[f.to_move - 1]} to move` : (f.result ? "" : "Nobody to move");
    result.hidden = !f.result;
    result.textContent = f.result ? resultLine(f.result, data) : "";
    ending.hidden = !f.result?.ending || hostEnded(f.result);
    ending.textContent = ending.hidden ? "" : f.result.ending;
    for (const b of moveList.querySelectorAll("button[data-index]")) {
      const current = Number(b.dataset.index) === index;
      b.setAttribute("aria-current", String(current));
      if (current && moveList.scrollHeight > moveList.clientHeight) {
        moveList.scrollTop = b.offsetTop - moveList.clientHeight / 2; // the list only, not the page
      }
    }
    if (chart) chart.mark(index);
    review?.mark(index);
    setupLink.hidden = true;
    const drawn = ++renders;
    Promise.resolve(better ? null : boardModule?.setupOf?.(f)).then((setup) => { // it may load
      if (drawn !== renders || !setup?.setup) return; // another render since
      setupLink.hidden = false;
      setupLink.href = `/#/setup/${encodeURIComponent(data.game)}/${encodeURIComponent(data.variant)}/`
        + encodeURIComponent(setup.setup);
    });
  }

  function build() {
    const kind = data.source === "import" ? "Imported replay" : "Replay";
    const variant = entry?.variants.find((v) => v.name === data.variant);
    heading.textContent = `${kind} · ${data.title || entry?.title || data.game} · ${variant?.label || title(data.variant)} · ${data.players.join(", ")}`;
    document.title = heading.textContent;
    practiceBadge.hidden = !data.practice;
    const frameButton = (f, label, number = true) => h("button", { type: "button", "data-index": f.index,
      "data-testid": `replay-move-${f.index}`, title: moveLabel(f, data, board),
      onclick: () => { stop(); go(f.index); boardInView(); } },
    number ? h("span", {}, String(f.index)) : null,
    f.seat ? h(`span.chip.c-${data.colours[f.seat - 1]}`, { "aria-hidden": "true" }, colourMark(data.colours[f.seat - 1])) : null,
    h("span.rv-move-text", {}, words(label)));
    // A board that numbers its moves (numberMove → {number, text}) has them listed in rows by
    // number, as its table writes them ("12. c3-e3-e5 f6-e6"); else a line per frame.
    numbers = counting(data, board);
    const rows = [];
    for (const f of data.frames) {
      const numbered = f.kind === "move" && !f.taken_back ? board?.numberMove?.(f) : null;
      const last = rows.at(-1);
      if (numbered && last?.number === numbered.number && last.frames.length < data.players.length) {
        last.frames.push([f, numbered]);
      } else rows.push({ number: numbered?.number ?? null, frames: [[f, numbered]] });
    }
    moveList.replaceChildren(...rows.map((row) => {
      const [f] = row.frames[0];
      if (row.number === null) {
        // in a list numbered by moves, the other steps have no number of their own
        return h(`li${f.taken_back ? ".withdrawn" : ""}`, { "data-index": f.index },
          frameButton(f, moveLabel(f, data, board), !numbers));
      }
      return h("li.rv-pair", { "data-index": f.index, "data-number": row.number },
        h("span.rv-number", {}, `${row.number}.`),
        row.frames.map(([fr, numbered]) => frameButton(fr, numbered.text, false)));
    }));
    // Corners' score (pieces in the target) stands at 0 most of a game: its chart is the
    // distance each side's pieces still have to go, as the host counts it
    const distance = data.series.distance;
    chart = lineChart(data.players.map((name, i) => ({ label: name, colour: colourFill(data.colours[i]),
      values: (distance || data.series.scores)[i] })), { testid: "replay-chart", label: distance
      ? "Steps each side's pieces still have to go, after each move" : "Score after each move, per seat" });
    chartBox.replaceChildren(h("h3", {}, distance ? "Distance left over the game" : "Score over the game"), chart.el);
    takebacksLabel.hidden = !data.takebacks;
    review?.decorate(moveList);
    const a = (href, text, testid, download) => h("a.btn.small", { href, "data-testid": testid, download }, text);
    const api_ = `/api${base}`;
    const name = `${data.game}-${data.id}`;
    const formats = (entry?.formats || data.formats || []).filter((f) => f.ext !== "json");
    links.replaceChildren(
      data.links?.board_svg ? a(data.links.board_svg, "Final board (SVG)", "replay-download-svg", `${name}.svg`) : "",
      ...formats.map((f) => a(`${api_}/replay.${f.ext}`, `Export .${f.ext} (${f.label})`, `replay-export-${f.ext}`, `${name}.${f.ext}`)),
      a(`${api_}/replay.json`, "Export .json", "replay-export-json", `${name}.json`));
  }

  /** The game's catalog line and board module, once (a replay's game does not change). */
  async function ensureBoard() {
    if (boardGame === data.game) return;
    boardGame = data.game;
    entry = await gameEntry(data.game);
    const mod = await loadBoard(entry);
    boardModule = mod;
    watched?.destroy();
    watched = watchBoard(mod, { el: boardBox, entry, live: false });
    board = watched.board;
  }

  // The answer to an earlier load (a poll in flight when the takebacks switch is flipped) is
  // dropped, and only the newest load sets the next poll.
  const getReplay = newestOnly(() => { answers.count += 1; });
  async function load(reset = false) {
    clearTimeout(poll);
    try {
      const fresh = await getReplay(`${replayPath}?takebacks=${showTakebacks}`);
      if (fresh === null) return;
      const atEnd = !data || index >= data.frames.length - 1;
      const first = !data;
      data = expandFrames(fresh); // every frame whole, once: the rest reads frames[i].board
      await ensureBoard();
      build();
      review?.setData(data);
      if (first) index = data.frames.length - 1;
      else if (reset || atEnd) index = data.frames.length - 1;
      go(index);
      error.textContent = "";
      poll = data.over ? null : setTimeout(() => load(), POLL_MS);
    } catch (err) {
      error.textContent = err instanceof HostError ? err.message : String(err);
    }
  }

  function onKey(e) {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range" && e.target.type !== "checkbox") return;
    const keys = { ArrowLeft: () => go(index - 1), ArrowRight: () => go(index + 1), Home: () => go(0),
      End: () => go(data.frames.length - 1), " ": () => (timer ? stop() : play()) };
    const act = keys[e.key];
    if (act && data) {
      e.preventDefault();
      if (e.key !== " ") stop();
      act();
    }
  }
  document.addEventListener("keydown", onKey);

  root.append(h("div.replay", {},
    h("header.bar", {}, heading, practiceBadge,
      h("span.controls", {}, h("a.btn.small", { href: "/ladder.html", "data-testid": "to-ladder" }, "Ladder"),
        h("a.btn.small", { href: "/", "data-testid": "to-lobby" }, "Lobby"))),
    error,
    h("div.rv", {},
      h("section", { "aria-label": "Board" }, boardBox, slider,
        h("div.controls", { role: "group", "aria-label": "Replay controls" },
          btn("First move", "replay-first", () => { stop(); go(0); }, "« First"),
          btn("Back one move", "replay-back", () => { stop(); go(index - 1); }, "◀"),
          playBtn,
          btn("Forward one move", "replay-forward", () => { stop(); go(index + 1); }, "▶"),
          btn("Last move", "replay-last", () => { stop(); go(data.frames.length - 1); }, "Last »")),
        h("div.controls", {}, counter, speedSel, setupLink), review?.graphBox, review?.el),
      h("section.card", { "aria-label": "Position" }, status, turn, result, ending, takebacksLabel,
        h("h3", {}, "Moves"), moveList)),
    h("section.card", {}, chartBox, links)));
  load();
}

function mountImport() {
  const error = h("p.error", { role: "alert", "data-testid": "import-error" });
  const note = h("p.note", { "data-testid": "import-note" }, "A game's JSON log.");
  const file = h("input", { type: "file", accept: ".json", "data-testid": "import-file",
    "aria-label": "A game record" });
  // The records this host reads: any game's JSON log, and each game's own formats.
  catalog().then(({ games }) => {
    const own = games.flatMap((g) => (g.formats || []).map((f) => ({ ...f, title: g.title })));
    file.accept = [".json", ...own.map((f) => `.${f.ext}`)].join(",");
    note.textContent = ["A game's JSON log", ...own.map((f) => `a ${f.title} .${f.ext} file (${f.label})`)].join(", or ") + ".";
  }).catch(() => {});
  async function send(e) {
    e.preventDefault();
    error.textContent = "";
    const f = file.files[0];
    if (!f) return (error.textContent = "Choose a game record first.");
    try {
      const res = await fetch("/api/replays", { method: "POST", body: await f.arrayBuffer(),
        headers: { "Content-Type": "application/octet-stream", Accept: "application/json" } });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new HostError(res.status, body);
      location.href = body.url;
    } catch (err) {
      error.textContent = err.message;
    }
  }
  root.append(h("header.bar", {}, h("h1", {}, "Watch a replay"),
    h("span.controls", {}, h("a.btn.small", { href: "/ladder.html", "data-testid": "to-ladder" }, "Ladder"),
      h("a.btn.small", { href: "/", "data-testid": "to-lobby" }, "Lobby"))),
  h("section.card.rv-import", {}, h("h2", {}, "Import a game record"), note,
    h("form", { onsubmit: send }, file, h("button.btn.primary", { type: "submit", "data-testid": "import-send" }, "View")),
    error));
}

if (params.get("game")) mountViewer("game", params.get("game"));
else if (params.get("import")) mountViewer("import", params.get("import"));
else mountImport();
