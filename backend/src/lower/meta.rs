//! The DXIL metadata lowering needs: the entry point, its resources, thread
//! group size, shader model and shader flags, read straight from the
//! module's named metadata (`dx.entryPoints`, `dx.shaderModel`,
//! `dx.resources`).

use crate::binding::ResourceClass;
use crate::dxil::library::export_name;
use crate::ir::{FuncId, MdId, Metadata, Module, Value};
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
    /// Hull and domain shaders: the tessellator state of the entry's
    /// properties ([`read`] and the compile entry points fill it).
    pub hs: Option<crate::dxil::HsState>,
    pub ds: Option<crate::dxil::DsState>,
    /// Mesh shaders: vertex/primitive counts and output topology.
    pub ms: Option<crate::dxil::MsState>,
    /// An export of a DXIL library (resources are global variables, `CreateHandleForLib`).
    pub library: bool,
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

struct Md<'m>(&'m Module);

impl<'m> Md<'m> {
    fn node(&self, id: Option<MdId>) -> Option<&'m [Option<MdId>]> {
        self.0.md_node(id?)
    }
    fn op(&self, node: &[Option<MdId>], i: usize) -> Option<MdId> {
        node.get(i).copied().flatten()
    }
    fn value(&self, id: Option<MdId>) -> Option<Value> {
        match self.0.metadata.get(id?.index())? {
            Metadata::Value { value, .. } => Some(*value),
            _ => None,
        }
    }
    fn uint(&self, id: Option<MdId>) -> Option<u64> {
        self.0.const_uint(self.value(id)?)
    }
    fn string(&self, id: Option<MdId>) -> Option<&'m str> {
        self.0.md_string(id?)
    }
}

/// Reads the entry point named `entry` (or the first) and its metadata.
pub fn read(m: &Module, entry: Option<&str>) -> Result<EntryMeta, String> {
    let mut e = match read_entry(m, entry, false) {
        Ok(e) => e,
        Err(ReadError::Malformed(s)) => return Err(s),
        Err(ReadError::Library { shader_model }) => return Err(format!("{shader_model} is a library")),
    };
    read_tess_state(m, &mut e).map_err(|e| e.to_string())?;
    Ok(e.meta)
}

/// Fills [`EntryMeta::hs`]/[`EntryMeta::ds`] of a hull or domain shader
/// from its entry record (nothing for other stages).
pub(crate) fn read_tess_state(m: &Module, e: &mut ReadEntry) -> Result<(), crate::dxil::DxilError> {
    if matches!(e.meta.kind, ShaderKind::Hull | ShaderKind::Domain | ShaderKind::Mesh) {
        let ep = crate::dxil::decode_entry_io(m, e.node, e.index)?;
        e.meta.hs = ep.properties.hs;
        e.meta.ds = ep.properties.ds;
        e.meta.ms = ep.properties.ms;
    }
    Ok(())
}

/// [`read`]'s result with where the entry's record is.
pub(crate) struct ReadEntry {
    pub meta: EntryMeta,
    /// The record's index in `!dx.entryPoints` and its node.
    pub index: usize,
    pub node: MdId,
}

pub(crate) enum ReadError {
    /// A DXIL library (`lib_x_y` profile) and the caller refused libraries.
    Library {
        shader_model: String,
    },
    Malformed(String),
}

impl From<&str> for ReadError {
    fn from(s: &str) -> Self {
        ReadError::Malformed(s.to_string())
    }
}

impl From<String> for ReadError {
    fn from(s: String) -> Self {
        ReadError::Malformed(s)
    }
}

