//! `dxjit run SPEC`: run one conformance spec on the Vulkan device and print its result.

use dxjit_conformance::runner::{self, Report, RunConfig};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The spec file (conformance/specs/compute/NAME.toml).
    pub spec: PathBuf,
    /// Pick the Vulkan device whose name contains this text.
    #[arg(long)]
    pub device: Option<String>,
    /// Write the JSON report here.
    #[arg(long)]
    pub report: Option<PathBuf>,
}

pub fn main(a: Args) -> ExitCode {
    let spec = match runner::load(&a.spec) {
        Ok(s) => s,
        Err(r) => {
            eprintln!("{}: {}", a.spec.display(), r.detail);
            return ExitCode::from(2);
        }
    };
    let backend = match crate::cmd_conform::backend(a.device) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let result = runner::run_spec(backend.as_ref(), &spec, &RunConfig::default());
    let report = Report::new(backend.device_name(), vec![result]);
    crate::cmd_conform::finish(&report, a.report.as_deref(), true)
}
