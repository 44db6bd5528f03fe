// @ts-check
// Accounts in the browser: sign in, register, sign out (here or everywhere), and the rated queue.
// The session token (never the password) is kept in localStorage under "muggins.session", so
// every tab and every reconnection signs in again with it; it never goes in an address. A guest
// at the table may register from the Account dialog and keeps the seat and the game.

import { byId, el, fill } from "./dom.js";
import { say } from "./session.js";
import { RequestError, listen, request } from "./requests.js";
import { saveName } from "./storage.js";
import { askMyGames } from "./lobby.js";
/** @typedef {import("./session.js").Table} Table */

const SESSION = "muggins.session";

/** What this page knows of its account. */
export const A = {
  /** @type {MugginsServer.Account | null} */ account: null,
  /** A sign-in with the saved session is on its way. */
  resuming: false,
  /** @type {MugginsServer.Seeking | null} the rated queue, while in it */ seeking: null,
  /** When the latest `seeking` arrived (the range widens from there). */
  seekingSince: 0,
  error: "",
  note: "",
};

function loadSession() {
  try {
    return localStorage.getItem(SESSION);
  } catch {
    return null;
  }
}

/** @param {string | null} token */
function keepSession(token) {
  try {
    if (token) localStorage.setItem(SESSION, token);
    else localStorage.removeItem(SESSION);
  } catch {
    /* storage off: sign in again next time */
  }
}

/** Whether this browser keeps an account's session (it signs in after every hello). */
export function hasSession() {
  return Boolean(loadSession());
}

/** "1500 ± 350 RD": the one way a rating is written, the ± being one rating deviation (RD);
 * the terminal's RatingInfo.text writes the same. @param {MugginsServer.RatingInfo} r */
export function ratingFigure(r) {
  return `${Math.round(r.rating)} ± ${Math.round(r.deviation)} RD`;
}

/** "1500 ± 350 RD (provisional)" @param {MugginsServer.RatingInfo} r */
export function ratingText(r) {
  return `${ratingFigure(r)}${r.provisional ? " (provisional)" : ""}`;
}

/** After every hello (a new page, a reconnection, a new name): sign in with the saved session.
 * Sent before anything else the page asks, so the room it creates or joins knows the account.
 * @param {Table} t */
export function signInAgain(t) {
  const session = loadSession();
  if (!session) {
    if (A.account) signedOut(t, "");
    return;
  }
  A.resuming = true;
  refresh(t);
  request(t.link, { type: "sign_in", session }).then((reply) => {
    A.resuming = false;
    if (reply.type === "account") {
      signedIn(t, reply);
      t.render(); // a page that needs the account (moderation) is drawn again
    }
  }, (error) => {
    A.resuming = false;
    if (error instanceof RequestError && error.code === "bad_credentials") {
      keepSession(null);
      signedOut(t, "Your session has ended (signed out elsewhere?): sign in again.");
    } else refresh(t);
  });
}

/** @param {Table} t @param {MugginsServer.Account} account */
function signedIn(t, account) {
  if (account.session) keepSession(account.session);
  A.account = { ...account, session: null };
  A.error = "";
  A.note = "";
  // The server now knows this connection by the account's name: so does the page.
  t.s.name = t.s.sentName = account.name;
  saveName(account.name);
  const nameInput = /** @type {HTMLInputElement} */ (byId("name"));
  nameInput.value = account.name;
  if (t.s.goal.kind === "lobby") askMyGames(t.link);
  refresh(t);
}

/** @param {Table} t @param {string} note */
function signedOut(t, note) {
  A.account = null;
  A.seeking = null;
  A.note = note;
  refresh(t);
}

/** Sign in or register with the form's name and password; the password field is emptied at once.
 * @param {Table} t @param {"sign_in" | "register"} kind */
function submitCredentials(t, kind) {
  const nameInput = /** @type {HTMLInputElement} */ (byId("account-name"));
  const passwordInput = /** @type {HTMLInputElement} */ (byId("account-password"));
  const name = nameInput.value.trim();
  const password = passwordInput.value;
  passwordInput.value = "";
  if (!name || !password) {
    A.error = "Type your name and your password.";
    refresh(t);
    return;
  }
  A.error = "";
  A.note = kind === "register" ? "Registering…" : "Signing in…";
  refresh(t);
  request(t.link, { type: kind, name, password }).then((reply) => {
    if (reply.type !== "account") return;
    signedIn(t, reply);
    say(`Signed in as ${reply.name}`);
    closeDialog();
    t.render();
  }, (error) => {
    A.note = "";
    A.error = error.message;
    say(error.message);
    refresh(t);
    byId("account-password").focus();
  });
}

/** @param {Table} t @param {boolean} everywhere */
function signOut(t, everywhere) {
  request(t.link, { type: "sign_out", everywhere }).then(() => {
    keepSession(null);
    signedOut(t, everywhere ? "Signed out on every device." : "Signed out.");
    say(A.note);
  }, (error) => {
    // Not signed in as far as the server knows: forget the session all the same.
    keepSession(null);
    signedOut(t, error.message);
  });
}

