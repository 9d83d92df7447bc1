// Kensei (kensei): the table companion. The turn tracker (turn, phase, initiative, the active
// troops and their orders), each army's roster with miniatures left, wounds, Stunned markers,
// leader and markers, the question Kassen asks of the table, and the roll resolver: choose two
// troops of this battle and their situation, and see the exact distributions as bars, with
// every modifier and its sheet line, and the markers left on each target after the roll
// (POST /api/games/{id}/calculator).
import {api, fill, h} from "../common.js";

const MARKERS = [["used", "used"], ["fleeing", "fleeing"], ["sheltered", "sheltered"], ["retreat", "in retreat"],
  ["dishonoured", "dishonoured"], ["unloaded", "unloaded"], ["strengthen", "strengthened"], ["ran", "ran"],
  ["poisoned", "poisoned"], ["bought", "bought"]];
const SIDE_COLOUR = ["#b3342b", "#2a5db0"];
// situation checkboxes of the resolver: [field, label, who it describes]
const FLAGS = [["charge", "charges"], ["strengthen", "Strengthen order"], ["used", "Used marker"],
  ["reaction_attack", "Attack reaction"], ["complete_ranks", "two complete ranks"], ["banner_front", "banner in front"],
  ["out_of_cohesion", "out of cohesion"], ["fleeing", "fleeing"], ["sheltered", "sheltered"], ["cover", "in cover"],
  ["ran", "ran this turn"]];

const STYLE = `
.ks-armies { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: .6em; }
.ks-army table { width: 100%; border-collapse: collapse; font-size: .9em; }
.ks-army td, .ks-army th { padding: .2em .35em; border-bottom: 1px solid #e3d9c4; text-align: left; }
.ks-army tr.active td { background: #fff1c9; font-weight: 600; }
.ks-army tr.gone td { color: #999; text-decoration: line-through; }
.ks-marker { display: inline-block; border: 1px solid #a88b4a; border-radius: 4px; padding: 0 .3em; margin: 0 .15em .1em 0; font-size: .8em; background: #fffaf0; }
.ks-question { border-left: 4px solid #d08a1e; background: #fff7e3; padding: .4em .6em; margin: .4em 0; }
.ks-resolver label { margin-right: .8em; white-space: nowrap; }
.ks-resolver fieldset { border: 1px solid #d6cbb5; border-radius: 6px; margin: .3em 0; }
.ks-dist { display: grid; grid-template-columns: 7em 1fr; gap: .15em .6em; align-items: center; font-size: .88em; }
.ks-bars { display: flex; flex-direction: column; gap: 2px; }
.ks-bar { display: flex; align-items: center; gap: .4em; }
.ks-bar span.fill { display: inline-block; height: .8em; background: #b3342b; border-radius: 2px; }
.ks-mods td { padding: 0 .5em; font-size: .85em; }
`;

function pct(x) { return `${(100 * x).toFixed(x > 0 && x < 0.001 ? 2 : 1)}%`; }

function distBars(name, d, mean) {
  const rows = Object.entries(d || {}).filter(([, v]) => v.float >= 0.0005);
  return [h("div", {}, h("strong", {}, name), mean !== undefined ? h("div", {class: "muted"}, `mean ${Number(mean).toFixed(2)}`) : null),
    h("div", {class: "ks-bars", "data-dist": name}, ...rows.map(([k, v]) =>
      h("div", {class: "ks-bar", title: `${k}: ${v.p || ""} (${pct(v.float)})`},
        h("span", {style: "min-width:1.5em; text-align:right"}, k),
        h("span", {class: "fill", style: `width:${Math.max(1, Math.round(220 * v.float))}px`}),
        h("span", {class: "muted"}, pct(v.float)))))];
}

function rollBlock(title, r) {
  const p = r.plan || {};
  const mods = [];
  for (const [group, label] of [["dice_modifiers", "dice"], ["hit_modifiers", "to hit"], ["damage_modifiers", "damage"]]) {
    for (const m of p[group] || []) {
      mods.push(h("tr", {}, h("td", {}, `${m.name} (${label})${m.inference ? " (inference)" : ""}`),
        h("td", {}, `${m.value >= 0 ? "+" : ""}${m.value}`), h("td", {class: "muted"}, m.source)));
    }
  }
  const ex = r.expected || {};
  return h("div", {class: "ks-roll"},
    h("h4", {}, `${title}: ${p.dice} dice, hit on ${p.difficulty}+ ${p.hit_modifier >= 0 ? "+" : ""}${p.hit_modifier}, damage ${p.damage_modifier >= 0 ? "+" : ""}${p.damage_modifier}`),
    mods.length ? h("table", {class: "ks-mods"}, h("tbody", {}, ...mods)) : null,
    h("div", {class: "ks-dist"}, ...distBars("impacts", r.impacts, ex.impacts), ...distBars("wounds", r.wounds, ex.wounds),
      ...distBars("stunned", r.stuns, ex.stuns), ...distBars("casualties", r.casualties, ex.casualties),
      ...distBars("criticals", r.criticals)),
    leftTable(r),
    h("p", {class: "muted"}, `troop wiped out ${pct(Number(r.wiped_out_float ?? 0) || fraction(r.wiped_out))}`,
      r.leader_killed && fraction(r.leader_killed) ? ` · leader killed ${pct(fraction(r.leader_killed))}` : ""));
}

