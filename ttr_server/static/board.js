// The board's geometry, apart from the game: where each city goes (the map's board coordinates,
// or a projection of its real ones), where its name goes (placed so that names do not overlap
// each other, the cities' dots or, where it can be helped, the routes), and zooming and panning
// the drawn board.

const LABEL_HEIGHT = 11; // px of the city names' font (style.css: svg .city text)
const DOT = 6; // a city's dot, radius with its stroke
const NEAR = 8; // a name this near another city's dot may be read as that city's

// --- where cities go -------------------------------------------------------------------------------

function projected(board) {
  // An equirectangular projection around the map's middle latitude: close enough at a map's scale.
  const lats = board.cities.map((c) => c.lat);
  const mid = ((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180);
  return board.cities.map((c) => ({ name: c.name, x: c.lon * Math.cos(mid), y: -c.lat }));
}

export function project(board) {
  // The map's own board coordinates where it has them (a drawn board, which gives crowded regions
  // room), else its real coordinates projected; either way scaled to the drawing's width.
  const drawn = board.cities.every((c) => typeof c.x === "number" && typeof c.y === "number");
  const raw = drawn ? board.cities.map((c) => ({ name: c.name, x: c.x, y: c.y })) : projected(board);
  const xs = raw.map((p) => p.x);
  const ys = raw.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const W = 1000;
  const pad = 24; // the names are placed afterwards and the drawing is framed around them
  const scale = (W - 2 * pad) / Math.max(maxX - minX, 1e-9);
  const H = Math.round((maxY - minY) * scale + 2 * pad);
  const pos = {};
  for (const p of raw) pos[p.name] = { x: pad + (p.x - minX) * scale, y: pad + (p.y - minY) * scale };
  // Routes joining the same two cities are drawn side by side.
  const groups = {};
  for (const r of board.routes) (groups[[r.a, r.b].sort().join("|")] ||= []).push(r.id);
  const offset = {};
  for (const ids of Object.values(groups)) ids.forEach((id, i) => { offset[id] = (i - (ids.length - 1) / 2) * 10; });
  return { pos, W, H, offset };
}

// --- where names go -------------------------------------------------------------------------------

function candidates(p, width) {
  // Around the dot, nearest first: right, left, above, below and the corners, then farther out.
  const out = [];
  for (const d of [7, 12, 19, 28]) {
    const up = p.y - d + 1;
    const down = p.y + d + LABEL_HEIGHT - 3;
    const mid = p.y + 4;
    out.push(
      { x: p.x + d, y: mid, anchor: "start" },
      { x: p.x - d, y: mid, anchor: "end" },
      { x: p.x, y: up - 2, anchor: "middle" },
      { x: p.x, y: down + 2, anchor: "middle" },
      { x: p.x + d - 3, y: up, anchor: "start" },
      { x: p.x - d + 3, y: up, anchor: "end" },
      { x: p.x + d - 3, y: down, anchor: "start" },
      { x: p.x - d + 3, y: down, anchor: "end" },
    );
  }
  return out.map((c, i) => ({ ...c, rank: i, box: labelBox(c, width) }));
}

function labelBox(c, width) {
  const x0 = c.anchor === "start" ? c.x : c.anchor === "end" ? c.x - width : c.x - width / 2;
  return { x0: x0 - 1, y0: c.y - LABEL_HEIGHT + 2, x1: x0 + width + 1, y1: c.y + 3 };
}

const overlap = (a, b) => Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));

function crosses(seg, box) {
  // Liang–Barsky: does the segment enter the box?
  let [t0, t1] = [0, 1];
  const dx = seg.x2 - seg.x1;
  const dy = seg.y2 - seg.y1;
  for (const [p, q] of [[-dx, seg.x1 - box.x0], [dx, box.x1 - seg.x1], [-dy, seg.y1 - box.y0], [dy, box.y1 - seg.y1]]) {
    if (p === 0) { if (q < 0) return false; continue; }
    const t = q / p;
    if (p < 0) { if (t > t1) return false; if (t > t0) t0 = t; } else { if (t < t0) return false; if (t < t1) t1 = t; }
  }
  return true;
}

