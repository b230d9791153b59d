//! The data types of the dxil-spirv C interface (API 2.66.0), laid out as a layer compiled
//! against that interface expects them (declared for C in `include/dxil_spirv_c.h`). Enum-typed
//! fields are `u32`/`i32` here: a value from C outside the known set must not be undefined
//! behaviour on the Rust side.

use std::ffi::{c_char, c_uint, c_void};

pub type Bool = u8;
pub type Result = i32;

pub const SUCCESS: Result = 0;
pub const ERROR_GENERIC: Result = -2;
pub const ERROR_UNSUPPORTED_FEATURE: Result = -3;
pub const ERROR_PARSER: Result = -4;
pub const ERROR_INVALID_ARGUMENT: Result = -6;

pub const API_MAJOR: c_uint = 2;
pub const API_MINOR: c_uint = 66;
pub const API_PATCH: c_uint = 0;

/// `dxil_spv_shader_stage` values.
pub mod stage {
    pub const UNKNOWN: u32 = 0;
    pub const VERTEX: u32 = 1;
    pub const HULL: u32 = 2;
    pub const DOMAIN: u32 = 3;
    pub const GEOMETRY: u32 = 4;
    pub const PIXEL: u32 = 5;
    pub const COMPUTE: u32 = 6;
    pub const INTERSECTION: u32 = 7;
    pub const CLOSEST_HIT: u32 = 8;
    pub const MISS: u32 = 9;
    pub const ANY_HIT: u32 = 10;
    pub const RAY_GENERATION: u32 = 11;
    pub const CALLABLE: u32 = 12;
    pub const AMPLIFICATION: u32 = 13;
    pub const MESH: u32 = 14;
}

/// `dxil_spv_vulkan_descriptor_type` values.
pub mod desc {
    pub const IDENTITY: u32 = 0;
    pub const SSBO: u32 = 1;
    pub const TEXEL_BUFFER: u32 = 2;
    pub const BUFFER_DEVICE_ADDRESS: u32 = 3;
    pub const UBO: u32 = 4;
    pub const INPUT_ATTACHMENT: u32 = 5;
}

