//! Descriptor set layouts, pool, sets and writes derived from a job's resources, checked against the
//! bindings the shader(s) declare. Stage-agnostic (compute now, graphics later).

use std::collections::BTreeMap;

use ash::vk;

use crate::bind::Prepared;
use crate::error::VkCall;
use crate::features::DeviceFeatures;
use crate::reflect::{DescriptorKind, ImageTypeInfo, ReflectedBinding};
use crate::resources::{BoundResource, ResourceDesc};
use crate::scratch::Scratch;
use crate::RuntimeError;

pub(crate) fn vk_type(kind: DescriptorKind) -> vk::DescriptorType {
    match kind {
        DescriptorKind::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
        DescriptorKind::StorageBuffer => vk::DescriptorType::STORAGE_BUFFER,
        DescriptorKind::UniformTexelBuffer => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        DescriptorKind::StorageTexelBuffer => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        DescriptorKind::SampledImage => vk::DescriptorType::SAMPLED_IMAGE,
        DescriptorKind::StorageImage => vk::DescriptorType::STORAGE_IMAGE,
        DescriptorKind::Sampler => vk::DescriptorType::SAMPLER,
        DescriptorKind::CombinedImageSampler => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        DescriptorKind::InputAttachment => vk::DescriptorType::INPUT_ATTACHMENT,
        DescriptorKind::AccelerationStructure => vk::DescriptorType::ACCELERATION_STRUCTURE_KHR,
    }
}

/// Kinds for which robustness2 `nullDescriptor` allows an empty descriptor.
fn nullable(kind: DescriptorKind) -> bool {
    matches!(
        kind,
        DescriptorKind::UniformBuffer
            | DescriptorKind::StorageBuffer
            | DescriptorKind::UniformTexelBuffer
            | DescriptorKind::StorageTexelBuffer
            | DescriptorKind::SampledImage
            | DescriptorKind::StorageImage
            | DescriptorKind::AccelerationStructure
    )
}

pub(crate) struct BindingPlan {
    pub(crate) binding: u32,
    pub(crate) kind: DescriptorKind,
    /// Array element -> index into the job's resources; `None` = null descriptor.
    pub(crate) slots: Vec<Option<usize>>,
    /// The shader's image type for this binding, when it declares one.
    pub(crate) image: Option<ImageTypeInfo>,
    /// A mutable-descriptor array (`VK_EXT_mutable_descriptor_type`): the descriptor types its
    /// elements may hold (empty: every element is `kind`), and the shader's image type per kind.
    pub(crate) mutable: Vec<DescriptorKind>,
    pub(crate) kind_images: Vec<(DescriptorKind, ImageTypeInfo)>,
}

impl BindingPlan {
    /// Makes room for `kind` in this binding: a second descriptor type turns it into a mutable
    /// array where the device has mutable descriptors (the bindless heap of a layer that keeps
    /// one array for every CBV/SRV/UAV type).
    fn admit(&mut self, kind: DescriptorKind, features: &DeviceFeatures) -> bool {
        if kind == self.kind || self.mutable.contains(&kind) {
            return true;
        }
        if !(features.mutable_descriptor_type && mutable_capable(kind) && mutable_capable(self.kind)) {
            return false;
        }
        if self.mutable.is_empty() {
            self.mutable.push(self.kind);
        }
        self.mutable.push(kind);
        true
    }
}

impl BindingPlan {
    /// The descriptor type of the layout binding.
    fn layout_type(&self) -> vk::DescriptorType {
        if self.mutable.is_empty() {
            vk_type(self.kind)
        } else {
            vk::DescriptorType::MUTABLE_EXT
        }
    }
}

/// Kinds a mutable descriptor may take here (samplers keep their own heap).
fn mutable_capable(kind: DescriptorKind) -> bool {
    matches!(
        kind,
        DescriptorKind::UniformBuffer
            | DescriptorKind::StorageBuffer
            | DescriptorKind::UniformTexelBuffer
            | DescriptorKind::StorageTexelBuffer
            | DescriptorKind::SampledImage
            | DescriptorKind::StorageImage
    )
}

