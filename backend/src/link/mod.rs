//! The PSO-time linker: validates the stages of one graphics pipeline the
//! way the D3D12 runtime does at PSO creation, then decides the Vulkan
//! interface (Locations, Components, built-ins) every signature element of
//! every stage gets, identically on both sides of each boundary.
//!
//! Pure data: no Vulkan, no SPIR-V. Lowering reads a [`LinkPlan`] to place
//! the variables behind `loadInput`/`storeOutput`, whose row/column operands
//! are relative to the element start, so relocation never rewrites them.
//!
//! Placement scheme: user elements follow the producer's register/column
//! packing (which validation has proven equal to the consumer's), unplaced
//! elements get free Locations past every placed one, system values become
//! built-ins, patch constants sit past the largest control-point Location.

mod error;
mod input_layout;
mod mesh;
mod place;
mod rows;
mod stage;
mod stage_kind;
mod stream_output;
mod sysval;
mod validate;

#[cfg(test)]
mod tests;

pub use error::{LinkError, Rejection, Rule};
pub use input_layout::{format_info, InputElement, InputLayout, VertexAttribute};
pub use stage::{SignatureKind, Stage, StageIo};
pub use sysval::BuiltIn;

use crate::dxil::{
    ComponentType, DxilModuleInfo, InputPrimitive, InterpolationMode, PrimitiveTopology, SignatureElement, TessDomain,
    TessOutputPrimitive, TessPartitioning,
};
use crate::ir::Module;
use serde::Serialize;
use validate::{Boundary, BoundaryKind};

/// Where an element lives in the Vulkan interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Row r, column c of the element is Location `location + r`, Component `component + c`.
    Location {
        location: u32,
        component: u32,
    },
    BuiltIn(BuiltIn),
    /// A producer output nobody reads: stores are dropped.
    Unused,
    /// A consumer input no producer writes where D3D allows it: loads read 0.
    ZeroFill,
}

/// One signature element and its placement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ElementPlacement {
    /// The signature element id (`loadInput`/`storeOutput` operand).
    pub id: u32,
    pub semantic_name: crate::dxil::SemanticName,
    pub semantic_indices: crate::dxil::SemanticIndices,
    /// `SV_*` name, empty for user semantics.
    pub system_value: &'static str,
    pub component_type: ComponentType,
    pub interpolation: InterpolationMode,
    pub rows: u32,
    pub cols: u8,
    /// The DXIL packing location (-1 = unplaced).
    pub start_row: i32,
    pub start_col: i8,
    /// GS output stream (0 elsewhere).
    pub stream: u32,
    pub placement: Placement,
    /// A mesh shader's per-primitive output, or the pixel input it feeds (`PerPrimitiveEXT`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub per_primitive: bool,
}

/// The placements of one stage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StagePlan {
    pub stage: Stage,
    pub entry: String,
    pub inputs: Vec<ElementPlacement>,
    pub outputs: Vec<ElementPlacement>,
    pub patch_constants: Vec<ElementPlacement>,
    /// Sizes of the merged `ClipDistance[]`/`CullDistance[]` arrays (0 = not declared).
    pub clip_distances_in: u32,
    pub cull_distances_in: u32,
    pub clip_distances_out: u32,
    pub cull_distances_out: u32,
}

impl StagePlan {
    fn find(v: &[ElementPlacement], id: u32) -> Option<&ElementPlacement> {
        v.iter().find(|e| e.id == id)
    }
    pub fn input(&self, id: u32) -> Option<&ElementPlacement> {
        Self::find(&self.inputs, id)
    }
    pub fn output(&self, id: u32) -> Option<&ElementPlacement> {
        Self::find(&self.outputs, id)
    }
    pub fn patch_constant(&self, id: u32) -> Option<&ElementPlacement> {
        Self::find(&self.patch_constants, id)
    }
    /// The first element of a signature with this semantic name (case-insensitive) and index.
    pub fn by_semantic(&self, sig: SignatureKind, name: &str, index: u32) -> Option<&ElementPlacement> {
        let v = match sig {
            SignatureKind::Input => &self.inputs,
            SignatureKind::Output => &self.outputs,
            SignatureKind::PatchConstant => &self.patch_constants,
        };
        v.iter().find(|e| e.semantic_name.eq_ignore_ascii_case(name) && e.semantic_indices.contains(&index))
    }
}

