//! Graphics jobs on a real Vulkan device (lavapipe by default) with validation on. Every test reports
//! itself SKIPPED and passes when no device exists (or when the device lacks the feature it needs).
//!
//! Clip-space conventions are D3D's (see the `graphics` module docs): +Y is up on the target, so a pixel
//! centre `(x + 0.5, y + 0.5)` of a `w`×`h` target is at NDC `((x + 0.5) / w * 2 - 1, 1 - (y + 0.5) / h * 2)`.

mod common;

use common::*;
use dxjit_runtime::{
    Blend, BlendFactor, BlendOp, BoundResource, ClearColor, ColorTarget, CompareOp, Context, CullMode,
    DepthStencilTarget, Draw, Format, GraphicsJob, GraphicsResult, IndexBuffer, ResourceDesc, RuntimeError,
    ShaderStage, Stage, Stencil, StencilFace, StencilOp, Topology, TransformFeedback, VertexAttribute, VertexBuffer,
    Viewport, XfbBuffer,
};

/// Assembles every shader, then creates the context; `None` when the test is skipped.
fn setup_many(test: &str, names: &[&str]) -> Option<(Context, Vec<Vec<u32>>)> {
    let mut words = Vec::new();
    for n in names {
        words.push(assemble(test, n)?);
    }
    let ctx = context(test)?;
    Some((ctx, words))
}

fn stage(stage: Stage, spirv: &[u32]) -> ShaderStage<'_> {
    ShaderStage { stage, spirv, entry_point: "main" }
}

fn vec4s(v: &[[f32; 4]]) -> Vec<u8> {
    v.iter().flatten().flat_map(|x| x.to_le_bytes()).collect()
}

/// A vertex buffer of vec4 positions at binding 0, read by location 0.
fn positions(job: &mut GraphicsJob<'_>, points: &[[f32; 4]]) {
    job.vertex_buffers = vec![VertexBuffer { binding: 0, stride: 16, per_instance: false, data: vec4s(points) }];
    job.vertex_attributes =
        vec![VertexAttribute { location: 0, binding: 0, format: Format::R32G32B32A32Float, offset: 0 }];
}

fn push_color(c: [f32; 4]) -> Vec<u8> {
    f32s(&c)
}

fn rgba8(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// NDC of the centre of pixel (x, y) plus a sub-pixel offset, D3D orientation.
fn ndc(x: f32, y: f32, w: u32, h: u32) -> [f32; 2] {
    [x / w as f32 * 2.0 - 1.0, 1.0 - y / h as f32 * 2.0]
}

/// Barycentric coordinates of `p` in the triangle `t` (any winding).
fn barycentric(p: [f32; 2], t: &[[f32; 2]; 3]) -> [f32; 3] {
    let [a, b, c] = *t;
    let det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
    let l0 = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / det;
    let l1 = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / det;
    [l0, l1, 1.0 - l0 - l1]
}

fn inside(p: [f32; 2], t: &[[f32; 2]; 3]) -> bool {
    barycentric(p, t).iter().all(|l| *l >= 0.0)
}

/// Coverage of pixel (x, y) by any of `tris`: `Some(true)` when the whole pixel neighbourhood of the
/// centre is inside, `Some(false)` when it is entirely outside, `None` near an edge (not checked).
fn coverage(x: u32, y: u32, w: u32, h: u32, tris: &[[[f32; 2]; 3]]) -> Option<bool> {
    let offsets = [(0.5, 0.5), (0.05, 0.05), (0.95, 0.05), (0.05, 0.95), (0.95, 0.95)];
    let hits: Vec<bool> = offsets
        .iter()
        .map(|(dx, dy)| tris.iter().any(|t| inside(ndc(x as f32 + dx, y as f32 + dy, w, h), t)))
        .collect();
    if hits.iter().all(|h| *h) {
        Some(true)
    } else if hits.iter().all(|h| !*h) {
        Some(false)
    } else {
        None
    }
}

fn texel(img: &[u8], w: u32, x: u32, y: u32, bpt: usize) -> &[u8] {
    let i = (y * w + x) as usize * bpt;
    &img[i..i + bpt]
}

/// Checks every non-edge pixel of an RGBA8 image: `on` inside `tris`, `off` outside. Returns how many
/// pixels were inside.
fn check_triangles(img: &[u8], w: u32, h: u32, tris: &[[[f32; 2]; 3]], on: [u8; 4], off: [u8; 4]) -> usize {
    assert_eq!(img.len(), (w * h * 4) as usize);
    let mut n = 0;
    for y in 0..h {
        for x in 0..w {
            let got = texel(img, w, x, y, 4);
            match coverage(x, y, w, h, tris) {
                Some(true) => {
                    n += 1;
                    assert_eq!(got, on, "pixel ({x}, {y}) should be covered");
                }
                Some(false) => assert_eq!(got, off, "pixel ({x}, {y}) should be empty"),
                None => {}
            }
        }
    }
    n
}

fn run(ctx: &Context, job: &GraphicsJob<'_>) -> GraphicsResult {
    ctx.run_graphics(job).unwrap_or_else(|e| panic!("graphics job failed: {e}"))
}

// (1) Full-screen triangle from VertexIndex, constant colour from push constants: every pixel exact.
#[test]
fn fullscreen_triangle_constant_color() {
    let Some((ctx, s)) = setup_many("fullscreen_triangle_constant_color", &["vs_fullscreen", "ps_push_color"]) else {
        return;
    };
    let (w, h) = (17, 13);
    let color = [0.2, 0.4, 0.6, 1.0];
    let mut job = GraphicsJob::new(
        vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])],
        vec![ColorTarget::new(Format::R8G8B8A8Unorm, w, h)],
        3,
    );
    job.push_constants = push_color(color);
    job.statistics = true;
    let r = run(&ctx, &job);
    assert_eq!(r.color.len(), 1);
    let expected: Vec<u8> = (0..w * h).flat_map(|_| [51u8, 102, 153, 255]).collect();
    assert_eq!(r.color[0], expected);
    assert!(r.depth.is_none() && r.stencil.is_none() && r.xfb.is_empty());
    if ctx.features().core.pipeline_statistics_query != 0 {
        let stats = r.stats.expect("statistics were requested and are supported");
        assert_eq!(stats.input_assembly_vertices, 3, "{stats:?}");
        assert_eq!(stats.input_assembly_primitives, 1, "{stats:?}");
        assert_eq!(stats.vertex_shader_invocations, 3, "{stats:?}");
        assert!(stats.fragment_shader_invocations >= u64::from(w * h), "{stats:?}");
    }
    eprintln!(
        "fullscreen_triangle_constant_color on {}: pipeline creation {:?}, first draw {:?}",
        ctx.device_name(),
        r.timing.pipeline_create,
        r.timing.first_draw
    );
    // A second run of the same job works on the same context.
    let r2 = run(&ctx, &job);
    assert_eq!(r2.color[0], expected);
    assert_clean(ctx);
}

