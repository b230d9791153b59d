//! The public compile API: a DXBC container in, a Vulkan SPIR-V module and
//! its interface (bindings, push constants, workgroup size) out.

use crate::analysis::Flows;
use crate::container::Container;
use crate::dxil::{DxilModuleInfo, EntryError, ShaderEntry};
use crate::link::{LinkError, LinkOptions, LinkPlan, Stage, StageIo};
use crate::lower::meta::EntryMeta;
use crate::ShaderKind;

// The types of the API live in their own modules (so lowering needs nothing from this driver);
// their `compile::` paths stay valid.
pub use crate::compiled::{
    CompiledShader, HeapBinding, PlacedResource, PushConstantRange, ResourceBinding, SPEC_ID_SAMPLE_COUNT,
};
pub use crate::error::CompileError;
pub use crate::options::{
    CompileOptions, PatchConstantInvocations, PipelineStateOptions, Robustness, SubgroupSizeRange,
};
pub use crate::phase::{Phase, PhaseTimes};
pub(crate) use crate::phase::{PhaseClock, Stopwatch};

/// Compiles one entry point of a DXIL container to SPIR-V (graphics stages
/// with the default plan, as if alone in their pipeline).
pub fn compile(container: &[u8], opts: &CompileOptions) -> Result<CompiledShader, CompileError> {
    compile_timed(container, opts, &mut ())
}

/// [`compile`], adding the wall time of each phase to `times` (phases after
/// an error are not timed).
pub fn compile_with_stats(
    container: &[u8],
    opts: &CompileOptions,
    times: &mut PhaseTimes,
) -> Result<CompiledShader, CompileError> {
    let mut clock = Stopwatch { times, last: std::time::Instant::now() };
    compile_timed(container, opts, &mut clock)
}

fn compile_timed(
    container: &[u8],
    opts: &CompileOptions,
    clock: &mut impl PhaseClock,
) -> Result<CompiledShader, CompileError> {
    let c = Container::parse(container).map_err(|e| CompileError::Malformed(format!("container: {e}")))?;
    let (module, info, mut flows) = read_program_timed(&c, clock)?;
    let local = library_local_root_signature(&c, opts)?;
    let out = compile_decoded_timed(&module, info, &mut flows, opts, local, clock);
    // The next module read on this thread reuses the tables' storage.
    module.recycle();
    out
}

/// The local root signature the library's `RDAT` associates with the export `opts` names (only
/// looked up for library exports, and only when the binding model leaves the choice to the
/// library).
fn library_local_root_signature(
    c: &Container<'_>,
    opts: &CompileOptions,
) -> Result<Option<crate::container::RootSignature>, CompileError> {
    let Some(entry) = opts.entry_point.as_deref() else { return Ok(None) };
    if let Some(m) = opts.bindings.as_deref() {
        if m.local_root_signature != crate::binding::LocalRoot::FromLibrary {
            return Ok(None);
        }
    }
    if c.rdat().is_none() {
        return Ok(None);
    }
    c.export_root_signature(entry, true)
        .map_err(|e| CompileError::Malformed(format!("local root signature of {entry}: {e}")))
}

