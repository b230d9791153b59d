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
