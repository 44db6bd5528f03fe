// @ts-check
// What this page knows: the goal (where the player wants to be), the room, the latest state, the
// log and calls, the deal checks. Shared by the modules that take in messages (app.js), draw
// (render.js) and act (input.js); `hooks` gives them the link and the redraw without cycles.

import { byId } from "./dom.js";
import { speakable } from "./cards.js";
import { loadName } from "./storage.js";

const PEGGED = /** @type {Record<string, string>} */ ({
  go: "one for the go", last_card: "one for last card", heels: "two for his heels",
});

const route = location.pathname.match(/^\/(r|w)\/([A-Za-z]{4,12})\/?$/);
export const S = {
  /** @type {{kind: "lobby" | "join" | "spectate" | "computer" | "invite", code: string, level?: string, options?: MugginsClient.RoomOptions}} */
  goal: route
    ? { kind: route[1] === "w" ? "spectate" : "join", code: route[2].toUpperCase() }
    : { kind: "lobby", code: "" },
  name: loadName(),
  /** @type {string[]} */ levels: [],
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
  wasMyTurn: false,
  /** The latest resume token the server gave this tab (it may change on every resume). */
  token: "",
  /** The name the server knows us by, and the one we sent. */
  helloName: "",
  sentName: "",
  /** @type {(() => void) | null} a request to send once the next welcome arrives */
  after: null,
};


export const hooks = {
  /** @type {import("./net.js").Link} */ link: /** @type {any} */ (null),
  /** @type {(focusCard?: string) => void} */ render: () => {},
};

/** @param {string} text */
export function say(text) {
  byId("announce").textContent = speakable(text);
}

/** @param {string} text */
export function logLine(text) {
  S.log.push(text);
  if (S.log.length > 300) S.log.splice(0, S.log.length - 300);
}

export function names() {
  const room = S.room;
  /** @type {[string, string]} */
  const both = [room?.seats[0].name || "Seat 1", room?.seats[1].name || "Seat 2"];
  return both;
}

/** @param {MugginsServer.EventLine} msg */
export function event(msg) {
  const e = msg.event;
  logLine(msg.text);
  S.pending.push(msg.text);
  const who = names();
  const me = S.room?.you;
  /** @param {number} seat */
  const name = (seat) => (seat === me ? "You" : who[seat]);
  if (e.type === "deal_started") {
    S.calls = [];
    S.seen.add(e.commitment);
  } else if (e.type === "card_played") S.calls.push(["card", `${name(e.seat)}: ${e.spoken}`]);
  else if (e.type === "go") S.calls.push(["go", `${name(e.seat)}: go`]);
  else if (e.type === "scored" && PEGGED[e.reason]) S.calls.push([e.reason, `${name(e.seat)}: ${PEGGED[e.reason]}`]);
  else if (e.type === "count_reset") S.calls.push(["reset", "The count starts again"]);
}

/** The deal shown at the end, until the player goes on. */
export function pendingShow() {
  const view = S.state?.view;
  if (!view) return null;
  if (view.show.length) return { shown: view.show, dealer: view.dealer, key: "", live: true };
  const last = view.last_deal;
  if (!last || !last.show.length) return null;
  const key = `${view.game_number}.${last.deal_number}.${last.reveal.commitment}`;
  if (S.showSeen === key) return null;
  return { shown: last.show, dealer: last.dealer, key, live: false };
}

export function againstComputer() {
  const room = S.room;
  return Boolean(room && room.you !== null && room.seats[1 - room.you].kind === "bot");
}
