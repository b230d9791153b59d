//! Spec files: one TOML file per test (format in conformance/SPECS.md), parsed and checked into
//! [`Spec`]. Everything a spec says is validated here, so running one only meets device problems.

use super::backend::{AddressMode, BorderColor, CompareOp, Filter, Format, ImageDim, ResourceClass, Sampler, FEATURES};
use super::data::{parse_data, parse_piece, parse_scalar, Elem, Piece, Scalar};
// `Tolerance` lives in `data` (shared with `pipeline`); `spec::Tolerance` stays valid.
pub use super::data::Tolerance;
use super::error::SpecError;
use super::pipeline::{parse_pipeline, PipelineSpec, RawOutcome};
use super::rootsig::{parse_root, RawRootSig, RootSpec, MAX_HEAP};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// A parsed spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// File stem (`pack_u32_u8`).
    pub name: String,
    pub path: PathBuf,
    pub description: String,
    /// `vkd3d-proton/…`, `dxil-spirv/…` (corpus) or `fixtures/…` (project).
    pub shader: String,
    pub entry: Option<String>,
    pub dispatch: [u32; 3],
    pub requires: Vec<String>,
    pub expect_unsupported: bool,
    pub subgroup_size: Option<u32>,
    pub resources: Vec<ResourceSpec>,
    /// Pipeline specs (`[pipeline]`): stages, state and outcome. `shader` then lists the stages and
    /// `dispatch` is unused.
    pub pipeline: Option<Box<PipelineSpec>>,
    /// Bindless specs (`[root_signature]`): the shader is compiled under a D3D12 binding model and
    /// its resources sit in the descriptor heap or behind root descriptors.
    pub root: Option<RootSpec>,
    /// Acceleration structures (`[[blas]]`, `[[instance]]`) for ray queries and ray tracing.
    pub scene: Option<super::job::Scene>,
    /// Ray-tracing specs (`[raytracing]`): libraries, shader tables, the launch size. `shader`
    /// then names the libraries.
    pub raytracing: Option<Box<super::rtspec::RtSpec>>,
}

/// Where a resource of a spec is bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// By register, where the compiler's default rule puts it.
    Register,
    /// In the descriptor heap at this index (the sampler heap for samplers).
    Heap(u32),
    /// Behind the root descriptor (CBV/SRV/UAV root parameter) of this parameter index.
    Root(u32),
    /// Reached only through a device address in a shader record (a local root descriptor;
    /// ray-tracing specs, by the resource's `name`).
    Address,
}

/// D3D view kind of a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Raw,
    Structured,
    Typed,
    CBuffer,
    RootConstants,
    Texture {
        dim: ImageDim,
        array: bool,
    },
    Sampler,
    /// `RaytracingAccelerationStructure`: the spec's top-level acceleration structure.
    AccelerationStructure,
}

impl Kind {
    fn parse(s: &str) -> Option<Kind> {
        let tex = |dim, array| Some(Kind::Texture { dim, array });
        match s {
            "raw" => Some(Kind::Raw),
            "structured" => Some(Kind::Structured),
            "typed" => Some(Kind::Typed),
            "cbuffer" => Some(Kind::CBuffer),
            "root_constants" => Some(Kind::RootConstants),
            "sampler" => Some(Kind::Sampler),
            "acceleration_structure" => Some(Kind::AccelerationStructure),
            "texture1d" => tex(ImageDim::D1, false),
            "texture1d_array" => tex(ImageDim::D1, true),
            "texture2d" => tex(ImageDim::D2, false),
            "texture2d_array" => tex(ImageDim::D2, true),
            "texture3d" => tex(ImageDim::D3, false),
            "texturecube" => tex(ImageDim::Cube, false),
            "texturecube_array" => tex(ImageDim::Cube, true),
            _ => None,
        }
    }

    pub fn is_buffer(self) -> bool {
        matches!(self, Kind::Raw | Kind::Structured | Kind::Typed | Kind::CBuffer | Kind::RootConstants)
    }
}

/// Size of a texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub layers: u32,
    pub mips: u32,
    pub samples: u32,
}

