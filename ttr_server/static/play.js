// The game page: the board drawn from the map's city coordinates, the open row, your hand and
// tickets, the players; you act by clicking or tapping. What can be done comes from the seat's
// legal actions as the server lists them, so a rule set's own actions (tunnels, stations,
// controllers) show up without this page knowing them: a route or a city lists its legal actions,
// and every other legal action is a button under "Other actions". Beside the board (under it, in
// tabs, on a phone): the move log (every turn in words, the same for every reader), and at the end
// every player's tickets and what the variant's rules mark on the board (trails, borrows). The
// board's geometry and zoom are board.js's, its drawing draw.js's, the plain words words.js's.
import { api, el, showError } from "/static/common.js";
import { ZoomPan, frame, placeLabels, project } from "/static/board.js";
import { BoardDrawing, routeTitle, seatColors } from "/static/draw.js";
import { bonusName, capital, colourName, idWords, plain, plural, refusalWords } from "/static/words.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
// The seat's token rides in the fragment, which browsers never send to a server or a referrer.
const token = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;

const CARD_ORDER = ["purple", "blue", "orange", "white", "green", "yellow", "black", "red", "locomotive"];
// Kinds that have their own place on the page. An action naming a route or a city is listed when
// that route or city is clicked; any other legal action is a button under "Other actions".
const PLACED = new Set(["draw-card", "keep-tickets", "draw-tickets"]);
const onBoard = (a) => typeof a.route === "string" || typeof a.city === "string";
// The least a route's or a city's hit area measures on the screen, in pixels (draw.js sizes them).
const FINGER = 32;

let board = null; // the map, from /api/variants/{id}/board
let geo = null; // city positions on the SVG
let drawing = null; // the board's drawing (draw.js), built once per map
let snap = null; // the latest GET /api/games/{id}
let selected = null; // {route: id} or {city: name}
let candidates = null; // [{route} | {city}]: what a tap may have meant, to choose from
let ticketChoice = null; // {key, chosen: Set} while tickets are on offer
let hoverTicket = null; // the ticket under the pointer (its cities are lit on the board)
let pinnedTicket = null; // the ticket last tapped or chosen
let busy = false;
let overDismissed = false;
let loading = null;
let again = false;
let moves = []; // the move log, oldest first (GET /api/games/{id}/moves)
let seenMoves = null; // how many of them the Moves tab has shown (a phone), from the page's opening
let highlights = null; // what the variant's rules mark on the final position (trails, borrows...), once over
let refusal = null; // {key, text}: why the last claim tried, or the route looked at, cannot be had
let variantInfo = null; // this game's entry of GET /api/variants
let shownRow = null; // the open row and the hand last drawn, to mark what came in
let shownHand = null;
const narrow = window.matchMedia("(max-width: 899px)");
const zoom = new ZoomPan(document.getElementById("board"), sizeHits);

const $ = (id) => document.getElementById(id);
const legal = (kind) => (snap && snap.legal ? snap.legal.filter((a) => a.kind === kind) : []);
const names = () => snap.seats.map((s) => s.name);
const routeOf = (id) => board.routes.find((r) => r.id === id);

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
        showError(plain(res.body.reason));
        $("status").textContent = "Cannot show this game";
        return;
      }
      if (!board || board.variant !== res.body.variant || board.version !== res.body.rules_version) {
        const b = await api("GET", `/api/variants/${encodeURIComponent(res.body.variant)}/board?version=${res.body.rules_version}`);
        if (!b.ok) return showError(plain(b.body.reason));
        board = b.body;
        geo = null;
        drawing = null;
      }
      snap = res.body;
      await Promise.all([loadMoves(), loadHighlights(), loadRefusal(), loadVariant()]);
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

async function loadHighlights() {
  // the plugins' answer (ttr_highlights): a variant without the longest-path bonus draws no trail
  if (highlights || snap.view.phase !== "over") return;
  const res = await api("GET", `/api/games/${encodeURIComponent(gameId)}/highlights`);
  if (res.ok) highlights = res.body.highlights;
}

