//! Why a compile fails ([`CompileError`]): malformed input, an unsupported feature (named), a
//! resource the binding model cannot place, or a bug. Shared by every step after the reader.

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The container, bitcode or metadata is broken; the text says where.
    #[error("malformed input: {0}")]
    Malformed(String),
    /// Valid DXIL that dxjit cannot (yet) translate.
    #[error("unsupported: {feature} (function {function}{}, {shader_model})", block.map(|b| format!(", block {b}")).unwrap_or_default())]
    Unsupported { feature: String, function: String, block: Option<u32>, shader_model: String },
    /// The binding model does not place a resource the shader uses (not covered by the root
    /// signature, refused by the callback, or placed where it cannot live).
    #[error("binding: {0}")]
    Binding(#[from] crate::binding::BindError),
    /// A bug in dxjit.
    #[error("internal error: {0}")]
    Internal(String),
}
