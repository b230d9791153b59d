//! The validity oracle: compile, then judge the answer.

use std::io::Write;
use std::process::{Command, Stdio};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Valid SPIR-V (spirv-val accepted it).
    Valid,
    /// A `Malformed` or `Unsupported` error (the text).
    Rejected(String),
    /// A failure of dxjit: `Internal`, or SPIR-V that spirv-val rejects.
    Internal(String),
    Invalid(String),
}

impl Verdict {
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::Internal(_) | Verdict::Invalid(_))
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

/// Compiles a container with the default options and judges the result.
pub fn judge(container: &[u8]) -> Verdict {
    match dxjit::compile(container, &dxjit::CompileOptions::default()) {
        Ok(cs) => match spirv_val(&cs.spirv) {
            Ok(()) => Verdict::Valid,
            Err(e) if e.starts_with("cannot run") => panic!("{e}"),
            Err(e) => Verdict::Invalid(e),
        },
        Err(e @ dxjit::CompileError::Internal(_)) => Verdict::Internal(e.to_string()),
        Err(e) => Verdict::Rejected(e.to_string()),
    }
}
