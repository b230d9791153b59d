//! Ray-tracing specs (`[raytracing]`) and acceleration structures (`[[blas]]`, `[[instance]]`,
//! also for ray-query specs): parsing, and running a `DispatchRays` through the backend.
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
use super::error::SpecError;
use super::job::{Geometry, Instance, RecordAddress, RtGroup, RtJob, RtRecord, RtStage, Scene, Triangles};
use super::report::{SpecResult, Status};
use super::spec::Spec;
use super::RunConfig;
use dxjit::binding::{LocalRoot, PushEntryKind};
use dxjit::container::rdat::{HitGroupType, SubobjectData};
use dxjit::container::rootsig::RootSignature;
use dxjit::container::Container;
use std::sync::Arc;
use std::time::Instant;
use toml::{Table, Value};

/// A parsed `[raytracing]`.
#[derive(Debug, Clone, PartialEq)]
pub struct RtSpec {
    /// `fixtures/…` or corpus paths of the DXIL libraries.
    pub libraries: Vec<String>,
    pub dispatch: [u32; 3],
    /// `None`: the libraries' `RaytracingPipelineConfig` (else 1).
    pub max_recursion: Option<u32>,
    pub raygen: RecordSpec,
    pub miss: Vec<RecordSpec>,
    pub hit: Vec<RecordSpec>,
    pub callable: Vec<RecordSpec>,
    /// Hit groups besides the libraries' own.
    pub hit_groups: Vec<HitGroupSpec>,
    /// Local root signatures given by the spec, with the exports they apply to.
    pub local_root_signatures: Vec<(Vec<String>, RootSignature)>,
}

/// One shader record: an export (raygen, miss, callable) or a hit group, and its local root
/// arguments in parameter order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RecordSpec {
    pub name: String,
    pub args: Vec<ArgSpec>,
}

/// One local root argument.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgSpec {
    /// Left zero.
    Zero,
    /// Root constants.
    Values(Vec<u32>),
    /// A descriptor table: the heap index of its first descriptor (the handle's low word).
    Heap(u32),
    /// A root descriptor: the address of the named resource plus `offset` bytes.
    Address { resource: String, offset: u64 },
    /// A root SRV holding the top-level acceleration structure.
    Tlas,
}

/// A hit group (D3D12_HIT_GROUP_DESC): empty strings for absent shaders.
#[derive(Debug, Clone, PartialEq)]
pub struct HitGroupSpec {
    pub name: String,
    pub procedural: bool,
    pub closest_hit: String,
    pub any_hit: String,
    pub intersection: String,
}

fn bad(ctx: impl Into<String>, msg: impl Into<String>) -> SpecError {
    SpecError::new(ctx, msg)
}

fn float(v: &Value, ctx: &str) -> Result<f32, SpecError> {
    match v {
        Value::Float(f) => Ok(*f as f32),
        Value::Integer(i) => Ok(*i as f32),
        _ => Err(bad(ctx, "expected a number")),
    }
}

fn floats<const N: usize>(v: &Value, ctx: &str) -> Result<[f32; N], SpecError> {
    let Value::Array(a) = v else { return Err(bad(ctx, format!("expected {N} numbers"))) };
    if a.len() != N {
        return Err(bad(ctx, format!("expected {N} numbers, got {}", a.len())));
    }
    let mut out = [0f32; N];
    for (k, x) in a.iter().enumerate() {
        out[k] = float(x, ctx)?;
    }
    Ok(out)
}

fn uint(v: &Value, ctx: &str, max: u64) -> Result<u32, SpecError> {
    match v {
        Value::Integer(i) if *i >= 0 && (*i as u64) <= max => Ok(*i as u32),
        _ => Err(bad(ctx, format!("expected an integer in 0..={max}"))),
    }
}

fn get_bool(t: &Table, key: &str, ctx: &str) -> Result<bool, SpecError> {
    match t.get(key) {
        None => Ok(false),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(_) => Err(bad(format!("{ctx}.{key}"), "expected true or false")),
    }
}

