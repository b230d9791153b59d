//! The differential test of dxjit's native bitcode reader: every corpus
//! module is read by LLVM 14 (tests/llvm_ref) and by dxjit, both are rendered
//! into the neutral `refmodel`, and the renderings must be identical —
//! function by function, instruction by instruction (opcode, types,
//! operands, constants, flags, attachments) and all named metadata.

mod llvm_ref;

use dxjit::container::Container;
use dxjit::ir::{BinOp, ConstKind, InstKind, MdId, Metadata, Module};
use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::{dxjit_ref, refmodel};

fn bitcode(bytes: &[u8]) -> &[u8] {
    Container::parse(bytes).expect("container").dxil_program().expect("DXIL part").bitcode
}

#[test]
fn llvm_differential_whole_corpus() {
    let Some(corpus) = Corpus::for_test("llvm_differential_whole_corpus") else { return };
    let (mut modules, mut insts, mut mismatched) = (0usize, 0usize, Vec::new());
    for (set, e) in corpus.entries() {
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        let bc = bitcode(&bytes);
        let reference = llvm_ref::read_reference(bc).unwrap_or_else(|err| panic!("LLVM: {}: {err}", e.dxil_path));
        let ours = dxjit::bitcode::read_module(bc).unwrap_or_else(|err| panic!("dxjit: {}: {err}", e.dxil_path));
        let ours = dxjit_ref::render(&ours);
        let reference = undo_upgrades(reference, &ours);
        let d = refmodel::diff(&reference, &ours);
        modules += 1;
        insts += reference.instruction_count();
        if !d.is_empty() {
            mismatched.push((format!("{}/{}", set.name, e.dxil_path), d));
        }
    }
    for (path, d) in mismatched.iter().take(10) {
        eprintln!("== {path}");
        for line in d.iter().take(8) {
            eprintln!("   {line}");
        }
    }
    eprintln!("{modules} modules, {insts} instructions compared; {} modules mismatch", mismatched.len());
    assert!(mismatched.is_empty(), "{} of {modules} modules differ from LLVM 14", mismatched.len());
}

/// LLVM 14 auto-upgrades some 3.7 intrinsics while reading: it renames
/// `llvm.lifetime.start`/`end` to their pointer-mangled names
/// (`.p0i8`) and re-creates the declarations at the end of the function
/// list. Undo exactly that on the reference side: restore the 3.7 names
/// and the module order (by name, as dxjit read it). Nothing else changes.
fn undo_upgrades(mut reference: refmodel::RModule, ours: &refmodel::RModule) -> refmodel::RModule {
    use refmodel::ROperand;
    let rename = |n: &mut String| {
        for base in ["llvm.lifetime.start", "llvm.lifetime.end"] {
            if n.strip_prefix(base).is_some_and(|rest| rest.starts_with(".p")) {
                *n = base.to_string();
            }
        }
    };
    for f in &mut reference.functions {
        rename(&mut f.name);
        for i in f.blocks.iter_mut().flat_map(|b| &mut b.insts) {
            if let Some(ROperand::Function(n)) = i.operands.first_mut() {
                rename(n);
            }
        }
    }
    let pos = |name: &str| ours.functions.iter().position(|f| f.name == name).unwrap_or(usize::MAX);
    reference.functions.sort_by_key(|f| pos(&f.name));
    reference
}

/// Picks a corpus module that has the constructs the mutations below need.
fn sample() -> Option<(Vec<u8>, Module)> {
    let corpus = Corpus::for_test("llvm_differential_detects_mismatches")?;
    for (set, e) in corpus.entries() {
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        let m = dxjit::bitcode::read_module(bitcode(&bytes)).unwrap();
        let has_binop = m.functions.iter().flat_map(|f| &f.insts).any(|i| matches!(i.kind, InstKind::Binary { .. }));
        if has_binop && m.named_md("dx.entryPoints").is_some() {
            return Some((bitcode(&bytes).to_vec(), m));
        }
    }
    None
}

/// The test can fail: deliberately broken readings of a real module are
/// reported, each with a message naming the place.
#[test]
fn llvm_differential_detects_mismatches() {
    let Some((bc, module)) = sample() else { return };
    let reference = llvm_ref::read_reference(&bc).unwrap();
    assert!(refmodel::diff(&reference, &dxjit_ref::render(&module)).is_empty());

    // 1. Swapped operands of a binary operator.
    let mut m = module.clone();
    let f = m.functions.iter_mut().find(|f| f.insts.iter().any(|i| matches!(i.kind, InstKind::Binary { .. }))).unwrap();
    let i = f.insts.iter_mut().find(|i| matches!(i.kind, InstKind::Binary { .. })).unwrap();
    if let InstKind::Binary { lhs, rhs, op, .. } = &mut i.kind {
        if lhs == rhs {
            *op = if *op == BinOp::Add { BinOp::Sub } else { BinOp::Add };
        }
        std::mem::swap(lhs, rhs);
    }
    let d = refmodel::diff(&reference, &dxjit_ref::render(&m));
    assert!(!d.is_empty(), "swapped operands not detected");

    // 2. A changed integer constant.
    let mut m = module.clone();
    let c = m.consts.iter_mut().find(|c| matches!(c.kind, ConstKind::Int(_))).unwrap();
    if let ConstKind::Int(v) = &mut c.kind {
        *v ^= 1;
    }
    assert!(!refmodel::diff(&reference, &dxjit_ref::render(&m)).is_empty(), "changed constant not detected");

    // 3. A metadata string changed (named metadata are compared too).
    let mut m = module.clone();
    let i = m.metadata.iter().position(|md| matches!(md, Metadata::String(_))).unwrap();
    let changed = format!("{}!", m.md_string(MdId(i as u32)).unwrap());
    m.metadata[i] = m.new_md_string(&changed);
    assert!(!refmodel::diff(&reference, &dxjit_ref::render(&m)).is_empty(), "changed metadata not detected");

    // 4. A dropped instruction.
    let mut m = module.clone();
    let f = m.functions.iter_mut().find(|f| !f.is_declaration).unwrap();
    f.blocks[0].first += 1;
    assert!(!refmodel::diff(&reference, &dxjit_ref::render(&m)).is_empty(), "dropped instruction not detected");
}
