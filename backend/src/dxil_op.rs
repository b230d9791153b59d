//! The DXIL operation table: the one place that says what
//! `call @dx.op.<class>.<overload>(i32 opcode, args...)` means.
//!
//! Every DXIL operation is a call to an external function named
//! `dx.op.<class>[.<overload>]` whose first argument is the constant `i32`
//! opcode. [`OPS`] has one [`OpInfo`] per opcode: name, class, allowed
//! overload types, the remaining arguments, return type, function attribute,
//! minimum shader model and shader stages.
//!
//! **Argument positions.** [`OpInfo::params`] does *not* list the leading
//! opcode argument: `params[k]` describes call argument `k + 1`.
//!
//! **Where the facts come from.** DirectXShaderCompiler's
//! `utils/hct/hctdb.py` (opcodes, classes, overloads, parameters,
//! attributes, stage and shader-model rules), cross-checked against
//! `include/dxc/DXIL/DxilConstants.h` (`NumOpCodes_Dxil_1_x`) and
//! `lib/DXIL/DxilOperations.cpp` (class spellings). The region between the
//! `BEGIN GENERATED` / `END GENERATED` markers is written by
//! `backend/tools/gen_dxil_op.py` from the hand-transcribed
//! `backend/tools/dxil_ops.txt` and `backend/tools/dxil_op_rules.txt`; change
//! those and re-run the script rather than editing the table.
//!
//! **Availability.** `min_sm` is hctdb's shader model, raised where needed to
//! the DXIL version that introduced the opcode. `stages` is hctdb's stage list
//! (no list means every stage). Where hctdb is silent but real use is
//! narrower (e.g. `LoadInput` in compute) the permissive set is kept and the
//! op's `doc` says so. For library (`lib_6_x`) programs the stage that
//! matters is that of the calling entry function; the `Library` bit only says
//! whether hctdb allows the op in an export with no stage.

use std::fmt;

use serde::Serialize;

use crate::ShaderKind;
use ShaderKind as K;

/// One overload type of a DXIL operation, as used in the function-name suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Overload {
    /// No overload: the function name has no suffix (`dx.op.barrier`).
    Void,
    Half,
    Float,
    Double,
    I1,
    I8,
    I16,
    I32,
    I64,
    /// A user-defined struct (pointer), suffix is its type name (`struct.Payload`).
    Udt,
    /// A resource object struct (only `CreateHandleForLib`).
    Obj,
}

impl Overload {
    /// All overloads, in bit order.
    pub const ALL: [Overload; 11] = [
        Overload::Void,
        Overload::Half,
        Overload::Float,
        Overload::Double,
        Overload::I1,
        Overload::I8,
        Overload::I16,
        Overload::I32,
        Overload::I64,
        Overload::Udt,
        Overload::Obj,
    ];

    /// This overload's bit in [`Overloads`].
    pub const fn bit(self) -> u16 {
        1 << self as u16
    }

    /// hctdb's one-letter spelling: `v h f d 1 8 w i l u o`.
    pub const fn from_letter(c: u8) -> Option<Overload> {
        Some(match c {
            b'v' => Overload::Void,
            b'h' => Overload::Half,
            b'f' => Overload::Float,
            b'd' => Overload::Double,
            b'1' => Overload::I1,
            b'8' => Overload::I8,
            b'w' => Overload::I16,
            b'i' => Overload::I32,
            b'l' => Overload::I64,
            b'u' => Overload::Udt,
            b'o' => Overload::Obj,
            _ => return None,
        })
    }

    /// The scalar function-name suffix (`"f32"`, `"i1"`, ...). `None` for
    /// `Void` (no suffix) and for `Udt`/`Obj`, whose suffix is a struct name.
    pub const fn suffix(self) -> Option<&'static str> {
        Some(match self {
            Overload::Half => "f16",
            Overload::Float => "f32",
            Overload::Double => "f64",
            Overload::I1 => "i1",
            Overload::I8 => "i8",
            Overload::I16 => "i16",
            Overload::I32 => "i32",
            Overload::I64 => "i64",
            Overload::Void | Overload::Udt | Overload::Obj => return None,
        })
    }

    /// Reads the overload part of a `dx.op.<class>.<suffix>` name.
    ///
    /// `""` and `"void"` are `Void`; `f16 f32 f64 i1 i8 i16 i32 i64` are the
    /// scalars; any other name is taken as a struct type name and reported as
    /// `Udt` (use [`OpInfo::overload_from_suffix`] to tell `Obj` apart).
    /// Scalar-looking names of other widths (`i7`, `f128`) give `None`.
    pub fn from_suffix(s: &str) -> Option<Overload> {
        Some(match s {
            "" | "void" => Overload::Void,
            "f16" => Overload::Half,
            "f32" => Overload::Float,
            "f64" => Overload::Double,
            "i1" => Overload::I1,
            "i8" => Overload::I8,
            "i16" => Overload::I16,
            "i32" => Overload::I32,
            "i64" => Overload::I64,
            _ => {
                let mut chars = s.chars();
                let first = chars.next()?;
                let rest = chars.as_str();
                let scalar_like =
                    (first == 'i' || first == 'f') && !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit());
                if scalar_like {
                    return None;
                }
                Overload::Udt
            }
        })
    }
}

impl fmt::Display for Overload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Overload::Void => "void",
            Overload::Udt => "udt",
            Overload::Obj => "obj",
            o => o.suffix().unwrap_or("?"),
        })
    }
}

/// A set of [`Overload`]s (bit `o as u16` for each member).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Overloads(pub u16);

impl Overloads {
    pub const NONE: Overloads = Overloads(0);

    /// Parses hctdb's overload string (`"hfd"`, `"hfd18wil"`, `"v"`, ...).
    /// Panics (at compile time in const context) on an unknown letter.
    pub const fn from_letters(s: &str) -> Overloads {
        let b = s.as_bytes();
        let mut bits = 0u16;
        let mut i = 0;
        while i < b.len() {
            match Overload::from_letter(b[i]) {
                Some(o) => bits |= o.bit(),
                None => panic!("unknown overload letter"),
            }
            i += 1;
        }
        Overloads(bits)
    }

    pub const fn bits(self) -> u16 {
        self.0
    }

    pub const fn contains(self, o: Overload) -> bool {
        self.0 & o.bit() != 0
    }

    pub const fn union(self, other: Overloads) -> Overloads {
        Overloads(self.0 | other.0)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of overloads in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The members, in bit order.
    pub fn iter(self) -> impl Iterator<Item = Overload> {
        Overload::ALL.into_iter().filter(move |o| self.contains(*o))
    }
}

impl From<Overload> for Overloads {
    fn from(o: Overload) -> Overloads {
        Overloads(o.bit())
    }
}

impl std::ops::BitOr for Overloads {
    type Output = Overloads;
    fn bitor(self, rhs: Overloads) -> Overloads {
        self.union(rhs)
    }
}

impl fmt::Debug for Overloads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Overloads(")?;
        for (i, o) in self.iter().enumerate() {
            if i > 0 {
                f.write_str("|")?;
            }
            write!(f, "{o}")?;
        }
        f.write_str(")")
    }
}

/// The LLVM function attribute DXC puts on the operation's declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum OpAttr {
    /// No attribute: the call has side effects or must stay where it is
    /// (stores, atomics, wave/quad operations, ...).
    None,
    /// `readnone`: a pure function of its arguments.
    ReadNone,
    /// `readonly`: reads memory/resources, writes nothing.
    ReadOnly,
    /// `argmemonly`: touches only memory reachable from pointer arguments.
    ArgMemOnly,
    /// `noduplicate`: barriers.
    NoDuplicate,
    /// `noreturn`: ends the invocation (`IgnoreHit`, `AcceptHitAndEndSearch`).
    NoReturn,
}

impl OpAttr {
    /// True for `ReadNone` and `ReadOnly`: the call may be removed when unused.
    pub const fn is_side_effect_free(self) -> bool {
        matches!(self, OpAttr::ReadNone | OpAttr::ReadOnly)
    }
}

/// Type of an operation argument or result.
///
/// Signedness is not kept: hctdb's `u32`/`u8` are `I32`/`I8` here, as in LLVM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum ParamType {
    /// `void` (results only).
    Void,
    /// The overload type itself (hctdb `$o`).
    Overload,
    I1,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
    /// `float*` to an indexable register (MinPrecXReg ops).
    F32Ptr,
    /// `%dx.types.Handle`.
    Handle,
    /// `%dx.types.ResRet.<overload>`: four values plus a status `i32` (hctdb `$r`).
    ResRet,
    /// `%dx.types.CBufRet.<overload>` (hctdb `$cb`).
    CBufRet,
    /// `%dx.types.four<overload>`, e.g. `fouri32`/`fouri16` (hctdb `$vec4`, `Unpack4x8`).
    FourOverload,
    /// `%dx.types.Dimensions`.
    Dimensions,
    /// `%dx.types.SamplePos`.
    SamplePos,
    /// `%dx.types.splitdouble`.
    SplitDouble,
    /// `%dx.types.fouri32`.
    FourI32,
    /// `%dx.types.twoi32`.
    TwoI32,
    /// `%dx.types.i32c`: an `i32` result plus an `i1` carry/borrow.
    I32WithCarry,
    /// `%dx.types.ResourceProperties` (constant).
    ResourceProperties,
    /// `%dx.types.ResBind` (constant).
    ResBind,
    /// Pointer to a user-defined struct; its type is the overload.
    Udt,
    /// A resource object struct; its type is the overload.
    Obj,
    /// `%dx.types.NodeHandle`.
    NodeHandle,
    /// `%dx.types.NodeRecordHandle`.
    NodeRecordHandle,
    /// `%dx.types.NodeInfo` (constant).
    NodeInfo,
    /// `%dx.types.NodeRecordInfo` (constant).
    NodeRecordInfo,
    /// `%dx.types.waveMatrix*`.
    WaveMatrixPtr,
    /// `%dx.types.waveMatProps`.
    WaveMatProps,
    /// Pointer into a groupshared array of the overload type (hctdb `$gsptr`).
    GroupSharedPtr,
}

impl ParamType {
    /// True when the concrete LLVM type depends on the call's overload.
    pub const fn depends_on_overload(self) -> bool {
        matches!(
            self,
            ParamType::Overload
                | ParamType::ResRet
                | ParamType::CBufRet
                | ParamType::FourOverload
                | ParamType::Udt
                | ParamType::Obj
                | ParamType::GroupSharedPtr
        )
    }

    /// Name of a fixed `dx.types` struct (without `%`), if the type is one.
    /// For `WaveMatrixPtr` this is the pointee.
    pub const fn struct_name(self) -> Option<&'static str> {
        Some(match self {
            ParamType::Handle => "dx.types.Handle",
            ParamType::Dimensions => "dx.types.Dimensions",
            ParamType::SamplePos => "dx.types.SamplePos",
            ParamType::SplitDouble => "dx.types.splitdouble",
            ParamType::FourI32 => "dx.types.fouri32",
            ParamType::TwoI32 => "dx.types.twoi32",
            ParamType::I32WithCarry => "dx.types.i32c",
            ParamType::ResourceProperties => "dx.types.ResourceProperties",
            ParamType::ResBind => "dx.types.ResBind",
            ParamType::NodeHandle => "dx.types.NodeHandle",
            ParamType::NodeRecordHandle => "dx.types.NodeRecordHandle",
            ParamType::NodeInfo => "dx.types.NodeInfo",
            ParamType::NodeRecordInfo => "dx.types.NodeRecordInfo",
            ParamType::WaveMatrixPtr => "dx.types.waveMatrix",
            ParamType::WaveMatProps => "dx.types.waveMatProps",
            _ => return None,
        })
    }

    /// Name of the overload-dependent `dx.types` struct for overload `o`
    /// (`ResRet` + `Float` → `"dx.types.ResRet.f32"`, `FourOverload` + `I16`
    /// → `"dx.types.fouri16"`).
    pub fn overloaded_struct_name(self, o: Overload) -> Option<String> {
        let s = o.suffix()?;
        match self {
            ParamType::ResRet => Some(format!("dx.types.ResRet.{s}")),
            ParamType::CBufRet => Some(format!("dx.types.CBufRet.{s}")),
            ParamType::FourOverload => Some(format!("dx.types.four{s}")),
            _ => None,
        }
    }
}

/// One call argument after the opcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Param {
    /// hctdb's parameter name.
    pub name: &'static str,
    pub ty: ParamType,
    /// The argument must be an immediate constant.
    pub is_const: bool,
}

const fn p(name: &'static str, ty: ParamType) -> Param {
    Param { name, ty, is_const: false }
}

const fn k(name: &'static str, ty: ParamType) -> Param {
    Param { name, ty, is_const: true }
}

/// A set of shader stages: bit `kind as u32` per [`ShaderKind`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct StageMask(pub u32);

impl StageMask {
    pub const NONE: StageMask = StageMask(0);
    /// Every [`ShaderKind`].
    pub const ALL: StageMask = StageMask((1u32 << (ShaderKind::Node as u32 + 1)) - 1);

    pub const fn of(kinds: &[ShaderKind]) -> StageMask {
        let mut bits = 0u32;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1u32 << kinds[i] as u32;
            i += 1;
        }
        StageMask(bits)
    }

    pub const fn bits(self) -> u32 {
        self.0
    }

    pub const fn contains(self, kind: ShaderKind) -> bool {
        self.0 & (1u32 << kind as u32) != 0
    }

    /// The member stages, in `ShaderKind` order.
    pub fn iter(self) -> impl Iterator<Item = ShaderKind> {
        (0..=ShaderKind::Node as u32).filter(move |b| self.0 & (1 << b) != 0).filter_map(ShaderKind::from_u32)
    }
}

impl fmt::Debug for StageMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == StageMask::ALL {
            return f.write_str("StageMask(all)");
        }
        f.write_str("StageMask(")?;
        for (i, s) in self.iter().enumerate() {
            if i > 0 {
                f.write_str("|")?;
            }
            f.write_str(s.name())?;
        }
        f.write_str(")")
    }
}

/// Everything known about one DXIL operation.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct OpInfo {
    pub op: DxilOp,
    /// The DXIL name (`"LoadInput"`).
    pub name: &'static str,
    pub class: OpClass,
    /// Overload types the function may be declared with.
    pub overloads: Overloads,
    /// Arguments after the opcode: `params[k]` is call argument `k + 1`.
    pub params: &'static [Param],
    pub ret: ParamType,
    pub attr: OpAttr,
    /// Minimum shader model `(major, minor)`.
    pub min_sm: (u8, u8),
    /// Stages that may call the op.
    pub stages: StageMask,
    /// hctdb's category, then notes on availability and quirks.
    pub doc: &'static str,
}

impl OpInfo {
    /// True if a `kind` shader of shader model `sm` may use this op.
    pub fn available(&self, kind: ShaderKind, sm: (u8, u8)) -> bool {
        sm >= self.min_sm && self.stages.contains(kind)
    }

    /// Number of call arguments, the opcode included.
    pub fn call_arg_count(&self) -> usize {
        self.params.len() + 1
    }

    /// Reads a function-name suffix for this op: like
    /// [`Overload::from_suffix`], but a struct name becomes `Obj` for ops
    /// that take an object and no UDT. `None` if the op does not allow the
    /// resulting overload.
    pub fn overload_from_suffix(&self, s: &str) -> Option<Overload> {
        let mut o = Overload::from_suffix(s)?;
        if o == Overload::Udt && !self.overloads.contains(Overload::Udt) && self.overloads.contains(Overload::Obj) {
            o = Overload::Obj;
        }
        self.overloads.contains(o).then_some(o)
    }

    /// The declared function name for a scalar or void overload
    /// (`dx.op.bufferLoad.f32`, `dx.op.barrier`). `None` for `Udt`/`Obj`,
    /// whose suffix is the struct's name, and for overloads the op lacks.
    pub fn function_name(&self, o: Overload) -> Option<String> {
        if !self.overloads.contains(o) {
            return None;
        }
        let class = self.class.llvm_name();
        match o {
            Overload::Void => Some(format!("dx.op.{class}")),
            _ => o.suffix().map(|s| format!("dx.op.{class}.{s}")),
        }
    }
}

impl DxilOp {
    /// The op with this opcode, if any.
    pub fn from_u32(v: u32) -> Option<DxilOp> {
        OPS.get(v as usize).map(|i| i.op)
    }

    /// The op with this DXIL name (`"LoadInput"`), if any.
    pub fn from_name(name: &str) -> Option<DxilOp> {
        OPS.iter().find(|i| i.name == name).map(|i| i.op)
    }

    /// Every op, in opcode order.
    pub fn all() -> impl Iterator<Item = DxilOp> {
        OPS.iter().map(|i| i.op)
    }

    pub fn info(self) -> &'static OpInfo {
        &OPS[self as usize]
    }

    /// The DXIL name (`"LoadInput"`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn class(self) -> OpClass {
        self.info().class
    }

    /// See [`OpInfo::available`].
    pub fn available(self, kind: ShaderKind, sm: (u8, u8)) -> bool {
        self.info().available(kind, sm)
    }
}

impl fmt::Display for DxilOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl OpClass {
    /// The ops of this class, in opcode order.
    pub fn ops(self) -> impl Iterator<Item = DxilOp> {
        OPS.iter().filter(move |i| i.class == self).map(|i| i.op)
    }
}

/// Splits a DXIL operation function name into class and overload suffix:
/// `"dx.op.bufferLoad.f32"` → `(BufferLoad, "f32")`,
/// `"dx.op.barrier"` → `(Barrier, "")`,
/// `"dx.op.traceRay.struct.Payload"` → `(TraceRay, "struct.Payload")`.
pub fn split_function_name(name: &str) -> Option<(OpClass, &str)> {
    let rest = name.strip_prefix("dx.op.")?;
    let (class, suffix) = match rest.split_once('.') {
        Some((c, s)) => (c, s),
        None => (rest, ""),
    };
    Some((OpClass::from_llvm_name(class)?, suffix))
}

use ParamType as T;

