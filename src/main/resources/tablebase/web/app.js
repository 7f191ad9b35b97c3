// The KBNK board explorer: free set-up by dragging, results from GET /api/probe, best play step by step.
'use strict';

const START = '8/8/8/8/8/2k5/8/KBN5 w - - 0 1';
const GLYPH = { K: '\u265A', B: '\u265D', N: '\u265E', k: '\u265A' };
const NAMES = { K: 'White king', B: 'White bishop', N: 'White knight', k: 'Black king' };
const FILES = 'abcdefgh';

const state = {
  pieces: {},     // square name -> FEN letter
  side: 'w',
  flipped: false,
  probe: null,    // the last /api/probe answer for the position on the board
  line: null,     // { pieces, side, uci: [...], san: [...], ply }: the mating line being stepped through, from its start
};
let request = 0;  // answers to older requests are dropped

const $ = (id) => document.getElementById(id);
const board = $('board');

function parseFen(fen) {
  const fields = fen.trim().split(/\s+/);
  const ranks = (fields[0] || '').split('/');
  if (ranks.length !== 8 || !/^[wb]$/.test(fields[1] || '')) return null;
  const pieces = {};
  for (let r = 0; r < 8; r++) {
    let file = 0;
    for (const c of ranks[r]) {
      if (/[1-8]/.test(c)) file += Number(c);
      else if (/[KBNk]/.test(c) && file < 8) pieces[FILES[file++] + (8 - r)] = c;
      else return null;
    }
    if (file !== 8) return null;
  }
  return { pieces, side: fields[1] };
}

function toFen(pieces, side) {
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '', empty = 0;
    for (const f of FILES) {
      const p = pieces[f + rank];
      if (!p) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += p;
    }
    rows.push(row + (empty || ''));
  }
  return rows.join('/') + ' ' + side + ' - - 0 1';
}

function squareOrder() {
  const order = [];
  for (let row = 0; row < 8; row++)
    for (let col = 0; col < 8; col++) {
      const file = state.flipped ? 7 - col : col, rank = state.flipped ? row + 1 : 8 - row;
      order.push(FILES[file] + rank);
    }
  return order;
}

function render() {
  const best = state.probe && state.probe.best_move;
  board.replaceChildren();
  for (const sq of squareOrder()) {
    const file = FILES.indexOf(sq[0]), rank = Number(sq[1]);
    const cell = document.createElement('div');
    cell.className = 'square ' + ((file + rank) % 2 === 1 ? 'dark' : 'light');
    cell.dataset.square = sq;
    if (best && best.slice(0, 2) === sq) cell.classList.add('best-from');
    if (best && best.slice(2, 4) === sq) cell.classList.add('best-to');
    if (rank === (state.flipped ? 8 : 1)) cell.append(coord('file', sq[0]));
    if (file === (state.flipped ? 7 : 0)) cell.append(coord('rank', String(rank)));
    const p = state.pieces[sq];
    if (p) {
      const piece = document.createElement('span');
      piece.className = 'piece ' + (p === 'k' ? 'black' : 'white');
      piece.textContent = GLYPH[p];
      piece.dataset.piece = p;
      piece.dataset.square = sq;
      piece.title = NAMES[p] + ' ' + sq;
      cell.append(piece);
    }
    board.append(cell);
  }
  $('side').textContent = state.side === 'w' ? 'White to move' : 'Black to move';
  $('fen').value = toFen(state.pieces, state.side);
}

function coord(kind, text) {
  const s = document.createElement('span');
  s.className = 'coord ' + kind;
  s.textContent = text;
  return s;
}

function afterText(m) {
  if (m.category === 'draw') return 'draw';
  if (m.category === 'win') return 'White mates in ' + m.dtm;
  return m.dtm === 0 ? 'checkmate' : 'Black is lost: mate in ' + m.dtm;
}

