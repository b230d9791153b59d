//! Wave ops → SPIR-V group non-uniform operations (subgroup scope).

use rspirv::spirv::{Capability, GroupOperation, Op, Scope, Word};

use super::compute::Builtin;
use super::{malformed, unsupported, LResult, Lowerer, Scalar};
use crate::dxil::WaveSize;
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};
use crate::options::SubgroupSizeRange;

impl Lowerer<'_> {
    pub(crate) fn subgroup(&mut self) -> Word {
        self.const_u32(Scope::Subgroup as u32)
    }

    fn group_op(&mut self, op: Op, ty: Word, g: GroupOperation, x: Word) -> LResult<Word> {
        let s = self.subgroup();
        self.op(op, ty, &[s, g as u32, x])
    }
}

/// The subgroup sizes a stage runs with, from the shader's `[WaveSize]` and the pipeline's
/// [`SubgroupSizeRange`] (`PipelineStateOptions::subgroup_size`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct SubgroupPlan {
    /// The size `WaveGetLaneCount` returns when it is known at compile time.
    pub lane_count: Option<u32>,
    /// The size the pipeline must require (`CompiledShader::required_subgroup_size`).
    pub required: Option<u32>,
}

/// `[WaveSize(..)]` as written in HLSL.
fn attribute(w: &WaveSize) -> String {
    match (w.max, w.preferred) {
        (None, _) => format!("[WaveSize({})]", w.min),
        (Some(max), None) => format!("[WaveSize({}, {max})]", w.min),
        (Some(max), Some(p)) => format!("[WaveSize({}, {max}, {p})]", w.min),
    }
}

/// Checks the shader's wave sizes against the pipeline's and picks the size to run with: the
/// shader's preferred size when the pipeline allows it, else the largest size both allow.
/// Without a range from the pipeline nothing is checked or folded; the shader's own size (its
/// preferred, else its smallest) is reported. Err: the feature text of an `Unsupported`.
pub(crate) fn subgroup_plan(wave: Option<&WaveSize>, range: Option<SubgroupSizeRange>) -> Result<SubgroupPlan, String> {
    let Some(w) = wave else {
        // Only the pipeline's range: a single size is what WaveGetLaneCount returns.
        let lane_count = range.filter(|r| r.min == r.max).map(|r| r.min);
        return Ok(SubgroupPlan { lane_count, required: None });
    };
    let (lo, hi) = (w.min, w.max.unwrap_or(w.min));
    let Some(r) = range else {
        return Ok(SubgroupPlan { lane_count: None, required: Some(w.preferred.unwrap_or(lo)) });
    };
    let (a, b) = (lo.max(r.min), hi.min(r.max));
    if a > b {
        return Err(format!(
            "{} (subgroup sizes {lo}..={hi}) on a pipeline running with subgroup sizes {}..={}",
            attribute(w),
            r.min,
            r.max
        ));
    }
    let size = w.preferred.filter(|p| (a..=b).contains(p)).unwrap_or(b);
    Ok(SubgroupPlan { lane_count: Some(size), required: Some(size) })
}

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    use DxilOp::*;
    if args.len() < op.info().params.len() {
        return malformed(format!("{} arguments", op.name()));
    }
    if let (WaveGetLaneCount, Some(n)) = (op, l.subgroups.lane_count) {
        // The pipeline runs the stage with exactly n lanes per subgroup.
        let c = l.const_u32(n);
        l.set_id(i, c);
        return Ok(());
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
                *p = l.op(Op::CompositeExtract, u, &[b, k as u32])?;
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
        WaveMatch => {
            // Loop: the lanes holding the first active lane's value take their ballot and leave.
            l.cap(Capability::GroupNonUniformBallot);
            let x = l.value(args[0])?;
            let (x, xt) = bits_of(l, args[0], x)?;
            let u4 = l.vector(u, 4);
            let b = l.do_until(|l| {
                let s = l.subgroup();
                let first = l.op(Op::GroupNonUniformBroadcastFirst, xt, &[s, x])?;
                let bt = l.bool();
                let cmp = if xt == l.scalar(Scalar::Bool) { Op::LogicalEqual } else { Op::IEqual };
                let eq = l.op(cmp, bt, &[x, first])?;
                let b = l.op(Op::GroupNonUniformBallot, u4, &[s, eq])?;
                Ok((eq, b))
            })?;
            let mut parts = [0; 4];
            for (k, p) in parts.iter_mut().enumerate() {
                *p = l.op(Op::CompositeExtract, u, &[b, k as u32])?;
            }
            l.set_parts(i, &parts);
            return Ok(());
        }
        WaveMultiPrefixOp | WaveMultiPrefixBitCount => multi_prefix(l, i, op, args)?,
        _ => return unsupported(format!("DXIL op {}", op.name())),
    };
    l.set_id(i, r);
    Ok(())
}

