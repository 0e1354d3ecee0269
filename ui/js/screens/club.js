// Club night: join the club's hub (a phone at a board) or host it (the organiser's desktop),
// with where sync stands always in view; the tournaments on this device, and a new one.

import { ipc } from '../ipc.js';
import { h, scheduler, latest, STALE, twoTaps, onePerPress } from '../dom.js';
import { t, ago, has, errorText } from '../i18n.js';
import { app, loadFailed } from '../app.js';
import { el } from '../svg.js';
import { canScan, startScan } from '../scan.js';

// The QR code as an SVG of its dark modules, with the quiet zone of four modules around it.
function qrCode(modules, label) {
  const n = modules.length;
  const dark = [];
  modules.forEach((row, y) => row.forEach((on, x) => { if (on) dark.push(`M${x + 4} ${y + 4}h1v1h-1z`); }));
  return el('svg', {
    id: 'host-qr', class: 'qr', viewBox: `0 0 ${n + 8} ${n + 8}`, role: 'img', 'aria-label': label, 'shape-rendering': 'crispEdges',
  }, el('rect', { width: n + 8, height: n + 8, fill: '#fff' }), el('path', { d: dark.join(''), fill: '#000' }));
}

// One line saying where sync stands; `short` for the title bar's chip on a phone.
export function syncText(status, short = false) {
  if (!status) return '';
  if (status.joined) {
    const s = status.sync;
    if (s.state === 'unreachable') return t(short ? 'sync_away' : 'sync_unreachable', { n: status.waiting });
    if (s.state === 'unauthorized') return t('sync_unauthorized');
    if (s.state === 'failing') return t(short ? 'sync_failing_short' : 'sync_failing', { n: status.waiting });
    if (s.state === 'refused') return t('sync_refused');
    // This device's own trouble (its database, the sync thread): not the hub's.
    if (s.state === 'device') return t(short ? 'sync_device_short' : 'sync_device');
    if (status.waiting > 0) return t('sync_waiting', { n: status.waiting });
    if (s.last_sync) return t('sync_ok');
    return t('sync_syncing');
  }
  if (status.host) return t('hub_on');
  return '';
}

