// @ts-check
// Tournaments: the front page's list (arenas and Swiss events on this server) and the standings
// page at #/tournament/ID, kept live by the `tournament` messages the server sends on each change.

import { byId, el, fill } from "./dom.js";
import { listen, request } from "./requests.js";
import { say } from "./session.js";
import { backLinks } from "./links.js";
/** @typedef {import("./session.js").Table} Table */

const T = {
  /** The tournament whose page is shown ("" none). */
  showing: "",
  /** @type {Table | null} */ table: null,
  error: "",
  /** The revision last drawn of each tournament: an answer can come after the news of a later
   * change, and is then not drawn over it. @type {Map<string, number>} */
  drawn: new Map(),
};

/** Whether `info` is older than the one last drawn of its tournament (0: not numbered, drawn).
 * @param {MugginsServer.TournamentInfo} info */
function older(info) {
  const revision = info.revision ?? 0;
  return revision > 0 && revision < (T.drawn.get(info.summary.tournament) ?? 0);
}

/** @param {MugginsServer.TournamentSummary} s */
function facts(s) {
  const kind = s.kind === "arena" ? "Arena" : `Swiss, ${s.rounds} rounds`;
  const state = s.status === "playing"
    ? (s.kind === "arena" && s.ends_in !== null && s.ends_in !== undefined
      ? `playing, ${Math.ceil(s.ends_in / 60)} min left` : `playing, round ${s.round}`)
    : s.status === "waiting" ? "not started yet" : "finished";
  return `${kind} · ${state} · ${s.players} player${s.players === 1 ? "" : "s"}`
    + (s.duplicate ? " · duplicate deals" : "") + (s.bots ? " · bots admitted" : " · people only");
}

/** Ask for the list and draw it on the front page. @param {Table} t */
export function loadTournaments(t) {
  request(t.link, { type: "list_tournaments" }).then((reply) => {
    if (reply.type !== "tournaments") return;
    fill("tournaments-area", reply.tournaments.length
      ? el("ul", { id: "tournament-list", class: "tournament-list" }, ...reply.tournaments.map((s) =>
        el("li", { "data-tournament": s.tournament },
          el("a", { href: `#/tournament/${s.tournament}` }, s.name), " ",
          el("span", { class: "small" }, facts(s)))))
      : el("p", { id: "tournaments-empty" }, "No tournaments on this server just now."));
  }, () => fill("tournaments-area", el("p", {}, "The tournaments could not be loaded.")));
}

/** Draw the standings page of tournament `id` (asking the server first). @param {Table} t @param {string} id */
export function tournamentPage(t, id) {
  T.showing = id;
  T.table = t;
  request(t.link, { type: "get_tournament", tournament: id }).then((reply) => {
    if (reply.type === "tournament") draw(t, reply);
  }, (error) => {
    if (!onPage(id)) return;
    fill("page-body", el("h2", { id: "page-title", tabindex: "-1" }, `Tournament ${id}`),
      el("p", { class: "error", role: "alert" }, error.message), backLinks());
  });
}

/** @param {Table} t @param {"join_tournament" | "leave_tournament"} type */
function act(t, type) {
  request(t.link, { type, tournament: T.showing }).then((reply) => {
    T.error = "";
    if (reply.type === "tournament") {
      draw(t, reply);
      say(type === "join_tournament" ? "You are in: you will be seated when paired" : "You left the tournament");
    }
  }, (error) => {
    T.error = error.message;
    say(error.message);
    tournamentPage(t, T.showing);
  });
}

/** Whether tournament `id`'s page is the one shown (a reply may come after the player left it).
 * @param {string} id */
function onPage(id) {
  return id === T.showing && !byId("pages").hidden
    && location.hash.toUpperCase() === `#/TOURNAMENT/${id}`;
}

/** @param {Table} t @param {MugginsServer.TournamentInfo} info */
function draw(t, info) {
  if (older(info) || !onPage(info.summary.tournament)) return;
  const s = info.summary;
  if (info.revision) T.drawn.set(s.tournament, info.revision);
  const swiss = s.kind === "swiss";
  const heads = ["#", "Player", "Points", "Games", "Won", "Drawn", "Lost", swiss ? "Buchholz" : "Streak"];
  const rows = info.standings.map((r) => el("tr", { "data-name": r.name, class: r.active ? "" : "withdrawn" },
    el("td", {}, String(r.rank)), el("th", { scope: "row" }, r.name + (r.active ? "" : " (left)")),
    el("td", {}, String(r.points)), el("td", {}, String(r.games)), el("td", {}, String(r.wins)),
    el("td", {}, String(r.draws)), el("td", {}, String(r.losses)),
    el("td", {}, swiss ? String(r.buchholz ?? 0) : r.streak >= 2 ? `${r.streak} 🔥` : String(r.streak))));
  const games = info.games.slice().reverse().map((g) => el("li", { "data-game": g.game },
    `${g.round ? `Round ${g.round}: ` : ""}${g.names[0]} – ${g.names[1]} `,
    g.result === null || g.result === undefined ? el("span", { class: "tag" }, "playing")
      : el("strong", {}, g.result === 1 ? "1–0" : g.result === 0 ? "0–1" : "½–½"), " ",
    el("a", { href: `#/game/${g.game}`, class: "button" }, "Replay")));
  const button = s.status === "finished" ? null
    : info.joined
      ? el("button", { type: "button", id: "leave-tournament", onclick: () => act(t, "leave_tournament") }, "Leave")
      : el("button", { type: "button", class: "primary", id: "join-tournament", onclick: () => act(t, "join_tournament") }, "Join");
  fill("page-body",
    el("h2", { id: "page-title", tabindex: "-1" }, s.name),
    el("p", { id: "tournament-facts" }, facts(s)),
    el("p", { class: "small" }, s.kind === "arena"
      ? "Join and leave any time: you are paired as soon as you are free. A win scores 2, a draw 1; after two wins in a row each win scores 4."
      : "Each round pairs players of equal score; a win scores 1, a draw ½, a bye 1. Ties are broken by Buchholz, the sum of one's opponents' points."),
    button, T.error ? el("p", { class: "error", role: "alert" }, T.error) : null,
    el("div", { class: "table-wrap" }, el("table", { class: "stats", id: "standings" },
      el("caption", {}, "Standings"),
      el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...rows))),
    el("h3", {}, "Games, newest first"),
    games.length ? el("ol", { id: "tournament-games", class: "history" }, ...games) : el("p", {}, "No games yet."),
    backLinks());
  if (!document.activeElement || document.activeElement === document.body) byId("page-title").focus();
}

/** Live standings: a `tournament` message nobody asked for redraws the page showing it. */
export function wireTournaments() {
  listen("tournament", (/** @type {MugginsServer.TournamentInfo} */ msg) => {
    const t = T.table;
    const page = document.getElementById("standings");
    if (t && page && !byId("pages").hidden && msg.summary.tournament === T.showing) draw(t, msg);
  });
}
