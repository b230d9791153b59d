//! Pipeline specs against a fake backend: parsing, rejection matching with the real linker, the
//! draw path (job building, probes, untouched texels, skips, statuses).

use super::backend::*;
use super::draw::check_rejection;
use super::gfx::*;
use super::pipeline::{PipelineExpect, ProbeTarget};
use super::*;
use std::cell::RefCell;
use std::path::Path;

type Painter = Box<dyn Fn(&DrawJob<'_>) -> Result<DrawOutputs, String>>;

/// The real linker, a fake pipeline compiler and a fake device that "draws" with a closure.
struct GfxFake {
    compiled: Result<CompiledPipeline, PipelineFailure>,
    painter: Painter,
    messages: RefCell<Vec<String>>,
    draw_messages: Vec<String>,
    jobs: RefCell<usize>,
    caps: DeviceCaps,
}

impl GfxFake {
    fn new(compiled: Result<CompiledPipeline, PipelineFailure>, painter: Painter) -> GfxFake {
        GfxFake {
            compiled,
            painter,
            messages: RefCell::new(Vec::new()),
            draw_messages: Vec::new(),
            jobs: RefCell::new(0),
            caps: DeviceCaps::default(),
        }
    }
}

impl Backend for GfxFake {
    fn device_name(&self) -> String {
        "fake".into()
    }
    fn caps(&self) -> DeviceCaps {
        self.caps.clone()
    }
    fn compile(&self, _: &[u8], _: Option<&str>) -> Result<Compiled, CompileFailure> {
        Err(CompileFailure::Internal("compute is not faked here".into()))
    }
    fn run_compute(&self, _: &Job<'_>) -> Result<Outputs, String> {
        Err("no compute".into())
    }
    fn take_validation_messages(&self) -> Vec<String> {
        std::mem::take(&mut *self.messages.borrow_mut())
    }
    fn link(&self, stages: &[LinkStage<'_>], opts: &dxjit::link::LinkOptions) -> Result<(), LinkFailure> {
        link::link_containers(stages, opts).map(|_| ())
    }
    fn compile_pipeline(
        &self,
        stages: &[LinkStage<'_>],
        _: &dxjit::link::LinkOptions,
    ) -> Result<CompiledPipeline, PipelineFailure> {
        assert!(stages.iter().all(|s| s.container.starts_with(b"DXBC")));
        self.compiled.clone()
    }
    fn run_graphics(&self, job: &DrawJob<'_>) -> Result<DrawOutputs, String> {
        *self.jobs.borrow_mut() += 1;
        self.messages.borrow_mut().extend(self.draw_messages.iter().cloned());
        (self.painter)(job)
    }
}

fn shader(entry: &str) -> Compiled {
    Compiled {
        stage: "vertex",
        shader_record: None,
        spirv: vec![0x0723_0203, 1],
        entry_point: entry.into(),
        is_compute: false,
        workgroup_size: [0; 3],
        bindings: Vec::new(),
        push_constant_size: None,
        uses_descriptor_heaps: false,
        sample_count_spec_id: None,
        required_subgroup_size: None,
    }
}

fn pipeline() -> CompiledPipeline {
    CompiledPipeline {
        shaders: vec![(StageSlot::Vs, shader("main")), (StageSlot::Ps, shader("main"))],
        vertex_input: Vec::new(),
    }
}

/// A 4x4 RGBA32F image where every texel is `f(x, y)`.
fn image(f: impl Fn(u32, u32) -> [f32; 4]) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            for c in f(x, y) {
                out.extend_from_slice(&c.to_le_bytes());
            }
        }
    }
    out
}

const DRAWN: &str = r#"
description = "rowshare.vs -> rowshare_both.ps, a 2x2 square probed"
[pipeline]
vs = "fixtures/linkage/rowshare.vs_6_0.dxil"
ps = "fixtures/linkage/rowshare_both.ps_6_0.dxil"
draw = { count = 3 }

[[pipeline.target]]
format = "r32g32b32a32_float"
width = 4
height = 4
rest = "clear"

