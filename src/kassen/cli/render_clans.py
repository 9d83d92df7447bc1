"""The clan card game's table in the terminal, drawn from one seat's observation.

Each Battlefield is a row between the two clans fighting there: its value and effect,
then each side's stack bottom first, with the card count and the Strength of the
face-up cards. Face-down cards show as ``▮ face down`` unless the viewer knows them
(his own cards, a Shugenja's look). Strengths that are default values (the rulebook
lost them; see ``shared/rules/facts.md``) carry the label ``(default value)``.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

CLAN_STYLE = {"Kamiwashi": "bold white", "Hondo": "bold red", "Yasei": "bold green", "Jozu": "bold blue"}
DEFAULT_LABEL = " (default value)"


def _clan(name: str) -> Text:
    return Text(name, style=CLAN_STYLE.get(name, "bold"))


def _card_line(card: dict[str, Any], side_clan: str) -> Text:
    line = Text(f"{card['pos']}. ")
    if "type" not in card:
        line.append("▮ face down", style="dim")
        if card.get("clan") != side_clan:
            line.append(f" ({card.get('clan')})")
        return line
    line.append(str(card.get("name", card["type"])), style="bold" if card.get("up") else "italic")
    if card.get("clan") != side_clan:
        line.append(f" of {card.get('clan')}", style=CLAN_STYLE.get(str(card.get("clan")), ""))
    line.append(f"  {card.get('strength', '?')}")
    if card.get("default"):
        line.append(DEFAULT_LABEL, style="dim")
    if not card.get("up"):
        line.append("  (face down)", style="dim")
    return line


def _side(side: dict[str, Any]) -> Text:
    out = Text()
    out.append_text(_clan(str(side["clan"])))
    out.append(f"  {side['count']} card{'s' if side['count'] != 1 else ''}, face-up Strength {side['strength_shown']}")
    if side.get("bonus"):
        out.append(f", Supply Camp +{side['bonus']}", style="yellow")
    for card in side["cards"]:
        out.append("\n  ")
        out.append_text(_card_line(card, str(side["clan"])))
    return out


def _tile(bf: dict[str, Any], obs: dict[str, Any]) -> Text:
    t = Text()
    t.append(str(bf["name"]), style="bold")
    t.append(f"  {bf['vp']} VP\n", style="cyan")
    t.append(f"{bf['timing']}: ", style="dim")
    t.append(str(bf["text"]), style="dim")
    if bf["tile"] == "village" and (obs.get("card_table") or {}).get("village", {}).get("default"):
        t.append(DEFAULT_LABEL, style="dim")
    out = bf.get("outcome")
    if out:
        t.append("\n")
        w = out.get("winner")
        totals = out.get("totals", [])
        if w is None:
            t.append(f"no one conquers ({' against '.join(str(x) for x in totals)})", style="yellow")
        else:
            t.append(f"conquered by {obs['seats'][w]} ({' against '.join(str(x) for x in totals)})", style="green")
    return t


def render(obs: dict[str, Any], seat: int | None) -> RenderableType:
    """The table as ``seat`` sees it (``None``: a spectator)."""
    seats = list(obs.get("seats", []))
    parts: list[RenderableType] = []
    head = Text()
    head.append("Clans", style="bold")
    head.append(f" · {obs.get('scenario', '')}")
    phase = obs.get("phase")
    if phase in ("deploy", "ability"):
        head.append(f" · Army Deployment, round {obs.get('round')} of 7")
    elif phase == "draft":
        head.append(" · choosing Battlefields")
    elif phase == "over":
        head.append(" · the game is over")
    else:
        head.append(" · Combat Resolution")
    if seat is not None and 0 <= seat < len(seats):
        head.append(" · you are ")
        head.append_text(_clan(seats[seat]))
    if obs.get("teams"):
        head.append(" · teams: " + " & ".join(seats[i] for i in obs["teams"][0]) + " against "
                    + " & ".join(seats[i] for i in obs["teams"][1]))
    parts.append(head)
    if obs.get("offer"):
        parts.append(Text("On offer: " + ", ".join(str(t) for t in obs["offer"])))
    table = Table(show_lines=True, expand=False)
    table.add_column("Battlefield")
    table.add_column("side 1")
    table.add_column("side 2")
    for bf in obs.get("board", []):
        a, b = bf["sides"]
        table.add_row(_tile(bf, obs), _side(a), _side(b))
    if obs.get("board"):
        parts.append(table)
    sizes = obs.get("hand_sizes") or {}
    line = Text("Cards in hand: ")
    for k, (name, n) in enumerate(sizes.items()):
        if k:
            line.append(", ")
        line.append_text(_clan(name))
        line.append(f" {n}")
    parts.append(line)
    hand = obs.get("hand")
    cards = (obs.get("card_table") or {}).get("cards", {})
    if isinstance(hand, list) and hand:
        counts: dict[str, int] = {}
        for card in hand:
            slug = str(card.get("slug")) if isinstance(card, dict) else str(card).split("-")[1]
            counts[slug] = counts.get(slug, 0) + 1
        mine = Text("Your hand: ", style="bold")
        for k, (slug, n) in enumerate(counts.items()):
            info = cards.get(slug, {})
            if k:
                mine.append("; ")
            mine.append(f"{info.get('name', slug)}{f' x{n}' if n > 1 else ''}")
            mine.append(f" ({info.get('kind', '?')}) Strength {info.get('strength', '?')}")
            if info.get("default"):
                mine.append(DEFAULT_LABEL, style="dim")
        parts.append(mine)
    removed = obs.get("removed") or []
    if removed:
        gone = Text("Out of the game: ", style="dim")
        gone.append(", ".join(f"{r.get('clan')} {r.get('name', 'unknown card')} ({r.get('how')})" for r in removed),
                    style="dim")
        parts.append(gone)
    vp = obs.get("vp")
    if vp:
        parts.append(Text("Victory Points: " + ", ".join(f"{k} {v}" for k, v in vp.items()), style="bold"))
    if cards and any(c.get("default") for c in cards.values()):
        parts.append(Text(f"Strengths marked{DEFAULT_LABEL} are not in the rulebook (its card pictures are lost): "
                          f"{(obs.get('card_table') or {}).get('name', '')}", style="dim"))
    return Group(*parts)
