"""Fast weighted playouts: play a position to its end with a cheap, Pentobi-like policy.

CPython is the bottleneck, so each playout move costs only a handful of big-int operations:

- the candidates come from the engine's narrow-window move tables for each attach point (the
  same lists `Position.random_move` draws from), so no move list is ever built in full;
- `k` legal candidates are drawn uniformly by rejection, and one of them is kept with
  probability proportional to its weight: the static `gamma` (big pieces, pieces with many
  corners) times a large factor when it covers an attach point opened by one of the last
  opponent moves ("local" blocking, as Pentobi's playouts do);
- the move is applied inline (no method calls) with the per-move `adj`/`attach` masks.

The result is a little less uniform than a full softmax, but costs about 15–25 µs a ply on
Duo instead of the ~100 µs a full weighted move list would.
"""

from __future__ import annotations

from bisect import bisect_right

from ..pieces import NU_PIECES, SINGLE, TOTAL_SQUARES

LOCAL_GAMMA = 1e4
TRIES_PER_CANDIDATE = 3
LOCAL_K = 3  # local candidates compared per playout move (local mode)
LOCAL_TRIES = 12  # draws from the near lists before giving up on a local move


def playout(pos, color: int, rnd, facts, *, k: int = 3, recent: tuple = (),
            dead: frozenset = frozenset(), local_mode: bool = False) -> list[list[int]]:
    """Play `pos` to the end (it is mutated), `color` to move first.

    `rnd` is a bound `random.Random().random`, `facts` the board's `MoveFacts`, `recent` the
    last few (color, move) pairs before the playout (for the local blocking bonus).
    Returns the moves each colour played, in order (for RAVE). Read the final scores from
    `pos` (`final_scores`). In two-colour games the playout stops as soon as the winner is
    certain (a stuck colour that is behind can only fall further behind). `dead` colours
    (their seat left the game) never move.
    """
    n = pos.nu_colors
    forb = pos.forbidden
    corners = pos.corners
    nu_played = pos.nu_played
    squares = pos.squares_placed
    last_piece = pos.last_piece
    start = pos.start_bit
    tables = pos.narrow
    cache = tables.cache
    window = tables.window
    wshift = tables.window_shift
    candidates = tables.candidates
    bc = pos.bc
    mm = bc.move_mask
    cm = bc.move_cells_mask
    mpiece = bc.move_piece
    pbit = bc.piece_bit
    adj = facts.adj
    attach = facts.attach
    gamma = facts.gamma
    size = facts.size
    played: list[list[int]] = [[] for _ in range(n)]
    alive = [c not in dead for c in range(n)]
    nu_alive = sum(alive)
    hist = list(recent[-3:])
    two = n == 2
    max_tries = TRIES_PER_CANDIDATE * k + 2
    k_local = LOCAL_K
    max_tries_local = LOCAL_TRIES
    stride = bc.stride
    on = bc.on_board
    c = color
    while nu_alive:
        if not alive[c]:
            c = (c + 1) % n
            continue
        f = forb[c]
        att0 = att = (corners[c] if nu_played[c] else start[c]) & ~f
        lists = []
        lows = []
        bounds = []
        total = 0
        while att:
            low = att & -att
            att ^= low
            a = low.bit_length() - 1
            key = (((f >> (a - wshift)) & window) << 10) | a
            cands = cache.get(key)
            if cands is None:
                cands = candidates(a, (f >> (a - wshift)) & window)
            if cands:
                lists.append(cands)
                lows.append(low)
                total += len(cands)
                bounds.append(total)
        move = -1
        if total:
            if local_mode:
                local = 0
                for hc, hm in hist:
                    if hc != c:
                        fo = forb[hc]
                        a2 = attach[hm] & ~fo
                        local |= a2 | (((a2 << 1) | (a2 >> 1) | (a2 << stride) | (a2 >> stride))
                                       & ~fo)
                local &= ~f & on
            else:
                local = 0
                for hc, hm in hist:
                    if hc != c:
                        local |= attach[hm] & ~forb[hc]
            found = 0
            wsum = 0.0
            if local_mode and local:
                # Local moves first (Pentobi's playout policy): draw from the lists of the
                # attach points within reach of a local point and keep the candidate covering
                # the most local points (own attach points among them count twice), gamma-
                # weighted among equals.
                near = local
                for _ in range(4):
                    near |= (near << 1) | (near >> 1) | (near << stride) | (near >> stride)
                nlists = []
                nbounds = []
                ntotal = 0
                for cands, low in zip(lists, lows, strict=True):
                    if low & near:
                        nlists.append(cands)
                        ntotal += len(cands)
                        nbounds.append(ntotal)
                if ntotal:
                    local2 = local & att0
                    best_cnt = 0
                    tries = 0
                    while found < k_local and tries < max_tries_local:
                        tries += 1
                        r = int(rnd() * ntotal)
                        i = bisect_right(nbounds, r)
                        m = nlists[i][r - nbounds[i - 1]] if i else nlists[0][r]
                        if mm[m] & f:
                            continue
                        cells = cm[m]
                        cnt = (cells & local).bit_count()
                        if not cnt:
                            continue
                        found += 1
                        cnt += (cells & local2).bit_count()
                        if cnt < best_cnt:
                            continue
                        w = gamma[m]
                        if cnt > best_cnt:
                            best_cnt = cnt
                            wsum = w
                            move = m
                            continue
                        wsum += w
                        if rnd() * wsum < w:
                            move = m
                local = 0
            if not found:
                tries = 0
                while found < k and tries < max_tries:
                    tries += 1
                    r = int(rnd() * total)
                    i = bisect_right(bounds, r)
                    m = lists[i][r - bounds[i - 1]] if i else lists[0][r]
                    if mm[m] & f:
                        continue
                    found += 1
                    w = gamma[m] * LOCAL_GAMMA if cm[m] & local else gamma[m]
                    wsum += w
                    if rnd() * wsum < w:
                        move = m
            if not found:
                for lst in lists:
                    for m in lst:
                        if not mm[m] & f:
                            w = gamma[m]
                            wsum += w
                            if rnd() * wsum < w:
                                move = m
        if move < 0:
            alive[c] = False
            nu_alive -= 1
            if two and nu_alive == 1 and _decided(pos, c):
                break
            c = (c + 1) % n
            continue
        cells = cm[move]
        for o in range(n):
            forb[o] |= cells
        piece = mpiece[move]
        forb[c] |= adj[move] | pbit[piece]
        corners[c] |= attach[move]
        nu_played[c] += 1
        squares[c] += size[move]
        last_piece[c] = piece
        played[c].append(move)
        hist.append((c, move))
        if len(hist) > 3:
            del hist[0]
        c = (c + 1) % n
    return played


def _decided(pos, stuck: int) -> bool:
    """Two colours, `stuck` has no move left: is it already behind (so it cannot win)?"""
    other = 1 - stuck
    return pos.squares_placed[stuck] < pos.squares_placed[other]


def final_scores(pos) -> list[int]:
    """Corner Claim scores of every colour (same as `Position.score`)."""
    out = []
    for c in range(pos.nu_colors):
        if pos.nu_played[c] == NU_PIECES:
            out.append(20 if pos.last_piece[c] == SINGLE else 15)
        else:
            out.append(pos.squares_placed[c] - TOTAL_SQUARES)
    return out
