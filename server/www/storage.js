// @ts-check
// What the browser keeps, in localStorage: the name, and a resume token per room. So a closed tab
// or a restarted browser comes back to its seat by the room's link or the front page's "Your
// games"; a token never goes in the URL. (Two tabs opening one room's link share its seat: the
// newer one takes it, and the older is told so.)

const NAME = "muggins.name";

/** @returns {string} */
export function loadName() {
  try {
    return localStorage.getItem(NAME) || "";
  } catch {
    return "";
  }
}

/** @param {string} name */
export function saveName(name) {
  try {
    localStorage.setItem(NAME, name);
  } catch {
    /* private mode: the name is asked again next time */
  }
}

/** @param {string} room */
const tokenKey = (room) => `muggins.token.${room.toUpperCase()}`;

/** @param {string} room @returns {string | null} */
export function loadToken(room) {
  try {
    return localStorage.getItem(tokenKey(room)) ?? sessionStorage.getItem(tokenKey(room));
  } catch {
    return null;
  }
}

/** A new token each time the server gives one (it may change it on every resume).
 * @param {string} room @param {string} token */
export function saveToken(room, token) {
  try {
    localStorage.setItem(tokenKey(room), token);
  } catch {
    /* storage off: a reload starts as a new player */
  }
}

/** @param {string} room */
export function forgetToken(room) {
  try {
    localStorage.removeItem(tokenKey(room));
    sessionStorage.removeItem(tokenKey(room));
  } catch {
    /* nothing kept */
  }
}

/** Every room's token this browser keeps (the latest 20), for the front page's "Your games".
 * @returns {string[]} */
export function storedTokens() {
  try {
    /** @type {string[]} */
    const found = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      const token = key && key.startsWith("muggins.token.") ? localStorage.getItem(key) : null;
      if (token) found.push(token);
    }
    return found.slice(-20);
  } catch {
    return [];
  }
}
