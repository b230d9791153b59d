//! The real PSO-time linker (`dxjit::link`) on containers: what every backend's `link` calls. Needs no
//! device, so rejection specs run anywhere.

use super::gfx::{LinkFailure, LinkStage, Retype};
use dxjit::link::{link, LinkOptions, LinkPlan, SignatureKind, StageIo};

fn stage_io(s: &LinkStage<'_>) -> Result<StageIo, String> {
    let key = s.slot.key();
    let c = dxjit::container::Container::parse(s.container).map_err(|e| format!("{key}: container: {e}"))?;
    let prog = c.dxil_program().map_err(|e| format!("{key}: container: {e}"))?;
    let m = dxjit::bitcode::read_module(prog.bitcode).map_err(|e| format!("{key}: bitcode: {e}"))?;
    let info = dxjit::dxil::decode(&m).map_err(|e| format!("{key}: metadata: {e}"))?;
    let mut io = StageIo::from_module(&info, &m).map_err(|e| format!("{key}: {e}"))?;
    if io.stage != s.slot.linker_stage() {
        return Err(format!("the `{key}` slot holds a {}", io.stage));
    }
    for r in s.retype {
        apply_retype(&mut io, r).map_err(|e| format!("{key}: {e}"))?;
    }
    Ok(io)
}

fn apply_retype(io: &mut StageIo, r: &Retype) -> Result<(), String> {
    let sig = match r.signature {
        SignatureKind::Input => &mut io.inputs,
        SignatureKind::Output => &mut io.outputs,
        SignatureKind::PatchConstant => &mut io.patch_constants,
    };
    let e = sig
        .iter_mut()
        .find(|e| e.semantic_name.eq_ignore_ascii_case(&r.semantic) && e.semantic_indices.contains(&r.index))
        .ok_or_else(|| format!("retype: no {} element {}{}", r.signature, r.semantic, r.index))?;
    e.component_type = r.component_type;
    // A retyped element stands for a shader built without native 16-bit types.
    io.native_low_precision = false;
    Ok(())
}

/// Decodes every stage's interface (applying retypes) and links them.
pub fn link_containers(stages: &[LinkStage<'_>], opts: &LinkOptions) -> Result<LinkPlan, LinkFailure> {
    let ios = stages.iter().map(stage_io).collect::<Result<Vec<_>, _>>().map_err(LinkFailure::Error)?;
    link(&ios, opts).map_err(|e| match e {
        dxjit::link::LinkError::Rejected(r) => LinkFailure::Rejected(r),
        other => LinkFailure::Error(other.to_string()),
    })
}

/// A backend with the real linker and nothing else: rejection specs pass or fail, drawn specs are
/// linked and then skipped (no compiler, no device). Used by `tests/linkage_suite.rs`.
pub struct LinkOnlyBackend;

impl super::Backend for LinkOnlyBackend {
    fn device_name(&self) -> String {
        "linker only (no device)".into()
    }
    fn caps(&self) -> super::backend::DeviceCaps {
        super::backend::DeviceCaps::default()
    }
    fn compile(&self, _: &[u8], _: Option<&str>) -> Result<super::backend::Compiled, super::backend::CompileFailure> {
        Err(super::backend::CompileFailure::Internal("the link-only backend compiles nothing".into()))
    }
    fn run_compute(&self, _: &super::backend::Job<'_>) -> Result<super::backend::Outputs, String> {
        Err("the link-only backend has no device".into())
    }
    fn take_validation_messages(&self) -> Vec<String> {
        Vec::new()
    }
    fn link(&self, stages: &[LinkStage<'_>], opts: &LinkOptions) -> Result<(), LinkFailure> {
        link_containers(stages, opts).map(|_| ())
    }
}
