// The live table: one EventSource on /events; each "view" message redraws the page (or the overlay).
"use strict";

function seatNode(s, index, sides) {
  const seat = el("div", "seat" + (s.turn ? " turn" : "") + (s.dealer ? " dealer" : ""));
  // partners (fewer sides than seats: a seat's side is its number modulo the sides) share a colour
  if (sides) seat.classList.add("side", "side-" + (index % sides));
  const head = el("div", "seat-head");
  head.append(el("span", "name", s.name));
  if (s.dealer) head.append(el("span", "chip", "Dealer"));
  seat.append(head, el("div", "score", s.score));
  if (s.note) seat.append(el("div", "note", s.note));
  return seat;
}

function handNode(hand) {
  const node = el("div", "hand" + (hand.points === null ? " laying" : ""));
  const head = el("div", "hand-head");
  head.append(el("span", "hand-label", hand.label),
              el("span", "points", hand.points === null ? "not counted yet" : hand.points + (hand.points === 1 ? " point" : " points")));
  const cards = el("div", "hand-cards cards");
  fillCards(cards, hand.cards);
  if (hand.starter) {
    const starter = cardNode(hand.starter);
    starter.classList.add("starter");
    starter.title = "the starter, counted with every hand";
    cards.append(starter);
  }
  const items = el("ul", "items");
  items.replaceChildren(...hand.items.map((item) => {
    const line = el("li");
    line.append(el("span", "item-points", "+" + item.points), el("span", "item-text", item.text));
    const used = el("span", "item-cards");
    for (const card of item.cards) used.append(cardNode(card));
    line.append(used);
    return line;
  }));
  node.append(head, cards, items);
  return node;
}

function render(view) {
  if (!view) return;
  const overlay = document.body.classList.contains("overlay");
  document.title = view.game ? view.game + " \u2013 card table" : "Card table";
  setText("game", overlay && view.target ? view.game + " \u00b7 game to " + view.target : view.game);
  setText("status", view.status);
  setText("prompt", view.prompt);
  const choices = document.getElementById("choices");
  if (choices) {
    choices.replaceChildren(...(view.choices || []).map((c, i) =>
      el("span", "choice" + (i === view.selected ? " selected" : ""), c)));
  }
  const warning = setText("warning", view.warning);
  if (warning) warning.hidden = !view.warning;
  setText("last-move", view.last_move);
  const seats = document.getElementById("seats");
  const sides = (view.sides || []).length < (view.seats || []).length ? view.sides.length : 0;
  seats.replaceChildren(...(view.seats || []).map((s, i) => seatNode(s, i, sides)));
  seats.style.setProperty("--seats", Math.max(1, (view.seats || []).length));
  drawBoard(document.getElementById("board"), view.board);
  setText("centre-label", view.centre && view.centre.label);
  fillCards(document.getElementById("centre-cards"), view.centre && view.centre.cards);
  setText("play-label", view.play && view.play.label);
  fillCards(document.getElementById("play-cards"), view.play && view.play.cards);
  const shown = document.getElementById("shown");
  if (shown) {
    shown.replaceChildren(...(view.shown || []).map(handNode));
    shown.closest("section").hidden = !(view.shown || []).length;
  }
  const fresh = document.getElementById("last-score");
  if (fresh) fresh.replaceChildren(...(view.fresh_scores || []).map((t) => el("li", "", t)));
  const log = document.getElementById("log");
  if (log) {
    log.replaceChildren(...(view.score_log || []).slice().reverse().map((t) => el("li", "", t)));
    log.closest("section").hidden = !(view.score_log || []).length;
  }
  document.body.classList.toggle("finished", !!view.finished);
}

(function connect() {
  const delay = new URLSearchParams(location.search).get("delay");
  const url = "/events" + (delay ? "?delay=" + encodeURIComponent(delay) : "");
  const source = new EventSource(url);
  const link = document.getElementById("link");
  source.onopen = () => link && link.classList.remove("off");
  source.onerror = () => link && link.classList.add("off");
  source.addEventListener("view", (e) => {
    try { render(JSON.parse(e.data)); } catch (err) { console.error(err); }
  });
})();
