//! Ray tracing over the corpus and the fixtures: every export of every DXIL
//! library (`lib_6_x`) is compiled by its plain export name; ray-tracing
//! exports (raygen, intersection, any hit, closest hit, miss, callable) must
//! give SPIR-V that passes `spirv-val`, work-graph node shaders must be
//! rejected as `Unsupported` naming work graphs. Every non-library shader
//! that uses inline ray queries (`RayQuery_*` ops) must compile and pass
//! `spirv-val` too. Prints counts per export kind.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use dxjit::dxil::library::export_name;
use dxjit::{compile, CompileError, CompileOptions, ShaderKind};
use dxjit_conformance::corpus::{self, Corpus};
use dxjit_conformance::spirv_val;

/// The module of a container (None: not readable, which other tests report).
fn module_of(bytes: &[u8]) -> Option<dxjit::ir::Module> {
    let c = dxjit::container::Container::parse(bytes).ok()?;
    let p = c.dxil_program().ok()?;
    dxjit::bitcode::read_module(p.bitcode).ok()
}

fn uses_ray_queries(m: &dxjit::ir::Module) -> bool {
    m.functions.iter().any(|f| f.name.starts_with("dx.op.allocateRayQuery"))
}

#[derive(Default)]
struct Tally {
    per_kind: BTreeMap<String, (usize, usize)>,
    failures: Vec<String>,
    node_rejected: usize,
    ray_query: (usize, usize),
}

fn check(name: &str, bytes: &[u8], opts: &CompileOptions) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(|| compile(bytes, opts))) {
        Err(_) => Err(format!("PANIC {name}")),
        Ok(Ok(cs)) => spirv_val::validate(&cs.spirv).map_err(|m| format!("INVALID {name}: {m}")),
        Ok(Err(e)) => Err(format!("{name}: {e}")),
    }
}

fn run(t: &mut Tally, name: &str, bytes: &[u8]) {
    let Some(m) = module_of(bytes) else { return };
    let Ok(info) = dxjit::dxil::decode(&m) else { return };
    if info.shader_model.kind != ShaderKind::Library {
        if uses_ray_queries(&m) {
            t.ray_query.0 += 1;
            match check(name, bytes, &CompileOptions::default()) {
                Ok(()) => t.ray_query.1 += 1,
                Err(e) => t.failures.push(e),
            }
        }
        return;
    }
    for ep in info.functions() {
        let kind = ep.properties.shader_kind;
        let export = export_name(&ep.name).to_string();
        let opts = CompileOptions { entry_point: Some(export.clone()), ..CompileOptions::default() };
        let what = format!("{name} export {export}");
        if kind == Some(ShaderKind::Node) {
            match catch_unwind(AssertUnwindSafe(|| compile(bytes, &opts))) {
                Ok(Err(CompileError::Unsupported { feature, .. })) if feature.contains("work-graph") => {
                    t.node_rejected += 1
                }
                Ok(r) => t.failures.push(format!("{what}: node shader not rejected as a work graph: {:?}", r.err())),
                Err(_) => t.failures.push(format!("PANIC {what}")),
            }
            continue;
        }
        let r = check(&what, bytes, &opts);
        let slot = t.per_kind.entry(kind.map_or("none".into(), |k| k.name().to_string())).or_default();
        slot.0 += 1;
        match r {
            Ok(()) => slot.1 += 1,
            Err(e) => t.failures.push(e),
        }
    }
}

#[test]
fn compile_raytracing_corpus() {
    let Some(corpus) = Corpus::for_test("compile_raytracing_corpus") else { return };
    let mut t = Tally::default();
    for (set, e) in corpus.entries() {
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        run(&mut t, &format!("{}/{}", set.name, e.dxil_path), &bytes);
    }
    report(&t, "corpus");
    let exports: usize = t.per_kind.values().map(|v| v.0).sum();
    assert!(exports >= 40, "expected the corpus's ray-tracing library exports, found {exports}");
    assert!(t.ray_query.0 >= 5, "expected the corpus's ray-query shaders, found {}", t.ray_query.0);
}

#[test]
fn compile_raytracing_fixtures() {
    let root = corpus::fixtures_root();
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["raytracing", "rayquery"] {
        corpus::dxil_files(&root.join(dir), &mut files);
    }
    if files.is_empty() {
        println!("SKIPPED compile_raytracing_fixtures: no fixtures under {}", root.display());
        return;
    }
    files.sort();
    let mut t = Tally::default();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        run(&mut t, &f.display().to_string(), &bytes);
    }
    report(&t, "fixtures");
    let exports: usize = t.per_kind.values().map(|v| v.0).sum();
    // basic 3, anyhit_ignore 4, procedural 4, callable 3, local_rootsig 3, recursion 5 (assembled);
    // rayquery: 2 shaders.
    assert_eq!(exports, 22);
    assert_eq!(t.ray_query, (2, 2));
}

fn report(t: &Tally, what: &str) {
    for f in &t.failures {
        eprintln!("{f}");
    }
    let kinds: Vec<String> = t.per_kind.iter().map(|(k, (n, ok))| format!("{k} {ok}/{n}")).collect();
    eprintln!(
        "ray tracing {what}: library exports [{}], {} work-graph node shaders rejected (named), ray-query shaders {}/{}, {} failures",
        kinds.join(", "),
        t.node_rejected,
        t.ray_query.1,
        t.ray_query.0,
        t.failures.len()
    );
    assert!(t.failures.is_empty(), "{} ray-tracing compiles failed", t.failures.len());
}
