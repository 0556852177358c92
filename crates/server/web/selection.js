// Picking a move on the board square by square. Pure: it knows only the legal moves
// (each with `path`, the start square and every landing square) and the squares chosen so
// far, so it is unit-tested in Node and used by the board.

/** The legal moves that start on `square`. */
export function movesFrom(legal, square) {
  return legal.filter((m) => m.path[0] === square);
}

/** The legal moves whose path begins with the squares chosen. */
export function candidates(legal, chosen) {
  const k = chosen.length;
  return legal.filter((m) => {
    if (m.path.length < k) return false;
    for (let i = 0; i < k; i++) if (m.path[i] !== chosen[i]) return false;
    return true;
  });
}

function last(path) {
  return path[path.length - 1];
}

/**
 * The squares to mark while a move is being picked: `finals`, every square where a
 * candidate move ends; `steps`, the squares a candidate lands on later before it ends
 * (a long capture's stops); `next`, the next landing squares.
 */
export function destinations(legal, chosen) {
  const finals = new Set();
  const steps = new Set();
  const next = new Set();
  if (!chosen.length) return { finals: [], steps: [], next: [] };
  const k = chosen.length;
  for (const m of candidates(legal, chosen)) {
    if (m.path.length <= k) continue;
    finals.add(last(m.path));
    next.add(m.path[k]);
    for (let i = k; i < m.path.length - 1; i++) steps.add(m.path[i]);
  }
  for (const s of finals) steps.delete(s);
  return { finals: [...finals], steps: [...steps], next: [...next] };
}

// The longest common beginning of the paths of `moves`.
function commonPrefix(moves) {
  if (!moves.length) return [];
  const first = moves[0].path;
  let n = first.length;
  for (const m of moves) {
    let i = 0;
    while (i < n && i < m.path.length && m.path[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n);
}

/**
 * What a click on `square` does, given the legal moves and the squares chosen so far.
 * Answers one of:
 * - `{kind: 'start', chosen}`: a tower is picked;
 * - `{kind: 'clear'}`: the picked tower is clicked again, the choice is dropped;
 * - `{kind: 'play', move}`: exactly one move fits;
 * - `{kind: 'extend', chosen}`: the path goes on through the square, more than one way on;
 * - `{kind: 'choose', square, options, via}`: several moves end on the square (or one ends
 *   and others go on through it, `via` true): the player must choose;
 * - `{kind: 'none', keep}`: nothing fits (`keep`: whether the choice so far stays);
 * - `{kind: 'idle'}`: nothing is picked and the square has no move.
 */
export function pick(legal, chosen, square) {
  if (!chosen.length) {
    return movesFrom(legal, square).length ? { kind: 'start', chosen: [square] } : { kind: 'idle' };
  }
  if (chosen.length === 1 && square === chosen[0]) return { kind: 'clear' };
  const k = chosen.length;
  const cands = candidates(legal, chosen);
  // Moves that end on the square, and moves that pass through it later.
  const ending = cands.filter((m) => m.path.length > k && last(m.path) === square);
  const passing = cands.filter((m) => m.path.indexOf(square, k) >= k && last(m.path) !== square);
  if (!ending.length && !passing.length) {
    if (movesFrom(legal, square).length) return { kind: 'start', chosen: [square] };
    return { kind: 'none', keep: k > 1 };
  }
  if (!ending.length) {
    if (passing.length === 1) return { kind: 'play', move: passing[0] };
    const on = goOn(legal, chosen, square);
    return on.length > k ? { kind: 'extend', chosen: on } : { kind: 'none', keep: true };
  }
  if (ending.length === 1 && !passing.length) return { kind: 'play', move: ending[0] };
  return { kind: 'choose', square, options: ending, via: passing.length > 0 };
}

/** The squares chosen after choosing to go on through `square` (a `via` choice). */
export function goOn(legal, chosen, square) {
  const k = chosen.length;
  const passing = candidates(legal, chosen).filter((m) => m.path.indexOf(square, k) >= k && last(m.path) !== square);
  // Each way on, cut after the square; as far as they all agree.
  const cut = passing.map((m) => ({ path: m.path.slice(0, m.path.indexOf(square, k) + 1) }));
  return cut.length ? commonPrefix(cut) : chosen.slice();
}

/**
 * A premove: a move asked for before the turn comes, as the start and end squares.
 * Answers the one legal move from `from` that ends on `to`, or null when none or several do.
 */
export function premoveMatch(legal, premove) {
  if (!premove) return null;
  const fits = legal.filter((m) => m.path[0] === premove.from && last(m.path) === premove.to);
  return fits.length === 1 ? fits[0] : null;
}
