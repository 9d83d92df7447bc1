"""An Honourable Victory! (Trevor Raymond, 2015): zone-based Sengoku miniatures rules.

Seats: ``South`` (0) and ``North`` (1). The table is a grid of zones ``A1``..``E3``
(columns west to east, rows south to north); reserve zones ``B0 C0 D0`` (South) and
``B4 C4 D4`` (North). Facings are the table edges ``N E S W``. Units are ``S1``,
``S2``... and ``N1``... (their place in the army list). Rulings: ``docs/rulings.md`` (H1-H31).

Action notation (an action is its text):

Firing Phase (each side declares in turn, hidden from the other until resolved)
    ``fire S3 N2``          unit S3 fires at N2
    ``done``                no more fire
Hand-to-Hand Combat Phase
    ``alloc S3 N2=2 N4=1``  stands of S3 (engaged with several enemies) against each
    ``reroll 4 6``          overlapping/outflanking re-throw of the dice showing 4 and 6
    ``daimyo``              the Daimyo's re-throw of every die of the attack
    ``accept``              let the throw stand
Remove Losses Phase
    ``S3 hold`` / ``S3 break``  a unit that lost stands keeps or breaks contact (ruling H6)
Movement Phases (one unit at a time)
    ``S3 move``             move forward into the next zone
    ``S3 turn E``           turn to face an edge
    ``S3 form open``        change formation (``attack``/``defensive``/``open``); out of a
                            defensive formation with a new facing: ``S3 form attack N``
    ``S3 mount`` / ``S3 dismount`` / ``S3 disengage``
    ``S3 engage N2 left``   engage N2 on the given facet (front/left/right/rear)
    ``S3 withdraw``         withdraw from the battle (unit in the Daimyo's zone)
    ``S3 reserve``          move off the table into the reserve zone behind
    ``S3 enter attack``     from a reserve zone onto the table (``attack`` or ``open``)
    ``S3 shift B0``         move between reserve zones
    ``S3 stop``             no second action (mounted units)
    ``S3 rally W``          a mounted unit whose target recoiled rallies, facing W
    ``daimyo C2``           move the Daimyo (ends the movement phase)
    ``end`` / ``concede``
Reactions (the other side, during a movement phase)
    ``N2 counter`` / ``N2 recoil``  a mounted unit being engaged (compulsory: one of them)
    ``N2 fire``             defensive fire
    ``N2 defend``           hastily form a defensive formation
    ``N2 evade``            evade (open order foot)
    ``N5 intercept``        a mounted unit intercepts the moving unit
    ``none``                no reaction
"""

from __future__ import annotations

from kassen.rulesets.registry import AISpec, EnvSpec, RulesetSpec, dice_words

SPECS = (
    RulesetSpec(
        id="honourable-victory",
        description="An Honourable Victory! (zone-based miniatures rules)",
        game="kassen.rulesets.honourable_victory.game:HonourableVictoryGame",
        scenario_info="kassen.rulesets.honourable_victory.game:HonourableVictoryGame.scenario_summary",
        web_view="hv",
        terminal_view="kassen.cli.render_hv:render",
        rules_tables="kassen.cli.tables:hv_rules",
        primer="kassen.rulesets.honourable_victory.primer:primer",
        forced_dice=dice_words,
        dice_at_setup=True,
        # the look-ahead levels: playouts per decision (counted), their depth in actions, whether
        # they stop when the seat must decide again (the playout plays the replies and dice until
        # then); the endgame play-outs per decision and the candidates the ordinary playouts
        # shortlist for them before the last turn. hard: little more than normal's ordinary
        # playouts (with 600, and spare units valued at REACH_WEIGHT 2.0, it won 1, drew 2, lost 3
        # of 6 against normal), more at the end
        ai=AISpec(player="kassen.ai.players:halving_level",
                  evaluation="kassen.ai.evaluate_games:evaluate_hv",
                  endgame="kassen.ai.evaluate_games:HV_ENDGAME",
                  levels={"easy": {"playouts": 16, "depth": 30, "until_mine": 1, "end_playouts": 8, "shortlist": 4},
                          "normal": {"playouts": 120, "depth": 30, "until_mine": 1, "end_playouts": 48,
                                     "shortlist": 8},
                          "hard": {"playouts": 160, "depth": 30, "until_mine": 1, "end_playouts": 160,
                                   "shortlist": 12}}),
        env=EnvSpec(actions="kassen.envs.actions:hv_actions", encoder="kassen.envs.tensors:HVEncoder",
                    seat_in_observation=True, options={"concede": False}),
    ),
)
