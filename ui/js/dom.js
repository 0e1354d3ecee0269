// Tiny DOM helpers. Text always goes in through text nodes, never as HTML, because most of
// what is shown (player names) was typed by users.

// Which redraw is drawing. An element made during a redraw may be merged into the one on
// screen in its place; an element made outside any redraw (a field, a form or a board that a
// screen makes once and keeps) is put in place as it is, and never merged into.
let drawing = 0;
let inDraw = false;

export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  el._made = inDraw ? drawing : -1;
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') listen(el, k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/** A symbol beside a button's words (↶ Undo): seen, not read aloud before the words. */
export function glyph(symbol) {
  return h('span', { class: 'glyph', 'aria-hidden': 'true', text: `${symbol} ` });
}

/** A whole-number field with its label (`props` go on the input), and what is wrong with it
 * (`error`, text, or null) said under it and tied to it: beside the label, not in it, where it
 * was read as part of the field's name. Made in a redraw or made once and kept (then
 * `markField` says what changes). `alert`: the error is read out as it comes (not when a
 * refusal said elsewhere, a toast, already reads it). */
export function numberField(id, title, props, error = null, alert = true) {
  const group = h('div', { class: 'field-group' },
    h('label', { class: 'field', for: id }, h('span', { text: title }),
      h('input', { id, type: 'number', inputmode: 'numeric', ...props })));
  markField(group, error, alert);
  return group;
}

/** Says `error` (text, or null: the field is right) under a field `numberField` made. */
export function markField(group, error, alert = true) {
  const input = group.querySelector('input');
  let said = group.querySelector(':scope > .field-error');
  if (!error) {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
    said?.remove();
    return;
  }
  if (!said) group.append(said = h('span', { class: 'field-error', id: `${input.id}-error`, role: alert ? 'alert' : null }));
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', said.id);
  if (said.textContent !== error) said.textContent = error;
}

// An SVG element, made like `h` makes an HTML one (so a redraw patches it in place too).
export function svgh(tag, props, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  el._made = inDraw ? drawing : -1;
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') listen(el, k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

// Handlers live on the element (`_on`) behind one listener per event type, so that a redraw
// that keeps an element (see `patch`) hands it the new handlers, which see the new state.
export function listen(el, type, f) {
  (el._on ||= {})[type] = f;
  el.addEventListener(type, dispatch);
}

function dispatch(ev) {
  return this._on?.[ev.type]?.call(this, ev);
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? standIn(c) : document.createTextNode(String(c)));
  }
}

// A kept element on screen (a field a screen made once) named in a new parent during a redraw
// is not moved into it: taken out of the page, even for a moment, it would lose the focus (the
// phone's keyboard closes) and any press on it. The new parent holds a stand-in, and the patch
// puts the element itself where the stand-in says, moving it only when its place changed.
function standIn(c) {
  if (!inDraw || c._made !== -1 || !c.isConnected) return c;
  const s = document.createComment('kept');
  s._kept = c;
  return s;
}

// The element a stand-in stands for (any other node is itself).
const real = (n) => n._kept || n;

// A new subtree goes in with its stand-ins replaced by the kept elements they stand for.
function resolve(n) {
  if (n._kept) return n._kept;
  if (n.nodeType === 1) {
    const walker = document.createTreeWalker(n, NodeFilter.SHOW_COMMENT);
    const found = [];
    while (walker.nextNode()) if (walker.currentNode._kept) found.push(walker.currentNode);
    for (const s of found) s.replaceWith(s._kept);
  }
  return n;
}

// Which screen is up. A screen's redraws stop once another has taken its place, so that an
// answer that comes after the person left (a slow list, a late poll) cannot draw the old screen
// over the new one in the shared root.
let screenNo = 0;

/** Called by the router before it mounts a screen: the screens before it draw no more. */
export function nextScreen() {
  screenNo += 1;
}

/** For a screen's own late answers (a title, an error): whether the screen mounted when this
 * was called is still the one up. */
export function stillUp() {
  const mine = screenNo;
  return () => mine === screenNo;
}

/** What an answer asked for after a newer one of the same kind resolves to (see `latest`). */
export const STALE = Symbol('stale');

