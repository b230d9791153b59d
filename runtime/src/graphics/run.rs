//! `Context::run_graphics`: checks a job, creates its objects, and runs it as three submissions —
//! uploads and clears, the draw alone (timed: on lavapipe it contains the real shader compile), and the
//! read-back — each waited on before the next.

use std::ffi::{c_void, CString};
use std::time::Instant;

use ash::vk;
use gpu_allocator::MemoryLocation;

use super::state::{check_state, create_pipeline, flipped_viewport, invalid, statistics_flags, stats_from};
use super::state::{unsupported, StageModule, TargetFormats};
use super::targets::{color_target, common_extent, depth_target, read_target, record_clears, record_readback, Target};
use super::{GraphicsJob, GraphicsResult, GraphicsTiming, IndexBuffer, Stage, Viewport};
use crate::bind::{format_properties, prepare, read_results, record_readback as record_resource_readback};
use crate::bind::{patch_addresses, record_upload, Prepared};
use crate::compute::timeout_s;
use crate::context::Context;
use crate::descriptors::DescriptorPlan;
use crate::error::VkCall;
use crate::raytracing::{attach_scene, build_scene, record_scene_build};
use crate::reflect::{reflect, ReflectedBinding};
use crate::scratch::{AllocId, Scratch};
use crate::RuntimeError;

/// A host-visible buffer created for the job.
struct HostBuffer {
    buffer: vk::Buffer,
    mem: AllocId,
    len: usize,
}

fn host_buffer(
    scratch: &mut Scratch<'_>,
    name: &str,
    bytes: &[u8],
    len: usize,
    usage: vk::BufferUsageFlags,
    location: MemoryLocation,
) -> Result<HostBuffer, RuntimeError> {
    let size = (len.max(4).div_ceil(4) * 4) as u64;
    let (buffer, mem) = scratch.buffer(name, size, usage, location)?;
    let mapped = scratch.mapped(mem)?;
    mapped.fill(0);
    if let Some(dst) = mapped.get_mut(..bytes.len()) {
        dst.copy_from_slice(bytes);
    }
    Ok(HostBuffer { buffer, mem, len })
}

/// Checks the stages and reflects them: returns the union of their descriptor bindings.
fn check_stages(ctx: &Context, job: &GraphicsJob<'_>) -> Result<Vec<ReflectedBinding>, RuntimeError> {
    let f = ctx.features();
    let mut seen = Vec::new();
    let mut bindings = Vec::new();
    for s in &job.stages {
        if seen.contains(&s.stage) {
            return Err(invalid(format!("two {} stages", s.stage.name())));
        }
        seen.push(s.stage);
        match s.stage {
            Stage::TessControl | Stage::TessEval if !f.tessellation_shader => {
                return Err(unsupported("tessellation shaders (tessellationShader)"))
            }
            Stage::Geometry if !f.geometry_shader => return Err(unsupported("geometry shaders (geometryShader)")),
            Stage::Mesh if !f.mesh_shader => return Err(unsupported("mesh shaders (VK_EXT_mesh_shader meshShader)")),
            Stage::Task if !f.task_shader => return Err(unsupported("task shaders (VK_EXT_mesh_shader taskShader)")),
            _ => {}
        }
        let r = reflect(s.spirv)?;
        let model = s.stage.execution_model();
        if !r.entry_points.iter().any(|e| e.execution_model == model && e.name == s.entry_point) {
            return Err(RuntimeError::EntryPointNotFound {
                name: s.entry_point.to_string(),
                stage: s.stage.name(),
                found: r.entry_points.iter().map(|e| e.name.clone()).collect(),
            });
        }
        bindings.extend(r.bindings);
    }
    let mesh = seen.contains(&Stage::Mesh);
    if mesh == seen.contains(&Stage::Vertex) {
        return Err(invalid("a graphics job needs a vertex stage or a mesh stage (not both)"));
    }
    if seen.contains(&Stage::Task) && !mesh {
        return Err(invalid("a task stage needs a mesh stage"));
    }
    if mesh && seen.iter().any(|s| matches!(s, Stage::TessControl | Stage::TessEval | Stage::Geometry)) {
        return Err(invalid("a mesh pipeline has no tessellation or geometry stages"));
    }
    if seen.contains(&Stage::TessControl) != seen.contains(&Stage::TessEval) {
        return Err(invalid("tessellation needs both a tessellation control and an evaluation stage"));
    }
    Ok(bindings)
}

