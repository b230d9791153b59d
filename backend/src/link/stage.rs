//! The signatures and state of one pipeline stage, as the linker sees them.

use super::error::LinkError;
// `Stage` and `SignatureKind` live in `stage_kind` (shared with `error`); `stage::` paths stay valid.
pub use super::stage_kind::{SignatureKind, Stage};
use crate::dxil::{DsState, DxilModuleInfo, EntryPoint, GsState, HsState, SignatureElement};
use crate::ir::Module;
use serde::Serialize;

/// DXIL shader-flags bit 23: 16-bit types are native (`-enable-16bit-types`), not min precision.
const FLAG_NATIVE_LOW_PRECISION: u64 = 1 << 23;

/// One stage's interface: its signatures plus the state the linker reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StageIo {
    pub stage: Stage,
    pub entry: String,
    pub inputs: Vec<SignatureElement>,
    pub outputs: Vec<SignatureElement>,
    /// Hull: patch-constant outputs; domain: patch-constant inputs.
    pub patch_constants: Vec<SignatureElement>,
    /// 16-bit component types are native rather than min precision (they never match each other).
    pub native_low_precision: bool,
    pub hs: Option<HsState>,
    pub ds: Option<DsState>,
    pub gs: Option<GsState>,
    /// Name of the hull shader's patch-constant function.
    pub patch_constant_function: Option<String>,
}

impl StageIo {
    /// A stage with the given signatures and no state (tests, synthetic stages).
    pub fn new(
        stage: Stage,
        inputs: Vec<SignatureElement>,
        outputs: Vec<SignatureElement>,
        patch_constants: Vec<SignatureElement>,
    ) -> StageIo {
        StageIo {
            stage,
            entry: "main".to_string(),
            inputs,
            outputs,
            patch_constants,
            native_low_precision: false,
            hs: None,
            ds: None,
            gs: None,
            patch_constant_function: None,
        }
    }

    /// The interface of a decoded DXIL module (its main entry point).
    pub fn from_module(info: &DxilModuleInfo, module: &Module) -> Result<StageIo, LinkError> {
        let kind = info.shader_model.kind;
        let stage = Stage::from_kind(kind).ok_or(LinkError::NotAGraphicsStage { kind })?;
        let ep = info.main_entry().ok_or(LinkError::NoEntryPoint { stage })?;
        let ep = EntryPoint {
            function: ep.function,
            name: ep.name.clone(),
            inputs: ep.inputs.clone(),
            outputs: ep.outputs.clone(),
            patch_constants: ep.patch_constants.clone(),
            resources: None,
            properties: ep.properties.clone(),
        };
        Self::from_entry(stage, ep, module)
    }

    /// The interface of one decoded entry point of a `stage` shader (its
    /// signatures are moved, not copied).
    pub fn from_entry(stage: Stage, ep: EntryPoint, module: &Module) -> Result<StageIo, LinkError> {
        let p = ep.properties;
        let missing = |what: &'static str| LinkError::MissingState { stage, what };
        match stage {
            Stage::Hull if p.hs.is_none() => return Err(missing("hull shader state")),
            Stage::Domain if p.ds.is_none() => return Err(missing("domain shader state")),
            Stage::Geometry if p.gs.is_none() => return Err(missing("geometry shader state")),
            _ => {}
        }
        let patch_constant_function =
            p.hs.as_ref()
                .and_then(|h| h.patch_constant_function)
                .and_then(|f| module.functions.get(f.index()))
                .map(|f| f.name.clone());
        Ok(StageIo {
            stage,
            entry: ep.name,
            inputs: ep.inputs,
            outputs: ep.outputs,
            patch_constants: ep.patch_constants,
            native_low_precision: p.flags.unwrap_or(0) & FLAG_NATIVE_LOW_PRECISION != 0,
            hs: p.hs,
            ds: p.ds,
            gs: p.gs,
            patch_constant_function,
        })
    }
}
