//! Graphics glue of the Vulkan backend (feature `graphics`): `dxjit::compile_pipeline` for the
//! stages and `dxjit_runtime::Context::run_graphics` for the draw. Pure type conversion, like
//! `vulkan.rs`; hull/domain pipelines need feature `tessellation` as well.

use super::backend::{CompareOp, Format};
use super::convert::{compile_failure, compiled_of, format, resource};
use super::gfx::{
    Clear, CompiledPipeline, Cull, DepthFormat, DrawJob, DrawOutputs, Indices, LinkFailure, LinkStage, PipelineFailure,
    StageSlot, Topology, VertexInput,
};
use dxjit::link::{LinkError, LinkOptions};
use dxjit::{CompileOptions, PipelineError, ShaderKind};
use dxjit_runtime as rt;

fn slot_of(kind: ShaderKind) -> Option<StageSlot> {
    Some(match kind {
        ShaderKind::Vertex => StageSlot::Vs,
        ShaderKind::Hull => StageSlot::Hs,
        ShaderKind::Domain => StageSlot::Ds,
        ShaderKind::Geometry => StageSlot::Gs,
        ShaderKind::Amplification => StageSlot::As,
        ShaderKind::Mesh => StageSlot::Ms,
        ShaderKind::Pixel => StageSlot::Ps,
        _ => return None,
    })
}

