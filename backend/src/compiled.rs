//! What a compile produces ([`CompiledShader`]): the SPIR-V words and the shader's interface
//! (bindings, push constants, heap bindings, workgroup size, placements under a binding model).
//! Built by lowering (`lower`), returned by the compile driver (`compile`).

use crate::binding::{DescriptorKind, PushLayout, ResourceClass, ResourcePlacement, ResourceQuery, ShaderRecordLayout};
use crate::ShaderKind;

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

/// The `SpecId` of the rasterizer sample count (`u32`, default 1) a shader declares when it calls
/// `RenderTargetGetSampleCount` or `RenderTargetGetSamplePosition` without
/// `PipelineStateOptions::rasterizer_sample_count`: the layer sets it at pipeline creation
/// (`VkSpecializationInfo`) to the PSO's `SampleDesc.Count`.
pub const SPEC_ID_SAMPLE_COUNT: u32 = 0;

#[derive(Debug, Clone, PartialEq)]
pub struct CompiledShader {
    pub spirv: Vec<u32>,
    pub entry_point: String,
    pub stage: ShaderKind,
    /// Compute shaders' thread-group size (`[0; 3]` for graphics stages).
    pub workgroup_size: [u32; 3],
    pub bindings: Vec<ResourceBinding>,
    pub push_constants: Option<PushConstantRange>,
    /// Descriptor-heap bindings (needs descriptor indexing: runtime descriptor arrays).
    pub heap_bindings: Vec<HeapBinding>,
    /// SPIR-V capabilities the module declares (`"Shader"`, `"Int64"`, …).
    pub capabilities: Vec<String>,
    /// Under a [`crate::binding::BindingModel`]: the root block's layout (what each push-constant word holds).
    pub push_layout: Option<PushLayout>,
    /// Under a [`crate::binding::BindingModel`]: every resource range the shader uses and where it was placed.
    pub placements: Vec<PlacedResource>,
    /// Ray-tracing exports with a local root signature: the local root arguments in the shader
    /// record (what a layer writes after each shader identifier of the shader binding table).
    pub shader_record: Option<ShaderRecordLayout>,
    /// Hull and domain shaders: the Location their patch constants start at (single-stage
    /// compiles: pass the hull's to the domain compile as `CompileOptions::patch_location_offset`).
    pub patch_location_offset: Option<u32>,
    /// `Some(SPEC_ID_SAMPLE_COUNT)` when the module declares the rasterizer-sample-count
    /// specialization constant ([`SPEC_ID_SAMPLE_COUNT`]), which the pipeline must set.
    pub sample_count_spec_id: Option<u32>,
    /// The subgroup size the pipeline must run this stage with
    /// (`VkPipelineShaderStageRequiredSubgroupSizeCreateInfo::requiredSubgroupSize`): the size
    /// chosen for the shader's `[WaveSize]` within
    /// [`crate::PipelineStateOptions::subgroup_size`] (without that option, the shader's own
    /// size, or its preferred or smallest one). `None`: any size.
    pub required_subgroup_size: Option<u32>,
}

/// One resource range and where the binding model placed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedResource {
    pub query: ResourceQuery,
    pub placement: ResourcePlacement,
}
