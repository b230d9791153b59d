//! Graphics jobs: one draw through a graphics pipeline (VS, optional HS/DS = tessellation control and
//! evaluation, optional GS, optional PS) into cleared render targets, with everything read back.
//!
//! Conventions are Direct3D's where the two APIs differ (the shaders come from DXIL):
//! - the viewport is flipped (negative height): clip-space +Y is the top of the target, and
//!   `(-1, 1)` is the top-left corner, as in D3D; `FragCoord` / `SV_Position` is in pixels from the
//!   top-left, as in both APIs;
//! - `Rasterizer::front_ccw = false` (D3D's default `FrontCounterClockwise = FALSE`) makes triangles
//!   that are clockwise *on the render target* front-facing;
//! - the tessellation domain origin is Vulkan's default (upper-left), which is D3D's.
//!
//! Layout: this file (the job and result types), `state` (fixed-function state → Vulkan, pipeline
//! creation), `targets` (render targets: creation, clears, resolve, read-back), `run` (`run_graphics`).

mod run;
mod state;
mod targets;

use std::time::Duration;

use crate::format::{CompareOp, Format};
use crate::resources::BoundResource;

/// A programmable stage of the graphics pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// D3D vertex shader.
    Vertex,
    /// D3D hull shader (the control-point and patch-constant phases as one SPIR-V entry point).
    TessControl,
    /// D3D domain shader.
    TessEval,
    Geometry,
    /// D3D amplification shader (`VK_EXT_mesh_shader` task shader).
    Task,
    /// D3D mesh shader (`VK_EXT_mesh_shader`).
    Mesh,
    /// D3D pixel shader.
    Fragment,
}

/// One stage's SPIR-V.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShaderStage<'a> {
    pub stage: Stage,
    pub spirv: &'a [u32],
    pub entry_point: &'a str,
}

/// A vertex buffer (D3D input slot).
#[derive(Clone, Debug, PartialEq)]
pub struct VertexBuffer {
    pub binding: u32,
    /// Bytes between consecutive vertices (or instances).
    pub stride: u32,
    /// Advance per instance instead of per vertex (D3D `D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA`
    /// with step rate 1).
    pub per_instance: bool,
    pub data: Vec<u8>,
}

/// One element of the input layout: shader input `location` reads `format` at `offset` in `binding`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexAttribute {
    pub location: u32,
    pub binding: u32,
    pub format: Format,
    pub offset: u32,
}

/// Index data.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexBuffer {
    U16(Vec<u16>),
    U32(Vec<u32>),
}

/// Primitive topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Topology {
    PointList,
    LineList,
    LineStrip,
    #[default]
    TriangleList,
    TriangleStrip,
    LineListWithAdjacency,
    LineStripWithAdjacency,
    TriangleListWithAdjacency,
    TriangleStripWithAdjacency,
    /// Needs tessellation stages; `GraphicsJob::patch_control_points` per patch.
    PatchList,
}

/// The draw call. With an index buffer `count` and `first` count indices (`vkCmdDrawIndexed`), else
/// vertices (`vkCmdDraw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Draw {
    /// Vertex count, or index count with an index buffer.
    pub count: u32,
    pub instance_count: u32,
    /// First vertex, or first index with an index buffer.
    pub first: u32,
    /// Added to each index (indexed draws only; D3D `BaseVertexLocation`).
    pub vertex_offset: i32,
    pub first_instance: u32,
}

impl Draw {
    /// `count` vertices (or indices), one instance.
    pub fn new(count: u32) -> Draw {
        Draw { count, instance_count: 1, first: 0, vertex_offset: 0, first_instance: 0 }
    }

    /// The same draw with `n` instances.
    pub fn instances(self, n: u32) -> Draw {
        Draw { instance_count: n, ..self }
    }
}

/// Clear value of a colour target: `Float` for float/unorm/snorm formats, `Uint`/`Sint` for integer ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClearColor {
    Float([f32; 4]),
    Uint([u32; 4]),
    Sint([i32; 4]),
}

/// Blend factor (D3D12_BLEND). `Src1*` are dual-source factors (fragment output `Location 0, Index 1`;
/// need `dualSrcBlend`, attachment 0 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendFactor {
    Zero,
    One,
    SrcColor,
    InvSrcColor,
    SrcAlpha,
    InvSrcAlpha,
    DstAlpha,
    InvDstAlpha,
    DstColor,
    InvDstColor,
    SrcAlphaSat,
    /// `GraphicsJob::blend_constants` (D3D `BLEND_FACTOR`).
    Constant,
    InvConstant,
    Src1Color,
    InvSrc1Color,
    Src1Alpha,
    InvSrc1Alpha,
}

/// Blend operation (D3D12_BLEND_OP).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendOp {
    Add,
    Subtract,
    RevSubtract,
    Min,
    Max,
}

