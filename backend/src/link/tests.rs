//! Unit tests of the linker on hand-built signatures: one test (or more) per
//! rule, per allowed SGV, per placement behaviour.

#![allow(clippy::too_many_arguments)]

use super::*;
use crate::dxil::{DsState, GsState, HsState, SemanticKind as K};

// ------------------------------------------------------------ builders

/// An element: `name` with semantic indices `first..first+rows`, at (row, col), `cols` wide.
fn el(
    id: u32,
    name: &str,
    kind: K,
    ty: ComponentType,
    first: u32,
    row: i32,
    col: i8,
    rows: u32,
    cols: u8,
) -> SignatureElement {
    SignatureElement {
        id,
        semantic_name: name.into(),
        component_type: ty,
        semantic_kind: kind,
        semantic_indices: (first..first + rows).collect(),
        interpolation: if ty == ComponentType::F32 { InterpolationMode::Linear } else { InterpolationMode::Constant },
        rows,
        cols,
        start_row: row,
        start_col: col,
        output_stream: None,
        dynamic_index_mask: None,
        usage_mask: None,
        other_tags: Vec::new(),
    }
}
fn user(id: u32, name: &str, index: u32, row: i32, col: i8, cols: u8) -> SignatureElement {
    el(id, name, K::Arbitrary, ComponentType::F32, index, row, col, 1, cols)
}
fn user_u(id: u32, name: &str, index: u32, row: i32, col: i8, cols: u8) -> SignatureElement {
    el(id, name, K::Arbitrary, ComponentType::U32, index, row, col, 1, cols)
}
fn pos(id: u32, row: i32) -> SignatureElement {
    let mut e = el(id, "SV_Position", K::Position, ComponentType::F32, 0, row, 0, 1, 4);
    e.interpolation = InterpolationMode::LinearNoperspective;
    e
}
fn sv(id: u32, name: &str, kind: K, ty: ComponentType, row: i32, col: i8, rows: u32, cols: u8) -> SignatureElement {
    el(id, name, kind, ty, 0, row, col, rows, cols)
}
fn stream(mut e: SignatureElement, s: u32) -> SignatureElement {
    e.output_stream = Some(s);
    e
}

fn vs(outputs: Vec<SignatureElement>) -> StageIo {
    StageIo::new(Stage::Vertex, vec![user(0, "POSITION", 0, 0, 0, 4)], outputs, vec![])
}
fn ps(inputs: Vec<SignatureElement>) -> StageIo {
    StageIo::new(Stage::Pixel, inputs, vec![sv(0, "SV_Target", K::Target, ComponentType::F32, 0, 0, 1, 4)], vec![])
}
fn gs(inputs: Vec<SignatureElement>, outputs: Vec<SignatureElement>) -> StageIo {
    let mut g = StageIo::new(Stage::Geometry, inputs, outputs, vec![]);
    g.gs = Some(GsState {
        input_primitive: InputPrimitive::Triangle,
        max_vertex_count: 3,
        active_stream_mask: 1,
        stream_primitive_topology: PrimitiveTopology::TriangleStrip,
        instance_count: 1,
    });
    g
}
fn hs(inputs: Vec<SignatureElement>, outputs: Vec<SignatureElement>, pcs: Vec<SignatureElement>) -> StageIo {
    let mut h = StageIo::new(Stage::Hull, inputs, outputs, pcs);
    h.hs = Some(HsState {
        patch_constant_function: None,
        input_control_points: 3,
        output_control_points: 3,
        domain: TessDomain::Tri,
        partitioning: TessPartitioning::Pow2,
        output_primitive: TessOutputPrimitive::TriangleCW,
        max_tess_factor: 64.0,
    });
    h.patch_constant_function = Some("pc".into());
    h
}
fn ds(inputs: Vec<SignatureElement>, outputs: Vec<SignatureElement>, pcs: Vec<SignatureElement>) -> StageIo {
    let mut d = StageIo::new(Stage::Domain, inputs, outputs, pcs);
    d.ds = Some(DsState { domain: TessDomain::Tri, input_control_points: 3 });
    d
}
/// The tri-domain tess factors as DXC packs them (outer rows 0..2 col 3, inner row 3 col 0).
fn tess_factors(first_id: u32) -> Vec<SignatureElement> {
    vec![
        sv(first_id, "SV_TessFactor", K::TessFactor, ComponentType::F32, 0, 3, 3, 1),
        sv(first_id + 1, "SV_InsideTessFactor", K::InsideTessFactor, ComponentType::F32, 3, 0, 1, 1),
    ]
}

fn link_ok(stages: &[StageIo]) -> LinkPlan {
    match link(stages, &LinkOptions::default()) {
        Ok(p) => {
            assert_consistent(stages, &p);
            p
        }
        Err(e) => panic!("expected the pipeline to link: {e}"),
    }
}

fn rejections(stages: &[StageIo]) -> Vec<Rejection> {
    rejections_with(stages, &LinkOptions::default())
}
fn rejections_with(stages: &[StageIo], o: &LinkOptions) -> Vec<Rejection> {
    match link(stages, o) {
        Ok(_) => panic!("expected the pipeline to be rejected"),
        Err(LinkError::Rejected(r)) => {
            assert!(!r.is_empty());
            r
        }
        Err(e) => panic!("expected a rejection, got {e}"),
    }
}

/// Asserts one rejection with exactly this rule/stage/signature/semantic/register.
#[track_caller]
fn assert_one(r: &[Rejection], rule: Rule, stage: Stage, sig: SignatureKind, name: &str, index: u32, reg: Option<u32>) {
    assert_eq!(r.len(), 1, "expected exactly one rejection: {r:#?}");
    let x = &r[0];
    assert_eq!(
        (x.rule, x.stage, x.signature, x.semantic_name.as_str(), x.semantic_index, x.register),
        (rule, stage, sig, name, index, reg),
        "{x:#?}"
    );
}

/// Every Location consumed across a boundary agrees with the producer's, row by row and component by component.
fn assert_consistent(stages: &[StageIo], plan: &LinkPlan) {
    let order: Vec<&StagePlan> = plan.stages.iter().collect();
    for w in order.windows(2) {
        let (p, c) = (w[0], w[1]);
        if p.stage == Stage::Hull {
            check_pair(&p.patch_constants, &c.patch_constants, None);
        }
        let rast = plan.geometry.as_ref().and_then(|g| g.rasterized_stream);
        let only = if p.stage == Stage::Geometry { Some(rast.unwrap_or(0)) } else { None };
        check_pair(&p.outputs, &c.inputs, only);
    }
    let _ = stages;
}

fn check_pair(outs: &[ElementPlacement], ins: &[ElementPlacement], stream: Option<u32>) {
    for i in ins {
        let Placement::Location { location: cl, component: cc } = i.placement else { continue };
        for (k, idx) in i.semantic_indices.iter().enumerate() {
            let m = outs.iter().find_map(|o| {
                if stream.is_some_and(|s| o.stream != s) || !o.semantic_name.eq_ignore_ascii_case(&i.semantic_name) {
                    return None;
                }
                o.semantic_indices.iter().position(|x| x == idx).map(|kp| (o, kp as u32))
            });
            let Some((o, kp)) = m else { panic!("consumer {} {idx} placed but has no producer", i.semantic_name) };
            let Placement::Location { location: pl, component: pc } = o.placement else {
                panic!(
                    "producer {} {idx} is {:?} but the consumer reads it at a Location",
                    o.semantic_name, o.placement
                )
            };
            assert_eq!(cl + k as u32, pl + kp, "{} {idx}: Locations differ", i.semantic_name);
            assert!(
                cc >= pc && cc + u32::from(i.cols) <= pc + u32::from(o.cols),
                "{} {idx}: components {cc}+{} outside the producer's {pc}+{}",
                i.semantic_name,
                i.cols,
                o.cols
            );
        }
    }
}

fn placement(plan: &LinkPlan, s: Stage, sig: SignatureKind, id: u32) -> Placement {
    let sp = plan.stage(s).expect("stage in plan");
    let e = match sig {
        SignatureKind::Input => sp.input(id),
        SignatureKind::Output => sp.output(id),
        SignatureKind::PatchConstant => sp.patch_constant(id),
    };
    e.expect("element in plan").placement
}
fn loc(location: u32, component: u32) -> Placement {
    Placement::Location { location, component }
}

