//! Structurizer tests: hand-written shapes, random reducible CFGs run
//! through both interpreters, and `spirv-val` on a sample.

use super::testkit::{self, build_module, check_tree, random_module, run_cfg, run_tree, GenParams, Outcome, Rng, Term};
use super::{structurize, StructurizeError};
use crate::analysis::{Cfg, DomTree, Loops};
use crate::ir::Module;

const LIMIT: usize = 300;

fn inputs(rng: &mut Rng, nargs: u32, k: usize) -> Vec<Vec<u64>> {
    (0..k).map(|_| (0..nargs).map(|_| rng.next_u64() & 0xFFFF_FFFF).collect()).collect()
}

/// Structurizes the module's function and checks both interpreters agree.
fn check_module(m: &Module, rng: &mut Rng, runs: usize) -> Result<super::StructuredFunction, String> {
    let f = &m.functions[0];
    let sf = structurize(m, f).map_err(|e| e.to_string())?;
    check_tree(f, &sf)?;
    for args in inputs(rng, f.param_tys.len() as u32, runs) {
        let a = run_cfg(m, f, &args, LIMIT);
        if let Outcome::Error(e) = &a.outcome {
            return Err(format!("generator produced a function the CFG interpreter rejects: {e}"));
        }
        let b = run_tree(m, f, &sf, &args, LIMIT);
        if a != b {
            return Err(format!("args {args:?}:\n  cfg  {:?}\n  tree {:?}\ntree: {:#?}", a, b, sf.root));
        }
    }
    Ok(sf)
}

#[test]
fn single_block_shortcut_is_the_general_tree() {
    for seed in 0..300u64 {
        let term = if seed % 5 == 0 { Term::Unreachable } else { Term::Ret };
        let m = build_module(seed, 1 + (seed % 3) as u32, &[term]);
        let f = &m.functions[0];
        let fast = super::single_block(f).expect("one block ending in ret/unreachable");
        assert_eq!(Ok(&fast), super::general(&m, f).as_ref(), "seed {seed}");
        assert_eq!(structurize(&m, f).as_ref(), Ok(&fast));
    }
    // Anything with control flow takes the general path.
    for seed in 0..50u64 {
        let m = random_module(seed, GenParams::small(2 + (seed as usize % 6), 1, 3));
        assert!(super::single_block(&m.functions[0]).is_none(), "seed {seed}");
    }
    let m = build_module(1, 1, &[Term::Br(0)]);
    assert!(super::single_block(&m.functions[0]).is_none());
}

#[test]
fn dominators_match_the_textbook_algorithm() {
    for seed in 0..300u64 {
        let n = 2 + (seed as usize % 60);
        let m = random_module(seed, GenParams::small(n, 1, 4));
        let f = &m.functions[0];
        let cfg = Cfg::of_function(f).unwrap();
        let dom = DomTree::compute(&cfg);
        let naive =
            testkit::naive_idoms(n, &|b| f.successors(crate::ir::BlockId(b as u32)).iter().map(|s| s.0).collect());
        for b in 0..n as u32 {
            assert_eq!(dom.idom(b), naive[b as usize], "seed {seed} block {b}");
        }
        // dominates() agrees with walking the idom chain.
        for a in 0..n as u32 {
            for b in 0..n as u32 {
                let mut x = naive[b as usize];
                let mut walk = x.is_some() && naive[a as usize].is_some() && a == b;
                while let Some(y) = x {
                    if y == a {
                        walk = true;
                    }
                    x = naive[y as usize].filter(|&z| z != y);
                }
                assert_eq!(dom.dominates(a, b), walk, "seed {seed}: dominates({a}, {b})");
            }
        }
        // The same tree rebuilt from its immediate dominators answers the same.
        let idoms = (0..n as u32).map(|b| dom.idom(b).unwrap_or(crate::analysis::NONE)).collect();
        let again = DomTree::from_idoms(idoms, 0);
        for a in 0..n as u32 {
            for b in 0..n as u32 {
                assert_eq!(again.dominates(a, b), dom.dominates(a, b), "seed {seed}: from_idoms dominates({a}, {b})");
            }
            assert_eq!(again.depth(a), dom.depth(a), "seed {seed}: depth({a})");
        }
        Loops::compute(&cfg, &dom).expect("generated CFGs are reducible");
    }
}

