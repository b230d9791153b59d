//! Device feature discovery and enabling: everything useful the device has is enabled, and the
//! result is reported as [`DeviceFeatures`].

use std::ffi::{c_void, CStr};
use std::ptr;

use ash::vk;

/// What the device supports AND what was enabled on the logical device (the two are the same: every
/// useful feature that exists is enabled). Limits and properties that shaders care about are included.
#[derive(Clone, Debug, Default)]
pub struct DeviceFeatures {
    /// `VkPhysicalDeviceProperties::apiVersion` of the device.
    pub api_version: u32,
    /// Vulkan 1.0 features as enabled.
    pub core: vk::PhysicalDeviceFeatures,
    /// Device extensions enabled on top of the core version.
    pub extensions: Vec<String>,

    // Robustness.
    pub robust_buffer_access: bool,
    pub robust_buffer_access2: bool,
    pub robust_image_access: bool,
    pub robust_image_access2: bool,
    pub null_descriptor: bool,

    // Arithmetic types and small-type storage.
    pub shader_float64: bool,
    pub shader_int64: bool,
    pub shader_int16: bool,
    pub shader_float16: bool,
    pub shader_int8: bool,
    pub storage_buffer_16bit_access: bool,
    pub uniform_and_storage_buffer_16bit_access: bool,
    pub storage_push_constant16: bool,
    pub storage_input_output16: bool,
    pub storage_buffer_8bit_access: bool,
    pub uniform_and_storage_buffer_8bit_access: bool,
    pub storage_push_constant8: bool,
    pub shader_buffer_int64_atomics: bool,
    pub shader_shared_int64_atomics: bool,
    pub shader_buffer_float32_atomics: bool,
    pub shader_buffer_float32_atomic_add: bool,
    pub shader_shared_float32_atomics: bool,
    pub shader_shared_float32_atomic_add: bool,
    pub shader_image_float32_atomics: bool,
    pub shader_image_float32_atomic_add: bool,
    pub shader_integer_dot_product: bool,

    // Subgroups.
    pub subgroup_size: u32,
    pub subgroup_supported_stages: vk::ShaderStageFlags,
    pub subgroup_supported_operations: vk::SubgroupFeatureFlags,
    pub subgroup_quad_operations_in_all_stages: bool,
    pub shader_subgroup_extended_types: bool,
    /// `VK_EXT_subgroup_size_control` (core in 1.3).
    pub subgroup_size_control: bool,
    pub compute_full_subgroups: bool,
    pub min_subgroup_size: u32,
    pub max_subgroup_size: u32,
    pub required_subgroup_size_stages: vk::ShaderStageFlags,

    // Descriptor indexing.
    pub descriptor_indexing: bool,
    pub runtime_descriptor_array: bool,
    pub shader_uniform_buffer_array_non_uniform_indexing: bool,
    pub shader_storage_buffer_array_non_uniform_indexing: bool,
    pub shader_sampled_image_array_non_uniform_indexing: bool,
    pub shader_storage_image_array_non_uniform_indexing: bool,
    pub shader_uniform_texel_buffer_array_non_uniform_indexing: bool,
    pub shader_storage_texel_buffer_array_non_uniform_indexing: bool,
    pub descriptor_binding_partially_bound: bool,
    pub descriptor_binding_variable_descriptor_count: bool,
    pub descriptor_binding_update_unused_while_pending: bool,
    /// `VK_EXT_mutable_descriptor_type`: one descriptor array holding several descriptor types.
    pub mutable_descriptor_type: bool,

    // Memory model and addressing.
    pub vulkan_memory_model: bool,
    pub vulkan_memory_model_device_scope: bool,
    pub scalar_block_layout: bool,
    pub buffer_device_address: bool,
    pub shader_zero_initialize_workgroup_memory: bool,

    // Control flow.
    pub shader_demote_to_helper_invocation: bool,
    pub shader_terminate_invocation: bool,

