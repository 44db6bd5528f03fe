// @ts-check
// What the browser keeps. The name is remembered for every tab (localStorage). A resume token is
// kept per room and per tab (sessionStorage): it survives a reload and a dropped network, never
// goes in the URL, and two tabs playing different seats never share one.

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
    return sessionStorage.getItem(tokenKey(room));
  } catch {
    return null;
  }
}

/** A new token each time the server gives one (it may change it on every resume).
 * @param {string} room @param {string} token */
export function saveToken(room, token) {
  try {
    sessionStorage.setItem(tokenKey(room), token);
  } catch {
    /* storage off: a reload starts as a new player */
  }
}

/** @param {string} room */
export function forgetToken(room) {
  try {
    sessionStorage.removeItem(tokenKey(room));
  } catch {
    /* nothing kept */
  }
}
