// Corner's board styles, put in the page once by the board module.
//
// Second cues besides colour: every marble carries its letter (Y R G B W S K); black is
// striped and crossed out, since it can never be taken. The lines I may choose are solid
// light bands with a blue edge and their coordinate in bold, the one chosen a blue band; a
// marble I can take has a solid blue ring, the one Enter takes a glow besides; the cell taken
// last a dotted yellow ring. Each groove slot names its line (a–f, 1–6).
const CSS = `
.mb { width: 100%; }
.mb-info { display: flex; flex-wrap: wrap; gap: 4px 10px; justify-content: center; font-size: .9rem; margin: 4px 0;
  color: var(--muted, #555); }
.mb-info b { color: var(--text, #111); }
.mb-frame { display: grid; grid-template-columns: .62fr repeat(6, 1fr) .62fr; grid-template-rows: .62fr repeat(6, 1fr) .62fr;
  width: 100%; aspect-ratio: 1; background: #7a5635; border-radius: 10px; padding: 2px; box-sizing: border-box;
  touch-action: manipulation; user-select: none; -webkit-user-select: none; -webkit-tap-highlight-color: transparent; }
@media (min-aspect-ratio: 1/1) { .mb-frame { width: min(100%, calc(100vh - 200px)); margin: 0 auto; } }
.mb-cell { position: relative; display: grid; place-items: center; min-width: 0; cursor: pointer; }
.mb-cell::before { content: ""; position: absolute; inset: 22%; border-radius: 50%; background: #3e2a18; box-shadow: inset 0 2px 3px #000; }
.mb-cell.online { background: rgba(255,255,255,.22); }
.mb-marble { position: absolute; inset: 8%; border-radius: 50%; display: grid; place-items: center; font-weight: 900;
  font-size: clamp(12px, 4.2vw, 22px); box-shadow: inset -3px -4px 6px rgba(0,0,0,.35), 0 1px 2px rgba(0,0,0,.5);
  pointer-events: none; z-index: 1; }
.m-Y { background: #f6d23a; color: #222; } .m-R { background: #d32f2f; color: #fff; }
.m-G { background: #2e9d44; color: #fff; } .m-B { background: #1e5bd8; color: #fff; }
.m-W { background: #f7f7f2; color: #222; } .m-S { background: #9a9a9a; color: #111; }
.m-K { background: repeating-linear-gradient(45deg, #111 0 5px, #3a3a3a 5px 8px); color: #ddd; }
.mb-cell .m-K::after { content: ""; position: absolute; inset: 18%; border: 2px solid #bbb; border-radius: 50%;
  background: linear-gradient(45deg, transparent 45%, #bbb 45% 55%, transparent 55%); opacity: .8; }
.mb-cell.k { cursor: not-allowed; }
.mb-cell.take::after { content: ""; position: absolute; inset: 1%; border-radius: 50%; border: 4px solid #1560d4;
  box-shadow: 0 0 0 2px #fff; z-index: 2; }
.mb-cell.take.focus::after { border-width: 5px; box-shadow: 0 0 0 3px #fff, 0 0 10px 5px #8fb8ff; }
.mb-cell.last::after { content: ""; position: absolute; inset: 14%; border-radius: 50%; border: 3px dotted #ffd600; z-index: 2; }
.mb-cell.better::after { content: ""; position: absolute; inset: 1%; border-radius: 50%; border: 4px dashed #35d07f;
  box-shadow: 0 0 0 2px #000; z-index: 2; }
.mb-slot { position: relative; display: grid; place-items: center; min-width: 0; font-size: clamp(14px, 5vw, 26px);
  line-height: 1; color: rgba(255,255,255,.25); border: 2px solid transparent; border-radius: 7px; margin: 1px;
  background: transparent; padding: 0; font-family: inherit; }
.mb-slot::before { content: ""; position: absolute; background: #4a321d; border-radius: 3px; }
.mb-slot.g-top::before, .mb-slot.g-bottom::before { left: 0; right: 0; top: 40%; bottom: 40%; }
.mb-slot.g-left::before, .mb-slot.g-right::before { top: 0; bottom: 0; left: 40%; right: 40%; }
.mb-slot .arrow { position: relative; z-index: 1; font-weight: 900; -webkit-text-stroke: 1px #000; }
.mb-slot .arrow.red { color: #ff5a4f; } .mb-slot .arrow.yellow { color: #ffe04a; }
.mb-slot .arrow.ghost { opacity: .75; -webkit-text-stroke: 1px #35d07f; }
.mb-slot.better { border: 2px dashed #35d07f; }
.mb-coord { position: absolute; z-index: 1; font: 700 13px/1 system-ui, sans-serif; color: #f3e6d4;
  text-shadow: 0 1px 1px #000; pointer-events: none; }
.mb-slot.g-top .mb-coord, .mb-slot.g-bottom .mb-coord { left: 4px; top: 50%; transform: translateY(-50%); }
.mb-slot.g-left .mb-coord, .mb-slot.g-right .mb-coord { top: 3px; left: 50%; transform: translateX(-50%); }
.mb-slot.mine::before { background: #684728; }
.mb-slot.legal { cursor: pointer; background: #fff8dc; border-color: #1560d4; box-shadow: 0 1px 3px rgba(0,0,0,.6); }
.mb-slot.legal::before { display: none; }
.mb-slot.legal .mb-coord { color: #0b3d91; text-shadow: none; font-size: 15px; }
.mb-slot.chosen { background: #1560d4; border-color: #fff; }
.mb-slot.chosen .mb-coord { color: #fff; }
.mb-slot.mine { touch-action: none; }
.mb-corner { min-width: 0; }
.mb-fly { position: fixed; z-index: 50; pointer-events: none; inset: auto; }
.mb-trays { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; margin: 6px 0; }
.mb-tray { border: 2px solid var(--line, #999); border-radius: 10px; padding: 4px 6px; font-size: .85rem; min-width: 0; }
.mb-tray.to-move { border-color: #3d7bf0; box-shadow: 0 0 0 1px #3d7bf0; }
.mb-tray h4 { margin: 0 0 3px; font-size: .9rem; line-height: 1.3; min-width: 0; overflow: hidden;
  display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow-wrap: anywhere; }
.mb-tray h4 .chip { width: 18px; height: 18px; font-size: .7rem; border-radius: 4px; vertical-align: -3px; margin-right: 4px; }
.mb-tray h4 .names { font-weight: 400; font-size: .8rem; color: var(--muted, #555); }
.mb-tray ul { list-style: none; margin: 0; padding: 0; }
.mb-tray li { display: flex; align-items: center; gap: 4px; white-space: nowrap; }
.mb-tray .mini { position: relative; inset: auto; width: 18px; height: 18px; font-size: 11px; display: inline-grid; }
.mb-tray .dbl { color: #e65100; font-weight: 800; }
.mb-tray .sum { margin-top: 3px; font-weight: 700; }
.mb-score-table { border-collapse: collapse; font-size: .75rem; margin: 4px auto; }
.mb-score-table td, .mb-score-table th { border: 1px solid var(--line, #999); padding: 1px 4px; text-align: center; }
.mb-rounds { font-size: .85rem; margin: 2px 0; text-align: center; }
.mb-summary { border: 2px solid #3d7bf0; border-radius: 10px; padding: 6px 8px; margin: 6px 0; font-size: .9rem; }
.mb-detail { font-size: .85rem; color: var(--muted, #555); margin-top: 2px; }
`;

/** Puts the board's styles in the page (once). */
export function addStyles(h) {
  if (!document.querySelector("style[data-board=marbles]")) document.head.append(h("style", { "data-board": "marbles" }, CSS));
}
