// @ts-check
// Muggins mode in the show (Hoyle's rule): the owner claims any count from 0 to 29; the claim is
// on the table for both players (and watchers) until the opponent answers it: accept it, call
// "Muggins!" (the claim is short: take the points missed) or challenge it (the claim is over: the
// owner is put back and the challenger takes the excess). A wrong call gives the owner 2 points.
// Nothing here computes a hand's total: the server tells it with the answer.

import { el } from "./dom.js";
import { legalOf, sendMove } from "./moves.js";

/** What a wrong call costs (protocol: the owner's `wrong_call` points). */
export const WRONG_CALL_PENALTY = 2;

/** "count" when you must count your cards, "answer" to answer the opponent's claim, else "".
 * @param {MugginsServer.SeatView | null} view */
export function showPrompt(view) {
  if (!view) return "";
  if (legalOf(view, "count").length) return "count";
  if (legalOf(view, "accept").length) return "answer";
  return "";
}

/** The shown hand whose claim waits for its answer, if any. @param {MugginsServer.ShowResult[]} shown */
export function pendingClaim(shown) {
  const last = shown[shown.length - 1];
  if (last && (last.total === null || last.total === undefined) && last.claimed !== null && last.claimed !== undefined) {
    return last;
  }
  return null;
}

/** "Bob counts 12 for the crib" / "You count 12 for your hand".
 * @param {MugginsServer.ShowResult} shown @param {string[]} names @param {number | null} you */
export function claimSentence(shown, names, you) {
  if (shown.seat === you) return `You count ${shown.claimed} for your ${shown.kind}`;
  return `${names[shown.seat] || "Your opponent"} counts ${shown.claimed} for the ${shown.kind}`;
}

/** How a settled hand was answered, or "" outside muggins mode.
 * @param {MugginsServer.ShowResult} s @param {string[]} names */
export function settlement(s, names) {
  if (s.claimed === null || s.claimed === undefined || !s.answer) return "";
  const owner = names[s.seat] || "The owner";
  const other = names[1 - s.seat] || "The opponent";
  const taken = s.taken ?? 0;
  const penalty = s.penalty ?? 0;
  let said = `Counted ${s.claimed}`;
  if (s.answer === "accept") said += `: ${other} accepted`;
  else if (s.answer === "muggins") {
    said += penalty ? `: ${other} called Muggins! wrongly, ${owner} gets ${penalty}`
      : `: muggins! ${other} took ${taken}`;
  } else {
    said += penalty ? `: ${other} challenged wrongly, ${owner} gets ${penalty}`
      : `: challenged! ${owner} was put back and ${other} took ${taken}`;
  }
  return said;
}

/** @param {string} key @param {string} label @param {string} what @param {() => void} onclick @param {boolean} [primary] */
function answerButton(key, label, what, onclick, primary = false) {
  return el("button", {
    id: `${label === "Muggins!" ? "muggins" : label.toLowerCase()}-button`, type: "button",
    class: primary ? "primary" : "", "aria-keyshortcuts": key, title: what, onclick,
  }, `${label} (${key})`);
}

/**
 * The controls for this moment of the show, the pending claim for those who wait, or null.
 * @param {import("./net.js").Link} link
 * @param {import("./unpack.js").WholeState} state
 * @param {string[]} names
 */
export function mugginsControls(link, state, names) {
  const view = state.view;
  const prompt = showPrompt(view);
  const shown = view.show[view.show.length - 1];
  if (prompt === "count" && shown) {
    const what = shown.kind === "crib" ? "your crib" : "your hand";
    const input = /** @type {HTMLInputElement} */ (
      el("input", {
        id: "count-input", type: "number", min: 0, max: 29, step: 1, inputmode: "numeric",
        "aria-label": `Points in ${what}`, required: true,
      })
    );
    const form = el(
      "form", { class: "muggins", id: "count-form" },
      el("label", { for: "count-input" }, `Count ${what}: how many points (0-29)? `),
      input,
      el("button", { type: "submit", class: "primary" }, "Claim"),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const points = Number(input.value);
      if (input.value.trim() === "" || !Number.isInteger(points) || points < 0 || points > 29) {
        input.setCustomValidity("A count is a whole number from 0 to 29");
        input.reportValidity();
        return;
      }
      sendMove(link, state, { type: "count", points });
    });
    return form;
  }
  const claim = pendingClaim(view.show);
  if (!claim) return null;
  const said = claimSentence(claim, names, view.seat);
  if (prompt === "answer") {
    const owner = names[claim.seat] || "your opponent";
    return el(
      "div", { class: "muggins", id: "answer", role: "group", "aria-label": "Answer the count" },
      el("p", { class: "claim" }, `${said}. Accept it, call Muggins! if it is short, or challenge it if it is over.`),
      answerButton("A", "Accept", `${claim.claimed} stands as counted`,
        () => sendMove(link, state, { type: "accept" }), true),
      " ",
      answerButton("M", "Muggins!", "it is short: you take the points missed",
        () => sendMove(link, state, { type: "muggins" })),
      " ",
      answerButton("X", "Challenge", `it is over: ${owner} is put back and you take the excess`,
        () => sendMove(link, state, { type: "challenge" })),
      el("p", { class: "penalty" }, `A wrong call gives ${owner} ${WRONG_CALL_PENALTY} points.`),
    );
  }
  const answerer = names[1 - claim.seat] || "the opponent";
  return el("div", { class: "muggins", id: "claim-pending" },
    el("p", { class: "claim" }, `${said}; waiting for ${answerer} to accept, call Muggins! or challenge.`));
}

/** Keys A, M and X. @param {import("./net.js").Link} link @param {import("./unpack.js").WholeState} state @param {string} key */
export function mugginsKey(link, state, key) {
  if (showPrompt(state.view) !== "answer") return false;
  /** @type {Record<string, import("./moves.js").Move>} */
  const answers = { a: { type: "accept" }, m: { type: "muggins" }, x: { type: "challenge" } };
  const answer = answers[key];
  if (!answer || !legalOf(state.view, answer.type || "").length) return false;
  sendMove(link, state, answer);
  return true;
}
