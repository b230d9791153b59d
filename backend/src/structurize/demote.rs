//! Which SSA values must live in variables after structurization.
//!
//! The tree is turned into the CFG that lowering will emit for it (one node
//! per original block, per branch arm, per merge, loop header, continue
//! block and merge, exactly like the SPIR-V constructs of [`super::tree`]),
//! and every use of an instruction result whose defining `Block` node does
//! not dominate the use (or is unreachable) is demoted. This is precisely
//! SPIR-V's "definition dominates use" rule, so whatever is not demoted can
//! stay an SSA id.
//!
//! That CFG is never materialised: it is structured, so each node's
//! immediate dominator is known while the tree is walked. A node inside a
//! construct has one predecessor; a merge (or continue block) is created
//! after its construct, when all its predecessors are (the arms' ends and
//! the `Break`s/`Continue`s that target it), and its idom is their nearest
//! common dominator; a loop header's idom is the node before the loop (the
//! back edge comes from a node the header dominates). The pre/post numbers
//! for O(1) queries come from [`DomTree::from_idoms`].

use crate::analysis::{DomTree, NONE};
use crate::ir::{Block, BlockId, Function, InstId, InstKind, Value};
use crate::structurize::tree::{Cond, Node};

/// A breakable construct being walked: the meet of the predecessors found
/// so far of its merge and, for loops, of its continue block.
struct Frame {
    merge: u32,
    cont: u32,
    is_loop: bool,
}

struct G<'f> {
    f: &'f Function,
    /// Per node: its immediate dominator ([`NONE`]: unreachable; the entry, node 0, is its own).
    idom: Vec<u32>,
    /// Per node: depth in the dominator tree (unreachable nodes: 0).
    depth: Vec<u32>,
    def_node: Vec<u32>,
    uses: Vec<(u32, InstId)>,
    frames: Vec<Frame>,
}

pub fn compute(f: &Function, root: &Node) -> Vec<InstId> {
    // About three nodes per block (block, arm, merge) and a use per few instructions.
    let cap = f.blocks.len() * 3 + 1;
    let mut g = G {
        f,
        idom: Vec::with_capacity(cap),
        depth: Vec::with_capacity(cap),
        def_node: vec![NONE; f.blocks.len()],
        uses: Vec::with_capacity(f.insts.len() / 4),
        frames: Vec::new(),
    };
    g.idom.push(0);
    g.depth.push(0);
    g.walk(root, Some(0));
    let G { idom, def_node, uses, .. } = g;
    let mut demote: Vec<InstId> = if uses.is_empty() {
        Vec::new()
    } else {
        let dom = DomTree::from_idoms(idom, 0);
        uses.iter()
            .filter(|&&(at, i)| {
                let def = f.insts.get(i.index()).and_then(|x| def_node.get(x.block.index())).copied().unwrap_or(NONE);
                def == NONE || !dom.dominates(def, at)
            })
            .map(|&(_, i)| i)
            .collect()
    };
    demote.sort_unstable();
    demote.dedup();
    demote
}

/// Records, at walk node `at`, a use of `v` if it is an instruction.
fn value_use(at: u32, v: Value, uses: &mut Vec<(u32, InstId)>) {
    if let Value::Inst(i) = v {
        uses.push((at, i));
    }
}

/// Records, at walk node `at`, the values branch condition `c` reads.
fn cond_uses(at: u32, c: &Cond, uses: &mut Vec<(u32, InstId)>) {
    match c {
        Cond::Value(v) => value_use(at, *v, uses),
        Cond::VarEq(..) => {}
        Cond::Not(c) => cond_uses(at, c, uses),
    }
}

/// Records, at walk node `n`, every use in block `b` (phis excluded: their operands are copied
/// in the predecessors) of an instruction defined in another block.
fn block_uses(f: &Function, b: BlockId, blk: &Block, n: u32, uses: &mut Vec<(u32, InstId)>) {
    let end = blk.terminator().map_or(blk.end, |t| t.0);
    for i in blk.first..end {
        let Some(inst) = f.insts.get(i as usize) else { break };
        if matches!(inst.kind, InstKind::Phi { .. }) {
            continue;
        }
        f.for_each_operand(InstId(i), |v| {
            if let Value::Inst(j) = v {
                if f.insts.get(j.index()).is_none_or(|d| d.block != b) {
                    uses.push((n, j));
                }
            }
        });
    }
}

