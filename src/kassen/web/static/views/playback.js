// The other side's turn, played out: a list of frames (each what the board looked like after
// one event of the seat's own log, with the markers gathered so far) shown one after the other
// at the chosen pace, with pause, step back and forth and skip. The frames are built by each
// game's view from the events the server already sends this seat (its log, redacted for it),
// so a frame never shows anything the seat may not see.
import {h} from "../common.js";

/** Pace name -> factor on each frame's own duration (instant shows the end at once). */
export const PACES = {slow: 2, normal: 1, fast: 0.4, instant: 0};
const PACE_KEY = "kassen.pace";

export function currentPace() {
  const p = localStorage.getItem(PACE_KEY);
  return p && p in PACES ? p : "normal";
}

/** Whether the person asked the system for less motion: markers then, never gliding pieces. */
export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** What the page showed of the other side's steps, kept only for a test that asks for it: a
 * test sets ``window.__kassenShown = []`` before the page loads (an init script) and reads it;
 * the page itself never creates it, so no one else's page keeps anything. */
export function recordShown(entry) {
  const r = window.__kassenShown;
  if (Array.isArray(r)) r.push({...entry, t: performance.now()});
}

export class Player {
  /** ``show(frame, forward)`` draws one frame; ``done()`` is called when the last one is shown. */
  constructor({show, done}) {
    this.show = show;
    this.done = done;
    this.frames = [];
    this.i = -1;
    this.paused = false;
    this.timer = null;
    this.caption = h("span", {class: "pb-caption", id: "pb-caption", "aria-live": "polite"}, "");
    this.count = h("span", {class: "muted pb-count", id: "pb-count"}, "");
    const paceSel = h("select", {id: "pace", "aria-label": "pace of the other side's turn",
      onchange: (e) => { localStorage.setItem(PACE_KEY, e.target.value); if (this.playing()) this.schedule(); }},
    ...Object.keys(PACES).map((p) => h("option", {value: p, selected: p === currentPace()}, p)));
    this.backBtn = h("button", {id: "pb-back", title: "one step back", "aria-label": "one step back",
      onclick: () => this.step(-1)}, "◀");
    this.pauseBtn = h("button", {id: "pb-pause", title: "pause", "aria-label": "pause", onclick: () => this.toggle()}, "❚❚");
    this.fwdBtn = h("button", {id: "pb-fwd", title: "one step on", "aria-label": "one step on",
      onclick: () => this.step(1)}, "▶");
    this.skipBtn = h("button", {id: "pb-skip", title: "skip to the end", "aria-label": "skip to the end",
      onclick: () => this.skip()}, "»|");
    this.bar = h("div", {class: "playbar", id: "playbar"},
      h("div", {class: "pb-text"}, this.caption),
      h("div", {class: "pb-controls"}, this.count, this.backBtn, this.pauseBtn, this.fwdBtn, this.skipBtn,
        h("label", {class: "muted"}, "pace ", paceSel)));
    this.sync();
  }

  /** Frames are being shown, or paused on the way (the decision waits until they end). */
  playing() { return this.active === true; }

  /** More frames wait to be shown. */
  more() { return this.i < this.frames.length - 1; }

  /** The frame on the board, or null for the present. */
  current() { return this.i >= 0 && this.i < this.frames.length ? this.frames[this.i] : null; }

  last() { return this.frames.length ? this.frames[this.frames.length - 1] : null; }

  /** Add frames to show after those already queued. */
  push(frames) {
    if (!frames.length) return;
    this.frames.push(...frames);
    this.active = true;
    if (currentPace() === "instant") { this.skip(); return; }
    if (!this.timer && !this.paused) this.schedule(0);
    this.sync();
  }

  /** Forget the frames (the seat's next decision is taken: trails and markers go). */
  clear() {
    clearTimeout(this.timer);
    this.timer = null;
    this.frames = [];
    this.i = -1;
    this.paused = false;
    this.active = false;
    this.caption.textContent = "";
    this.sync();
    recordShown({what: "clear"});
  }

