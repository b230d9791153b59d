//! Running ray-tracing specs (`[raytracing]`, parsed by [`super::rtspec`]): one `DispatchRays`
//! through the backend.
//!
//! A ray-tracing spec names DXIL libraries and the shader tables: raygen, miss, hit-group and
//! callable records by export or hit-group name, each with its local root arguments. Hit groups
//! come from the libraries' subobjects (or `[[raytracing.hit_group]]`), the maximum recursion
//! depth from the pipeline-config subobject (or `max_recursion`). Every export is compiled under
//! the spec's binding model (`[root_signature]`, `source = "library"` for the libraries' global
//! root signature) with its local root signature (the libraries' association, or
//! `[[raytracing.local_root_signature]]`); the compiler's shader-record layout says where each
//! local argument goes.

use super::backend::{Backend, CompileFailure, Compiled};
use super::bindless;
use super::job::{RecordAddress, RtGroup, RtJob, RtRecord, RtStage};
use super::report::{SpecResult, Status};
use super::rtspec::{ArgSpec, HitGroupSpec, RecordSpec, RtSpec};
use super::spec::Spec;
use super::RunConfig;
use dxjit::binding::{LocalRoot, PushEntryKind};
use dxjit::container::rdat::{HitGroupType, SubobjectData};
use dxjit::container::Container;
use std::sync::Arc;
use std::time::Instant;

type Outcome = Result<(), (Status, String)>;

fn fail<T>(msg: impl Into<String>) -> Result<T, (Status, String)> {
    Err((Status::Fail, msg.into()))
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// One library of the spec: its bytes, exports and subobjects.
struct Library {
    bytes: Vec<u8>,
    rdat: dxjit::container::rdat::Rdat,
}

/// A compiled export and its index in the job's shader list.
struct Export {
    name: String,
    stage: RtStage,
    compiled: Compiled,
}

fn stage_of(name: &str) -> Option<RtStage> {
    Some(match name {
        "raygeneration" => RtStage::RayGeneration,
        "miss" => RtStage::Miss,
        "closesthit" => RtStage::ClosestHit,
        "anyhit" => RtStage::AnyHit,
        "intersection" => RtStage::Intersection,
        "callable" => RtStage::Callable,
        _ => return None,
    })
}

/// Compiles a spec's exports (once each) and makes its shader groups (once per name).
struct Builder<'a> {
    backend: &'a dyn Backend,
    libs: &'a [Library],
    rt: &'a RtSpec,
    model: &'a dxjit::binding::BindingModel,
    layout: &'a dxjit::binding::PushLayout,
    hit_groups: &'a [HitGroupSpec],
    exports: Vec<Export>,
    groups: Vec<RtGroup>,
    group_names: Vec<String>,
}

