//! dxjit's typed IR of a DXIL module.
//!
//! It is built by [`crate::bitcode`] and consumed by every later pass; no LLVM
//! type survives past the reader. Storage is arenas and indices: the module
//! owns the types, constants, globals, functions and metadata; a function owns
//! its blocks and instructions, whose variable-length operand lists live in
//! per-function pools addressed by [`List`].

pub mod attr;
pub mod diff;
pub mod print;
pub mod types;

use crate::dxil_op::{DxilOp, Overload};
use serde::Serialize;
pub use types::{Type, TypeId, Types};

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// Index into [`Module::globals`].
    GlobalId
);
id_type!(
    /// Index into [`Module::functions`].
    FuncId
);
id_type!(
    /// Index into [`Module::consts`].
    ConstId
);
id_type!(
    /// Index into [`Function::insts`] (instructions are numbered in block order, void ones included).
    InstId
);
id_type!(
    /// Index into [`Function::blocks`].
    BlockId
);
id_type!(
    /// Index into [`Module::metadata`].
    MdId
);

/// A reference to an SSA value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Value {
    Global(GlobalId),
    Function(FuncId),
    Const(ConstId),
    /// The n-th parameter of the enclosing function.
    Arg(u32),
    Inst(InstId),
    /// Metadata passed as a call argument (`metadata !3`).
    Metadata(MdId),
}

/// A slice of one of a function's operand pools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct List {
    pub start: u32,
    pub len: u32,
}

impl List {
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum BinOp {
    Add,
    FAdd,
    Sub,
    FSub,
    Mul,
    FMul,
    UDiv,
    SDiv,
    FDiv,
    URem,
    SRem,
    FRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

impl BinOp {
    pub fn name(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "add",
            FAdd => "fadd",
            Sub => "sub",
            FSub => "fsub",
            Mul => "mul",
            FMul => "fmul",
            UDiv => "udiv",
            SDiv => "sdiv",
            FDiv => "fdiv",
            URem => "urem",
            SRem => "srem",
            FRem => "frem",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            And => "and",
            Or => "or",
            Xor => "xor",
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem)
    }
}

/// Flags on binary operators: `nuw`/`nsw` (add, sub, mul, shl), `exact`
/// (udiv, sdiv, lshr, ashr), or fast-math flags (float ops and fcmp).
pub mod flags {
    pub const NUW: u32 = 1;
    pub const NSW: u32 = 2;
    pub const EXACT: u32 = 1;
    pub const FAST: u32 = 1; // LLVM 3.7 "unsafe algebra"
    pub const NNAN: u32 = 2;
    pub const NINF: u32 = 4;
    pub const NSZ: u32 = 8;
    pub const ARCP: u32 = 16;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    FPTrunc,
    FPExt,
    PtrToInt,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
}

impl CastOp {
    pub fn name(self) -> &'static str {
        use CastOp::*;
        match self {
            Trunc => "trunc",
            ZExt => "zext",
            SExt => "sext",
            FPToUI => "fptoui",
            FPToSI => "fptosi",
            UIToFP => "uitofp",
            SIToFP => "sitofp",
            FPTrunc => "fptrunc",
            FPExt => "fpext",
            PtrToInt => "ptrtoint",
            IntToPtr => "inttoptr",
            BitCast => "bitcast",
            AddrSpaceCast => "addrspacecast",
        }
    }
}

/// Comparison predicates, numbered as LLVM's `CmpInst::Predicate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum CmpPred {
    FFalse,
    FOeq,
    FOgt,
    FOge,
    FOlt,
    FOle,
    FOne,
    FOrd,
    FUno,
    FUeq,
    FUgt,
    FUge,
    FUlt,
    FUle,
    FUne,
    FTrue,
    IEq,
    INe,
    IUgt,
    IUge,
    IUlt,
    IUle,
    ISgt,
    ISge,
    ISlt,
    ISle,
}

