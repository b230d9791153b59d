//! Control-flow analyses shared by every pass after the reader: the CFG with
//! predecessors and reverse post-order ([`cfg`]), the dominator tree
//! ([`dom`]) and natural loops with the reducibility check ([`loops`]).
//!
//! Everything here is near-linear in the size of the CFG. Dominance queries
//! are O(1) (pre/post numbering of the dominator tree), so passes may ask
//! them inside loops over blocks without the quadratic blow-up that made
//! other translators spend minutes on large shaders.
//!
//! The analyses work on plain node indices (`u32`), so the same code serves
//! the IR's blocks ([`Cfg::of_function`]) and any other graph a pass builds
//! (the structurizer checks its own output with it).

pub mod cfg;
pub mod dom;
pub mod loops;

pub use cfg::{Cfg, CfgError};
pub use dom::DomTree;
pub use loops::{Irreducible, Loops};

/// "No node".
pub const NONE: u32 = u32::MAX;

/// The CFG and dominator tree of functions of one module, computed once by
/// the pass that needs them first (the verifier's dominance check) and taken
/// by a later one (the structurizer) instead of being computed again.
#[derive(Debug, Default)]
pub struct Flows {
    by_func: Vec<Option<(Cfg, DomTree)>>,
    /// What the verifier found that spares lowering walks of its own.
    pub hints: Hints,
}

/// What a pass that walked every instruction of a module (the verifier) found, for lowering's
/// pre-passes: a function with neither an `alloca` nor a PHI declares no variables, and a
/// module without `CreateHandleFromHeap` has no heap handles to describe, so lowering need
/// not walk the function looking for them. Without such a pass ([`Hints::default`]) lowering
/// walks.
#[derive(Debug, Default)]
pub struct Hints {
    /// The module was walked: the other fields say what the walk found.
    pub walked: bool,
    /// The module calls `CreateHandleFromHeap`.
    pub heap_handles: bool,
    /// Functions without an `alloca` or a PHI: bit `k` for function `k` (functions past the
    /// 64th are walked).
    no_locals: u64,
}

impl Hints {
    /// Notes that function `f` has neither an `alloca` nor a PHI.
    pub fn note_no_locals(&mut self, f: crate::ir::FuncId) {
        if f.index() < 64 {
            self.no_locals |= 1 << f.index();
        }
    }

    /// Whether function `f` of `m` is known to have neither an `alloca` nor a PHI.
    pub fn no_locals(&self, m: &crate::ir::Module, f: &crate::ir::Function) -> bool {
        // (Which function `f` is: its place in `m.functions`.)
        let mut bits = if self.walked { self.no_locals } else { 0 };
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if m.functions.get(k).is_some_and(|g| std::ptr::eq(g, f)) {
                return true;
            }
        }
        false
    }

    /// Whether the module may have heap handles (unknown without a walk).
    pub fn may_have_heap_handles(&self) -> bool {
        !self.walked || self.heap_handles
    }
}

impl Flows {
    pub fn insert(&mut self, f: crate::ir::FuncId, cfg: Cfg, dom: DomTree) {
        if self.by_func.len() <= f.index() {
            self.by_func.resize_with(f.index() + 1, || None);
        }
        self.by_func[f.index()] = Some((cfg, dom));
    }
    /// Function `f`'s CFG and dominator tree, if they were computed (once: they are moved out).
    pub fn take(&mut self, f: crate::ir::FuncId) -> Option<(Cfg, DomTree)> {
        self.by_func.get_mut(f.index()).and_then(Option::take)
    }
}
