//! The real backend: `dxjit::compile` + `dxjit_runtime::Context` (validation on).
//! Pure type conversion; the runner's logic lives elsewhere and is tested with a fake.

use super::backend as b;
use super::backend::{Backend, CompileFailure, Compiled, DeviceCaps, Job, Outputs};
use super::gfx::{CompiledPipeline, LinkFailure, LinkStage, PipelineFailure};
#[cfg(feature = "graphics")]
use super::gfx::{DrawJob, DrawOutputs};
use super::link::link_containers;
use dxjit::link::LinkOptions;
use dxjit::{CompileError, CompileOptions, DescriptorKind, ResourceClass, ShaderKind};
use dxjit_runtime::{ComputeJob, Context, ContextOptions, DeviceFeatures};

pub struct VulkanBackend {
    ctx: Context,
}

impl VulkanBackend {
    /// Opens a device (`device` picks one by name substring), with validation on.
    pub fn new(device: Option<String>) -> Result<VulkanBackend, String> {
        let ctx = Context::new(&ContextOptions { validation: true, device }).map_err(|e| e.to_string())?;
        Ok(VulkanBackend { ctx })
    }
}

/// Maps the runtime's feature report onto the spec vocabulary (backend::FEATURES).
fn caps_of(f: &DeviceFeatures) -> DeviceCaps {
    use dxjit_runtime::vk;
    let mut caps = DeviceCaps::default();
    let mut add = |name: &str, on: bool| {
        if on {
            caps.features.insert(name.to_string());
        }
    };
    let ext = |name: &str| f.extensions.iter().any(|e| e == name);
    let compute = f.subgroup_supported_stages.contains(vk::ShaderStageFlags::COMPUTE);
    let op = |o: vk::SubgroupFeatureFlags| compute && f.subgroup_supported_operations.contains(o);
    add("int64", f.shader_int64);
    add("float64", f.shader_float64);
    add("int16", f.shader_int16);
    add("float16", f.shader_float16);
    add("storage16", f.storage_buffer_16bit_access);
    add("int64_atomics", f.shader_buffer_int64_atomics);
    add("int64_image_atomics", ext("VK_EXT_shader_image_atomic_int64"));
    add("subgroup_basic", op(vk::SubgroupFeatureFlags::BASIC));
    add("subgroup_vote", op(vk::SubgroupFeatureFlags::VOTE));
    add("subgroup_arithmetic", op(vk::SubgroupFeatureFlags::ARITHMETIC));
    add("subgroup_ballot", op(vk::SubgroupFeatureFlags::BALLOT));
    add("subgroup_shuffle", op(vk::SubgroupFeatureFlags::SHUFFLE));
    add("subgroup_quad", op(vk::SubgroupFeatureFlags::QUAD));
    add("subgroup_size_control", f.subgroup_size_control);
    add("compute_derivatives", ext("VK_NV_compute_shader_derivatives") || ext("VK_KHR_compute_shader_derivatives"));
    add("denorm_preserve_32", f.shader_denorm_preserve_float32);
    add("denorm_ftz_32", f.shader_denorm_flush_to_zero_float32);
    add("descriptor_indexing", f.runtime_descriptor_array);
    add("mesh_shader", f.mesh_shader);
    add("task_shader", f.task_shader);
    // Not a `requires` name: draw specs with stream output run only where this is reported.
    add("stream_output", f.transform_feedback && cfg!(feature = "graphics"));
    caps.subgroup_size = Some(f.subgroup_size);
    caps
}

fn class(c: ResourceClass) -> b::ResourceClass {
    match c {
        ResourceClass::Srv => b::ResourceClass::Srv,
        ResourceClass::Uav => b::ResourceClass::Uav,
        ResourceClass::Cbv => b::ResourceClass::Cbv,
        ResourceClass::Sampler => b::ResourceClass::Sampler,
    }
}

