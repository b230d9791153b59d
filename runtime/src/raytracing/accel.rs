//! Building a [`Scene`]: input data in one host-visible buffer, one bottom-level structure per
//! [`Blas`], one top-level structure of the instances, built on the device at the start of a
//! job's command buffer.

use ash::vk;
use gpu_allocator::MemoryLocation;

use super::{GeometryKind, Scene};
use crate::bind::Prepared;
use crate::resources::{BoundResource, ResourceDesc};
use crate::scratch::Scratch;
use crate::RuntimeError;

/// One geometry as the build needs it (addresses filled once the input buffer exists).
#[derive(Clone, Copy, Debug)]
enum GeomData {
    Triangles {
        vertices: u64,
        max_vertex: u32,
        indices: Option<u64>,
        transform: Option<u64>,
        primitives: u32,
        flags: vk::GeometryFlagsKHR,
    },
    Aabbs {
        data: u64,
        primitives: u32,
        flags: vk::GeometryFlagsKHR,
    },
    Instances {
        data: u64,
        count: u32,
    },
}

impl GeomData {
    fn primitives(&self) -> u32 {
        match *self {
            GeomData::Triangles { primitives, .. } | GeomData::Aabbs { primitives, .. } => primitives,
            GeomData::Instances { count, .. } => count,
        }
    }

    fn shift(&mut self, base: u64) {
        match self {
            GeomData::Triangles { vertices, indices, transform, .. } => {
                *vertices += base;
                if let Some(i) = indices {
                    *i += base;
                }
                if let Some(t) = transform {
                    *t += base;
                }
            }
            GeomData::Aabbs { data, .. } | GeomData::Instances { data, .. } => *data += base,
        }
    }

    fn vk(&self) -> vk::AccelerationStructureGeometryKHR<'static> {
        let addr = |a: u64| vk::DeviceOrHostAddressConstKHR { device_address: a };
        match *self {
            GeomData::Triangles { vertices, max_vertex, indices, transform, flags, .. } => {
                let t = vk::AccelerationStructureGeometryTrianglesDataKHR::default()
                    .vertex_format(vk::Format::R32G32B32_SFLOAT)
                    .vertex_data(addr(vertices))
                    .vertex_stride(12)
                    .max_vertex(max_vertex)
                    .index_type(if indices.is_some() { vk::IndexType::UINT32 } else { vk::IndexType::NONE_KHR })
                    .index_data(addr(indices.unwrap_or(0)))
                    .transform_data(addr(transform.unwrap_or(0)));
                vk::AccelerationStructureGeometryKHR::default()
                    .geometry_type(vk::GeometryTypeKHR::TRIANGLES)
                    .geometry(vk::AccelerationStructureGeometryDataKHR { triangles: t })
                    .flags(flags)
            }
            GeomData::Aabbs { data, flags, .. } => {
                let a = vk::AccelerationStructureGeometryAabbsDataKHR::default().data(addr(data)).stride(24);
                vk::AccelerationStructureGeometryKHR::default()
                    .geometry_type(vk::GeometryTypeKHR::AABBS)
                    .geometry(vk::AccelerationStructureGeometryDataKHR { aabbs: a })
                    .flags(flags)
            }
            GeomData::Instances { data, .. } => {
                let i = vk::AccelerationStructureGeometryInstancesDataKHR::default()
                    .array_of_pointers(false)
                    .data(addr(data));
                vk::AccelerationStructureGeometryKHR::default()
                    .geometry_type(vk::GeometryTypeKHR::INSTANCES)
                    .geometry(vk::AccelerationStructureGeometryDataKHR { instances: i })
            }
        }
    }
}

/// One structure to build.
#[derive(Debug)]
struct Build {
    dst: vk::AccelerationStructureKHR,
    ty: vk::AccelerationStructureTypeKHR,
    geometries: Vec<GeomData>,
    scratch: u64,
}

/// A scene's structures, created and ready to be built by [`record_scene_build`].
#[derive(Debug)]
pub(crate) struct BuiltScene {
    pub(crate) tlas: vk::AccelerationStructureKHR,
    pub(crate) tlas_address: u64,
    bottom: Vec<Build>,
    top: Build,
}

