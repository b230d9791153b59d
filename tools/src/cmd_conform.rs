//! `dxjit conform [DIR] [--report FILE]`: run every spec below DIR (default: the conformance
//! suites), print a table and `N passed, N failed, N skipped`, optionally write a JSON report.

use dxjit_conformance::runner::{self, Backend, Report, RunConfig};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Folder of spec files, searched recursively (default: conformance/specs).
    pub dir: Option<PathBuf>,
    /// Write a report here: JUnit XML when the name ends in .xml, an HTML page (failing probes
    /// with expected/actual/difference pictures) for .html, else JSON (every spec with status,
    /// timings, messages).
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Pick the Vulkan device whose name contains this text.
    #[arg(long)]
    pub device: Option<String>,
}

pub fn main(a: Args) -> ExitCode {
    let dir = a.dir.unwrap_or_else(runner::specs_root);
    let backend = match backend(a.device) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = runner::run_dir(backend.as_ref(), &dir, &RunConfig::default(), &mut |i, n, r| {
        bar.set_length(n as u64);
        bar.set_position(i as u64);
        bar.set_message(format!("{} {}", r.name, r.status.text()));
    });
    bar.finish_and_clear();
    match report {
        Ok(r) => finish(&r, a.report.as_deref(), false),
        Err(e) => {
            eprintln!("cannot read {}: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}

/// The device backend, or exit code 2 with the reason printed.
pub fn backend(device: Option<String>) -> Result<Box<dyn Backend>, ExitCode> {
    let b = runner::default_backend(device);
    b.map_err(|e| {
        eprintln!("no backend: {e}");
        ExitCode::from(2)
    })
}

/// Prints the table (with failure details and validation messages when `verbose` or failing),
/// writes the JSON report, and turns the outcome into an exit code.
pub fn finish(report: &Report, json: Option<&Path>, verbose: bool) -> ExitCode {
    println!("device: {}", report.device);
    print!("{}", report.table());
    for s in report.specs.iter().filter(|s| verbose || s.status.is_fail()) {
        if !s.detail.is_empty() || !s.messages.is_empty() {
            eprintln!("--- {} ({}): {}", s.name, s.shader, s.detail);
            for m in &s.messages {
                eprintln!("    {m}");
            }
        }
    }
    if let Some(path) = json {
        if let Err(e) = std::fs::write(path, report.render_for(path)) {
            eprintln!("cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if report.failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
