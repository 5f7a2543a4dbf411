// The board as an SVG drawing: built once per map, then updated in place after every action (a
// claimed route's cars take its owner's colour and pattern, stations, highlights), so that a move
// can be animated and nothing is redrawn that did not change. Which route or city a click or a
// tap means is the browser's own hit-testing (document.elementsFromPoint), with a chooser when
// it finds several.
import { svg } from "/static/common.js";

export const ROUTE_FILL = {
  purple: "#b07cc6", blue: "#5b8fe0", orange: "#f3a43b", white: "#fdfdfd", green: "#5bbd6b",
  yellow: "#f7dc4d", black: "#3a3a3a", red: "#e05050", gray: "#b8b8b8",
};

// Each seat's cars are its colour (style.css: --seat-N) crossed by its own pattern, the same as
// its swatches (style.css: .seat-N), so that players differ by more than a colour: stripes, dots,
// a hatch, bars, checks, reversed stripes. ``ink`` is the pattern's colour over that seat's colour.
const PATTERNS = [
  (ink) => ({ transform: "rotate(45)", parts: [svg("rect", { width: 2, height: 6, fill: ink })] }),
  (ink) => ({ transform: "", parts: [svg("circle", { cx: 3, cy: 3, r: 1.5, fill: ink })] }),
  (ink) => ({ transform: "rotate(45)", parts: [svg("rect", { width: 1.4, height: 6, fill: ink }), svg("rect", { width: 6, height: 1.4, fill: ink })] }),
  (ink) => ({ transform: "", parts: [svg("rect", { width: 2.2, height: 6, fill: ink })] }),
  (ink) => ({ transform: "", parts: [svg("rect", { width: 3, height: 3, fill: ink }), svg("rect", { x: 3, y: 3, width: 3, height: 3, fill: ink })] }),
  (ink) => ({ transform: "rotate(-45)", parts: [svg("rect", { width: 3, height: 6, fill: ink })] }),
];

export function seatColors(count) {
  // the seats' colours and pattern inks, as style.css defines them
  const css = getComputedStyle(document.documentElement);
  return Array.from({ length: count }, (_, seat) => {
    const n = seat % PATTERNS.length;
    return { fill: css.getPropertyValue(`--seat-${n}`).trim() || "#444", ink: css.getPropertyValue(`--seat-${n}-ink`).trim() || "#fff" };
  });
}

const colourName = (c) => (c === "gray" ? "grey" : c);

export class BoardDrawing {
  constructor(root, board, geo, colors, seatNames) {
    this.root = root;
    this.board = board;
    this.geo = geo;
    this.colors = colors;
    this.seatNames = seatNames;
    this.routes = new Map(); // id -> {g, r, cars, mark, owner}
    this.cities = new Map(); // name -> g
    this.labels = new Map(); // name -> text
    this.seen = false; // a first update draws without animating
    this.build();
  }

  ends(r) {
    // a route's two ends, moved aside for a double
    const { pos, offset } = this.geo;
    const [a, b] = [pos[r.a], pos[r.b]];
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const [nx, ny] = [-(b.y - a.y) / len, (b.x - a.x) / len];
    const off = offset[r.id];
    return { x1: a.x + nx * off, y1: a.y + ny * off, x2: b.x + nx * off, y2: b.y + ny * off };
  }

  build() {
    const defs = svg("defs", {}, this.colors.map((c, seat) => {
      const p = PATTERNS[seat % PATTERNS.length](c.ink);
      return svg("pattern", { id: `seat-${seat}`, width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: p.transform },
        [svg("rect", { width: 6, height: 6, fill: c.fill }), ...p.parts]);
    }));
    const routes = this.board.routes.map((r) => this.buildRoute(r));
    // The hit areas, wider than what is drawn (a finger wide), lie under everything drawn, so that
    // none covers another route's cars or a city's dot: a click on those is never in doubt.
    const hits = [
      ...this.board.routes.map((r) => svg("line", { class: "hit", "data-route": r.id, ...this.ends(r) }, [svg("title", {}, [routeTitle(r)])])),
      ...this.board.cities.map((c) => {
        const p = this.geo.pos[c.name];
        return svg("ellipse", { class: "hit", "data-city": c.name, cx: p.x.toFixed(1), cy: p.y.toFixed(1) }, [svg("title", {}, [c.name])]);
      }),
    ];
    const cities = this.board.cities.map((c) => {
      const p = this.geo.pos[c.name];
      const g = svg("g", { class: "city", "data-city": c.name }, [
        svg("title", {}, [c.name]),
        svg("circle", { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 5 }),
      ]);
      this.cities.set(c.name, g);
      return g;
    });
    // the names above everything, so that no car hides one
    const labels = this.board.cities.map((c) => {
      const l = this.geo.labels[c.name];
      const t = svg("text", { class: "label", "data-city": c.name, x: l.x.toFixed(1), y: l.y.toFixed(1), "text-anchor": l.anchor }, [c.name]);
      this.labels.set(c.name, t);
      return t;
    });
    this.overlays = svg("g", { class: "overlays" });
    this.stations = svg("g", { class: "stations" });
    this.root.replaceChildren(defs, svg("g", { class: "hits" }, hits), svg("g", { class: "routes" }, routes), this.overlays, svg("g", { class: "cities" }, cities),
      this.stations, svg("g", { class: "labels" }, labels));
  }

