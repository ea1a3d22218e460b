// The replay answer's frames made whole again. The host sends frame 0 in full and each later
// frame's `board` and `seats` as `changes` from the frame before (docs/formats.md, "Replay
// frames"; replays/frames.py writes them): expandFrames applies them once, on arrival, so
// every frame has its `board` and `seats` as before. A value a frame did not change is the
// same object as in the frame before.

/** The value `change` makes of `old` (never modified): a scalar is the new value, `[v]` is
 *  `v`; an object changes an object key by key, or an array or a string by its splices
 *  (`s`: [at, cut, insert], each counted in the old value) and then items in place. */
export function patch(old, change) {
  if (Array.isArray(change)) return change[0];
  if (change === null || typeof change !== "object") return change;
  if (typeof old === "string") {
    let out = old;
    for (const [at, cut, insert] of change.s) out = out.slice(0, at) + insert + out.slice(at + cut);
    return out;
  }
  if (Array.isArray(old)) {
    let out = old;
    for (const [at, cut, insert] of change.s || []) out = out.slice(0, at).concat(insert, out.slice(at + cut));
    if (out === old) out = old.slice();
    for (const [key, value] of Object.entries(change)) {
      if (key !== "s") out[Number(key)] = patch(out[Number(key)], value);
    }
    return out;
  }
  if (old === null || typeof old !== "object") throw new Error("a change that does not fit its frame");
  const out = { ...old };
  for (const [key, value] of Object.entries(change)) {
    if (Array.isArray(value) && value.length === 0) delete out[key];
    else out[key] = patch(old[key], value);
  }
  return out;
}

/** The replay answer with every frame whole (a new object; `data` is left as it came). */
export function expandFrames(data) {
  const frames = [];
  for (const f of data.frames) {
    if (!f.changes) {
      frames.push(f);
      continue;
    }
    const before = frames[frames.length - 1];
    const whole = patch({ board: before.board, seats: before.seats }, f.changes);
    const { changes, ...rest } = f;
    frames.push({ ...rest, board: whole.board, seats: whole.seats });
  }
  return { ...data, frames };
}
