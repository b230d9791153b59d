//! The assembler's round trips over every corpus container and fixture:
//! `print(read(x))` parses back to a module equal to `read(x)`
//! (`ir::diff`), and prints again to the same text.

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
