// The lobby (the host page): create a game, list games to join or watch. The create form is
// built from the host's catalog (GET /api/catalog): a game (a card per game, js/gamecards.js:
// its title, summary, picture and how-to-play sheet), one of its variants and seat counts,
// each seat's colour (the catalog's palette), who plays it (computer levels from the
// catalog), the variant's presets and its options as inputs by kind (js/options.js). Nothing
// here names a game. The game lists and tonight's standings are the host's, pushed: watched
// over the live link (`watch_lobby`: the whole list on every (re)connection, then each game
// created or changed), never polled.

import { api, memory, seatTokens } from "./api.js";
import { catalog, colourMark, loadBoard, usePalette, variantOf } from "./catalog.js";
import { h, title } from "./dom.js";
import { optionField, presetRow } from "./options.js";
import { watchLobby } from "./net.js";
import { settingsButton } from "./settings.js";
import { standings, sinceText } from "./tonight.js";

/** The host's name on its pages: it hosts several games, so it is named for none of them. */
export const HOST_NAME = "Corner games";

/** One seat of the new game. The first seat played on this device is the creator's own: its
 * name field is "Your name", remembered on this phone; any further seat on this device (a
 * hot-seat game) has a name field of its own. */
function seatRow(colour, i, spec, levels, onChange, mine) {
  const kind = h("select", { "data-testid": `seat-kind-${i}`, "aria-label": `${title(colour)} seat is played by`,
    onchange: (e) => onChange({ kind: e.target.value }) },
    h("option", { value: "open" }, "Open seat"),
    h("option", { value: "local" }, "This device"),
    levels.length ? h("option", { value: "computer" }, "Computer") : null);
  kind.value = spec.kind;
  const level = h("select", { "data-testid": `seat-level-${i}`, "aria-label": `${title(colour)} computer level`,
    hidden: spec.kind !== "computer", onchange: (e) => onChange({ level: Number(e.target.value) }) },
    levels.map((l) => h("option", { value: l.number, title: l.description || "" }, `Level ${l.number} · ${l.name}`)));
  level.value = spec.level;
  const name = h("input", { type: "text", maxlength: 24, placeholder: mine ? "Your name" : "Player's name",
    value: spec.name || "", "data-testid": mine ? "your-name" : `seat-name-${i}`, autocomplete: mine ? "nickname" : "off",
    "aria-label": mine ? `Your name (you play ${title(colour)})` : `${title(colour)} player's name`,
    hidden: spec.kind !== "local", oninput: (e) => onChange({ name: e.target.value }, false) });
  return h("div.seat-row", {},
    h(`span.chip.c-${colour}`, { "aria-hidden": "true" }, colourMark(colour)),
    h("span.seat-colour", {}, title(colour)), kind, level, name);
}

/** How a game line is named: the game and variant labels from the catalog (when it came). */
function describe(g, games) {
  const entry = games.find((e) => e.game === g.game);
  const variant = variantOf(entry, g.variant);
  const names = g.seats.map((s) => s.name || (s.claimed ? "Guest" : "open"));
  const what = entry ? `${entry.title} · ${variant?.label || title(g.variant)}` : title(g.variant);
  return `${what} · ${names.join(", ")}`;
}

function gameLine(g, games) {
  const open = (g.open_seats || []).length;
  const label = describe(g, games);
  return h("li.game-line", { "data-testid": `game-${g.id}`, "data-game": g.game || "" },
    h("span.game-desc", {}, label, open ? h("span.tag", {}, `${open} open`) : null,
      g.practice ? h("span.tag", { "data-testid": `practice-${g.id}` }, "practice") : null),
    h("span.game-actions", {},
      open && g.status === "open"
        ? h("a.btn.primary", { href: `#/game/${g.id}`, "data-testid": `join-${g.id}`, "aria-label": `Join ${label}` }, "Join")
        : null,
      g.status !== "finished"
        ? h("a.btn", { href: `#/game/${g.id}/watch`, "data-testid": `watch-${g.id}`, "aria-label": `Watch ${label}` }, "Watch")
        : h("a.btn", { href: `#/game/${g.id}/watch`, "data-testid": `watch-${g.id}`, "aria-label": `See ${label}` }, "See"),
      memory.tokens(g.id) && Object.keys(memory.tokens(g.id)).length && g.status !== "finished"
        ? h("a.btn.primary", { href: `#/game/${g.id}`, "data-testid": `resume-${g.id}` }, "Resume")
        : null));
}

