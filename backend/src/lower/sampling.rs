//! Textures in compute: TextureLoad, TextureStore, Sample* (all variants),
//! CalculateLOD, TextureGather and GetDimensions (buffers and textures), and
//! the derivative ops. Implicit-LOD sampling and derivatives in compute use the
//! compute-derivatives execution modes (SPV_NV_compute_shader_derivatives),
//! chosen from numthreads as D3D's SM 6.6 rules form quads: 2x2 in thread-ID
//! space when X and Y are even (DerivativeGroupQuads), else groups of four
//! consecutive flattened indices (DerivativeGroupLinear).

use rspirv::spirv::{Capability, ImageOperands, Op, StorageClass, Word};

use super::meta::ResKind;
use super::resources::HandleVal;
use super::{is_undef, malformed, unsupported, Fail, LResult, Lowerer, Scalar};
use crate::binding::ResourceClass;
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};

/// (coordinate components incl. array layer, spatial components, is MS).
fn shape(k: ResKind) -> LResult<(u32, u32, bool)> {
    Ok(match k {
        ResKind::Texture1D => (1, 1, false),
        ResKind::Texture1DArray => (2, 1, false),
        ResKind::Texture2D => (2, 2, false),
        ResKind::Texture2DArray => (3, 2, false),
        ResKind::Texture2DMS => (2, 2, true),
        ResKind::Texture2DMSArray => (3, 2, true),
        ResKind::Texture3D => (3, 3, false),
        ResKind::TextureCube => (3, 3, false),
        ResKind::TextureCubeArray => (4, 3, false),
        ResKind::TypedBuffer => (1, 1, false),
        k => return unsupported(format!("texture op on {}", k.name())),
    })
}

/// A vector (or scalar, n = 1) of the first `n` values.
fn gather_vec(l: &mut Lowerer<'_>, elem: Word, vals: &[Value], n: u32) -> LResult<Word> {
    let mut ids = Vec::with_capacity(n as usize);
    for &v in vals.iter().take(n as usize) {
        ids.push(if is_undef(l, v) { l.null(elem) } else { l.value(v)? });
    }
    if ids.len() != n as usize {
        return malformed("too few coordinates");
    }
    if n == 1 {
        return Ok(ids[0]);
    }
    let t = l.vector(elem, n);
    l.op(Op::CompositeConstruct, t, &ids)
}

/// Texel offsets of an op.
enum TexOffset {
    None,
    /// A `ConstOffset` operand.
    Const(Word),
    /// SM 6.7 programmable offsets: per spatial component, the low 4 bits of the value sign-extended
    /// (D3D's offset range [-8, 7]), as i32.
    Dynamic(Vec<Word>),
}

fn tex_offset(l: &mut Lowerer<'_>, vals: &[Value], n: u32) -> LResult<TexOffset> {
    let dynamic = vals.iter().take(n as usize).any(|&v| !is_undef(l, v) && l.m.const_int(v).is_none());
    if !dynamic {
        return Ok(const_offset(l, vals, n)?.map_or(TexOffset::None, TexOffset::Const));
    }
    let i = l.scalar(Scalar::I32);
    let u = l.u32();
    let (zero, four) = (l.const_u32(0), l.const_u32(4));
    let mut ids = Vec::with_capacity(n as usize);
    for &v in vals.iter().take(n as usize) {
        if is_undef(l, v) {
            ids.push(l.const_bits(i, false, 0));
            continue;
        }
        let x = l.value(v)?;
        let x = l.op(Op::BitFieldSExtract, u, &[x, zero, four])?;
        ids.push(l.op(Op::Bitcast, i, &[x])?);
    }
    if ids.len() != n as usize {
        return malformed("too few texel offsets");
    }
    Ok(TexOffset::Dynamic(ids))
}

/// A vector (or scalar) of `ids` of element type `elem`.
fn compose(l: &mut Lowerer<'_>, elem: Word, ids: &[Word]) -> LResult<Word> {
    if ids.len() == 1 {
        return Ok(ids[0]);
    }
    let t = l.vector(elem, ids.len() as u32);
    l.op(Op::CompositeConstruct, t, ids)
}

/// The components of a vector (or the scalar itself, n = 1).
fn components(l: &mut Lowerer<'_>, elem: Word, v: Word, n: u32) -> LResult<Vec<Word>> {
    if n == 1 {
        return Ok(vec![v]);
    }
    (0..n).map(|k| l.op(Op::CompositeExtract, elem, &[v, k])).collect()
}

