//! `Context::run_ray_tracing`: one `vkCmdTraceRaysKHR` through a pipeline built from the job's
//! shaders and groups, with a shader binding table laid out from its records.

use std::ffi::CString;

use ash::vk;
use gpu_allocator::MemoryLocation;

use super::{attach_scene, build_scene, record_scene_build, AddressOf, RayTracingJob, RtStage, ShaderGroup};
use super::{BuiltScene, ShaderRecord};
use crate::bind::{patch_addresses, prepare, read_results, record_readback, record_upload, Prepared};
use crate::compute::{timeout_s, ComputeResult};
use crate::context::Context;
use crate::descriptors::DescriptorPlan;
use crate::error::VkCall;
use crate::reflect::reflect;
use crate::scratch::Scratch;
use crate::RuntimeError;

/// SPIR-V execution models of the ray-tracing stages.
fn execution_model(s: RtStage) -> u32 {
    match s {
        RtStage::RayGeneration => 5313,
        RtStage::Intersection => 5314,
        RtStage::AnyHit => 5315,
        RtStage::ClosestHit => 5316,
        RtStage::Miss => 5317,
        RtStage::Callable => 5318,
    }
}

fn vk_stage(s: RtStage) -> vk::ShaderStageFlags {
    match s {
        RtStage::RayGeneration => vk::ShaderStageFlags::RAYGEN_KHR,
        RtStage::Intersection => vk::ShaderStageFlags::INTERSECTION_KHR,
        RtStage::AnyHit => vk::ShaderStageFlags::ANY_HIT_KHR,
        RtStage::ClosestHit => vk::ShaderStageFlags::CLOSEST_HIT_KHR,
        RtStage::Miss => vk::ShaderStageFlags::MISS_KHR,
        RtStage::Callable => vk::ShaderStageFlags::CALLABLE_KHR,
    }
}

const ALL_RT_STAGES: vk::ShaderStageFlags = vk::ShaderStageFlags::from_raw(
    vk::ShaderStageFlags::RAYGEN_KHR.as_raw()
        | vk::ShaderStageFlags::INTERSECTION_KHR.as_raw()
        | vk::ShaderStageFlags::ANY_HIT_KHR.as_raw()
        | vk::ShaderStageFlags::CLOSEST_HIT_KHR.as_raw()
        | vk::ShaderStageFlags::MISS_KHR.as_raw()
        | vk::ShaderStageFlags::CALLABLE_KHR.as_raw(),
);

fn invalid(msg: impl Into<String>) -> RuntimeError {
    RuntimeError::InvalidJob(msg.into())
}

fn align_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a.max(1)) * a.max(1)
}

/// Which tables a group may appear in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Table {
    RayGen,
    Miss,
    Hit,
    Callable,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::RayGen => "raygen",
            Table::Miss => "miss",
            Table::Hit => "hit group",
            Table::Callable => "callable",
        }
    }
}

/// Checks the groups against the shaders' stages; returns the table each group belongs to.
fn group_tables(job: &RayTracingJob<'_>) -> Result<Vec<Table>, RuntimeError> {
    let stage = |i: u32, g: usize| {
        job.shaders.get(i as usize).map(|s| s.stage).ok_or_else(|| invalid(format!("group {g}: no shader {i}")))
    };
    let mut out = Vec::with_capacity(job.groups.len());
    for (g, group) in job.groups.iter().enumerate() {
        let want = |i: Option<u32>, s: RtStage| -> Result<(), RuntimeError> {
            match i {
                Some(i) if stage(i, g)? != s => Err(invalid(format!("group {g}: shader {i} is not a {}", s.name()))),
                _ => Ok(()),
            }
        };
        out.push(match *group {
            ShaderGroup::General(i) => match stage(i, g)? {
                RtStage::RayGeneration => Table::RayGen,
                RtStage::Miss => Table::Miss,
                RtStage::Callable => Table::Callable,
                s => return Err(invalid(format!("group {g}: a general group cannot hold a {} shader", s.name()))),
            },
            ShaderGroup::Triangles { closest_hit, any_hit } => {
                want(closest_hit, RtStage::ClosestHit)?;
                want(any_hit, RtStage::AnyHit)?;
                Table::Hit
            }
            ShaderGroup::Procedural { intersection, closest_hit, any_hit } => {
                want(Some(intersection), RtStage::Intersection)?;
                want(closest_hit, RtStage::ClosestHit)?;
                want(any_hit, RtStage::AnyHit)?;
                Table::Hit
            }
        });
    }
    Ok(out)
}

