// @ts-check
// Whole views from `state` messages (protocol 4). A brief state's view leaves out the parts the
// step cannot have changed: options, commitment, cut_for_deal and last_deal within a deal, and
// the parts its phase cannot change within a phase. This keeps the latest view of the
// connection, completed, and takes every part left out from it.

/** @typedef {MugginsServer.State & {view: MugginsServer.SeatView}} WholeState */

/** @type {MugginsServer.SeatView | null} */
let last = null;

/**
 * The state with a whole view: a brief one completed from the previous view.
 * @param {MugginsServer.State} msg
 * @returns {WholeState}
 */
export function whole(msg) {
  if (!msg.brief) {
    last = /** @type {MugginsServer.SeatView} */ (msg.view);
    return /** @type {WholeState} */ (msg);
  }
  if (!last) throw new Error(`state ${msg.seq} is brief, and no whole state came before it`);
  last = /** @type {MugginsServer.SeatView} */ ({ ...last, ...msg.view });
  return { ...msg, brief: false, view: last };
}
