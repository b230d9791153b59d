//! Snapshot tests: for every committed fixture (`fixtures/**/*.dxil`), the
//! `dxjit dis` text and the disassembly of the SPIR-V `dxjit::compile` makes
//! of it with default options, stored under `tools/tests/snapshots/{dis,spirv}/`.
//! Any change to the reader, the metadata decoder or a lowering rule shows
//! up here as a diff of the affected fixtures' snapshots.
//!
//! Re-bless every snapshot (after an intended change; review the diff with
//! `git diff tools/tests/snapshots`):
//!
//! ```sh
//! INSTA_UPDATE=always cargo test -p dxjit-cli --test snapshots
//! ```
//!
//! Blessing also deletes the snapshots of fixtures that are gone; without it
//! such a leftover fails the test.

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use dxjit::{compile, CompileOptions};
use dxjit_cli::{dis, emit};
use dxjit_conformance::corpus::{dxil_files, fixtures_root};

/// `compute/bitops.cs_6_0.dxil` → `compute__bitops.cs_6_0`.
fn snapshot_name(rel: &Path) -> String {
    rel.with_extension("").to_string_lossy().replace(['/', '\\'], "__")
}

fn snapshot_dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(kind)
}

fn blessing() -> bool {
    std::env::var("INSTA_UPDATE").is_ok_and(|v| v == "always" || v == "force")
}

/// Compares (or, when blessing, writes) one snapshot per fixture of `kind`;
/// returns the fixtures whose snapshot differs.
fn check_all(kind: &str, render: impl Fn(&Path) -> String) -> Vec<String> {
    let root = fixtures_root();
    let mut files = Vec::new();
    dxil_files(&root, &mut files);
    assert!(!files.is_empty(), "no fixtures under {}", root.display());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(snapshot_dir(kind));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let mut expected = BTreeSet::new();
    let mut failed = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap_or(f);
        let name = snapshot_name(rel);
        expected.insert(format!("{name}.snap"));
        let text = render(f);
        let mut s = settings.clone();
        s.set_description(format!("{kind} of fixtures/{}", rel.display()));
        let r = catch_unwind(AssertUnwindSafe(|| s.bind(|| insta::assert_snapshot!(name.clone(), text))));
        if r.is_err() {
            failed.push(rel.display().to_string());
        }
    }
    // Snapshots of fixtures that no longer exist.
    let dir = snapshot_dir(kind);
    let present: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    for leftover in present.iter().filter(|n| n.ends_with(".snap") && !expected.contains(*n)) {
        if blessing() {
            let _ = std::fs::remove_file(dir.join(leftover));
        } else {
            failed.push(format!("{kind}/{leftover} (no such fixture; bless to delete)"));
        }
    }
    failed
}

#[test]
fn dis_text_of_every_fixture() {
    let failed = check_all("dis", |f| match dis::run(f, false) {
        Ok(text) => text,
        Err(e) => format!("error: {e}\n"),
    });
    assert!(
        failed.is_empty(),
        "`dxjit dis` changed for {} fixtures: {failed:?}\nreview the diffs above; to accept: INSTA_UPDATE=always cargo test -p dxjit-cli --test snapshots",
        failed.len()
    );
}

#[test]
fn spirv_disassembly_of_every_fixture() {
    let failed = check_all("spirv", |f| {
        let bytes = std::fs::read(f).expect("fixture");
        match compile(&bytes, &CompileOptions::default()) {
            Ok(s) => emit::disassemble(&s.spirv).unwrap_or_else(|e| format!("error: {e}\n")),
            Err(e) => format!("compile error: {e}\n"),
        }
    });
    assert!(
        failed.is_empty(),
        "SPIR-V changed for {} fixtures: {failed:?}\nreview the diffs above; to accept: INSTA_UPDATE=always cargo test -p dxjit-cli --test snapshots",
        failed.len()
    );
}
