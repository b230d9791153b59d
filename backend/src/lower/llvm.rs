//! LLVM instructions: integer and float arithmetic (16, 32 and 64 bits),
//! comparisons, casts, select, aggregates of `dx.types` structs, memory
//! (thread-local arrays in Function storage, groupshared in Workgroup
//! storage) and atomics on groupshared memory.

use rspirv::spirv::{Op, Scope, StorageClass, Word};

use super::{malformed, unsupported, LResult, Lowerer, Scalar, Val};
use crate::ir::{BinOp, CastOp, CmpPred, InstId, InstKind, RmwOp, Type, Value};

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId) -> LResult<()> {
    let f = l.f;
    let inst = f.inst(i);
    match &inst.kind {
        InstKind::Binary { op, lhs, rhs, .. } => binary(l, i, *op, *lhs, *rhs),
        InstKind::Cast { op, value } => cast(l, i, *op, *value),
        InstKind::Cmp { pred, lhs, rhs, .. } => cmp(l, i, *pred, *lhs, *rhs),
        InstKind::Select { cond, if_true, if_false } => {
            let c = l.value(*cond)?;
            let a = l.value(*if_true)?;
            let b = l.value(*if_false)?;
            let t = l.result_ty(i)?;
            let r = l.op(Op::Select, t, &[c, a, b])?;
            l.set_id(i, r);
            Ok(())
        }
        InstKind::ExtractValue { agg, indices } => {
            let idx = f.indices(*indices);
            let [k] = idx else { return unsupported("extractvalue with nested indices") };
            let parts = match agg {
                Value::Inst(a) => match l.vals.get(a.index()).copied() {
                    Some(Val::Parts(start, len)) => Some((*a, start, len)),
                    _ => None,
                },
                _ => None,
            };
            match parts {
                Some((a, start, len)) => {
                    if *k >= len as u32 {
                        return malformed("extractvalue index out of range");
                    }
                    let p = l.parts[(start + k) as usize];
                    if p == 0 {
                        return Err(super::Fail::Internal(format!("part {k} of %{} was not computed", a.0)));
                    }
                    l.set_id(i, p);
                    Ok(())
                }
                None => {
                    let v = l.value(*agg)?;
                    let t = l.result_ty(i)?;
                    let r = l.op(Op::CompositeExtract, t, &[v, *k])?;
                    l.set_id(i, r);
                    Ok(())
                }
            }
        }
        InstKind::ExtractElement { vector, index } => {
            let v = l.value(*vector)?;
            let t = l.result_ty(i)?;
            let r = match l.m.const_uint(*index) {
                // A constant index past the end gives poison in LLVM (OpCompositeExtract must not).
                Some(k) if k >= vector_len(l, *vector) => l.undef(t),
                Some(k) => l.op(Op::CompositeExtract, t, &[v, k as u32])?,
                None => {
                    let x = l.value(*index)?;
                    l.op(Op::VectorExtractDynamic, t, &[v, x])?
                }
            };
            l.set_id(i, r);
            Ok(())
        }
        InstKind::InsertElement { vector, value, index } => {
            let v = l.value(*vector)?;
            let x = l.value(*value)?;
            let t = l.result_ty(i)?;
            let r = match l.m.const_uint(*index) {
                Some(k) if k >= vector_len(l, *vector) => l.undef(t),
                Some(k) => l.op(Op::CompositeInsert, t, &[x, v, k as u32])?,
                None => {
                    let k = l.value(*index)?;
                    l.op(Op::VectorInsertDynamic, t, &[v, x, k])?
                }
            };
            l.set_id(i, r);
            Ok(())
        }
        InstKind::Alloca { .. } => Ok(()), // declared up front
        InstKind::Gep { base, indices, .. } => {
            let (p, sc) = l.gep(*base, f.values(*indices), inst.ty)?;
            l.set(i, Val::Ptr(p, sc));
            Ok(())
        }
        InstKind::Load { ptr, .. } => {
            let (p, _) = l.pointer_value(*ptr)?;
            let t = l.result_ty(i)?;
            let r = l.load(t, p)?;
            l.set_id(i, r);
            Ok(())
        }
        InstKind::Store { ptr, value, .. } => {
            let (p, _) = l.pointer_value(*ptr)?;
            let v = l.value(*value)?;
            l.store(p, v)
        }
        InstKind::AtomicRmw { op, ptr, value, .. } => {
            let (p, sc) = l.pointer_value(*ptr)?;
            let scope = scope_of(sc)?;
            let v = l.value(*value)?;
            let t = l.result_ty(i)?;
            atomic_width(l, inst.ty)?;
            let sop = match op {
                RmwOp::Xchg => Op::AtomicExchange,
                RmwOp::Add => Op::AtomicIAdd,
                RmwOp::Sub => Op::AtomicISub,
                RmwOp::And => Op::AtomicAnd,
                RmwOp::Or => Op::AtomicOr,
                RmwOp::Xor => Op::AtomicXor,
                RmwOp::Max => Op::AtomicSMax,
                RmwOp::Min => Op::AtomicSMin,
                RmwOp::UMax => Op::AtomicUMax,
                RmwOp::UMin => Op::AtomicUMin,
                RmwOp::Nand => return unsupported("LLVM instruction atomicrmw nand"),
            };
            let sc_id = l.const_u32(scope as u32);
            let sem = l.const_u32(0);
            let r = l.op(sop, t, &[p, sc_id, sem, v])?;
            l.set_id(i, r);
            Ok(())
        }
        InstKind::CmpXchg { ptr, cmp, new, .. } => {
            let (p, sc) = l.pointer_value(*ptr)?;
            let scope = scope_of(sc)?;
            let vt = l.m.value_type(f, *cmp);
            atomic_width(l, vt)?;
            let t = l.ty(vt)?;
            let c = l.value(*cmp)?;
            let n = l.value(*new)?;
            let sc_id = l.const_u32(scope as u32);
            let sem = l.const_u32(0);
            let r = l.op(Op::AtomicCompareExchange, t, &[p, sc_id, sem, sem, n, c])?;
            let bt = l.bool();
            let ok = l.op(Op::IEqual, bt, &[r, c])?;
            l.set_parts(i, &[r, ok]);
            Ok(())
        }
        InstKind::Fence { .. } => unsupported("LLVM instruction fence"),
        InstKind::Phi { .. } => Err(super::Fail::Internal("phi reached instruction lowering".into())),
        InstKind::Call { callee, .. } => {
            let name = callee_name(l, *callee);
            if crate::ir::is_lifetime_marker(name) {
                // Lifetime markers carry no semantics for the SPIR-V (allocas are Function variables).
                return Ok(());
            }
            unsupported(format!("LLVM instruction call @{name}"))
        }
        k => unsupported(format!("LLVM instruction {}", k.opcode_name())),
    }
}

