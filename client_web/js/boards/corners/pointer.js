// Touch and mouse on Corners' grid, as squares: a press, the square under the finger or the
// mouse while it is down (sliding, dragging once it has moved a few pixels), the release, and
// the mouse hovering with no button down. The board decides what each means.

/**
 * on: {press(square, p), slide(square | null, p), drag(x, y, p), release(square | null, p),
 * abort(p), hover(square | null)}; `p` is the press: {kind: "touch" | "mouse", square,
 * dragging}, where the board may keep its own notes. Returns a function that removes the
 * listeners.
 */
export function watchPointer(grid, on) {
  let press = null;
  const squareAt = (x, y) => {
    const el = document.elementFromPoint(x, y)?.closest?.(".cn-cell");
    return el && grid.contains(el) ? el.dataset.square : null;
  };

  const down = (e) => {
    if (press || e.button > 0) return;
    const square = squareAt(e.clientX, e.clientY);
    if (!square) return;
    e.preventDefault();
    grid.setPointerCapture?.(e.pointerId);
    press = { id: e.pointerId, kind: e.pointerType === "mouse" ? "mouse" : "touch", x: e.clientX, y: e.clientY,
      square, over: square, dragging: false };
    on.press(square, press);
  };
  const move = (e) => {
    if (!press) {
      if (e.pointerType === "mouse") on.hover(squareAt(e.clientX, e.clientY));
      return;
    }
    if (e.pointerId !== press.id) return;
    if (!press.dragging && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 8) press.dragging = true;
    if (press.dragging) on.drag(e.clientX, e.clientY, press);
    const square = squareAt(e.clientX, e.clientY);
    if (square !== press.over) {
      press.over = square;
      on.slide(square, press);
    }
  };
  const up = (e) => {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    on.release(squareAt(e.clientX, e.clientY), p);
  };
  const cancel = (e) => {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    on.abort(p);
  };
  const leave = (e) => {
    if (!press && e.pointerType === "mouse") on.hover(null);
  };
  const listeners = { pointerdown: down, pointermove: move, pointerup: up, pointercancel: cancel,
    lostpointercapture: cancel, pointerleave: leave, contextmenu: (e) => e.preventDefault() };
  for (const [name, fn] of Object.entries(listeners)) grid.addEventListener(name, fn);
  return () => {
    for (const [name, fn] of Object.entries(listeners)) grid.removeEventListener(name, fn);
  };
}
