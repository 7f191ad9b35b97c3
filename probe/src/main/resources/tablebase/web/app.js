// The board explorer for any endgame served: set-up from a palette or by dragging, results from GET /api/probe,
// best play step by step, through captures and promotions into the smaller tables.
'use strict';

const GLYPH = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };
const KIND = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
const ORDER = 'KQRBNP';
const FILES = 'abcdefgh';

const state = {
  pieces: {},     // square name -> FEN letter (upper case White, lower case Black)
  side: 'w',
  ep: '-',        // the en-passant square after a pawn's double push, else '-'
  flipped: false,
  tool: null,     // a FEN letter to place, 'erase', or null (drag to move)
  tables: [],     // [{ endgame, example }] from /api/tables
  refused: [],    // [{ endgame, folder, reason }]: the folder's tables that could not be read
  start: null,    // the FEN that Reset goes back to
  probe: null,    // the last /api/probe answer for the position on the board
  line: null,     // { pieces, side, ep, uci: [...], san: [...], ply }: the mating line being stepped through, from its start
};
let request = 0;  // answers to older requests are dropped

const $ = (id) => document.getElementById(id);
const board = $('board');
const colorName = (side) => (side === 'w' ? 'White' : 'Black');
const isWhite = (letter) => letter === letter.toUpperCase();

function parseFen(fen) {
  const fields = fen.trim().split(/\s+/);
  const ranks = (fields[0] || '').split('/');
  if (ranks.length !== 8 || !/^[wb]$/.test(fields[1] || '')) return null;
  const pieces = {};
  for (let r = 0; r < 8; r++) {
    let file = 0;
    for (const c of ranks[r]) {
      if (/[1-8]/.test(c)) file += Number(c);
      else if (/[KQRBNPkqrbnp]/.test(c) && file < 8) pieces[FILES[file++] + (8 - r)] = c;
      else return null;
    }
    if (file !== 8) return null;
  }
  const ep = /^[a-h][36]$/.test(fields[3] || '') ? fields[3] : '-';
  return { pieces, side: fields[1], ep };
}

function toFen(pieces, side, ep) {
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
  return rows.join('/') + ' ' + side + ' - ' + (ep || '-') + ' 0 1';
}

/** The endgame's name as the tables spell it: White's pieces, then Black's, kings first ("KQKR"). */
function materialOf(pieces) {
  const letters = Object.values(pieces);
  const side = (white) => letters.filter((l) => isWhite(l) === white).map((l) => l.toUpperCase())
    .sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)).join('');
  return side(true) + side(false);
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

function pieceElement(letter) {
  const piece = document.createElement('span');
  piece.className = 'piece ' + (isWhite(letter) ? 'white' : 'black');
  piece.textContent = GLYPH[letter.toUpperCase()];
  piece.dataset.piece = letter;
  return piece;
}

function render() {
  const best = state.probe && state.probe.best_move;
  board.replaceChildren();
  board.classList.toggle('placing', state.tool !== null);
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
      const piece = pieceElement(p);
      piece.dataset.square = sq;
      piece.title = colorName(isWhite(p) ? 'w' : 'b') + ' ' + KIND[p.toUpperCase()] + ' ' + sq;
      cell.append(piece);
    }
    board.append(cell);
  }
  for (const b of document.querySelectorAll('#palette [data-tool]')) b.classList.toggle('armed', b.dataset.tool === state.tool);
  $('side').textContent = colorName(state.side) + ' to move';
  $('fen').value = toFen(state.pieces, state.side, state.ep);
  $('material').textContent = 'Material: ' + (materialOf(state.pieces) || 'none');
}

function coord(kind, text) {
  const s = document.createElement('span');
  s.className = 'coord ' + kind;
  s.textContent = text;
  return s;
}

