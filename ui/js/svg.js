// SVG helpers shared by the boards, which are made once and then updated in place.

const SVG = 'http://www.w3.org/2000/svg';

// An SVG element with its attributes (null and false ones left out) and children.
export function el(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) e.setAttribute(k, v);
  e.append(...children.flat().filter(Boolean));
  return e;
}

// An SVG element that is drawing only (a board's wood, lines, arrows, shapes): hidden from
// screen readers, which would otherwise meet it as a nameless image.
export function drawing(tag, attrs, ...children) {
  return el(tag, { ...attrs, 'aria-hidden': 'true' }, ...children);
}

// Sets an attribute, or removes it when `value` is null; untouched when it already holds.
export function attr(e, name, value) {
  if (value == null) e.removeAttribute(name);
  else if (e.getAttribute(name) !== String(value)) e.setAttribute(name, value);
}

// Shows or hides a part that is always there.
export function shown(e, on) {
  attr(e, 'display', on ? null : 'none');
}