use SignatureKind::{Input as In, Output as Out, PatchConstant as Pc};

// ------------------------------------------------------------ rejection rules

#[test]
fn semantic_not_found_names_stage_semantic_register() {
    let r =
        rejections(&[vs(vec![pos(0, 0), user(1, "TEXCOORD", 0, 1, 0, 2)]), ps(vec![user(0, "TEXCOORD", 5, 1, 0, 2)])]);
    assert_one(&r, Rule::SemanticNotFound, Stage::Pixel, In, "TEXCOORD", 5, Some(1));
    assert_eq!(r[0].rule.message_id(), Some(666));
    let text = r[0].to_string();
    for want in ["SemanticNotFound", "#666", "pixel shader", "TEXCOORD5", "register 1", "vertex shader"] {
        assert!(text.contains(want), "{text:?} lacks {want:?}");
    }
}

#[test]
fn register_index_mismatch() {
    // posfirst-style: the consumer declares SV_Position first, the producer last.
    let p = vs(vec![user(0, "COLOR", 0, 0, 0, 4), user(1, "TEXCOORD", 0, 1, 0, 2), pos(2, 2)]);
    let c = ps(vec![pos(0, 0), user(1, "COLOR", 0, 1, 0, 4), user(2, "TEXCOORD", 0, 2, 0, 2)]);
    let r = rejections(&[p, c]);
    assert_eq!(r.len(), 3, "{r:#?}");
    assert!(r.iter().all(|x| x.rule == Rule::RegisterIndexMismatch && x.stage == Stage::Pixel));
    let got: Vec<_> = r.iter().map(|x| (x.semantic_name.as_str(), x.register, x.other_register)).collect();
    assert_eq!(got, [("SV_Position", Some(0), Some(2)), ("COLOR", Some(1), Some(0)), ("TEXCOORD", Some(2), Some(1))]);
    assert_eq!(Rule::RegisterIndexMismatch.message_id(), Some(660));
}

#[test]
fn register_mask_mismatch_when_not_a_subset() {
    // rowshare_second: consumer .xy where the producer has .zw.
    let p = vs(vec![pos(0, 0), user(1, "TEXCOORD", 0, 1, 0, 2), user(2, "TEXCOORD", 1, 1, 2, 2)]);
    let r = rejections(&[p.clone(), ps(vec![user(0, "TEXCOORD", 1, 1, 0, 2)])]);
    assert_one(&r, Rule::RegisterMaskMismatch, Stage::Pixel, In, "TEXCOORD", 1, Some(1));
    assert_eq!(r[0].rule.message_id(), Some(662));
    // reject_mask: xyzw read where only xy is written.
    let r = rejections(&[p, ps(vec![user(0, "TEXCOORD", 0, 1, 0, 4)])]);
    assert_one(&r, Rule::RegisterMaskMismatch, Stage::Pixel, In, "TEXCOORD", 0, Some(1));
}

#[test]
fn subset_reads_are_accepted() {
    let p = vs(vec![pos(0, 0), user(1, "TEXCOORD", 0, 1, 0, 4)]);
    // .x, .y alone, .zw
    for (col, cols) in [(0, 1), (1, 1), (2, 2)] {
        let plan = link_ok(&[p.clone(), ps(vec![user(0, "TEXCOORD", 0, 1, col, cols)])]);
        assert_eq!(placement(&plan, Stage::Pixel, In, 0), loc(1, col as u32));
        assert_eq!(placement(&plan, Stage::Vertex, Out, 1), loc(1, 0));
    }
}

#[test]
fn component_type_mismatch() {
    let r = rejections(&[
        vs(vec![pos(0, 0), user(1, "TEXCOORD", 0, 1, 0, 1)]),
        ps(vec![user_u(0, "TEXCOORD", 0, 1, 0, 1)]),
    ]);
    assert_one(&r, Rule::ComponentTypeMismatch, Stage::Pixel, In, "TEXCOORD", 0, Some(1));
    assert_eq!(r[0].rule.message_id(), Some(661));
    assert!(r[0].detail.contains("u32") && r[0].detail.contains("f32"), "{}", r[0].detail);
}

#[test]
fn min_precision_and_native_16_bit_do_not_match() {
    let half = |id| el(id, "ARG", K::Arbitrary, ComponentType::F16, 1, 2, 0, 1, 2);
    let full = |id| user(id, "ARG", 1, 2, 0, 2);
    let mut native_vs = vs(vec![pos(0, 0), half(1)]);
    native_vs.native_low_precision = true;
    let min_vs = vs(vec![pos(0, 0), half(1)]);
    let mut native_ps = ps(vec![half(0)]);
    native_ps.native_low_precision = true;
    // min16float ↔ min16float and native ↔ native link.
    link_ok(&[min_vs.clone(), ps(vec![half(0)])]);
    link_ok(&[native_vs.clone(), native_ps.clone()]);
    // min precision vs native, and 16 vs 32 bits, do not.
    for (p, c) in [(min_vs.clone(), native_ps), (native_vs, ps(vec![half(0)])), (min_vs, ps(vec![full(0)]))] {
        let r = rejections(&[p, c]);
        assert_one(&r, Rule::ComponentTypeMismatch, Stage::Pixel, In, "ARG", 1, Some(2));
    }
}

#[test]
fn interpolation_modes_are_not_compared() {
    let mut c = user(0, "ARG", 1, 2, 0, 1);
    c.interpolation = InterpolationMode::Constant;
    link_ok(&[vs(vec![pos(0, 0), user(1, "ARG", 1, 2, 0, 2)]), ps(vec![c])]);
}

#[test]
fn semantic_names_match_case_insensitively() {
    let plan = link_ok(&[vs(vec![pos(0, 0), user(1, "ArG", 0, 1, 0, 3)]), ps(vec![user(0, "ARG", 0, 1, 0, 3)])]);
    assert_eq!(placement(&plan, Stage::Pixel, In, 0), loc(1, 0));
}

#[test]
fn system_values_must_come_from_the_producer() {
    let f = ComponentType::F32;
    let u = ComponentType::U32;
    let cases = [
        (pos(0, 0), "SV_Position"),
        (sv(0, "SV_ClipDistance", K::ClipDistance, f, 1, 0, 1, 1), "SV_ClipDistance"),
        (sv(0, "SV_CullDistance", K::CullDistance, f, 1, 0, 1, 1), "SV_CullDistance"),
        (sv(0, "SV_RenderTargetArrayIndex", K::RenderTargetArrayIndex, u, 1, 0, 1, 1), "SV_RenderTargetArrayIndex"),
        (sv(0, "SV_ViewportArrayIndex", K::ViewPortArrayIndex, u, 1, 0, 1, 1), "SV_ViewportArrayIndex"),
    ];
    for (e, name) in cases {
        let r = rejections(&[vs(vec![user(1, "COLOR", 0, 0, 0, 4)]), ps(vec![e])]);
        assert_one(&r, Rule::SystemValueMustComeFromProducer, Stage::Pixel, In, name, 0, r[0].register);
    }
    // Tess factors: the domain shader reads SV_TessFactor the hull does not write.
    let cp = || vec![user(0, "CP", 0, 0, 0, 3)];
    let h = hs(cp(), cp(), vec![sv(0, "SV_InsideTessFactor", K::InsideTessFactor, f, 3, 0, 1, 1)]);
    let d = ds(cp(), vec![pos(0, 0)], tess_factors(0));
    let r = rejections(&[vs(vec![user(0, "CP", 0, 0, 0, 3)]), h, d]);
    assert_one(&r, Rule::SystemValueMustComeFromProducer, Stage::Domain, Pc, "SV_TessFactor", 0, Some(0));
}

#[test]
fn hull_outputs_must_all_be_consumed_by_the_domain_shader() {
    let h = hs(vec![pos(0, 0)], vec![pos(0, 0), user(1, "ARG", 2, 1, 0, 4)], tess_factors(0));
    let d = ds(vec![pos(0, 0)], vec![pos(0, 0)], tess_factors(0));
    let r = rejections(&[vs(vec![pos(0, 0)]), h, d]);
    assert_one(&r, Rule::HullOutputNotConsumed, Stage::Hull, Out, "ARG", 2, Some(1));
    assert_eq!(r[0].other_stage, Some(Stage::Domain));
}

