// The board page: a game of any variant of the catalogue, played on the public API.
//
// What the page keeps is the game: its variant, its start position, its moves (canonical
// notation) and the ply shown. Everything else is asked of the service for the position
// shown: the legal moves (`/moves`), the picture (`/diagram`), the judge's status and draw
// counters (`/judge`), the endgame values (`/endgame`); `/play` says why a clicked move is
// illegal and replays a game; `/v1/judge/pdn` reads a pasted game; `/perft` counts.

import { api, Problem } from './api.js';
import { BoardView } from './view.js';
import { fillPicker, renderRules } from './pick.js';

const $ = (id) => document.getElementById(id);

const state = {
  catalogue: [],
  byId: new Map(),
  variant: null,
  /** Canonical FEN of the game's start. */
  start: '',
  /** Canonical notation of each ply played. */
  moves: [],
  /** fens[k]: the FEN after k plies, once known. */
  fens: [],
  /** infos[k]: the `/moves` entry of ply k + 1, once known (its route marks the last move). */
  infos: [],
  ply: 0,
  flip: false,
  /** The `/moves` answer of the position shown. */
  legal: null,
  /** The `/judge` answer of the game up to the ply shown. */
  judged: null,
  /** The endgame value of each legal move of the position shown, by notation. */
  values: new Map(),
  /** By variant: what the endgame tables of this service hold (`/endgame/tables`), so that
   * `/endgame` is asked only about positions whose material they hold. */
  tables: new Map(),
  /** The move being entered (see `activate`). */
  sel: null,
  /** Increases with every position shown: answers for an older one are dropped. */
  token: 0,
  /** Settles when the position shown is ready for input (moves and judge known). */
  ready: Promise.resolve(),
};

const view = new BoardView($('board'), (sq) => activate(sq), () => cancel());

// ---- small helpers -------------------------------------------------------------------------

function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function say(text, kind = '') {
  const m = $('message');
  m.textContent = text;
  m.className = `message ${kind}`;
}

function problemText(p) {
  if (!(p instanceof Problem)) return String(p);
  const d = p.doc;
  if (d.violation) return `${d.violation}: ${d.reason || d.detail}`;
  return `${d.title || 'Error'}: ${d.detail || ''}`;
}

/** The page's state for scripts driving it (the browser tests): `busy` while a position
 * is being loaded, then `ready`, with `data-shown` counting the positions shown. */
function busy(on) {
  document.body.dataset.state = on ? 'busy' : 'ready';
  if (!on) document.body.dataset.shown = String(state.token);
}

const side = (fen) => (fen.trim()[0].toUpperCase() === 'B' ? 'black' : 'white');
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const isPass = (m) => m.from === null || m.from === undefined;
const isDrop = (m) => /^[*@]/.test(m.notation);
const isRemoval = (m) => !isPass(m) && !isDrop(m) && m.route.length === 1;

/** A bounded cache of answers by key. */
class Cache {
  constructor(size) {
    this.size = size;
    this.map = new Map();
  }

  async get(key, load) {
    if (this.map.has(key)) return this.map.get(key);
    const value = await load();
    if (this.map.size >= this.size) this.map.delete(this.map.keys().next().value);
    this.map.set(key, value);
    return value;
  }
}
const movesCache = new Cache(256);
const diagramCache = new Cache(64);

const legalMoves = (v, fen) => movesCache.get(`${v}\n${fen}`, () => api.moves(v, fen));
const diagram = (v, fen, flip) =>
  diagramCache.get(`${v}\n${fen}\n${flip}`, () => api.diagram(v, fen, flip));

// ---- the game ------------------------------------------------------------------------------

/** The FEN after `k` plies: known, or asked of `/play`. */
async function fenAt(k) {
  if (state.fens[k]) return state.fens[k];
  const r = await api.play(state.variant.id, state.start, state.moves.slice(0, k));
  state.fens[k] = r.position;
  return r.position;
}

/** Starts a game of `v` from `start` (canonical FEN) with `moves`, showing ply `ply`. */
async function newGame(v, start, moves = [], ply = moves.length) {
  state.variant = state.byId.get(v);
  state.start = start;
  state.moves = moves;
  state.fens = [start];
  state.infos = [];
  state.ply = Math.max(0, Math.min(ply, moves.length));
  $('variant').value = v;
  $('rules-link').href = api.variantUrl(v);
  $('rules-link').textContent = `Rules of ${v} (JSON)`;
  $('variant-note').textContent = state.variant.provisional
    ? `Provisional: ${state.variant.provisional_reason}`
    : '';
  renderRules($('rules-body'), state.variant);
  clearPdn();
  await show();
}

