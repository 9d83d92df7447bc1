"""CPU seconds of ``kassen --help`` minus a bare ``python -c pass`` (issue 15, step 3).

Usage: ``python benchmarks/help_cpu.py SRC [N] [VAR=VALUE ...]`` with SRC the ``src`` folder of
the code to measure (e.g. an old commit checked out into /tmp). Runs each command N times
(default 7) with byte-code cached in a private ``PYTHONPYCACHEPREFIX`` and prints the minimum
and the median of user + system CPU (``RUSAGE_CHILDREN``).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import zlib

src = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 7
env = dict(os.environ, PYTHONPATH=src, PYTHONPYCACHEPREFIX=f"/tmp/pyc-{zlib.crc32(src.encode())}")
env.pop("PYTHONDONTWRITEBYTECODE", None)
extra = dict(a.split("=", 1) for a in sys.argv[3:])
env.update(extra)
py = sys.executable


def cpu(args: list[str]) -> float:
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, env=env, stdout=subprocess.DEVNULL, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


cpu([py, "-m", "kassen", "--help"])  # writes the byte-code
h = sorted(cpu([py, "-m", "kassen", "--help"]) for _ in range(n))
p = sorted(cpu([py, "-c", "pass"]) for _ in range(n))
print(f"{src} {extra}: kassen --help {h[0]:.3f}s (median {h[n // 2]:.3f}), python -c pass {p[0]:.3f}s "
      f"(median {p[n // 2]:.3f}); difference min {h[0] - p[0]:.3f} s, median {h[n // 2] - p[n // 2]:.3f} s")
