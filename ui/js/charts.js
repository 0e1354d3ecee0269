// Small SVG charts, readable on a phone: a player's form (one bar per match) and a figure per
// match as a line. Each chart carries a text equivalent for screen readers.

import { language, t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';

function el(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) e.setAttribute(k, v);
  e.append(...children.filter(Boolean));
  return e;
}

const W = 320;
const H = 90;

// results: oldest first, 'won' | 'drawn' | 'lost'.
export function formChart(results, label) {
  const n = Math.max(results.length, 1);
  const bw = W / n;
  const height = { won: H - 8, drawn: (H - 8) / 2, lost: (H - 8) / 5 };
  return el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart form-chart', role: 'img', 'aria-label': label },
    el('line', { x1: 0, y1: H - 2, x2: W, y2: H - 2, class: 'chart-axis' }),
    ...results.map((r, i) => el('rect', {
      x: (i * bw + bw * 0.15).toFixed(1), y: (H - 2 - height[r]).toFixed(1), width: (bw * 0.7).toFixed(1),
      height: height[r].toFixed(1), class: `chart-bar ${r}`, 'data-result': r,
    })));
}

// values: oldest first, numbers (null where a match has none).
// A number with `digits` decimals, written the user's way ("1.5", "1,5").
export function decimal(v, digits) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v);
}

export function lineChart(values, label, format = (v) => decimal(v, 1)) {
  const pts = values.map((v, i) => [i, v]).filter(([, v]) => v != null);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H + 16}`, class: 'chart line-chart', role: 'img', 'aria-label': label });
  if (!pts.length) return svg;
  const ys = pts.map(([, v]) => v);
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  // Heard, not only seen: where the line starts and ends, and its range.
  svg.setAttribute('aria-label', t('chart_line_values', {
    label, first: format(ys[0]), last: format(ys[ys.length - 1]), lo: format(lo), hi: format(hi),
  }));
  const span = hi - lo || 1;
  // The labels (a rating of four digits, "10.0") stand left of the plot, ending before its
  // first dot: they were drawn under it.
  const left = 46;
  const x = (i) => left + (i / Math.max(values.length - 1, 1)) * (W - left - 8);
  const y = (v) => 8 + (1 - (v - lo) / span) * (H - 16);
  svg.append(
    el('line', { x1: left - 4, y1: H - 8, x2: W - 8, y2: H - 8, class: 'chart-axis' }),
    el('text', { x: left - 8, y: y(hi) + 4, class: 'chart-label', 'text-anchor': 'end' }, format(hi)),
    hi !== lo ? el('text', { x: left - 8, y: y(lo) + 4, class: 'chart-label', 'text-anchor': 'end' }, format(lo)) : null,
    el('polyline', { points: pts.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '), class: 'chart-line' }),
    ...pts.map(([i, v]) => el('circle', { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 4, class: 'chart-dot' })));
  return svg;
}
