//! The bindless suite (`conformance/specs/bindless/*.toml`): shaders compiled under a D3D12 binding
//! model (root signature + default policy: descriptor tables and SM 6.6 heap accesses in bindless
//! heap arrays, root descriptors as buffer device addresses, root constants in push constants),
//! run with the heaps, bounds buffer, counter array, static samplers and root block the spec
//! describes, on the Vulkan device with validation on. Prints the device and driver, the table and
//! `N passed, N failed, N skipped`; fails if any spec fails.
#![cfg(feature = "vulkan")]

use dxjit_conformance::runner::{self, vulkan::VulkanBackend, RunConfig};

#[test]
fn bindless_suite() {
    let backend = match VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("SKIPPED bindless_suite: no Vulkan device ({e})");
            return;
        }
    };
    let dir = runner::specs_root().join("bindless");
    let report =
        runner::run_dir(&backend, &dir, &RunConfig::default(), &mut |_, _, _| {}).expect("reading the specs folder");
    println!("device: {}", report.device);
    print!("{}", report.table());
    for s in report.specs.iter().filter(|s| s.status.is_fail()) {
        println!("--- {} ({}): {}", s.name, s.shader, s.detail);
        for m in s.messages.iter().take(5) {
            println!("    {m}");
        }
    }
    assert!(report.specs.len() >= 25, "the suite lost specs: {}", report.specs.len());
    assert_eq!(report.failed, 0, "{}", report.closing_line());
}
