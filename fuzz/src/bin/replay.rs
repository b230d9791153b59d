//! Judges saved inputs again (a campaign's findings folder, or single
//! files) with the validity oracle, to check fixes:
//!
//! ```sh
//! cargo run --release --manifest-path fuzz/Cargo.toml --no-default-features --bin replay -- \
//!     /tmp/findings-S [MORE.dxil ...]
//! ```
//!
//! One line per input: `ok` (valid SPIR-V, or `Malformed`/`Unsupported`
//! with its message) or `FAIL`; exits 1 when any input still fails.

use dxjit_fuzz::oracle::{judge, Verdict};
use std::path::{Path, PathBuf};

fn inputs(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let Ok(rd) = std::fs::read_dir(p) else { return };
        let mut v: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        v.sort();
        for q in v {
            inputs(&q, out);
        }
    } else if p.extension().is_some_and(|x| x == "dxil") {
        out.push(p.to_path_buf());
    }
}

fn main() {
    let mut files = Vec::new();
    for a in std::env::args().skip(1) {
        inputs(Path::new(&a), &mut files);
    }
    if files.is_empty() {
        eprintln!("usage: replay DIR_OR_FILE.dxil ...");
        std::process::exit(2);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let mut failing = 0;
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else { continue };
        let line = match std::panic::catch_unwind(|| judge(&bytes)) {
            Err(_) => Err("panic".to_string()),
            Ok(Verdict::Valid) => Ok("valid SPIR-V".to_string()),
            Ok(Verdict::Malformed(m) | Verdict::Unsupported(m)) => Ok(m),
            Ok(Verdict::Internal(m) | Verdict::Invalid(m)) => Err(m),
        };
        match line {
            Ok(m) => println!("ok   {}: {}", f.display(), m.lines().next().unwrap_or("")),
            Err(m) => {
                failing += 1;
                println!("FAIL {}: {}", f.display(), m.lines().next().unwrap_or(""));
            }
        }
    }
    println!("{} inputs, {failing} failing", files.len());
    if failing > 0 {
        std::process::exit(1);
    }
}
