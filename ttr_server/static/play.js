// The game page: the board drawn from the map's city coordinates, the open row, your hand and
// tickets, the players; you act by clicking. What can be clicked comes from the seat's legal
// actions as the server lists them, so a rule set's own actions (tunnels, stations, controllers)
// show up without this page knowing them: a route or a city lists its legal actions, and every
// other legal action is a button under "Other actions". Beside the board: the move log (every
// turn in words, the same for every reader), and at the end every player's tickets, trails and
// borrows. The board's geometry, names and zoom are board.js's.
import { api, el, svg, showError } from "/static/common.js";
import { ZoomPan, frame, placeLabels, project } from "/static/board.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
// The seat's token rides in the fragment, which browsers never send to a server or a referrer.
const token = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;

const CARD_ORDER = ["purple", "blue", "orange", "white", "green", "yellow", "black", "red", "locomotive"];
const ROUTE_FILL = {
  purple: "#b07cc6", blue: "#5b8fe0", orange: "#f3a43b", white: "#fdfdfd", green: "#5bbd6b",
  yellow: "#f7dc4d", black: "#3a3a3a", red: "#e05050", gray: "#b8b8b8",
};
// Players' colours are none of the route colours (navy, teal, crimson, brown, olive, slate); their
// cars are striped and marked with the seat's number besides (drawBoard).
const PLAYER_COLORS = ["#1a237e", "#00838f", "#ad1457", "#6d4c41", "#827717", "#455a64"];
// Kinds that have their own place on the page. An action naming a route or a city is listed when
// that route or city is clicked; any other legal action is a button under "Other actions".
const PLACED = new Set(["draw-card", "keep-tickets", "draw-tickets"]);
const onBoard = (a) => typeof a.route === "string" || typeof a.city === "string";

let board = null; // the map, from /api/variants/{id}/board
let geo = null; // city positions on the SVG
let snap = null; // the latest GET /api/games/{id}
let selected = null; // {route: id} or {city: name}
let ticketChoice = null; // {key, chosen: Set} while tickets are on offer
let busy = false;
let overDismissed = false;
let loading = null;
let again = false;
let moves = []; // the move log, oldest first (GET /api/games/{id}/moves)
let trails = null; // each player's longest trail, once the game is over
let refusal = null; // {key, text}: why the last claim tried, or the route looked at, cannot be had
const zoom = new ZoomPan(document.getElementById("board"));

const $ = (id) => document.getElementById(id);
const playerColor = (seat) => PLAYER_COLORS[seat % PLAYER_COLORS.length];
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const legal = (kind) => (snap && snap.legal ? snap.legal.filter((a) => a.kind === kind) : []);
const sameAction = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// --- talking to the server ---------------------------------------------------------------------

async function refresh() {
  // One read at a time; a change noticed meanwhile triggers one more read afterwards.
  if (loading) {
    again = true;
    return loading;
  }
  loading = (async () => {
    do {
      again = false;
      const res = await api("GET", `/api/games/${encodeURIComponent(gameId)}`, undefined, token);
      if (!res.ok) {
        showError(res.body.reason);
        $("status").textContent = "Cannot show this game";
        return;
      }
      if (!board || board.variant !== res.body.variant || board.version !== res.body.rules_version) {
        const b = await api("GET", `/api/variants/${encodeURIComponent(res.body.variant)}/board?version=${res.body.rules_version}`);
        if (!b.ok) return showError(b.body.reason);
        board = b.body;
        geo = null;
      }
      snap = res.body;
      await Promise.all([loadMoves(), loadTrails(), loadRefusal()]);
      render();
    } while (again);
  })();
  try {
    await loading;
  } finally {
    loading = null;
  }
}

async function loadMoves() {
  // Only the turns that changed since the last complete one we hold.
  const done = moves.filter((m) => m.over);
  const since = done.length ? done[done.length - 1].last : 0;
  const res = await api("GET", `/api/games/${encodeURIComponent(gameId)}/moves?since=${since}`);
  if (res.ok) moves = [...done, ...res.body.moves];
}

async function loadTrails() {
  if (trails || snap.view.phase !== "over") return;
  const res = await api("GET", `/api/games/${encodeURIComponent(gameId)}/trails`);
  if (res.ok) trails = res.body.trails;
}

