//! What the C entry point adds to a compile: `dxjit::compile` against `dxjit_compile` (+ the
//! shader's free) over every corpus shader that compiles, in one sitting, interleaved.
//!
//! `cargo bench -p dxjit-capi --bench c_path` (corpus from `../shared/corpus` or `DXJIT_CORPUS`;
//! `DXJIT_BENCH_ROUNDS` rounds, default 21). Prints the median over shaders of each path's
//! per-shader median, the total of the per-shader medians, and the ratio C / Rust.

use std::hint::black_box;
use std::time::Instant;

use dxjit_capi::native::{dxjit_compile, dxjit_shader_free, DxjitResult};
use dxjit_conformance::corpus::Corpus;

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

fn main() {
    let Some(corpus) = Corpus::open() else {
        eprintln!("SKIPPED c_path: corpus not found (set DXJIT_CORPUS)");
        return;
    };
    let rounds: usize = std::env::var("DXJIT_BENCH_ROUNDS").ok().and_then(|s| s.parse().ok()).unwrap_or(21);
    let opts = dxjit::CompileOptions::default();
    let shaders: Vec<Vec<u8>> = corpus
        .entries()
        .filter_map(|(set, e)| std::fs::read(set.path_of(e)).ok())
        .filter(|b| dxjit::compile(b, &opts).is_ok())
        .collect();
    let c_once = |b: &[u8]| {
        let mut s = std::ptr::null_mut();
        // SAFETY: valid pointers; the shader is freed right after.
        let r = unsafe { dxjit_compile(b.as_ptr(), b.len(), std::ptr::null(), &mut s) };
        assert_eq!(r, DxjitResult::DXJIT_OK);
        // SAFETY: a live shader, freed once.
        unsafe { dxjit_shader_free(black_box(s)) };
    };
    let rust_once = |b: &[u8]| drop(black_box(dxjit::compile(b, &opts).expect("compiles")));
    for b in &shaders {
        rust_once(b);
        c_once(b);
    }
    let mut rust = vec![Vec::with_capacity(rounds); shaders.len()];
    let mut c = vec![Vec::with_capacity(rounds); shaders.len()];
    for round in 0..rounds {
        for (i, b) in shaders.iter().enumerate() {
            // Alternate which path goes first, so warm caches favour neither.
            for k in 0..2 {
                let t = Instant::now();
                if (k + round) % 2 == 0 {
                    rust_once(b);
                    rust[i].push(t.elapsed().as_nanos() as u64);
                } else {
                    c_once(b);
                    c[i].push(t.elapsed().as_nanos() as u64);
                }
            }
        }
    }
    let mut rm: Vec<u64> = rust.iter_mut().map(|v| median(v)).collect();
    let mut cm: Vec<u64> = c.iter_mut().map(|v| median(v)).collect();
    let (rt, ct): (u64, u64) = (rm.iter().sum(), cm.iter().sum());
    let (rmed, cmed) = (median(&mut rm), median(&mut cm));
    println!("c_path: {} shaders, {rounds} rounds each, interleaved", shaders.len());
    println!(
        "  median compile   dxjit::compile {:.2} us   dxjit_compile (C) {:.2} us   C/Rust {:.4}",
        rmed as f64 / 1e3,
        cmed as f64 / 1e3,
        cmed as f64 / rmed as f64
    );
    println!(
        "  sum of medians   dxjit::compile {:.3} ms   dxjit_compile (C) {:.3} ms   C/Rust {:.4}",
        rt as f64 / 1e6,
        ct as f64 / 1e6,
        ct as f64 / rt as f64
    );
}
