"""Concede in the browser (issue 30, item 4): a confirmation first (No changes nothing), then the
other side wins, both pages say so and the replay opens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.test_browser import ARGS, CHROMIUM
from tests.web.test_restart import Server, free_port


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run `sudo apt-get install -y chromium` (make test does it as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('concede') / 'games.db'}", free_port())
    srv.start()
    yield srv
    srv.stop()


def test_concede_asks_then_the_other_side_wins_and_the_replay_opens(browser: Any, server: Server) -> None:
    r = httpx.post(f"{server.base}/api/games", json={"seats": ["human", "human"]}, timeout=10)
    seats = r.json()["seats"]
    pages = []
    for seat in seats:
        ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
        pg = ctx.new_page()
        pg.goto(server.base + seat["url"])
        pg.wait_for_selector("#board")
        pages.append(pg)
    red, blue = pages
    box = red.locator("#board").bounding_box()
    red.locator("#concede").click()
    dialog = red.locator("#concede-dialog")
    dialog.wait_for(state="visible", timeout=5000)
    assert "Blue wins at once" in red.locator("#concede-text").inner_text()
    red.locator("#concede-no").click()
    dialog.wait_for(state="hidden", timeout=5000)
    assert red.evaluate("document.body.dataset.version") == "0" and red.locator("#result").count() == 0
    red.locator("#concede").click()
    red.locator("#concede-yes").click()
    red.wait_for_selector("#result", timeout=10000)
    assert red.locator("#result").inner_text() == "Blue wins (Red conceded) — Defeat."
    assert red.locator("#replay").is_visible() and red.locator("#concede").is_disabled()
    assert red.locator("#board").bounding_box() == box, "the board did not move"
    blue.wait_for_selector("#result", timeout=10000)  # live, no reload
    assert blue.locator("#result").inner_text() == "Blue wins (Red conceded) — Victory!"
    # the replay's last step is the concession
    blue.locator("#replay-prev").click()
    blue.wait_for_function("document.getElementById('replay-info').innerText.startsWith('After action 0')",
                           timeout=10000)
    blue.locator("#replay-next").click()
    blue.wait_for_function("document.getElementById('replay-info').innerText.includes('Red conceded')",
                           timeout=10000)
    for pg in pages:
        pg.context.close()


def test_a_watch_link_has_no_concede_button(browser: Any, server: Server) -> None:
    r = httpx.post(f"{server.base}/api/games", json={"seats": ["human", "human"]}, timeout=10)
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    pg = ctx.new_page()
    pg.goto(server.base + r.json()["watch"]["url"])
    pg.wait_for_selector("#board")
    assert pg.locator("#concede").count() == 0
    ctx.close()


@pytest.mark.parametrize("ruleset, scenario, words", [
    ("cc-samurai", "sekigahara-1600", "The first side to gain 8 Victory Banners wins"),
    ("cc-samurai", "first-samurai-skirmish", "The first side to gain 5 Victory Banners wins"),
    ("cc-samurai-zvezda", None, "The first side to gain 5 Victory Banners wins"),
    ("honourable-victory", None, "(its Breakpoint)"),
    ("clans", "2-players", "most Victory Points wins"),
    ("kensei", None, "lost the smaller share"),
])
def test_the_rules_primer_of_each_game_renders(browser: Any, server: Server, ruleset: str, scenario: str | None,
                                                words: str) -> None:
    r = httpx.post(f"{server.base}/api/games", json={"ruleset": ruleset, "scenario": scenario,
                                                     "seats": ["human", "human"]}, timeout=10)
    assert r.status_code == 201, r.text
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    pg = ctx.new_page()
    pg.goto(server.base + r.json()["seats"][0]["url"])
    pg.wait_for_selector("#primer-btn")
    pg.locator("#primer-btn").click()
    pg.wait_for_selector("#primer [data-section=victory]", timeout=10000)
    assert words in pg.locator("#primer [data-section=victory]").inner_text()
    if ruleset.startswith("cc-"):
        assert pg.locator("#primer .primer-dice li").count() == 6
        assert "Honor & Fortune" in pg.locator("#primer").inner_text()
        pg.keyboard.press("Escape")
        pg.locator("#primer").wait_for(state="hidden", timeout=5000)
        # terrain effects on hover over a hex (the engine's table, through the primer)
        free = pg.evaluate("[...document.querySelectorAll('#board g.hexg')].filter((g) => "
                           "g.querySelector('title').textContent.toLowerCase().includes('forest') && "
                           "!document.querySelector(`#board g.unit[data-hex='${g.dataset.hex}']`) && "
                           "!document.querySelector(`#board [data-hex='${g.dataset.hex}']:not(.hexg)`))"
                           ".map((g) => g.dataset.hex)")
        if not free:  # every forest of this battle holds a unit (the skirmish's do not)
            assert scenario != "first-samurai-skirmish"
            ctx.close()
            return
        pg.locator(f"#board g.hexg[data-hex='{free[0]}']").hover()
        pg.wait_for_function("[...document.querySelectorAll('#board g.hexg title')].some("
                             "(t) => t.textContent.toLowerCase().includes('forest — ') && t.textContent.includes('at most'))",
                             timeout=5000)
    ctx.close()
