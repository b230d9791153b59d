//! The `[root_signature]` section of bindless specs (format in conformance/SPECS.md): the root
//! signature (the container's embedded `RTS0`, or parameters written in TOML), the values the
//! root arguments hold (root constants, table heap offsets), the heap's size and the binding
//! policy. Parsed and checked here; [`super::bindless`] runs such specs.

use super::backend::{AddressMode, BorderColor, CompareOp, Filter, Sampler};
use super::error::SpecError;
use dxjit::binding::{BindingPolicy, HeapArrays};
use dxjit::container::rootsig::{
    DescriptorRange, DescriptorRangeType, RootDescriptor, RootParameter, RootParameterKind, RootSignature,
    RootSignatureVersion, ShaderVisibility, StaticSampler,
};
use serde::Deserialize;

/// Largest heap a spec may describe.
pub const MAX_HEAP: u32 = 1 << 16;

/// A parsed `[root_signature]`.
#[derive(Debug, Clone, PartialEq)]
pub struct RootSpec {
    /// The root signature written in the spec; `None`: the container's embedded `RTS0` (or, with
    /// `library`, the DXIL library's global root signature subobject).
    pub signature: Option<RootSignature>,
    /// `source = "library"` (ray-tracing specs): the libraries' global root signature.
    pub library: bool,
    /// One array of mutable descriptors instead of one array per descriptor type.
    pub mutable: bool,
    /// Descriptors in the CBV/SRV/UAV heap (and the sampler heap); default: the highest heap
    /// index a resource uses + 1.
    pub heap_size: Option<u32>,
    /// What each root parameter holds, in parameter order.
    pub arguments: Vec<RootArgument>,
}

/// The value of one root parameter.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RootArgument {
    /// Root constants: their 32-bit values.
    pub values: Vec<u32>,
    /// Descriptor table: its current offset into the heap.
    pub table_offset: Option<u32>,
}

