//! The assembler's state: the module being built, the lookup tables of the
//! passes, and the state of the function body being read.

use super::lexer::Token;
use crate::ir::*;
use std::collections::HashMap;

/// Forward references are `Value::Inst(InstId(FWD_BASE + k))` until the body ends.
pub(super) const FWD_BASE: u32 = 0xF000_0000;

/// A top-level item and where its tokens start and end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ItemKind {
    Target,
    Struct,
    Global,
    Function,
    Attributes,
    NamedMd,
    NumberedMd,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Item {
    pub kind: ItemKind,
    pub start: usize,
    pub end: usize,
}

/// An attribute as a hashable key (strings resolved).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum AttrKey {
    Enum(u32),
    Int(u32, u64),
    Str(String, String),
}

/// A function attachment before metadata ids are known: kind, text id, token.
pub(super) type PendingAttachment = (u32, u64, usize);

pub(super) struct Parser {
    pub toks: Vec<Token>,
    pub pos: usize,
    pub rule: &'static str,
    pub m: Module,
    /// Every non-named type by structure.
    pub type_ids: HashMap<Type, TypeId>,
    /// Named structs, and where each was first used (for "never defined").
    pub named_types: HashMap<String, (TypeId, usize)>,
    pub named_defined: HashMap<String, usize>,
    pub const_ids: HashMap<Const, ConstId>,
    pub global_ids: HashMap<String, GlobalId>,
    pub func_ids: HashMap<String, FuncId>,
    /// Where each global's initialiser starts (token index), if it has one.
    pub global_inits: Vec<(GlobalId, usize)>,
    /// Where each defined function's body starts (token index of `{`) and ends.
    pub bodies: Vec<(FuncId, usize, usize)>,
    /// Parameter names of defined functions, from their headers.
    pub param_names: Vec<Vec<Option<(String, bool)>>>,
    /// Text metadata id → module metadata id.
    pub md_ids: HashMap<u64, MdId>,
    pub md_strings: HashMap<String, MdId>,
    pub md_values: HashMap<(TypeId, Value), MdId>,
    pub kind_ids: HashMap<String, u32>,
    pub group_ids: HashMap<(u32, Vec<AttrKey>), u32>,
    pub text_groups: HashMap<u64, u32>,
    pub next_group: u32,
    pub list_ids: HashMap<Vec<u32>, u32>,
    /// Function attachments `(kind, text id, token)`, resolved with the metadata.
    pub pending_fn_attachments: Vec<(FuncId, Vec<PendingAttachment>)>,
    /// The function whose body is being read.
    pub fs: Option<FnState>,
}

pub(super) struct FnState {
    pub func: Function,
    /// Local keys (`n:name` for names, `u:17` for the unnamed forms) → value.
    pub locals: HashMap<String, Value>,
    pub blocks: HashMap<String, BlockId>,
    /// Forward references: key, the type the use expects, token index.
    pub fwd: Vec<(String, TypeId, usize)>,
}

impl FnState {
    pub fn local_ty(&self, v: Value) -> TypeId {
        match v {
            Value::Arg(i) => self.func.param_tys.get(i as usize).copied().unwrap_or_default(),
            Value::Inst(InstId(i)) if i >= FWD_BASE => {
                self.fwd.get((i - FWD_BASE) as usize).map(|f| f.1).unwrap_or_default()
            }
            Value::Inst(i) => self.func.insts.get(i.index()).map(|x| x.ty).unwrap_or_default(),
            _ => TypeId(0),
        }
    }
}
