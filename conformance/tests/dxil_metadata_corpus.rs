//! The DXIL metadata decoder over the whole corpus: every module decodes,
//! agrees with its manifest (stage, shader model, entry points), carries the
//! state its stage needs, and its signatures agree, record for record, with
//! the container's ISG1/OSG1/PSG1 parts.
//!
//! The signature parts are parsed here, minimally and independently of the
//! container API, so the check compares two separately-written readings.

use dxjit::dxil::{self, ComponentType, DxilModuleInfo, SemanticKind, SignatureElement, TessDomain};
use dxjit::ShaderKind;
use dxjit_conformance::corpus::Corpus;

/// One 32-byte record of a container signature part (`DxilProgramSignatureElement`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct SigRecord {
    stream: u32,
    register: u32,
    name: String,
    index: u32,
    system_value: u32,
    mask: u8,
    comp_type: u32,
    rw_mask: u8,
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// The payload of the container part with the given four-character code.
fn part<'a>(container: &'a [u8], fourcc: &[u8; 4]) -> Option<&'a [u8]> {
    let count = u32_at(container, 28)? as usize;
    (0..count).find_map(|i| {
        let off = u32_at(container, 32 + 4 * i)? as usize;
        if container.get(off..off + 4)? != fourcc {
            return None;
        }
        let size = u32_at(container, off + 4)? as usize;
        container.get(off + 8..off + 8 + size)
    })
}

