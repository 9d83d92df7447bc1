// The clan card game (clans) as a card table: the Battlefields between the clans, each army's
// stack in the order it was deployed (face-up cards with their Strength, your own face-down
// cards visible to you alone, the others' as backs), your hand as cards with their Strength
// and ability, the cards removed and the scores.
//
// Playing by clicking: click a card in your hand, then a glowing side of a Battlefield
// ("face up" or "face down"); the Assassin, the Scout and the Shugenja point at a glowing
// face-down card; the General moves one of your face-down cards (click it, then where to);
// "Resolve" sits on each Battlefield whose combat you may resolve. The draft's Battlefields,
// the Sanctuary and the Supply Camp choices stay as buttons in the panel.
// Strengths the rulebook lost are shown with "*" and the card table's "default value" note.
import {fill, h} from "../common.js";
import {Player, textFrames} from "./playback.js";

const CLAN_COLOURS = {kamiwashi: "#f7f4ec", hondo: "#f3c9c3", yasei: "#cfe8c6", jozu: "#c8d8f2"};
const CLAIMED = new Set(["deploy", "deploy-down", "assassin", "peek", "reveal", "move", "resolve"]);

const STYLE = `
.clans-table { width: 100%; border-collapse: separate; border-spacing: 0 .45em; }
.clans-table td { vertical-align: middle; padding: .3em .5em; }
.clans-tile { background: #efe3c4; border: 2px solid #a88b4a; border-radius: 8px; width: 34%; }
.clans-tile .tname { font-weight: 700; }
.clans-tile .ttext { font-size: .82em; color: #5a4d35; }
.clans-tile .outcome { font-weight: 700; color: #7a2e1c; }
.clans-stack { display: flex; flex-wrap: wrap; gap: .25em; align-items: center; }
.clans-stack.left { justify-content: flex-end; }
.clans-card { border: 1px solid #777; border-radius: 5px; padding: .15em .4em; font-size: .85em; background: #fff; min-width: 3.2em; min-height: 2.2em; text-align: center; display: inline-flex; align-items: center; justify-content: center; gap: .2em; }
.clans-card.down { background: repeating-linear-gradient(45deg, #5b4a3a, #5b4a3a 4px, #6d5a48 4px, #6d5a48 8px); color: #fff; }
.clans-card.mine-secret { outline: 2px dashed #7a2e1c; background: #fff7e0; color: #222; }
.clans-card .str { font-weight: 700; }
.clans-card.target { cursor: pointer; box-shadow: 0 0 0 3px #f1c27d; }
.clans-card.selected, .clans-hand-card.selected { box-shadow: 0 0 0 3px #d08a1e; }
.clans-side-head { font-size: .8em; color: #6b6358; }
.clans-side.drop { box-shadow: inset 0 0 0 3px #f1c27d; }
.clans-drop { display: flex; flex-wrap: wrap; gap: .3em; margin-top: .3em; }
.clans-drop button, .clans-tile button { min-height: 2.4em; }
.clans-hand { display: flex; flex-wrap: wrap; gap: .4em; }
.clans-hand-card { border: 1px solid #777; border-radius: 8px; background: #fffdf6; padding: .35em .5em; width: 9.5em; min-height: 5.2em; text-align: left; font-size: .85em; }
.clans-hand-card.playable { cursor: pointer; box-shadow: 0 0 0 2px #f1c27d; }
.clans-hand-card .cname { font-weight: 700; display: flex; justify-content: space-between; }
.clans-hand-card .ctext { color: #5a4d35; font-size: .9em; }
.clans-score td, .clans-score th { padding: .15em .6em; text-align: left; }
.clans-table tr.pb-focus td { box-shadow: 0 0 0 3px #d0201a; }
.clans-tile .pb-badge { font-size: .8em; font-weight: 700; color: #7a2e1c; margin-left: .4em; }
`;

function strength(card) {
  if (card.strength === undefined || card.strength === null) return "";
  return `${card.strength}${card.default ? "*" : ""}`;
}