#[test]
fn domain_control_point_masks_must_be_identical() {
    let h = hs(vec![pos(0, 0)], vec![pos(0, 0), user_u(1, "ARG", 2, 1, 0, 4)], tess_factors(0));
    let d = ds(vec![pos(0, 0), user_u(1, "ARG", 2, 1, 0, 2)], vec![pos(0, 0)], tess_factors(0));
    let r = rejections(&[vs(vec![pos(0, 0)]), h, d]);
    assert_one(&r, Rule::HullDomainMaskMismatch, Stage::Domain, In, "ARG", 2, Some(1));
    // The same subset read is fine between VS and HS (ordinary varying rule).
    let h = hs(vec![pos(0, 0), user_u(1, "ARG", 2, 1, 0, 2)], vec![pos(0, 0)], tess_factors(0));
    let d = ds(vec![pos(0, 0)], vec![pos(0, 0)], tess_factors(0));
    link_ok(&[vs(vec![pos(0, 0), user_u(1, "ARG", 2, 1, 0, 4)]), h, d]);
}

#[test]
fn patch_constant_signatures_must_be_identical() {
    let cp = || vec![user(0, "CP", 0, 0, 0, 3)];
    let v = || vs(vec![user(0, "CP", 0, 0, 0, 3)]);
    let with = |extra: Vec<SignatureElement>| {
        let mut pcs = tess_factors(0);
        pcs.extend(extra);
        pcs
    };
    let arg2 = |cols| user_u(2, "ARG", 2, 4, 0, cols);
    // Hull writes ARG2, domain does not declare it.
    let r = rejections(&[v(), hs(cp(), cp(), with(vec![arg2(4)])), ds(cp(), vec![pos(0, 0)], with(vec![]))]);
    assert_one(&r, Rule::PatchConstantMismatch, Stage::Hull, Pc, "ARG", 2, Some(4));
    // Domain reads a subset mask.
    let r = rejections(&[v(), hs(cp(), cp(), with(vec![arg2(4)])), ds(cp(), vec![pos(0, 0)], with(vec![arg2(2)]))]);
    assert_one(&r, Rule::PatchConstantMismatch, Stage::Domain, Pc, "ARG", 2, Some(4));
    // Domain reads a constant the hull does not write.
    let r = rejections(&[v(), hs(cp(), cp(), with(vec![])), ds(cp(), vec![pos(0, 0)], with(vec![arg2(4)]))]);
    assert_one(&r, Rule::SemanticNotFound, Stage::Domain, Pc, "ARG", 2, Some(4));
    // Another register.
    let moved = user_u(2, "ARG", 2, 5, 0, 4);
    let r = rejections(&[v(), hs(cp(), cp(), with(vec![arg2(4)])), ds(cp(), vec![pos(0, 0)], with(vec![moved]))]);
    assert_one(&r, Rule::RegisterIndexMismatch, Stage::Domain, Pc, "ARG", 2, Some(5));
    // Identical: links.
    link_ok(&[v(), hs(cp(), cp(), with(vec![arg2(4)])), ds(cp(), vec![pos(0, 0)], with(vec![arg2(4)]))]);
}

#[test]
fn tessellator_state_must_agree() {
    let cp = || vec![user(0, "CP", 0, 0, 0, 3)];
    let v = || vs(vec![user(0, "CP", 0, 0, 0, 3)]);
    let mut d = ds(cp(), vec![pos(0, 0)], tess_factors(0));
    d.ds = Some(DsState { domain: TessDomain::Quad, input_control_points: 3 });
    let r = rejections(&[v(), hs(cp(), cp(), tess_factors(0)), d]);
    assert_eq!((r.len(), r[0].rule, r[0].stage), (1, Rule::TessDomainMismatch, Stage::Domain));
    let mut d = ds(cp(), vec![pos(0, 0)], tess_factors(0));
    d.ds = Some(DsState { domain: TessDomain::Tri, input_control_points: 4 });
    let r = rejections(&[v(), hs(cp(), cp(), tess_factors(0)), d]);
    assert_eq!((r.len(), r[0].rule), (1, Rule::ControlPointCountMismatch));
}

#[test]
fn invalid_stage_combinations() {
    let p = || ps(vec![]);
    let cp = || vec![user(0, "CP", 0, 0, 0, 3)];
    let cases: Vec<(Vec<StageIo>, Stage)> = vec![
        (vec![p()], Stage::Vertex),
        (vec![vs(vec![]), hs(cp(), cp(), tess_factors(0)), p()], Stage::Hull),
        (vec![vs(vec![]), ds(cp(), vec![], tess_factors(0)), p()], Stage::Domain),
        (vec![vs(vec![]), p(), p()], Stage::Pixel),
    ];
    for (stages, stage) in cases {
        let r = rejections(&stages);
        assert_eq!((r.len(), r[0].rule, r[0].stage), (1, Rule::InvalidStageCombination, stage), "{r:#?}");
    }
}

#[test]
fn input_layout_must_provide_every_vertex_input() {
    let mut v = vs(vec![pos(0, 0)]);
    v.inputs = vec![
        user(0, "POSITION", 0, 0, 0, 4),
        sv(1, "SV_VertexID", K::VertexID, ComponentType::U32, 1, 0, 1, 1),
        el(2, "TEXCOORD", K::Arbitrary, ComponentType::F32, 3, 2, 0, 2, 2),
    ];
    let elem = |s: &str, index, format: &str, offset| InputElement {
        semantic: s.into(),
        index,
        format: format.into(),
        slot: 0,
        offset,
        per_instance: false,
        step_rate: 0,
    };
    let layout = InputLayout {
        elements: vec![
            elem("position", 0, "R32G32B32A32_FLOAT", Some(0)),
            elem("TEXCOORD", 3, "R16G16_FLOAT", None),
            elem("TEXCOORD", 4, "R8G8B8A8_UNORM", None),
        ],
    };
    let o = LinkOptions { input_layout: Some(layout.clone()), ..Default::default() };
    let plan = match link(&[v.clone()], &o) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let attrs: Vec<_> =
        plan.vertex_input.iter().map(|a| (a.location, a.semantic_index, a.offset, a.vk_format.unwrap_or(""))).collect();
    assert_eq!(
        attrs,
        [
            (0, 0, 0, "VK_FORMAT_R32G32B32A32_SFLOAT"),
            (2, 3, 16, "VK_FORMAT_R16G16_SFLOAT"),
            (3, 4, 20, "VK_FORMAT_R8G8B8A8_UNORM")
        ]
    );
    assert_eq!(placement(&plan, Stage::Vertex, In, 1), Placement::BuiltIn(BuiltIn::VertexIndex));
    // Without TEXCOORD4 the second row of the array is not provided.
    let mut short = layout.clone();
    short.elements.pop();
    let r = rejections_with(&[v.clone()], &LinkOptions { input_layout: Some(short), ..Default::default() });
    assert_one(&r, Rule::InputLayoutSemanticMissing, Stage::Vertex, In, "TEXCOORD", 4, Some(3));
    // An unknown format is malformed input, not a rejection.
    let mut bad = layout;
    bad.elements[0].format = "R7_FLOAT".into();
    let e = link(&[v], &LinkOptions { input_layout: Some(bad), ..Default::default() }).err();
    assert!(matches!(e, Some(LinkError::InputLayout(_))), "{e:?}");
}

// ------------------------------------------------------------ SGVs allowed without a producer

#[test]
fn vertex_shader_sgvs_need_no_producer() {
    let mut v = vs(vec![pos(0, 0)]);
    v.inputs = vec![
        sv(0, "SV_VertexID", K::VertexID, ComponentType::U32, 0, 0, 1, 1),
        sv(1, "SV_InstanceID", K::InstanceID, ComponentType::U32, 1, 0, 1, 1),
    ];
    let plan = link_ok(&[v, ps(vec![])]);
    assert_eq!(placement(&plan, Stage::Vertex, In, 0), Placement::BuiltIn(BuiltIn::VertexIndex));
    assert_eq!(placement(&plan, Stage::Vertex, In, 1), Placement::BuiltIn(BuiltIn::InstanceIndex));
    assert!(plan.vertex_input.is_empty());
}