/// Integer coordinates moved by dynamic offsets (`TextureLoad`: address = coord + offset).
fn shift_int_coord(l: &mut Lowerer<'_>, coord: Word, ncoord: u32, offs: &[Word]) -> LResult<Word> {
    let u = l.u32();
    let mut c = components(l, u, coord, ncoord)?;
    for (ck, &o) in c.iter_mut().zip(offs) {
        let ou = l.op(Op::Bitcast, u, &[o])?;
        *ck = l.op(Op::IAdd, u, &[*ck, ou])?;
    }
    compose(l, u, &c)
}

/// Normalized coordinates moved by dynamic offsets: `coord += offset / size(level)`, with the
/// level nearest to `lod` (clamped to the image's levels). Exact for a single level (point or
/// bilinear filtering at an integral LOD); between two levels both are shifted by the nearer one's
/// texel size, where D3D shifts each level by its own.
fn shift_float_coord(
    l: &mut Lowerer<'_>,
    si: Word,
    img_ty: Word,
    coord: Word,
    ncoord: u32,
    lod: Word,
    offs: &[Word],
) -> LResult<Word> {
    l.cap(Capability::ImageQuery);
    let (u, f) = (l.u32(), l.f32());
    let img = l.op(Op::Image, img_ty, &[si])?;
    let zero = l.const_f32(0.0);
    let half = l.const_f32(0.5);
    let lod = l.glsl(rspirv::spirv::GlslStd450Op::NMax, f, &[lod, zero])?;
    let lod = l.op(Op::FAdd, f, &[lod, half])?;
    let level = l.op(Op::ConvertFToU, u, &[lod])?;
    let levels = l.op(Op::ImageQueryLevels, u, &[img])?;
    let one = l.const_u32(1);
    let last = l.op(Op::ISub, u, &[levels, one])?;
    let level = l.glsl(rspirv::spirv::GlslStd450Op::UMin, u, &[level, last])?;
    let st = if ncoord == 1 { u } else { l.vector(u, ncoord) };
    let size = l.op(Op::ImageQuerySizeLod, st, &[img, level])?;
    let sizes = components(l, u, size, ncoord)?;
    let mut c = components(l, f, coord, ncoord)?;
    for ((ck, &o), &sz) in c.iter_mut().zip(offs).zip(&sizes) {
        let of = l.op(Op::ConvertSToF, f, &[o])?;
        let sf = l.op(Op::ConvertUToF, f, &[sz])?;
        let d = l.op(Op::FDiv, f, &[of, sf])?;
        *ck = l.op(Op::FAdd, f, &[*ck, d])?;
    }
    compose(l, f, &c)
}

/// Constant texel offsets as a ConstOffset operand, `None` if all zero/undef.
fn const_offset(l: &mut Lowerer<'_>, vals: &[Value], n: u32) -> LResult<Option<Word>> {
    let mut lits = Vec::new();
    let mut any = false;
    for &v in vals.iter().take(n as usize) {
        if is_undef(l, v) {
            lits.push(0i32);
            continue;
        }
        let Some(c) = l.m.const_int(v) else { return unsupported("non-constant texel offset") };
        any |= c != 0;
        lits.push(c as i32);
    }
    if !any {
        return Ok(None);
    }
    let i = l.scalar(Scalar::I32);
    let ids: Vec<Word> = lits.iter().map(|&x| l.const_bits(i, false, x as u32 as u64)).collect();
    if n == 1 {
        return Ok(Some(ids[0]));
    }
    let t = l.vector(i, n);
    Ok(Some(l.const_composite(t, &ids)))
}

fn set_texel_parts(l: &mut Lowerer<'_>, i: InstId, h: HandleVal, texel: Word) -> LResult<()> {
    let st = l.res.info[h.res as usize].sampled.unwrap_or(Scalar::F32);
    let s = l.field_scalar(i)?;
    let used = l.used.get(i.index()).copied().unwrap_or(0);
    let mut parts = [0; 5];
    parts[4] = l.const_u32(0);
    for (k, p) in parts.iter_mut().enumerate().take(4) {
        if used & (1 << k) == 0 {
            continue;
        }
        *p = super::resources::texel_part(l, st, s, texel, k as u32)?;
    }
    l.set_parts(i, &parts);
    Ok(())
}

