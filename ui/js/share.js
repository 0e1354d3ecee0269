// A finished match as a short text for a chat message ("Mölkky, 21/11/2026: Anna 50 – Bea 38.
// Anna wins!"), copied to the clipboard; where the clipboard is refused, the text is shown to
// be copied by hand.

import { t, language } from './i18n.js';
import { names } from './dom.js';
import { app } from './app.js';

export function shareText(view) {
  const s = view.summary;
  const date = new Date(view.finished_at ?? view.started_at).toLocaleDateString(language());
  const sides = view.sides.map((side, i) => `${names(side)} ${s.scores?.[i] ?? ''}`.trim()).join(' – ');
  const result = s.status === 'won'
    ? t(view.sides[s.winner].length > 1 ? 'winner' : 'winner_one', { names: names(view.sides[s.winner]) })
    : s.status === 'drawn' ? t('drawn') : t('in_progress');
  const place = view.place ? ` (${view.place})` : '';
  return t('share_text', { game: t(`game_${view.game}`), date, place, sides, result });
}

export async function share(view) {
  const text = shareText(view);
  try {
    await navigator.clipboard.writeText(text);
    app.announce(t('copied'));
    app.notice(t('copied_text', { text }));
  } catch {
    app.notice(text);
  }
  return text;
}
