//! The resource binding model: where each D3D12 binding (register class,
//! register space, register range) ends up in Vulkan.
//!
//! # Default rule
//!
//! Every D3D12 range `<class><register>, space<S>` (class `b` CBV, `t` SRV,
//! `u` UAV, `s` sampler) becomes one Vulkan binding in descriptor set `S`:
//!
//! ```text
//! set     = register space
//! binding = 5 * lower_bound + slot      slot: b = 0, t = 1, u = 2, s = 3, UAV counter = 4
//! ```
//!
//! A range of `n` registers (`Texture2D t[8] : register(t4)`) is one
//! binding with descriptor count `n` at the binding of its lower bound; an
//! unbounded range (`t[]`) is a runtime descriptor array (needs descriptor
//! indexing). No two ranges of one shader can collide: ranges of one class in
//! one space never overlap in D3D12, and the classes have distinct slots.
//! Because the rule depends only on the register and not on which resources
//! a shader declares, every stage of a pipeline gets the same layout for the
//! same root signature. The UAV counter of `u<N>` is its own storage buffer
//! (one `uint`) at slot 4 of register `N`.
//!
//! Descriptor kinds: CBV → uniform buffer (16-byte rows, `uvec4[]`); typed
//! buffer SRV/UAV (`Buffer<T>`, `RWBuffer<T>`) → uniform/storage texel buffer;
//! raw and structured buffers → storage buffer (SRVs `NonWritable`); texture
//! SRVs → sampled image; texture UAVs → storage image; samplers → sampler.
//!
//! Root constants are not push constants by default (a CBV is a CBV): a
//! [`BindingMap`] says which `b<N> space<S>` are root constants.
//!
//! # User map
//!
//! [`BindingMap`] overrides the rule per range, matched by (class, space,
//! lower bound): an explicit (set, binding), optionally the counter's
//! (set, binding), or, for CBVs, "push constants". Ranges without an entry
//! keep the default rule. TOML form (see `docs/binding-model.md`):
//!
//! ```toml
//! [[binding]]
//! class = "uav"        # "cbv" | "srv" | "uav" | "sampler" (or "b", "t", "u", "s")
//! space = 0
//! register = 1
//! set = 0
//! binding = 7
//! counter_set = 0      # optional, UAV counters
//! counter_binding = 8
//!
//! [[push_constants]]
//! space = 0
//! register = 0         # b0 space0 → push constants
//! ```

use serde::Deserialize;

pub mod model;
pub use model::{
    BindError, BindingModel, BindingPolicy, CounterLocation, HeapArrays, LocalRoot, PushEntry, PushEntryKind,
    PushLayout, RecordEntry, ResourceLocation, ResourcePlacement, ResourceQuery, ResourceRemap, RootBlock,
    RootDescriptorMode, ShaderRecordLayout, TableMode,
};

/// D3D12 register class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResourceClass {
    Srv,
    Uav,
    Cbv,
    Sampler,
}

impl ResourceClass {
    /// The DXIL resource-class number (`SRV 0, UAV 1, CBV 2, Sampler 3`).
    pub fn from_dxil(v: u64) -> Option<ResourceClass> {
        Some(match v {
            0 => ResourceClass::Srv,
            1 => ResourceClass::Uav,
            2 => ResourceClass::Cbv,
            3 => ResourceClass::Sampler,
            _ => return None,
        })
    }
    /// The HLSL register letter.
    pub fn letter(self) -> char {
        match self {
            ResourceClass::Srv => 't',
            ResourceClass::Uav => 'u',
            ResourceClass::Cbv => 'b',
            ResourceClass::Sampler => 's',
        }
    }
    fn slot(self) -> u32 {
        match self {
            ResourceClass::Cbv => 0,
            ResourceClass::Srv => 1,
            ResourceClass::Uav => 2,
            ResourceClass::Sampler => 3,
        }
    }
    fn parse(s: &str) -> Option<ResourceClass> {
        Some(match s.to_ascii_lowercase().as_str() {
            "srv" | "t" => ResourceClass::Srv,
            "uav" | "u" => ResourceClass::Uav,
            "cbv" | "b" => ResourceClass::Cbv,
            "sampler" | "s" => ResourceClass::Sampler,
            _ => return None,
        })
    }
}

