// The guided first battle (issue 30, item 4): on the First Samurai Skirmish (C&C), a coach panel
// follows the person's own first two turns decision by decision: card → order → move → battle.
// When they bring no battle, it waits (hidden) for the person's first battle and guides that one.
// It reads only the view the page already has (the decision asked, the actions offered) and the
// board's highlights (a unit selected, odds shown), so it says what to do next as it happens.
// Skippable; once finished or skipped it never shows again (localStorage), until the lobby's
// "Guided first battle" starts one anew. Shown in a first battle against the AI. The panel is fixed
// in a corner and lets clicks through but for its button: nothing on the page moves or is covered.
import {api, h} from "./common.js";

const KEY = "kassen.guide";
/** Set once the person has been guided through a battle with targets (the "4 · Battle" step). */
const BATTLED = "kassen.guide.battled";
/** The battle guided: the introductory battle of the default game (the catalog's, from the
 * specs), when the page draws it as a C&C board. */
let intro = null;
function introBattle() {
  intro ||= api("/api/catalog").then((cat) => {
    const g = cat.games.find((x) => x.default);
    return g ? {ruleset: g.id, scenario: g.default_scenario, view: g.view} : null;
  }).catch(() => null);
  return intro;
}

function state() { try { return localStorage.getItem(KEY); } catch (e) { return "done"; } }
function setState(v) { try { if (v) localStorage.setItem(KEY, v); else localStorage.removeItem(KEY); } catch (e) { /* no storage */ } }
function battled() { try { return localStorage.getItem(BATTLED) === "1"; } catch (e) { return true; } }
function setBattled(v) { try { if (v) localStorage.setItem(BATTLED, "1"); else localStorage.removeItem(BATTLED); } catch (e) { /* no storage */ } }

/** The turns the guide covers for the seat: its own first two (the first side plays odd turns). */
function lastTurn(obs) {
  const firstSide = obs.turn % 2 === 1 ? obs.active : (obs.active === "red" ? "blue" : "red");
  return obs.you === firstSide ? 3 : 4;
}

/** The person's battle: its battle phase with a target, or a combat's questions after it. */
function fighting(v, obs) {
  const d = (obs.pending || {}).decision;
  return v.your_turn && (d === "battle" ? v.actions.some((a) => /^(attack|fire) /.test(a.action))
    : battled() && ["combat", "lretreat", "retreat", "dragon"].includes(d));
}

/** After the first two turns: done once the person has battled, else waiting for that battle. */
function over(v, obs) { return !!v.result || (obs.turn > lastTurn(obs) && battled() && !fighting(v, obs)); }
function waiting(v, obs) { return obs.turn > lastTurn(obs) && !battled() && !fighting(v, obs); }

/** The steps said the same whatever the board shows: [step title, sentence] by decision. */
const DICE_SPOKEN = ["The dice have spoken", "Answer the combat's question: every button says what it does " +
  "(battle back, gain ground, retreat). The odds are shown where they apply."];
const STEPS = {
  play: ["1 · Play a Command card", "Click a card of your hand, under the board. Its text says which " +
    "units it lets you order: a section (left, center, right) or a kind of unit. Sections are cut by the dotted lines."],
  order: ["2 · Order units", "Click a glowing unit or Leader to order it (it gets a white frame); the card " +
    "says how many. Then press Done. Only ordered units move and battle this turn."],
  combat: DICE_SPOKEN,
  lretreat: DICE_SPOKEN,
  retreat: DICE_SPOKEN,
  dragon: ["A Dragon card window", "You may play a Dragon card now if you hold one that fits; for your first " +
    "battle, Pass keeps them for later."],
};