    // Stages.
    pub tessellation_shader: bool,
    pub geometry_shader: bool,
    pub transform_feedback: bool,
    pub geometry_streams: bool,
    pub max_transform_feedback_streams: u32,
    pub max_transform_feedback_buffers: u32,
    /// `VkPhysicalDeviceTransformFeedbackPropertiesEXT::transformFeedbackQueries`.
    pub transform_feedback_queries: bool,
    /// `transformFeedbackRasterizationStreamSelect`: a stream other than 0 may be rasterized.
    pub transform_feedback_rasterization_stream_select: bool,
    pub mesh_shader: bool,
    pub task_shader: bool,
    /// `VK_KHR_acceleration_structure` (`accelerationStructure`): BLAS/TLAS building and
    /// acceleration-structure descriptors.
    pub acceleration_structure: bool,
    /// `VK_KHR_ray_tracing_pipeline` (`rayTracingPipeline`).
    pub ray_tracing_pipeline: bool,
    /// `VK_KHR_ray_query` (`rayQuery`): inline ray tracing in any stage.
    pub ray_query: bool,
    /// Ray-tracing pipeline properties (0 without the extension).
    pub shader_group_handle_size: u32,
    pub shader_group_handle_alignment: u32,
    pub shader_group_base_alignment: u32,
    pub max_shader_group_stride: u32,
    pub max_ray_recursion_depth: u32,
    /// `minAccelerationStructureScratchOffsetAlignment`.
    pub min_acceleration_structure_scratch_offset_alignment: u32,

    // Resource access from shaders.
    pub fragment_stores_and_atomics: bool,
    pub vertex_pipeline_stores_and_atomics: bool,
    pub shader_image_gather_extended: bool,
    pub shader_storage_image_read_without_format: bool,
    pub shader_storage_image_write_without_format: bool,
    pub shader_storage_image_extended_formats: bool,
    pub shader_storage_image_multisample: bool,
    pub shader_resource_min_lod: bool,
    pub image_cube_array: bool,
    pub sampler_anisotropy: bool,
    pub max_sampler_anisotropy: f32,
    /// Float controls (Vulkan 1.2 properties): denormals kept / flushed per width.
    pub shader_denorm_preserve_float16: bool,
    pub shader_denorm_preserve_float32: bool,
    pub shader_denorm_preserve_float64: bool,
    pub shader_denorm_flush_to_zero_float16: bool,
    pub shader_denorm_flush_to_zero_float32: bool,
    pub shader_denorm_flush_to_zero_float64: bool,
    pub custom_border_colors: bool,

    // Rasterisation-related shader features.
    pub sample_rate_shading: bool,
    pub shader_clip_distance: bool,
    pub shader_cull_distance: bool,
    pub shader_draw_parameters: bool,
    pub shader_output_viewport_index: bool,
    pub shader_output_layer: bool,
    pub multi_viewport: bool,
    pub independent_blend: bool,
    pub dual_src_blend: bool,
    pub depth_clamp: bool,
    pub depth_clip_enable: bool,
    pub shader_stencil_export: bool,
    pub fragment_shader_pixel_interlock: bool,
    pub fragment_shader_sample_interlock: bool,
    pub fragment_shader_barycentric: bool,
    pub vertex_attribute_instance_rate_divisor: bool,

    // API conveniences.
    pub synchronization2: bool,
    pub dynamic_rendering: bool,
    pub maintenance4: bool,
    pub timeline_semaphore: bool,
}

