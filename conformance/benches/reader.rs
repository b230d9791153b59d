//! Reading a module — dxjit's native reader (bitstream + IR build + dx.op
//! decoding) against LLVM 14's own bitcode parser on the same bytes.
//!
//! `cargo bench -p dxjit-conformance --bench reader`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dxjit::container::Container;
use dxjit_conformance::corpus::Corpus;
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::core::*;
use std::hint::black_box;

/// Small, median and largest bitcode of the vkd3d-proton set.
fn samples() -> Vec<(String, Vec<u8>)> {
    let Some(corpus) = Corpus::for_test("bench reader") else { return Vec::new() };
    let mut all: Vec<(String, Vec<u8>)> = corpus
        .entries()
        .filter(|(s, _)| s.name == "vkd3d-proton")
        .map(|(s, e)| {
            let bytes = std::fs::read(s.path_of(e)).unwrap();
            let bc = Container::parse(&bytes).unwrap().dxil_program().unwrap().bitcode.to_vec();
            (e.name.clone(), bc)
        })
        .collect();
    all.sort_by_key(|(_, b)| b.len());
    let pick = [0, all.len() / 2, all.len() - 1];
    pick.iter().map(|&i| all[i].clone()).collect()
}

/// LLVM 14 parse of the bitcode into a module (FFI).
fn llvm_parse(bc: &[u8]) {
    // SAFETY: FFI to LLVM's C API; the buffer is copied by LLVM, every object
    // created is disposed before returning.
    unsafe {
        let ctx = LLVMContextCreate();
        let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bc.as_ptr().cast(), bc.len(), c"bc".as_ptr());
        let mut module = std::ptr::null_mut();
        let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut module);
        assert_eq!(failed, 0);
        LLVMDisposeModule(module);
        LLVMDisposeMemoryBuffer(buf);
        LLVMContextDispose(ctx);
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("read_module");
    for (name, bc) in samples() {
        let label = format!("{name} ({} B)", bc.len());
        g.bench_with_input(BenchmarkId::new("dxjit", &label), &bc, |b, bc| {
            b.iter(|| dxjit::bitcode::read_module(black_box(bc)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("llvm14", &label), &bc, |b, bc| b.iter(|| llvm_parse(black_box(bc))));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
