//! The binding model a D3D12 layer supplies per compile: the root signature,
//! a policy that derives a default placement for every resource from it, and
//! an optional callback that overrides (or refuses) each placement.
//!
//! Resolution happens once per compile, before lowering: every resource range
//! the shader declares (and every SM 6.6 descriptor-heap access) is turned
//! into a [`ResourcePlacement`]; lowering only reads placements. The layout of
//! the root block (push constants, or an inline uniform block) is a property of
//! the root signature alone ([`PushLayout`]), so all stages compiled against one
//! root signature agree on it:
//!
//! ```text
//! words 0 .. 2R          root descriptors (CBV/SRV/UAV), 2 words each: a 64-bit buffer device
//!                        address, in root-parameter order
//! words 2R ..            root constants (their 32-bit values) and descriptor tables (1 word each:
//!                        the table's current offset into the heap), in root-parameter order
//! ```
//!
//! Descriptor-table ranges become elements of bindless heap arrays (one runtime array per Vulkan
//! descriptor type, or one array of mutable descriptors), indexed by
//! `table word + offset of the range in the table + (register - range base) + dynamic index`.
//! See `docs/binding-model.md` for a worked example.

use std::sync::Arc;

use super::{DescriptorKind, ResourceClass};
use crate::container::rootsig::{DescriptorRangeType, RootParameterKind, RootSignature, ShaderVisibility};
use crate::resource_kind::ResourceKind;
use crate::ShaderKind;

/// What the policy and the callback are asked about: one resource range of a shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceQuery {
    pub stage: ShaderKind,
    pub class: ResourceClass,
    /// The DXIL resource kind (texture dimension, typed/raw/structured buffer, cbuffer, sampler).
    pub kind: ResourceKind,
    pub space: u32,
    /// The range's first register.
    pub register: u32,
    /// Registers in the range; `None` = unbounded.
    pub count: Option<u32>,
    /// An SM 6.6 `ResourceDescriptorHeap` / `SamplerDescriptorHeap` access: `space` and
    /// `register` are meaningless, the shader's index is the heap index.
    pub heap: bool,
    /// A UAV whose counter the shader uses.
    pub has_counter: bool,
}

impl ResourceQuery {
    /// `t3 space1`, or `ResourceDescriptorHeap` for heap accesses.
    pub fn describe(&self) -> String {
        if self.heap {
            return if self.class == ResourceClass::Sampler {
                "SamplerDescriptorHeap".into()
            } else {
                "ResourceDescriptorHeap".into()
            };
        }
        format!("{}{} space{}", self.class.letter(), self.register, self.space)
    }

    /// The Vulkan descriptor type the resource needs by default.
    pub fn natural_descriptor(&self) -> DescriptorKind {
        match (self.kind, self.class) {
            (ResourceKind::CBuffer, _) => DescriptorKind::UniformBuffer,
            (ResourceKind::Sampler, _) => DescriptorKind::Sampler,
            (ResourceKind::RawBuffer | ResourceKind::StructuredBuffer, _) => DescriptorKind::StorageBuffer,
            (ResourceKind::TypedBuffer, ResourceClass::Uav) => DescriptorKind::StorageTexelBuffer,
            (ResourceKind::TypedBuffer, _) => DescriptorKind::UniformTexelBuffer,
            (ResourceKind::RTAccelerationStructure, _) => DescriptorKind::AccelerationStructure,
            (_, ResourceClass::Uav) => DescriptorKind::StorageImage,
            _ => DescriptorKind::SampledImage,
        }
    }
}

/// Where one resource range lives in Vulkan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceLocation {
    /// A plain descriptor binding; register `lower + k` of the range is array element `k`.
    Descriptor { set: u32, binding: u32, descriptor: DescriptorKind },
    /// Elements of a bindless heap array at (`set`, `binding`): register `lower + k` (or, for SM 6.6
    /// heap accesses, the shader's heap index `k`) is element
    /// `root word[table_word] + heap_offset + k`.
    Heap {
        set: u32,
        binding: u32,
        descriptor: DescriptorKind,
        /// The root-block word holding the descriptor table's heap offset (`None`: 0).
        table_word: Option<u32>,
        /// Constant offset: the range's offset inside its table.
        heap_offset: u32,
        /// A storage buffer `uvec2[]` at (set, binding) giving each heap element's buffer-view
        /// bounds `{first, count}` (32-bit words for raw/structured buffers, elements for
        /// typed buffers): accesses are rebased by `first` and bounded by `count`.
        bounds: Option<(u32, u32)>,
    },
    /// Root constants: `words` 32-bit values starting at root-block word `word`.
    RootConstants { word: u32, words: u32 },
    /// A root descriptor: the 64-bit buffer device address in root-block words `word`, `word + 1`
    /// (low, high), read through `PhysicalStorageBuffer` pointers. No bounds (as in D3D12).
    Address { word: u32 },
    /// Local root signature: root constants, `words` 32-bit values at byte `offset` of the shader
    /// record (`ShaderRecordBufferKHR`; offsets count from the first byte after the shader
    /// identifier, as D3D12's local root arguments do).
    RecordConstants { offset: u32, words: u32 },
    /// Local root signature: a root descriptor, the 64-bit buffer device address at byte `offset`
    /// of the shader record (8-byte aligned).
    RecordAddress { offset: u32 },
    /// Local root signature: a descriptor-table range, elements of the heap array at (`set`,
    /// `binding`). The table's 8-byte slot at byte `table_offset` of the shader record holds the
    /// table's `D3D12_GPU_DESCRIPTOR_HANDLE`; its low 32 bits shifted right by
    /// [`BindingPolicy::record_table_shift`] are the heap index of the table's first descriptor.
    /// Register `lower + k` is element `that + heap_offset + k`.
    RecordHeap {
        set: u32,
        binding: u32,
        descriptor: DescriptorKind,
        table_offset: u32,
        heap_offset: u32,
        /// As for [`ResourceLocation::Heap`].
        bounds: Option<(u32, u32)>,
    },
}

