//! Errors of the assembler: where (line and column of the text), which rule
//! of the text format was being read, and what is wrong.

/// A malformed or unsupported construct in the module text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {rule}: {message}")]
pub struct AsmError {
    /// 1-based line of the text.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
    /// The rule of the format being read: `token`, `type`, `constant`,
    /// `global`, `function header`, `instruction`, `metadata`, …
    pub rule: &'static str,
    pub message: String,
}

impl AsmError {
    pub fn new(line: u32, col: u32, rule: &'static str, message: impl Into<String>) -> AsmError {
        AsmError { line, col, rule, message: message.into() }
    }
}

pub type Result<T> = std::result::Result<T, AsmError>;