function showResult(text, category, dtm) {
  const r = $('result');
  r.dataset.fen = toFen(state.pieces, state.side); // the position this result is about
  r.textContent = text;
  r.dataset.category = category;
  r.dataset.dtm = dtm == null ? '' : String(dtm);
}

function showProbe(p, keepLine) {
  state.probe = p;
  const white = p.side_to_move === 'w';
  if (p.category === 'win') showResult('White mates in ' + p.dtm, 'win', p.dtm);
  else if (p.category === 'loss') showResult(p.dtm === 0 ? 'Checkmate: Black is mated' : 'Black is lost: mate in ' + p.dtm, 'loss', p.dtm);
  else showResult(p.stalemate ? 'Draw: stalemate' : 'Draw', 'draw', null);

  const best = p.moves.find((m) => m.uci === p.best_move);
  $('best').textContent = best ? (white ? 'Best move: ' : 'Best defence: ') + best.san + ' (' + best.uci + ')' : '';
  $('moves-title').textContent = (white ? "White's" : "Black's") + ' moves, best first';
  const list = $('moves');
  list.replaceChildren();
  if (!p.moves.length) list.append(p.checkmate ? 'none: checkmate' : 'none: stalemate');
  for (const m of p.moves) {
    const li = document.createElement('li');
    li.dataset.uci = m.uci;
    li.dataset.dtm = m.dtm == null ? '' : String(m.dtm);
    li.innerHTML = '<span class="san"></span><span class="after"></span>';
    li.querySelector('.san').textContent = m.san;
    li.querySelector('.after').textContent = afterText(m);
    li.addEventListener('click', () => play(m.uci, false));
    li.addEventListener('mouseenter', () => hover(m.uci, true));
    li.addEventListener('mouseleave', () => hover(m.uci, false));
    list.append(li);
  }
  if (!keepLine) {
    state.line = p.mainline.length ? { pieces: { ...state.pieces }, side: state.side, uci: p.mainline, san: p.mainline_san, ply: 0 } : null;
  }
  render();
  renderLine();
}

function hover(uci, on) {
  for (const sq of [uci.slice(0, 2), uci.slice(2, 4)]) {
    const cell = board.querySelector('[data-square="' + sq + '"]');
    if (cell) cell.classList.toggle('hover-to', on);
  }
}

function showIllegal(message) {
  state.probe = null;
  showResult('Illegal position: ' + message, 'illegal', null);
  $('best').textContent = '';
  $('moves').replaceChildren();
  state.line = null;
  render();
  renderLine();
}

function renderLine() {
  const box = $('mainline');
  box.replaceChildren();
  const line = state.line;
  if (!line) {
    box.textContent = '—';
  } else {
    let number = 1;
    const blackFirst = line.side === 'b';
    line.uci.forEach((uci, i) => {
      const whiteMove = (i % 2 === 0) !== blackFirst;
      if (whiteMove) box.append(number + '. ');
      else if (i === 0) box.append(number + '… ');
      const ply = document.createElement('span');
      ply.className = 'ply' + (i === line.ply - 1 ? ' current' : '');
      ply.textContent = line.san ? line.san[i] : uci;
      ply.title = uci;
      ply.addEventListener('click', () => stepTo(i + 1));
      box.append(ply, ' ');
      if (!whiteMove) number++;
    });
  }
  const at = line ? line.ply : 0, end = line ? line.uci.length : 0;
  $('line-start').disabled = $('line-back').disabled = !line || at === 0;
  $('line-next').disabled = $('line-end').disabled = !line || at === end;
  $('play-best').disabled = !(state.probe && state.probe.best_move);
}

function applyMove(pieces, uci) {
  const next = { ...pieces };
  next[uci.slice(2, 4)] = next[uci.slice(0, 2)];
  delete next[uci.slice(0, 2)];
  return next;
}

function play(uci, keepLine) {
  state.pieces = applyMove(state.pieces, uci);
  state.side = state.side === 'w' ? 'b' : 'w';
  if (!keepLine) state.line = null;
  update(keepLine);
}

