// Start-up, the router between screens, and what every screen shares: the title bar, errors,
// announcements, theme and language.

import { ipc } from './ipc.js';
import { setLanguage, t, errorText, language } from './i18n.js';
import * as home from './screens/home.js';
import * as setup from './screens/setup.js';
import * as match from './screens/match.js';
import * as settings from './screens/settings.js';
import * as historyScreen from './screens/history.js';
import * as players from './screens/players.js';
import * as replay from './screens/replay.js';
import * as club from './screens/club.js';
import * as tournamentNew from './screens/tournament-new.js';
import * as tournament from './screens/tournament.js';
import * as wall from './screens/wall.js';
import { syncText } from './screens/club.js';
import { loadGames } from './games.js';
import { nextScreen, h, onePerPress, UNDO_CALM_MS } from './dom.js';

const screens = {
  home, setup, match, settings, history: historyScreen, players, replay,
  club, 'tournament-new': tournamentNew, tournament, wall,
};
let current = null;
// Each history entry remembers the screen it was opened from (`history.state.from`), for
// `app.back`; an entry put in place of another (`app.replace`) takes over the one it replaced.
let lastRouted = null;
let replacing = null;
// Refusals that mean the screen showed a tournament as it no longer is: it is read again.
const OUT_OF_DATE = ['tournament_changed', 'result_in', 'wrong_round', 'round_open', 'no_table'];
// When each of the notes at the foot of the screen (error, notice, undo) goes away by itself.
const noteTimers = new Map();
// The text on the toast when it is a form's refusal at Start (see `app.formNow`), else null.
let formRefusal = null;

// What a screen shows when what it draws could not be read: why, in the user's words, and
// Retry (never "Loading…" for ever).
export function loadFailed(error, retry, key = null) {
  // `key` names one of several on a screen (its ids are then `load-failed-KEY`, `retry-KEY`).
  const id = (base) => (key ? `${base}-${key}` : base);
  return h('div', { class: 'load-failed', id: id('load-failed') },
    h('p', { class: 'warning', role: 'alert', text: errorText(error, { reading: true }) }),
    h('button', { class: 'btn primary', type: 'button', id: id('retry'), onclick: retry }, t('retry')));
}

