"""The three ways to sit at the table: duo (2 seats, 14×14), trio (3) and classic (4, 20×20)."""

from __future__ import annotations

from dataclasses import dataclass

from .notation import parse_cell


@dataclass(frozen=True)
class Variant:
    name: str
    nu_seats: int
    size: int
    starts: tuple[tuple[int, int], ...]  # start cell of each seat, seat order
    colours: tuple[str, ...]

    def start_name(self, seat_index: int) -> str:
        from .notation import cell_name

        return cell_name(*self.starts[seat_index])


def _cells(*names: str) -> tuple[tuple[int, int], ...]:
    return tuple(parse_cell(n) for n in names)


VARIANTS: dict[str, Variant] = {
    "duo": Variant("duo", 2, 14, _cells("e10", "j5"), ("blue", "green")),
    "trio": Variant("trio", 3, 20, _cells("a20", "t20", "t1"), ("blue", "yellow", "red")),
    "classic": Variant(
        "classic", 4, 20, _cells("a20", "t20", "t1", "a1"), ("blue", "yellow", "red", "green")
    ),
}
