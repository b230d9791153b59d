//! Function structure and SSA form: blocks, terminators, PHI placement,
//! operand ranges, and dominance of every use by its definition.
//!
//! [`verify_function`] walks a function once for its structure
//! ([`inst_structure`] on each instruction), and in a function of one block
//! (most of DXIL) checks the use rules in the same operand visit; a function
//! of several blocks gets its CFG and dominator tree ([`Analyses`]) first
//! and checks [`dominance`] in the same walk. A structure error anywhere is
//! reported before a use error.

use super::{block_place, cold, err, inst_place, Result, VerifyError};
use crate::analysis::{Cfg, DomTree};
use crate::bitcode::FunctionFacts;
use crate::ir::{Block, BlockId, Function, InstId, InstKind, Module, Type, Value};

/// What [`verify_function`] leaves to its caller.
pub(crate) enum Verdict {
    /// Structure and SSA form hold; a function of several blocks gives its CFG and dominator
    /// tree (for the structurizer: [`crate::analysis::Flows`]).
    /// (Boxed, as [`Verdict::Deferred`]'s analyses: most functions are one block, and a
    /// small verdict is not copied around.)
    Done(Option<Box<(Cfg, DomTree)>>),
    /// The structure holds; the use rules of the reachable blocks are left to the caller's
    /// walk over the instructions, [`Deferred::uses`] on each (the first broken one is the
    /// verdict, before any rule of a later group).
    Deferred(Box<Deferred>),
}

/// The use rules of a function of several blocks as read, for the caller's walk.
pub(crate) struct Deferred {
    pub(crate) a: Analyses,
    /// No instruction other than a PHI names one at or after it
    /// ([`FunctionFacts::forward_refs`] is false).
    ordered: bool,
}

impl Deferred {
    /// The use rules of instruction `id` of reachable block `bi`, which starts at
    /// instruction `first` ([`dominance`]). In a function without forward references
    /// (and, as read, without uses of a value-less instruction) a non-PHI's operand
    /// defined in its own block comes before it, so only one from an earlier block needs
    /// its block to dominate this one.
    #[inline(always)]
    pub(crate) fn uses(&self, f: &Function, void: &VoidTypes, bi: BlockId, first: u32, id: InstId) -> Result<()> {
        let inst = f.inst(id);
        if !self.ordered || matches!(inst.kind, InstKind::Phi { .. }) {
            return dominance(f, void, &self.a, bi, id);
        }
        let (inline, n, pool) = operand_parts(f, &inst.kind);
        for &v in inline[..n.min(3)].iter().chain(pool) {
            if let Value::Inst(d) = v {
                if d.0 < first && !self.a.dom.dominates(f.inst(d).block.0, bi.0) {
                    return Err(use_error(f, id, d, "ssa.dominance"));
                }
            }
        }
        Ok(())
    }
}

