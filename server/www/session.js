// @ts-check
// What this page knows: the goal (where the player wants to be), the room, the latest state, the
// log and calls, the deal checks. One `Session` is made by the module that owns the socket
// (app.js) and kept there; the modules that draw (render.js) and act (input.js, account.js,
// pages.js) are handed a `Table`: the session, the link, and the redraw.

import { byId } from "./dom.js";
import { speakable } from "./cards.js";
import { loadName } from "./storage.js";

const PEGGED = /** @type {Record<string, string>} */ ({
  go: "one for the go", last_card: "one for last card", heels: "two for his heels",
});

/** A new page's session: its goal read from the address. */
export function newSession() {
  const route = location.pathname.match(/^\/(r|w)\/([A-Za-z]{4,12})\/?$/);
  return {
    /** @type {{kind: "lobby" | "join" | "spectate" | "computer" | "invite", code: string, level?: string, options?: MugginsClient.RoomOptions}} */
    goal: route
      ? { kind: route[1] === "w" ? "spectate" : "join", code: route[2].toUpperCase() }
      : { kind: "lobby", code: "" },
    name: loadName(),
    /** @type {string[]} */ levels: [],
    /** The address the server says others reach it at (its --public-url); "": none given. */
    publicUrl: "",
    /** @type {MugginsServer.Room | null} */ room: null,
    /** @type {import("./unpack.js").WholeState | null} */ state: null,
    /** @type {string[]} */ log: [],
    /** @type {[string, string][]} kind and words of each call this deal */ calls: [],
    /** @type {string[]} */ selected: [],
    error: "",
    /** @type {import("./net.js").LinkState} */ link: "connecting",
    /** @type {import("./fair.js").FairResult[]} */ fair: [],
    /** @type {Map<string, string[]>} */ dealt: new Map(),
    /** @type {Set<string>} */ seen: new Set(),
    /** @type {Set<string>} */ checked: new Set(),
    showSeen: "",
    showScrolled: "",
    /** @type {MugginsServer.ServerGameOver | null} */ gameOver: null,
    /** The coach's latest reason, until the next state. */
    hint: "",
    /** @type {string[]} */ pending: [],
    claimableAt: /** @type {number | null} */ (null),
    /** When (Date.now()) the latest state arrived: its turn clock counts down from then. */
    stateAt: 0,
    wasMyTurn: false,
    /** The latest resume token the server gave this tab (it may change on every resume). */
    token: "",
    /** The name the server knows us by, and the one we sent. */
    helloName: "",
    sentName: "",
    /** @type {(() => void) | null} a request to send once the next welcome arrives */
    after: null,
    /** @type {MugginsServer.DuplicateResult | null} the latest duplicate match's result */
    duplicate: null,
  };
}

/** @typedef {ReturnType<typeof newSession>} Session */

/** What the drawing and acting modules are handed: the session, the link to the server, and the
 * redraw (with the card to keep focus on).
 * @typedef {{s: Session, link: import("./net.js").Link, render: (focusCard?: string) => void}} Table */

/** Say a sentence in the live region; several sentences at once are said one by one (each its
 * own addition to the region, so one is not cut off by the next). @param {string | string[]} text */
export function say(text) {
  const region = byId("announce");
  const lines = Array.isArray(text) ? text : [text];
  region.replaceChildren(...lines.map((line) => {
    const p = document.createElement("p");
    p.textContent = speakable(line);
    return p;
  }));
}

/** @param {Session} s @param {string} text */
export function logLine(s, text) {
  s.log.push(text);
  if (s.log.length > 300) s.log.splice(0, s.log.length - 300);
}

/** @param {Session} s */
export function names(s) {
  const room = s.room;
  /** @type {[string, string]} */
  const both = [room?.seats[0].name || "Seat 1", room?.seats[1].name || "Seat 2"];
  return both;
}

/** @param {Session} s @param {MugginsServer.EventLine} msg */
export function event(s, msg) {
  const e = msg.event;
  logLine(s, msg.text);
  s.pending.push(msg.text);
  const who = names(s);
  const me = s.room?.you;
  /** @param {number} seat */
  const name = (seat) => (seat === me ? "You" : who[seat]);
  if (e.type === "deal_started") {
    s.calls = [];
    s.seen.add(e.commitment);
  } else if (e.type === "card_played") s.calls.push(["card", `${name(e.seat)}: ${e.spoken}`]);
  else if (e.type === "go") s.calls.push(["go", `${name(e.seat)}: go`]);
  else if (e.type === "scored" && PEGGED[e.reason]) s.calls.push([e.reason, `${name(e.seat)}: ${PEGGED[e.reason]}`]);
  else if (e.type === "count_reset") s.calls.push(["reset", "The count starts again"]);
}

/** The deal shown at the end, until the player goes on. @param {Session} s */
export function pendingShow(s) {
  const view = s.state?.view;
  if (!view) return null;
  if (view.show.length) return { shown: view.show, dealer: view.dealer, key: "", live: true };
  const last = view.last_deal;
  if (!last || !last.show.length) return null;
  const key = `${view.game_number}.${last.deal_number}.${last.reveal.commitment}`;
  if (s.showSeen === key) return null;
  return { shown: last.show, dealer: last.dealer, key, live: false };
}

/** @param {Session} s */
export function againstComputer(s) {
  const room = s.room;
  return Boolean(room && room.you !== null && room.seats[1 - room.you].kind === "bot");
}
