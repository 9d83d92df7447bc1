// The scenario editor (/editor): a C&C battle drawn by clicks, judged as it is drawn by the
// engine's own loader (POST /api/editor/check), saved as the scenario file `kassen run` and
// `kassen play` load (the server writes it), kept per browser, and played at once.
import {h, s} from "/static/common.js";

const $ = (id) => document.getElementById(id);
const TERRAIN_FILL = {forest: "#6f9a52", hill: "#c9a66b", river: "#5b8fd0", ford: "#8fb6e3", bridge: "#a57c52",
  building: "#b7a99a", field: "#e4d77a", fence: "#c98f5a", palisade: "#8b5a2b", ravine: "#9a8f7f",
  castle: "#8d8d8d"};
const SIDE_FILL = {red: "#b3342b", blue: "#2a5db0"};
const LEADER_MARK = {foot: "L", mounted: "M", commander: "C"};
const R = 26, W = Math.sqrt(3) * R;

let palette = null;          // GET /api/editor/palette
let design = null;           // the scenario's tables, as tomllib reads the file
let tool = null;             // {kind, ...}
let last = {problems: [], text: ""};
const undo = [], redo = [];
let checkSeq = 0;

function browserId() {
  let id = localStorage.getItem("kassen-browser");
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem("kassen-browser", id);
  }
  return id;
}

async function api(method, path, body) {
  const opts = {method, headers: {"X-Kassen-Browser": browserId()}};
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error ? data.error.message : `${r.status}`);
  return data;
}

const clone = (x) => JSON.parse(JSON.stringify(x));
const side = () => document.querySelector("input[name=ed-side]:checked").value;
const army = (sd) => (design[sd] = design[sd] || {command: 5, dragon: 3, honor: 5, pieces: []});

function change(fn) {
  undo.push(clone(design));
  redo.length = 0;
  fn();
  refresh();
}

function refresh() {
  drawBoard();
  drawForm();
  check();
}

async function check() {
  const seq = ++checkSeq;
  const name = `${(design.scenario && design.scenario.id) || "scenario"}.toml`;
  try {
    const res = await api("POST", "/api/editor/check", {design, name});
    if (seq !== checkSeq) return;
    last = res;
  } catch (e) {
    if (seq !== checkSeq) return;
    last = {problems: [{detail: e.message, message: e.message, hex: null, line: null}], text: last.text};
  }
  showProblems();
}

function showProblems() {
  const st = $("ed-status");
  const errors = last.problems.filter((p) => !p.warning), warnings = last.problems.length - errors.length;
  const plural = (n, w) => `${n} ${w}${n > 1 ? "s" : ""}`;
  st.className = errors.length ? "bad" : "ok";
  st.textContent = errors.length
    ? `${plural(errors.length, "problem")}: kassen run would refuse this file`
      + (warnings ? ` (and ${plural(warnings, "warning")})` : "")
    : "No problems: kassen run and kassen play load this file" + (warnings ? ` (${plural(warnings, "warning")})` : "");
  // every problem the loader found: field errors and board errors together, then the warnings
  $("ed-problems").replaceChildren(...last.problems.map((p) =>
    h("li", {"data-hex": p.hex || "", title: p.field || "", class: p.warning ? "warn" : ""},
      (p.line ? `line ${p.line}: ` : "") + p.detail)));
  $("ed-text").textContent = last.text || "";
  const bad = new Map();
  for (const p of last.problems) if (p.hex && !p.warning) bad.set(p.hex, [...(bad.get(p.hex) || []), p.detail]);
  for (const poly of document.querySelectorAll("#ed-board .hex")) {
    const msgs = bad.get(poly.dataset.hex);
    poly.classList.toggle("bad", !!msgs);
    poly.querySelector("title").textContent = poly.dataset.hex + (msgs ? "\n" + msgs.join("\n") : "");
  }
}

// ------------------------------------------------------------------ the board
function center(hx) {
  return [20 + W / 2 + hx.x * W / 2, 20 + R + (palette.board.rows - 1 - hx.row) * 1.5 * R];
}

function terrainAt(name) {
  for (const [slug, hexes] of Object.entries(design.terrain || {})) if (hexes.includes(name)) return slug;
  return null;
}

