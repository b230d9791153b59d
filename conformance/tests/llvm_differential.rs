//! The differential test of dxjit's native bitcode reader: every corpus
//! module is read by LLVM 14 (tests/llvm_ref) and by dxjit, both are rendered
//! into the neutral `refmodel`, and the renderings must be identical —
//! function by function, instruction by instruction (opcode, types,
//! operands, constants, flags, attachments) and all named metadata.

mod llvm_ref;

use dxjit::container::Container;
use dxjit::ir::{BinOp, ConstKind, InstKind, MdId, Metadata, Module, Value};
use dxjit_conformance::corpus::{dxil_files, fixtures_root, Corpus};
use dxjit_conformance::{dxjit_ref, refmodel};

fn bitcode(bytes: &[u8]) -> &[u8] {
    Container::parse(bytes).expect("container").dxil_program().expect("DXIL part").bitcode
}

/// What one comparison covered.
#[derive(Default)]
struct Tally {
    modules: usize,
    insts: usize,
    named_md: usize,
    named_md_ops: usize,
    mismatched: Vec<(String, Vec<String>)>,
}

impl Tally {
    /// Reads `bc` with LLVM 14 and with dxjit and compares the renderings.
    fn compare(&mut self, id: String, bc: &[u8]) {
        let reference = llvm_ref::read_reference(bc).unwrap_or_else(|err| panic!("LLVM: {id}: {err}"));
        let ours = dxjit::bitcode::read_module(bc).unwrap_or_else(|err| panic!("dxjit: {id}: {err}"));
        let ours = dxjit_ref::render(&ours);
        let reference = undo_upgrades(reference, &ours);
        let d = refmodel::diff(&reference, &ours);
        self.modules += 1;
        self.insts += reference.instruction_count();
        self.named_md += reference.named_metadata.len();
        self.named_md_ops += reference.named_metadata.iter().map(|n| n.ops.len()).sum::<usize>();
        if !d.is_empty() {
            self.mismatched.push((id, d));
        }
    }

    fn report_and_check(&self, what: &str) {
        for (path, d) in self.mismatched.iter().take(10) {
            eprintln!("== {path}");
            for line in d.iter().take(8) {
                eprintln!("   {line}");
            }
        }
        eprintln!(
            "{what}: {} modules, {} instructions, {} named metadata ({} operands) compared; {} modules mismatch",
            self.modules,
            self.insts,
            self.named_md,
            self.named_md_ops,
            self.mismatched.len()
        );
        assert!(self.modules > 0, "{what}: nothing compared");
        assert!(
            self.mismatched.is_empty(),
            "{} of {} modules differ from LLVM 14",
            self.mismatched.len(),
            self.modules
        );
    }
}

#[test]
fn llvm_differential_whole_corpus() {
    let Some(corpus) = Corpus::for_test("llvm_differential_whole_corpus") else { return };
    let mut t = Tally::default();
    for (set, e) in corpus.entries() {
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        t.compare(format!("{}/{}", set.name, e.dxil_path), bitcode(&bytes));
    }
    t.report_and_check("corpus");
    assert_eq!(t.modules, corpus.sets.iter().map(|s| s.entries.len()).sum::<usize>());
}

/// The project's own fixtures (committed, so this runs without the corpus).
#[test]
fn llvm_differential_fixtures() {
    let mut files = Vec::new();
    dxil_files(&fixtures_root(), &mut files);
    let mut t = Tally::default();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        t.compare(f.strip_prefix(fixtures_root()).unwrap_or(f).display().to_string(), bitcode(&bytes));
    }
    t.report_and_check("fixtures");
}

