//! The native C API (`include/dxjit.h`, generated from this file by cbindgen).
//!
//! Conventions: every function that can fail returns a `DxjitResult`; on failure
//! `dxjit_last_error()` gives a message naming what is wrong (valid on the calling thread until
//! its next failing call). Objects are created by one function and freed by their `_free`
//! function; results own their memory until freed. Pointers an object returns (SPIR-V words,
//! names) stay valid until that object is freed. Unless stated otherwise a function may be called
//! from any thread, and different objects may be used concurrently; one object may be read
//! (queried) from several threads at once but not freed while in use.

use std::ffi::{c_char, c_void, CString};
use std::sync::Arc;

use dxjit::binding::model::{
    BindingPolicy, CounterLocation, HeapArrays, PushEntryKind, ResourceLocation, ResourcePlacement, ResourceQuery,
    ResourceRemap, RootBlock, RootDescriptorMode, TableMode,
};
use dxjit::binding::{BindingModel, DescriptorKind, LocalRoot, ResourceClass};
use dxjit::container::rdat::{HitGroupType, Subobject, SubobjectData};
use dxjit::container::rootsig::{DescriptorRangeType, RootParameterKind, RootSignature, ShaderVisibility};
use dxjit::container::Container;
use dxjit::dxil::library::export_name;
use dxjit::dxil::{DxilModuleInfo, SignatureElement};
use dxjit::link::{InputElement, InputLayout, LinkOptions, SoDeclaration, StreamOutputDesc};
use dxjit::ResourceKind;
use dxjit::{
    CompileError, CompileOptions, CompiledShader, PatchConstantInvocations, Robustness, ShaderKind, SubgroupSizeRange,
};

use crate::ffi::{self, bytes, catch, cstring, opt_str, set_last_error, slice};

/// Major version of this API (`dxjit_version`).
pub const DXJIT_VERSION_MAJOR: u32 = 0;
/// Minor version of this API.
pub const DXJIT_VERSION_MINOR: u32 = 1;
/// Patch version of this API.
pub const DXJIT_VERSION_PATCH: u32 = 0;
/// A `uint32_t` field holding "none" / "unbounded".
pub const DXJIT_NONE: u32 = u32::MAX;

/// What a call returned.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitResult {
    /// Success.
    DXJIT_OK = 0,
    /// A NULL pointer, zero size, index out of range or bad enum value in the arguments.
    DXJIT_ERROR_INVALID_ARGUMENT = 1,
    /// The container, bitcode or metadata is broken (the message names the rule and place).
    DXJIT_ERROR_MALFORMED = 2,
    /// Valid DXIL that dxjit does not translate (the message names the op or feature).
    DXJIT_ERROR_UNSUPPORTED = 3,
    /// The binding layout does not place a resource the shader uses, or the remap callback
    /// refused it.
    DXJIT_ERROR_BINDING = 4,
    /// D3D12 rejects the pipeline (the message names the rule).
    DXJIT_ERROR_PIPELINE_REJECTED = 5,
    /// The container holds DXBC shader-model 4.0-5.1 bytecode (a SHDR/SHEX part) and no DXIL:
    /// dxjit does not translate it (hand it to another translator).
    DXJIT_ERROR_DXBC = 6,
    /// I/O error (compile-cache directory, fallback library).
    DXJIT_ERROR_IO = 7,
    /// A bug in dxjit (including a caught panic).
    DXJIT_ERROR_INTERNAL = 8,
}

/// A shader stage.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitStage {
    DXJIT_STAGE_PIXEL = 0,
    DXJIT_STAGE_VERTEX = 1,
    DXJIT_STAGE_GEOMETRY = 2,
    DXJIT_STAGE_HULL = 3,
    DXJIT_STAGE_DOMAIN = 4,
    DXJIT_STAGE_COMPUTE = 5,
    DXJIT_STAGE_LIBRARY = 6,
    DXJIT_STAGE_RAY_GENERATION = 7,
    DXJIT_STAGE_INTERSECTION = 8,
    DXJIT_STAGE_ANY_HIT = 9,
    DXJIT_STAGE_CLOSEST_HIT = 10,
    DXJIT_STAGE_MISS = 11,
    DXJIT_STAGE_CALLABLE = 12,
    DXJIT_STAGE_MESH = 13,
    DXJIT_STAGE_AMPLIFICATION = 14,
    DXJIT_STAGE_NODE = 15,
    DXJIT_STAGE_INVALID = 0x7fff_ffff,
}

/// D3D12 resource classes (DXIL numbering).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitResourceClass {
    DXJIT_CLASS_SRV = 0,
    DXJIT_CLASS_UAV = 1,
    DXJIT_CLASS_CBV = 2,
    DXJIT_CLASS_SAMPLER = 3,
}

/// Vulkan descriptor types of placements and bindings.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitDescriptor {
    DXJIT_DESCRIPTOR_UNIFORM_BUFFER = 0,
    DXJIT_DESCRIPTOR_STORAGE_BUFFER = 1,
    DXJIT_DESCRIPTOR_UNIFORM_TEXEL_BUFFER = 2,
    DXJIT_DESCRIPTOR_STORAGE_TEXEL_BUFFER = 3,
    DXJIT_DESCRIPTOR_SAMPLED_IMAGE = 4,
    DXJIT_DESCRIPTOR_STORAGE_IMAGE = 5,
    DXJIT_DESCRIPTOR_SAMPLER = 6,
    DXJIT_DESCRIPTOR_ACCELERATION_STRUCTURE = 7,
    DXJIT_DESCRIPTOR_PUSH_CONSTANT = 8,
}

/// Where a placement puts a resource range (`DxjitPlacement.location`).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitLocation {
    /// A plain binding: register `base + k` is array element `k` of (set, binding).
    DXJIT_LOCATION_DESCRIPTOR = 0,
    /// Elements of a bindless heap array at (set, binding), index
    /// `root word[table_word] + heap_offset + k`.
    DXJIT_LOCATION_HEAP = 1,
    /// Root constants: `words` values from root-block word `word`.
    DXJIT_LOCATION_ROOT_CONSTANTS = 2,
    /// A root descriptor: a 64-bit buffer device address in root-block words `word`, `word + 1`.
    DXJIT_LOCATION_ADDRESS = 3,
    /// Local root signature: root constants, `words` values from shader-record byte `word`.
    DXJIT_LOCATION_RECORD_CONSTANTS = 4,
    /// Local root signature: a 64-bit buffer device address at shader-record byte `word`.
    DXJIT_LOCATION_RECORD_ADDRESS = 5,
    /// Local root signature: heap array elements at (set, binding), index `(low word of the
    /// descriptor handle at shader-record byte table_word) >> record_table_shift + heap_offset + k`
    /// (`record_sampler_table_shift` for samplers).
    DXJIT_LOCATION_RECORD_HEAP = 6,
}

/// Where a UAV counter lives (`DxjitPlacement.counter`).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitCounter {
    DXJIT_COUNTER_NONE = 0,
    /// Storage buffer(s) at (counter_set, counter_binding), one per register.
    DXJIT_COUNTER_DESCRIPTOR = 1,
    /// A runtime array of storage buffers at (counter_set, counter_binding), indexed like the UAV.
    DXJIT_COUNTER_HEAP = 2,
    /// A storage buffer of 64-bit counter addresses (`uvec2[]`: low, high) at
    /// (counter_set, counter_binding), indexed like the UAV.
    DXJIT_COUNTER_ADDRESS_TABLE = 3,
}

/// What a root-block entry holds (`DxjitPushEntry.kind`).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitPushEntryKind {
    DXJIT_PUSH_ROOT_DESCRIPTOR = 0,
    DXJIT_PUSH_ROOT_CONSTANTS = 1,
    DXJIT_PUSH_TABLE_OFFSET = 2,
}

/// Which signature of a shader (`dxjit_blob_signature_*`).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitSignature {
    DXJIT_SIGNATURE_INPUT = 0,
    DXJIT_SIGNATURE_OUTPUT = 1,
    DXJIT_SIGNATURE_PATCH_CONSTANT = 2,
}

/// Root parameter kinds (`DxjitRootParameter.kind`, D3D12 numbering).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitRootParameterKind {
    DXJIT_ROOT_DESCRIPTOR_TABLE = 0,
    DXJIT_ROOT_CONSTANTS = 1,
    DXJIT_ROOT_CBV = 2,
    DXJIT_ROOT_SRV = 3,
    DXJIT_ROOT_UAV = 4,
}

/// Values of `DxjitCompileOptions.robustness`.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitRobustness {
    /// Emit bounds checks (out-of-bounds loads read 0, stores are dropped). The default.
    DXJIT_ROBUSTNESS_EXPLICIT = 0,
    /// Rely on the device's robustBufferAccess2: no bounds checks.
    DXJIT_ROBUSTNESS_DEVICE = 1,
}

/// Values of `DxjitBindingPolicy.tables`.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitTableMode {
    /// Descriptor-table ranges are elements of the bindless heap arrays.
    DXJIT_TABLES_HEAP = 0,
    /// Table t is descriptor set `tables_first_set + t`.
    DXJIT_TABLES_DESCRIPTORS = 1,
}

/// Values of `DxjitBindingPolicy.root_descriptors`.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitRootDescriptorMode {
    /// Buffer device addresses in the root block.
    DXJIT_ROOT_DESCRIPTORS_ADDRESS = 0,
    /// Plain descriptors in set `root_descriptor_set`, binding = parameter index.
    DXJIT_ROOT_DESCRIPTORS_DESCRIPTORS = 1,
}

/// Values of `DxjitBindingPolicy.root_block`.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitRootBlock {
    DXJIT_ROOT_BLOCK_PUSH_CONSTANTS = 0,
    /// A uniform block at (root_block_set, root_block_binding).
    DXJIT_ROOT_BLOCK_UNIFORM = 1,
}

/// Which local root signature a ray-tracing export is compiled with
/// (`dxjit_binding_layout_set_local_root_signature`).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitLocalRoot {
    /// The one the library's RDAT subobjects associate with the export (D3D12's association
    /// rules), if any. The default.
    DXJIT_LOCAL_ROOT_FROM_LIBRARY = 0,
    /// The one given (the state object the layer builds associates it).
    DXJIT_LOCAL_ROOT_GIVEN = 1,
    /// None.
    DXJIT_LOCAL_ROOT_NONE = 2,
}

/// State subobject kinds of a DXIL library (`DxjitSubobject.kind`, D3D12_STATE_SUBOBJECT_TYPE
/// numbering).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxjitSubobjectKind {
    DXJIT_SUBOBJECT_STATE_OBJECT_CONFIG = 0,
    DXJIT_SUBOBJECT_GLOBAL_ROOT_SIGNATURE = 1,
    DXJIT_SUBOBJECT_LOCAL_ROOT_SIGNATURE = 2,
    DXJIT_SUBOBJECT_TO_EXPORTS_ASSOCIATION = 8,
    DXJIT_SUBOBJECT_RAYTRACING_SHADER_CONFIG = 9,
    DXJIT_SUBOBJECT_RAYTRACING_PIPELINE_CONFIG = 10,
    DXJIT_SUBOBJECT_HIT_GROUP = 11,
    DXJIT_SUBOBJECT_RAYTRACING_PIPELINE_CONFIG1 = 12,
}

/// A parsed DXBC container holding a DXIL shader (opaque).
pub struct DxjitBlob {
    bytes: Vec<u8>,
    info: DxilModuleInfo,
    root_signature: Option<RootSignature>,
    entry_names: Vec<CString>,
    /// Semantic and resource names, owned for the pointers handed out.
    names: Vec<CString>,
    /// Per signature kind: (element, index into `names` of its semantic name).
    signatures: [Vec<(SignatureElement, usize)>; 3],
    resources: Vec<DxjitResourceInfo>,
    /// Per entry point: its plain export name (libraries: the mangled name up to its first `@`).
    export_names: Vec<CString>,
    /// The RDAT state subobjects (libraries), with the strings and arrays their C views point to.
    subobjects: Vec<OwnedSubobject>,
}

