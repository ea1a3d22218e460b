"""Time for `GtpSession` (engine/cornerclaim/gtp.py): GTP's `time_settings` and
`time_left` (Canadian byo-yomi, as GTP version 2 defines them) as `TimeSettings` and a
colour's `Clock`, the seconds a `genmove` may think (`move_budget`), and a clock after a move
(`spend`). Pure arithmetic: `GtpSession` hands in the seconds a move took."""

from __future__ import annotations

from dataclasses import dataclass

#: A move spends at most this share of its even share of the time left (the rest is the
#: margin for the protocol's round trip and a slow machine).
SAFETY = 0.9
#: The least a move is given, however short the clock (the search always runs one batch).
MIN_BUDGET = 0.02


@dataclass(frozen=True)
class TimeSettings:
    """GTP's `time_settings`: main time, then byo-yomi periods of `byo_time` seconds for
    `byo_stones` moves (Canadian). `byo_time` 0 is absolute time (no byo-yomi);
    `byo_time` > 0 with `byo_stones` 0 is no time limit."""

    main: float
    byo_time: float
    byo_stones: int

    @property
    def unlimited(self) -> bool:
        return self.byo_time > 0 and self.byo_stones == 0

    def period_share(self) -> float:
        """Seconds a move of a byo-yomi period may take on average (0: no byo-yomi)."""
        return self.byo_time / self.byo_stones if self.byo_time > 0 and self.byo_stones else 0.0

    def start(self) -> Clock:
        """A colour's clock before its first move."""
        if self.main > 0 or not self.period_share():
            return Clock(self.main, 0)
        return Clock(self.byo_time, self.byo_stones)


@dataclass(frozen=True)
class Clock:
    """One colour's clock as GTP's `time_left` states it: seconds left in the main time
    (`stones` 0) or in the current byo-yomi period, and the moves still to play in it."""

    left: float
    stones: int = 0


def move_budget(pieces_left: int, *, cap: float | None = None,
                settings: TimeSettings | None = None, clock: Clock | None = None
                ) -> float | None:
    """The seconds the next move may think; None: the level's own budget.

    In byo-yomi: the period's time left over its stones left. In main time: the time left
    over the pieces the colour still has (the most moves it can still make), or a byo-yomi
    period's share when that is more (the period follows the main time). Either times
    `SAFETY`, at least `MIN_BUDGET`. `cap` (`--seconds`) is the most a move may think: with
    no clock it is the budget. No clock, or no time limit, and no cap: None."""
    budget = None
    if clock is not None and not (settings is not None and settings.unlimited):
        if clock.stones > 0:
            share = clock.left / clock.stones
        else:
            share = clock.left / max(1, pieces_left)
            if settings is not None:
                share = max(share, settings.period_share())
        budget = max(MIN_BUDGET, SAFETY * share)
    if cap is not None:
        budget = cap if budget is None else min(budget, cap)
    return budget


def spend(clock: Clock, seconds: float, settings: TimeSettings | None) -> Clock:
    """`clock` after a move that took `seconds`: main time runs down, and once it is out
    the overrun opens a byo-yomi period with this move as its first stone; a period's last
    stone starts a fresh period."""
    period = settings is not None and settings.period_share() > 0
    left, stones = clock.left - seconds, clock.stones
    if stones == 0:
        if left >= 0 or not period:
            return Clock(max(0.0, left), 0)
        assert settings is not None
        left, stones = settings.byo_time + left, settings.byo_stones
    stones -= 1
    if stones <= 0:
        if period:
            assert settings is not None
            return Clock(settings.byo_time, settings.byo_stones)
        stones = 1
    return Clock(max(0.0, left), stones)