impl ResourceLocation {
    /// Whether the resource is reached through the shader record (a local root signature).
    pub fn in_shader_record(&self) -> bool {
        matches!(
            self,
            ResourceLocation::RecordConstants { .. }
                | ResourceLocation::RecordAddress { .. }
                | ResourceLocation::RecordHeap { .. }
        )
    }
}

/// Where a UAV's counter lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CounterLocation {
    /// `struct { uint counter; }` storage buffer(s) at (set, binding), one per register of the range.
    Descriptor { set: u32, binding: u32 },
    /// A runtime array of `struct { uint counter; }` storage buffers at (set, binding), indexed
    /// like the UAV itself (its heap index).
    Heap { set: u32, binding: u32 },
    /// A storage buffer `uvec2[]` at (set, binding) of 64-bit buffer addresses (low, high), indexed
    /// like the UAV (its heap index, or the register offset for plain descriptors): the counter is
    /// the `uint` at that address.
    AddressTable { set: u32, binding: u32 },
}

/// The decision for one resource range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ResourcePlacement {
    pub location: ResourceLocation,
    pub counter: Option<CounterLocation>,
}

/// Per-resource override of the policy: sees the query and the policy's proposal (`None` when
/// the root signature does not cover the resource, or there is no root signature) and answers
/// with the placement to use, or refuses with a reason (the compile then fails naming the
/// resource). Called once per resource range and compile, from the compiling thread.
pub trait ResourceRemap: Send + Sync {
    fn remap(&self, query: &ResourceQuery, proposed: Option<&ResourcePlacement>) -> Result<ResourcePlacement, String>;

    /// A string that identifies what this callback answers, for the compile cache key: two
    /// callbacks with equal keys must answer alike. The default makes every callback object
    /// distinct.
    fn cache_key(&self) -> String {
        format!("remap@{:p}", self as *const Self as *const ())
    }
}

/// The bindless heap arrays (the layer's emulation of the D3D12 descriptor heaps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HeapArrays {
    /// (set, binding) of the runtime array for each Vulkan descriptor type of the CBV/SRV/UAV heap.
    /// Types that share a (set, binding) alias one array of mutable descriptors.
    pub uniform_buffer: (u32, u32),
    pub storage_buffer: (u32, u32),
    pub uniform_texel_buffer: (u32, u32),
    pub storage_texel_buffer: (u32, u32),
    pub sampled_image: (u32, u32),
    pub storage_image: (u32, u32),
    pub acceleration_structure: (u32, u32),
    /// The sampler heap's array.
    pub sampler: (u32, u32),
    /// The buffer-view bounds buffer (`uvec2[]`, one per heap index), if heap buffer views keep
    /// their D3D12 bounds.
    pub bounds: Option<(u32, u32)>,
    /// The UAV-counter array (storage buffers, indexed by the UAV's heap index).
    pub counters: Option<(u32, u32)>,
}

impl HeapArrays {
    /// One runtime array per descriptor type in set 0 (bindings 0-5: uniform buffer, storage
    /// buffer, uniform texel buffer, storage texel buffer, sampled image, storage image; 6: the
    /// bounds buffer; 7: UAV counters; 8: acceleration structures), samplers in set 1 binding 0.
    pub fn per_type() -> HeapArrays {
        HeapArrays {
            uniform_buffer: (0, 0),
            storage_buffer: (0, 1),
            uniform_texel_buffer: (0, 2),
            storage_texel_buffer: (0, 3),
            sampled_image: (0, 4),
            storage_image: (0, 5),
            bounds: Some((0, 6)),
            counters: Some((0, 7)),
            acceleration_structure: (0, 8),
            sampler: (1, 0),
        }
    }

    /// One array of mutable descriptors at (set, binding) for every CBV/SRV/UAV type
    /// (`VK_EXT_mutable_descriptor_type`), bounds at binding + 1, counters at binding + 2,
    /// samplers in (set + 1, 0).
    pub fn mutable(set: u32, binding: u32) -> HeapArrays {
        let b = (set, binding);
        HeapArrays {
            uniform_buffer: b,
            storage_buffer: b,
            uniform_texel_buffer: b,
            storage_texel_buffer: b,
            sampled_image: b,
            storage_image: b,
            acceleration_structure: b,
            bounds: Some((set, binding + 1)),
            counters: Some((set, binding + 2)),
            sampler: (set + 1, 0),
        }
    }

