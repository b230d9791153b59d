//! Test support for the structurizer: a seeded generator of random reducible
//! CFGs with phis, built as real IR; an interpreter over the IR CFG and one
//! over the [`StructuredFunction`] tree with the same semantics; and a
//! structural checker for trees. Compiled for tests and with the `testkit`
//! feature (benchmarks).

use super::tree::{Cond, Node, StructuredFunction};
use crate::ir::{
    BinOp, Block, BlockId, CmpPred, Const, ConstId, ConstKind, Function, Inst, InstId, InstKind, List, Module, Type,
    TypeId, Value,
};

/// splitmix64: small, seedable, good enough for test generation.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    /// True with probability `pct`%.
    pub fn pct(&mut self, pct: u32) -> bool {
        (self.next_u64() % 100) < pct as u64
    }
}

// ---------------------------------------------------------------- builder

const T_VOID: TypeId = TypeId(0);
const T_I32: TypeId = TypeId(1);
const T_I1: TypeId = TypeId(2);
const T_FN: TypeId = TypeId(3);
const T_FNPTR: TypeId = TypeId(4);

/// Small i32 constants 0..=SMALL are `ConstId(0..=SMALL)`; then i1 false/true.
const SMALL: u32 = 16;

fn c_i32(k: u32) -> Value {
    Value::Const(ConstId(k.min(SMALL)))
}

/// A block's terminator in a CFG shape ([`build_module`]).
#[derive(Debug, Clone)]
pub enum Term {
    Ret,
    Unreachable,
    Br(u32),
    CondBr(u32, u32),
    /// default, then (case value, target).
    Switch(u32, Vec<(u32, u32)>),
}

impl Term {
    fn succs(&self) -> Vec<u32> {
        match self {
            Term::Ret | Term::Unreachable => Vec::new(),
            Term::Br(t) => vec![*t],
            Term::CondBr(a, b) => vec![*a, *b],
            Term::Switch(d, cs) => std::iter::once(*d).chain(cs.iter().map(|c| c.1)).collect(),
        }
    }
    fn slots(&mut self) -> Vec<&mut u32> {
        match self {
            Term::Ret | Term::Unreachable => Vec::new(),
            Term::Br(t) => vec![t],
            Term::CondBr(a, b) => vec![a, b],
            Term::Switch(d, cs) => std::iter::once(d).chain(cs.iter_mut().map(|c| &mut c.1)).collect(),
        }
    }
}

/// Immediate dominators by the textbook bit-set data-flow (independent of
/// [`crate::analysis`], which the tests check against it). `None` for
/// unreachable blocks; the entry is its own.
pub fn naive_idoms(n: usize, succs: &dyn Fn(usize) -> Vec<u32>) -> Vec<Option<u32>> {
    let words = n.div_ceil(64);
    let mut reach = vec![false; n];
    let mut stack = vec![0usize];
    if n > 0 {
        reach[0] = true;
    }
    while let Some(b) = stack.pop() {
        for s in succs(b) {
            if !reach[s as usize] {
                reach[s as usize] = true;
                stack.push(s as usize);
            }
        }
    }
    let mut preds = vec![Vec::new(); n];
    for (b, _) in reach.iter().enumerate().filter(|r| *r.1) {
        for s in succs(b) {
            preds[s as usize].push(b);
        }
    }
    let full = vec![u64::MAX; words];
    let mut dom: Vec<Vec<u64>> = (0..n).map(|_| full.clone()).collect();
    if n > 0 {
        dom[0] = vec![0; words];
        dom[0][0] |= 1;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..n {
            if !reach[b] {
                continue;
            }
            let mut new = full.clone();
            for &p in &preds[b] {
                for w in 0..words {
                    new[w] &= dom[p][w];
                }
            }
            new[b / 64] |= 1 << (b % 64);
            if new != dom[b] {
                dom[b] = new;
                changed = true;
            }
        }
    }
    let count = |v: &Vec<u64>| v.iter().map(|w| w.count_ones()).sum::<u32>();
    (0..n)
        .map(|b| {
            if !reach[b] {
                return None;
            }
            if b == 0 {
                return Some(0);
            }
            // The strict dominator with the most dominators itself.
            let c = count(&dom[b]);
            (0..n)
                .filter(|&d| d != b && dom[b][d / 64] >> (d % 64) & 1 == 1)
                .find(|&d| count(&dom[d]) == c - 1)
                .map(|d| d as u32)
        })
        .collect()
}