#[test]
fn primitive_id_needs_no_producer_in_hs_ds_gs_and_ps_after_vs_or_ds() {
    let prim = |id, row, col| sv(id, "SV_PrimitiveID", K::PrimitiveID, ComponentType::U32, row, col, 1, 1);
    let cp = || vec![pos(0, 0)];
    // HS, DS (through intrinsics normally; allowed in a signature too) and PS after DS.
    let mut hin = cp();
    hin.push(prim(1, -1, -1));
    let mut din = cp();
    din.push(prim(1, -1, 0));
    let plan = link_ok(&[
        vs(cp()),
        hs(hin, cp(), tess_factors(0)),
        ds(din, cp(), tess_factors(0)),
        ps(vec![pos(0, 0), prim(1, 1, 0)]),
    ]);
    for s in [Stage::Hull, Stage::Domain, Stage::Pixel] {
        assert_eq!(placement(&plan, s, In, 1), Placement::BuiltIn(BuiltIn::PrimitiveId), "{s}");
    }
    // GS input (DXC leaves it unplaced at (-1,-1)).
    let plan = link_ok(&[vs(cp()), gs(vec![pos(0, 0), prim(1, -1, -1)], cp()), ps(vec![])]);
    assert_eq!(placement(&plan, Stage::Geometry, In, 1), Placement::BuiltIn(BuiltIn::PrimitiveId));
    // PS after VS.
    let plan = link_ok(&[vs(cp()), ps(vec![pos(0, 0), prim(1, 1, 0)])]);
    assert_eq!(placement(&plan, Stage::Pixel, In, 1), Placement::BuiltIn(BuiltIn::PrimitiveId));
}

#[test]
fn primitive_id_after_a_geometry_shader_must_be_written_by_it() {
    let prim = |id, row| sv(id, "SV_PrimitiveID", K::PrimitiveID, ComponentType::U32, row, 0, 1, 1);
    let reader = || ps(vec![pos(0, 0), user(1, "ARG", 0, 1, 0, 3), prim(2, 2)]);
    let r =
        rejections(&[vs(vec![pos(0, 0)]), gs(vec![pos(0, 0)], vec![pos(0, 0), user(1, "ARG", 0, 1, 0, 3)]), reader()]);
    assert_one(&r, Rule::SystemValueMustComeFromProducer, Stage::Pixel, In, "SV_PrimitiveID", 0, Some(2));
    // Written by the GS at another row: SGVs take no part in the register rule.
    let g = gs(vec![pos(0, 0)], vec![pos(0, 0), user(1, "ARG", 0, 1, 0, 3), prim(2, 3)]);
    let plan = link_ok(&[vs(vec![pos(0, 0)]), g, reader()]);
    assert_eq!(placement(&plan, Stage::Geometry, Out, 2), Placement::BuiltIn(BuiltIn::PrimitiveId));
    assert_eq!(placement(&plan, Stage::Pixel, In, 2), Placement::BuiltIn(BuiltIn::PrimitiveId));
}

#[test]
fn pixel_sgvs_need_no_producer() {
    let u = ComponentType::U32;
    let mut bary = sv(2, "SV_Barycentrics", K::Barycentrics, ComponentType::F32, -1, -1, 1, 3);
    bary.interpolation = InterpolationMode::LinearNoperspective;
    let inputs = vec![
        pos(0, 0),
        sv(1, "SV_IsFrontFace", K::IsFrontFace, u, 1, 0, 1, 1),
        bary,
        sv(3, "SV_SampleIndex", K::SampleIndex, u, -1, -1, 1, 1),
        sv(4, "SV_ShadingRate", K::ShadingRate, u, -1, 0, 1, 1),
    ];
    let plan = link_ok(&[vs(vec![pos(0, 0)]), ps(inputs)]);
    let want = [
        BuiltIn::FragCoord,
        BuiltIn::FrontFacing,
        BuiltIn::BaryCoordNoPerspKHR,
        BuiltIn::SampleId,
        BuiltIn::ShadingRateKHR,
    ];
    for (id, b) in want.into_iter().enumerate() {
        assert_eq!(placement(&plan, Stage::Pixel, In, id as u32), Placement::BuiltIn(b));
    }
}

#[test]
fn sgvs_are_only_allowed_where_d3d_allows_them() {
    // A GS cannot read SV_IsFrontFace without a producer; a DS cannot read SV_SampleIndex.
    let ff = sv(1, "SV_IsFrontFace", K::IsFrontFace, ComponentType::U32, 1, 0, 1, 1);
    let r = rejections(&[vs(vec![pos(0, 0)]), gs(vec![pos(0, 0), ff], vec![pos(0, 0)])]);
    assert_one(&r, Rule::SystemValueMustComeFromProducer, Stage::Geometry, In, "SV_IsFrontFace", 0, Some(1));
    let si = sv(1, "SV_SampleIndex", K::SampleIndex, ComponentType::U32, -1, -1, 1, 1);
    let cp = || vec![pos(0, 0)];
    let mut din = cp();
    din.push(si);
    let r = rejections(&[vs(cp()), hs(cp(), cp(), tess_factors(0)), ds(din, cp(), tess_factors(0))]);
    assert_one(&r, Rule::SystemValueMustComeFromProducer, Stage::Domain, In, "SV_SampleIndex", 0, None);
}

#[test]
fn sgv_sharing_a_row_with_user_data() {
    // sgv_row: IDS r1.xy, SV_PrimitiveID r1.z, SV_IsFrontFace r1.w, COLOR r2; the VS writes IDS r1.xy only.
    let u = ComponentType::U32;
    let p = vs(vec![pos(0, 0), user_u(1, "IDS", 0, 1, 0, 2), user(2, "COLOR", 0, 2, 0, 4)]);
    let c = ps(vec![
        pos(0, 0),
        user_u(1, "IDS", 0, 1, 0, 2),
        user(2, "COLOR", 0, 2, 0, 4),
        sv(3, "SV_PrimitiveID", K::PrimitiveID, u, 1, 2, 1, 1),
        sv(4, "SV_IsFrontFace", K::IsFrontFace, u, 1, 3, 1, 1),
    ]);
    let plan = link_ok(&[p, c]);
    assert_eq!(placement(&plan, Stage::Pixel, In, 1), loc(1, 0));
    assert_eq!(placement(&plan, Stage::Pixel, In, 2), loc(2, 0));
    assert_eq!(placement(&plan, Stage::Pixel, In, 3), Placement::BuiltIn(BuiltIn::PrimitiveId));
    assert_eq!(placement(&plan, Stage::Pixel, In, 4), Placement::BuiltIn(BuiltIn::FrontFacing));
}

#[test]
fn unplaced_sgvs_at_minus_one_either_column() {
    // (-1,-1) as current DXC writes, (-1,0) as DXIL.rst describes: both are unplaced.
    for col in [-1i8, 0] {
        let si = sv(1, "SV_SampleIndex", K::SampleIndex, ComponentType::U32, -1, col, 1, 1);
        let plan = link_ok(&[vs(vec![pos(0, 0)]), ps(vec![pos(0, 0), si.clone()])]);
        assert_eq!(placement(&plan, Stage::Pixel, In, 1), Placement::BuiltIn(BuiltIn::SampleId));
        let single = LinkPlan::single(&ps(vec![pos(0, 0), si])).expect("single plan");
        assert_eq!(placement(&single, Stage::Pixel, In, 1), Placement::BuiltIn(BuiltIn::SampleId));
        // A GS-written primitive id at a real row matched with an unplaced PS one.
        let prim_gs = sv(1, "SV_PrimitiveID", K::PrimitiveID, ComponentType::U32, 1, 0, 1, 1);
        let prim_ps = sv(1, "SV_PrimitiveID", K::PrimitiveID, ComponentType::U32, -1, col, 1, 1);
        link_ok(&[vs(vec![pos(0, 0)]), gs(vec![pos(0, 0)], vec![pos(0, 0), prim_gs]), ps(vec![prim_ps])]);
    }
}

// ------------------------------------------------------------ placement

