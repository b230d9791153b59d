//! `dx.op` calls against the operation table ([`crate::dxil_op`]): the
//! reader has checked opcode, class, overload and argument count; here each
//! argument's type and the result type follow the op's parameters and
//! overload, and parameters the table marks constant are integer constants.

use super::{cold, err, inst_place, Result, VerifyError};
use crate::dxil::{Binding, DxilModuleInfo, ResourceKind, Resources};
use crate::dxil_op::{DxilOp, Overload, ParamType, StageMask};
use crate::ir::{ConstId, ConstKind, FuncId, Function, GlobalId, InstId, InstKind, Module, Type, TypeId, Value};
use crate::ShaderKind;

use super::types::KNOWN;
use smallvec::SmallVec;

/// A `dx.op` function's declaration, checked once per module against its op
/// and overload: a call whose argument (result) types are the declared ones
/// fits without [`fits`] again, and what the rule functions
/// ([`must_be_const`], [`needs_class`], [`has_offsets`], [`mask_operand`])
/// ask of the op is read once, so a call costs no per-argument `match`.
#[derive(Clone, Copy)]
struct Declared {
    /// The op and overload (`op << 8 | overload + 1`) this entry is for.
    key: u32,
    /// The op's operand count (after the opcode).
    arity: u32,
    /// The declaration: its parameters after the opcode are the types [`args_as_declared`]
    /// compares the arguments with when `params_fit`.
    callee: crate::ir::FuncId,
    /// Every parameter after the opcode fits the op's (at most [`MAX_PARAMS`] of them).
    params_fit: bool,
    /// The declaration's result type, if it fits.
    ret: Option<TypeId>,
    /// Bit k: operand k must be a constant and is declared an integer, so it
    /// must be an integer constant ([`is_constant`]); the other constant
    /// operands ([`OpRules::constant`]) are declared structs, which any constant is.
    int_constant: u64,
    /// The stages that have the op (the operation table's, for [`available`]).
    stages: StageMask,
    /// The op's rules: which operands must be constants, the handle class, [`special`]'s.
    rules: &'static OpRules,
}

/// The most operands a declaration keeps for [`args_as_declared`] (the op table's longest has
/// fewer; a call of an op with more takes the per-operand path).
const MAX_PARAMS: usize = 24;

/// Bit `k` of `mask`.
#[inline(always)]
fn bit(mask: u64, k: usize) -> bool {
    k < 64 && mask >> k & 1 != 0
}

/// What the rule functions ask of one op, independent of any module.
struct OpRules {
    constant: u64,
    /// Of [`OpRules::constant`], the parameters of a fixed integer type (`i1` … `i64`): a
    /// declaration that fits the op declares them integers.
    int_constant: u64,
    /// Of [`OpRules::constant`], the parameters of a named struct type
    /// ([`ParamType::struct_name`], which [`fits_other`] asks of them: all but the
    /// wave-matrix pointer): a declaration that fits the op declares them structs.
    struct_constant: u64,
    class: u8,
    /// [`has_offsets`], an atomic, a [`mask_operand`], [`allowed_kinds`], sampling
    /// ([`is_sample`]) or a handle maker or annotation: the op has checks in [`special`].
    special: bool,
    /// Bit k: parameter k is a texel offset (`offset0`…), for [`has_offsets`] ops.
    offsets: u64,
    /// [`allowed_kinds`] (0: any kind).
    kinds: u32,
    /// [`is_sample`].
    sample: bool,
    /// [`known_slot`] of each parameter (`u8::MAX` past the op's).
    slots: [u8; MAX_PARAMS],
    /// [`known_slot`] of the result.
    ret_slot: u8,
    /// Which of [`special`]'s rules apply: [`HAS_OFFSETS`], [`ATOMIC`], [`HANDLE_OP`].
    flags: u8,
    /// [`mask_operand`] (`u8::MAX`: none).
    mask: u8,
}

/// [`OpRules::flags`]: [`has_offsets`].
const HAS_OFFSETS: u8 = 1;
/// [`OpRules::flags`]: an atomic on a resource (`AtomicBinOp`, `AtomicCompareExchange`).
const ATOMIC: u8 = 2;
/// [`OpRules::flags`]: `CreateHandle`, `CreateHandleFromBinding` or `AnnotateHandle`.
const HANDLE_OP: u8 = 4;

impl Default for OpRules {
    fn default() -> OpRules {
        OpRules {
            constant: 0,
            int_constant: 0,
            struct_constant: 0,
            class: u8::MAX,
            special: false,
            offsets: 0,
            kinds: 0,
            sample: false,
            slots: [u8::MAX; MAX_PARAMS],
            ret_slot: u8::MAX,
            flags: 0,
            mask: u8::MAX,
        }
    }
}

impl OpRules {
    /// The table of every op's [`OpRules`], read from the rule functions once.
    fn of(op: DxilOp) -> &'static OpRules {
        static NONE: std::sync::OnceLock<OpRules> = std::sync::OnceLock::new();
        static TABLE: std::sync::OnceLock<Vec<OpRules>> = std::sync::OnceLock::new();
        let table = TABLE.get_or_init(|| {
            crate::dxil_op::OPS
                .iter()
                .map(|info| {
                    let op = info.op;
                    let flags = if has_offsets(op) { HAS_OFFSETS } else { 0 }
                        | if matches!(op, DxilOp::AtomicBinOp | DxilOp::AtomicCompareExchange) { ATOMIC } else { 0 }
                        | if matches!(
                            op,
                            DxilOp::CreateHandle | DxilOp::CreateHandleFromBinding | DxilOp::AnnotateHandle
                        ) {
                            HANDLE_OP
                        } else {
                            0
                        };
                    let mask = mask_operand(op);
                    let kinds = allowed_kinds(op);
                    let constant = info
                        .params
                        .iter()
                        .enumerate()
                        .filter(|(k, p)| *k < 64 && (p.is_const || must_be_const(op, *k)))
                        .fold(0u64, |m, (k, _)| m | 1 << k);
                    let of_type = |want: fn(ParamType) -> bool| {
                        info.params
                            .iter()
                            .enumerate()
                            .filter(|(k, p)| *k < 64 && want(p.ty))
                            .fold(0u64, |m, (k, _)| m | 1 << k)
                    };
                    OpRules {
                        constant,
                        int_constant: constant
                            & of_type(|t| {
                                matches!(
                                    t,
                                    ParamType::I1 | ParamType::I8 | ParamType::I16 | ParamType::I32 | ParamType::I64
                                )
                            }),
                        struct_constant: constant
                            & of_type(|t| t.struct_name().is_some() && t != ParamType::WaveMatrixPtr),
                        class: needs_class(op).unwrap_or(u8::MAX),
                        special: flags != 0 || mask.is_some() || kinds.is_some() || is_sample(op),
                        offsets: info
                            .params
                            .iter()
                            .enumerate()
                            .filter(|(k, p)| *k < 64 && p.name.starts_with("offset"))
                            .fold(0u64, |m, (k, _)| m | 1 << k),
                        kinds: kinds.unwrap_or(0),
                        sample: is_sample(op),
                        slots: std::array::from_fn(|k| info.params.get(k).map_or(u8::MAX, |p| known_slot(p.ty))),
                        ret_slot: known_slot(info.ret),
                        flags,
                        mask: mask.and_then(|k| u8::try_from(k).ok()).unwrap_or(u8::MAX),
                    }
                })
                .collect()
        });
        match table.get(op as usize) {
            Some(r) => r,
            None => NONE.get_or_init(OpRules::default),
        }
    }
}

