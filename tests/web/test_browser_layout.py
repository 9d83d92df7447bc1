"""A steady page (issue 30, item 5), in a real browser: the board does not move between
decisions. The cumulative layout shift over 20 decisions of a skirmish against the AI (the
other side's turns played out in between) is 0, measured by the browser's own Layout
Instability API, shifts right after the person's own input excluded as the metric defines."""

from __future__ import annotations

from typing import Any

from tests.web.browsing import ARTIFACTS, open_page, wait_turn_or_result
from tests.web.test_browser_turns import act_in_page, api, new_game, red_plan
from tests.web.test_restart import Server

CLS = """
window.__cls = {value: 0, shifts: []};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    window.__cls.value += e.value;
    window.__cls.shifts.push({value: e.value, nodes: (e.sources || []).map((s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : '?')});
  }
}).observe({type: 'layout-shift', buffered: true});
"""


def test_the_board_does_not_move_over_20_decisions(browser: Any, server: Server) -> None:
    g = new_game(server, "cc-samurai", ["human", "normal"])
    gid, token = g["game_id"], g["seats"][0]["token"]
    ctx, page, errors = open_page(browser, f"{server.base}/game/{gid}#{token}", height=860, pace="fast")
    page.wait_for_function("document.body.dataset.yourTurn === 'true'")
    page.wait_for_timeout(500)  # the first layout is settled: from here on nothing may move
    page.evaluate(CLS)
    board0 = page.locator("#board").bounding_box()
    ordered = 0
    for _ in range(20):
        wait_turn_or_result(page, 120000)
        v = api(server, f"/api/games/{gid}", token)
        if v["result"]:
            break
        a = red_plan([x["action"] for x in v["actions"]], v["observation"], ordered)
        if a.startswith("play "):
            ordered = 0
        if a.startswith("order "):
            ordered += 1
        act_in_page(page, a, v)
        assert page.locator("#board").bounding_box() == board0
    page.wait_for_timeout(300)
    cls = page.evaluate("window.__cls")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "steady-page.png"))
    assert cls["value"] == 0, cls["shifts"][:10]
    assert not errors, errors
    ctx.close()
