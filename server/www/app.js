// @ts-check
// The browser client: one connection to the server this page came from, the front page at "/",
// the table at /r/CODE (seated if a seat is free, else watching) and /w/CODE (watching).
// Everything on the table is drawn from the latest `state` view; events feed the log, the calls
// and the screen reader's live region. This module owns the socket and the session: it takes in
// the server's messages and hands the session to the modules that draw and act.

import { byId, el, fill } from "./dom.js";
import { Link } from "./net.js";
import { forgetToken, loadToken, saveName, saveToken } from "./storage.js";
import { checkDeal } from "./fair.js";
import { turnPrompt } from "./table.js";
import { askMyGames, askRooms, describeOptions, fillLevels, showMyGames, showRooms } from "./lobby.js";
import { event, logLine, names, newSession, say } from "./session.js";
import { opponentStatus, render } from "./render.js";
import { wire } from "./input.js";
import { answer, listen } from "./requests.js";
import { reportButton, sanctioned } from "./moderation.js";
import { hasSession, leftQueue, signInAgain, wireAccount } from "./account.js";
import { wirePages } from "./pages.js";
import { startClock } from "./clock.js";
import { whole } from "./unpack.js";
import { tellStory } from "./story.js";
import { noteTurn, sound, wireFeel } from "./feel.js";
import { loadTournaments, wireTournaments } from "./tournaments.js";

const S = newSession();
const link = new Link(receive, (state) => {
  S.link = state;
  if (state === "reconnecting") say("Connection lost: reconnecting…");
  if (state === "replaced") say("This seat was taken up in another tab or on another device.");
  redraw();
}, () => {
  const token = S.goal.code ? loadToken(S.goal.code) : null;
  S.sentName = S.name;
  return { type: "hello", name: S.name || "Guest", protocol: 4, ...(token ? { token } : {}) };
}, () => S.goal.code || "");

/** @type {Map<number, number>} how often each unconfirmed message was sent again */
const retries = new Map();

/** What the drawing and acting modules are given. @type {import("./session.js").Table} */
const table = { s: S, link, render: (focusCard) => render(table, focusCard) };
const redraw = () => table.render();

/** @param {MugginsServer.Message} msg */
function receive(msg) {
  if (answer(msg)) return; // accounts, records, the rated queue: requests.js and account.js
  switch (msg.type) {
    case "welcome": return welcome(msg);
    case "room": return enterRoom(msg);
    case "rooms": return showRooms(msg, (after) => askRooms(link, after));
    case "games": return showMyGames(msg);
    case "story": return tellStory(S, msg, addChat, redraw);
    case "state": return newState(whole(msg));
    case "chat":
      logLine(S, `💬 ${msg.sender}${msg.seat === null ? " (watching)" : ""}: ${msg.text}`);
      addChat(msg);
      say(`${msg.sender} says: ${msg.text}`);
      return;
    case "notice":
      logLine(S, msg.text);
      say(msg.text);
      break;
    case "error":
      if (msg.code === "room_full" && S.goal.kind === "join") {
        S.goal = { kind: "spectate", code: S.goal.code };
        link.send({ type: "spectate", code: S.goal.code });
        return;
      }
      if (msg.code === "no_room" && !S.room && S.goal.kind !== "lobby") {
        // A wrong or finished room's link: home, saying so, rather than an empty table.
        const code = S.goal.code;
        S.goal = { kind: "lobby", code: "" };
        history.replaceState(null, "", "/");
        byId("join-error").textContent = `There is no room ${code}: it may have ended, or the code is mistyped.`;
        say(byId("join-error").textContent);
        askRooms(link, null);
        askMyGames(link);
        redraw();
        return;
      }
      if (msg.code === "bad_token") {
        // The server no longer knows this room's token (the room closed, or it expired): forget
        // it and say hello afresh.
        if (S.goal.code) forgetToken(S.goal.code);
        link.restart();
        return;
      }
      if (msg.code === "unconfirmed" && typeof msg.id === "number") {
        // The store did not say whether the move was saved: the same id and seq learn it (a
        // retry is answered once and never applied twice). A few tries, then tell the player.
        const id = msg.id;
        const tries = (retries.get(id) ?? 0) + 1;
        retries.set(id, tries);
        if (tries <= 5) {
          say("Checking that your move was saved…");
          window.setTimeout(() => link.resend(id), 300 * tries);
          return;
        }
      }
      if (msg.code === "stale") {
        // The current state came just before this error and is already drawn: move again on it.
        S.error = "The game had moved on: your move answered an earlier state. Look again and move.";
        say(S.error);
        break;
      }
      S.error = msg.message;
      say(msg.message);
      break;
    case "left":
      location.assign("/");
      return;
    case "hint":
      takeHint(msg);
      break;
    case "duplicate_result":
      S.duplicate = msg;
      logLine(S, msg.text);
      say(msg.text);
      break;
    default:
      return;
  }
  redraw();
}