export function placeLabels(board, geo, width) {
  // Greedy, most crowded city first; then a few rounds in which every name that still overlaps
  // another moves to its best place given all the others.
  const { pos, W, H } = geo;
  const dots = board.cities.map((c) => ({ name: c.name, x0: pos[c.name].x - DOT, y0: pos[c.name].y - DOT, x1: pos[c.name].x + DOT, y1: pos[c.name].y + DOT }));
  const segments = board.routes.map((r) => ({ x1: pos[r.a].x, y1: pos[r.a].y, x2: pos[r.b].x, y2: pos[r.b].y, a: r.a, b: r.b }));
  const near = (name) => board.cities.filter((c) => Math.hypot(pos[c.name].x - pos[name].x, pos[c.name].y - pos[name].y) < 70).length;
  const order = board.cities.map((c) => c.name).sort((a, b) => near(b) - near(a) || a.localeCompare(b));
  const options = Object.fromEntries(order.map((name) => [name, candidates(pos[name], width(name))]));
  const placed = {};
  const cost = (name, c) => {
    let total = c.rank * 0.5 + Math.floor(c.rank / 8) * 6;
    const b = c.box;
    if (b.x0 < 2 || b.y0 < 2 || b.x1 > W - 2 || b.y1 > H - 2) total += 12; // framed anyway, but keep it compact
    for (const [other, o] of Object.entries(placed)) if (other !== name) total += overlap(b, o.box) * 50;
    for (const d of dots) {
      if (d.name === name) continue;
      // on another city's dot, or so near it that the name might be read as that city's
      total += overlap(b, d) * 30 + overlap(b, { x0: d.x0 - NEAR, y0: d.y0 - NEAR, x1: d.x1 + NEAR, y1: d.y1 + NEAR }) * 3;
    }
    for (const s of segments) if (s.a !== name && s.b !== name && crosses(s, b)) total += 4;
    return total;
  };
  const best = (name) => options[name].reduce((m, c) => { const k = cost(name, c); return k < m.k ? { c, k } : m; }, { c: null, k: Infinity }).c;
  for (const name of order) placed[name] = best(name);
  for (let round = 0; round < 4; round++) {
    let moved = false;
    for (const name of order) {
      const now = placed[name];
      const clash = Object.entries(placed).some(([o, p]) => o !== name && overlap(now.box, p.box) > 0);
      if (!clash) continue;
      const c = best(name);
      if (c !== now) { placed[name] = c; moved = true; }
    }
    if (!moved) break;
  }
  return placed;
}

export function frame(geo, labels) {
  // The drawing's extent: every dot and every name, with a margin (no name is cut at an edge).
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of Object.values(geo.pos)) { x0 = Math.min(x0, p.x - DOT); y0 = Math.min(y0, p.y - DOT); x1 = Math.max(x1, p.x + DOT); y1 = Math.max(y1, p.y + DOT); }
  for (const l of Object.values(labels)) { x0 = Math.min(x0, l.box.x0); y0 = Math.min(y0, l.box.y0); x1 = Math.max(x1, l.box.x1); y1 = Math.max(y1, l.box.y1); }
  const m = 10;
  return { x: x0 - m, y: y0 - m, w: x1 - x0 + 2 * m, h: y1 - y0 + 2 * m };
}

// --- zoom and pan ---------------------------------------------------------------------------------

// The zoom a finger's tap on the whole board opens: this many screen pixels per board unit, so
// that a route's or a city's hit area (32 px, play.js) covers about one route's width there.
export const TAP_SCALE = 1.25;
const MAX_ZOOM = 12;