fn callee_name<'a>(l: &Lowerer<'a>, callee: Value) -> &'a str {
    match callee {
        Value::Function(fid) => l.m.functions.get(fid.index()).map(|f| f.name.as_str()).unwrap_or("?"),
        _ => "<indirect>",
    }
}

/// Whether every use of instruction `i` is an operand of an `llvm.lifetime.*` call.
fn only_lifetime_uses(l: &Lowerer<'_>, i: InstId) -> bool {
    let f = l.f;
    let mut ok = true;
    for (k, inst) in f.insts.iter().enumerate() {
        let k = InstId(k as u32);
        let mut uses = false;
        f.for_each_operand(k, |v| uses |= v == Value::Inst(i));
        if !uses {
            continue;
        }
        ok &= matches!(&inst.kind, InstKind::Call { callee, .. } if crate::ir::is_lifetime_marker(callee_name(l, *callee)));
    }
    ok
}

fn scope_of(sc: StorageClass) -> LResult<Scope> {
    match sc {
        StorageClass::Workgroup => Ok(Scope::Workgroup),
        StorageClass::Function | StorageClass::Private => Ok(Scope::Invocation),
        _ => unsupported("atomic on this storage class"),
    }
}

fn atomic_width(l: &mut Lowerer<'_>, t: crate::ir::TypeId) -> LResult<()> {
    match l.m.types.get(t) {
        Type::Int(32) => Ok(()),
        Type::Int(64) => {
            l.cap(rspirv::spirv::Capability::Int64Atomics);
            Ok(())
        }
        _ => unsupported(format!("atomic on {}", l.m.types.display(t))),
    }
}

