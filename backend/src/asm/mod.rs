//! The DXIL assembler: module text (what `dxjit dis` prints, LLVM 3.7
//! assembly in all but a few spellings; see `docs/asm.md`) → [`ir::Module`]
//! → LLVM 3.7 bitcode ([`crate::bitcode::write_module`]) → a DXBC container
//! ([`container`]).
//!
//! It is a tool for building test shaders, never on the compile path.
//!
//! [`ir::Module`]: crate::ir::Module

mod body;
mod consts;
pub mod container;
pub mod error;
mod lexer;
mod parser;
mod state;

pub use container::{build_container, ContainerOptions};
pub use error::AsmError;

use crate::bitcode::WriteError;
use crate::dxil::DxilError;
use crate::ir::Module;

/// Parses module text into a module. Errors name the line, column and rule.
pub fn parse_module(text: &str) -> Result<Module, AsmError> {
    let toks = lexer::tokenize(text)?;
    let mut p = state::Parser::new(toks);
    p.run()?;
    Ok(p.m)
}

/// Why text could not be assembled into a container.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AssembleError {
    #[error("{0}")]
    Parse(#[from] AsmError),
    #[error("bitcode: {0}")]
    Write(#[from] WriteError),
    #[error("DXIL metadata: {0}")]
    Metadata(#[from] DxilError),
}

/// A DXBC container of module `m` (its bitcode and the parts its metadata gives).
pub fn container_of(m: &Module, opts: &ContainerOptions) -> Result<Vec<u8>, AssembleError> {
    let bitcode = crate::bitcode::write_module(m)?;
    let info = crate::dxil::decode(m)?;
    Ok(build_container(&info, &bitcode, opts))
}

/// Module text → DXBC container.
pub fn assemble(text: &str, opts: &ContainerOptions) -> Result<Vec<u8>, AssembleError> {
    container_of(&parse_module(text)?, opts)
}

#[cfg(test)]
mod tests;
