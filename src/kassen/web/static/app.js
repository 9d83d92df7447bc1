// The page: the lobby, and the game screen that drives any game through the JSON API.
// Per-game drawing lives in views/<name>.js (views/cc.js for the C&C boards,
// views/generic.js for every other game).
import {ApiError, api, diceRow, fill, h, humanize, sideClass} from "./common.js";
import {concedeButton} from "./concede.js";
import {primerButton} from "./primer.js";
import {guide, guideLobbyButton} from "./guide.js";
import {recordShown} from "./views/playback.js";

const app = document.getElementById("app");
const titleEl = document.getElementById("title");
const liveEl = document.getElementById("live");
const tooltipEl = document.getElementById("tooltip");
const helpDlg = document.getElementById("help");
document.getElementById("help-btn").addEventListener("click", () => helpDlg.showModal());

// ---------------------------------------------------------------- my games
const STORE_KEY = "kassen.games";
const myGames = {
  list() {
    try { return JSON.parse(localStorage.getItem(STORE_KEY) || "[]"); } catch (e) { return []; }
  },
  save(list) { localStorage.setItem(STORE_KEY, JSON.stringify(list)); },
  add(entry) {
    const list = this.list().filter((g) => !(g.game_id === entry.game_id && g.token === entry.token));
    list.unshift({...entry, added: Date.now()});
    this.save(list.slice(0, 50));
  },
  forget(token) { this.save(this.list().filter((g) => g.token !== token)); },
  token(gameId) { const e = this.list().find((g) => g.game_id === gameId); return e ? e.token : null; },
};

function showError(where, err) {
  const msg = err instanceof ApiError || err instanceof Error ? err.message : String(err);
  fill(where, h("div", {class: "error", role: "alert"}, msg));
}