async function loadRefusal() {
  // A route looked at that the seat cannot claim: ask the engine why (the cards missing, or the
  // rule that closes it), once per route and game version.
  if (snap.seat === null || !selected || !selected.route || snap.view.phase === "over") return;
  if (snap.view.routes[selected.route] !== undefined) return; // taken: the panel says by whom
  const key = `${selected.route}@${snap.version}`;
  if ((refusal && refusal.key.startsWith(key)) || (snap.legal || []).some((a) => a.route === selected.route)) return;
  const res = await api("GET", `/api/games/${encodeURIComponent(gameId)}/claim-check?route=${encodeURIComponent(selected.route)}`, undefined, token);
  if (res.ok && res.body.refusal) refusal = { key, text: refusalText(res.body) };
}

async function select(what) {
  selected = what;
  refusal = null;
  render();
  await loadRefusal();
  if (refusal) render();
}

function refusalText(check) {
  const missing = check.missing ? Object.entries(check.missing).map(([n, k]) => `${k} ${n}${k === 1 || n !== "locomotive" ? "" : "s"}`) : [];
  return missing.length ? `Missing ${missing.join(" + ")}: ${check.refusal.reason}` : check.refusal.reason;
}

async function act(action) {
  if (busy || !snap) return;
  busy = true;
  showError("");
  const res = await api("POST", `/api/games/${encodeURIComponent(gameId)}/actions`, { version: snap.version, action }, token);
  busy = false;
  if (res.ok) {
    selected = null;
    refusal = null;
  } else if (res.status === 409) {
    showError("The game moved on meanwhile: here it is now.");
  } else {
    const why = res.body.reason || `refused (${res.status})`;
    showError(why);
    // shown next to the action, in the panel, until something else is done
    refusal = { key: `${selected && selected.route ? selected.route : ""}@${snap.version}#refused`, text: `Refused: ${why}` };
  }
  await refresh();
}

function follow() {
  // Server-sent events carry only the public status; on a change we read our own view.
  const events = new EventSource(`/api/games/${encodeURIComponent(gameId)}/events`);
  events.addEventListener("change", (ev) => {
    const status = JSON.parse(ev.data);
    if (!snap || status.version !== snap.version) refresh();
    if (status.over) events.close();
  });
}

// --- describing actions ------------------------------------------------------------------------

function payment(cards, color, locomotives, triples) {
  const parts = [];
  if (cards > 0) parts.push(`${cards} ${color}`);
  if (locomotives > 0) parts.push(plural(locomotives, "locomotive"));
  let text = parts.join(" + ") || "nothing";
  if (triples) text += ` (${triples}×3 ${color} for locomotive spaces)`;
  return text;
}

function describe(a) {
  const view = snap.view;
  switch (a.kind) {
    case "draw-card":
      return a.slot === null || a.slot === undefined ? "Draw from the deck" : `Take the ${view.open_row[a.slot]} card from the row`;
    case "draw-tickets":
      return "Draw tickets";
    case "keep-tickets":
      return `Keep ${a.tickets.join(", ")}`;
    case "claim-route": {
      const route = board.routes.find((r) => r.id === a.route);
      const triples = a.triples || 0;
      const colored = route ? route.length - a.locomotives - triples : 0;
      return `Pay ${payment(colored + 3 * triples, a.color, a.locomotives, triples)}`;
    }
    case "build-station":
      return a.color ? `Build in ${a.city}, paying ${a.color}${a.locomotives ? ` + ${plural(a.locomotives, "locomotive")}` : ""}`
        : `Build in ${a.city}, paying ${plural(a.locomotives, "locomotive")}`;
    case "pay-tunnel": {
      const d = snap.seat === null ? null : view.players[snap.seat].decision;
      const colored = d && typeof d.extra === "number" ? d.extra - a.locomotives : 0;
      return `Pay the tunnel's extra: ${payment(colored, a.color, a.locomotives, 0)}`;
    }
    case "decline-tunnel":
      return "Give up the tunnel (take the cards back)";
    case "pass":
      return "Pass (nothing else is possible)";
    case "play-controller":
      return a.mode === "dismantle" ? `Play a controller: dismantle ${a.route} (its trains go back to its owner)`
        : `Play a controller: build ${a.route} for free`;
    default: {
      const fields = Object.entries(a).filter(([k]) => k !== "kind").map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
      return fields.length ? `${a.kind} (${fields.join(", ")})` : a.kind;
    }
  }
}

