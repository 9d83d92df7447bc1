"""A whole-turn planner for C&C Samurai (both editions): the ``easy``, ``normal`` and ``hard`` levels.

**The turn as a unit.** When its turn begins (the ``play`` decision) the planner plans
the whole active turn on a *determinized* copy of the game (``state.determinize``:
the opponent's hand, the decks and the dice resampled with the player's own seeded
generator): for every Command card in hand it gives the orders and moves that a
greedy search over the evaluation of :mod:`kassen.ai.evaluate` likes best, and
values the card by the position before the battle phase, in which every attack its
ordered units can still make counts by its expected damage (exact dice odds). With
``card_rollouts`` (``hard``) the best cards are also played to the end of the turn
``card_rollouts`` times with sampled dice and judged on the average outcome. The
best card's orders and moves are kept as the plan and followed while the real game
stays where the plan expects it (a Dragon card of the opponent may change that:
the planner then plans the rest of the phase again).

**Battles** are chosen one at a time, as macro-actions: every attack and
``end-battle`` is tried on ``battle_samples`` determinizations with dice drawn from
the player's generator, the combat is played out to its end (flags, retreats,
battle back, gain ground and bonus combat answered by the reaction policy), and
the attack with the best average evaluation is made while it beats ending the
battle phase.

**Reactions** (retreats, flags to ignore, inspiration, battle back, gain ground,
bonus combat, First Strike, Dragon windows, Lack of Honor, the end of turn) are
answered by :func:`react`, a fast rule policy that compares evaluations where the
rules leave a real choice (retreat hexes, which unit loses a block).

**Dragon cards.** At a real Dragon window (a reaction decision offering ``dragon ...``
actions; with ``dragons`` on) each playable card and the reaction policy's own answer
are each tried on ``dragon_samples`` determinizations: the action, the reactions it
calls for, the rest of the turn as the planner plays it without rollouts, then the
evaluation (which counts the Honor & Fortune the card costs). A card is played when
it beats not playing it by more than ``dragon_hold`` blocks, the worth of keeping the
card for a better window. Inside rollouts :func:`react` plays no Dragon card (speed).

**The immediate-win check.** With the weight ``win_check`` (a chance; absent or 0: off), a card
whose planned orders and moves leave attacks that win in this battle phase with at least that
chance (:func:`kassen.ai.evaluate.win_chance`) is played, the likeliest win first, before any
comparison of positions or rollout: a win now is never passed over for position.

**Fair play.** The real state is read only through ``legal_actions()`` and
``observation(seat)``; everything else happens on determinized copies, whose
hidden parts are random and whose dice come from the player's own generator.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kassen.ai.evaluate import (
    WEIGHTS_FILE,
    Weights,
    close_exchange,
    evaluate,
    expected_damage,
    load_weights,
    win_chance,
)
from kassen.ai.player import Player
from kassen.engine.errors import KassenError
from kassen.engine.protocol import State
from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai.state import CCState

#: decisions of the active player's own turn (planned), as ``pending['decision']``
TURN = ("play", "order", "move", "battle")
#: actions that give the game away
RESIGN = ("concede", "resign", "surrender")


def _top(s: CCState) -> str:
    return s.pending_kind()


def _signature(s: CCState) -> tuple[Any, ...]:
    """What a plan step depends on: the pieces, the orders given and the moves made (public)."""
    return (tuple(sorted(s.units.items())), tuple(sorted(s.leaders.items())), tuple(s.orders_given()),
            tuple(sorted(s.moves_made().items())), _top(s))


def _ends_text(ends: list[int], done: int) -> str:
    """What the explanation adds about the sampled turns of a plan that ended the game.

    >>> _ends_text([1, 2, 0], 6)
    ' In 3 of these 6 the game is over: won 1, lost 2.'
    >>> _ends_text([0, 0, 0], 6)
    ''
    """
    won, lost, drawn = ends
    over = won + lost + drawn
    if not over:
        return ""
    parts = [f"{word} {n}" for word, n in (("won", won), ("lost", lost), ("drawn", drawn)) if n]
    return f" In {over} of these {done} the game is over: {', '.join(parts)}."


class TurnPlanner(Player):
    """Plans each turn of C&C Samurai as a unit; see the module notes.

    ``battle_samples``: determinizations per candidate attack; ``card_rollouts``: sampled
    completions of the turn for the ``card_beam`` best cards (0: judge cards by expectation
    only); ``noise``: the chance of a random order or move instead of the planned one
    (the ``easy`` level; ``noise_floor``: only among those within that many blocks of the best one
    step ahead); ``seconds``: an optional wall-clock cap on the rollouts (experiments only: the levels count their work);
    ``reply``: rollouts also play the opponent's next turn (card, orders and moves by
    expectation, battles with sampled dice) and judge the position after it.
    ``variants``: other plans of the best card judged by the rollouts beside the beam's cards,
    each the greedy plan with one of its orders or moves forbidden; ``crn``: every candidate's
    rollout ``r`` plays on the same determinization and dice (common random numbers), so the
    candidates are compared on the same luck; ``battle_crn``: the same for the attacks of a battle
    decision (sample ``i`` of every attack on the same determinization and dice). ``reply_cards``:
    how many cards of the opponent's sampled hand the reply considers (drawn at random; 0: all). ``weights_file``: a weights
    file beside :file:`weights_cc.json` (a level's own) instead of it; ``weights`` wins over both.
    ``judge_weights``: other weights to judge outcomes with (the end of a card rollout, the result
    of an attack, a Dragon card's continuation), while the greedy orders and moves keep ``weights``
    (e.g. a fit that predicts the winner better but would not drive the planner to fight);
    ``judge_weights_file``: such weights from a file beside :file:`weights_cc.json` (``judge_weights`` wins).
    """

    name = "normal"

    def __init__(self, seed: int = 0, *, weights: Weights | None = None, battle_samples: int = 6,
                 card_rollouts: int = 0, card_beam: int = 3, noise: float = 0.0, seconds: float | None = None,
                 reply: bool = False, dragons: int = 1, dragon_samples: int = 4, dragon_hold: float = 0.5,
                 variants: int = 0, crn: int = 0, reply_cards: int = 2, weights_file: str | None = None,
                 noise_floor: float | None = None, battle_crn: int = 0, name: str | None = None,
                 judge_weights: Weights | None = None, judge_weights_file: str | None = None) -> None:
        self.rng = Rng(seed)
        self.dragons = bool(dragons)
        self.dragon_samples = dragon_samples
        self.dragon_hold = dragon_hold
        #: continuations played to judge Dragon cards, at the last window and in all (counted work)
        self.dragon_work = 0
        self.total_dragon_work = 0
        self.w = weights if weights is not None else load_weights(
            None if weights_file is None else WEIGHTS_FILE.with_name(weights_file))
        #: the weights that judge outcomes (a rollout's end, an attack's result, a Dragon card's
        #: continuation); the plans themselves are made with :attr:`w`
        if judge_weights is None and judge_weights_file is not None:
            judge_weights = load_weights(WEIGHTS_FILE.with_name(judge_weights_file))
        self.judge = judge_weights if judge_weights is not None else self.w
        #: how the last rollout ended: None (the game goes on), 0 won, 1 lost, 2 drawn
        self.battle_samples = battle_samples
        self.card_rollouts = card_rollouts
        self.card_beam = card_beam
        self.noise = noise
        self.noise_floor = noise_floor
        self.seconds = seconds
        self.reply = reply
        self.variants = variants
        self.crn = bool(crn)
        self.battle_crn = bool(battle_crn)
        self.reply_cards = reply_cards
        #: rollouts played (counted work: the budget of the levels is this, not the clock)
        self.rollouts_done = 0
        if name:
            self.name = name
        #: the planned actions, each with the signature of the state it expects
        self.plan: list[tuple[tuple[Any, ...], str]] = []
        #: the last turn's plan and estimate in words (``kassen play --explain``)
        self.explanation: str | None = None

    # ------------------------------------------------------------ the player
    def choose(self, state: State, seat: int) -> str:
        legal = self.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        if not isinstance(state, CCState):
            raise KassenError(f"{self.name}: the turn planner plays C&C Samurai only")
        pending = state.observation(seat)["pending"] or {}
        decision = pending.get("decision", "")
        det = state.determinize(seat, self.rng)
        if decision in ("play", "order", "move"):
            if self.noise and decision != "play" and self.rng.randbelow(1000) < self.noise * 1000:
                return self._noisy(det, seat, legal)
            if decision == "play" or not self._plan_fits(det, legal):
                self.plan = self._plan_turn(det, seat, explain=True)
            if self._plan_fits(det, legal):
                return self.plan.pop(0)[1]
            self.plan = []
            return react(det, seat, legal, self.w, self.rng)
        if decision == "battle":
            self.plan = []
            return self._choose_battle(state, seat, legal)
        if self.dragons and any(a.startswith("dragon ") for a in legal):
            return self._dragon_or_not(state, seat, legal)
        return react(det, seat, legal, self.w, self.rng)

    def _noisy(self, det: CCState, seat: int, legal: list[str]) -> str:
        """A random order or move (the ``easy`` level's mistakes): any legal one, or with
        ``noise_floor`` one whose position after it is within that many blocks of the best one
        step ahead (weaker, never absurd: no Leader walked alone into the enemy)."""
        cands = [a for a in legal if a not in RESIGN] or legal
        if self.noise_floor is None:
            return self.rng.choice(cands)
        vals = {a: evaluate(settle(det.apply(a), seat, self.w, self.rng), seat, self.w) for a in cands}
        top = max(vals.values())
        return self.rng.choice([a for a in cands if vals[a] >= top - self.noise_floor])

    # ------------------------------------------------------------ Dragon cards
    def _dragon_or_not(self, state: CCState, seat: int, legal: list[str]) -> str:
        """The best Dragon card to play now, or the reaction policy's answer without one."""
        self.dragon_work = 0
        plays = [a for a in legal if a.startswith("dragon ")]
        rest = [a for a in legal if not a.startswith("dragon ")]
        if not rest:
            return plays[0]
        base = react(state.determinize(seat, self.rng), seat, rest, self.w, self.rng)
        values = {a: self._dragon_value(state, seat, a) for a in [base, *plays]}
        best = max(plays, key=lambda a: values[a])
        return best if values[best] > values[base] + self.dragon_hold else base

    def _dragon_value(self, state: CCState, seat: int, action: str) -> float:
        total = 0.0
        for _ in range(self.dragon_samples):
            self.dragon_work += 1
            self.total_dragon_work += 1
            d = settle(state.determinize(seat, self.rng).apply(action), seat, self.w, self.rng)
            if not d.is_terminal():
                d = self._rest_of_turn(d, _active_seat(d))
            total += evaluate(d, seat, self.judge)
        return total / self.dragon_samples

    def _rest_of_turn(self, d: CCState, mover: int) -> CCState:
        """``mover``'s turn played on from ``d`` as :meth:`_play_cheap_turn` plays it."""
        if d.to_move() == mover and _top(d) in ("play", "order", "move"):
            return self._play_cheap_turn(d, mover)
        d = self._play_battles(d, mover)
        return self._finish_turn(d, mover)

    def _plan_fits(self, det: CCState, legal: list[str]) -> bool:
        return bool(self.plan) and self.plan[0][1] in legal and self.plan[0][0] == _signature(det)

    # ------------------------------------------------------------ planning
    def plan_turn(self, s: CCState, seat: int, rollouts: int | None = None) -> list[str]:
        """The actions ``seat`` plans from ``s`` (a determinized state at its ``play``, ``order`` or
        ``move`` decision) to the battle phase: the plan :meth:`choose` follows (``rollouts``: the
        card rollouts, by default the player's ``card_rollouts``)."""
        return [a for _, a in self._plan_turn(s, seat, rollouts)]

    def _plan_turn(self, s: CCState, seat: int, rollouts: int | None = None,
                   max_cards: int = 0, explain: bool = False) -> list[tuple[tuple[Any, ...], str]]:
        """The planned actions from ``s`` (a play, order or move decision) to the battle phase
        (``max_cards``: consider only that many cards, drawn at random; 0: all; ``explain``: the
        real turn's plan, which :attr:`explanation` describes, not one imagined in a rollout)."""
        rollouts = self.card_rollouts if rollouts is None else rollouts
        cache: dict[tuple[str, Any], float] = {}
        if _top(s) != "play":
            steps, end = self._orders_and_moves(s, seat, cache)
            if explain:
                acts = "; ".join(a for _, a in steps) or "(none)"
                self.explanation = (f"{self.explanation or self.name + ':'} The position changed during the turn "
                                    f"(a Dragon card, or a reaction); new plan {acts}, estimate "
                                    f"{evaluate(end, seat, self.w):+.1f}.")
            return steps
        options: list[tuple[float, str, list[tuple[tuple[Any, ...], str]]]] = []
        plays = [a for a in s.legal_actions() if a.startswith("play ")]
        if max_cards and len(plays) > max_cards:
            plays = self.rng.shuffled(plays)[:max_cards]
        after: dict[str, CCState] = {}
        check = float(self.w.get("win_check", 0.0))
        wins: list[tuple[float, int]] = []
        for a in plays:
            s1 = after[a] = settle(s.apply(a), seat, self.w, self.rng)
            steps, end = self._orders_and_moves(s1, seat, cache)
            if check:
                wins.append((win_chance(end, self.w) if end.active == seat else 0.0, len(options)))
            options.append((evaluate(end, seat, self.w), a, [(_signature(s), a), *steps]))
        if not options:
            return []
        if wins:
            # the immediate-win check: a plan that wins in this battle phase with a chance of at
            # least ``win_check`` is never passed over for position (the likeliest win first)
            p, i = max(wins, key=lambda x: (x[0], options[x[1]][0]))
            if p >= check:
                if explain:
                    acts = "; ".join(act for _, act in options[i][2])
                    self.explanation = (f"{self.name}: plan {acts}. It wins in this battle phase with a "
                                        f"chance of {p:.0%} (the immediate-win check).")
                return options[i][2]
        options.sort(key=lambda o: -o[0])
        if explain:
            self.explanation = None
        if rollouts > 0 and (len(options) > 1 or self.variants):
            # rounds over the beam, so that a time budget cuts every card's rollouts alike
            deadline = None if self.seconds is None else time.monotonic() + self.seconds
            beam = options[: self.card_beam]
            if self.variants:
                best = beam[0]
                beam += self._variants(after[best[1]], seat, best[1], best[2], cache, _signature(s))
            totals = [0.0] * len(beam)
            #: per candidate, the rollouts that ended the game: [won, lost, drawn]
            ends = [[0, 0, 0] for _ in beam]
            done = 0
            for r in range(rollouts):
                if deadline is not None and r > 0 and time.monotonic() > deadline:
                    break
                luck = self.rng.next64() if self.crn else None
                for i, (_, _, steps) in enumerate(beam):
                    value, how = self._rollout_turn(s, seat, [act for _, act in steps], luck)
                    totals[i] += value
                    if how is not None:
                        ends[i][how] += 1
                done += 1
            judged = sorted(range(len(beam)), key=lambda i: (-totals[i], -beam[i][0]))
            if explain:
                self._explain(beam[judged[0]][2], totals[judged[0]] / done,
                              totals[judged[1]] / done if len(judged) > 1 else None,
                              f"{len(options)} cards" if len(beam) == min(len(options), self.card_beam) else
                              f"{len(beam)} plans of {len(options)} cards",
                              f"{done} sampled turn{'s' if done > 1 else ''} per {'plan' if self.variants else 'card'}",
                              _ends_text(ends[judged[0]], done))
            return beam[judged[0]][2]
        if explain:
            self._explain(options[0][2], options[0][0], options[1][0] if len(options) > 1 else None,
                          f"{len(options)} cards", "the position after the planned turn")
        return options[0][2]

    def _explain(self, steps: list[tuple[tuple[Any, ...], str]], value: float, runner_up: float | None,
                 among: str, how: str, ends: str = "") -> None:
        """What ``--explain`` shows after the turn: the plan (actions the table sees anyway)
        and its estimate; the other cards are not named, they are still in the hand. ``ends``:
        how many of the plan's sampled turns ended the game (a won or lost game counts the
        evaluation's ``win`` blocks, which is what makes an estimate run into the hundreds)."""
        acts = [a for _, a in steps]
        margin = "" if runner_up is None else f", {value - runner_up:+.1f} over the next best of {among}"
        self.explanation = (f"{self.name}: plan {'; '.join(acts) or '(none)'}. Estimate {value:+.1f} "
                            f"(one block of Ashigaru spearmen = 1.0; from {how}{margin}).{ends}")

    def _variants(self, s1: CCState, seat: int, play: str, steps: list[tuple[tuple[Any, ...], str]],
                  cache: dict[tuple[str, Any], float],
                  sig: tuple[Any, ...]) -> list[tuple[float, str, list[tuple[tuple[Any, ...], str]]]]:
        """Up to ``variants`` other plans after ``play`` (``s1``: the state it leads to): the greedy
        plan with one of its orders forbidden, then with one of its moves forbidden (the unit
        then takes its next best hex, or stays)."""
        plan = [a for _, a in steps[1:]]
        seen = {tuple(plan)}
        out: list[tuple[float, str, list[tuple[tuple[Any, ...], str]]]] = []
        tries = [a for a in plan if a.startswith("order ")] + [a for a in plan if a.startswith("move ")]
        for banned in tries:
            if len(out) >= self.variants:
                break
            vsteps, end = self._orders_and_moves(s1, seat, cache, frozenset((banned,)))
            acts = tuple(a for _, a in vsteps)
            if acts in seen:
                continue
            seen.add(acts)
            out.append((evaluate(end, seat, self.w), play, [(sig, play), *vsteps]))
        return out

    def _orders_and_moves(self, s: CCState, seat: int, cache: dict[tuple[str, Any], float],
                          ban: frozenset[str] = frozenset()) -> tuple[list[tuple[tuple[Any, ...], str]], CCState]:
        """Greedy orders (by what each unit could gain moving alone), then greedy moves (``ban``:
        orders and moves not to choose)."""
        steps: list[tuple[tuple[Any, ...], str]] = []
        w = self.w
        guard = 0
        while not s.is_terminal() and s.to_move() == seat and _top(s) == "order" and guard < 40:
            guard += 1
            legal = s.legal_actions()
            cands = [a for a in legal if a.startswith("order ") and a not in ban]
            base_done = settle(s.apply("done"), seat, w, self.rng)
            base = evaluate(base_done, seat, w)
            effect = s.card_effect()
            best, best_gain = "done", 0.05
            for a in cands:
                key = (a, effect)
                gain = cache.get(key)
                if gain is None:
                    gain = cache[key] = self._unit_gain(s, a, seat) - base
                if gain > best_gain:
                    best, best_gain = a, gain
            steps.append((_signature(s), best))
            s = settle(s.apply(best), seat, w, self.rng)
        while not s.is_terminal() and s.to_move() == seat and _top(s) == "move" and guard < 80:
            guard += 1
            legal = s.legal_actions()
            base = evaluate(s, seat, w)
            best, best_v = "end-move", base + 0.02
            for a in legal:
                if not a.startswith("move ") or a in ban:
                    continue
                v = evaluate(settle(s.apply(a), seat, w, self.rng), seat, w)
                if v > best_v:
                    best, best_v = a, v
            steps.append((_signature(s), best))
            s = settle(s.apply(best), seat, w, self.rng)
        return steps, s

    def _unit_gain(self, s: CCState, order: str, seat: int) -> float:
        """The best evaluation reachable by ordering ``order``'s piece alone and moving it (or not)."""
        w = self.w
        s1 = settle(s.apply(order), seat, w, self.rng)
        if _top(s1) == "order" and s1.to_move() == seat:
            s1 = settle(s1.apply("done"), seat, w, self.rng)
        best = evaluate(s1, seat, w)
        if _top(s1) != "move" or s1.to_move() != seat:
            return best
        words = order.split()
        here = words[1]
        leader = len(words) == 3
        for a in s1.legal_actions():
            parts = a.split()
            if parts[0] != "move" or parts[1] != here or (len(parts) == 4) != leader:
                continue
            best = max(best, evaluate(settle(s1.apply(a), seat, w, self.rng), seat, w))
        return best

    def _rollout_turn(self, s: CCState, seat: int, steps: list[str],
                      luck: int | None = None) -> tuple[float, int | None]:
        """Play ``steps`` on a fresh determinization of ``s``, then the battle phase with sampled dice
        (``luck``: the seed of the determinization and of every draw of the rollout): :meth:`_rollout`."""
        self.rollouts_done += 1
        with self._luck(luck):
            return self._rollout(s, seat, steps)

    @contextmanager
    def _luck(self, luck: int | None) -> Iterator[None]:
        """Draw from ``Rng(luck)`` instead of the player's generator inside the block (common
        random numbers), the player's generator untouched; ``None``: the player's own."""
        if luck is None:
            yield
            return
        own = self.rng
        self.rng = Rng(luck)
        try:
            yield
        finally:
            self.rng = own

    def _rollout(self, s: CCState, seat: int, steps: list[str]) -> tuple[float, int | None]:
        """The judged value for ``seat`` of ``steps`` played on a determinization of ``s`` (with the
        battles, and with ``reply`` the end of the turn and the opponent's cheap reply), and how the
        game ended in it: 0 won, 1 lost, 2 drawn, ``None`` not over."""
        d = s.determinize(seat, self.rng)
        for a in steps:
            if d.is_terminal() or a not in d.legal_actions():
                break
            d = settle(d.apply(a), seat, self.w, self.rng)
        d = self._play_battles(d, seat)
        if self.reply:
            d = self._finish_turn(d, seat)
            if not d.is_terminal() and _top(d) == "play":
                d = self._play_cheap_turn(d, 1 - seat)
        res = d.result()
        end = None if res is None else 2 if res.winner is None else 0 if res.winner == seat else 1
        return evaluate(d, seat, self.judge), end

    def _finish_turn(self, d: CCState, seat: int) -> CCState:
        """The end of ``seat``'s turn by the reaction policy, to the next player's ``play``."""
        guard = 0
        while not d.is_terminal() and _top(d) != "play" and guard < 60:
            guard += 1
            mover = d.to_move()
            assert mover is not None
            legal = d.legal_actions()
            d = settle(d.apply(legal[0] if len(legal) == 1 else react(d, mover, legal, self.w, self.rng)),
                       seat, self.w, self.rng)
        return d

    def _play_cheap_turn(self, d: CCState, mover: int) -> CCState:
        """``mover``'s whole turn as this planner plans it without rollouts (on a determinization,
        so his hand there is a sample), battles by expected damage; to the end of his turn."""
        for _, a in self._plan_turn(d, mover, rollouts=0, max_cards=self.reply_cards):
            if d.is_terminal() or d.to_move() != mover or a not in d.legal_actions():
                break
            d = settle(d.apply(a), mover, self.w, self.rng)
        while not d.is_terminal() and d.to_move() == mover and _top(d) in ("order", "move"):
            d = settle(d.apply("done" if _top(d) == "order" else "end-move"), mover, self.w, self.rng)
        d = self._play_battles(d, mover)
        return self._finish_turn(d, mover)

    def _play_battles(self, d: CCState, seat: int) -> CCState:
        """The battle phase by expected damage (attacks worth more first), dice from our generator."""
        w = self.w
        guard = 0
        while not d.is_terminal() and d.to_move() == seat and _top(d) in ("move", "battle") and guard < 30:
            guard += 1
            legal = d.legal_actions()
            if _top(d) == "move":
                d = settle(d.apply("end-move"), seat, w, self.rng)
                continue
            best, best_v = "end-battle", 0.0
            for a in legal:
                if a.startswith(("attack ", "fire ")):
                    v = attack_value(d, a, w)
                    if v > best_v:
                        best, best_v = a, v
            d = settle(d.apply(best), seat, w, self.rng)
        return d

    def _choose_battle(self, state: CCState, seat: int, legal: list[str]) -> str:
        attacks = [a for a in legal if a.startswith(("attack ", "fire "))]
        if not attacks:
            return "end-battle" if "end-battle" in legal else legal[0]
        w = self.w
        best, best_v = "end-battle", -float("inf")
        lucks: list[int | None] = ([self.rng.next64() for _ in range(self.battle_samples)] if self.battle_crn
                                   else [None] * self.battle_samples)
        for a in [*attacks, "end-battle"]:
            n = 1 if a == "end-battle" else self.battle_samples
            total = 0.0
            for luck in lucks[:n]:
                with self._luck(luck):
                    d = state.determinize(seat, self.rng)
                    total += evaluate(settle(d.apply(a), seat, w, self.rng), seat, self.judge)
            v = total / n
            if v > best_v:
                best, best_v = a, v
        return best


# ------------------------------------------------------------------ helpers
def _active_seat(s: State) -> int:
    """The seat whose turn it is (public: the observation's ``active`` side)."""
    active = str(s.observation(None).get("active", "")).lower()
    names = [n.lower() for n in s.seat_names()]
    return names.index(active) if active in names else 0


def attack_value(s: CCState, action: str, w: Weights) -> float:
    """Expected value of ``attack A B`` / ``fire A B`` (no swarms), for rollouts (a close combat
    less the battle back it risks, with the weight ``battle_back``)."""
    parts = action.split()
    if len(parts) != 3 or "+" in parts[1]:
        return 0.0
    ah, dh = s.b.parse(parts[1]), s.b.parse(parts[2])
    u = s.units.get(ah)
    if u is None:
        return 0.0
    if dh not in s.units:
        return 0.3 * float(w["banner"])
    kind = "close" if parts[0] == "attack" else "ranged"
    ut = s.ut(u)
    moved = s.moved(u)
    n_total = s.combat_dice(kind, ah, dh, False)
    from kassen.rulesets.cc_samurai.combat import dice_count

    base = dice_count(ut, kind, s.b.distance(ah, dh), moved, u.blocks, s.ter(ah), s.ter(dh), 0)
    if kind == "close":
        return close_exchange(s, ut, u.blocks, s.ter(ah), ah, dh, moved, w, max(0, n_total - base))
    return expected_damage(s, ut, u.blocks, kind, s.b.distance(ah, dh), s.ter(ah), dh, moved, w,
                           max(0, n_total - base))


def settle(s: CCState, seat: int, w: Weights, rng: Rng) -> CCState:
    """Answer every decision that is not ``seat``'s own turn decision (reactions of both sides,
    Dragon windows, the end of turn) with :func:`react`, until ``seat`` must play, order, move or
    battle, the other side's turn begins, or the game ends."""
    guard = 0
    while not s.is_terminal() and guard < 200:
        guard += 1
        mover = s.to_move()
        top = _top(s)
        if top in TURN:
            break
        if top == "end" and mover == seat:
            break
        assert mover is not None
        legal = s.legal_actions()
        s = s.apply(legal[0] if len(legal) == 1 else react(s, mover, legal, w, rng))
    return s


def _best_by_eval(s: CCState, seat: int, options: list[str], w: Weights) -> str:
    best, best_v = options[0], -float("inf")
    for a in options:
        v = evaluate(s.apply(a), seat, w)
        if v > best_v:
            best, best_v = a, v
    return best


def _gain_ground(s: CCState, seat: int, legal: list[str], w: Weights) -> str:
    """Advance or stay, by the evaluation after it, plus the bonus close combat an advance earns."""
    best, best_v = legal[-1], -float("inf")
    for a in legal:
        s2 = s.apply(a)
        v = evaluate(s2, seat, w)
        top = s2.pending() or {}
        if s2.pending_kind() == "combat" and top.get("step") == "bonus" and top.get("seat") == seat:
            h = top["tgt"]
            u = s2.units.get(h)
            if u is not None:
                vals = [0.3 * float(w["banner"]) if n not in s2.units else
                        close_exchange(s2, s2.ut(u), u.blocks, s2.ter(h), h, n, True, w)
                        for n in s2.close_targets(h)]
                v += w["pending_attack"] * max(vals, default=0.0)
        if v > best_v:
            best, best_v = a, v
    return best


def react(s: CCState, seat: int, legal: list[str], w: Weights, rng: Rng) -> str:
    """A fast sound policy for every decision outside the planned turn (and a fallback inside it)."""
    legal = [a for a in legal if a not in RESIGN] or legal
    if len(legal) == 1:
        return legal[0]
    top = s.pending() or {}
    t = s.pending_kind()
    if t == "combat":
        step = top.get("step")
        if step == "react":
            return "first-strike" if "first-strike" in legal else "pass"
        if step == "inspire":
            return "inspire" if s.honor[seat] >= w["inspire_min_honor"] else "no-inspire"
        if step == "flags":
            return max(legal, key=lambda a: int(a.split()[1]))
        if step == "gain":
            return _gain_ground(s, seat, legal, w)
        if step == "bonus":
            bonus = [a for a in legal if a.startswith("bonus ")]
            if not bonus:
                return "no-bonus"
            h = top["tgt"]
            u = s.units.get(h)
            if u is None:
                return "no-bonus"

            def val(a: str) -> float:
                dh = s.b.parse(a.split()[1])
                if dh not in s.units:
                    return 0.3 * float(w["banner"])
                return close_exchange(s, s.ut(u), u.blocks, s.ter(h), h, dh, True, w)

            return max(bonus, key=val)
        if step == "back":
            backs = [a for a in legal if a.startswith("battle-back")]
            return backs[0] if backs else legal[-1]
        return "pass" if "pass" in legal else legal[-1]
    if t in ("retreat", "lretreat", "loh", "dloh", "turncoat"):
        return _best_by_eval(s, seat, legal, w)
    if t == "dragon":
        return "pass" if "pass" in legal else legal[-1]
    if t == "pick":
        return rng.choice(legal)
    if t == "end":
        step = top.get("step")
        if step == "wise":
            return "pass" if "pass" in legal else legal[-1]
        if step == "keep":
            return _best_by_eval(s, seat, legal, w)
        if w.get("dragon_card") and step in ("discard", "replenish"):
            # the evaluation values the Dragon cards held: keep, discard, draw or take Honor by it
            # (the card drawn on a determinization is a sample: only the number held counts)
            return _best_by_eval(s, seat, legal, w)
        if step == "discard":
            # without a value for held Dragon cards (``dragon_card``) a card held is worth its
            # Honor & Fortune
            discards = [a for a in legal if a.startswith("discard-dragon")]
            return discards[0] if discards else "keep-dragons"
        if step == "replenish":
            return "take-honor" if "take-honor" in legal else legal[0]
        return _best_by_eval(s, seat, legal, w)
    if t in ("play", "order", "move", "battle"):
        # a fallback inside the turn: the action with the best evaluation one step ahead
        if t == "battle":
            attacks = [a for a in legal if a.startswith(("attack ", "fire "))]
            if attacks:
                best = max(attacks, key=lambda a: attack_value(s, a, w))
                if attack_value(s, best, w) > 0:
                    return best
            return "end-battle" if "end-battle" in legal else legal[-1]
        return _best_by_eval(s, seat, legal, w)
    return _best_by_eval(s, seat, legal, w)