pub(super) fn sampled_image(l: &mut Lowerer<'_>, h: HandleVal, sampler: Value) -> LResult<(Word, Word)> {
    let (img, info) = l.load_image(h)?;
    let sh = l.handle(sampler)?;
    l.ensure_var(sh.res)?;
    let sinfo = l.res.info[sh.res as usize].clone();
    if l.decl(sh).kind != ResKind::Sampler {
        return malformed("sampler argument is not a sampler");
    }
    let sty = l.res.sampler_ty;
    let sp = l.descriptor_ptr(sh, sinfo.var, sty, StorageClass::UniformConstant)?;
    let s = l.load(sty, sp)?;
    let s_nonuniform = sh.nonuniform && sh.index.is_some();
    if s_nonuniform {
        l.nonuniform(s);
    }
    let sit = l.sampled_image_type(info.img_ty);
    let si = l.op(Op::SampledImage, sit, &[img, s])?;
    // The sampled image an image instruction consumes carries NonUniform when either descriptor
    // was picked per lane (drivers read the decoration on that operand).
    if s_nonuniform || (h.nonuniform && h.index.is_some()) {
        l.nonuniform(si);
    }
    Ok((si, info.img_ty))
}

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    let Some(&hv) = args.first() else { return malformed(format!("{} without handle", op.name())) };
    let h = l.handle(hv)?;
    let d = l.decl(h);
    if op == DxilOp::GetDimensions {
        return get_dimensions(l, i, h, args);
    }
    let (ncoord, nspatial, ms) = shape(d.kind)?;
    let u = l.u32();
    let f = l.f32();
    match op {
        DxilOp::TextureLoad => {
            if args.len() < 8 {
                return malformed("TextureLoad arguments");
            }
            let mut coord = gather_vec(l, u, &args[2..5], ncoord)?;
            let (img, info) = l.load_image(h)?;
            let st = info.sampled.unwrap_or(Scalar::F32);
            let stt = l.scalar(st);
            let v4 = l.vector(stt, 4);
            let uav = d.class == ResourceClass::Uav;
            let mut mask = ImageOperands::empty();
            let mut extra = Vec::new();
            if !uav && !ms && d.kind != ResKind::TypedBuffer {
                mask |= ImageOperands::LOD;
                let lod = if is_undef(l, args[1]) { l.const_u32(0) } else { l.value(args[1])? };
                extra.push(lod);
            }
            match tex_offset(l, &args[5..8], nspatial)? {
                TexOffset::None => {}
                _ if uav => return unsupported("texel offset on a UAV load"),
                TexOffset::Const(off) => {
                    mask |= ImageOperands::CONST_OFFSET;
                    extra.push(off);
                }
                TexOffset::Dynamic(offs) => coord = shift_int_coord(l, coord, ncoord, &offs)?,
            }
            if ms {
                mask |= ImageOperands::SAMPLE;
                extra.push(l.value(args[1])?);
            }
            let mut ops = vec![img, coord];
            if !mask.is_empty() {
                ops.push(mask.bits());
                ops.extend_from_slice(&extra);
            }
            let texel = l.op(if uav { Op::ImageRead } else { Op::ImageFetch }, v4, &ops)?;
            let texel = if l.robust_explicit() && !ms {
                let lod = if uav || d.kind == ResKind::TypedBuffer { None } else { extra.first().copied() };
                let inb = in_bounds(l, img, coord, ncoord, lod)?;
                l.zero_if_not(Some(inb), v4, texel)?
            } else {
                texel
            };
            set_texel_parts(l, i, h, texel)
        }
        DxilOp::TextureStore | DxilOp::TextureStoreSample => {
            let sample = op == DxilOp::TextureStoreSample;
            if args.len() < if sample { 10 } else { 9 } {
                return malformed(format!("{} arguments", op.name()));
            }
            if ms != sample {
                return malformed(format!("{} on {}", op.name(), d.kind.name()));
            }
            let coord = gather_vec(l, u, &args[1..4], ncoord)?;
            let (img, info) = l.load_image(h)?;
            let st = info.sampled.unwrap_or(Scalar::F32);
            let vt = l.m.value_type(l.f, args[4]);
            let Some(s) = l.scalar_of(vt) else { return malformed("TextureStore value type") };
            let mut comps = [0; 4];
            for (k, c) in comps.iter_mut().enumerate() {
                *c = if is_undef(l, args[4 + k]) {
                    let t = l.scalar(s);
                    l.null(t)
                } else {
                    l.value(args[4 + k])?
                };
            }
            let texel = super::resources::build_texel(l, s, st, comps)?;
            let sample = if sample { Some(l.value(args[9])?) } else { None };
            let write = move |l: &mut Lowerer<'_>| match sample {
                Some(idx) => l.op_void(Op::ImageWrite, &[img, coord, texel, ImageOperands::SAMPLE.bits(), idx]),
                None => l.op_void(Op::ImageWrite, &[img, coord, texel]),
            };
            if l.robust_explicit() {
                let inb = in_bounds(l, img, coord, ncoord, None)?;
                l.guarded(inb, write)
            } else {
                write(l)
            }
        }
        DxilOp::SampleLevel
        | DxilOp::SampleGrad
        | DxilOp::Sample
        | DxilOp::SampleBias
        | DxilOp::SampleCmp
        | DxilOp::SampleCmpLevelZero
        | DxilOp::SampleCmpLevel
        | DxilOp::SampleCmpGrad
        | DxilOp::SampleCmpBias => {
            if ms || d.kind == ResKind::TypedBuffer {
                return malformed("sampling a multisampled texture or buffer");
            }
            let cube = matches!(d.kind, ResKind::TextureCube | ResKind::TextureCubeArray);
            sample(l, i, op, args, h, (ncoord, nspatial, cube))
        }
        DxilOp::Texture2DMSGetSamplePosition => {
            if !ms {
                return malformed("GetSamplePosition on a texture that is not multisampled");
            }
            sample_position(l, i, h, args)
        }
        DxilOp::TextureGatherCmp => {
            let Some(&sampler) = args.get(1) else { return malformed("gather without sampler") };
            if args.len() < 10 {
                return malformed("TextureGatherCmp arguments");
            }
            if !matches!(
                d.kind,
                ResKind::Texture2D | ResKind::Texture2DArray | ResKind::TextureCube | ResKind::TextureCubeArray
            ) {
                return malformed("TextureGatherCmp on a texture that is not 2D or cube");
            }
            let coord = gather_vec(l, f, &args[2..6], ncoord)?;
            let (si, _) = sampled_image(l, h, sampler)?;
            if l.res.info[h.res as usize].sampled != Some(Scalar::F32) {
                // DXC's validator has no element-type rule for gathers; Vulkan compares depth only.
                return unsupported("TextureGatherCmp of a texture of integer element type");
            }
            let dref = float_operand(l, args[9])?;
            let v4 = l.vector(f, 4);
            let texel = match gather_offset(l, &args[6..8])? {
                Some((mask, off)) => l.op(Op::ImageDrefGather, v4, &[si, coord, dref, mask.bits(), off])?,
                None => l.op(Op::ImageDrefGather, v4, &[si, coord, dref])?,
            };
            set_texel_parts(l, i, h, texel)
        }
        DxilOp::CalculateLOD => {
            let Some(&sampler) = args.get(1) else { return malformed("CalculateLOD without sampler") };
            if args.len() < 6 {
                return malformed("CalculateLOD arguments");
            }
            if ms || d.kind == ResKind::TypedBuffer {
                return malformed("CalculateLOD on a multisampled texture or buffer");
            }
            match l.stage() {
                None | Some(crate::link::Stage::Mesh | crate::link::Stage::Amplification) => l.need_derivatives(),
                Some(crate::link::Stage::Pixel) => {}
                Some(_) => return unsupported("CalculateLOD outside a pixel or compute shader"),
            }
            l.cap(Capability::ImageQuery);
            let coord = gather_vec(l, f, &args[2..5], nspatial)?;
            let (si, _) = sampled_image(l, h, sampler)?;
            let v2 = l.vector(f, 2);
            let lod = l.op(Op::ImageQueryLod, v2, &[si, coord])?;
            // x: the LOD after clamping (CalculateLevelOfDetail), y: unclamped.
            let clamped = l.m.const_uint(args[5]).unwrap_or(1) != 0;
            let r = l.op(Op::CompositeExtract, f, &[lod, if clamped { 0 } else { 1 }])?;
            l.set_id(i, r);
            Ok(())
        }
        DxilOp::TextureGather | DxilOp::TextureGatherRaw => {
            let Some(&sampler) = args.get(1) else { return malformed("gather without sampler") };
            let raw = op == DxilOp::TextureGatherRaw;
            if args.len() < if raw { 8 } else { 9 } {
                return malformed(format!("{} arguments", op.name()));
            }
            if !matches!(
                d.kind,
                ResKind::Texture2D | ResKind::Texture2DArray | ResKind::TextureCube | ResKind::TextureCubeArray
            ) {
                return malformed("TextureGather on a texture that is not 2D or cube");
            }
            let coord = gather_vec(l, f, &args[2..6], ncoord)?;
            // GatherRaw: the raw bits of the one channel of an integer texture (its view format's
            // single component), so channel 0. 64-bit texels: D3D12 views the resource as
            // R32G32_UINT (DXC declares it u32), low word in R and high word in G, so two gathers
            // (channels 0 and 1) give the low and high words of the four texels.
            if raw && matches!(l.field_scalar(i)?, Scalar::U64 | Scalar::F64) {
                return gather_raw_64(l, i, h, sampler, coord, &args[6..8]);
            }
            let channel = if raw {
                0
            } else {
                let Some(c) = l.m.const_uint(args[8]) else {
                    return unsupported("TextureGather with a dynamic channel");
                };
                c
            };
            let (si, _) = sampled_image(l, h, sampler)?;
            let st = l.res.info[h.res as usize].sampled.unwrap_or(Scalar::F32);
            let stt = l.scalar(st);
            let v4 = l.vector(stt, 4);
            let comp = l.const_u32(channel as u32);
            let ops = [si, coord, comp];
            let texel = match tex_offset(l, &args[6..8], 2)? {
                TexOffset::None => l.op(Op::ImageGather, v4, &ops)?,
                TexOffset::Const(off) => {
                    l.op2(Op::ImageGather, v4, &ops, &[ImageOperands::CONST_OFFSET.bits(), off])?
                }
                TexOffset::Dynamic(offs) => {
                    l.cap(Capability::ImageGatherExtended);
                    let it = l.scalar(Scalar::I32);
                    let off = compose(l, it, &offs)?;
                    l.op2(Op::ImageGather, v4, &ops, &[ImageOperands::OFFSET.bits(), off])?
                }
            };
            set_texel_parts(l, i, h, texel)
        }
        _ => Err(Fail::Internal(format!("sampling::lower got {}", op.name()))),
    }
}

