//! Entry-point properties: the tag/value list in an entry point's fifth
//! operand (shader flags, numthreads, GS/HS/DS/MS/AS state, wave size, …).

use super::enums::{dxil_enum, read_enum};
use super::reader::{arity, Field, Op, Reader};
use super::DxilError;
use crate::ir::FuncId;
use crate::ShaderKind;
use serde::Serialize;
use std::fmt::Display;

/// Shader-property tags.
pub mod tags {
    pub const SHADER_FLAGS: u32 = 0;
    pub const GS_STATE: u32 = 1;
    pub const DS_STATE: u32 = 2;
    pub const HS_STATE: u32 = 3;
    pub const NUM_THREADS: u32 = 4;
    pub const AUTO_BINDING_SPACE: u32 = 5;
    pub const RAY_PAYLOAD_SIZE: u32 = 6;
    pub const RAY_ATTRIB_SIZE: u32 = 7;
    pub const SHADER_KIND: u32 = 8;
    pub const MS_STATE: u32 = 9;
    pub const AS_STATE: u32 = 10;
    pub const WAVE_SIZE: u32 = 11;
    pub const ENTRY_ROOT_SIG: u32 = 12;
    pub const NODE_LAUNCH_TYPE: u32 = 13;
    pub const NODE_IS_PROGRAM_ENTRY: u32 = 14;
    pub const NODE_ID: u32 = 15;
    pub const NODE_LOCAL_ROOT_ARGUMENTS_TABLE_INDEX: u32 = 16;
    pub const NODE_SHARE_INPUT_OF: u32 = 17;
    pub const NODE_DISPATCH_GRID: u32 = 18;
    pub const NODE_MAX_RECURSION_DEPTH: u32 = 19;
    pub const NODE_INPUTS: u32 = 20;
    pub const NODE_OUTPUTS: u32 = 21;
    pub const NODE_MAX_DISPATCH_GRID: u32 = 22;
    pub const RANGED_WAVE_SIZE: u32 = 23;

    /// A readable name for a tag (used for `other` entries).
    pub fn name(tag: u32) -> &'static str {
        match tag {
            SHADER_FLAGS => "shader_flags",
            GS_STATE => "gs_state",
            DS_STATE => "ds_state",
            HS_STATE => "hs_state",
            NUM_THREADS => "num_threads",
            AUTO_BINDING_SPACE => "auto_binding_space",
            RAY_PAYLOAD_SIZE => "ray_payload_size",
            RAY_ATTRIB_SIZE => "ray_attrib_size",
            SHADER_KIND => "shader_kind",
            MS_STATE => "ms_state",
            AS_STATE => "as_state",
            WAVE_SIZE => "wave_size",
            ENTRY_ROOT_SIG => "entry_root_sig",
            NODE_LAUNCH_TYPE => "node_launch_type",
            NODE_IS_PROGRAM_ENTRY => "node_is_program_entry",
            NODE_ID => "node_id",
            NODE_LOCAL_ROOT_ARGUMENTS_TABLE_INDEX => "node_local_root_arguments_table_index",
            NODE_SHARE_INPUT_OF => "node_share_input_of",
            NODE_DISPATCH_GRID => "node_dispatch_grid",
            NODE_MAX_RECURSION_DEPTH => "node_max_recursion_depth",
            NODE_INPUTS => "node_inputs",
            NODE_OUTPUTS => "node_outputs",
            NODE_MAX_DISPATCH_GRID => "node_max_dispatch_grid",
            RANGED_WAVE_SIZE => "ranged_wave_size",
            _ => "unknown",
        }
    }
}

/// `DXIL::InputPrimitive` (GS input primitive; patches for tessellation).
/// Serialized as its display name (`"triangle"`, `"patch3"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputPrimitive {
    Undefined,
    Point,
    Line,
    Triangle,
    LineWithAdjacency,
    TriangleWithAdjacency,
    /// A patch of 1..=32 control points (DXIL 8..=39).
    ControlPointPatch(u8),
}