/// `as_read`: the function is exactly as the bitcode reader built it, and what
/// reading established about it ([`crate::bitcode::ReadFacts`]): no value named
/// that does not exist, and none without one while the type table has a single
/// `void`; blocks laid out and terminated; branch targets and PHI incoming
/// blocks in range. What is left of the structure rules is then where the
/// terminators branch (not to the entry block) and, with
/// [`FunctionFacts::late_phis`], PHI placement; and in a function of one block
/// without PHIs or forward references, the use rules hold too. A function of
/// several blocks gives back its CFG and dominator tree.
pub(crate) fn verify_function(
    m: &Module,
    f: &Function,
    void: &VoidTypes,
    as_read: Option<FunctionFacts>,
) -> Result<Verdict> {
    if f.blocks.is_empty() {
        return Err(cold(|| {
            err("function.blocks", format!("function `{}`", f.name), "a defined function without blocks")
        }));
    }
    let facts = as_read.filter(|_| void.unique);
    if let Some(facts) = facts.filter(|r| !r.late_phis) {
        // The reader vouches for the layout, the terminators, the operands and PHI placement.
        if let [b] = f.blocks.as_slice() {
            if !facts.phis && !facts.forward_refs {
                terminator_targets(m, f, b)?;
                return Ok(Verdict::Done(None));
            }
        } else if let Ok(a) = Analyses::of(f) {
            for b in &f.blocks {
                terminator_targets(m, f, b)?;
            }
            return Ok(Verdict::Deferred(Box::new(Deferred { a, ordered: !facts.forward_refs })));
        }
    }
    let (as_read, no_forward_refs) = match facts {
        Some(r) => (true, !r.forward_refs),
        None => (false, false),
    };
    if let [b] = f.blocks.as_slice() {
        // Most DXIL functions are one block: no CFG or dominator tree needed.
        let mut first_use = None;
        if as_read && no_forward_refs {
            walk::<true, false>(m, f, void, (BlockId(0), b, 0), &mut first_use)?;
        } else {
            walk::<true, true>(m, f, void, (BlockId(0), b, 0), &mut first_use)?;
        }
        return match first_use {
            Some((id, u)) => Err(u.error(f, id)),
            None => Ok(Verdict::Done(None)),
        };
    }
    // The CFG first (it needs only the terminators; if they are unsound the structure walk
    // says where), then one walk: structure, and dominance in the reachable blocks.
    let a = match Analyses::of(f) {
        Ok(a) => a,
        Err(e) => {
            structure(m, f, void)?;
            return Err(e);
        }
    };
    let check_operands = !as_read;
    let mut first_use = None;
    let mut next = 0u32;
    for (bi, b) in f.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        block_layout(f, bid, b, next)?;
        next = b.end;
        let reachable = a.cfg.is_reachable(bid.0);
        let mut phis_done = false;
        for id in b.insts() {
            if check_operands {
                inst_structure::<true>(m, f, void, bid, b.end, id, &mut phis_done, false)?;
            } else {
                inst_structure::<false>(m, f, void, bid, b.end, id, &mut phis_done, false)?;
            }
            if reachable && first_use.is_none() {
                first_use = dominance(f, void, &a, bid, id).err();
            }
        }
    }
    if next as usize != f.insts.len() {
        return Err(cold(|| err("block.layout", format!("function `{}`", f.name), "instructions outside every block")));
    }
    match first_use {
        Some(e) => Err(e),
        None => Ok(Verdict::Done(Some(Box::new((a.cfg, a.dom))))),
    }
}

/// The branch targets of block `b`'s terminator (of a function as read: its last
/// instruction, which the reader made a terminator).
#[inline]
fn terminator_targets(m: &Module, f: &Function, b: &Block) -> Result<()> {
    match b.terminator() {
        Some(t) => match &f.inst(t).kind {
            InstKind::Ret { .. } | InstKind::Unreachable => Ok(()),
            kind => targets(m, f, t, kind),
        },
        None => Ok(()),
    }
}

/// Blocks are contiguous runs of instructions ending in their only
/// terminator, PHIs come first, branch targets and operands are in range
/// (a function of several blocks, before its CFG is built).
fn structure(m: &Module, f: &Function, void: &VoidTypes) -> Result<()> {
    let mut next = 0u32;
    for (bi, b) in f.blocks.iter().enumerate() {
        walk::<false, true>(m, f, void, (BlockId(bi as u32), b, next), &mut None)?;
        next = b.end;
    }
    if next as usize != f.insts.len() {
        return Err(cold(|| err("block.layout", format!("function `{}`", f.name), "instructions outside every block")));
    }
    Ok(())
}

