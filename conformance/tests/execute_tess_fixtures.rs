//! Executes the tessellation fixture pipelines (fixtures/tessellation: VS →
//! HS → DS → PS, compiled from DXIL by `dxjit::compile_pipeline`) on the
//! Vulkan device with the validation layer, and checks every pixel against
//! the expectations of the fixtures' `.md` files: tri/quad/isoline domains,
//! integer/fractional_odd/pow2 partitioning, cw/ccw/point output (with the
//! culling that proves the winding), 3 → 4 control points, patch-constant
//! functions reading the output patch, extra patch constants, and
//! SV_PrimitiveID/SV_DomainLocation in the domain shader, SV_ClipDistance
//! from hull control points through the domain shader. Every pipeline
//! runs with both patch-constant schemes (invocation 0 / all invocations).

use dxjit::link::{InputElement, InputLayout, LinkOptions};
use dxjit::{compile_pipeline, CompileOptions, PatchConstantInvocations};
use dxjit_conformance::corpus::fixtures_root;
use dxjit_runtime::{
    ColorTarget, Context, ContextOptions, CullMode, Format, GraphicsJob, ShaderStage, Stage, Topology, VertexAttribute,
    VertexBuffer,
};

const W: u32 = 16;
const H: u32 = 16;

type Probe = Box<dyn Fn(u32, u32) -> Option<[f32; 4]>>;

/// One fixture pipeline: shaders, control points, cull mode and the expected image.
struct Case {
    name: &'static str,
    hs: &'static str,
    ds: &'static str,
    /// Control points (x, y, z), NDC.
    points: Vec<[f32; 3]>,
    cull: CullMode,
    tolerance: f32,
    expect: Probe,
}

fn ndc(px: f32, py: f32) -> [f32; 3] {
    [px / 8.0 - 1.0, 1.0 - py / 8.0, 0.0]
}

fn with_z(mut p: [f32; 3], z: f32) -> [f32; 3] {
    p[2] = z;
    p
}

/// The triangle of pixel corners (2,2), (14,2), (2,8): pixel centres with x >= 2, y >= 2, x + 2y <= 16.
fn in_tri(x: u32, y: u32) -> bool {
    x >= 2 && y >= 2 && x + 2 * y <= 16
}

fn tri_points(z: [f32; 3]) -> Vec<[f32; 3]> {
    vec![with_z(ndc(2.0, 2.0), z[0]), with_z(ndc(14.0, 2.0), z[1]), with_z(ndc(2.0, 8.0), z[2])]
}

fn quad_points(z: f32) -> Vec<[f32; 3]> {
    [(2.0, 2.0), (14.0, 2.0), (2.0, 14.0), (14.0, 14.0)].iter().map(|&(x, y)| with_z(ndc(x, y), z)).collect()
}

fn constant_in_tri(c: [f32; 4]) -> Probe {
    Box::new(move |x, y| in_tri(x, y).then_some(c))
}

