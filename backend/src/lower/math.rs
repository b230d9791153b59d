//! Math ops with DXIL semantics: unary/binary/tertiary float and integer
//! ops, bit-field ops, dot products, double packing, legacy f16
//! conversions and packed 8-bit ops. GLSL.std.450 is used where its
//! definition matches DXIL exactly (e.g. FMax/FMin → NMax/NMin, which
//! return the non-NaN operand, as DXIL requires).

use rspirv::spirv::{GlslStd450Op as G, Op, Word};

use super::{malformed, unsupported, Fail, LResult, Lowerer, Scalar};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    use DxilOp::*;
    let n = op.info().params.len();
    if args.len() < n {
        return malformed(format!("{} with {} arguments", op.name(), args.len()));
    }
    let rt = l.f.inst(i).ty;
    let r = match op {
        // ---- float unary ------------------------------------------------
        FAbs | Cos | Sin | Tan | Acos | Asin | Atan | Hcos | Hsin | Htan | Exp | Frc | Log | Sqrt | Rsqrt
        | Round_ne | Round_ni | Round_pi | Round_z => {
            let g = match op {
                FAbs => G::FAbs,
                Cos => G::Cos,
                Sin => G::Sin,
                Tan => G::Tan,
                Acos => G::Acos,
                Asin => G::Asin,
                Atan => G::Atan,
                Hcos => G::Cosh,
                Hsin => G::Sinh,
                Htan => G::Tanh,
                Exp => G::Exp2,
                Frc => G::Fract,
                Log => G::Log2,
                Sqrt => G::Sqrt,
                Rsqrt => G::InverseSqrt,
                Round_ne => G::RoundEven,
                Round_ni => G::Floor,
                Round_pi => G::Ceil,
                _ => G::Trunc,
            };
            let t = l.ty(rt)?;
            let x = l.value(args[0])?;
            if matches!(l.scalar_of(rt), Some(Scalar::F64))
                && !matches!(op, FAbs | Frc | Sqrt | Rsqrt | Round_ne | Round_ni | Round_pi | Round_z)
            {
                return unsupported(format!("DXIL op {} on double", op.name()));
            }
            l.glsl(g, t, &[x])?
        }
        Saturate => {
            let t = l.ty(rt)?;
            let x = l.value(args[0])?;
            let s = l.scalar_of(rt).ok_or_else(|| Fail::Malformed("Saturate type".into()))?;
            let (zero, one) = float_consts(l, s, 0.0, 1.0)?;
            let a = l.glsl(G::NMax, t, &[x, zero])?;
            l.glsl(G::NMin, t, &[a, one])?
        }
        IsNaN | IsInf => {
            let bt = l.bool();
            let x = l.value(args[0])?;
            l.op(if op == IsNaN { Op::IsNan } else { Op::IsInf }, bt, &[x])?
        }
        IsFinite => {
            let bt = l.bool();
            let x = l.value(args[0])?;
            let a = l.op(Op::IsNan, bt, &[x])?;
            let b = l.op(Op::IsInf, bt, &[x])?;
            let o = l.op(Op::LogicalOr, bt, &[a, b])?;
            l.op(Op::LogicalNot, bt, &[o])?
        }
        IsNormal => {
            // Normal: exponent field neither all zeros nor all ones.
            let vt = l.m.value_type(l.f, args[0]);
            let s = l.scalar_of(vt).ok_or_else(|| Fail::Malformed("IsNormal type".into()))?;
            let (it, mask, shift) = match s {
                Scalar::F16 => (Scalar::U16, 0x1fu64, 10u64),
                Scalar::F32 => (Scalar::U32, 0xff, 23),
                _ => return unsupported("DXIL op IsNormal on double"),
            };
            let itt = l.scalar(it);
            let bt = l.bool();
            let x = l.value(args[0])?;
            let bits = l.op(Op::Bitcast, itt, &[x])?;
            let sh = l.const_scalar(it, shift);
            let e = l.op(Op::ShiftRightLogical, itt, &[bits, sh])?;
            let m = l.const_scalar(it, mask);
            let e = l.op(Op::BitwiseAnd, itt, &[e, m])?;
            let zero = l.const_scalar(it, 0);
            let a = l.op(Op::INotEqual, bt, &[e, zero])?;
            let b = l.op(Op::INotEqual, bt, &[e, m])?;
            l.op(Op::LogicalAnd, bt, &[a, b])?
        }
        // ---- integer unary ----------------------------------------------
        Bfrev => {
            // Vulkan allows BitReverse/BitCount on 32-bit integers only.
            let x = l.value(args[0])?;
            let u = l.u32();
            match l.scalar_of(rt) {
                Some(Scalar::U32) => l.op(Op::BitReverse, u, &[x])?,
                Some(Scalar::U16) => {
                    let t = l.ty(rt)?;
                    let w = l.op(Op::UConvert, u, &[x])?;
                    let r = l.op(Op::BitReverse, u, &[w])?;
                    let c16 = l.const_u32(16);
                    let r = l.op(Op::ShiftRightLogical, u, &[r, c16])?;
                    l.op(Op::UConvert, t, &[r])?
                }
                Some(Scalar::U64) => {
                    let t = l.ty(rt)?;
                    let u2 = l.vector(u, 2);
                    let v = l.op(Op::Bitcast, u2, &[x])?;
                    let lo = extract(l, u, v, 0)?;
                    let hi = extract(l, u, v, 1)?;
                    let rlo = l.op(Op::BitReverse, u, &[lo])?;
                    let rhi = l.op(Op::BitReverse, u, &[hi])?;
                    let sw = l.op(Op::CompositeConstruct, u2, &[rhi, rlo])?;
                    l.op(Op::Bitcast, t, &[sw])?
                }
                _ => return unsupported("Bfrev of this width"),
            }
        }
        Countbits => {
            let x = l.value(args[0])?;
            let vt = l.m.value_type(l.f, args[0]);
            let vs = l.scalar_of(vt);
            let u = l.u32();
            match vs {
                Some(Scalar::U32) => l.op(Op::BitCount, u, &[x])?,
                Some(Scalar::U16) => {
                    let w = l.op(Op::UConvert, u, &[x])?;
                    l.op(Op::BitCount, u, &[w])?
                }
                Some(Scalar::U64) => {
                    let u2 = l.vector(u, 2);
                    let v = l.op(Op::Bitcast, u2, &[x])?;
                    let lo = extract(l, u, v, 0)?;
                    let hi = extract(l, u, v, 1)?;
                    let a = l.op(Op::BitCount, u, &[lo])?;
                    let b = l.op(Op::BitCount, u, &[hi])?;
                    l.op(Op::IAdd, u, &[a, b])?
                }
                _ => return unsupported("Countbits of this width"),
            }
        }
        FirstbitLo | FirstbitHi | FirstbitSHi => {
            let vt = l.m.value_type(l.f, args[0]);
            let u = l.u32();
            let x = l.value(args[0])?;
            match l.scalar_of(vt) {
                Some(Scalar::U32) => {}
                Some(Scalar::U16) => {
                    // Widen (sign-extend for the signed form) and count from bit 15 instead of 31.
                    let w = l.op(if op == FirstbitSHi { Op::SConvert } else { Op::UConvert }, u, &[x])?;
                    let r = match op {
                        FirstbitLo => l.glsl(G::FindILsb, u, &[w])?,
                        _ => {
                            let msb = l.glsl(if op == FirstbitHi { G::FindUMsb } else { G::FindSMsb }, u, &[w])?;
                            from_top(l, msb, 15)?
                        }
                    };
                    l.set_id(i, r);
                    return Ok(());
                }
                Some(Scalar::U64) => {
                    let r = firstbit64(l, op, x)?;
                    l.set_id(i, r);
                    return Ok(());
                }
                _ => return unsupported(format!("DXIL op {} on this type", op.name())),
            }
            match op {
                FirstbitLo => l.glsl(G::FindILsb, u, &[x])?,
                _ => {
                    // DXIL counts from the most significant bit: 31 - msb, or -1 when none.
                    let msb = l.glsl(if op == FirstbitHi { G::FindUMsb } else { G::FindSMsb }, u, &[x])?;
                    let bt = l.bool();
                    let none = l.const_u32(u32::MAX);
                    let is_none = l.op(Op::IEqual, bt, &[msb, none])?;
                    let c31 = l.const_u32(31);
                    let d = l.op(Op::ISub, u, &[c31, msb])?;
                    l.op(Op::Select, u, &[is_none, none, d])?
                }
            }
        }
        // ---- binary -----------------------------------------------------
        FMax | FMin | IMax | IMin | UMax | UMin => {
            let g = match op {
                FMax => G::NMax,
                FMin => G::NMin,
                IMax => G::SMax,
                IMin => G::SMin,
                UMax => G::UMax,
                _ => G::UMin,
            };
            let t = l.ty(rt)?;
            let a = l.value(args[0])?;
            let b = l.value(args[1])?;
            l.glsl(g, t, &[a, b])?
        }
        UDiv => {
            let u = l.u32();
            let a = l.value(args[0])?;
            let b = l.value(args[1])?;
            let q = l.op(Op::UDiv, u, &[a, b])?;
            let r = l.op(Op::UMod, u, &[a, b])?;
            // D3D: division by zero gives 0xFFFFFFFF for both.
            let bt = l.bool();
            let zero = l.const_u32(0);
            let ones = l.const_u32(u32::MAX);
            let z = l.op(Op::IEqual, bt, &[b, zero])?;
            let q = l.op(Op::Select, u, &[z, ones, q])?;
            let r = l.op(Op::Select, u, &[z, ones, r])?;
            l.set_parts(i, &[q, r]);
            return Ok(());
        }
        IMul | UMul => {
            // Full 64-bit product of two 32-bit operands; DXIL's two results follow DXBC's
            // `imul`/`umul` destinations: (high word, low word).
            let u = l.u32();
            let a = l.value(args[0])?;
            let b = l.value(args[1])?;
            let st = l.new_type(Op::TypeStruct, &[u, u]);
            let sop = if op == IMul { Op::SMulExtended } else { Op::UMulExtended };
            let r = l.op(sop, st, &[a, b])?;
            let lo = l.op(Op::CompositeExtract, u, &[r, 0])?;
            let hi = l.op(Op::CompositeExtract, u, &[r, 1])?;
            l.set_parts(i, &[hi, lo]);
            return Ok(());
        }
        UAddc | USubb => {
            let u = l.u32();
            let a = l.value(args[0])?;
            let b = l.value(args[1])?;
            let bt = l.bool();
            let (r, c) = if op == UAddc {
                let r = l.op(Op::IAdd, u, &[a, b])?;
                (r, l.op(Op::ULessThan, bt, &[r, a])?)
            } else {
                let r = l.op(Op::ISub, u, &[a, b])?;
                (r, l.op(Op::ULessThan, bt, &[a, b])?)
            };
            let one = l.const_u32(1);
            let zero = l.const_u32(0);
            let c = l.op(Op::Select, u, &[c, one, zero])?;
            l.set_parts(i, &[r, c]);
            return Ok(());
        }
        // ---- tertiary ---------------------------------------------------
        FMad | IMad | UMad => {
            let t = l.ty(rt)?;
            let a = l.value(args[0])?;
            let b = l.value(args[1])?;
            let c = l.value(args[2])?;
            let (mul, add) = if op == FMad { (Op::FMul, Op::FAdd) } else { (Op::IMul, Op::IAdd) };
            let p = l.op(mul, t, &[a, b])?;
            l.op(add, t, &[p, c])?
        }
        Fma => {
            let t = l.ty(rt)?;
            let a = l.value(args[0])?;
            let b = l.value(args[1])?;
            let c = l.value(args[2])?;
            l.glsl(G::Fma, t, &[a, b, c])?
        }
        Ibfe | Ubfe => bfe(l, rt, op == Ibfe, args)?,
        Msad => msad(l, args)?,
        Bfi => bfi(l, args)?,
        Dot2 | Dot3 | Dot4 => {
            let k = match op {
                Dot2 => 2,
                Dot3 => 3,
                _ => 4,
            };
            let t = l.ty(rt)?;
            let mut acc = None;
            for j in 0..k {
                let a = l.value(args[j])?;
                let b = l.value(args[k + j])?;
                let p = l.op(Op::FMul, t, &[a, b])?;
                acc = Some(match acc {
                    None => p,
                    Some(s) => l.op(Op::FAdd, t, &[s, p])?,
                });
            }
            acc.ok_or_else(|| Fail::Internal("empty dot".into()))?
        }
        MakeDouble => {
            let u = l.u32();
            let u2 = l.vector(u, 2);
            let lo = l.value(args[0])?;
            let hi = l.value(args[1])?;
            let v = l.op(Op::CompositeConstruct, u2, &[lo, hi])?;
            let d = l.scalar(Scalar::F64);
            l.op(Op::Bitcast, d, &[v])?
        }
        SplitDouble => {
            let u = l.u32();
            let u2 = l.vector(u, 2);
            let x = l.value(args[0])?;
            let v = l.op(Op::Bitcast, u2, &[x])?;
            let lo = extract(l, u, v, 0)?;
            let hi = extract(l, u, v, 1)?;
            l.set_parts(i, &[lo, hi]);
            return Ok(());
        }
        BitcastI16toF16 | BitcastF16toI16 | BitcastI32toF32 | BitcastF32toI32 | BitcastI64toF64 | BitcastF64toI64 => {
            let t = l.ty(rt)?;
            let x = l.value(args[0])?;
            l.op(Op::Bitcast, t, &[x])?
        }
        LegacyF32ToF16 => {
            let x = l.value(args[0])?;
            let r = half_round(l, x)?;
            pack_half(l, r)?
        }
        LegacyF16ToF32 => {
            let x = l.value(args[0])?;
            unpack_half(l, x)?
        }
        LegacyDoubleToFloat => {
            let t = l.ty(rt)?;
            let x = l.value(args[0])?;
            l.op(Op::FConvert, t, &[x])?
        }
        LegacyDoubleToSInt32 | LegacyDoubleToUInt32 => {
            let t = l.ty(rt)?;
            let x = l.value(args[0])?;
            l.op(if op == LegacyDoubleToSInt32 { Op::ConvertFToS } else { Op::ConvertFToU }, t, &[x])?
        }
        Dot2AddHalf => {
            let f = l.f32();
            let acc = l.value(args[0])?;
            let mut s = acc;
            for j in 0..2 {
                let a = l.value(args[1 + j])?;
                let b = l.value(args[3 + j])?;
                // Min-precision halves computed at 32 bits (`widen16`) are floats already.
                let (a, b) =
                    if l.widen16 { (a, b) } else { (l.op(Op::FConvert, f, &[a])?, l.op(Op::FConvert, f, &[b])?) };
                let p = l.op(Op::FMul, f, &[a, b])?;
                s = l.op(Op::FAdd, f, &[s, p])?;
            }
            s
        }
        Dot4AddI8Packed | Dot4AddU8Packed => {
            let u = l.u32();
            let acc = l.value(args[0])?;
            let a = l.value(args[1])?;
            let b = l.value(args[2])?;
            let signed = op == Dot4AddI8Packed;
            let mut s = acc;
            let eight = l.const_u32(8);
            for j in 0..4u32 {
                let off = l.const_u32(8 * j);
                let ext = if signed { Op::BitFieldSExtract } else { Op::BitFieldUExtract };
                let x = l.op(ext, u, &[a, off, eight])?;
                let y = l.op(ext, u, &[b, off, eight])?;
                let p = l.op(Op::IMul, u, &[x, y])?;
                s = l.op(Op::IAdd, u, &[s, p])?;
            }
            s
        }
        Pack4x8 => pack4x8(l, args)?,
        Unpack4x8 => {
            let Some(mode) = l.m.const_uint(args[0]) else { return malformed("Unpack4x8 mode is not a constant") };
            let s = l.field_scalar(i)?;
            let u = l.u32();
            let pk = l.value(args[1])?;
            let eight = l.const_u32(8);
            let mut parts = [0; 4];
            for (j, p) in parts.iter_mut().enumerate() {
                let off = l.const_u32(8 * j as u32);
                let x =
                    l.op(if mode == 1 { Op::BitFieldSExtract } else { Op::BitFieldUExtract }, u, &[pk, off, eight])?;
                *p = if s == Scalar::U16 {
                    let t = l.scalar(Scalar::U16);
                    l.op(Op::UConvert, t, &[x])?
                } else {
                    x
                };
            }
            l.set_parts(i, &parts);
            return Ok(());
        }
        _ => return unsupported(format!("DXIL op {}", op.name())),
    };
    l.set_id(i, r);
    Ok(())
}

