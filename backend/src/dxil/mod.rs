//! Typed DXIL metadata: shader model, versions, entry points with their
//! signatures, resources and properties, decoded from the named metadata
//! DXC writes (`!dx.shaderModel`, `!dx.version`, `!dx.valver`,
//! `!dx.entryPoints`, `!dx.resources`).
//!
//! [`decode`] never panics: malformed metadata gives a [`DxilError`] naming
//! the node and field, e.g. `dx.entryPoints[0].signatures.input[1].rows`.
//!
//! This is the one place that reads `dx.*` metadata: a compile decodes it
//! once, the verifier checks the [`DxilModuleInfo`], and the driver picks
//! the entry point ([`DxilModuleInfo::select`]) and moves it out as a
//! [`ShaderEntry`], which lowering (through `lower::meta`) and the linker
//! (`link::StageIo`) read.

mod entry;
mod enums;
mod error;
pub mod library;
pub mod properties;
mod reader;
pub mod resources;
pub mod signature;

pub use entry::{EntryError, ShaderEntry};
pub use error::DxilError;
pub use properties::{
    AsState, DsState, GsState, HsState, InputPrimitive, MeshOutputTopology, MsState, OtherProperty, PrimitiveTopology,
    ShaderProperties, TessDomain, TessOutputPrimitive, TessPartitioning, WaveSize,
};
pub use resources::{
    Binding, Cbv, ResourceClass, ResourceKind, Resources, Sampler, SamplerFeedbackType, SamplerKind, Srv, Uav,
    ViewProperties,
};
pub use signature::{
    mask_string, ComponentType, InterpolationMode, SemanticIndices, SemanticKind, SemanticName, SignatureElement,
};

use crate::ir::{FuncId, MdId, Module};
use crate::ShaderKind;
use reader::{arity, Op, Reader};
use serde::Serialize;
use std::fmt::Display;

/// `!dx.shaderModel`: the profile (`cs_6_0` is kind Compute, 6.0).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShaderModel {
    pub kind: ShaderKind,
    pub major: u32,
    pub minor: u32,
}

impl std::fmt::Display for ShaderModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// One record of `!dx.entryPoints`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntryPoint {
    /// The entry function; `None` for the first (module-level) record of a library.
    pub function: Option<FuncId>,
    /// The entry name (mangled for library exports; empty for a library's first record).
    pub name: String,
    pub inputs: Vec<SignatureElement>,
    pub outputs: Vec<SignatureElement>,
    /// Patch-constant signature (hull/domain) or per-primitive outputs (mesh).
    pub patch_constants: Vec<SignatureElement>,
    /// The entry's resource list, when the record has one.
    pub resources: Option<Resources>,
    pub properties: ShaderProperties,
}

/// Everything the DXIL metadata says about a module.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DxilModuleInfo {
    pub shader_model: ShaderModel,
    pub dxil_version: (u32, u32),
    pub validator_version: Option<(u32, u32)>,
    pub entry_points: Vec<EntryPoint>,
    /// `!dx.resources` (empty when absent).
    pub resources: Resources,
}

impl DxilModuleInfo {
    /// The entry points that name a function (skips a library's module-level record).
    pub fn functions(&self) -> impl Iterator<Item = &EntryPoint> {
        self.entry_points.iter().filter(|e| e.function.is_some())
    }
    /// The (first) entry point with a function: the shader of a non-library module.
    pub fn main_entry(&self) -> Option<&EntryPoint> {
        self.functions().next()
    }
}

type Result<T> = std::result::Result<T, DxilError>;

/// Decodes the DXIL metadata of a module.
pub fn decode(m: &Module) -> Result<DxilModuleInfo> {
    let r = Reader::new(m);
    let named = Named::of(m);
    let shader_model = decode_shader_model(&r, named.shader_model)?;
    let dxil_version =
        version(&r, named.version, "dx.version")?.ok_or(DxilError::MissingNamed { name: "dx.version" })?;
    let validator_version = version(&r, named.valver, "dx.valver")?;
    let resources_id = single(named.resources, "dx.resources")?;
    let resources = match resources_id {
        Some(id) => resources::decode_resources(&r, Some(id), &"dx.resources")?,
        None => Resources::default(),
    };
    let eps = named.entry_points.ok_or(DxilError::MissingNamed { name: "dx.entryPoints" })?;
    if eps.is_empty() {
        return Err(DxilError::NamedArity { name: "dx.entryPoints", expected: "at least 1", found: 0 });
    }
    let entry_points = eps
        .iter()
        .enumerate()
        .map(|(i, id)| decode_entry(&r, *id, &format_args!("dx.entryPoints[{i}]"), (resources_id, &resources)))
        .collect::<Result<Vec<_>>>()?;
    Ok(DxilModuleInfo { shader_model, dxil_version, validator_version, entry_points, resources })
}