fn binary(l: &mut Lowerer<'_>, i: InstId, op: BinOp, lhs: Value, rhs: Value) -> LResult<()> {
    let ty = l.f.inst(i).ty;
    let is_bool = matches!(l.m.types.get(ty), Type::Int(1));
    let a = l.value(lhs)?;
    let b = l.value(rhs)?;
    let t = l.ty(ty)?;
    let sop = if is_bool {
        match op {
            BinOp::And => Op::LogicalAnd,
            BinOp::Or => Op::LogicalOr,
            BinOp::Xor => Op::LogicalNotEqual,
            BinOp::Add => Op::LogicalNotEqual,
            BinOp::Sub => Op::LogicalNotEqual,
            BinOp::Mul => Op::LogicalAnd,
            _ => return unsupported(format!("LLVM instruction {} on i1", op.name())),
        }
    } else {
        match op {
            BinOp::Add => Op::IAdd,
            BinOp::FAdd => Op::FAdd,
            BinOp::Sub => Op::ISub,
            BinOp::FSub => Op::FSub,
            BinOp::Mul => Op::IMul,
            BinOp::FMul => Op::FMul,
            BinOp::UDiv => Op::UDiv,
            BinOp::SDiv => Op::SDiv,
            BinOp::FDiv => Op::FDiv,
            BinOp::URem => Op::UMod,
            BinOp::SRem => Op::SRem,
            BinOp::FRem => Op::FRem,
            BinOp::Shl => Op::ShiftLeftLogical,
            BinOp::LShr => Op::ShiftRightLogical,
            BinOp::AShr => Op::ShiftRightArithmetic,
            BinOp::And => Op::BitwiseAnd,
            BinOp::Or => Op::BitwiseOr,
            BinOp::Xor => Op::BitwiseXor,
        }
    };
    let r = if op == BinOp::SRem && !is_bool { signed_rem(l, ty, t, (a, rhs), b)? } else { l.op(sop, t, &[a, b])? };
    l.set_id(i, r);
    Ok(())
}

/// `srem` (D3D's `%` on signed integers: the remainder takes the dividend's sign). Vulkan leaves
/// `OpSRem` and `OpSMod` undefined when either operand is negative (the Vulkan environment's
/// precision rules for SPIR-V), and devices differ: NVIDIA's driver gives `-7 % 2` as 1. So the
/// remainder of the magnitudes (`OpUMod`, a magnitude of `INT_MIN` wrapping to 2^(n-1), which
/// is right unsigned), negated when the dividend is negative. A divisor that is a positive
/// constant is its own magnitude.
fn signed_rem(l: &mut Lowerer<'_>, ty: crate::ir::TypeId, t: Word, (a, rhs): (Word, Value), b: Word) -> LResult<Word> {
    let bool_ty = match l.m.types.get(ty) {
        Type::Vector { len, .. } => {
            let n = *len;
            let s = l.bool();
            l.vector(s, n)
        }
        _ => l.bool(),
    };
    let zero = l.null(t);
    let magnitude = |l: &mut Lowerer<'_>, v: Word| -> LResult<(Word, Word)> {
        let neg = l.op(Op::SLessThan, bool_ty, &[v, zero])?;
        let minus = l.op(Op::SNegate, t, &[v])?;
        Ok((neg, l.op(Op::Select, t, &[neg, minus, v])?))
    };
    let (a_neg, a_mag) = magnitude(l, a)?;
    let b_mag = match l.m.const_int(rhs) {
        Some(k) if k > 0 => b,
        _ => magnitude(l, b)?.1,
    };
    let r = l.op(Op::UMod, t, &[a_mag, b_mag])?;
    let minus_r = l.op(Op::SNegate, t, &[r])?;
    l.op(Op::Select, t, &[a_neg, minus_r, r])
}

