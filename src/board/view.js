// The board: the service's own SVG diagram (`/diagram`), shown inline, with a layer on top
// that the page draws: one focusable element per cell (found by the diagram's `data-square`
// attributes), for clicks, the keyboard and the marks (selection, destinations, last move,
// endgame values).

const NS = 'http://www.w3.org/2000/svg';

function svgEl(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

const DIRECTIONS = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** Marks a cell may carry, with how a screen reader hears each. */
const SPOKEN = {
  selected: 'selected',
  dest: 'legal destination',
  via: 'landing square to choose',
  take: 'piece to take, to choose',
  'last-from': 'last move from here',
  'last-to': 'last move to here',
  'v-win': 'winning move',
  'v-draw': 'drawing move',
  'v-loss': 'losing move',
  goal: 'goal point',
};

export class BoardView {
  /**
   * @param {HTMLElement} container
   * @param {(square: string) => void} activate called when a cell is clicked or chosen
   *   with Enter or Space
   * @param {() => void} cancel called on Escape
   */
  constructor(container, activate, cancel) {
    this.container = container;
    this.activate = activate;
    this.cancel = cancel;
    this.cells = new Map();
    this.cursor = null;
    container.addEventListener('click', (e) => {
      const hit = e.target.closest('[data-key]');
      if (hit) {
        this.setCursor(hit.dataset.key, false);
        this.activate(this.cells.get(hit.dataset.key)?.square ?? null);
      }
    });
    container.addEventListener('keydown', (e) => this.key(e));
  }

  /** Shows the diagram `text` (an SVG document). */
  show(text, label) {
    const hadFocus = this.container.contains(document.activeElement);
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const svg = document.importNode(doc.documentElement, true);
    // Scaled to the page, up to one and a half times the diagram's own size (a small board
    // is not blown up to the whole column).
    const width = Number(svg.getAttribute('width')) || 0;
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    if (width) svg.style.maxWidth = `${Math.round(width * 1.5)}px`;
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', label);
    svg.querySelector('title')?.remove();
    const pieces = new Map();
    for (const g of svg.querySelectorAll('g.piece[data-square]')) {
      const kind = [...g.classList].filter((c) => c !== 'piece').join(' ');
      pieces.set(g.dataset.square, kind);
    }
    // The cells, and the squares of a checkered board that are not played: the keyboard
    // cursor walks over both, one square at a time, as on a printed board.
    const found = [];
    for (const c of svg.querySelectorAll('.cell[data-square], rect.light')) {
      if (c.tagName === 'rect') {
        const x = +c.getAttribute('x');
        const y = +c.getAttribute('y');
        const w = +c.getAttribute('width');
        const square = c.dataset.square || null;
        found.push({ square, key: square || `:${x},${y}`, x: x + w / 2, y: y + w / 2, size: w, point: false });
      } else {
        found.push({
          square: c.dataset.square,
          key: c.dataset.square,
          x: +c.getAttribute('cx'),
          y: +c.getAttribute('cy'),
          size: 0,
          point: true,
        });
      }
    }
    // The points of a point-and-line board get a round target most of the way to the
    // nearest other point.
    let spacing = Infinity;
    for (const a of found) {
      if (!a.point) continue;
      for (const b of found) {
        if (a !== b) spacing = Math.min(spacing, Math.hypot(a.x - b.x, a.y - b.y));
      }
    }
    // Two layers: the square's colour under the pieces; on top, the element that takes
    // clicks and the focus, with the destination dots and the endgame badges.
    const under = svgEl('g', { class: 'ui-under', 'aria-hidden': 'true' });
    const layer = svgEl('g', { class: 'ui' });
    this.cells = new Map();
    const shape = (c, cls) => (c.point
      ? svgEl('circle', { class: cls, cx: c.x, cy: c.y, r: c.size / 2 })
      : svgEl('rect', {
        class: cls, x: c.x - c.size / 2, y: c.y - c.size / 2, width: c.size, height: c.size,
      }));
    for (const c of found) {
      if (c.point) c.size = 2 * Math.min(spacing * 0.45, 24);
      const g = svgEl('g', { class: 'hit', 'data-key': c.key, role: 'button', tabindex: -1 });
      if (c.square) g.setAttribute('data-hit', c.square);
      const hl = shape(c, 'hl');
      const dot = svgEl('circle', { class: 'dot', cx: c.x, cy: c.y, r: c.size * 0.17 });
      const badge = svgEl('text', {
        class: 'badge', x: c.x + c.size * 0.3, y: c.y - c.size * 0.18, 'text-anchor': 'middle',
        'aria-hidden': 'true',
      });
      g.append(shape(c, 'ring'), dot, badge);
      under.append(hl);
      layer.append(g);
      this.cells.set(c.key, { ...c, el: g, hl, badge, piece: pieces.get(c.square) || '' });
    }
    const pieceLayer = svg.querySelector('g.pieces');
    if (pieceLayer) pieceLayer.before(under);
    else svg.append(under);
    svg.append(layer);
    this.container.replaceChildren(svg);
    if (!this.cells.has(this.cursor)) this.cursor = found.find((c) => c.square)?.key ?? null;
    this.setMarks(new Map());
    this.setCursor(this.cursor, hadFocus);
  }

  /** Where the keyboard cursor goes when the position changes (unless the cursor is set). */
  home(square) {
    if (square && this.cells.has(square)) this.setCursor(square, false);
  }

  /** The piece on a cell, as the diagram classes it ("white king"), or "". */
  piece(square) {
    return this.cells.get(square)?.piece || '';
  }

  /**
   * Sets the marks: `marks` maps a square to a list of mark names (see SPOKEN) and,
   * optionally, `badges` maps a square to a short text drawn on it.
   */
  setMarks(marks, badges = new Map()) {
    for (const c of this.cells.values()) {
      if (!c.square) {
        c.el.setAttribute('class', 'hit void');
        c.hl.setAttribute('class', 'hl');
        c.el.setAttribute('aria-label', 'square not played');
        continue;
      }
      const m = marks.get(c.square) || [];
      c.el.setAttribute('class', ['hit', ...m].join(' '));
      c.hl.setAttribute('class', ['hl', ...m].join(' '));
      c.badge.textContent = badges.get(c.square) || '';
      const words = [c.square, c.piece || 'empty', ...m.map((k) => SPOKEN[k]).filter(Boolean)];
      c.el.setAttribute('aria-label', words.join(', '));
    }
  }

  /** Puts the keyboard cursor on the cell `key` (a square's name, for a played square). */
  setCursor(key, focus) {
    if (!key || !this.cells.has(key)) return;
    for (const [k, c] of this.cells) c.el.setAttribute('tabindex', k === key ? '0' : '-1');
    this.cursor = key;
    if (focus) this.cells.get(key).el.focus();
  }

  /** Focuses the cursor's cell. */
  focus() {
    if (this.cursor) this.cells.get(this.cursor)?.el.focus();
  }

  /** The nearest cell (or unplayed square) from the cursor in the direction (dx, dy) on
   * screen: the next square of the row or column on a grid. */
  neighbour(dx, dy) {
    const from = this.cells.get(this.cursor);
    if (!from) return null;
    let best = null;
    let score = Infinity;
    for (const c of this.cells.values()) {
      const vx = c.x - from.x;
      const vy = c.y - from.y;
      const along = vx * dx + vy * dy;
      if (along < 1) continue;
      const across = Math.abs(vx * dy - vy * dx);
      const s = along + 2.5 * across;
      if (s < score) {
        score = s;
        best = c.key;
      }
    }
    return best;
  }

  key(e) {
    if (!e.target.closest('[data-key]')) return;
    const d = DIRECTIONS[e.key];
    if (d) {
      const next = this.neighbour(d[0], d[1]);
      if (next) this.setCursor(next, true);
      e.preventDefault();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.activate(this.cells.get(this.cursor)?.square ?? null);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      this.cancel();
    } else if (e.key === 'Home' || e.key === 'End') {
      const all = [...this.cells.keys()];
      this.setCursor(e.key === 'Home' ? all[0] : all[all.length - 1], true);
      e.preventDefault();
    }
  }
}
