// This phone's own settings: the "your turn" chime and vibration, each on unless turned off,
// kept in localStorage (per device, not per player), and the sheet that changes them, opened
// from a button in the table's and the lobby's header.

import { h } from "./dom.js";

const KEY = "cornerclaim.settings";
const DEFAULTS = { sound: true, vibrate: true };

/** {sound, vibrate}: what this phone was set to, the defaults where it was not. */
export function settings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY)) };
  } catch {
    return { ...DEFAULTS };
  }
}

function save(values) {
  try {
    localStorage.setItem(KEY, JSON.stringify(values));
  } catch {
    /* private mode: the setting holds for this page only */
  }
}

let sheet = null; // one sheet per page, made on first use

/** Opens the settings sheet, its boxes showing what is stored now. */
export function openSettings() {
  sheet ??= makeSheet();
  const now = settings();
  for (const box of sheet.querySelectorAll("input[type=checkbox]")) box.checked = now[box.name];
  if (!sheet.isConnected) document.body.append(sheet);
  sheet.showModal();
}

function makeSheet() {
  const box = (name, label, hint) => h("label.setting", {},
    h("input", { type: "checkbox", name, "data-testid": `settings-${name}`,
      onchange: (e) => save({ ...settings(), [name]: e.target.checked }) }),
    h("span", {}, label, h("span.note", {}, hint)));
  return h("dialog.confirm.settings", { "data-testid": "settings-sheet", "aria-labelledby": "settings-title" },
    h("h2", { id: "settings-title" }, "This phone"),
    box("sound", "Sound", "A short chime when it is your turn"),
    box("vibrate", "Vibration", "A short buzz when it is your turn"),
    h("div.controls", {}, h("button.btn.primary", { type: "button", "data-testid": "settings-close",
      onclick: (e) => e.target.closest("dialog").close() }, "Done")));
}

/** The header's button that opens the sheet. */
export function settingsButton() {
  return h("button.btn.small", { type: "button", "data-testid": "settings", "aria-label": "Settings: sound and vibration",
    title: "Settings", onclick: openSettings }, "⚙");
}
