//! Operand types of LLVM instructions: the rules of LLVM's own verifier that
//! lowering relies on (same-typed arithmetic operands, casts that change
//! what their name says, boolean conditions, loads and stores of the
//! pointee type, …).

use super::{cold, err, inst_place, Result, VerifyError};
use crate::bitcode::TypeFacts;
use crate::ir::{CastOp, ConstKind, Function, InstId, InstKind, Module, Type, TypeId, Value};

/// The operand-type rules of one function's instructions ([`Checker::inst`],
/// from the verifier's walk).
pub(super) struct Checker<'a> {
    m: &'a Module,
    f: &'a Function,
}

/// Scalar class of a first-class type, looking through vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Int(u32),
    Float(u32),
    Ptr,
    Other,
}

impl<'a> Checker<'a> {
    pub(super) fn new(m: &'a Module, f: &'a Function) -> Checker<'a> {
        Checker { m, f }
    }
    fn get(&self, t: TypeId) -> Option<&'a Type> {
        self.m.types.list.get(t.0 as usize)
    }
    /// [`Module::value_type`], instructions and constants looked up here.
    #[inline]
    fn vt(&self, v: Value) -> TypeId {
        match v {
            Value::Inst(i) => self.f.inst(i).ty,
            Value::Const(c) => self.m.konst(c).ty,
            _ => self.m.value_type(self.f, v),
        }
    }
    /// (scalar class, vector length or `None` for scalars).
    fn shape(&self, t: TypeId) -> (Class, Option<u32>) {
        shape_of(self.m, t)
    }
    fn is_bool(&self, t: TypeId) -> bool {
        matches!(self.get(t), Some(Type::Int(1)))
    }
    fn show(&self, t: TypeId) -> String {
        self.m.types.display(t)
    }
    fn fail(&self, id: InstId, detail: String) -> VerifyError {
        err("type.operand", inst_place(self.f, id), detail)
    }
    /// `call.intrinsic`: a call of `llvm.lifetime.start` or `llvm.lifetime.end` — which lowering
    /// drops, as markers that mean nothing to SPIR-V — is of LLVM's intrinsic, `void (i64, i8*)`
    /// (LLVM's verifier: "Intrinsic has incorrect return type!"). Declared otherwise, the call
    /// would have a result that nothing defines.
    #[cold]
    fn lifetime_marker(&self, id: InstId, ret: TypeId, params: &[TypeId], vararg: bool) -> Result<()> {
        let byte_ptr =
            |t: &TypeId| self.m.types.pointee(*t).is_some_and(|(p, _)| matches!(self.get(p), Some(Type::Int(8))));
        let ok = matches!(self.get(ret), Some(Type::Void))
            && !vararg
            && matches!(params, [size, ptr] if matches!(self.get(*size), Some(Type::Int(64))) && byte_ptr(ptr));
        if ok {
            return Ok(());
        }
        Err(err(
            "call.intrinsic",
            inst_place(self.f, id),
            "an `llvm.lifetime` marker declared otherwise than LLVM's `void (i64, i8*)`",
        ))
    }
    /// `atomic.groupshared`: LLVM's atomics in DXIL reach groupshared memory (address space 3)
    /// or a work-graph node record (6) only; a UAV's atomics are `dx.op` calls (DXC's
    /// validator: "Non-groupshared or node record destination to atomic operation"). Vulkan has
    /// no atomics on private memory.
    #[inline]
    fn groupshared_atomic(&self, id: InstId, what: &str, space: u32) -> Result<()> {
        if space == 3 || space == 6 {
            return Ok(());
        }
        Err(cold(|| {
            err(
                "atomic.groupshared",
                inst_place(self.f, id),
                format!("{what} on memory of address space {space}, not groupshared (3) or a node record (6)"),
            )
        }))
    }
    #[inline]
    fn same(&self, id: InstId, what: &str, a: TypeId, b: TypeId) -> Result<()> {
        if a != b {
            return self.same_slow(id, what, a, b);
        }
        Ok(())
    }
    #[cold]
    fn same_slow(&self, id: InstId, what: &str, a: TypeId, b: TypeId) -> Result<()> {
        if !same_type(self.m, a, b) {
            return Err(cold(|| self.fail(id, format!("{what}: {} and {} differ", self.show(a), self.show(b)))));
        }
        Ok(())
    }

    /// The rules of instruction `id` (a `dx.op` call has its own, [`super::dxop`]).
    pub(super) fn inst(&self, id: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let rt = inst.ty;
        match &inst.kind {
            InstKind::Binary { op, lhs, rhs, .. } => {
                let lt = self.vt(*lhs);
                self.same(id, "operands", lt, self.vt(*rhs))?;
                self.same(id, "operand and result", lt, rt)?;
                if !binop_fits(self.m, *op, lt) {
                    return Err(cold(|| self.fail(id, format!("{} on {}", op.name(), self.show(lt)))));
                }
            }
            InstKind::Cast { op, value } => self.cast(id, *op, self.vt(*value), rt)?,
            InstKind::Cmp { pred, lhs, rhs, .. } => {
                let lt = self.vt(*lhs);
                self.same(id, "operands", lt, self.vt(*rhs))?;
                let (c, len) = self.shape(lt);
                let ok = if pred.is_float() {
                    matches!(c, Class::Float(_))
                } else {
                    matches!(c, Class::Int(_) | Class::Ptr)
                };
                if !ok {
                    return Err(cold(|| self.fail(id, format!("{} compare of {}", pred.name(), self.show(lt)))));
                }
                if self.shape(rt) != (Class::Int(1), len) {
                    return Err(cold(|| self.fail(id, format!("compare result {}", self.show(rt)))));
                }
            }
            InstKind::Select { cond, if_true, if_false } => {
                let tt = self.vt(*if_true);
                self.same(id, "select values", tt, self.vt(*if_false))?;
                self.same(id, "select value and result", tt, rt)?;
                let ct = self.vt(*cond);
                let (cc, clen) = self.shape(ct);
                if cc != Class::Int(1) || (clen.is_some() && clen != self.shape(tt).1) {
                    return Err(cold(|| self.fail(id, format!("select condition {}", self.show(ct)))));
                }
            }
            InstKind::Phi { incoming } => {
                for (v, _) in self.f.phis(*incoming) {
                    self.same(id, "PHI incoming value and result", self.vt(*v), rt)?;
                }
                if matches!(
                    self.get(rt),
                    Some(Type::Void | Type::Label | Type::Metadata | Type::Function { .. }) | None
                ) {
                    return Err(cold(|| self.fail(id, format!("PHI of {}", self.show(rt)))));
                }
            }
            InstKind::Call { callee, fn_ty, args, .. } => {
                let Some(Type::Function { ret, params, vararg }) = self.get(*fn_ty) else {
                    return Err(cold(|| self.fail(id, "call through a non-function type".into())));
                };
                let ct = self.vt(*callee);
                match self.m.types.pointee(ct) {
                    Some((p, _)) if p == *fn_ty || self.get(p) == self.get(*fn_ty) => {}
                    _ => return Err(cold(|| self.fail(id, format!("callee of type {}", self.show(ct))))),
                }
                let args = self.f.values(*args);
                if args.len() < params.len() || (!vararg && args.len() != params.len()) {
                    return Err(cold(|| {
                        self.fail(id, format!("{} arguments for {} parameters", args.len(), params.len()))
                    }));
                }
                for (a, p) in args.iter().zip(params) {
                    self.same(id, "argument and parameter", self.vt(*a), *p)?;
                }
                self.same(id, "call result", *ret, rt)?;
                if let Value::Function(g) = callee {
                    if self.m.functions.get(g.index()).is_some_and(|g| crate::ir::is_lifetime_marker(&g.name)) {
                        self.lifetime_marker(id, *ret, params, *vararg)?;
                    }
                }
            }
            InstKind::DxOp { .. } => {}
            InstKind::Alloca { alloc_ty, count, .. } => {
                if !matches!(self.shape(self.vt(*count)), (Class::Int(_), None)) {
                    return Err(cold(|| self.fail(id, "alloca count is not an integer".into())));
                }
                if matches!(
                    self.get(*alloc_ty),
                    Some(Type::Void | Type::Label | Type::Metadata | Type::Function { .. }) | None
                ) {
                    return Err(cold(|| self.fail(id, format!("alloca of {}", self.show(*alloc_ty)))));
                }
            }
            InstKind::Load { ptr, .. } => {
                let pt = self.vt(*ptr);
                match self.m.types.pointee(pt) {
                    Some((p, _)) => self.same(id, "loaded pointee and result", p, rt)?,
                    None => return Err(cold(|| self.fail(id, format!("load from {}", self.show(pt))))),
                }
            }
            InstKind::Store { ptr, value, .. } => {
                let pt = self.vt(*ptr);
                match self.m.types.pointee(pt) {
                    Some((p, _)) => self.same(id, "stored value and pointee", self.vt(*value), p)?,
                    None => return Err(cold(|| self.fail(id, format!("store to {}", self.show(pt))))),
                }
            }
            InstKind::Gep { base, indices, source_ty, .. } => {
                let bt = self.vt(*base);
                let Some((p, space)) = self.m.types.pointee(bt) else {
                    return Err(cold(|| self.fail(id, format!("getelementptr on {}", self.show(bt)))));
                };
                self.same(id, "getelementptr source type and base pointee", *source_ty, p)?;
                let int_index = |v: Value| matches!(self.shape(self.vt(v)), (Class::Int(_), None));
                let cur = gep_walk(self.m, p, self.f.values(*indices), int_index).map_err(|stop| {
                    self.fail(
                        id,
                        match stop {
                            GepStop::NotInt(k) => format!("getelementptr index {k} is not an integer"),
                            GepStop::StructIndex(k, None) => {
                                format!("getelementptr struct index {k} is not a constant")
                            }
                            GepStop::StructIndex(_, Some(c)) => format!("getelementptr struct index {c} out of range"),
                            GepStop::Into(k, t) => format!("getelementptr index {k} into {}", self.show(t)),
                        },
                    )
                })?;
                match self.get(rt) {
                    Some(Type::Pointer { pointee, addr_space })
                        if *addr_space == space && same_type(self.m, *pointee, cur) => {}
                    _ => return Err(cold(|| self.fail(id, format!("getelementptr result {}", self.show(rt))))),
                }
            }
            InstKind::ExtractValue { agg, indices } => {
                let t = self.walk(id, self.vt(*agg), self.f.indices(*indices))?;
                self.same(id, "extractvalue result", t, rt)?;
            }
            InstKind::InsertValue { agg, value, indices } => {
                let at = self.vt(*agg);
                self.same(id, "insertvalue aggregate and result", at, rt)?;
                let t = self.walk(id, at, self.f.indices(*indices))?;
                self.same(id, "inserted value", self.vt(*value), t)?;
            }
            InstKind::ExtractElement { vector, index } => {
                let vt = self.vt(*vector);
                let Some(Type::Vector { elem, .. }) = self.get(vt) else {
                    return Err(cold(|| self.fail(id, format!("extractelement of {}", self.show(vt)))));
                };
                self.same(id, "extractelement result", *elem, rt)?;
                self.int_index(id, *index)?;
            }
            InstKind::InsertElement { vector, value, index } => {
                let vt = self.vt(*vector);
                let Some(Type::Vector { elem, .. }) = self.get(vt) else {
                    return Err(cold(|| self.fail(id, format!("insertelement into {}", self.show(vt)))));
                };
                self.same(id, "insertelement result", vt, rt)?;
                self.same(id, "inserted element", self.vt(*value), *elem)?;
                self.int_index(id, *index)?;
            }
            InstKind::ShuffleVector { a, b, mask } => {
                let at = self.vt(*a);
                self.same(id, "shufflevector operands", at, self.vt(*b))?;
                let (Some(Type::Vector { len: alen, elem }), Some(Type::Vector { len: rlen, elem: relem })) =
                    (self.get(at), self.get(rt))
                else {
                    return Err(cold(|| self.fail(id, "shufflevector of non-vectors".into())));
                };
                self.same(id, "shufflevector element", *elem, *relem)?;
                let Value::Const(mc) = mask else {
                    return Err(cold(|| self.fail(id, "shufflevector mask is not a constant".into())));
                };
                let mt = self.m.konst(*mc).ty;
                if self.shape(mt) != (Class::Int(32), Some(*rlen)) {
                    return Err(cold(|| self.fail(id, format!("shufflevector mask {}", self.show(mt)))));
                }
                let limit = u64::from(*alen) * 2;
                let lanes: Vec<Option<u64>> = match &self.m.konst(*mc).kind {
                    ConstKind::Data(d) => d.iter().map(|x| Some(*x)).collect(),
                    ConstKind::Aggregate(vs) => vs.iter().map(|v| self.m.const_uint(*v)).collect(),
                    ConstKind::Null => Vec::new(),
                    ConstKind::Undef => Vec::new(),
                    _ => return Err(cold(|| self.fail(id, "shufflevector mask is not a constant vector".into()))),
                };
                if lanes.iter().flatten().any(|x| *x >= limit) {
                    return Err(cold(|| self.fail(id, "shufflevector mask selects past both operands".into())));
                }
            }
            InstKind::AtomicRmw { ptr, value, .. } => {
                let pt = self.vt(*ptr);
                let Some((p, space)) = self.m.types.pointee(pt) else {
                    return Err(cold(|| self.fail(id, format!("atomicrmw on {}", self.show(pt)))));
                };
                self.groupshared_atomic(id, "atomicrmw", space)?;
                self.same(id, "atomicrmw value and pointee", self.vt(*value), p)?;
                self.same(id, "atomicrmw result", p, rt)?;
                if !matches!(self.shape(p), (Class::Int(_), None)) {
                    return Err(cold(|| self.fail(id, format!("atomicrmw on {}", self.show(p)))));
                }
            }
            InstKind::CmpXchg { ptr, cmp, new, .. } => {
                let pt = self.vt(*ptr);
                let Some((p, space)) = self.m.types.pointee(pt) else {
                    return Err(cold(|| self.fail(id, format!("cmpxchg on {}", self.show(pt)))));
                };
                self.groupshared_atomic(id, "cmpxchg", space)?;
                self.same(id, "cmpxchg compare value and pointee", self.vt(*cmp), p)?;
                self.same(id, "cmpxchg new value and pointee", self.vt(*new), p)?;
                if !matches!(self.shape(p), (Class::Int(_), None)) {
                    return Err(cold(|| self.fail(id, format!("cmpxchg on {}", self.show(p)))));
                }
            }
            InstKind::CondBr { cond, .. } => {
                let ct = self.vt(*cond);
                if !self.is_bool(ct) {
                    return Err(cold(|| self.fail(id, format!("branch condition of type {}", self.show(ct)))));
                }
            }
            InstKind::Switch { cond, cases, .. } => {
                let ct = self.vt(*cond);
                if !matches!(self.shape(ct), (Class::Int(_), None)) {
                    return Err(cold(|| self.fail(id, format!("switch on {}", self.show(ct)))));
                }
                for (c, _) in self.f.cases(*cases) {
                    self.same(id, "switch case and condition", self.m.konst(*c).ty, ct)?;
                    if self.m.const_uint(Value::Const(*c)).is_none() {
                        return Err(cold(|| self.fail(id, "switch case is not an integer constant".into())));
                    }
                }
            }
            InstKind::Ret { value } => {
                let want = self.f.ret_ty;
                match value {
                    Some(v) => self.same(id, "returned value and function result", self.vt(*v), want)?,
                    None if matches!(self.get(want), Some(Type::Void)) => {}
                    None => {
                        return Err(cold(|| {
                            self.fail(id, format!("ret void in a function returning {}", self.show(want)))
                        }))
                    }
                }
            }
            InstKind::Fence { .. } | InstKind::Br { .. } | InstKind::Unreachable => {}
        }
        Ok(())
    }

    fn int_index(&self, id: InstId, v: Value) -> Result<()> {
        if !matches!(self.shape(self.vt(v)), (Class::Int(_), None)) {
            return Err(cold(|| self.fail(id, "vector index is not an integer".into())));
        }
        Ok(())
    }

    /// The type reached by extractvalue/insertvalue indices.
    fn walk(&self, id: InstId, mut t: TypeId, idx: &[u32]) -> Result<TypeId> {
        if idx.is_empty() {
            return Err(cold(|| self.fail(id, "no indices".into())));
        }
        for &k in idx {
            t = match self.get(t) {
                Some(Type::Array { len, elem }) if u64::from(k) < *len => *elem,
                Some(Type::Struct { elems, .. }) if (k as usize) < elems.len() => elems[k as usize],
                _ => return Err(cold(|| self.fail(id, format!("index {k} into {}", self.show(t))))),
            };
        }
        Ok(t)
    }

    fn cast(&self, id: InstId, op: CastOp, from: TypeId, to: TypeId) -> Result<()> {
        let ok = cast_fits(self.m, op, from, to);
        if !ok {
            return Err(cold(|| self.fail(id, format!("{} from {} to {}", op.name(), self.show(from), self.show(to)))));
        }
        Ok(())
    }
}