/// `TextureGatherRaw` of 64-bit texels on their R32G32_UINT view: channel 0 (low words) and
/// channel 1 (high words) of the four texels, joined into four u64 parts.
fn gather_raw_64(
    l: &mut Lowerer<'_>,
    i: InstId,
    h: HandleVal,
    sampler: Value,
    coord: Word,
    offsets: &[Value],
) -> LResult<()> {
    if l.res.info[h.res as usize].sampled.is_some_and(|s| s != Scalar::U32) {
        return unsupported("TextureGatherRaw of 64-bit texels from a texture not declared u32 (R32G32_UINT)");
    }
    let (si, _) = sampled_image(l, h, sampler)?;
    let u = l.u32();
    let v4 = l.vector(u, 4);
    let off = tex_offset(l, offsets, 2)?;
    let mut words = [0; 2];
    for (channel, w) in words.iter_mut().enumerate() {
        let comp = l.const_u32(channel as u32);
        let ops = [si, coord, comp];
        *w = match &off {
            TexOffset::None => l.op(Op::ImageGather, v4, &ops)?,
            TexOffset::Const(o) => l.op2(Op::ImageGather, v4, &ops, &[ImageOperands::CONST_OFFSET.bits(), *o])?,
            TexOffset::Dynamic(offs) => {
                l.cap(Capability::ImageGatherExtended);
                let it = l.scalar(Scalar::I32);
                let o = compose(l, it, offs)?;
                l.op2(Op::ImageGather, v4, &ops, &[ImageOperands::OFFSET.bits(), o])?
            }
        };
    }
    let s = l.field_scalar(i)?;
    let st = l.scalar(s);
    let u2 = l.vector(u, 2);
    let used = l.used.get(i.index()).copied().unwrap_or(0);
    let mut parts = [0; 5];
    parts[4] = l.const_u32(0);
    for (k, p) in parts.iter_mut().enumerate().take(4) {
        if used & (1 << k) == 0 {
            continue;
        }
        let lo = l.op(Op::CompositeExtract, u, &[words[0], k as u32])?;
        let hi = l.op(Op::CompositeExtract, u, &[words[1], k as u32])?;
        let pair = l.op(Op::CompositeConstruct, u2, &[lo, hi])?;
        *p = l.op(Op::Bitcast, st, &[pair])?;
    }
    l.set_parts(i, &parts);
    Ok(())
}

