//! Running one spec: resolve the shader, compile, map registers to (set, binding), build the job,
//! dispatch, compare.

use super::backend::{Backend, Binding, Bound, CompileFailure, Compiled, DescriptorKind, Format, Image, Job, Resource};
use super::compare::compare_resource;
use super::report::{SpecResult, Status};
use super::spec::{Kind, ResourceSpec, Spec};
use std::path::PathBuf;
use std::time::Instant;

/// Where shaders are found.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// Root of the shared corpus (holds `vkd3d-proton/`, `dxil-spirv/`).
    pub corpus_root: PathBuf,
    /// Root of the workspace (holds `fixtures/`).
    pub workspace_root: PathBuf,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig { corpus_root: crate::corpus::corpus_root(), workspace_root: crate::corpus::workspace_root() }
    }
}

impl RunConfig {
    pub fn shader_path(&self, spec: &Spec) -> PathBuf {
        self.path_of(&spec.shader)
    }

    /// Where a spec's shader path (`fixtures/…` or a corpus path) lives.
    pub fn path_of(&self, shader: &str) -> PathBuf {
        if shader.starts_with("fixtures/") {
            self.workspace_root.join(shader)
        } else {
            self.corpus_root.join(shader)
        }
    }
}

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

    let caps = backend.caps();
    let missing: Vec<&str> = spec.requires.iter().filter(|f| !caps.features.contains(*f)).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err((Status::Skipped, format!("device lacks {}", missing.join(", "))));
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
    let compiled = backend.compile(&bytes, spec.entry.as_deref());
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
        required_subgroup_size: spec.subgroup_size,
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

/// The binding holding a spec resource, and its array index.
pub fn find_binding<'a>(bindings: &'a [Binding], res: &ResourceSpec) -> Option<(&'a Binding, u32)> {
    bindings.iter().find_map(|b| b.index_of(res.class, res.space, res.register).map(|i| (b, i)))
}

/// Builds the bound resources and the push-constant bytes for a compiled shader.
pub fn build_resources(spec: &Spec, compiled: &Compiled) -> Result<(Vec<Bound>, Vec<u8>), String> {
    let mut bound = Vec::new();
    let mut push = None::<Vec<u8>>;
    // Every register the shader declares must be provided.
    for b in &compiled.bindings {
        let n = match b.count {
            Some(n) => n,
            // Unbounded ranges: only the registers the spec gives are bound.
            None => continue,
        };
        for i in 0..n {
            let reg = b.lower_bound.saturating_add(i);
            let given = spec.resources.iter().any(|r| r.class == b.class && r.space == b.space && r.register == reg);
            if !given {
                return Err(format!(
                    "the shader uses {}{reg} (space {}, {}), but the spec gives no resource for it",
                    b.class.prefix(),
                    b.space,
                    b.kind
                ));
            }
        }
    }
    for res in &spec.resources {
        let Some((b, idx)) = find_binding(&compiled.bindings, res) else {
            // DXC drops unused resources; a spec may still describe them (no expectations allowed,
            // checked after the run).
            continue;
        };
        let resource = match b.descriptor {
            DescriptorKind::AccelerationStructure => {
                return Err(format!("{}: acceleration structures are not supported by the compute runner", res.label()))
            }
            DescriptorKind::PushConstant => {
                if !matches!(res.kind, Kind::CBuffer | Kind::RootConstants) {
                    return Err(format!(
                        "{} is a {:?} in the spec but push constants in the shader",
                        res.label(),
                        res.kind
                    ));
                }
                if push.is_some() {
                    return Err("more than one resource maps to push constants".into());
                }
                let size = compiled.push_constant_size.unwrap_or(res.init.len() as u32) as usize;
                let mut data = res.init.clone();
                if data.len() > size {
                    data.truncate(size);
                }
                data.resize(size, 0);
                push = Some(data);
                continue;
            }
            d => resource_of(res, d)?,
        };
        bound.push(Bound { set: b.set, binding: b.binding, array_index: idx, resource });
        if b.has_counter {
            let Some((set, binding)) = b.counter_binding else {
                return Err(format!("{} has a counter but no counter binding", res.label()));
            };
            let v = res.counter.unwrap_or(0);
            bound.push(Bound {
                set,
                binding,
                array_index: idx,
                resource: Resource::StorageBuffer { data: v.to_le_bytes().to_vec() },
            });
        }
    }
    if compiled.push_constant_size.is_some_and(|s| s > 0) && push.is_none() {
        return Err("the shader takes push constants, but no cbuffer/root_constants resource maps to them".into());
    }
    Ok((bound, push.unwrap_or_default()))
}

/// The contents bound for a spec resource seen through a descriptor of type `d` (buffers,
/// texel buffers, images, samplers).
pub fn resource_of(res: &ResourceSpec, d: DescriptorKind) -> Result<Resource, String> {
    Ok(match d {
        DescriptorKind::AccelerationStructure | DescriptorKind::PushConstant => {
            return Err(format!("{}: a {d:?} is not a descriptor the runner fills", res.label()))
        }
        DescriptorKind::UniformBuffer | DescriptorKind::StorageBuffer => {
            if !res.kind.is_buffer() {
                return Err(format!("{} is a {:?} in the spec but a buffer in the shader", res.label(), res.kind));
            }
            let data = res.init.clone();
            if d == DescriptorKind::UniformBuffer {
                Resource::UniformBuffer { data }
            } else {
                Resource::StorageBuffer { data }
            }
        }
        DescriptorKind::UniformTexelBuffer | DescriptorKind::StorageTexelBuffer => {
            let format = match res.kind {
                Kind::Typed => res.format.ok_or_else(|| format!("{} needs a format", res.label()))?,
                Kind::Raw | Kind::Structured => Format::R32Uint,
                other => {
                    return Err(format!("{} is a {other:?} in the spec but a texel buffer in the shader", res.label()))
                }
            };
            let data = res.init.clone();
            if d == DescriptorKind::UniformTexelBuffer {
                Resource::UniformTexelBuffer { format, data }
            } else {
                Resource::StorageTexelBuffer { format, data }
            }
        }
        DescriptorKind::SampledImage | DescriptorKind::StorageImage => {
            let (Kind::Texture { dim, .. }, Some(shape), Some(format)) = (res.kind, res.shape, res.format) else {
                return Err(format!("{} is a {:?} in the spec but an image in the shader", res.label(), res.kind));
            };
            let img = Image {
                dim,
                format,
                width: shape.width,
                height: shape.height,
                depth: shape.depth,
                layers: shape.layers,
                mips: shape.mips,
                samples: shape.samples,
                data: res.init.clone(),
            };
            if d == DescriptorKind::SampledImage {
                Resource::SampledImage(img)
            } else {
                Resource::StorageImage(img)
            }
        }
        DescriptorKind::Sampler => match &res.sampler {
            Some(s) => Resource::Sampler(s.clone()),
            None => return Err(format!("{} is a {:?} in the spec but a sampler in the shader", res.label(), res.kind)),
        },
    })
}