impl CmpPred {
    pub fn from_u64(v: u64) -> Option<CmpPred> {
        use CmpPred::*;
        Some(match v {
            0 => FFalse,
            1 => FOeq,
            2 => FOgt,
            3 => FOge,
            4 => FOlt,
            5 => FOle,
            6 => FOne,
            7 => FOrd,
            8 => FUno,
            9 => FUeq,
            10 => FUgt,
            11 => FUge,
            12 => FUlt,
            13 => FUle,
            14 => FUne,
            15 => FTrue,
            32 => IEq,
            33 => INe,
            34 => IUgt,
            35 => IUge,
            36 => IUlt,
            37 => IUle,
            38 => ISgt,
            39 => ISge,
            40 => ISlt,
            41 => ISle,
            _ => return None,
        })
    }
    pub fn is_float(self) -> bool {
        (self as u32) <= CmpPred::FTrue as u32
    }
    /// LLVM's spelling (`oeq`, `slt`, …).
    pub fn name(self) -> &'static str {
        use CmpPred::*;
        match self {
            FFalse => "false",
            FOeq => "oeq",
            FOgt => "ogt",
            FOge => "oge",
            FOlt => "olt",
            FOle => "ole",
            FOne => "one",
            FOrd => "ord",
            FUno => "uno",
            FUeq => "ueq",
            FUgt => "ugt",
            FUge => "uge",
            FUlt => "ult",
            FUle => "ule",
            FUne => "une",
            FTrue => "true",
            IEq => "eq",
            INe => "ne",
            IUgt => "ugt",
            IUge => "uge",
            IUlt => "ult",
            IUle => "ule",
            ISgt => "sgt",
            ISge => "sge",
            ISlt => "slt",
            ISle => "sle",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RmwOp {
    Xchg,
    Add,
    Sub,
    And,
    Nand,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
}

impl RmwOp {
    pub fn name(self) -> &'static str {
        use RmwOp::*;
        match self {
            Xchg => "xchg",
            Add => "add",
            Sub => "sub",
            And => "and",
            Nand => "nand",
            Or => "or",
            Xor => "xor",
            Max => "max",
            Min => "min",
            UMax => "umax",
            UMin => "umin",
        }
    }
}

/// Atomic ordering, numbered as in the bitcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Ordering {
    NotAtomic,
    Unordered,
    Monotonic,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Ordering {
    pub fn name(self) -> &'static str {
        use Ordering::*;
        match self {
            NotAtomic => "notatomic",
            Unordered => "unordered",
            Monotonic => "monotonic",
            Acquire => "acquire",
            Release => "release",
            AcqRel => "acq_rel",
            SeqCst => "seq_cst",
        }
    }
}

/// An instruction. Its result type is [`Inst::ty`] (`void` when it has none).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inst {
    pub kind: InstKind,
    pub ty: TypeId,
    pub block: BlockId,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum InstKind {
    Binary {
        op: BinOp,
        lhs: Value,
        rhs: Value,
        flags: u32,
    },
    Cast {
        op: CastOp,
        value: Value,
    },
    Cmp {
        pred: CmpPred,
        lhs: Value,
        rhs: Value,
        flags: u32,
    },
    Select {
        cond: Value,
        if_true: Value,
        if_false: Value,
    },
    /// Incoming (value, block) pairs in [`Function::phi_pool`].
    Phi {
        incoming: List,
    },
    /// A call; arguments in [`Function::value_pool`]. `attrs` is a 1-based
    /// index into [`Module::attr_lists`] (0: none).
    Call {
        callee: Value,
        fn_ty: TypeId,
        args: List,
        attrs: u32,
        tail: bool,
    },
    /// A call of a `dx.op.*` intrinsic, decoded: the operation, the overload
    /// from the function name, the declared function, and the arguments after
    /// the opcode (in [`Function::value_pool`]; `args[k]` is the op's
    /// parameter k in [`crate::dxil_op::OpInfo::params`]).
    DxOp {
        op: DxilOp,
        overload: Overload,
        callee: FuncId,
        args: List,
    },
    /// `alloca`: `alloc_ty` × `count`.
    Alloca {
        alloc_ty: TypeId,
        count: Value,
        align: u32,
    },
    Load {
        ptr: Value,
        align: u32,
        volatile: bool,
    },
    Store {
        ptr: Value,
        value: Value,
        align: u32,
        volatile: bool,
    },
    /// `getelementptr`: indices in [`Function::value_pool`].
    Gep {
        inbounds: bool,
        source_ty: TypeId,
        base: Value,
        indices: List,
    },
    /// Indices in [`Function::index_pool`].
    ExtractValue {
        agg: Value,
        indices: List,
    },
    InsertValue {
        agg: Value,
        value: Value,
        indices: List,
    },
    ExtractElement {
        vector: Value,
        index: Value,
    },
    InsertElement {
        vector: Value,
        value: Value,
        index: Value,
    },
    ShuffleVector {
        a: Value,
        b: Value,
        mask: Value,
    },
    AtomicRmw {
        op: RmwOp,
        ptr: Value,
        value: Value,
        volatile: bool,
        ordering: Ordering,
        single_thread: bool,
    },
    CmpXchg {
        ptr: Value,
        cmp: Value,
        new: Value,
        volatile: bool,
        success: Ordering,
        failure: Ordering,
        single_thread: bool,
        weak: bool,
    },
    Fence {
        ordering: Ordering,
        single_thread: bool,
    },
    Br {
        target: BlockId,
    },
    CondBr {
        cond: Value,
        if_true: BlockId,
        if_false: BlockId,
    },
    /// Cases (constant, target) in [`Function::case_pool`].
    Switch {
        cond: Value,
        default: BlockId,
        cases: List,
    },
    Ret {
        value: Option<Value>,
    },
    Unreachable,
}

