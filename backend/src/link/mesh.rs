//! Mesh pipelines (AS? → MS → PS). D3D12 matches a mesh shader's outputs
//! (its vertex and primitive signatures together) to the pixel shader's
//! inputs by semantic only: the registers may differ (vkd3d-proton's
//! `test_shader_io_mismatch`: a pixel shader that skips an element, or
//! declares system values in another order, links behind a mesh shader but
//! not behind a vertex shader), while each matched element must have the same
//! component count and the same component type (min precision included).
//!
//! Placement is therefore consumer-driven: the pixel shader keeps its own
//! packing ([`place::single`]), and every mesh output a pixel input reads by
//! semantic takes that input's Location/Component; the rest are unused.
//! Pixel inputs fed by a per-primitive output are marked `per_primitive`
//! (`PerPrimitiveEXT`). Per-vertex outputs are the plan's `outputs`,
//! per-primitive ones its `patch_constants`.

use super::error::{LinkError, Rejection, Rule};
use super::rows::{register, same_semantic, semantic_index, type_key};
use super::stage::{SignatureKind, Stage, StageIo};
use super::sysval::{allowed_without_producer, is_sgv_input};
use super::{element_placement, place, ElementPlacement, LinkPlan, Placement, StagePlan};
use crate::dxil::{SemanticKind, SignatureElement};

/// Element ids of per-primitive outputs in the combined signature start here.
const PRIM_ID_BASE: u32 = 1 << 20;

/// The mesh shader's outputs as one signature (vertex elements, then the primitive elements
/// with their ids moved to [`PRIM_ID_BASE`]), for placing both together when compiled alone.
fn combine(ms: &StageIo) -> StageIo {
    let vertex_rows = ms
        .outputs
        .iter()
        .filter(|e| e.start_row >= 0)
        .map(|e| (e.start_row as u32).saturating_add(e.rows.min(64)))
        .max()
        .unwrap_or(0);
    let mut outputs = ms.outputs.clone();
    for e in &ms.patch_constants {
        let mut x = e.clone();
        x.id = x.id.saturating_add(PRIM_ID_BASE);
        // Own Locations past the vertex rows (the primitive rows are numbered from 0).
        if x.start_row >= 0 {
            x.start_row = x.start_row.saturating_add(vertex_rows as i32);
        }
        outputs.push(x);
    }
    let mut c = StageIo::new(Stage::Mesh, Vec::new(), outputs, Vec::new());
    c.entry.clone_from(&ms.entry);
    c.native_low_precision = ms.native_low_precision;
    c
}

/// The mesh stage's plan from the combined one: per-vertex outputs back in
/// `outputs`, per-primitive ones in `patch_constants` with their own ids and rows.
fn split(ms: &StageIo, combined: StagePlan) -> StagePlan {
    let n = ms.outputs.len();
    let mut outputs = combined.outputs;
    let prims = outputs.split_off(n.min(outputs.len()));
    let patch_constants = ms
        .patch_constants
        .iter()
        .zip(prims)
        .map(|(e, p)| {
            let mut x = element_placement(e, p.placement);
            x.per_primitive = true;
            x
        })
        .collect();
    StagePlan { entry: ms.entry.clone(), outputs, patch_constants, ..combined }
}

/// `f32`, `f16 (min precision)`, `f16 (native)`.
fn type_name((t, native): (crate::dxil::ComponentType, bool)) -> String {
    use crate::dxil::ComponentType::{F16, I16, U16};
    match (matches!(t, F16 | I16 | U16), native) {
        (true, true) => format!("{t} (native)"),
        (true, false) => format!("{t} (min precision)"),
        _ => t.to_string(),
    }
}

