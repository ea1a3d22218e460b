// The lobby (the host page): create a game by number of players, list games to join or watch.

import { api, memory, seatTokens } from "./api.js";
import { h, COLOUR_LETTER, title } from "./dom.js";

const VARIANT_BY_PLAYERS = { 2: "duo", 3: "trio", 4: "classic" };
const COLOURS = { duo: ["blue", "green"], trio: ["blue", "yellow", "red"], classic: ["blue", "yellow", "red", "green"] };
const BOARD = { duo: "14×14", trio: "20×20", classic: "20×20" };
// The host's computer levels (engine/ai LEVELS), from GET /api/health.
let levels = [];

function seatRow(colour, i, spec, onChange) {
  const kind = h("select", { "data-testid": `seat-kind-${i}`, "aria-label": `${title(colour)} seat is played by`,
    onchange: (e) => onChange({ kind: e.target.value }) },
    h("option", { value: "open" }, "Open — someone joins"),
    h("option", { value: "local" }, "This device"),
    h("option", { value: "computer" }, "Computer"));
  kind.value = spec.kind;
  const level = h("select", { "data-testid": `seat-level-${i}`, "aria-label": `${title(colour)} computer level`,
    hidden: spec.kind !== "computer", onchange: (e) => onChange({ level: Number(e.target.value) }) },
    levels.map((l) => h("option", { value: l.number }, `Level ${l.number} · ${l.name}`)));
  level.value = spec.level;
  const name = h("input", { type: "text", maxlength: 24, placeholder: "Name", value: spec.name || "",
    "data-testid": `seat-name-${i}`, "aria-label": `${title(colour)} player's name`,
    hidden: spec.kind !== "local", oninput: (e) => onChange({ name: e.target.value }, false) });
  return h("div.seat-row", {},
    h(`span.chip.c-${colour}`, { "aria-hidden": "true" }, COLOUR_LETTER[colour]),
    h("span.seat-colour", {}, title(colour)), kind, level, name);
}

function gameLine(g) {
  const names = g.seats.map((s) => (s.kind === "computer" ? "Computer" : s.name || (s.claimed ? "Player" : "open")));
  const open = (g.open_seats || []).length;
  const label = `${title(g.variant)} · ${names.join(", ")}`;
  return h("li.game-line", { "data-testid": `game-${g.id}` },
    h("span.game-desc", {}, label, open ? h("span.tag", {}, `${open} open`) : null),
    h("span.game-actions", {},
      open && g.status === "open"
        ? h("a.btn.primary", { href: `#/game/${g.id}`, "data-testid": `join-${g.id}`, "aria-label": `Join ${label}` }, "Join")
        : null,
      g.status !== "finished"
        ? h("a.btn", { href: `#/game/${g.id}/watch`, "data-testid": `watch-${g.id}`, "aria-label": `Watch ${label}` }, "Watch")
        : h("a.btn", { href: `#/game/${g.id}/watch`, "data-testid": `watch-${g.id}`, "aria-label": `See ${label}` }, "See"),
      memory.tokens(g.id) && Object.keys(memory.tokens(g.id)).length && g.status !== "finished"
        ? h("a.btn.primary", { href: `#/game/${g.id}`, "data-testid": `resume-${g.id}` }, "Resume")
        : null));
}

