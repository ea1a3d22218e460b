// The create form's option fields, built from a variant's catalog line: one input per option,
// by its kind, and the variant's presets (sets of option values chosen with one tap, such as a
// game's clocks). Nothing here names a game or an option; the host checks every value.

import { h, title } from "./dom.js";

// A "strings" option (a list of texts) is typed as one text, a comma between the values.
const listText = (value) => (Array.isArray(value) ? value.join(", ") : String(value ?? ""));
const listOf = (text) => text.split(",").map((s) => s.trim()).filter(Boolean);

/** The input of one option by its kind: a checkbox (bool), a select (choice), a number field
 *  as wide as its largest value (int), a growing text area (strings: its format in the
 *  placeholder), else a text field. `error` is the host's message about this option. */
function inputOf(opt, value, onChange, attrs) {
  if (opt.kind === "bool") {
    const box = h("input", { ...attrs, type: "checkbox", onchange: (e) => onChange(e.target.checked) });
    box.checked = !!value;
    return box;
  }
  if (opt.kind === "choice") {
    const pick = h("select", { ...attrs, onchange: (e) => onChange(e.target.value) },
      (opt.choices || []).map((c) => h("option", { value: c }, title(c))));
    pick.value = value;
    return pick;
  }
  if (opt.kind === "int") {
    const digits = Math.max(2, ...[opt.maximum, opt.minimum, value].map((v) => String(v ?? "").length));
    return h("input", { ...attrs, type: "number", inputmode: "numeric", step: 1, min: opt.minimum ?? undefined,
      max: opt.maximum ?? undefined, value: String(value), style: `--digits: ${digits}`,
      oninput: (e) => onChange(e.target.value === "" ? e.target.value : Number(e.target.value)) });
  }
  if (opt.kind === "strings") {
    return h("textarea", { ...attrs, rows: 1, spellcheck: "false", autocapitalize: "characters",
      autocomplete: "off", placeholder: opt.placeholder || "", value: listText(value),
      oninput: (e) => onChange(listOf(e.target.value)) });
  }
  return h("input", { ...attrs, type: "text", placeholder: opt.placeholder || "", value: String(value ?? ""),
    oninput: (e) => onChange(e.target.value) });
}

/** One option's field: its label, its input, what it does and (after a refused create) the
 *  host's message about it. An option the game's board module edits too (`editor: "board"`:
 *  Corners' set-up position) has a button that opens that editor (`onEdit`). */
export function optionField(opt, value, onChange, error = "", onEdit = null) {
  const attrs = { "data-testid": `option-${opt.name}`, "aria-label": opt.label, title: opt.description || "",
    "aria-invalid": error ? "true" : undefined, "aria-describedby": error ? `option-error-${opt.name}` : undefined };
  const computerNote = opt.computer_default !== undefined && opt.computer_default !== null
    ? ` (against the computer: ${typeof opt.computer_default === "boolean" ? (opt.computer_default ? "on" : "off") : opt.computer_default})` : "";
  const field = h(`label.field.option.k-${opt.kind}`, {}, h("span.option-label", {}, opt.label), inputOf(opt, value, onChange, attrs),
    opt.description || computerNote ? h("span.note", {}, `${opt.description || ""}${computerNote}`) : null,
    error ? h("span.error", { id: `option-error-${opt.name}`, "data-testid": `option-error-${opt.name}` }, error) : null);
  if (opt.editor !== "board" || !onEdit) return field;
  return h("div.option-with-editor", {}, field,
    h("button.btn", { type: "button", "data-testid": `edit-${opt.name}`, onclick: onEdit }, "Place pieces on a board"));
}

const slug = (label) => label.toLowerCase().replace(/[^a-z0-9+]+/g, "-");

/** The variant's presets as one button each, under its `presets_label`; a preset shows as
 *  chosen while every value it names is set. `sync()` on the returned element marks them
 *  again after a free field changed. Null when the variant has none.
 *  An option the other presets set and a chosen one leaves out means nothing under it
 *  (Corners' "No clock" sets no increment): its field is hidden while that preset holds. */
export function presetRow(variant, options, onChoose) {
  const presets = variant.presets || [];
  if (!presets.length) return null;
  const chosen = (p) => Object.entries(p.values).every(([k, v]) => options()[k] === v);
  const buttons = presets.map((p) => h("button.count", { type: "button", "data-testid": `preset-${slug(p.label)}`,
    title: p.description || "", "aria-label": p.description ? `${p.label}: ${p.description}` : p.label,
    onclick: () => onChoose(p.values) }, p.label));
  const row = h("div.presets", { role: "group", "aria-label": variant.presets_label || "Presets" },
    variant.presets_label ? h("span.presets-label", {}, variant.presets_label) : null,
    h("div.counts", {}, buttons));
  const named = new Set(presets.flatMap((p) => Object.keys(p.values)));
  row.sync = () => {
    buttons.forEach((b, i) => b.setAttribute("aria-pressed", String(chosen(presets[i]))));
    const moot = new Set(presets.filter(chosen).flatMap((p) => [...named].filter((k) => !(k in p.values))));
    for (const name of named) {
      const field = row.parentElement?.querySelector(`[data-testid="option-${name}"]`)?.closest(".field");
      if (field) field.hidden = moot.has(name);
    }
  };
  row.sync();
  queueMicrotask(row.sync); // once the form holds the option fields too
  return row;
}
