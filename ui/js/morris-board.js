// The Morris board drawn in SVG. It knows the geometry (from Rust's game info) and draws what
// it is given: pieces, targets, removable pieces, a selection, the last move. It has no rules:
// a tap or a drag becomes an intent ("tap d6", "drag a1 to a4") for the screen to check
// against the legal targets Rust sent.
//
// The board and its points are made once and then updated in place: a finger pressed on a
// point while an answer redraws the screen still lands there when it lifts (a click needs the
// node it was pressed on), and a point keeps the keyboard focus across redraws.

import { el, drawing, attr, shown } from './svg.js';

const STEP = 100;
const MARGIN = 50;

export function xy(point) {
  const col = point.charCodeAt(0) - 97;
  const row = Number(point.slice(1));
  return [MARGIN + col * STEP, MARGIN + (7 - row) * STEP];
}

// setup: {points, lines, onTap(point), onDrag(from, to)}, fixed for the board's life (a
// match's rules do not change). Returns the SVG element and update(view) with
// view: {board, targets: Set, removable: Set, movable: Set, selected, last: [from,to]|[to]|null,
//        hint: Set, mills: Set, turned, title, label(point) -> text}.
export function createBoard(setup) {
  const size = MARGIN * 2 + STEP * 6;
  const svg = el('svg', { viewBox: `0 0 ${size} ${size}`, role: 'group', id: 'mor-board' });
  // The points say where they are and what stands on them; the wood and the lines are drawing.
  svg.append(drawing('rect', { x: 8, y: 8, width: size - 16, height: size - 16, rx: 24, class: 'mor-wood' }));
  for (const line of setup.lines) {
    const [x1, y1] = xy(line[0]);
    const [x2, y2] = xy(line[2]);
    svg.append(drawing('line', { x1, y1, x2, y2, class: 'mor-line' }));
  }
  const lastPath = drawing('line', { class: 'mor-last-path', display: 'none' });
  svg.append(lastPath);
  // Every part of a point is there from the start and shown or hidden; only the hit circle
  // takes the pointer (see the CSS), so a press and its release meet the same node.
  const points = new Map();
  for (const p of setup.points) {
    const [x, y] = xy(p);
    const parts = {
      hit: el('circle', { cx: x, cy: y, r: 46, class: 'mor-hit' }),
      dot: el('circle', { cx: x, cy: y, r: 11, class: 'mor-dot' }),
      target: el('circle', { cx: x, cy: y, r: 22, class: 'mor-target' }),
      piece: el('circle', { cx: x, cy: y, r: 33, class: 'mor-piece' }),
      mark: el('circle', { cx: x, cy: y, r: 18, class: 'mor-piece-mark' }),
      taken: el('circle', { cx: x, cy: y, r: 27, class: 'mor-taken' }),
      cross: el('path', { d: `M${x - 14} ${y - 14}L${x + 14} ${y + 14}M${x + 14} ${y - 14}L${x - 14} ${y + 14}`, class: 'mor-cross' }),
    };
    const g = el('g', { 'data-point': p, 'data-key': `point-${p}`, role: 'button', tabindex: -1 }, Object.values(parts));
    g.addEventListener('click', () => setup.onTap(p));
    g.addEventListener('keydown', (ev) => {
      // A held key repeats: one press is one tap (a repeat would place on the point a
      // removal just emptied, for the opponent).
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); if (!ev.repeat) setup.onTap(p); }
    });
    svg.append(g);
    points.set(p, { g, ...parts });
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
    if (to && to !== start) setup.onDrag(start, to);
  });

  function update(view) {
    attr(svg, 'class', `mor-board${view.turned ? ' turned' : ''}`);
    attr(svg, 'aria-label', view.title);
    if (view.last?.length === 2) {
      const [x1, y1] = xy(view.last[0]);
      const [x2, y2] = xy(view.last[1]);
      for (const [k, v] of Object.entries({ x1, y1, x2, y2 })) attr(lastPath, k, v);
      shown(lastPath, true);
    } else shown(lastPath, false);
    for (const [p, pt] of points) {
      const side = view.board[p];
      const classes = ['mor-point'];
      if (side != null) classes.push(`side-${side}`);
      if (view.targets.has(p)) classes.push('target');
      if (view.removable.has(p)) classes.push('removable');
      if (view.selected === p) classes.push('selected');
      if (view.hint.has(p)) classes.push('hint');
      if (view.mills.has(p)) classes.push('in-mill');
      if (view.last?.at(-1) === p) classes.push('last');
      const taken = side == null && view.taken?.has(p);
      if (taken) classes.push('taken');
      const active = view.targets.has(p) || view.removable.has(p) || view.movable.has(p) || view.selected === p;
      attr(pt.g, 'class', classes.join(' '));
      attr(pt.g, 'tabindex', active ? 0 : -1);
      attr(pt.g, 'aria-label', view.label(p));
      attr(pt.g, 'aria-disabled', active ? null : 'true');
      shown(pt.dot, side == null);
      shown(pt.target, view.targets.has(p));
      shown(pt.piece, side != null);
      shown(pt.mark, side === 1);
      shown(pt.cross, view.removable.has(p));
      shown(pt.taken, taken);
    }
  }

  return { svg, update };
}

// A board drawn once, for a screen that only shows positions (the replay).
export function drawBoard(opts) {
  const board = createBoard(opts);
  board.update(opts);
  return board.svg;
}
