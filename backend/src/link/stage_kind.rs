//! The names the linker's types and errors share: a graphics [`Stage`] and which
//! [`SignatureKind`] of a stage an element belongs to.

use crate::ShaderKind;
use serde::Serialize;

/// A graphics pipeline stage, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Vertex,
    Hull,
    Domain,
    Geometry,
    Pixel,
}

impl Stage {
    pub fn from_kind(kind: ShaderKind) -> Option<Stage> {
        Some(match kind {
            ShaderKind::Vertex => Stage::Vertex,
            ShaderKind::Hull => Stage::Hull,
            ShaderKind::Domain => Stage::Domain,
            ShaderKind::Geometry => Stage::Geometry,
            ShaderKind::Pixel => Stage::Pixel,
            _ => return None,
        })
    }
    /// `vertex`, `hull`, ….
    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Hull => "hull",
            Stage::Domain => "domain",
            Stage::Geometry => "geometry",
            Stage::Pixel => "pixel",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} shader", self.name())
    }
}

/// Which signature of a stage an element belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SignatureKind {
    Input,
    Output,
    PatchConstant,
}

impl std::fmt::Display for SignatureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SignatureKind::Input => "input",
            SignatureKind::Output => "output",
            SignatureKind::PatchConstant => "patch constant",
        })
    }
}
