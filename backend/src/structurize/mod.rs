//! Structured control flow: turns a function's reducible, unstructured CFG
//! into a [`tree::StructuredFunction`].

pub mod tree;
pub use tree::{Cond, Node, StructuredFunction, VarId};
