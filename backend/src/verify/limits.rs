//! DXIL metadata and D3D12's limits: what a shader may declare.
//!
//! The figures are D3D12's (`D3D12_CS_THREAD_GROUP_MAX_*`,
//! `D3D12_CS_TGSM_REGISTER_COUNT` × 4 bytes, 4096 indexable temp registers
//! of 4 × 32 bits, `D3D12_GS_MAX_OUTPUT_VERTEX_COUNT_ACROSS_INSTANCES`
//! scalars, 32 control points, tessellation factors in 1..64, 32 signature
//! rows of 4 components; mesh and amplification shaders: 128 threads, 256
//! vertices and primitives, 16 KiB payload).

use super::{cold, err, Result};
use crate::dxil::{Binding, DxilModuleInfo, EntryPoint, ResourceClass, ResourceKind, SemanticKind, SignatureElement};
use crate::ir::{FuncId, InstId, Module, Type, TypeId};
use crate::ShaderKind;

pub const MAX_THREADS: u64 = 1024;
pub const MAX_THREADS_XYZ: [u32; 3] = [1024, 1024, 64];
pub const MAX_MESH_THREADS: u64 = 128;
pub const MAX_GROUPSHARED_BYTES: u64 = 32 * 1024;
/// 4096 indexable temporary registers of 16 bytes.
pub const MAX_LOCAL_BYTES: u64 = 4096 * 16;
pub const MAX_GS_OUTPUT_SCALARS: u64 = 1024;
pub const MAX_GS_INSTANCES: u32 = 32;
pub const MAX_CONTROL_POINTS: u32 = 32;
pub const MAX_TESS_FACTOR: f32 = 64.0;
pub const MAX_MESH_OUTPUTS: u32 = 256;
pub const MAX_PAYLOAD_BYTES: u32 = 16 * 1024;
pub const SIGNATURE_ROWS: i64 = 32;

/// `allocas`: every `alloca` of the module's defined functions, in function and then
/// instruction order ([`allocas`] finds them; the verifier's walk notes them).
///
/// Nearly every module keeps every rule: [`fits`] says so in one compact pass that builds no
/// error and takes few branches; only a module it does not vouch for goes through the rules
/// one by one ([`rule_by_rule`]), which name the first broken rule (or find none).
pub(crate) fn verify_module(m: &Module, info: &DxilModuleInfo, allocas: &[(FuncId, InstId)]) -> Result<()> {
    if fits(m, info, allocas) {
        return Ok(());
    }
    rule_by_rule(m, info, allocas)
}

/// Whether [`rule_by_rule`] finds no broken rule, as a yes (for certain) or a no (a rule is
/// broken, or the module is of the one kind this pass leaves to the rules: a groupshared
/// global in a library, whose entries' reach the rules work out). The same rules as plain tests over the same data, with no error message to
/// build: signature elements in one loop per signature (size, packing, overlap, system
/// values), the stage records through [`entry_limits`] only where the entry has one.
#[inline(never)]
pub(super) fn fits(m: &Module, info: &DxilModuleInfo, allocas: &[(FuncId, InstId)]) -> bool {
    let program = info.shader_model.kind;
    let eps = &info.entry_points;
    for (i, ep) in eps.iter().enumerate() {
        let Some(function) = ep.function else { continue };
        let kind = ep.properties.shader_kind.unwrap_or(program);
        if program != ShaderKind::Library && kind != program {
            return false;
        }
        if eps[..i].iter().any(|e| e.function == Some(function)) {
            return false;
        }
        let [inputs, outputs, patch] = allowed_semantics(kind);
        let fit = entry_fits(ep, kind, &Place { index: i, name: &ep.name })
            && signature_fits(&ep.inputs, inputs)
            && signature_fits(&ep.outputs, outputs)
            && signature_fits(&ep.patch_constants, patch)
            && (kind != ShaderKind::Pixel || ps_outputs_fit(&ep.outputs));
        if !fit {
            return false;
        }
    }
    resources_fit(m, &info.resources)
        && eps.iter().all(|e| e.resources.as_ref().is_none_or(|r| resources_fit(m, r)))
        && memory_fits(m, info, allocas)
}

/// [`resources`]' verdict on one resource list.
#[inline(never)]
fn resources_fit(m: &Module, res: &crate::dxil::Resources) -> bool {
    !res.uavs.iter().any(|u| matches!(u.kind, ResourceKind::TextureCube | ResourceKind::TextureCubeArray))
        && res.srvs.iter().all(|r| range_fits(m, &r.binding))
        && res.uavs.iter().all(|r| range_fits(m, &r.binding))
        && res.cbvs.iter().all(|r| range_fits(m, &r.binding))
        && res.samplers.iter().all(|r| range_fits(m, &r.binding))
}

/// A range without a global, or of its global's element count ([`resources`]).
#[inline(always)]
fn range_fits(m: &Module, b: &Binding) -> bool {
    range_mismatch(m, b).is_none()
}

/// A range's global and its element count, where that is not the range's size (an unbounded
/// range: a `[0 x T]` global); none for a range without a global.
#[inline(always)]
fn range_mismatch<'m>(m: &'m Module, b: &Binding) -> Option<(&'m crate::ir::Global, u64)> {
    let g = b.global.and_then(|g| m.globals.get(g.index()))?;
    let count = global_count(m, g.value_ty);
    (count != b.range_size.map_or(0, u64::from)).then_some((g, count))
}

