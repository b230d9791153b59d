//! Mesh pipelines (AS? → MS → PS): the mesh shader's vertex outputs and
//! per-primitive outputs meet the pixel shader's inputs as one producer
//! signature, the primitive rows placed after the vertex rows (D3D12 packs
//! and matches them that way: DXC numbers the primitive signature's rows
//! from 0, the pixel shader sees them after the last vertex row).
//!
//! The linker runs the ordinary boundary rules and placement on that
//! combined signature ([`combine`]) and splits the result back into the mesh
//! stage's `outputs` (per-vertex) and `patch_constants` (per-primitive)
//! ([`split`]); pixel inputs fed by a per-primitive output are marked
//! `per_primitive` (`PerPrimitiveEXT`).

use super::error::{LinkError, Rejection, Rule};
use super::stage::{SignatureKind, Stage, StageIo};
use super::{element_placement, place, validate, LinkPlan, Pipeline, Placement, StagePlan};

/// Element ids of per-primitive outputs in the combined signature start here.
const PRIM_ID_BASE: u32 = 1 << 20;

/// The mesh shader's outputs as one signature: vertex elements, then the
/// primitive elements with their rows moved past the vertex rows and their
/// ids moved to [`PRIM_ID_BASE`].
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

/// Validates and links a mesh pipeline (stages in any order).
pub(crate) fn link(stages: &[StageIo]) -> Result<LinkPlan, LinkError> {
    let rejections = structure(stages);
    if !rejections.is_empty() {
        return Err(LinkError::Rejected(rejections));
    }
    let get = |s: Stage| stages.iter().find(|x| x.stage == s);
    let Some(ms) = get(Stage::Mesh) else { return Err(LinkError::Rejected(rejections)) };
    let amp = get(Stage::Amplification);
    let combined = combine(ms);
    let p = Pipeline { vs: &combined, hs: None, ds: None, gs: None, ps: get(Stage::Pixel), rasterized_stream: Some(0) };
    let mut rejections: Vec<Rejection> = amp.and_then(|a| payload(a, ms)).into_iter().collect();
    rejections.extend(validate::pipeline(&p, None));
    if !rejections.is_empty() {
        return Err(LinkError::Rejected(rejections));
    }
    let mut plan = place::pipeline(&p, None, None)?;
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
    let mut it = std::mem::take(&mut plan.stages).into_iter();
    let Some(mesh) = it.next() else {
        return Err(LinkError::Rejected(Vec::new()));
    };
    let mesh = split(ms, mesh);
    // Pixel inputs at a Location some per-primitive output occupies read that primitive's value.
    let prim_locations: Vec<(u32, u32)> = mesh
        .patch_constants
        .iter()
        .filter_map(|e| match e.placement {
            Placement::Location { location, .. } => Some((location, location.saturating_add(e.rows.clamp(1, 64)))),
            _ => None,
        })
        .collect();
    stages_out.push(mesh);
    for mut s in it {
        if s.stage == Stage::Pixel {
            for e in &mut s.inputs {
                if let Placement::Location { location, .. } = e.placement {
                    e.per_primitive = prim_locations.iter().any(|&(a, b)| (a..b).contains(&location));
                }
            }
        }
        stages_out.push(s);
    }
    plan.stages = stages_out;
    Ok(plan)
}
