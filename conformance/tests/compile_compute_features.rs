//! What the compiled SPIR-V of particular corpus compute shaders declares for the features they
//! use: descriptor heaps (runtime arrays at the heap layout of docs/binding-model.md, non-uniform
//! indexing), 64-bit atomics on buffers and images, compute derivatives per numthreads. Every
//! module must also pass spirv-val. SKIPs without the corpus.

use dxjit::{compile, CompileOptions, CompiledShader, DescriptorKind, HeapBinding};
use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::spirv_val;

fn build(corpus: &Corpus, rel: &str) -> CompiledShader {
    let path = corpus.root.join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cs = compile(&bytes, &CompileOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"));
    spirv_val::validate(&cs.spirv).unwrap_or_else(|e| panic!("{rel}: spirv-val: {e}"));
    cs
}

fn has(cs: &CompiledShader, cap: &str) -> bool {
    cs.capabilities.iter().any(|c| c == cap)
}

fn heap(set: u32, binding: u32, descriptor: DescriptorKind) -> HeapBinding {
    HeapBinding { sampler_heap: descriptor == DescriptorKind::Sampler, set, binding, descriptor }
}

#[test]
fn descriptor_heaps_and_64bit_image_atomics() {
    let Some(c) = Corpus::for_test("compile_compute_features") else { return };
    let cs = build(&c, "dxil-spirv/resources/sm66/atomics-typed-64bit-heap.sm66.comp.dxil");
    assert_eq!(
        cs.heap_bindings,
        vec![heap(6, 3, DescriptorKind::StorageTexelBuffer), heap(6, 5, DescriptorKind::StorageImage)],
        "RWBuffer<uint64_t> / RWTexture2D<uint64_t> from ResourceDescriptorHeap"
    );
    assert!(cs.bindings.is_empty(), "{:?}", cs.bindings);
    for cap in ["RuntimeDescriptorArray", "Int64ImageEXT", "Int64Atomics"] {
        assert!(has(&cs, cap), "missing {cap}: {:?}", cs.capabilities);
    }
}

#[test]
fn nonuniform_heap_indices() {
    let Some(c) = Corpus::for_test("compile_compute_features") else { return };
    let cs = build(&c, "vkd3d-proton/bindless/bindless_heap_sm66.dxil");
    assert!(!cs.heap_bindings.is_empty());
    assert!(has(&cs, "ShaderNonUniform"), "{:?}", cs.capabilities);
    assert!(cs.capabilities.iter().any(|c| c.ends_with("ArrayNonUniformIndexing")), "{:?}", cs.capabilities);
}

#[test]
fn structured_64bit_atomics_use_a_ulong_view() {
    let Some(c) = Corpus::for_test("compile_compute_features") else { return };
    let cs = build(&c, "vkd3d-proton/sm_advanced/cs_64bit_atomics.dxil");
    assert!(has(&cs, "Int64Atomics"), "{:?}", cs.capabilities);
    assert!(cs.heap_bindings.is_empty());
}

#[test]
fn compute_derivatives_follow_numthreads() {
    let Some(c) = Corpus::for_test("compile_compute_features") else { return };
    // numthreads(64, 1, 1): D3D's 1D quads → linear groups of four.
    let cs = build(&c, "vkd3d-proton/sm_advanced/cs_derivative_1d.dxil");
    assert!(has(&cs, "ComputeDerivativeGroupLinearKHR"), "{:?}", cs.capabilities);
    assert!(has(&cs, "DerivativeControl"), "{:?}", cs.capabilities);
    // X and Y even: 2x2 quads in thread-ID space.
    let cs = build(&c, "vkd3d-proton/sm_advanced/cs_derivative_2d_aligned.dxil");
    assert!(has(&cs, "ComputeDerivativeGroupQuadsKHR"), "{:?}", cs.capabilities);
    // numthreads(8, 9, 1): Y odd, 72 threads → linear groups of four.
    let cs = build(&c, "vkd3d-proton/sm_advanced/cs_derivative_2d_unaligned.dxil");
    assert!(has(&cs, "ComputeDerivativeGroupLinearKHR"), "{:?}", cs.capabilities);
}