/** What to do now: [step title, sentence], from the decision and the board's highlights. */
function step(v) {
  const obs = v.observation || {};
  if (!v.your_turn) {
    return ["The other side's turn", "The AI plays now. Its turn is shown on the board step by step: " +
      "the card, the units ordered, each move and the dice beside each target. Your next decision opens after it."];
  }
  const decision = (obs.pending || {}).decision;
  const acts = v.actions.map((a) => a.action);
  const board = document.getElementById("board");
  const selected = board && board.querySelector(".hl-selected");
  if (Object.hasOwn(STEPS, decision)) return STEPS[decision];
  if (decision === "move") {
    return selected
      ? ["3 · Move: now a green hex", "Click a green hex to move the unit there (forests stop a move; hills slow " +
        "nothing but help in battle). Click the unit again to let it go."]
      : ["3 · Move", "Click an ordered unit: the hexes it may reach turn green. Move as many ordered units as " +
        "you like, one at a time, then press End moving."];
  }
  if (decision === "battle") {
    if (acts.some((a) => /^(attack|fire) /.test(a))) setBattled(true);  // a battle to fight: the guide's aim met
    if (document.body.dataset.pending && /^(attack|fire) /.test(document.body.dataset.pending)) {
      return ["4 · Battle: now attack", "The odds are shown: the dice you roll, the chance of a hit and of " +
        "eliminating the unit. Press Attack! (or Enter) to roll, or choose another target."];
    }
    return selected
      ? ["4 · Battle: now a target", "Click a red-edged enemy to see the odds of attacking it."]
      : ["4 · Battle", "Click an ordered unit next to an enemy (or with a bow or arquebus in range): its targets " +
        "get a red edge. Each symbol rolled that matches the target's symbol is a hit; swords hit in close combat; " +
        "flags make it retreat. Press End battles when done."];
  }
  if (decision === "end") {
    return ["End of your turn", acts.some((a) => a.startsWith("draw-dragon"))
      ? "Draw a Dragon card or take 2 Honor & Fortune (the currency of Dragon cards). A new Command card is drawn for you."
      : "Answer the end-of-turn question: a new Command card is then drawn for you."];
  }
  return ["Your decision", v.prompt || "Choose one of the actions on the right."];
}

let panel = null;
let screenRef = null;

function close(how) {
  setState(how);
  if (panel) panel.hidden = true;
}

function draw() {
  const screen = screenRef;
  if (!screen || !screen.v || !panel) return;
  const v = screen.v;
  const obs = v.observation || {};
  const st = state();
  if (st === "done" || st === "skipped") { panel.hidden = true; return; }
  if (waiting(v, obs)) { panel.hidden = true; return; }  // no battle yet: the guide comes back for the first
  if (over(v, obs)) {
    if (!panel.hidden) {
      setState("done");
      panel.replaceChildren(h("h3", {}, "Guided first battle: done"),
        h("p", {id: "guide-text"}, "That is a whole turn: card → order → move → battle. Play the battle on! " +
          "The guide will not show again; the lobby's \"Guided first battle\" starts it anew."),
        h("p", {}, h("button", {id: "guide-close", type: "button", onclick: () => { panel.hidden = true; }}, "Close")));
    }
    return;
  }
  const [title, text] = step(v);
  panel.hidden = false;
  panel.dataset.step = title;
  panel.replaceChildren(
    h("h3", {id: "guide-title"}, title),
    h("p", {id: "guide-text"}, text),
    h("p", {class: "guide-foot"}, h("span", {class: "muted"}, `Guided first battle · ${!v.your_turn ? "the other side's turn"
        : obs.turn <= lastTurn(obs) - 2 ? "your first turn" : obs.turn <= lastTurn(obs) ? "your second turn"
          : "your first battle"}`),
      " ", h("button", {id: "guide-skip", type: "button", onclick: () => close("skipped")}, "Skip the guide")));
}

/** Called after every render of the game screen: shows, updates or hides the coach panel. */
export async function guide(screen) {
  const v = screen.v;
  if (!v || v.watching || v.view !== "cc") return;
  const b = await introBattle();
  if (!b || v.ruleset !== b.ruleset || v.scenario !== b.scenario || screen.v !== v) return;
  // a first battle against the AI (the lobby's quick start and "Guided first battle")
  if (!v.seats.every((x, i) => i === v.seat || x.kind !== "human")) return;
  const st = state();
  if ((st === "done" || st === "skipped") && !panel) return;
  if (!panel) {
    const obs = v.observation || {};
    if (obs.turn > lastTurn(obs) || v.result) return;  // a game met after its first turns: no guide
    if (obs.turn <= 2) setBattled(false);  // a first battle from its start: its own battle to come
    panel = h("aside", {id: "guide", class: "guide", role: "status", "aria-live": "polite"});
    document.body.append(panel);
    // a selection on the board changes the step (a unit chosen: "now a green hex")
    document.addEventListener("click", () => setTimeout(draw, 0), true);
  }
  screenRef = screen;
  draw();
}

/** The lobby's button: the guide anew on a new introductory battle (the catalog's ``intro``: the
 * default game's default scenario, the First Samurai Skirmish) against the AI. */
export function guideLobbyButton(intro, start) {
  return h("button", {id: "guided-battle", type: "button", class: "big",
    title: "The introductory battle with a guide through your first two turns and your first battle",
    onclick: () => { setState(null); setBattled(false); start(intro.id, intro.default_scenario,
      ["human", ...intro.seats.slice(1).map(() => intro.default_opponent || "normal")]); }}, "Guided first battle");
}
