//! Lowering's view of the entry point ([`EntryMeta`]): an adapter over the
//! one typed description `dxil/` decodes ([`crate::dxil::ShaderEntry`]),
//! with the resource lists flattened into the ranges lowering indexes
//! ([`ResDecl`]). Nothing here reads metadata.

use crate::binding::ResourceClass;
use crate::dxil::{Binding, Resources, ShaderEntry, ViewProperties};
use crate::ir::{FuncId, GlobalId, Module};
use crate::ShaderKind;

/// Lowering's short name for the one resource-kind type.
pub use crate::resource_kind::ResourceKind as ResKind;

/// DXIL component types (`DXIL::ComponentType`), as far as resources use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompType {
    Float,
    SInt,
    UInt,
    /// 64-bit or 16-bit or otherwise unusual element type.
    Other(u8),
}

impl CompType {
    pub fn from_u64(v: u64) -> CompType {
        match v {
            4 => CompType::SInt,
            5 => CompType::UInt,
            9 | 13 | 14 => CompType::Float,
            // i1, i16, u16, i64, u64, f16, f64, snorm/unorm 16/64, packed.
            v => CompType::Other(v.min(255) as u8),
        }
    }
}

/// One range of `dx.resources`.
#[derive(Debug, Clone)]
pub struct ResDecl {
    pub class: ResourceClass,
    /// The range id `CreateHandle` refers to.
    pub id: u32,
    pub space: u32,
    pub lower: u32,
    /// `None`: unbounded.
    pub size: Option<u32>,
    pub kind: ResKind,
    pub comp: CompType,
    pub stride: u32,
    /// CBV size in bytes.
    pub cb_size: u32,
    pub has_counter: bool,
    pub globally_coherent: bool,
    /// A descriptor reached through an SM 6.6 descriptor heap (`CreateHandleFromHeap`), not a
    /// `dx.resources` range: placed by the heap layout of the binding model, indexed by heap index.
    pub heap: bool,
    /// The range's global variable (DXIL libraries name their resources by it), if any.
    pub global: Option<GlobalId>,
}

/// What lowering needs from the metadata.
#[derive(Debug, Clone)]
pub struct EntryMeta {
    pub func: FuncId,
    pub name: String,
    pub kind: ShaderKind,
    pub sm: (u32, u32),
    pub numthreads: [u32; 3],
    pub flags: u64,
    pub resources: Vec<ResDecl>,
    /// Hull and domain shaders: the tessellator state of the entry's properties.
    pub hs: Option<crate::dxil::HsState>,
    pub ds: Option<crate::dxil::DsState>,
    /// Mesh shaders: vertex/primitive counts and output topology.
    pub ms: Option<crate::dxil::MsState>,
    /// An export of a DXIL library (resources are global variables, `CreateHandleForLib`).
    pub library: bool,
    /// Ray-tracing exports: the local root signature the library's subobjects associate with the
    /// export (filled by the compile driver from `RDAT`).
    pub local_root_signature: Option<Box<crate::container::rootsig::RootSignature>>,
    /// `[WaveSize]` (SM 6.6) or `[WaveSize(min, max, preferred)]` (SM 6.8).
    pub wave_size: Option<crate::dxil::WaveSize>,
}

impl EntryMeta {
    pub fn sm_string(&self) -> String {
        let p = match self.kind {
            _ if self.library => "lib",
            ShaderKind::Compute => "cs",
            ShaderKind::Pixel => "ps",
            ShaderKind::Vertex => "vs",
            ShaderKind::Geometry => "gs",
            ShaderKind::Hull => "hs",
            ShaderKind::Domain => "ds",
            ShaderKind::Mesh => "ms",
            ShaderKind::Amplification => "as",
            _ => "lib",
        };
        format!("{p}_{}_{}", self.sm.0, self.sm.1)
    }
}

/// Reads the entry point named `entry` (or the first): decodes the module's
/// metadata, picks the entry and adapts it (benchmarks and tests; the driver
/// adapts the entry it already decoded, [`EntryMeta::from_entry`]).
pub fn read(m: &Module, entry: Option<&str>) -> Result<EntryMeta, String> {
    let info = crate::dxil::decode(m).map_err(|e| e.to_string())?;
    let index = info.select(m, entry).map_err(|e| e.to_string())?;
    let e = info.into_entry(index).ok_or("the chosen entry point has no function")?;
    EntryMeta::from_entry(&e)
}

impl EntryMeta {
    /// Lowering's view of a decoded entry point: its resources flattened into
    /// ranges (SRVs, UAVs, CBVs, samplers in `!dx.resources` order). A view
    /// range without a valid kind is malformed.
    pub fn from_entry(e: &ShaderEntry) -> Result<EntryMeta, String> {
        let p = &e.entry.properties;
        Ok(EntryMeta {
            func: e.function,
            name: e.export_name().to_string(),
            kind: e.kind,
            sm: (e.shader_model.major, e.shader_model.minor),
            numthreads: p.workgroup_size().unwrap_or([1, 1, 1]),
            flags: p.flags.unwrap_or(0),
            resources: decls(e.resources())?,
            hs: p.hs.clone(),
            ds: p.ds.clone(),
            ms: p.ms.clone(),
            library: e.library,
            // Filled by the compile driver from the container's `RDAT`.
            local_root_signature: None,
            wave_size: p.wave_size.clone(),
        })
    }
}

