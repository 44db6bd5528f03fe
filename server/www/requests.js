// @ts-check
// Requests that wait for their answer: accounts, profiles, history, the leaderboard, a finished
// game, the rated queue. Each is sent with an id; the message carrying that id back (its answer
// or an error) settles it. Account messages that arrive unasked go to the listeners by type.

/** @typedef {MugginsServer.Account | MugginsServer.SignedOut | MugginsServer.Profile | MugginsServer.History
 *   | MugginsServer.Leaderboard | MugginsServer.GameRecord | MugginsServer.Seeking
 *   | MugginsServer.GameReview | MugginsServer.Tournaments | MugginsServer.TournamentInfo
 *   | MugginsServer.ModerationView | MugginsServer.Moderated | MugginsServer.Sanctioned} AccountAnswer */

const ACCOUNT_TYPES = new Set(["account", "signed_out", "profile", "history", "leaderboard", "game", "seeking", "game_review",
  "tournaments", "tournament", "moderation", "moderated", "sanctioned"]);
/** How long an answer may take before the request is given up. */
const PATIENCE_MS = 15000;

/** A refusal from the server, or no answer: `code` is the protocol's error code (or "no_answer"). */
export class RequestError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** @type {Map<number, {resolve: (msg: AccountAnswer) => void, reject: (error: RequestError) => void, timer: number}>} */
const pending = new Map();
/** @type {Map<string, (msg: any) => void>} */
const listeners = new Map();

/**
 * Send a request; the promise gives its answer, or fails with a RequestError.
 * @param {import("./net.js").Link} link @param {MugginsClient.Message} message
 * @returns {Promise<AccountAnswer>}
 */
export function request(link, message) {
  return new Promise((resolve, reject) => {
    const id = link.send(message);
    if (id === null) {
      reject(new RequestError("no_answer", "Not connected to the server just now; try again in a moment."));
      return;
    }
    const timer = window.setTimeout(() => {
      pending.delete(id);
      reject(new RequestError("no_answer", "The server did not answer; try again."));
    }, PATIENCE_MS);
    pending.set(id, { resolve, reject, timer });
  });
}

/** Take in a server message if it answers a request here (or is an account message at all).
 * @param {MugginsServer.Message} msg @returns {boolean} whether it was taken */
export function answer(msg) {
  const id = typeof msg.id === "number" ? msg.id : null;
  const waiting = id === null ? undefined : pending.get(id);
  if (waiting && id !== null) {
    pending.delete(id);
    window.clearTimeout(waiting.timer);
    if (msg.type === "error") waiting.reject(new RequestError(msg.code, msg.message));
    else waiting.resolve(/** @type {AccountAnswer} */ (msg));
    return true;
  }
  if (msg.type && ACCOUNT_TYPES.has(msg.type)) {
    listeners.get(msg.type)?.(msg);
    return true;
  }
  return false;
}

/** Be told of account messages of this type that no request here waits for.
 * @param {string} type @param {(msg: any) => void} listener */
export function listen(type, listener) {
  listeners.set(type, listener);
}
