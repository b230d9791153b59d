//! The DXIL verifier: runs between the bitcode reader and lowering on every
//! compile and rejects, as [`VerifyError`], what lowering must never see.
//!
//! A module that passes has:
//! - well-formed functions ([`ssa`]): blocks ending in exactly one
//!   terminator, PHIs first, every operand in range, every use dominated by
//!   its definition (a PHI's by the end of its incoming block), no non-PHI
//!   instruction using its own result;
//! - consistent operand types for every LLVM instruction, constants of their
//!   type (struct fields included), global initializers of the global's
//!   type, element types that hold data, and DXIL's named structs
//!   (`dx.types.ResRet.f32`, ...) of their layout, LLVM atomics on
//!   groupshared memory only, lifetime markers of LLVM's signature ([`types`]);
//! - `dx.op` calls that match the operation table: parameter and return
//!   types, constant operands constant, ops the stage has; handles of the
//!   class and resource kind the op works on, sampled textures of a type
//!   sampling reads, annotations that agree with the binding, heap or
//!   library resource they describe, handles of declared ranges, library
//!   resources used through `CreateHandleForLib` only ([`dxop`]);
//! - DXIL metadata that decodes, and D3D12's limits ([`limits`]): thread
//!   group size, groupshared and local-array sizes, signature elements within
//!   32 rows × 4 columns without overlaps, the system values each signature
//!   may hold (one scalar depth, coverage and stencil output per pixel
//!   shader), GS output size, tessellation control points and factors, mesh
//!   output counts, library resource globals as large as their ranges.
//!
//! The rules follow DXC's validator where it has one (the rule's doc names
//! it); campaign findings that led to one are rebuilt as tests in
//! `conformance/tests/fuzz_findings.rs`.
//!
//! Each violation names the rule and the place (function, block,
//! instruction) and becomes `CompileError::Malformed`.
//!
//! Cost: the driver decodes the metadata once ([`crate::dxil::decode`]) for
//! the verifier, lowering and the linker, so the verifier only checks. Per
//! function, [`ssa`] walks the instructions once (a function of one block,
//! most of DXIL, needs no CFG; a function the bitcode reader vouches for —
//! [`verify_read`] with its [`ReadFacts`] — needs no visit of its operands),
//! then one walk checks operand types and `dx.op` calls together (and notes
//! the allocas for the local-array limit); a `dx.op` declaration is checked
//! against the operation table once per module and a call whose arguments have
//! the declared types needs no per-argument table lookup — in a function as
//! read, whose calls the reader found typed ([`FunctionFacts::untyped_calls`]),
//! only its constant operands are looked at, and the operand types of its binary
//! operations, comparisons, selects, returns and branches are not
//! ([`FunctionFacts::untyped_operands`]); that every constant has a type
//! of the module is the reader's fact too, and so is where the aggregate, data
//! and GEP, cast and binary-expression constants lie ([`ReadFacts::shaped_consts`]): the constant rules look
//! only there. The reader also takes the type table apart once
//! ([`crate::bitcode::TypeFacts`]: LLVM's element-type rules, the first type of
//! each fixed kind, the `void`s, where the `dx.types` structs lie), so of a
//! module as read only those structs' layouts and the types interned after
//! reading are looked at. The CFG and dominator tree of a function of several blocks go to
//! the structurizer ([`Flows`]), and what the walk saw that lowering would otherwise walk a
//! function for — whether it has an `alloca` or a PHI, whether the module makes heap
//! handles — to lowering's pre-passes ([`crate::analysis::Hints`]). The error reported is always the first of
//! the first rule group that has one, in the order structure, SSA, operand
//! types, `dx.op` calls, as if each group walked the function in turn.
//!
//! Entry points: [`verify_module`] (decodes the metadata itself) and
//! [`verify_decoded`] check any module and trust nothing; [`verify_read`] is
//! for a module exactly as the reader built it (the driver).

/// The set of enum values `k`, as bit `k` of an integer of the type the context gives
/// (`ResourceKind`s, `SemanticKind`s: every value below the width).
macro_rules! bit_set {
    ($($k:expr),* $(,)?) => {
        0 $(| 1 << ($k as u32))*
    };
}