/// The operands of the named nodes [`decode`] reads (the first node of each name), found in
/// one pass over the module's named metadata rather than a search per name.
#[derive(Default)]
struct Named<'m> {
    shader_model: Option<&'m [MdId]>,
    version: Option<&'m [MdId]>,
    valver: Option<&'m [MdId]>,
    resources: Option<&'m [MdId]>,
    entry_points: Option<&'m [MdId]>,
}

impl<'m> Named<'m> {
    fn of(m: &'m Module) -> Named<'m> {
        let mut n = Named::default();
        for md in m.named_mds() {
            let slot = match md.name {
                "dx.shaderModel" => &mut n.shader_model,
                "dx.version" => &mut n.version,
                "dx.valver" => &mut n.valver,
                "dx.resources" => &mut n.resources,
                "dx.entryPoints" => &mut n.entry_points,
                _ => continue,
            };
            slot.get_or_insert(md.ops);
        }
        n
    }
}

/// The single operand of named node `name` (`ops`), `None` when the node is absent.
fn single(ops: Option<&[MdId]>, name: &'static str) -> Result<Option<MdId>> {
    match ops {
        None => Ok(None),
        Some([id]) => Ok(Some(*id)),
        Some(ops) => Err(DxilError::NamedArity { name, expected: "1", found: ops.len() }),
    }
}

fn version(r: &Reader<'_>, ops: Option<&[MdId]>, name: &'static str) -> Result<Option<(u32, u32)>> {
    let Some(id) = single(ops, name)? else {
        return Ok(None);
    };
    let f = r.node_n(Some(id), 2, &name)?;
    Ok(Some((r.u32(f[0], &format_args!("{name}.major"))?, r.u32(f[1], &format_args!("{name}.minor"))?)))
}

fn decode_shader_model(r: &Reader<'_>, ops: Option<&[MdId]>) -> Result<ShaderModel> {
    const W: &str = "dx.shaderModel";
    let id = single(ops, W)?.ok_or(DxilError::MissingNamed { name: W })?;
    let f = r.node_n(Some(id), 3, &W)?;
    let prefix = r.string(f[0], &format_args!("{W}.kind"))?;
    let kind = ShaderKind::from_profile_prefix(prefix)
        .ok_or_else(|| DxilError::UnknownProfile { what: format!("{W}.kind"), prefix: prefix.to_string() })?;
    Ok(ShaderModel {
        kind,
        major: r.u32(f[1], &format_args!("{W}.major"))?,
        minor: r.u32(f[2], &format_args!("{W}.minor"))?,
    })
}

/// Record `id` of `!dx.entryPoints`. `shared`: the module's `!dx.resources`
/// node and its decoded lists; a record naming that same node (the usual
/// layout) gets a copy instead of a second decode.
fn decode_entry(r: &Reader<'_>, id: MdId, what: &dyn Display, shared: (Op, &Resources)) -> Result<EntryPoint> {
    let f = r.node(Some(id), what)?;
    arity(f, 5, what)?;
    let sig_what = format_args!("{what}.signatures");
    let (inputs, outputs, patch_constants) = match r.opt_node(f[2], &sig_what)? {
        None => Default::default(),
        Some(s) => {
            arity(s, 3, &sig_what)?;
            (
                signature::decode_signature(r, s[0], &format_args!("{sig_what}.input"))?,
                signature::decode_signature(r, s[1], &format_args!("{sig_what}.output"))?,
                signature::decode_signature(r, s[2], &format_args!("{sig_what}.patch_constant"))?,
            )
        }
    };
    let resources = match f[3] {
        None => None,
        op if op == shared.0 => Some(shared.1.clone()),
        op => Some(resources::decode_resources(r, op, &format_args!("{what}.resources"))?),
    };
    Ok(EntryPoint {
        function: r.function(f[0], &format_args!("{what}.function"))?,
        name: r.string(f[1], &format_args!("{what}.name"))?.to_string(),
        inputs,
        outputs,
        patch_constants,
        resources,
        properties: properties::decode_properties(r, f[4], &format_args!("{what}.properties"))?,
    })
}

#[cfg(test)]
mod tests;