async function goTo(ply) {
  if (ply < 0 || ply > state.moves.length || ply === state.ply) return;
  state.ply = ply;
  await show();
}

/** Plays `m`, a legal move of the position shown: the moves after the ply shown go. */
async function play(m) {
  const k = state.ply;
  state.moves = state.moves.slice(0, k).concat([m.notation]);
  state.fens = state.fens.slice(0, k + 1);
  state.fens[k + 1] = m.resulting_position;
  state.infos = state.infos.slice(0, k);
  state.infos[k] = m;
  state.ply = k + 1;
  say(`${cap(side(state.fens[k]))} played ${m.notation}.`);
  await show();
}

/** Plays `m`, a legal move of the position shown when it was offered, once that position is
 * ready for input, unless another position is shown by then or the game is over. */
async function choose(m) {
  const token = state.token;
  await state.ready;
  if (token !== state.token || !state.legal) return;
  if (over()) {
    say(`The game is over (${state.judged.reason?.code || state.judged.verdict}).`, 'error');
    return;
  }
  await play(m);
}

/** Shows the position at `state.ply`, and asks the service everything about it. */
async function show() {
  const token = ++state.token;
  state.sel = null;
  state.legal = null;
  state.judged = null;
  busy(true);
  let release;
  state.ready = new Promise((r) => { release = r; });
  const v = state.variant.id;
  try {
    const fen = await fenAt(state.ply);
    const [legal, svg] = await Promise.all([legalMoves(v, fen), diagram(v, fen, state.flip)]);
    if (token !== state.token) return;
    state.legal = legal;
    state.values = new Map();
    $('endgame').textContent = '';
    delete $('endgame').dataset.category;
    const who = cap(legal.side_to_move);
    view.show(svg, `${state.variant.name}, ${who} to move. ${legal.moves.length} legal moves.`);
    const firstFrom = legal.moves.find((m) => !isPass(m))?.from;
    if (!view.piece(view.cursor).startsWith(legal.side_to_move)) view.home(firstFrom);
    $('fen').value = legal.position;
    renderMoveList();
    renderHands();
    renderSpecial();
    renderLegal();
    mark();
    updateHash();
    $('perft').replaceChildren();
    const judged = judge(token);
    lastMove(token);
    endgame(token, judged);
    await judged;
  } catch (e) {
    if (token === state.token) say(problemText(e), 'error');
  } finally {
    release();
    if (token === state.token) busy(false);
  }
}

// ---- the judge: status and draw counters ---------------------------------------------------

const VERDICTS = {
  white_wins: 'White wins',
  black_wins: 'Black wins',
  draw: 'Draw',
  undecided: 'Game on',
  invalid: 'Invalid game',
};

function over() {
  const j = state.judged;
  return !!j && ['white_wins', 'black_wins', 'draw'].includes(j.verdict);
}

async function judge(token) {
  const v = state.variant.id;
  let j;
  try {
    j = await api.judge(v, { start_position: state.start, moves: state.moves.slice(0, state.ply) });
  } catch (e) {
    if (token === state.token) $('status').replaceChildren(el('p', problemText(e), { class: 'error' }));
    return;
  }
  if (token !== state.token) return;
  state.judged = j;
  const box = $('status');
  const parts = [];
  const head = over()
    ? `${VERDICTS[j.verdict]} (${j.result})`
    : `${VERDICTS[j.verdict]}: ${cap(j.side_to_move)} to move`;
  parts.push(el('p', head, { class: `verdict ${j.verdict}`, id: 'verdict' }));
  if (j.reason) {
    const at = j.decided_at_ply === null || j.decided_at_ply === undefined
      ? ''
      : ` (after ply ${j.decided_at_ply})`;
    parts.push(el('p', `${j.reason.code}${at}: ${j.reason.description}`, { id: 'reason' }));
  }
  for (const c of j.claimable_draws) {
    parts.push(el('p', `Claimable from ply ${c.ply}: ${c.code}, ${c.description}`, { class: 'note' }));
  }
  if (j.invalid_move) parts.push(el('p', j.invalid_move.reason, { class: 'error' }));
  parts.push(el('p', `Ply ${state.ply} of ${state.moves.length}.`, { class: 'note' }));
  box.replaceChildren(...parts);
  renderCounters(j);
  mark();
  renderSpecial();
}

