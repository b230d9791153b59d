//! A compile cache: compiled shaders by content, in memory and optionally on
//! disk.
//!
//! The key ([`CacheKey`]) is a 128-bit XXH3 digest of the dxjit version
//! (`CARGO_PKG_VERSION` and [`FORMAT_VERSION`]), the container bytes, the
//! compile options and the link plan, so a new dxjit, other options or
//! another pipeline never see a stale entry. XXH3 is not collision resistant
//! against a deliberate attacker; 128 bits make accidental collisions
//! negligible, and whoever can write the cache directory controls its
//! content anyway.
//!
//! In memory: a fixed number of shards, each an `RwLock` over a map bounded
//! by capacity (oldest entries evicted first), so threads only meet when
//! they hit the same shard, and readers share it. On disk (a directory the
//! user names): one file per key, written to a temporary file and renamed
//! into place, so concurrent processes see a whole file or none; a file that
//! is short, corrupt (checksum) or from another version is ignored and
//! rewritten. An entry holds everything a `CompiledShader` reports, the placements and root
//! block of binding-model compiles included; compiles with a remap callback stay in memory (the
//! callback's key names it only within one process).

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::binding::model::{
    CounterLocation, PushEntry, PushEntryKind, PushLayout, RecordEntry, ResourceLocation, ResourcePlacement,
    ResourceQuery, ShaderRecordLayout,
};
use crate::binding::{DescriptorKind, ResourceClass};
use crate::compile::{CompileError, CompileOptions, CompiledShader, PushConstantRange, ResourceBinding};
use crate::fxhash::FxHashMap;
use crate::link::LinkPlan;
use crate::resource_kind::ResourceKind;
use crate::ShaderKind;

/// Version of the key derivation and of the on-disk format; bump on any change to either.
pub const FORMAT_VERSION: u32 = 5;

const MAGIC: &[u8; 4] = b"DXJC";
const SHARDS: usize = 16;
const FILE_EXT: &str = "dxjc";

/// The content address of one compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CacheKey(pub u128);

/// Feeds `Debug` text into the hasher without building a string.
struct HashWriter<'a>(&'a mut xxhash_rust::xxh3::Xxh3);

impl std::fmt::Write for HashWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.update(s.as_bytes());
        Ok(())
    }
}

impl CacheKey {
    /// The key of compiling `container` with `opts` (and `plan`, for a pipeline stage).
    pub fn new(container: &[u8], plan: Option<&LinkPlan>, opts: &CompileOptions) -> CacheKey {
        Self::with_version(env!("CARGO_PKG_VERSION"), container, plan, opts)
    }

    fn with_version(version: &str, container: &[u8], plan: Option<&LinkPlan>, opts: &CompileOptions) -> CacheKey {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(b"dxjit-cache\0");
        h.update(&FORMAT_VERSION.to_le_bytes());
        h.update(&(version.len() as u64).to_le_bytes());
        h.update(version.as_bytes());
        h.update(&(container.len() as u64).to_le_bytes());
        h.update(container);
        // Options and plan: their Debug text is complete and deterministic
        // (no hash maps), and follows any field added later.
        let mut w = HashWriter(&mut h);
        let _ = write!(w, "{opts:?}\0{plan:?}");
        CacheKey(h.digest128())
    }

    /// 32 hex digits.
    pub fn hex(&self) -> String {
        format!("{:032x}", self.0)
    }
}

/// Counters of a cache's use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub disk_hits: u64,
    pub misses: u64,
    pub entries: usize,
}

#[derive(Default)]
struct ShardMap {
    map: FxHashMap<u128, Arc<CompiledShader>>,
    order: VecDeque<u128>,
}

/// One shard, on its own cache lines so shards do not false-share.
#[repr(align(128))]
#[derive(Default)]
struct Shard {
    inner: RwLock<ShardMap>,
    hits: AtomicU64,
    disk_hits: AtomicU64,
    misses: AtomicU64,
}

/// A thread-safe compile cache (share it with `Arc` or by reference).
pub struct CompileCache {
    shards: Vec<Shard>,
    per_shard: usize,
    dir: Option<PathBuf>,
}

impl CompileCache {
    /// An in-memory cache of at most about `capacity` shaders.
    pub fn new(capacity: usize) -> CompileCache {
        let per_shard = capacity.div_ceil(SHARDS).max(1);
        CompileCache { shards: (0..SHARDS).map(|_| Shard::default()).collect(), per_shard, dir: None }
    }