/// Hull → TCS/TES execution facts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TessellationPlan {
    /// `patchControlPoints` of the pipeline's tessellation state.
    pub input_control_points: u32,
    /// `OutputVertices`.
    pub output_control_points: u32,
    pub domain: TessDomain,
    pub partitioning: TessPartitioning,
    /// SPIR-V execution mode for the partitioning (pow2 → SpacingEqual, like integer).
    pub spacing: &'static str,
    pub output_primitive: TessOutputPrimitive,
    pub max_tess_factor: f32,
    pub patch_constant_function: Option<String>,
    /// Added to every patch-constant user element's start row; the same value
    /// is used for the hull's outputs and the domain's inputs.
    pub patch_constant_location_offset: u32,
}

/// Geometry-shader execution facts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeometryPlan {
    pub input_primitive: InputPrimitive,
    /// Vertices per input primitive (points 1, lines 2, lines-adj 4, triangles 3, triangles-adj 6).
    pub input_vertices: u32,
    pub max_vertex_count: u32,
    pub instance_count: u32,
    pub active_stream_mask: u32,
    pub output_topology: PrimitiveTopology,
    /// The stream that reaches the rasterizer (`None`: no rasterization).
    pub rasterized_stream: Option<u32>,
}

/// The linked interface of a whole pipeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LinkPlan {
    /// In pipeline order.
    pub stages: Vec<StagePlan>,
    /// One attribute per VS input row fed by the input layout.
    pub vertex_input: Vec<VertexAttribute>,
    pub tessellation: Option<TessellationPlan>,
    pub geometry: Option<GeometryPlan>,
    /// Stream output (transform feedback) of the last pre-rasterization stage, when requested.
    pub stream_output: Option<StreamOutputPlan>,
}

/// One `D3D12_SO_DECLARATION_ENTRY`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SoDeclaration {
    pub stream: u32,
    /// Empty: a gap of `component_count` components in the buffer (D3D's NULL semantic name).
    pub semantic_name: String,
    pub semantic_index: u32,
    /// First component of the semantic (0 = x), relative to the element.
    pub start_component: u32,
    pub component_count: u32,
    pub output_slot: u32,
}

/// `D3D12_STREAM_OUTPUT_DESC` without the buffers (the rasterized stream is
/// [`LinkOptions::rasterized_stream`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct StreamOutputDesc {
    pub entries: Vec<SoDeclaration>,
    /// Byte stride of each output slot.
    pub strides: Vec<u32>,
}

/// One captured element: the lowering decorates its output variable with
/// `XfbBuffer`/`XfbStride`/`Offset`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct XfbOutput {
    /// The output signature element id.
    pub element: u32,
    /// The element row the declaration's semantic index selects.
    pub row: u32,
    /// Captured components, relative to the element's first column.
    pub first_component: u32,
    pub components: u32,
    pub buffer: u32,
    pub offset: u32,
    pub stride: u32,
    pub stream: u32,
}

/// The resolved stream-output declarations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamOutputPlan {
    /// The stage whose outputs are captured (the last before the rasterizer).
    pub stage: Stage,
    pub outputs: Vec<XfbOutput>,
}

impl LinkPlan {
    pub fn stage(&self, s: Stage) -> Option<&StagePlan> {
        self.stages.iter().find(|p| p.stage == s)
    }

    /// The plan for compiling one shader alone: every element at its own
    /// register/column, unplaced elements at free Locations, system values as
    /// built-ins (VS/DS/GS outputs assumed to feed the rasterizer).
    /// Fails only on a system value that cannot appear in the signature it is in.
    pub fn single(io: &StageIo) -> Result<LinkPlan, LinkError> {
        if io.stage == Stage::Mesh {
            return mesh::single(io);
        }
        place::single(io)
    }

    /// [`LinkPlan::single`], moving the stage's element names into the plan
    /// instead of copying them.
    pub fn single_owned(io: StageIo) -> Result<LinkPlan, LinkError> {
        if io.stage == Stage::Mesh {
            return mesh::single(&io);
        }
        place::single_owned(io, None)
    }