// ------------------------------------------------------------------- lobby
async function lobby() {
  titleEl.textContent = "Lobby";
  liveEl.textContent = "";
  const errBox = h("div");
  fill(app, h("div", {class: "lobby"}, errBox));
  let cat;
  try { cat = await api("/api/catalog"); } catch (e) { showError(errBox, e); return; }
  const wrap = app.firstChild;

  // quick start
  const intro = cat.games.find((g) => g.default) || cat.games[0];
  const quick = h("button", {class: "primary big", id: "quick-start", onclick: () => start(
    intro.id, intro.default_scenario, ["human", ...intro.seats.slice(1).map(() => "normal")])},
  "Play a battle against the AI");
  const guided = guideLobbyButton(intro, (ruleset, scenario, seats) => start(ruleset, scenario, seats));
  wrap.append(h("section", {class: "panel wide"},
    h("h2", {}, "Kassen: Sengoku battles with every rule enforced"),
    h("p", {}, "Start at once with the introductory battle (you command Red, the AI commands Blue), ",
      "or set up any battle below. Every game is saved as it is played."),
    quick, " ", guided));

  // new game form
  const gameSel = h("select", {id: "ruleset"}, ...cat.games.map((g) => h("option", {value: g.id}, g.name)));
  const scenSel = h("select", {id: "scenario"});
  const note = h("div", {class: "scen-note", id: "scenario-note"});
  const balance = h("div", {class: "scen-note"});
  const seatsBox = h("div", {id: "seats"});
  const links = h("div");
  const createBtn = h("button", {class: "primary", id: "create"}, "Start this battle");
  const cur = () => cat.games.find((g) => g.id === gameSel.value);
  function fillScen() {
    const g = cur();
    fill(scenSel, ...g.scenarios.map((sc) => h("option", {value: sc.id},
      sc.name + (sc.year ? ` (${sc.year})` : ""))));
    scenSel.value = g.default_scenario || (g.scenarios[0] && g.scenarios[0].id) || "";
    fillNote();
  }
  function fillNote() {
    const g = cur();
    const sc = g.scenarios.find((x) => x.id === scenSel.value);
    const sides = sc ? sc.sides : g.seats;
    fill(note, sc ? h("span", {}, sc.note || "", sc.banners ? ` Victory: ${sc.banners} banners.` : "") : "");
    fill(balance, sc ? balanceNote(sc.balance) : null);  // below the note, always in sight
    // a game whose decisions are the table's own facts (Kensei) is played by people only
    const offered = g.people_only ? cat.players.filter((p) => p.id === "human") : cat.players;
    fill(seatsBox, ...g.seats.map((seat, i) => h("div", {class: "seat-row"},
      h("span", {class: sideClass(seat)}, `${seat}${sides && sides[i] && sides[i] !== seat ? ` (${sides[i]})` : ""}`),
      h("select", {"data-seat": i, "aria-label": `${seat} player`},
        ...offered.map((p) => h("option", {value: p.id, selected: p.id === (i === 0 ? "human" : g.default_opponent || "normal")},
          p.id === "human" ? "Human" : `AI: ${p.text} (${p.id})`))))),
    g.people_only ? h("p", {class: "muted", id: "people-only"}, "Every seat is a person at the table: the page asks ",
      "the players the table's facts (which miniatures touch, whether a charge reached), which no computer seat can see.") : null);
  }
  function balanceNote(b) {  // the shipped AI self-play report of the battle (kassen balance)
    if (!b) return null;
    const pct = (x) => `${Math.round(100 * x)}%`;
    // counts, not rounded rates: 129 and 71 of 200 read right where 65% and 36% seem to make 101%
    const wins = Object.entries(b.win_rate).map(([side, w]) =>
      `${side} won ${w.wins} (95%: ${pct(w.ci95[0])}-${pct(w.ci95[1])})`).join(", ");
    return h("div", {class: "balance-note", id: "balance-note", title: b.command},
      `AI self-play (${b.players.join(" vs ")}), ${b.games} games, ${b.date}: ${wins}. `,
      b.plot ? h("a", {href: b.plot, target: "_blank", rel: "noopener"}, "Plot") : null);
  }
  gameSel.addEventListener("change", fillScen);
  scenSel.addEventListener("change", fillNote);
  fillScen();
  createBtn.addEventListener("click", () => start(gameSel.value, scenSel.value || null,
    [...seatsBox.querySelectorAll("select")].map((x) => x.value), links));
  wrap.append(h("section", {class: "panel"}, h("h2", {}, "New battle"),
    h("label", {for: "ruleset"}, "Game"), gameSel,
    h("label", {for: "scenario"}, "Battle"), scenSel, note, balance,
    h("label", {}, "Seats"), seatsBox, h("p", {}, createBtn), links));

  // join
  const joinIn = h("input", {type: "text", id: "join-link", placeholder: "paste the link you were sent"});
  const joinErr = h("div");
  wrap.append(h("section", {class: "panel"}, h("h2", {}, "Join by link"), joinIn,
    h("p", {}, h("button", {onclick: () => {
      const m = /\/game\/([0-9a-f]+)#(.+)$/.exec(joinIn.value.trim());
      if (!m) { showError(joinErr, "That is not a game link: it looks like …/game/<id>#<token>"); return; }
      location.href = `/game/${m[1]}#${m[2]}`;
    }}, "Join")), joinErr));

  // my games
  const tbody = h("tbody");
  wrap.append(h("section", {class: "panel wide"}, h("h2", {}, "My games"),
    h("table", {class: "mygames"}, h("thead", {}, h("tr", {}, h("th", {}, "Battle"), h("th", {}, "You"),
      h("th", {}, "State"), h("th", {}, ""))), tbody)));
  const mine = myGames.list();
  if (!mine.length) tbody.append(h("tr", {}, h("td", {colspan: 4, class: "muted"}, "No games yet on this browser.")));
  for (const g of mine) {
    const state = h("td", {class: "muted"}, "…");
    tbody.append(h("tr", {}, h("td", {}, g.title || g.game_id), h("td", {class: sideClass(g.seat_name)}, g.seat_name || ""),
      state, h("td", {}, h("a", {href: `/game/${g.game_id}#${g.token}`}, "Resume"), " ",
        h("button", {onclick: () => { myGames.forget(g.token); lobby(); }}, "Forget"))));
    api(`/api/games/${g.game_id}?since=999999`, {token: g.token}).then((v) => {
      state.textContent = v.result ? (v.result.winner_name ? `${v.result.winner_name} won` : "draw")
        : v.your_turn ? "your move" : `${v.to_move_name || "…"} to move`;
    }).catch((e) => { state.textContent = e.message; });
  }

  async function start(ruleset, scenario, seats, linksBox) {
    try {
      const g = await api("/api/games", {method: "POST", body: {ruleset, scenario, seats}});
      const humans = g.seats.filter((x) => x.kind === "human");
      const title = `${cat.games.find((x) => x.id === ruleset).name}: ${scenario || "introductory battle"}`;
      for (const x of humans.slice(0, 1)) myGames.add({game_id: g.game_id, token: x.token, seat_name: x.name, title});
      if (!humans.length) {  // computers only: watch them as a spectator (no hand shown)
        myGames.add({game_id: g.game_id, token: g.watch.token, seat_name: "spectator", title});
        location.href = g.watch.url;
        return;
      }
      if (humans.length === 1 || !linksBox) {
        location.href = humans[0].url;
        return;
      }
      fill(linksBox, h("h3", {}, "Send each player their link (keep yours secret)"),
        h("ul", {class: "links"}, ...humans.map((x) => h("li", {},
          h("b", {class: sideClass(x.name)}, x.name), ": ",
          h("a", {href: x.url, class: "seat-link"}, new URL(x.url, location.href).href))),
          h("li", {}, h("b", {}, "Spectators"), " (see no hand): ",
            h("a", {href: g.watch.url, class: "watch-link"}, new URL(g.watch.url, location.href).href))),
        h("button", {class: "primary", onclick: () => { location.href = humans[0].url; }}, `Play ${humans[0].name} here`));
    } catch (e) { showError(linksBox || errBox, e); }
  }
}

/** "42.1%". */
const pct = (p) => `${(100 * p).toFixed(1)}%`;

/** The flag rows of an odds table (a lone Leader has none). */
function flagRows(o) {
  if (!o.flags || o.defender.type === "leader") return [];
  return Object.entries(o.flags).filter(([k]) => k !== "0").map(([k, p]) => h("tr", {class: "flag-row"},
    h("td", {}, `${k} flag${k === "1" ? "" : "s"}`), h("td", {}, pct(p)),
    h("td", {}, h("span", {class: "bar flag", style: `width:${Math.round(p * 120)}px`}))));
}