// (2) Vertex buffers and input layout: per-vertex position + UNORM8 colour, per-instance offset, 2 instances.
#[test]
fn vertex_buffers_instanced() {
    let Some((ctx, s)) = setup_many("vertex_buffers_instanced", &["vs_attr", "ps_color"]) else { return };
    let (w, h) = (32, 32);
    // Top-left quadrant triangle (NDC +Y up: y = 1 is the top row).
    let tri = [[-1.0f32, 1.0], [0.0, 1.0], [-1.0, 0.0]];
    let colors: [[u8; 4]; 3] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]];
    let mut per_vertex = Vec::new();
    for (p, c) in tri.iter().zip(&colors) {
        per_vertex.extend(f32s(p));
        per_vertex.extend(c);
    }
    let offsets: [[f32; 2]; 2] = [[0.0, 0.0], [1.0, -1.0]];
    let per_instance: Vec<u8> = offsets.iter().flat_map(|o| f32s(o)).collect();
    let mut job = GraphicsJob::new(
        vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])],
        vec![ColorTarget::new(Format::R8G8B8A8Unorm, w, h)],
        3,
    );
    job.vertex_buffers = vec![
        VertexBuffer { binding: 0, stride: 12, per_instance: false, data: per_vertex },
        VertexBuffer { binding: 3, stride: 8, per_instance: true, data: per_instance },
    ];
    job.vertex_attributes = vec![
        VertexAttribute { location: 0, binding: 0, format: Format::R32G32Float, offset: 0 },
        VertexAttribute { location: 1, binding: 0, format: Format::R8G8B8A8Unorm, offset: 8 },
        VertexAttribute { location: 2, binding: 3, format: Format::R32G32Float, offset: 0 },
    ];
    job.draw = Draw::new(3).instances(2);
    let r = run(&ctx, &job);
    let img = &r.color[0];
    let mut covered = [0usize; 2];
    for y in 0..h {
        for x in 0..w {
            let got = texel(img, w, x, y, 4);
            let centre = ndc(x as f32 + 0.5, y as f32 + 0.5, w, h);
            let mut expected = None;
            for (i, o) in offsets.iter().enumerate() {
                let t = tri.map(|p| [p[0] + o[0], p[1] + o[1]]);
                match coverage(x, y, w, h, &[t]) {
                    Some(true) => {
                        covered[i] += 1;
                        let l = barycentric(centre, &t);
                        let mut c = [0.0f32; 4];
                        for (k, comp) in c.iter_mut().enumerate() {
                            *comp = (0..3).map(|v| l[v] * f32::from(colors[v][k]) / 255.0).sum();
                        }
                        expected = Some(Some(rgba8(c)));
                    }
                    Some(false) => {}
                    None => expected = Some(None),
                }
            }
            match expected {
                Some(Some(e)) => {
                    for k in 0..4 {
                        assert!(
                            got[k].abs_diff(e[k]) <= 2,
                            "pixel ({x}, {y}) component {k}: got {got:?}, expected {e:?}"
                        );
                    }
                }
                Some(None) => {}
                None => assert_eq!(got, [0, 0, 0, 0], "pixel ({x}, {y}) should be empty"),
            }
        }
    }
    // Instance 0 lands in the top-left quadrant (rows 0..16), instance 1 in the bottom-right one.
    assert!(covered[0] > 80 && covered[1] > 80, "{covered:?}");
    let corner = texel(img, w, 0, 0, 4);
    assert!(corner[0] > 200 && corner[1] < 20 && corner[2] < 20, "the red vertex is at the top-left: {corner:?}");
    assert_eq!(texel(img, w, 1, 30, 4), [0, 0, 0, 0], "bottom-left quadrant is empty");
    assert_clean(ctx);
}