/// One RDAT subobject and the memory its C view (`DxjitSubobject`) points into.
pub(crate) struct OwnedSubobject {
    pub(crate) data: Subobject,
    pub(crate) name: CString,
    /// Associations: the subobject named, then the exports; hit groups: any hit, closest hit,
    /// intersection (empty: none).
    _strings: Vec<CString>,
    /// Pointers into `strings`.
    pub(crate) pointers: Vec<*const c_char>,
}

// SAFETY: `pointers` point into `strings`, owned by the same value and never changed after
// construction; the value is only read.
unsafe impl Send for OwnedSubobject {}
// SAFETY: as above.
unsafe impl Sync for OwnedSubobject {}

impl OwnedSubobject {
    fn new(data: Subobject) -> OwnedSubobject {
        let strings: Vec<CString> = match &data.data {
            SubobjectData::SubobjectToExportsAssociation { subobject, exports } => {
                std::iter::once(subobject).chain(exports).map(|e| cstring(e)).collect()
            }
            SubobjectData::HitGroup { any_hit, closest_hit, intersection, .. } => {
                [any_hit, closest_hit, intersection].into_iter().map(|e| cstring(e)).collect()
            }
            _ => Vec::new(),
        };
        let pointers = strings.iter().map(|c| c.as_ptr()).collect();
        OwnedSubobject { name: cstring(&data.name), data, _strings: strings, pointers }
    }

    /// The D3D12_STATE_SUBOBJECT_TYPE number (`None`: a kind dxjit does not decode).
    pub(crate) fn kind(&self) -> Option<u32> {
        Some(match self.data.data {
            SubobjectData::StateObjectConfig { .. } => 0,
            SubobjectData::GlobalRootSignature { .. } => 1,
            SubobjectData::LocalRootSignature { .. } => 2,
            SubobjectData::SubobjectToExportsAssociation { .. } => 8,
            SubobjectData::RaytracingShaderConfig { .. } => 9,
            SubobjectData::RaytracingPipelineConfig { .. } => 10,
            SubobjectData::HitGroup { .. } => 11,
            SubobjectData::RaytracingPipelineConfig1 { .. } => 12,
            SubobjectData::Other { .. } => return None,
        })
    }

    fn to_c(&self) -> DxjitSubobject {
        let null: *const c_char = std::ptr::null();
        let mut c = DxjitSubobject {
            kind: self.kind().unwrap_or(DXJIT_NONE),
            name: self.name.as_ptr(),
            data: std::ptr::null(),
            size: 0,
            subobject: null,
            exports: std::ptr::null(),
            export_count: 0,
            hit_group_type: 0,
            any_hit: null,
            closest_hit: null,
            intersection: null,
            flags: 0,
            max_payload_size: 0,
            max_attribute_size: 0,
            max_recursion_depth: 0,
        };
        match &self.data.data {
            SubobjectData::StateObjectConfig { flags } => c.flags = *flags,
            SubobjectData::GlobalRootSignature { data } | SubobjectData::LocalRootSignature { data } => {
                c.data = data.as_ptr();
                c.size = data.len();
            }
            SubobjectData::SubobjectToExportsAssociation { .. } => {
                c.subobject = self.pointers[0];
                c.exports = self.pointers[1..].as_ptr();
                c.export_count = (self.pointers.len() - 1) as u32;
            }
            SubobjectData::RaytracingShaderConfig { max_payload_size, max_attribute_size } => {
                c.max_payload_size = *max_payload_size;
                c.max_attribute_size = *max_attribute_size;
            }
            SubobjectData::RaytracingPipelineConfig { max_trace_recursion_depth } => {
                c.max_recursion_depth = *max_trace_recursion_depth
            }
            SubobjectData::RaytracingPipelineConfig1 { max_trace_recursion_depth, flags } => {
                c.max_recursion_depth = *max_trace_recursion_depth;
                c.flags = *flags;
            }
            SubobjectData::HitGroup { hit_group_type, .. } => {
                c.hit_group_type = match hit_group_type {
                    HitGroupType::Triangles => 0,
                    HitGroupType::ProceduralPrimitive => 1,
                };
                c.any_hit = self.pointers[0];
                c.closest_hit = self.pointers[1];
                c.intersection = self.pointers[2];
            }
            SubobjectData::Other { .. } => {}
        }
        c
    }
}

/// One compiled shader (opaque): SPIR-V and its interface.
pub struct DxjitShader {
    shader: Arc<CompiledShader>,
    entry: CString,
}

/// A linked and compiled graphics pipeline (opaque).
pub struct DxjitPipeline {
    shaders: Vec<DxjitShader>,
    tessellation: Option<DxjitTessellationState>,
}

/// A binding layout: root signature, policy and remap callback (opaque).
pub struct DxjitBindingLayout {
    model: Arc<BindingModel>,
}

/// A thread-safe compile cache (opaque).
pub struct DxjitCache {
    cache: dxjit::cache::CompileCache,
}

/// One signature element.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitSignatureElement {
    /// Semantic name (owned by the blob).
    pub semantic_name: *const c_char,
    /// Semantic index of the first row.
    pub semantic_index: u32,
    /// DXIL semantic kind (0 = user semantic, 3 = SV_Position, 16 = SV_Target, ...).
    pub semantic_kind: u32,
    /// DXIL component type (9 = f32, 5 = u32, 4 = i32, ...).
    pub component_type: u32,
    /// DXIL interpolation mode.
    pub interpolation: u32,
    pub rows: u32,
    pub cols: u32,
    /// Packing row (-1 = not packed, e.g. SV_Depth).
    pub start_row: i32,
    /// Packing column (-1 = not packed).
    pub start_col: i32,
    /// Geometry-shader output stream (0 elsewhere).
    pub stream: u32,
    /// Signature element id.
    pub id: u32,
}

/// One resource range the shader declares.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitResourceInfo {
    /// A `DxjitResourceClass` value.
    pub class_: u32,
    /// DXIL resource kind (1 = Texture1D ... 10 = TypedBuffer, 11 = RawBuffer,
    /// 12 = StructuredBuffer, 13 = CBuffer, 14 = Sampler, 16 = acceleration structure).
    pub kind: u32,
    /// Index of the resource within its class (the DXIL resource id).
    pub id: u32,
    pub space: u32,
    pub lower_bound: u32,
    /// Registers in the range; `DXJIT_NONE` = unbounded.
    pub count: u32,
    /// Structured-buffer stride in bytes (0 otherwise).
    pub stride: u32,
    /// CBV size in bytes (0 otherwise).
    pub cbv_size: u32,
    pub has_counter: bool,
    /// Variable name (owned by the blob).
    pub name: *const c_char,
}

/// One root parameter of a blob's root signature (RTS0 part).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitRootParameter {
    /// A `DxjitRootParameterKind` value.
    pub kind: u32,
    /// D3D12_SHADER_VISIBILITY value.
    pub visibility: u32,
    /// Root constants and root descriptors: register and space.
    pub shader_register: u32,
    pub register_space: u32,
    /// Root constants: number of 32-bit values.
    pub num_32bit_values: u32,
    /// Descriptor tables: number of ranges (`dxjit_blob_root_range`).
    pub range_count: u32,
}

/// One descriptor range of a root descriptor table.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitDescriptorRange {
    /// A `DxjitResourceClass` value.
    pub class_: u32,
    /// `DXJIT_NONE` = unbounded.
    pub num_descriptors: u32,
    pub base_shader_register: u32,
    pub register_space: u32,
    /// `DXJIT_NONE` = appended after the previous range.
    pub offset_in_descriptors_from_table_start: u32,
}

/// Where the binding layout puts one resource range (also what a remap callback answers).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct DxjitPlacement {
    /// A `DxjitLocation` value.
    pub location: u32,
    /// Descriptor and heap locations: descriptor set, binding and a `DxjitDescriptor` type.
    pub set: u32,
    pub binding: u32,
    pub descriptor: u32,
    /// Heap: the root-block word holding the table's heap offset (`DXJIT_NONE`: none).
    pub table_word: u32,
    /// Heap: constant offset added to the index.
    pub heap_offset: u32,
    /// Heap: a `uvec2[]` bounds buffer at (bounds_set, bounds_binding) when `has_bounds`.
    pub has_bounds: bool,
    pub bounds_set: u32,
    pub bounds_binding: u32,
    /// Root constants and addresses: first root-block word; root constants: word count.
    pub word: u32,
    pub words: u32,
    /// A `DxjitCounter` value, and the counter's (set, binding).
    pub counter: u32,
    pub counter_set: u32,
    pub counter_binding: u32,
}

/// What a remap callback is asked about: one resource range of a shader.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitResourceQuery {
    /// A `DxjitStage` value.
    pub stage: u32,
    /// A `DxjitResourceClass` value.
    pub class_: u32,
    /// DXIL resource kind (see `DxjitResourceInfo.kind`).
    pub kind: u32,
    pub space: u32,
    pub register_: u32,
    /// `DXJIT_NONE` = unbounded.
    pub count: u32,
    /// An SM 6.6 ResourceDescriptorHeap/SamplerDescriptorHeap access (space and register are
    /// meaningless; the shader's index is the heap index).
    pub heap: bool,
    pub has_counter: bool,
}

/// The remap callback: sees the query and the policy's proposal (NULL when the root signature
/// does not cover the resource) and writes the placement to use into `out` (pre-filled with the
/// proposal when there is one). Returns false to refuse (the compile fails with
/// DXJIT_ERROR_BINDING naming the resource). Called from the compiling thread, once per resource
/// range and compile; with several threads compiling, concurrently.
pub type DxjitRemapFn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        query: *const DxjitResourceQuery,
        proposed: *const DxjitPlacement,
        out: *mut DxjitPlacement,
    ) -> bool,
>;

/// The default policy: how root-signature parameters become Vulkan bindings
/// (`dxjit_binding_policy_default` fills dxjit's defaults).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitBindingPolicy {
    /// A `DxjitTableMode` value, and the first set for `DXJIT_TABLES_DESCRIPTORS`.
    pub tables: u32,
    pub tables_first_set: u32,
    /// Heap arrays: (set, binding) per descriptor type, indexed by `DxjitDescriptor` (0-7).
    pub heap_set: [u32; 8],
    pub heap_binding: [u32; 8],
    /// The buffer-view bounds buffer and the UAV-counter array (`has_*` false: none).
    pub has_heap_bounds: bool,
    pub heap_bounds_set: u32,
    pub heap_bounds_binding: u32,
    pub has_heap_counters: bool,
    pub heap_counters_set: u32,
    pub heap_counters_binding: u32,
    /// A `DxjitRootDescriptorMode` value, and the set for `DXJIT_ROOT_DESCRIPTORS_DESCRIPTORS`.
    pub root_descriptors: u32,
    pub root_descriptor_set: u32,
    /// A `DxjitRootBlock` value, and the uniform block's (set, binding).
    pub root_block: u32,
    pub root_block_set: u32,
    pub root_block_binding: u32,
    /// Heap CBVs are read as storage buffers.
    pub cbv_as_storage_buffer: bool,
    /// Static sampler i at (static_sampler_set, static_sampler_first_binding + i).
    pub static_sampler_set: u32,
    pub static_sampler_first_binding: u32,
    /// Local descriptor tables: heap index = low word of the shader record's descriptor handle
    /// shifted right by this many bits (CBV/SRV/UAV tables; `log2` of the layer's descriptor
    /// size when its handles are `index * size`).
    pub record_table_shift: u32,
    /// The same for tables of the sampler heap.
    pub record_sampler_table_shift: u32,
}

