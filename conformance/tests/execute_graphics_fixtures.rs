//! Links and compiles the graphics fixture pipelines (fixtures/graphics and
//! fixtures/linkage) with `dxjit::compile_pipeline`, draws them on the Vulkan
//! device (lavapipe by default) with the validation layer on, and checks the
//! pixel probes their `.md` files state. Validation must stay silent: no
//! interface-mismatch (or any other) warning. Skips without a Vulkan device.

use dxjit::link::{InputElement, InputLayout, LinkOptions};
use dxjit::{compile_pipeline, CompileOptions, CompiledPipeline, PipelineError, ShaderKind};
use dxjit_conformance::corpus::fixtures_root;
use dxjit_conformance::spirv_val;
use dxjit_runtime::{
    ColorTarget, Context, ContextOptions, DepthStencilTarget, Format, GraphicsJob, GraphicsResult, ShaderStage, Stage,
    Topology, VertexAttribute, VertexBuffer,
};

const W: u32 = 16;

fn ctx(test: &str) -> Option<Context> {
    Context::for_test(test, &ContextOptions { validation: true, ..Default::default() }).unwrap()
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixtures_root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Links and compiles the fixtures `names` (`area/file.dxil`); every module must pass spirv-val.
fn build(names: &[&str], link: &LinkOptions) -> CompiledPipeline {
    build_with(names, link, &CompileOptions::default())
}

fn build_with(names: &[&str], link: &LinkOptions, opts: &CompileOptions) -> CompiledPipeline {
    let bytes: Vec<Vec<u8>> = names.iter().map(|n| fixture(n)).collect();
    let refs: Vec<&[u8]> = bytes.iter().map(|b| b.as_slice()).collect();
    let p = compile_pipeline(&refs, link, opts).unwrap_or_else(|e| panic!("{names:?}: {e}"));
    for s in &p.shaders {
        if let Err(e) = spirv_val::validate(&s.spirv) {
            panic!("{names:?}: {:?} fails spirv-val: {e}", s.stage);
        }
    }
    p
}

fn stages(p: &CompiledPipeline) -> Vec<ShaderStage<'_>> {
    p.shaders
        .iter()
        .map(|s| ShaderStage {
            stage: match s.stage {
                ShaderKind::Vertex => Stage::Vertex,
                ShaderKind::Geometry => Stage::Geometry,
                ShaderKind::Pixel => Stage::Fragment,
                k => panic!("unexpected stage {k:?}"),
            },
            spirv: &s.spirv,
            entry_point: &s.entry_point,
        })
        .collect()
}