// (3) Index buffers: u16 list, u32 list with a base vertex, u32 strip with primitive restart.
#[test]
fn index_buffers_u16_u32() {
    let Some((ctx, s)) = setup_many("index_buffers_u16_u32", &["vs_passthrough", "ps_push_color"]) else { return };
    let (w, h) = (32, 32);
    let color = [1.0, 0.0, 1.0, 1.0];
    let quad = |x0: f32, y0: f32, x1: f32, y1: f32| {
        // Bottom-left, bottom-right, top-left, top-right.
        [[x0, y0, 0.0, 1.0], [x1, y0, 0.0, 1.0], [x0, y1, 0.0, 1.0], [x1, y1, 0.0, 1.0]]
    };
    let tris_of = |q: &[[f32; 4]; 4]| {
        let p = q.map(|v| [v[0], v[1]]);
        [[p[0], p[1], p[2]], [p[2], p[1], p[3]]]
    };
    let a = quad(-0.5, -0.5, 0.5, 0.5);
    let b = quad(-1.0, 0.5, -0.5, 1.0);
    let far = quad(5.0, 5.0, 6.0, 6.0);
    let job_with = |verts: Vec<[f32; 4]>, ib: IndexBuffer, draw: Draw, topology: Topology, restart: bool| {
        let mut job = GraphicsJob::new(
            vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])],
            vec![ColorTarget::new(Format::R8G8B8A8Unorm, w, h)],
            0,
        );
        positions(&mut job, &verts);
        job.index_buffer = Some(ib);
        job.draw = draw;
        job.topology = topology;
        job.primitive_restart = restart;
        job.push_constants = push_color(color);
        job
    };
    let on = rgba8(color);

    // u16 triangle list.
    let r = run(
        &ctx,
        &job_with(a.to_vec(), IndexBuffer::U16(vec![0, 1, 2, 2, 1, 3]), Draw::new(6), Topology::TriangleList, false),
    );
    assert_eq!(check_triangles(&r.color[0], w, h, &tris_of(&a), on, [0; 4]), 256);

    // u32 list with vertex_offset 4: vertices 0..4 are far away and never used.
    let verts: Vec<[f32; 4]> = far.iter().chain(&b).copied().collect();
    let draw = Draw { vertex_offset: 4, ..Draw::new(6) };
    let r = run(&ctx, &job_with(verts, IndexBuffer::U32(vec![0, 1, 2, 2, 1, 3]), draw, Topology::TriangleList, false));
    assert_eq!(check_triangles(&r.color[0], w, h, &tris_of(&b), on, [0; 4]), 64);

    // u32 strip, two quads separated by a strip cut; first_index skips a leading garbage index.
    let verts: Vec<[f32; 4]> = a.iter().chain(&b).copied().collect();
    let draw = Draw { first: 1, ..Draw::new(9) };
    let indices = vec![7, 0, 1, 2, 3, u32::MAX, 4, 5, 6, 7];
    let r = run(&ctx, &job_with(verts, IndexBuffer::U32(indices), draw, Topology::TriangleStrip, true));
    let mut tris = tris_of(&a).to_vec();
    tris.extend(tris_of(&b));
    assert_eq!(check_triangles(&r.color[0], w, h, &tris, on, [0; 4]), 256 + 64);
    assert_clean(ctx);
}

// (4) Two colour targets with different formats: RGBA8 unorm + R32 uint.
#[test]
fn two_color_targets() {
    let Some((ctx, s)) = setup_many("two_color_targets", &["vs_fullscreen", "ps_mrt"]) else { return };
    let (w, h) = (20, 11);
    let mut t1 = ColorTarget::new(Format::R32Uint, w, h);
    t1.clear = ClearColor::Uint([0xDEAD_BEEF, 0, 0, 0]);
    let job = GraphicsJob::new(
        vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])],
        vec![ColorTarget::new(Format::R8G8B8A8Unorm, w, h), t1],
        3,
    );
    let r = run(&ctx, &job);
    let expected0: Vec<u8> = (0..w * h).flat_map(|_| [51u8, 102, 153, 255]).collect();
    assert_eq!(r.color[0], expected0);
    let expected1: Vec<u32> = (0..h).flat_map(|y| (0..w).map(move |x| x + 1000 * y)).collect();
    assert_eq!(to_u32s(&r.color[1]), expected1);
    assert_clean(ctx);
}

// (5a) Depth test + depth write with FragDepth export.
#[test]
fn depth_test_and_frag_depth_export() {
    let Some((ctx, s)) = setup_many("depth_test_and_frag_depth_export", &["vs_fullscreen", "ps_depth"]) else { return };
    let (w, h) = (16, 4);
    for depth_write in [true, false] {
        let mut target = ColorTarget::new(Format::R8G8B8A8Unorm, w, h);
        target.clear = ClearColor::Float([1.0, 0.0, 0.0, 1.0]);
        let mut job =
            GraphicsJob::new(vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])], vec![target], 3);
        let mut ds = DepthStencilTarget::new(Format::D32Float, w, h);
        ds.clear_depth = 0.5;
        ds.depth_write = depth_write;
        job.depth_stencil = Some(ds);
        let r = run(&ctx, &job);
        let depth = to_f32s(r.depth.as_ref().expect("depth comes back"));
        assert!(r.stencil.is_none());
        for y in 0..h {
            for x in 0..w {
                let i = (y * w + x) as usize;
                let frag = (x as f32 + 0.5) / 16.0;
                let passes = frag < 0.5;
                let want_color = if passes { [0, 255, 0, 255] } else { [255, 0, 0, 255] };
                assert_eq!(texel(&r.color[0], w, x, y, 4), want_color, "colour at ({x}, {y})");
                let want_depth = if passes && depth_write { frag } else { 0.5 };
                assert_eq!(depth[i], want_depth, "depth at ({x}, {y}), depth_write {depth_write}");
            }
        }
    }
    assert_clean(ctx);
}

