//! Times `compile_pipeline_with_stats` per phase for the given stage files (in pipeline order).
fn main() {
    let blobs: Vec<Vec<u8>> = std::env::args().skip(1).map(|p| std::fs::read(p).expect("read")).collect();
    let refs: Vec<&[u8]> = blobs.iter().map(Vec::as_slice).collect();
    let (lo, co) = (dxjit::link::LinkOptions::default(), dxjit::CompileOptions::default());
    for _ in 0..5 {
        let mut t = dxjit::PhaseTimes::default();
        let r = dxjit::compile_pipeline_with_stats(&refs, &lo, &co, &mut t);
        let v: Vec<String> =
            dxjit::Phase::ALL.iter().map(|p| format!("{} {:.2}", p.name(), t.get(*p).as_secs_f64() * 1e6)).collect();
        println!("{} {}", r.is_ok(), v.join(", "));
    }
    for b in &refs {
        let t = std::time::Instant::now();
        let c = dxjit::container::Container::parse(b).unwrap();
        let n = c.dxil_program().unwrap().bitcode.len();
        println!("parse {:.2} µs ({n} B)", t.elapsed().as_secs_f64() * 1e6);
    }
}