function pieceAt(name) {
  for (const sd of ["red", "blue"]) {
    const ps = (design[sd] && design[sd].pieces) || [];
    const i = ps.findIndex((p) => p.at === name);
    if (i >= 0) return {side: sd, index: i, piece: ps[i]};
  }
  return null;
}

function drawBoard() {
  const cols = palette.board.columns, rows = palette.board.rows;
  const width = 40 + W / 2 * cols + W / 2, height = 40 + 1.5 * R * (rows - 1) + 2 * R;
  const left = 20 + W / 2, right = left + (cols - 1) * W / 2;
  const svg = s("svg", {viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "the battlefield"},
    s("defs", {}, s("clipPath", {id: "ed-clip"}, s("rect", {x: left, y: 0, width: right - left, height}))));
  const g = s("g", {"clip-path": "url(#ed-clip)"});
  svg.append(g);
  for (const hx of palette.board.hexes) {
    const [cx, cy] = center(hx);
    const pts = [...Array(6).keys()].map((k) => {
      const a = Math.PI / 180 * (60 * k - 30);
      return `${(cx + R * Math.cos(a)).toFixed(1)},${(cy + R * Math.sin(a)).toFixed(1)}`;
    }).join(" ");
    const t = terrainAt(hx.name);
    const tentOf = ["red", "blue"].find((sd) => design[sd] && design[sd].tent === hx.name);
    const fill = tentOf ? "#f1e3c6" : (t ? TERRAIN_FILL[t] || "#ccc" : (hx.sections.length > 1 ? "#eef0dc" : "#f4f1e4"));
    g.append(s("polygon", {class: "hex", points: pts, fill, "data-hex": hx.name,
      onclick: () => place(hx.name)}, s("title", {}, hx.name)));
    g.append(s("text", {class: "label", x: cx, y: cy + R - 6, "text-anchor": "middle"}, hx.name));
    if (t) g.append(s("text", {x: cx, y: cy - R + 12, "text-anchor": "middle", fill: "#222", "font-size": 8}, t));
    if (tentOf) g.append(s("text", {x: cx, y: cy - R + 12, "text-anchor": "middle", fill: SIDE_FILL[tentOf]}, "tent"));
    for (const sd of ["red", "blue"]) {
      if (design[sd] && (design[sd].exits || []).includes(hx.name))
        g.append(s("text", {x: cx - 14, y: cy + 4, fill: SIDE_FILL[sd]}, "⇲"));
    }
    if ((design.objective || []).some((o) => (o.hexes || []).includes(hx.name)))
      g.append(s("text", {x: cx + 10, y: cy - 8, fill: "#8a6d10"}, "★"));
    const pc = pieceAt(hx.name);
    if (pc) {
      const p = pc.piece;
      if (p.unit) {
        g.append(s("rect", {x: cx - 15, y: cy - 9, width: 30, height: 16, rx: 3, fill: SIDE_FILL[pc.side]}));
        g.append(s("text", {x: cx, y: cy + 3, "text-anchor": "middle", fill: "#fff"},
          p.unit + (p.blocks ? `·${p.blocks}` : "")));
      }
      if (p.leader) {
        const ly = p.unit ? cy + 12 : cy;
        g.append(s("circle", {cx, cy: ly, r: 7, fill: "#fff", stroke: SIDE_FILL[pc.side], "stroke-width": 2}));
        g.append(s("text", {x: cx, y: ly + 4, "text-anchor": "middle", fill: SIDE_FILL[pc.side]}, LEADER_MARK[p.leader]));
      }
    }
  }
  // the section lines (as the bottom player sees them)
  for (const x of [8, 16]) {
    const px = 20 + W / 2 + x * W / 2;
    svg.append(s("line", {class: "section-line", x1: px, y1: 10, x2: px, y2: height - 10}));
  }
  $("ed-board").replaceChildren(svg);
  showProblems();
}

// ------------------------------------------------------------------ placing
function removeTerrain(name) {
  for (const [slug, hexes] of Object.entries(design.terrain || {})) {
    design.terrain[slug] = hexes.filter((x) => x !== name);
    if (!design.terrain[slug].length) delete design.terrain[slug];
  }
}

