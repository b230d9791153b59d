//! Phase 1: place every reachable block in a nest of labelled regions and
//! loops (the "stackifier" of Ramsey's *Beyond Relooper*, with loop exits
//! hoisted out of their loops). The result ([`W`]) still has multi-level
//! branches ([`W::Br`]); [`super::resolve`] turns them into SPIR-V's
//! one-level `Break`/`Continue` and ladders.

use super::tree::{Cond, VarId};
use super::StructurizeError;
use crate::analysis::{Cfg, DomTree, Loops, NONE};
use crate::ir::{BlockId, ConstId, Function, InstId, InstKind, Value};

/// Nesting deeper than this (loops, arms of selections and switches) is
/// refused instead of risking the stack on hostile input.
pub const MAX_NESTING: u32 = 256;
/// Beyond this nesting depth a two-way branch with one inlined arm and one
/// exit is emitted as a guard (`if (exit) {..}` then the inlined arm flat in
/// the enclosing sequence), which keeps long early-exit chains flat.
const FLATTEN_DEPTH: u32 = 24;

/// Intermediate tree: flat sequences with region markers.
///
/// `BlockStart(z)` … `Label(z)` in one sequence delimit the region of merge
/// block `z`: a `Br { target: z, cont: false }` inside it (at any depth)
/// continues at `Label(z)`, which is followed by `z`'s code. A
/// `Br { cont: true }` restarts the enclosing `Loop` of that header.
#[derive(Debug, Clone, PartialEq)]
pub enum W {
    Code(u32),
    PhiCopy { phi: InstId, value: Value },
    If { cond: Cond, then_: Vec<W>, else_: Vec<W> },
    SetVar { var: VarId, value: u32 },
    Switch { selector: Value, cases: Vec<(Vec<ConstId>, Vec<W>)>, default: Vec<W> },
    Loop { header: u32, body: Vec<W> },
    BlockStart(u32),
    Label(u32),
    Br { target: u32, cont: bool },
    Return(Option<Value>),
    Unreachable,
}

/// The CFG facts phase 1 needs.
///
/// Nodes `0..real` are the function's blocks. A loop whose exit edges go to
/// two or more blocks gets one extra *dispatcher* node (`real..`): its exit
/// edges are redirected to the dispatcher, which sets nothing itself but
/// branches on a variable the exiting edge set. The exits then hang below
/// the dispatcher in the dominator tree, so after the loop they become arms
/// of one selection instead of a chain of regions and ladders. (An exit edge
/// is given to the outermost loop it leaves.)
pub struct Shape<'a> {
    pub f: &'a Function,
    pub real: u32,
    pub cfg: Cfg,
    pub loops: Loops,
    /// Blocks reached by a `Br` (merge blocks and hoisted loop exits) rather
    /// than inlined at their only predecessor's branch.
    pub labeled: Vec<bool>,
    /// Labelled blocks placed in the region of their placement parent, in
    /// reverse post-order: `inner` inside the parent's loop (or plainly after
    /// it for non-headers), `follows` after the parent's `Loop` construct.
    inner: Vec<Vec<u32>>,
    follows: Vec<Vec<u32>>,
    /// Number of leading phis per block.
    phis: Vec<u32>,
    /// Per real block: its redirected exit edges (target, dispatcher, selector value).
    redirect: Vec<Vec<(u32, u32, u32)>>,
    /// Per dispatcher: its variable and its targets (selector value = index + 1).
    dispatch: Vec<(VarId, Vec<u32>)>,
}

enum Task {
    Tree(u32),
    Body(u32),
    Label(u32),
}

