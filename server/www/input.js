// @ts-check
// What the player does: cards chosen by click, tap or keys, moves sent, the forms of the front
// page, chat, resign / restart / leave behind a confirmation, and the keys of the terminal client.

import { byId } from "./dom.js";
import { saveName } from "./storage.js";
import * as moves from "./moves.js";
import { mugginsKey } from "./muggins.js";
import { askRooms, chosenOptions } from "./lobby.js";
import { S, againstComputer, hooks, pendingShow, say } from "./session.js";

export function askHint() {
  if (againstComputer() && S.state && S.state.view.seat !== null
      && S.state.view.waiting_for.includes(S.state.view.seat)) hooks.link.send({ type: "hint" });
}

/** Choose or unchoose a card (a second click on a chosen card plays it).
 * @param {string} card @param {boolean} [byKey] keys leave the focus where it is */
export function toggle(card, byKey = false) {
  const view = S.state?.view;
  if (!view || !S.state) return;
  const n = moves.need(view);
  if (S.selected.includes(card)) {
    if (n === 1) return submit();
    S.selected = S.selected.filter((c) => c !== card);
  } else {
    S.selected = n === 1 ? [card] : [...S.selected, card].slice(-n);
  }
  hooks.render(byKey ? undefined : card);
}

export function submit() {
  const state = S.state;
  if (!state) return;
  const n = moves.need(state.view);
  if (n === 2 && S.selected.length === 2) moves.discard(hooks.link, state, S.selected);
  else if (n === 1 && S.selected.length === 1) moves.play(hooks.link, state, S.selected[0]);
  else if (n) {
    S.error = n === 2 ? "Choose two cards to lay away" : "Choose a card to play";
    say(S.error);
    hooks.render();
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

export function wire() {
  const nameInput = /** @type {HTMLInputElement} */ (byId("name"));
  nameInput.value = S.name;
  nameInput.addEventListener("input", () => {
    S.name = nameInput.value.trim().slice(0, 64);
    saveName(S.name);
  });
  const ensureName = () => {
    S.name = nameInput.value.trim().slice(0, 64) || "Guest";
    saveName(S.name);
  };
  byId("play-computer").addEventListener("submit", (ev) => {
    ev.preventDefault();
    ensureName();
    const level = /** @type {HTMLSelectElement} */ (byId("level")).value;
    S.goal = { kind: "computer", code: "", level, options: chosenOptions("cpu") };
    asPlayer({ type: "create_room", options: chosenOptions("cpu") });
  });
  byId("invite").addEventListener("submit", (ev) => {
    ev.preventDefault();
    ensureName();
    S.goal = { kind: "invite", code: "" };
    asPlayer({ type: "create_room", options: chosenOptions("friend") });
  });
  byId("join").addEventListener("submit", (ev) => {
    ev.preventDefault();
    ensureName();
    const code = /** @type {HTMLInputElement} */ (byId("join-code")).value.trim().toUpperCase();
    if (/^[A-Z]{4,12}$/.test(code)) location.assign(`/r/${code}`);
    else { byId("join-error").textContent = "A room code is six letters, like KXPWTR"; }
  });
  byId("refresh-rooms").addEventListener("click", () => askRooms(hooks.link, null));
  byId("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = /** @type {HTMLInputElement} */ (byId("chat-input"));
    const text = input.value.trim();
    if (text && hooks.link.send({ type: "chat", text: text.slice(0, 300) }) !== null) input.value = "";
  });
  byId("resign").addEventListener("click", () => S.state && confirmThen("Resign this game?", () => S.state && moves.resign(hooks.link, S.state)));
  byId("restart").addEventListener("click", () => confirmThen("Propose a new match with new deals?", () => hooks.link.send({ type: "propose_restart" })));
  byId("leave").addEventListener("click", () => confirmThen("Leave the table?", () => {
    if (hooks.link.send({ type: "leave" }) === null) location.assign("/");
  }));
  byId("help-button").addEventListener("click", () => (/** @type {HTMLDialogElement} */ (byId("help"))).showModal());
  document.addEventListener("keydown", onKey);
}

/** Send a request under the name just typed: a new hello first if the server knows another.
 * @param {MugginsClient.Message} request */
function asPlayer(request) {
  if (S.link === "connected" && S.sentName === S.name) {
    hooks.link.send(request);
    return;
  }
  S.after = () => hooks.link.send(request);
  hooks.link.restart();
}

/** @param {KeyboardEvent} ev */
function onKey(ev) {
  const target = /** @type {HTMLElement} */ (ev.target);
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const state = S.state;
  if (ev.key === "?" || ev.key === "F1") {
    ev.preventDefault();
    (/** @type {HTMLDialogElement} */ (byId("help"))).showModal();
    return;
  }
  if (!state) return;
  const key = ev.key.toLowerCase();
  if (/^[1-6]$/.test(key) && moves.need(state.view)) {
    const card = state.view.hand[Number(key) - 1];
    if (card) toggle(card, true);
    ev.preventDefault();
  } else if (key === "enter" && target.closest("#hand") && S.selected.length === moves.need(state.view)) {
    submit(); // Enter on a card with the choice complete lays away (or plays), as in the terminal
    ev.preventDefault();
  } else if (key === "enter" && target.tagName !== "BUTTON" && target.tagName !== "A") {
    const show = pendingShow();
    if (show && !show.live) { S.showSeen = show.key; hooks.render(); } else submit();
    ev.preventDefault();
  } else if (key === "h") {
    askHint();
    ev.preventDefault();
  } else if (mugginsKey(hooks.link, state, key)) {
    ev.preventDefault();
  }
}