/// Optional device extensions enabled when present (each either has a feature struct below or is
/// useful without one).
fn wanted_extensions(api_version: u32) -> Vec<&'static CStr> {
    let mut v = vec![
        ash::ext::robustness2::NAME,
        ash::ext::transform_feedback::NAME,
        ash::ext::custom_border_color::NAME,
        ash::ext::depth_clip_enable::NAME,
        ash::ext::shader_stencil_export::NAME,
        ash::ext::shader_atomic_float::NAME,
        ash::ext::fragment_shader_interlock::NAME,
        ash::khr::fragment_shader_barycentric::NAME,
        ash::ext::vertex_attribute_divisor::NAME,
        ash::ext::mesh_shader::NAME,
        ash::ext::mutable_descriptor_type::NAME,
        // Ray tracing (VK_KHR_acceleration_structure needs deferred host operations).
        ash::khr::deferred_host_operations::NAME,
        ash::khr::acceleration_structure::NAME,
        ash::khr::ray_tracing_pipeline::NAME,
        ash::khr::ray_query::NAME,
        // Must be enabled when the implementation exposes it (portability drivers such as MoltenVK).
        ash::khr::portability_subset::NAME,
    ];
    if api_version < vk::API_VERSION_1_3 {
        v.extend([
            ash::ext::subgroup_size_control::NAME,
            ash::ext::shader_demote_to_helper_invocation::NAME,
            ash::khr::shader_non_semantic_info::NAME,
        ]);
    }
    v
}

/// All feature structs we know, chained together for query and then for device creation.
/// Boxed by the caller so the `p_next` pointers between the fields stay valid.
#[derive(Default)]
pub(crate) struct FeatureChain {
    api_version: u32,
    pub(crate) extensions: Vec<&'static CStr>,
    core: vk::PhysicalDeviceFeatures,
    v11: vk::PhysicalDeviceVulkan11Features<'static>,
    v12: vk::PhysicalDeviceVulkan12Features<'static>,
    v13: vk::PhysicalDeviceVulkan13Features<'static>,
    sgsc: vk::PhysicalDeviceSubgroupSizeControlFeatures<'static>,
    demote: vk::PhysicalDeviceShaderDemoteToHelperInvocationFeatures<'static>,
    robustness2: vk::PhysicalDeviceRobustness2FeaturesEXT<'static>,
    xfb: vk::PhysicalDeviceTransformFeedbackFeaturesEXT<'static>,
    border: vk::PhysicalDeviceCustomBorderColorFeaturesEXT<'static>,
    depth_clip: vk::PhysicalDeviceDepthClipEnableFeaturesEXT<'static>,
    atomic_float: vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT<'static>,
    interlock: vk::PhysicalDeviceFragmentShaderInterlockFeaturesEXT<'static>,
    barycentric: vk::PhysicalDeviceFragmentShaderBarycentricFeaturesKHR<'static>,
    divisor: vk::PhysicalDeviceVertexAttributeDivisorFeaturesEXT<'static>,
    mesh: vk::PhysicalDeviceMeshShaderFeaturesEXT<'static>,
    mutable: vk::PhysicalDeviceMutableDescriptorTypeFeaturesEXT<'static>,
    accel: vk::PhysicalDeviceAccelerationStructureFeaturesKHR<'static>,
    rt_pipeline: vk::PhysicalDeviceRayTracingPipelineFeaturesKHR<'static>,
    ray_query: vk::PhysicalDeviceRayQueryFeaturesKHR<'static>,
    features2: vk::PhysicalDeviceFeatures2<'static>,
}

macro_rules! link {
    ($head:ident, $s:expr) => {{
        $s.p_next = $head;
        $head = ptr::addr_of_mut!($s).cast::<c_void>();
    }};
}

impl FeatureChain {
    /// Picks the optional extensions present in `available` for a device of `api_version`.
    pub(crate) fn new(api_version: u32, available: &[vk::ExtensionProperties]) -> Box<FeatureChain> {
        let has = |name: &CStr| available.iter().any(|e| e.extension_name_as_c_str().ok() == Some(name));
        let extensions = wanted_extensions(api_version).into_iter().filter(|n| has(n)).collect();
        Box::new(FeatureChain { api_version, extensions, ..Default::default() })
    }

    fn has(&self, name: &CStr) -> bool {
        self.extensions.contains(&name)
    }