fn cases() -> Vec<Case> {
    let centre = |v: u32| v as f32 + 0.5;
    let tri_bary: Probe = Box::new(move |x, y| {
        in_tri(x, y).then(|| {
            let b1 = (centre(x) - 2.0) / 12.0;
            let b2 = (centre(y) - 2.0) / 6.0;
            [1.0 - b1 - b2, b1, b2, 1.0]
        })
    });
    let quad_uv: Probe = Box::new(move |x, y| {
        ((2..14).contains(&x) && (2..14).contains(&y))
            .then(|| [(centre(x) - 2.0) / 12.0, (centre(y) - 2.0) / 12.0, 0.0, 1.0])
    });
    vec![
        Case {
            name: "tri_integer_cw (cull back)",
            hs: "tri_integer_cw",
            ds: "tri_integer_cw",
            points: tri_points([0.0; 3]),
            cull: CullMode::Back,
            tolerance: 1e-5,
            expect: tri_bary,
        },
        Case {
            name: "tri_integer_cw (cull front: clockwise output, nothing drawn)",
            hs: "tri_integer_cw",
            ds: "tri_integer_cw",
            points: tri_points([0.0; 3]),
            cull: CullMode::Front,
            tolerance: 0.0,
            expect: Box::new(|_, _| None),
        },
        Case {
            name: "quad_fracodd_ccw (cull front)",
            hs: "quad_fracodd_ccw",
            ds: "quad_fracodd_ccw",
            points: quad_points(0.0),
            cull: CullMode::Front,
            tolerance: 1e-5,
            expect: quad_uv,
        },
        Case {
            name: "quad_fracodd_ccw (cull back: counter-clockwise output, nothing drawn)",
            hs: "quad_fracodd_ccw",
            ds: "quad_fracodd_ccw",
            points: quad_points(0.0),
            cull: CullMode::Back,
            tolerance: 0.0,
            expect: Box::new(|_, _| None),
        },
        Case {
            name: "isoline_points (density 2, detail 4)",
            hs: "isoline_points",
            ds: "isoline_points",
            points: vec![[-0.6875, 0.5625, 0.0], [0.8125, 0.5625, 0.0]],
            cull: CullMode::None,
            tolerance: 1e-5,
            expect: Box::new(|x, y| {
                let (i, j) = (x.checked_sub(2)?, y.checked_sub(3)?);
                (i % 3 == 0 && i / 3 <= 4 && j % 4 == 0 && j / 4 <= 1)
                    .then(|| [(i / 3) as f32 / 4.0, (j / 4) as f32 / 2.0, 1.0, 1.0])
            }),
        },
        Case {
            name: "cp3to4 (3 input, 4 output control points)",
            hs: "cp3to4",
            ds: "cp3to4",
            points: vec![ndc(2.0, 2.0), ndc(14.0, 2.0), ndc(2.0, 10.0)],
            cull: CullMode::None,
            tolerance: 0.0,
            expect: Box::new(|x, y| ((2..14).contains(&x) && (2..10).contains(&y)).then_some([0.0, 1.0, 1.0, 1.0])),
        },
        Case {
            name: "pc_outputpatch (patch constants from the output patch)",
            hs: "pc_outputpatch",
            ds: "pc_outputpatch",
            points: tri_points([0.25; 3]),
            cull: CullMode::None,
            tolerance: 0.0,
            expect: constant_in_tri([0.25, 0.5, 0.75, 1.0]),
        },
        Case {
            name: "pc_center (extra patch constants CENTER, SCALE)",
            hs: "pc_center",
            ds: "pc_center",
            points: tri_points([0.25, 0.5, 0.75]),
            cull: CullMode::None,
            tolerance: 1e-6,
            expect: Box::new(|x, y| {
                let lit = (y == 3 && (4..=8).contains(&x)) || (y == 4 && (4..=6).contains(&x)) || (y == 5 && x == 4);
                lit.then_some([0.25, 0.5, 0.5, 0.5])
            }),
        },
        Case {
            name: "passthrough",
            hs: "passthrough",
            ds: "passthrough",
            points: tri_points([0.0; 3]),
            cull: CullMode::None,
            tolerance: 0.0,
            expect: constant_in_tri([1.0, 0.0, 1.0, 1.0]),
        },
        Case {
            name: "hs_clip + ds_clip (SV_ClipDistance = NDC x from the control points: left half clipped)",
            hs: "hs_clip",
            ds: "ds_clip",
            points: tri_points([0.0; 3]),
            cull: CullMode::None,
            tolerance: 0.0,
            // Clip distance at a pixel centre = its NDC x = (x + 0.5) / 8 - 1: >= 0 from x = 8 on.
            expect: Box::new(|x, y| (in_tri(x, y) && x >= 8).then_some([1.0, 1.0, 0.0, 1.0])),
        },
        Case {
            name: "passthrough + ds_primid (two patches: SV_PrimitiveID, SV_DomainLocation)",
            hs: "passthrough",
            ds: "ds_primid",
            points: [(0.0, 0.0), (8.0, 0.0), (0.0, 16.0), (16.0, 16.0), (8.0, 16.0), (16.0, 0.0)]
                .iter()
                .map(|&(x, y)| ndc(x, y))
                .collect(),
            cull: CullMode::None,
            tolerance: 1e-5,
            expect: Box::new(move |x, y| {
                let (cx, cy) = (centre(x), centre(y));
                if 2 * x + y <= 14 {
                    Some([0.0, 1.0 - cx / 8.0 - cy / 16.0, cx / 8.0, cy / 16.0])
                } else if 2 * x + y >= 31 {
                    let (u, v) = ((16.0 - cx) / 8.0, (16.0 - cy) / 16.0);
                    Some([1.0, 1.0 - u - v, u, v])
                } else {
                    None
                }
            }),
        },
        Case {
            name: "pow2 + quad_points (pow2 tessellates like integer, point output)",
            hs: "pow2",
            ds: "quad_points",
            points: quad_points(0.5),
            cull: CullMode::None,
            tolerance: 1e-4,
            expect: Box::new(|x, y| {
                let (i, j) = (x.checked_sub(2)?, y.checked_sub(2)?);
                (i % 4 == 0 && i / 4 <= 3 && j % 4 == 0 && j / 4 <= 3)
                    .then(|| [(i / 4) as f32 / 3.0, (j / 4) as f32 / 3.0, 0.5, 1.0])
            }),
        },
    ]
}

