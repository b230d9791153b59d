//! Resource records: the SRV, UAV, CBV and sampler lists of `!dx.resources`
//! (and of library entry points).
//!
//! Every record starts with id, global (or `undef`), name, space, lower
//! bound and range size; then per class: SRV shape, sample count, tags;
//! UAV shape, globally-coherent, has-counter, rasterizer-ordered, tags;
//! CBV size in bytes, tags; sampler kind, tags.

use super::enums::{dxil_enum, read_enum};
use super::reader::{arity, Field, Index, Op, Reader};
use super::signature::ComponentType;
use super::DxilError;
use crate::ir::GlobalId;
pub use crate::resource_kind::ResourceKind;
use serde::Serialize;
use std::fmt::Display;

dxil_enum! {
    /// `DXIL::SamplerKind`.
    SamplerKind {
        Default = 0 => "default",
        Comparison = 1 => "comparison",
        Mono = 2 => "mono",
    }
}

dxil_enum! {
    /// `DXIL::SamplerFeedbackType` of feedback textures.
    SamplerFeedbackType {
        MinMip = 0 => "min_mip",
        MipRegionUsed = 1 => "mip_region_used",
    }
}

dxil_enum! {
    /// The four resource classes, in `!dx.resources` order.
    ResourceClass {
        Srv = 0 => "srv",
        Uav = 1 => "uav",
        Cbv = 2 => "cbv",
        Sampler = 3 => "sampler",
    }
}

impl ResourceClass {
    /// The HLSL register letter (`t`, `u`, `b`, `s`).
    pub fn register_letter(self) -> char {
        match self {
            ResourceClass::Srv => 't',
            ResourceClass::Uav => 'u',
            ResourceClass::Cbv => 'b',
            ResourceClass::Sampler => 's',
        }
    }
}

/// Extended-property tags of SRV and UAV records.
pub mod tags {
    pub const ELEMENT_TYPE: u32 = 0;
    pub const STRUCTURED_STRIDE: u32 = 1;
    pub const SAMPLER_FEEDBACK_KIND: u32 = 2;
    pub const ATOMIC64_USE: u32 = 3;
}

/// The fields every resource record has.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Binding {
    /// Unique per class.
    pub id: u32,
    /// The HLSL name; empty when stripped.
    pub name: String,
    pub space: u32,
    pub lower_bound: u32,
    /// Number of registers; `None` for unbounded ranges, which DXC writes
    /// as `i32 -1` (0xFFFFFFFF; the only form seen in the corpus).
    pub range_size: Option<u32>,
    /// The resource's global variable (`None` when the record has `undef`,
    /// as SM 6.6+ modules do).
    pub global: Option<GlobalId>,
}

impl Binding {
    /// `t0`, `t0-t3`, `t0-unbounded` for the given class letter; `t5 (empty)` for a range of no
    /// registers (metadata may say 0).
    pub fn register_range(&self, letter: char) -> String {
        match self.range_size {
            Some(0) => format!("{letter}{} (empty)", self.lower_bound),
            Some(1) => format!("{letter}{}", self.lower_bound),
            Some(n) => {
                format!("{letter}{}-{letter}{}", self.lower_bound, u64::from(self.lower_bound) + u64::from(n) - 1)
            }
            None => format!("{letter}{}-unbounded", self.lower_bound),
        }
    }
}

