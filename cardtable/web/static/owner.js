// The owner's page: requests go to /owner/<kind> and the table answers in a sentence.
"use strict";
let games = [];
let token = "";      // the session's token: sent with every request, so no other page can post here

async function ask(kind, body) {
  setText("answer", "\u2026");
  const response = await fetch("/owner/" + kind, {
    method: "POST", headers: {"Content-Type": "application/json", "X-Cardtable-Token": token},
    body: JSON.stringify(body || {}),
  });
  const reply = await response.json();
  setText("answer", reply.answer || reply.error || "");
}

function optionInput(option) {
  // said in words: the option's description, not its key ("false_go_penalty")
  const label = el("label", "", option.help.charAt(0).toUpperCase() + option.help.slice(1) + " ");
  label.title = option.name;
  let input;
  if (option.choices.length) {
    input = el("select");
    option.choices.forEach((c) => {
      const o = el("option", "", String(c).replace(/_/g, " "));    // "revoker loses", not "revoker_loses"
      o.value = JSON.stringify(c);
      input.append(o);
    });
    input.value = JSON.stringify(option.default);
  } else if (typeof option.default === "boolean") {
    input = el("input"); input.type = "checkbox"; input.checked = option.default;
  } else {
    input = el("input"); input.value = option.default;
    if (typeof option.default === "number") input.type = "number";
  }
  input.dataset.option = option.name;
  input.dataset.kind = typeof option.default;
  label.append(input);
  return label;
}

function showGameForm() {
  const game = games.find((g) => g.name === document.getElementById("game").value) || games[0];
  const players = document.getElementById("players");
  const chosen = Number(players.value) || game.players[0];
  players.replaceChildren(...game.players.map((n) => { const o = el("option", "", n); o.value = n; return o; }));
  players.value = game.players.includes(chosen) ? chosen : game.players[0];
  const names = document.getElementById("names");
  const old = [...names.querySelectorAll("input")].map((i) => i.value);
  names.replaceChildren(...Array.from({length: Number(players.value)}, (_, i) => {
    const label = el("label", "", "Seat " + (i + 1) + " ");
    const input = el("input"); input.name = "name"; input.maxLength = 24; input.value = old[i] || "";
    input.placeholder = "Seat " + (i + 1);
    label.append(input);
    return label;
  }));
  document.getElementById("options").replaceChildren(...game.options.map(optionInput));
}

function readOptions() {
  const options = {};
  document.querySelectorAll("[data-option]").forEach((input) => {
    const kind = input.dataset.kind;
    if (input.tagName === "SELECT") options[input.dataset.option] = JSON.parse(input.value);
    else if (kind === "boolean") options[input.dataset.option] = input.checked;
    else if (kind === "number") options[input.dataset.option] = Number(input.value);
    else options[input.dataset.option] = input.value;
  });
  return options;
}

async function showCurrent() {
  // the game the table is playing and its scores, from the public view
  const response = await fetch("/view.json");
  const view = response.ok ? await response.json() : null;
  const current = document.getElementById("current");
  if (!view || !view.game) { current.replaceChildren(el("p", "muted", "No game is running")); return null; }
  const head = el("p", "current-game", view.game + (view.status ? " \u00b7 " + view.status : ""));
  const scores = el("p", "current-scores");
  (view.sides && view.sides.length ? view.sides : view.seats).forEach((s) => {
    const item = el("span", "seat-score");
    item.append(el("span", "name", s.name), el("b", "", " " + s.score));
    scores.append(item);
  });
  current.replaceChildren(head, scores, el("p", "muted", view.prompt || ""));
  return view;
}

(async function start() {
  const response = await fetch("/owner/status.json");
  if (response.status === 403) { location.href = "/owner"; return; }
  const status = await response.json();
  token = status.token;
  document.getElementById("leave-token").value = token;
  games = status.games;
  const select = document.getElementById("game");
  select.replaceChildren(...games.map((g) => { const o = el("option", "", g.title); o.value = g.name; return o; }));
  const running = await showCurrent();
  const game = running && games.find((g) => g.title === running.game);
  if (game) select.value = game.name;                  // the form starts from the game being played
  select.addEventListener("change", showGameForm);
  document.getElementById("players").addEventListener("change", showGameForm);
  showGameForm();
  if (status.enrolment) setText("enrolment", status.enrolment);
  if (status.doctor) setText("doctor", status.doctor);
  if (status.camera) {
    document.getElementById("camera-box").hidden = false;
    const img = document.getElementById("camera");
    const refresh = () => { img.src = "/owner/camera.jpg?t=" + Date.now(); };
    refresh();
    setInterval(refresh, 2000);
  }
  document.getElementById("undo").addEventListener("click", () => ask("undo"));
  document.getElementById("end").addEventListener("click", () => {
    if (confirm("End this game? It stays in the journal as ended.")) ask("end");
  });
  document.getElementById("start").addEventListener("submit", (e) => {
    e.preventDefault();
    ask("start", {
      game: select.value, players: Number(document.getElementById("players").value),
      names: [...document.querySelectorAll("#names input")].map((i) => i.value), options: readOptions(),
    });
  });
  // the buttons are off in the page as sent: a click before the token is here would go nowhere
  document.querySelectorAll("#undo, #end, #start button").forEach((b) => { b.disabled = false; });
})();
