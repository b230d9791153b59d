//! Min precision executed both ways on the Vulkan device: the `min_precision_*` compute specs
//! (`conformance/specs/compute`) pass when min-precision types are computed at 32 bits (the
//! default) and when they are real 16-bit types (`PipelineStateOptions::native_min_precision`,
//! where the device has 16-bit arithmetic); and the effect shows: the `min16float4` copied from
//! a float texture comes out exact at 32 bits and rounded to half with native 16-bit types.
//! Skips by name without a Vulkan device or the corpus.

#![cfg(feature = "vulkan")]

use dxjit::{CompileOptions, SubgroupSizeRange};
use dxjit_conformance::runner::backend::{Backend, CompileFailure, Compiled, DeviceCaps, Job, Outputs};
use dxjit_conformance::runner::convert::{compile_failure, compiled_of};
use dxjit_conformance::runner::gfx::{LinkFailure, LinkStage};
use dxjit_conformance::runner::vulkan::VulkanBackend;
use dxjit_conformance::runner::{self, bind, RunConfig, Spec};

/// The real backend, compiling with min-precision types as native 16-bit types.
struct Native16(VulkanBackend);

impl Backend for Native16 {
    fn device_name(&self) -> String {
        self.0.device_name()
    }
    fn caps(&self) -> DeviceCaps {
        self.0.caps()
    }
    fn compile(&self, container: &[u8], entry_point: Option<&str>) -> Result<Compiled, CompileFailure> {
        self.compile_for(container, entry_point, None)
    }
    fn compile_for(&self, c: &[u8], entry_point: Option<&str>, size: Option<u32>) -> Result<Compiled, CompileFailure> {
        let mut o = CompileOptions { entry_point: entry_point.map(str::to_string), ..CompileOptions::default() };
        o.state.native_min_precision = true;
        o.state.subgroup_size = Some(size.map_or_else(|| self.0.compute_subgroup_sizes(), SubgroupSizeRange::exactly));
        dxjit::compile(c, &o).map(compiled_of).map_err(compile_failure)
    }
    fn run_compute(&self, job: &Job<'_>) -> Result<Outputs, String> {
        self.0.run_compute(job)
    }
    fn take_validation_messages(&self) -> Vec<String> {
        self.0.take_validation_messages()
    }
    fn link(&self, stages: &[LinkStage<'_>], opts: &dxjit::link::LinkOptions) -> Result<(), LinkFailure> {
        self.0.link(stages, opts)
    }
}

fn specs() -> Vec<Spec> {
    let dir = runner::specs_root().join("compute");
    let files = runner::spec::spec_files(&dir).expect("compute specs");
    let v: Vec<Spec> = files
        .iter()
        .filter(|f| f.file_stem().is_some_and(|s| s.to_string_lossy().starts_with("min_precision_")))
        .map(|f| Spec::load(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
        .collect();
    assert!(v.len() >= 2, "min_precision specs missing");
    v
}

/// The f32 nearest to `v` in half precision (round to nearest even), as an f32.
fn to_half(v: f32) -> f32 {
    let b = v.to_bits();
    let (sign, a) = (b & 0x8000_0000, b & 0x7fff_ffff);
    if a >= 0x477f_f000 {
        // |v| >= 65520 (rounds past the largest half) or not finite.
        return if a > 0x7f80_0000 { v } else { f32::from_bits(sign | 0x7f80_0000) };
    }
    if a < 0x3880_0000 {
        // Below 2^-14: a multiple of 2^-24.
        let q = (f32::from_bits(a) * 16_777_216.0).round_ties_even() / 16_777_216.0;
        return f32::from_bits(sign | q.to_bits());
    }
    let r = a + 0x0fff + ((a >> 13) & 1);
    f32::from_bits(sign | (r & !0x1fff))
}

/// Runs the texture-phi spec's shader with `backend` and returns u0 as f32s.
fn texture_phi(backend: &dyn Backend, cfg: &RunConfig) -> Option<Vec<f32>> {
    let spec = specs().into_iter().find(|s| s.name == "min_precision_texture_phi")?;
    let bytes = std::fs::read(cfg.shader_path(&spec)).ok()?;
    let compiled = backend.compile(&bytes, None).unwrap_or_else(|e| panic!("compile: {e:?}"));
    let (resources, push_constants) = bind::build_resources(&spec, &compiled).expect("bind");
    let job = Job {
        spirv: &compiled.spirv,
        entry_point: &compiled.entry_point,
        resources,
        push_constants,
        dispatch: spec.dispatch,
        required_subgroup_size: None,
        scene: None,
    };
    let out = backend.run_compute(&job).expect("dispatch");
    let u0 = spec.resources.iter().find(|r| r.is_checked()).expect("u0");
    let (b, idx) = bind::find_binding(&compiled.bindings, u0).expect("u0 binding");
    let bytes = out.iter().find(|o| (o.0, o.1, o.2) == (b.set, b.binding, idx)).map(|o| o.3.clone())?;
    Some(bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

#[test]
fn min_precision_both_ways() {
    let cfg = RunConfig::default();
    let open = || VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok());
    let (plain, native) = match (open(), open()) {
        (Ok(a), Ok(b)) => (a, Native16(b)),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("SKIPPED min_precision_both_ways: no Vulkan device ({e})");
            return;
        }
    };
    let caps = native.caps();
    let has16 = caps.features.contains("float16") && caps.features.contains("int16");
    let mut table = Vec::new();
    for spec in specs() {
        let r = runner::run_spec(&plain, &spec, &cfg);
        if r.status == runner::Status::Skipped {
            eprintln!("SKIPPED min_precision_both_ways ({}): {}", spec.name, r.detail);
            return;
        }
        assert!(r.status.is_pass(), "{} at 32 bits: {:?} {}", spec.name, r.status, r.detail);
        table.push(format!("{}: 32-bit pass", spec.name));
        if has16 {
            let r = runner::run_spec(&native, &spec, &cfg);
            assert!(r.status.is_pass(), "{} with native 16-bit types: {:?} {}", spec.name, r.status, r.detail);
            table.push(format!("{}: native 16-bit pass", spec.name));
        }
    }
    // The effect: exact floats at 32 bits, half-rounded ones with 16-bit types.
    let wide = texture_phi(&plain, &cfg).expect("texture phi at 32 bits");
    let rounded_somewhere = |v: &[f32]| v.iter().any(|&x| to_half(x) != x);
    assert!(rounded_somewhere(&wide), "the texture values are all exact in half: no effect to see");
    if has16 {
        let narrow = texture_phi(&native, &cfg).expect("texture phi with 16-bit types");
        assert_eq!(narrow.len(), wide.len());
        for (k, (&n, &w)) in narrow.iter().zip(&wide).enumerate() {
            assert_eq!(n, to_half(w), "element {k}: {n} is not {w} rounded to half");
        }
        table.push(format!("texture phi: {} floats exact at 32 bits, rounded to half natively", wide.len()));
    } else {
        eprintln!("SKIPPED min_precision_both_ways (native 16-bit run): device lacks float16/int16");
    }
    println!("device: {}", plain.device_name());
    for t in &table {
        println!("  {t}");
    }
}

#[test]
fn to_half_rounds_to_nearest_even() {
    assert_eq!(to_half(1.0), 1.0);
    assert_eq!(to_half(0.1), 0.099975586);
    assert_eq!(to_half(1.0 + 1.0 / 2048.0), 1.0); // a tie: to even
    assert_eq!(to_half(1.0 + 3.0 / 2048.0), 1.0 + 2.0 / 1024.0);
    assert_eq!(to_half(65520.0), f32::INFINITY);
    assert_eq!(to_half(-2.0f32.powi(-25)), -0.0);
}
