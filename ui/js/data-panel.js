// "Your data": export the whole history (records or CSV), back it up, and import or restore
// from the files in the Partie folder. Nothing leaves the device unless the user takes a file.

import { ipc } from './ipc.js';
import { h, scheduler, onePerPress, twoTaps } from './dom.js';
import { t } from './i18n.js';
import { app } from './app.js';

export function dataPanel() {
  const box = h('section', { class: 'data-panel', id: 'data-panel' });
  let files = [];
  // A restore asks twice: it replaces the whole history. A second tap within half a second of
  // the first, or a held Enter, is not the second asking (it restored at once).
  const confirm = twoTaps(() => draw());
  let busy = false; // one file at a time: a double tap neither writes two files nor imports twice

  async function once(task) {
    if (busy) return;
    busy = true;
    try { await task(); } catch (e) { app.error(e); } finally { busy = false; }
  }

  function written(ask) {
    return once(async () => {
      const w = await ask();
      app.notice(t('file_written', { path: w.path }));
      await refresh();
    });
  }

  async function refresh() {
    try { files = await ipc.listFiles(); } catch (e) { app.error(e, { reading: true }); }
    draw();
  }

  function fileRow(name) {
    const backup = name.endsWith('.partie-backup');
    return h('li', { class: 'file-row', 'data-file': name, 'data-key': `file-${name}` },
      h('span', { class: 'file-name', text: name }),
      backup
        ? h('button', {
          class: confirm.is(name) ? 'btn small armed' : 'btn small', type: 'button', 'data-restore': name,
          // Each row has the same button: its name says which file it is for.
          'aria-label': `${confirm.is(name) ? t('restore_again') : t('restore')}: ${name}`,
          onkeydown: onePerPress,
          onclick: async () => {
            if (busy) return;
            // Asked again within a few seconds, or not at all.
            const asked = confirm.tap(name);
            if (asked === 'armed') app.announce(t('restore_again'));
            if (asked !== 'confirmed') return;
            await once(async () => { await ipc.restoreFile(name); app.notice(t('restored')); });
            draw();
          },
        }, confirm.is(name) ? t('restore_again') : t('restore'))
        : h('button', {
          class: 'btn small', type: 'button', 'data-import': name, 'aria-label': `${t('import')}: ${name}`,
          onclick: () => once(async () => {
            const r = await ipc.importFile(name);
            app.notice(t('imported_n', { n: r.imported, k: r.already_present }));
          }),
        }, t('import')));
  }

  // Patched in place like the screens, so that a tap landing as the list of files comes in
  // still finds its button.
  const draw = scheduler(box, () => [
    h('h2', { text: t('your_data') }),
    h('p', { class: 'empty', text: t('your_data_hint') }),
    h('div', { class: 'mor-tools' },
      h('button', { class: 'btn', type: 'button', id: 'export-all', onclick: () => written(() => ipc.exportFile('all')) }, t('export_all')),
      h('button', { class: 'btn', type: 'button', id: 'export-csv', onclick: () => written(() => ipc.exportFile('csv')) }, t('export_csv')),
      h('button', { class: 'btn', type: 'button', id: 'backup', onclick: () => written(() => ipc.backupFile()) }, t('backup'))),
    h('h3', { text: t('files') }),
    files.length
      ? h('ul', { class: 'file-list', id: 'file-list' }, files.map(fileRow))
      : h('p', { class: 'empty', text: t('no_files') })]);
  draw();
  refresh();
  // The panel is kept across the settings screen's redraws; its words change with the language.
  box.redraw = draw;
  return box;
}
