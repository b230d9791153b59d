//! The validity oracle: compile, then judge the answer.

use std::io::Write;
use std::process::{Command, Stdio};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Valid SPIR-V (spirv-val accepted it).
    Valid,
    /// A `Malformed` error (the text).
    Malformed(String),
    /// An `Unsupported` error (the text).
    Unsupported(String),
    /// A failure of dxjit: `Internal` (or a binding error, which the
    /// default options never cause), or SPIR-V that spirv-val rejects.
    Internal(String),
    Invalid(String),
}

impl Verdict {
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::Internal(_) | Verdict::Invalid(_))
    }
}

/// Where a compile stopped: the reader (container, bitcode), the verifier,
/// or past it (metadata, lowering, SPIR-V).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Reader,
    Verifier,
    PastVerifier,
}

impl Verdict {
    /// The stage that answered, from the error's prefix.
    pub fn stage(&self) -> Stage {
        match self {
            Verdict::Malformed(m)
                if m.starts_with("malformed input: container:") || m.starts_with("malformed input: bitcode:") =>
            {
                Stage::Reader
            }
            Verdict::Malformed(m) if m.starts_with("malformed input: verify:") => Stage::Verifier,
            _ => Stage::PastVerifier,
        }
    }
}

pub fn validator() -> String {
    std::env::var("DXJIT_SPIRV_VAL").unwrap_or_else(|_| "spirv-val".to_string())
}

/// Runs spirv-val on a module (Vulkan 1.1 environment for SPIR-V ≤ 1.3).
pub fn spirv_val(words: &[u32]) -> Result<(), String> {
    let v = words.get(1).copied().unwrap_or(0x0001_0300);
    let env = match (v >> 8) & 0xff {
        0..=3 => "vulkan1.1",
        4 => "vulkan1.1spv1.4",
        5 => "vulkan1.2",
        _ => "vulkan1.3",
    };
    let mut child = Command::new(validator())
        .args(["--target-env", env, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", validator()))?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(&bytes);
    }
    let out = child.wait_with_output().map_err(|e| format!("spirv-val: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}

/// Compiles a container with the default options and judges the result. A
/// DXIL library (which needs an export named) is compiled per export, at
/// most four: the first failure, else the first export's verdict.
pub fn judge(container: &[u8]) -> Verdict {
    let v = judge_with(container, &dxjit::CompileOptions::default());
    if !matches!(&v, Verdict::Unsupported(m) if m.contains("a DXIL library without an export")) {
        return v;
    }
    let mut first = None;
    for export in exports(container).into_iter().take(4) {
        let opts = dxjit::CompileOptions { entry_point: Some(export), ..dxjit::CompileOptions::default() };
        let e = judge_with(container, &opts);
        if e.is_failure() {
            return e;
        }
        first.get_or_insert(e);
    }
    first.unwrap_or(v)
}

/// The export names of a library's entry points.
fn exports(container: &[u8]) -> Vec<String> {
    let Ok(c) = dxjit::container::Container::parse(container) else { return Vec::new() };
    let Ok(prog) = c.dxil_program() else { return Vec::new() };
    let Ok(m) = dxjit::bitcode::read_module(prog.bitcode) else { return Vec::new() };
    let Ok(info) = dxjit::dxil::decode(&m) else { return Vec::new() };
    info.functions().map(|e| dxjit::dxil::library::export_name(&e.name).to_string()).collect()
}

fn judge_with(container: &[u8], opts: &dxjit::CompileOptions) -> Verdict {
    match dxjit::compile(container, opts) {
        Ok(cs) => match spirv_val(&cs.spirv) {
            Ok(()) => Verdict::Valid,
            Err(e) if e.starts_with("cannot run") => panic!("{e}"),
            Err(e) => Verdict::Invalid(e),
        },
        Err(e @ (dxjit::CompileError::Internal(_) | dxjit::CompileError::Binding(_))) => {
            Verdict::Internal(e.to_string())
        }
        Err(e @ dxjit::CompileError::Malformed(_)) => Verdict::Malformed(e.to_string()),
        Err(e @ dxjit::CompileError::Unsupported { .. }) => Verdict::Unsupported(e.to_string()),
    }
}
