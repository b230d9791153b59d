//! Hull-shader patch-constant scheme: invocation 0 only (after a barrier)
//! vs. every TCS invocation (`PatchConstantInvocations::{First, All}`).
//!
//! For fixture pipelines (cp.vs → HS → DS → vcolor.ps, 16×16 target) it
//! reports the median over `DXJIT_BENCH_RUNS` (default 15) fresh pipelines
//! of the runtime's `pipeline_create` and `first_draw` times (lavapipe
//! JIT-compiles the shader variants at the first draw), for a 1-patch draw
//! (compile latency) and a `DXJIT_BENCH_PATCHES`-patch draw (default 20000;
//! execution). Run with `MESA_SHADER_CACHE_DISABLE=true`:
//!
//! ```text
//! MESA_SHADER_CACHE_DISABLE=true cargo bench -p dxjit-conformance --bench tess_patch_constants
//! ```

use std::time::Duration;

use dxjit::link::{InputElement, InputLayout, LinkOptions};
use dxjit::{compile_pipeline, CompileOptions, PatchConstantInvocations};
use dxjit_conformance::corpus::fixtures_root;
use dxjit_runtime::{
    ColorTarget, Context, ContextOptions, Format, GraphicsJob, ShaderStage, Stage, Topology, VertexAttribute,
    VertexBuffer,
};

fn env_num(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v.get(v.len() / 2).map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

struct Sample {
    create: Vec<Duration>,
    draw: Vec<Duration>,
}

fn run(
    ctx: &Context,
    hs: &str,
    ds: &str,
    points: &[[f32; 3]],
    patches: usize,
    mode: PatchConstantInvocations,
) -> (Duration, Duration) {
    let f = |n: &str| std::fs::read(fixtures_root().join(n)).expect("fixture");
    let (vs, h, d, ps) = (
        f("tessellation/cp.vs_6_0.dxil"),
        f(&format!("tessellation/{hs}.hs_6_0.dxil")),
        f(&format!("tessellation/{ds}.ds_6_0.dxil")),
        f("graphics/vcolor.ps_6_0.dxil"),
    );
    let layout = InputLayout {
        elements: vec![InputElement {
            semantic: "POSITION".into(),
            index: 0,
            format: "R32G32B32_FLOAT".into(),
            slot: 0,
            offset: Some(0),
            per_instance: false,
            step_rate: 0,
        }],
    };
    let link = LinkOptions { input_layout: Some(layout), ..LinkOptions::default() };
    let opts = CompileOptions { hull_patch_constants: mode, ..CompileOptions::default() };
    let p = compile_pipeline(&[&vs, &h, &d, &ps], &link, &opts).expect("compile");
    let tess = p.plan.tessellation.as_ref().expect("tessellation");
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
    let count = points.len() * patches;
    let mut job = GraphicsJob::new(stages, vec![ColorTarget::new(Format::R32G32B32A32Float, 16, 16)], count as u32);
    job.topology = Topology::PatchList;
    job.patch_control_points = tess.input_control_points;
    let loc = p.plan.vertex_input.first().map_or(0, |a| a.location);
    job.vertex_attributes =
        vec![VertexAttribute { location: loc, binding: 0, format: Format::R32G32B32Float, offset: 0 }];
    let data: Vec<u8> = (0..patches).flat_map(|_| points.iter()).flatten().flat_map(|v| v.to_le_bytes()).collect();
    job.vertex_buffers = vec![VertexBuffer { binding: 0, stride: 12, per_instance: false, data }];
    let r = ctx.run_graphics(&job).expect("draw");
    (r.timing.pipeline_create, r.timing.first_draw)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let ctx = match Context::new(&ContextOptions { validation: false, device: None }) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("SKIPPED tess_patch_constants: {e}");
            return;
        }
    };
    let runs = env_num("DXJIT_BENCH_RUNS", 15);
    let many = env_num("DXJIT_BENCH_PATCHES", 20000);
    let tri = [[-0.75, 0.75, 0.25], [0.75, 0.75, 0.25], [-0.75, 0.0, 0.25]];
    let quad = [[-0.75, 0.75, 0.0], [0.75, 0.75, 0.0], [-0.75, -0.75, 0.0], [0.75, -0.75, 0.0]];
    let cases: [(&str, &str, &[[f32; 3]]); 4] = [
        ("passthrough", "passthrough", &tri),
        ("pc_outputpatch", "pc_outputpatch", &tri),
        ("pc_center", "pc_center", &tri),
        ("quad_fracodd_ccw", "quad_fracodd_ccw", &quad),
    ];
    println!("device: {}", ctx.device_name());
    println!("{:<18} {:<6} {:>8} {:>12} {:>16}", "pipeline", "mode", "patches", "create ms", "first draw ms");
    for (hs, ds, points) in cases {
        for patches in [1, many] {
            // Interleaved, alternating order: drift on a shared machine hits both modes alike.
            let modes = [PatchConstantInvocations::First, PatchConstantInvocations::All];
            let mut s: Vec<Sample> = modes.iter().map(|_| Sample { create: Vec::new(), draw: Vec::new() }).collect();
            for i in 0..runs {
                for k in [i % 2, 1 - i % 2] {
                    let (c, d) = run(&ctx, hs, ds, points, patches, modes[k]);
                    s[k].create.push(c);
                    s[k].draw.push(d);
                }
            }
            for (mode, s) in modes.iter().zip(s) {
                println!(
                    "{hs:<18} {:<6} {patches:>8} {:>12.3} {:>16.3}",
                    format!("{mode:?}"),
                    median(s.create),
                    median(s.draw)
                );
            }
        }
    }
}
