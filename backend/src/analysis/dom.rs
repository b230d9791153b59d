//! Dominator tree (Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
//! Algorithm": iterate intersections over reverse post-order; one or two
//! passes on reducible CFGs), with pre/post numbers for O(1) queries.

use super::{Cfg, NONE};

#[derive(Debug, Clone)]
pub struct DomTree {
    idom: Vec<u32>,
    child_off: Vec<u32>,
    children: Vec<u32>,
    pre: Vec<u32>,
    post: Vec<u32>,
    depth: Vec<u32>,
}

impl DomTree {
    pub fn compute(cfg: &Cfg) -> DomTree {
        let n = cfg.len();
        let mut idom = vec![NONE; n];
        let rpo = cfg.rpo();
        if let Some(&entry) = rpo.first() {
            idom[entry as usize] = entry;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new = NONE;
                for &p in cfg.preds(b) {
                    if idom[p as usize] == NONE {
                        continue;
                    }
                    new = if new == NONE { p } else { intersect(cfg, &idom, p, new) };
                }
                if new != NONE && idom[b as usize] != new {
                    idom[b as usize] = new;
                    changed = true;
                }
            }
        }
        // Children lists in reverse post-order.
        Self::with_children(idom, Some(rpo), rpo.first().copied())
    }

    /// The tree of known immediate dominators (`idom[root] == root`, [`NONE`]
    /// for unreachable nodes; every other chain must lead to `root`).
    /// Children are listed in increasing node order.
    pub fn from_idoms(idom: Vec<u32>, root: u32) -> DomTree {
        let root = ((root as usize) < idom.len()).then_some(root);
        Self::with_children(idom, None, root)
    }

    /// Children lists (counting sort by parent, in reverse post-order when
    /// `rpo` is given, else by node) and pre/post numbers from `root`.
    fn with_children(idom: Vec<u32>, rpo: Option<&[u32]>, root: Option<u32>) -> DomTree {
        let n = idom.len();
        let mut child_off = vec![0u32; n + 1];
        each_child(&idom, rpo, root, |_, p| child_off[p + 1] += 1);
        for i in 0..n {
            child_off[i + 1] += child_off[i];
        }
        // Placing moves child_off[p] to the start of p + 1; one shift restores the starts.
        let mut children = vec![0u32; child_off[n] as usize];
        each_child(&idom, rpo, root, |b, p| {
            children[child_off[p] as usize] = b;
            child_off[p] += 1;
        });
        for i in (1..=n).rev() {
            child_off[i] = child_off[i - 1];
        }
        child_off[0] = 0;
        let mut t = DomTree { idom, child_off, children, pre: vec![NONE; n], post: vec![NONE; n], depth: vec![0; n] };
        if let Some(root) = root {
            t.number(root);
        }
        t
    }

    fn number(&mut self, root: u32) {
        let (mut pre, mut post) = (0u32, 0u32);
        let mut stack: Vec<(u32, u32)> = vec![(root, self.child_off[root as usize])];
        self.pre[root as usize] = pre;
        pre += 1;
        while let Some(top) = stack.last_mut() {
            let (b, next) = *top;
            if next < self.child_off[b as usize + 1] {
                top.1 += 1;
                let c = self.children[next as usize];
                self.pre[c as usize] = pre;
                self.depth[c as usize] = self.depth[b as usize] + 1;
                pre += 1;
                stack.push((c, self.child_off[c as usize]));
            } else {
                self.post[b as usize] = post;
                post += 1;
                stack.pop();
            }
        }
    }

    /// Immediate dominator; the entry is its own, unreachable nodes have none.
    pub fn idom(&self, b: u32) -> Option<u32> {
        let d = self.idom[b as usize];
        (d != NONE).then_some(d)
    }
    /// Children in the dominator tree, in reverse post-order of the CFG.
    pub fn children(&self, b: u32) -> &[u32] {
        let (lo, hi) = (self.child_off[b as usize] as usize, self.child_off[b as usize + 1] as usize);
        &self.children[lo..hi]
    }
    /// Whether `a` dominates `b` (reflexive). False when either is unreachable.
    pub fn dominates(&self, a: u32, b: u32) -> bool {
        let (pa, pb) = (self.pre[a as usize], self.pre[b as usize]);
        pa != NONE && pb != NONE && pa <= pb && self.post[b as usize] <= self.post[a as usize]
    }
    /// Depth in the dominator tree (entry 0).
    pub fn depth(&self, b: u32) -> u32 {
        self.depth[b as usize]
    }
}

fn intersect(cfg: &Cfg, idom: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while cfg.rpo_index(a) > cfg.rpo_index(b) {
            a = idom[a as usize];
        }
        while cfg.rpo_index(b) > cfg.rpo_index(a) {
            b = idom[b as usize];
        }
    }
    a
}

/// Calls `f(node, parent)` for every node with a parent: the reachable
/// nodes after the entry in `rpo`, or every node but `root` with an idom.
fn each_child(idom: &[u32], rpo: Option<&[u32]>, root: Option<u32>, mut f: impl FnMut(u32, usize)) {
    match rpo {
        Some(r) => {
            for &b in r.iter().skip(1) {
                f(b, idom[b as usize] as usize);
            }
        }
        None => {
            for (b, &d) in idom.iter().enumerate() {
                if Some(b as u32) != root && d != NONE && (d as usize) < idom.len() {
                    f(b as u32, d as usize);
                }
            }
        }
    }
}