function stepTo(ply) {
  const line = state.line;
  if (!line) return;
  let pieces = line.pieces, side = line.side;
  for (let i = 0; i < ply; i++) { pieces = applyMove(pieces, line.uci[i]); side = side === 'w' ? 'b' : 'w'; }
  state.pieces = pieces;
  state.side = side;
  line.ply = ply;
  update(true);
}

async function update(keepLine) {
  const fen = toFen(state.pieces, state.side);
  render();
  const count = Object.keys(state.pieces).length;
  if (count < 4) {
    // a capture left a lone minor piece: no mate is possible
    state.probe = null;
    showResult('Draw: a lone minor piece cannot mate', 'draw', null);
    $('best').textContent = '';
    $('moves').replaceChildren();
    if (!keepLine) state.line = null;
    renderLine();
    return;
  }
  const id = ++request;
  try {
    const response = await fetch('/api/probe?fen=' + encodeURIComponent(fen));
    const answer = await response.json();
    if (id !== request) return;
    if (answer.error) showIllegal(answer.error);
    else showProbe(answer, keepLine);
  } catch (e) {
    if (id === request) showResult('The server did not answer: ' + e.message, 'illegal', null);
  }
}

// Dragging: pointer events, so mouse, touch and pen all work; any empty square takes the piece, an occupied
// one swaps the two pieces (no rules while setting up).
let drag = null;
board.addEventListener('pointerdown', (e) => {
  const piece = e.target.closest('.piece');
  if (!piece) return;
  e.preventDefault();
  const ghost = piece.cloneNode(true);
  ghost.classList.add('dragging');
  ghost.style.left = e.clientX + 'px';
  ghost.style.top = e.clientY + 'px';
  document.body.append(ghost);
  piece.classList.add('lifted');
  drag = { from: piece.dataset.square, ghost };
});
window.addEventListener('pointermove', (e) => {
  if (!drag) return;
  drag.ghost.style.left = e.clientX + 'px';
  drag.ghost.style.top = e.clientY + 'px';
});
window.addEventListener('pointerup', (e) => {
  if (!drag) return;
  const { from, ghost } = drag;
  drag = null;
  ghost.remove();
  const target = document.elementFromPoint(e.clientX, e.clientY);
  const cell = target && target.closest('#board .square');
  const to = cell && cell.dataset.square;
  if (!to || to === from) { render(); return; }
  const moved = state.pieces[from], other = state.pieces[to];
  state.pieces[to] = moved;
  if (other) state.pieces[from] = other; else delete state.pieces[from];
  state.line = null;
  update(false);
});

$('side').addEventListener('click', () => { state.side = state.side === 'w' ? 'b' : 'w'; state.line = null; update(false); });
$('flip').addEventListener('click', () => { state.flipped = !state.flipped; render(); });
$('reset').addEventListener('click', () => load(START));
$('play-best').addEventListener('click', () => { if (state.probe && state.probe.best_move) play(state.probe.best_move, false); });
$('line-start').addEventListener('click', () => stepTo(0));
$('line-back').addEventListener('click', () => state.line && stepTo(state.line.ply - 1));
$('line-next').addEventListener('click', () => state.line && stepTo(state.line.ply + 1));
$('line-end').addEventListener('click', () => state.line && stepTo(state.line.uci.length));
$('fen-form').addEventListener('submit', (e) => { e.preventDefault(); load($('fen').value); });

async function load(fen) {
  const parsed = parseFen(fen);
  if (!parsed) {
    // the board cannot show it; the server says what is wrong
    const answer = await (await fetch('/api/probe?fen=' + encodeURIComponent(fen))).json();
    showResult('Not a KBNK position: ' + (answer.error || 'cannot read it'), 'illegal', null);
    return;
  }
  state.pieces = parsed.pieces;
  state.side = parsed.side;
  state.line = null;
  update(false);
}

load(new URLSearchParams(location.search).get('fen') || START);