#[test]
fn clip_and_cull_distances_merge_into_one_array_per_direction() {
    let f = ComponentType::F32;
    // float2 SV_ClipDistance0 at r1.xy, float SV_ClipDistance1 at r1.z, float[2] SV_CullDistance0..1 at r2.x/r3.x,
    // float SV_ClipDistance2 at r1.w (declared before index 1 in the signature).
    let outputs = vec![
        pos(0, 0),
        sv(1, "SV_ClipDistance", K::ClipDistance, f, 1, 0, 1, 2),
        el(2, "SV_ClipDistance", K::ClipDistance, f, 2, 1, 3, 1, 1),
        el(3, "SV_ClipDistance", K::ClipDistance, f, 1, 1, 2, 1, 1),
        el(4, "SV_CullDistance", K::CullDistance, f, 0, 2, 0, 2, 1),
    ];
    // The PS reads clip 1 and the second cull distance only.
    let inputs = vec![
        pos(0, 0),
        el(1, "SV_ClipDistance", K::ClipDistance, f, 1, 1, 2, 1, 1),
        el(2, "SV_CullDistance", K::CullDistance, f, 1, 3, 0, 1, 1),
    ];
    let plan = link_ok(&[vs(outputs), ps(inputs)]);
    let clip = |o| Placement::BuiltIn(BuiltIn::ClipDistance { offset: o });
    let cull = |o| Placement::BuiltIn(BuiltIn::CullDistance { offset: o });
    assert_eq!(placement(&plan, Stage::Vertex, Out, 1), clip(0));
    assert_eq!(placement(&plan, Stage::Vertex, Out, 3), clip(2));
    assert_eq!(placement(&plan, Stage::Vertex, Out, 2), clip(3));
    assert_eq!(placement(&plan, Stage::Vertex, Out, 4), cull(0));
    assert_eq!(placement(&plan, Stage::Pixel, In, 1), clip(2));
    assert_eq!(placement(&plan, Stage::Pixel, In, 2), cull(1));
    let (v, p) = (plan.stage(Stage::Vertex).expect("vs"), plan.stage(Stage::Pixel).expect("ps"));
    assert_eq!((v.clip_distances_out, v.cull_distances_out), (4, 2));
    assert_eq!((p.clip_distances_in, p.cull_distances_in), (4, 2));
    // A PS reading the vector element through a subset of its mask: offset + column.
    let plan = link_ok(&[
        vs(vec![pos(0, 0), sv(1, "SV_ClipDistance", K::ClipDistance, f, 1, 0, 1, 4)]),
        ps(vec![sv(1, "SV_ClipDistance", K::ClipDistance, f, 1, 2, 1, 2)]),
    ]);
    assert_eq!(placement(&plan, Stage::Pixel, In, 1), clip(2));
}

#[test]
fn unread_outputs_are_unused_and_vertex_only_pipelines_keep_builtins() {
    let outs = vec![pos(0, 0), user(1, "TEXCOORD", 0, 1, 0, 2), user(2, "TEXCOORD", 1, 1, 2, 2)];
    let plan = link_ok(&[vs(outs.clone()), ps(vec![user(0, "TEXCOORD", 1, 1, 2, 2)])]);
    assert_eq!(placement(&plan, Stage::Vertex, Out, 1), Placement::Unused);
    assert_eq!(placement(&plan, Stage::Vertex, Out, 2), loc(1, 2));
    assert_eq!(placement(&plan, Stage::Vertex, Out, 0), Placement::BuiltIn(BuiltIn::Position));
    let plan = link_ok(&[vs(outs)]);
    assert_eq!(placement(&plan, Stage::Vertex, Out, 0), Placement::BuiltIn(BuiltIn::Position));
    assert_eq!(placement(&plan, Stage::Vertex, Out, 1), Placement::Unused);
}

#[test]
fn pixel_inputs_only_matched_against_stream_zero() {
    let g = || {
        let mut g = gs(
            vec![pos(0, 0)],
            vec![
                pos(0, 0),
                user(1, "ARG", 0, 1, 0, 3),
                stream(pos(2, 0), 1),
                stream(user(3, "ARG", 1, 1, 0, 2), 1),
                stream(user(4, "ARG", 0, 2, 0, 3), 1),
            ],
        );
        if let Some(s) = g.gs.as_mut() {
            s.active_stream_mask = 3;
            s.stream_primitive_topology = PrimitiveTopology::PointList;
        }
        g
    };
    // ARG1 exists only in stream 1: not found whichever stream is rasterized.
    for rast in [Some(0), Some(1)] {
        let o = LinkOptions { rasterized_stream: rast, ..Default::default() };
        let r = rejections_with(&[vs(vec![pos(0, 0)]), g(), ps(vec![user(0, "ARG", 1, 1, 0, 2)])], &o);
        assert_one(&r, Rule::SemanticNotFound, Stage::Pixel, In, "ARG", 1, Some(1));
        assert!(r[0].detail.contains("stream 0"), "{}", r[0].detail);
    }
    // No rasterized stream: the pixel shader is not linked at all.
    let o = LinkOptions { rasterized_stream: None, ..Default::default() };
    let plan = match link(&[vs(vec![pos(0, 0)]), g(), ps(vec![user(0, "ARG", 1, 1, 0, 2)])], &o) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(plan.geometry.as_ref().and_then(|g| g.rasterized_stream), None);
    // Rasterizing stream 1: the PS is validated against stream 0 but fed from stream 1;
    // stream-0 outputs carry nothing, stream-1 outputs take the PS Locations.
    let o = LinkOptions { rasterized_stream: Some(1), ..Default::default() };
    let reader = ps(vec![pos(0, 0), user(1, "ARG", 0, 1, 0, 3)]);
    let plan = match link(&[vs(vec![pos(0, 0)]), g(), reader], &o) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(placement(&plan, Stage::Geometry, Out, 1), Placement::Unused);
    assert_eq!(placement(&plan, Stage::Geometry, Out, 4), loc(1, 0));
    assert_eq!(placement(&plan, Stage::Geometry, Out, 2), Placement::BuiltIn(BuiltIn::Position));
    assert_eq!(placement(&plan, Stage::Geometry, Out, 0), Placement::Unused);
    assert_eq!(placement(&plan, Stage::Pixel, In, 1), loc(1, 0));
}

#[test]
fn zero_fill_when_the_rasterized_stream_lacks_an_input() {
    let mut g = gs(
        vec![pos(0, 0)],
        vec![pos(0, 0), user(1, "ARG", 0, 1, 0, 3), user(2, "ARG", 2, 2, 0, 4), stream(pos(3, 0), 1)],
    );
    if let Some(s) = g.gs.as_mut() {
        s.active_stream_mask = 3;
        s.stream_primitive_topology = PrimitiveTopology::PointList;
    }
    let o = LinkOptions { rasterized_stream: Some(1), ..Default::default() };
    let plan = match link(&[vs(vec![pos(0, 0)]), g, ps(vec![pos(0, 0), user(1, "ARG", 0, 1, 0, 3)])], &o) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(placement(&plan, Stage::Pixel, In, 1), Placement::ZeroFill);
    assert_eq!(placement(&plan, Stage::Pixel, In, 0), Placement::BuiltIn(BuiltIn::FragCoord));
}

#[test]
fn patch_constants_are_placed_past_the_control_points() {
    let cpo =
        || vec![pos(0, 0), user(1, "CPPOS", 0, 1, 0, 3), el(2, "CPW", K::Arbitrary, ComponentType::F32, 0, 2, 0, 2, 1)];
    let mut pcs = tess_factors(0);
    pcs.push(user(2, "CENTER", 0, 0, 0, 3));
    pcs.push(user(3, "SCALE", 0, 1, 0, 1));
    let h = hs(vec![pos(0, 0)], cpo(), pcs.clone());
    let d = ds(cpo(), vec![pos(0, 0)], pcs);
    let plan = link_ok(&[vs(vec![pos(0, 0)]), h.clone(), d.clone()]);
    let t = plan.tessellation.as_ref().expect("tessellation");
    // CPW spans rows 2..3, so patch constants start at Location 4.
    assert_eq!(t.patch_constant_location_offset, 4);
    assert_eq!((t.input_control_points, t.output_control_points, t.spacing), (3, 3, "SpacingEqual"));
    assert_eq!(t.patch_constant_function.as_deref(), Some("pc"));
    for s in [Stage::Hull, Stage::Domain] {
        assert_eq!(placement(&plan, s, Pc, 2), loc(4, 0));
        assert_eq!(placement(&plan, s, Pc, 3), loc(5, 0));
        assert_eq!(placement(&plan, s, Pc, 0), Placement::BuiltIn(BuiltIn::TessLevelOuter));
        assert_eq!(placement(&plan, s, Pc, 1), Placement::BuiltIn(BuiltIn::TessLevelInner));
    }
    assert_eq!(placement(&plan, Stage::Hull, Out, 1), loc(1, 0));
    assert_eq!(placement(&plan, Stage::Domain, In, 2), loc(2, 0));
    // Single-stage compiles of either shader agree with the pipeline.
    for io in [&h, &d] {
        let single = LinkPlan::single(io).expect("single");
        assert_eq!(placement(&single, io.stage, Pc, 2), loc(4, 0));
    }
    assert_eq!(LinkPlan::single(&h).expect("single").tessellation.map(|t| t.patch_constant_location_offset), Some(4));
}

