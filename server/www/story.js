// @ts-check
// The story of the match so far, sent by the server whenever this page enters a room or comes
// back to it: the log, the calls of the deal in play, the chat and the fair-deal checks are
// drawn again from it, so a reload loses none of them.

import { checkDeal } from "./fair.js";
import { event } from "./session.js";

/**
 * @param {import("./session.js").Session} s
 * @param {MugginsServer.Story} story
 * @param {(line: MugginsServer.ChatLine) => void} addChat draws one chat line
 * @param {() => void} redraw
 */
export function tellStory(s, story, addChat, redraw) {
  if (!s.room || story.room !== s.room.code) return;
  const pending = s.pending.length;
  const seen = new Set(s.seen); // the story came after its deals: none was seen before dealing
  s.log = s.log.filter((line) => line.startsWith("Room "));
  s.calls = [];
  /** @type {MugginsServer.DealReveal[]} */
  const reveals = [];
  for (const line of story.lines) {
    event(s, line);
    const e = line.event;
    if (e.type === "deal_revealed") {
      reveals.push({ deal_number: e.deal_number, dealer: 0, commitment: e.commitment, deck: e.deck, salt: e.salt });
      s.checked.add(e.commitment);
    }
  }
  s.pending.splice(pending);
  s.seen = seen;
  const list = document.getElementById("chat-lines");
  list?.replaceChildren();
  for (const line of story.chat) addChat(line);
  Promise.all(reveals.map((reveal) => checkDeal(reveal, seen, undefined, null))).then((results) => {
    // A check this page made itself (it saw the deal begin) is kept rather than the story's.
    const mine = new Map(s.fair.map((r) => [r.reveal.commitment, r]));
    const told = results.map((r) => mine.get(r.reveal.commitment) ?? r);
    const inStory = new Set(told.map((r) => r.reveal.commitment));
    s.fair = [...told, ...s.fair.filter((r) => !inStory.has(r.reveal.commitment))];
    // Each deal's check goes in the log just after its reveal, as it did when it was played.
    let at = 0;
    for (const result of told) {
      const revealed = `Deal ${result.reveal.deal_number}: the deck is revealed for checking`;
      const found = s.log.indexOf(revealed, at);
      if (found < 0) break;
      if (s.log[found + 1] !== result.sentence) s.log.splice(found + 1, 0, result.sentence);
      at = found + 2;
    }
    redraw();
  });
  redraw();
}
