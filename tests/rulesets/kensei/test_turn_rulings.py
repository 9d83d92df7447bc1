"""Rulings of the turn sequence pinned with forced dice: retreat (K28), regeneration (K41),
missed charges (K32), firearms and Reload (K39), Hunt down the leader (K9), end (K38)."""

from __future__ import annotations

from kassen.engine.rng import Rng
from kassen.rulesets.kensei.game import KenseiGame
from tests.rulesets.kensei.helpers import ROSTER_A, ROSTER_B, play, rosters, start, texts

SETUP = [3, 4, 5, 2, 4, 6, 1]
MELEE_QUESTIONS = ("contact 1", "order formed", "contact 1", "order formed", "opponents one", "position front",
                   "cover no", "cover no")


def monks_beaten(tmp_path, b=ROSTER_B):
    """Spears attack the Monks (the active unit, answering with the Attack reaction): the Spears
    throw 3 sixes and wound three times, the Monks miss; the Monks lose by 3."""
    s = play(start(tmp_path, SETUP, b=b), "role attacker", "no duel", "first me", "activate spears")
    s = s.with_forced_dice([2, 5]).apply("activate monks")
    s = play(s, "attack monks", "reaction attack", *MELEE_QUESTIONS)
    return s.with_forced_dice([6, 6, 6, 4, 5, 6, 1, 1]).apply("roll")


def end_turn_one(s):
    """Finish turn 1: the Monks use their last order, then Bows and Hero interact."""
    s = play(s, "interact", "first me", "activate bows")
    s = s.with_forced_dice([1, 1]).apply("activate hero")
    return play(s, "interact", "interact", "interact")


def test_honour_fail_gives_unit_in_retreat_and_it_cannot_be_activated(tmp_path):
    """K28."""
    s = monks_beaten(tmp_path)
    assert "Monks (Monks) wins" not in texts(s) and "Spears (Spears) wins the combat by 3" in texts(s)
    assert s.unit(1, "monks")["left"] == 2
    assert s.to_move() == 1 and s.legal_actions() == ["honour pass", "honour fail"]
    s = s.apply("honour fail")
    assert s.unit(1, "monks")["retreat"]
    s = end_turn_one(s)
    # turn 2's maintenance: the Honour roll of the troop in retreat comes first
    assert s.d["turn"] == 2 and s.to_move() == 1 and "in retreat" in s.prompt()
    kept = s.with_forced_dice([5, 2]).apply("honour fail")
    assert kept.unit(1, "monks")["retreat"] and "monks" not in kept.can_activate(1)
    rallied = s.with_forced_dice([5, 2]).apply("honour pass")
    assert not rallied.unit(1, "monks")["retreat"] and "monks" in rallied.can_activate(1)


def test_undead_regenerate_a_casualty_on_a_natural_six(tmp_path):
    """K41 (003:252)."""
    undead = ROSTER_B.replace('title = "monk"\nminiatures = 5', 'title = "undead"\nminiatures = 5')
    s = monks_beaten(tmp_path, b=undead)
    assert s.unit(1, "monks")["left"] == 2  # undead never take Honour rolls' retreat: a wound instead
    s = s.apply("honour fail")
    assert s.unit(1, "monks")["left"] == 1
    s = play(s, "interact", "first me", "activate bows")
    s = s.with_forced_dice([1, 1]).apply("activate hero")
    s = play(s, "interact", "interact")
    back = s.with_forced_dice([6, 5, 2]).apply("interact")
    assert back.unit(1, "monks")["left"] == 2 and "regenerates a casualty" in texts(back)
    no = s.with_forced_dice([5, 5, 2]).apply("interact")
    assert no.unit(1, "monks")["left"] == 1


def test_a_charge_that_falls_short_has_no_combat(tmp_path):
    """K32."""
    s = play(start(tmp_path, SETUP), "role attacker", "no duel", "first me", "activate spears")
    s = s.with_forced_dice([2, 5]).apply("activate monks")
    s = play(s, "charge hero", "reaction attack", "charge missed")
    assert "falls short" in texts(s) and s.d["combat"] is None and not s.d["questions"]
    assert s.to_move() == 1  # the Monks' order next


def test_firearms_are_unloaded_after_shooting_until_reload(tmp_path):
    """K39 (003:208)."""
    guns = ROSTER_A.replace('weapons = ["Tanto", "Yumi"]', 'weapons = ["Tanto", "Teppo"]')
    s = play(start(tmp_path, SETUP, a=guns), "role attacker", "no duel", "first me", "activate bows")
    s = s.with_forced_dice([4, 1]).apply("activate monks")
    s = play(s, "shoot hero", "no reaction", "band short", "edges 2", "formation in", "cover no")
    s = s.with_forced_dice([1, 1, 1, 1]).apply("roll")
    assert s.unit(0, "bows")["unloaded"]
    s = s.apply("interact")  # the Monks' order
    assert "shoot hero" not in s.legal_actions() and "reload" in s.legal_actions()
    s = s.apply("reload")
    assert not s.unit(0, "bows")["unloaded"]