fn fixture(name: &str) -> Vec<u8> {
    let p = fixtures_root().join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn layout() -> InputLayout {
    InputLayout {
        elements: vec![InputElement {
            semantic: "POSITION".into(),
            index: 0,
            format: "R32G32B32_FLOAT".into(),
            slot: 0,
            offset: Some(0),
            per_instance: false,
            step_rate: 0,
        }],
    }
}

/// Runs one case; returns the failures (pixel mismatches, validation messages).
fn run_case(ctx: &Context, case: &Case, mode: PatchConstantInvocations) -> Vec<String> {
    let vs = fixture("tessellation/cp.vs_6_0.dxil");
    let hs = fixture(&format!("tessellation/{}.hs_6_0.dxil", case.hs));
    let ds = fixture(&format!("tessellation/{}.ds_6_0.dxil", case.ds));
    let ps = fixture("graphics/vcolor.ps_6_0.dxil");
    let link = LinkOptions { input_layout: Some(layout()), ..LinkOptions::default() };
    let opts = CompileOptions { hull_patch_constants: mode, ..CompileOptions::default() };
    let p = compile_pipeline(&[&vs, &hs, &ds, &ps], &link, &opts).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let tess = p.plan.tessellation.as_ref().expect("tessellation plan");
    assert_eq!(tess.input_control_points as usize, case.points.len().min(tess.input_control_points as usize));
    for cs in &p.shaders {
        if let Err(m) = dxjit_conformance::spirv_val::validate(&cs.spirv) {
            panic!("{} ({:?}): spirv-val: {m}", case.name, cs.stage);
        }
    }
    let stages: Vec<ShaderStage<'_>> = p
        .shaders
        .iter()
        .map(|cs| ShaderStage {
            stage: match cs.stage {
                dxjit::ShaderKind::Vertex => Stage::Vertex,
                dxjit::ShaderKind::Hull => Stage::TessControl,
                dxjit::ShaderKind::Domain => Stage::TessEval,
                _ => Stage::Fragment,
            },
            spirv: &cs.spirv,
            entry_point: &cs.entry_point,
        })
        .collect();
    let mut job =
        GraphicsJob::new(stages, vec![ColorTarget::new(Format::R32G32B32A32Float, W, H)], case.points.len() as u32);
    job.topology = Topology::PatchList;
    job.patch_control_points = tess.input_control_points;
    let attr = p.plan.vertex_input.first().expect("POSITION attribute");
    assert_eq!(attr.vk_format, Some("VK_FORMAT_R32G32B32_SFLOAT"));
    job.vertex_attributes =
        vec![VertexAttribute { location: attr.location, binding: 0, format: Format::R32G32B32Float, offset: 0 }];
    let data = case.points.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
    job.vertex_buffers = vec![VertexBuffer { binding: 0, stride: 12, per_instance: false, data }];
    job.rasterizer.cull = case.cull;
    job.rasterizer.front_ccw = false;
    job.statistics = true;
    let r = ctx.run_graphics(&job).unwrap_or_else(|e| panic!("{}: graphics job failed: {e}", case.name));
    let mut fails: Vec<String> =
        ctx.take_validation_messages().into_iter().map(|m| format!("validation: {m}")).collect();
    let img = r.color.first().expect("colour target");
    let mut lit = 0;
    for y in 0..H {
        for x in 0..W {
            let at = ((y * W + x) * 16) as usize;
            let got: Vec<f32> = (0..4)
                .map(|c| {
                    let b = img.get(at + 4 * c..at + 4 * c + 4).expect("texel");
                    f32::from_le_bytes([b[0], b[1], b[2], b[3]])
                })
                .collect();
            let want = (case.expect)(x, y);
            lit += usize::from(want.is_some());
            let want = want.unwrap_or([0.0; 4]);
            if got.iter().zip(want).any(|(g, w)| (g - w).abs() > case.tolerance || g.is_nan()) {
                fails.push(format!("pixel ({x},{y}): got {got:?}, want {want:?}"));
            }
        }
    }
    let stats = r.stats.map(|s| {
        format!("{} patches, {} TES invocations", s.tess_control_shader_patches, s.tess_evaluation_shader_invocations)
    });
    eprintln!(
        "{} [{mode:?}]: {lit} pixels expected lit, {} mismatches; {}",
        case.name,
        fails.len(),
        stats.unwrap_or_default()
    );
    fails
}

#[test]
fn execute_tess_fixtures() {
    let ctx = match Context::for_test("execute_tess_fixtures", &ContextOptions { validation: true, device: None }) {
        Ok(Some(c)) => c,
        Ok(None) => return,
        Err(e) => panic!("context: {e}"),
    };
    if !ctx.features().tessellation_shader {
        eprintln!("SKIPPED execute_tess_fixtures: no tessellationShader");
        return;
    }
    let mut failed = Vec::new();
    let all = cases();
    for mode in [PatchConstantInvocations::First, PatchConstantInvocations::All] {
        for case in &all {
            let f = run_case(&ctx, case, mode);
            if !f.is_empty() {
                failed.push(format!(
                    "{} [{mode:?}]:\n  {}",
                    case.name,
                    f.iter().take(8).cloned().collect::<Vec<_>>().join("\n  ")
                ));
            }
        }
    }
    let teardown = ctx.finish();
    eprintln!("tessellation fixtures: {} pipelines x 2 patch-constant modes, {} failed", all.len(), failed.len());
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(teardown.is_empty(), "validation at teardown: {teardown:?}");
}