/** For answers asked again as the user changes what is asked (a search, a filter, a player):
 * `ask(promise)` gives the promise's answer, or STALE when another was asked since, whose
 * answer is the one to show. A refusal comes through either way. */
export function latest() {
  let asked = 0;
  return async (promise) => {
    const mine = ++asked;
    const answer = await promise;
    return mine === asked ? answer : STALE;
  };
}

/** For a screen whose loads (what Rust has, read again: back to the front, a poll) race its
 * own actions' answers, or read in several steps: a load takes `const still = loads.asked()`
 * before its first await and shows what it read only if `still()` after its last; an action
 * whose answer the screen takes calls `loads.took()`. A load is no one's once a later one was
 * asked, or a view taken since it was asked (it may read the match or tournament as it was). */
export function loads() {
  let asked = 0;
  let taken = 0;
  return {
    asked() {
      const mine = ++asked;
      const since = taken;
      return () => mine === asked && since === taken;
    },
    took() { taken += 1; },
  };
}

// A button that takes two taps (one that cannot be undone, or whose undo costs much): the
// first arms it for a few seconds, its words asking again; the second does it. A tap in the
// first half second after arming is the second tap of a double tap, not a confirmation.
// `render` redraws once the arming lapses, and once the confirming tap is taken (the button
// no longer asks again while what it does runs). `tap(key)` says what this tap did: 'armed',
// 'confirmed', or null (the second tap of a double tap); `is(key)` whether `key` is armed now.
// Such a button takes `onePerPress` too: a held Enter repeats its click past the half second.
const CONFIRM_CALM_MS = 500;

// How long a screen takes no tap after an undo ([`app.exclusive`]'s `calm`): a double tap on
// Undo takes back one action.
export const UNDO_CALM_MS = 600;

// How long after an answer a tap on the same place as the one that was answered is taken for
// the second tap of a double tap (dom.js's board screens): a person's double tap is under it,
// a second deliberate tap on one place (placing where a piece was just taken) well over it.
export const TAP_CALM_MS = 450;
export function twoTaps(render, lapseMs = 4000) {
  let armed = null;
  let since = 0;
  let timer = null;
  return {
    is: (key) => armed === key,
    tap(key) {
      if (armed === key) {
        if (performance.now() - since < CONFIRM_CALM_MS) return null;
        armed = null;
        clearTimeout(timer);
        render();
        return 'confirmed';
      }
      armed = key;
      since = performance.now();
      clearTimeout(timer);
      timer = setTimeout(() => { if (armed === key) { armed = null; render(); } }, lapseMs);
      render();
      return 'armed';
    },
  };
}

// A held Enter or Space repeats its key, and each repeat is a click: one action a press.
export function onePerPress(ev) {
  if (ev.repeat && (ev.key === 'Enter' || ev.key === ' ')) ev.preventDefault();
}

// Batches redraws into one animation frame and keeps keyboard focus across the redraw on the
// element with the same data-key, or else the same id. A screen that keeps its frame (and
// returns the same nodes) is left in place: moving a node out and back would drop a press on it.
//
// `render.focusOn(selector)` draws, then puts the focus on what the selector finds: for a
// control that moves with what it acts on (an entrant moved down the order) or a panel closed
// back to the control that opened it.
export function scheduler(root, draw) {
  let pending = false;
  let wanted = null;
  // The focus had nowhere to go but the top of the screen (the panel it was in went: the
  // computer's turn took the person's controls away). The first redraw that gives a panel a
  // place for it (`data-focus`) puts it there, unless the person put it somewhere since.
  let parked = false;
  const up = stillUp();
  function render() {
    if (pending || !up()) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      if (!up()) return;
      const focused = document.activeElement;
      const inside = focused && focused !== root && root.contains(focused);
      const key = inside ? focusKey(focused) : null;
      drawing += 1;
      inDraw = true;
      let drawn;
      try { drawn = draw(); } finally { inDraw = false; }
      const nodes = [drawn].flat().filter(Boolean);
      const same = nodes.length === root.childNodes.length && nodes.every((n, i) => n === root.childNodes[i]);
      if (!same) patchChildren(root, nodes);
      const target = wanted && root.querySelector(wanted);
      wanted = null;
      const screen = document.getElementById('screen');
      if (parked && document.activeElement !== screen) parked = false;
      if (target) target.focus();
      else if (inside && !usable(focused)) parked = refocus(root, focused, key) === 'parked';
      else if (parked) {
        const panel = root.querySelector('[data-focus]');
        if (panel && usable(panel)) {
          panel.focus();
          parked = false;
        }
      }
      // Still there and usable, but moved to a new place on the way (its container was made
      // anew): the focus comes back to it.
      else if (inside && document.activeElement !== focused) focused.focus({ preventScroll: true });
    });
  }
  render.focusOn = (selector) => {
    wanted = selector;
    render();
  };
  return render;
}