/// (scalar class, vector length or `None` for scalars) of type `t` of module `m`.
#[inline]
fn shape_of(m: &Module, t: TypeId) -> (Class, Option<u32>) {
    let class = |t: TypeId| match m.types.list.get(t.0 as usize) {
        Some(Type::Int(w)) => Class::Int(*w),
        Some(Type::Half) => Class::Float(16),
        Some(Type::Float) => Class::Float(32),
        Some(Type::Double) => Class::Float(64),
        Some(Type::Pointer { .. }) => Class::Ptr,
        _ => Class::Other,
    };
    match m.types.list.get(t.0 as usize) {
        Some(Type::Vector { len, elem }) => (class(*elem), Some(*len)),
        _ => (class(t), None),
    }
}

/// A binary operation `op` works on values of type `t`: integers (or vectors of them) for an
/// integer opcode, floating-point values for a floating-point one.
fn binop_fits(m: &Module, op: crate::ir::BinOp, t: TypeId) -> bool {
    match shape_of(m, t).0 {
        Class::Int(_) => !op.is_float(),
        Class::Float(_) => op.is_float(),
        _ => false,
    }
}

/// LLVM's rules for a cast `op` from `from` to `to` (instructions and constant expressions).
fn cast_fits(m: &Module, op: CastOp, from: TypeId, to: TypeId) -> bool {
    let (fc, flen) = shape_of(m, from);
    let (tc, tlen) = shape_of(m, to);
    use Class::*;
    let ok = flen == tlen
        && match op {
            CastOp::Trunc => matches!((fc, tc), (Int(a), Int(b)) if b < a),
            CastOp::ZExt | CastOp::SExt => matches!((fc, tc), (Int(a), Int(b)) if b > a),
            CastOp::FPTrunc => matches!((fc, tc), (Float(a), Float(b)) if b < a),
            CastOp::FPExt => matches!((fc, tc), (Float(a), Float(b)) if b > a),
            CastOp::FPToUI | CastOp::FPToSI => matches!((fc, tc), (Float(_), Int(_))),
            CastOp::UIToFP | CastOp::SIToFP => matches!((fc, tc), (Int(_), Float(_))),
            CastOp::PtrToInt => matches!((fc, tc), (Ptr, Int(_))),
            CastOp::IntToPtr => matches!((fc, tc), (Int(_), Ptr)),
            CastOp::AddrSpaceCast => matches!((fc, tc), (Ptr, Ptr)),
            CastOp::BitCast => match (fc, tc) {
                (Ptr, Ptr) => true,
                (Int(a) | Float(a), Int(b) | Float(b)) => a == b,
                _ => false,
            },
        };
    // bitcast may also change the vector shape at the same total width
    ok || (op == CastOp::BitCast
        && match (fc, tc) {
            (Int(a) | Float(a), Int(b) | Float(b)) => {
                u64::from(a) * u64::from(flen.unwrap_or(1)) == u64::from(b) * u64::from(tlen.unwrap_or(1))
            }
            _ => false,
        })
}