function describeDecision(d) {
  if (!d) return "";
  switch (d.kind) {
    case "second-card":
      return "Take a second card: from the row (not a locomotive) or the deck.";
    case "choose-tickets":
      return "Choose the tickets to keep.";
    case "tunnel-extra":
      return `Tunnel ${d.route}: the cards turned were ${d.revealed.join(", ") || "none"}; it asks for ${plural(d.extra, "extra card")}${d.locomotives_only ? " (locomotives only)" : d.color ? ` in ${d.color} or locomotives` : ""}.`;
    default:
      return `Waiting for you: ${d.kind}.`;
  }
}

// --- the board ---------------------------------------------------------------------------------

function measureNames() {
  // The names' widths as the board draws them (its font, from style.css).
  const root = $("board");
  const probe = svg("g", { class: "city" }, []);
  root.append(probe);
  const widths = {};
  for (const c of board.cities) {
    const t = svg("text", {}, [c.name]);
    probe.append(t);
    widths[c.name] = t.getComputedTextLength();
  }
  probe.remove();
  return widths;
}

function layout() {
  const g = project(board);
  const widths = measureNames();
  g.labels = placeLabels(board, g, (name) => widths[name] || name.length * 6.5);
  g.frame = frame(g, g.labels);
  return g;
}

function ends(r) {
  // a route's two ends, moved aside for a double
  const { pos, offset } = geo;
  const [a, b] = [pos[r.a], pos[r.b]];
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const [nx, ny] = [-(b.y - a.y) / len, (b.x - a.x) / len];
  const off = offset[r.id];
  return { x1: a.x + nx * off, y1: a.y + ny * off, x2: b.x + nx * off, y2: b.y + ny * off };
}

function seatDefs() {
  // Each player's cars: their colour crossed by white stripes, so that no player can be taken
  // for a route colour (a red player's route is not a red route).
  return svg("defs", {}, snap.seats.map((_, seat) => svg("pattern", {
    id: `seat-${seat}`, width: 5, height: 5, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)",
  }, [svg("rect", { width: 5, height: 5, fill: playerColor(seat) }), svg("rect", { width: 1.6, height: 5, fill: "#ffffff", "fill-opacity": 0.75 })])));
}

