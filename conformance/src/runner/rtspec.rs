//! Ray-tracing specs' own sections, parsed: `[raytracing]` (libraries, shader tables with local
//! root arguments, hit groups, local root signatures) and the acceleration structures
//! (`[[blas]]`, `[[instance]]`) any spec may build. [`super::rt`] runs them.

use super::error::SpecError;
use super::job::{Geometry, Instance, Scene, Triangles};
use dxjit::container::rootsig::RootSignature;
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

#[cfg(test)]
mod tests {
    use super::super::spec::{Place, Spec};
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
        assert_eq!(s.resources[0].place, Place::Address);
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
