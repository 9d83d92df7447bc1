"""What the players see: who knows which card, the observation, its secrets, the prompt and
action descriptions."""

from __future__ import annotations

from kassen.rulesets.clans.common import JSON, ROUNDS, Entry, card_clan, card_type, cards_per_turn
from kassen.rulesets.clans.data import CARD_TYPES, CLANS, TILES
from kassen.rulesets.clans.deployment import DeploymentRules


class ViewRules(DeploymentRules):
    """Observation, secrets, prompt and descriptions."""

    def knows(self, seat: int | None, entry: Entry) -> bool:
        return entry[1] or not self.stack or (seat is not None and bool(entry[2] >> seat & 1))

    def knows_removed(self, seat: int | None, known: int) -> bool:
        """Whether ``seat`` knows a card out of the game (eliminated unseen by an Assassin: C11)."""
        return known == self.all_mask or not self.stack or (seat is not None and bool(known >> seat & 1))

    def _card_json(self, i: int, stack: list[Entry], k: int, seat: int | None) -> JSON:
        cid, up, _ = stack[k]
        d: JSON = {"pos": k + 1, "clan": CLANS[card_clan(cid)], "up": up}
        if self.knows(seat, stack[k]):
            slug = card_type(cid)
            d.update(card=cid, type=slug, name=CARD_TYPES[slug][0], strength=self.card_strength(i, stack, k),
                     default=self.table.cards[slug].default)
        return d

    def observation(self, seat: int | None) -> JSON:
        board = []
        for i, tile in enumerate(self.tiles):
            sides = []
            for s in (0, 1):
                st = self.stacks[i][s]
                owner = self.sides[i][s]
                sides.append({"seat": owner, "clan": self.name(owner), "count": len(st),
                              "strength_shown": self.strength_shown(i, s), "bonus": self.bonus[i][s],
                              "cards": [self._card_json(i, st, k, seat) for k in range(len(st))]})
            info = self.outcome[i]
            board.append({"tile": tile, "name": TILES[tile][0], "vp": self.table.vp(tile), "timing": TILES[tile][1],
                          "text": self.table.battlefields[tile].text, "sides": sides,
                          "outcome": dict(info) if info is not None and info.get("done") else None})
        removed = []
        for cid, known, how, owner in self.removed:
            r: JSON = {"clan": CLANS[card_clan(cid)], "side": self.name(owner), "how": how}
            if self.knows_removed(seat, known):
                r.update(card=cid, type=card_type(cid), name=CARD_TYPES[card_type(cid)][0])
            removed.append(r)
        obs: JSON = {
            "game": "clans",
            "scenario": self.scenario,
            "seats": list(self.seat_names()),
            "viewer": seat,
            "teams": [[0, 2], [1, 3]] if self.teams else None,
            "phase": self.phase,
            "round": self.round,
            "turn": min(self.round, ROUNDS),
            "to_move": self.to_move(),
            "cards_left_this_turn": self.left if self.phase == "deploy" else 0,
            "board": board,
            "removed": removed,
            "hand_sizes": {self.name(s): len(self.hands[s]) for s in range(self.n)},
            "card_table": self.table_json(),
            "pending": self._pending_json(),
            "events": [e for e in (ev.public_json(seat) for ev in self.events) if e is not None],
        }
        if self.phase == "draft":
            obs["offer"] = sorted(self.offer)
        if seat is not None:
            t = self.table
            obs["hand"] = [{"card": c, "slug": card_type(c), "name": CARD_TYPES[card_type(c)][0],
                            "kind": CARD_TYPES[card_type(c)][1], "strength": t.strength(card_type(c)),
                            "default": t.cards[card_type(c)].default} for c in sorted(self.hands[seat])]
            obs["last_deployed"] = self.last_card[seat]
        if self.vp is not None:
            obs["vp"] = {self.name(s): v for s, v in enumerate(self.vp)}
        obs["result"] = self._result.to_json() if self._result else None
        return obs

    def _pending_json(self) -> JSON | None:
        p = self.pending
        if p is None:
            return None
        out: JSON = {"decision": p["kind"], "seat": p["seat"], "prompt": self.prompt()}
        if "bf" in p:
            out["tile"] = self.tiles[p["bf"]]
        return out

    def table_json(self) -> JSON:
        t = self.table
        return {
            "name": t.name,
            "label": "default value",
            "cards": {slug: {"name": nm, "kind": kind, "copies": cp, "strength": t.cards[slug].strength,
                             "default": t.cards[slug].default, "text": t.cards[slug].text}
                      for slug, (nm, kind, cp) in CARD_TYPES.items()},
            "village": {"from": t.village.from_strength, "to": t.village.to_strength, "default": t.village.default},
            "lord_per_card_after": t.lord.per_card_after,
        }

    def secrets(self, seat: int | None) -> set[str]:
        """Ids of cards ``seat`` has not seen: face-down cards, eliminated ones, other hands."""
        if self.phase == "over":
            return set()
        out: set[str] = set()
        for i in range(len(self.tiles)):
            for s in (0, 1):
                for e in self.stacks[i][s]:
                    if not self.knows(seat, e):
                        out.add(e[0])
        for cid, known, _, _ in self.removed:
            if not self.knows_removed(seat, known):
                out.add(cid)
        for s in range(self.n):
            if s != seat:
                out.update(self.hands[s])
        return out

    def prompt(self) -> str:
        ph = self.phase
        if ph == "over":
            return ""
        who = self.name(self.to_move() or 0)
        if ph == "draft":
            _, a, b = self.queue[0]
            return f"{who}: choose a Battlefield to place between {self.name(a)} and {self.name(b)}"
        if ph == "deploy":
            n = cards_per_turn(self.round)
            nth = n - self.left + 1
            return f"{who}: deploy a card (round {self.round} of {ROUNDS}, card {nth} of {n})"
        if ph == "resolve":
            return f"{who}: choose the next Battlefield to resolve"
        p = self.pending
        assert p is not None
        where = self.tile_name(p["bf"]) if "bf" in p else ""
        return {
            "scout": f"{who}: choose the opponent's Secret card the Scout reveals on the {where}",
            "shugenja": f"{who}: choose a face-down card for the Shugenja to look at",
            "general": f"{who}: choose the face-down card the General moves from the {where}, and where to",
            "sanctuary": f"{who}: choose which of your weakest cards to destroy at the Sanctuary",
            "supply": f"{who}: choose two Battlefields for the Supply Camp's +1 bonuses",
        }[p["kind"]]

    def describe_action(self, action: str) -> str:
        w = action.split()

        def tile(t: str) -> str:
            return TILES[t][0] if t in TILES else t

        try:
            if w[0] == "deploy":
                up = "face up" if CARD_TYPES[w[1]][1] != "secret" else "face down"
                return f"deploy the {CARD_TYPES[w[1]][0]} {up} on the {tile(w[2])}"
            if w[0] == "deploy-down":
                return f"deploy the Regular {CARD_TYPES[w[1]][0]} face down on the {tile(w[2])} (it is removed!)"
            if w[0] == "assassin":
                return f"Assassin: eliminate {w[2].title()}'s face-down card {w[3]} on the {tile(w[1])}"
            if w[0] == "reveal":
                return f"Scout: reveal {w[2].title()}'s card {w[3]} on the {tile(w[1])}"
            if w[0] == "peek":
                return f"Shugenja: look at {w[2].title()}'s card {w[3]} on the {tile(w[1])}"
            if w[0] == "move":
                return f"General: move your card {w[2]} from the {tile(w[1])} to the {tile(w[3])}"
            if w[0] == "resolve":
                return f"resolve the {tile(w[1])} next"
            if w[0] == "destroy":
                return f"destroy your card {w[1]} at the Sanctuary"
            if w[0] == "bonus":
                return f"+1 on the {tile(w[1])} and on the {tile(w[2])}"
            if w[0] == "choose":
                return f"place the {tile(w[1])}"
        except (IndexError, KeyError):
            return action
        return action