// ---- BEGIN GENERATED by backend/tools/gen_dxil_op.py; do not edit by hand ----
/// Every DXIL operation, numbered exactly as DXC's `hlsl::OP::OpCode`
/// (DXIL 1.0 to 1.8, i.e. shader models 6.0 to 6.8). Variant names are the
/// DXIL operation names, underscores included.
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[repr(u32)]
pub enum DxilOp {
    /// `dx.op.tempRegLoad` (Temporary, indexable, input, output registers).
    TempRegLoad = 0,
    /// `dx.op.tempRegStore` (Temporary, indexable, input, output registers).
    TempRegStore = 1,
    /// `dx.op.minPrecXRegLoad` (Temporary, indexable, input, output registers).
    MinPrecXRegLoad = 2,
    /// `dx.op.minPrecXRegStore` (Temporary, indexable, input, output registers).
    MinPrecXRegStore = 3,
    /// `dx.op.loadInput` (Temporary, indexable, input, output registers).
    LoadInput = 4,
    /// `dx.op.storeOutput` (Temporary, indexable, input, output registers).
    StoreOutput = 5,
    /// `dx.op.unary` (Unary float).
    FAbs = 6,
    /// `dx.op.unary` (Unary float).
    Saturate = 7,
    /// `dx.op.isSpecialFloat` (Unary float).
    IsNaN = 8,
    /// `dx.op.isSpecialFloat` (Unary float).
    IsInf = 9,
    /// `dx.op.isSpecialFloat` (Unary float).
    IsFinite = 10,
    /// `dx.op.isSpecialFloat` (Unary float).
    IsNormal = 11,
    /// `dx.op.unary` (Unary float).
    Cos = 12,
    /// `dx.op.unary` (Unary float).
    Sin = 13,
    /// `dx.op.unary` (Unary float).
    Tan = 14,
    /// `dx.op.unary` (Unary float).
    Acos = 15,
    /// `dx.op.unary` (Unary float).
    Asin = 16,
    /// `dx.op.unary` (Unary float).
    Atan = 17,
    /// `dx.op.unary` (Unary float).
    Hcos = 18,
    /// `dx.op.unary` (Unary float).
    Hsin = 19,
    /// `dx.op.unary` (Unary float).
    Htan = 20,
    /// `dx.op.unary` (Unary float).
    Exp = 21,
    /// `dx.op.unary` (Unary float).
    Frc = 22,
    /// `dx.op.unary` (Unary float).
    Log = 23,
    /// `dx.op.unary` (Unary float).
    Sqrt = 24,
    /// `dx.op.unary` (Unary float).
    Rsqrt = 25,
    /// `dx.op.unary` (Unary float - rounding).
    Round_ne = 26,
    /// `dx.op.unary` (Unary float - rounding).
    Round_ni = 27,
    /// `dx.op.unary` (Unary float - rounding).
    Round_pi = 28,
    /// `dx.op.unary` (Unary float - rounding).
    Round_z = 29,
    /// `dx.op.unary` (Unary int).
    Bfrev = 30,
    /// `dx.op.unaryBits` (Unary int).
    Countbits = 31,
    /// `dx.op.unaryBits` (Unary int).
    FirstbitLo = 32,
    /// `dx.op.unaryBits` (Unary uint).
    FirstbitHi = 33,
    /// `dx.op.unaryBits` (Unary int).
    FirstbitSHi = 34,
    /// `dx.op.binary` (Binary float).
    FMax = 35,
    /// `dx.op.binary` (Binary float).
    FMin = 36,
    /// `dx.op.binary` (Binary int).
    IMax = 37,
    /// `dx.op.binary` (Binary int).
    IMin = 38,
    /// `dx.op.binary` (Binary uint).
    UMax = 39,
    /// `dx.op.binary` (Binary uint).
    UMin = 40,
    /// `dx.op.binaryWithTwoOuts` (Binary int with two outputs).
    IMul = 41,
    /// `dx.op.binaryWithTwoOuts` (Binary uint with two outputs).
    UMul = 42,
    /// `dx.op.binaryWithTwoOuts` (Binary uint with two outputs).
    UDiv = 43,
    /// `dx.op.binaryWithCarryOrBorrow` (Binary uint with carry or borrow).
    UAddc = 44,
    /// `dx.op.binaryWithCarryOrBorrow` (Binary uint with carry or borrow).
    USubb = 45,
    /// `dx.op.tertiary` (Tertiary float).
    FMad = 46,
    /// `dx.op.tertiary` (Tertiary float).
    Fma = 47,
    /// `dx.op.tertiary` (Tertiary int).
    IMad = 48,
    /// `dx.op.tertiary` (Tertiary uint).
    UMad = 49,
    /// `dx.op.tertiary` (Tertiary int).
    Msad = 50,
    /// `dx.op.tertiary` (Tertiary int).
    Ibfe = 51,
    /// `dx.op.tertiary` (Tertiary uint).
    Ubfe = 52,
    /// `dx.op.quaternary` (Quaternary).
    Bfi = 53,
    /// `dx.op.dot2` (Dot).
    Dot2 = 54,
    /// `dx.op.dot3` (Dot).
    Dot3 = 55,
    /// `dx.op.dot4` (Dot).
    Dot4 = 56,
    /// `dx.op.createHandle` (Resources).
    CreateHandle = 57,
    /// `dx.op.cbufferLoad` (Resources).
    CBufferLoad = 58,
    /// `dx.op.cbufferLoadLegacy` (Resources).
    CBufferLoadLegacy = 59,
    /// `dx.op.sample` (Resources - sample).
    Sample = 60,
    /// `dx.op.sampleBias` (Resources - sample).
    SampleBias = 61,
    /// `dx.op.sampleLevel` (Resources - sample).
    SampleLevel = 62,
    /// `dx.op.sampleGrad` (Resources - sample).
    SampleGrad = 63,
    /// `dx.op.sampleCmp` (Resources - sample).
    SampleCmp = 64,
    /// `dx.op.sampleCmpLevelZero` (Resources - sample).
    SampleCmpLevelZero = 65,
    /// `dx.op.textureLoad` (Resources).
    TextureLoad = 66,
    /// `dx.op.textureStore` (Resources).
    TextureStore = 67,
    /// `dx.op.bufferLoad` (Resources).
    BufferLoad = 68,
    /// `dx.op.bufferStore` (Resources).
    BufferStore = 69,
    /// `dx.op.bufferUpdateCounter` (Resources).
    BufferUpdateCounter = 70,
    /// `dx.op.checkAccessFullyMapped` (Resources).
    CheckAccessFullyMapped = 71,
    /// `dx.op.getDimensions` (Resources).
    GetDimensions = 72,
    /// `dx.op.textureGather` (Resources - gather).
    TextureGather = 73,
    /// `dx.op.textureGatherCmp` (Resources - gather).
    TextureGatherCmp = 74,
    /// `dx.op.texture2DMSGetSamplePosition` (Resources - sample).
    Texture2DMSGetSamplePosition = 75,
    /// `dx.op.renderTargetGetSamplePosition` (Resources - sample).
    RenderTargetGetSamplePosition = 76,
    /// `dx.op.renderTargetGetSampleCount` (Resources - sample).
    RenderTargetGetSampleCount = 77,
    /// `dx.op.atomicBinOp` (Synchronization).
    AtomicBinOp = 78,
    /// `dx.op.atomicCompareExchange` (Synchronization).
    AtomicCompareExchange = 79,
    /// `dx.op.barrier` (Synchronization).
    Barrier = 80,
    /// `dx.op.calculateLOD` (Derivatives).
    CalculateLOD = 81,
    /// `dx.op.discard` (Pixel shader).
    Discard = 82,
    /// `dx.op.unary` (Derivatives).
    DerivCoarseX = 83,
    /// `dx.op.unary` (Derivatives).
    DerivCoarseY = 84,
    /// `dx.op.unary` (Derivatives).
    DerivFineX = 85,
    /// `dx.op.unary` (Derivatives).
    DerivFineY = 86,
    /// `dx.op.evalSnapped` (Pixel shader).
    EvalSnapped = 87,
    /// `dx.op.evalSampleIndex` (Pixel shader).
    EvalSampleIndex = 88,
    /// `dx.op.evalCentroid` (Pixel shader).
    EvalCentroid = 89,
    /// `dx.op.sampleIndex` (Pixel shader).
    SampleIndex = 90,
    /// `dx.op.coverage` (Pixel shader).
    Coverage = 91,
    /// `dx.op.innerCoverage` (Pixel shader).
    InnerCoverage = 92,
    /// `dx.op.threadId` (Compute/Mesh/Amplification/Node shader).
    ThreadId = 93,
    /// `dx.op.groupId` (Compute/Mesh/Amplification/Node shader).
    GroupId = 94,
    /// `dx.op.threadIdInGroup` (Compute/Mesh/Amplification/Node shader).
    ThreadIdInGroup = 95,
    /// `dx.op.flattenedThreadIdInGroup` (Compute/Mesh/Amplification/Node shader).
    FlattenedThreadIdInGroup = 96,
    /// `dx.op.emitStream` (Geometry shader).
    EmitStream = 97,
    /// `dx.op.cutStream` (Geometry shader).
    CutStream = 98,
    /// `dx.op.emitThenCutStream` (Geometry shader).
    EmitThenCutStream = 99,
    /// `dx.op.gsInstanceID` (Geometry shader).
    GSInstanceID = 100,
    /// `dx.op.makeDouble` (Double precision).
    MakeDouble = 101,
    /// `dx.op.splitDouble` (Double precision).
    SplitDouble = 102,
    /// `dx.op.loadOutputControlPoint` (Domain and hull shader).
    LoadOutputControlPoint = 103,
    /// `dx.op.loadPatchConstant` (Domain and hull shader).
    LoadPatchConstant = 104,
    /// `dx.op.domainLocation` (Domain shader).
    DomainLocation = 105,
    /// `dx.op.storePatchConstant` (Hull shader).
    StorePatchConstant = 106,
    /// `dx.op.outputControlPointID` (Hull shader).
    OutputControlPointID = 107,
    /// `dx.op.primitiveID` (Hull, Domain and Geometry shaders).
    PrimitiveID = 108,
    /// `dx.op.cycleCounterLegacy` (Other).
    CycleCounterLegacy = 109,
    /// `dx.op.waveIsFirstLane` (Wave).
    WaveIsFirstLane = 110,
    /// `dx.op.waveGetLaneIndex` (Wave).
    WaveGetLaneIndex = 111,
    /// `dx.op.waveGetLaneCount` (Wave).
    WaveGetLaneCount = 112,
    /// `dx.op.waveAnyTrue` (Wave).
    WaveAnyTrue = 113,
    /// `dx.op.waveAllTrue` (Wave).
    WaveAllTrue = 114,
    /// `dx.op.waveActiveAllEqual` (Wave).
    WaveActiveAllEqual = 115,
    /// `dx.op.waveActiveBallot` (Wave).
    WaveActiveBallot = 116,
    /// `dx.op.waveReadLaneAt` (Wave).
    WaveReadLaneAt = 117,
    /// `dx.op.waveReadLaneFirst` (Wave).
    WaveReadLaneFirst = 118,
    /// `dx.op.waveActiveOp` (Wave).
    WaveActiveOp = 119,
    /// `dx.op.waveActiveBit` (Wave).
    WaveActiveBit = 120,
    /// `dx.op.wavePrefixOp` (Wave).
    WavePrefixOp = 121,
    /// `dx.op.quadReadLaneAt` (Quad Wave Ops).
    QuadReadLaneAt = 122,
    /// `dx.op.quadOp` (Quad Wave Ops).
    QuadOp = 123,
    /// `dx.op.bitcastI16toF16` (Bitcasts with different sizes).
    BitcastI16toF16 = 124,
    /// `dx.op.bitcastF16toI16` (Bitcasts with different sizes).
    BitcastF16toI16 = 125,
    /// `dx.op.bitcastI32toF32` (Bitcasts with different sizes).
    BitcastI32toF32 = 126,
    /// `dx.op.bitcastF32toI32` (Bitcasts with different sizes).
    BitcastF32toI32 = 127,
    /// `dx.op.bitcastI64toF64` (Bitcasts with different sizes).
    BitcastI64toF64 = 128,
    /// `dx.op.bitcastF64toI64` (Bitcasts with different sizes).
    BitcastF64toI64 = 129,
    /// `dx.op.legacyF32ToF16` (Legacy floating-point).
    LegacyF32ToF16 = 130,
    /// `dx.op.legacyF16ToF32` (Legacy floating-point).
    LegacyF16ToF32 = 131,
    /// `dx.op.legacyDoubleToFloat` (Double precision).
    LegacyDoubleToFloat = 132,
    /// `dx.op.legacyDoubleToSInt32` (Double precision).
    LegacyDoubleToSInt32 = 133,
    /// `dx.op.legacyDoubleToUInt32` (Double precision).
    LegacyDoubleToUInt32 = 134,
    /// `dx.op.waveAllOp` (Wave).
    WaveAllBitCount = 135,
    /// `dx.op.wavePrefixOp` (Wave).
    WavePrefixBitCount = 136,
    /// `dx.op.attributeAtVertex` (Pixel shader).
    AttributeAtVertex = 137,
    /// `dx.op.viewID` (Graphics shader).
    ViewID = 138,
    /// `dx.op.rawBufferLoad` (Resources).
    RawBufferLoad = 139,
    /// `dx.op.rawBufferStore` (Resources).
    RawBufferStore = 140,
    /// `dx.op.instanceID` (Raytracing object space uint System Values).
    InstanceID = 141,
    /// `dx.op.instanceIndex` (Raytracing object space uint System Values).
    InstanceIndex = 142,
    /// `dx.op.hitKind` (Raytracing hit uint System Values).
    HitKind = 143,
    /// `dx.op.rayFlags` (Raytracing uint System Values).
    RayFlags = 144,
    /// `dx.op.dispatchRaysIndex` (Ray Dispatch Arguments).
    DispatchRaysIndex = 145,
    /// `dx.op.dispatchRaysDimensions` (Ray Dispatch Arguments).
    DispatchRaysDimensions = 146,
    /// `dx.op.worldRayOrigin` (Ray Vectors).
    WorldRayOrigin = 147,
    /// `dx.op.worldRayDirection` (Ray Vectors).
    WorldRayDirection = 148,
    /// `dx.op.objectRayOrigin` (Ray object space Vectors).
    ObjectRayOrigin = 149,
    /// `dx.op.objectRayDirection` (Ray object space Vectors).
    ObjectRayDirection = 150,
    /// `dx.op.objectToWorld` (Ray Transforms).
    ObjectToWorld = 151,
    /// `dx.op.worldToObject` (Ray Transforms).
    WorldToObject = 152,
    /// `dx.op.rayTMin` (RayT).
    RayTMin = 153,
    /// `dx.op.rayTCurrent` (RayT).
    RayTCurrent = 154,
    /// `dx.op.ignoreHit` (AnyHit Terminals).
    IgnoreHit = 155,
    /// `dx.op.acceptHitAndEndSearch` (AnyHit Terminals).
    AcceptHitAndEndSearch = 156,
    /// `dx.op.traceRay` (Indirect Shader Invocation).
    TraceRay = 157,
    /// `dx.op.reportHit` (Indirect Shader Invocation).
    ReportHit = 158,
    /// `dx.op.callShader` (Indirect Shader Invocation).
    CallShader = 159,
    /// `dx.op.createHandleForLib` (Library create handle from resource struct).
    CreateHandleForLib = 160,
    /// `dx.op.primitiveIndex` (Raytracing object space uint System Values).
    PrimitiveIndex = 161,
    /// `dx.op.dot2AddHalf` (Dot product with accumulate).
    Dot2AddHalf = 162,
    /// `dx.op.dot4AddPacked` (Dot product with accumulate).
    Dot4AddI8Packed = 163,
    /// `dx.op.dot4AddPacked` (Dot product with accumulate).
    Dot4AddU8Packed = 164,
    /// `dx.op.waveMatch` (Wave).
    WaveMatch = 165,
    /// `dx.op.waveMultiPrefixOp` (Wave).
    WaveMultiPrefixOp = 166,
    /// `dx.op.waveMultiPrefixBitCount` (Wave).
    WaveMultiPrefixBitCount = 167,
    /// `dx.op.setMeshOutputCounts` (Mesh shader instructions).
    SetMeshOutputCounts = 168,
    /// `dx.op.emitIndices` (Mesh shader instructions).
    EmitIndices = 169,
    /// `dx.op.getMeshPayload` (Mesh shader instructions).
    GetMeshPayload = 170,
    /// `dx.op.storeVertexOutput` (Mesh shader instructions).
    StoreVertexOutput = 171,
    /// `dx.op.storePrimitiveOutput` (Mesh shader instructions).
    StorePrimitiveOutput = 172,
    /// `dx.op.dispatchMesh` (Amplification shader instructions).
    DispatchMesh = 173,
    /// `dx.op.writeSamplerFeedback` (Sampler Feedback).
    WriteSamplerFeedback = 174,
    /// `dx.op.writeSamplerFeedbackBias` (Sampler Feedback).
    WriteSamplerFeedbackBias = 175,
    /// `dx.op.writeSamplerFeedbackLevel` (Sampler Feedback).
    WriteSamplerFeedbackLevel = 176,
    /// `dx.op.writeSamplerFeedbackGrad` (Sampler Feedback).
    WriteSamplerFeedbackGrad = 177,
    /// `dx.op.allocateRayQuery` (Inline Ray Query).
    AllocateRayQuery = 178,
    /// `dx.op.rayQuery_TraceRayInline` (Inline Ray Query).
    RayQuery_TraceRayInline = 179,
    /// `dx.op.rayQuery_Proceed` (Inline Ray Query).
    RayQuery_Proceed = 180,
    /// `dx.op.rayQuery_Abort` (Inline Ray Query).
    RayQuery_Abort = 181,
    /// `dx.op.rayQuery_CommitNonOpaqueTriangleHit` (Inline Ray Query).
    RayQuery_CommitNonOpaqueTriangleHit = 182,
    /// `dx.op.rayQuery_CommitProceduralPrimitiveHit` (Inline Ray Query).
    RayQuery_CommitProceduralPrimitiveHit = 183,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CommittedStatus = 184,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CandidateType = 185,
    /// `dx.op.rayQuery_StateMatrix` (Inline Ray Query).
    RayQuery_CandidateObjectToWorld3x4 = 186,
    /// `dx.op.rayQuery_StateMatrix` (Inline Ray Query).
    RayQuery_CandidateWorldToObject3x4 = 187,
    /// `dx.op.rayQuery_StateMatrix` (Inline Ray Query).
    RayQuery_CommittedObjectToWorld3x4 = 188,
    /// `dx.op.rayQuery_StateMatrix` (Inline Ray Query).
    RayQuery_CommittedWorldToObject3x4 = 189,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CandidateProceduralPrimitiveNonOpaque = 190,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CandidateTriangleFrontFace = 191,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CommittedTriangleFrontFace = 192,
    /// `dx.op.rayQuery_StateVector` (Inline Ray Query).
    RayQuery_CandidateTriangleBarycentrics = 193,
    /// `dx.op.rayQuery_StateVector` (Inline Ray Query).
    RayQuery_CommittedTriangleBarycentrics = 194,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_RayFlags = 195,
    /// `dx.op.rayQuery_StateVector` (Inline Ray Query).
    RayQuery_WorldRayOrigin = 196,
    /// `dx.op.rayQuery_StateVector` (Inline Ray Query).
    RayQuery_WorldRayDirection = 197,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_RayTMin = 198,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CandidateTriangleRayT = 199,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CommittedRayT = 200,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CandidateInstanceIndex = 201,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CandidateInstanceID = 202,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CandidateGeometryIndex = 203,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CandidatePrimitiveIndex = 204,
    /// `dx.op.rayQuery_StateVector` (Inline Ray Query).
    RayQuery_CandidateObjectRayOrigin = 205,
    /// `dx.op.rayQuery_StateVector` (Inline Ray Query).
    RayQuery_CandidateObjectRayDirection = 206,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CommittedInstanceIndex = 207,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CommittedInstanceID = 208,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CommittedGeometryIndex = 209,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CommittedPrimitiveIndex = 210,
    /// `dx.op.rayQuery_StateVector` (Inline Ray Query).
    RayQuery_CommittedObjectRayOrigin = 211,
    /// `dx.op.rayQuery_StateVector` (Inline Ray Query).
    RayQuery_CommittedObjectRayDirection = 212,
    /// `dx.op.geometryIndex` (Raytracing object space uint System Values, raytracing tier 1.1).
    GeometryIndex = 213,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CandidateInstanceContributionToHitGroupIndex = 214,
    /// `dx.op.rayQuery_StateScalar` (Inline Ray Query).
    RayQuery_CommittedInstanceContributionToHitGroupIndex = 215,
    /// `dx.op.annotateHandle` (Get handle from heap).
    AnnotateHandle = 216,
    /// `dx.op.createHandleFromBinding` (Get handle from heap).
    CreateHandleFromBinding = 217,
    /// `dx.op.createHandleFromHeap` (Get handle from heap).
    CreateHandleFromHeap = 218,
    /// `dx.op.unpack4x8` (Unpacking intrinsics).
    Unpack4x8 = 219,
    /// `dx.op.pack4x8` (Packing intrinsics).
    Pack4x8 = 220,
    /// `dx.op.isHelperLane` (Helper Lanes).
    IsHelperLane = 221,
    /// `dx.op.quadVote` (Quad Wave Ops).
    QuadVote = 222,
    /// `dx.op.textureGatherRaw` (Resources - gather).
    TextureGatherRaw = 223,
    /// `dx.op.sampleCmpLevel` (Resources - sample).
    SampleCmpLevel = 224,
    /// `dx.op.textureStoreSample` (Resources).
    TextureStoreSample = 225,
    /// `dx.op.waveMatrix_Annotate` (WaveMatrix).
    WaveMatrix_Annotate = 226,
    /// `dx.op.waveMatrix_Depth` (WaveMatrix).
    WaveMatrix_Depth = 227,
    /// `dx.op.waveMatrix_Fill` (WaveMatrix).
    WaveMatrix_Fill = 228,
    /// `dx.op.waveMatrix_LoadRawBuf` (WaveMatrix).
    WaveMatrix_LoadRawBuf = 229,
    /// `dx.op.waveMatrix_LoadGroupShared` (WaveMatrix).
    WaveMatrix_LoadGroupShared = 230,
    /// `dx.op.waveMatrix_StoreRawBuf` (WaveMatrix).
    WaveMatrix_StoreRawBuf = 231,
    /// `dx.op.waveMatrix_StoreGroupShared` (WaveMatrix).
    WaveMatrix_StoreGroupShared = 232,
    /// `dx.op.waveMatrix_Multiply` (WaveMatrix).
    WaveMatrix_Multiply = 233,
    /// `dx.op.waveMatrix_Multiply` (WaveMatrix).
    WaveMatrix_MultiplyAccumulate = 234,
    /// `dx.op.waveMatrix_ScalarOp` (WaveMatrix).
    WaveMatrix_ScalarOp = 235,
    /// `dx.op.waveMatrix_Accumulate` (WaveMatrix).
    WaveMatrix_SumAccumulate = 236,
    /// `dx.op.waveMatrix_Accumulate` (WaveMatrix).
    WaveMatrix_Add = 237,
    /// `dx.op.allocateNodeOutputRecords` (Create/Annotate Node Handles).
    AllocateNodeOutputRecords = 238,
    /// `dx.op.getNodeRecordPtr` (Get Pointer to Node Record in Address Space 6).
    GetNodeRecordPtr = 239,
    /// `dx.op.incrementOutputCount` (Work Graph intrinsics).
    IncrementOutputCount = 240,
    /// `dx.op.outputComplete` (Work Graph intrinsics).
    OutputComplete = 241,
    /// `dx.op.getInputRecordCount` (Work Graph intrinsics).
    GetInputRecordCount = 242,
    /// `dx.op.finishedCrossGroupSharing` (Work Graph intrinsics).
    FinishedCrossGroupSharing = 243,
    /// `dx.op.barrierByMemoryType` (Synchronization).
    BarrierByMemoryType = 244,
    /// `dx.op.barrierByMemoryHandle` (Synchronization).
    BarrierByMemoryHandle = 245,
    /// `dx.op.barrierByNodeRecordHandle` (Synchronization).
    BarrierByNodeRecordHandle = 246,
    /// `dx.op.createNodeOutputHandle` (Create/Annotate Node Handles).
    CreateNodeOutputHandle = 247,
    /// `dx.op.indexNodeHandle` (Create/Annotate Node Handles).
    IndexNodeHandle = 248,
    /// `dx.op.annotateNodeHandle` (Create/Annotate Node Handles).
    AnnotateNodeHandle = 249,
    /// `dx.op.createNodeInputRecordHandle` (Create/Annotate Node Handles).
    CreateNodeInputRecordHandle = 250,
    /// `dx.op.annotateNodeRecordHandle` (Create/Annotate Node Handles).
    AnnotateNodeRecordHandle = 251,
    /// `dx.op.nodeOutputIsValid` (Work Graph intrinsics).
    NodeOutputIsValid = 252,
    /// `dx.op.getRemainingRecursionLevels` (Work Graph intrinsics).
    GetRemainingRecursionLevels = 253,
    /// `dx.op.sampleCmpGrad` (Comparison Samples).
    SampleCmpGrad = 254,
    /// `dx.op.sampleCmpBias` (Comparison Samples).
    SampleCmpBias = 255,
    /// `dx.op.startVertexLocation` (Extended Command Information).
    StartVertexLocation = 256,
    /// `dx.op.startInstanceLocation` (Extended Command Information).
    StartInstanceLocation = 257,
}

/// Number of DXIL operations (one past the highest opcode).
pub const NUM_OPS: usize = 258;