fn same_name(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// The plan of a mesh shader compiled alone.
pub(crate) fn single(ms: &StageIo) -> Result<LinkPlan, LinkError> {
    let combined = combine(ms);
    let mut plan = place::single(&combined)?;
    plan.stages = plan.stages.into_iter().map(|s| split(ms, s)).collect();
    Ok(plan)
}

fn reject(rule: Rule, stage: Stage, detail: String) -> Rejection {
    Rejection {
        rule,
        stage,
        signature: SignatureKind::Input,
        semantic_name: String::new(),
        semantic_index: 0,
        register: None,
        other_stage: None,
        other_register: None,
        detail,
    }
}

/// Which stages a mesh pipeline has: one MS, at most one AS and PS, nothing of the vertex pipeline.
fn structure(stages: &[StageIo]) -> Vec<Rejection> {
    let mut out = Vec::new();
    let count = |s: Stage| stages.iter().filter(|x| x.stage == s).count();
    for s in [Stage::Amplification, Stage::Mesh, Stage::Pixel] {
        if count(s) > 1 {
            out.push(reject(Rule::InvalidStageCombination, s, format!("{} {s}s in one pipeline", count(s))));
        }
    }
    if count(Stage::Mesh) == 0 {
        out.push(reject(
            Rule::InvalidStageCombination,
            Stage::Amplification,
            "an amplification shader needs a mesh shader".into(),
        ));
    }
    for s in [Stage::Vertex, Stage::Hull, Stage::Domain, Stage::Geometry] {
        if count(s) > 0 {
            out.push(reject(
                Rule::InvalidStageCombination,
                s,
                format!("a {s} in a mesh pipeline (mesh pipelines have no vertex, tessellation or geometry stages)"),
            ));
        }
    }
    out
}

/// Payload: the mesh shader may not read more payload than the amplification shader writes.
fn payload(amp: &StageIo, ms: &StageIo) -> Option<Rejection> {
    let (a, m) = (amp.amp.as_ref()?, ms.ms.as_ref()?);
    (m.payload_size_in_bytes > a.payload_size_in_bytes).then(|| {
        reject(
            Rule::MeshPayloadMismatch,
            Stage::Mesh,
            format!(
                "the mesh shader reads a {}-byte payload but the amplification shader writes {} bytes",
                m.payload_size_in_bytes, a.payload_size_in_bytes
            ),
        )
    })
}

/// The mesh output (vertex or primitive signature) with a pixel input's semantic and index:
/// (element, is it per-primitive).
fn producer_of<'a>(ms: &'a StageIo, e: &SignatureElement, row: u32) -> Option<(&'a SignatureElement, bool)> {
    let index = semantic_index(e, row);
    let hit = |x: &&SignatureElement| same_semantic(x, e) && x.semantic_indices.contains(&index);
    ms.outputs.iter().find(hit).map(|x| (x, false)).or_else(|| ms.patch_constants.iter().find(hit).map(|x| (x, true)))
}

/// D3D12's mesh → pixel rules: every pixel input is written by the mesh shader (by semantic;
/// system-generated values excepted), with the same component count and type. Registers are not
/// compared.
fn validate_ps(ms: &StageIo, ps: &StageIo) -> Vec<Rejection> {
    let mut out = Vec::new();
    for e in &ps.inputs {
        let sgv = is_sgv_input(Stage::Pixel, e.semantic_kind);
        let mut push = |rule: Rule, other: Option<&SignatureElement>, detail: String| {
            out.push(Rejection {
                rule,
                stage: Stage::Pixel,
                signature: SignatureKind::Input,
                semantic_name: e.semantic_name.to_string(),
                semantic_index: semantic_index(e, 0),
                register: register(e, 0),
                other_stage: Some(Stage::Mesh),
                other_register: other.and_then(|o| register(o, 0)),
                detail,
            });
        };
        let Some((p, _)) = producer_of(ms, e, 0) else {
            if sgv && allowed_without_producer(Stage::Pixel, Some(Stage::Mesh), e.semantic_kind) {
                continue;
            }
            let rule = if e.semantic_kind == SemanticKind::Arbitrary {
                Rule::SemanticNotFound
            } else {
                Rule::SystemValueMustComeFromProducer
            };
            push(rule, None, "not written by the mesh shader".into());
            continue;
        };
        if sgv {
            continue;
        }
        if p.cols != e.cols || p.rows != e.rows {
            push(
                Rule::RegisterMaskMismatch,
                Some(p),
                format!(
                    "{} component(s) x {} row(s) here, {} x {} in the mesh shader (a mesh shader's outputs must \
                     match the pixel shader's inputs exactly)",
                    e.cols, e.rows, p.cols, p.rows
                ),
            );
        }
        let (ct, pt) = (type_key(e, ps.native_low_precision), type_key(p, ms.native_low_precision));
        if ct != pt {
            push(
                Rule::ComponentTypeMismatch,
                Some(p),
                format!("{} here, {} in the mesh shader", type_name(ct), type_name(pt)),
            );
        }
    }
    out
}