impl Declared {
    /// The entry for `op`/`overload` called through `callee`.
    fn of(m: &Module, known: &Known, callee: crate::ir::FuncId, op: DxilOp, overload: Overload) -> Declared {
        let info = op.info();
        let rules = OpRules::of(op);
        let mut d = Declared {
            key: 0,
            arity: info.params.len() as u32,
            callee,
            params_fit: false,
            ret: None,
            int_constant: 0,
            stages: info.stages,
            rules,
        };
        let Some(f) = m.functions.get(callee.index()) else { return d };
        let types = &m.types.list;
        let ps = declared_params(m, callee);
        // A parameter declared with the module's type of a fixed kind ([`known_slot`], from the
        // op's table) fits at once.
        let ov = overload_slot(overload);
        // (No branch but the overload's: a slot past the fixed kinds reads `u32::MAX`, which no
        // type of a module is.)
        let known_fit = |t: TypeId, slot: u8| {
            let slot = if slot == OVERLOAD { ov } else { slot };
            (known[slot as usize & 15] == t.0) & (t.0 != u32::MAX)
        };
        if ps.len() == info.params.len() && ps.len() <= MAX_PARAMS {
            // The parameters not declared so (bit k), one by one after.
            let mut other = 0u32;
            for (k, (&t, &slot)) in ps.iter().zip(&rules.slots).enumerate() {
                other |= u32::from(!known_fit(t, slot)) << k;
            }
            let mut fit_all = true;
            while other != 0 && fit_all {
                let k = other.trailing_zeros() as usize;
                other &= other - 1;
                fit_all = match (ps.get(k).and_then(|t| types.get(t.0 as usize).map(|ty| (*t, ty))), info.params.get(k))
                {
                    (Some((t, ty)), Some(p)) => match scalar_fits(ty, p.ty) {
                        Some(b) => b,
                        None => fits_other(m, t, ty, p.ty, overload),
                    },
                    _ => false,
                };
            }
            d.params_fit = fit_all;
        }
        if known_fit(f.ret_ty, rules.ret_slot) || fits(m, f.ret_ty, info.ret, overload) {
            d.ret = Some(f.ret_ty);
        }
        if d.params_fit {
            // Declared as the op's parameters: its integer constants are integers, its struct
            // constants structs; the others (of the overload type, ...) are looked at.
            d.int_constant = rules.int_constant;
            let mut c = rules.constant & !(rules.int_constant | rules.struct_constant);
            while c != 0 {
                let k = c.trailing_zeros() as usize;
                c &= c - 1;
                match ps.get(k).and_then(|t| types.get(t.0 as usize)) {
                    Some(Type::Int(_)) => d.int_constant |= 1 << k,
                    Some(Type::Struct { .. }) => {}
                    // A constant operand declared otherwise: every call takes the slow path.
                    _ => d.params_fit = false,
                }
            }
        }
        d
    }
}

/// [`known_slot`] of the overload type itself.
const OVERLOAD: u8 = u8::MAX - 1;

/// The module's [`TypeScan::known`](super::types::TypeScan::known) types by [`known_slot`],
/// `u32::MAX` past them: indexed by a slot's low four bits, every slot reads a word (the
/// slots past the fixed kinds, `u8::MAX`, read `u32::MAX`).
type Known = [u32; 16];

/// [`Known`] of a module's [`TypeScan::known`](super::types::TypeScan::known) types.
fn widen(known: &[u32; KNOWN]) -> Known {
    const _: () = assert!(KNOWN < 15);
    let mut w = [u32::MAX; 16];
    w[..KNOWN].copy_from_slice(known);
    w
}

/// The [`TypeScan::known`](super::types::TypeScan::known) slot of a parameter type of one
/// fixed kind, [`OVERLOAD`] for the overload type, `u8::MAX` for the others (read into each
/// op's [`OpRules::slots`] once).
fn known_slot(p: ParamType) -> u8 {
    use super::types::{KNOWN_F16 as F, KNOWN_HANDLE as H, KNOWN_I1 as I};
    match p {
        ParamType::I1 => I as u8,
        ParamType::I8 => I as u8 + 1,
        ParamType::I16 => I as u8 + 2,
        ParamType::I32 => I as u8 + 3,
        ParamType::I64 => I as u8 + 4,
        ParamType::F16 => F as u8,
        ParamType::F32 => F as u8 + 1,
        ParamType::F64 => F as u8 + 2,
        ParamType::Handle => H as u8,
        ParamType::Overload => OVERLOAD,
        _ => u8::MAX,
    }
}

/// The [`TypeScan::known`](super::types::TypeScan::known) slot of an overload's scalar type
/// (`u8::MAX`: no scalar).
#[inline(always)]
fn overload_slot(o: Overload) -> u8 {
    use super::types::{KNOWN_F16 as F, KNOWN_I1 as I};
    match o {
        Overload::I1 => I as u8,
        Overload::I8 => I as u8 + 1,
        Overload::I16 => I as u8 + 2,
        Overload::I32 => I as u8 + 3,
        Overload::I64 => I as u8 + 4,
        Overload::Half => F as u8,
        Overload::Float => F as u8 + 1,
        Overload::Double => F as u8 + 2,
        Overload::Void | Overload::Udt | Overload::Obj => u8::MAX,
    }
}

/// The `dx.op` declarations of one module, by callee, as its calls reach them
/// (a callee called with several ops gets an entry per op). Its lists live on the stack while
/// they are short (a module has a handful of functions and `dx.op` declarations): no
/// thread-local storage to take and give back per module.
pub(crate) struct Calls {
    /// By callee (those past [`KEYS`] share the last slot): 1 + the index of its latest entry
    /// of `declared` (0: none yet). A plain array: the lookup on every call needs no check of
    /// where the storage lives.
    keys: [u32; KEYS],
    declared: SmallVec<[Declared; 16]>,
    /// The handle facts of [`Calls::props`].
    props: SmallVec<[(ConstId, Option<Props>); 8]>,
    /// (`%dx.types.ResBind`, `%dx.types.ResourceProperties`) constants of annotations of
    /// `CreateHandleFromBinding` handles that passed [`int_fields`] and [`annotation`]: DXC
    /// annotates a handle at each use, with the same two constants.
    annotated: SmallVec<[(ConstId, ConstId); 8]>,
    /// The module's [`TypeScan::known`](super::types::TypeScan::known) types ([`widen`]ed).
    known: Known,
    /// A call of `CreateHandleFromHeap` was seen (for lowering: [`crate::analysis::Hints`]).
    heap_handles: bool,
    /// Of a module as read, the constants of an integer type that may be `undef` or
    /// expressions: ids `lo..=lo + span` ([`crate::bitcode::ReadFacts::odd_int_consts`]; none:
    /// `lo` = `u32::MAX`, `span` = 0), for [`constants_as_declared`].
    odd: (u32, u32),
}

/// The first two words of an `AnnotateHandle`'s `%dx.types.ResourceProperties`
/// constant (word 0: the kind in bits 0..8, UAV bit 12; word 1: the element
/// type in bits 0..8), as [`props_words`] reads them.
type Props = (u64, Option<u64>);

/// The callees [`Calls::keys`] has a slot each for (the rest share the last one).
const KEYS: usize = 64;

/// The most entries [`Calls::props`] and [`Calls::annotated`] keep (a module has as
/// many as it has distinct resource bindings; past it, facts are computed each time).
const MEMO: usize = 64;

impl Calls {
    pub(crate) fn new(known: [u32; KNOWN], odd_int_consts: Option<(u32, u32)>) -> Calls {
        Calls {
            keys: [0; KEYS],
            declared: SmallVec::new(),
            props: SmallVec::new(),
            annotated: SmallVec::new(),
            known: widen(&known),
            heap_handles: false,
            odd: odd_int_consts.map_or((u32::MAX, 0), |(lo, hi)| (lo, hi.saturating_sub(lo))),
        }
    }

    /// Whether a call of `CreateHandleFromHeap` was seen.
    pub(crate) fn heap_handles(&self) -> bool {
        self.heap_handles
    }

    /// [`props_words`] of constant `c`, remembered per module.
    #[inline]
    fn props(&mut self, m: &Module, c: ConstId) -> Option<Props> {
        if let Some(e) = self.props.iter().find(|e| e.0 == c) {
            return e.1;
        }
        let w = props_words(m, c);
        if self.props.len() < MEMO {
            self.props.push((c, w));
        }
        w
    }