/// Operation classes: the ops of one class share one function template,
/// `dx.op.<llvm_name>.<overload>`.
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum OpClass {
    TempRegLoad,
    TempRegStore,
    MinPrecXRegLoad,
    MinPrecXRegStore,
    LoadInput,
    StoreOutput,
    Unary,
    IsSpecialFloat,
    UnaryBits,
    Binary,
    BinaryWithTwoOuts,
    BinaryWithCarryOrBorrow,
    Tertiary,
    Quaternary,
    Dot2,
    Dot3,
    Dot4,
    CreateHandle,
    CBufferLoad,
    CBufferLoadLegacy,
    Sample,
    SampleBias,
    SampleLevel,
    SampleGrad,
    SampleCmp,
    SampleCmpLevelZero,
    TextureLoad,
    TextureStore,
    BufferLoad,
    BufferStore,
    BufferUpdateCounter,
    CheckAccessFullyMapped,
    GetDimensions,
    TextureGather,
    TextureGatherCmp,
    Texture2DMSGetSamplePosition,
    RenderTargetGetSamplePosition,
    RenderTargetGetSampleCount,
    AtomicBinOp,
    AtomicCompareExchange,
    Barrier,
    CalculateLOD,
    Discard,
    EvalSnapped,
    EvalSampleIndex,
    EvalCentroid,
    SampleIndex,
    Coverage,
    InnerCoverage,
    ThreadId,
    GroupId,
    ThreadIdInGroup,
    FlattenedThreadIdInGroup,
    EmitStream,
    CutStream,
    EmitThenCutStream,
    GSInstanceID,
    MakeDouble,
    SplitDouble,
    LoadOutputControlPoint,
    LoadPatchConstant,
    DomainLocation,
    StorePatchConstant,
    OutputControlPointID,
    PrimitiveID,
    CycleCounterLegacy,
    WaveIsFirstLane,
    WaveGetLaneIndex,
    WaveGetLaneCount,
    WaveAnyTrue,
    WaveAllTrue,
    WaveActiveAllEqual,
    WaveActiveBallot,
    WaveReadLaneAt,
    WaveReadLaneFirst,
    WaveActiveOp,
    WaveActiveBit,
    WavePrefixOp,
    QuadReadLaneAt,
    QuadOp,
    BitcastI16toF16,
    BitcastF16toI16,
    BitcastI32toF32,
    BitcastF32toI32,
    BitcastI64toF64,
    BitcastF64toI64,
    LegacyF32ToF16,
    LegacyF16ToF32,
    LegacyDoubleToFloat,
    LegacyDoubleToSInt32,
    LegacyDoubleToUInt32,
    WaveAllOp,
    AttributeAtVertex,
    ViewID,
    RawBufferLoad,
    RawBufferStore,
    InstanceID,
    InstanceIndex,
    HitKind,
    RayFlags,
    DispatchRaysIndex,
    DispatchRaysDimensions,
    WorldRayOrigin,
    WorldRayDirection,
    ObjectRayOrigin,
    ObjectRayDirection,
    ObjectToWorld,
    WorldToObject,
    RayTMin,
    RayTCurrent,
    IgnoreHit,
    AcceptHitAndEndSearch,
    TraceRay,
    ReportHit,
    CallShader,
    CreateHandleForLib,
    PrimitiveIndex,
    Dot2AddHalf,
    Dot4AddPacked,
    WaveMatch,
    WaveMultiPrefixOp,
    WaveMultiPrefixBitCount,
    SetMeshOutputCounts,
    EmitIndices,
    GetMeshPayload,
    StoreVertexOutput,
    StorePrimitiveOutput,
    DispatchMesh,
    WriteSamplerFeedback,
    WriteSamplerFeedbackBias,
    WriteSamplerFeedbackLevel,
    WriteSamplerFeedbackGrad,
    AllocateRayQuery,
    RayQuery_TraceRayInline,
    RayQuery_Proceed,
    RayQuery_Abort,
    RayQuery_CommitNonOpaqueTriangleHit,
    RayQuery_CommitProceduralPrimitiveHit,
    RayQuery_StateScalar,
    RayQuery_StateMatrix,
    RayQuery_StateVector,
    GeometryIndex,
    AnnotateHandle,
    CreateHandleFromBinding,
    CreateHandleFromHeap,
    Unpack4x8,
    Pack4x8,
    IsHelperLane,
    QuadVote,
    TextureGatherRaw,
    SampleCmpLevel,
    TextureStoreSample,
    WaveMatrix_Annotate,
    WaveMatrix_Depth,
    WaveMatrix_Fill,
    WaveMatrix_LoadRawBuf,
    WaveMatrix_LoadGroupShared,
    WaveMatrix_StoreRawBuf,
    WaveMatrix_StoreGroupShared,
    WaveMatrix_Multiply,
    WaveMatrix_ScalarOp,
    WaveMatrix_Accumulate,
    AllocateNodeOutputRecords,
    GetNodeRecordPtr,
    IncrementOutputCount,
    OutputComplete,
    GetInputRecordCount,
    FinishedCrossGroupSharing,
    BarrierByMemoryType,
    BarrierByMemoryHandle,
    BarrierByNodeRecordHandle,
    CreateNodeOutputHandle,
    IndexNodeHandle,
    AnnotateNodeHandle,
    CreateNodeInputRecordHandle,
    AnnotateNodeRecordHandle,
    NodeOutputIsValid,
    GetRemainingRecursionLevels,
    SampleCmpGrad,
    SampleCmpBias,
    StartVertexLocation,
    StartInstanceLocation,
}

impl OpClass {
    /// Every class, in order of the first opcode that uses it.
    pub const ALL: [OpClass; 182] = [
        OpClass::TempRegLoad,
        OpClass::TempRegStore,
        OpClass::MinPrecXRegLoad,
        OpClass::MinPrecXRegStore,
        OpClass::LoadInput,
        OpClass::StoreOutput,
        OpClass::Unary,
        OpClass::IsSpecialFloat,
        OpClass::UnaryBits,
        OpClass::Binary,
        OpClass::BinaryWithTwoOuts,
        OpClass::BinaryWithCarryOrBorrow,
        OpClass::Tertiary,
        OpClass::Quaternary,
        OpClass::Dot2,
        OpClass::Dot3,
        OpClass::Dot4,
        OpClass::CreateHandle,
        OpClass::CBufferLoad,
        OpClass::CBufferLoadLegacy,
        OpClass::Sample,
        OpClass::SampleBias,
        OpClass::SampleLevel,
        OpClass::SampleGrad,
        OpClass::SampleCmp,
        OpClass::SampleCmpLevelZero,
        OpClass::TextureLoad,
        OpClass::TextureStore,
        OpClass::BufferLoad,
        OpClass::BufferStore,
        OpClass::BufferUpdateCounter,
        OpClass::CheckAccessFullyMapped,
        OpClass::GetDimensions,
        OpClass::TextureGather,
        OpClass::TextureGatherCmp,
        OpClass::Texture2DMSGetSamplePosition,
        OpClass::RenderTargetGetSamplePosition,
        OpClass::RenderTargetGetSampleCount,
        OpClass::AtomicBinOp,
        OpClass::AtomicCompareExchange,
        OpClass::Barrier,
        OpClass::CalculateLOD,
        OpClass::Discard,
        OpClass::EvalSnapped,
        OpClass::EvalSampleIndex,
        OpClass::EvalCentroid,
        OpClass::SampleIndex,
        OpClass::Coverage,
        OpClass::InnerCoverage,
        OpClass::ThreadId,
        OpClass::GroupId,
        OpClass::ThreadIdInGroup,
        OpClass::FlattenedThreadIdInGroup,
        OpClass::EmitStream,
        OpClass::CutStream,
        OpClass::EmitThenCutStream,
        OpClass::GSInstanceID,
        OpClass::MakeDouble,
        OpClass::SplitDouble,
        OpClass::LoadOutputControlPoint,
        OpClass::LoadPatchConstant,
        OpClass::DomainLocation,
        OpClass::StorePatchConstant,
        OpClass::OutputControlPointID,
        OpClass::PrimitiveID,
        OpClass::CycleCounterLegacy,
        OpClass::WaveIsFirstLane,
        OpClass::WaveGetLaneIndex,
        OpClass::WaveGetLaneCount,
        OpClass::WaveAnyTrue,
        OpClass::WaveAllTrue,
        OpClass::WaveActiveAllEqual,
        OpClass::WaveActiveBallot,
        OpClass::WaveReadLaneAt,
        OpClass::WaveReadLaneFirst,
        OpClass::WaveActiveOp,
        OpClass::WaveActiveBit,
        OpClass::WavePrefixOp,
        OpClass::QuadReadLaneAt,
        OpClass::QuadOp,
        OpClass::BitcastI16toF16,
        OpClass::BitcastF16toI16,
        OpClass::BitcastI32toF32,
        OpClass::BitcastF32toI32,
        OpClass::BitcastI64toF64,
        OpClass::BitcastF64toI64,
        OpClass::LegacyF32ToF16,
        OpClass::LegacyF16ToF32,
        OpClass::LegacyDoubleToFloat,
        OpClass::LegacyDoubleToSInt32,
        OpClass::LegacyDoubleToUInt32,
        OpClass::WaveAllOp,
        OpClass::AttributeAtVertex,
        OpClass::ViewID,
        OpClass::RawBufferLoad,
        OpClass::RawBufferStore,
        OpClass::InstanceID,
        OpClass::InstanceIndex,
        OpClass::HitKind,
        OpClass::RayFlags,
        OpClass::DispatchRaysIndex,
        OpClass::DispatchRaysDimensions,
        OpClass::WorldRayOrigin,
        OpClass::WorldRayDirection,
        OpClass::ObjectRayOrigin,
        OpClass::ObjectRayDirection,
        OpClass::ObjectToWorld,
        OpClass::WorldToObject,
        OpClass::RayTMin,
        OpClass::RayTCurrent,
        OpClass::IgnoreHit,
        OpClass::AcceptHitAndEndSearch,
        OpClass::TraceRay,
        OpClass::ReportHit,
        OpClass::CallShader,
        OpClass::CreateHandleForLib,
        OpClass::PrimitiveIndex,
        OpClass::Dot2AddHalf,
        OpClass::Dot4AddPacked,
        OpClass::WaveMatch,
        OpClass::WaveMultiPrefixOp,
        OpClass::WaveMultiPrefixBitCount,
        OpClass::SetMeshOutputCounts,
        OpClass::EmitIndices,
        OpClass::GetMeshPayload,
        OpClass::StoreVertexOutput,
        OpClass::StorePrimitiveOutput,
        OpClass::DispatchMesh,
        OpClass::WriteSamplerFeedback,
        OpClass::WriteSamplerFeedbackBias,
        OpClass::WriteSamplerFeedbackLevel,
        OpClass::WriteSamplerFeedbackGrad,
        OpClass::AllocateRayQuery,
        OpClass::RayQuery_TraceRayInline,
        OpClass::RayQuery_Proceed,
        OpClass::RayQuery_Abort,
        OpClass::RayQuery_CommitNonOpaqueTriangleHit,
        OpClass::RayQuery_CommitProceduralPrimitiveHit,
        OpClass::RayQuery_StateScalar,
        OpClass::RayQuery_StateMatrix,
        OpClass::RayQuery_StateVector,
        OpClass::GeometryIndex,
        OpClass::AnnotateHandle,
        OpClass::CreateHandleFromBinding,
        OpClass::CreateHandleFromHeap,
        OpClass::Unpack4x8,
        OpClass::Pack4x8,
        OpClass::IsHelperLane,
        OpClass::QuadVote,
        OpClass::TextureGatherRaw,
        OpClass::SampleCmpLevel,
        OpClass::TextureStoreSample,
        OpClass::WaveMatrix_Annotate,
        OpClass::WaveMatrix_Depth,
        OpClass::WaveMatrix_Fill,
        OpClass::WaveMatrix_LoadRawBuf,
        OpClass::WaveMatrix_LoadGroupShared,
        OpClass::WaveMatrix_StoreRawBuf,
        OpClass::WaveMatrix_StoreGroupShared,
        OpClass::WaveMatrix_Multiply,
        OpClass::WaveMatrix_ScalarOp,
        OpClass::WaveMatrix_Accumulate,
        OpClass::AllocateNodeOutputRecords,
        OpClass::GetNodeRecordPtr,
        OpClass::IncrementOutputCount,
        OpClass::OutputComplete,
        OpClass::GetInputRecordCount,
        OpClass::FinishedCrossGroupSharing,
        OpClass::BarrierByMemoryType,
        OpClass::BarrierByMemoryHandle,
        OpClass::BarrierByNodeRecordHandle,
        OpClass::CreateNodeOutputHandle,
        OpClass::IndexNodeHandle,
        OpClass::AnnotateNodeHandle,
        OpClass::CreateNodeInputRecordHandle,
        OpClass::AnnotateNodeRecordHandle,
        OpClass::NodeOutputIsValid,
        OpClass::GetRemainingRecursionLevels,
        OpClass::SampleCmpGrad,
        OpClass::SampleCmpBias,
        OpClass::StartVertexLocation,
        OpClass::StartInstanceLocation,
    ];

