//! What compiling many shaders gave, per stage: the tally the
//! `compile_*_corpus` tests share. A compile either gives SPIR-V that passes
//! the test's check, or is rejected as `Unsupported` naming the feature;
//! invalid SPIR-V, malformed corpus input, internal errors (binding errors
//! included: these compiles give no binding model) and panics are failures.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use dxjit::{compile, CompileError, CompileOptions, CompiledShader};

use crate::corpus::Corpus;

/// Outcomes of one stage.
#[derive(Debug, Default, Clone, Copy)]
pub struct StageCounts {
    pub total: usize,
    pub valid: usize,
    pub unsupported: usize,
}

#[derive(Debug, Default)]
pub struct CompileTally {
    pub per_stage: BTreeMap<String, StageCounts>,
    /// Unsupported features as the compiler named them, with how often.
    pub features: BTreeMap<String, usize>,
    pub invalid: Vec<String>,
    pub malformed: Vec<String>,
    pub internal: Vec<String>,
    pub panics: Vec<String>,
    /// Print each unsupported shader as it is recorded.
    pub verbose: bool,
}

impl CompileTally {
    /// A tally that prints unsupported shaders when `DXJIT_VERBOSE` is set.
    pub fn from_env() -> Self {
        CompileTally { verbose: std::env::var_os("DXJIT_VERBOSE").is_some(), ..CompileTally::default() }
    }

    /// Records one compile of `name` under `stage`, as `catch_unwind` returned
    /// it; `check` judges compiled SPIR-V (spirv-val and whatever the test adds).
    pub fn record(
        &mut self,
        stage: &str,
        name: String,
        r: std::thread::Result<Result<CompiledShader, CompileError>>,
        check: impl FnOnce(&CompiledShader) -> Result<(), String>,
    ) {
        let c = self.per_stage.entry(stage.to_string()).or_default();
        c.total += 1;
        match r {
            Err(_) => self.panics.push(name),
            Ok(Ok(cs)) => match check(&cs) {
                Ok(()) => c.valid += 1,
                Err(msg) => self.invalid.push(format!("{name}: {msg}")),
            },
            Ok(Err(CompileError::Unsupported { feature, .. })) => {
                if self.verbose {
                    eprintln!("unsupported {name}: {feature}");
                }
                c.unsupported += 1;
                *self.features.entry(feature).or_default() += 1;
            }
            Ok(Err(CompileError::Malformed(m))) => self.malformed.push(format!("{name}: {m}")),
            Ok(Err(CompileError::Internal(m))) => self.internal.push(format!("{name}: {m}")),
            // No binding model is given here: a binding error would be a bug.
            Ok(Err(e @ CompileError::Binding(_))) => self.internal.push(format!("{name}: {e}")),
        }
    }

    pub fn total(&self) -> usize {
        self.per_stage.values().map(|c| c.total).sum()
    }

    pub fn valid(&self) -> usize {
        self.per_stage.values().map(|c| c.valid).sum()
    }

    pub fn unsupported(&self) -> usize {
        self.per_stage.values().map(|c| c.unsupported).sum()
    }

    /// Valid compiles in percent of all.
    pub fn percent_valid(&self) -> f64 {
        100.0 * self.valid() as f64 / self.total().max(1) as f64
    }

    /// Unsupported features, most frequent first.
    pub fn top_features(&self) -> Vec<(String, usize)> {
        let mut top: Vec<_> = self.features.iter().map(|(f, n)| (f.clone(), *n)).collect();
        top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        top
    }

    /// `feature xN; ...` for the `n` most frequent unsupported features.
    pub fn top(&self, n: usize) -> String {
        self.top_features().iter().take(n).map(|(f, k)| format!("{f} x{k}")).collect::<Vec<_>>().join("; ")
    }

    /// `stage valid/total (N unsupported), ...`.
    pub fn stages(&self) -> String {
        let s: Vec<String> = self
            .per_stage
            .iter()
            .map(|(s, c)| format!("{s} {}/{} ({} unsupported)", c.valid, c.total, c.unsupported))
            .collect();
        s.join(", ")
    }

    /// `N shaders, V compiled+valid (P%) [stages], U unsupported [top 3],
    /// then the failure counts`; the per-stage part only `with_stages`.
    pub fn summary(&self, with_stages: bool) -> String {
        let stages = if with_stages { format!(" [{}]", self.stages()) } else { String::new() };
        format!(
            "{} shaders, {} compiled+valid ({:.1}%){stages}, {} unsupported [{}], \
             {} malformed, {} INVALID, {} internal errors, {} panics",
            self.total(),
            self.valid(),
            self.percent_valid(),
            self.unsupported(),
            self.top(3),
            self.malformed.len(),
            self.invalid.len(),
            self.internal.len(),
            self.panics.len()
        )
    }

    /// Prints each unsupported feature with its count.
    pub fn print_unsupported(&self) {
        for (f, n) in self.top_features() {
            eprintln!("  unsupported x{n}: {f}");
        }
    }

    /// Prints each failure.
    pub fn print_failures(&self) {
        for m in self.invalid.iter().chain(&self.internal).chain(&self.malformed) {
            eprintln!("FAILED {m}");
        }
        for m in &self.panics {
            eprintln!("PANIC {m}");
        }
    }

    /// Fails the test on invalid SPIR-V, a panic, an internal error or a
    /// corpus shader reported malformed.
    pub fn assert_no_failures(&self) {
        assert!(self.invalid.is_empty(), "{} modules fail spirv-val", self.invalid.len());
        assert!(self.panics.is_empty(), "{} compiles panicked", self.panics.len());
        assert!(self.internal.is_empty(), "{} internal errors", self.internal.len());
        assert!(self.malformed.is_empty(), "{} corpus shaders reported malformed", self.malformed.len());
    }
}

/// Compiles every corpus shader of `stages` alone (default options) and
/// tallies the results, `check` judging the SPIR-V. Prints the unsupported
/// features and the failures. `None` (after a `SKIPPED` line naming `test`)
/// without the corpus.
pub fn compile_corpus_stages(
    test: &str,
    stages: &[&str],
    check: impl Fn(&CompiledShader) -> Result<(), String>,
) -> Option<CompileTally> {
    let corpus = Corpus::for_test(test)?;
    let opts = CompileOptions::default();
    let mut t = CompileTally::from_env();
    for (set, e) in corpus.entries().filter(|(_, e)| stages.contains(&e.stage.as_str())) {
        let bytes = std::fs::read(set.path_of(e)).unwrap_or_else(|err| panic!("{}: {err}", e.dxil_path));
        let r = catch_unwind(AssertUnwindSafe(|| compile(&bytes, &opts)));
        t.record(&e.stage, format!("{}/{}", set.name, e.dxil_path), r, &check);
    }
    t.print_unsupported();
    t.print_failures();
    Some(t)
}