impl InstKind {
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstKind::Br { .. }
                | InstKind::CondBr { .. }
                | InstKind::Switch { .. }
                | InstKind::Ret { .. }
                | InstKind::Unreachable
        )
    }

    /// LLVM's opcode name.
    pub fn opcode_name(&self) -> &'static str {
        match self {
            InstKind::Binary { op, .. } => op.name(),
            InstKind::Cast { op, .. } => op.name(),
            InstKind::Cmp { pred, .. } => {
                if pred.is_float() {
                    "fcmp"
                } else {
                    "icmp"
                }
            }
            InstKind::Select { .. } => "select",
            InstKind::Phi { .. } => "phi",
            InstKind::Call { .. } | InstKind::DxOp { .. } => "call",
            InstKind::Alloca { .. } => "alloca",
            InstKind::Load { .. } => "load",
            InstKind::Store { .. } => "store",
            InstKind::Gep { .. } => "getelementptr",
            InstKind::ExtractValue { .. } => "extractvalue",
            InstKind::InsertValue { .. } => "insertvalue",
            InstKind::ExtractElement { .. } => "extractelement",
            InstKind::InsertElement { .. } => "insertelement",
            InstKind::ShuffleVector { .. } => "shufflevector",
            InstKind::AtomicRmw { .. } => "atomicrmw",
            InstKind::CmpXchg { .. } => "cmpxchg",
            InstKind::Fence { .. } => "fence",
            InstKind::Br { .. } | InstKind::CondBr { .. } => "br",
            InstKind::Switch { .. } => "switch",
            InstKind::Ret { .. } => "ret",
            InstKind::Unreachable => "unreachable",
        }
    }
}

/// A basic block: the instructions `first..end` of its function (contiguous,
/// the last one its terminator).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Block {
    pub first: u32,
    pub end: u32,
}

impl Block {
    pub fn insts(&self) -> impl DoubleEndedIterator<Item = InstId> + ExactSizeIterator {
        (self.first..self.end).map(InstId)
    }
    pub fn terminator(&self) -> Option<InstId> {
        (self.end > self.first).then(|| InstId(self.end - 1))
    }
}

/// A metadata attachment on an instruction (`!dx.precise !0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Attachment {
    pub inst: InstId,
    /// Kind id; its name is in [`Module::md_kinds`].
    pub kind: u32,
    pub md: MdId,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Function {
    pub name: String,
    /// The function type.
    pub ty: TypeId,
    /// The type of the function as a value (pointer to `ty`).
    pub ptr_ty: TypeId,
    pub ret_ty: TypeId,
    pub param_tys: Vec<TypeId>,
    pub is_declaration: bool,
    pub linkage: u32,
    pub callconv: u32,
    /// 1-based index into [`Module::attr_lists`] (0: none).
    pub attrs: u32,
    pub blocks: Vec<Block>,
    pub insts: Vec<Inst>,
    pub value_pool: Vec<Value>,
    pub phi_pool: Vec<(Value, BlockId)>,
    pub case_pool: Vec<(ConstId, BlockId)>,
    pub index_pool: Vec<u32>,
    /// Instruction attachments, in instruction order.
    pub attachments: Vec<Attachment>,
    /// Function-level attachments (kind, node).
    pub fn_attachments: Vec<(u32, MdId)>,
    /// Names of arguments, instructions and blocks, where the bitcode has them.
    pub names: Vec<(LocalName, String)>,
}

