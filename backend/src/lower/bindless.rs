//! Resources under a [`crate::binding::BindingModel`]: resolving each range to a placement
//! before lowering, the root block (push constants or a uniform block holding root-descriptor
//! addresses, root constants and descriptor-table heap offsets), bindless heap indices, buffer
//! addresses (`PhysicalStorageBuffer`) and the bounds buffer of heap buffer views.
//!
//! `resources.rs` keeps the descriptor kinds and accesses; this file answers "where is it and
//! which element": the heap index of a handle, the base address of a root descriptor, the
//! `{first, count}` of a heap buffer view.

use rspirv::spirv::{AddressingModel, Capability, Decoration, MemoryAccess, Op, StorageClass, Word};

use super::meta::{ResDecl, ResKind};
use super::{malformed, Fail, LResult, Lowerer, Scalar};
use crate::binding::{
    BindingModel, CounterLocation, Placement, PushLayout, ResourceClass, ResourceLocation, ResourcePlacement,
    ResourceQuery, RootBlock, ShaderRecordLayout,
};
use crate::compiled::PlacedResource;
use crate::container::rootsig::RootSignature;

/// A lowered handle: a resource range and the index into it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HandleVal {
    pub res: u32,
    /// Index relative to the range's lower bound (`None`: single descriptor).
    pub index: Option<Word>,
    pub nonuniform: bool,
    /// Binding model: the `u64` buffer address of a root descriptor (0: none).
    pub base: Word,
    /// Binding model: the `uvec2 {first, count}` of a heap buffer view (0: none).
    pub bounds: Word,
}

/// Lowering state of the binding model (per compile).
#[derive(Debug, Default)]
pub(crate) struct Bindless {
    /// The root block variable (0: not declared yet) and its storage class.
    pub root_var: Word,
    pub root_sc: Option<StorageClass>,
    /// Heap arrays declared so far: (set, binding, element type) → variable.
    pub heap_vars: Vec<((u32, u32, Word), Word)>,
    /// The bounds buffer variable per (set, binding).
    pub bounds_vars: Vec<((u32, u32), Word)>,
    /// Whether a buffer address was dereferenced (addressing model, capabilities).
    pub addresses: bool,
    /// The shader record variable (`ShaderRecordBufferKHR`; 0: not declared yet).
    pub record_var: Word,
}

/// The 32-bit words a placement reads from: the root block or the shader record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Block {
    Root,
    Record,
}

/// Root constants of a placement: the block, first word and word count.
pub(crate) fn constants_at(loc: ResourceLocation) -> Option<(Block, u32, u32)> {
    match loc {
        ResourceLocation::RootConstants { word, words } => Some((Block::Root, word, words)),
        ResourceLocation::RecordConstants { offset, words } => Some((Block::Record, offset / 4, words)),
        _ => None,
    }
}

/// The buffer address of a root descriptor placement: the block and the first of its two words.
pub(crate) fn address_at(loc: ResourceLocation) -> Option<(Block, u32)> {
    match loc {
        ResourceLocation::Address { word } => Some((Block::Root, word)),
        ResourceLocation::RecordAddress { offset } => Some((Block::Record, offset / 4)),
        _ => None,
    }
}

impl Bindless {
    pub fn reset(&mut self) {
        self.root_var = 0;
        self.root_sc = None;
        self.heap_vars.clear();
        self.bounds_vars.clear();
        self.addresses = false;
        self.record_var = 0;
    }
}

/// The binding-model query for one range of the shader.
pub(crate) fn query(stage: crate::ShaderKind, d: &ResDecl) -> ResourceQuery {
    ResourceQuery {
        stage,
        class: d.class,
        kind: d.kind,
        space: d.space,
        register: d.lower,
        count: d.size,
        heap: d.heap,
        has_counter: d.has_counter,
    }
}

