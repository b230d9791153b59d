//! Which SSA values must live in variables after structurization.
//!
//! The tree is turned into the CFG that lowering will emit for it (one node
//! per original block, per branch arm, per merge, loop header, continue
//! block and merge, exactly like the SPIR-V constructs of [`super::tree`]),
//! its dominator tree is computed with [`crate::analysis`], and every use of
//! an instruction result whose defining `Block` node does not dominate the
//! use is demoted. This is precisely SPIR-V's "definition dominates use"
//! rule, so whatever is not demoted can stay an SSA id.

use crate::analysis::{Cfg, DomTree, NONE};
use crate::ir::{Function, InstId, InstKind, Value};
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
    let mut g =
        G { f, n: 1, edges: Vec::new(), def_node: vec![NONE; f.blocks.len()], uses: Vec::new(), frames: Vec::new() };
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
    let cfg = Cfg::from_succs(n, 0, |b| adj[off[b as usize] as usize..off[b as usize + 1] as usize].iter().copied());
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
        if let Value::Inst(i) = v {
            self.uses.push((at, i));
        }
    }
    fn use_cond(&mut self, at: u32, c: &Cond) {
        match c {
            Cond::Value(v) => self.use_value(at, *v),
            Cond::VarEq(..) => {}
            Cond::Not(c) => self.use_cond(at, c),
        }
    }

    fn walk(&mut self, node: &Node, cur: Option<u32>) -> Option<u32> {
        match node {
            Node::Seq(v) => v.iter().fold(cur, |c, n| self.walk(n, c)),
            Node::Block(b) => {
                let n = self.node();
                self.edge(cur, n);
                let f = self.f;
                let Some(blk) = f.blocks.get(b.index()) else { return Some(n) };
                if let Some(d) = self.def_node.get_mut(b.index()) {
                    *d = n;
                }
                let end = blk.terminator().map_or(blk.end, |t| t.0);
                for i in blk.first..end {
                    let Some(inst) = f.insts.get(i as usize) else { break };
                    if matches!(inst.kind, InstKind::Phi { .. }) {
                        continue;
                    }
                    f.for_each_operand(InstId(i), |v| {
                        if let Value::Inst(j) = v {
                            if f.insts.get(j.index()).is_none_or(|d| d.block != *b) {
                                self.uses.push((n, j));
                            }
                        }
                    });
                }
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
