//! The linker on the project's fixture pipelines (fixtures/linkage,
//! fixtures/graphics, fixtures/tessellation): every verdict the fixtures'
//! `.md` files state — accepted, or "D3D12 rejects" with the rule — and the
//! placements that reach the pixel shader.

use dxjit::dxil::{TessDomain, TessOutputPrimitive, TessPartitioning};
use dxjit::link::{
    link, BuiltIn, InputElement, InputLayout, LinkError, LinkOptions, LinkPlan, Placement, Rule, SignatureKind, Stage,
    StageIo,
};
use dxjit_conformance::corpus::fixtures_root;

fn load(rel: &str) -> StageIo {
    let path = fixtures_root().join(format!("{rel}.dxil"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let c = dxjit::container::Container::parse(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let prog = c.dxil_program().unwrap_or_else(|e| panic!("{rel}: {e}"));
    let m = dxjit::bitcode::read_module(prog.bitcode).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let info = dxjit::dxil::decode(&m).unwrap_or_else(|e| panic!("{rel}: {e}"));
    StageIo::from_module(&info, &m).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn run(stages: &[&str], layout: Option<InputLayout>) -> Result<LinkPlan, LinkError> {
    let io: Vec<StageIo> = stages.iter().map(|s| load(s)).collect();
    link(&io, &LinkOptions { input_layout: layout, ..Default::default() })
}

#[track_caller]
fn accepted(stages: &[&str], layout: Option<InputLayout>) -> LinkPlan {
    run(stages, layout).unwrap_or_else(|e| panic!("{stages:?} must link: {e}"))
}

/// Rejected with exactly these (rule, consumer stage, semantic name, index) in order.
#[track_caller]
fn rejected(stages: &[&str], want: &[(Rule, Stage, &str, u32)]) {
    match run(stages, None) {
        Ok(_) => panic!("{stages:?}: D3D12 rejects this pipeline, the linker accepted it"),
        Err(e) => {
            let got: Vec<_> =
                e.rejections().iter().map(|r| (r.rule, r.stage, r.semantic_name.as_str(), r.semantic_index)).collect();
            assert_eq!(got, want, "{stages:?}: {e}");
        }
    }
}

fn ps_input(plan: &LinkPlan, name: &str, index: u32) -> Placement {
    let ps = plan.stage(Stage::Pixel).expect("pixel stage");
    ps.by_semantic(SignatureKind::Input, name, index).unwrap_or_else(|| panic!("PS input {name}{index}")).placement
}

fn loc(location: u32, component: u32) -> Placement {
    Placement::Location { location, component }
}

// ------------------------------------------------------------ linkage/

#[test]
fn linkage_poslast_nopos_accepted() {
    let plan = accepted(&["linkage/poslast.vs_6_0", "linkage/nopos.ps_6_0"], None);
    assert_eq!(ps_input(&plan, "COLOR", 0), loc(0, 0));
    assert_eq!(ps_input(&plan, "TEXCOORD", 0), loc(1, 0));
    let vs = plan.stage(Stage::Vertex).expect("vs");
    let p = vs.by_semantic(SignatureKind::Output, "SV_Position", 0).expect("position");
    assert_eq!(p.placement, Placement::BuiltIn(BuiltIn::Position));
}

#[test]
fn linkage_posfirst_rejected_register_index() {
    let r = Rule::RegisterIndexMismatch;
    let p = Stage::Pixel;
    rejected(
        &["linkage/poslast.vs_6_0", "linkage/posfirst.ps_6_0"],
        &[(r, p, "SV_Position", 0), (r, p, "COLOR", 0), (r, p, "TEXCOORD", 0)],
    );
}

#[test]
fn linkage_reorder_rejected_register_index() {
    // COLOR0 is r1 in the VS, r2 in the PS (the .md's named case); the TEXCOORDs move too.
    let e = run(&["linkage/reorder.vs_6_0", "linkage/reorder.ps_6_0"], None).expect_err("D3D12 rejects");
    let rs = e.rejections();
    assert!(rs.iter().all(|r| r.rule == Rule::RegisterIndexMismatch), "{e}");
    let color = rs.iter().find(|r| r.semantic_name == "COLOR").expect("COLOR0 named");
    assert_eq!((color.register, color.other_register), (Some(2), Some(1)));
}

#[test]
fn linkage_rowshare_both_accepted() {
    let plan = accepted(&["linkage/rowshare.vs_6_0", "linkage/rowshare_both.ps_6_0"], None);
    assert_eq!(ps_input(&plan, "TEXCOORD", 0), loc(1, 0));
    assert_eq!(ps_input(&plan, "TEXCOORD", 1), loc(1, 2));
}

#[test]
fn linkage_rowshare_second_rejected_mask() {
    rejected(
        &["linkage/rowshare.vs_6_0", "linkage/rowshare_second.ps_6_0"],
        &[(Rule::RegisterMaskMismatch, Stage::Pixel, "TEXCOORD", 1)],
    );
}

#[test]
fn linkage_reject_mask_rejected() {
    rejected(
        &["linkage/rowshare.vs_6_0", "linkage/reject_mask.ps_6_0"],
        &[(Rule::RegisterMaskMismatch, Stage::Pixel, "TEXCOORD", 0)],
    );
}

#[test]
fn linkage_reject_missing_rejected_for_both_producers() {
    for vs in ["linkage/reject_type.vs_6_0", "linkage/rowshare.vs_6_0"] {
        rejected(&[vs, "linkage/reject_missing.ps_6_0"], &[(Rule::SemanticNotFound, Stage::Pixel, "TEXCOORD", 5)]);
    }
}

#[test]
fn linkage_reject_type_rejected() {
    rejected(
        &["linkage/reject_type.vs_6_0", "linkage/reject_type.ps_6_0"],
        &[(Rule::ComponentTypeMismatch, Stage::Pixel, "TEXCOORD", 0)],
    );
}

#[test]
fn linkage_sgv_row_accepted() {
    let plan = accepted(&["linkage/sgv_row.vs_6_0", "linkage/sgv_row.ps_6_0"], None);
    assert_eq!(ps_input(&plan, "IDS", 0), loc(1, 0));
    assert_eq!(ps_input(&plan, "COLOR", 0), loc(2, 0));
    assert_eq!(ps_input(&plan, "SV_PrimitiveID", 0), Placement::BuiltIn(BuiltIn::PrimitiveId));
    assert_eq!(ps_input(&plan, "SV_IsFrontFace", 0), Placement::BuiltIn(BuiltIn::FrontFacing));
}

#[test]
fn linkage_six_all_accepted_six_pick_rejected() {
    let plan = accepted(&["linkage/six.vs_6_0", "linkage/six_all.ps_6_0"], None);
    assert_eq!(ps_input(&plan, "V", 2), loc(2, 2));
    assert_eq!(ps_input(&plan, "V", 5), loc(5, 0));
    let r = Rule::RegisterIndexMismatch;
    rejected(
        &["linkage/six.vs_6_0", "linkage/six_pick.ps_6_0"],
        &[(r, Stage::Pixel, "V", 2), (r, Stage::Pixel, "V", 5)],
    );
}

#[test]
fn linkage_primid_without_and_with_gs_accepted() {
    let plan = accepted(&["graphics/two_windings.vs_6_0", "linkage/primid.ps_6_0"], None);
    assert_eq!(ps_input(&plan, "SV_PrimitiveID", 0), Placement::BuiltIn(BuiltIn::PrimitiveId));
    let plan = accepted(&["graphics/two_windings.vs_6_0", "graphics/gs_primid.gs_6_0", "linkage/primid.ps_6_0"], None);
    assert_eq!(ps_input(&plan, "SV_PrimitiveID", 0), Placement::BuiltIn(BuiltIn::PrimitiveId));
    let gs = plan.stage(Stage::Geometry).expect("gs");
    let out = gs.by_semantic(SignatureKind::Output, "SV_PrimitiveID", 0).expect("GS writes the id");
    assert_eq!(out.placement, Placement::BuiltIn(BuiltIn::PrimitiveId));
}

// ------------------------------------------------------------ graphics/

#[test]
fn graphics_pipelines_accepted() {
    for ps in ["fullscreen", "mrt", "discard", "depth_out"] {
        accepted(&["graphics/fullscreen.vs_6_0", &format!("graphics/{ps}.ps_6_0")], None);
    }
    accepted(&["graphics/interp_modes.vs_6_0", "graphics/interp_modes.ps_6_0"], None);
    accepted(&["graphics/two_windings.vs_6_0", "graphics/sysvals.ps_6_0"], None);
    let plan = accepted(&["graphics/points.vs_6_0", "graphics/gs_point_quad.gs_6_0", "graphics/vcolor.ps_6_0"], None);
    let g = plan.geometry.as_ref().expect("geometry facts");
    assert_eq!((g.input_vertices, g.rasterized_stream), (1, Some(0)));
    let depth = accepted(&["graphics/fullscreen.vs_6_0", "graphics/depth_out.ps_6_0"], None);
    let ps = depth.stage(Stage::Pixel).expect("ps");
    let d = ps.by_semantic(SignatureKind::Output, "SV_Depth", 0).expect("depth");
    assert_eq!(d.placement, Placement::BuiltIn(BuiltIn::FragDepth));
}

#[test]
fn graphics_layers_through_a_geometry_shader() {
    let plan =
        accepted(&["graphics/fullscreen.vs_6_0", "graphics/gs_layers.gs_6_0", "graphics/layer_value.ps_6_0"], None);
    assert_eq!(ps_input(&plan, "VALUE", 0), loc(1, 0));
    assert_eq!(ps_input(&plan, "SV_RenderTargetArrayIndex", 0), Placement::BuiltIn(BuiltIn::Layer));
    assert_eq!(plan.geometry.as_ref().map(|g| g.instance_count), Some(2));
}

#[test]
fn graphics_clip_distances_vector_and_array() {
    for vs in ["clip_distance", "clip_distance_array"] {
        let plan = accepted(&[&format!("graphics/{vs}.vs_6_0"), "graphics/solid.ps_6_0"], None);
        let v = plan.stage(Stage::Vertex).expect("vs");
        assert_eq!(v.clip_distances_out, 2, "{vs}");
        let c = v.by_semantic(SignatureKind::Output, "SV_ClipDistance", 0).expect("clip");
        assert_eq!(c.placement, Placement::BuiltIn(BuiltIn::ClipDistance { offset: 0 }));
    }
}

fn layout(elems: &[(&str, &str, u32)]) -> InputLayout {
    InputLayout {
        elements: elems
            .iter()
            .map(|(s, f, o)| InputElement {
                semantic: s.to_string(),
                index: 0,
                format: f.to_string(),
                slot: 0,
                offset: Some(*o),
                per_instance: false,
                step_rate: 0,
            })
            .collect(),
    }
}

#[test]
fn graphics_input_layout() {
    let l = layout(&[
        ("POSITION", "R32G32B32_FLOAT", 0),
        ("COLOR", "R32G32B32A32_FLOAT", 12),
        ("TEXCOORD", "R32G32_FLOAT", 28),
        ("BLENDINDICES", "R8G8B8A8_UINT", 36),
    ]);
    let plan = accepted(&["graphics/input_layout.vs_6_0", "graphics/input_layout.ps_6_0"], Some(l.clone()));
    let got: Vec<_> = plan.vertex_input.iter().map(|a| (a.semantic_name.as_str(), a.offset, a.vk_format)).collect();
    assert_eq!(got.len(), 4, "{got:?}");
    for (name, off, _) in &got {
        let want = l.elements.iter().find(|e| e.semantic.eq_ignore_ascii_case(name)).and_then(|e| e.offset);
        assert_eq!(Some(*off), want, "{name}");
    }
    // Locations are distinct and equal to the VS input registers.
    let mut locs: Vec<u32> = plan.vertex_input.iter().map(|a| a.location).collect();
    locs.sort_unstable();
    locs.dedup();
    assert_eq!(locs.len(), 4);
    // Without BLENDINDICES in the layout D3D12 fails the PSO.
    let mut short = l;
    short.elements.pop();
    let e = run(&["graphics/input_layout.vs_6_0", "graphics/input_layout.ps_6_0"], Some(short)).expect_err("rejected");
    assert_eq!(e.rejections()[0].rule, Rule::InputLayoutSemanticMissing);
    assert_eq!(e.rejections()[0].semantic_name, "BLENDINDICES");
}

// ------------------------------------------------------------ tessellation/

fn tess(hs: &str, ds: &str) -> LinkPlan {
    let l = layout(&[("POSITION", "R32G32B32_FLOAT", 0)]);
    accepted(
        &[
            "tessellation/cp.vs_6_0",
            &format!("tessellation/{hs}.hs_6_0"),
            &format!("tessellation/{ds}.ds_6_0"),
            "graphics/vcolor.ps_6_0",
        ],
        Some(l),
    )
}

#[test]
fn tessellation_pipelines_accepted_with_their_state() {
    use TessDomain as D;
    use TessOutputPrimitive as O;
    use TessPartitioning as P;
    let cases = [
        ("tri_integer_cw", "tri_integer_cw", 3, 3, D::Tri, P::Integer, O::TriangleCW, "SpacingEqual"),
        (
            "quad_fracodd_ccw",
            "quad_fracodd_ccw",
            4,
            4,
            D::Quad,
            P::FractionalOdd,
            O::TriangleCCW,
            "SpacingFractionalOdd",
        ),
        ("isoline_points", "isoline_points", 2, 2, D::IsoLine, P::Integer, O::Point, "SpacingEqual"),
        ("cp3to4", "cp3to4", 3, 4, D::Quad, P::Integer, O::TriangleCW, "SpacingEqual"),
        ("pc_outputpatch", "pc_outputpatch", 3, 3, D::Tri, P::Integer, O::TriangleCW, "SpacingEqual"),
        ("pc_center", "pc_center", 3, 3, D::Tri, P::Integer, O::TriangleCW, "SpacingEqual"),
        ("passthrough", "passthrough", 3, 3, D::Tri, P::Integer, O::TriangleCW, "SpacingEqual"),
        ("pow2", "quad_points", 4, 4, D::Quad, P::Pow2, O::Point, "SpacingEqual"),
        ("passthrough", "ds_primid", 3, 3, D::Tri, P::Integer, O::TriangleCW, "SpacingEqual"),
        ("hs_clip", "ds_clip", 3, 3, D::Tri, P::Integer, O::TriangleCW, "SpacingEqual"),
    ];
    for (hs, ds, icp, ocp, domain, part, prim, spacing) in cases {
        let plan = tess(hs, ds);
        let t = plan.tessellation.as_ref().expect("tessellation facts");
        assert_eq!(
            (t.input_control_points, t.output_control_points, t.domain, t.partitioning, t.output_primitive, t.spacing),
            (icp, ocp, domain, part, prim, spacing),
            "{hs} -> {ds}"
        );
        assert!(t.patch_constant_function.as_deref().is_some_and(|f| f.contains("pc")), "{hs}");
        // Tess factors are built-ins on both sides, identical.
        let h = plan.stage(Stage::Hull).expect("hs");
        let d = plan.stage(Stage::Domain).expect("ds");
        for (a, b) in h.patch_constants.iter().zip(&d.patch_constants) {
            assert_eq!(a.placement, b.placement, "{hs}: {}", a.semantic_name);
        }
        let tf = h.by_semantic(SignatureKind::PatchConstant, "SV_TessFactor", 0).expect("tess factor");
        assert_eq!(tf.placement, Placement::BuiltIn(BuiltIn::TessLevelOuter));
    }
}

#[test]
fn tessellation_patch_constants_do_not_collide_with_control_points() {
    let plan = tess("pc_center", "pc_center");
    let t = plan.tessellation.as_ref().expect("tessellation facts");
    // CPPOS is the only control-point varying (row 0): constants start at Location 1.
    assert_eq!(t.patch_constant_location_offset, 1);
    let d = plan.stage(Stage::Domain).expect("ds");
    let center = d.by_semantic(SignatureKind::PatchConstant, "CENTER", 0).expect("CENTER");
    let scale = d.by_semantic(SignatureKind::PatchConstant, "SCALE", 0).expect("SCALE");
    assert_eq!((center.placement, scale.placement), (loc(1, 0), loc(2, 0)));
    let cp = d.by_semantic(SignatureKind::Input, "CPPOS", 0).expect("CPPOS");
    assert_eq!(cp.placement, loc(0, 0));
    // The same offset comes out of single-stage compiles of the hull and the domain shader.
    for s in ["tessellation/pc_center.hs_6_0", "tessellation/pc_center.ds_6_0"] {
        let single = LinkPlan::single(&load(s)).expect("single plan");
        let st = &single.stages[0];
        let c = st.by_semantic(SignatureKind::PatchConstant, "CENTER", 0).expect("CENTER");
        assert_eq!(c.placement, loc(1, 0), "{s}");
    }
}

#[test]
fn tessellation_clip_distance_flows_from_hull_control_points_to_the_rasterizer() {
    // hs_clip writes SV_ClipDistance0 per output control point, ds_clip reads it from the output
    // patch and writes its own: the ClipDistance built-in on all three sides, not a Location.
    let plan = tess("hs_clip", "ds_clip");
    let clip = Placement::BuiltIn(BuiltIn::ClipDistance { offset: 0 });
    let h = plan.stage(Stage::Hull).expect("hs");
    assert_eq!(h.by_semantic(SignatureKind::Output, "SV_ClipDistance", 0).expect("hs clip").placement, clip);
    assert_eq!(h.clip_distances_out, 1);
    let d = plan.stage(Stage::Domain).expect("ds");
    assert_eq!(d.by_semantic(SignatureKind::Input, "SV_ClipDistance", 0).expect("ds clip in").placement, clip);
    assert_eq!(d.by_semantic(SignatureKind::Output, "SV_ClipDistance", 0).expect("ds clip out").placement, clip);
    assert_eq!((d.clip_distances_in, d.clip_distances_out), (1, 1));
    // The clip distance takes no Location: CPPOS stays at 0, the PS reads COLOR0 where the DS writes it.
    assert_eq!(d.by_semantic(SignatureKind::Input, "CPPOS", 0).expect("CPPOS").placement, loc(0, 0));
    assert_eq!(ps_input(&plan, "COLOR", 0), d.by_semantic(SignatureKind::Output, "COLOR", 0).expect("COLOR").placement);
}

#[test]
fn tessellation_domain_reads_primitive_id_without_a_producer() {
    let plan = tess("passthrough", "ds_primid");
    assert_eq!(plan.stages.len(), 4);
}

#[test]
fn every_fixture_has_a_single_stage_plan() {
    for dir in ["linkage", "graphics", "tessellation"] {
        let Ok(rd) = std::fs::read_dir(fixtures_root().join(dir)) else { continue };
        for f in rd.flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            let Some(stem) = name.strip_suffix(".dxil") else { continue };
            let io = load(&format!("{dir}/{stem}"));
            let plan = LinkPlan::single(&io).unwrap_or_else(|e| panic!("{dir}/{stem}: {e}"));
            let st = &plan.stages[0];
            // Every element has a real placement (no Unused/ZeroFill without a pipeline).
            for e in st.inputs.iter().chain(&st.outputs).chain(&st.patch_constants) {
                assert!(
                    matches!(e.placement, Placement::Location { .. } | Placement::BuiltIn(_)),
                    "{dir}/{stem}: {} is {:?}",
                    e.semantic_name,
                    e.placement
                );
            }
        }
    }
}