    /// Links the structs that apply to this device into `features2` and returns a pointer to it.
    /// The pointer is valid as long as `self` is neither moved nor dropped.
    pub(crate) fn link(&mut self) -> *mut vk::PhysicalDeviceFeatures2<'static> {
        let mut head: *mut c_void = ptr::null_mut();
        link!(head, self.v11);
        link!(head, self.v12);
        if self.api_version >= vk::API_VERSION_1_3 {
            link!(head, self.v13);
        } else {
            if self.has(ash::ext::subgroup_size_control::NAME) {
                link!(head, self.sgsc);
            }
            if self.has(ash::ext::shader_demote_to_helper_invocation::NAME) {
                link!(head, self.demote);
            }
        }
        if self.has(ash::ext::robustness2::NAME) {
            link!(head, self.robustness2);
        }
        if self.has(ash::ext::transform_feedback::NAME) {
            link!(head, self.xfb);
        }
        if self.has(ash::ext::custom_border_color::NAME) {
            link!(head, self.border);
        }
        if self.has(ash::ext::depth_clip_enable::NAME) {
            link!(head, self.depth_clip);
        }
        if self.has(ash::ext::shader_atomic_float::NAME) {
            link!(head, self.atomic_float);
        }
        if self.has(ash::ext::fragment_shader_interlock::NAME) {
            link!(head, self.interlock);
        }
        if self.has(ash::khr::fragment_shader_barycentric::NAME) {
            link!(head, self.barycentric);
        }
        if self.has(ash::ext::vertex_attribute_divisor::NAME) {
            link!(head, self.divisor);
        }
        if self.has(ash::ext::mesh_shader::NAME) {
            link!(head, self.mesh);
        }
        if self.has(ash::ext::mutable_descriptor_type::NAME) {
            link!(head, self.mutable);
        }
        if self.has(ash::khr::acceleration_structure::NAME) {
            link!(head, self.accel);
        }
        if self.has(ash::khr::ray_tracing_pipeline::NAME) {
            link!(head, self.rt_pipeline);
        }
        if self.has(ash::khr::ray_query::NAME) {
            link!(head, self.ray_query);
        }
        self.features2.p_next = head;
        self.features2.features = self.core;
        ptr::addr_of_mut!(self.features2)
    }

    /// After the query: stores the core features and drops the few that cost something without
    /// being useful here, or that depend on extensions we do not enable.
    pub(crate) fn sanitize(&mut self) {
        self.core = self.features2.features;
        self.v11.protected_memory = vk::FALSE;
        self.v12.buffer_device_address_capture_replay = vk::FALSE;
        self.v12.buffer_device_address_multi_device = vk::FALSE;
        self.mesh.primitive_fragment_shading_rate_mesh_shader = vk::FALSE;
        self.mesh.mesh_shader_queries = vk::FALSE;
        self.mesh.multiview_mesh_shader &= self.v11.multiview;
        self.border.custom_border_color_without_format = vk::FALSE;
        // robustBufferAccess2 requires robustBufferAccess.
        if self.core.robust_buffer_access == vk::FALSE {
            self.robustness2.robust_buffer_access2 = vk::FALSE;
        }
        // Ray tracing: capture/replay and host-side builds are not used here.
        self.accel.acceleration_structure_capture_replay = vk::FALSE;
        self.accel.acceleration_structure_indirect_build = vk::FALSE;
        self.accel.acceleration_structure_host_commands = vk::FALSE;
        self.rt_pipeline.ray_tracing_pipeline_shader_group_handle_capture_replay = vk::FALSE;
        self.rt_pipeline.ray_tracing_pipeline_shader_group_handle_capture_replay_mixed = vk::FALSE;
        // The ray-tracing extensions need buffer device addresses and each other.
        let bda = self.v12.buffer_device_address != vk::FALSE;
        let accel = self.has(ash::khr::acceleration_structure::NAME)
            && self.has(ash::khr::deferred_host_operations::NAME)
            && self.accel.acceleration_structure != vk::FALSE
            && bda;
        if !accel {
            self.extensions.retain(|e| {
                *e != ash::khr::acceleration_structure::NAME
                    && *e != ash::khr::ray_tracing_pipeline::NAME
                    && *e != ash::khr::ray_query::NAME
            });
        }
        if self.has(ash::khr::ray_tracing_pipeline::NAME) && self.rt_pipeline.ray_tracing_pipeline == vk::FALSE {
            self.extensions.retain(|e| *e != ash::khr::ray_tracing_pipeline::NAME);
        }
        if self.has(ash::khr::ray_query::NAME) && self.ray_query.ray_query == vk::FALSE {
            self.extensions.retain(|e| *e != ash::khr::ray_query::NAME);
        }
        if self.extensions.contains(&ash::ext::mesh_shader::NAME)
            && self.mesh.mesh_shader == vk::FALSE
            && self.mesh.task_shader == vk::FALSE
        {
            self.extensions.retain(|e| *e != ash::ext::mesh_shader::NAME);
        }
    }

    /// Summarises what is enabled. `props` supplies subgroup and other limits.
    pub(crate) fn summarize(&self, props: &DeviceProps) -> DeviceFeatures {
        let b = |v: vk::Bool32| v != vk::FALSE;
        let c = &self.core;
        let (v11, v12) = (&self.v11, &self.v12);
        let v13 = self.api_version >= vk::API_VERSION_1_3;
        let (sgsc, full_sg, demote, terminate) = if v13 {
            (
                b(self.v13.subgroup_size_control),
                b(self.v13.compute_full_subgroups),
                b(self.v13.shader_demote_to_helper_invocation),
                b(self.v13.shader_terminate_invocation),
            )
        } else {
            (
                b(self.sgsc.subgroup_size_control),
                b(self.sgsc.compute_full_subgroups),
                b(self.demote.shader_demote_to_helper_invocation),
                false,
            )
        };
        DeviceFeatures {
            api_version: self.api_version,
            core: *c,
            extensions: self.extensions.iter().map(|e| e.to_string_lossy().into_owned()).collect(),
            robust_buffer_access: b(c.robust_buffer_access),
            robust_buffer_access2: b(self.robustness2.robust_buffer_access2),
            robust_image_access: b(self.v13.robust_image_access) && v13,
            robust_image_access2: b(self.robustness2.robust_image_access2),
            null_descriptor: b(self.robustness2.null_descriptor),
            shader_float64: b(c.shader_float64),
            shader_int64: b(c.shader_int64),
            shader_int16: b(c.shader_int16),
            shader_float16: b(v12.shader_float16),
            shader_int8: b(v12.shader_int8),
            storage_buffer_16bit_access: b(v11.storage_buffer16_bit_access),
            uniform_and_storage_buffer_16bit_access: b(v11.uniform_and_storage_buffer16_bit_access),
            storage_push_constant16: b(v11.storage_push_constant16),
            storage_input_output16: b(v11.storage_input_output16),
            storage_buffer_8bit_access: b(v12.storage_buffer8_bit_access),
            uniform_and_storage_buffer_8bit_access: b(v12.uniform_and_storage_buffer8_bit_access),
            storage_push_constant8: b(v12.storage_push_constant8),
            shader_buffer_int64_atomics: b(v12.shader_buffer_int64_atomics),
            shader_shared_int64_atomics: b(v12.shader_shared_int64_atomics),
            shader_buffer_float32_atomics: b(self.atomic_float.shader_buffer_float32_atomics),
            shader_buffer_float32_atomic_add: b(self.atomic_float.shader_buffer_float32_atomic_add),
            shader_shared_float32_atomics: b(self.atomic_float.shader_shared_float32_atomics),
            shader_shared_float32_atomic_add: b(self.atomic_float.shader_shared_float32_atomic_add),
            shader_image_float32_atomics: b(self.atomic_float.shader_image_float32_atomics),
            shader_image_float32_atomic_add: b(self.atomic_float.shader_image_float32_atomic_add),
            shader_integer_dot_product: v13 && b(self.v13.shader_integer_dot_product),
            subgroup_size: props.subgroup_size,
            subgroup_supported_stages: props.subgroup_stages,
            subgroup_supported_operations: props.subgroup_operations,
            subgroup_quad_operations_in_all_stages: props.subgroup_quad_all_stages,
            shader_subgroup_extended_types: b(v12.shader_subgroup_extended_types),
            subgroup_size_control: sgsc,
            compute_full_subgroups: full_sg,
            min_subgroup_size: if sgsc { props.min_subgroup_size } else { props.subgroup_size },
            max_subgroup_size: if sgsc { props.max_subgroup_size } else { props.subgroup_size },
            required_subgroup_size_stages: if sgsc { props.required_subgroup_size_stages } else { Default::default() },
            descriptor_indexing: b(v12.descriptor_indexing),
            runtime_descriptor_array: b(v12.runtime_descriptor_array),
            shader_uniform_buffer_array_non_uniform_indexing: b(v12.shader_uniform_buffer_array_non_uniform_indexing),
            shader_storage_buffer_array_non_uniform_indexing: b(v12.shader_storage_buffer_array_non_uniform_indexing),
            shader_sampled_image_array_non_uniform_indexing: b(v12.shader_sampled_image_array_non_uniform_indexing),
            shader_storage_image_array_non_uniform_indexing: b(v12.shader_storage_image_array_non_uniform_indexing),
            shader_uniform_texel_buffer_array_non_uniform_indexing: b(
                v12.shader_uniform_texel_buffer_array_non_uniform_indexing
            ),
            shader_storage_texel_buffer_array_non_uniform_indexing: b(
                v12.shader_storage_texel_buffer_array_non_uniform_indexing
            ),
            descriptor_binding_partially_bound: b(v12.descriptor_binding_partially_bound),
            mutable_descriptor_type: self.has(ash::ext::mutable_descriptor_type::NAME)
                && b(self.mutable.mutable_descriptor_type),
            descriptor_binding_variable_descriptor_count: b(v12.descriptor_binding_variable_descriptor_count),
            descriptor_binding_update_unused_while_pending: b(v12.descriptor_binding_update_unused_while_pending),
            vulkan_memory_model: b(v12.vulkan_memory_model),
            vulkan_memory_model_device_scope: b(v12.vulkan_memory_model_device_scope),
            scalar_block_layout: b(v12.scalar_block_layout),
            buffer_device_address: b(v12.buffer_device_address),
            shader_zero_initialize_workgroup_memory: v13 && b(self.v13.shader_zero_initialize_workgroup_memory),
            shader_demote_to_helper_invocation: demote,
            shader_terminate_invocation: terminate,
            tessellation_shader: b(c.tessellation_shader),
            geometry_shader: b(c.geometry_shader),
            transform_feedback: b(self.xfb.transform_feedback),
            geometry_streams: b(self.xfb.geometry_streams),
            max_transform_feedback_streams: props.max_transform_feedback_streams,
            max_transform_feedback_buffers: props.max_transform_feedback_buffers,
            transform_feedback_queries: props.transform_feedback_queries,
            transform_feedback_rasterization_stream_select: props.transform_feedback_rasterization_stream_select,
            mesh_shader: b(self.mesh.mesh_shader),
            task_shader: b(self.mesh.task_shader),
            acceleration_structure: self.has(ash::khr::acceleration_structure::NAME)
                && b(self.accel.acceleration_structure),
            ray_tracing_pipeline: self.has(ash::khr::ray_tracing_pipeline::NAME)
                && b(self.rt_pipeline.ray_tracing_pipeline),
            ray_query: self.has(ash::khr::ray_query::NAME) && b(self.ray_query.ray_query),
            shader_group_handle_size: props.shader_group_handle_size,
            shader_group_handle_alignment: props.shader_group_handle_alignment,
            shader_group_base_alignment: props.shader_group_base_alignment,
            max_shader_group_stride: props.max_shader_group_stride,
            max_ray_recursion_depth: props.max_ray_recursion_depth,
            min_acceleration_structure_scratch_offset_alignment: props
                .min_acceleration_structure_scratch_offset_alignment,
            fragment_stores_and_atomics: b(c.fragment_stores_and_atomics),
            vertex_pipeline_stores_and_atomics: b(c.vertex_pipeline_stores_and_atomics),
            shader_image_gather_extended: b(c.shader_image_gather_extended),
            shader_storage_image_read_without_format: b(c.shader_storage_image_read_without_format),
            shader_storage_image_write_without_format: b(c.shader_storage_image_write_without_format),
            shader_storage_image_extended_formats: b(c.shader_storage_image_extended_formats),
            shader_storage_image_multisample: b(c.shader_storage_image_multisample),
            shader_resource_min_lod: b(c.shader_resource_min_lod),
            image_cube_array: b(c.image_cube_array),
            sampler_anisotropy: b(c.sampler_anisotropy),
            max_sampler_anisotropy: props.max_sampler_anisotropy,
            shader_denorm_preserve_float16: props.denorm_preserve[0],
            shader_denorm_preserve_float32: props.denorm_preserve[1],
            shader_denorm_preserve_float64: props.denorm_preserve[2],
            shader_denorm_flush_to_zero_float16: props.denorm_ftz[0],
            shader_denorm_flush_to_zero_float32: props.denorm_ftz[1],
            shader_denorm_flush_to_zero_float64: props.denorm_ftz[2],
            custom_border_colors: b(self.border.custom_border_colors),
            sample_rate_shading: b(c.sample_rate_shading),
            shader_clip_distance: b(c.shader_clip_distance),
            shader_cull_distance: b(c.shader_cull_distance),
            shader_draw_parameters: b(v11.shader_draw_parameters),
            shader_output_viewport_index: b(v12.shader_output_viewport_index),
            shader_output_layer: b(v12.shader_output_layer),
            multi_viewport: b(c.multi_viewport),
            independent_blend: b(c.independent_blend),
            dual_src_blend: b(c.dual_src_blend),
            depth_clamp: b(c.depth_clamp),
            depth_clip_enable: b(self.depth_clip.depth_clip_enable),
            shader_stencil_export: self.has(ash::ext::shader_stencil_export::NAME),
            fragment_shader_pixel_interlock: b(self.interlock.fragment_shader_pixel_interlock),
            fragment_shader_sample_interlock: b(self.interlock.fragment_shader_sample_interlock),
            fragment_shader_barycentric: b(self.barycentric.fragment_shader_barycentric),
            vertex_attribute_instance_rate_divisor: b(self.divisor.vertex_attribute_instance_rate_divisor),
            synchronization2: v13 && b(self.v13.synchronization2),
            dynamic_rendering: v13 && b(self.v13.dynamic_rendering),
            maintenance4: v13 && b(self.v13.maintenance4),
            timeline_semaphore: b(v12.timeline_semaphore),
        }
    }
}

