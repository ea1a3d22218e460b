// Corners' setup option's text, read and written ("W:a1,b1 B:h8 w 1"): what the set-up
// editor (loaded only when it opens) and the replay viewer's "Set up from here" share.

export const COLUMNS = "abcdefghijklmnop";

/** A setup text as {pieces: Map(square -> 1|2), side: 1|2, number}; null if it has none. */
export function parseSetup(text) {
  const pieces = new Map();
  let side = 1;
  let number = 1;
  const rest = [];
  let any = false;
  for (const token of (text || "").trim().split(/\s+/).filter(Boolean)) {
    const m = token.match(/^([WB]):(.*)$/i);
    if (m) {
      any = true;
      for (const sq of m[2].split(",").map((s) => s.trim().toLowerCase()).filter(Boolean))
        pieces.set(sq, m[1].toUpperCase() === "W" ? 1 : 2);
    } else rest.push(token);
  }
  if (!any) return null;
  if (rest[0]) side = rest[0].toLowerCase().startsWith("b") ? 2 : 1;
  if (rest[1] && /^\d+$/.test(rest[1])) number = Number(rest[1]);
  return { pieces, side, number };
}

export const squareKey = (name) => [COLUMNS.indexOf(name[0]), Number(name.slice(1))];

/** The setup text of a position: squares in the order a1, a2, …, b1, … */
export function setupText(pieces, side, number) {
  const order = [...pieces.keys()].sort((a, b) => {
    const [ca, ra] = squareKey(a);
    const [cb, rb] = squareKey(b);
    return ca - cb || ra - rb;
  });
  const of = (seat) => order.filter((sq) => pieces.get(sq) === seat).join(",");
  return `W:${of(1)} B:${of(2)} ${side === 1 ? "w" : "b"} ${number}`;
}

/** "Set up from here" in the replay viewer: a frame's position as the setup option's text
 *  (white's squares, black's, the side to move, its move number); null in a solo race. */
export function setupOf(frame) {
  const b = frame.board;
  if (!b?.rows || b.solo) return null;
  const n = b.rows.length;
  const pieces = new Map();
  b.rows.forEach((row, i) => row.forEach((v, col) => {
    if (v) pieces.set(`${COLUMNS[col]}${n - i}`, Number(v));
  }));
  return { setup: setupText(pieces, Number(b.to_move) === 2 ? 2 : 1, b.move_number || 1) };
}