/// The bytes of one record after its handle, with its address patches applied.
fn record_data(
    r: &ShaderRecord,
    prepared: &[Prepared],
    scene: Option<&BuiltScene>,
    what: &str,
) -> Result<Vec<u8>, RuntimeError> {
    let mut data = r.data.clone();
    for &(at, target) in &r.patches {
        let address = match target {
            AddressOf::Resource { index, offset } => match prepared.get(index) {
                Some(Prepared::Buffer { address: Some(a), .. }) => a + offset,
                _ => return Err(invalid(format!("{what}: resource {index} is not a buffer with a device address"))),
            },
            AddressOf::Tlas => match scene {
                Some(s) => s.tlas_address,
                None => return Err(invalid(format!("{what}: a TLAS address, but the job has no scene"))),
            },
        };
        let at = at as usize;
        let dst = data
            .get_mut(at..at + 8)
            .ok_or_else(|| invalid(format!("{what}: address patch at byte {at} lies past the record data")))?;
        dst.copy_from_slice(&address.to_le_bytes());
    }
    Ok(data)
}

impl Context {
    /// Runs `job`: builds its scene, creates the pipeline and the shader binding table, traces
    /// `dispatch` rays, waits and reads every resource back.
    pub fn run_ray_tracing(&self, job: &RayTracingJob<'_>) -> Result<ComputeResult, RuntimeError> {
        let f = self.features().clone();
        let Some(rt) = self.rt_pipeline.as_ref() else {
            return Err(RuntimeError::Unsupported("ray-tracing pipelines (VK_KHR_ray_tracing_pipeline)".into()));
        };
        if job.max_recursion_depth > f.max_ray_recursion_depth {
            return Err(RuntimeError::Unsupported(format!(
                "recursion depth {} (the device allows {})",
                job.max_recursion_depth, f.max_ray_recursion_depth
            )));
        }
        let limits = *self.limits();
        let push_len = job.push_constants.len().div_ceil(4) * 4;
        if push_len > limits.max_push_constants_size as usize {
            return Err(invalid(format!(
                "{push_len} bytes of push constants exceed maxPushConstantsSize {}",
                limits.max_push_constants_size
            )));
        }
        let mut declared = Vec::new();
        let mut entries = Vec::with_capacity(job.shaders.len());
        for s in &job.shaders {
            let r = reflect(s.spirv)?;
            let model = execution_model(s.stage);
            if !r.entry_points.iter().any(|e| e.execution_model == model && e.name == s.entry_point) {
                return Err(RuntimeError::EntryPointNotFound {
                    name: s.entry_point.to_string(),
                    stage: s.stage.name(),
                    found: r.entry_points.iter().map(|e| e.name.clone()).collect(),
                });
            }
            for b in r.bindings {
                if !declared.contains(&b) {
                    declared.push(b);
                }
            }
            entries.push(CString::new(s.entry_point).map_err(|_| invalid("entry point name contains NUL"))?);
        }
        let tables = group_tables(job)?;
        let check = |r: &ShaderRecord, t: Table, what: String| -> Result<(), RuntimeError> {
            match tables.get(r.group as usize) {
                Some(&g) if g == t => Ok(()),
                Some(g) => Err(invalid(format!("{what}: group {} is a {} group", r.group, g.name()))),
                None => Err(invalid(format!("{what}: no group {}", r.group))),
            }
        };
        check(&job.raygen, Table::RayGen, "raygen record".into())?;
        for (i, r) in job.miss.iter().enumerate() {
            check(r, Table::Miss, format!("miss record {i}"))?;
        }
        for (i, r) in job.hit.iter().enumerate() {
            check(r, Table::Hit, format!("hit record {i}"))?;
        }
        for (i, r) in job.callable.iter().enumerate() {
            check(r, Table::Callable, format!("callable record {i}"))?;
        }
        let plan = DescriptorPlan::build(&job.resources, &declared, &f)?;

        let mut exclusive = self.lock();
        let mut scratch = Scratch::new(self, &mut exclusive)?;
        let mut prepared: Vec<Prepared> =
            job.resources.iter().map(|r| prepare(&mut scratch, r, plan.image_type(r))).collect::<Result<_, _>>()?;
        let scene = match &job.scene {
            Some(s) => Some(build_scene(&mut scratch, s)?),
            None => None,
        };
        attach_scene(&job.resources, &mut prepared, scene.as_ref())?;
        let layouts = plan.create_layouts(&mut scratch, ALL_RT_STAGES)?;
        let sets = plan.allocate_and_write(&mut scratch, &layouts, &prepared)?;
        let ranges = [vk::PushConstantRange { stage_flags: ALL_RT_STAGES, offset: 0, size: push_len as u32 }];
        let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts);
        if push_len > 0 {
            layout_info = layout_info.push_constant_ranges(&ranges);
        }
        let pipeline_layout = scratch.pipeline_layout(&layout_info)?;

