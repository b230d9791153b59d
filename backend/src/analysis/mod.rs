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
