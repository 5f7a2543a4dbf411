// Plain words for players. The engine's texts (refusals, the end's reason, scoring notes) carry
// its rule ids and its own terms, for people reading a record or a log; the page shows them
// without the ids, names a grey route's colour one way, and says the seats by their players'
// names. What a rule or a bonus is called comes from its plugin (GET /api/variants/{id}/board:
// ``rules``), never from a table here, so that a house rule's bonus reads as well as a built-in
// one; a name no plugin gave words to is read as words.

const RULE_ID = /\s*\((?:R-[A-Z]+(?:-[\w.]+)*(?:[,;] *)?)+\)|\bR-[A-Z]+(?:-[\w.]+)*\b/g;

export function colourName(c) {
  return c === "gray" ? "grey" : c;
}

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function idWords(id) {
  // "unused-stations" -> "unused stations": an engine id read as words
  return String(id).replace(/[-_]+/g, " ").trim();
}

export function bonusName(id, titles = {}) {
  // what the bonus's plugin calls it (``titles``: the board's rules.bonuses)
  return titles[id] || capital(idWords(id));
}

export function plain(text, seatNames = []) {
  // an engine text without its rule ids, "space(s)" and "gray", seats named
  if (!text) return "";
  let out = String(text).replace(RULE_ID, "");
  out = out.replace(/\bspace\(s\)/g, "spaces").replace(/\bgr[a]y\b/g, "grey");
  out = out.replace(/\bseat (\d+)\b/g, (m, n) => seatNames[Number(n)] || m);
  return out.replace(/\s{2,}/g, " ").replace(/\s+([,.;:)])/g, "$1").trim();
}

function cardList(counts) {
  return Object.entries(counts).map(([n, k]) => (n === "locomotive" ? plural(k, "locomotive") : `${k} ${n}`)).join(" + ");
}

export function refusalWords(check, route, hand, seatNames, trainsLeft) {
  // Why the seat cannot claim ``route``, from the claim check (its code, and the cards missing):
  // what would pay the route, in words; other refusals as the engine says them, in plain words.
  const code = check.refusal ? check.refusal.code : "";
  if (code === "cannot-pay" && route) return cannotPay(check.missing, route, hand);
  if (code === "not-enough-trains" && route && typeof trainsLeft === "number") {
    return `It takes ${plural(route.length, "train")} and you have ${trainsLeft} left.`;
  }
  // the engine's reason without the rule ids it cites (the refusal's ``words``; ``rules`` has them)
  return capital(plain(check.refusal ? check.refusal.words || check.refusal.reason : "", seatNames)) + ".";
}

function cannotPay(missing, route, hand) {
  const locos = hand.locomotive || 0;
  const ferry = route.ferry ? `, ${route.ferry} of them locomotives (ferry spaces)` : "";
  let needs;
  if (route.color === "gray") {
    const colours = Object.entries(hand).filter(([n]) => n !== "locomotive");
    const [bestName, best] = colours.reduce((m, c) => (c[1] > m[1] ? c : m), ["", 0]);
    const have = best ? `your most of one colour is ${best} ${bestName}` : "you hold no coloured cards";
    needs = `A grey route takes ${route.length} cards of any one colour${ferry}, locomotives standing in for any; ${have}${locos ? ` and ${plural(locos, "locomotive")}` : ""}.`;
  } else {
    const held = hand[route.color] || 0;
    needs = `It takes ${route.length} ${route.color} cards${ferry}, locomotives standing in for any; you hold ${held} ${route.color}${locos ? ` and ${plural(locos, "locomotive")}` : ""}.`;
  }
  if (!missing) return `Your cards cannot pay it. ${needs}`;
  if (route.color !== "gray") return `Missing ${cardList(missing)}. ${needs}`;
  const total = Object.values(missing).reduce((a, b) => a + b, 0);
  return `Missing ${plural(total, "card")}: ${cardList(missing)} would pay it. ${needs}`;
}
