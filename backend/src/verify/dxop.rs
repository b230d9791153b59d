//! `dx.op` calls against the operation table ([`crate::dxil_op`]): the
//! reader has checked opcode, class, overload and argument count; here each
//! argument's type and the result type follow the op's parameters and
//! overload, and parameters the table marks constant are integer constants.

use super::{err, inst_place, Result, VerifyError};
use crate::dxil::{DxilModuleInfo, ResourceKind};
use crate::dxil_op::{DxilOp, Overload, ParamType};
use crate::ir::{ConstKind, Function, InstId, Module, Type, TypeId, Value};

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
    /// The declaration's parameters after the opcode (the first `arity`), if every one fits
    /// and they are at most [`MAX_PARAMS`] (else `params_fit` is false).
    params: [TypeId; MAX_PARAMS],
    params_fit: bool,
    /// The declaration's result type, if it fits.
    ret: Option<TypeId>,
    /// Bit k: operand k must be a constant (the table's mark or [`must_be_const`]).
    constant: u64,
    /// Bit k: operand k must be a constant and is declared an integer, so it
    /// must be an integer constant ([`is_constant`]); the other constant
    /// operands are declared structs, which any constant is.
    int_constant: u64,
    /// [`needs_class`] (`u8::MAX`: none).
    class: u8,
    /// [`has_offsets`], an atomic, or a [`mask_operand`]: the rarer checks of [`special`].
    special: bool,
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
#[derive(Clone, Copy, Default)]
struct OpRules {
    constant: u64,
    class: u8,
    special: bool,
    /// Bit k: parameter k is a texel offset (`offset0`…), for [`has_offsets`] ops.
    offsets: u64,
}

impl OpRules {
    /// The table of every op's [`OpRules`], read from the rule functions once.
    fn of(op: DxilOp) -> OpRules {
        static TABLE: std::sync::OnceLock<Vec<OpRules>> = std::sync::OnceLock::new();
        let table = TABLE.get_or_init(|| {
            crate::dxil_op::OPS
                .iter()
                .map(|info| {
                    let op = info.op;
                    OpRules {
                        constant: info
                            .params
                            .iter()
                            .enumerate()
                            .filter(|(k, p)| *k < 64 && (p.is_const || must_be_const(op, *k)))
                            .fold(0u64, |m, (k, _)| m | 1 << k),
                        class: needs_class(op).unwrap_or(u8::MAX),
                        special: has_offsets(op)
                            || matches!(op, DxilOp::AtomicBinOp | DxilOp::AtomicCompareExchange)
                            || mask_operand(op).is_some(),
                        offsets: info
                            .params
                            .iter()
                            .enumerate()
                            .filter(|(k, p)| *k < 64 && p.name.starts_with("offset"))
                            .fold(0u64, |m, (k, _)| m | 1 << k),
                    }
                })
                .collect()
        });
        table.get(op as usize).copied().unwrap_or(OpRules { constant: 0, class: u8::MAX, special: false, offsets: 0 })
    }
}

impl Declared {
    /// The entry for `op`/`overload` called through `callee` (`fit`: [`fits`], remembered
    /// per module).
    fn of(m: &Module, callee: crate::ir::FuncId, op: DxilOp, overload: Overload, fit: &mut FitMemo) -> Declared {
        let info = op.info();
        let rules = OpRules::of(op);
        let mut d = Declared {
            key: 0,
            arity: info.params.len() as u32,
            params: [TypeId(u32::MAX); MAX_PARAMS],
            params_fit: false,
            ret: None,
            constant: rules.constant,
            int_constant: 0,
            class: rules.class,
            special: rules.special,
        };
        let Some(f) = m.functions.get(callee.index()) else { return d };
        if let Some(ps) = f.param_tys.get(1..) {
            if ps.len() == info.params.len() && ps.len() <= MAX_PARAMS {
                d.params_fit = true;
                for (k, (&t, p)) in ps.iter().zip(info.params).enumerate() {
                    d.params[k] = t;
                    if !fit.fits(m, t, p.ty, overload) {
                        d.params_fit = false;
                        break;
                    }
                }
            }
        }
        if fit.fits(m, f.ret_ty, info.ret, overload) {
            d.ret = Some(f.ret_ty);
        }
        let mut c = if d.params_fit { rules.constant } else { 0 };
        while c != 0 {
            let k = c.trailing_zeros() as usize;
            c &= c - 1;
            match d.params.get(k).and_then(|t| m.types.list.get(t.0 as usize)) {
                Some(Type::Int(_)) => d.int_constant |= 1 << k,
                Some(Type::Struct { .. }) => {}
                // A constant operand declared otherwise: every call takes the slow path.
                _ => d.params_fit = false,
            }
        }
        d
    }
}

