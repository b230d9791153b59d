//! Structured control flow: turns a function's reducible, unstructured CFG
//! into a [`tree::StructuredFunction`] whose constructs map 1:1 onto SPIR-V
//! structured constructs.
//!
//! # Algorithm
//!
//! Near-linear, dominator-tree based, in the spirit of Ramsey's "Beyond
//! Relooper" (JFP 2022) and the WebAssembly stackifier, adapted to SPIR-V:
//!
//! 1. **Analysis** ([`crate::analysis`]): CFG, reverse post-order (RPO),
//!    dominator tree, natural-loop forest. A retreating edge to a block that
//!    does not dominate its source means the CFG is irreducible:
//!    [`StructurizeError::Irreducible`]. Unreachable blocks are dropped.
//! 2. **Placement**: every reachable block `b` is placed under its immediate
//!    dominator `d`, except that a loop exit is hoisted out: if some loop
//!    contains `d` but not `b`, `b` is placed *after* the outermost such loop
//!    (so code after a loop never runs inside it, which would change
//!    convergence for barriers and wave ops). A block is *labelled* (reached
//!    by a branch) when it has two or more forward predecessors or was
//!    hoisted; otherwise it is inlined at its single predecessor's branch.
//! 3. **Stackify** ([`stackify`]): `tree(x)` = `Loop { body(x) }` for a loop
//!    header, else `body(x)`; `body(x)` = regions for x's labelled children
//!    in RPO order — the one with the highest RPO outermost — around x's code
//!    and terminator, each region followed by the child's own tree (Ramsey's
//!    `nodeWithin`). Branches: back edge → `Continue`-to-header, to a
//!    labelled block → exit its region, otherwise inline the target's tree
//!    (in an `If`/`Switch` arm, or flat after an unconditional branch). Phis
//!    become `PhiCopy` before each branch. Sequences are kept flat (regions
//!    are begin/end markers), so chains of merges cost no recursion.
//! 4. **Resolve** ([`resolve`]): a SPIR-V `Break` leaves only the innermost
//!    loop/switch, `Continue` targets only the innermost loop. Each
//!    multi-level branch becomes: nothing (falls through), `Continue`,
//!    `Break` (the innermost construct is followed by the target) or a ladder
//!    step (`SetVar(v,k); Break`, and `if v == k` after the construct repeats
//!    the branch one level out). A region becomes a [`Node::Scope`] (a
//!    switch with only a default) only when a branch to it cannot be resolved
//!    otherwise. DXIL switch fall-through is just a branch from one case's
//!    arm to the next case's block (a merge): it falls through or uses the
//!    switch's break, with a selector variable when the target is further out;
//!    no code is duplicated.
//! 5. **Demote** ([`demote`]): the tree's own CFG (the one lowering emits) is
//!    built, its dominator tree computed, and any instruction with a use its
//!    defining block does not dominate there is listed in
//!    [`StructuredFunction::demote`].
//!
//! Every step is linear apart from dominators (near-linear) and ladders,
//! which cost the number of constructs an exit crosses.

mod demote;
mod resolve;
mod stackify;
pub mod tree;

#[cfg(any(test, feature = "testkit"))]
pub mod spirv_check;
#[cfg(any(test, feature = "testkit"))]
pub mod testkit;
#[cfg(test)]
mod tests;

pub use resolve::MAX_TREE_DEPTH;
pub use stackify::MAX_NESTING;
pub use tree::{Cond, Node, StructuredFunction, VarId};

