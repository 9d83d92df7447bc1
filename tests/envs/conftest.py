"""The research adapters need the ``envs`` extra; without it these tests are skipped."""

from __future__ import annotations

import pytest

for _mod in ("numpy", "gymnasium", "pettingzoo", "pyspiel"):
    pytest.importorskip(_mod)