/// Runs `job` with every depth/stencil format with stencil that the device supports.
fn with_stencil_formats(ctx: &Context, job: &mut GraphicsJob<'_>) -> Vec<(Format, GraphicsResult)> {
    let mut out = Vec::new();
    for format in [Format::D24UnormS8Uint, Format::D32FloatS8Uint] {
        if let Some(ds) = job.depth_stencil.as_mut() {
            ds.format = format;
        }
        match ctx.run_graphics(job) {
            Ok(r) => out.push((format, r)),
            Err(RuntimeError::FormatUnsupported { .. }) => eprintln!("{format:?} is not supported"),
            Err(e) => panic!("stencil job with {format:?}: {e}"),
        }
    }
    out
}

// (5b) Stencil test: equal-to-reference passes and increments, a failing reference zeroes.
#[test]
fn stencil_test() {
    let Some((ctx, s)) = setup_many("stencil_test", &["vs_passthrough", "ps_push_color"]) else { return };
    let (w, h) = (16, 8);
    // Left half of the target.
    let left = [[-1.0, -1.0, 0.0, 1.0], [0.0, -1.0, 0.0, 1.0], [-1.0, 1.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0]];
    let color = [0.0, 0.0, 1.0, 1.0];
    for (reference, left_stencil, left_color) in [(0x0F, 0x10, rgba8(color)), (0x0E, 0x00, [0u8; 4])] {
        let mut job = GraphicsJob::new(
            vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])],
            vec![ColorTarget::new(Format::R8G8B8A8Unorm, w, h)],
            4,
        );
        job.topology = Topology::TriangleStrip;
        positions(&mut job, &left);
        job.push_constants = push_color(color);
        let face = StencilFace {
            fail: StencilOp::Zero,
            depth_fail: StencilOp::Keep,
            pass: StencilOp::IncrSat,
            compare: CompareOp::Equal,
        };
        let mut ds = DepthStencilTarget::new(Format::D24UnormS8Uint, w, h);
        ds.depth_test = false;
        ds.clear_stencil = 0x0F;
        ds.stencil = Some(Stencil { front: face, back: face, read_mask: 0xFF, write_mask: 0xFF, reference });
        job.depth_stencil = Some(ds);
        let results = with_stencil_formats(&ctx, &mut job);
        if results.is_empty() {
            eprintln!("SKIPPED stencil_test: no depth/stencil format with stencil");
            return;
        }
        for (format, r) in results {
            let stencil = r.stencil.as_ref().expect("stencil comes back");
            assert_eq!(stencil.len(), (w * h) as usize);
            // Depth was cleared to 1.0 and never written.
            let depth = to_u32s(r.depth.as_ref().expect("depth comes back"));
            let one = if format == Format::D24UnormS8Uint { 0x00FF_FFFF } else { 1.0f32.to_bits() };
            assert!(depth.iter().all(|d| *d == one), "{format:?} depth {:#x}", depth[0]);
            for y in 0..h {
                for x in 0..w {
                    let (want_s, want_c) = if x < w / 2 { (left_stencil, left_color) } else { (0x0F, [0; 4]) };
                    let at = format!("({x}, {y}), {format:?}, reference {reference:#x}");
                    assert_eq!(stencil[(y * w + x) as usize], want_s, "stencil at {at}");
                    assert_eq!(texel(&r.color[0], w, x, y, 4), want_c, "colour at {at}");
                }
            }
        }
    }
    assert_clean(ctx);
}

// (5c) Stencil export from the fragment shader (VK_EXT_shader_stencil_export), no colour targets.
#[test]
fn stencil_export() {
    let Some((ctx, s)) = setup_many("stencil_export", &["vs_fullscreen", "ps_stencil_export"]) else { return };
    if !ctx.features().shader_stencil_export {
        eprintln!("SKIPPED stencil_export: no VK_EXT_shader_stencil_export");
        return;
    }
    let (w, h) = (24, 3);
    let mut job = GraphicsJob::new(vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])], vec![], 3);
    let replace = StencilFace { pass: StencilOp::Replace, ..Default::default() };
    let mut ds = DepthStencilTarget::new(Format::D24UnormS8Uint, w, h);
    ds.depth_compare = CompareOp::Always;
    ds.stencil = Some(Stencil { front: replace, back: replace, read_mask: 0xFF, write_mask: 0xFF, reference: 0 });
    job.depth_stencil = Some(ds);
    let results = with_stencil_formats(&ctx, &mut job);
    if results.is_empty() {
        eprintln!("SKIPPED stencil_export: no depth/stencil format with stencil");
        return;
    }
    for (format, r) in results {
        assert!(r.color.is_empty());
        let expected: Vec<u8> = (0..h).flat_map(|_| (0..w).map(|x| x as u8)).collect();
        assert_eq!(r.stencil.expect("stencil"), expected, "{format:?}");
    }
    assert_clean(ctx);
}