    #[inline(always)]
    fn get(&mut self, m: &Module, callee: crate::ir::FuncId, op: DxilOp, overload: Overload) -> &Declared {
        let key = (op as u32) << 8 | (overload as u32 + 1);
        let slot = callee.index().min(KEYS - 1);
        let at = self.keys[slot] as usize;
        if self.declared.get(at.wrapping_sub(1)).is_some_and(|d| d.key == key && d.callee == callee) {
            return &self.declared[at - 1];
        }
        self.insert(m, slot, callee, (op, overload), key)
    }

    #[cold]
    fn insert(
        &mut self,
        m: &Module,
        slot: usize,
        callee: crate::ir::FuncId,
        (op, overload): (DxilOp, Overload),
        key: u32,
    ) -> &Declared {
        if slot == KEYS - 1 {
            // A shared slot: the callee may have an entry already.
            if let Some(at) = self.declared.iter().position(|d| d.key == key && d.callee == callee) {
                self.keys[slot] = at as u32 + 1;
                return &self.declared[at];
            }
        }
        // (Each op's first call comes here: a module's heap handles are seen here.)
        self.heap_handles |= op == DxilOp::CreateHandleFromHeap;
        let mut d = Declared::of(m, &self.known, callee, op, overload);
        d.key = key;
        self.declared.push(d);
        self.keys[slot] = self.declared.len() as u32;
        &self.declared[self.declared.len() - 1]
    }
}

/// The rules of `dx.op` call `id` (from the verifier's walk): the op in the
/// function's stage (`stage`: [`stage_of`]), arguments and result against the
/// op's parameters and overload, constant operands, the handle's class, and
/// the checks of [`special`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn call(
    m: &Module,
    f: &Function,
    dxil: &DxilModuleInfo,
    calls: &mut Calls,
    stage: Option<ShaderKind>,
    args_typed: bool,
    id: InstId,
    inst: &crate::ir::Inst,
    (op, overload, callee, args): (DxilOp, Overload, crate::ir::FuncId, crate::ir::List),
) -> Result<()> {
    let args = f.values(args);
    let odd = calls.odd;
    let decl = calls.get(m, callee, op, overload);
    if let Some(kind) = stage {
        if !decl.stages.contains(kind) {
            return Err(stage_error(f, id, op, kind));
        }
    }
    if args.len() != decl.arity as usize {
        return Err(arity_error(f, id, op, args.len()));
    }
    let fit = decl.params_fit
        && if args_typed { constants_as_declared(m, decl, args, odd) } else { args_as_declared(m, f, decl, args) };
    if !fit {
        operands(m, f, id, op, overload, decl.rules.constant, args)?;
        as_declared(m, f, id, op, callee, args)?;
    }
    let (rules, ret) = (decl.rules, decl.ret);
    let (want, special_rules) = (rules.class, rules.special);
    if want != u8::MAX {
        let class = match args.first() {
            Some(h) => handle_class(m, f, calls, *h).or_else(|| lib_resource(m, f, dxil, *h).map(|r| r.0)),
            None => None,
        };
        if class.is_some_and(|c| c != want) {
            return Err(class_error(f, id, op, want, class));
        }
    }
    if special_rules {
        special(m, f, dxil, calls, rules, id, op, overload, args)?;
    }
    if ret != Some(inst.ty) && !fits(m, inst.ty, op.info().ret, overload) {
        return Err(result_error(m, f, id, op, overload));
    }
    Ok(())
}

#[cold]
fn arity_error(f: &Function, id: InstId, op: DxilOp, n: usize) -> VerifyError {
    err(
        "dxop.arity",
        inst_place(f, id),
        format!("{} takes {} operands, the call has {}", op.name(), op.info().params.len(), n),
    )
}

#[cold]
fn result_error(m: &Module, f: &Function, id: InstId, op: DxilOp, overload: Overload) -> VerifyError {
    err(
        "dxop.result-type",
        inst_place(f, id),
        format!(
            "{} returns {}, the op returns {:?} (overload {overload})",
            op.name(),
            m.types.display(f.inst(id).ty),
            op.info().ret
        ),
    )
}

/// The handle operand of an op that needs a class ([`needs_class`]) does not
/// have it (`class`: the handle's, as [`handle_class`] knows it).
#[cold]
fn class_error(f: &Function, id: InstId, op: DxilOp, want: u8, class: Option<u8>) -> VerifyError {
    const NAMES: [&str; 4] = ["an SRV", "a UAV", "a CBV", "a sampler"];
    let name = |c: u8| NAMES.get(c as usize).copied().unwrap_or("an unknown class");
    err(
        "dxop.resource-class",
        inst_place(f, id),
        format!("{} needs {} handle, operand 0 is {}", op.name(), name(want), name(class.unwrap_or(9))),
    )
}

