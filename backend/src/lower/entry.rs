//! The entry point of a graphics stage: execution model and execution
//! modes (pixel origin and depth/stencil export, geometry primitives,
//! vertex counts and instancing).

use rspirv::spirv::{Capability, ExecutionMode, ExecutionModel, Word};

use super::{malformed, unsupported, LResult, Lowerer};
use crate::dxil::{InputPrimitive, PrimitiveTopology};
use crate::link::{BuiltIn, Placement};
use crate::ShaderKind;

/// DXIL shader flag: `[earlydepthstencil]`.
const FLAG_FORCE_EARLY_DEPTH_STENCIL: u64 = 1 << 3;

impl Lowerer<'_> {
    /// The SPIR-V execution model of the entry point (and per-stage setup before lowering).
    pub(crate) fn execution_model(&mut self) -> LResult<ExecutionModel> {
        let kind = self.meta.kind;
        let model = match kind {
            ShaderKind::Compute => return Ok(ExecutionModel::GLCompute),
            ShaderKind::Amplification => return self.task_model(),
            ShaderKind::Mesh => self.mesh_model()?,
            ShaderKind::Vertex => ExecutionModel::Vertex,
            ShaderKind::Pixel => ExecutionModel::Fragment,
            ShaderKind::Geometry => {
                self.cap(Capability::Geometry);
                ExecutionModel::Geometry
            }
            k if super::rayquery::is_ray_tracing_stage(k) => return self.rt_execution_model(),
            k => return unsupported(format!("{} shaders", k.name())),
        };
        let Some(g) = self.gfx.as_mut() else {
            return unsupported(format!("{} shader without a link plan", kind.name()));
        };
        g.writes_point_size = match kind {
            ShaderKind::Vertex => true,
            ShaderKind::Geometry => {
                g.plan.geometry.as_ref().is_some_and(|x| x.output_topology == PrimitiveTopology::PointList)
            }
            _ => false,
        };
        Ok(model)
    }

    pub(crate) fn execution_modes(&mut self, f: Word) -> LResult<()> {
        if self.captures_xfb() {
            self.b.execution_mode(f, ExecutionMode::Xfb, &[]);
        }
        let Some(g) = self.gfx.as_ref() else { return Ok(()) };
        let (plan, stage) = (g.plan, g.stage);
        match self.meta.kind {
            ShaderKind::Pixel => {
                self.b.execution_mode(f, ExecutionMode::OriginUpperLeft, &[]);
                if self.meta.flags & FLAG_FORCE_EARLY_DEPTH_STENCIL != 0 {
                    self.b.execution_mode(f, ExecutionMode::EarlyFragmentTests, &[]);
                }
                for e in &stage.outputs {
                    match e.placement {
                        Placement::BuiltIn(BuiltIn::FragDepth) => {
                            self.b.execution_mode(f, ExecutionMode::DepthReplacing, &[]);
                            match e.system_value {
                                "SV_DepthGreaterEqual" => self.b.execution_mode(f, ExecutionMode::DepthGreater, &[]),
                                "SV_DepthLessEqual" => self.b.execution_mode(f, ExecutionMode::DepthLess, &[]),
                                _ => {}
                            }
                        }
                        Placement::BuiltIn(BuiltIn::FragStencilRefEXT) => {
                            self.b.execution_mode(f, ExecutionMode::StencilRefReplacingEXT, &[]);
                        }
                        _ => {}
                    }
                }
            }
            ShaderKind::Geometry => {
                let Some(gs) = plan.geometry.as_ref() else { return malformed("geometry shader without GS state") };
                let input = match gs.input_primitive {
                    InputPrimitive::Point => ExecutionMode::InputPoints,
                    InputPrimitive::Line => ExecutionMode::InputLines,
                    InputPrimitive::LineWithAdjacency => ExecutionMode::InputLinesAdjacency,
                    InputPrimitive::Triangle => ExecutionMode::Triangles,
                    InputPrimitive::TriangleWithAdjacency => ExecutionMode::InputTrianglesAdjacency,
                    p => return unsupported(format!("geometry shader input primitive {p}")),
                };
                self.b.execution_mode(f, input, &[]);
                self.b.execution_mode(f, ExecutionMode::Invocations, &[gs.instance_count.max(1)]);
                if gs.max_vertex_count == 0 {
                    return malformed("geometry shader with maxvertexcount 0");
                }
                self.b.execution_mode(f, ExecutionMode::OutputVertices, &[gs.max_vertex_count]);
                let out = match gs.output_topology {
                    PrimitiveTopology::LineList | PrimitiveTopology::LineStrip => ExecutionMode::OutputLineStrip,
                    PrimitiveTopology::TriangleList | PrimitiveTopology::TriangleStrip => {
                        ExecutionMode::OutputTriangleStrip
                    }
                    _ => ExecutionMode::OutputPoints,
                };
                self.b.execution_mode(f, out, &[]);
            }
            _ => {}
        }
        Ok(())
    }
}
