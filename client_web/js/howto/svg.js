// Small SVG pictures for the lobby's game cards and the how-to-play sheets: an element
// builder and the parts every picture shares (a board of squares, a caption's mark). Each
// game's own picture is drawn by its board module's part (js/boards/<game>/thumb.js).

const NS = "http://www.w3.org/2000/svg";

/** svg("rect", {x: 1}, child…): an SVG element; null, false and undefined are left out. */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v);
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** An <svg> of `w`×`h` units that scales to its box; `label` is its accessible name (none:
 *  hidden from screen readers, the words around it say the same). */
export function picture(w, h, label, ...children) {
  return svg("svg", { viewBox: `0 0 ${w} ${h}`, role: label ? "img" : null, "aria-label": label || null,
    "aria-hidden": label ? null : "true", focusable: "false", class: "picture" }, ...children);
}

/** The squares of a `cols`×`rows` board, one unit each less `gap`: fill(x, y) gives each
 *  square's colour (x from the left, y from the top). */
export function squares(cols, rows, fill, gap = 0) {
  const out = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      out.push(svg("rect", { x: x + gap / 2, y: y + gap / 2, width: 1 - gap, height: 1 - gap, fill: fill(x, y) }));
    }
  }
  return out;
}

/** An arrow from (x1, y1) to (x2, y2) through the points between: a path with a head. */
export function arrow(points, colour = "#1560d4", width = 0.12) {
  const d = points.map(([x, y], i) => `${i ? "L" : "M"}${x} ${y}`).join(" ");
  const [[ax, ay], [bx, by]] = points.slice(-2);
  const a = Math.atan2(by - ay, bx - ax), l = 0.32;
  const head = [[bx, by], [bx - l * Math.cos(a - 0.5), by - l * Math.sin(a - 0.5)], [bx - l * Math.cos(a + 0.5), by - l * Math.sin(a + 0.5)]];
  return svg("g", {}, svg("path", { d, fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round" }),
    svg("polygon", { points: head.map((p) => p.join(",")).join(" "), fill: colour }));
}

/** A mark for a figure: a green tick (allowed) or a red cross (not), centred at (x, y). */
export function mark(ok, x, y, r = 0.42) {
  return svg("g", { transform: `translate(${x} ${y})` }, svg("circle", { r, fill: ok ? "#2e9e4f" : "#c62828", stroke: "#fff", "stroke-width": r / 5 }),
    svg("path", { d: ok ? `M${-r / 2} 0 L${-r / 8} ${r / 2.5} L${r / 2} ${-r / 2.5}` : `M${-r / 2.5} ${-r / 2.5} L${r / 2.5} ${r / 2.5} M${r / 2.5} ${-r / 2.5} L${-r / 2.5} ${r / 2.5}`,
      fill: "none", stroke: "#fff", "stroke-width": r / 3.5, "stroke-linecap": "round" }));
}
