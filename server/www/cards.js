// @ts-check
// Cards as the wire writes them ("10H", "AS") and as people read and hear them.

const RANK_WORDS = /** @type {Record<string, string>} */ ({
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king",
});
const SUITS = /** @type {Record<string, {symbol: string, word: string, red: boolean}>} */ ({
  C: { symbol: "♣", word: "clubs", red: false },
  D: { symbol: "♦", word: "diamonds", red: true },
  H: { symbol: "♥", word: "hearts", red: true },
  S: { symbol: "♠", word: "spades", red: false },
});
const ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** @param {string} card @returns {{rank: string, suit: string}} */
export function parts(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

/** "five of hearts" @param {string} card */
export function spoken(card) {
  const { rank, suit } = parts(card);
  return `${RANK_WORDS[rank]} of ${SUITS[suit].word}`;
}

/** "5♥" @param {string} card */
export function symbol(card) {
  const { rank, suit } = parts(card);
  return rank + SUITS[suit].symbol;
}

/** @param {string} card */
export function isRed(card) {
  return SUITS[parts(card).suit].red;
}

/** The pegging value: ace 1, court cards 10. @param {string} card */
export function value(card) {
  const index = ORDER.indexOf(parts(card).rank);
  return Math.min(index + 1, 10);
}

/** A server sentence with "5♥" written out, for the screen reader. @param {string} text */
export function speakable(text) {
  return text.replace(/\b(10|[2-9AJQK])([♣♦♥♠])/g, (_, rank, sym) => {
    const suit = Object.values(SUITS).find((s) => s.symbol === sym);
    return `${RANK_WORDS[rank]} of ${suit ? suit.word : sym}`;
  });
}

/** The 52 cards, for checks. */
export const DECK = Object.freeze(
  ORDER.flatMap((rank) => Object.keys(SUITS).map((suit) => rank + suit)),
);
