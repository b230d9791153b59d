//! Errors in spec files.

use thiserror::Error;

/// A spec file that cannot be used: what is wrong and where (`resource[1].expect[0].u32[3]`).
#[derive(Debug, Clone, Error, PartialEq)]
#[error("{path}: {message}")]
pub struct SpecError {
    pub path: String,
    pub message: String,
}

impl SpecError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> SpecError {
        SpecError { path: path.into(), message: message.into() }
    }
}
