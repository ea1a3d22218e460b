"""Corner, the marble game: 36 marbles on a 6×6 board, two arrows (or four), and the marble
where a red arrow's column crosses a yellow arrow's row taken in turn (game id `marbles`).

`board` holds the cells, colours, setups and the score table; `moves` the move generator on
bare values; `rules` the core of the game's `engine.rules.Rules` (rounds and scores) and
`RULES`; `events`, `state` and `view` its events, its state and what the host sees;
`chance`, `players` and `ladder` its capabilities; `ai` the computer levels.
"""

from .rules import (
    GAME,
    RULES,
    SAMPLE_SETUP,
    MarblesRules,
    Moved,
    RoundDealt,
    RoundScore,
    State,
    new_game,
    start_state,
)

__all__ = ["GAME", "RULES", "SAMPLE_SETUP", "MarblesRules", "Moved", "RoundDealt",
           "RoundScore", "State", "new_game", "start_state"]