/// What a function-local name names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum LocalName {
    Arg(u32),
    Inst(InstId),
    Block(BlockId),
}

/// An LLVM lifetime marker's name (`llvm.lifetime.start`, `llvm.lifetime.end`, with any type
/// suffix): lowering drops such calls, and the verifier holds them to LLVM's signature
/// (`call.intrinsic`).
pub fn is_lifetime_marker(name: &str) -> bool {
    name.starts_with("llvm.lifetime.start") || name.starts_with("llvm.lifetime.end")
}

impl Function {
    pub fn inst(&self, id: InstId) -> &Inst {
        &self.insts[id.index()]
    }
    pub fn values(&self, l: List) -> &[Value] {
        &self.value_pool[l.range()]
    }
    /// The decoded DXIL operation of an instruction, with its arguments after the opcode.
    pub fn dx_op(&self, id: InstId) -> Option<(DxilOp, &[Value])> {
        match &self.inst(id).kind {
            InstKind::DxOp { op, args, .. } => Some((*op, self.values(*args))),
            _ => None,
        }
    }
    pub fn phis(&self, l: List) -> &[(Value, BlockId)] {
        &self.phi_pool[l.range()]
    }
    pub fn cases(&self, l: List) -> &[(ConstId, BlockId)] {
        &self.case_pool[l.range()]
    }
    pub fn indices(&self, l: List) -> &[u32] {
        &self.index_pool[l.range()]
    }
    /// Successor blocks of a block's terminator.
    pub fn successors(&self, b: BlockId) -> Vec<BlockId> {
        let Some(t) = self.blocks.get(b.index()).and_then(|b| b.terminator()) else { return Vec::new() };
        match &self.inst(t).kind {
            InstKind::Br { target } => vec![*target],
            InstKind::CondBr { if_true, if_false, .. } => vec![*if_true, *if_false],
            InstKind::Switch { default, cases, .. } => {
                let mut v = vec![*default];
                v.extend(self.cases(*cases).iter().map(|c| c.1));
                v
            }
            _ => Vec::new(),
        }
    }
    /// Operands of an instruction, in LLVM operand order, that are values.
    pub fn operands(&self, id: InstId) -> Vec<Value> {
        let mut out = Vec::new();
        self.for_each_operand(id, |v| out.push(v));
        out
    }
    // Inlined into the verifier's per-instruction loops wherever codegen units fall.
    #[inline]
    pub fn for_each_operand(&self, id: InstId, mut f: impl FnMut(Value)) {
        match &self.inst(id).kind {
            InstKind::Binary { lhs, rhs, .. } | InstKind::Cmp { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs)
            }
            InstKind::Cast { value, .. } => f(*value),
            InstKind::Select { cond, if_true, if_false } => {
                f(*cond);
                f(*if_true);
                f(*if_false)
            }
            InstKind::Phi { incoming } => self.phis(*incoming).iter().for_each(|p| f(p.0)),
            InstKind::Call { callee, args, .. } => {
                f(*callee);
                self.values(*args).iter().for_each(|v| f(*v))
            }
            InstKind::DxOp { callee, args, .. } => {
                f(Value::Function(*callee));
                self.values(*args).iter().for_each(|v| f(*v))
            }
            InstKind::Alloca { count, .. } => f(*count),
            InstKind::Load { ptr, .. } => f(*ptr),
            InstKind::Store { ptr, value, .. } => {
                f(*value);
                f(*ptr)
            }
            InstKind::Gep { base, indices, .. } => {
                f(*base);
                self.values(*indices).iter().for_each(|v| f(*v))
            }
            InstKind::ExtractValue { agg, .. } => f(*agg),
            InstKind::InsertValue { agg, value, .. } => {
                f(*agg);
                f(*value)
            }
            InstKind::ExtractElement { vector, index } => {
                f(*vector);
                f(*index)
            }
            InstKind::InsertElement { vector, value, index } => {
                f(*vector);
                f(*value);
                f(*index)
            }
            InstKind::ShuffleVector { a, b, mask } => {
                f(*a);
                f(*b);
                f(*mask)
            }
            InstKind::AtomicRmw { ptr, value, .. } => {
                f(*ptr);
                f(*value)
            }
            InstKind::CmpXchg { ptr, cmp, new, .. } => {
                f(*ptr);
                f(*cmp);
                f(*new)
            }
            InstKind::CondBr { cond, .. } => f(*cond),
            InstKind::Switch { cond, .. } => f(*cond),
            InstKind::Ret { value: Some(v) } => f(*v),
            InstKind::Fence { .. } | InstKind::Br { .. } | InstKind::Ret { value: None } | InstKind::Unreachable => {}
        }
    }
}