/// Compile options (`dxjit_compile_options_default` fills the defaults; NULL options = defaults).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitCompileOptions {
    /// Entry point name (NULL: the module's first).
    pub entry_point: *const c_char,
    /// SPIR-V version of the output, 1.3 to 1.6.
    pub spirv_version_major: u32,
    pub spirv_version_minor: u32,
    /// A `DxjitRobustness` value.
    pub robustness: u32,
    /// `discard` demotes to a helper invocation (else OpKill).
    pub demote_to_helper: bool,
    /// The device has VK_KHR_fragment_shader_barycentric.
    pub fragment_barycentrics: bool,
    /// Hull shaders: every invocation (true) or invocation 0 only (false) runs the
    /// patch-constant function.
    pub hull_patch_constants_all: bool,
    /// Pixel shaders: SV_Target0/1 are the two dual-source blend sources.
    pub dual_source_blending: bool,
    /// SV_Position of the last pre-rasterization stage is Invariant.
    pub invariant_position: bool,
    /// Typed UAV loads are declared with format Unknown.
    pub typed_uav_load_without_format: bool,
    /// The pipeline's rasterizer sample count (0: not known).
    pub rasterizer_sample_count: u32,
    /// Pixel shaders: per render target, 4 bytes: the shader component written to attachment
    /// component c (0-3 = x-w, 4 = 0, 5 = 1; 0xFF in all four = identity).
    pub output_swizzles: *const [u8; 4],
    pub output_swizzle_count: u32,
    /// The binding layout (NULL: dxjit's default register rule).
    pub bindings: *const DxjitBindingLayout,
    /// The subgroup sizes the pipeline may run the stage with (0, 0: not known); see
    /// `dxjit_shader_required_subgroup_size`.
    pub subgroup_size_min: u32,
    pub subgroup_size_max: u32,
    /// Min-precision types (min16float, min16int) as real 16-bit types (the device needs
    /// shaderFloat16/shaderInt16); false: computed at 32 bits.
    pub native_min_precision: bool,
}

/// One state subobject of a DXIL library (`dxjit_blob_subobject`). Pointers are owned by the
/// blob. Fields a kind does not use are 0 / NULL.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitSubobject {
    /// A `DxjitSubobjectKind` value (`DXJIT_NONE`: a kind dxjit does not decode).
    pub kind: u32,
    /// The subobject's name.
    pub name: *const c_char,
    /// Global and local root signatures: the serialized root signature (RTS0 layout).
    pub data: *const u8,
    pub size: usize,
    /// Associations: the subobject associated and the exports (`export_count` names; none: a
    /// default association).
    pub subobject: *const c_char,
    pub exports: *const *const c_char,
    pub export_count: u32,
    /// Hit groups: 0 triangles, 1 procedural primitive; the exports ("" when absent).
    pub hit_group_type: u32,
    pub any_hit: *const c_char,
    pub closest_hit: *const c_char,
    pub intersection: *const c_char,
    /// State object config (D3D12_STATE_OBJECT_FLAGS) and pipeline config 1
    /// (D3D12_RAYTRACING_PIPELINE_FLAGS) flags.
    pub flags: u32,
    /// Shader config.
    pub max_payload_size: u32,
    pub max_attribute_size: u32,
    /// Pipeline config (and config 1).
    pub max_recursion_depth: u32,
}

/// One local root argument in the shader record of a compiled ray-tracing export
/// (`dxjit_shader_record_entry`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitRecordEntry {
    /// A `DxjitPushEntryKind` value: root descriptor (a 64-bit buffer address), root constants,
    /// or a descriptor table (a 64-bit D3D12_GPU_DESCRIPTOR_HANDLE, see
    /// `DxjitBindingPolicy.record_table_shift`).
    pub kind: u32,
    /// The local root signature's parameter.
    pub parameter: u32,
    /// First byte after the shader identifier (D3D12) / shader group handle (Vulkan), and size.
    pub offset: u32,
    pub size: u32,
    /// As in `DxjitPushEntry`.
    pub class_: u32,
    pub space: u32,
    pub register_: u32,
    pub sampler_heap: bool,
}

/// One root-block entry of a compiled shader.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitPushEntry {
    /// A `DxjitPushEntryKind` value.
    pub kind: u32,
    /// The root parameter it comes from (`DXJIT_NONE`: none).
    pub parameter: u32,
    pub word: u32,
    pub words: u32,
    /// Root descriptors: a `DxjitResourceClass` value; root constants and root descriptors:
    /// register and space; table offsets: `sampler_heap`.
    pub class_: u32,
    pub space: u32,
    pub register_: u32,
    pub sampler_heap: bool,
}

/// One Vulkan binding a compiled shader uses (dxjit's default rule or a binding map).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitBinding {
    /// A `DxjitResourceClass` value.
    pub class_: u32,
    pub space: u32,
    pub lower_bound: u32,
    /// `DXJIT_NONE` = unbounded.
    pub count: u32,
    pub set: u32,
    pub binding: u32,
    /// A `DxjitDescriptor` value.
    pub descriptor: u32,
    pub has_counter: bool,
    pub counter_set: u32,
    pub counter_binding: u32,
}

/// Tessellation state of a pipeline (from its hull shader).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitTessellationState {
    /// patchControlPoints.
    pub input_control_points: u32,
    pub output_control_points: u32,
    /// DXIL tessellator domain (1 = isoline, 2 = tri, 3 = quad).
    pub domain: u32,
    /// DXIL partitioning (1 = integer, 2 = pow2, 3 = fractional odd, 4 = fractional even).
    pub partitioning: u32,
    /// DXIL output primitive (1 = point, 2 = line, 3 = triangle cw, 4 = triangle ccw).
    pub output_primitive: u32,
    pub max_tess_factor: f32,
    /// Location of the first patch constant.
    pub patch_constant_location_offset: u32,
}

/// Counters of a compile cache.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct DxjitCacheStats {
    pub hits: u64,
    pub disk_hits: u64,
    pub misses: u64,
    pub entries: u64,
}

/// One shader of a pipeline: a DXBC container.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitShaderBytes {
    pub data: *const u8,
    pub size: usize,
}

/// One D3D12_INPUT_ELEMENT_DESC.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitInputElement {
    pub semantic: *const c_char,
    pub index: u32,
    /// DXGI format name without the prefix, e.g. "R32G32B32_FLOAT".
    pub format: *const c_char,
    pub slot: u32,
    /// Byte offset; `DXJIT_NONE` = D3D12_APPEND_ALIGNED_ELEMENT.
    pub offset: u32,
    pub per_instance: bool,
    pub step_rate: u32,
}

/// One D3D12_SO_DECLARATION_ENTRY.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitSoDeclaration {
    pub stream: u32,
    /// NULL: a gap of `component_count` components.
    pub semantic: *const c_char,
    pub semantic_index: u32,
    pub start_component: u32,
    pub component_count: u32,
    pub output_slot: u32,
}

/// Pipeline-wide link options (NULL = no input layout, stream 0 rasterized, no stream output).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DxjitLinkOptions {
    pub input_elements: *const DxjitInputElement,
    pub input_element_count: u32,
    /// The rasterized GS stream; -1 = D3D12_SO_NO_RASTERIZED_STREAM.
    pub rasterized_stream: i32,
    pub so_declarations: *const DxjitSoDeclaration,
    pub so_declaration_count: u32,
    /// Byte stride of each stream-output slot.
    pub so_strides: *const u32,
    pub so_stride_count: u32,
}

/// Where compiles went (`dxjit_route_stats`): dxjit, the fallback library, or refused.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct DxjitRouteStats {
    /// Compiled by dxjit.
    pub dxjit: u64,
    /// DXBC shaders compiled by the fallback library.
    pub fallback_dxbc: u64,
    /// DXIL shaders dxjit reports unsupported, compiled by the fallback library.
    pub fallback_unsupported: u64,
    /// DXBC shaders refused because no fallback library is loaded.
    pub dxbc_refused: u64,
    /// Compiles that failed (in dxjit or in the fallback).
    pub failed: u64,
}

// ---------------------------------------------------------------------------------------------
// Internal helpers

pub(crate) struct Fail(pub DxjitResult, pub String);

impl From<&str> for Fail {
    fn from(s: &str) -> Fail {
        Fail(DxjitResult::DXJIT_ERROR_INVALID_ARGUMENT, s.to_string())
    }
}

impl From<String> for Fail {
    fn from(s: String) -> Fail {
        Fail(DxjitResult::DXJIT_ERROR_INVALID_ARGUMENT, s)
    }
}

fn run(f: impl FnOnce() -> Result<(), Fail>) -> DxjitResult {
    match catch(f) {
        Ok(Ok(())) => DxjitResult::DXJIT_OK,
        Ok(Err(Fail(code, msg))) => {
            set_last_error(&msg);
            code
        }
        Err(msg) => {
            set_last_error(&msg);
            DxjitResult::DXJIT_ERROR_INTERNAL
        }
    }
}

/// Writes `v` through `out` (a NULL `out` is an invalid argument).
///
/// # Safety
/// `out` is NULL or valid for a write of `T`.
unsafe fn put<T>(out: *mut T, v: T, what: &str) -> Result<(), Fail> {
    if out.is_null() {
        return Err(Fail(DxjitResult::DXJIT_ERROR_INVALID_ARGUMENT, format!("{what} is NULL")));
    }
    // SAFETY: non-NULL and valid per the caller.
    unsafe { out.write(v) };
    Ok(())
}

/// # Safety
/// `p` is NULL or a live object created by this library.
unsafe fn obj<'a, T>(p: *const T, what: &str) -> Result<&'a T, Fail> {
    // SAFETY: NULL or valid per the caller.
    unsafe { p.as_ref() }.ok_or_else(|| Fail(DxjitResult::DXJIT_ERROR_INVALID_ARGUMENT, format!("{what} is NULL")))
}

fn index_fail(what: &str, i: u32, n: usize) -> Fail {
    Fail(DxjitResult::DXJIT_ERROR_INVALID_ARGUMENT, format!("{what} index {i} out of range ({n})"))
}

pub(crate) fn compile_fail(e: &CompileError) -> Fail {
    let code = match e {
        CompileError::Malformed(_) => DxjitResult::DXJIT_ERROR_MALFORMED,
        CompileError::Unsupported { .. } => DxjitResult::DXJIT_ERROR_UNSUPPORTED,
        CompileError::Binding(_) => DxjitResult::DXJIT_ERROR_BINDING,
        CompileError::Internal(_) => DxjitResult::DXJIT_ERROR_INTERNAL,
    };
    Fail(code, e.to_string())
}

pub(crate) fn stage_of(k: ShaderKind) -> DxjitStage {
    use DxjitStage::*;
    match k {
        ShaderKind::Pixel => DXJIT_STAGE_PIXEL,
        ShaderKind::Vertex => DXJIT_STAGE_VERTEX,
        ShaderKind::Geometry => DXJIT_STAGE_GEOMETRY,
        ShaderKind::Hull => DXJIT_STAGE_HULL,
        ShaderKind::Domain => DXJIT_STAGE_DOMAIN,
        ShaderKind::Compute => DXJIT_STAGE_COMPUTE,
        ShaderKind::Library => DXJIT_STAGE_LIBRARY,
        ShaderKind::RayGeneration => DXJIT_STAGE_RAY_GENERATION,
        ShaderKind::Intersection => DXJIT_STAGE_INTERSECTION,
        ShaderKind::AnyHit => DXJIT_STAGE_ANY_HIT,
        ShaderKind::ClosestHit => DXJIT_STAGE_CLOSEST_HIT,
        ShaderKind::Miss => DXJIT_STAGE_MISS,
        ShaderKind::Callable => DXJIT_STAGE_CALLABLE,
        ShaderKind::Mesh => DXJIT_STAGE_MESH,
        ShaderKind::Amplification => DXJIT_STAGE_AMPLIFICATION,
        ShaderKind::Node => DXJIT_STAGE_NODE,
    }
}

pub(crate) fn class_num(c: ResourceClass) -> u32 {
    match c {
        ResourceClass::Srv => 0,
        ResourceClass::Uav => 1,
        ResourceClass::Cbv => 2,
        ResourceClass::Sampler => 3,
    }
}