async function loadVariant() {
  if (variantInfo) return;
  const res = await api("GET", "/api/variants");
  if (res.ok) variantInfo = res.body.variants.find((v) => v.id === snap.variant) || null;
}

async function loadRefusal() {
  // A route looked at that the seat cannot claim: ask the engine why (the cards missing, or the
  // rule that closes it), once per route and game version.
  if (snap.seat === null || !selected || !selected.route || snap.view.phase === "over") return;
  if (snap.view.routes[selected.route] !== undefined) return; // taken: the panel says by whom
  const key = `${selected.route}@${snap.version}`;
  if ((refusal && refusal.key.startsWith(key)) || (snap.legal || []).some((a) => a.route === selected.route)) return;
  const res = await api("GET", `/api/games/${encodeURIComponent(gameId)}/claim-check?route=${encodeURIComponent(selected.route)}`, undefined, token);
  if (res.ok && res.body.refusal) {
    const me = snap.view.players[snap.seat];
    refusal = { key, text: refusalWords(res.body, routeOf(selected.route), (snap.view.you || {}).hand || {}, names(), me.trains) };
  }
}

async function select(what) {
  selected = what;
  candidates = null;
  refusal = null;
  showTab("play");
  render();
  await loadRefusal();
  if (refusal) render();
}

function choose(targets) {
  // several routes or cities under one tap: the panel lists them, the board marks them
  candidates = targets;
  selected = null;
  refusal = null;
  showTab("play");
  render();
}

async function act(action) {
  if (busy || !snap) return;
  busy = true;
  showError("");
  const res = await api("POST", `/api/games/${encodeURIComponent(gameId)}/actions`, { version: snap.version, action }, token);
  busy = false;
  if (res.ok) {
    selected = null;
    candidates = null;
    refusal = null;
  } else if (res.status === 409) {
    showError("The game moved on meanwhile: here it is now.");
  } else {
    const why = plain(res.body.reason, names()) || `refused (${res.status})`;
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
      const route = routeOf(a.route);
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
      // a rule set's own action: its kind and fields in words
      const fields = Object.entries(a).filter(([k]) => k !== "kind").map(([k, v]) => `${idWords(k)} ${Array.isArray(v) ? v.join(", ") : v}`);
      return capital(idWords(a.kind)) + (fields.length ? `: ${fields.join(", ")}` : "");
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
      return `Your move: ${idWords(d.kind)}.`;
  }
}

// --- the board ---------------------------------------------------------------------------------

