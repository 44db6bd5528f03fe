// @ts-check
// A duplicate match's result: who won by how many points on the same cards, and each hand as
// both players played it (the server sends it once both tables are over).

import { el } from "./dom.js";
import { symbol } from "./cards.js";

/** What a table of a duplicate match is. @param {1 | 2} table */
export function tableFacts(table) {
  return table === 1
    ? "Duplicate match, table 1 of 2: table 2 deals these cards again with the seats swapped"
    : "Duplicate match, table 2 of 2: the deals of table 1, the seats swapped";
}

/** @param {readonly string[]} cards */
const shown = (cards) => cards.length ? cards.map(symbol).join(" ") : "—";

/** The result panel. @param {MugginsServer.DuplicateResult} result */
export function duplicatePanel(result) {
  const you = result.you;
  const who = result.names.map((name, i) => (i === you ? "You" : name));
  const rows = result.hands.map((hand) => el("tr", {},
    el("td", {}, `${hand.game_number}.${hand.deal_number}`),
    el("td", {}, hand.dealer ? "dealer" : "pone"),
    el("td", {}, shown(hand.cards)),
    el("td", {}, shown(hand.discards[0])), el("td", { class: "num" }, String(hand.points[0])),
    el("td", {}, shown(hand.discards[1])), el("td", { class: "num" }, String(hand.points[1]))));
  const links = result.games.flatMap((game, i) => [
    el("a", { href: `/#/game/${encodeURIComponent(game)}`, class: "button" }, `Replay table ${i + 1}`),
    el("a", { href: `/#/review/${encodeURIComponent(game)}`, class: "button" }, `Review table ${i + 1}`)]);
  return el("section", { id: "duplicate-result", "aria-labelledby": "duplicate-heading" },
    el("h2", { id: "duplicate-heading" }, result.text),
    el("p", {}, `Over both tables, ${result.names[0]} less ${result.names[1]}: ${result.margin} points`
      + (result.rated ? " (rated)" : "") + ". Each hand below was dealt at both tables; each of you held it once."),
    el("table", { id: "duplicate-hands" },
      el("caption", {}, "The same cards, each player's choice"),
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, "Deal"), el("th", { scope: "col" }, "Role"), el("th", { scope: "col" }, "Cards dealt"),
        el("th", { scope: "col" }, `${who[0]} laid away`), el("th", { scope: "col" }, "made"),
        el("th", { scope: "col" }, `${who[1]} laid away`), el("th", { scope: "col" }, "made"))),
      el("tbody", {}, ...rows)),
    el("p", {}, ...links, el("a", { href: "/", class: "button" }, "Front page")));
}