/// Extended properties of SRVs and UAVs.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ViewProperties {
    /// Element type of typed buffers and textures.
    pub element_type: Option<ComponentType>,
    /// Stride of structured buffers, in bytes.
    pub stride: Option<u32>,
    pub feedback_type: Option<SamplerFeedbackType>,
    /// 64-bit atomics are used on this resource.
    pub atomic64_use: bool,
    /// Tags not interpreted here: (tag, rendered value).
    pub other_tags: Vec<(u32, String)>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Srv {
    pub binding: Binding,
    pub kind: ResourceKind,
    pub sample_count: u32,
    pub props: ViewProperties,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Uav {
    pub binding: Binding,
    pub kind: ResourceKind,
    pub globally_coherent: bool,
    pub has_counter: bool,
    pub rasterizer_ordered: bool,
    pub props: ViewProperties,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cbv {
    pub binding: Binding,
    pub size_in_bytes: u32,
    pub other_tags: Vec<(u32, String)>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sampler {
    pub binding: Binding,
    pub kind: SamplerKind,
    pub other_tags: Vec<(u32, String)>,
}

/// The four resource lists.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Resources {
    pub srvs: Vec<Srv>,
    pub uavs: Vec<Uav>,
    pub cbvs: Vec<Cbv>,
    pub samplers: Vec<Sampler>,
}

impl Resources {
    pub fn is_empty(&self) -> bool {
        self.srvs.is_empty() && self.uavs.is_empty() && self.cbvs.is_empty() && self.samplers.is_empty()
    }
    pub fn len(&self) -> usize {
        self.srvs.len() + self.uavs.len() + self.cbvs.len() + self.samplers.len()
    }
    /// Every binding with its class, in class order.
    pub fn bindings(&self) -> impl Iterator<Item = (ResourceClass, &Binding)> {
        self.srvs
            .iter()
            .map(|r| (ResourceClass::Srv, &r.binding))
            .chain(self.uavs.iter().map(|r| (ResourceClass::Uav, &r.binding)))
            .chain(self.cbvs.iter().map(|r| (ResourceClass::Cbv, &r.binding)))
            .chain(self.samplers.iter().map(|r| (ResourceClass::Sampler, &r.binding)))
    }
}

/// Decodes a `!{srvs, uavs, cbvs, samplers}` tuple (each list nullable).
pub(crate) fn decode_resources(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<Resources, DxilError> {
    let lists = r.node(op, what)?;
    arity(lists, 4, what)?;
    let each = |i: usize, name: &'static str| -> Result<&[Op], DxilError> {
        Ok(r.opt_node(lists[i], &Field(what, name))?.unwrap_or(&[]))
    };
    let mut out = Resources::default();
    for (j, op) in each(0, "srvs")?.iter().enumerate() {
        out.srvs.push(decode_srv(r, *op, &Index(&Field(what, "srvs"), j))?);
    }
    for (j, op) in each(1, "uavs")?.iter().enumerate() {
        out.uavs.push(decode_uav(r, *op, &Index(&Field(what, "uavs"), j))?);
    }
    for (j, op) in each(2, "cbvs")?.iter().enumerate() {
        out.cbvs.push(decode_cbv(r, *op, &Index(&Field(what, "cbvs"), j))?);
    }
    for (j, op) in each(3, "samplers")?.iter().enumerate() {
        out.samplers.push(decode_sampler(r, *op, &Index(&Field(what, "samplers"), j))?);
    }
    Ok(out)
}

fn decode_binding(r: &Reader<'_>, f: &[Op], what: &dyn Display) -> Result<Binding, DxilError> {
    let range = r.u32(f[5], &format_args!("{what}.range_size"))?;
    Ok(Binding {
        id: r.u32(f[0], &format_args!("{what}.id"))?,
        global: r.global(f[1], &format_args!("{what}.global"))?,
        name: r.string(f[2], &format_args!("{what}.name"))?.to_string(),
        space: r.u32(f[3], &format_args!("{what}.space"))?,
        lower_bound: r.u32(f[4], &format_args!("{what}.lower_bound"))?,
        range_size: (range != u32::MAX).then_some(range),
    })
}

fn decode_view_props(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<ViewProperties, DxilError> {
    let mut p = ViewProperties::default();
    for (i, (tag, v)) in r.tags(r.tag_pairs(op, what)?).enumerate() {
        let w = Index(what, i);
        match tag {
            tags::ELEMENT_TYPE => {
                p.element_type = Some(read_enum(r, v, &w, "component type", ComponentType::from_u32)?)
            }
            tags::STRUCTURED_STRIDE => p.stride = Some(r.u32(v, &w)?),
            tags::SAMPLER_FEEDBACK_KIND => {
                p.feedback_type = Some(read_enum(r, v, &w, "sampler feedback type", SamplerFeedbackType::from_u32)?)
            }
            tags::ATOMIC64_USE => p.atomic64_use = r.bool(v, &w)?,
            _ => p.other_tags.push((tag, r.render(v))),
        }
    }
    Ok(p)
}

fn other_tags(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<Vec<(u32, String)>, DxilError> {
    Ok(r.tags(r.tag_pairs(op, what)?).map(|(t, v)| (t, r.render(v))).collect())
}

fn decode_srv(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<Srv, DxilError> {
    let f = r.node(op, what)?;
    arity(f, 9, what)?;
    Ok(Srv {
        binding: decode_binding(r, f, what)?,
        kind: read_enum(r, f[6], &format_args!("{what}.kind"), "resource kind", ResourceKind::from_u32)?,
        sample_count: r.u32(f[7], &format_args!("{what}.sample_count"))?,
        props: decode_view_props(r, f[8], &format_args!("{what}.tags"))?,
    })
}

fn decode_uav(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<Uav, DxilError> {
    let f = r.node(op, what)?;
    arity(f, 11, what)?;
    Ok(Uav {
        binding: decode_binding(r, f, what)?,
        kind: read_enum(r, f[6], &format_args!("{what}.kind"), "resource kind", ResourceKind::from_u32)?,
        globally_coherent: r.bool(f[7], &format_args!("{what}.globally_coherent"))?,
        has_counter: r.bool(f[8], &format_args!("{what}.has_counter"))?,
        rasterizer_ordered: r.bool(f[9], &format_args!("{what}.rasterizer_ordered"))?,
        props: decode_view_props(r, f[10], &format_args!("{what}.tags"))?,
    })
}

fn decode_cbv(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<Cbv, DxilError> {
    let f = r.node(op, what)?;
    arity(f, 8, what)?;
    Ok(Cbv {
        binding: decode_binding(r, f, what)?,
        size_in_bytes: r.u32(f[6], &format_args!("{what}.size_in_bytes"))?,
        other_tags: other_tags(r, f[7], &format_args!("{what}.tags"))?,
    })
}

fn decode_sampler(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<Sampler, DxilError> {
    let f = r.node(op, what)?;
    arity(f, 8, what)?;
    Ok(Sampler {
        binding: decode_binding(r, f, what)?,
        kind: read_enum(r, f[6], &format_args!("{what}.kind"), "sampler kind", SamplerKind::from_u32)?,
        other_tags: other_tags(r, f[7], &format_args!("{what}.tags"))?,
    })
}
