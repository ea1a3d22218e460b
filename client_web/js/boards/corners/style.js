// Corners' board styles, installed once when the board module loads. A clock's time goes
// under the name on a narrow phone; the coordinates lie over the pieces, with a light halo.
//
// Second cues besides colour: a white piece is a plain disc with a dark rim, a black one a disc
// with a light ring inside; targets are hollow diamonds (a losing one a red ×), the chosen
// target a filled diamond; homes carry a corner notch of the owner's colour.

import { h } from "/js/dom.js";

const CSS = `
.cn { width: 100%; }
.cn-info { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; justify-content: center;
  font-size: .9rem; margin: 4px 0; color: var(--muted, #555); }
.cn-info b { color: var(--text, #111); font-variant-numeric: tabular-nums; }
.cn-info .warn { color: #ffb15c; font-weight: 700; }
.cn-clocks { display: flex; gap: 8px; margin: 4px 0 6px; }
.cn-clock { flex: 1 1 0; min-width: 0; display: flex; align-items: center; gap: 6px; padding: 4px 8px; border-radius: 10px;
  border: 2px solid var(--line, #999); background: var(--panel, #eee); font-variant-numeric: tabular-nums; }
.cn-clock .chip { width: 22px; height: 22px; }
.cn-clock .cn-who { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cn-clock .cn-time { flex: none; margin-left: auto; font-size: 1.25rem; font-weight: 800; white-space: nowrap; }
.cn-clock[data-running="true"] { border-color: #3d7bf0; box-shadow: 0 0 0 1px #3d7bf0; }
.cn-clock[data-running="true"] .cn-time::before { content: "▶ "; font-size: .8rem; }
.cn-clock.low { background: #5a1f1f; border-color: #ff5252; }
.cn-clock.low .cn-time { color: #ffb3ad; }
.cn-clock.low[data-running="true"] { box-shadow: 0 0 0 1px #ff5252; }
@media (max-width: 400px) {
  .cn-clock { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 0 6px; padding: 3px 6px; }
  .cn-clock .cn-time { grid-column: 1 / -1; justify-self: end; font-size: 1.15rem; line-height: 1.2; }
}
.cn-frame { position: relative; width: 100%; aspect-ratio: 1; }
@media (min-aspect-ratio: 1/1) { .cn-frame, .cn-moves, .cn-view.zoomed { width: min(100%, calc(100vh - 230px)); margin-left: auto; margin-right: auto; } }
/* zoomed: big squares, panned inside the board's own square box; a finger pans, a tap moves */
.cn-view.zoomed { aspect-ratio: 1; overflow: auto; overscroll-behavior: contain; border-radius: 4px; }
.cn-view.zoomed .cn-frame { width: calc(var(--n) * var(--zoomed-square)); margin: 0; }
.cn-view.zoomed .cn-board[data-active="true"] { touch-action: pan-x pan-y; }
.cn-zoom { font: inherit; font-size: .85rem; padding: 2px 10px; min-height: 30px; border-radius: 999px;
  border: 1px solid var(--line, #999); background: var(--panel, #eee); color: var(--text, #111); cursor: pointer; }
.cn-zoom[aria-pressed="true"] { border-color: #3d7bf0; box-shadow: 0 0 0 1px #3d7bf0; }
.cn-board { display: grid; grid-template-columns: repeat(var(--n), 1fr); grid-template-rows: repeat(var(--n), 1fr);
  position: absolute; inset: 0; border: 3px solid #5b4630; border-radius: 4px; touch-action: manipulation;
  -webkit-tap-highlight-color: transparent; user-select: none; -webkit-user-select: none; -webkit-touch-callout: none; }
/* on this phone's turn a finger on the board drags pieces; otherwise it scrolls the page */
.cn-board[data-active="true"] { touch-action: none; }
.cn-cell { position: relative; background: #ead7b0; cursor: pointer; min-width: 0; }
.cn-cell.dark { background: #b68c5e; }
.cn-cell.home1::before, .cn-cell.home2::before { content: ""; position: absolute; width: 22%; height: 22%; left: 0; bottom: 0;
  background: linear-gradient(45deg, #fbfaf5 50%, transparent 50%); opacity: .9; }
.cn-cell.home2::before { left: auto; bottom: auto; right: 0; top: 0; background: linear-gradient(225deg, #1b1b1b 50%, transparent 50%); }
.cn-coord { position: absolute; z-index: 2; font-size: 9px; font-weight: 600; line-height: 1; color: rgba(40,25,10,.85);
  pointer-events: none; text-shadow: 0 0 2px #f3e6c8, 0 0 2px #f3e6c8; }
.cn-coord.file { right: 1px; bottom: 0; }
.cn-coord.rank, .cn-coord.name { left: 1px; top: 0; }
.cn-piece { position: absolute; inset: 11%; border-radius: 50%; pointer-events: none; z-index: 1; }
.cn-piece.w { background: radial-gradient(circle at 35% 30%, #fff, #e9e4d6 70%); border: 3px solid #2b2b2b; }
.cn-piece.b { background: radial-gradient(circle at 35% 30%, #555, #111 70%); border: 2px solid #111;
  box-shadow: inset 0 0 0 4px #111, inset 0 0 0 6px #e8e8e8; }
.cn-cell.from .cn-piece { transform: scale(1.08); box-shadow: 0 0 0 3px #3d7bf0, 0 4px 8px rgba(0,0,0,.45); }
.cn-cell.from.b-piece .cn-piece { box-shadow: inset 0 0 0 4px #111, inset 0 0 0 6px #e8e8e8, 0 0 0 3px #3d7bf0, 0 4px 8px rgba(0,0,0,.45); }
.cn-cell.lifted .cn-piece { opacity: .35; }
.cn-cell.target::after { content: ""; position: absolute; inset: 33%; border: 3px solid #1560d4; background: rgba(255,255,255,.55);
  transform: rotate(45deg); z-index: 2; }
.cn-cell.target.chosen::after { background: #1560d4; border-color: #fff; inset: 27%; }
/* small squares (16×16 on a phone, not zoomed): bigger targets */
.cn-view[data-small="true"]:not(.zoomed) .cn-cell.target::after { inset: 22%; }
.cn-cell.target.loses::after { content: "×"; transform: none; inset: 18%; border: 3px dashed #c62828; border-radius: 50%;
  background: rgba(255,255,255,.7); color: #c62828; font-weight: 900; display: grid; place-items: center; font-size: 1.1em; }
.cn-cell.target.loses.chosen::after { background: #c62828; color: #fff; border-color: #fff; }
.cn-cell.last-from, .cn-cell.last-to { box-shadow: inset 0 0 0 3px rgba(255, 214, 0, .85); }
.cn-cell.cursor { outline: 4px solid #8fb8ff; outline-offset: -4px; z-index: 3; }
.cn-paths { position: absolute; inset: 3px; width: calc(100% - 6px); height: calc(100% - 6px); pointer-events: none; z-index: 4; }
.cn-paths .last { stroke: #ffd600; stroke-width: .09; fill: none; stroke-dasharray: .18 .12; stroke-linecap: round; stroke-linejoin: round; opacity: .9; }
.cn-paths .shown { stroke: #1560d4; stroke-width: .14; fill: none; stroke-linecap: round; stroke-linejoin: round; }
.cn-paths .shown.loses { stroke: #c62828; stroke-dasharray: .2 .12; }
.cn-paths .dot { fill: #1560d4; }
.cn-paths .dot.loses { fill: #c62828; }
.cn-ghost { position: absolute; pointer-events: none; z-index: 5; transform: translate(-50%, -50%) scale(1.15); }
.cn-ghost .cn-piece { inset: 11%; box-shadow: 0 6px 14px rgba(0,0,0,.5); }
.cn-moves { height: 4.9em; overflow-y: auto; margin-top: 6px; margin-bottom: 0; padding: 3px 6px; list-style: none; display: flex;
  flex-wrap: wrap; align-content: flex-start; gap: 2px 14px; font-size: .9rem; line-height: 1.5;
  font-variant-numeric: tabular-nums; background: var(--panel, #eee); border: 1px solid var(--line, #999);
  border-radius: 8px; overscroll-behavior: contain; }
.cn-moves li { white-space: nowrap; }
.cn-moves .cn-num { color: var(--muted, #555); margin-right: 3px; }
.cn-moves .cn-ply + .cn-ply { margin-left: 6px; }
.cn-moves .cn-ply.newest { font-weight: 800; color: #ffd27a; }
.cn-moves .cn-none { color: var(--muted, #555); }
.cn-detail { font-size: .85rem; color: var(--muted, #555); margin-top: 2px; }
.cn-hint { min-height: 1.2em; font-size: .9rem; margin: 4px 0; }
`;

export function installStyle() {
  if (!document.head.querySelector("style[data-board=corners]")) {
    document.head.append(h("style", { "data-board": "corners" }, CSS));
  }
}
