//! Sampler feedback (SM 6.5): `WriteSamplerFeedback`, `WriteSamplerFeedbackBias`,
//! `WriteSamplerFeedbackLevel` and `WriteSamplerFeedbackGrad` on `FeedbackTexture2D[Array]`
//! (MinMip and MipRegionUsed alike), emulated on a Vulkan storage image.
//!
//! **Layout** (the layer allocates it; see `docs/graphics-lowering.md`, "Sampler feedback"):
//! the feedback UAV is an `R32_UINT` storage image (2D, or 2D array for the array kind) of
//! exactly `ceil(W / region_w) x ceil(H / region_h)` texels (`W x H` the paired texture's mip 0,
//! `region` the resource's `SamplerFeedbackMipRegion`) and as many layers as the paired texture.
//! Texel `(x, y)` of a layer holds a mask of mip levels: bit `l` set means mip region `(x, y)`
//! *of mip level `l`* (the level's own region grid, `ceil(W_l / region_w)` wide) was touched.
//! A UAV clear writes 0. Both feedback kinds record the same thing; the layer's decode differs:
//! MipRegionUsed of level `l` is bit `l`; MinMip of mip-0 region `(X, Y)` is the lowest `l` whose
//! bit is set in texel `(X >> l, Y >> l)` (the "smeared" representation D3D12 allows), 0xFF if none.
//!
//! The shader never learns the region size: it derives it from the two image sizes, as the
//! smallest power of two (at least 4, D3D12's minimum) `r` with `ceil(W / r) <= feedback width`,
//! which is the region size exactly when the image is sized as above.
//!
//! **What is recorded**: for each mip level the access uses (`floor(lod)` and `ceil(lod)`: both
//! levels of a trilinear access), the regions under the bilinear footprint (the texels within half
//! a texel of the coordinate) at that level: one to four regions. The coordinate wraps
//! (`u - floor(u)`, D3D12's WRAP; CLAMP accesses stay in `[0, 1)`), the footprint clamps to the
//! level. The LOD: `Level` as given; `Grad` from the gradients (D3D's isotropic rule,
//! `log2(max(|ddx|, |ddy|) * size)`); the implicit form from `OpImageQueryLod` (sampler and view
//! clamps included); `Bias` from `OpImageQueryLod` of the coordinate scaled by `2^bias` (the
//! derivatives scale with it, so the sampler still clamps the biased LOD). The optional clamp
//! raises the LOD (`max(lod, clamp)`); the result is clamped to the paired view's levels.
//! Not modelled: anisotropic footprints wider than bilinear, and sampler state the shader cannot
//! see on the `Level`/`Grad` forms (MinLOD/MaxLOD/MipLODBias, point mip filtering).

use rspirv::spirv::{Capability, GlslStd450Op as G, Op, Scope, StorageClass, Word};

use super::meta::ResKind;
use super::{is_undef, malformed, unsupported, LResult, Lowerer, Scalar};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};
use crate::link::Stage;

