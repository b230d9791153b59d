//! Resources: descriptor variables, handles (CreateHandle,
//! CreateHandleFromBinding, AnnotateHandle), buffers (BufferLoad/Store,
//! RawBufferLoad/Store, CBufferLoadLegacy/CBufferLoad, BufferUpdateCounter,
//! CheckAccessFullyMapped) and the binding list of the compiled shader.
//!
//! Layouts: raw and structured buffers are `struct { uint data[]; }`
//! storage buffers addressed in 32-bit words (a second `ushort[]` view of
//! the same binding serves 16-bit accesses); constant buffers are
//! `struct { uvec4 rows[N]; }` uniform buffers (or push constants);
//! typed buffers are texel buffers; textures sampled or storage images.

use rspirv::spirv::{Capability, Decoration, Dim, ImageFormat, Op, Scope, StorageClass, Word};

use super::meta::{CompType, EntryMeta, ResDecl, ResKind};
use super::{malformed, unsupported, Fail, LResult, Lowerer, Scalar, Val};
use crate::binding::{self, DescriptorKind, Placement, ResourceClass, ResourceLocation};
use crate::compiled::{HeapBinding, PushConstantRange, ResourceBinding};
use crate::dxil_op::DxilOp;
use crate::ir::{ConstKind, Function, InstId, InstKind, Module, Type, Value};

pub(crate) const USE_READ: u8 = 1;
pub(crate) const USE_WRITE: u8 = 2;
pub(crate) const USE_ATOMIC: u8 = 4;
pub(crate) const USE_COUNTER: u8 = 8;
pub(crate) const USE_U16: u8 = 16;
pub(crate) const USE_U64: u8 = 32;

/// The lowered state of one `dx.resources` range.
#[derive(Debug, Clone, Default)]
pub(crate) struct ResInfo {
    pub placement: Option<Placement>,
    /// Under a binding model: where the range lives (`placement` then holds the (set, binding)
    /// of descriptor-like placements).
    pub model: Option<crate::binding::ResourcePlacement>,
    /// How the counter's binding is indexed (binding model).
    pub counter_kind: super::bindless::CounterKind,
    pub counter: Option<(u32, u32)>,
    pub uses: u8,
    /// The descriptor variable (0: not declared yet).
    pub var: Word,
    /// The `ushort[]` view of a raw/structured buffer.
    pub var16: Word,
    /// The `ulong[]` view of a raw/structured buffer (64-bit atomics).
    pub var64: Word,
    pub counter_var: Word,
    /// Block struct types of `var`, `var16` and `var64` (storage buffers; 0: none).
    pub blocks: [Word; 3],
    /// Image type of typed buffers and textures.
    pub img_ty: Word,
    /// Texel scalar of typed resources.
    pub sampled: Option<Scalar>,
    pub format: Option<ImageFormat>,
    /// Row count of constant buffers.
    pub rows: u32,
}

pub(crate) use super::bindless::HandleVal;

#[derive(Debug, Default)]
pub(crate) struct Resources {
    pub info: Vec<ResInfo>,
    pub handles: Vec<HandleVal>,
    /// Per instruction: resource index + 1 of the handle it makes (0: none).
    pub handle_res: Vec<u32>,
    pub push_var: Word,
    pub sampler_ty: Word,
    pub sampled_image_types: Vec<(Word, Word)>,
    /// OpTypeImage operands (sampled type, dim, depth, arrayed, ms, sampled, format) → id.
    pub image_types: Vec<([u32; 7], Word)>,
    /// `CreateHandleFromHeap` instructions and the (heap) range each one reaches.
    pub heap_handles: Vec<(InstId, u32)>,
    /// Working list of [`scan_function`]: resource-using ops (handle, use flags).
    use_ops: Vec<(InstId, u8)>,
    /// Under a binding model: the root block's layout and every range's placement.
    pub push_layout: Option<crate::binding::PushLayout>,
    pub placed: Vec<crate::compiled::PlacedResource>,
    pub bl: super::bindless::Bindless,
    /// Ray-tracing exports with a local root signature: the shader record's layout.
    pub record_layout: Option<crate::binding::ShaderRecordLayout>,
}

impl Resources {
    /// Empties the tables (keeping their storage) for the next compile.
    pub fn reset(&mut self) {
        self.info.clear();
        self.handles.clear();
        self.handle_res.clear();
        self.push_var = 0;
        self.sampler_ty = 0;
        self.sampled_image_types.clear();
        self.image_types.clear();
        self.heap_handles.clear();
        self.push_layout = None;
        self.placed.clear();
        self.bl.reset();
        self.record_layout = None;
    }

    pub fn capacity_bytes(&self) -> usize {
        self.info.capacity() * std::mem::size_of::<ResInfo>()
            + self.handles.capacity() * std::mem::size_of::<HandleVal>()
            + self.handle_res.capacity() * 4
            + self.sampled_image_types.capacity() * 8
            + self.image_types.capacity() * 32
            + self.heap_handles.capacity() * 8
    }
}

/// The Vulkan descriptor type of a range (push constants aside).
pub(crate) fn descriptor_kind(d: &ResDecl) -> DescriptorKind {
    match (d.kind, d.class) {
        (ResKind::CBuffer, _) => DescriptorKind::UniformBuffer,
        (ResKind::Sampler, _) => DescriptorKind::Sampler,
        (ResKind::RawBuffer | ResKind::StructuredBuffer, _) => DescriptorKind::StorageBuffer,
        (ResKind::TypedBuffer, ResourceClass::Uav) => DescriptorKind::StorageTexelBuffer,
        (ResKind::TypedBuffer, _) => DescriptorKind::UniformTexelBuffer,
        (ResKind::RTAccelerationStructure, _) => DescriptorKind::AccelerationStructure,
        (_, ResourceClass::Uav) => DescriptorKind::StorageImage,
        _ => DescriptorKind::SampledImage,
    }
}

/// Heap ranges and, per handle-making instruction, the index of the range it reaches.
pub(crate) type HeapDecls = (Vec<ResDecl>, Vec<(InstId, u32)>);

/// SM 6.6 descriptor heaps: every `CreateHandleFromHeap` described by an `AnnotateHandle` reaches
/// a synthetic unbounded range (`ResDecl::heap`), one per distinct description. Returns those
/// ranges and, per heap handle, the index of its range in the returned list.
pub(crate) fn heap_decls(m: &Module, f: &Function) -> LResult<HeapDecls> {
    let mut decls: Vec<ResDecl> = Vec::new();
    let mut handles = Vec::new();
    for (k, inst) in f.insts.iter().enumerate() {
        let InstKind::DxOp { op: DxilOp::AnnotateHandle, args, .. } = &inst.kind else { continue };
        let args = f.values(*args);
        let (Some(Value::Inst(h)), Some(&props)) = (args.first(), args.get(1)) else { continue };
        let Some(src) = f.insts.get(h.index()) else { continue };
        if !matches!(src.kind, InstKind::DxOp { op: DxilOp::CreateHandleFromHeap, .. }) {
            continue;
        }
        let d = heap_decl(m, props)?;
        let same = |e: &ResDecl| {
            e.class == d.class
                && e.kind == d.kind
                && e.comp == d.comp
                && e.stride == d.stride
                && e.cb_size == d.cb_size
                && e.has_counter == d.has_counter
                && e.globally_coherent == d.globally_coherent
        };
        let r = match decls.iter().position(same) {
            Some(p) => p,
            None => {
                decls.push(d);
                decls.len() - 1
            }
        } as u32;
        // The annotation reaches its own description; the heap handle the first one seen.
        handles.push((InstId(k as u32), r));
        if !handles.iter().any(|(p, _)| p == h) {
            handles.push((*h, r));
        }
    }
    Ok((decls, handles))
}

/// Decodes the `ResourceProperties` constant of `AnnotateHandle` (`{ i32, i32 }`): dword 0 =
/// kind (bits 0-7), UAV (bit 12), globally coherent (bit 14), counter / comparison sampler (bit
/// 15); dword 1 = component type (typed), structure stride, or CBV size in bytes.
fn heap_decl(m: &Module, props: Value) -> LResult<ResDecl> {
    let Value::Const(c) = props else { return malformed("AnnotateHandle: resource properties are not a constant") };
    let (d0, d1) = match &m.konst(c).kind {
        ConstKind::Null => (0, 0),
        ConstKind::Aggregate(v) if v.len() == 2 => (m.const_uint(v[0]).unwrap_or(0), m.const_uint(v[1]).unwrap_or(0)),
        _ => return malformed("AnnotateHandle: malformed resource properties"),
    };
    let Some(kind) = ResKind::from_u64(d0 & 0xff).filter(|k| *k != ResKind::Invalid) else {
        return malformed(format!("AnnotateHandle: resource kind {}", d0 & 0xff));
    };
    let uav = d0 >> 12 & 1 != 0;
    let class = match kind {
        ResKind::Sampler => ResourceClass::Sampler,
        ResKind::CBuffer => ResourceClass::Cbv,
        _ if uav => ResourceClass::Uav,
        _ => ResourceClass::Srv,
    };
    let typed = kind == ResKind::TypedBuffer || kind.is_texture();
    Ok(ResDecl {
        class,
        id: u32::MAX,
        space: u32::MAX,
        lower: 0,
        size: None,
        kind,
        comp: if typed { CompType::from_u64(d1 & 0xff) } else { CompType::Other(0) },
        stride: if kind == ResKind::StructuredBuffer { d1 as u32 } else { 0 },
        cb_size: if kind == ResKind::CBuffer { d1 as u32 } else { 0 },
        has_counter: uav && kind == ResKind::StructuredBuffer && d0 >> 15 & 1 != 0,
        globally_coherent: uav && d0 >> 14 & 1 != 0,
        heap: true,
        global: None,
    })
}

