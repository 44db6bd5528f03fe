// @ts-check
// #/review/ID[/SEAT]: a finished match's review, as the server graded it with the expert. Every
// decision of one seat (its choice, the expert's, the points and win chance it gave away), the
// worst moments, the points given away per deal, and the seat's chance to win over the match
// (from the expert's win table) as a graph.

import { byId, el, fill, svg } from "./dom.js";
import { say } from "./session.js";
import { request } from "./requests.js";
import { backLinks } from "./links.js";
import { symbol } from "./cards.js";
import { pageTurn } from "./shown.js";

const KIND = /** @type {Record<string, string>} */ ({ discard: "Discard", play: "Play", count: "Count" });

/** "3H JH" as "3♥ J♥"; a count stays as it is. @param {string} text */
const cardText = (text) => text.replace(/\b(10|[2-9AJQK])([CDHS])\b/g, (card) => symbol(card));

/** @param {number} n */
const points = (n) => n.toFixed(2);
/** @param {number} n */
const percent = (n) => `${(100 * n).toFixed(1)}%`;

/** @param {import("./net.js").Link} link @param {string} id @param {number | null} seat */
export async function reviewPage(link, id, seat) {
  fill("page-body", el("p", { id: "review-loading" }, `The expert is reviewing game ${id}…`));
  const turn = pageTurn();
  let review;
  try {
    review = await request(link, { type: "review", game: id, seat });
  } catch (error) {
    if (turn !== pageTurn()) return;
    fill("page-body", el("h2", { id: "page-title", tabindex: "-1" }, `Review of game ${id}`),
      el("p", { class: "error", role: "alert" }, error instanceof Error ? error.message : String(error)), backLinks());
    byId("page-title").focus();
    return;
  }
  if (turn !== pageTurn() || review.type !== "game_review") return;
  const me = review.names[review.seat];
  const other = 1 - review.seat;
  const [discards, play, counts] = review.given_away;
  const total = discards + play + counts;
  fill("page-body",
    el("h2", { id: "page-title", tabindex: "-1" }, `Review of game ${review.game}: ${me}`),
    el("p", { class: "page-links" }, `Each decision of ${me} set against the expert's. `,
      el("a", { href: `#/review/${review.game}/${other}`, id: "review-other" }, `Review ${review.names[other]} instead`),
      " · ", el("a", { href: `#/game/${review.game}` }, "Replay the game")),
    el("p", { id: "review-summary", class: "rating" },
      `${review.decisions.length} decisions, ${review.agreed} the same as the expert's. Points given away: `,
      el("strong", {}, points(total)),
      ` (discards ${points(discards)}, play ${points(play)}${counts ? `, counts ${points(counts)}` : ""}).`),
    winGraph(review),
    worstMoments(review),
    dealTable(review),
    decisionTable(review),
    backLinks());
  byId("page-title").focus();
  say(`Review of ${me}: ${points(total)} points given away in ${review.decisions.length} decisions`);
}

/** The seat's chance to win, deal by deal, as a line over the match. @param {MugginsServer.GameReview} review */
function winGraph(review) {
  const pts = review.win_chance;
  const W = 640, H = 220, left = 44, right = 12, top = 12, bottom = 28;
  const x = (/** @type {number} */ i) => left + (pts.length > 1 ? i * (W - left - right) / (pts.length - 1) : 0);
  const y = (/** @type {number} */ c) => top + (1 - c) * (H - top - bottom);
  const grid = [0, 0.25, 0.5, 0.75, 1].map((c) => svg("g", {},
    svg("line", { x1: left, x2: W - right, y1: y(c), y2: y(c), class: c === 0.5 ? "mid" : "grid" }),
    svg("text", { x: left - 6, y: y(c) + 4, "text-anchor": "end" }, `${100 * c}%`)));
  const ends = pts.map((p, i) => p.deal === 0 ? svg("line", { x1: x(i), x2: x(i), y1: top, y2: H - bottom, class: "game-end" }) : null);
  const line = svg("polyline", { points: pts.map((p, i) => `${x(i).toFixed(1)},${y(p.chance).toFixed(1)}`).join(" "), class: "chance" });
  const dots = pts.map((p, i) => svg("circle", { cx: x(i), cy: y(p.chance), r: 3, class: "dot" },
    svg("title", {}, pointText(p))));
  const start = pts[0], end = pts[pts.length - 1];
  const label = start && end
    ? `${review.names[review.seat]}'s chance to win: ${percent(start.chance)} at the first deal, ${percent(end.chance)} at the end`
    : "No deals";
  return el("figure", { id: "win-graph", class: "win-graph" },
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, preserveAspectRatio: "none" },
      ...grid, ...ends, line, ...dots,
      svg("text", { x: left, y: H - 8 }, "first deal"), svg("text", { x: W - right, y: H - 8, "text-anchor": "end" }, "end")),
    el("figcaption", {}, `Chance to win each game, deal by deal, from the expert's win table. ${label}.`),
    el("details", {}, el("summary", {}, "The figures"),
      el("ol", { id: "win-points" }, ...pts.map((p) => el("li", {}, pointText(p))))));
}

