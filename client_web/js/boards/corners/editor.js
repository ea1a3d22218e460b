// Corners' set-up editor: place white and black pieces on an empty board by taps, choose who
// moves and the move number; it writes the setup option's text ("W:a1,b1 B:h8 w 1"), and
// the host decides whether the position can be played (its message shows under the form).
// The board's size and the variant's start position come from the option's placeholder (the
// host writes the start position there), so nothing here knows a variant: the squares white
// starts on carry white's home mark, black's black's, and the edges carry the coordinates.
//
// A set-up game is always practice: while the editor is open the form's Practice box shows
// ticked and cannot be unticked. The host's refusal of a position is about the position it was
// sent: once the position on the board is another, the refusal goes (the host judges the new
// one when the game is created).

import { h } from "/js/dom.js";
import { installStyle } from "/js/boards/corners/style.js";
import { COLUMNS, parseSetup, setupText, squareKey } from "/js/boards/corners/setup.js";

const CSS = `
.cn-setup { display: grid; gap: 8px; margin: 8px 0; }
.cn-setup .cn-cell { border: 0; padding: 0; margin: 0; font: inherit; border-radius: 0; }
.cn-setup-row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.cn-setup-row input[type=number] { width: 5em; }
`;

/** The board's size: the far corner of the start position (h8 → 8, p16 → 16). */
function sizeOf(start) {
  let size = 8;
  for (const sq of start?.pieces.keys() || []) {
    const [c, r] = squareKey(sq);
    size = Math.max(size, c + 1, r);
  }
  return size;
}

/**
 * ctx: {el, option (the catalog's setup option), value (the current text), onChange(text)}.
 * Returns {set(text), destroy()}.
 */
