//! Every corpus module reads with dxjit's native bitcode reader, and every
//! `dx.op` call decodes against the DXIL operation table.

use dxjit::container::Container;
use dxjit::ir::{InstKind, Value};
use dxjit_conformance::corpus::Corpus;

#[test]
fn reader_reads_corpus() {
    let Some(corpus) = Corpus::for_test("reader_reads_corpus") else { return };
    let mut failures = Vec::new();
    let (mut modules, mut dx_ops, mut insts) = (0, 0, 0);
    for (set, e) in corpus.entries() {
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let program = container.dxil_program().unwrap();
        modules += 1;
        match dxjit::bitcode::read_module(program.bitcode) {
            Ok(m) => {
                assert!(!m.functions.is_empty(), "{}: no functions", e.dxil_path);
                assert!(m.named_md("dx.shaderModel").is_some(), "{}: no dx.shaderModel", e.dxil_path);
                for f in &m.functions {
                    for i in &f.insts {
                        insts += 1;
                        match &i.kind {
                            InstKind::DxOp { .. } => dx_ops += 1,
                            InstKind::Call { callee: Value::Function(c), .. } => {
                                let name = &m.function(*c).name;
                                assert!(!name.starts_with("dx.op."), "{}: undecoded call of {name}", e.dxil_path);
                            }
                            _ => {}
                        }
                    }
                }
            }
            Err(err) => failures.push(format!("{}/{}: {err}", set.name, e.dxil_path)),
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!("{modules} modules, {insts} instructions, {dx_ops} dx.op calls decoded");
    assert!(failures.is_empty(), "{} of {modules} modules failed to read", failures.len());
    assert!(dx_ops > 0);
}