export const app = {
  settings: { language: 'system', theme: 'system', rules: {}, last_lineup: [] },
  startup: null,
  // Where the club night stands (the hub joined or run, sync), polled while the app is shown.
  club: null,

  go(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },

  // Goes to `hash` in place of this screen's history entry: a form done with (a tournament
  // created) is not come back to by Back, which goes where the form was opened from.
  replace(hash) {
    if (location.hash === hash) { route(); return; }
    replacing = { from: history.state?.from ?? null };
    location.replace(hash);
  },

  // Goes to `hash` as a step back: to the entry before this one when it is `hash` (Leave on
  // the big screen opened from its tournament), else in place of this entry. Back from there
  // never comes round to this screen again (the big screen, a finished table's match).
  back(hash) {
    if (history.state?.from === hash) history.back();
    else app.replace(hash);
  },

  title(text) {
    document.getElementById('title').textContent = text;
  },

  // Shows a core error in the user's language, long enough to read it (a tap or its ×
  // button puts it away), and says it at once to a screen reader: through a live region that
  // is always there (one shown with its text is often not read), emptied first so that the
  // same error again is said again. `reading`: it came while reading what to show.
  error(e, { form = false, reading = false } = {}) {
    const el = document.getElementById('toast');
    const text = errorText(e, { reading });
    formRefusal = form ? text : null;
    document.getElementById('toast-text').textContent = text;
    document.getElementById('toast-close').setAttribute('aria-label', t('close'));
    showNote(el, Math.max(6000, 70 * text.length));
    const alert = document.getElementById('alert');
    alert.textContent = '';
    requestAnimationFrame(() => (alert.textContent = text));
    // The match or the tournament moved on on another device, or another device scores the
    // match now: the screen shows it as it is.
    if (e?.code === 'scored_elsewhere') current?.elsewhere?.();
    else if (e?.code === 'match_changed') current?.refresh?.();
    else if (OUT_OF_DATE.includes(e?.code)) (current?.outOfDate ?? current?.refresh)?.();
  },

  clearError() {
    hideNote(document.getElementById('toast'));
  },

  /** A form's refusal shown when Start was pressed (`error(e, {form: true})`) is put away once
   * the form no longer has it (`problem`: what the form would refuse now, or null), so that a
   * field corrected is not still called wrong. */
  formNow(problem) {
    const el = document.getElementById('toast');
    if (formRefusal == null || el.hidden) return;
    if (problem && errorText(problem) === formRefusal) return;
    formRefusal = null;
    hideNote(el);
  },

  // One user action at a time on a screen: `st.busy` keeps further taps off while `task` runs,
  // a refusal is shown in the user's language, and the screen is drawn again either way.
  // `calm` (ms) keeps them off for that long after it ends too: an undo answers in
  // milliseconds, and the second tap of a double tap would take back another action, or land
  // on what the undo brought back under the finger (the scorepad's Foul, after the end screen).
  async exclusive(st, render, task, { calm = 0 } = {}) {
    if (st.busy || performance.now() < (st.calmUntil ?? 0)) return;
    st.busy = true;
    try {
      await task();
    } catch (e) {
      app.error(e);
    } finally {
      st.busy = false;
      if (calm) st.calmUntil = performance.now() + calm;
      render();
    }
  },

  // A message that is not an error (a copied text, where a file was written): shown apart from
  // errors and said politely, where an error interrupts.
  notice(text) {
    const el = document.getElementById('notice');
    document.getElementById('notice-text').textContent = text;
    // Put away by a tap anywhere on it, or from the keyboard by its own button.
    document.getElementById('notice-close').setAttribute('aria-label', t('close'));
    showNote(el, 8000);
    app.announce(text);
  },

  // Offers to take back what was just done (a discarded match), for a few seconds; `focus`
  // gives its Undo the focus (the control that did it went with what it did). `onUndo` says
  // whether it took it back: one that failed (it showed why) stays offered, to try again. Offers made
  // while the bar is up wait under the latest: Undo takes back the latest, then the bar offers
  // the one before it, so a second discard does not make the first one final.
  offerUndo(text, onUndo, { focus = false } = {}) {
    undoable.push({ text, onUndo });
    showUndo(focus);
    // A region shown from hidden is often not read: said aloud instead.
    app.announce(text);
  },

  // Polite screen-reader announcement of what a tap did.
  announce(text) {
    const el = document.getElementById('announce');
    el.textContent = '';
    requestAnimationFrame(() => (el.textContent = text));
  },

  applySettings(s) {
    app.settings = s;
    setLanguage(s.language);
    const theme = s.theme === 'system'
      ? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')
      : s.theme;
    document.documentElement.dataset.theme = theme;
    document.getElementById('nav-back').setAttribute('aria-label', t('back'));
    document.getElementById('nav-settings').setAttribute('aria-label', t('settings'));
    showBanner();
  },

  async saveSetting(key, value) {
    try {
      app.applySettings(await ipc.setSetting(key, value));
      return true;
    } catch (e) {
      app.error(e);
      return false;
    }
  },
};

// `say`: at start, where the banner first shows; a settings change only redraws it in the
// new language.
function showBanner(say = false) {
  const el = document.getElementById('banner');
  const s = app.startup;
  if (s?.database === 'recovered') {
    el.textContent = t('db_recovered', { path: s.moved_to });
    el.hidden = false;
  } else if (s?.database === 'unavailable') {
    el.textContent = t('db_unavailable', { detail: errorText(s.error) });
    el.hidden = false;
  } else {
    el.hidden = true;
    return;
  }
  // A region shown from hidden is often not read: said aloud too.
  if (say) app.announce(el.textContent);
}

// The notes at the foot of the screen stack in one strip, and the screen makes room for it:
// its bottom bars (Throw, Score the round, Start) stand above the strip and its last lines
// scroll clear of it, so a note never covers what the next tap needs.
// What the undo bar can still take back, the latest last; emptied when the bar's time is up.
const undoable = [];
// While an undo runs, and for a moment after the bar offers the one before it, a tap or a
// held Enter on the Undo that takes its place is not a second undo: a double tap takes back
// one thing.
let undoCalmUntil = 0;

