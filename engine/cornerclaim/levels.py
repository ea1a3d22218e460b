"""Corner Claim's computer levels: their names, what a player meets, and each search level's
budget and options. Apart from the players themselves (`ai`), so the host's catalog lists
the levels without loading the compiled search (numba) into the web process."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    description: str
    playouts: int = 0  # 0: a one-ply player
    seconds: float = 3.0
    temperature: float = 0.0  # one-ply players: 0 plays the best move, more is looser
    book: bool = False  # play our opening book (`book.py`) while in book
    local: bool = False  # playouts answer the opponents' last moves first (`playout.py`)
    learned: bool = False  # priors from the fitted feature model (`features.py`, `priors.json`)
    lgr: bool = False  # playouts play the last good replies first (`playing.Replies`)
    relative: float = 0.0  # weight of the margin bonus relative to the search's playouts
    length: float = 0.0  # weight of the game-length bonus (with `relative`)
    expand_inc: float = 0.0  # visits more a node needs before expanding, per level of depth
    uct_big: float = 0.0  # 20×20: the UCT exploration constant (0: `mcts.UCT_C` there too)
    #: 20×20: the playouts' weight factor per new attach point a candidate opens, while the
    #: searching colour places its `CORNERS_MIDDLE` pieces (0: never).
    corners_big: float = 0.0
    race_corners: bool = False  # the race's later moves: only those gaining most attach points

    def search_options(self, pos, color: int) -> dict:
        """The `flat.FlatSearch` options of this level's search for `color` in `pos`."""
        from .ai.mcts import UCT_C  # a search is running: the search is loaded
        big = pos.variant.size == 20
        first, stop = CORNERS_MIDDLE
        corners = self.corners_big if big and first <= pos.nu_played[color] < stop else 0.0
        return {"local": self.local, "learned": self.learned, "lgr": self.lgr,
                "relative": self.relative, "length": self.length,
                "expand_inc": self.expand_inc,
                "uct_c": self.uct_big if self.uct_big and pos.bc.size > 14 else UCT_C,
                "corners": corners, "race_corners": self.race_corners}


LEVELS: dict[int, Level] = {
    1: Level(1, "Sprout", "plays big pieces near its corners, but often not the best one",
             temperature=1.2),
    2: Level(2, "Scout", "always lays the piece that looks best right now", temperature=0.15),
    3: Level(3, "Tactician", "looks a few moves ahead (Monte-Carlo search, 60 games)",
             playouts=60),
    4: Level(4, "Strategist", "plans ahead (Monte-Carlo search, 250 games)", playouts=250),
    5: Level(5, "Master", "reads deeply (Monte-Carlo search, 800 games)", playouts=800),
    6: Level(6, "Grandmaster", "opening book, then thinks for about 3 seconds a move",
             playouts=1_000_000, seconds=3.0, book=True, local=True, learned=True, lgr=True,
             relative=0.3, expand_inc=0.5, length=0.12, uct_big=0.35, corners_big=4.0,
             race_corners=True),
}
#: The level whose search gives the hint (for `ai.HINT_SECONDS`).
HINT_LEVEL = 6
#: The pieces (a colour has placed at least the first and fewer than the second number)
#: during which level 6's playouts on the 20×20 boards weigh new corners (`corners_big`):
#: a colour's fourth to sixth pieces, where the factor measured a gain (lab/README.md).
CORNERS_MIDDLE = (3, 6)
