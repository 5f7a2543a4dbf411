// The join page, /join/{game}#{invitation}: take a seat of a game of the lobby under a name of your
// choosing (with the invitation in the link, or a free seat of a listed game), wait for the other
// seats, then go to the game. This browser keeps the seat's token (localStorage, keyed by game),
// so coming back here, or to /play/{game}, finds the seat again without the one-time link. For the
// game's host (this browser opened it), each seat can get a new link, the old one refused from then.
import { api, el, rememberSeat, showError, storedHost, storedSeat } from "/static/common.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const id = encodeURIComponent(gameId);
const invitation = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;
const POLL_MS = 1500;
const $ = (name) => document.getElementById(name);

function bad(title, why, watch = false) {
  $("bad-title").textContent = title;
  $("bad-why").textContent = why;
  $("watch").hidden = !watch;
  $("watch").href = `/watch/${id}`;
  for (const part of ["take", "held"]) $(part).hidden = true;
  $("bad-link").hidden = false;
}

function seatItem(seat) {
  const label = seat.open ? el("span", { class: "open" }, ["open"]) : el("span", {}, [seat.bot ? `${seat.name} (bot)` : seat.name]);
  const parts = [el("span", {}, [`Seat ${seat.seat + 1}:`]), label];
  const host = storedHost(gameId);
  if (host && !seat.bot) {
    const button = el("button", { type: "button", class: "reissue", "data-seat": String(seat.seat) },
      [seat.open ? "New invitation link" : "New seat link"]);
    button.addEventListener("click", () => reissue(seat.seat, host, item));
    parts.push(button);
  }
  const item = el("li", { "data-seat": String(seat.seat) }, parts);
  return item; // the button's handler reads it once clicked
}

async function reissue(seat, host, item) {
  if (!confirm("Make a new link for this seat? The old one stops working.")) return;
  const res = await api("POST", `/api/lobby/${id}/seats/${seat}/reissue`, undefined, host);
  if (!res.ok) return showError(res.body.reason);
  const url = new URL(res.body.url || res.body.invitation_url, location.href).href;
  item.querySelector(".link")?.remove();
  item.append(el("a", { class: "link new-link", href: url }, [url]));
}

function showGame(game) {
  $("game-title").textContent = `${game.title} — ${game.free ? `${game.free} of ${game.seats.length} seats free` : "every seat taken"}`;
  $("seat-list").replaceChildren(...game.seats.map(seatItem));
  $("game").hidden = false;
}

function showHeld(game, token) {
  $("take").hidden = true;
  $("held").hidden = false;
  const link = $("continue");
  link.href = `/play/${id}#${encodeURIComponent(token)}`;
  if (game.started) {
    $("held-text").textContent = "You have a seat in this game, and it has started.";
    link.hidden = false;
    return;
  }
  $("held-text").textContent = `You have a seat in this game. Waiting for ${game.free} more player${game.free === 1 ? "" : "s"}…`;
  $("held-text").className = "waiting";
  setTimeout(() => poll(token), POLL_MS);
}

async function poll(token) {
  const res = await api("GET", `/api/lobby/${id}`);
  if (!res.ok) return showError(res.body.reason);
  showGame(res.body);
  if (res.body.started) location.assign(`/play/${id}#${encodeURIComponent(token)}`);
  else showHeld(res.body, token);
}

async function start() {
  const res = await api("GET", `/api/lobby/${id}`);
  if (res.status === 404 || res.status === 422) {
    return bad("No such game", `There is no game "${gameId}" waiting for players on this server: the link may be mistyped, or the game was deleted.`);
  }
  if (!res.ok) return showError(res.body.reason);
  const game = res.body;
  showGame(game);
  const mine = storedSeat(gameId);
  if (mine) return showHeld(game, mine);
  if (game.started) {
    return bad(invitation ? "This invitation was used already" : "Every seat is taken",
      "Every seat of this game is taken and the game has started. You can watch it.", true);
  }
  const check = await api("POST", `/api/lobby/${id}/check`, invitation ? { invitation } : {});
  if (!check.ok) {
    const title = { "invitation-used": "This invitation was used already", "invitation-invalid": "This invitation is not valid", "game-full": "Every seat is taken" }[check.body.error];
    return bad(title || "You cannot join this game", check.body.reason, check.body.error !== "invitation-invalid");
  }
  $("take").hidden = false;
  $("name").focus();
}

$("join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("");
  const body = { name: $("name").value.trim() };
  if (invitation) body.invitation = invitation;
  const res = await api("POST", `/api/lobby/${id}/join`, body);
  if (!res.ok) return showError(res.body.reason);
  rememberSeat(gameId, res.body.token);
  // the invitation is spent: leave it out of the address (and of the history)
  history.replaceState(null, "", location.pathname);
  if (res.body.started) return location.assign(res.body.url);
  poll(res.body.token);
});

start();
