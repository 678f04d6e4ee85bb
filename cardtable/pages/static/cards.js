// Shared by every page: cards drawn from their text ("10H", "QS", "V2R"), and elements made
// with textContent only, so nothing received is ever read as HTML.
"use strict";
const SUITS = {S: ["\u2660", "black"], C: ["\u2663", "black"], H: ["\u2665", "red"], D: ["\u2666", "red"]};

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function cardNode(text) {
  const m = /^(10|[2-9AJQKT])([SHDC])$/.exec(String(text));
  if (!m) return el("span", "card other", text);
  const [symbol, colour] = SUITS[m[2]];
  const card = el("span", "card " + colour);
  card.title = text;
  card.append(el("span", "rank", m[1] === "T" ? "10" : m[1]), el("span", "suit", symbol));
  return card;
}

function fillCards(container, cards) {
  container.replaceChildren(...(Array.isArray(cards) ? cards : []).map(cardNode));
}

function setText(id, text) {
  const node = document.getElementById(id);
  if (node) node.textContent = text == null ? "" : String(text);
  return node;
}
