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
//!   (`dx.types.ResRet.f32`, ...) of their layout ([`types`]);
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

mod dxop;
mod limits;
mod ssa;
mod types;

use crate::ir::{BlockId, Function, InstId, Module};

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

/// Verifies a module read by [`crate::bitcode::read_module`].
pub fn verify_module(m: &Module) -> Result<()> {
    let info = crate::dxil::decode(m).map_err(|e| err("metadata", "DXIL metadata".into(), e.to_string()))?;
    types::verify_constants(m)?;
    types::verify_globals(m)?;
    types::verify_dx_types(m)?;
    for f in m.functions.iter().filter(|f| !f.is_declaration) {
        ssa::verify_function(m, f)?;
        types::verify_function(m, f)?;
        dxop::verify_function(m, f, &info)?;
    }
    limits::verify_module(m, &info)
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
mod tests;
