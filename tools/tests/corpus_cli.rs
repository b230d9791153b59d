//! `dxjit corpus` end to end: it compiles every container of a folder,
//! validates the modules with spirv-val when one is found, prints the stage
//! table and the closing `N passed, N failed, N skipped` line, writes the
//! JSON report, and exits non-zero when anything fails.

use dxjit_conformance::corpus::{corpus_root, dxil_files, fixtures_root, Corpus};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus_job(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dxjit"));
    c.arg("corpus").arg(dir).args(extra);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run dxjit corpus")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxjit-corpus-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// The numbers of the closing line.
fn closing(stdout: &str) -> (usize, usize, usize) {
    let last = stdout.trim_end().lines().last().unwrap_or_default();
    let n: Vec<usize> = last.split(|c: char| !c.is_ascii_digit()).filter_map(|t| t.parse().ok()).collect();
    assert!(
        n.len() == 3 && last.ends_with(" skipped") && last.contains(" passed, ") && last.contains(" failed, "),
        "closing line {last:?}"
    );
    (n[0], n[1], n[2])
}

fn validator_present() -> bool {
    let cmd = dxjit_conformance::spirv_val::validator();
    Command::new(cmd).arg("--version").output().is_ok_and(|o| o.status.success())
}

#[test]
fn corpus_job_compiles_and_validates_every_fixture() {
    let dir = fixtures_root();
    let mut files = Vec::new();
    dxil_files(&dir, &mut files);
    assert!(!files.is_empty(), "no fixtures under {}", dir.display());
    let report = scratch("fixtures").join("report.json");
    let o = corpus_job(&dir, &["--report", report.to_str().expect("utf-8 path")], &[]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&o.stderr));
    let (passed, failed, skipped) = closing(&stdout);
    // Every fixture is a shader dxjit supports; a DXIL library counts once per export, so there
    // are at least as many shaders as files.
    assert_eq!((failed, skipped), (0, 0), "{stdout}");
    assert!(passed >= files.len(), "{passed} shaders from {} files: {stdout}", files.len());
    assert!(stdout.contains(&format!("{} files, {passed} shaders", files.len())), "{stdout}");
    assert!(stdout.contains("median compile"), "no stage table: {stdout}");
    for stage in ["compute", "vertex", "pixel", "geometry", "hull", "domain"] {
        assert!(stdout.lines().any(|l| l.starts_with(stage)), "no {stage} row: {stdout}");
    }
    if validator_present() {
        assert!(stdout.contains(&format!("{passed} modules validated, 0 invalid")), "{stdout}");
    } else {
        eprintln!("SKIPPED corpus_job validation part: no spirv-val (set DXJIT_SPIRV_VAL)");
        assert!(stdout.contains("NOT validated"), "{stdout}");
    }
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).expect("report written")).expect("report is JSON");
    assert_eq!(v["passed"], passed);
    assert_eq!(v["failed"], 0);
    assert_eq!(v["validated"], validator_present());
    let shaders = v["shaders"].as_array().expect("shaders array");
    assert_eq!(shaders.len(), passed);
    for s in shaders {
        assert_eq!(s["status"], "passed", "{s}");
        assert!(s["spirv_words"].as_u64().is_some_and(|w| w > 5), "{s}");
        assert!(s["compile_us"].as_f64().is_some_and(|t| t > 0.0), "{s}");
    }
    let stage_total: u64 = v["stages"].as_array().expect("stages").iter().filter_map(|r| r["shaders"].as_u64()).sum();
    assert_eq!(stage_total as usize, passed);
}

#[test]
fn corpus_job_fails_on_malformed_containers() {
    let dir = scratch("malformed");
    let good = fixtures_root().join("compute/bitops.cs_6_0.dxil");
    let bytes = std::fs::read(&good).expect("fixture");
    std::fs::write(dir.join("a_good.dxil"), &bytes).expect("write");
    std::fs::write(dir.join("b_truncated.dxil"), &bytes[..bytes.len() / 2]).expect("write");
    std::fs::write(dir.join("c_garbage.dxil"), b"DXBC but not really a container").expect("write");
    let o = corpus_job(&dir, &[], &[]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert_eq!(closing(&stdout), (1, 2, 0), "{stdout}");
    for f in ["b_truncated.dxil", "c_garbage.dxil"] {
        let line = stdout.lines().find(|l| l.starts_with("FAILED") && l.contains(f));
        assert!(line.is_some_and(|l| l.contains("malformed")), "no FAILED line naming {f} as malformed: {stdout}");
    }
    assert!(!stdout.contains("a_good.dxil"), "a passing shader printed without -v: {stdout}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn corpus_job_says_when_it_cannot_validate() {
    let o = corpus_job(&fixtures_root().join("compute"), &[], &[("DXJIT_SPIRV_VAL", "/nonexistent/spirv-val")]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stdout}");
    assert!(stdout.lines().next().is_some_and(|l| l.contains("NOT validated")), "{stdout}");
    assert!(stdout.contains("; not validated"), "{stdout}");
    let (passed, failed, _) = closing(&stdout);
    assert!(passed > 0 && failed == 0, "{stdout}");
}

/// The README's main job over the whole corpus: nothing fails, nothing is
/// invalid, and every skipped shader names its unsupported feature.
#[test]
fn corpus_job_over_the_corpus() {
    let Some(_) = Corpus::for_test("corpus_job_over_the_corpus") else { return };
    let report = scratch("corpus").join("report.json");
    let o = corpus_job(&corpus_root(), &["--report", report.to_str().expect("utf-8 path")], &[]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stdout}");
    let (passed, failed, skipped) = closing(&stdout);
    eprintln!("corpus job: {passed} passed, {failed} failed, {skipped} skipped");
    assert_eq!(failed, 0);
    assert!(passed > 0);
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).expect("report written")).expect("report is JSON");
    assert_eq!(v["invalid"], 0);
    for s in v["shaders"].as_array().expect("shaders") {
        if s["status"] == "skipped" {
            assert!(s["feature"].as_str().is_some_and(|f| !f.is_empty()), "skipped without a feature: {s}");
        } else {
            assert_eq!(s["status"], "passed", "{s}");
        }
    }
    let features = v["unsupported_features"].as_array().expect("features");
    let named: u64 = features.iter().filter_map(|f| f["count"].as_u64()).sum();
    assert_eq!(named as usize, skipped);
    for f in features {
        assert!(stdout.contains(f["feature"].as_str().unwrap_or("?")), "feature {f} not in the table");
    }
}

#[test]
fn corpus_job_writes_each_module_with_spirv_dir() {
    let dir = fixtures_root().join("graphics");
    let out = scratch("spirv-dir");
    let o = corpus_job(&dir, &["--no-validate", "--spirv-dir", out.to_str().expect("utf-8 path")], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    let mut files = Vec::new();
    dxil_files(&dir, &mut files);
    for f in &files {
        let rel = f.strip_prefix(&dir).expect("below dir");
        let written = std::fs::read(out.join(format!("{}.spv", rel.display()))).expect("module written");
        let bytes = std::fs::read(f).expect("fixture");
        let words = dxjit::compile(&bytes, &dxjit::CompileOptions::default()).expect("compiles").spirv;
        let expect: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(written, expect, "{}", rel.display());
    }
    let _ = std::fs::remove_dir_all(out);
}