/// Aggregate constants have one element per member of their type, each of
/// the member's type (where the element is a typed value). Every constant's type
/// is one of the module's.
///
/// `as_read`: for a module as the bitcode reader made it, the range of the constants that
/// may be aggregates, data arrays or GEP, cast or binary expressions
/// ([`crate::bitcode::ReadFacts::shaped_consts`]; `None`: there are none): every other
/// constant has a type of the module by construction.
pub(crate) fn verify_constants(m: &Module, as_read: Option<Option<(u32, u32)>>) -> Result<()> {
    let n = m.consts.len();
    let (range, as_read) = match as_read {
        None => (0..n, false),
        Some(None) => return Ok(()),
        Some(Some((lo, hi))) => ((lo as usize).min(n)..(hi as usize).saturating_add(1).min(n), true),
    };
    let consts = m.consts.get(range.clone()).unwrap_or(&[]);
    for (i, c) in consts.iter().enumerate().map(|(k, c)| (range.start + k, c)) {
        match &c.kind {
            ConstKind::Aggregate(_)
            | ConstKind::Data(_)
            | ConstKind::Expr(
                crate::ir::ConstExpr::Gep { .. }
                | crate::ir::ConstExpr::Cast { .. }
                | crate::ir::ConstExpr::Binary { .. },
            ) => verify_constant(m, i, c)?,
            // A constant the reader made has a type of the module (`ReadFacts`).
            _ if as_read => {}
            _ => verify_constant(m, i, c)?,
        }
    }
    Ok(())
}