  buildRoute(r) {
    const e = this.ends(r);
    const parts = [svg("title", {}, [routeTitle(r)]), svg("line", { class: "halo", ...e })];
    const cars = [];
    for (const car of carPlaces(r, e)) {
      const rect = svg("rect", { class: "car", x: -car.len / 2, width: car.len, rx: 1.2, transform: car.transform });
      cars.push(rect);
      parts.push(rect);
      if (car.ferry) parts.push(svg("circle", { class: "ferry", cx: car.x.toFixed(1), cy: car.y.toFixed(1), r: 1.8 }));
    }
    const mx = ((e.x1 + e.x2) / 2).toFixed(1);
    const my = (e.y1 + e.y2) / 2;
    const markCircle = svg("circle", { cx: mx, cy: my.toFixed(1), r: 5.5 });
    const markText = svg("text", { x: mx, y: (my + 3).toFixed(1) }, [""]);
    const mark = svg("g", { class: "owner-mark" }, [markCircle, markText]);
    const g = svg("g", { class: `route${r.tunnel ? " tunnel" : ""}`, "data-route": r.id }, parts);
    const entry = { g, r, cars, mark, markCircle, markText, owner: undefined, title: parts[0] };
    this.paintRoute(entry, undefined);
    this.routes.set(r.id, entry);
    return g;
  }

  paintRoute(entry, owner) {
    // a claimed route stands out: fuller cars, in the owner's colour and pattern, outlined in
    // black, with a marker carrying the owner's number in its middle
    const { r, cars, g } = entry;
    const h = owner !== undefined ? 9 : 7;
    const fill = owner !== undefined ? `url(#seat-${owner})` : ROUTE_FILL[r.color] || "#ccc";
    for (const car of cars) {
      car.setAttribute("y", -h / 2);
      car.setAttribute("height", h);
      car.setAttribute("fill", fill);
    }
    g.classList.toggle("claimed", owner !== undefined);
    if (owner !== undefined) {
      entry.mark.dataset.seat = String(owner);
      entry.markCircle.setAttribute("stroke", this.colors[owner].fill);
      entry.markText.textContent = String(owner + 1);
      g.append(entry.mark);
    } else entry.mark.remove();
    entry.title.textContent = routeTitle(r) + (owner !== undefined ? ` — ${this.seatNames[owner]}'s` : "");
    entry.owner = owner;
  }

  update(s) {
    // s: {owners, claimable, selected, candidates, lastRoutes, lastCities, ticketCities, lit,
    //     stations: [{seat, city}], highlights: [{seat, name, title, routes, shape, points (a trail's)}]}
    for (const [id, entry] of this.routes) {
      const owner = s.owners[id];
      if (owner !== entry.owner) {
        this.paintRoute(entry, owner);
        if (this.seen && owner !== undefined) this.animate(entry);
      }
      const cl = entry.g.classList;
      cl.toggle("claimable", owner === undefined && s.claimable.has(id));
      cl.toggle("selected", !!(s.selected && s.selected.route === id));
      cl.toggle("candidate", s.candidates.has(`route:${id}`));
      cl.toggle("last-move", s.lastRoutes.has(id));
      cl.toggle("lit", s.lit.routes.has(id));
    }
    for (const [name, g] of this.cities) {
      const cl = g.classList;
      cl.toggle("ticket", s.ticketCities.has(name));
      cl.toggle("last-move", s.lastCities.has(name));
      cl.toggle("selected", !!(s.selected && s.selected.city === name));
      cl.toggle("candidate", s.candidates.has(`city:${name}`));
      cl.toggle("lit", s.lit.cities.has(name));
      this.labels.get(name).classList.toggle("lit", s.lit.cities.has(name));
    }
    this.drawStations(s.stations);
    this.drawHighlights(s.highlights);
    this.seen = true;
  }

  animate(entry) {
    // the cars fill in one after the other, and the route's halo pulses
    entry.cars.forEach((car, i) => { car.style.animationDelay = `${i * 70}ms`; });
    entry.g.classList.remove("fresh");
    void entry.g.getBBox(); // restart the animation if the class was already there
    entry.g.classList.add("fresh");
    clearTimeout(entry.fresh);
    entry.fresh = setTimeout(() => entry.g.classList.remove("fresh"), 1600);
  }

