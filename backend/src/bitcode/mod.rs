//! Native reader of the LLVM 3.7 bitcode inside DXIL, straight into
//! [`crate::ir`]. Pure Rust, no LLVM. It supports what DXC emits and rejects
//! anything else with an error naming it.

pub mod bitstream;
pub mod error;
mod reader;

pub use error::{BitcodeError, ErrorKind};
pub use reader::read_module;