    /// An in-memory cache backed by the directory `dir` (created if missing).
    pub fn with_disk(capacity: usize, dir: impl Into<PathBuf>) -> std::io::Result<CompileCache> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        let mut c = CompileCache::new(capacity);
        c.dir = Some(dir);
        Ok(c)
    }

    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn shard(&self, key: CacheKey) -> &Shard {
        // The key is a uniform hash: its top bits pick the shard.
        let i = (key.0 >> 120) as usize % SHARDS;
        &self.shards[i]
    }

    /// The cached shader of `key`, in memory or on disk.
    pub fn get(&self, key: CacheKey) -> Option<Arc<CompiledShader>> {
        self.get_from(key, true)
    }

    fn get_from(&self, key: CacheKey, disk: bool) -> Option<Arc<CompiledShader>> {
        let shard = self.shard(key);
        if let Some(s) = shard.inner.read().ok().and_then(|m| m.map.get(&key.0).cloned()) {
            shard.hits.fetch_add(1, Ordering::Relaxed);
            return Some(s);
        }
        if !disk {
            return None;
        }
        let s = Arc::new(self.load(key)?);
        shard.disk_hits.fetch_add(1, Ordering::Relaxed);
        self.insert_memory(key, s.clone());
        Some(s)
    }

    /// Stores `shader` under `key` (in memory, and on disk when the cache has a directory).
    pub fn insert(&self, key: CacheKey, shader: Arc<CompiledShader>) {
        if self.dir.is_some() {
            // A cache that cannot be written is only slower.
            let _ = self.store(key, &shader);
        }
        self.insert_memory(key, shader);
    }

    fn insert_memory(&self, key: CacheKey, shader: Arc<CompiledShader>) {
        let Ok(mut m) = self.shard(key).inner.write() else { return };
        if m.map.insert(key.0, shader).is_none() {
            m.order.push_back(key.0);
            while m.map.len() > self.per_shard {
                let Some(old) = m.order.pop_front() else { break };
                m.map.remove(&old);
            }
        }
    }

    /// The shader of `key`, or `compile()`'s result, stored (errors are not cached).
    pub fn get_or_insert_with(
        &self,
        key: CacheKey,
        compile: impl FnOnce() -> Result<CompiledShader, CompileError>,
    ) -> Result<Arc<CompiledShader>, CompileError> {
        self.get_or_insert(key, true, compile)
    }

    fn get_or_insert(
        &self,
        key: CacheKey,
        disk: bool,
        compile: impl FnOnce() -> Result<CompiledShader, CompileError>,
    ) -> Result<Arc<CompiledShader>, CompileError> {
        if let Some(s) = self.get_from(key, disk) {
            return Ok(s);
        }
        self.shard(key).misses.fetch_add(1, Ordering::Relaxed);
        let s = Arc::new(compile()?);
        if disk {
            self.insert(key, s.clone());
        } else {
            self.insert_memory(key, s.clone());
        }
        Ok(s)
    }

    /// [`crate::compile`] through the cache. Compiles under a binding model are kept on disk with
    /// their placements and root-block layout, except those with a remap callback: a callback's
    /// key ([`crate::binding::model::ResourceRemap::cache_key`]) names it only within this
    /// process, so they stay in memory.
    pub fn compile(&self, container: &[u8], opts: &CompileOptions) -> Result<Arc<CompiledShader>, CompileError> {
        let disk = opts.bindings.as_ref().is_none_or(|m| m.remap.is_none());
        self.get_or_insert(CacheKey::new(container, None, opts), disk, || crate::compile(container, opts))
    }

    pub fn stats(&self) -> CacheStats {
        let mut s = CacheStats::default();
        for sh in &self.shards {
            s.hits += sh.hits.load(Ordering::Relaxed);
            s.disk_hits += sh.disk_hits.load(Ordering::Relaxed);
            s.misses += sh.misses.load(Ordering::Relaxed);
            s.entries += sh.inner.read().map(|m| m.map.len()).unwrap_or(0);
        }
        s
    }

    /// Drops every in-memory entry (the disk directory is left alone).
    pub fn clear_memory(&self) {
        for sh in &self.shards {
            if let Ok(mut m) = sh.inner.write() {
                m.map.clear();
                m.order.clear();
            }
        }
    }

    fn path(&self, key: CacheKey) -> Option<PathBuf> {
        Some(self.dir.as_ref()?.join(format!("{}.{FILE_EXT}", key.hex())))
    }

    fn load(&self, key: CacheKey) -> Option<CompiledShader> {
        let bytes = std::fs::read(self.path(key)?).ok()?;
        decode_file(&bytes, key, env!("CARGO_PKG_VERSION"))
    }

    fn store(&self, key: CacheKey, shader: &CompiledShader) -> std::io::Result<()> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let Some(path) = self.path(key) else { return Ok(()) };
        let Some(dir) = self.dir.as_ref() else { return Ok(()) };
        let bytes = encode_file(shader, key, env!("CARGO_PKG_VERSION"));
        // Unique per process and call: concurrent writers never share a temporary file.
        let tmp =
            dir.join(format!(".{}.{}.{}.tmp", key.hex(), std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed)));
        let written = std::fs::File::create(&tmp).and_then(|mut f| f.write_all(&bytes));
        match written.and_then(|()| std::fs::rename(&tmp, &path)) {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(e)
            }
        }
    }
}