/// Blending of one colour target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Blend {
    pub src_color: BlendFactor,
    pub dst_color: BlendFactor,
    pub color_op: BlendOp,
    pub src_alpha: BlendFactor,
    pub dst_alpha: BlendFactor,
    pub alpha_op: BlendOp,
}

impl Blend {
    /// Classic alpha blending: `src * srcA + dst * (1 - srcA)`.
    pub fn alpha() -> Blend {
        Blend {
            src_color: BlendFactor::SrcAlpha,
            dst_color: BlendFactor::InvSrcAlpha,
            color_op: BlendOp::Add,
            src_alpha: BlendFactor::One,
            dst_alpha: BlendFactor::InvSrcAlpha,
            alpha_op: BlendOp::Add,
        }
    }
}

/// Component write mask bits of [`ColorTarget::write_mask`].
pub const WRITE_R: u8 = 1;
pub const WRITE_G: u8 = 2;
pub const WRITE_B: u8 = 4;
pub const WRITE_A: u8 = 8;
pub const WRITE_ALL: u8 = 15;

/// A colour render target (D3D RTV), bound at fragment output `Location = index in the job's list`.
/// All targets of a job (colour and depth) must have the same width, height, layers and samples.
#[derive(Clone, Debug, PartialEq)]
pub struct ColorTarget {
    pub format: Format,
    pub width: u32,
    pub height: u32,
    /// Array layers; all of them are cleared and read back, rendered into when `GraphicsJob::layered_render`.
    pub layers: u32,
    /// Samples per pixel (1, 2, 4, ...); multisampled targets are resolved before read-back.
    pub samples: u32,
    pub clear: ClearColor,
    pub blend: Option<Blend>,
    /// `WRITE_R | WRITE_G | WRITE_B | WRITE_A` bits.
    pub write_mask: u8,
}

impl ColorTarget {
    /// A single-layer, single-sample target cleared to zero, no blending, all components written.
    pub fn new(format: Format, width: u32, height: u32) -> ColorTarget {
        let clear = if format.is_integer() { ClearColor::Uint([0; 4]) } else { ClearColor::Float([0.0; 4]) };
        ColorTarget { format, width, height, layers: 1, samples: 1, clear, blend: None, write_mask: WRITE_ALL }
    }
}

/// Stencil operation (D3D12_STENCIL_OP).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StencilOp {
    #[default]
    Keep,
    Zero,
    Replace,
    IncrSat,
    DecrSat,
    Invert,
    Incr,
    Decr,
}

/// Stencil state of one face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StencilFace {
    pub fail: StencilOp,
    pub depth_fail: StencilOp,
    pub pass: StencilOp,
    pub compare: CompareOp,
}

impl Default for StencilFace {
    fn default() -> Self {
        StencilFace {
            fail: StencilOp::Keep,
            depth_fail: StencilOp::Keep,
            pass: StencilOp::Keep,
            compare: CompareOp::Always,
        }
    }
}

/// Stencil test (D3D `StencilEnable = TRUE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stencil {
    pub front: StencilFace,
    pub back: StencilFace,
    pub read_mask: u8,
    pub write_mask: u8,
    /// D3D `OMSetStencilRef`.
    pub reference: u8,
}

/// The depth/stencil target (D3D DSV) and its tests.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthStencilTarget {
    /// `D32Float`, `D16Unorm`, or (where the device supports them) `D24UnormS8Uint` / `D32FloatS8Uint`.
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    pub samples: u32,
    pub clear_depth: f32,
    pub clear_stencil: u8,
    pub depth_test: bool,
    pub depth_write: bool,
    pub depth_compare: CompareOp,
    /// Needs a format with stencil.
    pub stencil: Option<Stencil>,
}

impl DepthStencilTarget {
    /// Depth test `Less` with writes, cleared to 1.0 (stencil 0), no stencil test.
    pub fn new(format: Format, width: u32, height: u32) -> DepthStencilTarget {
        DepthStencilTarget {
            format,
            width,
            height,
            layers: 1,
            samples: 1,
            clear_depth: 1.0,
            clear_stencil: 0,
            depth_test: true,
            depth_write: true,
            depth_compare: CompareOp::Less,
            stencil: None,
        }
    }
}

/// Face culling (D3D12_CULL_MODE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CullMode {
    #[default]
    None,
    Front,
    Back,
}

/// Fill mode (D3D12_FILL_MODE); `Wireframe` needs `fillModeNonSolid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FillMode {
    #[default]
    Solid,
    Wireframe,
}

/// Depth bias (D3D `DepthBias` as a float constant factor, `DepthBiasClamp`, `SlopeScaledDepthBias`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct DepthBias {
    pub constant: f32,
    pub clamp: f32,
    pub slope: f32,
}

