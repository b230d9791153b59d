//! Conversions between the runner's vocabulary (`backend`, `job`) and the dxjit / dxjit-runtime
//! types, used by the compute backend (`vulkan`) and the graphics one (`vulkan_gfx`) alike.

use super::backend as b;
use super::backend::{CompileFailure, Compiled};
use dxjit::{CompileError, DescriptorKind, ResourceClass, ShaderKind};

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
        DescriptorKind::AccelerationStructure => b::DescriptorKind::AccelerationStructure,
        DescriptorKind::PushConstant => b::DescriptorKind::PushConstant,
    }
}

pub fn format(f: b::Format) -> dxjit_runtime::Format {
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

pub fn resource(r: &b::Resource) -> dxjit_runtime::ResourceDesc {
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
        b::Resource::AddressBuffer { data, push_offset } => {
            R::AddressBuffer { data: data.clone(), push_offset: *push_offset }
        }
        b::Resource::AccelerationStructure => R::AccelerationStructure,
        b::Resource::AccelerationStructureAddress { push_offset } => {
            R::AccelerationStructureAddress { push_offset: *push_offset }
        }
        b::Resource::Null(d) => R::Null(runtime_descriptor(*d)),
    }
}

fn runtime_descriptor(d: b::DescriptorKind) -> dxjit_runtime::reflect::DescriptorKind {
    use dxjit_runtime::reflect::DescriptorKind as R;
    match d {
        b::DescriptorKind::UniformBuffer => R::UniformBuffer,
        b::DescriptorKind::StorageBuffer | b::DescriptorKind::PushConstant => R::StorageBuffer,
        b::DescriptorKind::UniformTexelBuffer => R::UniformTexelBuffer,
        b::DescriptorKind::StorageTexelBuffer => R::StorageTexelBuffer,
        b::DescriptorKind::SampledImage => R::SampledImage,
        b::DescriptorKind::StorageImage => R::StorageImage,
        b::DescriptorKind::Sampler => R::Sampler,
        b::DescriptorKind::AccelerationStructure => R::AccelerationStructure,
    }
}

pub fn compile_failure(e: CompileError) -> CompileFailure {
    match e {
        CompileError::Unsupported { .. } => CompileFailure::Unsupported(e.to_string()),
        CompileError::Malformed(_) | CompileError::Binding(_) => CompileFailure::Malformed(e.to_string()),
        CompileError::Internal(_) => CompileFailure::Internal(e.to_string()),
    }
}

/// The runtime's scene for a runner scene.
pub fn scene(s: &b::Scene) -> dxjit_runtime::Scene {
    use dxjit_runtime as r;
    r::Scene {
        blas: s
            .blas
            .iter()
            .map(|geoms| r::Blas {
                geometries: geoms
                    .iter()
                    .map(|g| r::Geometry {
                        kind: match &g.triangles {
                            Some(t) => r::GeometryKind::Triangles {
                                vertices: t.vertices.clone(),
                                indices: t.indices.clone(),
                                transform: t.transform,
                            },
                            None => r::GeometryKind::Aabbs(g.aabbs.clone()),
                        },
                        opaque: g.opaque,
                        no_duplicate_any_hit: g.no_duplicate_any_hit,
                    })
                    .collect(),
            })
            .collect(),
        instances: s
            .instances
            .iter()
            .map(|i| r::Instance {
                blas: i.blas,
                transform: i.transform,
                custom_index: i.id,
                mask: i.mask,
                sbt_offset: i.hit_group_offset,
                flags: i.flags,
            })
            .collect(),
    }
}

pub fn compiled_of(c: dxjit::CompiledShader) -> Compiled {
    Compiled {
        stage: c.stage.name(),
        shader_record: c.shader_record.clone(),
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
        sample_count_spec_id: c.sample_count_spec_id,
        required_subgroup_size: c.required_subgroup_size,
        spirv: c.spirv,
        entry_point: c.entry_point,
    }
}

/// Runs a runner ray-tracing job on the runtime.
pub fn run_ray_tracing(ctx: &dxjit_runtime::Context, job: &b::RtJob) -> Result<b::Outputs, String> {
    use dxjit_runtime as r;
    let stage = |s: b::RtStage| match s {
        b::RtStage::RayGeneration => r::RtStage::RayGeneration,
        b::RtStage::Miss => r::RtStage::Miss,
        b::RtStage::ClosestHit => r::RtStage::ClosestHit,
        b::RtStage::AnyHit => r::RtStage::AnyHit,
        b::RtStage::Intersection => r::RtStage::Intersection,
        b::RtStage::Callable => r::RtStage::Callable,
    };
    let record = |rec: &b::RtRecord| r::ShaderRecord {
        group: rec.group,
        data: rec.data.clone(),
        patches: rec
            .patches
            .iter()
            .map(|(at, a)| {
                (
                    *at,
                    match *a {
                        b::RecordAddress::Resource { index, offset } => r::AddressOf::Resource { index, offset },
                        b::RecordAddress::Tlas => r::AddressOf::Tlas,
                    },
                )
            })
            .collect(),
    };
    let j = r::RayTracingJob {
        shaders: job
            .shaders
            .iter()
            .map(|(s, spirv, name)| r::RtShader { stage: stage(*s), spirv, entry_point: name })
            .collect(),
        groups: job
            .groups
            .iter()
            .map(|g| match *g {
                b::RtGroup::General(k) => r::ShaderGroup::General(k),
                b::RtGroup::Triangles { closest_hit, any_hit } => r::ShaderGroup::Triangles { closest_hit, any_hit },
                b::RtGroup::Procedural { intersection, closest_hit, any_hit } => {
                    r::ShaderGroup::Procedural { intersection, closest_hit, any_hit }
                }
            })
            .collect(),
        max_recursion_depth: job.max_recursion,
        raygen: record(&job.raygen),
        miss: job.miss.iter().map(record).collect(),
        hit: job.hit.iter().map(record).collect(),
        callable: job.callable.iter().map(record).collect(),
        resources: job
            .resources
            .iter()
            .map(|b| r::BoundResource {
                set: b.set,
                binding: b.binding,
                array_index: b.array_index,
                resource: resource(&b.resource),
            })
            .collect(),
        push_constants: job.push_constants.clone(),
        scene: job.scene.as_ref().map(scene),
        dispatch: job.dispatch,
    };
    ctx.run_ray_tracing(&j).map(|res| res.resources).map_err(|e| e.to_string())
}
