//! The compute vocabulary between the runner and a [`super::Backend`]: a compiled shader's
//! bindings, the resources a spec binds, one dispatch and its outputs. Plain data, used by the
//! compute path (`execute`), the graphics types (`gfx`) and every backend; it depends on no other
//! runner module, which is what keeps `backend` (the trait) and `gfx` (the graphics jobs the trait
//! takes) free of a cycle.

/// D3D register class of a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceClass {
    Srv,
    Uav,
    Cbv,
    Sampler,
}

impl ResourceClass {
    pub fn prefix(self) -> char {
        match self {
            ResourceClass::Srv => 't',
            ResourceClass::Uav => 'u',
            ResourceClass::Cbv => 'b',
            ResourceClass::Sampler => 's',
        }
    }
}

/// Vulkan descriptor type the compiler chose for a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DescriptorKind {
    UniformBuffer,
    StorageBuffer,
    UniformTexelBuffer,
    StorageTexelBuffer,
    SampledImage,
    StorageImage,
    Sampler,
    AccelerationStructure,
    PushConstant,
}

/// One D3D resource range of a compiled shader and where it lives in Vulkan.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub class: ResourceClass,
    pub space: u32,
    pub lower_bound: u32,
    /// Number of registers in the range; `None` = unbounded.
    pub count: Option<u32>,
    pub set: u32,
    pub binding: u32,
    pub descriptor: DescriptorKind,
    /// DXIL resource kind (`RawBuffer`, `StructuredBuffer`, `TypedBuffer`, `Texture2D`, `CBuffer`, …).
    pub kind: String,
    pub has_counter: bool,
    pub counter_binding: Option<(u32, u32)>,
}

impl Binding {
    /// Whether register `reg` of this class and space falls in the range; returns the array index.
    pub fn index_of(&self, class: ResourceClass, space: u32, reg: u32) -> Option<u32> {
        if self.class != class || self.space != space || reg < self.lower_bound {
            return None;
        }
        let idx = reg - self.lower_bound;
        match self.count {
            Some(n) if idx >= n => None,
            _ => Some(idx),
        }
    }
}

/// A compiled shader, as far as the runner needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The stage (`dxjit::ShaderKind::name`: `compute`, `raygeneration`, `closesthit`, …).
    pub stage: &'static str,
    /// Ray-tracing exports with a local root signature: the local arguments of their records.
    pub shader_record: Option<dxjit::binding::ShaderRecordLayout>,
    pub spirv: Vec<u32>,
    pub entry_point: String,
    pub is_compute: bool,
    pub workgroup_size: [u32; 3],
    pub bindings: Vec<Binding>,
    pub push_constant_size: Option<u32>,
    /// The shader indexes SM 6.6 descriptor heaps (`heap_bindings`), which specs cannot describe.
    pub uses_descriptor_heaps: bool,
    /// The SpecId of the rasterizer-sample-count specialization constant the module declares
    /// (`CompiledShader::sample_count_spec_id`): set to the pipeline's sample count at draw time.
    pub sample_count_spec_id: Option<u32>,
    /// The subgroup size the dispatch must require (`CompiledShader::required_subgroup_size`).
    pub required_subgroup_size: Option<u32>,
}

impl Compiled {
    /// The subgroup size to require for a dispatch: the spec's (`subgroup_size`) or the one the
    /// compiler chose for the shader's `[WaveSize]`; both must agree.
    pub fn dispatch_subgroup_size(&self, spec: Option<u32>) -> Result<Option<u32>, String> {
        match (spec, self.required_subgroup_size) {
            (Some(n), Some(m)) if n != m => Err(format!(
                "the compiler requires subgroup size {m} for the shader's [WaveSize]; the spec asks for {n}"
            )),
            (n, m) => Ok(n.or(m)),
        }
    }
}

/// Why a compile failed; `Unsupported` is the only kind a spec may expect.
#[derive(Debug, Clone, PartialEq)]
pub enum CompileFailure {
    Unsupported(String),
    Malformed(String),
    Internal(String),
}

/// Texel formats the specs can name (a subset of `dxjit_runtime::Format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    R32Uint,
    R32Sint,
    R32Float,
    R32G32Uint,
    R32G32Float,
    R32G32B32A32Uint,
    R32G32B32A32Sint,
    R32G32B32A32Float,
    R16Float,
    R16Uint,
    R16G16B16A16Float,
    R8Unorm,
    R8Uint,
    R8G8B8A8Unorm,
    R8G8B8A8Uint,
    R8G8B8A8Snorm,
    B8G8R8A8Unorm,
}

