//! The bitstream tree the mutators edit: dxjit's own ([`dxjit::bitcode::tree`]), which the
//! workspace's regression tests use too.

pub use dxjit::bitcode::tree::*;