impl RootSpec {
    /// The binding policy the spec asks for (the default policy, or mutable heap arrays).
    pub fn policy(&self) -> BindingPolicy {
        let mut p = BindingPolicy::default();
        if self.mutable {
            p.heap = HeapArrays::mutable(0, 0);
        }
        p
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRootSig {
    source: String,
    policy: Option<String>,
    heap_size: Option<u32>,
    #[serde(default)]
    flags: Vec<String>,
    #[serde(default)]
    parameter: Vec<RawParam>,
    #[serde(default)]
    static_sampler: Vec<RawStaticSampler>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    kind: Option<String>,
    register: Option<String>,
    #[serde(default)]
    space: u32,
    visibility: Option<String>,
    num: Option<u32>,
    values: Option<Vec<u32>>,
    offset: Option<u32>,
    #[serde(default)]
    range: Vec<RawRange>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRange {
    register: String,
    #[serde(default)]
    space: u32,
    count: Option<u32>,
    #[serde(default)]
    unbounded: bool,
    offset: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStaticSampler {
    register: String,
    #[serde(default)]
    space: u32,
    visibility: Option<String>,
    filter: Option<String>,
    address: Option<String>,
    compare: Option<String>,
    border: Option<String>,
    min_lod: Option<f32>,
    max_lod: Option<f32>,
    mip_lod_bias: Option<f32>,
}

/// `t3` → (range type, 3).
fn register(s: &str, ctx: &str) -> Result<(DescriptorRangeType, u32), SpecError> {
    let mut chars = s.chars();
    let t = match chars.next() {
        Some('t') => DescriptorRangeType::Srv,
        Some('u') => DescriptorRangeType::Uav,
        Some('b') => DescriptorRangeType::Cbv,
        Some('s') => DescriptorRangeType::Sampler,
        _ => return Err(SpecError::new(ctx, format!("register `{s}` must be t<N>, u<N>, b<N> or s<N>"))),
    };
    let n = chars.as_str().parse::<u32>().map_err(|_| SpecError::new(ctx, format!("bad register number in `{s}`")))?;
    Ok((t, n))
}

fn visibility(v: Option<&str>, ctx: &str) -> Result<ShaderVisibility, SpecError> {
    Ok(match v {
        None | Some("all") => ShaderVisibility::All,
        Some("vertex") => ShaderVisibility::Vertex,
        Some("hull") => ShaderVisibility::Hull,
        Some("domain") => ShaderVisibility::Domain,
        Some("geometry") => ShaderVisibility::Geometry,
        Some("pixel") => ShaderVisibility::Pixel,
        Some(o) => {
            return Err(SpecError::new(ctx, format!("visibility `{o}`: all, vertex, hull, domain, geometry or pixel")))
        }
    })
}

fn bad(ctx: &str, msg: impl Into<String>) -> SpecError {
    SpecError::new(ctx, msg)
}

pub(super) fn parse_root(raw: RawRootSig) -> Result<RootSpec, SpecError> {
    let ctx = "root_signature";
    let (toml_source, library) = match raw.source.as_str() {
        "embedded" => (false, false),
        "library" => (false, true),
        "toml" => (true, false),
        o => {
            return Err(bad(
                ctx,
                format!("source `{o}`: \"embedded\" (the container's RTS0), \"library\" (a DXIL library's global root signature) or \"toml\""),
            ))
        }
    };
    let mutable = match raw.policy.as_deref() {
        None | Some("per_type") => false,
        Some("mutable") => true,
        Some(o) => return Err(bad(ctx, format!("policy `{o}`: \"per_type\" or \"mutable\""))),
    };
    if let Some(n) = raw.heap_size {
        if n == 0 || n > MAX_HEAP {
            return Err(bad(ctx, format!("heap_size must be in 1..={MAX_HEAP}")));
        }
    }
    let mut flags = 0u32;
    for f in &raw.flags {
        // D3D12_ROOT_SIGNATURE_FLAGS.
        flags |= match f.as_str() {
            "allow_input_assembler_input_layout" => 0x1,
            "cbv_srv_uav_heap_directly_indexed" => 0x400,
            "sampler_heap_directly_indexed" => 0x800,
            o => {
                return Err(bad(
                    ctx,
                    format!("flag `{o}`: allow_input_assembler_input_layout, cbv_srv_uav_heap_directly_indexed or sampler_heap_directly_indexed"),
                ))
            }
        };
    }
    if flags != 0 && !toml_source {
        return Err(bad(ctx, "flags come from the embedded root signature"));
    }
    let mut arguments = Vec::with_capacity(raw.parameter.len());
    let mut parameters = Vec::with_capacity(raw.parameter.len());
    for (i, p) in raw.parameter.into_iter().enumerate() {
        let pctx = format!("{ctx}.parameter[{i}]");
        let arg = RootArgument { values: p.values.clone().unwrap_or_default(), table_offset: p.offset };
        if let Some(o) = p.offset {
            if o >= MAX_HEAP {
                return Err(bad(&pctx, "table offset beyond the largest heap"));
            }
        }
        if !toml_source {
            if p.kind.is_some() || p.register.is_some() || p.visibility.is_some() || !p.range.is_empty() {
                return Err(bad(
                    &pctx,
                    "with source = \"embedded\" a parameter gives only its values (`values`, `offset`)",
                ));
            }
            if p.values.is_some() && p.offset.is_some() {
                return Err(bad(&pctx, "give `values` (root constants) or `offset` (table), not both"));
            }
            arguments.push(arg);
            continue;
        }
        let kind = p.kind.as_deref().ok_or_else(|| bad(&pctx, "needs `kind`: constants, cbv, srv, uav or table"))?;
        let vis = visibility(p.visibility.as_deref(), &pctx)?;
        let reg = |want: DescriptorRangeType| -> Result<u32, SpecError> {
            let r = p.register.as_deref().ok_or_else(|| bad(&pctx, "needs `register`"))?;
            let (t, n) = register(r, &pctx)?;
            if t != want {
                return Err(bad(&pctx, format!("register `{r}` does not suit kind `{kind}`")));
            }
            Ok(n)
        };
        let only =
            |ok: bool, what: &str| if ok { Ok(()) } else { Err(bad(&pctx, format!("kind `{kind}` takes {what}"))) };
        let param = match kind {
            "constants" => {
                only(p.offset.is_none() && p.range.is_empty(), "register, space, num and values")?;
                let num = p.num.unwrap_or(arg.values.len() as u32);
                if num == 0 || num > 64 || arg.values.len() > num as usize {
                    return Err(bad(&pctx, "root constants: 1..=64 values, no more values than `num`"));
                }
                RootParameterKind::Constants {
                    shader_register: reg(DescriptorRangeType::Cbv)?,
                    register_space: p.space,
                    num_32bit_values: num,
                }
            }
            "cbv" | "srv" | "uav" => {
                only(p.offset.is_none() && p.range.is_empty() && p.values.is_none() && p.num.is_none(), "a register")?;
                let (t, make): (_, fn(RootDescriptor) -> RootParameterKind) = match kind {
                    "cbv" => (DescriptorRangeType::Cbv, RootParameterKind::Cbv),
                    "srv" => (DescriptorRangeType::Srv, RootParameterKind::Srv),
                    _ => (DescriptorRangeType::Uav, RootParameterKind::Uav),
                };
                make(RootDescriptor { shader_register: reg(t)?, register_space: p.space, flags: Some(0) })
            }
            "table" => {
                only(p.register.is_none() && p.values.is_none() && p.num.is_none(), "ranges and an offset")?;
                if p.offset.is_none() {
                    return Err(bad(&pctx, "a table needs `offset` (its heap offset)"));
                }
                if p.range.is_empty() {
                    return Err(bad(&pctx, "a table needs at least one [[…range]]"));
                }
                let mut ranges = Vec::new();
                for (k, r) in p.range.iter().enumerate() {
                    let rctx = format!("{pctx}.range[{k}]");
                    let (range_type, base) = register(&r.register, &rctx)?;
                    let num = match (r.count, r.unbounded) {
                        (Some(n), false) if n > 0 && n < MAX_HEAP => n,
                        (None, true) => u32::MAX,
                        _ => return Err(bad(&rctx, "give `count` (1..65536) or `unbounded = true`")),
                    };
                    ranges.push(DescriptorRange {
                        range_type,
                        num_descriptors: num,
                        base_shader_register: base,
                        register_space: r.space,
                        flags: Some(0),
                        offset_in_descriptors_from_table_start: r.offset.unwrap_or(u32::MAX),
                    });
                }
                let samplers = ranges.iter().filter(|r| r.range_type == DescriptorRangeType::Sampler).count();
                if samplers != 0 && samplers != ranges.len() {
                    return Err(bad(&pctx, "a table holds sampler ranges only or none (D3D12)"));
                }
                RootParameterKind::DescriptorTable(ranges)
            }
            o => return Err(bad(&pctx, format!("kind `{o}`: constants, cbv, srv, uav or table"))),
        };
        parameters.push(RootParameter { visibility: vis, kind: param });
        arguments.push(arg);
    }
    let mut static_samplers = Vec::new();
    for (i, s) in raw.static_sampler.into_iter().enumerate() {
        let sctx = format!("{ctx}.static_sampler[{i}]");
        if !toml_source {
            return Err(bad(&sctx, "static samplers come from the embedded root signature"));
        }
        let (t, shader_register) = register(&s.register, &sctx)?;
        if t != DescriptorRangeType::Sampler {
            return Err(bad(&sctx, "a static sampler sits in an s register"));
        }
        static_samplers.push(static_sampler_desc(
            &s,
            shader_register,
            visibility(s.visibility.as_deref(), &sctx)?,
            &sctx,
        )?);
    }
    let signature = toml_source.then_some(RootSignature {
        version: RootSignatureVersion::V1_1,
        flags,
        parameters,
        static_samplers,
    });
    Ok(RootSpec { signature, library, mutable, heap_size: raw.heap_size, arguments })
}

/// A TOML static sampler as its `D3D12_STATIC_SAMPLER_DESC` numbers.
fn static_sampler_desc(
    s: &RawStaticSampler,
    shader_register: u32,
    vis: ShaderVisibility,
    ctx: &str,
) -> Result<StaticSampler, SpecError> {
    let compare = match s.compare.as_deref() {
        None => None,
        Some(c) => Some(match c {
            "never" => 1,
            "less" => 2,
            "equal" => 3,
            "less_equal" => 4,
            "greater" => 5,
            "not_equal" => 6,
            "greater_equal" => 7,
            "always" => 8,
            o => return Err(bad(ctx, format!("compare `{o}`"))),
        }),
    };
    // D3D12_FILTER: MIN_MAG_MIP_POINT = 0, MIN_MAG_MIP_LINEAR = 0x15, comparison filters + 0x80.
    let filter = match s.filter.as_deref() {
        None | Some("point") => 0,
        Some("linear") => 0x15,
        Some(o) => return Err(bad(ctx, format!("filter `{o}`: point or linear"))),
    } | if compare.is_some() { 0x80 } else { 0 };
    let address = match s.address.as_deref() {
        Some("wrap") => 1,
        Some("mirror") => 2,
        None | Some("clamp") => 3,
        Some("border") => 4,
        Some(o) => return Err(bad(ctx, format!("address `{o}`: wrap, clamp, mirror or border"))),
    };
    let border_color = match s.border.as_deref() {
        None | Some("transparent_black") => 0,
        Some("opaque_black") => 1,
        Some("opaque_white") => 2,
        Some(o) => return Err(bad(ctx, format!("border `{o}`"))),
    };
    Ok(StaticSampler {
        filter,
        address_u: address,
        address_v: address,
        address_w: address,
        mip_lod_bias: s.mip_lod_bias.unwrap_or(0.0),
        max_anisotropy: 1,
        comparison_func: compare.unwrap_or(1),
        border_color,
        min_lod: s.min_lod.unwrap_or(0.0),
        max_lod: s.max_lod.unwrap_or(1000.0),
        shader_register,
        register_space: s.space,
        visibility: vis,
        flags: Some(0),
    })
}

/// The sampler a `D3D12_STATIC_SAMPLER_DESC` describes (the runner's sampler keeps one address
/// mode: U's; filters are point or linear by their min/mag bits, anisotropic with its maximum).
pub fn sampler_of(s: &StaticSampler) -> Sampler {
    let f = s.filter;
    let anisotropic = f & 0x40 != 0;
    let filter = if anisotropic || f & 0x14 != 0 { Filter::Linear } else { Filter::Point };
    let address = match s.address_u {
        1 => AddressMode::Wrap,
        2 | 5 => AddressMode::Mirror,
        4 => AddressMode::Border,
        _ => AddressMode::Clamp,
    };
    let compare = (f & 0x80 != 0).then_some(match s.comparison_func {
        1 => CompareOp::Never,
        2 => CompareOp::Less,
        3 => CompareOp::Equal,
        4 => CompareOp::LessEqual,
        5 => CompareOp::Greater,
        6 => CompareOp::NotEqual,
        7 => CompareOp::GreaterEqual,
        _ => CompareOp::Always,
    });
    let border = match s.border_color {
        1 => BorderColor::OpaqueBlack,
        2 => BorderColor::OpaqueWhite,
        _ => BorderColor::TransparentBlack,
    };
    Sampler {
        filter,
        address,
        compare,
        border,
        min_lod: s.min_lod,
        max_lod: s.max_lod,
        mip_lod_bias: s.mip_lod_bias,
        anisotropy: anisotropic.then_some(s.max_anisotropy.clamp(1, 16) as f32),
    }
}
