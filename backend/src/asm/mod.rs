//! The DXIL assembler: module text (what `dxjit dis` prints, LLVM 3.7
//! assembly in all but a few spellings; see `docs/asm.md`) → [`ir::Module`]
//! → LLVM 3.7 bitcode ([`crate::bitcode::write_module`]) → a DXBC container
//! ([`container`]).
//!
//! It is a tool for building test shaders, never on the compile path.

mod body;
mod consts;
pub mod error;
mod lexer;
mod parser;

pub use error::AsmError;

use crate::ir::Module;

/// Parses module text into a module. Errors name the line, column and rule.
pub fn parse_module(text: &str) -> Result<Module, AsmError> {
    let toks = lexer::tokenize(text)?;
    let mut p = parser::Parser::new(toks);
    p.run()?;
    Ok(p.m)
}
