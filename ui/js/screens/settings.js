// Settings: language, theme, each game's default rules, and the user's data. Each change is
// saved at once. The screen is made once and patched in place on each redraw.

import { h, glyph, segmented, scheduler } from '../dom.js';
import { t } from '../i18n.js';
import { app } from '../app.js';
import { games, game as gameEntry, gameInfo } from '../games.js';
import { rulesForm } from '../rules-form.js';
import { dataPanel } from '../data-panel.js';

export function mount(root) {
  const forms = new Map(); // game -> its rules form, once its game_info has come
  const saved = new Set();

  function choice(key, label, values, text, extra = {}) {
    return segmented(`set-${key}`, label, values, app.settings[key], text, async (v) => {
      if (await app.saveSetting(key, v)) {
        if (key === 'language') data.redraw();
        render();
      }
    }, extra);
  }

  function rulesBlock(g) {
    const form = forms.get(g);
    if (!form) return null;
    return [
      h('h2', { text: t('default_rules_of', { game: t(`game_${g}`) }) }),
      form.draw(),
      h('button', {
        class: 'btn primary', type: 'button', id: `save-rules-${g}`,
        onclick: async () => {
          const wrong = form.problem();
          if (wrong) { app.error(wrong); return; }
          if (await app.saveSetting('rules', { [g]: form.value() })) { saved.add(g); app.announce(t('saved')); render(); }
        },
      }, saved.has(g) ? [glyph('✓'), t('saved')] : t('save_defaults'))];
  }

  const draw = () => {
    app.title(t('settings'));
    return h('section', { class: 'settings' },
      choice('language', t('language'), ['system', 'fr', 'en'], (v) => (v === 'system' ? t('lang_system') : v === 'fr' ? 'Français' : 'English'),
        { lang: (v) => (v === 'system' ? null : v) }),
      choice('theme', t('theme'), ['system', 'light', 'dark', 'outdoor'], (v) => t(`theme_${v}`)),
      data,
      games().map(rulesBlock));
  };
  // Kept across redraws: it holds the list of files.
  const data = dataPanel();
  const render = scheduler(root, draw);
  render();
  for (const g of games()) {
    const entry = gameEntry(g);
    if (entry.rules === false) continue;
    gameInfo(g).then((info) => {
      forms.set(g, rulesForm(g, info, entry, app.settings.rules?.[g] || {}, () => { saved.delete(g); render(); }, `${g}-`));
      render();
    }).catch((e) => app.error(e, { reading: true }));
  }
  return {};
}