impl G<'_> {
    /// `p` if it is a reachable node, else [`NONE`].
    fn reach(&self, p: Option<u32>) -> u32 {
        match p {
            Some(p) if p == 0 || self.idom.get(p as usize).is_some_and(|&d| d != NONE) => p,
            _ => NONE,
        }
    }
    /// A new node whose only predecessor (or the meet of whose predecessors) is `idom`.
    fn node(&mut self, idom: u32) -> u32 {
        let depth = match idom {
            NONE => 0,
            d => self.depth.get(d as usize).map_or(0, |x| x + 1),
        };
        self.idom.push(idom);
        self.depth.push(depth);
        (self.idom.len() - 1) as u32
    }
    /// Adds predecessor `p` to a meet so far (`NONE`: none yet).
    fn meet(&self, acc: u32, p: Option<u32>) -> u32 {
        let p = self.reach(p);
        if p == NONE {
            return acc;
        }
        if acc == NONE {
            return p;
        }
        let (mut a, mut b) = (acc, p);
        let d = |x: u32| self.depth.get(x as usize).copied().unwrap_or(0);
        let up = |x: u32| self.idom.get(x as usize).copied().filter(|&i| i != NONE).unwrap_or(0);
        while a != b {
            if d(a) >= d(b) {
                a = up(a);
            } else {
                b = up(b);
            }
        }
        a
    }
    fn at(&mut self, cur: Option<u32>) -> u32 {
        match cur {
            Some(c) => c,
            None => self.node(NONE),
        }
    }
    fn use_value(&mut self, at: u32, v: Value) {
        value_use(at, v, &mut self.uses);
    }
    fn use_cond(&mut self, at: u32, c: &Cond) {
        cond_uses(at, c, &mut self.uses);
    }

    fn walk(&mut self, node: &Node, cur: Option<u32>) -> Option<u32> {
        match node {
            Node::Seq(v) => v.iter().fold(cur, |c, n| self.walk(n, c)),
            Node::Block(b) => {
                let n = self.node(self.reach(cur));
                let Some(blk) = self.f.blocks.get(b.index()) else { return Some(n) };
                if let Some(d) = self.def_node.get_mut(b.index()) {
                    *d = n;
                }
                block_uses(self.f, *b, blk, n, &mut self.uses);
                Some(n)
            }
            Node::If { cond, then_, else_ } => {
                let c = self.at(cur);
                self.use_cond(c, cond);
                let rc = self.reach(Some(c));
                let (t, e) = (self.node(rc), self.node(rc));
                let rt = self.walk(then_, Some(t));
                let re = self.walk(else_, Some(e));
                let m = self.meet(self.meet(NONE, rt), re);
                Some(self.node(m))
            }
            Node::Switch { selector, cases, default } => {
                let c = self.at(cur);
                self.use_value(c, *selector);
                let rc = self.reach(Some(c));
                self.frames.push(Frame { merge: NONE, cont: NONE, is_loop: false });
                for arm in cases.iter().map(|c| &c.1).chain(std::iter::once(&**default)) {
                    let a = self.node(rc);
                    let r = self.walk(arm, Some(a));
                    self.break_to_top(r);
                }
                let m = self.frames.pop().map_or(NONE, |f| f.merge);
                Some(self.node(m))
            }
            Node::Scope { body } => {
                let c = self.at(cur);
                let b = self.node(self.reach(Some(c)));
                self.frames.push(Frame { merge: NONE, cont: NONE, is_loop: false });
                let r = self.walk(body, Some(b));
                self.break_to_top(r);
                let m = self.frames.pop().map_or(NONE, |f| f.merge);
                Some(self.node(m))
            }
            Node::Loop { body } => {
                let c = self.at(cur);
                let h = self.node(self.reach(Some(c)));
                let b = self.node(self.reach(Some(h)));
                self.frames.push(Frame { merge: NONE, cont: NONE, is_loop: true });
                let r = self.walk(body, Some(b));
                let frame = self.frames.pop().unwrap_or(Frame { merge: NONE, cont: NONE, is_loop: true });
                // The continue block (its only successor is the header, which dominates it).
                let k = self.meet(frame.cont, r);
                self.node(k);
                Some(self.node(frame.merge))
            }
            Node::Break => {
                self.break_to_top(cur);
                None
            }
            Node::Continue => {
                if let Some(i) = self.frames.iter().rposition(|f| f.is_loop) {
                    let acc = self.frames.get(i).map_or(NONE, |f| f.cont);
                    let k = self.meet(acc, cur);
                    if let Some(f) = self.frames.get_mut(i) {
                        f.cont = k;
                    }
                }
                None
            }
            Node::Return(v) => {
                let c = self.at(cur);
                if let Some(v) = v {
                    self.use_value(c, *v);
                }
                None
            }
            Node::Unreachable => None,
            Node::PhiCopy { value, .. } => {
                let c = self.at(cur);
                self.use_value(c, *value);
                Some(c)
            }
            Node::SetVar { .. } => cur,
        }
    }

    /// `cur` branches to the merge of the innermost breakable construct.
    fn break_to_top(&mut self, cur: Option<u32>) {
        let Some(acc) = self.frames.last().map(|f| f.merge) else { return };
        let m = self.meet(acc, cur);
        if let Some(f) = self.frames.last_mut() {
            f.merge = m;
        }
    }
}

/// The previous implementation (an explicit CFG and Cooper–Harvey–Kennedy
/// dominators), kept as the oracle of the tests.
#[cfg(test)]
pub(super) mod reference {
    use crate::analysis::{Cfg, DomTree, NONE};
    use crate::ir::{Function, InstId, Value};
    use crate::structurize::tree::{Cond, Node};