pub(super) fn lower(l: &mut Lowerer<'_>, _i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if args.len() < op.info().params.len() {
        return malformed(format!("{} arguments", op.name()));
    }
    let fb = l.handle(args[0])?;
    let tex = l.handle(args[1])?;
    let arrayed = match l.decl(fb).kind {
        ResKind::FeedbackTexture2D => false,
        ResKind::FeedbackTexture2DArray => true,
        k => return malformed(format!("{} on {} (not a feedback texture)", op.name(), k.name())),
    };
    let want = if arrayed { ResKind::Texture2DArray } else { ResKind::Texture2D };
    if l.decl(tex).kind != want {
        return malformed(format!("{} pairs {} with {}", op.name(), l.decl(fb).kind.name(), l.decl(tex).kind.name()));
    }
    let implicit = matches!(op, DxilOp::WriteSamplerFeedback | DxilOp::WriteSamplerFeedbackBias);
    if implicit {
        match l.stage() {
            Some(Stage::Pixel) => {}
            None | Some(Stage::Mesh | Stage::Amplification) => l.need_derivatives(),
            Some(_) => return unsupported(format!("{} (implicit LOD) outside a pixel or compute shader", op.name())),
        }
    }
    l.cap(Capability::ImageQuery);
    let (f, u) = (l.f32(), l.u32());
    let i32t = l.scalar(Scalar::I32);
    let (f2, u2) = (l.vector(f, 2), l.vector(u, 2));
    let (si, img_ty) = super::sampling::sampled_image(l, tex, args[2])?;
    let timg = l.op(Op::Image, img_ty, &[si])?;
    let cu = float(l, args[3])?;
    let cv = float(l, args[4])?;
    let uv = l.op(Op::CompositeConstruct, f2, &[cu, cv])?;
    let zero_f = l.const_f32(0.0);

    // The LOD and the optional MinLOD clamp.
    let (lod, clamp) = match op {
        DxilOp::WriteSamplerFeedbackLevel => (float(l, args[7])?, None),
        DxilOp::WriteSamplerFeedbackGrad => {
            let zero = l.const_u32(0);
            let size = level_size(l, timg, zero, arrayed)?;
            let sf = l.op(Op::ConvertUToF, f2, &[size])?;
            let mut len2 = [0; 2];
            for (k, base) in [7usize, 10].into_iter().enumerate() {
                let gx = float(l, args[base])?;
                let gy = float(l, args[base + 1])?;
                let g = l.op(Op::CompositeConstruct, f2, &[gx, gy])?;
                let g = l.op(Op::FMul, f2, &[g, sf])?;
                len2[k] = l.op(Op::Dot, f, &[g, g])?;
            }
            let m = l.glsl(G::NMax, f, &len2)?;
            let lg = l.glsl(G::Log2, f, &[m])?;
            let half = l.const_f32(0.5);
            (l.op(Op::FMul, f, &[lg, half])?, Some(args[13]))
        }
        _ => {
            let (coord, clamp) = if op == DxilOp::WriteSamplerFeedbackBias {
                let bias = float(l, args[7])?;
                let scale = l.glsl(G::Exp2, f, &[bias])?;
                (l.op(Op::VectorTimesScalar, f2, &[uv, scale])?, args[8])
            } else {
                (uv, args[7])
            };
            let q = l.op(Op::ImageQueryLod, f2, &[si, coord])?;
            (l.op(Op::CompositeExtract, f, &[q, 0])?, Some(clamp))
        }
    };
    let lod = match clamp {
        Some(c) if !is_undef(l, c) => {
            let c = float(l, c)?;
            l.glsl(G::NMax, f, &[lod, c])?
        }
        _ => lod,
    };
    let levels = l.op(Op::ImageQueryLevels, u, &[timg])?;
    let one = l.const_u32(1);
    let last = l.op(Op::ISub, u, &[levels, one])?;
    let last_f = l.op(Op::ConvertUToF, f, &[last])?;
    let lod = l.glsl(G::NClamp, f, &[lod, zero_f, last_f])?;
    let lo = l.glsl(G::Floor, f, &[lod])?;
    let hi = l.glsl(G::Ceil, f, &[lod])?;
    let lo = l.op(Op::ConvertFToU, u, &[lo])?;
    let hi = l.op(Op::ConvertFToU, u, &[hi])?;

    // The feedback image, its size, and the region size (as shifts) it implies.
    let (fimg, finfo) = l.load_image(fb)?;
    let fsize_t = if arrayed { l.vector(u, 3) } else { u2 };
    let fsize = l.op(Op::ImageQuerySize, fsize_t, &[fimg])?;
    let fsize2 = if arrayed { l.op(Op::VectorShuffle, u2, &[fsize, fsize, 0, 1])? } else { fsize };
    let zero = l.const_u32(0);
    let size0 = level_size(l, timg, zero, arrayed)?;
    let ones2 = l.const_composite(u2, &[one, one]);
    let fsize2 = l.glsl(G::UMax, u2, &[fsize2, ones2])?;
    // q = ceil(W / fw); shift = max(2, bit length of q - 1).
    let t = l.op(Op::IAdd, u2, &[size0, fsize2])?;
    let t = l.op(Op::ISub, u2, &[t, ones2])?;
    let q = l.op(Op::UDiv, u2, &[t, fsize2])?;
    let q1 = l.op(Op::ISub, u2, &[q, ones2])?;
    let i2 = l.vector(i32t, 2);
    let msb = l.glsl(G::FindUMsb, i2, &[q1])?;
    let ione = l.const_bits(i32t, false, 1);
    let ione2 = l.const_composite(i2, &[ione, ione]);
    let bits = l.op(Op::IAdd, i2, &[msb, ione2])?;
    let itwo = l.const_bits(i32t, false, 2);
    let itwo2 = l.const_composite(i2, &[itwo, itwo]);
    let shift = l.glsl(G::SMax, i2, &[bits, itwo2])?;
    let shift = l.op(Op::Bitcast, u2, &[shift])?;
    let flast = l.op(Op::ISub, u2, &[fsize2, ones2])?;
    let layer = if arrayed {
        let a = float(l, args[5])?;
        let a = l.glsl(G::RoundEven, f, &[a])?;
        let nl = l.op(Op::CompositeExtract, u, &[fsize, 2])?;
        let nl = l.glsl(G::UMax, u, &[nl, one])?;
        let nl = l.op(Op::ISub, u, &[nl, one])?;
        let nl_f = l.op(Op::ConvertUToF, f, &[nl])?;
        let a = l.glsl(G::NClamp, f, &[a, zero_f, nl_f])?;
        Some(l.op(Op::ConvertFToU, u, &[a])?)
    } else {
        None
    };

    // Wrapped coordinate.
    let fl = l.glsl(G::Floor, f2, &[uv])?;
    let wrapped = l.op(Op::FSub, f2, &[uv, fl])?;
    let half = l.const_f32(0.5);
    let half2 = l.const_composite(f2, &[half, half]);
    let izero = l.const_bits(i32t, false, 0);
    let izero2 = l.const_composite(i2, &[izero, izero]);
    let var_ptr = l.descriptor_ptr(fb, finfo.var, finfo.img_ty, StorageClass::UniformConstant)?;
    let tp_ty = l.pointer(StorageClass::Image, u);
    let scope = l.const_u32(Scope::Device as u32);
    let sem = l.const_u32(0);
    let cvec_t = if arrayed { l.vector(u, 3) } else { u2 };
    for level in [lo, hi] {
        let size = level_size(l, timg, level, arrayed)?;
        let sf = l.op(Op::ConvertUToF, f2, &[size])?;
        let t = l.op(Op::FMul, f2, &[wrapped, sf])?;
        let smax = l.op(Op::ISub, u2, &[size, ones2])?;
        let smax = l.op(Op::Bitcast, i2, &[smax])?;
        // Texels of the bilinear footprint, clamped to the level, as regions.
        let mut corners = [0; 2];
        for (k, corner) in corners.iter_mut().enumerate() {
            let e = if k == 0 { l.op(Op::FSub, f2, &[t, half2])? } else { l.op(Op::FAdd, f2, &[t, half2])? };
            let e = l.glsl(G::Floor, f2, &[e])?;
            let e = l.op(Op::ConvertFToS, i2, &[e])?;
            let e = l.glsl(G::SClamp, i2, &[e, izero2, smax])?;
            let e = l.op(Op::Bitcast, u2, &[e])?;
            let r = l.op(Op::ShiftRightLogical, u2, &[e, shift])?;
            *corner = l.glsl(G::UMin, u2, &[r, flast])?;
        }
        let bit = l.op(Op::ShiftLeftLogical, u, &[one, level])?;
        let xs = [l.op(Op::CompositeExtract, u, &[corners[0], 0])?, l.op(Op::CompositeExtract, u, &[corners[1], 0])?];
        let ys = [l.op(Op::CompositeExtract, u, &[corners[0], 1])?, l.op(Op::CompositeExtract, u, &[corners[1], 1])?];
        for y in ys {
            for x in xs {
                let mut c = vec![x, y];
                c.extend(layer);
                let coord = l.op(Op::CompositeConstruct, cvec_t, &c)?;
                let p = l.op(Op::ImageTexelPointer, tp_ty, &[var_ptr, coord, zero])?;
                l.op(Op::AtomicOr, u, &[p, scope, sem, bit])?;
            }
        }
    }
    Ok(())
}

/// The (width, height) of level `lod` of the paired texture.
fn level_size(l: &mut Lowerer<'_>, img: Word, lod: Word, arrayed: bool) -> LResult<Word> {
    let u = l.u32();
    let u2 = l.vector(u, 2);
    if arrayed {
        let u3 = l.vector(u, 3);
        let s = l.op(Op::ImageQuerySizeLod, u3, &[img, lod])?;
        l.op(Op::VectorShuffle, u2, &[s, s, 0, 1])
    } else {
        l.op(Op::ImageQuerySizeLod, u2, &[img, lod])
    }
}

/// A float operand as f32 (undef coordinates are 0).
fn float(l: &mut Lowerer<'_>, v: Value) -> LResult<Word> {
    if is_undef(l, v) {
        return Ok(l.const_f32(0.0));
    }
    super::sampling::float_operand(l, v)
}