export function editSetup(ctx) {
  installStyle();
  if (!document.head.querySelector("style[data-board=corners-setup]")) {
    document.head.append(h("style", { "data-board": "corners-setup" }, CSS));
  }
  const start = parseSetup(ctx.option.placeholder || "");
  const n = sizeOf(start);
  const given = parseSetup(ctx.value);
  const g = {
    pieces: new Map(given ? given.pieces : start ? start.pieces : []),
    side: given ? given.side : 1,
    number: given ? given.number : 1,
    tool: 1, // 1 white, 2 black, 0 empty
  };

  const cells = new Map();
  const grid = h("div.cn-board.board.cn-setup-board", { "data-testid": "setup-board", role: "grid",
    "aria-label": "Set-up board: tap a square to place or remove a piece" });
  grid.style.setProperty("--n", n);
  for (let row = n; row >= 1; row--) {
    for (let col = 0; col < n; col++) {
      const name = `${COLUMNS[col]}${row}`;
      const home = start?.pieces.get(name);
      const el = h(`button.cn-cell${(row + col) % 2 === 0 ? "" : ".dark"}${home ? `.home${home}` : ""}`, { type: "button",
        role: "gridcell", "data-testid": `setup-cell-${name}`, "aria-label": name, onclick: () => place(name) });
      el.coords = [row === 1 ? h("span.cn-coord.file", {}, COLUMNS[col]) : null,
        col === 0 ? h("span.cn-coord.rank", {}, String(row)) : null].filter(Boolean);
      cells.set(name, el);
    }
  }
  grid.replaceChildren(...cells.values());

  const toolButton = (tool, label, id) => h("button.count", { type: "button", "data-testid": `setup-tool-${id}`,
    onclick: () => {
      g.tool = tool;
      paint();
    } }, label);
  const tools = [toolButton(1, "○ White", "white"), toolButton(2, "● Black", "black"), toolButton(0, "Empty", "empty")];
  const side = h("select", { "data-testid": "setup-to-move", "aria-label": "Side to move",
    onchange: (e) => {
      g.side = Number(e.target.value);
      changed();
    } }, h("option", { value: "1" }, "White"), h("option", { value: "2" }, "Black"));
  const number = h("input", { type: "number", min: 1, step: 1, inputmode: "numeric", "data-testid": "setup-number",
    "aria-label": "Move number", style: "--digits: 3",
    oninput: (e) => {
      const v = Number(e.target.value);
      if (Number.isInteger(v) && v >= 1) {
        g.number = v;
        changed();
      }
    } });
  const counts = h("p.note", { "data-testid": "setup-counts", "aria-live": "polite" });
  const el = h("div.cn-setup", { "data-testid": "setup-editor" },
    h("div.counts", { role: "group", "aria-label": "Piece to place" }, tools),
    h("div.cn-frame", {}, grid),
    h("div.cn-setup-row", {},
      h("label.field", {}, "To move ", side), h("label.field", {}, "Move ", number),
      h("button.btn", { type: "button", "data-testid": "setup-clear", onclick: () => {
        g.pieces.clear();
        changed();
      } }, "Empty board"),
      h("button.btn", { type: "button", "data-testid": "setup-start", onclick: () => {
        g.pieces = new Map(start ? start.pieces : []);
        g.side = 1;
        g.number = 1;
        changed();
      } }, "Start position")),
    counts);
  ctx.el.replaceChildren(el);

  function place(name) {
    const now = g.pieces.get(name) || 0;
    if (g.tool === 0 || now === g.tool) g.pieces.delete(name);
    else g.pieces.set(name, g.tool);
    changed();
  }

  function paint() {
    for (const [name, cell] of cells) {
      const v = g.pieces.get(name) || 0;
      cell.dataset.piece = v === 1 ? "white" : v === 2 ? "black" : "";
      cell.replaceChildren(...cell.coords, ...(v ? [h(`span.cn-piece.${v === 1 ? "w" : "b"}`)] : []));
    }
    tools.forEach((b, i) => b.setAttribute("aria-pressed", String([1, 2, 0][i] === g.tool)));
    side.value = String(g.side);
    if (document.activeElement !== number) number.value = String(g.number);
    const count = (seat) => [...g.pieces.values()].filter((v) => v === seat).length;
    counts.textContent = `White ${count(1)} · Black ${count(2)} pieces`;
  }

  function changed() {
    paint();
    g.text = setupText(g.pieces, g.side, g.number);
    ctx.onChange(g.text);
    form.sync();
  }

  g.text = given ? ctx.value : setupText(g.pieces, g.side, g.number);
  const form = aroundForm(ctx.el, () => g.text);
  paint();
  if (!given) ctx.onChange(g.text);
  form.sync();
  return {
    set(text) {
      g.text = text;
      const p = parseSetup(text);
      if (p) {
        g.pieces = p.pieces;
        g.side = p.side;
        g.number = p.number;
        paint();
      }
      form.sync();
    },
    destroy() {
      form.stop();
      el.remove();
    },
  };
}

/**
 * What the editor keeps in the create form around `box` (its fields are drawn again whenever
 * the form is, so this looks again each time): the Practice box ticked and fixed while a
 * position is set, and the host's refusal gone once the position is not the one refused.
 * `text()`: the setup text now. Returns {sync(), stop()}.
 */
function aroundForm(box, text) {
  const root = box.closest("[data-testid=new-game-form]") || box.parentElement;
  let seen = null; // the refusal last looked at (the form draws a new one each time)
  let refused = null; // the position the host refused
  function sync() {
    const form = box.closest("form");
    const practice = form?.querySelector("[data-testid=option-practice]");
    if (practice) {
      const set = !!text().trim();
      practice.dataset.title ??= practice.title;
      if (set) practice.checked = true;
      practice.disabled = set;
      practice.title = set ? "A game from a set-up position is always practice" : practice.dataset.title;
    }
    const refusal = form?.querySelector("[data-testid=option-error-setup]");
    if (!refusal) return;
    const said = document.querySelector("[data-testid=lobby-error]");
    if (refusal !== seen) { // drawn again: a new refusal if the host has just said it
      seen = refusal;
      if (said?.textContent === refusal.textContent) refused = text();
    }
    if (refused !== null && text() === refused) return;
    refusal.remove();
    if (said?.textContent === refusal.textContent) said.textContent = "";
  }
  const watch = new MutationObserver(sync);
  if (root) watch.observe(root, { childList: true, subtree: true });
  return { sync, stop: () => watch.disconnect() };
}