#[test]
fn layer_and_viewport_are_varyings_between_pre_raster_stages() {
    let u = ComponentType::U32;
    let layer = |id, row| sv(id, "SV_RenderTargetArrayIndex", K::RenderTargetArrayIndex, u, row, 0, 1, 1);
    let vp = |id, row| sv(id, "SV_ViewportArrayIndex", K::ViewPortArrayIndex, u, row, 1, 1, 1);
    let plan = link_ok(&[
        vs(vec![pos(0, 0), layer(1, 1)]),
        gs(vec![pos(0, 0), layer(1, 1)], vec![pos(0, 0), layer(1, 1), vp(2, 1)]),
        ps(vec![pos(0, 0), layer(1, 1), vp(2, 1)]),
    ]);
    assert_eq!(placement(&plan, Stage::Vertex, Out, 1), loc(1, 0));
    assert_eq!(placement(&plan, Stage::Geometry, In, 1), loc(1, 0));
    assert_eq!(placement(&plan, Stage::Geometry, Out, 1), Placement::BuiltIn(BuiltIn::Layer));
    assert_eq!(placement(&plan, Stage::Geometry, Out, 2), Placement::BuiltIn(BuiltIn::ViewportIndex));
    assert_eq!(placement(&plan, Stage::Pixel, In, 1), Placement::BuiltIn(BuiltIn::Layer));
    assert_eq!(placement(&plan, Stage::Pixel, In, 2), Placement::BuiltIn(BuiltIn::ViewportIndex));
    let g = plan.geometry.as_ref().expect("gs");
    assert_eq!((g.input_vertices, g.rasterized_stream), (3, Some(0)));
}

#[test]
fn arrays_match_separate_elements_row_by_row() {
    let p = vs(vec![pos(0, 0), user(1, "TEXCOORD", 0, 1, 0, 4), user(2, "TEXCOORD", 1, 2, 0, 4)]);
    let arr = el(0, "TEXCOORD", K::Arbitrary, ComponentType::F32, 0, 1, 0, 2, 4);
    let plan = link_ok(&[p.clone(), ps(vec![arr])]);
    assert_eq!(placement(&plan, Stage::Pixel, In, 0), loc(1, 0));
    assert_eq!(placement(&plan, Stage::Vertex, Out, 2), loc(2, 0));
    // Shifted array: the second row lands one register off.
    let arr = el(0, "TEXCOORD", K::Arbitrary, ComponentType::F32, 1, 1, 0, 2, 4);
    let r = rejections(&[p, ps(vec![arr])]);
    assert_eq!(r[0].rule, Rule::RegisterIndexMismatch);
    assert_eq!((r[0].semantic_index, r[0].register, r[0].other_register), (1, Some(1), Some(2)));
}

#[test]
fn unplaced_user_elements_get_free_locations_consistently() {
    let p = vs(vec![pos(0, 0), user(1, "A", 0, 1, 0, 4), user(2, "B", 0, -1, -1, 2)]);
    let c = ps(vec![user(0, "A", 0, 1, 0, 4), user(1, "B", 0, -1, -1, 2)]);
    let plan = link_ok(&[p.clone(), c]);
    assert_eq!(placement(&plan, Stage::Vertex, Out, 2), loc(2, 0));
    assert_eq!(placement(&plan, Stage::Pixel, In, 1), loc(2, 0));
    let single = LinkPlan::single(&p).expect("single");
    assert_eq!(placement(&single, Stage::Vertex, Out, 2), loc(2, 0));
}

#[test]
fn single_stage_plans() {
    let f = ComponentType::F32;
    let p = StageIo::new(
        Stage::Pixel,
        vec![
            pos(0, 0),
            user(1, "COLOR", 0, 1, 0, 4),
            sv(2, "SV_SampleIndex", K::SampleIndex, ComponentType::U32, -1, -1, 1, 1),
        ],
        vec![
            sv(0, "SV_Target", K::Target, f, 0, 0, 1, 4),
            el(1, "SV_Target", K::Target, f, 3, 3, 0, 1, 2),
            sv(2, "SV_Depth", K::Depth, f, -1, -1, 1, 1),
            sv(3, "SV_Coverage", K::Coverage, ComponentType::U32, -1, -1, 1, 1),
            sv(4, "SV_StencilRef", K::StencilRef, ComponentType::U32, -1, -1, 1, 1),
        ],
        vec![],
    );
    let plan = LinkPlan::single(&p).expect("single");
    assert_eq!(placement(&plan, Stage::Pixel, In, 0), Placement::BuiltIn(BuiltIn::FragCoord));
    assert_eq!(placement(&plan, Stage::Pixel, In, 1), loc(1, 0));
    assert_eq!(placement(&plan, Stage::Pixel, Out, 1), loc(3, 0));
    assert_eq!(placement(&plan, Stage::Pixel, Out, 2), Placement::BuiltIn(BuiltIn::FragDepth));
    assert_eq!(placement(&plan, Stage::Pixel, Out, 3), Placement::BuiltIn(BuiltIn::SampleMask));
    assert_eq!(placement(&plan, Stage::Pixel, Out, 4), Placement::BuiltIn(BuiltIn::FragStencilRefEXT));
    // GS streams get disjoint Locations when compiled alone.
    let g = gs(vec![pos(0, 0)], vec![pos(0, 0), user(1, "A", 0, 1, 0, 4), stream(user(2, "B", 0, 0, 0, 4), 1)]);
    let plan = LinkPlan::single(&g).expect("single");
    assert_eq!(placement(&plan, Stage::Geometry, Out, 1), loc(1, 0));
    assert_eq!(placement(&plan, Stage::Geometry, Out, 2), loc(2, 0));
    // A system value that has no place in a graphics signature is an error, not a panic.
    let bad = StageIo::new(
        Stage::Pixel,
        vec![sv(0, "SV_GroupID", K::GroupID, ComponentType::U32, 0, 0, 1, 3)],
        vec![],
        vec![],
    );
    assert!(matches!(LinkPlan::single(&bad), Err(LinkError::UnsupportedSystemValue { .. })));
}

#[test]
fn plan_serializes_to_json() {
    let plan = link_ok(&[vs(vec![pos(0, 0), user(1, "A", 0, 1, 0, 4)]), ps(vec![user(0, "A", 0, 1, 0, 4)])]);
    let j = serde_json::to_value(&plan).expect("json");
    assert_eq!(
        j["stages"][1]["inputs"][0]["placement"],
        serde_json::json!({"location": {"location": 1, "component": 0}})
    );
    assert_eq!(j["stages"][0]["outputs"][0]["placement"], serde_json::json!({"built_in": "Position"}));
}

#[test]
fn linked_pixel_shader_targets_keep_their_locations() {
    // SV_Target n is read by the output merger, not by a stage: linking must not mark it unused.
    let mut p = ps(vec![pos(0, 0), user(1, "COLOR", 0, 1, 0, 4)]);
    p.outputs = vec![
        sv(0, "SV_Target", K::Target, ComponentType::F32, 0, 0, 1, 4),
        sv(1, "SV_Target", K::Target, ComponentType::F32, 1, 0, 1, 4),
    ];
    if let Some(e) = p.outputs.get_mut(1) {
        e.semantic_indices = [1].into_iter().collect();
    }
    let stages = [vs(vec![pos(0, 0), user(1, "COLOR", 0, 1, 0, 4)]), p];
    let plan = link_ok(&stages);
    assert_eq!(placement(&plan, Stage::Pixel, SignatureKind::Output, 0), loc(0, 0));
    assert_eq!(placement(&plan, Stage::Pixel, SignatureKind::Output, 1), loc(1, 0));
}

