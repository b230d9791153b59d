//! Every vertex, pixel and geometry shader of the corpus compiles alone
//! (default link plan) to SPIR-V that passes `spirv-val`, or is rejected as
//! `Unsupported` naming the feature. Invalid SPIR-V, internal errors and
//! panics fail the test, and at least 90% must compile. Prints a summary line.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use dxjit::{compile, CompileError, CompileOptions};
use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::spirv_val;

#[derive(Default)]
struct Counts {
    total: usize,
    valid: usize,
    unsupported: usize,
}

#[test]
fn compile_graphics_corpus() {
    let Some(corpus) = Corpus::for_test("compile_graphics_corpus") else { return };
    let opts = CompileOptions::default();
    let mut per_stage: BTreeMap<String, Counts> = BTreeMap::new();
    let mut invalid = Vec::new();
    let mut panics = Vec::new();
    let mut internal = Vec::new();
    let mut malformed = Vec::new();
    let mut features: BTreeMap<String, usize> = BTreeMap::new();
    let verbose = std::env::var_os("DXJIT_VERBOSE").is_some();
    for (set, e) in corpus.entries() {
        if !matches!(e.stage.as_str(), "vertex" | "pixel" | "geometry") {
            continue;
        }
        let c = per_stage.entry(e.stage.clone()).or_default();
        c.total += 1;
        let name = format!("{}/{}", set.name, e.dxil_path);
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        match catch_unwind(AssertUnwindSafe(|| compile(&bytes, &opts))) {
            Err(_) => panics.push(name),
            Ok(Ok(cs)) => match spirv_val::validate(&cs.spirv) {
                Ok(()) => c.valid += 1,
                Err(msg) => invalid.push(format!("{name}: {msg}")),
            },
            Ok(Err(CompileError::Unsupported { feature, .. })) => {
                if verbose {
                    eprintln!("unsupported {name}: {feature}");
                }
                c.unsupported += 1;
                *features.entry(feature).or_default() += 1;
            }
            Ok(Err(CompileError::Malformed(m))) => malformed.push(format!("{name}: {m}")),
            Ok(Err(CompileError::Internal(m))) => internal.push(format!("{name}: {m}")),
            // No binding model is given here: a binding error would be a bug.
            Ok(Err(e @ CompileError::Binding(_))) => internal.push(format!("{name}: {e}")),
        }
    }
    let mut top: Vec<_> = features.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (f, n) in &top {
        eprintln!("  unsupported x{n}: {f}");
    }
    for m in invalid.iter().chain(&internal).chain(&malformed).chain(&panics) {
        eprintln!("FAILED {m}");
    }
    let total: usize = per_stage.values().map(|c| c.total).sum();
    let valid: usize = per_stage.values().map(|c| c.valid).sum();
    let unsupported: usize = per_stage.values().map(|c| c.unsupported).sum();
    let stages: Vec<String> =
        per_stage.iter().map(|(s, c)| format!("{s} {}/{} ({} unsupported)", c.valid, c.total, c.unsupported)).collect();
    let top3: Vec<String> = top.iter().take(3).map(|(f, n)| format!("{f} x{n}")).collect();
    eprintln!(
        "graphics corpus: {total} shaders, {valid} compiled+valid ({:.1}%) [{}], {unsupported} unsupported [{}], \
         {} malformed, {} INVALID, {} internal errors, {} panics",
        100.0 * valid as f64 / total.max(1) as f64,
        stages.join(", "),
        top3.join("; "),
        malformed.len(),
        invalid.len(),
        internal.len(),
        panics.len()
    );
    assert!(invalid.is_empty(), "{} modules fail spirv-val", invalid.len());
    assert!(panics.is_empty(), "{} compiles panicked", panics.len());
    assert!(internal.is_empty(), "{} internal errors", internal.len());
    assert!(malformed.is_empty(), "{} corpus shaders reported malformed", malformed.len());
    assert!(valid * 10 >= total * 9, "only {valid} of {total} graphics shaders compile to valid SPIR-V");
}
