//! Writes record-level mutants of seed containers to a folder, to compare two
//! `dxjit` builds on them (`corpus_identical.sh BASE NEW OUT_DIR`): a change
//! that must not alter any result (the verifier's speed-ups) is checked on
//! rejected inputs too, messages included, not only on the corpus.
//!
//! ```sh
//! cargo run --release --manifest-path fuzz/Cargo.toml --no-default-features --bin mutants -- \
//!     SEED_DIR COUNT OUT_DIR [RNG_SEED]
//! ```
//!
//! The same seeds, count and RNG seed give the same files.

use dxjit_fuzz::Rng;
use std::path::{Path, PathBuf};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: mutants SEED_DIR COUNT OUT_DIR [RNG_SEED]");
        std::process::exit(2);
    }
    let paths = dxjit_fuzz::seed_paths(Path::new(&args[1]));
    let count: usize = args[2].parse().expect("COUNT");
    let out = PathBuf::from(&args[3]);
    std::fs::create_dir_all(&out).expect("OUT_DIR");
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let blobs: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    assert!(!blobs.is_empty(), "no .dxil seeds under {}", args[1]);
    let mut rng = Rng::new(seed);
    let (mut written, mut tries) = (0, 0);
    while written < count && tries < count * 20 {
        tries += 1;
        let seed_blob = &blobs[rng.below(blobs.len())];
        let Some(mutant) = dxjit_fuzz::mutate::mutate_container(seed_blob, &mut rng) else { continue };
        std::fs::write(out.join(format!("m{written:06}.dxil")), &mutant).expect("write");
        written += 1;
    }
    println!("{written} mutants in {}", out.display());
}
