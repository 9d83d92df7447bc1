// The clan card game (clans): the Battlefields between the clans, each army's stack in the
// order it was deployed (face-up cards with their Strength, your own face-down cards visible
// to you alone, the others' as backs), your hand, the cards removed and the scores.
// Strengths the rulebook lost are shown with "*" and the card table's "default value" note.
import {fill, h} from "../common.js";

const CLAN_COLOURS = {kamiwashi: "#f7f4ec", hondo: "#f3c9c3", yasei: "#cfe8c6", jozu: "#c8d8f2"};

const STYLE = `
.clans-table { width: 100%; border-collapse: separate; border-spacing: 0 .45em; }
.clans-table td { vertical-align: middle; padding: .3em .5em; }
.clans-tile { background: #efe3c4; border: 2px solid #a88b4a; border-radius: 8px; width: 34%; }
.clans-tile .tname { font-weight: 700; }
.clans-tile .ttext { font-size: .82em; color: #5a4d35; }
.clans-tile .outcome { font-weight: 700; color: #7a2e1c; }
.clans-stack { display: flex; flex-wrap: wrap; gap: .25em; align-items: center; }
.clans-stack.left { justify-content: flex-end; }
.clans-card { border: 1px solid #777; border-radius: 5px; padding: .15em .4em; font-size: .85em; background: #fff; min-width: 3.2em; text-align: center; }
.clans-card.down { background: repeating-linear-gradient(45deg, #5b4a3a, #5b4a3a 4px, #6d5a48 4px, #6d5a48 8px); color: #fff; }
.clans-card.mine-secret { outline: 2px dashed #7a2e1c; background: #fff7e0; color: #222; }
.clans-card .str { font-weight: 700; margin-left: .25em; }
.clans-side-head { font-size: .8em; color: #6b6358; }
.clans-hand { display: flex; flex-wrap: wrap; gap: .3em; }
.clans-score td, .clans-score th { padding: .15em .6em; text-align: left; }
`;

function strength(card, table) {
  if (card.strength === undefined || card.strength === null) return "";
  const star = card.default ? "*" : "";
  return `${card.strength}${star}`;
}

function cardChip(card, viewer, seatOfSide) {
  if (card.up) {
    return h("span", {class: "clans-card", title: `${card.name} (face up), Strength ${card.strength}`},
      card.name, h("span", {class: "str"}, strength(card)));
  }
  if (card.name && seatOfSide === viewer) {
    return h("span", {class: "clans-card down mine-secret", title: `your face-down ${card.name}: only you see it`},
      card.name, h("span", {class: "str"}, strength(card)));
  }
  if (card.name) {  // a secret card this seat has been shown (Shugenja)
    return h("span", {class: "clans-card down mine-secret", title: `face-down ${card.name}: you have seen it`},
      card.name, h("span", {class: "str"}, strength(card)));
  }
  return h("span", {class: "clans-card down", title: "a face-down card"}, "?");
}

function sideCell(side, viewer, left) {
  const colour = CLAN_COLOURS[String(side.clan).toLowerCase()] || "#fff";
  const head = h("div", {class: "clans-side-head"},
    `${side.clan}${side.seat === viewer ? " (you)" : ""}: ${side.count} card${side.count === 1 ? "" : "s"}, `,
    `face-up Strength ${side.strength_shown}${side.bonus ? `, +${side.bonus} bonus` : ""}`);
  const cards = (side.cards || []).map((c) => cardChip(c, viewer, side.seat));
  return h("td", {style: `background:${colour}; border-radius:8px; width:33%`},
    head, h("div", {class: `clans-stack${left ? " left" : ""}`}, ...cards));
}

function outcomeText(o, seats) {
  if (!o.done) return "";
  const totals = (o.totals || []).join(" against ");
  const who = o.winner === null || o.winner === undefined ? "nobody conquers" : `${seats[o.winner]} conquers`;
  return `${who} (${totals}: ${o.why || ""})`;
}

export function create(ctx) {
  if (!document.getElementById("clans-style")) document.head.append(h("style", {id: "clans-style"}, STYLE));
  const box = h("div", {class: "panel", id: "clans-table"});
  ctx.main.append(box);
  return {
    render(data) {
      const obs = data.obs || {};
      const viewer = obs.viewer;
      const phase = obs.phase ? `${obs.phase}` : "";
      const head = h("p", {},
        h("strong", {}, `${obs.scenario || ""}`), ` · ${phase}`,
        obs.round ? ` · round ${obs.round} of 7` : "",
        obs.teams ? ` · teams: ${obs.teams.map((t) => t.map((i) => (obs.seats || [])[i]).join(" & ")).join(" against ")}` : "");
      const rows = (obs.board || []).map((bf) => {
        const sides = bf.sides || [];
        const tile = h("td", {class: "clans-tile", "data-tile": bf.tile},
          h("div", {class: "tname"}, `${bf.name} · ${bf.vp} VP`),
          h("div", {class: "ttext"}, `${bf.timing}: ${bf.text}`),
          bf.outcome ? h("div", {class: "outcome"}, outcomeText(bf.outcome, obs.seats || [])) : null);
        return h("tr", {}, sides[0] ? sideCell(sides[0], viewer, true) : h("td"), tile,
          sides[1] ? sideCell(sides[1], viewer, false) : h("td"));
      });
      const hand = (obs.hand || []).map((c) => h("span", {class: "clans-card", title: c.kind},
        c.name, h("span", {class: "str"}, strength(c)), c.kind === "regular" ? " (regular)" : " (secret)"));
      const sizes = Object.entries(obs.hand_sizes || {}).map(([k, v]) => `${k} ${v}`).join(" · ");
      const removed = (obs.removed || []).map((r) => `${r.name || "a card"} of ${r.clan} (${r.how})`);
      const table = obs.card_table || {};
      fill(box,
        h("h2", {}, "The Battlefields"), head,
        h("table", {class: "clans-table", id: "battlefields"}, h("tbody", {}, ...rows)),
        h("h3", {}, "Your hand"), h("div", {class: "clans-hand", id: "hand"}, ...(hand.length ? hand : ["(empty)"])),
        h("p", {class: "muted"}, `Cards in hand: ${sizes}`),
        removed.length ? h("p", {class: "muted"}, `Removed: ${removed.join("; ")}`) : null,
        h("p", {class: "muted"}, `* ${table.label || "default value"}: Strengths not in the rulebook (its card `,
          `pictures are lost), from ${table.name || "the default card table"}.`));
    },
    claims() { return new Set(); },
    hint() { return "Choose a card and a Battlefield from the buttons; face-down cards stay secret."; },
    cancel() {},
  };
}