/// Prepares resources: placements, which instruction makes a handle to
/// which range, how each range is used, and which aggregate parts are read.
pub(super) fn scan(l: &mut Lowerer<'_>) -> LResult<()> {
    // The export's local root signature (ray-tracing stages): the binding model's choice, else
    // the one the library's subobjects associate.
    let local: Option<&crate::container::rootsig::RootSignature> = if super::is_ray_tracing_stage(l.meta.kind) {
        match l.opts.bindings.as_deref().map(|m| &m.local_root_signature) {
            Some(crate::binding::LocalRoot::Given(rs)) => Some(rs),
            Some(crate::binding::LocalRoot::None) => None,
            Some(crate::binding::LocalRoot::FromLibrary) | None => l.meta.local_root_signature.as_deref(),
        }
    } else {
        None
    };
    l.res.record_layout = local.map(crate::binding::ShaderRecordLayout::of);
    if let Some(model) = l.opts.bindings.as_deref() {
        let lrs = local.zip(l.res.record_layout.as_ref());
        // A library export sees every resource of the library; it is placed (and needs a root
        // signature entry) only for the ones it uses, as D3D12 checks them per export.
        let used: Vec<bool> = (0..l.meta.resources.len() as u32)
            .map(|r| !l.meta.library || l.rt.uses_range(r) || l.meta.resources[r as usize].heap)
            .collect();
        let (placements, layout, placed) =
            super::bindless::resolve(model, l.meta.kind, &l.meta.resources, lrs, &used).map_err(Fail::Binding)?;
        for (d, p) in l.meta.resources.iter().zip(&placements) {
            let Some(p) = p else {
                l.res.info.push(ResInfo::default());
                continue;
            };
            super::bindless::check_lowerable(d, p)?;
            let counter = super::bindless::counter_binding(p);
            l.res.info.push(ResInfo {
                placement: super::bindless::legacy_placement(p),
                model: Some(*p),
                counter: counter.map(|c| c.0),
                counter_kind: counter.map(|c| c.1).unwrap_or_default(),
                ..Default::default()
            });
        }
        l.res.push_layout = Some(layout);
        l.res.placed = placed;
        return scan_function(l);
    }
    let map = l.opts.binding_map.as_ref();
    let mut push_seen = false;
    let heap_sets = l.meta.resources.iter().any(|d| d.heap).then(|| {
        let h = map.and_then(|m| m.heap).unwrap_or_default();
        [h.resource_set, h.sampler_set]
    });
    for d in &l.meta.resources {
        // Root constants and root descriptors of the local root signature live in the shader
        // record under the default rule too.
        if let (Some(lrs), Some(record), false) = (local, l.res.record_layout.as_ref(), d.heap) {
            if let Some(p) = super::bindless::local_default_placement(l.meta.kind, d, lrs, record) {
                super::bindless::check_lowerable(d, &p)?;
                l.res.info.push(ResInfo { placement: None, model: Some(p), ..Default::default() });
                l.res.placed.push(crate::compiled::PlacedResource {
                    query: super::bindless::query(l.meta.kind, d),
                    placement: p,
                });
                continue;
            }
        }
        let placement = if d.heap {
            binding::place_heap(map, descriptor_kind(d))
        } else {
            binding::place(map, d.class, d.space, d.lower)
        };
        if let (Some(sets), false, Some(Placement::Descriptor { set, .. })) = (heap_sets, d.heap, placement) {
            if sets.contains(&set) {
                return unsupported(format!(
                    "register {}{} space{} lands in descriptor set {set}, which holds a descriptor heap \
                     (move the heap with the binding map's [heap] table)",
                    d.class.letter(),
                    d.lower,
                    d.space
                ));
            }
        }
        if placement == Some(Placement::PushConstants) {
            if push_seen {
                return unsupported("more than one root-constant range mapped to push constants");
            }
            push_seen = true;
        }
        // Counters of SM 6.6 heap UAVs: a runtime array of counters beside the heap's arrays,
        // indexed by the same heap index.
        let (counter, counter_kind) = match (d.has_counter, d.heap) {
            (false, _) => (None, super::bindless::CounterKind::Descriptor),
            (true, false) => (binding::place_counter(map, d.space, d.lower), super::bindless::CounterKind::Descriptor),
            (true, true) => (binding::heap_counter_binding(map), super::bindless::CounterKind::Heap),
        };
        l.res.info.push(ResInfo { placement, counter, counter_kind, ..Default::default() });
    }
    scan_function(l)
}