fn descriptor(d: DescriptorKind) -> b::DescriptorKind {
    match d {
        DescriptorKind::UniformBuffer => b::DescriptorKind::UniformBuffer,
        DescriptorKind::StorageBuffer => b::DescriptorKind::StorageBuffer,
        DescriptorKind::UniformTexelBuffer => b::DescriptorKind::UniformTexelBuffer,
        DescriptorKind::StorageTexelBuffer => b::DescriptorKind::StorageTexelBuffer,
        DescriptorKind::SampledImage => b::DescriptorKind::SampledImage,
        DescriptorKind::StorageImage => b::DescriptorKind::StorageImage,
        DescriptorKind::Sampler => b::DescriptorKind::Sampler,
        DescriptorKind::PushConstant => b::DescriptorKind::PushConstant,
    }
}

pub(crate) fn format(f: b::Format) -> dxjit_runtime::Format {
    use dxjit_runtime::Format as F;
    match f {
        b::Format::R32Uint => F::R32Uint,
        b::Format::R32Sint => F::R32Sint,
        b::Format::R32Float => F::R32Float,
        b::Format::R32G32Uint => F::R32G32Uint,
        b::Format::R32G32Float => F::R32G32Float,
        b::Format::R32G32B32A32Uint => F::R32G32B32A32Uint,
        b::Format::R32G32B32A32Sint => F::R32G32B32A32Sint,
        b::Format::R32G32B32A32Float => F::R32G32B32A32Float,
        b::Format::R16Float => F::R16Float,
        b::Format::R16Uint => F::R16Uint,
        b::Format::R16G16B16A16Float => F::R16G16B16A16Float,
        b::Format::R8Unorm => F::R8Unorm,
        b::Format::R8Uint => F::R8Uint,
        b::Format::R8G8B8A8Unorm => F::R8G8B8A8Unorm,
        b::Format::R8G8B8A8Uint => F::R8G8B8A8Uint,
        b::Format::R8G8B8A8Snorm => F::R8G8B8A8Snorm,
        b::Format::B8G8R8A8Unorm => F::B8G8R8A8Unorm,
    }
}

fn image(i: &b::Image) -> dxjit_runtime::ImageDesc {
    use dxjit_runtime::ImageDim as D;
    dxjit_runtime::ImageDesc {
        dim: match i.dim {
            b::ImageDim::D1 => D::D1,
            b::ImageDim::D2 => D::D2,
            b::ImageDim::D3 => D::D3,
            b::ImageDim::Cube => D::Cube,
        },
        format: format(i.format),
        width: i.width,
        height: i.height,
        depth: i.depth,
        layers: i.layers,
        mips: i.mips,
        samples: i.samples,
        data: i.data.clone(),
    }
}

fn sampler(s: &b::Sampler) -> dxjit_runtime::SamplerDesc {
    use dxjit_runtime::{AddressMode as A, BorderColor as Bc, CompareOp as C, Filter as Fi};
    dxjit_runtime::SamplerDesc {
        filter: match s.filter {
            b::Filter::Point => Fi::Point,
            b::Filter::Linear => Fi::Linear,
        },
        address: match s.address {
            b::AddressMode::Wrap => A::Wrap,
            b::AddressMode::Clamp => A::Clamp,
            b::AddressMode::Mirror => A::Mirror,
            b::AddressMode::Border => A::Border,
        },
        compare: s.compare.map(|c| match c {
            b::CompareOp::Never => C::Never,
            b::CompareOp::Less => C::Less,
            b::CompareOp::Equal => C::Equal,
            b::CompareOp::LessEqual => C::LessEqual,
            b::CompareOp::Greater => C::Greater,
            b::CompareOp::NotEqual => C::NotEqual,
            b::CompareOp::GreaterEqual => C::GreaterEqual,
            b::CompareOp::Always => C::Always,
        }),
        border: match s.border {
            b::BorderColor::TransparentBlack => Bc::TransparentBlack,
            b::BorderColor::OpaqueBlack => Bc::OpaqueBlack,
            b::BorderColor::OpaqueWhite => Bc::OpaqueWhite,
        },
        min_lod: s.min_lod,
        max_lod: s.max_lod,
        mip_lod_bias: s.mip_lod_bias,
        anisotropy: s.anisotropy,
    }
}

