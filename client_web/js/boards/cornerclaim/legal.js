// The legal placements the host reported, per (seq, seat, piece): asked once (through the
// shell's host API) when a piece is first lifted, dropped when the host's seq moves on.
// Looking a placement up is all the board does with them; it never decides legality itself.

import { moveKey } from "/js/boards/cornerclaim/shapes.js";

export class LegalPlacements {
  /** `ask(seat, {piece})` → Promise<{seat, seq, moves}>: the shell's host.legal. */
  constructor(ask) {
    this.ask = ask;
    this.seq = null;
    this.entries = new Map(); // "seat:piece" -> {byKey: Map(cells key -> move text), cover: [cell names]} | null (loading)
    this.asking = new Map(); // "seat:piece" -> the answer on its way (this seq)
  }

  /** Resolves when the list being asked for (this seq) has arrived or failed. */
  settled(seq, seat, piece) {
    return this.seq === seq ? this.asking.get(`${seat}:${piece}`) || Promise.resolve() : Promise.resolve();
  }

  /** The list for the current seq, or undefined / null (loading). */
  get(seq, seat, piece) {
    return this.seq === seq ? this.entries.get(`${seat}:${piece}`) : undefined;
  }

  /** Ask the host (once per seq) for `piece`'s placements; resolves true when a list arrived. */
  async load(seq, seat, piece) {
    if (this.seq !== seq) {
      this.seq = seq;
      this.entries.clear();
      this.asking.clear();
    }
    const key = `${seat}:${piece}`;
    if (this.entries.has(key)) return false;
    this.entries.set(key, null);
    const asked = this.ask(seat, { piece });
    this.asking.set(key, asked.then(() => {}, () => {}));
    try {
      const ans = await asked;
      if (this.seq !== seq || ans.seq !== seq) return false; // the game moved on meanwhile
      const byKey = new Map();
      const cover = new Set();
      for (const m of ans.moves || []) {
        if (m.piece !== undefined && m.piece !== piece) continue;
        byKey.set(moveKey(m.move), m.move);
        for (const c of m.move.split(",")) cover.add(c.trim());
      }
      this.entries.set(key, { byKey, cover: [...cover] });
      return true;
    } catch (err) {
      if (this.seq === seq) this.entries.delete(key);
      throw err;
    }
  }
}