/// Appends `bytes` to `data` at a 16-byte boundary; returns their offset.
fn push_aligned(data: &mut Vec<u8>, bytes: &[u8]) -> u64 {
    let at = data.len().div_ceil(16) * 16;
    data.resize(at, 0);
    data.extend_from_slice(bytes);
    at as u64
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn invalid(msg: impl Into<String>) -> RuntimeError {
    RuntimeError::InvalidJob(msg.into())
}

/// The sizes of one build.
fn build_sizes(
    scratch: &Scratch<'_>,
    ty: vk::AccelerationStructureTypeKHR,
    geometries: &[GeomData],
) -> Result<vk::AccelerationStructureBuildSizesInfoKHR<'static>, RuntimeError> {
    let Some(ext) = scratch.ctx.accel.as_ref() else {
        return Err(RuntimeError::Unsupported("acceleration structures (VK_KHR_acceleration_structure)".into()));
    };
    let geoms: Vec<vk::AccelerationStructureGeometryKHR> = geometries.iter().map(GeomData::vk).collect();
    let counts: Vec<u32> = geometries.iter().map(GeomData::primitives).collect();
    let info = vk::AccelerationStructureBuildGeometryInfoKHR::default()
        .ty(ty)
        .flags(vk::BuildAccelerationStructureFlagsKHR::PREFER_FAST_TRACE)
        .mode(vk::BuildAccelerationStructureModeKHR::BUILD)
        .geometries(&geoms);
    let mut sizes = vk::AccelerationStructureBuildSizesInfoKHR::default();
    // SAFETY: the geometry descriptions are complete (addresses are ignored for the size query).
    unsafe {
        ext.get_acceleration_structure_build_sizes(
            vk::AccelerationStructureBuildTypeKHR::DEVICE,
            &info,
            &counts,
            &mut sizes,
        )
    };
    Ok(sizes)
}

/// Creates the structure of one build in its own device-local buffer; returns it, its device
/// address and its scratch size.
fn create_structure(
    scratch: &mut Scratch<'_>,
    name: &str,
    ty: vk::AccelerationStructureTypeKHR,
    geometries: &[GeomData],
) -> Result<(vk::AccelerationStructureKHR, u64, u64), RuntimeError> {
    let sizes = build_sizes(scratch, ty, geometries)?;
    let usage = vk::BufferUsageFlags::ACCELERATION_STRUCTURE_STORAGE_KHR | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
    let size = sizes.acceleration_structure_size.max(256);
    let (buffer, _) = scratch.buffer(name, size, usage, MemoryLocation::GpuOnly)?;
    let info = vk::AccelerationStructureCreateInfoKHR::default().buffer(buffer).offset(0).size(size).ty(ty);
    let a = scratch.acceleration_structure(&info)?;
    let Some(ext) = scratch.ctx.accel.as_ref() else {
        return Err(RuntimeError::Unsupported("acceleration structures (VK_KHR_acceleration_structure)".into()));
    };
    let ai = vk::AccelerationStructureDeviceAddressInfoKHR::default().acceleration_structure(a);
    // SAFETY: `a` was just created from this device.
    let address = unsafe { ext.get_acceleration_structure_device_address(&ai) };
    Ok((a, address, sizes.build_scratch_size))
}

