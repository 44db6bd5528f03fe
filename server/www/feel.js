// @ts-check
// How the table feels: the tab's title says when it is your move; an optional sound for your turn
// and for a card played (off by default); a notification when it is your move while the tab is
// in the background (if asked for). The motion and the dark theme are in style.css, following
// prefers-reduced-motion and prefers-color-scheme.

const SOUND = "muggins.sound";
const NOTIFY = "muggins.notify";
const TITLE = "Muggins cribbage";

/** @param {string} key */
function isOn(key) {
  try {
    return localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

/** @param {string} key @param {boolean} on */
function keep(key, on) {
  try {
    if (on) localStorage.setItem(key, "on");
    else localStorage.removeItem(key);
  } catch {
    /* storage off: the choice lasts this page */
  }
}

/** @type {AudioContext | null} */
let audio = null;

/** A short tone: higher for your turn, lower and shorter for a card. @param {"turn" | "card"} what */
export function sound(what) {
  if (!isOn(SOUND)) return;
  try {
    audio = audio ?? new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = what === "turn" ? 880 : 330;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + (what === "turn" ? 0.15 : 0.06));
  } catch {
    /* no audio here */
  }
}

/** The title, the sound and the notification for whose move it is now.
 * @param {boolean} mine @param {string} prompt what to do, for the notification */
export function noteTurn(mine, prompt) {
  const title = mine ? `● Your move · ${TITLE}` : TITLE;
  const changed = document.title !== title;
  document.title = title;
  if (!mine || !changed) return;
  sound("turn");
  if (document.hidden && isOn(NOTIFY) && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification("Muggins: your move", { body: prompt, tag: "muggins-turn" });
    note.onclick = () => { window.focus(); note.close(); };
  }
}

/** The two choices in the side panel: sound, and a notification in a background tab. */
export function wireFeel() {
  const sounds = /** @type {HTMLInputElement | null} */ (document.getElementById("sound-on"));
  const notify = /** @type {HTMLInputElement | null} */ (document.getElementById("notify-on"));
  if (sounds) {
    sounds.checked = isOn(SOUND);
    sounds.addEventListener("change", () => keep(SOUND, sounds.checked));
  }
  if (notify) {
    notify.checked = isOn(NOTIFY);
    notify.addEventListener("change", () => {
      keep(NOTIFY, notify.checked);
      if (notify.checked && "Notification" in window && Notification.permission === "default") {
        Notification.requestPermission().catch(() => undefined);
      }
    });
  }
}
