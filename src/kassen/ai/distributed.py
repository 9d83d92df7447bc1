"""Series on Ray: one Ray task per game, on this machine or on a cluster.

Imported only when ``--ray`` is given (``kassen battle``, ``kassen balance``), so
the ``kassen`` command does not pay for importing Ray otherwise.

Each task plays one :class:`~kassen.ai.series.GameSpec`, whose seed was derived
before the tasks were sent (game ``i`` is ``seed + i``), and the results are put
back in game order: a series gives the same results on Ray as in one process.

* ``address="local"``: a Ray instance is started on this machine for the run
  (``num_cpus`` = the machine's cores, no dashboard, quiet logging) and shut
  down after it. Its workers find this copy of Kassen through ``PYTHONPATH``.
* any other address (``auto``, ``HOST:6379``, ``ray://HOST:10001``): the run
  joins that cluster; every node must have the same Kassen installed (see
  ``docs/ray.md``). The driver disconnects after, the cluster stays.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from kassen.engine.errors import KassenError

T = TypeVar("T")
R = TypeVar("R")


class RayUnavailable(KassenError):
    """Ray is not installed, or could not start or reach the cluster."""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RayUnavailable("--ray needs Ray: pip install 'kassen[scale]' (or pip install 'ray[default]')") from exc
    return ray


def ray_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    address: str = "local",
    num_cpus: int | None = None,
    on_item: Callable[[R], None] | None = None,
) -> list[R]:
    """``[fn(x) for x in items]``, each call a Ray task; results in the order of ``items``.

    ``on_item`` is called with each result as it arrives (in the order they finish).
    """
    ray = _import_ray()
    local = address == "local"
    saved = os.environ.get("PYTHONPATH")
    try:
        if local:
            # the workers are new processes: let them import this very copy of Kassen
            here = str(Path(__file__).resolve().parents[2])
            os.environ["PYTHONPATH"] = os.pathsep.join([here, *([saved] if saved else [])])
            ray.init(address="local", num_cpus=num_cpus or os.cpu_count() or 1, include_dashboard=False,
                     logging_level=logging.ERROR, log_to_driver=False, configure_logging=True)
        else:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    except Exception as exc:
        raise RayUnavailable(f"Ray could not start{'' if local else f' or reach {address!r}'}: {exc}") from exc
    finally:
        if local:
            if saved is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = saved
    try:
        task = ray.remote(num_cpus=1, max_retries=2)(fn)
        refs = [task.remote(x) for x in items]
        index = {r: i for i, r in enumerate(refs)}
        out: list[Any] = [None] * len(refs)
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                r = ray.get(ref)
                out[index[ref]] = r
                if on_item:
                    on_item(r)
        return out
    finally:
        ray.shutdown()
