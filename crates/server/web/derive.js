// What the game socket leaves out, derived from what it sends: it sends the start position
// and each move's notation, and the page works out each move's squares, the position after
// it in both notations, and the squares of each legal move. Pure functions of plain data:
// unit-tested in Node, and checked against the server's own positions in the browser tests.
//
// A position here is the server's form: { variant, turn, text, fen, towers }, where towers
// maps a square ('c3') to its checkers, top first: 'w'/'b' men, 'W'/'B' kings.

const FILES = 'abcdefgh';

function colourOf(letter) {
  return letter.toLowerCase() === 'w' ? 'white' : 'black';
}

function isKing(letter) {
  return letter === 'W' || letter === 'B';
}

/** The other side. */
export function otherSide(side) {
  return side === 'white' ? 'black' : 'white';
}

/** The squares strictly between `a` and `b` on their diagonal (empty if not on one). */
export function squaresBetween(a, b) {
  const [fa, ra] = [FILES.indexOf(a[0]), Number(a.slice(1)) - 1];
  const [fb, rb] = [FILES.indexOf(b[0]), Number(b.slice(1)) - 1];
  const df = Math.sign(fb - fa);
  const dr = Math.sign(rb - ra);
  if (Math.abs(fb - fa) !== Math.abs(rb - ra)) return [];
  const out = [];
  for (let f = fa + df, r = ra + dr; f !== fb; f += df, r += dr) out.push(FILES[f] + (r + 1));
  return out;
}

/**
 * A move of `towers` read from its notation (`c3-d4`, `e3:c5:e7`): its path (the start,
 * then every landing), the squares it jumps, in order, and whether it crowns a man. The
 * jumped square between two landings is the one occupied square between them: a legal
 * capture has exactly one there (the moving checker's start counts as empty).
 */
export function readMove(towers, text) {
  const path = text.split(/[-:]/);
  const captured = [];
  if (text.includes(':')) {
    for (let i = 0; i + 1 < path.length; i++) {
      const jumped = squaresBetween(path[i], path[i + 1]).find((sq) => sq !== path[0] && towers[sq]);
      if (jumped) captured.push(jumped);
    }
  }
  const top = (towers[path[0]] || ' ')[0];
  const lastRow = top === 'w' ? '8' : top === 'b' ? '1' : null;
  const promotes = !!lastRow && path.slice(1).some((sq) => sq.slice(1) === lastRow);
  return { path, captured, promotes };
}

/**
 * The towers after `move` ({ path, captured, promotes }). In Bashni each jumped tower gives
 * its top checker, which goes under the moving tower; in Russian draughts the jumped pieces
 * leave the board. A crowned man becomes a king on top of its tower.
 */
export function applyMove(variant, towers, move) {
  const out = { ...towers };
  const from = move.path[0];
  let mover = out[from] || '';
  delete out[from];
  for (const sq of move.captured) {
    const jumped = out[sq] || '';
    if (variant === 'bashni') {
      mover += jumped.slice(0, 1);
      if (jumped.length > 1) out[sq] = jumped.slice(1);
      else delete out[sq];
    } else {
      delete out[sq];
    }
  }
  if (move.promotes && mover) mover = mover[0].toUpperCase() + mover.slice(1);
  out[move.path[move.path.length - 1]] = mover;
  return out;
}

// A tower's checkers in the rulebooks' digits, top first: 0 a man, 1 a king, and a slash
// before the first checker of the other colour than the top's.
function towerDigits(tower) {
  let out = '';
  let prisoners = false;
  const top = colourOf(tower[0]);
  for (const letter of tower) {
    if (!prisoners && colourOf(letter) !== top) {
      out += '/';
      prisoners = true;
    }
    out += isKing(letter) ? '1' : '0';
  }
  return out;
}

function squaresOf(towers, side) {
  return Object.keys(towers).filter((sq) => towers[sq] && colourOf(towers[sq][0]) === side).sort();
}

/** The one-line notation of a position (`White: c3 0, ...; Black: ...; White to move`). */
export function positionText(towers, turn) {
  let out = '';
  for (const [side, name] of [['white', 'White'], ['black', 'Black']]) {
    const squares = squaresOf(towers, side);
    out += name + ':';
    out += squares.map((sq) => ' ' + sq + ' ' + towerDigits(towers[sq])).join(',');
    if (squares.length === 0) out += ' ';
    out += '; ';
  }
  return out + (turn === 'white' ? 'White' : 'Black') + ' to move';
}

/** The compact FEN form of a position (`W:Wc3,e3,Kg1:Bf6,h6=0/0`). */
export function positionFen(towers, turn) {
  let out = turn === 'white' ? 'W' : 'B';
  for (const [side, letter] of [['white', 'W'], ['black', 'B']]) {
    out += ':' + letter;
    out += squaresOf(towers, side).map((sq) => {
      const tower = towers[sq];
      if (tower.length === 1) return (isKing(tower[0]) ? 'K' : '') + sq;
      return sq + '=' + towerDigits(tower);
    }).join(',');
  }
  return out;
}

/** A position in the server's form. */
export function positionOf(variant, towers, turn) {
  return { variant, turn, text: positionText(towers, turn), fen: positionFen(towers, turn), towers };
}

/** A legal move as the socket sends it (its notation, or `{text, claims_draw}`), in full. */
export function legalMove(towers, sent) {
  const text = typeof sent === 'string' ? sent : sent.text;
  const full = { text, ...readMove(towers, text) };
  if (typeof sent !== 'string' && sent.claims_draw) full.claims_draw = true;
  return full;
}

/**
 * A state with everything the socket leaves out filled in: each move's squares, number,
 * colour and the position after it; the position now; each legal move's squares. What the
 * state already spells out (a state from the HTTP API) is kept as it is.
 */
export function complete(state) {
  if (!state || !state.start || !Array.isArray(state.moves)) return state;
  const out = Object.assign({}, state);
  const start = state.start;
  const blackStarts = start.turn === 'black' ? 1 : 0;
  let pos = start;
  out.moves = state.moves.map((record, ply) => {
    if (record.after && record.path) {
      pos = record.after;
      return record;
    }
    const move = readMove(pos.towers, record.text);
    const after = positionOf(pos.variant, applyMove(pos.variant, pos.towers, move), otherSide(pos.turn));
    const full = Object.assign({}, record, move, {
      ply, number: Math.floor((ply + blackStarts) / 2) + 1, color: pos.turn, after,
    });
    pos = after;
    return full;
  });
  if (!out.position) out.position = pos;
  const towers = out.position.towers;
  out.legal_moves = (state.legal_moves || []).map((m) => (typeof m === 'string' || !m.path ? legalMove(towers, m) : m));
  return out;
}
