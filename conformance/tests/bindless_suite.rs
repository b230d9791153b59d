//! The bindless suite (`conformance/specs/bindless/*.toml`): shaders compiled under a D3D12 binding
//! model (root signature + default policy: descriptor tables and SM 6.6 heap accesses in bindless
//! heap arrays, root descriptors as buffer device addresses, root constants in push constants),
//! run with the heaps, bounds buffer, counter array, static samplers and root block the spec
//! describes, on the Vulkan device with validation on. Prints the device and driver, the table and
//! `N passed, N failed, N skipped`; fails if any spec fails.
use dxjit_conformance::runner::{self, bindless, spec::spec_files, RunConfig, Spec};

/// Every bindless spec parses, its root signature resolves (embedded ones from the container) and
/// its resources and root arguments bind against the root block `PushLayout::of` gives. Needs no
/// device (the corpus for corpus shaders, else those are only parsed).
#[test]
fn bindless_specs_are_well_formed() {
    let cfg = RunConfig::default();
    let mut errors = Vec::new();
    let mut n = 0;
    for dir in ["bindless", "bindless_pending"] {
        for f in spec_files(&runner::specs_root().join(dir)).expect("specs folder") {
            n += 1;
            let spec = match Spec::load(&f) {
                Ok(s) => s,
                Err(e) => {
                    errors.push(format!("{}: {e}", f.display()));
                    continue;
                }
            };
            let Some(root) = &spec.root else {
                errors.push(format!("{}: no [root_signature]", spec.name));
                continue;
            };
            let shaders: Vec<String> = match &spec.pipeline {
                Some(p) => p.stages.iter().map(|s| s.shader.clone()).collect(),
                None => vec![spec.shader.clone()],
            };
            let rs = match &root.signature {
                Some(rs) => Some(rs.clone()),
                None => shaders
                    .iter()
                    .filter_map(|s| std::fs::read(cfg.path_of(s)).ok())
                    .find_map(|b| bindless::root_signature(root, &b).ok()),
            };
            let Some(rs) = rs else {
                if shaders.iter().all(|s| s.starts_with("fixtures/")) {
                    errors.push(format!("{}: no embedded root signature", spec.name));
                }
                continue;
            };
            let layout = bindless::model(root, rs.clone()).push_layout();
            if let Err(e) = bindless::bind(&spec, root, &rs, &layout) {
                errors.push(format!("{}: {e}", spec.name));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(n >= 25, "only {n} bindless specs");
}

#[cfg(feature = "vulkan")]
#[test]
fn bindless_suite() {
    use dxjit_conformance::runner::vulkan::VulkanBackend;
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

/// The HS/DS spec's statistics tell its tess factors (3, from root constants) from others, which
/// its colours cannot: with the factors perturbed to 2 or 4 the spec fails on the triangle count
/// (6 or 24 instead of 13), and with 1 as well.
#[cfg(feature = "vulkan")]
#[test]
fn hs_ds_statistics_see_the_tess_factors() {
    use dxjit_conformance::runner::vulkan::VulkanBackend;
    use dxjit_conformance::runner::Status;
    let backend = match VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("SKIPPED hs_ds_statistics_see_the_tess_factors: no Vulkan device ({e})");
            return;
        }
    };
    let path = runner::specs_root().join("bindless/tri_heap_hs_ds.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let three = format!("values = [{}, {}]", 3.0f32.to_bits(), 3.0f32.to_bits());
    assert!(text.contains(&three), "the spec's factors are 3.0: {three}");
    for (factor, triangles) in [(3.0f32, 13), (2.0, 6), (4.0, 24), (1.0, 1)] {
        let t = text.replace(&three, &format!("values = [{}, {}]", factor.to_bits(), factor.to_bits()));
        let spec = Spec::parse("tri_heap_hs_ds", &path, &t).unwrap();
        let r = runner::run_spec(&backend, &spec, &RunConfig::default());
        if r.status == Status::Skipped {
            eprintln!("SKIPPED hs_ds_statistics_see_the_tess_factors: {}", r.detail);
            return;
        }
        if factor == 3.0 {
            assert_eq!(r.status, Status::Pass, "{}", r.detail);
        } else {
            assert_eq!(r.status, Status::Fail, "factor {factor}: {}", r.detail);
            let want = format!("statistic c_invocations: expected 13, got {triangles}");
            assert!(r.detail.contains(&want), "factor {factor}: {}", r.detail);
        }
    }
}