/// Parameters of [`random_module`].
#[derive(Debug, Clone, Copy)]
pub struct GenParams {
    pub blocks: usize,
    pub args: u32,
    /// Largest forward distance of a "local" branch.
    pub span: usize,
    /// Percentage of forward branches that go anywhere forward instead of
    /// at most `span` blocks ahead (long jumps make deep region nests).
    pub long_pct: u32,
    /// Percentage of blocks ending in an early `ret` (plus one in six of
    /// those in `unreachable`).
    pub exit_pct: u32,
    /// Loops only add back edges and keep every forward edge (large CFGs then
    /// stay mostly reachable).
    pub keep_edges: bool,
}

impl GenParams {
    /// Small CFGs for the differential tests.
    pub fn small(blocks: usize, args: u32, span: usize) -> GenParams {
        GenParams { blocks, args, span, long_pct: 20, exit_pct: 6, keep_edges: false }
    }
    /// Large CFGs that stay reachable (benchmarks): mostly local branches,
    /// like compiled structured code with gotos.
    pub fn large(blocks: usize) -> GenParams {
        GenParams { blocks, args: 2, span: 6, long_pct: 0, exit_pct: 0, keep_edges: true }
    }
}

/// A module with one function `f(i32 × args) -> i32` whose CFG is a random
/// reducible graph: a random forward DAG (diamonds, switches with shared
/// targets and fall-through into later cases, early returns, unreachable
/// blocks) plus back edges to dominators (loops with several exits,
/// continues from nested constructs), with i32 phis and values used across
/// blocks wherever dominance allows.
pub fn random_module(seed: u64, p: GenParams) -> Module {
    let mut rng = Rng::new(seed);
    let n = p.blocks.max(2);
    let fwd = |rng: &mut Rng, i: usize| -> u32 {
        let lo = i + 1;
        if !rng.pct(p.long_pct) {
            (lo + rng.below(p.span.max(1))).min(n - 1) as u32
        } else {
            (lo + rng.below(n - lo)) as u32
        }
    };
    let mut terms: Vec<Term> = Vec::with_capacity(n);
    let mut falls: Vec<(usize, u32)> = Vec::new();
    for i in 0..n {
        let t = if i == n - 1 {
            Term::Ret
        } else {
            let r = rng.below(100);
            let e = p.exit_pct as usize;
            if i > 0 && r < e * 5 / 6 {
                Term::Ret
            } else if i > 0 && r < e {
                Term::Unreachable
            } else if r < 35 {
                Term::Br(fwd(&mut rng, i))
            } else if r < 82 {
                Term::CondBr(fwd(&mut rng, i), fwd(&mut rng, i))
            } else {
                let default = fwd(&mut rng, i);
                let k = 1 + rng.below(5);
                let mut cases: Vec<(u32, u32)> = Vec::new();
                let mut vals: Vec<u32> = (0..8).collect();
                for _ in 0..k {
                    let v = vals.swap_remove(rng.below(vals.len()));
                    let t = if !cases.is_empty() && rng.pct(30) {
                        cases[rng.below(cases.len())].1
                    } else if rng.pct(15) {
                        default
                    } else {
                        fwd(&mut rng, i)
                    };
                    cases.push((v, t));
                }
                // Fall-through: make a case block branch into another case block.
                if cases.len() >= 2 && rng.pct(50) {
                    let mut ts: Vec<u32> = cases.iter().map(|c| c.1).collect();
                    ts.sort_unstable();
                    ts.dedup();
                    if ts.len() >= 2 {
                        falls.push((ts[0] as usize, ts[1]));
                    }
                }
                Term::Switch(default, cases)
            }
        };
        let mut t = t;
        if p.keep_edges && i + 1 < n {
            // Large CFGs: every block reaches the next one (like code layout).
            if let Some(first) = t.slots().into_iter().next() {
                *first = i as u32 + 1;
            }
        }
        terms.push(t);
    }
    // Fall-through requests are honoured after the fact (block a → b).
    for (a, b) in falls {
        if let Some(t) = terms.get_mut(a) {
            if p.keep_edges {
                if a + 1 != b as usize {
                    *t = Term::CondBr(a as u32 + 1, b);
                }
            } else if !matches!(t, Term::Ret | Term::Unreachable) || rng.pct(50) {
                *t = Term::Br(b);
            }
        }
    }
    // Loops: back edges to dominators (the dominator tree of the DAG is not
    // changed by them, and removing forward edges only adds dominators).
    let idom = naive_idoms(n, &|b| terms[b].succs());
    for u in 1..n {
        if idom[u].is_none() || !rng.pct(30) {
            continue;
        }
        let mut chain = vec![u as u32];
        let mut d = idom[u].unwrap_or(0);
        while d != 0 {
            chain.push(d);
            d = idom[d as usize].unwrap_or(0);
        }
        let h = chain[rng.below(chain.len().min(6))];
        match &mut terms[u] {
            Term::CondBr(a, b) if p.keep_edges => {
                let (a, b) = (*a, *b);
                terms[u] = Term::Switch(a, vec![(0, b), (1, h)]);
            }
            Term::Switch(_, cs) if p.keep_edges => {
                let v = (0..8).find(|v| !cs.iter().any(|c| c.0 == *v));
                if let Some(v) = v {
                    cs.push((v, h));
                }
            }
            Term::Br(t) if p.keep_edges || rng.pct(60) => {
                let f = *t;
                terms[u] = if rng.pct(50) { Term::CondBr(h, f) } else { Term::CondBr(f, h) };
            }
            t => {
                let mut slots = t.slots();
                if !slots.is_empty() {
                    let k = rng.below(slots.len());
                    *slots[k] = h;
                }
            }
        }
    }
    build(&mut rng, p.args, &terms)
}