/** @param {MugginsServer.Welcome} msg */
function welcome(msg) {
  S.levels = [...msg.levels];
  S.publicUrl = msg.public_url ?? "";
  fillLevels(S.levels);
  S.token = msg.token;
  S.helloName = msg.name;
  signInAgain(table); // before anything else is asked, so rooms know the account
  if (S.after) {
    const request = S.after;
    S.after = null;
    request();
    return redraw();
  }
  const code = msg.resumed && msg.room ? msg.room : S.goal.code;
  if (code) saveToken(code, msg.token);
  if (msg.resumed && msg.room) {
    if (msg.room !== S.goal.code) goTo(msg.room, "join");
    return redraw();
  }
  const goal = S.goal;
  if (goal.kind === "join" && !S.name && !hasSession()) return askName(); // arrived by a link
  if (goal.kind === "join") link.send({ type: "join_room", code: goal.code });
  else if (goal.kind === "spectate") link.send({ type: "spectate", code: goal.code });
  else {
    askRooms(link, null);
    askMyGames(link);
  }
  loadTournaments(table);
  redraw();
}

/** Someone who arrived by a link without a name: ask it (remembered), then say hello with it. */
function askName() {
  const dialog = /** @type {HTMLDialogElement} */ (byId("name-dialog"));
  const input = /** @type {HTMLInputElement} */ (byId("arrival-name"));
  if (dialog.open) return;
  dialog.showModal();
  input.focus();
  byId("name-form").onsubmit = () => {
    S.name = input.value.trim().slice(0, 64) || "Guest";
    saveName(S.name);
    forgetToken(S.goal.code); // the seatless player said hello as Guest: start anew as S.name
    link.restart();
  };
}

/** Put the room in the address bar without reloading. @param {string} code @param {"join" | "spectate"} kind */
function goTo(code, kind) {
  const path = `/${kind === "spectate" ? "w" : "r"}/${code}`;
  if (location.pathname !== path) history.replaceState(null, "", path);
  S.goal = { ...S.goal, kind: S.goal.kind === "computer" ? "computer" : kind, code };
}

/** @param {MugginsServer.Room} room */
function enterRoom(room) {
  const first = !S.room || S.room.code !== room.code;
  if (first && S.room) {
    // Another room (a duplicate match's second table): its seqs start again.
    S.state = null;
    S.gameOver = null;
    S.selected = [];
  }
  S.room = room;
  if (room.you !== null) leftQueue(table); // seated: no longer "looking for an opponent"
  if (first) {
    logLine(S, `Room ${room.code} (${describeOptions(room.options)})`);
    goTo(room.code, room.you === null ? "spectate" : "join");
  }
  // The token now holds a seat (or a watcher's place) in this room: keep it under its code.
  if (S.token) saveToken(room.code, S.token);
  S.claimableAt = null;
  if (room.you !== null) {
    const wait = room.seats[1 - room.you].claimable_in;
    if (wait !== null && wait !== undefined) S.claimableAt = Date.now() + wait * 1000;
  }
  if (S.goal.kind === "computer" && room.you !== null && room.status === "waiting"
      && room.seats[1 - room.you].kind === "empty") {
    link.send({ type: "seat_bot", level: S.goal.level ?? null });
  }
  redraw();
}

