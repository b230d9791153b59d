//! Wave ops → SPIR-V group non-uniform operations (subgroup scope).

use rspirv::dr::Operand;
use rspirv::spirv::{Capability, GroupOperation, Op, Scope, Word};

use super::compute::Builtin;
use super::{malformed, unsupported, LResult, Lowerer, Scalar};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};

impl Lowerer<'_> {
    pub(crate) fn subgroup(&mut self) -> Word {
        self.const_u32(Scope::Subgroup as u32)
    }

    fn group_op(&mut self, op: Op, ty: Word, g: GroupOperation, x: Word) -> LResult<Word> {
        let s = self.subgroup();
        self.op_with(op, ty, vec![Operand::IdRef(s), Operand::GroupOperation(g), Operand::IdRef(x)])
    }
}

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    use DxilOp::*;
    if args.len() < op.info().params.len() {
        return malformed(format!("{} arguments", op.name()));
    }
    l.cap(Capability::GroupNonUniform);
    let bt = l.bool();
    let u = l.u32();
    let s = l.subgroup();
    let r = match op {
        WaveGetLaneCount => l.load_builtin(Builtin::SubgroupSize, None)?,
        WaveGetLaneIndex => l.load_builtin(Builtin::SubgroupLocalInvocationId, None)?,
        WaveIsFirstLane => l.op(Op::GroupNonUniformElect, bt, &[s])?,
        WaveAnyTrue | WaveAllTrue => {
            l.cap(Capability::GroupNonUniformVote);
            let x = l.value(args[0])?;
            l.op(if op == WaveAnyTrue { Op::GroupNonUniformAny } else { Op::GroupNonUniformAll }, bt, &[s, x])?
        }
        WaveActiveAllEqual => {
            l.cap(Capability::GroupNonUniformVote);
            let x = l.value(args[0])?;
            l.op(Op::GroupNonUniformAllEqual, bt, &[s, x])?
        }
        WaveActiveBallot => {
            l.cap(Capability::GroupNonUniformBallot);
            let x = l.value(args[0])?;
            let u4 = l.vector(u, 4);
            let b = l.op(Op::GroupNonUniformBallot, u4, &[s, x])?;
            let mut parts = [0; 4];
            for (k, p) in parts.iter_mut().enumerate() {
                *p = l.op_with(Op::CompositeExtract, u, vec![Operand::IdRef(b), Operand::LiteralBit32(k as u32)])?;
            }
            l.set_parts(i, &parts);
            return Ok(());
        }
        WaveReadLaneAt => {
            let t = l.result_ty(i)?;
            let x = l.value(args[0])?;
            let lane = l.value(args[1])?;
            if l.m.const_uint(args[1]).is_some() {
                l.cap(Capability::GroupNonUniformBallot);
                l.op(Op::GroupNonUniformBroadcast, t, &[s, x, lane])?
            } else {
                l.cap(Capability::GroupNonUniformShuffle);
                l.op(Op::GroupNonUniformShuffle, t, &[s, x, lane])?
            }
        }
        WaveReadLaneFirst => {
            l.cap(Capability::GroupNonUniformBallot);
            let t = l.result_ty(i)?;
            let x = l.value(args[0])?;
            l.op(Op::GroupNonUniformBroadcastFirst, t, &[s, x])?
        }
        WaveActiveOp | WavePrefixOp => {
            l.cap(Capability::GroupNonUniformArithmetic);
            let t = l.result_ty(i)?;
            let x = l.value(args[0])?;
            let (Some(kind), Some(sign)) = (l.m.const_uint(args[1]), l.m.const_uint(args[2])) else {
                return malformed("wave op kind is not a constant");
            };
            let Some(sc) = l.scalar_of(l.f.inst(i).ty) else { return unsupported("wave op on a non-scalar") };
            let float = matches!(sc, Scalar::F16 | Scalar::F32 | Scalar::F64);
            let unsigned = sign == 1;
            let sop = match (kind, float, unsigned) {
                (0, true, _) => Op::GroupNonUniformFAdd,
                (0, false, _) => Op::GroupNonUniformIAdd,
                (1, true, _) => Op::GroupNonUniformFMul,
                (1, false, _) => Op::GroupNonUniformIMul,
                (2, true, _) => Op::GroupNonUniformFMin,
                (2, false, false) => Op::GroupNonUniformSMin,
                (2, false, true) => Op::GroupNonUniformUMin,
                (3, true, _) => Op::GroupNonUniformFMax,
                (3, false, false) => Op::GroupNonUniformSMax,
                (3, false, true) => Op::GroupNonUniformUMax,
                _ => return malformed(format!("wave op kind {kind}")),
            };
            if sc == Scalar::Bool {
                return unsupported("wave arithmetic on i1");
            }
            let g = if op == WaveActiveOp { GroupOperation::Reduce } else { GroupOperation::ExclusiveScan };
            l.group_op(sop, t, g, x)?
        }
        WaveActiveBit => {
            l.cap(Capability::GroupNonUniformArithmetic);
            let t = l.result_ty(i)?;
            let x = l.value(args[0])?;
            let Some(kind) = l.m.const_uint(args[1]) else { return malformed("wave bit op is not a constant") };
            let sop = match kind {
                0 => Op::GroupNonUniformBitwiseAnd,
                1 => Op::GroupNonUniformBitwiseOr,
                2 => Op::GroupNonUniformBitwiseXor,
                _ => return malformed(format!("wave bit op {kind}")),
            };
            l.group_op(sop, t, GroupOperation::Reduce, x)?
        }
        WaveAllBitCount | WavePrefixBitCount => {
            l.cap(Capability::GroupNonUniformBallot);
            let x = l.value(args[0])?;
            let u4 = l.vector(u, 4);
            let b = l.op(Op::GroupNonUniformBallot, u4, &[s, x])?;
            let g = if op == WaveAllBitCount { GroupOperation::Reduce } else { GroupOperation::ExclusiveScan };
            l.group_op(Op::GroupNonUniformBallotBitCount, u, g, b)?
        }
        _ => return unsupported(format!("DXIL op {}", op.name())),
    };
    l.set_id(i, r);
    Ok(())
}
