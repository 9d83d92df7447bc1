"""The scenario editor in a real browser (Playwright driving Debian's chromium, as
test_browser.py does), issue 36's "Done when": a designer empties the board and builds a small
battle by clicks only (terrain, six units a side, Leaders, the notes), sees the loader's error
appear on its hex and disappear with an undo, saves the design in the browser, plays three
turns against ``normal`` and runs a 20-game balance check whose figure and plot appear."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import expect

from tests.web.browsing import HTTP
from tests.web.test_restart import Server, act, pick, view

#: (hex, unit, Leader) of each side, every section held from each side's own point of view
RED = [("F3", "SSp", None), ("H3", "ASp", "foot"), ("L3", "AB", None), ("N3", "AA", None), ("T3", "SSpC", None),
       ("V3", "ASp", None), ("M2", None, "mounted")]
BLUE = [("F5", "ASp", None), ("H5", "SSp", None), ("L5", "AB", None), ("N5", "AA", "foot"), ("T5", "SSpC", None),
        ("V5", "ASp", None), ("K6", None, "mounted")]


def test_a_designer_builds_saves_plays_and_measures_a_battle(browser: Any, server: Server) -> None:  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.get_by_role("link", name="Scenario editor").click()
    status = page.locator("#ed-status")
    expect(status).to_contain_text("No problems")  # the template loads
    hexes = lambda hx: page.locator(f'#ed-board polygon[data-hex="{hx}"]')  # noqa: E731
    page.locator("#ed-clear").click()
    expect(page.locator("#ed-text")).not_to_contain_text("pieces = [\n  {")
    # an empty army has nothing in any section: warnings, not problems
    expect(status).to_contain_text("No problems: kassen run and kassen play load this file (6 warnings)")
    # terrain by clicks
    for tool, hx in (("forest", "D5"), ("hill", "M6"), ("river", "P5"), ("river", "R5")):
        page.locator(f'[data-tool="terrain:{tool}"]').click()
        hexes(hx).click()
    # six units a side, and their Leaders
    for side, pieces in (("red", RED), ("blue", BLUE)):
        page.locator(f"input[name=ed-side][value={side}]").check()
        for hx, unit, leader in pieces:
            if unit:
                page.locator(f'[data-tool="unit:{unit}"]').click()
                hexes(hx).click()
            if leader:
                page.locator(f'[data-tool="leader:{leader}"]').click()
                hexes(hx).click()
    expect(status).to_have_text("No problems: kassen run and kassen play load this file")
    # a unit on the river: the loader's message appears on its hex; undo takes it away
    page.locator("input[name=ed-side][value=red]").check()
    page.locator('[data-tool="unit:AB"]').click()
    hexes("P5").click()
    expect(status).to_contain_text("1 problem: kassen run would refuse this file")
    expect(page.locator("#ed-problems li")).to_have_text(
        re.compile(r"^line \d+: field red\.pieces\[7\]: P5 is a river hex$"))
    expect(page.locator('#ed-board polygon.bad[data-hex="P5"]')).to_have_count(1)
    page.locator("#ed-undo").click()
    expect(status).to_have_text("No problems: kassen run and kassen play load this file")
    expect(page.locator("#ed-board polygon.bad")).to_have_count(0)
    # the notes
    for name, value in (("name", "Battle of the Two Fords"), ("victory_banners", "3"), ("blue-honor", "6")):
        page.locator(f'#ed-form input[name="{name}"]').fill(value)
        page.locator(f'#ed-form input[name="{name}"]').dispatch_event("change")
    page.locator('#ed-form textarea[name="note"]').fill("Two armies meet between the fords.")
    page.locator('#ed-form textarea[name="note"]').dispatch_event("change")
    expect(page.locator("#ed-text")).to_contain_text('note = "Two armies meet between the fords."')
    expect(status).to_have_text("No problems: kassen run and kassen play load this file")
    text = page.locator("#ed-text").text_content()
    assert text is not None
    assert 'river = ["P5", "R5"]' in text and 'name = "Battle of the Two Fords"' in text and "victory_banners = 3" in text
    assert '{ at = "H3", unit = "ASp", leader = "foot" }' in text and '{ at = "K6", leader = "mounted" }' in text
    assert text.count("{ at = ") == 14 and "honor = 6" in text
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
        if v["result"] is not None:
            break  # three banners can be won fast: a finished battle is three turns or less, played
        if v["your_turn"]:
            if was_blue:
                turns += 1
                was_blue = False
            act(server, gid, token, pick([a["action"] for a in v["actions"]]), v["version"])
        else:
            was_blue = was_blue or v["to_move"] == 1
            time.sleep(0.2)
    log = HTTP.get(f"{server.base}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    assert log["version"] > 6 and log["scenario"] == "my-battle"
    # how balanced? 20 games greedy against greedy, the progress, then the lobby's note and plot
    expect(page.locator("#ed-bal-games")).to_have_value("20")
    page.locator("#ed-balance").click()
    expect(page.locator("#ed-bal-count")).to_contain_text("of 20 games played")
    note = page.locator("#ed-balance-note")
    expect(note).to_contain_text("AI self-play (greedy vs greedy), 20 games", timeout=900_000)
    expect(note).to_contain_text(re.compile(r"Red won \d+ \(95%: \d+%-\d+%\), Blue won \d+"))
    expect(page.locator("#ed-bal-count")).to_have_text("20 of 20 games played")
    plot = page.locator("#ed-balance-plot")
    expect(plot).to_be_visible()
    page.wait_for_function("document.getElementById('ed-balance-plot').naturalWidth > 0")
    assert errors == []
    ctx.close()
