//! What the runner needs from a compiler + device, as a trait. The real implementation
//! (`vulkan.rs`, feature `vulkan`) wraps `dxjit::compile` and `dxjit_runtime::Context`; unit tests
//! use a fake. The types mirror the dxjit / dxjit-runtime APIs one to one so the glue stays trivial.

use super::gfx::{CompiledPipeline, DrawJob, DrawOutputs, LinkFailure, LinkStage, PipelineFailure};
// The data types live in `job` (shared with `gfx`); their `backend::` paths stay valid.
pub use super::job::{
    AddressMode, Binding, BorderColor, Bound, CompareOp, CompileFailure, Compiled, DescriptorKind, Filter, Format,
    Geometry, Image, ImageDim, Instance, Job, Outputs, RecordAddress, Resource, ResourceClass, RtGroup, RtJob,
    RtRecord, RtStage, Sampler, Scene, Triangles,
};
use dxjit::binding::{BindingModel, BindingPolicy, PushLayout};
use dxjit::link::LinkOptions;
use std::collections::BTreeSet;

/// What the device offers, in the vocabulary of spec `requires` lists (see SPECS.md).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeviceCaps {
    pub features: BTreeSet<String>,
    /// The subgroup size compute dispatches get by default.
    pub subgroup_size: Option<u32>,
    /// The subgroup sizes a compute dispatch can require (min, max): the device's range with
    /// subgroup size control, else its one size. `None`: not known (every size is tried).
    pub compute_subgroup_sizes: Option<(u32, u32)>,
}

/// The feature names a spec may require.
pub const FEATURES: [&str; 24] = [
    "int64",
    "float64",
    "int16",
    "float16",
    "storage16",
    "int64_atomics",
    "int64_image_atomics",
    "subgroup_basic",
    "subgroup_vote",
    "subgroup_arithmetic",
    "subgroup_ballot",
    "subgroup_shuffle",
    "subgroup_quad",
    "subgroup_size_control",
    "compute_derivatives",
    "denorm_preserve_32",
    "denorm_ftz_32",
    "descriptor_indexing",
    "mesh_shader",
    "task_shader",
    "acceleration_structure",
    "ray_tracing_pipeline",
    "ray_query",
    "fragment_shader_barycentric",
];

/// A compiler plus a device.
pub trait Backend {
    fn device_name(&self) -> String;
    fn caps(&self) -> DeviceCaps;
    fn compile(&self, container: &[u8], entry_point: Option<&str>) -> Result<Compiled, CompileFailure>;

    /// [`Backend::compile`] for a dispatch that runs with `subgroup_size` lanes per subgroup (a
    /// spec's `subgroup_size`; `None`: the device's sizes), which the compile may rely on
    /// (`WaveGetLaneCount`, `[WaveSize]`). Default: `compile`.
    fn compile_for(
        &self,
        container: &[u8],
        entry_point: Option<&str>,
        subgroup_size: Option<u32>,
    ) -> Result<Compiled, CompileFailure> {
        let _ = subgroup_size;
        self.compile(container, entry_point)
    }
    fn run_compute(&self, job: &Job<'_>) -> Result<Outputs, String>;
    /// Validation-layer messages since the last call.
    fn take_validation_messages(&self) -> Vec<String>;

    /// Links a graphics pipeline's stages as D3D12 does at PSO creation (every backend uses the real
    /// linker, `runner::link::link_containers`).
    fn link(&self, stages: &[LinkStage<'_>], opts: &LinkOptions) -> Result<(), LinkFailure>;

    /// Compiles every stage of a linked pipeline. Backends that cannot (no graphics lowering in
    /// this build) answer `Unavailable`, which skips drawn specs.
    fn compile_pipeline(
        &self,
        stages: &[LinkStage<'_>],
        opts: &LinkOptions,
    ) -> Result<CompiledPipeline, PipelineFailure> {
        let _ = (stages, opts);
        Err(PipelineFailure::Unavailable("this backend compiles no graphics pipelines".into()))
    }

    /// Compiles one shader under a D3D12 binding model (root signature + policy: bindless specs);
    /// also answers the root block's layout. Backends without one answer `Unsupported`.
    fn compile_bound(
        &self,
        container: &[u8],
        entry_point: Option<&str>,
        model: std::sync::Arc<dxjit::binding::model::BindingModel>,
    ) -> Result<(Compiled, dxjit::binding::model::PushLayout), CompileFailure> {
        let _ = (container, entry_point, model);
        Err(CompileFailure::Unsupported("this backend has no binding model".into()))
    }

    /// Where a bound spec's resources and root arguments go under `model` (the spec's root
    /// signature and policy): the heap arrays, bounds and counter arrays and static samplers (a
    /// [`BindingPolicy`]) and the root block's words ([`PushLayout`]). Default: dxjit's binding
    /// model as given. A backend whose shaders place resources by other rules (a D3D12 layer's
    /// remap callbacks, `backend/capi/tests/layer_exec.rs`) answers its own, and the runner binds
    /// by it.
    fn bound_layout(&self, model: &BindingModel) -> Result<(BindingPolicy, PushLayout), String> {
        Ok((model.policy, model.push_layout()))
    }

    /// [`Backend::compile_pipeline`] under a D3D12 binding model (every stage against the same
    /// root signature).
    fn compile_pipeline_bound(
        &self,
        stages: &[LinkStage<'_>],
        opts: &LinkOptions,
        model: std::sync::Arc<dxjit::binding::model::BindingModel>,
    ) -> Result<CompiledPipeline, PipelineFailure> {
        let _ = (stages, opts, model);
        Err(PipelineFailure::Unavailable("this backend has no binding model".into()))
    }

    /// One `DispatchRays` through a ray-tracing pipeline.
    fn run_ray_tracing(&self, job: &RtJob) -> Result<Outputs, String> {
        let _ = job;
        Err("this backend traces no rays".into())
    }

    /// One draw; only called after `compile_pipeline` succeeded.
    fn run_graphics(&self, job: &DrawJob<'_>) -> Result<DrawOutputs, String> {
        let _ = job;
        Err("this backend draws nothing".into())
    }
}
