//! Running `spirv-val` on emitted SPIR-V (env `DXJIT_SPIRV_VAL`, else
//! `spirv-val` on PATH).

use std::io::Write;
use std::process::{Command, Stdio};

/// The validator command.
pub fn validator() -> String {
    std::env::var("DXJIT_SPIRV_VAL").unwrap_or_else(|_| "spirv-val".to_string())
}

/// The Vulkan target environment for a module of SPIR-V `version` (major, minor).
pub fn target_env(version: (u8, u8)) -> &'static str {
    match version {
        (1, 0..=3) => "vulkan1.1",
        (1, 4) => "vulkan1.1spv1.4",
        (1, 5) => "vulkan1.2",
        _ => "vulkan1.3",
    }
}

/// The SPIR-V version in a module's header.
pub fn version_of(words: &[u32]) -> (u8, u8) {
    let v = words.get(1).copied().unwrap_or(0x0001_0300);
    (((v >> 16) & 0xff) as u8, ((v >> 8) & 0xff) as u8)
}

/// Validates a module against the Vulkan environment its version needs.
/// `Err` carries the validator's message; a missing validator is an `Err` too.
pub fn validate(words: &[u32]) -> Result<(), String> {
    validate_env(words, target_env(version_of(words)))
}

pub fn validate_env(words: &[u32], env: &str) -> Result<(), String> {
    let mut child = Command::new(validator())
        .args(["--target-env", env, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", validator()))?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(&bytes).map_err(|e| format!("writing to spirv-val: {e}"))?;
    }
    let out = child.wait_with_output().map_err(|e| format!("spirv-val: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}