fn run(ctx: &Context, what: &str, job: &GraphicsJob<'_>) -> GraphicsResult {
    let r = ctx.run_graphics(job).unwrap_or_else(|e| panic!("{what}: {e}"));
    let msgs = ctx.take_validation_messages();
    assert!(msgs.is_empty(), "{what}: validation messages: {msgs:#?}");
    r
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Checks every pixel of a `comps`-component float target against `want(x, y)`.
fn check_f32(what: &str, data: &[u8], comps: usize, eps: f32, want: impl Fn(u32, u32) -> Vec<f32>) {
    let px = f32s(data);
    assert_eq!(px.len(), (W * W) as usize * comps, "{what}: target size");
    for y in 0..W {
        for x in 0..W {
            let i = ((y * W + x) as usize) * comps;
            let got = &px[i..i + comps];
            let w = want(x, y);
            let ok = got.iter().zip(&w).all(|(a, b)| (a - b).abs() <= eps || (a.is_nan() && b.is_nan()));
            assert!(ok, "{what}: pixel ({x},{y}) = {got:?}, want {w:?}");
        }
    }
}

fn check_u32(what: &str, data: &[u8], comps: usize, want: impl Fn(u32, u32) -> Vec<u32>) {
    let px = u32s(data);
    assert_eq!(px.len(), (W * W) as usize * comps, "{what}: target size");
    for y in 0..W {
        for x in 0..W {
            let i = ((y * W + x) as usize) * comps;
            assert_eq!(&px[i..i + comps], want(x, y).as_slice(), "{what}: pixel ({x},{y})");
        }
    }
}

fn rgba32f() -> ColorTarget {
    ColorTarget::new(Format::R32G32B32A32Float, W, W)
}

/// The primitive of two_windings.vs_6_0 covering pixel (x, y).
fn prim(x: u32, y: u32) -> u32 {
    if x < 8 {
        u32::from(y > 2 * x)
    } else if y + 16 <= 2 * x {
        2
    } else {
        3
    }
}

/// A VS → PS pair drawing a full-screen triangle into one RGBA32F target; returns the pixels.
fn draw_fullscreen(ctx: &Context, vs: &str, ps: &str) -> GraphicsResult {
    let p = build(&[vs, ps], &LinkOptions::default());
    let job = GraphicsJob::new(stages(&p), vec![rgba32f()], 3);
    run(ctx, &format!("{vs} -> {ps}"), &job)
}

#[test]
fn fullscreen_triangle() {
    let Some(ctx) = ctx("fullscreen_triangle") else { return };
    let r = draw_fullscreen(&ctx, "graphics/fullscreen.vs_6_0.dxil", "graphics/fullscreen.ps_6_0.dxil");
    check_f32("fullscreen", &r.color[0], 4, 1e-5, |x, y| {
        vec![(x as f32 + 0.5) / 16.0, (y as f32 + 0.5) / 16.0, 0.0, 1.0]
    });
}

#[test]
fn input_layout() {
    let Some(ctx) = ctx("input_layout") else { return };
    let el = |semantic: &str, format: &str, offset: u32| InputElement {
        semantic: semantic.into(),
        index: 0,
        format: format.into(),
        slot: 0,
        offset: Some(offset),
        per_instance: false,
        step_rate: 0,
    };
    let layout = InputLayout {
        elements: vec![
            el("POSITION", "R32G32B32_FLOAT", 0),
            el("COLOR", "R32G32B32A32_FLOAT", 12),
            el("TEXCOORD", "R32G32_FLOAT", 28),
            el("BLENDINDICES", "R8G8B8A8_UINT", 36),
        ],
    };
    let link = LinkOptions { input_layout: Some(layout), ..Default::default() };
    let p = build(&["graphics/input_layout.vs_6_0.dxil", "graphics/input_layout.ps_6_0.dxil"], &link);
    let pos = [[-1.0f32, 1.0, 0.5], [3.0, 1.0, 0.5], [-1.0, -3.0, 0.5]];
    let uv = [[0.0f32, 0.0], [2.0, 0.0], [0.0, 2.0]];
    let bones = [[1u8, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9]];
    let mut data = Vec::new();
    for v in 0..3 {
        for c in pos[v] {
            data.extend(c.to_le_bytes());
        }
        for c in [0.25f32, 0.5, 0.75, 1.0] {
            data.extend(c.to_le_bytes());
        }
        for c in uv[v] {
            data.extend(c.to_le_bytes());
        }
        data.extend(bones[v]);
    }
    let format = |dxgi: &str| match dxgi {
        "R32G32B32_FLOAT" => Format::R32G32B32Float,
        "R32G32B32A32_FLOAT" => Format::R32G32B32A32Float,
        "R32G32_FLOAT" => Format::R32G32Float,
        "R8G8B8A8_UINT" => Format::R8G8B8A8Uint,
        f => panic!("format {f}"),
    };
    let attrs: Vec<VertexAttribute> = p
        .plan
        .vertex_input
        .iter()
        .map(|a| VertexAttribute {
            location: a.location,
            binding: a.binding,
            format: format(a.format.as_deref().expect("layout format")),
            offset: a.offset,
        })
        .collect();
    assert_eq!(attrs.len(), 4);
    let mut job = GraphicsJob::new(stages(&p), vec![rgba32f()], 3);
    job.vertex_buffers = vec![VertexBuffer { binding: 0, stride: 40, per_instance: false, data }];
    job.vertex_attributes = attrs;
    let r = run(&ctx, "input_layout", &job);
    check_f32("input_layout", &r.color[0], 4, 1e-5, |x, y| {
        vec![0.25 + (x as f32 + 0.5) / 16.0, 0.5 + (y as f32 + 0.5) / 16.0, 0.75, 4321.0]
    });
}

#[test]
fn interpolation_modes() {
    let Some(ctx) = ctx("interpolation_modes") else { return };
    let p = build(&["graphics/interp_modes.vs_6_0.dxil", "graphics/interp_modes.ps_6_0.dxil"], &LinkOptions::default());
    let job = GraphicsJob::new(stages(&p), vec![rgba32f(), ColorTarget::new(Format::R32Float, W, W)], 3);
    let r = run(&ctx, "interp_modes", &job);
    // llvmpipe (Mesa 22.3) clips this guard-band-sized triangle into a fan split along the diagonal
    // y = x and produces NaN for NoPerspective inputs in the second fan triangle (the SPIR-V is the
    // same as glslang's for `noperspective`). There only the noperspective component is not checked.
    let llvmpipe = ctx.device_name().to_ascii_lowercase().contains("llvmpipe");
    let px = f32s(&r.color[0]);
    check_f32("interp_modes RT0", &r.color[0], 4, 1e-5, |x, y| {
        let b1 = (x as f32 + 0.5) / 32.0;
        let b2 = (y as f32 + 0.5) / 32.0;
        let b0 = 1.0 - b1 - b2;
        let d = b0 + b1 / 2.0 + b2 / 4.0;
        let nop = if llvmpipe && y > x { px[((y * W + x) * 4 + 2) as usize] } else { b1 };
        vec![(b1 / 2.0) / d, (b2 / 4.0) / d, nop, b0 / d]
    });
    check_f32("interp_modes RT1", &r.color[1], 1, 0.0, |_, _| vec![10.0]);
}

#[test]
fn multiple_render_targets() {
    let Some(ctx) = ctx("multiple_render_targets") else { return };
    let p = build(&["graphics/fullscreen.vs_6_0.dxil", "graphics/mrt.ps_6_0.dxil"], &LinkOptions::default());
    let targets = vec![rgba32f(), ColorTarget::new(Format::R32G32Uint, W, W), ColorTarget::new(Format::R32Sint, W, W)];
    let job = GraphicsJob::new(stages(&p), targets, 3);
    let r = run(&ctx, "mrt", &job);
    check_f32("mrt RT0", &r.color[0], 4, 0.0, |x, y| vec![x as f32 / 16.0, y as f32 / 16.0, 0.5, 1.0]);
    check_u32("mrt RT1", &r.color[1], 2, |x, y| vec![100 * x + y, u32::MAX - x]);
    check_u32("mrt RT2", &r.color[2], 1, |x, y| vec![(-((x + 16 * y) as i32) - 1) as u32]);
}

#[test]
fn discard() {
    let Some(ctx) = ctx("discard") else { return };
    // Demote to helper (default, D3D semantics) and OpKill give the same pixels.
    for demote_to_helper in [true, false] {
        let opts = CompileOptions { demote_to_helper, ..Default::default() };
        let p = build_with(
            &["graphics/fullscreen.vs_6_0.dxil", "graphics/discard.ps_6_0.dxil"],
            &LinkOptions::default(),
            &opts,
        );
        let demotes = p.shaders[1].capabilities.iter().any(|c| c == "DemoteToHelperInvocation");
        assert_eq!(demotes, demote_to_helper, "discard lowering: {:?}", p.shaders[1].capabilities);
        let job = GraphicsJob::new(stages(&p), vec![rgba32f()], 3);
        let r = run(&ctx, "discard", &job);
        check_f32("discard", &r.color[0], 4, 0.0, |x, y| {
            if (x + y) % 2 == 0 {
                vec![1.0, x as f32, y as f32, 1.0]
            } else {
                vec![0.0; 4]
            }
        });
    }
}

#[test]
fn depth_output() {
    let Some(ctx) = ctx("depth_output") else { return };
    let p = build(&["graphics/fullscreen.vs_6_0.dxil", "graphics/depth_out.ps_6_0.dxil"], &LinkOptions::default());
    let mut job = GraphicsJob::new(stages(&p), vec![rgba32f()], 3);
    job.depth_stencil = Some(DepthStencilTarget::new(Format::D32Float, W, W));
    let r = run(&ctx, "depth_out", &job);
    check_f32("depth_out colour", &r.color[0], 4, 0.0, |x, _| vec![x as f32 / 16.0, 0.0, 0.0, 1.0]);
    check_f32("depth_out depth", r.depth.as_deref().unwrap(), 1, 0.0, |x, _| vec![x as f32 / 16.0]);
}

#[test]
fn pixel_system_values() {
    let Some(ctx) = ctx("pixel_system_values") else { return };
    let p = build(&["graphics/two_windings.vs_6_0.dxil", "graphics/sysvals.ps_6_0.dxil"], &LinkOptions::default());
    let job = GraphicsJob::new(stages(&p), vec![ColorTarget::new(Format::R32G32B32A32Uint, W, W)], 12);
    let r = run(&ctx, "sysvals", &job);
    check_u32("sysvals", &r.color[0], 4, |x, y| vec![u32::from(x < 8), prim(x, y), 0, x + 100 * y + 10000]);
}

#[test]
fn clip_distances() {
    let Some(ctx) = ctx("clip_distances") else { return };
    for vs in ["graphics/clip_distance.vs_6_0.dxil", "graphics/clip_distance_array.vs_6_0.dxil"] {
        let r = draw_fullscreen(&ctx, vs, "graphics/solid.ps_6_0.dxil");
        check_f32(
            vs,
            &r.color[0],
            4,
            0.0,
            |x, y| {
                if x >= 8 && y >= 4 {
                    vec![1.0, 0.5, 0.25, 1.0]
                } else {
                    vec![0.0; 4]
                }
            },
        );
    }
}

#[test]
fn geometry_point_expansion() {
    let Some(ctx) = ctx("geometry_point_expansion") else { return };
    let p = build(
        &["graphics/points.vs_6_0.dxil", "graphics/gs_point_quad.gs_6_0.dxil", "graphics/vcolor.ps_6_0.dxil"],
        &LinkOptions::default(),
    );
    let mut job = GraphicsJob::new(stages(&p), vec![rgba32f()], 2);
    job.topology = Topology::PointList;
    let r = run(&ctx, "gs_point_quad", &job);
    check_f32("gs_point_quad", &r.color[0], 4, 0.0, |x, y| {
        if (2..6).contains(&x) && (2..6).contains(&y) {
            vec![1.0, 0.0, 0.0, 1.0]
        } else if (11..13).contains(&x) && (9..11).contains(&y) {
            vec![0.0, 1.0, 0.0, 1.0]
        } else {
            vec![0.0; 4]
        }
    });
}

#[test]
fn primitive_id() {
    let Some(ctx) = ctx("primitive_id") else { return };
    // (a) without a GS the rasterizer generates it; (b) the GS writes input id + 100.
    for (names, add) in [
        (vec!["graphics/two_windings.vs_6_0.dxil", "linkage/primid.ps_6_0.dxil"], 0),
        (
            vec!["graphics/two_windings.vs_6_0.dxil", "graphics/gs_primid.gs_6_0.dxil", "linkage/primid.ps_6_0.dxil"],
            100,
        ),
    ] {
        let p = build(&names, &LinkOptions::default());
        let job = GraphicsJob::new(stages(&p), vec![ColorTarget::new(Format::R32Uint, W, W)], 12);
        let r = run(&ctx, &format!("{names:?}"), &job);
        check_u32(&format!("{names:?}"), &r.color[0], 1, |x, y| vec![prim(x, y) + add]);
    }
}

#[test]
fn instanced_geometry_render_target_array_index() {
    let Some(ctx) = ctx("instanced_geometry_render_target_array_index") else { return };
    let p = build(
        &["graphics/fullscreen.vs_6_0.dxil", "graphics/gs_layers.gs_6_0.dxil", "graphics/layer_value.ps_6_0.dxil"],
        &LinkOptions::default(),
    );
    let mut target = ColorTarget::new(Format::R32Float, W, W);
    target.layers = 2;
    let mut job = GraphicsJob::new(stages(&p), vec![target], 3);
    job.layered_render = true;
    let r = run(&ctx, "gs_layers", &job);
    let px = f32s(&r.color[0]);
    assert_eq!(px.len(), 2 * (W * W) as usize);
    let (l0, l1) = px.split_at((W * W) as usize);
    assert!(l0.iter().all(|&v| v == 1.0), "slice 0: {l0:?}");
    assert!(l1.iter().all(|&v| v == 12.0), "slice 1: {l1:?}");
}

#[test]
fn accepted_linkage_pairs() {
    let Some(ctx) = ctx("accepted_linkage_pairs") else { return };
    // Producer/consumer packings differ (PS omits SV_Position).
    let r = draw_fullscreen(&ctx, "linkage/poslast.vs_6_0.dxil", "linkage/nopos.ps_6_0.dxil");
    check_f32("poslast -> nopos", &r.color[0], 4, 1e-5, |x, y| vec![0.5, 0.25, 0.125, (x + y + 1) as f32 / 16.0]);
    // Two elements share a row; the PS reads only the second.
    let r = draw_fullscreen(&ctx, "linkage/rowshare.vs_6_0.dxil", "linkage/rowshare_both.ps_6_0.dxil");
    check_f32("rowshare -> rowshare_both", &r.color[0], 4, 0.0, |_, _| vec![0.75, 1.0, 0.0, 1.0]);
    // Six varyings declared, two read.
    let r = draw_fullscreen(&ctx, "linkage/six.vs_6_0.dxil", "linkage/six_all.ps_6_0.dxil");
    check_f32("six -> six_all", &r.color[0], 4, 0.0, |_, _| vec![3.0, 7.0, 8.0, 9.0]);
    // SGVs sharing a row with a user element, generated by the rasterizer.
    let p = build(&["linkage/sgv_row.vs_6_0.dxil", "linkage/sgv_row.ps_6_0.dxil"], &LinkOptions::default());
    let job = GraphicsJob::new(stages(&p), vec![ColorTarget::new(Format::R32G32B32A32Uint, W, W)], 3);
    let r = run(&ctx, "sgv_row", &job);
    check_u32("sgv_row", &r.color[0], 4, |_, _| vec![7, 11, 5, 3]);
}

#[test]
fn rejected_linkage_pairs_do_not_compile() {
    for (vs, ps) in [
        ("linkage/poslast.vs_6_0.dxil", "linkage/posfirst.ps_6_0.dxil"),
        ("linkage/reorder.vs_6_0.dxil", "linkage/reorder.ps_6_0.dxil"),
        ("linkage/rowshare.vs_6_0.dxil", "linkage/rowshare_second.ps_6_0.dxil"),
        ("linkage/rowshare.vs_6_0.dxil", "linkage/reject_mask.ps_6_0.dxil"),
        ("linkage/reject_type.vs_6_0.dxil", "linkage/reject_type.ps_6_0.dxil"),
        ("linkage/reject_type.vs_6_0.dxil", "linkage/reject_missing.ps_6_0.dxil"),
        ("linkage/six.vs_6_0.dxil", "linkage/six_pick.ps_6_0.dxil"),
    ] {
        let (a, b) = (fixture(vs), fixture(ps));
        match compile_pipeline(&[&a, &b], &LinkOptions::default(), &CompileOptions::default()) {
            Err(PipelineError::Link(e)) => assert!(e.is_rejection(), "{vs} -> {ps}: {e}"),
            other => panic!("{vs} -> {ps}: expected a link rejection, got {:?}", other.map(|p| p.plan)),
        }
    }
}
