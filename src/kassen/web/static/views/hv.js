// An Honourable Victory! (honourable-victory): the table of zones as a grid, North's reserve
// zones on top and South's below; each unit a block with its stands, facing, formation, hit
// markers, red (fired) and yellow (reacted) markers and what it is engaged with; the terrain
// of each zone; the Daimyo; the tally toward general retreat.
import {diceRow, fill, h, humanize} from "../common.js";
import {Player, textFrames} from "./playback.js";

const ARROW = {N: "↑", S: "↓", E: "→", W: "←"};
const FORM = {attack: "attack", defensive: "defensive", open: "open order"};
const CLASS = {"light-foot": "Light Foot", foot: "Foot", mounted: "Mounted"};
const SIDE_COLOUR = ["#b3342b", "#2a5db0"];

const STYLE = `
.hv-grid { display: grid; gap: 4px; }
.hv-zone { overflow-wrap: anywhere; min-width: 0; background: #e3dcb8; border: 1px solid #a89a74; border-radius: 6px; min-height: 5.5em; padding: .25em; font-size: .82em; }
.hv-zone.reserve { background: #d9d3c4; border-style: dashed; }
.hv-zone.blank { background: transparent; border: none; }
.hv-zone .zname { font-weight: 700; color: #5a4d35; display: flex; justify-content: space-between; }
.hv-zone .terrain { font-style: italic; color: #4f6b2a; }
.hv-unit { border-left: 5px solid; background: #fffaf0; border-radius: 4px; margin: .2em 0; padding: .1em .3em; }
.hv-unit .stands { letter-spacing: -1px; }
.hv-unit .hits { color: #2f7d3a; font-weight: 700; }
.hv-unit .marker-red { color: #b3342b; }
.hv-unit .marker-yellow { color: #c79a00; }
.hv-tally td, .hv-tally th { padding: .15em .6em; text-align: left; }
.hv-unit.actionable { cursor: pointer; box-shadow: 0 0 0 2px #f1c27d; }
.hv-unit.selected { box-shadow: 0 0 0 3px #d08a1e; }
.hv-acts { display: flex; flex-wrap: wrap; gap: .25em; margin: .25em 0; }
.hv-acts button { font-size: .95em; min-height: 2.2em; }
.hv-unit.pb-actor { box-shadow: 0 0 0 3px #222; }
.hv-unit.pb-target { box-shadow: 0 0 0 3px #d0201a; }
.hv-unit .pb-badge { font-size: .8em; font-weight: 700; margin-left: .3em; }
.hv-unit .pb-badge.lost { color: #d0201a; }
.hv-unit .dice svg { width: 18px; height: 18px; }
@media (max-width: 600px) { .hv-tally { font-size: .8em; } .hv-tally td, .hv-tally th { padding: .1em .3em; } .hv-zone { font-size: .72em; padding: .15em; } .hv-zone .zname { flex-wrap: wrap; } }
`;

/** The unit an action is about ("S3 engage N2 front", "fire S3 N2", "alloc S3 N2=2" -> "S3"). */
function unitOf(action, ids) {
  const w = action.split(" ");
  if (ids.has(w[0])) return w[0];
  return (w[0] === "fire" || w[0] === "alloc") && ids.has(w[1]) ? w[1] : null;
}

/** An action's label by its unit: the game's own reading without the unit's name
 * ("Ashigaru: turn to face E" -> "Turn to face E"), never the raw action. */
function byUnitLabel(action, u, texts) {
  const t = texts.get(action);
  if (t && t !== action) {
    const own = `${u.name}: `;
    return humanize(t.startsWith(own) ? t.slice(own.length) : t);
  }
  return humanize(action.split(" ").filter((w) => w !== u.id).join(" ") || action);
}