// ---- on-disk format --------------------------------------------------------
//
// MAGIC, FORMAT_VERSION (u32), version (u32 length + bytes), key (u128),
// payload length (u64), payload, XXH3-64 of everything before it (u64).
// All integers little-endian.

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u32(out, s.len() as u32);
    out.extend_from_slice(s.as_bytes());
}

fn put_opt_u32(out: &mut Vec<u8>, v: Option<u32>) {
    match v {
        None => out.push(0),
        Some(v) => {
            out.push(1);
            put_u32(out, v);
        }
    }
}

fn class_code(c: ResourceClass) -> u8 {
    match c {
        ResourceClass::Srv => 0,
        ResourceClass::Uav => 1,
        ResourceClass::Cbv => 2,
        ResourceClass::Sampler => 3,
    }
}

const DESCRIPTORS: [DescriptorKind; 9] = [
    DescriptorKind::UniformBuffer,
    DescriptorKind::StorageBuffer,
    DescriptorKind::UniformTexelBuffer,
    DescriptorKind::StorageTexelBuffer,
    DescriptorKind::SampledImage,
    DescriptorKind::StorageImage,
    DescriptorKind::Sampler,
    DescriptorKind::PushConstant,
    DescriptorKind::AccelerationStructure,
];

fn encode_payload(s: &CompiledShader, out: &mut Vec<u8>) {
    put_u32(out, s.spirv.len() as u32);
    for w in &s.spirv {
        put_u32(out, *w);
    }
    put_str(out, &s.entry_point);
    put_u32(out, s.stage as u32);
    for v in s.workgroup_size {
        put_u32(out, v);
    }
    put_u32(out, s.bindings.len() as u32);
    for b in &s.bindings {
        out.push(class_code(b.class));
        put_u32(out, b.space);
        put_u32(out, b.lower_bound);
        put_opt_u32(out, b.count);
        put_u32(out, b.set);
        put_u32(out, b.binding);
        out.push(DESCRIPTORS.iter().position(|d| *d == b.descriptor).unwrap_or(0) as u8);
        put_str(out, &b.kind);
        match &b.format_hint {
            None => out.push(0),
            Some(f) => {
                out.push(1);
                put_str(out, f);
            }
        }
        out.push(u8::from(b.has_counter));
        match b.counter_binding {
            None => out.push(0),
            Some((set, binding)) => {
                out.push(1);
                put_u32(out, set);
                put_u32(out, binding);
            }
        }
    }
    put_opt_u32(out, s.push_constants.map(|p| p.size));
    put_u32(out, s.capabilities.len() as u32);
    for c in &s.capabilities {
        put_str(out, c);
    }
    put_u32(out, s.heap_bindings.len() as u32);
    for h in &s.heap_bindings {
        out.push(u8::from(h.sampler_heap));
        put_u32(out, h.set);
        put_u32(out, h.binding);
        out.push(DESCRIPTORS.iter().position(|d| *d == h.descriptor).unwrap_or(0) as u8);
    }
    // The patch-constant Location of hull/domain shaders (u32::MAX: none).
    put_u32(out, s.patch_location_offset.unwrap_or(u32::MAX));
    // The sample-count specialization constant's id (u32::MAX: none).
    put_u32(out, s.sample_count_spec_id.unwrap_or(u32::MAX));
    put_opt_u32(out, s.required_subgroup_size);
    // Under a binding model: the root block and every placement.
    match &s.push_layout {
        None => out.push(0),
        Some(l) => {
            out.push(1);
            put_u32(out, l.words);
            put_u32(out, l.entries.len() as u32);
            for e in &l.entries {
                put_u32(out, e.parameter);
                put_u32(out, e.word);
                put_u32(out, e.words);
                put_entry_kind(out, e.kind);
            }
        }
    }
    // Ray-tracing exports under a local root signature: the shader record's layout.
    match &s.shader_record {
        None => out.push(0),
        Some(r) => {
            out.push(1);
            put_u32(out, r.size);
            put_u32(out, r.entries.len() as u32);
            for e in &r.entries {
                put_u32(out, e.parameter);
                put_u32(out, e.offset);
                put_u32(out, e.size);
                put_entry_kind(out, e.kind);
            }
        }
    }
    put_u32(out, s.placements.len() as u32);
    for p in &s.placements {
        let q = &p.query;
        put_u32(out, q.stage as u32);
        out.push(class_code(q.class));
        put_u32(out, res_kind_code(q.kind));
        put_u32(out, q.space);
        put_u32(out, q.register);
        put_opt_u32(out, q.count);
        out.push(u8::from(q.heap));
        out.push(u8::from(q.has_counter));
        let descriptor = |d: DescriptorKind| DESCRIPTORS.iter().position(|x| *x == d).unwrap_or(0) as u8;
        match p.placement.location {
            ResourceLocation::Descriptor { set, binding, descriptor: d } => {
                out.push(0);
                put_u32(out, set);
                put_u32(out, binding);
                out.push(descriptor(d));
            }
            ResourceLocation::Heap { set, binding, descriptor: d, table_word, heap_offset, bounds } => {
                out.push(1);
                put_u32(out, set);
                put_u32(out, binding);
                out.push(descriptor(d));
                put_opt_u32(out, table_word);
                put_u32(out, heap_offset);
                put_opt_u32(out, bounds.map(|b| b.0));
                put_u32(out, bounds.map_or(0, |b| b.1));
            }
            ResourceLocation::RootConstants { word, words } => {
                out.push(2);
                put_u32(out, word);
                put_u32(out, words);
            }
            ResourceLocation::Address { word } => {
                out.push(3);
                put_u32(out, word);
            }
            ResourceLocation::RecordConstants { offset, words } => {
                out.push(4);
                put_u32(out, offset);
                put_u32(out, words);
            }
            ResourceLocation::RecordAddress { offset } => {
                out.push(5);
                put_u32(out, offset);
            }
            ResourceLocation::RecordHeap { set, binding, descriptor: d, table_offset, heap_offset, bounds } => {
                out.push(6);
                put_u32(out, set);
                put_u32(out, binding);
                out.push(descriptor(d));
                put_u32(out, table_offset);
                put_u32(out, heap_offset);
                put_opt_u32(out, bounds.map(|b| b.0));
                put_u32(out, bounds.map_or(0, |b| b.1));
            }
        }
        let (tag, at) = match p.placement.counter {
            None => (0, (0, 0)),
            Some(CounterLocation::Descriptor { set, binding }) => (1, (set, binding)),
            Some(CounterLocation::Heap { set, binding }) => (2, (set, binding)),
            Some(CounterLocation::AddressTable { set, binding }) => (3, (set, binding)),
        };
        out.push(tag);
        put_u32(out, at.0);
        put_u32(out, at.1);
    }
}

