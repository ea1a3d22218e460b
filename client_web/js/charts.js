// Line charts as inline SVG (score over time, rating over time). No library: a few paths.

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, v);
  for (const c of children) if (c) el.append(c);
  return el;
}

/**
 * lines: [{label, colour, values: [number]}], all the same length. Returns {el, mark(i)}:
 * `mark(i)` moves a vertical marker to point i (the replay's current frame).
 */
export function lineChart(lines, { width = 480, height = 180, label = "chart", testid } = {}) {
  const pad = { l: 34, r: 8, t: 8, b: 18 };
  const n = Math.max(1, ...lines.map((l) => l.values.length));
  const all = lines.flatMap((l) => l.values);
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (!isFinite(lo)) [lo, hi] = [0, 1];
  if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
  const x = (i) => pad.l + (n === 1 ? 0 : (i * (width - pad.l - pad.r)) / (n - 1));
  const y = (v) => pad.t + ((hi - v) * (height - pad.t - pad.b)) / (hi - lo);
  const el = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label,
    "data-testid": testid });
  el.append(svg("line", { class: "axis", x1: pad.l, y1: pad.t, x2: pad.l, y2: height - pad.b }));
  el.append(svg("line", { class: "axis", x1: pad.l, y1: height - pad.b, x2: width - pad.r, y2: height - pad.b }));
  for (const v of [hi, lo]) {
    const t = svg("text", { x: pad.l - 4, y: y(v) + 3, "text-anchor": "end" });
    t.textContent = String(Math.round(v));
    el.append(t);
  }
  for (const line of lines) {
    const points = line.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const path = svg("polyline", { points, fill: "none", stroke: line.colour, "stroke-width": 2,
      "data-series": line.label });
    const title = svg("title");
    title.textContent = line.label;
    path.append(title);
    el.append(path);
  }
  const marker = svg("line", { x1: pad.l, x2: pad.l, y1: pad.t, y2: height - pad.b, stroke: "#eef1f6",
    "stroke-dasharray": "3 3", "data-testid": testid ? `${testid}-marker` : undefined });
  el.append(marker);
  return {
    el,
    mark(i) {
      marker.setAttribute("x1", x(i));
      marker.setAttribute("x2", x(i));
    },
  };
}