function unitBlock(u, obs, mine, selected, choose, act, texts) {
  const colour = SIDE_COLOUR[u.side] || "#444";
  const bits = [
    h("strong", {}, `${u.id} `), `${u.name} `,
    h("span", {class: "muted"}, `${CLASS[u.class] || u.class}/${u.weapon}${u.mounted === false && u.class === "mounted" ? " (dismounted)" : ""}`),
    h("br"),
    h("span", {class: "stands", title: `${u.stands} of ${u.start} stands`}, "▮".repeat(u.stands)),
    ` ${ARROW[u.facing] || u.facing} ${FORM[u.formation] || u.formation}`,
  ];
  if (u.hits) bits.push(" ", h("span", {class: "hits", title: "hit markers"}, `${u.hits}h`));
  if (u.fired) bits.push(" ", h("span", {class: "marker-red", title: "fired this turn"}, "●"));
  if (u.reacted) bits.push(" ", h("span", {class: "marker-yellow", title: "reacted this phase"}, "●"));
  if (u.quality && u.quality !== "seasoned") bits.push(" ", h("span", {class: "muted"}, u.quality));
  if (u.engaged && u.engaged.length) {
    const e = u.engaged.map((x) => (typeof x === "string" ? x : `${x.facet || ""}:${x.enemy || x.unit || ""}`)).join(", ");
    bits.push(h("br"), h("span", {}, `⚔ ${e}`));
  }
  // click a unit that has something to do: its actions appear by it
  if (selected && mine.length) {
    bits.push(h("div", {class: "hv-acts", id: `acts-${u.id}`}, ...mine.map((a) =>
      h("button", {"data-action": a, onclick: (e) => { e.stopPropagation(); act(a); }},
        byUnitLabel(a, u, texts)))));
  }
  return h("div", {class: `hv-unit${mine.length ? " actionable" : ""}${selected ? " selected" : ""}`,
    style: `border-color:${colour}`, "data-unit": u.id, title: `${obs.seats[u.side]}: ${u.name}`,
    onclick: mine.length ? () => choose(u.id) : null}, ...bits);
}

