//! The structurizer's output: a structured control-flow tree per function.
//!
//! Lowering emits SPIR-V from this tree, and every construct maps onto a
//! SPIR-V structured construct, so the emitted control flow is valid by
//! construction:
//! - [`Node::If`] → `OpSelectionMerge` + `OpBranchConditional`;
//! - [`Node::Switch`] → `OpSelectionMerge` + `OpSwitch` (no fall-through:
//!   every case body is complete, the structurizer resolves DXIL
//!   fall-through);
//! - [`Node::Loop`] → header with `OpLoopMerge`, the body, a continue block
//!   branching back to the header;
//! - [`Node::Scope`] → `OpSelectionMerge` + `OpSwitch` with only a default
//!   target (a breakable region);
//! - [`Node::Break`] leaves the innermost enclosing `Loop`, `Switch` or `Scope`;
//!   [`Node::Continue`] goes to the continue block of the innermost `Loop`.
//!   Anything else (multi-level exits, exits past a switch out of a loop) is
//!   expressed with structurizer variables ([`Node::SetVar`] and
//!   [`Cond::VarEq`] tests after the construct: "ladders").
//!
//! Phis do not survive: every phi of the original function becomes a
//! variable written by [`Node::PhiCopy`] on each incoming edge and read where
//! the phi was. Values whose definition no longer dominates a use in the
//! structured control flow are listed in [`StructuredFunction::demote`]:
//! lowering keeps those in variables too.

use crate::ir::{BlockId, ConstId, InstId, Value};

/// A variable introduced by the structurizer (a small integer selector).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VarId(pub u32);

#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    /// An `i1` value of the function.
    Value(Value),
    /// `var == k`.
    VarEq(VarId, u32),
    /// Negation.
    Not(Box<Cond>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// Nodes run in order.
    Seq(Vec<Node>),
    /// The instructions of an original block, except its phis and terminator.
    Block(BlockId),
    If {
        cond: Cond,
        then_: Box<Node>,
        else_: Box<Node>,
    },
    /// `selector` is an integer value of the function; case labels are the
    /// switch's constants. A case body that ends without an explicit exit
    /// leaves the switch (no fall-through).
    Switch {
        selector: Value,
        cases: Vec<(Vec<ConstId>, Node)>,
        default: Box<Node>,
    },
    /// Runs `body` forever; left only through `Break` (or `Return`).
    Loop {
        body: Box<Node>,
    },
    /// A breakable region: runs `body` once; a `Break` inside it (not inside
    /// a nested `Loop`, `Switch` or `Scope`) leaves it. SPIR-V: a switch
    /// construct with only a default target (`OpSelectionMerge %merge None`,
    /// `OpSwitch %int_0 %body`), so a `Continue` of the enclosing loop stays
    /// legal inside it. Added to the tree for forward exits the structure
    /// cannot express by falling through (a branch out of a nested selection
    /// to a merge further out, DXIL switch fall-through into a later case),
    /// which `Switch` could only express with a selector value the module may
    /// not have as a constant.
    Scope {
        body: Box<Node>,
    },
    Break,
    Continue,
    Return(Option<Value>),
    Unreachable,
    /// Writes `value` into the variable standing for phi `phi`.
    PhiCopy {
        phi: InstId,
        value: Value,
    },
    /// Writes a constant into a structurizer variable.
    SetVar {
        var: VarId,
        value: u32,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct StructuredFunction {
    pub root: Node,
    /// Number of structurizer variables (`VarId(0..vars)`), each an `i32`
    /// starting at 0.
    pub vars: u32,
    /// Instructions whose results must live in variables (see module doc).
    pub demote: Vec<InstId>,
}
