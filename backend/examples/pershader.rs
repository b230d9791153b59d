//! Compiles each DXIL container `ITERS` times (default 1), calling
//! `shader_boundary` before each shader: under
//! `valgrind --tool=callgrind --dump-before=shader_boundary` every shader's
//! compile lands in a dump of its own, so per-shader instruction counts (and
//! their median, the figure `dxjit bench` times) are deterministic.
//!
//! `pershader FILE.dxil...`
use dxjit::compile::{compile, CompileOptions};

#[inline(never)]
#[no_mangle]
pub extern "C" fn shader_boundary(i: usize) -> usize {
    std::hint::black_box(i)
}

fn main() {
    let iters: usize = std::env::var("ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let blobs: Vec<Vec<u8>> = std::env::args().skip(1).filter_map(|p| std::fs::read(p).ok()).collect();
    let opts = CompileOptions::default();
    let mut ok = 0usize;
    for (i, b) in blobs.iter().enumerate() {
        shader_boundary(i);
        for _ in 0..iters {
            ok += usize::from(compile(b, &opts).is_ok());
        }
    }
    shader_boundary(blobs.len());
    println!("{} compiles ({ok} ok)", blobs.len() * iters);
}
