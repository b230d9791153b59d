//! Assembled containers compile like the originals: for every corpus
//! container and fixture, the text `dxjit dis` prints is assembled
//! (`asm::assemble`) and compiled with default options; the SPIR-V must be
//! word for word the original's, and where the original is refused the
//! assembled one is refused with the same error. Libraries are compiled per
//! export, their subobjects (local root signatures) coming from the `RDAT`
//! part the assembler makes of the printed `!dx.subobjects`.

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
    let (mut n, mut same_spirv, mut same_error, mut exports) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let Ok(c) = Container::parse(&bytes) else { continue };
        let Ok(m) = dxjit::bitcode::read_module(c.dxil_program().unwrap().bitcode) else { continue };
        let Ok(info) = dxjit::dxil::decode(&m) else { continue };
        n += 1;
        let mut text = dxjit::ir::print::print_module(&m);
        let library = info.shader_model.kind == dxjit::ShaderKind::Library;
        if let Some(r) = c.runtime_data().unwrap() {
            text.push_str(&dxjit::asm::rdat::subobjects_text(&r.subobjects, m.metadata.len()));
        }
        let ours = dxjit::asm::assemble(&text, &Default::default()).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        // A library's exports one by one (`--entry`), else the shader.
        let entries: Vec<Option<String>> = if library {
            info.functions().map(|e| Some(dxjit::dxil::library::export_name(&e.name).to_string())).collect()
        } else {
            vec![None]
        };
        for entry in entries {
            exports += usize::from(entry.is_some());
            let what = format!("{}{}", p.display(), entry.as_ref().map(|e| format!(" ({e})")).unwrap_or_default());
            let opts = dxjit::CompileOptions { entry_point: entry, ..opts.clone() };
            match (dxjit::compile(&bytes, &opts), dxjit::compile(&ours, &opts)) {
                (Ok(a), Ok(b)) if a.spirv == b.spirv => same_spirv += 1,
                (Ok(_), Ok(_)) => failures.push(format!("{what}: different SPIR-V")),
                (Err(a), Err(b)) if a.to_string() == b.to_string() => same_error += 1,
                (a, b) => failures.push(format!(
                    "{what}: original {:?}, assembled {:?}",
                    a.map(|_| ()).map_err(|e| e.to_string()),
                    b.map(|_| ()).map_err(|e| e.to_string())
                )),
            }
        }
    }
    for f in failures.iter().take(10) {
        eprintln!("{f}");
    }
    eprintln!(
        "assembled: {n} containers ({exports} library exports compiled one by one): {same_spirv} compile to the \
         original's SPIR-V, {same_error} refused alike"
    );
    assert!(failures.is_empty(), "{} assembled shaders compile differently", failures.len());
}
