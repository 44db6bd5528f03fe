// @ts-check
// Whole views from `state` messages (protocol 3). After a deal's first state the server sends
// brief views: they leave out what cannot change until the next deal (options, commitment,
// cut_for_deal, last_deal). This keeps the latest whole view of the connection and fills them in.

/** @typedef {MugginsServer.State & {view: MugginsServer.SeatView}} WholeState */

/** @type {MugginsServer.SeatView | null} */
let last = null;

/**
 * The state with a whole view: a brief one completed from the latest whole view.
 * @param {MugginsServer.State} msg
 * @returns {WholeState}
 */
export function whole(msg) {
  if (!msg.brief) {
    last = /** @type {MugginsServer.SeatView} */ (msg.view);
    return /** @type {WholeState} */ (msg);
  }
  if (!last) throw new Error(`state ${msg.seq} is brief, and no whole state came before it`);
  const { options, commitment, cut_for_deal, last_deal } = last;
  return { ...msg, brief: false, view: { ...msg.view, options, commitment, cut_for_deal, last_deal } };
}