/// The element count of a global of type `t`: 1 for a scalar, `n` for `[n x T]` (nested
/// arrays multiplied).
fn global_count(m: &Module, mut t: TypeId) -> u64 {
    let mut count = 1u64;
    while let Some(Type::Array { len, elem }) = m.types.list.get(t.0 as usize) {
        count = count.saturating_mul(*len);
        t = *elem;
    }
    count
}

/// [`entry_limits`]' verdict: for an entry without GS, HS, DS, MS or AS state (most), its thread
/// counts alone.
#[inline(always)]
fn entry_fits(ep: &EntryPoint, kind: ShaderKind, place: &Place<'_>) -> bool {
    let p = &ep.properties;
    if p.gs.is_some() || p.hs.is_some() || p.ds.is_some() || p.ms.is_some() || p.amp.is_some() {
        return entry_limits(ep, kind, place).is_ok();
    }
    p.num_threads.is_none_or(|n| threads_fit(n, kind))
}

/// [`signature`]'s and [`semantics`]' verdict on one signature (`allowed`: the system values it
/// may hold, [`allowed_semantics`]).
#[inline(never)]
fn signature_fits(elems: &[SignatureElement], allowed: u64) -> bool {
    let mut used = [0u128; 4];
    for (k, e) in elems.iter().enumerate() {
        let shaped = (e.id as usize == k)
            & (e.rows.wrapping_sub(1) < SIGNATURE_ROWS as u32)
            & (e.cols.wrapping_sub(1) < 4)
            & (allowed >> (e.semantic_kind as u32 & 63) & 1 != 0);
        if !shaped {
            return false;
        }
        if !e.is_allocated() {
            continue;
        }
        let (row, col) = (i64::from(e.start_row), i64::from(e.start_col));
        if col < 0 || col + i64::from(e.cols) > 4 || row + i64::from(e.rows) > SIGNATURE_ROWS {
            return false;
        }
        let Some(cells) = used.get_mut(e.stream() as usize) else { return false };
        let cover = ((ROW_ONES >> (4 * (SIGNATURE_ROWS as u32 - e.rows))) * u128::from(e.mask())) << (4 * row as u32);
        if *cells & cover != 0 {
            return false;
        }
        *cells |= cover;
    }
    true
}

/// [`ps_scalar_outputs`]' and the render-target rule's verdict on a pixel shader's outputs.
#[inline(always)]
fn ps_outputs_fit(outputs: &[SignatureElement]) -> bool {
    use SemanticKind as S;
    let (mut scalars, mut targets) = (0u32, 0u32);
    for e in outputs {
        let bit = match e.semantic_kind {
            S::Depth | S::DepthLessEqual | S::DepthGreaterEqual => 1,
            S::Coverage => 2,
            S::StencilRef => 4,
            S::Target => {
                let indices: &[u32] = if e.semantic_indices.is_empty() { &[0] } else { &e.semantic_indices };
                for &ix in indices {
                    if ix >= 8 || targets & 1 << ix != 0 {
                        return false;
                    }
                    targets |= 1 << ix;
                }
                continue;
            }
            _ => continue,
        };
        if scalars & bit != 0 || e.rows != 1 || e.cols != 1 {
            return false;
        }
        scalars |= bit;
    }
    true
}

/// [`memory`]'s verdict, for a module whose groupshared globals (if any) are in a program of a
/// stage that has groupshared memory (others: no, for [`memory`] to say).
#[inline(always)]
fn memory_fits(m: &Module, info: &DxilModuleInfo, allocas: &[(FuncId, InstId)]) -> bool {
    let (mut shared, mut private) = (0u64, 0u64);
    for g in &m.globals {
        match g.addr_space {
            3 if has_groupshared(info.shader_model.kind) => shared = shared.saturating_add(size_of(m, g.value_ty, 0)),
            3 => return false,
            0 if !g.is_const => private = private.saturating_add(size_of(m, g.value_ty, 0)),
            _ => {}
        }
    }
    // (The sums only grow: below the limits at the end, below them at every step.)
    if shared > MAX_GROUPSHARED_BYTES || private > MAX_LOCAL_BYTES {
        return false;
    }
    local_overflow(m, private, allocas).is_none()
}

/// The first `alloca` at which a function's local arrays (`private` bytes of static arrays,
/// then its allocas in order) pass [`MAX_LOCAL_BYTES`]: the function, the instruction and the
/// bytes reached.
fn local_overflow(m: &Module, private: u64, allocas: &[(FuncId, InstId)]) -> Option<(FuncId, InstId, u64)> {
    let (mut local, mut cur) = (private, None);
    for &(fi, i) in allocas {
        if cur != Some(fi) {
            (local, cur) = (private, Some(fi));
        }
        let Some(f) = m.functions.get(fi.index()) else { continue };
        let Some(crate::ir::InstKind::Alloca { alloc_ty, count, .. }) = f.insts.get(i.index()).map(|x| &x.kind) else {
            continue;
        };
        let n = m.const_uint(*count).unwrap_or(1);
        local = local.saturating_add(size_of(m, *alloc_ty, 0).saturating_mul(n));
        if local > MAX_LOCAL_BYTES {
            return Some((fi, i, local));
        }
    }
    None
}

