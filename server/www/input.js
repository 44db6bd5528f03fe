// @ts-check
// What the player does: cards chosen by click, tap or keys, moves sent, the forms of the front
// page, chat, resign / restart / leave behind a confirmation, and the keys of the terminal client.

import { byId } from "./dom.js";
import { saveName } from "./storage.js";
import * as moves from "./moves.js";
import { mugginsKey } from "./muggins.js";
import { askRooms, chosenOptions } from "./lobby.js";
import { againstComputer, names, pendingShow, say } from "./session.js";

/** @typedef {import("./session.js").Table} Table */

/** @param {Table} t */
export function askHint(t) {
  const s = t.s;
  if (againstComputer(s) && s.state && s.state.view.seat !== null
      && s.state.view.waiting_for.includes(s.state.view.seat)) t.link.send({ type: "hint" });
}

/** Choose or unchoose a card (a second click on a chosen card plays it).
 * @param {Table} t @param {string} card @param {boolean} [byKey] keys leave the focus where it is */
export function toggle(t, card, byKey = false) {
  const s = t.s;
  const view = s.state?.view;
  if (!view || !s.state) return;
  const n = moves.need(view);
  if (s.selected.includes(card)) {
    if (n === 1) return submit(t);
    s.selected = s.selected.filter((c) => c !== card);
  } else {
    s.selected = n === 1 ? [card] : [...s.selected, card].slice(-n);
  }
  t.render(byKey ? undefined : card);
}

/** @param {Table} t */
export function submit(t) {
  const s = t.s;
  const state = s.state;
  if (!state) return;
  const n = moves.need(state.view);
  if (n === 2 && s.selected.length === 2) moves.discard(t.link, state, s.selected);
  else if (n === 1 && s.selected.length === 1) moves.play(t.link, state, s.selected[0]);
  else if (n) {
    s.error = n === 2 ? "Choose two cards to lay away" : "Choose a card to play";
    say(s.error);
    t.render();
  }
}

/** @param {string} question @param {() => void} yes */
function confirmThen(question, yes) {
  const dialog = /** @type {HTMLDialogElement} */ (byId("confirm"));
  byId("confirm-text").textContent = question;
  const ok = byId("confirm-yes");
  const fresh = ok.cloneNode(true);
  ok.replaceWith(fresh);
  fresh.addEventListener("click", () => { dialog.close(); yes(); });
  dialog.showModal();
}

/** @param {Table} t */
export function wire(t) {
  const s = t.s;
  const nameInput = /** @type {HTMLInputElement} */ (byId("name"));
  nameInput.value = s.name;
  nameInput.addEventListener("input", () => {
    s.name = nameInput.value.trim().slice(0, 64);
    saveName(s.name);
  });
  const ensureName = () => {
    s.name = nameInput.value.trim().slice(0, 64) || "Guest";
    saveName(s.name);
  };
  byId("play-computer").addEventListener("submit", (ev) => {
    ev.preventDefault();
    ensureName();
    const level = /** @type {HTMLSelectElement} */ (byId("level")).value;
    s.goal = { kind: "computer", code: "", level, options: chosenOptions("cpu") };
    asPlayer(t, { type: "create_room", options: chosenOptions("cpu") });
  });
  byId("invite").addEventListener("submit", (ev) => {
    ev.preventDefault();
    ensureName();
    s.goal = { kind: "invite", code: "" };
    asPlayer(t, { type: "create_room", options: chosenOptions("friend") });
  });
  byId("join").addEventListener("submit", (ev) => {
    ev.preventDefault();
    ensureName();
    const code = /** @type {HTMLInputElement} */ (byId("join-code")).value.trim().toUpperCase();
    if (/^[A-Z]{4,12}$/.test(code)) location.assign(`/r/${code}`);
    else { byId("join-error").textContent = "A room code is six letters, like KXPWTR"; }
  });
  byId("refresh-rooms").addEventListener("click", () => askRooms(t.link, null));
  byId("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = /** @type {HTMLInputElement} */ (byId("chat-input"));
    const text = input.value.trim();
    if (text && t.link.send({ type: "chat", text: text.slice(0, 300) }) !== null) input.value = "";
  });
  byId("resign").addEventListener("click", () => s.state && confirmThen("Resign this game?", () => s.state && moves.resign(t.link, s.state)));
  byId("restart").addEventListener("click", () => confirmThen("Propose a new match with new deals?", () => t.link.send({ type: "propose_restart" })));
  byId("leave").addEventListener("click", () => confirmThen("Leave the table?", () => {
    if (t.link.send({ type: "leave" }) === null) location.assign("/");
  }));
  byId("help-button").addEventListener("click", () => (/** @type {HTMLDialogElement} */ (byId("help"))).showModal());
  document.addEventListener("keydown", (ev) => onKey(t, ev));
}

/** Send a request under the name just typed: a new hello first if the server knows another.
 * @param {Table} t @param {MugginsClient.Message} request */
function asPlayer(t, request) {
  const s = t.s;
  if (s.link === "connected" && s.sentName === s.name) {
    t.link.send(request);
    return;
  }
  s.after = () => t.link.send(request);
  t.link.restart();
}

/** @param {Table} t @param {KeyboardEvent} ev */
function onKey(t, ev) {
  const s = t.s;
  const target = /** @type {HTMLElement} */ (ev.target);
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const state = s.state;
  if (ev.key === "?" || ev.key === "F1") {
    ev.preventDefault();
    (/** @type {HTMLDialogElement} */ (byId("help"))).showModal();
    return;
  }
  if (!state) return;
  const key = ev.key.toLowerCase();
  if (/^[1-6]$/.test(key) && moves.need(state.view)) {
    const card = state.view.hand[Number(key) - 1];
    if (card) toggle(t, card, true);
    ev.preventDefault();
  } else if (key === "enter" && target.closest("#hand") && s.selected.length === moves.need(state.view)) {
    submit(t); // Enter on a card with the choice complete lays away (or plays), as in the terminal
    ev.preventDefault();
  } else if (key === "enter" && target.tagName !== "BUTTON" && target.tagName !== "A") {
    const show = pendingShow(s);
    if (show && !show.live) { s.showSeen = show.key; t.render(); } else submit(t);
    ev.preventDefault();
  } else if (key === "h") {
    askHint(t);
    ev.preventDefault();
  } else if (key === "s") {
    say(scoresSentence(s));
    ev.preventDefault();
  } else if (mugginsKey(t.link, state, key)) {
    ev.preventDefault();
  }
}

/** The S key: both scores, the count, and whose move it is, in one sentence.
 * @param {import("./session.js").Session} s */
export function scoresSentence(s) {
  const view = s.state?.view;
  if (!view) return "No game yet";
  const who = names(s);
  const me = view.seat;
  const name = (/** @type {number} */ seat) => (seat === me ? "You" : who[seat]);
  const scores = [0, 1].map((seat) => `${name(seat)} ${view.scores[seat]}`).join(", ");
  const waiting = view.waiting_for.map((seat) => (seat === me ? "your" : `${who[seat]}'s`));
  const turn = waiting.length ? `${waiting.join(" and ")} move` : "nobody's move";
  const count = view.phase === "play" ? `, the count is ${view.count}` : "";
  return `${scores} (to ${view.options.target ?? 121})${count}; ${turn}`;
}