  drawStations(stations) {
    // A station: a square in its owner's colour and pattern, outlined in black, over the city's
    // dot (the names are placed clear of the dots), with the owner's number on it. One built
    // since the last update drops in.
    const keys = stations.map((st) => `${st.seat}@${st.city}`);
    if (this.stationKeys && keys.join("|") === [...this.stationKeys].join("|")) return;
    const before = this.stationKeys;
    this.stationKeys = new Set(keys);
    this.stations.replaceChildren(...stations.map((st, i) => {
      const p = this.geo.pos[st.city];
      if (!p) return svg("g");
      const g = svg("g", { class: "station-mark", "data-seat": st.seat, "data-city": st.city }, [
        svg("title", {}, [`${this.seatNames[st.seat]}'s station in ${st.city}`]),
        svg("rect", { class: "station", x: (p.x - 7).toFixed(1), y: (p.y - 7).toFixed(1), width: 14, height: 14, rx: 2, fill: `url(#seat-${st.seat})` }),
        svg("rect", { class: "station-tag", x: (p.x - 4).toFixed(1), y: (p.y - 4).toFixed(1), width: 8, height: 8, rx: 1 }),
        svg("text", { x: p.x.toFixed(1), y: (p.y + 3).toFixed(1) }, [String(st.seat + 1)]),
      ]);
      if (before && !before.has(keys[i])) g.classList.add("fresh");
      return g;
    }));
  }

  drawHighlights(highlights) {
    // What the variant's rules mark on the final position, in the owner's colour: a trail as one
    // dashed line walked end to end, other routes each dotted on its own.
    const key = JSON.stringify(highlights);
    if (key === this.overlaysKey) return;
    this.overlaysKey = key;
    const out = [];
    for (const h of highlights) {
      const title = () => svg("title", {}, [`${this.seatNames[h.seat]}'s ${h.title}`]);
      if (h.shape === "trail") {
        // a light casing under the dashes, so that the trail shows over the owner's own cars
        out.push(svg("polyline", { class: "trail-casing", points: h.points }));
        out.push(svg("polyline", { class: "trail", "data-seat": h.seat, "data-highlight": h.name, points: h.points, stroke: this.colors[h.seat].fill }, [title()]));
        continue;
      }
      for (const id of h.routes) {
        const entry = this.routes.get(id);
        if (!entry) continue;
        out.push(svg("line", { class: "route-mark", "data-seat": h.seat, "data-highlight": h.name, "data-route": id, ...this.ends(entry.r), stroke: this.colors[h.seat].fill }, [title()]));
      }
    }
    this.overlays.replaceChildren(...out);
  }

  setHitSizes(route, city) {
    // board units: the width of a route's hit line and the radius of a city's hit area
    this.root.style.setProperty("--route-hit", `${route.toFixed(2)}px`);
    this.root.style.setProperty("--city-hit", `${city.toFixed(2)}px`);
  }

  targetsAt(ev, at) {
    // What a click or a tap at ``at`` (screen coordinates) means: a route whose cars it touched; else
    // the cities whose hit areas it is in; else the routes whose hit lines it is on. An event
    // without a place (a script's) means the element it was sent to.
    const found = [];
    const add = (t) => { if (!found.some((f) => f.route === t.route && f.city === t.city)) found.push(t); };
    const of = (e) => {
      if (e.classList.contains("hit")) return e.dataset.route ? { route: e.dataset.route, car: false } : { city: e.dataset.city };
      const route = e.closest("g.route");
      if (route) return { route: route.dataset.route, car: e.classList.contains("car") };
      const city = e.closest("g.city");
      return city ? { city: city.dataset.city } : null;
    };
    if (!ev.isTrusted) {
      const t = ev.target instanceof Element ? of(ev.target) : null;
      return t ? [t.route ? { route: t.route } : { city: t.city }] : [];
    }
    const hits = document.elementsFromPoint(at.x, at.y).filter((e) => this.root.contains(e)).map(of).filter(Boolean);
    const car = hits.find((h) => h.car);
    if (car) return [{ route: car.route }];
    for (const h of hits) if (h.city) add({ city: h.city });
    if (found.length) return found;
    for (const h of hits) if (h.route) add({ route: h.route });
    return found;
  }
}

function carPlaces(r, e) {
  const dx = e.x2 - e.x1;
  const dy = e.y2 - e.y1;
  const len = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / len, dy / len];
  const margin = Math.min(9, len / 6);
  const gap = 1.5;
  const carLen = Math.max((len - 2 * margin - gap * (r.length - 1)) / r.length, 2);
  const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
  const out = [];
  for (let i = 0; i < r.length; i++) {
    const along = margin + carLen / 2 + i * (carLen + gap);
    const x = e.x1 + ux * along;
    const y = e.y1 + uy * along;
    out.push({ x, y, len: carLen, ferry: i < r.ferry, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${angle.toFixed(1)})` });
  }
  return out;
}

export function routeTitle(r) {
  const extras = [];
  if (r.tunnel) extras.push("tunnel");
  if (r.ferry) extras.push(`ferry: ${r.ferry} of its spaces paid with locomotives`);
  return `${r.a} – ${r.b}: ${r.length} ${colourName(r.color)}${extras.length ? `, ${extras.join(", ")}` : ""}`;
}
