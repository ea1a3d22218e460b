"""The board-module contract (client_web/js/boards/contract.js) against the pages and the boards.

Without a browser: every member a page reads off a board, a watched board or a board module
(`g.board?.onKey?.(e)`, `watched.render(…)`, `mod.editSetup`, found by regex in every client
file outside the board modules) is declared in the contract's typedefs, and every file in
js/boards/ is a board module (it exports `createBoard`) or one of the two helpers there.

In Chromium against a live host: for every game the host registers (the built-ins and the
test-only tic-tac-toe) a game is made and one move played through the API; its table page
builds the board the way every page does (catalog → `loadBoard` → `createBoard`), and the
contract's own checker (`checkModule`, `checkBoard`) runs on the module, the table's board and
a read-only board made by watch.js, with the optional members' answers checked on real
replay frames. The contract's runtime lists must say what its typedefs say.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import requests

import tests.games.tictactoe  # noqa: F401 - the test-only game is checked too
from engine import registry
from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page

JS = Path(__file__).resolve().parent.parent / "client_web" / "js"
BOARDS = JS / "boards"
CONTRACT = BOARDS / "contract.js"
# The files in js/boards/ that are no board module, and why.
HELPERS = {
    "contract.js": "the contract itself: typedefs and the checker",
    "watch.js": "a read-only board of any module (watchBoard → WatchedBoard), no createBoard",
}
CREATES = re.compile(r"^export (?:async )?(?:function|const) createBoard\b", re.MULTILINE)


# ---- the contract as written ----------------------------------------------------------------
def typedefs(text: str) -> dict[str, dict[str, tuple[str, bool]]]:
    """Each `@typedef {object} Name` of the contract's comments: {member: (type, optional)}."""
    found = {}
    for block in re.findall(r"/\*\*(.*?)\*/", text, re.DOTALL):
        body = " ".join(re.sub(r"^\s*\*\s?", "", line) for line in block.splitlines())
        name = re.search(r"@typedef \{object\} (\w+)", body)
        if not name:
            continue
        members = found[name.group(1)] = {}
        for start in (m.end() for m in re.finditer(r"@property \{", body)):
            depth, i = 1, start
            while depth:
                depth += {"{": 1, "}": -1}.get(body[i], 0)
                i += 1
            kind = body[start:i - 1].strip()
            member = re.match(r"\s*(\[?)(\w+)\]?", body[i:])
            members[member.group(2)] = (kind, member.group(1) == "[")
    return found


def declared() -> dict[str, dict[str, tuple[str, bool]]]:
    return typedefs(CONTRACT.read_text(encoding="utf-8"))


# ---- what the pages call --------------------------------------------------------------------
# Who holds what: the shell's `g.board` and a local `board` (a Board; not in a file whose
# `board` is an element it made, /tv's standings box), `watched` (a WatchedBoard, with its
# `.board`), `mod` / `boardModule` (a BoardModule as loadBoard gives it).
HELD_BOARD_USE = re.compile(r"(?:\bg\.|\bwatched\??\.)board\??\.(\w+)")
LOCAL_BOARD_USE = re.compile(r"(?<![\w.$])board\??\.(\w+)")
ELEMENT_BOARD = re.compile(r"\b(?:const|let) board = h\(")
WATCHED_USE = re.compile(r"\bwatched\??\.(\w+)")
MODULE_USE = re.compile(r"(?<![\w.$])(?:mod|boardModule)\??\.(\w+)")


def page_files() -> list[Path]:
    """Every client file that is not a board module's own code (watch.js holds a board)."""
    own = {p.stem for p in BOARDS.glob("*.js")}

    def boards_own(p: Path) -> bool:
        if p.parent == BOARDS:
            return p.name not in HELPERS or p == CONTRACT
        return p.parent.parent == BOARDS and p.parent.name in own

    return sorted(p for p in JS.rglob("*.js") if not boards_own(p))


