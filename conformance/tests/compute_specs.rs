//! Every spec of the compute suite parses, names a shader that exists (corpus entries are checked
//! against the manifest when the corpus is present; fixtures always), and the corpus shaders are
//! compute shaders. Needs no device.

use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::runner::{self, spec::spec_files, RunConfig, Spec};

#[test]
fn compute_specs_are_well_formed() {
    let dir = runner::specs_root().join("compute");
    let files = spec_files(&dir).expect("specs folder");
    let cfg = RunConfig::default();
    let corpus = Corpus::open();
    let mut errors = Vec::new();
    let (mut n_corpus, mut n_fixture) = (0, 0);
    for f in &files {
        let spec = match Spec::load(f) {
            Ok(s) => s,
            Err(e) => {
                errors.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        if spec.shader.starts_with("fixtures/") {
            n_fixture += 1;
            if !cfg.shader_path(&spec).is_file() {
                errors.push(format!("{}: fixture {} is missing", spec.name, spec.shader));
            }
            continue;
        }
        n_corpus += 1;
        let Some(c) = &corpus else { continue };
        let (set, rel) = spec.shader.split_once('/').unwrap_or_default();
        let entry = c.set(set).and_then(|s| s.entries.iter().find(|e| e.dxil_path == rel));
        match entry {
            None => errors.push(format!("{}: {} is not in the corpus manifest", spec.name, spec.shader)),
            Some(e) if e.stage != "compute" => {
                errors.push(format!("{}: {} is a {} shader", spec.name, spec.shader, e.stage))
            }
            Some(_) => {}
        }
    }
    if corpus.is_none() {
        eprintln!("note: corpus absent; corpus shader paths not checked");
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(n_corpus >= 30, "only {n_corpus} corpus specs");
    let fixtures = std::fs::read_dir(dxjit_conformance::corpus::fixtures_root().join("compute"))
        .map(|d| d.filter_map(Result::ok).filter(|e| e.path().extension().is_some_and(|x| x == "dxil")).count())
        .unwrap_or(0);
    assert_eq!(n_fixture, fixtures, "one spec per fixture in fixtures/compute");
}
