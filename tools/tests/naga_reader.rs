//! naga as a second, independent reader of dxjit's SPIR-V: every fixture
//! and corpus shader dxjit compiles is given to naga's SPIR-V front end and
//! validator. For each module naga accepts, what naga reads must agree with
//! what dxjit says it wrote (one entry point of the right stage, the compute
//! workgroup size, the descriptor set/binding pairs, a push-constant block
//! exactly when dxjit reports one), and naga's WGSL, GLSL, MSL and HLSL back
//! ends are run on it. Prints how many modules naga accepts and how many
//! each back end writes; rejections are counted by reason (naga lacks e.g.
//! tessellation, geometry shaders, texel buffers and draw parameters).

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use dxjit::{compile, CompileOptions, ShaderKind};
use dxjit_cli::emit::{self, Emit};
use dxjit_conformance::corpus::{dxil_files, fixtures_root, Corpus};
use naga::{AddressSpace, ShaderStage};

#[derive(Default)]
struct Tally {
    compiled: usize,
    accepted: usize,
    by_stage: BTreeMap<&'static str, (usize, usize)>,
    rejected: BTreeMap<String, usize>,
    written: BTreeMap<&'static str, usize>,
    disagreements: Vec<String>,
}

fn naga_stage(k: ShaderKind) -> Option<ShaderStage> {
    Some(match k {
        ShaderKind::Vertex => ShaderStage::Vertex,
        ShaderKind::Pixel => ShaderStage::Fragment,
        ShaderKind::Compute => ShaderStage::Compute,
        _ => return None,
    })
}

/// The first words of a rejection, so that reasons group (ids and indices dropped).
fn reason_kind(r: &str) -> String {
    r.split(|c: char| c == '%' || c == '[' || c.is_ascii_digit()).next().unwrap_or(r).trim().to_string()
}

fn check(name: &str, bytes: &[u8], t: &mut Tally) {
    let Ok(shader) = compile(bytes, &CompileOptions::default()) else { return };
    t.compiled += 1;
    let stage = shader.stage.name();
    let row = t.by_stage.entry(stage).or_default();
    row.0 += 1;
    let (module, _) = match emit::naga_module(&shader.spirv) {
        Ok(m) => m,
        Err(reason) => {
            *t.rejected.entry(reason_kind(&reason)).or_default() += 1;
            return;
        }
    };
    row.1 += 1;
    t.accepted += 1;
    let mut bad = |what: String| t.disagreements.push(format!("{name}: {what}"));
    match module.entry_points.as_slice() {
        [ep] => {
            if Some(ep.stage) != naga_stage(shader.stage) {
                bad(format!("naga reads a {:?} entry point, dxjit compiled a {stage} shader", ep.stage));
            }
            if ep.name != shader.entry_point {
                bad(format!("entry point {:?} in naga, {:?} in dxjit", ep.name, shader.entry_point));
            }
            if shader.stage == ShaderKind::Compute && ep.workgroup_size != shader.workgroup_size {
                bad(format!("workgroup size {:?} in naga, {:?} in dxjit", ep.workgroup_size, shader.workgroup_size));
            }
        }
        eps => bad(format!("{} entry points in naga's reading", eps.len())),
    }
    let naga_bindings: BTreeSet<(u32, u32)> =
        module.global_variables.iter().filter_map(|(_, g)| g.binding.as_ref().map(|b| (b.group, b.binding))).collect();
    let mut dxjit_bindings: BTreeSet<(u32, u32)> = shader.bindings.iter().map(|b| (b.set, b.binding)).collect();
    dxjit_bindings.extend(shader.bindings.iter().filter_map(|b| b.counter_binding));
    dxjit_bindings.extend(shader.heap_bindings.iter().map(|h| (h.set, h.binding)));
    if naga_bindings != dxjit_bindings {
        bad(format!("set/binding pairs {naga_bindings:?} in naga, {dxjit_bindings:?} in dxjit"));
    }
    let push = module.global_variables.iter().any(|(_, g)| g.space == AddressSpace::Immediate);
    if push != shader.push_constants.is_some() {
        bad(format!("push constants: naga {push}, dxjit {:?}", shader.push_constants));
    }
    for e in [Emit::Wgsl, Emit::Glsl, Emit::Msl, Emit::Hlsl] {
        // A panic inside naga's back end is naga's bug; it is counted as not written.
        if let Ok(Ok(text)) = catch_unwind(AssertUnwindSafe(|| emit::text(&shader.spirv, e, stage))) {
            if !text.is_empty() {
                *t.written.entry(e.name()).or_default() += 1;
            }
        }
    }
}

fn report(what: &str, t: &Tally) {
    let stages: Vec<String> = t.by_stage.iter().map(|(s, (n, a))| format!("{s} {a}/{n}")).collect();
    eprintln!(
        "naga reads {} of {} {what} modules dxjit compiles ({:.0}%) [{}]; writes wgsl/glsl/msl/hlsl: {:?}",
        t.accepted,
        t.compiled,
        100.0 * t.accepted as f64 / t.compiled.max(1) as f64,
        stages.join(", "),
        t.written
    );
    let mut top: Vec<_> = t.rejected.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1));
    for (r, n) in top.iter().take(8) {
        eprintln!("  naga rejects x{n}: {r}");
    }
    for d in &t.disagreements {
        eprintln!("DISAGREE {d}");
    }
}

#[test]
fn naga_reads_fixture_modules_as_dxjit_describes_them() {
    let mut files: Vec<PathBuf> = Vec::new();
    dxil_files(&fixtures_root(), &mut files);
    // DXIL libraries compile export by export (`--entry`), not as one shader.
    files.retain(|f| !f.to_string_lossy().contains(".lib_"));
    let mut t = Tally::default();
    for f in &files {
        let bytes = std::fs::read(f).expect("fixture");
        check(&f.display().to_string(), &bytes, &mut t);
    }
    report("fixture", &t);
    assert!(t.disagreements.is_empty(), "{} disagreements between naga and dxjit", t.disagreements.len());
    assert!(t.compiled == files.len(), "a fixture does not compile");
    // Compute shaders without wave ops, 64-bit types or texel buffers, and
    // pixel shaders without demote are in naga's reach.
    assert!(t.by_stage.get("compute").is_some_and(|c| c.1 >= 10), "naga reads too few compute fixtures");
    assert!(t.by_stage.get("pixel").is_some_and(|c| c.1 >= 5), "naga reads too few pixel fixtures");
    assert!(t.written.get("glsl").is_some_and(|&n| n * 10 >= t.accepted * 9), "GLSL written for {:?}", t.written);
}

#[test]
fn naga_reads_corpus_modules_as_dxjit_describes_them() {
    let Some(corpus) = Corpus::for_test("naga_reads_corpus_modules_as_dxjit_describes_them") else { return };
    let mut t = Tally::default();
    for (set, e) in corpus.entries() {
        let Ok(bytes) = std::fs::read(set.path_of(e)) else { continue };
        check(&format!("{}/{}", set.name, e.dxil_path), &bytes, &mut t);
    }
    report("corpus", &t);
    assert!(t.disagreements.is_empty(), "{} disagreements between naga and dxjit", t.disagreements.len());
    assert!(t.accepted * 5 >= t.compiled, "naga reads only {} of {} modules", t.accepted, t.compiled);
}
