//! The assembler's round trips over every corpus container and fixture
//! (`ir::diff` the oracle): `print(read(x))` parses back to a module equal
//! to `read(x)`, prints again to the same text, and written as bitcode reads
//! back equal; `write(read(x))` reads back equal; the container made of
//! `read(x)` has the original's program header and signature parts.

use dxjit::container::Container;
use dxjit_conformance::corpus::{dxil_files, fixtures_root, Corpus};
use std::path::PathBuf;

fn inputs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(c) = Corpus::for_test("asm_roundtrip (corpus part)") {
        files.extend(c.entries().map(|(s, e)| s.path_of(e)));
    }
    dxil_files(&fixtures_root(), &mut files);
    files
}

fn read(p: &PathBuf) -> Option<dxjit::ir::Module> {
    let bytes = std::fs::read(p).ok()?;
    let c = Container::parse(&bytes).ok()?;
    dxjit::bitcode::read_module(c.dxil_program().ok()?.bitcode).ok()
}

#[test]
fn printed_text_parses_back_equal() {
    let mut n = 0;
    let mut failures = Vec::new();
    for p in inputs() {
        let Some(m) = read(&p) else { continue };
        n += 1;
        let text = dxjit::ir::print::print_module(&m);
        match dxjit::asm::parse_module(&text) {
            Err(e) => {
                let line = text.lines().nth(e.line as usize - 1).unwrap_or("");
                failures.push(format!("{}: {e}\n    {line}", p.display()));
            }
            Ok(m2) => {
                let d = dxjit::ir::diff::diff_modules(&m, &m2, 5);
                if !d.is_empty() {
                    failures.push(format!("{}: {}", p.display(), d.join("\n    ")));
                    continue;
                }
                // Text → module → bitcode → module: still equal.
                let bc = match dxjit::bitcode::write_module(&m2) {
                    Ok(b) => b,
                    Err(e) => {
                        failures.push(format!("{}: writing the parsed module: {e}", p.display()));
                        continue;
                    }
                };
                match dxjit::bitcode::read_module(&bc) {
                    Ok(m3) => {
                        let d = dxjit::ir::diff::diff_modules(&m, &m3, 5);
                        if !d.is_empty() {
                            failures.push(format!("{}: assembled bitcode: {}", p.display(), d.join("\n    ")));
                            continue;
                        }
                    }
                    Err(e) => {
                        failures.push(format!("{}: reading the assembled bitcode: {e}", p.display()));
                        continue;
                    }
                }
                let text2 = dxjit::ir::print::print_module(&m2);
                if text2 != text {
                    let (a, b) = text.lines().zip(text2.lines()).find(|(a, b)| a != b).unwrap_or(("", ""));
                    failures.push(format!("{}: printed differently\n    {a}\n    {b}", p.display()));
                }
            }
        }
    }
    for f in failures.iter().take(15) {
        eprintln!("{f}");
    }
    eprintln!("asm round trip: {} of {n} modules", n - failures.len());
    assert!(failures.is_empty(), "{} of {n} modules do not round-trip", failures.len());
}

#[test]
fn written_bitcode_reads_back_equal() {
    let mut n = 0;
    let mut failures = Vec::new();
    for p in inputs() {
        let Some(m) = read(&p) else { continue };
        n += 1;
        let bc = match dxjit::bitcode::write_module(&m) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: write: {e}", p.display()));
                continue;
            }
        };
        match dxjit::bitcode::read_module(&bc) {
            Err(e) => failures.push(format!("{}: read back: {e}", p.display())),
            Ok(m2) => {
                let d = dxjit::ir::diff::diff_modules(&m, &m2, 5);
                if !d.is_empty() {
                    failures.push(format!("{}: {}", p.display(), d.join("\n    ")));
                }
            }
        }
    }
    for f in failures.iter().take(15) {
        eprintln!("{f}");
    }
    eprintln!("bitcode round trip: {} of {n} modules", n - failures.len());
    assert!(failures.is_empty(), "{} of {n} modules do not round-trip", failures.len());
}

/// The container of a module read from a corpus container has the
/// original's program header and, byte for byte, its signature parts; it
/// parses, its digest is valid and its bitcode reads back equal.
#[test]
fn containers_match_the_originals() {
    let (mut n, mut sig_parts, mut padded) = (0, 0, 0);
    let mut failures = Vec::new();
    for p in inputs() {
        let bytes = std::fs::read(&p).unwrap();
        let Ok(orig) = Container::parse(&bytes) else { continue };
        let Some(m) = read(&p) else { continue };
        let Ok(info) = dxjit::dxil::decode(&m) else { continue };
        n += 1;
        let ours = dxjit::asm::container_of(&m, &Default::default()).unwrap();
        let c = Container::parse(&ours).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let mut errs = Vec::new();
        if c.digest_status() != dxjit::container::DigestStatus::Valid {
            errs.push("digest not valid".to_string());
        }
        let (a, b) = (orig.dxil_program().unwrap(), c.dxil_program().unwrap());
        if (a.program_version, a.dxil_version, a.shader_kind) != (b.program_version, b.dxil_version, b.shader_kind) {
            errs.push(format!(
                "program header {:#x} {:?} vs {:#x} {:?}",
                a.program_version, a.dxil_version, b.program_version, b.dxil_version
            ));
        }
        let m2 = dxjit::bitcode::read_module(b.bitcode).unwrap();
        errs.extend(dxjit::ir::diff::diff_modules(&m, &m2, 3));
        if info.shader_model.kind != dxjit::ShaderKind::Library {
            for f in [b"ISG1", b"OSG1", b"PSG1"] {
                let name = String::from_utf8_lossy(f);
                match (orig.part(f), c.part(f)) {
                    (Some(x), Some(y)) if x.data == y.data => sig_parts += 1,
                    // Some old DXC builds leave the part unpadded (validator 1.6 `clang version 3.7`).
                    (Some(x), Some(y))
                        if x.data.len() % 4 != 0
                            && y.data.starts_with(x.data)
                            && y.data.len() == x.data.len().next_multiple_of(4)
                            && y.data[x.data.len()..].iter().all(|&b| b == 0) =>
                    {
                        sig_parts += 1;
                        padded += 1;
                    }
                    (Some(x), Some(y)) => {
                        errs.push(format!("{name} differs:\n      {:02x?}\n      {:02x?}", x.data, y.data))
                    }
                    (None, None) => {}
                    (x, y) => errs.push(format!("{name}: original {}, ours {}", x.is_some(), y.is_some())),
                }
            }
        }
        if !errs.is_empty() {
            failures.push(format!(
                "{} (valver {:?}, dxc {:?}): {}",
                p.display(),
                info.validator_version,
                m.named_md("llvm.ident").and_then(|n| n
                    .ops
                    .first()
                    .and_then(|o| m.md_node(*o))
                    .and_then(|x| x.first().copied().flatten())
                    .and_then(|s| m.md_string(s))),
                errs.join("\n    ")
            ));
        }
    }
    for f in failures.iter().take(10) {
        eprintln!("{f}");
    }
    eprintln!(
        "containers: {} of {n} match ({sig_parts} signature parts byte for byte, {padded} of them but for padding)",
        n - failures.len()
    );
    assert!(failures.is_empty(), "{} of {n} containers differ", failures.len());
}