/** @param {import("./unpack.js").WholeState} msg */
function newState(msg) {
  if (S.state && msg.seq < S.state.seq) return;
  for (const line of msg.events ?? []) event(S, line);
  if (msg.game_over) S.gameOver = msg.game_over; // its sentence came with the game_over event
  const view = msg.view;
  const before = S.state?.view;
  const previousSeq = S.state?.seq;
  S.state = msg;
  S.stateAt = Date.now();
  if (!before || before.deal_number !== view.deal_number || before.phase !== view.phase) S.selected = [];
  if (msg.seq !== previousSeq) S.hint = "";
  S.selected = S.selected.filter((c) => view.hand.includes(c));
  if (view.seat !== null && view.phase === "discard" && view.hand.length === 6) {
    if (!S.dealt.has(view.commitment)) S.dealt.set(view.commitment, [...view.hand]);
  }
  if (view.phase === "discard" && view.hand_counts[0] + view.hand_counts[1] === 12) S.seen.add(view.commitment);
  if (view.phase !== "match_over" && view.phase !== "game_over" && S.gameOver && S.gameOver.match_over) S.gameOver = null;
  if (msg.id !== null) S.error = "";
  const reveal = view.last_deal?.reveal;
  if (reveal && !S.checked.has(reveal.commitment)) {
    S.checked.add(reveal.commitment);
    checkDeal(reveal, S.seen, S.dealt.get(reveal.commitment), view.seat).then((result) => {
      S.fair = S.fair.filter((r) => r.reveal.commitment !== result.reveal.commitment);
      S.fair.push(result);
      logLine(S, result.sentence);
      if (!result.ok) byId("alert").textContent = result.sentence;
      redraw();
    });
  }
  const mine = view.seat !== null && view.waiting_for.includes(view.seat);
  const lines = S.pending.splice(0);
  if (mine && (!S.wasMyTurn || lines.length)) lines.push(turnPrompt(view, names(S)));
  S.wasMyTurn = mine;
  noteTurn(mine, turnPrompt(view, names(S)));
  if ((msg.events ?? []).some((line) => line.event.type === "card_played" && line.event.seat !== view.seat)) sound("card");
  if (lines.length) say(lines); // the show's parts and then the prompt, each said on its own
  redraw();
}

/** @param {MugginsServer.ChatLine} msg */
function addChat(msg) {
  const list = byId("chat-lines");
  const mine = S.room && S.room.you !== null && S.room.seats[S.room.you]?.name === msg.sender;
  const watching = msg.seat === null ? el("span", { class: "watching-tag" }, " (watching)") : null;
  list.appendChild(el("li", {}, el("strong", {}, msg.sender), watching, `: ${msg.text}`,
    ...(msg.line && S.room && !mine ? [" ", reportButton(table, msg.sender, { room: S.room.code, line: msg.line }, "Report")] : [])));
  while (list.children.length > 100) list.firstElementChild?.remove();
  list.scrollTop = list.scrollHeight;
}

/** The coach's move: its cards are chosen for you, with its reason. @param {MugginsServer.Hint} msg */
function takeHint(msg) {
  const move = msg.move;
  if (move.type === "discard") S.selected = [...move.cards];
  else if (move.type === "play") S.selected = [move.card];
  S.hint = msg.text;
  say(`Hint: ${msg.text}`);
}

wire(table);
wireFeel();
wireAccount(table);
wirePages(table);
listen("sanctioned", sanctioned);
wireTournaments();
startClock(S);
redraw();
link.open();
// Leaving by a link or the Back button keeps the page in the back/forward cache: close the socket
// as it goes (the opponent sees it and the grace period runs), and resume when it comes back.
window.addEventListener("pagehide", () => link.sleep());
window.addEventListener("pageshow", (event) => { if (event.persisted) link.wake(); });
let shownWait = -1;
window.setInterval(() => {
  // The countdown to the claim, redrawn only when its number changes (so a click on the claim
  // buttons is never lost to a redraw).
  if (S.claimableAt === null || !S.room) return;
  const wait = Math.max(0, Math.ceil((S.claimableAt - Date.now()) / 1000));
  if (wait !== shownWait) fill("opponent-status", ...opponentStatus(table));
  shownWait = wait;
}, 250);
