//! Pipeline specs (`[pipeline]`, format in conformance/SPECS.md): the stages, fixed-function state and
//! the expected outcome — rejected by the PSO-time linker with a named rule, or drawn and probed.
//! Parsed and checked here, so running one meets only linker, compiler and device problems.

use super::backend::{CompareOp, Format};
use super::data::{parse_data, parse_piece, Elem, Piece, Tolerance};
use super::error::SpecError;
use super::gfx::{
    Clear, Cull, DepthDesc, DepthFormat, DrawParams, Indices, RasterDesc, Retype, SoEntry, StageSlot, StreamOutput,
    Topology, VertexBufferData,
};
use dxjit::dxil::ComponentType;
use dxjit::link::{InputElement, Rule, SignatureKind, Stage};
use serde::Deserialize;
use toml::{Table, Value};

/// One stage of a pipeline spec.
#[derive(Debug, Clone, PartialEq)]
pub struct StageSpec {
    pub slot: StageSlot,
    /// `fixtures/…` or a corpus path, like a compute spec's `shader`.
    pub shader: String,
    /// Link-only signature overrides (stand-ins for blobs the corpus lacks).
    pub retype: Vec<Retype>,
}

/// A colour target.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetSpec {
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    pub clear: Clear,
    /// Texels no probe covers must keep the clear value.
    pub rest_clear: bool,
    /// Samples per pixel (`DXGI_SAMPLE_DESC::Count`, quality 0 = the standard pattern); a
    /// multisampled target is resolved (average for float/unorm formats, sample 0 for integer
    /// formats) before it is probed.
    pub samples: u32,
}

/// What a probe reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeTarget {
    Color(u32),
    Depth,
    Stencil,
}

/// `[[probe]]`: every texel of a rectangle of one layer equals one value.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    pub target: ProbeTarget,
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    pub layer: u32,
    /// One texel.
    pub value: Piece,
    pub tol: Tolerance,
    /// A known defect of a named device: on a device whose name contains
    /// `device` (case-insensitive) the listed texel components are not
    /// compared. The reason (`why`) is required and stays with the spec.
    pub device_defect: Option<DeviceDefect>,
    /// Texel components that are not compared on any device (`dont_care = "zw"`): components the
    /// shader never writes, whose value D3D12 leaves undefined.
    pub dont_care: Vec<usize>,
}

/// See [`Probe::device_defect`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceDefect {
    pub device: String,
    pub components: Vec<usize>,
    pub why: String,
}

/// `[[capture]]`: bytes of a stream-output buffer.
#[derive(Debug, Clone, PartialEq)]
pub struct Capture {
    pub buffer: u32,
    pub at: usize,
    pub value: Piece,
    pub tol: Tolerance,
}

/// The rejection a spec expects (every given field must match one rejection of the error).
#[derive(Debug, Clone, PartialEq)]
pub struct RejectSpec {
    pub rule: Rule,
    pub stage: Option<Stage>,
    /// `COLOR0`, `SV_Position`, `TEXCOORD1` (case-insensitive; index 0 may be left out).
    pub semantic: Option<String>,
    pub register: Option<u32>,
    /// Exact number of rejections in the error.
    pub count: Option<usize>,
    /// `[[one_of]]`: named alternatives, any of which passes the spec (D3D12 versions that
    /// differ). Non-empty: this spec's own fields are those of the first rejecting alternative
    /// (for reports) and matching uses the alternatives.
    pub one_of: Vec<Alternative>,
}

/// One named outcome of a `[[one_of]]` list.
#[derive(Debug, Clone, PartialEq)]
pub struct Alternative {
    pub name: String,
    /// `None`: the pipeline links (`expect = "pass"` in the alternative).
    pub reject: Option<RejectSpec>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PipelineExpect {
    Rejected(RejectSpec),
    Drawn { probes: Vec<Probe>, captures: Vec<Capture> },
}

/// A parsed `[pipeline]` with its expectations.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineSpec {
    /// In pipeline order.
    pub stages: Vec<StageSpec>,
    pub input_layout: Vec<InputElement>,
    pub vertex_buffers: Vec<VertexBufferData>,
    pub indices: Option<Indices>,
    pub topology: Topology,
    pub draw: DrawParams,
    pub targets: Vec<TargetSpec>,
    pub depth: Option<DepthDesc>,
    pub rasterizer: RasterDesc,
    pub rasterized_stream: Option<u32>,
    pub stream_output: Option<StreamOutput>,
    pub layered: bool,
    /// Mesh pipelines: `DispatchMesh(x, y, z)` (`vkCmdDrawMeshTasksEXT`) instead of a draw.
    pub dispatch_mesh: Option<[u32; 3]>,
    /// `SampleMask` of the PSO.
    pub sample_mask: u32,
    /// `[[reference]]` images a drawn spec's targets must match.
    pub references: Vec<ReferenceImage>,
    /// `[[statistic]]`: pipeline-statistics counters of the draw.
    pub statistics: Vec<StatisticExpect>,
    pub expect: PipelineExpect,
}

/// `[[statistic]]`: a pipeline-statistics counter of the draw must be `value`, or lie in
/// `min..=max` (where the API lets implementations count more or less than the rules give).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatisticExpect {
    pub counter: super::gfx::Counter,
    pub min: u64,
    pub max: Option<u64>,
}

impl StatisticExpect {
    pub fn check(&self, got: u64) -> Result<(), String> {
        let name = self.counter.name();
        match self.max {
            Some(max) if max == self.min && got != max => Err(format!("statistic {name}: expected {max}, got {got}")),
            Some(max) if got < self.min || got > max => {
                Err(format!("statistic {name}: expected {}..={max}, got {got}", self.min))
            }
            None if got < self.min => Err(format!("statistic {name}: expected at least {}, got {got}", self.min)),
            _ => Ok(()),
        }
    }
}