/// LLVM 14 auto-upgrades some 3.7 intrinsics while reading: it renames
/// `llvm.lifetime.start`/`end` to their pointer-mangled names
/// (`.p0i8`) and re-creates the declarations at the end of the function
/// list. Undo exactly that on the reference side: restore the 3.7 names
/// and put those declarations back where dxjit read them. Every other
/// function keeps LLVM's module order.
fn undo_upgrades(mut reference: refmodel::RModule, ours: &refmodel::RModule) -> refmodel::RModule {
    use refmodel::ROperand;
    let rename = |n: &mut String| {
        for base in ["llvm.lifetime.start", "llvm.lifetime.end"] {
            if n.strip_prefix(base).is_some_and(|rest| rest.starts_with(".p")) {
                *n = base.to_string();
                return true;
            }
        }
        false
    };
    let mut moved = Vec::new();
    for f in std::mem::take(&mut reference.functions) {
        let mut f = f;
        for i in f.blocks.iter_mut().flat_map(|b| &mut b.insts) {
            if let Some(ROperand::Function(n)) = i.operands.first_mut() {
                rename(n);
            }
        }
        if rename(&mut f.name) {
            moved.push(f);
        } else {
            reference.functions.push(f);
        }
    }
    let pos = |name: &str| ours.functions.iter().position(|f| f.name == name).unwrap_or(usize::MAX);
    moved.sort_by_key(|f| pos(&f.name));
    for f in moved {
        let at = pos(&f.name).min(reference.functions.len());
        reference.functions.insert(at, f);
    }
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

/// A deliberate misreading of one detail, applied to dxjit's module.
struct Mutation {
    /// Which side of the reference reader supplies the detail.
    what: &'static str,
    /// Applies the change; `false` when the module lacks the construct.
    apply: fn(&mut Module) -> bool,
}

/// The first instruction of the module whose kind satisfies `pred`.
fn first_inst(m: &mut Module, pred: impl Fn(&InstKind) -> bool) -> Option<&mut InstKind> {
    m.functions.iter_mut().flat_map(|f| &mut f.insts).map(|i| &mut i.kind).find(|k| pred(k))
}

fn binary_with_float_const(m: &Module) -> Option<dxjit::ir::ConstId> {
    m.functions.iter().flat_map(|f| &f.insts).find_map(|i| match i.kind {
        InstKind::Binary { rhs: Value::Const(c), .. } | InstKind::Binary { lhs: Value::Const(c), .. }
            if matches!(m.konst(c).kind, ConstKind::Float(_)) =>
        {
            Some(c)
        }
        _ => None,
    })
}

const MUTATIONS: &[Mutation] = &[
    Mutation {
        what: "fast-math flags (C API, printed instruction)",
        apply: |m| {
            let fast = |k: &InstKind| matches!(k, InstKind::Binary { op, flags, .. } if op.is_float() && *flags != 0);
            let Some(InstKind::Binary { flags, .. }) = first_inst(m, fast) else { return false };
            *flags = 0;
            true
        },
    },
    Mutation {
        what: "nuw/nsw flags (C API, printed instruction)",
        apply: |m| {
            let wrap = |k: &InstKind| matches!(k, InstKind::Binary { op, flags, .. } if !op.is_float() && *flags != 0);
            let Some(InstKind::Binary { flags, .. }) = first_inst(m, wrap) else { return false };
            *flags ^= dxjit::ir::flags::NSW;
            true
        },
    },
    Mutation {
        what: "FP constant bits (C API)",
        apply: |m| {
            let Some(c) = binary_with_float_const(m) else { return false };
            if let ConstKind::Float(bits) = &mut m.consts[c.index()].kind {
                *bits ^= 1;
            }
            true
        },
    },
    Mutation {
        what: "instruction attachment (C API)",
        apply: |m| {
            let Some(f) = m.functions.iter_mut().find(|f| !f.attachments.is_empty()) else { return false };
            f.attachments.pop();
            true
        },
    },
    Mutation {
        what: "global address space (llvm-ir)",
        apply: |m| {
            let Some(g) = m.globals.iter_mut().find(|g| g.addr_space == 3) else { return false };
            g.addr_space = 0;
            true
        },
    },
    Mutation {
        what: "GEP inbounds (llvm-ir)",
        apply: |m| {
            let Some(InstKind::Gep { inbounds, .. }) = first_inst(m, |k| matches!(k, InstKind::Gep { .. })) else {
                return false;
            };
            *inbounds = !*inbounds;
            true
        },
    },
    Mutation {
        what: "load alignment (llvm-ir)",
        apply: |m| {
            let Some(InstKind::Load { align, .. }) = first_inst(m, |k| matches!(k, InstKind::Load { .. })) else {
                return false;
            };
            *align *= 2;
            true
        },
    },
    Mutation {
        what: "phi incoming block (llvm-ir)",
        apply: |m| {
            let Some(f) = m.functions.iter_mut().find(|f| f.phi_pool.len() >= 2) else { return false };
            let other = f.phi_pool[1].1;
            if f.phi_pool[0].1 == other {
                return false;
            }
            f.phi_pool[0].1 = other;
            true
        },
    },
];

/// Each detail the reference side takes from llvm-ir or from the C API is
/// compared: misreading it on the dxjit side is reported. Runs on the
/// committed fixtures, which have every construct the mutations need.
#[test]
fn llvm_differential_detects_mismatches_from_each_source() {
    let mut files = Vec::new();
    dxil_files(&fixtures_root(), &mut files);
    let mut pending: Vec<&Mutation> = MUTATIONS.iter().collect();
    for path in &files {
        if pending.is_empty() {
            break;
        }
        let bytes = std::fs::read(path).unwrap();
        let bc = bitcode(&bytes);
        let module = dxjit::bitcode::read_module(bc).unwrap();
        let mut reference = None;
        pending.retain(|mu| {
            let mut m = module.clone();
            if !(mu.apply)(&mut m) {
                return true;
            }
            let reference = reference.get_or_insert_with(|| {
                let r = llvm_ref::read_reference(bc).unwrap();
                let ours = dxjit_ref::render(&module);
                assert!(refmodel::diff(&undo_upgrades(r.clone(), &ours), &ours).is_empty());
                r
            });
            let ours = dxjit_ref::render(&m);
            let d = refmodel::diff(&undo_upgrades(reference.clone(), &ours), &ours);
            assert!(!d.is_empty(), "{}: not detected in {}", mu.what, path.display());
            eprintln!("{}: detected in {}: {}", mu.what, path.display(), d[0].chars().take(160).collect::<String>());
            false
        });
    }
    let missing: Vec<&str> = pending.iter().map(|m| m.what).collect();
    assert!(missing.is_empty(), "no fixture has: {missing:?}");
}