/** @param {Table} t @param {1 | 3} bestOf @param {boolean} peopleOnly @param {boolean} duplicate */
function seek(t, bestOf, peopleOnly, duplicate) {
  request(t.link, { type: "seek", best_of: bestOf, people_only: peopleOnly, duplicate }).then((reply) => {
    if (reply.type === "seeking") queued(t, reply);
  }, (error) => {
    A.error = error.message;
    say(error.message);
    refresh(t);
  });
}

/** Paired (or seated elsewhere): the rated queue is behind us. @param {Table} t */
export function leftQueue(t) {
  if (!A.seeking) return;
  A.seeking = null;
  refresh(t);
}

/** @param {Table} t */
function cancelSeek(t) {
  request(t.link, { type: "cancel_seek" }).then((reply) => {
    if (reply.type === "seeking") queued(t, reply);
  }, () => queued(t, null));
}

/** @param {Table} t @param {MugginsServer.Seeking | null} msg */
function queued(t, msg) {
  A.seeking = msg && msg.active ? msg : null;
  A.seekingSince = Date.now();
  A.error = "";
  if (A.seeking) say("Looking for an opponent for a rated game");
  refresh(t);
}

/** The Account dialog's content: the sign-in form, or who you are and the ways out. @param {Table} t */
function accountPanel(t) {
  const account = A.account;
  const status = [
    A.error ? el("p", { class: "error", role: "alert", id: "account-error" }, A.error) : null,
    A.note ? el("p", { id: "account-note", role: "status" }, A.note) : null,
  ];
  if (account) {
    return [
      el("p", { id: "signed-in-as" }, "Signed in as ", el("strong", {}, account.name),
        ` · rating ${ratingText(account.rating)}`),
      el("p", { class: "buttons" },
        el("a", { href: `#/player/${encodeURIComponent(account.name)}`, class: "button", id: "my-profile", onclick: closeDialog }, "Your profile"),
        " ", el("a", { href: "#/leaderboard", class: "button", onclick: closeDialog }, "Leaderboard")),
      el("p", { class: "buttons" },
        el("button", { type: "button", id: "sign-out", onclick: () => signOut(t, false) }, "Sign out"),
        " ", el("button", { type: "button", id: "sign-out-everywhere", onclick: () => signOut(t, true) }, "Sign out everywhere")),
      ...status,
      managePanel(t, account),
    ];
  }
  const form = el("form", { id: "sign-in-form", class: "account-form" },
    el("p", {}, "An account keeps your name here, with a rating, your record and your finished games. Playing as a guest needs none; registering mid-game keeps the game."),
    el("label", { for: "account-name" }, "Name"),
    el("input", { id: "account-name", autocomplete: "username", maxlength: 24, value: t.s.name }),
    el("label", { for: "account-password" }, "Password"),
    el("input", { id: "account-password", type: "password", autocomplete: "current-password", maxlength: 200 }),
    el("p", { class: "buttons" },
      el("button", { type: "submit", class: "primary", id: "sign-in" }, "Sign in"),
      " ", el("button", { type: "button", id: "register", onclick: () => submitCredentials(t, "register") }, "Register")),
    el("p", { class: "small" }, "A new password needs at least 8 characters. Only a session token is kept in this browser, never the password."),
    ...status);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    submitCredentials(t, "sign_in");
  });
  return [form];
}

/** Change the password (every other session ends) or delete the account (twice asked).
 * @param {Table} t @param {MugginsServer.Account} account */
function managePanel(t, account) {
  const change = el("form", { id: "change-password-form", class: "account-form" },
    el("label", { for: "old-password" }, "Current password"),
    el("input", { id: "old-password", type: "password", autocomplete: "current-password", maxlength: 200 }),
    el("label", { for: "new-password" }, "New password (8 characters or more)"),
    el("input", { id: "new-password", type: "password", autocomplete: "new-password", maxlength: 200 }),
    el("p", {}, el("button", { type: "submit", id: "change-password" }, "Change the password")));
  change.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const old = /** @type {HTMLInputElement} */ (byId("old-password"));
    const fresh = /** @type {HTMLInputElement} */ (byId("new-password"));
    const message = { type: /** @type {const} */ ("change_password"), old: old.value, new: fresh.value };
    old.value = fresh.value = "";
    request(t.link, message).then((reply) => {
      if (reply.type !== "account") return;
      signedIn(t, reply);
      A.note = "Password changed: every other session has ended.";
      say(A.note);
      refresh(t);
    }, (error) => {
      A.error = error.message;
      say(error.message);
      refresh(t);
    });
  });
  const remove = el("form", { id: "delete-form", class: "account-form" },
    el("label", { for: "delete-password" }, "Password, to delete the account"),
    el("input", { id: "delete-password", type: "password", autocomplete: "current-password", maxlength: 200 }),
    el("p", {}, el("button", { type: "submit", id: "delete-account" }, `Delete ${account.name}…`)));
  remove.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const button = byId("delete-account");
    if (!button.dataset.sure) {
      button.dataset.sure = "yes";
      button.textContent = `Really delete ${account.name}, its rating and its record? Press again`;
      return;
    }
    const input = /** @type {HTMLInputElement} */ (byId("delete-password"));
    const password = input.value;
    input.value = "";
    request(t.link, { type: "delete_account", password }).then(() => {
      keepSession(null);
      signedOut(t, `The account ${account.name} is deleted; the name is free.`);
      say(A.note);
    }, (error) => {
      A.error = error.message;
      say(error.message);
      refresh(t);
    });
  });
  return el("details", { id: "account-manage" },
    el("summary", {}, "Change the password, or delete the account"), change, remove);
}