/// [`fits`] answers of one module for the parameter types that are not a fixed scalar (named
/// structs, the overload): a module declares many `dx.op` functions over the same few types.
#[derive(Default)]
struct FitMemo {
    /// (type, parameter type, overload, fits).
    seen: Vec<(TypeId, ParamType, Overload, bool)>,
}

impl FitMemo {
    #[inline]
    fn fits(&mut self, m: &Module, t: TypeId, p: ParamType, overload: Overload) -> bool {
        let Some(ty) = m.types.list.get(t.0 as usize) else { return false };
        if let Some(fit) = scalar_fits(ty, p) {
            return fit;
        }
        if let Some(e) = self.seen.iter().find(|e| e.0 == t && e.1 == p && e.2 == overload) {
            return e.3;
        }
        let fit = fits_other(m, t, ty, p, overload);
        self.seen.push((t, p, overload, fit));
        fit
    }
}

/// The `dx.op` declarations of one module, by callee, as its calls reach them
/// (a callee called with several ops gets an entry per op). Its storage is kept
/// for the next module on the thread.
pub(crate) struct Calls {
    /// By callee: the op and overload its entry of `declared` is for (0: none yet).
    keys: Vec<u32>,
    declared: Vec<Declared>,
    fit: FitMemo,
}

type Scratch = (Vec<u32>, Vec<Declared>, FitMemo);

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

impl Calls {
    pub(crate) fn new(m: &Module) -> Calls {
        let (mut keys, mut declared, mut fit) = SCRATCH.with(|s| s.take()).unwrap_or_default();
        // One entry per function, and one more for a callee the module does not have (the
        // operand-range rule reports it first).
        keys.clear();
        keys.resize(m.functions.len() + 1, 0);
        declared.clear();
        fit.seen.clear();
        Calls { keys, declared, fit }
    }