/// D3D's standard sample positions (1/16 pixel) for 1, 2, 4, 8 and 16 samples, back to back.
const SAMPLE_POSITIONS: [(i8, i8); 31] = [
    (0, 0),
    (4, 4),
    (-4, -4),
    (-2, -6),
    (6, -2),
    (-6, 2),
    (2, 6),
    (1, -3),
    (-1, 3),
    (5, 1),
    (-3, -5),
    (-5, 5),
    (-7, -1),
    (3, 7),
    (7, -7),
    (1, 1),
    (-1, -3),
    (-3, 2),
    (4, -1),
    (-5, -2),
    (2, 5),
    (5, 3),
    (3, -5),
    (-2, 6),
    (0, -7),
    (-4, -6),
    (-6, 4),
    (-8, 0),
    (7, -4),
    (6, 7),
    (-7, -8),
];

/// `Texture2DMSGetSamplePosition(srv, index)`: the standard pattern of the texture's sample
/// count (entries for n samples start at n - 1); (0, 0) for an index out of range.
fn sample_position(l: &mut Lowerer<'_>, i: InstId, h: HandleVal, args: &[Value]) -> LResult<()> {
    let Some(&index) = args.get(1) else { return malformed("GetSamplePosition without index") };
    let (img, _) = l.load_image(h)?;
    l.cap(Capability::ImageQuery);
    let u = l.u32();
    let count = l.op(Op::ImageQuerySamples, u, &[img])?;
    let idx = l.value(index)?;
    standard_sample_position(l, i, count, idx)
}

