//! Ray tracing: acceleration structures built from a [`Scene`] (bottom-level triangles and AABBs,
//! a top-level structure of instances), usable by any job (ray queries in compute and pixel
//! shaders: [`crate::ResourceDesc::AccelerationStructure`] and
//! [`crate::ResourceDesc::AccelerationStructureAddress`]), and ray-tracing pipeline jobs
//! ([`RayTracingJob`]: shader groups, a shader binding table with local data in its records,
//! `vkCmdTraceRaysKHR`).
//!
//! Conventions are D3D12's where the two APIs could differ, and they do not: a geometry transform
//! and an instance transform are 3x4 row-major matrices, instance and geometry flags have the
//! same bits (`D3D12_RAYTRACING_INSTANCE_FLAGS` = `VkGeometryInstanceFlagsKHR`,
//! `D3D12_RAYTRACING_GEOMETRY_FLAGS` = `VkGeometryFlagsKHR`), an instance's ID, mask and
//! hit-group contribution are Vulkan's custom index, mask and SBT record offset.
//!
//! Layout: this file (the types), `accel` (building), `run` (`Context::run_ray_tracing`).

mod accel;
mod run;

pub(crate) use accel::{attach_scene, build_scene, record_scene_build, BuiltScene};

use crate::resources::BoundResource;

/// Bottom-level structures and the instances of one top-level structure.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Scene {
    pub blas: Vec<Blas>,
    pub instances: Vec<Instance>,
}

/// One bottom-level acceleration structure.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Blas {
    pub geometries: Vec<Geometry>,
}

/// One geometry of a bottom-level structure (its index is `GeometryIndex()`).
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    pub kind: GeometryKind,
    /// `D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE`: any-hit shaders are not run.
    pub opaque: bool,
    /// `D3D12_RAYTRACING_GEOMETRY_FLAG_NO_DUPLICATE_ANYHIT_INVOCATION`.
    pub no_duplicate_any_hit: bool,
}

/// Triangles (R32G32B32_FLOAT vertices, optional 32-bit indices and 3x4 transform) or
/// procedural AABBs.
#[derive(Clone, Debug, PartialEq)]
pub enum GeometryKind {
    Triangles {
        vertices: Vec<[f32; 3]>,
        /// Three per triangle; without them every three vertices are a triangle.
        indices: Option<Vec<u32>>,
        /// Row-major 3x4 object transform of the vertices.
        transform: Option<[f32; 12]>,
    },
    /// `(min x, min y, min z, max x, max y, max z)` per primitive.
    Aabbs(Vec<[f32; 6]>),
}

/// One instance of the top-level structure.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// Index into [`Scene::blas`].
    pub blas: u32,
    /// Row-major 3x4 object-to-world transform.
    pub transform: [f32; 12],
    /// `InstanceID()` (24 bits).
    pub custom_index: u32,
    pub mask: u8,
    /// `InstanceContributionToHitGroupIndex` (24 bits).
    pub sbt_offset: u32,
    /// `D3D12_RAYTRACING_INSTANCE_FLAGS` (= `VkGeometryInstanceFlagsKHR`): 1 triangle cull disable,
    /// 2 front counter-clockwise, 4 force opaque, 8 force non-opaque.
    pub flags: u8,
}

impl Instance {
    /// The identity transform.
    pub const IDENTITY: [f32; 12] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
}

/// The stage of one ray-tracing shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RtStage {
    RayGeneration,
    Miss,
    ClosestHit,
    AnyHit,
    Intersection,
    Callable,
}

impl RtStage {
    pub fn name(self) -> &'static str {
        match self {
            RtStage::RayGeneration => "raygeneration",
            RtStage::Miss => "miss",
            RtStage::ClosestHit => "closesthit",
            RtStage::AnyHit => "anyhit",
            RtStage::Intersection => "intersection",
            RtStage::Callable => "callable",
        }
    }
}

/// One shader module of a ray-tracing pipeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RtShader<'a> {
    pub stage: RtStage,
    pub spirv: &'a [u32],
    pub entry_point: &'a str,
}

/// A shader group (indices into [`RayTracingJob::shaders`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderGroup {
    /// A raygen, miss or callable shader.
    General(u32),
    /// A triangle hit group.
    Triangles { closest_hit: Option<u32>, any_hit: Option<u32> },
    /// A procedural hit group.
    Procedural { intersection: u32, closest_hit: Option<u32>, any_hit: Option<u32> },
}

/// What a patch of a shader record's data receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressOf {
    /// The device address of job resource `i` (a [`crate::ResourceDesc::AddressBuffer`]) plus
    /// `offset` bytes.
    Resource { index: usize, offset: u64 },
    /// The top-level acceleration structure's device address.
    Tlas,
}

/// One shader record: a group's identifier followed by local data (D3D12's local root
/// arguments, laid out by the compiler's `ShaderRecordLayout`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ShaderRecord {
    /// Index into [`RayTracingJob::groups`].
    pub group: u32,
    /// The bytes after the group handle (`ShaderRecordBufferKHR` in the shaders).
    pub data: Vec<u8>,
    /// 64-bit little-endian addresses written into `data` at these byte offsets.
    pub patches: Vec<(u32, AddressOf)>,
}

/// One `vkCmdTraceRaysKHR` through a ray-tracing pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct RayTracingJob<'a> {
    pub shaders: Vec<RtShader<'a>>,
    pub groups: Vec<ShaderGroup>,
    /// `maxPipelineRayRecursionDepth` (D3D12 `MaxTraceRecursionDepth`).
    pub max_recursion_depth: u32,
    pub raygen: ShaderRecord,
    pub miss: Vec<ShaderRecord>,
    pub hit: Vec<ShaderRecord>,
    pub callable: Vec<ShaderRecord>,
    /// Descriptors as in compute jobs, visible to every ray-tracing stage.
    pub resources: Vec<BoundResource>,
    /// Push constants (range `0..len`, every ray-tracing stage).
    pub push_constants: Vec<u8>,
    pub scene: Option<Scene>,
    /// Launch size (`DispatchRaysDimensions`).
    pub dispatch: [u32; 3],
}
