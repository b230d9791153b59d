//! Relocation: the Vulkan Location/Component or built-in of every element.

use super::error::LinkError;
use super::input_layout::{self, InputLayout, VertexAttribute};
use super::rows::{find, is_placed, rows, semantic_index, Row};
use super::stage::{SignatureKind, Stage, StageIo};
use super::sysval::{classify, BuiltIn, SvClass};
use super::validate::{Boundary, BoundaryKind};
use super::{
    element_placement, element_placement_owned, input_vertices, GeometryPlan, LinkPlan, Pipeline, Placement, StagePlan,
    StreamOutputDesc, TessellationPlan,
};
use crate::dxil::{SemanticKind, SignatureElement, TessPartitioning};

/// Placements of one stage while the pipeline is being linked.
#[derive(Debug, Clone)]
struct Work {
    inputs: Vec<Option<Placement>>,
    outputs: Vec<Option<Placement>>,
    pcs: Vec<Option<Placement>>,
    clip_in: u32,
    cull_in: u32,
    clip_out: u32,
    cull_out: u32,
}

impl Work {
    fn new(io: &StageIo) -> Work {
        Work {
            inputs: vec![None; io.inputs.len()],
            outputs: vec![None; io.outputs.len()],
            pcs: vec![None; io.patch_constants.len()],
            clip_in: 0,
            cull_in: 0,
            clip_out: 0,
            cull_out: 0,
        }
    }
    fn sig(&mut self, sig: SignatureKind) -> &mut Vec<Option<Placement>> {
        match sig {
            SignatureKind::Input => &mut self.inputs,
            SignatureKind::Output => &mut self.outputs,
            SignatureKind::PatchConstant => &mut self.pcs,
        }
    }
    fn finish(self, io: &StageIo) -> StagePlan {
        let zip = |elems: &[SignatureElement], p: Vec<Option<Placement>>| {
            elems.iter().zip(p).map(|(e, p)| element_placement(e, p.unwrap_or(Placement::Unused))).collect()
        };
        StagePlan {
            stage: io.stage,
            entry: io.entry.clone(),
            inputs: zip(&io.inputs, self.inputs),
            outputs: zip(&io.outputs, self.outputs),
            patch_constants: zip(&io.patch_constants, self.pcs),
            clip_distances_in: self.clip_in,
            cull_distances_in: self.cull_in,
            clip_distances_out: self.clip_out,
            cull_distances_out: self.cull_out,
        }
    }
    /// [`Work::finish`] moving the elements' names into the plan.
    fn finish_owned(self, io: StageIo) -> StagePlan {
        let zip = |elems: Vec<SignatureElement>, p: Vec<Option<Placement>>| {
            elems.into_iter().zip(p).map(|(e, p)| element_placement_owned(e, p.unwrap_or(Placement::Unused))).collect()
        };
        StagePlan {
            stage: io.stage,
            entry: io.entry,
            inputs: zip(io.inputs, self.inputs),
            outputs: zip(io.outputs, self.outputs),
            patch_constants: zip(io.patch_constants, self.pcs),
            clip_distances_in: self.clip_in,
            cull_distances_in: self.cull_in,
            clip_distances_out: self.clip_out,
            cull_distances_out: self.cull_out,
        }
    }
}

fn class_of(stage: Stage, sig: SignatureKind, e: &SignatureElement, feeds_raster: bool) -> Result<SvClass, LinkError> {
    classify(stage, sig, e, feeds_raster).ok_or_else(|| LinkError::UnsupportedSystemValue {
        stage,
        signature: sig,
        semantic: format!("{}{}", e.semantic_name, semantic_index(e, 0)),
        system_value: e.system_value_name(),
    })
}

fn classes(
    stage: Stage,
    sig: SignatureKind,
    elems: &[SignatureElement],
    feeds_raster: bool,
) -> Result<Vec<SvClass>, LinkError> {
    elems.iter().map(|e| class_of(stage, sig, e, feeds_raster)).collect()
}