/// [`read`]; with `refuse_library`, a `lib_*` profile is refused before any
/// entry point is looked at.
pub(crate) fn read_entry(m: &Module, entry: Option<&str>, refuse_library: bool) -> Result<ReadEntry, ReadError> {
    let md = Md(m);
    let sm_node = m
        .named_md("dx.shaderModel")
        .and_then(|n| n.ops.first().copied())
        .and_then(|id| m.md_node(id))
        .ok_or("missing !dx.shaderModel")?;
    let prefix = md.string(md.op(sm_node, 0)).ok_or("!dx.shaderModel: no profile string")?;
    let kind = ShaderKind::from_profile_prefix(prefix)
        .ok_or_else(|| format!("!dx.shaderModel: unknown profile {prefix:?}"))?;
    let sm = (
        md.uint(md.op(sm_node, 1)).ok_or("!dx.shaderModel: no major")? as u32,
        md.uint(md.op(sm_node, 2)).ok_or("!dx.shaderModel: no minor")? as u32,
    );
    // A library compiles one named export; without a name there is no entry point to pick.
    if refuse_library && kind == ShaderKind::Library && entry.is_none() {
        return Err(ReadError::Library { shader_model: format!("{prefix}_{}_{}", sm.0, sm.1) });
    }
    let eps = m.named_md("dx.entryPoints").ok_or("missing !dx.entryPoints")?;
    let mut chosen = None;
    for (index, &ep) in eps.ops.iter().enumerate() {
        let Some(node) = m.md_node(ep) else { continue };
        let name = md.string(md.op(node, 1)).unwrap_or("");
        let func = match md.value(md.op(node, 0)) {
            Some(Value::Function(f)) => Some(f),
            _ => None,
        };
        let plain = kind == ShaderKind::Library && func.is_some() && entry.is_some_and(|e| e == export_name(name));
        if plain || entry.is_none_or(|e| e == name) {
            chosen = Some((node, func, name, index, ep));
            break;
        }
    }
    let (node, func, name, index, node_id) =
        chosen.ok_or_else(|| format!("entry point {:?} not in !dx.entryPoints", entry.unwrap_or("<first>")))?;
    let func = func.ok_or_else(|| format!("entry point {name:?} has no function"))?;
    if m.functions.get(func.index()).is_none_or(|f| f.is_declaration) {
        return Err(ReadError::Malformed(format!("entry point {name:?}: function is not defined")));
    }
    let mut out = EntryMeta {
        func,
        name: if kind == ShaderKind::Library { export_name(name) } else { name }.to_string(),
        kind,
        sm,
        numthreads: [1, 1, 1],
        flags: 0,
        resources: Vec::new(),
        hs: None,
        ds: None,
        ms: None,
        library: kind == ShaderKind::Library,
    };
    // Resources: entry op 3, else the named dx.resources.
    let res_node = md
        .node(md.op(node, 3))
        .or_else(|| m.named_md("dx.resources").and_then(|n| n.ops.first().copied()).and_then(|id| m.md_node(id)));
    if let Some(res) = res_node {
        for (ci, class) in
            [ResourceClass::Srv, ResourceClass::Uav, ResourceClass::Cbv, ResourceClass::Sampler].into_iter().enumerate()
        {
            let Some(list) = md.node(md.op(res, ci)) else { continue };
            for &r in list {
                let rec = md.node(r).ok_or_else(|| format!("dx.resources: {class:?} record is not a node"))?;
                out.resources.push(read_res(&md, class, rec)?);
            }
        }
    }
    // Properties: tag/value pairs.
    if let Some(props) = md.node(md.op(node, 4)) {
        let mut i = 0;
        while i + 1 < props.len() {
            let tag = md.uint(md.op(props, i));
            let val = md.op(props, i + 1);
            match tag {
                Some(0) => out.flags = md.uint(val).unwrap_or(0),
                Some(4) => {
                    let n = md.node(val).ok_or("numthreads is not a node")?;
                    for (k, t) in out.numthreads.iter_mut().enumerate() {
                        *t = md.uint(md.op(n, k)).ok_or("numthreads: bad value")? as u32;
                    }
                }
                // Mesh (9) and amplification (10) state: numthreads is the first field.
                Some(9 | 10) => {
                    let st = md.node(val).ok_or("mesh/amplification state is not a node")?;
                    let n = md.node(md.op(st, 0)).ok_or("mesh/amplification numthreads is not a node")?;
                    for (k, t) in out.numthreads.iter_mut().enumerate() {
                        *t = md.uint(md.op(n, k)).ok_or("numthreads: bad value")? as u32;
                    }
                }
                Some(8) => {
                    if let Some(k) = md.uint(val).and_then(|v| ShaderKind::from_u32(v as u32)) {
                        out.kind = k;
                    }
                }
                _ => {}
            }
            i += 2;
        }
    }
    Ok(ReadEntry { meta: out, index, node: node_id })
}

/// A resource kind a range can have (not `Invalid`).
fn valid_kind(v: u64) -> Option<ResKind> {
    ResKind::from_u64(v).filter(|k| *k != ResKind::Invalid)
}

fn read_res(md: &Md<'_>, class: ResourceClass, rec: &[Option<MdId>]) -> Result<ResDecl, String> {
    let f = |i: usize| md.uint(md.op(rec, i));
    let what = |n: &str| format!("dx.resources: {class:?} record without {n}");
    let id = f(0).ok_or_else(|| what("id"))? as u32;
    let space = f(3).ok_or_else(|| what("space"))? as u32;
    let lower = f(4).ok_or_else(|| what("lower bound"))? as u32;
    let size_raw = f(5).ok_or_else(|| what("range size"))? as u32;
    let size = if size_raw == u32::MAX || size_raw == 0 { None } else { Some(size_raw) };
    let mut r = ResDecl {
        class,
        id,
        space,
        lower,
        size,
        kind: ResKind::CBuffer,
        comp: CompType::Other(0),
        stride: 0,
        cb_size: 0,
        has_counter: false,
        globally_coherent: false,
        heap: false,
    };
    let tags_at = match class {
        ResourceClass::Srv => {
            r.kind = valid_kind(f(6).ok_or_else(|| what("shape"))?).ok_or_else(|| what("valid shape"))?;
            8
        }
        ResourceClass::Uav => {
            r.kind = valid_kind(f(6).ok_or_else(|| what("shape"))?).ok_or_else(|| what("valid shape"))?;
            r.globally_coherent = f(7).unwrap_or(0) != 0;
            r.has_counter = f(8).unwrap_or(0) != 0;
            10
        }
        ResourceClass::Cbv => {
            r.kind = ResKind::CBuffer;
            r.cb_size = f(6).ok_or_else(|| what("size"))? as u32;
            7
        }
        ResourceClass::Sampler => {
            r.kind = ResKind::Sampler;
            7
        }
    };
    if let Some(tags) = md.node(md.op(rec, tags_at)) {
        let mut i = 0;
        while i + 1 < tags.len() {
            match md.uint(md.op(tags, i)) {
                Some(0) => r.comp = CompType::from_u64(md.uint(md.op(tags, i + 1)).unwrap_or(0)),
                Some(1) => r.stride = md.uint(md.op(tags, i + 1)).unwrap_or(0) as u32,
                _ => {}
            }
            i += 2;
        }
    }
    Ok(r)
}
