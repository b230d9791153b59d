//! Fixed-function state of a graphics job in Vulkan terms, its checks against the device's features,
//! and the creation of the graphics pipeline (dynamic rendering: no render pass object).

use std::ffi::CString;

use ash::vk;

use super::{BlendFactor, BlendOp, CullMode, FillMode, GraphicsJob, Stage, StencilFace, StencilOp, Topology, Viewport};
use crate::features::DeviceFeatures;
use crate::scratch::Scratch;
use crate::RuntimeError;

pub(super) fn unsupported(what: impl Into<String>) -> RuntimeError {
    RuntimeError::Unsupported(what.into())
}

pub(super) fn invalid(what: impl Into<String>) -> RuntimeError {
    RuntimeError::InvalidJob(what.into())
}

impl Stage {
    pub(super) fn vk(self) -> vk::ShaderStageFlags {
        match self {
            Stage::Vertex => vk::ShaderStageFlags::VERTEX,
            Stage::TessControl => vk::ShaderStageFlags::TESSELLATION_CONTROL,
            Stage::TessEval => vk::ShaderStageFlags::TESSELLATION_EVALUATION,
            Stage::Geometry => vk::ShaderStageFlags::GEOMETRY,
            Stage::Task => vk::ShaderStageFlags::TASK_EXT,
            Stage::Mesh => vk::ShaderStageFlags::MESH_EXT,
            Stage::Fragment => vk::ShaderStageFlags::FRAGMENT,
        }
    }

    pub(super) fn pipeline_stage(self) -> vk::PipelineStageFlags {
        match self {
            Stage::Vertex => vk::PipelineStageFlags::VERTEX_SHADER,
            Stage::TessControl => vk::PipelineStageFlags::TESSELLATION_CONTROL_SHADER,
            Stage::TessEval => vk::PipelineStageFlags::TESSELLATION_EVALUATION_SHADER,
            Stage::Geometry => vk::PipelineStageFlags::GEOMETRY_SHADER,
            Stage::Task => vk::PipelineStageFlags::TASK_SHADER_EXT,
            Stage::Mesh => vk::PipelineStageFlags::MESH_SHADER_EXT,
            Stage::Fragment => vk::PipelineStageFlags::FRAGMENT_SHADER,
        }
    }

    /// SPIR-V execution model of the stage.
    pub(super) fn execution_model(self) -> u32 {
        match self {
            Stage::Vertex => 0,
            Stage::TessControl => 1,
            Stage::TessEval => 2,
            Stage::Geometry => 3,
            Stage::Fragment => 4,
            Stage::Task => 5364,
            Stage::Mesh => 5365,
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::TessControl => "tessellation control",
            Stage::TessEval => "tessellation evaluation",
            Stage::Geometry => "geometry",
            Stage::Task => "task",
            Stage::Mesh => "mesh",
            Stage::Fragment => "fragment",
        }
    }
}

impl Topology {
    fn vk(self) -> vk::PrimitiveTopology {
        match self {
            Topology::PointList => vk::PrimitiveTopology::POINT_LIST,
            Topology::LineList => vk::PrimitiveTopology::LINE_LIST,
            Topology::LineStrip => vk::PrimitiveTopology::LINE_STRIP,
            Topology::TriangleList => vk::PrimitiveTopology::TRIANGLE_LIST,
            Topology::TriangleStrip => vk::PrimitiveTopology::TRIANGLE_STRIP,
            Topology::LineListWithAdjacency => vk::PrimitiveTopology::LINE_LIST_WITH_ADJACENCY,
            Topology::LineStripWithAdjacency => vk::PrimitiveTopology::LINE_STRIP_WITH_ADJACENCY,
            Topology::TriangleListWithAdjacency => vk::PrimitiveTopology::TRIANGLE_LIST_WITH_ADJACENCY,
            Topology::TriangleStripWithAdjacency => vk::PrimitiveTopology::TRIANGLE_STRIP_WITH_ADJACENCY,
            Topology::PatchList => vk::PrimitiveTopology::PATCH_LIST,
        }
    }

