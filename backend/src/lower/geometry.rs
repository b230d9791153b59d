//! Geometry-shader ops: EmitStream, CutStream, EmitThenCutStream (stream 0
//! → OpEmitVertex/OpEndPrimitive, others → the stream forms with the
//! GeometryStreams capability).

use rspirv::spirv::{Capability, Op};

use super::{malformed, unsupported, Fail, LResult, Lowerer};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};
use crate::link::Stage;

impl Lowerer<'_> {
    fn emit(&mut self, stream: u32) -> LResult<()> {
        self.write_point_size()?;
        if stream == 0 {
            self.op_void(Op::EmitVertex, &[])
        } else {
            self.cap(Capability::GeometryStreams);
            let s = self.const_u32(stream);
            self.op_void(Op::EmitStreamVertex, &[s])
        }
    }

    fn cut(&mut self, stream: u32) -> LResult<()> {
        if stream == 0 {
            self.op_void(Op::EndPrimitive, &[])
        } else {
            self.cap(Capability::GeometryStreams);
            let s = self.const_u32(stream);
            self.op_void(Op::EndStreamPrimitive, &[s])
        }
    }
}

pub(super) fn lower(l: &mut Lowerer<'_>, _i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if l.stage() != Some(Stage::Geometry) {
        return unsupported(format!("DXIL op {} outside a geometry shader", op.name()));
    }
    let Some(stream) = args.first().and_then(|a| l.m.const_uint(*a)) else {
        return malformed(format!("{}: stream is not a constant", op.name()));
    };
    if stream > 3 {
        return malformed(format!("{}: stream {stream}", op.name()));
    }
    let stream = stream as u32;
    match op {
        DxilOp::EmitStream => l.emit(stream),
        DxilOp::CutStream => l.cut(stream),
        DxilOp::EmitThenCutStream => {
            l.emit(stream)?;
            l.cut(stream)
        }
        _ => Err(Fail::Internal(format!("geometry::lower got {}", op.name()))),
    }
}
