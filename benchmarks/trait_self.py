"""Why the C&C rules are not trait mixins typed with the trait as ``self`` in the compiled
build (they are functions of ``s: CCState`` since 2026-11-28; before, mixins typed
``self: CCState``): one hot loop of attribute reads and method calls on ``self``, compiled by
mypyc in two layouts of 13 ``@trait`` mixins: stacked (each trait subclasses the previous one,
``self`` typed as the trait, as An Honourable Victory! stacks its mixins) and flat (every trait
on the data trait, ``self`` typed as the concrete class, as C&C's mixins did).
Prints the CPU seconds of each, alternating, and their ratio.

Usage: ``python benchmarks/trait_self.py --mypyc PYTHON`` where ``PYTHON`` has mypy (mypyc)
installed, e.g. the build virtualenv; the module is compiled in a temporary directory and
run by this interpreter (same Python version).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

N = 12  # mixins besides the one with the hot loop: 13, like CCState's


def source() -> str:
    out = ['# mypy: disable-error-code="misc"', "from __future__ import annotations", "import time",
           "from mypy_extensions import trait", "", "@trait", "class Data:", "    units: dict[int, int]", "    n: int",
           "    k: list[int]", "", "    def step(self) -> int:", "        raise NotImplementedError", ""]
    prev = "Data"
    for i in range(N):  # stacked: self is the trait
        out += ["@trait", f"class S{i}({prev}):", f"    def s{i}(self) -> int:", f"        return self.n + {i}", ""]
        prev = f"S{i}"
    loop = ["        total = 0", "        for i in range(2_000_000):",
            "            total += self.n + len(self.units) + self.k[0] + self.{a}() + self.{b}() + self.step()",
            "        return total", ""]
    init = ["    def __init__(self) -> None:", "        self.units = {1: 1}", "        self.n = 1", "        self.k = [1]",
            "", "    def step(self) -> int:", "        return 2", ""]
    out += ["@trait", f"class SHot({prev}):", "    def hot(self) -> int:", *(x.format(a="s0", b="s5") for x in loop),
            "class Stacked(SHot):", *init]
    for i in range(N):  # flat: self is the concrete class
        out += ["@trait", f"class F{i}(Data):", f"    def f{i}(self: Flat) -> int:", f"        return self.n + {i}", ""]
    out += ["@trait", "class FHot(Data):", "    def hot(self: Flat) -> int:", *(x.format(a="f0", b="f5") for x in loop),
            "class Flat(" + ", ".join(f"F{i}" for i in range(N)) + ", FHot):", *init,
            "def run(layout: str) -> float:", "    obj = Stacked() if layout == 'stacked' else Flat()",
            "    t = time.process_time()", "    obj.hot()", "    return time.process_time() - t", ""]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--mypyc", required=True, help="a Python with mypy installed, to compile with")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "trait_self_mod.py").write_text(source())
        subprocess.run([a.mypyc, "-m", "mypyc", "trait_self_mod.py"], cwd=tmp, check=True, capture_output=True)
        sys.path.insert(0, tmp)
        import trait_self_mod as m  # type: ignore[import-not-found]

        assert not m.__file__.endswith(".py"), "not compiled"
        times: dict[str, list[float]] = {"stacked": [], "flat": []}
        for _ in range(a.rounds):
            for layout in times:
                times[layout].append(m.run(layout))
    best = {k: min(v) for k, v in times.items()}
    print(json.dumps({"cpu_seconds": times, "stacked_over_flat": round(best["stacked"] / best["flat"], 2)}))


if __name__ == "__main__":
    main()