/// Creates every structure of `scene` and uploads its input data (vertices, indices, transforms,
/// AABBs, instances); the builds are recorded later by [`record_scene_build`].
pub(crate) fn build_scene(scratch: &mut Scratch<'_>, scene: &Scene) -> Result<BuiltScene, RuntimeError> {
    let f = scratch.ctx.features();
    if !f.acceleration_structure {
        return Err(RuntimeError::Unsupported("acceleration structures (VK_KHR_acceleration_structure)".into()));
    }
    let align = u64::from(f.min_acceleration_structure_scratch_offset_alignment.max(16));
    let mut data: Vec<u8> = Vec::new();
    let mut bottom = Vec::with_capacity(scene.blas.len());
    let mut blas_addresses = Vec::with_capacity(scene.blas.len());
    let mut scratch_total = 0u64;
    let mut scratch_offsets = Vec::new();
    for (b, blas) in scene.blas.iter().enumerate() {
        if blas.geometries.is_empty() {
            return Err(invalid(format!("bottom-level structure {b} has no geometry")));
        }
        let mut geometries = Vec::with_capacity(blas.geometries.len());
        for (g, geom) in blas.geometries.iter().enumerate() {
            let mut flags = vk::GeometryFlagsKHR::empty();
            if geom.opaque {
                flags |= vk::GeometryFlagsKHR::OPAQUE;
            }
            if geom.no_duplicate_any_hit {
                flags |= vk::GeometryFlagsKHR::NO_DUPLICATE_ANY_HIT_INVOCATION;
            }
            geometries.push(match &geom.kind {
                GeometryKind::Triangles { vertices, indices, transform } => {
                    let n = indices.as_ref().map_or(vertices.len(), Vec::len);
                    if vertices.is_empty() || n % 3 != 0 {
                        return Err(invalid(format!(
                            "blas {b} geometry {g}: {n} vertices/indices is not a non-empty multiple of 3"
                        )));
                    }
                    if let Some(i) = indices.as_ref().and_then(|ix| ix.iter().find(|&&i| i as usize >= vertices.len()))
                    {
                        return Err(invalid(format!("blas {b} geometry {g}: index {i} past the vertices")));
                    }
                    let flat: Vec<f32> = vertices.iter().flatten().copied().collect();
                    let v = push_aligned(&mut data, &f32_bytes(&flat));
                    let ix = indices.as_ref().map(|ix| {
                        let bytes: Vec<u8> = ix.iter().flat_map(|i| i.to_le_bytes()).collect();
                        push_aligned(&mut data, &bytes)
                    });
                    let t = transform.as_ref().map(|t| push_aligned(&mut data, &f32_bytes(t)));
                    GeomData::Triangles {
                        vertices: v,
                        max_vertex: vertices.len() as u32 - 1,
                        indices: ix,
                        transform: t,
                        primitives: (n / 3) as u32,
                        flags,
                    }
                }
                GeometryKind::Aabbs(boxes) => {
                    if boxes.is_empty() {
                        return Err(invalid(format!("blas {b} geometry {g}: no AABBs")));
                    }
                    let flat: Vec<f32> = boxes.iter().flatten().copied().collect();
                    let at = push_aligned(&mut data, &f32_bytes(&flat));
                    GeomData::Aabbs { data: at, primitives: boxes.len() as u32, flags }
                }
            });
        }
        let (dst, address, scratch_size) = create_structure(
            scratch,
            &format!("blas {b}"),
            vk::AccelerationStructureTypeKHR::BOTTOM_LEVEL,
            &geometries,
        )?;
        scratch_offsets.push(scratch_total);
        scratch_total += scratch_size.div_ceil(align) * align;
        blas_addresses.push(address);
        bottom.push(Build { dst, ty: vk::AccelerationStructureTypeKHR::BOTTOM_LEVEL, geometries, scratch: 0 });
    }
    // Instances: VkAccelerationStructureInstanceKHR, the same 64 bytes as D3D12_RAYTRACING_INSTANCE_DESC.
    let mut instances = Vec::with_capacity(scene.instances.len() * 64);
    for (i, inst) in scene.instances.iter().enumerate() {
        let Some(&blas) = blas_addresses.get(inst.blas as usize) else {
            return Err(invalid(format!(
                "instance {i} names bottom-level structure {} of {}",
                inst.blas,
                scene.blas.len()
            )));
        };
        if inst.custom_index >= 1 << 24 || inst.sbt_offset >= 1 << 24 {
            return Err(invalid(format!("instance {i}: ID and hit-group contribution have 24 bits")));
        }
        instances.extend(f32_bytes(&inst.transform));
        instances.extend((inst.custom_index | u32::from(inst.mask) << 24).to_le_bytes());
        instances.extend((inst.sbt_offset | u32::from(inst.flags) << 24).to_le_bytes());
        instances.extend(blas.to_le_bytes());
    }
    let inst_at = push_aligned(&mut data, &instances);
    let top_geoms = vec![GeomData::Instances { data: inst_at, count: scene.instances.len() as u32 }];
    let (tlas, tlas_address, top_scratch) =
        create_structure(scratch, "tlas", vk::AccelerationStructureTypeKHR::TOP_LEVEL, &top_geoms)?;
    let top_offset = scratch_total;
    scratch_total += top_scratch.div_ceil(align) * align;

    // The input buffer (16-byte aligned chunks from a 16-byte aligned start).
    let usage = vk::BufferUsageFlags::ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_KHR
        | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
    let len = data.len() as u64 + 16;
    let (input, mem) = scratch.buffer("scene input", len.max(64), usage, MemoryLocation::CpuToGpu)?;
    let base = scratch.buffer_address(input);
    let pad = (16 - base % 16) % 16;
    let mapped = scratch.mapped(mem)?;
    mapped.fill(0);
    if let Some(dst) = mapped.get_mut(pad as usize..pad as usize + data.len()) {
        dst.copy_from_slice(&data);
    }
    // Scratch memory for every build.
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
    let (sbuf, _) = scratch.buffer("build scratch", scratch_total + align, usage, MemoryLocation::GpuOnly)?;
    let saddr = scratch.buffer_address(sbuf);
    let saddr = saddr.div_ceil(align) * align;
    for (b, off) in bottom.iter_mut().zip(&scratch_offsets) {
        b.scratch = saddr + off;
        for g in &mut b.geometries {
            g.shift(base + pad);
        }
    }
    let mut top =
        Build { dst: tlas, ty: vk::AccelerationStructureTypeKHR::TOP_LEVEL, geometries: top_geoms, scratch: 0 };
    top.scratch = saddr + top_offset;
    for g in &mut top.geometries {
        g.shift(base + pad);
    }
    Ok(BuiltScene { tlas, tlas_address, bottom, top })
}

