// The new-game page: pick a variant and its rules version, name the seats (a person or a bot),
// create the game, and hand out one secret link per person.
import { api, el, showError } from "/static/common.js";

const form = document.getElementById("create-form");
const variantSel = document.getElementById("variant");
const versionSel = document.getElementById("version");
const seatsBox = document.getElementById("seats");
let variants = [];
let botKinds = [];

function current() {
  return variants.find((v) => v.id === variantSel.value);
}

function seatRow(i, kind) {
  const name = el("input", { type: "text", value: kind === "person" ? `Player ${i + 1}` : `Bot ${i + 1}`, maxlength: "40", required: "" });
  name.className = "seat-name";
  const who = el("select", {}, [el("option", { value: "" }, ["a person"]), ...botKinds.map((b) => el("option", { value: b }, [`bot: ${b}`]))]);
  who.className = "seat-kind";
  who.value = kind === "person" ? "" : botKinds[0] || "";
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
  const seats = [...seatsBox.querySelectorAll(".seat")].map((row) => ({
    name: row.querySelector(".seat-name").value.trim(),
    bot: row.querySelector(".seat-kind").value || null,
  }));
  const body = { variant: variantSel.value, version: Number(versionSel.value), seats };
  const seed = document.getElementById("seed").value;
  if (seed !== "") body.seed = Number(seed);
  const res = await api("POST", "/api/games", body);
  if (!res.ok) return showError(res.body.reason);
  const game = res.body;
  document.getElementById("game-id").textContent = game.game;
  const links = document.getElementById("links");
  links.replaceChildren(...game.seats.map((s) => el("li", {}, s.url
    ? [`${s.name}: `, el("a", { class: "seat-link", href: s.url, "data-seat": String(s.seat) }, [new URL(s.url, location.href).href])]
    : [`${s.name}: played by the server (${s.bot})`])));
  const watch = document.getElementById("spectator-link");
  watch.href = game.spectator_url;
  watch.textContent = new URL(game.spectator_url, location.href).href;
  document.getElementById("created").hidden = false;
  form.hidden = true;
});

start();