[[probe]]
x = 1
y = 1
width = 2
height = 2
f32 = [0.75, 1.0, 0.0, 1.0]
abs = 1e-5
"#;

fn parse(text: &str) -> Result<Spec, SpecError> {
    Spec::parse("t", Path::new("t.toml"), text)
}

fn run(backend: &dyn Backend, text: &str) -> SpecResult {
    let spec = parse(text).unwrap_or_else(|e| panic!("{e}"));
    run_spec(backend, &spec, &RunConfig::default())
}

fn square(x: u32, y: u32) -> [f32; 4] {
    if (1..3).contains(&x) && (1..3).contains(&y) {
        [0.75, 1.0, 0.0, 1.0]
    } else {
        [0.0; 4]
    }
}

#[test]
fn drawn_spec_passes_and_builds_the_job() {
    let fake = GfxFake::new(
        Ok(pipeline()),
        Box::new(|job| {
            assert_eq!(job.stages.len(), 2);
            assert_eq!(job.draw.count, 3);
            assert_eq!(job.topology, Topology::TriangleList);
            assert_eq!(job.rasterizer, RasterDesc::default());
            assert_eq!(job.targets.len(), 1);
            assert_eq!(job.targets[0].clear, Clear::Float([0.0; 4]));
            Ok(DrawOutputs { color: vec![image(square)], ..Default::default() })
        }),
    );
    let r = run(&fake, DRAWN);
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    assert_eq!(*fake.jobs.borrow(), 1);
}

#[test]
fn probes_name_the_wrong_pixel_and_stray_pixels_fail_rest_clear() {
    let wrong = GfxFake::new(
        Ok(pipeline()),
        Box::new(|_| {
            Ok(DrawOutputs {
                color: vec![image(|x, y| if (x, y) == (2, 2) { [0.5; 4] } else { square(x, y) })],
                ..Default::default()
            })
        }),
    );
    let r = run(&wrong, DRAWN);
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("probe[0] target 0 pixel (2,2)"), "{}", r.detail);
    let stray = GfxFake::new(
        Ok(pipeline()),
        Box::new(|_| {
            Ok(DrawOutputs {
                color: vec![image(|x, y| if (x, y) == (3, 0) { [1.0; 4] } else { square(x, y) })],
                ..Default::default()
            })
        }),
    );
    let r = run(&stray, DRAWN);
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("pixel (3,0)") && r.detail.contains("clear value"), "{}", r.detail);
}

#[test]
fn drawn_spec_statuses() {
    // No pipeline compiler in this build: linked, then skipped.
    let fake = GfxFake::new(Err(PipelineFailure::Unavailable("no lowering".into())), Box::new(|_| unreachable!()));
    let r = run(&fake, DRAWN);
    assert_eq!(r.status, Status::Skipped);
    assert!(r.detail.starts_with("linked; not drawn: no lowering"), "{}", r.detail);
    // Unsupported DXIL counts as a failure.
    let fake = GfxFake::new(
        Err(PipelineFailure::Compile(CompileFailure::Unsupported("dx.op x".into()))),
        Box::new(|_| unreachable!()),
    );
    assert_eq!(run(&fake, DRAWN).status, Status::CompileUnsupported);
    // A pipeline compiler that lost a stage.
    let mut short = pipeline();
    short.shaders.pop();
    let fake = GfxFake::new(Ok(short), Box::new(|_| unreachable!()));
    let r = run(&fake, DRAWN);
    assert!(r.status == Status::Fail && r.detail.contains("no ps shader"), "{}", r.detail);
    // Validation messages fail a drawn spec that would pass.
    let mut fake = GfxFake::new(
        Ok(pipeline()),
        Box::new(|_| Ok(DrawOutputs { color: vec![image(square)], ..Default::default() })),
    );
    fake.draw_messages = vec!["VUID-x: bad".into()];
    let r = run(&fake, DRAWN);
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("validation message"), "{}", r.detail);
}

