//! The phases of a compile and their wall-time clock ([`Phase`], [`PhaseTimes`]). The compile
//! driver (`compile`) and lowering (`lower`) mark the end of each phase on a `PhaseClock`; `()`
//! ignores the marks, so an untimed compile pays nothing.

/// The phases of one compile, in pipeline order (see [`crate::compile_with_stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// DXBC container parse and DXIL part lookup.
    Container,
    /// Bitcode reader and IR build.
    Bitcode,
    /// DXIL metadata the compile needs (entry point, resources, properties).
    Metadata,
    /// The verifier ([`crate::verify`]): the module's rules and D3D12's limits, before lowering.
    Verify,
    /// Control-flow analysis and structurization.
    Structurize,
    /// Lowering of the structured IR to SPIR-V instructions.
    Lowering,
    /// Module assembly into SPIR-V words and the shader's interface.
    Assembly,
    /// PSO-time linking of the stages' signatures (pipelines only, see [`crate::compile_pipeline_with_stats`]).
    Link,
}

impl Phase {
    pub const COUNT: usize = 8;
    pub const ALL: [Phase; Phase::COUNT] = [
        Phase::Container,
        Phase::Bitcode,
        Phase::Metadata,
        Phase::Verify,
        Phase::Structurize,
        Phase::Lowering,
        Phase::Assembly,
        Phase::Link,
    ];
    /// The phases of one shader's compile: all but [`Phase::Link`], the last of [`Phase::ALL`].
    pub const SHADER: [Phase; Phase::COUNT - 1] = {
        let mut s = [Phase::Container; Phase::COUNT - 1];
        let mut i = 0;
        while i < s.len() {
            s[i] = Phase::ALL[i];
            i += 1;
        }
        s
    };
    pub fn name(self) -> &'static str {
        match self {
            Phase::Container => "container",
            Phase::Bitcode => "bitcode",
            Phase::Metadata => "metadata",
            Phase::Verify => "verify",
            Phase::Structurize => "structurize",
            Phase::Lowering => "lowering",
            Phase::Assembly => "assembly",
            Phase::Link => "link",
        }
    }
}

/// Wall time spent in each [`Phase`] by [`crate::compile_with_stats`] (accumulated:
/// the same value can be passed to several compiles).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    pub nanos: [u64; Phase::COUNT],
}

impl PhaseTimes {
    pub fn get(&self, p: Phase) -> std::time::Duration {
        std::time::Duration::from_nanos(self.nanos[p as usize])
    }
    pub fn total(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.nanos.iter().sum())
    }
}

/// Receives the end of each phase; `()` ignores them, so [`crate::compile()`] pays nothing.
pub(crate) trait PhaseClock {
    fn lap(&mut self, phase: Phase);
}

impl PhaseClock for () {
    #[inline(always)]
    fn lap(&mut self, _: Phase) {}
}

pub(crate) struct Stopwatch<'a> {
    pub(crate) times: &'a mut PhaseTimes,
    pub(crate) last: std::time::Instant,
}

impl PhaseClock for Stopwatch<'_> {
    #[inline]
    fn lap(&mut self, phase: Phase) {
        let now = std::time::Instant::now();
        let d = now.saturating_duration_since(self.last).as_nanos();
        self.times.nanos[phase as usize] += u64::try_from(d).unwrap_or(u64::MAX);
        self.last = now;
    }
}
