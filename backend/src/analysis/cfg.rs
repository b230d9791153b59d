//! A control-flow graph in compressed adjacency form, with predecessors and
//! a reverse post-order of the nodes reachable from the entry.

use super::NONE;
use crate::ir::{Function, InstKind};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CfgError {
    #[error("function `{func}` has no blocks")]
    NoBlocks { func: String },
    #[error("function `{func}`, block {block}: the block does not end with a terminator")]
    NoTerminator { func: String, block: u32 },
    #[error("function `{func}`, block {block}: branch to block {target}, which does not exist")]
    BadTarget { func: String, block: u32, target: u32 },
}

/// A CFG over nodes `0..len()`. Successor lists hold distinct targets in the
/// order the terminator names them; predecessor lists hold only reachable
/// predecessors (an edge from an unreachable node never matters to control
/// flow).
#[derive(Debug, Clone)]
pub struct Cfg {
    entry: u32,
    succ_off: Vec<u32>,
    succ: Vec<u32>,
    pred_off: Vec<u32>,
    pred: Vec<u32>,
    rpo: Vec<u32>,
    rpo_index: Vec<u32>,
}

impl Cfg {
    /// Builds a CFG from successor lists (duplicates are dropped). Targets
    /// must be `< n`.
    pub fn from_succs<I: IntoIterator<Item = u32>>(n: usize, entry: u32, mut succs: impl FnMut(u32) -> I) -> Cfg {
        let mut succ_off = Vec::with_capacity(n + 1);
        let mut succ = Vec::with_capacity(n * 2);
        let mut stamp = vec![NONE; n];
        succ_off.push(0);
        for b in 0..n as u32 {
            for s in succs(b) {
                if let Some(st) = stamp.get_mut(s as usize) {
                    if *st != b {
                        *st = b;
                        succ.push(s);
                    }
                }
            }
            succ_off.push(succ.len() as u32);
        }
        Cfg::finish(entry, succ_off, succ, stamp)
    }

    /// The CFG of a function's blocks (node `i` = `BlockId(i)`, entry block 0).
    pub fn of_function(f: &Function) -> Result<Cfg, CfgError> {
        let n = f.blocks.len();
        if n == 0 {
            return Err(CfgError::NoBlocks { func: f.name.clone() });
        }
        let mut succ_off = Vec::with_capacity(n + 1);
        let mut succ = Vec::with_capacity(n * 2);
        let mut stamp = vec![NONE; n];
        succ_off.push(0);
        for (i, b) in f.blocks.iter().enumerate() {
            let t = b
                .terminator()
                .and_then(|t| f.insts.get(t.index()).map(|inst| (t, inst)))
                .filter(|(_, inst)| inst.kind.is_terminator())
                .ok_or_else(|| CfgError::NoTerminator { func: f.name.clone(), block: i as u32 })?;
            let i = i as u32;
            let mut add = |s: u32| {
                let Some(st) = stamp.get_mut(s as usize) else {
                    return Err(CfgError::BadTarget { func: f.name.clone(), block: i, target: s });
                };
                if *st != i {
                    *st = i;
                    succ.push(s);
                }
                Ok(())
            };
            match &t.1.kind {
                InstKind::Br { target } => add(target.0)?,
                InstKind::CondBr { if_true, if_false, .. } => {
                    add(if_true.0)?;
                    add(if_false.0)?;
                }
                InstKind::Switch { default, cases, .. } => {
                    add(default.0)?;
                    for c in f.case_pool.get(cases.range()).unwrap_or(&[]) {
                        add(c.1 .0)?;
                    }
                }
                _ => {}
            }
            succ_off.push(succ.len() as u32);
        }
        Ok(Cfg::finish(0, succ_off, succ, stamp))
    }