/// A module with one function of the given CFG shape (block `i` ends with
/// `terms[i]`), with random instructions and phis as in [`random_module`].
pub fn build_module(seed: u64, args: u32, terms: &[Term]) -> Module {
    build(&mut Rng::new(seed), args, terms)
}

/// Fills in instructions for a CFG shape.
fn build(rng: &mut Rng, nargs: u32, terms: &[Term]) -> Module {
    let n = terms.len();
    let mut m = Module::default();
    m.types.list = vec![
        Type::Void,
        Type::Int(32),
        Type::Int(1),
        Type::Function { ret: T_I32, params: vec![T_I32; nargs as usize], vararg: false },
        Type::Pointer { pointee: T_FN, addr_space: 0 },
    ];
    for k in 0..=SMALL {
        m.consts.push(Const { ty: T_I32, kind: ConstKind::Int(k as u64) });
    }
    m.consts.push(Const { ty: T_I1, kind: ConstKind::Int(0) });
    m.consts.push(Const { ty: T_I1, kind: ConstKind::Int(1) });
    let _ = T_VOID;

    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (b, t) in terms.iter().enumerate() {
        let mut s = t.succs();
        s.sort_unstable();
        s.dedup();
        for x in s {
            preds[x as usize].push(b as u32);
        }
    }
    let idom = naive_idoms(n, &|b| terms[b].succs());

    let mut f = Function {
        name: format!("rand_{n}"),
        ty: T_FN,
        ptr_ty: T_FNPTR,
        ret_ty: T_I32,
        param_tys: vec![T_I32; nargs as usize],
        ..Default::default()
    };
    // Values each block defines (i32 and i1), for later blocks to use.
    let mut defs32: Vec<Vec<Value>> = vec![Vec::new(); n];
    let mut defs1: Vec<Vec<Value>> = vec![Vec::new(); n];
    // Phis to fill once every block exists: (inst, block).
    let mut phis: Vec<(InstId, u32)> = Vec::new();

    // A value available at the end of block `b` (or anywhere in it, given
    // `local`, the values it defined so far).
    fn pick(rng: &mut Rng, nargs: u32, idom: &[Option<u32>], defs: &[Vec<Value>], b: u32, local: &[Value]) -> Value {
        let r = rng.below(100);
        if r < 10 || (nargs == 0 && r < 25) {
            return c_i32(rng.below(SMALL as usize + 1) as u32);
        }
        if r < 25 && nargs > 0 {
            return Value::Arg(rng.below(nargs as usize) as u32);
        }
        if r < 60 && !local.is_empty() {
            return local[rng.below(local.len())];
        }
        // Walk up a few dominators.
        let mut d = b;
        for _ in 0..1 + rng.below(4) {
            match idom.get(d as usize).copied().flatten() {
                Some(x) if x != d => d = x,
                _ => break,
            }
            if !defs[d as usize].is_empty() && rng.pct(50) {
                break;
            }
        }
        if d != b && !defs[d as usize].is_empty() {
            return defs[d as usize][rng.below(defs[d as usize].len())];
        }
        if !local.is_empty() {
            return local[rng.below(local.len())];
        }
        if nargs > 0 {
            Value::Arg(rng.below(nargs as usize) as u32)
        } else {
            c_i32(rng.below(4) as u32)
        }
    }

    let reachable = |b: usize| idom[b].is_some();
    for (b, term) in terms.iter().enumerate() {
        let first = f.insts.len() as u32;
        let bid = BlockId(b as u32);
        let mut local: Vec<Value> = Vec::new();
        let mut local1: Vec<Value> = Vec::new();
        let push = |f: &mut Function, kind: InstKind, ty: TypeId| -> Value {
            f.insts.push(Inst { kind, ty, block: bid });
            Value::Inst(InstId(f.insts.len() as u32 - 1))
        };
        // Phis.
        let np = preds[b].len();
        let nphi = if np >= 2 {
            rng.below(3)
        } else if np == 1 && rng.pct(10) {
            1
        } else {
            0
        };
        for _ in 0..nphi {
            let start = f.phi_pool.len() as u32;
            f.phi_pool.extend(preds[b].iter().map(|&p| (c_i32(0), BlockId(p))));
            let v = push(&mut f, InstKind::Phi { incoming: List { start, len: np as u32 } }, T_I32);
            if let Value::Inst(i) = v {
                phis.push((i, b as u32));
            }
            local.push(v);
        }
        // Arithmetic.
        let avail_idom: &[Option<u32>] = if reachable(b) { &idom } else { &[] };
        for _ in 0..1 + rng.below(3) {
            let lhs = pick(rng, nargs, avail_idom, &defs32, b as u32, &local);
            let ops = [
                BinOp::Add,
                BinOp::Sub,
                BinOp::Mul,
                BinOp::Xor,
                BinOp::And,
                BinOp::Or,
                BinOp::Shl,
                BinOp::LShr,
                BinOp::AShr,
            ];
            let op = ops[rng.below(ops.len())];
            let rhs = if matches!(op, BinOp::Shl | BinOp::LShr | BinOp::AShr) {
                c_i32(rng.below(5) as u32)
            } else {
                pick(rng, nargs, avail_idom, &defs32, b as u32, &local)
            };
            let v = push(&mut f, InstKind::Binary { op, lhs, rhs, flags: 0 }, T_I32);
            local.push(v);
        }
        // Occasionally a comparison for later blocks to branch on.
        if rng.pct(30) {
            let a = pick(rng, nargs, avail_idom, &defs32, b as u32, &local);
            let v = push(&mut f, InstKind::Cmp { pred: CmpPred::ISlt, lhs: a, rhs: c_i32(8), flags: 0 }, T_I1);
            local1.push(v);
        }
        let kind = match term {
            Term::Ret => InstKind::Ret { value: Some(pick(rng, nargs, avail_idom, &defs32, b as u32, &local)) },
            Term::Unreachable => InstKind::Unreachable,
            Term::Br(t) => InstKind::Br { target: BlockId(*t) },
            Term::CondBr(t, e) => {
                // Reuse a dominating comparison sometimes (a cross-block i1 use).
                let mut d = idom.get(b).copied().flatten();
                let mut reuse = None;
                while let Some(x) = d.filter(|&x| x as usize != b) {
                    if !defs1[x as usize].is_empty() {
                        reuse = Some(defs1[x as usize][rng.below(defs1[x as usize].len())]);
                        break;
                    }
                    d = idom.get(x as usize).copied().flatten().filter(|&y| y != x);
                }
                let cond = match reuse {
                    Some(c) if rng.pct(25) => c,
                    _ => {
                        let a = pick(rng, nargs, avail_idom, &defs32, b as u32, &local);
                        let c = pick(rng, nargs, avail_idom, &defs32, b as u32, &local);
                        let preds =
                            [CmpPred::IEq, CmpPred::INe, CmpPred::ISlt, CmpPred::IUgt, CmpPred::ISge, CmpPred::IUle];
                        let pred = preds[rng.below(preds.len())];
                        let x =
                            push(&mut f, InstKind::Binary { op: BinOp::And, lhs: a, rhs: c_i32(3), flags: 0 }, T_I32);
                        let y =
                            push(&mut f, InstKind::Binary { op: BinOp::And, lhs: c, rhs: c_i32(3), flags: 0 }, T_I32);
                        push(&mut f, InstKind::Cmp { pred, lhs: x, rhs: y, flags: 0 }, T_I1)
                    }
                };
                InstKind::CondBr { cond, if_true: BlockId(*t), if_false: BlockId(*e) }
            }
            Term::Switch(d, cases) => {
                let a = pick(rng, nargs, avail_idom, &defs32, b as u32, &local);
                let sel = push(&mut f, InstKind::Binary { op: BinOp::And, lhs: a, rhs: c_i32(7), flags: 0 }, T_I32);
                let start = f.case_pool.len() as u32;
                f.case_pool.extend(cases.iter().map(|&(v, t)| (ConstId(v), BlockId(t))));
                InstKind::Switch { cond: sel, default: BlockId(*d), cases: List { start, len: cases.len() as u32 } }
            }
        };
        f.insts.push(Inst { kind, ty: T_VOID, block: bid });
        f.blocks.push(Block { first, end: f.insts.len() as u32 });
        defs32[b] =
            local.iter().copied().filter(|v| matches!(v, Value::Inst(i) if f.insts[i.index()].ty == T_I32)).collect();
        defs1[b] = local1;
    }
    // Phi incoming values: something available at the end of the predecessor.
    for (phi, b) in phis {
        let InstKind::Phi { incoming } = f.insts[phi.index()].kind.clone() else { continue };
        for k in incoming.range() {
            let p = f.phi_pool[k].1 .0;
            let v = if idom[p as usize].is_some() {
                let own = defs32[p as usize].clone();
                pick(rng, nargs, &idom, &defs32, p, &own)
            } else {
                c_i32(rng.below(5) as u32)
            };
            f.phi_pool[k].0 = v;
        }
        let _ = b;
    }
    m.functions.push(f);
    m
}