pub(crate) fn resource(r: &b::Resource) -> dxjit_runtime::ResourceDesc {
    use dxjit_runtime::ResourceDesc as R;
    match r {
        b::Resource::UniformBuffer { data } => R::UniformBuffer { data: data.clone() },
        b::Resource::StorageBuffer { data } => R::StorageBuffer { data: data.clone() },
        b::Resource::UniformTexelBuffer { format: f, data } => {
            R::UniformTexelBuffer { format: format(*f), data: data.clone() }
        }
        b::Resource::StorageTexelBuffer { format: f, data } => {
            R::StorageTexelBuffer { format: format(*f), data: data.clone() }
        }
        b::Resource::SampledImage(i) => R::SampledImage(image(i)),
        b::Resource::StorageImage(i) => R::StorageImage(image(i)),
        b::Resource::Sampler(s) => R::Sampler(sampler(s)),
    }
}

pub(crate) fn compile_failure(e: CompileError) -> CompileFailure {
    match e {
        CompileError::Unsupported { .. } => CompileFailure::Unsupported(e.to_string()),
        CompileError::Malformed(_) => CompileFailure::Malformed(e.to_string()),
        CompileError::Internal(_) => CompileFailure::Internal(e.to_string()),
    }
}

pub(crate) fn compiled_of(c: dxjit::CompiledShader) -> Compiled {
    Compiled {
        is_compute: c.stage == ShaderKind::Compute,
        workgroup_size: c.workgroup_size,
        push_constant_size: c.push_constants.as_ref().map(|p| p.size),
        bindings: c
            .bindings
            .iter()
            .map(|r| b::Binding {
                class: class(r.class),
                space: r.space,
                lower_bound: r.lower_bound,
                count: r.count,
                set: r.set,
                binding: r.binding,
                descriptor: descriptor(r.descriptor),
                kind: r.kind.clone(),
                has_counter: r.has_counter,
                counter_binding: r.counter_binding,
            })
            .collect(),
        uses_descriptor_heaps: !c.heap_bindings.is_empty(),
        spirv: c.spirv,
        entry_point: c.entry_point,
    }
}

impl Backend for VulkanBackend {
    fn device_name(&self) -> String {
        self.ctx.device_name().to_string()
    }

    fn caps(&self) -> DeviceCaps {
        caps_of(self.ctx.features())
    }

    fn compile(&self, container: &[u8], entry_point: Option<&str>) -> Result<Compiled, CompileFailure> {
        let opts = CompileOptions { entry_point: entry_point.map(str::to_string), ..CompileOptions::default() };
        dxjit::compile(container, &opts).map(compiled_of).map_err(compile_failure)
    }

    fn link(&self, stages: &[LinkStage<'_>], opts: &LinkOptions) -> Result<(), LinkFailure> {
        link_containers(stages, opts).map(|_| ())
    }

    #[cfg(feature = "graphics")]
    fn compile_pipeline(
        &self,
        stages: &[LinkStage<'_>],
        opts: &LinkOptions,
    ) -> Result<CompiledPipeline, PipelineFailure> {
        super::vulkan_gfx::compile_pipeline(stages, opts)
    }

    #[cfg(not(feature = "graphics"))]
    fn compile_pipeline(
        &self,
        stages: &[LinkStage<'_>],
        opts: &LinkOptions,
    ) -> Result<CompiledPipeline, PipelineFailure> {
        let _ = (stages, opts);
        Err(PipelineFailure::Unavailable("graphics lowering is not built (feature `graphics`)".into()))
    }

    #[cfg(feature = "graphics")]
    fn run_graphics(&self, job: &DrawJob<'_>) -> Result<DrawOutputs, String> {
        super::vulkan_gfx::run_graphics(&self.ctx, job)
    }

    fn run_compute(&self, job: &Job<'_>) -> Result<Outputs, String> {
        let j = ComputeJob {
            spirv: job.spirv,
            entry_point: job.entry_point,
            resources: job
                .resources
                .iter()
                .map(|r| dxjit_runtime::BoundResource {
                    set: r.set,
                    binding: r.binding,
                    array_index: r.array_index,
                    resource: resource(&r.resource),
                })
                .collect(),
            push_constants: job.push_constants.clone(),
            dispatch: job.dispatch,
            required_subgroup_size: job.required_subgroup_size,
        };
        self.ctx.run_compute(&j).map(|r| r.resources).map_err(|e| e.to_string())
    }

    fn take_validation_messages(&self) -> Vec<String> {
        self.ctx.take_validation_messages()
    }
}
