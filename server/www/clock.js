// @ts-check
// The turn clock of a rated room (or any room with a turn timer), shown at the table as a
// countdown: the move's own seconds, then the player's bank (`room.bank`, as the server last
// told it). The server keeps the real clock and moves for a player whose time is spent; this is
// what the players see of it, restarted whenever a new state arrives.

import { el, fill } from "./dom.js";
import { names } from "./session.js";

const C = {
  /** The seq whose clock is running, and since when. */
  seq: -1,
  since: 0,
  shown: "",
};

/** Seconds as "1:05" or "23 s". @param {number} s */
function clockText(s) {
  const whole = Math.max(0, Math.ceil(s));
  return whole >= 60 ? `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}` : `${whole} s`;
}

/** What the clock shows now, or null when this room has none. @param {import("./session.js").Session} s */
export function clockLine(s) {
  const room = s.room;
  const state = s.state;
  const perMove = room?.options.turn_timer;
  if (!room || !state || !perMove || room.status !== "playing") return null;
  const view = state.view;
  if (state.seq !== C.seq) {
    C.seq = state.seq;
    C.since = Date.now();
  }
  const waiting = view.waiting_for;
  if (!waiting.length) return null;
  const spent = (Date.now() - C.since) / 1000;
  const who = names(s);
  const parts = waiting.map((seat) => {
    const bank = room.bank ? room.bank[seat] : 0;
    const move = perMove - spent;
    // A casual room's clock has no bank: the move's own seconds only.
    const left = !room.bank ? clockText(move) : move > 0 ? `${clockText(move)} + bank ${clockText(bank)}` : `bank ${clockText(bank + move)}`;
    const low = move + bank < 10;
    return { text: `${seat === room.you ? "Your move" : who[seat]}: ${left}`, low };
  });
  return parts;
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
