//! Shared helpers of the runtime tests: assembling the committed `.spvasm` shaders and creating a
//! validated context (or reporting the test SKIPPED when this machine has no Vulkan device).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use dxjit_runtime::{spirv_from_words, Context, ContextOptions};

fn tool(env: &str, debian: &str, name: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    if Path::new(debian).exists() {
        return Some(PathBuf::from(debian));
    }
    let ok = Command::new(name).arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    ok.then(|| PathBuf::from(name))
}

/// `spirv-as`: env `DXJIT_SPIRV_AS`, else Debian's `/usr/bin/spirv-as`, else PATH.
fn spirv_as() -> Option<PathBuf> {
    tool("DXJIT_SPIRV_AS", "/usr/bin/spirv-as", "spirv-as")
}

/// `spirv-val`: env `DXJIT_SPIRV_VAL`, else PATH, else Debian's.
fn spirv_val() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DXJIT_SPIRV_VAL") {
        return Some(PathBuf::from(p));
    }
    let ok = Command::new("spirv-val").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if ok {
        return Some(PathBuf::from("spirv-val"));
    }
    Path::new("/usr/bin/spirv-val").exists().then(|| PathBuf::from("/usr/bin/spirv-val"))
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Assembles `tests/shaders/<name>.spvasm` with `spirv-as --target-env vulkan1.1`, checks it with
/// spirv-val, and returns the words. `None` (after printing SKIPPED) when spirv-as is missing.
pub fn assemble(test: &str, name: &str) -> Option<Vec<u32>> {
    assemble_for(test, name, "vulkan1.1")
}

/// [`assemble`] for another target environment (`vulkan1.2`: SPIR-V 1.5, which ray tracing needs).
pub fn assemble_for(test: &str, name: &str, env: &str) -> Option<Vec<u32>> {
    let Some(as_tool) = spirv_as() else {
        eprintln!("SKIPPED {test}: spirv-as not found (set DXJIT_SPIRV_AS)");
        return None;
    };
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders").join(format!("{name}.spvasm"));
    let out = std::env::temp_dir().join(format!(
        "dxjit-runtime-{}-{}-{name}.spv",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let status = Command::new(&as_tool)
        .args(["--target-env", env])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", as_tool.display()));
    assert!(status.status.success(), "spirv-as {}: {}", src.display(), String::from_utf8_lossy(&status.stderr));
    if let Some(val) = spirv_val() {
        let v = Command::new(&val).args(["--target-env", env]).arg(&out).output().expect("running spirv-val");
        assert!(
            v.status.success(),
            "spirv-val {}: {}{}",
            src.display(),
            String::from_utf8_lossy(&v.stdout),
            String::from_utf8_lossy(&v.stderr)
        );
    }
    let bytes = std::fs::read(&out).expect("reading assembled SPIR-V");
    let _ = std::fs::remove_file(&out);
    Some(spirv_from_words(&bytes).expect("spirv-as output is SPIR-V"))
}

/// A context with validation on, or `None` (after printing SKIPPED) without a Vulkan device.
pub fn context(test: &str) -> Option<Context> {
    Context::for_test(test, &ContextOptions { validation: true, device: None }).expect("creating a Vulkan context")
}

/// Shader and context together; `None` when the test is skipped.
pub fn setup(test: &str, shader: &str) -> Option<(Context, Vec<u32>)> {
    let spirv = assemble(test, shader)?;
    let ctx = context(test)?;
    Some((ctx, spirv))
}

/// Asserts that the context captured no validation messages and tears it down, asserting that
/// teardown (leak checks included) is clean too.
pub fn assert_clean(ctx: Context) {
    let messages = ctx.take_validation_messages();
    assert!(messages.is_empty(), "validation messages:\n{}", messages.join("\n"));
    let teardown = ctx.finish();
    assert!(teardown.is_empty(), "validation messages at teardown:\n{}", teardown.join("\n"));
}

pub fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn to_u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

pub fn to_f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}
