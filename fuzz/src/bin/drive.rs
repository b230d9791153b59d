//! The campaign driver for the stable toolchain (no libFuzzer): mutates seed
//! containers with the record-level mutator and judges each mutant with the
//! validity oracle, for a given time, on one thread.
//!
//! ```sh
//! cargo run --release --manifest-path fuzz/Cargo.toml --no-default-features --bin drive -- \
//!     SEED_DIR SECONDS OUT_DIR [RNG_SEED]
//! ```
//!
//! Findings — panics (`crash`), `Internal` errors, invalid SPIR-V — are
//! written to `OUT_DIR/<kind>-<n>.dxil` with the message, the seed and the
//! mutations beside them (`.txt`). A compile that runs over 10 s is a hang:
//! its input is kept as `OUT_DIR/hang-current.dxil`, the counts are printed
//! and the driver aborts. A line of counts is printed every minute; the last
//! line (`done: ...`) has the counts a campaign reports.

use dxjit_fuzz::oracle::{judge, Stage, Verdict};
use dxjit_fuzz::Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The campaign's counts, shared with the watchdog (which prints them on a hang).
#[derive(Default)]
struct Counts {
    mutants: AtomicU64,
    compiled: AtomicU64,
    malformed: AtomicU64,
    unsupported: AtomicU64,
    crashes: AtomicU64,
    hangs: AtomicU64,
    invalid: AtomicU64,
    internal: AtomicU64,
    /// Mutants the reader rejected, and those that got past the verifier (to lowering).
    reader: AtomicU64,
    past_verifier: AtomicU64,
}

