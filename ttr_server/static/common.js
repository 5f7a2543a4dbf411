// Helpers shared by the pages: JSON requests that never throw, and element building.

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
