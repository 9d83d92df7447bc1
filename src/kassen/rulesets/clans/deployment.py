"""Army Deployment (002:136-199): seven rounds, two cards a turn (one on the last), face up or
face down, the Bridge's limit."""

from __future__ import annotations

from kassen.engine.events import Event
from kassen.rulesets.clans.abilities import AbilityRules
from kassen.rulesets.clans.common import (
    DEPLOY_ABILITIES,
    ROUNDS,
    card_type,
    cards_per_turn,
    is_secret,
)
from kassen.rulesets.clans.data import CARD_TYPES
from kassen.rulesets.clans.tasks import DeployTask, GeneralTask, ScoutTask, ShugenjaTask


class DeploymentRules(AbilityRules):
    """Deploying Army cards."""

    def _deploy_actions(self) -> list[str]:
        seat = self.turn
        mine = [i for i in self._my_bfs(seat) if self._room(i, seat)]
        out: list[str] = []
        seen: set[str] = set()
        for cid in sorted(self.hands[seat]):
            slug = card_type(cid)
            if slug in seen:
                continue
            seen.add(slug)
            if slug == "assassin":
                targets = self._face_down_targets(seat)
                if targets:
                    out.extend(f"assassin {t}" for t in targets)
                else:
                    out.extend(f"deploy assassin {self.tiles[i]}" for i in mine)
            else:
                out.extend(f"deploy {slug} {self.tiles[i]}" for i in mine)
            if not is_secret(cid):
                out.extend(f"deploy-down {slug} {self.tiles[i]}" for i in mine)
        return out

    def _deploy(self, slug: str, i: int, face_up: bool) -> None:
        seat = self.turn
        cid = self._take(seat, slug)
        side = self.side_of(i, seat)
        where = self.tile_name(i)
        me = self.name(seat)
        if is_secret(cid):
            self.own_side(i, side).append((cid, False, 1 << seat))
            self.emit("deploy", {"seat": seat, "tile": self.tiles[i], "card": cid, "up": False},
                      f"{me} deploys the {self.card_name(cid)} face down on the {where}", (seat,),
                      Event("deploy", {"seat": seat, "tile": self.tiles[i], "up": False},
                            f"{me} deploys a face-down card on the {where}"))
            self._next_card()
            return
        if not face_up:
            # C7: a Regular card deployed face down is removed at once, its ability lost
            self.removed.append((cid, self.all_mask, "face-down Regular card", seat))
            self.emit("blunder", {"seat": seat, "tile": self.tiles[i], "card": cid},
                      f"{me} deployed the Regular {self.card_name(cid)} face down on the {where}: "
                      "it is removed from the game without effect")
            self._next_card()
            return
        self.own_side(i, side).append((cid, True, self.all_mask))
        self.emit("deploy", {"seat": seat, "tile": self.tiles[i], "card": cid, "up": True},
                  f"{me} deploys the {self.card_name(cid)} face up on the {where}")
        if slug in DEPLOY_ABILITIES:
            self._push(ScoutTask(t="scout", seat=seat, bf=i) if slug == "scout"
                       else ShugenjaTask(t="shugenja", seat=seat, bf=i) if slug == "shugenja"
                       else GeneralTask(t="general", seat=seat, bf=i))
            if not self._compute_legal():
                self.emit("no-effect", {"seat": seat, "card": slug},
                          f"The {CARD_TYPES[slug][0]} has no card to act on: nothing happens")
                self._pop_decision()
                self._next_card()
            return
        self._next_card()

    def _next_card(self) -> None:
        self.left -= 1
        if self.left > 0:
            return
        self.turn = (self.turn + 1) % self.n
        if self.turn == 0:
            self.round += 1
        if self.round > ROUNDS:
            self._start_combat()
            return
        self.left = cards_per_turn(self.round)

    def _legal_deploy(self, task: DeployTask) -> list[str]:
        return self._deploy_actions()

    def _act_deploy(self, task: DeployTask, action: str) -> None:
        words = action.split()
        if words[0] == "assassin":
            self._assassinate(self.bf_index(words[1]), words[2], int(words[3]) - 1)
        else:
            self._deploy(words[1], self.bf_index(words[2]), face_up=words[0] == "deploy")