/// A root-block or shader-record entry's kind.
fn put_entry_kind(out: &mut Vec<u8>, kind: PushEntryKind) {
    match kind {
        PushEntryKind::RootDescriptor { class, space, register } => {
            out.push(0);
            out.push(class_code(class));
            put_u32(out, space);
            put_u32(out, register);
        }
        PushEntryKind::RootConstants { space, register } => {
            out.push(1);
            put_u32(out, space);
            put_u32(out, register);
        }
        PushEntryKind::TableOffset { sampler_heap } => {
            out.push(2);
            out.push(u8::from(sampler_heap));
        }
    }
}

/// The resource kind's DXIL shape number (read back by [`res_kind_of`]).
fn res_kind_code(k: ResourceKind) -> u32 {
    k.to_u32()
}

/// A resource kind written by [`res_kind_code`]; `Invalid` (0) is never a placed range's kind.
fn res_kind_of(v: u32) -> Option<ResourceKind> {
    ResourceKind::from_u32(v).filter(|&k| k != ResourceKind::Invalid)
}

fn encode_file(s: &CompiledShader, key: CacheKey, version: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + s.spirv.len() * 4 + 64 * s.bindings.len());
    out.extend_from_slice(MAGIC);
    put_u32(&mut out, FORMAT_VERSION);
    put_str(&mut out, version);
    out.extend_from_slice(&key.0.to_le_bytes());
    let len_at = out.len();
    out.extend_from_slice(&0u64.to_le_bytes());
    let start = out.len();
    encode_payload(s, &mut out);
    let len = (out.len() - start) as u64;
    out[len_at..start].copy_from_slice(&len.to_le_bytes());
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A bounds-checked reader; every failure is `None`.
struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.data.len() {
            return None;
        }
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        Some(head)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.bytes(1)?[0])
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.bytes(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.bytes(8)?.try_into().ok()?))
    }
    fn u128(&mut self) -> Option<u128> {
        Some(u128::from_le_bytes(self.bytes(16)?.try_into().ok()?))
    }
    fn string(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.bytes(n)?.to_vec()).ok()
    }
    fn flag(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
    fn opt_u32(&mut self) -> Option<Option<u32>> {
        Some(if self.flag()? { Some(self.u32()?) } else { None })
    }
    /// A count of items of at least `min_size` bytes each, bounded by what is left.
    fn count(&mut self, min_size: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.checked_mul(min_size)? <= self.data.len()).then_some(n)
    }
}

