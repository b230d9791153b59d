//! A DXBC container around a module: the `DXIL` part (program header and
//! bitcode), the `ISG1`/`OSG1`/`PSG1` signature parts made from the
//! module's signature metadata (as DXC lays them out), a library's `RDAT`
//! part ([`super::rdat`]), an `RTS0` root signature when one is given, and
//! the container digest.
//!
//! `PSV0`, `SFI0` and `HASH` are not made: nothing in dxjit, the spec runner
//! or the runtime reads them (`docs/asm.md`).

use crate::container::digest::dxbc_digest;
use crate::dxil::{ComponentType, DxilModuleInfo, SemanticKind, SignatureElement, TessDomain};
use crate::ShaderKind;

/// What goes into the container besides the program.
#[derive(Debug, Clone, Default)]
pub struct ContainerOptions {
    /// An `RTS0` payload (a serialized root signature) to embed.
    pub root_signature: Option<Vec<u8>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SigKind {
    Input,
    Output,
    PatchConstant,
}

/// Elements DXIL keeps out of container signatures (DXC's "NotInSig").
fn not_in_sig(stage: ShaderKind, sig: SigKind, kind: SemanticKind) -> bool {
    use SemanticKind::*;
    match kind {
        ViewID | DispatchThreadID | GroupID | GroupIndex | GroupThreadID => true,
        OutputControlPointID => stage == ShaderKind::Hull,
        DomainLocation => stage == ShaderKind::Domain,
        PrimitiveID => matches!(stage, ShaderKind::Hull | ShaderKind::Domain) && sig != SigKind::Output,
        GSInstanceID => stage == ShaderKind::Geometry,
        Coverage | InnerCoverage | CullPrimitive => stage == ShaderKind::Pixel && sig == SigKind::Input,
        StartVertexLocation | StartInstanceLocation => stage == ShaderKind::Vertex && sig == SigKind::Input,
        _ => false,
    }
}

/// The container's system value (`D3D_NAME`) of a semantic kind.
fn system_value(kind: SemanticKind, domain: Option<TessDomain>) -> u32 {
    use SemanticKind::*;
    match kind {
        Position => 1,
        ClipDistance => 2,
        CullDistance => 3,
        RenderTargetArrayIndex => 4,
        ViewPortArrayIndex => 5,
        VertexID => 6,
        PrimitiveID => 7,
        InstanceID => 8,
        IsFrontFace => 9,
        SampleIndex => 10,
        TessFactor => match domain {
            Some(TessDomain::Quad) => 11,
            Some(TessDomain::Tri) => 13,
            Some(TessDomain::IsoLine) => 16, // line density; the second row is the detail factor (15)
            _ => 0,
        },
        InsideTessFactor => match domain {
            Some(TessDomain::Quad) => 12,
            Some(TessDomain::Tri) => 14,
            _ => 0,
        },
        Barycentrics => 23,
        ShadingRate => 24,
        CullPrimitive => 25,
        Target => 64,
        Depth => 65,
        Coverage => 66,
        DepthGreaterEqual => 67,
        DepthLessEqual => 68,
        StencilRef => 69,
        InnerCoverage => 70,
        _ => 0,
    }
}

/// The container's component type (`DxilProgramSigCompType`).
fn comp_type(t: ComponentType, i1_unknown: bool) -> u32 {
    use ComponentType::*;
    match t {
        I1 if i1_unknown => 0,
        I1 | U32 | PackedS8x32 | PackedU8x32 => 1,
        I32 => 2,
        F32 => 3,
        U16 => 4,
        I16 => 5,
        F16 => 6,
        U64 => 7,
        I64 => 8,
        F64 => 9,
        _ => 0,
    }
}

/// The minimum precision (`DxilProgramSigMinPrecision`) of a component type
/// (16-bit types are minimum-precision types unless the module uses native
/// 16-bit types).
fn min_precision(t: ComponentType, native_16bit: bool) -> u32 {
    if native_16bit {
        return 0;
    }
    match t {
        ComponentType::F16 => 1,
        ComponentType::I16 => 4,
        ComponentType::U16 => 5,
        _ => 0,
    }
}

fn push_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn pad4(out: &mut Vec<u8>) {
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
}

/// A signature part (`ISG1`/`OSG1`/`PSG1`) for `elems`.
fn signature_part(info: &DxilModuleInfo, sig: SigKind, elems: &[SignatureElement]) -> Vec<u8> {
    let stage = info.shader_model.kind;
    let domain = info.main_entry().and_then(|e| e.properties.tess_domain());
    // Validators before 1.5 wrote fixed read/write masks and i1 as Unknown.
    let compat_1_4 = info.validator_version.is_some_and(|v| v < (1, 5));
    // Shader flag 23: native low precision (`-enable-16bit-types`).
    let native_16bit = info.main_entry().and_then(|e| e.properties.flags).is_some_and(|f| f & (1 << 23) != 0);
    let is_input = match sig {
        SigKind::Input => true,
        SigKind::Output => false,
        SigKind::PatchConstant => stage == ShaderKind::Domain,
    };
    struct Rec<'e> {
        stream: u32,
        name: &'e str,
        index: u32,
        sv: u32,
        comp: u32,
        register: u32,
        mask: u8,
        rw: u8,
        min_precision: u32,
    }
    let mut recs = Vec::new();
    for e in elems {
        if not_in_sig(stage, sig, e.semantic_kind) {
            continue;
        }
        let count = e.semantic_indices.len() as u32;
        let rows_each = e.rows.checked_div(count).unwrap_or(1);
        let mask = e.mask();
        let usage = e.usage_mask.unwrap_or(0) as u8;
        let usage = if e.is_allocated() { usage << e.start_col } else { usage };
        let rw = match (compat_1_4, is_input) {
            (true, true) => 0,
            (true, false) => !mask,
            (false, true) => usage,
            (false, false) => !usage & 0xF,
        };
        let mut sv = system_value(e.semantic_kind, domain);
        for (i, &index) in e.semantic_indices.iter().enumerate() {
            let register = if e.is_allocated() { e.start_row as u32 + i as u32 * rows_each } else { u32::MAX };
            recs.push(Rec {
                stream: e.stream(),
                name: &e.semantic_name,
                index,
                sv,
                comp: comp_type(e.component_type, compat_1_4),
                register,
                mask,
                rw,
                min_precision: min_precision(e.component_type, native_16bit),
            });
            if sv == 16 {
                sv = 15;
            }
        }
    }
    // Names follow the records in element order: each once (validators
    // before 1.5: once per record).
    let mut names: Vec<(&str, u32)> = Vec::new();
    let mut at = 8 + 32 * recs.len() as u32;
    let mut named: Vec<(Rec, u32)> = Vec::with_capacity(recs.len());
    for r in recs {
        let off = match names.iter().find(|n| n.0 == r.name && !compat_1_4) {
            Some(n) => n.1,
            None => {
                names.push((r.name, at));
                at += r.name.len() as u32 + 1;
                at - r.name.len() as u32 - 1
            }
        };
        named.push((r, off));
    }
    // Records by stream and register (unpacked ones last), element order kept.
    named.sort_by_key(|(r, _)| (r.stream, r.register));
    let mut out = Vec::new();
    push_u32(&mut out, named.len() as u32);
    push_u32(&mut out, 8);
    for (r, name) in &named {
        push_u32(&mut out, r.stream);
        push_u32(&mut out, *name);
        push_u32(&mut out, r.index);
        push_u32(&mut out, r.sv);
        push_u32(&mut out, r.comp);
        push_u32(&mut out, r.register);
        out.push(r.mask);
        out.push(r.rw);
        out.extend_from_slice(&[0, 0]);
        push_u32(&mut out, r.min_precision);
    }
    for (n, _) in &names {
        out.extend_from_slice(n.as_bytes());
        out.push(0);
    }
    if !compat_1_4 {
        pad4(&mut out);
    }
    out
}

