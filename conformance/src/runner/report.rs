//! Per-spec results, the text table, the closing line and the JSON report.

use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Pass,
    Fail,
    Skipped,
    /// The compiler reported unsupported DXIL; counts as a failure.
    CompileUnsupported,
    /// The compiler reported unsupported DXIL and the spec says `expect = "unsupported"`; a pass.
    ExpectedUnsupported,
}

impl Status {
    pub fn text(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "FAIL",
            Status::Skipped => "skipped",
            Status::CompileUnsupported => "UNSUPPORTED",
            Status::ExpectedUnsupported => "pass (unsupported as expected)",
        }
    }

    pub fn is_pass(self) -> bool {
        matches!(self, Status::Pass | Status::ExpectedUnsupported)
    }

    pub fn is_fail(self) -> bool {
        matches!(self, Status::Fail | Status::CompileUnsupported)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SpecResult {
    pub name: String,
    pub path: PathBuf,
    pub shader: String,
    pub status: Status,
    /// Why it failed or was skipped (first mismatch, error text), empty on a plain pass.
    pub detail: String,
    /// Validation-layer messages seen while it ran.
    pub messages: Vec<String>,
    pub compile_ms: f64,
    pub run_ms: f64,
    pub total_ms: f64,
}

impl SpecResult {
    pub fn new(name: &str, path: &Path) -> SpecResult {
        SpecResult {
            name: name.to_string(),
            path: path.to_path_buf(),
            shader: String::new(),
            status: Status::Fail,
            detail: String::new(),
            messages: Vec::new(),
            compile_ms: 0.0,
            run_ms: 0.0,
            total_ms: 0.0,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub device: String,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub specs: Vec<SpecResult>,
}

impl Report {
    pub fn new(device: String, specs: Vec<SpecResult>) -> Report {
        let passed = specs.iter().filter(|s| s.status.is_pass()).count();
        let failed = specs.iter().filter(|s| s.status.is_fail()).count();
        let skipped = specs.iter().filter(|s| s.status == Status::Skipped).count();
        Report { device, passed, failed, skipped, specs }
    }

    /// `N passed, N failed, N skipped`.
    pub fn closing_line(&self) -> String {
        format!("{} passed, {} failed, {} skipped", self.passed, self.failed, self.skipped)
    }

    /// One row per spec (name, status, compile/run times, detail), then the closing line.
    pub fn table(&self) -> String {
        let w = self.specs.iter().map(|s| s.name.len()).max().unwrap_or(4).max(4);
        let mut out = format!("{:<w$}  {:<11}  {:>9}  {:>9}  detail\n", "spec", "status", "compile", "run");
        for s in &self.specs {
            let status = if s.status == Status::ExpectedUnsupported { "pass (unsup)" } else { s.status.text() };
            let mut detail = s.detail.replace('\n', " ");
            if detail.len() > 160 {
                let mut cut = 157;
                while !detail.is_char_boundary(cut) {
                    cut -= 1;
                }
                detail.truncate(cut);
                detail.push_str("...");
            }
            out.push_str(&format!(
                "{:<w$}  {:<11}  {:>7.1}ms  {:>7.1}ms  {}\n",
                s.name, status, s.compile_ms, s.run_ms, detail
            ));
        }
        out.push_str(&self.closing_line());
        out.push('\n');
        out
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}
