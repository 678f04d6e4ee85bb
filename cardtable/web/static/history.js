// The journal's games: the list, and one game's public record opened under the game tapped
// (its result once, then its scoring sentences with their breakdowns in words).
"use strict";

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], {dateStyle: "medium", timeStyle: "short"});
}

async function showGame(id, item) {
  const open = document.querySelector(".games .record");
  const again = open && open.parentElement === item;
  if (open) open.remove();
  document.querySelectorAll(".games button").forEach((b) => b.setAttribute("aria-expanded", "false"));
  if (again) return;                                   // a second tap closes it
  const record = el("section", "record log");
  record.append(el("p", "muted", "Reading the game\u2026"));
  item.append(record);
  item.querySelector("button").setAttribute("aria-expanded", "true");
  const data = await (await fetch("/history/" + id + ".json")).json();
  const result = el("p", "result", data.result ||
    "Not finished: as far as the table has seen it, the scores are " + data.scores.join(" to "));
  const events = el("ol", "events");
  events.replaceChildren(...data.events.filter((e) => e.text !== data.result).map((e) => {
    const line = el("li", "", e.text);
    if (e.breakdown && e.breakdown.length) line.append(el("span", "detail", e.breakdown.join("; ")));
    return line;
  }));
  record.replaceChildren(result, events);
  record.scrollIntoView({block: "nearest"});
}

(async function list() {
  const games = await (await fetch("/history.json")).json();
  const list = document.getElementById("games");
  if (!games.length) { list.replaceChildren(el("li", "muted", "No games in the journal yet")); return; }
  list.replaceChildren(...games.map((g) => {
    const item = el("li");
    const button = el("button", "", [g.title, g.players + " players", when(g.started),
      g.result || "unfinished", "game " + g.id].join(" \u00b7 "));
    button.setAttribute("aria-expanded", "false");
    button.addEventListener("click", () => showGame(g.id, item));
    item.append(button);
    return item;
  }));
})();