    fn is_strip(self) -> bool {
        matches!(
            self,
            Topology::LineStrip
                | Topology::TriangleStrip
                | Topology::LineStripWithAdjacency
                | Topology::TriangleStripWithAdjacency
        )
    }
}

impl BlendFactor {
    fn vk(self) -> vk::BlendFactor {
        match self {
            BlendFactor::Zero => vk::BlendFactor::ZERO,
            BlendFactor::One => vk::BlendFactor::ONE,
            BlendFactor::SrcColor => vk::BlendFactor::SRC_COLOR,
            BlendFactor::InvSrcColor => vk::BlendFactor::ONE_MINUS_SRC_COLOR,
            BlendFactor::SrcAlpha => vk::BlendFactor::SRC_ALPHA,
            BlendFactor::InvSrcAlpha => vk::BlendFactor::ONE_MINUS_SRC_ALPHA,
            BlendFactor::DstAlpha => vk::BlendFactor::DST_ALPHA,
            BlendFactor::InvDstAlpha => vk::BlendFactor::ONE_MINUS_DST_ALPHA,
            BlendFactor::DstColor => vk::BlendFactor::DST_COLOR,
            BlendFactor::InvDstColor => vk::BlendFactor::ONE_MINUS_DST_COLOR,
            BlendFactor::SrcAlphaSat => vk::BlendFactor::SRC_ALPHA_SATURATE,
            BlendFactor::Constant => vk::BlendFactor::CONSTANT_COLOR,
            BlendFactor::InvConstant => vk::BlendFactor::ONE_MINUS_CONSTANT_COLOR,
            BlendFactor::Src1Color => vk::BlendFactor::SRC1_COLOR,
            BlendFactor::InvSrc1Color => vk::BlendFactor::ONE_MINUS_SRC1_COLOR,
            BlendFactor::Src1Alpha => vk::BlendFactor::SRC1_ALPHA,
            BlendFactor::InvSrc1Alpha => vk::BlendFactor::ONE_MINUS_SRC1_ALPHA,
        }
    }

    fn dual_source(self) -> bool {
        matches!(
            self,
            BlendFactor::Src1Color | BlendFactor::InvSrc1Color | BlendFactor::Src1Alpha | BlendFactor::InvSrc1Alpha
        )
    }
}

impl BlendOp {
    fn vk(self) -> vk::BlendOp {
        match self {
            BlendOp::Add => vk::BlendOp::ADD,
            BlendOp::Subtract => vk::BlendOp::SUBTRACT,
            BlendOp::RevSubtract => vk::BlendOp::REVERSE_SUBTRACT,
            BlendOp::Min => vk::BlendOp::MIN,
            BlendOp::Max => vk::BlendOp::MAX,
        }
    }
}

impl StencilOp {
    fn vk(self) -> vk::StencilOp {
        match self {
            StencilOp::Keep => vk::StencilOp::KEEP,
            StencilOp::Zero => vk::StencilOp::ZERO,
            StencilOp::Replace => vk::StencilOp::REPLACE,
            StencilOp::IncrSat => vk::StencilOp::INCREMENT_AND_CLAMP,
            StencilOp::DecrSat => vk::StencilOp::DECREMENT_AND_CLAMP,
            StencilOp::Invert => vk::StencilOp::INVERT,
            StencilOp::Incr => vk::StencilOp::INCREMENT_AND_WRAP,
            StencilOp::Decr => vk::StencilOp::DECREMENT_AND_WRAP,
        }
    }
}

fn stencil_face(f: &StencilFace, read_mask: u8, write_mask: u8, reference: u8) -> vk::StencilOpState {
    vk::StencilOpState {
        fail_op: f.fail.vk(),
        pass_op: f.pass.vk(),
        depth_fail_op: f.depth_fail.vk(),
        compare_op: f.compare.vk(),
        compare_mask: u32::from(read_mask),
        write_mask: u32::from(write_mask),
        reference: u32::from(reference),
    }
}