/// Properties gathered alongside the features.
#[derive(Clone, Debug, Default)]
pub(crate) struct DeviceProps {
    /// `driverName driverInfo` (Vulkan 1.2 driver properties), e.g. `llvmpipe Mesa 25.0.7 (LLVM 15.0.6)`.
    pub driver: String,
    pub subgroup_size: u32,
    pub subgroup_stages: vk::ShaderStageFlags,
    pub subgroup_operations: vk::SubgroupFeatureFlags,
    pub subgroup_quad_all_stages: bool,
    pub min_subgroup_size: u32,
    pub max_subgroup_size: u32,
    pub required_subgroup_size_stages: vk::ShaderStageFlags,
    pub max_transform_feedback_streams: u32,
    pub max_transform_feedback_buffers: u32,
    pub transform_feedback_queries: bool,
    pub transform_feedback_rasterization_stream_select: bool,
    pub max_sampler_anisotropy: f32,
    /// f16, f32, f64.
    pub denorm_preserve: [bool; 3],
    pub denorm_ftz: [bool; 3],
    pub shader_group_handle_size: u32,
    pub shader_group_handle_alignment: u32,
    pub shader_group_base_alignment: u32,
    pub max_shader_group_stride: u32,
    pub max_ray_recursion_depth: u32,
    pub min_acceleration_structure_scratch_offset_alignment: u32,
}

