// Keep the screen on during a game (Screen Wake Lock API, where the browser has it).

export function keepAwake(wanted) {
  let lock = null;
  let released = false;
  async function acquire() {
    if (released || lock || !("wakeLock" in navigator) || document.visibilityState !== "visible" || !wanted()) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; });
    } catch {
      lock = null; // refused (battery saver, no user gesture yet): the game works without it
    }
  }
  const onVisible = () => acquire();
  document.addEventListener("visibilitychange", onVisible);
  document.addEventListener("pointerdown", onVisible, { passive: true });
  const timer = setInterval(acquire, 5000);
  acquire();
  return {
    release() {
      released = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
      document.removeEventListener("pointerdown", onVisible);
      lock?.release().catch(() => {});
      lock = null;
    },
  };
}