/// Parses one `[[statistic]]`: `counter`, and `value` or `min`/`max`; `why` (free text) is kept
/// in the file only.
fn parse_statistic(t: &Table, ctx: &str) -> Result<StatisticExpect, SpecError> {
    if let Some(k) = t.keys().find(|k| !["counter", "value", "min", "max", "why"].contains(&k.as_str())) {
        return Err(SpecError::new(ctx, format!("unexpected key `{k}`")));
    }
    let name = t.get("counter").and_then(Value::as_str).ok_or_else(|| SpecError::new(ctx, "needs `counter`"))?;
    let counter = super::gfx::Counter::parse(name).ok_or_else(|| {
        let all: Vec<&str> = super::gfx::Counter::ALL.iter().map(|c| c.name()).collect();
        SpecError::new(ctx, format!("counter `{name}`: one of {}", all.join(", ")))
    })?;
    let num = |k: &str| -> Result<Option<u64>, SpecError> {
        match t.get(k) {
            None => Ok(None),
            Some(v) => match v.as_integer() {
                Some(n) if n >= 0 => Ok(Some(n as u64)),
                _ => Err(SpecError::new(ctx, format!("`{k}` must be an unsigned integer"))),
            },
        }
    };
    let (value, min, max) = (num("value")?, num("min")?, num("max")?);
    match (value, min, max) {
        (Some(v), None, None) => Ok(StatisticExpect { counter, min: v, max: Some(v) }),
        (Some(_), _, _) => Err(SpecError::new(ctx, "`value` or `min`/`max`, not both")),
        (None, None, None) => Err(SpecError::new(ctx, "needs `value`, `min` or `max`")),
        (None, lo, hi) => {
            let lo = lo.unwrap_or(0);
            if hi.is_some_and(|h| h < lo) {
                return Err(SpecError::new(ctx, "`max` is below `min`"));
            }
            Ok(StatisticExpect { counter, min: lo, max: hi })
        }
    }
}

/// `[[reference]]`: a colour target (one layer), shown as 8-bit RGBA (see
/// [`super::image::texel_rgba8`]), must match a PNG within `tolerance` per channel.
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceImage {
    pub target: u32,
    pub layer: u32,
    /// Resolved path of the PNG.
    pub png: std::path::PathBuf,
    /// Largest allowed |expected - got| per 8-bit channel.
    pub tolerance: u8,
    /// The decoded picture.
    pub image: super::image::Rgba8,
}

impl PipelineSpec {
    pub fn stage(&self, slot: StageSlot) -> Option<&StageSpec> {
        self.stages.iter().find(|s| s.slot == slot)
    }

    pub fn is_rejection(&self) -> bool {
        matches!(self.expect, PipelineExpect::Rejected(_))
    }

    /// Whether the pipeline has hull/domain stages.
    pub fn is_tessellation(&self) -> bool {
        self.stage(StageSlot::Hs).is_some()
    }

    /// `vs=… + ps=…`, for reports.
    pub fn label(&self) -> String {
        self.stages.iter().map(|s| format!("{}={}", s.slot.key(), s.shader)).collect::<Vec<_>>().join(" + ")
    }
}

/// Every rule a spec may name.
pub const RULES: [Rule; 17] = [
    Rule::SemanticNotFound,
    Rule::RegisterIndexMismatch,
    Rule::RegisterMaskMismatch,
    Rule::ComponentTypeMismatch,
    Rule::SystemValueMustComeFromProducer,
    Rule::HullOutputNotConsumed,
    Rule::HullDomainMaskMismatch,
    Rule::PatchConstantMismatch,
    Rule::InputLayoutSemanticMissing,
    Rule::TessDomainMismatch,
    Rule::ControlPointCountMismatch,
    Rule::InvalidStageCombination,
    Rule::MeshPayloadMismatch,
    Rule::GsInputPrimitiveMismatch,
    Rule::HullInputTopologyMismatch,
    Rule::InvalidPrimitiveTopology,
    Rule::GsStreamsNotRasterizable,
];

fn parse_rule(s: &str, ctx: &str) -> Result<Rule, SpecError> {
    RULES.into_iter().find(|r| format!("{r:?}") == s).ok_or_else(|| {
        let names: Vec<String> = RULES.iter().map(|r| format!("{r:?}")).collect();
        SpecError::new(ctx, format!("unknown rule `{s}` (known: {})", names.join(", ")))
    })
}

/// `[[reference]]`: `png` (relative to the spec file), `target` (0), `layer` (0), `tolerance` (0).
fn parse_reference(
    t: &Table,
    targets: &[TargetSpec],
    dir: &std::path::Path,
    ctx: &str,
) -> Result<ReferenceImage, SpecError> {
    for k in t.keys() {
        if !["png", "target", "layer", "tolerance"].contains(&k.as_str()) {
            return Err(SpecError::new(ctx, format!("unknown key `{k}`")));
        }
    }
    let rel = t.get("png").and_then(Value::as_str).ok_or_else(|| SpecError::new(ctx, "needs `png` (a file name)"))?;
    let target = get_u32(t, "target", Some(0), ctx)?;
    let layer = get_u32(t, "layer", Some(0), ctx)?;
    let tolerance = get_u32(t, "tolerance", Some(0), ctx)?;
    let tolerance = u8::try_from(tolerance).map_err(|_| SpecError::new(ctx, "`tolerance` is 0..=255"))?;
    let tg = targets.get(target as usize).ok_or_else(|| SpecError::new(ctx, format!("no target {target}")))?;
    if layer >= tg.layers {
        return Err(SpecError::new(ctx, format!("target {target} has {} layer(s)", tg.layers)));
    }
    let png = dir.join(rel);
    let image = super::image::read_png(&png).map_err(|e| SpecError::new(ctx, format!("{}: {e}", png.display())))?;
    if (image.width, image.height) != (tg.width, tg.height) {
        return Err(SpecError::new(
            ctx,
            format!("the image is {}x{}, target {target} is {}x{}", image.width, image.height, tg.width, tg.height),
        ));
    }
    Ok(ReferenceImage { target, layer, png, tolerance, image })
}