    /// The array that holds descriptors of type `d`.
    pub fn array(&self, d: DescriptorKind) -> Option<(u32, u32)> {
        Some(match d {
            DescriptorKind::UniformBuffer => self.uniform_buffer,
            DescriptorKind::StorageBuffer => self.storage_buffer,
            DescriptorKind::UniformTexelBuffer => self.uniform_texel_buffer,
            DescriptorKind::StorageTexelBuffer => self.storage_texel_buffer,
            DescriptorKind::SampledImage => self.sampled_image,
            DescriptorKind::StorageImage => self.storage_image,
            DescriptorKind::AccelerationStructure => self.acceleration_structure,
            DescriptorKind::Sampler => self.sampler,
            DescriptorKind::PushConstant => return None,
        })
    }
}

/// Where descriptor-table ranges go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableMode {
    /// Into the bindless heap arrays, indexed through the table's root word.
    Heap,
    /// Plain descriptors: table `t` (counting descriptor tables in root-parameter order) is
    /// descriptor set `first_set + t`; a range's registers are bindings
    /// `offset in table + (register - base)`.
    Descriptors { first_set: u32 },
}

/// Where root descriptors (root CBV/SRV/UAV parameters) go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RootDescriptorMode {
    /// 64-bit buffer device addresses in the root block (`PhysicalStorageBuffer`).
    Address,
    /// Plain descriptors in `set`, binding = the parameter's index.
    Descriptors { set: u32 },
}

/// Where the root block (root descriptor addresses, root constants, table offsets) lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RootBlock {
    PushConstants,
    /// An inline uniform block (or any uniform buffer) at (set, binding).
    UniformBlock {
        set: u32,
        binding: u32,
    },
}

/// The default policy: how the root signature's parameters become Vulkan bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BindingPolicy {
    pub tables: TableMode,
    pub heap: HeapArrays,
    pub root_descriptors: RootDescriptorMode,
    pub root_block: RootBlock,
    /// CBVs in the heap are read as storage buffers (`BINDLESS_CBV_SSBO_EMULATION`) instead of
    /// uniform buffers.
    pub cbv_as_storage_buffer: bool,
    /// Static samplers: sampler `i` of the root signature at (set, first_binding + i); those of a
    /// local root signature follow the global root signature's.
    pub static_samplers: (u32, u32),
    /// Local descriptor tables: the heap index of a table is the low 32 bits of the
    /// `D3D12_GPU_DESCRIPTOR_HANDLE` in the shader record shifted right by this many bits (0: the
    /// layer's handles carry the heap index itself; `log2(descriptor size)` for handles that are
    /// `index * size`). CBV/SRV/UAV tables; sampler tables use `record_sampler_table_shift`.
    pub record_table_shift: u32,
    /// [`BindingPolicy::record_table_shift`] for tables of the sampler heap (a layer's sampler
    /// descriptors may have another size than its CBV/SRV/UAV descriptors).
    pub record_sampler_table_shift: u32,
}

impl Default for BindingPolicy {
    /// Tables in per-type heap arrays (sets 0 and 1), root descriptors as buffer addresses, root
    /// block in push constants, static samplers in set 2.
    fn default() -> Self {
        BindingPolicy {
            tables: TableMode::Heap,
            heap: HeapArrays::per_type(),
            root_descriptors: RootDescriptorMode::Address,
            root_block: RootBlock::PushConstants,
            cbv_as_storage_buffer: false,
            static_samplers: (2, 0),
            record_table_shift: 0,
            record_sampler_table_shift: 0,
        }
    }
}

/// What one entry of the root block holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PushEntryKind {
    /// A root descriptor's buffer device address (2 words: low, high).
    RootDescriptor { class: ResourceClass, space: u32, register: u32 },
    /// Root constants `b<register> space<space>`.
    RootConstants { space: u32, register: u32 },
    /// A descriptor table's current offset into its heap (1 word).
    TableOffset { sampler_heap: bool },
}

/// One entry of the root block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct PushEntry {
    /// The root parameter it comes from (index into the root signature's parameters; `u32::MAX`
    /// for words a callback placed without a root signature).
    pub parameter: u32,
    /// First 32-bit word.
    pub word: u32,
    pub words: u32,
    #[serde(flatten)]
    pub kind: PushEntryKind,
}

/// The root block's layout: what each 32-bit word holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct PushLayout {
    pub entries: Vec<PushEntry>,
    /// Total size in 32-bit words.
    pub words: u32,
}

