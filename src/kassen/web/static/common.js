// Helpers shared by the page and the game views: DOM building, dice faces, the API client.

/** Build an element: h("div", {class: "x", onclick: fn}, child, "text", ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";

/** Build an SVG element. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const FACE_NAMES = {
  circle: "green circle", triangle: "blue triangle", square: "red square",
  flag: "flag", honor: "Honor & Fortune", swords: "swords",
};

const PIPS = {1: [[20, 20]], 2: [[12, 12], [28, 28]], 3: [[11, 11], [20, 20], [29, 29]],
  4: [[12, 12], [28, 12], [12, 28], [28, 28]], 5: [[11, 11], [29, 11], [20, 20], [11, 29], [29, 29]],
  6: [[12, 10], [28, 10], [12, 20], [28, 20], [12, 30], [28, 30]]};

/** The pips of a d6 face 1-6 (games that roll plain six-sided dice), else null. */
function pips(face) {
  const spots = PIPS[Number(face)];
  return spots ? spots.map(([x, y]) => s("circle", {cx: x, cy: y, r: 3.4, fill: "#222"})) : null;
}

/** One battle die showing ``face`` as an SVG. */
export function dieSvg(face) {
  const body = {
    circle: [s("circle", {cx: 20, cy: 20, r: 10, fill: "#2f7d3a"})],
    triangle: [s("polygon", {points: "20,8 32,30 8,30", fill: "#2a5db0"})],
    square: [s("rect", {x: 10, y: 10, width: 20, height: 20, fill: "#b3342b"})],
    flag: [s("line", {x1: 13, y1: 8, x2: 13, y2: 33, stroke: "#333", "stroke-width": 2.5}),
           s("polygon", {points: "14,9 31,14 14,20", fill: "#e0a106"})],
    honor: [s("circle", {cx: 20, cy: 20, r: 11, fill: "#f3d36b", stroke: "#8a6d10", "stroke-width": 2}),
            s("text", {x: 20, y: 25, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#5b4407"}, "H")],
    swords: [s("line", {x1: 9, y1: 9, x2: 31, y2: 31, stroke: "#444", "stroke-width": 3.5}),
             s("line", {x1: 31, y1: 9, x2: 9, y2: 31, stroke: "#444", "stroke-width": 3.5})],
  }[face] || pips(face) || [s("text", {x: 20, y: 25, "text-anchor": "middle", "font-size": 12}, String(face))];
  return s("svg", {viewBox: "0 0 40 40", role: "img", "aria-label": FACE_NAMES[face] || String(face)},
    s("title", {}, FACE_NAMES[face] || String(face)),
    s("rect", {x: 1.5, y: 1.5, width: 37, height: 37, rx: 7, fill: "#fffdf6", stroke: "#555", "stroke-width": 2}),
    ...body);
}

/** A row of dice. */
export function diceRow(faces) {
  faces = faces.flat();  // a pair of 2D6 throws arrives as [[a, b], [c, d]]
  return h("span", {class: "dice", "data-faces": faces.join(",")}, ...faces.map(dieSvg));
}

/** CSS class of a side or seat name ("red" -> side-red). */
export function sideClass(name) {
  return name ? `side-${String(name).toLowerCase()}` : "";
}

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

/** Call the JSON API; throws ApiError with the server's message. */
export async function api(path, {method = "GET", body, token} = {}) {
  const headers = {"Accept": "application/json"};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    throw new ApiError(0, "cannot reach the server (is it running?)");
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) throw new ApiError(res.status, (data && data.error && (data.error.message || data.error)) || `HTTP ${res.status}`);
  return data;
}

/** Hex names in an action ("move F3 G4" -> ["F3", "G4"]). */
export function hexesOf(action) {
  return action.split(" ").filter((w) => /^[A-Y][0-9]{1,2}$/.test(w));
}

/** Replace the children of ``el``, skipping null/undefined/false. */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** Words for an action the game's view has no label for: its describe_action text when that
 * says more than the action, else the action's words ("no-battle-back" -> "No battle back"). */
export function humanize(action, text) {
  if (text && text !== action) return text[0].toUpperCase() + text.slice(1);
  const words = String(action).split(" ").map((w) => (/^[a-z]+(-[a-z]+)+$/.test(w) ? w.replace(/-/g, " ") : w));
  const out = words.join(" ");
  return out[0].toUpperCase() + out.slice(1);
}