/// `dxil_spv_log_level` values.
pub mod log {
    pub const DEBUG: u32 = 0;
    pub const WARN: u32 = 1;
    pub const ERROR: u32 = 2;
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct D3dVertexInput {
    pub semantic: *const c_char,
    pub semantic_index: c_uint,
    pub start_row: c_uint,
    pub rows: c_uint,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VulkanVertexInput {
    pub location: c_uint,
}

pub type VertexInputRemapper =
    Option<unsafe extern "C" fn(*mut c_void, *const D3dVertexInput, *mut VulkanVertexInput) -> Bool>;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct D3dStreamOutput {
    pub semantic: *const c_char,
    pub semantic_index: c_uint,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VulkanStreamOutput {
    pub offset: c_uint,
    pub stride: c_uint,
    pub buffer_index: c_uint,
    pub enable: Bool,
}

pub type StreamOutputRemapper =
    Option<unsafe extern "C" fn(*mut c_void, *const D3dStreamOutput, *mut VulkanStreamOutput) -> Bool>;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct D3dStageIo {
    pub semantic: *const c_char,
    pub semantic_index: c_uint,
    pub start_row: c_uint,
    pub rows: c_uint,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VulkanStageIo {
    pub location: c_uint,
    pub component: c_uint,
    pub flags: c_uint,
}

pub type StageIoRemapper = Option<unsafe extern "C" fn(*mut c_void, *const D3dStageIo, *mut VulkanStageIo) -> Bool>;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct D3dBinding {
    pub stage: u32,
    pub kind: u32,
    pub resource_index: c_uint,
    pub register_space: c_uint,
    pub register_index: c_uint,
    pub range_size: c_uint,
    pub alignment: c_uint,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Bindless {
    pub heap_root_offset: c_uint,
    pub use_heap: Bool,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VulkanBinding {
    pub set: c_uint,
    pub binding: c_uint,
    /// Also `input_attachment_index` (a union of two `unsigned` in the C header).
    pub root_constant_index: c_uint,
    pub bindless: Bindless,
    pub descriptor_type: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct UavD3dBinding {
    pub d3d_binding: D3dBinding,
    pub has_counter: Bool,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct SrvVulkanBinding {
    pub buffer_binding: VulkanBinding,
    pub offset_binding: VulkanBinding,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct UavVulkanBinding {
    pub buffer_binding: VulkanBinding,
    pub counter_binding: VulkanBinding,
    pub offset_binding: VulkanBinding,
}

/// `dxil_spv_cbv_vulkan_binding`: a union of a `VulkanBinding` and a push-constant mapping
/// (whose only field, `offset_in_words`, shares the first word), then the selector.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct CbvVulkanBinding {
    pub vulkan: VulkanBinding,
    pub push_constant: Bool,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct CompiledSpirv {
    pub data: *const c_void,
    pub size: usize,
}

pub type SrvRemapper = Option<unsafe extern "C" fn(*mut c_void, *const D3dBinding, *mut SrvVulkanBinding) -> Bool>;
pub type SamplerRemapper = Option<unsafe extern "C" fn(*mut c_void, *const D3dBinding, *mut VulkanBinding) -> Bool>;
pub type UavRemapper = Option<unsafe extern "C" fn(*mut c_void, *const UavD3dBinding, *mut UavVulkanBinding) -> Bool>;
pub type CbvRemapper = Option<unsafe extern "C" fn(*mut c_void, *const D3dBinding, *mut CbvVulkanBinding) -> Bool>;
pub type LogCallback = Option<unsafe extern "C" fn(*mut c_void, u32, *const c_char)>;

/// `dxil_spv_rdat_subobject`: one RDAT state subobject of a DXIL library.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct RdatSubobject {
    pub kind: u32,
    pub subobject_name: *const c_char,
    pub hit_group_type: u32,
    pub exports: *const *const c_char,
    pub num_exports: c_uint,
    pub args: [c_uint; 2],
    pub payload: *const c_void,
    pub payload_size: usize,
}

/// `dxil_spv_option_base`: every option struct starts with its type tag.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptionBase {
    pub type_: u32,
}

/// Option type numbers (`dxil_spv_option`).
pub mod opt {
    pub const SHADER_DEMOTE_TO_HELPER: u32 = 1;
    pub const DUAL_SOURCE_BLENDING: u32 = 2;
    pub const OUTPUT_SWIZZLE: u32 = 3;
    pub const RASTERIZER_SAMPLE_COUNT: u32 = 4;
    pub const ROOT_CONSTANT_INLINE_UNIFORM_BLOCK: u32 = 5;
    pub const BINDLESS_CBV_SSBO_EMULATION: u32 = 6;
    pub const PHYSICAL_STORAGE_BUFFER: u32 = 7;
    pub const SBT_DESCRIPTOR_SIZE_LOG2: u32 = 8;
    pub const SSBO_ALIGNMENT: u32 = 9;
    pub const TYPED_UAV_READ_WITHOUT_FORMAT: u32 = 10;
    pub const SHADER_SOURCE_FILE: u32 = 11;
    pub const BINDLESS_TYPED_BUFFER_OFFSETS: u32 = 12;
    pub const BINDLESS_OFFSET_BUFFER_LAYOUT: u32 = 13;
    pub const STORAGE_INPUT_OUTPUT_16BIT: u32 = 14;
    pub const DESCRIPTOR_QA: u32 = 15;
    pub const MIN_PRECISION_NATIVE_16BIT: u32 = 16;
    pub const SHADER_I8_DOT: u32 = 17;
    pub const SHADER_RAY_TRACING_PRIMITIVE_CULLING: u32 = 18;
    pub const INVARIANT_POSITION: u32 = 19;
    pub const SCALAR_BLOCK_LAYOUT: u32 = 20;
    pub const BARYCENTRIC_KHR: u32 = 21;
    pub const ROBUST_PHYSICAL_CBV_LOAD: u32 = 22;
    pub const ARITHMETIC_RELAXED_PRECISION: u32 = 23;
    pub const PHYSICAL_ADDRESS_DESCRIPTOR_INDEXING: u32 = 24;
    pub const FORCE_SUBGROUP_SIZE: u32 = 25;
    pub const DENORM_PRESERVE_SUPPORT: u32 = 26;
    pub const STRICT_HELPER_LANE_WAVE_OPS: u32 = 27;
    pub const SUBGROUP_PARTITIONED_NV: u32 = 28;
    pub const DEAD_CODE_ELIMINATE: u32 = 29;
    pub const PRECISE_CONTROL: u32 = 30;
    pub const SAMPLE_GRAD_OPTIMIZATION_CONTROL: u32 = 31;
    pub const OPACITY_MICROMAP: u32 = 32;
    pub const BRANCH_CONTROL: u32 = 33;
    pub const SUBGROUP_PROPERTIES: u32 = 34;
    pub const DESCRIPTOR_HEAP_ROBUSTNESS: u32 = 35;
    pub const COMPUTE_SHADER_DERIVATIVES_NV: u32 = 36;
    pub const QUAD_CONTROL_RECONVERGENCE: u32 = 37;
    pub const RAW_ACCESS_CHAINS_NV: u32 = 38;
    pub const DRIVER_VERSION: u32 = 39;
    pub const COMPUTE_SHADER_DERIVATIVES: u32 = 40;
    pub const INSTRUCTION_INSTRUMENTATION: u32 = 41;
    pub const SHADER_QUIRK: u32 = 42;
    pub const EXTENDED_ROBUSTNESS: u32 = 43;
    pub const MAX_TESS_FACTOR: u32 = 44;
    pub const VULKAN_MEMORY_MODEL: u32 = 45;
    pub const FLOAT8_SUPPORT: u32 = 46;
    pub const NVAPI: u32 = 47;
    pub const EXTENDED_NON_SEMANTIC: u32 = 48;
    pub const VIEW_INSTANCING: u32 = 49;
    pub const MIXED_FLOAT_DOT_PRODUCT: u32 = 50;
    pub const COMPUTE_SHADER_DERIVATIVES_QUAD: u32 = 51;
}

/// Option structs whose fields the compat layer reads. The others are sized by [`option_size`].
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptBool {
    pub base: OptionBase,
    pub value: Bool,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptOutputSwizzle {
    pub base: OptionBase,
    pub swizzles: *const c_uint,
    pub swizzle_count: c_uint,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptInlineUniformBlock {
    pub base: OptionBase,
    pub desc_set: c_uint,
    pub binding: c_uint,
    pub enable: Bool,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptU32 {
    pub base: OptionBase,
    pub value: c_uint,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptU32x2 {
    pub base: OptionBase,
    pub a: c_uint,
    pub b: c_uint,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptU32x3 {
    pub base: OptionBase,
    pub a: c_uint,
    pub b: c_uint,
    pub c: c_uint,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptSourceFile {
    pub base: OptionBase,
    pub name: *const c_char,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptU32Bool {
    pub base: OptionBase,
    pub value: c_uint,
    pub flag: Bool,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptDescriptorQa {
    pub base: OptionBase,
    pub enabled: Bool,
    pub version: c_uint,
    pub global_desc_set: c_uint,
    pub global_binding: c_uint,
    pub heap_desc_set: c_uint,
    pub heap_binding: c_uint,
    pub shader_hash: u64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptInstrumentation {
    pub base: OptionBase,
    pub enabled: Bool,
    pub version: c_uint,
    pub control_desc_set: c_uint,
    pub control_binding: c_uint,
    pub payload_desc_set: c_uint,
    pub payload_binding: c_uint,
    pub shader_hash: u64,
    pub type_: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptBools<const N: usize> {
    pub base: OptionBase,
    pub values: [Bool; N],
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptBoolU32x2 {
    pub base: OptionBase,
    pub enabled: Bool,
    pub a: c_uint,
    pub b: c_uint,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OptViewInstancing {
    pub base: OptionBase,
    pub enabled: Bool,
    pub last_pre_rasterization_stage: Bool,
    pub view_index_to_view_instance_spec_id: c_uint,
    pub view_instance_to_viewport_spec_id: c_uint,
}

/// The size in bytes of option struct `type_` (None: not a known option type).
pub fn option_size(type_: u32) -> Option<usize> {
    use std::mem::size_of;
    Some(match type_ {
        opt::SHADER_DEMOTE_TO_HELPER
        | opt::DUAL_SOURCE_BLENDING
        | opt::BINDLESS_CBV_SSBO_EMULATION
        | opt::PHYSICAL_STORAGE_BUFFER
        | opt::TYPED_UAV_READ_WITHOUT_FORMAT
        | opt::BINDLESS_TYPED_BUFFER_OFFSETS
        | opt::STORAGE_INPUT_OUTPUT_16BIT
        | opt::MIN_PRECISION_NATIVE_16BIT
        | opt::SHADER_I8_DOT
        | opt::SHADER_RAY_TRACING_PRIMITIVE_CULLING
        | opt::INVARIANT_POSITION
        | opt::BARYCENTRIC_KHR
        | opt::ROBUST_PHYSICAL_CBV_LOAD
        | opt::ARITHMETIC_RELAXED_PRECISION
        | opt::STRICT_HELPER_LANE_WAVE_OPS
        | opt::SUBGROUP_PARTITIONED_NV
        | opt::DEAD_CODE_ELIMINATE
        | opt::OPACITY_MICROMAP
        | opt::DESCRIPTOR_HEAP_ROBUSTNESS
        | opt::COMPUTE_SHADER_DERIVATIVES_NV
        | opt::RAW_ACCESS_CHAINS_NV
        | opt::VULKAN_MEMORY_MODEL
        | opt::EXTENDED_NON_SEMANTIC
        | opt::COMPUTE_SHADER_DERIVATIVES_QUAD => size_of::<OptBool>(),
        opt::OUTPUT_SWIZZLE => size_of::<OptOutputSwizzle>(),
        opt::RASTERIZER_SAMPLE_COUNT | opt::FORCE_SUBGROUP_SIZE => size_of::<OptU32Bool>(),
        opt::ROOT_CONSTANT_INLINE_UNIFORM_BLOCK => size_of::<OptInlineUniformBlock>(),
        opt::SBT_DESCRIPTOR_SIZE_LOG2
        | opt::PHYSICAL_ADDRESS_DESCRIPTOR_INDEXING
        | opt::SUBGROUP_PROPERTIES
        | opt::DRIVER_VERSION => size_of::<OptU32x2>(),
        opt::SSBO_ALIGNMENT | opt::SHADER_QUIRK | opt::MAX_TESS_FACTOR => size_of::<OptU32>(),
        opt::SHADER_SOURCE_FILE => size_of::<OptSourceFile>(),
        opt::BINDLESS_OFFSET_BUFFER_LAYOUT => size_of::<OptU32x3>(),
        opt::DESCRIPTOR_QA => size_of::<OptDescriptorQa>(),
        opt::INSTRUCTION_INSTRUMENTATION => size_of::<OptInstrumentation>(),
        opt::SCALAR_BLOCK_LAYOUT
        | opt::DENORM_PRESERVE_SUPPORT
        | opt::PRECISE_CONTROL
        | opt::SAMPLE_GRAD_OPTIMIZATION_CONTROL
        | opt::COMPUTE_SHADER_DERIVATIVES
        | opt::FLOAT8_SUPPORT => size_of::<OptBools<2>>(),
        opt::QUAD_CONTROL_RECONVERGENCE | opt::EXTENDED_ROBUSTNESS => size_of::<OptBools<3>>(),
        opt::BRANCH_CONTROL | opt::MIXED_FLOAT_DOT_PRODUCT => size_of::<OptBools<5>>(),
        opt::NVAPI => size_of::<OptBoolU32x2>(),
        opt::VIEW_INSTANCING => size_of::<OptViewInstancing>(),
        _ => return None,
    })
}
