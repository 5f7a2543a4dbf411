// Helpers shared by the pages: JSON requests that never throw, element building, and the secrets
// this browser keeps per game (its seat's token, the host token of the games it opened).
// A game page's link is checked before the page's own script runs (link-check.js).
import "/static/link-check.js";

export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    return { ok: false, status: 0, body: { error: "network", reason: `the server cannot be reached (${err.message})` } };
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = { error: "bad-response", reason: `the server answered ${res.status} without JSON` };
  }
  return { ok: res.ok, status: res.status, body: data };
}

export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

export function showError(text) {
  document.getElementById("message").textContent = text || "";
}

// --- what this browser keeps: localStorage, keyed by game --------------------------------------

const SEAT = "ttr-seat:";
const HOST = "ttr-host:";

function keep(key, value) {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    // storage refused (private mode, full): the link itself still works
  }
}

function kept(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export const rememberSeat = (gameId, token) => keep(SEAT + gameId, token);
export const storedSeat = (gameId) => kept(SEAT + gameId);
export const rememberHost = (gameId, token) => keep(HOST + gameId, token);
export const storedHost = (gameId) => kept(HOST + gameId);

// The games this browser holds a seat of or opened: [{game, seat: bool, host: bool}].
export function storedGames() {
  const found = new Map();
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      for (const [prefix, what] of [[SEAT, "seat"], [HOST, "host"]]) {
        if (!key.startsWith(prefix)) continue;
        const game = key.slice(prefix.length);
        found.set(game, { game, seat: false, host: false, ...found.get(game), [what]: true });
      }
    }
  } catch {
    return [];
  }
  return [...found.values()];
}