// Whether the focus can stay on `el`: on the page, not disabled, not hidden, and focusable (a
// title or a board point with tabindex -1 counts; a ball whose tabindex was taken does not).
function usable(el) {
  if (!el.isConnected || el.disabled || el.closest('[hidden], [inert]')) return false;
  return el.hasAttribute('tabindex') || el.tabIndex >= 0;
}

const CONTROLS = 'button, [href], input, select, textarea, summary, [tabindex]';

// The focus was on a control the redraw took away or made unusable (Confirm with no pin down,
// − at 0, the last step of a replay): it goes, in this order, to the control's counterpart;
// to the place the control names (`data-focus-next`: the end screen's Undo names the game's);
// to its nearest usable neighbour in the same group (− to +); to the place the new panel names
// (`data-focus`: its title, or the control the person came from); else to the top of the
// screen. Never lost to the page.
function refocus(root, focused, key) {
  const again = key && root.querySelector(key);
  if (again && again !== focused && usable(again)) return again.focus();
  const named = focused.dataset?.focusNext && root.querySelector(focused.dataset.focusNext);
  const next = (named && usable(named) && named) || (focused.isConnected && neighbour(root, focused));
  if (next) return next.focus();
  const panel = root.querySelector('[data-focus]');
  if (panel) return panel.focus();
  document.getElementById('screen')?.focus({ preventScroll: true });
  return 'parked';
}

// The next usable control after `el` in its group, else the one before it, looking in ever
// wider groups up to the screen.
function neighbour(root, el) {
  for (let box = el.parentElement; box && root.contains(box); box = box.parentElement) {
    const all = [...box.querySelectorAll(CONTROLS)].filter((c) => c !== el && c.tabIndex >= 0 && usable(c));
    const after = all.find((c) => el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING);
    const before = all.filter((c) => el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_PRECEDING).pop();
    if (after || before) return after || before;
    if (box === root) break;
  }
  return null;
}

// Makes the children of `parent` look like `nodes` while keeping the elements already there:
// an element is matched by its id or data-key, else by its place and tag, and updated in place
// (attributes, text, form values, handlers), so that a finger pressed on a button while the
// screen redraws still lands on it. New elements are put in; those left over go.
export function patchChildren(parent, nodes) {
  nodes = nodes.map(real);
  const old = [...parent.childNodes];
  const keyed = new Map();
  for (const c of old) {
    const k = nodeKey(c);
    if (k) keyed.set(k, c);
  }
  // First which element on screen each wanted node becomes (an unkeyed one takes the first
  // node on screen not yet taken, if it is alike), ...
  const used = new Set();
  let cursor = 0;
  const here = () => {
    while (cursor < old.length && used.has(old[cursor])) cursor += 1;
    return old[cursor] || null;
  };
  const plan = nodes.map((want) => {
    const k = nodeKey(want);
    let have = null;
    if (!fresh(want)) {
      // Kept by its screen: it goes in as it is, wherever it was.
      keyed.delete(k);
      used.add(want);
      return [want, null];
    }
    if (k) {
      have = keyed.get(k) || null;
      keyed.delete(k);
      if (have && !disposable(have)) have = null;
    } else {
      const at = here();
      if (at && !nodeKey(at) && disposable(at) && at.nodeName === want.nodeName) have = at;
    }
    if (have) used.add(have);
    return have ? [have, want] : [resolve(want), null];
  });
  // ...then those left over go, before anything is placed: the ones that stay keep their order
  // and are not moved (a move takes a node out and back, dropping the focus and a press)...
  for (const c of old) if (!used.has(c)) c.remove();
  // ...and each goes to its place, moved only when it is not there yet.
  plan.forEach(([node, want], i) => {
    const at = parent.childNodes[i] || null;
    if (at !== node) parent.insertBefore(node, at);
    if (want) patch(node, want);
  });
  while (parent.childNodes.length > plan.length) parent.lastChild.remove();
}