mod dxop;
mod limits;
mod ssa;
mod types;

use crate::analysis::Flows;
use crate::bitcode::{FunctionFacts, ReadFacts};
use crate::dxil::{DxilError, DxilModuleInfo};
use crate::ir::{BlockId, Function, InstId, InstKind, Module};

/// Whether a compile runs the verifier: `false` only in a benchmark build
/// with the `bench-no-verify` feature (`dxjit bench` reports it).
#[doc(hidden)]
pub const RUNS_ON_COMPILE: bool = !cfg!(feature = "bench-no-verify");

/// One violated rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rule `{rule}`: {place}: {detail}")]
pub struct VerifyError {
    /// A short stable name of the rule (`ssa.dominance`, `limit.groupshared`, …).
    pub rule: &'static str,
    /// Where: function, block and instruction, or the metadata record.
    pub place: String,
    pub detail: String,
}

pub type Result<T> = std::result::Result<T, VerifyError>;

/// Verifies a module read by [`crate::bitcode::read_module`]: decodes its
/// DXIL metadata and runs [`verify_decoded`].
pub fn verify_module(m: &Module) -> Result<()> {
    let info = crate::dxil::decode(m).map_err(|e| metadata_error(&e))?;
    verify_decoded(m, &info)
}

/// The rule `metadata`: the DXIL metadata must decode. The driver decodes it
/// once ([`crate::dxil::decode`]) for the verifier, lowering and the linker,
/// and reports a failure as this.
pub fn metadata_error(e: &DxilError) -> VerifyError {
    err("metadata", "DXIL metadata".into(), e.to_string())
}

/// Verifies a module whose metadata decoded to `info`: every other rule.
pub fn verify_decoded(m: &Module, info: &DxilModuleInfo) -> Result<()> {
    verify(m, info, None).map(drop)
}

/// [`verify_decoded`] for a module exactly as [`crate::bitcode::read_module_with_facts`]
/// read it, with what reading established (`facts`): the operand-range and
/// use rules of a function the reader vouches for need no visit of its
/// operands. The verdict is the one [`verify_decoded`] gives; a verified
/// module comes with the CFG and dominator tree of each function of several
/// blocks, for the structurizer.
pub fn verify_read(m: &Module, info: &DxilModuleInfo, facts: &ReadFacts) -> Result<Flows> {
    verify(m, info, Some(facts))
}

fn verify(m: &Module, info: &DxilModuleInfo, facts: Option<&ReadFacts>) -> Result<Flows> {
    types::verify_constants(m, facts.map(|r| r.shaped_consts))?;
    types::verify_globals(m)?;
    let scan = types::verify_dx_types(m, facts.map(|r| &r.types))?;
    let void = ssa::VoidTypes::from_scan(m, scan);
    let mut calls = dxop::Calls::new(scan.known, facts.and_then(|r| r.odd_int_consts));
    let mut flows = Flows::default();
    // The walk notes each function's allocas for the local-array limit.
    let mut allocas = Vec::new();
    for (i, f) in m.functions.iter().enumerate().filter(|(_, f)| !f.is_declaration) {
        let id = crate::ir::FuncId(i as u32);
        let as_read = facts.map(|r| r.function(id));
        let before = allocas.len();
        verify_function(m, id, f, info, &void, as_read, &mut calls, &mut allocas, &mut flows)?;
        // No variables to declare: lowering need not look for them (a function as read
        // has a PHI only where the reader says so).
        if allocas.len() == before && as_read.is_some_and(|r| !r.phis) {
            flows.hints.note_no_locals(id);
        }
    }
    limits::verify_module(m, info, &allocas)?;
    flows.hints.heap_handles = calls.heap_handles();
    flows.hints.walked = true;
    Ok(flows)
}