/// The DXIL number of a resource kind.
pub(crate) fn kind_num(k: ResourceKind) -> u32 {
    k.to_u32()
}

pub(crate) fn descriptor_num(d: DescriptorKind) -> u32 {
    match d {
        DescriptorKind::UniformBuffer => 0,
        DescriptorKind::StorageBuffer => 1,
        DescriptorKind::UniformTexelBuffer => 2,
        DescriptorKind::StorageTexelBuffer => 3,
        DescriptorKind::SampledImage => 4,
        DescriptorKind::StorageImage => 5,
        DescriptorKind::Sampler => 6,
        DescriptorKind::AccelerationStructure => 7,
        DescriptorKind::PushConstant => 8,
    }
}

fn descriptor_from(v: u32) -> Result<DescriptorKind, String> {
    Ok(match v {
        0 => DescriptorKind::UniformBuffer,
        1 => DescriptorKind::StorageBuffer,
        2 => DescriptorKind::UniformTexelBuffer,
        3 => DescriptorKind::StorageTexelBuffer,
        4 => DescriptorKind::SampledImage,
        5 => DescriptorKind::StorageImage,
        6 => DescriptorKind::Sampler,
        7 => DescriptorKind::AccelerationStructure,
        _ => return Err(format!("descriptor type {v} is not a DxjitDescriptor value")),
    })
}

fn opt_u32(v: Option<u32>) -> u32 {
    v.unwrap_or(DXJIT_NONE)
}

/// A placement as the C struct.
pub(crate) fn placement_to_c(p: &ResourcePlacement) -> DxjitPlacement {
    let mut c = DxjitPlacement { table_word: DXJIT_NONE, ..Default::default() };
    match p.location {
        ResourceLocation::Descriptor { set, binding, descriptor } => {
            c.location = DxjitLocation::DXJIT_LOCATION_DESCRIPTOR as u32;
            c.set = set;
            c.binding = binding;
            c.descriptor = descriptor_num(descriptor);
        }
        ResourceLocation::Heap { set, binding, descriptor, table_word, heap_offset, bounds } => {
            c.location = DxjitLocation::DXJIT_LOCATION_HEAP as u32;
            c.set = set;
            c.binding = binding;
            c.descriptor = descriptor_num(descriptor);
            c.table_word = opt_u32(table_word);
            c.heap_offset = heap_offset;
            if let Some((s, b)) = bounds {
                c.has_bounds = true;
                c.bounds_set = s;
                c.bounds_binding = b;
            }
        }
        ResourceLocation::RootConstants { word, words } => {
            c.location = DxjitLocation::DXJIT_LOCATION_ROOT_CONSTANTS as u32;
            c.word = word;
            c.words = words;
        }
        ResourceLocation::Address { word } => {
            c.location = DxjitLocation::DXJIT_LOCATION_ADDRESS as u32;
            c.word = word;
            c.words = 2;
        }
        ResourceLocation::RecordConstants { offset, words } => {
            c.location = DxjitLocation::DXJIT_LOCATION_RECORD_CONSTANTS as u32;
            c.word = offset;
            c.words = words;
        }
        ResourceLocation::RecordAddress { offset } => {
            c.location = DxjitLocation::DXJIT_LOCATION_RECORD_ADDRESS as u32;
            c.word = offset;
            c.words = 2;
        }
        ResourceLocation::RecordHeap { set, binding, descriptor, table_offset, heap_offset, bounds } => {
            c.location = DxjitLocation::DXJIT_LOCATION_RECORD_HEAP as u32;
            c.set = set;
            c.binding = binding;
            c.descriptor = descriptor_num(descriptor);
            c.table_word = table_offset;
            c.heap_offset = heap_offset;
            if let Some((s, b)) = bounds {
                c.has_bounds = true;
                c.bounds_set = s;
                c.bounds_binding = b;
            }
        }
    }
    match p.counter {
        None => {}
        Some(CounterLocation::Descriptor { set, binding }) => {
            c.counter = DxjitCounter::DXJIT_COUNTER_DESCRIPTOR as u32;
            c.counter_set = set;
            c.counter_binding = binding;
        }
        Some(CounterLocation::Heap { set, binding }) => {
            c.counter = DxjitCounter::DXJIT_COUNTER_HEAP as u32;
            c.counter_set = set;
            c.counter_binding = binding;
        }
        Some(CounterLocation::AddressTable { set, binding }) => {
            c.counter = DxjitCounter::DXJIT_COUNTER_ADDRESS_TABLE as u32;
            c.counter_set = set;
            c.counter_binding = binding;
        }
    }
    c
}

/// The C struct as a placement (checks the enum values).
pub(crate) fn placement_from_c(c: &DxjitPlacement) -> Result<ResourcePlacement, String> {
    let location = match c.location {
        0 => {
            ResourceLocation::Descriptor { set: c.set, binding: c.binding, descriptor: descriptor_from(c.descriptor)? }
        }
        1 => ResourceLocation::Heap {
            set: c.set,
            binding: c.binding,
            descriptor: descriptor_from(c.descriptor)?,
            table_word: (c.table_word != DXJIT_NONE).then_some(c.table_word),
            heap_offset: c.heap_offset,
            bounds: c.has_bounds.then_some((c.bounds_set, c.bounds_binding)),
        },
        2 => ResourceLocation::RootConstants { word: c.word, words: c.words },
        3 => ResourceLocation::Address { word: c.word },
        4 => ResourceLocation::RecordConstants { offset: c.word, words: c.words },
        5 => ResourceLocation::RecordAddress { offset: c.word },
        6 => ResourceLocation::RecordHeap {
            set: c.set,
            binding: c.binding,
            descriptor: descriptor_from(c.descriptor)?,
            table_offset: c.table_word,
            heap_offset: c.heap_offset,
            bounds: c.has_bounds.then_some((c.bounds_set, c.bounds_binding)),
        },
        v => return Err(format!("placement location {v} is not a DxjitLocation value")),
    };
    let counter = match c.counter {
        0 => None,
        1 => Some(CounterLocation::Descriptor { set: c.counter_set, binding: c.counter_binding }),
        2 => Some(CounterLocation::Heap { set: c.counter_set, binding: c.counter_binding }),
        3 => Some(CounterLocation::AddressTable { set: c.counter_set, binding: c.counter_binding }),
        v => return Err(format!("counter {v} is not a DxjitCounter value")),
    };
    Ok(ResourcePlacement { location, counter })
}

pub(crate) fn query_to_c(q: &ResourceQuery) -> DxjitResourceQuery {
    DxjitResourceQuery {
        stage: stage_of(q.stage) as u32,
        class_: class_num(q.class),
        kind: kind_num(q.kind),
        space: q.space,
        register_: q.register,
        count: opt_u32(q.count),
        heap: q.heap,
        has_counter: q.has_counter,
    }
}

/// A C remap callback as a [`ResourceRemap`].
struct CRemap {
    f: unsafe extern "C" fn(*mut c_void, *const DxjitResourceQuery, *const DxjitPlacement, *mut DxjitPlacement) -> bool,
    user: *mut c_void,
}

// SAFETY: the header documents that the callback is called from compiling threads concurrently;
// the user data is the caller's to make thread-safe.
unsafe impl Send for CRemap {}
// SAFETY: as above.
unsafe impl Sync for CRemap {}

impl ResourceRemap for CRemap {
    fn remap(&self, query: &ResourceQuery, proposed: Option<&ResourcePlacement>) -> Result<ResourcePlacement, String> {
        let q = query_to_c(query);
        let prop = proposed.map(placement_to_c);
        let mut out = prop.unwrap_or(DxjitPlacement { table_word: DXJIT_NONE, ..Default::default() });
        let pp = prop.as_ref().map_or(std::ptr::null(), |p| p as *const DxjitPlacement);
        // SAFETY: the pointers are valid for the call; the callback is the caller's.
        let ok = unsafe { (self.f)(self.user, &q, pp, &mut out) };
        if !ok {
            return Err("the callback returned false".into());
        }
        placement_from_c(&out)
    }

    fn cache_key(&self) -> String {
        format!("c-remap {:p} {:p}", self.f as *const c_void, self.user)
    }
}

fn policy_to_c(p: &BindingPolicy) -> DxjitBindingPolicy {
    let arrays = [
        p.heap.uniform_buffer,
        p.heap.storage_buffer,
        p.heap.uniform_texel_buffer,
        p.heap.storage_texel_buffer,
        p.heap.sampled_image,
        p.heap.storage_image,
        p.heap.sampler,
        p.heap.acceleration_structure,
    ];
    let (tables, tables_first_set) = match p.tables {
        TableMode::Heap => (0, 0),
        TableMode::Descriptors { first_set } => (1, first_set),
    };
    let (root_descriptors, root_descriptor_set) = match p.root_descriptors {
        RootDescriptorMode::Address => (0, 0),
        RootDescriptorMode::Descriptors { set } => (1, set),
    };
    let (root_block, root_block_set, root_block_binding) = match p.root_block {
        RootBlock::PushConstants => (0, 0, 0),
        RootBlock::UniformBlock { set, binding } => (1, set, binding),
    };
    DxjitBindingPolicy {
        tables,
        tables_first_set,
        heap_set: arrays.map(|a| a.0),
        heap_binding: arrays.map(|a| a.1),
        has_heap_bounds: p.heap.bounds.is_some(),
        heap_bounds_set: p.heap.bounds.map_or(0, |b| b.0),
        heap_bounds_binding: p.heap.bounds.map_or(0, |b| b.1),
        has_heap_counters: p.heap.counters.is_some(),
        heap_counters_set: p.heap.counters.map_or(0, |b| b.0),
        heap_counters_binding: p.heap.counters.map_or(0, |b| b.1),
        root_descriptors,
        root_descriptor_set,
        root_block,
        root_block_set,
        root_block_binding,
        cbv_as_storage_buffer: p.cbv_as_storage_buffer,
        static_sampler_set: p.static_samplers.0,
        static_sampler_first_binding: p.static_samplers.1,
        record_table_shift: p.record_table_shift,
        record_sampler_table_shift: p.record_sampler_table_shift,
    }
}

fn policy_from_c(c: &DxjitBindingPolicy) -> Result<BindingPolicy, String> {
    let a = |i: usize| (c.heap_set[i], c.heap_binding[i]);
    Ok(BindingPolicy {
        tables: match c.tables {
            0 => TableMode::Heap,
            1 => TableMode::Descriptors { first_set: c.tables_first_set },
            v => return Err(format!("tables {v} is not a DxjitTableMode value")),
        },
        heap: HeapArrays {
            uniform_buffer: a(0),
            storage_buffer: a(1),
            uniform_texel_buffer: a(2),
            storage_texel_buffer: a(3),
            sampled_image: a(4),
            storage_image: a(5),
            sampler: a(6),
            acceleration_structure: a(7),
            bounds: c.has_heap_bounds.then_some((c.heap_bounds_set, c.heap_bounds_binding)),
            counters: c.has_heap_counters.then_some((c.heap_counters_set, c.heap_counters_binding)),
        },
        root_descriptors: match c.root_descriptors {
            0 => RootDescriptorMode::Address,
            1 => RootDescriptorMode::Descriptors { set: c.root_descriptor_set },
            v => return Err(format!("root_descriptors {v} is not a DxjitRootDescriptorMode value")),
        },
        root_block: match c.root_block {
            0 => RootBlock::PushConstants,
            1 => RootBlock::UniformBlock { set: c.root_block_set, binding: c.root_block_binding },
            v => return Err(format!("root_block {v} is not a DxjitRootBlock value")),
        },
        cbv_as_storage_buffer: c.cbv_as_storage_buffer,
        static_samplers: (c.static_sampler_set, c.static_sampler_first_binding),
        record_table_shift: c.record_table_shift,
        record_sampler_table_shift: c.record_sampler_table_shift,
    })
}

