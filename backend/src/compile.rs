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

/// A descriptor-heap binding (SM 6.6 `ResourceDescriptorHeap` / `SamplerDescriptorHeap`) the
/// shader uses: a runtime descriptor array indexed by heap index (see `docs/binding-model.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapBinding {
    /// The sampler heap (else the CBV/SRV/UAV heap).
    pub sampler_heap: bool,
    pub set: u32,
    pub binding: u32,
    pub descriptor: DescriptorKind,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CompiledShader {
    pub spirv: Vec<u32>,
    pub entry_point: String,
    pub stage: ShaderKind,
    pub workgroup_size: [u32; 3],
    pub bindings: Vec<ResourceBinding>,
    pub push_constants: Option<PushConstantRange>,
    /// Descriptor-heap bindings (needs descriptor indexing: runtime descriptor arrays).
    pub heap_bindings: Vec<HeapBinding>,
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

/// Compiles one entry point of a DXIL container to SPIR-V.
pub fn compile(container: &[u8], opts: &CompileOptions) -> Result<CompiledShader, CompileError> {
    let c = Container::parse(container).map_err(|e| CompileError::Malformed(format!("container: {e}")))?;
    let prog = c.dxil_program().map_err(|e| CompileError::Malformed(format!("container: {e}")))?;
    let module =
        crate::bitcode::read_module(prog.bitcode).map_err(|e| CompileError::Malformed(format!("bitcode: {e}")))?;
    compile_module(&module, opts)
}

/// Compiles one entry point of an already-read module.
pub fn compile_module(module: &crate::ir::Module, opts: &CompileOptions) -> Result<CompiledShader, CompileError> {
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
    crate::lower::lower(module, &meta, opts)
}
