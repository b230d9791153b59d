//! Triage of a finding: names the seed a mutant came from and the records the
//! mutation changed, so the finding can be rebuilt as an IR edit.
//!
//! ```sh
//! cargo run --release --manifest-path fuzz/Cargo.toml --no-default-features --bin triage -- \
//!     MUTANT.dxil SEED_DIR
//! ```
//!
//! A mutant keeps every container part but the DXIL program (the container
//! digest included), so its seed is the one with the same digest and parts.

use dxjit_fuzz::tree::{parse, Item};
use std::path::{Path, PathBuf};

/// Flattens a tree into (block path, record index in its block, code, ops).
fn flatten(items: &[Item], path: &str, out: &mut Vec<(String, usize, u32, Vec<u64>)>) {
    let mut k = 0;
    for it in items {
        match it {
            Item::Block { id, items } => flatten(items, &format!("{path}/{id}"), out),
            Item::Record { code, ops } => {
                out.push((path.to_string(), k, *code, ops.clone()));
                k += 1;
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: triage MUTANT.dxil SEED_DIR");
        std::process::exit(2);
    }
    let mutant = std::fs::read(&args[1]).expect("mutant");
    let paths = dxjit_fuzz::seed_paths(Path::new(&args[2]));
    let tree = |c: &[u8]| dxjit_fuzz::container::bitcode(c).and_then(|(_, bc)| parse(bc));
    let Some(b) = tree(&mutant) else {
        eprintln!("the mutant's bitcode is not parsed");
        std::process::exit(1);
    };
    let mut fb = Vec::new();
    flatten(&b, "", &mut fb);
    // Candidates: the same container digest (bytes 4..20; DXC-less builds may all share one);
    // the seed is the candidate whose records differ least from the mutant's.
    let mut best: Option<(usize, &PathBuf, Vec<Item>)> = None;
    for p in &paths {
        let Ok(c) = std::fs::read(p) else { continue };
        if c.get(4..20) != mutant.get(4..20) {
            continue;
        }
        let Some(a) = tree(&c) else { continue };
        let mut fa = Vec::new();
        flatten(&a, "", &mut fa);
        let same = fa.iter().zip(fb.iter()).filter(|(x, y)| x == y).count();
        let diff = fa.len().max(fb.len()) - same;
        if best.as_ref().is_none_or(|(d, _, _)| diff < *d) {
            best = Some((diff, p, a));
        }
    }
    let Some((_, seed_path, a)) = best else {
        eprintln!("no seed with the mutant's container digest under {}", args[2]);
        std::process::exit(1);
    };
    println!("seed: {}", seed_path.display());
    let mut fa = Vec::new();
    flatten(&a, "", &mut fa);
    // Records of each block, compared in order (a deleted or inserted record shifts the rest:
    // only the first difference per block and the count are shown).
    let blocks: std::collections::BTreeSet<&String> = fa.iter().chain(fb.iter()).map(|r| &r.0).collect();
    for blk in blocks {
        let ra: Vec<_> = fa.iter().filter(|r| &r.0 == blk).collect();
        let rb: Vec<_> = fb.iter().filter(|r| &r.0 == blk).collect();
        if ra.len() != rb.len() {
            println!("block {blk}: {} records in the seed, {} in the mutant", ra.len(), rb.len());
        }
        let mut shown = 0;
        for (x, y) in ra.iter().zip(rb.iter()) {
            if (x.2, &x.3) != (y.2, &y.3) {
                println!("block {blk} record #{}: code {} {:?}\n    -> code {} {:?}", x.1, x.2, x.3, y.2, y.3);
                shown += 1;
                if shown == 3 {
                    break;
                }
            }
        }
    }
}
