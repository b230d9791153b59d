//! Quad ops → SPIR-V quad group operations (`GroupNonUniformQuad`). SM 6.7 `QuadVote`
//! (QuadAny/QuadAll) combines the three quad swaps of the predicate (the `SPV_KHR_quad_control`
//! instructions would need a device extension lavapipe lacks).

use rspirv::spirv::{Capability, Op};

use super::compute::Builtin;
use super::{malformed, unsupported, LResult, Lowerer};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if args.len() < 2 {
        return malformed(format!("{} arguments", op.name()));
    }
    l.cap(Capability::GroupNonUniform);
    l.cap(Capability::GroupNonUniformQuad);
    if op == DxilOp::QuadVote {
        return quad_vote(l, i, args);
    }
    let t = l.result_ty(i)?;
    let x = l.value(args[0])?;
    let s = l.subgroup();
    let r = match op {
        DxilOp::QuadReadLaneAt => {
            let lane = l.value(args[1])?;
            if l.m.const_uint(args[1]).is_none() && l.opts.spirv_version < (1, 5) {
                // A dynamic quad lane needs SPIR-V 1.5: shuffle from the quad's base lane + lane
                // (quads are the subgroup invocations 4k..4k+3).
                l.cap(Capability::GroupNonUniformShuffle);
                let u = l.u32();
                let id = l.load_builtin(Builtin::SubgroupLocalInvocationId, None)?;
                let (mask, three) = (l.const_u32(!3), l.const_u32(3));
                let base = l.op(Op::BitwiseAnd, u, &[id, mask])?;
                let q = l.op(Op::BitwiseAnd, u, &[lane, three])?;
                let src = l.op(Op::BitwiseOr, u, &[base, q])?;
                l.op(Op::GroupNonUniformShuffle, t, &[s, x, src])?
            } else {
                l.op(Op::GroupNonUniformQuadBroadcast, t, &[s, x, lane])?
            }
        }
        DxilOp::QuadOp => {
            let Some(dir) = l.m.const_uint(args[1]) else { return malformed("QuadOp kind is not a constant") };
            if dir > 2 {
                return malformed(format!("QuadOp kind {dir}"));
            }
            let d = l.const_u32(dir as u32);
            l.op(Op::GroupNonUniformQuadSwap, t, &[s, x, d])?
        }
        _ => return unsupported(format!("DXIL op {}", op.name())),
    };
    l.set_id(i, r);
    Ok(())
}

/// `QuadVote(cond, kind)`: kind 0 = QuadAny, 1 = QuadAll, over the four lanes of the quad.
fn quad_vote(l: &mut Lowerer<'_>, i: InstId, args: &[Value]) -> LResult<()> {
    let Some(kind) = l.m.const_uint(args[1]) else { return malformed("QuadVote kind is not a constant") };
    if kind > 1 {
        return malformed(format!("QuadVote kind {kind}"));
    }
    let u = l.u32();
    let bt = l.bool();
    let c = l.value(args[0])?;
    let (one, zero) = (l.const_u32(1), l.const_u32(0));
    let x = l.op(Op::Select, u, &[c, one, zero])?;
    let s = l.subgroup();
    let combine = if kind == 0 { Op::BitwiseOr } else { Op::BitwiseAnd };
    let mut acc = x;
    for dir in 0..3 {
        let d = l.const_u32(dir);
        let y = l.op(Op::GroupNonUniformQuadSwap, u, &[s, x, d])?;
        acc = l.op(combine, u, &[acc, y])?;
    }
    let r = l.op(Op::INotEqual, bt, &[acc, zero])?;
    l.set_id(i, r);
    Ok(())
}