/// The D3D viewport as a Vulkan viewport with negative height (origin at the bottom edge), so that
/// clip-space +Y points up on the target as in D3D.
pub(super) fn flipped_viewport(v: &Viewport) -> vk::Viewport {
    vk::Viewport {
        x: v.x,
        y: v.y + v.height,
        width: v.width,
        height: -v.height,
        min_depth: v.min_depth,
        max_depth: v.max_depth,
    }
}

/// Formats and sample count of the render targets, as the pipeline needs them.
pub(super) struct TargetFormats {
    pub(super) color: Vec<vk::Format>,
    pub(super) depth: vk::Format,
    pub(super) stencil: vk::Format,
    pub(super) samples: vk::SampleCountFlags,
}

/// One created shader stage.
pub(super) struct StageModule {
    pub(super) stage: Stage,
    pub(super) module: vk::ShaderModule,
    pub(super) entry: CString,
}

/// Checks the fixed-function state of `job` against the device (everything that can be refused before
/// creating Vulkan objects).
pub(super) fn check_state(
    job: &GraphicsJob<'_>,
    f: &DeviceFeatures,
    limits: &vk::PhysicalDeviceLimits,
) -> Result<(), RuntimeError> {
    let has = |s: Stage| job.stages.iter().any(|x| x.stage == s);
    let tess = has(Stage::TessControl) || has(Stage::TessEval);
    if has(Stage::Mesh) {
        let Some(n) = job.mesh_tasks else { return Err(invalid("a mesh pipeline needs mesh_tasks")) };
        if n.contains(&0) {
            return Err(invalid(format!("mesh_tasks {n:?} has a zero dimension")));
        }
    } else if job.mesh_tasks.is_some() {
        return Err(invalid("mesh_tasks without a mesh stage"));
    }
    if (job.topology == Topology::PatchList) != tess {
        return Err(invalid("tessellation stages need Topology::PatchList and PatchList needs tessellation stages"));
    }
    if tess {
        let max = limits.max_tessellation_patch_size;
        if job.patch_control_points == 0 || job.patch_control_points > max {
            return Err(invalid(format!("patch_control_points {} is not in 1..={max}", job.patch_control_points)));
        }
    }
    if job.primitive_restart && !job.topology.is_strip() {
        return Err(unsupported(format!("primitive restart with {:?} (strip topologies only)", job.topology)));
    }
    if job.primitive_restart && job.index_buffer.is_none() {
        return Err(invalid("primitive restart without an index buffer"));
    }
    let r = &job.rasterizer;
    if r.conservative {
        return Err(unsupported("conservative rasterization"));
    }
    if r.fill == FillMode::Wireframe && f.core.fill_mode_non_solid == vk::FALSE {
        return Err(unsupported("wireframe fill (fillModeNonSolid)"));
    }
    if r.depth_clamp && !f.depth_clamp {
        return Err(unsupported("depth clamp (depthClamp)"));
    }
    if let Some(b) = r.depth_bias {
        if b.clamp != 0.0 && f.core.depth_bias_clamp == vk::FALSE {
            return Err(unsupported("depth bias clamp (depthBiasClamp)"));
        }
    }
    if r.line_width.is_nan() || r.line_width <= 0.0 {
        return Err(invalid(format!("line width {}", r.line_width)));
    }
    if r.line_width != 1.0 && f.core.wide_lines == vk::FALSE {
        return Err(unsupported("line width other than 1 (wideLines)"));
    }
    let m = &job.multisample;
    if let Some(s) = m.sample_shading {
        if !f.sample_rate_shading {
            return Err(unsupported("sample-rate shading (sampleRateShading)"));
        }
        if !(0.0..=1.0).contains(&s) {
            return Err(invalid(format!("min sample shading {s} is not in 0..=1")));
        }
    }
    for (i, t) in job.color_targets.iter().enumerate() {
        if let Some(b) = &t.blend {
            let factors = [b.src_color, b.dst_color, b.src_alpha, b.dst_alpha];
            if factors.iter().any(|x| x.dual_source()) {
                if !f.dual_src_blend {
                    return Err(unsupported("dual-source blending (dualSrcBlend)"));
                }
                if i != 0 {
                    return Err(unsupported("dual-source blending on a target other than 0"));
                }
            }
            if t.format.is_integer() {
                return Err(invalid(format!("colour target {i}: blending an integer format ({:?})", t.format)));
            }
        }
    }
    let first = job.color_targets.first().map(|t| (t.blend, t.write_mask));
    if !f.independent_blend && job.color_targets.iter().any(|t| Some((t.blend, t.write_mask)) != first) {
        return Err(unsupported("different blend state per target (independentBlend)"));
    }
    if let Some(x) = &job.transform_feedback {
        if !f.transform_feedback {
            return Err(unsupported("transform feedback (VK_EXT_transform_feedback)"));
        }
        if x.buffers.len() as u32 > f.max_transform_feedback_buffers {
            return Err(unsupported(format!(
                "{} transform feedback buffers (device: {})",
                x.buffers.len(),
                f.max_transform_feedback_buffers
            )));
        }
        if x.buffers.iter().any(|b| b.size == 0 || b.size % 4 != 0) {
            return Err(invalid("transform feedback buffer sizes must be positive multiples of 4"));
        }
        if let Some(s) = x.rasterization_stream {
            if s >= f.max_transform_feedback_streams.max(1) {
                return Err(invalid(format!("rasterization stream {s} does not exist")));
            }
            if s != 0 && !f.transform_feedback_rasterization_stream_select {
                return Err(unsupported(format!(
                    "rasterizing stream {s} (transformFeedbackRasterizationStreamSelect)"
                )));
            }
        }
    }
    Ok(())
}

