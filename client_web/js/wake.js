// Keeps the screen on while this phone plays at a table, and only then.
//
// In a secure context (https, or localhost) that is the Screen Wake Lock API. Phones reach the
// host at its plain-http LAN address, where browsers do not offer that API, so there the
// screen is held by NoSleep.js (npm `nosleep.js`, pinned in package.json, served by the host
// at /vendor/nosleep.min.js): a tiny silent looping video, never shown, which a phone keeps its
// screen on for as for any playing video. A video may start only from a user
// gesture, so the library is fetched on the player's first tap at the table (it is no part of
// the page's first load) and the video started on that tap, or on the next one where the
// browser refused.
//
// The screen is let go when the game ends, when this phone holds no seat any more (it left,
// or went back to the lobby) and when the page is hidden; a Wake Lock is asked again when the
// page is shown, the video on the next tap. `document.body.dataset.awake` is "on" while the
// screen is held, "off" otherwise (the browser tests read it).

const NOSLEEP_JS = "/vendor/nosleep.min.js";
const TAPS = ["click", "pointerup", "touchend", "keydown"]; // gestures that may start a video

let library = null; // window.NoSleep, once per page
let video = null; // the page's one NoSleep (it owns the video element)
let playing = false; // its video plays
let changed = () => {}; // the table's keeper, told when the video stops by itself

function loadNoSleep() {
  library ??= new Promise((resolve, reject) => {
    const script = Object.assign(document.createElement("script"), { src: NOSLEEP_JS, async: true });
    script.onload = () => (window.NoSleep ? resolve(window.NoSleep) : reject(new Error("no NoSleep")));
    script.onerror = () => {
      library = null; // the next tap tries again
      reject(new Error(`${NOSLEEP_JS} did not load`));
    };
    document.head.append(script);
  });
  return library;
}

function videoOf(NoSleep) {
  if (!video) {
    video = new NoSleep();
    // The browser may stop the video itself (another app took the audio, the page was hidden).
    video.noSleepVideo?.addEventListener("pause", () => {
      playing = false;
      changed();
    });
  }
  return video;
}

/** Holds the screen while `wanted()` (and the page is shown). Returns {update, release}:
 *  `update()` after every change of the table's state; `release()` when the table goes. */
export function keepAwake(wanted) {
  const native = window.isSecureContext && "wakeLock" in navigator;
  let lock = null; // the Wake Lock sentinel while held
  let asking = false; // a lock or the video is being asked for
  let released = false;
  const want = () => !released && document.visibilityState === "visible" && wanted();
  const show = () => {
    document.body.dataset.awake = !released && (lock || playing) ? "on" : "off";
  };

  function lockScreen() {
    return navigator.wakeLock.request("screen").then((sentinel) => {
      lock = sentinel;
      sentinel.addEventListener("release", () => {
        if (lock === sentinel) lock = null;
        show();
      });
    }, () => {}); // refused (battery saver): the game works without it
  }

  /** The video starts within the tap itself where the library is in already (as a phone's
   *  browser asks); on the first tap once it came, which Chrome still counts as that tap. */
  function playVideo() {
    const start = (NoSleep) => videoOf(NoSleep).enable().then(() => {
      playing = true;
    });
    const started = window.NoSleep ? start(window.NoSleep) : loadNoSleep().then((NoSleep) => want() && start(NoSleep));
    return started.catch(() => {}); // not from a gesture, or no video here: the next tap tries again
  }

  function take() {
    if (asking || lock || playing || !want()) return;
    asking = true;
    (native ? lockScreen() : playVideo()).finally(() => {
      asking = false;
      if (!want()) drop(); // the game ended or the page went while it was asked for
      show();
    });
  }

  function drop() {
    const sentinel = lock;
    lock = null;
    sentinel?.release().catch(() => {});
    if (playing) {
      playing = false;
      video.disable();
    }
    show();
  }

  function update() {
    if (!want()) drop();
    else if (native) take();
  }

  const onVisible = () => update();
  const onTap = () => take();
  changed = show;
  document.addEventListener("visibilitychange", onVisible);
  for (const type of TAPS) document.addEventListener(type, onTap, { capture: true, passive: true });
  show();
  update();
  return {
    update,
    release() {
      released = true;
      drop();
      document.removeEventListener("visibilitychange", onVisible);
      for (const type of TAPS) document.removeEventListener(type, onTap, { capture: true });
      if (changed === show) changed = () => {};
    },
  };
}
