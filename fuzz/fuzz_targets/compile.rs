//! Whole compile: container → bitcode → verifier → metadata → structurize →
//! lowering, with the validity oracle: any input must give SPIR-V that
//! spirv-val accepts or a `Malformed`/`Unsupported` error — a panic, a hang,
//! an `Internal` error or invalid SPIR-V is a finding. Mutation is at record
//! level (dxjit_fuzz::mutate), so mutants get past the bitstream reader.
#![no_main]
use libfuzzer_sys::{fuzz_mutator, fuzz_target};

fuzz_target!(|data: &[u8]| {
    let v = dxjit_fuzz::oracle::judge(data);
    assert!(!v.is_failure(), "{v:?}");
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = dxjit_fuzz::Rng::new(u64::from(seed));
    match dxjit_fuzz::mutate::mutate_container(&data[..size], &mut rng) {
        Some(m) if m.len() <= max_size => {
            data[..m.len()].copy_from_slice(&m);
            m.len()
        }
        _ => libfuzzer_sys::fuzzer_mutate(data, size, max_size),
    }
});