/// A module-level constant.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Const {
    pub ty: TypeId,
    pub kind: ConstKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum ConstKind {
    /// Integer of width ≤ 64, zero-extended bits (masked to the width).
    Int(u64),
    /// Wider integers: 64-bit words, least significant first.
    WideInt(Vec<u64>),
    /// Float bits of the type's width (half: 16, float: 32, double: 64).
    Float(u64),
    /// `null` / `zeroinitializer` / integer or float zero as the bitcode wrote it.
    Null,
    Undef,
    /// Arrays, structs, vectors by element.
    Aggregate(Vec<Value>),
    /// `ConstantDataArray`/`Vector` and strings: element bits (ints masked, floats as bits).
    Data(Vec<u64>),
    Expr(ConstExpr),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum ConstExpr {
    Binary { op: BinOp, lhs: Value, rhs: Value, flags: u32 },
    Cast { op: CastOp, value: Value },
    Gep { inbounds: bool, source_ty: TypeId, base: Value, indices: Vec<Value> },
    Select { cond: Value, if_true: Value, if_false: Value },
    Cmp { pred: CmpPred, lhs: Value, rhs: Value },
    ExtractElement { vector: Value, index: Value },
    InsertElement { vector: Value, value: Value, index: Value },
    ShuffleVector { a: Value, b: Value, mask: Value },
}

impl Const {
    /// The value as a signed integer of its type's width, for `Int` constants.
    pub fn as_int(&self, types: &Types) -> Option<i64> {
        let ConstKind::Int(v) = self.kind else {
            if self.kind == ConstKind::Null && types.get(self.ty).is_int() {
                return Some(0);
            }
            return None;
        };
        let bits = types.get(self.ty).scalar_bits().unwrap_or(64);
        Some(sign_extend(v, bits))
    }
    /// The value as an unsigned integer, for `Int` (and integer `Null`) constants.
    pub fn as_uint(&self, types: &Types) -> Option<u64> {
        match self.kind {
            ConstKind::Int(v) => Some(v),
            ConstKind::Null if types.get(self.ty).is_int() => Some(0),
            _ => None,
        }
    }
}

pub fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        v as i64
    } else {
        let shift = 64 - bits;
        ((v << shift) as i64) >> shift
    }
}