pub fn compile_pipeline(stages: &[LinkStage<'_>], opts: &LinkOptions) -> Result<CompiledPipeline, PipelineFailure> {
    compile_pipeline_with(stages, opts, &CompileOptions::default())
}

/// [`compile_pipeline`] with compile options (a binding model for bindless specs).
pub fn compile_pipeline_with(
    stages: &[LinkStage<'_>],
    opts: &LinkOptions,
    compile_opts: &CompileOptions,
) -> Result<CompiledPipeline, PipelineFailure> {
    let tess = stages.iter().any(|s| matches!(s.slot, StageSlot::Hs | StageSlot::Ds));
    if tess && !cfg!(feature = "tessellation") {
        return Err(PipelineFailure::Unavailable("hull/domain lowering is not built (feature `tessellation`)".into()));
    }
    if stages.iter().any(|s| !s.retype.is_empty()) {
        return Err(PipelineFailure::Unavailable("retyped stages exist only for the linker".into()));
    }
    let blobs: Vec<&[u8]> = stages.iter().map(|s| s.container).collect();
    let c = dxjit::compile_pipeline(&blobs, opts, compile_opts).map_err(|e| match e {
        PipelineError::Link(LinkError::Rejected(r)) => PipelineFailure::Link(LinkFailure::Rejected(r)),
        PipelineError::Link(other) => PipelineFailure::Link(LinkFailure::Error(other.to_string())),
        PipelineError::Compile { error, .. } => PipelineFailure::Compile(compile_failure(error)),
        #[allow(unreachable_patterns)]
        other => PipelineFailure::Link(LinkFailure::Error(other.to_string())),
    })?;
    let mut shaders = Vec::with_capacity(c.shaders.len());
    for s in c.shaders {
        let slot = slot_of(s.stage).ok_or_else(|| {
            PipelineFailure::Link(LinkFailure::Error(format!("compile_pipeline returned a {:?} shader", s.stage)))
        })?;
        shaders.push((slot, compiled_of(s)));
    }
    let vertex_input = c
        .plan
        .vertex_input
        .iter()
        .map(|a| VertexInput {
            location: a.location,
            slot: a.binding,
            format: a.format.clone().unwrap_or_default(),
            offset: a.offset,
        })
        .collect();
    Ok(CompiledPipeline { shaders, vertex_input })
}

/// DXGI vertex format names (input layouts) → runtime formats.
fn vertex_format(dxgi: &str) -> Option<rt::Format> {
    use rt::Format as F;
    let l = dxgi.strip_prefix("DXGI_FORMAT_").unwrap_or(dxgi).to_ascii_uppercase();
    Some(match l.as_str() {
        "R32G32B32A32_FLOAT" => F::R32G32B32A32Float,
        "R32G32B32A32_UINT" => F::R32G32B32A32Uint,
        "R32G32B32A32_SINT" => F::R32G32B32A32Sint,
        "R32G32B32_FLOAT" => F::R32G32B32Float,
        "R32G32B32_UINT" => F::R32G32B32Uint,
        "R32G32B32_SINT" => F::R32G32B32Sint,
        "R32G32_FLOAT" => F::R32G32Float,
        "R32G32_UINT" => F::R32G32Uint,
        "R32G32_SINT" => F::R32G32Sint,
        "R32_FLOAT" => F::R32Float,
        "R32_UINT" => F::R32Uint,
        "R32_SINT" => F::R32Sint,
        "R16G16B16A16_FLOAT" => F::R16G16B16A16Float,
        "R16G16B16A16_UNORM" => F::R16G16B16A16Unorm,
        "R16G16B16A16_SNORM" => F::R16G16B16A16Snorm,
        "R16G16B16A16_UINT" => F::R16G16B16A16Uint,
        "R16G16B16A16_SINT" => F::R16G16B16A16Sint,
        "R16G16_FLOAT" => F::R16G16Float,
        "R16G16_UNORM" => F::R16G16Unorm,
        "R16G16_SNORM" => F::R16G16Snorm,
        "R16G16_UINT" => F::R16G16Uint,
        "R16G16_SINT" => F::R16G16Sint,
        "R8G8B8A8_UNORM" => F::R8G8B8A8Unorm,
        "R8G8B8A8_SNORM" => F::R8G8B8A8Snorm,
        "R8G8B8A8_UINT" => F::R8G8B8A8Uint,
        "R8G8B8A8_SINT" => F::R8G8B8A8Sint,
        "B8G8R8A8_UNORM" => F::B8G8R8A8Unorm,
        "R8G8_UNORM" => F::R8G8Unorm,
        "R8G8_UINT" => F::R8G8Uint,
        "R10G10B10A2_UNORM" => F::R10G10B10A2Unorm,
        "R10G10B10A2_UINT" => F::R10G10B10A2Uint,
        _ => return None,
    })
}

fn compare(c: CompareOp) -> rt::CompareOp {
    use rt::CompareOp as C;
    match c {
        CompareOp::Never => C::Never,
        CompareOp::Less => C::Less,
        CompareOp::Equal => C::Equal,
        CompareOp::LessEqual => C::LessEqual,
        CompareOp::Greater => C::Greater,
        CompareOp::NotEqual => C::NotEqual,
        CompareOp::GreaterEqual => C::GreaterEqual,
        CompareOp::Always => C::Always,
    }
}

fn target_format(f: Format) -> rt::Format {
    format(f)
}

pub fn run_graphics(ctx: &rt::Context, job: &DrawJob<'_>) -> Result<DrawOutputs, String> {
    let stages = job
        .stages
        .iter()
        .map(|(slot, spirv, entry)| rt::ShaderStage {
            stage: match slot {
                StageSlot::Vs => rt::Stage::Vertex,
                StageSlot::Hs => rt::Stage::TessControl,
                StageSlot::Ds => rt::Stage::TessEval,
                StageSlot::Gs => rt::Stage::Geometry,
                StageSlot::As => rt::Stage::Task,
                StageSlot::Ms => rt::Stage::Mesh,
                StageSlot::Ps => rt::Stage::Fragment,
            },
            spirv,
            entry_point: entry,
        })
        .collect();
    let color_targets: Vec<rt::ColorTarget> = job
        .targets
        .iter()
        .map(|t| {
            let mut c = rt::ColorTarget::new(target_format(t.format), t.width, t.height);
            c.layers = t.layers;
            c.samples = t.samples;
            c.clear = match t.clear {
                Clear::Float(v) => rt::ClearColor::Float(v),
                Clear::Uint(v) => rt::ClearColor::Uint(v),
                Clear::Sint(v) => rt::ClearColor::Sint(v),
            };
            c
        })
        .collect();
    let (w, h, layers) = job.targets.first().map(|t| (t.width, t.height, t.layers)).unwrap_or((1, 1, 1));
    let samples = job.targets.first().map_or(1, |t| t.samples);
    let mut g = rt::GraphicsJob::new(stages, color_targets, job.draw.count);
    g.vertex_buffers = job
        .vertex_buffers
        .iter()
        .map(|v| rt::VertexBuffer {
            binding: v.slot,
            stride: v.stride,
            per_instance: v.per_instance,
            data: v.data.clone(),
        })
        .collect();
    g.vertex_attributes = job
        .vertex_attributes
        .iter()
        .map(|a| {
            Ok(rt::VertexAttribute {
                location: a.location,
                binding: a.slot,
                format: vertex_format(&a.format).ok_or_else(|| format!("vertex format {} not mapped", a.format))?,
                offset: a.offset,
            })
        })
        .collect::<Result<_, String>>()?;
    g.index_buffer = job.indices.as_ref().map(|i| match i {
        Indices::U16(v) => rt::IndexBuffer::U16(v.clone()),
        Indices::U32(v) => rt::IndexBuffer::U32(v.clone()),
    });
    g.topology = match job.topology {
        Topology::PointList => rt::Topology::PointList,
        Topology::LineList => rt::Topology::LineList,
        Topology::LineStrip => rt::Topology::LineStrip,
        Topology::TriangleList => rt::Topology::TriangleList,
        Topology::TriangleStrip => rt::Topology::TriangleStrip,
        Topology::LineListAdj => rt::Topology::LineListWithAdjacency,
        Topology::LineStripAdj => rt::Topology::LineStripWithAdjacency,
        Topology::TriangleListAdj => rt::Topology::TriangleListWithAdjacency,
        Topology::TriangleStripAdj => rt::Topology::TriangleStripWithAdjacency,
        Topology::PatchList(n) => {
            g.patch_control_points = n;
            rt::Topology::PatchList
        }
    };
    g.mesh_tasks = job.dispatch_mesh;
    g.specialization = job.specialization.clone();
    g.scene = job.scene.as_ref().map(super::convert::scene);
    g.draw = rt::Draw {
        count: job.draw.count,
        instance_count: job.draw.instances,
        first: job.draw.first,
        vertex_offset: job.draw.base_vertex,
        first_instance: job.draw.first_instance,
    };
    g.depth_stencil = job.depth.as_ref().map(|d| {
        let f = match d.format {
            DepthFormat::D32Float => rt::Format::D32Float,
            DepthFormat::D16Unorm => rt::Format::D16Unorm,
            DepthFormat::D24UnormS8Uint => rt::Format::D24UnormS8Uint,
            DepthFormat::D32FloatS8Uint => rt::Format::D32FloatS8Uint,
        };
        let mut t = rt::DepthStencilTarget::new(f, w, h);
        t.layers = layers;
        t.samples = samples;
        t.clear_depth = d.clear_depth;
        t.clear_stencil = d.clear_stencil;
        t.depth_test = d.depth_test;
        t.depth_write = d.depth_write;
        t.depth_compare = compare(d.depth_func);
        t
    });
    g.rasterizer = rt::Rasterizer {
        cull: match job.rasterizer.cull {
            Cull::None => rt::CullMode::None,
            Cull::Front => rt::CullMode::Front,
            Cull::Back => rt::CullMode::Back,
        },
        front_ccw: job.rasterizer.front_ccw,
        fill: if job.rasterizer.wireframe { rt::FillMode::Wireframe } else { rt::FillMode::Solid },
        depth_clamp: !job.rasterizer.depth_clip,
        ..rt::Rasterizer::default()
    };
    g.resources = job
        .resources
        .iter()
        .map(|r| rt::BoundResource {
            set: r.set,
            binding: r.binding,
            array_index: r.array_index,
            resource: resource(&r.resource),
        })
        .collect();
    g.push_constants = job.push_constants.clone();
    g.multisample.sample_mask = job.sample_mask;
    g.layered_render = job.layered;
    // Stream output: one capture buffer per slot (strides and offsets are in the SPIR-V); without it,
    // D3D12_SO_NO_RASTERIZED_STREAM still turns rasterization off.
    let xfb_buffers: Vec<rt::XfbBuffer> = job
        .stream_output
        .as_ref()
        .map(|so| so.sizes.iter().map(|&size| rt::XfbBuffer { size }).collect())
        .unwrap_or_default();
    if job.stream_output.is_some() || job.rasterized_stream.is_none() {
        g.transform_feedback =
            Some(rt::TransformFeedback { buffers: xfb_buffers, rasterization_stream: job.rasterized_stream });
    }
    // No render target and no depth (a stream-output-only draw): nothing rasterized is observable,
    // so any viewport will do; the runtime wants one to size the render area.
    if job.targets.is_empty() && job.depth.is_none() {
        g.viewport = Some(rt::Viewport { x: 0.0, y: 0.0, width: 1.0, height: 1.0, min_depth: 0.0, max_depth: 1.0 });
    }
    g.statistics = job.statistics;
    let r = ctx.run_graphics(&g).map_err(|e| e.to_string())?;
    let f = ctx.features();
    let statistics = r.stats.map(|st| {
        use super::gfx::Counter as C;
        let mut values = vec![
            (C::IaVertices, st.input_assembly_vertices),
            (C::IaPrimitives, st.input_assembly_primitives),
            (C::VsInvocations, st.vertex_shader_invocations),
            (C::CInvocations, st.clipping_invocations),
            (C::CPrimitives, st.clipping_primitives),
            (C::PsInvocations, st.fragment_shader_invocations),
        ];
        if f.geometry_shader {
            values.extend([
                (C::GsInvocations, st.geometry_shader_invocations),
                (C::GsPrimitives, st.geometry_shader_primitives),
            ]);
        }
        if f.tessellation_shader {
            values.extend([
                (C::HsInvocations, st.tess_control_shader_patches),
                (C::DsInvocations, st.tess_evaluation_shader_invocations),
            ]);
        }
        super::gfx::Statistics { values }
    });
    Ok(DrawOutputs {
        color: r.color,
        depth: r.depth,
        stencil: r.stencil,
        resources: r.resources,
        stream_output: r.xfb,
        statistics,
    })
}
