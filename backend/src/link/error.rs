//! Why a pipeline does not link: the D3D12 PSO-creation rules, by name.

use super::stage_kind::{SignatureKind, Stage};
use crate::ShaderKind;
use serde::Serialize;

/// A D3D12 pipeline interface rule. Each rejection names the one it breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Rule {
    /// A consumer input (user semantic) is not written by the producer (debug layer #666).
    SemanticNotFound,
    /// Consumer and producer place a matched element in different registers (#660).
    RegisterIndexMismatch,
    /// The consumer's component mask is not a subset of the producer's (#662).
    RegisterMaskMismatch,
    /// Matched elements differ in component type or min precision (#661).
    ComponentTypeMismatch,
    /// A system value the consumer reads must be written by the previous stage (position,
    /// clip/cull, render-target/viewport array index, tess factors, and every SGV that is not
    /// allowed without a producer at this stage).
    SystemValueMustComeFromProducer,
    /// A hull-shader control-point output that the domain shader does not declare.
    HullOutputNotConsumed,
    /// A domain-shader control-point input whose mask differs from the hull output's.
    HullDomainMaskMismatch,
    /// The hull and domain patch-constant signatures are not identical.
    PatchConstantMismatch,
    /// A vertex-shader input that the input layout does not provide.
    InputLayoutSemanticMissing,
    /// The hull and domain shaders declare different tessellator domains.
    TessDomainMismatch,
    /// The domain shader's input control-point count differs from the hull's output count.
    ControlPointCountMismatch,
    /// The set of stages is not a valid pipeline (no VS, HS without DS, two of a stage, ...).
    InvalidStageCombination,
    /// The mesh shader's payload is larger than the amplification shader's.
    MeshPayloadMismatch,
    /// The geometry shader's input primitive does not match what reaches it: the pipeline's
    /// primitive topology type (no tessellation) or the tessellator's output primitive (#681,
    /// `CREATEGRAPHICSPIPELINESTATE_GS_INPUT_PRIMITIVE_MISMATCH`). Checked only when
    /// [`LinkOptions::topology`](super::LinkOptions::topology) is given.
    GsInputPrimitiveMismatch,
    /// A hull shader with a topology type other than PATCH (#668; the patch's control-point
    /// count is draw-time state that the PSO does not carry, so it is not compared here:
    /// `CREATEGRAPHICSPIPELINESTATE_HULL_SHADER_INPUT_TOPOLOGY_MISMATCH`).
    HullInputTopologyMismatch,
    /// A PATCH topology type without a hull shader (#673,
    /// `CREATEGRAPHICSPIPELINESTATE_INVALID_PRIMITIVETOPOLOGY`).
    InvalidPrimitiveTopology,
    /// A geometry shader with several output streams whose output topology is not a point list:
    /// with several streams all streams must contain points (the stream-output rules of D3D11,
    /// kept by D3D12; DXC's validator enforces it too, so only a hand-made container reaches
    /// it). No debug-layer message number is known for it.
    GsStreamsNotRasterizable,
}

impl Rule {
    /// The D3D12 debug-layer message number, where there is one.
    pub fn message_id(self) -> Option<u32> {
        match self {
            Rule::SemanticNotFound => Some(666),
            Rule::RegisterIndexMismatch => Some(660),
            Rule::ComponentTypeMismatch => Some(661),
            Rule::RegisterMaskMismatch => Some(662),
            Rule::HullInputTopologyMismatch => Some(668),
            Rule::InvalidPrimitiveTopology => Some(673),
            Rule::GsInputPrimitiveMismatch => Some(681),
            _ => None,
        }
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)?;
        if let Some(id) = self.message_id() {
            write!(f, " (D3D12 #{id})")?;
        }
        Ok(())
    }
}

/// One broken rule: which stage's element, which semantic, which register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejection {
    pub rule: Rule,
    /// The stage whose element breaks the rule (the consumer, except for
    /// [`Rule::HullOutputNotConsumed`] and hull-side patch-constant mismatches).
    pub stage: Stage,
    pub signature: SignatureKind,
    pub semantic_name: String,
    pub semantic_index: u32,
    /// The element row's register (`start_row + row`), `None` when unplaced or not applicable.
    pub register: Option<u32>,
    /// The other side of the boundary, when there is one.
    pub other_stage: Option<Stage>,
    /// The matched element's register on the other side.
    pub other_register: Option<u32>,
    pub detail: String,
}

impl Rejection {
    /// `TEXCOORD5`, `SV_Position` (index 0 is written without the number for system values).
    pub fn semantic(&self) -> String {
        if self.semantic_index == 0
            && self.semantic_name.len() > 3
            && self.semantic_name[..3].eq_ignore_ascii_case("SV_")
        {
            self.semantic_name.clone()
        } else {
            format!("{}{}", self.semantic_name, self.semantic_index)
        }
    }
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} {} {}", self.rule, self.stage, self.signature, self.semantic())?;
        match self.register {
            Some(r) => write!(f, " (register {r})")?,
            None => write!(f, " (unplaced)")?,
        }
        write!(f, ": {}", self.detail)
    }
}

/// Why linking failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LinkError {
    /// The pipeline breaks D3D12's interface rules: D3D12 would fail PSO creation.
    #[error("pipeline rejected: {}", list(.0))]
    Rejected(Vec<Rejection>),
    #[error("a {kind:?} shader is not a graphics pipeline stage")]
    NotAGraphicsStage { kind: ShaderKind },
    #[error("the {stage} has no entry point")]
    NoEntryPoint { stage: Stage },
    #[error("the {stage} lacks its {what}")]
    MissingState { stage: Stage, what: &'static str },
    #[error("{stage} {signature} {semantic}: system value {system_value} cannot appear there")]
    UnsupportedSystemValue { stage: Stage, signature: SignatureKind, semantic: String, system_value: &'static str },
    #[error("input layout: {0}")]
    InputLayout(String),
    /// The stream-output declaration does not fit the pipeline (D3D12 fails PSO creation).
    #[error("stream output: {0}")]
    StreamOutput(String),
}

impl LinkError {
    /// The rejections, when the error is a D3D12 rule violation.
    pub fn rejections(&self) -> &[Rejection] {
        match self {
            LinkError::Rejected(r) => r,
            _ => &[],
        }
    }
    /// Whether D3D12 would reject the pipeline (as opposed to malformed input).
    pub fn is_rejection(&self) -> bool {
        matches!(self, LinkError::Rejected(_))
    }
}

fn list(r: &[Rejection]) -> String {
    r.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; ")
}
