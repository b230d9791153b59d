//! The parts of the `dxjit` command line that its tests use directly:
//! `dxjit dis` ([`dis`]), readable forms of SPIR-V ([`emit`]) and batched spirv-val runs
//! ([`batch_val`]).

pub mod batch_val;
pub mod dis;
pub mod emit;