#[test]
fn a_drawn_spec_requiring_fragment_barycentrics_is_skipped_by_name_without_them() {
    let text = DRAWN.replace("[pipeline]", "requires = [\"fragment_shader_barycentric\"]\n[pipeline]");
    let paint = || -> Painter { Box::new(|_| Ok(DrawOutputs { color: vec![image(square)], ..Default::default() })) };
    // Without the feature: linked (D3D12 would accept the PSO), then skipped naming it; nothing drawn.
    let fake = GfxFake::new(Ok(pipeline()), paint());
    let r = run(&fake, &text);
    assert_eq!(r.status, Status::Skipped);
    assert_eq!(r.detail, "linked; device lacks fragment_shader_barycentric");
    assert_eq!(*fake.jobs.borrow(), 0);
    // With it: drawn and probed as usual.
    let mut fake = GfxFake::new(Ok(pipeline()), paint());
    fake.caps.features.insert("fragment_shader_barycentric".into());
    let r = run(&fake, &text);
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    assert_eq!(*fake.jobs.borrow(), 1);
}

#[test]
fn a_drawn_spec_the_linker_rejects_fails() {
    let text = DRAWN.replace("rowshare_both", "rowshare_second");
    let fake = GfxFake::new(Ok(pipeline()), Box::new(|_| unreachable!()));
    let r = run(&fake, &text);
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("D3D12 accepts this pipeline; the linker rejected it"), "{}", r.detail);
}

const REJECTED: &str = r#"
expect = "rejected"
rule = "RegisterIndexMismatch"
stage = "pixel"
semantic = "COLOR0"
register = 1
rejections = 3
[pipeline]
vs = "fixtures/linkage/poslast.vs_6_0.dxil"
ps = "fixtures/linkage/posfirst.ps_6_0.dxil"
"#;

#[test]
fn rejection_specs_use_the_real_linker() {
    let fake = GfxFake::new(Ok(pipeline()), Box::new(|_| unreachable!()));
    let r = run(&fake, REJECTED);
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    assert!(r.detail.contains("COLOR0"), "{}", r.detail);
    // Each named field must agree with one rejection.
    for (from, to) in [
        ("RegisterIndexMismatch", "RegisterMaskMismatch"),
        ("register = 1", "register = 0"),
        ("\"COLOR0\"", "\"COLOR1\""),
        ("\"pixel\"", "\"vertex\""),
        ("rejections = 3", "rejections = 2"),
    ] {
        let r = run(&fake, &REJECTED.replace(from, to));
        assert_eq!(r.status, Status::Fail, "{to}");
    }
    // A pipeline that links fails a rejection spec.
    let r = run(&fake, &REJECTED.replace("posfirst", "nopos"));
    assert!(r.status == Status::Fail && r.detail.starts_with("linked, but D3D12 rejects"), "{}", r.detail);
    assert_eq!(*fake.jobs.borrow(), 0);
}

#[test]
fn semantic_names_match_with_or_without_index_zero() {
    let spec = parse(REJECTED).expect("spec");
    let Some(PipelineExpect::Rejected(want)) = spec.pipeline.map(|p| p.expect) else { panic!("rejection spec") };
    let r = dxjit::link::Rejection {
        rule: dxjit::link::Rule::RegisterIndexMismatch,
        stage: dxjit::link::Stage::Pixel,
        signature: dxjit::link::SignatureKind::Input,
        semantic_name: "Color".into(),
        semantic_index: 0,
        register: Some(1),
        other_stage: None,
        other_register: None,
        detail: String::new(),
    };
    let mut w = want.clone();
    w.count = None;
    assert!(check_rejection(&w, std::slice::from_ref(&r)).is_ok());
    w.semantic = Some("color".into());
    assert!(check_rejection(&w, std::slice::from_ref(&r)).is_ok());
    w.semantic = Some("COLOR1".into());
    assert!(check_rejection(&w, &[r])
        .unwrap_err()
        .contains("want RegisterIndexMismatch in the pixel shader for COLOR1"));
}

