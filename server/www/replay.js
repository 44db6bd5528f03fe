// @ts-check
// #/game/ID: a finished match step by step, as the server replayed it with the rules engine.
// The match is over, so every hand, discard and crib is face up; the server gives finished
// matches only. First / Back / Next / Last, a slider, and the arrow keys move through it.

import { byId, el, fill } from "./dom.js";
import { say } from "./session.js";
import { request } from "./requests.js";
import { pegboard } from "./board.js";
import { faceUp } from "./table.js";
import { showPanel } from "./panels.js";
import { describeOptions } from "./lobby.js";
import { backLinks, playerLink } from "./links.js";
import { pageTurn } from "./shown.js";

const R = {
  /** @type {MugginsServer.GameRecord | null} */ record: null,
  at: 0,
};

/** @param {import("./net.js").Link} link @param {string} id */
export async function replayPage(link, id) {
  R.record = null;
  fill("page-body", el("p", {}, `Loading game ${id}…`));
  const turn = pageTurn();
  let record;
  try {
    record = await request(link, { type: "game", game: id, steps: true });
  } catch (error) {
    if (turn !== pageTurn()) return;
    fill("page-body", el("h2", { id: "page-title", tabindex: "-1" }, `Game ${id}`),
      el("p", { class: "error", role: "alert" }, error instanceof Error ? error.message : String(error)), backLinks());
    byId("page-title").focus();
    return;
  }
  if (turn !== pageTurn() || record.type !== "game") return;
  R.record = record;
  R.at = 0;
  const steps = record.steps ?? [];
  const names = holders(record, steps.length - 1);
  const result = record.winner === null || record.winner === undefined
    ? `Ended: ${record.result ?? "unfinished"}`
    : `${names[record.winner]} won the match`;
  const player = (/** @type {number} */ seat) => names[seat] === record.names[seat]
    ? playerLink(names[seat])
    : el("span", {}, names[seat], " (took over from ", playerLink(record.names[seat]), ")");
  const slider = el("input", {
    type: "range", id: "replay-slider", min: 0, max: Math.max(0, steps.length - 1), value: 0,
    "aria-label": "Step", oninput: (/** @type {Event} */ ev) => go(Number(/** @type {HTMLInputElement} */ (ev.target).value)),
  });
  fill("page-body",
    el("h2", { id: "page-title", tabindex: "-1" }, `Game ${record.game}: `, player(0), " v ", player(1)),
    el("p", { id: "replay-facts" }, `${result} · ${describeOptions({ game: record.options, private: false })}`,
      record.finished ? ` · ${new Date(record.finished * 1000).toLocaleString()}` : "",
      " · every card face up: the match is over"),
    el("div", { class: "replay-controls", role: "group", "aria-label": "Move through the game" },
      el("button", { type: "button", id: "replay-first", onclick: () => go(0) }, "« First"),
      el("button", { type: "button", id: "replay-prev", onclick: () => go(R.at - 1), "aria-keyshortcuts": "ArrowLeft" }, "◀ Back"),
      el("button", { type: "button", id: "replay-next", class: "primary", onclick: () => go(R.at + 1), "aria-keyshortcuts": "ArrowRight" }, "Next ▶"),
      el("button", { type: "button", id: "replay-last", onclick: () => go(steps.length - 1) }, "Last »"),
      slider),
    el("div", { id: "replay-step" }),
    backLinks());
  draw();
  byId("page-title").focus();
}

/**
 * Who held each seat at step ``index`` of the replay: the names the match began with, then each
 * hand-over (the computer taking a seat) from the first action its new holder made. A step
 * with a seat is an action; one without (a new deal, a hand-over) comes between actions.
 * @param {MugginsServer.GameRecord} record @param {number} index
 * @returns {[string, string]}
 */
function holders(record, index) {
  const steps = record.steps ?? [];
  let actions = 0;
  for (let i = 0; i <= index && i < steps.length; i++) if (steps[i].seat !== null && steps[i].seat !== undefined) actions++;
  const step = steps[index];
  const action = step && step.seat !== null && step.seat !== undefined ? actions - 1 : actions;
  /** @type {[string, string]} */
  const held = [record.names[0], record.names[1]];
  for (const h of record.hand_overs ?? []) if (h.at <= action) held[h.seat] = h.after;
  return held;
}

