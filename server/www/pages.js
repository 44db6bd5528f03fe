// @ts-check
// The community pages, at addresses after "#" on the front page (nothing of them reaches the
// server's HTTP side): #/player/NAME (a profile: rating, record, averages per deal, finished
// games newest first), #/leaderboard (established ratings) and #/game/ID (replay.js).

import { byId, el, fill } from "./dom.js";
import { say } from "./session.js";
import { request } from "./requests.js";
import { ratingFigure, ratingText } from "./account.js";
import { replayPage } from "./replay.js";
import { backLinks, playerLink } from "./links.js";
import { tournamentPage } from "./tournaments.js";
import { reviewPage } from "./review.js";
import { blockButtons, moderationPage, reportButton } from "./moderation.js";
import { A } from "./account.js";
import { nextPage, pageTurn } from "./shown.js";
/** @typedef {import("./session.js").Table} Table */

/** Games asked for on a profile: the latest this many, "Show more" raises it to the most. */
const HISTORY_FIRST = 20;
const HISTORY_MOST = 100;

/** @typedef {{kind: "player", name: string} | {kind: "leaderboard"} | {kind: "moderation"} | {kind: "game", id: string}
 *   | {kind: "review", id: string, seat: number | null} | {kind: "tournament", id: string}} Route */