/** The front page's rated play box. @param {Table} t */
function ratedPanel(t) {
  const account = A.account;
  if (!account) {
    return [el("p", {}, A.resuming ? "Signing in…" : "Rated games are for signed-in players: sign in or register (Sign in, at the top)."),
      el("p", {}, el("a", { href: "#/leaderboard", id: "leaderboard-link" }, "Leaderboard"))];
  }
  const seeking = A.seeking;
  if (seeking) {
    return [
      el("p", { id: "seeking", role: "status" }, `Looking for an opponent (${seeking.best_of === 3 ? "best of three" : "one game"})… `,
        el("span", { id: "seek-range" }, seekRange())),
      el("button", { type: "button", id: "cancel-seek", onclick: () => cancelSeek(t) }, "Cancel"),
    ];
  }
  const length = el("select", { id: "rated-length" },
    el("option", { value: "1" }, "One game"), el("option", { value: "3" }, "Best of three"));
  const people = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "people-only" }));
  const duplicate = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "duplicate" }));
  return [
    el("p", {}, `You: ${account.name}, rated ${ratingText(account.rating)}. `,
      el("a", { href: `#/player/${encodeURIComponent(account.name)}` }, "Your profile"), " · ",
      el("a", { href: "#/leaderboard", id: "leaderboard-link" }, "Leaderboard")),
    el("p", { class: "small" }, "Counted automatically (no muggins), 30 s a move plus a 180 s bank; the computer cannot sit."),
    el("label", { for: "rated-length" }, "Length"), " ", length, " ",
    people, " ", el("label", { for: "people-only" }, "People only (no bot accounts)"), " ",
    duplicate, " ", el("label", { for: "duplicate" }, "Duplicate (two tables, the same cards, seats swapped)"), " ",
    el("button", { type: "button", class: "primary", id: "seek",
      onclick: () => seek(t, /** @type {HTMLSelectElement} */ (length).value === "3" ? 3 : 1, people.checked, duplicate.checked) }, "Play a rated game"),
    A.error ? el("p", { class: "error", role: "alert" }, A.error) : null,
  ];
}

function seekRange() {
  const seeking = A.seeking;
  if (!seeking || seeking.range === null || seeking.range === undefined) return "";
  const range = Math.round(seeking.range + 10 * (Date.now() - A.seekingSince) / 1000);
  return `Ratings within ${range} of ${Math.round(seeking.rating ?? 1500)}.`;
}

function closeDialog() {
  const dialog = /** @type {HTMLDialogElement} */ (byId("account-dialog"));
  if (dialog.open) dialog.close();
}

/** Redraw everything of the account: the header button, the dialog, the rated box. Called on
 * account news only (never on a game's redraw), so a password being typed is left alone.
 * @param {Table} t */
export function refresh(t) {
  const account = A.account;
  byId("account-button").textContent = account ? `${account.name} (account)` : A.resuming ? "Signing in…" : "Sign in";
  const nameInput = /** @type {HTMLInputElement} */ (byId("name"));
  nameInput.readOnly = Boolean(account);
  nameInput.title = account ? "You are signed in: your account's name is used" : "";
  const typed = /** @type {HTMLInputElement | null} */ (document.getElementById("account-name"))?.value;
  const focused = document.activeElement?.id;
  fill("account-area", ...accountPanel(t));
  const again = /** @type {HTMLInputElement | null} */ (document.getElementById("account-name"));
  if (again && typed) again.value = typed;
  if (focused) document.getElementById(focused)?.focus();
  fill("rated-area", ...ratedPanel(t));
}

/** @param {Table} t */
export function wireAccount(t) {
  byId("account-button").addEventListener("click", () => {
    refresh(t);
    const dialog = /** @type {HTMLDialogElement} */ (byId("account-dialog"));
    dialog.showModal();
    (document.getElementById("account-name") ?? document.getElementById("sign-out"))?.focus();
  });
  listen("seeking", (msg) => queued(t, msg));
  listen("signed_out", () => { keepSession(null); signedOut(t, "Signed out."); });
  refresh(t);
  window.setInterval(() => {
    const range = document.getElementById("seek-range");
    if (range && A.seeking) range.textContent = seekRange();
  }, 1000);
}