impl<'a> Shape<'a> {
    /// The shape of `f`'s CFG; `flow`: its CFG and dominator tree, where an
    /// earlier pass computed them ([`Cfg::of_function`], [`DomTree::compute`]).
    pub fn new(f: &'a Function, flow: Option<(Cfg, DomTree)>) -> Result<Shape<'a>, StructurizeError> {
        let irreducible = |e: crate::analysis::Irreducible| StructurizeError::Irreducible {
            func: f.name.clone(),
            from: BlockId(e.from),
            to: BlockId(e.to),
        };
        let (cfg, dom) = match flow {
            Some(flow) => flow,
            None => {
                let cfg = Cfg::of_function(f)?;
                let dom = DomTree::compute(&cfg);
                (cfg, dom)
            }
        };
        let loops = Loops::compute(&cfg, &dom).map_err(irreducible)?;
        let real = cfg.len() as u32;

        // Exit edges, each with the outermost loop it leaves.
        let mut exits: Vec<(u32, u32, u32)> = Vec::new(); // (header, from, to)
        for &u in cfg.rpo() {
            if loops.innermost(u).is_none() {
                continue;
            }
            for &x in cfg.succs(u) {
                if cfg.is_back_edge(u, x) {
                    continue;
                }
                let (mut l, mut out) = (loops.innermost(u), NONE);
                while let Some(h) = l {
                    if loops.contains(h, x) {
                        break;
                    }
                    out = h;
                    l = loops.parent(h);
                }
                if out != NONE {
                    exits.push((out, u, x));
                }
            }
        }
        exits.sort_by_key(|e| cfg.rpo_index(e.0));
        // Allocated with the first dispatcher (most functions have none).
        let mut redirect: Vec<Vec<(u32, u32, u32)>> = Vec::new();
        let mut dispatch: Vec<(VarId, Vec<u32>)> = Vec::new();
        for group in exits.chunk_by(|a, b| a.0 == b.0) {
            let mut targets: Vec<u32> = group.iter().map(|e| e.2).collect();
            targets.sort_unstable_by_key(|&x| cfg.rpo_index(x));
            targets.dedup();
            if targets.len() < 2 {
                continue;
            }
            if redirect.is_empty() {
                redirect = vec![Vec::new(); real as usize];
            }
            let node = real + dispatch.len() as u32;
            for &(_, u, x) in group {
                let k = targets.iter().position(|&t| t == x).unwrap_or(0) as u32 + 1;
                redirect[u as usize].push((x, node, k));
            }
            dispatch.push((VarId(dispatch.len() as u32), targets));
        }
        let (cfg, dom, loops) = if dispatch.is_empty() {
            (cfg, dom, loops)
        } else {
            let total = real as usize + dispatch.len();
            let lists: Vec<Vec<u32>> = (0..total as u32)
                .map(|b| {
                    if b < real {
                        let r = &redirect[b as usize];
                        cfg.succs(b).iter().map(|&x| r.iter().find(|e| e.0 == x).map_or(x, |e| e.1)).collect()
                    } else {
                        dispatch[(b - real) as usize].1.clone()
                    }
                })
                .collect();
            let cfg = Cfg::from_succs(total, 0, |b| lists[b as usize].iter().copied());
            let dom = DomTree::compute(&cfg);
            let loops = Loops::compute(&cfg, &dom).map_err(irreducible)?;
            (cfg, dom, loops)
        };
        let n = cfg.len();
        let mut labeled = vec![false; n];
        let mut inner = vec![Vec::new(); n];
        let mut follows = vec![Vec::new(); n];
        for &b in cfg.rpo().iter().skip(1) {
            let d = dom.idom(b).unwrap_or(NONE);
            // The outermost loop that contains b's idom but not b: b is an
            // exit of it and is placed after it.
            let mut hoist = NONE;
            let mut l = loops.innermost(d);
            while let Some(h) = l {
                if loops.contains(h, b) {
                    break;
                }
                hoist = h;
                l = loops.parent(h);
            }
            if hoist != NONE {
                labeled[b as usize] = true;
                follows[hoist as usize].push(b);
            } else {
                let fwd = cfg.preds(b).iter().filter(|&&p| !cfg.is_back_edge(p, b)).count();
                if fwd >= 2 {
                    labeled[b as usize] = true;
                    inner[d as usize].push(b);
                }
            }
        }
        let phis: Vec<u32> = f
            .blocks
            .iter()
            .map(|b| {
                b.insts()
                    .take_while(|i| matches!(f.insts.get(i.index()).map(|x| &x.kind), Some(InstKind::Phi { .. })))
                    .count() as u32
            })
            .collect();
        Ok(Shape { f, real, cfg, loops, labeled, inner, follows, phis, redirect, dispatch })
    }

    pub fn phi_count(&self, b: u32) -> u32 {
        self.phis.get(b as usize).copied().unwrap_or(0)
    }

    /// Variables the dispatchers use (`VarId(0..n)`).
    pub fn dispatch_vars(&self) -> u32 {
        self.dispatch.len() as u32
    }

    /// Where the edge `from → to` of the function really branches in the
    /// virtual CFG: the target or its loop's dispatcher (with the selector value).
    fn route(&self, from: u32, to: u32) -> (u32, Option<(VarId, u32)>) {
        match self.redirect.get(from as usize).and_then(|r| r.iter().find(|e| e.0 == to)) {
            Some(&(_, node, k)) => {
                let var = self.dispatch.get((node - self.real) as usize).map_or(VarId(0), |d| d.0);
                (node, Some((var, k)))
            }
            None => (to, None),
        }
    }

    fn err_deep(&self, b: u32) -> StructurizeError {
        StructurizeError::TooDeep { func: self.f.name.clone(), block: BlockId(b), limit: MAX_NESTING }
    }

    /// The whole function as one sequence.
    pub fn build(&self) -> Result<Vec<W>, StructurizeError> {
        let mut out = Vec::new();
        self.seq_into(Task::Tree(self.cfg.entry()), &mut out, 0)?;
        Ok(out)
    }

    fn seq_into(&self, start: Task, out: &mut Vec<W>, depth: u32) -> Result<(), StructurizeError> {
        let mut tasks = vec![start];
        while let Some(t) = tasks.pop() {
            match t {
                Task::Label(z) => out.push(W::Label(z)),
                Task::Tree(x) if self.loops.is_header(x) => {
                    if depth >= MAX_NESTING {
                        return Err(self.err_deep(x));
                    }
                    let fs = &self.follows[x as usize];
                    out.extend(fs.iter().rev().map(|&f| W::BlockStart(f)));
                    let mut body = Vec::new();
                    self.seq_into(Task::Body(x), &mut body, depth + 1)?;
                    out.push(W::Loop { header: x, body });
                    for &f in fs.iter().rev() {
                        tasks.push(Task::Tree(f));
                        tasks.push(Task::Label(f));
                    }
                }
                Task::Tree(x) | Task::Body(x) => {
                    let ms = &self.inner[x as usize];
                    out.extend(ms.iter().rev().map(|&m| W::BlockStart(m)));
                    for &m in ms.iter().rev() {
                        tasks.push(Task::Tree(m));
                        tasks.push(Task::Label(m));
                    }
                    if x < self.real {
                        out.push(W::Code(x));
                    }
                    self.terminator(x, out, &mut tasks, depth)?;
                }
            }
        }
        Ok(())
    }

    /// Phi copies for the edge `from → to`, then either a `Br` (returns
    /// None) or, for a block inlined at this edge, its id.
    fn edge(&self, from: u32, to: u32, out: &mut Vec<W>) -> Result<Option<u32>, StructurizeError> {
        let f = self.f;
        if from < self.real {
            let first = f.blocks.get(to as usize).map_or(0, |b| b.first);
            let mut slot = None;
            for p in first..first + self.phi_count(to) {
                let phi = InstId(p);
                let Some(InstKind::Phi { incoming }) = f.insts.get(p as usize).map(|i| &i.kind) else { continue };
                let list = f.phi_pool.get(incoming.range()).unwrap_or(&[]);
                // Phis of one block usually list predecessors in the same order.
                let value = match slot.and_then(|s: usize| list.get(s)).filter(|e| e.1 .0 == from) {
                    Some(e) => e.0,
                    None => {
                        let Some(s) = list.iter().position(|e| e.1 .0 == from) else {
                            return Err(StructurizeError::BadPhi {
                                func: f.name.clone(),
                                block: BlockId(to),
                                pred: BlockId(from),
                            });
                        };
                        slot = Some(s);
                        list[s].0
                    }
                };
                out.push(W::PhiCopy { phi, value });
            }
        }
        let (to, set) = self.route(from, to);
        if let Some((var, value)) = set {
            out.push(W::SetVar { var, value });
        }
        if self.cfg.is_back_edge(from, to) {
            out.push(W::Br { target: to, cont: true });
            Ok(None)
        } else if self.labeled[to as usize] {
            out.push(W::Br { target: to, cont: false });
            Ok(None)
        } else {
            Ok(Some(to))
        }
    }

    /// A nested arm: the edge and, if inlined, the target's whole region.
    fn arm(&self, from: u32, to: u32, depth: u32) -> Result<Vec<W>, StructurizeError> {
        if depth >= MAX_NESTING {
            return Err(self.err_deep(from));
        }
        let mut v = Vec::new();
        if let Some(t) = self.edge(from, to, &mut v)? {
            self.seq_into(Task::Tree(t), &mut v, depth + 1)?;
        }
        Ok(v)
    }

    fn terminator(&self, x: u32, out: &mut Vec<W>, tasks: &mut Vec<Task>, depth: u32) -> Result<(), StructurizeError> {
        let f = self.f;
        if x >= self.real {
            // A dispatcher: if v == 1 {..} else if v == 2 {..} else {..}.
            let Some((var, targets)) = self.dispatch.get((x - self.real) as usize) else {
                return Err(StructurizeError::Internal {
                    func: f.name.clone(),
                    block: BlockId(x),
                    what: "no dispatcher".into(),
                });
            };
            let Some((&last, rest)) = targets.split_last() else { return Ok(()) };
            let mut tail = self.arm(x, last, depth)?;
            for (i, &t) in rest.iter().enumerate().rev() {
                let then_ = self.arm(x, t, depth)?;
                tail = vec![W::If { cond: Cond::VarEq(*var, i as u32 + 1), then_, else_: tail }];
            }
            out.extend(tail);
            return Ok(());
        }
        let kind =
            f.blocks.get(x as usize).and_then(|b| b.terminator()).and_then(|t| f.insts.get(t.index())).map(|i| &i.kind);
        match kind {
            Some(InstKind::Br { target }) => self.straight(x, target.0, out, tasks),
            Some(InstKind::CondBr { cond, if_true, if_false }) => {
                let (t, e) = (if_true.0, if_false.0);
                if t == e {
                    return self.straight(x, t, out, tasks);
                }
                let inline = |b: u32| {
                    let (b, _) = self.route(x, b);
                    !self.cfg.is_back_edge(x, b) && !self.labeled[b as usize]
                };
                if depth >= FLATTEN_DEPTH && inline(t) != inline(e) {
                    // Guard: the exit arm as a selection, the inlined arm flat.
                    let (stay, exit) = if inline(t) { (t, e) } else { (e, t) };
                    let mut ex = Vec::new();
                    self.edge(x, exit, &mut ex)?;
                    let (then_, else_) = if exit == t { (ex, Vec::new()) } else { (Vec::new(), ex) };
                    out.push(W::If { cond: Cond::Value(*cond), then_, else_ });
                    return self.straight(x, stay, out, tasks);
                }
                let then_ = self.arm(x, t, depth)?;
                let else_ = self.arm(x, e, depth)?;
                out.push(W::If { cond: Cond::Value(*cond), then_, else_ });
                Ok(())
            }
            Some(InstKind::Switch { cond, default, cases }) => {
                let list = f.case_pool.get(cases.range()).unwrap_or(&[]);
                let mut groups: Vec<(u32, Vec<ConstId>)> = Vec::new();
                for &(c, t) in list {
                    if t == *default {
                        continue;
                    }
                    match groups.iter_mut().find(|g| g.0 == t.0) {
                        Some(g) => g.1.push(c),
                        None => groups.push((t.0, vec![c])),
                    }
                }
                if groups.is_empty() {
                    return self.straight(x, default.0, out, tasks);
                }
                let mut arms = Vec::with_capacity(groups.len());
                for (t, labels) in groups {
                    arms.push((labels, self.arm(x, t, depth)?));
                }
                let default = self.arm(x, default.0, depth)?;
                out.push(W::Switch { selector: *cond, cases: arms, default });
                Ok(())
            }
            Some(InstKind::Ret { value }) => {
                out.push(W::Return(*value));
                Ok(())
            }
            Some(InstKind::Unreachable) => {
                out.push(W::Unreachable);
                Ok(())
            }
            _ => Err(StructurizeError::Internal {
                func: f.name.clone(),
                block: BlockId(x),
                what: "block without terminator".into(),
            }),
        }
    }

    fn straight(&self, x: u32, to: u32, out: &mut Vec<W>, tasks: &mut Vec<Task>) -> Result<(), StructurizeError> {
        if let Some(t) = self.edge(x, to, out)? {
            tasks.push(Task::Tree(t));
        }
        Ok(())
    }
}
