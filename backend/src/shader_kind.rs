//! Shader stages, as numbered in the DXIL program header and DXIL metadata.

use serde::Serialize;

/// The kind of a DXIL program (program-version bits 16..31, `DXIL::ShaderKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShaderKind {
    Pixel,
    Vertex,
    Geometry,
    Hull,
    Domain,
    Compute,
    Library,
    RayGeneration,
    Intersection,
    AnyHit,
    ClosestHit,
    Miss,
    Callable,
    Mesh,
    Amplification,
    Node,
}

impl ShaderKind {
    /// From the numeric kind of the program header / shader-kind metadata tag.
    pub fn from_u32(v: u32) -> Option<ShaderKind> {
        use ShaderKind::*;
        Some(match v {
            0 => Pixel,
            1 => Vertex,
            2 => Geometry,
            3 => Hull,
            4 => Domain,
            5 => Compute,
            6 => Library,
            7 => RayGeneration,
            8 => Intersection,
            9 => AnyHit,
            10 => ClosestHit,
            11 => Miss,
            12 => Callable,
            13 => Mesh,
            14 => Amplification,
            15 => Node,
            _ => return None,
        })
    }

    /// From the short profile prefix used by `!dx.shaderModel` (`"cs"`, `"ps"`, `"lib"`, …).
    pub fn from_profile_prefix(s: &str) -> Option<ShaderKind> {
        use ShaderKind::*;
        Some(match s {
            "ps" => Pixel,
            "vs" => Vertex,
            "gs" => Geometry,
            "hs" => Hull,
            "ds" => Domain,
            "cs" => Compute,
            "lib" => Library,
            "ms" => Mesh,
            "as" => Amplification,
            _ => return None,
        })
    }

    /// The stage name used in `dxjit dis --json` and the corpus manifests.
    pub fn name(self) -> &'static str {
        use ShaderKind::*;
        match self {
            Pixel => "pixel",
            Vertex => "vertex",
            Geometry => "geometry",
            Hull => "hull",
            Domain => "domain",
            Compute => "compute",
            Library => "library",
            RayGeneration => "raygeneration",
            Intersection => "intersection",
            AnyHit => "anyhit",
            ClosestHit => "closesthit",
            Miss => "miss",
            Callable => "callable",
            Mesh => "mesh",
            Amplification => "amplification",
            Node => "node",
        }
    }
}

impl std::fmt::Display for ShaderKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