// (6a) Geometry shader expanding points to quads.
#[test]
fn geometry_shader_points_to_quads() {
    let Some((ctx, s)) =
        setup_many("geometry_shader_points_to_quads", &["vs_passthrough", "gs_point_quad", "ps_push_color"])
    else {
        return;
    };
    if !ctx.features().geometry_shader {
        eprintln!("SKIPPED geometry_shader_points_to_quads: no geometryShader");
        return;
    }
    let (w, h) = (32, 32);
    let color = [1.0, 1.0, 0.0, 1.0];
    let mut job = GraphicsJob::new(
        vec![stage(Stage::Vertex, &s[0]), stage(Stage::Geometry, &s[1]), stage(Stage::Fragment, &s[2])],
        vec![ColorTarget::new(Format::R8G8B8A8Unorm, w, h)],
        2,
    );
    job.topology = Topology::PointList;
    positions(&mut job, &[[-0.5, 0.5, 0.0, 1.0], [0.5, -0.5, 0.0, 1.0]]);
    job.push_constants = push_color(color);
    job.statistics = true;
    let r = run(&ctx, &job);
    // Quad 1: NDC x in [-0.75, -0.25], y in [0.25, 0.75] = pixels x 4..12, rows 4..12 (top half).
    // Quad 2: pixels x 20..28, rows 20..28.
    for y in 0..h {
        for x in 0..w {
            let q1 = (4..12).contains(&x) && (4..12).contains(&y);
            let q2 = (20..28).contains(&x) && (20..28).contains(&y);
            let want = if q1 || q2 { rgba8(color) } else { [0; 4] };
            assert_eq!(texel(&r.color[0], w, x, y, 4), want, "pixel ({x}, {y})");
        }
    }
    if let Some(stats) = r.stats {
        assert_eq!(stats.geometry_shader_invocations, 2, "{stats:?}");
        assert_eq!(stats.geometry_shader_primitives, 4, "{stats:?}");
    }
    assert_clean(ctx);
}

// (6b) Geometry shader writing Layer into a 2-layer target (layered rendering).
#[test]
fn geometry_shader_layered_render() {
    let Some((ctx, s)) = setup_many("geometry_shader_layered_render", &["vs_fullscreen", "gs_layer", "ps_flat_color"])
    else {
        return;
    };
    if !ctx.features().geometry_shader {
        eprintln!("SKIPPED geometry_shader_layered_render: no geometryShader");
        return;
    }
    let (w, h) = (8, 8);
    let mut target = ColorTarget::new(Format::R8G8B8A8Unorm, w, h);
    target.layers = 2;
    target.clear = ClearColor::Float([0.0, 1.0, 0.0, 1.0]);
    let mut job = GraphicsJob::new(
        vec![stage(Stage::Vertex, &s[0]), stage(Stage::Geometry, &s[1]), stage(Stage::Fragment, &s[2])],
        vec![target],
        3,
    );
    job.layered_render = true;
    let r = run(&ctx, &job);
    let layer = (w * h * 4) as usize;
    assert_eq!(r.color[0].len(), 2 * layer);
    let red: Vec<u8> = (0..w * h).flat_map(|_| [255u8, 0, 0, 255]).collect();
    let blue: Vec<u8> = (0..w * h).flat_map(|_| [0u8, 0, 255, 255]).collect();
    assert_eq!(&r.color[0][..layer], red.as_slice(), "layer 0");
    assert_eq!(&r.color[0][layer..], blue.as_slice(), "layer 1");

    // Without layered rendering only layer 0 is drawn (both invocations land there); layer 1 keeps its clear.
    job.layered_render = false;
    let r = run(&ctx, &job);
    let green: Vec<u8> = (0..w * h).flat_map(|_| [0u8, 255, 0, 255]).collect();
    assert_ne!(&r.color[0][..layer], green.as_slice(), "layer 0 is drawn");
    assert_eq!(&r.color[0][layer..], green.as_slice(), "layer 1 is only cleared");
    assert_clean(ctx);
}

/// Runs a pass-through tessellation job on `patch` (vec4 control points) and returns the image.
fn tessellate(
    ctx: &Context,
    s: &[Vec<u32>],
    tcs: usize,
    tes: usize,
    patch: &[[f32; 4]],
    w: u32,
    h: u32,
) -> GraphicsResult {
    let mut job = GraphicsJob::new(
        vec![
            stage(Stage::Vertex, &s[0]),
            stage(Stage::TessControl, &s[tcs]),
            stage(Stage::TessEval, &s[tes]),
            stage(Stage::Fragment, &s[1]),
        ],
        vec![ColorTarget::new(Format::R8G8B8A8Unorm, w, h)],
        patch.len() as u32,
    );
    job.topology = Topology::PatchList;
    job.patch_control_points = patch.len() as u32;
    positions(&mut job, patch);
    job.push_constants = push_color([0.0, 1.0, 1.0, 1.0]);
    job.statistics = true;
    run(ctx, &job)
}