function renderCounters(j) {
  const box = $('counters');
  if (!j.draw_counters.length) {
    box.replaceChildren(el('p', 'No draw rules in this variant.', { class: 'note' }));
    return;
  }
  const table = el('table', null, { class: 'counters' });
  table.append(el('caption', 'Draw-rule counters'));
  const head = el('tr');
  for (const h of ['rule', 'count', 'of the limit']) head.append(el('th', h, { scope: 'col' }));
  table.append(head);
  for (const c of j.draw_counters) {
    const tr = el('tr', null, { 'data-code': c.code });
    if (!c.applies) tr.className = 'idle';
    const rule = el('th', c.code, { scope: 'row', title: c.mode });
    rule.append(el('span', ` ${c.mode}`, { class: 'note' }));
    const unit = c.limit_unit === 'plies' ? 'plies' : 'times';
    const count = el('td', c.applies ? `${c.count} / ${c.limit} ${unit}` : 'not counting', { class: 'count' });
    const bar = el('td');
    const p = el('progress', null, {
      max: String(c.limit),
      value: String(Math.min(c.count, c.limit)),
      'aria-label': `${c.code}: ${c.count} of ${c.limit} ${unit}`,
    });
    bar.append(p);
    tr.append(rule, count, bar);
    table.append(tr);
  }
  box.replaceChildren(table);
}

// ---- the endgame tables --------------------------------------------------------------------

/** Value for the mover of a move whose resulting position has `category` for the opponent. */
const MOVER = { loss: 'win', draw: 'draw', win: 'loss' };

function valueText(category, plies) {
  if (category === 'draw') return 'draw';
  return `${category} in ${plies} ${plies === 1 ? 'ply' : 'plies'}`;
}

/** The material of a FEN as the service writes it: White's pieces, `v`, Black's (`KKvK`).
 * The first field is the side to move; in the drop games the stones in hand (`S`) count as
 * men, as the tables count them. */
function materialOf(fen) {
  const fields = fen.split(':').slice(1);
  const hand = fields.find((x) => x.startsWith('S'));
  const inHand = hand ? hand.slice(1).split(',').map((n) => Number(n) || 0) : [0, 0];
  const side = (letter, stones) => {
    const f = fields.find((x) => x.startsWith(letter));
    const squares = f ? f.slice(1).split(',').filter(Boolean) : [];
    const count = (prefix) => squares.filter((sq) => sq.startsWith(prefix)).length;
    const kings = count('K');
    const knights = count('N');
    const paras = count('P');
    const men = squares.length - kings - knights - paras + stones;
    return 'K'.repeat(kings) + 'M'.repeat(men) + 'P'.repeat(paras) + 'N'.repeat(knights);
  };
  return `${side('W', inHand[0])}v${side('B', inHand[1] || 0)}`;
}

/** What the tables of this service hold for variant `v`, asked once. */
function tablesOf(v) {
  if (!state.tables.has(v)) {
    const p = api.endgameTables(v);
    p.catch(() => state.tables.delete(v));
    state.tables.set(v, p);
  }
  return state.tables.get(v);
}

/** The game's counts of the counted draw rules (`/judge`'s counters), for `/endgame`. */
function countsOf(j) {
  if (!j) return undefined;
  const counts = j.draw_counters
    .filter((c) => c.applies && c.limit_unit === 'plies')
    .map((c) => `${c.code}:${c.count}`);
  return counts.length ? counts.join(',') : undefined;
}