// ------------------------------------------------------------ interpreters

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Return(Option<u64>),
    Unreachable,
    StepLimit,
    Error(String),
}

/// A run: its outcome and the original blocks executed, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub outcome: Outcome,
    pub trace: Vec<BlockId>,
}

fn width(m: &Module, ty: TypeId) -> u32 {
    m.types.list.get(ty.0 as usize).and_then(|t| t.scalar_bits()).unwrap_or(32)
}

fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 {
        v
    } else {
        v & ((1u64 << w) - 1)
    }
}

fn sext(v: u64, w: u32) -> i64 {
    crate::ir::sign_extend(v, w)
}

struct Values<'a> {
    m: &'a Module,
    f: &'a Function,
    args: &'a [u64],
    vals: Vec<Option<u64>>,
}

impl Values<'_> {
    fn get(&self, v: Value) -> Result<u64, String> {
        match v {
            Value::Const(c) => match self.m.consts.get(c.index()) {
                Some(Const { kind: ConstKind::Int(x), .. }) => Ok(*x),
                Some(Const { kind: ConstKind::Null, .. }) => Ok(0),
                _ => Err(format!("unsupported constant {c:?}")),
            },
            Value::Arg(i) => self.args.get(i as usize).copied().ok_or_else(|| format!("no argument {i}")),
            Value::Inst(i) => {
                self.vals.get(i.index()).copied().flatten().ok_or_else(|| format!("read of undefined %{}", i.0))
            }
            other => Err(format!("unsupported value {other:?}")),
        }
    }

    /// Evaluates a non-phi, non-terminator instruction.
    fn eval(&mut self, i: InstId) -> Result<(), String> {
        let inst = &self.f.insts[i.index()];
        let w = width(self.m, inst.ty);
        let r = match &inst.kind {
            InstKind::Binary { op, lhs, rhs, .. } => {
                let (a, b) = (self.get(*lhs)?, self.get(*rhs)?);
                match op {
                    BinOp::Add => a.wrapping_add(b),
                    BinOp::Sub => a.wrapping_sub(b),
                    BinOp::Mul => a.wrapping_mul(b),
                    BinOp::And => a & b,
                    BinOp::Or => a | b,
                    BinOp::Xor => a ^ b,
                    BinOp::Shl if b < w as u64 => a << b,
                    BinOp::LShr if b < w as u64 => mask(a, w) >> b,
                    BinOp::AShr if b < w as u64 => (sext(a, w) >> b) as u64,
                    other => return Err(format!("unsupported binary {other:?}")),
                }
            }
            InstKind::Cmp { pred, lhs, rhs, .. } => {
                let lw = width(self.m, self.m.value_type(self.f, *lhs));
                let (a, b) = (mask(self.get(*lhs)?, lw), mask(self.get(*rhs)?, lw));
                let (sa, sb) = (sext(a, lw), sext(b, lw));
                (match pred {
                    CmpPred::IEq => a == b,
                    CmpPred::INe => a != b,
                    CmpPred::IUgt => a > b,
                    CmpPred::IUge => a >= b,
                    CmpPred::IUlt => a < b,
                    CmpPred::IUle => a <= b,
                    CmpPred::ISgt => sa > sb,
                    CmpPred::ISge => sa >= sb,
                    CmpPred::ISlt => sa < sb,
                    CmpPred::ISle => sa <= sb,
                    other => return Err(format!("unsupported predicate {other:?}")),
                }) as u64
            }
            InstKind::Select { cond, if_true, if_false } => {
                if self.get(*cond)? & 1 == 1 {
                    self.get(*if_true)?
                } else {
                    self.get(*if_false)?
                }
            }
            other => return Err(format!("unsupported instruction {}", other.opcode_name())),
        };
        self.vals[i.index()] = Some(mask(r, w));
        Ok(())
    }

    fn switch_target(&self, cond: Value, cases: &[(ConstId, BlockId)], default: BlockId) -> Result<BlockId, String> {
        let w = width(self.m, self.m.value_type(self.f, cond));
        let s = mask(self.get(cond)?, w);
        for &(c, t) in cases {
            if self.m.consts.get(c.index()).and_then(|k| k.as_uint(&self.m.types)).map(|k| mask(k, w)) == Some(s) {
                return Ok(t);
            }
        }
        Ok(default)
    }
}