impl Shape {
    /// Bytes of all layers and mips, tightly packed.
    pub fn byte_size(&self, format: Format) -> u64 {
        let mut total = 0u64;
        for m in 0..self.mips {
            let w = (self.width >> m).max(1) as u64;
            let h = (self.height >> m).max(1) as u64;
            let d = (self.depth >> m).max(1) as u64;
            total += w * h * d * format.texel_size() as u64;
        }
        total * self.layers as u64 * self.samples as u64
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum CheckKind {
    /// Element-wise values.
    Values { piece: Piece, tol: Tolerance },
    /// Every element in [min, max].
    Range { elem: Elem, min: Scalar, max: Scalar, count: usize },
    /// The elements are a permutation of these.
    Permutation { piece: Piece },
    /// Equal to one of the alternatives (all the same size).
    OneOf { alts: Vec<Piece>, tol: Tolerance },
    /// Not looked at.
    Ignore { bytes: usize },
}

/// One `[[resource.expect]]` entry: a check over bytes `at .. at + len`.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub at: usize,
    pub kind: CheckKind,
}

impl Check {
    pub fn len(&self) -> usize {
        match &self.kind {
            CheckKind::Values { piece, .. } | CheckKind::Permutation { piece } => piece.byte_len(),
            CheckKind::Range { elem, count, .. } => elem.size() * count,
            CheckKind::OneOf { alts, .. } => alts.first().map_or(0, Piece::byte_len),
            CheckKind::Ignore { bytes } => *bytes,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One `[[resource]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceSpec {
    pub place: Place,
    /// The name shader-record arguments use for it (`name = "colors"`).
    pub name: Option<String>,
    /// A heap buffer view's `(first element, element count)` (D3D12 `FirstElement`/`NumElements`;
    /// raw views count 32-bit words); `None`: the whole buffer.
    pub view: Option<(u32, u32)>,
    pub class: ResourceClass,
    pub register: u32,
    pub space: u32,
    pub kind: Kind,
    pub format: Option<Format>,
    pub stride: Option<u32>,
    /// Initial contents, zero-padded to `size`.
    pub init: Vec<u8>,
    pub shape: Option<Shape>,
    pub sampler: Option<Sampler>,
    /// Initial value of the UAV counter, when the shader has one.
    pub counter: Option<u32>,
    pub expect_counter: Option<u32>,
    pub checks: Vec<Check>,
    /// Bytes no check covers must equal the initial contents (default); false with `rest = "ignore"`.
    pub rest_unchanged: bool,
}

impl ResourceSpec {
    /// `u0`, `t1 (space 2)`.
    pub fn label(&self) -> String {
        match self.place {
            Place::Heap(i) if self.class == ResourceClass::Sampler => return format!("sampler heap[{i}]"),
            Place::Heap(i) => return format!("heap[{i}] ({})", self.class.prefix()),
            Place::Root(p) => return format!("root parameter {p} ({})", self.class.prefix()),
            Place::Address => {
                return format!("record address {} ({})", self.name.as_deref().unwrap_or("?"), self.class.prefix())
            }
            Place::Register => {}
        }
        if self.space == 0 {
            format!("{}{}", self.class.prefix(), self.register)
        } else {
            format!("{}{} (space {})", self.class.prefix(), self.register, self.space)
        }
    }

    pub fn is_checked(&self) -> bool {
        !self.checks.is_empty() || self.expect_counter.is_some()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    description: Option<String>,
    shader: Option<String>,
    entry: Option<String>,
    dispatch: Option<[u32; 3]>,
    #[serde(default)]
    requires: Vec<String>,
    expect: Option<String>,
    subgroup_size: Option<u32>,
    #[serde(default)]
    resource: Vec<RawResource>,
    pipeline: Option<Table>,
    rule: Option<String>,
    stage: Option<String>,
    semantic: Option<String>,
    register: Option<u32>,
    rejections: Option<usize>,
    #[serde(default)]
    probe: Vec<Table>,
    #[serde(default)]
    capture: Vec<Table>,
    root_signature: Option<RawRootSig>,
    /// `[[one_of]]`: named alternative outcomes of a rejection spec.
    #[serde(default)]
    one_of: Vec<Table>,
    /// `[[reference]]`: reference images of drawn pipeline specs.
    #[serde(default)]
    reference: Vec<Table>,
    /// `[[statistic]]`: pipeline-statistics counters of drawn pipeline specs.
    #[serde(default)]
    statistic: Vec<Table>,
    /// `[raytracing]`: a ray-tracing pipeline.
    raytracing: Option<Table>,
    /// `[[blas]]`, `[[instance]]`: acceleration structures.
    #[serde(default)]
    blas: Vec<Table>,
    #[serde(default)]
    instance: Vec<Table>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResource {
    register: String,
    #[serde(default)]
    space: u32,
    kind: String,
    format: Option<String>,
    stride: Option<u32>,
    size: Option<u64>,
    init: Option<Value>,
    width: Option<u32>,
    height: Option<u32>,
    depth: Option<u32>,
    layers: Option<u32>,
    mips: Option<u32>,
    samples: Option<u32>,
    filter: Option<String>,
    address: Option<String>,
    compare: Option<String>,
    border: Option<String>,
    min_lod: Option<f32>,
    max_lod: Option<f32>,
    mip_lod_bias: Option<f32>,
    anisotropy: Option<f32>,
    counter: Option<u32>,
    expect_counter: Option<u32>,
    #[serde(default)]
    expect: Vec<Table>,
    rest: Option<String>,
    heap: Option<u32>,
    root: Option<u32>,
    first: Option<u32>,
    count: Option<u32>,
    name: Option<String>,
    /// Reached only through an address in a shader record (`record = true`).
    #[serde(default)]
    record: bool,
}

/// Largest buffer or texture a spec may describe.
const MAX_BYTES: u64 = 64 << 20;

impl Spec {
    pub fn load(path: &Path) -> Result<Spec, SpecError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| SpecError::new(path.display().to_string(), e.to_string()))?;
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        Spec::parse(&name, path, &text)
    }

    pub fn parse(name: &str, path: &Path, text: &str) -> Result<Spec, SpecError> {
        let raw: RawSpec =
            toml::from_str(text).map_err(|e| SpecError::new("spec", e.to_string().trim().to_string()))?;
        for f in &raw.requires {
            if !FEATURES.contains(&f.as_str()) {
                return Err(SpecError::new(
                    "requires",
                    format!("unknown feature `{f}` (known: {})", FEATURES.join(", ")),
                ));
            }
        }
        let (expect_unsupported, expect_rejected) = match raw.expect.as_deref() {
            None | Some("pass") => (false, false),
            Some("unsupported") => (true, false),
            Some("rejected") if raw.pipeline.is_some() => (false, true),
            Some(o) => {
                return Err(SpecError::new(
                    "expect",
                    format!("`{o}`: must be \"pass\" or \"unsupported\" (pipeline specs: \"pass\" or \"rejected\")"),
                ))
            }
        };
        let raytracing = match raw.raytracing {
            Some(t) => {
                if raw.shader.is_some() || raw.dispatch.is_some() || raw.pipeline.is_some() || raw.entry.is_some() {
                    return Err(SpecError::new(
                        "raytracing",
                        "a ray-tracing spec names its libraries and launch size in [raytracing] (no shader, dispatch, entry or [pipeline])",
                    ));
                }
                Some(Box::new(super::rtspec::parse_raytracing(t)?))
            }
            None => None,
        };
        let scene = super::rtspec::parse_scene(&raw.blas, &raw.instance)?;
        let (shader, dispatch, pipeline) = match (raw.shader, raw.dispatch, raw.pipeline) {
            (None, None, None) if raytracing.is_some() => {
                let rt = raytracing.as_deref().ok_or_else(|| SpecError::new("raytracing", "missing"))?;
                (rt.libraries.join(" + "), rt.dispatch, None)
            }
            (Some(shader), Some(dispatch), None) => {
                if raw.rule.is_some() || !raw.probe.is_empty() || !raw.capture.is_empty() {
                    return Err(SpecError::new("rule", "rule/probe/capture belong to pipeline specs"));
                }
                (shader, dispatch, None)
            }
            (None, None, Some(p)) => {
                if expect_unsupported || raw.entry.is_some() || raw.subgroup_size.is_some() {
                    return Err(SpecError::new(
                        "pipeline",
                        "pipeline specs take no expect = \"unsupported\", entry or subgroup_size",
                    ));
                }
                let out = RawOutcome {
                    rejected: expect_rejected,
                    rule: raw.rule,
                    stage: raw.stage,
                    semantic: raw.semantic,
                    register: raw.register,
                    rejections: raw.rejections,
                    probes: raw.probe,
                    captures: raw.capture,
                    one_of: raw.one_of,
                    references: raw.reference,
                    statistics: raw.statistic,
                    spec_dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
                };
                let p = parse_pipeline(p, out)?;
                (p.label(), [0, 0, 0], Some(Box::new(p)))
            }
            (_, _, Some(_)) => return Err(SpecError::new("pipeline", "a pipeline spec has no `shader` or `dispatch`")),
            (None, _, None) => {
                return Err(SpecError::new("shader", "missing: a spec has `shader` + `dispatch` or `[pipeline]`"))
            }
            (Some(_), None, None) => return Err(SpecError::new("dispatch", "missing")),
        };
        if pipeline.is_none() && raytracing.is_none() {
            if !["fixtures/", "vkd3d-proton/", "dxil-spirv/"].iter().any(|p| shader.starts_with(p))
                || shader.split('/').any(|c| c == "..")
            {
                return Err(SpecError::new(
                    "shader",
                    "must start with fixtures/, vkd3d-proton/ or dxil-spirv/ (no `..`)",
                ));
            }
            if dispatch.contains(&0) {
                return Err(SpecError::new("dispatch", "every dimension must be at least 1"));
            }
        }
        if let Some(s) = raw.subgroup_size {
            if !s.is_power_of_two() || !(4..=128).contains(&s) {
                return Err(SpecError::new("subgroup_size", "must be a power of two in 4..=128"));
            }
        }
        let root = raw.root_signature.map(parse_root).transpose()?;
        let mut resources = Vec::with_capacity(raw.resource.len());
        for (i, r) in raw.resource.into_iter().enumerate() {
            let ctx = format!("resource[{i}]");
            let res = parse_resource(r, &ctx)?;
            let same = |o: &ResourceSpec| match (o.place, res.place) {
                (Place::Register, Place::Register) => {
                    o.class == res.class && o.register == res.register && o.space == res.space
                }
                // One heap for CBV/SRV/UAV, one for samplers.
                (Place::Heap(a), Place::Heap(b)) => {
                    a == b && (o.class == ResourceClass::Sampler) == (res.class == ResourceClass::Sampler)
                }
                (Place::Root(a), Place::Root(b)) => a == b,
                _ => false,
            } || (res.name.is_some() && o.name == res.name);
            if resources.iter().any(same) {
                return Err(SpecError::new(ctx, format!("{} is given twice", res.label())));
            }
            match (&root, res.place) {
                (None, Place::Heap(_) | Place::Root(_)) => {
                    return Err(SpecError::new(ctx, "`heap` and `root` belong to specs with a [root_signature]"))
                }
                (Some(_), Place::Register) => {
                    return Err(SpecError::new(
                        ctx,
                        "under a [root_signature] a resource sits in the heap (`heap = N`) or behind a root descriptor (`root = P`)",
                    ))
                }
                (Some(rs), Place::Heap(h)) if rs.heap_size.is_some_and(|n| h >= n) => {
                    return Err(SpecError::new(ctx, format!("heap index {h} lies beyond heap_size")))
                }
                _ => {}
            }
            if res.place == Place::Address && (raytracing.is_none() || res.name.is_none()) {
                return Err(SpecError::new(ctx, "`record = true` is for named resources of ray-tracing specs"));
            }
            if res.kind == Kind::AccelerationStructure && scene.is_none() {
                return Err(SpecError::new(ctx, "an acceleration structure needs the spec's [[blas]]/[[instance]]"));
            }
            resources.push(res);
        }
        Ok(Spec {
            name: name.to_string(),
            path: path.to_path_buf(),
            description: raw.description.unwrap_or_default(),
            shader,
            entry: raw.entry,
            dispatch,
            requires: raw.requires,
            expect_unsupported,
            subgroup_size: raw.subgroup_size,
            resources,
            pipeline,
            root,
            scene,
            raytracing,
        })
    }
}

fn parse_register(s: &str, ctx: &str) -> Result<(ResourceClass, u32), SpecError> {
    let mut chars = s.chars();
    let class = match chars.next() {
        Some('t') => ResourceClass::Srv,
        Some('u') => ResourceClass::Uav,
        Some('b') => ResourceClass::Cbv,
        Some('s') => ResourceClass::Sampler,
        _ => return Err(SpecError::new(ctx, format!("register `{s}` must be t<N>, u<N>, b<N> or s<N>"))),
    };
    let n = chars.as_str().parse::<u32>().map_err(|_| SpecError::new(ctx, format!("bad register number in `{s}`")))?;
    Ok((class, n))
}

fn parse_resource(r: RawResource, ctx: &str) -> Result<ResourceSpec, SpecError> {
    let (class, register) = parse_register(&r.register, &format!("{ctx}.register"))?;
    let kind = Kind::parse(&r.kind).ok_or_else(|| {
        SpecError::new(
            format!("{ctx}.kind"),
            format!("`{}`: one of raw, structured, typed, cbuffer, root_constants, sampler, texture1d, texture1d_array, texture2d, texture2d_array, texture3d, texturecube, texturecube_array", r.kind),
        )
    })?;
    let class_ok = match kind {
        Kind::Raw | Kind::Structured | Kind::Typed => matches!(class, ResourceClass::Srv | ResourceClass::Uav),
        Kind::Texture { .. } => matches!(class, ResourceClass::Srv | ResourceClass::Uav),
        Kind::CBuffer | Kind::RootConstants => class == ResourceClass::Cbv,
        Kind::Sampler => class == ResourceClass::Sampler,
        Kind::AccelerationStructure => class == ResourceClass::Srv,
    };
    if !class_ok {
        return Err(SpecError::new(ctx, format!("kind `{}` cannot sit in register `{}`", r.kind, r.register)));
    }
    let format = match &r.format {
        Some(f) => Some(Format::parse(f).ok_or_else(|| {
            let known: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
            SpecError::new(format!("{ctx}.format"), format!("unknown format `{f}` (known: {})", known.join(", ")))
        })?),
        None => None,
    };
    let needs_format = matches!(kind, Kind::Typed | Kind::Texture { .. });
    if needs_format && format.is_none() {
        return Err(SpecError::new(ctx, format!("kind `{}` needs a `format`", r.kind)));
    }
    if !needs_format && format.is_some() {
        return Err(SpecError::new(ctx, format!("kind `{}` takes no `format`", r.kind)));
    }
    if r.stride.is_some() && kind != Kind::Structured {
        return Err(SpecError::new(ctx, "`stride` is for structured buffers"));
    }
    let has_sampler_keys = r.filter.is_some()
        || r.address.is_some()
        || r.compare.is_some()
        || r.border.is_some()
        || r.min_lod.is_some()
        || r.max_lod.is_some()
        || r.mip_lod_bias.is_some()
        || r.anisotropy.is_some();
    let has_shape_keys = r.width.is_some()
        || r.height.is_some()
        || r.depth.is_some()
        || r.layers.is_some()
        || r.mips.is_some()
        || r.samples.is_some();

    let mut shape = None;
    let mut sampler = None;
    let mut init = Vec::new();
    match kind {
        Kind::AccelerationStructure => {
            if r.init.is_some() || r.size.is_some() || has_shape_keys || has_sampler_keys || !r.expect.is_empty() {
                return Err(SpecError::new(ctx, "an acceleration structure takes no data, shape or expectations"));
            }
        }
        Kind::Sampler => {
            if r.init.is_some() || r.size.is_some() || has_shape_keys || !r.expect.is_empty() {
                return Err(SpecError::new(
                    ctx,
                    "a sampler takes only filter/address/compare/border/lod/anisotropy keys",
                ));
            }
            sampler = Some(parse_sampler(&r, ctx)?);
        }
        _ => {
            if has_sampler_keys {
                return Err(SpecError::new(ctx, "sampler keys on a non-sampler resource"));
            }
            if let Some(v) = &r.init {
                init = parse_data(v, &format!("{ctx}.init"))?;
            }
            if let Kind::Texture { dim, array } = kind {
                let s = Shape {
                    width: r.width.ok_or_else(|| SpecError::new(ctx, "a texture needs `width`"))?,
                    height: r.height.unwrap_or(1),
                    depth: r.depth.unwrap_or(1),
                    layers: r.layers.unwrap_or(if dim == ImageDim::Cube { 6 } else { 1 }),
                    mips: r.mips.unwrap_or(1),
                    samples: r.samples.unwrap_or(1),
                };
                let bad = s.width == 0
                    || s.height == 0
                    || s.depth == 0
                    || s.layers == 0
                    || s.mips == 0
                    || !s.samples.is_power_of_two()
                    || (dim == ImageDim::D1 && (s.height != 1 || s.depth != 1))
                    || (dim != ImageDim::D3 && s.depth != 1)
                    || (dim == ImageDim::Cube && ((s.layers / 6) * 6 != s.layers || s.width != s.height))
                    || (!array && s.layers != if dim == ImageDim::Cube { 6 } else { 1 })
                    || 32 - s.width.max(s.height).max(s.depth).leading_zeros() < s.mips;
                if bad {
                    return Err(SpecError::new(ctx, format!("inconsistent texture shape {s:?} for kind `{}`", r.kind)));
                }
                let Some(f) = format else { return Err(SpecError::new(ctx, "a texture needs a `format`")) };
                let need = s.byte_size(f);
                if r.size.is_some() {
                    return Err(SpecError::new(ctx, "a texture's size follows from its shape; drop `size`"));
                }
                if init.len() as u64 > need || need > MAX_BYTES {
                    return Err(SpecError::new(ctx, format!("init holds {} bytes, the texture {need}", init.len())));
                }
                init.resize(need as usize, 0);
                shape = Some(s);
            } else {
                if has_shape_keys {
                    return Err(SpecError::new(ctx, "width/height/… are for textures"));
                }
                if let Some(size) = r.size {
                    if size > MAX_BYTES || (init.len() as u64) > size {
                        return Err(SpecError::new(
                            ctx,
                            format!("init holds {} bytes, more than size = {size}", init.len()),
                        ));
                    }
                    init.resize(size as usize, 0);
                }
                if init.is_empty() {
                    return Err(SpecError::new(ctx, "a buffer needs `init` or `size`"));
                }
                let unit = match kind {
                    Kind::Structured => r.stride.unwrap_or(4),
                    Kind::Typed => format.map_or(1, Format::texel_size),
                    _ => 4,
                } as usize;
                if unit == 0 || init.len() % unit != 0 {
                    return Err(SpecError::new(
                        ctx,
                        format!("{} bytes is not a multiple of the element size {unit}", init.len()),
                    ));
                }
            }
        }
    }

    let mut checks = Vec::new();
    let mut next = 0usize;
    for (i, t) in r.expect.iter().enumerate() {
        let c = parse_check(t, next, &format!("{ctx}.expect[{i}]"))?;
        let end = c.at + c.len();
        if end > init.len() {
            return Err(SpecError::new(
                format!("{ctx}.expect[{i}]"),
                format!("bytes {}..{end} lie past the resource's {} bytes", c.at, init.len()),
            ));
        }
        if checks.iter().any(|o: &Check| o.at < end && c.at < o.at + o.len()) {
            return Err(SpecError::new(format!("{ctx}.expect[{i}]"), "overlaps an earlier expect entry"));
        }
        next = end;
        checks.push(c);
    }
    let rest_unchanged = match r.rest.as_deref() {
        None | Some("unchanged") => true,
        Some("ignore") => false,
        Some(o) => return Err(SpecError::new(format!("{ctx}.rest"), format!("`{o}`: \"unchanged\" or \"ignore\""))),
    };
    if (r.counter.is_some() || r.expect_counter.is_some()) && !(class == ResourceClass::Uav && kind == Kind::Structured)
    {
        return Err(SpecError::new(ctx, "counters belong to structured UAVs"));
    }
    let place = match (r.heap, r.root) {
        (None, None) if r.record => {
            if !matches!(kind, Kind::Raw | Kind::Structured | Kind::CBuffer) || r.counter.is_some() {
                return Err(SpecError::new(
                    ctx,
                    "a record address is a raw, structured or constant buffer (no counter)",
                ));
            }
            Place::Address
        }
        (_, _) if r.record => return Err(SpecError::new(ctx, "`record = true` takes no `heap` or `root`")),
        (None, None) => Place::Register,
        (Some(h), None) if h < MAX_HEAP => Place::Heap(h),
        (Some(_), None) => return Err(SpecError::new(ctx, format!("heap index beyond {MAX_HEAP}"))),
        (None, Some(p)) => {
            if !matches!(kind, Kind::Raw | Kind::Structured | Kind::CBuffer | Kind::AccelerationStructure)
                || r.counter.is_some()
            {
                return Err(SpecError::new(
                    ctx,
                    "a root descriptor is a raw, structured or constant buffer (no counter)",
                ));
            }
            Place::Root(p)
        }
        (Some(_), Some(_)) => return Err(SpecError::new(ctx, "give `heap` or `root`, not both")),
    };
    let view = match (r.first, r.count) {
        (None, None) => None,
        (first, count) => {
            if !matches!(place, Place::Heap(_)) || !matches!(kind, Kind::Raw | Kind::Structured | Kind::Typed) {
                return Err(SpecError::new(ctx, "`first`/`count` describe a buffer view in the heap"));
            }
            let unit = match kind {
                Kind::Structured => r.stride.unwrap_or(4),
                Kind::Typed => format.map_or(1, Format::texel_size),
                _ => 4,
            } as u64;
            let elems = init.len() as u64 / unit.max(1);
            let first = first.unwrap_or(0);
            let count = count.unwrap_or((elems.saturating_sub(u64::from(first))) as u32);
            if u64::from(first) + u64::from(count) > elems {
                return Err(SpecError::new(
                    ctx,
                    format!("view {first}+{count} lies beyond the buffer's {elems} elements"),
                ));
            }
            Some((first, count))
        }
    };
    Ok(ResourceSpec {
        place,
        name: r.name,
        view,
        class,
        register,
        space: r.space,
        kind,
        format,
        stride: r.stride,
        init,
        shape,
        sampler,
        counter: r.counter,
        expect_counter: r.expect_counter,
        checks,
        rest_unchanged,
    })
}

fn parse_tolerance(t: &Table, elem: Option<Elem>, ctx: &str) -> Result<Tolerance, SpecError> {
    let abs = t.get("abs");
    let ulp = t.get("ulp");
    let tol = match (abs, ulp) {
        (None, None) => return Ok(Tolerance::Exact),
        (Some(_), Some(_)) => return Err(SpecError::new(ctx, "give `abs` or `ulp`, not both")),
        (Some(a), None) => {
            let e = a.as_float().or_else(|| a.as_integer().map(|i| i as f64));
            match e {
                Some(e) if e >= 0.0 && e.is_finite() => Tolerance::Abs(e),
                _ => return Err(SpecError::new(ctx, "`abs` must be a finite number >= 0")),
            }
        }
        (None, Some(u)) => match u.as_integer() {
            Some(n) if n >= 0 => Tolerance::Ulp(n as u64),
            _ => return Err(SpecError::new(ctx, "`ulp` must be an integer >= 0")),
        },
    };
    if !elem.is_some_and(Elem::is_float) {
        return Err(SpecError::new(ctx, "tolerances apply to f16/f32/f64 data only"));
    }
    Ok(tol)
}

fn parse_check(t: &Table, default_at: usize, ctx: &str) -> Result<Check, SpecError> {
    let at = match t.get("at") {
        None => default_at,
        Some(v) => match v.as_integer() {
            Some(a) if (0..=MAX_BYTES as i64).contains(&a) => a as usize,
            _ => return Err(SpecError::new(ctx, "`at` must be a byte offset")),
        },
    };
    let special: Vec<&str> =
        ["range", "permutation", "one_of", "ignore"].into_iter().filter(|k| t.contains_key(*k)).collect();
    let kind = match special.as_slice() {
        [] => {
            let piece = parse_piece(t, ctx, &["at", "abs", "ulp"])?;
            let tol = parse_tolerance(t, Some(piece.elem), ctx)?;
            CheckKind::Values { piece, tol }
        }
        ["ignore"] => {
            only_keys(t, &["at", "ignore"], ctx)?;
            match t.get("ignore").and_then(Value::as_integer) {
                Some(b) if b > 0 && b <= MAX_BYTES as i64 => CheckKind::Ignore { bytes: b as usize },
                _ => return Err(SpecError::new(ctx, "`ignore` must be a byte count > 0")),
            }
        }
        ["range"] => {
            only_keys(t, &["at", "range"], ctx)?;
            let r = t
                .get("range")
                .and_then(Value::as_table)
                .ok_or_else(|| SpecError::new(ctx, "`range` must be a table"))?;
            only_keys(r, &["type", "min", "max", "count"], &format!("{ctx}.range"))?;
            let ty = r.get("type").and_then(Value::as_str).unwrap_or("u32");
            let elem = Elem::from_name(ty).ok_or_else(|| SpecError::new(ctx, format!("unknown type `{ty}`")))?;
            let get = |k: &str| -> Result<Scalar, SpecError> {
                let v = r.get(k).ok_or_else(|| SpecError::new(ctx, format!("range needs `{k}`")))?;
                let s = parse_scalar(elem, v, &format!("{ctx}.range.{k}"))?;
                if matches!(s, Scalar::Bits(_)) {
                    return Err(SpecError::new(ctx, "range bounds must be numbers"));
                }
                Ok(s)
            };
            let (min, max) = (get("min")?, get("max")?);
            let count = match r.get("count") {
                None => 1,
                Some(v) => match v.as_integer() {
                    Some(c) if c > 0 && c <= 1 << 24 => c as usize,
                    _ => return Err(SpecError::new(ctx, "range `count` must be > 0")),
                },
            };
            CheckKind::Range { elem, min, max, count }
        }
        ["permutation"] => {
            only_keys(t, &["at", "permutation"], ctx)?;
            let p = t
                .get("permutation")
                .and_then(Value::as_table)
                .ok_or_else(|| SpecError::new(ctx, "`permutation` must be a data table"))?;
            CheckKind::Permutation { piece: parse_piece(p, &format!("{ctx}.permutation"), &[])? }
        }
        ["one_of"] => {
            only_keys(t, &["at", "one_of", "abs", "ulp"], ctx)?;
            let arr = t
                .get("one_of")
                .and_then(Value::as_array)
                .ok_or_else(|| SpecError::new(ctx, "`one_of` must be an array of data tables"))?;
            let mut alts = Vec::new();
            for (i, a) in arr.iter().enumerate() {
                let at = a.as_table().ok_or_else(|| SpecError::new(ctx, "`one_of` items must be data tables"))?;
                alts.push(parse_piece(at, &format!("{ctx}.one_of[{i}]"), &[])?);
            }
            let Some(first) = alts.first() else { return Err(SpecError::new(ctx, "`one_of` is empty")) };
            if alts.iter().any(|a| a.byte_len() != first.byte_len() || a.elem != first.elem) {
                return Err(SpecError::new(ctx, "`one_of` alternatives must have the same type and length"));
            }
            let tol = parse_tolerance(t, Some(first.elem), ctx)?;
            CheckKind::OneOf { alts, tol }
        }
        _ => return Err(SpecError::new(ctx, "use only one of range, permutation, one_of, ignore")),
    };
    let c = Check { at, kind };
    if c.is_empty() {
        return Err(SpecError::new(ctx, "checks no bytes"));
    }
    Ok(c)
}

fn only_keys(t: &Table, keys: &[&str], ctx: &str) -> Result<(), SpecError> {
    match t.keys().find(|k| !keys.contains(&k.as_str())) {
        Some(k) => Err(SpecError::new(ctx, format!("unexpected key `{k}`"))),
        None => Ok(()),
    }
}

fn parse_sampler(r: &RawResource, ctx: &str) -> Result<Sampler, SpecError> {
    let filter = match r.filter.as_deref() {
        None | Some("point") => Filter::Point,
        Some("linear") => Filter::Linear,
        Some(o) => return Err(SpecError::new(ctx, format!("filter `{o}`: point or linear"))),
    };
    let address = match r.address.as_deref() {
        None | Some("clamp") => AddressMode::Clamp,
        Some("wrap") => AddressMode::Wrap,
        Some("mirror") => AddressMode::Mirror,
        Some("border") => AddressMode::Border,
        Some(o) => return Err(SpecError::new(ctx, format!("address `{o}`: wrap, clamp, mirror or border"))),
    };
    let compare = match r.compare.as_deref() {
        None => None,
        Some(c) => Some(match c {
            "never" => CompareOp::Never,
            "less" => CompareOp::Less,
            "equal" => CompareOp::Equal,
            "less_equal" => CompareOp::LessEqual,
            "greater" => CompareOp::Greater,
            "not_equal" => CompareOp::NotEqual,
            "greater_equal" => CompareOp::GreaterEqual,
            "always" => CompareOp::Always,
            o => return Err(SpecError::new(ctx, format!("compare `{o}`"))),
        }),
    };
    let border = match r.border.as_deref() {
        None | Some("transparent_black") => BorderColor::TransparentBlack,
        Some("opaque_black") => BorderColor::OpaqueBlack,
        Some("opaque_white") => BorderColor::OpaqueWhite,
        Some(o) => return Err(SpecError::new(ctx, format!("border `{o}`"))),
    };
    Ok(Sampler {
        filter,
        address,
        compare,
        border,
        min_lod: r.min_lod.unwrap_or(0.0),
        max_lod: r.max_lod.unwrap_or(1000.0),
        mip_lod_bias: r.mip_lod_bias.unwrap_or(0.0),
        anisotropy: r.anisotropy,
    })
}

/// Every `*.toml` below `dir`, sorted by path.
pub fn spec_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let p = e?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}