/// What an instruction of a one-block function breaks of the use rules
/// ([`one_block_use`]), found while [`walk`] visits its operands.
#[derive(Clone, Copy)]
enum Use {
    /// Operand `%0` breaks the rule.
    Bad(InstId, &'static str),
    /// A PHI with incoming values (the block has no predecessors).
    Phi,
}

impl Use {
    #[cold]
    fn error(self, f: &Function, id: InstId) -> VerifyError {
        match self {
            Use::Bad(d, rule) => use_error(f, id, d, rule),
            Use::Phi => {
                let from = match &f.inst(id).kind {
                    InstKind::Phi { incoming } => f.phis(*incoming).first().map_or(0, |p| p.1 .0),
                    _ => 0,
                };
                err("phi.incoming", inst_place(f, id), format!("incoming block {from} is not a predecessor"))
            }
        }
    }
}

/// The structure rules of block `b` ([`inst_structure`] for each of its
/// instructions, the block's layout first); with `USES` (a function of one
/// block), also the use rules in the same operand visit, the first broken
/// one kept in `first_use` (the walk goes on: a structure error later in the
/// function is reported first).
#[inline(always)]
fn walk<const USES: bool, const OPERANDS: bool>(
    m: &Module,
    f: &Function,
    void: &VoidTypes,
    (bid, b, next): (BlockId, &Block, u32),
    first_use: &mut Option<(InstId, Use)>,
) -> Result<()> {
    block_layout(f, bid, b, next)?;
    let mut phis_done = false;
    for id in b.insts() {
        let check = USES && first_use.is_none();
        if let Some(u) = inst_structure::<OPERANDS>(m, f, void, bid, b.end, id, &mut phis_done, check)? {
            *first_use = Some((id, u));
        }
    }
    if USES && b.end as usize != f.insts.len() {
        return Err(cold(|| err("block.layout", format!("function `{}`", f.name), "instructions outside every block")));
    }
    Ok(())
}

/// Block `bid` starts where the previous one ended (`next`) and is a
/// non-empty run of instructions.
fn block_layout(f: &Function, bid: BlockId, b: &Block, next: u32) -> Result<()> {
    if b.first != next || b.end <= b.first || b.end as usize > f.insts.len() {
        return Err(cold(|| {
            err(
                "block.layout",
                block_place(f, bid),
                format!("instructions {}..{} do not follow the previous block or are empty", b.first, b.end),
            )
        }));
    }
    Ok(())
}

/// Instruction `id` of block `bid` (which ends at `end`): it is listed in
/// its block, the block's only terminator is its last instruction, PHIs
/// come first (`phis_done`: a non-PHI was seen), operands, branch targets
/// and pools are in range. With `uses` (a function of one block whose use
/// rules have not failed yet), the same operand visit checks the use rules
/// of [`one_block_use`] and returns the first broken one.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn inst_structure<const OPERANDS: bool>(
    m: &Module,
    f: &Function,
    void: &VoidTypes,
    bid: BlockId,
    end: u32,
    id: InstId,
    phis_done: &mut bool,
    uses: bool,
) -> Result<Option<Use>> {
    let inst = f.inst(id);
    if inst.block != bid {
        return Err(cold(|| err("block.layout", inst_place(f, id), "instruction listed in another block")));
    }
    let is_last = id.0 + 1 == end;
    let is_terminator = inst.kind.is_terminator();
    if is_terminator != is_last {
        let what =
            if is_last { "the block does not end with a terminator" } else { "a terminator in the middle of a block" };
        return Err(cold(|| err("block.terminator", inst_place(f, id), what)));
    }
    if let InstKind::Phi { incoming } = &inst.kind {
        if *phis_done {
            return Err(cold(|| err("phi.position", inst_place(f, id), "a PHI after a non-PHI instruction")));
        }
        let incoming = f.phis(*incoming);
        if let Some((v, _)) = incoming.iter().find(|(v, _)| !in_range(m, f, *v)) {
            return Err(range_error(f, id, *v));
        }
        targets(m, f, id, &inst.kind)?;
        return Ok((uses && !incoming.is_empty()).then_some(Use::Phi));
    }
    *phis_done = true;
    // Operands in range; in a one-block function also the use rules, the first broken one
    // kept apart from the range errors. (Without `OPERANDS`, the reader vouches for both.)
    let mut bad = None;
    if OPERANDS {
        let (inline, n, pool) = operand_parts(f, &inst.kind);
        for &v in &inline[..n.min(3)] {
            operand(m, f, void, id, v, uses, &mut bad)?;
        }
        for &v in pool {
            operand(m, f, void, id, v, uses, &mut bad)?;
        }
    }
    if is_terminator {
        targets(m, f, id, &inst.kind)?;
    }
    Ok(bad)
}