async function endgame(token, judged, attempt = 0) {
  const v = state.variant.id;
  const box = $('endgame');
  let info;
  try {
    info = await tablesOf(v);
  } catch (p) {
    if (token === state.token) box.textContent = `Endgame tables: ${problemText(p)}`;
    return;
  }
  if (token !== state.token) return;
  if (!info.supported) {
    box.textContent = `Endgame tables: none for this variant (${info.reason}).`;
    return;
  }
  const material = materialOf(state.legal.position);
  if (!info.builtin.includes(material) && !info.prebuilt.includes(material)) {
    const most = Math.max(info.builtin_pieces, ...info.prebuilt.map((m) => m.length - 1));
    const pieces = material.length - 1;
    // A long material name says less than its number of pieces (and would not wrap).
    const named = pieces <= 8 ? material : `this position (${pieces} pieces)`;
    box.textContent = `Endgame tables: ${named} is not in them here (up to ${most} pieces).`;
    delete box.dataset.category;
    return;
  }
  await judged;
  if (token !== state.token) return;
  try {
    const e = await api.endgame(v, state.legal.position, countsOf(state.judged));
    if (token !== state.token) return;
    const mover = cap(e.side_to_move);
    const words = (category, plies) => category === 'draw'
      ? 'a draw'
      : `a ${category} for ${mover} in ${plies} ${plies === 1 ? 'ply' : 'plies'}`;
    let text = `Endgame tables (${e.material}): ${words(e.category, e.plies)} under best play`;
    if (e.rules.differs) {
      const name = e.rules.differs === 'cursed-win' ? 'a cursed win' : 'a blessed loss';
      text += `; with this game's counts a draw: the ${e.rules.drawn_by} rule draws it `
        + `before the end (${name}).`;
    } else {
      text += '.';
    }
    box.textContent = text;
    box.dataset.category = e.rules.category;
    for (const m of e.moves) {
      state.values.set(m.move, {
        value: MOVER[m.rules.category],
        plies: m.rules.plies === null ? null : m.rules.plies + 1,
        theory: MOVER[m.category],
        theoryPlies: m.plies === null ? null : m.plies + 1,
      });
    }
    renderLegal();
    mark();
  } catch (p) {
    if (token !== state.token) return;
    delete box.dataset.category;
    if (p.code === 'endgame-building' && attempt < 60) {
      box.textContent = 'Endgame tables: being computed for this material…';
      setTimeout(() => {
        if (token === state.token) endgame(token, judged, attempt + 1);
      }, 1000 * (p.retryAfter || 1));
    } else {
      box.textContent = `Endgame tables: ${problemText(p)}`;
    }
  }
}

// ---- the last move -------------------------------------------------------------------------

async function lastMove(token) {
  const k = state.ply - 1;
  if (k < 0 || state.infos[k]) return;
  try {
    const fen = await fenAt(k);
    const before = await legalMoves(state.variant.id, fen);
    const m = before.moves.find((x) => x.notation === state.moves[k]);
    if (m) state.infos[k] = m;
    if (token === state.token) mark();
  } catch {
    // Only a mark is missing.
  }
}

// ---- entering a move -----------------------------------------------------------------------
//
// A click on a piece selects it and lights its legal destinations; each further click on a
// square narrows the moves to those whose route lands on it or whose captures take the piece
// on it, until one move is left, which is played. A click no legal move explains is sent to
// `/play`, whose problem document says which rule it breaks.

/** The moves of `cands` that every clicked square belongs to (a landing or a capture). */
function narrow(cands, clicks) {
  return cands.filter((m) =>
    clicks.every((c) => m.route.slice(1).includes(c) || m.captured.includes(c)));
}

/** What the next click can be: square -> mark (dest, via, take). */
function targets(sel) {
  const t = new Map();
  const cands = sel.cands;
  for (const m of cands) if (!sel.clicks.includes(m.to)) t.set(m.to, 'dest');
  if (cands.length > 1) {
    const squares = new Set();
    for (const m of cands) for (const s of [...m.route.slice(1), ...m.captured]) squares.add(s);
    for (const s of squares) {
      if (sel.clicks.includes(s) || t.has(s)) continue;
      const n = narrow(cands, [...sel.clicks, s]).length;
      if (n > 0 && n < cands.length) {
        t.set(s, cands.some((m) => m.captured.includes(s)) ? 'take' : 'via');
      }
    }
  }
  return t;
}

function cancel() {
  if (state.sel) {
    state.sel = null;
    say('Selection cleared.');
    mark();
    renderSpecial();
  }
}