fn is_phi(f: &Function, i: u32) -> bool {
    matches!(f.insts.get(i as usize).map(|x| &x.kind), Some(InstKind::Phi { .. }))
}

/// Runs the function's CFG, executing at most `limit` blocks.
pub fn run_cfg(m: &Module, f: &Function, args: &[u64], limit: usize) -> Run {
    let mut st = Values { m, f, args, vals: vec![None; f.insts.len()] };
    let mut trace = Vec::new();
    let mut cur = BlockId(0);
    let mut prev: Option<BlockId> = None;
    let outcome = 'run: loop {
        if trace.len() >= limit {
            break Outcome::StepLimit;
        }
        trace.push(cur);
        let Some(blk) = f.blocks.get(cur.index()).copied() else { break Outcome::Error(format!("no block {}", cur.0)) };
        // Phis read their incoming values in parallel.
        let mut new = Vec::new();
        for i in blk.first..blk.end {
            if !is_phi(f, i) {
                break;
            }
            let InstKind::Phi { incoming } = &f.insts[i as usize].kind else { break };
            let Some(p) = prev else { break 'run Outcome::Error("phi in entry".into()) };
            let Some(&(v, _)) = f.phis(*incoming).iter().find(|e| e.1 == p) else {
                break 'run Outcome::Error(format!("phi %{i} has no entry for block {}", p.0));
            };
            match st.get(v) {
                Ok(x) => new.push((i, x)),
                Err(e) => break 'run Outcome::Error(e),
            }
        }
        for (i, x) in new {
            st.vals[i as usize] = Some(x);
        }
        let Some(term) = blk.terminator() else { break Outcome::Error("no terminator".into()) };
        for i in blk.first..term.0 {
            if !is_phi(f, i) {
                if let Err(e) = st.eval(InstId(i)) {
                    break 'run Outcome::Error(e);
                }
            }
        }
        prev = Some(cur);
        cur = match &f.insts[term.index()].kind {
            InstKind::Br { target } => *target,
            InstKind::CondBr { cond, if_true, if_false } => match st.get(*cond) {
                Ok(c) if c & 1 == 1 => *if_true,
                Ok(_) => *if_false,
                Err(e) => break Outcome::Error(e),
            },
            InstKind::Switch { cond, default, cases } => match st.switch_target(*cond, f.cases(*cases), *default) {
                Ok(t) => t,
                Err(e) => break Outcome::Error(e),
            },
            InstKind::Ret { value: None } => break Outcome::Return(None),
            InstKind::Ret { value: Some(v) } => match st.get(*v) {
                Ok(x) => break Outcome::Return(Some(x)),
                Err(e) => break Outcome::Error(e),
            },
            InstKind::Unreachable => break Outcome::Unreachable,
            _ => break Outcome::Error("bad terminator".into()),
        };
    };
    Run { outcome, trace }
}

