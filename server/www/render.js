// @ts-check
// Drawing the page from the session it is given: the front page or the table, the prompt, the
// panels, the log. Called after every message and every choice.

import { byId, el, fill, showIf } from "./dom.js";
import * as moves from "./moves.js";
import { mugginsControls, showPrompt } from "./muggins.js";
import { boardSection, handSection, middleSection, turnPrompt } from "./table.js";
import { fairPanel, gameOverPanel, showPanel, waitingPanel } from "./panels.js";
import { describeOptions } from "./lobby.js";
import { againstComputer, names, pendingShow, say } from "./session.js";
import { askHint, submit, toggle } from "./input.js";
import { renderPages } from "./pages.js";
import { tableModeration } from "./moderation.js";
import { duplicatePanel, tableFacts } from "./duplicate.js";

/** @param {import("./session.js").Table} t @param {string} [focusCard] */
export function render(t, focusCard) {
  const s = t.s;
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const keep = focusCard || active?.dataset?.card;
  const keepId = active?.id;
  const onTable = s.goal.kind !== "lobby" || s.room !== null;
  const paged = renderPages(t, onTable); // (called at a table too: it hides a page left open)
  showIf("front", !onTable && !paged);
  const arriving = onTable && byId("table").hidden;
  showIf("table", onTable);
  if (arriving) byId("prompt").focus(); // from the hidden front page to the table
  showIf("link-status", s.link !== "connected");
  byId("link-status").textContent = s.link === "reconnecting" ? "reconnecting…"
    : s.link === "replaced" ? "This seat was taken up in another tab or on another device; this page has stopped (reload to take it back here)."
      : s.link === "connecting" ? "connecting…" : "";
  if (onTable) renderTable(t);
  if (keep) (/** @type {HTMLElement | null} */ (document.querySelector(`#hand [data-card="${keep}"]`)))?.focus();
  else if (keepId && keepId !== "body") document.getElementById(keepId)?.focus();
  // The control that had the focus went with the move (a played card, Lay away): the focus goes
  // to the next sensible control rather than falling to the page.
  const lost = !document.activeElement || document.activeElement === document.body;
  if (onTable && lost && active && active !== document.body) nextFocus()?.focus();
}

/** @param {import("./session.js").Table} t */
function renderTable(t) {
  const s = t.s;
  const room = s.room;
  const state = s.state;
  const who = names(s);
  const view = state?.view ?? null;
  fill("room-facts", room ? `Room ${room.code} · ${describeOptions(room.options)}` : "",
    view ? ` · game ${view.game_number}, deal ${view.deal_number} · match ${who[0]} ${view.match_points[0]}, ${who[1]} ${view.match_points[1]}` : "",
    room && room.you === null ? " · you are watching" : "",
    room && room.spectators ? ` · ${room.spectators} watching` : "",
    room && room.duplicate_table ? ` · ${tableFacts(room.duplicate_table)}` : "");
  fill("opponent-status", ...opponentStatus(t));
  tableModeration(t);
  // Resign and restart are for a seated player while a match is on: never for a spectator,
  // nor once the match is over.
  const playing = Boolean(room && room.you !== null && room.status === "playing" && view?.phase !== "match_over");
  showIf("resign", playing);
  showIf("restart", playing && !room?.options.rated); // a rated match cannot be restarted
  fill("prompt", s.error ? el("span", { class: "error", role: "alert" }, s.error) : turnPrompt(view, who));
  const waiting = room && room.status === "waiting" && (!view || view.phase === "discard" && !view.hand.length);
  fill("waiting-area", waiting && room ? waitingPanel(room, s.goal.kind === "computer", copy, () => t.link.send({ type: "seat_bot" }), s.publicUrl) : null);
  if (!state || !view) {
    fill("board-area"); fill("middle-area"); fill("hand-area"); fill("actions"); fill("show-area");
    return;
  }
  byId("table").dataset.seq = String(state.seq);
  fill("board-area", boardSection(view, who));
  fill("middle-area", middleSection(view, who, s.calls));
  fill("hand-area", handSection(view, s.selected, (card) => toggle(t, card)));
  fill("actions", ...actionButtons(t, state));
  const show = pendingShow(s);
  // The show's decision comes first (Continue, or the count or the answer in muggins mode),
  // then the hands: so the decision and the hand it is about are on the screen together.
  fill("show-area",
    show && !show.live ? el("button", {
      type: "button", id: "continue", class: "primary",
      onclick: () => { s.showSeen = show.key; t.render(); },
    }, "Continue (Enter)") : null,
    show ? mugginsControls(t.link, state, who) : null,
    show ? showPanel(show.shown, show.dealer, who,
      show.live ? "The show" : `The show of deal ${state.view.last_deal?.deal_number}`) : null);
  const duplicate = s.duplicate && room && s.duplicate.games.some((g) => g.startsWith(`${room.code}-`));
  fill("over-area", duplicate && s.duplicate ? duplicatePanel(s.duplicate) : overPanel(t, view, who));
  const showKey = show ? `${show.key}|${show.shown.length}` : "";
  if (show && showKey !== s.showScrolled) byId("show-area").scrollIntoView({ block: "start" });
  s.showScrolled = showKey;
  fill("fair-area", fairPanel(s.fair));
  const log = byId("log-lines");
  log.replaceChildren(...s.log.slice(-80).map((line) => el("li", {}, line)));
  log.scrollTop = log.scrollHeight;
}

