// @ts-check
// Every game move this client sends goes through here: the moves are the entries of view.legal,
// already in message form, so a move is a legal entry sent with the seq of the state it answers
// (protocol 2: the server applies it only at that seq and answers an older one with "stale").

/**
 * A game move as the page builds it; sendMove adds the seq.
 * @typedef {Omit<MugginsClient.DiscardCards, "seq"> | Omit<MugginsClient.PlayCard, "seq">
 *   | Omit<MugginsClient.CountPoints, "seq"> | Omit<MugginsClient.CallMuggins, "seq">
 *   | Omit<MugginsClient.AcceptCount, "seq"> | Omit<MugginsClient.ChallengeCount, "seq">
 *   | Omit<MugginsClient.ResignGame, "seq">} Move
 */

/**
 * @param {import("./net.js").Link} link
 * @param {MugginsServer.State} state the state the move answers
 * @param {Move} move
 */
export function sendMove(link, state, move) {
  return link.send(/** @type {MugginsClient.Message} */ ({ ...move, seq: state.seq }));
}

/** The legal entries of one kind. @param {MugginsServer.SeatView} view @param {string} type */
export function legalOf(view, type) {
  return view.legal.filter((action) => action.type === type);
}

/** How many cards to choose now: 2 to lay away, 1 to play, else 0. @param {MugginsServer.SeatView | null} view */
export function need(view) {
  if (!view) return 0;
  if (legalOf(view, "discard").length) return 2;
  if (legalOf(view, "play").length) return 1;
  return 0;
}

/** Cards in hand that can be played now. @param {MugginsServer.SeatView} view */
export function playable(view) {
  return new Set(legalOf(view, "play").map((a) => /** @type {MugginsServer.Play} */ (a).card));
}

/** @param {import("./net.js").Link} link @param {MugginsServer.State} state @param {string[]} cards */
export function discard(link, state, cards) {
  return sendMove(link, state, { type: "discard", cards });
}

/** @param {import("./net.js").Link} link @param {MugginsServer.State} state @param {string} card */
export function play(link, state, card) {
  return sendMove(link, state, { type: "play", card });
}

/** @param {import("./net.js").Link} link @param {MugginsServer.State} state */
export function resign(link, state) {
  return sendMove(link, state, { type: "resign" });
}