/** A result for the side to move ({@code side}), as the API gives it: "White mates in 12", "Black is lost: mate in 3". */
function resultText(category, dtm, side) {
  const mover = colorName(side), other = colorName(side === 'w' ? 'b' : 'w');
  if (category === 'win') return mover + ' mates in ' + dtm;
  if (category === 'loss') return dtm === 0 ? 'Checkmate: ' + mover + ' is mated' : mover + ' is lost: ' + other + ' mates in ' + dtm;
  return 'Draw';
}

/** The result under the 50-move rule where the table has DTZ ('' where not): "50-move rule: cursed win, DTZ 107". */
function ruleText(category, dtz) {
  if (dtz == null) return '';
  if (category === 'draw') return '50-move rule: draw';
  const n = Math.abs(dtz), win = category === 'win';
  const kind = n <= 100 ? (win ? 'win' : 'loss') : (win ? 'cursed win (a draw by the rule)' : 'blessed loss (the rule saves it)');
  return '50-move rule: ' + kind + (dtz === 0 ? '' : ', DTZ ' + dtz);
}

function showRule(category, dtz) {
  const r = $('rule');
  r.textContent = ruleText(category, dtz);
  r.dataset.dtz = dtz == null ? '' : String(dtz);
  r.classList.toggle('cursed', dtz != null && Math.abs(dtz) > 100);
}

function afterText(m) {
  const next = state.side === 'w' ? 'b' : 'w';
  if (m.category === 'loss' && m.dtm === 0) return 'checkmate';
  return resultText(m.category, m.dtm, next).replace(/^Draw$/, 'draw');
}

function showResult(text, category, dtm) {
  const r = $('result');
  r.dataset.fen = toFen(state.pieces, state.side, state.ep); // the position this result is about
  r.textContent = text;
  r.dataset.category = category;
  r.dataset.dtm = dtm == null ? '' : String(dtm);
}