function measureNames() {
  // The names' widths as the board draws them (its font, from style.css).
  const root = $("board");
  const probe = document.createElementNS("http://www.w3.org/2000/svg", "g");
  probe.setAttribute("class", "city");
  root.append(probe);
  const widths = {};
  for (const c of board.cities) {
    const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
    t.textContent = c.name;
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

function sizeHits(zp) {
  // A route's and a city's hit areas are at least FINGER screen pixels across, whatever the zoom
  // (never less than the drawing's own size), under a mouse as under a finger: where they
  // overlap on a crowded board, a click there asks which was meant, and a click on a route's
  // cars is never in doubt.
  document.body.classList.toggle("touch", zp.touch);
  if (!drawing) return;
  const s = zp.scale();
  drawing.setHitSizes(Math.max(12, (FINGER + 1) / s), Math.max(8, (FINGER + 1) / 2 / s));
}

function onBoardClick(ev) {
  if (!drawing || !snap) return;
  // A finger's tap on a board drawn too small for fingers zooms in where it tapped (the zoom at
  // which the hit areas are a finger wide, board.js); once there, a tap picks.
  const at = zoom.tapPoint(ev);
  if (ev.isTrusted && zoom.pointerType === "touch" && zoom.k < zoom.tapZoom() - 0.01) {
    zoom.zoomTo(zoom.tapZoom(), zoom.toBoard(at.x, at.y));
    return;
  }
  const targets = drawing.targetsAt(ev, at);
  if (targets.length === 1) select(targets[0]);
  else if (targets.length > 1) choose(targets);
}

function ensureDrawing() {
  if (!geo) geo = layout();
  if (!drawing) {
    drawing = new BoardDrawing($("board"), board, geo, seatColors(snap.seats.length), names());
    zoom.setBase(geo.frame);
    sizeHits(zoom);
  }
}

function drawBoard() {
  ensureDrawing();
  const view = snap.view;
  const last = lastMove();
  const built = Array.isArray(view.rules && view.rules.stations) ? view.rules.stations : [];
  drawing.update({
    owners: view.routes,
    claimable: new Set((snap.legal || []).filter((a) => typeof a.route === "string").map((a) => a.route)),
    selected,
    candidates: new Set((candidates || []).map((c) => (c.route ? `route:${c.route}` : `city:${c.city}`))),
    lastRoutes: new Set(last ? last.routes : []),
    lastCities: new Set(last ? last.cities : []),
    ticketCities: ticketProgress().open,
    lit: litByTicket(),
    stations: built.flatMap((s, seat) => (s.cities || []).map((city) => ({ seat, city }))),
    highlights: highlightsOf().map((h) => (h.shape === "trail" ? { ...h, points: trailPoints(h.routes) } : h))
      .filter((h) => h.shape !== "trail" || h.points),
  });
}

function litByTicket() {
  // The cities of the ticket looked at (hovered, or last tapped), and the seat's own routes that
  // already reach either of them.
  const out = { cities: new Set(), routes: new Set() };
  const t = ticketById(hoverTicket || pinnedTicket);
  if (!t) return out;
  out.cities.add(t.a);
  out.cities.add(t.b);
  if (snap.seat === null) return out;
  const joined = connectedBy(snap.seat);
  for (const [id, owner] of Object.entries(snap.view.routes)) {
    const r = routeOf(id);
    if (owner === snap.seat && r && (joined(r.a, t.a) || joined(r.a, t.b))) out.routes.add(id);
  }
  return out;
}

function lightTicket(id, pinned = false) {
  if (pinned) pinnedTicket = pinnedTicket === id ? null : id;
  else hoverTicket = id;
  for (const node of document.querySelectorAll("[data-ticket]")) {
    node.classList.toggle("lit", !!node.closest("#tickets, #panel") && node.dataset.ticket === (hoverTicket || pinnedTicket));
  }
  if (snap) drawBoard();
}

function ticketHover(node, id) {
  // hovering, focusing or tapping a ticket lights its two cities on the board
  node.addEventListener("mouseenter", () => lightTicket(id));
  node.addEventListener("mouseleave", () => lightTicket(null));
  node.addEventListener("focusin", () => lightTicket(id));
  node.addEventListener("focusout", () => lightTicket(null));
}

function trailPoints(ids) {
  // the trail's routes walked end to end, as one line
  const rs = ids.map(routeOf).filter(Boolean);
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
  return id ? board.tickets.find((t) => t.id === id) : undefined;
}

function lastMove() {
  return moves.length ? moves[moves.length - 1] : null;
}

function highlightsOf() {
  return snap.view.phase === "over" && highlights ? highlights.filter((h) => h.routes.length) : [];
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

function swatch(seat, text = "") {
  // the player's colour and pattern, as on their cars
  return el("span", { class: `swatch seat-${seat % 6}`, "data-seat": String(seat) }, text ? [text] : []);
}

function who(seat, name) {
  return el("span", { class: `who seat-${seat % 6}`, "data-seat": String(seat) }, [name]);
}

function renderPlayers() {
  // During the game, what each player has on the table; once it is over, the final totals
  // replace the route points (the breakdown is one tap away, "Scores and tickets").
  const view = snap.view;
  const over = view.phase === "over" && view.result;
  const stations = Array.isArray(view.rules && view.rules.stations) ? view.rules.stations : null;
  const heads = ["", "Player", "Trains", "Cards", "Tickets", ...(stations ? ["Stations"] : []), over ? "Total" : "Points"];
  const head = el("tr", {}, heads.map((h, i) => el("th", i === heads.length - 1 ? { class: "points" } : {}, [h])));
  const rows = view.players.map((p, seat) => {
    const tags = [];
    if (seat === snap.seat) tags.push("you");
    if (snap.seats[seat].bot) tags.push(`${snap.seats[seat].bot} bot`);
    if (p.resigned) tags.push("resigned");
    const score = over ? view.result.scores.find((s) => s.seat === seat) : null;
    const points = el("td", { class: "points" }, [String(score ? score.total : p.route_points)]);
    if (score) points.title = `${score.routes} for routes, ${score.ticket_points} for tickets, ${score.total - score.routes - score.ticket_points} in bonuses`;
    const tr = el("tr", { "data-seat": String(seat) }, [
      el("td", {}, [swatch(seat, String(seat + 1))]),
      el("td", { class: "name" }, [p.name, ...(tags.length ? [el("span", { class: "tags" }, [tags.join(", ")])] : [])]),
      el("td", {}, [String(p.trains)]),
      el("td", {}, [String(p.cards)]),
      el("td", {}, [String(p.tickets)]),
      ...(stations ? [el("td", { class: "stations-left", title: "stations left to build" }, [String(stations[seat] ? stations[seat].left : "")])] : []),
      points,
    ]);
    if (view.to_act.includes(seat)) tr.classList.add("to-act");
    return tr;
  });
  $("players").replaceChildren(head, ...rows);
  $("players").classList.toggle("over", !!over);
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
    if (shownRow && shownRow[slot] !== name) b.classList.add("fresh");
    return b;
  });
  shownRow = [...view.open_row];
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
    const r = routeOf(id);
    if (r) { const [a, b] = [find(r.a), find(r.b)]; if (a !== b) parent[a] = b; }
  }
  return (a, b) => find(a) === find(b);
}