/// Layout of every set `0..=max set` (gaps are empty sets).
pub(crate) struct DescriptorPlan {
    pub(crate) sets: Vec<Vec<BindingPlan>>,
    /// The descriptor type of every job resource (by index).
    kinds: Vec<DescriptorKind>,
}

impl DescriptorPlan {
    /// Derives the layouts from `resources` and checks them against `declared` (the shader bindings).
    pub(crate) fn build(
        resources: &[BoundResource],
        declared: &[ReflectedBinding],
        features: &DeviceFeatures,
    ) -> Result<DescriptorPlan, RuntimeError> {
        let mut map: BTreeMap<(u32, u32), BindingPlan> = BTreeMap::new();
        for (i, res) in resources.iter().enumerate() {
            if let ResourceDesc::AddressBuffer { .. } | ResourceDesc::AccelerationStructureAddress { .. } = res.resource
            {
                // Reached through its address, not a descriptor.
                continue;
            }
            let null = matches!(res.resource, ResourceDesc::Null(_));
            let kind = res.resource.kind();
            let idx = res.array_index as usize;
            if res.array_index >= 1 << 16 {
                return Err(RuntimeError::InvalidResource {
                    set: res.set,
                    binding: res.binding,
                    array_index: res.array_index,
                    reason: "array index too large".into(),
                });
            }
            let entry = map.entry((res.set, res.binding)).or_insert_with(|| BindingPlan {
                binding: res.binding,
                kind,
                slots: Vec::new(),
                image: None,
                mutable: Vec::new(),
                kind_images: Vec::new(),
            });
            if !entry.admit(kind, features) {
                return Err(RuntimeError::InvalidResource {
                    set: res.set,
                    binding: res.binding,
                    array_index: res.array_index,
                    reason: format!("binds a {} where other elements are {}", kind.name(), entry.kind.name()),
                });
            }
            if entry.slots.len() <= idx {
                entry.slots.resize(idx + 1, None);
            }
            if null {
                continue;
            }
            if entry.slots[idx].replace(i).is_some() {
                return Err(RuntimeError::InvalidResource {
                    set: res.set,
                    binding: res.binding,
                    array_index: res.array_index,
                    reason: "bound twice".into(),
                });
            }
        }
        // A runtime array the job fills nothing of still spans as many elements as the job's
        // largest array (its heap), so a shader indexing it like its other heap arrays stays in
        // bounds (null descriptors) instead of reading past a one-element array.
        let heap_len = map.values().map(|p| p.slots.len()).max().unwrap_or(1).max(1);
        for d in declared {
            let shader_count = d.count.map_or(0, |n| n as usize);
            let unbound_len = d.count.map_or(heap_len, |n| n as usize);
            match map.get_mut(&(d.set, d.binding)) {
                Some(plan) => {
                    // A binding becomes mutable only when it really holds several types: the
                    // job's resources differ, or the shader aliases it with the job's type too.
                    // One declared type against another bound type stays a mismatch.
                    let aliased =
                        declared.iter().any(|o| (o.set, o.binding) == (d.set, d.binding) && o.kind == plan.kind);
                    let several = !plan.mutable.is_empty() || aliased;
                    if !(d.kind == plan.kind || several && plan.admit(d.kind, features)) {
                        return Err(RuntimeError::DescriptorTypeMismatch {
                            set: d.set,
                            binding: d.binding,
                            shader: d.kind.name().into(),
                            job: plan.kind.name().into(),
                        });
                    }
                    if plan.slots.len() < shader_count {
                        plan.slots.resize(shader_count, None);
                    }
                    if let Some(img) = d.image {
                        plan.kind_images.push((d.kind, img));
                    }
                    if d.kind == plan.kind {
                        plan.image = d.image;
                    }
                }
                None => {
                    if !(features.null_descriptor && nullable(d.kind)) {
                        return Err(RuntimeError::MissingBinding {
                            set: d.set,
                            binding: d.binding,
                            kind: d.kind.name().into(),
                            reason: if nullable(d.kind) {
                                " (the device has no robustness2 nullDescriptor to stand in)".into()
                            } else {
                                String::new()
                            },
                        });
                    }
                    map.insert(
                        (d.set, d.binding),
                        BindingPlan {
                            binding: d.binding,
                            kind: d.kind,
                            slots: vec![None; unbound_len.max(1)],
                            image: d.image,
                            mutable: Vec::new(),
                            kind_images: d.image.map(|i| (d.kind, i)).into_iter().collect(),
                        },
                    );
                }
            }
        }
        // Holes in arrays need null descriptors, or (samplers) a partially bound array.
        for ((set, binding), plan) in &map {
            if let Some(hole) = plan.slots.iter().position(Option::is_none) {
                let partial = features.descriptor_binding_partially_bound && plan.slots.len() > 1;
                if !(partial || features.null_descriptor && nullable(plan.kind)) {
                    return Err(RuntimeError::MissingBinding {
                        set: *set,
                        binding: *binding,
                        kind: format!("{} array element {hole}", plan.kind.name()),
                        reason: " (no null descriptor can stand in)".into(),
                    });
                }
            }
        }
        let max_set = map.keys().map(|(s, _)| *s).max();
        let mut sets: Vec<Vec<BindingPlan>> = match max_set {
            Some(m) if m >= 32 => return Err(RuntimeError::InvalidJob(format!("descriptor set {m} is too high"))),
            Some(m) => (0..=m).map(|_| Vec::new()).collect(),
            None => Vec::new(),
        };
        for ((set, _), plan) in map {
            if let Some(s) = sets.get_mut(set as usize) {
                s.push(plan);
            }
        }
        Ok(DescriptorPlan { sets, kinds: resources.iter().map(|r| r.resource.kind()).collect() })
    }