/// The position of sample `idx` in D3D's standard pattern of `count` samples ((0, 0) for an index
/// out of range or a count past 16), as the two parts of `i`.
pub(super) fn standard_sample_position(l: &mut Lowerer<'_>, i: InstId, count: Word, idx: Word) -> LResult<()> {
    let f = l.f32();
    let u = l.u32();
    let bt = l.bool();
    let v2 = l.vector(f, 2);
    let mut elems = Vec::with_capacity(SAMPLE_POSITIONS.len());
    for (x, y) in SAMPLE_POSITIONS {
        let cx = l.const_f32(f32::from(x) / 16.0);
        let cy = l.const_f32(f32::from(y) / 16.0);
        elems.push(l.const_composite(v2, &[cx, cy]));
    }
    let n = l.const_u32(SAMPLE_POSITIONS.len() as u32);
    let arr = l.new_type(Op::TypeArray, &[v2, n]);
    let table = l.const_composite(arr, &elems);
    let pt = l.pointer(StorageClass::Private, arr);
    let var = l.global_var(pt, StorageClass::Private, Some(table));
    let in_range = l.op(Op::ULessThan, bt, &[idx, count])?;
    let c16 = l.const_u32(16);
    let small = l.op(Op::ULessThanEqual, bt, &[count, c16])?;
    let ok = l.op(Op::LogicalAnd, bt, &[in_range, small])?;
    let one = l.const_u32(1);
    let base = l.op(Op::ISub, u, &[count, one])?;
    let at = l.op(Op::IAdd, u, &[base, idx])?;
    let zero = l.const_u32(0);
    let at = l.op(Op::Select, u, &[ok, at, zero])?;
    let ep = l.pointer(StorageClass::Private, v2);
    let p = l.access_chain(ep, var, &[at])?;
    let pos = l.load(v2, p)?;
    let z2 = l.null(v2);
    let pos = l.select(ok, v2, pos, z2)?;
    let mut parts = [0; 2];
    for (k, part) in parts.iter_mut().enumerate() {
        *part = l.op(Op::CompositeExtract, f, &[pos, k as u32])?;
    }
    l.set_parts(i, &parts);
    Ok(())
}

/// Gather offsets: ConstOffset when constant, else a programmable Offset
/// (`ImageGatherExtended`, which Vulkan allows on gathers only).
fn gather_offset(l: &mut Lowerer<'_>, vals: &[Value]) -> LResult<Option<(ImageOperands, Word)>> {
    if vals.iter().all(|v| is_undef(l, *v) || l.m.const_int(*v).is_some()) {
        return Ok(const_offset(l, vals, 2)?.map(|o| (ImageOperands::CONST_OFFSET, o)));
    }
    l.cap(Capability::ImageGatherExtended);
    let i = l.scalar(Scalar::I32);
    let mut ids = Vec::with_capacity(2);
    for &v in vals.iter().take(2) {
        ids.push(if is_undef(l, v) {
            l.null(i)
        } else {
            let x = l.value(v)?;
            l.op(Op::Bitcast, i, &[x])?
        });
    }
    if ids.len() != 2 {
        return malformed("gather offsets");
    }
    let v2 = l.vector(i, 2);
    let off = l.op(Op::CompositeConstruct, v2, &ids)?;
    Ok(Some((ImageOperands::OFFSET, off)))
}

/// A float operand as f32 (half operands are widened).
pub(super) fn float_operand(l: &mut Lowerer<'_>, v: Value) -> LResult<Word> {
    let x = l.value(v)?;
    let t = l.m.value_type(l.f, v);
    match l.scalar_of(t) {
        Some(Scalar::F32) => Ok(x),
        Some(Scalar::F16) => l.convert_scalar(Scalar::F16, Scalar::F32, x),
        _ => malformed("sampling operand is not a float"),
    }
}

