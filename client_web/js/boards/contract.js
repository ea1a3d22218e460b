// The board-module contract: what a page may ask of a game's board module and of the board it
// makes. The pages find a game's module through the catalog (`loadBoard(entry)` in catalog.js:
// `import(entry.board_url)`, served at /boards/<game>.js) and call `createBoard(ctx)`; the
// table shell (game.js, table/), the replay viewer (replay.js) and /tv (tv/, through watch.js)
// then call the board by duck typing: the required members always, an optional one only where
// present. The pages name these types in JSDoc only (`import("./boards/contract.js").Board`),
// so no page loads this file; tests/test_board_contract.py loads it to check every board
// module, and so may the console: `(await import("/js/boards/contract.js")).checkBoard(ccGame.board)`.
//
// boards/watch.js is no board module: `watchBoard(mod, …)` makes a read-only board of any
// module and hands it back inside a WatchedBoard.

/**
 * A game's board module (js/boards/<game>.js, or the file a test game registers).
 * @typedef {object} BoardModule
 * @property {(ctx: BoardContext) => Board} createBoard required: a board drawn into `ctx.el`
 *   (catalog.js refuses a module without it).
 * @property {Object<string, {fill: string, ink: string, mark: string}>} [palette] per seat colour
 *   its fill, text colour and chip mark; absent: the catalog's palette alone.
 * @property {(frame: object) => Promise<{setup: string}|null>} [setupOf] the replay frame's
 *   position as the setup option's text; absent: no "Set up from here".
 * @property {(ctx: {el: Element, option: object, value: string, onChange: (text: string) => void}) =>
 *   Promise<{set: (text: string) => void, destroy: () => void}>} [editSetup] the lobby's position
 *   editor for an option with `editor: "board"`; absent: the option is typed only.
 * @property {() => Promise<Element>} [thumbnail] the game's picture (the lobby draws the
 *   catalog's `thumb_url` module's; this is the same drawing).
 */

/**
 * What `createBoard` is given.
 * @typedef {object} BoardContext
 * @property {Element} el where the board draws (the table's board area, the replay's box, a /tv tile)
 * @property {Element|null} side the side panel's box for the board's own controls; null where nobody plays
 * @property {object} entry the game's catalog line
 * @property {boolean} readOnly no input: the replay, /tv, watch.js
 * @property {boolean} [live] a table's pushed states (clocks run, move list); default: not readOnly
 * @property {BoardHost|null} host what the board may ask of the host; null when readOnly
 * @property {(seat: number, move: string) => Promise<boolean>} play sends a move; false if refused
 * @property {(text: string) => void} say a line in the message area
 */

/**
 * @typedef {object} BoardHost
 * @property {(seat: number, query?: object) => Promise<{seat: number, seq: number,
 *   moves: Array<{move: string}>}>} legal the host's legal moves (the catalog's `legal_query`
 *   picks the query's key), cached per seq
 * @property {(seat: number) => Promise<{seat: number, seq: number, move: string}>} hint
 */

/**
 * What a board is told besides the state (table/view.js; watch.js's `spectatorView`).
 * @typedef {object} BoardView
 * @property {number|null} active the seat this screen may move now
 * @property {number|null} shown whose own controls show; null for a watcher and after the end
 * @property {boolean} busy a command is on its way
 * @property {boolean} finished
 * @property {boolean} watching
 */

/**
 * The board `createBoard` returns. Required: render, destroy. What a page does without an
 * optional member is said after it.
 * @typedef {object} Board
 * @property {(state: object, view?: BoardView) => void} render draws the host's game body
 *   (GET /api/games/{id}, or a replay frame made one); without `view`, as a seatless screen.
 * @property {() => void} destroy removes everything it drew and stops its timers.
 * @property {(seat: number, view: BoardView) => Element|null} [seatDetail] an element under a
 *   seat's card; absent or null: nothing there.
 * @property {(e: KeyboardEvent) => boolean} [onKey] true if it took the key; absent: every
 *   key goes to the shell (Z, H).
 * @property {(move: string) => boolean} [showHint] true if it showed the host's hint; absent or
 *   false: the hint is said in the message line.
 * @property {(frame: object) => string} [describeMove] a replay frame's move line; absent or
 *   empty: the host's move text (or the step's kind).
 * @property {(frame: object) => {number: number, text: string}|null} [numberMove] moves numbered
 *   in rows ("12. c3-e3-e5 f6-e6"); absent: one line per frame, the counter counts frames.
 * @property {(move: string, seat: number) => boolean} [previewMove] draws `move` over the
 *   position shown until the next render; absent: the replay shows no better move.
 * @property {Object<string, {label?: string, confirm?: string, danger?: boolean}>} [actions]
 *   the words of game actions the catalog does not word; absent: the catalog's, else the name.
 */

/**
 * What watch.js's `watchBoard(mod, {el, entry, live})` returns: a read-only board of `mod`
 * drawn as a seatless screen (the phone's watch mode, the replay, /tv).
 * @typedef {object} WatchedBoard
 * @property {Board} board the board itself (the replay calls its optional members)
 * @property {(state: object) => void} render
 * @property {(seat: number) => Element|null} seatDetail
 * @property {() => void} destroy
 */

/** The members of a Board as `typeof` sees them; a trailing "?" marks an optional one. */
export const BOARD = Object.freeze({
  render: "function", destroy: "function", seatDetail: "function?", onKey: "function?",
  showHint: "function?", describeMove: "function?", numberMove: "function?",
  previewMove: "function?", actions: "object?",
});

/** The exports of a BoardModule the pages use (a module may export helpers besides). */
export const MODULE = Object.freeze({
  createBoard: "function", palette: "object?", setupOf: "function?", editSetup: "function?",
  thumbnail: "function?",
});

/** What is wrong with `obj` against `members` (BOARD or MODULE): a list of sentences, empty if
 *  nothing. `strict`: a member not in the list is wrong too (a board's, not a module's). */
export function problems(obj, members, strict = false) {
  if (!obj || typeof obj !== "object") return [`not an object: ${obj}`];
  const found = [];
  for (const [name, kind] of Object.entries(members)) {
    const type = kind.replace("?", "");
    const value = obj[name];
    if (value === undefined) {
      if (!kind.endsWith("?")) found.push(`${name}: required ${type}, missing`);
    } else if (typeof value !== type || value === null) {
      found.push(`${name}: ${type} declared, ${value === null ? "null" : typeof value} found`);
    }
  }
  if (strict) for (const name of Object.keys(obj)) if (!(name in members)) found.push(`${name}: not declared`);
  return found;
}

export const checkBoard = (board) => problems(board, BOARD, true);
export const checkModule = (mod) => problems(mod, MODULE);