def test_hunt_down_the_leader_only_for_the_troop_activated_after_it(tmp_path):
    """K9 (003:237): every hand to hand wound of that troop goes to the enemy leader."""
    oto = ROSTER_A.replace('clan = "buke"', 'clan = "otokodate"')
    led = ROSTER_B.replace('miniatures = 5\nweapons = ["Naginata"]', 'miniatures = 5\nweapons = ["Naginata"]\nleader = "E"')
    s = play(start(tmp_path, SETUP, a=oto, b=led), "role attacker", "no duel", "first me", "use hunt-down-the-leader",
             "first me", "activate spears")
    s = s.with_forced_dice([2, 5]).apply("activate monks")
    assert s.d["hunting"] == ["spears", None]
    s = play(s, "attack monks", "reaction attack", "contact 1", "order formed", "contact 1", "leader support",
             "order formed", "opponents one", "position front", "cover no", "cover no")
    s = s.with_forced_dice([6, 6, 6, 4, 5, 4, 1, 1]).apply("roll")
    monks = s.unit(1, "monks")
    assert not monks["leader"] and monks["left"] == 3  # the Elite leader (2 wounds) and one more
    assert "the leader among them" in texts(s)


def test_the_battle_ends_after_five_turns_or_when_an_army_is_lost():
    """K38: a random battle never runs past turn 5 and always has a result."""
    g = KenseiGame()
    rng = Rng(3)
    for seed in range(6):
        s = g.new_state(None, seed)
        while not s.is_terminal():
            s = s.apply(rng.choice(s.legal_actions()))
        res = s.result()
        assert res is not None and s.d["turn"] <= 6
        assert any(w in res.reason for w in ("5 turns", "in retreat", "destroyed"))


def test_options_rosters_in_seat_order(tmp_path):
    s = KenseiGame().new_state("border-wars", 0, rosters=rosters(tmp_path, ROSTER_B, ROSTER_A))
    assert s.seat_names() == ("Monks (Sohei)", "Spears (Buke)")


def _charge_with_banner(tmp_path, answer):
    """The Spears (with a Hata-Jurushi) charge the Hero; the table question about the banner
    is answered ``answer``; every other question as plainly as possible; then the dice."""
    a = ROSTER_A.replace('armour = "samurai"\n', 'armour = "samurai"\nbanner = true\n', 1)
    s = play(start(tmp_path, SETUP, a=a), "role attacker", "no duel", "first me", "activate spears")
    s = s.with_forced_dice([2, 5]).apply("activate monks")
    s = play(s, "charge hero", "reaction attack", "charge reached-outside")
    asked = [q for q in s.d["questions"] if q["key"] == "banner"]
    assert len(asked) == 1 and asked[0]["options"] == ["banner front", "banner back"]
    assert s.to_move() == 0 and "Hata-Jurushi" in asked[0]["text"]  # the charging player is asked
    while s.d["questions"]:
        legal = s.legal_actions()
        pick = next((x for x in legal if x.split()[0] == "banner"), None) and answer
        s = s.with_forced_dice([4] * 20 + [2] * 20).apply(pick or legal[0])
    return next(e for e in s.events if e.kind == "roll" and e.data["by"] == [0, "spears"])


def test_hata_jurushi_the_charging_player_says_where_the_banner_stands(tmp_path):
    """003:124 (K18, K45): +1D6 only when the charging player says the Hata-Jurushi is in the
    front rank; the same charge with the banner further back has one die fewer."""
    front = _charge_with_banner(tmp_path, "banner front")
    back = _charge_with_banner(tmp_path, "banner back")
    assert len(front.data["dice"]) == len(back.data["dice"]) + 1
    assert "Hata-Jurushi" in front.text and "Hata-Jurushi" not in back.text


def test_hata_jurushi_not_asked_of_a_troop_without_one_nor_on_an_attack(tmp_path):
    s = play(start(tmp_path, SETUP), "role attacker", "no duel", "first me", "activate spears")
    s = s.with_forced_dice([2, 5]).apply("activate monks")
    s = play(s, "charge hero", "reaction attack", "charge reached-outside")
    assert not any(q["key"] == "banner" for q in s.d["questions"])
    a = ROSTER_A.replace('armour = "samurai"\n', 'armour = "samurai"\nbanner = true\n', 1)
    s = play(start(tmp_path, SETUP, a=a), "role attacker", "no duel", "first me", "activate spears")
    s = s.with_forced_dice([2, 5]).apply("activate monks")
    s = play(s, "attack hero", "reaction attack")
    assert not any(q["key"] == "banner" for q in s.d["questions"])
