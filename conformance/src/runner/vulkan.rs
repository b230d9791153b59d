//! The real backend: `dxjit::compile` + `dxjit_runtime::Context` (validation on).
//! Pure type conversion; the runner's logic lives elsewhere and is tested with a fake.

use super::backend::{Backend, CompileFailure, Compiled, DeviceCaps, Job, Outputs};
use super::convert::{compile_failure, compiled_of, resource};
use super::gfx::{CompiledPipeline, LinkFailure, LinkStage, PipelineFailure};
#[cfg(feature = "graphics")]
use super::gfx::{DrawJob, DrawOutputs};
use super::link::link_containers;
use dxjit::link::LinkOptions;
use dxjit::{CompileOptions, SubgroupSizeRange};
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

    /// The subgroup sizes a compute dispatch can run with on this device (what a layer sends
    /// as its pipeline state): min..max with subgroup size control, else the one size.
    pub fn compute_subgroup_sizes(&self) -> SubgroupSizeRange {
        let f = self.ctx.features();
        if f.subgroup_size_control
            && f.required_subgroup_size_stages.contains(dxjit_runtime::vk::ShaderStageFlags::COMPUTE)
            && f.min_subgroup_size <= f.max_subgroup_size
        {
            SubgroupSizeRange { min: f.min_subgroup_size, max: f.max_subgroup_size }
        } else {
            SubgroupSizeRange::exactly(f.subgroup_size)
        }
    }

    /// Compute compile options: the device's subgroup sizes, or the one a spec runs with.
    fn compute_options(&self, entry_point: Option<&str>, subgroup_size: Option<u32>) -> CompileOptions {
        let mut o = CompileOptions { entry_point: entry_point.map(str::to_string), ..CompileOptions::default() };
        o.state.subgroup_size =
            Some(subgroup_size.map_or_else(|| self.compute_subgroup_sizes(), SubgroupSizeRange::exactly));
        o
    }

    /// Compile options for a graphics pipeline's stages: `SV_Barycentrics` / `GetAttributeAtVertex`
    /// are lowered where the device has VK_KHR_fragment_shader_barycentric (the runtime enables it
    /// whenever it exists), and refused as Unsupported elsewhere.
    #[cfg(feature = "graphics")]
    fn pipeline_options(&self) -> CompileOptions {
        CompileOptions {
            fragment_barycentrics: self.ctx.features().fragment_shader_barycentric,
            ..CompileOptions::default()
        }
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
    add("acceleration_structure", f.acceleration_structure);
    add("ray_tracing_pipeline", f.ray_tracing_pipeline);
    add("ray_query", f.ray_query);
    add("fragment_shader_barycentric", f.fragment_shader_barycentric);
    // Not a `requires` name: draw specs with stream output run only where this is reported.
    add("stream_output", f.transform_feedback && cfg!(feature = "graphics"));
    caps.subgroup_size = Some(f.subgroup_size);
    let control = f.subgroup_size_control
        && f.required_subgroup_size_stages.contains(vk::ShaderStageFlags::COMPUTE)
        && f.min_subgroup_size <= f.max_subgroup_size;
    caps.compute_subgroup_sizes =
        Some(if control { (f.min_subgroup_size, f.max_subgroup_size) } else { (f.subgroup_size, f.subgroup_size) });
    caps
}

impl Backend for VulkanBackend {
    /// The device and its driver version, e.g. `llvmpipe (LLVM 15.0.6, 256 bits); llvmpipe Mesa
    /// 25.0.7-1~bpo12+1 (LLVM 15.0.6), Vulkan 1.4.305` (the suites print it once per run).
    fn device_name(&self) -> String {
        format!("{}; {}", self.ctx.device_name(), self.ctx.driver_description())
    }

    fn caps(&self) -> DeviceCaps {
        caps_of(self.ctx.features())
    }

    fn compile(&self, container: &[u8], entry_point: Option<&str>) -> Result<Compiled, CompileFailure> {
        self.compile_for(container, entry_point, None)
    }

    fn compile_for(
        &self,
        container: &[u8],
        entry_point: Option<&str>,
        subgroup_size: Option<u32>,
    ) -> Result<Compiled, CompileFailure> {
        let opts = self.compute_options(entry_point, subgroup_size);
        dxjit::compile(container, &opts).map(compiled_of).map_err(compile_failure)
    }

    fn compile_bound(
        &self,
        container: &[u8],
        entry_point: Option<&str>,
        model: std::sync::Arc<dxjit::BindingModel>,
    ) -> Result<(Compiled, dxjit::binding::PushLayout), CompileFailure> {
        let layout = model.push_layout();
        let opts = CompileOptions { bindings: Some(model), ..self.compute_options(entry_point, None) };
        let c = dxjit::compile(container, &opts).map_err(compile_failure)?;
        let layout = c.push_layout.clone().unwrap_or(layout);
        Ok((compiled_of(c), layout))
    }

    #[cfg(feature = "graphics")]
    fn compile_pipeline_bound(
        &self,
        stages: &[LinkStage<'_>],
        opts: &LinkOptions,
        model: std::sync::Arc<dxjit::BindingModel>,
    ) -> Result<CompiledPipeline, PipelineFailure> {
        super::vulkan_gfx::compile_pipeline_with(
            stages,
            opts,
            &CompileOptions { bindings: Some(model), ..self.pipeline_options() },
        )
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
        super::vulkan_gfx::compile_pipeline_with(stages, opts, &self.pipeline_options())
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
            scene: job.scene.as_ref().map(super::convert::scene),
        };
        self.ctx.run_compute(&j).map(|r| r.resources).map_err(|e| e.to_string())
    }

    fn run_ray_tracing(&self, job: &super::job::RtJob) -> Result<Outputs, String> {
        super::convert::run_ray_tracing(&self.ctx, job)
    }

    fn take_validation_messages(&self) -> Vec<String> {
        self.ctx.take_validation_messages()
    }
}
