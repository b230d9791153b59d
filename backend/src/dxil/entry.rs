//! The entry point a compile lowers, picked from the decoded metadata: the
//! one typed description of the shader that the driver hands to the
//! verifier's callers, to lowering (through `lower::meta`) and to the
//! linker (`link::StageIo`), so no later step reads `dx.*` metadata again.

use super::library::export_name;
use super::{DxilModuleInfo, EntryPoint, Resources, ShaderModel};
use crate::ir::{FuncId, Module};
use crate::ShaderKind;

/// The chosen entry point of a decoded module.
#[derive(Debug, Clone, PartialEq)]
pub struct ShaderEntry {
    /// `!dx.shaderModel` (profile kind, major, minor).
    pub shader_model: ShaderModel,
    /// The stage: a library export's shader-kind property, else the profile's kind.
    pub kind: ShaderKind,
    /// A DXIL library export (`lib_*` profile): resources are global variables.
    pub library: bool,
    /// The record's position in `!dx.entryPoints`.
    pub index: usize,
    /// The entry function (a definition: [`DxilModuleInfo::select`] checked it).
    pub function: FuncId,
    /// The record: name (mangled for library exports), signatures, properties
    /// and its resources: the record's own list, else the module's
    /// `!dx.resources` (`Some` always).
    pub entry: EntryPoint,
}

impl ShaderEntry {
    /// The name lowering reports and SPIR-V exports: a library export's
    /// plain name (`RayGen`), else the record's.
    pub fn export_name(&self) -> &str {
        if self.library {
            export_name(&self.entry.name)
        } else {
            &self.entry.name
        }
    }

    /// The resource ranges the entry declares (see [`ShaderEntry::entry`]).
    pub fn resources(&self) -> &Resources {
        static NONE: Resources =
            Resources { srvs: Vec::new(), uavs: Vec::new(), cbvs: Vec::new(), samplers: Vec::new() };
        self.entry.resources.as_ref().unwrap_or(&NONE)
    }
}

/// Why no entry point could be picked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// A DXIL library and no export named: there is no entry point to pick.
    #[error("{shader_model} is a library")]
    Library { shader_model: String },
    #[error("entry point {0:?} not in !dx.entryPoints")]
    NotFound(String),
    #[error("entry point {0:?} has no function")]
    NoFunction(String),
    #[error("entry point {0:?}: function is not defined")]
    NotDefined(String),
}

impl DxilModuleInfo {
    /// The profile as DXC spells it: `cs_6_0`, `lib_6_3`.
    pub fn profile(&self) -> String {
        let sm = &self.shader_model;
        let prefix = match sm.kind {
            ShaderKind::Pixel => "ps",
            ShaderKind::Vertex => "vs",
            ShaderKind::Geometry => "gs",
            ShaderKind::Hull => "hs",
            ShaderKind::Domain => "ds",
            ShaderKind::Compute => "cs",
            ShaderKind::Mesh => "ms",
            ShaderKind::Amplification => "as",
            _ => "lib",
        };
        format!("{prefix}_{}_{}", sm.major, sm.minor)
    }

    /// The record of `!dx.entryPoints` a compile of `name` lowers (`None`:
    /// the first record; in a library, a plain or mangled export name), its
    /// function a definition in `m`.
    pub fn select(&self, m: &Module, name: Option<&str>) -> Result<usize, EntryError> {
        let library = self.shader_model.kind == ShaderKind::Library;
        // A library compiles one named export; without a name there is no entry point to pick.
        if library && name.is_none() {
            return Err(EntryError::Library { shader_model: self.profile() });
        }
        let index = self
            .entry_points
            .iter()
            .position(|ep| {
                let plain = library && ep.function.is_some() && name.is_some_and(|e| e == export_name(&ep.name));
                plain || name.is_none_or(|e| e == ep.name)
            })
            .ok_or_else(|| EntryError::NotFound(name.unwrap_or("<first>").to_string()))?;
        let ep = &self.entry_points[index];
        let Some(func) = ep.function else { return Err(EntryError::NoFunction(ep.name.clone())) };
        if m.functions.get(func.index()).is_none_or(|f| f.is_declaration) {
            return Err(EntryError::NotDefined(ep.name.clone()));
        }
        Ok(index)
    }

    /// Moves record `index` (from [`DxilModuleInfo::select`]) out of the
    /// module's description, with the module's resources when it has none
    /// of its own. `None` when `index` names no record with a function.
    pub fn into_entry(mut self, index: usize) -> Option<ShaderEntry> {
        let function = self.entry_points.get(index)?.function?;
        let mut entry = self.entry_points.swap_remove(index);
        if entry.resources.is_none() {
            entry.resources = Some(std::mem::take(&mut self.resources));
        }
        let kind = entry.properties.shader_kind.unwrap_or(self.shader_model.kind);
        Some(ShaderEntry {
            library: self.shader_model.kind == ShaderKind::Library,
            shader_model: self.shader_model,
            kind,
            index,
            function,
            entry,
        })
    }
}
