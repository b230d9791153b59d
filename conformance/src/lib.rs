//! dxjit conformance: corpus access, data-driven suites and reference checks.

pub mod compile_tally;
pub mod corpus;
pub mod dxjit_ref;
pub mod refmodel;
pub mod runner;
pub mod spirv_val;