/// Records the builds (bottom level, a barrier, top level) and a barrier that makes the top-level
/// structure visible to the shaders of `stages`.
pub(crate) fn record_scene_build(
    scratch: &Scratch<'_>,
    cb: vk::CommandBuffer,
    scene: &BuiltScene,
    stages: vk::PipelineStageFlags,
) -> Result<(), RuntimeError> {
    let Some(ext) = scratch.ctx.accel.as_ref() else {
        return Err(RuntimeError::Unsupported("acceleration structures (VK_KHR_acceleration_structure)".into()));
    };
    let device = scratch.device();
    let build = |builds: &[&Build]| {
        let geoms: Vec<Vec<vk::AccelerationStructureGeometryKHR>> =
            builds.iter().map(|b| b.geometries.iter().map(GeomData::vk).collect()).collect();
        let ranges: Vec<Vec<vk::AccelerationStructureBuildRangeInfoKHR>> = builds
            .iter()
            .map(|b| {
                b.geometries
                    .iter()
                    .map(|g| vk::AccelerationStructureBuildRangeInfoKHR::default().primitive_count(g.primitives()))
                    .collect()
            })
            .collect();
        let infos: Vec<vk::AccelerationStructureBuildGeometryInfoKHR> = builds
            .iter()
            .zip(&geoms)
            .map(|(b, g)| {
                vk::AccelerationStructureBuildGeometryInfoKHR::default()
                    .ty(b.ty)
                    .flags(vk::BuildAccelerationStructureFlagsKHR::PREFER_FAST_TRACE)
                    .mode(vk::BuildAccelerationStructureModeKHR::BUILD)
                    .dst_acceleration_structure(b.dst)
                    .geometries(g)
                    .scratch_data(vk::DeviceOrHostAddressKHR { device_address: b.scratch })
            })
            .collect();
        let range_refs: Vec<&[vk::AccelerationStructureBuildRangeInfoKHR]> = ranges.iter().map(Vec::as_slice).collect();
        // SAFETY: `cb` is recording; every structure, input and scratch address is alive and owned
        // by the job's scratch; scratch regions of one call do not overlap.
        unsafe { ext.cmd_build_acceleration_structures(cb, &infos, &range_refs) };
    };
    let barrier = |dst_stage: vk::PipelineStageFlags, dst_access: vk::AccessFlags| {
        let m = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::ACCELERATION_STRUCTURE_WRITE_KHR)
            .dst_access_mask(dst_access)];
        // SAFETY: `cb` is recording.
        unsafe {
            device.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::ACCELERATION_STRUCTURE_BUILD_KHR,
                dst_stage,
                vk::DependencyFlags::empty(),
                &m,
                &[],
                &[],
            )
        };
    };
    if !scene.bottom.is_empty() {
        build(&scene.bottom.iter().collect::<Vec<_>>());
        barrier(
            vk::PipelineStageFlags::ACCELERATION_STRUCTURE_BUILD_KHR,
            vk::AccessFlags::ACCELERATION_STRUCTURE_READ_KHR | vk::AccessFlags::ACCELERATION_STRUCTURE_WRITE_KHR,
        );
    }
    build(&[&scene.top]);
    barrier(stages, vk::AccessFlags::ACCELERATION_STRUCTURE_READ_KHR);
    Ok(())
}

/// Gives every acceleration-structure resource of a job the scene's top-level structure (a
/// job with such resources needs a scene).
pub(crate) fn attach_scene(
    resources: &[BoundResource],
    prepared: &mut [Prepared],
    scene: Option<&BuiltScene>,
) -> Result<(), RuntimeError> {
    for (r, p) in resources.iter().zip(prepared.iter_mut()) {
        if matches!(r.resource, ResourceDesc::AccelerationStructure | ResourceDesc::AccelerationStructureAddress { .. })
        {
            let Some(s) = scene else {
                return Err(RuntimeError::InvalidResource {
                    set: r.set,
                    binding: r.binding,
                    array_index: r.array_index,
                    reason: "an acceleration structure, but the job has no scene".into(),
                });
            };
            *p = Prepared::Accel { handle: s.tlas, address: s.tlas_address };
        }
    }
    Ok(())
}