        let mut stages = Vec::with_capacity(job.shaders.len());
        for (s, name) in job.shaders.iter().zip(&entries) {
            let module = scratch.shader_module(s.spirv)?;
            stages
                .push(vk::PipelineShaderStageCreateInfo::default().stage(vk_stage(s.stage)).module(module).name(name));
        }
        let unused = vk::SHADER_UNUSED_KHR;
        let groups: Vec<vk::RayTracingShaderGroupCreateInfoKHR> = job
            .groups
            .iter()
            .map(|g| {
                let base = vk::RayTracingShaderGroupCreateInfoKHR::default()
                    .general_shader(unused)
                    .closest_hit_shader(unused)
                    .any_hit_shader(unused)
                    .intersection_shader(unused);
                match *g {
                    ShaderGroup::General(i) => base.ty(vk::RayTracingShaderGroupTypeKHR::GENERAL).general_shader(i),
                    ShaderGroup::Triangles { closest_hit, any_hit } => base
                        .ty(vk::RayTracingShaderGroupTypeKHR::TRIANGLES_HIT_GROUP)
                        .closest_hit_shader(closest_hit.unwrap_or(unused))
                        .any_hit_shader(any_hit.unwrap_or(unused)),
                    ShaderGroup::Procedural { intersection, closest_hit, any_hit } => base
                        .ty(vk::RayTracingShaderGroupTypeKHR::PROCEDURAL_HIT_GROUP)
                        .intersection_shader(intersection)
                        .closest_hit_shader(closest_hit.unwrap_or(unused))
                        .any_hit_shader(any_hit.unwrap_or(unused)),
                }
            })
            .collect();
        let info = vk::RayTracingPipelineCreateInfoKHR::default()
            .stages(&stages)
            .groups(&groups)
            .max_pipeline_ray_recursion_depth(job.max_recursion_depth)
            .layout(pipeline_layout);
        let pipeline = scratch.ray_tracing_pipeline(&info)?;