/// A function: its structure and SSA form ([`ssa`]), then in one walk over
/// its instructions the operand types of LLVM instructions ([`types`]) and
/// the `dx.op` calls ([`dxop`]) — and, for a function of several blocks as
/// read, the use rules [`ssa`] left to this walk ([`ssa::Verdict::Deferred`]).
/// The error reported is the first of the first group that has one, in the
/// order structure, SSA, operand types, `dx.op` calls (an extracted component
/// a load's mask does not load comes last), as if each group walked the
/// function in turn.
///
/// A new per-instruction rule goes into [`Rules::inst`] (an LLVM instruction's
/// operand types: [`types::Checker::inst`]; a `dx.op` call's: [`dxop::call`]),
/// so that it runs in this one walk.
#[allow(clippy::too_many_arguments)]
fn verify_function<'m>(
    m: &'m Module,
    fid: crate::ir::FuncId,
    f: &'m Function,
    info: &DxilModuleInfo,
    void: &ssa::VoidTypes,
    as_read: Option<FunctionFacts>,
    calls: &mut dxop::Calls,
    allocas: &mut Vec<(crate::ir::FuncId, InstId)>,
    flows: &mut Flows,
) -> Result<()> {
    // As read without forward references, an extracted value has the type the reader gave
    // it: the aggregate's element at the (checked) indices.
    let extract_typed = as_read.is_some_and(|r| !r.forward_refs);
    // As read without forward references and without [`FunctionFacts::untyped_calls`], every
    // call's arguments have the callee's parameter types.
    let args_typed = as_read.is_some_and(|r| !r.forward_refs && !r.untyped_calls);
    // As read without forward references and without [`FunctionFacts::untyped_operands`], the
    // operand-type rules of binary operations, comparisons, selects, returns and branches hold.
    let operands_typed = as_read.is_some_and(|r| !r.forward_refs && !r.untyped_operands);
    let types = types::Checker::new(m, f);
    let stage = dxop::stage_of(fid, info);
    // (Blocks are contiguous runs of the instructions in order — the reader builds them so,
    // `ssa` checks it otherwise — so either walk notes the allocas in instruction order.)
    let mut rules = Rules {
        m,
        f,
        fid,
        info,
        types,
        calls,
        allocas,
        stage,
        extract_typed,
        args_typed,
        operands_typed,
        loads: false,
        dxop: None,
        extract: None,
    };
    match ssa::verify_function(m, f, void, as_read)? {
        ssa::Verdict::Done(flow) => {
            for id in (0..f.insts.len() as u32).map(InstId) {
                rules.inst(id)?;
            }
            rules.verdict()?;
            if let Some(flow) = flow {
                let (cfg, dom) = *flow;
                flows.insert(fid, cfg, dom);
            }
            Ok(())
        }
        ssa::Verdict::Deferred(d) => deferred(f, fid, void, rules, d, flows),
    }
}

/// [`verify_function`] for a function of several blocks as read: the use rules [`ssa`] left to
/// the walk first (the first broken one is the verdict), an operand-type error kept until the
/// walk has found none. (Out of line: most functions are one block.)
#[inline(never)]
fn deferred(
    f: &Function,
    fid: crate::ir::FuncId,
    void: &ssa::VoidTypes,
    mut rules: Rules<'_, '_>,
    d: Box<ssa::Deferred>,
    flows: &mut Flows,
) -> Result<()> {
    let mut types_error = None;
    for (bi, b) in f.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        let reachable = d.a.cfg.is_reachable(bid.0);
        for id in b.insts() {
            if reachable {
                d.uses(f, void, bid, b.first, id)?;
            }
            if types_error.is_none() {
                types_error = rules.inst(id).err();
            }
        }
    }
    if let Some(e) = types_error {
        return Err(e);
    }
    rules.verdict()?;
    let d = *d;
    flows.insert(fid, d.a.cfg, d.a.dom);
    Ok(())
}

