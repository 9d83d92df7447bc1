"""Regular Unit cards' Special Abilities on deployment (002:281-344): the Scout, the Shugenja,
the General and the Assassin."""

from __future__ import annotations

from kassen.engine.events import Event
from kassen.rulesets.clans.battlefields import BattlefieldRules
from kassen.rulesets.clans.common import Entry
from kassen.rulesets.clans.tasks import GeneralTask, ScoutTask, ShugenjaTask


class AbilityRules(BattlefieldRules):
    """The cards that act when deployed face up."""

    def _face_down_targets(self, seat: int) -> list[str]:
        """``tile clan pos`` of every face-down card of another player, on any Battlefield."""
        out: list[str] = []
        for i, tile in enumerate(self.tiles):
            for side in (0, 1):
                owner = self.sides[i][side]
                if owner == seat:
                    continue
                cname = self.name(owner).lower()
                out.extend(f"{tile} {cname} {k + 1}" for k, e in enumerate(self.stacks[i][side]) if not e[1])
        return out

    def _general_actions(self, seat: int, i: int) -> list[str]:
        side = self.side_of(i, seat)
        dests = [j for j in self._my_bfs(seat) if j != i and self._room(j, seat)]
        return [f"move {self.tiles[i]} {k + 1} {self.tiles[j]}"
                for k, e in enumerate(self.stacks[i][side]) if not e[1] for j in dests]

    def _assassinate(self, i: int, clan: str, k: int) -> None:
        """The Assassin eliminates a face-down card and is deployed in its place (002:321-337)."""
        seat = self.turn
        cid = self._take(seat, "assassin")
        side = 0 if self.name(self.sides[i][0]).lower() == clan else 1
        victim_seat = self.sides[i][side]
        victim, _, known = self.stacks[i][side][k]
        self.own_side(i, side)[k] = (cid, True, self.all_mask)
        mask = known | (1 << seat) | (1 << victim_seat)
        self.removed.append((victim, mask, "eliminated by an Assassin", victim_seat))
        where, me, other = self.tile_name(i), self.name(seat), self.name(victim_seat)
        self.emit("assassin", {"seat": seat, "tile": self.tiles[i], "victim_seat": victim_seat, "pos": k + 1,
                               "card": victim},
                  f"{me}'s Assassin eliminates {other}'s face-down card {k + 1} on the {where} "
                  f"(the {self.card_name(victim)}) and takes its place",
                  tuple(sorted({seat, victim_seat})),
                  Event("assassin", {"seat": seat, "tile": self.tiles[i], "victim_seat": victim_seat, "pos": k + 1},
                        f"{me}'s Assassin eliminates {other}'s face-down card {k + 1} on the {where} "
                        "and takes its place"))
        self._next_card()

    def _target(self, i: int, clan: str, k: int) -> tuple[int, Entry]:
        side = 0 if self.name(self.sides[i][0]).lower() == clan else 1
        return side, self.stacks[i][side][k]

    def _reveal(self, i: int, clan: str, k: int) -> None:
        side, (cid, _, _) = self._target(i, clan, k)
        self.own_side(i, side)[k] = (cid, True, self.all_mask)
        self.emit("reveal", {"seat": self.turn, "tile": self.tiles[i], "pos": k + 1, "card": cid},
                  f"{self.name(self.turn)}'s Scout reveals the {self.card_name(cid)} on the {self.tile_name(i)}")
        self._end_ability()

    def _peek(self, i: int, clan: str, k: int) -> None:
        seat = self.turn
        side, (cid, up, known) = self._target(i, clan, k)
        self.own_side(i, side)[k] = (cid, up, known | (1 << seat))
        other = self.name(self.sides[i][side])
        head = f"{self.name(seat)}'s Shugenja looks at {other}'s face-down card {k + 1} on the {self.tile_name(i)}"
        self.emit("peek", {"seat": seat, "tile": self.tiles[i], "pos": k + 1, "card": cid},
                  f"{head}: the {self.card_name(cid)}", (seat,),
                  Event("peek", {"seat": seat, "tile": self.tiles[i], "pos": k + 1}, head))
        self._end_ability()

    def _move(self, i: int, k: int, j: int) -> None:
        seat = self.turn
        side = self.side_of(i, seat)
        entry = self.own_side(i, side).pop(k)
        self.own_side(j, self.side_of(j, seat)).append(entry)
        head = (f"{self.name(seat)}'s General moves face-down card {k + 1} from the {self.tile_name(i)} "
                f"to the top of the {self.tile_name(j)}")
        self.emit("move", {"seat": seat, "from": self.tiles[i], "pos": k + 1, "to": self.tiles[j],
                           "card": entry[0]},
                  f"{head} (the {self.card_name(entry[0])})", (seat,),
                  Event("move", {"seat": seat, "from": self.tiles[i], "pos": k + 1, "to": self.tiles[j]}, head))
        self._end_ability()

    def _end_ability(self) -> None:
        self._pop_decision()
        self._next_card()

    def _legal_scout(self, task: ScoutTask) -> list[str]:
        i = task["bf"]
        opp = 1 - self.side_of(i, task["seat"])
        return [f"reveal {self.tiles[i]} {self.name(self.sides[i][opp]).lower()} {k + 1}"
                for k, e in enumerate(self.stacks[i][opp]) if not e[1]]

    def _act_scout(self, task: ScoutTask, action: str) -> None:
        words = action.split()
        self._reveal(self.bf_index(words[1]), words[2], int(words[3]) - 1)

    def _legal_shugenja(self, task: ShugenjaTask) -> list[str]:
        return [f"peek {t}" for t in self._face_down_targets(task["seat"])]

    def _act_shugenja(self, task: ShugenjaTask, action: str) -> None:
        words = action.split()
        self._peek(self.bf_index(words[1]), words[2], int(words[3]) - 1)

    def _legal_general(self, task: GeneralTask) -> list[str]:
        return self._general_actions(task["seat"], task["bf"])

    def _act_general(self, task: GeneralTask, action: str) -> None:
        words = action.split()
        self._move(self.bf_index(words[1]), int(words[2]) - 1, self.bf_index(words[3]))