/// The per-function part of [`scan`] for the function being lowered
/// (`l.f`): handles, resource uses (accumulated over every function of the
/// shader, so scan all of them before lowering any) and aggregate parts read.
pub(super) fn scan_function(l: &mut Lowerer<'_>) -> LResult<()> {
    let f = l.f;
    l.res.handle_res.clear();
    l.res.handle_res.resize(f.insts.len(), 0);
    // One pass: handles made here, annotations of handles made earlier, extractvalue components,
    // and the resource-using ops (their flags need the final handle table: applied after).
    let mut late_annotation = false;
    let mut use_ops = std::mem::take(&mut l.res.use_ops);
    use_ops.clear();
    for (k, inst) in f.insts.iter().enumerate() {
        match &inst.kind {
            InstKind::DxOp { op, args, overload, .. } => {
                let args = f.values(*args);
                let flag = match op {
                    DxilOp::CreateHandle | DxilOp::CreateHandleFromBinding => {
                        let r =
                            if *op == DxilOp::CreateHandle { find_by_id(l, args)? } else { find_by_binding(l, args)? };
                        l.res.handle_res[k] = r + 1;
                        continue;
                    }
                    DxilOp::AnnotateHandle => {
                        if let Some(Value::Inst(h)) = args.first() {
                            if h.index() >= k {
                                late_annotation = true;
                            }
                            l.res.handle_res[k] = l.res.handle_res.get(h.index()).copied().unwrap_or(0);
                        }
                        continue;
                    }
                    DxilOp::BufferLoad | DxilOp::TextureLoad | DxilOp::RawBufferLoad => USE_READ,
                    DxilOp::BufferStore
                    | DxilOp::TextureStore
                    | DxilOp::TextureStoreSample
                    | DxilOp::RawBufferStore => USE_WRITE,
                    DxilOp::AtomicBinOp
                    | DxilOp::AtomicCompareExchange
                    | DxilOp::WriteSamplerFeedback
                    | DxilOp::WriteSamplerFeedbackBias
                    | DxilOp::WriteSamplerFeedbackLevel
                    | DxilOp::WriteSamplerFeedbackGrad => USE_ATOMIC,
                    DxilOp::BufferUpdateCounter => USE_COUNTER,
                    _ => continue,
                };
                if let Some(Value::Inst(h)) = args.first() {
                    // 16-bit memory accesses (min-precision values take 32 bits in memory).
                    let wide16 = matches!(overload, crate::dxil_op::Overload::Half | crate::dxil_op::Overload::I16)
                        && l.native16();
                    let atomic64 = flag == USE_ATOMIC && matches!(overload, crate::dxil_op::Overload::I64);
                    let flags = flag | if wide16 { USE_U16 } else { 0 } | if atomic64 { USE_U64 } else { 0 };
                    use_ops.push((*h, flags));
                }
            }
            InstKind::ExtractValue { agg: Value::Inst(a), indices } => {
                if let Some(&k) = f.indices(*indices).first() {
                    if k < 8 {
                        if let Some(u) = l.used.get_mut(a.index()) {
                            *u |= 1 << k;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if late_annotation {
        // An annotation placed before the handle it describes: two more rounds over all of them
        // (annotations of annotations in any order, as far as two levels).
        for _ in 0..2 {
            for (k, inst) in f.insts.iter().enumerate() {
                if let InstKind::DxOp { op: DxilOp::AnnotateHandle, args, .. } = &inst.kind {
                    if let Some(Value::Inst(h)) = f.values(*args).first() {
                        l.res.handle_res[k] = l.res.handle_res.get(h.index()).copied().unwrap_or(0);
                    }
                }
            }
        }
    }
    // Heap handles and their annotations (each annotation says what the descriptor is).
    for &(h, r) in &l.res.heap_handles {
        if let Some(slot) = l.res.handle_res.get_mut(h.index()) {
            *slot = r + 1;
        }
    }
    for &(h, flags) in &use_ops {
        let r = l.res.handle_res.get(h.index()).copied().unwrap_or(0);
        if r > 0 {
            if let Some(info) = l.res.info.get_mut(r as usize - 1) {
                info.uses |= flags;
            }
        }
    }
    l.res.use_ops = use_ops;
    Ok(())
}

fn class_of(l: &Lowerer<'_>, v: Value) -> LResult<ResourceClass> {
    l.m.const_uint(v).and_then(ResourceClass::from_dxil).map_or_else(|| malformed("bad resource class"), Ok)
}

fn find_by_id(l: &Lowerer<'_>, args: &[Value]) -> LResult<u32> {
    let (Some(&c), Some(&id)) = (args.first(), args.get(1)) else {
        return malformed("CreateHandle: missing arguments");
    };
    let class = class_of(l, c)?;
    let Some(id) = l.m.const_uint(id) else { return malformed("CreateHandle: range id is not a constant") };
    match l.meta.resources.iter().position(|d| d.class == class && u64::from(d.id) == id) {
        Some(p) => Ok(p as u32),
        None => malformed(format!("CreateHandle: no {class:?} range with id {id} in dx.resources")),
    }
}

fn find_by_binding(l: &Lowerer<'_>, args: &[Value]) -> LResult<u32> {
    let Some(Value::Const(c)) = args.first() else {
        return malformed("CreateHandleFromBinding: binding is not a constant");
    };
    let k = l.m.konst(*c);
    let fields: [u64; 4] = match &k.kind {
        ConstKind::Null => [0; 4],
        ConstKind::Aggregate(v) if v.len() == 4 => {
            let mut out = [0u64; 4];
            for (o, x) in out.iter_mut().zip(v) {
                *o = l.m.const_uint(*x).unwrap_or(0);
            }
            out
        }
        _ => return malformed("CreateHandleFromBinding: malformed ResBind constant"),
    };
    let [lower, upper, space, class] = fields;
    let Some(class) = ResourceClass::from_dxil(class) else { return malformed("CreateHandleFromBinding: bad class") };
    let found = l
        .meta
        .resources
        .iter()
        .position(|d| d.class == class && u64::from(d.space) == space && u64::from(d.lower) == lower);
    let found = found.or_else(|| {
        l.meta.resources.iter().position(|d| {
            d.class == class
                && u64::from(d.space) == space
                && u64::from(d.lower) <= lower
                && d.size.is_none_or(|s| u64::from(d.lower) + u64::from(s) > upper.min(lower))
        })
    });
    match found {
        Some(p) => Ok(p as u32),
        None => malformed(format!(
            "CreateHandleFromBinding: no {}{lower} space{space} range in dx.resources",
            class.letter()
        )),
    }
}

impl<'m> Lowerer<'m> {
    /// The handle a value stands for.
    pub(crate) fn handle(&self, v: Value) -> LResult<HandleVal> {
        match v {
            Value::Inst(i) => match self.vals.get(i.index()) {
                Some(Val::Handle(h)) => self.res.handles.get(*h as usize).copied().ok_or_else(|| Fail::Internal("bad handle".into())),
                _ => unsupported("resource handle that is not made by CreateHandle/CreateHandleFromBinding (phi or select of handles?)"),
            },
            _ => unsupported("resource handle that is not an instruction"),
        }
    }

    /// The declaration of a handle's range (borrowed from the metadata, not from `self`).
    pub(crate) fn decl(&self, h: HandleVal) -> &'m super::meta::ResDecl {
        let meta: &'m EntryMeta = self.meta;
        &meta.resources[h.res as usize]
    }

    /// Declares the descriptor variable(s) of range `r`.
    pub(crate) fn ensure_var(&mut self, r: u32) -> LResult<()> {
        let ri = r as usize;
        if self.res.info[ri].var != 0 {
            return Ok(());
        }
        let meta: &'m EntryMeta = self.meta;
        let d = &meta.resources[ri];
        let info = self.res.info[ri].clone();
        if let Some(p) = info.model {
            match p.location {
                ResourceLocation::RootConstants { .. } | ResourceLocation::RecordConstants { .. } => {
                    self.res.info[ri].rows = d.cb_size.div_ceil(16).max(1);
                    self.res.info[ri].var =
                        if p.location.in_shader_record() { self.record_var_id()? } else { self.root_var_id()? };
                    return Ok(());
                }
                ResourceLocation::Address { .. } | ResourceLocation::RecordAddress { .. } => {
                    // No variable: every access converts the root descriptor's address.
                    if d.kind == ResKind::RTAccelerationStructure {
                        self.accel_type();
                    } else if d.kind == ResKind::CBuffer {
                        let rows = d.cb_size.div_ceil(16).max(1);
                        self.res.info[ri].rows = rows;
                        self.res.info[ri].blocks[0] = self.cbuffer_struct(rows);
                    } else {
                        self.res.info[ri].blocks[0] = self.ssbo_struct(Scalar::U32);
                        if info.uses & USE_U16 != 0 {
                            self.cap(Capability::StorageBuffer16BitAccess);
                            self.res.info[ri].blocks[1] = self.ssbo_struct(Scalar::U16);
                        }
                        if info.uses & USE_U64 != 0 {
                            self.cap(Capability::Int64Atomics);
                            self.res.info[ri].blocks[2] = self.ssbo_struct(Scalar::U64);
                        }
                    }
                    self.res.info[ri].var =
                        if p.location.in_shader_record() { self.record_var_id()? } else { self.root_var_id()? };
                    return Ok(());
                }
                _ => {}
            }
        }
        let heap = matches!(
            info.model.map(|p| p.location),
            Some(ResourceLocation::Heap { .. } | ResourceLocation::RecordHeap { .. })
        );
        let cbv_ssbo = self.cbuffer_storage(r) == StorageClass::StorageBuffer;
        let (set, binding) = match info.placement {
            Some(Placement::Descriptor { set, binding }) => (set, binding),
            Some(Placement::PushConstants) => (u32::MAX, u32::MAX),
            None => {
                return unsupported(format!(
                    "register {}{} is beyond the binding rule's range",
                    d.class.letter(),
                    d.lower
                ))
            }
        };
        let u = self.u32();
        let (inner, sc) = match d.kind {
            ResKind::RawBuffer | ResKind::StructuredBuffer => {
                let st = self.ssbo_struct(Scalar::U32);
                self.res.info[ri].blocks[0] = st;
                (st, StorageClass::StorageBuffer)
            }
            ResKind::CBuffer => {
                let rows = d.cb_size.div_ceil(16).max(1);
                self.res.info[ri].rows = rows;
                let _ = u;
                let st = self.cbuffer_struct(rows);
                // The placement says push constants (set u32::MAX is also space 0xFFFFFFFF's set).
                let sc = if info.placement == Some(Placement::PushConstants) {
                    StorageClass::PushConstant
                } else if cbv_ssbo {
                    StorageClass::StorageBuffer
                } else {
                    StorageClass::Uniform
                };
                (st, sc)
            }
            ResKind::Sampler => {
                if self.res.sampler_ty == 0 {
                    self.res.sampler_ty = self.new_type(Op::TypeSampler, &[]);
                }
                (self.res.sampler_ty, StorageClass::UniformConstant)
            }
            k if k == ResKind::TypedBuffer
                || k.is_texture()
                || matches!(k, ResKind::FeedbackTexture2D | ResKind::FeedbackTexture2DArray) =>
            {
                let img = self.image_type(r, d)?;
                (img, StorageClass::UniformConstant)
            }
            ResKind::RTAccelerationStructure => (self.accel_type(), StorageClass::UniformConstant),
            k => return unsupported(format!("{} resources", k.name())),
        };
        if sc == StorageClass::PushConstant {
            if d.size != Some(1) {
                return unsupported("root constants mapped to a range of several CBVs");
            }
            let pt = self.pointer(sc, inner);
            let var = self.global_var(pt, sc, None);
            self.res.info[ri].var = var;
            self.res.push_var = var;
            return Ok(());
        }
        let is_ssbo = matches!(d.kind, ResKind::RawBuffer | ResKind::StructuredBuffer);
        if heap {
            // One runtime array per (set, binding, element type), shared by every range placed
            // in it (SRVs and UAVs alike, so no NonWritable).
            let var = self.heap_var(set, binding, inner, sc);
            self.res.info[ri].var = var;
            for (flag, view, k) in [(USE_U16, Scalar::U16, 1), (USE_U64, Scalar::U64, 2)] {
                if !is_ssbo || info.uses & flag == 0 {
                    continue;
                }
                self.cap(if view == Scalar::U16 {
                    Capability::StorageBuffer16BitAccess
                } else {
                    Capability::Int64Atomics
                });
                let inner = self.ssbo_struct(view);
                self.res.info[ri].blocks[k] = inner;
                let v = self.heap_var(set, binding, inner, sc);
                if view == Scalar::U16 {
                    self.res.info[ri].var16 = v;
                } else {
                    self.res.info[ri].var64 = v;
                }
            }
            return Ok(());
        }
        let (ty, arrayed) = self.descriptor_array(inner, d.size);
        let pt = self.pointer(sc, ty);
        let var = self.global_var(pt, sc, None);
        self.decorate(var, Decoration::DescriptorSet, &[set]);
        self.decorate(var, Decoration::Binding, &[binding]);
        let _ = arrayed;
        if is_ssbo && d.class == ResourceClass::Srv {
            self.decorate(var, Decoration::NonWritable, &[]);
        }
        if d.globally_coherent && d.class == ResourceClass::Uav {
            self.decorate(var, Decoration::Coherent, &[]);
        }
        self.res.info[ri].var = var;
        for (flag, view) in [(USE_U16, Scalar::U16), (USE_U64, Scalar::U64)] {
            if !is_ssbo || info.uses & flag == 0 {
                continue;
            }
            if view == Scalar::U16 {
                self.cap(Capability::StorageBuffer16BitAccess);
            } else {
                self.cap(Capability::Int64Atomics);
            }
            let inner = self.ssbo_struct(view);
            self.res.info[ri].blocks[if view == Scalar::U16 { 1 } else { 2 }] = inner;
            let (ty, _) = self.descriptor_array(inner, d.size);
            let pt = self.pointer(sc, ty);
            let v = self.global_var(pt, sc, None);
            self.decorate(v, Decoration::DescriptorSet, &[set]);
            self.decorate(v, Decoration::Binding, &[binding]);
            if d.class == ResourceClass::Srv {
                self.decorate(v, Decoration::NonWritable, &[]);
            }
            if d.globally_coherent && d.class == ResourceClass::Uav {
                self.decorate(v, Decoration::Coherent, &[]);
            }
            if view == Scalar::U16 {
                self.res.info[ri].var16 = v;
            } else {
                self.res.info[ri].var64 = v;
            }
        }
        Ok(())
    }

    /// `struct { uvec4 rows[rows]; }` with Block layout, for constant buffers.
    fn cbuffer_struct(&mut self, rows: u32) -> Word {
        let u = self.u32();
        let u4 = self.vector(u, 4);
        let n = self.const_u32(rows);
        let arr = self.new_type(Op::TypeArray, &[u4, n]);
        self.decorate(arr, Decoration::ArrayStride, &[16]);
        let st = self.new_type(Op::TypeStruct, &[arr]);
        self.decorate(st, Decoration::Block, &[]);
        self.member_decorate(st, 0, Decoration::Offset, &[0]);
        st
    }

    /// `struct { T data[]; }` with Block layout, for storage buffers.
    fn ssbo_struct(&mut self, s: Scalar) -> Word {
        let e = self.scalar(s);
        let stride = match s {
            Scalar::U16 => 2,
            Scalar::U64 => 8,
            _ => 4,
        };
        let rt = self.new_type(Op::TypeRuntimeArray, &[e]);
        self.decorate(rt, Decoration::ArrayStride, &[stride]);
        let st = self.new_type(Op::TypeStruct, &[rt]);
        self.decorate(st, Decoration::Block, &[]);
        self.member_decorate(st, 0, Decoration::Offset, &[0]);
        st
    }

    /// Wraps a descriptor type in an array for ranges of several registers.
    fn descriptor_array(&mut self, inner: Word, size: Option<u32>) -> (Word, bool) {
        match size {
            Some(1) => (inner, false),
            Some(n) => {
                let c = self.const_u32(n);
                (self.new_type(Op::TypeArray, &[inner, c]), true)
            }
            None => {
                self.cap(Capability::RuntimeDescriptorArray);
                self.ext("SPV_EXT_descriptor_indexing");
                (self.new_type(Op::TypeRuntimeArray, &[inner]), true)
            }
        }
    }

    fn image_type(&mut self, r: u32, d: &super::meta::ResDecl) -> LResult<Word> {
        let ri = r as usize;
        let uses = self.res.info[ri].uses;
        let wide = uses & USE_U64 != 0;
        let feedback = matches!(d.kind, ResKind::FeedbackTexture2D | ResKind::FeedbackTexture2DArray);
        let sampled_s = match d.comp {
            // Sampler feedback maps: R32_UINT storage images of mip-level masks (`lower::feedback`).
            _ if feedback => Scalar::U32,
            // 64-bit atomics on a typed UAV: D3D12 makes it an R32G32_UINT resource (component type
            // u32); Vulkan sees it as R64_UINT.
            CompType::UInt | CompType::SInt if wide => {
                self.cap(Capability::Int64ImageEXT);
                self.ext("SPV_EXT_shader_image_int64");
                Scalar::U64
            }
            CompType::Float => Scalar::F32,
            CompType::SInt => Scalar::I32,
            CompType::UInt => Scalar::U32,
            // 16-bit texel types (min-precision or native): SPIR-V reads and writes the image with
            // its 32-bit counterpart; the ops' 16-bit overloads convert.
            CompType::Other(2) => Scalar::I32,
            CompType::Other(3) => Scalar::U32,
            CompType::Other(8 | 11 | 12) => Scalar::F32,
            CompType::Other(v) => {
                return unsupported(format!("typed {} with element component type {v}", d.kind.name()))
            }
        };
        let st = self.scalar(sampled_s);
        let uav = d.class == ResourceClass::Uav;
        let (dim, arrayed, ms) = match d.kind {
            ResKind::TypedBuffer => (Dim::DimBuffer, 0, 0),
            ResKind::Texture1D => (Dim::Dim1D, 0, 0),
            ResKind::Texture1DArray => (Dim::Dim1D, 1, 0),
            ResKind::Texture2D => (Dim::Dim2D, 0, 0),
            ResKind::Texture2DArray => (Dim::Dim2D, 1, 0),
            ResKind::Texture2DMS => (Dim::Dim2D, 0, 1),
            ResKind::Texture2DMSArray => (Dim::Dim2D, 1, 1),
            ResKind::Texture3D => (Dim::Dim3D, 0, 0),
            ResKind::TextureCube => (Dim::DimCube, 0, 0),
            ResKind::TextureCubeArray => (Dim::DimCube, 1, 0),
            ResKind::FeedbackTexture2D => (Dim::Dim2D, 0, 0),
            ResKind::FeedbackTexture2DArray => (Dim::Dim2D, 1, 0),
            k => return unsupported(format!("{} resources", k.name())),
        };
        match (dim, uav) {
            (Dim::DimBuffer, false) => self.cap(Capability::SampledBuffer),
            (Dim::DimBuffer, true) => self.cap(Capability::ImageBuffer),
            (Dim::Dim1D, false) => self.cap(Capability::Sampled1D),
            (Dim::Dim1D, true) => self.cap(Capability::Image1D),
            (Dim::DimCube, _) if arrayed == 1 => {
                self.cap(if uav { Capability::ImageCubeArray } else { Capability::SampledCubeArray })
            }
            _ => {}
        }
        if uav && ms == 1 {
            self.cap(Capability::StorageImageMultisample);
            if arrayed == 1 {
                self.cap(Capability::ImageMSArray);
            }
        }
        let format = if !uav {
            ImageFormat::Unknown
        } else if wide
            || feedback
            || uses & USE_ATOMIC != 0
            || (uses & USE_READ != 0 && self.meta.flags & 0x2000 == 0 && !self.opts.state.typed_uav_load_without_format)
        {
            // Atomics need an R32 format; loads without the "additional formats" flag are R32 by D3D's rules.
            match sampled_s {
                Scalar::F32 => ImageFormat::R32f,
                Scalar::I32 => ImageFormat::R32i,
                Scalar::U64 => ImageFormat::R64ui,
                _ => ImageFormat::R32ui,
            }
        } else {
            if uses & USE_READ != 0 {
                self.cap(Capability::StorageImageReadWithoutFormat);
            }
            if uses & USE_WRITE != 0 {
                self.cap(Capability::StorageImageWriteWithoutFormat);
            }
            ImageFormat::Unknown
        };
        let key = [st, dim as u32, 0, arrayed, ms, if uav { 2 } else { 1 }, format as u32];
        let img = match self.res.image_types.iter().find(|(k, _)| *k == key) {
            Some(&(_, id)) => id,
            None => {
                let id = self
                    .new_type(Op::TypeImage, &[st, dim as u32, 0, arrayed, ms, if uav { 2 } else { 1 }, format as u32]);
                self.res.image_types.push((key, id));
                id
            }
        };
        let info = &mut self.res.info[ri];
        info.img_ty = img;
        info.sampled = Some(sampled_s);
        info.format = (format != ImageFormat::Unknown).then_some(format);
        Ok(img)
    }

    /// Pointer to the descriptor of a handle (the variable, or its array element).
    pub(crate) fn descriptor_ptr(&mut self, h: HandleVal, var: Word, pointee: Word, sc: StorageClass) -> LResult<Word> {
        match h.index {
            None => Ok(var),
            Some(_) => {
                let pt = self.pointer(sc, pointee);
                self.member_ptr(h, pt, var, &[])
            }
        }
    }

    /// `OpAccessChain %pt %var [array index of h] indices...`: into the descriptor `h` selects
    /// (its array element when `var` is a descriptor array, decorated NonUniform when `h` is).
    pub(crate) fn member_ptr(&mut self, h: HandleVal, pt: Word, var: Word, indices: &[Word]) -> LResult<Word> {
        match h.index {
            None => self.access_chain(pt, var, indices),
            Some(a) => {
                let p = self.op2(Op::AccessChain, pt, &[var, a], indices)?;
                if h.nonuniform {
                    self.nonuniform_indexing(h);
                    self.nonuniform(p);
                }
                Ok(p)
            }
        }
    }

    /// The capability that allows non-uniform indexing of the descriptor array of handle `h`.
    pub(crate) fn nonuniform_indexing(&mut self, h: HandleVal) {
        let c = match descriptor_kind(self.decl(h)) {
            DescriptorKind::UniformBuffer => Capability::UniformBufferArrayNonUniformIndexing,
            DescriptorKind::StorageBuffer => Capability::StorageBufferArrayNonUniformIndexing,
            DescriptorKind::UniformTexelBuffer => Capability::UniformTexelBufferArrayNonUniformIndexing,
            DescriptorKind::StorageTexelBuffer => Capability::StorageTexelBufferArrayNonUniformIndexing,
            DescriptorKind::SampledImage | DescriptorKind::Sampler => Capability::SampledImageArrayNonUniformIndexing,
            DescriptorKind::StorageImage => Capability::StorageImageArrayNonUniformIndexing,
            DescriptorKind::AccelerationStructure | DescriptorKind::PushConstant => return,
        };
        self.cap(c);
    }

    pub(crate) fn nonuniform(&mut self, id: Word) {
        self.cap(Capability::ShaderNonUniform);
        self.ext("SPV_EXT_descriptor_indexing");
        self.decorate(id, Decoration::NonUniform, &[]);
    }

    /// Loads the image (typed buffer or texture) of a handle.
    pub(crate) fn load_image(&mut self, h: HandleVal) -> LResult<(Word, ResInfo)> {
        self.ensure_var(h.res)?;
        let info = self.res.info[h.res as usize].clone();
        if info.img_ty == 0 {
            return malformed(format!("{} used as an image", self.decl(h).kind.name()));
        }
        let p = self.descriptor_ptr(h, info.var, info.img_ty, StorageClass::UniformConstant)?;
        let img = self.load(info.img_ty, p)?;
        if h.nonuniform && h.index.is_some() {
            self.nonuniform(img);
        }
        Ok((img, info))
    }

    /// Pointer to element `idx` of a storage buffer's word (or half-word) array.
    pub(crate) fn ssbo_elem_ptr(&mut self, h: HandleVal, idx: Word, half: bool) -> LResult<Word> {
        self.ssbo_view_ptr(h, idx, if half { Scalar::U16 } else { Scalar::U32 })
    }

    fn ssbo_view(&self, h: HandleVal, view: Scalar) -> Word {
        let info = &self.res.info[h.res as usize];
        match view {
            Scalar::U16 => info.var16,
            Scalar::U64 => info.var64,
            _ => info.var,
        }
    }

    /// Pointer to element `idx` of the `view` (u16, u32 or u64) array of a storage buffer.
    pub(crate) fn ssbo_view_ptr(&mut self, h: HandleVal, idx: Word, view: Scalar) -> LResult<Word> {
        self.ensure_var(h.res)?;
        let idx = self.bounds_rebase(h, idx, view)?;
        if h.base != 0 {
            let st = self.ssbo_block_type(h, view)?;
            let base = self.address_ptr(h.base, st)?;
            let e = self.scalar(view);
            let pt = self.pointer(StorageClass::PhysicalStorageBuffer, e);
            let zero = self.const_u32(0);
            return self.access_chain(pt, base, &[zero, idx]);
        }
        let var = self.ssbo_view(h, view);
        if var == 0 {
            return Err(Fail::Internal("storage buffer view missing".into()));
        }
        let e = self.scalar(view);
        let pt = self.pointer(StorageClass::StorageBuffer, e);
        let zero = self.const_u32(0);
        self.member_ptr(h, pt, var, &[zero, idx])
    }

    /// Number of words (or half-words) in a storage buffer.
    pub(crate) fn ssbo_len(&mut self, h: HandleVal, half: bool) -> LResult<Word> {
        self.ssbo_view_len(h, if half { Scalar::U16 } else { Scalar::U32 })
    }

    /// Number of elements of the `view` array of a storage buffer.
    pub(crate) fn ssbo_view_len(&mut self, h: HandleVal, view: Scalar) -> LResult<Word> {
        self.ensure_var(h.res)?;
        if h.bounds != 0 {
            return self.bounds_count(h, view);
        }
        if h.base != 0 {
            return unsupported("the size of a root descriptor (buffer address): D3D12 root descriptors carry no size");
        }
        let var = self.ssbo_view(h, view);
        let u = self.u32();
        let base = match h.index {
            None => var,
            Some(a) => {
                // Pointer to the block struct inside the descriptor array.
                let st = self.ssbo_block_type(h, view)?;
                let pt = self.pointer(StorageClass::StorageBuffer, st);
                self.access_chain(pt, var, &[a])?
            }
        };
        self.op(Op::ArrayLength, u, &[base, 0])
    }

    /// The Block struct type of the `view` variable of a storage buffer.
    fn ssbo_block_type(&self, h: HandleVal, view: Scalar) -> LResult<Word> {
        let k = match view {
            Scalar::U16 => 1,
            Scalar::U64 => 2,
            _ => 0,
        };
        match self.res.info.get(h.res as usize).and_then(|i| i.blocks.get(k)) {
            Some(&st) if st != 0 => Ok(st),
            _ => Err(Fail::Internal(format!("storage buffer view {view:?} of range {} has no block type", h.res))),
        }
    }

    /// The element count that bounds accesses to storage buffer `h` (`view` units), or `None`
    /// when accesses are not checked: robustness left to the device, or a root descriptor
    /// (buffer address, unbounded in D3D12). Heap views with a bounds buffer are always checked.
    pub(crate) fn ssbo_bound(&mut self, h: HandleVal, view: Scalar) -> LResult<Option<Word>> {
        if h.bounds != 0 || (self.robust_explicit() && h.base == 0) {
            Ok(Some(self.ssbo_view_len(h, view)?))
        } else {
            Ok(None)
        }
    }

    /// Loads through a storage-buffer element pointer (aligned for buffer addresses).
    pub(crate) fn ssbo_elem_load(&mut self, h: HandleVal, ty: Word, p: Word, view: Scalar) -> LResult<Word> {
        if h.base != 0 {
            self.load_aligned(ty, p, scalar_bytes(view))
        } else {
            self.load(ty, p)
        }
    }

    /// Stores through a storage-buffer element pointer (aligned for buffer addresses).
    pub(crate) fn ssbo_elem_store(&mut self, h: HandleVal, p: Word, v: Word, view: Scalar) -> LResult<()> {
        if h.base != 0 {
            self.store_aligned(p, v, scalar_bytes(view))
        } else {
            self.store(p, v)
        }
    }

    /// `cond ? x : 0` for a bounds-checked load result.
    pub(crate) fn zero_if_not(&mut self, cond: Option<Word>, ty: Word, x: Word) -> LResult<Word> {
        match cond {
            None => Ok(x),
            Some(c) => {
                let z = self.null(ty);
                self.select(c, ty, x, z)
            }
        }
    }

    /// The scalar type of field 0 of a `dx.types` result struct.
    pub(crate) fn field_scalar(&self, i: InstId) -> LResult<Scalar> {
        let t = self.f.inst(i).ty;
        match self.m.types.get(t) {
            Type::Struct { elems, .. } => match elems.first().and_then(|e| self.scalar_of(*e)) {
                Some(s) => Ok(s),
                None => malformed("dx.types result with a non-scalar field"),
            },
            _ => self.scalar_of(t).map_or_else(|| malformed("op result is not a dx.types struct"), Ok),
        }
    }

    /// Reinterprets a 32-bit word as scalar `s` (u32/f32/i32).
    pub(crate) fn word_as(&mut self, s: Scalar, w: Word) -> LResult<Word> {
        match s {
            Scalar::U32 => Ok(w),
            Scalar::F32 | Scalar::I32 => {
                let t = self.scalar(s);
                self.op(Op::Bitcast, t, &[w])
            }
            _ => Err(Fail::Internal(format!("from_word {s:?}"))),
        }
    }

    /// Reinterprets a 32-bit value of scalar `s` as a u32 word.
    pub(crate) fn as_word(&mut self, s: Scalar, v: Word) -> LResult<Word> {
        match s {
            Scalar::U32 => Ok(v),
            Scalar::F32 | Scalar::I32 => {
                let u = self.u32();
                self.op(Op::Bitcast, u, &[v])
            }
            _ => Err(Fail::Internal(format!("to_word {s:?}"))),
        }
    }
}

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    match op {
        DxilOp::CreateHandle | DxilOp::CreateHandleFromBinding | DxilOp::CreateHandleFromHeap => {
            create_handle(l, i, op, args)
        }
        DxilOp::AnnotateHandle => {
            let Some(&h) = args.first() else { return malformed("AnnotateHandle without handle") };
            let mut hv = l.handle(h)?;
            // A heap descriptor is what its annotation says (one heap index, several views).
            let r = l.res.handle_res.get(i.index()).copied().unwrap_or(0);
            if r > 0 && r - 1 != hv.res {
                hv.res = r - 1;
                l.ensure_var(hv.res)?;
            }
            let k = l.res.handles.len() as u32;
            l.res.handles.push(hv);
            l.set(i, Val::Handle(k));
            Ok(())
        }
        DxilOp::CheckAccessFullyMapped => {
            let t = l.bool();
            let _ = t;
            let c = l.const_bool(true);
            l.set_id(i, c);
            Ok(())
        }
        DxilOp::CBufferLoadLegacy => cbuffer_load_legacy(l, i, args),
        DxilOp::CBufferLoad => cbuffer_load(l, i, args),
        DxilOp::BufferUpdateCounter => update_counter(l, i, args),
        DxilOp::BufferLoad | DxilOp::RawBufferLoad => buffer_load(l, i, op, args),
        DxilOp::BufferStore | DxilOp::RawBufferStore => buffer_store(l, op, args),
        _ => Err(Fail::Internal(format!("resources::lower got {}", op.name()))),
    }
}

fn create_handle(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    let r = l.res.handle_res.get(i.index()).copied().unwrap_or(0);
    if r == 0 {
        if op == DxilOp::CreateHandleFromHeap {
            return unsupported("CreateHandleFromHeap whose handle no AnnotateHandle describes");
        }
        return Err(Fail::Internal("handle not resolved by the scan".into()));
    }
    let res = r - 1;
    let d = &l.meta.resources[res as usize];
    let (lower, size) = (d.lower, d.size);
    let (idx_arg, nu_arg) = match op {
        DxilOp::CreateHandle => (args.get(2), args.get(3)),
        DxilOp::CreateHandleFromHeap => (args.first(), args.get(2)),
        _ => (args.get(1), args.get(2)),
    };
    let Some(&idx) = idx_arg else { return malformed("handle creation without index") };
    let nonuniform = nu_arg.and_then(|v| l.m.const_uint(*v)).unwrap_or(0) != 0;
    let index = if size == Some(1) {
        None
    } else if let Some(c) = l.m.const_uint(idx) {
        let rel = (c as u32).wrapping_sub(lower);
        Some(l.const_u32(rel))
    } else {
        let v = l.value(idx)?;
        let lc = l.const_u32(lower);
        let u = l.u32();
        Some(if lower == 0 { v } else { l.op(Op::ISub, u, &[v, lc])? })
    };
    l.ensure_var(res)?;
    let k = l.res.handles.len() as u32;
    let hv = if l.res.info[res as usize].model.is_some() {
        l.model_handle(res, index, nonuniform)?
    } else {
        HandleVal { res, index, nonuniform: nonuniform && index.is_some(), base: 0, bounds: 0 }
    };
    l.res.handles.push(hv);
    l.set(i, Val::Handle(k));
    Ok(())
}

fn cbuffer_ptr(l: &mut Lowerer<'_>, h: HandleVal, row: Word) -> LResult<Word> {
    l.ensure_var(h.res)?;
    let var = l.res.info[h.res as usize].var;
    let sc = l.cbuffer_storage(h.res);
    let u = l.u32();
    let u4 = l.vector(u, 4);
    let pt = l.pointer(sc, u4);
    let zero = l.const_u32(0);
    l.member_ptr(h, pt, var, &[zero, row])
}

/// Loads `uvec4` row `row` of a constant buffer, 0 when out of bounds.
fn cbuffer_row_value(l: &mut Lowerer<'_>, h: HandleVal, row: Value) -> LResult<Word> {
    let u = l.u32();
    let u4 = l.vector(u, 4);
    let loc = l.model_placement(h.res).map(|p| p.location);
    if let Some((block, word, words)) = loc.and_then(super::bindless::constants_at) {
        let rc = l.m.const_uint(row).map(|c| u32::try_from(c).unwrap_or(u32::MAX));
        let r = match rc {
            Some(c) => l.const_u32(c),
            None => l.value(row)?,
        };
        return l.root_constant_row(block, word, words, r, rc);
    }
    match loc {
        Some(ResourceLocation::Address { .. } | ResourceLocation::RecordAddress { .. }) => {
            l.ensure_var(h.res)?;
            let (r, inb) = cbuffer_row(l, h, row)?;
            let st = l.res.info[h.res as usize].blocks[0];
            let base = l.address_ptr(h.base, st)?;
            let pt = l.pointer(StorageClass::PhysicalStorageBuffer, u4);
            let zero = l.const_u32(0);
            let p = l.access_chain(pt, base, &[zero, r])?;
            let v = l.load_aligned(u4, p, 16)?;
            l.zero_if_not(inb, u4, v)
        }
        _ => {
            let (r, inb) = cbuffer_row(l, h, row)?;
            let p = cbuffer_ptr(l, h, r)?;
            let v = l.load(u4, p)?;
            l.zero_if_not(inb, u4, v)
        }
    }
}

/// Clamps a dynamic row index (Explicit robustness); returns the row and the in-bounds condition.
fn cbuffer_row(l: &mut Lowerer<'_>, h: HandleVal, row: Value) -> LResult<(Word, Option<Word>)> {
    let rows = l.res.info[h.res as usize].rows;
    if let Some(c) = l.m.const_uint(row) {
        if c >= u64::from(rows) {
            return Ok((l.const_u32(0), Some(l.const_bool(false))));
        }
        return Ok((l.const_u32(c as u32), None));
    }
    let r = l.value(row)?;
    if !l.robust_explicit() {
        return Ok((r, None));
    }
    let u = l.u32();
    let bt = l.bool();
    let n = l.const_u32(rows);
    let inb = l.op(Op::ULessThan, bt, &[r, n])?;
    let zero = l.const_u32(0);
    let safe = l.op(Op::Select, u, &[inb, r, zero])?;
    Ok((safe, Some(inb)))
}

fn cbuffer_load_legacy(l: &mut Lowerer<'_>, i: InstId, args: &[Value]) -> LResult<()> {
    let (Some(&hv), Some(&row)) = (args.first(), args.get(1)) else { return malformed("CBufferLoadLegacy arguments") };
    let h = l.handle(hv)?;
    if l.decl(h).kind != ResKind::CBuffer {
        return unsupported(format!("CBufferLoadLegacy on {}", l.decl(h).kind.name()));
    }
    let s = l.field_scalar(i)?;
    l.ensure_var(h.res)?;
    let v = cbuffer_row_value(l, h, row)?;
    let u = l.u32();
    let used = l.used.get(i.index()).copied().unwrap_or(0);
    let mut parts = [0 as Word; 8];
    // Min-precision 16-bit values take a 32-bit word each.
    let n = match s {
        Scalar::U32 | Scalar::F32 => 4,
        Scalar::U64 | Scalar::F64 => 2,
        Scalar::U16 | Scalar::F16 if !l.native16() => 4,
        Scalar::U16 | Scalar::F16 => 8,
        _ => return unsupported(format!("CBufferLoadLegacy of {s:?}")),
    };
    for (k, part) in parts.iter_mut().enumerate().take(n) {
        if used & (1 << k) == 0 {
            continue;
        }
        let comp = |l: &mut Lowerer<'_>, c: u32| l.op(Op::CompositeExtract, u, &[v, c]);
        *part = match s {
            Scalar::U32 | Scalar::F32 => {
                let w = comp(l, k as u32)?;
                l.word_as(s, w)?
            }
            Scalar::U16 | Scalar::F16 if n == 4 => {
                let w = comp(l, k as u32)?;
                narrow_word(l, s, w)?
            }
            Scalar::U64 | Scalar::F64 => {
                let lo = comp(l, 2 * k as u32)?;
                let hi = comp(l, 2 * k as u32 + 1)?;
                let u2 = l.vector(u, 2);
                let pair = l.op(Op::CompositeConstruct, u2, &[lo, hi])?;
                let t = l.scalar(s);
                l.op(Op::Bitcast, t, &[pair])?
            }
            _ => {
                let w = comp(l, k as u32 / 2)?;
                let w = if k % 2 == 1 {
                    let sh = l.const_u32(16);
                    l.op(Op::ShiftRightLogical, u, &[w, sh])?
                } else {
                    w
                };
                let u16t = l.scalar(Scalar::U16);
                let h16 = l.op(Op::UConvert, u16t, &[w])?;
                if s == Scalar::F16 {
                    let t = l.scalar(Scalar::F16);
                    l.op(Op::Bitcast, t, &[h16])?
                } else {
                    h16
                }
            }
        };
    }
    l.set_parts(i, &parts[..n]);
    Ok(())
}

fn cbuffer_load(l: &mut Lowerer<'_>, i: InstId, args: &[Value]) -> LResult<()> {
    let (Some(&hv), Some(&off)) = (args.first(), args.get(1)) else { return malformed("CBufferLoad arguments") };
    let h = l.handle(hv)?;
    let Some(s) = l.scalar_of(l.f.inst(i).ty) else { return malformed("CBufferLoad result") };
    let u = l.u32();
    let o = l.value(off)?;
    let r = match s {
        Scalar::U32 | Scalar::F32 => {
            let x = cbuffer_word(l, h, o)?;
            l.word_as(s, x)?
        }
        Scalar::U64 | Scalar::F64 => {
            let lo = cbuffer_word(l, h, o)?;
            let o4 = add_const(l, o, 4)?;
            let hi = cbuffer_word(l, h, o4)?;
            let u2 = l.vector(u, 2);
            let pair = l.op(Op::CompositeConstruct, u2, &[lo, hi])?;
            let t = l.scalar(s);
            l.op(Op::Bitcast, t, &[pair])?
        }
        Scalar::U16 | Scalar::F16 if !l.native16() => {
            // Min precision: a 32-bit word.
            let w = cbuffer_word(l, h, o)?;
            narrow_word(l, s, w)?
        }
        Scalar::U16 | Scalar::F16 => {
            let w = cbuffer_word(l, h, o)?;
            let two = l.const_u32(2);
            let eight = l.const_u32(8);
            let half = l.op(Op::BitwiseAnd, u, &[o, two])?;
            let sh = l.op(Op::IMul, u, &[half, eight])?;
            let x = l.op(Op::ShiftRightLogical, u, &[w, sh])?;
            let u16t = l.scalar(Scalar::U16);
            let x = l.op(Op::UConvert, u16t, &[x])?;
            if s == Scalar::F16 {
                let t = l.scalar(Scalar::F16);
                l.op(Op::Bitcast, t, &[x])?
            } else {
                x
            }
        }
        _ => return unsupported(format!("CBufferLoad of {s:?}")),
    };
    l.set_id(i, r);
    Ok(())
}

/// A min-precision value read from its 32-bit memory word as the 16-bit type `s` (`F16`:
/// the float converted, `U16`: the low 16 bits).
#[cold]
#[inline(never)]
fn narrow_word(l: &mut Lowerer<'_>, s: Scalar, w: Word) -> LResult<Word> {
    let t = l.scalar(s);
    if s == Scalar::F16 {
        let f = l.f32();
        let x = l.op(Op::Bitcast, f, &[w])?;
        l.op(Op::FConvert, t, &[x])
    } else {
        l.op(Op::UConvert, t, &[w])
    }
}

/// A 16-bit min-precision value as the 32-bit memory word D3D12 stores it in (`F16`: the
/// float converted; `U16`: sign-extended, as `min16int` reads back).
#[cold]
#[inline(never)]
fn widen_to_word(l: &mut Lowerer<'_>, s: Scalar, x: Word) -> LResult<Word> {
    let u = l.u32();
    if s == Scalar::F16 {
        let f = l.f32();
        let x = l.op(Op::FConvert, f, &[x])?;
        l.op(Op::Bitcast, u, &[x])
    } else {
        l.op(Op::SConvert, u, &[x])
    }
}

/// The 32-bit word of a constant buffer containing byte offset `o` (0 when out of bounds).
fn cbuffer_word(l: &mut Lowerer<'_>, h: HandleVal, o: Word) -> LResult<Word> {
    let u = l.u32();
    let c4 = l.const_u32(4);
    let c2 = l.const_u32(2);
    let c3 = l.const_u32(3);
    let row = l.op(Op::ShiftRightLogical, u, &[o, c4])?;
    let w = l.op(Op::ShiftRightLogical, u, &[o, c2])?;
    let comp = l.op(Op::BitwiseAnd, u, &[w, c3])?;
    l.ensure_var(h.res)?;
    if let Some((block, word, words)) = l.model_placement(h.res).and_then(|p| super::bindless::constants_at(p.location))
    {
        let bt = l.bool();
        let n = l.const_u32(words);
        let inb = l.op(Op::ULessThan, bt, &[w, n])?;
        let zero = l.const_u32(0);
        let safe = l.op(Op::Select, u, &[inb, w, zero])?;
        let base = l.const_u32(word);
        let at = l.op(Op::IAdd, u, &[safe, base])?;
        let x = l.block_word(block, at)?;
        return l.zero_if_not(Some(inb), u, x);
    }
    let rows = l.res.info[h.res as usize].rows;
    let bt = l.bool();
    let n = l.const_u32(rows);
    let inb = l.op(Op::ULessThan, bt, &[row, n])?;
    let zero = l.const_u32(0);
    let safe = l.op(Op::Select, u, &[inb, row, zero])?;
    let x = if let Some(ResourceLocation::Address { .. } | ResourceLocation::RecordAddress { .. }) =
        l.model_placement(h.res).map(|p| p.location)
    {
        let st = l.res.info[h.res as usize].blocks[0];
        let base = l.address_ptr(h.base, st)?;
        let pt = l.pointer(StorageClass::PhysicalStorageBuffer, u);
        let p = l.access_chain(pt, base, &[zero, safe, comp])?;
        l.load_aligned(u, p, 4)?
    } else {
        let var = l.res.info[h.res as usize].var;
        let sc = l.cbuffer_storage(h.res);
        let pt = l.pointer(sc, u);
        let p = l.member_ptr(h, pt, var, &[zero, safe, comp])?;
        l.load(u, p)?
    };
    l.zero_if_not(Some(inb), u, x)
}

fn update_counter(l: &mut Lowerer<'_>, i: InstId, args: &[Value]) -> LResult<()> {
    let (Some(&hv), Some(&inc)) = (args.first(), args.get(1)) else {
        return malformed("BufferUpdateCounter arguments");
    };
    let h = l.handle(hv)?;
    let d = l.decl(h);
    let Some((set, binding)) = l.res.info[h.res as usize].counter else {
        if d.heap {
            return unsupported("UAV counter of a descriptor-heap resource");
        }
        return malformed("BufferUpdateCounter on a UAV without counter");
    };
    let u = l.u32();
    let kind = l.res.info[h.res as usize].counter_kind;
    if kind == super::bindless::CounterKind::AddressTable {
        let index = match h.index {
            Some(a) => a,
            None => l.const_u32(0),
        };
        let addr = l.counter_address(set, binding, index)?;
        let p = l.address_ptr(addr, u)?;
        return counter_atomic(l, i, inc, p);
    }
    if l.res.info[h.res as usize].counter_var == 0 {
        let st = l.new_type(Op::TypeStruct, &[u]);
        l.decorate(st, Decoration::Block, &[]);
        l.member_decorate(st, 0, Decoration::Offset, &[0]);
        // A heap counter array is indexed like the UAV (its heap index).
        let size = if kind == super::bindless::CounterKind::Heap { None } else { d.size };
        let (ty, _) = l.descriptor_array(st, size);
        let pt = l.pointer(StorageClass::StorageBuffer, ty);
        let var = l.global_var(pt, StorageClass::StorageBuffer, None);
        l.decorate(var, Decoration::DescriptorSet, &[set]);
        l.decorate(var, Decoration::Binding, &[binding]);
        l.res.info[h.res as usize].counter_var = var;
    }
    let var = l.res.info[h.res as usize].counter_var;
    let pt = l.pointer(StorageClass::StorageBuffer, u);
    let zero = l.const_u32(0);
    let p = match h.index {
        None => l.access_chain(pt, var, &[zero])?,
        Some(a) => l.access_chain(pt, var, &[a, zero])?,
    };
    counter_atomic(l, i, inc, p)
}

/// The counter update itself: `IncrementCounter` returns the old value, `DecrementCounter` the new.
fn counter_atomic(l: &mut Lowerer<'_>, i: InstId, inc: Value, p: Word) -> LResult<()> {
    let u = l.u32();
    let scope = l.const_u32(Scope::Device as u32);
    let sem = l.const_u32(0);
    let one = l.const_u32(1);
    let dec = l.m.const_int(inc).is_some_and(|v| v < 0);
    let r = if dec {
        let old = l.op(Op::AtomicISub, u, &[p, scope, sem, one])?;
        l.op(Op::ISub, u, &[old, one])?
    } else {
        l.op(Op::AtomicIAdd, u, &[p, scope, sem, one])?
    };
    l.set_id(i, r);
    Ok(())
}

/// Byte address of a raw/structured buffer access.
pub(crate) fn byte_address(l: &mut Lowerer<'_>, h: HandleVal, index: Value, offset: Option<Value>) -> LResult<Word> {
    let d = l.decl(h);
    let (kind, stride) = (d.kind, d.stride);
    let u = l.u32();
    let idx = l.value(index)?;
    match kind {
        ResKind::RawBuffer => Ok(idx),
        ResKind::StructuredBuffer => {
            let s = l.const_u32(stride);
            let base = l.op(Op::IMul, u, &[idx, s])?;
            match offset {
                Some(o) if l.m.const_uint(o) != Some(0) => {
                    let ov = l.value(o)?;
                    l.op(Op::IAdd, u, &[base, ov])
                }
                _ => Ok(base),
            }
        }
        k => malformed(format!("byte address into {}", k.name())),
    }
}

/// Bytes of a storage-buffer view's element.
fn scalar_bytes(view: Scalar) -> u32 {
    match view {
        Scalar::U16 => 2,
        Scalar::U64 => 8,
        _ => 4,
    }
}

fn add_const(l: &mut Lowerer<'_>, x: Word, k: u32) -> LResult<Word> {
    if k == 0 {
        return Ok(x);
    }
    let u = l.u32();
    let c = l.const_u32(k);
    l.op(Op::IAdd, u, &[x, c])
}

/// Loads element `idx` of a storage buffer view with an optional bounds check.
fn ssbo_load(l: &mut Lowerer<'_>, h: HandleVal, idx: Word, half: bool, len: Option<Word>) -> LResult<Word> {
    let view = if half { Scalar::U16 } else { Scalar::U32 };
    let e = l.scalar(view);
    match len {
        None => {
            let p = l.ssbo_elem_ptr(h, idx, half)?;
            l.ssbo_elem_load(h, e, p, view)
        }
        Some(n) => {
            let bt = l.bool();
            let u = l.u32();
            let inb = l.op(Op::ULessThan, bt, &[idx, n])?;
            let zero = l.const_u32(0);
            let safe = l.op(Op::Select, u, &[inb, idx, zero])?;
            let p = l.ssbo_elem_ptr(h, safe, half)?;
            let x = l.ssbo_elem_load(h, e, p, view)?;
            l.zero_if_not(Some(inb), e, x)
        }
    }
}

fn ssbo_store(l: &mut Lowerer<'_>, h: HandleVal, idx: Word, half: bool, v: Word, len: Option<Word>) -> LResult<()> {
    let view = if half { Scalar::U16 } else { Scalar::U32 };
    match len {
        None => {
            let p = l.ssbo_elem_ptr(h, idx, half)?;
            l.ssbo_elem_store(h, p, v, view)
        }
        Some(n) => {
            let bt = l.bool();
            let inb = l.op(Op::ULessThan, bt, &[idx, n])?;
            l.guarded(inb, |l| {
                let p = l.ssbo_elem_ptr(h, idx, half)?;
                l.ssbo_elem_store(h, p, v, view)
            })
        }
    }
}

fn buffer_load(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    let (Some(&hv), Some(&index)) = (args.first(), args.get(1)) else { return malformed("buffer load arguments") };
    let h = l.handle(hv)?;
    let kind = l.decl(h).kind;
    let s = l.field_scalar(i)?;
    let used = l.used.get(i.index()).copied().unwrap_or(0);
    let mut parts = [0 as Word; 5];
    parts[4] = l.const_u32(0);
    if kind == ResKind::TypedBuffer {
        if op != DxilOp::BufferLoad {
            return malformed("RawBufferLoad on a typed buffer");
        }
        let coord = l.value(index)?;
        let texel = typed_buffer_load(l, h, coord)?;
        let (_, info) = (0, l.res.info[h.res as usize].clone());
        let st = info.sampled.unwrap_or(Scalar::F32);
        for (k, part) in parts.iter_mut().enumerate().take(4) {
            if used & (1 << k) == 0 {
                continue;
            }
            *part = texel_part(l, st, s, texel, k as u32)?;
        }
        l.set_parts(i, &parts);
        return Ok(());
    }
    if !matches!(kind, ResKind::RawBuffer | ResKind::StructuredBuffer) {
        return unsupported(format!("{} on {}", op.name(), kind.name()));
    }
    let addr = byte_address(l, h, index, args.get(2).copied())?;
    let mut mask = used & 0xf;
    if op == DxilOp::RawBufferLoad {
        if let Some(m) = args.get(3).and_then(|m| l.m.const_uint(*m)) {
            mask &= m as u8;
        }
    }
    let u = l.u32();
    // Min-precision 16-bit values take 32 bits in memory.
    let half = matches!(s, Scalar::U16 | Scalar::F16) && l.native16();
    let len = l.ssbo_bound(h, if half { Scalar::U16 } else { Scalar::U32 })?;
    let sh = l.const_u32(if half { 1 } else { 2 });
    let base = l.op(Op::ShiftRightLogical, u, &[addr, sh])?;
    for (k, part) in parts.iter_mut().enumerate().take(4) {
        if mask & (1 << k) == 0 {
            continue;
        }
        *part = match s {
            Scalar::U32 | Scalar::F32 => {
                let w = add_const(l, base, k as u32)?;
                let x = ssbo_load(l, h, w, false, len)?;
                l.word_as(s, x)?
            }
            Scalar::U16 | Scalar::F16 if !half => {
                let w = add_const(l, base, k as u32)?;
                let x = ssbo_load(l, h, w, false, len)?;
                narrow_word(l, s, x)?
            }
            Scalar::U16 | Scalar::F16 => {
                let w = add_const(l, base, k as u32)?;
                let x = ssbo_load(l, h, w, true, len)?;
                if s == Scalar::F16 {
                    let t = l.scalar(s);
                    l.op(Op::Bitcast, t, &[x])?
                } else {
                    x
                }
            }
            Scalar::U64 | Scalar::F64 => {
                let w0 = add_const(l, base, 2 * k as u32)?;
                let w1 = add_const(l, base, 2 * k as u32 + 1)?;
                let lo = ssbo_load(l, h, w0, false, len)?;
                let hi = ssbo_load(l, h, w1, false, len)?;
                let u2 = l.vector(u, 2);
                let pair = l.op(Op::CompositeConstruct, u2, &[lo, hi])?;
                let t = l.scalar(s);
                l.op(Op::Bitcast, t, &[pair])?
            }
            _ => return unsupported(format!("{} of {s:?}", op.name())),
        };
    }
    l.set_parts(i, &parts);
    Ok(())
}

fn buffer_store(l: &mut Lowerer<'_>, op: DxilOp, args: &[Value]) -> LResult<()> {
    if args.len() < 8 {
        return malformed(format!("{} arguments", op.name()));
    }
    let h = l.handle(args[0])?;
    let kind = l.decl(h).kind;
    let vals = &args[3..7];
    let Some(mask) = l.m.const_uint(args[7]) else { return malformed("store mask is not a constant") };
    let vt = l.m.value_type(l.f, vals[0]);
    let Some(s) = l.scalar_of(vt) else { return malformed("store value type") };
    if kind == ResKind::TypedBuffer {
        if op != DxilOp::BufferStore {
            return malformed("RawBufferStore on a typed buffer");
        }
        let coord = l.value(args[1])?;
        l.ensure_var(h.res)?;
        let st = l.res.info[h.res as usize].sampled.unwrap_or(Scalar::F32);
        let mut comps = [0; 4];
        for (k, c) in comps.iter_mut().enumerate() {
            *c = l.value(vals[k])?;
        }
        let texel = build_texel(l, s, st, comps)?;
        return typed_buffer_store(l, h, coord, texel);
    }
    if !matches!(kind, ResKind::RawBuffer | ResKind::StructuredBuffer) {
        return unsupported(format!("{} on {}", op.name(), kind.name()));
    }
    let addr = byte_address(l, h, args[1], Some(args[2]))?;
    let u = l.u32();
    // Min-precision 16-bit values take 32 bits in memory.
    let half = matches!(s, Scalar::U16 | Scalar::F16) && l.native16();
    let len = l.ssbo_bound(h, if half { Scalar::U16 } else { Scalar::U32 })?;
    let sh = l.const_u32(if half { 1 } else { 2 });
    let base = l.op(Op::ShiftRightLogical, u, &[addr, sh])?;
    for (k, &v) in vals.iter().enumerate() {
        if mask & (1 << k) == 0 {
            continue;
        }
        let x = l.value(v)?;
        match s {
            Scalar::U32 | Scalar::F32 => {
                let w = add_const(l, base, k as u32)?;
                let x = l.as_word(s, x)?;
                ssbo_store(l, h, w, false, x, len)?;
            }
            Scalar::U16 | Scalar::F16 if !half => {
                let w = add_const(l, base, k as u32)?;
                let x = widen_to_word(l, s, x)?;
                ssbo_store(l, h, w, false, x, len)?;
            }
            Scalar::U16 | Scalar::F16 => {
                let w = add_const(l, base, k as u32)?;
                let x = if s == Scalar::F16 {
                    let t = l.scalar(Scalar::U16);
                    l.op(Op::Bitcast, t, &[x])?
                } else {
                    x
                };
                ssbo_store(l, h, w, true, x, len)?;
            }
            Scalar::U64 | Scalar::F64 => {
                let u2 = l.vector(u, 2);
                let pair = l.op(Op::Bitcast, u2, &[x])?;
                let lo = l.op(Op::CompositeExtract, u, &[pair, 0])?;
                let hi = l.op(Op::CompositeExtract, u, &[pair, 1])?;
                let w0 = add_const(l, base, 2 * k as u32)?;
                let w1 = add_const(l, base, 2 * k as u32 + 1)?;
                ssbo_store(l, h, w0, false, lo, len)?;
                ssbo_store(l, h, w1, false, hi, len)?;
            }
            _ => return unsupported(format!("{} of {s:?}", op.name())),
        }
    }
    Ok(())
}

/// Component `k` of a loaded texel (of sampled type `st`) as scalar `s`. A 64-bit image
/// (`R64ui`, D3D12's R32G32_UINT) reads as the two words (lo, hi) of its one 64-bit component.
pub(crate) fn texel_part(l: &mut Lowerer<'_>, st: Scalar, s: Scalar, texel: Word, k: u32) -> LResult<Word> {
    let stt = l.scalar(st);
    if st == Scalar::U64 {
        let x = l.op(Op::CompositeExtract, stt, &[texel, 0])?;
        let u = l.u32();
        let u2 = l.vector(u, 2);
        let pair = l.op(Op::Bitcast, u2, &[x])?;
        let w = l.op(Op::CompositeExtract, u, &[pair, k % 2])?;
        return convert_texel(l, Scalar::U32, s, w);
    }
    let c = l.op(Op::CompositeExtract, stt, &[texel, k])?;
    convert_texel(l, st, s, c)
}

/// A texel of sampled type `st` from four values of scalar `s` (64-bit images: components
/// 0 and 1 are the low and high words).
pub(crate) fn build_texel(l: &mut Lowerer<'_>, s: Scalar, st: Scalar, vals: [Word; 4]) -> LResult<Word> {
    let stt = l.scalar(st);
    let v4 = l.vector(stt, 4);
    if st == Scalar::U64 {
        let lo = convert_texel(l, s, Scalar::U32, vals[0])?;
        let hi = convert_texel(l, s, Scalar::U32, vals[1])?;
        let u = l.u32();
        let u2 = l.vector(u, 2);
        let pair = l.op(Op::CompositeConstruct, u2, &[lo, hi])?;
        let x = l.op(Op::Bitcast, stt, &[pair])?;
        return l.op(Op::CompositeConstruct, v4, &[x, x, x, x]);
    }
    let mut comps = [0; 4];
    for (c, &v) in comps.iter_mut().zip(vals.iter()) {
        *c = convert_texel(l, s, st, v)?;
    }
    l.op(Op::CompositeConstruct, v4, &comps)
}

/// Converts a texel component between the image's sampled type and the op's overload type.
pub(crate) fn convert_texel(l: &mut Lowerer<'_>, from: Scalar, to: Scalar, v: Word) -> LResult<Word> {
    if from == to {
        return Ok(v);
    }
    let t = l.scalar(to);
    match (from, to) {
        (Scalar::I32 | Scalar::U32 | Scalar::F32, Scalar::I32 | Scalar::U32 | Scalar::F32) => {
            l.op(Op::Bitcast, t, &[v])
        }
        (Scalar::F32, Scalar::F16) | (Scalar::F16, Scalar::F32) => l.op(Op::FConvert, t, &[v]),
        (Scalar::U32 | Scalar::I32, Scalar::U16) | (Scalar::U16, Scalar::U32) => l.op(Op::UConvert, t, &[v]),
        (Scalar::U16, Scalar::I32) => {
            let u = l.u32();
            let w = l.op(Op::UConvert, u, &[v])?;
            l.op(Op::Bitcast, t, &[w])
        }
        _ => unsupported(format!("texel conversion {from:?} → {to:?}")),
    }
}

fn image_in_bounds(l: &mut Lowerer<'_>, img: Word, coord: Word, uav: bool) -> LResult<Word> {
    l.cap(Capability::ImageQuery);
    let u = l.u32();
    let _ = uav;
    let size = l.op(Op::ImageQuerySize, u, &[img])?;
    let bt = l.bool();
    l.op(Op::ULessThan, bt, &[coord, size])
}

fn typed_buffer_load(l: &mut Lowerer<'_>, h: HandleVal, coord: Word) -> LResult<Word> {
    let (img, info) = l.load_image(h)?;
    let st = info.sampled.unwrap_or(Scalar::F32);
    let stt = l.scalar(st);
    let v4 = l.vector(stt, 4);
    let uav = l.decl(h).class == ResourceClass::Uav;
    let op = if uav { Op::ImageRead } else { Op::ImageFetch };
    if h.bounds != 0 {
        let (safe, inb) = typed_view_coord(l, h, coord)?;
        let x = l.op(op, v4, &[img, safe])?;
        return l.zero_if_not(Some(inb), v4, x);
    }
    if !l.robust_explicit() {
        return l.op(op, v4, &[img, coord]);
    }
    let inb = image_in_bounds(l, img, coord, uav)?;
    let u = l.u32();
    let zero = l.const_u32(0);
    let safe = l.op(Op::Select, u, &[inb, coord, zero])?;
    let x = l.op(op, v4, &[img, safe])?;
    l.zero_if_not(Some(inb), v4, x)
}

/// A heap typed-buffer view's element `coord` (binding model bounds buffer): the texel index in
/// the underlying buffer (`first + coord`, `first` when out of bounds) and `coord < count`.
pub(crate) fn typed_view_coord(l: &mut Lowerer<'_>, h: HandleVal, coord: Word) -> LResult<(Word, Word)> {
    let u = l.u32();
    let bt = l.bool();
    let count = l.bounds_count(h, Scalar::Void)?;
    let inb = l.op(Op::ULessThan, bt, &[coord, count])?;
    let zero = l.const_u32(0);
    let safe = l.op(Op::Select, u, &[inb, coord, zero])?;
    let at = l.bounds_rebase(h, safe, Scalar::Void)?;
    Ok((at, inb))
}

fn typed_buffer_store(l: &mut Lowerer<'_>, h: HandleVal, coord: Word, texel: Word) -> LResult<()> {
    let (img, _) = l.load_image(h)?;
    if h.bounds != 0 {
        let (at, inb) = typed_view_coord(l, h, coord)?;
        return l.guarded(inb, |l| l.op_void(Op::ImageWrite, &[img, at, texel]));
    }
    if !l.robust_explicit() {
        return l.op_void(Op::ImageWrite, &[img, coord, texel]);
    }
    let inb = image_in_bounds(l, img, coord, true)?;
    l.guarded(inb, |l| l.op_void(Op::ImageWrite, &[img, coord, texel]))
}

/// The (set, binding, descriptor type) a binding-model placement reports in the binding list:
/// root-block words as `PushConstant` at `u32::MAX`, shader-record placements not at all.
fn model_binding(loc: ResourceLocation) -> Option<(u32, u32, DescriptorKind)> {
    match loc {
        ResourceLocation::Descriptor { set, binding, descriptor }
        | ResourceLocation::Heap { set, binding, descriptor, .. }
        | ResourceLocation::RecordHeap { set, binding, descriptor, .. } => Some((set, binding, descriptor)),
        ResourceLocation::RootConstants { .. } | ResourceLocation::Address { .. } => {
            Some((u32::MAX, u32::MAX, DescriptorKind::PushConstant))
        }
        ResourceLocation::RecordConstants { .. } | ResourceLocation::RecordAddress { .. } => None,
    }
}

/// The binding list, push-constant range and descriptor-heap bindings of a lowered shader.
pub(super) fn bindings(l: &Lowerer<'_>) -> (Vec<ResourceBinding>, Option<PushConstantRange>, Vec<HeapBinding>) {
    let mut out = Vec::with_capacity(l.meta.resources.len());
    let mut push = None;
    let mut heap: Vec<HeapBinding> = Vec::new();
    if l.opts.bindings.is_some() {
        // Under a binding model the placements say everything; the binding list keeps the
        // descriptor-like ones (for tools that read (set, binding) pairs).
        for (d, info) in l.meta.resources.iter().zip(&l.res.info) {
            let Some(p) = info.model else { continue };
            let Some((set, binding, descriptor)) = model_binding(p.location) else { continue };
            out.push(ResourceBinding {
                class: d.class,
                space: d.space,
                lower_bound: d.lower,
                count: d.size,
                set,
                binding,
                descriptor,
                kind: d.kind.name().to_string(),
                format_hint: info.format.map(|f| format!("{f:?}")),
                has_counter: d.has_counter,
                counter_binding: info.counter,
            });
        }
        if l.res.bl.root_sc == Some(StorageClass::PushConstant) {
            let words = l.res.push_layout.as_ref().map_or(0, |p| p.words).max(1);
            push = Some(PushConstantRange { size: words * 4 });
        }
        return (out, push, heap);
    }
    for (d, info) in l.meta.resources.iter().zip(&l.res.info) {
        if let Some(p) = info.model {
            // The default rule with a local root signature: its root constants and root
            // descriptors are in the shader record (see `placements`).
            let Some((set, binding, descriptor)) = model_binding(p.location) else { continue };
            out.push(ResourceBinding {
                class: d.class,
                space: d.space,
                lower_bound: d.lower,
                count: d.size,
                set,
                binding,
                descriptor,
                kind: d.kind.name().to_string(),
                format_hint: info.format.map(|f| format!("{f:?}")),
                has_counter: d.has_counter,
                counter_binding: info.counter,
            });
            continue;
        }
        if d.heap {
            if let (Some(Placement::Descriptor { set, binding }), true) = (info.placement, info.var != 0) {
                let hb = HeapBinding {
                    sampler_heap: d.kind == ResKind::Sampler,
                    set,
                    binding,
                    descriptor: descriptor_kind(d),
                };
                if !heap.contains(&hb) {
                    heap.push(hb);
                }
            }
            continue;
        }
        let descriptor = if info.placement == Some(Placement::PushConstants) {
            DescriptorKind::PushConstant
        } else {
            descriptor_kind(d)
        };
        let (set, binding) = match info.placement {
            Some(Placement::Descriptor { set, binding }) => (set, binding),
            Some(Placement::PushConstants) => {
                push = Some(PushConstantRange { size: d.cb_size.div_ceil(16).max(1) * 16 });
                (u32::MAX, u32::MAX)
            }
            None => (u32::MAX, u32::MAX),
        };
        out.push(ResourceBinding {
            class: d.class,
            space: d.space,
            lower_bound: d.lower,
            count: d.size,
            set,
            binding,
            descriptor,
            kind: d.kind.name().to_string(),
            format_hint: info.format.map(|f| format!("{f:?}")),
            has_counter: d.has_counter,
            counter_binding: info.counter,
        });
    }
    heap.sort_by_key(|h| (h.set, h.binding));
    (out, push, heap)
}
