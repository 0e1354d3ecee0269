// The Morris board drawn in SVG. It knows the geometry (from Rust's game info) and draws what
// it is given: pieces, targets, removable pieces, a selection, the last move. It has no rules:
// a tap or a drag becomes an intent ("tap d6", "drag a1 to a4") for the screen to check
// against the legal targets Rust sent.

const SVG = 'http://www.w3.org/2000/svg';
const STEP = 100;
const MARGIN = 50;

function el(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) e.setAttribute(k, v);
  e.append(...children.flat().filter(Boolean));
  return e;
}

export function xy(point) {
  const col = point.charCodeAt(0) - 97;
  const row = Number(point.slice(1));
  return [MARGIN + col * STEP, MARGIN + (7 - row) * STEP];
}

// opts: {points, lines, board, targets: Set, removable: Set, selected, last: [from,to]|[to],
//        hint: Set, mills: Set, turned, label(point) -> text, onTap(point), onDrag(from, to)}
export function drawBoard(opts) {
  const size = MARGIN * 2 + STEP * 6;
  const svg = el('svg', {
    viewBox: `0 0 ${size} ${size}`, class: `mor-board${opts.turned ? ' turned' : ''}`, role: 'group',
    'aria-label': opts.title, id: 'mor-board',
  });
  svg.append(el('rect', { x: 8, y: 8, width: size - 16, height: size - 16, rx: 24, class: 'mor-wood' }));
  for (const line of opts.lines) {
    const [x1, y1] = xy(line[0]);
    const [x2, y2] = xy(line[2]);
    svg.append(el('line', { x1, y1, x2, y2, class: 'mor-line' }));
  }
  if (opts.last?.length === 2) {
    const [x1, y1] = xy(opts.last[0]);
    const [x2, y2] = xy(opts.last[1]);
    svg.append(el('line', { x1, y1, x2, y2, class: 'mor-last-path' }));
  }
  for (const p of opts.points) {
    const [x, y] = xy(p);
    const side = opts.board[p];
    const classes = ['mor-point'];
    if (side != null) classes.push(`side-${side}`);
    if (opts.targets.has(p)) classes.push('target');
    if (opts.removable.has(p)) classes.push('removable');
    if (opts.selected === p) classes.push('selected');
    if (opts.hint.has(p)) classes.push('hint');
    if (opts.mills.has(p)) classes.push('in-mill');
    if (opts.last?.at(-1) === p) classes.push('last');
    const active = opts.targets.has(p) || opts.removable.has(p) || opts.movable.has(p) || opts.selected === p;
    const g = el('g', {
      class: classes.join(' '), 'data-point': p, role: 'button', tabindex: active ? 0 : -1,
      'aria-label': opts.label(p), 'aria-disabled': active ? null : 'true',
    },
    el('circle', { cx: x, cy: y, r: 46, class: 'mor-hit' }),
    side == null ? el('circle', { cx: x, cy: y, r: 11, class: 'mor-dot' }) : null,
    opts.targets.has(p) ? el('circle', { cx: x, cy: y, r: 22, class: 'mor-target' }) : null,
    side != null ? el('circle', { cx: x, cy: y, r: 33, class: 'mor-piece' }) : null,
    side === 1 ? el('circle', { cx: x, cy: y, r: 18, class: 'mor-piece-mark' }) : null,
    opts.removable.has(p) ? el('path', { d: `M${x - 14} ${y - 14}L${x + 14} ${y + 14}M${x + 14} ${y - 14}L${x - 14} ${y + 14}`, class: 'mor-cross' }) : null);
    g.addEventListener('click', () => opts.onTap(p));
    g.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); opts.onTap(p); }
    });
    svg.append(g);
  }
  // Dragging: press on a piece, release on a point. A release on the same point is a tap,
  // which the click above handles.
  let from = null;
  svg.addEventListener('pointerdown', (ev) => {
    from = ev.target.closest?.('[data-point]')?.dataset.point ?? null;
  });
  svg.addEventListener('pointerup', (ev) => {
    const start = from;
    from = null;
    if (!start || ev.pointerType === undefined) return;
    const under = document.elementFromPoint(ev.clientX, ev.clientY)?.closest?.('[data-point]');
    const to = under?.dataset.point;
    if (to && to !== start) opts.onDrag(start, to);
  });
  return svg;
}
