//! Assembled containers compile like the originals: for every corpus
//! container and fixture, the text `dxjit dis` prints is assembled
//! (`asm::assemble`) and compiled with default options; the SPIR-V must be
//! word for word the original's, and where the original is refused the
//! assembled one is refused with the same error.

use dxjit::container::Container;
use dxjit_conformance::corpus::{dxil_files, fixtures_root, Corpus};

#[test]
fn assembled_containers_compile_to_the_same_spirv() {
    let mut files = Vec::new();
    if let Some(c) = Corpus::for_test("assembled_containers_compile (corpus part)") {
        files.extend(c.entries().map(|(s, e)| s.path_of(e)));
    }
    dxil_files(&fixtures_root(), &mut files);
    let opts = dxjit::CompileOptions::default();
    let (mut n, mut same_spirv, mut same_error) = (0, 0, 0);
    let mut failures = Vec::new();
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let Ok(c) = Container::parse(&bytes) else { continue };
        let Ok(m) = dxjit::bitcode::read_module(c.dxil_program().unwrap().bitcode) else { continue };
        let Ok(info) = dxjit::dxil::decode(&m) else { continue };
        if info.shader_model.kind == dxjit::ShaderKind::Library {
            continue; // compiled per export (`--entry`); the export list comes from RDAT
        }
        n += 1;
        let text = dxjit::ir::print::print_module(&m);
        let ours = dxjit::asm::assemble(&text, &Default::default()).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        match (dxjit::compile(&bytes, &opts), dxjit::compile(&ours, &opts)) {
            (Ok(a), Ok(b)) if a.spirv == b.spirv => same_spirv += 1,
            (Ok(_), Ok(_)) => failures.push(format!("{}: different SPIR-V", p.display())),
            (Err(a), Err(b)) if a.to_string() == b.to_string() => same_error += 1,
            (a, b) => failures.push(format!(
                "{}: original {:?}, assembled {:?}",
                p.display(),
                a.map(|_| ()).map_err(|e| e.to_string()),
                b.map(|_| ()).map_err(|e| e.to_string())
            )),
        }
    }
    for f in failures.iter().take(10) {
        eprintln!("{f}");
    }
    eprintln!("assembled: {same_spirv} of {n} compile to the original's SPIR-V, {same_error} refused alike");
    assert!(failures.is_empty(), "{} of {n} assembled containers compile differently", failures.len());
}