fn check_vertex_input(ctx: &Context, scratch: &Scratch<'_>, job: &GraphicsJob<'_>) -> Result<(), RuntimeError> {
    let limits = ctx.limits();
    let mut bindings = Vec::new();
    for b in &job.vertex_buffers {
        if bindings.contains(&b.binding) {
            return Err(invalid(format!("vertex buffer binding {} given twice", b.binding)));
        }
        if b.binding >= limits.max_vertex_input_bindings || b.stride > limits.max_vertex_input_binding_stride {
            return Err(invalid(format!(
                "vertex buffer binding {} / stride {} exceed the limits",
                b.binding, b.stride
            )));
        }
        bindings.push(b.binding);
    }
    let mut locations = Vec::new();
    for a in &job.vertex_attributes {
        if locations.contains(&a.location) {
            return Err(invalid(format!("vertex attribute location {} given twice", a.location)));
        }
        locations.push(a.location);
        if !bindings.contains(&a.binding) {
            return Err(invalid(format!(
                "vertex attribute {} reads binding {}, which has no buffer",
                a.location, a.binding
            )));
        }
        if a.location >= limits.max_vertex_input_attributes || a.offset > limits.max_vertex_input_attribute_offset {
            return Err(invalid(format!("vertex attribute {} exceeds the limits", a.location)));
        }
        let features = format_properties(scratch, a.format).buffer_features;
        if !features.contains(vk::FormatFeatureFlags::VERTEX_BUFFER) {
            return Err(RuntimeError::FormatUnsupported { format: a.format, usage: "vertex attributes" });
        }
    }
    Ok(())
}

