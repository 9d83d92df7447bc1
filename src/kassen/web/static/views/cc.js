// The Commands & Colors hex battlefield (cc-samurai, cc-samurai-zvezda) as SVG, the player's
// Command and Dragon cards, and the standing. Drawn from the observation alone.
import {dieSvg, fill, h, hexesOf, s, sideClass} from "../common.js";
import {Player, recordShown, reducedMotion} from "./playback.js";

const R = 30;                       // hex radius
const W = Math.sqrt(3) * R;         // hex width
const PADX = 24, PADY = 22;
const MAXX = 24, ROWS = 11;
const BW = PADX * 2 + MAXX * W / 2;
const BH = PADY * 2 + 2 * R + (ROWS - 1) * 1.5 * R;

const TERRAIN = {
  countryside: {fill: "#e3dcb8", name: "countryside"},
  forest: {fill: "#9fc48a", name: "forest"},
  hill: {fill: "#d9b77a", name: "hill"},
  river: {fill: "#7fb2de", name: "river"},
  ford: {fill: "#a9cbe6", name: "ford"},
  bridge: {fill: "#c9c1ad", name: "bridge"},
  building: {fill: "#d8b9a4", name: "building"},
  field: {fill: "#e6dc8c", name: "field"},
  fence: {fill: "#e3dcb8", name: "fence"},
  palisade: {fill: "#d6c19c", name: "palisade"},
  ravine: {fill: "#c2a789", name: "ravine"},
  castle: {fill: "#bdbdbd", name: "castle"},
  tent: {fill: "#e4cfe6", name: "command tent"},
};
const SIDE_FILL = {red: "#b3342b", blue: "#2a5db0"};
const SYMBOL_FILL = {square: "#b3342b", triangle: "#2a5db0", circle: "#2f7d3a", swords: "#444"};
const LEADER_TEXT = {foot: "Foot Leader", mounted: "Mounted Leader", commander: "Army Commander"};

function paceFactor() { return {slow: 2, normal: 1, fast: 0.4, instant: 0}[localStorage.getItem("kassen.pace") || "normal"] ?? 1; }

// ------------------------------------------------------------ the other side's turn, as frames
function emptyMarks() { return {trails: [], attacks: [], dice: {}, lost: {}, gone: [], moved: [], ordered: [], banner: null}; }

const clone = (x) => JSON.parse(JSON.stringify(x));

/** Move whatever stands at ``frm`` to ``to`` on a board copy (a unit with its Leader when the
 * line says so; a Leader joining a unit). */
function movePiece(b, frm, to, text) {
  const u = b.units.find((x) => x.hex === frm);
  const lone = b.leaders.find((x) => x.hex === frm);
  if (to === "off") {
    b.units = b.units.filter((x) => x !== u);
    b.leaders = b.leaders.filter((x) => x !== lone);
    return;
  }
  const there = b.leaders.find((x) => x.hex === to);
  // "Red foot Leader moves Q2 to N1": a Leader leaves the unit it was with
  const leaderOnly = /^\S+ (foot Leader|mounted Leader|Army Commander) (moves|retreats)/.test(text || "");
  if (u && leaderOnly && u.leader) {
    const kind = u.leader;
    u.leader = null;
    const joined = b.units.find((x) => x.hex === to);
    if (joined) joined.leader = kind; else b.leaders.push({hex: to, kind, side: u.side});
    return;
  }
  if (u) {
    const carried = u.leader && / with (its|the) /.test(text || "");
    if (u.leader && !carried) { b.leaders.push({hex: frm, kind: u.leader, side: u.side}); u.leader = null; }
    u.hex = to;
    if (there && there.side === u.side) { u.leader = there.kind; b.leaders = b.leaders.filter((x) => x !== there); }
  } else if (lone) {
    const joined = b.units.find((x) => x.hex === to);
    if (joined) { joined.leader = lone.kind; b.leaders = b.leaders.filter((x) => x !== lone); } else lone.hex = to;
  } else {
    const carrier = b.units.find((x) => x.hex === frm && x.leader);
    if (carrier) carrier.hex = to;
  }
}

const MS = {turn: 500, play: 1600, dragon: 1600, order: 250, move: 650, retreat: 650, leader_retreat: 650, gain_ground: 650,
  combat: 600, roll: 1300, reroll: 900, score: 700, flags: 700, blocks: 700, eliminated: 900, leader_killed: 900,
  seppuku: 900, leader_off: 700, exit: 700, banner: 1100, victory: 1200, tent: 800, turncoat: 800, first_strike: 1200,
  casualty_check: 1000, lack_of_honor: 900, challenge: 900};

/** The combat the dice of the next roll belong to, after event ``e`` (null: none open). A
 * target driven back carries the combat's later dice (a Leader's casualty check) with it. */
function followCombat(combat, e) {
  const d = e.data || {};
  if (e.kind === "turn") return null;
  if (e.kind === "combat") return {att: d.att, tgt: d.tgt, kind: d.kind};
  if (combat && ["retreat", "leader_retreat", "gain_ground"].includes(e.kind) && d.frm && d.to && combat.tgt === d.frm) {
    return {...combat, tgt: d.to};
  }
  return combat;
}

/** The combat still open after the seat's earlier events (its log before a batch of steps): a
 * combat declared in one step is often rolled in a later one (a reaction window, an inspiration,
 * a Dragon card's window between), which may reach the page in a later batch. */
export function openCombat(prior) {
  let combat = null;
  for (const e of prior || []) combat = followCombat(combat, e);
  return combat;
}

/** The frames of events shown to this seat, starting from the board it saw; ``prior`` is the
 * seat's log before these events (where a combat they roll for was declared). */
