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

/// Campaign 33333 finding: a function record's code turned into the old `cmpxchg` (37),
/// whose pointer operand named a value not read yet; the reader took the pointee of that
/// value's placeholder type (`u32::MAX`) and panicked indexing the type table (the record
/// gives the forward reference's type: that one is meant). Rebuilt on every fixture: each
/// function-block record of seven or more operands becomes a code-37 record whose pointer is
/// the value being defined (relative id 0), typed by each of the first type ids in turn;
/// every one must read to a module or an error.
#[test]
fn old_cmpxchg_of_a_forward_pointer_reads_or_fails() {
    use dxjit::bitcode::tree::{parse, records_mut, write, Item};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxil") {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut mutants, mut read) = (0, 0);
    for p in files.iter().take(12) {
        let bytes = std::fs::read(p).unwrap();
        let Ok(c) = dxjit::container::Container::parse(&bytes) else { continue };
        let Ok(part) = c.dxil_program() else { continue };
        let Some(tree) = parse(part.bitcode) else { continue };
        let mut probe = tree.clone();
        let mut recs = Vec::new();
        records_mut(&mut probe, u32::MAX, &mut recs);
        for k in 0..recs.len() {
            let Some((12, Item::Record { ops, .. })) = recs.get(k) else { continue };
            if ops.len() < 7 {
                continue;
            }
            for ty in 0..8 {
                let mut t = tree.clone();
                let mut recs = Vec::new();
                records_mut(&mut t, u32::MAX, &mut recs);
                let Some((_, Item::Record { code, ops })) = recs.get_mut(k) else { continue };
                *code = 37;
                ops[0] = 0;
                ops[1] = ty;
                mutants += 1;
                read += usize::from(dxjit::bitcode::read_module(&write(&t)).is_ok());
            }
        }
    }
    eprintln!("{mutants} records made old cmpxchgs of a forward pointer, {read} read to a module");
    assert!(mutants > 100, "{mutants} mutants from {} fixtures", files.len());
}