#[test]
fn pipeline_spec_errors() {
    let cases: &[(&str, &str, &str)] = &[
        ("vs = \"fixtures/linkage/rowshare.vs_6_0.dxil\"\n", "", "needs a `vs`"),
        (
            "draw = { count = 3 }\n",
            "draw = { count = 3 }\nhs = \"fixtures/tessellation/passthrough.hs_6_0.dxil\"\n",
            "come together",
        ),
        (
            "draw = { count = 3 }\n",
            "draw = { count = 3 }\ntopology = \"patch_list\"\ncontrol_points = 3\n",
            "hull/domain",
        ),
        ("draw = { count = 3 }\n", "", "needs `draw"),
        ("x = 1\ny = 1\n", "x = 3\ny = 3\n", "outside"),
        ("f32 = [0.75, 1.0, 0.0, 1.0]", "f32 = [0.75, 1.0, 0.0]", "16 bytes"),
        ("abs = 1e-5\n", "abs = 1e-5\ntarget = 1\n", "no target 1"),
        ("rest = \"clear\"", "rest = \"some\"", "\"clear\" or \"ignore\""),
        ("description", "rule = \"RegisterIndexMismatch\"\ndescription", "expect = \\\"rejected\\\""),
        ("draw = { count = 3 }\n", "draw = { count = 3 }\ncolour = 1\n", "unknown field"),
    ];
    for (from, to, want) in cases {
        let text = DRAWN.replace(from, to);
        assert_ne!(text, DRAWN, "{from}");
        let e = parse(&text).expect_err(want);
        assert!(e.to_string().contains(want.trim_matches('\\')) || format!("{e:?}").contains(want), "{want}: {e}");
    }
    // Rejection specs: a known rule, no probes, retype only there.
    let e = parse(&REJECTED.replace("RegisterIndexMismatch", "Frog")).expect_err("unknown rule");
    assert!(e.to_string().contains("unknown rule `Frog`"), "{e}");
    let e = parse(&format!("{REJECTED}\n[[probe]]\nx = 0\ny = 0\nu32 = [1]\n")).expect_err("probes");
    assert!(e.to_string().contains("draws nothing"), "{e}");
    let retyped = r#"vs = { shader = "fixtures/linkage/rowshare.vs_6_0.dxil", retype = [{ semantic = "TEXCOORD", type = "u32" }] }"#;
    assert!(parse(&REJECTED.replace("vs = \"fixtures/linkage/poslast.vs_6_0.dxil\"", retyped)).is_ok());
    let e = parse(&DRAWN.replace("vs = \"fixtures/linkage/rowshare.vs_6_0.dxil\"", retyped)).expect_err("retype");
    assert!(e.to_string().contains("rejection specs only"), "{e}");
    // A compute spec may not carry pipeline keys, and a pipeline spec no `shader`.
    assert!(parse("shader = \"fixtures/x.dxil\"\ndispatch = [1, 1, 1]\nrule = \"SemanticNotFound\"\n").is_err());
    assert!(parse(&format!("shader = \"fixtures/x.dxil\"\n{DRAWN}")).is_err());
}