/// The value of the IEEE half with bits `h`, exactly, as an f32 (denormals, infinities and NaNs
/// included; NaN payloads keep their top bits).
pub(super) fn f16_bits_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from(h >> 10) & 0x1f;
    let man = u32::from(h) & 0x3ff;
    let bits = match (exp, man) {
        (0, 0) => sign,
        // Denormal: man * 2^-24, exact in f32.
        (0, m) => return if sign != 0 { -(m as f32) } else { m as f32 } * (1.0 / 16_777_216.0),
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// `packHalf2x16(vec2(x, 0))`: the half bits of f32 `x` (round to nearest even) in the low 16 bits.
pub(super) fn pack_half(l: &mut Lowerer<'_>, x: Word) -> LResult<Word> {
    let u = l.u32();
    let f = l.f32();
    let f2 = l.vector(f, 2);
    let zero = l.const_f32(0.0);
    let v = l.op(Op::CompositeConstruct, f2, &[x, zero])?;
    l.glsl(G::PackHalf2x16, u, &[v])
}

/// `unpackHalf2x16(bits).x`: the f32 value of the half in the low 16 bits of `bits`.
pub(super) fn unpack_half(l: &mut Lowerer<'_>, bits: Word) -> LResult<Word> {
    let f = l.f32();
    let f2 = l.vector(f, 2);
    let v = l.glsl(G::UnpackHalf2x16, f2, &[bits])?;
    extract(l, f, v, 0)
}

/// f32 `x` rounded to half precision (round to nearest even; beyond the half range to infinity;
/// below 2^-14 to a multiple of 2^-24, the half denormals), as an f32: every half value is exact
/// in f32, so converting the result to half (`OpFConvert`, `packHalf2x16`) is exact.
///
/// D3D requires an f32 -> f16 conversion to round, and the f16 -> f32 of its result to give the
/// rounded value. NIR's optimizer (Mesa 25: lavapipe, RADV, ANV) folds both `OpFConvert` f32 ->
/// f16 -> f32 and `unpackHalf2x16(packHalf2x16(x))` back to `x`, dropping the rounding; the
/// rounding done here on the bits (normal range) and by `RoundEven` of the value scaled to the
/// denormal quantum (denormal range) cannot be folded away.
pub(super) fn half_round(l: &mut Lowerer<'_>, x: Word) -> LResult<Word> {
    let u = l.u32();
    let f = l.f32();
    let b = l.bool();
    let c = |l: &mut Lowerer<'_>, v: u32| l.const_u32(v);
    let bits = l.op(Op::Bitcast, u, &[x])?;
    let k_sign = c(l, 0x8000_0000);
    let k_abs = c(l, 0x7fff_ffff);
    let sign = l.op(Op::BitwiseAnd, u, &[bits, k_sign])?;
    let a = l.op(Op::BitwiseAnd, u, &[bits, k_abs])?;
    // Normal half range: round the 13 low mantissa bits off, ties to even (a carry into the
    // exponent is the correct result); above the largest half (65504) is infinity.
    let k13 = c(l, 13);
    let k1 = c(l, 1);
    let lsb = l.op(Op::ShiftRightLogical, u, &[a, k13])?;
    let lsb = l.op(Op::BitwiseAnd, u, &[lsb, k1])?;
    let k_half = c(l, 0xfff);
    let bias = l.op(Op::IAdd, u, &[k_half, lsb])?;
    let rounded = l.op(Op::IAdd, u, &[a, bias])?;
    let k_mask = c(l, 0xffff_e000);
    let rounded = l.op(Op::BitwiseAnd, u, &[rounded, k_mask])?;
    let k_max = c(l, 0x477f_e000);
    let k_inf = c(l, 0x7f80_0000);
    let over = l.op(Op::UGreaterThan, b, &[rounded, k_max])?;
    let normal = l.op(Op::Select, u, &[over, k_inf, rounded])?;
    // Denormal half range (|x| < 2^-14): a multiple of 2^-24, ties to even.
    let af = l.op(Op::Bitcast, f, &[a])?;
    let k_up = l.const_f32(16_777_216.0);
    let k_down = l.const_f32(1.0 / 16_777_216.0);
    let scaled = l.op(Op::FMul, f, &[af, k_up])?;
    let scaled = l.glsl(G::RoundEven, f, &[scaled])?;
    let small = l.op(Op::FMul, f, &[scaled, k_down])?;
    let small = l.op(Op::Bitcast, u, &[small])?;
    let k_min_normal = c(l, 0x3880_0000);
    let is_small = l.op(Op::ULessThan, b, &[a, k_min_normal])?;
    let r = l.op(Op::Select, u, &[is_small, small, normal])?;
    // Infinity and NaN stay as they are.
    let finite = l.op(Op::ULessThan, b, &[a, k_inf])?;
    let r = l.op(Op::Select, u, &[finite, r, a])?;
    let r = l.op(Op::BitwiseOr, u, &[r, sign])?;
    l.op(Op::Bitcast, f, &[r])
}

fn extract(l: &mut Lowerer<'_>, t: Word, v: Word, k: u32) -> LResult<Word> {
    l.op(Op::CompositeExtract, t, &[v, k])
}

fn float_consts(l: &mut Lowerer<'_>, s: Scalar, a: f64, b: f64) -> LResult<(Word, Word)> {
    let bits = |x: f64| -> LResult<u64> {
        Ok(match s {
            Scalar::F16 => {
                if x == 0.0 {
                    0
                } else if x == 1.0 {
                    0x3c00
                } else {
                    return Err(Fail::Internal("half constant".into()));
                }
            }
            Scalar::F32 => (x as f32).to_bits() as u64,
            Scalar::F64 => x.to_bits(),
            _ => return Err(Fail::Malformed("float op on a non-float".into())),
        })
    };
    let (x, y) = (bits(a)?, bits(b)?);
    Ok((l.const_scalar(s, x), l.const_scalar(s, y)))
}

/// `Ibfe/Ubfe(width, offset, value)` with D3D semantics: width and offset
/// taken mod 32; width 0 gives 0; a field running past bit 31 is `value >> offset`.
fn bfe(l: &mut Lowerer<'_>, rt: crate::ir::TypeId, signed: bool, args: &[Value]) -> LResult<Word> {
    if l.scalar_of(rt) != Some(Scalar::U32) {
        return unsupported("64-bit bit-field extract");
    }
    let u = l.u32();
    let bt = l.bool();
    let w = l.value(args[0])?;
    let o = l.value(args[1])?;
    let v = l.value(args[2])?;
    let c31 = l.const_u32(31);
    let c32 = l.const_u32(32);
    let zero = l.const_u32(0);
    let w = l.op(Op::BitwiseAnd, u, &[w, c31])?;
    let o = l.op(Op::BitwiseAnd, u, &[o, c31])?;
    let end = l.op(Op::IAdd, u, &[w, o])?;
    let fits = l.op(Op::ULessThan, bt, &[end, c32])?;
    // Clamp the count so BitField*Extract stays defined when it does not fit.
    let room = l.op(Op::ISub, u, &[c32, o])?;
    let cnt = l.op(Op::Select, u, &[fits, w, room])?;
    let ext = l.op(if signed { Op::BitFieldSExtract } else { Op::BitFieldUExtract }, u, &[v, o, cnt])?;
    let shifted = l.op(if signed { Op::ShiftRightArithmetic } else { Op::ShiftRightLogical }, u, &[v, o])?;
    let r = l.op(Op::Select, u, &[fits, ext, shifted])?;
    let wz = l.op(Op::IEqual, bt, &[w, zero])?;
    l.op(Op::Select, u, &[wz, zero, r])
}

/// `Bfi(width, offset, value, replaced)`: mask = ((1 << w) - 1) << o, w and o mod 32.
fn bfi(l: &mut Lowerer<'_>, args: &[Value]) -> LResult<Word> {
    let u = l.u32();
    let w = l.value(args[0])?;
    let o = l.value(args[1])?;
    let v = l.value(args[2])?;
    let r = l.value(args[3])?;
    let c31 = l.const_u32(31);
    let one = l.const_u32(1);
    let w = l.op(Op::BitwiseAnd, u, &[w, c31])?;
    let o = l.op(Op::BitwiseAnd, u, &[o, c31])?;
    let bit = l.op(Op::ShiftLeftLogical, u, &[one, w])?;
    let ones = l.op(Op::ISub, u, &[bit, one])?;
    let mask = l.op(Op::ShiftLeftLogical, u, &[ones, o])?;
    let vs = l.op(Op::ShiftLeftLogical, u, &[v, o])?;
    let a = l.op(Op::BitwiseAnd, u, &[vs, mask])?;
    let nm = l.op(Op::Not, u, &[mask])?;
    let b = l.op(Op::BitwiseAnd, u, &[r, nm])?;
    l.op(Op::BitwiseOr, u, &[a, b])
}

/// `Msad(ref, src, accum)`: masked sum of absolute differences (D3D11 `msad`, the per-alignment
/// step of HLSL `msad4`): `accum + Σ_{i: ref.byte[i] != 0} |ref.byte[i] - src.byte[i]|`, 32-bit
/// wrapping.
fn msad(l: &mut Lowerer<'_>, args: &[Value]) -> LResult<Word> {
    let u = l.u32();
    let bt = l.bool();
    let r = l.value(args[0])?;
    let s = l.value(args[1])?;
    let mut acc = l.value(args[2])?;
    let eight = l.const_u32(8);
    let zero = l.const_u32(0);
    for k in 0..4 {
        let off = l.const_u32(8 * k);
        let rb = l.op(Op::BitFieldUExtract, u, &[r, off, eight])?;
        let sb = l.op(Op::BitFieldUExtract, u, &[s, off, eight])?;
        let d = l.op(Op::ISub, u, &[rb, sb])?;
        let d = l.glsl(G::SAbs, u, &[d])?;
        let masked = l.op(Op::INotEqual, bt, &[rb, zero])?;
        let d = l.op(Op::Select, u, &[masked, d, zero])?;
        acc = l.op(Op::IAdd, u, &[acc, d])?;
    }
    Ok(acc)
}

/// `Pack4x8(mode, x, y, z, w)`: mode 0 truncates, 1 clamps to u8, 2 clamps to s8.
fn pack4x8(l: &mut Lowerer<'_>, args: &[Value]) -> LResult<Word> {
    let Some(mode) = l.m.const_uint(args[0]) else { return malformed("Pack4x8 mode is not a constant") };
    let u = l.u32();
    let vt = l.m.value_type(l.f, args[1]);
    let wide16 = l.scalar_of(vt) == Some(Scalar::U16);
    let mut acc = l.const_u32(0);
    let ff = l.const_u32(0xff);
    for j in 0..4 {
        let x = l.value(args[1 + j])?;
        // The clamping modes read signed inputs (pack_clamp_u8/pack_clamp_s8 take int16_t4/int32_t4):
        // sign-extend 16-bit lanes before the signed clamp.
        let x = if wide16 { l.op(if mode == 0 { Op::UConvert } else { Op::SConvert }, u, &[x])? } else { x };
        let x = match mode {
            1 => {
                let zero = l.const_u32(0);
                let c = l.const_u32(255);
                l.glsl(G::SClamp, u, &[x, zero, c])?
            }
            2 => {
                let lo = l.const_i32(-128);
                let hi = l.const_u32(127);
                l.glsl(G::SClamp, u, &[x, lo, hi])?
            }
            _ => x,
        };
        let b = l.op(Op::BitwiseAnd, u, &[x, ff])?;
        let sh = l.const_u32(8 * j as u32);
        let b = l.op(Op::ShiftLeftLogical, u, &[b, sh])?;
        acc = l.op(Op::BitwiseOr, u, &[acc, b])?;
    }
    Ok(acc)
}

/// `top - msb`, or -1 when `msb` is -1 (no bit found).
fn from_top(l: &mut Lowerer<'_>, msb: Word, top: u32) -> LResult<Word> {
    let u = l.u32();
    let bt = l.bool();
    let none = l.const_u32(u32::MAX);
    let is_none = l.op(Op::IEqual, bt, &[msb, none])?;
    let t = l.const_u32(top);
    let d = l.op(Op::ISub, u, &[t, msb])?;
    l.op(Op::Select, u, &[is_none, none, d])
}

/// FirstbitLo/Hi/SHi on a 64-bit value, from its two 32-bit halves.
fn firstbit64(l: &mut Lowerer<'_>, op: DxilOp, x: Word) -> LResult<Word> {
    let u = l.u32();
    let u64t = l.scalar(Scalar::U64);
    let bt = l.bool();
    let c32 = l.const_scalar(Scalar::U64, 32);
    let hi64 = l.op(Op::ShiftRightLogical, u64t, &[x, c32])?;
    let mut lo = l.op(Op::UConvert, u, &[x])?;
    let mut hi = l.op(Op::UConvert, u, &[hi64])?;
    let zero = l.const_u32(0);
    let none = l.const_u32(u32::MAX);
    if op == DxilOp::FirstbitLo {
        let lo_lsb = l.glsl(G::FindILsb, u, &[lo])?;
        let hi_lsb = l.glsl(G::FindILsb, u, &[hi])?;
        let k32 = l.const_u32(32);
        let hi_pos = l.op(Op::IAdd, u, &[hi_lsb, k32])?;
        let hi_zero = l.op(Op::IEqual, bt, &[hi, zero])?;
        let from_hi = l.op(Op::Select, u, &[hi_zero, none, hi_pos])?;
        let lo_zero = l.op(Op::IEqual, bt, &[lo, zero])?;
        return l.op(Op::Select, u, &[lo_zero, from_hi, lo_lsb]);
    }
    if op == DxilOp::FirstbitSHi {
        // Negative values: the first 0 bit from the top = the first 1 bit of the complement.
        let it = l.scalar(Scalar::I32);
        let hs = l.op(Op::Bitcast, it, &[hi])?;
        let izero = l.const_scalar(Scalar::I32, 0);
        let neg = l.op(Op::SLessThan, bt, &[hs, izero])?;
        let nlo = l.op(Op::Not, u, &[lo])?;
        let nhi = l.op(Op::Not, u, &[hi])?;
        lo = l.op(Op::Select, u, &[neg, nlo, lo])?;
        hi = l.op(Op::Select, u, &[neg, nhi, hi])?;
    }
    let hi_msb = l.glsl(G::FindUMsb, u, &[hi])?;
    let lo_msb = l.glsl(G::FindUMsb, u, &[lo])?;
    let from_hi = from_top(l, hi_msb, 31)?;
    let from_lo = from_top(l, lo_msb, 63)?;
    let hi_zero = l.op(Op::IEqual, bt, &[hi, zero])?;
    l.op(Op::Select, u, &[hi_zero, from_lo, from_hi])
}