/** @param {number} at */
function go(at) {
  const steps = R.record?.steps ?? [];
  if (!steps.length) return;
  R.at = Math.max(0, Math.min(steps.length - 1, at));
  draw();
  say((steps[R.at].texts ?? []).join(". ") || `Step ${R.at + 1}`);
}

function draw() {
  const record = R.record;
  const area = document.getElementById("replay-step");
  if (!record || !area) return;
  const steps = record.steps ?? [];
  const who = holders(record, R.at);
  const step = steps[R.at];
  const slider = /** @type {HTMLInputElement | null} */ (document.getElementById("replay-slider"));
  if (slider) slider.value = String(R.at);
  (/** @type {HTMLButtonElement} */ (byId("replay-prev"))).disabled = R.at === 0;
  (/** @type {HTMLButtonElement} */ (byId("replay-first"))).disabled = R.at === 0;
  (/** @type {HTMLButtonElement} */ (byId("replay-next"))).disabled = R.at >= steps.length - 1;
  (/** @type {HTMLButtonElement} */ (byId("replay-last"))).disabled = R.at >= steps.length - 1;
  if (!step) {
    fill("replay-step", el("p", {}, "This game has no steps to show."));
    return;
  }
  const before = R.at > 0 && steps[R.at - 1].game_number === step.game_number ? steps[R.at - 1].scores : [0, 0];
  /** @type {[number, number]} */
  const previous = [before[0], before[1]];
  const target = record.options.target ?? 121;
  const cards = (/** @type {string[]} */ list) => list.length ? el("span", { class: "cards" }, ...list.map((c) => faceUp(c))) : el("span", {}, "none");
  const crib = [...step.discards[step.dealer], ...step.discards[1 - step.dealer]];
  fill("replay-step",
    el("p", { id: "replay-where", class: "facts" },
      `Step ${R.at + 1} of ${steps.length} · game ${step.game_number}, deal ${step.deal_number} · ${who[step.dealer]} deals`),
    el("section", { class: "board", "aria-label": "Pegboard and scores" },
      pegboard(target, step.scores, previous, who),
      el("div", { class: "scoreline", id: "replay-scores" }, ...[0, 1].map((seat) =>
        el("span", { class: `score seat${seat}`, "data-seat": seat, "data-score": step.scores[seat] },
          el("span", { class: "who" }, who[seat]), " ", el("strong", { class: "points" }, String(step.scores[seat])))))),
    el("ol", { class: "calls replay-texts", id: "replay-texts", "aria-label": "What happened" },
      ...(step.texts.length ? step.texts : ["(nothing new)"]).map((t) => el("li", {}, t))),
    el("section", { class: "middle replay-table", "aria-label": "The table, every card face up" },
      ...[0, 1].map((seat) => el("div", { class: "opponent", "data-seat": seat, id: `replay-hand-${seat}` },
        el("span", { class: "label" }, `${who[seat]}'s hand`), " ", cards(step.hands[seat]))),
      el("div", { class: "row" },
        el("div", { class: "crib", id: "replay-crib" }, el("span", { class: "label" }, `Crib (${who[step.dealer]})`), " ", cards(crib)),
        el("div", { class: "starter" }, el("span", { class: "label" }, "Starter"), " ",
          step.starter ? faceUp(step.starter) : el("span", {}, "not cut yet"))),
      step.pile.length || step.count
        ? el("div", { class: "pegging" }, el("div", { class: "count" }, "Count ", el("strong", {}, String(step.count))),
          el("div", { class: "pile" }, ...step.pile.map((p) => faceUp(p.card, `by${p.seat}`))))
        : null),
    step.show.length ? showPanel(step.show, step.dealer, who, `The show of deal ${step.deal_number}`) : null);
}

document.addEventListener("keydown", (ev) => {
  if (!R.record || byId("pages").hidden) return;
  const target = /** @type {HTMLElement} */ (ev.target);
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (ev.key === "ArrowRight") { go(R.at + 1); ev.preventDefault(); }
  else if (ev.key === "ArrowLeft") { go(R.at - 1); ev.preventDefault(); }
});