/// The Sample* family: implicit LOD (pixel shaders), explicit LOD, gradients,
/// bias, LOD clamp, depth comparison.
fn sample(
    l: &mut Lowerer<'_>,
    i: InstId,
    op: DxilOp,
    args: &[Value],
    h: HandleVal,
    // Coordinate components, spatial (offset/gradient) components, cube texture.
    (ncoord, nspatial, cube): (u32, u32, bool),
) -> LResult<()> {
    use DxilOp::*;
    let need = match op {
        Sample | SampleLevel | SampleCmpLevelZero => 10,
        SampleBias | SampleCmp | SampleCmpLevel => 11,
        SampleCmpBias => 12,
        SampleGrad => 16,
        SampleCmpGrad => 17,
        _ => return Err(Fail::Internal(format!("sample got {}", op.name()))),
    };
    if args.len() < need {
        return malformed(format!("{} arguments", op.name()));
    }
    let implicit = matches!(op, Sample | SampleBias | SampleCmp | SampleCmpBias);
    if implicit {
        match l.stage() {
            // Compute, mesh, amplification: implicit LOD over the compute derivative groups.
            None | Some(crate::link::Stage::Mesh | crate::link::Stage::Amplification) => l.need_derivatives(),
            Some(crate::link::Stage::Pixel) => {}
            Some(_) => return unsupported(format!("{} (implicit LOD) outside a pixel or compute shader", op.name())),
        }
    }
    let f = l.f32();
    let sampler = args[1];
    let mut coord = gather_vec(l, f, &args[2..6], ncoord)?;
    let (si, img_ty) = sampled_image(l, h, sampler)?;
    let cmp = matches!(op, SampleCmp | SampleCmpLevelZero | SampleCmpLevel | SampleCmpGrad | SampleCmpBias);
    if cmp && l.res.info[h.res as usize].sampled != Some(Scalar::F32) {
        // The verifier's `dxop.sample-type` where it resolves the handle; here for the rest.
        return malformed(format!("{} of a texture of integer element type", op.name()));
    }
    let dref = if cmp { Some(float_operand(l, args[9])?) } else { None };
    let after = if cmp { 10 } else { 9 };
    // Image operands in SPIR-V bit order: Bias, Lod, Grad, ConstOffset, MinLod.
    let (mut bias, mut lod, mut grad, mut clamp) = (None, None, None, None);
    match op {
        Sample => clamp = Some(args[9]),
        SampleBias | SampleCmpBias => {
            bias = Some(float_operand(l, args[after])?);
            clamp = Some(args[after + 1]);
        }
        SampleCmp => clamp = Some(args[10]),
        SampleLevel => lod = Some(float_operand(l, args[9])?),
        SampleCmpLevelZero => lod = Some(l.const_f32(0.0)),
        SampleCmpLevel => lod = Some(float_operand(l, args[10])?),
        SampleGrad | SampleCmpGrad => {
            let dx = gather_vec(l, f, &args[after..after + 3], nspatial)?;
            let dy = gather_vec(l, f, &args[after + 3..after + 6], nspatial)?;
            grad = Some((dx, dy));
            clamp = Some(args[after + 6]);
        }
        _ => {}
    }
    let mut mask = ImageOperands::empty();
    let mut extra = Vec::new();
    if let Some(b) = bias {
        mask |= ImageOperands::BIAS;
        extra.push(b);
    }
    if let Some(x) = lod {
        mask |= ImageOperands::LOD;
        extra.push(x);
    }
    if let Some((dx, dy)) = grad {
        mask |= ImageOperands::GRAD;
        extra.push(dx);
        extra.push(dy);
    }
    match tex_offset(l, &args[6..9], nspatial)? {
        TexOffset::None => {}
        TexOffset::Const(off) => {
            mask |= ImageOperands::CONST_OFFSET;
            extra.push(off);
        }
        TexOffset::Dynamic(offs) => {
            // Vulkan allows a non-constant Offset only on gathers: move the coordinates by
            // offset / size of the level sampled (exact for one level; approximate when
            // filtering blends two).
            if cube {
                return malformed("texel offset on a cube texture");
            }
            let level = match (lod, grad) {
                (Some(x), _) => x,
                (None, Some(_)) => return unsupported("non-constant texel offset with gradients"),
                (None, None) => {
                    let v2 = l.vector(f, 2);
                    l.cap(Capability::ImageQuery);
                    let q = l.op(Op::ImageQueryLod, v2, &[si, coord])?;
                    let x = l.op(Op::CompositeExtract, f, &[q, 0])?;
                    match bias {
                        Some(b) => l.op(Op::FAdd, f, &[x, b])?,
                        None => x,
                    }
                }
            };
            coord = shift_float_coord(l, si, img_ty, coord, ncoord, level, &offs)?;
        }
    }
    if let Some(c) = clamp.filter(|c| !is_undef(l, *c)) {
        l.cap(Capability::MinLod);
        mask |= ImageOperands::MIN_LOD;
        extra.push(float_operand(l, c)?);
    }
    let mut ops = Vec::with_capacity(4 + extra.len());
    ops.extend_from_slice(&[si, coord]);
    if let Some(d) = dref {
        ops.push(d);
    }
    if !mask.is_empty() {
        ops.push(mask.bits());
        ops.extend_from_slice(&extra);
    }
    let sop = match (cmp, implicit) {
        (false, true) => Op::ImageSampleImplicitLod,
        (false, false) => Op::ImageSampleExplicitLod,
        (true, true) => Op::ImageSampleDrefImplicitLod,
        (true, false) => Op::ImageSampleDrefExplicitLod,
    };
    if cmp {
        let r = l.op(sop, f, &ops)?;
        let s = l.field_scalar(i)?;
        let mut parts = [0; 5];
        parts[0] = l.convert_scalar(Scalar::F32, s, r)?;
        let st = l.scalar(s);
        let z = l.null(st);
        parts[1..4].fill(z);
        parts[4] = l.const_u32(0);
        l.set_parts(i, &parts);
        return Ok(());
    }
    let st = l.res.info[h.res as usize].sampled.unwrap_or(Scalar::F32);
    let stt = l.scalar(st);
    let v4 = l.vector(stt, 4);
    let texel = l.op(sop, v4, &ops)?;
    set_texel_parts(l, i, h, texel)
}