async function activate(sq) {
  if (!sq) {
    say('Not a playing square.');
    return;
  }
  const token = state.token;
  await state.ready;
  if (token !== state.token || !state.legal) return;
  if (over()) {
    say(`The game is over (${state.judged.reason?.code || state.judged.verdict}). ` +
      'Go back in the move list to play another line.', 'error');
    return;
  }
  const legal = state.legal.moves;
  const sel = state.sel;
  if (!sel) {
    const cands = legal.filter((m) => m.from === sq && !isPass(m) && !isDrop(m));
    const removal = cands.filter(isRemoval);
    if (removal.length === 1 && cands.length === 1) {
      await play(removal[0]);
      return;
    }
    const drops = legal.filter((m) => isDrop(m) && m.to === sq);
    if (!cands.length && drops.length === 1 && !view.piece(sq)) {
      await play(drops[0]);
      return;
    }
    state.sel = { from: sq, clicks: [], cands, drop: false };
    if (cands.length) {
      say(`${sq} selected: ${cands.length} legal ${cands.length === 1 ? 'move' : 'moves'}. Click where it goes.`);
    } else {
      say(`No legal move starts on ${sq}. Click a destination to see why, or Escape.`);
    }
    mark();
    renderSpecial();
    return;
  }
  const { from, clicks, cands } = sel;
  if (!sel.drop && sq === from && !cands.some((m) => m.route.slice(1).includes(sq))) {
    cancel();
    return;
  }
  const next = sel.drop ? cands.filter((m) => m.to === sq) : narrow(cands, [...clicks, sq]);
  if (next.length === 1) {
    await play(next[0]);
    return;
  }
  if (next.length > 1) {
    sel.clicks.push(sq);
    sel.cands = next;
    const t = targets(sel);
    say(t.size
      ? `${next.length} moves land there: click the next landing square (or a piece taken) to choose.`
      : `${next.length} moves fit: choose one below.`);
    mark();
    renderSpecial();
    return;
  }
  // No legal move fits: another piece of the side to move, or an illegal move.
  const own = legal.filter((m) => m.from === sq && !isPass(m) && !isDrop(m));
  if (!sel.drop && clicks.length === 0 && own.length) {
    state.sel = null;
    await activate(sq);
    return;
  }
  await explain(sel.drop ? `*${sq}` : `${from}-${sq}`);
}

/** Asks `/play` about a move no legal move fits, and says why it is illegal. */
async function explain(text) {
  const v = state.variant.id;
  const { token, legal } = state;
  const fen = legal.position;
  state.sel = null;
  mark();
  renderSpecial();
  try {
    const r = await api.play(v, fen, [text]);
    // The service reads the text as a legal move after all: play it.
    const m = legal.moves.find((x) => x.resulting_position === r.position);
    if (m && token === state.token) await play(m);
  } catch (p) {
    if (token !== state.token) return;
    const d = p instanceof Problem ? p.doc : null;
    if (d && d.violation) {
      say(`Illegal: ${text} — ${d.violation}: ${d.reason}`, 'error');
      $('message').dataset.violation = d.violation;
    } else {
      say(`Illegal: ${text} — ${problemText(p)}`, 'error');
      delete $('message').dataset.violation;
    }
  }
}

// ---- marks on the board --------------------------------------------------------------------

function mark() {
  const marks = new Map();
  const badges = new Map();
  const add = (sq, m) => {
    if (!sq) return;
    if (!marks.has(sq)) marks.set(sq, []);
    marks.get(sq).push(m);
  };
  const goals = state.variant.board.goal_points;
  if (goals) for (const sq of new Set([...goals.white, ...goals.black])) add(sq, 'goal');
  const last = state.infos[state.ply - 1];
  if (last && last.route.length) {
    add(last.route[0], 'last-from');
    add(last.route[last.route.length - 1], 'last-to');
  }
  const sel = state.sel;
  if (sel && !over()) {
    if (!sel.drop) add(sel.from, 'selected');
    for (const c of sel.clicks) add(c, 'selected');
    for (const [sq, kind] of targets(sel)) {
      add(sq, kind);
      // The endgame value of a destination, when every move to it has the same value.
      if (kind === 'dest') {
        const vals = new Set(sel.cands.filter((m) => m.to === sq)
          .map((m) => state.values.get(m.notation)?.value));
        if (vals.size === 1) {
          const v = [...vals][0];
          if (v) {
            add(sq, `v-${v}`);
            badges.set(sq, v[0].toUpperCase());
          }
        }
      }
    }
  } else if (state.legal && !over()) {
    for (const m of state.legal.moves) if (m.from && !isDrop(m)) add(m.from, 'movable');
  }
  view.setMarks(marks, badges);
}

// ---- the panels ----------------------------------------------------------------------------

