// @ts-check
// The table, drawn from the state's view alone: the board and scores, the opponent's card backs,
// the crib, the starter, the pile with the count and the calls, and your hand as buttons.

import { el } from "./dom.js";
import { isRed, spoken, symbol } from "./cards.js";
import { pegboard } from "./board.js";
import { legalOf, need, playable } from "./moves.js";
import { claimSentence, pendingClaim } from "./muggins.js";

const SHAPES = ["●", "■"];
let lastPile = "";

/** A face-up card (not a button). @param {string} card @param {string} [extra] */
export function faceUp(card, extra = "") {
  return el("span", {
    class: `card ${isRed(card) ? "red" : "black"} ${extra}`, role: "img",
    "aria-label": spoken(card), "data-card": card, title: spoken(card),
  }, el("span", { class: "rank", "aria-hidden": "true" }, symbol(card)));
}

/** A row of face-down cards. @param {number} n @param {string} what */
export function backs(n, what) {
  const row = el("span", {
    class: "backs", role: "img",
    "aria-label": n ? `${n} face-down card${n === 1 ? "" : "s"} (${what})` : `no cards (${what})`,
    "data-count": n,
  });
  for (let i = 0; i < n; i++) row.appendChild(el("span", { class: "card back", "aria-hidden": "true" }));
  return row;
}

/**
 * The board with both players' names, scores and last gains.
 * @param {MugginsServer.SeatView} view @param {[string, string]} names
 */
export function boardSection(view, names) {
  const gains = [0, 1].map((s) => view.scores[s] - view.previous_scores[s]);
  const line = el("div", { class: "scoreline", id: "scoreline" });
  for (const seat of [0, 1]) {
    line.appendChild(el("span", {
      class: `score seat${seat}${view.turn === seat ? " turn" : ""}`, "data-seat": seat,
      "data-score": view.scores[seat],
    },
      el("span", { class: "shape", "aria-hidden": "true" }, SHAPES[seat]), " ",
      el("span", { class: "who" }, names[seat]), " ",
      el("strong", { class: "points" }, String(view.scores[seat])),
      gains[seat] > 0 ? el("span", { class: "gain" }, ` (+${gains[seat]})`) : null,
      view.dealer === seat ? el("span", { class: "tag" }, " dealer") : null,
    ));
  }
  return el("section", { class: "board", "aria-label": "Pegboard and scores" },
    pegboard(view.options.target ?? 121, view.scores, view.previous_scores, names), line);
}

/**
 * The middle of the table: opponent, crib, starter, pile, count and calls.
 * @param {MugginsServer.SeatView} view @param {[string, string]} names
 * @param {[string, string][]} calls each call this deal: its kind and words
 */
export function middleSection(view, names, calls) {
  const me = view.seat;
  const others = me === null ? [0, 1] : [1 - me];
  const hands = others.map((seat) =>
    el("div", { class: "opponent", "data-seat": seat },
      el("span", { class: "label" }, `${names[seat]}'s hand`), " ",
      backs(view.hand_counts[seat], `${names[seat]}'s hand`)),
  );
  const cribOwner = names[view.dealer];
  const crib = view.crib
    ? el("span", { class: "cards" }, ...view.crib.map((c) => faceUp(c)))
    : backs(view.crib_count, `${cribOwner}'s crib`);
  // The card just played slides in (once: a redraw for anything else does not move it again).
  const pileKey = `${view.deal_number}:${view.pile.map((p) => p.card).join(" ")}`;
  const fresh = pileKey !== lastPile && view.pile.length > 0;
  lastPile = pileKey;
  const pile = el("div", { class: "pile", id: "pile", role: "group", "aria-label": "Cards played since the count started" },
    ...view.pile.map((p, i) => faceUp(p.card, `by${p.seat}${fresh && i === view.pile.length - 1 ? " fresh" : ""}`)));
  return el("section", { class: "middle", "aria-label": "The table" },
    ...hands,
    el("div", { class: "row" },
      el("div", { class: "crib" }, el("span", { class: "label" }, `Crib (${cribOwner})`), " ", crib),
      el("div", { class: "starter" }, el("span", { class: "label" }, "Starter"), " ",
        view.starter ? faceUp(view.starter) : backs(0, "not cut yet")),
    ),
    view.phase === "play"
      ? el("div", { class: "pegging" },
        el("div", { class: "count", id: "count", "data-count": view.count }, "Count ",
          el("strong", {}, String(view.count))),
        pile)
      : null,
    calls.length ? el("ol", { class: "calls", id: "calls", "aria-label": "Calls" },
      ...calls.map(([kind, words]) => el("li", { "data-kind": kind }, words))) : null,
  );
}