fn default_options_c() -> DxjitCompileOptions {
    let d = CompileOptions::default();
    DxjitCompileOptions {
        entry_point: std::ptr::null(),
        spirv_version_major: u32::from(d.spirv_version.0),
        spirv_version_minor: u32::from(d.spirv_version.1),
        robustness: match d.robustness {
            Robustness::Explicit => 0,
            Robustness::DeviceRobustness2 => 1,
        },
        demote_to_helper: d.demote_to_helper,
        fragment_barycentrics: d.fragment_barycentrics,
        hull_patch_constants_all: d.hull_patch_constants == PatchConstantInvocations::All,
        dual_source_blending: d.state.dual_source_blending,
        invariant_position: d.state.invariant_position,
        typed_uav_load_without_format: d.state.typed_uav_load_without_format,
        rasterizer_sample_count: 0,
        output_swizzles: std::ptr::null(),
        output_swizzle_count: 0,
        bindings: std::ptr::null(),
        subgroup_size_min: 0,
        subgroup_size_max: 0,
        native_min_precision: d.state.native_min_precision,
    }
}

/// The Rust options of a (possibly NULL) C options pointer.
///
/// # Safety
/// `o` is NULL or points to a valid `DxjitCompileOptions` whose pointers are valid.
pub(crate) unsafe fn options_from_c(o: *const DxjitCompileOptions) -> Result<CompileOptions, Fail> {
    let mut opts = CompileOptions::default();
    // SAFETY: NULL or valid per the caller.
    let Some(c) = (unsafe { o.as_ref() }) else { return Ok(opts) };
    // SAFETY: per the caller.
    opts.entry_point = unsafe { opt_str(c.entry_point, "options.entry_point") }?.map(str::to_string);
    let v = |x: u32| u8::try_from(x).map_err(|_| format!("SPIR-V version component {x} is out of range"));
    opts.spirv_version = (v(c.spirv_version_major)?, v(c.spirv_version_minor)?);
    opts.robustness = match c.robustness {
        0 => Robustness::Explicit,
        1 => Robustness::DeviceRobustness2,
        r => return Err(format!("options.robustness {r} is not a DxjitRobustness value").into()),
    };
    opts.demote_to_helper = c.demote_to_helper;
    opts.fragment_barycentrics = c.fragment_barycentrics;
    opts.hull_patch_constants =
        if c.hull_patch_constants_all { PatchConstantInvocations::All } else { PatchConstantInvocations::First };
    opts.state.dual_source_blending = c.dual_source_blending;
    opts.state.invariant_position = c.invariant_position;
    opts.state.typed_uav_load_without_format = c.typed_uav_load_without_format;
    opts.state.rasterizer_sample_count = (c.rasterizer_sample_count != 0).then_some(c.rasterizer_sample_count);
    // SAFETY: per the caller.
    let sw = unsafe { slice(c.output_swizzles, c.output_swizzle_count as usize, "options.output_swizzles") }?;
    opts.state.output_swizzle = sw.iter().map(|s| (*s != [0xFF; 4]).then_some(*s)).collect();
    for s in opts.state.output_swizzle.iter().flatten() {
        if s.iter().any(|&c| c > 5) {
            return Err(format!("output swizzle {s:?} has a component above 5").into());
        }
    }
    opts.state.native_min_precision = c.native_min_precision;
    opts.state.subgroup_size = match (c.subgroup_size_min, c.subgroup_size_max) {
        (0, 0) => None,
        (min, max) if min.is_power_of_two() && max.is_power_of_two() && min <= max => {
            Some(SubgroupSizeRange { min, max })
        }
        (min, max) => {
            return Err(format!("options.subgroup_size_min/max {min}, {max}: not powers of two, min <= max").into())
        }
    };
    // SAFETY: NULL or a live layout per the caller.
    if let Some(b) = unsafe { c.bindings.as_ref() } {
        opts.bindings = Some(b.model.clone());
    }
    Ok(opts)
}

fn shader_obj(shader: Arc<CompiledShader>) -> DxjitShader {
    let entry = cstring(&shader.entry_point);
    DxjitShader { shader, entry }
}

fn is_dxbc(c: &Container<'_>) -> bool {
    c.part(b"DXIL").is_none() && c.part(b"ILDB").is_none() && (c.part(b"SHDR").is_some() || c.part(b"SHEX").is_some())
}

/// Whether `data` is a DXBC container with shader-model 4/5 bytecode and no DXIL.
pub(crate) fn container_is_dxbc(data: &[u8]) -> bool {
    Container::parse(data).is_ok_and(|c| is_dxbc(&c))
}

fn parse_blob(data: &[u8]) -> Result<DxjitBlob, Fail> {
    let mal = |m: String| Fail(DxjitResult::DXJIT_ERROR_MALFORMED, m);
    let c = Container::parse(data).map_err(|e| mal(format!("container: {e}")))?;
    if is_dxbc(&c) {
        return Err(Fail(
            DxjitResult::DXJIT_ERROR_DXBC,
            "container: DXBC shader-model 4/5 bytecode (SHDR/SHEX part, no DXIL part); dxjit translates DXIL only"
                .into(),
        ));
    }
    let prog = c.dxil_program().map_err(|e| mal(format!("container: {e}")))?;
    let module = dxjit::bitcode::read_module(prog.bitcode).map_err(|e| mal(format!("bitcode: {e}")))?;
    let info = dxjit::dxil::decode(&module).map_err(|e| mal(format!("metadata: {e}")))?;
    let root_signature = c.root_signature().map_err(|e| mal(format!("root signature: {e}")))?;
    let rdat = c.runtime_data().map_err(|e| mal(format!("runtime data: {e}")))?;
    let subobjects = rdat.map_or_else(Vec::new, |r| r.subobjects.into_iter().map(OwnedSubobject::new).collect());
    let entry_names = info.functions().map(|e| cstring(&e.name)).collect();
    let export_names = info.functions().map(|e| cstring(export_name(&e.name))).collect();
    let mut names = Vec::new();
    let mut signatures: [Vec<(SignatureElement, usize)>; 3] = Default::default();
    if let Some(ep) = info.main_entry() {
        for (k, list) in [&ep.inputs, &ep.outputs, &ep.patch_constants].into_iter().enumerate() {
            for e in list {
                names.push(cstring(&e.semantic_name));
                signatures[k].push((e.clone(), names.len() - 1));
            }
        }
    }
    let mut resources = Vec::new();
    // A library's exports share its resources (`!dx.resources`).
    let res = match info.main_entry().and_then(|e| e.resources.as_ref()) {
        Some(r) if info.shader_model.kind != ShaderKind::Library => r,
        _ => &info.resources,
    };
    let mut push = |class: u32, kind: u32, b: &dxjit::dxil::Binding, stride: u32, cbv: u32, counter: bool| {
        names.push(cstring(&b.name));
        resources.push(DxjitResourceInfo {
            class_: class,
            kind,
            id: b.id,
            space: b.space,
            lower_bound: b.lower_bound,
            count: opt_u32(b.range_size),
            stride,
            cbv_size: cbv,
            has_counter: counter,
            name: names.last().map_or(std::ptr::null(), |n| n.as_ptr()),
        });
    };
    for s in &res.srvs {
        push(0, s.kind.to_u32(), &s.binding, s.props.stride.unwrap_or(0), 0, false);
    }
    for u in &res.uavs {
        push(1, u.kind.to_u32(), &u.binding, u.props.stride.unwrap_or(0), 0, u.has_counter);
    }
    for b in &res.cbvs {
        push(2, 13, &b.binding, 0, b.size_in_bytes, false);
    }
    for s in &res.samplers {
        push(3, 14, &s.binding, 0, 0, false);
    }
    Ok(DxjitBlob {
        bytes: data.to_vec(),
        info,
        root_signature,
        entry_names,
        names,
        signatures,
        resources,
        export_names,
        subobjects,
    })
}

impl DxjitBlob {
    pub(crate) fn info(&self) -> &DxilModuleInfo {
        &self.info
    }
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    pub(crate) fn resources(&self) -> &[DxjitResourceInfo] {
        &self.resources
    }
    pub(crate) fn entry_name(&self, i: usize) -> Option<&CString> {
        self.entry_names.get(i)
    }
    pub(crate) fn subobjects(&self) -> &[OwnedSubobject] {
        &self.subobjects
    }
    pub(crate) fn parse(data: &[u8]) -> Result<DxjitBlob, Fail> {
        parse_blob(data)
    }
}

// ---------------------------------------------------------------------------------------------
// Version and errors

/// Writes the API version (any pointer may be NULL). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_version(major: *mut u32, minor: *mut u32, patch: *mut u32) {
    for (p, v) in [(major, DXJIT_VERSION_MAJOR), (minor, DXJIT_VERSION_MINOR), (patch, DXJIT_VERSION_PATCH)] {
        if !p.is_null() {
            // SAFETY: non-NULL, valid per the caller.
            unsafe { p.write(v) };
        }
    }
}

/// The message of this thread's last failing call (empty if none). Valid until the thread's
/// next failing call. Thread safety: per thread (each thread has its own message).
#[no_mangle]
pub extern "C" fn dxjit_last_error() -> *const c_char {
    ffi::last_error_ptr()
}

// ---------------------------------------------------------------------------------------------
// Parse and reflection

/// Parses a DXBC container holding a DXIL shader (the bytes are copied). DXBC shader-model 4/5
/// bytecode gives `DXJIT_ERROR_DXBC`; a broken container `DXJIT_ERROR_MALFORMED`.
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_parse(data: *const u8, size: usize, out: *mut *mut DxjitBlob) -> DxjitResult {
    run(|| {
        if out.is_null() {
            return Err("out is NULL".to_string().into());
        }
        // SAFETY: per the caller.
        let b = parse_blob(unsafe { bytes(data, size, "data") }?)?;
        // SAFETY: checked non-NULL above.
        unsafe { put(out, Box::into_raw(Box::new(b)), "out") }
    })
}

/// Frees a blob (NULL is ignored). Thread safety: not while another thread uses the blob.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_free(blob: *mut DxjitBlob) {
    if !blob.is_null() {
        // SAFETY: created by dxjit_blob_parse, freed once per the caller.
        let _ = catch(|| drop(unsafe { Box::from_raw(blob) }));
    }
}

/// The shader stage of a blob (`DXJIT_STAGE_INVALID` for NULL). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_stage(blob: *const DxjitBlob) -> DxjitStage {
    // SAFETY: NULL or live per the caller.
    match unsafe { blob.as_ref() } {
        Some(b) => stage_of(b.info.shader_model.kind),
        None => DxjitStage::DXJIT_STAGE_INVALID,
    }
}

/// The shader model (e.g. 6, 5 for SM 6.5). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_shader_model(
    blob: *const DxjitBlob,
    major: *mut u32,
    minor: *mut u32,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        // SAFETY: per the caller.
        unsafe {
            put(major, b.info.shader_model.major, "major")?;
            put(minor, b.info.shader_model.minor, "minor")
        }
    })
}

/// Number of entry points (library exports for DXIL libraries). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_entry_point_count(blob: *const DxjitBlob, count: *mut u32) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        // SAFETY: per the caller.
        unsafe { put(count, b.entry_names.len() as u32, "count") }
    })
}

/// Name of entry point `index` (owned by the blob). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_entry_point_name(
    blob: *const DxjitBlob,
    index: u32,
    name: *mut *const c_char,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        let n =
            b.entry_names.get(index as usize).ok_or_else(|| index_fail("entry point", index, b.entry_names.len()))?;
        // SAFETY: per the caller.
        unsafe { put(name, n.as_ptr(), "name") }
    })
}

/// Plain export name of entry point `index` (libraries: what state objects name it, the
/// mangled name up to its first `@`; other shaders: the entry point's name), owned by the blob.
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_entry_point_export_name(
    blob: *const DxjitBlob,
    index: u32,
    name: *mut *const c_char,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        let n =
            b.export_names.get(index as usize).ok_or_else(|| index_fail("entry point", index, b.export_names.len()))?;
        // SAFETY: per the caller.
        unsafe { put(name, n.as_ptr(), "name") }
    })
}