/** @param {MugginsServer.WinPoint} p */
const pointText = (p) => p.deal === 0
  ? `Game ${p.game} over at ${p.scores[0]}–${p.scores[1]}: ${p.chance ? "won" : "lost"}`
  : `Game ${p.game}, deal ${p.deal} (${p.dealer ? "dealing" : "pone"}, ${p.scores[0]}–${p.scores[1]}): ${percent(p.chance)}`;

/** @param {MugginsServer.GameReview} review */
function worstMoments(review) {
  if (!review.worst.length) return el("p", { id: "review-worst-none" }, "Every decision was the expert's: nothing given away.");
  return el("section", { "aria-labelledby": "worst-title" },
    el("h3", { id: "worst-title" }, "The worst moments"),
    el("ol", { id: "review-worst", class: "worst" }, ...review.worst.map((i) => {
      const d = review.decisions[i];
      return el("li", { "data-index": i },
        el("strong", {}, `Game ${d.game}, deal ${d.deal} (${d.scores[0]}–${d.scores[1]}): `),
        `${KIND[d.kind] ?? d.kind} ${cardText(d.chosen)}; the expert: ${cardText(d.best)}. −${points(d.loss)} points`,
        d.win_loss >= 0.001 ? `, −${percent(d.win_loss)} win chance` : "", ".",
        d.explanation ? el("span", { class: "small" }, ` ${d.explanation}`) : null);
    })));
}

/** @param {MugginsServer.GameReview} review */
function dealTable(review) {
  return el("div", { class: "table-wrap" }, el("table", { class: "stats", id: "review-deals" },
    el("caption", {}, "Points given away per deal"),
    el("thead", {}, el("tr", {}, ...["Deal", "discards", "play", "counts", "total"].map((h, i) => el("th", { scope: i ? "col" : "row" }, h)))),
    el("tbody", {}, ...review.deals.map((d) => el("tr", {},
      el("th", { scope: "row" }, `Game ${d.game}, deal ${d.deal}`),
      el("td", {}, points(d.discards)), el("td", {}, points(d.play)), el("td", {}, points(d.counts)),
      el("td", {}, points(d.discards + d.play + d.counts)))))));
}

/** @param {MugginsServer.GameReview} review */
function decisionTable(review) {
  return el("div", { class: "table-wrap" }, el("table", { class: "stats decisions", id: "review-decisions" },
    el("caption", {}, "Every decision"),
    el("thead", {}, el("tr", {}, ...["Where", "score", "decision", "your choice", "the expert's", "points lost", "win chance lost"]
      .map((h, i) => el("th", { scope: i ? "col" : "row" }, h)))),
    el("tbody", {}, ...review.decisions.map((d, i) => el("tr", { "data-index": i, class: d.loss > 1e-9 ? "lost" : "agreed", title: d.explanation || null },
      el("th", { scope: "row" }, `Game ${d.game}, deal ${d.deal}`),
      el("td", {}, `${d.scores[0]}–${d.scores[1]}`),
      el("td", {}, KIND[d.kind] ?? d.kind),
      el("td", { class: "mono" }, cardText(d.chosen)),
      el("td", { class: "mono" }, d.loss > 1e-9 ? cardText(d.best) : "the same"),
      el("td", {}, d.loss > 1e-9 ? `−${points(d.loss)}` : "0"),
      el("td", {}, d.win_loss >= 0.0005 ? `−${percent(d.win_loss)}` : "–"))))));
}
