//! What the verifier hands lowering (`dxjit::analysis::Flows`: the CFGs, and `Hints` that
//! spare lowering's pre-passes walks of their own) changes no output: every shader compiles
//! to the same SPIR-V through `dxjit::compile` (verifier, then lowering with what it found)
//! as through `dxjit::compile::compile_module` (lowering alone, which walks for itself). And
//! the hints do fire: functions found without variables, modules found with heap handles.

use dxjit_conformance::corpus::{corpus_root, dxil_files, fixtures_root};
use std::path::PathBuf;

#[derive(Default)]
struct Seen {
    compiled: usize,
    functions_without_locals: usize,
    functions_with_locals: usize,
    heap_modules: usize,
}

fn check(files: &[PathBuf], seen: &mut Seen) {
    let opts = dxjit::CompileOptions::default();
    for p in files {
        let bytes = std::fs::read(p).unwrap();
        let Ok(c) = dxjit::container::Container::parse(&bytes) else { continue };
        let Ok(prog) = c.dxil_program() else { continue };
        let Ok((m, facts)) = dxjit::bitcode::read_module_with_facts(prog.bitcode) else { continue };
        let Ok(info) = dxjit::dxil::decode(&m) else { continue };
        let Ok(flows) = dxjit::verify::verify_read(&m, &info, &facts) else { continue };
        let hints = &flows.hints;
        assert!(hints.walked, "{}", p.display());
        seen.heap_modules += usize::from(hints.heap_handles);
        for f in m.functions.iter().filter(|f| !f.is_declaration) {
            let locals = f
                .insts
                .iter()
                .any(|i| matches!(i.kind, dxjit::ir::InstKind::Alloca { .. } | dxjit::ir::InstKind::Phi { .. }));
            // Never a wrong "no variables": lowering would declare none.
            assert!(!(locals && hints.no_locals(&m, f)), "{}: function `{}` has variables", p.display(), f.name);
            if hints.no_locals(&m, f) {
                seen.functions_without_locals += 1;
            } else {
                seen.functions_with_locals += usize::from(locals);
            }
        }
        let heap = m.functions.iter().flat_map(|f| &f.insts).any(|i| {
            matches!(i.kind, dxjit::ir::InstKind::DxOp { op: dxjit::dxil_op::DxilOp::CreateHandleFromHeap, .. })
        });
        assert_eq!(heap, hints.heap_handles, "{}: heap handles", p.display());
        // The same SPIR-V with the verifier's hints as without.
        let Ok(with) = dxjit::compile(&bytes, &opts) else { continue };
        let without = dxjit::compile::compile_module(&m, &opts)
            .unwrap_or_else(|e| panic!("{}: compiles with the verifier, not without: {e}", p.display()));
        assert!(with.spirv == without.spirv, "{}: SPIR-V differs with the verifier's hints", p.display());
        seen.compiled += 1;
    }
}

#[test]
fn fixtures_compile_alike_with_and_without_the_verifiers_hints() {
    let mut files = Vec::new();
    dxil_files(&fixtures_root(), &mut files);
    let mut seen = Seen::default();
    check(&files, &mut seen);
    assert!(seen.compiled >= 90, "compiled {} fixtures", seen.compiled);
    assert!(seen.functions_without_locals > 0 && seen.functions_with_locals > 0);
    assert!(seen.heap_modules > 0, "no fixture with heap handles");
}

#[test]
fn corpus_compiles_alike_with_and_without_the_verifiers_hints() {
    let dir = corpus_root();
    if !dir.is_dir() {
        eprintln!("SKIPPED corpus_compiles_alike_with_and_without_the_verifiers_hints: no corpus at {}", dir.display());
        return;
    }
    let mut files = Vec::new();
    dxil_files(&dir, &mut files);
    let mut seen = Seen::default();
    check(&files, &mut seen);
    eprintln!(
        "corpus: {} shaders compiled alike; {} functions without variables, {} with; {} modules with heap handles",
        seen.compiled, seen.functions_without_locals, seen.functions_with_locals, seen.heap_modules
    );
    assert!(seen.compiled >= 500, "compiled {} corpus shaders", seen.compiled);
    assert!(seen.functions_without_locals > 0 && seen.functions_with_locals > 0 && seen.heap_modules > 0);
}