function showUndo(focus) {
  const bar = document.getElementById('undo-bar');
  const top = undoable[undoable.length - 1];
  if (!top) {
    hideNote(bar);
    return;
  }
  bar.replaceChildren();
  const label = document.createElement('span');
  label.textContent = top.text;
  const btn = document.createElement('button');
  btn.className = 'btn small';
  btn.type = 'button';
  btn.id = 'undo-last';
  btn.textContent = t('undo');
  btn.addEventListener('click', async () => {
    if (performance.now() < undoCalmUntil) return;
    undoCalmUntil = Infinity;
    const keyboard = document.activeElement === btn;
    const entry = undoable.pop();
    const next = undoable[undoable.length - 1];
    let done = false;
    try {
      done = (await entry.onUndo()) !== false;
    } finally {
      undoCalmUntil = performance.now() + UNDO_CALM_MS;
    }
    // A discard made while this undo ran has drawn the bar already (with its own focus).
    if (undoable[undoable.length - 1] !== next) {
      if (!done) undoable.splice(undoable.indexOf(next) + 1, 0, entry);
      return;
    }
    if (!done) {
      // Not taken back: still offered, not the one before it (a second tap would bring back
      // another match than the one asked for).
      undoable.push(entry);
      showUndo(keyboard);
    } else if (next) {
      showUndo(keyboard);
      app.announce(next.text);
    } else {
      hideNote(bar);
    }
  });
  // A held Enter repeats its key: one undo, not one for each repeat.
  btn.addEventListener('keydown', onePerPress);
  bar.append(label, btn);
  showNote(bar, 10000);
  if (focus) btn.focus();
}

function showNote(el, ms) {
  el.hidden = false;
  clearTimeout(noteTimers.get(el));
  // Not while the focus is in it: someone who reached the bar's Undo from the keyboard or a
  // screen reader is not beaten to it by its clock (it went, and the focus with it).
  const due = () => {
    if (!el.hidden && el.contains(document.activeElement)) noteTimers.set(el, setTimeout(due, 2000));
    else hideNote(el);
  };
  noteTimers.set(el, setTimeout(due, ms));
  layoutNotes();
}

function hideNote(el) {
  clearTimeout(noteTimers.get(el));
  if (el.id === 'undo-bar') undoable.length = 0;
  // A note that goes with the focus in it (the undo bar's time is up) gives it to the screen.
  const had = el.contains(document.activeElement);
  el.hidden = true;
  if (had) document.getElementById('screen').focus({ preventScroll: true });
  layoutNotes();
}

function layoutNotes() {
  const strip = document.getElementById('notices');
  strip.hidden = [...strip.children].every((c) => c.hidden);
  const room = strip.hidden ? 0 : strip.getBoundingClientRect().height;
  document.documentElement.style.setProperty('--note-room', `${Math.ceil(room)}px`);
}

function parseHash() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  return { name: parts[0] || 'home', args: parts.slice(1) };
}

function route() {
  if (history.state == null) history.replaceState(replacing ?? { from: lastRouted }, '');
  replacing = null;
  lastRouted = location.hash;
  const { name, args } = parseHash();
  const screen = screens[name] || home;
  current?.unmount?.();
  nextScreen();
  app.clearError();
  const root = document.getElementById('screen');
  root.replaceChildren();
  document.body.dataset.screen = screens[name] ? name : 'home';
  document.getElementById('nav-back').hidden = screen === home;
  current = screen.mount(root, args) || null;
  // The control that led here went with the last screen (or is the header's): the keyboard and
  // the screen reader start again at the top of the new one, unless it focused a field itself.
  if (!root.contains(document.activeElement)) root.focus({ preventScroll: true });
}

// The club night's status, every 1.5 s while the app is in view: the title bar's chip says
// where sync stands on every screen, and a screen that shows shared records (a tournament, the
// club list, the big screen) draws again when the database moved under it: results pushed by
// phones to this device's hub, or records pulled from the hub it joined.
const CLUB_EVERY = 1500;
let clubSeq = null;
let clubKey = null;
let clubTimer = null;
// A poll asked for at once (a join, a leave) may overtake the timer's: the latest one wins,
// so an older status never shows "not joined" after a join, or the hub on after Stop.
let pollNo = 0;
async function pollClub() {
  clearTimeout(clubTimer);
  const mine = ++pollNo;
  if (document.visibilityState === 'visible') {
    try {
      const s = await ipc.clubStatus();
      if (mine !== pollNo) return;
      app.club = s;
      showSyncChip(s);
      const key = JSON.stringify([s.joined?.hub, s.sync.state, s.waiting, s.sync.error, s.sync.refused.map((r) => `${r.id}:${r.kind}`),
        Math.floor((s.sync.last_sync ?? 0) / 60000), s.host?.address, s.host?.this_device_only, s.host_error]);
      if (key !== clubKey) { clubKey = key; current?.onClub?.(s); }
      if (clubSeq !== null && s.data_seq !== clubSeq) current?.onData?.();
      clubSeq = s.data_seq;
    } catch {
      // No database: the banner says so already. The chip says nothing rather than a state
      // it can no longer read.
      if (mine === pollNo) document.getElementById('sync-chip').hidden = true;
    }
  }
  // One loop of polls: an overtaken poll leaves the timer to the one that overtook it.
  if (mine === pollNo) clubTimer = setTimeout(pollClub, CLUB_EVERY);
}
// A join, a leave or the hub started: the chip says so at once.
app.clubChanged = () => pollClub();