/// What [`resolve`] answers: per range its placement (`None`: not used), the root block's layout,
/// the placed-resource report.
pub(crate) type Resolved = (Vec<Option<ResourcePlacement>>, PushLayout, Vec<PlacedResource>);

/// Resolves every range of the shader under `model`: the placements (in range order), the root
/// block's layout, and the placed-resource report. `local` is the export's local root signature
/// (ray-tracing stages), whose parameters land in the shader record. Ranges `used` marks false
/// (library resources an export never touches) get no placement. A range the model cannot place
/// fails the compile ([`crate::binding::BindError`]).
pub(crate) fn resolve(
    model: &BindingModel,
    stage: crate::ShaderKind,
    decls: &[ResDecl],
    local: Option<(&RootSignature, &ShaderRecordLayout)>,
    used: &[bool],
) -> Result<Resolved, crate::binding::BindError> {
    let mut layout = model.push_layout();
    let mut placements = Vec::with_capacity(decls.len());
    let mut placed = Vec::with_capacity(decls.len());
    for (k, d) in decls.iter().enumerate() {
        if !used.get(k).copied().unwrap_or(true) {
            placements.push(None);
            continue;
        }
        let q = query(stage, d);
        let p = model.place_with_local(&q, &layout, local)?;
        placements.push(Some(p));
        placed.push(PlacedResource { query: q, placement: p });
    }
    // Without a root signature the block is as large as the words the callback used.
    let used_end = placements
        .iter()
        .flatten()
        .map(|p| match p.location {
            ResourceLocation::RootConstants { word, words } => word.saturating_add(words),
            ResourceLocation::Address { word } => word.saturating_add(2),
            ResourceLocation::Heap { table_word: Some(w), .. } => w.saturating_add(1),
            _ => 0,
        })
        .max()
        .unwrap_or(0);
    layout.words = layout.words.max(used_end);
    Ok((placements, layout, placed))
}

/// The placement of a resource the local root signature covers when there is no binding model
/// (the default rule places everything else): root constants and root descriptors in the shader
/// record. `None`: the local root signature does not cover it, or covers it with a descriptor
/// table or a static sampler, which the default rule places like any register.
pub(crate) fn local_default_placement(
    stage: crate::ShaderKind,
    d: &ResDecl,
    lrs: &RootSignature,
    record: &ShaderRecordLayout,
) -> Option<ResourcePlacement> {
    let model = BindingModel {
        root_signature: None,
        policy: crate::binding::BindingPolicy::default(),
        remap: None,
        root_words: None,
        local_root_signature: crate::binding::LocalRoot::None,
    };
    let p = model.place_with_local(&query(stage, d), &PushLayout::default(), Some((lrs, record))).ok()?;
    matches!(p.location, ResourceLocation::RecordConstants { .. } | ResourceLocation::RecordAddress { .. }).then_some(p)
}

/// The legacy placement that the rest of resource lowering reads for descriptor-like
/// placements: the (set, binding) of the variable.
pub(crate) fn legacy_placement(p: &ResourcePlacement) -> Option<Placement> {
    match p.location {
        ResourceLocation::Descriptor { set, binding, .. }
        | ResourceLocation::Heap { set, binding, .. }
        | ResourceLocation::RecordHeap { set, binding, .. } => Some(Placement::Descriptor { set, binding }),
        ResourceLocation::RootConstants { .. }
        | ResourceLocation::Address { .. }
        | ResourceLocation::RecordConstants { .. }
        | ResourceLocation::RecordAddress { .. } => None,
    }
}

/// The counter binding of a placement and how it is indexed.
pub(crate) fn counter_binding(p: &ResourcePlacement) -> Option<((u32, u32), CounterKind)> {
    match p.counter? {
        CounterLocation::Descriptor { set, binding } => Some(((set, binding), CounterKind::Descriptor)),
        CounterLocation::Heap { set, binding } => Some(((set, binding), CounterKind::Heap)),
        CounterLocation::AddressTable { set, binding } => Some(((set, binding), CounterKind::AddressTable)),
    }
}