function removePiece(name) {
  for (const sd of ["red", "blue"]) if (design[sd]) design[sd].pieces = design[sd].pieces.filter((p) => p.at !== name);
}

function place(name) {
  if (!tool) return;
  const sd = side(), a = army(sd), pc = pieceAt(name);
  change(() => {
    design.terrain = design.terrain || {};
    if (tool.kind === "terrain") {
      const had = terrainAt(name) === tool.slug;
      removeTerrain(name);
      if (!had) (design.terrain[tool.slug] = design.terrain[tool.slug] || []).push(name);
    } else if (tool.kind === "unit") {
      if (pc && pc.side === sd && pc.piece.unit === tool.code) {
        if (pc.piece.leader) { delete pc.piece.unit; delete pc.piece.blocks; } else removePiece(name);
      } else if (pc && pc.side === sd) {
        pc.piece.unit = tool.code; delete pc.piece.blocks;
      } else {
        removePiece(name);
        a.pieces.push({at: name, unit: tool.code});
      }
    } else if (tool.kind === "leader") {
      if (pc && pc.side === sd && pc.piece.leader === tool.leader) {
        if (pc.piece.unit && pc.piece.unit !== "BG") delete pc.piece.leader; else removePiece(name);
        if (tool.leader === "commander" && a.tent === name) delete a.tent;
      } else if (tool.leader === "commander") {
        removePiece(name);
        removeTerrain(name);
        a.pieces.push({at: name, unit: "BG", leader: "commander"});
        a.tent = name;
      } else if (pc && pc.side === sd) {
        pc.piece.leader = tool.leader;
      } else {
        removePiece(name);
        a.pieces.push({at: name, leader: tool.leader});
      }
    } else if (tool.kind === "blocks") {
      if (pc && pc.piece.unit) {
        const full = (palette.units.find((u) => u.code === pc.piece.unit) || {blocks: 4}).blocks;
        const now = pc.piece.blocks || full;
        if (now > 1) pc.piece.blocks = now - 1; else delete pc.piece.blocks;
      }
    } else if (tool.kind === "tent") {
      if (a.tent === name) delete a.tent; else { removeTerrain(name); a.tent = name; }
    } else if (tool.kind === "exit") {
      const ex = a.exits || [];
      a.exits = ex.includes(name) ? ex.filter((x) => x !== name) : [...ex, name];
      if (!a.exits.length) delete a.exits;
    } else if (tool.kind === "objective") {
      const objs = design.objective || [];
      if (objs.some((o) => o.hexes.includes(name))) {
        for (const o of objs) o.hexes = o.hexes.filter((x) => x !== name);
        design.objective = objs.filter((o) => o.hexes.length);
      } else {
        objs.push({name: `Objective ${name}`, hexes: [name], side: "both", banners: 1, kind: "temporary"});
        design.objective = objs;
      }
      if (!design.objective.length) delete design.objective;
    } else if (tool.kind === "erase") {
      removeTerrain(name);
      removePiece(name);
      for (const sd2 of ["red", "blue"]) {
        if (!design[sd2]) continue;
        if (design[sd2].tent === name) delete design[sd2].tent;
        if (design[sd2].exits) design[sd2].exits = design[sd2].exits.filter((x) => x !== name);
      }
      if (design.objective) {
        for (const o of design.objective) o.hexes = o.hexes.filter((x) => x !== name);
        design.objective = design.objective.filter((o) => o.hexes.length);
      }
    }
  });
}

function drawPalette() {
  const btn = (label, t) => h("button", {type: "button", "data-tool": `${t.kind}:${t.slug || t.code || t.leader || ""}`,
    onclick: (ev) => {
      tool = t;
      for (const b of document.querySelectorAll("#ed-palette button")) b.classList.remove("on");
      ev.currentTarget.classList.add("on");
    }}, label);
  $("ed-palette").replaceChildren(
    h("h4", {}, "Terrain"),
    ...palette.terrain.map((t) => btn(t.name, {kind: "terrain", slug: t.slug})),
    h("h4", {}, "Units (of the side chosen)"),
    ...palette.units.map((u) => btn(`${u.code} · ${u.name}`, {kind: "unit", code: u.code})),
    btn("Reduce a unit's blocks", {kind: "blocks"}),
    h("h4", {}, "Leaders"),
    btn("Foot Leader", {kind: "leader", leader: "foot"}),
    btn("Mounted Leader", {kind: "leader", leader: "mounted"}),
    btn("Army Commander (bodyguards, tent)", {kind: "leader", leader: "commander"}),
    h("h4", {}, "Victory"),
    btn("Command tent", {kind: "tent"}),
    btn("Exit hex (baseline)", {kind: "exit"}),
    btn("Objective hex (banners)", {kind: "objective"}),
    h("h4", {}, ""),
    btn("Eraser", {kind: "erase"}),
  );
}

