//! Natural loops of a reducible CFG and the loop nesting forest.
//!
//! A CFG is reducible iff every retreating edge of a depth-first search
//! (`to` at or before `from` in reverse post-order) goes to a block that
//! dominates its source; [`Loops::compute`] checks that and reports the first
//! offending edge otherwise. Loop bodies are found by walking predecessors
//! backwards from the latches, innermost headers first (decreasing reverse
//! post-order), jumping over already-discovered inner loops through a
//! union-find with path compression, so the whole forest costs near-linear
//! time (the scheme of Havlak / LLVM's LoopInfo for reducible graphs).

use super::{Cfg, DomTree, NONE};

/// A retreating edge whose target does not dominate its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Irreducible {
    pub from: u32,
    pub to: u32,
}

#[derive(Debug, Clone)]
pub struct Loops {
    /// Innermost loop (its header) containing each block; a header maps to itself.
    header_of: Vec<u32>,
    /// For headers: the header of the enclosing loop.
    parent: Vec<u32>,
    is_header: Vec<bool>,
    /// Pre/post numbers of headers in the loop forest.
    pre: Vec<u32>,
    post: Vec<u32>,
    depth: Vec<u32>,
}

impl Loops {
    pub fn compute(cfg: &Cfg, dom: &DomTree) -> Result<Loops, Irreducible> {
        let n = cfg.len();
        let mut is_header = vec![false; n];
        let mut latches: Vec<(u32, u32)> = Vec::new(); // (header, latch)
        for &b in cfg.rpo() {
            for &s in cfg.succs(b) {
                if cfg.is_back_edge(b, s) {
                    if !dom.dominates(s, b) {
                        return Err(Irreducible { from: b, to: s });
                    }
                    is_header[s as usize] = true;
                    latches.push((s, b));
                }
            }
        }
        // Group latches by header (counting sort on the header's rpo index).
        latches.sort_unstable_by_key(|&(h, _)| std::cmp::Reverse(cfg.rpo_index(h)));
        let mut header_of = vec![NONE; n];
        let mut parent = vec![NONE; n];
        let mut uf: Vec<u32> = (0..n as u32).collect();
        let mut work: Vec<u32> = Vec::new();
        let mut i = 0;
        while i < latches.len() {
            let h = latches[i].0;
            header_of[h as usize] = h;
            while i < latches.len() && latches[i].0 == h {
                if latches[i].1 != h {
                    work.push(latches[i].1);
                }
                i += 1;
            }
            while let Some(x) = work.pop() {
                let y = find(&mut uf, &header_of, x);
                if y == h {
                    continue;
                }
                if header_of[y as usize] == NONE {
                    header_of[y as usize] = h;
                } else {
                    // The root of an already-discovered inner loop.
                    parent[y as usize] = h;
                    uf[y as usize] = h;
                }
                work.extend_from_slice(cfg.preds(y));
            }
        }
        let mut l = Loops { header_of, parent, is_header, pre: vec![NONE; n], post: vec![NONE; n], depth: vec![0; n] };
        l.number(cfg);
        Ok(l)
    }

    fn number(&mut self, cfg: &Cfg) {
        // Children lists of the forest (CSR, in reverse post-order), then an iterative DFS.
        let n = self.header_of.len();
        let headers = || cfg.rpo().iter().copied().filter(|&b| self.is_header[b as usize]);
        let mut kid_off = vec![0u32; n + 1];
        for h in headers() {
            if let Some(p) = self.parent.get(h as usize).copied().filter(|&p| p != NONE) {
                kid_off[p as usize + 1] += 1;
            }
        }
        for i in 0..n {
            kid_off[i + 1] += kid_off[i];
        }
        let mut kids = vec![0u32; kid_off[n] as usize];
        for h in headers() {
            if let Some(p) = self.parent.get(h as usize).copied().filter(|&p| p != NONE) {
                kids[kid_off[p as usize] as usize] = h;
                kid_off[p as usize] += 1;
            }
        }
        for i in (1..=n).rev() {
            kid_off[i] = kid_off[i - 1];
        }
        kid_off[0] = 0;
        let roots: Vec<u32> = headers().filter(|&h| self.parent[h as usize] == NONE).collect();
        let (mut pre, mut post) = (0u32, 0u32);
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for r in roots {
            stack.push((r, kid_off[r as usize]));
            self.pre[r as usize] = pre;
            self.depth[r as usize] = 1;
            pre += 1;
            while let Some(top) = stack.last_mut() {
                let (h, next) = *top;
                if next < kid_off[h as usize + 1] {
                    top.1 += 1;
                    let c = kids[next as usize];
                    self.pre[c as usize] = pre;
                    self.depth[c as usize] = self.depth[h as usize] + 1;
                    pre += 1;
                    stack.push((c, kid_off[c as usize]));
                } else {
                    self.post[h as usize] = post;
                    post += 1;
                    stack.pop();
                }
            }
        }
    }

    pub fn is_header(&self, b: u32) -> bool {
        self.is_header[b as usize]
    }
    /// The header of the innermost loop containing `b`.
    pub fn innermost(&self, b: u32) -> Option<u32> {
        let h = self.header_of[b as usize];
        (h != NONE).then_some(h)
    }
    /// The header of the loop enclosing loop `h`.
    pub fn parent(&self, h: u32) -> Option<u32> {
        let p = self.parent[h as usize];
        (p != NONE).then_some(p)
    }
    /// Whether the loop headed by `h` contains block `b` (O(1)).
    pub fn contains(&self, h: u32, b: u32) -> bool {
        let hb = self.header_of[b as usize];
        if hb == NONE || !self.is_header[h as usize] {
            return false;
        }
        self.pre[h as usize] <= self.pre[hb as usize] && self.post[hb as usize] <= self.post[h as usize]
    }
    /// Loop nesting depth of `b` (0 outside every loop).
    pub fn depth(&self, b: u32) -> u32 {
        match self.header_of[b as usize] {
            NONE => 0,
            h => self.depth[h as usize],
        }
    }
}

fn find(uf: &mut [u32], header_of: &[u32], x: u32) -> u32 {
    let start = header_of[x as usize];
    if start == NONE {
        return x;
    }
    let mut r = start;
    while uf[r as usize] != r {
        r = uf[r as usize];
    }
    let mut c = start;
    while uf[c as usize] != r && c != r {
        let next = uf[c as usize];
        uf[c as usize] = r;
        c = next;
    }
    r
}