function showProbe(p, keepLine) {
  state.probe = p;
  const white = p.side_to_move === 'w';
  if (p.category === 'draw') showResult(p.stalemate ? 'Draw: stalemate' : 'Draw', 'draw', null);
  else showResult(resultText(p.category, p.dtm, p.side_to_move), p.category, p.dtm);
  showRule(p.category, p.dtz);

  const best = p.moves.find((m) => m.uci === p.best_move);
  $('best').textContent = best ? (p.category === 'loss' ? 'Best defence: ' : 'Best move: ') + best.san + ' (' + best.uci + ')' : '';
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
    if (m.dtz != null) { // the position after it under the 50-move rule, for the side to move there
      li.dataset.dtz = String(m.dtz);
      li.querySelector('.after').textContent += ' · DTZ ' + m.dtz;
      li.classList.toggle('cursed', Math.abs(m.dtz) > 100);
    }
    li.addEventListener('click', () => play(m.uci, false));
    li.addEventListener('mouseenter', () => hover(m.uci, true));
    li.addEventListener('mouseleave', () => hover(m.uci, false));
    list.append(li);
  }
  if (!keepLine) {
    state.line = p.mainline.length ? { pieces: { ...state.pieces }, side: state.side, ep: state.ep, uci: p.mainline, san: p.mainline_san, ply: 0 } : null;
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

/** No answer for the board: an illegal position ('illegal') or a material no table here holds ('missing'). */
function showRefusal(text, category, keepLine) {
  state.probe = null;
  showResult(text, category, null);
  showRule(category, null);
  $('best').textContent = '';
  $('moves').replaceChildren();
  if (!keepLine) state.line = null;
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

/** The pieces after a move in UCI: a capture replaces the taken piece, en passant takes the pawn beside, "e7e8n" promotes. */
function applyMove(pieces, uci) {
  const next = { ...pieces }, from = uci.slice(0, 2), to = uci.slice(2, 4), mover = next[from];
  if (mover.toUpperCase() === 'P' && from[0] !== to[0] && !next[to]) delete next[to[0] + from[1]];
  next[to] = uci.length > 4 ? (isWhite(mover) ? uci[4].toUpperCase() : uci[4].toLowerCase()) : mover;
  delete next[from];
  return next;
}

/** The en-passant square a move leaves: the one a pawn's double push passed over, else '-'. */
function enPassantAfter(pieces, uci) {
  const mover = pieces[uci.slice(0, 2)], from = Number(uci[1]), to = Number(uci[3]);
  return mover.toUpperCase() === 'P' && Math.abs(to - from) === 2 ? uci[0] + (from + to) / 2 : '-';
}

function play(uci, keepLine) {
  state.ep = enPassantAfter(state.pieces, uci);
  state.pieces = applyMove(state.pieces, uci);
  state.side = state.side === 'w' ? 'b' : 'w';
  if (!keepLine) state.line = null;
  update(keepLine);
}

function stepTo(ply) {
  const line = state.line;
  if (!line) return;
  let pieces = line.pieces, side = line.side, ep = line.ep;
  for (let i = 0; i < ply; i++) {
    ep = enPassantAfter(pieces, line.uci[i]);
    pieces = applyMove(pieces, line.uci[i]);
    side = side === 'w' ? 'b' : 'w';
  }
  state.pieces = pieces;
  state.side = side;
  state.ep = ep;
  line.ply = ply;
  update(true);
}

/** Why the board cannot be probed before asking the server, or null. */
function refusal() {
  const letters = Object.values(state.pieces);
  const kings = (l) => letters.filter((x) => x === l).length;
  if (kings('K') !== 1 || kings('k') !== 1) return ['Place one king of each colour', 'illegal'];
  const edgePawn = Object.keys(state.pieces).find((sq) => state.pieces[sq].toUpperCase() === 'P' && /[18]/.test(sq[1]));
  if (edgePawn) return ['A pawn cannot stand on ' + edgePawn + ': pawns stand on ranks 2 to 7', 'illegal'];
  const material = materialOf(state.pieces);
  const damaged = state.refused.find((t) => t.endgame === material);
  if (damaged) return ['The ' + material + ' table cannot be read (' + damaged.reason + '); the other tables answer', 'missing'];
  if (material.length > 2 && !state.tables.some((t) => t.endgame === material))
    return ['No ' + material + ' table here: this server has ' + (state.tables.map((t) => t.endgame).join(', ') || 'none'), 'missing'];
  return null;
}

async function update(keepLine) {
  const fen = toFen(state.pieces, state.side, state.ep);
  render();
  const refused = refusal();
  if (refused) { showRefusal(refused[0], refused[1], keepLine); return; }
  const id = ++request;
  try {
    const response = await fetch('/api/probe?fen=' + encodeURIComponent(fen));
    const answer = await response.json();
    if (id !== request) return;
    const unavailable = response.status === 404 || response.status === 503; // no table, or a damaged one
    if (answer.error) showRefusal(unavailable ? answer.error : 'Illegal position: ' + answer.error.replace(/^illegal position: /i, ''),
        unavailable ? 'missing' : 'illegal', keepLine);
    else showProbe(answer, keepLine);
  } catch (e) {
    if (id === request) showResult('The server did not answer: ' + e.message, 'illegal', null);
  }
}

/** A change of the set-up: no move was played, so no en-passant right is left. */
function changed() {
  state.ep = '-';
  state.line = null;
  update(false);
}

function arm(tool) {
  state.tool = state.tool === tool ? null : tool;
  render();
}

function buildPalette() {
  for (const row of document.querySelectorAll('.palette-row')) {
    for (const kind of ORDER) {
      const letter = row.dataset.color === 'w' ? kind : kind.toLowerCase();
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'tool';
      button.dataset.tool = letter;
      button.title = 'place a ' + colorName(row.dataset.color) + ' ' + KIND[kind];
      button.append(pieceElement(letter));
      button.addEventListener('click', () => arm(letter));
      row.append(button);
    }
  }
  $('eraser').addEventListener('click', () => arm('erase'));
  $('clear').addEventListener('click', () => { state.pieces = {}; changed(); });
}

// With a palette tool armed, a click on a square places that piece there (or removes what is there, with the eraser).
board.addEventListener('click', (e) => {
  if (!state.tool) return;
  const cell = e.target.closest('.square');
  if (!cell) return;
  const sq = cell.dataset.square;
  if (state.tool === 'erase') delete state.pieces[sq];
  else state.pieces[sq] = state.tool;
  changed();
});

// Dragging: pointer events, so mouse, touch and pen all work. A piece of the board dropped on an empty square
// moves there, on an occupied one swaps the two (no rules while setting up), off the board is removed; a piece
// of the palette dragged onto a square is placed there (a click on it arms it instead).
let drag = null, press = null;

function startDrag(element, e, from, letter) {
  const ghost = element.cloneNode(true);
  ghost.classList.add('dragging');
  ghost.style.left = e.clientX + 'px';
  ghost.style.top = e.clientY + 'px';
  document.body.append(ghost);
  drag = { from, letter, ghost };
}

board.addEventListener('pointerdown', (e) => {
  const piece = e.target.closest('.piece');
  if (!piece || state.tool) return;
  e.preventDefault();
  startDrag(piece, e, piece.dataset.square, null);
  piece.classList.add('lifted');
});
$('palette').addEventListener('pointerdown', (e) => {
  const tool = e.target.closest('[data-tool]');
  if (tool && tool.dataset.tool !== 'erase') press = { tool, x: e.clientX, y: e.clientY };
});
window.addEventListener('pointermove', (e) => {
  if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 6) {
    startDrag(press.tool.querySelector('.piece'), e, null, press.tool.dataset.tool);
    press = null;
  }
  if (!drag) return;
  drag.ghost.style.left = e.clientX + 'px';
  drag.ghost.style.top = e.clientY + 'px';
});
window.addEventListener('pointerup', (e) => {
  press = null;
  if (!drag) return;
  const { from, letter, ghost } = drag;
  drag = null;
  ghost.remove();
  const target = document.elementFromPoint(e.clientX, e.clientY);
  const cell = target && target.closest('#board .square');
  const to = cell && cell.dataset.square;
  if (from === null) { // from the palette
    if (to) { state.pieces[to] = letter; changed(); }
    return;
  }
  if (to === from) { render(); return; }
  const moved = state.pieces[from], other = to && state.pieces[to];
  delete state.pieces[from];
  if (to) state.pieces[to] = moved;
  if (other) state.pieces[from] = other;
  changed();
});

$('side').addEventListener('click', () => { state.side = state.side === 'w' ? 'b' : 'w'; changed(); });
$('flip').addEventListener('click', () => { state.flipped = !state.flipped; render(); });
$('reset').addEventListener('click', () => load(state.start));
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
    showResult('Cannot show this position: ' + (answer.error || 'cannot read it'), 'illegal', null);
    return;
  }
  state.pieces = parsed.pieces;
  state.side = parsed.side;
  state.line = null;
  state.ep = parsed.ep;
  update(false);
}

async function start() {
  buildPalette();
  try {
    const listed = await (await fetch('/api/tables')).json();
    state.tables = listed.tables;
    state.refused = listed.refused || [];
  } catch (e) {
    state.tables = [];
  }
  $('served').textContent = 'Tables served: ' + state.tables.map((t) => t.endgame).join(', ')
      + (state.refused.length ? '; cannot be read: ' + state.refused.map((t) => t.endgame).join(', ') : '');
  // the largest table with a win to show first (the list is largest first)
  const shown = state.tables.find((t) => t.example_wins) || state.tables[0];
  state.start = new URLSearchParams(location.search).get('fen') || (shown ? shown.example : '8/8/8/8/8/8/8/K6k w - - 0 1');
  load(state.start);
}

start();
