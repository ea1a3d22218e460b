// The review's graph: the computer's estimate move by move, as inline SVG. A tap (or a click)
// on the graph picks the nearest move; `mark(i)` moves the marker to point i.

import { svg } from "../charts.js";

/**
 * lines: [{label, colour, values: [number]}], all as long as the points; `unit` "win" (0 to 1,
 * drawn as 0–100 %) or "points" (a score difference, 0 in the middle). `onPick(i)` is told
 * the point tapped. Returns {el, mark(i)}.
 */
export function evalGraph(lines, { unit, onPick, label, testid, width = 480, height = 150 }) {
  const pad = { l: 40, r: 8, t: 8, b: 8 };
  const n = Math.max(1, ...lines.map((l) => l.values.length));
  let lo;
  let hi;
  if (unit === "win") [lo, hi] = [0, 1];
  else {
    const top = Math.max(1, ...lines.flatMap((l) => l.values.map((v) => Math.abs(v))));
    [lo, hi] = [-top, top];
  }
  const x = (i) => pad.l + (n === 1 ? 0 : (i * (width - pad.l - pad.r)) / (n - 1));
  const y = (v) => pad.t + ((hi - v) * (height - pad.t - pad.b)) / (hi - lo);
  const el = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label,
    "data-testid": testid, class: "rv-graph" });
  const mid = (lo + hi) / 2;
  el.append(svg("rect", { class: "rv-graph-bg", x: pad.l, y: pad.t, width: width - pad.l - pad.r,
    height: height - pad.t - pad.b }));
  el.append(svg("line", { class: "axis", x1: pad.l, x2: width - pad.r, y1: y(mid), y2: y(mid) }));
  const tick = (v) => {
    const t = svg("text", { x: pad.l - 4, y: y(v) + 3, "text-anchor": "end" });
    t.textContent = unit === "win" ? `${Math.round(v * 100)}%` : `${v > 0 ? "+" : ""}${Math.round(v)}`;
    el.append(t);
  };
  for (const v of [hi, mid, lo]) tick(v);
  for (const line of lines) {
    const points = line.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const path = svg("polyline", { points, fill: "none", stroke: line.colour, "stroke-width": 2,
      "data-series": line.label, "data-values": line.values.join(" ") });
    const t = svg("title");
    t.textContent = line.label;
    path.append(t);
    el.append(path);
  }
  const marker = svg("line", { x1: pad.l, x2: pad.l, y1: pad.t, y2: height - pad.b, class: "rv-graph-marker",
    "data-testid": testid ? `${testid}-marker` : undefined });
  el.append(marker);
  el.addEventListener("click", (e) => {
    const r = el.getBoundingClientRect();
    const at = ((e.clientX - r.left) / r.width) * width;
    const i = Math.round(((at - pad.l) * (n - 1)) / (width - pad.l - pad.r));
    onPick?.(Math.max(0, Math.min(n - 1, i)));
  });
  return {
    el,
    mark(i) {
      const at = i === null || i === undefined ? -1 : i;
      marker.setAttribute("x1", x(Math.max(0, at)));
      marker.setAttribute("x2", x(Math.max(0, at)));
      marker.dataset.point = String(at);
    },
  };
}
