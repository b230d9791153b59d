//! The data-driven conformance runner: spec files (TOML, see conformance/SPECS.md) describe a
//! shader, its D3D resources by register, a dispatch and the expected outputs; the runner compiles
//! the shader, binds the resources where the compiler put them, runs it, and compares.
//!
//! The compiler and device sit behind [`Backend`]; [`vulkan::VulkanBackend`] (feature `vulkan`)
//! is the real one.

pub mod backend;
pub mod bind;
pub mod bindless;
pub mod compare;
#[cfg(feature = "vulkan")]
pub mod convert;
pub mod data;
pub mod draw;
pub mod error;
pub mod execute;
pub mod gfx;
pub mod image;
pub mod job;
pub mod link;
pub mod pipeline;
pub mod report;
pub mod rootsig;
pub mod rt;
pub mod rtspec;
pub mod spec;
#[cfg(feature = "vulkan")]
pub mod vulkan;
#[cfg(feature = "graphics")]
pub mod vulkan_gfx;

#[cfg(test)]
mod draw_tests;
#[cfg(test)]
mod tests;

pub use backend::Backend;
pub use error::SpecError;
pub use execute::{run_spec, RunConfig};
pub use report::{Report, SpecResult, Status};
pub use spec::Spec;

use std::path::{Path, PathBuf};

/// The suites' folder (`conformance/specs`).
pub fn specs_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("specs")
}

/// Loads one spec file, or the result that reports why it cannot be used.
pub fn load(path: &Path) -> Result<Spec, Box<SpecResult>> {
    Spec::load(path).map_err(|e| {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let mut r = SpecResult::new(&name, path);
        r.detail = format!("spec error: {e}");
        Box::new(r)
    })
}

/// Runs the spec at `path`.
pub fn run_file(backend: &dyn Backend, path: &Path, cfg: &RunConfig) -> SpecResult {
    match load(path) {
        Ok(spec) => run_spec(backend, &spec, cfg),
        Err(r) => *r,
    }
}

/// Runs every spec below `dir` (sorted by path); `progress` sees each result as it comes.
pub fn run_dir(
    backend: &dyn Backend,
    dir: &Path,
    cfg: &RunConfig,
    progress: &mut dyn FnMut(usize, usize, &SpecResult),
) -> std::io::Result<Report> {
    let files = spec::spec_files(dir)?;
    let mut results = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let r = run_file(backend, f, cfg);
        progress(i + 1, files.len(), &r);
        results.push(r);
    }
    Ok(Report::new(backend.device_name(), results))
}

/// The real backend (`device`: pick the Vulkan device whose name contains this text), or why
/// there is none (feature `vulkan` off, no Vulkan device).
pub fn default_backend(device: Option<String>) -> Result<Box<dyn Backend>, String> {
    #[cfg(feature = "vulkan")]
    {
        vulkan::VulkanBackend::new(device).map(|b| Box::new(b) as Box<dyn Backend>)
    }
    #[cfg(not(feature = "vulkan"))]
    {
        let _ = device;
        Err("dxjit-conformance was built without the `vulkan` feature".into())
    }
}