fn cmp(l: &mut Lowerer<'_>, i: InstId, pred: CmpPred, lhs: Value, rhs: Value) -> LResult<()> {
    let bt = l.bool();
    let opnd_ty = l.m.value_type(l.f, lhs);
    let is_bool = matches!(l.m.types.get(opnd_ty), Type::Int(1));
    use CmpPred::*;
    let r = match pred {
        FFalse => l.const_bool(false),
        FTrue => l.const_bool(true),
        FOrd | FUno => {
            let a = l.value(lhs)?;
            let b = l.value(rhs)?;
            let na = l.op(Op::IsNan, bt, &[a])?;
            let nb = l.op(Op::IsNan, bt, &[b])?;
            let any = l.op(Op::LogicalOr, bt, &[na, nb])?;
            if pred == FUno {
                any
            } else {
                l.op(Op::LogicalNot, bt, &[any])?
            }
        }
        _ => {
            let a = l.value(lhs)?;
            let b = l.value(rhs)?;
            let sop = if is_bool {
                match pred {
                    IEq => Op::LogicalEqual,
                    INe => Op::LogicalNotEqual,
                    _ => return unsupported(format!("LLVM instruction icmp {} on i1", pred.name())),
                }
            } else {
                match pred {
                    FOeq => Op::FOrdEqual,
                    FOgt => Op::FOrdGreaterThan,
                    FOge => Op::FOrdGreaterThanEqual,
                    FOlt => Op::FOrdLessThan,
                    FOle => Op::FOrdLessThanEqual,
                    FOne => Op::FOrdNotEqual,
                    FUeq => Op::FUnordEqual,
                    FUgt => Op::FUnordGreaterThan,
                    FUge => Op::FUnordGreaterThanEqual,
                    FUlt => Op::FUnordLessThan,
                    FUle => Op::FUnordLessThanEqual,
                    FUne => Op::FUnordNotEqual,
                    IEq => Op::IEqual,
                    INe => Op::INotEqual,
                    IUgt => Op::UGreaterThan,
                    IUge => Op::UGreaterThanEqual,
                    IUlt => Op::ULessThan,
                    IUle => Op::ULessThanEqual,
                    ISgt => Op::SGreaterThan,
                    ISge => Op::SGreaterThanEqual,
                    ISlt => Op::SLessThan,
                    ISle => Op::SLessThanEqual,
                    FFalse | FTrue | FOrd | FUno => unreachable_pred()?,
                }
            };
            l.op(sop, bt, &[a, b])?
        }
    };
    l.set_id(i, r);
    Ok(())
}

fn unreachable_pred() -> LResult<Op> {
    Err(super::Fail::Internal("predicate handled above".into()))
}

/// Integer bit width of an IR type, if it is an integer.
fn int_bits(l: &Lowerer<'_>, t: crate::ir::TypeId) -> Option<u32> {
    match l.m.types.get(t) {
        Type::Int(w) => Some(*w),
        _ => None,
    }
}

/// Whether an IR type is (a vector of) `half` or `i16`, and its component count.
fn sixteen(l: &Lowerer<'_>, t: crate::ir::TypeId) -> Option<u32> {
    let is16 = |t: &Type| matches!(t, Type::Half | Type::Int(16));
    match l.m.types.get(t) {
        x if is16(x) => Some(1),
        Type::Vector { elem, len } if is16(l.m.types.get(*elem)) => Some(*len),
        _ => None,
    }
}