function renderMine() {
  const you = snap.view.you;
  $("mine").hidden = !you;
  $("my-tickets").hidden = !you;
  $("tab-tickets").hidden = !you;
  if (!you) return;
  const cards = [...CARD_ORDER.filter((n) => you.hand[n]), ...Object.keys(you.hand).filter((n) => !CARD_ORDER.includes(n)).sort()];
  $("hand").replaceChildren(...(cards.length ? cards.map((n) => {
    const chip = el("span", { class: `card c-${CARD_ORDER.includes(n) ? n : "other"}`, "data-card": n },
      [n === "locomotive" ? "loco" : n, el("span", { class: "n" }, [`×${you.hand[n]}`])]);
    if (shownHand && (shownHand[n] || 0) < you.hand[n]) chip.classList.add("fresh");
    return chip;
  }) : [el("span", { class: "note" }, ["no cards"])]));
  shownHand = { ...you.hand };
  // during the game, what the seat's own routes join (a hint); at the end, the scoring's verdict
  const score = snap.view.result ? snap.view.result.scores.find((x) => x.seat === snap.seat) : null;
  const joined = connectedBy(snap.seat);
  const isDone = (id, t) => (score ? score.tickets_completed.includes(id) : !!t && joined(t.a, t.b));
  const tickets = you.tickets.map((id) => ({ id, t: ticketById(id) }));
  const done = tickets.filter(({ id, t }) => isDone(id, t)).length;
  $("tickets-progress").textContent = tickets.length ? `${done} of ${tickets.length} ${score ? "completed" : "connected"}` : "";
  $("tab-tickets").replaceChildren("Tickets", ...(tickets.length ? [" ", el("span", { class: "count" }, [`${done}/${tickets.length}`])] : []));
  $("tickets").replaceChildren(...(tickets.length ? tickets.map(({ id, t }) => {
    const connected = isDone(id, t);
    const state = score ? (connected ? "completed" : "failed") : connected ? "connected" : "open";
    const li = el("li", { "data-ticket": id, class: connected ? "done" : score ? "failed" : "open", tabindex: "0", title: "Show its cities on the board" }, [
      t ? `${t.a} – ${t.b}` : id, el("span", { class: "state" }, [state]),
      el("span", { class: "pts" }, [t ? String(t.points) : ""]),
    ]);
    if (id === (hoverTicket || pinnedTicket)) li.classList.add("lit");
    ticketHover(li, id);
    li.addEventListener("click", () => lightTicket(id, true));
    li.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); lightTicket(id, true); } });
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
      pinnedTicket = null;
      lightTicket(id, true);
      sync();
    });
    const label = el("label", { class: `offer${t && t.kind === "long" ? " long" : ""}`, "data-ticket": id },
      [box, ` ${t ? `${t.a} – ${t.b} (${t.points}${t.kind === "long" ? ", long" : ""})` : id}`]);
    if (id === (hoverTicket || pinnedTicket)) label.classList.add("lit");
    ticketHover(label, id);
    return label;
  });
  keep.addEventListener("click", () => { const a = matching(); if (a) act(a); });
  sync();
  return [el("p", {}, [`Keep at least ${fewest} of these tickets:`]), ...boxes, el("p", {}, [keep])];
}

