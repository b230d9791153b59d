//! Fuzzing support shared by the libFuzzer `compile` target and the stable
//! driver (`drive`):
//!
//! - [`tree`]: the LLVM bitstream of a DXIL program as a tree of blocks and
//!   records, written back with every record unabbreviated, so any change to
//!   a record's code or operands still gives a well-formed bitstream;
//! - [`container`]: cutting the bitcode out of a DXBC container and putting a
//!   new one back;
//! - [`mutate`]: record-level mutations (operands, constants, types,
//!   metadata nodes, record order) that get past the bitstream reader,
//!   where byte flips rarely do;
//! - [`oracle`]: the whole compile, judged: SPIR-V must pass `spirv-val`
//!   (`DXJIT_SPIRV_VAL`, else `spirv-val` on `PATH`), errors must be
//!   `Malformed` or `Unsupported`, never `Internal`.

pub mod container;
pub mod mutate;
pub mod oracle;
pub mod tree;

/// A small deterministic PRNG (xorshift64*), so runs replay from their seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }
}

/// The `.dxil` files under `dir` (searched recursively), sorted: the seeds of a campaign.
pub fn seed_paths(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "dxil") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}