/// Operand `v` of instruction `id` exists; with `uses`, the first use rule
/// an operand breaks goes to `bad`.
#[inline(always)]
fn operand(
    m: &Module,
    f: &Function,
    void: &VoidTypes,
    id: InstId,
    v: Value,
    uses: bool,
    bad: &mut Option<Use>,
) -> Result<()> {
    match v {
        Value::Inst(d) => {
            let Some(def) = f.insts.get(d.index()) else { return Err(range_error(f, id, v)) };
            if uses && (d.0 >= id.0 || void.is_void(def.ty)) && bad.is_none() {
                *bad = one_block_use(m, f, id, d).map(|(d, rule)| Use::Bad(d, rule));
            }
        }
        Value::Const(c) => {
            if c.index() >= m.consts.len() {
                return Err(range_error(f, id, v));
            }
        }
        v => {
            if !in_range(m, f, v) {
                return Err(range_error(f, id, v));
            }
        }
    }
    Ok(())
}

#[cold]
fn range_error(f: &Function, id: InstId, v: Value) -> VerifyError {
    err("operand.range", inst_place(f, id), format!("operand {v:?} does not exist"))
}

/// A terminator's branch targets exist and are not the entry block, a
/// switch's case constants exist, a PHI's incoming list and blocks exist.
fn targets(m: &Module, f: &Function, id: InstId, kind: &InstKind) -> Result<()> {
    let mut bad_target = None;
    let mut target = |t: BlockId| {
        if t.index() >= f.blocks.len() || t.0 == 0 {
            bad_target.get_or_insert(t);
        }
    };
    match kind {
        InstKind::Br { target: t } => target(*t),
        InstKind::CondBr { if_true, if_false, .. } => {
            target(*if_true);
            target(*if_false)
        }
        InstKind::Switch { default, cases, .. } => {
            target(*default);
            for (c, t) in f.case_pool.get(cases.range()).unwrap_or(&[]) {
                if c.index() >= m.consts.len() {
                    return Err(cold(|| {
                        err("operand.range", inst_place(f, id), "switch case constant does not exist")
                    }));
                }
                target(*t)
            }
        }
        InstKind::Phi { incoming } => {
            if f.phi_pool.get(incoming.range()).is_none() {
                return Err(cold(|| err("operand.range", inst_place(f, id), "PHI incoming list out of range")));
            }
            for (_, b) in f.phis(*incoming) {
                if b.index() >= f.blocks.len() {
                    bad_target.get_or_insert(*b);
                }
            }
        }
        _ => {}
    }
    if let Some(t) = bad_target {
        return Err(cold(|| {
            err(
                "block.target",
                inst_place(f, id),
                format!(
                    "names block {} (the function has {} blocks; the entry block has no predecessors)",
                    t.0,
                    f.blocks.len()
                ),
            )
        }));
    }
    Ok(())
}

/// The types of a module that have no value: `void`, found once per module
/// (an instruction of such a type cannot be used).
pub(super) struct VoidTypes {
    /// The `void` types, when there is one.
    one: Option<crate::ir::TypeId>,
    /// The types, one bit each, when there are several `void`s (hostile input).
    several: Vec<bool>,
    len: u32,
    /// At most one `void` type: the one the reader gives void instructions,
    /// none of which it lets be named as an operand.
    pub(super) unique: bool,
}

