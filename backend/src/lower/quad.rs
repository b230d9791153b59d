//! Quad ops → SPIR-V quad group operations (`GroupNonUniformQuad`).

use rspirv::spirv::{Capability, Op};

use super::{malformed, unsupported, LResult, Lowerer};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if args.len() < 2 {
        return malformed(format!("{} arguments", op.name()));
    }
    l.cap(Capability::GroupNonUniform);
    l.cap(Capability::GroupNonUniformQuad);
    let t = l.result_ty(i)?;
    let x = l.value(args[0])?;
    let s = l.subgroup();
    let r = match op {
        DxilOp::QuadReadLaneAt => {
            if l.m.const_uint(args[1]).is_none() && l.opts.spirv_version < (1, 5) {
                return unsupported("QuadReadLaneAt with a dynamic lane before SPIR-V 1.5");
            }
            let lane = l.value(args[1])?;
            l.op(Op::GroupNonUniformQuadBroadcast, t, &[s, x, lane])?
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
