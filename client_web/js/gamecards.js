// The lobby's game picker: a card per game of the host's catalog, in its order, each with the
// game's title, its one-line summary, its picture (drawn by the game's own module, the
// catalog's `thumb_url`, loaded here alone) and a button that opens its how-to-play sheet.
// The cards are radio buttons in one group ("Game"): a tap, a click or the arrow keys choose
// the game of the create form. Loaded by the lobby with the catalog, not with a table.

import { h } from "./dom.js";
import { openGuide } from "./catalog.js";

const pictures = new Map(); // thumb_url -> Promise<module>

// The cards' styles, installed with the cards (the lobby's page only, not a table's).
const CSS = `
.game-cards { border: 0; margin: 0 0 6px; padding: 0; min-width: 0; display: grid; gap: 8px;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 290px), 1fr)); }
.game-card { display: grid; grid-template-columns: minmax(0, 1fr) auto; align-items: start; border: 2px solid var(--line);
  border-radius: 12px; background: var(--bg); }
.game-card:has(input:checked) { border-color: #3d7bf0; background: #24324d; }
.game-card:has(input:focus-visible) { outline: 3px solid #8fb8ff; outline-offset: 2px; }
.game-pick { display: grid; grid-template-columns: 56px minmax(0, 1fr); gap: 10px; align-items: center; padding: 8px;
  cursor: pointer; min-height: 72px; }
.game-thumb { width: 56px; height: 56px; display: grid; place-items: center; }
.game-thumb svg { width: 100%; height: 100%; }
.game-initial { font-size: 1.6rem; font-weight: 800; color: var(--muted); }
.game-text { display: grid; gap: 2px; min-width: 0; overflow-wrap: anywhere; }
.game-title { font-weight: 700; }
.game-card:has(input:checked) .game-title::after { content: " ✓"; color: #8fb8ff; }
.game-summary { color: var(--muted); font-size: .85rem; line-height: 1.3; }
.howto-open { margin: 8px 8px 0 0; min-width: 40px; font-weight: 700; }
.howto-word { display: none; font-weight: 400; }
@media (min-width: 480px) { .howto-word { display: inline; } }`;
function installStyle() {
  if (!document.getElementById("game-cards-style")) document.head.append(h("style", { id: "game-cards-style" }, CSS));
}

/** Draws a game's picture into `slot` once its module has come (none: the title's initial). */
function drawPicture(entry, slot) {
  const initial = () => slot.replaceChildren(h("span.game-initial", {}, entry.title[0] || "?"));
  if (!entry.thumb_url) return initial();
  if (!pictures.has(entry.thumb_url)) pictures.set(entry.thumb_url, import(entry.thumb_url));
  pictures.get(entry.thumb_url).then((mod) => {
    slot.replaceChildren(mod.thumbnail());
    slot.dataset.drawn = "true";
  }).catch(() => {
    pictures.delete(entry.thumb_url);
    initial();
  });
}

function card(entry, onChoose) {
  const about = `game-about-${entry.game}`;
  const radio = h("input.sr-only", { type: "radio", name: "game", value: entry.game, "aria-label": entry.title,
    "aria-describedby": about, "data-testid": `pick-game-radio-${entry.game}`, onchange: () => onChoose(entry.game) });
  const picture = h("span.game-thumb", { "aria-hidden": "true", "data-testid": `game-thumb-${entry.game}` });
  drawPicture(entry, picture);
  return h("div.game-card", { "data-game": entry.game },
    h("label.game-pick", { "data-testid": `pick-game-${entry.game}` }, radio, picture,
      h("span.game-text", {}, h("span.game-title", {}, entry.title),
        h("span.game-summary", { id: about }, entry.summary || entry.tagline || ""))),
    h("button.btn.small.howto-open", { type: "button", "data-testid": `howto-${entry.game}`,
      "aria-label": `How to play ${entry.title}`, title: "How to play", onclick: () => openGuide(entry) },
    h("span", { "aria-hidden": "true" }, "?"), h("span.howto-word", { "aria-hidden": "true" }, "How to play")));
}

/** The cards of `games` (catalog lines); `onChoose(game)` when one is chosen. Returns the
 *  element (`pick-game`, its `data-value` the game chosen) and show(game), which marks the
 *  game chosen without telling. */
export function gameCards(games, onChoose) {
  installStyle();
  const el = h("fieldset.game-cards", { "data-testid": "pick-game" }, h("legend.sr-only", {}, "Game"),
    games.map((entry) => card(entry, onChoose)));
  function show(game) {
    el.dataset.value = game;
    for (const radio of el.querySelectorAll("input[type=radio]")) radio.checked = radio.value === game;
  }
  return { el, show };
}
