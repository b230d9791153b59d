//! Drawn pipeline specs (conformance/specs/graphics, specs/mesh, specs/barycentrics, and specs/tessellation with
//! feature `tessellation`) through the real backend: the linker, `dxjit::compile_pipeline`, and one draw on
//! the Vulkan device with the validation layer on (any message fails a spec). Rejection specs run
//! too. Prints the table and the closing line `N passed, N failed, N skipped`; fails if any spec
//! fails. Without a Vulkan device every spec is listed as SKIPPED by name.
#![cfg(feature = "graphics")]

use dxjit_conformance::runner::{self, spec::spec_files, vulkan::VulkanBackend, RunConfig};

fn suites() -> Vec<&'static str> {
    if cfg!(feature = "tessellation") {
        vec!["graphics", "mesh", "barycentrics", "tessellation"]
    } else {
        vec!["graphics", "mesh", "barycentrics"]
    }
}

#[test]
fn graphics_suite() {
    let backend = match VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok()) {
        Ok(b) => b,
        Err(e) => {
            let mut n = 0;
            for suite in suites() {
                for f in spec_files(&runner::specs_root().join(suite)).expect("specs folder") {
                    let name = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                    println!("SKIPPED {suite}/{name}: no Vulkan device ({e})");
                    n += 1;
                }
            }
            println!("0 passed, 0 failed, {n} skipped");
            return;
        }
    };
    let mut results = Vec::new();
    for suite in suites() {
        let dir = runner::specs_root().join(suite);
        let report = runner::run_dir(&backend, &dir, &RunConfig::default(), &mut |_, _, _| {})
            .expect("reading the specs folder");
        results.extend(report.specs);
    }
    if !cfg!(feature = "tessellation") {
        for f in spec_files(&runner::specs_root().join("tessellation")).expect("specs folder") {
            let name = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            println!("SKIPPED tessellation/{name}: built without feature `tessellation`");
        }
    }
    let report = runner::Report::new(dxjit_conformance::runner::Backend::device_name(&backend), results);
    println!("device: {}", report.device);
    print!("{}", report.table());
    for s in report.specs.iter().filter(|s| s.status.is_fail()) {
        println!("--- {} ({}): {}", s.name, s.shader, s.detail);
        for m in &s.messages {
            println!("    {m}");
        }
    }
    assert_eq!(report.failed, 0, "{}", report.closing_line());
}
