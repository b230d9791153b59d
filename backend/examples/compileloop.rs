//! Runs the whole compile (container to SPIR-V words) over DXIL containers in
//! a loop, for profiling (e.g. under callgrind or perf). `ITERS` (default 3)
//! sets the passes.
//!
//! `compileloop FILE.dxil...`
use dxjit::compile::{compile, CompileOptions};

fn main() {
    let iters: usize = std::env::var("ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let blobs: Vec<Vec<u8>> = std::env::args().skip(1).filter_map(|p| std::fs::read(p).ok()).collect();
    let opts = CompileOptions::default();
    let (mut ok, mut words) = (0usize, 0usize);
    for _ in 0..iters {
        for b in &blobs {
            if let Ok(s) = compile(b, &opts) {
                ok += 1;
                words += s.spirv.len();
            }
        }
    }
    println!("{} compiles ({ok} ok), {words} SPIR-V words", blobs.len() * iters);
}
