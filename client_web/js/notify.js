// How this phone calls a player: a short chime (Web Audio: one oscillator under a gain
// envelope, no sound file), a short buzz (navigator.vibrate, where the phone has it), and the
// page's title and favicon marked. The settings (js/settings.js) say whether to chime and buzz.
//
// A phone's browser starts audio only from a user gesture, so the AudioContext is made (or
// resumed) on a tap or a key at the table; until then the chime is left out. Away from the
// table it is suspended, so an idle page keeps no audio running.

import { settings } from "./settings.js";

let audio = null;

const GESTURES = ["click", "pointerup", "touchend", "keydown"]; // those that may start audio

/** Makes or resumes the page's AudioContext; listened for on every tap and key. */
function unlockAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  if (audio?.state === "running") return;
  try {
    audio ??= new Ctx();
    if (audio.state !== "running") audio.resume().catch(() => {}); // suspended, or iOS's "interrupted"
  } catch {
    audio = null; // no audio on this phone: the chime is left out
  }
}
/** Starts the audio on the next tap or key, and keeps it on; returns the function that stops
 *  listening and suspends it. */
export function readyAudio() {
  for (const type of GESTURES) document.addEventListener(type, unlockAudio, { capture: true, passive: true });
  return () => {
    for (const type of GESTURES) document.removeEventListener(type, unlockAudio, { capture: true });
    if (audio?.state === "running") audio.suspend().catch(() => {});
  };
}

/** The chime, once the audio runs: a browser that counts the page's earlier taps resumes it
 *  now; one that does not leaves the chime out. */
function chime() {
  if (audio?.state === "running") tone();
  else audio?.resume().then(() => audio.state === "running" && tone(), () => {});
}

/** Two quick rising notes from one oscillator, about 0.35 s, soft attack and release. */
function tone() {
  const t = audio.currentTime;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = "sine";
  osc.frequency.setValueAtTime(880, t);
  osc.frequency.setValueAtTime(1320, t + 0.12);
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
  gain.gain.setValueAtTime(0.25, t + 0.12);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.35);
  osc.connect(gain).connect(audio.destination);
  osc.start(t);
  osc.stop(t + 0.36);
}

/** The chime and the buzz, each as this phone's settings allow. */
export function callPlayer() {
  const { sound, vibrate } = settings();
  if (sound) chime();
  // Chrome refuses (and logs) a buzz before the page's first tap.
  const tapped = navigator.userActivation?.hasBeenActive ?? true;
  if (vibrate && tapped && typeof navigator.vibrate === "function") {
    try {
      navigator.vibrate(200);
    } catch {
      /* refused: the title still says it */
    }
  }
}

// ---- the page's title and favicon ----------------------------------------------------------
// A red dot drawn over the favicon's top right corner (SVG, as a data URL writes it).
const DOT = "%3Ccircle cx='1.45' cy='.55' r='.5' fill='%23ff3b30' stroke='%23fff' stroke-width='.12'/%3E";
const END = "%3C/svg%3E";
let plain = null; // {title, icon href} while marked

function iconLink() {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) link = document.head.appendChild(Object.assign(document.createElement("link"), { rel: "icon" }));
  return link;
}

/** Marks the page: `text` before its title ("Your turn · Corner games") and a red dot on its
 *  favicon, until `unmark()`. */
export function mark(text) {
  const link = iconLink();
  plain ??= { title: document.title, href: link.getAttribute("href") || "" };
  document.title = `${text} · ${plain.title}`;
  const href = plain.href.startsWith("data:image/svg+xml,") && plain.href.endsWith(END)
    ? plain.href.slice(0, -END.length) + DOT + END
    : `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 2 2'%3E${DOT}${END}`;
  link.setAttribute("href", href);
  link.dataset.marked = "true";
}

/** The title and favicon as they were before `mark`. */
export function unmark() {
  if (!plain) return;
  document.title = plain.title;
  const link = iconLink();
  if (plain.href) link.setAttribute("href", plain.href);
  else link.remove(); // the page had no icon: the one mark() made goes
  delete link.dataset.marked;
  plain = null;
}
