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
pub mod rdat;
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
    #[error("subobjects: {0}")]
    Subobject(#[from] rdat::SubobjectError),
}

/// A DXBC container of module `m` (its bitcode and the parts its metadata gives). A library
/// gets an `RDAT` part ([`rdat`]) with the subobjects of its `!dx.subobjects`, which, as DXC
/// does, are not kept in the module written into the `DXIL` part.
pub fn container_of(m: &Module, opts: &ContainerOptions) -> Result<Vec<u8>, AssembleError> {
    let info = crate::dxil::decode(m)?;
    if info.shader_model.kind != crate::ShaderKind::Library {
        if m.named_md(rdat::SUBOBJECTS_MD).is_some() {
            return Err(rdat::SubobjectError {
                index: 0,
                name: None,
                rule: "subobjects belong to libraries (lib_6_3 and later), this module is not one".into(),
            }
            .into());
        }
        let bitcode = crate::bitcode::write_module(m)?;
        return Ok(build_container(&info, &bitcode, None, opts));
    }
    let subs = rdat::subobjects(m)?;
    let stripped;
    let m = if m.named_md(rdat::SUBOBJECTS_MD).is_some() {
        stripped = rdat::without_named_md(m, rdat::SUBOBJECTS_MD);
        &stripped
    } else {
        m
    };
    let info = crate::dxil::decode(m)?;
    let bitcode = crate::bitcode::write_module(m)?;
    let runtime_data = rdat::rdat_part(m, &info, &subs);
    Ok(build_container(&info, &bitcode, Some(&runtime_data), opts))
}

/// Module text → DXBC container.
pub fn assemble(text: &str, opts: &ContainerOptions) -> Result<Vec<u8>, AssembleError> {
    container_of(&parse_module(text)?, opts)
}

#[cfg(test)]
mod tests;
