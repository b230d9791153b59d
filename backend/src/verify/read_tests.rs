//! The verifier with the reader's facts ([`verify_read`]) against the full
//! verifier ([`verify_decoded`]): the same verdict, error included, on every
//! fixture and on the hostile inputs (mutants that broke dxjit once; skipped
//! when `../shared/hostile` is absent).

use super::*;

fn dxil_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            dxil_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxil") {
            out.push(p);
        }
    }
}

/// Both verdicts of one container, `None` where it does not get as far as the verifier.
fn verdicts(bytes: &[u8]) -> Option<(Result<()>, Result<()>, crate::bitcode::ReadFacts)> {
    let c = crate::container::Container::parse(bytes).ok()?;
    let (m, facts) = crate::bitcode::read_module_with_facts(c.dxil_program().ok()?.bitcode).ok()?;
    let info = crate::dxil::decode(&m).ok()?;
    Some((verify_read(&m, &info, &facts).map(drop), verify_decoded(&m, &info), facts))
}

#[test]
fn the_readers_facts_give_the_full_verdict_on_every_fixture() {
    let mut files = Vec::new();
    dxil_files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"), &mut files);
    assert!(files.len() > 50, "{} fixtures", files.len());
    let mut checked = 0;
    for p in &files {
        let Some((read, full, facts)) = verdicts(&std::fs::read(p).unwrap()) else { continue };
        assert_eq!(read, full, "{}", p.display());
        assert!(full.is_ok(), "{}: {full:?}", p.display());
        // DXC orders blocks so that every definition comes before its uses outside PHIs.
        assert!(facts.forward_refs.is_empty(), "{}: {:?}", p.display(), facts.forward_refs);
        checked += 1;
    }
    assert!(checked > 50, "{checked} fixtures verified");
}

#[test]
fn the_readers_facts_give_the_full_verdict_on_hostile_inputs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/hostile");
    let mut files = Vec::new();
    dxil_files(&dir, &mut files);
    if files.is_empty() {
        eprintln!("SKIPPED the_readers_facts_give_the_full_verdict_on_hostile_inputs: no {}", dir.display());
        return;
    }
    let (mut rejected, mut with_forward_refs) = (0, 0);
    for p in &files {
        let Some((read, full, facts)) = verdicts(&std::fs::read(p).unwrap()) else { continue };
        assert_eq!(read, full, "{}", p.display());
        rejected += usize::from(full.is_err());
        with_forward_refs += usize::from(!facts.forward_refs.is_empty());
    }
    eprintln!(
        "hostile inputs: {} files, {rejected} rejected by the verifier, {with_forward_refs} with forward references",
        files.len()
    );
    // Some hostile inputs use a value before its definition (ssa.dominance / ssa.self-reference):
    // the reader lists their functions, so the verifier checks those operand by operand.
    assert!(with_forward_refs > 0);
}

/// [`crate::bitcode::ReadFacts::shaped_consts`] spans every aggregate, data array and GEP
/// expression among the constants (the only ones the verifier's constant rules look at in a
/// module as read), and is `None` only where there are none: over the fixtures, the hostile
/// inputs and, when present, the corpus.
#[test]
fn shaped_constants_lie_in_the_range_the_reader_gives() {
    use crate::ir::{ConstExpr, ConstKind};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    dxil_files(&root.join("../fixtures"), &mut files);
    dxil_files(&root.join("../../shared/hostile"), &mut files);
    let corpus = std::env::var_os("DXJIT_CORPUS").map_or_else(|| root.join("../../shared/corpus"), Into::into);
    dxil_files(&corpus, &mut files);
    let (mut modules, mut with_shaped) = (0, 0);
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let Ok(c) = crate::container::Container::parse(&bytes) else { continue };
        let Ok(part) = c.dxil_program() else { continue };
        let Ok((m, facts)) = crate::bitcode::read_module_with_facts(part.bitcode) else { continue };
        let shaped: Vec<u32> = (0..m.consts.len() as u32)
            .filter(|&k| {
                matches!(
                    m.consts[k as usize].kind,
                    ConstKind::Aggregate(_) | ConstKind::Data(_) | ConstKind::Expr(ConstExpr::Gep { .. })
                )
            })
            .collect();
        match (facts.shaped_consts, shaped.first(), shaped.last()) {
            (None, None, None) => {}
            (Some((lo, hi)), Some(&first), Some(&last)) => {
                assert!(lo <= first && last <= hi, "{}: {first}..={last} outside {lo}..={hi}", p.display());
                with_shaped += 1;
            }
            (r, ..) => panic!("{}: range {r:?}, shaped constants {shaped:?}", p.display()),
        }
        modules += 1;
    }
    eprintln!("{modules} modules read, {with_shaped} with aggregate, data or GEP constants");
    assert!(modules > 50 && with_shaped > 0, "{modules} modules, {with_shaped} with shaped constants");
}
