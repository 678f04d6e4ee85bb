// The journal's games: the list, and one game's public record (scores and scoring sentences).
"use strict";

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], {dateStyle: "medium", timeStyle: "short"});
}

async function showGame(id) {
  const response = await fetch("/history/" + id + ".json");
  const record = await response.json();
  document.getElementById("record").hidden = false;
  setText("record-title", record.title + " \u2013 game " + record.id + ", " + when(record.started));
  setText("record-result", (record.result || "Not finished: as far as the table has seen it") +
    " \u2013 scores " + record.scores.join(" to "));
  document.getElementById("record-events").replaceChildren(...record.events.map((e) => {
    const item = el("li", "", e.text);
    if (e.breakdown && e.breakdown.length) item.append(el("span", "detail", e.breakdown.join(" \u00b7 ")));
    return item;
  }));
}

(async function list() {
  const games = await (await fetch("/history.json")).json();
  const list = document.getElementById("games");
  if (!games.length) { list.replaceChildren(el("li", "muted", "No games in the journal yet")); return; }
  list.replaceChildren(...games.map((g) => {
    const button = el("button", "", "Game " + g.id + " \u00b7 " + g.game + " \u00b7 " + g.players + " players \u00b7 " +
      when(g.started) + " \u00b7 " + (g.result || "unfinished"));
    button.addEventListener("click", () => showGame(g.id));
    const item = el("li");
    item.append(button);
    return item;
  }));
})();