/// Every operand has its declared type, and those that must be constants are
/// ([`Declared::int_constant`]: integer constants).
/// (Out of line: a module as the reader built it takes [`constants_as_declared`]; this is for
/// the others, [`super::verify_module`]'s.)
#[inline(never)]
fn args_as_declared(m: &Module, f: &Function, decl: &Declared, args: &[Value]) -> bool {
    let (constant, int_constant) = (decl.rules.constant, decl.int_constant);
    let params = declared_params(m, decl.callee);
    if params.len() < args.len() {
        return false;
    }
    for (k, (a, p)) in args.iter().zip(params).enumerate() {
        let ok = match *a {
            Value::Const(c) => match m.consts.get(c.index()) {
                // A constant operand declared an integer must be an integer constant ([`is_constant`]).
                Some(c) => {
                    c.ty == *p && (int_constant >> k & 1 == 0 || matches!(c.kind, ConstKind::Int(_) | ConstKind::Null))
                }
                None => false,
            },
            Value::Inst(i) => constant >> k & 1 == 0 && f.insts.get(i.index()).is_some_and(|x| x.ty == *p),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// [`args_as_declared`] for arguments known to have their declared types (`args_typed` of
/// [`call`]): the operands that must be constants are, integer constants where declared
/// integers.
///
/// As read, a constant of an integer type of at most 64 bits (the declared types of a
/// fitting declaration) is an integer, a null, an `undef` or an expression
/// ([`crate::bitcode`] reads no other kind for such a type), so it is an integer constant
/// unless it is one of the last two: asked so, the test takes the same way for the integers
/// and the nulls (zeros) that alternate among the operands. The reader also says where
/// the integer `undef`s and expressions lie (`odd`: [`Calls::odd`]), usually nowhere or
/// at one `i32 undef`: only a constant there is looked at.
#[inline(always)]
fn constants_as_declared(m: &Module, decl: &Declared, args: &[Value], (lo, span): (u32, u32)) -> bool {
    let mut c = decl.rules.constant;
    while c != 0 {
        let k = c.trailing_zeros() as usize;
        c &= c - 1;
        let Some(Value::Const(a)) = args.get(k) else { return false };
        if bit(decl.int_constant, k)
            && a.0.wrapping_sub(lo) <= span
            && m.consts.get(a.index()).is_none_or(|c| matches!(c.kind, ConstKind::Undef | ConstKind::Expr(_)))
        {
            return false;
        }
    }
    true
}

/// The parameter types a `dx.op` declaration gives its operands (after the opcode); none for a
/// callee the module does not have.
fn declared_params(m: &Module, callee: crate::ir::FuncId) -> &[TypeId] {
    m.functions.get(callee.index()).and_then(|d| d.param_tys.get(1..)).unwrap_or(&[])
}

/// Each argument has the type the callee declares for it (LLVM's rule for every call; the op
/// table alone accepts any type where it takes a user struct, e.g. `CallShader`'s parameter).
/// Only on the slow path: a call whose arguments match a fitting declaration passed
/// [`args_as_declared`].
#[cold]
fn as_declared(
    m: &Module,
    f: &Function,
    id: InstId,
    op: DxilOp,
    callee: crate::ir::FuncId,
    args: &[Value],
) -> Result<()> {
    let params = declared_params(m, callee);
    if params.len() != args.len() {
        return Err(cold(|| {
            err(
                "dxop.operand-type",
                inst_place(f, id),
                format!("{} called with {} operands, its declaration takes {}", op.name(), args.len(), params.len()),
            )
        }));
    }
    for (k, (a, p)) in args.iter().zip(params).enumerate() {
        let t = m.value_type(f, *a);
        if t != *p {
            return Err(cold(|| {
                err(
                    "dxop.operand-type",
                    inst_place(f, id),
                    format!(
                        "{} operand {k} is {}, its declaration takes {}",
                        op.name(),
                        m.types.display(t),
                        m.types.display(*p)
                    ),
                )
            }));
        }
    }
    Ok(())
}

/// Each operand's type against the op's parameter under the overload, and
/// constant where it must be, in operand order.
fn operands(
    m: &Module,
    f: &Function,
    id: InstId,
    op: DxilOp,
    overload: Overload,
    constant: u64,
    args: &[Value],
) -> Result<()> {
    for (k, (a, p)) in args.iter().zip(op.info().params).enumerate() {
        let t = m.value_type(f, *a);
        if !fits(m, t, p.ty, overload) {
            return Err(cold(|| {
                err(
                    "dxop.operand-type",
                    inst_place(f, id),
                    format!(
                        "{} operand {k} ({}) is {}, the op takes {:?} (overload {overload})",
                        op.name(),
                        p.name,
                        m.types.display(t),
                        p.ty
                    ),
                )
            }));
        }
        if bit(constant, k) && !is_constant(m, t, *a) {
            return Err(cold(|| {
                err(
                    "dxop.constant-operand",
                    inst_place(f, id),
                    format!("{} operand {k} ({}) must be a constant", op.name(), p.name),
                )
            }));
        }
    }
    Ok(())
}

/// The checks of a few ops: no texel offsets on cube textures, atomics on
/// the element type, resource kinds the op works on, sampled element types,
/// handles of declared ranges and annotations that agree with them, load
/// and store component masks.
#[allow(clippy::too_many_arguments)]
fn special(
    m: &Module,
    f: &Function,
    dxil: &DxilModuleInfo,
    calls: &mut Calls,
    rules: &OpRules,
    id: InstId,
    op: DxilOp,
    overload: Overload,
    args: &[Value],
) -> Result<()> {
    let atomic = rules.flags & ATOMIC != 0;
    // The handle's kind and element type, looked up once for the rules that need them (every
    // op with offsets has a kind rule).
    let handle = if rules.kinds != 0 || rules.sample || atomic {
        args.first().and_then(|h| handle_kind_element(m, f, dxil, calls, *h))
    } else {
        None
    };
    if rules.flags & HAS_OFFSETS != 0 {
        cube_offsets(m, f, id, op, rules.offsets, handle.map(|h| h.0), args)?;
    }
    if atomic {
        atomic_element(f, id, op, overload, handle)?;
    }
    if rules.kinds != 0 {
        resource_kind(f, id, op, handle.map(|h| h.0), rules.kinds)?;
    }
    if rules.sample {
        sample_element(f, dxil, id, op, handle.and_then(|h| h.1))?;
    }
    if rules.flags & HANDLE_OP != 0 {
        handle_op(m, f, dxil, calls, id, op, args)?;
    }
    if let Some(a) = args.get(rules.mask as usize) {
        let mask = m.const_uint(*a);
        if mask.is_some_and(|x| x == 0 || x > 0xF) {
            return Err(cold(|| {
                err(
                    "dxop.mask",
                    inst_place(f, id),
                    format!("{} component mask {:#x} (1..=0xf)", op.name(), mask.unwrap_or(0)),
                )
            }));
        }
    }
    Ok(())
}

/// Texel offsets (the operands of `offsets`, not `undef`) on a cube texture (`kind`: the
/// handle's, as [`handle_kind_element`] knows it).
fn cube_offsets(
    m: &Module,
    f: &Function,
    id: InstId,
    op: DxilOp,
    offsets: u64,
    kind: Option<u32>,
    args: &[Value],
) -> Result<()> {
    let cube =
        kind.is_some_and(|k| k == ResourceKind::TextureCube as u32 || k == ResourceKind::TextureCubeArray as u32);
    if !cube {
        return Ok(());
    }
    let mut offsets = offsets;
    while offsets != 0 {
        let k = offsets.trailing_zeros() as usize;
        offsets &= offsets - 1;
        if args.get(k).is_some_and(|a| !is_undef(m, *a)) {
            return Err(cold(|| {
                err(
                    "dxop.cube-offset",
                    inst_place(f, id),
                    format!("{} with texel offsets on a cube texture", op.name()),
                )
            }));
        }
    }
    Ok(())
}

/// The rules of the handle makers and annotations: a `CreateHandle`'s range is declared, a
/// `CreateHandleFromBinding`'s binding and an `AnnotateHandle`'s properties are integer
/// constants, and the annotation describes the resource ([`annotation`]).
fn handle_op(
    m: &Module,
    f: &Function,
    dxil: &DxilModuleInfo,
    calls: &mut Calls,
    id: InstId,
    op: DxilOp,
    args: &[Value],
) -> Result<()> {
    match op {
        DxilOp::CreateHandle => create_handle_range(m, f, dxil, id, args),
        DxilOp::CreateHandleFromBinding => int_fields(m, f, id, op, args.first(), 4),
        DxilOp::AnnotateHandle => {
            // An annotation of a binding's handle: its verdict follows from the two constants.
            let key = match (args.first(), args.get(1)) {
                (Some(Value::Inst(h)), Some(Value::Const(props))) => match f.dx_op(*h) {
                    Some((DxilOp::CreateHandleFromBinding, [Value::Const(bind), ..])) => Some((*bind, *props)),
                    _ => None,
                },
                _ => None,
            };
            if key.is_none_or(|k| !calls.annotated.contains(&k)) {
                int_fields(m, f, id, op, args.get(1), 2)?;
                annotation(m, f, dxil, calls, id, args)?;
                if let Some(k) = key.filter(|_| calls.annotated.len() < MEMO) {
                    calls.annotated.push(k);
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The resource class (0 SRV, 1 UAV, 2 CBV, 3 sampler) an op's handle
/// operand must have: writes and atomics need a UAV, sampling and gathers an
/// SRV, constant-buffer loads a CBV (DXC's `InstrCBufferClassForCBufferHandle`).
fn needs_class(op: DxilOp) -> Option<u8> {
    use DxilOp as D;
    match op {
        D::CBufferLoad | D::CBufferLoadLegacy => Some(2),
        D::TextureStore
        | D::TextureStoreSample
        | D::BufferStore
        | D::RawBufferStore
        | D::AtomicBinOp
        | D::AtomicCompareExchange
        | D::BufferUpdateCounter => Some(1),
        D::Sample
        | D::SampleBias
        | D::SampleLevel
        | D::SampleGrad
        | D::SampleCmp
        | D::SampleCmpLevelZero
        | D::SampleCmpLevel
        | D::SampleCmpGrad
        | D::SampleCmpBias
        | D::TextureGather
        | D::TextureGatherCmp
        | D::TextureGatherRaw
        | D::CalculateLOD => Some(0),
        _ => None,
    }
}

/// The first 32-bit element of a constant struct or vector.
fn first_word(m: &Module, v: Value) -> Option<u64> {
    let Value::Const(c) = v else { return None };
    match &m.konst(c).kind {
        ConstKind::Aggregate(vs) => m.const_uint(*vs.first()?),
        ConstKind::Data(d) => d.first().copied(),
        ConstKind::Null => Some(0),
        _ => None,
    }
}

/// The class of a handle made by CreateHandle, CreateHandleFromBinding or
/// AnnotateHandle with constant operands (`None` where it is not known here).
fn handle_class(m: &Module, f: &Function, calls: &mut Calls, h: Value) -> Option<u8> {
    let Value::Inst(i) = h else { return None };
    let (op, args) = f.dx_op(i)?;
    match op {
        DxilOp::CreateHandle => m.const_uint(*args.first()?).and_then(|c| u8::try_from(c).ok()),
        DxilOp::CreateHandleFromBinding => {
            let Value::Const(c) = *args.first()? else { return None };
            match &m.konst(c).kind {
                ConstKind::Aggregate(vs) => m.const_uint(*vs.get(3)?).and_then(|c| u8::try_from(c).ok()),
                // `zeroinitializer`: every field 0, the class an SRV's.
                ConstKind::Null => Some(0),
                _ => None,
            }
        }
        DxilOp::AnnotateHandle => {
            let Value::Const(c) = *args.get(1)? else { return None };
            let (w, _) = calls.props(m, c)?;
            Some(match w & 0xFF {
                13 => 2,
                14 => 3,
                _ if w & (1 << 12) != 0 => 1,
                _ => 0,
            })
        }
        _ => None,
    }
}

/// An atomic on a typed resource (typed buffer, texture) works on its
/// element type: 32-bit integer (or float) for the i32 overload, a 32- or
/// 64-bit integer for i64.
/// (`handle`: the handle's [`handle_kind_element`].)
fn atomic_element(
    f: &Function,
    id: InstId,
    op: DxilOp,
    overload: Overload,
    handle: Option<(u32, Option<u32>)>,
) -> Result<()> {
    let Some((kind, elem)) = handle else { return Ok(()) };
    if !(1..=10).contains(&kind) {
        return Ok(());
    }
    let Some(elem) = elem else { return Ok(()) };
    use crate::dxil::ComponentType as C;
    let ok = match overload {
        // 64-bit typed UAVs are declared u32/i32 with the atomic64 flag (SM 6.6).
        Overload::I64 => [C::I64, C::U64, C::I32, C::U32].iter().any(|c| elem == *c as u32),
        _ => elem == C::I32 as u32 || elem == C::U32 as u32 || elem == C::F32 as u32,
    };
    if !ok {
        return Err(cold(|| {
            err(
                "dxop.atomic-type",
                inst_place(f, id),
                format!(
                    "{} ({overload}) on a resource of element type {}",
                    op.name(),
                    C::from_u32(elem).map_or("?", |c| c.name())
                ),
            )
        }));
    }
    Ok(())
}

/// The resource kind (`ResourceKind` number) of a handle made by CreateHandle (from the
/// module's resource lists), CreateHandleForLib (its resource global's record) or
/// AnnotateHandle and, for a typed resource, its element (component) type number.
fn handle_kind_element(
    m: &Module,
    f: &Function,
    dxil: &DxilModuleInfo,
    calls: &mut Calls,
    h: Value,
) -> Option<(u32, Option<u32>)> {
    let Value::Inst(i) = h else { return None };
    let (op, args) = f.dx_op(i)?;
    match op {
        DxilOp::CreateHandle => {
            let class = m.const_uint(*args.first()?)?;
            let id = m.const_uint(*args.get(1)?)?;
            let res = if dxil.resources.is_empty() {
                dxil.main_entry().and_then(|e| e.resources.as_ref())?
            } else {
                &dxil.resources
            };
            let (kind, props) = match class {
                0 => res.srvs.iter().find(|r| u64::from(r.binding.id) == id).map(|r| (r.kind, &r.props))?,
                1 => res.uavs.iter().find(|r| u64::from(r.binding.id) == id).map(|r| (r.kind, &r.props))?,
                _ => return None,
            };
            Some((kind as u32, props.element_type.map(|c| c as u32)))
        }
        DxilOp::CreateHandleForLib => lib_resource(m, f, dxil, h).map(|r| (r.1, r.2)),
        DxilOp::AnnotateHandle => {
            let Value::Const(c) = *args.get(1)? else { return None };
            let (w0, w1) = calls.props(m, c)?;
            Some(((w0 & 0xFF) as u32, w1.map(|w| (w & 0xFF) as u32)))
        }
        _ => None,
    }
}

/// The first two words of a `%dx.types.ResourceProperties` constant: the
/// first must be an integer (`None` otherwise), the second is `None` where it
/// is not one; a null constant is words 0 and none.
fn props_words(m: &Module, c: ConstId) -> Option<Props> {
    match &m.konst(c).kind {
        ConstKind::Aggregate(vs) => Some((m.const_uint(*vs.first()?)?, vs.get(1).and_then(|v| m.const_uint(*v)))),
        ConstKind::Data(d) => Some((*d.first()?, d.get(1).copied())),
        ConstKind::Null => Some((0, None)),
        _ => None,
    }
}

/// Ops with texel-offset operands (`offset0`…): the samples ([`is_sample`]), gathers and
/// texture loads.
fn has_offsets(op: DxilOp) -> bool {
    use DxilOp as D;
    is_sample(op) || matches!(op, D::TextureGather | D::TextureGatherCmp | D::TextureGatherRaw | D::TextureLoad)
}

fn is_undef(m: &Module, v: Value) -> bool {
    matches!(v, Value::Const(c) if matches!(m.konst(c).kind, ConstKind::Undef))
}

/// The component-mask operand of loads and stores that take one.
fn mask_operand(op: DxilOp) -> Option<usize> {
    match op {
        DxilOp::RawBufferLoad => Some(3),
        DxilOp::RawBufferStore | DxilOp::BufferStore => Some(7),
        _ => None,
    }
}

/// A component extracted from a `RawBufferLoad` result must be one the
/// load's constant mask loads (component 4 is the status, always there).
pub(crate) fn extract(m: &Module, f: &Function, id: InstId, agg: Value, indices: crate::ir::List) -> Result<()> {
    let Value::Inst(a) = agg else { return Ok(()) };
    let Some((DxilOp::RawBufferLoad, args)) = f.dx_op(a) else { return Ok(()) };
    let Some(mask) = args.get(3).and_then(|v| m.const_uint(*v)) else { return Ok(()) };
    if let [k] = f.indices(indices) {
        if *k < 4 && mask & (1 << k) == 0 {
            return Err(cold(|| {
                err(
                    "dxop.mask",
                    inst_place(f, id),
                    format!("extracts component {k} of %{}, whose mask {mask:#x} does not load it", a.0),
                )
            }));
        }
    }
    Ok(())
}

/// Operands lowering reads as compile-time constants although the table
/// does not mark them: signature element ids, rows/columns of the
/// non-indexable accesses, and GS stream ids.
fn must_be_const(op: DxilOp, k: usize) -> bool {
    use DxilOp as D;
    match op {
        D::LoadInput | D::StoreOutput | D::LoadOutputControlPoint | D::LoadPatchConstant | D::StorePatchConstant => {
            k == 0 || k == 2
        }
        D::EmitStream | D::CutStream | D::EmitThenCutStream => k == 0,
        D::BufferStore => k == 7,
        _ => false,
    }
}

/// Whether operand `a` (of type `t`) is a constant: an integer constant,
/// or any constant of a struct type.
fn is_constant(m: &Module, t: TypeId, a: Value) -> bool {
    if matches!(m.types.list.get(t.0 as usize), Some(Type::Struct { .. })) {
        matches!(a, Value::Const(_))
    } else {
        is_int_const(m, a)
    }
}

fn is_int_const(m: &Module, v: Value) -> bool {
    match v {
        Value::Const(c) => {
            let k = m.konst(c);
            matches!(m.types.list.get(k.ty.0 as usize), Some(Type::Int(_)))
                && matches!(k.kind, ConstKind::Int(_) | ConstKind::Null)
        }
        _ => false,
    }
}

/// Whether `ty` is the scalar type of overload `o` (`None`: the overload
/// names no scalar type), compared without building a [`Type`].
fn is_scalar(o: Overload, ty: &Type) -> Option<bool> {
    Some(match o {
        Overload::Half => matches!(ty, Type::Half),
        Overload::Float => matches!(ty, Type::Float),
        Overload::Double => matches!(ty, Type::Double),
        Overload::I1 => matches!(ty, Type::Int(1)),
        Overload::I8 => matches!(ty, Type::Int(8)),
        Overload::I16 => matches!(ty, Type::Int(16)),
        Overload::I32 => matches!(ty, Type::Int(32)),
        Overload::I64 => matches!(ty, Type::Int(64)),
        Overload::Void | Overload::Udt | Overload::Obj => return None,
    })
}

fn struct_named(m: &Module, t: TypeId, want: &str) -> bool {
    // Variants carry a suffix (`dx.types.CBufRet.f16.8`: the 8 × 16-bit row of native 16-bit CBVs).
    matches!(m.types.list.get(t.0 as usize), Some(Type::Struct { name: Some(n), .. })
        if n == want || n.strip_prefix(want).is_some_and(|r| r.starts_with('.')))
}

/// Whether a value of type `t` fits parameter type `p` under `overload`.
/// Kinds this check cannot spell (user structs, node and wave-matrix
/// handles) are accepted as any non-void type.
#[inline(always)]
fn fits(m: &Module, t: TypeId, p: ParamType, overload: Overload) -> bool {
    let Some(ty) = m.types.list.get(t.0 as usize) else { return false };
    match scalar_fits(ty, p) {
        Some(fit) => fit,
        None => fits_other(m, t, ty, p, overload),
    }
}

/// [`fits`] for a parameter type that is one fixed scalar (`None`: another kind).
#[inline(always)]
fn scalar_fits(ty: &Type, p: ParamType) -> Option<bool> {
    Some(match p {
        ParamType::Void => matches!(ty, Type::Void),
        ParamType::I1 => matches!(ty, Type::Int(1)),
        ParamType::I8 => matches!(ty, Type::Int(8)),
        ParamType::I16 => matches!(ty, Type::Int(16)),
        ParamType::I32 => matches!(ty, Type::Int(32)),
        ParamType::I64 => matches!(ty, Type::Int(64)),
        ParamType::F16 => matches!(ty, Type::Half),
        ParamType::F32 => matches!(ty, Type::Float),
        ParamType::F64 => matches!(ty, Type::Double),
        _ => return None,
    })
}

/// [`fits`] of the parameter types that are not one fixed scalar.
#[inline(never)]
fn fits_other(m: &Module, t: TypeId, ty: &Type, p: ParamType, overload: Overload) -> bool {
    match p {
        ParamType::Overload => is_scalar(overload, ty).unwrap_or(!matches!(ty, Type::Void)),
        ParamType::F32Ptr | ParamType::GroupSharedPtr | ParamType::WaveMatrixPtr => {
            matches!(ty, Type::Pointer { .. })
        }
        ParamType::ResRet | ParamType::CBufRet | ParamType::FourOverload => {
            // `dx.types.ResRet.f32`, … spelled without allocating: prefix, then the overload suffix.
            let prefix = match p {
                ParamType::ResRet => "dx.types.ResRet.",
                ParamType::CBufRet => "dx.types.CBufRet.",
                _ => "dx.types.four",
            };
            match (overload.suffix(), ty) {
                (Some(sfx), Type::Struct { name: Some(n), .. }) => n
                    .strip_prefix(prefix)
                    .and_then(|r| r.strip_prefix(sfx))
                    .is_some_and(|r| r.is_empty() || r.starts_with('.')),
                (None, Type::Struct { .. }) => true,
                _ => false,
            }
        }
        _ => match p.struct_name() {
            Some(name) => struct_named(m, t, name),
            None => !matches!(ty, Type::Void),
        },
    }
}

/// The resource kinds an op works on (DXC's `InstrResourceKindFor*` rules):
/// sampling 1D/2D/3D/cube textures and their arrays (comparisons: no 3D),
/// gathers 2D and cube, loads every non-cube texture kind, stores the
/// single-sampled ones, buffer loads and stores buffers. Bit `k` stands for `ResourceKind` k.
fn allowed_kinds(op: DxilOp) -> Option<u32> {
    use crate::dxil::ResourceKind as K;
    use DxilOp as D;
    const SAMPLE_C: u32 =
        bit_set![K::Texture1D, K::Texture1DArray, K::Texture2D, K::Texture2DArray, K::TextureCube, K::TextureCubeArray];
    const SAMPLE: u32 = SAMPLE_C | bit_set![K::Texture3D];
    const GATHER: u32 = bit_set![K::Texture2D, K::Texture2DArray, K::TextureCube, K::TextureCubeArray];
    const MS: u32 = bit_set![K::Texture2DMS, K::Texture2DMSArray];
    const STORE: u32 = bit_set![K::Texture1D, K::Texture1DArray, K::Texture2D, K::Texture2DArray, K::Texture3D];
    const BUFFER: u32 = bit_set![K::TypedBuffer, K::RawBuffer, K::StructuredBuffer];
    const RAW: u32 = bit_set![K::RawBuffer, K::StructuredBuffer];
    Some(match op {
        D::Sample | D::SampleBias | D::SampleLevel | D::SampleGrad | D::CalculateLOD => SAMPLE,
        D::SampleCmp | D::SampleCmpLevelZero | D::SampleCmpLevel | D::SampleCmpGrad | D::SampleCmpBias => SAMPLE_C,
        D::TextureGather | D::TextureGatherCmp | D::TextureGatherRaw => GATHER,
        D::TextureLoad => STORE | MS,
        D::TextureStore => STORE,
        D::TextureStoreSample | D::Texture2DMSGetSamplePosition => MS,
        D::BufferLoad | D::BufferStore => BUFFER,
        D::RawBufferLoad | D::RawBufferStore => RAW,
        _ => return None,
    })
}

/// An op on a resource of a kind it does not work on (a `SampleCmp` of a
/// 3D texture, a `TextureStore` to a buffer, ...).
/// (`kind`: the handle's, as [`handle_kind_element`] knows it.)
fn resource_kind(f: &Function, id: InstId, op: DxilOp, kind: Option<u32>, allowed: u32) -> Result<()> {
    let Some(kind) = kind else { return Ok(()) };
    if kind < 32 && allowed & (1 << kind) != 0 {
        return Ok(());
    }
    Err(cold(|| {
        err(
            "dxop.resource-kind",
            inst_place(f, id),
            format!(
                "{} on a {}",
                op.name(),
                ResourceKind::from_u32(kind).map_or("resource of unknown kind", |k| k.short_name())
            ),
        )
    }))
}

fn is_sample(op: DxilOp) -> bool {
    use DxilOp as D;
    matches!(
        op,
        D::Sample
            | D::SampleBias
            | D::SampleLevel
            | D::SampleGrad
            | D::SampleCmp
            | D::SampleCmpLevelZero
            | D::SampleCmpLevel
            | D::SampleCmpGrad
            | D::SampleCmpBias
    )
}

/// Sampling reads textures of a float, snorm or unorm element type; from
/// SM 6.7 non-comparison sampling also reads 16- and 32-bit integer ones
/// (DXC's `InstrSampleCompType`; comparisons stay float-only).
/// (`elem`: the handle's element type, as [`handle_kind_element`] knows it.)
fn sample_element(f: &Function, dxil: &DxilModuleInfo, id: InstId, op: DxilOp, elem: Option<u32>) -> Result<()> {
    use crate::dxil::ComponentType as C;
    let Some(elem) = elem else { return Ok(()) };
    let float = [C::F32, C::SNormF32, C::UNormF32, C::F16, C::SNormF16, C::UNormF16];
    if float.iter().any(|c| elem == *c as u32) {
        return Ok(());
    }
    let sm = &dxil.shader_model;
    let compare = !matches!(op, DxilOp::Sample | DxilOp::SampleBias | DxilOp::SampleLevel | DxilOp::SampleGrad);
    let int = [C::I16, C::U16, C::I32, C::U32].iter().any(|c| elem == *c as u32);
    if int && !compare && (sm.major, sm.minor) >= (6, 7) {
        return Ok(());
    }
    Err(cold(|| {
        err(
            "dxop.sample-type",
            inst_place(f, id),
            format!(
                "{} of a texture of element type {} (sampling needs a float, snorm or unorm texture{})",
                op.name(),
                C::from_u32(elem).map_or("?", |c| c.name()),
                if compare { "" } else { "; integer ones from SM 6.7" }
            ),
        )
    }))
}

/// The `dx.resources` range a binding (class, space, register) falls in —
/// the one starting at the register, else one that holds it — as its
/// resource kind and element type.
fn bound_range(res: &Resources, class: u64, space: u64, lower: u64) -> Option<(u32, Option<u32>)> {
    fn pick<T>(list: &[T], b: impl Fn(&T) -> &Binding, space: u64, lower: u64) -> Option<&T> {
        let at = |r: &&T| u64::from(b(r).space) == space && u64::from(b(r).lower_bound) == lower;
        let holds = |r: &&T| {
            let b = b(r);
            u64::from(b.space) == space
                && u64::from(b.lower_bound) <= lower
                && b.range_size.is_none_or(|n| u64::from(b.lower_bound) + u64::from(n) > lower)
        };
        list.iter().find(at).or_else(|| list.iter().find(holds))
    }
    let elem = |p: &crate::dxil::ViewProperties| p.element_type.map(|c| c as u32);
    match class {
        0 => pick(&res.srvs, |r| &r.binding, space, lower).map(|r| (r.kind as u32, elem(&r.props))),
        1 => pick(&res.uavs, |r| &r.binding, space, lower).map(|r| (r.kind as u32, elem(&r.props))),
        2 => pick(&res.cbvs, |r| &r.binding, space, lower).map(|_| (ResourceKind::CBuffer as u32, None)),
        3 => pick(&res.samplers, |r| &r.binding, space, lower).map(|_| (ResourceKind::Sampler as u32, None)),
        _ => None,
    }
}

/// The resource lists handles refer to: `!dx.resources`, else the entry's own.
fn resource_lists(dxil: &DxilModuleInfo) -> Option<&Resources> {
    if dxil.resources.is_empty() {
        dxil.main_entry().and_then(|e| e.resources.as_ref())
    } else {
        Some(&dxil.resources)
    }
}

/// `CreateHandle(class, range id, ...)` names a range of `dx.resources`.
fn create_handle_range(m: &Module, f: &Function, dxil: &DxilModuleInfo, id: InstId, args: &[Value]) -> Result<()> {
    let (Some(class), Some(range)) =
        (args.first().and_then(|a| m.const_uint(*a)), args.get(1).and_then(|a| m.const_uint(*a)))
    else {
        return Ok(());
    };
    let found = resource_lists(dxil).is_some_and(|res| {
        let has = |b: &Binding| u64::from(b.id) == range;
        match class {
            0 => res.srvs.iter().any(|r| has(&r.binding)),
            1 => res.uavs.iter().any(|r| has(&r.binding)),
            2 => res.cbvs.iter().any(|r| has(&r.binding)),
            3 => res.samplers.iter().any(|r| has(&r.binding)),
            _ => false,
        }
    });
    if found {
        return Ok(());
    }
    const NAMES: [&str; 4] = ["SRV", "UAV", "CBV", "sampler"];
    Err(cold(|| {
        err(
            "dxop.binding",
            inst_place(f, id),
            format!(
                "CreateHandle of {} range {range}, which dx.resources does not declare",
                NAMES.get(class as usize).copied().unwrap_or("unknown class")
            ),
        )
    }))
}

/// `AnnotateHandle` describes the resource its handle (under any further
/// annotations) reaches: for a
/// `CreateHandleFromBinding` handle, the `dx.resources` range of the binding
/// (same class, kind and element type: lowering takes the range, the
/// other checks here the annotation); for a `CreateHandleForLib` handle, the
/// library resource (class and kind); for a `CreateHandleFromHeap` handle, a
/// sampler exactly when the handle is from the sampler heap.
fn annotation(
    m: &Module,
    f: &Function,
    dxil: &DxilModuleInfo,
    calls: &mut Calls,
    id: InstId,
    args: &[Value],
) -> Result<()> {
    let (Some(Value::Inst(first)), Some(&props)) = (args.first(), args.get(1)) else { return Ok(()) };
    // An annotation of an annotated handle describes the handle under both (lowering follows
    // the chain to the handle's maker).
    let mut h = first;
    let mut steps = 0;
    let (src, src_args) = loop {
        let Some((op, a)) = f.dx_op(*h) else { return Ok(()) };
        match (op, a.first()) {
            (DxilOp::AnnotateHandle, Some(Value::Inst(inner))) if steps < 16 => {
                h = inner;
                steps += 1;
            }
            _ => break (op, a),
        }
    };
    let Some(class) = handle_class(m, f, calls, Value::Inst(id)) else { return Ok(()) };
    const NAMES: [&str; 4] = ["an SRV", "a UAV", "a CBV", "a sampler"];
    let name = |c: u64| NAMES.get(c as usize).copied().unwrap_or("an unknown class");
    let fail = |detail: String| Err(cold(|| err("dxop.annotation", inst_place(f, id), detail)));
    match src {
        DxilOp::CreateHandleFromBinding => {
            let Some(Value::Const(c)) = src_args.first() else { return Ok(()) };
            let bind: [u64; 4] = match &m.konst(*c).kind {
                ConstKind::Null => [0; 4],
                ConstKind::Aggregate(vs) if vs.len() == 4 => {
                    let mut out = [0; 4];
                    for (o, v) in out.iter_mut().zip(vs) {
                        let Some(x) = m.const_uint(*v) else { return Ok(()) };
                        *o = x;
                    }
                    out
                }
                _ => return Ok(()),
            };
            let [lower, _, space, bclass] = bind;
            if bclass != u64::from(class) {
                return fail(format!("describes {}, the handle is bound as {}", name(class.into()), name(bclass)));
            }
            let Some(res) = resource_lists(dxil) else { return Ok(()) };
            let letter = ['t', 'u', 'b', 's'].get(bclass as usize).copied().unwrap_or('?');
            let Some((kind, elem)) = bound_range(res, bclass, space, lower) else {
                return Err(cold(|| {
                    err(
                        "dxop.binding",
                        inst_place(f, *h),
                        format!("binding {letter}{lower} space {space} is in no range of dx.resources"),
                    )
                }));
            };
            let Some(w) = first_word(m, props) else { return Ok(()) };
            let akind = (w & 0xFF) as u32;
            if akind != kind {
                let kname = |k: u32| ResourceKind::from_u32(k).map_or("an unknown kind", |k| k.short_name());
                return fail(format!(
                    "describes a {}, the range {letter}{lower} space {space} is a {}",
                    kname(akind),
                    kname(kind)
                ));
            }
            if let (Some(e), true) = (elem, (1..=10).contains(&kind)) {
                let Some(ae) = handle_kind_element(m, f, dxil, calls, Value::Inst(id)).and_then(|h| h.1) else {
                    return Ok(());
                };
                if ae != e {
                    use crate::dxil::ComponentType as C;
                    let ename = |c: u32| C::from_u32(c).map_or("?", |c| c.name());
                    return fail(format!(
                        "describes element type {}, the range {letter}{lower} space {space} has {}",
                        ename(ae),
                        ename(e)
                    ));
                }
            }
            Ok(())
        }
        DxilOp::CreateHandleForLib => {
            let Some((rclass, kind, _)) = lib_resource(m, f, dxil, Value::Inst(*h)) else { return Ok(()) };
            if rclass != class {
                return fail(format!(
                    "describes {}, the handle's resource is {}",
                    name(class.into()),
                    name(rclass.into())
                ));
            }
            let akind = first_word(m, props).map(|w| (w & 0xFF) as u32);
            if akind.is_some_and(|k| k != kind) {
                let kname = |k: u32| ResourceKind::from_u32(k).map_or("an unknown kind", |k| k.short_name());
                return fail(format!(
                    "describes a {}, the handle's resource is a {}",
                    kname(akind.unwrap_or(0)),
                    kname(kind)
                ));
            }
            Ok(())
        }
        DxilOp::CreateHandleFromHeap => {
            let Some(sampler_heap) = src_args.get(1).and_then(|a| m.const_uint(*a)) else { return Ok(()) };
            if (sampler_heap != 0) != (class == 3) {
                let heap = if sampler_heap != 0 { "sampler" } else { "resource" };
                return fail(format!("describes {}, the handle is from the {heap} heap", name(class.into())));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The shader kind a function's ops run in: the module's for a shader, the
/// export's for a library's entry function (`None` for other library
/// functions, which several exports may call).
pub(crate) fn stage_of(f: FuncId, dxil: &DxilModuleInfo) -> Option<ShaderKind> {
    let kind = dxil.shader_model.kind;
    if kind != ShaderKind::Library {
        return Some(kind);
    }
    dxil.functions().find(|e| e.function == Some(f))?.properties.shader_kind
}

/// An op the stage does not have (a `TraceRay` in an intersection shader,
/// `WorldRayOrigin` in a callable one, …): the operation table's stages
/// (hctdb), DXC's `SmOpcodeInInvalidFunction`. The table's minimum shader
/// models are not enforced: corpus shaders built for SM 6.5 use SM 6.8
/// sampling ops, and lowering does not depend on the version.
/// ([`call`] checks the stage against [`Declared::stages`].)
#[cold]
fn stage_error(f: &Function, id: InstId, op: DxilOp, kind: ShaderKind) -> VerifyError {
    err("dxop.stage", inst_place(f, id), format!("{} is not available in {} shaders", op.name(), kind.name()))
}

/// The global a pointer to a library resource is, through a `getelementptr`
/// (instruction or constant expression) into a resource array.
fn pointer_global(m: &Module, f: &Function, p: Value) -> Option<GlobalId> {
    match p {
        Value::Global(g) => Some(g),
        Value::Inst(i) => match &f.insts.get(i.index())?.kind {
            InstKind::Gep { base: Value::Global(g), .. } => Some(*g),
            _ => None,
        },
        Value::Const(c) => match &m.consts.get(c.index())?.kind {
            ConstKind::Expr(crate::ir::ConstExpr::Gep { base: Value::Global(g), .. }) => Some(*g),
            _ => None,
        },
        _ => None,
    }
}

/// The `dx.resources` record whose global a library handle's resource was
/// loaded from (`CreateHandleForLib(load @global)`), as (class, kind,
/// element type).
fn lib_resource(m: &Module, f: &Function, dxil: &DxilModuleInfo, h: Value) -> Option<(u8, u32, Option<u32>)> {
    let Value::Inst(i) = h else { return None };
    let (DxilOp::CreateHandleForLib, args) = f.dx_op(i)? else { return None };
    let Value::Inst(load) = *args.first()? else { return None };
    let InstKind::Load { ptr, .. } = &f.insts.get(load.index())?.kind else { return None };
    let g = Some(pointer_global(m, f, *ptr)?);
    let res = &dxil.resources;
    let elem = |p: &crate::dxil::ViewProperties| p.element_type.map(|c| c as u32);
    if let Some(r) = res.srvs.iter().find(|r| r.binding.global == g) {
        return Some((0, r.kind as u32, elem(&r.props)));
    }
    if let Some(r) = res.uavs.iter().find(|r| r.binding.global == g) {
        return Some((1, r.kind as u32, elem(&r.props)));
    }
    if res.cbvs.iter().any(|r| r.binding.global == g) {
        return Some((2, ResourceKind::CBuffer as u32, None));
    }
    if res.samplers.iter().any(|r| r.binding.global == g) {
        return Some((3, ResourceKind::Sampler as u32, None));
    }
    None
}

/// A library resource loaded from its global is an operand of
/// `CreateHandleForLib` and of nothing else (DXC's `InstrResourceUser`):
/// lowering turns the load into a handle, never into a value. Checked after
/// the walk, for a function with a load, in a module whose resource records have
/// globals (a library).
pub(crate) fn resource_users(m: &Module, f: &Function, dxil: &DxilModuleInfo) -> Result<()> {
    // The globals of the module's resource records (a library's resources).
    let globals: Vec<GlobalId> = dxil.resources.bindings().filter_map(|(_, b)| b.global).collect();
    if globals.is_empty() {
        return Ok(());
    }
    let mut loads = vec![false; f.insts.len()];
    let mut any = false;
    for (k, inst) in f.insts.iter().enumerate() {
        if let InstKind::Load { ptr, .. } = &inst.kind {
            if pointer_global(m, f, *ptr).is_some_and(|g| globals.contains(&g)) {
                loads[k] = true;
                any = true;
            }
        }
    }
    if !any {
        return Ok(());
    }
    for (k, inst) in f.insts.iter().enumerate() {
        if matches!(inst.kind, InstKind::DxOp { op: DxilOp::CreateHandleForLib, .. }) {
            continue;
        }
        let mut bad = None;
        f.for_each_operand(InstId(k as u32), |v| {
            if let Value::Inst(x) = v {
                if loads.get(x.index()).copied().unwrap_or(false) {
                    bad = Some(x);
                }
            }
        });
        if let Some(x) = bad {
            return Err(cold(|| {
                err(
                    "resource.user",
                    inst_place(f, InstId(k as u32)),
                    format!("uses %{}, a library resource loaded from its global (only CreateHandleForLib may)", x.0),
                )
            }));
        }
    }
    Ok(())
}

/// The `%dx.types.ResBind` of `CreateHandleFromBinding` and the
/// `%dx.types.ResourceProperties` of `AnnotateHandle`: constants whose
/// `n` fields are integer constants (lowering reads each field as a number;
/// an `undef` class would read as an SRV).
fn int_fields(m: &Module, f: &Function, id: InstId, op: DxilOp, v: Option<&Value>, n: usize) -> Result<()> {
    let fail =
        |what: &str| Err(cold(|| err("dxop.constant-operand", inst_place(f, id), format!("{} {what}", op.name()))));
    let Some(Value::Const(c)) = v else { return fail("takes a constant struct") };
    match &m.konst(*c).kind {
        ConstKind::Null => Ok(()),
        ConstKind::Aggregate(vs) if vs.len() == n && vs.iter().all(|x| is_int_const(m, *x)) => Ok(()),
        _ => fail(&format!("takes a struct of {n} integer constants")),
    }
}

#[cfg(test)]
mod rule_tests {
    use super::*;

    /// [`OpRules::int_constant`] and [`OpRules::struct_constant`] split the constant operands
    /// by the op table's parameter types.
    #[test]
    fn constant_operands_split_by_their_types() {
        let mut seen = (0, 0);
        for info in crate::dxil_op::OPS {
            let r = OpRules::of(info.op);
            assert_eq!(r.int_constant & r.struct_constant, 0, "{:?}", info.op);
            assert_eq!((r.int_constant | r.struct_constant) & !r.constant, 0, "{:?}", info.op);
            for (k, p) in info.params.iter().enumerate().filter(|(k, _)| bit(r.constant, *k)) {
                let int =
                    matches!(p.ty, ParamType::I1 | ParamType::I8 | ParamType::I16 | ParamType::I32 | ParamType::I64);
                assert_eq!(bit(r.int_constant, k), int, "{:?} operand {k}", info.op);
                seen.0 += usize::from(int);
                seen.1 += usize::from(bit(r.struct_constant, k));
            }
        }
        assert!(seen.0 > 0 && seen.1 > 0, "{seen:?}");
        // `CreateHandle(class, range, index, non-uniform)`: three integer constants;
        // `CreateHandleFromBinding(bind, index, non-uniform)`: a struct and an integer.
        let r = OpRules::of(DxilOp::CreateHandle);
        assert_eq!((r.int_constant, r.struct_constant), (0b1011, 0));
        let r = OpRules::of(DxilOp::CreateHandleFromBinding);
        assert_eq!((r.int_constant, r.struct_constant), (0b100, 0b1));
    }

    /// Of every fixture's `dx.op` declarations, the integer constants [`Declared::of`] takes
    /// from the op's rules are the parameters the declaration types as integers.
    #[test]
    fn declared_integer_constants_are_the_declared_integers() {
        let mut checked = 0;
        for p in super::super::tests::fixtures() {
            let m = super::super::tests::read(&p);
            let scan = super::super::types::verify_dx_types(&m, None).unwrap();
            for f in m.functions.iter().filter(|f| !f.is_declaration) {
                for inst in &f.insts {
                    let InstKind::DxOp { op, overload, callee, .. } = inst.kind else { continue };
                    let d = Declared::of(&m, &widen(&scan.known), callee, op, overload);
                    if !d.params_fit {
                        continue;
                    }
                    let ps = declared_params(&m, callee);
                    let mut want = 0u64;
                    for (k, t) in ps.iter().enumerate().filter(|(k, _)| bit(d.rules.constant, *k)) {
                        if matches!(m.types.get(*t), Type::Int(_)) {
                            want |= 1 << k;
                        }
                    }
                    assert_eq!(d.int_constant, want, "{}: {op:?}", p.display());
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked} calls checked");
    }
}