function renderMoveList() {
  const list = $('move-list');
  const first = state.variant.first_mover;
  const startSide = side(state.start);
  // Move numbers count the first mover's moves; a game that starts with the other side to
  // move opens with "1. ...".
  let number = 1;
  let li = null;
  const items = [];
  let mover = startSide;
  for (let k = 0; k < state.moves.length; k++) {
    if (!li || mover === first) {
      li = el('li');
      li.append(el('span', `${number}.`, { class: 'num' }));
      if (mover !== first) li.append(el('span', '…', { class: 'num' }));
      items.push(li);
    }
    const b = el('button', state.moves[k], {
      type: 'button',
      'data-ply': String(k + 1),
      'aria-label': `Ply ${k + 1}, ${mover}: ${state.moves[k]}`,
    });
    if (k + 1 === state.ply) b.setAttribute('aria-current', 'step');
    b.addEventListener('click', () => goTo(k + 1));
    li.append(b);
    if (mover !== first) number += 1;
    mover = mover === 'white' ? 'black' : 'white';
  }
  list.replaceChildren(...items);
  $('to-start').disabled = state.ply === 0;
  $('back').disabled = state.ply === 0;
  $('forward').disabled = state.ply >= state.moves.length;
  $('to-end').disabled = state.ply >= state.moves.length;
}

function renderLegal() {
  const ul = $('legal');
  const items = [];
  for (const m of state.legal.moves) {
    const li = el('li');
    const b = el('button', m.notation, { type: 'button', 'data-move': m.notation });
    const val = state.values.get(m.notation);
    let label = `Play ${m.notation}`;
    let shown = '';
    if (val) {
      b.dataset.value = val.value;
      shown = valueText(val.value, val.plies);
      // Where a count draws what best play without it would decide, both values.
      if (val.theory !== val.value) {
        shown += ` (without the count: ${valueText(val.theory, val.theoryPlies)})`;
      }
      label += `, ${shown}`;
    }
    b.setAttribute('aria-label', label);
    b.addEventListener('click', () => choose(m));
    li.append(b);
    if (val) li.append(el('span', shown, { class: `value ${val.value}` }));
    items.push(li);
  }
  if (!items.length) items.push(el('li', 'None: the side to move has no legal move.'));
  ul.replaceChildren(...items);
}

/** The pieces on the board of a FEN as the service writes it (explicit square lists). */
function pieceCount(fen) {
  return fen
    .split(':')
    .slice(1)
    .filter((f) => /^[WB]/.test(f))
    .reduce((n, f) => n + f.slice(1).split(',').filter(Boolean).length, 0);
}

/** Stones in hand, from the FEN's `S` field (White's, then Black's). */
function hands(fen) {
  const f = fen.split(':').find((x) => /^S\d+,\d+$/.test(x));
  if (!f) return null;
  const [w, b] = f.slice(1).split(',').map(Number);
  return { white: w, black: b };
}

function renderHands() {
  const box = $('hands');
  const h = hands(state.legal.position);
  if (!h) {
    box.replaceChildren();
    return;
  }
  const toMove = state.legal.side_to_move;
  const drops = state.legal.moves.filter(isDrop);
  const out = [];
  for (const s of ['white', 'black']) {
    if (s === toMove && drops.length) {
      const b = el('button', `${cap(s)} stone in hand (${h[s]})`, {
        type: 'button',
        class: `hand ${s}`,
        'data-hand': s,
        'aria-pressed': String(!!state.sel?.drop),
      });
      b.addEventListener('click', async () => {
        const token = state.token;
        await state.ready;
        if (token !== state.token || over()) return;
        if (state.sel?.drop) {
          cancel();
          return;
        }
        state.sel = { from: null, clicks: [], cands: drops, drop: true };
        say(`Place a ${s} stone: click a lit point.`);
        mark();
        renderHands();
      });
      out.push(b);
    } else {
      out.push(el('span', `${cap(s)}: ${h[s]} in hand`, { class: `hand ${s}` }));
    }
  }
  box.replaceChildren(...out);
}

/** Buttons for the moves a click on the board cannot enter: a pass, opening removals, and a
 * choice between moves that no square tells apart. */