/// Constant #`i`.
fn verify_constant(m: &Module, i: usize, c: &crate::ir::Const) -> Result<()> {
    let place = || format!("constant #{i}");
    let Some(t) = m.types.list.get(c.ty.0 as usize) else {
        return Err(cold(|| err("constant.type", place(), "type out of range")));
    };
    let n = match &c.kind {
        ConstKind::Aggregate(vs) => vs.len() as u64,
        ConstKind::Data(d) => d.len() as u64,
        ConstKind::Expr(crate::ir::ConstExpr::Gep { source_ty, base, indices, .. }) => {
            return const_gep(m, i, c.ty, *source_ty, *base, indices);
        }
        ConstKind::Expr(crate::ir::ConstExpr::Cast { op, value }) => return const_cast(m, i, c.ty, *op, *value),
        ConstKind::Expr(crate::ir::ConstExpr::Binary { op, lhs, rhs, .. }) => {
            return const_binary(m, i, c.ty, *op, [*lhs, *rhs]);
        }
        _ => return Ok(()),
    };
    let (want, elem) = match t {
        Type::Array { len, elem } => (*len, Some(*elem)),
        Type::Vector { len, elem } => (u64::from(*len), Some(*elem)),
        Type::Struct { elems, .. } => (elems.len() as u64, None),
        _ => {
            return Err(cold(|| {
                err("constant.shape", place(), format!("aggregate constant of type {}", m.types.display(c.ty)))
            }))
        }
    };
    if n != want {
        return Err(cold(|| err("constant.shape", place(), format!("{n} elements for {}", m.types.display(c.ty)))));
    }
    if let (ConstKind::Aggregate(vs), Type::Struct { elems, .. }) = (&c.kind, t) {
        struct_fields(m, i, c.ty, vs, elems)?;
    }
    if let (ConstKind::Aggregate(vs), Some(elem)) = (&c.kind, elem) {
        for v in vs {
            if let Value::Const(k) = v {
                let et = m.consts.get(k.index()).map(|k| k.ty);
                if et.is_some_and(|et| !same_type(m, et, elem)) {
                    return Err(cold(|| {
                        err("constant.shape", place(), "element of another type than the array's".to_string())
                    }));
                }
            }
        }
    }
    Ok(())
}

