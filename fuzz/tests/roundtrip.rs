//! The bitstream tree round-trips: every fixture container, its bitcode
//! parsed and rewritten unabbreviated, compiles exactly as the original
//! (same SPIR-V or the same error), so mutants differ from their seed only
//! by the mutation.

use std::path::{Path, PathBuf};

fn dxil_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            dxil_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxil") {
            out.push(p);
        }
    }
}

#[test]
fn rewritten_fixtures_compile_as_the_originals() {
    let mut files = Vec::new();
    dxil_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"), &mut files);
    files.sort();
    assert!(!files.is_empty());
    let opts = dxjit::CompileOptions::default();
    for p in &files {
        let c = std::fs::read(p).unwrap();
        let (_, bc) = dxjit_fuzz::container::bitcode(&c).unwrap_or_else(|| panic!("{}: no DXIL part", p.display()));
        let tree = dxjit_fuzz::tree::parse(bc).unwrap_or_else(|| panic!("{}: bitstream not parsed", p.display()));
        let c2 = dxjit_fuzz::container::with_bitcode(&c, &dxjit_fuzz::tree::write(&tree)).unwrap();
        assert_eq!(dxjit::compile(&c, &opts), dxjit::compile(&c2, &opts), "{}", p.display());
    }
}

#[test]
fn mutants_are_well_formed_bitstreams() {
    let mut files = Vec::new();
    dxil_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"), &mut files);
    files.sort();
    let mut rng = dxjit_fuzz::Rng::new(5);
    let mut changed = 0;
    for p in files.iter().take(20) {
        let c = std::fs::read(p).unwrap();
        for _ in 0..20 {
            let m = dxjit_fuzz::mutate::mutate_container(&c, &mut rng).unwrap();
            let (_, bc) = dxjit_fuzz::container::bitcode(&m).unwrap();
            // The rewritten stream always parses back as a tree.
            assert!(dxjit_fuzz::tree::parse(bc).is_some(), "{}", p.display());
            changed += usize::from(m != c);
        }
    }
    assert!(changed > 0);
}

/// A metadata value re-pointed at another constant of its type keeps the
/// module readable: such mutants always get past the bitcode reader, and
/// every mutant differs from its seed.
#[test]
fn metadata_value_mutants_get_past_the_reader() {
    let mut files = Vec::new();
    dxil_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"), &mut files);
    files.sort();
    let mut rng = dxjit_fuzz::Rng::new(7);
    let mut md_only = 0;
    for p in files.iter().take(40) {
        let c = std::fs::read(p).unwrap();
        for _ in 0..30 {
            let (m, log) = dxjit_fuzz::mutate::mutate_container_logged(&c, &mut rng).unwrap();
            let tree = |c: &[u8]| dxjit_fuzz::tree::parse(dxjit_fuzz::container::bitcode(c).unwrap().1).unwrap();
            assert!(!log.is_empty() && tree(&m) != tree(&c), "{}: a mutant equal to its seed", p.display());
            if log.iter().all(|x| x.kind == "metadata-value") {
                md_only += 1;
                let (_, bc) = dxjit_fuzz::container::bitcode(&m).unwrap();
                if let Err(e) = dxjit::bitcode::read_module(bc) {
                    panic!("{}: {:?}: {e}", p.display(), log);
                }
            }
        }
    }
    assert!(md_only > 20, "{md_only} metadata-only mutants");
}