/// The stages with thread-group shared memory ([`groupshared_stages`]).
fn has_groupshared(k: ShaderKind) -> bool {
    matches!(k, ShaderKind::Compute | ShaderKind::Mesh | ShaderKind::Amplification | ShaderKind::Node)
}

/// Every rule of [`verify_module`] in turn: the first broken one is the verdict.
#[cold]
#[inline(never)]
pub(super) fn rule_by_rule(m: &Module, info: &DxilModuleInfo, allocas: &[(FuncId, InstId)]) -> Result<()> {
    for (i, ep) in info.entry_points.iter().enumerate() {
        let Some(function) = ep.function else { continue };
        let kind = ep.properties.shader_kind.unwrap_or(info.shader_model.kind);
        let place = Place { index: i, name: &ep.name };
        // One entry record per function: the stage rules check a function's ops against its
        // record's shader kind, so a second record (another kind, another export name) would
        // lower the same body as a stage never checked (DXC's validator: one entry-property
        // record per function).
        if let Some(j) = info.entry_points[..i].iter().position(|e| e.function == Some(function)) {
            return Err(cold(|| {
                err(
                    "entry.function",
                    String::from(&place),
                    format!("names the function of dx.entryPoints[{j}] `{}` again", info.entry_points[j].name),
                )
            }));
        }
        // A shader (not a library) runs in its program's stage: an entry record naming another
        // kind would lower the body as a stage whose ops were never checked against it (the
        // stage rules take a shader's ops from the program's kind).
        if info.shader_model.kind != ShaderKind::Library && kind != info.shader_model.kind {
            return Err(cold(|| {
                err(
                    "entry.kind",
                    String::from(&place),
                    format!("is a {} shader in a {} program", kind.name(), info.shader_model.kind.name()),
                )
            }));
        }
        entry_limits(ep, kind, &place)?;
        signatures(ep, kind, &place)?;
    }
    resources(m, info)?;
    memory(m, info, allocas)
}

/// Every `alloca` of the module's defined functions, in function and instruction order.
#[cfg(test)]
pub(crate) fn allocas(m: &Module) -> Vec<(FuncId, InstId)> {
    let mut v = Vec::new();
    for (fi, f) in m.functions.iter().enumerate().filter(|(_, f)| !f.is_declaration) {
        for (i, inst) in f.insts.iter().enumerate() {
            if matches!(inst.kind, crate::ir::InstKind::Alloca { .. }) {
                v.push((FuncId(fi as u32), InstId(i as u32)));
            }
        }
    }
    v
}

/// Where an entry point breaks a rule: "dx.entryPoints[0] `main`", formatted
/// only for an error message.
struct Place<'a> {
    index: usize,
    name: &'a str,
}

impl std::fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "dx.entryPoints[{}] `{}`", self.index, self.name)
    }
}

impl From<&Place<'_>> for String {
    fn from(p: &Place<'_>) -> String {
        p.to_string()
    }
}

/// The resource lists: no UAV of a kind D3D12 has no unordered-access view for (cube
/// textures); a range's size is its global's element count (libraries declare resources as
/// globals): a scalar for one register, `[n x T]` (nested arrays multiplied) for `n`, `[0 x T]`
/// for an unbounded range. Lowering takes the array from the global and the binding from the
/// range.
fn resources(m: &Module, info: &DxilModuleInfo) -> Result<()> {
    let lists = std::iter::once(&info.resources).chain(info.entry_points.iter().filter_map(|e| e.resources.as_ref()));
    for res in lists {
        if let Some(u) =
            res.uavs.iter().find(|u| matches!(u.kind, ResourceKind::TextureCube | ResourceKind::TextureCubeArray))
        {
            return Err(uav_kind_error(u));
        }
        for (class, b) in res.bindings() {
            if let Some((g, count)) = range_mismatch(m, b) {
                return Err(range_size_error(class, b, &g.name, count));
            }
        }
    }
    Ok(())
}

#[cold]
fn uav_kind_error(u: &crate::dxil::Uav) -> super::VerifyError {
    err(
        "resource.uav-kind",
        format!("UAV {} `{}`", u.binding.id, u.binding.name),
        format!("a {} cannot be an unordered-access view", u.kind.short_name()),
    )
}

#[cold]
fn range_size_error(class: ResourceClass, b: &Binding, global: &str, count: u64) -> super::VerifyError {
    err(
        "resource.range-size",
        format!("{} {} `{}`", class.name(), b.id, b.name),
        format!(
            "range {} of {} registers, its global `{global}` holds {count}",
            b.register_range(class.register_letter()),
            b.range_size.map_or("unbounded".to_string(), |n| n.to_string()),
        ),
    )
}

/// Thread counts `n` within D3D12's limits for a `kind` shader: each at least 1, at most 1024,
/// 1024, 64, product at most 1024 (128 in mesh and amplification shaders).
#[inline(always)]
fn threads_fit(n: [u32; 3], kind: ShaderKind) -> bool {
    let max = max_threads(kind);
    let product = n.iter().map(|&x| u64::from(x)).product::<u64>();
    !n.contains(&0) && n.iter().zip(MAX_THREADS_XYZ).all(|(x, l)| *x <= l) && product <= max
}

