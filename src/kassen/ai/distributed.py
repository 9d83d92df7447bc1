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
import re
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
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


#: seconds a cluster's address is given to answer before the run gives up (issue 34: a bad address
#: fails in at most 10 s, with one line)
CONNECT_TIMEOUT = 5.0

_ADDRESS = re.compile(r"^(?:ray://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})$")

#: Ray's own setting: how many times (a second apart) a driver tries to reach the head's GCS
_GCS_WAIT = "RAY_gcs_server_port_wait_time_s"

#: the HTTP/2 connection preface and an empty SETTINGS frame (RFC 9113, 3.4)
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])

ADDRESS_FORMS = "local, auto, HOST:PORT or ray://HOST:PORT"


def parse_address(address: str) -> tuple[str, int] | None:
    """The host and port of a cluster's address (``None`` for ``local`` and ``auto``); a malformed
    address is refused, naming the forms taken.

    >>> parse_address("10.0.0.5:6379"), parse_address("ray://head:10001"), parse_address("auto")
    (('10.0.0.5', 6379), ('head', 10001), None)
    >>> parse_address("garbage")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    kassen.ai.distributed.RayUnavailable: --ray: 'garbage' is not a Ray address (local, auto, HOST:PORT or ray://HOST:PORT)
    """
    if address in ("local", "auto"):
        return None
    m = _ADDRESS.match(address)
    port = int(m.group("port")) if m else 0
    if m is None or not 0 < port < 65536:
        raise RayUnavailable(f"--ray: {address!r} is not a Ray address ({ADDRESS_FORMS})")
    return m.group("host").strip("[]"), port


def check_address(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Refuse a malformed address, and one where nothing answers within ``timeout`` seconds, before
    Ray is imported (``ray.init`` retries an unreachable cluster for minutes, printing its C++
    warnings)."""
    where = parse_address(address)
    if where is None:
        return
    try:
        with socket.create_connection(where, timeout=timeout) as conn:
            # Ray's head (GCS) and client servers speak gRPC: HTTP/2 answers its preface with a
            # SETTINGS frame (type 4); anything else (nothing, a proxy that only accepts) is no Ray
            conn.sendall(_H2_PREFACE)
            head = b""
            while len(head) < 9:
                more = conn.recv(9 - len(head))
                if not more:
                    break
                head += more
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or type(exc).__name__)
        raise RayUnavailable(f"--ray: cannot reach a Ray cluster at {address} ({reason.lower()} within "
                             f"{timeout:g} s)") from None
    if len(head) < 9 or head[3] != 4:
        raise RayUnavailable(f"--ray: {address} answers, but not as a Ray cluster (no gRPC server there)")


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Ray's C++ core writes its warnings to the process's stderr (file descriptor 2): hidden while
    it connects (its Python errors are still raised)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


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
    check_address(address)
    ray = _import_ray()
    local = address == "local"
    saved = os.environ.get("PYTHONPATH")
    wait = os.environ.get(_GCS_WAIT)
    try:
        if local:
            # the workers are new processes: let them import this very copy of Kassen
            here = str(Path(__file__).resolve().parents[2])
            # and the user's own players (``module:function``, found from the current directory)
            os.environ["PYTHONPATH"] = os.pathsep.join([here, os.getcwd(), *([saved] if saved else [])])
            ray.init(address="local", num_cpus=num_cpus or os.cpu_count() or 1, include_dashboard=False,
                     logging_level=logging.ERROR, log_to_driver=False, configure_logging=True)
        else:
            # Ray tries a head that does not answer as one 20 times, a second apart: 5 (as long as
            # the address's own check), unless the user set it
            os.environ.setdefault(_GCS_WAIT, str(int(CONNECT_TIMEOUT)))
            with _quiet_stderr():
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RayUnavailable(f"Ray could not start{'' if local else f' or reach {address!r}'}: {first}") from None
    finally:
        if wait is None:
            os.environ.pop(_GCS_WAIT, None)
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
