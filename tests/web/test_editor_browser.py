"""The scenario editor in a real browser (Playwright driving Debian's chromium, as
test_browser.py does): a designer places terrain and units by clicks, sees the loader's error
appear on the hex and disappear with an undo, writes the battle notes, saves the design in
the browser, plays it and plays three turns against ``normal``."""

from __future__ import annotations

import time
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.web.test_browser import browser, server  # noqa: F401  (fixtures)
from tests.web.test_restart import Server, act, pick, view


def test_a_designer_builds_saves_and_plays_a_battle(browser: Any, server: Server) -> None:  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.get_by_role("link", name="Scenario editor").click()
    status = page.locator("#ed-status")
    expect(status).to_contain_text("No problems")  # the template loads
    # terrain and units by clicks
    page.locator('[data-tool="terrain:river"]').click()
    for hx in ("H5", "J5"):
        page.locator(f'#ed-board polygon[data-hex="{hx}"]').click()
    page.locator('[data-tool="terrain:forest"]').click()
    page.locator('#ed-board polygon[data-hex="N5"]').click()
    page.locator('input[name=ed-side][value=red]').check()
    page.locator('[data-tool="unit:SSp"]').click()
    page.locator('#ed-board polygon[data-hex="N3"]').click()
    page.locator('[data-tool="leader:foot"]').click()
    page.locator('#ed-board polygon[data-hex="N3"]').click()
    expect(status).to_contain_text("No problems")
    # a unit on the river: the loader's message appears on its hex
    page.locator('[data-tool="unit:AB"]').click()
    page.locator('#ed-board polygon[data-hex="H5"]').click()
    expect(status).to_contain_text("1 problem")
    expect(page.locator("#ed-problems li")).to_have_text("line 31: field red.pieces[8]: H5 is a river hex")
    expect(page.locator('#ed-board polygon.bad[data-hex="H5"]')).to_have_count(1)
    page.locator("#ed-undo").click()
    expect(status).to_contain_text("No problems")
    expect(page.locator("#ed-board polygon.bad")).to_have_count(0)
    # the notes
    page.locator('#ed-form input[name="name"]').fill("Battle of the Two Fords")
    page.locator('#ed-form input[name="name"]').dispatch_event("change")
    expect(page.locator("#ed-text")).to_contain_text('name = "Battle of the Two Fords"')
    page.locator('#ed-form input[name="blue-honor"]').fill("6")
    page.locator('#ed-form input[name="blue-honor"]').dispatch_event("change")
    expect(page.locator("#ed-text")).to_contain_text("honor = 6")
    expect(status).to_contain_text("No problems")
    text = page.locator("#ed-text").text_content()
    assert text is not None and 'river = ["H5", "J5"]' in text and '{ at = "N3", unit = "SSp", leader = "foot" }' in text
    # saved in this browser's designs
    page.locator("#ed-save").click()
    expect(page.locator("#ed-designs option", has_text="Battle of the Two Fords")).to_have_count(1)
    # play it: red a person, blue normal
    page.locator("#ed-play").click()
    link = page.locator('#ed-links a[data-seat="0"]')
    expect(link).to_have_count(1)
    href = link.get_attribute("href")
    assert href is not None
    gid, token = href.split("/game/")[1].split("#")
    game = ctx.new_page()
    game.goto(server.base + href)
    expect(game.locator("#title")).to_contain_text("Battle of the Two Fords", timeout=30_000)
    # three of Red's turns, with the normal AI's turns between
    turns, was_blue, deadline = 0, False, time.monotonic() + 600
    while turns < 3:
        assert time.monotonic() < deadline
        v = view(server, gid, token)
        assert v["result"] is None
        if v["your_turn"]:
            if was_blue:
                turns += 1
                was_blue = False
            act(server, gid, token, pick([a["action"] for a in v["actions"]]), v["version"])
        else:
            was_blue = was_blue or v["to_move"] == 1
            time.sleep(0.2)
    log = httpx.get(f"{server.base}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    assert log["version"] > 6
    assert errors == []
    ctx.close()