#[test]
fn control_point_clip_distances_size_the_hull_outputs_and_domain_inputs() {
    let f = ComponentType::F32;
    let cp = || user(0, "CPPOS", 0, 0, 0, 3);
    let clip2 = |id| sv(id, "SV_ClipDistance", K::ClipDistance, f, 1, 0, 1, 2);
    let stages = [
        vs(vec![cp()]),
        hs(vec![cp()], vec![cp(), clip2(1)], tess_factors(0)),
        ds(vec![cp(), clip2(1)], vec![pos(0, 0)], tess_factors(0)),
    ];
    let plan = link_ok(&stages);
    let hull = plan.stage(Stage::Hull).unwrap();
    let domain = plan.stage(Stage::Domain).unwrap();
    assert_eq!((hull.clip_distances_in, hull.clip_distances_out), (0, 2));
    assert_eq!((domain.clip_distances_in, domain.clip_distances_out), (2, 0));
    let clip = Placement::BuiltIn(BuiltIn::ClipDistance { offset: 0 });
    assert_eq!(placement(&plan, Stage::Hull, SignatureKind::Output, 1), clip);
    assert_eq!(placement(&plan, Stage::Domain, SignatureKind::Input, 1), clip);
}

// ------------------------------------------------------------ stream output

fn so_entry(stream: u32, name: &str, index: u32, start: u32, count: u32, slot: u32) -> SoDeclaration {
    SoDeclaration {
        stream,
        semantic_name: name.into(),
        semantic_index: index,
        start_component: start,
        component_count: count,
        output_slot: slot,
    }
}

fn with_so(entries: Vec<SoDeclaration>, strides: Vec<u32>) -> LinkOptions {
    LinkOptions { stream_output: Some(StreamOutputDesc { entries, strides }), ..Default::default() }
}

#[test]
fn stream_output_keeps_unread_outputs_and_packs_offsets_per_slot() {
    let v =
        vs(vec![pos(0, 0), user(1, "COLOR", 0, 1, 0, 4), user(2, "TEX", 0, 2, 0, 2), user(3, "UNREAD", 0, 3, 0, 4)]);
    // Without stream output nothing reads them.
    let plain = link_ok(std::slice::from_ref(&v));
    assert_eq!(placement(&plain, Stage::Vertex, Out, 1), Placement::Unused);
    assert_eq!(plain.stream_output, None);
    let o = with_so(
        vec![
            so_entry(0, "SV_Position", 0, 0, 4, 0),
            so_entry(0, "", 0, 0, 2, 0), // a gap of 8 bytes
            so_entry(0, "color", 0, 0, 4, 0),
            so_entry(0, "TEX", 0, 0, 2, 1),
        ],
        vec![40, 8],
    );
    let plan = link(&[v], &o).unwrap_or_else(|e| panic!("{e}"));
    let (c, t) = (placement(&plan, Stage::Vertex, Out, 1), placement(&plan, Stage::Vertex, Out, 2));
    assert!(matches!(c, Placement::Location { component: 0, .. }), "{c:?}");
    assert!(matches!(t, Placement::Location { component: 0, .. }), "{t:?}");
    assert_ne!(c, t);
    assert_eq!(placement(&plan, Stage::Vertex, Out, 0), Placement::BuiltIn(BuiltIn::Position));
    assert_eq!(placement(&plan, Stage::Vertex, Out, 3), Placement::Unused);
    let so = plan.stream_output.expect("stream output plan");
    assert_eq!(so.stage, Stage::Vertex);
    let got: Vec<(u32, u32, u32, u32)> = so.outputs.iter().map(|x| (x.element, x.buffer, x.offset, x.stride)).collect();
    assert_eq!(got, vec![(0, 0, 0, 40), (1, 0, 24, 40), (2, 1, 0, 8)]);
}

#[test]
fn stream_output_locations_do_not_collide_with_linked_ones() {
    let v = vs(vec![pos(0, 0), user(1, "A", 0, 1, 0, 4), user(2, "B", 0, 2, 0, 4)]);
    let p = ps(vec![pos(0, 0), user(1, "A", 0, 1, 0, 4)]);
    let plan = link(&[v, p], &with_so(vec![so_entry(0, "B", 0, 0, 4, 0)], vec![16])).unwrap_or_else(|e| panic!("{e}"));
    let a = placement(&plan, Stage::Vertex, Out, 1);
    let b = placement(&plan, Stage::Vertex, Out, 2);
    assert_eq!(a, placement(&plan, Stage::Pixel, In, 1));
    match (a, b) {
        (Placement::Location { location: la, .. }, Placement::Location { location: lb, .. }) => assert!(lb > la),
        other => panic!("{other:?}"),
    }
}

#[test]
fn stream_output_of_a_non_rasterized_gs_stream() {
    let mut g = gs(vec![pos(0, 0)], vec![pos(0, 0), stream(user(1, "DATA", 0, 0, 0, 4), 1)]);
    if let Some(s) = g.gs.as_mut() {
        s.active_stream_mask = 3;
        s.stream_primitive_topology = PrimitiveTopology::PointList;
    }
    let o = with_so(vec![so_entry(1, "DATA", 0, 0, 4, 0)], vec![16]);
    let plan = link(&[vs(vec![pos(0, 0)]), g], &o).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(placement(&plan, Stage::Geometry, Out, 1), Placement::Location { .. }));
    let so = plan.stream_output.expect("plan");
    assert_eq!((so.stage, so.outputs.len(), so.outputs[0].stream), (Stage::Geometry, 1, 1));
    // The same name in stream 0 does not exist.
    let mut g = gs(vec![pos(0, 0)], vec![pos(0, 0), stream(user(1, "DATA", 0, 0, 0, 4), 1)]);
    if let Some(s) = g.gs.as_mut() {
        s.active_stream_mask = 3;
        s.stream_primitive_topology = PrimitiveTopology::PointList;
    }
    let o = with_so(vec![so_entry(0, "DATA", 0, 0, 4, 0)], vec![16]);
    assert!(matches!(link(&[vs(vec![pos(0, 0)]), g], &o), Err(LinkError::StreamOutput(_))));
}

#[test]
fn stream_output_declaration_errors() {
    let v = || vs(vec![pos(0, 0), user(1, "TEX", 0, 1, 0, 2)]);
    let bad = [
        (with_so(vec![so_entry(0, "NOPE", 0, 0, 4, 0)], vec![16]), "does not exist"),
        (with_so(vec![so_entry(0, "TEX", 0, 1, 2, 0)], vec![16]), "has 2 component"),
        (with_so(vec![so_entry(0, "TEX", 0, 0, 2, 0)], vec![4]), "past the stride"),
        (with_so(vec![so_entry(0, "TEX", 0, 0, 2, 1)], vec![16]), "no stride"),
        (with_so(vec![so_entry(0, "TEX", 0, 0, 2, 4)], vec![16; 4]), "output slot 4"),
    ];
    for (o, want) in bad {
        match link(&[v()], &o) {
            Err(LinkError::StreamOutput(m)) => assert!(m.contains(want), "{m} lacks {want}"),
            other => panic!("{want}: {other:?}"),
        }
    }
}

// ------------------------------------------------------------ mesh pipelines

fn ms(outputs: Vec<SignatureElement>, prims: Vec<SignatureElement>) -> StageIo {
    let mut m = StageIo::new(Stage::Mesh, vec![], outputs, prims);
    m.ms = Some(crate::dxil::MsState {
        num_threads: [4, 1, 1],
        max_vertex_count: 4,
        max_primitive_count: 2,
        output_topology: crate::dxil::MeshOutputTopology::Triangle,
        payload_size_in_bytes: 0,
    });
    m
}

