// The how-to-play sheet: a game's guide in a modal dialog that scrolls inside, closed by its
// button, Escape or a tap beside it. The guide is the game's own module (the catalog's
// `howto_url`, js/howto/<game>.js), loaded when the sheet first opens for that game; a game
// without one gets what its catalog line says (its summary and variants). Opened from the
// lobby's game cards and the table's header (js/catalog.js `openGuide`).

import { h } from "/js/dom.js";

let sheet = null; // one sheet per page, made on first use
const guides = new Map(); // howto_url -> Promise<module>

// The sheet's styles, installed when it first opens.
const CSS = `
dialog.sheet { background: var(--panel); color: var(--text); border: 1px solid var(--line); border-radius: 14px; padding: 0;
  width: min(560px, calc(100vw - 16px)); max-width: none; max-height: calc(100dvh - 16px); overflow: hidden; }
dialog.sheet[open] { display: flex; flex-direction: column; }
.sheet-head { display: flex; align-items: center; gap: 8px; padding: 10px 12px; border-bottom: 1px solid var(--line); }
.sheet-head h2 { flex: 1; margin: 0; min-width: 0; overflow-wrap: anywhere; }
.sheet-body { overflow-y: auto; overflow-x: hidden; overscroll-behavior: contain; padding: 4px 14px 16px; line-height: 1.45; }
.sheet-body p { margin: .5rem 0; }
.howto-part h3 { color: var(--text); font-size: 1rem; margin: 1rem 0 .3rem; }
.howto-points { margin: .4rem 0; padding-left: 1.2rem; }
.howto-figures { display: flex; flex-wrap: wrap; gap: 10px; margin: .6rem 0; }
.howto-figure { flex: 1 1 120px; max-width: 200px; margin: 0; display: grid; gap: 4px; align-content: start; }
.howto-figure svg { width: 100%; height: auto; max-height: 180px; }
.howto-figure figcaption { font-size: .85rem; color: var(--muted); }
.howto-table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: .4rem 0; width: 100%; }
.howto-table th, .howto-table td { border: 1px solid var(--line); padding: 3px 2px; text-align: center; font-size: .9rem; }
.howto-table th { text-align: left; padding: 3px 6px; }`;

function make() {
  document.head.append(h("style", { id: "howto-style" }, CSS));
  const body = h("div.sheet-body", { "data-testid": "howto-body", tabindex: "0", "aria-labelledby": "howto-title" });
  const el = h("dialog.sheet.howto", { "data-testid": "howto-sheet", "aria-labelledby": "howto-title" },
    h("header.sheet-head", {}, h("h2", { id: "howto-title" }),
      h("button.btn.small", { type: "button", "data-testid": "howto-close", onclick: () => el.close() }, "Close")),
    body);
  // A tap on the backdrop (the dialog itself, outside its parts) closes it.
  el.addEventListener("click", (e) => e.target === el && el.close());
  // The table's and the board's keys (Z takes back, arrows move a piece) stay off while it reads.
  el.addEventListener("keydown", (e) => e.stopPropagation());
  // Another screen (the back button, a link): the sheet does not stay over it.
  window.addEventListener("hashchange", () => el.open && el.close());
  el.body = body;
  return el;
}

/** What a game without a guide of its own shows: its catalog line's words. */
function fromCatalog(entry) {
  return [h("p", {}, entry.summary || entry.tagline || ""),
    h("ul", {}, (entry.variants || []).map((v) => h("li", {}, h("b", {}, v.label), v.description ? ` — ${v.description}` : "")))];
}

async function content(entry) {
  if (!entry.howto_url) return fromCatalog(entry);
  if (!guides.has(entry.howto_url)) guides.set(entry.howto_url, import(entry.howto_url));
  try {
    return (await guides.get(entry.howto_url)).guide(entry);
  } catch {
    guides.delete(entry.howto_url); // offline: tried again next time
    return [h("p.error", {}, "The guide did not load; try again when the phone is back online."), ...fromCatalog(entry)];
  }
}

/** Opens the sheet for a game (its catalog line). `data-ready` is "true" once its guide is in. */
export async function openGuide(entry) {
  sheet ??= make();
  if (!sheet.isConnected) document.body.append(sheet);
  sheet.dataset.game = entry.game;
  sheet.dataset.ready = "false";
  sheet.querySelector("h2").textContent = `How to play ${entry.title}`;
  sheet.body.replaceChildren(h("p.note", {}, "Loading…"));
  if (!sheet.open) sheet.showModal();
  const parts = await content(entry);
  if (sheet.dataset.game !== entry.game) return; // another game's sheet was opened meanwhile
  sheet.body.replaceChildren(...parts);
  sheet.body.scrollTop = 0;
  sheet.dataset.ready = "true";
}
