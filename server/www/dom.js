// @ts-check
// Building the page. Everything a person contributes (names, chat, server sentences) goes in as
// text (textContent), never as HTML: there is no innerHTML anywhere in this client.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An element with attributes and children; strings become text nodes.
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined | ((ev: any) => void)>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} kids
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, kids);
  return node;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string | number | null | undefined>} [attrs]
 * @param {...(Node | string | null | undefined | false)} kids
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...kids) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(node, attrs);
  append(node, kids);
  return node;
}

/** @param {Element} node @param {Record<string, any>} attrs */
function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      node.textContent = String(value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/** @param {Node} node @param {any[]} kids */
function append(node, kids) {
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.appendChild(typeof kid === "object" ? kid : document.createTextNode(String(kid)));
  }
}

/**
 * Replace the children of the element with this id.
 * @param {string} id
 * @param {...(Node | string | null | undefined | false)} kids
 */
export function fill(id, ...kids) {
  const node = byId(id);
  node.replaceChildren();
  append(node, kids);
  return node;
}

/** @param {string} id @returns {HTMLElement} */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`no #${id} on the page`);
  return node;
}

/** @param {string} id @param {boolean} shown */
export function showIf(id, shown) {
  byId(id).hidden = !shown;
}
