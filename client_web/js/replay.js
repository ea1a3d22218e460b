// The replay viewer: /replay.html?game=<id> (a game on this host, running or finished) or
// ?import=<id> (a record imported with POST /api/replays); without either, an import form.
// Every fact (board, whose turn, scores, result) comes from the host's replay data.

import { api, HostError } from "./api.js";
import { h, COLOUR_LETTER, title } from "./dom.js";
import { COLOURS, lineChart, svg } from "./charts.js";

const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1000; // one move a second at 1×
const POLL_MS = 3000; // a running game's replay is fetched again this often

const params = new URLSearchParams(location.search);
const root = document.getElementById("view");

function boardSvg(frame, data) {
  const n = data.size;
  const last = new Set(frame.kind === "placed" && frame.move ? frame.move.split(",") : []);
  const el = svg("svg", { viewBox: `0 0 ${n} ${n}`, role: "img", "data-testid": "replay-board",
    "aria-label": `Board after move ${frame.index}` });
  el.append(svg("rect", { width: n, height: n, fill: "#dde3ec" }));
  frame.board.forEach((row, r) => {
    for (let x = 0; x < n; x++) {
      const seat = Number(row[x]);
      const cell = `${String.fromCharCode(97 + x)}${n - r}`;
      const attrs = { x, y: r, width: 1, height: 1, stroke: "#b9c2d0", "stroke-width": 0.04,
        fill: seat ? COLOURS[data.colours[seat - 1]] : "none" };
      if (seat) attrs["data-cell"] = cell;
      if (last.has(cell)) Object.assign(attrs, { stroke: "#111", "stroke-width": 0.12, "data-last": "" });
      if (seat || last.has(cell)) el.append(svg("rect", attrs));
    }
  });
  return el;
}

function moveLabel(f, data) {
  const who = data.players[f.seat - 1];
  if (f.kind === "placed") return `${who}: ${f.piece} ${f.move}`;
  if (f.kind === "left") return `${who} left`;
  if (f.kind === "takeback") return `${who} took back`;
  return "Start";
}

function resultText(result, data) {
  const names = result.winners.map((s) => data.players[s - 1]);
  if (!names.length) return "Game over: nobody won";
  return names.length > 1 ? `Game over: a draw between ${names.join(" and ")}` : `Game over: ${names[0]} wins`;
}

