"""Terminal drawing of an An Honourable Victory! table from an observation.

North's reserve zones on top, the three rows of table zones, South's reserve zones
at the bottom. Each unit is a block: id, class and weapon, stands, facing arrow,
formation, hit markers (green), red (fired) and yellow (reacted) markers, and whom
it is engaged with on which facet.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

SIDE_STYLE = ("#ff5f5f", "#6fa8ff")
ARROW = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
FORM = {"attack": "atk", "defensive": "def", "open": "open"}
WEAPON = {"bow": "bow", "firearm": "gun", "improvised": "imp", "spear": "spr", "hand-to-hand": "h2h",
          "long-spear": "LSp", "mounted": ""}
FACET = {"front": "F", "left": "L", "right": "R", "rear": "B"}
TERRAIN = {"hill": "hill", "woods": "woods", "village": "village", "rough": "rough",
           "impassable": "impassable", "bog": "bog"}


def unit_block(u: dict[str, Any]) -> Text:
    """One unit as a two-line block."""
    style = SIDE_STYLE[u["side"] % 2]
    kind = {"light-foot": "LF", "foot": "Ft", "mounted": "Mtd" if u["mounted"] else "Dis"}[u["class"]]
    weapon = WEAPON.get(u["weapon"], u["weapon"])
    t = Text()
    t.append(f"{u['id']}", style=f"bold {style}")
    t.append(f" {kind}{('/' + weapon) if weapon else ''} ")
    t.append("▮" * u["stands"], style=style)
    t.append(f" {ARROW[u['facing']]}{FORM[u['formation']]}")
    if u["hits"]:
        t.append(f" {u['hits']}h", style="bold green")
    if u["fired"]:
        t.append(" ●", style="red")
    if u["reacted"]:
        t.append(" ●", style="yellow")
    if u.get("quality") in ("green", "veteran"):
        t.append(" " + u["quality"][0].upper(), style="dim")
    if u["engaged"]:
        t.append("\n  ⚔ " + " ".join(f"{FACET[c['facet']]}:{c['enemy']}" for c in u["engaged"]), style="bold")
    return t


def zone_cell(obs: dict[str, Any], zone: str, reserve: bool = False) -> RenderableType:
    head = Text(zone, style="bold")
    feats = obs.get("terrain", {}).get(zone, [])
    if feats:
        head.append(" " + ", ".join(TERRAIN.get(f, f) for f in feats), style="italic dark_olive_green3")
    if reserve:
        head.append(" reserve", style="dim")
    board = obs["board"]
    for side, dz in enumerate(board["daimyo"]):
        if dz == zone:
            head.append(f"  ★{obs['seats'][side][0]}", style=f"bold {SIDE_STYLE[side]}")
    rows: list[RenderableType] = [head]
    for u in board["units"]:
        if u["zone"] == zone and u["status"] in ("table", "reserve"):
            rows.append(unit_block(u))
    return Group(*rows)


def render(obs: dict[str, Any], seat: int | None) -> RenderableType:
    """The zone table of ``obs`` as a grid (``seat``: the viewer, for the heading)."""
    width = int(obs["width"])
    cols = [chr(65 + c) for c in range(width)]
    grid = Table(show_header=False, show_lines=True, expand=True, padding=(0, 1))
    for _ in cols:
        grid.add_column(ratio=1, vertical="top")
    reserves = obs.get("reserve_zones", [[], []])

    def reserve_row(side: int, row: int) -> list[RenderableType]:
        return [zone_cell(obs, f"{c}{row}", True) if f"{c}{row}" in reserves[side] else Text("")
                for c in cols]

    grid.add_row(*reserve_row(1, 4), style="dim")
    for row in (3, 2, 1):
        grid.add_row(*(zone_cell(obs, f"{c}{row}") for c in cols))
    grid.add_row(*reserve_row(0, 0), style="dim")
    title = Text(f"{obs.get('battle_name', '')}", style="bold")
    info = Text()
    info.append(f"Turn {obs['turn']}/{obs['turn_limit']}  ")
    info.append(f"initiative: {obs['seats'][obs['initiative']]}  ")
    for side in (0, 1):
        name = obs["seats"][side]
        info.append(f"{name} ({obs['clans'][side]})", style=SIDE_STYLE[side])
        info.append(f": routed {obs['tally'][side]} (Daimyo lost at {obs['third_value'][side]}, "
                    f"breaks at {obs['breakpoint'][side]}), zones {obs['uncontested'][side]}  ")
    if seat is not None and obs.get("declared"):
        info.append("\nYour fire: " + ", ".join(obs["declared"]), style="red")
    escs = obs.get("escarpments") or []
    if escs:
        info.append("\nEscarpments: " + ", ".join("-".join(e) for e in escs), style="italic")
    legend = Text("▮ stand  ↑ facing  atk/def/open formation  Nh hit markers  ● red fired  ● yellow reacted  "
                  "⚔ F/L/R/B:enemy engaged on that facet  ★ Daimyo", style="dim")
    return Group(title, grid, info, legend)