        // The shader binding table: per table, records of one stride (handle + the largest data,
        // aligned), each table starting at the base alignment.
        let handle_size = u64::from(f.shader_group_handle_size);
        // SAFETY: `pipeline` is a ray-tracing pipeline with exactly `groups.len()` groups.
        let handles = unsafe {
            rt.get_ray_tracing_shader_group_handles(
                pipeline,
                0,
                groups.len() as u32,
                groups.len() * handle_size as usize,
            )
        }
        .call("vkGetRayTracingShaderGroupHandlesKHR")?;
        let base_align = u64::from(f.shader_group_base_alignment.max(1));
        let handle_align = u64::from(f.shader_group_handle_alignment.max(1));
        let lists: [(&[ShaderRecord], &str); 4] = [
            (std::slice::from_ref(&job.raygen), "raygen"),
            (&job.miss, "miss"),
            (&job.hit, "hit"),
            (&job.callable, "callable"),
        ];
        let mut sbt: Vec<u8> = Vec::new();
        // (offset, stride, size) per table.
        let mut regions = [(0u64, 0u64, 0u64); 4];
        for (t, (records, what)) in lists.iter().enumerate() {
            if records.is_empty() {
                continue;
            }
            let longest = records.iter().map(|r| r.data.len() as u64).max().unwrap_or(0);
            let stride = align_up(handle_size + longest, handle_align);
            if stride > u64::from(f.max_shader_group_stride) {
                return Err(RuntimeError::Unsupported(format!(
                    "{what} records of {stride} bytes (maxShaderGroupStride {})",
                    f.max_shader_group_stride
                )));
            }
            let start = align_up(sbt.len() as u64, base_align);
            sbt.resize(start as usize, 0);
            for (i, r) in records.iter().enumerate() {
                let at = sbt.len();
                let h = r.group as usize * handle_size as usize;
                let handle = handles
                    .get(h..h + handle_size as usize)
                    .ok_or_else(|| invalid(format!("{what} record {i}: no handle for group {}", r.group)))?;
                sbt.extend_from_slice(handle);
                sbt.extend(record_data(r, &prepared, scene.as_ref(), &format!("{what} record {i}"))?);
                sbt.resize(at + stride as usize, 0);
            }
            regions[t] = (start, stride, stride * records.len() as u64);
        }
        let usage = vk::BufferUsageFlags::SHADER_BINDING_TABLE_KHR | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        let len = sbt.len() as u64 + base_align;
        let (sbt_buffer, sbt_mem) = scratch.buffer("shader binding table", len, usage, MemoryLocation::CpuToGpu)?;
        let sbt_base = scratch.buffer_address(sbt_buffer);
        let pad = align_up(sbt_base, base_align) - sbt_base;
        let mapped = scratch.mapped(sbt_mem)?;
        mapped.fill(0);
        if let Some(dst) = mapped.get_mut(pad as usize..pad as usize + sbt.len()) {
            dst.copy_from_slice(&sbt);
        }
        let region = |t: usize| {
            let (offset, stride, size) = regions[t];
            if size == 0 {
                return vk::StridedDeviceAddressRegionKHR::default();
            }
            vk::StridedDeviceAddressRegionKHR { device_address: sbt_base + pad + offset, stride, size }
        };
        let (raygen, miss, hit, callable) = (region(0), region(1), region(2), region(3));

        let device = scratch.device();
        let cb = scratch.begin_commands()?;
        let rt_stage = vk::PipelineStageFlags::RAY_TRACING_SHADER_KHR;
        if let Some(scene) = &scene {
            record_scene_build(&scratch, cb, scene, rt_stage)?;
        }
        record_upload(device, cb, &prepared, rt_stage);
        let mut push = job.push_constants.clone();
        push.resize(push_len, 0);
        patch_addresses(&job.resources, &prepared, &mut push)?;
        // SAFETY: `cb` is recording; pipeline, layout, sets and the binding table are alive and
        // compatible; the regions lie inside the table buffer.
        unsafe {
            device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::RAY_TRACING_KHR, pipeline);
            if !sets.is_empty() {
                device.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::RAY_TRACING_KHR,
                    pipeline_layout,
                    0,
                    &sets,
                    &[],
                );
            }
            if push_len > 0 {
                device.cmd_push_constants(cb, pipeline_layout, ALL_RT_STAGES, 0, &push);
            }
            rt.cmd_trace_rays(cb, &raygen, &miss, &hit, &callable, job.dispatch[0], job.dispatch[1], job.dispatch[2]);
        }
        record_readback(device, cb, &prepared, rt_stage);
        scratch.submit_and_wait(cb, timeout_s())?;
        let resources = read_results(&mut scratch, &job.resources, &prepared)?;
        Ok(ComputeResult { resources })
    }
}
