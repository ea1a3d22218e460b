// The Invite view: the host's address on the LAN as a big QR code and as text. `drawInvite`
// is shared with /tv, which shows the same code and address.

import { api } from "./api.js";
import { h } from "./dom.js";

/** Ask the host for its address and QR code (GET /api/invite, `query` e.g. "?game=…") and draw
 *  them into `qr` and `text`. */
export function drawInvite(qr, text, query = "") {
  return api("GET", `/invite${query}`).then((inv) => {
    const url = inv.url || (inv.urls && inv.urls[0]);
    if (url) text.textContent = url;
    if (inv.svg) {
      // The host renders the SVG itself (segno); parse it rather than trusting it as HTML.
      const doc = new DOMParser().parseFromString(inv.svg, "image/svg+xml");
      const svg = doc.documentElement;
      if (svg.nodeName.toLowerCase() === "svg") {
        // Scale the code to the box: give it a viewBox from its own size, then fill the box.
        const w = parseFloat(svg.getAttribute("width"));
        const hgt = parseFloat(svg.getAttribute("height"));
        if (!svg.getAttribute("viewBox") && w && hgt) svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
        svg.setAttribute("width", "100%");
        svg.setAttribute("height", "100%");
        svg.setAttribute("shape-rendering", "crispEdges");
        qr.replaceChildren(document.importNode(svg, true));
      }
    } else if (inv.svg_url || inv.qr) {
      qr.replaceChildren(h("img", { src: inv.svg_url || inv.qr, alt: "" }));
    }
  }).catch(() => {
    qr.replaceChildren(h("p.note", {}, "This host cannot draw a QR code; type the address below."));
  });
}

export function mountInvite(root, gameId) {
  const path = gameId ? `/#/game/${gameId}` : "/";
  const text = h("p.invite-url", { "data-testid": "invite-url" }, location.origin + path);
  const qr = h("div.qr", { "data-testid": "invite-qr", role: "img", "aria-label": "QR code of the address" });
  root.append(h("div.invite", {},
    h("header.bar", {}, h("a.btn", { href: gameId ? `#/game/${gameId}` : "#/", "aria-label": "Back" }, "← Back"),
      h("h1", {}, "Invite")),
    h("p", {}, "Point a phone's camera at the code, or type the address. Phones must be on the same Wi-Fi."),
    qr, text));
  drawInvite(qr, text, gameId ? `?game=${encodeURIComponent(gameId)}` : "");
}
