//! The public compile API: a DXBC container in, a Vulkan SPIR-V module and
//! its interface (bindings, push constants, workgroup size) out.

use crate::container::Container;
use crate::link::{LinkError, LinkOptions, LinkPlan, Stage, StageIo};
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
    let module = read_container_timed(container, clock)?;
    let local = library_local_root_signature(container, opts)?;
    compile_module_local(&module, opts, clock, local)
}

/// The local root signature the library's `RDAT` associates with the export `opts` names (only
/// looked up for library exports, and only when the binding model leaves the choice to the
/// library).
fn library_local_root_signature(
    container: &[u8],
    opts: &CompileOptions,
) -> Result<Option<crate::container::RootSignature>, CompileError> {
    let Some(entry) = opts.entry_point.as_deref() else { return Ok(None) };
    if let Some(m) = opts.bindings.as_deref() {
        if m.local_root_signature != crate::binding::LocalRoot::FromLibrary {
            return Ok(None);
        }
    }
    let c = Container::parse(container).map_err(|e| CompileError::Malformed(format!("container: {e}")))?;
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
        let module = read_container_timed(bytes, clock).map_err(err)?;
        let mut entry = read_meta(&module, opts).map_err(err)?;
        ios.push(stage_io(&module, &mut entry).map_err(err)?);
        clock.lap(Phase::Metadata);
        modules.push((module, entry.meta));
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
        let Some((module, meta)) = modules.get(k) else {
            return Err(PipelineError::Compile { stage: k, error: CompileError::Internal("stage index".into()) });
        };
        let cs = compile_module_stage_timed(module, meta, &plan, index, opts, clock)
            .map_err(|error| PipelineError::Compile { stage: k, error })?;
        shaders.push(cs);
    }
    Ok(CompiledPipeline { plan, shaders })
}

/// Compiles one entry point of an already-read module. Graphics stages get
/// the default plan ([`LinkPlan::single`]): every element at its own
/// register, system values as built-ins.
pub fn compile_module(module: &crate::ir::Module, opts: &CompileOptions) -> Result<CompiledShader, CompileError> {
    compile_module_timed(module, opts, &mut ())
}

fn compile_module_timed(
    module: &crate::ir::Module,
    opts: &CompileOptions,
    clock: &mut impl PhaseClock,
) -> Result<CompiledShader, CompileError> {
    compile_module_local(module, opts, clock, None)
}

fn compile_module_local(
    module: &crate::ir::Module,
    opts: &CompileOptions,
    clock: &mut impl PhaseClock,
    local: Option<crate::container::RootSignature>,
) -> Result<CompiledShader, CompileError> {
    let mut entry = read_meta(module, opts)?;
    entry.meta.local_root_signature = local.map(Box::new);
    if entry.meta.kind == ShaderKind::Node {
        return Err(unsupported(&entry.meta, "work-graph node shaders (DXIL library work graphs)".into()));
    }
    if matches!(entry.meta.kind, ShaderKind::Compute | ShaderKind::Amplification)
        || crate::lower::is_ray_tracing_stage(entry.meta.kind)
    {
        check_version(&entry.meta, opts)?;
        clock.lap(Phase::Metadata);
        return crate::lower::lower_timed(module, &entry.meta, opts, None, clock);
    }
    let io = stage_io(module, &mut entry)?;
    let meta = &entry.meta;
    let plan = LinkPlan::single_owned_at(io, opts.patch_location_offset)
        .map_err(|e| unsupported(meta, format!("signature: {e}")))?;
    clock.lap(Phase::Metadata);
    compile_module_stage_timed(module, meta, &plan, 0, opts, clock)
}

/// Compiles stage `stage_index` of a link plan (from [`crate::link::link`]); the
/// container must hold that stage's shader.
pub fn compile_stage(
    container: &[u8],
    plan: &LinkPlan,
    stage_index: usize,
    opts: &CompileOptions,
) -> Result<CompiledShader, CompileError> {
    let module = read_container(container)?;
    let mut entry = read_meta(&module, opts)?;
    crate::lower::meta::read_tess_state(&module, &mut entry)
        .map_err(|e| CompileError::Malformed(format!("metadata: {e}")))?;
    compile_module_stage(&module, &entry.meta, plan, stage_index, opts)
}