impl Builder<'_> {
    /// Which library holds an export (the only one when the libraries list no exports).
    fn library_of(&self, name: &str) -> Option<usize> {
        self.libs
            .iter()
            .position(|lib| lib.rdat.functions.iter().any(|f| f.unmangled_name == name && f.shader_kind.is_some()))
            .or((self.libs.len() == 1).then_some(0))
    }

    /// The index of export `name` in the job's shaders, compiled on first use.
    fn export(&mut self, name: &str) -> Result<u32, (Status, String)> {
        if let Some(k) = self.exports.iter().position(|e| e.name == name) {
            return Ok(k as u32);
        }
        let Some(lib) = self.library_of(name) else { return fail(format!("no library exports `{name}`")) };
        let mut m = self.model.clone();
        if let Some((_, lrs)) = self.rt.local_root_signatures.iter().find(|(ex, _)| ex.iter().any(|e| e == name)) {
            m.local_root_signature = LocalRoot::Given(lrs.clone());
        }
        let compiled = match self.backend.compile_bound(&self.libs[lib].bytes, Some(name), Arc::new(m)) {
            Ok((_, l)) if l != *self.layout => {
                return fail(format!(
                    "{name}: the compiler reports a root block {l:?}, the root signature gives {:?}",
                    self.layout
                ));
            }
            Ok((c, _)) => c,
            Err(CompileFailure::Unsupported(m)) => return Err((Status::CompileUnsupported, format!("{name}: {m}"))),
            Err(CompileFailure::Malformed(m)) => {
                return fail(format!("{name}: compile error (malformed or binding): {m}"))
            }
            Err(CompileFailure::Internal(m)) => return fail(format!("{name}: compile error (internal): {m}")),
        };
        let Some(stage) = stage_of(compiled.stage) else {
            return fail(format!("{name} is a {} export, not a ray-tracing shader", compiled.stage));
        };
        self.exports.push(Export { name: name.to_string(), stage, compiled });
        Ok(self.exports.len() as u32 - 1)
    }

    fn optional(&mut self, name: &str) -> Result<Option<u32>, (Status, String)> {
        if name.is_empty() {
            Ok(None)
        } else {
            self.export(name).map(Some)
        }
    }

    /// The group of a record: a hit group by name when the table wants hit shaders, else the
    /// export of one of the `want` stages.
    fn group(&mut self, name: &str, want: &[RtStage]) -> Result<u32, (Status, String)> {
        if let Some(k) = self.group_names.iter().position(|n| n == name) {
            return Ok(k as u32);
        }
        let hit_table = want.contains(&RtStage::ClosestHit);
        let g = match self.hit_groups.iter().find(|g| g.name == name).cloned() {
            Some(h) if hit_table => {
                let closest_hit = self.optional(&h.closest_hit)?;
                let any_hit = self.optional(&h.any_hit)?;
                if h.procedural {
                    let intersection = self.export(&h.intersection)?;
                    RtGroup::Procedural { intersection, closest_hit, any_hit }
                } else {
                    RtGroup::Triangles { closest_hit, any_hit }
                }
            }
            Some(_) => return fail(format!("{name} is a hit group, not a {:?} shader", want[0])),
            None if hit_table => return fail(format!("no hit group named `{name}`")),
            None => {
                let k = self.export(name)?;
                let stage = self.exports[k as usize].stage;
                if !want.contains(&stage) {
                    return fail(format!("{name} is a {stage:?} shader, the table wants {:?}", want[0]));
                }
                RtGroup::General(k)
            }
        };
        self.groups.push(g);
        self.group_names.push(name.to_string());
        Ok(self.groups.len() as u32 - 1)
    }
}

