// A board module's drawing scaled to its box on /tv. The drawing is laid out at one width on
// every screen (NATURAL CSS pixels: a board module's own sizes and breakpoints see the same
// box at 1080p and at 2160p), then scaled, as a picture, to the largest size that fits the
// box: the whole of it (Corner's trays, Corners' clocks and move list) always in view.

export const NATURAL = 640;

/** Keep `content` (absolutely placed in `box`) fitted; returns {fit(), stop()}. */
export function fitInto(box, content) {
  content.style.width = `${NATURAL}px`;
  content.style.transformOrigin = "0 0";
  function fit() {
    const w = box.clientWidth;
    const hgt = box.clientHeight;
    const cw = content.offsetWidth; // layout sizes: a transform does not change them
    const ch = content.offsetHeight;
    if (!w || !hgt || !cw || !ch) return;
    const s = Math.min(w / cw, hgt / ch);
    content.style.transform = `translate(${Math.max(0, (w - cw * s) / 2)}px, 0) scale(${s})`;
    box.dataset.scale = s.toFixed(3);
  }
  const watcher = new ResizeObserver(fit);
  watcher.observe(box);
  watcher.observe(content);
  return { fit, stop: () => watcher.disconnect() };
}
