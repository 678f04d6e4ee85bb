// The score board drawn from the view's "board" (hardware/display/board.py computes it): holes,
// skunk lines and pegs in board units, one SVG scaled to its box. Shared by the page and the overlay.
"use strict";
const SVG = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, className) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (className) node.setAttribute("class", className);
  return node;
}

function drawBoard(container, board) {
  if (!container) return;
  const box = container.closest(".board-box");
  if (box) box.hidden = !board;
  if (!board) { container.replaceChildren(); return; }
  const pad = 0.6;
  const svg = svgEl("svg", {viewBox: [-pad, -pad, board.width + 2 * pad, board.height + 2 * pad].join(" "),
                            role: "img", preserveAspectRatio: "xMidYMid meet"}, "board " + board.kind);
  svg.append(el("title", "", board.kind === "cribbage" ? "Cribbage board, game to " + board.target
    : "Score track" + (board.target ? " to " + board.target : "")));
  svg.append(svgEl("rect", {x: -pad, y: -pad, width: board.width + 2 * pad, height: board.height + 2 * pad,
                            rx: 0.6}, "wood"));
  for (const [x, y, lane] of board.holes) {
    svg.append(svgEl("circle", {cx: x, cy: y, r: lane < 0 ? 0.34 : 0.2}, "hole" + (lane < 0 ? " game-hole" : "")));
  }
  for (const mark of board.marks) {
    svg.append(svgEl("line", {x1: mark.x, y1: mark.y0 - 0.15, x2: mark.x, y2: mark.y1 + 0.15}, "skunk"));
    const label = svgEl("text", {x: mark.x, y: mark.y0 - 0.05}, "skunk-label");
    label.textContent = mark.score === 91 || mark.label === "skunk" ? "S" : "SS";
    svg.append(label);
  }
  for (const peg of board.pegs) {
    const node = svgEl("circle", {cx: peg.x, cy: peg.y, r: peg.front ? 0.42 : 0.32},
      "peg lane-" + peg.side + (peg.front ? " front" : " back"));
    node.dataset.side = peg.side;
    node.dataset.score = peg.score;
    node.dataset.front = peg.front ? "front" : "back";
    svg.append(node);
  }
  const names = el("div", "lanes");
  board.names.forEach((name, lane) => {
    const item = el("span", "lane");
    const score = board.pegs.find((p) => p.side === lane && p.front);
    item.append(el("span", "swatch lane-" + lane), el("span", "lane-name", name),
                el("span", "lane-score", score ? score.score : ""));
    names.append(item);
  });
  if (board.target) names.append(el("span", "lane target", "to " + board.target));
  container.replaceChildren(svg, names);
}