    #[inline(always)]
    fn get(&mut self, m: &Module, callee: crate::ir::FuncId, op: DxilOp, overload: Overload) -> &Declared {
        let key = (op as u32) << 8 | (overload as u32 + 1);
        let slot = callee.index().min(self.keys.len() - 1);
        let at = self.keys[slot] as usize;
        if at != 0 && self.declared[at - 1].key == key {
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
        let mut d = Declared::of(m, callee, op, overload, &mut self.fit);
        d.key = key;
        self.declared.push(d);
        self.keys[slot] = self.declared.len() as u32;
        &self.declared[self.declared.len() - 1]
    }
}

impl Drop for Calls {
    fn drop(&mut self) {
        // Keep the storage unless a huge module made it big.
        if self.keys.capacity() <= 1 << 16 && self.declared.capacity() <= 1 << 12 && self.fit.seen.capacity() <= 1 << 12 {
            let keep = (std::mem::take(&mut self.keys), std::mem::take(&mut self.declared), std::mem::take(&mut self.fit));
            SCRATCH.with(|s| s.set(Some(keep)));
        }
    }
}

/// The rules of `dx.op` call `id` (from the verifier's walk): arguments and
/// result against the op's parameters and overload, constant operands,
/// the handle's class, and the checks of [`special`].
#[inline(always)]
pub(crate) fn call(
    m: &Module,
    f: &Function,
    dxil: &DxilModuleInfo,
    calls: &mut Calls,
    id: InstId,
    inst: &crate::ir::Inst,
    (op, overload, callee, args): (DxilOp, Overload, crate::ir::FuncId, crate::ir::List),
) -> Result<()> {
    let args = f.values(args);
    let decl = calls.get(m, callee, op, overload);
    if args.len() != decl.arity as usize {
        return Err(arity_error(f, id, op, args.len()));
    }
    if !(decl.params_fit && args_as_declared(m, f, decl, args)) {
        operands(m, f, id, op, overload, decl.constant, args)?;
    }
    let want = decl.class;
    if want != u8::MAX {
        let class = match args.first() {
            Some(h) => handle_class(m, f, *h),
            None => None,
        };
        if class.is_some_and(|c| c != want) {
            return Err(class_error(f, id, op, want, class));
        }
    }
    if decl.special {
        special(m, f, dxil, id, op, overload, args)?;
    }
    if decl.ret != Some(inst.ty) && !fits(m, inst.ty, op.info().ret, overload) {
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
#[inline(always)]
fn args_as_declared(m: &Module, f: &Function, decl: &Declared, args: &[Value]) -> bool {
    let (constant, int_constant) = (decl.constant, decl.int_constant);
    for (k, (a, p)) in args.iter().zip(&decl.params).enumerate() {
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
            return Err(err(
                "dxop.operand-type",
                inst_place(f, id),
                format!(
                    "{} operand {k} ({}) is {}, the op takes {:?} (overload {overload})",
                    op.name(),
                    p.name,
                    m.types.display(t),
                    p.ty
                ),
            ));
        }
        if bit(constant, k) && !is_constant(m, t, *a) {
            return Err(err(
                "dxop.constant-operand",
                inst_place(f, id),
                format!("{} operand {k} ({}) must be a constant", op.name(), p.name),
            ));
        }
    }
    Ok(())
}

/// The checks of a few ops: no texel offsets on cube textures, atomics on
/// the element type, load and store component masks.
fn special(
    m: &Module,
    f: &Function,
    dxil: &DxilModuleInfo,
    id: InstId,
    op: DxilOp,
    overload: Overload,
    args: &[Value],
) -> Result<()> {
    if has_offsets(op) {
        // The offsets first: the handle's kind is looked up only for a call that has one.
        let mut offsets = OpRules::of(op).offsets;
        let mut offset = false;
        while offsets != 0 && !offset {
            let k = offsets.trailing_zeros() as usize;
            offsets &= offsets - 1;
            offset = args.get(k).is_some_and(|a| !is_undef(m, *a));
        }
        let cube = offset
            && args
                .first()
                .and_then(|h| handle_kind(m, f, dxil, *h))
                .is_some_and(|k| k == ResourceKind::TextureCube as u32 || k == ResourceKind::TextureCubeArray as u32);
        if cube && offset {
            return Err(err(
                "dxop.cube-offset",
                inst_place(f, id),
                format!("{} with texel offsets on a cube texture", op.name()),
            ));
        }
    }
    if matches!(op, DxilOp::AtomicBinOp | DxilOp::AtomicCompareExchange) {
        atomic_element(m, f, dxil, id, op, overload, args)?;
    }
    if let Some(k) = mask_operand(op) {
        let mask = args.get(k).and_then(|a| m.const_uint(*a));
        if mask.is_some_and(|x| x == 0 || x > 0xF) {
            return Err(err(
                "dxop.mask",
                inst_place(f, id),
                format!("{} component mask {:#x} (1..=0xf)", op.name(), mask.unwrap_or(0)),
            ));
        }
    }
    Ok(())
}

/// The resource class (0 SRV, 1 UAV, 2 CBV, 3 sampler) an op's handle
/// operand must have: writes and atomics need a UAV, sampling and gathers an SRV.
fn needs_class(op: DxilOp) -> Option<u8> {
    use DxilOp as D;
    match op {
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
fn handle_class(m: &Module, f: &Function, h: Value) -> Option<u8> {
    let Value::Inst(i) = h else { return None };
    let (op, args) = f.dx_op(i)?;
    match op {
        DxilOp::CreateHandle => m.const_uint(*args.first()?).and_then(|c| u8::try_from(c).ok()),
        DxilOp::CreateHandleFromBinding => {
            let Value::Const(c) = *args.first()? else { return None };
            match &m.konst(c).kind {
                ConstKind::Aggregate(vs) => m.const_uint(*vs.get(3)?).and_then(|c| u8::try_from(c).ok()),
                _ => None,
            }
        }
        DxilOp::AnnotateHandle => {
            let w = first_word(m, *args.get(1)?)?;
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
fn atomic_element(
    m: &Module,
    f: &Function,
    dxil: &DxilModuleInfo,
    id: InstId,
    op: DxilOp,
    overload: Overload,
    args: &[Value],
) -> Result<()> {
    let Some(&h) = args.first() else { return Ok(()) };
    let Some((kind, elem)) = handle_kind_element(m, f, dxil, h) else { return Ok(()) };
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
        return Err(err(
            "dxop.atomic-type",
            inst_place(f, id),
            format!(
                "{} ({overload}) on a resource of element type {}",
                op.name(),
                C::from_u32(elem).map_or("?", |c| c.name())
            ),
        ));
    }
    Ok(())
}

/// The resource kind ([`handle_kind`]) of a handle and, for a typed resource, its element
/// (component) type number, looked up once.
fn handle_kind_element(m: &Module, f: &Function, dxil: &DxilModuleInfo, h: Value) -> Option<(u32, Option<u32>)> {
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
        DxilOp::AnnotateHandle => {
            let Value::Const(c) = *args.get(1)? else { return None };
            let (w0, w1) = match &m.konst(c).kind {
                ConstKind::Aggregate(vs) => (m.const_uint(*vs.first()?)?, vs.get(1).and_then(|v| m.const_uint(*v))),
                ConstKind::Data(d) => (*d.first()?, d.get(1).copied()),
                ConstKind::Null => (0, None),
                _ => return None,
            };
            Some(((w0 & 0xFF) as u32, w1.map(|w| (w & 0xFF) as u32)))
        }
        _ => None,
    }
}

/// Ops with texel-offset operands (`offset0`…).
fn has_offsets(op: DxilOp) -> bool {
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
            | D::TextureGather
            | D::TextureGatherCmp
            | D::TextureGatherRaw
            | D::TextureLoad
    )
}

fn is_undef(m: &Module, v: Value) -> bool {
    matches!(v, Value::Const(c) if matches!(m.konst(c).kind, ConstKind::Undef))
}

/// The resource kind (`ResourceKind` number) of a handle made by
/// CreateHandle (from the module's resource lists) or AnnotateHandle.
fn handle_kind(m: &Module, f: &Function, dxil: &DxilModuleInfo, h: Value) -> Option<u32> {
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
            match class {
                0 => res.srvs.iter().find(|r| u64::from(r.binding.id) == id).map(|r| r.kind as u32),
                1 => res.uavs.iter().find(|r| u64::from(r.binding.id) == id).map(|r| r.kind as u32),
                _ => None,
            }
        }
        DxilOp::AnnotateHandle => first_word(m, *args.get(1)?).map(|w| (w & 0xFF) as u32),
        _ => None,
    }
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
            return Err(err(
                "dxop.mask",
                inst_place(f, id),
                format!("extracts component {k} of %{}, whose mask {mask:#x} does not load it", a.0),
            ));
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
