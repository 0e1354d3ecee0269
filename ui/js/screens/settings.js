// Settings: language, theme, default rules, and the user's data. Each change is saved at once.

import { h, segmented } from '../dom.js';
import { t } from '../i18n.js';
import { app } from '../app.js';
import { rulesForm } from '../molkky-rules.js';
import { crokinoleForm } from '../crokinole-rules.js';
import { dataPanel } from '../data-panel.js';

export function mount(root) {
  function choice(key, label, values, text) {
    return segmented(`set-${key}`, label, values, app.settings[key], text, async (v) => { if (await app.saveSetting(key, v)) draw(); });
  }

  function draw() {
    app.title(t('settings'));
    const form = rulesForm(app.settings.rules?.molkky || {}, () => {});
    const cro = crokinoleForm(app.settings.rules?.crokinole || {}, () => {});
    const save = (game, f, id) => h('button', {
      class: 'btn primary', type: 'button', id,
      onclick: async (ev) => {
        if (await app.saveSetting('rules', { ...app.settings.rules, [game]: f.value() })) {
          ev.target.textContent = `✓ ${t('saved')}`;
        }
      },
    }, t('save_defaults'));
    root.replaceChildren(h('section', { class: 'settings' },
      choice('language', t('language'), ['system', 'fr', 'en'], (v) => (v === 'system' ? t('lang_system') : v === 'fr' ? 'Français' : 'English')),
      choice('theme', t('theme'), ['system', 'light', 'dark', 'outdoor'], (v) => t(`theme_${v}`)),
      data,
      h('h2', { text: t('default_rules') }),
      form.element,
      save('molkky', form, 'save-rules'),
      h('h2', { text: t('default_rules_crokinole') }),
      cro.element,
      save('crokinole', cro, 'save-rules-crokinole')));
  }
  // Kept across redraws: it holds the list of files.
  const data = dataPanel();
  draw();
  return {};
}
