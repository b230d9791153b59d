//! Every hostile input in `../shared/hostile/` (mutants of corpus shaders on
//! which dxjit once emitted invalid SPIR-V or stopped with an internal
//! error; `$DXJIT_HOSTILE` overrides the folder) compiles to SPIR-V that
//! passes spirv-val, or fails as `Malformed`/`Unsupported` with a message
//! that names the rule. No `Internal`, no panic, no invalid output.
//!
//! The inputs are read from the shared folder, not committed: they are
//! mutants of corpus shaders, and the corpus stays out of the project.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use dxjit::{compile, CompileError, CompileOptions};
use dxjit_conformance::corpus::workspace_root;
use dxjit_conformance::spirv_val;

fn hostile_dir() -> PathBuf {
    match std::env::var_os("DXJIT_HOSTILE") {
        Some(p) => PathBuf::from(p),
        None => workspace_root().join("../shared/hostile"),
    }
}

/// Whether a rejection names what is wrong: the verifier's `rule `…``, or
/// the reader's and metadata decoder's own located messages.
fn names_rule(msg: &str) -> bool {
    msg.contains("rule `") || ["container:", "bitcode:", "metadata:", "signatures:"].iter().any(|p| msg.contains(p))
}

#[test]
fn hostile_inputs() {
    let dir = hostile_dir();
    let Ok(rd) = std::fs::read_dir(&dir) else {
        eprintln!("SKIPPED hostile_inputs: no folder {} (set DXJIT_HOSTILE)", dir.display());
        return;
    };
    let mut files: Vec<PathBuf> =
        rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "dxil")).collect();
    files.sort();
    assert!(!files.is_empty(), "no .dxil files in {}", dir.display());
    let opts = CompileOptions::default();
    let (mut valid, mut malformed, mut unsupported) = (0, 0, 0);
    let mut failures = Vec::new();
    for p in &files {
        let name = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let bytes = std::fs::read(p).unwrap();
        match catch_unwind(AssertUnwindSafe(|| compile(&bytes, &opts))) {
            Err(_) => failures.push(format!("{name}: panic")),
            Ok(Ok(cs)) => match spirv_val::validate(&cs.spirv) {
                Ok(()) => valid += 1,
                Err(msg) => failures.push(format!("{name}: INVALID SPIR-V: {msg}")),
            },
            Ok(Err(CompileError::Malformed(m))) => {
                eprintln!("{name}: malformed: {m}");
                if names_rule(&m) {
                    malformed += 1;
                } else {
                    failures.push(format!("{name}: malformed without a rule: {m}"));
                }
            }
            Ok(Err(e @ CompileError::Unsupported { .. })) => {
                eprintln!("{name}: {e}");
                unsupported += 1;
            }
            Ok(Err(CompileError::Internal(m))) => failures.push(format!("{name}: INTERNAL: {m}")),
            // No binding model is given here: a binding error would be a bug.
            Ok(Err(e @ CompileError::Binding(_))) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "hostile inputs: {} files, {valid} valid SPIR-V, {malformed} malformed, {unsupported} unsupported, {} failures",
        files.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(valid + malformed + unsupported, files.len());
}
