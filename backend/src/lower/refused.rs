//! DXIL operations dxjit refuses, each as `Unsupported` naming what it would need:
//!
//! - **Work graphs** (SM 6.8 node shaders: `AllocateNodeOutputRecords` … `GetRemainingRecursionLevels`,
//!   `BarrierByNodeRecordHandle`): out of scope; node-shader exports are refused before lowering
//!   (`compile.rs`), and any of these ops elsewhere is refused here naming work graphs.
//! - **Wave matrices** (`WaveMatrix_*`, opcodes 226-237): an experimental SM 6.8 preview that DXC
//!   removed before SM 6.8 shipped; it would map to `VK_KHR_cooperative_matrix`.
//! - **`CycleCounterLegacy`**: a 64-bit clock, which needs `VK_KHR_shader_clock`
//!   (`OpReadClockKHR`).
//! - **`TempRegLoad`/`TempRegStore`/`MinPrecXRegLoad`/`MinPrecXRegStore`**: the DXBC converter's
//!   indexable temporary registers; DXC never emits them and the DXIL validator rejects them.

use super::{unsupported, LResult, Lowerer};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};

pub(super) fn lower(_l: &mut Lowerer<'_>, _i: InstId, op: DxilOp, _args: &[Value]) -> LResult<()> {
    use DxilOp::*;
    let why = match op {
        WaveMatrix_Annotate
        | WaveMatrix_Depth
        | WaveMatrix_Fill
        | WaveMatrix_LoadRawBuf
        | WaveMatrix_LoadGroupShared
        | WaveMatrix_StoreRawBuf
        | WaveMatrix_StoreGroupShared
        | WaveMatrix_Multiply
        | WaveMatrix_MultiplyAccumulate
        | WaveMatrix_ScalarOp
        | WaveMatrix_SumAccumulate
        | WaveMatrix_Add => "experimental SM 6.8 wave matrices; would need VK_KHR_cooperative_matrix",
        CycleCounterLegacy => "needs VK_KHR_shader_clock",
        TempRegLoad | TempRegStore | MinPrecXRegLoad | MinPrecXRegStore => {
            "DXBC-converter temporary registers, never emitted by DXC"
        }
        _ => "work graphs (DXIL library node shaders)",
    };
    unsupported(format!("DXIL op {} ({why})", op.name()))
}