/// The most threads a `kind` shader's group may have.
fn max_threads(kind: ShaderKind) -> u64 {
    if matches!(kind, ShaderKind::Mesh | ShaderKind::Amplification) {
        MAX_MESH_THREADS
    } else {
        MAX_THREADS
    }
}

fn entry_limits(ep: &EntryPoint, kind: ShaderKind, place: &Place<'_>) -> Result<()> {
    let p = &ep.properties;
    if let Some(n) = p.workgroup_size() {
        if !threads_fit(n, kind) {
            let max = max_threads(kind);
            return Err(cold(|| {
                err(
                    "limit.numthreads",
                    place.into(),
                    format!(
                        "numthreads({}, {}, {}): each at least 1, at most 1024, 1024, 64, product at most {max}",
                        n[0], n[1], n[2]
                    ),
                )
            }));
        }
    }
    if let Some(gs) = &p.gs {
        let scalars: u64 = ep.outputs.iter().map(|e| u64::from(e.rows) * u64::from(e.cols)).sum();
        if gs.max_vertex_count == 0 || u64::from(gs.max_vertex_count) * scalars.max(1) > MAX_GS_OUTPUT_SCALARS {
            return Err(cold(|| {
                err(
                    "limit.gs-output",
                    place.into(),
                    format!(
                        "maxvertexcount({}) × {scalars} output scalars exceeds {MAX_GS_OUTPUT_SCALARS} (or is 0)",
                        gs.max_vertex_count
                    ),
                )
            }));
        }
        if gs.instance_count == 0 || gs.instance_count > MAX_GS_INSTANCES {
            return Err(cold(|| {
                err("limit.gs-instances", place.into(), format!("instance count {} not in 1..=32", gs.instance_count))
            }));
        }
    }
    if let Some(hs) = &p.hs {
        if hs.input_control_points > MAX_CONTROL_POINTS || hs.output_control_points > MAX_CONTROL_POINTS {
            return Err(cold(|| {
                err(
                    "limit.control-points",
                    place.into(),
                    format!(
                        "{} input / {} output control points (at most 32)",
                        hs.input_control_points, hs.output_control_points
                    ),
                )
            }));
        }
        let f = hs.max_tess_factor;
        if !(f.is_finite() && (0.0..=MAX_TESS_FACTOR).contains(&f)) {
            return Err(cold(|| {
                err("limit.tess-factor", place.into(), format!("max tessellation factor {f} not in 1..64"))
            }));
        }
    }
    if let Some(ds) = &p.ds {
        if ds.input_control_points > MAX_CONTROL_POINTS {
            return Err(cold(|| {
                err(
                    "limit.control-points",
                    place.into(),
                    format!("{} input control points (at most 32)", ds.input_control_points),
                )
            }));
        }
    }
    if let Some(ms) = &p.ms {
        if ms.max_vertex_count > MAX_MESH_OUTPUTS
            || ms.max_primitive_count > MAX_MESH_OUTPUTS
            || ms.payload_size_in_bytes > MAX_PAYLOAD_BYTES
        {
            return Err(cold(|| {
                err(
                    "limit.mesh-outputs",
                    place.into(),
                    format!(
                        "{} vertices, {} primitives (at most 256 each), payload {} bytes (at most 16384)",
                        ms.max_vertex_count, ms.max_primitive_count, ms.payload_size_in_bytes
                    ),
                )
            }));
        }
    }
    if let Some(a) = &p.amp {
        if a.payload_size_in_bytes > MAX_PAYLOAD_BYTES {
            return Err(cold(|| {
                err("limit.payload", place.into(), format!("payload {} bytes (at most 16384)", a.payload_size_in_bytes))
            }));
        }
    }
    Ok(())
}

fn signatures(ep: &EntryPoint, kind: ShaderKind, place: &Place<'_>) -> Result<()> {
    signature(&ep.inputs, "input", place)?;
    signature(&ep.outputs, "output", place)?;
    signature(&ep.patch_constants, "patch-constant", place)?;
    semantics(ep, kind, place)?;
    if kind == ShaderKind::Pixel {
        ps_scalar_outputs(ep, place)?;
        ps_targets(ep, place)?;
    }
    Ok(())
}

/// `SV_Target` n is render target n: one element each, n < 8.
fn ps_targets(ep: &EntryPoint, place: &Place<'_>) -> Result<()> {
    let mut seen = 0u32;
    for e in ep.outputs.iter().filter(|e| e.semantic_kind == SemanticKind::Target) {
        // A record without indices (`null`) reads as index 0.
        let indices: &[u32] = if e.semantic_indices.is_empty() { &[0] } else { &e.semantic_indices };
        for &ix in indices {
            if ix >= 8 || seen & (1 << ix) != 0 {
                return Err(cold(|| {
                    err(
                        "signature.target",
                        format!("{place}, output element {} `{}`", e.id, e.semantic_name),
                        format!("SV_Target{ix} is out of range (0..8) or declared twice"),
                    )
                }));
            }
            seen |= 1 << ix;
        }
    }
    Ok(())
}