impl PushLayout {
    /// The layout the policy gives `rs`: root descriptors first, then root constants and table
    /// offsets in parameter order (root descriptors placed as descriptors take no words).
    pub fn of(rs: &RootSignature, policy: &BindingPolicy) -> PushLayout {
        let mut entries = Vec::new();
        let mut word = 0u32;
        if policy.root_descriptors == RootDescriptorMode::Address {
            for (p, param) in rs.parameters.iter().enumerate() {
                let (class, d) = match &param.kind {
                    RootParameterKind::Cbv(d) => (ResourceClass::Cbv, d),
                    RootParameterKind::Srv(d) => (ResourceClass::Srv, d),
                    RootParameterKind::Uav(d) => (ResourceClass::Uav, d),
                    _ => continue,
                };
                entries.push(PushEntry {
                    parameter: p as u32,
                    word,
                    words: 2,
                    kind: PushEntryKind::RootDescriptor { class, space: d.register_space, register: d.shader_register },
                });
                word += 2;
            }
        }
        for (p, param) in rs.parameters.iter().enumerate() {
            let (words, kind) = match &param.kind {
                RootParameterKind::Constants { shader_register, register_space, num_32bit_values } => (
                    *num_32bit_values,
                    PushEntryKind::RootConstants { space: *register_space, register: *shader_register },
                ),
                RootParameterKind::DescriptorTable(ranges) if policy.tables == TableMode::Heap => {
                    let sampler_heap = ranges.iter().any(|r| r.range_type == DescriptorRangeType::Sampler);
                    (1, PushEntryKind::TableOffset { sampler_heap })
                }
                _ => continue,
            };
            entries.push(PushEntry { parameter: p as u32, word, words, kind });
            word = word.saturating_add(words);
        }
        PushLayout { entries, words: word }
    }

    /// The entry of root parameter `p`.
    pub fn entry(&self, p: u32) -> Option<&PushEntry> {
        self.entries.iter().find(|e| e.parameter == p)
    }
}

/// One local root argument in the shader record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct RecordEntry {
    /// The local root signature's parameter.
    pub parameter: u32,
    /// First byte, counted from the end of the 32-byte shader identifier (D3D12) — in Vulkan
    /// from the start of the `ShaderRecordBufferKHR` block, i.e. after the shader group handle.
    pub offset: u32,
    pub size: u32,
    /// Root constants, a root descriptor (64-bit address) or a descriptor table (64-bit
    /// `D3D12_GPU_DESCRIPTOR_HANDLE`, see [`ResourceLocation::RecordHeap`]).
    #[serde(flatten)]
    pub kind: PushEntryKind,
}

/// The local root arguments of a shader record, as D3D12 lays them out after the shader
/// identifier: parameters in order, root constants 4-byte aligned (4 bytes each), root
/// descriptors and descriptor tables 8-byte aligned (8 bytes each).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct ShaderRecordLayout {
    pub entries: Vec<RecordEntry>,
    /// Bytes of local root arguments (the record stride is at least 32 + this, rounded up to
    /// D3D12's 32-byte record alignment).
    pub size: u32,
}

impl ShaderRecordLayout {
    /// The layout of local root signature `rs` (it does not depend on the policy).
    pub fn of(rs: &RootSignature) -> ShaderRecordLayout {
        let mut entries = Vec::with_capacity(rs.parameters.len());
        let mut at = 0u32;
        for (p, param) in rs.parameters.iter().enumerate() {
            let (align, size, kind) = match &param.kind {
                RootParameterKind::Constants { shader_register, register_space, num_32bit_values } => (
                    4,
                    num_32bit_values.saturating_mul(4),
                    PushEntryKind::RootConstants { space: *register_space, register: *shader_register },
                ),
                RootParameterKind::Cbv(d) | RootParameterKind::Srv(d) | RootParameterKind::Uav(d) => {
                    let class = match &param.kind {
                        RootParameterKind::Cbv(_) => ResourceClass::Cbv,
                        RootParameterKind::Srv(_) => ResourceClass::Srv,
                        _ => ResourceClass::Uav,
                    };
                    (
                        8,
                        8,
                        PushEntryKind::RootDescriptor { class, space: d.register_space, register: d.shader_register },
                    )
                }
                RootParameterKind::DescriptorTable(ranges) => {
                    let sampler_heap = ranges.iter().any(|r| r.range_type == DescriptorRangeType::Sampler);
                    (8, 8, PushEntryKind::TableOffset { sampler_heap })
                }
            };
            at = at.saturating_add(align - 1) / align * align;
            entries.push(RecordEntry { parameter: p as u32, offset: at, size, kind });
            at = at.saturating_add(size);
        }
        ShaderRecordLayout { entries, size: at }
    }

    /// The entry of local root parameter `p`.
    pub fn entry(&self, p: u32) -> Option<&RecordEntry> {
        self.entries.iter().find(|e| e.parameter == p)
    }
}

/// Which local root signature an export of a DXIL library is compiled with (ray-tracing
/// stages only; other shaders have none).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum LocalRoot {
    /// The one the library's `RDAT` subobjects associate with the export (D3D12's association
    /// rules: an explicit association of the export or of a hit group holding it, else a default
    /// association, else the library's only unassociated local root signature), if any.
    /// Compiles from a module without its container ([`crate::compile_module`]) have none.
    #[default]
    FromLibrary,
    /// This one (the state object the layer builds associates it).
    Given(RootSignature),
    /// No local root signature.
    None,
}

