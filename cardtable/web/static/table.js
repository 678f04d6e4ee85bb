// The live table: one EventSource on /events; each "view" message redraws the page.
"use strict";

function render(view) {
  if (!view) return;
  document.title = view.game ? view.game + " \u2013 card table" : "Card table";
  setText("game", view.game);
  setText("status", view.status);
  setText("prompt", view.prompt);
  const choices = document.getElementById("choices");
  if (choices) {
    choices.replaceChildren(...(view.choices || []).map((c, i) =>
      el("span", "choice" + (i === view.selected ? " selected" : ""), c)));
  }
  const warning = setText("warning", view.warning);
  if (warning) warning.hidden = !view.warning;
  const seats = document.getElementById("seats");
  seats.replaceChildren(...(view.seats || []).map((s) => {
    const seat = el("div", "seat" + (s.turn ? " turn" : "") + (s.dealer ? " dealer" : ""));
    const head = el("div", "seat-head");
    head.append(el("span", "name", s.name));
    if (s.dealer) head.append(el("span", "chip", "Dealer"));
    seat.append(head, el("div", "score", s.score));
    if (s.note) seat.append(el("div", "note", s.note));
    return seat;
  }));
  seats.style.setProperty("--seats", Math.max(1, (view.seats || []).length));
  setText("centre-label", view.centre && view.centre.label);
  fillCards(document.getElementById("centre-cards"), view.centre && view.centre.cards);
  setText("play-label", view.play && view.play.label);
  fillCards(document.getElementById("play-cards"), view.play && view.play.cards);
  setText("last-score", view.last_score);
  const log = document.getElementById("log");
  if (log) {
    log.replaceChildren(...(view.score_log || []).slice().reverse().map((t) => el("li", "", t)));
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