pub fn mask_bits(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Global {
    pub name: String,
    /// The type of the global's contents.
    pub value_ty: TypeId,
    /// The type of the global as a value (pointer to `value_ty`).
    pub ptr_ty: TypeId,
    pub addr_space: u32,
    pub is_const: bool,
    pub init: Option<Value>,
    pub linkage: u32,
    pub align: u32,
    pub thread_local: u32,
    pub unnamed_addr: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Metadata {
    /// A metadata string, in [`Module::strings`].
    String(Str),
    /// A tuple; its operands are [`Module::md_ops`]`[ops]` (see [`Module::md_node`]).
    Node {
        distinct: bool,
        ops: List,
    },
    Value {
        ty: TypeId,
        value: Value,
    },
    /// A specialised node (debug info, locations) kept by record code only.
    Other {
        code: u32,
    },
}

/// A span of [`Module::strings`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Str {
    pub start: u32,
    pub len: u32,
}

impl Str {
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// A named metadata node (`!dx.entryPoints = !{!3}`): its name in
/// [`Module::strings`], its operands in [`Module::named_md_ops`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NamedMetadata {
    pub name: Str,
    pub ops: List,
}

/// A named metadata node with its name and operands resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamedMd<'a> {
    pub name: &'a str,
    pub ops: &'a [MdId],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Attribute {
    /// Enum attribute by LLVM 3.7 attribute kind number (18 = nounwind, 20 = readnone, 21 = readonly;
    /// names in [`attr`]).
    Enum(u32),
    Int(u32, u64),
    /// Key and value, in [`Module::strings`].
    Str(Str, Str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AttrGroup {
    pub id: u32,
    /// 0xFFFF_FFFF: function; 0: return value; n: parameter n-1.
    pub index: u32,
    /// The attributes, in [`Module::attrs`].
    pub attrs: List,
}

/// A module. Its variable-length tables (metadata operands, strings,
/// attributes) live in pools addressed by [`List`] and [`Str`], so a module
/// is a handful of allocations, not one per node or string.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Module {
    pub triple: Str,
    pub datalayout: Str,
    pub types: Types,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    pub consts: Vec<Const>,
    pub metadata: Vec<Metadata>,
    /// Operands of all metadata tuples.
    pub md_ops: Vec<Option<MdId>>,
    pub named_metadata: Vec<NamedMetadata>,
    /// Operands of all named metadata.
    pub named_md_ops: Vec<MdId>,
    /// Metadata kind names by kind id.
    pub md_kinds: Vec<(u32, Str)>,
    pub attr_groups: Vec<AttrGroup>,
    /// Attributes of all groups.
    pub attrs: Vec<Attribute>,
    /// Attribute lists: each a list of group ids in [`Module::attr_list_groups`].
    pub attr_lists: Vec<List>,
    pub attr_list_groups: Vec<u32>,
    /// The module's string pool: metadata strings, metadata names, kind
    /// names, attribute strings, triple and data layout.
    pub strings: String,
}

/// The storage of the last module dropped through [`Module::recycle`] on this thread, for
/// the next module read ([`Module::from_spare`], [`Function::push_spare`]): a driver compiles
/// one shader after another on each worker thread, and a module's tables are a few dozen
/// allocations (their growth included) that the next module can reuse.
#[derive(Default)]
struct Spare {
    module: Module,
    functions: Vec<Function>,
}

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::new(Spare::default());
}

/// Largest module storage kept for reuse (bytes of the tables' capacities, roughly).
const MAX_SPARE_BYTES: usize = 4 << 20;
/// Most function shells kept for reuse.
const MAX_SPARE_FUNCTIONS: usize = 64;

impl Function {
    /// A function with no content, reusing a recycled one's storage where this thread has one,
    /// pushed onto `list` and returned to be filled in there (a function is large: it is moved
    /// once, from the spares into the list, rather than through the caller too).
    pub fn push_spare(list: &mut Vec<Function>) -> &mut Function {
        SPARE.with(|s| match s.try_borrow_mut().ok().and_then(|mut s| s.functions.pop()) {
            Some(f) => list.push(f),
            None => list.push(Function::default()),
        });
        let last = list.len() - 1;
        &mut list[last]
    }

    /// Empties every table, keeping their storage. (The destructuring names every field: one
    /// added later must be cleared here too, or the next module would see it.)
    fn clear(&mut self) {
        let Function {
            name,
            ty,
            ptr_ty,
            ret_ty,
            param_tys,
            is_declaration,
            linkage,
            callconv,
            attrs,
            blocks,
            insts,
            value_pool,
            phi_pool,
            case_pool,
            index_pool,
            attachments,
            fn_attachments,
            names,
        } = self;
        name.clear();
        (*ty, *ptr_ty, *ret_ty) = (TypeId::default(), TypeId::default(), TypeId::default());
        param_tys.clear();
        *is_declaration = false;
        (*linkage, *callconv, *attrs) = (0, 0, 0);
        blocks.clear();
        insts.clear();
        value_pool.clear();
        phi_pool.clear();
        case_pool.clear();
        index_pool.clear();
        attachments.clear();
        fn_attachments.clear();
        names.clear();
    }

