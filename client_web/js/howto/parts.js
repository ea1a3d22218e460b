// The parts every how-to-play guide is made of: a section with its heading, a figure of one
// or more small pictures with a caption under each, and a list of short points.

import { h } from "/js/dom.js";

/** A section: its heading, then its paragraphs (strings) and parts (elements). */
export const section = (heading, ...parts) => h("section.howto-part", {},
  h("h3", {}, heading), parts.flat().map((p) => (typeof p === "string" ? h("p", {}, p) : p)));

/** A row of pictures, each [svg, caption], that wraps on a narrow phone. */
export const figure = (...pictures) => h("div.howto-figures", {},
  pictures.map(([pic, caption]) => h("figure.howto-figure", {}, pic, h("figcaption", {}, caption))));

/** A list of short points. */
export const points = (...items) => h("ul.howto-points", {}, items.map((i) => h("li", {}, i)));