/// The Vulkan descriptor type a binding needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum DescriptorKind {
    UniformBuffer,
    StorageBuffer,
    UniformTexelBuffer,
    StorageTexelBuffer,
    SampledImage,
    StorageImage,
    Sampler,
    /// `VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR` (ray tracing).
    AccelerationStructure,
    PushConstant,
}

/// Slot of the UAV counter in the default rule.
const COUNTER_SLOT: u32 = 4;
/// Registers per default binding stride.
const STRIDE: u32 = 5;

/// Where a range goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    Descriptor { set: u32, binding: u32 },
    PushConstants,
}

/// The default rule for a range's main binding; `None` when the register is
/// too large for the rule (binding numbers are `u32`).
pub fn default_binding(class: ResourceClass, space: u32, lower_bound: u32) -> Option<(u32, u32)> {
    let b = lower_bound.checked_mul(STRIDE)?.checked_add(class.slot())?;
    Some((space, b))
}

/// The default rule for a UAV's counter.
pub fn default_counter_binding(space: u32, lower_bound: u32) -> Option<(u32, u32)> {
    let b = lower_bound.checked_mul(STRIDE)?.checked_add(COUNTER_SLOT)?;
    Some((space, b))
}

/// One explicit entry of a [`BindingMap`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingEntry {
    pub class: ResourceClass,
    pub space: u32,
    pub register: u32,
    pub set: u32,
    pub binding: u32,
    pub counter: Option<(u32, u32)>,
}

/// A user binding map: explicit placements that override the default rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BindingMap {
    pub entries: Vec<BindingEntry>,
    /// CBVs `(space, register)` that are root constants → push constants.
    pub push_constants: Vec<(u32, u32)>,
    /// Where the SM 6.6 descriptor heaps go (`None`: [`HeapLayout::default`]).
    pub heap: Option<HeapLayout>,
}

/// The descriptor sets of the SM 6.6 descriptor heaps (`ResourceDescriptorHeap`,
/// `SamplerDescriptorHeap`). The CBV/SRV/UAV heap is one set with one runtime descriptor array
/// per Vulkan descriptor type, all aliasing the heap: heap index `i` is element `i` of the
/// binding of the descriptor's type ([`heap_binding`]). The sampler heap is one set with one
/// runtime sampler array at binding 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapLayout {
    pub resource_set: u32,
    pub sampler_set: u32,
}

impl Default for HeapLayout {
    /// Sets 6 and 7: within the 8 descriptor sets every Vulkan device offers (register spaces 6
    /// and 7 then cannot be used by the same shader unless the map moves the heaps).
    fn default() -> Self {
        HeapLayout { resource_set: 6, sampler_set: 7 }
    }
}

/// The binding of a descriptor type inside the resource-heap set.
pub fn heap_binding(descriptor: DescriptorKind) -> Option<u32> {
    Some(match descriptor {
        DescriptorKind::UniformBuffer => 0,
        DescriptorKind::StorageBuffer => 1,
        DescriptorKind::UniformTexelBuffer => 2,
        DescriptorKind::StorageTexelBuffer => 3,
        DescriptorKind::SampledImage => 4,
        DescriptorKind::StorageImage => 5,
        DescriptorKind::Sampler => 0,
        DescriptorKind::AccelerationStructure => 6,
        DescriptorKind::PushConstant => return None,
    })
}

/// The binding of the UAV-counter array of the CBV/SRV/UAV heap (in the resource-heap set): a
/// runtime array of `struct { uint counter; }` storage buffers, element `i` the counter of the
/// UAV at heap index `i`.
pub const HEAP_COUNTER_BINDING: u32 = 7;

/// Where the counters of SM 6.6 heap UAVs live under an optional user map.
pub fn heap_counter_binding(map: Option<&BindingMap>) -> Option<(u32, u32)> {
    let layout = map.and_then(|m| m.heap).unwrap_or_default();
    Some((layout.resource_set, HEAP_COUNTER_BINDING))
}

/// Placement of heap descriptors of type `descriptor` under an optional user map.
pub fn place_heap(map: Option<&BindingMap>, descriptor: DescriptorKind) -> Option<Placement> {
    let layout = map.and_then(|m| m.heap).unwrap_or_default();
    let set = if descriptor == DescriptorKind::Sampler { layout.sampler_set } else { layout.resource_set };
    heap_binding(descriptor).map(|binding| Placement::Descriptor { set, binding })
}

