//! `dxjit bench [DIR|FILES]`: compile-time benchmark of the DXIL → SPIR-V
//! pipeline.
//!
//! Every container is loaded into memory first; one untimed warm-up pass
//! compiles each once, then each is compiled `--iterations` times back to
//! back with `dxjit::compile` (whole-compile samples) and as many times with
//! `dxjit::compile_with_stats` (per-phase samples). Whole-corpus passes then
//! measure throughput on one thread and on `--threads` threads. Shaders that
//! do not compile (graphics stages, unsupported ops) are listed with
//! `ok = false` and left out of every timing figure.
//!
//! DXIL libraries (ray tracing) are not single shaders: each export is compiled
//! on its own (`CompileOptions::entry_point`) and timed the same way, in a
//! section of its own (`library_exports` in the JSON), so the figures of the
//! other shaders keep their meaning.
//!
//! Memory: this binary's global allocator counts bytes per thread, so each
//! compile's peak heap use, allocation count and leaked bytes are exact.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use dxjit::{CompileOptions, Phase, PhaseTimes};
use serde_json::{json, Value};

#[derive(clap::Args)]
pub struct Args {
    /// Folders (searched recursively for `.dxil`) and files (default: $DXJIT_CORPUS or ../shared/corpus).
    inputs: Vec<PathBuf>,
    /// Also time the graphics pipelines described by the TOML specs in this folder: the linker alone and the whole compile_pipeline
    #[arg(long, value_name = "SPEC_DIR")]
    pipelines: Option<PathBuf>,
    /// Timed compiles per shader.
    #[arg(long, default_value_t = 20)]
    iterations: usize,
    /// Threads of the multi-threaded throughput pass (default: available parallelism, at least 2).
    #[arg(long)]
    threads: Option<usize>,
    /// Write the results as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Print per-shader and total ratios against an earlier `--json` result.
    #[arg(long, value_name = "OTHER.json")]
    compare: Option<PathBuf>,
    /// Also measure the compile cache: miss, warm (memory) hit and, with DIR, disk hit.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "")]
    cache: Option<PathBuf>,
    /// Time the Vulkan driver's own compile of each translated compute shader (first dispatch,
    /// MESA_SHADER_CACHE_DISABLE=true); needs the `vulkan` feature.
    #[arg(long)]
    device: bool,
    /// Rows of the per-shader table (slowest first; 0 = all).
    #[arg(long, default_value_t = 15)]
    top: usize,
}

// ---- counting allocator ---------------------------------------------------

