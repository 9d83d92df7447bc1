"""The clans' special abilities (003:232-238, K9): once a battle, instead of activating a
troop; the engine applies some, the others are played at the table and recorded."""

from __future__ import annotations

from kassen.rulesets.kensei.common import ENGINE_ABILITIES
from kassen.rulesets.kensei.orders import OrderRules


class AbilityRules(OrderRules):
    """The clan abilities (once a battle each)."""

    def _ability_actions(self, s: int) -> list[str]:
        d = self.data
        act = d["act"]
        if d["ability_used"][s] is not None or act is None or act.get("solo") is not None \
                or act["active"] != [None, None]:
            return []
        clan = self.tables.sheet.clans[self.rosters[s].clan]
        ids = [a.id for a in clan.abilities if self.rosters[s].ability in (None, a.id) and a.id != "poison"]
        out = []
        for a in ids:
            if a == "buy-the-enemy":
                out += [f"use buy-the-enemy {uid}" for uid in self.can_activate(1 - s)]
            else:
                out.append(f"use {a}")
        return out

    def _use_ability(self, s: int, aid: str, target: str | None = None) -> None:
        d = self.data
        clan = self.tables.sheet.clans[self.rosters[s].clan]
        ab = next(a for a in clan.abilities if a.id == aid)
        d["ability_used"][s] = aid
        text = f"{self.name(s)} uses {ab.name} ({clan.source}): {ab.text}"
        if aid == "bushido-law":
            d["bushido"][s] = True
        elif aid == "death-fog":
            d["fog"][1 - s] = True
        elif aid == "hunt-down-the-leader":
            d["hunt"][s] = True
        elif aid == "buy-the-enemy" and target is not None:
            self.unit(1 - s, target)["bought"] = True
            text += f" Bought: {self.label(1 - s, target)}."
        elif aid == "poison":
            for u in d["units"][1 - s]:
                if "poison" not in self.profile(1 - s, u["id"]).title.immune:
                    u["stunned"], u["poisoned"] = 1, True
        if aid not in ENGINE_ABILITIES:
            text += " (played at the table; Kassen records it, K9)"
        self.emit("ability", {"seat": s, "ability": aid}, text)
