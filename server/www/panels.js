// @ts-check
// The panels around the table: the show with its itemised counts, the game over, the waiting
// room with the invite link, and the fair-deal check.

import { el } from "./dom.js";
import { faceUp } from "./table.js";
import { symbol } from "./cards.js";
import { settlement } from "./muggins.js";
import { siteAddress } from "./links.js";

const PART_NAMES = /** @type {Record<string, string>} */ ({
  fifteen: "Fifteen", pair: "Pair", run: "Run", flush: "Flush", nobs: "His nobs",
  thirty_one: "Thirty-one", go: "Go", last_card: "Last card", heels: "His heels",
});

/**
 * The show: pone's hand, dealer's hand, then the crib, each with its breakdown and spoken count.
 * @param {MugginsServer.ShowResult[]} shown @param {number} dealer @param {[string, string]} names
 * @param {string} title
 */
export function showPanel(shown, dealer, names, title) {
  const items = shown.map((s, i) => {
    const whose = s.kind === "crib" ? `${names[s.seat]}'s crib`
      : `${s.seat === dealer ? "Dealer" : "Pone"}'s hand (${names[s.seat]})`;
    const parts = (s.parts || []).map((p) =>
      el("li", { class: "part" }, `${PART_NAMES[p.kind] || p.kind}: `,
        (p.cards || []).map(symbol).join(" "), ` = ${p.points}`));
    const scored = s.total !== null && s.total !== undefined;
    return el("article", { class: "shown", "data-kind": s.kind, "data-seat": s.seat, "data-index": i },
      el("h3", {}, whose),
      el("div", { class: "cards" }, ...s.cards.map((c) => faceUp(c)), " + ", faceUp(s.starter, "starter")),
      scored ? el("ul", { class: "parts" }, ...parts) : null,
      scored ? el("p", { class: "spoken" }, s.spoken || "nothing") : el("p", {}, "Being counted…"),
      scored ? el("p", { class: "total", "data-total": s.total }, `Total ${s.total}`) : null,
      s.claimed !== null && s.claimed !== undefined
        ? el("p", { class: "claimed", "data-answer": s.answer || "" },
          scored ? settlement(s, names) : `Counted ${s.claimed}: waiting for the answer`)
        : null,
    );
  });
  return el("section", { class: "show", id: "show", "aria-label": title },
    el("h2", {}, title), el("div", { class: "shown-list" }, ...items));
}

/**
 * The end of a game or match.
 * @param {MugginsServer.Outcome} outcome @param {[string, string]} names
 * @param {[number, number]} matchPoints @param {boolean} matchOver
 * @param {HTMLElement[]} buttons
 */
export function gameOverPanel(outcome, names, matchPoints, matchOver, buttons) {
  const loser = 1 - outcome.winner;
  const skunk = outcome.double_skunk ? "a double skunk" : outcome.skunk ? "a skunk" : "";
  return el("section", { class: "over", id: "game-over", role: "region", "aria-label": "Game over" },
    el("h2", {}, `${names[outcome.winner]} wins game ${outcome.game_number}`),
    el("p", {}, `${outcome.scores[outcome.winner]} to ${outcome.scores[loser]}`,
      outcome.reason === "resign" ? ` (${names[loser]} resigned)` : "",
      skunk ? `: ${skunk}!` : ""),
    el("p", {}, `${outcome.game_points} game point${outcome.game_points === 1 ? "" : "s"}. `,
      `Match: ${names[0]} ${matchPoints[0]}, ${names[1]} ${matchPoints[1]}`,
      matchOver ? ". The match is over." : ""),
    el("div", { class: "buttons" }, ...buttons));
}

/**
 * While the room waits for a second player: the link to send and the terminal command.
 * @param {MugginsServer.Room} room @param {boolean} computer
 * @param {(text: string, button: HTMLElement) => void} copy
 * @param {() => void} seatBot
 * @param {string} publicUrl the server's public address ("" when it has none)
 */
export function waitingPanel(room, computer, copy, seatBot, publicUrl) {
  if (computer) return el("section", { class: "waiting", id: "waiting" }, el("p", {}, "Seating the computer…"));
  const where = siteAddress(publicUrl);
  const link = `${where.page}/r/${room.code}`;
  const command = `muggins play ${where.game} --join ${room.code}`;
  const copyButton = el("button", { type: "button", id: "copy-link" }, "Copy link");
  copyButton.addEventListener("click", () => copy(link, copyButton));
  return el("section", { class: "waiting", id: "waiting", "aria-label": "Invite a friend" },
    el("h2", {}, "Waiting for your opponent"),
    el("p", {}, "Send this link to a friend; it opens the table in any browser:"),
    el("p", { class: "invite" }, el("input", {
      id: "invite-link", readonly: true, value: link, "aria-label": "Invite link",
    }), " ", copyButton),
    where.loopback ? el("p", { class: "warning", id: "loopback-warning" },
      `This link names ${location.hostname}, this computer's own address: it works only on this computer. `,
      "For a friend elsewhere, open the page by an address they can reach, or start the server with ",
      el("code", {}, "--public-url"), " (or ", el("code", {}, "MUGGINS_PUBLIC_URL"), ").") : null,
    el("p", {}, "Room code ", el("strong", { id: "room-code" }, room.code),
      ". From a terminal: ", el("code", { id: "invite-command" }, command)),
    el("p", {}, el("button", { type: "button", id: "seat-bot", onclick: seatBot }, "Play the computer instead")));
}

/**
 * The latest deal checks, and the "check this deal" details.
 * @param {import("./fair.js").FairResult[]} results
 */
export function fairPanel(results) {
  const last = results[results.length - 1];
  if (!last) {
    return el("section", { class: "fair", id: "fair" },
      el("p", {}, "Each deal's deck is committed with SHA-256 before it is dealt; it is checked here when revealed."));
  }
  const bad = results.filter((r) => !r.ok);
  const r = last.reveal;
  return el("section", { class: `fair${bad.length ? " unfair" : ""}`, id: "fair" },
    bad.length
      ? el("p", { class: "warning", role: "alert", id: "fair-warning" }, bad[bad.length - 1].sentence)
      : null,
    el("p", { id: "fair-status", "data-ok": last.ok ? "true" : "false" }, last.sentence),
    el("details", { id: "check-deal" },
      el("summary", {}, `Check deal ${r.deal_number} yourself`),
      el("p", {}, "sha256(the deck below, cards joined by single spaces, then \"|\" and the salt) must equal the commitment. The pone gets cards 1, 3, 5, 7, 9, 11 of the deck, the dealer 2, 4, 6, 8, 10, 12."),
      el("dl", {},
        el("dt", {}, "Commitment"), el("dd", { class: "mono" }, r.commitment),
        el("dt", {}, "Deck"), el("dd", { class: "mono", id: "revealed-deck" }, r.deck.join(" ")),
        el("dt", {}, "Salt"), el("dd", { class: "mono" }, r.salt))));
}
