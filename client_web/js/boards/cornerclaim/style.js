// Corner Claim's board styles (the grid, the piece in hand, the tray, the remaining pieces
// under each seat's card), installed once when the board module loads.
//
// Each colour has a second cue on the board (a pattern), for colour-blind players.

import { h } from "/js/dom.js";

const CSS = `
.cc-board { display: grid; grid-template-columns: repeat(var(--n), 1fr); gap: 1px; background: var(--grid);
  border: 2px solid var(--grid); border-radius: 4px; width: 100%; aspect-ratio: 1; touch-action: none;
  user-select: none; -webkit-user-select: none; -webkit-touch-callout: none; }
.cc-board .cell { background: var(--empty); position: relative; }
.cc-board .cell.o-blue { background: #2f6fde repeating-linear-gradient(45deg, transparent 0 3px, rgba(255,255,255,.28) 3px 5px); }
.cc-board .cell.o-yellow { background: #e0b400 radial-gradient(circle, rgba(0,0,0,.35) 22%, transparent 26%) 0 0 / 50% 50%; }
.cc-board .cell.o-red { background: #d63c3c repeating-linear-gradient(0deg, transparent 0 3px, rgba(0,0,0,.3) 3px 5px); }
.cc-board .cell.o-green { background: #2e9e4f repeating-linear-gradient(90deg, transparent 0 3px, rgba(255,255,255,.28) 3px 5px); }
.cc-board .cell.last { box-shadow: inset 0 0 0 2px #fff; }
/* the last piece placed also carries a white dot per square: seen across a room on /tv */
.cc-board .cell.last:not(.pv)::before { content: ""; position: absolute; inset: 34%; border-radius: 50%;
  background: #fff; box-shadow: 0 0 0 1px rgba(0,0,0,.55); }
.cc-board .cell.corner::after { content: ""; position: absolute; inset: 32%; border-radius: 50%; background: var(--c); opacity: .9; }
.cc-board .cell.can { background: color-mix(in srgb, var(--h) 28%, var(--empty)); }
/* The piece in hand. Fits: the seat's own colour, a solid white frame and a check mark.
   Does not fit: never a seat colour (charcoal, white hatching), a dashed frame and a cross.
   So the two differ in lightness, pattern, frame and mark, whatever the seat's colour. */
.cc-board .cell.pv::after { position: absolute; inset: 0; display: grid; place-items: center; border-radius: 0;
  background: none; opacity: 1; font-weight: 900; font-size: .85em; line-height: 1; }
.cc-board .cell.pv-legal { background: var(--h); box-shadow: inset 0 0 0 2px #fff, inset 0 0 0 3px #111, 0 0 6px 1px var(--h); z-index: 1; }
.cc-board .cell.pv-legal::after { content: "✓"; color: #fff; text-shadow: 0 0 2px #000, 0 0 1px #000; }
.cc-board .cell.pv-better { background: color-mix(in srgb, var(--h) 70%, transparent); box-shadow: inset 0 0 0 2px #35d07f, 0 0 6px 1px var(--h); z-index: 1; }
.cc-board .cell.pv-better::after { content: "★"; color: #fff; text-shadow: 0 0 2px #000, 0 0 1px #000; }
.cc-board .cell.pv-pending { background: color-mix(in srgb, var(--h) 55%, #888); }
.cc-board .cell.pv-illegal { background: #2b2b2b repeating-linear-gradient(45deg, transparent 0 2px, rgba(255,255,255,.45) 2px 3.5px);
  outline: 2px dashed #fff; outline-offset: -2px; z-index: 1; }
.cc-board .cell.pv-illegal::after { content: "×"; color: #fff; font-size: 1.1em; text-shadow: 0 0 2px #000; }
.tray { display: grid; grid-template-columns: repeat(auto-fill, minmax(50px, 1fr)); gap: 5px; margin: 4px 0; }
.piece { height: 46px; border-radius: 10px; border: 1px solid var(--line); background: var(--panel); display: grid; place-items: center; padding: 3px; cursor: pointer; }
.piece svg { fill: var(--c); max-width: 100%; max-height: 38px; }
.piece[aria-pressed="true"] { background: #43506a; border: 2px solid #fff; box-shadow: 0 0 0 2px var(--c), 0 4px 8px rgba(0,0,0,.4); }
.piece:disabled { opacity: .55; cursor: default; }
.hand-controls { margin: 4px 0; }
.hand-controls.idle, .hand-controls.idle .btn { visibility: hidden; -webkit-tap-highlight-color: transparent; }
.hand-controls .btn[data-off] { visibility: hidden; }
.mini { display: flex; flex-wrap: wrap; gap: 5px 7px; margin-top: 4px; align-items: flex-end; width: 100%;
  background: none; border: 0; padding: 2px 0; color: inherit; font: inherit; cursor: zoom-in; text-align: left; }
.mini svg { width: calc(var(--w) * 8px); height: calc(var(--hh) * 8px); }
.mini.big { cursor: zoom-out; gap: 8px 12px; }
.mini.big svg { width: calc(var(--w) * 15px); height: calc(var(--hh) * 15px); }
.mini-piece { fill: var(--c); }
.mini .none { color: var(--muted); font-size: .85rem; }
.keys-help { color: var(--muted); font-size: .85rem; margin: 2px 0 6px; }
`;

export function installStyle() {
  if (!document.head.querySelector("style[data-board=cornerclaim]")) {
    document.head.append(h("style", { "data-board": "cornerclaim" }, CSS));
  }
}