/** While the catalog is on its way: my name can be typed already. */
function earlyForm(name, onName) {
  return [h("p.note", {}, "Asking the host what it plays…"),
    h("label.field", {}, "Your name ", h("input", { type: "text", maxlength: 24, placeholder: "Your name", value: name,
      "data-testid": "your-name", autocomplete: "nickname", "aria-label": "Your name",
      oninput: (e) => onName(e.target.value) }))];
}

/** The form's focused field (by its test id) and caret, to be put back after a redraw. */
function focusOf(form) {
  const el = document.activeElement;
  if (!el || !form.contains(el) || !el.dataset.testid) return null;
  let caret = null;
  try {
    caret = [el.selectionStart, el.selectionEnd];
  } catch {
    /* a number field has no caret to keep */
  }
  return { id: el.dataset.testid, caret };
}
function refocus(form, kept) {
  const el = kept && form.querySelector(`[data-testid="${kept.id}"]`);
  if (!el || el.hidden) return;
  el.focus({ preventScroll: true });
  if (kept.caret && kept.caret[0] !== null) {
    try {
      el.setSelectionRange(...kept.caret);
    } catch {
      /* not a text field any more */
    }
  }
}

/** `preset`: {game, variant, options} to start the form with (the replay's "Set up from
 *  here": a variant and its setup option, the board editor open). */