// Made during this redraw (text is always taken as new).
function fresh(n) {
  return n.nodeType === 3 || n._made === drawing;
}

// On screen and made by an earlier redraw: it may take a new element's looks.
function disposable(n) {
  return n.nodeType === 3 || n._made >= 0;
}

function nodeKey(n) {
  if (n.nodeType !== 1) return null;
  return n.dataset?.key ? `k:${n.dataset.key}` : n.id ? `#${n.id}` : null;
}

function patch(have, want) {
  if (have.nodeType === 3) {
    if (have.data !== want.data) have.data = want.data;
    return;
  }
  if (have.nodeType !== 1 || have.nodeName !== want.nodeName) {
    have.replaceWith(resolve(want));
    return;
  }
  for (const a of [...have.attributes]) if (a.name !== 'style' && !want.hasAttribute(a.name)) have.removeAttribute(a.name);
  for (const a of want.attributes) if (a.name !== 'style' && have.getAttribute(a.name) !== a.value) have.setAttribute(a.name, a.value);
  // Styles go through the CSSOM: the content security policy refuses style attributes.
  if (have.style && want.style && have.style.cssText !== want.style.cssText) have.style.cssText = want.style.cssText;
  if ('value' in want && (have.tagName === 'INPUT' || have.tagName === 'TEXTAREA' || have.tagName === 'SELECT')) {
    // What the person is typing stays; otherwise the field shows what the screen says.
    if (document.activeElement !== have && have.value !== want.value) have.value = want.value;
    if (have.checked !== want.checked) have.checked = want.checked;
  }
  if (want._on || have._on) {
    have._on = want._on || {};
    for (const type of Object.keys(have._on)) have.addEventListener(type, dispatch);
  }
  patchChildren(have, [...want.childNodes]);
}

// A selector that finds an element's counterpart after a redraw, if it has a stable name.
function focusKey(el) {
  if (el.dataset?.key) return `[data-key="${CSS.escape(el.dataset.key)}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  return null;
}

/** Where the focus goes with a row moved from `from` to `to` of `count` by its arrow (Move
 * up, Move down): on the same arrow, unless the row is now at that end, where that arrow is
 * grey; then on the other. */
export function movedArrow(from, to, count) {
  const down = to > from;
  const atEnd = down ? to === count - 1 : to === 0;
  return `[data-key="${down !== atEnd ? 'down' : 'up'}-${to}"]`;
}

/** A name as compared by eye: without case or accents, so that "zoe" finds Zoé (Rust's
 * `store::players::folded` is the same). */
export const foldName = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** The known players a typed name may mean, those it starts first; all of them while nothing
 * is typed. */
export function knownMatching(known, typed) {
  const part = foldName(typed);
  if (!part) return known;
  const starts = [];
  const within = [];
  for (const p of known) {
    const name = foldName(p.name);
    if (name.startsWith(part)) starts.push(p);
    else if (name.includes(part)) within.push(p);
  }
  return [...starts, ...within];
}

/** Where the focus goes when the known player's chip `k` of `chips` is taken into the line-up
 * (and goes from the list): the next chip, else the one before, else `field`. */
export function chipAfter(chips, k, field) {
  const next = chips[k + 1] ?? chips[k - 1];
  return next ? `[data-player="${CSS.escape(next.name)}"]` : field;
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
      // A choice in another language (a language's own name) is spoken in that language.
      ...(extra.lang?.(v) ? { lang: extra.lang(v) } : {}),
      onclick: () => pick(v),
    }, text(v))));
}