/// Stage of entry point `index` (library exports: the export's shader kind; work-graph nodes
/// are `DXJIT_STAGE_NODE`, which dxjit does not compile). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_entry_point_stage(
    blob: *const DxjitBlob,
    index: u32,
    stage: *mut DxjitStage,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        let n = b.entry_names.len();
        let e = b.info.functions().nth(index as usize).ok_or_else(|| index_fail("entry point", index, n))?;
        let kind = e.properties.shader_kind.unwrap_or(b.info.shader_model.kind);
        // SAFETY: per the caller.
        unsafe { put(stage, stage_of(kind), "stage") }
    })
}

/// Number of RDAT state subobjects (DXIL libraries; 0 for other shaders). Thread safety: any
/// thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_subobject_count(blob: *const DxjitBlob, count: *mut u32) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        // SAFETY: per the caller.
        unsafe { put(count, b.subobjects.len() as u32, "count") }
    })
}

/// RDAT state subobject `index` (its pointers are owned by the blob). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_subobject(
    blob: *const DxjitBlob,
    index: u32,
    subobject: *mut DxjitSubobject,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        let o = b.subobjects.get(index as usize).ok_or_else(|| index_fail("subobject", index, b.subobjects.len()))?;
        // SAFETY: per the caller.
        unsafe { put(subobject, o.to_c(), "subobject") }
    })
}

/// Number of elements of a signature (`sig`: a `DxjitSignature` value). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_signature_count(blob: *const DxjitBlob, sig: u32, count: *mut u32) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        let s = b.signatures.get(sig as usize).ok_or_else(|| format!("signature {sig} is not a DxjitSignature"))?;
        // SAFETY: per the caller.
        unsafe { put(count, s.len() as u32, "count") }
    })
}

/// Element `index` of a signature. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_signature_element(
    blob: *const DxjitBlob,
    sig: u32,
    index: u32,
    element: *mut DxjitSignatureElement,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        let s = b.signatures.get(sig as usize).ok_or_else(|| format!("signature {sig} is not a DxjitSignature"))?;
        let (e, name) = s.get(index as usize).ok_or_else(|| index_fail("signature element", index, s.len()))?;
        let c = DxjitSignatureElement {
            semantic_name: b.names.get(*name).map_or(std::ptr::null(), |n| n.as_ptr()),
            semantic_index: e.semantic_indices.first().copied().unwrap_or(0),
            semantic_kind: e.semantic_kind.to_u32(),
            component_type: e.component_type.to_u32(),
            interpolation: e.interpolation.to_u32(),
            rows: e.rows,
            cols: u32::from(e.cols),
            start_row: e.start_row,
            start_col: i32::from(e.start_col),
            stream: e.output_stream.unwrap_or(0),
            id: e.id,
        };
        // SAFETY: per the caller.
        unsafe { put(element, c, "element") }
    })
}

/// Number of resource ranges the shader declares. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_resource_count(blob: *const DxjitBlob, count: *mut u32) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        // SAFETY: per the caller.
        unsafe { put(count, b.resources.len() as u32, "count") }
    })
}

/// Resource range `index` (SRVs, then UAVs, CBVs, samplers). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_resource(
    blob: *const DxjitBlob,
    index: u32,
    resource: *mut DxjitResourceInfo,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        let r = b.resources.get(index as usize).ok_or_else(|| index_fail("resource", index, b.resources.len()))?;
        // SAFETY: per the caller.
        unsafe { put(resource, *r, "resource") }
    })
}

/// The blob's embedded root signature (RTS0 part): whether there is one, its parameter and
/// static-sampler counts and its flags (all 0 without one). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_root_signature(
    blob: *const DxjitBlob,
    has_root_signature: *mut bool,
    parameter_count: *mut u32,
    static_sampler_count: *mut u32,
    flags: *mut u32,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        let rs = b.root_signature.as_ref();
        // SAFETY: per the caller.
        unsafe {
            put(has_root_signature, rs.is_some(), "has_root_signature")?;
            put(parameter_count, rs.map_or(0, |r| r.parameters.len() as u32), "parameter_count")?;
            put(static_sampler_count, rs.map_or(0, |r| r.static_samplers.len() as u32), "static_sampler_count")?;
            put(flags, rs.map_or(0, |r| r.flags), "flags")
        }
    })
}

fn visibility_num(v: ShaderVisibility) -> u32 {
    match v {
        ShaderVisibility::All => 0,
        ShaderVisibility::Vertex => 1,
        ShaderVisibility::Hull => 2,
        ShaderVisibility::Domain => 3,
        ShaderVisibility::Geometry => 4,
        ShaderVisibility::Pixel => 5,
        ShaderVisibility::Amplification => 6,
        ShaderVisibility::Mesh => 7,
        ShaderVisibility::Other(o) => o,
    }
}

fn root_sig(b: &DxjitBlob) -> Result<&RootSignature, Fail> {
    b.root_signature.as_ref().ok_or_else(|| "the blob has no root signature (RTS0 part)".to_string().into())
}

/// Root parameter `index` of the blob's root signature. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_root_parameter(
    blob: *const DxjitBlob,
    index: u32,
    parameter: *mut DxjitRootParameter,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let rs = root_sig(unsafe { obj(blob, "blob") }?)?;
        let p = rs
            .parameters
            .get(index as usize)
            .ok_or_else(|| index_fail("root parameter", index, rs.parameters.len()))?;
        let mut c = DxjitRootParameter {
            kind: 0,
            visibility: visibility_num(p.visibility),
            shader_register: 0,
            register_space: 0,
            num_32bit_values: 0,
            range_count: 0,
        };
        match &p.kind {
            RootParameterKind::DescriptorTable(r) => c.range_count = r.len() as u32,
            RootParameterKind::Constants { shader_register, register_space, num_32bit_values } => {
                c.kind = 1;
                c.shader_register = *shader_register;
                c.register_space = *register_space;
                c.num_32bit_values = *num_32bit_values;
            }
            RootParameterKind::Cbv(d) | RootParameterKind::Srv(d) | RootParameterKind::Uav(d) => {
                c.kind = match &p.kind {
                    RootParameterKind::Cbv(_) => 2,
                    RootParameterKind::Srv(_) => 3,
                    _ => 4,
                };
                c.shader_register = d.shader_register;
                c.register_space = d.register_space;
            }
        }
        // SAFETY: per the caller.
        unsafe { put(parameter, c, "parameter") }
    })
}

/// Range `range` of descriptor-table parameter `index`. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_root_range(
    blob: *const DxjitBlob,
    index: u32,
    range: u32,
    out: *mut DxjitDescriptorRange,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let rs = root_sig(unsafe { obj(blob, "blob") }?)?;
        let p = rs
            .parameters
            .get(index as usize)
            .ok_or_else(|| index_fail("root parameter", index, rs.parameters.len()))?;
        let RootParameterKind::DescriptorTable(ranges) = &p.kind else {
            return Err(format!("root parameter {index} is not a descriptor table").into());
        };
        let r = ranges.get(range as usize).ok_or_else(|| index_fail("descriptor range", range, ranges.len()))?;
        let c = DxjitDescriptorRange {
            class_: match r.range_type {
                DescriptorRangeType::Srv => 0,
                DescriptorRangeType::Uav => 1,
                DescriptorRangeType::Cbv => 2,
                DescriptorRangeType::Sampler => 3,
                DescriptorRangeType::Other(o) => o,
            },
            num_descriptors: r.num_descriptors,
            base_shader_register: r.base_shader_register,
            register_space: r.register_space,
            offset_in_descriptors_from_table_start: r.offset_in_descriptors_from_table_start,
        };
        // SAFETY: per the caller.
        unsafe { put(out, c, "out") }
    })
}

/// The tessellation state a hull shader declares (`DXJIT_ERROR_INVALID_ARGUMENT` for other
/// stages). `patch_constant_location_offset` is where dxjit's single-stage plan puts the first
/// patch constant. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_blob_tessellation(
    blob: *const DxjitBlob,
    state: *mut DxjitTessellationState,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let b = unsafe { obj(blob, "blob") }?;
        let hs = b
            .info
            .main_entry()
            .and_then(|e| e.properties.hs.as_ref())
            .ok_or_else(|| "not a hull shader".to_string())?;
        let outputs = b.signatures[1].iter().filter(|(e, _)| e.start_row >= 0);
        let end = outputs.map(|(e, _)| e.start_row as u32 + e.rows).max().unwrap_or(0);
        let c = DxjitTessellationState {
            input_control_points: hs.input_control_points,
            output_control_points: hs.output_control_points,
            domain: hs.domain.to_u32(),
            partitioning: hs.partitioning.to_u32(),
            output_primitive: hs.output_primitive.to_u32(),
            max_tess_factor: hs.max_tess_factor,
            patch_constant_location_offset: end,
        };
        // SAFETY: per the caller.
        unsafe { put(state, c, "state") }
    })
}

// ---------------------------------------------------------------------------------------------
// Binding layouts

/// Fills dxjit's default binding policy (tables in per-type heap arrays in sets 0 and 1, root
/// descriptors as buffer addresses, root block in push constants, static samplers in set 2).
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_binding_policy_default(policy: *mut DxjitBindingPolicy) -> DxjitResult {
    // SAFETY: per the caller.
    run(|| unsafe { put(policy, policy_to_c(&BindingPolicy::default()), "policy") })
}

/// Creates a binding layout: no root signature, the default policy, no callback.
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_binding_layout_create(out: *mut *mut DxjitBindingLayout) -> DxjitResult {
    run(|| {
        let model = BindingModel {
            root_signature: None,
            policy: BindingPolicy::default(),
            remap: None,
            root_words: None,
            local_root_signature: dxjit::binding::LocalRoot::FromLibrary,
        };
        let l = Box::into_raw(Box::new(DxjitBindingLayout { model: Arc::new(model) }));
        // SAFETY: per the caller.
        unsafe { put(out, l, "out") }.inspect_err(|_| {
            // SAFETY: just created, never shared.
            drop(unsafe { Box::from_raw(l) })
        })
    })
}

/// Frees a binding layout (NULL is ignored). Compiles already started keep their own reference.
/// Thread safety: not while another thread uses the layout.
#[no_mangle]
pub unsafe extern "C" fn dxjit_binding_layout_free(layout: *mut DxjitBindingLayout) {
    if !layout.is_null() {
        // SAFETY: created by dxjit_binding_layout_create, freed once per the caller.
        let _ = catch(|| drop(unsafe { Box::from_raw(layout) }));
    }
}

/// Sets the root signature from a serialized root signature or any container with an RTS0 part.
/// Thread safety: the setters must not run concurrently with compiles using the layout.
#[no_mangle]
pub unsafe extern "C" fn dxjit_binding_layout_set_root_signature(
    layout: *mut DxjitBindingLayout,
    data: *const u8,
    size: usize,
) -> DxjitResult {
    run(|| {
        // SAFETY: NULL or live per the caller.
        let l = unsafe { layout.as_mut() }.ok_or_else(|| "layout is NULL".to_string())?;
        // SAFETY: per the caller.
        let data = unsafe { bytes(data, size, "data") }?;
        let mal = |m: String| Fail(DxjitResult::DXJIT_ERROR_MALFORMED, m);
        let c = Container::parse(data).map_err(|e| mal(format!("container: {e}")))?;
        let rs = c.root_signature().map_err(|e| mal(format!("root signature: {e}")))?;
        let rs = rs.ok_or_else(|| mal("container: no RTS0 (root signature) part".into()))?;
        Arc::make_mut(&mut l.model).root_signature = Some(rs);
        Ok(())
    })
}