/// An error reading a binding map.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("binding map: {0}")]
pub struct BindingMapError(pub String);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlMap {
    #[serde(default)]
    binding: Vec<TomlEntry>,
    #[serde(default)]
    push_constants: Vec<TomlPush>,
    heap: Option<TomlHeap>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlHeap {
    resource_set: Option<u32>,
    sampler_set: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlEntry {
    class: String,
    #[serde(default)]
    space: u32,
    register: u32,
    set: u32,
    binding: u32,
    counter_set: Option<u32>,
    counter_binding: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPush {
    #[serde(default)]
    space: u32,
    register: u32,
}

impl BindingMap {
    pub fn new() -> BindingMap {
        BindingMap::default()
    }

    /// Places range `class<register> space<space>` at `(set, binding)`.
    pub fn bind(&mut self, class: ResourceClass, space: u32, register: u32, set: u32, binding: u32) -> &mut Self {
        self.entries.push(BindingEntry { class, space, register, set, binding, counter: None });
        self
    }

    /// Places the counter of UAV `u<register> space<space>`.
    pub fn bind_counter(&mut self, space: u32, register: u32, set: u32, binding: u32) -> &mut Self {
        if let Some(e) = self
            .entries
            .iter_mut()
            .find(|e| e.class == ResourceClass::Uav && e.space == space && e.register == register)
        {
            e.counter = Some((set, binding));
        } else {
            let (s, b) = default_binding(ResourceClass::Uav, space, register).unwrap_or((space, 0));
            self.entries.push(BindingEntry {
                class: ResourceClass::Uav,
                space,
                register,
                set: s,
                binding: b,
                counter: Some((set, binding)),
            });
        }
        self
    }

    /// Makes CBV `b<register> space<space>` root constants (push constants).
    pub fn push_constant(&mut self, space: u32, register: u32) -> &mut Self {
        self.push_constants.push((space, register));
        self
    }

    /// Reads the TOML form described in the module documentation.
    pub fn from_toml_str(s: &str) -> Result<BindingMap, BindingMapError> {
        let t: TomlMap = toml::from_str(s).map_err(|e| BindingMapError(e.to_string()))?;
        let mut m = BindingMap::new();
        for e in t.binding {
            let class = ResourceClass::parse(&e.class)
                .ok_or_else(|| BindingMapError(format!("unknown class {:?} (cbv, srv, uav, sampler)", e.class)))?;
            let counter = match (e.counter_set, e.counter_binding) {
                (None, None) => None,
                (s, Some(b)) => Some((s.unwrap_or(e.set), b)),
                (Some(_), None) => return Err(BindingMapError("counter_set without counter_binding".into())),
            };
            if counter.is_some() && class != ResourceClass::Uav {
                return Err(BindingMapError(format!("counter on a non-UAV range {}{}", class.letter(), e.register)));
            }
            m.entries.push(BindingEntry {
                class,
                space: e.space,
                register: e.register,
                set: e.set,
                binding: e.binding,
                counter,
            });
        }
        for p in t.push_constants {
            m.push_constants.push((p.space, p.register));
        }
        if let Some(h) = t.heap {
            let d = HeapLayout::default();
            let layout = HeapLayout {
                resource_set: h.resource_set.unwrap_or(d.resource_set),
                sampler_set: h.sampler_set.unwrap_or(d.sampler_set),
            };
            if layout.resource_set == layout.sampler_set {
                return Err(BindingMapError("heap: resource_set and sampler_set must differ".into()));
            }
            m.heap = Some(layout);
        }
        Ok(m)
    }

    fn entry(&self, class: ResourceClass, space: u32, lower_bound: u32) -> Option<&BindingEntry> {
        self.entries.iter().find(|e| e.class == class && e.space == space && e.register == lower_bound)
    }

    fn is_push_constant(&self, class: ResourceClass, space: u32, lower_bound: u32) -> bool {
        class == ResourceClass::Cbv && self.push_constants.contains(&(space, lower_bound))
    }
}

/// Placement of a range under an optional user map (default rule otherwise).
pub fn place(map: Option<&BindingMap>, class: ResourceClass, space: u32, lower_bound: u32) -> Option<Placement> {
    if let Some(m) = map {
        if m.is_push_constant(class, space, lower_bound) {
            return Some(Placement::PushConstants);
        }
        if let Some(e) = m.entry(class, space, lower_bound) {
            return Some(Placement::Descriptor { set: e.set, binding: e.binding });
        }
    }
    default_binding(class, space, lower_bound).map(|(set, binding)| Placement::Descriptor { set, binding })
}

/// Placement of a UAV's counter under an optional user map.
pub fn place_counter(map: Option<&BindingMap>, space: u32, lower_bound: u32) -> Option<(u32, u32)> {
    if let Some(c) = map.and_then(|m| m.entry(ResourceClass::Uav, space, lower_bound)).and_then(|e| e.counter) {
        return Some(c);
    }
    default_counter_binding(space, lower_bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_rule_is_disjoint_per_class() {
        assert_eq!(default_binding(ResourceClass::Cbv, 0, 0), Some((0, 0)));
        assert_eq!(default_binding(ResourceClass::Srv, 0, 0), Some((0, 1)));
        assert_eq!(default_binding(ResourceClass::Uav, 2, 3), Some((2, 17)));
        assert_eq!(default_binding(ResourceClass::Sampler, 1, 1), Some((1, 8)));
        assert_eq!(default_counter_binding(0, 3), Some((0, 19)));
        assert_eq!(default_binding(ResourceClass::Srv, 0, u32::MAX), None);
        let mut seen = std::collections::HashSet::new();
        for r in 0..50 {
            for c in [ResourceClass::Cbv, ResourceClass::Srv, ResourceClass::Uav, ResourceClass::Sampler] {
                assert!(seen.insert(default_binding(c, 0, r)));
            }
            assert!(seen.insert(default_counter_binding(0, r)));
        }
    }

    #[test]
    fn toml_map() {
        let m = BindingMap::from_toml_str(
            r#"
            [[binding]]
            class = "uav"
            register = 1
            set = 3
            binding = 7
            counter_binding = 8
            [[binding]]
            class = "t"
            space = 2
            register = 0
            set = 1
            binding = 0
            [[push_constants]]
            register = 0
            "#,
        )
        .unwrap();
        assert_eq!(place(Some(&m), ResourceClass::Uav, 0, 1), Some(Placement::Descriptor { set: 3, binding: 7 }));
        assert_eq!(place_counter(Some(&m), 0, 1), Some((3, 8)));
        assert_eq!(place(Some(&m), ResourceClass::Srv, 2, 0), Some(Placement::Descriptor { set: 1, binding: 0 }));
        assert_eq!(place(Some(&m), ResourceClass::Cbv, 0, 0), Some(Placement::PushConstants));
        assert_eq!(place(Some(&m), ResourceClass::Cbv, 0, 1), Some(Placement::Descriptor { set: 0, binding: 5 }));
        assert!(BindingMap::from_toml_str("[[binding]]\nclass = \"x\"\nregister = 0\nset = 0\nbinding = 0").is_err());
        assert!(BindingMap::from_toml_str("bogus = 1").is_err());
    }

    #[test]
    fn heap_layout() {
        assert_eq!(place_heap(None, DescriptorKind::StorageImage), Some(Placement::Descriptor { set: 6, binding: 5 }));
        assert_eq!(place_heap(None, DescriptorKind::Sampler), Some(Placement::Descriptor { set: 7, binding: 0 }));
        assert_eq!(place_heap(None, DescriptorKind::PushConstant), None);
        let m = BindingMap::from_toml_str("[heap]\nresource_set = 2\nsampler_set = 3").unwrap();
        assert_eq!(
            place_heap(Some(&m), DescriptorKind::UniformBuffer),
            Some(Placement::Descriptor { set: 2, binding: 0 })
        );
        assert_eq!(place_heap(Some(&m), DescriptorKind::Sampler), Some(Placement::Descriptor { set: 3, binding: 0 }));
        assert!(BindingMap::from_toml_str("[heap]\nresource_set = 2\nsampler_set = 2").is_err());
        let kinds = [
            DescriptorKind::UniformBuffer,
            DescriptorKind::StorageBuffer,
            DescriptorKind::UniformTexelBuffer,
            DescriptorKind::StorageTexelBuffer,
            DescriptorKind::SampledImage,
            DescriptorKind::StorageImage,
        ];
        let mut seen = std::collections::HashSet::new();
        for k in kinds {
            assert!(seen.insert(heap_binding(k)), "{k:?} shares a heap binding");
        }
    }
}
