//! The code-changing pipeline-state options over the corpus shaders they concern, every module
//! spirv-val clean:
//!
//! - `subgroup_size`: every corpus shader that reads `WaveGetLaneCount` or declares
//!   `[WaveSize]`, compiled for several pipelines (exactly 8, exactly 32, 4..=128, 16..=64):
//!   `WaveGetLaneCount` becomes a constant (no `SubgroupSize` built-in left) when the size is
//!   known, the reported required size lies in both the shader's and the pipeline's range, and
//!   a shader whose sizes the pipeline lacks is refused naming its `[WaveSize]` and the range.

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
