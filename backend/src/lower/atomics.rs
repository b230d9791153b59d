//! AtomicBinOp and AtomicCompareExchange on raw/structured buffers (storage
//! buffer words) and on typed buffers and textures (image texel pointers).
//! With explicit robustness an out-of-bounds atomic does nothing and
//! returns 0.
//!
//! 64-bit atomics (SM 6.6, `i64` overloads): raw/structured buffers go through
//! a `ulong[]` view of the binding (`Int64Atomics`); typed resources — D3D12
//! `R32G32_UINT` resources — are declared `R64ui` images with a 64-bit sampled
//! type (`Int64ImageEXT`, SPV_EXT_shader_image_int64; see
//! [`super::resources`]). Signedness comes from the opcode (IMin vs UMin).

use rspirv::spirv::{Capability, Op, Scope, StorageClass, Word};

use super::meta::ResKind;
use super::resources::byte_address;
use super::{is_undef, malformed, unsupported, LResult, Lowerer, Scalar};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if args.len() < 6 {
        return malformed(format!("{} arguments", op.name()));
    }
    let h = l.handle(args[0])?;
    let d = l.decl(h);
    let wide = match l.scalar_of(l.f.inst(i).ty) {
        Some(Scalar::U32) => false,
        Some(Scalar::U64) => true,
        _ => return unsupported(format!("{} of type {}", op.name(), l.m.types.display(l.f.inst(i).ty))),
    };
    if wide {
        l.cap(Capability::Int64Atomics);
    }
    let (coords, aop) = if op == DxilOp::AtomicBinOp {
        let Some(a) = l.m.const_uint(args[1]) else { return malformed("atomic op is not a constant") };
        (&args[2..5], Some(a))
    } else {
        (&args[1..4], None)
    };
    let sop = match aop {
        None => Op::AtomicCompareExchange,
        Some(0) => Op::AtomicIAdd,
        Some(1) => Op::AtomicAnd,
        Some(2) => Op::AtomicOr,
        Some(3) => Op::AtomicXor,
        Some(4) => Op::AtomicSMin,
        Some(5) => Op::AtomicSMax,
        Some(6) => Op::AtomicUMin,
        Some(7) => Op::AtomicUMax,
        Some(8) => Op::AtomicExchange,
        Some(x) => return malformed(format!("atomic op {x}")),
    };
    let u = if wide { l.scalar(Scalar::U64) } else { l.u32() };
    let (val, cmp) = if op == DxilOp::AtomicBinOp {
        (l.value(args[5])?, None)
    } else {
        (l.value(args[5])?, Some(l.value(args[4])?))
    };
    let scope = l.const_u32(Scope::Device as u32);
    let sem = l.const_u32(0);
    let r = match d.kind {
        ResKind::RawBuffer | ResKind::StructuredBuffer => {
            let addr = byte_address(l, h, coords[0], Some(coords[1]))?;
            let view = if wide { Scalar::U64 } else { Scalar::U32 };
            let sh = l.const_u32(if wide { 3 } else { 2 });
            let u32t = l.u32();
            let w = l.op(Op::ShiftRightLogical, u32t, &[addr, sh])?;
            let body = move |l: &mut Lowerer<'_>| -> LResult<Word> {
                let p = l.ssbo_view_ptr(h, w, view)?;
                emit(l, sop, u, p, scope, sem, val, cmp)
            };
            if let Some(n) = l.ssbo_bound(h, view)? {
                let bt = l.bool();
                let inb = l.op(Op::ULessThan, bt, &[w, n])?;
                l.guarded_value(inb, u, body)?
            } else {
                body(l)?
            }
        }
        k if k == ResKind::TypedBuffer || k.is_texture() => {
            let n = match k {
                ResKind::TypedBuffer | ResKind::Texture1D => 1,
                ResKind::Texture1DArray | ResKind::Texture2D => 2,
                ResKind::Texture2DArray | ResKind::Texture3D => 3,
                _ => return unsupported(format!("atomics on {}", k.name())),
            };
            let mut ids = Vec::with_capacity(n);
            for &c in coords.iter().take(n) {
                ids.push(if is_undef(l, c) { l.const_u32(0) } else { l.value(c)? });
            }
            let u32t = l.u32();
            let coord = if n == 1 {
                ids[0]
            } else {
                let t = l.vector(u32t, n as u32);
                l.op(Op::CompositeConstruct, t, &ids)?
            };
            // A heap typed-buffer view with bounds: rebased into the buffer, checked against its count.
            let view = if h.bounds != 0 && k == ResKind::TypedBuffer {
                Some(super::resources::typed_view_coord(l, h, coord)?)
            } else {
                None
            };
            let coord = view.map_or(coord, |v| v.0);
            l.ensure_var(h.res)?;
            let info = l.res.info[h.res as usize].clone();
            let st = info.sampled.unwrap_or(Scalar::U32);
            match (st, wide) {
                (Scalar::U32 | Scalar::I32, false) | (Scalar::U64, true) => {}
                (Scalar::F32, _) => return unsupported("atomics on a float image"),
                _ => return Err(super::Fail::Internal("64-bit atomic on an image not declared 64-bit".into())),
            }
            let stt = l.scalar(st);
            let body = move |l: &mut Lowerer<'_>| -> LResult<Word> {
                let var_ptr = l.descriptor_ptr(h, info.var, info.img_ty, StorageClass::UniformConstant)?;
                let pt = l.pointer(StorageClass::Image, stt);
                let zero = l.const_u32(0);
                let tp = l.op(Op::ImageTexelPointer, pt, &[var_ptr, coord, zero])?;
                let val = if st == Scalar::I32 { l.op(Op::Bitcast, stt, &[val])? } else { val };
                let cmp = match cmp {
                    Some(c) if st == Scalar::I32 => Some(l.op(Op::Bitcast, stt, &[c])?),
                    c => c,
                };
                let r = emit(l, sop, stt, tp, scope, sem, val, cmp)?;
                if st == Scalar::I32 {
                    l.op(Op::Bitcast, u, &[r])
                } else {
                    Ok(r)
                }
            };
            if let Some((_, inb)) = view {
                l.guarded_value(inb, u, body)?
            } else if l.robust_explicit() {
                let (img, _) = l.load_image(h)?;
                let inb = super::sampling::in_bounds(l, img, coord, n as u32, None)?;
                l.guarded_value(inb, u, body)?
            } else {
                body(l)?
            }
        }
        k => return unsupported(format!("atomics on {}", k.name())),
    };
    let _ = Capability::Shader;
    l.set_id(i, r);
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn emit(
    l: &mut Lowerer<'_>,
    sop: Op,
    ty: Word,
    ptr: Word,
    scope: Word,
    sem: Word,
    val: Word,
    cmp: Option<Word>,
) -> LResult<Word> {
    match cmp {
        Some(c) => l.op(sop, ty, &[ptr, scope, sem, sem, val, c]),
        None => l.op(sop, ty, &[ptr, scope, sem, val]),
    }
}
