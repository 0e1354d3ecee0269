// Club night: the tournaments on this device, and a new one in a tap.

import { ipc } from '../ipc.js';
import { h, scheduler } from '../dom.js';
import { t, ago } from '../i18n.js';
import { app } from '../app.js';

export function mount(root) {
  app.title(t('club_night'));
  const st = { items: null };

  const row = (item) => h('li', { class: 'match-row' }, h('button', {
    class: 'match-open', type: 'button', 'data-tournament': item.id, onclick: () => app.go(`#/tournament/${item.id}`),
  },
  h('span', { class: 'match-game', text: `${t(`game_${item.game}`)} · ${t(`system_${item.system}`)}` }),
  h('span', { class: 'match-sides', text: item.champion ? `★ ${item.champion}` : t('entrants_n', { n: item.entrants }) }),
  h('span', { class: 'match-score', text: t(`t_status_${item.status}`) }),
  h('span', { class: 'match-when', text: ago(item.created_at) })));

  const draw = () => h('section', { class: 'club' },
    h('button', { class: 'btn primary big', type: 'button', id: 'new-tournament', onclick: () => app.go('#/tournament-new') }, t('new_tournament')),
    h('h2', { text: t('tournaments') }),
    st.items == null ? h('p', { class: 'empty', text: t('loading') })
      : st.items.length ? h('ul', { class: 'match-list', id: 'tournament-list' }, st.items.map(row))
        : h('p', { class: 'empty', text: t('no_tournament_yet') }));
  const render = scheduler(root, draw);
  const load = () => ipc.tournaments().then((items) => { st.items = items; render(); }).catch((e) => app.error(e));
  render();
  load();
  return { refresh: load };
}
