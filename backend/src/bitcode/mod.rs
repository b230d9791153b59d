//! Native reader of the LLVM 3.7 bitcode inside DXIL, straight into
//! [`crate::ir`]. Pure Rust, no LLVM. It supports what DXC emits and rejects
//! anything else with an error naming it.

// `ok_or_else(|| E::…)` on purpose: `ErrorKind` has owned-string variants,
// so an eagerly built error is dropped (a call) on every successful lookup.
#![allow(clippy::unnecessary_lazy_evaluations)]

pub mod bitstream;
mod bitwriter;
pub mod error;
mod reader;
/// A bitstream as a tree of blocks and records, read and written back unabbreviated: for the
/// fuzzers' record-level mutators and the tests that rebuild their findings.
#[doc(hidden)]
pub mod tree;
pub mod writer;

pub use error::{BitcodeError, ErrorKind};
pub use reader::{read_module, read_module_with_facts, FunctionFacts, ReadFacts, TypeFacts};
pub use writer::{write_module, WriteError};