def page_uses() -> dict[str, dict[str, list[str]]]:
    """{typedef: {member: ["file:line", …]}} of every member the pages read."""
    uses: dict[str, dict[str, list[str]]] = {"Board": {}, "WatchedBoard": {}, "BoardModule": {}}
    for path in page_files():
        text = path.read_text(encoding="utf-8")
        element = ELEMENT_BOARD.search(text)
        for number, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith(("//", "*", "/*")):
                continue
            where = f"{path.relative_to(JS).as_posix()}:{number}"
            names = set(HELD_BOARD_USE.findall(line))
            if not element:  # else this file's own `board` is an element, not a game's board
                names |= set(LOCAL_BOARD_USE.findall(line))
            for kind, found in (("Board", names), ("WatchedBoard", set(WATCHED_USE.findall(line))),
                                ("BoardModule", set(MODULE_USE.findall(line)))):
                for name in found:
                    uses[kind].setdefault(name, []).append(where)
    return uses


def test_the_contract_is_written_as_typedefs():
    types = declared()
    assert {"BoardModule", "BoardContext", "BoardHost", "BoardView", "Board",
            "WatchedBoard"} <= set(types)
    board = types["Board"]
    assert {m for m, (_, optional) in board.items() if not optional} == {"render", "destroy"}
    assert types["BoardModule"]["createBoard"] == ("(ctx: BoardContext) => Board", False)


def test_every_member_a_page_uses_is_declared():
    types = declared()
    uses = page_uses()
    # the scan sees the pages' calls (a sample that must be found, so the regexes stay alive)
    assert {"render", "destroy", "onKey", "seatDetail", "showHint", "describeMove", "numberMove",
            "previewMove", "actions"} <= set(uses["Board"])
    assert {"render", "seatDetail", "destroy", "board"} <= set(uses["WatchedBoard"])
    assert {"createBoard", "palette", "editSetup", "setupOf"} <= set(uses["BoardModule"])
    undeclared = {kind: {name: where for name, where in found.items() if name not in types[kind]}
                  for kind, found in uses.items()}
    assert undeclared == {"Board": {}, "WatchedBoard": {}, "BoardModule": {}}, \
        "a page uses a member the contract (js/boards/contract.js) does not declare"


def board_files() -> list[str]:
    return sorted(p.name for p in BOARDS.glob("*.js") if p.name not in HELPERS)


def test_every_file_in_boards_is_a_board_module_or_a_named_helper():
    files = sorted(p.name for p in BOARDS.glob("*.js"))
    assert set(HELPERS) <= set(files)
    for name in files:
        creates = bool(CREATES.search((BOARDS / name).read_text(encoding="utf-8")))
        assert creates == (name not in HELPERS), name
    assert len(board_files()) >= 3


def test_every_game_is_drawn_by_a_board_module_in_boards_or_its_own_file():
    files = board_files()
    for rules in registry.games():
        board = registry.registration(rules.game).board
        if isinstance(board, str):
            assert board in files, (rules.game, board)
        else:  # a game registered with its own file (tests/games/tictactoe.js)
            assert Path(board).is_file() and CREATES.search(Path(board).read_text(encoding="utf-8"))
    builtin = {registry.registration(r.game).board for r in registry.games()}
    assert set(files) <= builtin, f"board modules no game uses: {set(files) - builtin}"


