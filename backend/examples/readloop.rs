//! Profiling helper: reads the given DXIL containers in a loop.
//! `cargo run --release -p dxjit --example readloop -- FILES...`
fn main() {
    let files: Vec<Vec<u8>> = std::env::args().skip(1).map(|p| std::fs::read(p).expect("read")).collect();
    let bcs: Vec<&[u8]> = files
        .iter()
        .map(|b| dxjit::container::Container::parse(b).expect("container").dxil_program().expect("dxil").bitcode)
        .collect();
    let iters: usize = std::env::var("ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let t = std::time::Instant::now();
    for _ in 0..iters {
        for bc in &bcs {
            std::hint::black_box(dxjit::bitcode::read_module(bc).expect("read"));
        }
    }
    let per = t.elapsed().as_secs_f64() * 1e6 / (iters * bcs.len()) as f64;
    println!("{} modules, {per:.2} us per module", bcs.len());
}
