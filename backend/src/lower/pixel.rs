//! Pixel-shader ops: discard, derivatives, attribute evaluation at an
//! offset/sample/centroid, helper lanes, render-target sample queries.

use rspirv::spirv::{self, Capability, GlslStd450Op, Op};

use super::{internal, malformed, unsupported, Fail, LResult, Lowerer, Scalar};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};
use crate::link::Stage;

impl Lowerer<'_> {
    fn require_pixel(&self, op: DxilOp) -> LResult<()> {
        if self.stage() != Some(Stage::Pixel) {
            return unsupported(format!("DXIL op {} outside a pixel shader", op.name()));
        }
        Ok(())
    }

    /// Whether `discard` demotes to a helper invocation (D3D semantics) rather than killing.
    pub(crate) fn uses_demote(&self) -> bool {
        self.opts.demote_to_helper
    }

    /// The pipeline's rasterizer sample count: `PipelineStateOptions::rasterizer_sample_count`
    /// when the layer passes it, else a specialization constant (`SpecId`
    /// [`crate::compiled::SPEC_ID_SAMPLE_COUNT`], default 1) it sets at pipeline creation.
    pub(crate) fn sample_count(&mut self) -> spirv::Word {
        if let Some(n) = self.opts.state.rasterizer_sample_count {
            return self.const_u32(n);
        }
        if self.sample_count_spec == 0 {
            let u = self.u32();
            let id = self.b.global_value(Op::SpecConstant, u, &[1]);
            self.decorate(id, spirv::Decoration::SpecId, &[crate::compiled::SPEC_ID_SAMPLE_COUNT]);
            self.sample_count_spec = id;
        }
        self.sample_count_spec
    }

    fn demote_caps(&mut self) {
        self.cap(Capability::DemoteToHelperInvocation);
        if self.opts.spirv_version < (1, 6) {
            self.ext("SPV_EXT_demote_to_helper_invocation");
        }
    }
}

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if args.len() < op.info().params.len() {
        return malformed(format!("{} arguments", op.name()));
    }
    match op {
        DxilOp::Discard => discard(l, args[0]),
        DxilOp::DerivCoarseX | DxilOp::DerivCoarseY | DxilOp::DerivFineX | DxilOp::DerivFineY => {
            if matches!(l.stage(), None | Some(Stage::Mesh | Stage::Amplification)) {
                // Compute, mesh, amplification: derivatives over the compute derivative groups.
                l.need_derivatives();
            } else {
                l.require_pixel(op)?;
            }
            let sop = match op {
                DxilOp::DerivCoarseX => Op::DPdxCoarse,
                DxilOp::DerivCoarseY => Op::DPdyCoarse,
                DxilOp::DerivFineX => Op::DPdxFine,
                _ => Op::DPdyFine,
            };
            l.cap(Capability::DerivativeControl);
            let t = l.f.inst(i).ty;
            let s = l.scalar_of(t);
            let x = l.value(args[0])?;
            let f = l.f32();
            let r = match s {
                Some(Scalar::F32) => l.op(sop, f, &[x])?,
                Some(Scalar::F16) => {
                    let w = l.convert_scalar(Scalar::F16, Scalar::F32, x)?;
                    let d = l.op(sop, f, &[w])?;
                    l.convert_scalar(Scalar::F32, Scalar::F16, d)?
                }
                _ => return unsupported(format!("{} of a non-float value", op.name())),
            };
            l.set_id(i, r);
            Ok(())
        }
        DxilOp::IsHelperLane => {
            let bt = l.bool();
            let r = if l.stage() != Some(Stage::Pixel) {
                l.const_bool(false)
            } else if l.uses_demote() {
                l.demote_caps();
                l.op(Op::IsHelperInvocationEXT, bt, &[])?
            } else {
                let var = l.builtin_var(super::io::Slot::HelperInvocation, spirv::StorageClass::Input)?;
                l.load(bt, var)?
            };
            l.set_id(i, r);
            Ok(())
        }
        DxilOp::EvalSnapped | DxilOp::EvalSampleIndex | DxilOp::EvalCentroid => eval(l, i, op, args),
        DxilOp::RenderTargetGetSampleCount => {
            let c = l.sample_count();
            l.set_id(i, c);
            Ok(())
        }
        DxilOp::RenderTargetGetSamplePosition => {
            // D3D12's standard pattern of the pipeline's sample count (the pattern a PSO uses
            // unless the command list sets programmable sample positions).
            let count = l.sample_count();
            let idx = l.value(args[0])?;
            super::sampling::standard_sample_position(l, i, count, idx)
        }
        DxilOp::AttributeAtVertex => {
            l.require_pixel(op)?;
            if !l.opts.fragment_barycentrics {
                return unsupported(
                    "AttributeAtVertex (needs VK_KHR_fragment_shader_barycentric: CompileOptions::fragment_barycentrics)",
                );
            }
            let Some(id) = l.m.const_uint(args[0]) else { return malformed("signature element id is not a constant") };
            let t = l.f.inst(i).ty;
            let Some(to) = l.scalar_of(t) else { return malformed("AttributeAtVertex of non-scalar type") };
            let r = l.load_input(id as u32, args[1], args[2], Some(args[3]), to)?;
            l.set_id(i, r);
            Ok(())
        }
        _ => Err(Fail::Internal(format!("pixel::lower got {}", op.name()))),
    }
}

