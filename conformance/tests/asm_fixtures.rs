//! Hand-assembled fixtures (`fixtures/**/X.ll` beside `X.dxil`): the
//! committed container is exactly what `dxjit asm X.ll` makes now, so an
//! edit of the text (or a change of the assembler) without re-assembling
//! fails here. To refresh: `cargo run -p dxjit-cli -- asm fixtures/…/X.ll`.

use dxjit_conformance::corpus::fixtures_root;
use std::path::{Path, PathBuf};

fn ll_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            ll_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ll") {
            out.push(p);
        }
    }
}

#[test]
fn assembled_fixtures_are_up_to_date() {
    let mut files = Vec::new();
    ll_files(&fixtures_root(), &mut files);
    files.sort();
    assert!(files.len() >= 3, "expected the hand-assembled bindless fixtures, found {files:?}");
    let mut stale = Vec::new();
    for ll in &files {
        let text = std::fs::read_to_string(ll).unwrap();
        let built =
            dxjit::asm::assemble(&text, &Default::default()).unwrap_or_else(|e| panic!("{}: {e}", ll.display()));
        let dxil = ll.with_extension("dxil");
        match std::fs::read(&dxil) {
            Ok(committed) if committed == built => {}
            Ok(_) => stale.push(format!("{} differs from `dxjit asm {}`", dxil.display(), ll.display())),
            Err(e) => stale.push(format!("{}: {e}", dxil.display())),
        }
    }
    assert!(stale.is_empty(), "stale hand-assembled fixtures (re-run dxjit asm):\n{}", stale.join("\n"));
}
