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
        let mut succ = Vec::new();
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
        let mut cfg = Cfg {
            entry,
            succ_off,
            succ,
            pred_off: Vec::new(),
            pred: Vec::new(),
            rpo: Vec::new(),
            rpo_index: Vec::new(),
        };
        cfg.compute_rpo();
        cfg.compute_preds();
        cfg
    }

    /// The CFG of a function's blocks (node `i` = `BlockId(i)`, entry block 0).
    pub fn of_function(f: &Function) -> Result<Cfg, CfgError> {
        let n = f.blocks.len();
        if n == 0 {
            return Err(CfgError::NoBlocks { func: f.name.clone() });
        }
        let mut lists: Vec<Vec<u32>> = Vec::with_capacity(n);
        for (i, b) in f.blocks.iter().enumerate() {
            let t = b
                .terminator()
                .and_then(|t| f.insts.get(t.index()).map(|inst| (t, inst)))
                .filter(|(_, inst)| inst.kind.is_terminator())
                .ok_or_else(|| CfgError::NoTerminator { func: f.name.clone(), block: i as u32 })?;
            let mut l: Vec<u32> = Vec::new();
            match &t.1.kind {
                InstKind::Br { target } => l.push(target.0),
                InstKind::CondBr { if_true, if_false, .. } => l.extend([if_true.0, if_false.0]),
                InstKind::Switch { default, cases, .. } => {
                    l.push(default.0);
                    let cases = f.case_pool.get(cases.range()).unwrap_or(&[]);
                    l.extend(cases.iter().map(|c| c.1 .0));
                }
                _ => {}
            }
            if let Some(&bad) = l.iter().find(|&&s| s as usize >= n) {
                return Err(CfgError::BadTarget { func: f.name.clone(), block: i as u32, target: bad });
            }
            lists.push(l);
        }
        Ok(Cfg::from_succs(n, 0, |b| lists[b as usize].iter().copied()))
    }

    fn compute_rpo(&mut self) {
        let n = self.len();
        let mut post = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        if (self.entry as usize) < n {
            // Iterative DFS: (node, index of the next successor to visit).
            let mut stack: Vec<(u32, u32)> = vec![(self.entry, self.succ_off[self.entry as usize])];
            seen[self.entry as usize] = true;
            while let Some(top) = stack.last_mut() {
                let (b, next) = *top;
                if next < self.succ_off[b as usize + 1] {
                    top.1 += 1;
                    let s = self.succ[next as usize];
                    if !seen[s as usize] {
                        seen[s as usize] = true;
                        stack.push((s, self.succ_off[s as usize]));
                    }
                } else {
                    post.push(b);
                    stack.pop();
                }
            }
        }
        post.reverse();
        let mut rpo_index = vec![NONE; n];
        for (i, &b) in post.iter().enumerate() {
            rpo_index[b as usize] = i as u32;
        }
        self.rpo = post;
        self.rpo_index = rpo_index;
    }

    fn compute_preds(&mut self) {
        let n = self.len();
        let mut count = vec![0u32; n + 1];
        for &b in &self.rpo {
            for &s in self.succs(b) {
                count[s as usize + 1] += 1;
            }
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut pred = vec![0u32; count[n] as usize];
        for &b in &self.rpo {
            let (lo, hi) = (self.succ_off[b as usize] as usize, self.succ_off[b as usize + 1] as usize);
            for &s in &self.succ[lo..hi] {
                pred[fill[s as usize] as usize] = b;
                fill[s as usize] += 1;
            }
        }
        self.pred_off = count;
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