/// Pixel-shader outputs that are one scalar of the pixel: one depth output
/// (`SV_Depth`, `SV_DepthLessEqual` or `SV_DepthGreaterEqual`: DXC's
/// `SmPSMultipleDepthSemantic`), one `SV_Coverage`, one `SV_StencilRef`,
/// each a single row of one component.
fn ps_scalar_outputs(ep: &EntryPoint, place: &Place<'_>) -> Result<()> {
    use SemanticKind as S;
    let (mut depth, mut coverage, mut stencil) = (0, 0, 0);
    for e in &ep.outputs {
        let n = match e.semantic_kind {
            S::Depth | S::DepthLessEqual | S::DepthGreaterEqual => &mut depth,
            S::Coverage => &mut coverage,
            S::StencilRef => &mut stencil,
            _ => continue,
        };
        *n += 1;
        let at = || format!("{place}, output element {} `{}`", e.id, e.semantic_name);
        if *n > 1 {
            return Err(cold(|| {
                err(
                    "signature.ps-output",
                    at(),
                    format!("a second {} output (a pixel shader writes one)", e.semantic_kind.system_value_name()),
                )
            }));
        }
        if e.rows != 1 || e.cols != 1 {
            return Err(cold(|| {
                err(
                    "signature.ps-output",
                    at(),
                    format!(
                        "{} is {} rows × {} columns, not a scalar",
                        e.semantic_kind.system_value_name(),
                        e.rows,
                        e.cols
                    ),
                )
            }));
        }
    }
    Ok(())
}

/// System values each signature may hold (D3D12's signature points, for the
/// stages whose elements lowering maps to built-ins: [`allowed_semantics`]).
fn semantics(ep: &EntryPoint, kind: ShaderKind, place: &Place<'_>) -> Result<()> {
    let [inputs, outputs, patch] = allowed_semantics(kind);
    let rules = [
        (&ep.inputs, inputs, "input"),
        (&ep.outputs, outputs, "output"),
        (&ep.patch_constants, patch, "patch-constant"),
    ];
    for (elems, allowed, which) in rules {
        if let Some(e) = elems.iter().find(|e| allowed >> (e.semantic_kind as u32 & 63) & 1 == 0) {
            return Err(cold(|| {
                err(
                    "signature.system-value",
                    format!("{place}, {which} element {} `{}`", e.id, e.semantic_name),
                    format!(
                        "semantic kind {} is not allowed in a {} {which} signature",
                        e.semantic_kind.name(),
                        kind.name()
                    ),
                )
            }));
        }
    }
    Ok(())
}

/// The system values (bit `k`: [`SemanticKind`] `k`) a `kind` shader's input, output and
/// patch-constant signatures may hold; all (`u64::MAX`) where no rule limits them.
fn allowed_semantics(kind: ShaderKind) -> [u64; 3] {
    use SemanticKind as S;
    // SV_PrimitiveID is written by geometry shaders only, SV_ShadingRate by vertex and geometry
    // shaders (D3D12's signature points; Vulkan has PrimitiveId and PrimitiveShadingRateKHR
    // outputs in the same stages only).
    const TESS_OUT: u64 = bit_set![
        S::Arbitrary,
        S::Position,
        S::ClipDistance,
        S::CullDistance,
        S::RenderTargetArrayIndex,
        S::ViewPortArrayIndex,
    ];
    const VS_OUT: u64 = bit_set![
        S::Arbitrary,
        S::Position,
        S::ClipDistance,
        S::CullDistance,
        S::RenderTargetArrayIndex,
        S::ViewPortArrayIndex,
        S::ShadingRate,
    ];
    const GS_OUT: u64 = bit_set![
        S::Arbitrary,
        S::Position,
        S::ClipDistance,
        S::CullDistance,
        S::RenderTargetArrayIndex,
        S::ViewPortArrayIndex,
        S::PrimitiveID,
        S::ShadingRate,
    ];
    const PS_IN: u64 = bit_set![
        S::Arbitrary,
        S::Position,
        S::ClipDistance,
        S::CullDistance,
        S::RenderTargetArrayIndex,
        S::ViewPortArrayIndex,
        S::PrimitiveID,
        S::SampleIndex,
        S::IsFrontFace,
        S::Coverage,
        S::InnerCoverage,
        S::Barycentrics,
        S::ShadingRate,
        S::ViewID,
        S::CullPrimitive,
    ];
    const PS_OUT: u64 =
        bit_set![S::Target, S::Depth, S::DepthLessEqual, S::DepthGreaterEqual, S::Coverage, S::StencilRef];
    const VS_IN: u64 =
        bit_set![S::Arbitrary, S::VertexID, S::InstanceID, S::StartVertexLocation, S::StartInstanceLocation];
    // Control points and vertices a hull, domain or geometry shader reads: what the previous
    // stage wrote (SV_PrimitiveID: the geometry shader's own, unpacked input). Never tessellation
    // factors: those are patch constants.
    const VERTEX_IN: u64 = GS_OUT;
    const PATCH: u64 = bit_set![S::Arbitrary, S::TessFactor, S::InsideTessFactor];
    const ANY: u64 = u64::MAX;
    match kind {
        ShaderKind::Vertex => [VS_IN, VS_OUT, ANY],
        ShaderKind::Pixel => [PS_IN, PS_OUT, ANY],
        ShaderKind::Geometry => [VERTEX_IN, GS_OUT, PATCH],
        ShaderKind::Domain | ShaderKind::Hull => [VERTEX_IN, TESS_OUT, PATCH],
        _ => [ANY; 3],
    }
}

