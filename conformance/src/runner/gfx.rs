//! What the runner needs from a compiler + device for pipeline specs (graphics and tessellation):
//! linking, compiling a whole pipeline, and one draw. Like `backend.rs`, the types mirror the dxjit /
//! dxjit-runtime APIs one to one so the Vulkan glue stays trivial and the runner logic is tested
//! with a fake.

use super::job::{Bound, CompileFailure, Compiled, Format, Outputs};
use dxjit::link::Rejection;

/// A programmable graphics stage, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StageSlot {
    Vs,
    Hs,
    Ds,
    Gs,
    /// Amplification (task) shader of a mesh pipeline.
    As,
    /// Mesh shader.
    Ms,
    Ps,
}

impl StageSlot {
    pub const ALL: [StageSlot; 7] =
        [StageSlot::Vs, StageSlot::Hs, StageSlot::Ds, StageSlot::Gs, StageSlot::As, StageSlot::Ms, StageSlot::Ps];

    /// The spec key (`vs`, `hs`, ...).
    pub fn key(self) -> &'static str {
        match self {
            StageSlot::Vs => "vs",
            StageSlot::Hs => "hs",
            StageSlot::Ds => "ds",
            StageSlot::Gs => "gs",
            StageSlot::As => "as",
            StageSlot::Ms => "ms",
            StageSlot::Ps => "ps",
        }
    }

    /// The corpus manifest's `stage` value.
    pub fn manifest_stage(self) -> &'static str {
        match self {
            StageSlot::Vs => "vertex",
            StageSlot::Hs => "hull",
            StageSlot::Ds => "domain",
            StageSlot::Gs => "geometry",
            StageSlot::As => "amplification",
            StageSlot::Ms => "mesh",
            StageSlot::Ps => "pixel",
        }
    }

    pub fn linker_stage(self) -> dxjit::link::Stage {
        use dxjit::link::Stage;
        match self {
            StageSlot::Vs => Stage::Vertex,
            StageSlot::Hs => Stage::Hull,
            StageSlot::Ds => Stage::Domain,
            StageSlot::Gs => Stage::Geometry,
            StageSlot::As => Stage::Amplification,
            StageSlot::Ms => Stage::Mesh,
            StageSlot::Ps => Stage::Pixel,
        }
    }

    pub fn from_linker_stage(s: dxjit::link::Stage) -> StageSlot {
        use dxjit::link::Stage;
        match s {
            Stage::Vertex => StageSlot::Vs,
            Stage::Hull => StageSlot::Hs,
            Stage::Domain => StageSlot::Ds,
            Stage::Geometry => StageSlot::Gs,
            Stage::Amplification => StageSlot::As,
            Stage::Mesh => StageSlot::Ms,
            Stage::Pixel => StageSlot::Ps,
        }
    }
}

/// A signature element whose component type the linker should see differently (a stand-in for a
/// blob the corpus lacks; link-only specs).
#[derive(Debug, Clone, PartialEq)]
pub struct Retype {
    pub signature: dxjit::link::SignatureKind,
    pub semantic: String,
    pub index: u32,
    pub component_type: dxjit::dxil::ComponentType,
}

/// One stage handed to the linker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkStage<'a> {
    pub slot: StageSlot,
    pub container: &'a [u8],
    pub retype: &'a [Retype],
}

/// Why a pipeline did not link.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkFailure {
    /// D3D12 would fail PSO creation: the broken rules.
    Rejected(Vec<Rejection>),
    /// Malformed input (container, metadata, a stage that is not a graphics stage, ...).
    Error(String),
}

/// Why `compile_pipeline` failed.
#[derive(Debug, Clone, PartialEq)]
pub enum PipelineFailure {
    Link(LinkFailure),
    Compile(CompileFailure),
    /// This build or device cannot compile pipelines (feature `graphics` off): the spec is skipped.
    Unavailable(String),
}

/// One Vulkan vertex attribute the linker derived from the input layout.
#[derive(Debug, Clone, PartialEq)]
pub struct VertexInput {
    pub location: u32,
    /// Input slot = vertex buffer binding.
    pub slot: u32,
    /// DXGI name without prefix (`R32G32B32_FLOAT`).
    pub format: String,
    pub offset: u32,
}

/// A compiled pipeline: one shader per stage plus the vertex input the linker planned.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledPipeline {
    pub shaders: Vec<(StageSlot, Compiled)>,
    pub vertex_input: Vec<VertexInput>,
}

