//! PSO-time validation, as the D3D12 runtime does it: every rejection names
//! the rule, the stage, the semantic and the register.

use super::error::{Rejection, Rule};
use super::input_layout::InputLayout;
use super::rows::{find, is_placed, register, rows, semantic_index, type_key, Row};
use super::stage::{SignatureKind, Stage, StageIo};
use super::sysval::{allowed_without_producer, is_sgv_input};
use super::{Pipeline, TopologyType};
use crate::dxil::{InputPrimitive, PrimitiveTopology, SemanticKind, SignatureElement, TessOutputPrimitive};

/// What kind of boundary two signatures meet at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BoundaryKind {
    /// Consumer inputs must be a subset of producer outputs.
    Varying,
    /// Hull control-point outputs → domain control-point inputs: all consumed, identical masks.
    ControlPoint,
    /// Hull → domain patch constants: identical signatures.
    PatchConstant,
}

/// Two signatures meeting at a stage boundary.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Boundary<'a> {
    pub producer: &'a StageIo,
    pub consumer: &'a StageIo,
    pub kind: BoundaryKind,
    /// The producer stream the consumer is matched against (GS → PS: stream 0).
    pub stream: Option<u32>,
}

impl<'a> Boundary<'a> {
    pub fn producer_elems(&self) -> &'a [SignatureElement] {
        match self.kind {
            BoundaryKind::PatchConstant => &self.producer.patch_constants,
            _ => &self.producer.outputs,
        }
    }
    pub fn consumer_elems(&self) -> &'a [SignatureElement] {
        match self.kind {
            BoundaryKind::PatchConstant => &self.consumer.patch_constants,
            _ => &self.consumer.inputs,
        }
    }
    pub fn producer_sig(&self) -> SignatureKind {
        match self.kind {
            BoundaryKind::PatchConstant => SignatureKind::PatchConstant,
            _ => SignatureKind::Output,
        }
    }
    pub fn consumer_sig(&self) -> SignatureKind {
        match self.kind {
            BoundaryKind::PatchConstant => SignatureKind::PatchConstant,
            _ => SignatureKind::Input,
        }
    }
    /// The producer rows the consumer is matched against.
    pub fn producer_rows(&self) -> Vec<Row<'a>> {
        let stream = self.stream;
        rows(self.producer_elems(), move |e| match stream {
            Some(s) => e.stream() == s,
            None => true,
        })
    }
}

struct Sink<'a> {
    out: &'a mut Vec<Rejection>,
}

impl Sink<'_> {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        rule: Rule,
        stage: Stage,
        signature: SignatureKind,
        e: &SignatureElement,
        row: u32,
        other_stage: Option<Stage>,
        other_register: Option<u32>,
        detail: String,
    ) {
        self.out.push(Rejection {
            rule,
            stage,
            signature,
            semantic_name: e.semantic_name.to_string(),
            semantic_index: semantic_index(e, row),
            register: register(e, row),
            other_stage,
            other_register,
            detail,
        });
    }
    fn pipeline(&mut self, rule: Rule, stage: Stage, detail: String) {
        self.out.push(Rejection {
            rule,
            stage,
            signature: SignatureKind::Input,
            semantic_name: String::new(),
            semantic_index: 0,
            register: None,
            other_stage: None,
            other_register: None,
            detail,
        });
    }
}

fn reg_text(r: Option<u32>) -> String {
    r.map_or_else(|| "no register".to_string(), |r| format!("register {r}"))
}