/**
 * Your hand as buttons: choose by click, tap or keys 1-6.
 * @param {MugginsServer.SeatView} view @param {string[]} selected
 * @param {(card: string) => void} toggle
 */
export function handSection(view, selected, toggle) {
  if (view.seat === null) return el("section", { class: "hand", "aria-label": "Watching" },
    el("p", { class: "watching" }, "You are watching: no hidden cards are shown."));
  const canPlay = view.phase === "play" ? playable(view) : null;
  const choosing = need(view) > 0;
  const buttons = view.hand.map((card, i) => {
    const dim = canPlay !== null && view.turn === view.seat && !canPlay.has(card);
    const chosen = selected.includes(card);
    return el("button", {
      type: "button",
      class: `card ${isRed(card) ? "red" : "black"}${chosen ? " chosen" : ""}${dim ? " dim" : ""}`,
      "aria-label": `${spoken(card)}${dim ? ", cannot be played now" : ""}`,
      "aria-pressed": chosen ? "true" : "false",
      "aria-keyshortcuts": String(i + 1),
      "data-card": card,
      disabled: !choosing || dim,
      onclick: () => toggle(card),
    }, el("span", { class: "rank", "aria-hidden": "true" }, symbol(card)),
    el("span", { class: "key", "aria-hidden": "true" }, String(i + 1)));
  });
  return el("section", { class: "hand", "aria-label": "Your hand" },
    el("div", { class: "cards", id: "hand" }, ...buttons),
    view.discards.length
      ? el("p", { class: "laid" }, "Laid away: ", ...view.discards.map((c) => faceUp(c, "small")))
      : null);
}

/** What to do now, in one sentence. @param {MugginsServer.SeatView | null} view @param {[string, string]} names */
export function turnPrompt(view, names) {
  if (!view) return "Waiting for the game to start…";
  const you = view.seat;
  if (view.phase === "match_over") return "The match is over";
  if (view.phase === "game_over") return "The game is over";
  const waiting = view.waiting_for.filter((s) => s !== you).map((s) => names[s]);
  if (view.phase === "discard") {
    const whose = view.dealer === you ? "your" : `${names[view.dealer]}'s`;
    if (you !== null && view.waiting_for.includes(you)) {
      return touchScreen()
        ? `Lay away two cards to ${whose} crib: tap two, then Lay away`
        : `Lay away two cards to ${whose} crib: choose two (keys 1-6), then Enter`;
    }
    return waiting.length ? `Waiting for ${waiting.join(" and ")} to lay away` : "Cutting the starter";
  }
  if (view.phase === "play") {
    if (view.turn === you) return `Your turn: play a card. The count is ${view.count}`;
    return `${names[view.turn ?? 0]} to play. The count is ${view.count}`;
  }
  const claim = pendingClaim(view.show);
  if (you !== null && legalOf(view, "count").length) {
    return `The show: count your ${view.show[view.show.length - 1]?.kind ?? "hand"} and type the points (0-29)`;
  }
  if (claim) {
    const said = claimSentence(claim, names, you);
    if (you !== null && legalOf(view, "accept").length) {
      return `The show: ${said}: A accept · M Muggins! (short) · X challenge (over)`;
    }
    return `The show: ${said}; waiting for ${names[1 - claim.seat]} to answer`;
  }
  if (you !== null && view.waiting_for.includes(you)) return "The show: your move";
  return waiting.length ? `The show: waiting for ${waiting.join(" and ")}` : "The show";
}

/** Whether the player taps rather than types (a phone): prompts then speak of taps, not keys. */
export function touchScreen() {
  return window.matchMedia?.("(pointer: coarse)").matches ?? false;
}