/// Creates the graphics pipeline for `job` (state already checked by [`check_state`]).
pub(super) fn create_pipeline(
    scratch: &mut Scratch<'_>,
    job: &GraphicsJob<'_>,
    stages: &[StageModule],
    layout: vk::PipelineLayout,
    targets: &TargetFormats,
    viewport: vk::Viewport,
    scissor: vk::Rect2D,
) -> Result<vk::Pipeline, RuntimeError> {
    let spec_entries: Vec<vk::SpecializationMapEntry> = job
        .specialization
        .iter()
        .enumerate()
        .map(|(k, &(id, _))| vk::SpecializationMapEntry { constant_id: id, offset: 4 * k as u32, size: 4 })
        .collect();
    let spec_data: Vec<u8> = job.specialization.iter().flat_map(|&(_, v)| v.to_le_bytes()).collect();
    let spec_info = vk::SpecializationInfo::default().map_entries(&spec_entries).data(&spec_data);
    let stage_infos: Vec<vk::PipelineShaderStageCreateInfo> = stages
        .iter()
        .map(|s| {
            let info = vk::PipelineShaderStageCreateInfo::default().stage(s.stage.vk()).module(s.module).name(&s.entry);
            if spec_entries.is_empty() {
                info
            } else {
                info.specialization_info(&spec_info)
            }
        })
        .collect();
    let bindings: Vec<vk::VertexInputBindingDescription> = job
        .vertex_buffers
        .iter()
        .map(|b| vk::VertexInputBindingDescription {
            binding: b.binding,
            stride: b.stride,
            input_rate: if b.per_instance { vk::VertexInputRate::INSTANCE } else { vk::VertexInputRate::VERTEX },
        })
        .collect();
    let attributes: Vec<vk::VertexInputAttributeDescription> = job
        .vertex_attributes
        .iter()
        .map(|a| vk::VertexInputAttributeDescription {
            location: a.location,
            binding: a.binding,
            format: a.format.vk(),
            offset: a.offset,
        })
        .collect();
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&bindings)
        .vertex_attribute_descriptions(&attributes);
    let input_assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(job.topology.vk())
        .primitive_restart_enable(job.primitive_restart);
    let tessellation =
        vk::PipelineTessellationStateCreateInfo::default().patch_control_points(job.patch_control_points);
    let viewports = [viewport];
    let scissors = [scissor];
    let viewport_state = vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors);

    let r = &job.rasterizer;
    let bias = r.depth_bias.unwrap_or_default();
    let discard = matches!(&job.transform_feedback, Some(x) if x.rasterization_stream.is_none());
    let mut raster = vk::PipelineRasterizationStateCreateInfo::default()
        .depth_clamp_enable(r.depth_clamp)
        .rasterizer_discard_enable(discard)
        .polygon_mode(match r.fill {
            FillMode::Solid => vk::PolygonMode::FILL,
            FillMode::Wireframe => vk::PolygonMode::LINE,
        })
        .cull_mode(match r.cull {
            CullMode::None => vk::CullModeFlags::NONE,
            CullMode::Front => vk::CullModeFlags::FRONT,
            CullMode::Back => vk::CullModeFlags::BACK,
        })
        // The viewport flip keeps on-target winding identical to D3D's, so the flag maps directly.
        .front_face(if r.front_ccw { vk::FrontFace::COUNTER_CLOCKWISE } else { vk::FrontFace::CLOCKWISE })
        .depth_bias_enable(r.depth_bias.is_some())
        .depth_bias_constant_factor(bias.constant)
        .depth_bias_clamp(bias.clamp)
        .depth_bias_slope_factor(bias.slope)
        .line_width(r.line_width);
    let mut stream = vk::PipelineRasterizationStateStreamCreateInfoEXT::default();
    if let Some(Some(s)) = job.transform_feedback.as_ref().map(|x| x.rasterization_stream) {
        if s != 0 {
            stream = stream.rasterization_stream(s);
            raster = raster.push_next(&mut stream);
        }
    }

    let m = &job.multisample;
    let sample_mask = [m.sample_mask];
    let mut multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(targets.samples)
        .sample_mask(&sample_mask)
        .alpha_to_coverage_enable(m.alpha_to_coverage);
    if let Some(min) = m.sample_shading {
        multisample = multisample.sample_shading_enable(true).min_sample_shading(min);
    }

    let ds = job.depth_stencil.as_ref();
    let stencil = ds.and_then(|d| d.stencil);
    let (front, back) = match &stencil {
        Some(s) => (
            stencil_face(&s.front, s.read_mask, s.write_mask, s.reference),
            stencil_face(&s.back, s.read_mask, s.write_mask, s.reference),
        ),
        None => Default::default(),
    };
    let depth_stencil = vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(ds.is_some_and(|d| d.depth_test))
        .depth_write_enable(ds.is_some_and(|d| d.depth_test && d.depth_write))
        .depth_compare_op(ds.map_or(vk::CompareOp::ALWAYS, |d| d.depth_compare.vk()))
        .stencil_test_enable(stencil.is_some())
        .front(front)
        .back(back)
        .min_depth_bounds(0.0)
        .max_depth_bounds(1.0);

    let blend_attachments: Vec<vk::PipelineColorBlendAttachmentState> = job
        .color_targets
        .iter()
        .map(|t| {
            let mask = vk::ColorComponentFlags::from_raw(u32::from(t.write_mask & 15));
            match &t.blend {
                Some(b) => vk::PipelineColorBlendAttachmentState {
                    blend_enable: vk::TRUE,
                    src_color_blend_factor: b.src_color.vk(),
                    dst_color_blend_factor: b.dst_color.vk(),
                    color_blend_op: b.color_op.vk(),
                    src_alpha_blend_factor: b.src_alpha.vk(),
                    dst_alpha_blend_factor: b.dst_alpha.vk(),
                    alpha_blend_op: b.alpha_op.vk(),
                    color_write_mask: mask,
                },
                None => vk::PipelineColorBlendAttachmentState { color_write_mask: mask, ..Default::default() },
            }
        })
        .collect();
    let blend = vk::PipelineColorBlendStateCreateInfo::default()
        .attachments(&blend_attachments)
        .blend_constants(job.blend_constants);

    let mut rendering = vk::PipelineRenderingCreateInfo::default()
        .color_attachment_formats(&targets.color)
        .depth_attachment_format(targets.depth)
        .stencil_attachment_format(targets.stencil);

    let mesh = stages.iter().any(|s| s.stage == Stage::Mesh);
    let mut info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stage_infos)
        .viewport_state(&viewport_state)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .depth_stencil_state(&depth_stencil)
        .color_blend_state(&blend)
        .layout(layout)
        .push_next(&mut rendering);
    if !mesh {
        // Mesh pipelines have no vertex input or input assembly.
        info = info.vertex_input_state(&vertex_input).input_assembly_state(&input_assembly);
    }
    if job.topology == Topology::PatchList {
        info = info.tessellation_state(&tessellation);
    }
    scratch.graphics_pipeline(&info)
}