/** The page the address names, or null for the front page. @returns {Route | null} */
export function currentRoute() {
  const hash = location.hash;
  let m = hash.match(/^#\/player\/([^/]{1,200})$/);
  if (m) {
    try {
      return { kind: "player", name: decodeURIComponent(m[1]) };
    } catch {
      return null;
    }
  }
  if (/^#\/leaderboard\/?$/.test(hash)) return { kind: "leaderboard" };
  if (/^#\/moderation\/?$/.test(hash) || location.pathname === "/moderation") return { kind: "moderation" };
  m = hash.match(/^#\/game\/([A-Za-z]{4,12}-\d{1,6})$/);
  if (m) return { kind: "game", id: m[1].toUpperCase() };
  m = hash.match(/^#\/review\/([A-Za-z]{4,12}-\d{1,6})(?:\/([01]))?$/);
  if (m) return { kind: "review", id: m[1].toUpperCase(), seat: m[2] === undefined ? null : Number(m[2]) };
  m = hash.match(/^#\/tournament\/([A-Za-z0-9]{1,16})$/);
  if (m) return { kind: "tournament", id: m[1].toUpperCase() };
  return null;
}

/** @param {Route} route */
const keyOf = (route) => JSON.stringify(route);

const P = {
  /** The route whose data was asked for (or drawn). */
  loaded: "",
  /** How many history entries the profile asks for. */
  historyLimit: HISTORY_FIRST,
};

/** Draw the page the address names, when not at a table. @param {Table} t @param {boolean} onTable
 * @returns {boolean} whether a page is shown (the front page is then hidden) */
export function renderPages(t, onTable) {
  const route = onTable ? null : currentRoute();
  byId("pages").hidden = !route;
  if (!route) {
    if (P.loaded) nextPage();
    P.loaded = "";
    return false;
  }
  const key = keyOf(route) + (route.kind === "player" ? `|${P.historyLimit}` : "")
    + (route.kind === "moderation" || route.kind === "tournament" ? `|${A.account?.name ?? ""}` : "");
  if (key !== P.loaded && t.s.link === "connected") {
    P.loaded = key;
    nextPage();
    load(t, route);
  } else if (!P.loaded) {
    fill("page-body", el("p", {}, "Connecting…"));
  }
  return true;
}

/** @param {Table} t @param {Route} route */
function load(t, route) {
  if (route.kind !== "game" && route.kind !== "review") fill("page-body", el("p", {}, "Loading…"));
  if (route.kind === "player") return loadProfile(t, route.name);
  if (route.kind === "leaderboard") return loadLeaderboard(t);
  if (route.kind === "moderation") {
    if (A.account) return moderationPage(t);
    return fill("page-body", el("h2", { id: "page-title", tabindex: "-1" }, "Moderation"),
      el("p", { id: "mod-sign-in" }, "Sign in as a moderator or an admin to see this page."), backLinks());
  }
  if (route.kind === "review") return reviewPage(t.link, route.id, route.seat);
  if (route.kind === "tournament") return tournamentPage(t, route.id);
  return replayPage(t.link, route.id);
}

/** @param {string} text @param {unknown} error */
function failed(text, error) {
  const message = error instanceof Error ? error.message : String(error);
  fill("page-body", el("h2", { tabindex: "-1", id: "page-title" }, text),
    el("p", { class: "error", role: "alert" }, message), backLinks());
  P.loaded = "";
  byId("page-title").focus();
}

/** @param {number} n */
const two = (n) => n.toFixed(2);

/** @param {Table} t @param {string} name */
async function loadProfile(t, name) {
  const turn = pageTurn();
  let profile, history;
  try {
    profile = await request(t.link, { type: "profile", name });
    history = await request(t.link, { type: "history", name, limit: P.historyLimit });
  } catch (error) {
    if (turn === pageTurn()) failed(`No profile for ${name}`, error);
    return;
  }
  if (turn !== pageTurn() || profile.type !== "profile" || history.type !== "history") return;
  const c = /** @type {Record<string, number>} */ (profile.counts);
  const n = (/** @type {string} */ key) => Number(c[key] ?? 0);
  const a = profile.averages;
  const r = profile.rating;
  const table = (/** @type {string} */ caption, /** @type {string[]} */ heads, /** @type {(string | number)[][]} */ rows, /** @type {string} */ id) =>
    el("div", { class: "table-wrap" }, el("table", { class: "stats", id },
      el("caption", {}, caption),
      el("thead", {}, el("tr", {}, ...heads.map((h, i) => el("th", { scope: i ? "col" : "row" }, h)))),
      el("tbody", {}, ...rows.map((row) => el("tr", {}, ...row.map((cell, i) =>
        i ? el("td", {}, String(cell)) : el("th", { scope: "row" }, String(cell))))))));
  fill("page-body",
    el("h2", { id: "page-title", tabindex: "-1" }, profile.name + (profile.bot ? " [bot]" : "")),
    el("p", { id: "profile-rating", class: "rating" }, "Rating ",
      el("strong", { title: "± one rating deviation (RD)" }, ratingFigure(r)),
      r.provisional ? el("span", { class: "tag provisional", id: "provisional" }, " provisional") : " established",
      ` · ${r.games} rated match${r.games === 1 ? "" : "es"}`),
    r.provisional ? el("p", { class: "small" }, "The ± figure is one rating deviation (RD). A rating is provisional while its RD is above 110; the leaderboard lists established ones.") : null,
    table("Record", ["", "played", "won", "lost"], [
      ["Matches", n("matches"), n("match_wins"), n("matches") - n("match_wins")],
      ["Games", n("games"), n("wins"), n("losses")],
    ], "record"),
    table("Skunks", ["", "given", "taken"], [
      ["Skunks", n("skunks_given"), n("skunks_taken")],
      ["Double skunks", n("double_skunks_given"), n("double_skunks_taken")],
    ], "skunks"),
    table("Average points per deal", ["", "pegging", "hand", "crib", "total", "deals"], [
      ["As dealer", two(a.dealer_pegging), two(a.dealer_hand), two(a.dealer_crib), two(a.dealer_total), n("deals_dealer")],
      ["As pone", two(a.pone_pegging), two(a.pone_hand), "–", two(a.pone_total), n("deals_pone")],
    ], "averages"),
    el("p", { id: "hand-crib" }, `Average hand ${two(a.hand)} (${n("hands")} shown) · average crib ${two(a.crib)} (${n("cribs")} shown)`),
    el("p", { id: "given-away" }, a.given_away === null || a.given_away === undefined
      ? "Points given away per deal: not reviewed yet."
      : `Points given away per deal, as the expert reviewer sees it: ${two(a.given_away)} (discards ${two(a.given_away_discards ?? 0)}, play ${two(a.given_away_play ?? 0)}; ${n("reviewed_deals")} deals reviewed).`),
    A.account && A.account.name !== profile.name
      ? el("p", { id: "profile-moderation" }, reportButton(t, profile.name, {}, `Report ${profile.name}`), " ",
        blockButtons(t, profile.name))
      : null,
    el("h3", {}, "Finished games, newest first"),
    historyList(history),
    history.games.length >= P.historyLimit && P.historyLimit < HISTORY_MOST
      ? el("button", { type: "button", id: "more-history", onclick: () => { P.historyLimit = HISTORY_MOST; t.render(); } },
        `Show up to ${HISTORY_MOST}`)
      : null,
    backLinks());
  byId("page-title").focus();
  say(`${profile.name}: rating ${ratingText(r)}`);
}

/** @param {MugginsServer.History} history */
function historyList(history) {
  if (!history.games.length) return el("p", { id: "history-empty" }, `${history.name} has no finished games here yet.`);
  return el("ol", { class: "history", id: "history" }, ...history.games.map((g) => {
    const when = new Date(g.finished * 1000);
    const change = g.rating_before !== null && g.rating_after !== null
      ? ` ${Math.round(g.rating_before)} → ${Math.round(g.rating_after)}` : "";
    return el("li", { "data-game": g.game, "data-result": g.result },
      el("time", { datetime: when.toISOString() }, when.toLocaleString()), " ",
      el("strong", {}, g.result === "won" ? "Won" : g.result === "lost" ? "Lost" : g.result === "drawn" ? "Drawn" : "Abandoned"),
      " against ", g.opponent_account ? playerLink(g.opponent) : g.opponent,
      ` ${g.match_points[0]}–${g.match_points[1]}`,
      g.rated ? el("span", { class: "tag" }, ` rated${change}`) : el("span", { class: "tag" }, " casual"), " ",
      el("a", { href: `#/game/${g.game}`, class: "button", "aria-label": `Replay game ${g.game}` }, "Replay"), " ",
      el("a", { href: `#/review/${g.game}/${g.seat}`, class: "button", "aria-label": `Review game ${g.game}` }, "Review"));
  }));
}

/** A form that opens any player's profile by name (provisional ones are not on the board). */
function findPlayer() {
  const input = el("input", { id: "find-player", maxlength: 24, autocomplete: "off" });
  const form = el("form", { id: "find-player-form", class: "find-player" },
    el("label", { for: "find-player" }, "Find a player"), " ", input, " ",
    el("button", { type: "submit", id: "find-player-button" }, "Show the profile"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = /** @type {HTMLInputElement} */ (input).value.trim();
    if (name) location.hash = `#/player/${encodeURIComponent(name)}`;
  });
  return form;
}

/** @param {Table} t */
async function loadLeaderboard(t) {
  const turn = pageTurn();
  let board;
  try {
    board = await request(t.link, { type: "leaderboard", limit: 100 });
  } catch (error) {
    if (turn === pageTurn()) failed("Leaderboard", error);
    return;
  }
  if (turn !== pageTurn() || board.type !== "leaderboard") return;
  const body = board.entries.length
    ? el("div", { class: "table-wrap" }, el("table", { class: "stats leaderboard", id: "leaderboard" },
      el("caption", {}, "Established ratings, best first"),
      el("thead", {}, el("tr", {}, ...["#", "Name", "Rating", "± RD", "Rated matches", "All matches won–lost"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...board.entries.map((e) => {
        const c = /** @type {Record<string, number>} */ (e.counts);
        const matches = Number(c.matches ?? 0);
        const wins = Number(c.match_wins ?? 0);
        return el("tr", { "data-name": e.name },
          el("td", {}, String(e.rank)), el("th", { scope: "row" }, playerLink(e.name), e.bot ? " [bot]" : ""),
          el("td", {}, String(Math.round(e.rating.rating))), el("td", {}, String(Math.round(e.rating.deviation))),
          el("td", {}, String(e.rating.games)), el("td", {}, `${wins}–${matches - wins}`));
      }))))
    : el("p", { id: "leaderboard-empty" }, "No established ratings here yet: a rating is provisional while its rating deviation (RD, the ± figure) is above 110.");
  fill("page-body", el("h2", { id: "page-title", tabindex: "-1" }, "Leaderboard"), body, findPlayer(), backLinks());
  byId("page-title").focus();
}

/** @param {Table} t */
export function wirePages(t) {
  window.addEventListener("hashchange", () => {
    P.loaded = "";
    P.historyLimit = HISTORY_FIRST;
    t.render();
  });
}