fn decls(r: &Resources) -> Result<Vec<ResDecl>, String> {
    let mut out = Vec::with_capacity(r.len());
    for s in &r.srvs {
        let mut d = decl(ResourceClass::Srv, &s.binding, view_kind(ResourceClass::Srv, s.kind)?);
        view_props(&mut d, &s.props);
        out.push(d);
    }
    for u in &r.uavs {
        let mut d = decl(ResourceClass::Uav, &u.binding, view_kind(ResourceClass::Uav, u.kind)?);
        view_props(&mut d, &u.props);
        d.globally_coherent = u.globally_coherent;
        d.has_counter = u.has_counter;
        out.push(d);
    }
    for c in &r.cbvs {
        let mut d = decl(ResourceClass::Cbv, &c.binding, ResKind::CBuffer);
        d.cb_size = c.size_in_bytes;
        out.push(d);
    }
    for s in &r.samplers {
        out.push(decl(ResourceClass::Sampler, &s.binding, ResKind::Sampler));
    }
    Ok(out)
}

/// The kind of an SRV or UAV range; `Invalid` is malformed.
fn view_kind(class: ResourceClass, kind: ResKind) -> Result<ResKind, String> {
    if kind == ResKind::Invalid {
        return Err(format!("dx.resources: {class:?} record without valid shape"));
    }
    Ok(kind)
}

fn decl(class: ResourceClass, b: &Binding, kind: ResKind) -> ResDecl {
    ResDecl {
        class,
        id: b.id,
        space: b.space,
        lower: b.lower_bound,
        // DXC writes unbounded ranges as size -1; a size of 0 is read as unbounded too.
        size: b.range_size.filter(|&n| n != 0),
        kind,
        comp: CompType::Other(0),
        stride: 0,
        cb_size: 0,
        has_counter: false,
        globally_coherent: false,
        heap: false,
        global: b.global,
    }
}

fn view_props(d: &mut ResDecl, p: &ViewProperties) {
    if let Some(t) = p.element_type {
        d.comp = CompType::from_u64(u64::from(t.to_u32()));
    }
    d.stride = p.stride.unwrap_or(0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxil::{Cbv, ComponentType, EntryPoint, ShaderModel, ShaderProperties, Srv, Uav};

    fn binding(id: u32, lower: u32, range: Option<u32>) -> Binding {
        Binding { id, name: String::new(), space: 2, lower_bound: lower, range_size: range, global: None }
    }

    fn entry(resources: Resources) -> ShaderEntry {
        let properties = ShaderProperties { flags: Some(0x20), num_threads: Some([4, 2, 1]), ..Default::default() };
        ShaderEntry {
            shader_model: ShaderModel { kind: ShaderKind::Compute, major: 6, minor: 5 },
            kind: ShaderKind::Compute,
            library: false,
            index: 0,
            function: FuncId(3),
            entry: EntryPoint {
                function: Some(FuncId(3)),
                name: "main".into(),
                inputs: Vec::new(),
                outputs: Vec::new(),
                patch_constants: Vec::new(),
                resources: Some(resources),
                properties,
            },
        }
    }

    #[test]
    fn adapts_a_decoded_entry() {
        let srv = Srv {
            binding: binding(0, 1, Some(4)),
            kind: ResKind::Texture2D,
            sample_count: 0,
            props: ViewProperties { element_type: Some(ComponentType::F32), ..Default::default() },
        };
        let uav = Uav {
            binding: binding(0, 0, Some(0)),
            kind: ResKind::StructuredBuffer,
            globally_coherent: true,
            has_counter: true,
            rasterizer_ordered: false,
            props: ViewProperties { stride: Some(16), ..Default::default() },
        };
        let cbv = Cbv { binding: binding(0, 0, None), size_in_bytes: 64, other_tags: Vec::new() };
        let e = entry(Resources { srvs: vec![srv], uavs: vec![uav], cbvs: vec![cbv], samplers: Vec::new() });
        let m = EntryMeta::from_entry(&e).unwrap();
        assert_eq!((m.func, m.name.as_str(), m.kind, m.sm), (FuncId(3), "main", ShaderKind::Compute, (6, 5)));
        assert_eq!((m.numthreads, m.flags, m.sm_string()), ([4, 2, 1], 0x20, "cs_6_5".to_string()));
        let [s, u, c] = &m.resources[..] else { panic!("{:?}", m.resources) };
        assert_eq!(
            (s.class, s.kind, s.comp, s.lower, s.size),
            (ResourceClass::Srv, ResKind::Texture2D, CompType::Float, 1, Some(4))
        );
        // A range size of 0 reads as unbounded, as -1 does.
        assert_eq!(
            (u.kind, u.stride, u.size, u.has_counter, u.globally_coherent),
            (ResKind::StructuredBuffer, 16, None, true, true)
        );
        assert_eq!((c.class, c.kind, c.cb_size, c.size, c.space), (ResourceClass::Cbv, ResKind::CBuffer, 64, None, 2));
    }

    #[test]
    fn a_view_without_a_kind_is_malformed() {
        let srv =
            Srv { binding: binding(0, 0, Some(1)), kind: ResKind::Invalid, sample_count: 0, props: Default::default() };
        let e = entry(Resources { srvs: vec![srv], ..Default::default() });
        assert_eq!(EntryMeta::from_entry(&e).unwrap_err(), "dx.resources: Srv record without valid shape");
    }
}
