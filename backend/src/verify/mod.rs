//! The DXIL verifier: runs between the bitcode reader and lowering on every
//! compile and rejects, as [`VerifyError`], what lowering must never see.
//!
//! A module that passes has:
//! - well-formed functions ([`ssa`]): blocks ending in exactly one
//!   terminator, PHIs first, every operand in range, every use dominated by
//!   its definition (a PHI's by the end of its incoming block), no non-PHI
//!   instruction using its own result;
//! - consistent operand types for every LLVM instruction ([`types`]);
//! - `dx.op` calls that match the operation table: parameter and return
//!   types, constant operands constant ([`dxop`]);
//! - DXIL metadata that decodes, and D3D12's limits ([`limits`]): thread
//!   group size, groupshared and local-array sizes, signature elements within
//!   32 rows × 4 columns without overlaps, GS output size, tessellation
//!   control points and factors, mesh output counts.
//!
//! Each violation names the rule and the place (function, block,
//! instruction) and becomes `CompileError::Malformed`.
//!
//! Cost: the driver decodes the metadata once ([`crate::dxil::decode`]) for
//! the verifier, lowering and the linker, so the verifier only checks. Per
//! function, [`ssa`] walks the instructions once (a function of one block,
//! most of DXIL, needs no CFG; a function the bitcode reader vouches for —
//! [`verify_read`] with its [`ReadFacts`] — needs no visit of its operands),
//! then one walk checks operand types and `dx.op` calls together; a `dx.op`
//! declaration is checked against the operation table once per module and a
//! call whose arguments have the declared types needs no per-argument table
//! lookup. The CFG and dominator tree of a function of several blocks go to
//! the structurizer ([`Flows`]). The error reported is always the first of
//! the first rule group that has one, in the order structure, SSA, operand
//! types, `dx.op` calls, as if each group walked the function in turn.
//!
//! Entry points: [`verify_module`] (decodes the metadata itself) and
//! [`verify_decoded`] check any module and trust nothing; [`verify_read`] is
//! for a module exactly as the reader built it (the driver).

mod dxop;
mod limits;
mod ssa;
mod types;

use crate::analysis::Flows;
use crate::bitcode::ReadFacts;
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
    types::verify_constants(m)?;
    let void = ssa::VoidTypes::of(m);
    let mut calls = dxop::Calls::new(m);
    let mut flows = Flows::default();
    for (i, f) in m.functions.iter().enumerate().filter(|(_, f)| !f.is_declaration) {
        let id = crate::ir::FuncId(i as u32);
        let as_read = facts.map(|r| !r.forward_refs.contains(&id));
        if let Some((cfg, dom)) = verify_function(m, f, info, &void, as_read, &mut calls)? {
            flows.insert(id, cfg, dom);
        }
    }
    limits::verify_module(m, info)?;
    Ok(flows)
}

/// A function: its structure and SSA form ([`ssa`]), then in one walk over
/// its instructions the operand types of LLVM instructions ([`types`]) and
/// the `dx.op` calls ([`dxop`]). The error reported is the first of the
/// first group that has one, in that order (an extracted component a load's
/// mask does not load comes last), as if each group walked the function in
/// turn.
fn verify_function<'m>(
    m: &'m Module,
    f: &'m Function,
    info: &DxilModuleInfo,
    void: &ssa::VoidTypes,
    as_read: Option<bool>,
    calls: &mut dxop::Calls<'m>,
) -> Result<Option<(crate::analysis::Cfg, crate::analysis::DomTree)>> {
    let flow = ssa::verify_function(m, f, void, as_read)?;
    let types = types::Checker::new(m, f);
    // The first `dx.op` error, then the first extracted-component error: reported when no
    // operand-type error follows.
    let mut dxop_error = None;
    let mut extract_error = None;
    for (i, inst) in f.insts.iter().enumerate() {
        let id = InstId(i as u32);
        match &inst.kind {
            InstKind::DxOp { op, overload, callee, args } => {
                if dxop_error.is_none() {
                    if let Err(e) = dxop::call(m, f, info, calls, id, inst, (*op, *overload, *callee, *args)) {
                        dxop_error = Some(e);
                    }
                }
            }
            InstKind::ExtractValue { agg, indices } => {
                types.inst(id)?;
                if dxop_error.is_none() && extract_error.is_none() {
                    if let Err(e) = dxop::extract(m, f, id, *agg, *indices) {
                        extract_error = Some(e);
                    }
                }
            }
            _ => types.inst(id)?,
        }
    }
    match dxop_error.or(extract_error) {
        Some(e) => Err(e),
        None => Ok(flow),
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

pub(crate) fn err(rule: &'static str, place: String, detail: impl Into<String>) -> VerifyError {
    VerifyError { rule, place, detail: detail.into() }
}

#[cfg(test)]
mod read_tests;
#[cfg(test)]
mod tests;
