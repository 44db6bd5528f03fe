// @ts-check
// The fair-deal check: before each deal the server commits to the deck with
// sha256(deck_text + "|" + salt); after it, it reveals deck and salt. We recompute the hash with
// Web Crypto and check that our six cards are the ones that order deals us.

/** @param {string} text */
export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * @typedef {{deal: number, ok: boolean, handChecked: boolean, seenAtStart: boolean,
 *   reveal: MugginsServer.DealReveal, sentence: string}} FairResult
 */

/**
 * Check one revealed deal.
 * @param {MugginsServer.DealReveal} reveal
 * @param {Set<string>} seen commitments this page saw before their deal was dealt
 * @param {string[] | undefined} hand our six dealt cards, when we saw them
 * @param {number | null} seat
 * @returns {Promise<FairResult>}
 */
export async function checkDeal(reveal, seen, hand, seat) {
  const hash = await sha256Hex(`${reveal.deck.join(" ")}|${reveal.salt}`);
  let ok = hash === reveal.commitment && new Set(reveal.deck).size === 52;
  const seenAtStart = seen.has(reveal.commitment);
  const handChecked = Boolean(hand && seat !== null && seenAtStart);
  if (handChecked && hand) {
    const first = seat === reveal.dealer ? 1 : 0;
    const dealt = [0, 1, 2, 3, 4, 5].map((i) => reveal.deck[first + 2 * i]);
    ok = ok && [...dealt].sort().join() === [...hand].sort().join();
  }
  const what = handChecked ? "the deck and your six cards match" : "the deck matches";
  const sentence = ok
    ? `✓ fair deal ${reveal.deal_number}: ${what} the commitment`
    : `WARNING: deal ${reveal.deal_number} does NOT match the server's commitment. ` +
      "The cards were not dealt from the deck it promised!";
  return { deal: reveal.deal_number, ok, handChecked, seenAtStart, reveal, sentence };
}