#[test]
fn loop_forest() {
    // 0 → 1; 1 → 2; 2 → {1, 3}; 3 → {1, 4}; 4 ret: loop {1,2,3} with inner loop? no: one loop, two latches.
    // 5 unreachable.
    let terms = [Term::Br(1), Term::Br(2), Term::CondBr(2, 3), Term::CondBr(1, 4), Term::Ret, Term::Br(1)];
    let m = build_module(1, 1, &terms);
    let cfg = Cfg::of_function(&m.functions[0]).unwrap();
    let dom = DomTree::compute(&cfg);
    let l = Loops::compute(&cfg, &dom).unwrap();
    assert!(l.is_header(1) && l.is_header(2) && !l.is_header(3));
    assert_eq!(l.innermost(2), Some(2));
    assert_eq!(l.innermost(3), Some(1));
    assert_eq!(l.parent(2), Some(1));
    assert!(l.contains(1, 2) && l.contains(1, 3) && !l.contains(1, 4) && !l.contains(2, 3));
    assert_eq!(l.depth(2), 2);
    assert!(!cfg.is_reachable(5));
}

#[test]
fn irreducible_is_an_error() {
    // 0 → {1, 2}; 1 → 2; 2 → {1, 3}: the cycle 1 ⇄ 2 has two entries.
    let terms = [Term::CondBr(1, 2), Term::Br(2), Term::CondBr(1, 3), Term::Ret];
    let m = build_module(2, 1, &terms);
    match structurize(&m, &m.functions[0]) {
        Err(StructurizeError::Irreducible { from, to, .. }) => {
            assert_eq!((from.0, to.0), (2, 1));
            let msg = structurize(&m, &m.functions[0]).unwrap_err().to_string();
            assert!(msg.contains("rand_4") && msg.contains("irreducible"), "{msg}");
        }
        other => panic!("expected an irreducibility error, got {other:?}"),
    }
}

#[test]
fn diamond_needs_no_variables() {
    let terms = [Term::CondBr(1, 2), Term::Br(3), Term::Br(3), Term::Ret];
    let m = build_module(3, 2, &terms);
    let sf = check_module(&m, &mut Rng::new(3), 8).unwrap();
    assert_eq!(sf.vars, 0);
    let s = format!("{:?}", sf.root);
    assert!(!s.contains("Scope") && !s.contains("Break"), "{s}");
}

#[test]
fn switch_fall_through_is_not_duplicated() {
    // 0: switch → 1 (case 0), 2 (case 1), 3 (default); 1 falls into 2; 2 → 3.
    let terms = [Term::Switch(3, vec![(0, 1), (1, 2)]), Term::Br(2), Term::Br(3), Term::Ret];
    let m = build_module(4, 1, &terms);
    let sf = check_module(&m, &mut Rng::new(4), 16).unwrap();
    let s = format!("{:?}", sf.root);
    assert_eq!(s.matches("Block(BlockId(2))").count(), 1, "{s}");
}

#[test]
fn loop_exits_are_placed_after_the_loop() {
    // 0 → 1; loop 1 → 2 → {3, 5}; 3 → {1, 4}; exits 4 and 5 → 6 ret.
    let terms = [Term::Br(1), Term::Br(2), Term::CondBr(3, 5), Term::CondBr(1, 4), Term::Br(6), Term::Br(6), Term::Ret];
    let m = build_module(5, 1, &terms);
    let sf = check_module(&m, &mut Rng::new(5), 16).unwrap();
    let super::Node::Seq(items) = &sf.root else { panic!("{:?}", sf.root) };
    // Blocks 4, 5, 6 are not inside the loop node.
    let lp = items.iter().find(|n| matches!(n, super::Node::Loop { .. })).expect("a loop at top level");
    let s = format!("{lp:?}");
    for b in [4, 5, 6] {
        assert!(!s.contains(&format!("Block(BlockId({b}))")), "block {b} inside the loop: {s}");
    }
}

#[test]
fn deep_early_exit_chain_stays_flat() {
    // 2000 blocks: block i → {i+1, exit}; one shared exit block.
    let n = 2000;
    let mut terms: Vec<Term> = (0..n).map(|i| Term::CondBr(i + 1, n + 1)).collect();
    terms.push(Term::Ret);
    terms.push(Term::Ret);
    let m = build_module(6, 1, &terms);
    check_module(&m, &mut Rng::new(6), 4).unwrap();
}