export function mountLobby(root) {
  let players = 2;
  let specs = [];
  const resetSpecs = () => {
    specs = COLOURS[VARIANT_BY_PLAYERS[players]].map((_, i) =>
      i === 0 ? { kind: "local", name: memory.name, level: 1 } : { kind: players === 2 ? "computer" : "open", level: 1 });
  };
  resetSpecs();

  const seatsBox = h("div.seat-rows");
  const error = h("p.error", { role: "alert", "data-testid": "lobby-error" });
  const lists = h("div.lists");
  const yourName = h("input", { type: "text", maxlength: 24, value: memory.name, placeholder: "Your name",
    "data-testid": "your-name", "aria-label": "Your name", autocomplete: "nickname",
    oninput: (e) => { memory.name = e.target.value.trim(); } });

  const drawSeats = () => {
    const variant = VARIANT_BY_PLAYERS[players];
    seatsBox.replaceChildren(...COLOURS[variant].map((c, i) => seatRow(c, i + 1, specs[i], (change, redraw = true) => {
      Object.assign(specs[i], change);
      if (redraw) drawSeats();
    })));
  };
  const countButtons = [2, 3, 4].map((n) => h("button.count", { type: "button", "data-testid": `players-${n}`,
    "aria-pressed": String(n === players),
    onclick: () => {
      players = n;
      resetSpecs();
      countButtons.forEach((b, j) => b.setAttribute("aria-pressed", String(j + 2 === n)));
      boardNote.textContent = `${title(VARIANT_BY_PLAYERS[n])} · ${BOARD[VARIANT_BY_PLAYERS[n]]} board`;
      drawSeats();
    } }, `${n} players`));
  const boardNote = h("p.note", {}, "Duo · 14×14 board");

  async function create(e) {
    e.preventDefault();
    error.textContent = "";
    const variant = VARIANT_BY_PLAYERS[players];
    const seats = specs.map((s, i) => {
      const out = { kind: s.kind };
      if (s.kind === "computer") out.level = s.level || 1;
      if (s.kind === "local") out.name = (s.name || "").trim() || (i === 0 && memory.name) || title(COLOURS[variant][i]);
      return out;
    });
    try {
      const answer = await api("POST", "/games", { body: { variant, seats } });
      memory.remember(answer.id, { seats: seatTokens(answer), host: answer.host_token });
      location.hash = `#/game/${answer.id}`;
    } catch (err) {
      error.textContent = err.message;
    }
  }

  async function refresh() {
    try {
      const data = await api("GET", "/games");
      const games = Array.isArray(data) ? data : data.games || [];
      const group = (status, heading) => {
        const list = games.filter((g) => g.status === status).sort((a, b) => (b.created_at || 0) - (a.created_at || 0));
        return h("section", { "data-testid": `games-${status}` }, h("h3", {}, heading),
          list.length ? h("ul.games", {}, list.slice(0, 30).map(gameLine)) : h("p.note", {}, "None."));
      };
      lists.replaceChildren(group("open", "Waiting for players"), group("running", "Playing"), group("finished", "Finished"));
    } catch (err) {
      lists.replaceChildren(h("p.error", {}, err.message));
    }
  }

  drawSeats();
  root.append(h("div.lobby", {},
    h("header.bar", {}, h("h1", {}, "Corner Claim"),
      h("span.controls", {},
        h("a.btn", { href: "/ladder.html", "data-testid": "ladder" }, "Ladder & replays"), // issue 6
        h("a.btn", { href: "#/invite", "data-testid": "invite", "aria-label": "Invite: show the address as a QR code" }, "Invite"))),
    h("section.card", { "aria-labelledby": "new-game" },
      h("h2", { id: "new-game" }, "New game"),
      h("label.field", {}, "Your name ", yourName),
      h("div.counts", { role: "group", "aria-label": "Number of players" }, countButtons),
      boardNote,
      h("form", { onsubmit: create }, seatsBox,
        h("button.btn.primary.big", { type: "submit", "data-testid": "create" }, "Create game")),
      error),
    h("section.card", { "aria-label": "Games on this host" }, lists)));
  refresh();
  api("GET", "/health").then((hth) => {
    if (Array.isArray(hth?.levels) && hth.levels.length) {
      levels = hth.levels.map((l) => (typeof l === "object" ? l : { number: l, name: "" }));
      drawSeats();
    }
  }).catch(() => {});
  const timer = setInterval(refresh, 3000);
  return () => clearInterval(timer);
}