fn only_keys(t: &Table, keys: &[&str], ctx: &str) -> Result<(), SpecError> {
    match t.keys().find(|k| !keys.contains(&k.as_str())) {
        Some(k) => Err(bad(ctx, format!("unknown key `{k}` (known: {})", keys.join(", ")))),
        None => Ok(()),
    }
}

/// Parses `[[blas]]` and `[[instance]]` (`None` when both are absent).
pub fn parse_scene(blas: &[Table], instances: &[Table]) -> Result<Option<Scene>, SpecError> {
    if blas.is_empty() && instances.is_empty() {
        return Ok(None);
    }
    let mut scene = Scene::default();
    for (b, t) in blas.iter().enumerate() {
        let ctx = format!("blas[{b}]");
        only_keys(t, &["geometry"], &ctx)?;
        let Some(Value::Array(geoms)) = t.get("geometry") else {
            return Err(bad(&ctx, "needs [[blas.geometry]] entries"));
        };
        let mut out = Vec::with_capacity(geoms.len());
        for (g, v) in geoms.iter().enumerate() {
            let gctx = format!("{ctx}.geometry[{g}]");
            let Value::Table(gt) = v else { return Err(bad(&gctx, "expected a table")) };
            only_keys(
                gt,
                &["type", "vertices", "indices", "transform", "boxes", "opaque", "no_duplicate_any_hit"],
                &gctx,
            )?;
            let opaque = get_bool(gt, "opaque", &gctx)?;
            let no_duplicate_any_hit = get_bool(gt, "no_duplicate_any_hit", &gctx)?;
            let list = |key: &str| -> Result<&Vec<Value>, SpecError> {
                match gt.get(key) {
                    Some(Value::Array(a)) if !a.is_empty() => Ok(a),
                    _ => Err(bad(format!("{gctx}.{key}"), "expected a non-empty array")),
                }
            };
            let geom = match gt.get("type").and_then(Value::as_str) {
                Some("triangles") => {
                    if gt.contains_key("boxes") {
                        return Err(bad(&gctx, "triangles take vertices, indices and transform"));
                    }
                    let vertices: Vec<[f32; 3]> = list("vertices")?
                        .iter()
                        .enumerate()
                        .map(|(k, v)| floats::<3>(v, &format!("{gctx}.vertices[{k}]")))
                        .collect::<Result<_, _>>()?;
                    let indices = match gt.get("indices") {
                        None => None,
                        Some(_) => Some(
                            list("indices")?
                                .iter()
                                .map(|v| uint(v, &format!("{gctx}.indices"), u64::from(u32::MAX)))
                                .collect::<Result<Vec<_>, _>>()?,
                        ),
                    };
                    let n = indices.as_ref().map_or(vertices.len(), Vec::len);
                    if n % 3 != 0 {
                        return Err(bad(&gctx, format!("{n} vertices/indices is not a multiple of 3")));
                    }
                    if let Some(ix) = &indices {
                        if ix.iter().any(|&i| i as usize >= vertices.len()) {
                            return Err(bad(&gctx, "an index lies past the vertices"));
                        }
                    }
                    let transform = match gt.get("transform") {
                        Some(v) => Some(floats::<12>(v, &format!("{gctx}.transform"))?),
                        None => None,
                    };
                    Geometry {
                        triangles: Some(Triangles { vertices, indices, transform }),
                        aabbs: Vec::new(),
                        opaque,
                        no_duplicate_any_hit,
                    }
                }
                Some("aabbs") => {
                    if ["vertices", "indices", "transform"].iter().any(|k| gt.contains_key(*k)) {
                        return Err(bad(&gctx, "AABB geometry takes `boxes` only"));
                    }
                    let aabbs: Vec<[f32; 6]> = list("boxes")?
                        .iter()
                        .enumerate()
                        .map(|(k, v)| floats::<6>(v, &format!("{gctx}.boxes[{k}]")))
                        .collect::<Result<_, _>>()?;
                    if aabbs.iter().any(|b| b[0] > b[3] || b[1] > b[4] || b[2] > b[5]) {
                        return Err(bad(&gctx, "a box's minimum exceeds its maximum"));
                    }
                    Geometry { triangles: None, aabbs, opaque, no_duplicate_any_hit }
                }
                _ => return Err(bad(format!("{gctx}.type"), "\"triangles\" or \"aabbs\"")),
            };
            out.push(geom);
        }
        if out.is_empty() {
            return Err(bad(&ctx, "a bottom-level structure needs a geometry"));
        }
        scene.blas.push(out);
    }
    for (i, t) in instances.iter().enumerate() {
        let ctx = format!("instance[{i}]");
        only_keys(t, &["blas", "transform", "id", "mask", "hit_group_offset", "flags"], &ctx)?;
        let blas = uint(t.get("blas").unwrap_or(&Value::Integer(0)), &format!("{ctx}.blas"), u64::from(u32::MAX))?;
        if blas as usize >= scene.blas.len() {
            return Err(bad(&ctx, format!("blas {blas}: the spec has {}", scene.blas.len())));
        }
        let transform = match t.get("transform") {
            Some(v) => floats::<12>(v, &format!("{ctx}.transform"))?,
            None => [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
        };
        let id = match t.get("id") {
            Some(v) => uint(v, &format!("{ctx}.id"), (1 << 24) - 1)?,
            None => 0,
        };
        let mask = match t.get("mask") {
            Some(v) => uint(v, &format!("{ctx}.mask"), 0xff)? as u8,
            None => 0xff,
        };
        let hit_group_offset = match t.get("hit_group_offset") {
            Some(v) => uint(v, &format!("{ctx}.hit_group_offset"), (1 << 24) - 1)?,
            None => 0,
        };
        let mut flags = 0u8;
        if let Some(v) = t.get("flags") {
            let Value::Array(a) = v else { return Err(bad(format!("{ctx}.flags"), "expected a list of names")) };
            for f in a {
                // D3D12_RAYTRACING_INSTANCE_FLAGS.
                flags |=
                    match f.as_str() {
                        Some("triangle_cull_disable") => 1,
                        Some("triangle_front_counterclockwise") => 2,
                        Some("force_opaque") => 4,
                        Some("force_non_opaque") => 8,
                        _ => return Err(bad(
                            format!("{ctx}.flags"),
                            "triangle_cull_disable, triangle_front_counterclockwise, force_opaque or force_non_opaque",
                        )),
                    };
            }
        }
        scene.instances.push(Instance { blas, transform, id, mask, hit_group_offset, flags });
    }
    Ok(Some(scene))
}

fn parse_record(v: &Value, key: &str, ctx: &str) -> Result<RecordSpec, SpecError> {
    match v {
        Value::String(s) => Ok(RecordSpec { name: s.clone(), args: Vec::new() }),
        Value::Table(t) => {
            only_keys(t, &[key, "args"], ctx)?;
            let name =
                t.get(key).and_then(Value::as_str).ok_or_else(|| bad(ctx, format!("needs `{key}`")))?.to_string();
            let mut args = Vec::new();
            if let Some(a) = t.get("args") {
                let Value::Array(a) = a else { return Err(bad(format!("{ctx}.args"), "expected a list")) };
                for (k, x) in a.iter().enumerate() {
                    let actx = format!("{ctx}.args[{k}]");
                    let Value::Table(at) = x else { return Err(bad(&actx, "expected a table")) };
                    only_keys(at, &["values", "f32", "heap", "address", "offset", "tlas"], &actx)?;
                    if ["values", "f32", "heap", "address", "tlas"].iter().filter(|k| at.contains_key(**k)).count() > 1
                    {
                        return Err(bad(&actx, "give one of `values`, `f32`, `heap`, `address` or `tlas`"));
                    }
                    let arg = if let Some(Value::Array(vals)) = at.get("values") {
                        ArgSpec::Values(
                            vals.iter().map(|v| uint(v, &actx, u64::from(u32::MAX))).collect::<Result<_, _>>()?,
                        )
                    } else if let Some(Value::Array(vals)) = at.get("f32") {
                        ArgSpec::Values(
                            vals.iter().map(|v| float(v, &actx).map(f32::to_bits)).collect::<Result<_, _>>()?,
                        )
                    } else if let Some(h) = at.get("heap") {
                        ArgSpec::Heap(uint(h, &actx, u64::from(super::rootsig::MAX_HEAP))?)
                    } else if let Some(r) = at.get("address") {
                        let resource = r.as_str().ok_or_else(|| bad(&actx, "`address` names a resource"))?.to_string();
                        let offset = match at.get("offset") {
                            Some(o) => u64::from(uint(o, &actx, u64::from(u32::MAX))?),
                            None => 0,
                        };
                        ArgSpec::Address { resource, offset }
                    } else if get_bool(at, "tlas", &actx)? {
                        ArgSpec::Tlas
                    } else if at.is_empty() {
                        ArgSpec::Zero
                    } else {
                        return Err(bad(
                            &actx,
                            "give `values`, `f32`, `heap`, `address` (+ `offset`) or `tlas = true`",
                        ));
                    };
                    args.push(arg);
                }
            }
            Ok(RecordSpec { name, args })
        }
        _ => Err(bad(ctx, format!("expected a name or a table with `{key}`"))),
    }
}

fn records(t: &Table, table: &str, key: &str) -> Result<Vec<RecordSpec>, SpecError> {
    match t.get(table) {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => {
            a.iter().enumerate().map(|(k, v)| parse_record(v, key, &format!("raytracing.{table}[{k}]"))).collect()
        }
        Some(_) => Err(bad(format!("raytracing.{table}"), "expected a list of records")),
    }
}

/// Parses `[raytracing]`.
pub fn parse_raytracing(t: Table) -> Result<RtSpec, SpecError> {
    let ctx = "raytracing";
    only_keys(
        &t,
        &[
            "library",
            "libraries",
            "dispatch",
            "max_recursion",
            "raygen",
            "miss",
            "hit",
            "callable",
            "hit_group",
            "local_root_signature",
        ],
        ctx,
    )?;
    let libraries: Vec<String> = match (t.get("library"), t.get("libraries")) {
        (Some(Value::String(s)), None) => vec![s.clone()],
        (None, Some(Value::Array(a))) if !a.is_empty() => a
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| bad("raytracing.libraries", "expected paths")))
            .collect::<Result<_, _>>()?,
        _ => return Err(bad(ctx, "give `library = \"…\"` or `libraries = [\"…\", …]`")),
    };
    for l in &libraries {
        if !["fixtures/", "vkd3d-proton/", "dxil-spirv/"].iter().any(|p| l.starts_with(p))
            || l.split('/').any(|c| c == "..")
        {
            return Err(bad("raytracing.library", "must start with fixtures/, vkd3d-proton/ or dxil-spirv/ (no `..`)"));
        }
    }
    let dispatch = match t.get("dispatch") {
        Some(Value::Array(a)) if a.len() == 3 => {
            let mut d = [0u32; 3];
            for (k, v) in a.iter().enumerate() {
                d[k] = uint(v, "raytracing.dispatch", 1 << 20)?;
            }
            if d.contains(&0) {
                return Err(bad("raytracing.dispatch", "every dimension must be at least 1"));
            }
            d
        }
        _ => return Err(bad("raytracing.dispatch", "needs [x, y, z]")),
    };
    let max_recursion = match t.get("max_recursion") {
        Some(v) => Some(uint(v, "raytracing.max_recursion", 31)?),
        None => None,
    };
    let raygen = parse_record(
        t.get("raygen").ok_or_else(|| bad("raytracing.raygen", "missing"))?,
        "shader",
        "raytracing.raygen",
    )?;
    let mut hit_groups = Vec::new();
    if let Some(v) = t.get("hit_group") {
        let Value::Array(a) = v else { return Err(bad("raytracing.hit_group", "expected [[raytracing.hit_group]]")) };
        for (k, x) in a.iter().enumerate() {
            let hctx = format!("raytracing.hit_group[{k}]");
            let Value::Table(h) = x else { return Err(bad(&hctx, "expected a table")) };
            only_keys(h, &["name", "type", "closest_hit", "any_hit", "intersection"], &hctx)?;
            let s = |key: &str| h.get(key).and_then(Value::as_str).unwrap_or("").to_string();
            let procedural = match h.get("type").and_then(Value::as_str) {
                None | Some("triangles") => false,
                Some("procedural") => true,
                Some(o) => return Err(bad(&hctx, format!("type `{o}`: triangles or procedural"))),
            };
            let g = HitGroupSpec {
                name: s("name"),
                procedural,
                closest_hit: s("closest_hit"),
                any_hit: s("any_hit"),
                intersection: s("intersection"),
            };
            if g.name.is_empty() || (procedural == g.intersection.is_empty()) {
                return Err(bad(&hctx, "needs a `name`; an intersection shader exactly for procedural groups"));
            }
            hit_groups.push(g);
        }
    }
    let mut local_root_signatures = Vec::new();
    if let Some(v) = t.get("local_root_signature") {
        let Value::Array(a) = v else {
            return Err(bad("raytracing.local_root_signature", "expected [[raytracing.local_root_signature]]"));
        };
        for (k, x) in a.iter().enumerate() {
            let lctx = format!("raytracing.local_root_signature[{k}]");
            let Value::Table(lt) = x else { return Err(bad(&lctx, "expected a table")) };
            let exports: Vec<String> = match lt.get("exports") {
                Some(Value::Array(e)) if !e.is_empty() => e
                    .iter()
                    .map(|v| v.as_str().map(str::to_string).ok_or_else(|| bad(&lctx, "exports are names")))
                    .collect::<Result<_, _>>()?,
                _ => return Err(bad(&lctx, "needs `exports = [\"…\"]`")),
            };
            // The parameters read like a [root_signature] written in TOML.
            let mut rs = lt.clone();
            rs.remove("exports");
            rs.insert("source".into(), Value::String("toml".into()));
            let raw: super::rootsig::RawRootSig =
                Value::Table(rs).try_into().map_err(|e: toml::de::Error| bad(&lctx, e.to_string()))?;
            let spec = super::rootsig::parse_root(raw).map_err(|e| bad(format!("{lctx}: {}", e.path), e.message))?;
            let Some(mut sig) = spec.signature else { return Err(bad(&lctx, "no parameters")) };
            sig.flags |= 0x80; // D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE
            local_root_signatures.push((exports, sig));
        }
    }
    Ok(RtSpec {
        libraries,
        dispatch,
        max_recursion,
        raygen,
        miss: records(&t, "miss", "shader")?,
        hit: records(&t, "hit", "group")?,
        callable: records(&t, "callable", "shader")?,
        hit_groups,
        local_root_signatures,
    })
}

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
    let layout = model.push_layout();

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

    let binds = bindless::bind(spec, root, &rs, &layout).or_else(fail)?;
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
                        (PushEntryKind::TableOffset { .. }, ArgSpec::Heap(h)) => {
                            out.data[at..at + 4].copy_from_slice(&h.to_le_bytes());
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn parse(text: &str) -> Result<Spec, SpecError> {
        Spec::parse("t", Path::new("t.toml"), text)
    }

    const SPEC: &str = r#"
description = "d"
[raytracing]
library = "fixtures/raytracing/basic.lib_6_3.dxil"
dispatch = [4, 2, 1]
raygen = "RayGen"
miss = ["Miss", { shader = "Miss2", args = [{ values = [7] }] }]
hit = [{ group = "HG", args = [{}, { heap = 3 }, { address = "buf", offset = 16 }, { tlas = true }, { f32 = [1.5] }] }]
[[raytracing.hit_group]]
name = "HG"
type = "procedural"
closest_hit = "CH"
intersection = "IS"
[[raytracing.local_root_signature]]
exports = ["CH"]
[[raytracing.local_root_signature.parameter]]
kind = "cbv"
register = "b0"
space = 1

[root_signature]
source = "library"

[[blas]]
[[blas.geometry]]
type = "aabbs"
boxes = [[0, 0, 0, 1, 1, 1]]
opaque = true
[[instance]]
blas = 0
id = 5
flags = ["force_opaque", "triangle_cull_disable"]

[[resource]]
register = "b0"
space = 1
kind = "cbuffer"
name = "buf"
record = true
size = 64
"#;

    #[test]
    fn parses_tables_hit_groups_local_root_signatures_and_the_scene() {
        let s = parse(SPEC).expect("parses");
        let rt = s.raytracing.as_deref().expect("raytracing");
        assert_eq!(rt.dispatch, [4, 2, 1]);
        assert_eq!(rt.miss.len(), 2);
        assert_eq!(rt.miss[1].args, [ArgSpec::Values(vec![7])]);
        assert_eq!(
            rt.hit[0].args,
            [
                ArgSpec::Zero,
                ArgSpec::Heap(3),
                ArgSpec::Address { resource: "buf".into(), offset: 16 },
                ArgSpec::Tlas,
                ArgSpec::Values(vec![1.5f32.to_bits()]),
            ]
        );
        assert!(rt.hit_groups[0].procedural);
        let (exports, lrs) = &rt.local_root_signatures[0];
        assert_eq!(exports, &["CH"]);
        assert_eq!(lrs.flags & 0x80, 0x80, "a local root signature");
        let scene = s.scene.as_ref().expect("scene");
        assert_eq!(scene.blas[0][0].aabbs, [[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]]);
        assert_eq!((scene.instances[0].id, scene.instances[0].mask, scene.instances[0].flags), (5, 0xff, 5));
        assert!(s.root.as_ref().is_some_and(|r| r.library));
        assert_eq!(s.resources[0].place, super::super::spec::Place::Address);
    }

    #[test]
    fn rejects_inconsistent_specs() {
        let cases = [
            (SPEC.replace("boxes = [[0, 0, 0, 1, 1, 1]]", "boxes = [[2, 0, 0, 1, 1, 1]]"), "minimum exceeds"),
            (SPEC.replace("blas = 0\nid = 5", "blas = 3\nid = 5"), "blas 3"),
            (SPEC.replace("\"force_opaque\", ", "\"opaque\", "), "force_opaque"),
            (SPEC.replace("{ heap = 3 }", "{ heap = 3, tlas = true }"), "give one of"),
            (SPEC.replace("{ heap = 3 }", "{ slot = 3 }"), "unknown key"),
            (SPEC.replace("dispatch = [4, 2, 1]", "dispatch = [4, 0, 1]"), "at least 1"),
            (SPEC.replace("type = \"procedural\"\n", ""), "intersection shader exactly"),
            (SPEC.replace("record = true\n", "record = true\nroot = 1\n"), "takes no `heap`"),
            (SPEC.replace("library = \"fixtures/", "library = \"../"), "must start with"),
        ];
        for (text, want) in cases {
            match parse(&text) {
                Err(e) => assert!(e.to_string().contains(want), "{want}: {e}"),
                Ok(_) => panic!("accepted a spec that should fail with {want}"),
            }
        }
    }
}
