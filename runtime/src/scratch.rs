//! Ownership of the transient Vulkan objects of one job. Everything created through a [`Scratch`]
//! is destroyed when it drops, on success and on every error path alike.

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme, Allocator};
use gpu_allocator::MemoryLocation;

use crate::context::{Context, Exclusive};
use crate::error::VkCall;
use crate::RuntimeError;

/// Index of an allocation owned by a [`Scratch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AllocId(usize);

pub(crate) struct Scratch<'a> {
    pub(crate) ctx: &'a Context,
    allocator: &'a mut Allocator,
    pool: vk::CommandPool,
    allocations: Vec<Allocation>,
    buffers: Vec<vk::Buffer>,
    images: Vec<vk::Image>,
    buffer_views: Vec<vk::BufferView>,
    image_views: Vec<vk::ImageView>,
    samplers: Vec<vk::Sampler>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    descriptor_pools: Vec<vk::DescriptorPool>,
    pipeline_layouts: Vec<vk::PipelineLayout>,
    shader_modules: Vec<vk::ShaderModule>,
    pipelines: Vec<vk::Pipeline>,
    query_pools: Vec<vk::QueryPool>,
    acceleration_structures: Vec<vk::AccelerationStructureKHR>,
    command_buffers: Vec<vk::CommandBuffer>,
    fences: Vec<vk::Fence>,
    /// Work was submitted and not seen to complete: wait for the device before destroying anything.
    pending: bool,
}

