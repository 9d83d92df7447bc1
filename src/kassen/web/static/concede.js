// Concede (issue 30, item 4): a button beside Undo, a confirmation in a modal dialog (the top
// layer: nothing on the page moves), then POST /api/games/{id}/concede. The server ends the game
// ("Red conceded"), the other side wins and the page shows the result and the replay.
import {api, h} from "./common.js";

/** What conceding does, said before it is done (the server's own result follows it). */
export function concedeText(v) {
  const names = v.seat_names || [];
  if (names.length === 2) {
    return `Concede the battle? ${names[1 - v.seat]} wins at once; this cannot be undone.`;
  }
  const mate = v.observation && v.observation.partner;
  return mate != null ? "Concede the game? Your team loses at once; this cannot be undone."
    : "Concede the game? It ends at once, you score nothing and the others share the result; this cannot be undone.";
}

let dialog = null;

function dialogFor(screen) {
  if (!dialog) {
    dialog = h("dialog", {id: "concede-dialog", "aria-labelledby": "concede-text"});
    dialog.addEventListener("keydown", (e) => e.stopPropagation());  // the page's keys (u, Enter) stay out
    document.body.append(dialog);
  }
  const v = screen.v;
  const yes = h("button", {class: "primary", id: "concede-yes", type: "button", onclick: async () => {
    yes.disabled = true;
    try {
      const nv = await api(`/api/games/${screen.gameId}/concede?since=0`,
        {method: "POST", token: screen.token, body: {}});  // whatever happened meanwhile: giving up stands
      dialog.close();
      screen.apply(nv);
    } catch (e) {
      dialog.close();
      if (e.status === 409) await screen.load(true).catch(() => {});
      screen.flash(e.message);
    }
  }}, "Yes, concede");
  const no = h("button", {id: "concede-no", type: "button", onclick: () => dialog.close()}, "No, play on");
  dialog.replaceChildren(h("h2", {}, "Concede"), h("p", {id: "concede-text"}, concedeText(v)), h("p", {}, yes, " ", no));
  return dialog;
}

/** The Concede button of a person's seat (a watch link has none); disabled once the game is over. */
export function concedeButton(screen) {
  const v = screen.v;
  if (v.watching) return null;
  return h("button", {id: "concede", type: "button", disabled: !!v.result,
    title: v.result ? "The game is over" : "Give the game up: the other side wins",
    onclick: () => dialogFor(screen).showModal()}, "Concede");
}