fn start(e: &SignatureElement) -> (u32, u32) {
    (u32::try_from(e.start_row).unwrap_or(0), u32::try_from(e.start_col).unwrap_or(0))
}

fn end_row(e: &SignatureElement) -> u32 {
    start(e).0.saturating_add(e.rows.min(64))
}

/// Clip/cull layout: offsets into the merged array, by semantic index order.
fn clip_layout(
    elems: &[SignatureElement],
    keep: impl Fn(usize) -> bool,
    kind: SemanticKind,
) -> (Vec<Option<u32>>, u32) {
    if !elems.iter().any(|e| e.semantic_kind == kind) {
        return (Vec::new(), 0);
    }
    let mut order: Vec<usize> =
        (0..elems.len()).filter(|&i| keep(i) && elems.get(i).is_some_and(|e| e.semantic_kind == kind)).collect();
    order.sort_by_key(|&i| elems.get(i).map(|e| (semantic_index(e, 0), e.start_row, e.start_col)));
    let mut offsets = vec![None; elems.len()];
    let mut total = 0u32;
    for i in order {
        if let (Some(e), Some(slot)) = (elems.get(i), offsets.get_mut(i)) {
            *slot = Some(total);
            total = total.saturating_add(e.rows.min(64).saturating_mul(u32::from(e.cols)));
        }
    }
    (offsets, total)
}

fn with_offset(b: BuiltIn, offset: u32) -> BuiltIn {
    match b {
        BuiltIn::ClipDistance { .. } => BuiltIn::ClipDistance { offset },
        BuiltIn::CullDistance { .. } => BuiltIn::CullDistance { offset },
        other => other,
    }
}

/// Places one signature with no partner stage: own registers, free
/// Locations for unplaced elements, own clip/cull layout. `varyings_unused`
/// marks user outputs nobody consumes. Returns (placements, clip, cull).
fn lone_side(
    stage: Stage,
    sig: SignatureKind,
    elems: &[SignatureElement],
    feeds_raster: bool,
    base: u32,
    varyings_unused: bool,
) -> Result<(Vec<Placement>, u32, u32), LinkError> {
    let cls = classes(stage, sig, elems, feeds_raster)?;
    let (clip_off, clip_total) = clip_layout(elems, |_| true, SemanticKind::ClipDistance);
    let (cull_off, cull_total) = clip_layout(elems, |_| true, SemanticKind::CullDistance);
    // Streams of a GS get disjoint Location ranges.
    let mut stream_end = [0u32; 4];
    for (e, c) in elems.iter().zip(&cls) {
        if *c == SvClass::Varying && is_placed(e) {
            let s = e.stream().min(3) as usize;
            if let Some(x) = stream_end.get_mut(s) {
                *x = (*x).max(end_row(e));
            }
        }
    }
    let shift = |s: u32| stream_end.iter().take(s.min(3) as usize).sum::<u32>();
    let mut free = base.saturating_add(stream_end.iter().sum::<u32>());
    let mut out = Vec::with_capacity(elems.len());
    for (i, (e, c)) in elems.iter().zip(&cls).enumerate() {
        out.push(match c {
            SvClass::Dropped => Placement::Unused,
            SvClass::BuiltIn(b) => {
                let off = match b {
                    BuiltIn::ClipDistance { .. } => clip_off.get(i).copied().flatten().unwrap_or(0),
                    BuiltIn::CullDistance { .. } => cull_off.get(i).copied().flatten().unwrap_or(0),
                    _ => 0,
                };
                Placement::BuiltIn(with_offset(*b, off))
            }
            SvClass::Varying if varyings_unused => Placement::Unused,
            SvClass::Varying if stage == Stage::Pixel && sig == SignatureKind::Output => {
                Placement::Location { location: semantic_index(e, 0), component: 0 }
            }
            SvClass::Varying if is_placed(e) => {
                let (r, col) = start(e);
                Placement::Location {
                    location: base.saturating_add(shift(e.stream())).saturating_add(r),
                    component: col,
                }
            }
            SvClass::Varying => {
                let loc = free;
                free = free.saturating_add(e.rows.clamp(1, 64));
                Placement::Location { location: loc, component: 0 }
            }
        });
    }
    Ok((out, clip_total, cull_total))
}