impl VoidTypes {
    /// From the walk over the types that found the `void`s ([`super::types::verify_dx_types`]).
    pub(super) fn from_scan(m: &Module, scan: super::types::TypeScan) -> VoidTypes {
        let list = &m.types.list;
        let several = if scan.unique { Vec::new() } else { list.iter().map(|t| matches!(t, Type::Void)).collect() };
        VoidTypes { one: scan.first, several, len: list.len() as u32, unique: scan.unique }
    }
    /// [`is_void`] by table: `void`, or a type that does not exist.
    #[inline(always)]
    fn is_void(&self, t: crate::ir::TypeId) -> bool {
        if t.0 >= self.len {
            return true;
        }
        if self.unique {
            Some(t) == self.one
        } else {
            self.several.get(t.0 as usize).copied().unwrap_or(true)
        }
    }
}

/// The use rules in a function of one block (whose structure
/// [`inst_structure`] checked, which rejects branches to the entry block):
/// the block has no predecessors, so a PHI with an incoming value names a
/// non-predecessor, and a use is dominated exactly when its definition
/// comes earlier in the block.
fn one_block_use(m: &Module, f: &Function, id: InstId, d: InstId) -> Option<(InstId, &'static str)> {
    if d == id {
        Some((d, "ssa.self-reference"))
    } else if is_void(m, f.inst(d).ty) {
        Some((d, "ssa.void-use"))
    } else if d.0 > id.0 {
        Some((d, "ssa.dominance"))
    } else {
        None
    }
}

fn use_error(f: &Function, id: InstId, d: InstId, rule: &'static str) -> VerifyError {
    let detail = match rule {
        "ssa.self-reference" => format!("%{} uses its own result", d.0),
        "ssa.void-use" => format!("uses %{}, which has no value", d.0),
        _ => format!("uses %{}, whose definition does not dominate the use", d.0),
    };
    err(rule, inst_place(f, id), detail)
}

/// The operands of a non-PHI instruction in [`Function::for_each_operand`]'s
/// order, without a closure (this visit is the verifier's hottest loop): up
/// to three held in the instruction, then a run of the value pool.
#[inline(always)]
pub(super) fn operand_parts<'f>(f: &'f Function, kind: &InstKind) -> ([Value; 3], usize, &'f [Value]) {
    const N: Value = Value::Arg(0);
    match kind {
        InstKind::Binary { lhs, rhs, .. } | InstKind::Cmp { lhs, rhs, .. } => ([*lhs, *rhs, N], 2, &[]),
        InstKind::Cast { value, .. } => ([*value, N, N], 1, &[]),
        InstKind::Select { cond, if_true, if_false } => ([*cond, *if_true, *if_false], 3, &[]),
        InstKind::Phi { .. } => ([N; 3], 0, &[]),
        InstKind::Call { callee, args, .. } => ([*callee, N, N], 1, f.values(*args)),
        InstKind::DxOp { callee, args, .. } => ([Value::Function(*callee), N, N], 1, f.values(*args)),
        InstKind::Alloca { count, .. } => ([*count, N, N], 1, &[]),
        InstKind::Load { ptr, .. } => ([*ptr, N, N], 1, &[]),
        InstKind::Store { ptr, value, .. } => ([*value, *ptr, N], 2, &[]),
        InstKind::Gep { base, indices, .. } => ([*base, N, N], 1, f.values(*indices)),
        InstKind::ExtractValue { agg, .. } => ([*agg, N, N], 1, &[]),
        InstKind::InsertValue { agg, value, .. } => ([*agg, *value, N], 2, &[]),
        InstKind::ExtractElement { vector, index } => ([*vector, *index, N], 2, &[]),
        InstKind::InsertElement { vector, value, index } => ([*vector, *value, *index], 3, &[]),
        InstKind::ShuffleVector { a, b, mask } => ([*a, *b, *mask], 3, &[]),
        InstKind::AtomicRmw { ptr, value, .. } => ([*ptr, *value, N], 2, &[]),
        InstKind::CmpXchg { ptr, cmp, new, .. } => ([*ptr, *cmp, *new], 3, &[]),
        InstKind::CondBr { cond, .. } | InstKind::Switch { cond, .. } => ([*cond, N, N], 1, &[]),
        InstKind::Ret { value: Some(v) } => ([*v, N, N], 1, &[]),
        InstKind::Fence { .. } | InstKind::Br { .. } | InstKind::Ret { value: None } | InstKind::Unreachable => {
            ([N; 3], 0, &[])
        }
    }
}