    /// [`LinkPlan::single_owned`] with the patch constants of a hull or domain shader starting
    /// at Location `pc_location` (`None`: right after the control points), so that a hull and a
    /// domain shader compiled apart agree (the hull's offset, from its
    /// [`TessellationPlan::patch_constant_location_offset`], passed to the domain compile).
    pub fn single_owned_at(io: StageIo, pc_location: Option<u32>) -> Result<LinkPlan, LinkError> {
        if io.stage == Stage::Mesh {
            return mesh::single(&io);
        }
        place::single_owned(io, pc_location)
    }

    /// [`LinkPlan::single`] for a decoded module.
    pub fn single_module(info: &DxilModuleInfo, module: &Module) -> Result<LinkPlan, LinkError> {
        Self::single_owned(StageIo::from_module(info, module)?)
    }
}

/// Pipeline-wide options.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkOptions {
    pub input_layout: Option<InputLayout>,
    /// The GS stream sent to the rasterizer; `None` = D3D12_SO_NO_RASTERIZED_STREAM
    /// (the pixel shader is then not linked).
    pub rasterized_stream: Option<u32>,
    /// D3D12 stream output: the named outputs of the last pre-rasterization stage are kept
    /// (even when no later stage reads them) and captured by transform feedback.
    pub stream_output: Option<StreamOutputDesc>,
    /// `D3D12_GRAPHICS_PIPELINE_STATE_DESC::PrimitiveTopologyType` (a patch also carries the draw's
    /// control-point count, which the PSO does not and the rules ignore). `None`: not checked
    /// (the topology rules #668, #673 and #681 need it).
    pub topology: Option<TopologyType>,
}

impl Default for LinkOptions {
    fn default() -> Self {
        LinkOptions { input_layout: None, rasterized_stream: Some(0), stream_output: None, topology: None }
    }
}

/// `D3D12_PRIMITIVE_TOPOLOGY_TYPE`; a patch carries its control-point count
/// (`D3D_PRIMITIVE_TOPOLOGY_N_CONTROL_POINT_PATCHLIST`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TopologyType {
    Point,
    Line,
    Triangle,
    /// 1..=32 control points.
    Patch(u32),
}

impl TopologyType {
    /// `point`, `line`, `triangle`, `patchN` (also accepts the D3D12 names' lower-case tails and
    /// the list/strip topologies, which map to their type).
    pub fn parse(s: &str) -> Option<TopologyType> {
        let l = s.to_ascii_lowercase();
        let l = l.trim_start_matches("d3d12_primitive_topology_type_");
        if let Some(n) = l.strip_prefix("patch") {
            let n = n.trim_start_matches('_').trim_end_matches("_control_points");
            return match n.parse::<u32>() {
                Ok(n) if (1..=32).contains(&n) => Some(TopologyType::Patch(n)),
                _ => None,
            };
        }
        Some(match l {
            "point" | "point_list" => TopologyType::Point,
            "line" | "line_list" | "line_strip" | "line_list_adj" | "line_strip_adj" => TopologyType::Line,
            "triangle" | "triangle_list" | "triangle_strip" | "triangle_list_adj" | "triangle_strip_adj" => {
                TopologyType::Triangle
            }
            _ => return None,
        })
    }
}

impl std::fmt::Display for TopologyType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TopologyType::Point => f.write_str("POINT"),
            TopologyType::Line => f.write_str("LINE"),
            TopologyType::Triangle => f.write_str("TRIANGLE"),
            TopologyType::Patch(n) => write!(f, "PATCH ({n} control points)"),
        }
    }
}

/// The stages of a structurally valid pipeline, in order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pipeline<'a> {
    pub vs: &'a StageIo,
    pub hs: Option<&'a StageIo>,
    pub ds: Option<&'a StageIo>,
    pub gs: Option<&'a StageIo>,
    pub ps: Option<&'a StageIo>,
    pub rasterized_stream: Option<u32>,
}