export function mountLobby(root, preset = null) {
  let games = []; // the catalog's games
  let cards = null; // the game picker: a card per game (js/gamecards.js)
  let entry = null; // the chosen game
  let variant = null; // the chosen variant
  let players = 0; // the chosen seat count
  let specs = [];
  let options = {};
  let touched = new Set(); // the options the creator set: kept whoever sits at the table
  let optionErrors = {}; // the host's message about an option, after it refused a create
  let myName = memory.name; // as typed (remembered trimmed)

  const setMyName = (value) => {
    myName = value;
    memory.name = value.trim();
  };
  const form = h("div.new-game", { "data-testid": "new-game-form" }, ...earlyForm(myName, setMyName));
  const error = h("p.error", { role: "alert", "data-testid": "lobby-error" });
  const lists = h("div.lists");

  const levels = () => entry?.levels || [];
  // The editor of an option the game's board module edits (its `editSetup`): kept across
  // redraws of the form, closed when the variant changes.
  const editorBox = h("div.option-editor", { "data-testid": "option-editor" });
  let editor = null;
  function closeEditor() {
    editor?.destroy();
    editor = null;
    editorBox.replaceChildren();
  }
  async function openEditor(o) {
    if (editor) return;
    const mod = await loadBoard(entry);
    if (typeof mod.editSetup !== "function" || editor) return;
    const made = await mod.editSetup({ el: editorBox, option: o, value: options[o.name] || "",
      onChange: (text) => {
        options[o.name] = text;
        touched.add(o.name);
        const input = form.querySelector(`[data-testid="option-${o.name}"]`);
        if (input && input !== document.activeElement) input.value = text;
      } });
    if (editor) made.destroy(); // opened twice while the editor's module loaded
    else editor = made;
  }
  function resetSpecs() {
    const computer = levels().length ? "computer" : "local";
    specs = Array.from({ length: players }, (_, i) =>
      i === 0 ? { kind: "local", name: myName, level: levels()[0]?.number || 1 }
        : { kind: players === 2 ? computer : "open", level: levels()[0]?.number || 1 });
  }
  function choose({ game, variantName, count } = {}) {
    if (game !== undefined) {
      entry = games.find((e) => e.game === game) || games[0];
      variantName = entry.variants[0]?.name;
      usePalette(entry.palette || {}); // the seat chips' colours, from the catalog
    }
    if (variantName !== undefined) {
      variant = variantOf(entry, variantName) || entry.variants[0];
      count = variant.seats[0];
      options = Object.fromEntries((variant.options || []).map((o) => [o.name, o.default]));
      touched = new Set();
      closeEditor();
      optionErrors = {};
    }
    if (count !== undefined) {
      players = count;
      resetSpecs();
    }
    draw();
  }

  function draw() {
    if (!entry) return;
    const pressed = (on) => String(!!on);
    cards.show(entry.game);
    const variantButtons = h("div.counts.variants", { role: "group", "aria-label": "Variant" },
      entry.variants.map((v) => h("button.count", { type: "button", "data-testid": `variant-${v.name}`,
        "aria-pressed": pressed(v === variant), title: v.description || "",
        onclick: () => choose({ variantName: v.name }) }, v.label)));
    const countButtons = variant.seats.length > 1
      ? h("div.counts", { role: "group", "aria-label": "Number of players" },
        variant.seats.map((n) => h("button.count", { type: "button", "data-testid": `players-${n}`,
          "aria-pressed": pressed(n === players), onclick: () => choose({ count: n }) }, `${n} player${n === 1 ? "" : "s"}`)))
      : null;
    // The first seat on this device is mine: it carries my remembered name.
    const mine = specs.findIndex((s) => s.kind === "local");
    specs.forEach((s, i) => {
      if (i === mine && !s.name) s.name = myName;
    });
    const seatRows = variant.colours.slice(0, players).map((c, i) => seatRow(c, i + 1, specs[i], levels(),
      (change, redraw = true) => {
        Object.assign(specs[i], change);
        if (i === mine && change.name !== undefined) setMyName(change.name);
        if (redraw) draw();
      }, i === mine));
    // An option the creator has not set follows the table: its computer_default (if the catalog
    // gives one) while a computer sits at it, else its default.
    const computer = specs.some((s) => s.kind === "computer");
    for (const o of variant.options || []) {
      if (touched.has(o.name)) continue;
      options[o.name] = computer && o.computer_default !== undefined && o.computer_default !== null
        ? o.computer_default : o.default;
    }
    const presets = presetRow(variant, () => options, (values) => {
      Object.assign(options, values);
      for (const name of Object.keys(values)) touched.add(name);
      draw();
    });
    const optionRows = (variant.options || []).map((o) => optionField(o, options[o.name], (value) => {
      options[o.name] = value;
      touched.add(o.name);
      presets?.sync();
      if (o.editor === "board") editor?.set(value);
    }, optionErrors[o.name], o.editor === "board" ? () => openEditor(o) : null));
    const kept = focusOf(form);
    form.replaceChildren(...[
      cards.el,
      variantButtons, countButtons,
      h("p.note", { "data-testid": "variant-note" }, variant.description || variant.label),
      h("form", { onsubmit: create }, h("div.seat-rows", {}, seatRows), presets, optionRows, editorBox,
        h("button.btn.primary.big", { type: "submit", "data-testid": "create" }, "Create game"))].filter(Boolean));
    refocus(form, kept);
  }

  async function create(e) {
    e.preventDefault();
    error.textContent = "";
    if (Object.keys(optionErrors).length) {
      optionErrors = {};
      draw();
    }
    const seats = specs.map((s) => {
      const out = { kind: s.kind };
      if (s.kind === "computer") out.level = s.level || levels()[0]?.number || 1;
      // A seat nobody named is a guest: the game shows its colour, the ladder keeps no player.
      if (s.kind === "local" && (s.name || "").trim()) out.name = s.name.trim();
      return out;
    });
    const body = { game: entry.game, variant: variant.name, seats };
    if (Object.keys(options).length) body.options = options;
    try {
      const answer = await api("POST", "/games", { body });
      memory.remember(answer.id, { seats: seatTokens(answer), host: answer.host_token });
      location.hash = `#/game/${answer.id}`;
    } catch (err) {
      error.textContent = err.message;
      const option = err.details?.option;
      if (option && (variant.options || []).some((o) => o.name === option)) {
        optionErrors = { [option]: err.message };
        draw();
      }
    }
  }

  // ---- the host's game lists and tonight's standings, pushed ---------------------------
  let known = null; // id -> lobby line, once the host has given the list
  let catalogCame = false; // the lines name each game by the catalog's titles
  let tonight = null;
  const tonightBox = h("div.tonight");
  const tonightSince = h("span.note", {});
  function drawLists() {
    if (!known || !catalogCame) return;
    const list = [...known.values()];
    const group = (status, heading) => {
      const some = list.filter((g) => g.status === status).sort((a, b) => (b.created_at || 0) - (a.created_at || 0));
      return h("section", { "data-testid": `games-${status}` }, h("h3", {}, heading),
        some.length ? h("ul.games", {}, some.slice(0, 30).map((g) => gameLine(g, games))) : h("p.note", {}, "None."));
    };
    lists.replaceChildren(group("open", "Waiting for players"), group("running", "Playing"), group("finished", "Finished"));
  }
  function drawTonight() {
    if (!tonight) return;
    const titleOf = (game) => games.find((e) => e.game === game)?.title || title(game);
    tonightSince.textContent = sinceText(tonight.since);
    tonightBox.replaceChildren(standings(tonight, { titleOf }));
  }
  function listed(data, body = null) {
    known = new Map((data?.games || []).map((g) => [g.id, g]));
    tonight = body || tonight;
    drawLists();
    drawTonight();
  }
  // A host that does not answer the watch (or no live link): its lists asked once.
  async function askOnce() {
    try {
      const [data, body] = await Promise.all([api("GET", "/games"), api("GET", "/tonight").catch(() => null)]);
      listed(data, body);
    } catch (err) {
      lists.replaceChildren(h("p.error", {}, err.message));
    }
  }
  const stopWatching = watchLobby({
    onWatch: (ack) => (ack ? listed(ack, ack.tonight) : askOnce()),
    onGame: (entry) => {
      if (!known || !entry?.id) return;
      known.set(entry.id, entry);
      drawLists();
    },
    onTonight: (body) => {
      tonight = body;
      drawTonight();
    },
  });

  root.append(h("div.lobby", {},
    h("header.bar", {}, h("h1", {}, HOST_NAME),
      h("span.controls", {},
        settingsButton(),
        h("a.btn", { href: "/ladder.html", "data-testid": "ladder" }, "Ladder & replays"),
        h("a.btn", { href: "#/invite", "data-testid": "invite", "aria-label": "Invite: show the address as a QR code" }, "Invite"))),
    h("section.card", { "aria-labelledby": "new-game" },
      h("h2", { id: "new-game" }, "New game"),
      form, error),
    h("section.card", { "aria-label": "Games on this host" }, lists),
    h("section.card", { "data-testid": "lobby-tonight", "aria-labelledby": "tonight-title" },
      h("h2", { id: "tonight-title" }, "Tonight ", tonightSince), tonightBox)));
  Promise.all([catalog(), import("./gamecards.js")]).then(([data, { gameCards }]) => {
    games = data.games || [];
    cards = gameCards(games, (game) => choose({ game }));
    if (!games.length) {
      form.replaceChildren(h("p.note", {}, "This host offers no games."));
      return;
    }
    choose({ game: games[0].game });
    if (preset?.game && games.some((e) => e.game === preset.game)) {
      choose({ game: preset.game });
      if (variantOf(entry, preset.variant)) choose({ variantName: preset.variant });
      for (const [name, value] of Object.entries(preset.options || {})) {
        if (!(variant.options || []).some((o) => o.name === name)) continue;
        options[name] = value;
        touched.add(name);
      }
      draw();
      const edited = (variant.options || []).find((o) => o.editor === "board" && preset.options?.[o.name]);
      if (edited) openEditor(edited);
    }
  }).catch((err) => {
    form.replaceChildren();
    error.textContent = `Cannot read the host's games: ${err.message}`;
  }).finally(() => { // the lists name each game by the catalog's titles
    catalogCame = true;
    drawLists();
    drawTonight();
  });
  return stopWatching;
}