// the joint law of the markers left on the target once Stunned markers are turned into wounds
// (003:142; undead: three a wound, 003:252): what the player puts on the table
function leftTable(r) {
  const rows = r.left || [];
  if (!rows.length) return null;
  const stunned = [...new Set(rows.map((x) => x.stunned))].sort((a, b) => a - b);
  const wounds = [...new Set(rows.map((x) => x.wounds))].sort((a, b) => a - b);
  const cell = new Map(rows.map((x) => [`${x.wounds}:${x.stunned}`, x]));
  return h("table", {class: "ks-mods ks-left", "data-left": r.plan?.target || ""},
    h("caption", {}, `Markers left on ${r.plan?.target || "the target"} (Stunned markers turned into wounds)`),
    h("thead", {}, h("tr", {}, h("th", {}, "wound markers"), ...stunned.map((s) => h("th", {}, `${s} Stunned`)))),
    h("tbody", {}, ...wounds.map((w) => h("tr", {}, h("td", {}, String(w)), ...stunned.map((s) => {
      const x = cell.get(`${w}:${s}`);
      return h("td", {title: x ? x.p : ""}, x ? pct(x.float) : "–");
    })))));
}

function fraction(text) {
  if (typeof text === "number") return text;
  const [a, b] = String(text || "0").split("/");
  return Number(a) / (b ? Number(b) : 1);
}