impl<'a> Scratch<'a> {
    pub(crate) fn new(ctx: &'a Context, exclusive: &'a mut Exclusive) -> Result<Scratch<'a>, RuntimeError> {
        let pool = exclusive.command_pool;
        let allocator = exclusive
            .allocator
            .as_mut()
            .ok_or_else(|| RuntimeError::Allocation { what: "job".into(), message: "allocator is gone".into() })?;
        Ok(Scratch {
            ctx,
            allocator,
            pool,
            allocations: Vec::new(),
            buffers: Vec::new(),
            images: Vec::new(),
            buffer_views: Vec::new(),
            image_views: Vec::new(),
            samplers: Vec::new(),
            set_layouts: Vec::new(),
            descriptor_pools: Vec::new(),
            pipeline_layouts: Vec::new(),
            shader_modules: Vec::new(),
            pipelines: Vec::new(),
            query_pools: Vec::new(),
            acceleration_structures: Vec::new(),
            command_buffers: Vec::new(),
            fences: Vec::new(),
            pending: false,
        })
    }

    pub(crate) fn device(&self) -> &'a ash::Device {
        self.ctx.device()
    }

    fn allocate(
        &mut self,
        name: &str,
        requirements: vk::MemoryRequirements,
        location: MemoryLocation,
        linear: bool,
    ) -> Result<AllocId, RuntimeError> {
        let allocation = self
            .allocator
            .allocate(&AllocationCreateDesc {
                name,
                requirements,
                location,
                linear,
                allocation_scheme: AllocationScheme::GpuAllocatorManaged,
            })
            .map_err(|e| RuntimeError::Allocation { what: name.to_string(), message: e.to_string() })?;
        self.allocations.push(allocation);
        Ok(AllocId(self.allocations.len() - 1))
    }

    /// Creates a buffer with bound memory in `location`.
    pub(crate) fn buffer(
        &mut self,
        name: &str,
        size: u64,
        usage: vk::BufferUsageFlags,
        location: MemoryLocation,
    ) -> Result<(vk::Buffer, AllocId), RuntimeError> {
        let device = self.device();
        let info = vk::BufferCreateInfo::default().size(size).usage(usage).sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: valid create info; the buffer is recorded for destruction before anything can fail.
        let buffer = unsafe { device.create_buffer(&info, None) }.call("vkCreateBuffer")?;
        self.buffers.push(buffer);
        // SAFETY: `buffer` was just created from this device.
        let requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
        let id = self.allocate(name, requirements, location, true)?;
        let a = &self.allocations[id.0];
        // SAFETY: memory and offset come from an allocation satisfying the buffer's requirements.
        unsafe { device.bind_buffer_memory(buffer, a.memory(), a.offset()) }.call("vkBindBufferMemory")?;
        Ok((buffer, id))
    }

    /// The device address of a buffer created with `SHADER_DEVICE_ADDRESS` usage.
    pub(crate) fn buffer_address(&self, buffer: vk::Buffer) -> u64 {
        let info = vk::BufferDeviceAddressInfo::default().buffer(buffer);
        // SAFETY: the caller created `buffer` with SHADER_DEVICE_ADDRESS usage on memory allocated
        // with the device-address flag (the allocator is created with it when the device has it).
        unsafe { self.device().get_buffer_device_address(&info) }
    }

    /// Creates an acceleration structure (destroyed with the scratch).
    pub(crate) fn acceleration_structure(
        &mut self,
        info: &vk::AccelerationStructureCreateInfoKHR<'_>,
    ) -> Result<vk::AccelerationStructureKHR, RuntimeError> {
        let Some(ext) = self.ctx.accel.as_ref() else {
            return Err(RuntimeError::Unsupported("acceleration structures (VK_KHR_acceleration_structure)".into()));
        };
        // SAFETY: valid create info over a live buffer with ACCELERATION_STRUCTURE_STORAGE usage.
        let a = unsafe { ext.create_acceleration_structure(info, None) }.call("vkCreateAccelerationStructureKHR")?;
        self.acceleration_structures.push(a);
        Ok(a)
    }

    /// Creates a ray-tracing pipeline.
    pub(crate) fn ray_tracing_pipeline(
        &mut self,
        info: &vk::RayTracingPipelineCreateInfoKHR<'_>,
    ) -> Result<vk::Pipeline, RuntimeError> {
        let Some(ext) = self.ctx.rt_pipeline.as_ref() else {
            return Err(RuntimeError::Unsupported("ray-tracing pipelines (VK_KHR_ray_tracing_pipeline)".into()));
        };
        // SAFETY: valid create info whose modules, groups and layout are alive.
        let result = unsafe {
            ext.create_ray_tracing_pipelines(
                vk::DeferredOperationKHR::null(),
                vk::PipelineCache::null(),
                std::slice::from_ref(info),
                None,
            )
        };
        self.keep_pipeline(result, "vkCreateRayTracingPipelinesKHR")
    }

    /// Creates an image with bound device-local memory.
    pub(crate) fn image(&mut self, name: &str, info: &vk::ImageCreateInfo<'_>) -> Result<vk::Image, RuntimeError> {
        let device = self.device();
        // SAFETY: the caller checked the create info against the format's image properties.
        let image = unsafe { device.create_image(info, None) }.call("vkCreateImage")?;
        self.images.push(image);
        // SAFETY: `image` was just created from this device.
        let requirements = unsafe { device.get_image_memory_requirements(image) };
        let id = self.allocate(name, requirements, MemoryLocation::GpuOnly, false)?;
        let a = &self.allocations[id.0];
        // SAFETY: memory and offset come from an allocation satisfying the image's requirements.
        unsafe { device.bind_image_memory(image, a.memory(), a.offset()) }.call("vkBindImageMemory")?;
        Ok(image)
    }

    /// The host mapping of a host-visible allocation.
    pub(crate) fn mapped(&mut self, id: AllocId) -> Result<&mut [u8], RuntimeError> {
        self.allocations.get_mut(id.0).and_then(|a| a.mapped_slice_mut()).ok_or_else(|| RuntimeError::Allocation {
            what: "staging".into(),
            message: "memory is not host-mapped".into(),
        })
    }

    pub(crate) fn buffer_view(&mut self, info: &vk::BufferViewCreateInfo<'_>) -> Result<vk::BufferView, RuntimeError> {
        // SAFETY: the caller checked the format's texel-buffer features.
        let v = unsafe { self.device().create_buffer_view(info, None) }.call("vkCreateBufferView")?;
        self.buffer_views.push(v);
        Ok(v)
    }

    pub(crate) fn image_view(&mut self, info: &vk::ImageViewCreateInfo<'_>) -> Result<vk::ImageView, RuntimeError> {
        // SAFETY: the view's range lies within the image (checked by the caller).
        let v = unsafe { self.device().create_image_view(info, None) }.call("vkCreateImageView")?;
        self.image_views.push(v);
        Ok(v)
    }

    pub(crate) fn sampler(&mut self, info: &vk::SamplerCreateInfo<'_>) -> Result<vk::Sampler, RuntimeError> {
        // SAFETY: valid create info (anisotropy only when the feature is enabled).
        let s = unsafe { self.device().create_sampler(info, None) }.call("vkCreateSampler")?;
        self.samplers.push(s);
        Ok(s)
    }

    pub(crate) fn set_layout(
        &mut self,
        info: &vk::DescriptorSetLayoutCreateInfo<'_>,
    ) -> Result<vk::DescriptorSetLayout, RuntimeError> {
        // SAFETY: valid create info.
        let l =
            unsafe { self.device().create_descriptor_set_layout(info, None) }.call("vkCreateDescriptorSetLayout")?;
        self.set_layouts.push(l);
        Ok(l)
    }

    pub(crate) fn descriptor_pool(
        &mut self,
        info: &vk::DescriptorPoolCreateInfo<'_>,
    ) -> Result<vk::DescriptorPool, RuntimeError> {
        // SAFETY: valid create info.
        let p = unsafe { self.device().create_descriptor_pool(info, None) }.call("vkCreateDescriptorPool")?;
        self.descriptor_pools.push(p);
        Ok(p)
    }

    pub(crate) fn pipeline_layout(
        &mut self,
        info: &vk::PipelineLayoutCreateInfo<'_>,
    ) -> Result<vk::PipelineLayout, RuntimeError> {
        // SAFETY: valid create info.
        let l = unsafe { self.device().create_pipeline_layout(info, None) }.call("vkCreatePipelineLayout")?;
        self.pipeline_layouts.push(l);
        Ok(l)
    }

    pub(crate) fn shader_module(&mut self, code: &[u32]) -> Result<vk::ShaderModule, RuntimeError> {
        let info = vk::ShaderModuleCreateInfo::default().code(code);
        // SAFETY: `code` is a complete SPIR-V module (header checked by reflection).
        let m = unsafe { self.device().create_shader_module(&info, None) }.call("vkCreateShaderModule")?;
        self.shader_modules.push(m);
        Ok(m)
    }

    pub(crate) fn compute_pipeline(
        &mut self,
        info: &vk::ComputePipelineCreateInfo<'_>,
    ) -> Result<vk::Pipeline, RuntimeError> {
        // SAFETY: valid create info whose module and layout are alive.
        let result = unsafe { self.device().create_compute_pipelines(vk::PipelineCache::null(), &[*info], None) };
        self.keep_pipeline(result, "vkCreateComputePipelines")
    }

    pub(crate) fn graphics_pipeline(
        &mut self,
        info: &vk::GraphicsPipelineCreateInfo<'_>,
    ) -> Result<vk::Pipeline, RuntimeError> {
        // SAFETY: valid create info whose modules, layout and state structs are alive (checked by the caller
        // against the enabled features).
        let result = unsafe { self.device().create_graphics_pipelines(vk::PipelineCache::null(), &[*info], None) };
        self.keep_pipeline(result, "vkCreateGraphicsPipelines")
    }

    fn keep_pipeline(
        &mut self,
        result: Result<Vec<vk::Pipeline>, (Vec<vk::Pipeline>, vk::Result)>,
        call: &'static str,
    ) -> Result<vk::Pipeline, RuntimeError> {
        match result {
            Ok(p) => {
                self.pipelines.extend(p.iter().copied());
                p.first().copied().ok_or(RuntimeError::Vulkan { call, result: vk::Result::ERROR_UNKNOWN })
            }
            Err((p, result)) => {
                self.pipelines.extend(p.into_iter().filter(|p| *p != vk::Pipeline::null()));
                Err(RuntimeError::Vulkan { call, result })
            }
        }
    }

    pub(crate) fn query_pool(&mut self, info: &vk::QueryPoolCreateInfo<'_>) -> Result<vk::QueryPool, RuntimeError> {
        // SAFETY: valid create info (statistics only with the pipelineStatisticsQuery feature).
        let q = unsafe { self.device().create_query_pool(info, None) }.call("vkCreateQueryPool")?;
        self.query_pools.push(q);
        Ok(q)
    }

    /// Allocates a primary command buffer and begins recording (one-time submit).
    pub(crate) fn begin_commands(&mut self) -> Result<vk::CommandBuffer, RuntimeError> {
        let device = self.device();
        let info = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: the pool is externally synchronised by the context lock held for `self`'s lifetime.
        let cbs = unsafe { device.allocate_command_buffers(&info) }.call("vkAllocateCommandBuffers")?;
        self.command_buffers.extend(cbs.iter().copied());
        let cb = cbs
            .first()
            .copied()
            .ok_or(RuntimeError::Vulkan { call: "vkAllocateCommandBuffers", result: vk::Result::ERROR_UNKNOWN })?;
        let begin = vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: fresh command buffer in the initial state.
        unsafe { device.begin_command_buffer(cb, &begin) }.call("vkBeginCommandBuffer")?;
        Ok(cb)
    }

    /// Ends `cb`, submits it and waits for completion (up to `timeout_s` seconds).
    pub(crate) fn submit_and_wait(&mut self, cb: vk::CommandBuffer, timeout_s: u64) -> Result<(), RuntimeError> {
        let device = self.device();
        // SAFETY: `cb` is recording.
        unsafe { device.end_command_buffer(cb) }.call("vkEndCommandBuffer")?;
        // SAFETY: valid create info.
        let fence = unsafe { device.create_fence(&vk::FenceCreateInfo::default(), None) }.call("vkCreateFence")?;
        self.fences.push(fence);
        let cbs = [cb];
        let submit = vk::SubmitInfo::default().command_buffers(&cbs);
        // SAFETY: the queue is externally synchronised by the context lock; `cb` is executable.
        unsafe { device.queue_submit(self.ctx.queue, &[submit], fence) }.call("vkQueueSubmit")?;
        self.pending = true;
        // SAFETY: `fence` is alive and was submitted.
        match unsafe { device.wait_for_fences(&[fence], true, timeout_s.saturating_mul(1_000_000_000)) } {
            Ok(()) => {
                self.pending = false;
                Ok(())
            }
            Err(vk::Result::TIMEOUT) => Err(RuntimeError::Timeout { seconds: timeout_s }),
            Err(result) => Err(RuntimeError::Vulkan { call: "vkWaitForFences", result }),
        }
    }
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        let device = self.ctx.device();
        // SAFETY: once the device is idle (or the fence signalled) none of these objects is in use;
        // each handle was created from this device and is destroyed exactly once.
        unsafe {
            if self.pending {
                let _ = device.device_wait_idle();
            }
            for f in self.fences.drain(..) {
                device.destroy_fence(f, None);
            }
            if !self.command_buffers.is_empty() {
                device.free_command_buffers(self.pool, &self.command_buffers);
            }
            for q in self.query_pools.drain(..) {
                device.destroy_query_pool(q, None);
            }
            for p in self.pipelines.drain(..) {
                device.destroy_pipeline(p, None);
            }
            if let Some(ext) = self.ctx.accel.as_ref() {
                for a in self.acceleration_structures.drain(..) {
                    ext.destroy_acceleration_structure(a, None);
                }
            }
            for m in self.shader_modules.drain(..) {
                device.destroy_shader_module(m, None);
            }
            for l in self.pipeline_layouts.drain(..) {
                device.destroy_pipeline_layout(l, None);
            }
            for p in self.descriptor_pools.drain(..) {
                device.destroy_descriptor_pool(p, None);
            }
            for l in self.set_layouts.drain(..) {
                device.destroy_descriptor_set_layout(l, None);
            }
            for s in self.samplers.drain(..) {
                device.destroy_sampler(s, None);
            }
            for v in self.image_views.drain(..) {
                device.destroy_image_view(v, None);
            }
            for v in self.buffer_views.drain(..) {
                device.destroy_buffer_view(v, None);
            }
            for i in self.images.drain(..) {
                device.destroy_image(i, None);
            }
            for b in self.buffers.drain(..) {
                device.destroy_buffer(b, None);
            }
        }
        for a in self.allocations.drain(..) {
            let _ = self.allocator.free(a);
        }
    }
}
