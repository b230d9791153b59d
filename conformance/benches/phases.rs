//! Per-phase compile-time benchmarks on a fixed set of corpus compute
//! shaders, so a regression shows which phase moved:
//! container, read_module, dxil::decode, entry metadata, structurize and the
//! whole compile (container to SPIR-V words; lowering + assembly are the
//! difference between it and the phases before).
//!
//! `cargo bench -p dxjit-conformance --bench phases`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dxjit::container::Container;
use dxjit::CompileOptions;
use dxjit_conformance::corpus::Corpus;
use std::hint::black_box;

/// The fixed set: the smallest, median and largest (by bitcode size) compute
/// shaders of the vkd3d-proton set that compile today.
fn samples() -> Vec<(String, Vec<u8>)> {
    let Some(corpus) = Corpus::for_test("bench phases") else { return Vec::new() };
    let opts = CompileOptions::default();
    let mut all: Vec<(String, Vec<u8>, usize)> = corpus
        .entries()
        .filter(|(s, e)| s.name == "vkd3d-proton" && e.stage == "compute")
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
    pick.iter().map(|&i| (format!("{} ({} B)", all[i].0, all[i].2), all[i].1.clone())).collect()
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
        g.bench_with_input(BenchmarkId::new("compile_module", &label), &module, |b, m| {
            b.iter(|| dxjit::compile::compile_module(black_box(m), &opts).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("compile", &label), &bytes, |b, bytes| {
            b.iter(|| dxjit::compile(black_box(bytes), &opts).unwrap())
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