// The sync's state last said aloud (null: nothing said yet, the app just opened).
let syncSaid = null;

function showSyncChip(s) {
  const chip = document.getElementById('sync-chip');
  const text = syncText(s, true);
  chip.hidden = !text;
  if (!text) return;
  const bad = s.joined && ['unreachable', 'unauthorized', 'failing', 'refused', 'device'].includes(s.sync.state);
  // A sync that starts or stops failing is said aloud: the chip changing colour is not heard.
  // (Not on the club-night screen, whose own status line says it.)
  const state = bad ? s.sync.state : 'ok';
  if (syncSaid !== null && state !== syncSaid && document.body.dataset.screen !== 'club') app.announce(syncText(s));
  syncSaid = state;
  chip.dataset.state = s.joined ? (bad ? 'bad' : s.waiting > 0 ? 'waiting' : 'ok') : 'host';
  if (chip.textContent !== text) chip.textContent = text;
  const last = s.sync.last_sync ? t('sync_last_at', { time: new Date(s.sync.last_sync).toLocaleTimeString(language(), { hour: '2-digit', minute: '2-digit' }) }) : '';
  // The name starts with the words the chip shows (voice control is told what is seen, WCAG
  // 2.5.3), then says them in full where the chip shortens them.
  const full = syncText(s);
  chip.setAttribute('aria-label', [t('club_night'), text, full !== text ? full : '', last].filter(Boolean).join(' · '));
}

// Keep the screen awake while a match is on, where the platform offers it.
let wakeLock = null;
export async function keepAwake(on) {
  try {
    if (on && !wakeLock && navigator.wakeLock) {
      wakeLock = await navigator.wakeLock.request('screen');
      wakeLock.addEventListener('release', () => (wakeLock = null));
    } else if (!on && wakeLock) {
      await wakeLock.release();
      wakeLock = null;
    }
  } catch {
    wakeLock = null; // Not allowed here (battery saver, no support): the match goes on.
  }
}

async function start() {
  try {
    app.applySettings(await ipc.settings());
  } catch (e) {
    app.applySettings(app.settings);
    app.error(e, { reading: true });
  }
  try {
    app.startup = await ipc.appStatus();
  } catch (e) {
    app.error(e);
  }
  showBanner(true);
  document.getElementById('nav-back').addEventListener('click', () => {
    if (history.length > 1 && parseHash().name !== 'match') history.back();
    else app.go('#/home');
  });
  document.getElementById('nav-settings').addEventListener('click', () => app.go('#/settings'));
  document.getElementById('toast').addEventListener('click', () => app.clearError());
  document.getElementById('notice').addEventListener('click', (ev) => hideNote(ev.currentTarget));
  // A note that wraps to more lines (a narrower window, a longer text) takes more room.
  new ResizeObserver(layoutNotes).observe(document.getElementById('notices'));
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => app.applySettings(app.settings));
  // Back from the background: the screen reloads what Rust has, which is what was committed.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') current?.refresh?.();
  });
  // On the club-night screen the chip leads to its status line (going there again would
  // reload the screen: a half-typed link lost, a join under way asked twice).
  document.getElementById('sync-chip').addEventListener('click', () => {
    const here = document.body.dataset.screen === 'club'
      && (document.getElementById('sync-state') ?? document.getElementById('host-title'));
    if (here) { here.setAttribute('tabindex', '-1'); here.focus(); } else app.go('#/club');
  });
  window.addEventListener('hashchange', route);
  // The games' own modules (their screens, setup blocks, replay) register before any screen.
  try { await loadGames(); } catch (e) { app.error(e); }
  route();
  pollClub();
}

start();
