// Which tables /tv shows, and where: up to MAX tiles, the most recently active running games.
// The tiles are placed most recently active first; after that a tile keeps its place while
// its game stays among the most active (a TV whose tables swap places at every move cannot be
// followed from the sofa), and a table that becomes more active than the least active shown
// takes that one's place. A finished table keeps its tile while its result is shown; a
// rematch replaces the finished game in its tile (known by the finished state's `rematch_id`,
// or sooner, as the rematch's own lobby line comes first: a new game of the same variant
// with the same players at the table). Arrows pick a tile, Enter shows it alone, Escape goes
// back to them all.

import { h } from "../dom.js";
import { createTile } from "./tile.js";

export const MAX = 4;

/** `overMs`: how long a result stays over its table. Returns {el, arrange(games, rank),
 *  key(event) → handled, tiles()}. */
export function createTables({ overMs, drawn = () => {} } = {}) {
  const el = h("div.tv-tables", { "data-testid": "tv-tables", "data-count": "0" });
  let tiles = [];
  let selected = -1; // the tile picked with the arrows (-1: none yet)
  let solo = null; // the game shown alone, or null
  let last = { games: new Map(), rank: new Map() };
  const ended = new Set(); // games whose end a tile has shown: never placed again

  const rankOf = (id) => last.rank.get(id) || 0;
  const names = (seats) => (seats || []).map((s) => s.name ?? "").join("\n");
  /** The finished table (result shown) that a new running game `g` continues, if any. */
  const continued = (g) => tiles.find((t) => {
    const s = t.lingering() && t.state();
    if (!s) return false;
    if (g.rematch_of) return g.rematch_of === s.id;
    return s.game === g.game && s.variant === g.variant && names(s.seats) === names(g.seats);
  });

  function drop(tile) {
    tiles = tiles.filter((t) => t !== tile);
    tile.destroy();
  }

  const on = {
    over(tile) {
      ended.add(tile.gameId());
      arrange();
    },
    rematch(tile, next) {
      for (const other of tiles.filter((t) => t !== tile && t.gameId() === next)) drop(other);
      if (solo === tile.gameId()) solo = next;
      tile.show(next);
      mark();
    },
    drawn: (tile) => drawn(tile),
  };

  /** Lay out the tiles for `games` (id → lobby line) ranked by `rank` (id → recency). */
  function arrange(games = last.games, rank = last.rank) {
    last = { games, rank };
    // A table goes once its result has been shown (the lobby says "finished" before the
    // table's own last state has come, and a game may end before its table's first state),
    // or when the host has no such game.
    for (const t of [...tiles]) {
      if (!t.lingering() && (ended.has(t.gameId()) || t.broken())) drop(t);
    }
    const shown = new Set(tiles.map((t) => t.gameId()));
    const waiting = [...games.values()].filter((g) => g.status === "running" && !shown.has(g.id) && !ended.has(g.id))
      .sort((a, b) => rankOf(b.id) - rankOf(a.id));
    for (const g of waiting) {
      const before = continued(g);
      if (before) {
        on.rematch(before, g.id);
        continue;
      }
      if (tiles.length < MAX) {
        const tile = createTile(g.id, on, { overMs });
        tiles.push(tile);
        el.append(tile.el);
        continue;
      }
      // All places taken: the least recently active table shown gives its place up.
      const spare = tiles.filter((t) => !t.lingering() && t.gameId() !== solo)
        .sort((a, b) => rankOf(a.gameId()) - rankOf(b.gameId()))[0];
      if (!spare || rankOf(spare.gameId()) >= rankOf(g.id)) break;
      spare.show(g.id);
    }
    if (solo && !tiles.some((t) => t.gameId() === solo)) solo = null;
    selected = Math.min(selected, tiles.length - 1);
    mark();
  }

  function mark() {
    el.dataset.count = String(tiles.length);
    el.dataset.solo = solo || "";
    tiles.forEach((t, i) => {
      t.el.dataset.selected = String(i === selected);
      t.el.hidden = !!solo && t.gameId() !== solo;
    });
  }

  /** The keys of a laptop or a TV remote. */
  function key(e) {
    if (!tiles.length) return false;
    const cols = tiles.length > 1 ? 2 : 1;
    const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols };
    if (steps[e.key] !== undefined) {
      const next = selected < 0 ? 0 : selected + steps[e.key];
      selected = Math.max(0, Math.min(tiles.length - 1, next));
      if (solo) solo = tiles[selected].gameId(); // alone, the arrows go through the tables
    } else if (e.key === "Enter" && !solo) {
      selected = Math.max(selected, 0);
      solo = tiles[selected].gameId();
    } else if ((e.key === "Escape" || e.key === "Backspace") && solo) {
      solo = null;
    } else return false;
    mark();
    return true;
  }

  return { el, arrange, key, tiles: () => tiles };
}
