//! Inputs the fuzzers (fuzz/) once found crashing, hanging or blowing up,
//! minimised and kept: each must now give a module or a typed error quickly,
//! and anything printed stays bounded.

use std::path::Path;

fn inputs(kind: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions").join(kind);
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

fn check_module(name: &str, m: &dxjit::ir::Module) {
    let text = dxjit::ir::print::print_module(m);
    // Every type and constant rendering is capped; the whole text is bounded
    // by the module's size times those caps.
    let bound =
        64 * 1024 + (m.types.len() + m.consts.len() + m.functions.iter().map(|f| f.insts.len()).sum::<usize>()) * 9000;
    assert!(text.len() <= bound, "{name}: printed {} bytes", text.len());
    let _ = dxjit::dxil::decode(m);
}

#[test]
fn bitcode_regressions() {
    let cases = inputs("bitcode");
    assert!(!cases.is_empty());
    for (name, bytes) in cases {
        if let Ok(m) = dxjit::bitcode::read_module(&bytes) {
            check_module(&name, &m);
        }
    }
}

#[test]
fn container_regressions() {
    for (name, bytes) in inputs("container") {
        let Ok(c) = dxjit::container::Container::parse(&bytes) else { continue };
        let _ = (c.psv0(), c.input_signature(), c.output_signature(), c.patch_constant_signature(), c.root_signature());
        if let Ok(p) = c.dxil_program() {
            if let Ok(m) = dxjit::bitcode::read_module(p.bitcode) {
                check_module(&name, &m);
            }
        }
    }
}