/// `coord < size` on every component (and `lod < levels` when given).
pub(crate) fn in_bounds(l: &mut Lowerer<'_>, img: Word, coord: Word, n: u32, lod: Option<Word>) -> LResult<Word> {
    l.cap(Capability::ImageQuery);
    let u = l.u32();
    let bt = l.bool();
    let size_t = if n == 1 { u } else { l.vector(u, n) };
    let size = match lod {
        Some(lv) => l.op(Op::ImageQuerySizeLod, size_t, &[img, lv])?,
        None => l.op(Op::ImageQuerySize, size_t, &[img])?,
    };
    let mut ok = if n == 1 {
        l.op(Op::ULessThan, bt, &[coord, size])?
    } else {
        let bv = l.vector(bt, n);
        let lt = l.op(Op::ULessThan, bv, &[coord, size])?;
        l.op(Op::All, bt, &[lt])?
    };
    if let Some(lv) = lod {
        let levels = l.op(Op::ImageQueryLevels, u, &[img])?;
        let lok = l.op(Op::ULessThan, bt, &[lv, levels])?;
        ok = l.op(Op::LogicalAnd, bt, &[ok, lok])?;
    }
    Ok(ok)
}

fn get_dimensions(l: &mut Lowerer<'_>, i: InstId, h: HandleVal, args: &[Value]) -> LResult<()> {
    let d = l.decl(h);
    let u = l.u32();
    let undef = l.undef(u);
    let mut parts = [undef; 4];
    match d.kind {
        ResKind::RawBuffer | ResKind::StructuredBuffer => {
            let words = l.ssbo_len(h, false)?;
            let four = l.const_u32(4);
            let bytes = l.op(Op::IMul, u, &[words, four])?;
            parts[0] = if d.kind == ResKind::RawBuffer || d.stride == 0 {
                bytes
            } else {
                let s = l.const_u32(d.stride);
                l.op(Op::UDiv, u, &[bytes, s])?
            };
        }
        // A heap view with bounds (binding model) has the size of the view, not of the buffer.
        ResKind::TypedBuffer if h.bounds != 0 => parts[0] = l.bounds_count(h, super::Scalar::Void)?,
        ResKind::TypedBuffer => {
            let (img, _) = l.load_image(h)?;
            l.cap(Capability::ImageQuery);
            parts[0] = l.op(Op::ImageQuerySize, u, &[img])?;
        }
        k if k.is_texture() => {
            let (ncoord, _, ms) = shape(k)?;
            // Cube sizes have 2 spatial components (+ layers).
            let n = match k {
                ResKind::TextureCube => 2,
                ResKind::TextureCubeArray => 3,
                _ => ncoord,
            };
            let (img, _) = l.load_image(h)?;
            l.cap(Capability::ImageQuery);
            let uav = d.class == ResourceClass::Uav;
            let st = if n == 1 { u } else { l.vector(u, n) };
            let size = if uav || ms {
                l.op(Op::ImageQuerySize, st, &[img])?
            } else {
                let mip = match args.get(1) {
                    Some(&m) if !is_undef(l, m) => l.value(m)?,
                    _ => l.const_u32(0),
                };
                l.op(Op::ImageQuerySizeLod, st, &[img, mip])?
            };
            for (k, p) in parts.iter_mut().enumerate().take(n as usize) {
                *p = if n == 1 { size } else { l.op(Op::CompositeExtract, u, &[size, k as u32])? };
            }
            if ms {
                parts[3] = l.op(Op::ImageQuerySamples, u, &[img])?;
            } else if !uav {
                parts[3] = l.op(Op::ImageQueryLevels, u, &[img])?;
            }
        }
        k => return unsupported(format!("GetDimensions on {}", k.name())),
    }
    l.set_parts(i, &parts);
    Ok(())
}

impl Lowerer<'_> {
    pub(crate) fn sampled_image_type(&mut self, img: Word) -> Word {
        if let Some(&(_, t)) = self.res.sampled_image_types.iter().find(|(i, _)| *i == img) {
            return t;
        }
        let t = self.new_type(Op::TypeSampledImage, &[img]);
        self.res.sampled_image_types.push((img, t));
        t
    }
}
