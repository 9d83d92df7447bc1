"""Concede in the browser (issue 30, item 4): a confirmation first (No changes nothing), then the
other side wins, both pages say so and the replay opens."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.browsing import HTTP, open_page
from tests.web.test_restart import Server


def test_concede_asks_then_the_other_side_wins_and_the_replay_opens(browser: Any, server: Server) -> None:
    r = HTTP.post(f"{server.base}/api/games", json={"seats": ["human", "human"]}, timeout=10)
    seats = r.json()["seats"]
    pages = []
    for seat in seats:
        _, pg, _ = open_page(browser, server.base + seat["url"])
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
    r = HTTP.post(f"{server.base}/api/games", json={"seats": ["human", "human"]}, timeout=10)
    ctx, pg, _ = open_page(browser, server.base + r.json()["watch"]["url"])
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
    r = HTTP.post(f"{server.base}/api/games", json={"ruleset": ruleset, "scenario": scenario,
                                                     "seats": ["human", "human"]}, timeout=10)
    assert r.status_code == 201, r.text
    ctx, pg, _ = open_page(browser, server.base + r.json()["seats"][0]["url"], ready="#primer-btn")
    pg.locator("#primer-btn").click()
    pg.wait_for_selector("#primer [data-section=victory]", timeout=10000)
    assert words in pg.locator("#primer [data-section=victory]").inner_text()
    if not ruleset.startswith("cc-"):  # the whole primer: the turn first, each section a heading and its rules
        assert pg.locator("#primer .primer-section").first.get_attribute("data-section") == "sequence"
        assert pg.locator("#primer .primer-section").count() >= 6
        assert pg.locator("#primer .primer-section h3").count() == pg.locator("#primer .primer-section").count()
        assert pg.locator("#primer [data-section=sequence] li").count() >= 4
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


# ------------------------------------------------------------------ the guided first battle
GUIDE_TITLES = {"play": "1 · Play a Command card", "order": "2 · Order units", "move": "3 · Move",
                "battle": "4 · Battle", "end": "End of your turn", "dragon": "A Dragon card window"}


def guide_title(page: Any) -> str:
    page.wait_for_selector("#guide:not([hidden]) #guide-title", timeout=10000)
    return str(page.locator("#guide-title").inner_text())


def guided_pick(acts: list[str], ordered: int) -> str:
    """Red's plan for the guided turns: a card, one unit ordered, it moves, battles if it can."""
    for prefix in ("play ", "attack ", "fire "):
        if any(a.startswith(prefix) for a in acts):
            return next(a for a in acts if a.startswith(prefix))
    if any(a.startswith("order ") for a in acts) and ordered == 0:
        return next(a for a in acts if a.startswith("order ") and not a.endswith("leader"))
    for a in ("done", "end-move", "end-battle", "pass", "no-battle-back", "stay", "keep-dragons", "draw-dragon"):
        if a in acts:
            return a
    return acts[0]