enum Flow {
    Normal,
    Break,
    Continue,
    Exit(Outcome),
}

struct TreeRun<'a> {
    st: Values<'a>,
    phi_vars: Vec<Option<u64>>,
    vars: Vec<u32>,
    trace: Vec<BlockId>,
    limit: usize,
}

impl TreeRun<'_> {
    fn cond(&self, c: &Cond) -> Result<bool, String> {
        Ok(match c {
            Cond::Value(v) => self.st.get(*v)? & 1 == 1,
            Cond::VarEq(v, k) => self.vars.get(v.0 as usize).copied().unwrap_or(0) == *k,
            Cond::Not(c) => !self.cond(c)?,
        })
    }

    fn exec(&mut self, n: &Node) -> Flow {
        let f = self.st.f;
        match n {
            Node::Seq(v) => {
                for n in v {
                    match self.exec(n) {
                        Flow::Normal => {}
                        other => return other,
                    }
                }
                Flow::Normal
            }
            Node::Block(b) => {
                if self.trace.len() >= self.limit {
                    return Flow::Exit(Outcome::StepLimit);
                }
                self.trace.push(*b);
                let Some(blk) = f.blocks.get(b.index()).copied() else {
                    return Flow::Exit(Outcome::Error("bad block".into()));
                };
                let end = blk.terminator().map_or(blk.end, |t| t.0);
                for i in blk.first..end {
                    if is_phi(f, i) {
                        // A phi reads its variable where it stood.
                        match self.phi_vars[i as usize] {
                            Some(x) => self.st.vals[i as usize] = Some(x),
                            None => return Flow::Exit(Outcome::Error(format!("phi %{i} read before any copy"))),
                        }
                    } else if let Err(e) = self.st.eval(InstId(i)) {
                        return Flow::Exit(Outcome::Error(e));
                    }
                }
                Flow::Normal
            }
            Node::If { cond, then_, else_ } => match self.cond(cond) {
                Ok(true) => self.exec(then_),
                Ok(false) => self.exec(else_),
                Err(e) => Flow::Exit(Outcome::Error(e)),
            },
            Node::Switch { selector, cases, default } => {
                let w = width(self.st.m, self.st.m.value_type(f, *selector));
                let s = match self.st.get(*selector) {
                    Ok(s) => mask(s, w),
                    Err(e) => return Flow::Exit(Outcome::Error(e)),
                };
                let m = self.st.m;
                let arm = cases
                    .iter()
                    .find(|(labels, _)| {
                        labels.iter().any(|c| {
                            m.consts.get(c.index()).and_then(|k| k.as_uint(&m.types)).map(|k| mask(k, w)) == Some(s)
                        })
                    })
                    .map_or(&**default, |c| &c.1);
                match self.exec(arm) {
                    Flow::Break => Flow::Normal,
                    other => other,
                }
            }
            Node::Scope { body } => match self.exec(body) {
                Flow::Break => Flow::Normal,
                other => other,
            },
            Node::Loop { body } => loop {
                match self.exec(body) {
                    Flow::Normal | Flow::Continue => {}
                    Flow::Break => return Flow::Normal,
                    other => return other,
                }
            },
            Node::Break => Flow::Break,
            Node::Continue => Flow::Continue,
            Node::Return(v) => Flow::Exit(match v.map(|v| self.st.get(v)).transpose() {
                Ok(x) => Outcome::Return(x),
                Err(e) => Outcome::Error(e),
            }),
            Node::Unreachable => Flow::Exit(Outcome::Unreachable),
            Node::PhiCopy { phi, value } => match self.st.get(*value) {
                Ok(x) => {
                    self.phi_vars[phi.index()] = Some(x);
                    Flow::Normal
                }
                Err(e) => Flow::Exit(Outcome::Error(e)),
            },
            Node::SetVar { var, value } => {
                if let Some(v) = self.vars.get_mut(var.0 as usize) {
                    *v = *value;
                    Flow::Normal
                } else {
                    Flow::Exit(Outcome::Error(format!("variable {} out of range", var.0)))
                }
            }
        }
    }
}