/// Element ids are their positions; rows and columns within 32 × 4; no two
/// elements of one stream on the same component.
fn signature(elems: &[SignatureElement], which: &str, place: &Place<'_>) -> Result<()> {
    if elems.is_empty() {
        return Ok(());
    }
    // Per stream, the components used: bit 4 × row + column.
    let mut used = [0u128; 4];
    for (k, e) in elems.iter().enumerate() {
        let at = || format!("{place}, {which} element {k} `{}`", e.semantic_name);
        if e.id as usize != k {
            return Err(cold(|| err("signature.id", at(), format!("id {} at position {k}", e.id))));
        }
        if e.rows == 0 || u32::from(e.cols) == 0 || e.cols > 4 || e.rows > SIGNATURE_ROWS as u32 {
            return Err(cold(|| {
                err("signature.size", at(), format!("{} rows × {} columns (1..32 × 1..4)", e.rows, e.cols))
            }));
        }
        if !e.is_allocated() {
            continue;
        }
        let (row, col) = (i64::from(e.start_row), i64::from(e.start_col));
        if col < 0 || col + i64::from(e.cols) > 4 || row + i64::from(e.rows) > SIGNATURE_ROWS {
            return Err(cold(|| {
                err("signature.packing", at(), format!("rows {row}+{} columns {col}+{} outside 32 × 4", e.rows, e.cols))
            }));
        }
        let stream = e.stream() as usize;
        let Some(cells) = used.get_mut(stream) else {
            return Err(cold(|| err("signature.stream", at(), format!("stream {stream} (0..4)"))));
        };
        // The element's components in each of its rows (1..=32 of them, within the 32: checked).
        let mask = e.mask();
        let rows = (ROW_ONES >> (4 * (SIGNATURE_ROWS as u32 - e.rows))) * u128::from(mask);
        let cover = rows << (4 * row as u32);
        if *cells & cover != 0 {
            let r = (*cells & cover).trailing_zeros() / 4;
            let c = (*cells >> (4 * r)) as u8 & mask;
            return Err(cold(|| {
                err(
                    "signature.overlap",
                    at(),
                    format!(
                        "row {r}, components {} already used by another element",
                        crate::dxil::signature::mask_string(c)
                    ),
                )
            }));
        }
        *cells |= cover;
    }
    Ok(())
}

/// Bit 0 of each of the 32 rows of [`signature`]'s 4-bit rows.
const ROW_ONES: u128 = u128::MAX / 0xF;

/// Groupshared memory (in the stages that have it: [`groupshared_stages`]) and local arrays
/// (allocas, private globals).
fn memory(m: &Module, info: &DxilModuleInfo, allocas: &[(FuncId, InstId)]) -> Result<()> {
    let mut shared = 0u64;
    let mut private = 0u64;
    let mut stages_checked = false;
    for g in &m.globals {
        // (Only groupshared and private variables count: resource globals and constants not.)
        match g.addr_space {
            3 => {
                if !stages_checked {
                    groupshared_stages(m, info)?;
                    stages_checked = true;
                }
                shared = shared.saturating_add(size_of(m, g.value_ty, 0))
            }
            0 if !g.is_const => private = private.saturating_add(size_of(m, g.value_ty, 0)),
            _ => continue,
        }
        if shared > MAX_GROUPSHARED_BYTES {
            return Err(cold(|| {
                err(
                    "limit.groupshared",
                    format!("global @{}", g.name),
                    format!("groupshared memory reaches {shared} bytes (at most {MAX_GROUPSHARED_BYTES})"),
                )
            }));
        }
        if private > MAX_LOCAL_BYTES {
            return Err(cold(|| {
                err(
                    "limit.local-arrays",
                    format!("global @{}", g.name),
                    format!("static arrays reach {private} bytes (at most {MAX_LOCAL_BYTES})"),
                )
            }));
        }
    }
    // Each function's allocas add to the static arrays.
    if let Some((fi, i, local)) = local_overflow(m, private, allocas) {
        let f = &m.functions[fi.index()];
        return Err(cold(|| {
            err(
                "limit.local-arrays",
                super::inst_place(f, i),
                format!("local arrays reach {local} bytes (at most {MAX_LOCAL_BYTES})"),
            )
        }));
    }
    Ok(())
}

/// `memory.groupshared-stage`: thread-group shared memory (address space 3) belongs to compute,
/// mesh and amplification shaders and work-graph nodes (DXC's validator: "Thread Group Shared
/// Memory not supported from non-compute entry points"; Vulkan has `Workgroup` storage in
/// those stages only). A program of another stage declares none; in a library, no entry of
/// another kind reaches one, in its body or in a function it calls. (Run once, for a module
/// with a groupshared global.)
#[cold]
#[inline(never)]
fn groupshared_stages(m: &Module, info: &DxilModuleInfo) -> Result<()> {
    let has = has_groupshared;
    let kind = info.shader_model.kind;
    if kind != ShaderKind::Library {
        if has(kind) {
            return Ok(());
        }
        let g = m.globals.iter().find(|g| g.addr_space == 3).map_or("", |g| g.name.as_str());
        return Err(err(
            "memory.groupshared-stage",
            format!("global @{g}"),
            format!("groupshared memory in a {} shader (compute, mesh and amplification shaders only)", kind.name()),
        ));
    }
    for (i, ep) in info.entry_points.iter().enumerate() {
        let (Some(f), Some(k)) = (ep.function, ep.properties.shader_kind) else { continue };
        if has(k) {
            continue;
        }
        if let Some((fi, id, g)) = reaches_groupshared(m, f) {
            let f = &m.functions[fi.index()];
            return Err(err(
                "memory.groupshared-stage",
                super::inst_place(f, id),
                format!(
                    "uses groupshared @{} from dx.entryPoints[{i}] `{}`, a {} shader (compute, mesh, amplification \
                     and node shaders only)",
                    m.globals[g].name,
                    ep.name,
                    k.name()
                ),
            ));
        }
    }
    Ok(())
}

