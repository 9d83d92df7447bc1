// Any game without a dedicated view: the observation as readable panels. The legal
// actions (with their describe_action text) are the page's buttons.
import {fill, h} from "../common.js";

function label(key) {
  return String(key).replace(/[_-]+/g, " ").replace(/^./, (c) => c.toUpperCase());
}

function value(v, depth = 0) {
  if (v === null || v === undefined) return h("span", {class: "muted"}, "—");
  if (typeof v !== "object") return String(v);
  if (Array.isArray(v)) {
    if (!v.length) return h("span", {class: "muted"}, "none");
    if (v.every((x) => typeof x !== "object" || x === null)) return v.join(", ");
    return h("ul", {}, ...v.map((x) => h("li", {}, value(x, depth + 1))));
  }
  const named = v.name || v.title;
  if (depth > 2) return JSON.stringify(v);
  return h("dl", {}, ...Object.entries(v).flatMap(([k, x]) => [h("dt", {}, label(k)), h("dd", {}, value(x, depth + 1))]),
    named ? [] : []);
}

export function create(ctx) {
  const box = h("div", {class: "panel generic-obs", id: "observation"});
  ctx.main.append(box);
  return {
    render(data) {
      const obs = data.obs || {};
      const sections = [];
      const simple = [];
      for (const [k, v] of Object.entries(obs)) {
        if (k === "legal_actions") continue;
        if (v !== null && typeof v === "object" && !(Array.isArray(v) && v.every((x) => typeof x !== "object"))) {
          sections.push(h("section", {}, h("h3", {}, label(k)), value(v)));
        } else simple.push(h("dt", {}, label(k)), h("dd", {}, value(v)));
      }
      fill(box, h("h2", {}, data.replaying ? "The position (replay)" : "What you see"),
        simple.length ? h("dl", {}, ...simple) : null, ...sections);
    },
    claims() { return new Set(); },
    hint() { return "Choose one of the actions."; },
    cancel() {},
    label() { return null; },
  };
}