impl InputPrimitive {
    pub fn from_u32(v: u32) -> Option<Self> {
        use InputPrimitive::*;
        Some(match v {
            0 => Undefined,
            1 => Point,
            2 => Line,
            3 => Triangle,
            6 => LineWithAdjacency,
            7 => TriangleWithAdjacency,
            8..=39 => ControlPointPatch((v - 7) as u8),
            _ => return None,
        })
    }
    pub fn to_u32(self) -> u32 {
        use InputPrimitive::*;
        match self {
            Undefined => 0,
            Point => 1,
            Line => 2,
            Triangle => 3,
            LineWithAdjacency => 6,
            TriangleWithAdjacency => 7,
            ControlPointPatch(n) => 7 + u32::from(n),
        }
    }
}

impl Serialize for InputPrimitive {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl std::fmt::Display for InputPrimitive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use InputPrimitive::*;
        match self {
            Undefined => f.write_str("undefined"),
            Point => f.write_str("point"),
            Line => f.write_str("line"),
            Triangle => f.write_str("triangle"),
            LineWithAdjacency => f.write_str("lineadj"),
            TriangleWithAdjacency => f.write_str("triangleadj"),
            ControlPointPatch(n) => write!(f, "patch{n}"),
        }
    }
}

dxil_enum! {
    /// `DXIL::PrimitiveTopology` (GS output stream topology).
    PrimitiveTopology {
        Undefined = 0 => "undefined",
        PointList = 1 => "point_list",
        LineList = 2 => "line_list",
        LineStrip = 3 => "line_strip",
        TriangleList = 4 => "triangle_list",
        TriangleStrip = 5 => "triangle_strip",
    }
}

dxil_enum! {
    /// `DXIL::TessellatorDomain`.
    TessDomain {
        Undefined = 0 => "undefined",
        IsoLine = 1 => "isoline",
        Tri = 2 => "tri",
        Quad = 3 => "quad",
    }
}

dxil_enum! {
    /// `DXIL::TessellatorPartitioning`.
    TessPartitioning {
        Undefined = 0 => "undefined",
        Integer = 1 => "integer",
        Pow2 = 2 => "pow2",
        FractionalOdd = 3 => "fractional_odd",
        FractionalEven = 4 => "fractional_even",
    }
}

dxil_enum! {
    /// `DXIL::TessellatorOutputPrimitive`.
    TessOutputPrimitive {
        Undefined = 0 => "undefined",
        Point = 1 => "point",
        Line = 2 => "line",
        TriangleCW = 3 => "triangle_cw",
        TriangleCCW = 4 => "triangle_ccw",
    }
}