/// Places both sides of one boundary. Returns (producer placements, consumer placements, clip, cull).
type Sides = (Vec<Placement>, Vec<Placement>, u32, u32);

fn boundary(b: &Boundary<'_>, rasterized: Option<u32>, base: u32) -> Result<Sides, LinkError> {
    let (p, c) = (b.producer, b.consumer);
    let (pe, ce) = (b.producer_elems(), b.consumer_elems());
    let feeds_raster = c.stage == Stage::Pixel;
    let pcls = classes(p.stage, b.producer_sig(), pe, feeds_raster)?;
    let ccls = classes(c.stage, b.consumer_sig(), ce, false)?;
    // The producer stream whose data reaches the consumer (only GS → PS has more than one).
    let place_stream = if p.stage == Stage::Geometry { Some(rasterized.unwrap_or(0)) } else { None };
    let in_stream = |e: &SignatureElement| place_stream.is_none_or_eq(e.stream());
    let derive_from_consumer = place_stream.is_some_and(|s| s != 0);

    let prow: Vec<Row<'_>> = rows(pe, |_| true)
        .into_iter()
        .filter(|r| pcls.get(r.elem) == Some(&SvClass::Varying) && in_stream(r.e))
        .collect();
    let crow: Vec<Row<'_>> =
        rows(ce, |_| true).into_iter().filter(|r| ccls.get(r.elem) == Some(&SvClass::Varying)).collect();

    let mut free = base;
    for r in prow.iter().chain(&crow) {
        if is_placed(r.e) {
            free = free.max(base.saturating_add(end_row(r.e)));
        }
    }

    // Pass A/B: placed elements keep their register and column.
    let own = |e: &SignatureElement| {
        let (r, col) = start(e);
        (base.saturating_add(r), col)
    };
    let mut ploc: Vec<Option<(u32, u32)>> = pe
        .iter()
        .zip(&pcls)
        .map(|(e, k)| (*k == SvClass::Varying && in_stream(e) && is_placed(e) && !derive_from_consumer).then(|| own(e)))
        .collect();
    let mut cloc: Vec<Option<(u32, u32)>> =
        ce.iter().zip(&ccls).map(|(e, k)| (*k == SvClass::Varying && is_placed(e)).then(|| own(e))).collect();
    // Whether each producer element is read by the consumer at all.
    let mut read = vec![false; pe.len()];
    for cr in &crow {
        if let Some(pr) = find(&prow, cr.e, cr.index) {
            if let Some(x) = read.get_mut(pr.elem) {
                *x = true;
            }
        }
    }
    // Pass C: producer elements without a Location take the consumer's, or a free one.
    for (i, e) in pe.iter().enumerate() {
        if ploc.get(i).copied().flatten().is_some() || !read.get(i).copied().unwrap_or(false) {
            continue;
        }
        let mut loc = None;
        for pr in prow.iter().filter(|r| r.elem == i) {
            if let Some(cr) = find(&crow, pr.e, pr.index) {
                if let Some((cl, ccomp)) = cloc.get(cr.elem).copied().flatten() {
                    if let Some(l) = cl.checked_add(cr.row).and_then(|l| l.checked_sub(pr.row)) {
                        loc = Some((l, ccomp));
                        break;
                    }
                }
            }
        }
        let loc = loc.unwrap_or_else(|| {
            let l = free;
            free = free.saturating_add(e.rows.clamp(1, 64));
            (l, 0)
        });
        if let Some(slot) = ploc.get_mut(i) {
            *slot = Some(loc);
        }
    }
    // Pass D: unplaced consumer elements take the producer's Location.
    for j in 0..ce.len() {
        if cloc.get(j).copied().flatten().is_some() || ccls.get(j) != Some(&SvClass::Varying) {
            continue;
        }
        let mut loc = None;
        for cr in crow.iter().filter(|r| r.elem == j) {
            if let Some(pr) = find(&prow, cr.e, cr.index) {
                if let Some((pl, pcomp)) = ploc.get(pr.elem).copied().flatten() {
                    if let Some(l) = pl.checked_add(pr.row).and_then(|l| l.checked_sub(cr.row)) {
                        loc = Some((l, pcomp));
                        break;
                    }
                }
            }
        }
        if let Some(slot) = cloc.get_mut(j) {
            *slot = loc;
        }
    }

    // Clip/cull: the producer's layout; consumer elements take the matched producer offset.
    let (pclip, clip_total) = clip_layout(pe, |i| pe.get(i).is_some_and(&in_stream), SemanticKind::ClipDistance);
    let (pcull, cull_total) = clip_layout(pe, |i| pe.get(i).is_some_and(&in_stream), SemanticKind::CullDistance);
    let (cclip, _) = clip_layout(ce, |_| true, SemanticKind::ClipDistance);
    let (ccull, _) = clip_layout(ce, |_| true, SemanticKind::CullDistance);
    let prow_all: Vec<Row<'_>> = rows(pe, in_stream);
    let consumer_offset = |j: usize, e: &SignatureElement, own: &[Option<u32>], prod: &[Option<u32>]| -> u32 {
        if let Some(pr) = find(&prow_all, e, semantic_index(e, 0)) {
            if let Some(po) = prod.get(pr.elem).copied().flatten() {
                let (_, ccol) = start(e);
                let (_, pcol) = start(pr.e);
                return po
                    .saturating_add(pr.row.saturating_mul(u32::from(pr.e.cols)))
                    .saturating_add(ccol.saturating_sub(pcol));
            }
        }
        own.get(j).copied().flatten().unwrap_or(0)
    };

    let mut pout = Vec::with_capacity(pe.len());
    for (i, (e, k)) in pe.iter().zip(&pcls).enumerate() {
        pout.push(match k {
            _ if !in_stream(e) => Placement::Unused,
            SvClass::Dropped => Placement::Unused,
            SvClass::BuiltIn(bi) => {
                let off = match bi {
                    BuiltIn::ClipDistance { .. } => pclip.get(i).copied().flatten().unwrap_or(0),
                    BuiltIn::CullDistance { .. } => pcull.get(i).copied().flatten().unwrap_or(0),
                    _ => 0,
                };
                Placement::BuiltIn(with_offset(*bi, off))
            }
            SvClass::Varying => match (read.get(i).copied().unwrap_or(false), ploc.get(i).copied().flatten()) {
                (true, Some((location, component))) => Placement::Location { location, component },
                _ => Placement::Unused,
            },
        });
    }
    let mut cout = Vec::with_capacity(ce.len());
    for (j, (e, k)) in ce.iter().zip(&ccls).enumerate() {
        cout.push(match k {
            SvClass::Dropped => Placement::ZeroFill,
            SvClass::BuiltIn(bi) => {
                let off = match bi {
                    BuiltIn::ClipDistance { .. } => consumer_offset(j, e, &cclip, &pclip),
                    BuiltIn::CullDistance { .. } => consumer_offset(j, e, &ccull, &pcull),
                    _ => 0,
                };
                Placement::BuiltIn(with_offset(*bi, off))
            }
            SvClass::Varying => {
                let matched = crow.iter().filter(|r| r.elem == j).any(|r| find(&prow, r.e, r.index).is_some());
                match (matched, cloc.get(j).copied().flatten()) {
                    (true, Some((location, component))) => Placement::Location { location, component },
                    _ => Placement::ZeroFill,
                }
            }
        });
    }
    Ok((pout, cout, clip_total, cull_total))
}