# ---- in Chromium ----------------------------------------------------------------------------
CHECK = """async (id) => {
  const c = await import("/js/boards/contract.js");
  const { loadBoard } = await import("/js/catalog.js");
  const { watchBoard, spectatorView } = await import("/js/boards/watch.js");
  const { expandFrames } = await import("/js/frames.js");
  const g = window.ccGame;
  const mod = await loadBoard(g.entry); // the page's own module object (one import per URL)
  const out = { declared: { Board: c.BOARD, BoardModule: c.MODULE }, module: c.checkModule(mod),
    board: c.checkBoard(g.board), answers: [],
    broken: c.checkBoard({ render() {}, onKey: true, zoom() {} }) };
  const bad = (text) => out.answers.push(text);
  const isElementOrNull = (x) => x === null || x instanceof Element;
  for (const seat of g.state.seats.map((s, i) => i + 1)) {
    const d = g.board.seatDetail?.(seat, spectatorView(g.state));
    if (d !== undefined && !isElementOrNull(d)) bad(`seatDetail(${seat}): ${d}`);
  }
  const key = g.board.onKey?.(new KeyboardEvent("keydown", { key: "F9" }));
  if (key !== undefined && typeof key !== "boolean") bad(`onKey: ${key}`);
  // a read-only board, as the replay, /tv and the watch mode make one
  const el = document.createElement("div");
  document.body.append(el);
  const w = watchBoard(mod, { el, entry: g.entry, live: false });
  out.watched = c.checkBoard(w.board);
  w.render(g.state);
  for (const seat of g.state.seats.map((s, i) => i + 1)) {
    if (!isElementOrNull(w.seatDetail(seat))) bad(`watched seatDetail(${seat})`);
  }
  const data = expandFrames(await (await fetch(`/api/games/${id}/replay`)).json());
  out.frames = data.frames.length;
  for (const f of data.frames) {
    const said = w.board.describeMove?.(f) ?? null;
    if (said !== null && typeof said !== "string") bad(`describeMove(${f.index}): ${said}`);
    const n = w.board.numberMove?.(f) ?? null;
    if (n !== null && !(Number.isInteger(n.number) && typeof n.text === "string")) {
      bad(`numberMove(${f.index}): ${JSON.stringify(n)}`);
    }
  }
  const move = data.frames.find((f) => f.kind === "move");
  if (w.board.previewMove && move) {
    w.render({ ...g.state, ...data.frames[move.index - 1], last_move: null });
    const shown = w.board.previewMove(move.move, move.seat);
    if (typeof shown !== "boolean") bad(`previewMove: ${shown}`);
  }
  w.destroy();
  el.remove();
  return out;
}"""


@pytest.fixture(scope="module")
def catalog(host) -> list[dict]:
    return host.catalog()


def test_the_catalog_serves_every_game_its_board_module(host, catalog):
    assert {e["game"] for e in catalog} == {r.game for r in registry.games()}
    files = {name: (BOARDS / name).read_bytes() for name in board_files()}
    for entry in catalog:
        served = requests.get(f"{host.url}{entry['board_url']}", timeout=10)
        served.raise_for_status()
        board = registry.registration(entry["game"]).board
        expected = files[board] if isinstance(board, str) else Path(board).read_bytes()
        assert served.content == expected, entry["game"]


@pytest.mark.parametrize("game", [r.game for r in registry.games()])
def test_the_board_module_meets_the_contract(host, open_page, game):
    entry = next(e for e in host.catalog() if e["game"] == game)
    variant = entry["variants"][0]
    made = host.create(variant["name"], [{"kind": "local"}] * variant["seats"][0], game=game)
    gid, tokens = made["id"], made["tokens"]
    seat = host.state(gid)["to_move"]
    token = tokens[str(seat)]
    first = requests.get(f"{host.url}/api/games/{gid}/legal", params={"seat": seat}, timeout=10,
                         headers={"Authorization": f"Bearer {token}"}).json()["moves"][0]
    host.move(gid, seat, first["move"], token)
    memory = {"games": {gid: {"seats": tokens, "host": made["host_token"]}}}
    page = open_page("desktop", f"/#/game/{gid}", storage={"cornerclaim.v1": json.dumps(memory)})
    page.wait_for_function("() => window.ccGame.state.seq >= 1")
    out = page.evaluate(CHECK, gid)

    assert out["broken"] == ["destroy: required function, missing",  # the checker does check
                             "onKey: function declared, boolean found", "zoom: not declared"]
    assert out["module"] == [], (game, out["module"])
    assert out["board"] == [], (game, out["board"])
    assert out["watched"] == [], (game, out["watched"])
    assert out["answers"] == [], (game, out["answers"])
    assert out["frames"] >= 2
    # the runtime lists say what the typedefs say: names, which are optional, function or not
    for kind, listed in out["declared"].items():
        written = {name: ("object" if type_.startswith(("Object<", "{")) else "function")
                   + ("?" if optional else "")
                   for name, (type_, optional) in declared()[kind].items()}
        assert listed == written, kind
    assert page.errors == []