export function create(ctx) {
  if (!document.getElementById("ks-style")) document.head.append(h("style", {id: "ks-style"}, STYLE));
  const box = h("div", {class: "panel", id: "kensei-table"});
  const resolver = h("div", {class: "panel ks-resolver", id: "resolver"});
  const result = h("div", {id: "resolver-result"});
  ctx.main.append(box, resolver);
  let built = false;
  let last = null;

  function buildResolver(obs) {
    const troopSelect = (id, seatDefault) => {
      const sel = h("select", {id});
      (obs.units || []).forEach((units, seat) => units.forEach((u) => {
        if (u.left) sel.append(h("option", {value: `${seat}:${u.id}`}, `${obs.seats[seat]}: ${u.name}`));
      }));
      const first = [...sel.options].find((o) => o.value.startsWith(`${seatDefault}:`));
      if (first) sel.value = first.value;
      return sel;
    };
    const side = (key, seatDefault) => {
      const flags = FLAGS.map(([f, label]) => h("label", {}, h("input", {type: "checkbox", "data-field": f}), ` ${label}`));
      return h("fieldset", {id: `rs-${key}`}, h("legend", {}, key),
        troopSelect(`rs-${key}-troop`, seatDefault), " ",
        h("label", {}, "in contact ", h("input", {type: "number", min: 0, max: 59, value: 0, "data-field": "in_contact", style: "width:4em"})),
        h("label", {}, "wound markers ", h("input", {type: "number", min: 0, max: 5, value: 0, "data-field": "wounds", style: "width:3.5em"})),
        h("label", {}, "Stunned ", h("input", {type: "number", min: 0, max: 2, value: 0, "data-field": "stunned", style: "width:3.5em"})),
        h("label", {}, "leader ", h("select", {"data-field": "leader"}, ...["none", "direct", "support"].map((x) => h("option", {value: x}, x)))),
        h("label", {}, "attacks at ", h("select", {"data-field": "position"}, ...["front", "flank", "rear"].map((x) => h("option", {value: x}, x)))),
        h("label", {}, "range ", h("select", {"data-field": "range_band"}, ...["short", "mid", "long"].map((x) => h("option", {value: x}, x)))),
        h("div", {}, ...flags));
    };
    const kind = h("select", {id: "rs-kind"}, h("option", {value: "hand-to-hand"}, "hand to hand"), h("option", {value: "shooting"}, "shooting"));
    const read = (key) => {
      const fs = document.getElementById(`rs-${key}`);
      const [seat, troop] = fs.querySelector(`#rs-${key}-troop`).value.split(":");
      const out = {seat: Number(seat), troop};
      for (const el of fs.querySelectorAll("[data-field]")) {
        const f = el.dataset.field;
        if (el.type === "checkbox") { if (el.checked) out[f] = true; }
        else if (el.type === "number") { if (Number(el.value)) out[f] = Number(el.value); }
        else if (el.value && !(f === "leader" && el.value === "none") && !(f === "position" && el.value === "front")
                 && !(f === "range_band" && el.value === "short")) out[f] = el.value;
      }
      return out;
    };
    const go = async () => {
      fill(result, h("p", {class: "muted"}, "Counting every die…"));
      try {
        const r = await api(`/api/games/${ctx.gameId}/calculator`, {method: "POST", token: ctx.token,
          body: {kind: kind.value, attacker: read("attacker"), defender: read("defender")}});
        const parts = [];
        if (r.kind === "hand-to-hand") {
          parts.push(h("p", {id: "resolver-winner"}, h("strong", {}, "Who wins (more wounds caused, ruling K12): "),
            `${r.a.plan.attacker} ${pct(r.a_wins.float)} · draw ${pct(r.draw.float)} · ${r.b.plan.attacker} ${pct(r.b_wins.float)}`));
          parts.push(rollBlock(`${r.a.plan.attacker} fights ${r.a.plan.target}`, r.a), rollBlock(`${r.b.plan.attacker} fights ${r.b.plan.target}`, r.b));
        } else {
          parts.push(rollBlock(`${r.a.plan.attacker} shoots ${r.a.plan.target}`, r.a));
        }
        parts.push(h("p", {class: "muted"}, "Exact counts over every die. (inference) marks Kassen's reading where the sheet is silent (rulings K1…)."));
        fill(result, ...parts);
      } catch (e) {
        fill(result, h("p", {class: "error"}, e.message));
      }
    };
    fill(resolver, h("h2", {}, "Roll resolver"),
      h("p", {class: "muted"}, "Two troops of this battle and what they do: the exact odds, every modifier with its sheet line."),
      h("label", {}, "roll ", kind), side("attacker", 0), side("defender", 1),
      h("button", {class: "primary", id: "resolve", onclick: go}, "Count the odds"), result);
  }

  return {
    render(data) {
      last = data;
      const obs = data.obs || {};
      if (!built && obs.units) { buildResolver(obs); built = true; }
      const act = obs.act || {};
      const seats = obs.seats || [];
      const armies = (obs.units || []).map((units, s) => {
        const active = (act.active || [])[s];
        const orders = (act.orders || [])[s];
        const rows = units.map((u) => h("tr", {class: `${u.id === active ? "active" : ""}${u.left ? "" : " gone"}`, "data-troop": u.id},
          h("td", {}, u.name, u.machine ? h("span", {class: "ks-marker", "data-machine": u.machine}, `war machine: ${u.machine}, ${u.bags ?? 0} bags`) : "",
            u.id === active ? ` (active: ${orders ?? 0} order${orders === 1 ? "" : "s"}${(act.ki || [])[s] ? ", ki" : ""})` : ""),
          h("td", {}, String(u.left)), h("td", {}, u.wounds ? String(u.wounds) : ""),
          h("td", {}, u.stunned ? String(u.stunned) : ""),
          h("td", {}, u.leader ? (u.leader_wounds ? `yes, ${u.leader_wounds} wound${u.leader_wounds === 1 ? "" : "s"}` : "yes") : "–"),
          h("td", {}, ...MARKERS.filter(([k]) => u[k]).map(([, label]) => h("span", {class: "ks-marker"}, label)))));
        return h("div", {class: "ks-army"},
          h("h3", {style: `color:${SIDE_COLOUR[s]}`}, `${seats[s] || ""}${(obs.roles || [])[s] ? ` (${obs.roles[s]})` : ""}`),
          h("table", {}, h("thead", {}, h("tr", {}, ...["troop", "left", "wounds", "stunned", "leader", "markers"].map((x) => h("th", {}, x)))),
            h("tbody", {}, ...rows)));
      });
      const q = obs.question;
      fill(box,
        h("h2", {}, "Kensei: the table companion"),
        h("p", {id: "tracker"}, h("strong", {}, `Turn ${obs.turn}`), ` · ${obs.phase || ""}`,
          obs.scenario ? ` · scenario ${obs.scenario}` : "",
          obs.initiative !== null && obs.initiative !== undefined ? ` · initiative: ${seats[obs.initiative]}` : "",
          obs.command_cards ? ` · command cards ${obs.command_cards.join(" / ")}` : ""),
        q ? h("div", {class: "ks-question", id: "question"}, h("strong", {}, "At the table: "), q.text) : null,
        h("div", {class: "ks-armies"}, ...armies));
    },
    claims() { return new Set(); },
    hint() { return "Answer from what happened at the table; Kassen applies the sheet's rules and rolls."; },
    cancel() {},
  };
}