    /// The class as spelled in the function name: `dx.op.<this>.<overload>`.
    #[rustfmt::skip]
    pub const fn llvm_name(self) -> &'static str {
        match self {
            OpClass::TempRegLoad => "tempRegLoad",
            OpClass::TempRegStore => "tempRegStore",
            OpClass::MinPrecXRegLoad => "minPrecXRegLoad",
            OpClass::MinPrecXRegStore => "minPrecXRegStore",
            OpClass::LoadInput => "loadInput",
            OpClass::StoreOutput => "storeOutput",
            OpClass::Unary => "unary",
            OpClass::IsSpecialFloat => "isSpecialFloat",
            OpClass::UnaryBits => "unaryBits",
            OpClass::Binary => "binary",
            OpClass::BinaryWithTwoOuts => "binaryWithTwoOuts",
            OpClass::BinaryWithCarryOrBorrow => "binaryWithCarryOrBorrow",
            OpClass::Tertiary => "tertiary",
            OpClass::Quaternary => "quaternary",
            OpClass::Dot2 => "dot2",
            OpClass::Dot3 => "dot3",
            OpClass::Dot4 => "dot4",
            OpClass::CreateHandle => "createHandle",
            OpClass::CBufferLoad => "cbufferLoad",
            OpClass::CBufferLoadLegacy => "cbufferLoadLegacy",
            OpClass::Sample => "sample",
            OpClass::SampleBias => "sampleBias",
            OpClass::SampleLevel => "sampleLevel",
            OpClass::SampleGrad => "sampleGrad",
            OpClass::SampleCmp => "sampleCmp",
            OpClass::SampleCmpLevelZero => "sampleCmpLevelZero",
            OpClass::TextureLoad => "textureLoad",
            OpClass::TextureStore => "textureStore",
            OpClass::BufferLoad => "bufferLoad",
            OpClass::BufferStore => "bufferStore",
            OpClass::BufferUpdateCounter => "bufferUpdateCounter",
            OpClass::CheckAccessFullyMapped => "checkAccessFullyMapped",
            OpClass::GetDimensions => "getDimensions",
            OpClass::TextureGather => "textureGather",
            OpClass::TextureGatherCmp => "textureGatherCmp",
            OpClass::Texture2DMSGetSamplePosition => "texture2DMSGetSamplePosition",
            OpClass::RenderTargetGetSamplePosition => "renderTargetGetSamplePosition",
            OpClass::RenderTargetGetSampleCount => "renderTargetGetSampleCount",
            OpClass::AtomicBinOp => "atomicBinOp",
            OpClass::AtomicCompareExchange => "atomicCompareExchange",
            OpClass::Barrier => "barrier",
            OpClass::CalculateLOD => "calculateLOD",
            OpClass::Discard => "discard",
            OpClass::EvalSnapped => "evalSnapped",
            OpClass::EvalSampleIndex => "evalSampleIndex",
            OpClass::EvalCentroid => "evalCentroid",
            OpClass::SampleIndex => "sampleIndex",
            OpClass::Coverage => "coverage",
            OpClass::InnerCoverage => "innerCoverage",
            OpClass::ThreadId => "threadId",
            OpClass::GroupId => "groupId",
            OpClass::ThreadIdInGroup => "threadIdInGroup",
            OpClass::FlattenedThreadIdInGroup => "flattenedThreadIdInGroup",
            OpClass::EmitStream => "emitStream",
            OpClass::CutStream => "cutStream",
            OpClass::EmitThenCutStream => "emitThenCutStream",
            OpClass::GSInstanceID => "gsInstanceID",
            OpClass::MakeDouble => "makeDouble",
            OpClass::SplitDouble => "splitDouble",
            OpClass::LoadOutputControlPoint => "loadOutputControlPoint",
            OpClass::LoadPatchConstant => "loadPatchConstant",
            OpClass::DomainLocation => "domainLocation",
            OpClass::StorePatchConstant => "storePatchConstant",
            OpClass::OutputControlPointID => "outputControlPointID",
            OpClass::PrimitiveID => "primitiveID",
            OpClass::CycleCounterLegacy => "cycleCounterLegacy",
            OpClass::WaveIsFirstLane => "waveIsFirstLane",
            OpClass::WaveGetLaneIndex => "waveGetLaneIndex",
            OpClass::WaveGetLaneCount => "waveGetLaneCount",
            OpClass::WaveAnyTrue => "waveAnyTrue",
            OpClass::WaveAllTrue => "waveAllTrue",
            OpClass::WaveActiveAllEqual => "waveActiveAllEqual",
            OpClass::WaveActiveBallot => "waveActiveBallot",
            OpClass::WaveReadLaneAt => "waveReadLaneAt",
            OpClass::WaveReadLaneFirst => "waveReadLaneFirst",
            OpClass::WaveActiveOp => "waveActiveOp",
            OpClass::WaveActiveBit => "waveActiveBit",
            OpClass::WavePrefixOp => "wavePrefixOp",
            OpClass::QuadReadLaneAt => "quadReadLaneAt",
            OpClass::QuadOp => "quadOp",
            OpClass::BitcastI16toF16 => "bitcastI16toF16",
            OpClass::BitcastF16toI16 => "bitcastF16toI16",
            OpClass::BitcastI32toF32 => "bitcastI32toF32",
            OpClass::BitcastF32toI32 => "bitcastF32toI32",
            OpClass::BitcastI64toF64 => "bitcastI64toF64",
            OpClass::BitcastF64toI64 => "bitcastF64toI64",
            OpClass::LegacyF32ToF16 => "legacyF32ToF16",
            OpClass::LegacyF16ToF32 => "legacyF16ToF32",
            OpClass::LegacyDoubleToFloat => "legacyDoubleToFloat",
            OpClass::LegacyDoubleToSInt32 => "legacyDoubleToSInt32",
            OpClass::LegacyDoubleToUInt32 => "legacyDoubleToUInt32",
            OpClass::WaveAllOp => "waveAllOp",
            OpClass::AttributeAtVertex => "attributeAtVertex",
            OpClass::ViewID => "viewID",
            OpClass::RawBufferLoad => "rawBufferLoad",
            OpClass::RawBufferStore => "rawBufferStore",
            OpClass::InstanceID => "instanceID",
            OpClass::InstanceIndex => "instanceIndex",
            OpClass::HitKind => "hitKind",
            OpClass::RayFlags => "rayFlags",
            OpClass::DispatchRaysIndex => "dispatchRaysIndex",
            OpClass::DispatchRaysDimensions => "dispatchRaysDimensions",
            OpClass::WorldRayOrigin => "worldRayOrigin",
            OpClass::WorldRayDirection => "worldRayDirection",
            OpClass::ObjectRayOrigin => "objectRayOrigin",
            OpClass::ObjectRayDirection => "objectRayDirection",
            OpClass::ObjectToWorld => "objectToWorld",
            OpClass::WorldToObject => "worldToObject",
            OpClass::RayTMin => "rayTMin",
            OpClass::RayTCurrent => "rayTCurrent",
            OpClass::IgnoreHit => "ignoreHit",
            OpClass::AcceptHitAndEndSearch => "acceptHitAndEndSearch",
            OpClass::TraceRay => "traceRay",
            OpClass::ReportHit => "reportHit",
            OpClass::CallShader => "callShader",
            OpClass::CreateHandleForLib => "createHandleForLib",
            OpClass::PrimitiveIndex => "primitiveIndex",
            OpClass::Dot2AddHalf => "dot2AddHalf",
            OpClass::Dot4AddPacked => "dot4AddPacked",
            OpClass::WaveMatch => "waveMatch",
            OpClass::WaveMultiPrefixOp => "waveMultiPrefixOp",
            OpClass::WaveMultiPrefixBitCount => "waveMultiPrefixBitCount",
            OpClass::SetMeshOutputCounts => "setMeshOutputCounts",
            OpClass::EmitIndices => "emitIndices",
            OpClass::GetMeshPayload => "getMeshPayload",
            OpClass::StoreVertexOutput => "storeVertexOutput",
            OpClass::StorePrimitiveOutput => "storePrimitiveOutput",
            OpClass::DispatchMesh => "dispatchMesh",
            OpClass::WriteSamplerFeedback => "writeSamplerFeedback",
            OpClass::WriteSamplerFeedbackBias => "writeSamplerFeedbackBias",
            OpClass::WriteSamplerFeedbackLevel => "writeSamplerFeedbackLevel",
            OpClass::WriteSamplerFeedbackGrad => "writeSamplerFeedbackGrad",
            OpClass::AllocateRayQuery => "allocateRayQuery",
            OpClass::RayQuery_TraceRayInline => "rayQuery_TraceRayInline",
            OpClass::RayQuery_Proceed => "rayQuery_Proceed",
            OpClass::RayQuery_Abort => "rayQuery_Abort",
            OpClass::RayQuery_CommitNonOpaqueTriangleHit => "rayQuery_CommitNonOpaqueTriangleHit",
            OpClass::RayQuery_CommitProceduralPrimitiveHit => "rayQuery_CommitProceduralPrimitiveHit",
            OpClass::RayQuery_StateScalar => "rayQuery_StateScalar",
            OpClass::RayQuery_StateMatrix => "rayQuery_StateMatrix",
            OpClass::RayQuery_StateVector => "rayQuery_StateVector",
            OpClass::GeometryIndex => "geometryIndex",
            OpClass::AnnotateHandle => "annotateHandle",
            OpClass::CreateHandleFromBinding => "createHandleFromBinding",
            OpClass::CreateHandleFromHeap => "createHandleFromHeap",
            OpClass::Unpack4x8 => "unpack4x8",
            OpClass::Pack4x8 => "pack4x8",
            OpClass::IsHelperLane => "isHelperLane",
            OpClass::QuadVote => "quadVote",
            OpClass::TextureGatherRaw => "textureGatherRaw",
            OpClass::SampleCmpLevel => "sampleCmpLevel",
            OpClass::TextureStoreSample => "textureStoreSample",
            OpClass::WaveMatrix_Annotate => "waveMatrix_Annotate",
            OpClass::WaveMatrix_Depth => "waveMatrix_Depth",
            OpClass::WaveMatrix_Fill => "waveMatrix_Fill",
            OpClass::WaveMatrix_LoadRawBuf => "waveMatrix_LoadRawBuf",
            OpClass::WaveMatrix_LoadGroupShared => "waveMatrix_LoadGroupShared",
            OpClass::WaveMatrix_StoreRawBuf => "waveMatrix_StoreRawBuf",
            OpClass::WaveMatrix_StoreGroupShared => "waveMatrix_StoreGroupShared",
            OpClass::WaveMatrix_Multiply => "waveMatrix_Multiply",
            OpClass::WaveMatrix_ScalarOp => "waveMatrix_ScalarOp",
            OpClass::WaveMatrix_Accumulate => "waveMatrix_Accumulate",
            OpClass::AllocateNodeOutputRecords => "allocateNodeOutputRecords",
            OpClass::GetNodeRecordPtr => "getNodeRecordPtr",
            OpClass::IncrementOutputCount => "incrementOutputCount",
            OpClass::OutputComplete => "outputComplete",
            OpClass::GetInputRecordCount => "getInputRecordCount",
            OpClass::FinishedCrossGroupSharing => "finishedCrossGroupSharing",
            OpClass::BarrierByMemoryType => "barrierByMemoryType",
            OpClass::BarrierByMemoryHandle => "barrierByMemoryHandle",
            OpClass::BarrierByNodeRecordHandle => "barrierByNodeRecordHandle",
            OpClass::CreateNodeOutputHandle => "createNodeOutputHandle",
            OpClass::IndexNodeHandle => "indexNodeHandle",
            OpClass::AnnotateNodeHandle => "annotateNodeHandle",
            OpClass::CreateNodeInputRecordHandle => "createNodeInputRecordHandle",
            OpClass::AnnotateNodeRecordHandle => "annotateNodeRecordHandle",
            OpClass::NodeOutputIsValid => "nodeOutputIsValid",
            OpClass::GetRemainingRecursionLevels => "getRemainingRecursionLevels",
            OpClass::SampleCmpGrad => "sampleCmpGrad",
            OpClass::SampleCmpBias => "sampleCmpBias",
            OpClass::StartVertexLocation => "startVertexLocation",
            OpClass::StartInstanceLocation => "startInstanceLocation",
        }
    }

    /// Inverse of [`OpClass::llvm_name`].
    #[rustfmt::skip]
    pub fn from_llvm_name(s: &str) -> Option<OpClass> {
        Some(match s {
            "tempRegLoad" => OpClass::TempRegLoad,
            "tempRegStore" => OpClass::TempRegStore,
            "minPrecXRegLoad" => OpClass::MinPrecXRegLoad,
            "minPrecXRegStore" => OpClass::MinPrecXRegStore,
            "loadInput" => OpClass::LoadInput,
            "storeOutput" => OpClass::StoreOutput,
            "unary" => OpClass::Unary,
            "isSpecialFloat" => OpClass::IsSpecialFloat,
            "unaryBits" => OpClass::UnaryBits,
            "binary" => OpClass::Binary,
            "binaryWithTwoOuts" => OpClass::BinaryWithTwoOuts,
            "binaryWithCarryOrBorrow" => OpClass::BinaryWithCarryOrBorrow,
            "tertiary" => OpClass::Tertiary,
            "quaternary" => OpClass::Quaternary,
            "dot2" => OpClass::Dot2,
            "dot3" => OpClass::Dot3,
            "dot4" => OpClass::Dot4,
            "createHandle" => OpClass::CreateHandle,
            "cbufferLoad" => OpClass::CBufferLoad,
            "cbufferLoadLegacy" => OpClass::CBufferLoadLegacy,
            "sample" => OpClass::Sample,
            "sampleBias" => OpClass::SampleBias,
            "sampleLevel" => OpClass::SampleLevel,
            "sampleGrad" => OpClass::SampleGrad,
            "sampleCmp" => OpClass::SampleCmp,
            "sampleCmpLevelZero" => OpClass::SampleCmpLevelZero,
            "textureLoad" => OpClass::TextureLoad,
            "textureStore" => OpClass::TextureStore,
            "bufferLoad" => OpClass::BufferLoad,
            "bufferStore" => OpClass::BufferStore,
            "bufferUpdateCounter" => OpClass::BufferUpdateCounter,
            "checkAccessFullyMapped" => OpClass::CheckAccessFullyMapped,
            "getDimensions" => OpClass::GetDimensions,
            "textureGather" => OpClass::TextureGather,
            "textureGatherCmp" => OpClass::TextureGatherCmp,
            "texture2DMSGetSamplePosition" => OpClass::Texture2DMSGetSamplePosition,
            "renderTargetGetSamplePosition" => OpClass::RenderTargetGetSamplePosition,
            "renderTargetGetSampleCount" => OpClass::RenderTargetGetSampleCount,
            "atomicBinOp" => OpClass::AtomicBinOp,
            "atomicCompareExchange" => OpClass::AtomicCompareExchange,
            "barrier" => OpClass::Barrier,
            "calculateLOD" => OpClass::CalculateLOD,
            "discard" => OpClass::Discard,
            "evalSnapped" => OpClass::EvalSnapped,
            "evalSampleIndex" => OpClass::EvalSampleIndex,
            "evalCentroid" => OpClass::EvalCentroid,
            "sampleIndex" => OpClass::SampleIndex,
            "coverage" => OpClass::Coverage,
            "innerCoverage" => OpClass::InnerCoverage,
            "threadId" => OpClass::ThreadId,
            "groupId" => OpClass::GroupId,
            "threadIdInGroup" => OpClass::ThreadIdInGroup,
            "flattenedThreadIdInGroup" => OpClass::FlattenedThreadIdInGroup,
            "emitStream" => OpClass::EmitStream,
            "cutStream" => OpClass::CutStream,
            "emitThenCutStream" => OpClass::EmitThenCutStream,
            "gsInstanceID" => OpClass::GSInstanceID,
            "makeDouble" => OpClass::MakeDouble,
            "splitDouble" => OpClass::SplitDouble,
            "loadOutputControlPoint" => OpClass::LoadOutputControlPoint,
            "loadPatchConstant" => OpClass::LoadPatchConstant,
            "domainLocation" => OpClass::DomainLocation,
            "storePatchConstant" => OpClass::StorePatchConstant,
            "outputControlPointID" => OpClass::OutputControlPointID,
            "primitiveID" => OpClass::PrimitiveID,
            "cycleCounterLegacy" => OpClass::CycleCounterLegacy,
            "waveIsFirstLane" => OpClass::WaveIsFirstLane,
            "waveGetLaneIndex" => OpClass::WaveGetLaneIndex,
            "waveGetLaneCount" => OpClass::WaveGetLaneCount,
            "waveAnyTrue" => OpClass::WaveAnyTrue,
            "waveAllTrue" => OpClass::WaveAllTrue,
            "waveActiveAllEqual" => OpClass::WaveActiveAllEqual,
            "waveActiveBallot" => OpClass::WaveActiveBallot,
            "waveReadLaneAt" => OpClass::WaveReadLaneAt,
            "waveReadLaneFirst" => OpClass::WaveReadLaneFirst,
            "waveActiveOp" => OpClass::WaveActiveOp,
            "waveActiveBit" => OpClass::WaveActiveBit,
            "wavePrefixOp" => OpClass::WavePrefixOp,
            "quadReadLaneAt" => OpClass::QuadReadLaneAt,
            "quadOp" => OpClass::QuadOp,
            "bitcastI16toF16" => OpClass::BitcastI16toF16,
            "bitcastF16toI16" => OpClass::BitcastF16toI16,
            "bitcastI32toF32" => OpClass::BitcastI32toF32,
            "bitcastF32toI32" => OpClass::BitcastF32toI32,
            "bitcastI64toF64" => OpClass::BitcastI64toF64,
            "bitcastF64toI64" => OpClass::BitcastF64toI64,
            "legacyF32ToF16" => OpClass::LegacyF32ToF16,
            "legacyF16ToF32" => OpClass::LegacyF16ToF32,
            "legacyDoubleToFloat" => OpClass::LegacyDoubleToFloat,
            "legacyDoubleToSInt32" => OpClass::LegacyDoubleToSInt32,
            "legacyDoubleToUInt32" => OpClass::LegacyDoubleToUInt32,
            "waveAllOp" => OpClass::WaveAllOp,
            "attributeAtVertex" => OpClass::AttributeAtVertex,
            "viewID" => OpClass::ViewID,
            "rawBufferLoad" => OpClass::RawBufferLoad,
            "rawBufferStore" => OpClass::RawBufferStore,
            "instanceID" => OpClass::InstanceID,
            "instanceIndex" => OpClass::InstanceIndex,
            "hitKind" => OpClass::HitKind,
            "rayFlags" => OpClass::RayFlags,
            "dispatchRaysIndex" => OpClass::DispatchRaysIndex,
            "dispatchRaysDimensions" => OpClass::DispatchRaysDimensions,
            "worldRayOrigin" => OpClass::WorldRayOrigin,
            "worldRayDirection" => OpClass::WorldRayDirection,
            "objectRayOrigin" => OpClass::ObjectRayOrigin,
            "objectRayDirection" => OpClass::ObjectRayDirection,
            "objectToWorld" => OpClass::ObjectToWorld,
            "worldToObject" => OpClass::WorldToObject,
            "rayTMin" => OpClass::RayTMin,
            "rayTCurrent" => OpClass::RayTCurrent,
            "ignoreHit" => OpClass::IgnoreHit,
            "acceptHitAndEndSearch" => OpClass::AcceptHitAndEndSearch,
            "traceRay" => OpClass::TraceRay,
            "reportHit" => OpClass::ReportHit,
            "callShader" => OpClass::CallShader,
            "createHandleForLib" => OpClass::CreateHandleForLib,
            "primitiveIndex" => OpClass::PrimitiveIndex,
            "dot2AddHalf" => OpClass::Dot2AddHalf,
            "dot4AddPacked" => OpClass::Dot4AddPacked,
            "waveMatch" => OpClass::WaveMatch,
            "waveMultiPrefixOp" => OpClass::WaveMultiPrefixOp,
            "waveMultiPrefixBitCount" => OpClass::WaveMultiPrefixBitCount,
            "setMeshOutputCounts" => OpClass::SetMeshOutputCounts,
            "emitIndices" => OpClass::EmitIndices,
            "getMeshPayload" => OpClass::GetMeshPayload,
            "storeVertexOutput" => OpClass::StoreVertexOutput,
            "storePrimitiveOutput" => OpClass::StorePrimitiveOutput,
            "dispatchMesh" => OpClass::DispatchMesh,
            "writeSamplerFeedback" => OpClass::WriteSamplerFeedback,
            "writeSamplerFeedbackBias" => OpClass::WriteSamplerFeedbackBias,
            "writeSamplerFeedbackLevel" => OpClass::WriteSamplerFeedbackLevel,
            "writeSamplerFeedbackGrad" => OpClass::WriteSamplerFeedbackGrad,
            "allocateRayQuery" => OpClass::AllocateRayQuery,
            "rayQuery_TraceRayInline" => OpClass::RayQuery_TraceRayInline,
            "rayQuery_Proceed" => OpClass::RayQuery_Proceed,
            "rayQuery_Abort" => OpClass::RayQuery_Abort,
            "rayQuery_CommitNonOpaqueTriangleHit" => OpClass::RayQuery_CommitNonOpaqueTriangleHit,
            "rayQuery_CommitProceduralPrimitiveHit" => OpClass::RayQuery_CommitProceduralPrimitiveHit,
            "rayQuery_StateScalar" => OpClass::RayQuery_StateScalar,
            "rayQuery_StateMatrix" => OpClass::RayQuery_StateMatrix,
            "rayQuery_StateVector" => OpClass::RayQuery_StateVector,
            "geometryIndex" => OpClass::GeometryIndex,
            "annotateHandle" => OpClass::AnnotateHandle,
            "createHandleFromBinding" => OpClass::CreateHandleFromBinding,
            "createHandleFromHeap" => OpClass::CreateHandleFromHeap,
            "unpack4x8" => OpClass::Unpack4x8,
            "pack4x8" => OpClass::Pack4x8,
            "isHelperLane" => OpClass::IsHelperLane,
            "quadVote" => OpClass::QuadVote,
            "textureGatherRaw" => OpClass::TextureGatherRaw,
            "sampleCmpLevel" => OpClass::SampleCmpLevel,
            "textureStoreSample" => OpClass::TextureStoreSample,
            "waveMatrix_Annotate" => OpClass::WaveMatrix_Annotate,
            "waveMatrix_Depth" => OpClass::WaveMatrix_Depth,
            "waveMatrix_Fill" => OpClass::WaveMatrix_Fill,
            "waveMatrix_LoadRawBuf" => OpClass::WaveMatrix_LoadRawBuf,
            "waveMatrix_LoadGroupShared" => OpClass::WaveMatrix_LoadGroupShared,
            "waveMatrix_StoreRawBuf" => OpClass::WaveMatrix_StoreRawBuf,
            "waveMatrix_StoreGroupShared" => OpClass::WaveMatrix_StoreGroupShared,
            "waveMatrix_Multiply" => OpClass::WaveMatrix_Multiply,
            "waveMatrix_ScalarOp" => OpClass::WaveMatrix_ScalarOp,
            "waveMatrix_Accumulate" => OpClass::WaveMatrix_Accumulate,
            "allocateNodeOutputRecords" => OpClass::AllocateNodeOutputRecords,
            "getNodeRecordPtr" => OpClass::GetNodeRecordPtr,
            "incrementOutputCount" => OpClass::IncrementOutputCount,
            "outputComplete" => OpClass::OutputComplete,
            "getInputRecordCount" => OpClass::GetInputRecordCount,
            "finishedCrossGroupSharing" => OpClass::FinishedCrossGroupSharing,
            "barrierByMemoryType" => OpClass::BarrierByMemoryType,
            "barrierByMemoryHandle" => OpClass::BarrierByMemoryHandle,
            "barrierByNodeRecordHandle" => OpClass::BarrierByNodeRecordHandle,
            "createNodeOutputHandle" => OpClass::CreateNodeOutputHandle,
            "indexNodeHandle" => OpClass::IndexNodeHandle,
            "annotateNodeHandle" => OpClass::AnnotateNodeHandle,
            "createNodeInputRecordHandle" => OpClass::CreateNodeInputRecordHandle,
            "annotateNodeRecordHandle" => OpClass::AnnotateNodeRecordHandle,
            "nodeOutputIsValid" => OpClass::NodeOutputIsValid,
            "getRemainingRecursionLevels" => OpClass::GetRemainingRecursionLevels,
            "sampleCmpGrad" => OpClass::SampleCmpGrad,
            "sampleCmpBias" => OpClass::SampleCmpBias,
            "startVertexLocation" => OpClass::StartVertexLocation,
            "startInstanceLocation" => OpClass::StartInstanceLocation,
            _ => return None,
        })
    }
}

