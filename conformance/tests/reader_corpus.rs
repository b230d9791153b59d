//! Every corpus module reads with dxjit's native bitcode reader.

use dxjit_conformance::corpus::Corpus;

fn bitcode_of(bytes: &[u8]) -> &[u8] {
    let n = u32::from_le_bytes(bytes[28..32].try_into().unwrap()) as usize;
    for i in 0..n {
        let off = u32::from_le_bytes(bytes[32 + 4 * i..36 + 4 * i].try_into().unwrap()) as usize;
        if &bytes[off..off + 4] == b"DXIL" {
            let p = off + 8;
            let bc_off = u32::from_le_bytes(bytes[p + 16..p + 20].try_into().unwrap()) as usize;
            let bc_size = u32::from_le_bytes(bytes[p + 20..p + 24].try_into().unwrap()) as usize;
            return &bytes[p + 8 + bc_off..p + 8 + bc_off + bc_size];
        }
    }
    panic!("no DXIL part")
}

#[test]
fn reader_reads_corpus() {
    let Some(corpus) = Corpus::for_test("reader_reads_corpus") else { return };
    let mut failures = Vec::new();
    let mut n = 0;
    for (set, e) in corpus.entries() {
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        n += 1;
        match dxjit::bitcode::read_module(bitcode_of(&bytes)) {
            Ok(m) => {
                assert!(!m.functions.is_empty(), "{}: no functions", e.dxil_path);
                assert!(
                    m.named_md("dx.entryPoints").is_some() || m.named_md("dx.shaderModel").is_some(),
                    "{}",
                    e.dxil_path
                );
            }
            Err(err) => failures.push(format!("{}/{}: {err}", set.name, e.dxil_path)),
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} of {n} modules failed to read", failures.len());
}