function mountViewer(source, id) {
  const base = source === "game" ? `/games/${encodeURIComponent(id)}` : `/replays/${encodeURIComponent(id)}`;
  const replayPath = source === "game" ? `${base}/replay` : base;
  let data = null;
  let index = 0;
  let showTakebacks = false;
  let speed = 1;
  let timer = null;
  let poll = null;

  const heading = h("h1", { "data-testid": "replay-title" }, "Replay");
  const error = h("p.error", { role: "alert", "data-testid": "replay-error" });
  const boardBox = h("div.rv-board");
  const counter = h("span.rv-counter", { "data-testid": "replay-counter", "aria-live": "polite" });
  const status = h("div.rv-status", { "data-testid": "replay-status" });
  const turn = h("p.note", { "data-testid": "replay-turn" });
  const result = h("p.rv-result", { "data-testid": "replay-result", hidden: true });
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
    const f = data.frames[index];
    const last = data.frames.length - 1;
    boardBox.replaceChildren(boardSvg(f, data));
    counter.textContent = `Move ${index} / ${last}`;
    slider.max = last;
    slider.value = index;
    status.replaceChildren(...data.players.map((name, i) => {
      const colour = data.colours[i];
      return h(`span.rv-seat${f.to_move === i + 1 ? ".to-move" : ""}${f.left.includes(i + 1) ? ".gone" : ""}`,
        { "data-testid": `replay-seat-${i + 1}` },
        h(`span.chip.c-${colour}`, { "aria-hidden": "true" }, COLOUR_LETTER[colour]),
        `${name}: `, h("b", { "data-testid": `replay-score-${i + 1}` }, String(f.scores[i])),
        f.left.includes(i + 1) ? " (left)" : "");
    }));
    turn.textContent = f.to_move ? `${data.players[f.to_move - 1]} to move` : (f.result ? "" : "Nobody to move");
    result.hidden = !f.result;
    result.textContent = f.result ? resultText(f.result, data) : "";
    for (const li of moveList.children) {
      const b = li.firstChild;
      const current = Number(li.dataset.index) === index;
      b.setAttribute("aria-current", String(current));
      if (current && moveList.scrollHeight > moveList.clientHeight) {
        moveList.scrollTop = li.offsetTop - moveList.clientHeight / 2; // the list only, not the page
      }
    }
    if (chart) chart.mark(index);
  }

  function build() {
    const kind = data.source === "import" ? "Imported replay" : "Replay";
    heading.textContent = `${kind} · ${title(data.variant)} · ${data.players.join(", ")}`;
    document.title = `${heading.textContent} · Corner Claim`;
    moveList.replaceChildren(...data.frames.map((f) => h(`li${f.taken_back ? ".withdrawn" : ""}`,
      { "data-index": f.index },
      h("button", { type: "button", "data-testid": `replay-move-${f.index}`, onclick: () => { stop(); go(f.index); } },
        h("span", {}, String(f.index)),
        f.seat ? h(`span.chip.c-${data.colours[f.seat - 1]}`, { "aria-hidden": "true" }, COLOUR_LETTER[data.colours[f.seat - 1]]) : null,
        moveLabel(f, data)))));
    chart = lineChart(data.players.map((name, i) => ({ label: name, colour: COLOURS[data.colours[i]],
      values: data.series.scores[i] })), { label: "Score after each move, per seat", testid: "replay-chart" });
    chartBox.replaceChildren(h("h3", {}, "Score over the game"), chart.el);
    takebacksLabel.hidden = !data.takebacks;
    const a = (href, text, testid, download) => h("a.btn.small", { href, "data-testid": testid, download }, text);
    links.replaceChildren(
      a(data.links.board_svg, "Final board (SVG)", "replay-download-svg", `cornerclaim-${data.id}.svg`),
      a(data.links.blksgf, "Export .blksgf", "replay-export-sgf", `cornerclaim-${data.id}.blksgf`),
      a(data.links.json, "Export .json", "replay-export-json", `cornerclaim-${data.id}.json`));
  }

  async function load(reset = false) {
    try {
      const fresh = await api("GET", `${replayPath}?takebacks=${showTakebacks}`);
      const atEnd = !data || index >= data.frames.length - 1;
      const first = !data;
      data = fresh;
      build();
      if (first) index = data.frames.length - 1;
      else if (reset || atEnd) index = data.frames.length - 1;
      go(index);
      error.textContent = "";
      clearTimeout(poll);
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
    h("header.bar", {}, heading,
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
        h("div.controls", {}, counter, speedSel)),
      h("section.card", { "aria-label": "Position" }, status, turn, result, takebacksLabel,
        h("h3", {}, "Moves"), moveList)),
    h("section.card", {}, chartBox, links)));
  load();
}

function mountImport() {
  const error = h("p.error", { role: "alert", "data-testid": "import-error" });
  const file = h("input", { type: "file", accept: ".blksgf,.sgf,.json", "data-testid": "import-file",
    "aria-label": "A .blksgf or .json game record" });
  async function send(e) {
    e.preventDefault();
    error.textContent = "";
    const f = file.files[0];
    if (!f) return (error.textContent = "Choose a .blksgf file first.");
    try {
      const res = await fetch("/api/replays", { method: "POST", body: await f.arrayBuffer(),
        headers: { "Content-Type": "application/x-blokus-sgf", Accept: "application/json" } });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new HostError(res.status, body);
      location.href = body.url;
    } catch (err) {
      error.textContent = err.message;
    }
  }
  root.append(h("header.bar", {}, h("h1", {}, "Watch a replay"), h("a.btn.small", { href: "/ladder.html" }, "Ladder")),
    h("section.card", {}, h("h2", {}, "Import a game record"),
      h("p.note", {}, "A Pentobi .blksgf file (Duo, Blokus, Blokus Three-Player) or a Corner Claim .json log."),
      h("form", { onsubmit: send }, file, h("button.btn.primary", { type: "submit", "data-testid": "import-send" }, "View")),
      error));
}

if (params.get("game")) mountViewer("game", params.get("game"));
else if (params.get("import")) mountViewer("import", params.get("import"));
else mountImport();
