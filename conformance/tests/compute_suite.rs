//! The compute suite (`conformance/specs/compute/*.toml`) through the real backend: dxjit compiles
//! each shader, dxjit-runtime runs it on the Vulkan device with validation on. Prints the table and
//! the closing line `N passed, N failed, N skipped`; fails if any spec fails.
#![cfg(feature = "vulkan")]

use dxjit_conformance::runner::{self, vulkan::VulkanBackend, RunConfig};

#[test]
fn compute_suite() {
    let backend = match VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("SKIPPED compute_suite: no Vulkan device ({e})");
            return;
        }
    };
    let dir = runner::specs_root().join("compute");
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
    // Specs of real corpus shaders (not the project's fixtures).
    let corpus = |s: &&runner::report::SpecResult| !s.shader.starts_with("fixtures/");
    let corpus_ran = report.specs.iter().filter(corpus).any(|s| s.status != runner::report::Status::Skipped);
    let corpus_passed = report.specs.iter().filter(corpus).filter(|s| s.status.is_pass()).count();
    println!("corpus specs passing: {corpus_passed}");
    assert!(report.specs.len() >= 50, "the suite lost specs: {}", report.specs.len());
    assert_eq!(report.failed, 0, "{}", report.closing_line());
    if corpus_ran {
        assert!(corpus_passed >= 30, "only {corpus_passed} specs of corpus shaders pass");
    }
}
