// The club page: a "tables" snapshot first, then one "table" message per change and a
// "standings" message when a game ends. Everything is drawn with textContent.
"use strict";
const tables = new Map();

function tableNode(t) {
  const box = el("article", "club-table " + (t.status === "online" ? "online" : "offline"));
  box.dataset.table = t.table;
  const head = el("div", "club-head");
  head.append(el("span", "club-name", t.table), el("span", "club-game", t.game || "no game yet"),
              el("span", "club-state", t.status === "online" ? "online" : "offline"));
  if (t.trust && t.trust !== "signed") head.append(el("span", "club-trust", t.trust));
  const seats = el("ol", "club-seats");
  const top = Math.max(...(t.seats || []).map((s) => s.score));
  (t.seats || []).forEach((s) => {
    const winner = t.finished && s.score === top;           // every game is won by the top score
    const row = el("li", [s.turn && !t.finished ? "turn" : "", winner ? "winner" : ""].join(" ").trim());
    const who = el("span", "who");
    who.append(el("span", "name", s.name));
    if (s.dealer && !t.finished) who.append(el("span", "chip", "Dealer"));
    if (winner) who.append(el("span", "chip won", "Won"));
    row.append(who, el("span", "club-score", s.score));
    seats.append(row);
  });
  box.append(head, seats, el("p", "club-prompt", t.prompt));
  const log = el("ul", "club-log");
  (t.log || []).slice().reverse().filter((line) => line !== t.prompt).forEach((line) => log.append(el("li", "", line)));
  box.append(log);
  (t.notices || []).forEach((text) => box.append(el("p", "warning club-notice", text)));
  return box;
}

function drawTables() {
  const names = [...tables.keys()].sort((a, b) => a.localeCompare(b, undefined, {numeric: true}));
  document.getElementById("tables").replaceChildren(...names.map((n) => tableNode(tables.get(n))));
  const online = names.filter((n) => tables.get(n).status === "online").length;
  setText("count", names.length + (names.length === 1 ? " table, " : " tables, ") + online + " online");
}

let pending = false;
function redraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; drawTables(); });
}

function drawStandings(boards) {
  const box = document.getElementById("standings");
  if (!boards.length) { box.replaceChildren(el("p", "muted", "No game finished yet")); return; }
  box.replaceChildren(...boards.map((b) => {
    const section = el("div", "board");
    section.append(el("h3", "", b.title));
    const table = el("table", "ranking");
    // cribbage ranks by match points (a skunk counts more), the other games by games won
    const points = b.game === "cribbage";
    const head = el("tr");
    ["", "Player", ...(points ? ["Points"] : []), "Won", "Played", "Spread"].forEach((h) => head.append(el("th", "", h)));
    table.append(head);
    b.rows.forEach((r, i) => {
      const row = el("tr", i === 0 && (points ? r.points : r.wins) > 0 ? "leader" : "");
      [i + 1, r.player, ...(points ? [r.points] : []), r.wins, r.played, (r.spread > 0 ? "+" : "") + r.spread]
        .forEach((v) => row.append(el("td", "", v)));
      table.append(row);
    });
    section.append(table);
    return section;
  }));
}

(function connect() {
  const source = new EventSource("/events");
  const link = document.getElementById("link");
  source.onopen = () => link.classList.remove("off");
  source.onerror = () => link.classList.add("off");
  source.addEventListener("tables", (e) => {
    tables.clear();
    JSON.parse(e.data).forEach((t) => tables.set(t.table, t));
    redraw();
  });
  source.addEventListener("table", (e) => { const t = JSON.parse(e.data); tables.set(t.table, t); redraw(); });
  source.addEventListener("standings", (e) => drawStandings(JSON.parse(e.data)));
  source.addEventListener("notices", (e) => {
    const notices = JSON.parse(e.data);
    const box = document.getElementById("notices");
    box.replaceChildren(...notices.map((text) => el("p", "warning", text)));
    box.hidden = !notices.length;
  });
})();
