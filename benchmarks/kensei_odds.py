"""How long Kensei's exact odds take (issue 35: every legal engagement, the largest included,
in <= 50 ms and <= 50 MB).

1. Finds the largest legal hand-to-hand engagement: every troop class, leader class, mounted
   or on foot and hand-to-hand weapon in a 60-miniature unit (the roster's most) with a leader
   and a Hata-Jurushi, charging in the rear with two complete ranks, Strengthen, its banner in
   front, its leader in direct combat and every other miniature in contact; the defender the
   same without the charge. It times both sides' counts and the pairing
   (``counting.hand_to_hand``, what ``kassen odds`` and the roll resolver run) in CPU ms, and
   its peak memory (tracemalloc, a separate run).
2. Times one roll's count (``counting.odds``) by dice count, criticals on a leader with wounds
   left (the most settled counts), against the old die-by-die enumerator (the test oracle)
   where it finishes quickly.

    .venv/bin/python benchmarks/kensei_odds.py [--json]
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the test oracle (tests/rulesets/kensei/oracle.py)

from kassen.rulesets.kensei import counting, rolls  # noqa: E402
from kassen.rulesets.kensei.data import load_tables  # noqa: E402
from kassen.rulesets.kensei.roster import TroopProfile, parse_roster  # noqa: E402

T = load_tables()


def profile(klass: str, leader: str, mounted: bool, weapon: str, title: str = "samurai") -> TroopProfile:
    entry = {"name": "U", "class": klass, "title": title, "miniatures": 60, "leader": leader, "banner": True,
             "mounted": mounted, "weapons": [weapon]}
    if T.sheet.classes[klass].creature:
        entry["title"] = "colossal"
    r = parse_roster({"name": "b", "clan": "buke", "commander": "daimyo", "points": 600, "troops": [entry]}, "bench")
    return TroopProfile(r.troops[0], T)


def attacking(p: TroopProfile) -> rolls.Situation:
    return rolls.Situation(charge=True, complete_ranks=True, strengthen=True, banner_front=True, leader="direct",
                           in_contact=p.rank_and_file, position="rear", crits_to_leader=True)


def defending(p: TroopProfile) -> rolls.Situation:
    return rolls.Situation(complete_ranks=True, strengthen=True, leader="direct", in_contact=p.rank_and_file,
                           crits_to_leader=True)


def largest() -> tuple[TroopProfile, TroopProfile, int, int]:
    """The attacker and defender with the most dice between them (every class, leader,
    mount and weapon tried; each side's weapon effects depend on the other's weapon)."""
    weapons = [w for wt in T.sheet.weapon_types for w in wt.weapons[:1]]  # one weapon of each type
    cands = [profile(k, ld, m, w) for k in T.sheet.classes for ld in T.sheet.classes for m in (False, True)
             for w in weapons]
    best: tuple[int, TroopProfile, TroopProfile, int, int] | None = None
    top_a = sorted(cands, key=lambda p: -rolls.plan_melee(p, cands[0], attacking(p), defending(cands[0]), T).dice)
    top_b = sorted(cands, key=lambda p: -rolls.plan_melee(p, cands[0], defending(p), attacking(cands[0]), T).dice)
    for a in top_a[:40]:
        for b in top_b[:40]:
            da = rolls.plan_melee(a, b, attacking(a), defending(b), T).dice
            db = rolls.plan_melee(b, a, defending(b), attacking(a), T).dice
            if best is None or da + db > best[0]:
                best = (da + db, a, b, da, db)
    assert best is not None
    return best[1], best[2], best[3], best[4]


def engagement_ms(a: TroopProfile, b: TroopProfile, sa: rolls.Situation, sb: rolls.Situation) -> float:
    """What the roll resolver and ``kassen odds --json`` do for it: the engagement read and
    checked, both rolls counted and paired, the answer as JSON (median of 5 CPU ms)."""
    import dataclasses
    import tempfile

    from kassen.rulesets.kensei.engagement import engagement_odds

    def side(p: TroopProfile, st: rolls.Situation) -> dict[str, Any]:
        fields = {f.name: getattr(st, f.name) for f in dataclasses.fields(st)
                  if getattr(st, f.name) != f.default}
        return {"roster": "big.toml", "troop": p.id, **fields}

    with tempfile.TemporaryDirectory() as tmp:
        troops = [{**t.model_dump(by_alias=True, exclude={"ammunition", "machine", "engineer"}), "id": i}
                  for t, i in ((a.troop, "a"), (b.troop, "b"))]
        lines = ['name = "Big"', 'clan = "buke"', 'commander = "daimyo"', "points = 600"]
        for t in troops:
            lines.append("[[troops]]")
            lines += [f"{k} = {json.dumps(v)}" for k, v in t.items() if v is not None]
        (Path(tmp) / "big.toml").write_text("\n".join(lines) + "\n")
        data = {"kind": "hand-to-hand", "attacker": {**side(a, sa), "troop": "a"},
                "defender": {**side(b, sb), "troop": "b"}}
        run = lambda: json.dumps(engagement_odds(data, "bench", Path(tmp)))  # noqa: E731
        run()
        return statistics.median(cpu_ms(run, 5))


def cpu_ms(fn: Any, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        out.append((time.process_time() - t0) * 1000)
    return out


def main() -> None:
    from tests.rulesets.kensei import oracle

    a, b = largest()[:2]
    sa, sb = attacking(a), defending(b)
    run = lambda: counting.hand_to_hand(a, b, sa, sb, T)  # noqa: E731
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    m = run()
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    times = cpu_ms(run, 7)
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
    tracemalloc.stop()
    big = {"attacker": f"{a.cls.name}, leader {a.leader.name if a.leader else '-'}, "
                       f"{'mounted' if a.mounted else 'on foot'}, {a.melee_weapon}",
           "defender": f"{b.cls.name}, leader {b.leader.name if b.leader else '-'}, "
                       f"{'mounted' if b.mounted else 'on foot'}, {b.melee_weapon}",
           "dice": [m.a.plan.dice, m.b.plan.dice], "cpu_ms_median": statistics.median(times),
           "cpu_ms_max": max(times), "peak_mb": peak, "rss_mb": rss1, "rss_growth_mb": rss1 - rss0, "sums_to_one": m.a_wins + m.draw + m.b_wins == 1}
    big["engagement_json_cpu_ms"] = engagement_ms(a, b, sa, sb)
    # other slow shapes: peasants pair the margin (003:256); Hunt down the leader (003:237)
    peas = profile("P", "C", False, "Farming equipment", "peasant")
    hunt = replace(sa, crits_to_leader=False, hunt_leader=True)
    slow = []
    for label, x, y, sx, sy in (("60 peasants (Colossal leader) charge 60 peasants", peas, peas, attacking(peas),
                                 defending(peas)),
                                ("the largest, hunting down the leader", a, b, hunt, sb)):
        mm = counting.hand_to_hand(x, y, sx, sy, T)
        ts = cpu_ms(lambda x=x, y=y, sx=sx, sy=sy: counting.hand_to_hand(x, y, sx, sy, T), 7)
        slow.append({"case": label, "dice": [mm.a.plan.dice, mm.b.plan.dice], "cpu_ms_median": statistics.median(ts),
                     "cpu_ms_max": max(ts)})
    base = rolls.plan_melee(a, b, sa, sb, T)
    table = []
    for n in (1, 5, 10, 15, 20, 30, 40, 60, 80, 100, counting.MAX_DICE):
        plan = replace(base, dice=n)
        new = statistics.median(cpu_ms(lambda plan=plan: counting.odds(plan), 5))
        old = statistics.median(cpu_ms(lambda plan=plan: oracle.odds(plan), 1)) if n <= 15 else None
        table.append({"dice": n, "cpu_ms": new, "old_cpu_ms": old})
    out = {"largest": big, "slow_shapes": slow, "by_dice": table}
    if "--json" in sys.argv:
        print(json.dumps(out, indent=1))
        return
    print(f"largest legal engagement: {big['attacker']} charging {big['defender']}: {big['dice'][0]} against "
          f"{big['dice'][1]} dice")
    print(f"  hand_to_hand: {big['cpu_ms_median']:.1f} CPU-ms median of 7 (max {big['cpu_ms_max']:.1f}), "
          f"peak {big['peak_mb']:.1f} MB (tracemalloc); process peak RSS {big['rss_mb']:.0f} MB, "
          f"{big['rss_growth_mb']:.1f} MB more than before the count; outcomes sum to one: {big['sums_to_one']}")
    print(f"  the whole engagement (read, checked, counted, paired, as JSON): {big['engagement_json_cpu_ms']:.1f} "
          f"CPU-ms median of 5")
    for r in slow:
        print(f"  {r['case']}: {r['dice'][0]} against {r['dice'][1]} dice: {r['cpu_ms_median']:.1f} CPU-ms median "
              f"of 7 (max {r['cpu_ms_max']:.1f})")
    print("| dice | CPU ms (counting.odds, median of 5) | old enumerator CPU ms |")
    print("|---:|---:|---:|")
    for r in table:
        old = "-" if r["old_cpu_ms"] is None else f"{r['old_cpu_ms']:.0f}"
        print(f"| {r['dice']} | {r['cpu_ms']:.1f} | {old} |")


if __name__ == "__main__":
    main()