/// Pipeline statistics the device can count for a job with `stages`, in Vulkan bit order.
pub(super) fn statistics_flags(f: &DeviceFeatures) -> vk::QueryPipelineStatisticFlags {
    use vk::QueryPipelineStatisticFlags as Q;
    let mut flags = Q::INPUT_ASSEMBLY_VERTICES
        | Q::INPUT_ASSEMBLY_PRIMITIVES
        | Q::VERTEX_SHADER_INVOCATIONS
        | Q::CLIPPING_INVOCATIONS
        | Q::CLIPPING_PRIMITIVES
        | Q::FRAGMENT_SHADER_INVOCATIONS;
    if f.geometry_shader {
        flags |= Q::GEOMETRY_SHADER_INVOCATIONS | Q::GEOMETRY_SHADER_PRIMITIVES;
    }
    if f.tessellation_shader {
        flags |= Q::TESSELLATION_CONTROL_SHADER_PATCHES | Q::TESSELLATION_EVALUATION_SHADER_INVOCATIONS;
    }
    flags
}

/// Distributes query results (one u64 per set bit of `flags`, in bit order) into [`super::PipelineStats`].
pub(super) fn stats_from(flags: vk::QueryPipelineStatisticFlags, values: &[u64]) -> super::PipelineStats {
    use vk::QueryPipelineStatisticFlags as Q;
    let mut s = super::PipelineStats::default();
    let mut it = values.iter().copied();
    let order: [(Q, &mut u64); 10] = [
        (Q::INPUT_ASSEMBLY_VERTICES, &mut s.input_assembly_vertices),
        (Q::INPUT_ASSEMBLY_PRIMITIVES, &mut s.input_assembly_primitives),
        (Q::VERTEX_SHADER_INVOCATIONS, &mut s.vertex_shader_invocations),
        (Q::GEOMETRY_SHADER_INVOCATIONS, &mut s.geometry_shader_invocations),
        (Q::GEOMETRY_SHADER_PRIMITIVES, &mut s.geometry_shader_primitives),
        (Q::CLIPPING_INVOCATIONS, &mut s.clipping_invocations),
        (Q::CLIPPING_PRIMITIVES, &mut s.clipping_primitives),
        (Q::FRAGMENT_SHADER_INVOCATIONS, &mut s.fragment_shader_invocations),
        (Q::TESSELLATION_CONTROL_SHADER_PATCHES, &mut s.tess_control_shader_patches),
        (Q::TESSELLATION_EVALUATION_SHADER_INVOCATIONS, &mut s.tess_evaluation_shader_invocations),
    ];
    for (flag, slot) in order {
        if flags.contains(flag) {
            *slot = it.next().unwrap_or(0);
        }
    }
    s
}
