// The analysis board's moves: a tree whose first line is the game and whose side lines are
// the variations a player tried. Pure data: unit-tested in Node.

/** A tree rooted in the position `start` ({fen, turn, towers, text}). */
export class MoveTree {
  constructor(start) {
    this.nodes = [{ id: 0, parent: null, move: null, position: start, children: [] }];
  }

  /** The root's id: the start position. */
  get root() {
    return 0;
  }

  node(id) {
    return this.nodes[id];
  }

  /**
   * Adds `move` (a MoveView with `after`, the position after it) after node `parent`; a move
   * already there is not added twice. Answers the child's id. The first child is the main line.
   */
  add(parent, move) {
    const p = this.nodes[parent];
    for (const c of p.children) {
      if (this.nodes[c].move.text === move.text) return c;
    }
    const id = this.nodes.length;
    this.nodes.push({ id, parent, move, position: move.after, children: [] });
    p.children.push(id);
    return id;
  }

  /** The ids from the root's first child down to `id`. */
  pathTo(id) {
    const out = [];
    for (let n = this.nodes[id]; n && n.parent !== null; n = this.nodes[n.parent]) out.push(n.id);
    return out.reverse();
  }

  /** How many moves lead to `id`. */
  depth(id) {
    return this.pathTo(id).length;
  }

  /** The line through `id` on to its end, following first children. */
  line(id) {
    const out = this.pathTo(id);
    let n = this.nodes[id];
    while (n.children.length) {
      n = this.nodes[n.children[0]];
      out.push(n.id);
    }
    return out;
  }

  /** The main line: the root's first children all the way. */
  mainLine() {
    return this.line(0);
  }

  /** Whether `id` lies on the main line. */
  onMainLine(id) {
    return id === 0 || this.mainLine().includes(id);
  }

  /** The node one move on from `id` along the line shown, or `id` at its end. */
  next(id) {
    const n = this.nodes[id];
    return n.children.length ? n.children[0] : id;
  }

  /** The node one move back, or the root. */
  prev(id) {
    const n = this.nodes[id];
    return n.parent === null ? id : n.parent;
  }

  /** Makes the variation through `id` the main line at each branching (promotes it). */
  promote(id) {
    for (let n = this.nodes[id]; n.parent !== null; n = this.nodes[n.parent]) {
      const siblings = this.nodes[n.parent].children;
      siblings.splice(siblings.indexOf(n.id), 1);
      siblings.unshift(n.id);
    }
  }

  /** Removes `id` and everything after it. */
  remove(id) {
    const n = this.nodes[id];
    if (n.parent === null) return;
    const siblings = this.nodes[n.parent].children;
    siblings.splice(siblings.indexOf(id), 1);
  }

  /**
   * The tree as a list for the move list: each item `{id, depth, variation}` in reading
   * order, side lines right after the move they replace, `variation` counting how deep in
   * side lines the item lies; `open`/`close` items mark where a side line starts and ends.
   */
  layout() {
    const out = [];
    const walk = (id, variation) => {
      let n = this.nodes[id];
      while (n.children.length) {
        const [main, ...others] = n.children;
        out.push({ id: main, variation });
        for (const o of others) {
          out.push({ open: true, variation: variation + 1 });
          out.push({ id: o, variation: variation + 1 });
          walk(o, variation + 1);
          out.push({ close: true, variation: variation + 1 });
        }
        n = this.nodes[main];
      }
    };
    walk(0, 0);
    return out;
  }
}