/// `discard(cond)`: demote (derivatives keep working, like D3D) or kill.
fn discard(l: &mut Lowerer<'_>, cond: Value) -> LResult<()> {
    l.require_pixel(DxilOp::Discard)?;
    if l.m.const_uint(cond) == Some(0) {
        return Ok(());
    }
    let c = l.value(cond)?;
    if l.uses_demote() {
        l.demote_caps();
        return l.guarded(c, |l| l.op_void(Op::DemoteToHelperInvocation, &[]));
    }
    let (t, merge) = (l.new_label(), l.new_label());
    l.b.selection_merge(merge).map_err(internal)?;
    l.b.branch_conditional(c, t, merge).map_err(internal)?;
    l.begin(t)?;
    l.b.terminator(Op::Kill, &[], &[]).map_err(internal)?;
    l.begin(merge)
}

/// `EvalSnapped(id, row, col, dx, dy)`, `EvalSampleIndex(id, row, col, sample)`, `EvalCentroid(id, row, col)`.
fn eval(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    l.require_pixel(op)?;
    let Some(id) = l.m.const_uint(args[0]) else { return malformed("signature element id is not a constant") };
    let t = l.f.inst(i).ty;
    let Some(to) = l.scalar_of(t) else { return malformed(format!("{} of non-scalar type", op.name())) };
    let Some((ptr, vt, comp)) = l.interpolant(id as u32, args[1], args[2])? else {
        // Not an interpolated varying (zero-filled or a built-in): the plain value.
        let r = l.load_input(id as u32, args[1], args[2], None, to)?;
        l.set_id(i, r);
        return Ok(());
    };
    l.cap(Capability::InterpolationFunction);
    let v = match op {
        DxilOp::EvalCentroid => l.glsl(GlslStd450Op::InterpolateAtCentroid, vt, &[ptr])?,
        DxilOp::EvalSampleIndex => {
            let s = l.value(args[3])?;
            l.cap(Capability::SampleRateShading);
            l.glsl(GlslStd450Op::InterpolateAtSample, vt, &[ptr, s])?
        }
        _ => {
            // Offsets are signed 1/16-pixel steps in -8..7 (the low 4 bits of each operand).
            let f = l.f32();
            let mut xy = [0; 2];
            for (k, slot) in xy.iter_mut().enumerate() {
                let x = l.value(args[3 + k])?;
                let u = l.u32();
                let sh = l.const_u32(28);
                let up = l.op(Op::ShiftLeftLogical, u, &[x, sh])?;
                let it = l.scalar(Scalar::I32);
                let si = l.op(Op::Bitcast, it, &[up])?;
                let down = l.op(Op::ShiftRightArithmetic, it, &[si, sh])?;
                let fx = l.op(Op::ConvertSToF, f, &[down])?;
                let k16 = l.const_f32(1.0 / 16.0);
                *slot = l.op(Op::FMul, f, &[fx, k16])?;
            }
            let v2 = l.vector(f, 2);
            let off = l.op(Op::CompositeConstruct, v2, &xy)?;
            l.glsl(GlslStd450Op::InterpolateAtOffset, vt, &[ptr, off])?
        }
    };
    let f = l.f32();
    let x = match comp {
        Some(c) => l.op(Op::CompositeExtract, f, &[v, c])?,
        None => v,
    };
    let r = l.convert_scalar(Scalar::F32, to, x)?;
    l.set_id(i, r);
    Ok(())
}