/// What [`put_entry_kind`] wrote.
fn entry_kind(r: &mut Reader<'_>) -> Option<PushEntryKind> {
    Some(match r.u8()? {
        0 => {
            let class = ResourceClass::from_dxil(u64::from(r.u8()?))?;
            PushEntryKind::RootDescriptor { class, space: r.u32()?, register: r.u32()? }
        }
        1 => PushEntryKind::RootConstants { space: r.u32()?, register: r.u32()? },
        2 => PushEntryKind::TableOffset { sampler_heap: r.flag()? },
        _ => return None,
    })
}

fn decode_payload(r: &mut Reader<'_>) -> Option<CompiledShader> {
    let n = r.count(4)?;
    let spirv = r.bytes(n * 4)?.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let entry_point = r.string()?;
    let stage = ShaderKind::from_u32(r.u32()?)?;
    let workgroup_size = [r.u32()?, r.u32()?, r.u32()?];
    let n = r.count(20)?;
    let mut bindings = Vec::with_capacity(n);
    for _ in 0..n {
        let class = ResourceClass::from_dxil(u64::from(r.u8()?))?;
        let space = r.u32()?;
        let lower_bound = r.u32()?;
        let count = r.opt_u32()?;
        let set = r.u32()?;
        let binding = r.u32()?;
        let descriptor = *DESCRIPTORS.get(usize::from(r.u8()?))?;
        let kind = r.string()?;
        let format_hint = if r.flag()? { Some(r.string()?) } else { None };
        let has_counter = r.flag()?;
        let counter_binding = if r.flag()? { Some((r.u32()?, r.u32()?)) } else { None };
        bindings.push(ResourceBinding {
            class,
            space,
            lower_bound,
            count,
            set,
            binding,
            descriptor,
            kind,
            format_hint,
            has_counter,
            counter_binding,
        });
    }
    let push_constants = r.opt_u32()?.map(|size| PushConstantRange { size });
    let n = r.count(4)?;
    let mut capabilities = Vec::with_capacity(n);
    for _ in 0..n {
        capabilities.push(r.string()?);
    }
    let n = r.count(10)?;
    let mut heap_bindings = Vec::with_capacity(n);
    for _ in 0..n {
        let sampler_heap = r.flag()?;
        let set = r.u32()?;
        let binding = r.u32()?;
        let descriptor = *DESCRIPTORS.get(usize::from(r.u8()?))?;
        heap_bindings.push(crate::compile::HeapBinding { sampler_heap, set, binding, descriptor });
    }
    let patch_location_offset = Some(r.u32()?).filter(|&o| o != u32::MAX);
    let sample_count_spec_id = Some(r.u32()?).filter(|&o| o != u32::MAX);
    let required_subgroup_size = r.opt_u32()?;
    let push_layout = if r.flag()? {
        let words = r.u32()?;
        let n = r.count(14)?;
        let mut entries = Vec::with_capacity(n);
        for _ in 0..n {
            let (parameter, word, size) = (r.u32()?, r.u32()?, r.u32()?);
            entries.push(PushEntry { parameter, word, words: size, kind: entry_kind(r)? });
        }
        Some(PushLayout { entries, words })
    } else {
        None
    };
    let shader_record = if r.flag()? {
        let size = r.u32()?;
        let n = r.count(12)?;
        let mut entries = Vec::with_capacity(n);
        for _ in 0..n {
            let (parameter, offset, size) = (r.u32()?, r.u32()?, r.u32()?);
            entries.push(RecordEntry { parameter, offset, size, kind: entry_kind(r)? });
        }
        Some(ShaderRecordLayout { entries, size })
    } else {
        None
    };
    let n = r.count(32)?;
    let mut placements = Vec::with_capacity(n);
    for _ in 0..n {
        let stage = ShaderKind::from_u32(r.u32()?)?;
        let class = ResourceClass::from_dxil(u64::from(r.u8()?))?;
        let kind = res_kind_of(r.u32()?)?;
        let (space, register, count) = (r.u32()?, r.u32()?, r.opt_u32()?);
        let (heap, has_counter) = (r.flag()?, r.flag()?);
        let query = ResourceQuery { stage, class, kind, space, register, count, heap, has_counter };
        let location = match r.u8()? {
            0 => ResourceLocation::Descriptor {
                set: r.u32()?,
                binding: r.u32()?,
                descriptor: *DESCRIPTORS.get(usize::from(r.u8()?))?,
            },
            1 => {
                let (set, binding) = (r.u32()?, r.u32()?);
                let descriptor = *DESCRIPTORS.get(usize::from(r.u8()?))?;
                let (table_word, heap_offset) = (r.opt_u32()?, r.u32()?);
                let (first, second) = (r.opt_u32()?, r.u32()?);
                let bounds = first.map(|f| (f, second));
                ResourceLocation::Heap { set, binding, descriptor, table_word, heap_offset, bounds }
            }
            2 => ResourceLocation::RootConstants { word: r.u32()?, words: r.u32()? },
            3 => ResourceLocation::Address { word: r.u32()? },
            4 => ResourceLocation::RecordConstants { offset: r.u32()?, words: r.u32()? },
            5 => ResourceLocation::RecordAddress { offset: r.u32()? },
            6 => {
                let (set, binding) = (r.u32()?, r.u32()?);
                let descriptor = *DESCRIPTORS.get(usize::from(r.u8()?))?;
                let (table_offset, heap_offset) = (r.u32()?, r.u32()?);
                let (first, second) = (r.opt_u32()?, r.u32()?);
                let bounds = first.map(|f| (f, second));
                ResourceLocation::RecordHeap { set, binding, descriptor, table_offset, heap_offset, bounds }
            }
            _ => return None,
        };
        let tag = r.u8()?;
        let (set, binding) = (r.u32()?, r.u32()?);
        let counter = match tag {
            0 => None,
            1 => Some(CounterLocation::Descriptor { set, binding }),
            2 => Some(CounterLocation::Heap { set, binding }),
            3 => Some(CounterLocation::AddressTable { set, binding }),
            _ => return None,
        };
        placements.push(crate::compile::PlacedResource { query, placement: ResourcePlacement { location, counter } });
    }
    Some(CompiledShader {
        spirv,
        entry_point,
        stage,
        workgroup_size,
        bindings,
        push_constants,
        capabilities,
        heap_bindings,
        push_layout,
        shader_record,
        placements,
        patch_location_offset,
        sample_count_spec_id,
        required_subgroup_size,
    })
}

