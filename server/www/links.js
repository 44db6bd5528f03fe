// @ts-check
// Links that every community page carries: back to the front page and the leaderboard, and a
// player's name as a link to their profile; and the address others reach this server at.

import { el } from "./dom.js";

export function backLinks() {
  return el("p", { class: "page-links" }, el("a", { href: "/" }, "Front page"), " · ",
    el("a", { href: "#/leaderboard" }, "Leaderboard"));
}

/** @param {string} name */
export const playerLink = (name) => el("a", { href: `#/player/${encodeURIComponent(name)}` }, name);

/** A loopback address: only this computer reaches it. @param {string} hostname */
export const isLoopback = (hostname) =>
  /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0)$/i.test(hostname) || hostname.endsWith(".localhost");

/**
 * Where others reach this server: the address the server was given (`--public-url`), else the
 * one this page was loaded from; `loopback` when that is this computer's own and no public one
 * was given, so a link named by it is dead for a friend.
 * @param {string} publicUrl
 */
export function siteAddress(publicUrl) {
  const page = publicUrl ? publicUrl.replace(/\/+$/, "") : location.origin;
  const game = page.replace(/^http/, "ws");
  return { page, game, loopback: !publicUrl && isLoopback(location.hostname) };
}