/// Runs the structured tree with the same semantics as [`run_cfg`].
pub fn run_tree(m: &Module, f: &Function, sf: &StructuredFunction, args: &[u64], limit: usize) -> Run {
    let mut r = TreeRun {
        st: Values { m, f, args, vals: vec![None; f.insts.len()] },
        phi_vars: vec![None; f.insts.len()],
        vars: vec![0; sf.vars as usize],
        trace: Vec::new(),
        limit,
    };
    let outcome = match r.exec(&sf.root) {
        Flow::Exit(o) => o,
        Flow::Normal => Outcome::Error("fell off the end of the function".into()),
        Flow::Break | Flow::Continue => Outcome::Error("break/continue outside a construct".into()),
    };
    Run { outcome, trace: r.trace }
}

// ------------------------------------------------------------- checker

/// Structural checks of a tree against its function: every block reachable
/// in the CFG appears exactly once and no other block appears; `Break` only
/// inside a loop, switch or scope, `Continue` only inside a loop; variables
/// and phis referenced exist.
pub fn check_tree(f: &Function, sf: &StructuredFunction) -> Result<(), String> {
    let cfg = crate::analysis::Cfg::of_function(f).map_err(|e| e.to_string())?;
    let mut seen = vec![0u32; f.blocks.len()];
    fn walk(
        n: &Node,
        f: &Function,
        sf: &StructuredFunction,
        seen: &mut [u32],
        breakable: u32,
        loops: u32,
    ) -> Result<(), String> {
        match n {
            Node::Seq(v) => v.iter().try_for_each(|n| walk(n, f, sf, seen, breakable, loops)),
            Node::Block(b) => {
                let s = seen.get_mut(b.index()).ok_or(format!("block {} out of range", b.0))?;
                *s += 1;
                Ok(())
            }
            Node::If { cond, then_, else_ } => {
                let mut c = cond;
                while let Cond::Not(x) = c {
                    c = x;
                }
                if let Cond::VarEq(v, _) = c {
                    if v.0 >= sf.vars {
                        return Err(format!("variable {} out of range", v.0));
                    }
                }
                walk(then_, f, sf, seen, breakable, loops)?;
                walk(else_, f, sf, seen, breakable, loops)
            }
            Node::Switch { cases, default, .. } => {
                cases.iter().try_for_each(|c| walk(&c.1, f, sf, seen, breakable + 1, loops))?;
                walk(default, f, sf, seen, breakable + 1, loops)
            }
            Node::Scope { body } => walk(body, f, sf, seen, breakable + 1, loops),
            Node::Loop { body } => walk(body, f, sf, seen, breakable + 1, loops + 1),
            Node::Break if breakable == 0 => Err("break outside a construct".into()),
            Node::Continue if loops == 0 => Err("continue outside a loop".into()),
            Node::PhiCopy { phi, .. } if !is_phi(f, phi.0) => Err(format!("phi copy to non-phi %{}", phi.0)),
            Node::SetVar { var, .. } if var.0 >= sf.vars => Err(format!("variable {} out of range", var.0)),
            _ => Ok(()),
        }
    }
    walk(&sf.root, f, sf, &mut seen, 0, 0)?;
    for (b, &k) in seen.iter().enumerate() {
        let want = u32::from(cfg.is_reachable(b as u32));
        if k != want {
            return Err(format!("block {b} appears {k} times (reachable: {})", want == 1));
        }
    }
    Ok(())
}