/// The type of constant operand `v` (a constant, global or function), if it names one.
fn const_operand_type(m: &Module, v: Value) -> Option<TypeId> {
    match v {
        Value::Const(k) => m.consts.get(k.index()).map(|k| k.ty),
        Value::Global(g) => m.globals.get(g.index()).map(|g| g.ptr_ty),
        Value::Function(f) => m.functions.get(f.index()).map(|f| f.ptr_ty),
        _ => None,
    }
}

/// A constant cast (#`i`, of type `ty`) follows the cast rules of the instruction (a mutated
/// `getelementptr` read as `fptosi` of a resource array's pointer reached lowering and lost
/// the array).
#[cold]
fn const_cast(m: &Module, i: usize, ty: TypeId, op: CastOp, value: Value) -> Result<()> {
    let Some(from) = const_operand_type(m, value) else {
        return Err(err(
            "constant.expr",
            format!("constant #{i}"),
            format!("{} of a value that is not a constant", op.name()),
        ));
    };
    if cast_fits(m, op, from, ty) {
        return Ok(());
    }
    Err(err(
        "constant.expr",
        format!("constant #{i}"),
        format!("{} from {} to {}", op.name(), m.types.display(from), m.types.display(ty)),
    ))
}

/// A constant binary operation (#`i`, of type `ty`): both operands of its type, an integer or
/// floating-point one of the kind the opcode works on.
#[cold]
fn const_binary(m: &Module, i: usize, ty: TypeId, op: crate::ir::BinOp, operands: [Value; 2]) -> Result<()> {
    let typed = operands.iter().all(|v| const_operand_type(m, *v).is_some_and(|t| same_type(m, t, ty)));
    if typed && binop_fits(m, op, ty) {
        return Ok(());
    }
    Err(err(
        "constant.expr",
        format!("constant #{i}"),
        format!("{} on operands of other types than {}", op.name(), m.types.display(ty)),
    ))
}