/// Primitive topology (D3D_PRIMITIVE_TOPOLOGY).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    PointList,
    LineList,
    LineStrip,
    TriangleList,
    TriangleStrip,
    LineListAdj,
    LineStripAdj,
    TriangleListAdj,
    TriangleStripAdj,
    /// `N_CONTROL_POINT_PATCHLIST`.
    PatchList(u32),
}

impl Topology {
    pub fn parse(s: &str) -> Option<Topology> {
        Some(match s.to_ascii_lowercase().as_str() {
            "point_list" => Topology::PointList,
            "line_list" => Topology::LineList,
            "line_strip" => Topology::LineStrip,
            "triangle_list" => Topology::TriangleList,
            "triangle_strip" => Topology::TriangleStrip,
            "line_list_adj" => Topology::LineListAdj,
            "line_strip_adj" => Topology::LineStripAdj,
            "triangle_list_adj" => Topology::TriangleListAdj,
            "triangle_strip_adj" => Topology::TriangleStripAdj,
            "patch_list" => Topology::PatchList(0),
            _ => return None,
        })
    }

    /// The PSO's `PrimitiveTopologyType` for this topology (the linker's topology rules).
    pub fn link_type(self) -> dxjit::link::TopologyType {
        use dxjit::link::TopologyType as T;
        match self {
            Topology::PointList => T::Point,
            Topology::LineList | Topology::LineStrip | Topology::LineListAdj | Topology::LineStripAdj => T::Line,
            Topology::TriangleList
            | Topology::TriangleStrip
            | Topology::TriangleListAdj
            | Topology::TriangleStripAdj => T::Triangle,
            Topology::PatchList(n) => T::Patch(n),
        }
    }
}

/// `DrawInstanced` / `DrawIndexedInstanced` parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawParams {
    /// Vertices, or indices with an index buffer.
    pub count: u32,
    pub instances: u32,
    /// StartVertexLocation / StartIndexLocation.
    pub first: u32,
    /// BaseVertexLocation (indexed draws).
    pub base_vertex: i32,
    pub first_instance: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Indices {
    U16(Vec<u16>),
    U32(Vec<u32>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct VertexBufferData {
    pub slot: u32,
    pub stride: u32,
    pub per_instance: bool,
    pub data: Vec<u8>,
}

/// Clear value of a colour target, in the target's numeric class.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Clear {
    Float([f32; 4]),
    Uint([u32; 4]),
    Sint([i32; 4]),
}

#[derive(Debug, Clone, PartialEq)]
pub struct TargetDesc {
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    pub clear: Clear,
    /// Samples per pixel; read back resolved.
    pub samples: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepthFormat {
    D32Float,
    D16Unorm,
    D24UnormS8Uint,
    D32FloatS8Uint,
}

impl DepthFormat {
    pub fn parse(s: &str) -> Option<DepthFormat> {
        let l = s.to_ascii_lowercase();
        Some(match l.strip_prefix("dxgi_format_").unwrap_or(&l) {
            "d32_float" => DepthFormat::D32Float,
            "d16_unorm" => DepthFormat::D16Unorm,
            "d24_unorm_s8_uint" => DepthFormat::D24UnormS8Uint,
            "d32_float_s8x24_uint" => DepthFormat::D32FloatS8Uint,
            _ => return None,
        })
    }

    /// Bytes per texel of the depth read-back.
    pub fn depth_texel(self) -> usize {
        match self {
            DepthFormat::D16Unorm => 2,
            _ => 4,
        }
    }

    pub fn has_stencil(self) -> bool {
        matches!(self, DepthFormat::D24UnormS8Uint | DepthFormat::D32FloatS8Uint)
    }
}

/// D3D12_COMPARISON_FUNC.
pub use super::job::CompareOp;

#[derive(Debug, Clone, PartialEq)]
pub struct DepthDesc {
    pub format: DepthFormat,
    pub clear_depth: f32,
    pub clear_stencil: u8,
    pub depth_test: bool,
    pub depth_write: bool,
    pub depth_func: CompareOp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cull {
    None,
    Front,
    Back,
}

/// Rasterizer state; `Default` = D3D12 defaults except cull (none unless a spec says).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RasterDesc {
    pub cull: Cull,
    pub front_ccw: bool,
    pub wireframe: bool,
    /// D3D `DepthClipEnable` (true by default).
    pub depth_clip: bool,
}

impl Default for RasterDesc {
    fn default() -> Self {
        RasterDesc { cull: Cull::None, front_ccw: false, wireframe: false, depth_clip: true }
    }
}

/// D3D12_SO_DECLARATION_ENTRY.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoEntry {
    pub stream: u32,
    pub semantic: String,
    pub index: u32,
    pub start_component: u32,
    pub component_count: u32,
    pub slot: u32,
}

/// Stream output state: declarations, buffer strides and sizes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOutput {
    pub entries: Vec<SoEntry>,
    pub strides: Vec<u32>,
    /// Size of each capture buffer in bytes.
    pub sizes: Vec<u32>,
}

