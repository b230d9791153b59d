//! The code-changing pipeline-state options over the corpus shaders they concern, every module
//! spirv-val clean:
//!
//! - `subgroup_size`: every corpus shader that reads `WaveGetLaneCount` or declares
//!   `[WaveSize]`, compiled for several pipelines (exactly 8, exactly 32, 4..=128, 16..=64):
//!   `WaveGetLaneCount` becomes a constant (no `SubgroupSize` built-in left) when the size is
//!   known, the reported required size lies in both the shader's and the pipeline's range, and
//!   a shader whose sizes the pipeline lacks is refused naming its `[WaveSize]` and the range.
//! - `native_min_precision`: every corpus shader with min-precision types, compiled both ways:
//!   at 32 bits (the default) no 16-bit capability is declared and the `half` results are
//!   `RelaxedPrecision`; as native 16-bit types `Float16`/`Int16` are declared and nothing is
//!   relaxed; the stage interface (every Input/Output variable's type and Location) is the same.

use std::panic::{catch_unwind, AssertUnwindSafe};

use dxjit::{compile, CompileError, CompileOptions, SubgroupSizeRange};
use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::spirv_val;

/// Whether a module decorates a variable `BuiltIn builtin`.
fn has_builtin(words: &[u32], builtin: u32) -> bool {
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        if words[i] & 0xffff == 71 && n == 4 && words.get(i + 2) == Some(&11) && words.get(i + 3) == Some(&builtin) {
            return true;
        }
        i += n.max(1);
    }
    false
}

const SUBGROUP_SIZE: u32 = 36;

#[test]
fn subgroup_size_over_the_corpus() {
    let Some(corpus) = Corpus::for_test("subgroup_size_over_the_corpus") else { return };
    let ranges = [
        SubgroupSizeRange::exactly(8),
        SubgroupSizeRange::exactly(32),
        SubgroupSizeRange { min: 4, max: 128 },
        SubgroupSizeRange { min: 16, max: 64 },
    ];
    let (mut shaders, mut lane_count, mut wave_size, mut compiles, mut valid, mut folded, mut refused) =
        (0, 0, 0, 0, 0, 0, 0);
    let mut problems = Vec::new();
    for (set, e) in corpus.entries() {
        if e.stage == "library" {
            continue;
        }
        let name = format!("{}/{}", set.name, e.dxil_path);
        let Ok(bytes) = std::fs::read(set.path_of(e)) else { continue };
        let Ok(Ok(plain)) = catch_unwind(AssertUnwindSafe(|| compile(&bytes, &CompileOptions::default()))) else {
            continue;
        };
        // The shader's own wave sizes, as reported without a pipeline range.
        let declared = plain.required_subgroup_size;
        let reads_count = has_builtin(&plain.spirv, SUBGROUP_SIZE);
        if declared.is_none() && !reads_count {
            continue;
        }
        shaders += 1;
        lane_count += usize::from(reads_count);
        wave_size += usize::from(declared.is_some());
        for r in ranges {
            let mut opts = CompileOptions::default();
            opts.state.subgroup_size = Some(r);
            match catch_unwind(AssertUnwindSafe(|| compile(&bytes, &opts))) {
                Ok(Ok(cs)) => {
                    compiles += 1;
                    match spirv_val::validate(&cs.spirv) {
                        Ok(()) => valid += 1,
                        Err(m) => problems.push(format!("{name} {r:?}: {m}")),
                    }
                    let known = cs.required_subgroup_size.or((r.min == r.max).then_some(r.min));
                    if let Some(n) = cs.required_subgroup_size {
                        if !(r.min..=r.max).contains(&n) {
                            problems.push(format!("{name} {r:?}: required size {n} outside the pipeline's"));
                        }
                    }
                    if declared.is_some() != cs.required_subgroup_size.is_some() {
                        problems.push(format!("{name} {r:?}: required {:?}", cs.required_subgroup_size));
                    }
                    match (known, has_builtin(&cs.spirv, SUBGROUP_SIZE)) {
                        (Some(_), true) => problems.push(format!("{name} {r:?}: size known, SubgroupSize still read")),
                        (Some(_), false) if reads_count => folded += 1,
                        (None, false) if reads_count => problems.push(format!("{name} {r:?}: lane count lost")),
                        _ => {}
                    }
                }
                Ok(Err(CompileError::Unsupported { feature, .. })) if feature.starts_with("[WaveSize(") => {
                    refused += 1;
                    let want = format!("on a pipeline running with subgroup sizes {}..={}", r.min, r.max);
                    if declared.is_none() || !feature.ends_with(&want) {
                        problems.push(format!("{name} {r:?}: refused as {feature}"));
                    }
                }
                Ok(Err(e)) => problems.push(format!("{name} {r:?}: compiled without the option, now {e}")),
                Err(_) => problems.push(format!("{name} {r:?}: panic")),
            }
        }
    }
    println!(
        "subgroup_size: {shaders} corpus shaders ({lane_count} read WaveGetLaneCount, {wave_size} declare WaveSize) x \
         {} pipelines: {compiles} compiled, {valid} spirv-val clean, {folded} with WaveGetLaneCount folded, {refused} \
         refused for their WaveSize",
        ranges.len()
    );
    for p in problems.iter().take(30) {
        eprintln!("  {p}");
    }
    assert!(problems.is_empty(), "{} problems", problems.len());
    assert_eq!(valid, compiles);
    assert!(lane_count > 0 && wave_size > 0 && folded > 0 && refused > 0);
}