/// A constant `getelementptr` (#`i`, of type `ty`) is typed as the instruction is: its base a
/// pointer to its source type, integer indices that walk that type (struct indices in range),
/// and a pointer to the type reached, in the base's address space (a mutated constant GEP
/// over an `i32*` that named `[40 x i32]` as its source reached lowering and indexed a scalar).
#[cold]
fn const_gep(m: &Module, i: usize, ty: TypeId, source_ty: TypeId, base: Value, indices: &[Value]) -> Result<()> {
    let fail = |what: String| Err(cold(|| err("constant.expr", format!("constant #{i}"), what)));
    // (A function is no base of data to index, nor an index.)
    let type_of = |v: Value| match v {
        Value::Function(_) => None,
        v => const_operand_type(m, v),
    };
    let Some(bt) = type_of(base) else { return fail("getelementptr of a base that is not a constant".into()) };
    let Some((p, space)) = m.types.pointee(bt) else {
        return fail(format!("getelementptr on {}", m.types.display(bt)));
    };
    if !same_type(m, p, source_ty) {
        return fail(format!(
            "getelementptr of {} through a base pointing to {}",
            m.types.display(source_ty),
            m.types.display(p)
        ));
    }
    let int_index = |v: Value| type_of(v).is_some_and(|t| matches!(m.types.list.get(t.0 as usize), Some(Type::Int(_))));
    let cur = match gep_walk(m, p, indices, int_index) {
        Ok(t) => t,
        Err(GepStop::NotInt(k)) => return fail(format!("getelementptr index {k} is not an integer constant")),
        Err(GepStop::StructIndex(k, _)) => return fail(format!("getelementptr struct index {k} out of range")),
        Err(GepStop::Into(k, t)) => return fail(format!("getelementptr index {k} into {}", m.types.display(t))),
    };
    match m.types.pointee(ty) {
        Some((pointee, s)) if s == space && same_type(m, pointee, cur) => Ok(()),
        _ => fail(format!("getelementptr result {}", m.types.display(ty))),
    }
}

/// Where walking a getelementptr's indices through its source type stopped.
enum GepStop {
    /// Index k is not an integer (of the kind the caller needs).
    NotInt(usize),
    /// Index k into a struct is not a constant (`None`) or is the out-of-range constant.
    StructIndex(usize, Option<u64>),
    /// Index k goes into this type, which has no elements.
    Into(usize, TypeId),
}

/// The type a getelementptr's indices reach from its source type, for instructions and
/// constant expressions alike: every index an integer (`int_index`), the first stepping over
/// the pointer, the others into arrays, vectors and, by a constant in range, structs.
#[inline]
fn gep_walk(
    m: &Module,
    source: TypeId,
    indices: &[Value],
    int_index: impl Fn(Value) -> bool,
) -> std::result::Result<TypeId, GepStop> {
    let mut cur = source;
    for (k, v) in indices.iter().enumerate() {
        if !int_index(*v) {
            return Err(GepStop::NotInt(k));
        }
        if k == 0 {
            continue;
        }
        cur = match m.types.list.get(cur.0 as usize) {
            Some(Type::Array { elem, .. } | Type::Vector { elem, .. }) => *elem,
            Some(Type::Struct { elems, .. }) => {
                let Some(c) = m.const_uint(*v) else { return Err(GepStop::StructIndex(k, None)) };
                match usize::try_from(c).ok().and_then(|c| elems.get(c)) {
                    Some(e) => *e,
                    None => return Err(GepStop::StructIndex(k, Some(c))),
                }
            }
            _ => return Err(GepStop::Into(k, cur)),
        };
    }
    Ok(cur)
}

/// Whether two type ids name the same type: the same id, or equal entries (a type table may
/// hold one type twice).
fn same_type(m: &Module, a: TypeId, b: TypeId) -> bool {
    a == b || m.types.list.get(a.0 as usize) == m.types.list.get(b.0 as usize)
}

/// Each field of constant #`i`, a struct of type `ty`, has the field's type
/// (a mutated `%dx.types.ResBind` once held a function pointer as its class byte).
fn struct_fields(m: &Module, i: usize, ty: TypeId, vs: &[Value], elems: &[TypeId]) -> Result<()> {
    for (k, (v, want)) in vs.iter().zip(elems).enumerate() {
        let Some(got) = const_operand_type(m, *v) else { continue };
        if !same_type(m, got, *want) {
            return Err(cold(|| {
                err(
                    "constant.shape",
                    format!("constant #{i}"),
                    format!(
                        "field {k} of a {} constant is {}, the field is {}",
                        m.types.display(ty),
                        m.types.display(got),
                        m.types.display(*want)
                    ),
                )
            }));
        }
    }
    Ok(())
}