// ------------------------------------------------------------------ the notes
function field(label, get, set, type = "text", extra = {}) {
  const v = get();
  const input = type === "textarea" ? h("textarea", {rows: 5, ...extra}, v ?? "")
    : h("input", {type, value: v ?? "", ...extra});
  if (type === "checkbox") input.checked = !!v;
  input.addEventListener("change", () => change(() => {
    let val = type === "checkbox" ? input.checked : input.value;
    if (type === "number") val = input.value === "" ? null : Number(input.value);
    set(val);
  }));
  return h("label", {}, label, " ", input);
}

function choice(label, options, get, set) {
  const sel = h("select", {}, ...options.map((o) => h("option", {value: o, selected: get() === o}, o)));
  sel.addEventListener("change", () => change(() => set(sel.value)));
  return h("label", {}, label, " ", sel);
}

function drawForm() {
  const m = design.scenario = design.scenario || {};
  const put = (obj, k) => (v) => { if (v === null || v === "") delete obj[k]; else obj[k] = v; };
  const rules = () => (design.rules = design.rules || {});
  const armyBox = (sd) => {
    const a = army(sd);
    return h("fieldset", {}, h("legend", {}, sd === "red" ? "Red" : "Blue"),
      field("Command cards", () => a.command, put(a, "command"), "number", {min: 1, max: 12, name: `${sd}-command`}),
      field("Dragon cards", () => a.dragon, put(a, "dragon"), "number", {min: 0, max: 10, name: `${sd}-dragon`}),
      field("Honor & Fortune", () => a.honor, put(a, "honor"), "number", {min: 0, max: 30, name: `${sd}-honor`}));
  };
  const objectives = (design.objective || []).map((o, i) => h("fieldset", {}, h("legend", {}, `Objective ${o.hexes.join(" ")}`),
    field("Name", () => o.name, put(o, "name"), "text", {name: `objective-${i}-name`}),
    choice("For", ["both", "red", "blue"], () => o.side, put(o, "side")),
    field("Banners", () => o.banners, put(o, "banners"), "number", {min: 1, max: 10}),
    choice("Kind", ["temporary", "permanent"], () => o.kind, put(o, "kind"))));
  $("ed-form").replaceChildren(
    field("Name", () => m.name, put(m, "name"), "text", {name: "name"}),
    field("Id (for the command line)", () => m.id, put(m, "id"), "text", {name: "id"}),
    field("Year", () => m.year, put(m, "year"), "number", {name: "year"}),
    field("Historical", () => m.historical ?? true, put(m, "historical"), "checkbox", {name: "historical"}),
    field("Historical note", () => m.note, put(m, "note"), "textarea", {name: "note"}),
    field("Red's name", () => m.red_name, put(m, "red_name"), "text", {name: "red_name"}),
    field("Blue's name", () => m.blue_name, put(m, "blue_name"), "text", {name: "blue_name"}),
    choice("At the bottom", ["red", "blue"], () => m.bottom, put(m, "bottom")),
    choice("Moves first", ["red", "blue"], () => m.first, put(m, "first")),
    field("Banners to win", () => m.victory_banners, put(m, "victory_banners"), "number", {min: 1, max: 20, name: "victory_banners"}),
    armyBox("red"), armyBox("blue"),
    h("fieldset", {}, h("legend", {}, "Special rules"),
      field("Banners for taking a tent", () => (design.rules || {}).tent_banners, (v) => put(rules(), "tent_banners")(v), "number", {min: 0}),
      field("Banners per unit exiting", () => (design.rules || {}).exit_banners, (v) => put(rules(), "exit_banners")(v), "number", {min: 0}),
      choice("Order One Unit banner (Nagashino)", ["", "red", "blue"], () => (design.rules || {}).order_one_banner || "",
        (v) => put(rules(), "order_one_banner")(v)),
      field("Notes to the players (one a line)", () => ((design.rules || {}).notes || []).join("\n"),
        (v) => put(rules(), "notes")(v ? v.split("\n").filter((x) => x.trim()) : null), "textarea")),
    ...objectives,
  );
  if (design.rules && !Object.keys(design.rules).length) delete design.rules;
}