/// One draw through a compiled pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawJob<'a> {
    pub stages: Vec<(StageSlot, &'a [u32], &'a str)>,
    /// Specialization constants `(SpecId, value)` the pipeline sets (the sample count a stage's
    /// `RenderTargetGetSampleCount` reads, as a layer sets it from the PSO).
    pub specialization: Vec<(u32, u32)>,
    pub vertex_buffers: Vec<VertexBufferData>,
    pub vertex_attributes: Vec<VertexInput>,
    pub indices: Option<Indices>,
    pub topology: Topology,
    pub draw: DrawParams,
    pub targets: Vec<TargetDesc>,
    pub depth: Option<DepthDesc>,
    pub rasterizer: RasterDesc,
    /// Render into every layer (the pipeline writes SV_RenderTargetArrayIndex).
    pub layered: bool,
    /// The PSO's `SampleMask`.
    pub sample_mask: u32,
    pub resources: Vec<Bound>,
    pub push_constants: Vec<u8>,
    pub stream_output: Option<StreamOutput>,
    /// The GS stream sent to the rasterizer; `None` = D3D12_SO_NO_RASTERIZED_STREAM.
    pub rasterized_stream: Option<u32>,
    /// Mesh pipelines: `DispatchMesh(x, y, z)` instead of `draw`.
    pub dispatch_mesh: Option<[u32; 3]>,
    /// Acceleration structures (ray queries).
    pub scene: Option<super::job::Scene>,
    /// Count pipeline statistics of the draw (`DrawOutputs::statistics`).
    pub statistics: bool,
}

/// A pipeline-statistics counter, by D3D12's name (`D3D12_QUERY_DATA_PIPELINE_STATISTICS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    IaVertices,
    IaPrimitives,
    VsInvocations,
    GsInvocations,
    GsPrimitives,
    CInvocations,
    CPrimitives,
    PsInvocations,
    HsInvocations,
    DsInvocations,
}

impl Counter {
    pub const ALL: [Counter; 10] = [
        Counter::IaVertices,
        Counter::IaPrimitives,
        Counter::VsInvocations,
        Counter::GsInvocations,
        Counter::GsPrimitives,
        Counter::CInvocations,
        Counter::CPrimitives,
        Counter::PsInvocations,
        Counter::HsInvocations,
        Counter::DsInvocations,
    ];

    /// The spec-file name (D3D12's field in snake case).
    pub fn name(self) -> &'static str {
        match self {
            Counter::IaVertices => "ia_vertices",
            Counter::IaPrimitives => "ia_primitives",
            Counter::VsInvocations => "vs_invocations",
            Counter::GsInvocations => "gs_invocations",
            Counter::GsPrimitives => "gs_primitives",
            Counter::CInvocations => "c_invocations",
            Counter::CPrimitives => "c_primitives",
            Counter::PsInvocations => "ps_invocations",
            Counter::HsInvocations => "hs_invocations",
            Counter::DsInvocations => "ds_invocations",
        }
    }

    pub fn parse(s: &str) -> Option<Counter> {
        Counter::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// Pipeline statistics of a draw, by [`Counter`] (a counter the device does not count is `None`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Statistics {
    pub values: Vec<(Counter, u64)>,
}

impl Statistics {
    pub fn get(&self, c: Counter) -> Option<u64> {
        self.values.iter().find(|v| v.0 == c).map(|v| v.1)
    }
}

/// What a draw produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DrawOutputs {
    /// Per colour target: every layer, layer-major, rows top to bottom, tightly packed.
    pub color: Vec<Vec<u8>>,
    pub depth: Option<Vec<u8>>,
    pub stencil: Option<Vec<u8>>,
    pub resources: Outputs,
    /// Stream-output buffers.
    pub stream_output: Vec<Vec<u8>>,
    /// Pipeline statistics, when the job asked for them and the device counts them.
    pub statistics: Option<Statistics>,
}