/// Validates one boundary, appending every broken rule.
pub(crate) fn boundary(b: &Boundary<'_>, out: &mut Vec<Rejection>) {
    let mut sink = Sink { out };
    let (p, c) = (b.producer.stage, b.consumer.stage);
    let prod_rows = b.producer_rows();
    let stream_note = match b.stream {
        Some(s) if p == Stage::Geometry => format!(" (stream {s})"),
        _ => String::new(),
    };
    for e in b.consumer_elems() {
        let sgv = b.kind != BoundaryKind::PatchConstant && is_sgv_input(c, e.semantic_kind);
        let mut reported: Vec<Rule> = Vec::new();
        for row in 0..e.rows.min(64) {
            let index = semantic_index(e, row);
            let mut push = |sink: &mut Sink<'_>, rule: Rule, other: Option<u32>, detail: String| {
                if !reported.contains(&rule) {
                    reported.push(rule);
                    sink.push(rule, c, b.consumer_sig(), e, row, Some(p), other, detail);
                }
            };
            let Some(pr) = find(&prod_rows, e, index) else {
                if sgv && allowed_without_producer(c, Some(p), e.semantic_kind) {
                    continue;
                }
                let rule = if e.semantic_kind == SemanticKind::Arbitrary {
                    Rule::SemanticNotFound
                } else {
                    Rule::SystemValueMustComeFromProducer
                };
                push(&mut sink, rule, None, format!("not written by the {p}{stream_note}"));
                continue;
            };
            if sgv {
                // System-generated values match by semantic only.
                continue;
            }
            let creg = register(e, row);
            let mut same_register = true;
            if let (Some(cr), Some(prr)) = (creg, pr.register) {
                if cr != prr {
                    // Masks of different registers are not compared: the register rule already failed.
                    same_register = false;
                    push(
                        &mut sink,
                        Rule::RegisterIndexMismatch,
                        Some(prr),
                        format!("the {p} writes it to register {prr}"),
                    );
                }
            }
            if same_register && is_placed(e) && is_placed(pr.e) {
                let (cm, pm) = (e.mask(), pr.e.mask());
                let bad = match b.kind {
                    BoundaryKind::Varying => cm & !pm != 0,
                    _ => cm != pm,
                };
                if bad {
                    let rule = match b.kind {
                        BoundaryKind::Varying => Rule::RegisterMaskMismatch,
                        BoundaryKind::ControlPoint => Rule::HullDomainMaskMismatch,
                        BoundaryKind::PatchConstant => Rule::PatchConstantMismatch,
                    };
                    let how = if b.kind == BoundaryKind::Varying { "not a subset of" } else { "differs from" };
                    push(
                        &mut sink,
                        rule,
                        pr.register,
                        format!(
                            "mask {} {how} the {p}'s {}",
                            crate::dxil::mask_string(cm),
                            crate::dxil::mask_string(pm)
                        ),
                    );
                }
            }
            let (ct, pt) =
                (type_key(e, b.consumer.native_low_precision), type_key(pr.e, b.producer.native_low_precision));
            if ct != pt {
                let name = |t: (crate::dxil::ComponentType, bool)| {
                    let min = matches!(
                        t.0,
                        crate::dxil::ComponentType::F16
                            | crate::dxil::ComponentType::I16
                            | crate::dxil::ComponentType::U16
                    );
                    match (min, t.1) {
                        (true, true) => format!("{} (native)", t.0),
                        (true, false) => format!("{} (min precision)", t.0),
                        _ => t.0.to_string(),
                    }
                };
                push(
                    &mut sink,
                    Rule::ComponentTypeMismatch,
                    pr.register,
                    format!("{} here, {} in the {p}", name(ct), name(pt)),
                );
            }
        }
    }
    if b.kind != BoundaryKind::Varying {
        // The domain shader must consume every hull output.
        let cons_rows = rows(b.consumer_elems(), |_| true);
        let rule = match b.kind {
            BoundaryKind::ControlPoint => Rule::HullOutputNotConsumed,
            _ => Rule::PatchConstantMismatch,
        };
        let mut seen: Vec<usize> = Vec::new();
        for r in &prod_rows {
            if find(&cons_rows, r.e, r.index).is_none() && !seen.contains(&r.elem) {
                seen.push(r.elem);
                sink.push(
                    rule,
                    p,
                    b.producer_sig(),
                    r.e,
                    r.row,
                    Some(c),
                    None,
                    format!("not declared by the {c} ({})", reg_text(r.register)),
                );
            }
        }
    }
}

/// Vertex-shader inputs must all be provided by the input layout.
pub(crate) fn input_layout(vs: &StageIo, layout: &InputLayout, out: &mut Vec<Rejection>) {
    let mut sink = Sink { out };
    for e in &vs.inputs {
        if matches!(e.semantic_kind, SemanticKind::VertexID | SemanticKind::InstanceID) {
            continue;
        }
        for row in 0..e.rows.min(64) {
            let index = semantic_index(e, row);
            let found =
                layout.elements.iter().any(|l| l.index == index && l.semantic.eq_ignore_ascii_case(&e.semantic_name));
            if !found {
                sink.push(
                    Rule::InputLayoutSemanticMissing,
                    Stage::Vertex,
                    SignatureKind::Input,
                    e,
                    row,
                    None,
                    None,
                    "not provided by the input layout".to_string(),
                );
                break;
            }
        }
    }
}