def test_the_guide_follows_the_first_two_turns_and_the_first_battle_then_never_shows_again(
        browser: Any, server: Server) -> None:
    """Card → order → move → battle: the guide follows Red's first two turns; when they bring no
    battle it waits, hidden, for Red's first battle and guides that; then it is done for good."""
    from tests.web.test_browser_turns import act_in_page, api, red_plan

    g = api(server, "/api/games", body={"scenario": "first-samurai-skirmish", "seats": ["human", "random"]})
    token = g["seats"][0]["token"]
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    ctx.add_init_script("localStorage.setItem('kassen.pace', 'instant');")
    page = ctx.new_page()
    page.goto(server.base + g["seats"][0]["url"])
    page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=20000)
    assert guide_title(page) == GUIDE_TITLES["play"]
    seen: list[str] = []
    ordered, moved_click = 0, False
    for _ in range(120):
        v = api(server, f"/api/games/{g['game_id']}", token)
        if v["observation"]["turn"] > 3 or v["result"]:
            break
        if not v["your_turn"]:
            page.wait_for_function(f"Number(document.body.dataset.version) > {v['version']}", timeout=30000)
            continue
        page.wait_for_function(f"document.body.dataset.version === '{v['version']}' && "
                               "document.body.dataset.yourTurn === 'true'", timeout=30000)
        acts = [a["action"] for a in v["actions"]]
        if acts == ["pass"]:  # the page answers a pass-only window by itself
            page.wait_for_function(f"Number(document.body.dataset.version) > {v['version']}", timeout=30000)
            continue
        decision = v["observation"]["pending"]["decision"]
        if decision in GUIDE_TITLES:
            page.wait_for_function(f"document.getElementById('guide-title').innerText === '{GUIDE_TITLES[decision]}'",
                                   timeout=10000)
            seen.append(decision)
        if decision == "play":
            ordered = 0
        if decision == "move" and not moved_click:
            unit = next(a.split()[1] for a in acts if a.startswith("move ") and "leader" not in a)
            page.locator(f"#board g.unit[data-hex='{unit}']").click()
            page.wait_for_function("document.getElementById('guide-title').innerText === '3 · Move: now a green hex'",
                                   timeout=5000)
            moved_click = True
            page.keyboard.press("Escape")
        pick = guided_pick(acts, ordered)
        if pick.startswith("order "):
            ordered += 1
        act_in_page(page, pick, v)
    assert {"play", "order", "move", "end"} <= set(seen), seen
    assert seen.count("play") == 2, "the guide follows both of Red's first turns"
    gid = g["game_id"]

    def attacks_now() -> tuple[dict[str, Any], list[str]]:
        v = api(server, f"/api/games/{gid}", token)
        acts = [a["action"] for a in v["actions"]] if v["your_turn"] else []
        if (v["observation"]["pending"] or {}).get("decision") != "battle":
            return v, []
        return v, [a for a in acts if a.startswith(("attack ", "fire "))]

    if "battle" not in seen or page.evaluate("localStorage.getItem('kassen.guide.battled')") != "1":
        # no battle in the first two turns: Red plays on (by the API, the page following) until it
        # has a target; meanwhile the guide waits, hidden
        ordered, waited = 0, False
        for _ in range(600):
            v, attacks = attacks_now()
            if attacks or v["result"]:
                break
            if not v["your_turn"]:
                time.sleep(0.05)
                continue
            if not waited and page.locator("#guide").is_hidden():
                waited = True
            acts = [a["action"] for a in v["actions"]]
            if v["observation"]["pending"]["decision"] == "play":
                ordered = 0
            pick = red_plan(acts, v["observation"], ordered)
            ordered += pick.startswith("order ")
            api(server, f"/api/games/{gid}/actions", token, {"action": pick, "at": v["version"]})
        assert attacks and waited, "Red reached a battle; the guide waited for it, hidden"
        page.wait_for_function(f"document.body.dataset.version === '{v['version']}' && "
                               "document.body.dataset.yourTurn === 'true'", timeout=30000)
        assert guide_title(page) == GUIDE_TITLES["battle"]
        assert "your first battle" in page.locator("#guide").inner_text()
        page.locator(f"#board g.unit[data-hex='{attacks[0].split()[1]}']").click()
        page.wait_for_function("document.getElementById('guide-title').innerText === '4 · Battle: now a target'",
                               timeout=5000)
        page.keyboard.press("Escape")
        for _ in range(60):  # the battle fought in the page, to the end of Red's turn
            v = api(server, f"/api/games/{gid}", token)
            if v["result"] or page.evaluate("localStorage.getItem('kassen.guide')") == "done":
                break
            if not v["your_turn"]:
                page.wait_for_function(f"Number(document.body.dataset.version) > {v['version']}", timeout=30000)
                continue
            page.wait_for_function(f"document.body.dataset.version === '{v['version']}'", timeout=30000)
            acts = [a["action"] for a in v["actions"]]
            if acts == ["pass"]:
                page.wait_for_function(f"Number(document.body.dataset.version) > {v['version']}", timeout=30000)
                continue
            act_in_page(page, red_plan(acts, v["observation"], 3), v)
    page.wait_for_function("document.getElementById('guide-title') === null || "
                           "document.getElementById('guide').innerText.includes('Guided first battle: done')",
                           timeout=30000)
    assert page.evaluate("localStorage.getItem('kassen.guide')") == "done"
    # never again: a new skirmish in the same browser has no guide
    g2 = api(server, "/api/games", body={"scenario": "first-samurai-skirmish", "seats": ["human", "random"]})
    page.goto(server.base + g2["seats"][0]["url"])
    page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=20000)
    page.wait_for_timeout(300)
    assert page.locator("#guide").count() == 0
    ctx.close()


def test_the_guide_can_be_skipped_and_the_lobby_starts_it_anew(browser: Any, server: Server) -> None:
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.locator("#guided-battle").click()
    page.wait_for_url("**/game/**", timeout=20000)
    page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=30000)
    assert guide_title(page) == GUIDE_TITLES["play"]
    box = page.locator("#board").bounding_box()
    page.locator("#guide-skip").click()
    assert page.locator("#guide").is_hidden() and page.locator("#board").bounding_box() == box
    assert page.evaluate("localStorage.getItem('kassen.guide')") == "skipped"
    page.reload()
    page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=30000)
    page.wait_for_timeout(300)
    assert page.locator("#guide").count() == 0
    # the lobby's button brings it back on a new battle
    page.goto(server.base + "/")
    page.locator("#guided-battle").click()
    page.wait_for_url("**/game/**", timeout=20000)
    page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=30000)
    assert guide_title(page) == GUIDE_TITLES["play"]
    ctx.close()