#[test]
fn too_deep_nesting_is_an_error() {
    // Loops nested MAX_NESTING + 10 deep: header i → {i+1, latch of i}.
    let d = super::MAX_NESTING as usize + 10;
    // Blocks: 0 entry, headers 1..=d, innermost body d+1, latches d+2..: latch of header h is 2d+2-h.
    let mut terms = vec![Term::Br(1)];
    for h in 1..=d as u32 {
        terms.push(Term::Br(h + 1));
    }
    terms.push(Term::Br(d as u32 + 2)); // body → latch of header d
    for k in 0..d as u32 {
        let h = d as u32 - k; // latch for header h
        let next = if h == 1 { 2 * d as u32 + 2 } else { 2 * d as u32 + 2 - h + 1 };
        terms.push(Term::CondBr(h, next));
    }
    terms.push(Term::Ret);
    let m = build_module(7, 1, &terms);
    let r = std::thread::Builder::new().stack_size(2 << 20).spawn(move || structurize(&m, &m.functions[0]).map(|_| ()));
    match r.unwrap().join().unwrap() {
        Err(StructurizeError::TooDeep { .. }) => {}
        other => panic!("expected TooDeep, got {other:?}"),
    }
}

#[test]
fn random_cfgs_match_in_both_interpreters() {
    let mut rng = Rng::new(0xD1_CE);
    // DXJIT_STRUCTURIZE_BIG=count: that many CFGs of up to 300 blocks instead.
    let (count, max) = match std::env::var("DXJIT_STRUCTURIZE_BIG") {
        Ok(v) => (v.parse().unwrap_or(1000), 300),
        Err(_) => (10_000, 40),
    };
    let (mut blocks, mut vars, mut demoted, mut scopes) = (0usize, 0u64, 0usize, 0usize);
    for i in 0..count {
        let n = 2 + rng.below(max - 1);
        let seed = rng.next_u64();
        let p = GenParams::small(n, 1 + rng.below(3) as u32, 2 + rng.below(5));
        let m = random_module(seed, p);
        let sf = check_module(&m, &mut rng, 4).unwrap_or_else(|e| panic!("case {i} (seed {seed:#x}, {p:?}): {e}"));
        let reference = super::demote::reference::compute(&m.functions[0], &sf.root);
        assert_eq!(
            sf.demote, reference,
            "case {i} (seed {seed:#x}): demoted values differ from the explicit-CFG analysis"
        );
        blocks += n;
        vars += sf.vars as u64;
        demoted += sf.demote.len();
        scopes += format!("{:?}", sf.root).matches("Scope").count();
    }
    eprintln!("{count} CFGs, {blocks} blocks, {vars} ladder variables, {scopes} scopes, {demoted} demoted values");
}

#[test]
fn sample_passes_spirv_val() {
    let Some(val) = super::spirv_check::validator() else {
        eprintln!("SKIPPED sample_passes_spirv_val: no spirv-val (set DXJIT_SPIRV_VAL)");
        return;
    };
    let mut rng = Rng::new(0x5B1_7A1);
    let mut modules: Vec<Module> = Vec::new();
    let mut sfs = Vec::new();
    let (count, max) = match std::env::var("DXJIT_STRUCTURIZE_SAMPLE") {
        Ok(v) => (v.parse().unwrap_or(300), 200),
        Err(_) => (300, 40),
    };
    for _ in 0..count {
        let n = 2 + rng.below(max - 1);
        let m = random_module(rng.next_u64(), GenParams::small(n, 1 + rng.below(3) as u32, 2 + rng.below(5)));
        sfs.push(check_module(&m, &mut rng, 1).unwrap());
        modules.push(m);
    }
    for (k, chunk) in modules.chunks(50).zip(sfs.chunks(50)).enumerate() {
        let items: Vec<_> = chunk.0.iter().zip(chunk.1).map(|(m, sf)| (m, &m.functions[0], sf)).collect();
        let words = super::spirv_check::emit_module(&items).unwrap();
        super::spirv_check::validate(&val, &words, &format!("sample{k}")).unwrap();
    }
}

#[test]
fn large_cfgs_match_in_both_interpreters() {
    // The benchmark's CFGs: every block reachable, loops nested dozens deep.
    for blocks in [1_000usize, 5_000] {
        let m = random_module(0xBE7C_0000 + blocks as u64, GenParams::large(blocks));
        let sf = check_module(&m, &mut Rng::new(blocks as u64), 8).unwrap();
        let cfg = Cfg::of_function(&m.functions[0]).unwrap();
        assert_eq!(cfg.rpo().len(), blocks);
        // spirv-val needs ~3 s for 1,000 blocks but ~50 s for 5,000.
        if let Some(val) = super::spirv_check::validator().filter(|_| blocks <= 1_000) {
            let words = super::spirv_check::emit_module(&[(&m, &m.functions[0], &sf)]).unwrap();
            super::spirv_check::validate(&val, &words, &format!("large{blocks}")).unwrap();
        }
        eprintln!("{blocks} blocks: {} variables, {} demoted", sf.vars, sf.demote.len());
    }
}