export function buildFrames(start, events, startMarks, prior = []) {
  const b = clone({units: start.units || [], leaders: start.leaders || []});
  const marks = clone(startMarks);
  let combat = openCombat(prior);
  if (combat && !marks.attacks.some((a) => a.att === combat.att && a.tgt === combat.tgt)) {
    marks.attacks.push({att: combat.att, tgt: combat.tgt, kind: combat.kind});  // its line, again
  }
  const out = [];
  for (const e of events) {
    const d = e.data || {};
    let anim = null;
    let diceAt = null;
    switch (e.kind) {
      case "turn": break;  // the markers stay until this seat's next decision
      case "order": if (d.hex) marks.ordered.push(d.hex); break;
      case "move": case "retreat": case "leader_retreat": case "gain_ground":
        if (d.frm && d.to) {
          movePiece(b, d.frm, d.to, e.text);
          if (d.to !== "off") {
            anim = {frm: d.frm, to: d.to};
            marks.trails.push({frm: d.frm, to: d.to, kind: e.kind === "move" ? "move" : e.kind === "gain_ground" ? "advance" : "retreat"});
            marks.moved.push(d.to);
            marks.ordered = marks.ordered.map((x) => (x === d.frm ? d.to : x));
          } else marks.gone.push(d.frm);
        }
        break;
      case "combat":
        marks.attacks.push({att: d.att, tgt: d.tgt, kind: d.kind});
        delete marks.dice[d.tgt];
        break;
      case "roll": case "reroll": case "casualty_check":
        if (combat && Array.isArray(d.faces)) {
          marks.dice[combat.tgt] = e.kind === "reroll" ? [...(marks.dice[combat.tgt] || []), ...d.faces.flat()] : d.faces.flat();
          diceAt = combat.tgt;
        }
        break;
      case "blocks":
        if (d.hex) {
          const u = b.units.find((x) => x.hex === d.hex);
          if (u && typeof d.left === "number") u.blocks = d.left;
          marks.lost[d.hex] = (marks.lost[d.hex] || 0) + (d.lost || 1);
        }
        break;
      case "eliminated": case "exit": case "surrender":
        if (d.hex) {
          const u = b.units.find((x) => x.hex === d.hex);
          if (u && u.leader && e.kind === "eliminated") b.leaders.push({hex: d.hex, kind: u.leader, side: u.side});
          b.units = b.units.filter((x) => x !== u);
          marks.gone.push(d.hex);
        }
        break;
      case "leader_killed": case "seppuku": case "leader_off":
        if (d.hex) {
          const u = b.units.find((x) => x.hex === d.hex);
          if (u) u.leader = null;
          b.leaders = b.leaders.filter((x) => x.hex !== d.hex);
          marks.gone.push(d.hex);
        }
        break;
      case "banner": marks.banner = e.text; break;
      default: break;
    }
    combat = followCombat(combat, e);
    const ms = MS[e.kind];
    if (!ms || !e.text) continue;  // nothing to see: its change shows with the next frame
    out.push({board: clone(b), marks: clone(marks), caption: e.text, anim, ms, kind: e.kind, at: e.at, diceAt,
      card: e.kind === "play" || e.kind === "dragon" ? e.text : null});
  }
  return out;
}