/// `[[one_of]]`: `name` (required, unique), `expect` (`"rejected"` default, or `"pass"`: the
/// pipeline links), and for rejections `rule` plus the optional `stage`, `semantic`, `register`,
/// `rejections`.
fn parse_alternatives(list: &[Table]) -> Result<Vec<Alternative>, SpecError> {
    let mut out: Vec<Alternative> = Vec::new();
    for (i, t) in list.iter().enumerate() {
        let ctx = format!("one_of[{i}]");
        for k in t.keys() {
            if !["name", "expect", "rule", "stage", "semantic", "register", "rejections"].contains(&k.as_str()) {
                return Err(SpecError::new(&ctx, format!("unknown key `{k}`")));
            }
        }
        let name = t
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.trim().is_empty())
            .ok_or_else(|| SpecError::new(&ctx, "each alternative has a `name`"))?
            .to_string();
        if out.iter().any(|a| a.name == name) {
            return Err(SpecError::new(&ctx, format!("two alternatives are named `{name}`")));
        }
        let s = |k: &str| t.get(k).and_then(Value::as_str).map(str::to_string);
        let reject = match s("expect").as_deref() {
            Some("pass") => {
                if t.len() > 2 {
                    return Err(SpecError::new(&ctx, "an `expect = \"pass\"` alternative has only `name`"));
                }
                None
            }
            None | Some("rejected") => {
                let rule = s("rule").ok_or_else(|| SpecError::new(&ctx, "a rejection alternative names its `rule`"))?;
                let count = match t.get("rejections") {
                    None => None,
                    Some(v) => Some(
                        v.as_integer()
                            .and_then(|n| usize::try_from(n).ok())
                            .ok_or_else(|| SpecError::new(&ctx, "`rejections` is a count"))?,
                    ),
                };
                let register = match t.get("register") {
                    None => None,
                    Some(v) => Some(
                        v.as_integer()
                            .and_then(|n| u32::try_from(n).ok())
                            .ok_or_else(|| SpecError::new(&ctx, "`register` is a number"))?,
                    ),
                };
                Some(RejectSpec {
                    rule: parse_rule(&rule, &ctx)?,
                    stage: s("stage").as_deref().map(|x| parse_stage(x, &ctx)).transpose()?,
                    semantic: s("semantic"),
                    register,
                    count,
                    one_of: Vec::new(),
                })
            }
            Some(o) => return Err(SpecError::new(&ctx, format!("expect `{o}`: \"rejected\" or \"pass\""))),
        };
        out.push(Alternative { name, reject });
    }
    Ok(out)
}