    fn capacity_bytes(&self) -> usize {
        self.name.capacity()
            + bytes(&self.param_tys)
            + bytes(&self.blocks)
            + bytes(&self.insts)
            + bytes(&self.value_pool)
            + bytes(&self.phi_pool)
            + bytes(&self.case_pool)
            + bytes(&self.index_pool)
            + bytes(&self.attachments)
            + bytes(&self.fn_attachments)
            + bytes(&self.names)
    }
}

/// The bytes a vector holds (its capacity), for the limit on recycled storage.
fn bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

impl Module {
    /// An empty module, reusing the storage of the last module [`Module::recycle`]d on this
    /// thread.
    pub fn from_spare() -> Module {
        SPARE.with(|s| s.try_borrow_mut().ok().map(|mut s| std::mem::take(&mut s.module))).unwrap_or_default()
    }

    /// Drops the module's content and keeps its storage (and its functions' storage) for the
    /// next module read on this thread, unless it is large.
    pub fn recycle(mut self) {
        let fn_bytes: usize = self.functions.iter().map(Function::capacity_bytes).sum();
        let total = fn_bytes
            + self.strings.capacity()
            + bytes(&self.globals)
            + bytes(&self.functions)
            + bytes(&self.consts)
            + bytes(&self.metadata)
            + bytes(&self.md_ops)
            + bytes(&self.types.list);
        if total > MAX_SPARE_BYTES {
            return;
        }
        SPARE.with(|s| {
            let Ok(mut s) = s.try_borrow_mut() else { return };
            // Only this module's shells stay (what is kept is at most its size), pushed last
            // first so that the next module's function k gets this one's function k: compiling
            // the same shader again then allocates nothing for its functions.
            s.functions.clear();
            self.functions.truncate(MAX_SPARE_FUNCTIONS);
            for mut f in self.functions.drain(..).rev() {
                f.clear();
                s.functions.push(f);
            }
            self.clear();
            s.module = self;
        });
    }

    /// Empties every table, keeping their storage (every field named, as in
    /// [`Function::clear`]).
    fn clear(&mut self) {
        let Module {
            triple,
            datalayout,
            types,
            globals,
            functions,
            consts,
            metadata,
            md_ops,
            named_metadata,
            named_md_ops,
            md_kinds,
            attr_groups,
            attrs,
            attr_lists,
            attr_list_groups,
            strings,
        } = self;
        (*triple, *datalayout) = (Str::default(), Str::default());
        types.clear();
        globals.clear();
        functions.clear();
        consts.clear();
        metadata.clear();
        md_ops.clear();
        named_metadata.clear();
        named_md_ops.clear();
        md_kinds.clear();
        attr_groups.clear();
        attrs.clear();
        attr_lists.clear();
        attr_list_groups.clear();
        strings.clear();
    }