/// The binding model of one compile.
#[derive(Clone)]
pub struct BindingModel {
    /// The root signature the pipeline is created with (`None`: the callback places everything).
    pub root_signature: Option<RootSignature>,
    pub policy: BindingPolicy,
    pub remap: Option<Arc<dyn ResourceRemap>>,
    /// Size of the root block in words when there is no root signature (a layer that tells the
    /// compiler "R root descriptors and C root-constant words": `2R + C`); with a root
    /// signature the size comes from [`PushLayout::of`].
    pub root_words: Option<u32>,
    /// Ray-tracing exports: the local root signature, whose parameters live in the shader record
    /// ([`ShaderRecordLayout`]) instead of the root block.
    pub local_root_signature: LocalRoot,
}

impl std::fmt::Debug for BindingModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BindingModel")
            .field("root_signature", &self.root_signature)
            .field("policy", &self.policy)
            .field("remap", &self.remap.as_ref().map(|r| r.cache_key()))
            .field("root_words", &self.root_words)
            .field("local_root_signature", &self.local_root_signature)
            .finish()
    }
}

impl PartialEq for BindingModel {
    fn eq(&self, o: &Self) -> bool {
        self.root_signature == o.root_signature
            && self.policy == o.policy
            && self.root_words == o.root_words
            && self.local_root_signature == o.local_root_signature
            && match (&self.remap, &o.remap) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a.cache_key() == b.cache_key(),
                _ => false,
            }
    }
}

/// Why the binding model could not place a resource (the compile fails: D3D12 fails PSO
/// creation when the root signature does not cover a register the shader uses).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{resource}: {reason}")]
pub struct BindError {
    /// The resource, e.g. `SRV t3 space1`.
    pub resource: String,
    pub reason: String,
}

impl BindingModel {
    /// The default policy over a root signature, no callback.
    pub fn from_root_signature(rs: RootSignature) -> BindingModel {
        BindingModel {
            root_signature: Some(rs),
            policy: BindingPolicy::default(),
            remap: None,
            root_words: None,
            local_root_signature: LocalRoot::FromLibrary,
        }
    }

    /// The root block's layout (empty without a root signature, sized by `root_words`).
    pub fn push_layout(&self) -> PushLayout {
        match &self.root_signature {
            Some(rs) => PushLayout::of(rs, &self.policy),
            None => PushLayout { entries: Vec::new(), words: self.root_words.unwrap_or(0) },
        }
    }

    /// The placement of one resource: the policy's proposal, passed through the callback.
    pub fn place(&self, q: &ResourceQuery, layout: &PushLayout) -> Result<ResourcePlacement, BindError> {
        self.place_with_local(q, layout, None)
    }

    /// [`BindingModel::place`] for a ray-tracing export with a local root signature (`local`: it and
    /// its shader-record layout): registers the global root signature does not cover are looked
    /// up in the local one and land in the shader record.
    pub fn place_with_local(
        &self,
        q: &ResourceQuery,
        layout: &PushLayout,
        local: Option<(&RootSignature, &ShaderRecordLayout)>,
    ) -> Result<ResourcePlacement, BindError> {
        let mut proposed = match &self.root_signature {
            Some(rs) => self.propose(rs, layout, q)?,
            None => None,
        };
        if let (None, Some((lrs, record))) = (proposed, local) {
            let globals = self.root_signature.as_ref();
            proposed = self.propose_local(lrs, record, globals, q);
        }
        let err = |reason: String| BindError { resource: format!("{:?} {}", q.class, q.describe()), reason };
        let placement = match &self.remap {
            Some(r) => {
                r.remap(q, proposed.as_ref()).map_err(|e| err(format!("refused by the binding callback: {e}")))?
            }
            None => match proposed {
                Some(p) => p,
                None if self.root_signature.is_none() && local.is_none() => {
                    return Err(err("no root signature and no binding callback to place it".into()))
                }
                None => return Err(err("not covered by the root signature (D3D12 fails PSO creation)".into())),
            },
        };
        check(q, &placement, layout, local.map(|l| l.1)).map_err(err)?;
        Ok(placement)
    }