thread_local! {
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting live bytes, their peak and allocations of the calling thread.
struct Counting;

#[inline]
fn note(delta: i64, new_alloc: bool) {
    // `try_with`: a thread being torn down may still free memory.
    let _ = LIVE.try_with(|live| {
        let v = live.get() + delta;
        live.set(v);
        let _ = PEAK.try_with(|p| {
            if v > p.get() {
                p.set(v);
            }
        });
    });
    if new_alloc {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: every call forwards to `System` with the caller's arguments unchanged; the bookkeeping
// only touches const-initialized thread-local cells (no allocation, no destructors).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            note(layout.size() as i64, true);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            note(layout.size() as i64, true);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded contract.
        unsafe { System.dealloc(ptr, layout) };
        note(-(layout.size() as i64), false);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            note(new_size as i64 - layout.size() as i64, true);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Heap use of the calling thread between `start()` and `stop()`.
struct AllocProbe {
    live0: i64,
    count0: u64,
}

impl AllocProbe {
    fn start() -> AllocProbe {
        let live0 = LIVE.with(Cell::get);
        PEAK.with(|p| p.set(live0));
        AllocProbe { live0, count0: COUNT.with(Cell::get) }
    }
    /// (peak bytes above the start, allocations, bytes still live).
    fn stop(&self) -> (u64, u64, i64) {
        let peak = PEAK.with(Cell::get) - self.live0;
        (peak.max(0) as u64, COUNT.with(Cell::get) - self.count0, LIVE.with(Cell::get) - self.live0)
    }
}

// ---- inputs ---------------------------------------------------------------

struct Shader {
    path: String,
    bytes: Vec<u8>,
    stage: String,
    bitcode_bytes: usize,
    /// Libraries: the exports (plain names), each timed on its own.
    exports: Vec<String>,
}

/// The plain names of a library's exports (from its `!dx.entryPoints`).
fn library_exports(bytes: &[u8]) -> Vec<String> {
    let Ok(c) = dxjit::container::Container::parse(bytes) else { return Vec::new() };
    let Ok(prog) = c.dxil_program() else { return Vec::new() };
    let Ok(m) = dxjit::bitcode::read_module(prog.bitcode) else { return Vec::new() };
    let Ok(info) = dxjit::dxil::decode(&m) else { return Vec::new() };
    info.functions().map(|e| dxjit::dxil::library::export_name(&e.name).to_string()).collect()
}

fn load(paths: &[PathBuf], root: Option<&Path>) -> Result<Vec<Shader>, String> {
    let mut out = Vec::new();
    for p in paths {
        let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let (stage, bitcode_bytes) = match dxjit::container::Container::parse(&bytes) {
            Ok(c) => match c.dxil_program() {
                Ok(prog) => (prog.shader_kind.name().to_string(), prog.bitcode.len()),
                Err(_) => ("unknown".to_string(), 0),
            },
            Err(_) => ("unknown".to_string(), 0),
        };
        let path = root.and_then(|r| p.strip_prefix(r).ok()).unwrap_or(p).display().to_string();
        let exports = if stage == "library" { library_exports(&bytes) } else { Vec::new() };
        out.push(Shader { path, bytes, stage, bitcode_bytes, exports });
    }
    Ok(out)
}

// ---- statistics -----------------------------------------------------------

#[derive(Debug, Clone, Copy, Default)]
struct Summary {
    median: f64,
    p90: f64,
    max: f64,
}

/// Median (mean of the middle two), nearest-rank p90 and max of `v` (µs).
fn summarize(v: &mut [f64]) -> Summary {
    if v.is_empty() {
        return Summary::default();
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = (v[(n - 1) / 2] + v[n / 2]) / 2.0;
    let p90 = v[((n as f64 * 0.9).ceil() as usize).clamp(1, n) - 1];
    Summary { median, p90, max: v[n - 1] }
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn summary_json(s: Summary) -> Value {
    json!({"median_us": round2(s.median), "p90_us": round2(s.p90), "max_us": round2(s.max)})
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A share (0..1) to four places.
fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

struct Result1 {
    ok: bool,
    error: Option<String>,
    /// The compiled shader's stage (`raygeneration`, … for library exports).
    stage: String,
    whole: Summary,
    phases: [Summary; Phase::COUNT], // indexed by Phase; Link stays empty for one shader
    /// Median over the timed-phase compiles of the verifier's share of each (its phase over
    /// all phases of the same compile).
    verify_share: f64,
    spirv_bytes: usize,
    peak_bytes: u64,
    allocs: u64,
    leaked: i64,
    peak_growth: i64,
}

fn bench_shader(s: &Shader, opts: &CompileOptions, iterations: usize) -> Result1 {
    // Warm-up (untimed); also decides whether the shader is timed at all.
    let first = match dxjit::compile(&s.bytes, opts) {
        Ok(c) => c,
        Err(e) => {
            return Result1 {
                ok: false,
                error: Some(e.to_string()),
                stage: String::new(),
                whole: Summary::default(),
                phases: [Summary::default(); Phase::COUNT],
                verify_share: 0.0,
                spirv_bytes: 0,
                peak_bytes: 0,
                allocs: 0,
                leaked: 0,
                peak_growth: 0,
            }
        }
    };
    let spirv_bytes = first.spirv.len() * 4;
    let stage = first.stage.name().to_string();
    drop(first);
    let mut whole = Vec::with_capacity(iterations);
    let (mut peak_bytes, mut allocs, mut leaked) = (0u64, 0u64, 0i64);
    let (mut first_peak, mut last_peak) = (None, 0u64);
    for _ in 0..iterations {
        let probe = AllocProbe::start();
        let t = Instant::now();
        let r = dxjit::compile(&s.bytes, opts);
        let dt = t.elapsed();
        drop(std::hint::black_box(r));
        let (peak, n, live) = probe.stop();
        whole.push(us(dt));
        peak_bytes = peak_bytes.max(peak);
        allocs = n;
        leaked = leaked.max(live);
        first_peak.get_or_insert(peak);
        last_peak = peak;
    }
    let mut phases: Vec<Vec<f64>> = (0..Phase::COUNT).map(|_| Vec::with_capacity(iterations)).collect();
    let mut shares = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        let mut t = PhaseTimes::default();
        let r = dxjit::compile_with_stats(&s.bytes, opts, &mut t);
        drop(std::hint::black_box(r));
        for p in Phase::SHADER {
            phases[p as usize].push(us(t.get(p)));
        }
        let total = t.total().as_secs_f64();
        shares.push(if total > 0.0 { t.get(Phase::Verify).as_secs_f64() / total } else { 0.0 });
    }
    let mut ph = [Summary::default(); Phase::COUNT];
    for (k, v) in phases.iter_mut().enumerate() {
        ph[k] = summarize(v);
    }
    Result1 {
        ok: true,
        error: None,
        stage,
        whole: summarize(&mut whole),
        phases: ph,
        verify_share: summarize(&mut shares).median,
        spirv_bytes,
        peak_bytes,
        allocs,
        leaked,
        peak_growth: last_peak as i64 - first_peak.unwrap_or(0) as i64,
    }
}

/// Median wall time of `n` passes, each compiling every shader in `shaders` once, spread over
/// `threads` worker threads.
///
/// The workers are started once and kept for all passes, as a driver's PSO-compile pool is, with
/// one untimed pass first so their per-thread storage is warm; each timed pass starts when every
/// worker is released and ends when the last one has finished (work is taken from a shared
/// counter, so faster workers take more shaders). The single-threaded figure runs the same way on
/// one worker, so both compare like with like.
///
/// Also returns the most heap any worker still held after its last compile: the per-thread
/// storage the library keeps between compiles.
fn median_pass(shaders: &[&Shader], opts: &CompileOptions, threads: usize, n: usize) -> (Duration, i64) {
    let threads = threads.max(1);
    let n = n.max(1);
    let next: Vec<AtomicUsize> = (0..=n).map(|_| AtomicUsize::new(0)).collect();
    let start = std::sync::Barrier::new(threads + 1);
    let end = std::sync::Barrier::new(threads + 1);
    let mut v = Vec::with_capacity(n);
    let retained = std::sync::atomic::AtomicI64::new(0);
    std::thread::scope(|sc| {
        for _ in 0..threads {
            sc.spawn(|| {
                let live0 = LIVE.with(Cell::get);
                for (k, counter) in next.iter().enumerate() {
                    start.wait();
                    loop {
                        let i = counter.fetch_add(1, Ordering::Relaxed);
                        let Some(s) = shaders.get(i) else { break };
                        drop(std::hint::black_box(dxjit::compile(&s.bytes, opts)));
                    }
                    if k == n {
                        retained.fetch_max(LIVE.with(Cell::get) - live0, Ordering::Relaxed);
                    }
                    end.wait();
                }
            });
        }
        for k in 0..=n {
            start.wait();
            let t = Instant::now();
            end.wait();
            if k > 0 {
                v.push(t.elapsed().as_secs_f64());
            }
        }
    });
    (Duration::from_secs_f64(summarize(&mut v).median), retained.load(Ordering::Relaxed))
}

// ---- pipelines ------------------------------------------------------------

/// Every string value ending in `.dxil` anywhere in a TOML document (the
/// spec's stage shaders, whatever the keys are called).
fn dxil_strings(v: &toml::Value, out: &mut Vec<String>) {
    match v {
        toml::Value::String(s) if s.ends_with(".dxil") => out.push(s.clone()),
        toml::Value::Array(a) => a.iter().for_each(|x| dxil_strings(x, out)),
        toml::Value::Table(t) => t.values().for_each(|x| dxil_strings(x, out)),
        _ => {}
    }
}

fn resolve(rel: &str, spec_dir: &Path) -> Option<PathBuf> {
    let corpus = dxjit_conformance::corpus::corpus_root();
    let fixtures = dxjit_conformance::corpus::fixtures_root();
    [spec_dir.join(rel), corpus.join(rel), fixtures.join(rel), fixtures.join("..").join(rel)]
        .into_iter()
        .find(|p| p.is_file())
}

fn stage_io(bytes: &[u8]) -> Result<dxjit::link::StageIo, String> {
    let c = dxjit::container::Container::parse(bytes).map_err(|e| format!("container: {e}"))?;
    let prog = c.dxil_program().map_err(|e| format!("container: {e}"))?;
    let m = dxjit::bitcode::read_module(prog.bitcode).map_err(|e| format!("bitcode: {e}"))?;
    let info = dxjit::dxil::decode(&m).map_err(|e| format!("metadata: {e}"))?;
    dxjit::link::StageIo::from_module(&info, &m).map_err(|e| e.to_string())
}

/// Times each pipeline spec in `dir`: the linker alone (signatures already decoded) and the whole
/// PSO-time compile (`dxjit::compile_pipeline`: every stage's container to SPIR-V words, linked).
fn bench_pipelines(dir: &Path, iterations: usize) -> Result<Vec<Value>, String> {
    let mut specs = Vec::new();
    let rd = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for e in rd.filter_map(Result::ok) {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "toml") {
            specs.push(p);
        }
    }
    specs.sort();
    let mut out = Vec::new();
    for spec in specs {
        let name = spec.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(&spec).map_err(|e| format!("{}: {e}", spec.display()))?;
        let doc: toml::Value = match toml::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                out.push(json!({"spec": name, "ok": false, "error": format!("toml: {e}")}));
                continue;
            }
        };
        let mut rels = Vec::new();
        dxil_strings(&doc, &mut rels);
        let mut blobs = Vec::new();
        let mut stages = Vec::new();
        let mut error = None;
        for r in &rels {
            let got = resolve(r, spec.parent().unwrap_or(dir)).ok_or_else(|| format!("{r}: not found")).and_then(|p| {
                let bytes = std::fs::read(&p).map_err(|e| format!("{r}: {e}"))?;
                let io = stage_io(&bytes).map_err(|e| format!("{r}: {e}"))?;
                Ok((bytes, io))
            });
            match got {
                Ok((bytes, io)) => {
                    blobs.push(bytes);
                    stages.push(io);
                }
                Err(e) => error = Some(e),
            }
        }
        if let Some(e) = error.or_else(|| stages.is_empty().then(|| "no stages".to_string())) {
            out.push(json!({"spec": name, "ok": false, "error": e}));
            continue;
        }
        let opts = dxjit::link::LinkOptions::default();
        let copts = CompileOptions::default();
        let refs: Vec<&[u8]> = blobs.iter().map(Vec::as_slice).collect();
        let verdict = match dxjit::compile_pipeline(&refs, &opts, &copts) {
            Ok(p) => format!("compiled ({} SPIR-V bytes)", p.shaders.iter().map(|s| s.spirv.len() * 4).sum::<usize>()),
            Err(e) => format!("rejected: {e}"),
        };
        let time = |f: &dyn Fn()| {
            let mut t: Vec<f64> = (0..iterations.max(1))
                .map(|_| {
                    let t = Instant::now();
                    f();
                    us(t.elapsed())
                })
                .collect();
            summarize(&mut t)
        };
        let link = time(&|| drop(std::hint::black_box(dxjit::link::link(&stages, &opts))));
        let compile = time(&|| drop(std::hint::black_box(dxjit::compile_pipeline(&refs, &opts, &copts))));
        // Per phase (summed over the stages; `link` = the linker inside the PSO compile).
        let mut per: Vec<Vec<f64>> = vec![Vec::new(); Phase::COUNT];
        for _ in 0..iterations.max(1) {
            let mut t = dxjit::PhaseTimes::default();
            drop(std::hint::black_box(dxjit::compile_pipeline_with_stats(&refs, &opts, &copts, &mut t)));
            for p in Phase::ALL {
                per[p as usize].push(us(t.get(p)));
            }
        }
        let phases: serde_json::Map<String, Value> =
            Phase::ALL.iter().map(|p| (p.name().to_string(), summary_json(summarize(&mut per[*p as usize])))).collect();
        out.push(json!({"spec": name, "ok": true, "stages": stages.len(), "verdict": verdict,
            "link": summary_json(link), "compile_pipeline": summary_json(compile), "phases": phases}));
    }
    Ok(out)
}

// ---- cache ----------------------------------------------------------------

fn bench_cache(ok: &[&Shader], opts: &CompileOptions, dir: Option<&Path>, iterations: usize) -> Result<Value, String> {
    let cache = match dir {
        Some(d) => dxjit::cache::CompileCache::with_disk(ok.len().max(1) * 2, d)
            .map_err(|e| format!("{}: {e}", d.display()))?,
        None => dxjit::cache::CompileCache::new(ok.len().max(1) * 2),
    };
    let (mut miss, mut warm, mut disk, mut key) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for s in ok {
        let t = Instant::now();
        let _ = dxjit::cache::CacheKey::new(&s.bytes, None, opts);
        key.push(us(t.elapsed()));
        let t = Instant::now();
        let _ = cache.compile(&s.bytes, opts);
        miss.push(us(t.elapsed()));
        let mut w: Vec<f64> = (0..iterations)
            .map(|_| {
                let t = Instant::now();
                let _ = std::hint::black_box(cache.compile(&s.bytes, opts));
                us(t.elapsed())
            })
            .collect();
        warm.push(summarize(&mut w).median);
    }
    if dir.is_some() {
        cache.clear_memory();
        for s in ok {
            let t = Instant::now();
            let _ = cache.compile(&s.bytes, opts);
            disk.push(us(t.elapsed()));
        }
    }
    let st = cache.stats();
    Ok(json!({
        "dir": dir.map(|d| d.display().to_string()),
        "key": summary_json(summarize(&mut key)),
        "miss": summary_json(summarize(&mut miss)),
        "warm_hit": summary_json(summarize(&mut warm)),
        "disk_hit": if disk.is_empty() { Value::Null } else { summary_json(summarize(&mut disk)) },
        "hits": st.hits, "disk_hits": st.disk_hits, "misses": st.misses,
    }))
}

// ---- device ---------------------------------------------------------------

#[cfg(feature = "vulkan")]
fn bench_device(ok: &[&Shader], opts: &CompileOptions) -> Result<Value, String> {
    use dxjit_runtime::{BoundResource, ComputeJob, ContextOptions, ResourceDesc};
    // lavapipe compiles at first use; the shader cache would hide that.
    std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true");
    let ctx = dxjit_runtime::Context::new(&ContextOptions::default()).map_err(|e| e.to_string())?;
    let (mut times, mut failed, mut rows) = (Vec::new(), 0usize, Vec::new());
    for s in ok {
        let Ok(c) = dxjit::compile(&s.bytes, opts) else { continue };
        let mut resources = Vec::new();
        let mut supported = true;
        for b in &c.bindings {
            let data = vec![0u8; 4096];
            let r = match b.descriptor {
                dxjit::DescriptorKind::StorageBuffer => ResourceDesc::StorageBuffer { data },
                dxjit::DescriptorKind::UniformBuffer => ResourceDesc::UniformBuffer { data },
                _ => {
                    supported = false;
                    break;
                }
            };
            for i in 0..b.count.unwrap_or(1).min(4) {
                resources.push(BoundResource { set: b.set, binding: b.binding, array_index: i, resource: r.clone() });
            }
            if let Some((set, binding)) = b.counter_binding {
                resources.push(BoundResource::new(set, binding, ResourceDesc::StorageBuffer { data: vec![0u8; 4] }));
            }
        }
        if !supported {
            continue;
        }
        let job = ComputeJob {
            spirv: &c.spirv,
            entry_point: &c.entry_point,
            resources,
            push_constants: vec![0u8; c.push_constants.map_or(0, |p| p.size as usize)],
            dispatch: [1, 1, 1],
            required_subgroup_size: None,
            scene: None,
        };
        let t = Instant::now();
        match ctx.run_compute(&job) {
            Ok(_) => {
                let dt = us(t.elapsed());
                times.push(dt);
                rows.push(json!({"path": s.path, "first_dispatch_us": round2(dt)}));
            }
            Err(e) => {
                failed += 1;
                rows.push(json!({"path": s.path, "error": e.to_string()}));
            }
        }
    }
    Ok(json!({"device": ctx.device_name(), "timed": times.len(), "failed": failed,
        "first_dispatch": summary_json(summarize(&mut times)), "shaders": rows}))
}

#[cfg(not(feature = "vulkan"))]
fn bench_device(_: &[&Shader], _: &CompileOptions) -> Result<Value, String> {
    Err("--device needs a build with `--features vulkan`".into())
}

// ---- library exports --------------------------------------------------------

/// Prints the library-export table (slowest first, `top` rows) and summary; returns the JSON.
fn library_section(libraries: &[Shader], results: &[(&Shader, &str, Result1)], top: usize) -> Value {
    let timed: Vec<&(&Shader, &str, Result1)> = results.iter().filter(|r| r.2.ok).collect();
    let mut by_time = timed.clone();
    by_time.sort_by(|x, y| y.2.whole.median.total_cmp(&x.2.whole.median));
    let rows = if top == 0 { by_time.len() } else { top.min(by_time.len()) };
    println!(
        "\nlibrary exports ({} of {} exports of {} libraries compiled and timed, each on its own; {rows} slowest):",
        timed.len(),
        results.len(),
        libraries.len()
    );
    println!("{:>9} {:>9} {:>9} {:>8} {:>9}  export", "median µs", "p90 µs", "max µs", "SPIR-V B", "peak KiB");
    for (s, e, r) in by_time.iter().take(rows) {
        println!(
            "{:>9.2} {:>9.2} {:>9.2} {:>8} {:>9.1}  {}#{e} [{}]",
            r.whole.median,
            r.whole.p90,
            r.whole.max,
            r.spirv_bytes,
            r.peak_bytes as f64 / 1024.0,
            s.path,
            r.stage
        );
    }
    let mut med: Vec<f64> = timed.iter().map(|r| r.2.whole.median).collect();
    let total: f64 = med.iter().sum();
    let sum = summarize(&mut med);
    println!(
        "{:>9.2} {:>9.2} {:>9.2} {:>8} {:>9}  all exports (median, p90, max of each export's median; total {total:.1} µs)",
        sum.median, sum.p90, sum.max, "", ""
    );
    let not_timed = results.len() - timed.len();
    if not_timed > 0 {
        println!("{not_timed} exports not compiled (unsupported or malformed; excluded from the figures)");
    }
    json!({
        "libraries": libraries.len(),
        "compiled": timed.len(),
        "not_compiled": not_timed,
        "total_us": round2(total),
        "median_us": round2(sum.median),
        "p90_us": round2(sum.p90),
        "max_us": round2(sum.max),
        "exports": results.iter().map(|(s, e, r)| {
            let mut j = json!({
                "path": s.path, "export": e, "ok": r.ok, "stage": r.stage,
                "median_us": round2(r.whole.median), "p90_us": round2(r.whole.p90), "max_us": round2(r.whole.max),
                "spirv_bytes": r.spirv_bytes,
            });
            if r.ok {
                let ph: serde_json::Map<String, Value> =
                    Phase::SHADER.iter().map(|p| (p.name().to_string(), summary_json(r.phases[*p as usize]))).collect();
                j["phases"] = Value::Object(ph);
                j["peak_alloc_bytes"] = json!(r.peak_bytes);
            } else {
                j["error"] = json!(r.error);
            }
            j
        }).collect::<Vec<_>>(),
    })
}

// ---- compare --------------------------------------------------------------

fn compare(now: &Value, path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let old: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let medians = |v: &Value| -> HashMap<String, f64> {
        v["shaders"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|s| s["ok"].as_bool() == Some(true))
            .filter_map(|s| Some((s["path"].as_str()?.to_string(), s["median_us"].as_f64()?)))
            .collect()
    };
    let (a, b) = (medians(&old), medians(now));
    let mut rows: Vec<(&String, f64, f64)> =
        b.iter().filter_map(|(p, &n)| a.get(p).map(|&o| (p, o, n))).filter(|r| r.1 > 0.0).collect();
    rows.sort_by(|x, y| (y.2 / y.1).total_cmp(&(x.2 / x.1)));
    println!("\ncompare with {} ({} shaders in both; ratio = now / then, < 1 is faster)", path.display(), rows.len());
    let verifier = |v: &Value| match v["verifier"].as_bool() {
        Some(true) => "on",
        Some(false) => "off (bench-no-verify)",
        None => "not recorded",
    };
    println!("verifier: then {}, now {}", verifier(&old), verifier(now));
    println!("{:>10} {:>10} {:>7}  shader", "then µs", "now µs", "ratio");
    for (p, o, n) in &rows {
        println!("{o:>10.2} {n:>10.2} {:>7.3}  {p}", n / o);
    }
    if !rows.is_empty() {
        let geo = (rows.iter().map(|r| (r.2 / r.1).ln()).sum::<f64>() / rows.len() as f64).exp();
        println!("geometric mean of ratios: {geo:.3}");
        // The medians below (`median_us`) are each run's over the shaders it compiled; this one
        // compares the same shaders (a build that compiles more shaders shifts its own median).
        let (mut then, mut now): (Vec<f64>, Vec<f64>) = rows.iter().map(|r| (r.1, r.2)).unzip();
        let (o, n) = (summarize(&mut then).median, summarize(&mut now).median);
        println!("median over the shaders in both: {o:.2} → {n:.2} µs (ratio {:.3})", n / o);
    }
    for (k, unit) in [("total_us", "µs"), ("median_us", "µs"), ("p90_us", "µs"), ("shaders_per_second", "/s")] {
        if let (Some(o), Some(n)) = (old[k].as_f64(), now[k].as_f64()) {
            if o > 0.0 {
                println!("{k:>20}: {o:.1} → {n:.1} {unit} (ratio {:.3})", n / o);
            }
        }
    }
    let missing = a.keys().filter(|p| !b.contains_key(*p)).count();
    if missing > 0 {
        println!("{missing} shaders timed then are not timed now");
    }
    Ok(())
}

// ---- main -----------------------------------------------------------------

pub fn main(a: Args) -> ExitCode {
    match run(a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(a: Args) -> Result<(), String> {
    let iterations = a.iterations.max(1);
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()).max(2));
    let inputs = if a.inputs.is_empty() { vec![dxjit_conformance::corpus::corpus_root()] } else { a.inputs.clone() };
    let mut files = Vec::new();
    for i in &inputs {
        dxjit_conformance::corpus::dxil_files(i, &mut files);
    }
    if files.is_empty() {
        return Err(format!(
            "no .dxil files in {}",
            inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
    let root = (inputs.len() == 1 && inputs[0].is_dir()).then(|| inputs[0].as_path());
    let all = load(&files, root)?;
    let (libraries, shaders): (Vec<Shader>, Vec<Shader>) = all.into_iter().partition(|s| s.stage == "library");
    let opts = CompileOptions::default();

    let n_exports: usize = libraries.iter().map(|l| l.exports.len()).sum();
    let bar = indicatif::ProgressBar::new((shaders.len() + n_exports) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut results = Vec::with_capacity(shaders.len());
    for s in &shaders {
        bar.set_message(s.path.clone());
        results.push(bench_shader(s, &opts, iterations));
        bar.inc(1);
    }
    // Library exports, each compiled alone.
    let mut export_results: Vec<(&Shader, &str, Result1)> = Vec::with_capacity(n_exports);
    for l in &libraries {
        for e in &l.exports {
            bar.set_message(format!("{}#{e}", l.path));
            let eopts = CompileOptions { entry_point: Some(e.clone()), ..opts.clone() };
            export_results.push((l, e.as_str(), bench_shader(l, &eopts, iterations)));
            bar.inc(1);
        }
    }
    bar.finish_and_clear();

    let ok: Vec<&Shader> = shaders.iter().zip(&results).filter(|(_, r)| r.ok).map(|(s, _)| s).collect();
    let ok_results: Vec<(&Shader, &Result1)> = shaders.iter().zip(&results).filter(|(_, r)| r.ok).collect();
    let failed = shaders.len() - ok.len();

    // Throughput: whole passes over the compiled set.
    let passes = (iterations / 2).clamp(3, 10);
    let ((one, retained), (many, _)) = if ok.is_empty() {
        ((Duration::ZERO, 0), (Duration::ZERO, 0))
    } else {
        (median_pass(&ok, &opts, 1, passes), median_pass(&ok, &opts, threads, passes))
    };
    let per_s = |d: Duration| if d.is_zero() { 0.0 } else { ok.len() as f64 / d.as_secs_f64() };
    let bitcode_ok: usize = ok.iter().map(|s| s.bitcode_bytes).sum();
    let mb_s = if one.is_zero() { 0.0 } else { bitcode_ok as f64 / one.as_secs_f64() / 1e6 };
    // Reader pass over every shader (the front end runs on graphics stages too).
    let readable: Vec<&[u8]> = shaders
        .iter()
        .filter_map(|s| dxjit::container::Container::parse(&s.bytes).ok()?.dxil_program().ok().map(|p| p.bitcode))
        .collect();
    let mut rp: Vec<f64> = (0..passes)
        .map(|_| {
            let t = Instant::now();
            for bc in &readable {
                drop(std::hint::black_box(dxjit::bitcode::read_module(bc)));
            }
            t.elapsed().as_secs_f64()
        })
        .collect();
    let reader_s = summarize(&mut rp).median;
    let reader_bytes: usize = readable.iter().map(|b| b.len()).sum();

    let mut med: Vec<f64> = ok_results.iter().map(|(_, r)| r.whole.median).collect();
    let total_us: f64 = med.iter().sum();
    let corpus = summarize(&mut med);
    let mut phase_rows = Vec::new();
    let mut phase_json = serde_json::Map::new();
    for p in Phase::SHADER {
        let mut v: Vec<f64> = ok_results.iter().map(|(_, r)| r.phases[p as usize].median).collect();
        let tot: f64 = v.iter().sum();
        let s = summarize(&mut v);
        let mut j = summary_json(s);
        j["total_us"] = json!(round2(tot));
        phase_json.insert(p.name().to_string(), j);
        phase_rows.push((p.name(), s, tot));
    }
    // The verifier's share of a compile, timed inside the compile it is part of (same binary,
    // same run): each shader's median share, then their median and p90.
    let mut shares: Vec<f64> = ok_results.iter().map(|(_, r)| r.verify_share).collect();
    let share = summarize(&mut shares);
    let leaks = ok_results.iter().filter(|(_, r)| r.leaked != 0).count();
    let growth = ok_results.iter().filter(|(_, r)| r.peak_growth > 0).count();
    let max_peak = ok_results.iter().map(|(_, r)| r.peak_bytes).max().unwrap_or(0);
    let mut peaks: Vec<f64> = ok_results.iter().map(|(_, r)| r.peak_bytes as f64).collect();
    let peak_s = summarize(&mut peaks);

    // ---- tables
    let mut by_time: Vec<&(&Shader, &Result1)> = ok_results.iter().collect();
    by_time.sort_by(|x, y| y.1.whole.median.total_cmp(&x.1.whole.median));
    let top = if a.top == 0 { by_time.len() } else { a.top.min(by_time.len()) };
    if !dxjit::verify::RUNS_ON_COMPILE {
        println!("note: a bench-no-verify build: compiles skip the verifier\n");
    }
    println!(
        "{:>9} {:>9} {:>9} {:>8} {:>9} {:>7}  shader ({} slowest of {})",
        "median µs",
        "p90 µs",
        "max µs",
        "SPIR-V B",
        "peak KiB",
        "allocs",
        top,
        ok.len()
    );
    for (s, r) in by_time.iter().take(top) {
        println!(
            "{:>9.2} {:>9.2} {:>9.2} {:>8} {:>9.1} {:>7}  {} [{}]",
            r.whole.median,
            r.whole.p90,
            r.whole.max,
            r.spirv_bytes,
            r.peak_bytes as f64 / 1024.0,
            r.allocs,
            s.path,
            s.stage
        );
    }
    println!("\nper phase (over shaders: median, p90, max of each shader's median; total = sum of medians)");
    println!("{:>12} {:>9} {:>9} {:>9} {:>11}", "phase", "median µs", "p90 µs", "max µs", "total µs");
    for (name, s, tot) in &phase_rows {
        println!("{name:>12} {:>9.2} {:>9.2} {:>9.2} {tot:>11.1}", s.median, s.p90, s.max);
    }
    println!("{:>12} {:>9.2} {:>9.2} {:>9.2} {total_us:>11.1}", "whole", corpus.median, corpus.p90, corpus.max);
    if dxjit::verify::RUNS_ON_COMPILE {
        println!(
            "verifier share of a compile: median {:.1} %, p90 {:.1} % (each shader's median of verify / all phases)",
            share.median * 100.0,
            share.p90 * 100.0
        );
    }
    println!(
        "\n{} shaders: {} compiled and timed, {failed} not compiled (unsupported or malformed; excluded from timings){}",
        shaders.len(),
        ok.len(),
        if libraries.is_empty() {
            String::new()
        } else {
            format!("; {} DXIL libraries ({n_exports} exports) timed per export below", libraries.len())
        }
    );
    println!(
        "throughput: {:.0} shaders/s on 1 thread, {:.0} shaders/s on {threads} threads (scaling {:.2}×); \
         {:.1} MB/s of bitcode (compile pass, {} KB)",
        per_s(one),
        per_s(many),
        if one.is_zero() || many.is_zero() { 0.0 } else { one.as_secs_f64() / many.as_secs_f64() },
        mb_s,
        bitcode_ok / 1000
    );
    println!(
        "reader alone: {:.1} MB/s over {} modules ({} KB of bitcode)",
        if reader_s > 0.0 { reader_bytes as f64 / reader_s / 1e6 } else { 0.0 },
        readable.len(),
        reader_bytes / 1000
    );
    println!(
        "memory per compile: peak median {:.1} KiB, max {:.1} KiB; {leaks} shaders leak, {growth} grow their peak across \
         iterations; a worker thread keeps {:.1} KiB of reusable storage after compiling the whole set",
        peak_s.median / 1024.0,
        max_peak as f64 / 1024.0,
        retained as f64 / 1024.0
    );
    let library_json =
        if libraries.is_empty() { Value::Null } else { library_section(&libraries, &export_results, a.top) };
    let failures: Vec<Value> = shaders
        .iter()
        .zip(&results)
        .filter(|(_, r)| !r.ok)
        .map(|(s, r)| json!({"path": s.path, "stage": s.stage, "error": r.error}))
        .collect();

    let mut report = json!({
        "dxjit_version": env!("CARGO_PKG_VERSION"),
        "verifier": dxjit::verify::RUNS_ON_COMPILE,
        "iterations": iterations,
        "threads": threads,
        "shaders": shaders.iter().zip(&results).map(|(s, r)| {
            let mut j = json!({
                "path": s.path, "stage": s.stage, "ok": r.ok, "bitcode_bytes": s.bitcode_bytes,
                "median_us": round2(r.whole.median), "p90_us": round2(r.whole.p90), "max_us": round2(r.whole.max),
                "spirv_bytes": r.spirv_bytes,
            });
            if r.ok {
                let ph: serde_json::Map<String, Value> =
                    Phase::SHADER.iter().map(|p| (p.name().to_string(), summary_json(r.phases[*p as usize]))).collect();
                j["phases"] = Value::Object(ph);
                j["verify_share"] = json!(round4(r.verify_share));
                j["peak_alloc_bytes"] = json!(r.peak_bytes);
                j["allocations"] = json!(r.allocs);
                j["leaked_bytes"] = json!(r.leaked);
            } else {
                j["error"] = json!(r.error);
            }
            j
        }).collect::<Vec<_>>(),
        "compiled": ok.len(),
        "not_compiled": failed,
        "total_us": round2(total_us),
        "median_us": round2(corpus.median),
        "p90_us": round2(corpus.p90),
        "max_us": round2(corpus.max),
        "phases": Value::Object(phase_json),
        "verify_share": json!({"median": round4(share.median), "p90": round4(share.p90)}),
        "shaders_per_second": per_s(one).round(),
        "shaders_per_second_threads": per_s(many).round(),
        "thread_scaling": if many.is_zero() { 0.0 } else { round2(one.as_secs_f64() / many.as_secs_f64()) },
        "bitcode_mb_per_second": round2(mb_s),
        "reader_mb_per_second": if reader_s > 0.0 { round2(reader_bytes as f64 / reader_s / 1e6) } else { 0.0 },
        "peak_alloc_bytes": {"median": peak_s.median, "max": max_peak},
        "leaking_shaders": leaks,
        "peak_growing_shaders": growth,
        "thread_retained_bytes": retained,
        "library_exports": library_json,
    });

    if let Some(dir) = &a.cache {
        let dir = (!dir.as_os_str().is_empty()).then_some(dir.as_path());
        let c = bench_cache(&ok, &opts, dir, iterations)?;
        println!(
            "cache: key {:.2} µs, miss {:.2} µs, warm hit {:.2} µs (median){}",
            c["key"]["median_us"].as_f64().unwrap_or(0.0),
            c["miss"]["median_us"].as_f64().unwrap_or(0.0),
            c["warm_hit"]["median_us"].as_f64().unwrap_or(0.0),
            c["disk_hit"]["median_us"].as_f64().map(|d| format!(", disk hit {d:.2} µs")).unwrap_or_default()
        );
        report["cache"] = c;
    }
    if let Some(dir) = &a.pipelines {
        let p = bench_pipelines(dir, iterations)?;
        let mut link: Vec<f64> = p.iter().filter_map(|x| x["link"]["median_us"].as_f64()).collect();
        let mut whole: Vec<f64> = p.iter().filter_map(|x| x["compile_pipeline"]["median_us"].as_f64()).collect();
        let (ls, ws) = (summarize(&mut link), summarize(&mut whole));
        println!(
            "pipelines ({} specs, {} timed; over specs: median, p90, max of each spec's median):",
            p.len(),
            link.len()
        );
        println!("  link             {:9.2} {:9.2} {:9.2} µs", ls.median, ls.p90, ls.max);
        println!("  compile_pipeline {:9.2} {:9.2} {:9.2} µs (all stages + link)", ws.median, ws.p90, ws.max);
        for ph in Phase::ALL {
            let mut v: Vec<f64> = p.iter().filter_map(|x| x["phases"][ph.name()]["median_us"].as_f64()).collect();
            let s = summarize(&mut v);
            println!("    {:14} {:9.2} {:9.2} {:9.2} µs", ph.name(), s.median, s.p90, s.max);
        }
        report["pipelines"] = json!({"specs": p, "link": summary_json(ls), "compile_pipeline": summary_json(ws)});
    }
    if a.device {
        let d = bench_device(&ok, &opts)?;
        println!(
            "device ({}): first dispatch (driver compile + one 1×1×1 dispatch) median {:.0} µs, p90 {:.0} µs, max {:.0} \
             µs over {} shaders ({} failed) — the driver's time, apart from dxjit's",
            d["device"].as_str().unwrap_or("?"),
            d["first_dispatch"]["median_us"].as_f64().unwrap_or(0.0),
            d["first_dispatch"]["p90_us"].as_f64().unwrap_or(0.0),
            d["first_dispatch"]["max_us"].as_f64().unwrap_or(0.0),
            d["timed"],
            d["failed"]
        );
        report["device"] = d;
    }
    report["failures"] = Value::Array(failures);
    if let Some(p) = &a.compare {
        compare(&report, p)?;
    }
    if let Some(p) = &a.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(p, text + "\n").map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}