// ------------------------------------------------------------------ files, designs, play
async function loadEdition(edition, fresh) {
  palette = await api("GET", `/api/editor/palette?edition=${edition}`);
  $("ed-edition").value = edition;
  drawPalette();
  tool = null;
  if (fresh) {
    design = palette.template.design;
    undo.length = 0; redo.length = 0;
  } else {
    design.scenario = design.scenario || {};
    if (edition === "gmt") delete design.scenario.edition; else design.scenario.edition = edition;
  }
  refresh();
}

async function openText(text, name) {
  const res = await api("POST", "/api/editor/check", {text, name});
  if (!res.design) { last = res; showProblems(); return; }
  const edition = (res.design.scenario && res.design.scenario.edition) || "gmt";
  if (edition !== palette.edition) await loadEdition(edition, false);
  undo.push(clone(design)); redo.length = 0;
  design = res.design;
  refresh();
}

async function refreshDesigns() {
  const {designs} = await api("GET", "/api/editor/designs");
  $("ed-designs").replaceChildren(h("option", {value: ""}, "Saved designs…"),
    ...designs.map((d) => h("option", {value: d.id}, d.name)));
}

function wire() {
  $("ed-edition").addEventListener("change", () => loadEdition($("ed-edition").value, true));
  $("ed-new").addEventListener("click", () => loadEdition($("ed-edition").value, true));
  $("ed-clear").addEventListener("click", () => change(() => {  // one step: undo brings the board back
    delete design.terrain;
    delete design.objective;
    for (const sd of ["red", "blue"]) {
      const a = army(sd);
      a.pieces = [];
      delete a.tent;
      delete a.exits;
    }
  }));
  const doUndo = () => { if (undo.length) { redo.push(clone(design)); design = undo.pop(); refresh(); } };
  const doRedo = () => { if (redo.length) { undo.push(clone(design)); design = redo.pop(); refresh(); } };
  $("ed-undo").addEventListener("click", doUndo);
  $("ed-redo").addEventListener("click", doRedo);
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || ["INPUT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
    if (e.key === "z") { e.preventDefault(); doUndo(); }
    if (e.key === "y") { e.preventDefault(); doRedo(); }
  });
  $("ed-problems").addEventListener("mouseover", (e) => {
    const hex = e.target.dataset && e.target.dataset.hex;
    for (const p of document.querySelectorAll("#ed-board .hex")) p.style.strokeWidth = p.dataset.hex === hex ? 6 : "";
  });
  $("ed-download").addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([last.text], {type: "text/plain"}));
    const a = h("a", {href: url, download: `${(design.scenario && design.scenario.id) || "scenario"}.toml`});
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  $("ed-import").addEventListener("change", async () => {
    const f = $("ed-import").files[0];
    if (f) await openText(await f.text(), f.name);
  });
  $("ed-save").addEventListener("click", async () => {
    let id = sessionStorage.getItem("kassen-design");
    if (!id) { id = browserId().slice(0, 8) + Date.now().toString(36); sessionStorage.setItem("kassen-design", id); }
    await api("PUT", `/api/editor/designs/${id}`, {name: (design.scenario && design.scenario.name) || "untitled", text: last.text});
    await refreshDesigns();
    $("ed-designs").value = id;
    $("ed-status").textContent += " · saved";
  });
  $("ed-designs").addEventListener("change", async () => {
    const id = $("ed-designs").value;
    if (!id) return;
    const d = await api("GET", `/api/editor/designs/${id}`);
    sessionStorage.setItem("kassen-design", id);
    await openText(d.text, `${d.name}.toml`);
  });
  $("ed-delete").addEventListener("click", async () => {
    const id = $("ed-designs").value;
    if (!id) return;
    await api("DELETE", `/api/editor/designs/${id}`);
    sessionStorage.removeItem("kassen-design");
    await refreshDesigns();
  });
  $("ed-play").addEventListener("click", async () => {
    try {
      const g = await api("POST", "/api/editor/play", {text: last.text, seats: [$("ed-seat-red").value, $("ed-seat-blue").value]});
      $("ed-links").replaceChildren(...g.seats.map((st) => h("a", {href: st.url, target: "_blank", rel: "noopener",
        "data-seat": st.seat}, `${st.name} (${st.kind})`)), h("a", {href: g.watch.url, target: "_blank"}, "watch"));
    } catch (e) {
      $("ed-links").replaceChildren(h("p", {class: "ed-error"}, e.message));
    }
  });
}

