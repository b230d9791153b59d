//! The ray-tracing suite (`conformance/specs/raytracing/*.toml`): DXR libraries compiled by dxjit
//! and run through ray-tracing pipelines (acceleration structures, shader binding tables with
//! local root arguments, `vkCmdTraceRaysKHR`), and inline ray queries in compute and pixel
//! shaders, on the Vulkan device with validation on. Specs SKIP by name on devices without
//! VK_KHR_ray_tracing_pipeline / VK_KHR_ray_query.
#![cfg(feature = "vulkan")]

use dxjit_conformance::runner::{self, vulkan::VulkanBackend, RunConfig};

/// Pending specs (waiting for their DXIL, `specs/raytracing_pending/README.md`; none today) stay
/// well formed.
#[test]
fn pending_specs_parse() {
    let dir = runner::specs_root().join("raytracing_pending");
    let files = runner::spec::spec_files(&dir).expect("reading the pending folder");
    for f in files {
        if let Err(r) = runner::load(&f) {
            panic!("{}: {}", f.display(), r.detail);
        }
    }
}

#[test]
fn raytracing_suite() {
    let backend = match VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("SKIPPED raytracing_suite: no Vulkan device ({e})");
            return;
        }
    };
    let dir = runner::specs_root().join("raytracing");
    let report =
        runner::run_dir(&backend, &dir, &RunConfig::default(), &mut |_, _, _| {}).expect("reading the specs folder");
    println!("device: {}", report.device);
    print!("{}", report.table());
    for s in report.specs.iter().filter(|s| s.status.is_fail()) {
        println!("--- {} ({}): {}", s.name, s.shader, s.detail);
        for m in &s.messages {
            println!("    {m}");
        }
    }
    for s in report.specs.iter().filter(|s| s.status == runner::report::Status::Skipped) {
        println!("SKIPPED {}: {}", s.name, s.detail);
    }
    println!("{}", report.closing_line());
    assert_eq!(report.failed, 0, "{}", report.closing_line());
    assert!(report.specs.len() >= 13, "the suite lost specs: {}", report.specs.len());
}
