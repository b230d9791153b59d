//! `dxjit corpus [DIR]`: the main job over a corpus of DXIL containers.
//!
//! Every `.dxil` below DIR (default: the shared corpus) is compiled to
//! SPIR-V (`dxjit::compile`, default options; each export of a library on
//! its own) on a pool of worker threads, and every module is validated with
//! spirv-val when one is found (in batches, see [`dxjit_cli::batch_val`]). The
//! output is a per-stage table (compiled / unsupported / failed, median
//! compile time), the unsupported features by count, every failure, and the
//! closing `N passed, N failed, N skipped` line: passed = compiled (and
//! valid, when validated), skipped = unsupported (the feature is named),
//! failed = malformed, internal error, panic or invalid SPIR-V. The exit code
//! is 1 when anything failed.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use dxjit::{CompileError, CompileOptions, ShaderKind};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use dxjit_cli::batch_val;

#[derive(clap::Args)]
pub struct Args {
    /// Folder searched recursively for `.dxil` files, or one file (default: $DXJIT_CORPUS or ../shared/corpus).
    dir: Option<PathBuf>,
    /// Print every shader, not only failures.
    #[arg(long, short)]
    verbose: bool,
    /// Write a JSON report (totals, the stage table, one entry per shader).
    #[arg(long)]
    report: Option<PathBuf>,
    /// Worker threads for compiling and validating.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Also write every compiled module to DIR/<path below the corpus>.spv (`#export` appended for a
    /// library export), e.g. to compare two builds' output byte for byte with `diff -r`.
    #[arg(long = "spirv-dir")]
    spirv_dir: Option<PathBuf>,
    /// Do not run spirv-val even when it is found.
    #[arg(long = "no-validate")]
    no_validate: bool,
}

/// One unit of work: a container, or one export of a library.
struct Unit {
    file: PathBuf,
    /// How the unit is named in the output: the path below DIR, `#export` for a library export.
    name: String,
    /// `None`: the container's (first) entry point.
    entry: Option<String>,
}

/// What happened to one unit.
#[derive(Debug)]
enum Status {
    /// Compiled (and valid when validated); the module's words are kept until validation.
    Compiled {
        spirv: Vec<u32>,
    },
    Unsupported {
        feature: String,
        detail: String,
    },
    Failed {
        why: String,
    },
}

struct Outcome {
    stage: String,
    status: Status,
    compile_ns: Option<u64>,
}

#[derive(Default)]
struct StageRow {
    shaders: usize,
    compiled: usize,
    unsupported: usize,
    failed: usize,
    compile_ns: Vec<u64>,
}

fn stage_name(k: ShaderKind) -> String {
    k.name().to_string()
}

/// The stage and entry points of a container, when its metadata reads.
fn describe(bytes: &[u8]) -> Result<(ShaderKind, Vec<String>), String> {
    let c = dxjit::container::Container::parse(bytes).map_err(|e| format!("container: {e}"))?;
    let program = c.dxil_program().map_err(|e| format!("container: {e}"))?;
    let module = dxjit::bitcode::read_module(program.bitcode).map_err(|e| format!("bitcode: {e}"))?;
    let info = dxjit::dxil::decode(&module).map_err(|e| format!("malformed input: {e}"))?;
    let entries = info.functions().map(|e| e.name.clone()).collect();
    Ok((info.shader_model.kind, entries))
}

/// The units of the files: one per container, one per export of a library.
fn units(files: &[PathBuf], root: &Path) -> Vec<Unit> {
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let rel = f.strip_prefix(root).unwrap_or(f).display().to_string();
        let rel = if rel.is_empty() { f.display().to_string() } else { rel };
        let exports = match std::fs::read(f).map_err(|e| e.to_string()).and_then(|b| describe(&b)) {
            Ok((ShaderKind::Library, entries)) if !entries.is_empty() => entries,
            _ => Vec::new(),
        };
        if exports.is_empty() {
            out.push(Unit { file: f.clone(), name: rel, entry: None });
        } else {
            for e in exports {
                out.push(Unit { file: f.clone(), name: format!("{rel}#{e}"), entry: Some(e) });
            }
        }
    }
    out
}

