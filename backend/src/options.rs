//! What a caller chooses about a compile ([`CompileOptions`]): entry point, bindings,
//! robustness, SPIR-V version and the pipeline state that changes code. Read by the compile
//! driver (`compile`) and by lowering (`lower`); depends only on `binding`.

use std::sync::Arc;

use crate::binding::{BindingMap, BindingModel};

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
    /// Pixel shaders: `discard` demotes to a helper invocation
    /// (`OpDemoteToHelperInvocation`; SPIR-V 1.6 or `SPV_EXT_demote_to_helper_invocation`),
    /// which keeps derivatives of the discarded lanes defined as D3D does. `false`: `OpKill`.
    pub demote_to_helper: bool,
    /// The device has `VK_KHR_fragment_shader_barycentric`: `SV_Barycentrics` is lowered
    /// (otherwise it is reported unsupported).
    pub fragment_barycentrics: bool,
    /// The device has `VK_KHR_fragment_shading_rate` (`primitiveFragmentShadingRate` for VS/GS
    /// outputs): `SV_ShadingRate` is lowered to `ShadingRateKHR` / `PrimitiveShadingRateKHR`
    /// (otherwise it is reported unsupported).
    pub fragment_shading_rate: bool,
    /// Hull shaders: which tessellation-control invocations run the patch-constant function.
    pub hull_patch_constants: PatchConstantInvocations,
    /// The binding model a D3D12 layer supplies (root signature, policy, callback; see
    /// [`crate::binding::model`]). `None`: the default register rule and `binding_map`.
    pub bindings: Option<Arc<BindingModel>>,
    /// Pipeline state and device features that change the emitted code.
    pub state: PipelineStateOptions,
    /// Single-stage compiles of hull and domain shaders: patch constants start at this Location
    /// (`None`: right after the control points). A layer compiling stages apart passes the hull
    /// compile's [`CompiledShader::patch_location_offset`] to the domain compile.
    pub patch_location_offset: Option<u32>,
}

/// Pipeline state and device properties that change code (each off by default).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PipelineStateOptions {
    /// Pixel shaders: per render target `n` (`SV_Target<n>`), attachment component `c` receives
    /// shader output component `swizzle[n][c]` (0-3 = x, y, z, w; 4 = constant 0; 5 = constant
    /// 1) — for formats a layer emulates with another (e.g. A8 as R8). `None`: identity.
    ///
    /// Components past the shader's declared width stay unwritten.
    pub output_swizzle: Vec<Option<[u8; 4]>>,
    /// Pixel shaders: SV_Target0 and SV_Target1 are the two sources of dual-source blending
    /// (Location 0, Index 0 and 1).
    pub dual_source_blending: bool,
    /// The pipeline's rasterizer sample count (`RenderTargetGetSampleCount` returns it; without
    /// it that op is `Unsupported`).
    pub rasterizer_sample_count: Option<u32>,
    /// `SV_Position` outputs are decorated `Invariant`.
    pub invariant_position: bool,
    /// The device supports typed UAV loads without a format (`shaderStorageImageReadWithoutFormat`):
    /// typed UAVs that are loaded are declared `Unknown` even when the shader does not set the
    /// "typed UAV load additional formats" flag, so any format can be bound.
    pub typed_uav_load_without_format: bool,
    /// The subgroup (wave) sizes the pipeline's stage may run with: the device's
    /// `minSubgroupSize..=maxSubgroupSize` (`VK_EXT_subgroup_size_control`, a layer's
    /// `SUBGROUP_PROPERTIES`), or one size. With it, a compute shader's `[WaveSize]` (SM 6.6) or
    /// `[WaveSize(min, max, preferred)]` (SM 6.8) is checked against the range (a shader that
    /// needs sizes outside it is `Unsupported`, naming both) and the size chosen is reported as
    /// [`crate::CompiledShader::required_subgroup_size`], which the pipeline must then set
    /// (`VkPipelineShaderStageRequiredSubgroupSizeCreateInfo`); `WaveGetLaneCount` becomes that
    /// constant, or the range's only size when min == max. `None`: `WaveGetLaneCount` reads
    /// `SubgroupSize`, and `[WaveSize]` is reported unchecked.
    pub subgroup_size: Option<SubgroupSizeRange>,
    /// Min-precision types (`min16float`, `min16int`, `min16uint`: the 16-bit types of a shader
    /// built without `-enable-16bit-types`) are computed as real 16-bit SPIR-V types
    /// (`Float16`/`Int16`; the device needs `shaderFloat16`/`shaderInt16`). `false`: they are
    /// computed at 32 bits, as D3D12 allows, float results decorated `RelaxedPrecision`.
    /// Either way their memory and stage I/O stay 32 bits wide, as D3D12 lays them out.
    /// Shaders with native 16-bit types are not affected.
    pub native_min_precision: bool,
}

/// Subgroup sizes `min..=max` (powers of two, `min <= max`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubgroupSizeRange {
    pub min: u32,
    pub max: u32,
}

impl SubgroupSizeRange {
    /// Exactly `size`.
    pub fn exactly(size: u32) -> SubgroupSizeRange {
        SubgroupSizeRange { min: size, max: size }
    }
}

/// Which invocations of the Vulkan tessellation control shader run a hull
/// shader's patch-constant function (see `lower::tessellation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PatchConstantInvocations {
    /// Invocation 0 only, after a barrier (the default).
    #[default]
    First,
    /// Every invocation computes and writes the same patch constants.
    All,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            entry_point: None,
            binding_map: None,
            robustness: Robustness::Explicit,
            spirv_version: (1, 3),
            demote_to_helper: true,
            fragment_barycentrics: false,
            fragment_shading_rate: false,
            hull_patch_constants: PatchConstantInvocations::First,
            bindings: None,
            state: PipelineStateOptions::default(),
            patch_location_offset: None,
        }
    }
}