/** One line of odds for a decision inside a combat ("Battle back: 4 dice · hit 80% · …"). */
function oddsLine(label, o) {
  const lone = o.defender.type === "leader";
  return h("p", {class: "prompt-odds-line", "data-action": null, "data-odds-for": o.action},
    h("b", {}, `${label}: `), `${o.attacker.name} (${o.attacker.hex}) against ${o.defender.name} (${o.defender.hex}), `,
    `${o.dice} ${o.dice === 1 ? "die" : "dice"} · at least one hit ${pct(o.p_hit)}`,
    lone ? ` · kills the Leader ${pct(o.p_eliminated)}`
      : ` · hit or retreat ${pct(o.p_hit_or_retreat)} · eliminated ${pct(o.p_eliminated)} · expected hits ${o.expected_hits.toFixed(2)}`);
}

// -------------------------------------------------------------- game screen
/** How long the page waits before passing for a person at a reaction window: always the same,
 * whatever the hand, so the timing reveals nothing. */
const AUTO_PASS_MS = 900;
const AUTO_KEY = "kassen.autopass";
function autoPassPrefs() {
  try { return new Set(JSON.parse(localStorage.getItem(AUTO_KEY) || "[]")); } catch (e) { return new Set(); }
}
function setAutoPass(kind, on) {
  const s = autoPassPrefs();
  if (on) s.add(kind); else s.delete(kind);
  localStorage.setItem(AUTO_KEY, JSON.stringify([...s]));
}
const WINDOW_WORDS = {
  "with-command": "with your Command card", "after-enemy-command": "after the enemy's Command card",
  "movement": "during your movement", "declare": "when an enemy declares close combat",
  "before-roll": "before your roll", "after-roll": "after your roll", "after-enemy-roll": "after the enemy's roll",
  "before-back": "before battle back", "end": "at the end of your turn", "insult": "when the enemy moves a Leader",
  "enemy-success": "after an enemy's successful close combat",
};
/** A window kind in words: "cc-samurai:dragon:after-enemy-command" -> "Dragon cards after the enemy's Command card". */
function windowWords(kind) {
  const [, what, step] = kind.split(":");
  if (what === "dragon") return `Dragon cards ${WINDOW_WORDS[step] || step}`;
  if (what === "combat") {
    return {react: "First Strike or a Dragon card when attacked", prep: "Dragon cards before your roll",
      after_att: "Dragon cards after your roll", after_def: "Dragon cards after the enemy's roll",
      hollow: "Dragon cards when driven from a hex"}[step] || "Dragon cards in combat";
  }
  if (what === "end") return "Dragon cards at the end of your turn";
  return "this reaction window";
}

class GameScreen {
  constructor(gameId, token) {
    this.gameId = gameId;
    this.token = token;
    this.v = null;
    this.log = [];
    this.viewMod = null;
    this.pending = null; // attack proposed, waiting for confirmation
    this.replayStep = null;
    this.ownUpTo = -1;  // the history entries made by this page's own actions
    this.busy = false;
    this.showLog = true;
    this.applied = 0;  // views applied so far: a view asked for before one of them is stale
    this.staleBefore = 0;  // a view asked for before this count of views applied is dropped (an undo)
    this.loading = null;  // the view being asked for (one at a time)
  }