/// A global's initializer has the global's value type (LLVM's verifier:
/// "global variable initializer type does not match global variable type").
pub(crate) fn verify_globals(m: &Module) -> Result<()> {
    for g in &m.globals {
        let Some(Value::Const(c)) = g.init else { continue };
        let Some(k) = m.consts.get(c.index()) else {
            return Err(cold(|| err("global.initializer", format!("global `{}`", g.name), "initializer out of range")));
        };
        if !same_type(m, k.ty, g.value_ty) {
            return Err(cold(|| {
                err(
                    "global.initializer",
                    format!("global `{}`", g.name),
                    format!(
                        "initializer of type {} for a global of type {}",
                        m.types.display(k.ty),
                        m.types.display(g.value_ty)
                    ),
                )
            }));
        }
    }
    Ok(())
}

/// DXIL's named struct types have the layout the operation table's
/// signatures mean (`dx.types.ResRet.f32` is four floats and an i32 status,
/// `dx.types.CBufRet.i32` four i32s, ...): lowering reads their fields by
/// that layout. Structs of other names are not checked.
///
/// The same walk over the types checks the element rules ([`Type::holds_data`]) and finds the
/// `void` types and the fixed-kind ones ([`TypeScan`]). Of a module as read (`facts`: its type
/// table as [`TypeFacts`] describes it), the reader has done that for the types it read: only
/// the named structs among them and the types interned after are looked at.
pub(crate) fn verify_dx_types(m: &Module, facts: Option<&TypeFacts>) -> Result<TypeScan> {
    let list = &m.types.list;
    let Some(tf) = facts.filter(|tf| tf.count as usize <= list.len()) else {
        let scan = walk_types(m, TypeScan { first: None, unique: true, known: [u32::MAX; KNOWN] }, 0)?;
        // (The reader rejects such a type: [`TypeFacts`].)
        if let Some(t) = m.types.holds_itself() {
            return Err(err(
                "type.recursive",
                format!("type #{} `{}`", t.0, m.types.display(t)),
                "holds itself through its fields or elements (a type of no size)",
            ));
        }
        return Ok(scan);
    };
    let scan = TypeScan { first: tf.first_void, unique: !tf.several_voids, known: tf.known };
    let from = tf.count as usize;
    if let Some((lo, hi)) = tf.dx_structs {
        for k in lo as usize..=(hi as usize).min(from.saturating_sub(1)) {
            if let Some(Type::Struct { name: Some(name), elems, .. }) = list.get(k) {
                if let Some(rest) = name.strip_prefix("dx.types.") {
                    dx_struct(m, k, name, rest, elems)?;
                }
            }
        }
    }
    if from == list.len() {
        return Ok(scan);
    }
    walk_types(m, scan, from)
}

/// [`verify_dx_types`]' rules for the types from `from` on, adding to `scan`.
#[inline(never)]
fn walk_types(m: &Module, mut scan: TypeScan, from: usize) -> Result<TypeScan> {
    let list = &m.types.list;
    // One match a type: the element rule, the `void`s, the [`TypeScan::known`] types, the
    // named structs.
    for (k, t) in list.iter().enumerate().skip(from) {
        let (name, elems) = match t {
            Type::Int(_) | Type::Half | Type::Float | Type::Double => {
                if let Some(slot) = t.known_slot() {
                    scan.known[slot] = k as u32;
                }
                continue;
            }
            Type::Void => {
                if scan.first.is_some() {
                    scan.unique = false;
                } else {
                    scan.first = Some(TypeId(k as u32));
                }
                continue;
            }
            Type::Struct { name, elems, .. } => {
                if let Some(e) = elems.iter().copied().find(|e| !list.get(e.0 as usize).is_some_and(Type::holds_data)) {
                    return Err(element_error(m, k, e));
                }
                match name {
                    Some(name) => (name, elems),
                    None => continue,
                }
            }
            Type::Array { elem, .. } if !list.get(elem.0 as usize).is_some_and(Type::holds_data) => {
                return Err(element_error(m, k, *elem))
            }
            Type::Pointer { pointee, .. } if !list.get(pointee.0 as usize).is_some_and(Type::is_pointee) => {
                return Err(element_error(m, k, *pointee))
            }
            Type::Vector { elem, .. } if !list.get(elem.0 as usize).is_some_and(Type::is_vector_element) => {
                return Err(element_error(m, k, *elem))
            }
            _ => continue,
        };
        let Some(rest) = name.strip_prefix("dx.types.") else { continue };
        if rest == "Handle" {
            scan.known[KNOWN_HANDLE] = k as u32;
            continue;
        }
        dx_struct(m, k, name, rest, elems)?;
    }
    Ok(scan)
}

