//! Structurizer speed on large generated CFGs (run with
//! `cargo bench -p dxjit --features testkit --bench structurize`).

use criterion::{criterion_group, criterion_main, Criterion};
use dxjit::structurize::structurize;
use dxjit::structurize::testkit::{random_module, GenParams};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    for blocks in [1_000usize, 5_000] {
        let m = random_module(0xBE7C_0000 + blocks as u64, GenParams::large(blocks));
        let f = &m.functions[0];
        let sf = structurize(&m, f).expect("structurizes");
        let reachable = dxjit::analysis::Cfg::of_function(f).expect("cfg").rpo().len();
        eprintln!(
            "{blocks} blocks ({reachable} reachable): {} structurizer variables, {} demoted",
            sf.vars,
            sf.demote.len()
        );
        c.bench_function(&format!("structurize_{blocks}_blocks"), |b| {
            b.iter(|| structurize(black_box(&m), black_box(f)))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
