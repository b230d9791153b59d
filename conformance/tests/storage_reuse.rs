//! A compile reuses the storage of the thread's previous compiles (the
//! bitcode reader's scratch, the module's tables, the verifier's memos): a
//! shader must compile to the same SPIR-V, or fail with the same message,
//! whichever shaders the thread compiled before it. Every corpus container is
//! compiled on one thread in file order, then again in reverse order, after a
//! hostile input that fails part-way through reading, and each result is
//! compared with the first.

use dxjit::{compile, CompileOptions};
use dxjit_conformance::corpus::{corpus_root, dxil_files, workspace_root};

fn outcome(bytes: &[u8]) -> Result<Vec<u32>, String> {
    compile(bytes, &CompileOptions::default()).map(|s| s.spirv).map_err(|e| e.to_string())
}

#[test]
fn compiles_do_not_depend_on_the_previous_ones() {
    let root = corpus_root();
    let mut files = Vec::new();
    dxil_files(&root, &mut files);
    if files.is_empty() {
        eprintln!(
            "SKIPPED compiles_do_not_depend_on_the_previous_ones: corpus not found at {} (set DXJIT_CORPUS)",
            root.display()
        );
        return;
    }
    let blobs: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).expect("corpus file")).collect();
    let first: Vec<_> = blobs.iter().map(|b| outcome(b)).collect();
    let compiled = first.iter().filter(|r| r.is_ok()).count();
    assert!(compiled > blobs.len() / 2, "most corpus shaders compile ({compiled} of {})", blobs.len());

    // Inputs that stop the reader or the verifier part-way, so the next compile starts from
    // storage a failed one left behind.
    let mut hostile = Vec::new();
    dxil_files(&workspace_root().join("../shared/hostile"), &mut hostile);
    let hostile: Vec<Vec<u8>> = hostile.iter().filter_map(|p| std::fs::read(p).ok()).collect();

    let mut differ = Vec::new();
    for (i, b) in blobs.iter().enumerate().rev() {
        if let Some(h) = hostile.get(i % hostile.len().max(1)) {
            let _ = outcome(h);
        }
        if outcome(b) != first[i] {
            differ.push(files[i].display().to_string());
        }
    }
    assert!(differ.is_empty(), "{} shaders compiled differently in another order: {differ:#?}", differ.len());
    println!("{} containers ({compiled} compiled) gave the same result in both orders", blobs.len());
}