/** Trails, attack lines, dice by their targets, lost blocks and removals, over the board. */
function markLayer(m, at) {
  const g = s("g", {class: "marks", id: "marks", "pointer-events": "none"});
  for (const t of m.trails) {
    const a = at(t.frm), b = at(t.to);
    if (!a || !b) continue;
    g.append(s("line", {class: `trail trail-${t.kind}`, "data-trail": `${t.frm}>${t.to}`, x1: a[0], y1: a[1], x2: b[0], y2: b[1],
      stroke: t.kind === "retreat" ? "#7a2e1c" : "#222", "stroke-width": 3, "stroke-opacity": 0.55,
      "stroke-dasharray": t.kind === "retreat" ? "5 4" : null, "marker-end": "url(#arrow)"}));
    g.append(s("circle", {cx: a[0], cy: a[1], r: 4, fill: "#222", "fill-opacity": 0.45}));
  }
  for (const t of m.attacks) {
    const a = at(t.att), b = at(t.tgt);
    if (!a || !b) continue;
    g.append(s("line", {class: "attack-line", "data-attack": `${t.att}>${t.tgt}`, x1: a[0], y1: a[1], x2: b[0], y2: b[1],
      stroke: "#d0201a", "stroke-width": 3.5, "stroke-opacity": 0.7, "stroke-dasharray": t.kind === "ranged" ? "2 5" : null,
      "marker-end": "url(#arrow-red)"}));
  }
  for (const hx of new Set(m.moved)) {
    const p = at(hx);
    if (p) g.append(s("circle", {class: "moved-mark", "data-moved": hx, cx: p[0] - 22, cy: p[1] - 16, r: 6, fill: "#fff", stroke: "#222", "stroke-width": 1.5}));
  }
  for (const [hx, n] of Object.entries(m.lost)) {
    const p = at(hx);
    if (p) g.append(s("text", {class: "lost-mark", "data-lost": hx, x: p[0] + 16, y: p[1] + 24, "font-size": 13, "font-weight": 700,
      fill: "#d0201a", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke"}, `−${n}`));
  }
  for (const hx of new Set(m.gone)) {
    const p = at(hx);
    if (p) g.append(s("text", {class: "gone-mark", "data-gone": hx, x: p[0], y: p[1] + 9, "text-anchor": "middle", "font-size": 30,
      fill: "#d0201a", "fill-opacity": 0.8}, "✕"));
  }
  for (const [hx, faces] of Object.entries(m.dice)) {
    const p = at(hx);
    if (!p) continue;
    const n = faces.length;
    const size = 15;
    const x0 = p[0] - (n * (size + 1)) / 2;
    const dg = s("g", {class: "dice-mark", "data-target": hx, "data-faces": faces.join(",")},
      s("rect", {x: x0 - 3, y: p[1] - R - 6, width: n * (size + 1) + 5, height: size + 6, rx: 4, fill: "#fff", "fill-opacity": 0.85, stroke: "#d0201a"}));
    faces.forEach((f, k) => {
      const die = dieSvg(f);
      die.setAttribute("x", String(x0 + k * (size + 1)));
      die.setAttribute("y", String(p[1] - R - 3));
      die.setAttribute("width", String(size));
      die.setAttribute("height", String(size));
      dg.append(die);
    });
    g.append(dg);
  }
  return g;
}

/** The sections of a hex from the point of view of the seat (board.sections_of): the
 * page shows the seat's own side at the bottom, so its left is the screen's left. */
function sectionsOf(name, obs) {
  const p = parseHex(name);
  if (!p) return [];
  const flip = obs.you && obs.bottom && obs.you !== obs.bottom;
  const x = flip ? MAXX - p[0] : p[0];
  return [x <= 8 ? "left" : null, x >= 8 && x <= 16 ? "center" : null, x >= 16 ? "right" : null].filter(Boolean);
}

function parseHex(name) {
  const m = /^([A-Y])([0-9]{1,2})$/.exec(name);
  return m ? [m[1].charCodeAt(0) - 65, Number(m[2])] : null;
}

function terrainIcon(slug) {
  const g = [];
  const dark = "#4b3b22";
  switch (slug) {
    case "forest":
      for (const [dx, dy] of [[-9, 2], [0, -6], [9, 2]]) {
        g.push(s("polygon", {points: `${dx},${dy - 9} ${dx - 7},${dy + 5} ${dx + 7},${dy + 5}`, fill: "#2f6b2a"}));
        g.push(s("rect", {x: dx - 1.2, y: dy + 5, width: 2.4, height: 3.5, fill: dark}));
      }
      break;
    case "hill":
      g.push(s("path", {d: "M-16,7 Q0,-14 16,7", fill: "none", stroke: "#8a5d1e", "stroke-width": 3}));
      g.push(s("path", {d: "M-9,7 Q0,-4 9,7", fill: "none", stroke: "#8a5d1e", "stroke-width": 2}));
      break;
    case "river": case "ford":
      for (const dy of [-5, 3]) {
        g.push(s("path", {d: `M-15,${dy} q5,-5 10,0 t10,0 t10,0`, fill: "none", stroke: "#1f5d99", "stroke-width": 2.2}));
      }
      if (slug === "ford") g.push(s("path", {d: "M-12,10 h24", stroke: "#6b5a3a", "stroke-width": 2.5, "stroke-dasharray": "3 3"}));
      break;
    case "bridge":
      g.push(s("rect", {x: -14, y: -6, width: 28, height: 12, fill: "#8c6b43", stroke: dark}));
      for (const x of [-8, -2, 4, 10]) g.push(s("line", {x1: x, y1: -6, x2: x, y2: 6, stroke: dark}));
      break;
    case "building":
      g.push(s("polygon", {points: "-12,-1 0,-12 12,-1", fill: "#7a3b23"}));
      g.push(s("rect", {x: -9, y: -1, width: 18, height: 11, fill: "#efe3cf", stroke: dark}));
      break;
    case "field":
      for (const y of [-8, -3, 2, 7]) g.push(s("line", {x1: -13, y1: y, x2: 13, y2: y, stroke: "#a48a1e", "stroke-width": 1.6}));
      break;
    case "fence":
      g.push(s("line", {x1: -15, y1: 0, x2: 15, y2: 0, stroke: dark, "stroke-width": 2}));
      for (const x of [-12, -4, 4, 12]) g.push(s("line", {x1: x, y1: -6, x2: x, y2: 6, stroke: dark, "stroke-width": 2}));
      break;
    case "palisade":
      for (const x of [-12, -6, 0, 6, 12]) g.push(s("polygon", {points: `${x - 2.5},8 ${x - 2.5},-5 ${x},-10 ${x + 2.5},-5 ${x + 2.5},8`, fill: "#7a5330"}));
      break;
    case "ravine":
      g.push(s("path", {d: "M-15,-4 l5,8 l5,-8 l5,8 l5,-8 l5,8", fill: "none", stroke: "#5d3d1f", "stroke-width": 2.2}));
      break;
    case "castle":
      g.push(s("path", {d: "M-12,9 v-14 h4 v4 h4 v-4 h4 v4 h4 v-4 h4 v14 z", fill: "#7d7d7d", stroke: "#3b3b3b"}));
      break;
    case "tent":
      g.push(s("polygon", {points: "0,-12 -13,8 13,8", fill: "#8a3c8f"}));
      g.push(s("polygon", {points: "0,-2 -4,8 4,8", fill: "#f2e6f3"}));
      break;
    default:
      break;
  }
  return g;
}

function symbolShape(symbol, x, y, r) {
  const fill = SYMBOL_FILL[symbol] || "#444";
  if (symbol === "square") return s("rect", {x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill, stroke: "#fff", "stroke-width": 1.2});
  if (symbol === "triangle") return s("polygon", {points: `${x},${y - r * 1.1} ${x - r * 1.1},${y + r * 0.9} ${x + r * 1.1},${y + r * 0.9}`, fill, stroke: "#fff", "stroke-width": 1.2});
  return s("circle", {cx: x, cy: y, r, fill, stroke: "#fff", "stroke-width": 1.2});
}

function leaderBadge(kind, x, y, side) {
  return s("g", {class: "leader"},
    s("circle", {cx: x, cy: y, r: 8.5, fill: "#f3d36b", stroke: SIDE_FILL[side] || "#333", "stroke-width": 2.2}),
    s("text", {x, y: y + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#3b2a05"},
      kind === "mounted" ? "M" : kind === "commander" ? "C" : "L"));
}

export function create(ctx) {
  let selected = null;
  let last = null;
  let ref = {};
  ctx.reference.then((r) => { ref = r || {}; });
  const svgWrap = h("div", {class: "board-wrap"});
  const zoomSlot = h("div", {});
  const legend = h("div", {class: "legend", id: "legend"});
  const hand = h("div", {class: "panel", id: "hand"});
  let shownBoard = null;  // the board last drawn: where the next turn's playback starts
  const player = new Player({show: (f, forward) => { draw(); if (f && forward) glide(f); if (f && f.diceAt) recordDice(f); },
    done: () => { draw(); ctx.rerender(); }});

  /** For a test that asks (playback.js recordShown): the dice mark of this frame as it stands on
   * the board, by its target hex. */
  function recordDice(f) {
    if (!Array.isArray(window.__kassenShown)) return;
    const mark = svg.querySelector(`.dice-mark[data-target="${f.diceAt}"]`);
    const hex = svg.querySelector(`g.hexg[data-hex="${f.diceAt}"]`);
    const a = mark && mark.getBoundingClientRect(), b = hex && hex.getBoundingClientRect();
    recordShown({what: "dice", at: f.at, kind: f.kind, target: f.diceAt, faces: mark ? mark.dataset.faces : null,
      beside: !!(a && b && Math.abs((a.x + a.width / 2) - (b.x + b.width / 2)) < b.width
        && Math.abs((a.y + a.height / 2) - (b.y + b.height / 2)) < b.height)});
  }
  ctx.main.append(h("div", {class: "panel"}, player.bar, svgWrap, zoomSlot, legend), hand);
  const standing = h("div", {class: "panel", id: "standing"});
  ctx.side.append(standing);
  let menu = null;
  const svg = s("svg", {class: "board", id: "board", viewBox: `0 0 ${BW.toFixed(0)} ${BH.toFixed(0)}`, role: "img",
    "aria-label": "battlefield"});
  svg.addEventListener("click", () => { closeMenu(); if (selected) { selected = null; draw(); } });
  svgWrap.append(svg);

  // Zoom: buttons, and two fingers on the board (pinch). The board starts whole (zoom 1 = the
  // width of the screen, even a phone's); where a hex is then narrower than a finger (44 CSS px),
  // the first tap on the board zooms in around it instead of choosing, so the next tap is on a
  // finger-wide hex (docs/decisions.md). Zoomed, the board scrolls inside its frame, never the page.
  let zoom = 1;
  const FINGER = 44;
  /** The width of one hex on the screen now, in CSS px. */
  const hexPx = () => svg.getBoundingClientRect().width / BW * W;
  /** A tap on a board shown whole whose hexes are narrower than a finger zooms in around it. */
  function tapZoom(ev) {
    if (zoom > 1.01 || !ev || hexPx() >= FINGER) return false;
    const r = svgWrap.getBoundingClientRect();
    applyZoom(Math.min(4, (FINGER + 4) / hexPx()), {x: ev.clientX - r.left, y: ev.clientY - r.top});
    return true;
  }
  const zoomLabel = h("span", {class: "muted", id: "zoom-level"});
  function applyZoom(z, keep) {
    const old = zoom;
    zoom = Math.min(4, Math.max(1, z));
    const cx = keep ? keep.x : svgWrap.clientWidth / 2;
    const cy = keep ? keep.y : svgWrap.clientHeight / 2;
    const fx = (svgWrap.scrollLeft + cx) / old;
    const fy = (svgWrap.scrollTop + cy) / old;
    svg.style.width = `${zoom * 100}%`;
    svgWrap.classList.toggle("zoomed", zoom > 1);
    svgWrap.scrollLeft = fx * zoom - cx;
    svgWrap.scrollTop = fy * zoom - cy;
    fill(zoomLabel, `${Math.round(zoom * 100)}%`);
  }
  const zoomBar = h("div", {class: "zoom", id: "zoom"},
    h("button", {id: "zoom-out", "aria-label": "zoom out", title: "zoom out", onclick: () => applyZoom(zoom / 1.25)}, "−"),
    zoomLabel,
    h("button", {id: "zoom-in", "aria-label": "zoom in", title: "zoom in", onclick: () => applyZoom(zoom * 1.25)}, "+"),
    h("button", {id: "zoom-fit", title: "the whole board", onclick: () => applyZoom(1)}, "Whole board"));
  let pinch = null;
  const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  svgWrap.addEventListener("touchstart", (e) => {
    if (e.touches.length === 2) {
      const r = svgWrap.getBoundingClientRect();
      pinch = {d: spread(e.touches), z: zoom, at: {x: (e.touches[0].clientX + e.touches[1].clientX) / 2 - r.left,
        y: (e.touches[0].clientY + e.touches[1].clientY) / 2 - r.top}};
    }
  }, {passive: true});
  svgWrap.addEventListener("touchmove", (e) => {
    if (pinch && e.touches.length === 2) {
      e.preventDefault();
      applyZoom(pinch.z * spread(e.touches) / pinch.d, pinch.at);
    }
  }, {passive: false});
  svgWrap.addEventListener("touchend", () => { pinch = null; });
  zoomSlot.append(zoomBar);
  requestAnimationFrame(() => applyZoom(zoom));

  function closeMenu() { if (menu) { menu.remove(); menu = null; } }

  function openMenu(options, ev) {
    closeMenu();
    const rect = svgWrap.getBoundingClientRect();
    const left = Math.min(ev.clientX - rect.left, rect.width - 180) + svgWrap.scrollLeft;
    menu = h("div", {class: "menu", id: "hex-menu", style: `left:${left}px;top:${ev.clientY - rect.top + svgWrap.scrollTop}px`},
      ...options.map((a) => h("button", {"data-action": a, onclick: () => { closeMenu(); selected = null; ctx.act(a); }},
        actionLabel(a, last ? last.obs : {}))),
      h("button", {onclick: () => closeMenu()}, "Cancel"));
    svgWrap.append(menu);
  }

  function index(actions) {
    const two = new Map();
    const one = new Map();
    for (const a of actions) {
      const hx = hexesOf(a);
      if (hx.length >= 2) {
        if (!two.has(hx[0])) two.set(hx[0], []);
        two.get(hx[0]).push({action: a, dst: hx[1], verb: a.split(" ")[0]});
      } else if (hx.length === 1) {
        if (!one.has(hx[0])) one.set(hx[0], []);
        one.get(hx[0]).push(a);
      }
    }
    return {two, one};
  }

  function click(name, ev) {
    if (tapZoom(ev)) return;
    if (!last || last.replaying || pastFrame()) return;  // a past frame of the last turn: look only
    const {two, one} = index(last.actions);
    closeMenu();
    if (selected && two.has(selected)) {
      const opts = two.get(selected).filter((t) => t.dst === name).map((t) => t.action);
      if (opts.length === 1) { const a = opts[0]; if (!/^(attack|fire) /.test(a)) selected = null; ctx.act(a); draw(); return; }
      if (opts.length > 1) { openMenu(opts, ev); return; }
    }
    if (two.has(name)) {
      selected = selected === name ? null : name;
      draw();
      if (selected && one.has(name)) openMenu(one.get(name), ev);
      return;
    }
    if (one.has(name)) {
      const opts = one.get(name);
      selected = null;
      if (opts.length === 1 && /^(order|retreat|hit|bonus) /.test(opts[0])) ctx.act(opts[0]);
      else openMenu(opts, ev);
      draw();
      return;
    }
    selected = null;
    draw();
    whyNot(name);
  }

  /** A click on a piece that has nothing to do now says why, in one line, from what the
   * observation tells: the enemy's, already ordered, the card's orders used up ("3 of 3 given"),
   * outside the sections the card names, not ordered this turn. */
  function whyNot(name) {
    const obs = last.obs || {};
    if (!last.actions.length || !obs.you) return;
    const b = obs.board || {};
    const piece = (b.units || []).find((u) => u.hex === name) || (b.leaders || []).find((l) => l.hex === name);
    if (!piece) return;
    const acts = last.actions;
    const what = piece.type ? `The ${piece.type} at ${name}` : `The Leader at ${name}`;
    const orders = (obs.orders || []).map((o) => o.split(" ")[0]);
    const card = obs.played || {};
    let why;
    if (piece.side !== obs.you) why = `The ${piece.side} piece at ${name} is the enemy's: click one of your glowing pieces.`;
    else if (acts.some((a) => a.startsWith("order "))) {
      const given = /\((\d+) of (\d+) given\)/.exec((obs.pending || {}).prompt || "");
      const named = ["left", "center", "right"].filter((sc) => new RegExp(`\\b${sc}\\b`, "i").test(`${card.name || ""} ${card.text || ""}`));
      const mine = sectionsOf(name, obs);
      if (orders.includes(name)) why = `${what} is ordered already.`;
      else if (given && Number(given[1]) >= Number(given[2])) why = `${card.name || "The card"}'s orders are used up (${given[1]} of ${given[2]} given).`;
      else if (card.kind === "section" && named.length && !named.some((sc) => mine.includes(sc))) {
        why = `${what} is in the ${mine.join(" and ")} section; ${card.name} orders in the ${named.join(" and ")} section only.`;
      } else why = `${what} is not one ${card.name || "the card played"} orders: ${card.text || "see the card"}`;
    } else if (acts.some((a) => a.startsWith("move "))) {
      why = orders.includes(name) ? `${what} has moved already (or has no hex to move to).`
        : `${what} was not ordered this turn: only ordered pieces move.`;
    } else if (acts.some((a) => /^(attack|fire) /.test(a))) {
      why = orders.includes(name) ? `${what} cannot battle now: it battled already, has no enemy in range, or moved too far to battle.`
        : `${what} was not ordered this turn: only ordered units battle.`;
    } else why = `Nothing to do with the piece at ${name} now: ${(obs.pending || {}).prompt || "see the decision panel"}`;
    if (ctx.say) ctx.say(why);
  }

  /** A piece glides from where it was to where it went (never with reduced motion). */
  function glide(f) {
    if (!f.anim || reducedMotion()) return;
    const {at} = geometry(last.obs);
    const a = at(f.anim.frm), b = at(f.anim.to);
    const el = svg.querySelector(`g.unit[data-hex="${f.anim.to}"]`);
    if (!a || !b || !el || !el.animate) return;
    const lone = el.hasAttribute("data-leader");
    const tf = (p) => `translate(${p[0].toFixed(1)}px, ${(p[1] + (lone ? 0 : 3)).toFixed(1)}px)${lone ? " scale(1.5)" : ""}`;
    el.dataset.moving = `${f.anim.frm}>${f.anim.to}`;
    const anim = el.animate([{transform: tf(a)}, {transform: tf(b)}],
      {duration: Math.max(120, 0.8 * f.ms * paceFactor()), easing: "ease-in-out"});
    anim.onfinish = () => { delete el.dataset.moving; };
  }

  function unitCard(u, ter) {
    const r = (ref.units || {})[u.type] || {};
    const tname = (TERRAIN[ter] || {name: ter}).name;
    const ranged = r.ranged && Object.keys(r.ranged).length
      ? Object.entries(r.ranged).map(([d, n]) => `${d} hex: ${n}`).join(", ") : "none";
    return h("div", {},
      h("b", {class: sideClass(u.side)}, `${u.side} ${r.name || u.type}`), ` (${u.type})`,
      h("div", {}, `Blocks ${u.blocks}/${r.blocks || "?"} · symbol ${u.symbol} · ${r.class || ""}`),
      h("div", {}, `Move ${r.move ?? "?"}, battle after moving: ${r.battle_move ? `up to ${r.battle_move}` : "no"}`),
      h("div", {}, `Close combat dice: ${r.close ?? "?"} · ranged: ${ranged}`),
      u.leader ? h("div", {}, `With a ${LEADER_TEXT[u.leader] || "Leader"}`) : null,
      h("div", {}, `On ${tname} (${u.hex})`),
      ((ref.primer || {}).terrain || {})[ter] && ter !== "countryside"
        ? h("div", {class: "muted", "data-terrain-effects": ter}, ref.primer.terrain[ter]) : null,
      r.notes ? h("div", {class: "muted"}, r.notes) : null);
  }

  function geometry(obs) {
    const flip = obs.you && obs.bottom && obs.you !== obs.bottom;
    const X = (x) => PADX + (flip ? MAXX - x : x) * W / 2;
    const Y = (row) => PADY + R + (flip ? row - 1 : ROWS - row) * 1.5 * R;
    const at = (name) => { const p = parseHex(name); return p ? [X(p[0]), Y(p[1])] : null; };
    return {flip, X, Y, at};
  }

  /** The frame of the other side's turn on the board, when one is shown instead of the present. */
  function pastFrame() {
    const f = player.current();
    return f && (player.playing() || player.more()) ? f : null;
  }

  function draw() {
    if (!last) return;
    const obs = last.obs;
    const past = pastFrame();
    const board = past ? past.board : (obs.board || {});
    shownBoard = board;
    const marks = past ? past.marks : (player.last() || {}).marks;
    const {flip, X, Y, at} = geometry(obs);
    const {two, one} = index(last.replaying || past ? [] : last.actions);
    const targets = new Map();
    if (selected && two.has(selected)) for (const t of two.get(selected)) targets.set(t.dst, t.verb);
    else selected = null;
    const ordered = new Set(past ? past.marks.ordered : (obs.orders || []).map((o) => o.split(" ")[0]));
    const objectives = new Set((obs.objectives || []).flatMap((o) => o.hexes || []));
    const units = new Map((board.units || []).map((u) => [u.hex, u]));
    const leaders = new Map((board.leaders || []).map((l) => [l.hex, l]));
    const terrain = (obs.board || {}).terrain || {};
    const tents = Object.fromEntries(Object.entries((obs.board || {}).tents || {}).map(([side, hx]) => [hx, side]));
    const pts = Array.from({length: 6}, (_, k) => {
      const a = Math.PI / 180 * (60 * k - 90);
      return `${(R * Math.cos(a)).toFixed(2)},${(R * Math.sin(a)).toFixed(2)}`;
    }).join(" ");
    fill(svg);
    svg.append(s("defs", {}, s("clipPath", {id: "board-clip"},
      s("rect", {x: X(flip ? MAXX : 0), y: 0, width: MAXX * W / 2, height: BH})),
    s("marker", {id: "arrow", viewBox: "0 0 10 10", refX: 14, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto"},
      s("path", {d: "M0,0 L10,5 L0,10 z", fill: "#222", "fill-opacity": 0.6})),
    s("marker", {id: "arrow-red", viewBox: "0 0 10 10", refX: 16, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto"},
      s("path", {d: "M0,0 L10,5 L0,10 z", fill: "#d0201a"}))));
    const hexLayer = s("g", {"clip-path": "url(#board-clip)"});
    const pieceLayer = s("g", {"clip-path": "url(#board-clip)"});
    svg.append(hexLayer, pieceLayer);
    const used = new Set();
    for (let row = 1; row <= ROWS; row++) {
      const xs = [];
      for (let x = (row % 2 === 1 ? 1 : 0); x <= MAXX; x += 2) xs.push(x);
      for (const x of xs) {
        const name = String.fromCharCode(65 + x) + row;
        const ter = terrain[name] || "countryside";
        used.add(ter);
        const cx = X(x), cy = Y(row);
        let cls = "hex";
        const verb = targets.get(name);
        if (name === selected) cls += " hl-selected";
        else if (verb === "attack" || verb === "fire") cls += " hl-attack";
        else if (verb) cls += " hl-move";
        else if (!selected && two.has(name)) cls += " hl-source";
        else if (!selected && one.has(name)) cls += " hl-target";
        const clickable = two.has(name) || one.has(name) || verb;
        if (clickable) cls += " click";
        const g = s("g", {transform: `translate(${cx.toFixed(1)},${cy.toFixed(1)})`, "data-hex": name,
          class: clickable ? "hexg click" : "hexg"});
        g.append(s("polygon", {points: pts, class: cls, fill: (TERRAIN[ter] || {fill: "#ccc"}).fill}));
        if (verb && verb !== "attack" && verb !== "fire") g.append(s("polygon", {points: pts, fill: "#2fbf4f", "fill-opacity": 0.35, "pointer-events": "none"}));
        if (verb === "attack" || verb === "fire") g.append(s("polygon", {points: pts, fill: "#e0301e", "fill-opacity": 0.25, "pointer-events": "none"}));
        if (tents[name]) g.append(s("polygon", {points: pts, fill: "none", stroke: SIDE_FILL[tents[name]], "stroke-width": 3, "stroke-dasharray": "2 3", transform: "scale(0.86)"}));
        if (objectives.has(name)) g.append(s("polygon", {points: pts, fill: "none", stroke: "#d89b16", "stroke-width": 3, transform: "scale(0.92)"}));
        const icon = s("g", {transform: units.has(name) || leaders.has(name) ? "translate(0,-17) scale(0.55)" : "translate(0,-2)"}, ...terrainIcon(ter));
        g.append(icon);
        g.append(s("text", {x: 0, y: R - 6, "text-anchor": "middle", "font-size": 8, fill: "#6b6358"}, name));
        const title = s("title", {}, `${name}: ${(TERRAIN[ter] || {name: ter}).name}${tents[name] ? ` (${tents[name]} command tent)` : ""}${objectives.has(name) ? " — objective" : ""}`);
        g.append(title);
        // hover: the terrain's effects too (the rules primer's, from the server, once it has come)
        g.addEventListener("mouseenter", () => {
          const effects = ((ref.primer || {}).terrain || {})[ter];
          if (effects && !title.dataset.effects) { title.textContent += ` — ${effects}`; title.dataset.effects = "1"; }
        });
        g.addEventListener("click", (ev) => { ev.stopPropagation(); click(name, ev); });
        hexLayer.append(g);
        const u = units.get(name);
        if (u) {
          const ug = s("g", {class: "unit", "data-unit": u.type, "data-hex": name, "data-side": u.side,
            transform: `translate(${cx.toFixed(1)},${(cy + 3).toFixed(1)})`, style: "pointer-events:visiblePainted"});
          ug.append(s("rect", {x: -20, y: -13, width: 40, height: 27, rx: 5, fill: SIDE_FILL[u.side] || "#555",
            class: ordered.has(name) ? "ordered" : "", stroke: ordered.has(name) ? "#fff" : "#222", "stroke-width": ordered.has(name) ? 3 : 1}));
          ug.append(symbolShape(u.symbol, -11, -4, 5));
          ug.append(s("text", {x: 5, y: 0, "text-anchor": "middle", "font-size": u.type.length > 3 ? 8.5 : 10.5,
            "font-weight": 700, fill: "#fff"}, u.type));
          for (let b = 0; b < u.blocks; b++) ug.append(s("rect", {x: -15 + b * 8, y: 5, width: 6, height: 5, fill: "#fff", rx: 1}));
          if (u.leader) ug.append(leaderBadge(u.leader, 18, -13, u.side));
          ug.addEventListener("mousemove", (ev) => ctx.tooltip.show(unitCard(u, terrain[name] || "countryside"), ev));
          ug.addEventListener("mouseleave", () => ctx.tooltip.hide());
          ug.addEventListener("click", (ev) => { ev.stopPropagation(); ctx.tooltip.hide(); click(name, ev); });
          pieceLayer.append(ug);
        } else if (leaders.has(name)) {
          const l = leaders.get(name);
          const lg = s("g", {class: "unit", "data-leader": l.kind, "data-hex": name, transform: `translate(${cx.toFixed(1)},${cy.toFixed(1)})`},
            leaderBadge(l.kind, 0, 0, l.side));
          lg.setAttribute("transform", `translate(${cx.toFixed(1)},${cy.toFixed(1)}) scale(1.5)`);
          lg.addEventListener("mousemove", (ev) => ctx.tooltip.show(h("div", {}, h("b", {class: sideClass(l.side)}, `${l.side} ${LEADER_TEXT[l.kind] || "Leader"}`), ` alone at ${name}`), ev));
          lg.addEventListener("mouseleave", () => ctx.tooltip.hide());
          lg.addEventListener("click", (ev) => { ev.stopPropagation(); click(name, ev); });
          pieceLayer.append(lg);
        }
      }
    }
    if (marks) svg.append(markLayer(marks, at));
    // section lines and labels
    for (const x of [8, 16]) {
      svg.append(s("line", {x1: X(x), y1: PADY - 4, x2: X(x), y2: BH - PADY + 4, stroke: "#5a4a3a", "stroke-width": 1.5, "stroke-dasharray": "6 5", "pointer-events": "none"}));
    }
    for (let x = 0; x <= MAXX; x++) {
      svg.append(s("text", {x: X(x), y: 14, "text-anchor": "middle", "font-size": 10, fill: "#6b6358"}, String.fromCharCode(65 + x)));
    }
    for (let row = 1; row <= ROWS; row++) {
      svg.append(s("text", {x: 4, y: Y(row) + 4, "font-size": 10, fill: "#6b6358"}, String(row)));
    }
    const secs = flip ? ["right", "center", "left"] : ["left", "center", "right"];
    [4, 12, 20].forEach((x, i) => svg.append(s("text", {x: X(x), y: BH - 5, "text-anchor": "middle", "font-size": 10, fill: "#5a4a3a"}, `${secs[i]} section`)));
    if (!svg.isConnected) svgWrap.prepend(svg);
    fill(legend, ...[...used].sort().map((t) => h("span", {},
      s("svg", {viewBox: "-18 -16 36 32"}, s("rect", {x: -18, y: -16, width: 36, height: 32, fill: (TERRAIN[t] || {fill: "#ccc"}).fill}), ...terrainIcon(t)),
      " ", (TERRAIN[t] || {name: t}).name)),
    h("span", {}, "gold ring: objective · white edge: ordered unit · L/M/C: Leader"));
  }

  function drawHand() {
    const obs = last.obs;
    const acts = new Set(last.actions);
    const items = [];
    if (Array.isArray(obs.drawn) && obs.drawn.length) {
      // two alike (R32: asked all the same): one card shown, one clear choice
      const alike = obs.drawn.length === 2 && obs.drawn[0].slug === obs.drawn[1].slug;
      items.push(h("h3", {id: "drawn-title"}, alike ? `Drawn: two ${obs.drawn[0].name} cards, keep one` : "Drawn: keep one"),
        h("div", {class: "cards", id: "drawn"}, ...(alike ? obs.drawn.slice(0, 1) : obs.drawn).map((c) => {
          const a = `keep ${c.slug}`;
          return h("div", {class: `card${acts.has(a) ? " playable" : ""}`, "data-card": c.slug},
            h("b", {}, c.name), h("span", {class: "meta"}, c.kind), h("span", {class: "meta cond"}, commandCondition(c)), h("span", {}, c.text),
            acts.has(a) ? h("button", {class: "primary", "data-action": a, onclick: () => ctx.act(a)},
              alike ? `Keep one ${c.name} (the other is discarded)` : "Keep") : null);
        })));
    }
    if (Array.isArray(obs.hand)) {
      items.push(h("h3", {}, `Your Command cards (${obs.hand.length})`), h("div", {class: "cards", id: "command-cards"}, ...obs.hand.map((c) => {
        const a = `play ${c.slug}`;
        const ok = acts.has(a);
        return h("div", {class: `card${ok ? " playable" : ""}`, "data-card": c.slug, tabindex: 0,
          title: `${c.name}: ${c.text}`},
          h("b", {}, c.name), h("span", {class: "meta"}, c.kind === "section" ? "section card" : c.kind),
          h("span", {class: "meta cond", "data-cond": c.slug}, commandCondition(c)), h("span", {}, c.text),
          ok ? h("button", {class: "primary", "data-action": a, onclick: () => ctx.act(a)}, "Play") : null);
      })));
    }
    if (Array.isArray(obs.dragons)) {
      items.push(h("h3", {}, `Your Dragon cards (${obs.dragons.length})`), h("div", {class: "cards", id: "dragon-cards"}, ...obs.dragons.map((d) => {
        const plays = last.actions.filter((a) => a === `dragon ${d.slug}` || a.startsWith(`dragon ${d.slug} `));
        const disc = acts.has(`discard-dragon ${d.slug}`) ? `discard-dragon ${d.slug}` : null;
        return h("div", {class: `card dragon${plays.length ? " playable" : ""}`, "data-card": d.slug},
          h("b", {}, d.name), h("span", {class: "meta"}, `cost ${d.cost} Honor & Fortune`),
          h("span", {class: "meta cond", "data-cond": d.slug}, dragonCondition(d)), h("span", {}, d.effect),
          ...plays.map((a) => h("button", {class: "primary", "data-action": a, onclick: () => ctx.act(a)},
            a === `dragon ${d.slug}` ? "Play" : `Play on ${targetText(a.split(" ").slice(2).join(" "), obs)}`)),
          disc ? h("button", {"data-action": disc, onclick: () => ctx.act(disc)}, "Discard for 1 Honor") : null);
      })));
    }
    fill(hand, ...items);
    hand.hidden = !items.length;
  }

  function drawStanding() {
    const obs = last.obs;
    const sides = Object.keys(obs.honor || {});
    const rows = sides.map((sd) => h("tr", {},
      h("td", {class: sideClass(sd)}, sd + (sd === obs.you ? " (you)" : "")),
      h("td", {}, String(obs.honor[sd])),
      h("td", {}, `${(obs.banners || {})[sd] ?? 0}/${obs.victory_banners ?? "?"}`),
      h("td", {}, String((obs.command || {})[sd] ?? "")),
      h("td", {}, String((obs.hand_sizes || {})[sd] ?? "")),
      h("td", {}, String((obs.dragon_counts || {})[sd] ?? ""))));
    fill(standing, 
      h("h2", {}, `Turn ${obs.turn ?? "?"}${obs.active ? ` · ${obs.active} to play` : ""}`),
      h("table", {class: "standing"},
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {title: "Honor & Fortune"}, "H&F"),
          h("th", {title: "Victory Banners won / needed"}, "Banners"), h("th", {title: "Command: cards in a full hand"}, "Cmd"),
          h("th", {title: "Command cards in hand"}, "Cards"), h("th", {title: "Dragon cards in hand"}, "Dragons"))),
        h("tbody", {}, ...rows)),
      h("p", {class: "muted"}, `Honor & Fortune pool ${obs.pool ?? "?"} · Command deck ${obs.command_deck ?? "?"} · Dragon deck ${obs.dragon_deck ?? "?"}`),
      obs.played ? h("p", {}, h("b", {}, "Played: "), obs.played.name, h("br"), h("span", {class: "muted"}, obs.played.text)) : null,
      (obs.orders || []).length ? h("p", {}, h("b", {}, "Ordered: "), obs.orders.join(", ")) : null,
      (obs.dragons_in_play || []).length ? h("p", {}, h("b", {}, "Dragon cards in play: "), obs.dragons_in_play.map((d) => `${d.name} (${d.effect})`).join("; ")) : null,
      ...(obs.objectives || []).map((o) => h("p", {class: "muted"}, `Objective ${o.name} (${(o.hexes || []).join(", ")}): ${o.banners} banner(s) for ${o.for}${o.held_by ? `, held by ${o.held_by}` : ""}`)));
  }

  return {
    render(data) {
      const from = shownBoard;
      last = data;
      if (data.replaying) selected = null;
      if (data.events && data.events.length && from) {
        // more steps while earlier ones are still shown: they go on from the end of the queue
        const prev = player.last();
        const start = prev && (player.playing() || player.more()) ? prev.board : from;
        player.push(buildFrames(start, data.events, prev ? prev.marks : emptyMarks(), data.prior));
      }
      draw();
      drawHand();
      drawStanding();
    },
    claims(actions) {
      return new Set(actions.filter((a) => /^(order|move|attack|fire) /.test(a) && hexesOf(a).length >= 1 && !/ off$/.test(a)));
    },
    hint(actions) {
      if (actions.some((a) => a.startsWith("order "))) return "Click a glowing unit or Leader on the board to order it; press Done when finished.";
      if (actions.some((a) => a.startsWith("move "))) return "Click a glowing unit, then a green hex to move it.";
      if (actions.some((a) => /^(attack|fire) /.test(a))) return "Click a glowing unit, then a red-edged target to see the odds.";
      if (actions.some((a) => a.startsWith("play "))) return "Play one of your Command cards (below the board).";
      return "";
    },
    cancel() { selected = null; closeMenu(); draw(); },
    /** The other side's turn is being shown: the decision waits. */
    playing() { return player.playing(); },
    /** The seat decides: the last turn's trails and markers go. */
    decided() { if (player.frames.length) { player.clear(); draw(); } },
    label(action) { return actionLabel(action, last ? last.obs : {}); },
  };
}

// ------------------------------------------------------------ card conditions and action labels
/** When a Dragon card may be played (the window of dragons.WINDOWS, in words). */
export const WINDOW_TEXT = {
  "with-command": "with your Command card", "after-enemy-command": "after the enemy's Command card",
  "movement": "during your movement", "declare": "when an enemy declares close combat on you",
  "before-roll": "before you roll the dice", "after-roll": "after you roll the dice",
  "after-enemy-roll": "after the enemy rolls against you", "before-back": "before you battle back",
  "end": "at the end of your turn", "insult": "when the enemy moves an ordered Leader",
  "enemy-success": "after an enemy's successful close combat", "challenge": "when two units with Leaders meet in close combat",
};
// what the card needs beyond its window (dragons.py _targets and _condition, in words)
const TARGET_COND = {
  "enemy-leader": "on an enemy Leader", "own-damaged-unit": "on one of your units that has lost blocks",
  "enemy-unit": "on an enemy unit", "leaderless-enemy-unit": "on an enemy unit with no Leader",
  "mover": "on an ordered unit that has not moved yet", "attacker-single-block": "only a unit down to one block",
  "attacker-with-leader": "only an ordered unit with a Leader", "defender-with-leader": "only a defending unit with a Leader",
  "tactical": "only with a Section card",
};
const CLOSE_ONLY = new Set(["spirit-of-hachiman", "strike-fear", "desperate-charge", "head-collector", "bravery",
  "practice-of-aikido", "brave-leader", "revenge"]);
const SLUG_COND = {
  "shot-proof-armor": "only against ranged combat on a unit",
  "legendary-combat": "close combat only, in an attack or bonus close combat (not battle back)",
  "personal-challenge": "only a close combat between two units that each have a Leader",
  "ambush": "close combat by a single attacker you can battle back; not with First Strike",
  "brave-messenger": "only with a Section card", "ninja-thief": "only while the enemy holds a Dragon card",
  "wild-winds": "only after the enemy has played a Command card", "blue-dragon": "only when an enemy unit is in a river or ford",
  "white-fox-spirit": "only against a Command card that orders units", "wise-advisor": "only when the Command discard pile has a card",
  "brave-leader": "close combat only, a defending unit with a Leader",
};

/** "When: …; only …" for a Dragon card of the observation. */
export function dragonCondition(d) {
  const bits = [WINDOW_TEXT[d.window] || String(d.window || "").replace(/-/g, " ")];
  if (SLUG_COND[d.slug]) bits.push(SLUG_COND[d.slug]);
  else if (CLOSE_ONLY.has(d.slug)) bits.push("close combat only");
  if (TARGET_COND[d.target] && !SLUG_COND[d.slug]) bits.push(TARGET_COND[d.target]);
  return `When: ${bits.join("; ")}`;
}

/** When a Command card may be played. */
export function commandCondition(c) {
  if (c.slug === "first-strike") return "When: on your turn, or when an enemy declares close combat on a unit of yours that could battle back";
  if (c.slug === "counter-attack") return "When: on your turn; it becomes the card the enemy played last";
  if (c.kind === "section") return "When: on your turn; orders units in the section it names";
  return "When: on your turn";
}

function pieceAt(hex, obs) {
  const b = (obs && obs.board) || {};
  const u = (b.units || []).find((x) => x.hex === hex);
  if (u) return `${u.side} ${u.type}`;
  const l = (b.leaders || []).find((x) => x.hex === hex);
  return l ? `${l.side} ${LEADER_TEXT[l.kind] || "Leader"}` : null;
}

/** "F3" -> "the red SpC at F3"; anything else as words. */
function targetText(t, obs) {
  if (/^[A-Y][0-9]{1,2}$/.test(t)) { const p = pieceAt(t, obs); return p ? `the ${p} at ${t}` : t; }
  return {extra: "an extra order anywhere", left: "the left section", center: "the center section",
    right: "the right section"}[t] || t.replace(/-/g, " ");
}

const cardName = (slug) => slug.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");

/** A human label for any C&C action: never the raw action string. */
export function actionLabel(action, obs) {
  const w = action.split(" ");
  const [verb, a1, a2] = w;
  const find = (list) => (list || []).find((c) => c.slug === a1 || c.id === a1);
  const pend = (obs && obs.pending) || {};
  const at = (hx) => { const p = pieceAt(hx, obs); return p ? `${p} at ${hx}` : hx; };
  switch (verb) {
    case "play": return `Play ${(find(obs.hand) || {}).name || cardName(a1)}`;
    case "keep": return w.length === 1 ? "Keep" : `Keep ${(find(obs.drawn) || {}).name || cardName(a1)}`;
    case "take": return `Take ${cardName(a1)} from the discard pile`;
    case "pick": return `Pick face-down card ${a1}`;
    case "order": return a2 === "leader" ? `Order the Leader at ${a1}` : `Order the ${at(a1)}`;
    case "move":
      if (a2 === "leader") return w[3] === "off" ? `Move the Leader at ${a1} off the battlefield` : `Move the Leader at ${a1} to ${w[3]}`;
      return a2 === "off" ? `Move the ${at(a1)} off the battlefield` : `Move the ${at(a1)} to ${a2}`;
    case "attack": return `Attack the ${at(a2)} from ${a1}`;
    case "fire": return `Fire at the ${at(a2)} from ${a1}`;
    case "retreat": return a1 === "off" ? "Retreat off the battlefield" : `Retreat to ${a1}`;
    case "hit": return `The ${at(a1)} loses the block`;
    case "ignore": return a1 === "0" ? "Ignore no flag" : `Ignore ${a1} flag${a1 === "1" ? "" : "s"}`;
    case "advance": return a1 ? `Gain ground with the ${at(a1)}` : `Gain ground into ${pend.tgt || "the hex"}`;
    case "stay": return pend.decision === "turncoat" ? "The unit stays loyal" : "Stay (do not gain ground)";
    case "defect": return "The unit changes sides";
    case "battle-back": return a1 ? `Battle back against the ${at(a1)}` : "Battle back";
    case "no-battle-back": return "Do not battle back";
    case "bonus": return `Bonus close combat against the ${at(a1)}`;
    case "no-bonus": return "No bonus close combat";
    case "inspire": return "Inspire (+1 die for 1 Honor & Fortune)";
    case "no-inspire": return "Do not inspire";
    case "dragon": {
      const name = (find(obs.dragons) || {}).name || cardName(a1);
      return `Dragon card: ${name}${w.length > 2 ? ` on ${targetText(w.slice(2).join(" "), obs)}` : ""}`;
    }
    case "discard-dragon": return `Discard ${(find(obs.dragons) || {}).name || cardName(a1)} for 1 Honor & Fortune`;
    default: break;
  }
  return {"done": "Done ordering", "end-move": "Done moving", "end-battle": "Done battling",
    "pass": "Pass (play no card)", "first-strike": "First Strike!", "take-honor": "Take 2 Honor & Fortune",
    "draw-dragon": "Draw a Dragon card", "keep-dragons": "Keep my Dragon cards", "seppuku": "Commit seppuku",
    "concede": "Concede the battle"}[action] || null;
}