/// Every Input/Output variable of a module as "storage location type", sorted (type spelled from
/// its declaration: `f32x4`, `u32[3]`, ...).
fn interface(words: &[u32]) -> Vec<String> {
    use std::collections::HashMap;
    let mut types: HashMap<u32, String> = HashMap::new();
    let mut ptrs: HashMap<u32, u32> = HashMap::new();
    let mut locations: HashMap<u32, u32> = HashMap::new();
    let mut builtins: HashMap<u32, u32> = HashMap::new();
    let mut vars = Vec::new();
    let mut consts: HashMap<u32, u32> = HashMap::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        let op = words[i] & 0xffff;
        let w = |k: usize| words.get(i + k).copied().unwrap_or(0);
        let name = |t: &HashMap<u32, String>, id: u32| t.get(&id).cloned().unwrap_or_else(|| format!("%{id}"));
        match op {
            71 if w(2) == 30 => {
                locations.insert(w(1), w(3));
            }
            71 if w(2) == 11 => {
                builtins.insert(w(1), w(3));
            }
            20 => {
                types.insert(w(1), "bool".into());
            }
            21 => {
                types.insert(w(1), format!("{}{}", if w(3) == 1 { "i" } else { "u" }, w(2)));
            }
            22 => {
                types.insert(w(1), format!("f{}", w(2)));
            }
            23 => {
                let e = name(&types, w(2));
                types.insert(w(1), format!("{e}x{}", w(3)));
            }
            28 => {
                let e = name(&types, w(2));
                types.insert(w(1), format!("{e}[{}]", consts.get(&w(3)).copied().unwrap_or(0)));
            }
            30 => {
                let m: Vec<String> = (2..n).map(|k| name(&types, w(k))).collect();
                types.insert(w(1), format!("{{{}}}", m.join(",")));
            }
            32 => {
                ptrs.insert(w(1), w(3));
            }
            43 => {
                consts.insert(w(2), w(3));
            }
            59 if w(3) == 1 || w(3) == 3 => vars.push((w(2), w(3), w(1))),
            _ => {}
        }
        i += n.max(1);
    }
    let mut v: Vec<String> = vars
        .iter()
        .map(|&(id, sc, ptr)| {
            let t = ptrs.get(&ptr).map(|p| types.get(p).cloned().unwrap_or_default()).unwrap_or_default();
            let at = match (locations.get(&id), builtins.get(&id)) {
                (Some(l), _) => format!("location {l}"),
                (None, Some(b)) => format!("builtin {b}"),
                _ => "-".into(),
            };
            format!("{} {at} {t}", if sc == 1 { "in" } else { "out" })
        })
        .collect();
    v.sort();
    v
}

