// The page's router: #/ lobby, #/invite, #/game/<id>, #/setup/<game>/<variant>/<setup> (the
// lobby with a set-up position to edit, from the replay's "Set up from here"). Each screen is
// a module with mount(root, params) returning an optional unmount function.

import { mountLobby } from "./lobby.js";
import { mountInvite } from "./invite.js";
import { mountGame } from "./game.js";

const root = document.getElementById("view");
let unmount = null;

function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [screen, id, extra, more] = hash.split("/");
  if (unmount) unmount();
  unmount = null;
  root.replaceChildren();
  window.scrollTo(0, 0);
  if (screen === "game" && id) unmount = mountGame(root, decodeURIComponent(id), { watch: extra === "watch" });
  else if (screen === "invite") unmount = mountInvite(root, id ? decodeURIComponent(id) : null);
  else if (screen === "setup" && id && extra) {
    unmount = mountLobby(root, { game: decodeURIComponent(id), variant: decodeURIComponent(extra),
      options: { setup: decodeURIComponent(more || "") } });
  } else unmount = mountLobby(root);
}

window.addEventListener("hashchange", route);
route();