impl<'a> Pipeline<'a> {
    /// The last stage before the rasterizer.
    pub fn last_pre_raster(&self) -> &'a StageIo {
        self.gs.or(self.ds).unwrap_or(self.vs)
    }

    /// Every boundary, in pipeline order. The pixel shader is not linked when nothing is rasterized.
    pub fn boundaries(&self) -> Vec<Boundary<'a>> {
        let mut out = Vec::new();
        let mut prev = self.vs;
        if let (Some(hs), Some(ds)) = (self.hs, self.ds) {
            out.push(Boundary { producer: prev, consumer: hs, kind: BoundaryKind::Varying, stream: None });
            out.push(Boundary { producer: hs, consumer: ds, kind: BoundaryKind::ControlPoint, stream: None });
            out.push(Boundary { producer: hs, consumer: ds, kind: BoundaryKind::PatchConstant, stream: None });
            prev = ds;
        }
        if let Some(gs) = self.gs {
            out.push(Boundary { producer: prev, consumer: gs, kind: BoundaryKind::Varying, stream: None });
            prev = gs;
        }
        if let Some(ps) = self.ps {
            if prev.stage != Stage::Geometry {
                out.push(Boundary { producer: prev, consumer: ps, kind: BoundaryKind::Varying, stream: None });
            } else if self.rasterized_stream.is_some() {
                // Only stream 0 is matched against the pixel shader, whichever stream is rasterized.
                out.push(Boundary { producer: prev, consumer: ps, kind: BoundaryKind::Varying, stream: Some(0) });
            }
        }
        out
    }
}

/// Validates and links the stages of one graphics pipeline (any order).
pub fn link(stages: &[StageIo], options: &LinkOptions) -> Result<LinkPlan, LinkError> {
    if stages.iter().any(|s| matches!(s.stage, Stage::Mesh | Stage::Amplification)) {
        return mesh::link(stages);
    }
    let mut rejections = Vec::new();
    if validate::structure(stages, &mut rejections).is_none() || !rejections.is_empty() {
        return Err(LinkError::Rejected(rejections));
    }
    let get = |s: Stage| stages.iter().find(|x| x.stage == s);
    let Some(vs) = get(Stage::Vertex) else {
        return Err(LinkError::Rejected(rejections));
    };
    let p = Pipeline {
        vs,
        hs: get(Stage::Hull),
        ds: get(Stage::Domain),
        gs: get(Stage::Geometry),
        ps: get(Stage::Pixel),
        rasterized_stream: options.rasterized_stream,
    };
    let mut rejections = Vec::new();
    validate::topology(&p, options.topology, &mut rejections);
    rejections.extend(validate::pipeline(&p, options.input_layout.as_ref()));
    if !rejections.is_empty() {
        return Err(LinkError::Rejected(rejections));
    }
    place::pipeline(&p, options.input_layout.as_ref(), options.stream_output.as_ref())
}

/// [`link`] for decoded modules (stages identified by their shader kind).
pub fn link_modules(modules: &[(&DxilModuleInfo, &Module)], options: &LinkOptions) -> Result<LinkPlan, LinkError> {
    let stages = modules.iter().map(|(i, m)| StageIo::from_module(i, m)).collect::<Result<Vec<_>, _>>()?;
    link(&stages, options)
}

/// Vertices per GS input primitive.
pub fn input_vertices(p: InputPrimitive) -> u32 {
    match p {
        InputPrimitive::Point => 1,
        InputPrimitive::Line => 2,
        InputPrimitive::Triangle => 3,
        InputPrimitive::LineWithAdjacency => 4,
        InputPrimitive::TriangleWithAdjacency => 6,
        InputPrimitive::ControlPointPatch(n) => u32::from(n),
        InputPrimitive::Undefined => 0,
    }
}

/// Element helper shared by placement (copies the element's name and indices).
pub(crate) fn element_placement(e: &SignatureElement, placement: Placement) -> ElementPlacement {
    element_placement_owned(e.clone(), placement)
}

/// The placement of element `e`, taking its name and indices.
pub(crate) fn element_placement_owned(e: SignatureElement, placement: Placement) -> ElementPlacement {
    ElementPlacement {
        id: e.id,
        system_value: e.system_value_name(),
        component_type: e.component_type,
        interpolation: e.interpolation,
        rows: e.rows,
        cols: e.cols,
        start_row: e.start_row,
        start_col: e.start_col,
        stream: e.stream(),
        semantic_name: e.semantic_name,
        semantic_indices: e.semantic_indices,
        placement,
        per_primitive: false,
    }
}