/// Sets the policy. Thread safety: as `dxjit_binding_layout_set_root_signature`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_binding_layout_set_policy(
    layout: *mut DxjitBindingLayout,
    policy: *const DxjitBindingPolicy,
) -> DxjitResult {
    run(|| {
        // SAFETY: NULL or live per the caller.
        let l = unsafe { layout.as_mut() }.ok_or_else(|| "layout is NULL".to_string())?;
        // SAFETY: per the caller.
        let p = policy_from_c(unsafe { obj(policy, "policy") }?)?;
        Arc::make_mut(&mut l.model).policy = p;
        Ok(())
    })
}

/// Sets the remap callback (NULL `remap`: none). The callback and `user_data` must stay valid
/// while compiles use the layout. Thread safety: as `dxjit_binding_layout_set_root_signature`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_binding_layout_set_remap(
    layout: *mut DxjitBindingLayout,
    remap: DxjitRemapFn,
    user_data: *mut c_void,
) -> DxjitResult {
    run(|| {
        // SAFETY: NULL or live per the caller.
        let l = unsafe { layout.as_mut() }.ok_or_else(|| "layout is NULL".to_string())?;
        Arc::make_mut(&mut l.model).remap =
            remap.map(|f| Arc::new(CRemap { f, user: user_data }) as Arc<dyn ResourceRemap>);
        Ok(())
    })
}

/// Ray-tracing exports: which local root signature (`mode`: a `DxjitLocalRoot` value). With
/// `DXJIT_LOCAL_ROOT_GIVEN`, `data`/`size` hold it: a serialized root signature (RTS0 layout, as
/// a library's local-root-signature subobject carries it) or a container with an RTS0 part;
/// otherwise they are ignored. Its parameters are read from the shader record
/// (`dxjit_shader_record_layout`). Thread safety: as `dxjit_binding_layout_set_root_signature`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_binding_layout_set_local_root_signature(
    layout: *mut DxjitBindingLayout,
    mode: u32,
    data: *const u8,
    size: usize,
) -> DxjitResult {
    run(|| {
        // SAFETY: NULL or live per the caller.
        let l = unsafe { layout.as_mut() }.ok_or_else(|| "layout is NULL".to_string())?;
        let local = match mode {
            0 => LocalRoot::FromLibrary,
            2 => LocalRoot::None,
            1 => {
                // SAFETY: per the caller.
                let data = unsafe { bytes(data, size, "data") }?;
                let mal = |m: String| Fail(DxjitResult::DXJIT_ERROR_MALFORMED, m);
                let rs = if data.starts_with(b"DXBC") {
                    let c = Container::parse(data).map_err(|e| mal(format!("container: {e}")))?;
                    let rs = c.root_signature().map_err(|e| mal(format!("root signature: {e}")))?;
                    rs.ok_or_else(|| mal("container: no RTS0 (root signature) part".into()))?
                } else {
                    RootSignature::parse(data).map_err(|e| mal(format!("local root signature: {e}")))?
                };
                LocalRoot::Given(rs)
            }
            m => return Err(format!("mode {m} is not a DxjitLocalRoot value").into()),
        };
        Arc::make_mut(&mut l.model).local_root_signature = local;
        Ok(())
    })
}

/// Without a root signature: the root block's size in 32-bit words (`DXJIT_NONE`: unset).
/// Thread safety: as `dxjit_binding_layout_set_root_signature`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_binding_layout_set_root_words(
    layout: *mut DxjitBindingLayout,
    words: u32,
) -> DxjitResult {
    run(|| {
        // SAFETY: NULL or live per the caller.
        let l = unsafe { layout.as_mut() }.ok_or_else(|| "layout is NULL".to_string())?;
        Arc::make_mut(&mut l.model).root_words = (words != DXJIT_NONE).then_some(words);
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------------
// Compile

/// Fills the default compile options (SPIR-V 1.3, explicit bounds checks, demote to helper).
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_compile_options_default(options: *mut DxjitCompileOptions) -> DxjitResult {
    // SAFETY: per the caller.
    run(|| unsafe { put(options, default_options_c(), "options") })
}

/// Compiles one shader (a DXBC container holding DXIL) to SPIR-V; graphics stages get dxjit's
/// single-stage interface (every signature element at Location = its register row).
/// `options` may be NULL (defaults). Thread safety: any thread; compiles run concurrently.
#[no_mangle]
pub unsafe extern "C" fn dxjit_compile(
    data: *const u8,
    size: usize,
    options: *const DxjitCompileOptions,
    out: *mut *mut DxjitShader,
) -> DxjitResult {
    run(|| {
        if out.is_null() {
            return Err("out is NULL".to_string().into());
        }
        // SAFETY: per the caller.
        let data = unsafe { bytes(data, size, "data") }?;
        // SAFETY: per the caller.
        let opts = unsafe { options_from_c(options) }?;
        let r = dxjit::compile(data, &opts);
        let shader = r.map_err(|e| dxbc_or(data, compile_fail(&e)))?;
        // SAFETY: checked non-NULL above.
        unsafe { put(out, Box::into_raw(Box::new(shader_obj(Arc::new(shader)))), "out") }
    })
}

/// Turns a malformed-container failure on DXBC bytes into the distinct DXBC result.
pub(crate) fn dxbc_or(data: &[u8], f: Fail) -> Fail {
    if f.0 == DxjitResult::DXJIT_ERROR_MALFORMED && container_is_dxbc(data) {
        Fail(DxjitResult::DXJIT_ERROR_DXBC, "DXBC shader-model 4/5 bytecode: dxjit translates DXIL only".into())
    } else {
        f
    }
}

/// Frees a compiled shader (NULL is ignored). Thread safety: not while another thread uses it.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_free(shader: *mut DxjitShader) {
    if !shader.is_null() {
        // SAFETY: created by this library, freed once per the caller.
        let _ = catch(|| drop(unsafe { Box::from_raw(shader) }));
    }
}

/// The SPIR-V module: `*words` points to `*word_count` words owned by the shader.
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_spirv(
    shader: *const DxjitShader,
    words: *mut *const u32,
    word_count: *mut usize,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        // SAFETY: per the caller.
        unsafe {
            put(words, s.shader.spirv.as_ptr(), "words")?;
            put(word_count, s.shader.spirv.len(), "word_count")
        }
    })
}

/// The SPIR-V entry point name (owned by the shader; NULL for a NULL shader).
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_entry_point(shader: *const DxjitShader) -> *const c_char {
    // SAFETY: NULL or live per the caller.
    unsafe { shader.as_ref() }.map_or(std::ptr::null(), |s| s.entry.as_ptr())
}

/// The shader's stage (`DXJIT_STAGE_INVALID` for NULL). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_stage(shader: *const DxjitShader) -> DxjitStage {
    // SAFETY: NULL or live per the caller.
    unsafe { shader.as_ref() }.map_or(DxjitStage::DXJIT_STAGE_INVALID, |s| stage_of(s.shader.stage))
}

/// Compute (and mesh/amplification) thread-group size; zeros for graphics stages.
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_workgroup_size(shader: *const DxjitShader, size: *mut [u32; 3]) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        // SAFETY: per the caller.
        unsafe { put(size, s.shader.workgroup_size, "size") }
    })
}

/// The subgroup size the pipeline must run the stage with
/// (`VkPipelineShaderStageRequiredSubgroupSizeCreateInfo::requiredSubgroupSize`; 0: any): the size
/// chosen for the shader's `[WaveSize]` within the options' subgroup sizes, which
/// `WaveGetLaneCount` then returns as a constant.
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_required_subgroup_size(
    shader: *const DxjitShader,
    size: *mut u32,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        // SAFETY: per the caller.
        unsafe { put(size, s.shader.required_subgroup_size.unwrap_or(0), "size") }
    })
}

/// Size in bytes of the push-constant range the shader uses at offset 0 (0: none).
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_push_constant_size(shader: *const DxjitShader, size: *mut u32) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        let n = s.shader.push_constants.map_or(0, |p| p.size);
        // SAFETY: per the caller.
        unsafe { put(size, n, "size") }
    })
}

/// Under a binding layout: the root block's size in words and number of entries.
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_push_layout(
    shader: *const DxjitShader,
    words: *mut u32,
    entry_count: *mut u32,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        let l = s.shader.push_layout.as_ref();
        // SAFETY: per the caller.
        unsafe {
            put(words, l.map_or(0, |l| l.words), "words")?;
            put(entry_count, l.map_or(0, |l| l.entries.len() as u32), "entry_count")
        }
    })
}

/// Root-block entry `index`. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_push_entry(
    shader: *const DxjitShader,
    index: u32,
    entry: *mut DxjitPushEntry,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        let entries = s.shader.push_layout.as_ref().map_or(&[][..], |l| &l.entries[..]);
        let e = entries.get(index as usize).ok_or_else(|| index_fail("push entry", index, entries.len()))?;
        let (kind, class_, space, register_, sampler_heap) = push_kind_to_c(e.kind);
        let c = DxjitPushEntry {
            kind,
            parameter: e.parameter,
            word: e.word,
            words: e.words,
            class_,
            space,
            register_,
            sampler_heap,
        };
        // SAFETY: per the caller.
        unsafe { put(entry, c, "entry") }
    })
}

/// (kind, class, space, register, sampler_heap) of a root-block or shader-record entry.
fn push_kind_to_c(k: PushEntryKind) -> (u32, u32, u32, u32, bool) {
    match k {
        PushEntryKind::RootDescriptor { class, space, register } => (0, class_num(class), space, register, false),
        PushEntryKind::RootConstants { space, register } => (1, 2, space, register, false),
        PushEntryKind::TableOffset { sampler_heap } => (2, 0, 0, 0, sampler_heap),
    }
}

/// Ray-tracing exports compiled with a local root signature: whether the shader has a shader
/// record, its local root arguments' size in bytes (after the shader identifier) and entry count
/// (`has_record` false: 0, 0). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_record_layout(
    shader: *const DxjitShader,
    has_record: *mut bool,
    size: *mut u32,
    entry_count: *mut u32,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        let r = s.shader.shader_record.as_ref();
        // SAFETY: per the caller.
        unsafe {
            put(has_record, r.is_some(), "has_record")?;
            put(size, r.map_or(0, |r| r.size), "size")?;
            put(entry_count, r.map_or(0, |r| r.entries.len() as u32), "entry_count")
        }
    })
}

/// Shader-record entry `index` (one per local root parameter, in parameter order).
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_record_entry(
    shader: *const DxjitShader,
    index: u32,
    entry: *mut DxjitRecordEntry,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        let entries = s.shader.shader_record.as_ref().map_or(&[][..], |r| &r.entries[..]);
        let e = entries.get(index as usize).ok_or_else(|| index_fail("shader-record entry", index, entries.len()))?;
        let (kind, class_, space, register_, sampler_heap) = push_kind_to_c(e.kind);
        let c = DxjitRecordEntry {
            kind,
            parameter: e.parameter,
            offset: e.offset,
            size: e.size,
            class_,
            space,
            register_,
            sampler_heap,
        };
        // SAFETY: per the caller.
        unsafe { put(entry, c, "entry") }
    })
}

/// Under a binding layout: number of placed resource ranges. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_placement_count(shader: *const DxjitShader, count: *mut u32) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        // SAFETY: per the caller.
        unsafe { put(count, s.shader.placements.len() as u32, "count") }
    })
}

/// Placed resource range `index`: what was asked and where it went. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_placement(
    shader: *const DxjitShader,
    index: u32,
    query: *mut DxjitResourceQuery,
    placement: *mut DxjitPlacement,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        let p = &s.shader.placements;
        let r = p.get(index as usize).ok_or_else(|| index_fail("placement", index, p.len()))?;
        // SAFETY: per the caller.
        unsafe {
            put(query, query_to_c(&r.query), "query")?;
            put(placement, placement_to_c(&r.placement), "placement")
        }
    })
}

/// Without a binding layout: number of Vulkan bindings the shader uses. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_binding_count(shader: *const DxjitShader, count: *mut u32) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        // SAFETY: per the caller.
        unsafe { put(count, s.shader.bindings.len() as u32, "count") }
    })
}