fn rejected_rules(stages: &[StageIo]) -> Vec<Rule> {
    match link(stages, &LinkOptions::default()) {
        Err(LinkError::Rejected(r)) => r.iter().map(|x| x.rule).collect(),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[test]
fn mesh_outputs_meet_pixel_inputs_by_semantic_not_register() {
    // The pixel shader packs ID (per primitive) and COLOR (per vertex) in other registers.
    let m = ms(vec![pos(0, 0), user(1, "COLOR", 0, 1, 0, 4)], vec![user_u(0, "ID", 0, 0, 0, 1)]);
    let p = ps(vec![pos(0, 0), user_u(1, "ID", 0, 1, 0, 1), user(2, "COLOR", 0, 2, 0, 4)]);
    let plan = link(&[p, m], &LinkOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(plan.stages.iter().map(|s| s.stage).collect::<Vec<_>>(), [Stage::Mesh, Stage::Pixel]);
    let (mp, pp) = (&plan.stages[0], &plan.stages[1]);
    let color_ps = pp.input(2).map(|e| e.placement);
    assert_eq!(mp.output(1).map(|e| e.placement), color_ps);
    assert!(matches!(color_ps, Some(Placement::Location { location: 2, component: 0 })));
    // The per-primitive input is PerPrimitiveEXT, on a Location of its own past every pixel input.
    let id_ps = pp.input(1).expect("ID");
    assert!(id_ps.per_primitive && !pp.input(2).expect("COLOR").per_primitive);
    assert_eq!(id_ps.placement, Placement::Location { location: 3, component: 0 });
    let id_ms = mp.patch_constant(0).expect("primitive ID");
    assert!(id_ms.per_primitive);
    assert_eq!(id_ms.placement, id_ps.placement);
    assert_eq!(mp.output(0).map(|e| e.placement), Some(Placement::BuiltIn(BuiltIn::Position)));
}

#[test]
fn mesh_pixel_rules() {
    let m = || ms(vec![pos(0, 0), user(1, "COLOR", 0, 1, 0, 4)], vec![]);
    // A narrower read passes the vertex-shader subset rule but not the mesh shader's.
    assert_eq!(rejected_rules(&[m(), ps(vec![pos(0, 0), user(1, "COLOR", 0, 1, 0, 2)])]), [Rule::RegisterMaskMismatch]);
    assert_eq!(
        rejected_rules(&[m(), ps(vec![pos(0, 0), user_u(1, "COLOR", 0, 1, 0, 4)])]),
        [Rule::ComponentTypeMismatch]
    );
    assert_eq!(rejected_rules(&[m(), ps(vec![pos(0, 0), user(1, "TEX", 0, 1, 0, 4)])]), [Rule::SemanticNotFound]);
    // SV_PrimitiveID must come from the mesh shader.
    let prim = sv(2, "SV_PrimitiveID", K::PrimitiveID, ComponentType::U32, 2, 0, 1, 1);
    assert_eq!(rejected_rules(&[m(), ps(vec![pos(0, 0), prim.clone()])]), [Rule::SystemValueMustComeFromProducer]);
    let with_id = ms(vec![pos(0, 0)], vec![sv(0, "SV_PrimitiveID", K::PrimitiveID, ComponentType::U32, 0, 0, 1, 1)]);
    let plan = link(&[with_id, ps(vec![pos(0, 0), prim])], &LinkOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(plan.stages[0].patch_constant(0).map(|e| e.placement), Some(Placement::BuiltIn(BuiltIn::PrimitiveId)));
    // No vertex pipeline stages beside a mesh shader.
    assert_eq!(rejected_rules(&[m(), vs(vec![pos(0, 0)])]), [Rule::InvalidStageCombination]);
}

// ------------------------------------------------------------ topology rules (#668, #673, #681)

fn with_topology(t: TopologyType) -> LinkOptions {
    LinkOptions { topology: Some(t), ..Default::default() }
}

/// A point-input GS with two point-list streams.
fn two_stream_point_gs() -> StageIo {
    let mut g = gs(vec![pos(0, 0)], vec![pos(0, 0), stream(pos(1, 0), 1)]);
    if let Some(s) = g.gs.as_mut() {
        s.input_primitive = InputPrimitive::Point;
        s.active_stream_mask = 3;
        s.stream_primitive_topology = PrimitiveTopology::PointList;
    }
    g
}

#[test]
fn gs_input_primitive_must_match_the_topology_type() {
    let stages = [vs(vec![pos(0, 0)]), two_stream_point_gs()];
    for t in [TopologyType::Triangle, TopologyType::Line] {
        let r = rejections_with(&stages, &with_topology(t));
        assert_eq!(r.len(), 1, "{r:#?}");
        assert_eq!((r[0].rule, r[0].stage), (Rule::GsInputPrimitiveMismatch, Stage::Geometry));
        assert!(r[0].to_string().contains("D3D12 #681"), "{}", r[0]);
        assert!(r[0].detail.contains("input primitive point"), "{}", r[0].detail);
    }
    for rast in [Some(0), Some(1), None] {
        let o = LinkOptions { rasterized_stream: rast, topology: Some(TopologyType::Point), ..Default::default() };
        assert!(link(&stages, &o).is_ok(), "points into a point GS, rasterized stream {rast:?}");
    }
    // No topology given: not checked (the linker keeps accepting what it accepted before).
    assert!(link(&stages, &LinkOptions::default()).is_ok());
    // Adjacency primitives are of the LINE / TRIANGLE types.
    let mut g = gs(vec![pos(0, 0)], vec![pos(0, 0)]);
    if let Some(s) = g.gs.as_mut() {
        s.input_primitive = InputPrimitive::TriangleWithAdjacency;
    }
    assert!(link(&[vs(vec![pos(0, 0)]), g.clone()], &with_topology(TopologyType::Triangle)).is_ok());
    let r = rejections_with(&[vs(vec![pos(0, 0)]), g], &with_topology(TopologyType::Point));
    assert_eq!(r[0].rule, Rule::GsInputPrimitiveMismatch);
}

#[test]
fn gs_after_tessellation_must_take_the_tessellator_primitive() {
    let cp = || vec![pos(0, 0)];
    let pcs = tess_factors(0);
    let mk = |prim: InputPrimitive| {
        let mut g = gs(vec![pos(0, 0)], vec![pos(0, 0)]);
        if let Some(s) = g.gs.as_mut() {
            s.input_primitive = prim;
        }
        [vs(vec![pos(0, 0)]), hs(cp(), cp(), pcs.clone()), ds(cp(), vec![pos(0, 0)], pcs.clone()), g]
    };
    // The tessellator makes triangles (triangle_cw): a point GS is rejected even without a topology.
    let r = rejections_with(&mk(InputPrimitive::Point), &LinkOptions::default());
    assert_eq!((r[0].rule, r[0].stage), (Rule::GsInputPrimitiveMismatch, Stage::Geometry));
    assert!(r[0].detail.contains("tessellator"), "{}", r[0].detail);
    assert!(link(&mk(InputPrimitive::Triangle), &with_topology(TopologyType::Patch(3))).is_ok());
}

#[test]
fn hull_shader_needs_a_patch_topology() {
    let cp = || vec![pos(0, 0)];
    let pcs = tess_factors(0);
    let stages = [vs(vec![pos(0, 0)]), hs(cp(), cp(), pcs.clone()), ds(cp(), vec![pos(0, 0)], pcs)];
    // The control-point count is draw-time state: not compared (vkd3d-proton's control_point_phase
    // hull shader takes no input patch, DXC records 1, and D3D12 draws it with 3-point patches).
    for n in [1, 3, 4] {
        assert!(link(&stages, &with_topology(TopologyType::Patch(n))).is_ok());
    }
    for t in [TopologyType::Triangle, TopologyType::Point] {
        let r = rejections_with(&stages, &with_topology(t));
        assert_eq!(r.len(), 1, "{r:#?}");
        assert_eq!((r[0].rule, r[0].stage), (Rule::HullInputTopologyMismatch, Stage::Hull));
        assert_eq!(r[0].rule.message_id(), Some(668));
    }
    let r = rejections_with(&[vs(vec![pos(0, 0)])], &with_topology(TopologyType::Patch(3)));
    assert_eq!((r[0].rule, r[0].rule.message_id()), (Rule::InvalidPrimitiveTopology, Some(673)));
}

#[test]
fn several_streams_must_be_point_lists() {
    let mut g = two_stream_point_gs();
    if let Some(s) = g.gs.as_mut() {
        s.stream_primitive_topology = PrimitiveTopology::TriangleStrip;
    }
    let r = rejections_with(&[vs(vec![pos(0, 0)]), g], &LinkOptions::default());
    assert_eq!((r[0].rule, r[0].stage), (Rule::GsStreamsNotRasterizable, Stage::Geometry));
}

#[test]
fn topology_type_names() {
    assert_eq!(TopologyType::parse("triangle_strip_adj"), Some(TopologyType::Triangle));
    assert_eq!(TopologyType::parse("POINT"), Some(TopologyType::Point));
    assert_eq!(TopologyType::parse("patch4"), Some(TopologyType::Patch(4)));
    assert_eq!(TopologyType::parse("patch_32"), Some(TopologyType::Patch(32)));
    assert_eq!(TopologyType::parse("patch33"), None);
    assert_eq!(TopologyType::parse("quad"), None);
}