impl Context {
    /// Runs one draw of `job` (see [`GraphicsJob`]) and reads back every target, resource and transform
    /// feedback buffer. Needs dynamic rendering (Vulkan 1.3).
    pub fn run_graphics(&self, job: &GraphicsJob<'_>) -> Result<GraphicsResult, RuntimeError> {
        let f = self.features().clone();
        let limits = *self.limits();
        if !f.dynamic_rendering {
            return Err(unsupported("dynamic rendering (Vulkan 1.3); the render-pass fallback is not implemented"));
        }
        let declared = check_stages(self, job)?;
        check_state(job, &f, &limits)?;
        let extent = common_extent(&job.color_targets, job.depth_stencil.as_ref())?;
        let samples = match extent {
            Some(e) => {
                if job.multisample.samples != 0 && job.multisample.samples != e.samples {
                    return Err(invalid(format!(
                        "multisample.samples {} differs from the targets' {}",
                        job.multisample.samples, e.samples
                    )));
                }
                e.samples
            }
            None => job.multisample.samples.max(1),
        };
        if !samples.is_power_of_two() || samples > 64 {
            return Err(invalid(format!("sample count {samples}")));
        }
        let discards = matches!(&job.transform_feedback, Some(x) if x.rasterization_stream.is_none());
        let viewport = match (job.viewport, extent) {
            (Some(v), _) => v,
            (None, Some(e)) => Viewport {
                x: 0.0,
                y: 0.0,
                width: e.width as f32,
                height: e.height as f32,
                min_depth: 0.0,
                max_depth: 1.0,
            },
            // Nothing is rasterized: any viewport will do.
            (None, None) if discards => {
                Viewport { x: 0.0, y: 0.0, width: 1.0, height: 1.0, min_depth: 0.0, max_depth: 1.0 }
            }
            (None, None) => return Err(invalid("a job without render targets needs a viewport")),
        };
        if viewport.width.is_nan() || viewport.height.is_nan() || viewport.width <= 0.0 || viewport.height <= 0.0 {
            return Err(invalid(format!("viewport {viewport:?} is empty")));
        }
        let area = match extent {
            Some(e) => vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent: vk::Extent2D { width: e.width, height: e.height },
            },
            None => vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent: vk::Extent2D {
                    width: (viewport.x + viewport.width).ceil().max(1.0) as u32,
                    height: (viewport.y + viewport.height).ceil().max(1.0) as u32,
                },
            },
        };
        let scissor = match job.scissor {
            Some(r) => vk::Rect2D {
                offset: vk::Offset2D { x: r.x.max(0), y: r.y.max(0) },
                extent: vk::Extent2D { width: r.width, height: r.height },
            },
            None => area,
        };
        let push_len = job.push_constants.len().div_ceil(4) * 4;
        if push_len > limits.max_push_constants_size as usize {
            return Err(invalid(format!(
                "{push_len} bytes of push constants exceed maxPushConstantsSize {}",
                limits.max_push_constants_size
            )));
        }
        let entries: Vec<CString> = job
            .stages
            .iter()
            .map(|s| CString::new(s.entry_point))
            .collect::<Result<_, _>>()
            .map_err(|_| invalid("entry point name contains NUL"))?;
        let shader_flags = job.stages.iter().fold(vk::ShaderStageFlags::empty(), |a, s| a | s.stage.vk());
        let shader_pipeline_stages =
            job.stages.iter().fold(vk::PipelineStageFlags::empty(), |a, s| a | s.stage.pipeline_stage());
        let plan = DescriptorPlan::build(&job.resources, &declared, &f)?;

        let mut exclusive = self.lock();
        let mut scratch = Scratch::new(self, &mut exclusive)?;
        check_vertex_input(self, &scratch, job)?;
        let mut prepared: Vec<Prepared> =
            job.resources.iter().map(|r| prepare(&mut scratch, r, plan.image_type(r))).collect::<Result<_, _>>()?;
        let scene = match &job.scene {
            Some(s) => Some(build_scene(&mut scratch, s)?),
            None => None,
        };
        attach_scene(&job.resources, &mut prepared, scene.as_ref())?;
        let layouts = plan.create_layouts(&mut scratch, shader_flags)?;
        let sets = plan.allocate_and_write(&mut scratch, &layouts, &prepared)?;
        let ranges = [vk::PushConstantRange { stage_flags: shader_flags, offset: 0, size: push_len as u32 }];
        let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts);
        if push_len > 0 {
            layout_info = layout_info.push_constant_ranges(&ranges);
        }
        let pipeline_layout = scratch.pipeline_layout(&layout_info)?;

        // Render targets.
        let mut colors = Vec::new();
        let mut depth: Option<Target> = None;
        if let Some(e) = extent {
            for (i, t) in job.color_targets.iter().enumerate() {
                colors.push(color_target(&mut scratch, i, t, e)?);
            }
            if let Some(d) = &job.depth_stencil {
                depth = Some(depth_target(&mut scratch, d, e)?);
            }
        }
        let depth_format = depth.as_ref().map(|d| d.format);
        let formats = TargetFormats {
            color: job.color_targets.iter().map(|t| t.format.vk()).collect(),
            depth: depth_format.map_or(vk::Format::UNDEFINED, |d| d.vk()),
            stencil: depth_format.filter(|d| d.has_stencil()).map_or(vk::Format::UNDEFINED, |d| d.vk()),
            samples: vk::SampleCountFlags::from_raw(samples),
        };

        // Vertex, index and transform feedback buffers (host-visible: written before submission).
        let mut vertex_buffers = Vec::new();
        for b in &job.vertex_buffers {
            let name = format!("vertex buffer {}", b.binding);
            let usage = vk::BufferUsageFlags::VERTEX_BUFFER;
            let hb = host_buffer(&mut scratch, &name, &b.data, b.data.len(), usage, MemoryLocation::CpuToGpu)?;
            vertex_buffers.push((b.binding, hb.buffer));
        }
        let index = match &job.index_buffer {
            Some(ib) => {
                let (bytes, ty): (Vec<u8>, _) = match ib {
                    IndexBuffer::U16(v) => (v.iter().flat_map(|x| x.to_le_bytes()).collect(), vk::IndexType::UINT16),
                    IndexBuffer::U32(v) => (v.iter().flat_map(|x| x.to_le_bytes()).collect(), vk::IndexType::UINT32),
                };
                let usage = vk::BufferUsageFlags::INDEX_BUFFER;
                let hb =
                    host_buffer(&mut scratch, "index buffer", &bytes, bytes.len(), usage, MemoryLocation::CpuToGpu)?;
                Some((hb.buffer, ty))
            }
            None => None,
        };
        let mut xfb_buffers = Vec::new();
        let mut xfb_counters = Vec::new();
        if let Some(x) = &job.transform_feedback {
            for (i, b) in x.buffers.iter().enumerate() {
                let usage = vk::BufferUsageFlags::TRANSFORM_FEEDBACK_BUFFER_EXT;
                let name = format!("transform feedback buffer {i}");
                let len = b.size as usize;
                xfb_buffers.push(host_buffer(&mut scratch, &name, &[], len, usage, MemoryLocation::GpuToCpu)?);
                let usage = vk::BufferUsageFlags::TRANSFORM_FEEDBACK_COUNTER_BUFFER_EXT;
                let name = format!("transform feedback counter {i}");
                xfb_counters.push(host_buffer(&mut scratch, &name, &[], 4, usage, MemoryLocation::GpuToCpu)?);
            }
        }
        let mesh_fns = job.mesh_tasks.map(|_| ash::ext::mesh_shader::Device::new(self.instance(), self.device()));
        let xfb_fns = job
            .transform_feedback
            .as_ref()
            .map(|_| ash::ext::transform_feedback::Device::new(self.instance(), self.device()));

        // Queries.
        let stats_flags = statistics_flags(&f);
        let stats_pool = if job.statistics && f.core.pipeline_statistics_query != vk::FALSE {
            let info = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::PIPELINE_STATISTICS)
                .query_count(1)
                .pipeline_statistics(stats_flags);
            Some(scratch.query_pool(&info)?)
        } else {
            None
        };
        let xfb_pool = if job.transform_feedback.is_some() && f.transform_feedback_queries {
            let info = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::TRANSFORM_FEEDBACK_STREAM_EXT)
                .query_count(1);
            Some(scratch.query_pool(&info)?)
        } else {
            None
        };

        // The pipeline (timed).
        let started = Instant::now();
        let mut modules = Vec::new();
        for (s, entry) in job.stages.iter().zip(entries) {
            let module = scratch.shader_module(s.spirv)?;
            modules.push(StageModule { stage: s.stage, module, entry });
        }
        let pipeline = create_pipeline(
            &mut scratch,
            job,
            &modules,
            pipeline_layout,
            &formats,
            flipped_viewport(&viewport),
            scissor,
        )?;
        let pipeline_create = started.elapsed();

        let device = scratch.device();
        let all_targets: Vec<&Target> = colors.iter().chain(depth.as_ref()).collect();

        // 1. Uploads and clears.
        let cb = scratch.begin_commands()?;
        if let Some(scene) = &scene {
            record_scene_build(&scratch, cb, scene, shader_pipeline_stages)?;
        }
        record_upload(device, cb, &prepared, shader_pipeline_stages);
        record_clears(device, cb, &all_targets);
        scratch.submit_and_wait(cb, timeout_s())?;

        // 2. The draw.
        let cb = scratch.begin_commands()?;
        let color_attachments: Vec<vk::RenderingAttachmentInfo> = colors.iter().map(Target::attachment).collect();
        let depth_attachment = depth.as_ref().map(Target::attachment);
        let layer_count = match extent {
            Some(e) if job.layered_render => e.layers,
            _ => 1,
        };
        let mut rendering = vk::RenderingInfo::default()
            .render_area(area)
            .layer_count(layer_count)
            .color_attachments(&color_attachments);
        if let (Some(a), Some(fmt)) = (&depth_attachment, depth_format) {
            rendering = rendering.depth_attachment(a);
            if fmt.has_stencil() {
                rendering = rendering.stencil_attachment(a);
            }
        }
        let mut push = job.push_constants.clone();
        push.resize(push_len, 0);
        patch_addresses(&job.resources, &prepared, &mut push)?;
        let d = job.draw;
        // SAFETY (all commands below): `cb` is recording; every handle is alive and owned by the scratch;
        // the pipeline was created for exactly these attachment formats, layout and vertex input.
        unsafe {
            for pool in stats_pool.iter().chain(&xfb_pool) {
                device.cmd_reset_query_pool(cb, *pool, 0, 1);
            }
            device.cmd_begin_rendering(cb, &rendering);
            device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
            if !sets.is_empty() {
                device.cmd_bind_descriptor_sets(cb, vk::PipelineBindPoint::GRAPHICS, pipeline_layout, 0, &sets, &[]);
            }
            if push_len > 0 {
                device.cmd_push_constants(cb, pipeline_layout, shader_flags, 0, &push);
            }
            for (binding, buffer) in &vertex_buffers {
                device.cmd_bind_vertex_buffers(cb, *binding, &[*buffer], &[0]);
            }
            if let Some((buffer, ty)) = index {
                device.cmd_bind_index_buffer(cb, buffer, 0, ty);
            }
            if let Some(pool) = stats_pool {
                device.cmd_begin_query(cb, pool, 0, vk::QueryControlFlags::empty());
            }
            if let Some(pool) = xfb_pool {
                device.cmd_begin_query(cb, pool, 0, vk::QueryControlFlags::empty());
            }
            if let Some(x) = &xfb_fns {
                let buffers: Vec<vk::Buffer> = xfb_buffers.iter().map(|b| b.buffer).collect();
                let offsets = vec![0u64; buffers.len()];
                let sizes: Vec<u64> = xfb_buffers.iter().map(|b| b.len as u64).collect();
                (x.fp().cmd_bind_transform_feedback_buffers_ext)(
                    cb,
                    0,
                    buffers.len() as u32,
                    buffers.as_ptr(),
                    offsets.as_ptr(),
                    sizes.as_ptr(),
                );
                (x.fp().cmd_begin_transform_feedback_ext)(cb, 0, 0, std::ptr::null(), std::ptr::null());
            }
            if let (Some(m), Some([x, y, z])) = (&mesh_fns, job.mesh_tasks) {
                m.cmd_draw_mesh_tasks(cb, x, y, z);
            } else if index.is_some() {
                device.cmd_draw_indexed(cb, d.count, d.instance_count, d.first, d.vertex_offset, d.first_instance);
            } else {
                device.cmd_draw(cb, d.count, d.instance_count, d.first, d.first_instance);
            }
            if let Some(x) = &xfb_fns {
                let counters: Vec<vk::Buffer> = xfb_counters.iter().map(|b| b.buffer).collect();
                let offsets = vec![0u64; counters.len()];
                (x.fp().cmd_end_transform_feedback_ext)(
                    cb,
                    0,
                    counters.len() as u32,
                    counters.as_ptr(),
                    offsets.as_ptr(),
                );
            }
            if let Some(pool) = xfb_pool {
                device.cmd_end_query(cb, pool, 0);
            }
            if let Some(pool) = stats_pool {
                device.cmd_end_query(cb, pool, 0);
            }
            device.cmd_end_rendering(cb);
        }
        let started = Instant::now();
        scratch.submit_and_wait(cb, timeout_s())?;
        let first_draw = started.elapsed();

        // 3. Read-back.
        let cb = scratch.begin_commands()?;
        record_readback(device, cb, &all_targets);
        record_resource_readback(device, cb, &prepared, shader_pipeline_stages);
        if !xfb_buffers.is_empty() {
            let memory = [vk::MemoryBarrier::default()
                .src_access_mask(
                    vk::AccessFlags::TRANSFORM_FEEDBACK_WRITE_EXT
                        | vk::AccessFlags::TRANSFORM_FEEDBACK_COUNTER_WRITE_EXT,
                )
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            // SAFETY: `cb` is recording.
            unsafe {
                device.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::TRANSFORM_FEEDBACK_EXT,
                    vk::PipelineStageFlags::HOST,
                    vk::DependencyFlags::empty(),
                    &memory,
                    &[],
                    &[],
                );
            }
        }
        scratch.submit_and_wait(cb, timeout_s())?;

        let mut result =
            GraphicsResult { timing: GraphicsTiming { pipeline_create, first_draw }, ..Default::default() };
        for t in &colors {
            result.color.push(read_target(&mut scratch, t)?.into_iter().next().unwrap_or_default());
        }
        if let Some(t) = &depth {
            let mut aspects = read_target(&mut scratch, t)?.into_iter();
            result.depth = aspects.next();
            result.stencil = aspects.next();
        }
        result.resources = read_results(&mut scratch, &job.resources, &prepared)?;
        for b in &xfb_buffers {
            result.xfb.push(scratch.mapped(b.mem)?.get(..b.len).map(<[u8]>::to_vec).unwrap_or_default());
        }
        for c in &xfb_counters {
            let m = scratch.mapped(c.mem)?;
            result.xfb_counters.push(m.get(..4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])));
        }
        if let Some(pool) = xfb_pool {
            let mut data = [[0u64; 2]];
            // SAFETY: the query was ended and its command buffer completed.
            unsafe {
                device.get_query_pool_results(
                    pool,
                    0,
                    &mut data,
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                )
            }
            .call("vkGetQueryPoolResults")?;
            result.xfb_primitives = Some((data[0][0], data[0][1]));
        }
        if let Some(pool) = stats_pool {
            let n = stats_flags.as_raw().count_ones() as usize;
            let mut values = vec![0u64; n];
            let bytes = n * std::mem::size_of::<u64>();
            // SAFETY: `values` holds exactly one query's `n` 64-bit counters; the query completed.
            unsafe {
                (device.fp_v1_0().get_query_pool_results)(
                    device.handle(),
                    pool,
                    0,
                    1,
                    bytes,
                    values.as_mut_ptr().cast::<c_void>(),
                    bytes as u64,
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                )
            }
            .result()
            .call("vkGetQueryPoolResults")?;
            result.stats = Some(stats_from(stats_flags, &values));
        }
        Ok(result)
    }
}
