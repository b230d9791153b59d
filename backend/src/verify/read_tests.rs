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