/// Rasterizer state. `Default` is D3D12's default rasterizer desc except `cull` (D3D defaults to
/// `Back`; here `None`, so tests see every triangle unless they ask).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rasterizer {
    pub cull: CullMode,
    /// D3D `FrontCounterClockwise`: false = clockwise on the render target is front-facing.
    pub front_ccw: bool,
    pub fill: FillMode,
    /// Clamp depth instead of clipping against the near/far planes (D3D `DepthClipEnable = FALSE`); needs
    /// `depthClamp`.
    pub depth_clamp: bool,
    pub depth_bias: Option<DepthBias>,
    /// Conservative rasterization: not supported (refused with `Unsupported`).
    pub conservative: bool,
    /// Needs `wideLines` when not 1.0.
    pub line_width: f32,
}

impl Default for Rasterizer {
    fn default() -> Self {
        Rasterizer {
            cull: CullMode::None,
            front_ccw: false,
            fill: FillMode::Solid,
            depth_clamp: false,
            depth_bias: None,
            conservative: false,
            line_width: 1.0,
        }
    }
}

/// Multisample state. The rasterization sample count is the targets' `samples` (or `samples` here when
/// the job has no targets).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Multisample {
    /// Only used for jobs without render targets (D3D `ForcedSampleCount`-style UAV-only rendering);
    /// must otherwise equal the targets' sample count or be 0 (= the targets').
    pub samples: u32,
    /// Per-sample shading with this minimum fraction (needs `sampleRateShading`).
    pub sample_shading: Option<f32>,
    pub sample_mask: u32,
    pub alpha_to_coverage: bool,
}

impl Default for Multisample {
    fn default() -> Self {
        Multisample { samples: 0, sample_shading: None, sample_mask: !0, alpha_to_coverage: false }
    }
}

/// A viewport in D3D terms: `(x, y)` is the top-left corner in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
    pub min_depth: f32,
    pub max_depth: f32,
}

/// A scissor rectangle in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

/// One transform feedback (D3D stream output) buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XfbBuffer {
    /// Bytes; the buffer starts zeroed. Strides and offsets are the shader's `XfbStride` / `Offset`
    /// decorations (Vulkan has no API-side stride).
    pub size: u32,
}

/// Transform feedback capture (needs `VK_EXT_transform_feedback`; the shader declares `Xfb` and decorates
/// its outputs with `XfbBuffer`, `XfbStride`, `Offset`, and `Stream` for multiple streams).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TransformFeedback {
    /// Bound at xfb bindings `0..len`.
    pub buffers: Vec<XfbBuffer>,
    /// The stream that is rasterized, `None` = no rasterization (D3D `D3D12_SO_NO_RASTERIZED_STREAM`).
    /// A stream other than 0 needs `transformFeedbackRasterizationStreamSelect`.
    pub rasterization_stream: Option<u32>,
}

/// One draw through a graphics pipeline, with everything needed to run it in isolation.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphicsJob<'a> {
    /// A vertex stage is required; tessellation needs both TessControl and TessEval (and
    /// `Topology::PatchList`); Geometry and Fragment are optional.
    pub stages: Vec<ShaderStage<'a>>,
    pub vertex_buffers: Vec<VertexBuffer>,
    pub vertex_attributes: Vec<VertexAttribute>,
    pub index_buffer: Option<IndexBuffer>,
    /// Strip cut (`0xFFFF` / `0xFFFFFFFF`) for strip topologies with an index buffer (D3D `IBStripCutValue`).
    pub primitive_restart: bool,
    pub topology: Topology,
    /// Control points per patch for `Topology::PatchList`.
    pub patch_control_points: u32,
    pub draw: Draw,
    /// Mesh pipelines (a [`Stage::Mesh`] stage, optionally [`Stage::Task`]): the workgroup counts of
    /// `vkCmdDrawMeshTasksEXT` (D3D `DispatchMesh`); `draw`, vertex input and topology are ignored.
    pub mesh_tasks: Option<[u32; 3]>,
    /// Fragment output `Location i` goes to target `i`.
    pub color_targets: Vec<ColorTarget>,
    pub depth_stencil: Option<DepthStencilTarget>,
    pub rasterizer: Rasterizer,
    pub multisample: Multisample,
    /// D3D `OMSetBlendFactor`.
    pub blend_constants: [f32; 4],
    /// Default: the whole target, depth 0..1 (D3D orientation: see the module docs).
    pub viewport: Option<Viewport>,
    /// Default: the whole target.
    pub scissor: Option<Rect>,
    /// Descriptors as in compute jobs, visible to every stage of the job.
    pub resources: Vec<BoundResource>,
    /// Push constants (range `0..len` padded to 4, visible to every stage of the job).
    pub push_constants: Vec<u8>,
    pub transform_feedback: Option<TransformFeedback>,
    /// Render into all layers of the targets (the shader picks one with `Layer` / `SV_RenderTargetArrayIndex`);
    /// otherwise only layer 0 is rendered (the other layers are still cleared and read back).
    pub layered_render: bool,
    /// Collect pipeline statistics (`GraphicsResult::stats`) when the device supports the query.
    pub statistics: bool,
    /// Specialization constants `(SpecId, u32 value)` given to every stage at pipeline creation
    /// (`VkSpecializationInfo`; an id a stage does not declare is ignored).
    pub specialization: Vec<(u32, u32)>,
    /// Acceleration structures for ray queries (see [`crate::ResourceDesc::AccelerationStructure`]).
    pub scene: Option<crate::Scene>,
}

