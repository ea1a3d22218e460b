// A table drawn from the host's game body alone, by the game's own board module, on a screen
// that holds no seat. The phone's watch mode, the replay viewer and /tv draw through it the
// same way: `board.render(state, spectatorView(state))`, where `state` is the game body (the
// envelope of GET /api/games/{id}, or a replay frame made into one). Nothing else is needed:
// no seat, no token, no shell.

/** What a board is told besides the state on a screen that holds no seat: nobody to move
 *  here, no seat's own controls, watching. (The phone's shell gives the same for a watcher.)
 *  @returns {import("./contract.js").BoardView} */
export function spectatorView(state) {
  const finished = state?.status === "finished" || !!state?.result;
  return { active: null, shown: null, busy: false, finished, watching: true };
}

const nothing = () => Promise.resolve(false);

/**
 * A read-only board of the board module `mod` in `el`. `live`: the states are a table's as the
 * host pushes them (clocks run, the move list and the seat to move's open corners are shown),
 * false for a replay's frames. Not a board module itself: any module's board, wrapped.
 * @param {import("./contract.js").BoardModule} mod
 * @returns {import("./contract.js").WatchedBoard}
 */
export function watchBoard(mod, { el, entry, live = true }) {
  const board = mod.createBoard({ el, side: null, entry, readOnly: true, live, host: null, play: nothing,
    say: () => {} });
  let shown = null;
  return {
    board,
    render(state) {
      shown = state;
      board.render(state, spectatorView(state));
    },
    seatDetail: (seat) => board.seatDetail?.(seat, spectatorView(shown)) || null,
    destroy: () => board.destroy(),
  };
}