/// The `DXIL` part: program header, bitcode header, bitcode.
fn program_part(info: &DxilModuleInfo, bitcode: &[u8]) -> Vec<u8> {
    let sm = &info.shader_model;
    let kind = (0..16u32).find(|&k| ShaderKind::from_u32(k) == Some(sm.kind)).unwrap_or(0);
    let mut bc = bitcode.to_vec();
    pad4(&mut bc);
    let mut out = Vec::with_capacity(24 + bc.len());
    push_u32(&mut out, (kind << 16) | ((sm.major & 0xF) << 4) | (sm.minor & 0xF));
    push_u32(&mut out, ((24 + bc.len()) / 4) as u32);
    out.extend_from_slice(b"DXIL");
    push_u32(&mut out, ((info.dxil_version.0 & 0xFF) << 8) | (info.dxil_version.1 & 0xFF));
    push_u32(&mut out, 16);
    push_u32(&mut out, bc.len() as u32);
    out.extend_from_slice(&bc);
    out
}

/// A DXBC container for `bitcode`, whose module's metadata is `info`, with the `RDAT`
/// payload `runtime_data` (libraries).
pub fn build_container(
    info: &DxilModuleInfo,
    bitcode: &[u8],
    runtime_data: Option<&[u8]>,
    opts: &ContainerOptions,
) -> Vec<u8> {
    let mut parts: Vec<([u8; 4], Vec<u8>)> = Vec::new();
    if let Some(main) = info.main_entry().filter(|_| info.shader_model.kind != ShaderKind::Library) {
        parts.push((*b"ISG1", signature_part(info, SigKind::Input, &main.inputs)));
        parts.push((*b"OSG1", signature_part(info, SigKind::Output, &main.outputs)));
        let pc = matches!(info.shader_model.kind, ShaderKind::Hull | ShaderKind::Domain);
        if pc || !main.patch_constants.is_empty() {
            parts.push((*b"PSG1", signature_part(info, SigKind::PatchConstant, &main.patch_constants)));
        }
    }
    if let Some(rdat) = runtime_data {
        parts.push((*b"RDAT", rdat.to_vec()));
    }
    if let Some(rs) = &opts.root_signature {
        let mut p = rs.clone();
        pad4(&mut p);
        parts.push((*b"RTS0", p));
    }
    parts.push((*b"DXIL", program_part(info, bitcode)));
    let header = 32 + 4 * parts.len();
    let total = header + parts.iter().map(|p| 8 + p.1.len()).sum::<usize>();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    push_u32(&mut out, total as u32);
    push_u32(&mut out, parts.len() as u32);
    let mut at = header;
    for p in &parts {
        push_u32(&mut out, at as u32);
        at += 8 + p.1.len();
    }
    for (fourcc, data) in &parts {
        out.extend_from_slice(fourcc);
        push_u32(&mut out, data.len() as u32);
        out.extend_from_slice(data);
    }
    let digest = dxbc_digest(&out[20..]);
    out[4..20].copy_from_slice(&digest);
    out
}