export function mount(root) {
  app.title(t('club_night'));
  const st = { items: null, busy: false, status: app.club, joining: false };

  // Typed fields live across redraws.
  const linkInput = h('input', {
    id: 'join-link', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    placeholder: t('join_link_placeholder'), 'aria-describedby': 'join-help',
  });
  const tokenInput = h('input', {
    id: 'join-token', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    placeholder: t('join_token_placeholder'),
  });

  // The camera's view while scanning, made once.
  const video = h('video', { id: 'scan-video', class: 'scan-video', playsinline: true, muted: true, 'aria-label': t('scan_view') });
  let stopScan = null;
  const scan = () => {
    st.scanning = true;
    render.focusOn('#join-title');
    stopScan = startScan(video, (link) => {
      st.scanning = false;
      stopScan = null;
      linkInput.value = link;
      tokenInput.value = '';
      join();
    }, (e) => {
      st.scanning = false;
      stopScan = null;
      // Rust's typed refusal of the frames (said as it is), or the camera the system refused.
      app.error(e?.kind ? e : { kind: 'not_found', code: 'no_camera', detail: String(e?.message ?? e) });
      render();
    });
  };
  const cancelScan = () => { stopScan?.(); stopScan = null; st.scanning = false; render.focusOn('#scan-qr'); };

  // What is under way (Join, Start, Stop or Leave): its own button says so; the others wait.
  const doing = (what, task) => () => { if (!st.busy) st.doing = what; return task(); };
  const join = doing('join', () => app.exclusive(st, render, async () => {
    const link = linkInput.value.trim();
    // Said, not only the focus moved to the field (which a screen reader tells as its name).
    if (!link) { app.error({ kind: 'bad_setup', code: 'no_link' }); linkInput.focus(); return; }
    const token = tokenInput.value.trim();
    // "Joining…" is shown while the hub is asked (up to its time, for a hub that does not
    // answer), after a scan as well: the form is back in place of the camera's view.
    render();
    st.status = await ipc.clubJoin(link, token || null);
    linkInput.value = '';
    tokenInput.value = '';
    app.announce(t('joined_hub', { hub: st.status.joined.hub }));
    render.focusOn('#joined-title');
    app.clubChanged();
  }).finally(() => {
    // Join was disabled while the hub was asked, and the focus went to the field before it
    // (a phone's keyboard came up over "Joining…"): back on Join when the join failed.
    if (!st.status?.joined && document.activeElement === tokenInput) render.focusOn('#join-hub');
  }));
  // Leaving the hub and stopping it take two taps: nothing takes them back (joining again
  // needs the organiser's code; a stopped hub leaves every phone in the room without one).
  const confirm = twoTaps(() => render());
  const twice = (key, said, task) => () => {
    if (st.busy) return;
    const tapped = confirm.tap(key);
    if (tapped === 'armed') app.announce(said());
    if (tapped === 'confirmed') task();
  };
  // Results not yet at the hub stay on this device once it leaves: the second tap says so.
  const leaveAgain = () => (st.status?.waiting > 0 ? t('leave_hub_waiting', { n: st.status.waiting }) : t('leave_hub_again'));
  const leave = doing('leave', () => app.exclusive(st, render, async () => {
    st.status = await ipc.clubLeave();
    app.announce(t('left_hub'));
    render.focusOn('#join-title');
    app.clubChanged();
  }));
  const host = doing('host', () => app.exclusive(st, render, async () => {
    try {
      await ipc.hostStart();
    } catch (e) {
      // Refused (its port, its token file): the focus stays on Start, to try again.
      render.focusOn('#host-start');
      throw e;
    }
    st.status = await ipc.clubStatus();
    app.announce(t('hub_started', { address: st.status.host.address }));
    render.focusOn('#host-title');
    app.clubChanged();
  }));
  const stopHost = doing('stop', () => app.exclusive(st, render, async () => {
    await ipc.hostStop();
    st.status = await ipc.clubStatus();
    app.announce(t('hub_stopped'));
    render.focusOn('#host-title');
    app.clubChanged();
  }));

  // A record named as a person knows it (its game, its players), its id when it is not here.
  const recordName = (r) => {
    if (!r.game || !has(`game_${r.game}`)) return r.id ?? '?';
    const what = r.record === 'tournament' ? `${t(`game_${r.game}`)} · ${t('tournament_word')}` : t(`game_${r.game}`);
    return r.names ? `${what} · ${r.names}` : what;
  };

  function joinPanel(s) {
    // Records refused one way or the other, kept until taken: said in the user's language by
    // their kind; the other side's own detail (English) under it.
    const refusedList = (list, id, title, words) => (list.length ? h('div', { class: 'sync-refused', id },
      h('h3', { text: t(title) }),
      h('ul', {}, list.map((r) => h('li', {},
        h('span', { class: 'refused-what', text: `${recordName(r)}: ${t(has(`${words}.${r.kind}`) ? `${words}.${r.kind}` : `${words}.other`)}` }),
        // The other side's detail is English: read as English.
        h('small', { class: 'refused-detail', lang: 'en', text: r.detail ?? '' }))))) : null);
    if (s?.joined) {
      const sync = s.sync;
      return h('section', { class: 'panel club-panel', id: 'joined', 'aria-labelledby': 'joined-title' },
        h('h2', { id: 'joined-title', tabindex: -1, text: t('joined_title') }),
        h('p', { class: 'hub-address', id: 'joined-hub', text: s.joined.hub }),
        // tabindex -1: the title bar's chip, tapped here, gives it the focus, kept over redraws.
        h('p', { class: `sync-state ${sync.state}`, id: 'sync-state', role: 'status', tabindex: -1, text: syncText(s) }),
        h('dl', { class: 'sync-figures' },
          h('dt', { text: t('sync_last') }), h('dd', { id: 'sync-last', text: sync.last_sync ? ago(sync.last_sync) : t('sync_never') }),
          h('dt', { text: t('sync_waiting_label') }), h('dd', { id: 'sync-waiting', text: String(s.waiting) })),
        sync.error ? h('p', { class: 'sync-error', id: 'sync-error', text: errorText(sync.error) }) : null,
        refusedList(sync.refused.filter((r) => r.by !== 'device'), 'sync-refused', 'sync_refused_title', 'refused'),
        refusedList(sync.refused.filter((r) => r.by === 'device'), 'sync-not-taken', 'sync_not_taken_title', 'not_taken'),
        h('p', { class: 'hint', text: t('joined_hint') }),
        h('div', { class: 'end-row' },
          h('button', { class: 'btn', type: 'button', id: 'sync-now', onclick: () => ipc.clubSyncNow().then(() => { app.announce(t('sync_syncing')); app.clubChanged(); }, (e) => app.error(e)) }, t('sync_now')),
          h('button', {
            class: `btn ghost${confirm.is('leave') ? ' armed' : ''}`, type: 'button', id: 'leave-hub',
            onclick: twice('leave', leaveAgain, leave), onkeydown: onePerPress,
          }, confirm.is('leave') ? leaveAgain() : st.doing === 'leave' && st.busy ? t('leaving') : t('leave_hub'))));
    }
    if (st.scanning) {
      return h('section', { class: 'panel club-panel scanning', id: 'join', 'aria-labelledby': 'join-title' },
        h('h2', { id: 'join-title', tabindex: -1, text: t('scan_title') }),
        video,
        h('p', { class: 'hint', role: 'status', text: t('scan_help') }),
        h('button', { class: 'btn big', type: 'button', id: 'scan-cancel', onclick: cancelScan }, t('cancel')));
    }
    return h('section', { class: 'panel club-panel', id: 'join', 'aria-labelledby': 'join-title' },
      h('h2', { id: 'join-title', tabindex: -1, text: t('join_title') }),
      canScan() ? h('button', { class: 'btn primary big', type: 'button', id: 'scan-qr', onclick: scan }, t('scan_qr')) : null,
      h('p', { class: 'hint', id: 'join-help', text: t('join_help') }),
      h('form', {
        class: 'join-form', onsubmit: (ev) => { ev.preventDefault(); join(); },
      },
      h('label', { class: 'field', for: 'join-link' }, h('span', { text: t('join_link_label') }), linkInput),
      h('label', { class: 'field', for: 'join-token' }, h('span', { text: t('join_token_label') }), tokenInput),
      h('button', { class: 'btn primary big', type: 'submit', id: 'join-hub', disabled: st.busy }, st.busy && st.doing === 'join' ? t('joining') : t('join_hub'))));
  }

  function hostPanel(s) {
    const info = s?.host;
    if (!info) {
      // The hub that was on when the app last ended did not start again: said, with why, and
      // Start tries the same address again (the one the phones know).
      return h('section', { class: 'panel club-panel', id: 'host', 'aria-labelledby': 'host-title' },
        h('h2', { id: 'host-title', tabindex: -1, text: t('host_title') }),
        s?.host_error ? h('p', { class: 'sync-error', id: 'host-error', text: `${t('host_not_restarted')} ${errorText(s.host_error)}` }) : null,
        h('p', { class: 'hint', text: t('host_help') }),
        // Busy, not disabled: a disabled button loses the focus (to the join form's field).
        h('button', { class: 'btn big', type: 'button', id: 'host-start', 'aria-disabled': st.busy ? 'true' : null, onclick: host },
          st.busy && st.doing === 'host' ? t('host_starting') : t(s?.host_error ? 'host_start_again' : 'host_start')));
    }
    return h('section', { class: 'panel club-panel hosting', id: 'host', 'aria-labelledby': 'host-title' },
      h('h2', { id: 'host-title', tabindex: -1, text: t('host_running') }),
      h('div', { class: 'host-body' },
        info.qr.length ? qrCode(info.qr, t('host_qr_label')) : null,
        h('dl', { class: 'host-figures' },
          h('dt', { text: t('host_address') }), h('dd', { id: 'host-address', class: 'mono', text: info.address }),
          h('dt', { text: t('host_token') }), h('dd', { id: 'host-token', class: 'mono', text: info.token }),
          h('dt', { text: t('host_link') }), h('dd', { id: 'host-link', class: 'mono small', text: info.link }),
          h('dt', { text: t('host_page') }), h('dd', { id: 'host-page', class: 'mono small', text: info.page }))),
      // What would keep the phones out, said where the code they scan is.
      s.host_moved_from ? h('p', { class: 'host-warning', id: 'host-moved', text: t('host_moved', { address: s.host_moved_from }) }) : null,
      info.this_device_only ? h('p', { class: 'host-warning', id: 'host-loopback', text: t('host_this_device_only') }) : null,
      info.phones_can_join ? null : h('p', { class: 'host-warning', id: 'host-token-warning', text: t('host_token_unjoinable') }),
      h('p', { class: 'hint', text: t('host_running_help') }),
      s.joined ? null : h('p', { class: 'hint', id: 'host-no-join', text: t('host_no_join') }),
      h('button', {
        class: `btn ghost${confirm.is('stop') ? ' armed' : ''}`, type: 'button', id: 'host-stop',
        onclick: twice('stop', () => t('host_stop_again'), stopHost), onkeydown: onePerPress,
      }, st.busy && st.doing === 'stop' ? t('host_stopping') : t(confirm.is('stop') ? 'host_stop_again' : 'host_stop')));
  }

  const row = (item) => h('li', { class: 'match-row', 'data-key': `tournament-${item.id}` }, h('button', {
    class: 'match-open', type: 'button', 'data-tournament': item.id, onclick: () => app.go(`#/tournament/${item.id}`),
  },
  h('span', { class: 'match-game', text: `${t(`game_${item.game}`)} · ${t(`system_${item.system}`)}` }),
  item.champion
    ? h('span', { class: 'match-sides' },
      h('span', { 'aria-hidden': 'true', text: `★ ${item.champion}` }),
      h('span', { class: 'sr-only', text: t('champion_is', { name: item.champion }) }))
    : h('span', { class: 'match-sides', text: t('entrants_n', { n: item.entrants }) }),
  h('span', { class: 'match-score', text: t(`t_status_${item.status}`) }),
  h('span', { class: 'match-when', text: ago(item.created_at) })));

  const draw = () => h('section', { class: 'club' },
    // One club night at a time: a device joined to a hub does not start one, and one running
    // the hub does not join another (both are refused in Rust too). A device found doing
    // both (joined before this rule) shows both, so its hub can still be stopped.
    st.status ? h('div', { class: 'club-panels' },
      !st.status.host || st.status.joined ? joinPanel(st.status) : null,
      !st.status.joined || st.status.host ? hostPanel(st.status) : null) : null,
    h('button', { class: 'btn primary big', type: 'button', id: 'new-tournament', onclick: () => app.go('#/tournament-new') }, t('new_tournament')),
    h('h2', { text: t('tournaments') }),
    st.failed ? loadFailed(st.failed, () => { st.failed = null; render(); load(); })
    : st.items == null ? h('p', { class: 'empty', text: t('loading') })
      : st.items.length ? h('ul', { class: 'match-list', id: 'tournament-list' }, st.items.map(row))
        : h('p', { class: 'empty', text: t('no_tournament_yet') }));
  const render = scheduler(root, draw);
  const listAsked = latest();
  // A list never read says why, with Retry ("Loading…" for ever before); one read before stays.
  const load = () => listAsked(ipc.tournaments())
    .then((items) => { if (items !== STALE) { st.items = items; st.failed = null; render(); } })
    .catch((e) => { if (st.items == null) { st.failed = e; render(); } else app.error(e, { reading: true }); });
  render();
  load();
  ipc.clubStatus().then((s) => { st.status = s; render(); }).catch((e) => app.error(e, { reading: true }));
  // "Last sync: 2 min ago" grows old by itself while the hub is away and nothing else moves.
  const clock = setInterval(() => { if (st.status?.joined) render(); }, 30000);
  return {
    refresh: load,
    unmount: () => { stopScan?.(); clearInterval(clock); },
    // Records arrived (pulled, or pushed to this device's hub): the list may have grown.
    onData: load,
    // The status line moved: redraw unless the person is typing in the join form.
    onClub: (s) => {
      st.status = s;
      if (!root.contains(document.activeElement) || document.activeElement.tagName !== 'INPUT') render();
    },
  };
}