dxil_enum! {
    /// `DXIL::MeshOutputTopology`.
    MeshOutputTopology {
        Undefined = 0 => "undefined",
        Line = 1 => "line",
        Triangle = 2 => "triangle",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GsState {
    pub input_primitive: InputPrimitive,
    pub max_vertex_count: u32,
    pub active_stream_mask: u32,
    pub stream_primitive_topology: PrimitiveTopology,
    pub instance_count: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HsState {
    pub patch_constant_function: Option<FuncId>,
    pub input_control_points: u32,
    pub output_control_points: u32,
    pub domain: TessDomain,
    pub partitioning: TessPartitioning,
    pub output_primitive: TessOutputPrimitive,
    pub max_tess_factor: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DsState {
    pub domain: TessDomain,
    pub input_control_points: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MsState {
    pub num_threads: [u32; 3],
    pub max_vertex_count: u32,
    pub max_primitive_count: u32,
    pub output_topology: MeshOutputTopology,
    pub payload_size_in_bytes: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AsState {
    pub num_threads: [u32; 3],
    pub payload_size_in_bytes: u32,
}

/// `[WaveSize]`: the SM 6.6 single size (`max`/`preferred` `None`) or the
/// SM 6.8 range form (zeros in the metadata read as `None`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WaveSize {
    pub min: u32,
    pub max: Option<u32>,
    pub preferred: Option<u32>,
}

/// A property this decoder does not interpret (node properties, root
/// signatures, future tags): the tag, its name, and the value rendered.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OtherProperty {
    pub tag: u32,
    pub name: &'static str,
    pub value: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ShaderProperties {
    pub flags: Option<u64>,
    pub num_threads: Option<[u32; 3]>,
    pub gs: Option<GsState>,
    pub hs: Option<HsState>,
    pub ds: Option<DsState>,
    pub ms: Option<MsState>,
    #[serde(rename = "as")]
    pub amp: Option<AsState>,
    pub wave_size: Option<WaveSize>,
    /// The kind of a library export (ray-tracing stage, node, …).
    pub shader_kind: Option<ShaderKind>,
    pub auto_binding_space: Option<u32>,
    pub ray_payload_size: Option<u32>,
    pub ray_attrib_size: Option<u32>,
    pub other: Vec<OtherProperty>,
}

impl ShaderProperties {
    /// The workgroup size from numthreads, or from the MS/AS state.
    pub fn workgroup_size(&self) -> Option<[u32; 3]> {
        self.num_threads.or(self.ms.as_ref().map(|m| m.num_threads)).or(self.amp.as_ref().map(|a| a.num_threads))
    }
    /// The tessellator domain of a hull or domain shader.
    pub fn tess_domain(&self) -> Option<TessDomain> {
        self.hs.as_ref().map(|h| h.domain).or(self.ds.as_ref().map(|d| d.domain))
    }
}

pub(crate) fn decode_properties(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<ShaderProperties, DxilError> {
    let mut p = ShaderProperties::default();
    let mut seen = 0u32;
    for (tag, v) in r.tags(r.tag_pairs(op, what)?) {
        let w = Field(what, tags::name(tag));
        if tag <= tags::RANGED_WAVE_SIZE {
            let bit = 1u32 << tag;
            if seen & bit != 0 {
                return Err(DxilError::DuplicateTag { what: what.to_string(), tag });
            }
            seen |= bit;
        }
        match tag {
            tags::SHADER_FLAGS => p.flags = Some(r.uint(v, &w)?),
            tags::NUM_THREADS => p.num_threads = Some(xyz(r, v, &w)?),
            tags::GS_STATE => p.gs = Some(gs_state(r, v, &w)?),
            tags::HS_STATE => p.hs = Some(hs_state(r, v, &w)?),
            tags::DS_STATE => {
                let f = r.node(v, &w)?;
                arity(f, 2, &w)?;
                p.ds = Some(DsState {
                    domain: read_enum(
                        r,
                        f[0],
                        &format_args!("{w}.domain"),
                        "tessellator domain",
                        TessDomain::from_u32,
                    )?,
                    input_control_points: r.u32(f[1], &format_args!("{w}.input_control_points"))?,
                });
            }
            tags::MS_STATE => {
                let f = r.node(v, &w)?;
                arity(f, 5, &w)?;
                p.ms = Some(MsState {
                    num_threads: xyz(r, f[0], &format_args!("{w}.num_threads"))?,
                    max_vertex_count: r.u32(f[1], &format_args!("{w}.max_vertex_count"))?,
                    max_primitive_count: r.u32(f[2], &format_args!("{w}.max_primitive_count"))?,
                    output_topology: read_enum(
                        r,
                        f[3],
                        &format_args!("{w}.output_topology"),
                        "mesh output topology",
                        MeshOutputTopology::from_u32,
                    )?,
                    payload_size_in_bytes: r.u32(f[4], &format_args!("{w}.payload_size_in_bytes"))?,
                });
            }
            tags::AS_STATE => {
                let f = r.node(v, &w)?;
                arity(f, 2, &w)?;
                p.amp = Some(AsState {
                    num_threads: xyz(r, f[0], &format_args!("{w}.num_threads"))?,
                    payload_size_in_bytes: r.u32(f[1], &format_args!("{w}.payload_size_in_bytes"))?,
                });
            }
            tags::WAVE_SIZE => p.wave_size = Some(WaveSize { min: scalar(r, v, &w)?, max: None, preferred: None }),
            tags::RANGED_WAVE_SIZE => {
                let f = r.node(v, &w)?;
                arity(f, 3, &w)?;
                let nz = |x: u32| (x != 0).then_some(x);
                p.wave_size = Some(WaveSize {
                    min: r.u32(f[0], &format_args!("{w}.min"))?,
                    max: nz(r.u32(f[1], &format_args!("{w}.max"))?),
                    preferred: nz(r.u32(f[2], &format_args!("{w}.preferred"))?),
                });
            }
            tags::SHADER_KIND => p.shader_kind = Some(read_enum(r, v, &w, "shader kind", ShaderKind::from_u32)?),
            tags::AUTO_BINDING_SPACE => p.auto_binding_space = Some(scalar(r, v, &w)?),
            tags::RAY_PAYLOAD_SIZE => p.ray_payload_size = Some(scalar(r, v, &w)?),
            tags::RAY_ATTRIB_SIZE => p.ray_attrib_size = Some(scalar(r, v, &w)?),
            _ => p.other.push(OtherProperty { tag, name: tags::name(tag), value: r.render(v) }),
        }
    }
    Ok(p)
}

/// A `u32` written either as a constant or, as DXC does for the wave size
/// and auto-binding space, as a one-operand tuple `!{i32 n}`.
fn scalar(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<u32, DxilError> {
    if let Ok(Some(f)) = r.opt_node(op, what) {
        arity(f, 1, what)?;
        return r.u32(f[0], &format_args!("{what}[0]"));
    }
    r.u32(op, what)
}

fn xyz(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<[u32; 3], DxilError> {
    let f = r.node(op, what)?;
    arity(f, 3, what)?;
    Ok([
        r.u32(f[0], &format_args!("{what}.x"))?,
        r.u32(f[1], &format_args!("{what}.y"))?,
        r.u32(f[2], &format_args!("{what}.z"))?,
    ])
}

fn gs_state(r: &Reader<'_>, op: Op, w: &dyn Display) -> Result<GsState, DxilError> {
    let f = r.node(op, w)?;
    arity(f, 5, w)?;
    Ok(GsState {
        input_primitive: read_enum(
            r,
            f[0],
            &format_args!("{w}.input_primitive"),
            "input primitive",
            InputPrimitive::from_u32,
        )?,
        max_vertex_count: r.u32(f[1], &format_args!("{w}.max_vertex_count"))?,
        active_stream_mask: r.u32(f[2], &format_args!("{w}.active_stream_mask"))?,
        stream_primitive_topology: read_enum(
            r,
            f[3],
            &format_args!("{w}.stream_primitive_topology"),
            "primitive topology",
            PrimitiveTopology::from_u32,
        )?,
        instance_count: r.u32(f[4], &format_args!("{w}.instance_count"))?,
    })
}

fn hs_state(r: &Reader<'_>, op: Op, w: &dyn Display) -> Result<HsState, DxilError> {
    let f = r.node(op, w)?;
    arity(f, 7, w)?;
    Ok(HsState {
        patch_constant_function: r.function(f[0], &format_args!("{w}.patch_constant_function"))?,
        input_control_points: r.u32(f[1], &format_args!("{w}.input_control_points"))?,
        output_control_points: r.u32(f[2], &format_args!("{w}.output_control_points"))?,
        domain: read_enum(r, f[3], &format_args!("{w}.domain"), "tessellator domain", TessDomain::from_u32)?,
        partitioning: read_enum(
            r,
            f[4],
            &format_args!("{w}.partitioning"),
            "tessellator partitioning",
            TessPartitioning::from_u32,
        )?,
        output_primitive: read_enum(
            r,
            f[5],
            &format_args!("{w}.output_primitive"),
            "tessellator output primitive",
            TessOutputPrimitive::from_u32,
        )?,
        max_tess_factor: r.float(f[6], &format_args!("{w}.max_tess_factor"))?,
    })
}
