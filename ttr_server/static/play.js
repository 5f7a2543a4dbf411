// The game page: the board drawn from the map's city coordinates, the open row, your hand and
// tickets, the players; you act by clicking. What can be clicked comes from the seat's legal
// actions as the server lists them, so a rule set's own actions (tunnels, stations, controllers)
// show up without this page knowing them: a route or a city lists its legal actions, and every
// other legal action is a button under "Other actions".
import { api, el, svg, showError } from "/static/common.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
// The seat's token rides in the fragment, which browsers never send to a server or a referrer.
const token = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;

const CARD_ORDER = ["purple", "blue", "orange", "white", "green", "yellow", "black", "red", "locomotive"];
const ROUTE_FILL = {
  purple: "#b07cc6", blue: "#5b8fe0", orange: "#f3a43b", white: "#fdfdfd", green: "#5bbd6b",
  yellow: "#f7dc4d", black: "#3a3a3a", red: "#e05050", gray: "#b8b8b8",
};
const PLAYER_COLORS = ["#d7263d", "#1b4fd1", "#139a43", "#f0a202", "#7b2cbf", "#0b0b0b"];
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
      render();
    } while (again);
  })();
  try {
    await loading;
  } finally {
    loading = null;
  }
}

async function act(action) {
  if (busy || !snap) return;
  busy = true;
  showError("");
  const res = await api("POST", `/api/games/${encodeURIComponent(gameId)}/actions`, { version: snap.version, action }, token);
  busy = false;
  if (res.ok) {
    selected = null;
  } else if (res.status === 409) {
    showError("The game moved on meanwhile: here it is now.");
  } else {
    showError(res.body.reason || `refused (${res.status})`);
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

function layout() {
  // An equirectangular projection around the map's middle latitude: close enough at a map's scale.
  const lats = board.cities.map((c) => c.lat);
  const mid = ((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180);
  const raw = board.cities.map((c) => ({ name: c.name, x: c.lon * Math.cos(mid), y: -c.lat }));
  const xs = raw.map((p) => p.x);
  const ys = raw.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const W = 1000;
  const pad = 50;
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

function drawBoard() {
  if (!geo) geo = layout();
  const { pos, W, H, offset } = geo;
  const view = snap.view;
  const root = $("board");
  root.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const claimable = new Set((snap.legal || []).filter((a) => typeof a.route === "string").map((a) => a.route));
  const routes = board.routes.map((r) => {
    const owner = view.routes[r.id];
    const a = pos[r.a];
    const b = pos[r.b];
    // The bend of a route: joined cities that are very close would give cars no room otherwise.
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    const [ux, uy] = [dx / len, dy / len];
    const [nx, ny] = [-uy, ux];
    const off = offset[r.id];
    const margin = Math.min(9, len / 6);
    const gap = 1.5;
    const carLen = Math.max((len - 2 * margin - gap * (r.length - 1)) / r.length, 2);
    const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
    const classes = ["route"];
    if (r.tunnel) classes.push("tunnel");
    if (owner !== undefined) classes.push("claimed");
    else if (claimable.has(r.id)) classes.push("claimable");
    if (selected && selected.route === r.id) classes.push("selected");
    const fill = owner !== undefined ? playerColor(owner) : ROUTE_FILL[r.color] || "#ccc";
    const parts = [
      svg("title", {}, [`${r.id}: ${r.length} ${r.color}${r.tunnel ? ", tunnel" : ""}${r.ferry ? `, ferry (${r.ferry} locomotive)` : ""}${owner !== undefined ? ` — ${snap.seats[owner].name}'s` : ""}`]),
      svg("line", { class: "hit", x1: a.x + nx * off, y1: a.y + ny * off, x2: b.x + nx * off, y2: b.y + ny * off }),
    ];
    for (let i = 0; i < r.length; i++) {
      const along = margin + carLen / 2 + i * (carLen + gap);
      const cx = a.x + ux * along + nx * off;
      const cy = a.y + uy * along + ny * off;
      // a claimed route stands out: fuller cars, in the owner's colour
      const h = owner !== undefined ? 9 : 7;
      parts.push(svg("rect", {
        class: "car", x: -carLen / 2, y: -h / 2, width: carLen, height: h, rx: 1.2, fill,
        transform: `translate(${cx.toFixed(1)} ${cy.toFixed(1)}) rotate(${angle.toFixed(1)})`,
      }));
      if (i < r.ferry) parts.push(svg("circle", { class: "ferry", cx: cx.toFixed(1), cy: cy.toFixed(1), r: 1.8 }));
    }
    const g = svg("g", { class: classes.join(" "), "data-route": r.id }, parts);
    g.addEventListener("click", () => { selected = { route: r.id }; render(); });
    return g;
  });
  const ticketCities = new Set();
  if (view.you) for (const t of view.you.tickets) { const tk = ticketById(t); if (tk) { ticketCities.add(tk.a); ticketCities.add(tk.b); } }
  const cities = board.cities.map((c) => {
    const p = pos[c.name];
    const g = svg("g", { class: `city${ticketCities.has(c.name) ? " ticket" : ""}`, "data-city": c.name }, [
      svg("title", {}, [c.name]),
      svg("circle", { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 5 }),
      svg("text", { x: (p.x + 7).toFixed(1), y: (p.y - 6).toFixed(1) }, [c.name]),
    ]);
    g.addEventListener("click", () => { selected = { city: c.name }; render(); });
    return g;
  });
  const stations = [];
  const built = (view.rules && view.rules.stations) || [];
  built.forEach((s, seat) => {
    for (const city of s.cities || []) {
      const p = pos[city];
      if (p) stations.push(svg("rect", { class: "station", x: p.x - 12, y: p.y + 3, width: 8, height: 8, fill: playerColor(seat) }, [svg("title", {}, [`${snap.seats[seat].name}'s station`])]));
    }
  });
  root.replaceChildren(svg("g", { class: "routes" }, routes), svg("g", { class: "cities" }, cities), svg("g", {}, stations));
}

function ticketById(id) {
  return board.tickets.find((t) => t.id === id);
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
      el("td", {}, [el("span", { class: "swatch", "data-color": playerColor(seat) })]),
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
  for (const s of $("players").querySelectorAll(".swatch")) s.style.background = s.dataset.color;
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
  $("tickets").replaceChildren(...(you.tickets.length ? you.tickets.map((id) => {
    const t = ticketById(id);
    const li = el("li", { "data-ticket": id }, [t ? `${t.a} – ${t.b}` : id, el("span", { class: "pts" }, [t ? String(t.points) : ""])]);
    if (t && joined(t.a, t.b)) li.classList.add("done");
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
    else if (owner === undefined) parts.push(el("p", { class: "note" }, [view.to_act.includes(me) ? "Your hand cannot pay for it now (or the rules close it to you)." : "Not your turn."]));
  }
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
  const head = el("tr", {}, ["Player", "Routes", "Tickets done", "Tickets failed", "Ticket points", ...bonusNames, "Total"].map((h) => el("th", {}, [h])));
  const rows = result.scores.map((s) => {
    const bonus = (name) => s.bonuses.filter((b) => b.name === name).reduce((n, b) => n + b.points, 0);
    const tr = el("tr", { "data-seat": String(s.seat) }, [
      el("td", {}, [s.name + (s.resigned ? " (resigned)" : "")]),
      el("td", {}, [String(s.routes)]),
      el("td", { title: s.tickets_completed.join(", ") }, [String(s.tickets_completed.length)]),
      el("td", { title: s.tickets_failed.join(", ") }, [String(s.tickets_failed.length)]),
      el("td", {}, [(s.ticket_points > 0 ? "+" : "") + s.ticket_points]),
      ...bonusNames.map((b) => el("td", {}, [String(bonus(b))])),
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
  box.hidden = overDismissed;
}

function render() {
  renderStatus();
  drawBoard();
  renderPlayers();
  renderCards();
  renderMine();
  renderPanel();
  renderGameOver();
  document.body.dataset.version = String(snap.version);
}

$("close-gameover").addEventListener("click", () => { overDismissed = true; $("gameover").hidden = true; });
refresh().then(follow);