impl Format {
    pub const ALL: [Format; 17] = [
        Format::R32Uint,
        Format::R32Sint,
        Format::R32Float,
        Format::R32G32Uint,
        Format::R32G32Float,
        Format::R32G32B32A32Uint,
        Format::R32G32B32A32Sint,
        Format::R32G32B32A32Float,
        Format::R16Float,
        Format::R16Uint,
        Format::R16G16B16A16Float,
        Format::R8Unorm,
        Format::R8Uint,
        Format::R8G8B8A8Unorm,
        Format::R8G8B8A8Uint,
        Format::R8G8B8A8Snorm,
        Format::B8G8R8A8Unorm,
    ];

    /// DXGI-style name without the prefix, lower case: `r32g32b32a32_float`.
    pub fn name(self) -> &'static str {
        match self {
            Format::R32Uint => "r32_uint",
            Format::R32Sint => "r32_sint",
            Format::R32Float => "r32_float",
            Format::R32G32Uint => "r32g32_uint",
            Format::R32G32Float => "r32g32_float",
            Format::R32G32B32A32Uint => "r32g32b32a32_uint",
            Format::R32G32B32A32Sint => "r32g32b32a32_sint",
            Format::R32G32B32A32Float => "r32g32b32a32_float",
            Format::R16Float => "r16_float",
            Format::R16Uint => "r16_uint",
            Format::R16G16B16A16Float => "r16g16b16a16_float",
            Format::R8Unorm => "r8_unorm",
            Format::R8Uint => "r8_uint",
            Format::R8G8B8A8Unorm => "r8g8b8a8_unorm",
            Format::R8G8B8A8Uint => "r8g8b8a8_uint",
            Format::R8G8B8A8Snorm => "r8g8b8a8_snorm",
            Format::B8G8R8A8Unorm => "b8g8r8a8_unorm",
        }
    }

    /// Accepts `r32_uint`, `R32_UINT` and `DXGI_FORMAT_R32_UINT`.
    pub fn parse(s: &str) -> Option<Format> {
        let l = s.to_ascii_lowercase();
        let l = l.strip_prefix("dxgi_format_").unwrap_or(&l);
        Format::ALL.into_iter().find(|f| f.name() == l)
    }

    pub fn texel_size(self) -> u32 {
        match self {
            Format::R32Uint | Format::R32Sint | Format::R32Float => 4,
            Format::R32G32Uint | Format::R32G32Float => 8,
            Format::R32G32B32A32Uint | Format::R32G32B32A32Sint | Format::R32G32B32A32Float => 16,
            Format::R16Float | Format::R16Uint => 2,
            Format::R16G16B16A16Float => 8,
            Format::R8Unorm | Format::R8Uint => 1,
            Format::R8G8B8A8Unorm | Format::R8G8B8A8Uint | Format::R8G8B8A8Snorm | Format::B8G8R8A8Unorm => 4,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageDim {
    D1,
    D2,
    D3,
    Cube,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    pub dim: ImageDim,
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub layers: u32,
    pub mips: u32,
    pub samples: u32,
    /// Layer-major, then mip, then rows, tightly packed.
    pub data: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Point,
    Linear,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressMode {
    Wrap,
    Clamp,
    Mirror,
    Border,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
    Always,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BorderColor {
    TransparentBlack,
    OpaqueBlack,
    OpaqueWhite,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sampler {
    pub filter: Filter,
    pub address: AddressMode,
    pub compare: Option<CompareOp>,
    pub border: BorderColor,
    pub min_lod: f32,
    pub max_lod: f32,
    pub mip_lod_bias: f32,
    pub anisotropy: Option<f32>,
}

/// The contents bound at one descriptor.
#[derive(Debug, Clone, PartialEq)]
pub enum Resource {
    UniformBuffer {
        data: Vec<u8>,
    },
    StorageBuffer {
        data: Vec<u8>,
    },
    UniformTexelBuffer {
        format: Format,
        data: Vec<u8>,
    },
    StorageTexelBuffer {
        format: Format,
        data: Vec<u8>,
    },
    SampledImage(Image),
    StorageImage(Image),
    Sampler(Sampler),
    /// A buffer reached through its device address, written into the push constants at byte
    /// `push_offset` (a D3D12 root descriptor; `dxjit_runtime::ResourceDesc::AddressBuffer`), or
    /// only by a shader record (`None`: a local root descriptor).
    AddressBuffer {
        data: Vec<u8>,
        push_offset: Option<u32>,
    },
    /// The job's top-level acceleration structure in a descriptor.
    AccelerationStructure,
    /// The job's top-level acceleration structure's address in the push constants (a root SRV).
    AccelerationStructureAddress {
        push_offset: u32,
    },
    /// An empty element of a descriptor array (sizes a bindless heap array).
    Null(DescriptorKind),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    pub set: u32,
    pub binding: u32,
    pub array_index: u32,
    pub resource: Resource,
}

/// One dispatch.
#[derive(Debug, Clone, PartialEq)]
pub struct Job<'a> {
    pub spirv: &'a [u32],
    pub entry_point: &'a str,
    pub resources: Vec<Bound>,
    pub push_constants: Vec<u8>,
    pub dispatch: [u32; 3],
    pub required_subgroup_size: Option<u32>,
    /// Acceleration structures (ray queries).
    pub scene: Option<Scene>,
}

/// Acceleration structures: bottom-level geometry and the instances of one top-level structure
/// (D3D12's build inputs; `dxjit_runtime::Scene`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    pub blas: Vec<Vec<Geometry>>,
    pub instances: Vec<Instance>,
}

/// Triangle geometry: R32G32B32_FLOAT vertices, optional 32-bit indices and 3x4 transform.
#[derive(Debug, Clone, PartialEq)]
pub struct Triangles {
    pub vertices: Vec<[f32; 3]>,
    pub indices: Option<Vec<u32>>,
    pub transform: Option<[f32; 12]>,
}

/// One geometry of a bottom-level structure.
#[derive(Debug, Clone, PartialEq)]
pub struct Geometry {
    /// Triangles; `None`: AABBs.
    pub triangles: Option<Triangles>,
    /// `(min xyz, max xyz)` per procedural primitive.
    pub aabbs: Vec<[f32; 6]>,
    /// `D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE`, `_NO_DUPLICATE_ANYHIT_INVOCATION`.
    pub opaque: bool,
    pub no_duplicate_any_hit: bool,
}

/// One `D3D12_RAYTRACING_INSTANCE_DESC`.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    pub blas: u32,
    /// Row-major 3x4.
    pub transform: [f32; 12],
    pub id: u32,
    pub mask: u8,
    pub hit_group_offset: u32,
    /// `D3D12_RAYTRACING_INSTANCE_FLAGS`.
    pub flags: u8,
}

/// The stage of a ray-tracing shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RtStage {
    RayGeneration,
    Miss,
    ClosestHit,
    AnyHit,
    Intersection,
    Callable,
}

/// A shader group: indices into [`RtJob::shaders`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RtGroup {
    General(u32),
    Triangles { closest_hit: Option<u32>, any_hit: Option<u32> },
    Procedural { intersection: u32, closest_hit: Option<u32>, any_hit: Option<u32> },
}

/// What an 8-byte patch of a shader record receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordAddress {
    /// The device address of [`RtJob::resources`] element `index` (an address buffer) + `offset`.
    Resource { index: usize, offset: u64 },
    /// The top-level acceleration structure's address.
    Tlas,
}

/// A shader record: a group's identifier, then the local root arguments.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RtRecord {
    pub group: u32,
    pub data: Vec<u8>,
    pub patches: Vec<(u32, RecordAddress)>,
}

/// One `DispatchRays` through a ray-tracing pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct RtJob {
    /// Stage, SPIR-V and entry point per shader.
    pub shaders: Vec<(RtStage, Vec<u32>, String)>,
    pub groups: Vec<RtGroup>,
    pub max_recursion: u32,
    pub raygen: RtRecord,
    pub miss: Vec<RtRecord>,
    pub hit: Vec<RtRecord>,
    pub callable: Vec<RtRecord>,
    pub resources: Vec<Bound>,
    pub push_constants: Vec<u8>,
    pub scene: Option<Scene>,
    pub dispatch: [u32; 3],
}

/// Final contents of every writable resource: (set, binding, array index, bytes).
pub type Outputs = Vec<(u32, u32, u32, Vec<u8>)>;