/// Validates and links a mesh pipeline (stages in any order).
pub(crate) fn link(stages: &[StageIo]) -> Result<LinkPlan, LinkError> {
    let rejections = structure(stages);
    if !rejections.is_empty() {
        return Err(LinkError::Rejected(rejections));
    }
    let get = |s: Stage| stages.iter().find(|x| x.stage == s);
    let Some(ms) = get(Stage::Mesh) else { return Err(LinkError::Rejected(rejections)) };
    let amp = get(Stage::Amplification);
    let ps = get(Stage::Pixel);
    let mut rejections: Vec<Rejection> = amp.and_then(|a| payload(a, ms)).into_iter().collect();
    if let Some(ps) = ps {
        rejections.extend(validate_ps(ms, ps));
    }
    if !rejections.is_empty() {
        return Err(LinkError::Rejected(rejections));
    }
    // The mesh shader alone (built-ins, clip/cull layout), then its varyings at the pixel shader's Locations.
    let mut plan = single(ms)?;
    let Some(mut mesh) = plan.stages.pop() else { return Err(LinkError::Rejected(Vec::new())) };
    let mut ps_plan = match ps {
        Some(ps) => place::single(ps)?.stages.pop(),
        None => None,
    };
    if let Some(p) = ps_plan.as_mut() {
        // Pixel inputs fed by per-primitive outputs are PerPrimitiveEXT; Vulkan keeps them off
        // the Locations of per-vertex inputs (DXC may pack both kinds into one register), so
        // they move to Locations past every pixel input, keeping their components.
        let mut next = p
            .inputs
            .iter()
            .filter_map(|e| match e.placement {
                Placement::Location { location, .. } => Some(location.saturating_add(e.rows.clamp(1, 64))),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let mut moved: Vec<(u32, u32)> = Vec::new();
        for e in &mut p.inputs {
            let per_primitive = ms
                .patch_constants
                .iter()
                .any(|m| same_name(&m.semantic_name, &e.semantic_name) && m.semantic_indices == e.semantic_indices);
            if let (true, Placement::Location { location, component }) = (per_primitive, e.placement) {
                e.per_primitive = true;
                // Elements sharing a register keep sharing one (by their old Location).
                let l = match moved.iter().find(|m| m.0 == location) {
                    Some(m) => m.1,
                    None => {
                        let l = next;
                        next = next.saturating_add(e.rows.clamp(1, 64));
                        moved.push((location, l));
                        l
                    }
                };
                e.placement = Placement::Location { location: l, component };
            }
        }
    }
    let ps_loc = |e: &ElementPlacement| -> Placement {
        let Some(p) = ps_plan.as_ref() else { return Placement::Unused };
        let index = e.semantic_indices.first().copied().unwrap_or(0);
        match p.inputs.iter().find(|x| {
            x.semantic_name.eq_ignore_ascii_case(&e.semantic_name) && x.semantic_indices.first() == Some(&index)
        }) {
            Some(x) if matches!(x.placement, Placement::Location { .. }) => x.placement,
            _ => Placement::Unused,
        }
    };
    for e in mesh.outputs.iter_mut().chain(mesh.patch_constants.iter_mut()) {
        if matches!(e.placement, Placement::Location { .. }) {
            e.placement = ps_loc(e);
        }
    }
    let mut stages_out = Vec::with_capacity(3);
    if let Some(a) = amp {
        stages_out.push(StagePlan {
            stage: Stage::Amplification,
            entry: a.entry.clone(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            patch_constants: Vec::new(),
            clip_distances_in: 0,
            cull_distances_in: 0,
            clip_distances_out: 0,
            cull_distances_out: 0,
        });
    }
    if let Some(mut p) = ps_plan {
        // One ClipDistance/CullDistance size on both sides of the interface.
        let clip = mesh.clip_distances_out.max(p.clip_distances_in);
        let cull = mesh.cull_distances_out.max(p.cull_distances_in);
        (mesh.clip_distances_out, mesh.cull_distances_out) = (clip, cull);
        (p.clip_distances_in, p.cull_distances_in) = (clip, cull);
        stages_out.push(mesh);
        stages_out.push(p);
    } else {
        stages_out.push(mesh);
    }
    plan.stages = stages_out;
    Ok(plan)
}