pub(crate) fn compile_module_stage(
    module: &crate::ir::Module,
    meta: &crate::lower::meta::EntryMeta,
    plan: &LinkPlan,
    stage_index: usize,
    opts: &CompileOptions,
) -> Result<CompiledShader, CompileError> {
    compile_module_stage_timed(module, meta, plan, stage_index, opts, &mut ())
}

fn compile_module_stage_timed(
    module: &crate::ir::Module,
    meta: &crate::lower::meta::EntryMeta,
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
    crate::lower::lower_timed(module, meta, opts, Some((plan, stage_index)), clock)
}

fn read_container(container: &[u8]) -> Result<crate::ir::Module, CompileError> {
    read_container_timed(container, &mut ())
}

fn read_container_timed(container: &[u8], clock: &mut impl PhaseClock) -> Result<crate::ir::Module, CompileError> {
    let c = Container::parse(container).map_err(|e| CompileError::Malformed(format!("container: {e}")))?;
    let prog = c.dxil_program().map_err(|e| CompileError::Malformed(format!("container: {e}")))?;
    clock.lap(Phase::Container);
    let m = crate::bitcode::read_module(prog.bitcode).map_err(|e| CompileError::Malformed(format!("bitcode: {e}")))?;
    clock.lap(Phase::Bitcode);
    crate::verify::verify_module(&m).map_err(|e| CompileError::Malformed(format!("verify: {e}")))?;
    Ok(m)
}

fn read_meta(module: &crate::ir::Module, opts: &CompileOptions) -> Result<crate::lower::meta::ReadEntry, CompileError> {
    use crate::lower::meta::ReadError;
    // DXIL libraries (ray tracing, work graphs) export several shaders: one is
    // compiled when `entry_point` names it (plain or mangled export name).
    crate::lower::meta::read_entry(module, opts.entry_point.as_deref(), true).map_err(|e| match e {
        ReadError::Library { shader_model } => CompileError::Unsupported {
            feature: "a DXIL library without an export to compile (name one: CompileOptions::entry_point, --entry)"
                .into(),
            function: "<library exports>".into(),
            block: None,
            shader_model,
        },
        ReadError::Malformed(e) => CompileError::Malformed(format!("metadata: {e}")),
    })
}

fn unsupported(meta: &crate::lower::meta::EntryMeta, feature: String) -> CompileError {
    CompileError::Unsupported { feature, function: meta.name.clone(), block: None, shader_model: meta.sm_string() }
}

/// The signatures and state of a graphics stage: its entry record's
/// signatures and properties, decoded once and moved into the [`StageIo`]
/// (hull and domain shaders: their state also into the entry's meta).
pub(crate) fn stage_io(
    module: &crate::ir::Module,
    entry: &mut crate::lower::meta::ReadEntry,
) -> Result<StageIo, CompileError> {
    let meta = &entry.meta;
    let Some(stage) = Stage::from_kind(meta.kind) else {
        return Err(unsupported(meta, format!("{} shaders", meta.kind.name())));
    };
    let ep = crate::dxil::decode_entry_io(module, entry.node, entry.index)
        .map_err(|e| CompileError::Malformed(format!("metadata: {e}")))?;
    entry.meta.hs.clone_from(&ep.properties.hs);
    entry.meta.ds.clone_from(&ep.properties.ds);
    entry.meta.ms.clone_from(&ep.properties.ms);
    StageIo::from_entry(stage, ep, module).map_err(|e| CompileError::Malformed(format!("signatures: {e}")))
}

fn check_version(meta: &crate::lower::meta::EntryMeta, opts: &CompileOptions) -> Result<(), CompileError> {
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
