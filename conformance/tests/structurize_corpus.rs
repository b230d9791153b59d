//! Every function definition of every corpus module structurizes, and the
//! tree passes the structural checks (each reachable block exactly once,
//! breaks and continues only inside their constructs).

use dxjit::container::Container;
use dxjit::structurize::{structurize, testkit::check_tree};
use dxjit_conformance::corpus::Corpus;

#[test]
fn structurize_corpus() {
    let Some(corpus) = Corpus::for_test("structurize_corpus") else { return };
    let mut failures = Vec::new();
    let (mut modules, mut functions, mut blocks, mut vars, mut demoted, mut loops) = (0, 0, 0, 0u64, 0, 0);
    for (set, e) in corpus.entries() {
        let bytes = std::fs::read(set.path_of(e)).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let program = container.dxil_program().unwrap();
        let m = dxjit::bitcode::read_module(program.bitcode).unwrap();
        modules += 1;
        for f in m.functions.iter().filter(|f| !f.is_declaration && !f.blocks.is_empty()) {
            functions += 1;
            blocks += f.blocks.len();
            match structurize(&m, f) {
                Ok(sf) => {
                    if let Err(err) = check_tree(f, &sf) {
                        failures.push(format!("{}/{} {}: bad tree: {err}", set.name, e.dxil_path, f.name));
                    }
                    vars += sf.vars as u64;
                    demoted += sf.demote.len();
                    loops += format!("{:?}", sf.root).matches("Loop {").count();
                }
                Err(err) => failures.push(format!("{}/{}: {err}", set.name, e.dxil_path)),
            }
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!(
        "{modules} modules, {functions} functions, {blocks} blocks, {loops} loops, {vars} structurizer variables, {demoted} demoted values"
    );
    assert!(failures.is_empty(), "{} of {functions} functions failed", failures.len());
    assert!(functions > 0);
}
