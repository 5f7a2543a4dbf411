// The start page: open a game (pick a variant and its rules version; each seat a named person, a
// bot, or left open for an invitation link) and hand out one secret link per seat; the open games
// of the lobby; the games this browser holds a seat of or opened.
import { api, el, rememberHost, showError, storedGames } from "/static/common.js";

const form = document.getElementById("create-form");
const variantSel = document.getElementById("variant");
const versionSel = document.getElementById("version");
const seatsBox = document.getElementById("seats");
const OPEN = "open";
let variants = [];
let botKinds = [];

function current() {
  return variants.find((v) => v.id === variantSel.value);
}

function seatRow(i, kind) {
  const name = el("input", { type: "text", value: kind === "person" ? `Player ${i + 1}` : `Bot ${i + 1}`, maxlength: "40", required: "" });
  name.className = "seat-name";
  const who = el("select", {}, [
    el("option", { value: "" }, ["a person"]),
    el("option", { value: OPEN }, ["open: whoever has the invitation"]),
    ...botKinds.map((b) => el("option", { value: b }, [`bot: ${b}`])),
  ]);
  who.className = "seat-kind";
  who.value = kind === "person" ? "" : botKinds[0] || "";
  who.addEventListener("change", () => {
    // an open seat's name is chosen by whoever takes it
    name.disabled = who.value === OPEN;
    name.placeholder = name.disabled ? "chosen by whoever joins" : "";
    if (name.disabled) name.value = "";
    else if (!name.value) name.value = `Player ${i + 1}`;
  });
  const row = el("div", { class: "seat" }, [el("span", {}, [`Seat ${i + 1}`]), name, who]);
  return row;
}

function fillVersions() {
  const v = current();
  versionSel.replaceChildren(...v.versions.map((n) => el("option", { value: String(n) }, [n === v.version ? `${n} (current)` : String(n)])));
  versionSel.value = String(v.version);
  document.getElementById("variant-note").textContent = `${v.description || v.title} — ${v.players.min} to ${v.players.max} players.`;
  while (seatsBox.children.length < v.players.min) seatsBox.append(seatRow(seatsBox.children.length, "bot"));
  while (seatsBox.children.length > v.players.max) seatsBox.lastChild.remove();
  updateButtons();
}

function updateButtons() {
  const v = current();
  document.getElementById("add-seat").disabled = seatsBox.children.length >= v.players.max;
  document.getElementById("remove-seat").disabled = seatsBox.children.length <= v.players.min;
}

async function start() {
  const res = await api("GET", "/api/variants");
  if (!res.ok) return showError(res.body.reason);
  variants = res.body.variants;
  botKinds = res.body.bots;
  variantSel.replaceChildren(...variants.map((v) => el("option", { value: v.id }, [`${v.title} (${v.id})`])));
  variantSel.value = variants.some((v) => v.id === "usa") ? "usa" : variants[0].id;
  seatsBox.append(seatRow(0, "person"), seatRow(1, "bot"));
  fillVersions();
}

variantSel.addEventListener("change", fillVersions);
document.getElementById("add-seat").addEventListener("click", () => {
  seatsBox.append(seatRow(seatsBox.children.length, "bot"));
  updateButtons();
});
document.getElementById("remove-seat").addEventListener("click", () => {
  seatsBox.lastChild.remove();
  updateButtons();
});

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("");
  const seats = [...seatsBox.querySelectorAll(".seat")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    return kind === OPEN ? {} : { name: row.querySelector(".seat-name").value.trim(), bot: kind || null };
  });
  const body = { variant: variantSel.value, version: Number(versionSel.value), seats, listed: document.getElementById("listed").checked };
  const seed = document.getElementById("seed").value;
  if (seed !== "") body.seed = Number(seed);
  const res = await api("POST", "/api/lobby", body);
  if (!res.ok) return showError(res.body.reason);
  const opened = res.body;
  const id = opened.game.game;
  rememberHost(id, opened.host_token);
  document.getElementById("game-id").textContent = id;
  document.getElementById("links").replaceChildren(...opened.seats.map(createdSeat));
  const manage = document.getElementById("manage-link");
  manage.href = opened.join_url;
  const watch = document.getElementById("spectator-link");
  watch.href = opened.spectator_url;
  watch.textContent = new URL(opened.spectator_url, location.href).href;
  document.getElementById("created").hidden = false;
  form.hidden = true;
  showMyGames();
});

function createdSeat(s) {
  const link = (cls, href) => el("a", { class: cls, href, "data-seat": String(s.seat) }, [new URL(href, location.href).href]);
  if (s.url) return el("li", {}, [`${s.name}: `, link("seat-link", s.url)]);
  if (s.invitation_url) return el("li", {}, [`Seat ${s.seat + 1}, open: `, link("invite-link", s.invitation_url)]);
  return el("li", {}, [`${s.name}: played by the server (${s.bot})`]);
}

// --- the lobby: open games, and this browser's own -----------------------------------------------

const seatLabel = (seat) => (seat.open ? null : seat.bot ? `${seat.name} (bot)` : seat.name);

async function showLobby() {
  const res = await api("GET", "/api/lobby");
  if (!res.ok) return showError(res.body.reason);
  const rows = res.body.games.map((g) => el("tr", { "data-game": g.game }, [
    el("td", {}, [g.title]),
    el("td", {}, [g.seats.map(seatLabel).filter(Boolean).join(", ") || "—"]),
    el("td", {}, [new Date(g.created).toLocaleString()]),
    el("td", { class: "free" }, [`${g.free} of ${g.seats.length}`]),
    el("td", {}, [el("a", { class: "join-link", href: `/join/${encodeURIComponent(g.game)}` }, ["Join"])]),
  ]));
  document.querySelector("#open-games tbody").replaceChildren(...rows);
  document.getElementById("no-open-games").hidden = rows.length > 0;
}

function showMyGames() {
  const mine = storedGames();
  const items = mine.map((g) => {
    const id = encodeURIComponent(g.game);
    const parts = [el("span", {}, [`Game ${g.game}`])];
    // /play/{id} without the token: the page uses the seat this browser keeps for the game
    if (g.seat) parts.push(el("a", { class: "my-seat", href: `/play/${id}` }, ["your seat"]));
    if (g.host) parts.push(el("a", { class: "my-host", href: `/join/${id}` }, ["seats and links (you opened it)"]));
    return el("li", { "data-game": g.game }, parts);
  });
  document.getElementById("my-game-list").replaceChildren(...items);
  document.getElementById("my-games").hidden = items.length === 0;
}

document.getElementById("refresh-lobby").addEventListener("click", showLobby);

start();
showLobby();
showMyGames();