/// Parses a signature part: u32 count, u32 offset of the records, then
/// 32-byte records whose name offsets are relative to the part payload.
fn parse_sig_part(p: &[u8]) -> Result<Vec<SigRecord>, String> {
    let count = u32_at(p, 0).ok_or("short header")? as usize;
    let offset = u32_at(p, 4).ok_or("short header")? as usize;
    (0..count)
        .map(|i| {
            let r = offset + 32 * i;
            let rec = p.get(r..r + 32).ok_or_else(|| format!("record {i} out of bounds"))?;
            let name_off = u32_at(rec, 4).unwrap_or(0) as usize;
            let tail = p.get(name_off..).ok_or_else(|| format!("record {i}: name offset out of bounds"))?;
            let end = tail.iter().position(|&c| c == 0).ok_or("unterminated name")?;
            Ok(SigRecord {
                stream: u32_at(rec, 0).unwrap_or(0),
                name: String::from_utf8_lossy(&tail[..end]).into_owned(),
                index: u32_at(rec, 8).unwrap_or(0),
                system_value: u32_at(rec, 12).unwrap_or(0),
                comp_type: u32_at(rec, 16).unwrap_or(0),
                register: u32_at(rec, 20).unwrap_or(0),
                mask: rec[24],
                rw_mask: rec[25],
            })
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum SigKind {
    Input,
    Output,
    PatchConstant,
}

/// Elements that DXIL keeps out of container signatures ("NotInSig" in
/// DXC's semantic interpretation table); DXC does not normally list them
/// in metadata either, but if it does they must not be expected.
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

/// The container's system-value code (`D3D_NAME`) for a semantic kind.
fn container_sv(kind: SemanticKind, domain: Option<TessDomain>) -> u32 {
    use SemanticKind::*;
    match kind {
        Arbitrary | Invalid => 0,
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
            Some(TessDomain::IsoLine) => 16, // density; later rows are "detail" (15)
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
        _ => u32::MAX, // not expected in a container signature
    }
}

/// The container's component-type code (`DxilProgramSigCompType`).
fn container_comp_type(t: ComponentType, i1_unknown: bool) -> u32 {
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

struct Expectation {
    stage: ShaderKind,
    domain: Option<TessDomain>,
    /// Validator < 1.5 wrote fixed read/write masks and i1 as Unknown.
    compat_1_4: bool,
}

/// The container records a metadata signature expands to.
fn expected_records(x: &Expectation, sig: SigKind, elems: &[SignatureElement], skipped: &mut usize) -> Vec<SigRecord> {
    let is_input = match sig {
        SigKind::Input => true,
        SigKind::Output => false,
        SigKind::PatchConstant => x.stage == ShaderKind::Domain,
    };
    let mut out = Vec::new();
    for e in elems {
        if not_in_sig(x.stage, sig, e.semantic_kind) {
            *skipped += 1;
            continue;
        }
        let count = e.semantic_indices.len() as u32;
        let rows_each = e.rows.checked_div(count).unwrap_or(1);
        let mask = e.mask();
        let usage = e.usage_mask.unwrap_or(0) as u8;
        let usage = if e.is_allocated() { usage << e.start_col } else { usage };
        let rw_mask = match (x.compat_1_4, is_input) {
            (true, true) => 0,
            (true, false) => !mask,
            (false, true) => usage,
            (false, false) => !usage & 0xF,
        };
        let mut sv = container_sv(e.semantic_kind, x.domain);
        for (i, &index) in e.semantic_indices.iter().enumerate() {
            let register = if e.is_allocated() { e.start_row as u32 + i as u32 * rows_each } else { u32::MAX };
            out.push(SigRecord {
                stream: e.stream(),
                register,
                name: e.semantic_name.to_string(),
                index,
                system_value: sv,
                mask,
                comp_type: container_comp_type(e.component_type, x.compat_1_4),
                rw_mask,
            });
            if sv == 16 {
                sv = 15;
            }
        }
    }
    out.sort();
    out
}

fn escape_name(s: &str) -> String {
    s.replace('\u{1}', "\\01")
}

#[derive(Default)]
struct Counts {
    modules: usize,
    with_sig_parts: usize,
    parts_compared: usize,
    elements: usize,
    records: usize,
    skipped_not_in_sig: usize,
    rw_masks_checked: usize,
}

fn check_module(
    set: &str,
    e: &dxjit_conformance::corpus::Entry,
    bytes: &[u8],
    info: &DxilModuleInfo,
    m: &dxjit::ir::Module,
    c: &mut Counts,
) -> Vec<String> {
    let mut errs = Vec::new();
    let ctx = format!("{set}/{}", e.dxil_path);
    let sm = &info.shader_model;
    if sm.kind.name() != e.stage {
        errs.push(format!("{ctx}: stage {} != manifest {}", sm.kind.name(), e.stage));
    }
    if format!("{}.{}", sm.major, sm.minor) != e.shader_model {
        errs.push(format!("{ctx}: shader model {sm} != manifest {}", e.shader_model));
    }
    let mut names: Vec<String> = info.functions().map(|ep| escape_name(&ep.name)).collect();
    let mut want = e.entry_points.clone();
    names.sort();
    want.sort();
    if names != want {
        errs.push(format!("{ctx}: entry points {names:?} != manifest {want:?}"));
    }
    let Some(main) = info.main_entry() else {
        errs.push(format!("{ctx}: no entry point with a function"));
        return errs;
    };
    let props = &main.properties;
    match sm.kind {
        ShaderKind::Compute if props.num_threads.is_none() => {
            errs.push(format!("{ctx}: compute shader without numthreads"))
        }
        ShaderKind::Hull => match &props.hs {
            None => errs.push(format!("{ctx}: hull shader without HS state")),
            Some(hs) => match hs.patch_constant_function {
                Some(f) if f.index() < m.functions.len() && !m.functions[f.index()].is_declaration => {}
                other => errs.push(format!("{ctx}: HS patch-constant function {other:?} is not a defined function")),
            },
        },
        ShaderKind::Domain if props.ds.is_none() => errs.push(format!("{ctx}: domain shader without DS state")),
        ShaderKind::Geometry if props.gs.is_none() => errs.push(format!("{ctx}: geometry shader without GS state")),
        ShaderKind::Mesh if props.ms.is_none() => errs.push(format!("{ctx}: mesh shader without MS state")),
        ShaderKind::Amplification if props.amp.is_none() => {
            errs.push(format!("{ctx}: amplification shader without AS state"))
        }
        _ => {}
    }

    // Signatures against the container parts.
    let x = Expectation {
        stage: sm.kind,
        domain: props.tess_domain(),
        compat_1_4: info.validator_version.is_some_and(|v| v < (1, 5)),
    };
    let parts = [
        (b"ISG1", SigKind::Input, &main.inputs),
        (b"OSG1", SigKind::Output, &main.outputs),
        (b"PSG1", SigKind::PatchConstant, &main.patch_constants),
    ];
    let mut any = false;
    for (fourcc, kind, elems) in parts {
        let fourcc_s = String::from_utf8_lossy(fourcc).into_owned();
        let Some(p) = part(bytes, fourcc) else {
            if !elems.is_empty() {
                errs.push(format!(
                    "{ctx}: metadata has a {fourcc_s} signature ({} elements) but the container has no part",
                    elems.len()
                ));
            }
            continue;
        };
        any = true;
        let mut got = match parse_sig_part(p) {
            Ok(g) => g,
            Err(err) => {
                errs.push(format!("{ctx}: {fourcc_s}: {err}"));
                continue;
            }
        };
        got.sort();
        let want = expected_records(&x, kind, elems, &mut c.skipped_not_in_sig);
        c.parts_compared += 1;
        c.elements += elems.len();
        c.records += got.len();
        if !x.compat_1_4 {
            c.rw_masks_checked += got.len();
        }
        if got != want {
            errs.push(format!("{ctx}: {fourcc_s} differs:\n  container: {got:?}\n  metadata:  {want:?}"));
        }
    }
    if any {
        c.with_sig_parts += 1;
    }
    errs
}

#[test]
fn dxil_metadata_agrees_with_corpus() {
    let Some(corpus) = Corpus::for_test("dxil_metadata_agrees_with_corpus") else {
        return;
    };
    let mut failures = Vec::new();
    let mut c = Counts::default();
    for (set, e) in corpus.entries() {
        let bytes = std::fs::read(set.path_of(e)).expect("corpus file readable");
        c.modules += 1;
        let ctx = format!("{}/{}", set.name, e.dxil_path);
        let Some(bc) = bitcode_of(&bytes) else {
            failures.push(format!("{ctx}: no DXIL part"));
            continue;
        };
        let m = match dxjit::bitcode::read_module(bc) {
            Ok(m) => m,
            Err(err) => {
                failures.push(format!("{ctx}: read: {err}"));
                continue;
            }
        };
        match dxil::decode(&m) {
            Ok(info) => failures.extend(check_module(&set.name, e, &bytes, &info, &m, &mut c)),
            Err(err) => failures.push(format!("{ctx}: decode: {err}")),
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!(
        "dxil metadata: {} modules decoded; signatures: {} modules with signature parts, {} parts, {} metadata elements, {} container records agree ({} with read/write masks checked), {} not-in-signature elements skipped",
        c.modules, c.with_sig_parts, c.parts_compared, c.elements, c.records, c.rw_masks_checked, c.skipped_not_in_sig
    );
    assert!(failures.is_empty(), "{} problems in {} modules", failures.len(), c.modules);
}

fn bitcode_of(bytes: &[u8]) -> Option<&[u8]> {
    Some(dxjit::container::Container::parse(bytes).ok()?.dxil_program().ok()?.bitcode)
}