/// The operation table, indexed by opcode (`OPS[op as usize].op == op`).
/// A `static` rather than a `const` so that there is one copy and
/// [`DxilOp::info`] references are stable.
#[rustfmt::skip]
pub static OPS: &[OpInfo] = &[
    // 0
    OpInfo { op: DxilOp::TempRegLoad, name: "TempRegLoad", class: OpClass::TempRegLoad,
        overloads: Overloads::from_letters("hfwi"), ret: T::Overload, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("index", T::I32)],
        doc: "Temporary, indexable, input, output registers" },
    // 1
    OpInfo { op: DxilOp::TempRegStore, name: "TempRegStore", class: OpClass::TempRegStore,
        overloads: Overloads::from_letters("hfwi"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("index", T::I32), p("value", T::Overload)],
        doc: "Temporary, indexable, input, output registers" },
    // 2
    OpInfo { op: DxilOp::MinPrecXRegLoad, name: "MinPrecXRegLoad", class: OpClass::MinPrecXRegLoad,
        overloads: Overloads::from_letters("hw"), ret: T::Overload, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("regIndex", T::F32Ptr), p("index", T::I32), p("component", T::I8)],
        doc: "Temporary, indexable, input, output registers" },
    // 3
    OpInfo { op: DxilOp::MinPrecXRegStore, name: "MinPrecXRegStore", class: OpClass::MinPrecXRegStore,
        overloads: Overloads::from_letters("hw"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("regIndex", T::F32Ptr), p("index", T::I32), p("component", T::I8), p("value", T::Overload)],
        doc: "Temporary, indexable, input, output registers" },
    // 4
    OpInfo { op: DxilOp::LoadInput, name: "LoadInput", class: OpClass::LoadInput,
        overloads: Overloads::from_letters("hfwi"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("inputSigId", T::I32), p("rowIndex", T::I32), p("colIndex", T::I8), p("gsVertexAxis", T::I32)],
        doc: "Temporary, indexable, input, output registers; hctdb gives no stage rule; not valid in compute-like stages in practice (permissive set kept)" },
    // 5
    OpInfo { op: DxilOp::StoreOutput, name: "StoreOutput", class: OpClass::StoreOutput,
        overloads: Overloads::from_letters("hfwi"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("outputSigId", T::I32), p("rowIndex", T::I32), p("colIndex", T::I8), p("value", T::Overload)],
        doc: "Temporary, indexable, input, output registers; hctdb gives no stage rule; only stages with an output signature use it in practice (permissive set kept)" },
    // 6
    OpInfo { op: DxilOp::FAbs, name: "FAbs", class: OpClass::Unary,
        overloads: Overloads::from_letters("hfd"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 7
    OpInfo { op: DxilOp::Saturate, name: "Saturate", class: OpClass::Unary,
        overloads: Overloads::from_letters("hfd"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 8
    OpInfo { op: DxilOp::IsNaN, name: "IsNaN", class: OpClass::IsSpecialFloat,
        overloads: Overloads::from_letters("hf"), ret: T::I1, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 9
    OpInfo { op: DxilOp::IsInf, name: "IsInf", class: OpClass::IsSpecialFloat,
        overloads: Overloads::from_letters("hf"), ret: T::I1, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 10
    OpInfo { op: DxilOp::IsFinite, name: "IsFinite", class: OpClass::IsSpecialFloat,
        overloads: Overloads::from_letters("hf"), ret: T::I1, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 11
    OpInfo { op: DxilOp::IsNormal, name: "IsNormal", class: OpClass::IsSpecialFloat,
        overloads: Overloads::from_letters("hf"), ret: T::I1, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 12
    OpInfo { op: DxilOp::Cos, name: "Cos", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 13
    OpInfo { op: DxilOp::Sin, name: "Sin", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 14
    OpInfo { op: DxilOp::Tan, name: "Tan", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 15
    OpInfo { op: DxilOp::Acos, name: "Acos", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 16
    OpInfo { op: DxilOp::Asin, name: "Asin", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 17
    OpInfo { op: DxilOp::Atan, name: "Atan", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 18
    OpInfo { op: DxilOp::Hcos, name: "Hcos", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 19
    OpInfo { op: DxilOp::Hsin, name: "Hsin", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 20
    OpInfo { op: DxilOp::Htan, name: "Htan", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 21
    OpInfo { op: DxilOp::Exp, name: "Exp", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 22
    OpInfo { op: DxilOp::Frc, name: "Frc", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 23
    OpInfo { op: DxilOp::Log, name: "Log", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 24
    OpInfo { op: DxilOp::Sqrt, name: "Sqrt", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 25
    OpInfo { op: DxilOp::Rsqrt, name: "Rsqrt", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float" },
    // 26
    OpInfo { op: DxilOp::Round_ne, name: "Round_ne", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float - rounding" },
    // 27
    OpInfo { op: DxilOp::Round_ni, name: "Round_ni", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float - rounding" },
    // 28
    OpInfo { op: DxilOp::Round_pi, name: "Round_pi", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float - rounding" },
    // 29
    OpInfo { op: DxilOp::Round_z, name: "Round_z", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary float - rounding" },
    // 30
    OpInfo { op: DxilOp::Bfrev, name: "Bfrev", class: OpClass::Unary,
        overloads: Overloads::from_letters("wil"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary int" },
    // 31
    OpInfo { op: DxilOp::Countbits, name: "Countbits", class: OpClass::UnaryBits,
        overloads: Overloads::from_letters("wil"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary int" },
    // 32
    OpInfo { op: DxilOp::FirstbitLo, name: "FirstbitLo", class: OpClass::UnaryBits,
        overloads: Overloads::from_letters("wil"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary int" },
    // 33
    OpInfo { op: DxilOp::FirstbitHi, name: "FirstbitHi", class: OpClass::UnaryBits,
        overloads: Overloads::from_letters("wil"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary uint" },
    // 34
    OpInfo { op: DxilOp::FirstbitSHi, name: "FirstbitSHi", class: OpClass::UnaryBits,
        overloads: Overloads::from_letters("wil"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Unary int" },
    // 35
    OpInfo { op: DxilOp::FMax, name: "FMax", class: OpClass::Binary,
        overloads: Overloads::from_letters("hfd"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary float" },
    // 36
    OpInfo { op: DxilOp::FMin, name: "FMin", class: OpClass::Binary,
        overloads: Overloads::from_letters("hfd"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary float" },
    // 37
    OpInfo { op: DxilOp::IMax, name: "IMax", class: OpClass::Binary,
        overloads: Overloads::from_letters("wil"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary int" },
    // 38
    OpInfo { op: DxilOp::IMin, name: "IMin", class: OpClass::Binary,
        overloads: Overloads::from_letters("wil"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary int" },
    // 39
    OpInfo { op: DxilOp::UMax, name: "UMax", class: OpClass::Binary,
        overloads: Overloads::from_letters("wil"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary uint" },
    // 40
    OpInfo { op: DxilOp::UMin, name: "UMin", class: OpClass::Binary,
        overloads: Overloads::from_letters("wil"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary uint" },
    // 41
    OpInfo { op: DxilOp::IMul, name: "IMul", class: OpClass::BinaryWithTwoOuts,
        overloads: Overloads::from_letters("i"), ret: T::TwoI32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary int with two outputs" },
    // 42
    OpInfo { op: DxilOp::UMul, name: "UMul", class: OpClass::BinaryWithTwoOuts,
        overloads: Overloads::from_letters("i"), ret: T::TwoI32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary uint with two outputs" },
    // 43
    OpInfo { op: DxilOp::UDiv, name: "UDiv", class: OpClass::BinaryWithTwoOuts,
        overloads: Overloads::from_letters("i"), ret: T::TwoI32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary uint with two outputs" },
    // 44
    OpInfo { op: DxilOp::UAddc, name: "UAddc", class: OpClass::BinaryWithCarryOrBorrow,
        overloads: Overloads::from_letters("i"), ret: T::I32WithCarry, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary uint with carry or borrow" },
    // 45
    OpInfo { op: DxilOp::USubb, name: "USubb", class: OpClass::BinaryWithCarryOrBorrow,
        overloads: Overloads::from_letters("i"), ret: T::I32WithCarry, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload)],
        doc: "Binary uint with carry or borrow" },
    // 46
    OpInfo { op: DxilOp::FMad, name: "FMad", class: OpClass::Tertiary,
        overloads: Overloads::from_letters("hfd"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload), p("c", T::Overload)],
        doc: "Tertiary float" },
    // 47
    OpInfo { op: DxilOp::Fma, name: "Fma", class: OpClass::Tertiary,
        overloads: Overloads::from_letters("d"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload), p("c", T::Overload)],
        doc: "Tertiary float" },
    // 48
    OpInfo { op: DxilOp::IMad, name: "IMad", class: OpClass::Tertiary,
        overloads: Overloads::from_letters("wil"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload), p("c", T::Overload)],
        doc: "Tertiary int" },
    // 49
    OpInfo { op: DxilOp::UMad, name: "UMad", class: OpClass::Tertiary,
        overloads: Overloads::from_letters("wil"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload), p("c", T::Overload)],
        doc: "Tertiary uint" },
    // 50
    OpInfo { op: DxilOp::Msad, name: "Msad", class: OpClass::Tertiary,
        overloads: Overloads::from_letters("il"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload), p("c", T::Overload)],
        doc: "Tertiary int" },
    // 51
    OpInfo { op: DxilOp::Ibfe, name: "Ibfe", class: OpClass::Tertiary,
        overloads: Overloads::from_letters("il"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload), p("c", T::Overload)],
        doc: "Tertiary int" },
    // 52
    OpInfo { op: DxilOp::Ubfe, name: "Ubfe", class: OpClass::Tertiary,
        overloads: Overloads::from_letters("il"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("a", T::Overload), p("b", T::Overload), p("c", T::Overload)],
        doc: "Tertiary uint" },
    // 53
    OpInfo { op: DxilOp::Bfi, name: "Bfi", class: OpClass::Quaternary,
        overloads: Overloads::from_letters("i"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("width", T::Overload), p("offset", T::Overload), p("value", T::Overload), p("replacedValue", T::Overload)],
        doc: "Quaternary" },
    // 54
    OpInfo { op: DxilOp::Dot2, name: "Dot2", class: OpClass::Dot2,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("ax", T::Overload), p("ay", T::Overload), p("bx", T::Overload), p("by", T::Overload)],
        doc: "Dot" },
    // 55
    OpInfo { op: DxilOp::Dot3, name: "Dot3", class: OpClass::Dot3,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("ax", T::Overload), p("ay", T::Overload), p("az", T::Overload), p("bx", T::Overload), p("by", T::Overload), p("bz", T::Overload)],
        doc: "Dot" },
    // 56
    OpInfo { op: DxilOp::Dot4, name: "Dot4", class: OpClass::Dot4,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("ax", T::Overload), p("ay", T::Overload), p("az", T::Overload), p("aw", T::Overload), p("bx", T::Overload), p("by", T::Overload), p("bz", T::Overload), p("bw", T::Overload)],
        doc: "Dot" },
    // 57
    OpInfo { op: DxilOp::CreateHandle, name: "CreateHandle", class: OpClass::CreateHandle,
        overloads: Overloads::from_letters("v"), ret: T::Handle, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[k("resourceClass", T::I8), k("rangeId", T::I32), p("index", T::I32), k("nonUniformIndex", T::I1)],
        doc: "Resources" },
    // 58
    OpInfo { op: DxilOp::CBufferLoad, name: "CBufferLoad", class: OpClass::CBufferLoad,
        overloads: Overloads::from_letters("hfd8wil"), ret: T::Overload, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("handle", T::Handle), p("byteOffset", T::I32), k("alignment", T::I32)],
        doc: "Resources" },
    // 59
    OpInfo { op: DxilOp::CBufferLoadLegacy, name: "CBufferLoadLegacy", class: OpClass::CBufferLoadLegacy,
        overloads: Overloads::from_letters("hfdwil"), ret: T::CBufRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("handle", T::Handle), p("regIndex", T::I32)],
        doc: "Resources" },
    // 60
    OpInfo { op: DxilOp::Sample, name: "Sample", class: OpClass::Sample,
        overloads: Overloads::from_letters("hfwi"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification, K::Node]),
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("clamp", T::F32)],
        doc: "Resources - sample" },
    // 61
    OpInfo { op: DxilOp::SampleBias, name: "SampleBias", class: OpClass::SampleBias,
        overloads: Overloads::from_letters("hfwi"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification, K::Node]),
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("bias", T::F32), p("clamp", T::F32)],
        doc: "Resources - sample" },
    // 62
    OpInfo { op: DxilOp::SampleLevel, name: "SampleLevel", class: OpClass::SampleLevel,
        overloads: Overloads::from_letters("hfwi"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("LOD", T::F32)],
        doc: "Resources - sample" },
    // 63
    OpInfo { op: DxilOp::SampleGrad, name: "SampleGrad", class: OpClass::SampleGrad,
        overloads: Overloads::from_letters("hfwi"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("ddx0", T::F32), p("ddx1", T::F32), p("ddx2", T::F32), p("ddy0", T::F32), p("ddy1", T::F32), p("ddy2", T::F32), p("clamp", T::F32)],
        doc: "Resources - sample" },
    // 64
    OpInfo { op: DxilOp::SampleCmp, name: "SampleCmp", class: OpClass::SampleCmp,
        overloads: Overloads::from_letters("hf"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification, K::Node]),
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("compareValue", T::F32), p("clamp", T::F32)],
        doc: "Resources - sample" },
    // 65
    OpInfo { op: DxilOp::SampleCmpLevelZero, name: "SampleCmpLevelZero", class: OpClass::SampleCmpLevelZero,
        overloads: Overloads::from_letters("hf"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("compareValue", T::F32)],
        doc: "Resources - sample" },
    // 66
    OpInfo { op: DxilOp::TextureLoad, name: "TextureLoad", class: OpClass::TextureLoad,
        overloads: Overloads::from_letters("hfwi"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("mipLevelOrSampleCount", T::I32), p("coord0", T::I32), p("coord1", T::I32), p("coord2", T::I32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32)],
        doc: "Resources" },
    // 67
    OpInfo { op: DxilOp::TextureStore, name: "TextureStore", class: OpClass::TextureStore,
        overloads: Overloads::from_letters("hfwi"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("coord0", T::I32), p("coord1", T::I32), p("coord2", T::I32), p("value0", T::Overload), p("value1", T::Overload), p("value2", T::Overload), p("value3", T::Overload), p("mask", T::I8)],
        doc: "Resources" },
    // 68
    OpInfo { op: DxilOp::BufferLoad, name: "BufferLoad", class: OpClass::BufferLoad,
        overloads: Overloads::from_letters("hfwi"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("index", T::I32), p("wot", T::I32)],
        doc: "Resources" },
    // 69
    OpInfo { op: DxilOp::BufferStore, name: "BufferStore", class: OpClass::BufferStore,
        overloads: Overloads::from_letters("hfwi"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("uav", T::Handle), p("coord0", T::I32), p("coord1", T::I32), p("value0", T::Overload), p("value1", T::Overload), p("value2", T::Overload), p("value3", T::Overload), p("mask", T::I8)],
        doc: "Resources" },
    // 70
    OpInfo { op: DxilOp::BufferUpdateCounter, name: "BufferUpdateCounter", class: OpClass::BufferUpdateCounter,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("uav", T::Handle), p("inc", T::I8)],
        doc: "Resources" },
    // 71
    OpInfo { op: DxilOp::CheckAccessFullyMapped, name: "CheckAccessFullyMapped", class: OpClass::CheckAccessFullyMapped,
        overloads: Overloads::from_letters("i"), ret: T::I1, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("status", T::I32)],
        doc: "Resources" },
    // 72
    OpInfo { op: DxilOp::GetDimensions, name: "GetDimensions", class: OpClass::GetDimensions,
        overloads: Overloads::from_letters("v"), ret: T::Dimensions, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("handle", T::Handle), p("mipLevel", T::I32)],
        doc: "Resources" },
    // 73
    OpInfo { op: DxilOp::TextureGather, name: "TextureGather", class: OpClass::TextureGather,
        overloads: Overloads::from_letters("hfwi"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("channel", T::I32)],
        doc: "Resources - gather" },
    // 74
    OpInfo { op: DxilOp::TextureGatherCmp, name: "TextureGatherCmp", class: OpClass::TextureGatherCmp,
        overloads: Overloads::from_letters("hfwi"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("channel", T::I32), p("compareValue", T::F32)],
        doc: "Resources - gather" },
    // 75
    OpInfo { op: DxilOp::Texture2DMSGetSamplePosition, name: "Texture2DMSGetSamplePosition", class: OpClass::Texture2DMSGetSamplePosition,
        overloads: Overloads::from_letters("v"), ret: T::SamplePos, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("index", T::I32)],
        doc: "Resources - sample" },
    // 76
    OpInfo { op: DxilOp::RenderTargetGetSamplePosition, name: "RenderTargetGetSamplePosition", class: OpClass::RenderTargetGetSamplePosition,
        overloads: Overloads::from_letters("v"), ret: T::SamplePos, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel]),
        params: &[p("index", T::I32)],
        doc: "Resources - sample" },
    // 77
    OpInfo { op: DxilOp::RenderTargetGetSampleCount, name: "RenderTargetGetSampleCount", class: OpClass::RenderTargetGetSampleCount,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel]),
        params: &[],
        doc: "Resources - sample" },
    // 78
    OpInfo { op: DxilOp::AtomicBinOp, name: "AtomicBinOp", class: OpClass::AtomicBinOp,
        overloads: Overloads::from_letters("li"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("handle", T::Handle), p("atomicOp", T::I32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("newValue", T::Overload)],
        doc: "Synchronization" },
    // 79
    OpInfo { op: DxilOp::AtomicCompareExchange, name: "AtomicCompareExchange", class: OpClass::AtomicCompareExchange,
        overloads: Overloads::from_letters("li"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("handle", T::Handle), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("compareValue", T::Overload), p("newValue", T::Overload)],
        doc: "Synchronization" },
    // 80
    OpInfo { op: DxilOp::Barrier, name: "Barrier", class: OpClass::Barrier,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::NoDuplicate,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[k("barrierMode", T::I32)],
        doc: "Synchronization; group-sync modes are only meaningful in compute/mesh/amplification/node; UAV-fence-only modes are valid elsewhere (permissive set kept)" },
    // 81
    OpInfo { op: DxilOp::CalculateLOD, name: "CalculateLOD", class: OpClass::CalculateLOD,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification]),
        params: &[p("handle", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("clamped", T::I1)],
        doc: "Derivatives" },
    // 82
    OpInfo { op: DxilOp::Discard, name: "Discard", class: OpClass::Discard,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel]),
        params: &[p("condition", T::I1)],
        doc: "Pixel shader" },
    // 83
    OpInfo { op: DxilOp::DerivCoarseX, name: "DerivCoarseX", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification]),
        params: &[p("value", T::Overload)],
        doc: "Derivatives" },
    // 84
    OpInfo { op: DxilOp::DerivCoarseY, name: "DerivCoarseY", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification]),
        params: &[p("value", T::Overload)],
        doc: "Derivatives" },
    // 85
    OpInfo { op: DxilOp::DerivFineX, name: "DerivFineX", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification]),
        params: &[p("value", T::Overload)],
        doc: "Derivatives" },
    // 86
    OpInfo { op: DxilOp::DerivFineY, name: "DerivFineY", class: OpClass::Unary,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification]),
        params: &[p("value", T::Overload)],
        doc: "Derivatives" },
    // 87
    OpInfo { op: DxilOp::EvalSnapped, name: "EvalSnapped", class: OpClass::EvalSnapped,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel]),
        params: &[p("inputSigId", T::I32), p("inputRowIndex", T::I32), p("inputColIndex", T::I8), p("offsetX", T::I32), p("offsetY", T::I32)],
        doc: "Pixel shader" },
    // 88
    OpInfo { op: DxilOp::EvalSampleIndex, name: "EvalSampleIndex", class: OpClass::EvalSampleIndex,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel]),
        params: &[p("inputSigId", T::I32), p("inputRowIndex", T::I32), p("inputColIndex", T::I8), p("sampleIndex", T::I32)],
        doc: "Pixel shader" },
    // 89
    OpInfo { op: DxilOp::EvalCentroid, name: "EvalCentroid", class: OpClass::EvalCentroid,
        overloads: Overloads::from_letters("hf"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel]),
        params: &[p("inputSigId", T::I32), p("inputRowIndex", T::I32), p("inputColIndex", T::I8)],
        doc: "Pixel shader" },
    // 90
    OpInfo { op: DxilOp::SampleIndex, name: "SampleIndex", class: OpClass::SampleIndex,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel]),
        params: &[],
        doc: "Pixel shader" },
    // 91
    OpInfo { op: DxilOp::Coverage, name: "Coverage", class: OpClass::Coverage,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel]),
        params: &[],
        doc: "Pixel shader" },
    // 92
    OpInfo { op: DxilOp::InnerCoverage, name: "InnerCoverage", class: OpClass::InnerCoverage,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel]),
        params: &[],
        doc: "Pixel shader" },
    // 93
    OpInfo { op: DxilOp::ThreadId, name: "ThreadId", class: OpClass::ThreadId,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Compute, K::Mesh, K::Amplification, K::Node]),
        params: &[p("component", T::I32)],
        doc: "Compute/Mesh/Amplification/Node shader" },
    // 94
    OpInfo { op: DxilOp::GroupId, name: "GroupId", class: OpClass::GroupId,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Compute, K::Mesh, K::Amplification, K::Node]),
        params: &[p("component", T::I32)],
        doc: "Compute/Mesh/Amplification/Node shader" },
    // 95
    OpInfo { op: DxilOp::ThreadIdInGroup, name: "ThreadIdInGroup", class: OpClass::ThreadIdInGroup,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Compute, K::Mesh, K::Amplification, K::Node]),
        params: &[p("component", T::I32)],
        doc: "Compute/Mesh/Amplification/Node shader" },
    // 96
    OpInfo { op: DxilOp::FlattenedThreadIdInGroup, name: "FlattenedThreadIdInGroup", class: OpClass::FlattenedThreadIdInGroup,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Compute, K::Mesh, K::Amplification, K::Node]),
        params: &[],
        doc: "Compute/Mesh/Amplification/Node shader" },
    // 97
    OpInfo { op: DxilOp::EmitStream, name: "EmitStream", class: OpClass::EmitStream,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::of(&[K::Geometry]),
        params: &[p("streamId", T::I8)],
        doc: "Geometry shader" },
    // 98
    OpInfo { op: DxilOp::CutStream, name: "CutStream", class: OpClass::CutStream,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::of(&[K::Geometry]),
        params: &[p("streamId", T::I8)],
        doc: "Geometry shader" },
    // 99
    OpInfo { op: DxilOp::EmitThenCutStream, name: "EmitThenCutStream", class: OpClass::EmitThenCutStream,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::of(&[K::Geometry]),
        params: &[p("streamId", T::I8)],
        doc: "Geometry shader" },
    // 100
    OpInfo { op: DxilOp::GSInstanceID, name: "GSInstanceID", class: OpClass::GSInstanceID,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Geometry]),
        params: &[],
        doc: "Geometry shader" },
    // 101
    OpInfo { op: DxilOp::MakeDouble, name: "MakeDouble", class: OpClass::MakeDouble,
        overloads: Overloads::from_letters("d"), ret: T::F64, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("lo", T::I32), p("hi", T::I32)],
        doc: "Double precision" },
    // 102
    OpInfo { op: DxilOp::SplitDouble, name: "SplitDouble", class: OpClass::SplitDouble,
        overloads: Overloads::from_letters("d"), ret: T::SplitDouble, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::F64)],
        doc: "Double precision" },
    // 103
    OpInfo { op: DxilOp::LoadOutputControlPoint, name: "LoadOutputControlPoint", class: OpClass::LoadOutputControlPoint,
        overloads: Overloads::from_letters("hfwi"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Hull, K::Domain]),
        params: &[p("inputSigId", T::I32), p("row", T::I32), p("col", T::I8), p("index", T::I32)],
        doc: "Domain and hull shader" },
    // 104
    OpInfo { op: DxilOp::LoadPatchConstant, name: "LoadPatchConstant", class: OpClass::LoadPatchConstant,
        overloads: Overloads::from_letters("hfwi"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Hull, K::Domain]),
        params: &[p("inputSigId", T::I32), p("row", T::I32), p("col", T::I8)],
        doc: "Domain and hull shader" },
    // 105
    OpInfo { op: DxilOp::DomainLocation, name: "DomainLocation", class: OpClass::DomainLocation,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Domain]),
        params: &[k("component", T::I8)],
        doc: "Domain shader" },
    // 106
    OpInfo { op: DxilOp::StorePatchConstant, name: "StorePatchConstant", class: OpClass::StorePatchConstant,
        overloads: Overloads::from_letters("hfwi"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::of(&[K::Hull]),
        params: &[p("outputSigID", T::I32), p("row", T::I32), p("col", T::I8), p("value", T::Overload)],
        doc: "Hull shader" },
    // 107
    OpInfo { op: DxilOp::OutputControlPointID, name: "OutputControlPointID", class: OpClass::OutputControlPointID,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Hull]),
        params: &[],
        doc: "Hull shader" },
    // 108
    OpInfo { op: DxilOp::PrimitiveID, name: "PrimitiveID", class: OpClass::PrimitiveID,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::of(&[K::Geometry, K::Hull, K::Domain]),
        params: &[],
        doc: "Hull, Domain and Geometry shaders" },
    // 109
    OpInfo { op: DxilOp::CycleCounterLegacy, name: "CycleCounterLegacy", class: OpClass::CycleCounterLegacy,
        overloads: Overloads::from_letters("v"), ret: T::TwoI32, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[],
        doc: "Other" },
    // 110
    OpInfo { op: DxilOp::WaveIsFirstLane, name: "WaveIsFirstLane", class: OpClass::WaveIsFirstLane,
        overloads: Overloads::from_letters("v"), ret: T::I1, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[],
        doc: "Wave" },
    // 111
    OpInfo { op: DxilOp::WaveGetLaneIndex, name: "WaveGetLaneIndex", class: OpClass::WaveGetLaneIndex,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[],
        doc: "Wave" },
    // 112
    OpInfo { op: DxilOp::WaveGetLaneCount, name: "WaveGetLaneCount", class: OpClass::WaveGetLaneCount,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[],
        doc: "Wave" },
    // 113
    OpInfo { op: DxilOp::WaveAnyTrue, name: "WaveAnyTrue", class: OpClass::WaveAnyTrue,
        overloads: Overloads::from_letters("v"), ret: T::I1, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("cond", T::I1)],
        doc: "Wave" },
    // 114
    OpInfo { op: DxilOp::WaveAllTrue, name: "WaveAllTrue", class: OpClass::WaveAllTrue,
        overloads: Overloads::from_letters("v"), ret: T::I1, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("cond", T::I1)],
        doc: "Wave" },
    // 115
    OpInfo { op: DxilOp::WaveActiveAllEqual, name: "WaveActiveAllEqual", class: OpClass::WaveActiveAllEqual,
        overloads: Overloads::from_letters("hfd18wil"), ret: T::I1, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Wave" },
    // 116
    OpInfo { op: DxilOp::WaveActiveBallot, name: "WaveActiveBallot", class: OpClass::WaveActiveBallot,
        overloads: Overloads::from_letters("v"), ret: T::FourI32, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("cond", T::I1)],
        doc: "Wave" },
    // 117
    OpInfo { op: DxilOp::WaveReadLaneAt, name: "WaveReadLaneAt", class: OpClass::WaveReadLaneAt,
        overloads: Overloads::from_letters("hfd18wil"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload), p("lane", T::I32)],
        doc: "Wave" },
    // 118
    OpInfo { op: DxilOp::WaveReadLaneFirst, name: "WaveReadLaneFirst", class: OpClass::WaveReadLaneFirst,
        overloads: Overloads::from_letters("hfd18wil"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Wave" },
    // 119
    OpInfo { op: DxilOp::WaveActiveOp, name: "WaveActiveOp", class: OpClass::WaveActiveOp,
        overloads: Overloads::from_letters("hfd18wil"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload), k("op", T::I8), k("sop", T::I8)],
        doc: "Wave" },
    // 120
    OpInfo { op: DxilOp::WaveActiveBit, name: "WaveActiveBit", class: OpClass::WaveActiveBit,
        overloads: Overloads::from_letters("8wil"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload), k("op", T::I8)],
        doc: "Wave" },
    // 121
    OpInfo { op: DxilOp::WavePrefixOp, name: "WavePrefixOp", class: OpClass::WavePrefixOp,
        overloads: Overloads::from_letters("hfd8wil"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::Overload), k("op", T::I8), k("sop", T::I8)],
        doc: "Wave" },
    // 122
    OpInfo { op: DxilOp::QuadReadLaneAt, name: "QuadReadLaneAt", class: OpClass::QuadReadLaneAt,
        overloads: Overloads::from_letters("hfd18wil"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification]),
        params: &[p("value", T::Overload), p("quadLane", T::I32)],
        doc: "Quad Wave Ops" },
    // 123
    OpInfo { op: DxilOp::QuadOp, name: "QuadOp", class: OpClass::QuadOp,
        overloads: Overloads::from_letters("hfd8wil"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification]),
        params: &[p("value", T::Overload), k("op", T::I8)],
        doc: "Quad Wave Ops" },
    // 124
    OpInfo { op: DxilOp::BitcastI16toF16, name: "BitcastI16toF16", class: OpClass::BitcastI16toF16,
        overloads: Overloads::from_letters("v"), ret: T::F16, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::I16)],
        doc: "Bitcasts with different sizes" },
    // 125
    OpInfo { op: DxilOp::BitcastF16toI16, name: "BitcastF16toI16", class: OpClass::BitcastF16toI16,
        overloads: Overloads::from_letters("v"), ret: T::I16, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::F16)],
        doc: "Bitcasts with different sizes" },
    // 126
    OpInfo { op: DxilOp::BitcastI32toF32, name: "BitcastI32toF32", class: OpClass::BitcastI32toF32,
        overloads: Overloads::from_letters("v"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::I32)],
        doc: "Bitcasts with different sizes" },
    // 127
    OpInfo { op: DxilOp::BitcastF32toI32, name: "BitcastF32toI32", class: OpClass::BitcastF32toI32,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::F32)],
        doc: "Bitcasts with different sizes" },
    // 128
    OpInfo { op: DxilOp::BitcastI64toF64, name: "BitcastI64toF64", class: OpClass::BitcastI64toF64,
        overloads: Overloads::from_letters("v"), ret: T::F64, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::I64)],
        doc: "Bitcasts with different sizes" },
    // 129
    OpInfo { op: DxilOp::BitcastF64toI64, name: "BitcastF64toI64", class: OpClass::BitcastF64toI64,
        overloads: Overloads::from_letters("v"), ret: T::I64, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::F64)],
        doc: "Bitcasts with different sizes" },
    // 130
    OpInfo { op: DxilOp::LegacyF32ToF16, name: "LegacyF32ToF16", class: OpClass::LegacyF32ToF16,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::F32)],
        doc: "Legacy floating-point" },
    // 131
    OpInfo { op: DxilOp::LegacyF16ToF32, name: "LegacyF16ToF32", class: OpClass::LegacyF16ToF32,
        overloads: Overloads::from_letters("v"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::I32)],
        doc: "Legacy floating-point" },
    // 132
    OpInfo { op: DxilOp::LegacyDoubleToFloat, name: "LegacyDoubleToFloat", class: OpClass::LegacyDoubleToFloat,
        overloads: Overloads::from_letters("v"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::F64)],
        doc: "Double precision" },
    // 133
    OpInfo { op: DxilOp::LegacyDoubleToSInt32, name: "LegacyDoubleToSInt32", class: OpClass::LegacyDoubleToSInt32,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::F64)],
        doc: "Double precision" },
    // 134
    OpInfo { op: DxilOp::LegacyDoubleToUInt32, name: "LegacyDoubleToUInt32", class: OpClass::LegacyDoubleToUInt32,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::F64)],
        doc: "Double precision" },
    // 135
    OpInfo { op: DxilOp::WaveAllBitCount, name: "WaveAllBitCount", class: OpClass::WaveAllOp,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::I1)],
        doc: "Wave" },
    // 136
    OpInfo { op: DxilOp::WavePrefixBitCount, name: "WavePrefixBitCount", class: OpClass::WavePrefixOp,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::None,
        min_sm: (6, 0), stages: StageMask::ALL,
        params: &[p("value", T::I1)],
        doc: "Wave; class wavePrefixOp but with the i1-in/i32-out shape of WaveAllBitCount; only its void overload (no name suffix) tells it apart from WavePrefixOp" },
    // 137
    OpInfo { op: DxilOp::AttributeAtVertex, name: "AttributeAtVertex", class: OpClass::AttributeAtVertex,
        overloads: Overloads::from_letters("hfiw"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 1), stages: StageMask::of(&[K::Pixel]),
        params: &[p("inputSigId", T::I32), p("inputRowIndex", T::I32), p("inputColIndex", T::I8), p("VertexID", T::I8)],
        doc: "Pixel shader" },
    // 138
    OpInfo { op: DxilOp::ViewID, name: "ViewID", class: OpClass::ViewID,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 1), stages: StageMask::of(&[K::Pixel, K::Vertex, K::Geometry, K::Hull, K::Domain, K::Mesh]),
        params: &[],
        doc: "Graphics shader" },
    // 139
    OpInfo { op: DxilOp::RawBufferLoad, name: "RawBufferLoad", class: OpClass::RawBufferLoad,
        overloads: Overloads::from_letters("hfwidl"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 2), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("index", T::I32), p("elementOffset", T::I32), k("mask", T::I8), k("alignment", T::I32)],
        doc: "Resources" },
    // 140
    OpInfo { op: DxilOp::RawBufferStore, name: "RawBufferStore", class: OpClass::RawBufferStore,
        overloads: Overloads::from_letters("hfwidl"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 2), stages: StageMask::ALL,
        params: &[p("uav", T::Handle), p("index", T::I32), p("elementOffset", T::I32), p("value0", T::Overload), p("value1", T::Overload), p("value2", T::Overload), p("value3", T::Overload), k("mask", T::I8), k("alignment", T::I32)],
        doc: "Resources" },
    // 141
    OpInfo { op: DxilOp::InstanceID, name: "InstanceID", class: OpClass::InstanceID,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit]),
        params: &[],
        doc: "Raytracing object space uint System Values" },
    // 142
    OpInfo { op: DxilOp::InstanceIndex, name: "InstanceIndex", class: OpClass::InstanceIndex,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit]),
        params: &[],
        doc: "Raytracing object space uint System Values" },
    // 143
    OpInfo { op: DxilOp::HitKind, name: "HitKind", class: OpClass::HitKind,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit]),
        params: &[],
        doc: "Raytracing hit uint System Values" },
    // 144
    OpInfo { op: DxilOp::RayFlags, name: "RayFlags", class: OpClass::RayFlags,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit, K::Miss]),
        params: &[],
        doc: "Raytracing uint System Values" },
    // 145
    OpInfo { op: DxilOp::DispatchRaysIndex, name: "DispatchRaysIndex", class: OpClass::DispatchRaysIndex,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::RayGeneration, K::Intersection, K::AnyHit, K::ClosestHit, K::Miss, K::Callable]),
        params: &[p("col", T::I8)],
        doc: "Ray Dispatch Arguments" },
    // 146
    OpInfo { op: DxilOp::DispatchRaysDimensions, name: "DispatchRaysDimensions", class: OpClass::DispatchRaysDimensions,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::RayGeneration, K::Intersection, K::AnyHit, K::ClosestHit, K::Miss, K::Callable]),
        params: &[p("col", T::I8)],
        doc: "Ray Dispatch Arguments" },
    // 147
    OpInfo { op: DxilOp::WorldRayOrigin, name: "WorldRayOrigin", class: OpClass::WorldRayOrigin,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit, K::Miss]),
        params: &[p("col", T::I8)],
        doc: "Ray Vectors" },
    // 148
    OpInfo { op: DxilOp::WorldRayDirection, name: "WorldRayDirection", class: OpClass::WorldRayDirection,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit, K::Miss]),
        params: &[p("col", T::I8)],
        doc: "Ray Vectors" },
    // 149
    OpInfo { op: DxilOp::ObjectRayOrigin, name: "ObjectRayOrigin", class: OpClass::ObjectRayOrigin,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit]),
        params: &[p("col", T::I8)],
        doc: "Ray object space Vectors" },
    // 150
    OpInfo { op: DxilOp::ObjectRayDirection, name: "ObjectRayDirection", class: OpClass::ObjectRayDirection,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit]),
        params: &[p("col", T::I8)],
        doc: "Ray object space Vectors" },
    // 151
    OpInfo { op: DxilOp::ObjectToWorld, name: "ObjectToWorld", class: OpClass::ObjectToWorld,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit]),
        params: &[p("row", T::I32), p("col", T::I8)],
        doc: "Ray Transforms" },
    // 152
    OpInfo { op: DxilOp::WorldToObject, name: "WorldToObject", class: OpClass::WorldToObject,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit]),
        params: &[p("row", T::I32), p("col", T::I8)],
        doc: "Ray Transforms" },
    // 153
    OpInfo { op: DxilOp::RayTMin, name: "RayTMin", class: OpClass::RayTMin,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit, K::Miss]),
        params: &[],
        doc: "RayT" },
    // 154
    OpInfo { op: DxilOp::RayTCurrent, name: "RayTCurrent", class: OpClass::RayTCurrent,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit, K::Miss]),
        params: &[],
        doc: "RayT" },
    // 155
    OpInfo { op: DxilOp::IgnoreHit, name: "IgnoreHit", class: OpClass::IgnoreHit,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::NoReturn,
        min_sm: (6, 3), stages: StageMask::of(&[K::AnyHit]),
        params: &[],
        doc: "AnyHit Terminals" },
    // 156
    OpInfo { op: DxilOp::AcceptHitAndEndSearch, name: "AcceptHitAndEndSearch", class: OpClass::AcceptHitAndEndSearch,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::NoReturn,
        min_sm: (6, 3), stages: StageMask::of(&[K::AnyHit]),
        params: &[],
        doc: "AnyHit Terminals" },
    // 157
    OpInfo { op: DxilOp::TraceRay, name: "TraceRay", class: OpClass::TraceRay,
        overloads: Overloads::from_letters("u"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::RayGeneration, K::ClosestHit, K::Miss]),
        params: &[p("AccelerationStructure", T::Handle), p("RayFlags", T::I32), p("InstanceInclusionMask", T::I32), p("RayContributionToHitGroupIndex", T::I32), p("MultiplierForGeometryContributionToShaderIndex", T::I32), p("MissShaderIndex", T::I32), p("Origin_X", T::F32), p("Origin_Y", T::F32), p("Origin_Z", T::F32), p("TMin", T::F32), p("Direction_X", T::F32), p("Direction_Y", T::F32), p("Direction_Z", T::F32), p("TMax", T::F32), p("payload", T::Udt)],
        doc: "Indirect Shader Invocation" },
    // 158
    OpInfo { op: DxilOp::ReportHit, name: "ReportHit", class: OpClass::ReportHit,
        overloads: Overloads::from_letters("u"), ret: T::I1, attr: OpAttr::None,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection]),
        params: &[p("THit", T::F32), p("HitKind", T::I32), p("Attributes", T::Udt)],
        doc: "Indirect Shader Invocation" },
    // 159
    OpInfo { op: DxilOp::CallShader, name: "CallShader", class: OpClass::CallShader,
        overloads: Overloads::from_letters("u"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::RayGeneration, K::ClosestHit, K::Miss, K::Callable]),
        params: &[p("ShaderIndex", T::I32), p("Parameter", T::Udt)],
        doc: "Indirect Shader Invocation" },
    // 160
    OpInfo { op: DxilOp::CreateHandleForLib, name: "CreateHandleForLib", class: OpClass::CreateHandleForLib,
        overloads: Overloads::from_letters("o"), ret: T::Handle, attr: OpAttr::ReadOnly,
        min_sm: (6, 3), stages: StageMask::ALL,
        params: &[p("Resource", T::Obj)],
        doc: "Library create handle from resource struct; only appears in library (lib_6_x) DXIL; linking lowers it (translated to SM 6.0)" },
    // 161
    OpInfo { op: DxilOp::PrimitiveIndex, name: "PrimitiveIndex", class: OpClass::PrimitiveIndex,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 3), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit]),
        params: &[],
        doc: "Raytracing object space uint System Values" },
    // 162
    OpInfo { op: DxilOp::Dot2AddHalf, name: "Dot2AddHalf", class: OpClass::Dot2AddHalf,
        overloads: Overloads::from_letters("f"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 4), stages: StageMask::ALL,
        params: &[p("acc", T::Overload), p("ax", T::F16), p("ay", T::F16), p("bx", T::F16), p("by", T::F16)],
        doc: "Dot product with accumulate" },
    // 163
    OpInfo { op: DxilOp::Dot4AddI8Packed, name: "Dot4AddI8Packed", class: OpClass::Dot4AddPacked,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 4), stages: StageMask::ALL,
        params: &[p("acc", T::I32), p("a", T::I32), p("b", T::I32)],
        doc: "Dot product with accumulate" },
    // 164
    OpInfo { op: DxilOp::Dot4AddU8Packed, name: "Dot4AddU8Packed", class: OpClass::Dot4AddPacked,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 4), stages: StageMask::ALL,
        params: &[p("acc", T::I32), p("a", T::I32), p("b", T::I32)],
        doc: "Dot product with accumulate" },
    // 165
    OpInfo { op: DxilOp::WaveMatch, name: "WaveMatch", class: OpClass::WaveMatch,
        overloads: Overloads::from_letters("hfd8wil"), ret: T::FourI32, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("value", T::Overload)],
        doc: "Wave" },
    // 166
    OpInfo { op: DxilOp::WaveMultiPrefixOp, name: "WaveMultiPrefixOp", class: OpClass::WaveMultiPrefixOp,
        overloads: Overloads::from_letters("hfd8wil"), ret: T::Overload, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("value", T::Overload), p("mask0", T::I32), p("mask1", T::I32), p("mask2", T::I32), p("mask3", T::I32), k("op", T::I8), k("sop", T::I8)],
        doc: "Wave" },
    // 167
    OpInfo { op: DxilOp::WaveMultiPrefixBitCount, name: "WaveMultiPrefixBitCount", class: OpClass::WaveMultiPrefixBitCount,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("value", T::I1), p("mask0", T::I32), p("mask1", T::I32), p("mask2", T::I32), p("mask3", T::I32)],
        doc: "Wave" },
    // 168
    OpInfo { op: DxilOp::SetMeshOutputCounts, name: "SetMeshOutputCounts", class: OpClass::SetMeshOutputCounts,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::of(&[K::Mesh]),
        params: &[p("numVertices", T::I32), p("numPrimitives", T::I32)],
        doc: "Mesh shader instructions" },
    // 169
    OpInfo { op: DxilOp::EmitIndices, name: "EmitIndices", class: OpClass::EmitIndices,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::of(&[K::Mesh]),
        params: &[p("PrimitiveIndex", T::I32), p("VertexIndex0", T::I32), p("VertexIndex1", T::I32), p("VertexIndex2", T::I32)],
        doc: "Mesh shader instructions" },
    // 170
    OpInfo { op: DxilOp::GetMeshPayload, name: "GetMeshPayload", class: OpClass::GetMeshPayload,
        overloads: Overloads::from_letters("u"), ret: T::Overload, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::of(&[K::Mesh]),
        params: &[],
        doc: "Mesh shader instructions" },
    // 171
    OpInfo { op: DxilOp::StoreVertexOutput, name: "StoreVertexOutput", class: OpClass::StoreVertexOutput,
        overloads: Overloads::from_letters("hfwi"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::of(&[K::Mesh]),
        params: &[p("outputSigId", T::I32), p("rowIndex", T::I32), p("colIndex", T::I8), p("value", T::Overload), p("vertexIndex", T::I32)],
        doc: "Mesh shader instructions" },
    // 172
    OpInfo { op: DxilOp::StorePrimitiveOutput, name: "StorePrimitiveOutput", class: OpClass::StorePrimitiveOutput,
        overloads: Overloads::from_letters("hfwi"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::of(&[K::Mesh]),
        params: &[p("outputSigId", T::I32), p("rowIndex", T::I32), p("colIndex", T::I8), p("value", T::Overload), p("primitiveIndex", T::I32)],
        doc: "Mesh shader instructions" },
    // 173
    OpInfo { op: DxilOp::DispatchMesh, name: "DispatchMesh", class: OpClass::DispatchMesh,
        overloads: Overloads::from_letters("u"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::of(&[K::Amplification]),
        params: &[p("threadGroupCountX", T::I32), p("threadGroupCountY", T::I32), p("threadGroupCountZ", T::I32), p("payload", T::Overload)],
        doc: "Amplification shader instructions" },
    // 174
    OpInfo { op: DxilOp::WriteSamplerFeedback, name: "WriteSamplerFeedback", class: OpClass::WriteSamplerFeedback,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::of(&[K::Pixel, K::Library]),
        params: &[p("feedbackTex", T::Handle), p("sampledTex", T::Handle), p("sampler", T::Handle), p("c0", T::F32), p("c1", T::F32), p("c2", T::F32), p("c3", T::F32), p("clamp", T::F32)],
        doc: "Sampler Feedback" },
    // 175
    OpInfo { op: DxilOp::WriteSamplerFeedbackBias, name: "WriteSamplerFeedbackBias", class: OpClass::WriteSamplerFeedbackBias,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::of(&[K::Pixel, K::Library]),
        params: &[p("feedbackTex", T::Handle), p("sampledTex", T::Handle), p("sampler", T::Handle), p("c0", T::F32), p("c1", T::F32), p("c2", T::F32), p("c3", T::F32), p("bias", T::F32), p("clamp", T::F32)],
        doc: "Sampler Feedback" },
    // 176
    OpInfo { op: DxilOp::WriteSamplerFeedbackLevel, name: "WriteSamplerFeedbackLevel", class: OpClass::WriteSamplerFeedbackLevel,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("feedbackTex", T::Handle), p("sampledTex", T::Handle), p("sampler", T::Handle), p("c0", T::F32), p("c1", T::F32), p("c2", T::F32), p("c3", T::F32), p("lod", T::F32)],
        doc: "Sampler Feedback" },
    // 177
    OpInfo { op: DxilOp::WriteSamplerFeedbackGrad, name: "WriteSamplerFeedbackGrad", class: OpClass::WriteSamplerFeedbackGrad,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("feedbackTex", T::Handle), p("sampledTex", T::Handle), p("sampler", T::Handle), p("c0", T::F32), p("c1", T::F32), p("c2", T::F32), p("c3", T::F32), p("ddx0", T::F32), p("ddx1", T::F32), p("ddx2", T::F32), p("ddy0", T::F32), p("ddy1", T::F32), p("ddy2", T::F32), p("clamp", T::F32)],
        doc: "Sampler Feedback" },
    // 178
    OpInfo { op: DxilOp::AllocateRayQuery, name: "AllocateRayQuery", class: OpClass::AllocateRayQuery,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[k("constRayFlags", T::I32)],
        doc: "Inline Ray Query" },
    // 179
    OpInfo { op: DxilOp::RayQuery_TraceRayInline, name: "RayQuery_TraceRayInline", class: OpClass::RayQuery_TraceRayInline,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), p("accelerationStructure", T::Handle), p("rayFlags", T::I32), p("instanceInclusionMask", T::I32), p("origin_X", T::F32), p("origin_Y", T::F32), p("origin_Z", T::F32), p("tMin", T::F32), p("direction_X", T::F32), p("direction_Y", T::F32), p("direction_Z", T::F32), p("tMax", T::F32)],
        doc: "Inline Ray Query" },
    // 180
    OpInfo { op: DxilOp::RayQuery_Proceed, name: "RayQuery_Proceed", class: OpClass::RayQuery_Proceed,
        overloads: Overloads::from_letters("1"), ret: T::I1, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 181
    OpInfo { op: DxilOp::RayQuery_Abort, name: "RayQuery_Abort", class: OpClass::RayQuery_Abort,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 182
    OpInfo { op: DxilOp::RayQuery_CommitNonOpaqueTriangleHit, name: "RayQuery_CommitNonOpaqueTriangleHit", class: OpClass::RayQuery_CommitNonOpaqueTriangleHit,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 183
    OpInfo { op: DxilOp::RayQuery_CommitProceduralPrimitiveHit, name: "RayQuery_CommitProceduralPrimitiveHit", class: OpClass::RayQuery_CommitProceduralPrimitiveHit,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), p("t", T::F32)],
        doc: "Inline Ray Query" },
    // 184
    OpInfo { op: DxilOp::RayQuery_CommittedStatus, name: "RayQuery_CommittedStatus", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 185
    OpInfo { op: DxilOp::RayQuery_CandidateType, name: "RayQuery_CandidateType", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 186
    OpInfo { op: DxilOp::RayQuery_CandidateObjectToWorld3x4, name: "RayQuery_CandidateObjectToWorld3x4", class: OpClass::RayQuery_StateMatrix,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), p("row", T::I32), p("col", T::I8)],
        doc: "Inline Ray Query" },
    // 187
    OpInfo { op: DxilOp::RayQuery_CandidateWorldToObject3x4, name: "RayQuery_CandidateWorldToObject3x4", class: OpClass::RayQuery_StateMatrix,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), p("row", T::I32), p("col", T::I8)],
        doc: "Inline Ray Query" },
    // 188
    OpInfo { op: DxilOp::RayQuery_CommittedObjectToWorld3x4, name: "RayQuery_CommittedObjectToWorld3x4", class: OpClass::RayQuery_StateMatrix,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), p("row", T::I32), p("col", T::I8)],
        doc: "Inline Ray Query" },
    // 189
    OpInfo { op: DxilOp::RayQuery_CommittedWorldToObject3x4, name: "RayQuery_CommittedWorldToObject3x4", class: OpClass::RayQuery_StateMatrix,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), p("row", T::I32), p("col", T::I8)],
        doc: "Inline Ray Query" },
    // 190
    OpInfo { op: DxilOp::RayQuery_CandidateProceduralPrimitiveNonOpaque, name: "RayQuery_CandidateProceduralPrimitiveNonOpaque", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("1"), ret: T::I1, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 191
    OpInfo { op: DxilOp::RayQuery_CandidateTriangleFrontFace, name: "RayQuery_CandidateTriangleFrontFace", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("1"), ret: T::I1, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 192
    OpInfo { op: DxilOp::RayQuery_CommittedTriangleFrontFace, name: "RayQuery_CommittedTriangleFrontFace", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("1"), ret: T::I1, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 193
    OpInfo { op: DxilOp::RayQuery_CandidateTriangleBarycentrics, name: "RayQuery_CandidateTriangleBarycentrics", class: OpClass::RayQuery_StateVector,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), k("component", T::I8)],
        doc: "Inline Ray Query" },
    // 194
    OpInfo { op: DxilOp::RayQuery_CommittedTriangleBarycentrics, name: "RayQuery_CommittedTriangleBarycentrics", class: OpClass::RayQuery_StateVector,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), k("component", T::I8)],
        doc: "Inline Ray Query" },
    // 195
    OpInfo { op: DxilOp::RayQuery_RayFlags, name: "RayQuery_RayFlags", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 196
    OpInfo { op: DxilOp::RayQuery_WorldRayOrigin, name: "RayQuery_WorldRayOrigin", class: OpClass::RayQuery_StateVector,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), k("component", T::I8)],
        doc: "Inline Ray Query" },
    // 197
    OpInfo { op: DxilOp::RayQuery_WorldRayDirection, name: "RayQuery_WorldRayDirection", class: OpClass::RayQuery_StateVector,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), k("component", T::I8)],
        doc: "Inline Ray Query" },
    // 198
    OpInfo { op: DxilOp::RayQuery_RayTMin, name: "RayQuery_RayTMin", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 199
    OpInfo { op: DxilOp::RayQuery_CandidateTriangleRayT, name: "RayQuery_CandidateTriangleRayT", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 200
    OpInfo { op: DxilOp::RayQuery_CommittedRayT, name: "RayQuery_CommittedRayT", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 201
    OpInfo { op: DxilOp::RayQuery_CandidateInstanceIndex, name: "RayQuery_CandidateInstanceIndex", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 202
    OpInfo { op: DxilOp::RayQuery_CandidateInstanceID, name: "RayQuery_CandidateInstanceID", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 203
    OpInfo { op: DxilOp::RayQuery_CandidateGeometryIndex, name: "RayQuery_CandidateGeometryIndex", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 204
    OpInfo { op: DxilOp::RayQuery_CandidatePrimitiveIndex, name: "RayQuery_CandidatePrimitiveIndex", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 205
    OpInfo { op: DxilOp::RayQuery_CandidateObjectRayOrigin, name: "RayQuery_CandidateObjectRayOrigin", class: OpClass::RayQuery_StateVector,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), k("component", T::I8)],
        doc: "Inline Ray Query" },
    // 206
    OpInfo { op: DxilOp::RayQuery_CandidateObjectRayDirection, name: "RayQuery_CandidateObjectRayDirection", class: OpClass::RayQuery_StateVector,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), k("component", T::I8)],
        doc: "Inline Ray Query" },
    // 207
    OpInfo { op: DxilOp::RayQuery_CommittedInstanceIndex, name: "RayQuery_CommittedInstanceIndex", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 208
    OpInfo { op: DxilOp::RayQuery_CommittedInstanceID, name: "RayQuery_CommittedInstanceID", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 209
    OpInfo { op: DxilOp::RayQuery_CommittedGeometryIndex, name: "RayQuery_CommittedGeometryIndex", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 210
    OpInfo { op: DxilOp::RayQuery_CommittedPrimitiveIndex, name: "RayQuery_CommittedPrimitiveIndex", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 211
    OpInfo { op: DxilOp::RayQuery_CommittedObjectRayOrigin, name: "RayQuery_CommittedObjectRayOrigin", class: OpClass::RayQuery_StateVector,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), k("component", T::I8)],
        doc: "Inline Ray Query" },
    // 212
    OpInfo { op: DxilOp::RayQuery_CommittedObjectRayDirection, name: "RayQuery_CommittedObjectRayDirection", class: OpClass::RayQuery_StateVector,
        overloads: Overloads::from_letters("f"), ret: T::F32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32), k("component", T::I8)],
        doc: "Inline Ray Query" },
    // 213
    OpInfo { op: DxilOp::GeometryIndex, name: "GeometryIndex", class: OpClass::GeometryIndex,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 5), stages: StageMask::of(&[K::Library, K::Intersection, K::AnyHit, K::ClosestHit]),
        params: &[],
        doc: "Raytracing object space uint System Values, raytracing tier 1.1" },
    // 214
    OpInfo { op: DxilOp::RayQuery_CandidateInstanceContributionToHitGroupIndex, name: "RayQuery_CandidateInstanceContributionToHitGroupIndex", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 215
    OpInfo { op: DxilOp::RayQuery_CommittedInstanceContributionToHitGroupIndex, name: "RayQuery_CommittedInstanceContributionToHitGroupIndex", class: OpClass::RayQuery_StateScalar,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 5), stages: StageMask::ALL,
        params: &[p("rayQueryHandle", T::I32)],
        doc: "Inline Ray Query" },
    // 216
    OpInfo { op: DxilOp::AnnotateHandle, name: "AnnotateHandle", class: OpClass::AnnotateHandle,
        overloads: Overloads::from_letters("v"), ret: T::Handle, attr: OpAttr::ReadNone,
        min_sm: (6, 6), stages: StageMask::ALL,
        params: &[p("res", T::Handle), k("props", T::ResourceProperties)],
        doc: "Get handle from heap; the props argument is a %dx.types.ResourceProperties constant" },
    // 217
    OpInfo { op: DxilOp::CreateHandleFromBinding, name: "CreateHandleFromBinding", class: OpClass::CreateHandleFromBinding,
        overloads: Overloads::from_letters("v"), ret: T::Handle, attr: OpAttr::ReadNone,
        min_sm: (6, 6), stages: StageMask::ALL,
        params: &[k("bind", T::ResBind), p("index", T::I32), k("nonUniformIndex", T::I1)],
        doc: "Get handle from heap; the bind argument is a %dx.types.ResBind constant {lower bound, upper bound, space, class}" },
    // 218
    OpInfo { op: DxilOp::CreateHandleFromHeap, name: "CreateHandleFromHeap", class: OpClass::CreateHandleFromHeap,
        overloads: Overloads::from_letters("v"), ret: T::Handle, attr: OpAttr::ReadNone,
        min_sm: (6, 6), stages: StageMask::ALL,
        params: &[p("index", T::I32), k("samplerHeap", T::I1), k("nonUniformIndex", T::I1)],
        doc: "Get handle from heap" },
    // 219
    OpInfo { op: DxilOp::Unpack4x8, name: "Unpack4x8", class: OpClass::Unpack4x8,
        overloads: Overloads::from_letters("iw"), ret: T::FourOverload, attr: OpAttr::ReadNone,
        min_sm: (6, 6), stages: StageMask::ALL,
        params: &[p("unpackMode", T::I8), p("pk", T::I32)],
        doc: "Unpacking intrinsics" },
    // 220
    OpInfo { op: DxilOp::Pack4x8, name: "Pack4x8", class: OpClass::Pack4x8,
        overloads: Overloads::from_letters("iw"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 6), stages: StageMask::ALL,
        params: &[p("packMode", T::I8), p("x", T::Overload), p("y", T::Overload), p("z", T::Overload), p("w", T::Overload)],
        doc: "Packing intrinsics" },
    // 221
    OpInfo { op: DxilOp::IsHelperLane, name: "IsHelperLane", class: OpClass::IsHelperLane,
        overloads: Overloads::from_letters("1"), ret: T::I1, attr: OpAttr::ReadOnly,
        min_sm: (6, 6), stages: StageMask::ALL,
        params: &[],
        doc: "Helper Lanes; meaningful in pixel shaders; hctdb gives no stage rule" },
    // 222
    OpInfo { op: DxilOp::QuadVote, name: "QuadVote", class: OpClass::QuadVote,
        overloads: Overloads::from_letters("1"), ret: T::I1, attr: OpAttr::None,
        min_sm: (6, 7), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification]),
        params: &[p("cond", T::I1), k("op", T::I8)],
        doc: "Quad Wave Ops" },
    // 223
    OpInfo { op: DxilOp::TextureGatherRaw, name: "TextureGatherRaw", class: OpClass::TextureGatherRaw,
        overloads: Overloads::from_letters("wil"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 7), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32)],
        doc: "Resources - gather" },
    // 224
    OpInfo { op: DxilOp::SampleCmpLevel, name: "SampleCmpLevel", class: OpClass::SampleCmpLevel,
        overloads: Overloads::from_letters("hf"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 7), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("compareValue", T::F32), p("lod", T::F32)],
        doc: "Resources - sample" },
    // 225
    OpInfo { op: DxilOp::TextureStoreSample, name: "TextureStoreSample", class: OpClass::TextureStoreSample,
        overloads: Overloads::from_letters("hfwi"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 7), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("coord0", T::I32), p("coord1", T::I32), p("coord2", T::I32), p("value0", T::Overload), p("value1", T::Overload), p("value2", T::Overload), p("value3", T::Overload), k("mask", T::I8), p("sampleIdx", T::I32)],
        doc: "Resources" },
    // 226
    OpInfo { op: DxilOp::WaveMatrix_Annotate, name: "WaveMatrix_Annotate", class: OpClass::WaveMatrix_Annotate,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::ArgMemOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixPtr", T::WaveMatrixPtr), k("waveMatProps", T::WaveMatProps)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 227
    OpInfo { op: DxilOp::WaveMatrix_Depth, name: "WaveMatrix_Depth", class: OpClass::WaveMatrix_Depth,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatProps", T::WaveMatProps)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 228
    OpInfo { op: DxilOp::WaveMatrix_Fill, name: "WaveMatrix_Fill", class: OpClass::WaveMatrix_Fill,
        overloads: Overloads::from_letters("hfi"), ret: T::Void, attr: OpAttr::ArgMemOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixPtr", T::WaveMatrixPtr), p("value", T::Overload)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 229
    OpInfo { op: DxilOp::WaveMatrix_LoadRawBuf, name: "WaveMatrix_LoadRawBuf", class: OpClass::WaveMatrix_LoadRawBuf,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixPtr", T::WaveMatrixPtr), p("rawBuf", T::Handle), p("offsetInBytes", T::I32), p("strideInBytes", T::I32), k("alignmentInBytes", T::I8), k("colMajor", T::I1)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 230
    OpInfo { op: DxilOp::WaveMatrix_LoadGroupShared, name: "WaveMatrix_LoadGroupShared", class: OpClass::WaveMatrix_LoadGroupShared,
        overloads: Overloads::from_letters("hfi"), ret: T::Void, attr: OpAttr::ArgMemOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixPtr", T::WaveMatrixPtr), p("groupsharedPtr", T::GroupSharedPtr), p("startArrayIndex", T::I32), p("strideInElements", T::I32), k("colMajor", T::I1)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 231
    OpInfo { op: DxilOp::WaveMatrix_StoreRawBuf, name: "WaveMatrix_StoreRawBuf", class: OpClass::WaveMatrix_StoreRawBuf,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixPtr", T::WaveMatrixPtr), p("rawBuf", T::Handle), p("offsetInBytes", T::I32), p("strideInBytes", T::I32), k("alignmentInBytes", T::I8), k("colMajor", T::I1)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 232
    OpInfo { op: DxilOp::WaveMatrix_StoreGroupShared, name: "WaveMatrix_StoreGroupShared", class: OpClass::WaveMatrix_StoreGroupShared,
        overloads: Overloads::from_letters("hfi"), ret: T::Void, attr: OpAttr::ArgMemOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixPtr", T::WaveMatrixPtr), p("groupsharedPtr", T::GroupSharedPtr), p("startArrayIndex", T::I32), p("strideInElements", T::I32), k("colMajor", T::I1)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 233
    OpInfo { op: DxilOp::WaveMatrix_Multiply, name: "WaveMatrix_Multiply", class: OpClass::WaveMatrix_Multiply,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::ArgMemOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixAccumulator", T::WaveMatrixPtr), p("waveMatrixLeft", T::WaveMatrixPtr), p("waveMatrixRight", T::WaveMatrixPtr)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 234
    OpInfo { op: DxilOp::WaveMatrix_MultiplyAccumulate, name: "WaveMatrix_MultiplyAccumulate", class: OpClass::WaveMatrix_Multiply,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::ArgMemOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixAccumulator", T::WaveMatrixPtr), p("waveMatrixLeft", T::WaveMatrixPtr), p("waveMatrixRight", T::WaveMatrixPtr)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 235
    OpInfo { op: DxilOp::WaveMatrix_ScalarOp, name: "WaveMatrix_ScalarOp", class: OpClass::WaveMatrix_ScalarOp,
        overloads: Overloads::from_letters("hfi"), ret: T::Void, attr: OpAttr::ArgMemOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixPtr", T::WaveMatrixPtr), k("op", T::I8), p("value", T::Overload)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 236
    OpInfo { op: DxilOp::WaveMatrix_SumAccumulate, name: "WaveMatrix_SumAccumulate", class: OpClass::WaveMatrix_Accumulate,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::ArgMemOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixFragment", T::WaveMatrixPtr), p("waveMatrixInput", T::WaveMatrixPtr)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 237
    OpInfo { op: DxilOp::WaveMatrix_Add, name: "WaveMatrix_Add", class: OpClass::WaveMatrix_Accumulate,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::ArgMemOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Compute, K::Library]),
        params: &[p("waveMatrixAccumulator", T::WaveMatrixPtr), p("waveMatrixAccumulatorOrFragment", T::WaveMatrixPtr)],
        doc: "WaveMatrix; hctdb lists SM 6.7, raised to SM 6.8: the opcode only exists from DXIL 1.8; experimental WaveMatrix op, never part of a released shader model; newer DXC renames opcodes 226-237 to Reserved0..Reserved11 (no arguments)" },
    // 238
    OpInfo { op: DxilOp::AllocateNodeOutputRecords, name: "AllocateNodeOutputRecords", class: OpClass::AllocateNodeOutputRecords,
        overloads: Overloads::from_letters("v"), ret: T::NodeRecordHandle, attr: OpAttr::None,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("output", T::NodeHandle), p("numRecords", T::I32), k("perThread", T::I1)],
        doc: "Create/Annotate Node Handles" },
    // 239
    OpInfo { op: DxilOp::GetNodeRecordPtr, name: "GetNodeRecordPtr", class: OpClass::GetNodeRecordPtr,
        overloads: Overloads::from_letters("u"), ret: T::Overload, attr: OpAttr::ReadNone,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("recordhandle", T::NodeRecordHandle), p("arrayIndex", T::I32)],
        doc: "Get Pointer to Node Record in Address Space 6" },
    // 240
    OpInfo { op: DxilOp::IncrementOutputCount, name: "IncrementOutputCount", class: OpClass::IncrementOutputCount,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("output", T::NodeHandle), p("count", T::I32), k("perThread", T::I1)],
        doc: "Work Graph intrinsics" },
    // 241
    OpInfo { op: DxilOp::OutputComplete, name: "OutputComplete", class: OpClass::OutputComplete,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::None,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("output", T::NodeRecordHandle)],
        doc: "Work Graph intrinsics" },
    // 242
    OpInfo { op: DxilOp::GetInputRecordCount, name: "GetInputRecordCount", class: OpClass::GetInputRecordCount,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("input", T::NodeRecordHandle)],
        doc: "Work Graph intrinsics" },
    // 243
    OpInfo { op: DxilOp::FinishedCrossGroupSharing, name: "FinishedCrossGroupSharing", class: OpClass::FinishedCrossGroupSharing,
        overloads: Overloads::from_letters("v"), ret: T::I1, attr: OpAttr::None,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("input", T::NodeRecordHandle)],
        doc: "Work Graph intrinsics" },
    // 244
    OpInfo { op: DxilOp::BarrierByMemoryType, name: "BarrierByMemoryType", class: OpClass::BarrierByMemoryType,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::NoDuplicate,
        min_sm: (6, 8), stages: StageMask::ALL,
        params: &[k("MemoryTypeFlags", T::I32), k("SemanticFlags", T::I32)],
        doc: "Synchronization" },
    // 245
    OpInfo { op: DxilOp::BarrierByMemoryHandle, name: "BarrierByMemoryHandle", class: OpClass::BarrierByMemoryHandle,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::NoDuplicate,
        min_sm: (6, 8), stages: StageMask::ALL,
        params: &[p("object", T::Handle), k("SemanticFlags", T::I32)],
        doc: "Synchronization" },
    // 246
    OpInfo { op: DxilOp::BarrierByNodeRecordHandle, name: "BarrierByNodeRecordHandle", class: OpClass::BarrierByNodeRecordHandle,
        overloads: Overloads::from_letters("v"), ret: T::Void, attr: OpAttr::NoDuplicate,
        min_sm: (6, 8), stages: StageMask::ALL,
        params: &[p("object", T::NodeRecordHandle), p("SemanticFlags", T::I32)],
        doc: "Synchronization" },
    // 247
    OpInfo { op: DxilOp::CreateNodeOutputHandle, name: "CreateNodeOutputHandle", class: OpClass::CreateNodeOutputHandle,
        overloads: Overloads::from_letters("v"), ret: T::NodeHandle, attr: OpAttr::ReadNone,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("MetadataIdx", T::I32)],
        doc: "Create/Annotate Node Handles" },
    // 248
    OpInfo { op: DxilOp::IndexNodeHandle, name: "IndexNodeHandle", class: OpClass::IndexNodeHandle,
        overloads: Overloads::from_letters("v"), ret: T::NodeHandle, attr: OpAttr::ReadNone,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("NodeOutputHandle", T::NodeHandle), p("ArrayIndex", T::I32)],
        doc: "Create/Annotate Node Handles" },
    // 249
    OpInfo { op: DxilOp::AnnotateNodeHandle, name: "AnnotateNodeHandle", class: OpClass::AnnotateNodeHandle,
        overloads: Overloads::from_letters("v"), ret: T::NodeHandle, attr: OpAttr::ReadNone,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("node", T::NodeHandle), k("props", T::NodeInfo)],
        doc: "Create/Annotate Node Handles" },
    // 250
    OpInfo { op: DxilOp::CreateNodeInputRecordHandle, name: "CreateNodeInputRecordHandle", class: OpClass::CreateNodeInputRecordHandle,
        overloads: Overloads::from_letters("v"), ret: T::NodeRecordHandle, attr: OpAttr::ReadNone,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("MetadataIdx", T::I32)],
        doc: "Create/Annotate Node Handles" },
    // 251
    OpInfo { op: DxilOp::AnnotateNodeRecordHandle, name: "AnnotateNodeRecordHandle", class: OpClass::AnnotateNodeRecordHandle,
        overloads: Overloads::from_letters("v"), ret: T::NodeRecordHandle, attr: OpAttr::ReadNone,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("noderecord", T::NodeRecordHandle), k("props", T::NodeRecordInfo)],
        doc: "Create/Annotate Node Handles" },
    // 252
    OpInfo { op: DxilOp::NodeOutputIsValid, name: "NodeOutputIsValid", class: OpClass::NodeOutputIsValid,
        overloads: Overloads::from_letters("v"), ret: T::I1, attr: OpAttr::ReadOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[p("output", T::NodeHandle)],
        doc: "Work Graph intrinsics" },
    // 253
    OpInfo { op: DxilOp::GetRemainingRecursionLevels, name: "GetRemainingRecursionLevels", class: OpClass::GetRemainingRecursionLevels,
        overloads: Overloads::from_letters("v"), ret: T::I32, attr: OpAttr::ReadOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Node]),
        params: &[],
        doc: "Work Graph intrinsics" },
    // 254
    OpInfo { op: DxilOp::SampleCmpGrad, name: "SampleCmpGrad", class: OpClass::SampleCmpGrad,
        overloads: Overloads::from_letters("hf"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 8), stages: StageMask::ALL,
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("compareValue", T::F32), p("ddx0", T::F32), p("ddx1", T::F32), p("ddx2", T::F32), p("ddy0", T::F32), p("ddy1", T::F32), p("ddy2", T::F32), p("clamp", T::F32)],
        doc: "Comparison Samples" },
    // 255
    OpInfo { op: DxilOp::SampleCmpBias, name: "SampleCmpBias", class: OpClass::SampleCmpBias,
        overloads: Overloads::from_letters("hf"), ret: T::ResRet, attr: OpAttr::ReadOnly,
        min_sm: (6, 8), stages: StageMask::of(&[K::Pixel, K::Compute, K::Library, K::Mesh, K::Amplification, K::Node]),
        params: &[p("srv", T::Handle), p("sampler", T::Handle), p("coord0", T::F32), p("coord1", T::F32), p("coord2", T::F32), p("coord3", T::F32), p("offset0", T::I32), p("offset1", T::I32), p("offset2", T::I32), p("compareValue", T::F32), p("bias", T::F32), p("clamp", T::F32)],
        doc: "Comparison Samples" },
    // 256
    OpInfo { op: DxilOp::StartVertexLocation, name: "StartVertexLocation", class: OpClass::StartVertexLocation,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 8), stages: StageMask::of(&[K::Vertex]),
        params: &[],
        doc: "Extended Command Information" },
    // 257
    OpInfo { op: DxilOp::StartInstanceLocation, name: "StartInstanceLocation", class: OpClass::StartInstanceLocation,
        overloads: Overloads::from_letters("i"), ret: T::I32, attr: OpAttr::ReadNone,
        min_sm: (6, 8), stages: StageMask::of(&[K::Vertex]),
        params: &[],
        doc: "Extended Command Information" },
];
// ---- END GENERATED ----

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Opcode count of DXIL 1.8 (`NumOpCodes` in DXC's DxilConstants.h).
    const DXC_NUM_OPCODES: usize = 258;

    #[test]
    fn table_is_indexed_by_opcode() {
        for (i, info) in OPS.iter().enumerate() {
            assert_eq!(info.op as u32, i as u32, "{}", info.name);
            assert!(std::ptr::eq(info.op.info(), info));
        }
    }

    #[test]
    fn count_matches_dxc() {
        assert_eq!(OPS.len(), DXC_NUM_OPCODES);
        assert_eq!(NUM_OPS, DXC_NUM_OPCODES);
        assert_eq!(DxilOp::StartInstanceLocation as usize, DXC_NUM_OPCODES - 1);
        assert_eq!(DxilOp::from_u32(DXC_NUM_OPCODES as u32), None);
        assert_eq!(DxilOp::from_u32(u32::MAX), None);
    }

    #[test]
    fn names_unique_and_match_variants() {
        let mut seen = HashSet::new();
        for info in OPS {
            assert!(seen.insert(info.name), "duplicate {}", info.name);
            assert_eq!(format!("{:?}", info.op), info.name);
            assert_eq!(info.op.name(), info.name);
            assert_eq!(info.op.to_string(), info.name);
        }
    }

    #[test]
    fn from_u32_and_from_name_round_trip() {
        for op in DxilOp::all() {
            assert_eq!(DxilOp::from_u32(op as u32), Some(op));
            assert_eq!(DxilOp::from_name(op.name()), Some(op));
        }
        assert_eq!(DxilOp::from_name("NoSuchOp"), None);
    }

    #[test]
    fn classes_round_trip_and_are_used() {
        let mut seen = HashSet::new();
        for c in OpClass::ALL {
            assert!(seen.insert(c.llvm_name()), "duplicate {}", c.llvm_name());
            assert_eq!(OpClass::from_llvm_name(c.llvm_name()), Some(c));
            assert!(c.ops().next().is_some(), "{c:?} has no op");
            let first = c.llvm_name().chars().next().unwrap();
            assert!(first.is_ascii_lowercase(), "{}", c.llvm_name());
        }
        assert_eq!(OpClass::CBufferLoad.llvm_name(), "cbufferLoad");
        assert_eq!(OpClass::CBufferLoadLegacy.llvm_name(), "cbufferLoadLegacy");
        assert_eq!(OpClass::GSInstanceID.llvm_name(), "gsInstanceID");
        assert_eq!(OpClass::Texture2DMSGetSamplePosition.llvm_name(), "texture2DMSGetSamplePosition");
        assert_eq!(OpClass::RayQuery_StateScalar.llvm_name(), "rayQuery_StateScalar");
        assert_eq!(OpClass::CreateNodeOutputHandle.llvm_name(), "createNodeOutputHandle");
        assert_eq!(OpClass::from_llvm_name("LoadInput"), None);
    }

    #[test]
    fn overload_sets_are_well_formed() {
        for info in OPS {
            assert!(!info.overloads.is_empty(), "{}", info.name);
            if info.overloads.contains(Overload::Void) {
                assert_eq!(info.overloads.len(), 1, "void must stand alone: {}", info.name);
            }
            let uses_overload =
                info.ret.depends_on_overload() || info.params.iter().any(|p| p.ty.depends_on_overload());
            if info.overloads == Overloads::from(Overload::Void) {
                assert!(!uses_overload, "{} is void-overloaded but uses $o", info.name);
            }
        }
    }

    #[test]
    fn shader_model_never_below_dxil_version() {
        // NumOpCodes_Dxil_1_x from DxilConstants.h.
        let bounds = [137, 139, 141, 162, 165, 216, 222, 226, 258];
        for info in OPS {
            let minor = bounds.iter().position(|&b| (info.op as usize) < b).unwrap() as u8;
            assert!(info.min_sm >= (6, minor), "{} {:?}", info.name, info.min_sm);
            assert_eq!(info.min_sm.0, 6);
            assert!(info.min_sm.1 <= 8);
        }
    }

    /// (op, opcode, class function name, argument names after the opcode, result type)
    #[test]
    fn spot_check_against_hctdb() {
        use ParamType as T;
        #[rustfmt::skip]
        let cases: &[(DxilOp, u32, &str, &[&str], ParamType)] = &[
            (DxilOp::TempRegLoad, 0, "tempRegLoad", &["index"], T::Overload),
            (DxilOp::LoadInput, 4, "loadInput", &["inputSigId", "rowIndex", "colIndex", "gsVertexAxis"], T::Overload),
            (DxilOp::StoreOutput, 5, "storeOutput", &["outputSigId", "rowIndex", "colIndex", "value"], T::Void),
            (DxilOp::FAbs, 6, "unary", &["value"], T::Overload),
            (DxilOp::IsNaN, 8, "isSpecialFloat", &["value"], T::I1),
            (DxilOp::Round_z, 29, "unary", &["value"], T::Overload),
            (DxilOp::Countbits, 31, "unaryBits", &["value"], T::I32),
            (DxilOp::FMax, 35, "binary", &["a", "b"], T::Overload),
            (DxilOp::UMin, 40, "binary", &["a", "b"], T::Overload),
            (DxilOp::IMul, 41, "binaryWithTwoOuts", &["a", "b"], T::TwoI32),
            (DxilOp::UAddc, 44, "binaryWithCarryOrBorrow", &["a", "b"], T::I32WithCarry),
            (DxilOp::FMad, 46, "tertiary", &["a", "b", "c"], T::Overload),
            (DxilOp::Bfi, 53, "quaternary", &["width", "offset", "value", "replacedValue"], T::Overload),
            (DxilOp::Dot4, 56, "dot4", &["ax", "ay", "az", "aw", "bx", "by", "bz", "bw"], T::Overload),
            (DxilOp::CreateHandle, 57, "createHandle", &["resourceClass", "rangeId", "index", "nonUniformIndex"], T::Handle),
            (DxilOp::CBufferLoad, 58, "cbufferLoad", &["handle", "byteOffset", "alignment"], T::Overload),
            (DxilOp::CBufferLoadLegacy, 59, "cbufferLoadLegacy", &["handle", "regIndex"], T::CBufRet),
            (DxilOp::Sample, 60, "sample", &["srv", "sampler", "coord0", "coord1", "coord2", "coord3", "offset0", "offset1", "offset2", "clamp"], T::ResRet),
            (DxilOp::SampleLevel, 62, "sampleLevel", &["srv", "sampler", "coord0", "coord1", "coord2", "coord3", "offset0", "offset1", "offset2", "LOD"], T::ResRet),
            (DxilOp::SampleCmpLevelZero, 65, "sampleCmpLevelZero", &["srv", "sampler", "coord0", "coord1", "coord2", "coord3", "offset0", "offset1", "offset2", "compareValue"], T::ResRet),
            (DxilOp::TextureLoad, 66, "textureLoad", &["srv", "mipLevelOrSampleCount", "coord0", "coord1", "coord2", "offset0", "offset1", "offset2"], T::ResRet),
            (DxilOp::TextureStore, 67, "textureStore", &["srv", "coord0", "coord1", "coord2", "value0", "value1", "value2", "value3", "mask"], T::Void),
            (DxilOp::BufferLoad, 68, "bufferLoad", &["srv", "index", "wot"], T::ResRet),
            (DxilOp::BufferStore, 69, "bufferStore", &["uav", "coord0", "coord1", "value0", "value1", "value2", "value3", "mask"], T::Void),
            (DxilOp::BufferUpdateCounter, 70, "bufferUpdateCounter", &["uav", "inc"], T::I32),
            (DxilOp::GetDimensions, 72, "getDimensions", &["handle", "mipLevel"], T::Dimensions),
            (DxilOp::TextureGather, 73, "textureGather", &["srv", "sampler", "coord0", "coord1", "coord2", "coord3", "offset0", "offset1", "channel"], T::ResRet),
            (DxilOp::Texture2DMSGetSamplePosition, 75, "texture2DMSGetSamplePosition", &["srv", "index"], T::SamplePos),
            (DxilOp::AtomicBinOp, 78, "atomicBinOp", &["handle", "atomicOp", "offset0", "offset1", "offset2", "newValue"], T::Overload),
            (DxilOp::AtomicCompareExchange, 79, "atomicCompareExchange", &["handle", "offset0", "offset1", "offset2", "compareValue", "newValue"], T::Overload),
            (DxilOp::Barrier, 80, "barrier", &["barrierMode"], T::Void),
            (DxilOp::CalculateLOD, 81, "calculateLOD", &["handle", "sampler", "coord0", "coord1", "coord2", "clamped"], T::F32),
            (DxilOp::Discard, 82, "discard", &["condition"], T::Void),
            (DxilOp::DerivFineY, 86, "unary", &["value"], T::Overload),
            (DxilOp::ThreadId, 93, "threadId", &["component"], T::I32),
            (DxilOp::FlattenedThreadIdInGroup, 96, "flattenedThreadIdInGroup", &[], T::I32),
            (DxilOp::EmitStream, 97, "emitStream", &["streamId"], T::Void),
            (DxilOp::GSInstanceID, 100, "gsInstanceID", &[], T::I32),
            (DxilOp::SplitDouble, 102, "splitDouble", &["value"], T::SplitDouble),
            (DxilOp::LoadOutputControlPoint, 103, "loadOutputControlPoint", &["inputSigId", "row", "col", "index"], T::Overload),
            (DxilOp::DomainLocation, 105, "domainLocation", &["component"], T::F32),
            (DxilOp::WaveActiveBallot, 116, "waveActiveBallot", &["cond"], T::FourI32),
            (DxilOp::WaveActiveOp, 119, "waveActiveOp", &["value", "op", "sop"], T::Overload),
            (DxilOp::QuadOp, 123, "quadOp", &["value", "op"], T::Overload),
            (DxilOp::WaveAllBitCount, 135, "waveAllOp", &["value"], T::I32),
            (DxilOp::WavePrefixBitCount, 136, "wavePrefixOp", &["value"], T::I32),
            (DxilOp::AttributeAtVertex, 137, "attributeAtVertex", &["inputSigId", "inputRowIndex", "inputColIndex", "VertexID"], T::Overload),
            (DxilOp::ViewID, 138, "viewID", &[], T::I32),
            (DxilOp::RawBufferLoad, 139, "rawBufferLoad", &["srv", "index", "elementOffset", "mask", "alignment"], T::ResRet),
            (DxilOp::RawBufferStore, 140, "rawBufferStore", &["uav", "index", "elementOffset", "value0", "value1", "value2", "value3", "mask", "alignment"], T::Void),
            (DxilOp::DispatchRaysIndex, 145, "dispatchRaysIndex", &["col"], T::I32),
            (DxilOp::TraceRay, 157, "traceRay", &["AccelerationStructure", "RayFlags", "InstanceInclusionMask", "RayContributionToHitGroupIndex", "MultiplierForGeometryContributionToShaderIndex", "MissShaderIndex", "Origin_X", "Origin_Y", "Origin_Z", "TMin", "Direction_X", "Direction_Y", "Direction_Z", "TMax", "payload"], T::Void),
            (DxilOp::ReportHit, 158, "reportHit", &["THit", "HitKind", "Attributes"], T::I1),
            (DxilOp::CreateHandleForLib, 160, "createHandleForLib", &["Resource"], T::Handle),
            (DxilOp::PrimitiveIndex, 161, "primitiveIndex", &[], T::I32),
            (DxilOp::Dot4AddI8Packed, 163, "dot4AddPacked", &["acc", "a", "b"], T::I32),
            (DxilOp::WaveMatch, 165, "waveMatch", &["value"], T::FourI32),
            (DxilOp::SetMeshOutputCounts, 168, "setMeshOutputCounts", &["numVertices", "numPrimitives"], T::Void),
            (DxilOp::DispatchMesh, 173, "dispatchMesh", &["threadGroupCountX", "threadGroupCountY", "threadGroupCountZ", "payload"], T::Void),
            (DxilOp::AllocateRayQuery, 178, "allocateRayQuery", &["constRayFlags"], T::I32),
            (DxilOp::RayQuery_Proceed, 180, "rayQuery_Proceed", &["rayQueryHandle"], T::I1),
            (DxilOp::RayQuery_CommittedObjectRayDirection, 212, "rayQuery_StateVector", &["rayQueryHandle", "component"], T::F32),
            (DxilOp::GeometryIndex, 213, "geometryIndex", &[], T::I32),
            (DxilOp::AnnotateHandle, 216, "annotateHandle", &["res", "props"], T::Handle),
            (DxilOp::CreateHandleFromBinding, 217, "createHandleFromBinding", &["bind", "index", "nonUniformIndex"], T::Handle),
            (DxilOp::CreateHandleFromHeap, 218, "createHandleFromHeap", &["index", "samplerHeap", "nonUniformIndex"], T::Handle),
            (DxilOp::Unpack4x8, 219, "unpack4x8", &["unpackMode", "pk"], T::FourOverload),
            (DxilOp::IsHelperLane, 221, "isHelperLane", &[], T::I1),
            (DxilOp::QuadVote, 222, "quadVote", &["cond", "op"], T::I1),
            (DxilOp::SampleCmpLevel, 224, "sampleCmpLevel", &["srv", "sampler", "coord0", "coord1", "coord2", "coord3", "offset0", "offset1", "offset2", "compareValue", "lod"], T::ResRet),
            (DxilOp::TextureStoreSample, 225, "textureStoreSample", &["srv", "coord0", "coord1", "coord2", "value0", "value1", "value2", "value3", "mask", "sampleIdx"], T::Void),
            (DxilOp::WaveMatrix_Annotate, 226, "waveMatrix_Annotate", &["waveMatrixPtr", "waveMatProps"], T::Void),
            (DxilOp::AllocateNodeOutputRecords, 238, "allocateNodeOutputRecords", &["output", "numRecords", "perThread"], T::NodeRecordHandle),
            (DxilOp::GetNodeRecordPtr, 239, "getNodeRecordPtr", &["recordhandle", "arrayIndex"], T::Overload),
            (DxilOp::BarrierByMemoryType, 244, "barrierByMemoryType", &["MemoryTypeFlags", "SemanticFlags"], T::Void),
            (DxilOp::CreateNodeOutputHandle, 247, "createNodeOutputHandle", &["MetadataIdx"], T::NodeHandle),
            (DxilOp::AnnotateNodeRecordHandle, 251, "annotateNodeRecordHandle", &["noderecord", "props"], T::NodeRecordHandle),
            (DxilOp::GetRemainingRecursionLevels, 253, "getRemainingRecursionLevels", &[], T::I32),
            (DxilOp::SampleCmpGrad, 254, "sampleCmpGrad", &["srv", "sampler", "coord0", "coord1", "coord2", "coord3", "offset0", "offset1", "offset2", "compareValue", "ddx0", "ddx1", "ddx2", "ddy0", "ddy1", "ddy2", "clamp"], T::ResRet),
            (DxilOp::SampleCmpBias, 255, "sampleCmpBias", &["srv", "sampler", "coord0", "coord1", "coord2", "coord3", "offset0", "offset1", "offset2", "compareValue", "bias", "clamp"], T::ResRet),
            (DxilOp::StartVertexLocation, 256, "startVertexLocation", &[], T::I32),
            (DxilOp::StartInstanceLocation, 257, "startInstanceLocation", &[], T::I32),
        ];
        assert!(cases.len() >= 30);
        for &(op, num, class, params, ret) in cases {
            let info = op.info();
            assert_eq!(op as u32, num, "{op}");
            assert_eq!(DxilOp::from_u32(num), Some(op));
            assert_eq!(info.class.llvm_name(), class, "{op}");
            let names: Vec<&str> = info.params.iter().map(|p| p.name).collect();
            assert_eq!(names, params, "{op}");
            assert_eq!(info.call_arg_count(), params.len() + 1);
            assert_eq!(info.ret, ret, "{op}");
        }
    }

    #[test]
    fn spot_check_types_overloads_attrs() {
        use ParamType as T;
        let li = DxilOp::LoadInput.info();
        let tys: Vec<ParamType> = li.params.iter().map(|p| p.ty).collect();
        assert_eq!(tys, [T::I32, T::I32, T::I8, T::I32]);
        assert_eq!(li.overloads, Overloads::from_letters("hfwi"));
        assert!(li.overloads.contains(Overload::Float) && !li.overloads.contains(Overload::Double));
        assert_eq!(li.attr, OpAttr::ReadNone);

        let ch = DxilOp::CreateHandle.info();
        let consts: Vec<bool> = ch.params.iter().map(|p| p.is_const).collect();
        assert_eq!(consts, [true, true, false, true]);
        assert_eq!(ch.attr, OpAttr::ReadOnly);
        assert_eq!(ch.overloads, Overloads::from(Overload::Void));

        let rbl = DxilOp::RawBufferLoad.info();
        assert_eq!(rbl.overloads, Overloads::from_letters("hfwidl"));
        assert!(rbl.params[3].is_const && rbl.params[4].is_const && !rbl.params[1].is_const);

        let chb = DxilOp::CreateHandleFromBinding.info();
        assert_eq!(chb.params[0].ty, T::ResBind);
        assert!(chb.params[0].is_const);
        assert_eq!(DxilOp::AnnotateHandle.info().params[1].ty, T::ResourceProperties);

        assert_eq!(DxilOp::Barrier.info().attr, OpAttr::NoDuplicate);
        assert!(DxilOp::Barrier.info().params[0].is_const);
        assert_eq!(DxilOp::IgnoreHit.info().attr, OpAttr::NoReturn);
        assert_eq!(DxilOp::StoreOutput.info().attr, OpAttr::None);
        assert_eq!(DxilOp::WaveActiveOp.info().attr, OpAttr::None);
        assert_eq!(DxilOp::WaveMatrix_Fill.info().attr, OpAttr::ArgMemOnly);
        assert_eq!(DxilOp::Sample.info().overloads, Overloads::from_letters("hfwi"));
        assert_eq!(DxilOp::WaveActiveOp.info().overloads, Overloads::from_letters("hfd18wil"));
        assert_eq!(DxilOp::CBufferLoadLegacy.info().overloads, Overloads::from_letters("hfdwil"));
        assert_eq!(DxilOp::Fma.info().overloads, Overloads::from(Overload::Double));
        assert_eq!(DxilOp::TraceRay.info().overloads, Overloads::from(Overload::Udt));
        assert_eq!(DxilOp::CreateHandleForLib.info().overloads, Overloads::from(Overload::Obj));
        assert_eq!(DxilOp::TraceRay.info().params[14].ty, T::Udt);
        assert_eq!(DxilOp::MinPrecXRegLoad.info().params[0].ty, T::F32Ptr);
    }

    #[test]
    fn shader_models() {
        let sm = |op: DxilOp| op.info().min_sm;
        assert_eq!(sm(DxilOp::LoadInput), (6, 0));
        assert_eq!(sm(DxilOp::ViewID), (6, 1));
        assert_eq!(sm(DxilOp::RawBufferLoad), (6, 2));
        assert_eq!(sm(DxilOp::TraceRay), (6, 3));
        assert_eq!(sm(DxilOp::Dot2AddHalf), (6, 4));
        assert_eq!(sm(DxilOp::GeometryIndex), (6, 5));
        assert_eq!(sm(DxilOp::RayQuery_Proceed), (6, 5));
        assert_eq!(sm(DxilOp::CreateHandleFromHeap), (6, 6));
        assert_eq!(sm(DxilOp::QuadVote), (6, 7));
        assert_eq!(sm(DxilOp::WaveMatrix_Add), (6, 8));
        assert_eq!(sm(DxilOp::StartVertexLocation), (6, 8));
        assert_eq!(sm(DxilOp::SampleCmpBias), (6, 8));
        assert_eq!(sm(DxilOp::BarrierByMemoryHandle), (6, 8));
    }

    #[test]
    fn stages_and_availability() {
        let st = |op: DxilOp| op.info().stages;
        assert_eq!(st(DxilOp::LoadInput), StageMask::ALL);
        assert_eq!(st(DxilOp::Discard), StageMask::of(&[K::Pixel]));
        assert_eq!(st(DxilOp::ThreadId), StageMask::of(&[K::Compute, K::Mesh, K::Amplification, K::Node]));
        assert_eq!(st(DxilOp::EmitStream), StageMask::of(&[K::Geometry]));
        assert_eq!(st(DxilOp::PrimitiveID), StageMask::of(&[K::Geometry, K::Domain, K::Hull]));
        assert_eq!(st(DxilOp::StartInstanceLocation), StageMask::of(&[K::Vertex]));
        assert_eq!(st(DxilOp::IgnoreHit), StageMask::of(&[K::AnyHit]));
        assert_eq!(st(DxilOp::WaveActiveOp), StageMask::ALL);
        assert_eq!(
            st(DxilOp::QuadReadLaneAt),
            StageMask::of(&[K::Library, K::Compute, K::Amplification, K::Mesh, K::Pixel])
        );
        assert!(st(DxilOp::Sample).contains(K::Node));
        assert!(!st(DxilOp::Sample).contains(K::Vertex));
        assert!(!st(DxilOp::DerivCoarseX).contains(K::Vertex));
        assert!(st(DxilOp::GetNodeRecordPtr).contains(K::Node));
        assert_eq!(st(DxilOp::WaveMatrix_Depth), StageMask::of(&[K::Library, K::Compute]));

        assert!(DxilOp::Discard.available(K::Pixel, (6, 0)));
        assert!(!DxilOp::Discard.available(K::Vertex, (6, 8)));
        assert!(DxilOp::StartVertexLocation.available(K::Vertex, (6, 8)));
        assert!(!DxilOp::StartVertexLocation.available(K::Vertex, (6, 7)));
        assert!(!DxilOp::AnnotateHandle.available(K::Compute, (6, 5)));
        assert!(DxilOp::AnnotateHandle.available(K::Compute, (6, 6)));
        assert!(DxilOp::ThreadId.available(K::Mesh, (6, 5)));
        assert!(!DxilOp::ThreadId.available(K::Pixel, (6, 5)));

        assert_eq!(StageMask::ALL.iter().count(), 16);
        assert_eq!(StageMask::of(&[K::Hull, K::Pixel]).iter().collect::<Vec<_>>(), [K::Pixel, K::Hull]);
    }

    #[test]
    fn overload_suffixes() {
        assert_eq!(Overload::from_suffix("f32"), Some(Overload::Float));
        assert_eq!(Overload::from_suffix("f16"), Some(Overload::Half));
        assert_eq!(Overload::from_suffix("f64"), Some(Overload::Double));
        assert_eq!(Overload::from_suffix("i1"), Some(Overload::I1));
        assert_eq!(Overload::from_suffix("i8"), Some(Overload::I8));
        assert_eq!(Overload::from_suffix("i16"), Some(Overload::I16));
        assert_eq!(Overload::from_suffix("i32"), Some(Overload::I32));
        assert_eq!(Overload::from_suffix("i64"), Some(Overload::I64));
        assert_eq!(Overload::from_suffix("void"), Some(Overload::Void));
        assert_eq!(Overload::from_suffix(""), Some(Overload::Void));
        assert_eq!(Overload::from_suffix("struct.Payload"), Some(Overload::Udt));
        assert_eq!(Overload::from_suffix("i7"), None);
        assert_eq!(Overload::from_suffix("f128"), None);
        for o in Overload::ALL {
            if let Some(s) = o.suffix() {
                assert_eq!(Overload::from_suffix(s), Some(o));
            }
        }

        let lib = DxilOp::CreateHandleForLib.info();
        assert_eq!(lib.overload_from_suffix("struct.ByteAddressBuffer"), Some(Overload::Obj));
        let tr = DxilOp::TraceRay.info();
        assert_eq!(tr.overload_from_suffix("struct.Payload"), Some(Overload::Udt));
        assert_eq!(DxilOp::LoadInput.info().overload_from_suffix("f64"), None);
        assert_eq!(DxilOp::LoadInput.info().overload_from_suffix("f32"), Some(Overload::Float));
    }

    #[test]
    fn function_names() {
        let bl = DxilOp::BufferLoad.info();
        assert_eq!(bl.function_name(Overload::Float).as_deref(), Some("dx.op.bufferLoad.f32"));
        assert_eq!(bl.function_name(Overload::Double), None);
        assert_eq!(DxilOp::CreateHandle.info().function_name(Overload::Void).as_deref(), Some("dx.op.createHandle"));
        assert_eq!(
            DxilOp::CBufferLoadLegacy.info().function_name(Overload::I32).as_deref(),
            Some("dx.op.cbufferLoadLegacy.i32")
        );

        assert_eq!(split_function_name("dx.op.bufferLoad.f32"), Some((OpClass::BufferLoad, "f32")));
        assert_eq!(split_function_name("dx.op.barrier"), Some((OpClass::Barrier, "")));
        assert_eq!(split_function_name("dx.op.traceRay.struct.Payload"), Some((OpClass::TraceRay, "struct.Payload")));
        assert_eq!(split_function_name("dx.op.noSuchClass.f32"), None);
        assert_eq!(split_function_name("llvm.sqrt.f32"), None);

        // Every op of a class with a scalar overload round-trips through its name.
        for info in OPS {
            for o in info.overloads.iter() {
                if let Some(name) = info.function_name(o) {
                    let (class, suffix) = split_function_name(&name).unwrap();
                    assert_eq!(class, info.class);
                    assert_eq!(info.overload_from_suffix(suffix), Some(o));
                }
            }
        }
    }

    #[test]
    fn param_type_struct_names() {
        assert_eq!(ParamType::Handle.struct_name(), Some("dx.types.Handle"));
        assert_eq!(ParamType::I32.struct_name(), None);
        assert_eq!(ParamType::ResRet.overloaded_struct_name(Overload::Float).as_deref(), Some("dx.types.ResRet.f32"));
        assert_eq!(ParamType::FourOverload.overloaded_struct_name(Overload::I16).as_deref(), Some("dx.types.fouri16"));
    }

    #[test]
    fn serializes() {
        let json = serde_json::to_value(DxilOp::LoadInput.info()).unwrap();
        assert_eq!(json["name"], "LoadInput");
        assert_eq!(json["params"][0]["name"], "inputSigId");
        assert_eq!(json["min_sm"][1], 0);
    }
}