/// The per-instruction rules after structure and SSA form, in one walk: an
/// operand-type error is returned at once, the first `dx.op` error and the
/// first extracted-component error are kept for [`Rules::verdict`].
struct Rules<'m, 'c> {
    m: &'m Module,
    f: &'m Function,
    fid: crate::ir::FuncId,
    info: &'c DxilModuleInfo,
    types: types::Checker<'m>,
    calls: &'c mut dxop::Calls,
    /// The allocas seen so far (for [`limits::verify_module`]).
    allocas: &'c mut Vec<(crate::ir::FuncId, InstId)>,
    /// The stage the function's ops run in ([`dxop::stage_of`]).
    stage: Option<crate::ShaderKind>,
    /// `extractvalue`'s operand-type rule holds by construction (the function is as read,
    /// without forward references: [`crate::bitcode::ReadFacts`]).
    extract_typed: bool,
    /// Every call's arguments have the callee's parameter types by construction (the function
    /// is as read, without forward references or [`FunctionFacts::untyped_calls`]).
    args_typed: bool,
    /// The operand-type rules of binary operations, comparisons, selects, returns and branches
    /// hold by construction (the function is as read, without forward references or
    /// [`FunctionFacts::untyped_operands`]).
    operands_typed: bool,
    /// The function has a `load` (for [`dxop::resource_users`]).
    loads: bool,
    dxop: Option<VerifyError>,
    extract: Option<VerifyError>,
}

impl Rules<'_, '_> {
    #[inline(always)]
    fn inst(&mut self, id: InstId) -> Result<()> {
        let (m, f) = (self.m, self.f);
        let inst = f.inst(id);
        match &inst.kind {
            InstKind::DxOp { op, overload, callee, args } => {
                if self.dxop.is_none() {
                    let call = (*op, *overload, *callee, *args);
                    let (calls, stage) = (&mut *self.calls, self.stage);
                    if let Err(e) = dxop::call(m, f, self.info, calls, stage, self.args_typed, id, inst, call) {
                        self.dxop = Some(e);
                    }
                }
            }
            InstKind::ExtractValue { agg, indices } => {
                if !self.extract_typed {
                    self.types.inst(id)?;
                }
                if self.dxop.is_none() && self.extract.is_none() {
                    if let Err(e) = dxop::extract(m, f, id, *agg, *indices) {
                        self.extract = Some(e);
                    }
                }
            }
            InstKind::Alloca { .. } => {
                self.types.inst(id)?;
                self.allocas.push((self.fid, id));
            }
            InstKind::Load { .. } => {
                self.types.inst(id)?;
                self.loads = true;
            }
            InstKind::Binary { .. }
            | InstKind::Cmp { .. }
            | InstKind::Select { .. }
            | InstKind::Ret { .. }
            | InstKind::Br { .. }
            | InstKind::CondBr { .. }
            | InstKind::Unreachable
                if self.operands_typed => {}
            _ => self.types.inst(id)?,
        }
        Ok(())
    }

    /// After the walk without an operand-type error: the first `dx.op` error, else the first
    /// extracted-component error, else a library resource used as a value
    /// ([`dxop::resource_users`]: only a loaded one can be).
    fn verdict(self) -> Result<()> {
        match self.dxop.or(self.extract) {
            Some(e) => Err(e),
            None if self.loads => dxop::resource_users(self.m, self.f, self.info),
            None => Ok(()),
        }
    }
}

/// "function `main`, block 3, %12 (add)".
pub(crate) fn inst_place(f: &Function, id: InstId) -> String {
    match f.insts.get(id.index()) {
        Some(i) => format!("function `{}`, block {}, %{} ({})", f.name, i.block.0, id.0, i.kind.opcode_name()),
        None => format!("function `{}`, %{}", f.name, id.0),
    }
}

pub(crate) fn block_place(f: &Function, b: BlockId) -> String {
    format!("function `{}`, block {}", f.name, b.0)
}

/// The violation `f` builds, built out of line: formatting its message takes no room in the
/// hot code of the rule that found it.
#[cold]
#[inline(never)]
pub(crate) fn cold(f: impl FnOnce() -> VerifyError) -> VerifyError {
    f()
}

#[cold]
#[inline(never)]
pub(crate) fn err(rule: &'static str, place: String, detail: impl Into<String>) -> VerifyError {
    VerifyError { rule, place, detail: detail.into() }
}

#[cfg(test)]
mod read_tests;
#[cfg(test)]
mod tests;
