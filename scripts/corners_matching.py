"""The exact minimum-cost matching the second Corners yardstick (scripts/corners_yardstick2.py)
evaluates a side by: each of its pieces outside the target to its own open target square."""

from __future__ import annotations

import math

INF = 10_000_000  # more than any matching costs
DP_STATES = 4000  # the most steps the matching takes by subsets, else the Hungarian method


def match_cost(rows: list[list[int]]) -> int:
    """The least total cost of assigning each row to a distinct column (rows ≤ columns);
    `rows[i][j]` is row i's cost in column j. By subsets of the columns while they are few
    (`DP_STATES`), else by the Hungarian method."""
    r = len(rows)
    if r == 0:
        return 0
    k = len(rows[0])
    if sum(math.comb(k, i) for i in range(r)) * k <= DP_STATES:
        return _match_subsets(rows)
    return _match_hungarian(rows)


def _match_subsets(rows: list[list[int]]) -> int:
    """Row by row, the least cost of each set of columns the rows so far can take."""
    k = len(rows[0])
    bits = [(j, 1 << j) for j in range(k)]
    layer = {0: 0}
    for row in rows:
        following: dict[int, int] = {}
        get = following.get
        for mask, c in layer.items():
            for j, b in bits:
                if not mask & b:
                    v = c + row[j]
                    nm = mask | b
                    if v < get(nm, INF):
                        following[nm] = v
        layer = following
    return min(layer.values())


def _match_hungarian(rows: list[list[int]]) -> int:
    """The Hungarian method with row and column potentials (shortest augmenting paths),
    O(n² m) for n rows and m ≥ n columns."""
    n, m = len(rows), len(rows[0])
    u = [0] * (n + 1)  # row potentials, 1-based
    v = [0] * (m + 1)  # column potentials, 1-based; column 0 is the free start
    owner = [0] * (m + 1)  # the row (1-based) each column holds, 0 none
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        slack = [INF] * (m + 1)
        came = [0] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            row = rows[i0 - 1]
            ui0 = u[i0]
            delta, j1 = INF, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if cur < slack[j]:
                        slack[j] = cur
                        came[j] = j0
                    if slack[j] < delta:
                        delta, j1 = slack[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = came[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return sum(rows[owner[j] - 1][j - 1] for j in range(1, m + 1) if owner[j])