    /// The placement local root signature `lrs` gives a resource (`None`: it does not cover it):
    /// root constants and root descriptors in the shader record, table ranges in the heap arrays
    /// (indexed through the record's descriptor handle) or, with [`TableMode::Descriptors`], in the
    /// sets after the global root signature's tables; static samplers after the global ones.
    fn propose_local(
        &self,
        lrs: &RootSignature,
        record: &ShaderRecordLayout,
        globals: Option<&RootSignature>,
        q: &ResourceQuery,
    ) -> Option<ResourcePlacement> {
        let pol = &self.policy;
        if q.heap {
            return None;
        }
        let descriptor = match q.natural_descriptor() {
            DescriptorKind::UniformBuffer if pol.cbv_as_storage_buffer => DescriptorKind::StorageBuffer,
            d => d,
        };
        let global_tables = globals.map_or(0, |g| {
            g.parameters.iter().filter(|p| matches!(p.kind, RootParameterKind::DescriptorTable(_))).count() as u32
        });
        let mut table = 0u32;
        for (p, param) in lrs.parameters.iter().enumerate() {
            let offset = record.entry(p as u32).map_or(0, |e| e.offset);
            let is_table = matches!(param.kind, RootParameterKind::DescriptorTable(_));
            let this_table = table;
            if is_table {
                table += 1;
            }
            // Local root signatures hold ray-tracing parameters only: visibility is ALL.
            match &param.kind {
                RootParameterKind::Constants { shader_register, register_space, num_32bit_values } => {
                    if q.class == ResourceClass::Cbv && *register_space == q.space && *shader_register == q.register {
                        return Some(ResourcePlacement {
                            location: ResourceLocation::RecordConstants { offset, words: *num_32bit_values },
                            counter: None,
                        });
                    }
                }
                RootParameterKind::Cbv(d) | RootParameterKind::Srv(d) | RootParameterKind::Uav(d) => {
                    let class = match &param.kind {
                        RootParameterKind::Cbv(_) => ResourceClass::Cbv,
                        RootParameterKind::Srv(_) => ResourceClass::Srv,
                        _ => ResourceClass::Uav,
                    };
                    if class == q.class && d.register_space == q.space && d.shader_register == q.register {
                        return Some(ResourcePlacement {
                            location: ResourceLocation::RecordAddress { offset },
                            counter: None,
                        });
                    }
                }
                RootParameterKind::DescriptorTable(ranges) => {
                    let Some(heap_offset) = table_offset_of(ranges, q) else { continue };
                    let (location, counter) = match pol.tables {
                        TableMode::Heap => {
                            let (set, binding) = pol.heap.array(descriptor)?;
                            let buffer = matches!(
                                descriptor,
                                DescriptorKind::StorageBuffer
                                    | DescriptorKind::UniformTexelBuffer
                                    | DescriptorKind::StorageTexelBuffer
                            ) && q.class != ResourceClass::Cbv;
                            (
                                ResourceLocation::RecordHeap {
                                    set,
                                    binding,
                                    descriptor,
                                    table_offset: offset,
                                    heap_offset,
                                    bounds: if buffer { pol.heap.bounds } else { None },
                                },
                                pol.heap
                                    .counters
                                    .filter(|_| q.has_counter)
                                    .map(|(set, binding)| CounterLocation::Heap { set, binding }),
                            )
                        }
                        TableMode::Descriptors { first_set } => {
                            let set = first_set.saturating_add(global_tables).saturating_add(this_table);
                            (
                                ResourceLocation::Descriptor { set, binding: heap_offset, descriptor },
                                q.has_counter.then_some(CounterLocation::Descriptor {
                                    set,
                                    binding: heap_offset.saturating_add(table_len(ranges)),
                                }),
                            )
                        }
                    };
                    return Some(ResourcePlacement { location, counter });
                }
            }
        }
        if q.class == ResourceClass::Sampler && q.count == Some(1) {
            let first_local = globals.map_or(0, |g| g.static_samplers.len() as u32);
            for (i, s) in lrs.static_samplers.iter().enumerate() {
                if s.register_space == q.space && s.shader_register == q.register {
                    let (set, first) = pol.static_samplers;
                    return Some(ResourcePlacement {
                        location: ResourceLocation::Descriptor {
                            set,
                            binding: first.saturating_add(first_local).saturating_add(i as u32),
                            descriptor: DescriptorKind::Sampler,
                        },
                        counter: None,
                    });
                }
            }
        }
        None
    }

