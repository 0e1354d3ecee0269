// Where a match was played and remarks on it, under its end screen. Saved when asked; the
// text is the user's and goes in as text.

import { ipc } from './ipc.js';
import { h, glyph } from './dom.js';
import { t } from './i18n.js';
import { app } from './app.js';

// `current` gives the screen's view of the match as it is now (it may have been read again
// since the form was made): what is saved goes into it, so that Share says the place at once.
export function notesForm(view, current = () => view) {
  const form = h('form', {
    class: 'notes-form', id: 'notes-form',
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        await ipc.setNotes(view.id, place.value, notes.value);
        const now = current();
        if (now) Object.assign(now, { place: place.value.trim() || null, notes: notes.value.trim() || null });
        status.replaceChildren(glyph('✓'), t('saved'));
      } catch (e) { app.error(e); }
    },
  });
  const place = h('input', { id: 'match-place', type: 'text', maxlength: 200, 'data-key': 'match-place' });
  const notes = h('textarea', { id: 'match-notes', rows: 3, maxlength: 5000, 'data-key': 'match-notes' });
  const status = h('span', { class: 'notes-status', role: 'status' });
  place.value = view.place ?? '';
  notes.value = view.notes ?? '';
  // "Saved" is said of what was saved: a change since is not.
  for (const el of [place, notes]) el.addEventListener('input', () => { status.textContent = ''; });
  // A match not started on this device (scored on another, or from before the app knew):
  // what is written here is not sent to the club's hub.
  const local = view.writer === false
    ? h('p', { class: 'hint', id: 'notes-local', text: t('notes_local') }) : null;
  if (local) for (const el of [place, notes]) el.setAttribute('aria-describedby', 'notes-local');
  form.append(
    h('label', { class: 'field', for: 'match-place' }, h('span', { text: t('place') }), place),
    h('label', { class: 'field', for: 'match-notes' }, h('span', { text: t('notes') }), notes),
    ...(local ? [local] : []),
    h('div', { class: 'notes-actions' }, h('button', { class: 'btn', type: 'submit', id: 'save-notes' }, t('save')), status));
  return form;
}