fn parse_stage(s: &str, ctx: &str) -> Result<Stage, SpecError> {
    let slot = StageSlot::ALL.into_iter().find(|k| {
        let l = s.to_ascii_lowercase();
        k.key() == l || k.manifest_stage() == l
    });
    slot.map(StageSlot::linker_stage).ok_or_else(|| {
        SpecError::new(
            ctx,
            format!(
                "unknown stage `{s}` (vs/vertex, hs/hull, ds/domain, gs/geometry, as/amplification, ms/mesh, ps/pixel)"
            ),
        )
    })
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawStage {
    Path(String),
    Full {
        shader: String,
        #[serde(default)]
        retype: Vec<RawRetype>,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRetype {
    /// `output` (default), `input` or `patch_constant`.
    signature: Option<String>,
    semantic: String,
    #[serde(default)]
    index: u32,
    #[serde(rename = "type")]
    ty: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInput {
    semantic: String,
    #[serde(default)]
    index: u32,
    format: String,
    #[serde(default)]
    slot: u32,
    /// Byte offset; absent = D3D12_APPEND_ALIGNED_ELEMENT.
    offset: Option<u32>,
    #[serde(default)]
    per_instance: bool,
    step_rate: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVertexBuffer {
    #[serde(default)]
    slot: u32,
    stride: u32,
    data: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDraw {
    count: u32,
    #[serde(default = "one")]
    instances: u32,
    #[serde(default)]
    first: u32,
    #[serde(default)]
    base_vertex: i32,
    #[serde(default)]
    first_instance: u32,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTarget {
    format: String,
    width: u32,
    height: u32,
    #[serde(default = "one")]
    layers: u32,
    clear: Option<Vec<Value>>,
    rest: Option<String>,
    #[serde(default = "one")]
    samples: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDepth {
    format: String,
    #[serde(default = "one_f")]
    clear: f32,
    #[serde(default)]
    clear_stencil: u8,
    #[serde(default = "yes")]
    test: bool,
    #[serde(default = "yes")]
    write: bool,
    func: Option<String>,
}

fn one_f() -> f32 {
    1.0
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRaster {
    cull: Option<String>,
    #[serde(default)]
    front_ccw: bool,
    fill: Option<String>,
    #[serde(default = "yes")]
    depth_clip: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSo {
    #[serde(default)]
    stream: u32,
    semantic: String,
    #[serde(default)]
    index: u32,
    #[serde(default)]
    start_component: u32,
    component_count: u32,
    #[serde(default)]
    slot: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPipeline {
    vs: Option<RawStage>,
    hs: Option<RawStage>,
    ds: Option<RawStage>,
    gs: Option<RawStage>,
    #[serde(rename = "as")]
    amp: Option<RawStage>,
    ms: Option<RawStage>,
    ps: Option<RawStage>,
    dispatch_mesh: Option<[u32; 3]>,
    #[serde(default)]
    input: Vec<RawInput>,
    #[serde(default)]
    vertex_buffer: Vec<RawVertexBuffer>,
    index_buffer: Option<Value>,
    topology: Option<String>,
    control_points: Option<u32>,
    draw: Option<RawDraw>,
    #[serde(default)]
    target: Vec<RawTarget>,
    depth: Option<RawDepth>,
    rasterizer: Option<RawRaster>,
    rasterized_stream: Option<Value>,
    #[serde(default)]
    stream_output: Vec<RawSo>,
    #[serde(default)]
    so_strides: Vec<u32>,
    #[serde(default)]
    so_sizes: Vec<u32>,
    #[serde(default)]
    layered: bool,
    /// `D3D12_GRAPHICS_PIPELINE_STATE_DESC::SampleMask` (default all ones).
    sample_mask: Option<u32>,
}

/// The top-level keys of a spec that belong to pipeline specs.
#[derive(Debug, Default)]
pub struct RawOutcome {
    pub rejected: bool,
    pub rule: Option<String>,
    pub stage: Option<String>,
    pub semantic: Option<String>,
    pub register: Option<u32>,
    pub rejections: Option<usize>,
    pub probes: Vec<Table>,
    pub captures: Vec<Table>,
    pub one_of: Vec<Table>,
    pub references: Vec<Table>,
    pub statistics: Vec<Table>,
    /// The spec file's folder (reference images are relative to it).
    pub spec_dir: std::path::PathBuf,
}

/// Channels and numeric class of a colour format: (channels, 'f' | 'u' | 'i', bits per channel).
fn format_class(f: Format) -> (usize, char, u32) {
    match f {
        Format::R32Uint => (1, 'u', 32),
        Format::R32Sint => (1, 'i', 32),
        Format::R32Float => (1, 'f', 32),
        Format::R32G32Uint => (2, 'u', 32),
        Format::R32G32Float => (2, 'f', 32),
        Format::R32G32B32A32Uint => (4, 'u', 32),
        Format::R32G32B32A32Sint => (4, 'i', 32),
        Format::R32G32B32A32Float => (4, 'f', 32),
        Format::R16Float => (1, 'f', 16),
        Format::R16Uint => (1, 'u', 16),
        Format::R16G16B16A16Float => (4, 'f', 16),
        Format::R8Unorm => (1, 'n', 8),
        Format::R8Uint => (1, 'u', 8),
        Format::R8G8B8A8Unorm | Format::B8G8R8A8Unorm => (4, 'n', 8),
        Format::R8G8B8A8Uint => (4, 'u', 8),
        Format::R8G8B8A8Snorm => (4, 's', 8),
    }
}

/// The bytes one texel holds after a clear, or `None` where the encoding is not exact (snorm).
pub fn clear_texel(f: Format, c: Clear) -> Option<Vec<u8>> {
    let (n, class, bits) = format_class(f);
    let mut out = Vec::new();
    for i in 0..n {
        match (c, class, bits) {
            (Clear::Float(v), 'f', 32) => out.extend_from_slice(&v[i].to_le_bytes()),
            (Clear::Float(v), 'f', 16) => out.extend_from_slice(&super::data::f32_to_f16_bits(v[i]).to_le_bytes()),
            (Clear::Float(v), 'n', 8) => out.push((v[i].clamp(0.0, 1.0) * 255.0).round() as u8),
            (Clear::Uint(v), 'u', 32) => out.extend_from_slice(&v[i].to_le_bytes()),
            (Clear::Uint(v), 'u', 16) => out.extend_from_slice(&(v[i] as u16).to_le_bytes()),
            (Clear::Uint(v), 'u', 8) => out.push(v[i] as u8),
            (Clear::Sint(v), 'i', 32) => out.extend_from_slice(&v[i].to_le_bytes()),
            _ => return None,
        }
    }
    if f == Format::B8G8R8A8Unorm {
        out.swap(0, 2);
    }
    Some(out)
}

fn parse_clear(f: Format, v: Option<&[Value]>, ctx: &str) -> Result<Clear, SpecError> {
    let (_, class, _) = format_class(f);
    let vals = v.unwrap_or(&[]);
    if !vals.is_empty() && vals.len() != 4 {
        return Err(SpecError::new(ctx, "`clear` takes four values (r, g, b, a)"));
    }
    let num = |i: usize| -> Result<f64, SpecError> {
        match vals.get(i) {
            None => Ok(0.0),
            Some(x) => x
                .as_float()
                .or_else(|| x.as_integer().map(|n| n as f64))
                .ok_or_else(|| SpecError::new(ctx, "`clear` values must be numbers")),
        }
    };
    let mut f4 = [0f64; 4];
    for (i, slot) in f4.iter_mut().enumerate() {
        *slot = num(i)?;
    }
    Ok(match class {
        'u' => {
            if f4.iter().any(|x| x.fract() != 0.0 || *x < 0.0 || *x > u32::MAX as f64) {
                return Err(SpecError::new(ctx, "an integer target needs unsigned integer clear values"));
            }
            Clear::Uint(f4.map(|x| x as u32))
        }
        'i' => {
            if f4.iter().any(|x| x.fract() != 0.0 || *x < i32::MIN as f64 || *x > i32::MAX as f64) {
                return Err(SpecError::new(ctx, "an sint target needs integer clear values"));
            }
            Clear::Sint(f4.map(|x| x as i32))
        }
        _ => Clear::Float(f4.map(|x| x as f32)),
    })
}

fn parse_compare(s: &str, ctx: &str) -> Result<CompareOp, SpecError> {
    Ok(match s {
        "never" => CompareOp::Never,
        "less" => CompareOp::Less,
        "equal" => CompareOp::Equal,
        "less_equal" => CompareOp::LessEqual,
        "greater" => CompareOp::Greater,
        "not_equal" => CompareOp::NotEqual,
        "greater_equal" => CompareOp::GreaterEqual,
        "always" => CompareOp::Always,
        o => return Err(SpecError::new(ctx, format!("comparison `{o}`"))),
    })
}

fn parse_component_type(s: &str, ctx: &str) -> Result<ComponentType, SpecError> {
    (0..=18u32)
        .filter_map(ComponentType::from_u32)
        .find(|c| c.name() == s)
        .ok_or_else(|| SpecError::new(ctx, format!("unknown component type `{s}` (f32, u32, i32, f16, ...)")))
}

fn check_shader_path(p: &str, ctx: &str) -> Result<(), SpecError> {
    if !["fixtures/", "vkd3d-proton/", "dxil-spirv/"].iter().any(|x| p.starts_with(x))
        || p.split('/').any(|c| c == "..")
    {
        return Err(SpecError::new(ctx, "must start with fixtures/, vkd3d-proton/ or dxil-spirv/ (no `..`)"));
    }
    Ok(())
}

fn tolerance(t: &Table, elem: Elem, ctx: &str) -> Result<Tolerance, SpecError> {
    let tol = match (t.get("abs"), t.get("ulp")) {
        (None, None) => Tolerance::Exact,
        (Some(_), Some(_)) => return Err(SpecError::new(ctx, "give `abs` or `ulp`, not both")),
        (Some(a), None) => match a.as_float().or_else(|| a.as_integer().map(|i| i as f64)) {
            Some(e) if e >= 0.0 && e.is_finite() => Tolerance::Abs(e),
            _ => return Err(SpecError::new(ctx, "`abs` must be a finite number >= 0")),
        },
        (None, Some(u)) => match u.as_integer() {
            Some(n) if n >= 0 => Tolerance::Ulp(n as u64),
            _ => return Err(SpecError::new(ctx, "`ulp` must be an integer >= 0")),
        },
    };
    if tol != Tolerance::Exact && !elem.is_float() {
        return Err(SpecError::new(ctx, "tolerances apply to f16/f32/f64 data only"));
    }
    Ok(tol)
}

/// `device_defect = { device = "llvmpipe", components = [2], why = "..." }`.
fn device_defect(t: &Table, ctx: &str) -> Result<Option<DeviceDefect>, SpecError> {
    let Some(v) = t.get("device_defect") else { return Ok(None) };
    let bad = || SpecError::new(ctx, "`device_defect` needs `device` (string), `components` (list) and `why` (string)");
    let d = v.as_table().ok_or_else(bad)?;
    let device = d.get("device").and_then(Value::as_str).ok_or_else(bad)?.to_ascii_lowercase();
    let why = d.get("why").and_then(Value::as_str).filter(|w| !w.trim().is_empty()).ok_or_else(bad)?.to_string();
    let mut components = Vec::new();
    for c in d.get("components").and_then(Value::as_array).ok_or_else(bad)? {
        components.push(c.as_integer().and_then(|n| usize::try_from(n).ok()).ok_or_else(bad)?);
    }
    if device.is_empty() || components.is_empty() {
        return Err(bad());
    }
    Ok(Some(DeviceDefect { device, components, why }))
}

/// `dont_care = "zw"` (x y z w or r g b a) or `dont_care = [2, 3]`.
fn dont_care(t: &Table, ctx: &str) -> Result<Vec<usize>, SpecError> {
    let bad = || SpecError::new(ctx, "`dont_care` is a string of components (\"zw\", \"ba\") or a list of indices");
    let mut out = Vec::new();
    match t.get("dont_care") {
        None => {}
        Some(Value::String(s)) => {
            for ch in s.chars() {
                out.push(match ch.to_ascii_lowercase() {
                    'x' | 'r' => 0,
                    'y' | 'g' => 1,
                    'z' | 'b' => 2,
                    'w' | 'a' => 3,
                    _ => return Err(bad()),
                });
            }
        }
        Some(Value::Array(a)) => {
            for c in a {
                out.push(c.as_integer().and_then(|n| usize::try_from(n).ok()).ok_or_else(bad)?);
            }
        }
        Some(_) => return Err(bad()),
    }
    Ok(out)
}

fn get_u32(t: &Table, k: &str, default: Option<u32>, ctx: &str) -> Result<u32, SpecError> {
    match t.get(k) {
        None => default.ok_or_else(|| SpecError::new(ctx, format!("needs `{k}`"))),
        Some(v) => match v.as_integer() {
            Some(n) if (0..=u32::MAX as i64).contains(&n) => Ok(n as u32),
            _ => Err(SpecError::new(ctx, format!("`{k}` must be an unsigned integer"))),
        },
    }
}

/// Parses `[pipeline]` (a table) together with the top-level outcome keys.
pub fn parse_pipeline(p: Table, out: RawOutcome) -> Result<PipelineSpec, SpecError> {
    let raw: RawPipeline = Value::Table(p)
        .try_into()
        .map_err(|e: toml::de::Error| SpecError::new("pipeline", e.to_string().trim().to_string()))?;

    // Stages.
    let mut stages = Vec::new();
    for (slot, st) in [
        (StageSlot::Vs, raw.vs),
        (StageSlot::Hs, raw.hs),
        (StageSlot::Ds, raw.ds),
        (StageSlot::Gs, raw.gs),
        (StageSlot::As, raw.amp),
        (StageSlot::Ms, raw.ms),
        (StageSlot::Ps, raw.ps),
    ] {
        let Some(st) = st else { continue };
        let ctx = format!("pipeline.{}", slot.key());
        let (shader, raw_retype) = match st {
            RawStage::Path(p) => (p, Vec::new()),
            RawStage::Full { shader, retype } => (shader, retype),
        };
        check_shader_path(&shader, &ctx)?;
        let mut retype = Vec::new();
        for (i, r) in raw_retype.into_iter().enumerate() {
            let rctx = format!("{ctx}.retype[{i}]");
            let signature = match r.signature.as_deref() {
                None | Some("output") => SignatureKind::Output,
                Some("input") => SignatureKind::Input,
                Some("patch_constant") => SignatureKind::PatchConstant,
                Some(o) => return Err(SpecError::new(rctx, format!("signature `{o}`: input, output, patch_constant"))),
            };
            retype.push(Retype {
                signature,
                semantic: r.semantic,
                index: r.index,
                component_type: parse_component_type(&r.ty, &rctx)?,
            });
        }
        stages.push(StageSpec { slot, shader, retype });
    }
    let has = |s: StageSlot| stages.iter().any(|x| x.slot == s);
    let mesh = has(StageSlot::Ms) || has(StageSlot::As);
    if !has(StageSlot::Vs) && !mesh {
        return Err(SpecError::new("pipeline", "a pipeline needs a `vs` (or an `ms`: a mesh pipeline)"));
    }
    if mesh && !out.rejected {
        // Rejection specs may combine stages wrongly on purpose; drawn mesh pipelines are AS? MS PS?.
        if !has(StageSlot::Ms) || [StageSlot::Vs, StageSlot::Hs, StageSlot::Ds, StageSlot::Gs].into_iter().any(has) {
            return Err(SpecError::new("pipeline", "a drawn mesh pipeline is `as` (optional), `ms` and `ps` only"));
        }
        if raw.draw.is_some() || raw.topology.is_some() || !raw.input.is_empty() || !raw.vertex_buffer.is_empty() {
            return Err(SpecError::new(
                "pipeline",
                "a mesh pipeline has no draw, topology or vertex input: it takes `dispatch_mesh = [x, y, z]`",
            ));
        }
        match raw.dispatch_mesh {
            Some(d) if !d.contains(&0) => {}
            _ => {
                return Err(SpecError::new(
                    "pipeline.dispatch_mesh",
                    "a drawn mesh pipeline needs `dispatch_mesh = [x, y, z]` (each >= 1)",
                ))
            }
        }
    } else if raw.dispatch_mesh.is_some() && !mesh {
        return Err(SpecError::new("pipeline.dispatch_mesh", "only for mesh pipelines (`ms`)"));
    }
    if has(StageSlot::Hs) != has(StageSlot::Ds) {
        return Err(SpecError::new("pipeline", "`hs` and `ds` come together"));
    }

    // Expected outcome.
    let rejected = out.rejected;
    if !rejected
        && (out.rule.is_some()
            || out.stage.is_some()
            || out.semantic.is_some()
            || out.register.is_some()
            || out.rejections.is_some())
    {
        return Err(SpecError::new("rule", "rule/stage/semantic/register/rejections need `expect = \"rejected\"`"));
    }
    if rejected && !(out.probes.is_empty() && out.captures.is_empty()) {
        return Err(SpecError::new("probe", "a rejected pipeline draws nothing: no probes or captures"));
    }
    if !rejected && stages.iter().any(|s| !s.retype.is_empty()) {
        return Err(SpecError::new("pipeline", "`retype` changes only what the linker sees: rejection specs only"));
    }

    // Input layout and vertex data.
    let mut input_layout = Vec::new();
    for (i, e) in raw.input.into_iter().enumerate() {
        let ctx = format!("pipeline.input[{i}]");
        if dxjit::link::format_info(&e.format).is_none() {
            return Err(SpecError::new(ctx, format!("format `{}` is not a vertex format", e.format)));
        }
        if !e.per_instance && e.step_rate.is_some_and(|s| s != 0) {
            return Err(SpecError::new(ctx, "`step_rate` is for per-instance elements"));
        }
        input_layout.push(InputElement {
            semantic: e.semantic,
            index: e.index,
            format: e.format,
            slot: e.slot,
            offset: e.offset,
            per_instance: e.per_instance,
            step_rate: if e.per_instance { e.step_rate.unwrap_or(1) } else { 0 },
        });
    }
    let mut vertex_buffers = Vec::new();
    for (i, vb) in raw.vertex_buffer.into_iter().enumerate() {
        let ctx = format!("pipeline.vertex_buffer[{i}]");
        if vertex_buffers.iter().any(|o: &VertexBufferData| o.slot == vb.slot) {
            return Err(SpecError::new(ctx, format!("slot {} is given twice", vb.slot)));
        }
        let data = parse_data(&vb.data, &format!("{ctx}.data"))?;
        if vb.stride == 0 || data.is_empty() {
            return Err(SpecError::new(ctx, "needs a stride > 0 and data"));
        }
        let per_instance = input_layout.iter().any(|e| e.slot == vb.slot && e.per_instance);
        vertex_buffers.push(VertexBufferData { slot: vb.slot, stride: vb.stride, per_instance, data });
    }
    for e in &input_layout {
        if !vertex_buffers.iter().any(|v| v.slot == e.slot) && !rejected {
            return Err(SpecError::new(
                "pipeline.input",
                format!("{}{} reads slot {}, which has no vertex_buffer", e.semantic, e.index, e.slot),
            ));
        }
    }
    let indices = match &raw.index_buffer {
        None => None,
        Some(v) => {
            let t = v
                .as_table()
                .ok_or_else(|| SpecError::new("pipeline.index_buffer", "must be { u16 = [..] } or { u32 = [..] }"))?;
            let piece = parse_piece(t, "pipeline.index_buffer", &[])?;
            let b = piece.to_bytes();
            match piece.elem {
                Elem::U16 => Some(Indices::U16(b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect())),
                Elem::U32 => Some(Indices::U32(
                    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect(),
                )),
                _ => return Err(SpecError::new("pipeline.index_buffer", "indices are u16 or u32")),
            }
        }
    };

    // Topology and draw.
    let tess = has(StageSlot::Hs);
    let topology = match raw.topology.as_deref() {
        None if tess => {
            return Err(SpecError::new(
                "pipeline.topology",
                "a tessellation pipeline needs `topology = \"patch_list\"`",
            ))
        }
        None => Topology::TriangleList,
        Some(t) => Topology::parse(t).ok_or_else(|| {
            SpecError::new(
                "pipeline.topology",
                format!("`{t}`: point_list, line_list, line_strip, triangle_list, triangle_strip, *_adj, patch_list"),
            )
        })?,
    };
    let topology = match (topology, raw.control_points) {
        (Topology::PatchList(_), Some(n)) if (1..=32).contains(&n) => Topology::PatchList(n),
        (Topology::PatchList(_), _) => {
            return Err(SpecError::new("pipeline.control_points", "patch_list needs control_points in 1..=32"))
        }
        (_, Some(_)) => return Err(SpecError::new("pipeline.control_points", "only with topology = \"patch_list\"")),
        (t, None) => t,
    };
    // Rejection specs may pair a topology with the wrong stages: the linker's rules #668/#673 judge.
    if tess != matches!(topology, Topology::PatchList(_)) && !rejected {
        return Err(SpecError::new("pipeline.topology", "patch lists go with hull/domain shaders, and only with them"));
    }
    let draw = match raw.draw {
        Some(d) => DrawParams {
            count: d.count,
            instances: d.instances,
            first: d.first,
            base_vertex: d.base_vertex,
            first_instance: d.first_instance,
        },
        None if rejected || mesh => DrawParams { count: 0, instances: 1, first: 0, base_vertex: 0, first_instance: 0 },
        None => return Err(SpecError::new("pipeline.draw", "a drawn pipeline needs `draw = { count = N }`")),
    };
    if !rejected && !mesh && (draw.count == 0 || draw.instances == 0) {
        return Err(SpecError::new("pipeline.draw", "count and instances must be at least 1"));
    }
    if indices.is_none() && draw.base_vertex != 0 {
        return Err(SpecError::new("pipeline.draw", "base_vertex is for indexed draws"));
    }

    // Targets.
    let mut targets = Vec::new();
    for (i, t) in raw.target.into_iter().enumerate() {
        let ctx = format!("pipeline.target[{i}]");
        let format = Format::parse(&t.format)
            .ok_or_else(|| SpecError::new(format!("{ctx}.format"), format!("unknown format `{}`", t.format)))?;
        if t.width == 0 || t.height == 0 || t.layers == 0 || t.width > 4096 || t.height > 4096 || t.layers > 64 {
            return Err(SpecError::new(ctx, "width/height in 1..=4096, layers in 1..=64"));
        }
        let clear = parse_clear(format, t.clear.as_deref(), &format!("{ctx}.clear"))?;
        let rest_clear = match t.rest.as_deref() {
            None | Some("ignore") => false,
            Some("clear") => {
                if clear_texel(format, clear).is_none() {
                    return Err(SpecError::new(ctx, "rest = \"clear\" needs a format whose clear value is exact"));
                }
                true
            }
            Some(o) => return Err(SpecError::new(format!("{ctx}.rest"), format!("`{o}`: \"clear\" or \"ignore\""))),
        };
        if let Some(first) = targets.first() {
            let f: &TargetSpec = first;
            if (f.width, f.height, f.layers) != (t.width, t.height, t.layers) {
                return Err(SpecError::new(ctx, "every target has the size and layer count of target 0"));
            }
        }
        if !matches!(t.samples, 1 | 2 | 4 | 8 | 16) {
            return Err(SpecError::new(format!("{ctx}.samples"), "1, 2, 4, 8 or 16"));
        }
        if targets.first().is_some_and(|f: &TargetSpec| f.samples != t.samples) {
            return Err(SpecError::new(ctx, "every target has the sample count of target 0"));
        }
        targets.push(TargetSpec {
            format,
            width: t.width,
            height: t.height,
            layers: t.layers,
            clear,
            rest_clear,
            samples: t.samples,
        });
    }
    if targets.len() > 8 {
        return Err(SpecError::new("pipeline.target", "at most 8 render targets"));
    }
    let depth = match raw.depth {
        None => None,
        Some(d) => {
            let format = DepthFormat::parse(&d.format).ok_or_else(|| {
                SpecError::new(
                    "pipeline.depth.format",
                    format!("`{}`: d32_float, d16_unorm, d24_unorm_s8_uint, d32_float_s8x24_uint", d.format),
                )
            })?;
            if !(0.0..=1.0).contains(&d.clear) {
                return Err(SpecError::new("pipeline.depth.clear", "depth clear value in [0, 1]"));
            }
            let depth_func = parse_compare(d.func.as_deref().unwrap_or("less"), "pipeline.depth.func")?;
            Some(DepthDesc {
                format,
                clear_depth: d.clear,
                clear_stencil: d.clear_stencil,
                depth_test: d.test,
                depth_write: d.write,
                depth_func,
            })
        }
    };
    if depth.is_some() && targets.is_empty() {
        return Err(SpecError::new(
            "pipeline.depth",
            "depth-only pipelines need a target for the size (not supported)",
        ));
    }

    let rasterizer = match raw.rasterizer {
        None => RasterDesc::default(),
        Some(r) => RasterDesc {
            cull: match r.cull.as_deref() {
                None | Some("none") => Cull::None,
                Some("front") => Cull::Front,
                Some("back") => Cull::Back,
                Some(o) => return Err(SpecError::new("pipeline.rasterizer.cull", format!("`{o}`: none, front, back"))),
            },
            front_ccw: r.front_ccw,
            wireframe: match r.fill.as_deref() {
                None | Some("solid") => false,
                Some("wireframe") => true,
                Some(o) => return Err(SpecError::new("pipeline.rasterizer.fill", format!("`{o}`: solid, wireframe"))),
            },
            depth_clip: r.depth_clip,
        },
    };
    let rasterized_stream = match &raw.rasterized_stream {
        None => Some(0),
        Some(Value::String(s)) if s == "none" => None,
        Some(Value::Integer(n)) if (0..4).contains(n) => Some(*n as u32),
        Some(_) => return Err(SpecError::new("pipeline.rasterized_stream", "0..=3 or \"none\"")),
    };
    if rasterized_stream != Some(0) && !has(StageSlot::Gs) {
        return Err(SpecError::new("pipeline.rasterized_stream", "only a geometry shader has streams other than 0"));
    }
    let stream_output = if raw.stream_output.is_empty() {
        if !raw.so_strides.is_empty() || !raw.so_sizes.is_empty() {
            return Err(SpecError::new("pipeline.so_strides", "without stream_output entries"));
        }
        None
    } else {
        let entries: Vec<SoEntry> = raw
            .stream_output
            .into_iter()
            .map(|e| SoEntry {
                stream: e.stream,
                semantic: e.semantic,
                index: e.index,
                start_component: e.start_component,
                component_count: e.component_count,
                slot: e.slot,
            })
            .collect();
        let slots = entries.iter().map(|e| e.slot + 1).max().unwrap_or(0) as usize;
        if raw.so_strides.len() != slots || raw.so_sizes.len() != slots {
            return Err(SpecError::new(
                "pipeline.stream_output",
                format!("entries use {slots} buffer(s): give that many so_strides and so_sizes"),
            ));
        }
        if entries.iter().any(|e| e.component_count == 0 || e.start_component + e.component_count > 4 || e.stream > 3) {
            return Err(SpecError::new("pipeline.stream_output", "components within 0..4, stream 0..=3"));
        }
        Some(StreamOutput { entries, strides: raw.so_strides, sizes: raw.so_sizes })
    };
    if raw.layered && targets.iter().all(|t| t.layers < 2) {
        return Err(SpecError::new("pipeline.layered", "layered rendering needs targets with layers"));
    }

    if !rejected && !out.one_of.is_empty() {
        return Err(SpecError::new("one_of", "alternative outcomes need `expect = \"rejected\"`"));
    }
    if rejected && !out.references.is_empty() {
        return Err(SpecError::new("reference", "a rejected pipeline draws nothing: no reference images"));
    }
    if rejected && !out.statistics.is_empty() {
        return Err(SpecError::new("statistic", "a rejected pipeline draws nothing: no statistics"));
    }
    let mut statistics = Vec::new();
    for (i, t) in out.statistics.iter().enumerate() {
        statistics.push(parse_statistic(t, &format!("statistic[{i}]"))?);
    }
    let mut references = Vec::new();
    for (i, t) in out.references.iter().enumerate() {
        references.push(parse_reference(t, &targets, &out.spec_dir, &format!("reference[{i}]"))?);
    }
    let expect = if rejected && !out.one_of.is_empty() {
        if out.rule.is_some() || out.stage.is_some() || out.semantic.is_some() || out.register.is_some() {
            return Err(SpecError::new("one_of", "with [[one_of]], each alternative names its rule"));
        }
        let one_of = parse_alternatives(&out.one_of)?;
        let Some(first) = one_of.iter().find_map(|a| a.reject.clone()) else {
            return Err(SpecError::new("one_of", "at least one alternative is a rejection"));
        };
        PipelineExpect::Rejected(RejectSpec { one_of, ..first })
    } else if rejected {
        let rule = out.rule.ok_or_else(|| SpecError::new("rule", "a rejected pipeline names the rule it breaks"))?;
        PipelineExpect::Rejected(RejectSpec {
            rule: parse_rule(&rule, "rule")?,
            stage: out.stage.as_deref().map(|s| parse_stage(s, "stage")).transpose()?,
            semantic: out.semantic,
            register: out.register,
            count: out.rejections,
            one_of: Vec::new(),
        })
    } else {
        let mut probes = Vec::new();
        for (i, t) in out.probes.iter().enumerate() {
            probes.push(parse_probe(t, &targets, depth.as_ref(), &format!("probe[{i}]"))?);
        }
        let mut captures = Vec::new();
        for (i, t) in out.captures.iter().enumerate() {
            let ctx = format!("capture[{i}]");
            let value = parse_piece(t, &ctx, &["buffer", "at", "abs", "ulp"])?;
            let buffer = get_u32(t, "buffer", Some(0), &ctx)?;
            let at = get_u32(t, "at", Some(0), &ctx)? as usize;
            let Some(so) = &stream_output else {
                return Err(SpecError::new(ctx, "captures need [[pipeline.stream_output]]"));
            };
            let size = so.sizes.get(buffer as usize).copied().unwrap_or(0) as usize;
            if at + value.byte_len() > size {
                return Err(SpecError::new(
                    ctx,
                    format!("bytes {at}..{} lie past the buffer's {size}", at + value.byte_len()),
                ));
            }
            captures.push(Capture { buffer, at, tol: tolerance(t, value.elem, &ctx)?, value });
        }
        if probes.is_empty() && captures.is_empty() && references.is_empty() {
            return Err(SpecError::new(
                "probe",
                "a drawn pipeline needs [[probe]], [[capture]] or [[reference]] entries",
            ));
        }
        if targets.is_empty() && depth.is_none() && stream_output.is_none() {
            return Err(SpecError::new("pipeline.target", "a drawn pipeline needs a target or stream output"));
        }
        PipelineExpect::Drawn { probes, captures }
    };
    Ok(PipelineSpec {
        stages,
        input_layout,
        vertex_buffers,
        indices,
        topology,
        draw,
        targets,
        depth,
        rasterizer,
        rasterized_stream,
        stream_output,
        layered: raw.layered,
        dispatch_mesh: raw.dispatch_mesh,
        sample_mask: raw.sample_mask.unwrap_or(u32::MAX),
        references,
        statistics,
        expect,
    })
}

fn parse_probe(t: &Table, targets: &[TargetSpec], depth: Option<&DepthDesc>, ctx: &str) -> Result<Probe, SpecError> {
    let value = parse_piece(
        t,
        ctx,
        &["target", "x", "y", "width", "height", "layer", "abs", "ulp", "device_defect", "dont_care"],
    )?;
    let target = match t.get("target") {
        None => ProbeTarget::Color(0),
        Some(Value::Integer(n)) if (0..8).contains(n) => ProbeTarget::Color(*n as u32),
        Some(Value::String(s)) if s == "depth" => ProbeTarget::Depth,
        Some(Value::String(s)) if s == "stencil" => ProbeTarget::Stencil,
        Some(_) => return Err(SpecError::new(ctx, "`target` is a colour target index, \"depth\" or \"stencil\"")),
    };
    let (w, h, layers, texel) = match target {
        ProbeTarget::Color(i) => {
            let tg = targets.get(i as usize).ok_or_else(|| SpecError::new(ctx, format!("no target {i}")))?;
            (tg.width, tg.height, tg.layers, tg.format.texel_size() as usize)
        }
        ProbeTarget::Depth | ProbeTarget::Stencil => {
            let d = depth.ok_or_else(|| SpecError::new(ctx, "the pipeline has no [pipeline.depth]"))?;
            let t0 = targets.first().ok_or_else(|| SpecError::new(ctx, "no target"))?;
            if target == ProbeTarget::Stencil && !d.format.has_stencil() {
                return Err(SpecError::new(ctx, "the depth format has no stencil"));
            }
            let texel = if target == ProbeTarget::Depth { d.format.depth_texel() } else { 1 };
            (t0.width, t0.height, t0.layers, texel)
        }
    };
    let p = Probe {
        target,
        x: get_u32(t, "x", None, ctx)?,
        y: get_u32(t, "y", None, ctx)?,
        width: get_u32(t, "width", Some(1), ctx)?,
        height: get_u32(t, "height", Some(1), ctx)?,
        layer: get_u32(t, "layer", Some(0), ctx)?,
        tol: tolerance(t, value.elem, ctx)?,
        value,
        device_defect: device_defect(t, ctx)?,
        dont_care: dont_care(t, ctx)?,
    };
    if let Some(&c) = p.dont_care.iter().find(|&&c| c >= p.value.values.len()) {
        return Err(SpecError::new(ctx, format!("dont_care component {c}: the value has {}", p.value.values.len())));
    }
    if p.width == 0 || p.height == 0 || p.x + p.width > w || p.y + p.height > h || p.layer >= layers {
        return Err(SpecError::new(ctx, format!("the rectangle lies outside the {w}x{h}x{layers} target")));
    }
    if p.value.byte_len() != texel {
        return Err(SpecError::new(
            ctx,
            format!("one texel of this target is {texel} bytes; the value has {}", p.value.byte_len()),
        ));
    }
    Ok(p)
}