    fn propose(
        &self,
        rs: &RootSignature,
        layout: &PushLayout,
        q: &ResourceQuery,
    ) -> Result<Option<ResourcePlacement>, BindError> {
        let pol = &self.policy;
        let heap_loc = |descriptor: DescriptorKind, table_word: Option<u32>, heap_offset: u32| {
            let (set, binding) = pol.heap.array(descriptor)?;
            let buffer = matches!(
                descriptor,
                DescriptorKind::StorageBuffer | DescriptorKind::UniformTexelBuffer | DescriptorKind::StorageTexelBuffer
            ) && q.class != ResourceClass::Cbv;
            Some(ResourceLocation::Heap {
                set,
                binding,
                descriptor,
                table_word,
                heap_offset,
                bounds: if buffer { pol.heap.bounds } else { None },
            })
        };
        let descriptor = match q.natural_descriptor() {
            DescriptorKind::UniformBuffer if pol.cbv_as_storage_buffer => DescriptorKind::StorageBuffer,
            d => d,
        };
        let heap_counter = |q: &ResourceQuery| {
            pol.heap.counters.filter(|_| q.has_counter).map(|(set, binding)| CounterLocation::Heap { set, binding })
        };
        if q.heap {
            return Ok(
                heap_loc(descriptor, None, 0).map(|location| ResourcePlacement { location, counter: heap_counter(q) })
            );
        }
        let stage_sees = |v: ShaderVisibility| visible(v, q.stage);
        let mut table = 0u32;
        for (p, param) in rs.parameters.iter().enumerate() {
            let is_table = matches!(param.kind, RootParameterKind::DescriptorTable(_));
            let this_table = table;
            if is_table {
                table += 1;
            }
            if !stage_sees(param.visibility) {
                continue;
            }
            match &param.kind {
                RootParameterKind::Constants { shader_register, register_space, num_32bit_values } => {
                    if q.class == ResourceClass::Cbv && *register_space == q.space && *shader_register == q.register {
                        let word = layout.entry(p as u32).map_or(0, |e| e.word);
                        return Ok(Some(ResourcePlacement {
                            location: ResourceLocation::RootConstants { word, words: *num_32bit_values },
                            counter: None,
                        }));
                    }
                }
                RootParameterKind::Cbv(d) | RootParameterKind::Srv(d) | RootParameterKind::Uav(d) => {
                    let class = match &param.kind {
                        RootParameterKind::Cbv(_) => ResourceClass::Cbv,
                        RootParameterKind::Srv(_) => ResourceClass::Srv,
                        _ => ResourceClass::Uav,
                    };
                    if class == q.class && d.register_space == q.space && d.shader_register == q.register {
                        let location = match pol.root_descriptors {
                            RootDescriptorMode::Address => {
                                ResourceLocation::Address { word: layout.entry(p as u32).map_or(0, |e| e.word) }
                            }
                            RootDescriptorMode::Descriptors { set } => {
                                ResourceLocation::Descriptor { set, binding: p as u32, descriptor }
                            }
                        };
                        return Ok(Some(ResourcePlacement { location, counter: None }));
                    }
                }
                RootParameterKind::DescriptorTable(ranges) => {
                    {
                        let Some(heap_offset) = table_offset_of(ranges, q) else { continue };
                        let location = match pol.tables {
                            TableMode::Heap => {
                                let word = layout.entry(p as u32).map(|e| e.word);
                                match heap_loc(descriptor, word, heap_offset) {
                                    Some(l) => l,
                                    None => continue,
                                }
                            }
                            TableMode::Descriptors { first_set } => ResourceLocation::Descriptor {
                                set: first_set.saturating_add(this_table),
                                binding: heap_offset,
                                descriptor,
                            },
                        };
                        let counter = match pol.tables {
                            TableMode::Heap => heap_counter(q),
                            TableMode::Descriptors { first_set } => {
                                q.has_counter.then_some(CounterLocation::Descriptor {
                                    set: first_set.saturating_add(this_table),
                                    // Counters after the table's descriptors.
                                    binding: heap_offset.saturating_add(table_len(ranges)),
                                })
                            }
                        };
                        return Ok(Some(ResourcePlacement { location, counter }));
                    }
                }
            }
        }
        if q.class == ResourceClass::Sampler {
            for (i, s) in rs.static_samplers.iter().enumerate() {
                if s.register_space == q.space
                    && s.shader_register == q.register
                    && stage_sees(s.visibility)
                    && q.count == Some(1)
                {
                    let (set, first) = pol.static_samplers;
                    return Ok(Some(ResourcePlacement {
                        location: ResourceLocation::Descriptor {
                            set,
                            binding: first.saturating_add(i as u32),
                            descriptor: DescriptorKind::Sampler,
                        },
                        counter: None,
                    }));
                }
            }
        }
        Ok(None)
    }
}

/// The offset in its table of the descriptor of `q`'s first register, when a range of `ranges`
/// covers the whole range of `q` (an unbounded shader range only an unbounded table range).
fn table_offset_of(ranges: &[crate::container::rootsig::DescriptorRange], q: &ResourceQuery) -> Option<u32> {
    let last = q.count.map(|n| u64::from(q.register) + u64::from(n.max(1)) - 1);
    let mut next = 0u32;
    for r in ranges {
        let offset = if r.offset_in_descriptors_from_table_start == u32::MAX {
            next
        } else {
            r.offset_in_descriptors_from_table_start
        };
        let n = r.num_descriptors;
        next = if n == u32::MAX { u32::MAX } else { offset.saturating_add(n) };
        let class = match r.range_type {
            DescriptorRangeType::Srv => ResourceClass::Srv,
            DescriptorRangeType::Uav => ResourceClass::Uav,
            DescriptorRangeType::Cbv => ResourceClass::Cbv,
            DescriptorRangeType::Sampler => ResourceClass::Sampler,
            DescriptorRangeType::Other(_) => continue,
        };
        if class != q.class || r.register_space != q.space || q.register < r.base_shader_register {
            continue;
        }
        // An empty range (0 descriptors) holds no register.
        let range_last = match n {
            u32::MAX => u64::MAX,
            0 => continue,
            n => u64::from(r.base_shader_register) + u64::from(n) - 1,
        };
        match last {
            Some(l) if l <= range_last => {}
            None if n == u32::MAX => {}
            _ => continue,
        }
        return Some(offset.saturating_add(q.register - r.base_shader_register));
    }
    None
}

