//! Per-phase compile-time benchmarks on a fixed set of corpus shaders, so a
//! regression shows which phase moved: container, read_module, dxil::decode,
//! entry metadata, structurize, lowering, assembly, the whole compile
//! (container to SPIR-V words), and for a vertex + pixel pipeline the linker
//! and the whole pipeline compile.
//!
//! Lowering and assembly only exist inside a compile: their benches time that
//! phase alone out of [`dxjit::compile_with_stats`]'s per-phase clock
//! (`iter_custom`), so they move only when that phase does.
//!
//! `cargo bench -p dxjit-conformance --bench phases`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dxjit::container::Container;
use dxjit::{CompileOptions, Phase, PhaseTimes};
use dxjit_conformance::corpus::Corpus;
use std::hint::black_box;

/// The fixed set: the smallest, median and largest (by bitcode size) compute
/// shaders of the vkd3d-proton set that compile today, and the median pixel
/// and vertex shaders.
fn samples() -> Vec<(String, Vec<u8>)> {
    let mut v = stage_samples("compute", &[0, 1, 2]);
    v.extend(stage_samples("pixel", &[1]));
    v.extend(stage_samples("vertex", &[1]));
    v
}

/// Shaders of `stage` picked by `which` from (smallest, median, largest).
fn stage_samples(stage: &str, which: &[usize]) -> Vec<(String, Vec<u8>)> {
    let Some(corpus) = Corpus::for_test("bench phases") else { return Vec::new() };
    let opts = CompileOptions::default();
    let mut all: Vec<(String, Vec<u8>, usize)> = corpus
        .entries()
        .filter(|(s, e)| s.name == "vkd3d-proton" && e.stage == stage)
        .filter_map(|(s, e)| {
            let bytes = std::fs::read(s.path_of(e)).ok()?;
            dxjit::compile(&bytes, &opts).ok()?;
            let size = Container::parse(&bytes).ok()?.dxil_program().ok()?.bitcode.len();
            Some((e.name.clone(), bytes, size))
        })
        .collect();
    all.sort_by(|a, b| (a.2, &a.0).cmp(&(b.2, &b.0)));
    if all.is_empty() {
        return Vec::new();
    }
    let pick = [0, all.len() / 2, all.len() - 1];
    which
        .iter()
        .map(|&w| pick[w])
        .map(|i| (format!("{stage} {} ({} B)", all[i].0, all[i].2), all[i].1.clone()))
        .collect()
}

fn bench(c: &mut Criterion) {
    let opts = CompileOptions::default();
    for (label, bytes) in samples() {
        let container = Container::parse(&bytes).unwrap();
        let bitcode = container.dxil_program().unwrap().bitcode;
        let module = dxjit::bitcode::read_module(bitcode).unwrap();
        let meta = dxjit::lower::meta::read(&module, None).unwrap();
        let func = &module.functions[meta.func.index()];

        let mut g = c.benchmark_group("phase");
        g.bench_with_input(BenchmarkId::new("container", &label), &bytes, |b, bytes| {
            b.iter(|| black_box(Container::parse(black_box(bytes)).unwrap().dxil_program().unwrap().bitcode.len()))
        });
        g.bench_with_input(BenchmarkId::new("read_module", &label), &bitcode, |b, bc| {
            b.iter(|| dxjit::bitcode::read_module(black_box(bc)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("dxil_decode", &label), &module, |b, m| {
            b.iter(|| dxjit::dxil::decode(black_box(m)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("entry_metadata", &label), &module, |b, m| {
            b.iter(|| dxjit::lower::meta::read(black_box(m), None).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("structurize", &label), &module, |b, m| {
            b.iter(|| dxjit::structurize::structurize(black_box(m), func).unwrap())
        });
        for phase in [Phase::Lowering, Phase::Assembly] {
            g.bench_with_input(BenchmarkId::new(phase.name(), &label), &bytes, |b, bytes| {
                b.iter_custom(|iters| {
                    let mut times = PhaseTimes::default();
                    for _ in 0..iters {
                        black_box(dxjit::compile_with_stats(black_box(bytes), &opts, &mut times).unwrap());
                    }
                    times.get(phase)
                })
            });
        }
        g.bench_with_input(BenchmarkId::new("compile_module", &label), &module, |b, m| {
            b.iter(|| dxjit::compile::compile_module(black_box(m), &opts).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("compile", &label), &bytes, |b, bytes| {
            b.iter(|| dxjit::compile(black_box(bytes), &opts).unwrap())
        });
        g.finish();
    }
}

/// A vertex + pixel pipeline from the project's linkage fixtures (stages relocated by the linker).
fn bench_pipeline(c: &mut Criterion) {
    let dir = dxjit_conformance::corpus::fixtures_root().join("linkage");
    let stages: Vec<Vec<u8>> = ["six.vs_6_0.dxil", "six_all.ps_6_0.dxil"]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).expect("fixture"))
        .collect();
    let ios: Vec<dxjit::link::StageIo> = stages
        .iter()
        .map(|b| {
            let c = Container::parse(b).unwrap();
            let m = dxjit::bitcode::read_module(c.dxil_program().unwrap().bitcode).unwrap();
            dxjit::link::StageIo::from_module(&dxjit::dxil::decode(&m).unwrap(), &m).unwrap()
        })
        .collect();
    let link_opts = dxjit::link::LinkOptions::default();
    let opts = CompileOptions::default();
    let refs: Vec<&[u8]> = stages.iter().map(Vec::as_slice).collect();
    let mut g = c.benchmark_group("pipeline");
    g.bench_function("link six vs + six_all ps", |b| {
        b.iter(|| dxjit::link::link(black_box(&ios), &link_opts).unwrap())
    });
    g.bench_function("compile_pipeline six vs + six_all ps", |b| {
        b.iter(|| dxjit::compile_pipeline(black_box(&refs), &link_opts, &opts).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench, bench_pipeline);
criterion_main!(benches);