impl Counts {
    fn line(&self, secs: u64, rng_seed: u64) -> String {
        let g = |a: &AtomicU64| a.load(SeqCst);
        let n = g(&self.mutants).max(1);
        format!(
            "{secs}s rng-seed {rng_seed}: mutants {} compiled {} malformed {} unsupported {} crashes {} hangs {} invalid {} internal {} (reader-rejected {}, past the verifier {} = {:.1}%)",
            g(&self.mutants),
            g(&self.compiled),
            g(&self.malformed),
            g(&self.unsupported),
            g(&self.crashes),
            g(&self.hangs),
            g(&self.invalid),
            g(&self.internal),
            g(&self.reader),
            g(&self.past_verifier),
            100.0 * g(&self.past_verifier) as f64 / n as f64,
        )
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: drive SEED_DIR SECONDS OUT_DIR [RNG_SEED]");
        std::process::exit(2);
    }
    let paths = dxjit_fuzz::seed_paths(Path::new(&args[1]));
    let secs: u64 = args[2].parse().expect("SECONDS");
    let out = PathBuf::from(&args[3]);
    std::fs::create_dir_all(&out).expect("OUT_DIR");
    let rng_seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let blobs: Vec<(PathBuf, Vec<u8>)> =
        paths.into_iter().filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b))).collect();
    assert!(!blobs.is_empty(), "no .dxil seeds under {}", args[1]);
    std::panic::set_hook(Box::new(|_| {}));
    println!("{} seeds from {}, {secs} s, rng seed {rng_seed}, findings in {}", blobs.len(), args[1], out.display());

    let counts = Arc::new(Counts::default());
    // Watchdog: a compile that has not finished 10 s after it started is a hang.
    let started = Arc::new(AtomicU64::new(0));
    let t0 = Instant::now();
    {
        let (started, out, counts) = (started.clone(), out.clone(), counts.clone());
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let s = started.load(SeqCst);
            if s != 0 && t0.elapsed().as_millis() as u64 > s + 10_000 {
                let _ = std::fs::copy(out.join("current.dxil"), out.join("hang-current.dxil"));
                let _ = std::fs::copy(out.join("current.txt"), out.join("hang-current.txt"));
                eprintln!("HANG: a compile ran over 10 s; input in {}", out.join("hang-current.dxil").display());
                counts.hangs.fetch_add(1, SeqCst);
                println!("done (aborted): {}", counts.line(t0.elapsed().as_secs(), rng_seed));
                std::process::abort();
            }
        });
    }

    let mut rng = Rng::new(rng_seed);
    let mut last_report = Instant::now();
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    // Per mutation kind: (mutants with it, of them past the verifier).
    let mut by_kind: BTreeMap<&'static str, (u64, u64)> = BTreeMap::new();
    let mut findings = 0u64;
    let deadline = Duration::from_secs(secs);
    while t0.elapsed() < deadline {
        let (seed_path, seed_blob) = &blobs[rng.below(blobs.len())];
        let Some((mutant, log)) = dxjit_fuzz::mutate::mutate_container_logged(seed_blob, &mut rng) else { continue };
        let origin = format!(
            "seed: {}\nmutations:\n{}",
            seed_path.display(),
            log.iter().map(|m| format!("  {}: {}\n", m.kind, m.detail)).collect::<String>()
        );
        let _ = std::fs::write(out.join("current.dxil"), &mutant);
        let _ = std::fs::write(out.join("current.txt"), &origin);
        started.store(t0.elapsed().as_millis() as u64 + 1, SeqCst);
        let caught = std::panic::catch_unwind(|| judge(&mutant));
        started.store(0, SeqCst);
        counts.mutants.fetch_add(1, SeqCst);
        let (kind, msg) = match &caught {
            Err(p) => {
                counts.crashes.fetch_add(1, SeqCst);
                let text =
                    p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                ("crash", Some(format!("panic: {}", text.unwrap_or_default())))
            }
            Ok(v) => {
                match v.stage() {
                    Stage::Reader => counts.reader.fetch_add(1, SeqCst),
                    Stage::Verifier => 0,
                    Stage::PastVerifier => counts.past_verifier.fetch_add(1, SeqCst),
                };
                let past = v.stage() == Stage::PastVerifier;
                for m in &log {
                    let e = by_kind.entry(m.kind).or_default();
                    e.0 += 1;
                    e.1 += u64::from(past);
                }
                match v {
                    Verdict::Valid => {
                        counts.compiled.fetch_add(1, SeqCst);
                        ("", None)
                    }
                    Verdict::Malformed(m) | Verdict::Unsupported(m) => {
                        let c =
                            if matches!(v, Verdict::Malformed(_)) { &counts.malformed } else { &counts.unsupported };
                        c.fetch_add(1, SeqCst);
                        *reasons.entry(reason(m)).or_insert(0) += 1;
                        ("", None)
                    }
                    Verdict::Invalid(m) => {
                        counts.invalid.fetch_add(1, SeqCst);
                        ("invalid", Some(m.clone()))
                    }
                    Verdict::Internal(m) => {
                        counts.internal.fetch_add(1, SeqCst);
                        ("internal", Some(m.clone()))
                    }
                }
            }
        };
        if let Some(msg) = msg {
            findings += 1;
            let name = format!("{kind}-{findings}");
            let _ = std::fs::write(out.join(format!("{name}.dxil")), &mutant);
            let _ = std::fs::write(out.join(format!("{name}.txt")), format!("{msg}\n{origin}"));
            eprintln!("FINDING {name}: {}", msg.lines().next().unwrap_or(""));
        }
        if last_report.elapsed() > Duration::from_secs(60) {
            last_report = Instant::now();
            println!("{}", counts.line(t0.elapsed().as_secs(), rng_seed));
        }
    }
    let _ = std::fs::remove_file(out.join("current.dxil"));
    let _ = std::fs::remove_file(out.join("current.txt"));
    let mut top: Vec<_> = reasons.into_iter().collect();
    top.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (r, n) in top.iter().take(25) {
        println!("  rejected x{n}: {r}");
    }
    for (k, (n, past)) in &by_kind {
        println!(
            "  mutation {k}: {n} mutants, {past} past the verifier ({:.1}%)",
            100.0 * *past as f64 / (*n).max(1) as f64
        );
    }
    println!("done: {}", counts.line(t0.elapsed().as_secs(), rng_seed));
    if findings > 0 {
        std::process::exit(1);
    }
}

/// A rejection's kind: the verifier rule, or the message up to its first detail.
fn reason(msg: &str) -> String {
    if let Some(i) = msg.find("rule `") {
        let rest = &msg[i + 6..];
        return format!("verify {}", &rest[..rest.find('`').unwrap_or(rest.len())]);
    }
    if msg.starts_with("unsupported") {
        return msg.chars().take(60).collect();
    }
    msg.split(|c: char| c.is_ascii_digit() || c == '%' || c == '@').next().unwrap_or(msg).chars().take(70).collect()
}
