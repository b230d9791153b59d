//! Errors of the bitcode reader. Every error carries where it happened: the
//! bit offset, the innermost block, the record code and the function.

use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    #[error("unexpected end of bitcode")]
    UnexpectedEof,
    #[error("not LLVM bitcode (bad magic)")]
    BadMagic,
    #[error("invalid abbreviation: {0}")]
    InvalidAbbrev(&'static str),
    #[error("invalid abbreviation id {0}")]
    InvalidAbbrevId(u32),
    #[error("malformed record: {0}")]
    Malformed(&'static str),
    #[error("malformed record: {0}")]
    MalformedOwned(String),
    #[error("reference to undefined type #{0}")]
    BadType(u64),
    #[error("reference to undefined value #{0}")]
    BadValue(u64),
    #[error("reference to undefined basic block #{0}")]
    BadBlock(u64),
    #[error("reference to undefined metadata #{0}")]
    BadMetadata(u64),
    #[error("type mismatch: {0}")]
    TypeMismatch(&'static str),
    #[error("unsupported in DXIL: {0}")]
    Unsupported(String),
    #[error("limit exceeded: {0}")]
    Limit(&'static str),
}

/// A reader error with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitcodeError {
    pub kind: ErrorKind,
    /// Bit offset in the bitcode where reading stopped.
    pub bit: u64,
    /// Innermost block id being read.
    pub block: Option<u32>,
    /// Code of the record being decoded.
    pub record: Option<u32>,
    /// Name of the function whose body was being read.
    pub function: Option<String>,
}

impl std::error::Error for BitcodeError {}

/// LLVM's names for the block ids DXIL uses.
pub fn block_name(id: u32) -> &'static str {
    match id {
        0 => "BLOCKINFO",
        8 => "MODULE_BLOCK",
        9 => "PARAMATTR_BLOCK",
        10 => "PARAMATTR_GROUP_BLOCK",
        11 => "CONSTANTS_BLOCK",
        12 => "FUNCTION_BLOCK",
        13 => "IDENTIFICATION_BLOCK",
        14 => "VALUE_SYMTAB_BLOCK",
        15 => "METADATA_BLOCK",
        16 => "METADATA_ATTACHMENT",
        17 => "TYPE_BLOCK",
        18 => "USELIST_BLOCK",
        21 => "OPERAND_BUNDLE_TAGS_BLOCK",
        22 => "METADATA_KIND_BLOCK",
        _ => "unknown block",
    }
}

impl fmt::Display for BitcodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at bit {} (byte {})", self.kind, self.bit, self.bit / 8)?;
        if let Some(b) = self.block {
            write!(f, " in {} (id {b})", block_name(b))?;
        }
        if let Some(r) = self.record {
            write!(f, ", record code {r}")?;
        }
        if let Some(func) = &self.function {
            write!(f, ", function @{func}")?;
        }
        Ok(())
    }
}

pub type Result<T, E = ErrorKind> = std::result::Result<T, E>;
