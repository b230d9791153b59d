//! Runs the bitcode reader over DXIL containers in a loop, for profiling the
//! reader alone (e.g. under callgrind). `ITERS` (default 3) sets the passes.
//!
//! `readloop FILE.dxil...`
use dxjit::bitcode::read_module;
use dxjit::container::Container;

fn main() {
    let iters: usize = std::env::var("ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let blobs: Vec<Vec<u8>> = std::env::args().skip(1).filter_map(|p| std::fs::read(p).ok()).collect();
    let mut bitcodes = Vec::new();
    for b in &blobs {
        let Ok(c) = Container::parse(b) else { continue };
        let Ok(p) = c.dxil_program() else { continue };
        bitcodes.push(p.bitcode);
    }
    let (mut ok, mut bytes, mut insts) = (0usize, 0usize, 0usize);
    for _ in 0..iters {
        for bc in &bitcodes {
            bytes += bc.len();
            if let Ok(m) = read_module(bc) {
                ok += 1;
                insts += m.functions.iter().map(|f| f.insts.len()).sum::<usize>();
            }
        }
    }
    println!("{} modules read ({ok} ok), {bytes} bytes, {insts} instructions", bitcodes.len() * iters);
}
