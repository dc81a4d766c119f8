// The variant picker and the rules panel, from the catalogue (`GET /v1/variants`).
//
// The families are read from each variant's board geometry alone: draughts on the dark
// squares (by board size), games on every square of a grid, point-and-line boards, the drop
// games (stones in hand) and the Camelot family (a grid with its corners cut, castles).

/** The family of a variant, from its description. */
export function family(v) {
  const b = v.board;
  if (b.castles || b.ranks) return 'Camelot family';
  if (b.layout === 'graph') return v.stones_in_hand ? 'Drop games' : 'Points and lines';
  if (b.layout === 'checkered') return `Draughts on the dark squares, ${b.width}×${b.height}`;
  return 'Every square played (orthogonal and others)';
}

/** Fills `select` with every variant, grouped by family, families in catalogue order. */
export function fillPicker(select, catalogue) {
  const groups = new Map();
  for (const v of catalogue) {
    const f = family(v);
    if (!groups.has(f)) groups.set(f, []);
    groups.get(f).push(v);
  }
  select.replaceChildren();
  for (const [name, list] of groups) {
    const g = document.createElement('optgroup');
    g.label = name;
    for (const v of list) {
      const o = document.createElement('option');
      o.value = v.id;
      o.textContent = v.provisional ? `${v.name} (provisional)` : v.name;
      g.append(o);
    }
    select.append(g);
  }
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** A source text, its web addresses made links. */
function linked(text) {
  const p = el('span');
  const parts = String(text).split(/(https?:\/\/[^\s)]+)/);
  for (const part of parts) {
    if (/^https?:\/\//.test(part)) {
      const a = el('a', part);
      a.href = part;
      a.rel = 'noopener noreferrer';
      p.append(a);
    } else if (part) {
      p.append(part);
    }
  }
  return p;
}

/** The rules of `v` in readable form, from its description. */
export function renderRules(container, v) {
  const out = [];
  const b = v.board;
  const shape = b.layout === 'graph'
    ? `${b.cells} points and lines`
    : `${b.width}×${b.height}, ${b.layout === 'checkered' ? 'the dark squares' : `${b.cells} squares`}`;
  out.push(el('p', `${v.name}. Board: ${shape}; squares ${b.squares}. ` +
    `${v.first_mover === 'white' ? 'White' : 'Black'} moves first.` +
    (v.stones_in_hand ? ` Each side starts with ${v.stones_in_hand} stones in hand.` : '')));
  if (v.provisional) out.push(el('p', `Provisional: ${v.provisional_reason}`, 'warn'));
  const dl = el('dl');
  for (const [k, val] of Object.entries(v.rules)) {
    dl.append(el('dt', k.replaceAll('_', ' ')), el('dd', val));
  }
  out.push(dl);
  const list = (title, items, f) => {
    if (!items.length) return;
    out.push(el('h3', title));
    const ul = el('ul');
    for (const it of items) ul.append(f(it));
    out.push(ul);
  };
  list('End rules', v.end_rules, (r) => el('li', `${r.code}: ${r.description}. ${r.source}`));
  list('Draw rules', v.draw_rules, (r) =>
    el('li', `${r.code} (${r.mode}): ${r.description}. ${r.source}`));
  list('Notes', v.notes, (n) => el('li', n));
  list('Sources', v.sources, (s) => {
    const li = el('li');
    li.append(linked(s));
    return li;
  });
  container.replaceChildren(...out);
}