fn count_decorations(words: &[u32], decoration: u32) -> usize {
    let mut i = 5;
    let mut c = 0;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        if words[i] & 0xffff == 71 && words.get(i + 2) == Some(&decoration) {
            c += 1;
        }
        i += n.max(1);
    }
    c
}

const RELAXED_PRECISION: u32 = 0;

#[test]
fn native_min_precision_over_the_corpus() {
    let Some(corpus) = Corpus::for_test("native_min_precision_over_the_corpus") else { return };
    let (mut shaders, mut valid, mut relaxed, mut native16) = (0, 0, 0, 0);
    let mut problems = Vec::new();
    for (set, e) in corpus.entries() {
        if e.stage == "library" {
            continue;
        }
        let name = format!("{}/{}", set.name, e.dxil_path);
        let Ok(bytes) = std::fs::read(set.path_of(e)) else { continue };
        let Some(flags) = (|| {
            let c = dxjit::container::Container::parse(&bytes).ok()?;
            let m = dxjit::bitcode::read_module(c.dxil_program().ok()?.bitcode).ok()?;
            dxjit::dxil::decode(&m).ok()?.main_entry()?.properties.flags
        })() else {
            continue;
        };
        // Min precision: 16-bit types present (bit 5) and not native (bit 23).
        if flags & (1 << 5) == 0 || flags & (1 << 23) != 0 {
            continue;
        }
        shaders += 1;
        let mut native = CompileOptions::default();
        native.state.native_min_precision = true;
        let mut out = Vec::new();
        for (mode, opts) in [("32-bit", CompileOptions::default()), ("native", native)] {
            match catch_unwind(AssertUnwindSafe(|| compile(&bytes, &opts))) {
                Ok(Ok(cs)) => {
                    match spirv_val::validate(&cs.spirv) {
                        Ok(()) => valid += 1,
                        Err(m) => problems.push(format!("{name} ({mode}): {m}")),
                    }
                    out.push(cs);
                }
                Ok(Err(e)) => problems.push(format!("{name} ({mode}): {e}")),
                Err(_) => problems.push(format!("{name} ({mode}): panic")),
            }
        }
        let [wide, narrow] = &out[..] else { continue };
        let sixteen = |c: &dxjit::CompiledShader| c.capabilities.iter().any(|k| k == "Float16" || k == "Int16");
        if sixteen(wide) {
            problems.push(format!("{name}: 16-bit capability at 32 bits: {:?}", wide.capabilities));
        }
        if !sixteen(narrow) {
            problems.push(format!("{name}: no 16-bit capability with native 16-bit types"));
        } else {
            native16 += 1;
        }
        if count_decorations(&narrow.spirv, RELAXED_PRECISION) != 0 {
            problems.push(format!("{name}: RelaxedPrecision on native 16-bit types"));
        }
        if count_decorations(&wide.spirv, RELAXED_PRECISION) > 0 {
            relaxed += 1;
        }
        if interface(&wide.spirv) != interface(&narrow.spirv) {
            problems.push(format!(
                "{name}: stage interface differs: {:?} vs {:?}",
                interface(&wide.spirv),
                interface(&narrow.spirv)
            ));
        }
    }
    println!(
        "native_min_precision: {shaders} min-precision corpus shaders x 2 modes: {valid} spirv-val clean; \
         {relaxed} with RelaxedPrecision results at 32 bits, {native16} with Float16/Int16 natively; stage \
         interfaces identical"
    );
    for p in problems.iter().take(30) {
        eprintln!("  {p}");
    }
    assert!(problems.is_empty(), "{} problems", problems.len());
    assert!(shaders >= 10 && valid == 2 * shaders && relaxed > 0, "{shaders} shaders, {valid} valid");
}