use crate::analysis::CfgError;
use crate::ir::{BlockId, Function, InstId, InstKind, Module, Value};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StructurizeError {
    #[error("function `{func}` has no body")]
    NoBody { func: String },
    #[error(transparent)]
    Cfg(#[from] CfgError),
    #[error("function `{func}`: irreducible control flow: edge from block {} to block {} enters a loop not through its header", from.0, to.0)]
    Irreducible { func: String, from: BlockId, to: BlockId },
    /// Nesting beyond [`MAX_NESTING`] loops/arms in the input structure or
    /// [`MAX_TREE_DEPTH`] constructs in the output (hostile or pathological input).
    #[error("function `{func}`, block {}: control flow nested deeper than {limit} constructs", block.0)]
    TooDeep { func: String, block: BlockId, limit: u32 },
    #[error("function `{func}`, block {}: a phi has no incoming value for predecessor block {}", block.0, pred.0)]
    BadPhi { func: String, block: BlockId, pred: BlockId },
    #[error("function `{func}`, block {}: structurizer invariant broken: {what}", block.0)]
    Internal { func: String, block: BlockId, what: String },
}

/// Structurizes one function definition.
pub fn structurize(m: &Module, f: &Function) -> Result<StructuredFunction, StructurizeError> {
    structurize_with(m, f, None)
}

/// [`structurize`], given `f`'s CFG and dominator tree where an earlier pass
/// computed them (the verifier: [`crate::analysis::Flows`]).
pub fn structurize_with(
    m: &Module,
    f: &Function,
    flow: Option<(crate::analysis::Cfg, crate::analysis::DomTree)>,
) -> Result<StructuredFunction, StructurizeError> {
    if f.is_declaration || f.blocks.is_empty() {
        return Err(StructurizeError::NoBody { func: f.name.clone() });
    }
    if let Some(sf) = single_block(f) {
        return Ok(sf);
    }
    general_with(m, f, flow)
}

/// The general algorithm (every CFG, no shortcut).
#[cfg(test)]
fn general(m: &Module, f: &Function) -> Result<StructuredFunction, StructurizeError> {
    general_with(m, f, None)
}

fn general_with(
    m: &Module,
    f: &Function,
    flow: Option<(crate::analysis::Cfg, crate::analysis::DomTree)>,
) -> Result<StructuredFunction, StructurizeError> {
    let _ = m; // Lowering-facing API: the module is where types and constants live.
    if f.is_declaration || f.blocks.is_empty() {
        return Err(StructurizeError::NoBody { func: f.name.clone() });
    }
    let shape = stackify::Shape::new(f, flow)?;
    let w = shape.build()?;
    let (root, vars) = resolve::resolve(&shape, &w)?;
    let demote = demote::compute(f, &root);
    Ok(StructuredFunction { root, vars, demote })
}

/// Most shaders are one block ending in `ret` (or `unreachable`): there is
/// no control flow to structure, and the tree is that block and its exit,
/// exactly what [`general`] builds for it. Demoted are only uses of values
/// no instruction of the block defines (malformed IR), as [`general`] does.
fn single_block(f: &Function) -> Option<StructuredFunction> {
    let [blk] = f.blocks.as_slice() else { return None };
    let t = blk.terminator()?;
    let exit = match &f.insts.get(t.index())?.kind {
        InstKind::Ret { value } => Node::Return(*value),
        InstKind::Unreachable => Node::Unreachable,
        _ => return None,
    };
    let outside = |j: InstId| f.insts.get(j.index()).is_none_or(|d| d.block != BlockId(0));
    let mut demote = Vec::new();
    for i in blk.first..t.0 {
        let Some(inst) = f.insts.get(i as usize) else { break };
        if matches!(inst.kind, InstKind::Phi { .. }) {
            continue;
        }
        f.for_each_operand(InstId(i), |v| {
            if let Value::Inst(j) = v {
                if outside(j) {
                    demote.push(j);
                }
            }
        });
    }
    if let Node::Return(Some(Value::Inst(j))) = exit {
        if outside(j) {
            demote.push(j);
        }
    }
    demote.sort_unstable();
    demote.dedup();
    Some(StructuredFunction { root: Node::Seq(vec![Node::Block(BlockId(0)), exit]), vars: 0, demote })
}