function chooser() {
  // the routes or cities under a tap, to pick one
  const buttons = candidates.map((c) => {
    const r = c.route ? routeOf(c.route) : null;
    const owner = r ? snap.view.routes[r.id] : undefined;
    const text = r ? `${r.a} – ${r.b} (${r.length} ${colourName(r.color)}${r.tunnel ? ", tunnel" : ""})${owner !== undefined ? `, ${snap.seats[owner].name}'s` : ""}` : c.city;
    const b = el("button", { type: "button", class: "choice pick", ...(r ? { "data-route": r.id } : { "data-city": c.city }) }, [text]);
    b.addEventListener("click", () => select(c.route ? { route: c.route } : { city: c.city }));
    return el("li", {}, [b]);
  });
  return [el("h2", {}, ["Which one?"]), el("ul", { class: "candidates" }, buttons)];
}

function renderPanel() {
  const view = snap.view;
  const parts = [];
  const me = snap.seat;
  if (candidates) parts.push(...chooser());
  if (me === null) {
    parts.push(el("p", { class: "note" }, ["You are watching this game."]));
    if (selected && selected.route) parts.push(el("p", {}, [routeTitle(routeOf(selected.route))]));
    $("panel").replaceChildren(...parts);
    return;
  }
  const decision = view.players[me].decision;
  if (decision) parts.push(el("p", { class: "decision" }, [describeDecision(decision)]));
  const keeps = legal("keep-tickets");
  if (keeps.length) parts.push(...ticketChooser(keeps));
  if (selected && selected.route) {
    const r = routeOf(selected.route);
    const owner = view.routes[selected.route];
    parts.push(el("h2", {}, [`${r.id} (${r.length} ${colourName(r.color)}${r.tunnel ? ", tunnel" : ""}${r.ferry ? `, ${plural(r.ferry, "locomotive space")}` : ""})`]));
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
  if (view.phase === "over" && view.result) {
    // on a phone the players' table (and its button) is another tab; on a desktop it is beside this
    const scores = el("button", { type: "button", class: "primary" }, ["Scores and tickets"]);
    scores.addEventListener("click", () => { overDismissed = false; $("gameover").hidden = false; });
    parts.push(el("p", {}, ["The game is over."]), el("p", { class: "narrow-only" }, [scores]));
  }
  const others = (snap.legal || []).filter((a) => !PLACED.has(a.kind) && !onBoard(a));
  if (others.length) parts.push(el("h2", {}, ["Other actions"]), actionList(others));
  if (!parts.length && view.to_act.includes(me)) {
    parts.push(el("p", { class: "note" }, [zoom.touch
      ? "Your turn: take cards from the row or the deck, draw tickets, or tap the board to find a route to claim."
      : "Your turn: take cards from the row or the deck, draw tickets, or click a route to claim it."]));
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
  const whoAmI = snap.seat === null ? "watching" : `you are ${snap.seats[snap.seat].name}`;
  $("title").textContent = board.title || "Ticket to Ride";
  const title = variantInfo ? variantInfo.title : snap.variant;
  $("meta").textContent = `${title} · rules version ${snap.rules_version} · turn ${view.turn + 1} · ${whoAmI}${view.final_round ? " · final round" : ""}`;
  const resign = $("resign");
  resign.hidden = !snap.can_resign;
  resign.onclick = async () => {
    if (!window.confirm("Leave this game for good?")) return;
    const res = await api("POST", `/api/games/${encodeURIComponent(gameId)}/resign`, { version: snap.version }, token);
    if (!res.ok) showError(plain(res.body.reason, names()));
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
  const bonusIds = [...new Set(result.scores.flatMap((s) => s.bonuses.map((b) => b.name)))].sort();
  // the engine's facts about each final position that are numbers (the longest trail's length...)
  const factIds = [...new Set(result.scores.flatMap((s) => Object.keys(s.facts || {}).filter((k) => typeof s.facts[k] === "number")))].sort();
  // a narrow screen shows the tickets' points and the bonuses summed (each player's box below
  // has them line by line); a wide one every column
  const th = (text, cls = "") => el("th", cls ? { class: cls } : {}, [text]);
  const head = el("tr", {}, [th("Player"), th("Routes"), th("Tickets done", "wide"), th("Tickets failed", "wide"), th("Tickets"),
    ...bonusIds.map((b) => th(bonusTitle(b), "wide")), th("Bonuses", "narrow"),
    ...factIds.map((f) => th(bonusName(f, board && board.rules ? board.rules.facts : {}), "wide")), th("Total", "total")]);
  const rows = result.scores.map((s) => {
    const bonus = (name) => s.bonuses.filter((b) => b.name === name).reduce((n, b) => n + b.points, 0);
    const bonuses = s.bonuses.reduce((n, b) => n + b.points, 0);
    const tr = el("tr", { "data-seat": String(s.seat) }, [
      el("td", {}, [s.name + (s.resigned ? " (resigned)" : "")]),
      el("td", {}, [String(s.routes)]),
      el("td", { class: "wide", title: s.tickets_completed.join(", ") }, [String(s.tickets_completed.length)]),
      el("td", { class: "wide", title: s.tickets_failed.join(", ") }, [String(s.tickets_failed.length)]),
      el("td", {}, [signed(s.ticket_points)]),
      ...bonusIds.map((b) => el("td", { class: "wide" }, [String(bonus(b))])),
      el("td", { class: "narrow bonuses" }, [String(bonuses)]),
      ...factIds.map((f) => el("td", { class: "fact wide", "data-fact": f }, [String(s.facts[f] ?? "")])),
      el("td", { class: "total" }, [String(s.total)]),
    ]);
    if (result.winners.seats.includes(s.seat)) tr.classList.add("winner");
    return tr;
  });
  $("scores").replaceChildren(head, ...rows);
  $("reason").textContent = `The game ended: ${plain(result.reason, names())}.`;
  const winners = result.winners.seats.map((s) => snap.seats[s].name);
  $("winners").textContent = `${winners.join(" and ")} ${winners.length === 1 ? "wins" : "win"} (decided by ${idWords(result.winners.decided_by)}).`;
  $("record-link").href = `/api/games/${encodeURIComponent(gameId)}/record`;
  $("reveal").replaceChildren(...result.scores.map(revealOf));
  $("show-scores").hidden = false;
  box.hidden = overDismissed;
}

// what the plugin that gives a bonus calls it
const bonusTitle = (name) => bonusName(name, board && board.rules ? board.rules.bonuses : {});

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

function revealOf(s) {
  // One player's hand laid open: the score line by line, every ticket, done or failed, the
  // stations' borrows (listed once: the engine's notes that say the same are left out), what the
  // rules mark on the board (the longest trail...) unless a borrow above says it already.
  const ticket = (id, done) => {
    const t = ticketById(id);
    return el("li", { class: done ? "done" : "failed", "data-ticket": id }, [
      `${done ? "✓" : "✗"} ${t ? `${t.a} – ${t.b}` : id}`, el("span", { class: "pts" }, [t ? `${done ? "+" : "−"}${t.points}` : ""]),
    ]);
  };
  const line = (label, points) => el("li", {}, [el("span", {}, [label]), el("span", {}, [String(points)])]);
  const parts = [
    el("h3", {}, [swatch(s.seat), ` ${s.name}: ${s.total}`]),
    el("ul", { class: "lines" }, [
      line("Routes", s.routes),
      line("Tickets", signed(s.ticket_points)),
      ...s.bonuses.map((b) => line(`${bonusTitle(b.name)}${b.detail ? ` (${plain(b.detail, [])})` : ""}`, signed(b.points))),
    ]),
    el("ul", { class: "tickets" }, [...s.tickets_completed.map((id) => ticket(id, true)), ...s.tickets_failed.map((id) => ticket(id, false))]),
  ];
  const borrowed = (s.borrows || []).filter((b) => b.route);
  const borrows = (s.borrows || []).map((b) => el("li", { class: "borrow" }, [b.route ? `${b.label} borrows ${b.route}` : `${b.label} borrows nothing`]));
  if (borrows.length) parts.push(el("ul", { class: "borrows" }, borrows));
  const listed = new Set(borrowed.map((b) => `${b.label} borrows ${b.route}`));
  for (const h of highlightsOf().filter((x) => x.seat === s.seat && !listed.has(x.title))) {
    parts.push(el("p", { class: `highlight-note ${h.shape}-note`, "data-highlight": h.name }, [`${capital(h.title)} (${h.routes.join(", ")})`]));
  }
  const said = (n) => borrowed.some((b) => n.includes(b.label) && n.includes(b.route));
  for (const n of s.notes || []) if (!said(n)) parts.push(el("p", { class: "note" }, [capital(plain(n, names()))]));
  return el("section", { class: "reveal", "data-seat": String(s.seat) }, parts);
}

function renderMoves() {
  // Newest first; the newest is the one highlighted on the board. A turn still going on (a
  // second card to take, a tunnel to pay) says so.
  const items = [];
  moves.forEach((m, i) => {
    const when = m.turn === null ? "setup" : `turn ${m.turn + 1}`;
    const rest = m.text.startsWith(m.name) ? m.text.slice(m.name.length) : ` ${m.text}`;
    const li = el("li", { "data-first": String(m.first), "data-seat": String(m.seat) }, [
      el("span", { class: "when" }, [when]), " ", swatch(m.seat), " ", who(m.seat, m.name), ` ${plain(rest, names())}`,
    ]);
    if (!m.over) {
      li.classList.add("going");
      li.append(" ", el("span", { class: "going-tag" }, ["(still playing)"]));
    }
    if (i === moves.length - 1) li.classList.add("last");
    items.push(li);
    if (m.final_round) items.push(el("li", { class: "final-round" }, [`— ${capital(plain(m.final_round, names()))} —`]));
  });
  $("moves").replaceChildren(...items.reverse());
  const last = lastMove();
  document.body.dataset.lastMove = last ? String(last.first) : "";
  // on a phone, the Moves tab counts the turns come in since it was last looked at
  if (seenMoves === null || $("moves").offsetParent !== null) seenMoves = moves.length;
  const unseen = moves.length - seenMoves;
  $("unseen").hidden = unseen <= 0;
  $("unseen").textContent = unseen > 0 ? String(unseen) : "";
}

// --- tabs (a phone), the rules -------------------------------------------------------------------

function showTab(tab) {
  const table = document.querySelector(".table");
  if (table.dataset.tab === tab) return;
  table.dataset.tab = tab;
  for (const b of document.querySelectorAll(".tabs [role=tab]")) b.setAttribute("aria-selected", String(b.dataset.tab === tab));
  if (tab === "moves") { seenMoves = moves.length; $("unseen").hidden = true; }
}

function followDecisions() {
  // on a phone, what asks for an answer (tickets to keep, a tunnel's extra cards) comes into view
  if (!narrow.matches || snap.seat === null) return;
  const d = snap.view.players[snap.seat].decision;
  const key = d ? `${d.kind}@${snap.version}` : null;
  if (key && key !== followDecisions.last && (d.kind === "choose-tickets" || d.kind === "tunnel-extra")) showTab("play");
  followDecisions.last = key;
}

function renderRules() {
  // What GET /api/variants says of this game's rules, and what the seat's view tells of them.
  const v = variantInfo;
  const rules = snap.view.rules || {};
  const parts = [el("p", {}, [el("strong", {}, [v ? v.title : snap.variant]), `, rules version ${snap.rules_version}`])];
  if (v && v.description) parts.push(el("p", {}, [plain(v.description)]));
  if (v && v.version !== snap.rules_version) parts.push(el("p", { class: "note" }, [`New games get version ${v.version} of these rules; this one keeps version ${snap.rules_version}.`]));
  const facts = [];
  const stations = Array.isArray(rules.stations) ? rules.stations : null;
  if (stations) facts.push(`Stations: ${plural(stations.reduce((m, s) => Math.max(m, s.left + (s.cities || []).length), 0), "station")} each; a station lets its owner use one route of another player into its city for tickets.`);
  if (rules.tunnels) facts.push(`Tunnels: ${plural(rules.tunnels.reveal, "card")} turned from the deck; each one of the route's colour${rules.tunnels.revealed_locomotives === "always" ? " or a locomotive" : ""} asks for one more card.`);
  for (const b of Array.isArray(rules["majority-bonuses"]) ? rules["majority-bonuses"] : []) facts.push(`${bonusTitle(b.name)}: ${b.points} points for the most ${idWords(b.measure)}.`);
  if (rules.controller) facts.push(`Controller cards: build or dismantle a route of up to ${rules.controller.max_length} spaces.`);
  if (facts.length) parts.push(el("ul", { class: "rules-list" }, facts.map((f) => el("li", {}, [f]))));
  const inPlay = board && board.rules ? board.rules.plugins : [];
  if (inPlay.length) {
    // each rule as its plugin calls it, with its parameters in force (what `ttr variants show` says)
    parts.push(el("h3", {}, ["Rules in play"]), el("ul", { class: "rule-names" }, inPlay.map((p) => el("li", {}, [
      el("strong", {}, [p.title]),
      ...(p.parameters.length ? [el("ul", {}, p.parameters.map((q) => el("li", {}, [`${capital(q.doc)}: `, el("b", {}, [q.value])])))] : []),
    ]))));
  }
  parts.push(el("p", { class: "note" }, [`Game ${snap.game}, ${plural(snap.version, "action")} so far.`]));
  $("rules-body").replaceChildren(...parts);
}

function render() {
  renderStatus();
  drawBoard();
  renderPlayers();
  renderCards();
  renderMine();
  renderPanel();
  renderGameOver();
  followDecisions();
  renderMoves();
  if (!$("rules").hidden) renderRules();
  document.body.dataset.version = String(snap.version);
}

$("board").addEventListener("click", onBoardClick);
$("close-gameover").addEventListener("click", () => { overDismissed = true; $("gameover").hidden = true; });
$("show-scores").addEventListener("click", () => { overDismissed = false; $("gameover").hidden = false; });
$("show-rules").addEventListener("click", () => { if (snap) renderRules(); $("rules").hidden = false; });
$("close-rules").addEventListener("click", () => { $("rules").hidden = true; });
$("zoom-in").addEventListener("click", () => zoom.zoomAt(1.25));
$("zoom-out").addEventListener("click", () => zoom.zoomAt(1 / 1.25));
$("zoom-reset").addEventListener("click", () => zoom.reset());
for (const b of document.querySelectorAll(".tabs [role=tab]")) b.addEventListener("click", () => { showTab(b.dataset.tab); if (snap) renderMoves(); });
window.addEventListener("resize", () => { if (drawing) zoom.apply(); }); // the window follows the board's new shape
if (window.matchMedia("(pointer: coarse)").matches) { zoom.touch = true; document.body.classList.add("touch"); }
refresh().then(follow);
