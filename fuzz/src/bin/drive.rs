//! The campaign driver for the stable toolchain (no libFuzzer): mutates seed
//! containers with the record-level mutator and judges each mutant with the
//! validity oracle, for a given time, on one thread.
//!
//! ```sh
//! cargo run --release --manifest-path fuzz/Cargo.toml --no-default-features --bin drive -- \
//!     SEED_DIR SECONDS OUT_DIR [RNG_SEED]
//! ```
//!
//! Findings (panics, `Internal` errors, invalid SPIR-V) are written to
//! `OUT_DIR/<kind>-<n>.dxil` with the message beside them (`.txt`); a compile
//! that runs over 10 s leaves `OUT_DIR/hang-current.dxil` and aborts. A line of
//! counts is printed every minute and at the end.

use dxjit_fuzz::oracle::{judge, Verdict};
use dxjit_fuzz::Rng;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn seeds(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            seeds(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxil") {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: drive SEED_DIR SECONDS OUT_DIR [RNG_SEED]");
        std::process::exit(2);
    }
    let mut paths = Vec::new();
    seeds(Path::new(&args[1]), &mut paths);
    paths.sort();
    let secs: u64 = args[2].parse().expect("SECONDS");
    let out = PathBuf::from(&args[3]);
    std::fs::create_dir_all(&out).expect("OUT_DIR");
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let blobs: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    assert!(!blobs.is_empty(), "no .dxil seeds under {}", args[1]);
    std::panic::set_hook(Box::new(|_| {}));

    // Watchdog: a compile that has not finished 10 s after it started is a hang.
    let started = Arc::new(AtomicU64::new(0));
    let t0 = Instant::now();
    {
        let started = started.clone();
        let out = out.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let s = started.load(Ordering::SeqCst);
            if s != 0 && t0.elapsed().as_millis() as u64 > s + 10_000 {
                let _ = std::fs::copy(out.join("current.dxil"), out.join("hang-current.dxil"));
                eprintln!("HANG: a compile ran over 10 s; input in {}", out.join("hang-current.dxil").display());
                std::process::abort();
            }
        });
    }

    let mut rng = Rng::new(seed);
    let (mut runs, mut valid, mut rejected, mut unchanged, mut findings) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut last_report = Instant::now();
    let mut reasons: std::collections::BTreeMap<String, u64> = Default::default();
    let deadline = Duration::from_secs(secs);
    while t0.elapsed() < deadline {
        let seed_blob = &blobs[rng.below(blobs.len())];
        let Some(mutant) = dxjit_fuzz::mutate::mutate_container(seed_blob, &mut rng) else {
            unchanged += 1;
            continue;
        };
        let _ = std::fs::write(out.join("current.dxil"), &mutant);
        started.store(t0.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
        let v = std::panic::catch_unwind(|| judge(&mutant)).unwrap_or_else(|p| {
            Verdict::Internal(format!(
                "panic: {:?}",
                p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            ))
        });
        started.store(0, Ordering::SeqCst);
        runs += 1;
        match &v {
            Verdict::Valid => valid += 1,
            Verdict::Rejected(msg) => {
                rejected += 1;
                *reasons.entry(reason(msg)).or_insert(0u64) += 1;
            }
            Verdict::Internal(msg) | Verdict::Invalid(msg) => {
                findings += 1;
                let kind = if matches!(v, Verdict::Invalid(_)) { "invalid" } else { "internal" };
                let name = format!("{kind}-{findings}");
                let _ = std::fs::write(out.join(format!("{name}.dxil")), &mutant);
                let _ = std::fs::write(out.join(format!("{name}.txt")), msg);
                eprintln!("FINDING {name}: {}", msg.lines().next().unwrap_or(""));
            }
        }
        if last_report.elapsed() > Duration::from_secs(60) {
            last_report = Instant::now();
            println!(
                "{:>6}s runs {runs} valid {valid} rejected {rejected} findings {findings} unparsed-seeds {unchanged}",
                t0.elapsed().as_secs()
            );
        }
    }
    println!(
        "done: {}s, {} seeds, runs {runs}, valid SPIR-V {valid}, rejected {rejected}, findings {findings} (0 hangs: none aborted)",
        t0.elapsed().as_secs(),
        blobs.len()
    );
    let mut top: Vec<_> = reasons.into_iter().collect();
    top.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (r, n) in top.iter().take(25) {
        println!("  rejected x{n}: {r}");
    }
    let _ = std::fs::remove_file(out.join("current.dxil"));
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