function drawBoard() {
  if (!geo) geo = layout();
  const { pos } = geo;
  const view = snap.view;
  const root = $("board");
  zoom.setBase(geo.frame);
  const claimable = new Set((snap.legal || []).filter((a) => typeof a.route === "string").map((a) => a.route));
  const last = lastMove();
  const lastRoutes = new Set(last ? last.routes : []);
  const trails = trailsOf();
  const routes = board.routes.map((r) => {
    const owner = view.routes[r.id];
    const e = ends(r);
    const dx = e.x2 - e.x1;
    const dy = e.y2 - e.y1;
    const len = Math.hypot(dx, dy) || 1;
    const [ux, uy] = [dx / len, dy / len];
    const margin = Math.min(9, len / 6);
    const gap = 1.5;
    const carLen = Math.max((len - 2 * margin - gap * (r.length - 1)) / r.length, 2);
    const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
    const classes = ["route"];
    if (r.tunnel) classes.push("tunnel");
    if (owner !== undefined) classes.push("claimed");
    else if (claimable.has(r.id)) classes.push("claimable");
    if (selected && selected.route === r.id) classes.push("selected");
    if (lastRoutes.has(r.id)) classes.push("last-move");
    const fill = owner !== undefined ? `url(#seat-${owner})` : ROUTE_FILL[r.color] || "#ccc";
    const parts = [
      svg("title", {}, [`${r.id}: ${r.length} ${r.color}${r.tunnel ? ", tunnel" : ""}${r.ferry ? `, ferry (${r.ferry} locomotive)` : ""}${owner !== undefined ? ` — ${snap.seats[owner].name}'s` : ""}`]),
      svg("line", { class: "halo", ...e }),
      svg("line", { class: "hit", ...e }),
    ];
    for (let i = 0; i < r.length; i++) {
      const along = margin + carLen / 2 + i * (carLen + gap);
      const cx = e.x1 + ux * along;
      const cy = e.y1 + uy * along;
      // a claimed route stands out: fuller cars, striped in the owner's colour, outlined in black
      const h = owner !== undefined ? 9 : 7;
      parts.push(svg("rect", {
        class: "car", x: -carLen / 2, y: -h / 2, width: carLen, height: h, rx: 1.2, fill,
        transform: `translate(${cx.toFixed(1)} ${cy.toFixed(1)}) rotate(${angle.toFixed(1)})`,
      }));
      if (i < r.ferry) parts.push(svg("circle", { class: "ferry", cx: cx.toFixed(1), cy: cy.toFixed(1), r: 1.8 }));
    }
    if (owner !== undefined) {
      // and a marker with the owner's number in its middle
      const mx = (e.x1 + e.x2) / 2;
      const my = (e.y1 + e.y2) / 2;
      parts.push(svg("g", { class: "owner-mark", "data-seat": owner }, [
        svg("circle", { cx: mx.toFixed(1), cy: my.toFixed(1), r: 5.5, stroke: playerColor(owner) }),
        svg("text", { x: mx.toFixed(1), y: (my + 3).toFixed(1) }, [String(owner + 1)]),
      ]));
    }
    const g = svg("g", { class: classes.join(" "), "data-route": r.id }, parts);
    g.addEventListener("click", () => select({ route: r.id }));
    return g;
  });
  const progress = ticketProgress();
  const lastCities = new Set(last ? last.cities : []);
  const cities = board.cities.map((c) => {
    const p = pos[c.name];
    const l = geo.labels[c.name];
    const classes = ["city"];
    if (progress.open.has(c.name)) classes.push("ticket");
    if (lastCities.has(c.name)) classes.push("last-move");
    const g = svg("g", { class: classes.join(" "), "data-city": c.name }, [
      svg("title", {}, [c.name]),
      svg("circle", { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 5 }),
    ]);
    g.addEventListener("click", () => select({ city: c.name }));
    return g;
  });
  // the names above everything, so that no car hides one
  const labels = board.cities.map((c) => {
    const l = geo.labels[c.name];
    return svg("text", { class: "label", "data-city": c.name, x: l.x.toFixed(1), y: l.y.toFixed(1), "text-anchor": l.anchor }, [c.name]);
  });
  const stations = [];
  const built = (view.rules && view.rules.stations) || [];
  built.forEach((s, seat) => {
    for (const city of s.cities || []) {
      const p = pos[city];
      if (p) stations.push(svg("rect", { class: "station", x: p.x - 12, y: p.y + 3, width: 8, height: 8, fill: `url(#seat-${seat})` }, [svg("title", {}, [`${snap.seats[seat].name}'s station`])]));
    }
  });
  const overlays = [];
  for (const t of trails) {
    const points = trailPoints(t.routes);
    if (!points) continue;
    // a light casing under the dashes, so that the trail shows over the owner's own cars
    overlays.push(svg("polyline", { class: "trail-casing", points }));
    overlays.push(svg("polyline", { class: "trail", "data-seat": t.seat, points, stroke: playerColor(t.seat) }, [svg("title", {}, [`${snap.seats[t.seat].name}'s longest trail: ${t.length} spaces`])]));
  }
  for (const b of borrowsOf()) {
    const r = board.routes.find((x) => x.id === b.route);
    if (!r) continue;
    const e = ends(r);
    overlays.push(svg("line", { class: "borrow", "data-seat": b.seat, "data-route": b.route, ...e, stroke: playerColor(b.seat) }, [svg("title", {}, [`${snap.seats[b.seat].name} borrows ${b.route} (${b.label})`])]));
  }
  root.replaceChildren(seatDefs(), svg("g", { class: "routes" }, routes), svg("g", { class: "overlays" }, overlays),
    svg("g", { class: "cities" }, cities), svg("g", {}, stations), svg("g", { class: "labels" }, labels));
}

function trailPoints(ids) {
  // the trail's routes walked end to end, as one line
  const rs = ids.map((id) => board.routes.find((x) => x.id === id)).filter(Boolean);
  if (!rs.length) return null;
  let at = rs.length > 1 && (rs[0].a === rs[1].a || rs[0].a === rs[1].b) ? rs[0].b : rs[0].a;
  const pts = [geo.pos[at]];
  for (const r of rs) {
    at = r.a === at ? r.b : r.a;
    pts.push(geo.pos[at]);
  }
  return pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
}

function ticketById(id) {
  return board.tickets.find((t) => t.id === id);
}

function lastMove() {
  return moves.length ? moves[moves.length - 1] : null;
}

function trailsOf() {
  return snap.view.phase === "over" && trails ? trails.filter((t) => t.routes.length) : [];
}

function borrowsOf() {
  // the routes the stations borrow at the end (R-STA-3)
  const result = snap.view.result;
  if (!result) return [];
  return result.scores.flatMap((s) => (s.borrows || []).filter((b) => b.route).map((b) => ({ seat: s.seat, route: b.route, label: b.label })));
}

function ticketProgress() {
  // The seat's own tickets (only its view has them): which its routes already join, and the
  // cities of the others (highlighted on the board). The end scoring decides (stations borrow).
  const you = snap.view.you;
  const out = { done: new Set(), open: new Set() };
  if (!you || snap.view.phase === "over") return out;
  const joined = connectedBy(snap.seat);
  for (const id of you.tickets) {
    const t = ticketById(id);
    if (!t) continue;
    if (joined(t.a, t.b)) out.done.add(id);
    else { out.open.add(t.a); out.open.add(t.b); }
  }
  return out;
}

// --- the side panel ------------------------------------------------------------------------------

function cardButton(name, extra = {}) {
  const known = CARD_ORDER.includes(name);
  return el("button", { type: "button", class: `card c-${known ? name : "other"}`, ...extra }, [name === "locomotive" ? "loco" : name]);
}

function renderPlayers() {
  const view = snap.view;
  const head = el("tr", {}, ["", "Player", "Trains", "Cards", "Tickets", "Points"].map((h) => el("th", {}, [h])));
  const rows = view.players.map((p, seat) => {
    const tags = [];
    if (seat === snap.seat) tags.push("you");
    if (snap.seats[seat].bot) tags.push(`${snap.seats[seat].bot} bot`);
    if (p.resigned) tags.push("resigned");
    const tr = el("tr", { "data-seat": String(seat) }, [
      el("td", {}, [swatch(seat, String(seat + 1))]),
      el("td", {}, [p.name + (tags.length ? ` (${tags.join(", ")})` : "")]),
      el("td", {}, [String(p.trains)]),
      el("td", {}, [String(p.cards)]),
      el("td", {}, [String(p.tickets)]),
      el("td", { class: "points" }, [String(p.route_points)]),
    ]);
    if (view.to_act.includes(seat)) tr.classList.add("to-act");
    return tr;
  });
  $("players").replaceChildren(head, ...rows);
}

function renderCards() {
  const view = snap.view;
  const draws = legal("draw-card");
  const row = view.open_row.map((name, slot) => {
    if (name === null) return el("button", { type: "button", class: "card c-other", disabled: "" }, ["—"]);
    const action = draws.find((a) => a.slot === slot);
    const b = cardButton(name, { "data-slot": String(slot), title: action ? `Take ${name}` : name });
    if (action) {
      b.classList.add("legal");
      b.addEventListener("click", () => act(action));
    } else b.disabled = true;
    return b;
  });
  $("open-row").replaceChildren(...row);
  const deck = $("deck");
  deck.textContent = `Deck (${view.deck_size})`;
  const blind = draws.find((a) => a.slot === null || a.slot === undefined);
  deck.disabled = !blind;
  deck.classList.toggle("legal", !!blind);
  deck.onclick = blind ? () => act(blind) : null;
  const tickets = $("draw-tickets");
  tickets.textContent = `Tickets (${view.tickets_left})`;
  const draw = legal("draw-tickets")[0];
  tickets.disabled = !draw;
  tickets.classList.toggle("legal", !!draw);
  tickets.onclick = draw ? () => act(draw) : null;
}

function connectedBy(seat) {
  // Which cities the seat's own routes join (a hint beside each ticket; the end scoring decides).
  const parent = {};
  const find = (x) => { while (parent[x] !== undefined && parent[x] !== x) x = parent[x]; return x; };
  for (const [id, owner] of Object.entries(snap.view.routes)) {
    if (owner !== seat) continue;
    const r = board.routes.find((x) => x.id === id);
    if (r) { const [a, b] = [find(r.a), find(r.b)]; if (a !== b) parent[a] = b; }
  }
  return (a, b) => find(a) === find(b);
}

function renderMine() {
  const you = snap.view.you;
  $("mine").hidden = !you;
  if (!you) return;
  const names = [...CARD_ORDER.filter((n) => you.hand[n]), ...Object.keys(you.hand).filter((n) => !CARD_ORDER.includes(n)).sort()];
  $("hand").replaceChildren(...(names.length ? names.map((n) => el("span", {
    class: `card c-${CARD_ORDER.includes(n) ? n : "other"}`, "data-card": n,
  }, [n === "locomotive" ? "loco" : n, el("span", { class: "n" }, [`×${you.hand[n]}`])]))
    : [el("span", { class: "note" }, ["no cards"])]));
  const joined = connectedBy(snap.seat);
  const tickets = you.tickets.map((id) => ({ id, t: ticketById(id) }));
  const done = tickets.filter(({ t }) => t && joined(t.a, t.b)).length;
  $("tickets-progress").textContent = tickets.length ? `${done} of ${tickets.length} connected` : "";
  $("tickets").replaceChildren(...(tickets.length ? tickets.map(({ id, t }) => {
    const connected = t && joined(t.a, t.b);
    const li = el("li", { "data-ticket": id, class: connected ? "done" : "open" }, [
      t ? `${t.a} – ${t.b}` : id, el("span", { class: "state" }, [connected ? "connected" : "open"]),
      el("span", { class: "pts" }, [t ? String(t.points) : ""]),
    ]);
    return li;
  }) : [el("li", { class: "note" }, ["none yet"])]));
}

function actionList(actions) {
  return el("ul", {}, actions.map((a) => {
    const b = el("button", { type: "button", class: "choice", "data-kind": a.kind, "data-action": JSON.stringify(a) }, [describe(a)]);
    b.addEventListener("click", () => act(a));
    return el("li", {}, [b]);
  }));
}

function ticketChooser(options) {
  // The tickets on offer are those of the largest legal choice; a choice is legal when it is
  // exactly one of the listed keep-tickets actions.
  const offered = [...new Set(options.flatMap((a) => a.tickets))];
  const key = offered.join("|");
  if (!ticketChoice || ticketChoice.key !== key) ticketChoice = { key, chosen: new Set(offered) };
  const fewest = Math.min(...options.map((a) => a.tickets.length));
  const matching = () => options.find((a) => a.tickets.length === ticketChoice.chosen.size && a.tickets.every((t) => ticketChoice.chosen.has(t)));
  const keep = el("button", { type: "button", id: "keep-tickets", class: "primary" }, ["Keep these tickets"]);
  const sync = () => { keep.disabled = !matching(); };
  const boxes = offered.map((id) => {
    const t = ticketById(id);
    const box = el("input", { type: "checkbox", value: id });
    box.checked = ticketChoice.chosen.has(id);
    box.addEventListener("change", () => {
      if (box.checked) ticketChoice.chosen.add(id); else ticketChoice.chosen.delete(id);
      sync();
    });
    return el("label", { class: "offer", "data-ticket": id }, [box, ` ${t ? `${t.a} – ${t.b} (${t.points}${t.kind === "long" ? ", long" : ""})` : id}`]);
  });
  keep.addEventListener("click", () => { const a = matching(); if (a) act(a); });
  sync();
  return [el("p", {}, [`Keep at least ${fewest} of these tickets:`]), ...boxes, el("p", {}, [keep])];
}

function renderPanel() {
  const view = snap.view;
  const parts = [];
  const me = snap.seat;
  if (me === null) {
    $("panel").replaceChildren(el("p", { class: "note" }, ["You are watching this game."]));
    return;
  }
  const decision = view.players[me].decision;
  if (decision) parts.push(el("p", { class: "decision" }, [describeDecision(decision)]));
  const keeps = legal("keep-tickets");
  if (keeps.length) parts.push(...ticketChooser(keeps));
  if (selected && selected.route) {
    const r = board.routes.find((x) => x.id === selected.route);
    const owner = view.routes[selected.route];
    parts.push(el("h2", {}, [`${r.id} (${r.length} ${r.color}${r.tunnel ? ", tunnel" : ""}${r.ferry ? `, ${r.ferry} locomotive space` : ""})`]));
    const here = (snap.legal || []).filter((a) => a.route === r.id);
    if (owner !== undefined) parts.push(el("p", {}, [`Claimed by ${snap.seats[owner].name}.`]));
    if (here.length) parts.push(el("p", {}, [owner === undefined ? "Claim it:" : "You may:"]), actionList(here));
    else if (owner === undefined && !view.to_act.includes(me)) parts.push(el("p", { class: "note" }, ["Not your turn."]));
    if (!here.length && refusal && refusal.key.startsWith(`${r.id}@${snap.version}`) && !refusal.key.endsWith("#refused")) {
      parts.push(el("p", { class: "refusal", "data-route": r.id }, [`Cannot claim ${r.id}: ${refusal.text}`]));
    }
  }
  if (refusal && refusal.key.endsWith("#refused")) parts.push(el("p", { class: "refusal refused" }, [refusal.text]));
  if (selected && selected.city) {
    parts.push(el("h2", {}, [selected.city]));
    const here = (snap.legal || []).filter((a) => a.city === selected.city);
    if (here.length) parts.push(el("p", {}, [here.every((a) => a.kind === "build-station") ? "Build a station:" : "You may:"]), actionList(here));
    else if (view.rules && view.rules.stations) parts.push(el("p", { class: "note" }, ["No station can be built here now."]));
  }
  const others = (snap.legal || []).filter((a) => !PLACED.has(a.kind) && !onBoard(a));
  if (others.length) parts.push(el("h2", {}, ["Other actions"]), actionList(others));
  if (!parts.length && view.to_act.includes(me)) {
    parts.push(el("p", { class: "note" }, ["Your turn: take cards from the row or the deck, draw tickets, or click a route to claim it."]));
  }
  $("panel").replaceChildren(...parts);
}

function renderStatus() {
  const view = snap.view;
  const status = $("status");
  const mine = snap.seat !== null && view.to_act.includes(snap.seat);
  status.classList.toggle("mine", mine);
  if (view.phase === "over") status.textContent = "Game over";
  else if (mine) status.textContent = view.phase === "setup" ? "Your move: choose your tickets" : "Your turn";
  else if (view.phase === "setup") status.textContent = "Players are choosing their tickets";
  else status.textContent = `Waiting for ${view.to_act.map((s) => snap.seats[s].name).join(", ")}`;
  const who = snap.seat === null ? "watching" : `you are ${snap.seats[snap.seat].name}`;
  $("title").textContent = board.title || "Ticket to Ride";
  $("meta").textContent = `${snap.variant} rules v${snap.rules_version} · game ${snap.game} · action ${snap.version} · turn ${view.turn} · ${who}${view.final_round ? " · final round" : ""}`;
  const resign = $("resign");
  resign.hidden = !snap.can_resign;
  resign.onclick = async () => {
    if (!window.confirm("Leave this game for good?")) return;
    const res = await api("POST", `/api/games/${encodeURIComponent(gameId)}/resign`, { version: snap.version }, token);
    if (!res.ok) showError(res.body.reason);
    await refresh();
  };
}

function renderGameOver() {
  const view = snap.view;
  const box = $("gameover");
  if (view.phase !== "over" || !view.result) {
    box.hidden = true;
    return;
  }
  const result = view.result;
  const bonusNames = [...new Set(result.scores.flatMap((s) => s.bonuses.map((b) => b.name)))].sort();
  // the engine's facts about each final position that are numbers (the longest trail's length...)
  const factNames = [...new Set(result.scores.flatMap((s) => Object.keys(s.facts || {}).filter((k) => typeof s.facts[k] === "number")))].sort();
  const head = el("tr", {}, ["Player", "Routes", "Tickets done", "Tickets failed", "Ticket points", ...bonusNames.map((b) => `${b} bonus`),
    ...factNames.map((f) => FACT_TITLES[f] || f), "Total"].map((h) => el("th", {}, [h])));
  const rows = result.scores.map((s) => {
    const bonus = (name) => s.bonuses.filter((b) => b.name === name).reduce((n, b) => n + b.points, 0);
    const tr = el("tr", { "data-seat": String(s.seat) }, [
      el("td", {}, [s.name + (s.resigned ? " (resigned)" : "")]),
      el("td", {}, [String(s.routes)]),
      el("td", { title: s.tickets_completed.join(", ") }, [String(s.tickets_completed.length)]),
      el("td", { title: s.tickets_failed.join(", ") }, [String(s.tickets_failed.length)]),
      el("td", {}, [(s.ticket_points > 0 ? "+" : "") + s.ticket_points]),
      ...bonusNames.map((b) => el("td", {}, [String(bonus(b))])),
      ...factNames.map((f) => el("td", { class: "fact", "data-fact": f }, [String(s.facts[f] ?? "")])),
      el("td", { class: "total" }, [String(s.total)]),
    ]);
    if (result.winners.seats.includes(s.seat)) tr.classList.add("winner");
    return tr;
  });
  $("scores").replaceChildren(head, ...rows);
  $("reason").textContent = `The game ended: ${result.reason}.`;
  const names = result.winners.seats.map((s) => snap.seats[s].name);
  $("winners").textContent = `${names.join(" and ")} ${names.length === 1 ? "wins" : "win"} (decided by ${result.winners.decided_by}).`;
  $("record-link").href = `/api/games/${encodeURIComponent(gameId)}/record`;
  $("reveal").replaceChildren(...result.scores.map(revealOf));
  $("show-scores").hidden = false;
  box.hidden = overDismissed;
}

const FACT_TITLES = { "longest-path": "Longest trail (spaces)" };

function revealOf(s) {
  // One player's hand laid open: every ticket, done or failed, the stations' borrows, the trail.
  const ticket = (id, done) => {
    const t = ticketById(id);
    return el("li", { class: done ? "done" : "failed", "data-ticket": id }, [
      `${done ? "✓" : "✗"} ${t ? `${t.a} – ${t.b}` : id}`, el("span", { class: "pts" }, [t ? `${done ? "+" : "−"}${t.points}` : ""]),
    ]);
  };
  const parts = [
    el("h3", {}, [swatch(s.seat), ` ${s.name}`]),
    el("ul", { class: "tickets" }, [...s.tickets_completed.map((id) => ticket(id, true)), ...s.tickets_failed.map((id) => ticket(id, false))]),
  ];
  const borrows = (s.borrows || []).map((b) => el("li", { class: "borrow" }, [b.route ? `${b.label} borrows ${b.route}` : `${b.label} borrows nothing`]));
  if (borrows.length) parts.push(el("ul", { class: "borrows" }, borrows));
  const trail = trails && trails.find((t) => t.seat === s.seat);
  if (trail && trail.routes.length) parts.push(el("p", { class: "trail-note" }, [`Longest trail: ${trail.length} spaces (${trail.routes.join(", ")})`]));
  for (const n of s.notes || []) parts.push(el("p", { class: "note" }, [n]));
  return el("section", { class: "reveal", "data-seat": String(s.seat) }, parts);
}

function swatch(seat, text = "") {
  // the player's colour, striped as their cars are (set through the CSSOM: the page's policy
  // allows no inline style attribute)
  const span = el("span", { class: "swatch", "data-seat": String(seat) }, text ? [text] : []);
  const c = playerColor(seat);
  span.style.background = `repeating-linear-gradient(45deg, ${c} 0 3px, #ffffffb0 3px 4.5px)`;
  return span;
}

function renderMoves() {
  // Newest first; the newest is the one highlighted on the board.
  const items = [];
  moves.forEach((m, i) => {
    const when = m.turn === null ? "setup" : `T${m.turn}`;
    const li = el("li", { "data-first": String(m.first), "data-seat": String(m.seat) }, [
      el("span", { class: "when" }, [when]), " ", swatch(m.seat), ` ${m.text}${m.over ? "" : " …"}`,
    ]);
    if (i === moves.length - 1) li.classList.add("last");
    items.push(li);
    if (m.final_round) items.push(el("li", { class: "final-round" }, [`— ${m.final_round} —`]));
  });
  $("moves").replaceChildren(...items.reverse());
  const last = lastMove();
  document.body.dataset.lastMove = last ? String(last.first) : "";
}

function render() {
  renderStatus();
  drawBoard();
  renderPlayers();
  renderCards();
  renderMine();
  renderPanel();
  renderGameOver();
  renderMoves();
  document.body.dataset.version = String(snap.version);
}

$("close-gameover").addEventListener("click", () => { overDismissed = true; $("gameover").hidden = true; });
$("show-scores").addEventListener("click", () => { overDismissed = false; $("gameover").hidden = false; });
$("zoom-in").addEventListener("click", () => zoom.zoomAt(1.25));
$("zoom-out").addEventListener("click", () => zoom.zoomAt(1 / 1.25));
$("zoom-reset").addEventListener("click", () => zoom.reset());
refresh().then(follow);