/** @param {import("./session.js").Table} t @param {import("./unpack.js").WholeState} state */
function actionButtons(t, state) {
  const s = t.s;
  const view = state.view;
  const n = moves.need(view);
  /** @type {(HTMLElement | null)[]} */
  const out = [];
  if (n === 2) {
    out.push(el("button", { type: "button", id: "lay-away", class: "primary", disabled: s.selected.length !== 2, onclick: () => submit(t) },
      `Lay away ${s.selected.length}/2 (Enter)`));
  } else if (n === 1) {
    out.push(el("button", { type: "button", id: "play-card", class: "primary", disabled: s.selected.length !== 1, onclick: () => submit(t) },
      "Play (Enter)"));
  }
  if (!pendingShow(s)) out.push(mugginsControls(t.link, state, names(s)));
  // No coach in a muggins show while a count or an answer is pending (the server refuses it there).
  if (againstComputer(s) && view.seat !== null && view.waiting_for.includes(view.seat) && !showPrompt(view)) {
    out.push(el("button", { type: "button", id: "hint", onclick: () => askHint(t), "aria-keyshortcuts": "H" }, "Hint (H)"));
  }
  if (s.hint) out.push(el("p", { class: "hint", id: "hint-text" }, `Coach: ${s.hint}`));
  return out;
}

/** @param {import("./session.js").Table} t @param {MugginsServer.SeatView} view @param {[string, string]} who */
function overPanel(t, view, who) {
  const s = t.s;
  const room = s.room;
  const over = s.gameOver;
  if (!over && view.phase !== "match_over") return null;
  const outcome = over ? over.outcome : view.outcome;
  if (!outcome) return null;
  const matchOver = view.phase === "match_over";
  const buttons = [];
  if (matchOver && room && room.you !== null && !room.options.duplicate) {
    const asked = room.rematch_wanted[room.you];
    buttons.push(el("button", { type: "button", id: "rematch", class: "primary", disabled: asked,
      onclick: () => t.link.send({ type: "rematch" }) }, asked ? "Rematch asked…" : "Rematch"));
  } else if (!matchOver) {
    buttons.push(el("button", { type: "button", id: "next-game", onclick: () => { s.gameOver = null; t.render(); } }, "Next game"));
  }
  if (matchOver && room) {
    const game = `${room.code}-${room.match_number}`;
    buttons.push(el("a", { href: `/#/review/${game}/${room.you ?? 0}`, class: "button", id: "review-link",
      target: "_blank", rel: "noopener" }, "Review the match"));
  }
  buttons.push(el("a", { href: "/", class: "button" }, "Front page"));
  return gameOverPanel(outcome, who, over ? over.match_points : view.match_points, matchOver, buttons);
}

/** @param {import("./session.js").Table} t */
export function opponentStatus(t) {
  const s = t.s;
  const room = s.room;
  if (!room || room.you === null) return [];
  const other = room.seats[1 - room.you];
  /** @type {(HTMLElement | string)[]} */
  const out = [];
  if (other.kind === "empty") out.push("Waiting for an opponent");
  else if (other.kind === "bot") out.push(`Playing ${other.name}`);
  else if (other.connected) out.push(`${other.name} is connected`);
  else {
    const wait = s.claimableAt === null ? null : Math.max(0, Math.ceil((s.claimableAt - Date.now()) / 1000));
    out.push(el("span", { class: "away" }, `⚠ ${other.name} is disconnected`));
    if (wait !== null && wait > 0) out.push(` (you may claim the game in ${wait} s)`);
    if (wait === 0) {
      out.push(" ", el("button", { type: "button", id: "claim-win", onclick: () => t.link.send({ type: "claim", take: "win" }) }, "Claim the game"),
        room.options.rated ? null : " ", // the computer cannot sit in a rated room
        room.options.rated ? null : el("button", { type: "button", id: "claim-bot", onclick: () => t.link.send({ type: "claim", take: "bot" }) }, "Hand the seat to the computer"));
    }
  }
  if (room.restart_proposed_by !== null && room.restart_proposed_by !== undefined && room.restart_proposed_by !== room.you) {
    out.push(" ", el("span", {}, `${names(s)[room.restart_proposed_by]} proposes a restart: `),
      el("button", { type: "button", id: "restart-yes", onclick: () => t.link.send({ type: "answer_restart", accept: true }) }, "Accept"),
      " ", el("button", { type: "button", id: "restart-no", onclick: () => t.link.send({ type: "answer_restart", accept: false }) }, "Decline"));
  }
  return out;
}

/** @param {string} text @param {HTMLElement} button */
function copy(text, button) {
  const done = () => { button.textContent = "Copied"; say("Link copied"); };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => selectInvite());
  else selectInvite();
}

function selectInvite() {
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById("invite-link"));
  input?.select();
  say("Press Ctrl+C to copy the link");
}

/** Where the focus goes when its control is gone: the move now asked for, else the prompt. */
function nextFocus() {
  for (const selector of ["#continue", "#count-input", "#accept-button", "#hand button:not([disabled])",
    "#lay-away:not([disabled])", "#rematch", "#next-game", "#prompt"]) {
    const found = /** @type {HTMLElement | null} */ (document.querySelector(selector));
    if (found && found.offsetParent !== null) return found;
  }
  return null;
}
