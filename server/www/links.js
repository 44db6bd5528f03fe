// @ts-check
// Links that every community page carries: back to the front page and the leaderboard, and a
// player's name as a link to their profile.

import { el } from "./dom.js";

export function backLinks() {
  return el("p", { class: "page-links" }, el("a", { href: "/" }, "Front page"), " · ",
    el("a", { href: "#/leaderboard" }, "Leaderboard"));
}

/** @param {string} name */
export const playerLink = (name) => el("a", { href: `#/player/${encodeURIComponent(name)}` }, name);