#[inline(always)]
fn in_range(m: &Module, f: &Function, v: Value) -> bool {
    match v {
        Value::Global(g) => g.index() < m.globals.len(),
        Value::Function(x) => x.index() < m.functions.len(),
        Value::Const(c) => c.index() < m.consts.len(),
        Value::Arg(a) => (a as usize) < f.param_tys.len(),
        Value::Inst(i) => i.index() < f.insts.len(),
        Value::Metadata(md) => md.index() < m.metadata.len(),
    }
}

/// The CFG and dominator tree of a function of several blocks whose
/// [`structure`] is sound.
pub(crate) struct Analyses {
    pub(crate) cfg: Cfg,
    pub(crate) dom: DomTree,
}

impl Analyses {
    fn of(f: &Function) -> Result<Analyses> {
        let cfg = Cfg::of_function(f).map_err(|e| err("cfg", format!("function `{}`", f.name), e.to_string()))?;
        let dom = DomTree::compute(&cfg);
        Ok(Analyses { cfg, dom })
    }
}

/// Instruction `id` of reachable block `bi`: every use is dominated by its
/// definition; a PHI's incoming value by the end of the incoming block,
/// which must be a predecessor; every reachable predecessor has an
/// incoming value.
#[inline]
pub(crate) fn dominance(f: &Function, void: &VoidTypes, a: &Analyses, bi: BlockId, id: InstId) -> Result<()> {
    let (cfg, dom) = (&a.cfg, &a.dom);
    let bi = bi.0;
    let inst = f.inst(id);
    if let InstKind::Phi { incoming } = &inst.kind {
        let preds = cfg.preds(bi);
        for &(v, from) in f.phis(*incoming) {
            if !cfg.is_reachable(from.0) {
                continue;
            }
            if !preds.contains(&from.0) {
                return Err(cold(|| {
                    err("phi.incoming", inst_place(f, id), format!("incoming block {} is not a predecessor", from.0))
                }));
            }
            if let Value::Inst(d) = v {
                let def = f.inst(d);
                if def.block.index() >= f.blocks.len() {
                    continue; // the structure walk reports it at %d
                }
                if void.is_void(def.ty) {
                    return Err(cold(|| {
                        err("ssa.void-use", inst_place(f, id), format!("uses %{}, which has no value", d.0))
                    }));
                }
                if !dom.dominates(def.block.0, from.0) {
                    return Err(cold(|| {
                        err(
                            "ssa.dominance",
                            inst_place(f, id),
                            format!("incoming %{} from block {} is not defined on that edge", d.0, from.0),
                        )
                    }));
                }
            }
        }
        for &p in preds {
            if !f.phis(*incoming).iter().any(|(_, from)| from.0 == p) {
                return Err(cold(|| {
                    err("phi.incoming", inst_place(f, id), format!("no incoming value for predecessor block {p}"))
                }));
            }
        }
        return Ok(());
    }
    let (inline, n, pool) = operand_parts(f, &inst.kind);
    for &v in inline[..n.min(3)].iter().chain(pool) {
        let Value::Inst(d) = v else { continue };
        let def = f.inst(d);
        if def.block.index() >= f.blocks.len() {
            continue; // the structure walk reports it at %d
        }
        let bad = if d == id {
            "ssa.self-reference"
        } else if void.is_void(def.ty) {
            "ssa.void-use"
        } else if def.block.0 == bi {
            if d.0 > id.0 {
                "ssa.dominance"
            } else {
                continue;
            }
        } else if !dom.dominates(def.block.0, bi) {
            "ssa.dominance"
        } else {
            continue;
        };
        return Err(use_error(f, id, d, bad));
    }
    Ok(())
}

fn is_void(m: &Module, t: crate::ir::TypeId) -> bool {
    matches!(m.types.list.get(t.0 as usize), Some(Type::Void) | None)
}