    pub fn konst(&self, id: ConstId) -> &Const {
        &self.consts[id.index()]
    }
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.index()]
    }
    pub fn md(&self, id: MdId) -> &Metadata {
        &self.metadata[id.index()]
    }
    /// A string of the pool ("" for a span outside it).
    pub fn str(&self, s: Str) -> &str {
        self.strings.get(s.range()).unwrap_or("")
    }
    /// Adds a string to the pool.
    pub fn add_str(&mut self, s: &str) -> Str {
        let start = self.strings.len() as u32;
        self.strings.push_str(s);
        Str { start, len: s.len() as u32 }
    }
    pub fn triple(&self) -> &str {
        self.str(self.triple)
    }
    pub fn datalayout(&self) -> &str {
        self.str(self.datalayout)
    }
    /// Operands of a metadata tuple by its list (empty for a list outside the pool).
    pub fn md_ops(&self, l: List) -> &[Option<MdId>] {
        self.md_ops.get(l.start as usize..l.start as usize + l.len as usize).unwrap_or(&[])
    }
    /// Mutable operands of a metadata tuple.
    pub fn md_ops_mut(&mut self, l: List) -> &mut [Option<MdId>] {
        self.md_ops.get_mut(l.start as usize..l.start as usize + l.len as usize).unwrap_or(&mut [])
    }
    /// A new tuple with operands `ops` (not yet added to [`Module::metadata`]).
    pub fn new_md_node(&mut self, distinct: bool, ops: &[Option<MdId>]) -> Metadata {
        let start = self.md_ops.len() as u32;
        self.md_ops.extend_from_slice(ops);
        Metadata::Node { distinct, ops: List { start, len: ops.len() as u32 } }
    }
    /// A new string (not yet added to [`Module::metadata`]).
    pub fn new_md_string(&mut self, s: &str) -> Metadata {
        Metadata::String(self.add_str(s))
    }
    /// Adds a named metadata node.
    pub fn add_named_md(&mut self, name: &str, ops: &[MdId]) {
        let name = self.add_str(name);
        let start = self.named_md_ops.len() as u32;
        self.named_md_ops.extend_from_slice(ops);
        self.named_metadata.push(NamedMetadata { name, ops: List { start, len: ops.len() as u32 } });
    }
    /// A named metadata node resolved.
    pub fn named(&self, n: &NamedMetadata) -> NamedMd<'_> {
        let ops = self.named_md_ops.get(n.ops.start as usize..n.ops.start as usize + n.ops.len as usize);
        NamedMd { name: self.str(n.name), ops: ops.unwrap_or(&[]) }
    }
    /// All named metadata, resolved.
    pub fn named_mds(&self) -> impl Iterator<Item = NamedMd<'_>> {
        self.named_metadata.iter().map(|n| self.named(n))
    }
    pub fn named_md(&self, name: &str) -> Option<NamedMd<'_>> {
        self.named_mds().find(|n| n.name == name)
    }
    /// Attributes of a group.
    pub fn group_attrs(&self, g: &AttrGroup) -> &[Attribute] {
        self.attrs.get(g.attrs.start as usize..g.attrs.start as usize + g.attrs.len as usize).unwrap_or(&[])
    }
    /// Group ids of a 1-based attribute list id (0: none).
    pub fn attr_list(&self, id: u32) -> &[u32] {
        let Some(l) = id.checked_sub(1).and_then(|i| self.attr_lists.get(i as usize)) else { return &[] };
        self.attr_list_groups.get(l.start as usize..l.start as usize + l.len as usize).unwrap_or(&[])
    }
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions.iter().position(|f| f.name == name).map(|i| FuncId(i as u32))
    }
    pub fn md_kind_name(&self, kind: u32) -> Option<&str> {
        self.md_kinds.iter().find(|k| k.0 == kind).map(|k| self.str(k.1))
    }
    /// The type of a value used in `func`.
    pub fn value_type(&self, func: &Function, v: Value) -> TypeId {
        match v {
            Value::Global(g) => self.global(g).ptr_ty,
            Value::Function(f) => self.function(f).ptr_ty,
            Value::Const(c) => self.konst(c).ty,
            Value::Arg(i) => func.param_tys.get(i as usize).copied().unwrap_or_default(),
            Value::Inst(i) => func.inst(i).ty,
            Value::Metadata(_) => self.types.find(&Type::Metadata).unwrap_or_default(),
        }
    }
    /// An integer constant's value, sign-extended from its width.
    pub fn const_int(&self, v: Value) -> Option<i64> {
        match v {
            Value::Const(c) => self.konst(c).as_int(&self.types),
            _ => None,
        }
    }
    /// An integer constant's value, zero-extended.
    pub fn const_uint(&self, v: Value) -> Option<u64> {
        match v {
            Value::Const(c) => self.konst(c).as_uint(&self.types),
            _ => None,
        }
    }
    /// A metadata string.
    pub fn md_string(&self, id: MdId) -> Option<&str> {
        match self.metadata.get(id.index())? {
            Metadata::String(s) => Some(self.str(*s)),
            _ => None,
        }
    }
    /// A metadata tuple's operands.
    pub fn md_node(&self, id: MdId) -> Option<&[Option<MdId>]> {
        match self.metadata.get(id.index())? {
            Metadata::Node { ops, .. } => Some(self.md_ops(*ops)),
            _ => None,
        }
    }
}
