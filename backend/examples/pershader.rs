//! Compiles each DXIL container `ITERS` times (default 1), calling
//! `shader_boundary` before each shader: under
//! `valgrind --tool=callgrind --dump-before=shader_boundary` every shader's
//! compile lands in a dump of its own, so per-shader instruction counts (and
//! their median, the figure `dxjit bench` times) are deterministic.
//!
//! With `WARMUP=1`, every container is compiled once first and
//! `warm_done` called after that: `--dump-before=warm_done` then leaves the
//! one-time costs (tables built on first use) in the first dump and the
//! steady-state compiles in the last, for a profile of them.
//!
//! `pershader FILE.dxil...`
use dxjit::compile::{compile, CompileOptions};

#[inline(never)]
#[no_mangle]
pub extern "C" fn shader_boundary(i: usize) -> usize {
    std::hint::black_box(i)
}

#[inline(never)]
#[no_mangle]
pub extern "C" fn warm_done() {
    std::hint::black_box(());
}

fn main() {
    let iters: usize = std::env::var("ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let blobs: Vec<Vec<u8>> = std::env::args().skip(1).filter_map(|p| std::fs::read(p).ok()).collect();
    let opts = CompileOptions::default();
    let mut ok = 0usize;
    if std::env::var_os("WARMUP").is_some() {
        for b in &blobs {
            std::hint::black_box(compile(b, &opts).is_ok());
        }
        warm_done();
    }
    for (i, b) in blobs.iter().enumerate() {
        shader_boundary(i);
        for _ in 0..iters {
            ok += usize::from(compile(b, &opts).is_ok());
        }
    }
    shader_boundary(blobs.len());
    println!("{} compiles ({ok} ok)", blobs.len() * iters);
}