trait OptEq {
    fn is_none_or_eq(&self, v: u32) -> bool;
}
impl OptEq for Option<u32> {
    fn is_none_or_eq(&self, v: u32) -> bool {
        match self {
            Some(s) => *s == v,
            None => true,
        }
    }
}

/// The Location just past every control-point Location of a placed side.
fn location_end(elems: &[SignatureElement], placements: &[Option<Placement>]) -> u32 {
    elems
        .iter()
        .zip(placements)
        .filter_map(|(e, p)| match p {
            Some(Placement::Location { location, .. }) => Some(location.saturating_add(e.rows.min(64))),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

fn vertex_input(
    vs: &StageIo,
    placed: &[Option<Placement>],
    layout: Option<&InputLayout>,
) -> Result<Vec<VertexAttribute>, LinkError> {
    let resolved = match layout {
        Some(l) => Some(input_layout::resolve(l)?),
        None => None,
    };
    let mut out = Vec::new();
    for (e, p) in vs.inputs.iter().zip(placed) {
        let Some(Placement::Location { location, .. }) = p else { continue };
        for row in 0..e.rows.min(64) {
            let index = semantic_index(e, row);
            let l = resolved.as_ref().and_then(|r| {
                r.iter().find(|x| x.element.index == index && x.element.semantic.eq_ignore_ascii_case(&e.semantic_name))
            });
            out.push(VertexAttribute {
                location: location.saturating_add(row),
                element_id: e.id,
                row,
                semantic_name: e.semantic_name.clone(),
                semantic_index: index,
                format: l.map(|x| x.element.format.clone()),
                vk_format: l.map(|x| x.vk_format),
                binding: l.map_or(0, |x| x.element.slot),
                offset: l.map_or(0, |x| x.offset),
                per_instance: l.is_some_and(|x| x.element.per_instance),
                step_rate: l.map_or(0, |x| x.element.step_rate),
            });
        }
    }
    Ok(out)
}

fn spacing(p: TessPartitioning) -> &'static str {
    match p {
        TessPartitioning::FractionalOdd => "SpacingFractionalOdd",
        TessPartitioning::FractionalEven => "SpacingFractionalEven",
        // pow2 is tessellated like integer by the fixed-function unit.
        _ => "SpacingEqual",
    }
}

fn tessellation(hs: &StageIo, pc_offset: u32) -> Option<TessellationPlan> {
    let h = hs.hs.as_ref()?;
    Some(TessellationPlan {
        input_control_points: h.input_control_points,
        output_control_points: h.output_control_points,
        domain: h.domain,
        partitioning: h.partitioning,
        spacing: spacing(h.partitioning),
        output_primitive: h.output_primitive,
        max_tess_factor: h.max_tess_factor,
        patch_constant_function: hs.patch_constant_function.clone(),
        patch_constant_location_offset: pc_offset,
    })
}

fn geometry(gs: &StageIo, rasterized_stream: Option<u32>) -> Option<GeometryPlan> {
    let g = gs.gs.as_ref()?;
    Some(GeometryPlan {
        input_primitive: g.input_primitive,
        input_vertices: input_vertices(g.input_primitive),
        max_vertex_count: g.max_vertex_count,
        instance_count: g.instance_count,
        active_stream_mask: g.active_stream_mask,
        output_topology: g.stream_primitive_topology,
        rasterized_stream,
    })
}

fn fill(slot: &mut [Option<Placement>], with: Vec<Placement>) {
    for (s, p) in slot.iter_mut().zip(with) {
        if s.is_none() {
            *s = Some(p);
        }
    }
}

/// Whether a stage's outputs would feed the rasterizer when compiled alone.
fn feeds_raster_alone(s: Stage) -> bool {
    matches!(s, Stage::Vertex | Stage::Domain | Stage::Geometry)
}

/// The placements and plan-wide facts of a stage alone.
type Single = (Work, Vec<super::VertexAttribute>, Option<TessellationPlan>, Option<GeometryPlan>);

fn single_parts(io: &StageIo, pc_location: Option<u32>) -> Result<Single, LinkError> {
    let stage = io.stage;
    let (inp, clip_in, cull_in) = lone_side(stage, SignatureKind::Input, &io.inputs, false, 0, false)?;
    let (out, clip_out, cull_out) =
        lone_side(stage, SignatureKind::Output, &io.outputs, feeds_raster_alone(stage), 0, false)?;
    let mut w = Work {
        inputs: inp.into_iter().map(Some).collect(),
        outputs: out.into_iter().map(Some).collect(),
        pcs: Vec::new(),
        clip_in,
        cull_in,
        clip_out,
        cull_out,
    };
    // Independently compiled hull and domain shaders agree on where patch constants start when
    // the caller passes the hull's offset to the domain compile.
    let pc_offset = match (stage, pc_location) {
        (Stage::Hull | Stage::Domain, Some(o)) => o,
        (Stage::Hull, None) => location_end(&io.outputs, &w.outputs),
        (Stage::Domain, None) => location_end(&io.inputs, &w.inputs),
        _ => 0,
    };
    if !io.patch_constants.is_empty() {
        let (pc, _, _) = lone_side(stage, SignatureKind::PatchConstant, &io.patch_constants, false, pc_offset, false)?;
        w.pcs = pc.into_iter().map(Some).collect();
    }
    let vertex_input = if stage == Stage::Vertex { vertex_input(io, &w.inputs, None)? } else { Vec::new() };
    let tess = if stage == Stage::Hull { tessellation(io, pc_offset) } else { None };
    let geom = if stage == Stage::Geometry { geometry(io, Some(0)) } else { None };
    Ok((w, vertex_input, tess, geom))
}

pub(crate) fn single(io: &StageIo) -> Result<LinkPlan, LinkError> {
    let (w, vertex_input, tessellation, geometry) = single_parts(io, None)?;
    Ok(LinkPlan { stages: vec![w.finish(io)], vertex_input, tessellation, geometry, stream_output: None })
}

pub(crate) fn single_owned(io: StageIo, pc_location: Option<u32>) -> Result<LinkPlan, LinkError> {
    let (w, vertex_input, tessellation, geometry) = single_parts(&io, pc_location)?;
    Ok(LinkPlan { stages: vec![w.finish_owned(io)], vertex_input, tessellation, geometry, stream_output: None })
}

pub(crate) fn pipeline(
    p: &Pipeline<'_>,
    layout: Option<&InputLayout>,
    so: Option<&StreamOutputDesc>,
) -> Result<LinkPlan, LinkError> {
    let stages: Vec<&StageIo> = [Some(p.vs), p.hs, p.ds, p.gs, p.ps].into_iter().flatten().collect();
    let mut work: Vec<Work> = stages.iter().map(|s| Work::new(s)).collect();
    let at = |s: Stage| stages.iter().position(|x| x.stage == s);

    // Vertex inputs: the input assembler side.
    if let Some(w) = work.first_mut() {
        let (inp, _, _) = lone_side(Stage::Vertex, SignatureKind::Input, &p.vs.inputs, false, 0, false)?;
        fill(&mut w.inputs, inp);
    }

    let mut pc_offset = 0;
    for b in p.boundaries() {
        let (Some(pi), Some(ci)) = (at(b.producer.stage), at(b.consumer.stage)) else { continue };
        let base = if b.kind == BoundaryKind::PatchConstant { pc_offset } else { 0 };
        let (pout, cout, clip, cull) = boundary(&b, p.rasterized_stream, base)?;
        if let Some(w) = work.get_mut(pi) {
            fill(w.sig(b.producer_sig()), pout);
            // Control points carry clip/cull distances too (per-vertex arrays in the TCS and TES).
            if matches!(b.kind, BoundaryKind::Varying | BoundaryKind::ControlPoint) {
                (w.clip_out, w.cull_out) = (clip, cull);
            }
        }
        if let Some(w) = work.get_mut(ci) {
            fill(w.sig(b.consumer_sig()), cout);
            if matches!(b.kind, BoundaryKind::Varying | BoundaryKind::ControlPoint) {
                (w.clip_in, w.cull_in) = (clip, cull);
            }
        }
        if b.kind == BoundaryKind::ControlPoint {
            let hs_end = work.get(pi).map_or(0, |w| location_end(&b.producer.outputs, &w.outputs));
            let ds_end = work.get(ci).map_or(0, |w| location_end(&b.consumer.inputs, &w.inputs));
            pc_offset = hs_end.max(ds_end);
        }
    }

    // Whatever no boundary placed: outputs nobody consumes, pixel outputs,
    // and a pixel shader that is not linked because nothing is rasterized.
    let last = p.last_pre_raster().stage;
    let ps_linked = p.ps.is_some() && (last != Stage::Geometry || p.rasterized_stream.is_some());
    for (io, w) in stages.iter().zip(work.iter_mut()) {
        let s = io.stage;
        if w.outputs.iter().any(Option::is_none) {
            // Pixel outputs always reach the output merger (render targets, depth, stencil).
            let consumed = s == Stage::Pixel || ps_linked || s != last;
            let (out, clip, cull) =
                lone_side(s, SignatureKind::Output, &io.outputs, s == last || s == Stage::Pixel, 0, !consumed)?;
            if s == last && !ps_linked {
                (w.clip_out, w.cull_out) = (clip, cull);
            }
            // GS outputs of streams that are not rasterized carry nothing anywhere (no stream output yet).
            let out: Vec<Placement> = io
                .outputs
                .iter()
                .zip(out)
                .map(|(e, pl)| {
                    if s == Stage::Geometry && !ps_linked && e.stream() != p.rasterized_stream.unwrap_or(0) {
                        Placement::Unused
                    } else {
                        pl
                    }
                })
                .collect();
            fill(&mut w.outputs, out);
        }
        if w.inputs.iter().any(Option::is_none) {
            let (inp, clip, cull) = lone_side(s, SignatureKind::Input, &io.inputs, false, 0, false)?;
            if s == Stage::Pixel && !ps_linked {
                (w.clip_in, w.cull_in) = (clip, cull);
            }
            fill(&mut w.inputs, inp);
        }
    }

    // Stream output: captured outputs nobody reads still need a variable.
    let mut stream_output = None;
    if let Some(so) = so {
        let last_io = p.last_pre_raster();
        let plan = super::stream_output::resolve(last_io, so)?;
        if let Some(w) = at(last_io.stage).and_then(|i| work.get_mut(i)) {
            let mut next = location_end(&last_io.outputs, &w.outputs);
            for x in &plan.outputs {
                let Some(k) = last_io.outputs.iter().position(|e| e.id == x.element) else { continue };
                let (Some(slot), Some(e)) = (w.outputs.get_mut(k), last_io.outputs.get(k)) else { continue };
                if matches!(slot, None | Some(Placement::Unused)) {
                    let (_, col) = start(e);
                    *slot = Some(Placement::Location { location: next, component: col });
                    next += e.rows.max(1);
                }
            }
        }
        stream_output = Some(plan);
    }

    let vs_inputs = work.first().map(|w| w.inputs.clone()).unwrap_or_default();
    let vertex_input = vertex_input(p.vs, &vs_inputs, layout)?;
    let tess = p.hs.and_then(|hs| tessellation(hs, pc_offset));
    let geom = p.gs.and_then(|gs| geometry(gs, p.rasterized_stream));
    let stages = stages.iter().zip(work).map(|(io, w)| w.finish(io)).collect();
    Ok(LinkPlan { stages, vertex_input, tessellation: tess, geometry: geom, stream_output })
}