function renderSpecial() {
  const box = $('special');
  const out = [];
  if (!state.legal || over()) {
    box.replaceChildren();
    return;
  }
  for (const m of state.legal.moves) {
    if (isPass(m)) {
      const b = el('button', 'Pass', { type: 'button', 'data-move': m.notation });
      b.addEventListener('click', () => choose(m));
      out.push(b);
    } else if (isRemoval(m)) {
      const b = el('button', `Remove ${m.from} (${m.notation})`, { type: 'button', 'data-move': m.notation });
      b.addEventListener('click', () => choose(m));
      out.push(b);
    }
  }
  const sel = state.sel;
  if (sel && sel.cands.length > 1 && sel.clicks.length && !targets(sel).size) {
    for (const m of sel.cands) {
      const b = el('button', m.long, { type: 'button', 'data-move': m.notation });
      b.addEventListener('click', () => choose(m));
      out.push(b);
    }
  }
  box.replaceChildren(...out);
}

// ---- the address: the game in the URL's fragment -------------------------------------------

function updateHash() {
  const q = new URLSearchParams();
  q.set('variant', state.variant.id);
  if (state.start !== state.variant.start_position) q.set('start', state.start);
  if (state.moves.length) q.set('moves', state.moves.join(' '));
  if (state.ply !== state.moves.length) q.set('ply', String(state.ply));
  history.replaceState(null, '', `#${q}`);
}

async function fromHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  const v = q.get('variant');
  if (!v || !state.byId.has(v)) return false;
  const start = q.get('start') || state.byId.get(v).start_position;
  const moves = (q.get('moves') || '').split(' ').filter(Boolean);
  try {
    const j = await api.judge(v, { start_position: start, moves });
    const fen = (await legalMoves(v, start)).position;
    const ply = q.has('ply') ? Number(q.get('ply')) : j.moves.length;
    await newGame(v, fen, j.moves, ply);
    return true;
  } catch (e) {
    say(`The address names a game the service refuses: ${problemText(e)}`, 'error');
    return false;
  }
}

// ---- loading a FEN or a PDN game -----------------------------------------------------------

async function loadFen(text) {
  const v = state.variant.id;
  try {
    const r = await api.moves(v, text.trim());
    await newGame(v, r.position);
    say('Position set up.');
  } catch (e) {
    say(problemText(e), 'error');
  }
}

/** The moves of canonical PDN movetext (tags, comments, move numbers and result left out). */
function pdnMoves(pdn) {
  const body = pdn.replace(/^\s*\[[^\]]*\]\s*$/gm, ' ').replace(/\{[^}]*\}/g, ' ');
  return body
    .split(/\s+/)
    .filter((t) => t && !/^\d+\.+$/.test(t) && !/^(\*|1-0|0-1|2-0|0-2|1-1|0-0|1\/2-1\/2)$/.test(t))
    .map((t) => t.replace(/^\d+\.+/, ''));
}

async function loadPdn(text) {
  const tagged = /^\s*\[(GameType|Variant)\s/m.test(text);
  try {
    const r = await api.pdn({
      pdn: text,
      include_pdn: true,
      ...(tagged ? {} : { variant: state.variant.id }),
    });
    const g = r.games[0];
    if (!g) {
      say('No game in this text.', 'error');
      return;
    }
    if (g.outcome !== 'judged') {
      say(`The game cannot be read: ${g.error?.detail || g.error?.code || 'error'}`, 'error');
      return;
    }
    const v = g.variant;
    if (!v || !state.byId.has(v)) {
      say('The game names no variant: choose one above and load it again.', 'error');
      return;
    }
    const fenTag = /^\[FEN\s+"([^"]*)"\]/m.exec(g.pdn || '');
    const start = fenTag ? fenTag[1] : state.byId.get(v).start_position;
    const moves = pdnMoves(g.pdn || '').slice(0, g.plies);
    const j = await api.judge(v, { start_position: start, moves });
    const fen = (await legalMoves(v, start)).position;
    await newGame(v, fen, j.moves, j.moves.length);
    const more = r.games.length > 1 ? ` (the first of ${r.games.length} games)` : '';
    const bad = g.invalid_move ? ` It stops before an illegal move: ${g.invalid_move.reason}` : '';
    say(`Game loaded${more}: ${j.moves.length} plies.${bad}`, bad ? 'error' : '');
  } catch (e) {
    say(problemText(e), 'error');
  }
}

// ---- PDN export and perft ------------------------------------------------------------------

function clearPdn() {
  $('pdn-output').hidden = true;
  $('pdn-label').hidden = true;
  $('pdn-download').hidden = true;
}

