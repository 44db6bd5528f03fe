// @ts-check
// The pegboard: 120 holes a player in streets of thirty (groups of five), run out and back like a
// real board from the start holes to the game hole, with front and back pegs in each player's
// colour and shape (seat 1 round, seat 2 square), and the skunk lines.

import { svg } from "./dom.js";

const STREET = 30;
const PITCH = 16;
const GROUP_GAP = 8;
const X0 = 56;
const ROW = 13;
const STREET_GAP = 46;
const TOP = 18;
const END_X = 24;

/**
 * Where hole n of a seat's track is (0: start, target: the game hole).
 * @param {number} seat @param {number} n @param {number} target
 * @returns {[number, number]}
 */
export function holeXY(seat, n, target) {
  const streets = Math.ceil((target - 1) / STREET);
  if (n <= 0) return [END_X, TOP + seat * ROW];
  if (n >= target) {
    const last = streets - 1;
    return [END_X, TOP + last * STREET_GAP + ROW / 2];
  }
  const street = Math.floor((n - 1) / STREET);
  let i = (n - 1) % STREET;
  if (street % 2 === 1) i = STREET - 1 - i;
  return [X0 + i * PITCH + Math.floor(i / 5) * GROUP_GAP, TOP + street * STREET_GAP + seat * ROW];
}

/** @param {number} seat @param {boolean} front @param {number} x @param {number} y @param {number} hole */
function peg(seat, front, x, y, hole) {
  const attrs = {
    class: `peg seat${seat} ${front ? "front" : "back"}`,
    "data-seat": seat,
    "data-peg": front ? "front" : "back",
    "data-hole": hole,
  };
  if (seat === 0) return svg("circle", { ...attrs, cx: x, cy: y, r: 6.5 });
  return svg("rect", { ...attrs, x: x - 6, y: y - 6, width: 12, height: 12, rx: 1.5 });
}

/**
 * The whole board as an SVG element.
 * @param {number} target 121 or 61
 * @param {[number, number]} scores front pegs
 * @param {[number, number]} previous back pegs
 * @param {[string, string]} names
 */
export function pegboard(target, scores, previous, names) {
  const streets = Math.ceil((target - 1) / STREET);
  const height = TOP + streets * STREET_GAP;
  const width = X0 + STREET * PITCH + 5 * GROUP_GAP + 8;
  const label =
    `Pegboard, game to ${target}: ${names[0]} ${scores[0]}, ${names[1]} ${scores[1]}`;
  const board = svg("svg", {
    id: "pegboard", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label,
    "data-target": target,
  });
  board.appendChild(svg("rect", { class: "wood", x: 1, y: 1, width: width - 2, height: height - 2, rx: 10 }));
  for (let street = 0; street < streets; street++) {
    const y = TOP + street * STREET_GAP + ROW + 14;
    const first = street * STREET + 1;
    const [xa] = holeXY(0, first, target);
    const [xb] = holeXY(0, first + STREET - 1, target);
    board.appendChild(svg("text", { class: "street-label", x: xa, y, "text-anchor": "middle" }, String(first)));
    board.appendChild(svg("text", { class: "street-label", x: xb, y, "text-anchor": "middle" }, String(first + STREET - 1)));
  }
  for (const seat of [0, 1]) {
    for (let n = 0; n <= target; n++) {
      if (n === target && seat === 1) continue;
      const [x, y] = holeXY(seat, n, target);
      board.appendChild(svg("circle", {
        class: n === 0 || n === target ? "hole end" : `hole seat${seat}`,
        "data-seat": n === target ? null : seat, "data-hole": n, cx: x, cy: y, r: n === target ? 5 : 2.6,
      }));
    }
  }
  const lines = target === 121 ? [[91, "skunk line", "S"], [61, "double skunk line", "SS"]] : [[31, "skunk line", "S"]];
  for (const [hole, title, mark] of lines) {
    const [x0, y0] = holeXY(0, Number(hole), target);
    const [xPrev] = holeXY(0, Number(hole) - 1, target);
    const x = Number(hole) % STREET === 1 ? x0 + (x0 > xPrev ? -PITCH / 2 : PITCH / 2) : (x0 + xPrev) / 2;
    board.appendChild(svg("line", {
      class: "skunk", x1: x, x2: x, y1: y0 - 8, y2: y0 + ROW + 8, "data-line": hole,
    }, svg("title", {}, `${title} (${hole})`)));
    board.appendChild(svg("text", { class: "skunk-label", x, y: y0 - 10, "text-anchor": "middle" }, String(mark)));
  }
  for (const seat of [0, 1]) {
    const back = Math.min(previous[seat], target);
    const front = Math.min(scores[seat], target);
    if (back !== front) {
      const [bx, by] = holeXY(seat, back, target);
      board.appendChild(peg(seat, false, bx, by, back));
    }
    const [fx, fy] = holeXY(seat, front, target);
    board.appendChild(peg(seat, true, fx, fy, front));
  }
  return board;
}