// (7) Tessellation: pass-through TCS (3 and 4 output control points) + TES for triangles and quads.
#[test]
fn tessellation_triangles_and_quads() {
    let names = ["vs_passthrough", "ps_push_color", "tcs_passthrough_3", "tes_tri", "tcs_passthrough_4", "tes_quad"];
    let Some((ctx, s)) = setup_many("tessellation_triangles_and_quads", &names) else { return };
    if !ctx.features().tessellation_shader {
        eprintln!("SKIPPED tessellation_triangles_and_quads: no tessellationShader");
        return;
    }
    let (w, h) = (32, 32);
    let on = [0, 255, 255, 255];

    // Triangle patch: bottom-left, bottom-right, top-left corners of the target.
    let tri = [[-1.0, -1.0, 0.0, 1.0], [1.0, -1.0, 0.0, 1.0], [-1.0, 1.0, 0.0, 1.0]];
    let r = tessellate(&ctx, &s, 2, 3, &tri, w, h);
    let t2 = tri.map(|p| [p[0], p[1]]);
    let n = check_triangles(&r.color[0], w, h, &[t2], on, [0; 4]);
    assert!(n > 400, "{n} pixels covered");
    assert_eq!(texel(&r.color[0], w, 0, 31, 4), on, "bottom-left corner is covered");
    assert_eq!(texel(&r.color[0], w, 31, 0, 4), [0; 4], "top-right corner is empty");
    if let Some(stats) = r.stats {
        assert_eq!(stats.tess_control_shader_patches, 1, "{stats:?}");
        // Levels 3 (outer and inner): an outer ring of 9 domain points around one inner triangle
        // (3 points, not subdivided) = 12; the TES runs at least once per point.
        assert!(stats.tess_evaluation_shader_invocations >= 12, "{stats:?}");
    }

    // Quad patch: the centre square NDC [-0.5, 0.5]^2 = pixels 8..24.
    let quad = [[-0.5, -0.5, 0.0, 1.0], [0.5, -0.5, 0.0, 1.0], [0.5, 0.5, 0.0, 1.0], [-0.5, 0.5, 0.0, 1.0]];
    let r = tessellate(&ctx, &s, 4, 5, &quad, w, h);
    for y in 0..h {
        for x in 0..w {
            let inside = (8..24).contains(&x) && (8..24).contains(&y);
            assert_eq!(texel(&r.color[0], w, x, y, 4), if inside { on } else { [0; 4] }, "pixel ({x}, {y})");
        }
    }
    if let Some(stats) = r.stats {
        assert_eq!(stats.tess_control_shader_patches, 1, "{stats:?}");
        // Levels 3: a 4x4 grid of domain points.
        assert!(stats.tess_evaluation_shader_invocations >= 16, "{stats:?}");
    }
    assert_clean(ctx);
}

// (7b) Tessellation into isolines: levels 3 = three lines (v = 0, 1/3, 2/3) of three segments each.
#[test]
fn tessellation_isolines() {
    let names = ["vs_passthrough", "ps_push_color", "tcs_passthrough_4", "tes_isolines"];
    let Some((ctx, s)) = setup_many("tessellation_isolines", &names) else { return };
    if !ctx.features().tessellation_shader {
        eprintln!("SKIPPED tessellation_isolines: no tessellationShader");
        return;
    }
    let (w, h) = (32, 32);
    // u spans NDC x -0.5..0.5 (pixels 8..24); v = 0, 1/3, 2/3 land on the centres of rows 25, 19 and 13.
    let (bottom, top) = (-0.59375f32, -0.59375 + 1.125);
    let quad = [[-0.5, bottom, 0.0, 1.0], [0.5, bottom, 0.0, 1.0], [0.5, top, 0.0, 1.0], [-0.5, top, 0.0, 1.0]];
    let r = tessellate(&ctx, &s, 2, 3, &quad, w, h);
    let on = [0, 255, 255, 255];
    for y in 0..h {
        for x in 0..w {
            let px = texel(&r.color[0], w, x, y, 4);
            let line_row = [25, 19, 13].contains(&y);
            if line_row && (9..23).contains(&x) {
                assert_eq!(px, on, "line pixel ({x}, {y})");
            } else if !line_row || !(7..25).contains(&x) {
                assert_eq!(px, [0; 4], "pixel ({x}, {y}) off the lines");
            }
        }
    }
    assert_clean(ctx);
}

// (8) Transform feedback of vertex shader outputs into two buffers, rasterization off.
#[test]
fn transform_feedback_capture() {
    let Some((ctx, s)) = setup_many("transform_feedback_capture", &["vs_xfb"]) else { return };
    if !ctx.features().transform_feedback {
        eprintln!("SKIPPED transform_feedback_capture: no VK_EXT_transform_feedback");
        return;
    }
    let points = [[1.0, 2.0, 3.0, 1.0], [-4.0, 5.5, 0.25, 1.0], [7.0, -8.0, 9.0, 1.0]];
    let mut job = GraphicsJob::new(vec![stage(Stage::Vertex, &s[0])], vec![], 3);
    job.topology = Topology::PointList;
    positions(&mut job, &points);
    job.transform_feedback = Some(TransformFeedback {
        buffers: vec![XfbBuffer { size: 64 }, XfbBuffer { size: 48 }],
        rasterization_stream: None,
    });
    let r = run(&ctx, &job);
    assert_eq!(r.xfb.len(), 2);
    let mut want0 = vec4s(&points);
    want0.resize(64, 0);
    assert_eq!(r.xfb[0], want0, "buffer 0: the inputs, then the untouched (zeroed) tail");
    let doubled: Vec<[f32; 4]> = points.iter().map(|p| p.map(|v| v * 2.0)).collect();
    assert_eq!(r.xfb[1], vec4s(&doubled));
    assert_eq!(r.xfb_counters, [48, 48]);
    if ctx.features().transform_feedback_queries {
        assert_eq!(r.xfb_primitives, Some((3, 3)));
    }
    assert_clean(ctx);
}

