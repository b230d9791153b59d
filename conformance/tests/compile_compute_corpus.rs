//! Every non-library compute shader of the corpus either compiles to SPIR-V
//! that passes `spirv-val`, or is rejected as `Unsupported` naming the
//! feature. Invalid SPIR-V and panics fail the test. Prints a summary line.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use dxjit::{compile, CompileError, CompileOptions};
use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::spirv_val;

#[test]
fn compile_compute_corpus() {
    let Some(corpus) = Corpus::for_test("compile_compute_corpus") else { return };
    let opts = CompileOptions::default();
    let (mut total, mut valid, mut unsupported, mut malformed) = (0, 0, 0, 0);
    let mut invalid = Vec::new();
    let mut panics = Vec::new();
    let mut internal = Vec::new();
    let mut features: BTreeMap<String, usize> = BTreeMap::new();
    let verbose = std::env::var_os("DXJIT_VERBOSE").is_some();
    for (set, e) in corpus.entries() {
        if e.stage != "compute" {
            continue;
        }
        total += 1;
        let name = format!("{}/{}", set.name, e.dxil_path);
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        match catch_unwind(AssertUnwindSafe(|| compile(&bytes, &opts))) {
            Err(_) => panics.push(name),
            Ok(Ok(cs)) => match spirv_val::validate(&cs.spirv) {
                Ok(()) => valid += 1,
                Err(msg) => invalid.push(format!("{name}: {msg}")),
            },
            Ok(Err(CompileError::Unsupported { feature, .. })) => {
                if verbose {
                    eprintln!("unsupported {name}: {feature}");
                }
                unsupported += 1;
                *features.entry(feature).or_default() += 1;
            }
            Ok(Err(CompileError::Malformed(m))) => {
                eprintln!("malformed {name}: {m}");
                malformed += 1;
            }
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
    for m in &invalid {
        eprintln!("INVALID {m}");
    }
    for m in &internal {
        eprintln!("INTERNAL {m}");
    }
    for m in &panics {
        eprintln!("PANIC {m}");
    }
    let top3: Vec<String> = top.iter().take(3).map(|(f, n)| format!("{f} x{n}")).collect();
    eprintln!(
        "compute corpus: {total} shaders, {valid} compiled+valid ({:.1}%), {unsupported} unsupported [{}], \
         {malformed} malformed, {} INVALID, {} internal errors, {} panics",
        100.0 * valid as f64 / total.max(1) as f64,
        top3.join("; "),
        invalid.len(),
        internal.len(),
        panics.len()
    );
    assert!(invalid.is_empty(), "{} modules fail spirv-val", invalid.len());
    assert!(panics.is_empty(), "{} compiles panicked", panics.len());
    assert!(internal.is_empty(), "{} internal errors", internal.len());
    assert_eq!(malformed, 0, "corpus shaders reported malformed");
}