/// Vulkan binding `index`. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_binding(
    shader: *const DxjitShader,
    index: u32,
    binding: *mut DxjitBinding,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let s = unsafe { obj(shader, "shader") }?;
        let b = &s.shader.bindings;
        let r = b.get(index as usize).ok_or_else(|| index_fail("binding", index, b.len()))?;
        let c = DxjitBinding {
            class_: class_num(r.class),
            space: r.space,
            lower_bound: r.lower_bound,
            count: opt_u32(r.count),
            set: r.set,
            binding: r.binding,
            descriptor: descriptor_num(r.descriptor),
            has_counter: r.has_counter,
            counter_set: r.counter_binding.map_or(0, |c| c.0),
            counter_binding: r.counter_binding.map_or(0, |c| c.1),
        };
        // SAFETY: per the caller.
        unsafe { put(binding, c, "binding") }
    })
}

// ---------------------------------------------------------------------------------------------
// Pipelines

/// # Safety
/// `l` is NULL or valid with valid pointers.
unsafe fn link_from_c(l: *const DxjitLinkOptions) -> Result<LinkOptions, Fail> {
    let mut o = LinkOptions::default();
    // SAFETY: per the caller.
    let Some(c) = (unsafe { l.as_ref() }) else { return Ok(o) };
    // SAFETY: per the caller.
    let elems = unsafe { slice(c.input_elements, c.input_element_count as usize, "input_elements") }?;
    if !elems.is_empty() {
        let mut v = Vec::with_capacity(elems.len());
        for e in elems {
            // SAFETY: per the caller.
            let sem =
                unsafe { opt_str(e.semantic, "input element semantic") }?.ok_or("input element semantic is NULL")?;
            // SAFETY: per the caller.
            let fmt = unsafe { opt_str(e.format, "input element format") }?.ok_or("input element format is NULL")?;
            v.push(InputElement {
                semantic: sem.into(),
                index: e.index,
                format: fmt.into(),
                slot: e.slot,
                offset: (e.offset != DXJIT_NONE).then_some(e.offset),
                per_instance: e.per_instance,
                step_rate: e.step_rate,
            });
        }
        o.input_layout = Some(InputLayout { elements: v });
    }
    o.rasterized_stream = u32::try_from(c.rasterized_stream).ok();
    // SAFETY: per the caller.
    let so = unsafe { slice(c.so_declarations, c.so_declaration_count as usize, "so_declarations") }?;
    // SAFETY: per the caller.
    let strides = unsafe { slice(c.so_strides, c.so_stride_count as usize, "so_strides") }?;
    if !so.is_empty() {
        let mut entries = Vec::with_capacity(so.len());
        for d in so {
            entries.push(SoDeclaration {
                stream: d.stream,
                // SAFETY: per the caller.
                semantic_name: unsafe { opt_str(d.semantic, "SO semantic") }?.unwrap_or("").into(),
                semantic_index: d.semantic_index,
                start_component: d.start_component,
                component_count: d.component_count,
                output_slot: d.output_slot,
            });
        }
        o.stream_output = Some(StreamOutputDesc { entries, strides: strides.to_vec() });
    }
    Ok(o)
}

/// Links the shaders of one graphics pipeline (VS [HS DS] [GS] [PS], any order) as D3D12 does at
/// PSO creation and compiles each stage. `link` may be NULL. A rejected pipeline gives
/// `DXJIT_ERROR_PIPELINE_REJECTED` naming the D3D12 rule. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_compile_pipeline(
    stages: *const DxjitShaderBytes,
    stage_count: u32,
    link: *const DxjitLinkOptions,
    options: *const DxjitCompileOptions,
    out: *mut *mut DxjitPipeline,
) -> DxjitResult {
    run(|| {
        if out.is_null() {
            return Err("out is NULL".to_string().into());
        }
        if stage_count == 0 {
            return Err("stage_count is 0".to_string().into());
        }
        // SAFETY: per the caller.
        let st = unsafe { slice(stages, stage_count as usize, "stages") }?;
        let mut views = Vec::with_capacity(st.len());
        for (k, s) in st.iter().enumerate() {
            // SAFETY: per the caller.
            views.push(unsafe { bytes(s.data, s.size, &format!("stages[{k}]")) }?);
        }
        // SAFETY: per the caller.
        let lo = unsafe { link_from_c(link) }?;
        // SAFETY: per the caller.
        let opts = unsafe { options_from_c(options) }?;
        let p = dxjit::compile_pipeline(&views, &lo, &opts).map_err(|e| match e {
            dxjit::PipelineError::Link(l) => Fail(DxjitResult::DXJIT_ERROR_PIPELINE_REJECTED, format!("link: {l}")),
            dxjit::PipelineError::Compile { stage, error } => {
                let f = dxbc_or(views[stage.min(views.len() - 1)], compile_fail(&error));
                Fail(f.0, format!("shader {stage}: {}", f.1))
            }
        })?;
        let tessellation = p.plan.tessellation.as_ref().map(|t| DxjitTessellationState {
            input_control_points: t.input_control_points,
            output_control_points: t.output_control_points,
            domain: t.domain.to_u32(),
            partitioning: t.partitioning.to_u32(),
            output_primitive: t.output_primitive.to_u32(),
            max_tess_factor: t.max_tess_factor,
            patch_constant_location_offset: t.patch_constant_location_offset,
        });
        let shaders = p.shaders.into_iter().map(|s| shader_obj(Arc::new(s))).collect();
        // SAFETY: checked non-NULL above.
        unsafe { put(out, Box::into_raw(Box::new(DxjitPipeline { shaders, tessellation })), "out") }
    })
}

/// Frees a pipeline and its shaders (NULL is ignored). Thread safety: not while in use.
#[no_mangle]
pub unsafe extern "C" fn dxjit_pipeline_free(pipeline: *mut DxjitPipeline) {
    if !pipeline.is_null() {
        // SAFETY: created by dxjit_compile_pipeline, freed once per the caller.
        let _ = catch(|| drop(unsafe { Box::from_raw(pipeline) }));
    }
}

/// Number of compiled stages, in pipeline order. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_pipeline_stage_count(pipeline: *const DxjitPipeline) -> u32 {
    // SAFETY: NULL or live per the caller.
    unsafe { pipeline.as_ref() }.map_or(0, |p| p.shaders.len() as u32)
}

/// Stage `index` (owned by the pipeline; NULL when out of range). Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_pipeline_stage(pipeline: *const DxjitPipeline, index: u32) -> *const DxjitShader {
    // SAFETY: NULL or live per the caller.
    unsafe { pipeline.as_ref() }
        .and_then(|p| p.shaders.get(index as usize))
        .map_or(std::ptr::null(), |s| s as *const DxjitShader)
}

/// The pipeline's tessellation state; `*has_tessellation` false without hull/domain shaders.
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_pipeline_tessellation(
    pipeline: *const DxjitPipeline,
    has_tessellation: *mut bool,
    state: *mut DxjitTessellationState,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let p = unsafe { obj(pipeline, "pipeline") }?;
        // SAFETY: per the caller.
        unsafe { put(has_tessellation, p.tessellation.is_some(), "has_tessellation") }?;
        if let Some(t) = p.tessellation {
            // SAFETY: per the caller.
            unsafe { put(state, t, "state") }?;
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------------
// Compile cache

/// Creates a compile cache of about `capacity` shaders in memory, backed by directory `dir`
/// (created if missing) unless `dir` is NULL. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_cache_create(
    capacity: usize,
    dir: *const c_char,
    out: *mut *mut DxjitCache,
) -> DxjitResult {
    run(|| {
        if out.is_null() {
            return Err("out is NULL".to_string().into());
        }
        // SAFETY: per the caller.
        let cache = match unsafe { opt_str(dir, "dir") }? {
            Some(d) => dxjit::cache::CompileCache::with_disk(capacity, d)
                .map_err(|e| Fail(DxjitResult::DXJIT_ERROR_IO, format!("cache directory {d}: {e}")))?,
            None => dxjit::cache::CompileCache::new(capacity),
        };
        // SAFETY: checked non-NULL above.
        unsafe { put(out, Box::into_raw(Box::new(DxjitCache { cache })), "out") }
    })
}

/// Frees a cache (NULL is ignored); shaders it returned stay valid. Thread safety: not while
/// another thread uses the cache.
#[no_mangle]
pub unsafe extern "C" fn dxjit_cache_free(cache: *mut DxjitCache) {
    if !cache.is_null() {
        // SAFETY: created by dxjit_cache_create, freed once per the caller.
        let _ = catch(|| drop(unsafe { Box::from_raw(cache) }));
    }
}

/// `dxjit_compile` through the cache: a hit returns the stored result (a new shader object the
/// caller frees). Shaders compiled under a binding layout are kept on disk with their placements
/// and root-block layout, except those of a layout with a remap callback, which stay in memory
/// (a callback is only recognised within one process). Thread safety: any thread; one cache may
/// be used by many threads at once.
#[no_mangle]
pub unsafe extern "C" fn dxjit_cache_compile(
    cache: *const DxjitCache,
    data: *const u8,
    size: usize,
    options: *const DxjitCompileOptions,
    out: *mut *mut DxjitShader,
) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let c = unsafe { obj(cache, "cache") }?;
        if out.is_null() {
            return Err("out is NULL".to_string().into());
        }
        // SAFETY: per the caller.
        let data = unsafe { bytes(data, size, "data") }?;
        // SAFETY: per the caller.
        let opts = unsafe { options_from_c(options) }?;
        let s = c.cache.compile(data, &opts).map_err(|e| dxbc_or(data, compile_fail(&e)))?;
        // SAFETY: checked non-NULL above.
        unsafe { put(out, Box::into_raw(Box::new(shader_obj(s))), "out") }
    })
}

/// The cache's counters. Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_cache_stats(cache: *const DxjitCache, stats: *mut DxjitCacheStats) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let c = unsafe { obj(cache, "cache") }?;
        let s = c.cache.stats();
        let v = DxjitCacheStats { hits: s.hits, disk_hits: s.disk_hits, misses: s.misses, entries: s.entries as u64 };
        // SAFETY: per the caller.
        unsafe { put(stats, v, "stats") }
    })
}

// ---------------------------------------------------------------------------------------------
// Fallback library and routing statistics

/// Loads the fallback library (a shared library exporting the dxil_spv_* interface) used by the
/// dxil_spv_* functions for DXBC shaders and for DXIL dxjit reports unsupported; replaces the
/// one named by the environment variable `DXJIT_FALLBACK_LIBRARY` (which is then no longer read).
/// NULL `path`: no fallback. A library that cannot be loaded, lacks the required symbols or is a
/// dxjit library itself gives `DXJIT_ERROR_IO` and leaves the current choice unchanged.
/// Thread safety: any thread; compiles already in flight keep the library they started with.
#[no_mangle]
pub unsafe extern "C" fn dxjit_set_fallback_library(path: *const c_char) -> DxjitResult {
    run(|| {
        // SAFETY: per the caller.
        let p = unsafe { opt_str(path, "path") }?;
        crate::fallback::set_library(p).map_err(|e| Fail(DxjitResult::DXJIT_ERROR_IO, e))
    })
}

/// Counters of where dxil_spv_* compiles went since the process started (or the last reset).
/// Thread safety: any thread.
#[no_mangle]
pub unsafe extern "C" fn dxjit_route_stats(stats: *mut DxjitRouteStats, reset: bool) -> DxjitResult {
    // SAFETY: per the caller.
    run(|| {
        let c = crate::fallback::counts(reset);
        let v = DxjitRouteStats {
            dxjit: c.dxjit,
            fallback_dxbc: c.fallback_dxbc,
            fallback_unsupported: c.fallback_unsupported,
            dxbc_refused: c.dxbc_refused,
            failed: c.failed,
        };
        // SAFETY: per the caller.
        unsafe { put(stats, v, "stats") }
    })
}
