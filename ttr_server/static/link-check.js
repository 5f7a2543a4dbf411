// Runs before the game page's script (play.js imports common.js, which imports this module, and a
// module waits for its imports' top-level await). On /play/{id} and /watch/{id}:
// - a link that names no game, or a seat token the game does not know (a mistyped link, a token
//   the host has replaced), gets a page that says so, instead of an empty board with buttons;
// - a game still waiting for players sends the reader to its lobby page;
// - /play/{id} without a token uses the seat this browser keeps for the game, and a token in the
//   link is kept for the next visit (localStorage, keyed by game).
// Self-contained on purpose: common.js imports it, so it cannot import common.js.

const SEAT = "ttr-seat:";
const [, page, rawId] = location.pathname.split("/");

function stored(gameId) {
  try {
    return localStorage.getItem(SEAT + gameId);
  } catch {
    return null;
  }
}

function store(gameId, token) {
  try {
    if (token) localStorage.setItem(SEAT + gameId, token);
    else localStorage.removeItem(SEAT + gameId);
  } catch {
    // storage refused: the link itself still works
  }
}

async function status(path, token) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const res = await fetch(path, { headers });
    return res.status;
  } catch {
    return 0; // the server cannot be reached: the page itself says so
  }
}

function node(tag, attrs, text) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text) n.textContent = text;
  return n;
}

// Replace the page by a message and links; the page's script never runs.
async function badLink(title, text, links) {
  document.head.append(node("link", { rel: "stylesheet", href: "/static/lobby.css" }));
  document.title = `Ticket to Ride — ${title}`;
  const main = node("main", { class: "bad-link", id: "bad-link" });
  main.append(node("h2", {}, title), node("p", { class: "why" }, text));
  const nav = node("p", { class: "links" });
  for (const [label, href] of links) nav.append(node("a", { href }, label), " ");
  main.append(nav);
  document.body.className = "index";
  document.body.replaceChildren(node("header", {}, ""), main);
  document.body.firstChild.append(node("h1", {}, "Ticket to Ride"));
  await new Promise(() => {});
}

async function check(gameId) {
  const home = ["Start page and open games", "/"];
  const path = `/api/games/${encodeURIComponent(gameId)}`;
  let token = null;
  if (page === "play") {
    token = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : stored(gameId);
    if (token && location.hash.length <= 1) history.replaceState(null, "", `#${encodeURIComponent(token)}`);
  }
  const got = await status(path, token);
  if (got === 200) {
    if (token) store(gameId, token);
    return;
  }
  if (got === 404) {
    if ((await status(`/api/lobby/${encodeURIComponent(gameId)}`)) === 200) {
      // Not started: its seats are being taken. A seat link opened now (the creator's own, say)
      // is kept, so that the join page waits with it and comes back here once the game starts;
      // a wrong one is dropped then (the 401 below).
      if (token) store(gameId, token);
      location.replace(`/join/${encodeURIComponent(gameId)}`);
      await new Promise(() => {});
    }
    await badLink("No such game", `There is no game "${gameId}" on this server: the link may be mistyped, or the game was deleted.`, [home]);
  }
  if (got === 401) {
    if (token === stored(gameId)) store(gameId, null);
    await badLink("This seat link is not valid",
      "The game does not know this seat token: the link may be mistyped, or the game's host has issued a new link for the seat. Ask the host for the new one.",
      [["Watch the game", `/watch/${encodeURIComponent(gameId)}`], home]);
  }
  // another answer (the server down, a 5xx): the page shows the game's own error
}

if ((page === "play" || page === "watch") && rawId) await check(decodeURIComponent(rawId));
