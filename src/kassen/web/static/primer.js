// The rules primer (issue 30, item 4): a "Rules" button beside Undo opens a dialog (the top
// layer: the board never moves) with the game's own primer from /api/games/{id}/reference:
// the dice faces and what they hit, Honor & Fortune, Leaders, this battle's victory conditions
// and each terrain's effects. Nothing of the rules is written here: every line is the server's.
import {api, dieSvg, h} from "./common.js";

let dialog = null;

function sections(primer) {
  const out = [];
  for (const sec of primer.sections || []) {
    const faces = sec.faces || null;
    out.push(h("section", {class: "primer-section", "data-section": sec.id},
      h("h3", {}, sec.title),
      faces ? h("ul", {class: "primer-dice"}, ...faces.map((f) => h("li", {"data-face": f.face},
        h("span", {class: "primer-die", "aria-label": f.face}, dieSvg(f.face)), " ", f.text)))
        : h("ul", {}, ...sec.items.map((t) => h("li", {}, t)))));
  }
  const ter = Object.entries(primer.terrain || {});
  if (ter.length) {
    out.push(h("section", {class: "primer-section", "data-section": "terrain"},
      h("h3", {}, "Terrain"), h("p", {class: "muted"}, "Hover a hex of the board for its terrain's effects."),
      h("dl", {class: "primer-terrain"}, ...ter.flatMap(([slug, text]) => [h("dt", {}, slug.replace(/-/g, " ")),
        h("dd", {}, text)]))));
  }
  return out;
}

async function open(screen) {
  if (!dialog) {
    dialog = h("dialog", {id: "primer", class: "primer", "aria-labelledby": "primer-title"});
    dialog.addEventListener("keydown", (e) => e.stopPropagation());  // the page's keys stay out
    document.body.append(dialog);
  }
  const close = h("form", {method: "dialog"}, h("button", {id: "primer-close"}, "Close"));
  dialog.replaceChildren(h("h2", {id: "primer-title"}, `Rules: ${screen.v.game_name}`), h("p", {class: "muted"}, "Loading…"));
  dialog.showModal();
  try {
    const ref = await api(`/api/games/${screen.gameId}/reference`, {token: screen.token});
    const p = ref.primer;
    dialog.replaceChildren(h("h2", {id: "primer-title"}, `Rules: ${screen.v.game_name}`),
      ...(p ? sections(p) : [h("p", {}, "This game has no rules primer.")]), close);
  } catch (e) {
    dialog.replaceChildren(h("h2", {id: "primer-title"}, "Rules"), h("p", {class: "error"}, e.message), close);
  }
}

/** The "Rules" button of the status bar (every seat, spectators too). */
export function primerButton(screen) {
  return h("button", {id: "primer-btn", type: "button", title: "The rules in brief: dice, victory, terrain",
    onclick: () => open(screen)}, "Rules");
}