#[test]
fn pipeline_state_is_parsed() {
    let text = r#"
[pipeline]
vs = "fixtures/tessellation/cp.vs_6_0.dxil"
hs = "fixtures/tessellation/passthrough.hs_6_0.dxil"
ds = "fixtures/tessellation/passthrough.ds_6_0.dxil"
ps = "fixtures/graphics/vcolor.ps_6_0.dxil"
topology = "patch_list"
control_points = 3
index_buffer = { u16 = [0, 1, 2] }
draw = { count = 3, instances = 2, base_vertex = 1 }

[pipeline.rasterizer]
cull = "back"
front_ccw = true

[[pipeline.input]]
semantic = "POSITION"
format = "R32G32B32_FLOAT"

[[pipeline.vertex_buffer]]
stride = 12
data = { f32 = [0.0, 0.0, 0.0] }

[[pipeline.target]]
format = "r32g32b32a32_uint"
width = 8
height = 8
clear = [1, 2, 3, 4]

[pipeline.depth]
format = "d24_unorm_s8_uint"
clear = 0.5
func = "greater_equal"

[[probe]]
target = "depth"
x = 7
y = 7
u32 = [0]

[[probe]]
target = "stencil"
x = 0
y = 0
u8 = [0]
"#;
    let spec = parse(text).unwrap_or_else(|e| panic!("{e}"));
    let p = spec.pipeline.expect("pipeline");
    assert!(p.is_tessellation() && !p.is_rejection());
    assert_eq!(p.topology, Topology::PatchList(3));
    assert_eq!(p.indices, Some(Indices::U16(vec![0, 1, 2])));
    assert_eq!((p.draw.instances, p.draw.base_vertex), (2, 1));
    assert_eq!(p.rasterizer, RasterDesc { cull: Cull::Back, front_ccw: true, wireframe: false, depth_clip: true });
    assert_eq!(p.input_layout[0].offset, None);
    assert_eq!(p.targets[0].clear, Clear::Uint([1, 2, 3, 4]));
    let d = p.depth.as_ref().expect("depth");
    assert_eq!((d.format, d.clear_depth, d.depth_func), (DepthFormat::D24UnormS8Uint, 0.5, CompareOp::GreaterEqual));
    let PipelineExpect::Drawn { probes, .. } = &p.expect else { panic!("drawn") };
    assert_eq!(probes[0].target, ProbeTarget::Depth);
    assert_eq!(probes[1].target, ProbeTarget::Stencil);
    assert_eq!(spec.shader, p.label());
}

#[test]
fn dont_care_components_are_not_compared_on_any_device() {
    // z and w differ from the expectation: a plain probe fails, `dont_care = "zw"` passes, and
    // a wrong x still fails.
    let painter = |zw: f32, x0: f32| {
        move |_: &DrawJob<'_>| {
            Ok(DrawOutputs {
                color: vec![image(move |x, y| {
                    let s = square(x, y);
                    if s[1] == 1.0 {
                        [x0, 1.0, zw, zw]
                    } else {
                        s
                    }
                })],
                ..Default::default()
            })
        }
    };
    let with = DRAWN.replace("abs = 1e-5", "abs = 1e-5\ndont_care = \"zw\"");
    let fake = GfxFake::new(Ok(pipeline()), Box::new(painter(7.0, 0.75)));
    assert_eq!(run(&fake, DRAWN).status, Status::Fail);
    let fake = GfxFake::new(Ok(pipeline()), Box::new(painter(7.0, 0.75)));
    let r = run(&fake, &with);
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    let fake = GfxFake::new(Ok(pipeline()), Box::new(painter(7.0, 0.5)));
    assert_eq!(run(&fake, &with).status, Status::Fail);
    // Indices work too; a component past the value is a spec error.
    assert!(parse(&DRAWN.replace("abs = 1e-5", "abs = 1e-5\ndont_care = [2, 3]")).is_ok());
    assert!(parse(&DRAWN.replace("abs = 1e-5", "abs = 1e-5\ndont_care = [4]")).is_err());
    assert!(parse(&DRAWN.replace("abs = 1e-5", "abs = 1e-5\ndont_care = \"q\"")).is_err());
}

