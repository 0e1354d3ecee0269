// Tiny DOM helpers. Text always goes in through text nodes, never as HTML, because most of
// what is shown (player names) was typed by users.

export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// Batches redraws into one animation frame and keeps keyboard focus across the redraw on the
// element with the same data-key, or else the same id. A screen that keeps its frame (and
// returns the same nodes) is left in place: moving a node out and back would drop a press on it.
export function scheduler(root, draw) {
  let pending = false;
  return function render() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      const focused = document.activeElement;
      const key = focused && root.contains(focused) ? focusKey(focused) : null;
      const nodes = [draw()].flat().filter(Boolean);
      const same = nodes.length === root.childNodes.length && nodes.every((n, i) => n === root.childNodes[i]);
      if (!same) root.replaceChildren(...nodes);
      if (key && !focused.isConnected) root.querySelector(key)?.focus();
    });
  };
}

// A selector that finds an element's counterpart after a redraw, if it has a stable name.
function focusKey(el) {
  if (el.dataset?.key) return `[data-key="${CSS.escape(el.dataset.key)}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  return null;
}

// A shuffled copy (Fisher-Yates): a random throwing order or seed order.
export function shuffled(list) {
  const a = list.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

export function names(side) {
  return side.join(' · ');
}

// A row of toggle buttons, one pressed (a "segmented control"): `id` prefixes each button's id
// (`${id}-${value}`), `text` labels a value, `pick` is called with the value tapped.
export function segmented(id, label, values, current, text, pick, extra = {}) {
  return h('fieldset', { class: 'segmented' }, h('legend', { text: label }),
    values.map((v) => h('button', {
      type: 'button', class: 'seg', id: `${id}-${v}`, 'aria-pressed': String(current === v),
      ...(extra.keyed ? { 'data-key': `${id}-${v}` } : {}),
      onclick: () => pick(v),
    }, text(v))));
}
