"""How long `kassen odds` takes in-process (issue 15: every query <= 20 ms, exact).

Times ``attack_odds`` on the heaviest queries the CLI accepts (bodyguards with every bonus
die, the most dice of each unit type), each first call in a fresh process (nothing
remembered yet) and again warm, in CPU milliseconds.

    .venv/bin/python benchmarks/odds.py [--json]
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

CASES = [
    ("BG", "ASp", {"bonus": 5}),               # bodyguards: 4 blocks + 5 dice = 9 dice, extra die per sword
    ("BG", "BG", {"bonus": 5}),
    ("SSpC", "ASp", {"bonus": 5, "inspired": True}),
    ("SB", "ASp", {"ranged": True, "bonus": 5}),
    ("ASp", "SSp", {"bonus": 6}),
]


def one(att: str, tgt: str, kw: dict[str, object]) -> tuple[float, float, int]:
    from kassen.rulesets.cc_samurai.odds import attack_odds

    t0 = time.process_time()
    r = attack_odds(att, tgt, **kw)  # type: ignore[arg-type]
    cold = time.process_time() - t0
    t0 = time.process_time()
    for _ in range(20):
        attack_odds(att, tgt, **kw)  # type: ignore[arg-type]
    warm = (time.process_time() - t0) / 20
    return cold * 1000, warm * 1000, int(r["dice"])


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--case":
        i = int(sys.argv[2])
        print(json.dumps(one(*CASES[i])))
        return
    rows = []
    for i, (att, tgt, kw) in enumerate(CASES):
        out = subprocess.run([sys.executable, __file__, "--case", str(i)], capture_output=True, text=True, check=True)
        cold, warm, dice = json.loads(out.stdout)
        rows.append({"attacker": att, "defender": tgt, "options": kw, "dice": dice,
                     "cold_cpu_ms": round(cold, 2), "warm_cpu_ms": round(warm, 3)})
    if "--json" in sys.argv:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            print(f"{r['attacker']:>5} vs {r['defender']:<4} {r['dice']} dice {str(r['options']):<36} "
                  f"first {r['cold_cpu_ms']:7.2f} ms   again {r['warm_cpu_ms']:7.3f} ms")


if __name__ == "__main__":
    main()
