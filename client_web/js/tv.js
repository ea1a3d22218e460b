// /tv: the host's screen (a laptop, a TV) as the table everyone sees. Idle, it shows how to
// join (the QR code and the address), the open tables with their empty seats and tonight's
// standings; once games run, up to four of them (tv/tables.js), each drawn big by its game's
// own board module (tv/tile.js). It holds no seat and sends nothing but `join` and
// `watch_lobby`: no token is ever read or sent here. Everything live comes by push: the
// lobby's lines and tonight's standings over `watch_lobby`, each table's states over `join`.
// Nothing here names a game: titles, variants and colours come from the catalog.

import { api } from "./api.js";
import { catalog, variantOf } from "./catalog.js";
import { h, title } from "./dom.js";
import { drawInvite } from "./invite.js";
import { watchLobby } from "./net.js";
import { standings, sinceText } from "./tonight.js";
import { createTables } from "./tv/tables.js";
import { OVER_MS, markOf } from "./tv/tile.js";

const root = document.getElementById("tv");
const params = new URLSearchParams(location.search);
// How long a result stays over its table (?over=<seconds>: the tests' and a host's choice).
const overMs = params.has("over") ? Number(params.get("over")) * 1000 : OVER_MS;

// ---- the screen's scale: every size here is a multiple of --u, 1 px at 1920×1080 -----------
function scale() {
  const s = Math.min(innerWidth / 1920, innerHeight / 1080);
  document.documentElement.style.setProperty("--s", String(Math.max(0.4, s)));
}
scale();
window.addEventListener("resize", scale);

// ---- layout -------------------------------------------------------------------------------
let games = []; // the catalog's games
const titleOf = (game) => games.find((e) => e.game === game)?.title || title(game);

const tables = createTables({ overMs, drawn: () => mode() });
const qr = h("div.qr.tv-qr", { "data-testid": "tv-qr", role: "img", "aria-label": "QR code of the address" });
const url = h("p.tv-url", { "data-testid": "tv-url" }, location.origin + "/");
const join = h("section.tv-join", { "data-testid": "tv-join", "aria-label": "Join" },
  h("h1.tv-brand", {}, "Corner games"), qr, url,
  h("p.tv-how", {}, "Scan the code or type the address on a phone on this Wi-Fi."));
const openList = h("ul.tv-open-list");
const open = h("section.tv-open", { "data-testid": "tv-open", "aria-labelledby": "tv-open-title" },
  h("h2", { id: "tv-open-title" }, "Open tables"), openList);
const since = h("span.tv-since", { "data-testid": "tv-tonight-since" });
const board = h("div.tv-standings");
const newError = h("p.error", { "data-testid": "tv-tonight-error", role: "alert" });
const newEvening = h("button.btn.small", { type: "button", "data-testid": "tv-new-evening",
  onclick: (e) => { e.currentTarget.blur(); askNewEvening(); } }, "New evening"); // blurred: Enter picks tables

const tonightBox = h("section.tv-tonight", { "data-testid": "tv-tonight", "aria-labelledby": "tv-tonight-title" },
  h("h2", { id: "tv-tonight-title" }, "Tonight ", since), board, h("div.tv-tools", {}, newEvening), newError);
const fullscreen = h("button.btn.small", { type: "button", "data-testid": "tv-fullscreen",
  hidden: !document.fullscreenEnabled, onclick: (e) => { e.currentTarget.blur(); toggleFullscreen(); } }, "Fullscreen");
const status = h("p.tv-status", { "data-testid": "tv-status", role: "status" }, "Connecting…");
const side = h("aside.tv-side", {}, open, tonightBox,
  h("div.tv-tools", {}, fullscreen, h("span.tv-keys", {}, "← → ↑ ↓ pick · Enter alone · Esc all")), status);
root.append(tables.el, join, side);

/** Idle (no table running) or live: the layout follows. */
function mode() {
  root.dataset.mode = tables.tiles().length ? "live" : "idle";
}

// ---- the colours: each game's palette, scoped to its own tables and lines ------------------
function scopedPalettes() {
  const rules = [];
  for (const e of games) {
    for (const [name, p] of Object.entries(e.palette || {})) {
      if (!/^[a-z][a-z0-9_-]*$/i.test(name) || !/^[a-z][a-z0-9_-]*$/i.test(e.game)) continue;
      const css = `{--c:${p.fill};--ink:${p.ink || "#fff"}}`;
      rules.push(`[data-kind="${e.game}"] .c-${name}, [data-kind="${e.game}"].c-${name} ${css}`);
    }
  }
  document.head.append(h("style", { "data-tv-palettes": "" }, rules.join("\n")));
}