fn run_unit(u: &Unit) -> Outcome {
    let bytes = match std::fs::read(&u.file) {
        Ok(b) => b,
        Err(e) => {
            return Outcome {
                stage: "?".into(),
                status: Status::Failed { why: format!("read: {e}") },
                compile_ns: None,
            }
        }
    };
    let stage = match describe(&bytes) {
        Ok((k, _)) => stage_name(k),
        Err(_) => "?".to_string(),
    };
    let opts = CompileOptions { entry_point: u.entry.clone(), ..CompileOptions::default() };
    let t = Instant::now();
    let r = catch_unwind(AssertUnwindSafe(|| dxjit::compile(&bytes, &opts)));
    let ns = t.elapsed().as_nanos() as u64;
    let status = match r {
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Status::Failed { why: format!("panic: {msg}") }
        }
        Ok(Ok(s)) => Status::Compiled { spirv: s.spirv },
        Ok(Err(e @ CompileError::Unsupported { .. })) => {
            let detail = e.to_string();
            let CompileError::Unsupported { feature, .. } = e else { unreachable!("matched above") };
            Status::Unsupported { feature, detail }
        }
        Ok(Err(e)) => Status::Failed { why: e.to_string() },
    };
    let compile_ns = matches!(status, Status::Compiled { .. }).then_some(ns);
    Outcome { stage, status, compile_ns }
}

/// Runs `f` over `0..n` on `threads` workers taking the next index from a
/// shared counter; `tick` is called after each item.
fn pool<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync, tick: impl Fn() + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = f(i);
                if let Ok(mut v) = slots.lock() {
                    v[i] = Some(r);
                }
                tick();
            });
        }
    });
    slots.into_inner().unwrap_or_default().into_iter().flatten().collect()
}

