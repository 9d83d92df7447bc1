"""Drawing the C&C battlefield in a terminal.

The board of an observation (``obs["board"]``) becomes a staggered grid of
fixed-width cells, one text line per hex row, row 11 at the top. A hex at
doubled-width column ``x`` is centred ``x * pitch`` characters from the left
edge, so short rows sit half a cell to the side of full rows and the column
letters A..Y stand exactly above the hex centres.

``render_board`` returns a :class:`BoardView`, a Rich renderable that picks its
cell width from the space it is given: 8-character cells (``pitch`` 4, 104
columns) when they fit, 6-character cells (80 columns) otherwise.

>>> from kassen.rulesets.registry import default_game
>>> view = render_board(default_game().load().new_state(None, 1).observation(None))
>>> "ASp4" in view.plain and view.plain.splitlines()[2].startswith("11 ")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

WIDTH, ROWS = 12, 11  # hexes in a full row, rows
MAX_X = 2 * WIDTH
#: doubled-width x of the two dotted section lines
SECTION_LINES = (8, 16)

LEADER_MARKS = {"foot": "*", "mounted": "^", "commander": "#"}
LEADER_NAMES = {"foot": "foot Leader", "mounted": "mounted Leader", "commander": "Army Commander"}

SIDE_STYLE = {"red": Style(color="#ff5f5f", bold=True), "blue": Style(color="#6fa8ff", bold=True)}
SIDE_DIM = {"red": Style(color="#d75f5f"), "blue": Style(color="#5f87d7")}


@dataclass(frozen=True)
class TerrainLook:
    mark: str  # shown in an empty hex
    bg: str | None  # background colour
    name: str  # legend text


TERRAIN: dict[str, TerrainLook] = {
    "countryside": TerrainLook("·", None, "countryside"),
    "forest": TerrainLook("F", "#1c4d1c", "forest"),
    "hill": TerrainLook("H", "#5f4b1a", "hill"),
    "river": TerrainLook("~", "#1b3f78", "river"),
    "ford": TerrainLook("=", "#2d6185", "ford"),
    "bridge": TerrainLook("B", "#585858", "bridge"),
    "building": TerrainLook("Bu", "#6b3424", "building"),
    "field": TerrainLook("f", "#4f5c16", "field"),
    "fence": TerrainLook("+", "#4a3c2c", "fence"),
    "palisade": TerrainLook("P", "#5a3618", "palisade"),
    "ravine": TerrainLook("V", "#3b2a1c", "ravine"),
    "castle": TerrainLook("C", "#4e4e4e", "castle"),
    "tent": TerrainLook("T", "#5a1f5a", "command tent"),
}
_UNKNOWN_TERRAIN = TerrainLook("?", "#444444", "unknown terrain")

DIM = Style(dim=True)
LABEL = Style(color="bright_black")
SECTION = Style(color="bright_black", dim=True)


def _unit_names() -> dict[str, str]:
    """Unit code -> name from the C&C Samurai tables of both editions (empty if unreadable)."""
    try:
        from kassen.rulesets.cc_samurai.data import load_tables

        names = {code: u.name for code, u in load_tables("zvezda").units.items()}
        names.update({code: u.name for code, u in load_tables().units.items()})  # GMT names win
        return names
    except Exception:  # the legend is a courtesy; never fail a drawing over it
        return {}


def parse_hex(name: str) -> tuple[int, int] | None:
    """``'F3'`` -> ``(5, 2)``; ``None`` if it does not look like a hex name."""
    name = name.strip().upper()
    if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
        return None
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


def hex_name(x: int, r: int) -> str:
    return f"{chr(ord('A') + x)}{r + 1}"


def row_xs(r: int) -> list[int]:
    """Doubled-width x of the hexes of row ``r`` (0 = bottom)."""
    return list(range(1, MAX_X, 2)) if r % 2 == 0 else list(range(0, MAX_X + 1, 2))


def is_half(x: int, r: int) -> bool:
    return r % 2 == 1 and x in (0, MAX_X)


def _pack(items: list[Text], width: int, sep: str = "   ") -> list[Text]:
    """Join ``items`` into lines of at most ``width`` cells, never splitting an item."""
    lines: list[Text] = []
    cur = Text()
    for item in items:
        if cur.cell_len and cur.cell_len + len(sep) + item.cell_len > width:
            lines.append(cur)
            cur = Text("  ")
        elif cur.cell_len:
            cur.append(sep)
        cur.append_text(item)
    if cur.cell_len:
        lines.append(cur)
    return lines


class _Canvas:
    """A line of characters with a style per character."""

    def __init__(self, width: int) -> None:
        self.chars = [" "] * width
        self.styles: list[Style | None] = [None] * width

    def put(self, col: int, text: str, style: Style | None = None) -> None:
        for i, ch in enumerate(text):
            c = col + i
            if 0 <= c < len(self.chars):
                self.chars[c] = ch
                self.styles[c] = style

    def fill(self, start: int, end: int, style: Style) -> None:
        for c in range(max(0, start), min(end, len(self.chars))):
            old = self.styles[c]
            self.styles[c] = style if old is None else style + old

    def free(self, col: int) -> bool:
        return 0 <= col < len(self.chars) and self.chars[col] == " "

    def text(self) -> Text:
        out = Text()
        run: list[str] = []
        cur: Style | None = None
        for ch, st in zip(self.chars, self.styles):
            if st != cur and run:
                out.append("".join(run), cur)
                run = []
            cur = st
            run.append(ch)
        if run:
            out.append("".join(run), cur)
        out.rstrip()
        return out


@dataclass
class _Piece:
    text: str
    style: Style


def _pieces(board: dict[str, Any]) -> dict[tuple[int, int], _Piece]:
    out: dict[tuple[int, int], _Piece] = {}
    for u in board.get("units", []):
        h = parse_hex(u["hex"])
        if h is None:
            continue
        mark = LEADER_MARKS.get(u.get("leader") or "", "")
        out[h] = _Piece(side_case(f"{u['type']}{u['blocks']}{mark}", u["side"]),
                        SIDE_STYLE.get(u["side"], Style(bold=True)))
    for ld in board.get("leaders", []):
        h = parse_hex(ld["hex"])
        if h is None or h in out:
            continue
        out[h] = _Piece(side_case(f"L{LEADER_MARKS.get(ld['kind'], '?')}", ld["side"]),
                        SIDE_STYLE.get(ld["side"], Style(bold=True)))
    return out


def side_case(label: str, side: str) -> str:
    """Sides told apart without colour (NO_COLOR, monochrome, colour-blindness): Red's pieces
    as written, Blue's in lower case.

    >>> side_case("SSp4*", "red"), side_case("SSp4*", "blue"), side_case("L^", "blue")
    ('SSp4*', 'ssp4*', 'l^')
    """
    return label.lower() if side == "blue" else label


def _squeeze(text: str, room: int) -> str:
    """Fit a cell text into ``room`` characters: drop the Leader mark, then the block count,
    so that a unit code is never cut into another code."""
    if len(text) <= room:
        return text
    core = text.rstrip("*^#")
    if len(core) <= room:
        return core
    code = core.rstrip("0123456789")
    return code[:room]


class BoardView:
    """The battlefield of an observation as a Rich renderable.

    ``pitch`` fixes the characters per half hex (3 or 4); ``None`` chooses the
    widest that fits the console. ``plain`` is the wide drawing without colour.
    """

    def __init__(self, obs: dict[str, Any], highlight: Iterable[str] | None = None, pitch: int | None = None,
                 legend: bool = True) -> None:
        self.obs = obs
        self.legend = legend
        self.board: dict[str, Any] = obs.get("board", {})
        self.highlight = {h for h in (parse_hex(n) for n in (highlight or ())) if h is not None}
        self.ordered = {
            h for h in (parse_hex(o.split()[0]) for o in obs.get("orders") or [] if o) if h is not None
        }
        self.objectives = {
            h for o in obs.get("objectives") or [] for h in (parse_hex(n) for n in o.get("hexes", [])) if h is not None
        }
        self.pitch = pitch

    # -- geometry -------------------------------------------------------
    LEFT = 4  # "11  "
    RIGHT = 3

    @classmethod
    def width_for(cls, pitch: int) -> int:
        return cls.LEFT + MAX_X * pitch + 1 + cls.RIGHT

    def choose_pitch(self, max_width: int) -> int:
        if self.pitch is not None:
            return self.pitch
        return 4 if max_width >= self.width_for(4) else 3

    # -- drawing --------------------------------------------------------
    def lines(self, pitch: int) -> list[Text]:
        p = pitch
        left = self.LEFT
        width = self.width_for(p)
        terrain: dict[tuple[int, int], str] = {}
        for name, slug in self.board.get("terrain", {}).items():
            h = parse_hex(name)
            if h is not None:
                terrain[h] = slug
        tents: dict[tuple[int, int], str] = {}
        for side, name in self.board.get("tents", {}).items():
            h = parse_hex(name)
            if h is not None:
                tents[h] = side
        pieces = _pieces(self.board)

        out: list[Text] = [self._sections_line(p), self._letters_line(p)]
        for r in range(ROWS - 1, -1, -1):
            cv = _Canvas(width)
            label = f"{r + 1:>2}"
            cv.put(0, label, LABEL)
            for x in row_xs(r):
                self._cell(cv, left, p, x, r, terrain.get((x, r)), tents.get((x, r)), pieces.get((x, r)))
            if r % 2 == 0:  # the dotted lines run between two full-row hexes
                for lx in SECTION_LINES:
                    col = left + lx * p
                    if cv.styles[col] is None and all(cv.free(c) for c in (col - 1, col, col + 1)):
                        cv.put(col, ":", SECTION)
            cv.put(width - 2, f"{r + 1:<2}", LABEL)
            out.append(cv.text())
        out.append(self._letters_line(p))
        if self.legend:
            out.extend(self._legend(terrain, width))
        return out

    def _cell(self, cv: _Canvas, left: int, p: int, x: int, r: int, slug: str | None,
              tent_side: str | None, piece: _Piece | None) -> None:
        centre = left + x * p
        half = is_half(x, r)
        if half:  # only the inner half of the hex is on the board
            start, end = (centre, centre + p) if x == 0 else (centre - p + 1, centre + 1)
        else:
            start, end = centre - p + 1, centre + p
        look = TERRAIN.get(slug or "countryside", _UNKNOWN_TERRAIN)
        bg = Style(bgcolor=look.bg) if look.bg else None
        objective = "!" if (x, r) in self.objectives else ""
        if piece is not None:
            text, style = piece.text, piece.style
            # the terrain under a unit stays readable without colours too
            if slug and slug != "countryside" and len(text) + 1 <= 2 * p - 1:
                text += look.mark
            if (x, r) in self.ordered:
                style = style + Style(underline=True)
        elif tent_side is not None:
            text, style = "tent", SIDE_DIM.get(tent_side, DIM)
        elif (slug is None or slug == "countryside") and not objective:
            text, style = "·", DIM
        else:
            mark = look.mark if slug and slug != "countryside" else ""
            text, style = mark + objective, Style(color="grey85", bold=bool(objective))
        if half:
            # from its column letter at the board edge inward; a long unit label may spill
            # into the gap beside the next hex
            text = _squeeze(text, p + 1)
            style = style + DIM if piece is None else style
            col = centre if x == 0 else centre - len(text) + 1
        else:
            col = centre - len(text) // 2
        if half and not bg:
            bg = Style(bgcolor="grey15")
        if bg is not None:
            cv.fill(start, end, bg)
        cv.put(col, text, style + bg if bg is not None else style)
        if (x, r) in self.highlight:
            cv.fill(start, end, Style(reverse=True))

    def _letters_line(self, p: int) -> Text:
        cv = _Canvas(self.width_for(p))
        for x in range(MAX_X + 1):
            style = LABEL
            if x in SECTION_LINES:
                style = Style(color="bright_black", underline=True)
            cv.put(self.LEFT + x * p, chr(ord("A") + x), style)
        return cv.text()

    def _sections_line(self, p: int) -> Text:
        """Section names between the dotted lines, as the bottom and top players call them."""
        cv = _Canvas(self.width_for(p))
        bottom = str(self.obs.get("bottom") or "red")
        top = "blue" if bottom == "red" else "red"
        spans = [(0, SECTION_LINES[0]), (SECTION_LINES[0], SECTION_LINES[1]), (SECTION_LINES[1], MAX_X)]
        names = [f"{bottom.title()} left | {top.title()} right", "center",
                 f"{bottom.title()} right | {top.title()} left"]
        for (a, b), name in zip(spans, names):
            room = (b - a) * p - 2
            if len(name) > room:
                name = name.replace(" | ", "|")
            if len(name) > room:
                name = name.split("|")[0]
            mid = self.LEFT + (a + b) * p // 2
            cv.put(mid - len(name) // 2, name, SECTION)
        for lx in SECTION_LINES:
            cv.put(self.LEFT + lx * p, ":", SECTION)
        return cv.text()

    def _legend(self, terrain: dict[tuple[int, int], str], width: int) -> list[Text]:
        """Legend lines, packed so that no entry is split across lines."""
        names = _unit_names()
        items: list[Text] = []
        head = Text()
        head.append("Units", Style(bold=True))
        head.append(" (code+blocks; ", DIM)
        head.append("Red as written", SIDE_STYLE["red"])
        head.append(", ", DIM)
        head.append("blue in lower case", SIDE_STYLE["blue"])
        head.append("):", DIM)
        items.append(head)
        for code in sorted({u["type"] for u in self.board.get("units", [])}):
            items.append(Text.assemble((code, Style(bold=True)), f" {names.get(code, code)}"))
        lines = _pack(items, width)
        items = [Text("Leaders:", Style(bold=True))]
        for kind, mark in LEADER_MARKS.items():
            items.append(Text.assemble((mark, Style(bold=True)), f" {LEADER_NAMES[kind]}"))
        items.append(Text.assemble(("L*", Style(bold=True)), " Leader alone"))
        if self.ordered:
            items.append(Text.assemble(("underlined", Style(underline=True)), " ordered"))
        lines += _pack(items, width)
        items = [Text("Terrain:", Style(bold=True))]
        used = ["countryside", *sorted({s for s in terrain.values() if s != "tent"})]
        for slug in used:
            look = TERRAIN.get(slug, _UNKNOWN_TERRAIN)
            style = Style(bgcolor=look.bg, color="grey85") if look.bg else DIM
            items.append(Text.assemble((f" {look.mark} ", style), f" {look.name if slug in TERRAIN else slug}"))
        if self.board.get("tents"):
            items.append(Text.assemble(("tent", Style(bold=True)), " command tent"))
        items.append(Text.assemble((":", SECTION), " section lines"))
        if self.objectives:
            items.append(Text.assemble(("!", Style(bold=True)), " objective"))
        items.append(Text("(a unit's last letter is the terrain under it)", DIM))
        lines += _pack(items, width)
        objectives = [o for o in self.obs.get("objectives") or [] if o.get("hexes")]
        if objectives:
            notes = []
            for o in objectives:
                held = f", held by {o['held_by']}" if o.get("held_by") else ""
                notes.append(Text(f"! {o.get('name') or ' '.join(o['hexes'])} ({' '.join(o['hexes'])}): "
                                  f"{o.get('banners', 1)} banner(s), {o.get('kind', 'temporary')}, for {o.get('for', 'both')}{held}",
                                  DIM))
            lines += _pack(notes, width)
        return lines

    # -- Rich protocol --------------------------------------------------
    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        pitch = self.choose_pitch(options.max_width)
        yield from self.lines(pitch)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        pitch = self.choose_pitch(options.max_width)
        w = self.width_for(pitch)
        return Measurement(w, w)

    def text(self, pitch: int | None = None) -> Text:
        """The whole drawing as one ``Text`` (``pitch`` 4 unless given)."""
        return Text("\n").join(self.lines(pitch or self.pitch or 4))

    @property
    def plain(self) -> str:
        return self.text().plain

    def __str__(self) -> str:
        return self.plain


def render_board(obs: dict[str, Any], highlight: set[str] | None = None, *, legend: bool = True) -> BoardView:
    """The battlefield of ``obs`` (an observation with a ``board``), ready to print.

    ``highlight`` names hexes (``"F3"``) to draw in reverse video; ``legend=False``
    leaves out the key under the board.
    """
    return BoardView(obs, highlight, legend=legend)


__all__ = ["BoardView", "LEADER_MARKS", "TERRAIN", "render_board", "parse_hex"]


def board_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed on the board between two observations, unit by unit, in words:
    ``["ASp J3→J5", "bInf K6: 4→2 blocks", "ab H9 eliminated"]`` (Blue in lower case).

    >>> a = {"units": [{"id": "r1", "hex": "J3", "type": "ASp", "side": "red", "blocks": 4, "leader": None}]}
    >>> b = {"units": [{"id": "r1", "hex": "J5", "type": "ASp", "side": "red", "blocks": 3, "leader": None}]}
    >>> board_changes(a, b)
    ['ASp J3→J5, 4→3 blocks']
    >>> board_changes(b, {"units": []})
    ['ASp J5 eliminated']
    """
    old = {u["id"]: u for u in before.get("units", []) if isinstance(u, dict) and "id" in u}
    new = {u["id"]: u for u in after.get("units", []) if isinstance(u, dict) and "id" in u}
    out: list[str] = []
    for uid, u in old.items():
        name = side_case(str(u.get("type", "?")), str(u.get("side", "")))
        v = new.get(uid)
        if v is None:
            out.append(f"{name} {u.get('hex')} eliminated")
            continue
        bits = []
        where = f"{name} {u.get('hex')}"
        if v.get("hex") != u.get("hex"):
            where += f"→{v.get('hex')}"
        if v.get("blocks") != u.get("blocks"):
            bits.append(f"{u.get('blocks')}→{v.get('blocks')} blocks")
        if bool(v.get("leader")) != bool(u.get("leader")):
            bits.append("a Leader joins" if v.get("leader") else "its Leader leaves")
        if bits or v.get("hex") != u.get("hex"):
            out.append(", ".join([where, *bits]))
    for uid, v in new.items():
        if uid not in old:
            out.append(f"{side_case(str(v.get('type', '?')), str(v.get('side', '')))} {v.get('hex')} appears")
    return out

