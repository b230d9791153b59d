//! Running one spec: resolve the shader, compile, map registers to (set, binding), build the job,
//! dispatch, compare.

use super::backend::{Backend, CompileFailure, Job};
use super::bind::build_resources;
// `RunConfig` lives in `bind` (shared with `draw`); `execute::RunConfig` stays valid.
pub use super::bind::{find_binding, RunConfig};
use super::compare::compare_resource;
use super::report::{SpecResult, Status};
use super::spec::Spec;
use std::time::Instant;

/// Runs one parsed spec.
pub fn run_spec(backend: &dyn Backend, spec: &Spec, cfg: &RunConfig) -> SpecResult {
    let start = Instant::now();
    let mut r = SpecResult::new(&spec.name, &spec.path);
    r.shader = spec.shader.clone();
    let outcome = run_inner(backend, spec, cfg, &mut r);
    let (status, detail) = match outcome {
        Ok(()) => (r.status, r.detail.clone()),
        Err((s, d)) => (s, d),
    };
    r.status = status;
    r.detail = detail;
    // Validation messages fail a spec that would otherwise pass.
    r.messages.extend(backend.take_validation_messages());
    if !r.messages.is_empty() && matches!(r.status, Status::Pass | Status::ExpectedUnsupported) {
        r.status = Status::Fail;
        r.detail = format!("{} validation message(s); first: {}", r.messages.len(), r.messages[0]);
    }
    r.total_ms = ms(start);
    r
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

type Outcome = Result<(), (Status, String)>;

fn fail<T>(msg: impl Into<String>) -> Result<T, (Status, String)> {
    Err((Status::Fail, msg.into()))
}

fn run_inner(backend: &dyn Backend, spec: &Spec, cfg: &RunConfig, r: &mut SpecResult) -> Outcome {
    // Drop messages left over from earlier work.
    let _ = backend.take_validation_messages();

    if let Some(p) = &spec.pipeline {
        return super::draw::run_pipeline(backend, spec, p, cfg, r);
    }
    if let Some(rt) = &spec.raytracing {
        return super::rt::run(backend, spec, rt, cfg, r);
    }

    let caps = backend.caps();
    let missing: Vec<&str> = spec.requires.iter().filter(|f| !caps.features.contains(*f)).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err((Status::Skipped, format!("device lacks {}", missing.join(", "))));
    }
    // A spec that runs with a given subgroup size (a [WaveSize] D3D12 would refuse elsewhere)
    // needs a device that can give a dispatch that many lanes.
    // A spec that expects the compile to refuse runs anywhere (nothing is dispatched).
    if let (Some(n), Some((lo, hi)), false) = (spec.subgroup_size, caps.compute_subgroup_sizes, spec.expect_unsupported)
    {
        if !n.is_power_of_two() || !(lo..=hi).contains(&n) {
            return Err((
                Status::Skipped,
                format!("device lacks subgroup size {n} (compute runs with {lo}..={hi} lanes)"),
            ));
        }
    }

    let path = cfg.shader_path(spec);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if !spec.shader.starts_with("fixtures/") && !cfg.corpus_root.join(first_dir(&spec.shader)).is_dir() => {
            return Err((Status::Skipped, format!("corpus not found at {} ({e})", cfg.corpus_root.display())))
        }
        Err(e) => return fail(format!("cannot read shader {}: {e}", path.display())),
    };

    if let Some(root) = &spec.root {
        return super::bindless::run_compute(backend, spec, root, &bytes, r);
    }
    let t = Instant::now();
    let compiled = backend.compile_for(&bytes, spec.entry.as_deref(), spec.subgroup_size);
    r.compile_ms = ms(t);
    let compiled = match compiled {
        Ok(c) if spec.expect_unsupported => {
            let _ = c;
            return fail("the spec expects `unsupported`, but the shader compiled (update the spec)");
        }
        Ok(c) => c,
        Err(CompileFailure::Unsupported(m)) if spec.expect_unsupported => {
            return Err((Status::ExpectedUnsupported, m));
        }
        Err(CompileFailure::Unsupported(m)) => return Err((Status::CompileUnsupported, m)),
        Err(CompileFailure::Malformed(m)) => return fail(format!("compile error (malformed): {m}")),
        Err(CompileFailure::Internal(m)) => return fail(format!("compile error (internal): {m}")),
    };
    if !compiled.is_compute {
        return fail("not a compute shader");
    }
    if compiled.uses_descriptor_heaps {
        return fail("the shader indexes SM 6.6 descriptor heaps, which a spec cannot bind (compile-only coverage)");
    }

    let (resources, push_constants) = build_resources(spec, &compiled).or_else(fail)?;
    let job = Job {
        spirv: &compiled.spirv,
        entry_point: &compiled.entry_point,
        resources,
        push_constants,
        dispatch: spec.dispatch,
        required_subgroup_size: compiled.dispatch_subgroup_size(spec.subgroup_size).or_else(fail)?,
        scene: spec.scene.clone(),
    };
    let t = Instant::now();
    let outputs = backend.run_compute(&job);
    r.run_ms = ms(t);
    let outputs = outputs.or_else(|e| fail(format!("dispatch failed: {e}")))?;

    for res in spec.resources.iter().filter(|res| res.is_checked()) {
        let Some((b, idx)) = find_binding(&compiled.bindings, res) else {
            return fail(format!("{} has expectations, but the shader does not use it", res.label()));
        };
        if !res.checks.is_empty() {
            let got = outputs
                .iter()
                .find(|(s, bi, ai, _)| *s == b.set && *bi == b.binding && *ai == idx)
                .map(|o| o.3.as_slice())
                .ok_or_else(|| {
                    (Status::Fail, format!("no read-back for {} (set {}, binding {})", res.label(), b.set, b.binding))
                })?;
            if let Err(m) = compare_resource(res, got) {
                return fail(format!("{}: {m}", res.label()));
            }
        }
        if let Some(want) = res.expect_counter {
            let Some((cs, cb)) = b.counter_binding else {
                return fail(format!("{} expects a counter, but the shader has none", res.label()));
            };
            let got = outputs.iter().find(|(s, bi, ai, _)| *s == cs && *bi == cb && *ai == idx).map(|o| o.3.as_slice());
            let v = got.and_then(|g| g.get(..4)).map(|g| u32::from_le_bytes([g[0], g[1], g[2], g[3]]));
            if v != Some(want) {
                return fail(format!("{} counter: expected {want}, got {v:?}", res.label()));
            }
        }
    }
    r.status = Status::Pass;
    Ok(())
}

fn first_dir(p: &str) -> &str {
    p.split('/').next().unwrap_or("")
}