// (9) Cull mode and front face with D3D's convention: clockwise on the target is front by default.
#[test]
fn cull_mode_and_front_face() {
    let Some((ctx, s)) = setup_many("cull_mode_and_front_face", &["vs_passthrough", "ps_push_color"]) else { return };
    let (w, h) = (32, 32);
    // Left: clockwise on the target (bottom-left, top-left, top-right); right: counter-clockwise.
    let cw = [[-0.9f32, -0.5], [-0.9, 0.5], [-0.1, 0.5]];
    let ccw = [[0.1f32, -0.5], [0.9, 0.5], [0.1, 0.5]];
    let verts: Vec<[f32; 4]> = cw.iter().chain(&ccw).map(|p| [p[0], p[1], 0.0, 1.0]).collect();
    let color = [1.0, 0.5, 0.0, 1.0];
    let cases = [
        (CullMode::Back, false, true, false),
        (CullMode::Back, true, false, true),
        (CullMode::Front, false, false, true),
        (CullMode::Front, true, true, false),
        (CullMode::None, false, true, true),
    ];
    for (cull, front_ccw, cw_visible, ccw_visible) in cases {
        let mut job = GraphicsJob::new(
            vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])],
            vec![ColorTarget::new(Format::R8G8B8A8Unorm, w, h)],
            6,
        );
        positions(&mut job, &verts);
        job.push_constants = push_color(color);
        job.rasterizer.cull = cull;
        job.rasterizer.front_ccw = front_ccw;
        let r = run(&ctx, &job);
        let mut visible = Vec::new();
        if cw_visible {
            visible.push(cw);
        }
        if ccw_visible {
            visible.push(ccw);
        }
        let n = check_triangles(&r.color[0], w, h, &visible, rgba8(color), [0; 4]);
        assert!(n >= 30 * visible.len(), "{cull:?} front_ccw {front_ccw}: {n} pixels");
    }
    assert_clean(ctx);
}

// (10) 4x MSAA colour and depth targets, resolved for read-back; per-sample shading.
#[test]
fn msaa_4x_resolve() {
    let Some((ctx, s)) =
        setup_many("msaa_4x_resolve", &["vs_passthrough", "ps_push_color", "vs_fullscreen", "ps_sample_id"])
    else {
        return;
    };
    let (w, h) = (16, 16);
    let mut target = ColorTarget::new(Format::R8G8B8A8Unorm, w, h);
    target.samples = 4;
    let mut job =
        GraphicsJob::new(vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])], vec![target.clone()], 3);
    let tri = [[-1.0f32, -1.0], [1.0, -1.0], [-1.0, 1.0]];
    positions(&mut job, &tri.map(|p| [p[0], p[1], 0.25, 1.0]));
    job.push_constants = push_color([1.0, 1.0, 1.0, 1.0]);
    let mut ds = DepthStencilTarget::new(Format::D32Float, w, h);
    ds.samples = 4;
    job.depth_stencil = Some(ds);
    let r = run(&ctx, &job);
    let img = &r.color[0];
    assert_eq!(img.len(), (w * h * 4) as usize, "one resolved sample per pixel");
    let depth = to_f32s(r.depth.as_ref().expect("resolved depth"));
    let mut partial = 0;
    for y in 0..h {
        for x in 0..w {
            let got = texel(img, w, x, y, 4);
            match coverage(x, y, w, h, &[tri]) {
                Some(true) => {
                    assert_eq!(got, [255; 4], "pixel ({x}, {y})");
                    assert_eq!(depth[(y * w + x) as usize], 0.25, "depth at ({x}, {y})");
                }
                Some(false) => {
                    assert_eq!(got, [0; 4], "pixel ({x}, {y})");
                    assert_eq!(depth[(y * w + x) as usize], 1.0, "depth at ({x}, {y})");
                }
                None => {
                    if got[0] > 0 && got[0] < 255 {
                        partial += 1;
                        assert_eq!(got, [got[0]; 4], "edge pixel ({x}, {y}) is a uniform grey");
                    }
                }
            }
        }
    }
    assert!(partial >= 8, "{partial} partially covered edge pixels resolved to grey");

    // Per-sample shading: colour = SampleId / 3, resolved to the average 0.5.
    let mut job = GraphicsJob::new(vec![stage(Stage::Vertex, &s[2]), stage(Stage::Fragment, &s[3])], vec![target], 3);
    if ctx.features().sample_rate_shading {
        job.multisample.sample_shading = Some(1.0);
        let r = run(&ctx, &job);
        for px in r.color[0].chunks_exact(4) {
            assert!(px[0].abs_diff(128) <= 1 && px[1..] == [0, 0, 255], "{px:?}");
        }
    } else {
        eprintln!("SKIPPED msaa_4x_resolve (sample shading part): no sampleRateShading");
    }
    assert_clean(ctx);
}