    /// The shader's image type for a resource slot.
    pub(crate) fn image_type(&self, res: &BoundResource) -> Option<ImageTypeInfo> {
        let b = self.sets.get(res.set as usize)?.iter().find(|b| b.binding == res.binding)?;
        if b.mutable.is_empty() {
            return b.image;
        }
        let kind = res.resource.kind();
        b.kind_images.iter().find(|(k, _)| *k == kind).map(|(_, i)| *i)
    }

    /// Creates one layout per set (empty for gaps).
    pub(crate) fn create_layouts(
        &self,
        scratch: &mut Scratch<'_>,
        stages: vk::ShaderStageFlags,
    ) -> Result<Vec<vk::DescriptorSetLayout>, RuntimeError> {
        let partial = scratch.ctx.features().descriptor_binding_partially_bound;
        let mut layouts = Vec::with_capacity(self.sets.len());
        for set in &self.sets {
            let bindings: Vec<vk::DescriptorSetLayoutBinding> = set
                .iter()
                .map(|b| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b.binding)
                        .descriptor_type(b.layout_type())
                        .descriptor_count(b.slots.len() as u32)
                        .stage_flags(stages)
                })
                .collect();
            // Arrays (bindless heaps) are partially bound where the device allows it: elements the
            // shader does not reach need no valid descriptor (samplers cannot be null).
            let flags: Vec<vk::DescriptorBindingFlags> = set
                .iter()
                .map(|b| {
                    if partial && b.slots.len() > 1 {
                        vk::DescriptorBindingFlags::PARTIALLY_BOUND
                    } else {
                        vk::DescriptorBindingFlags::empty()
                    }
                })
                .collect();
            let mut flag_info = vk::DescriptorSetLayoutBindingFlagsCreateInfo::default().binding_flags(&flags);
            let mut info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            if flags.iter().any(|f| !f.is_empty()) {
                info = info.push_next(&mut flag_info);
            }
            // Mutable bindings list the types their elements may hold (one list per binding).
            let types: Vec<Vec<vk::DescriptorType>> =
                set.iter().map(|b| b.mutable.iter().map(|k| vk_type(*k)).collect()).collect();
            let lists: Vec<vk::MutableDescriptorTypeListEXT> =
                types.iter().map(|t| vk::MutableDescriptorTypeListEXT::default().descriptor_types(t)).collect();
            let mut mutable_info =
                vk::MutableDescriptorTypeCreateInfoEXT::default().mutable_descriptor_type_lists(&lists);
            if set.iter().any(|b| !b.mutable.is_empty()) {
                info = info.push_next(&mut mutable_info);
            }
            layouts.push(scratch.set_layout(&info)?);
        }
        Ok(layouts)
    }

    /// Allocates the sets and writes every descriptor (null descriptors for unfilled slots).
    pub(crate) fn allocate_and_write(
        &self,
        scratch: &mut Scratch<'_>,
        layouts: &[vk::DescriptorSetLayout],
        prepared: &[Prepared],
    ) -> Result<Vec<vk::DescriptorSet>, RuntimeError> {
        let mut counts: BTreeMap<i32, u32> = BTreeMap::new();
        let mut mutable_types: Vec<vk::DescriptorType> = Vec::new();
        for b in self.sets.iter().flatten() {
            *counts.entry(b.layout_type().as_raw()).or_default() += b.slots.len() as u32;
            for k in &b.mutable {
                if !mutable_types.contains(&vk_type(*k)) {
                    mutable_types.push(vk_type(*k));
                }
            }
        }
        if counts.is_empty() {
            return Ok(Vec::new());
        }
        let sizes: Vec<vk::DescriptorPoolSize> = counts
            .iter()
            .map(|(ty, n)| vk::DescriptorPoolSize { ty: vk::DescriptorType::from_raw(*ty), descriptor_count: *n })
            .collect();
        let pool_lists: Vec<vk::MutableDescriptorTypeListEXT> = sizes
            .iter()
            .map(|s| {
                let t: &[vk::DescriptorType] =
                    if s.ty == vk::DescriptorType::MUTABLE_EXT { &mutable_types } else { &[] };
                vk::MutableDescriptorTypeListEXT::default().descriptor_types(t)
            })
            .collect();
        let mut pool_mutable =
            vk::MutableDescriptorTypeCreateInfoEXT::default().mutable_descriptor_type_lists(&pool_lists);
        let mut pool_info = vk::DescriptorPoolCreateInfo::default().max_sets(layouts.len() as u32).pool_sizes(&sizes);
        if !mutable_types.is_empty() {
            pool_info = pool_info.push_next(&mut pool_mutable);
        }
        let pool = scratch.descriptor_pool(&pool_info)?;
        let alloc = vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(layouts);
        let null_ok = scratch.ctx.features().null_descriptor;
        let device = scratch.device();
        // SAFETY: the pool was sized for exactly these layouts; sets are freed with the pool.
        let sets = unsafe { device.allocate_descriptor_sets(&alloc) }.call("vkAllocateDescriptorSets")?;

        enum Info {
            Buffer(usize),
            Texel(usize),
            Image(usize),
            Accel(usize),
        }
        let mut accels: Vec<vk::AccelerationStructureKHR> = Vec::new();
        let mut buffer_infos = Vec::new();
        let mut texel_views = Vec::new();
        let mut image_infos = Vec::new();
        let mut pending: Vec<(vk::DescriptorSet, u32, u32, vk::DescriptorType, Info)> = Vec::new();
        for (set_index, set) in self.sets.iter().enumerate() {
            let Some(&ds) = sets.get(set_index) else { continue };
            for b in set {
                for (element, slot) in b.slots.iter().enumerate() {
                    // Mutable elements are written with the type of what they hold (holes: a null
                    // descriptor of the binding's first type).
                    let kind = slot.and_then(|i| self.kinds.get(i).copied()).unwrap_or(b.kind);
                    let ty = vk_type(kind);
                    if slot.is_none() && !(null_ok && nullable(kind)) {
                        // A hole of a partially bound array (checked in `build`): left unwritten.
                        continue;
                    }
                    let p = slot.and_then(|i| prepared.get(i));
                    let info = match kind {
                        DescriptorKind::UniformBuffer | DescriptorKind::StorageBuffer => {
                            buffer_infos.push(p.and_then(Prepared::buffer_info).unwrap_or(vk::DescriptorBufferInfo {
                                buffer: vk::Buffer::null(),
                                offset: 0,
                                range: vk::WHOLE_SIZE,
                            }));
                            Info::Buffer(buffer_infos.len() - 1)
                        }
                        DescriptorKind::UniformTexelBuffer | DescriptorKind::StorageTexelBuffer => {
                            texel_views.push(match p {
                                Some(Prepared::TexelBuffer { view, .. }) => *view,
                                _ => vk::BufferView::null(),
                            });
                            Info::Texel(texel_views.len() - 1)
                        }
                        DescriptorKind::SampledImage | DescriptorKind::StorageImage | DescriptorKind::Sampler => {
                            image_infos.push(match p {
                                Some(Prepared::Image(img)) => vk::DescriptorImageInfo {
                                    sampler: vk::Sampler::null(),
                                    image_view: img.view,
                                    image_layout: img.layout,
                                },
                                Some(Prepared::Sampler(s)) => vk::DescriptorImageInfo {
                                    sampler: *s,
                                    image_view: vk::ImageView::null(),
                                    image_layout: vk::ImageLayout::UNDEFINED,
                                },
                                _ => vk::DescriptorImageInfo {
                                    sampler: vk::Sampler::null(),
                                    image_view: vk::ImageView::null(),
                                    image_layout: if kind == DescriptorKind::StorageImage {
                                        vk::ImageLayout::GENERAL
                                    } else {
                                        vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
                                    },
                                },
                            });
                            Info::Image(image_infos.len() - 1)
                        }
                        DescriptorKind::AccelerationStructure => {
                            accels.push(match p {
                                Some(Prepared::Accel { handle, .. }) => *handle,
                                _ => vk::AccelerationStructureKHR::null(),
                            });
                            Info::Accel(accels.len() - 1)
                        }
                        other => {
                            return Err(RuntimeError::Unsupported(format!("{} descriptors", other.name())));
                        }
                    };
                    pending.push((ds, b.binding, element as u32, ty, info));
                }
            }
        }
        // Acceleration-structure writes chain their handle (one per write).
        let mut accel_writes: Vec<vk::WriteDescriptorSetAccelerationStructureKHR> = pending
            .iter()
            .filter_map(|p| match p.4 {
                Info::Accel(i) => accels.get(i).map(|a| {
                    vk::WriteDescriptorSetAccelerationStructureKHR::default()
                        .acceleration_structures(std::slice::from_ref(a))
                }),
                _ => None,
            })
            .collect();
        let mut accel_iter = accel_writes.iter_mut();
        let writes: Vec<vk::WriteDescriptorSet> = pending
            .iter()
            .filter_map(|(ds, binding, element, ty, info)| {
                let w = vk::WriteDescriptorSet::default()
                    .dst_set(*ds)
                    .dst_binding(*binding)
                    .dst_array_element(*element)
                    .descriptor_type(*ty);
                Some(match info {
                    Info::Buffer(i) => w.buffer_info(std::slice::from_ref(buffer_infos.get(*i)?)),
                    Info::Texel(i) => w.texel_buffer_view(std::slice::from_ref(texel_views.get(*i)?)),
                    Info::Image(i) => w.image_info(std::slice::from_ref(image_infos.get(*i)?)),
                    Info::Accel(_) => w.descriptor_count(1).push_next(accel_iter.next()?),
                })
            })
            .collect();
        // SAFETY: every write targets a live set and points at live views/buffers/samplers (or null
        // descriptors, only when nullDescriptor is enabled).
        unsafe { device.update_descriptor_sets(&writes, &[]) };
        Ok(sets)
    }
}