    /// Reverse post-order and predecessors of the CFG `succ_off`/`succ`;
    /// `scratch` is any buffer of `n` words (reused for the DFS marks).
    fn finish(entry: u32, succ_off: Vec<u32>, succ: Vec<u32>, scratch: Vec<u32>) -> Cfg {
        let mut cfg =
            Cfg { entry, succ_off, succ, pred_off: Vec::new(), pred: Vec::new(), rpo: Vec::new(), rpo_index: scratch };
        cfg.compute_rpo();
        cfg.compute_preds();
        cfg
    }

    fn compute_rpo(&mut self) {
        let n = self.len();
        let mut post = Vec::with_capacity(n);
        // `rpo_index` doubles as the DFS's "seen" marks (0 = seen).
        let seen = &mut self.rpo_index;
        seen.clear();
        seen.resize(n, NONE);
        if (self.entry as usize) < n {
            // Iterative DFS: (node, index of the next successor to visit).
            let mut stack: Vec<(u32, u32)> = Vec::with_capacity(n.min(64));
            stack.push((self.entry, self.succ_off[self.entry as usize]));
            seen[self.entry as usize] = 0;
            while let Some(top) = stack.last_mut() {
                let (b, next) = *top;
                if next < self.succ_off[b as usize + 1] {
                    top.1 += 1;
                    let s = self.succ[next as usize];
                    if seen[s as usize] == NONE {
                        seen[s as usize] = 0;
                        stack.push((s, self.succ_off[s as usize]));
                    }
                } else {
                    post.push(b);
                    stack.pop();
                }
            }
        }
        post.reverse();
        let rpo_index = &mut self.rpo_index;
        rpo_index.fill(NONE);
        for (i, &b) in post.iter().enumerate() {
            rpo_index[b as usize] = i as u32;
        }
        self.rpo = post;
    }

    fn compute_preds(&mut self) {
        let n = self.len();
        // off[s + 1] counts, then prefix sums; placing moves off[s] to the
        // start of s + 1, and one shift restores the starts.
        let mut off = vec![0u32; n + 1];
        for &b in &self.rpo {
            for &s in self.succs(b) {
                off[s as usize + 1] += 1;
            }
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut pred = vec![0u32; off[n] as usize];
        for &b in &self.rpo {
            let (lo, hi) = (self.succ_off[b as usize] as usize, self.succ_off[b as usize + 1] as usize);
            for &s in &self.succ[lo..hi] {
                pred[off[s as usize] as usize] = b;
                off[s as usize] += 1;
            }
        }
        for i in (1..=n).rev() {
            off[i] = off[i - 1];
        }
        off[0] = 0;
        self.pred_off = off;
        self.pred = pred;
    }

    pub fn len(&self) -> usize {
        self.succ_off.len() - 1
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn entry(&self) -> u32 {
        self.entry
    }
    /// Distinct successors of `b`.
    pub fn succs(&self, b: u32) -> &[u32] {
        let (lo, hi) = (self.succ_off[b as usize] as usize, self.succ_off[b as usize + 1] as usize);
        &self.succ[lo..hi]
    }
    /// Distinct reachable predecessors of `b`.
    pub fn preds(&self, b: u32) -> &[u32] {
        let (lo, hi) = (self.pred_off[b as usize] as usize, self.pred_off[b as usize + 1] as usize);
        &self.pred[lo..hi]
    }
    /// Reachable nodes in reverse post-order (the entry first).
    pub fn rpo(&self) -> &[u32] {
        &self.rpo
    }
    /// Position of `b` in [`Cfg::rpo`], [`super::NONE`] when unreachable.
    pub fn rpo_index(&self, b: u32) -> u32 {
        self.rpo_index[b as usize]
    }
    pub fn is_reachable(&self, b: u32) -> bool {
        self.rpo_index[b as usize] != NONE
    }
    /// Whether `from → to` is a retreating edge of the DFS (`to` precedes or
    /// is `from` in reverse post-order). In a reducible CFG these are exactly
    /// the loop back edges.
    pub fn is_back_edge(&self, from: u32, to: u32) -> bool {
        self.rpo_index[to as usize] <= self.rpo_index[from as usize]
    }
}