fn progress(len: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(len as u64),
        if std::io::stdout().is_terminal() { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() },
    );
    bar.set_style(
        ProgressStyle::with_template("{prefix} {bar:40} {pos}/{len} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_prefix(what.to_string());
    bar
}

fn median(v: &mut [u64]) -> Option<u64> {
    if v.is_empty() {
        return None;
    }
    v.sort_unstable();
    Some(v[v.len() / 2])
}

fn micros(ns: Option<u64>) -> String {
    ns.map_or("-".to_string(), |n| format!("{:.1} µs", n as f64 / 1000.0))
}

pub fn main(a: Args) -> ExitCode {
    let dir = a.dir.unwrap_or_else(dxjit_conformance::corpus::corpus_root);
    let mut files = Vec::new();
    dxjit_conformance::corpus::dxil_files(&dir, &mut files);
    if files.is_empty() {
        eprintln!("error: no .dxil files under {}", dir.display());
        return ExitCode::FAILURE;
    }
    let root = if dir.is_file() { dir.parent().map(Path::to_path_buf).unwrap_or_default() } else { dir.clone() };
    let validator = if a.no_validate { Err("--no-validate".to_string()) } else { batch_val::find_validator() };
    match &validator {
        Ok(v) => println!("validating with {v}"),
        Err(why) => println!("spirv-val not found ({why}): modules are NOT validated (set DXJIT_SPIRV_VAL)"),
    }
    let units = units(&files, &root);
    let threads = a.threads.max(1);

    let bar = progress(units.len(), "compile ");
    let t0 = Instant::now();
    let mut outcomes = pool(units.len(), threads, |i| run_unit(&units[i]), || bar.inc(1));
    bar.finish_and_clear();
    let compile_wall = t0.elapsed();

    if let Some(out) = &a.spirv_dir {
        for (u, o) in units.iter().zip(&outcomes) {
            let Status::Compiled { spirv } = &o.status else { continue };
            let path = out.join(format!("{}.spv", u.name));
            let bytes: Vec<u8> = spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
            let written =
                path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| std::fs::write(&path, bytes));
            if let Err(e) = written {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }

    let mut invalid = 0usize;
    if let Ok(v) = &validator {
        let modules: Vec<batch_val::Module<'_>> = outcomes
            .iter()
            .enumerate()
            .filter_map(|(index, o)| match &o.status {
                Status::Compiled { spirv } => Some(batch_val::Module { index, words: spirv }),
                _ => None,
            })
            .collect();
        let scratch = std::env::temp_dir().join(format!("dxjit-corpus-{}", std::process::id()));
        let verdicts = batch_val::write_chunks(&scratch, &modules).map(|chunks| {
            let bar = progress(modules.len(), "validate");
            let bad = pool(
                chunks.len(),
                threads,
                |i| {
                    let r = batch_val::validate_chunk(v, &chunks[i]);
                    bar.inc(chunks[i].modules() as u64);
                    r
                },
                || {},
            );
            bar.finish_and_clear();
            bad.into_iter().flatten().collect::<Vec<_>>()
        });
        drop(modules);
        let _ = std::fs::remove_dir_all(&scratch);
        match verdicts {
            Ok(bad) => {
                for (index, msg) in bad {
                    invalid += 1;
                    outcomes[index].status = Status::Failed { why: format!("spirv-val: {msg}") };
                }
            }
            Err(e) => {
                eprintln!("error: cannot write modules for spirv-val under {}: {e}", scratch.display());
                return ExitCode::FAILURE;
            }
        }
    }

    let mut rows: BTreeMap<String, StageRow> = BTreeMap::new();
    let mut features: BTreeMap<String, usize> = BTreeMap::new();
    let mut report = Vec::with_capacity(units.len());
    for (u, o) in units.iter().zip(&outcomes) {
        let row = rows.entry(o.stage.clone()).or_default();
        row.shaders += 1;
        let mut entry = serde_json::json!({"path": u.name, "stage": o.stage});
        match &o.status {
            Status::Compiled { spirv } => {
                row.compiled += 1;
                if let Some(ns) = o.compile_ns {
                    row.compile_ns.push(ns);
                }
                if a.verbose {
                    println!("ok      {}: {} words", u.name, spirv.len());
                }
                entry["status"] = "passed".into();
                entry["spirv_words"] = spirv.len().into();
                entry["compile_us"] = o.compile_ns.map(|n| n as f64 / 1000.0).into();
            }
            Status::Unsupported { feature, detail } => {
                row.unsupported += 1;
                *features.entry(feature.clone()).or_default() += 1;
                if a.verbose {
                    println!("skipped {}: {detail}", u.name);
                }
                entry["status"] = "skipped".into();
                entry["feature"] = feature.as_str().into();
                entry["detail"] = detail.as_str().into();
            }
            Status::Failed { why } => {
                row.failed += 1;
                println!("FAILED  {}: {why}", u.name);
                entry["status"] = "failed".into();
                entry["detail"] = why.as_str().into();
            }
        }
        report.push(entry);
    }

    let (passed, skipped, failed) =
        rows.values().fold((0, 0, 0), |(p, s, f), r| (p + r.compiled, s + r.unsupported, f + r.failed));
    let mut all_ns: Vec<u64> = rows.values().flat_map(|r| r.compile_ns.iter().copied()).collect();

    println!();
    println!(
        "{:<15} {:>7} {:>9} {:>12} {:>7} {:>15}",
        "stage", "shaders", "compiled", "unsupported", "failed", "median compile"
    );
    let mut table = Vec::new();
    for (stage, r) in rows.iter_mut() {
        let med = median(&mut r.compile_ns);
        println!(
            "{:<15} {:>7} {:>9} {:>12} {:>7} {:>15}",
            stage,
            r.shaders,
            r.compiled,
            r.unsupported,
            r.failed,
            micros(med)
        );
        table.push(serde_json::json!({
            "stage": stage, "shaders": r.shaders, "compiled": r.compiled, "unsupported": r.unsupported,
            "failed": r.failed, "median_compile_us": med.map(|n| n as f64 / 1000.0),
        }));
    }
    let all_med = median(&mut all_ns);
    println!("{:<15} {:>7} {:>9} {:>12} {:>7} {:>15}", "all", units.len(), passed, skipped, failed, micros(all_med));
    let mut top: Vec<(&String, &usize)> = features.iter().collect();
    top.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
    if !top.is_empty() {
        println!();
        println!("unsupported features:");
        for (f, n) in &top {
            println!("  {n:>4}  {f}");
        }
    }
    println!();
    let validated = match &validator {
        Ok(_) => format!("{} modules validated, {invalid} invalid", passed + invalid),
        Err(_) => "not validated".to_string(),
    };
    println!(
        "{} files, {} shaders, {threads} threads, compile {:.2} s; {validated}",
        files.len(),
        units.len(),
        compile_wall.as_secs_f64()
    );

    if let Some(path) = &a.report {
        let doc = serde_json::json!({
            "root": dir.display().to_string(),
            "validator": validator.as_ref().ok(),
            "validated": validator.is_ok(),
            "threads": threads,
            "passed": passed, "failed": failed, "skipped": skipped, "invalid": invalid,
            "median_compile_us": all_med.map(|n| n as f64 / 1000.0),
            "stages": table,
            "unsupported_features": top.iter().map(|(f, n)| serde_json::json!({"feature": f, "count": n})).collect::<Vec<_>>(),
            "shaders": report,
        });
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
