// The paths drawn over Corners' board, in board units (a square is 1 × 1): the last move
// (dashed yellow, `last-path`) and the move shown (blue, red when it loses; `path`), its
// jumps dotted. Each polyline's `data-path` is the move's text.

const SVG = "http://www.w3.org/2000/svg";

export function createPaths() {
  const el = document.createElementNS(SVG, "svg");
  el.setAttribute("class", "cn-paths");
  el.setAttribute("aria-hidden", "true");

  function polyline(points, squares, cls, testid) {
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", points.map((p) => p.join(",")).join(" "));
    line.setAttribute("class", cls);
    line.dataset.testid = testid;
    line.dataset.path = squares.join("-");
    return line;
  }

  /** n: the board's size; centre(square) → [x, y] as seen; shown: a legal entry or null. */
  function draw(n, centre, lastPath, shown) {
    el.setAttribute("viewBox", `0 0 ${n} ${n}`);
    const parts = [];
    if (lastPath.length > 1) parts.push(polyline(lastPath.map(centre).filter(Boolean), lastPath, "last", "last-path"));
    if (shown) {
      const squares = shown.move.split("-");
      const cls = shown.loses ? " loses" : "";
      parts.push(polyline(squares.map(centre).filter(Boolean), squares, `shown${cls}`, "path"));
      for (const sq of squares.slice(1, -1)) {
        const [x, y] = centre(sq);
        const dot = document.createElementNS(SVG, "circle");
        dot.setAttribute("cx", x);
        dot.setAttribute("cy", y);
        dot.setAttribute("r", ".12");
        dot.setAttribute("class", `dot${cls}`);
        parts.push(dot);
      }
    }
    el.replaceChildren(...parts);
  }

  return { el, draw };
}
