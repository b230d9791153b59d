//! Every corpus module reads with dxjit's native bitcode reader.

use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::testutil::bitcode_of;

#[test]
fn reader_reads_corpus() {
    let Some(corpus) = Corpus::for_test("reader_reads_corpus") else { return };
    let mut failures = Vec::new();
    let mut n = 0;
    for (set, e) in corpus.entries() {
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        n += 1;
        let Some(bc) = bitcode_of(&bytes) else {
            failures.push(format!("{}/{}: no DXIL part", set.name, e.dxil_path));
            continue;
        };
        match dxjit::bitcode::read_module(bc) {
            Ok(m) => {
                assert!(!m.functions.is_empty(), "{}: no functions", e.dxil_path);
                assert!(m.named_md("dx.entryPoints").is_some() || m.named_md("dx.shaderModel").is_some(), "{}", e.dxil_path);
            }
            Err(err) => failures.push(format!("{}/{}: {err}", set.name, e.dxil_path)),
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} of {n} modules failed to read", failures.len());
}