/// Which stages there are, and whether hull and domain agree on their state.
pub(crate) fn structure(stages: &[StageIo], out: &mut Vec<Rejection>) -> Option<()> {
    let mut sink = Sink { out };
    let count = |s: Stage| stages.iter().filter(|x| x.stage == s).count();
    let mut ok = true;
    for s in [Stage::Vertex, Stage::Hull, Stage::Domain, Stage::Geometry, Stage::Pixel] {
        if count(s) > 1 {
            sink.pipeline(Rule::InvalidStageCombination, s, format!("{} {s}s in one pipeline", count(s)));
            ok = false;
        }
    }
    if count(Stage::Vertex) == 0 {
        sink.pipeline(Rule::InvalidStageCombination, Stage::Vertex, "a graphics pipeline needs a vertex shader".into());
        ok = false;
    }
    if count(Stage::Hull) != count(Stage::Domain) {
        let (has, lacks) = if count(Stage::Hull) > count(Stage::Domain) {
            (Stage::Hull, Stage::Domain)
        } else {
            (Stage::Domain, Stage::Hull)
        };
        sink.pipeline(Rule::InvalidStageCombination, has, format!("a {has} needs a {lacks}"));
        ok = false;
    }
    if !ok {
        return None;
    }
    let hs = stages.iter().find(|s| s.stage == Stage::Hull).and_then(|s| s.hs.as_ref());
    let ds = stages.iter().find(|s| s.stage == Stage::Domain).and_then(|s| s.ds.as_ref());
    if let (Some(h), Some(d)) = (hs, ds) {
        if h.domain != d.domain {
            sink.pipeline(
                Rule::TessDomainMismatch,
                Stage::Domain,
                format!("domain {} but the hull shader's is {}", d.domain, h.domain),
            );
        }
        if h.output_control_points != d.input_control_points {
            sink.pipeline(
                Rule::ControlPointCountMismatch,
                Stage::Domain,
                format!(
                    "{} input control points but the hull shader outputs {}",
                    d.input_control_points, h.output_control_points
                ),
            );
        }
    }
    Some(())
}

/// The topology rules: the PSO's primitive topology type against the first stage that consumes
/// primitives (hull: PATCH, #668; no hull: not PATCH, #673), the
/// geometry shader's input primitive against what reaches it (#681), and a multi-stream geometry
/// shader's streams against the rasterizer. `topology = None` checks only what needs no state.
pub(crate) fn topology(p: &Pipeline<'_>, topology: Option<TopologyType>, out: &mut Vec<Rejection>) {
    let mut sink = Sink { out };
    let hs_state = p.hs.and_then(|h| h.hs.as_ref());
    if let Some(t) = topology {
        match (hs_state, t) {
            (Some(_), TopologyType::Patch(_)) => {}
            (Some(_), t) => sink.pipeline(
                Rule::HullInputTopologyMismatch,
                Stage::Hull,
                format!("primitive topology type {t} with a hull shader (needs PATCH)"),
            ),
            (None, TopologyType::Patch(_)) => sink.pipeline(
                Rule::InvalidPrimitiveTopology,
                Stage::Vertex,
                format!("primitive topology type {t} without a hull shader"),
            ),
            (None, _) => {}
        }
    }
    let Some(gs) = p.gs else { return };
    let Some(g) = gs.gs.as_ref() else { return };
    // What reaches the geometry shader: the tessellator's primitive, else the topology type.
    let arriving = match (hs_state, topology) {
        (Some(h), _) => match h.output_primitive {
            TessOutputPrimitive::Point => Some(TopologyType::Point),
            TessOutputPrimitive::Line => Some(TopologyType::Line),
            TessOutputPrimitive::TriangleCW | TessOutputPrimitive::TriangleCCW => Some(TopologyType::Triangle),
            TessOutputPrimitive::Undefined => None,
        },
        (None, t) => t,
    };
    let wants = match g.input_primitive {
        InputPrimitive::Point => Some(TopologyType::Point),
        InputPrimitive::Line | InputPrimitive::LineWithAdjacency => Some(TopologyType::Line),
        InputPrimitive::Triangle | InputPrimitive::TriangleWithAdjacency => Some(TopologyType::Triangle),
        InputPrimitive::ControlPointPatch(n) => Some(TopologyType::Patch(u32::from(n))),
        InputPrimitive::Undefined => None,
    };
    // The PSO carries only the topology *type*: a patch's control-point count is draw-time state
    // (IASetPrimitiveTopology), so patches match patches whatever their counts.
    let same =
        |a: TopologyType, w: TopologyType| matches!((a, w), (TopologyType::Patch(_), TopologyType::Patch(_))) || a == w;
    if let (Some(a), Some(w)) = (arriving, wants) {
        if !same(a, w) {
            let from = if hs_state.is_some() { "the tessellator outputs" } else { "the primitive topology type is" };
            sink.pipeline(
                Rule::GsInputPrimitiveMismatch,
                Stage::Geometry,
                format!("input primitive {} but {from} {a}", g.input_primitive),
            );
        }
    }
    let streams = g.active_stream_mask & 0xF;
    if streams.count_ones() > 1 && g.stream_primitive_topology != PrimitiveTopology::PointList {
        sink.pipeline(
            Rule::GsStreamsNotRasterizable,
            Stage::Geometry,
            format!(
                "{} output streams (mask {streams:#x}) with output topology {}: several streams must all be point lists",
                streams.count_ones(),
                g.stream_primitive_topology
            ),
        );
    }
}

/// Every rule of the pipeline, in pipeline order.
pub(crate) fn pipeline(p: &Pipeline<'_>, layout: Option<&InputLayout>) -> Vec<Rejection> {
    let mut out = Vec::new();
    if let Some(l) = layout {
        input_layout(p.vs, l, &mut out);
    }
    for b in p.boundaries() {
        boundary(&b, &mut out);
    }
    out
}
