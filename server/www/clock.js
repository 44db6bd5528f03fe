// @ts-check
// The turn clock of a room with a turn timer (rated, or a casual room that sets one), shown at
// the table as a countdown: the move's own seconds, then the player's bank if the room has one.
// The server keeps the real clock and moves for a player whose time is spent. Each state says
// what each waited-for seat has left as it was sent (`state.clock`); this counts down from that,
// from when the state arrived, so both players see the same figures (within the network's delay).

import { el, fill } from "./dom.js";
import { names } from "./session.js";

const C = { shown: "" };

/** Seconds as "1:05" or "23 s". @param {number} s */
function clockText(s) {
  const whole = Math.max(0, Math.ceil(s));
  return whole >= 60 ? `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}` : `${whole} s`;
}

/**
 * What a seat's clock shows `spent` seconds after its state arrived.
 * @param {MugginsServer.SeatClock} left as the state said
 * @param {number} spent seconds since
 * @param {boolean} banked whether the room has a bank
 */
export function seatClockText(left, spent, banked) {
  const move = left.move - spent;
  if (!banked) return { text: clockText(move), low: move < 10 };
  const bank = left.bank + Math.min(0, move);
  const text = move > 0 ? `${clockText(move)} + bank ${clockText(bank)}` : `bank ${clockText(bank)}`;
  return { text, low: Math.max(0, move) + bank < 10 };
}

/** What the clock shows now, or null when this room has none. @param {import("./session.js").Session} s */
export function clockLine(s) {
  const room = s.room;
  const state = s.state;
  if (!room || !state || !room.options.turn_timer || room.status !== "playing") return null;
  const clock = state.clock;
  if (!clock) return null;
  const spent = (Date.now() - s.stateAt) / 1000;
  const who = names(s);
  const banked = Boolean(room.bank);
  /** @type {{text: string, low: boolean}[]} */
  const parts = [];
  clock.forEach((left, seat) => {
    if (!left) return;
    const shown = seatClockText(left, spent, banked);
    parts.push({ text: `${seat === room.you ? "Your move" : who[seat]}: ${shown.text}`, low: shown.low });
  });
  return parts.length ? parts : null;
}

/** @param {import("./session.js").Session} s */
function tick(s) {
  const parts = clockLine(s);
  const node = document.getElementById("clock");
  if (!node) return;
  const text = parts ? parts.map((p) => p.text).join(" · ") : "";
  if (text === C.shown) return;
  C.shown = text;
  node.hidden = !parts;
  if (!parts) {
    fill("clock");
    return;
  }
  fill("clock", el("span", { class: "label" }, "Clock: "),
    ...parts.map((p, i) => el("span", { class: p.low ? "low" : "", "data-i": i }, i ? ` · ${p.text}` : p.text)));
}

/** @param {import("./session.js").Session} s */
export function startClock(s) {
  window.setInterval(() => tick(s), 250);
}