#[test]
fn one_of_alternatives_are_named_and_checked() {
    let base = r#"
description = "t"
expect = "rejected"
[pipeline]
vs = "fixtures/linkage/rowshare.vs_6_0.dxil"
ps = "fixtures/linkage/rowshare_both.ps_6_0.dxil"
"#;
    let ok = format!(
        "{base}\n[[one_of]]\nname = \"a\"\nrule = \"SemanticNotFound\"\n[[one_of]]\nname = \"b\"\nexpect = \"pass\"\n"
    );
    let spec = parse(&ok).unwrap_or_else(|e| panic!("{e}"));
    let Some(PipelineExpect::Rejected(want)) = spec.pipeline.map(|p| p.expect) else { panic!("rejection spec") };
    assert_eq!(want.one_of.len(), 2);
    assert_eq!((want.one_of[0].name.as_str(), want.rule), ("a", dxjit::link::Rule::SemanticNotFound));
    assert!(want.one_of[1].reject.is_none());
    for bad in [
        format!("{base}\n[[one_of]]\nrule = \"SemanticNotFound\"\n"),
        format!("{base}\n[[one_of]]\nname = \"a\"\nrule = \"SemanticNotFound\"\n[[one_of]]\nname = \"a\"\nrule = \"SemanticNotFound\"\n"),
        format!("{base}\n[[one_of]]\nname = \"a\"\nexpect = \"pass\"\n"),
        format!("{base}\nrule = \"SemanticNotFound\"\n[[one_of]]\nname = \"a\"\nrule = \"SemanticNotFound\"\n"),
        format!("{base}\n[[one_of]]\nname = \"a\"\nrule = \"NoSuchRule\"\n"),
    ] {
        assert!(parse(&bad).is_err(), "{bad}");
    }
}

#[test]
fn statistics_are_requested_checked_and_skipped_without_a_query() {
    let text = format!(
        "{DRAWN}\n[[statistic]]\ncounter = \"c_invocations\"\nvalue = 2\n\
         [[statistic]]\ncounter = \"ps_invocations\"\nmin = 4\nmax = 8\nwhy = \"helpers may count\"\n"
    );
    let counted = |c: u64, ps: u64| -> Painter {
        Box::new(move |job| {
            assert!(job.statistics, "the job asks for statistics");
            Ok(DrawOutputs {
                color: vec![image(square)],
                statistics: Some(Statistics { values: vec![(Counter::CInvocations, c), (Counter::PsInvocations, ps)] }),
                ..Default::default()
            })
        })
    };
    let r = run(&GfxFake::new(Ok(pipeline()), counted(2, 4)), &text);
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    let r = run(&GfxFake::new(Ok(pipeline()), counted(3, 4)), &text);
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("statistic c_invocations: expected 2, got 3"), "{}", r.detail);
    assert!(r.detail.contains("counted: c_invocations 3, ps_invocations 4"), "{}", r.detail);
    let r = run(&GfxFake::new(Ok(pipeline()), counted(2, 9)), &text);
    assert!(r.detail.contains("statistic ps_invocations: expected 4..=8, got 9"), "{}", r.detail);
    // No query on the device: drawn and probed, then skipped by name.
    let none: Painter = Box::new(|_| Ok(DrawOutputs { color: vec![image(square)], ..Default::default() }));
    let r = run(&GfxFake::new(Ok(pipeline()), none), &text);
    assert_eq!(r.status, Status::Skipped, "{}", r.detail);
    assert!(r.detail.contains("pipelineStatisticsQuery"), "{}", r.detail);
    // Without [[statistic]] the job asks for none.
    let plain: Painter = Box::new(|job| {
        assert!(!job.statistics);
        Ok(DrawOutputs { color: vec![image(square)], ..Default::default() })
    });
    assert_eq!(run(&GfxFake::new(Ok(pipeline()), plain), DRAWN).status, Status::Pass);
}

#[test]
fn malformed_statistics_are_named() {
    for (body, want) in [
        ("counter = \"c_invocations\"", "needs `value`, `min` or `max`"),
        ("counter = \"triangles\"\nvalue = 1", "counter `triangles`: one of ia_vertices"),
        ("value = 1", "needs `counter`"),
        ("counter = \"c_invocations\"\nvalue = 1\nmin = 1", "`value` or `min`/`max`, not both"),
        ("counter = \"c_invocations\"\nmin = 3\nmax = 2", "`max` is below `min`"),
        ("counter = \"c_invocations\"\nvalue = -1", "`value` must be an unsigned integer"),
        ("counter = \"c_invocations\"\nvalue = 1\nexact = true", "unexpected key `exact`"),
    ] {
        let e = parse(&format!("{DRAWN}\n[[statistic]]\n{body}\n")).unwrap_err().to_string();
        assert!(e.contains("statistic[0]") && e.contains(want), "{body}\n-> {e}");
    }
}
