//! The public compile API: a DXBC container in, a Vulkan SPIR-V module and
//! its interface (bindings, push constants, workgroup size) out.

use crate::binding::{BindingMap, DescriptorKind, ResourceClass};
use crate::container::Container;
use crate::ShaderKind;

/// How out-of-bounds buffer accesses get D3D12 semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Robustness {
    /// Rely on `VK_EXT_robustness2` `robustBufferAccess2`: no bounds checks
    /// are emitted.
    DeviceRobustness2,
    /// Emit bounds checks: out-of-bounds loads return 0, stores and atomics
    /// are dropped.
    #[default]
    Explicit,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CompileOptions {
    /// The entry point to compile (`None`: the module's first).
    pub entry_point: Option<String>,
    /// Overrides of the default binding rule (see [`crate::binding`]).
    pub binding_map: Option<BindingMap>,
    pub robustness: Robustness,
    /// SPIR-V version of the output (at least 1.3).
    pub spirv_version: (u8, u8),
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions { entry_point: None, binding_map: None, robustness: Robustness::Explicit, spirv_version: (1, 3) }
    }
}

/// The size of the push-constant range a shader uses (offset 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PushConstantRange {
    pub size: u32,
}

/// One D3D12 range and the Vulkan binding it became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceBinding {
    pub class: ResourceClass,
    pub space: u32,
    pub lower_bound: u32,
    /// Number of registers; `None` = unbounded.
    pub count: Option<u32>,
    pub set: u32,
    pub binding: u32,
    pub descriptor: DescriptorKind,
    /// The DXIL resource kind (`"RawBuffer"`, `"Texture2D"`, …).
    pub kind: String,
    /// The storage-image format the SPIR-V declares (`"R32ui"`), where it declares one.
    pub format_hint: Option<String>,
    pub has_counter: bool,
    /// The counter's (set, binding) when the UAV has one.
    pub counter_binding: Option<(u32, u32)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CompiledShader {
    pub spirv: Vec<u32>,
    pub entry_point: String,
    pub stage: ShaderKind,
    pub workgroup_size: [u32; 3],
    pub bindings: Vec<ResourceBinding>,
    pub push_constants: Option<PushConstantRange>,
    /// SPIR-V capabilities the module declares (`"Shader"`, `"Int64"`, …).
    pub capabilities: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The container, bitcode or metadata is broken; the text says where.
    #[error("malformed input: {0}")]
    Malformed(String),
    /// Valid DXIL that dxjit cannot (yet) translate.
    #[error("unsupported: {feature} (function {function}{}, {shader_model})", block.map(|b| format!(", block {b}")).unwrap_or_default())]
    Unsupported { feature: String, function: String, block: Option<u32>, shader_model: String },
    /// A bug in dxjit.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The phases of one compile, in pipeline order (see [`compile_with_stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// DXBC container parse and DXIL part lookup.
    Container,
    /// Bitcode reader and IR build.
    Bitcode,
    /// DXIL metadata the compile needs (entry point, resources, properties).
    Metadata,
    /// Control-flow analysis and structurization.
    Structurize,
    /// Lowering of the structured IR to SPIR-V instructions.
    Lowering,
    /// Module assembly into SPIR-V words and the shader's interface.
    Assembly,
}

impl Phase {
    pub const COUNT: usize = 6;
    pub const ALL: [Phase; Phase::COUNT] =
        [Phase::Container, Phase::Bitcode, Phase::Metadata, Phase::Structurize, Phase::Lowering, Phase::Assembly];
    pub fn name(self) -> &'static str {
        match self {
            Phase::Container => "container",
            Phase::Bitcode => "bitcode",
            Phase::Metadata => "metadata",
            Phase::Structurize => "structurize",
            Phase::Lowering => "lowering",
            Phase::Assembly => "assembly",
        }
    }
}

/// Wall time spent in each [`Phase`] by [`compile_with_stats`] (accumulated:
/// the same value can be passed to several compiles).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    pub nanos: [u64; Phase::COUNT],
}

impl PhaseTimes {
    pub fn get(&self, p: Phase) -> std::time::Duration {
        std::time::Duration::from_nanos(self.nanos[p as usize])
    }
    pub fn total(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.nanos.iter().sum())
    }
}

/// Receives the end of each phase; `()` ignores them, so [`compile`] pays nothing.
pub(crate) trait PhaseClock {
    fn lap(&mut self, phase: Phase);
}

impl PhaseClock for () {
    #[inline(always)]
    fn lap(&mut self, _: Phase) {}
}

struct Stopwatch<'a> {
    times: &'a mut PhaseTimes,
    last: std::time::Instant,
}

impl PhaseClock for Stopwatch<'_> {
    #[inline]
    fn lap(&mut self, phase: Phase) {
        let now = std::time::Instant::now();
        let d = now.saturating_duration_since(self.last).as_nanos();
        self.times.nanos[phase as usize] += u64::try_from(d).unwrap_or(u64::MAX);
        self.last = now;
    }
}

/// Compiles one entry point of a DXIL container to SPIR-V.
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
    let prog = c.dxil_program().map_err(|e| CompileError::Malformed(format!("container: {e}")))?;
    clock.lap(Phase::Container);
    let module =
        crate::bitcode::read_module(prog.bitcode).map_err(|e| CompileError::Malformed(format!("bitcode: {e}")))?;
    clock.lap(Phase::Bitcode);
    compile_module_timed(&module, opts, clock)
}

/// Compiles one entry point of an already-read module.
pub fn compile_module(module: &crate::ir::Module, opts: &CompileOptions) -> Result<CompiledShader, CompileError> {
    compile_module_timed(module, opts, &mut ())
}

fn compile_module_timed(
    module: &crate::ir::Module,
    opts: &CompileOptions,
    clock: &mut impl PhaseClock,
) -> Result<CompiledShader, CompileError> {
    let meta = crate::lower::meta::read(module, opts.entry_point.as_deref())
        .map_err(|e| CompileError::Malformed(format!("metadata: {e}")))?;
    if meta.kind != ShaderKind::Compute {
        return Err(CompileError::Unsupported {
            feature: format!("{} shaders (only compute is lowered)", meta.kind.name()),
            function: meta.name.clone(),
            block: None,
            shader_model: meta.sm_string(),
        });
    }
    if opts.spirv_version < (1, 3) || opts.spirv_version > (1, 6) {
        return Err(CompileError::Unsupported {
            feature: format!("SPIR-V version {}.{} (1.3 to 1.6)", opts.spirv_version.0, opts.spirv_version.1),
            function: meta.name.clone(),
            block: None,
            shader_model: meta.sm_string(),
        });
    }
    clock.lap(Phase::Metadata);
    crate::lower::lower_timed(module, &meta, opts, clock)
}