// ------------------------------------------------------------------ how balanced?
function balanceNote(b) {  // as the lobby shows a shipped battle's report (app.js balanceNote)
  const pct = (x) => `${Math.round(100 * x)}%`;
  const wins = Object.entries(b.win_rate).map(([sd, w]) =>
    `${sd} won ${w.wins} (95%: ${pct(w.ci95[0])}-${pct(w.ci95[1])})`).join(", ");
  const rest = [b.draws ? `${b.draws} drawn` : "", b.unfinished ? `${b.unfinished} unfinished` : ""].filter((x) => x);
  return h("div", {class: "balance-note", id: "ed-balance-note", title: b.command},
    `AI self-play (${b.players.join(" vs ")}), ${b.games} games, ${b.date}: ${wins}`
    + (rest.length ? `, ${rest.join(", ")}` : "") + ". ",
    h("a", {href: b.plot, target: "_blank", rel: "noopener"}, "Plot"));
}

let balanceTimer = null;

async function howBalanced() {
  const games = Number($("ed-bal-games").value);
  const result = $("ed-bal-result");
  result.replaceChildren();
  clearTimeout(balanceTimer);
  let job;
  try {
    job = await api("POST", "/api/editor/balance", {text: last.text, games, players: [$("ed-bal-red").value, $("ed-bal-blue").value]});
  } catch (e) {
    $("ed-bal-progress").hidden = true;
    result.replaceChildren(h("p", {class: "ed-error"}, e.message));
    return;
  }
  $("ed-balance").disabled = true;
  const show = (j) => {
    $("ed-bal-progress").hidden = false;
    $("ed-bal-bar").max = j.games;
    $("ed-bal-bar").value = j.done;
    $("ed-bal-count").textContent = `${j.done} of ${j.games} games played`;
  };
  show(job);
  const poll = async () => {
    try {
      job = await api("GET", `/api/editor/balance/${job.id}`);
    } catch (e) {
      $("ed-balance").disabled = false;
      result.replaceChildren(h("p", {class: "ed-error"}, e.message));
      return;
    }
    show(job);
    if (job.state === "running") { balanceTimer = setTimeout(poll, 1000); return; }
    $("ed-balance").disabled = false;
    if (job.state === "failed") { result.replaceChildren(h("p", {class: "ed-error"}, job.error)); return; }
    result.replaceChildren(balanceNote(job.figure),
      h("img", {src: job.figure.plot, id: "ed-balance-plot", alt: `win rates of ${job.figure.games} games`}));
  };
  balanceTimer = setTimeout(poll, 500);
}

async function main() {
  wire();
  $("ed-balance").addEventListener("click", howBalanced);
  const cat = await api("GET", "/api/catalog");
  for (const [sel, dflt] of [["ed-seat-red", "human"], ["ed-seat-blue", "normal"]]) {
    $(sel).replaceChildren(...cat.players.map((p) => h("option", {value: p.id, selected: p.id === dflt}, p.id)));
  }
  for (const sel of ["ed-bal-red", "ed-bal-blue"]) {
    $(sel).replaceChildren(...cat.players.filter((p) => p.id !== "human").map((p) =>
      h("option", {value: p.id, selected: p.id === "greedy"}, p.id)));
  }
  await loadEdition("gmt", true);
  await refreshDesigns();
}

main().catch((e) => { $("ed-status").textContent = `the editor failed to start: ${e.message}`; });
