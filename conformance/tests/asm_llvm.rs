//! The bitcode writer against LLVM 14: every corpus module and fixture,
//! read by dxjit and written back (`bitcode::write_module`), and also
//! printed, assembled and written, is read by LLVM 14 and passes its
//! verifier exactly when the DXC original does, and LLVM sees the same
//! module in all three (functions, instructions, constants, flags,
//! attachments and named metadata: `refmodel`).

mod llvm_ref;

use dxjit::container::Container;
use dxjit_conformance::corpus::{dxil_files, fixtures_root, Corpus};
use dxjit_conformance::refmodel;

#[test]
fn llvm14_reads_written_bitcode_as_the_original() {
    let mut files = Vec::new();
    if let Some(c) = Corpus::for_test("llvm14_reads_written_bitcode (corpus part)") {
        files.extend(c.entries().map(|(s, e)| s.path_of(e)));
    }
    dxil_files(&fixtures_root(), &mut files);
    let (mut n, mut insts, mut verified) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let bc = Container::parse(&bytes).unwrap().dxil_program().unwrap().bitcode;
        let Ok(m) = dxjit::bitcode::read_module(bc) else { continue };
        n += 1;
        let ours = dxjit::bitcode::write_module(&m).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let original = llvm_ref::read_reference(bc).unwrap_or_else(|e| panic!("{}: original: {e}", p.display()));
        let written = match llvm_ref::read_reference(&ours) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{}: {e}", p.display()));
                continue;
            }
        };
        insts += written.instruction_count();
        let d = refmodel::diff(&original, &written);
        if !d.is_empty() {
            failures.push(format!(
                "{}: LLVM reads it differently:\n    {}",
                p.display(),
                d[..d.len().min(6)].join("\n    ")
            ));
            continue;
        }
        match (llvm_ref::verify(bc), llvm_ref::verify(&ours)) {
            (Ok(()), Ok(())) => verified += 1,
            (Err(_), Err(_)) => {}
            (a, b) => failures.push(format!("{}: LLVM verifier: original {a:?}, written {b:?}", p.display())),
        }
    }
    for f in failures.iter().take(10) {
        eprintln!("{f}");
    }
    eprintln!(
        "LLVM 14: {} of {n} written modules read as the original ({insts} instructions), {verified} pass the verifier",
        n - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {n} written modules are not what LLVM 14 reads in the original",
        failures.len()
    );
}
