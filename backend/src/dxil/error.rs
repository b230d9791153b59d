//! Errors of the DXIL metadata decoder. Every error names the metadata it
//! was reading as a path from the named node down to the field, e.g.
//! `dx.entryPoints[0].signatures.input[2].rows`.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DxilError {
    #[error("named metadata !{name} is missing")]
    MissingNamed { name: &'static str },
    #[error("named metadata !{name} has {found} operands, expected {expected}")]
    NamedArity { name: &'static str, expected: &'static str, found: usize },
    #[error("{what}: metadata reference !{id} is out of range")]
    Dangling { what: String, id: u32 },
    #[error("{what}: expected {expected}, found {found}")]
    WrongKind { what: String, expected: &'static str, found: String },
    #[error("{what}: expected {expected} operands, found {found}")]
    Arity { what: String, expected: String, found: usize },
    #[error("{what}: value {value} is out of range for {range}")]
    OutOfRange { what: String, value: i128, range: &'static str },
    #[error("{what}: {value} is not a valid {ty}")]
    BadEnum { what: String, ty: &'static str, value: u64 },
    #[error("{what}: unknown shader model prefix {prefix:?}")]
    UnknownProfile { what: String, prefix: String },
    #[error("{what}: tag/value list has an odd number of operands ({len})")]
    OddTagList { what: String, len: usize },
    #[error("{what}: tag {tag} appears more than once")]
    DuplicateTag { what: String, tag: u32 },
}