/// The value of a WaveMatch operand as an integer (floats compare by bit pattern).
fn bits_of(l: &mut Lowerer<'_>, v: Value, x: Word) -> LResult<(Word, Word)> {
    let vt = l.m.value_type(l.f, v);
    let int = match l.scalar_of(vt) {
        Some(Scalar::F16) => Scalar::U16,
        Some(Scalar::F32) => Scalar::U32,
        Some(Scalar::F64) => Scalar::U64,
        Some(s) => return Ok((x, l.scalar(s))),
        None => return unsupported("WaveMatch of a non-scalar value"),
    };
    let t = l.scalar(int);
    Ok((l.op(Op::Bitcast, t, &[x])?, t))
}

/// WaveMultiPrefixOp / WaveMultiPrefixBitCount: an exclusive scan over the lanes sharing the
/// lane's partition mask. Loop: the lanes whose mask equals the first active lane's run an
/// ordinary exclusive scan inside a branch only they take (so only they are active), then leave.
fn multi_prefix(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<Word> {
    l.cap(Capability::GroupNonUniformBallot);
    let u = l.u32();
    let u4 = l.vector(u, 4);
    let bt = l.bool();
    let mut m = [0; 4];
    for (k, w) in m.iter_mut().enumerate() {
        *w = l.value(args[1 + k])?;
    }
    let mask = l.op(Op::CompositeConstruct, u4, &m)?;
    let x = l.value(args[0])?;
    let rt = l.result_ty(i)?;
    let sop = if op == DxilOp::WaveMultiPrefixOp {
        let (Some(kind), Some(sign)) = (l.m.const_uint(args[5]), l.m.const_uint(args[6])) else {
            return malformed("WaveMultiPrefixOp kind is not a constant");
        };
        let Some(sc) = l.scalar_of(l.f.inst(i).ty) else { return unsupported("WaveMultiPrefixOp on a non-scalar") };
        let float = matches!(sc, Scalar::F16 | Scalar::F32 | Scalar::F64);
        let _ = sign;
        let sop = match (kind, float) {
            (0, true) => Op::GroupNonUniformFAdd,
            (0, false) => Op::GroupNonUniformIAdd,
            (1, false) => Op::GroupNonUniformBitwiseAnd,
            (2, false) => Op::GroupNonUniformBitwiseOr,
            (3, false) => Op::GroupNonUniformBitwiseXor,
            (4, true) => Op::GroupNonUniformFMul,
            (4, false) => Op::GroupNonUniformIMul,
            _ => return malformed(format!("WaveMultiPrefixOp kind {kind} on {sc:?}")),
        };
        l.cap(Capability::GroupNonUniformArithmetic);
        Some(sop)
    } else {
        None
    };
    l.do_until(|l| {
        let s = l.subgroup();
        let first = l.op(Op::GroupNonUniformBroadcastFirst, u4, &[s, mask])?;
        let bv = l.vector(bt, 4);
        let eqv = l.op(Op::IEqual, bv, &[mask, first])?;
        let eq = l.op(Op::All, bt, &[eqv])?;
        let r = l.guarded_value(eq, rt, |l| match sop {
            Some(sop) => l.group_op(sop, rt, GroupOperation::ExclusiveScan, x),
            None => {
                let s = l.subgroup();
                let b = l.op(Op::GroupNonUniformBallot, u4, &[s, x])?;
                l.group_op(Op::GroupNonUniformBallotBitCount, rt, GroupOperation::ExclusiveScan, b)
            }
        })?;
        Ok((eq, r))
    })
}
