// @ts-check
// The front page: your name, play the computer, invite a friend, join by code, open rooms.

import { byId, el, fill } from "./dom.js";
import { storedTokens } from "./storage.js";

/** "to 121, muggins" @param {MugginsServer.RoomOptions | MugginsClient.RoomOptions} options */
export function describeOptions(options) {
  const game = options.game || {};
  const bits = [`to ${game.target ?? 121}`];
  if (game.muggins) bits.push("muggins");
  if ((game.match_to ?? 1) > 1) bits.push(`match to ${game.match_to}`);
  if (options.private) bits.push("private");
  if (options.turn_timer) bits.push(`${options.turn_timer} s a move`);
  if (options.turn_timer && options.turn_bank) bits.push(`${options.turn_bank} s bank`);
  if ("rated" in options && options.rated) bits.push("rated");
  return bits.join(", ");
}

/** The levels in the level picker, strongest selected. @param {string[]} levels */
export function fillLevels(levels) {
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("level"));
  if (!select || !levels.length) return;
  const current = select.value;
  select.replaceChildren(...levels.map((level) => el("option", { value: level }, level)));
  select.value = levels.includes(current) ? current : levels[levels.length - 1];
}

/** @type {MugginsServer.RoomSummary[]} the rooms listed so far (the pages asked for) */
let listed = [];
/** @type {string | null} the page asked for last: null for the first */
let asked = null;

/** Rooms asked for at a time: a screenful, the rest behind "More rooms". */
export const ROOMS_PAGE = 20;

/** Ask for the first page of public rooms (after: null) or the page after another.
 * @param {import("./net.js").Link} link @param {string | null} after */
export function askRooms(link, after) {
  asked = after;
  link.send(after === null ? { type: "list_rooms", limit: ROOMS_PAGE }
    : { type: "list_rooms", after, limit: ROOMS_PAGE });
}

/** The list of public rooms, a page at a time: "More rooms" asks for the next page.
 * @param {MugginsServer.Rooms} rooms @param {(after: string) => void} more */
export function showRooms(rooms, more) {
  listed = asked === null ? [...rooms.rooms] : [...listed, ...rooms.rooms];
  if (!listed.length) {
    fill("rooms", el("p", {}, "No open rooms just now."));
    return;
  }
  const total = rooms.total ?? listed.length;
  const next = rooms.next;
  fill("rooms",
    el("p", { id: "rooms-count" }, `${listed.length} of ${total} room${total === 1 ? "" : "s"}`),
    el("ul", { class: "room-list" }, ...listed.map((room) => {
      const names = room.names.filter((n) => n).join(" and ") || "nobody yet";
      return el("li", { "data-room": room.code },
        el("span", { class: "mono" }, room.code), ` ${names} (${describeOptions(room.options)}) `,
        room.open_seat
          ? el("a", { href: `/r/${room.code}`, class: "button", "aria-label": `Join room ${room.code}` }, "Join")
          : el("a", { href: `/w/${room.code}`, class: "button", "aria-label": `Watch room ${room.code}` }, "Watch"));
    })),
    next ? el("button", { type: "button", id: "more-rooms", onclick: () => more(next) }, "More rooms") : null);
}

/** The game options chosen in a form. @param {string} prefix "cpu" or "friend" */
export function chosenOptions(prefix) {
  const target = /** @type {HTMLSelectElement} */ (document.getElementById(`${prefix}-target`));
  const muggins = /** @type {HTMLInputElement} */ (document.getElementById(`${prefix}-muggins`));
  const hidden = /** @type {HTMLInputElement | null} */ (document.getElementById(`${prefix}-private`));
  const clock = /** @type {HTMLSelectElement | null} */ (document.getElementById(`${prefix}-clock`));
  const bank = /** @type {HTMLSelectElement | null} */ (document.getElementById(`${prefix}-bank`));
  /** @type {MugginsClient.RoomOptions} */
  const options = {
    game: { target: target.value === "61" ? 61 : 121, muggins: muggins.checked },
    private: prefix === "cpu" ? true : Boolean(hidden && hidden.checked),
  };
  if (clock && clock.value) {
    options.turn_timer = Number(clock.value);
    // A bank is time beyond the move's own: it needs a clock.
    if (bank && bank.value) options.turn_bank = Number(bank.value);
  }
  return options;
}

/** Ask for this player's games in progress: the account's, and those this browser's tokens hold.
 * @param {import("./net.js").Link} link */
export function askMyGames(link) {
  link.send({ type: "my_games", tokens: storedTokens() });
}

/** "Your games": each game in progress with the opponent, the score and whose move, one click
 * away. @param {MugginsServer.Games} answer */
export function showMyGames(answer) {
  const box = byId("my-games-box");
  box.hidden = answer.games.length === 0;
  fill("my-games", el("ul", { class: "room-list" }, ...answer.games.map((game) => {
    const me = game.scores[game.seat];
    const them = game.scores[1 - game.seat];
    const against = game.opponent ? `against ${game.opponent}` : "waiting for an opponent";
    const turn = game.status === "waiting" ? "" : game.your_move ? " · your move" : " · their move";
    return el("li", { "data-room": game.room, class: game.your_move ? "yours" : "" },
      el("span", { class: "mono" }, game.room), ` ${against}${game.rated ? " (rated)" : ""}: `,
      el("strong", {}, `${me}–${them}`), turn, " ",
      el("a", { href: `/r/${game.room}`, class: "button", "aria-label": `Go back to room ${game.room}` }, "Go back"));
  })));
}
