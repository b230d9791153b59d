//! Compute jobs: one dispatch of one SPIR-V compute shader with its resources, read back afterwards.

use std::ffi::CString;

use ash::vk;

use crate::bind::{patch_addresses, prepare, read_results, record_readback, record_upload, Prepared};
use crate::context::Context;
use crate::descriptors::DescriptorPlan;
use crate::raytracing::{attach_scene, build_scene, record_scene_build};
use crate::reflect::{reflect, EXECUTION_MODEL_GLCOMPUTE};
use crate::resources::BoundResource;
use crate::scratch::Scratch;
use crate::RuntimeError;

/// One compute dispatch.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputeJob<'a> {
    pub spirv: &'a [u32],
    pub entry_point: &'a str,
    pub resources: Vec<BoundResource>,
    /// Push-constant bytes (range `0..len` for the COMPUTE stage; padded to a multiple of 4).
    pub push_constants: Vec<u8>,
    /// Workgroup counts.
    pub dispatch: [u32; 3],
    /// Required subgroup size (VK_EXT_subgroup_size_control / Vulkan 1.3).
    pub required_subgroup_size: Option<u32>,
    /// Acceleration structures for ray queries (see [`crate::ResourceDesc::AccelerationStructure`]).
    pub scene: Option<crate::Scene>,
}

/// What a job left in its resources.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ComputeResult {
    /// `(set, binding, array index, bytes)` of every buffer, texel buffer and image, in the job's resource
    /// order (samplers omitted), packed like the input. Multisampled images come back empty.
    pub resources: Vec<(u32, u32, u32, Vec<u8>)>,
}

impl ComputeResult {
    /// The contents of the resource at `(set, binding, array_index)`.
    pub fn get(&self, set: u32, binding: u32, array_index: u32) -> Option<&[u8]> {
        self.resources
            .iter()
            .find(|(s, b, i, _)| (*s, *b, *i) == (set, binding, array_index))
            .map(|(_, _, _, d)| d.as_slice())
    }
}

/// Seconds to wait for a job's fence; env `DXJIT_GPU_TIMEOUT` overrides.
pub(crate) fn timeout_s() -> u64 {
    std::env::var("DXJIT_GPU_TIMEOUT").ok().and_then(|s| s.parse().ok()).unwrap_or(120)
}

impl Context {
    /// Runs `job`: creates its resources, uploads them, dispatches, waits and reads everything back.
    pub fn run_compute(&self, job: &ComputeJob<'_>) -> Result<ComputeResult, RuntimeError> {
        let reflection = reflect(job.spirv)?;
        if !reflection
            .entry_points
            .iter()
            .any(|e| e.execution_model == EXECUTION_MODEL_GLCOMPUTE && e.name == job.entry_point)
        {
            return Err(RuntimeError::EntryPointNotFound {
                name: job.entry_point.to_string(),
                stage: "compute",
                found: reflection.entry_points.iter().map(|e| e.name.clone()).collect(),
            });
        }
        let entry = CString::new(job.entry_point)
            .map_err(|_| RuntimeError::InvalidJob("entry point name contains NUL".into()))?;
        let limits = *self.limits();
        for (axis, (&n, &max)) in job.dispatch.iter().zip(&limits.max_compute_work_group_count).enumerate() {
            if n > max {
                return Err(RuntimeError::InvalidJob(format!(
                    "dispatch[{axis}] = {n} exceeds maxComputeWorkGroupCount {max}"
                )));
            }
        }
        let push_len = job.push_constants.len().div_ceil(4) * 4;
        if push_len > limits.max_push_constants_size as usize {
            return Err(RuntimeError::InvalidJob(format!(
                "{push_len} bytes of push constants exceed maxPushConstantsSize {}",
                limits.max_push_constants_size
            )));
        }
        let plan = DescriptorPlan::build(&job.resources, &reflection.bindings, self.features())?;

        let mut exclusive = self.lock();
        let mut scratch = Scratch::new(self, &mut exclusive)?;
        let mut prepared: Vec<Prepared> =
            job.resources.iter().map(|r| prepare(&mut scratch, r, plan.image_type(r))).collect::<Result<_, _>>()?;
        let scene = match &job.scene {
            Some(s) => Some(build_scene(&mut scratch, s)?),
            None => None,
        };
        attach_scene(&job.resources, &mut prepared, scene.as_ref())?;
        let layouts = plan.create_layouts(&mut scratch, vk::ShaderStageFlags::COMPUTE)?;
        let sets = plan.allocate_and_write(&mut scratch, &layouts, &prepared)?;
        let ranges =
            [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: push_len as u32 }];
        let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts);
        if push_len > 0 {
            layout_info = layout_info.push_constant_ranges(&ranges);
        }
        let pipeline_layout = scratch.pipeline_layout(&layout_info)?;
        let module = scratch.shader_module(job.spirv)?;

        let mut subgroup = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default();
        let mut stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&entry);
        if let Some(size) = job.required_subgroup_size {
            let f = self.features();
            let controllable = f.subgroup_size_control
                && f.required_subgroup_size_stages.contains(vk::ShaderStageFlags::COMPUTE)
                && size.is_power_of_two()
                && (f.min_subgroup_size..=f.max_subgroup_size).contains(&size);
            if controllable {
                subgroup = subgroup.required_subgroup_size(size);
                stage = stage.push_next(&mut subgroup);
            } else if size != f.subgroup_size || f.min_subgroup_size != f.max_subgroup_size {
                return Err(RuntimeError::Unsupported(format!(
                    "required subgroup size {size} (device: {}..={}, size control {})",
                    f.min_subgroup_size, f.max_subgroup_size, f.subgroup_size_control
                )));
            }
        }
        let pipeline_info = vk::ComputePipelineCreateInfo::default().stage(stage).layout(pipeline_layout);
        let pipeline = scratch.compute_pipeline(&pipeline_info)?;

        let device = scratch.device();
        let cb = scratch.begin_commands()?;
        if let Some(scene) = &scene {
            record_scene_build(&scratch, cb, scene, vk::PipelineStageFlags::COMPUTE_SHADER)?;
        }
        record_upload(device, cb, &prepared, vk::PipelineStageFlags::COMPUTE_SHADER);
        let mut push = job.push_constants.clone();
        push.resize(push_len, 0);
        patch_addresses(&job.resources, &prepared, &mut push)?;
        // SAFETY: `cb` is recording; pipeline, layout and sets are alive and compatible.
        unsafe {
            device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
            if !sets.is_empty() {
                device.cmd_bind_descriptor_sets(cb, vk::PipelineBindPoint::COMPUTE, pipeline_layout, 0, &sets, &[]);
            }
            if push_len > 0 {
                device.cmd_push_constants(cb, pipeline_layout, vk::ShaderStageFlags::COMPUTE, 0, &push);
            }
            device.cmd_dispatch(cb, job.dispatch[0], job.dispatch[1], job.dispatch[2]);
        }
        record_readback(device, cb, &prepared, vk::PipelineStageFlags::COMPUTE_SHADER);
        scratch.submit_and_wait(cb, timeout_s())?;
        let resources = read_results(&mut scratch, &job.resources, &prepared)?;
        Ok(ComputeResult { resources })
    }
}