/// Casts to and from min-precision types computed at 32 bits (`Lowerer::widen16`), where the
/// 16-bit type is the 32-bit one: narrowing keeps the 32-bit value (min precision allows the
/// wider value), extensions and integer-to-float conversions read the low 16 bits zero- or
/// sign-extended, as they would a 16-bit register; `half` <-> `i16` bitcasts go through the half
/// bits (`packHalf2x16` / `unpackHalf2x16`). `None`: the cast is lowered as usual.
fn widened_cast(
    l: &mut Lowerer<'_>,
    op: CastOp,
    src_ty: crate::ir::TypeId,
    dst_ty: crate::ir::TypeId,
    x: Word,
    t: Word,
) -> LResult<Option<Word>> {
    let (s16, d16) = (sixteen(l, src_ty), sixteen(l, dst_ty));
    if s16.is_none() && d16.is_none() {
        return Ok(None);
    }
    let st = l.ty(src_ty)?;
    let low16 = |l: &mut Lowerer<'_>, n: u32, signed: bool| -> LResult<Word> {
        if signed {
            let (zero, sixteen) = (l.const_u32(0), l.const_u32(16));
            l.op(Op::BitFieldSExtract, st, &[x, zero, sixteen])
        } else {
            let m = l.const_u32(0xffff);
            let m = if n > 1 { l.op(Op::CompositeConstruct, st, &vec![m; n as usize])? } else { m };
            l.op(Op::BitwiseAnd, st, &[x, m])
        }
    };
    Ok(Some(match (op, s16) {
        (CastOp::FPTrunc | CastOp::FPExt | CastOp::Trunc, _) if st == t => x,
        (CastOp::ZExt | CastOp::SExt | CastOp::UIToFP | CastOp::SIToFP, Some(n)) => {
            let signed = matches!(op, CastOp::SExt | CastOp::SIToFP);
            let v = low16(l, n, signed)?;
            match op {
                _ if st == t => v,
                CastOp::ZExt => l.op(Op::UConvert, t, &[v])?,
                CastOp::SExt => l.op(Op::SConvert, t, &[v])?,
                CastOp::UIToFP => l.op(Op::ConvertUToF, t, &[v])?,
                _ => l.op(Op::ConvertSToF, t, &[v])?,
            }
        }
        (CastOp::BitCast, Some(1)) if d16 == Some(1) && src_ty != dst_ty => match l.m.types.get(src_ty) {
            Type::Half => super::math::pack_half(l, x)?,
            _ => super::math::unpack_half(l, x)?,
        },
        (CastOp::BitCast, _) if src_ty != dst_ty => {
            return unsupported("bitcast between min-precision vectors computed at 32 bits")
        }
        _ => return Ok(None),
    }))
}

