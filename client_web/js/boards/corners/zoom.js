// The zoom of Corners' board, for a board whose squares are small on this screen (16×16 on a
// phone): a toggle (`board-zoom`, aria-pressed) offered only while a square would be narrower
// than MIN_SQUARE pixels (then `board-view`'s `data-small` is true: the styles draw bigger
// targets). Zoomed, every square is ZOOMED_SQUARE pixels and the board pans inside its own
// square box (`board-view`, scrolled by a finger or a wheel; the page never scrolls
// sideways); a tap still picks and moves. Zooming in shows the bottom left corner as seen,
// the home of the side at the bottom.

import { h } from "/js/dom.js";

export const MIN_SQUARE = 36;
export const ZOOMED_SQUARE = 44;

/**
 * view: the box the board's frame sits in. Returns {el: the button, on() → zoomed?,
 * size(n), fit(), reveal(cell element), destroy()}; `changed()` is called after each toggle.
 */
export function createZoom(view, changed) {
  let n = 0;
  let zoomed = false;
  const button = h("button.cn-zoom", { type: "button", "data-testid": "board-zoom", "aria-pressed": "false",
    hidden: true });

  function set(value) {
    zoomed = value;
    view.classList.toggle("zoomed", zoomed);
    view.dataset.zoomed = String(zoomed);
    button.setAttribute("aria-pressed", String(zoomed));
    button.textContent = zoomed ? "Whole board" : "Zoom in";
    if (zoomed) {
      view.scrollLeft = 0;
      view.scrollTop = view.scrollHeight;
    }
    changed();
  }

  /** Offer the zoom while a square of the whole board would be too small to tap. */
  function fit() {
    const width = view.clientWidth;
    const small = n > 0 && width > 0 && width / n < MIN_SQUARE;
    if (!small && zoomed) set(false);
    button.hidden = !small;
    view.dataset.small = String(small);
  }

  /** Scroll the zoomed box just enough to show a cell. */
  function reveal(el) {
    if (!zoomed || !el) return;
    const x = el.offsetLeft;
    const y = el.offsetTop;
    const size = el.offsetWidth;
    if (x < view.scrollLeft) view.scrollLeft = x;
    else if (x + size > view.scrollLeft + view.clientWidth) view.scrollLeft = x + size - view.clientWidth;
    if (y < view.scrollTop) view.scrollTop = y;
    else if (y + size > view.scrollTop + view.clientHeight) view.scrollTop = y + size - view.clientHeight;
  }

  view.style.setProperty("--zoomed-square", `${ZOOMED_SQUARE}px`);
  button.addEventListener("click", () => set(!zoomed));
  window.addEventListener("resize", fit);
  set(false);

  return {
    el: button,
    on: () => zoomed,
    size(value) {
      n = value;
      view.style.setProperty("--n", n);
      fit();
    },
    fit,
    reveal,
    destroy() {
      window.removeEventListener("resize", fit);
    },
  };
}
