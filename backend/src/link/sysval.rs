//! How each system value behaves at a stage boundary: does it need a
//! producer, does it take part in the register rule, and which Vulkan
//! built-in (if any) carries it.

use super::stage::{SignatureKind, Stage};
use crate::dxil::{InterpolationMode, SemanticKind, SignatureElement};
use serde::Serialize;

/// A Vulkan built-in variable (SPIR-V `BuiltIn` decoration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum BuiltIn {
    Position,
    /// SV_Position read by a pixel shader (w must be inverted on load).
    FragCoord,
    /// `ClipDistance[offset + row * cols + col]` holds the element's component (row, col).
    ClipDistance {
        offset: u32,
    },
    CullDistance {
        offset: u32,
    },
    PrimitiveId,
    Layer,
    ViewportIndex,
    FragDepth,
    SampleMask,
    FrontFacing,
    SampleId,
    VertexIndex,
    InstanceIndex,
    /// Element row r is `TessLevelOuter[r]`.
    TessLevelOuter,
    /// Element row r is `TessLevelInner[r]`.
    TessLevelInner,
    TessCoord,
    InvocationId,
    FragStencilRefEXT,
    BaryCoordKHR,
    BaryCoordNoPerspKHR,
    ShadingRateKHR,
    PrimitiveShadingRateKHR,
    ViewIndex,
    FullyCoveredEXT,
    /// Mesh shaders' per-primitive `SV_CullPrimitive`.
    CullPrimitiveEXT,
}

/// How a system value crosses a boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SvClass {
    /// A user-style varying: matched by semantic, placed at a Location.
    Varying,
    /// A Vulkan built-in (clip/cull offsets are filled in later).
    BuiltIn(BuiltIn),
    /// Written by the stage but meaningless to Vulkan (GS-written SV_IsFrontFace).
    Dropped,
}

/// Whether the element is a system-generated value at this consumer: such
/// inputs are matched by semantic only, never by register, mask or type.
pub(crate) fn is_sgv_input(stage: Stage, kind: SemanticKind) -> bool {
    use SemanticKind::*;
    match kind {
        VertexID | InstanceID => stage == Stage::Vertex,
        PrimitiveID | IsFrontFace | SampleIndex | Barycentrics | ShadingRate | ViewID | GSInstanceID
        | OutputControlPointID | DomainLocation | Coverage | InnerCoverage => true,
        _ => false,
    }
}

/// Whether a consumer may declare the input with no producer writing it.
pub(crate) fn allowed_without_producer(stage: Stage, previous: Option<Stage>, kind: SemanticKind) -> bool {
    use SemanticKind::*;
    match (stage, kind) {
        (Stage::Vertex, VertexID | InstanceID) => true,
        (Stage::Hull | Stage::Domain | Stage::Geometry, PrimitiveID) => true,
        (Stage::Pixel, PrimitiveID) => !matches!(previous, Some(Stage::Geometry | Stage::Mesh)),
        (Stage::Pixel, IsFrontFace | SampleIndex | Barycentrics | ShadingRate) => true,
        // Read through intrinsics; listed for completeness when a signature carries them.
        (Stage::Hull, OutputControlPointID) | (Stage::Domain, DomainLocation) | (Stage::Geometry, GSInstanceID) => true,
        (Stage::Pixel, Coverage | InnerCoverage) | (_, ViewID) => true,
        _ => false,
    }
}

/// The class of an element at a stage: `feeds_raster` tells whether the
/// stage's outputs go to the rasterizer (last pre-raster stage), which is
/// where Layer/ViewportIndex exist as built-ins.
pub(crate) fn classify(stage: Stage, sig: SignatureKind, e: &SignatureElement, feeds_raster: bool) -> Option<SvClass> {
    use SemanticKind::*;
    use SvClass::*;
    let input = sig == SignatureKind::Input;
    let output = sig == SignatureKind::Output;
    let pixel_in = stage == Stage::Pixel && input;
    Some(match e.semantic_kind {
        Arbitrary => Varying,
        Position => {
            if pixel_in {
                BuiltIn(self::BuiltIn::FragCoord)
            } else if stage == Stage::Vertex && input {
                Varying
            } else {
                BuiltIn(self::BuiltIn::Position)
            }
        }
        ClipDistance | CullDistance if stage == Stage::Vertex && input => Varying,
        ClipDistance => BuiltIn(self::BuiltIn::ClipDistance { offset: 0 }),
        CullDistance => BuiltIn(self::BuiltIn::CullDistance { offset: 0 }),
        RenderTargetArrayIndex | ViewPortArrayIndex => {
            let raster = pixel_in || (output && feeds_raster && stage != Stage::Hull);
            if !raster {
                Varying
            } else if e.semantic_kind == RenderTargetArrayIndex {
                BuiltIn(self::BuiltIn::Layer)
            } else {
                BuiltIn(self::BuiltIn::ViewportIndex)
            }
        }
        VertexID if stage == Stage::Vertex && input => BuiltIn(self::BuiltIn::VertexIndex),
        InstanceID if stage == Stage::Vertex && input => BuiltIn(self::BuiltIn::InstanceIndex),
        InstanceID => Varying,
        PrimitiveID => BuiltIn(self::BuiltIn::PrimitiveId),
        IsFrontFace if pixel_in => BuiltIn(self::BuiltIn::FrontFacing),
        IsFrontFace if stage == Stage::Geometry && output => Dropped,
        SampleIndex if pixel_in => BuiltIn(self::BuiltIn::SampleId),
        Target if stage == Stage::Pixel && output => Varying,
        Depth | DepthLessEqual | DepthGreaterEqual if stage == Stage::Pixel && output => {
            BuiltIn(self::BuiltIn::FragDepth)
        }
        Coverage if stage == Stage::Pixel => BuiltIn(self::BuiltIn::SampleMask),
        InnerCoverage if pixel_in => BuiltIn(self::BuiltIn::FullyCoveredEXT),
        StencilRef if stage == Stage::Pixel && output => BuiltIn(self::BuiltIn::FragStencilRefEXT),
        TessFactor if matches!(stage, Stage::Hull | Stage::Domain) => BuiltIn(self::BuiltIn::TessLevelOuter),
        InsideTessFactor if matches!(stage, Stage::Hull | Stage::Domain) => BuiltIn(self::BuiltIn::TessLevelInner),
        DomainLocation if stage == Stage::Domain => BuiltIn(self::BuiltIn::TessCoord),
        OutputControlPointID if stage == Stage::Hull => BuiltIn(self::BuiltIn::InvocationId),
        GSInstanceID if stage == Stage::Geometry => BuiltIn(self::BuiltIn::InvocationId),
        Barycentrics if pixel_in => BuiltIn(if is_noperspective(e.interpolation) {
            self::BuiltIn::BaryCoordNoPerspKHR
        } else {
            self::BuiltIn::BaryCoordKHR
        }),
        ShadingRate if pixel_in => BuiltIn(self::BuiltIn::ShadingRateKHR),
        ShadingRate if output && stage != Stage::Hull => BuiltIn(self::BuiltIn::PrimitiveShadingRateKHR),
        ShadingRate => Varying,
        ViewID => BuiltIn(self::BuiltIn::ViewIndex),
        CullPrimitive if stage == Stage::Mesh && output => BuiltIn(self::BuiltIn::CullPrimitiveEXT),
        _ => return None,
    })
}

fn is_noperspective(m: InterpolationMode) -> bool {
    matches!(
        m,
        InterpolationMode::LinearNoperspective
            | InterpolationMode::LinearNoperspectiveCentroid
            | InterpolationMode::LinearNoperspectiveSample
    )
}