impl<'a> GraphicsJob<'a> {
    /// A triangle-list job drawing `count` vertices with `stages` into `color_targets`; everything else
    /// default (no buffers, no depth, no culling, whole-target viewport).
    pub fn new(stages: Vec<ShaderStage<'a>>, color_targets: Vec<ColorTarget>, count: u32) -> GraphicsJob<'a> {
        GraphicsJob {
            stages,
            vertex_buffers: Vec::new(),
            vertex_attributes: Vec::new(),
            index_buffer: None,
            primitive_restart: false,
            topology: Topology::TriangleList,
            patch_control_points: 0,
            draw: Draw::new(count),
            mesh_tasks: None,
            color_targets,
            depth_stencil: None,
            rasterizer: Rasterizer::default(),
            multisample: Multisample::default(),
            blend_constants: [0.0; 4],
            viewport: None,
            scissor: None,
            resources: Vec::new(),
            push_constants: Vec::new(),
            transform_feedback: None,
            layered_render: false,
            statistics: false,
            specialization: Vec::new(),
            scene: None,
        }
    }
}

/// `VkQueryPipelineStatisticFlags` counters of the draw. Counters of stages the device lacks are 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PipelineStats {
    pub input_assembly_vertices: u64,
    pub input_assembly_primitives: u64,
    pub vertex_shader_invocations: u64,
    pub geometry_shader_invocations: u64,
    pub geometry_shader_primitives: u64,
    pub clipping_invocations: u64,
    pub clipping_primitives: u64,
    pub fragment_shader_invocations: u64,
    pub tess_control_shader_patches: u64,
    pub tess_evaluation_shader_invocations: u64,
}

/// Where the time of a job went. Drivers differ in when they compile: lavapipe (llvmpipe) turns SPIR-V
/// into NIR at pipeline creation but JIT-compiles the LLVM code of shader *variants* (which depend on
/// the draw's state) when they are first used, so `first_draw` contains most of the real compile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GraphicsTiming {
    /// `vkCreateShaderModule` for every stage plus `vkCreateGraphicsPipelines`.
    pub pipeline_create: Duration,
    /// Submit-to-fence of the command buffer holding only the draw (uploads and clears run before it).
    pub first_draw: Duration,
}

/// What a graphics job produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphicsResult {
    /// One entry per colour target: every layer, layer-major, rows tightly packed in the target format.
    /// Multisampled targets are resolved first (average for float formats, sample 0 for integer ones).
    pub color: Vec<Vec<u8>>,
    /// Depth aspect of the depth/stencil target, packed like `color` (`D32Float`/`D32FloatS8Uint`: f32;
    /// `D16Unorm`: u16; `D24UnormS8Uint`: u32 with the 24-bit value in the low bits). Multisampled
    /// targets are resolved with sample 0.
    pub depth: Option<Vec<u8>>,
    /// Stencil aspect (one byte per texel) when the format has one.
    pub stencil: Option<Vec<u8>>,
    /// `(set, binding, array index, bytes)` of every buffer and image resource after the draw, as in
    /// `ComputeResult::resources`.
    pub resources: Vec<(u32, u32, u32, Vec<u8>)>,
    /// Contents of each transform feedback buffer.
    pub xfb: Vec<Vec<u8>>,
    /// Bytes written to each transform feedback buffer (its counter after the draw).
    pub xfb_counters: Vec<u32>,
    /// `(primitives written, primitives needed)` of stream 0, when the device has transform feedback queries.
    pub xfb_primitives: Option<(u64, u64)>,
    /// Pipeline statistics when `GraphicsJob::statistics` was set and the device has the query.
    pub stats: Option<PipelineStats>,
    pub timing: GraphicsTiming,
}

impl GraphicsResult {
    /// The contents of the resource at `(set, binding, array_index)`.
    pub fn get(&self, set: u32, binding: u32, array_index: u32) -> Option<&[u8]> {
        self.resources
            .iter()
            .find(|(s, b, i, _)| (*s, *b, *i) == (set, binding, array_index))
            .map(|(_, _, _, d)| d.as_slice())
    }
}