  async start() {
    fill(app, h("p", {class: "loading"}, "Loading the battle…"));
    try { await this.load(true); } catch (e) { if (!this.stopped) { showError(app, e); this.addLobbyLink(); } return; }
    if (this.stopped) return;
    myGames.add({game_id: this.gameId, token: this.token, seat_name: this.v.seat_name,
      title: `${this.v.game_name}: ${this.v.scenario_name || ""}`});
    this.connect();
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  /** Another seat's link was pasted in this tab: this screen lets go (live channel, keys, timers). */
  stop() {
    this.stopped = true;
    if (this.es) this.es.close();
    if (this.onKey) document.removeEventListener("keydown", this.onKey);
    clearTimeout(this.autoTimer);
    clearTimeout(this.msgTimer);
  }

  addLobbyLink() { app.append(h("p", {}, h("a", {href: "/"}, "Back to the lobby"))); }

  connect() {
    const es = new EventSource(`/api/games/${this.gameId}/events?token=${encodeURIComponent(this.token)}`);
    es.onopen = () => { liveEl.textContent = "● live"; };
    es.onerror = () => { liveEl.textContent = "○ reconnecting"; };
    es.onmessage = (m) => {
      let d = {};
      try { d = JSON.parse(m.data); } catch (e) { return; }
      if (!this.v || d.version !== this.v.version || d.ai_thinking !== this.v.ai_thinking) this.load(false);
    };
    this.es = es;
  }

  /** Ask for the view (the log since the one shown, or all of it when ``full``). One request at
   * a time: news that comes meanwhile asks again when it is answered, so an older answer never
   * lands after a newer one and takes the steps shown back. */
  load(full) {
    if (this.loading) {
      this.loadAgain = true;
      this.loadFull = this.loadFull || full;
      return this.loading;
    }
    this.loading = this.fetchView(full).finally(() => {
      this.loading = null;
      if (this.loadAgain && !this.stopped) {
        const again = this.loadFull;
        this.loadAgain = this.loadFull = false;
        this.load(again).catch(() => {});
      }
    });
    return this.loading;
  }

  async fetchView(full) {
    const since = full || !this.v ? 0 : this.v.version + 1;
    const asked = this.applied;
    const v = await api(`/api/games/${this.gameId}?since=${since}`, {token: this.token});
    // the answer to this page's own action came meanwhile with a newer view: this one is stale
    // (an older version with nothing applied meanwhile is an undo, taken in another tab)
    if (this.v && v.version < this.v.version && this.applied !== asked) return;
    if (asked < this.staleBefore) { this.loadAgain = true; return; }  // asked before an undo: ask again
    // what happened since the view shown, not by this page's own action: played out on the board
    // (a full view after a refused action too: its steps since the view shown are played)
    this.apply(v, this.v ? v.log.filter((e) => e.at > this.v.version && e.at > this.ownUpTo) : []);
  }

  apply(v, played = []) {
    if (this.stopped) return;
    if (v.log_since === 0) this.log = v.log;
    else this.log = this.log.filter((e) => e.at < v.log_since).concat(v.log);
    const changed = !this.v || this.v.version !== v.version;
    if (this.v && v.version < this.v.version) played = [];  // an undo: nothing to play out
    this.v = v;
    this.applied += 1;
    if (changed) this.pending = null;
    this.playEvents = (this.playEvents || []).concat(played);
    // the log does not tell ahead of the board: while the steps are shown it stops before them
    if (played.length && this.logUpTo == null) this.logUpTo = Math.min(...played.map((e) => e.at)) - 1;
    this.render();
  }

  async act(action) {
    if (this.busy) return;
    // an attack shows its exact odds first (games whose view has odds: C&C)
    if (this.v.view === "cc" && /^(attack|fire) /.test(action) && this.pending !== action) { this.propose(action); return; }
    const ask = this.pending !== action && this.confirmText(action);
    if (ask) { this.askConfirm(action, ask); return; }
    this.busy = true;
    this.pending = null;
    if (this.view && this.view.decided) this.view.decided();  // the last turn's trails and markers go
    try {
      const mine = this.v.version + 1;  // the history entry of this action
      const answering = this.answering();
      const v = await api(`/api/games/${this.gameId}/actions?since=${mine}`,
        {method: "POST", token: this.token, body: {action, at: this.v.version}});
      this.ownUpTo = Math.max(this.ownUpTo, mine);
      // a newer view may have come by the live channel while the answer was on its way: only
      // what is newer than the view shown is played out, never a step twice
      const fresh = v.log.filter((e) => e.at > this.v.version);
      // this action's own events are played out with what follows them: when the other side
      // went on before the answer was made, or when the action answered inside the other side's
      // turn (a pass at a reaction window rolls their attack's dice in this very step); the
      // board shown is from before it
      const play = answering || this.v.version >= mine || fresh.some((e) => e.at > mine);
      if (this.v.version < v.version) this.apply(v, play ? fresh : []);
    } catch (e) {
      if (e.status === 409) await this.load(true).catch(() => {});
      this.flash(e.message);
    } finally { this.busy = false; }
  }

  /** Whether a decision now answers inside the other side's turn (a reaction window, a retreat,
   * a battle back): what it leads to belongs to their turn and is played out like it. */
  answering() {
    const obs = this.v.observation || {};
    if (obs.active != null && obs.you != null) return obs.active !== obs.you;
    return this.windowKind(this.v) !== null;
  }

  /** The question to ask before an action that throws something away, or null. */
  confirmText(action) {
    const obs = this.v.observation || {};
    if (action === "done" && this.v.view === "cc" && Array.isArray(obs.orders) && obs.orders.length === 0) {
      return "You have ordered no unit or Leader. End ordering anyway? Your Command card's orders are lost this turn.";
    }
    if (/^concede\b/.test(action)) return "Concede the battle? Your side loses at once; this cannot be undone.";
    return null;
  }

  askConfirm(action, text) {
    this.pending = action;
    document.body.dataset.pending = action;
    fill(this.oddsBox, h("p", {id: "confirm-text"}, text),
      h("p", {}, h("button", {class: "primary", id: "confirm-action", onclick: () => this.act(action)}, "Yes (Enter)"),
        " ", h("button", {id: "confirm-cancel", onclick: () => this.cancel()}, "No (Esc)")));
    this.oddsBox.hidden = false;
  }

  async propose(action) {
    this.pending = action;
    fill(this.oddsBox, h("p", {class: "muted"}, `Odds of ${action}…`));
    this.oddsBox.hidden = false;
    let o = null;
    try { o = await api(`/api/games/${this.gameId}/odds?action=${encodeURIComponent(action)}`, {token: this.token}); }
    catch (e) { o = null; }
    if (this.pending !== action) return;
    const rows = o ? Object.entries(o.hits).map(([k, p]) => h("tr", {},
      h("td", {}, `${k} hit${k === "1" ? "" : "s"}`), h("td", {}, `${(p * 100).toFixed(1)}%`),
      h("td", {}, h("span", {class: "bar", style: `width:${Math.round(p * 120)}px`})))) : [];
    fill(this.oddsBox, 
      h("h3", {}, o ? `${o.kind === "close" ? "Attack" : "Fire"}: ${o.attacker.name} (${o.attacker.hex}) → ${o.defender.name} (${o.defender.hex})` : action),
      o ? h("p", {}, `${o.dice} ${o.dice === 1 ? "die" : "dice"}; at least one hit ${(o.p_hit * 100).toFixed(0)}%, `,
        o.defender.type === "leader" ? `kills the Leader ${(o.p_eliminated * 100).toFixed(1)}%`
          : `eliminates the ${o.defender.blocks}-block unit ${(o.p_eliminated * 100).toFixed(1)}%, expected hits ${o.expected_hits.toFixed(2)}`)
        : h("p", {}, "No odds for this action."),
      o && o.defender.type !== "leader" ? h("p", {id: "odds-retreat"}, `At least one flag ${pct(1 - (o.flags["0"] ?? 1))}; `,
        `a hit or a flag (hit or retreat) ${pct(o.p_hit_or_retreat)}`) : null,
      o ? h("table", {}, ...rows, ...flagRows(o)) : null,
      o ? h("p", {class: "muted"}, o.defender.type === "leader" ? `${o.note[0].toUpperCase()}${o.note.slice(1)}.` : `Odds ${o.note}.`) : null,
      h("div", {class: "actions"},
        h("button", {class: "primary", id: "confirm-attack", onclick: () => this.act(action)}, "Attack! (Enter)"),
        h("button", {onclick: () => this.cancel()}, "Cancel (Esc)")));
    document.body.dataset.pending = action;
  }

  cancel() {
    this.pending = null;
    document.body.dataset.pending = "";
    if (this.oddsBox) this.oddsBox.hidden = true;
    if (this.view && this.view.cancel) this.view.cancel();
  }

  async undo() {
    if (!this.v || !this.v.undo.possible) { if (this.v) this.flash(this.v.undo.text); return; }
    try {
      const v = await api(`/api/games/${this.gameId}/undo`, {method: "POST", token: this.token});
      this.apply(v);
      this.staleBefore = this.applied;  // a view asked for before the undo shows the steps undone
      this.flash(`Undone: ${v.undone.join(", ")}`, true);
    } catch (e) { this.flash(e.message); }
  }

  flash(msg, ok = false) {
    if (!this.msgBox) return;
    fill(this.msgBox, h("div", {class: ok ? "panel" : "error", role: "alert"}, msg));
    clearTimeout(this.msgTimer);
    this.msgTimer = setTimeout(() => fill(this.msgBox, ), 6000);
  }

  key(e) {
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (helpDlg.open) return;
    if (e.key === "?") { helpDlg.showModal(); e.preventDefault(); return; }
    if (e.key === "Escape") { this.cancel(); return; }
    if (e.key === "Enter" && this.pending) { e.preventDefault(); this.act(this.pending); return; }
    if (e.key === "u") { this.undo(); return; }
    if (e.key === "l") { this.showLog = !this.showLog; this.render(); return; }
    if (/^[1-9]$/.test(e.key) && this.numbered) {
      const a = this.numbered[Number(e.key) - 1];
      if (a) this.act(a);
    }
  }

  async ensureView(name) {
    if (!this.viewMod || this.viewName !== name) {
      this.viewMod = await import(`./views/${name}.js`);
      this.viewName = name;
    }
    return this.viewMod;
  }

  async render() {
    if (this.stopped) return;
    const v = this.v;
    const mod = await this.ensureView(v.view);
    if (this.stopped) return;  // another seat's link was pasted meanwhile
    titleEl.textContent = `${v.game_name}: ${v.scenario_name || ""} — ${v.watching ? "watching" : `you are ${v.seat_name}`}`;
    document.body.dataset.version = String(v.version);
    document.body.dataset.pending = this.pending || "";
    if (!this.root) this.build(mod);
    const replaying = this.replayStep !== null;
    const obs = replaying ? this.replayObs : v.observation;
    const events = replaying ? (this.replayPlay || []) : (this.playEvents || []);
    this.playEvents = [];
    this.replayPlay = [];
    // the seat's log before these steps: a combat they roll dice for may have been declared there
    const first = events.length ? Math.min(...events.map((e) => e.at)) : null;
    const prior = first === null ? [] : this.log.filter((e) => e.at < first);
    this.view.render({obs, actions: replaying ? [] : v.actions.map((a) => a.action), view: v, replaying, events, prior});
    // while the other side's turn is played out, the decision waits for it
    const showing = !!(this.view.playing && this.view.playing());
    const actions = replaying || showing ? [] : v.actions.map((a) => a.action);
    document.body.dataset.yourTurn = String(v.your_turn && !showing);
    if (v.your_turn && !showing && !replaying && this.openedAt !== v.version) {  // for a test that asks
      this.openedAt = v.version;
      recordShown({what: "decision", version: v.version});
    }
    // status
    const pend = v.observation && v.observation.pending;
    const react = v.your_turn && v.actions.some((a) => a.action.startsWith("dragon ") || a.action === "first-strike");
    const status = [];
    const replayingNow = this.replayStep !== null;
    if (replayingNow) {  // the status of the replayed moment, not of the end
      status.push(h("span", {class: "prompt", id: "prompt"},
        `Replay: after action ${this.replayStep} of ${v.version}`,
        this.replayAction ? h("span", {class: "muted"}, ` — ${this.replayAction}`) : ""));
    } else if (v.result) {
      status.push(h("span", {class: "result", id: "result"},
        v.result.winner_name ? `${v.result.winner_name} wins (${v.result.reason})` : `Draw (${v.result.reason})`,
        v.watching ? "" : v.result.winner === v.seat ? " — Victory!" : v.result.winner !== null ? " — Defeat." : ""));
    } else if (showing) {
      status.push(h("span", {class: "prompt", id: "prompt"}, "The other side's turn, on the board…"));
    } else if (v.your_turn) {
      status.push(h("span", {class: `prompt mine${react ? " react" : ""}`, id: "prompt"}, v.prompt || "Your move"));
    } else {
      status.push(h("span", {class: "prompt", id: "prompt"},
        v.ai_thinking ? `${v.to_move_name} (AI${v.ai_level ? `: ${v.ai_level}` : ""}) is thinking… ` : `Waiting for ${v.to_move_name || "…"}: `,
        h("span", {class: "muted"}, v.prompt || (pend && pend.prompt) || "")));
    }
    status.push(h("button", {id: "undo", disabled: !v.undo.possible, title: v.undo.text,
      onclick: () => this.undo()}, "Undo (u)"));
    status.push(concedeButton(this), primerButton(this));
    // why undo is refused, in words (not only in the button's tooltip)
    if (!v.undo.possible && v.undo.text && !v.watching && !v.result && /^Undo cannot/.test(v.undo.text)) {
      status.push(h("span", {class: "muted", id: "undo-why"}, v.undo.text));
    }
    // while replaying, the log stops at the replayed step
    if (!showing) this.logUpTo = null;
    const shownLog = replayingNow ? this.log.filter((e) => e.at <= this.replayStep)
      : this.logUpTo != null ? this.log.filter((e) => e.at <= this.logUpTo) : this.log;
    const lastRoll = [...shownLog].reverse().find((e) => Array.isArray(e.data.faces));
    if (lastRoll) status.push(h("span", {class: "lastroll", id: "last-roll"}, "Last roll:", diceRow(lastRoll.data.faces)));
    fill(this.statusBox, ...status);

    // the view draws the board and cards

    // actions panel
    const claimed = replaying ? new Set() : this.view.claims(actions);
    const buttons = showing ? [] : v.actions.filter((a) => !claimed.has(a.action));
    this.numbered = buttons.slice(0, 9).map((a) => a.action);
    const groups = new Map();
    for (const a of buttons) {
      const k = a.action.split(" ")[0];
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(a);
    }
    const btn = (a) => {
      const i = this.numbered.indexOf(a.action);
      return h("button", {"data-action": a.action, onclick: () => this.act(a.action)},
        i >= 0 ? h("span", {class: "num"}, String(i + 1)) : null,
        (this.view.label && this.view.label(a.action)) || humanize(a.action, a.text));
    };
    const items = [];
    for (const [k, list] of groups) {
      if (list.length > 12) items.push(h("details", {}, h("summary", {}, `${k} … (${list.length})`), h("div", {}, ...list.map(btn))));
      else items.push(...list.map(btn));
    }
    const all = actions.length && claimed.size ? h("details", {class: "all-actions"},
      h("summary", {}, `All ${actions.length} legal actions`), h("div", {}, ...v.actions.map(btn))) : null;
    fill(this.actionsBox, 
      h("h2", {}, v.your_turn && !showing ? "Your decision" : "Actions"),
      showing ? h("p", {class: "muted", id: "showing-note"}, "The other side's moves are being shown on the board ",
        "(pace, pause and skip above the board).")
        : v.your_turn ? (this.view.hint ? h("p", {class: "muted"}, this.view.hint(actions)) : null)
        : h("p", {class: "muted"}, v.result ? "The battle is over." : "Not your move: the board updates by itself."),
      h("div", {class: "actions", id: "actions"}, ...items), all);
    this.oddsBox.hidden = !this.pending;

    this.autoPass(v, replaying || showing);
    if (!replaying && !showing) this.promptOdds(v, actions);

    // log
    this.logBox.hidden = !this.showLog;
    const logItems = [];
    for (const e of shownLog) {
      const cls = e.kind === "turn" ? "turn" : Array.isArray(e.data.faces) ? "roll"
        : ["banner", "victory", "eliminated", "leader_killed", "seppuku"].includes(e.kind) ? "big-event" : "";
      logItems.push(h("p", {class: cls, "data-kind": e.kind}, e.text, Array.isArray(e.data.faces) ? diceRow(e.data.faces) : null));
    }
    const scroll = this.logList.scrollTop + this.logList.clientHeight >= this.logList.scrollHeight - 20;
    fill(this.logList, ...logItems);
    if (scroll || !this.logScrolled) { this.logList.scrollTop = this.logList.scrollHeight; this.logScrolled = true; }

    // the AI's turns explained (a toggle, remembered): its plan and estimate after each turn
    const plans = v.ai_plans || [];
    this.plansBox.hidden = !plans.length && !v.seats.some((s) => ["easy", "normal", "hard"].includes(s.kind));
    const explain = localStorage.getItem("kassen.explain") === "1";
    fill(this.plansBox, h("label", {}, h("input", {type: "checkbox", id: "explain-toggle", checked: explain,
      onchange: (e) => { localStorage.setItem("kassen.explain", e.target.checked ? "1" : "0"); this.render(); }}),
    " Explain the AI's turns"),
    explain ? h("div", {class: "log", id: "ai-plans"}, ...(plans.length ? plans.slice().reverse().map((p) =>
      h("p", {}, h("strong", {}, `${p.name}: `), p.text)) : [h("p", {class: "muted"}, "After the AI's next turn, its plan shows here.")])) : null);

    // replay
    if (v.result) this.renderReplay(); else this.replayBox.hidden = true;
    guide(this);  // the guided first battle's coach panel (guide.js)
  }

  /** On a decision inside a combat (inspiration, First Strike, a Dragon card's window, battle
   * back), the odds of the combat each choice leads to, with the dice as they stand now. */
  async promptOdds(v, actions) {
    const p = (v.observation && v.observation.pending) || {};
    if (v.view !== "cc" || !v.your_turn || p.decision !== "combat") return;
    const asked = actions.filter((a) => /^(battle-back|inspire|no-inspire|first-strike)\b/.test(a) || a === "pass");
    if (!asked.length) return;
    const box = h("div", {id: "prompt-odds", class: "prompt-odds"}, h("h3", {}, "The odds"));
    this.actionsBox.append(box);
    const label = (a) => (this.view.label && this.view.label(a)) || humanize(a);
    const key = `${v.version}`;
    this.oddsCache = this.oddsCache && this.oddsCache.key === key ? this.oddsCache : {key, odds: {}};
    for (const a of asked) {
      let o = this.oddsCache.odds[a];
      if (o === undefined) {
        try { o = await api(`/api/games/${this.gameId}/odds?action=${encodeURIComponent(a)}`, {token: this.token}); }
        catch (e) { o = null; }
        this.oddsCache.odds[a] = o;
      }
      if (!this.v || this.v.version !== v.version || !box.isConnected) return;
      const passText = ["react", "after_def", "hollow"].includes(p.step) ? "If you pass, the attack on you"
        : "Your attack as it stands";
      if (o) box.append(oddsLine(a === "pass" ? passText : label(a), o));
    }
  }

  /** The kind of reaction window the seat is at ("cc:dragon:declare", "cc:combat:react"), or
   * null: a decision where passing is legal and every other action plays a card. */
  windowKind(v) {
    const acts = v.actions.map((a) => a.action);
    if (!v.your_turn || !acts.includes("pass")) return null;
    if (!acts.every((a) => a === "pass" || /^(dragon|first-strike)\b/.test(a))) return null;
    const p = (v.observation && v.observation.pending) || {};
    const kind = p.decision === "dragon" ? `dragon:${p.w || ""}` : p.decision ? `${p.decision}:${p.step || ""}` : "window";
    return `${v.ruleset}:${kind}`;
  }

  /** Pass by itself where passing is the seat's only legal action at a reaction window, or where
   * the person asked never to be asked at this kind of window; always after the same fixed delay
   * (AUTO_PASS_MS), so the moment the window closes tells the other side nothing about the hand. */
  autoPass(v, replaying) {
    const kind = replaying || v.result ? null : this.windowKind(v);
    const only = kind && v.actions.length === 1;
    const prefs = autoPassPrefs();
    const wanted = kind && (only || prefs.has(kind)) && !this.autoPassCancelled?.has(`${kind}@${v.version}`);
    if (kind) {  // the preference, offered at every window of that kind
      this.actionsBox.append(h("p", {class: "autopass"}, h("label", {},
        h("input", {type: "checkbox", id: "autopass-pref", "data-kind": kind, checked: prefs.has(kind),
          onchange: (e) => { setAutoPass(kind, e.target.checked); this.render(); }}),
        ` Never ask me here (${windowWords(kind)}): pass automatically`)));
    }
    if (!wanted) { clearTimeout(this.autoTimer); this.autoAt = null; return; }
    this.actionsBox.append(h("p", {class: "muted", id: "autopass-note"},
      only ? "No card of yours can be played here: passing for you in a moment."
        : "Passing for you in a moment (your preference for this kind of window). ",
      only ? null : h("button", {id: "autopass-stop", onclick: () => {
        (this.autoPassCancelled ||= new Set()).add(`${kind}@${v.version}`);
        clearTimeout(this.autoTimer); this.autoAt = null; this.render();
      }}, "Let me decide this time")));
    if (this.autoAt === v.version) return;
    this.autoAt = v.version;
    clearTimeout(this.autoTimer);
    this.autoTimer = setTimeout(() => {
      if (this.v && this.v.version === v.version && this.v.your_turn && this.autoAt === v.version) {
        this.autoAt = null;
        this.act("pass");
      }
    }, AUTO_PASS_MS);
  }

  build(mod) {
    this.statusBox = h("div", {class: "panel status", id: "status"});
    this.msgBox = h("div", {id: "messages"});
    this.mainBox = h("div", {id: "view-main"});
    this.sideBox = h("div", {id: "view-side"});
    this.actionsBox = h("div", {class: "panel", id: "actions-panel"});
    this.oddsBox = h("div", {class: "panel odds", id: "odds", hidden: true});
    this.logList = h("div", {class: "log", id: "log", "aria-live": "polite"});
    this.logBox = h("div", {class: "panel"}, h("h2", {}, "Battle log"), this.logList);
    this.plansBox = h("div", {class: "panel", id: "plans", hidden: true});
    this.replayBox = h("div", {class: "panel", id: "replay", hidden: true});
    this.root = h("div", {class: "game"},
      h("section", {}, this.statusBox, this.msgBox, this.mainBox),
      h("aside", {}, h("div", {id: "dock"}, this.actionsBox, this.oddsBox), this.sideBox, this.replayBox, this.logBox, this.plansBox));
    fill(app, this.root);
    const screen = this;
    this.view = mod.create({
      main: this.mainBox, side: this.sideBox,
      gameId: this.gameId, token: this.token,
      act: (a) => screen.act(a),
      say: (text) => screen.flash(text, true),
      tooltip: {
        show(content, ev) {
          fill(tooltipEl, content);
          tooltipEl.hidden = false;
          const x = Math.min(ev.clientX + 14, window.innerWidth - 290);
          const y = Math.min(ev.clientY + 14, window.innerHeight - tooltipEl.offsetHeight - 8);
          tooltipEl.style.left = `${x}px`;
          tooltipEl.style.top = `${y}px`;
        },
        hide() { tooltipEl.hidden = true; },
      },
      reference: api(`/api/games/${this.gameId}/reference`, {token: this.token}).catch(() => ({})),
      rerender: () => screen.render(),
    });
  }

  renderReplay() {
    const total = this.v.version;
    const step = this.replayStep === null ? total : this.replayStep;
    const slider = h("input", {type: "range", min: 0, max: total, value: step, id: "replay-step",
      "aria-label": "replay step", oninput: (e) => this.goto(Number(e.target.value))});
    this.replayBox.hidden = false;
    fill(this.replayBox, h("h2", {}, "Replay"),
      h("div", {class: "replay"},
        h("button", {id: "replay-start", "aria-label": "to the start", title: "to the start",
          onclick: () => this.goto(0)}, "Start"),
        h("button", {id: "replay-prev", "aria-label": "one step back", title: "one step back",
          onclick: () => this.goto(Math.max(0, step - 1))}, "◀ Back"),
        slider,
        h("button", {id: "replay-next", "aria-label": "one step on", title: "one step on",
          onclick: () => this.goto(Math.min(total, step + 1))}, "Next ▶"),
        h("button", {id: "replay-end", "aria-label": "to the end (the final position)", title: "to the end",
          onclick: () => { this.replayStep = null; this.render(); }}, "End")),
      h("p", {class: "muted", id: "replay-info"}, this.replayStep === null ? `Final position (${total} actions)`
        : `After action ${step} of ${total}${this.replayAction ? `: ${this.replayAction}` : ""}`),
      this.replayEvents ? h("div", {class: "log"}, ...this.replayEvents.map((e) => h("p", {}, e.text,
        Array.isArray(e.data.faces) ? diceRow(e.data.faces) : null))) : null);
  }

  async goto(step) {
    try {
      const r = await api(`/api/games/${this.gameId}/replay?step=${step}`, {token: this.token});
      const was = this.replayStep === null ? this.v.version : this.replayStep;
      // one step on: its events are played out on the board, as in the game; any other jump
      // drops the markers of the steps shown before (they belong to another moment)
      this.replayPlay = r.step === was + 1 ? r.events : [];
      if (r.step !== was + 1 && this.view && this.view.decided) this.view.decided();
      this.replayStep = r.step;
      this.replayObs = r.observation;
      this.replayAction = r.action;
      this.replayEvents = r.events;
      this.render();
    } catch (e) { this.flash(e.message); }
  }
}

// ------------------------------------------------------------------ routing
const m = /^\/game\/([0-9a-f]+)\/?$/.exec(location.pathname);
/** The seat token of the link, or null with why it cannot be one (a damaged or pasted-wrong link). */
function linkToken(gameId) {
  let token;
  try {
    token = decodeURIComponent(location.hash.slice(1));
  } catch (e) {
    return {token: null, why: "This link's seat token is damaged (part of it could not be read). " +
      "Use the full link you were given, exactly as it was sent."};
  }
  token = token || myGames.token(gameId);
  if (!token) return {token: null, why: "This link has no seat token. Use the full link you were given (it ends in #…)."};
  if (!/^[A-Za-z0-9_-]{8,200}$/.test(token)) {
    return {token: null, why: "This link's seat token is not valid (it holds spaces, line breaks or other " +
      "characters a token never has). Copy the whole link again, on one line."};
  }
  return {token, why: null};
}

if (m) {
  const {token, why} = linkToken(m[1]);
  if (!token) {
    showError(app, why);
  } else {
    if (!location.hash) history.replaceState(null, "", `${location.pathname}#${token}`);
    let screen = new GameScreen(m[1], token);
    screen.start();
    // another seat's link pasted in the same tab changes only the part after #: switch seat at once
    window.addEventListener("hashchange", () => {
      const next = linkToken(m[1]);
      if (!next.token) { screen.stop(); showError(app, next.why); return; }
      if (next.token === screen.token && !screen.stopped) return;
      screen.stop();
      screen = new GameScreen(m[1], next.token);
      screen.start();
    });
  }
} else {
  lobby();
}
