"""Organising Your Army (001:19-162): stands and units, Valid Unit Formations, Command;
the terrain a unit may enter (Appendix A) and unit quality (Appendix B)."""

from __future__ import annotations

from kassen.rulesets.honourable_victory.common import CLASS_NAME, HVStateData, Unit, uid_key


class UnitRules(HVStateData):
    """Questions about units: their class, formation, contacts, command and room."""

    def u(self, uid: str) -> Unit:
        return self.units[uid]

    def is_mounted(self, u: Unit) -> bool:
        """A Mounted unit that is mounted (a dismounted one is treated as foot)."""
        return u.cls == "mounted" and u.mounted

    def is_foot(self, u: Unit) -> bool:
        return not self.is_mounted(u)

    def label(self, u: Unit) -> str:
        kind = "Mounted" if self.is_mounted(u) else ("Dismounted" if u.cls == "mounted" else CLASS_NAME[u.cls])
        return f"{u.uid} ({u.name}, {kind})"

    def on_table(self, side: int | None = None) -> list[Unit]:
        return [u for u in self.units.values() if u.status == "table" and (side is None or u.side == side)]

    def contacts_of(self, uid: str) -> list[tuple[str, str]]:
        """(facet of ``uid``, enemy uid) for every contact of the unit."""
        out = []
        for a, af, b, bf in self.contacts:
            if a == uid:
                out.append((af, b))
            elif b == uid:
                out.append((bf, a))
        return out

    def engaged(self, uid: str) -> bool:
        return any(c[0] == uid or c[2] == uid for c in self.contacts)

    def enemies_engaged(self, uid: str) -> list[str]:
        return sorted({e for _, e in self.contacts_of(uid)}, key=uid_key)

    def facet_toward(self, target: str, attacker: str) -> str | None:
        """The facet of ``target`` that ``attacker`` is in contact with."""
        for a, af, b, bf in self.contacts:
            if a == target and b == attacker:
                return af
            if b == target and a == attacker:
                return bf
        return None

    def in_command(self, u: Unit) -> bool:
        """Command: in the Daimyo's zone, or a Mounted unit (mounted or dismounted)."""
        return u.cls == "mounted" or (u.status == "table" and self.daimyo[u.side] == u.zone)

    def friends_in(self, zone: str, side: int) -> int:
        return sum(1 for u in self.units.values()
                   if u.side == side and u.zone == zone and u.status in ("table", "reserve"))

    def room(self, zone: str, side: int) -> bool:
        return self.friends_in(zone, side) < self.table.limit

    def can_form(self, u: Unit, form: str, mounted: bool | None = None) -> bool:
        """Valid Unit Formations for ``u`` (as mounted or dismounted when ``mounted`` is given)."""
        mtd = (u.cls == "mounted" and u.mounted) if mounted is None else mounted
        if u.stands == 1:
            return form == "open"
        if form == "attack":
            return True
        if form == "defensive":
            return not mtd
        # open order
        return u.cls == "light-foot" or mtd or u.stands < 3

    def can_enter(self, u: Unit, zone: str, form: str | None = None) -> bool:
        """Appendix A: impassable zones, and woods only for mounted units in open order."""
        if self.table.impassable(zone):
            return False
        return not ("woods" in self.table.features(zone) and self.is_mounted(u) and (form or u.form) != "open")

    def quality(self, u: Unit) -> str:
        return u.quality if self.opts["quality"] != "off" else "seasoned"