export function create(ctx) {
  if (!document.getElementById("hv-style")) document.head.append(h("style", {id: "hv-style"}, STYLE));
  const box = h("div", {id: "hv-table"});
  const unitIds = () => ids;
  const player = new Player({show: () => { if (last) view.render(last); }, done: () => { if (last) view.render(last); ctx.rerender(); }});
  ctx.main.append(h("div", {class: "panel"}, player.bar, box));
  /** The frame shown now (or the last one, whose markers stay until the next decision). */
  function decorate() {
    const f = player.current() || player.last();
    if (!f) return;
    const block = (id) => box.querySelector(`.hv-unit[data-unit="${id}"]`);
    const badge = (id, text, cls) => { const b = block(id); if (b) b.querySelector("strong")?.after(h("span", {class: `pb-badge ${cls}`}, text)); };
    for (const id of new Set(f.marks.moved)) badge(id, "moved", "moved");
    for (const id of new Set(f.marks.fought)) badge(id, "⚔", "fought");
    for (const [id, n] of Object.entries(f.marks.lost)) badge(id, `−${n}`, "lost");
    if (!player.playing() && !player.more()) return;
    const [actor, target] = f.who;
    if (actor && block(actor)) block(actor).classList.add("pb-actor");
    if (target && block(target)) block(target).classList.add("pb-target");
    const at = block(target || actor);
    if (f.faces && at) at.append(h("div", {class: "dice-mark", "data-faces": f.faces.join(",")}, diceRow(f.faces)));
  }
  let selected = null;
  let shownVersion = null;
  let last = null;
  let ids = new Set();
  const view = {
    render(data) {
      last = data;
      const obs = data.obs || {};
      ids = new Set(((obs.board || {}).units || []).map((u) => u.id));
      if (data.events && data.events.length) {
        const prev = player.last();
        const names = (text) => (text.match(/\b[A-Z][0-9]{1,2}\b/g) || []).filter((w) => unitIds().has(w));
        const evs = data.events;
        data.events = [];  // pushed once: the player's frames redraw through render again
        player.push(textFrames(evs, names, prev ? prev.marks : null));
      }
      const acts = data.actions || [];
      const texts = new Map(((data.view && data.view.actions) || []).map((a) => [a.action, a.text]));
      const byUnit = new Map();
      for (const a of acts) {
        const id = unitOf(a, ids);
        if (id) { if (!byUnit.has(id)) byUnit.set(id, []); byUnit.get(id).push(a); }
      }
      const version = data.view ? data.view.version : null;
      if (version !== shownVersion) { selected = null; shownVersion = version; }  // a new decision
      if (selected && !byUnit.has(selected)) selected = null;
      const choose = (id) => { selected = selected === id ? null : id; view.render(last); };
      const zones = obs.zones || [];
      const width = obs.width || 5;
      const units = ((obs.board || {}).units || []).filter((u) => u.status === "table" || u.status === "reserve");
      const daimyo = (obs.board || {}).daimyo || [];
      const byZone = new Map();
      for (const u of units) {
        if (!byZone.has(u.zone)) byZone.set(u.zone, []);
        byZone.get(u.zone).push(u);
      }
      const letters = [...new Set(zones.map((z) => z[0]))].sort();
      const rows = [...new Set(zones.map((z) => Number(z.slice(1))))].sort((a, b) => b - a);
      const reserves = obs.reserve_zones || [[], []];
      const cell = (name, reserve) => {
        if (!name) return h("div", {class: "hv-zone blank"});
        const here = byZone.get(name) || [];
        const terr = (obs.terrain || {})[name] || [];
        const dm = daimyo.map((z, side) => (z === name ? `★ ${obs.daimyo_names ? obs.daimyo_names[side] : "Daimyo"}` : null))
          .filter(Boolean);
        return h("div", {class: `hv-zone${reserve ? " reserve" : ""}`, "data-zone": name},
          h("div", {class: "zname"}, h("span", {}, name + (reserve ? " reserve" : "")), h("span", {}, dm.join(" "))),
          terr.length ? h("div", {class: "terrain"}, terr.join(", ")) : null,
          ...here.map((u) => unitBlock(u, obs, byUnit.get(u.id) || [], selected === u.id, choose, ctx.act, texts)));
      };
      const reserveRow = (names, row) => letters.map((l) => {
        const z = `${l}${row}`;
        return cell(names.includes(z) ? z : null, true);
      });
      const topRow = rows.length ? rows[0] + 1 : 4;
      const grid = h("div", {class: "hv-grid", id: "zones", style: `grid-template-columns: repeat(${width}, minmax(0, 1fr))`},
        ...reserveRow(reserves[1] || [], topRow),
        ...rows.flatMap((r) => letters.map((l) => cell(`${l}${r}`, false))),
        ...reserveRow(reserves[0] || [], 0));
      const tally = obs.tally || [];
      const seats = obs.seats || [];
      const tallyRows = seats.map((name, i) => h("tr", {},
        h("td", {style: `color:${SIDE_COLOUR[i]}; font-weight:700`}, `${name} (${(obs.clans || [])[i] || ""})`),
        h("td", {}, String(tally[i] ?? 0)),
        h("td", {}, String((obs.third_value || [])[i] ?? "-")),
        h("td", {}, String((obs.breakpoint || [])[i] ?? "-"))));
      fill(box,
        h("h2", {}, obs.battle_name || "The table"),
        h("p", {class: "muted"}, `Turn ${obs.turn} of ${obs.turn_limit}`,
          obs.initiative !== null && obs.initiative !== undefined ? ` · initiative: ${seats[obs.initiative]} (each side throws 2D6: the lower total wins, a tie is thrown again)` : "",
          ` · at most ${obs.limit} friendly units a zone`),
        grid,
        h("table", {class: "hv-tally"},
          h("thead", {}, h("tr", {}, h("th", {}, "side"), h("th", {}, "routed value"), h("th", {}, "one third"),
            h("th", {}, "breakpoint"))),
          h("tbody", {}, ...tallyRows)),
        h("p", {class: "muted"}, "▮ stand · ↑ facing · h hit markers · ", h("span", {class: "marker-red"}, "●"),
          " fired · ", h("span", {class: "marker-yellow"}, "●"), " reacted · ★ Daimyo · ⚔ engaged"));
      decorate();
    },
    playing() { return player.playing(); },
    decided() { if (player.frames.length) { player.clear(); if (last) view.render(last); } },
    // a unit's actions are offered by the unit on the table; the panel keeps the others
    claims(actions) { return new Set(actions.filter((a) => unitOf(a, ids))); },
    hint(actions) {
      return actions.some((a) => unitOf(a, ids)) ? "Click a glowing unit on the table: its actions appear by it."
        : "Choose from the buttons.";
    },
    cancel() { selected = null; },
  };
  return view;
}