/// Queries [`DeviceProps`] (Vulkan 1.2+ device; 1.3 or the EXT for subgroup size control).
pub(crate) fn query_props(
    instance: &ash::Instance,
    pdev: vk::PhysicalDevice,
    api_version: u32,
    extensions: &[&CStr],
) -> (vk::PhysicalDeviceProperties, DeviceProps) {
    let mut v11 = vk::PhysicalDeviceVulkan11Properties::default();
    let mut v12 = vk::PhysicalDeviceVulkan12Properties::default();
    let mut sgsc = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
    let mut xfb = vk::PhysicalDeviceTransformFeedbackPropertiesEXT::default();
    let has_sgsc = api_version >= vk::API_VERSION_1_3 || extensions.contains(&ash::ext::subgroup_size_control::NAME);
    let has_xfb = extensions.contains(&ash::ext::transform_feedback::NAME);
    let mut rt = vk::PhysicalDeviceRayTracingPipelinePropertiesKHR::default();
    let mut accel = vk::PhysicalDeviceAccelerationStructurePropertiesKHR::default();
    let has_rt = extensions.contains(&ash::khr::ray_tracing_pipeline::NAME);
    let has_accel = extensions.contains(&ash::khr::acceleration_structure::NAME);
    let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut v11).push_next(&mut v12);
    if has_rt {
        p2 = p2.push_next(&mut rt);
    }
    if has_accel {
        p2 = p2.push_next(&mut accel);
    }
    if has_sgsc {
        p2 = p2.push_next(&mut sgsc);
    }
    if has_xfb {
        p2 = p2.push_next(&mut xfb);
    }
    // SAFETY: `pdev` belongs to `instance`; every struct in the chain lives until the call returns.
    unsafe { instance.get_physical_device_properties2(pdev, &mut p2) };
    let base = p2.properties;
    #[allow(dropping_copy_types)]
    drop(p2);
    let driver = format!(
        "{} {}",
        v12.driver_name_as_c_str().map(|c| c.to_string_lossy().into_owned()).unwrap_or_default(),
        v12.driver_info_as_c_str().map(|c| c.to_string_lossy().into_owned()).unwrap_or_default()
    );
    let props = DeviceProps {
        driver: driver.trim().to_string(),
        subgroup_size: v11.subgroup_size,
        subgroup_stages: v11.subgroup_supported_stages,
        subgroup_operations: v11.subgroup_supported_operations,
        subgroup_quad_all_stages: v11.subgroup_quad_operations_in_all_stages != vk::FALSE,
        min_subgroup_size: sgsc.min_subgroup_size,
        max_subgroup_size: sgsc.max_subgroup_size,
        required_subgroup_size_stages: sgsc.required_subgroup_size_stages,
        max_transform_feedback_streams: if has_xfb { xfb.max_transform_feedback_streams } else { 0 },
        max_transform_feedback_buffers: if has_xfb { xfb.max_transform_feedback_buffers } else { 0 },
        transform_feedback_queries: has_xfb && xfb.transform_feedback_queries != vk::FALSE,
        transform_feedback_rasterization_stream_select: has_xfb
            && xfb.transform_feedback_rasterization_stream_select != vk::FALSE,
        max_sampler_anisotropy: base.limits.max_sampler_anisotropy,
        denorm_preserve: [
            v12.shader_denorm_preserve_float16 != vk::FALSE,
            v12.shader_denorm_preserve_float32 != vk::FALSE,
            v12.shader_denorm_preserve_float64 != vk::FALSE,
        ],
        denorm_ftz: [
            v12.shader_denorm_flush_to_zero_float16 != vk::FALSE,
            v12.shader_denorm_flush_to_zero_float32 != vk::FALSE,
            v12.shader_denorm_flush_to_zero_float64 != vk::FALSE,
        ],
        shader_group_handle_size: rt.shader_group_handle_size,
        shader_group_handle_alignment: rt.shader_group_handle_alignment,
        shader_group_base_alignment: rt.shader_group_base_alignment,
        max_shader_group_stride: rt.max_shader_group_stride,
        max_ray_recursion_depth: rt.max_ray_recursion_depth,
        min_acceleration_structure_scratch_offset_alignment: accel.min_acceleration_structure_scratch_offset_alignment,
    };
    (base, props)
}