/// Runs a ray-tracing spec.
pub fn run(backend: &dyn Backend, spec: &Spec, rt: &RtSpec, cfg: &RunConfig, r: &mut SpecResult) -> Outcome {
    let caps = backend.caps();
    if !caps.features.contains("ray_tracing_pipeline") {
        return Err((Status::Skipped, "device lacks ray_tracing_pipeline (VK_KHR_ray_tracing_pipeline)".into()));
    }
    let missing: Vec<&str> = spec.requires.iter().filter(|f| !caps.features.contains(*f)).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err((Status::Skipped, format!("device lacks {}", missing.join(", "))));
    }
    let Some(root) = &spec.root else {
        return fail("a ray-tracing spec needs a [root_signature] (source = \"library\" or \"toml\")");
    };
    let mut libs = Vec::with_capacity(rt.libraries.len());
    for l in &rt.libraries {
        let path = cfg.path_of(l);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e)
                if !l.starts_with("fixtures/") && !cfg.corpus_root.join(l.split('/').next().unwrap_or("")).is_dir() =>
            {
                return Err((Status::Skipped, format!("corpus not found at {} ({e})", cfg.corpus_root.display())))
            }
            Err(e) => return fail(format!("cannot read library {}: {e}", path.display())),
        };
        // Libraries from older DXC builds carry no RDAT function table: their exports are
        // found by compiling (single-library specs).
        let rdat = match Container::parse(&bytes).map(|c| c.runtime_data()) {
            Ok(Ok(d)) => d.unwrap_or_default(),
            Ok(Err(e)) | Err(e) => return fail(format!("{l}: {e}")),
        };
        libs.push(Library { bytes, rdat });
    }
    // Hit groups: the spec's, then the libraries'.
    let mut groups_by_name: Vec<HitGroupSpec> = rt.hit_groups.clone();
    for lib in &libs {
        for o in &lib.rdat.subobjects {
            if let SubobjectData::HitGroup { hit_group_type, any_hit, closest_hit, intersection } = &o.data {
                if !groups_by_name.iter().any(|g| g.name == o.name) {
                    groups_by_name.push(HitGroupSpec {
                        name: o.name.clone(),
                        procedural: *hit_group_type == HitGroupType::ProceduralPrimitive,
                        closest_hit: closest_hit.clone(),
                        any_hit: any_hit.clone(),
                        intersection: intersection.clone(),
                    });
                }
            }
        }
    }
    // The global root signature.
    let rs = match &root.signature {
        Some(rs) => rs.clone(),
        None => {
            let k = libs
                .iter()
                .position(|lib| lib.rdat.functions.iter().any(|f| f.unmangled_name == rt.raygen.name))
                .unwrap_or(0);
            let c = Container::parse(&libs[k].bytes).map_err(|e| (Status::Fail, e.to_string()))?;
            match c.export_root_signature(&rt.raygen.name, false) {
                Ok(Some(rs)) => rs,
                Ok(None) => return fail("source = \"library\", but the library associates no global root signature"),
                Err(e) => return fail(format!("the library's global root signature: {e}")),
            }
        }
    };
    let model = bindless::model(root, rs.clone());
    // Where the backend's shaders read the root block, the heap arrays and the shader records'
    // descriptor handles (dxjit's model, or a layer's own rules: Backend::bound_layout).
    let (policy, layout) = backend.bound_layout(&model).or_else(fail)?;

    // Compile every export the tables reach, once, and make their groups.
    let t = Instant::now();
    let mut b = Builder {
        backend,
        libs: &libs,
        rt,
        model: &model,
        layout: &layout,
        hit_groups: &groups_by_name,
        exports: Vec::new(),
        groups: Vec::new(),
        group_names: Vec::new(),
    };
    let mut plan: Vec<(usize, &RecordSpec, u32)> = Vec::new();
    let hit_kinds = [RtStage::ClosestHit, RtStage::AnyHit, RtStage::Intersection];
    plan.push((0, &rt.raygen, b.group(&rt.raygen.name, &[RtStage::RayGeneration])?));
    for m in &rt.miss {
        plan.push((1, m, b.group(&m.name, &[RtStage::Miss])?));
    }
    for h in &rt.hit {
        plan.push((2, h, b.group(&h.name, &hit_kinds)?));
    }
    for c in &rt.callable {
        plan.push((3, c, b.group(&c.name, &[RtStage::Callable])?));
    }
    let Builder { exports, groups, .. } = b;
    r.compile_ms = ms(t);

    let binds = bindless::bind_with(spec, root, &rs, &layout, &policy).or_else(fail)?;
    // The shader records: local root arguments where the compiled exports' record layout says.
    let shaders_of = |g: &RtGroup| -> Vec<u32> {
        match *g {
            RtGroup::General(k) => vec![k],
            RtGroup::Triangles { closest_hit, any_hit } => closest_hit.into_iter().chain(any_hit).collect(),
            RtGroup::Procedural { intersection, closest_hit, any_hit } => {
                std::iter::once(intersection).chain(closest_hit).chain(any_hit).collect()
            }
        }
    };
    let mut tables: [Vec<RtRecord>; 4] = Default::default();
    for (table, rec, g) in plan {
        let what = format!("record {}", rec.name);
        let shaders = shaders_of(&groups[g as usize]);
        let layouts: Vec<&dxjit::binding::ShaderRecordLayout> =
            shaders.iter().filter_map(|&k| exports[k as usize].compiled.shader_record.as_ref()).collect();
        if layouts.windows(2).any(|w| w[0] != w[1]) {
            return fail(format!(
                "{what}: the group's shaders have different local root signatures (D3D12 rejects it)"
            ));
        }
        let mut out = RtRecord { group: g, data: Vec::new(), patches: Vec::new() };
        match layouts.first() {
            None if rec.args.iter().any(|a| *a != ArgSpec::Zero) => {
                return fail(format!("{what}: local root arguments, but no local root signature"));
            }
            None => {}
            Some(l) => {
                if rec.args.len() > l.entries.len() {
                    return fail(format!(
                        "{what}: {} arguments for {} local root parameters",
                        rec.args.len(),
                        l.entries.len()
                    ));
                }
                out.data = vec![0u8; l.size as usize];
                for (e, a) in l.entries.iter().zip(&rec.args) {
                    let at = e.offset as usize;
                    match (e.kind, a) {
                        (_, ArgSpec::Zero) => {}
                        (PushEntryKind::RootConstants { .. }, ArgSpec::Values(v)) if v.len() * 4 <= e.size as usize => {
                            for (k, x) in v.iter().enumerate() {
                                out.data[at + 4 * k..at + 4 * k + 4].copy_from_slice(&x.to_le_bytes());
                            }
                        }
                        (PushEntryKind::TableOffset { sampler_heap }, ArgSpec::Heap(h)) => {
                            // The table's descriptor handle as the backend decodes it: the heap
                            // index shifted left by log2 of its descriptor size.
                            let shift = if sampler_heap {
                                policy.record_sampler_table_shift
                            } else {
                                policy.record_table_shift
                            };
                            let handle = u64::from(*h) << shift.min(63);
                            out.data[at..at + 8].copy_from_slice(&handle.to_le_bytes());
                        }
                        (PushEntryKind::RootDescriptor { .. }, ArgSpec::Address { resource, offset }) => {
                            let Some(index) = binds.named.iter().find(|(n, _)| n == resource).map(|x| x.1) else {
                                return fail(format!("{what}: no record resource named `{resource}`"));
                            };
                            out.patches.push((e.offset, RecordAddress::Resource { index, offset: *offset }));
                        }
                        (PushEntryKind::RootDescriptor { .. }, ArgSpec::Tlas) => {
                            out.patches.push((e.offset, RecordAddress::Tlas));
                        }
                        (k, a) => return fail(format!("{what}: argument {a:?} does not suit parameter {k:?}")),
                    }
                }
            }
        }
        tables[table].push(out);
    }
    let [raygen, miss, hit, callable] = tables;
    let max_recursion = rt.max_recursion.unwrap_or_else(|| {
        libs.iter()
            .flat_map(|l| &l.rdat.subobjects)
            .find_map(|o| match o.data {
                SubobjectData::RaytracingPipelineConfig { max_trace_recursion_depth }
                | SubobjectData::RaytracingPipelineConfig1 { max_trace_recursion_depth, .. } => {
                    Some(max_trace_recursion_depth)
                }
                _ => None,
            })
            .unwrap_or(1)
    });
    let job = RtJob {
        shaders: exports.iter().map(|e| (e.stage, e.compiled.spirv.clone(), e.compiled.entry_point.clone())).collect(),
        groups,
        max_recursion,
        raygen: raygen.into_iter().next().unwrap_or_default(),
        miss,
        hit,
        callable,
        resources: binds.bound.clone(),
        push_constants: binds.push.clone(),
        scene: spec.scene.clone(),
        dispatch: rt.dispatch,
    };
    let t = Instant::now();
    let outputs = backend.run_ray_tracing(&job);
    r.run_ms = ms(t);
    let outputs = outputs.or_else(|e| fail(format!("DispatchRays failed: {e}")))?;
    bindless::check(spec, &binds, &outputs).or_else(fail)?;
    r.status = Status::Pass;
    Ok(())
}
