// @ts-check
// Which page load is the one shown: a page's reply that comes after the player has gone on to
// another page (or back to the front page, or to a table) is not drawn over it.

let turn = 0;

/** The number of the page load now shown. @returns {number} */
export const pageTurn = () => turn;

/** Another page is being shown: replies for the one before are passed over from now on. */
export function nextPage() {
  turn += 1;
}
