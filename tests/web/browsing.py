"""What the browser tests share: Debian's chromium, its flags, where screenshots go, a page opened
on a game (the ``browser`` and ``server`` fixtures are in ``conftest.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import httpx

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: one HTTP client for the browser tests' API calls: ``httpx.get`` builds a new client, and with it
#: an SSL context loading the CA bundle (~60 ms of CPU), for every plain-HTTP loopback request
HTTP = httpx.Client(timeout=30)


def open_page(browser: Any, url: str, *, height: int = 800, pace: str | None = None,
              ready: str | None = "#board") -> tuple[Any, Any, list[str]]:
    """A new browser context (1280 px wide, ``height`` tall; the playback ``pace`` preset when
    given) and a page on ``url``, once the selector ``ready`` is on it: ``(context, page, errors)``,
    ``errors`` collecting the page's uncaught errors from the start."""
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": height})
    if pace is not None:
        ctx.add_init_script(f"localStorage.setItem('kassen.pace', '{pace}');")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    if ready is not None:
        page.wait_for_selector(ready)
    return ctx, page, errors


def wait_turn_or_result(page: Any, timeout: int) -> bool:
    """Wait (``timeout`` ms at most) until the page's seat has a decision or the game is over;
    whether it is over (its result shown)."""
    page.wait_for_function("document.body.dataset.yourTurn === 'true' || !!document.getElementById('result')",
                           timeout=timeout)
    return bool(page.locator("#result").count())


#: a point of the hex ``hx`` that the page hit-tests to it (its own polygon, or its piece): the
#: board's side columns are half-hexes (the board is clipped at their centres, as on the real
#: board), so a click at the middle of an edge hex's box lands on the clip's edge
_HEX_POINT = """(hx) => {
  const g = document.querySelector(`#board g.hexg[data-hex="${hx}"]`);
  if (!g) return null;
  const b = g.getBoundingClientRect();
  for (const [fx, fy] of [[0.5, 0.5], [0.7, 0.5], [0.3, 0.5], [0.5, 0.3], [0.5, 0.7], [0.8, 0.4], [0.2, 0.4]]) {
    const x = b.x + b.width * fx, y = b.y + b.height * fy;
    const e = document.elementFromPoint(x, y);
    const at = e && e.closest("[data-hex]");
    if (at && at.dataset.hex === hx) return [x, y];
  }
  return null;
}"""


def click_hex(page: Any, hx: str) -> None:
    """Click the hex ``hx`` of the C&C board with the mouse where a person would: on a part of it
    that takes the click (not under the board's clipped edge or a menu); the board drawn now (a
    click redraws it)."""
    point = page.evaluate(_HEX_POINT, hx)
    assert point is not None, f"no point of hex {hx} takes a click"
    page.mouse.click(point[0], point[1])