async function exportPdn() {
  try {
    const j = await api.judge(state.variant.id, {
      start_position: state.start,
      moves: state.moves,
      include_pdn: true,
    });
    const out = $('pdn-output');
    out.value = j.pdn;
    out.hidden = false;
    $('pdn-label').hidden = false;
    const a = $('pdn-download');
    if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([j.pdn], { type: 'text/plain' }));
    a.download = `${state.variant.id}.pdn`;
    a.hidden = false;
    out.focus();
  } catch (e) {
    say(problemText(e), 'error');
  }
}

async function perft(depth, divide) {
  const box = $('perft');
  const token = state.token;
  if (!state.legal) return;
  box.replaceChildren(el('p', `Counting to depth ${depth}…`, { class: 'note' }));
  try {
    const r = await api.perft(state.variant.id, state.legal.position, depth, divide);
    if (token !== state.token) return;
    const t = el('table', null, { class: 'perft' });
    t.append(el('caption', 'Leaves by depth'));
    const hr = el('tr');
    hr.append(el('th', 'depth', { scope: 'col' }), el('th', 'nodes', { scope: 'col' }));
    t.append(hr);
    r.nodes_by_depth.forEach((n, i) => {
      const tr = el('tr');
      tr.append(el('td', String(i + 1)), el('td', n.toLocaleString('en')));
      t.append(tr);
    });
    const out = [t];
    if (r.divide) {
      const d = el('table', null, { class: 'perft divide' });
      d.append(el('caption', `Divide at depth ${r.depth}`));
      const h = el('tr');
      h.append(el('th', 'move', { scope: 'col' }), el('th', 'nodes', { scope: 'col' }));
      d.append(h);
      for (const m of r.divide) {
        const tr = el('tr');
        tr.append(el('td', m.move), el('td', m.nodes.toLocaleString('en')));
        d.append(tr);
      }
      out.push(d);
    }
    box.replaceChildren(...out);
  } catch (e) {
    if (token !== state.token) return;
    const reach = e instanceof Problem && e.doc.reachable_depth !== undefined
      ? ` The budget reaches depth ${e.doc.reachable_depth} from this position.`
      : '';
    box.replaceChildren(el('p', `${problemText(e)}${reach}`, { class: 'error' }));
  }
}

// ---- wiring --------------------------------------------------------------------------------

function wire() {
  $('variant').addEventListener('change', (e) => {
    const v = state.byId.get(e.target.value);
    say(`${v.name}: the start position.`);
    newGame(v.id, v.start_position);
  });
  $('new-game').addEventListener('click', () =>
    newGame(state.variant.id, state.variant.start_position));
  $('flip').addEventListener('click', (e) => {
    state.flip = !state.flip;
    e.currentTarget.setAttribute('aria-pressed', String(state.flip));
    show();
  });
  $('to-start').addEventListener('click', () => goTo(0));
  $('back').addEventListener('click', () => goTo(state.ply - 1));
  $('forward').addEventListener('click', () => goTo(state.ply + 1));
  $('to-end').addEventListener('click', () => goTo(state.moves.length));
  $('fen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    loadFen($('fen-input').value);
  });
  $('pdn-form').addEventListener('submit', (e) => {
    e.preventDefault();
    loadPdn($('pdn-input').value);
  });
  $('copy-fen').addEventListener('click', async () => {
    const f = $('fen');
    try {
      await navigator.clipboard.writeText(f.value);
      say('FEN copied.');
    } catch {
      f.select();
      say('FEN selected: copy it with the keyboard.');
    }
  });
  $('export-pdn').addEventListener('click', exportPdn);
  // A game's address opened or edited in the address bar.
  window.addEventListener('hashchange', () => fromHash());
  $('perft-form').addEventListener('submit', (e) => {
    e.preventDefault();
    perft(Number($('perft-depth').value), $('perft-divide').checked);
  });
}

async function main() {
  wire();
  busy(true);
  try {
    const cat = await api.variants();
    state.catalogue = cat.variants;
    for (const v of cat.variants) state.byId.set(v.id, v);
    fillPicker($('variant'), cat.variants);
    if (!(await fromHash())) {
      const v = state.byId.get('international') || cat.variants[0];
      await newGame(v.id, v.start_position);
    }
  } catch (e) {
    say(`The catalogue cannot be read: ${problemText(e)}`, 'error');
    busy(false);
  }
}

main();