// ---- the open tables ----------------------------------------------------------------------
function drawOpen(list) {
  const some = list.filter((g) => g.status === "open").sort((a, b) => (b.created_at || 0) - (a.created_at || 0));
  openList.replaceChildren(...(some.length ? some.slice(0, 8).map((g) => {
    const entry = games.find((e) => e.game === g.game);
    const variant = variantOf(entry, g.variant);
    const colours = variant?.colours || [];
    return h("li.tv-open-line", { "data-testid": `tv-open-${g.id}`, "data-kind": g.game },
      h("span.tv-open-what", {}, `${titleOf(g.game)} · ${variant?.label || title(g.variant)}`),
      h("span.tv-open-seats", {}, g.seats.map((s) => {
        const colour = colours[s.seat - 1] || "";
        return h(`span.tv-open-seat${s.claimed ? "" : ".empty"}`, { "data-testid": `tv-open-seat-${g.id}-${s.seat}` },
          h(`span.chip.c-${colour}`, { "aria-hidden": "true" }, markOf(entry, colour)),
          s.claimed ? s.name || title(colour) : "empty seat");
      })));
  }) : [h("li.note", {}, "None: start one from a phone.")]));
}

// ---- tonight ------------------------------------------------------------------------------
let tonight = null;
function drawTonight(body) {
  tonight = body || tonight;
  if (!tonight) return;
  since.textContent = sinceText(tonight.since);
  board.replaceChildren(standings(tonight, { titleOf, limit: 12 }));
}

let armed = null; // the first press of New evening, waiting for the second
async function askNewEvening() {
  newError.textContent = "";
  if (!armed) { // one press of a remote must not wipe the evening: a second one confirms
    newEvening.textContent = "Press again: start a new evening";
    newEvening.dataset.armed = "true";
    armed = setTimeout(disarm, 6000);
    return;
  }
  disarm();
  try {
    drawTonight(await api("POST", "/tonight", { body: {} }));
  } catch (err) {
    newError.textContent = err.message;
  }
}
function disarm() {
  clearTimeout(armed);
  armed = null;
  newEvening.textContent = "New evening";
  delete newEvening.dataset.armed;
}

// ---- the lobby, pushed: which games run, and how recently each moved ----------------------
const known = new Map(); // id -> lobby line
const rank = new Map(); // id -> recency (higher: more recent)
let clock = 0;

const activeAt = (g) => g.updated_at ?? g.created_at ?? 0; // the host's last change, if it says
const moved = (was, g) => !was || was.seq !== g.seq || was.status !== g.status;
function listed(list) {
  const before = new Map(known);
  known.clear();
  // At first the host's order of last change (of creation, if it gives no other); from then
  // on, every change moves a game up (also one missed while the link was down).
  for (const g of [...list].sort((a, b) => activeAt(a) - activeAt(b))) {
    known.set(g.id, g);
    if (!rank.has(g.id) || moved(before.get(g.id), g)) rank.set(g.id, ++clock);
  }
  update();
}
function changed(g) {
  if (moved(known.get(g.id), g)) rank.set(g.id, ++clock);
  known.set(g.id, g);
  update();
}
function update() {
  drawOpen([...known.values()]);
  tables.arrange(known, rank);
  mode();
}

// ---- keys and fullscreen ------------------------------------------------------------------
function toggleFullscreen() {
  if (document.fullscreenElement) document.exitFullscreen?.();
  else document.documentElement.requestFullscreen?.().catch(() => {});
}
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
  if (e.key === "Enter" && e.target.tagName === "BUTTON") return; // the button's own press
  if (tables.key(e)) e.preventDefault();
  else if (e.key === "f" || e.key === "F") toggleFullscreen();
});

// ---- start --------------------------------------------------------------------------------
drawInvite(qr, url);
catalog().then((data) => {
  games = data.games || [];
  scopedPalettes();
}).catch((err) => { status.textContent = `Cannot read the host's games: ${err.message}`; })
  .finally(() => watchLobby({
    onWatch(ack) {
      status.textContent = ack ? "" : "The host does not answer: retrying when it is back.";
      if (!ack) return;
      listed(ack.games || []);
      drawTonight(ack.tonight);
    },
    onGame: changed,
    onTonight: drawTonight,
  }));
window.ccTv = { tables, known, rank }; // for debugging from the console
