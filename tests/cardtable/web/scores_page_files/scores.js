// The scores page: one EventSource on /events; each "view" message redraws the seats' scores.
"use strict";

function show(view) {
  setText("game", view.game + (view.finished ? " \u2013 game over" : ""));
  document.getElementById("board").replaceChildren(...view.seats.map((s) => {
    const item = el("li", s.turn ? "turn" : "");
    item.append(el("span", "name", s.name), el("span", "score", String(s.score)));
    return item;
  }));
}

new EventSource("/events").addEventListener("view", (e) => show(JSON.parse(e.data)));