/// The first instruction of function `f`, or of a defined function it calls (transitively),
/// with an operand that is a groupshared global or a constant expression over one: (function,
/// instruction, global).
fn reaches_groupshared(m: &Module, f: FuncId) -> Option<(FuncId, InstId, usize)> {
    let mut seen = vec![false; m.functions.len()];
    let mut stack = vec![f];
    while let Some(fi) = stack.pop() {
        match seen.get_mut(fi.index()) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        let func = &m.functions[fi.index()];
        for (i, inst) in func.insts.iter().enumerate() {
            let (inline, n, pool) = super::ssa::operand_parts(func, &inst.kind);
            let phis = match &inst.kind {
                crate::ir::InstKind::Phi { incoming } => func.phis(*incoming),
                _ => &[],
            };
            for v in inline[..n.min(3)].iter().chain(pool).chain(phis.iter().map(|(v, _)| v)) {
                if let Some(g) = groupshared_in(m, *v, 0) {
                    return Some((fi, InstId(i as u32), g));
                }
                if let crate::ir::Value::Function(c) = v {
                    if m.functions.get(c.index()).is_some_and(|c| !c.is_declaration) {
                        stack.push(*c);
                    }
                }
            }
        }
    }
    None
}

/// The groupshared global value `v` is, or a constant expression over it reaches (`depth`:
/// nesting so far).
fn groupshared_in(m: &Module, v: crate::ir::Value, depth: u32) -> Option<usize> {
    use crate::ir::{ConstExpr, ConstKind, Value};
    match v {
        Value::Global(g) => m.globals.get(g.index()).filter(|x| x.addr_space == 3).map(|_| g.index()),
        Value::Const(c) if depth < 16 => match &m.consts.get(c.index())?.kind {
            ConstKind::Expr(ConstExpr::Gep { base, .. }) => groupshared_in(m, *base, depth + 1),
            ConstKind::Expr(ConstExpr::Cast { value, .. }) => groupshared_in(m, *value, depth + 1),
            ConstKind::Expr(ConstExpr::Select { if_true, if_false, .. }) => {
                groupshared_in(m, *if_true, depth + 1).or_else(|| groupshared_in(m, *if_false, depth + 1))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Byte size of a type (no padding; saturating), enough to compare with the limits.
fn size_of(m: &Module, t: TypeId, depth: u32) -> u64 {
    if depth > 32 {
        return u64::MAX;
    }
    match m.types.list.get(t.0 as usize) {
        Some(Type::Int(w)) => u64::from(w.div_ceil(8)),
        Some(Type::Half) => 2,
        Some(Type::Float) => 4,
        Some(Type::Double) | Some(Type::Pointer { .. }) => 8,
        Some(Type::Array { len, elem }) => len.saturating_mul(size_of(m, *elem, depth + 1)),
        Some(Type::Vector { len, elem }) => u64::from(*len).saturating_mul(size_of(m, *elem, depth + 1)),
        Some(Type::Struct { elems, .. }) => elems.iter().fold(0u64, |s, e| s.saturating_add(size_of(m, *e, depth + 1))),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxil::{ComponentType, InterpolationMode};

    fn element(id: u32, row: i32, col: i8, rows: u32, cols: u8, stream: u32) -> SignatureElement {
        SignatureElement {
            id,
            semantic_name: "TEXCOORD".into(),
            component_type: ComponentType::F32,
            semantic_kind: SemanticKind::Arbitrary,
            semantic_indices: (0..rows).collect(),
            interpolation: InterpolationMode::Linear,
            rows,
            cols,
            start_row: row,
            start_col: col,
            output_stream: Some(stream),
            dynamic_index_mask: None,
            usage_mask: None,
            other_tags: Vec::new(),
        }
    }

    /// A xorshift generator from `seed`: each call a number below its argument.
    fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// The overlap rule cell by cell: the first element that takes a component an earlier
    /// element of its stream took, with the first such row and the components taken twice.
    fn overlap_by_cells(elems: &[SignatureElement]) -> Option<(usize, i64, u8)> {
        let mut used = [[0u8; SIGNATURE_ROWS as usize]; 4];
        for (k, e) in elems.iter().enumerate() {
            if !e.is_allocated() {
                continue;
            }
            let cells = &mut used[e.stream() as usize];
            for r in i64::from(e.start_row)..i64::from(e.start_row) + i64::from(e.rows) {
                let c = &mut cells[r as usize];
                if *c & e.mask() != 0 {
                    return Some((k, r, *c & e.mask()));
                }
                *c |= e.mask();
            }
        }
        None
    }

    /// [`signature`]'s overlap rule (components as bits of one 128-bit word per stream)
    /// against the rule cell by cell, on 20,000 random signatures of 1 to 6 elements within
    /// 32 × 4 (some not packed, some on other streams, rows up to 32), and at the edges.
    #[test]
    fn overlaps_are_found_as_cell_by_cell() {
        let place = Place { index: 0, name: "main" };
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let (mut overlapping, mut fine) = (0, 0);
        for _ in 0..20_000 {
            let n = 1 + next(6) as u32;
            let elems: Vec<_> = (0..n)
                .map(|id| {
                    let rows = if next(8) == 0 { 1 + next(32) as u32 } else { 1 + next(3) as u32 };
                    let cols = 1 + next(4) as u8;
                    let row = if next(10) == 0 { -1 } else { next(u64::from(33 - rows)) as i32 };
                    let col = next(u64::from(5 - cols)) as i8;
                    element(id, row, col, rows, cols, if next(4) == 0 { 1 } else { 0 })
                })
                .collect();
            let got = signature(&elems, "output", &place);
            assert_eq!(signature_fits(&elems, u64::MAX), got.is_ok(), "{elems:?}");
            match overlap_by_cells(&elems) {
                Some((k, r, c)) => {
                    let e = got.expect_err("an overlap");
                    assert_eq!(e.rule, "signature.overlap", "{elems:?}");
                    assert_eq!(e.place, format!("dx.entryPoints[0] `main`, output element {k} `TEXCOORD`"));
                    let comps = crate::dxil::signature::mask_string(c);
                    assert_eq!(e.detail, format!("row {r}, components {comps} already used by another element"));
                    overlapping += 1;
                }
                None => {
                    assert_eq!(got, Ok(()), "{elems:?}");
                    fine += 1;
                }
            }
        }
        assert!(overlapping > 2_000 && fine > 2_000, "{overlapping} overlapping, {fine} not");
        // The edges: all 32 rows × 4 columns in one element, then anything else on them.
        let full = element(0, 0, 0, 32, 4, 0);
        assert_eq!(signature(std::slice::from_ref(&full), "input", &place), Ok(()));
        let e = signature(&[full.clone(), element(1, 31, 3, 1, 1, 0)], "input", &place).unwrap_err();
        assert_eq!(e.detail, "row 31, components ___w already used by another element");
        assert_eq!(signature(&[full, element(1, 31, 3, 1, 1, 1)], "input", &place), Ok(()));
    }

    /// The compact pass's verdict on one signature ([`signature_fits`]) is [`signature`]'s and
    /// [`semantics`]' together, on 20,000 random signatures of every shape the rules look at:
    /// ids out of place, sizes of 0 to 33 rows and 0 to 5 columns, columns from -1, rows past
    /// the 32, streams past the 4, system values in and out of the allowed set; and a pixel
    /// shader's outputs ([`ps_outputs_fit`]) against [`ps_scalar_outputs`] and the render-target rule.
    #[test]
    fn the_compact_signature_verdict_is_the_rules_verdict() {
        use crate::SemanticKind as S;
        let place = Place { index: 0, name: "main" };
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let kinds = [
            S::Arbitrary,
            S::Position,
            S::ClipDistance,
            S::Target,
            S::Depth,
            S::DepthLessEqual,
            S::Coverage,
            S::StencilRef,
            S::VertexID,
            S::PrimitiveID,
            S::TessFactor,
            S::IsFrontFace,
        ];
        let (mut fit, mut not) = (0, 0);
        for round in 0..20_000 {
            let n = next(6) as u32;
            let elems: Vec<_> = (0..n)
                .map(|id| {
                    let odd = next(12) == 0;
                    let rows = if odd { next(34) as u32 } else { 1 + next(3) as u32 };
                    let cols = if odd { next(6) as u8 } else { 1 + next(4) as u8 };
                    let row =
                        if next(10) == 0 { -1 } else { next(u64::from(34u32.saturating_sub(rows).max(1))) as i32 };
                    let col = next(6) as i8 - 1;
                    let stream = if next(8) == 0 { next(6) as u32 } else { 0 };
                    let mut e = element(if next(40) == 0 { id + 1 } else { id }, row, col, rows, cols, stream);
                    e.semantic_kind = kinds[next(kinds.len() as u64) as usize];
                    e.semantic_indices = (0..next(3) as u32).map(|_| next(10) as u32).collect();
                    e
                })
                .collect();
            let allowed = if round % 3 == 0 { u64::MAX } else { next(u64::MAX) | 1 };
            let rules = signature(&elems, "output", &place).is_ok()
                && elems.iter().all(|e| allowed >> (e.semantic_kind as u32 & 63) & 1 != 0);
            assert_eq!(signature_fits(&elems, allowed), rules, "{allowed:#x} {elems:?}");
            let mut ep = EntryPoint {
                function: None,
                name: "main".into(),
                inputs: Vec::new(),
                outputs: elems,
                patch_constants: Vec::new(),
                resources: None,
                properties: Default::default(),
            };
            let ps_rules = ps_scalar_outputs(&ep, &place).is_ok() && ps_targets(&ep, &place).is_ok();
            assert_eq!(ps_outputs_fit(&ep.outputs), ps_rules, "{:?}", ep.outputs);
            if ps_rules {
                fit += 1;
            } else {
                not += 1;
            }
            ep.outputs.clear();
        }
        assert!(fit > 2_000 && not > 2_000, "{fit} fit, {not} not");
    }
}