fn cast(l: &mut Lowerer<'_>, i: InstId, op: CastOp, value: Value) -> LResult<()> {
    let dst_ty = l.f.inst(i).ty;
    let src_ty = l.m.value_type(l.f, value);
    let src_bool = int_bits(l, src_ty) == Some(1);
    let dst_bool = int_bits(l, dst_ty) == Some(1);
    if matches!(op, CastOp::PtrToInt | CastOp::IntToPtr | CastOp::AddrSpaceCast)
        || matches!(l.m.types.get(dst_ty), Type::Pointer { .. })
    {
        if op == CastOp::AddrSpaceCast || op == CastOp::BitCast {
            // Same-type pointer casts are no-ops; anything else is reinterpretation of memory.
            if let Type::Pointer { pointee: dp, .. } = l.m.types.get(dst_ty) {
                if let Type::Pointer { pointee: sp, .. } = l.m.types.get(src_ty) {
                    if dp == sp {
                        let (p, sc) = l.pointer_value(value)?;
                        l.set(i, Val::Ptr(p, sc));
                        return Ok(());
                    }
                }
            }
        }
        if op == CastOp::BitCast && only_lifetime_uses(l, i) {
            // `bitcast T* to i8*` feeding llvm.lifetime.start/end only: nothing to lower.
            return Ok(());
        }
        return unsupported(format!("LLVM instruction {} on pointers (memory reinterpretation)", op.name()));
    }
    let x = l.value(value)?;
    let t = l.ty(dst_ty)?;
    if l.widen16 {
        if let Some(r) = widened_cast(l, op, src_ty, dst_ty, x, t)? {
            l.set_id(i, r);
            return Ok(());
        }
    }
    let r = match op {
        CastOp::Trunc if dst_bool => {
            let st = l.ty(src_ty)?;
            let s = l.scalar_of(src_ty).ok_or_else(|| super::Fail::Unsupported("trunc of a vector".into()))?;
            let one = l.const_scalar(s, 1);
            let zero = l.const_scalar(s, 0);
            let m = l.op(Op::BitwiseAnd, st, &[x, one])?;
            l.op(Op::INotEqual, t, &[m, zero])?
        }
        CastOp::ZExt | CastOp::SExt | CastOp::UIToFP | CastOp::SIToFP if src_bool => {
            let Some(s) = l.scalar_of(dst_ty) else { return unsupported("extension of i1 vectors") };
            let (one, zero) = match (op, s) {
                (CastOp::SExt, _) => (l.const_scalar(s, u64::MAX), l.const_scalar(s, 0)),
                (_, Scalar::F16) => (l.const_scalar(s, 0x3c00), l.const_scalar(s, 0)),
                (_, Scalar::F32) => (l.const_scalar(s, 1f32.to_bits() as u64), l.const_scalar(s, 0)),
                (_, Scalar::F64) => (l.const_scalar(s, 1f64.to_bits()), l.const_scalar(s, 0)),
                (CastOp::SIToFP, _) => return unsupported("sitofp i1 to a non-float"),
                _ => (l.const_scalar(s, 1), l.const_scalar(s, 0)),
            };
            let (one, zero) = if op == CastOp::SIToFP && matches!(s, Scalar::F16 | Scalar::F32 | Scalar::F64) {
                // sitofp i1 true = -1.0
                let bits = match s {
                    Scalar::F16 => 0xbc00,
                    Scalar::F32 => (-1f32).to_bits() as u64,
                    _ => (-1f64).to_bits(),
                };
                (l.const_scalar(s, bits), zero)
            } else {
                (one, zero)
            };
            l.op(Op::Select, t, &[x, one, zero])?
        }
        CastOp::FPToUI | CastOp::FPToSI if dst_bool => {
            let st = l.ty(src_ty)?;
            let zero = l.null(st);
            l.op(Op::FUnordNotEqual, t, &[x, zero])?
        }
        CastOp::Trunc | CastOp::ZExt => l.op(Op::UConvert, t, &[x])?,
        CastOp::SExt => l.op(Op::SConvert, t, &[x])?,
        CastOp::FPToUI => l.op(Op::ConvertFToU, t, &[x])?,
        CastOp::FPToSI => l.op(Op::ConvertFToS, t, &[x])?,
        CastOp::UIToFP => l.op(Op::ConvertUToF, t, &[x])?,
        CastOp::SIToFP => l.op(Op::ConvertSToF, t, &[x])?,
        CastOp::FPTrunc if l.scalar_of(src_ty) == Some(Scalar::F32) && l.scalar_of(dst_ty) == Some(Scalar::F16) => {
            // Round to half precision in a form the driver cannot fold with a later f16 -> f32
            // (see `math::half_round`); the conversion of the rounded value is exact.
            let r = super::math::half_round(l, x)?;
            l.op(Op::FConvert, t, &[r])?
        }
        CastOp::FPTrunc | CastOp::FPExt => l.op(Op::FConvert, t, &[x])?,
        CastOp::BitCast => {
            if src_ty == dst_ty {
                x
            } else {
                l.op(Op::Bitcast, t, &[x])?
            }
        }
        CastOp::PtrToInt | CastOp::IntToPtr | CastOp::AddrSpaceCast => {
            return unsupported(format!("LLVM instruction {}", op.name()))
        }
    };
    l.set_id(i, r);
    Ok(())
}

/// The component count of a vector value (0 for anything else).
fn vector_len(l: &Lowerer<'_>, v: Value) -> u64 {
    match l.m.types.get(l.m.value_type(l.f, v)) {
        Type::Vector { len, .. } => u64::from(*len),
        _ => 0,
    }
}
