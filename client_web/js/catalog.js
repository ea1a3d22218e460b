// What this host offers, from `GET /api/catalog`: its games, their variants (seat counts,
// colours, options), computer levels, export formats, ladder statistics and the URL of each
// game's board module (and picture and guide). The client names no game itself: everything
// game-specific comes from here or from the game's board module, loaded with
// import(entry.board_url).

import { api } from "./api.js";

let catalogPromise = null;
const boards = new Map(); // board_url -> Promise<module>

/** The catalog, asked once per page ({games: [...]}); a failed fetch is asked again next time. */
export function catalog() {
  if (!catalogPromise) {
    catalogPromise = api("GET", "/catalog").catch((err) => {
      catalogPromise = null;
      throw err;
    });
  }
  return catalogPromise;
}

/** One game's catalog line, or an error naming the games this host has. */
export async function gameEntry(game) {
  const { games } = await catalog();
  const entry = games.find((g) => g.game === game);
  if (!entry) throw new Error(`This host has no game "${game}" (it has ${games.map((g) => g.title).join(", ")}).`);
  return entry;
}

/** A variant's catalog line within a game's entry (undefined if unknown). */
export const variantOf = (entry, name) => entry?.variants.find((v) => v.name === name);

/** Opens a game's how-to-play sheet (js/howto/sheet.js, loaded on first use). */
export const openGuide = (entry) => import("./howto/sheet.js").then((m) => m.openGuide(entry));

const failedLoads = new Map(); // board_url -> failed attempts so far

/** The board module of a game (its catalog entry): loaded once; the game's palette (its
 *  catalog's, else one the module exports) installed.
 *  A failed load (the phone went offline) is tried again at the next call, under a new URL:
 *  the browser keeps a failed module fetch for the page's life and would not fetch it again. */
export function loadBoard(entry) {
  if (!boards.has(entry.board_url)) {
    const failed = failedLoads.get(entry.board_url) || 0;
    const url = failed ? `${entry.board_url}?attempt=${failed}` : entry.board_url;
    boards.set(entry.board_url, import(url).then((mod) => {
      if (typeof mod.createBoard !== "function") throw new Error(`${entry.board_url} has no createBoard`);
      usePalette(Object.keys(entry.palette || {}).length ? entry.palette : mod.palette || {});
      return mod;
    }).catch((err) => {
      boards.delete(entry.board_url);
      failedLoads.set(entry.board_url, failed + 1);
      throw err;
    }));
  }
  return boards.get(entry.board_url);
}

// ---- seat colours ------------------------------------------------------------------------
// A game's catalog line has a `palette`: {colour name: {fill, ink, mark}} (the fill of the
// seat's chips and turn line, the text colour on it, and the chip's letter or sign). The shell
// turns it into `.c-<colour>` rules (--c, --ink), so seats, chips and the turn line take any
// game's colours without a list of them here. Two games may both have a "red": the palette
// installed last (the game on screen) wins.
const palettes = {};
let sheet = null;

export function usePalette(palette) {
  let changed = false;
  for (const [name, p] of Object.entries(palette)) {
    if (!/^[a-z][a-z0-9_-]*$/i.test(name) || JSON.stringify(palettes[name]) === JSON.stringify(p)) continue;
    palettes[name] = p;
    changed = true;
  }
  if (!changed) return;
  if (!sheet) {
    sheet = document.createElement("style");
    sheet.dataset.palette = "";
    document.head.append(sheet);
  }
  sheet.textContent = Object.entries(palettes).map(([name, p]) =>
    `.c-${name}{--c:${p.fill};--ink:${p.ink || "#fff"}}`).join("\n");
}

/** The letter or sign on a colour's chip: the palette's mark, else its first letter. */
export const colourMark = (colour) => palettes[colour]?.mark || (colour ? colour[0].toUpperCase() : "?");
/** A colour's fill (for charts); grey if no palette has named it. */
export const colourFill = (colour) => palettes[colour]?.fill || "#8a94a6";