  schedule(ms) {
    clearTimeout(this.timer);
    const cur = this.current();
    const wait = ms !== undefined ? ms : (cur ? cur.ms : 0) * PACES[currentPace()];
    this.timer = setTimeout(() => this.tick(), wait);
  }

  tick() {
    this.timer = null;
    if (this.paused) return;
    if (!this.more()) { this.finish(); return; }
    this.i += 1;
    this.render(true);
    this.schedule();  // the last frame is shown for its time too
  }

  finish() {
    clearTimeout(this.timer);
    this.timer = null;
    const was = this.active;
    this.active = false;
    this.paused = false;
    this.sync();
    if (was) recordShown({what: "done"});
    if (was) this.done();
  }

  render(forward) {
    const f = this.current();
    this.caption.textContent = f ? f.caption : "";
    this.sync();
    recordShown({what: "frame", i: this.i, kind: f ? f.kind : null, at: f ? f.at : null});
    this.show(f, forward);
  }

  toggle() {
    if (!this.playing()) return;
    this.paused = !this.paused;
    if (!this.paused) this.schedule(0);
    else { clearTimeout(this.timer); this.timer = null; }
    this.sync();
  }

  /** One frame back or on; after the end too (the last turn is kept until the next decision). */
  step(d) {
    if (!this.frames.length) return;
    clearTimeout(this.timer);
    this.timer = null;
    if (this.playing()) this.paused = true;
    this.i = Math.max(0, Math.min(this.frames.length - 1, this.i + d));
    this.render(d > 0);
    if (this.playing() && !this.more()) this.finish();
  }

  skip() {
    if (!this.frames.length) return;
    this.i = this.frames.length - 1;
    this.render(false);
    this.finish();
  }

  sync() {
    const n = this.frames.length;
    this.count.textContent = n ? `${this.i + 1}/${n}` : "";
    this.backBtn.disabled = this.i <= 0;
    this.fwdBtn.disabled = this.i >= n - 1;
    this.skipBtn.disabled = this.i >= n - 1 && !this.playing();
    this.pauseBtn.disabled = !this.playing();
    this.pauseBtn.textContent = this.paused ? "▶▶" : "❚❚";
    this.pauseBtn.setAttribute("aria-label", this.paused ? "play on" : "pause");
    this.bar.dataset.playing = this.playing() ? "1" : "";
    document.body.dataset.playing = this.playing() ? "1" : "";
  }
}

/** Frames of a game whose board is drawn from words (An Honourable Victory!, the clan game):
 * one a seat-visible event, naming the pieces the line names (``names`` finds them in its text),
 * its dice, and the markers gathered so far (moved, fired or fought, losses) until the next
 * decision. */
export function textFrames(events, names, startMarks, ms = {}) {
  const marks = startMarks ? JSON.parse(JSON.stringify(startMarks)) : {moved: [], fought: [], lost: {}};
  const out = [];
  for (const e of events) {
    if (!e.text) continue;
    const d = e.data || {};
    const who = names(e.text);
    if (["move", "enter", "shift", "recoil", "evade", "withdraw", "deploy"].includes(e.kind) && who[0]) marks.moved.push(who[0]);
    if (["fire", "attack", "engage", "combat", "resolve"].includes(e.kind)) marks.fought.push(...who);
    if (e.kind === "losses" && who[0]) marks.lost[who[0]] = (marks.lost[who[0]] || 0) + (Number(d.lost) || 1);
    const faces = Array.isArray(d.faces) ? d.faces.flat() : null;
    out.push({caption: e.text, who, faces, kind: e.kind, ms: ms[e.kind] || (faces ? 1300 : 700),
      marks: JSON.parse(JSON.stringify(marks))});
  }
  return out;
}