/// Descriptors a table spans (its unbounded ranges count as none).
fn table_len(ranges: &[crate::container::rootsig::DescriptorRange]) -> u32 {
    let mut next = 0u32;
    let mut end = 0u32;
    for r in ranges {
        let offset = if r.offset_in_descriptors_from_table_start == u32::MAX {
            next
        } else {
            r.offset_in_descriptors_from_table_start
        };
        let n = if r.num_descriptors == u32::MAX { 0 } else { r.num_descriptors };
        next = offset.saturating_add(n);
        end = end.max(next);
    }
    end
}

/// Whether a root parameter with visibility `v` is visible to `stage`.
pub fn visible(v: ShaderVisibility, stage: ShaderKind) -> bool {
    match v {
        ShaderVisibility::All => true,
        ShaderVisibility::Vertex => stage == ShaderKind::Vertex,
        ShaderVisibility::Hull => stage == ShaderKind::Hull,
        ShaderVisibility::Domain => stage == ShaderKind::Domain,
        ShaderVisibility::Geometry => stage == ShaderKind::Geometry,
        ShaderVisibility::Pixel => stage == ShaderKind::Pixel,
        ShaderVisibility::Amplification => stage == ShaderKind::Amplification,
        ShaderVisibility::Mesh => stage == ShaderKind::Mesh,
        ShaderVisibility::Other(_) => false,
    }
}

/// Whether a placement can hold the resource: descriptor types the resource can be read
/// through, root constants only for a single CBV, addresses only for buffers, shader-record
/// bytes inside the record.
fn check(
    q: &ResourceQuery,
    p: &ResourcePlacement,
    layout: &PushLayout,
    record: Option<&ShaderRecordLayout>,
) -> Result<(), String> {
    let natural = q.natural_descriptor();
    let descriptor_ok = |d: DescriptorKind| {
        d == natural || (natural == DescriptorKind::UniformBuffer && d == DescriptorKind::StorageBuffer)
    };
    let in_block = |word: u32, words: u32| {
        let end = u64::from(word) + u64::from(words);
        if layout.words > 0 && end > u64::from(layout.words) {
            Err(format!("root-block words {word}..{end} lie beyond the root block ({} words)", layout.words))
        } else {
            Ok(())
        }
    };
    let in_record = |offset: u32, bytes: u32, align: u32| {
        let end = u64::from(offset) + u64::from(bytes);
        let size = record.map_or(0, |r| r.size);
        if !offset.is_multiple_of(align) {
            Err(format!("shader-record byte {offset} is not {align}-byte aligned"))
        } else if end > u64::from(size) {
            Err(format!("shader-record bytes {offset}..{end} lie beyond the local root arguments ({size} bytes)"))
        } else {
            Ok(())
        }
    };
    let addressable = matches!(
        q.kind,
        ResourceKind::CBuffer
            | ResourceKind::RawBuffer
            | ResourceKind::StructuredBuffer
            | ResourceKind::RTAccelerationStructure
    );
    let address_err = || {
        format!(
            "a root descriptor (buffer address) must be a single constant, raw or structured buffer or \
             acceleration structure, not {}",
            q.kind.name()
        )
    };
    match p.location {
        ResourceLocation::Descriptor { descriptor, .. }
        | ResourceLocation::Heap { descriptor, .. }
        | ResourceLocation::RecordHeap { descriptor, .. } => {
            if !descriptor_ok(descriptor) {
                return Err(format!("a {} cannot be read through a {descriptor:?} descriptor", q.kind.name()));
            }
            if let ResourceLocation::Heap { table_word: Some(w), .. } = p.location {
                in_block(w, 1)?;
            }
            if let ResourceLocation::RecordHeap { table_offset, .. } = p.location {
                in_record(table_offset, 8, 8)?;
            }
        }
        ResourceLocation::RootConstants { word, words } => {
            if q.kind != ResourceKind::CBuffer || q.count != Some(1) {
                return Err("only a single constant buffer can be root constants".into());
            }
            in_block(word, words)?;
        }
        ResourceLocation::RecordConstants { offset, words } => {
            if q.kind != ResourceKind::CBuffer || q.count != Some(1) {
                return Err("only a single constant buffer can be root constants".into());
            }
            in_record(offset, words.saturating_mul(4), 4)?;
        }
        ResourceLocation::Address { word } => {
            if !addressable || q.count != Some(1) {
                return Err(address_err());
            }
            in_block(word, 2)?;
        }
        ResourceLocation::RecordAddress { offset } => {
            if !addressable || q.count != Some(1) {
                return Err(address_err());
            }
            in_record(offset, 8, 8)?;
        }
    }
    if p.location.in_shader_record() && !is_ray_tracing(q.stage) {
        return Err(format!("a {} shader has no shader record", q.stage.name()));
    }
    if q.has_counter && p.counter.is_none() {
        return Err("the shader uses the UAV's counter but the placement gives it none".into());
    }
    Ok(())
}

/// The ray-tracing stages (the ones with a shader record).
fn is_ray_tracing(k: ShaderKind) -> bool {
    matches!(
        k,
        ShaderKind::RayGeneration
            | ShaderKind::Intersection
            | ShaderKind::AnyHit
            | ShaderKind::ClosestHit
            | ShaderKind::Miss
            | ShaderKind::Callable
    )
}