fn decode_file(bytes: &[u8], key: CacheKey, version: &str) -> Option<CompiledShader> {
    let body_len = bytes.len().checked_sub(8)?;
    let (body, sum) = bytes.split_at(body_len);
    if xxhash_rust::xxh3::xxh3_64(body).to_le_bytes() != sum {
        return None;
    }
    let mut r = Reader { data: body };
    if r.bytes(4)? != MAGIC || r.u32()? != FORMAT_VERSION || r.string()? != version || r.u128()? != key.0 {
        return None;
    }
    let len = usize::try_from(r.u64()?).ok()?;
    if len != r.data.len() {
        return None;
    }
    let s = decode_payload(&mut r)?;
    r.data.is_empty().then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::Robustness;

    fn fixture(name: &str) -> Vec<u8> {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/compute").join(name);
        std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    fn temp_dir(test: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dxjit-cache-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    const A: &str = "bitops.cs_6_0.dxil";
    const B: &str = "cf_nested_loops.cs_6_0.dxil";

    #[test]
    fn hit_after_miss_returns_the_same_shader() {
        let c = CompileCache::new(64);
        let dxil = fixture(A);
        let opts = CompileOptions::default();
        let first = c.compile(&dxil, &opts).unwrap();
        let second = c.compile(&dxil, &opts).unwrap();
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(*first, crate::compile(&dxil, &opts).unwrap());
        let s = c.stats();
        assert_eq!((s.hits, s.misses, s.disk_hits, s.entries), (1, 1, 0, 1));
    }

    #[test]
    fn options_plan_version_and_bytes_change_the_key() {
        let dxil = fixture(A);
        let opts = CompileOptions::default();
        let k = CacheKey::new(&dxil, None, &opts);
        assert_eq!(k, CacheKey::new(&dxil, None, &opts.clone()));
        let robust = CompileOptions { robustness: Robustness::DeviceRobustness2, ..opts.clone() };
        let v14 = CompileOptions { spirv_version: (1, 4), ..opts.clone() };
        let entry = CompileOptions { entry_point: Some("main".into()), ..opts.clone() };
        let mut other = dxil.clone();
        let last = other.len() - 1;
        other[last] ^= 1;
        let keys = [
            CacheKey::new(&dxil, None, &robust),
            CacheKey::new(&dxil, None, &v14),
            CacheKey::new(&dxil, None, &entry),
            CacheKey::new(&other, None, &opts),
            CacheKey::with_version("0.0.0-other", &dxil, None, &opts),
        ];
        for (i, x) in keys.iter().enumerate() {
            assert_ne!(*x, k, "key {i} equals the default key");
        }

        // A different option compiles again instead of hitting.
        let c = CompileCache::new(64);
        let a = c.compile(&dxil, &opts).unwrap();
        let b = c.compile(&dxil, &v14).unwrap();
        assert!(!Arc::ptr_eq(&a, &b));
        assert_ne!(a.spirv[1], b.spirv[1], "SPIR-V version word");
        assert_eq!(c.stats().misses, 2);
    }

    #[test]
    fn disk_round_trip_across_caches() {
        let dir = temp_dir("roundtrip");
        let opts = CompileOptions::default();
        let expect: Vec<_> = [A, B].iter().map(|n| crate::compile(&fixture(n), &opts).unwrap()).collect();
        {
            let c = CompileCache::with_disk(64, &dir).unwrap();
            for n in [A, B] {
                c.compile(&fixture(n), &opts).unwrap();
            }
            assert_eq!(c.stats().misses, 2);
        }
        let files = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).count();
        assert_eq!(files, 2, "one file per shader, no temporary files left");
        let c = CompileCache::with_disk(64, &dir).unwrap();
        for (n, want) in [A, B].iter().zip(&expect) {
            let got = c.compile(&fixture(n), &opts).unwrap();
            assert_eq!(*got, *want);
        }
        let s = c.stats();
        assert_eq!((s.disk_hits, s.misses), (2, 0));
        // A later read comes from memory.
        c.compile(&fixture(A), &opts).unwrap();
        assert_eq!(c.stats().hits, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn bindless(name: &str) -> Vec<u8> {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/bindless").join(name);
        std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    #[test]
    fn binding_model_compiles_round_trip_through_disk() {
        use crate::binding::model::{BindingModel, HeapArrays, RootDescriptorMode, TableMode};
        let dir = temp_dir("bindless");
        let mut jobs = Vec::new();
        for name in ["table_ranges.cs_6_0.dxil", "heap_nonuniform.cs_6_6.dxil"] {
            let dxil = bindless(name);
            let rs = crate::container::Container::parse(&dxil).unwrap().root_signature().unwrap().unwrap();
            let mut policies = vec![BindingModel::from_root_signature(rs.clone())];
            let mut m = BindingModel::from_root_signature(rs.clone());
            m.policy.heap = HeapArrays::mutable(3, 1);
            policies.push(m);
            let mut m = BindingModel::from_root_signature(rs);
            m.policy.tables = TableMode::Descriptors { first_set: 4 };
            m.policy.root_descriptors = RootDescriptorMode::Descriptors { set: 1 };
            policies.push(m);
            for m in policies {
                let opts = CompileOptions { bindings: Some(Arc::new(m)), ..CompileOptions::default() };
                let want = crate::compile(&dxil, &opts).unwrap();
                jobs.push((dxil.clone(), opts, want));
            }
        }
        // Placements of every kind were made: heap elements with bounds, buffer addresses,
        // plain descriptors, a root block.
        let all: Vec<_> = jobs.iter().flat_map(|j| j.2.placements.iter().map(|p| p.placement.location)).collect();
        assert!(all.iter().any(|l| matches!(l, ResourceLocation::Heap { bounds: Some(_), .. })));
        assert!(all.iter().any(|l| matches!(l, ResourceLocation::Address { .. })));
        assert!(all.iter().any(|l| matches!(l, ResourceLocation::Descriptor { .. })));
        assert!(jobs.iter().all(|j| j.2.push_layout.is_some()));
        {
            let c = CompileCache::with_disk(64, &dir).unwrap();
            for (dxil, opts, _) in &jobs {
                c.compile(dxil, opts).unwrap();
            }
        }
        let files = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).count();
        assert_eq!(files, jobs.len(), "binding-model compiles are written to disk");
        let c = CompileCache::with_disk(64, &dir).unwrap();
        for (dxil, opts, want) in &jobs {
            assert_eq!(*c.compile(dxil, opts).unwrap(), *want, "placements and root block read back");
        }
        assert_eq!((c.stats().disk_hits, c.stats().misses), (jobs.len() as u64, 0));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A ray-tracing export under a local root signature: its shader-record layout and record
    /// placements read back from disk.
    #[test]
    fn shader_record_layouts_round_trip_through_disk() {
        use crate::binding::model::BindingModel;
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/raytracing/local_rootsig.lib_6_3.dxil");
        let dxil = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let c = crate::container::Container::parse(&dxil).unwrap();
        let grs = c.export_root_signature("ClosestHit", false).unwrap().unwrap();
        let opts = CompileOptions {
            bindings: Some(Arc::new(BindingModel::from_root_signature(grs))),
            entry_point: Some("ClosestHit".into()),
            ..CompileOptions::default()
        };
        let want = crate::compile(&dxil, &opts).unwrap();
        assert!(want.shader_record.is_some());
        assert!(want.placements.iter().any(|p| p.placement.location.in_shader_record()));
        let dir = temp_dir("record");
        CompileCache::with_disk(4, &dir).unwrap().compile(&dxil, &opts).unwrap();
        let c = CompileCache::with_disk(4, &dir).unwrap();
        assert_eq!(*c.compile(&dxil, &opts).unwrap(), want, "shader record and placements read back");
        assert_eq!((c.stats().disk_hits, c.stats().misses), (1, 0));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn compiles_with_a_remap_callback_stay_in_memory() {
        use crate::binding::model::{BindingModel, ResourceRemap};
        struct Same;
        impl ResourceRemap for Same {
            fn remap(&self, _: &ResourceQuery, p: Option<&ResourcePlacement>) -> Result<ResourcePlacement, String> {
                p.copied().ok_or_else(|| "not covered".to_string())
            }
        }
        let dir = temp_dir("remap");
        let dxil = bindless("table_ranges.cs_6_0.dxil");
        let rs = crate::container::Container::parse(&dxil).unwrap().root_signature().unwrap().unwrap();
        let mut m = BindingModel::from_root_signature(rs);
        m.remap = Some(Arc::new(Same));
        let opts = CompileOptions { bindings: Some(Arc::new(m)), ..CompileOptions::default() };
        let c = CompileCache::with_disk(64, &dir).unwrap();
        let a = c.compile(&dxil, &opts).unwrap();
        let b = c.compile(&dxil, &opts).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!a.placements.is_empty());
        // The callback's key names it only in this process: nothing on disk.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn corrupt_truncated_and_foreign_files_are_ignored() {
        let dir = temp_dir("corrupt");
        let opts = CompileOptions::default();
        let dxil = fixture(A);
        let key = CacheKey::new(&dxil, None, &opts);
        let want = crate::compile(&dxil, &opts).unwrap();
        let good = encode_file(&want, key, env!("CARGO_PKG_VERSION"));
        assert_eq!(decode_file(&good, key, env!("CARGO_PKG_VERSION")).as_ref(), Some(&want));
        let mut flipped = good.clone();
        flipped[good.len() / 2] ^= 0x40;
        let truncated = good[..good.len() - 9].to_vec();
        let foreign = encode_file(&want, key, "0.0.0-other");
        let other_key = encode_file(&want, CacheKey(key.0 ^ 1), env!("CARGO_PKG_VERSION"));
        let garbage = b"DXJC not a cache file".to_vec();
        for (what, bytes) in [
            ("flipped", flipped),
            ("truncated", truncated),
            ("foreign", foreign),
            ("key", other_key),
            ("garbage", garbage),
        ] {
            assert_eq!(decode_file(&bytes, key, env!("CARGO_PKG_VERSION")), None, "{what}");
            let c = CompileCache::with_disk(64, &dir).unwrap();
            std::fs::write(c.path(key).unwrap(), &bytes).unwrap();
            let got = c.compile(&dxil, &opts).unwrap();
            assert_eq!(*got, want, "{what}");
            assert_eq!((c.stats().disk_hits, c.stats().misses), (0, 1), "{what}");
            // The bad file was replaced by a good one.
            let fresh = CompileCache::with_disk(64, &dir).unwrap();
            fresh.compile(&dxil, &opts).unwrap();
            assert_eq!(fresh.stats().disk_hits, 1, "{what}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn capacity_bounds_memory() {
        let c = CompileCache::new(1);
        let opts = CompileOptions::default();
        let dxil = fixture(A);
        let shader = Arc::new(crate::compile(&dxil, &opts).unwrap());
        for i in 0..200u32 {
            let entry = CompileOptions { entry_point: Some(format!("e{i}")), ..opts.clone() };
            c.insert(CacheKey::new(&dxil, None, &entry), shader.clone());
        }
        assert!(c.stats().entries <= SHARDS, "{} entries", c.stats().entries);
    }

    #[test]
    fn concurrent_threads_and_caches_share_a_directory() {
        let dir = temp_dir("threads");
        let opts = CompileOptions::default();
        let names = [A, B, "cf_switch.cs_6_0.dxil", "atomics_buffer.cs_6_0.dxil"];
        let inputs: Vec<Vec<u8>> = names.iter().map(|n| fixture(n)).collect();
        let expect: Vec<CompiledShader> = inputs.iter().map(|d| crate::compile(d, &opts).unwrap()).collect();
        // Two caches over one directory stand in for two processes.
        let caches = [CompileCache::with_disk(64, &dir).unwrap(), CompileCache::with_disk(64, &dir).unwrap()];
        std::thread::scope(|s| {
            for t in 0..8 {
                let (caches, inputs, expect, opts) = (&caches, &inputs, &expect, &opts);
                s.spawn(move || {
                    let c = &caches[t % 2];
                    for round in 0..20 {
                        let i = (t + round) % inputs.len();
                        let got = c.compile(&inputs[i], opts).unwrap();
                        assert_eq!(*got, expect[i]);
                    }
                });
            }
        });
        let total: u64 = caches.iter().map(|c| c.stats()).map(|s| s.hits + s.disk_hits + s.misses).sum();
        assert_eq!(total, 160);
        let fresh = CompileCache::with_disk(64, &dir).unwrap();
        for (d, want) in inputs.iter().zip(&expect) {
            assert_eq!(*fresh.compile(d, &opts).unwrap(), *want);
        }
        assert_eq!(fresh.stats().disk_hits, names.len() as u64);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
