//! Running one pipeline spec: link (rejection specs stop here and compare the named rule), then
//! compile the pipeline, bind resources by register, draw once, and compare probes and captures.

use super::backend::{Backend, Bound, Compiled};
use super::bind::{build_resources, find_binding, RunConfig};
use super::compare::{compare_resource, values_match};
use super::gfx::{DrawJob, DrawOutputs, LinkFailure, LinkStage, PipelineFailure, StageSlot};
use super::image;
use super::pipeline::{clear_texel, PipelineExpect, PipelineSpec, Probe, ProbeTarget, RejectSpec};
use super::report::{SpecResult, Status};
use super::spec::Spec;
use dxjit::link::{InputLayout, LinkOptions, Rejection, SoDeclaration, StreamOutputDesc};
use std::time::Instant;

type Outcome = Result<(), (Status, String)>;

fn fail<T>(msg: impl Into<String>) -> Result<T, (Status, String)> {
    Err((Status::Fail, msg.into()))
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// The linker options a pipeline spec describes.
pub fn link_options(p: &PipelineSpec) -> LinkOptions {
    LinkOptions {
        input_layout: if p.input_layout.is_empty() {
            None
        } else {
            Some(InputLayout { elements: p.input_layout.clone() })
        },
        rasterized_stream: p.rasterized_stream,
        stream_output: p.stream_output.as_ref().map(|so| StreamOutputDesc {
            entries: so
                .entries
                .iter()
                .map(|e| SoDeclaration {
                    stream: e.stream,
                    semantic_name: e.semantic.clone(),
                    semantic_index: e.index,
                    start_component: e.start_component,
                    component_count: e.component_count,
                    output_slot: e.slot,
                })
                .collect(),
            strides: so.strides.clone(),
        }),
        topology: Some(p.topology.link_type()),
    }
}

/// Whether one rejection is the one a spec names (every given field must agree).
pub fn rejection_matches(want: &RejectSpec, r: &Rejection) -> bool {
    let semantic_ok = want.semantic.as_deref().is_none_or(|s| {
        let s = s.to_ascii_uppercase();
        let name = r.semantic_name.to_ascii_uppercase();
        s == format!("{name}{}", r.semantic_index) || (r.semantic_index == 0 && s == name)
    });
    r.rule == want.rule
        && want.stage.is_none_or(|st| st == r.stage)
        && semantic_ok
        && want.register.is_none_or(|g| r.register == Some(g))
}

/// Checks a linker error against the expected rejection.
pub fn check_rejection(want: &RejectSpec, got: &[Rejection]) -> Result<(), String> {
    let list = || got.iter().map(|r| r.to_string()).collect::<Vec<_>>().join("; ");
    if !got.iter().any(|r| rejection_matches(want, r)) {
        let mut w = format!("{:?}", want.rule);
        if let Some(s) = want.stage {
            w.push_str(&format!(" in the {s}"));
        }
        if let Some(s) = &want.semantic {
            w.push_str(&format!(" for {s}"));
        }
        if let Some(g) = want.register {
            w.push_str(&format!(" at register {g}"));
        }
        return Err(format!("rejected, but not as expected: want {w}; got {}", list()));
    }
    if let Some(n) = want.count {
        if got.len() != n {
            return Err(format!("expected {n} rejection(s), got {}: {}", got.len(), list()));
        }
    }
    Ok(())
}

/// Runs a pipeline spec (called by `execute::run_spec`).
pub fn run_pipeline(
    backend: &dyn Backend,
    spec: &Spec,
    p: &PipelineSpec,
    cfg: &RunConfig,
    r: &mut SpecResult,
) -> Outcome {
    // Read every stage.
    let mut blobs = Vec::with_capacity(p.stages.len());
    for s in &p.stages {
        let path = cfg.path_of(&s.shader);
        match std::fs::read(&path) {
            Ok(b) => blobs.push(b),
            Err(e) if !s.shader.starts_with("fixtures/") && !cfg.corpus_root.join(first_dir(&s.shader)).is_dir() => {
                return Err((Status::Skipped, format!("corpus not found at {} ({e})", cfg.corpus_root.display())))
            }
            Err(e) => return fail(format!("cannot read {} shader {}: {e}", s.slot.key(), path.display())),
        }
    }
    let stages: Vec<LinkStage<'_>> =
        p.stages.iter().zip(&blobs).map(|(s, b)| LinkStage { slot: s.slot, container: b, retype: &s.retype }).collect();
    let opts = link_options(p);

    let t = Instant::now();
    let linked = backend.link(&stages, &opts);
    r.compile_ms = ms(t);
    let probes = match &p.expect {
        PipelineExpect::Rejected(want) if !want.one_of.is_empty() => {
            return match (linked, want.one_of.iter().find(|a| a.reject.is_none())) {
                (Ok(()), Some(a)) => {
                    r.status = Status::Pass;
                    r.detail = format!("linked: outcome `{}`", a.name);
                    Ok(())
                }
                (Ok(()), None) => fail("linked, but every named outcome is a rejection"),
                (Err(LinkFailure::Rejected(got)), _) => {
                    let hit = want
                        .one_of
                        .iter()
                        .find_map(|a| a.reject.as_ref().filter(|w| check_rejection(w, &got).is_ok()).map(|w| (a, w)));
                    match hit {
                        Some((a, w)) => {
                            r.status = Status::Pass;
                            let x = got.iter().find(|x| rejection_matches(w, x)).map(|x| x.to_string());
                            r.detail = format!("rejected: outcome `{}`: {}", a.name, x.unwrap_or_default());
                            Ok(())
                        }
                        None => {
                            let names: Vec<&str> = want.one_of.iter().map(|a| a.name.as_str()).collect();
                            let list: Vec<_> = got.iter().map(|x| x.to_string()).collect();
                            fail(format!("rejected as none of {}: {}", names.join(", "), list.join("; ")))
                        }
                    }
                }
                (Err(LinkFailure::Error(m)), _) => fail(format!("link error: {m}")),
            };
        }
        PipelineExpect::Rejected(want) => {
            return match linked {
                Ok(()) => fail(format!("linked, but D3D12 rejects this pipeline ({:?})", want.rule)),
                Err(LinkFailure::Rejected(got)) => {
                    check_rejection(want, &got).or_else(fail)?;
                    r.status = Status::Pass;
                    let hit =
                        got.iter().find(|x| rejection_matches(want, x)).map(|x| x.to_string()).unwrap_or_default();
                    let more = if got.len() > 1 { format!(" (+{} more)", got.len() - 1) } else { String::new() };
                    r.detail = format!("rejected: {hit}{more}");
                    Ok(())
                }
                Err(LinkFailure::Error(m)) => fail(format!("link error: {m}")),
            };
        }
        PipelineExpect::Drawn { probes, captures } => {
            match linked {
                Ok(()) => {}
                Err(LinkFailure::Rejected(got)) => {
                    let list: Vec<_> = got.iter().map(|x| x.to_string()).collect();
                    return fail(format!("D3D12 accepts this pipeline; the linker rejected it: {}", list.join("; ")));
                }
                Err(LinkFailure::Error(m)) => return fail(format!("link error: {m}")),
            }
            (probes, captures)
        }
    };
    let (probes, captures) = probes;

    // Device features the draw needs.
    let caps = backend.caps();
    let missing: Vec<&str> = spec.requires.iter().filter(|f| !caps.features.contains(*f)).map(String::as_str).collect();
    if p.stream_output.is_some() && !caps.features.contains("stream_output") {
        // The Vulkan backend does not yet pass stream-output declarations
        // (D3D12's SO desc) through to transform feedback, so it never offers this.
        return Err((
            Status::Skipped,
            "linked; this backend does not run stream output yet (no `stream_output` capability)".into(),
        ));
    }
    if !missing.is_empty() {
        return Err((Status::Skipped, format!("linked; device lacks {}", missing.join(", "))));
    }

    // Bindless specs: every stage compiled against one root signature (the spec's, or the first
    // embedded one).
    let bindless = match &spec.root {
        Some(root) => {
            let rs = match &root.signature {
                Some(rs) => rs.clone(),
                None => blobs.iter().find_map(|b| super::bindless::root_signature(root, b).ok()).ok_or_else(|| {
                    (Status::Fail, "source = \"embedded\", but no stage embeds a root signature".into())
                })?,
            };
            Some((root, rs))
        }
        None => None,
    };
    let t = Instant::now();
    let compiled = match &bindless {
        Some((root, rs)) => {
            let model = std::sync::Arc::new(super::bindless::model(root, rs.clone()));
            backend.compile_pipeline_bound(&stages, &opts, model)
        }
        None => backend.compile_pipeline(&stages, &opts),
    };
    r.compile_ms += ms(t);
    let compiled = match compiled {
        Ok(c) => c,
        Err(PipelineFailure::Unavailable(m)) => return Err((Status::Skipped, format!("linked; not drawn: {m}"))),
        Err(PipelineFailure::Link(LinkFailure::Rejected(got))) => {
            let list: Vec<_> = got.iter().map(|x| x.to_string()).collect();
            return fail(format!("compile_pipeline rejected the pipeline: {}", list.join("; ")));
        }
        Err(PipelineFailure::Link(LinkFailure::Error(m))) => return fail(format!("compile_pipeline: link error: {m}")),
        Err(PipelineFailure::Compile(super::backend::CompileFailure::Unsupported(m))) => {
            return Err((Status::CompileUnsupported, m))
        }
        Err(PipelineFailure::Compile(super::backend::CompileFailure::Malformed(m))) => {
            return fail(format!("compile error (malformed): {m}"))
        }
        Err(PipelineFailure::Compile(super::backend::CompileFailure::Internal(m))) => {
            return fail(format!("compile error (internal): {m}"))
        }
    };
    for s in &p.stages {
        if !compiled.shaders.iter().any(|(slot, _)| *slot == s.slot) {
            return fail(format!("compile_pipeline returned no {} shader", s.slot.key()));
        }
    }

    let binds = match &bindless {
        Some((root, rs)) => {
            let (policy, layout) = backend.bound_layout(&super::bindless::model(root, rs.clone())).or_else(fail)?;
            Some(super::bindless::bind_with(spec, root, rs, &layout, &policy).or_else(fail)?)
        }
        None => None,
    };
    let (resources, push_constants) = match &binds {
        Some(b) => (b.bound.clone(), b.push.clone()),
        None => pipeline_resources(spec, &compiled.shaders).or_else(fail)?,
    };
    let samples = p.targets.first().map_or(1, |t| t.samples);
    let mut specialization: Vec<(u32, u32)> =
        compiled.shaders.iter().filter_map(|(_, c)| c.sample_count_spec_id.map(|id| (id, samples))).collect();
    specialization.dedup();
    let job = DrawJob {
        stages: compiled.shaders.iter().map(|(s, c)| (*s, c.spirv.as_slice(), c.entry_point.as_str())).collect(),
        specialization,
        vertex_buffers: p.vertex_buffers.clone(),
        vertex_attributes: compiled.vertex_input.clone(),
        indices: p.indices.clone(),
        topology: p.topology,
        draw: p.draw,
        targets: p
            .targets
            .iter()
            .map(|t| super::gfx::TargetDesc {
                format: t.format,
                width: t.width,
                height: t.height,
                layers: t.layers,
                clear: t.clear,
                samples: t.samples,
            })
            .collect(),
        depth: p.depth.clone(),
        rasterizer: p.rasterizer,
        layered: p.layered,
        sample_mask: p.sample_mask,
        resources,
        push_constants,
        stream_output: p.stream_output.clone(),
        rasterized_stream: p.rasterized_stream,
        dispatch_mesh: p.dispatch_mesh,
        scene: spec.scene.clone(),
        statistics: !p.statistics.is_empty(),
    };
    let t = Instant::now();
    let out = backend.run_graphics(&job);
    r.run_ms = ms(t);
    let out = out.or_else(|e| fail(format!("draw failed: {e}")))?;

    if let Err(e) = check_probes(p, probes, &out, &backend.device_name()) {
        r.images = probe_images(p, probes, &out, &backend.device_name());
        return fail(e);
    }
    check_references(p, &out, &mut r.images).or_else(fail)?;
    for (i, c) in captures.iter().enumerate() {
        let buf = out.stream_output.get(c.buffer as usize).map(Vec::as_slice).unwrap_or(&[]);
        let got = buf.get(c.at..c.at + c.value.byte_len()).ok_or_else(|| {
            (Status::Fail, format!("capture[{i}]: stream-output buffer {} holds {} bytes", c.buffer, buf.len()))
        })?;
        values_match(&c.value, c.tol, c.at, got)
            .map_err(|m| (Status::Fail, format!("capture[{i}] buffer {}: {m}", c.buffer)))?;
    }
    if let Some(b) = &binds {
        super::bindless::check(spec, b, &out.resources).or_else(fail)?;
        check_statistics(p, &out)?;
        r.status = Status::Pass;
        return Ok(());
    }
    for res in spec.resources.iter().filter(|res| res.is_checked()) {
        let Some((b, idx)) = compiled.shaders.iter().find_map(|(_, c)| find_binding(&c.bindings, res)) else {
            return fail(format!("{} has expectations, but no stage uses it", res.label()));
        };
        let got = out
            .resources
            .iter()
            .find(|(s, bi, ai, _)| *s == b.set && *bi == b.binding && *ai == idx)
            .map(|o| o.3.as_slice())
            .ok_or_else(|| (Status::Fail, format!("no read-back for {}", res.label())))?;
        compare_resource(res, got).map_err(|m| (Status::Fail, format!("{}: {m}", res.label())))?;
    }
    check_statistics(p, &out)?;
    r.status = Status::Pass;
    Ok(())
}

/// `[[statistic]]` expectations, after everything else passed: a device that counts none of
/// them (or not this counter) skips the spec, saying so.
fn check_statistics(p: &PipelineSpec, out: &DrawOutputs) -> Outcome {
    if p.statistics.is_empty() {
        return Ok(());
    }
    let Some(stats) = &out.statistics else {
        return Err((
            Status::Skipped,
            "drawn and checked, but the device counts no pipeline statistics (pipelineStatisticsQuery)".into(),
        ));
    };
    let mut errs = Vec::new();
    for e in &p.statistics {
        match stats.get(e.counter) {
            Some(got) => errs.extend(e.check(got).err()),
            None => {
                return Err((
                    Status::Skipped,
                    format!("drawn and checked, but the device does not count {}", e.counter.name()),
                ))
            }
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        let all: Vec<String> = stats.values.iter().map(|(c, v)| format!("{} {v}", c.name())).collect();
        fail(format!("{} (counted: {})", errs.join("; "), all.join(", ")))
    }
}

fn first_dir(p: &str) -> &str {
    p.split('/').next().unwrap_or("")
}

/// Resources of every stage, each (set, binding, index) bound once; the longest push-constant block.
pub fn pipeline_resources(spec: &Spec, shaders: &[(StageSlot, Compiled)]) -> Result<(Vec<Bound>, Vec<u8>), String> {
    let mut bound: Vec<Bound> = Vec::new();
    let mut push = Vec::new();
    for (slot, c) in shaders {
        let (b, p) = build_resources(spec, c).map_err(|e| format!("{}: {e}", slot.key()))?;
        for x in b {
            if !bound.iter().any(|o| (o.set, o.binding, o.array_index) == (x.set, x.binding, x.array_index)) {
                bound.push(x);
            }
        }
        if p.len() > push.len() {
            push = p;
        }
    }
    Ok((bound, push))
}

/// Texel bytes of a probe's target at (x, y, layer), and the whole image.
fn image<'a>(p: &PipelineSpec, out: &'a DrawOutputs, t: ProbeTarget) -> Result<(&'a [u8], usize), String> {
    let (w, h, layers) = p.targets.first().map(|t| (t.width, t.height, t.layers)).unwrap_or((0, 0, 0));
    let (bytes, texel) = match t {
        ProbeTarget::Color(i) => {
            let tg = p.targets.get(i as usize).ok_or_else(|| format!("no target {i}"))?;
            let img = out.color.get(i as usize).ok_or_else(|| format!("no read-back of target {i}"))?;
            (img.as_slice(), tg.format.texel_size() as usize)
        }
        ProbeTarget::Depth => {
            let d = p.depth.as_ref().ok_or("no depth target")?;
            (out.depth.as_deref().ok_or("no depth read-back")?, d.format.depth_texel())
        }
        ProbeTarget::Stencil => (out.stencil.as_deref().ok_or("no stencil read-back")?, 1),
    };
    let need = w as usize * h as usize * layers as usize * texel;
    if bytes.len() < need {
        return Err(format!("{t:?}: read-back holds {} bytes, expected {need}", bytes.len()));
    }
    Ok((bytes, texel))
}

fn target_name(t: ProbeTarget) -> String {
    match t {
        ProbeTarget::Color(i) => format!("target {i}"),
        ProbeTarget::Depth => "depth".into(),
        ProbeTarget::Stencil => "stencil".into(),
    }
}

/// Compares every `[[reference]]` image (the target as 8-bit RGBA, per-channel tolerance); a
/// mismatch adds its expected / actual / difference pictures to `images`.
pub fn check_references(
    p: &PipelineSpec,
    out: &DrawOutputs,
    images: &mut Vec<super::image::ImageSet>,
) -> Result<(), String> {
    for rf in &p.references {
        let Some(t) = p.targets.get(rf.target as usize) else { continue };
        let img = out.color.get(rf.target as usize).ok_or_else(|| format!("no read-back of target {}", rf.target))?;
        let actual = image::actual(t.format, img, t.width, t.height, rf.layer);
        if let Some(image::Mismatch { x, y, want, got, count: n }) = image::compare(&rf.image, &actual, rf.tolerance) {
            let bad = |x: u32, y: u32| {
                let o = ((y * t.width + x) * 4) as usize;
                let (w, g) = (rf.image.data.get(o..o + 4), actual.data.get(o..o + 4));
                w.zip(g).is_some_and(|(w, g)| w.iter().zip(g).any(|(a, b)| a.abs_diff(*b) > rf.tolerance))
            };
            let scale = (256 / t.width.max(t.height)).clamp(1, 16);
            images.push(image::ImageSet {
                label: format!("target {} layer {} vs {}", rf.target, rf.layer, rf.png.display()),
                expected: rf.image.clone().opaque().scaled(scale),
                diff: image::diff(&actual, bad).scaled(scale),
                actual: actual.opaque().scaled(scale),
            });
            let name = rf.png.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
            return Err(format!(
                "reference {name}: target {} pixel ({x},{y}): expected RGBA8 {want:?}, got {got:?} (tolerance {}); {n} texel(s) differ",
                rf.target, rf.tolerance
            ));
        }
    }
    Ok(())
}

/// (for reports) The picture the probes of colour target `target` (layer `layer`) expect: each probe's value
/// over its rectangle (later probes win), the rest `rest` (the clear value of a `rest = "clear"`
/// target) or else a grey checkerboard.
fn expected_picture(
    f: super::backend::Format,
    probes: &[Probe],
    target: u32,
    w: u32,
    h: u32,
    layer: u32,
    rest: Option<&[u8]>,
) -> image::Rgba8 {
    let mut data = Vec::with_capacity(w as usize * h as usize * 4);
    for y in 0..h {
        for x in 0..w {
            let hit = probes.iter().rev().find(|p| {
                p.target == ProbeTarget::Color(target)
                    && p.layer == layer
                    && (p.x..p.x + p.width).contains(&x)
                    && (p.y..p.y + p.height).contains(&y)
            });
            let px = match (hit, rest) {
                (Some(p), _) => image::texel_rgba8(f, &p.value.to_bytes()),
                (None, Some(r)) => image::texel_rgba8(f, r),
                (None, None) => image::unchecked(x, y),
            };
            data.extend_from_slice(&px);
        }
    }
    image::Rgba8 { width: w, height: h, data }
}

/// Expected / actual / difference pictures of every probed colour target (layer 0), for reports.
pub fn probe_images(
    p: &PipelineSpec,
    probes: &[Probe],
    out: &DrawOutputs,
    device: &str,
) -> Vec<super::image::ImageSet> {
    // Per-texel checks only: the texels no probe covers are not part of the difference picture.
    let mut quiet = p.clone();
    for t in &mut quiet.targets {
        t.rest_clear = false;
    }
    let mut sets = Vec::new();
    for (ti, t) in p.targets.iter().enumerate() {
        let target = ProbeTarget::Color(ti as u32);
        let mine: Vec<Probe> = probes.iter().filter(|pr| pr.target == target && pr.layer == 0).cloned().collect();
        if mine.is_empty() {
            continue;
        }
        let Some(img) = out.color.get(ti) else { continue };
        let actual = image::actual(t.format, img, t.width, t.height, 0);
        let rest = if t.rest_clear { clear_texel(t.format, t.clear) } else { None };
        let expected = expected_picture(t.format, &mine, ti as u32, t.width, t.height, 0, rest.as_deref());
        // A texel is wrong when the one-texel probe at it (same value, tolerance) fails.
        let bad = |x: u32, y: u32| {
            mine.iter()
                .rev()
                .find(|pr| (pr.x..pr.x + pr.width).contains(&x) && (pr.y..pr.y + pr.height).contains(&y))
                .is_some_and(|pr| {
                    let one = Probe { x, y, width: 1, height: 1, ..pr.clone() };
                    check_probes(&quiet, std::slice::from_ref(&one), out, device).is_err()
                })
        };
        let diff = image::diff(&actual, bad);
        let scale = (256 / t.width.max(t.height)).clamp(1, 16);
        sets.push(image::ImageSet {
            label: format!("target {ti} ({}x{})", t.width, t.height),
            expected: expected.opaque().scaled(scale),
            actual: actual.opaque().scaled(scale),
            diff: diff.scaled(scale),
        });
    }
    sets
}

/// Compares every probe, then (targets with `rest = "clear"`) every texel no probe covers.
pub fn check_probes(p: &PipelineSpec, probes: &[Probe], out: &DrawOutputs, device: &str) -> Result<(), String> {
    let device = device.to_ascii_lowercase();
    let (w, h) = p.targets.first().map(|t| (t.width as usize, t.height as usize)).unwrap_or((0, 0));
    let at = |layer: u32, x: u32, y: u32, texel: usize| ((layer as usize * h + y as usize) * w + x as usize) * texel;
    for (i, pr) in probes.iter().enumerate() {
        let (img, texel) = image(p, out, pr.target)?;
        for y in pr.y..pr.y + pr.height {
            for x in pr.x..pr.x + pr.width {
                let o = at(pr.layer, x, y, texel);
                let got = img.get(o..o + texel).ok_or("read-back too short")?;
                // Components a known device defect makes meaningless take the expected bytes.
                let patched;
                let defect = match &pr.device_defect {
                    Some(d) if device.contains(&d.device) => d.components.as_slice(),
                    _ => &[],
                };
                let got = match defect.iter().chain(&pr.dont_care).next() {
                    Some(_) => {
                        let mut g = got.to_vec();
                        let want = pr.value.to_bytes();
                        let sz = pr.value.elem.size();
                        for &c in defect.iter().chain(&pr.dont_care) {
                            if let (Some(dst), Some(src)) =
                                (g.get_mut(c * sz..(c + 1) * sz), want.get(c * sz..(c + 1) * sz))
                            {
                                dst.copy_from_slice(src);
                            }
                        }
                        patched = g;
                        patched.as_slice()
                    }
                    None => got,
                };
                values_match(&pr.value, pr.tol, 0, got).map_err(|m| {
                    let layer = if pr.layer > 0 { format!(" layer {}", pr.layer) } else { String::new() };
                    format!("probe[{i}] {}{layer} pixel ({x},{y}): {m}", target_name(pr.target))
                })?;
            }
        }
    }
    for (ti, t) in p.targets.iter().enumerate().filter(|(_, t)| t.rest_clear) {
        let Some(clear) = clear_texel(t.format, t.clear) else { continue };
        let target = ProbeTarget::Color(ti as u32);
        let (img, texel) = image(p, out, target)?;
        for layer in 0..t.layers {
            for y in 0..t.height {
                for x in 0..t.width {
                    let covered = probes.iter().any(|pr| {
                        pr.target == target
                            && pr.layer == layer
                            && (pr.x..pr.x + pr.width).contains(&x)
                            && (pr.y..pr.y + pr.height).contains(&y)
                    });
                    let o = at(layer, x, y, texel);
                    if !covered && img.get(o..o + texel) != Some(clear.as_slice()) {
                        return Err(format!(
                            "target {ti} layer {layer} pixel ({x},{y}): expected the clear value {:02x?} (no probe covers it), got {:02x?}",
                            clear,
                            img.get(o..o + texel).unwrap_or(&[])
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}
