// The page's router: #/ lobby, #/invite, #/game/<id>. Each screen is a module with
// mount(root, params) returning an optional unmount function.

import { mountLobby } from "./lobby.js";
import { mountInvite } from "./invite.js";
import { mountGame } from "./game.js";

const root = document.getElementById("view");
let unmount = null;

function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [screen, id, extra] = hash.split("/");
  if (unmount) unmount();
  unmount = null;
  root.replaceChildren();
  window.scrollTo(0, 0);
  if (screen === "game" && id) unmount = mountGame(root, decodeURIComponent(id), { watch: extra === "watch" });
  else if (screen === "invite") unmount = mountInvite(root, id ? decodeURIComponent(id) : null);
  else unmount = mountLobby(root);
}

window.addEventListener("hashchange", route);
route();