/// The layout rule of struct `k`, named `dx.types.<rest>`, with fields `elems`.
fn dx_struct(m: &Module, k: usize, name: &str, rest: &str, elems: &[TypeId]) -> Result<()> {
    let list = &m.types.list;
    let Some((want, n, tail)) = dx_layout(rest) else { return Ok(()) };
    let scalar = |e: &TypeId| list.get(e.0 as usize).is_some_and(|t| want.is(t));
    let ok = elems.len() == n + usize::from(tail)
        && elems[..n].iter().all(scalar)
        && (!tail || elems.last().is_some_and(|e| matches!(list.get(e.0 as usize), Some(Type::Int(32)))));
    if ok {
        return Ok(());
    }
    Err(dx_struct_error(m, k, name, elems, (want, n, tail)))
}

#[cold]
fn dx_struct_error(
    m: &Module,
    k: usize,
    name: &str,
    elems: &[TypeId],
    (want, n, tail): (Scalar, usize, bool),
) -> VerifyError {
    err(
        "type.dx-struct",
        format!("type #{k} `%{name}`"),
        format!(
            "has fields {{ {} }}, not {n} × {}{}",
            elems.iter().map(|e| m.types.display(*e)).collect::<Vec<_>>().join(", "),
            want.name(),
            if tail { " and an i32" } else { "" }
        ),
    )
}

/// What [`verify_dx_types`]' walk over a module's types found: its `void` types and a type id
/// of each fixed kind a `dx.op` declaration names.
#[derive(Clone, Copy)]
pub(crate) struct TypeScan {
    /// The first.
    pub(crate) first: Option<TypeId>,
    /// There is no second.
    pub(crate) unique: bool,
    /// A type id of each of `i1`, `i8`, `i16`, `i32`, `i64` (from [`KNOWN_I1`]), `half`,
    /// `float`, `double` (from [`KNOWN_F16`]) and `%dx.types.Handle` ([`KNOWN_HANDLE`]):
    /// `u32::MAX` where the module has none. A type with that id is of that kind; another
    /// type may be too (a type table with duplicates), so the table answers only "yes".
    pub(crate) known: [u32; KNOWN],
}

pub(crate) use crate::ir::types::{KNOWN, KNOWN_F16, KNOWN_HANDLE, KNOWN_I1};

/// The scalar field type of a DXIL named struct ([`dx_layout`]).
#[derive(Clone, Copy)]
enum Scalar {
    Half,
    Float,
    Double,
    I16,
    I32,
    I64,
}

impl Scalar {
    /// From a type suffix (`f32`, `i16`, ...).
    #[inline(always)]
    fn of_bytes(s: &[u8]) -> Option<Scalar> {
        Some(match s {
            b"f16" => Scalar::Half,
            b"f32" => Scalar::Float,
            b"f64" => Scalar::Double,
            b"i16" => Scalar::I16,
            b"i32" => Scalar::I32,
            b"i64" => Scalar::I64,
            _ => return None,
        })
    }

    fn is(self, t: &Type) -> bool {
        matches!(
            (self, t),
            (Scalar::Half, Type::Half)
                | (Scalar::Float, Type::Float)
                | (Scalar::Double, Type::Double)
                | (Scalar::I16, Type::Int(16))
                | (Scalar::I32, Type::Int(32))
                | (Scalar::I64, Type::Int(64))
        )
    }

    fn name(self) -> &'static str {
        match self {
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
        }
    }
}

/// `s` up to its first `.`, and what follows the dot (`None`: no dot).
#[inline(always)]
fn dot_part(s: &[u8]) -> (&[u8], Option<&[u8]>) {
    match s.iter().position(|&b| b == b'.') {
        Some(i) => (&s[..i], s.get(i + 1..)),
        None => (s, None),
    }
}

/// The layout of `dx.types.<rest>`: `n` fields of one scalar type, then
/// (`true`) an i32 last field (ResRet's status). `None` for names not checked.
/// (Byte patterns: the names are told apart by their bytes in place, with no
/// string comparison to call.)
fn dx_layout(rest: &str) -> Option<(Scalar, usize, bool)> {
    // LLVM renames a second type of one name `name.0`, `name.1`, ...: the layout is the first part's.
    let (kind, tail) = dot_part(rest.as_bytes());
    Some(match kind {
        b"ResRet" => (Scalar::of_bytes(dot_part(tail?).0)?, 4, true),
        b"CBufRet" => {
            let (sfx, more) = dot_part(tail?);
            let t = Scalar::of_bytes(sfx)?;
            let n = match (sfx, more.map(|r| dot_part(r).0)) {
                (b"f16" | b"i16", Some(b"8")) => 8,
                (b"f64" | b"i64", _) => 2,
                _ => 4,
            };
            (t, n, false)
        }
        b"Dimensions" | b"fouri32" => (Scalar::I32, 4, false),
        b"fouri16" => (Scalar::I16, 4, false),
        b"splitdouble" => (Scalar::I32, 2, false),
        b"SamplePos" => (Scalar::Float, 2, false),
        _ => return None,
    })
}

/// Type `k` holds element type `e`, which breaks the element rule ([`Type::holds_data`], ...).
#[cold]
fn element_error(m: &Module, k: usize, e: TypeId) -> VerifyError {
    err(
        "type.element",
        format!("type #{k} {}", m.types.display(TypeId(k as u32))),
        format!("holds a {}", m.types.display(e)),
    )
}