    struct G<'f> {
        f: &'f Function,
        n: u32,
        edges: Vec<(u32, u32)>,
        def_node: Vec<u32>,
        uses: Vec<(u32, InstId)>,
        /// Breakable constructs: (merge node, continue node for loops).
        frames: Vec<(u32, u32)>,
    }

    pub fn compute(f: &Function, root: &Node) -> Vec<InstId> {
        let mut g = G {
            f,
            n: 1,
            edges: Vec::new(),
            def_node: vec![NONE; f.blocks.len()],
            uses: Vec::new(),
            frames: Vec::new(),
        };
        g.walk(root, Some(0));
        // Compressed adjacency from the edge list.
        let n = g.n as usize;
        let mut off = vec![0u32; n + 1];
        for &(a, _) in &g.edges {
            off[a as usize + 1] += 1;
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut fill = off.clone();
        let mut adj = vec![0u32; g.edges.len()];
        for &(a, b) in &g.edges {
            adj[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
        }
        let cfg =
            Cfg::from_succs(n, 0, |b| adj[off[b as usize] as usize..off[b as usize + 1] as usize].iter().copied());
        let dom = DomTree::compute(&cfg);
        let mut demote: Vec<InstId> = g
            .uses
            .iter()
            .filter(|&&(at, i)| {
                let def = f.insts.get(i.index()).and_then(|x| g.def_node.get(x.block.index())).copied().unwrap_or(NONE);
                def == NONE || !dom.dominates(def, at)
            })
            .map(|&(_, i)| i)
            .collect();
        demote.sort_unstable();
        demote.dedup();
        demote
    }

    impl G<'_> {
        fn node(&mut self) -> u32 {
            self.n += 1;
            self.n - 1
        }
        fn edge(&mut self, from: Option<u32>, to: u32) {
            if let Some(from) = from {
                self.edges.push((from, to));
            }
        }
        fn at(&mut self, cur: Option<u32>) -> u32 {
            match cur {
                Some(c) => c,
                None => self.node(),
            }
        }
        fn use_value(&mut self, at: u32, v: Value) {
            super::value_use(at, v, &mut self.uses);
        }
        fn use_cond(&mut self, at: u32, c: &Cond) {
            super::cond_uses(at, c, &mut self.uses);
        }

        fn walk(&mut self, node: &Node, cur: Option<u32>) -> Option<u32> {
            match node {
                Node::Seq(v) => v.iter().fold(cur, |c, n| self.walk(n, c)),
                Node::Block(b) => {
                    let n = self.node();
                    self.edge(cur, n);
                    let Some(blk) = self.f.blocks.get(b.index()) else { return Some(n) };
                    if let Some(d) = self.def_node.get_mut(b.index()) {
                        *d = n;
                    }
                    super::block_uses(self.f, *b, blk, n, &mut self.uses);
                    Some(n)
                }
                Node::If { cond, then_, else_ } => {
                    let c = self.at(cur);
                    self.use_cond(c, cond);
                    let (t, e, m) = (self.node(), self.node(), self.node());
                    self.edges.extend([(c, t), (c, e)]);
                    let rt = self.walk(then_, Some(t));
                    self.edge(rt, m);
                    let re = self.walk(else_, Some(e));
                    self.edge(re, m);
                    Some(m)
                }
                Node::Switch { selector, cases, default } => {
                    let c = self.at(cur);
                    self.use_value(c, *selector);
                    let m = self.node();
                    self.frames.push((m, NONE));
                    for arm in cases.iter().map(|c| &c.1).chain(std::iter::once(&**default)) {
                        let a = self.node();
                        self.edges.push((c, a));
                        let r = self.walk(arm, Some(a));
                        self.edge(r, m);
                    }
                    self.frames.pop();
                    Some(m)
                }
                Node::Scope { body } => {
                    let c = self.at(cur);
                    let (b, m) = (self.node(), self.node());
                    self.edges.push((c, b));
                    self.frames.push((m, NONE));
                    let r = self.walk(body, Some(b));
                    self.edge(r, m);
                    self.frames.pop();
                    Some(m)
                }
                Node::Loop { body } => {
                    let c = self.at(cur);
                    let (h, b, k, m) = (self.node(), self.node(), self.node(), self.node());
                    self.edges.extend([(c, h), (h, b), (k, h)]);
                    self.frames.push((m, k));
                    let r = self.walk(body, Some(b));
                    self.edge(r, k);
                    self.frames.pop();
                    Some(m)
                }
                Node::Break => {
                    if let Some(&(m, _)) = self.frames.last() {
                        self.edge(cur, m);
                    }
                    None
                }
                Node::Continue => {
                    if let Some(&(_, k)) = self.frames.iter().rev().find(|f| f.1 != NONE) {
                        self.edge(cur, k);
                    }
                    None
                }
                Node::Return(v) => {
                    let c = self.at(cur);
                    if let Some(v) = v {
                        self.use_value(c, *v);
                    }
                    None
                }
                Node::Unreachable => None,
                Node::PhiCopy { value, .. } => {
                    let c = self.at(cur);
                    self.use_value(c, *value);
                    Some(c)
                }
                Node::SetVar { .. } => cur,
            }
        }
    }
}