/// How a UAV counter's binding is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum CounterKind {
    /// `struct { uint }` storage buffer(s), one per register of the range.
    #[default]
    Descriptor,
    /// A runtime array of them, indexed like the UAV.
    Heap,
    /// A table of buffer addresses, indexed like the UAV.
    AddressTable,
}

impl Lowerer<'_> {
    /// The placement of range `r` under the binding model (`None`: legacy rule).
    pub(crate) fn model_placement(&self, r: u32) -> Option<ResourcePlacement> {
        self.res.info.get(r as usize).and_then(|i| i.model)
    }

    /// The root block variable (`uint words[N]` in push constants, `uvec4 rows[N/4]` in a uniform block), declared on first use.
    pub(crate) fn root_var_id(&mut self) -> LResult<Word> {
        if self.res.bl.root_var != 0 {
            return Ok(self.res.bl.root_var);
        }
        let Some(model) = self.opts.bindings.as_deref() else {
            return Err(Fail::Internal("root block without a binding model".into()));
        };
        let words = self.res.push_layout.as_ref().map_or(0, |l| l.words).max(1);
        let sc = match model.policy.root_block {
            RootBlock::PushConstants => StorageClass::PushConstant,
            RootBlock::UniformBlock { .. } => StorageClass::Uniform,
        };
        // Push constants: `uint words[N]` (std430 layout), exactly the root block's size, which a
        // layer's push-constant range covers. A uniform block needs 16-byte array strides (std140):
        // `uvec4 rows[ceil(N / 4)]`.
        let u = self.u32();
        let (elem, count, stride) =
            if sc == StorageClass::PushConstant { (u, words, 4) } else { (self.vector(u, 4), words.div_ceil(4), 16) };
        let n = self.const_u32(count);
        let arr = self.new_type(Op::TypeArray, &[elem, n]);
        self.decorate(arr, Decoration::ArrayStride, &[stride]);
        let st = self.new_type(Op::TypeStruct, &[arr]);
        self.decorate(st, Decoration::Block, &[]);
        self.member_decorate(st, 0, Decoration::Offset, &[0]);
        let pt = self.pointer(sc, st);
        let var = self.global_var(pt, sc, None);
        if let RootBlock::UniformBlock { set, binding } = model.policy.root_block {
            self.decorate(var, Decoration::DescriptorSet, &[set]);
            self.decorate(var, Decoration::Binding, &[binding]);
        }
        self.res.bl.root_var = var;
        self.res.bl.root_sc = Some(sc);
        Ok(var)
    }

    /// The shader record variable (`struct { uint words[N]; }` in `ShaderRecordBufferKHR`, N the
    /// local root arguments' size in words), declared on first use.
    pub(crate) fn record_var_id(&mut self) -> LResult<Word> {
        if self.res.bl.record_var != 0 {
            return Ok(self.res.bl.record_var);
        }
        let Some(layout) = self.res.record_layout.as_ref() else {
            return Err(Fail::Internal("shader record without a local root signature".into()));
        };
        let words = layout.size.div_ceil(4).max(1);
        let u = self.u32();
        let n = self.const_u32(words);
        let arr = self.new_type(Op::TypeArray, &[u, n]);
        self.decorate(arr, Decoration::ArrayStride, &[4]);
        let st = self.new_type(Op::TypeStruct, &[arr]);
        self.decorate(st, Decoration::Block, &[]);
        self.member_decorate(st, 0, Decoration::Offset, &[0]);
        self.member_decorate(st, 0, Decoration::NonWritable, &[]);
        let sc = StorageClass::ShaderRecordBufferKHR;
        let pt = self.pointer(sc, st);
        let var = self.global_var(pt, sc, None);
        self.res.bl.record_var = var;
        Ok(var)
    }

    /// Word `w` (a `u32` id) of `block`.
    pub(crate) fn block_word(&mut self, block: Block, w: Word) -> LResult<Word> {
        let u = self.u32();
        let zero = self.const_u32(0);
        if block == Block::Record {
            let var = self.record_var_id()?;
            let pt = self.pointer(StorageClass::ShaderRecordBufferKHR, u);
            let p = self.access_chain(pt, var, &[zero, w])?;
            return self.load(u, p);
        }
        let var = self.root_var_id()?;
        let sc = self.res.bl.root_sc.unwrap_or(StorageClass::PushConstant);
        let pt = self.pointer(sc, u);
        let p = if sc == StorageClass::PushConstant {
            self.access_chain(pt, var, &[zero, w])?
        } else {
            let two = self.const_u32(2);
            let three = self.const_u32(3);
            let row = self.op(Op::ShiftRightLogical, u, &[w, two])?;
            let comp = self.op(Op::BitwiseAnd, u, &[w, three])?;
            self.access_chain(pt, var, &[zero, row, comp])?
        };
        self.load(u, p)
    }

    /// Root-block word `w` known at compile time.
    pub(crate) fn root_word_const(&mut self, w: u32) -> LResult<Word> {
        self.block_word_const(Block::Root, w)
    }

    /// Word `w` of `block`, known at compile time.
    pub(crate) fn block_word_const(&mut self, block: Block, w: u32) -> LResult<Word> {
        let u = self.u32();
        let zero = self.const_u32(0);
        if block == Block::Record {
            let var = self.record_var_id()?;
            let pt = self.pointer(StorageClass::ShaderRecordBufferKHR, u);
            let k = self.const_u32(w);
            let p = self.access_chain(pt, var, &[zero, k])?;
            return self.load(u, p);
        }
        let var = self.root_var_id()?;
        let sc = self.res.bl.root_sc.unwrap_or(StorageClass::PushConstant);
        let pt = self.pointer(sc, u);
        let p = if sc == StorageClass::PushConstant {
            let k = self.const_u32(w);
            self.access_chain(pt, var, &[zero, k])?
        } else {
            let row = self.const_u32(w / 4);
            let comp = self.const_u32(w % 4);
            self.access_chain(pt, var, &[zero, row, comp])?
        };
        self.load(u, p)
    }

    /// The runtime array variable of a heap array at (set, binding) whose elements are `inner`.
    pub(crate) fn heap_var(&mut self, set: u32, binding: u32, inner: Word, sc: StorageClass) -> Word {
        if let Some(&(_, v)) = self.res.bl.heap_vars.iter().find(|(k, _)| *k == (set, binding, inner)) {
            return v;
        }
        self.cap(Capability::RuntimeDescriptorArray);
        self.ext("SPV_EXT_descriptor_indexing");
        let ty = self.new_type(Op::TypeRuntimeArray, &[inner]);
        let pt = self.pointer(sc, ty);
        let var = self.global_var(pt, sc, None);
        self.decorate(var, Decoration::DescriptorSet, &[set]);
        self.decorate(var, Decoration::Binding, &[binding]);
        self.res.bl.heap_vars.push(((set, binding, inner), var));
        var
    }

    /// The heap element a handle of a `Heap` placement reaches: table word + offset + the
    /// shader's index relative to the range's lower bound (`rel`: `None` = 0).
    pub(crate) fn heap_index(&mut self, table_word: Option<u32>, heap_offset: u32, rel: Option<Word>) -> LResult<Word> {
        let base = match table_word {
            Some(w) => Some(self.root_word_const(w)?),
            None => None,
        };
        self.heap_index_from(base, heap_offset, rel)
    }

    /// The heap element a handle of a `RecordHeap` placement reaches: the heap index of the
    /// table's descriptor handle at byte `table_offset` of the shader record (its low word shifted
    /// right by the policy's `record_table_shift`, or `record_sampler_table_shift` for a table of
    /// the sampler heap) + offset + the shader's relative index.
    pub(crate) fn record_heap_index(
        &mut self,
        table_offset: u32,
        heap_offset: u32,
        rel: Option<Word>,
        sampler: bool,
    ) -> LResult<Word> {
        let shift = self.opts.bindings.as_deref().map_or(0, |m| {
            if sampler {
                m.policy.record_sampler_table_shift
            } else {
                m.policy.record_table_shift
            }
        });
        let mut base = self.block_word_const(Block::Record, table_offset / 4)?;
        if shift != 0 {
            let u = self.u32();
            let s = self.const_u32(shift.min(31));
            base = self.op(Op::ShiftRightLogical, u, &[base, s])?;
        }
        self.heap_index_from(Some(base), heap_offset, rel)
    }

    fn heap_index_from(&mut self, base: Option<Word>, heap_offset: u32, rel: Option<Word>) -> LResult<Word> {
        let u = self.u32();
        let mut idx = match rel {
            Some(r) => r,
            None => self.const_u32(0),
        };
        if heap_offset != 0 {
            let c = self.const_u32(heap_offset);
            idx = if rel.is_some() { self.op(Op::IAdd, u, &[idx, c])? } else { c };
        }
        if let Some(base) = base {
            idx = self.op(Op::IAdd, u, &[base, idx])?;
        }
        Ok(idx)
    }

    /// Element `index` of a `uvec2[]` storage buffer at (set, binding): the `{first, count}` of a
    /// heap view from the bounds buffer, or a counter's address from an address table.
    pub(crate) fn view_bounds(&mut self, set: u32, binding: u32, index: Word) -> LResult<Word> {
        let var = match self.res.bl.bounds_vars.iter().find(|(k, _)| *k == (set, binding)) {
            Some(&(_, v)) => v,
            None => {
                let u = self.u32();
                let u2 = self.vector(u, 2);
                let rt = self.new_type(Op::TypeRuntimeArray, &[u2]);
                self.decorate(rt, Decoration::ArrayStride, &[8]);
                let st = self.new_type(Op::TypeStruct, &[rt]);
                self.decorate(st, Decoration::Block, &[]);
                self.member_decorate(st, 0, Decoration::Offset, &[0]);
                self.member_decorate(st, 0, Decoration::NonWritable, &[]);
                let pt = self.pointer(StorageClass::StorageBuffer, st);
                let v = self.global_var(pt, StorageClass::StorageBuffer, None);
                self.decorate(v, Decoration::DescriptorSet, &[set]);
                self.decorate(v, Decoration::Binding, &[binding]);
                self.res.bl.bounds_vars.push(((set, binding), v));
                v
            }
        };
        let u = self.u32();
        let u2 = self.vector(u, 2);
        let pt = self.pointer(StorageClass::StorageBuffer, u2);
        let zero = self.const_u32(0);
        let p = self.access_chain(pt, var, &[zero, index])?;
        self.load(u2, p)
    }

    /// The 64-bit address of a UAV counter: element `index` of the address table at (set, binding).
    pub(crate) fn counter_address(&mut self, set: u32, binding: u32, index: Word) -> LResult<Word> {
        let pair = self.view_bounds(set, binding, index)?;
        self.cap(Capability::Int64);
        let u64t = self.scalar(Scalar::U64);
        self.op(Op::Bitcast, u64t, &[pair])
    }

    /// The 64-bit buffer address of a root descriptor in words `word`, `word + 1` of `block`.
    pub(crate) fn block_address(&mut self, block: Block, word: u32) -> LResult<Word> {
        let lo = self.block_word_const(block, word)?;
        let hi = self.block_word_const(block, word + 1)?;
        let u = self.u32();
        let u2 = self.vector(u, 2);
        let pair = self.op(Op::CompositeConstruct, u2, &[lo, hi])?;
        self.cap(Capability::Int64);
        let u64t = self.scalar(Scalar::U64);
        self.op(Op::Bitcast, u64t, &[pair])
    }

    /// A `PhysicalStorageBuffer` pointer to `pointee` at the address `addr` (a `u64`).
    pub(crate) fn address_ptr(&mut self, addr: Word, pointee: Word) -> LResult<Word> {
        if !self.res.bl.addresses {
            self.res.bl.addresses = true;
            self.cap(Capability::PhysicalStorageBufferAddresses);
            self.ext("SPV_KHR_physical_storage_buffer");
            self.b.set_addressing_model(AddressingModel::PhysicalStorageBuffer64);
        }
        let pt = self.pointer(StorageClass::PhysicalStorageBuffer, pointee);
        self.op(Op::ConvertUToPtr, pt, &[addr])
    }

    /// `OpLoad` with `Aligned` (loads through buffer addresses need it).
    pub(crate) fn load_aligned(&mut self, ty: Word, p: Word, align: u32) -> LResult<Word> {
        self.op(Op::Load, ty, &[p, MemoryAccess::ALIGNED.bits(), align])
    }

    /// `OpStore` with `Aligned`.
    pub(crate) fn store_aligned(&mut self, p: Word, v: Word, align: u32) -> LResult<()> {
        self.op_void(Op::Store, &[p, v, MemoryAccess::ALIGNED.bits(), align])
    }

    /// Completes a handle of range `res` under the binding model: the heap element index, the
    /// root descriptor's address, the heap view's bounds. `rel` is the shader's index relative to
    /// the range's lower bound (`None` for a single register).
    pub(crate) fn model_handle(&mut self, res: u32, rel: Option<Word>, nonuniform: bool) -> LResult<HandleVal> {
        let Some(p) = self.model_placement(res) else {
            return Err(Fail::Internal("model_handle without a placement".into()));
        };
        let mut h = HandleVal { res, index: rel, nonuniform: nonuniform && rel.is_some(), base: 0, bounds: 0 };
        match p.location {
            ResourceLocation::Descriptor { .. }
            | ResourceLocation::RootConstants { .. }
            | ResourceLocation::RecordConstants { .. } => {}
            ResourceLocation::Heap { heap_offset, bounds, .. }
            | ResourceLocation::RecordHeap { heap_offset, bounds, .. } => {
                let idx = match p.location {
                    ResourceLocation::RecordHeap { table_offset, descriptor, .. } => {
                        let sampler = descriptor == crate::binding::DescriptorKind::Sampler;
                        self.record_heap_index(table_offset, heap_offset, rel, sampler)?
                    }
                    ResourceLocation::Heap { table_word, .. } => self.heap_index(table_word, heap_offset, rel)?,
                    _ => return Err(Fail::Internal("heap placement".into())),
                };
                h.index = Some(idx);
                h.nonuniform = nonuniform;
                if let Some((set, binding)) = bounds {
                    h.bounds = self.view_bounds(set, binding, idx)?;
                }
            }
            ResourceLocation::Address { .. } | ResourceLocation::RecordAddress { .. } => {
                if let Some((block, word)) = address_at(p.location) {
                    h.base = self.block_address(block, word)?;
                }
                h.index = None;
            }
        }
        Ok(h)
    }

    /// `x + first` of a heap view's bounds, in units of `per_word` elements per 32-bit word
    /// (`0`: 64-bit elements, half a word each... see [`Self::bounds_scale`]).
    pub(crate) fn bounds_rebase(&mut self, h: HandleVal, x: Word, view: Scalar) -> LResult<Word> {
        if h.bounds == 0 {
            return Ok(x);
        }
        let u = self.u32();
        let first = self.op(Op::CompositeExtract, u, &[h.bounds, 0])?;
        let first = self.bounds_scale(first, view)?;
        self.op(Op::IAdd, u, &[x, first])
    }

    /// The view's element count, in `view` units.
    pub(crate) fn bounds_count(&mut self, h: HandleVal, view: Scalar) -> LResult<Word> {
        let u = self.u32();
        let count = self.op(Op::CompositeExtract, u, &[h.bounds, 1])?;
        self.bounds_scale(count, view)
    }

    /// Converts a count of 32-bit words (raw/structured views) into `view` elements; typed views
    /// (`Scalar::Void`) count elements already.
    fn bounds_scale(&mut self, x: Word, view: Scalar) -> LResult<Word> {
        let u = self.u32();
        match view {
            Scalar::U16 => {
                let one = self.const_u32(1);
                self.op(Op::ShiftLeftLogical, u, &[x, one])
            }
            Scalar::U64 => {
                let one = self.const_u32(1);
                self.op(Op::ShiftRightLogical, u, &[x, one])
            }
            _ => Ok(x),
        }
    }

    /// The storage class a constant buffer's rows are read from.
    pub(crate) fn cbuffer_storage(&self, r: u32) -> StorageClass {
        match self.model_placement(r).map(|p| p.location) {
            Some(
                ResourceLocation::Descriptor { descriptor, .. }
                | ResourceLocation::Heap { descriptor, .. }
                | ResourceLocation::RecordHeap { descriptor, .. },
            ) if descriptor == crate::binding::DescriptorKind::StorageBuffer => StorageClass::StorageBuffer,
            Some(ResourceLocation::Address { .. } | ResourceLocation::RecordAddress { .. }) => {
                StorageClass::PhysicalStorageBuffer
            }
            _ => {
                if self.res.info.get(r as usize).and_then(|i| i.placement) == Some(Placement::PushConstants) {
                    StorageClass::PushConstant
                } else {
                    StorageClass::Uniform
                }
            }
        }
    }

    /// The `uvec4` row `row` of a constant buffer in root constants at `word` of `block` (`words` values):
    /// components past the root constants read 0.
    pub(crate) fn root_constant_row(
        &mut self,
        block: Block,
        word: u32,
        words: u32,
        row: Word,
        row_const: Option<u32>,
    ) -> LResult<Word> {
        let u = self.u32();
        let u4 = self.vector(u, 4);
        let mut comps = [0; 4];
        for (c, comp) in comps.iter_mut().enumerate() {
            *comp = match row_const {
                Some(r) => {
                    let k = u64::from(r) * 4 + c as u64;
                    if k < u64::from(words) {
                        self.block_word_const(block, word + k as u32)?
                    } else {
                        self.const_u32(0)
                    }
                }
                None => {
                    let four = self.const_u32(4);
                    let k = self.op(Op::IMul, u, &[row, four])?;
                    let cc = self.const_u32(c as u32);
                    let k = self.op(Op::IAdd, u, &[k, cc])?;
                    let bt = self.bool();
                    let n = self.const_u32(words);
                    let inb = self.op(Op::ULessThan, bt, &[k, n])?;
                    let zero = self.const_u32(0);
                    let safe = self.op(Op::Select, u, &[inb, k, zero])?;
                    let base = self.const_u32(word);
                    let w = self.op(Op::IAdd, u, &[safe, base])?;
                    let x = self.block_word(block, w)?;
                    self.op(Op::Select, u, &[inb, x, zero])?
                }
            };
        }
        self.op(Op::CompositeConstruct, u4, &comps)
    }
}

/// Checks that the binding model's answer fits what lowering can emit for a range.
pub(crate) fn check_lowerable(d: &ResDecl, p: &ResourcePlacement) -> LResult<()> {
    match p.location {
        ResourceLocation::Address { .. } | ResourceLocation::RecordAddress { .. }
            if !matches!(
                d.kind,
                ResKind::CBuffer | ResKind::RawBuffer | ResKind::StructuredBuffer | ResKind::RTAccelerationStructure
            ) =>
        {
            malformed(format!("{} placed at a buffer address", d.kind.name()))
        }
        ResourceLocation::RootConstants { .. } | ResourceLocation::RecordConstants { .. }
            if d.class != ResourceClass::Cbv =>
        {
            malformed(format!("{:?} placed in root constants", d.class))
        }
        _ => Ok(()),
    }
}