/// A linked and compiled graphics pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledPipeline {
    pub plan: LinkPlan,
    /// One per plan stage, in pipeline order.
    pub shaders: Vec<CompiledShader>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PipelineError {
    /// D3D12 rejects the pipeline, or a stage's signatures are unusable.
    #[error("link: {0}")]
    Link(#[from] LinkError),
    /// Stage `stage` (index into the given shaders) failed to compile.
    #[error("shader {stage}: {error}")]
    Compile { stage: usize, error: CompileError },
}

/// Links the shaders of one graphics pipeline (VS [HS DS] [GS] [PS], any
/// order) as D3D12 does at PSO creation and compiles each against the plan.
/// With tessellation, `plan.tessellation.input_control_points` is the
/// pipeline's `patchControlPoints`.
pub fn compile_pipeline(
    stages: &[&[u8]],
    link_opts: &LinkOptions,
    opts: &CompileOptions,
) -> Result<CompiledPipeline, PipelineError> {
    compile_pipeline_timed(stages, link_opts, opts, &mut ())
}

/// [`compile_pipeline`], adding the wall time of each phase (summed over the
/// stages, [`Phase::Link`] for the linker) to `times`.
pub fn compile_pipeline_with_stats(
    stages: &[&[u8]],
    link_opts: &LinkOptions,
    opts: &CompileOptions,
    times: &mut PhaseTimes,
) -> Result<CompiledPipeline, PipelineError> {
    let mut clock = Stopwatch { times, last: std::time::Instant::now() };
    compile_pipeline_timed(stages, link_opts, opts, &mut clock)
}

fn compile_pipeline_timed(
    stages: &[&[u8]],
    link_opts: &LinkOptions,
    opts: &CompileOptions,
    clock: &mut impl PhaseClock,
) -> Result<CompiledPipeline, PipelineError> {
    let mut modules = Vec::with_capacity(stages.len());
    let mut ios = Vec::with_capacity(stages.len());
    for (k, bytes) in stages.iter().enumerate() {
        let err = |error| PipelineError::Compile { stage: k, error };
        let (module, info, flows) = read_container_timed(bytes, clock).map_err(err)?;
        let (meta, entry) = read_meta(&module, info, opts).map_err(err)?;
        ios.push(stage_io(&module, &meta, entry).map_err(err)?);
        clock.lap(Phase::Metadata);
        modules.push((module, meta, flows));
    }
    let plan = crate::link::link(&ios, link_opts);
    clock.lap(Phase::Link);
    let plan = plan?;
    let mut shaders = Vec::with_capacity(plan.stages.len());
    for (index, sp) in plan.stages.iter().enumerate() {
        let Some(k) = ios.iter().position(|io| io.stage == sp.stage) else {
            return Err(PipelineError::Compile {
                stage: index,
                error: CompileError::Internal(format!("plan stage {} has no shader", sp.stage)),
            });
        };
        let Some((module, meta, flows)) = modules.get_mut(k) else {
            return Err(PipelineError::Compile { stage: k, error: CompileError::Internal("stage index".into()) });
        };
        let cs = compile_module_stage_timed(module, meta, flows, &plan, index, opts, clock)
            .map_err(|error| PipelineError::Compile { stage: k, error })?;
        shaders.push(cs);
    }
    Ok(CompiledPipeline { plan, shaders })
}

/// Compiles one entry point of an already-read module (not verified: the
/// caller vouches for it). Graphics stages get the default plan
/// ([`LinkPlan::single`]): every element at its own register, system values
/// as built-ins.
pub fn compile_module(module: &crate::ir::Module, opts: &CompileOptions) -> Result<CompiledShader, CompileError> {
    let info = crate::dxil::decode(module).map_err(|e| CompileError::Malformed(format!("metadata: {e}")))?;
    compile_decoded_timed(module, info, &mut Flows::default(), opts, None, &mut ())
}

/// Compiles the entry point `opts` names of a module whose metadata is decoded
/// (`flows`: the CFGs the verifier built, for the structurizer; `local`: a library
/// export's local root signature from the container's `RDAT`).
fn compile_decoded_timed(
    module: &crate::ir::Module,
    info: DxilModuleInfo,
    flows: &mut Flows,
    opts: &CompileOptions,
    local: Option<crate::container::RootSignature>,
    clock: &mut impl PhaseClock,
) -> Result<CompiledShader, CompileError> {
    let (mut meta, entry) = read_meta(module, info, opts)?;
    meta.local_root_signature = local.map(Box::new);
    if meta.kind == ShaderKind::Node {
        return Err(unsupported(&meta, "work-graph node shaders (DXIL library work graphs)".into()));
    }
    if matches!(meta.kind, ShaderKind::Compute | ShaderKind::Amplification)
        || crate::lower::is_ray_tracing_stage(meta.kind)
    {
        check_version(&meta, opts)?;
        clock.lap(Phase::Metadata);
        return crate::lower::lower_timed(module, &meta, opts, None, flows, clock);
    }
    let io = stage_io(module, &meta, entry)?;
    let meta = &meta;
    let plan = LinkPlan::single_owned_at(io, opts.patch_location_offset)
        .map_err(|e| unsupported(meta, format!("signature: {e}")))?;
    clock.lap(Phase::Metadata);
    compile_module_stage_timed(module, meta, flows, &plan, 0, opts, clock)
}

/// Compiles stage `stage_index` of a link plan (from [`crate::link::link`]); the
/// container must hold that stage's shader.
pub fn compile_stage(
    container: &[u8],
    plan: &LinkPlan,
    stage_index: usize,
    opts: &CompileOptions,
) -> Result<CompiledShader, CompileError> {
    let (module, info, mut flows) = read_container_timed(container, &mut ())?;
    let (meta, _) = read_meta(&module, info, opts)?;
    compile_module_stage_timed(&module, &meta, &mut flows, plan, stage_index, opts, &mut ())
}

fn compile_module_stage_timed(
    module: &crate::ir::Module,
    meta: &EntryMeta,
    flows: &mut Flows,
    plan: &LinkPlan,
    stage_index: usize,
    opts: &CompileOptions,
    clock: &mut impl PhaseClock,
) -> Result<CompiledShader, CompileError> {
    let Some(sp) = plan.stages.get(stage_index) else {
        return Err(CompileError::Malformed(format!(
            "link plan: no stage {stage_index} (the plan has {})",
            plan.stages.len()
        )));
    };
    match Stage::from_kind(meta.kind) {
        Some(s) if s == sp.stage => {}
        _ => {
            return Err(CompileError::Malformed(format!(
                "link plan stage {stage_index} is a {} but the container holds a {} shader",
                sp.stage,
                meta.kind.name()
            )))
        }
    }
    check_version(meta, opts)?;
    crate::lower::lower_timed(module, meta, opts, Some((plan, stage_index)), flows, clock)
}

/// Parses the container, reads the bitcode, decodes the DXIL metadata (once: the
/// verifier, lowering and the linker all read this [`DxilModuleInfo`]) and
/// verifies the module, which gives the CFGs it built for the structurizer.
fn read_container_timed(
    container: &[u8],
    clock: &mut impl PhaseClock,
) -> Result<(crate::ir::Module, DxilModuleInfo, Flows), CompileError> {
    let c = Container::parse(container).map_err(|e| CompileError::Malformed(format!("container: {e}")))?;
    read_program_timed(&c, clock)
}

/// [`read_container_timed`] of a parsed container.
fn read_program_timed(
    c: &Container<'_>,
    clock: &mut impl PhaseClock,
) -> Result<(crate::ir::Module, DxilModuleInfo, Flows), CompileError> {
    let prog = c.dxil_program().map_err(|e| CompileError::Malformed(format!("container: {e}")))?;
    clock.lap(Phase::Container);
    let (m, facts) = crate::bitcode::read_module_with_facts(prog.bitcode)
        .map_err(|e| CompileError::Malformed(format!("bitcode: {e}")))?;
    clock.lap(Phase::Bitcode);
    let verify_err = |e: crate::verify::VerifyError| CompileError::Malformed(format!("verify: {e}"));
    let info = crate::dxil::decode(&m).map_err(|e| verify_err(crate::verify::metadata_error(&e)))?;
    clock.lap(Phase::Metadata);
    // Only the compile-time benchmark builds without the verifier, to measure what it costs.
    #[cfg(not(feature = "bench-no-verify"))]
    let flows = crate::verify::verify_read(&m, &info, &facts).map_err(verify_err)?;
    #[cfg(feature = "bench-no-verify")]
    let flows = {
        let _ = facts;
        Flows::default()
    };
    clock.lap(Phase::Verify);
    Ok((m, info, flows))
}

/// Picks the entry point `opts` names and adapts it for lowering; the entry
/// itself (signatures, state) goes on to [`stage_io`].
fn read_meta(
    module: &crate::ir::Module,
    info: DxilModuleInfo,
    opts: &CompileOptions,
) -> Result<(EntryMeta, ShaderEntry), CompileError> {
    // DXIL libraries (ray tracing, work graphs) export several shaders: one is
    // compiled when `entry_point` names it (plain or mangled export name).
    let index = info.select(module, opts.entry_point.as_deref()).map_err(|e| match e {
        EntryError::Library { shader_model } => CompileError::Unsupported {
            feature: "a DXIL library without an export to compile (name one: CompileOptions::entry_point, --entry)"
                .into(),
            function: "<library exports>".into(),
            block: None,
            shader_model,
        },
        e => CompileError::Malformed(format!("metadata: {e}")),
    })?;
    let Some(entry) = info.into_entry(index) else {
        return Err(CompileError::Internal(format!("entry point {index} has no function")));
    };
    let meta = EntryMeta::from_entry(&entry).map_err(|e| CompileError::Malformed(format!("metadata: {e}")))?;
    Ok((meta, entry))
}

fn unsupported(meta: &EntryMeta, feature: String) -> CompileError {
    CompileError::Unsupported { feature, function: meta.name.clone(), block: None, shader_model: meta.sm_string() }
}

/// The signatures and state of a graphics stage, moved out of its decoded
/// entry into the [`StageIo`] the linker reads.
pub(crate) fn stage_io(
    module: &crate::ir::Module,
    meta: &EntryMeta,
    entry: ShaderEntry,
) -> Result<StageIo, CompileError> {
    let Some(stage) = Stage::from_kind(meta.kind) else {
        return Err(unsupported(meta, format!("{} shaders", meta.kind.name())));
    };
    StageIo::from_entry(stage, entry.entry, module).map_err(|e| CompileError::Malformed(format!("signatures: {e}")))
}

fn check_version(meta: &EntryMeta, opts: &CompileOptions) -> Result<(), CompileError> {
    if opts.spirv_version < (1, 3) || opts.spirv_version > (1, 6) {
        return Err(CompileError::Unsupported {
            feature: format!("SPIR-V version {}.{} (1.3 to 1.6)", opts.spirv_version.0, opts.spirv_version.1),
            function: meta.name.clone(),
            block: None,
            shader_model: meta.sm_string(),
        });
    }
    Ok(())
}