// Dual-source blending: result = src0 * src1 + dst * (1 - src1).
#[test]
fn dual_source_blend() {
    let Some((ctx, s)) = setup_many("dual_source_blend", &["vs_fullscreen", "ps_dual_source"]) else { return };
    if !ctx.features().dual_src_blend {
        eprintln!("SKIPPED dual_source_blend: no dualSrcBlend");
        return;
    }
    let (w, h) = (4, 4);
    let mut target = ColorTarget::new(Format::R8G8B8A8Unorm, w, h);
    target.clear = ClearColor::Float([0.2, 0.8, 0.4, 1.0]);
    target.blend = Some(Blend {
        src_color: BlendFactor::Src1Color,
        dst_color: BlendFactor::InvSrc1Color,
        color_op: BlendOp::Add,
        src_alpha: BlendFactor::One,
        dst_alpha: BlendFactor::Zero,
        alpha_op: BlendOp::Add,
    });
    let job = GraphicsJob::new(vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])], vec![target], 3);
    let r = run(&ctx, &job);
    // R: 0.6 * 1 + 0.2 * 0; G: 0.2 * 0 + 0.8 * 1; B: 1.0 * 0.5 + 0.4 * 0.5; A: 1.
    let want = rgba8([0.6, 0.8, 0.7, 1.0]);
    for px in r.color[0].chunks_exact(4) {
        for k in 0..4 {
            assert!(px[k].abs_diff(want[k]) <= 1, "{px:?} vs {want:?}");
        }
    }
    assert_clean(ctx);
}

// UAV-only rendering: no render targets, a viewport, and a storage buffer written by the pixel shader
// (resources are bound for graphics stages and read back after the draw).
#[test]
fn pixel_shader_storage_buffer_without_targets() {
    let Some((ctx, s)) = setup_many("pixel_shader_storage_buffer_without_targets", &["vs_fullscreen", "ps_uav_count"])
    else {
        return;
    };
    if !ctx.features().fragment_stores_and_atomics {
        eprintln!("SKIPPED pixel_shader_storage_buffer_without_targets: no fragmentStoresAndAtomics");
        return;
    }
    let mut job = GraphicsJob::new(vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])], vec![], 3);
    job.viewport = Some(Viewport { x: 0.0, y: 0.0, width: 12.0, height: 5.0, min_depth: 0.0, max_depth: 1.0 });
    job.resources = vec![BoundResource::new(0, 0, ResourceDesc::StorageBuffer { data: u32s(&[1000, 0]) })];
    let r = run(&ctx, &job);
    assert!(r.color.is_empty() && r.depth.is_none());
    assert_eq!(to_u32s(r.get(0, 0, 0).expect("storage buffer")), [1000 + 12 * 5, 11 + 100 * 4]);
    assert_clean(ctx);
}

// Jobs that cannot run are typed errors, not validation errors or panics.
#[test]
fn invalid_graphics_jobs_are_reported() {
    let Some((ctx, s)) = setup_many("invalid_graphics_jobs_are_reported", &["vs_fullscreen", "ps_push_color"]) else {
        return;
    };
    let target = || ColorTarget::new(Format::R8G8B8A8Unorm, 4, 4);
    let no_vertex = GraphicsJob::new(vec![stage(Stage::Fragment, &s[1])], vec![target()], 3);
    assert!(matches!(ctx.run_graphics(&no_vertex), Err(RuntimeError::InvalidJob(_))));

    let wrong_stage = GraphicsJob::new(vec![stage(Stage::Vertex, &s[1])], vec![target()], 3);
    assert!(matches!(ctx.run_graphics(&wrong_stage), Err(RuntimeError::EntryPointNotFound { .. })));

    let mut sizes = GraphicsJob::new(
        vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])],
        vec![target(), ColorTarget::new(Format::R8G8B8A8Unorm, 8, 4)],
        3,
    );
    assert!(matches!(ctx.run_graphics(&sizes), Err(RuntimeError::InvalidJob(_))));

    sizes.color_targets = vec![target()];
    sizes.topology = Topology::PatchList;
    sizes.patch_control_points = 3;
    assert!(matches!(ctx.run_graphics(&sizes), Err(RuntimeError::InvalidJob(_))), "patches without tessellation");

    let mut clear = target();
    clear.clear = ClearColor::Uint([1, 2, 3, 4]);
    let bad_clear = GraphicsJob::new(vec![stage(Stage::Vertex, &s[0]), stage(Stage::Fragment, &s[1])], vec![clear], 3);
    assert!(matches!(ctx.run_graphics(&bad_clear), Err(RuntimeError::InvalidJob(_))));

    let mut no_targets = GraphicsJob::new(vec![stage(Stage::Vertex, &s[0])], vec![], 3);
    assert!(matches!(ctx.run_graphics(&no_targets), Err(RuntimeError::InvalidJob(_))), "no targets, no viewport");
    // With a viewport a target-less draw runs (D3D UAV-only rendering).
    no_targets.viewport = Some(Viewport { x: 0.0, y: 0.0, width: 8.0, height: 8.0, min_depth: 0.0, max_depth: 1.0 });
    run(&ctx, &no_targets);
    assert_clean(ctx);
}
