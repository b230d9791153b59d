//! `dxjit dis` end to end: every corpus module disassembles to JSON whose
//! stage matches the manifest, and malformed input fails cleanly with exit
//! code 1 and a one-line `error: …` message.

use dxjit_conformance::corpus::Corpus;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dxjit(args: &[&str], file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxjit")).args(args).arg(file).output().expect("run dxjit")
}

/// A scratch file unique to this test process.
fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxjit-dis-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write scratch file");
    p
}

fn assert_clean_failure(out: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{what}: exit status {:?}, stderr {stderr}", out.status);
    assert!(stderr.starts_with("error: "), "{what}: stderr {stderr:?}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{what}: stderr is not one line: {stderr:?}");
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert!(out.stdout.is_empty(), "{what}: wrote to stdout on failure");
}

#[test]
fn dis_json_stage_matches_manifest() {
    let Some(corpus) = Corpus::for_test("dis_json_stage_matches_manifest") else { return };
    let mut failures = Vec::new();
    let mut n = 0;
    for (set, e) in corpus.entries() {
        n += 1;
        let out = dxjit(&["dis", "--json"], &set.path_of(e));
        let ctx = format!("{}/{}", set.name, e.dxil_path);
        if !out.status.success() {
            failures.push(format!("{ctx}: exit {:?}: {}", out.status, String::from_utf8_lossy(&out.stderr)));
            continue;
        }
        let v: serde_json::Value = match serde_json::from_slice(&out.stdout) {
            Ok(v) => v,
            Err(err) => {
                failures.push(format!("{ctx}: output is not JSON: {err}"));
                continue;
            }
        };
        if v["stage"] != e.stage.as_str() {
            failures.push(format!("{ctx}: stage {} != manifest {}", v["stage"], e.stage));
        }
        if v["shader_model"] != e.shader_model.as_str() {
            failures.push(format!("{ctx}: shader_model {} != manifest {}", v["shader_model"], e.shader_model));
        }
        for key in ["entry_points", "signatures", "resources"] {
            if v.get(key).is_none() {
                failures.push(format!("{ctx}: no {key:?} key"));
            }
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!("dxjit dis --json: {} of {n} corpus modules agree with the manifest", n - failures.len());
    assert!(failures.is_empty(), "{} of {n} modules failed", failures.len());
}

#[test]
fn dis_text_runs_on_corpus_sample() {
    let Some(corpus) = Corpus::for_test("dis_text_runs_on_corpus_sample") else { return };
    for (set, e) in corpus.entries().step_by(25) {
        let out = dxjit(&["dis"], &set.path_of(e));
        assert!(out.status.success(), "{}: {}", e.dxil_path, String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with(&format!("; stage              {}\n", e.stage)), "{}: {text}", e.dxil_path);
    }
}

#[test]
fn malformed_input_fails_cleanly() {
    // Not a shader at all, a bare header, a missing file.
    for (name, bytes) in [("garbage.bin", &b"hello, world"[..]), ("header.dxbc", &b"DXBC\0\0\0\0"[..])] {
        let p = scratch(name, bytes);
        assert_clean_failure(&dxjit(&["dis", "--json"], &p), name);
    }
    assert_clean_failure(&dxjit(&["dis"], Path::new("/nonexistent/dxjit/file.dxil")), "missing file");

    // Truncated and corrupted copies of a real container.
    let Some(corpus) = Corpus::for_test("malformed_input_fails_cleanly") else { return };
    let Some((set, e)) = corpus.entries().next() else { return };
    let bytes = std::fs::read(set.path_of(e)).expect("read corpus file");
    for cut in [bytes.len() / 2, bytes.len() - 1, 40, 8] {
        let p = scratch(&format!("truncated_{cut}.dxil"), &bytes[..cut]);
        assert_clean_failure(&dxjit(&["dis", "--json"], &p), &format!("truncated to {cut} bytes"));
    }
    // Bitcode truncated inside a valid-looking container: fix up the sizes so
    // the container helper still finds the (now short) bitcode.
    let mut short = bytes.clone();
    let bc_len = dxjit::container::Container::parse(&bytes)
        .ok()
        .and_then(|c| c.dxil_program().ok())
        .map(|p| p.bitcode)
        .expect("bitcode")
        .len();
    let drop = bc_len / 2 / 4 * 4;
    short.truncate(short.len() - drop);
    let dxil_off = (0..u32::from_le_bytes(bytes[28..32].try_into().unwrap()) as usize)
        .map(|i| u32::from_le_bytes(bytes[32 + 4 * i..36 + 4 * i].try_into().unwrap()) as usize)
        .find(|&o| &bytes[o..o + 4] == b"DXIL")
        .expect("DXIL part");
    let patch = |b: &mut Vec<u8>, at: usize| {
        let v = u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) - drop as u32;
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    };
    patch(&mut short, dxil_off + 4); // part size
    patch(&mut short, dxil_off + 8 + 20); // bitcode size
    let p = scratch("short_bitcode.dxil", &short);
    assert_clean_failure(&dxjit(&["dis", "--json"], &p), "short bitcode");
    if let Some(dir) = p.parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
}