/** What the legal actions offer on the table, indexed for drawing. */
function index(actions) {
  const hand = new Map();      // slug -> [action]  (deploy, deploy-down, assassin)
  const card = new Map();      // "tile|clan|pos" -> [action]  (assassin, peek, reveal)
  const move = new Map();      // "tile|pos" -> [action]  (the General)
  const tile = new Map();      // tile -> [action]  (resolve)
  const push = (m, k, a) => { if (!m.has(k)) m.set(k, []); m.get(k).push(a); };
  for (const a of actions) {
    const w = a.split(" ");
    if (w[0] === "deploy" || w[0] === "deploy-down") push(hand, w[1], a);
    else if (w[0] === "assassin") { push(hand, "assassin", a); push(card, `${w[1]}|${w[2]}|${w[3]}`, a); }
    else if (w[0] === "peek" || w[0] === "reveal") push(card, `${w[1]}|${w[2]}|${w[3]}`, a);
    else if (w[0] === "move") push(move, `${w[1]}|${w[2]}`, a);
    else if (w[0] === "resolve") push(tile, w[1], a);
  }
  return {hand, card, move, tile};
}

export function create(ctx) {
  if (!document.getElementById("clans-style")) document.head.append(h("style", {id: "clans-style"}, STYLE));
  const box = h("div", {id: "clans-table"});
  const player = new Player({show: () => { if (last) view.render(last); }, done: () => { if (last) view.render(last); ctx.rerender(); }});
  ctx.main.append(h("div", {class: "panel"}, player.bar, box));
  let tileNames = [];
  /** The Battlefield of the step shown now is outlined; each Battlefield played on since your
   * last decision keeps a mark. */
  function decorate() {
    const f = player.current() || player.last();
    if (!f) return;
    for (const name of new Set([...f.marks.moved, ...f.marks.fought])) {
      const t = box.querySelector(`.clans-tile[data-name="${CSS.escape(name)}"] .tname`);
      if (t) t.append(h("span", {class: "pb-badge"}, "● played here"));
    }
    if (!player.playing() && !player.more()) return;
    for (const name of f.who) {
      const t = box.querySelector(`.clans-tile[data-name="${CSS.escape(name)}"]`);
      if (t) t.closest("tr").classList.add("pb-focus");
    }
  }
  let sel = null;          // {hand: slug} or {move: "tile|pos"}
  let shownVersion = null;
  let last = null;
  const view = {
    render(data) {
      last = data;
      const obs = data.obs || {};
      const viewer = obs.viewer;
      tileNames = (obs.board || []).map((bf) => bf.name).filter(Boolean);
      if (data.events && data.events.length) {
        const prev = player.last();
        const evs = data.events;
        data.events = [];  // pushed once: the player's frames redraw through render again
        player.push(textFrames(evs, (text) => tileNames.filter((n) => text.includes(n)), prev ? prev.marks : null));
      }
      const acts = data.actions || [];
      const ix = index(acts);
      const version = data.view ? data.view.version : null;
      if (version !== shownVersion) { sel = null; shownVersion = version; }
      if (sel && sel.hand && !ix.hand.has(sel.hand)) sel = null;
      if (sel && sel.move && !ix.move.has(sel.move)) sel = null;
      const redraw = () => view.render(last);
      const pick = (next) => { sel = sel && JSON.stringify(sel) === JSON.stringify(next) ? null : next; redraw(); };
      const texts = ((obs.card_table || {}).cards) || {};
      // while a hand card is chosen: tile -> its deploy actions for that card
      const drops = new Map();
      if (sel && sel.hand) {
        for (const a of ix.hand.get(sel.hand) || []) {
          const w = a.split(" ");
          if (w[0] === "deploy" || w[0] === "deploy-down") {
            if (!drops.has(w[2])) drops.set(w[2], []);
            drops.get(w[2]).push(a);
          }
        }
      }
      const moveTo = new Map();  // destination tile -> action, while a card to move is chosen
      if (sel && sel.move) for (const a of ix.move.get(sel.move) || []) moveTo.set(a.split(" ")[3], a);

      const chip = (c, bf, side) => {
        const key = `${bf.tile}|${String(side.clan).toLowerCase()}|${c.pos}`;
        let targets = ix.card.get(key) || [];
        if (targets.some((a) => a.startsWith("assassin")) && !(sel && sel.hand === "assassin")) {
          targets = targets.filter((a) => !a.startsWith("assassin"));  // the Assassin is chosen first
        }
        const mkey = `${bf.tile}|${c.pos}`;
        const movable = ix.move.has(mkey);
        const known = c.name !== undefined;
        const cls = ["clans-card"];
        let label = "?";
        let title = "a face-down card";
        if (c.up) { label = c.name; title = `${c.name} (face up), Strength ${c.strength}`; }
        else if (known) {
          cls.push("down", "mine-secret");
          label = c.name;
          title = side.seat === viewer ? `your face-down ${c.name}: only you see it` : `face-down ${c.name}: you have seen it`;
        } else cls.push("down");
        if (targets.length || movable) cls.push("target");
        if (sel && sel.move === mkey) cls.push("selected");
        const what = targets.length ? ` — click: ${targets.map((a) => a.split(" ")[0]).join(" or ")}` : movable ? " — click to move it" : "";
        const onclick = targets.length === 1 ? () => ctx.act(targets[0])
          : movable ? () => pick({move: mkey}) : null;
        return h("span", {class: cls.join(" "), title: title + what, "data-card": `${bf.tile}:${c.pos}:${side.clan}`,
          "data-action": targets.length === 1 ? targets[0] : null, onclick},
          label, (c.up || known) ? h("span", {class: "str"}, strength(c)) : null);
      };

      const sideCell = (bf, side, left) => {
        const colour = CLAN_COLOURS[String(side.clan).toLowerCase()] || "#fff";
        const head = h("div", {class: "clans-side-head"},
          `${side.clan}${side.seat === viewer ? " (you)" : ""}: ${side.count} card${side.count === 1 ? "" : "s"}, `,
          `face-up Strength ${side.strength_shown}${side.bonus ? `, +${side.bonus} bonus` : ""}`);
        const mine = side.seat === viewer;
        const here = mine ? (drops.get(bf.tile) || []) : [];
        const dest = mine ? moveTo.get(bf.tile) : undefined;
        const buttons = here.map((a) => {
          const down = a.startsWith("deploy-down");
          const secret = (texts[sel.hand] || {}).kind === "secret";
          const label = down ? "face down (a Regular card face down leaves the game)"
            : secret ? "place it here (face down)" : "place it here face up";
          return h("button", {"data-action": a, onclick: () => ctx.act(a)}, label);
        });
        if (dest) buttons.push(h("button", {"data-action": dest, onclick: () => ctx.act(dest)}, "move it here"));
        return h("td", {class: `clans-side${buttons.length ? " drop" : ""}`, "data-side": `${bf.tile}:${side.clan}`,
          style: `background:${colour}; border-radius:8px; width:33%`},
          head, h("div", {class: `clans-stack${left ? " left" : ""}`}, ...(side.cards || []).map((c) => chip(c, bf, side))),
          buttons.length ? h("div", {class: "clans-drop"}, ...buttons) : null);
      };

      const phase = obs.phase ? `${obs.phase}` : "";
      const head = h("p", {},
        h("strong", {}, `${obs.scenario || ""}`), ` · ${phase}`,
        obs.round ? ` · round ${Math.min(obs.round, 7)} of 7` : "",
        obs.cards_left_this_turn ? ` · ${obs.cards_left_this_turn} card${obs.cards_left_this_turn === 1 ? "" : "s"} to deploy this turn` : "",
        obs.teams ? ` · teams: ${obs.teams.map((t) => t.map((i) => (obs.seats || [])[i]).join(" & ")).join(" against ")}` : "");
      // your side in the left column on every Battlefield (then your partner's in teams; for a
      // spectator, the lower seat first): the observation lists each Battlefield's sides in its own order
      const team = (obs.teams || []).find((tm) => tm.includes(viewer)) || [];
      const rank = (sd) => (sd.seat === viewer ? -2 : team.includes(sd.seat) ? -1 : Number(sd.seat) || 0);
      const rows = (obs.board || []).map((bf) => {
        const sides = (bf.sides || []).slice().sort((a, b) => rank(a) - rank(b));
        const resolve = ix.tile.get(bf.tile) || [];
        const tile = h("td", {class: "clans-tile", "data-tile": bf.tile, "data-name": bf.name},
          h("div", {class: "tname"}, `${bf.name} · ${bf.vp} VP`),
          h("div", {class: "ttext"}, `${bf.timing}: ${bf.text}`),
          bf.outcome ? h("div", {class: "outcome"}, outcomeText(bf.outcome, obs.seats || [])) : null,
          ...resolve.map((a) => h("button", {"data-action": a, onclick: () => ctx.act(a)}, "Resolve the combat here")));
        return h("tr", {}, sides[0] ? sideCell(bf, sides[0], true) : h("td"), tile,
          sides[1] ? sideCell(bf, sides[1], false) : h("td"));
      });
      const hand = (obs.hand || []).map((c) => {
        const playable = ix.hand.has(c.slug);
        const info = texts[c.slug] || {};
        const chosen = sel && sel.hand === c.slug;
        return h("div", {class: `clans-hand-card${playable ? " playable" : ""}${chosen ? " selected" : ""}`,
          "data-hand": c.slug, role: playable ? "button" : null, tabindex: playable ? "0" : null,
          title: playable ? "click, then a glowing Battlefield side" : "",
          onclick: playable ? () => pick({hand: c.slug}) : null},
          h("div", {class: "cname"}, h("span", {}, c.name), h("span", {class: "str", title: "Strength"}, strength(c))),
          h("div", {class: "muted"}, c.kind === "regular" ? "Regular: face up, its ability acts" : "Secret: face down"),
          info.text ? h("div", {class: "ctext"}, info.text) : null);
      });
      const sizes = Object.entries(obs.hand_sizes || {}).map(([k, v]) => `${k} ${v}`).join(" · ");
      const removed = (obs.removed || []).map((r) => `${r.name || "a card"} of ${r.clan} (${r.how})`);
      const table = obs.card_table || {};
      const scores = obs.vp ? h("table", {class: "clans-score", id: "scores"},
        h("tbody", {}, ...Object.entries(obs.vp).map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", {}, `${v} VP`))))) : null;
      fill(box,
        h("h2", {}, "The Battlefields"), head,
        h("table", {class: "clans-table", id: "battlefields"}, h("tbody", {}, ...rows)),
        scores,
        h("h3", {}, "Your hand"), h("div", {class: "clans-hand", id: "hand"}, ...(hand.length ? hand : ["(empty)"])),
        h("p", {class: "muted"}, `Cards in hand: ${sizes}`),
        removed.length ? h("p", {class: "muted"}, `Removed: ${removed.join("; ")}`) : null,
        h("p", {class: "muted"}, `* ${table.label || "default value"}: Strengths not in the rulebook (its card `,
          `pictures are lost), from ${table.name || "the default card table"}.`));
      decorate();
    },
    playing() { return player.playing(); },
    decided() { if (player.frames.length) { player.clear(); if (last) view.render(last); } },
    // the table offers deployment, the abilities, the General's move and Resolve; the panel the rest
    claims(actions) { return new Set(actions.filter((a) => CLAIMED.has(a.split(" ")[0]))); },
    hint(actions) {
      const verbs = new Set(actions.map((a) => a.split(" ")[0]));
      if (verbs.has("deploy") || verbs.has("deploy-down")) return "Click a card in your hand, then a glowing side of a Battlefield.";
      if (verbs.has("peek") || verbs.has("reveal")) return "Click a glowing face-down card.";
      if (verbs.has("move")) return "Click one of your glowing face-down cards, then the Battlefield to move it to.";
      if (verbs.has("resolve")) return "Choose the Battlefield to resolve: its Resolve button.";
      if (verbs.has("assassin")) return "Click the Assassin in your hand, then the face-down card it eliminates.";
      return "Choose from the buttons.";
    },
    cancel() { sel = null; if (last) view.render(last); },
  };
  return view;
}

function outcomeText(o, seats) {
  if (!o.done) return "";
  const totals = (o.totals || []).join(" against ");
  const who = o.winner === null || o.winner === undefined ? "nobody conquers" : `${seats[o.winner]} conquers`;
  return `${who} (${totals}: ${o.why || ""})`;
}