export class ZoomPan {
  // The board's viewBox is a window on the framed drawing: zoom narrows it around a point, panning
  // moves it. Wheel, buttons, dragging, two fingers (pinch and pan), and the keyboard (+, -, 0,
  // arrows) when the board has focus. ``touch`` turns true once a finger has touched the board.
  constructor(svgEl, onChange = () => {}) {
    this.svg = svgEl;
    this.base = null;
    this.k = 1;
    this.cx = 0;
    this.cy = 0;
    this.onChange = onChange;
    this.drag = null;
    this.fingers = new Map(); // pointerId -> {x, y}, the pointers down on the board
    this.pinch = null;
    this.touch = false;
    this.pointerType = "";
    this.gestureEnded = -Infinity;
    this.lifted = null;
    svgEl.addEventListener("click", (ev) => {
      // a drag or a pinch is not a click on what it ended over (a finger's gesture has no click
      // after it, a mouse's has one at once)
      if (performance.now() - this.gestureEnded < 400) ev.stopPropagation();
      this.gestureEnded = -Infinity;
    }, { capture: true });
    svgEl.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      this.zoomAt(ev.deltaY < 0 ? 1.25 : 1 / 1.25, this.toBoard(ev.clientX, ev.clientY));
    }, { passive: false });
    svgEl.addEventListener("pointerdown", (ev) => this.down(ev));
    svgEl.addEventListener("pointermove", (ev) => this.move(ev));
    svgEl.addEventListener("pointerup", (ev) => this.up(ev));
    svgEl.addEventListener("pointercancel", (ev) => this.up(ev));
    svgEl.addEventListener("keydown", (ev) => {
      const step = 60 * this.unit();
      const keys = {
        "+": () => this.zoomAt(1.25), "=": () => this.zoomAt(1.25), "-": () => this.zoomAt(1 / 1.25), 0: () => this.reset(),
        ArrowLeft: () => this.pan(-step, 0), ArrowRight: () => this.pan(step, 0), ArrowUp: () => this.pan(0, -step), ArrowDown: () => this.pan(0, step),
      };
      if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
    });
  }

  down(ev) {
    this.pointerType = ev.pointerType; // what the click that follows comes from
    if (ev.pointerType === "touch" && !this.touch) { this.touch = true; this.apply(); }
    if (ev.button !== 0 && ev.pointerType !== "touch") return;
    this.fingers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (this.fingers.size === 2) this.startPinch();
    else if (this.fingers.size === 1) this.drag = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, cx: this.cx, cy: this.cy, moving: false };
  }

  startPinch() {
    // Two fingers: the board point under their middle stays under it, and their spread zooms.
    const [a, b] = [...this.fingers.values()];
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    this.pinch = { spread: Math.hypot(a.x - b.x, a.y - b.y) || 1, k: this.k, at: this.toBoard(mid.x, mid.y) };
    if (this.drag) this.drag.moving = true; // the first finger's press is no tap any more
    this.svg.classList.add("dragging");
  }

  move(ev) {
    if (!this.fingers.has(ev.pointerId)) return;
    this.fingers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (this.pinch && this.fingers.size >= 2) {
      const [a, b] = [...this.fingers.values()];
      const spread = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      this.k = Math.min(MAX_ZOOM, Math.max(1, this.pinch.k * (spread / this.pinch.spread)));
      this.keepAt(this.pinch.at, (a.x + b.x) / 2, (a.y + b.y) / 2);
      return;
    }
    const d = this.drag;
    if (!d || d.id !== ev.pointerId) return;
    const [dx, dy] = [ev.clientX - d.x, ev.clientY - d.y];
    if (!d.moving && Math.hypot(dx, dy) < (ev.pointerType === "touch" ? 8 : 4)) return; // a click, not a drag
    if (!d.moving) { d.moving = true; this.svg.setPointerCapture(ev.pointerId); this.svg.classList.add("dragging"); }
    const unit = this.unit();
    this.cx = d.cx - dx * unit;
    this.cy = d.cy - dy * unit;
    this.apply();
  }

  up(ev) {
    if (!this.fingers.delete(ev.pointerId)) return;
    const d = this.drag;
    const wasGesture = (d && d.moving) || this.pinch;
    // where the finger was lifted: the browser may move the click that follows onto the nearest
    // element it thinks was meant ("touch adjustment"), where a choice between two was due
    this.lifted = wasGesture ? null : { x: ev.clientX, y: ev.clientY, at: performance.now() };
    if (this.fingers.size < 2 && this.pinch) this.pinch = null;
    if (this.fingers.size === 0) {
      if (wasGesture) {
        this.svg.classList.remove("dragging");
        this.gestureEnded = performance.now();
      }
      if (d && this.svg.hasPointerCapture && this.svg.hasPointerCapture(d.id)) this.svg.releasePointerCapture(d.id);
      this.drag = null;
    } else if (this.fingers.size === 1 && wasGesture) {
      // one finger left after a pinch: it pans on from where it is
      const [[id, p]] = [...this.fingers.entries()];
      this.drag = { id, x: p.x, y: p.y, cx: this.cx, cy: this.cy, moving: true };
    }
  }

  tapPoint(ev) {
    // where a click happened: for a finger's tap, where it was lifted
    const l = this.lifted;
    if (this.pointerType === "touch" && l && performance.now() - l.at < 1000) return { x: l.x, y: l.y };
    return { x: ev.clientX, y: ev.clientY };
  }

  setBase(box) {
    const same = this.base && ["x", "y", "w", "h"].every((k) => this.base[k] === box[k]);
    this.base = box;
    // the SVG's shape where the page leaves it free (its height follows its width): the map's
    this.svg.style.aspectRatio = `${box.w} / ${box.h}`;
    if (!same) this.reset();
    else this.apply();
  }

  reset() {
    this.k = 1;
    this.cx = this.base.x + this.base.w / 2;
    this.cy = this.base.y + this.base.h / 2;
    this.apply();
  }

  fit() {
    // The window at zoom 1: the whole drawing, widened or heightened to the SVG's own shape, so
    // that a zoomed-in board fills its box (a phone's board is taller than the map is).
    const b = this.base;
    const rect = this.svg.getBoundingClientRect();
    const shape = rect.width && rect.height ? rect.height / rect.width : b.h / b.w;
    return b.h / b.w < shape ? { w: b.w, h: b.w * shape } : { w: b.h / shape, h: b.h };
  }

  view() {
    // the viewBox's window: board units
    const f = this.fit();
    return { w: f.w / this.k, h: f.h / this.k };
  }

  screen() {
    // Where the window is drawn: the SVG's box, less the bands the aspect ratio leaves (meet).
    const rect = this.svg.getBoundingClientRect();
    const { w, h } = this.view();
    const s = rect.width && rect.height ? Math.min(rect.width / w, rect.height / h) : 1;
    return { s, left: rect.left + (rect.width - w * s) / 2, top: rect.top + (rect.height - h * s) / 2 };
  }

  scale() {
    // screen pixels per board unit
    return this.screen().s;
  }

  unit() {
    // board units per screen pixel
    return 1 / this.scale();
  }

  tapZoom() {
    // the zoom at which the board shows TAP_SCALE screen pixels per board unit
    return Math.min(MAX_ZOOM, Math.max(1, (TAP_SCALE / this.scale()) * this.k));
  }

  toBoard(clientX, clientY) {
    const { s, left, top } = this.screen();
    const { w, h } = this.view();
    return { x: this.cx - w / 2 + (clientX - left) / s, y: this.cy - h / 2 + (clientY - top) / s };
  }

  keepAt(p, clientX, clientY) {
    // move the window so that board point p is drawn at (clientX, clientY)
    const { w, h } = this.view();
    const { s, left, top } = this.screen(); // where the window's corner is drawn, wherever it is
    this.cx = p.x + w / 2 - (clientX - left) / s;
    this.cy = p.y + h / 2 - (clientY - top) / s;
    this.apply();
  }

  zoomAt(factor, at = { x: this.cx, y: this.cy }) {
    this.zoomTo(this.k * factor, at);
  }

  zoomTo(k, at = { x: this.cx, y: this.cy }) {
    k = Math.min(MAX_ZOOM, Math.max(1, k));
    const f = this.k / k; // the point under the pointer stays where it is
    this.cx = at.x + (this.cx - at.x) * f;
    this.cy = at.y + (this.cy - at.y) * f;
    this.k = k;
    this.apply();
  }

  pan(dx, dy) {
    this.cx += dx;
    this.cy += dy;
    this.apply();
  }

  apply() {
    const b = this.base;
    if (!b) return;
    const { w, h } = this.view();
    // the window stays on the drawing; one wider (or taller) than it stays centred on it
    this.cx = w >= b.w ? b.x + b.w / 2 : Math.min(b.x + b.w - w / 2, Math.max(b.x + w / 2, this.cx));
    this.cy = h >= b.h ? b.y + b.h / 2 : Math.min(b.y + b.h - h / 2, Math.max(b.y + h / 2, this.cy));
    this.svg.setAttribute("viewBox", `${(this.cx - w / 2).toFixed(1)} ${(this.cy - h / 2).toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
    this.svg.dataset.zoom = this.k.toFixed(3);
    this.onChange(this);
  }
}
