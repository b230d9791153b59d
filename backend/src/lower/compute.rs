//! Compute system values (ThreadId, GroupId, ThreadIdInGroup,
//! FlattenedThreadIdInGroup) and barriers.

use rspirv::spirv::{BuiltIn, Decoration, MemorySemantics, Op, Scope, StorageClass, Word};

use super::{malformed, LResult, Lowerer};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};

/// Builtin input variables, by slot in `Lowerer::builtins`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Builtin {
    GlobalInvocationId,
    WorkgroupId,
    LocalInvocationId,
    LocalInvocationIndex,
    SubgroupSize,
    SubgroupLocalInvocationId,
}

impl Lowerer<'_> {
    /// The input variable of a builtin, declared on first use.
    pub(crate) fn builtin(&mut self, b: Builtin) -> (Word, bool) {
        let vec3 = matches!(b, Builtin::GlobalInvocationId | Builtin::WorkgroupId | Builtin::LocalInvocationId);
        let slot = b as usize;
        if self.builtins[slot] != 0 {
            return (self.builtins[slot], vec3);
        }
        let u = self.u32();
        let t = if vec3 { self.vector(u, 3) } else { u };
        let pt = self.pointer(StorageClass::Input, t);
        let var = self.global_var(pt, StorageClass::Input, None);
        let bi = match b {
            Builtin::GlobalInvocationId => BuiltIn::GlobalInvocationId,
            Builtin::WorkgroupId => BuiltIn::WorkgroupId,
            Builtin::LocalInvocationId => BuiltIn::LocalInvocationId,
            Builtin::LocalInvocationIndex => BuiltIn::LocalInvocationIndex,
            Builtin::SubgroupSize => BuiltIn::SubgroupSize,
            Builtin::SubgroupLocalInvocationId => BuiltIn::SubgroupLocalInvocationId,
        };
        self.b.decorate(var, Decoration::BuiltIn, &[bi as u32]);
        if matches!(b, Builtin::SubgroupSize | Builtin::SubgroupLocalInvocationId) {
            self.cap(rspirv::spirv::Capability::GroupNonUniform);
            // Integer fragment inputs, builtins included, must be Flat.
            if self.stage() == Some(crate::link::Stage::Pixel) {
                self.b.decorate(var, Decoration::Flat, &[]);
            }
        }
        self.builtins[slot] = var;
        (var, vec3)
    }

    /// Loads a scalar builtin or component `comp` of a vector builtin.
    pub(crate) fn load_builtin(&mut self, b: Builtin, comp: Option<Value>) -> LResult<Word> {
        let (var, vec3) = self.builtin(b);
        let u = self.u32();
        if !vec3 {
            return self.load(u, var);
        }
        let Some(c) = comp else { return malformed("vector system value without component") };
        match self.m.const_uint(c) {
            Some(k @ 0..=2) => {
                let pt = self.pointer(StorageClass::Input, u);
                let kc = self.const_u32(k as u32);
                let p = self.access_chain(pt, var, &[kc])?;
                self.load(u, p)
            }
            Some(_) => malformed("system value component out of range"),
            None => {
                let v3 = self.vector(u, 3);
                let whole = self.load(v3, var)?;
                let k = self.value(c)?;
                self.op(Op::VectorExtractDynamic, u, &[whole, k])
            }
        }
    }
}

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    let b = match op {
        DxilOp::ThreadId => Builtin::GlobalInvocationId,
        DxilOp::GroupId => Builtin::WorkgroupId,
        DxilOp::ThreadIdInGroup => Builtin::LocalInvocationId,
        DxilOp::FlattenedThreadIdInGroup => Builtin::LocalInvocationIndex,
        DxilOp::Barrier => return barrier(l, args),
        DxilOp::BarrierByMemoryType | DxilOp::BarrierByMemoryHandle => return barrier_sm68(l, op, args),
        _ => return Err(super::Fail::Internal(format!("compute::lower got {}", op.name()))),
    };
    let r = l.load_builtin(b, args.first().copied())?;
    l.set_id(i, r);
    Ok(())
}

/// SM 6.8 `Barrier(MemoryTypeFlags, SemanticFlags)` (`BarrierByMemoryType`) and
/// `Barrier(resource, SemanticFlags)` (`BarrierByMemoryHandle`, the resource's memory: UAVs).
/// Memory types: 1 UAV, 2 groupshared (4 and 8, node input/output records, belong to work graphs and
/// have no memory here); semantics: 1 GROUP_SYNC (execution barrier of the thread group), 2
/// GROUP_SCOPE, 4 DEVICE_SCOPE (the fence's scope; device wins when both are set).
fn barrier_sm68(l: &mut Lowerer<'_>, op: DxilOp, args: &[Value]) -> LResult<()> {
    let Some(semantics) = args.get(1).and_then(|a| l.m.const_uint(*a)) else {
        return malformed("barrier semantic flags are not a constant");
    };
    let (uav, tgsm) = if op == DxilOp::BarrierByMemoryType {
        let Some(types) = args.first().and_then(|a| l.m.const_uint(*a)) else {
            return malformed("barrier memory type flags are not a constant");
        };
        (types & 1 != 0, types & 2 != 0)
    } else {
        let Some(&h) = args.first() else { return malformed("BarrierByMemoryHandle without a handle") };
        let h = l.handle(h)?;
        if l.decl(h).class != crate::binding::ResourceClass::Uav {
            return malformed("BarrierByMemoryHandle on a resource that is not a UAV");
        }
        (true, false)
    };
    let sync = semantics & 1 != 0;
    let group_stage = matches!(l.stage(), None | Some(crate::link::Stage::Mesh | crate::link::Stage::Amplification));
    if sync && !group_stage {
        return malformed("Barrier with GROUP_SYNC outside a compute, mesh or amplification shader");
    }
    let mut sem = MemorySemantics::empty();
    if uav {
        sem |= MemorySemantics::UNIFORM_MEMORY | MemorySemantics::IMAGE_MEMORY;
    }
    if tgsm && group_stage {
        sem |= MemorySemantics::WORKGROUP_MEMORY;
    }
    if !sem.is_empty() {
        sem |= MemorySemantics::ACQUIRE_RELEASE;
    }
    // Workgroup memory scope exists only in thread-group stages (Vulkan); elsewhere the device's.
    let device = semantics & 4 != 0 || !group_stage;
    let ms = l.const_u32(if device { Scope::Device } else { Scope::Workgroup } as u32);
    let semc = l.const_u32(sem.bits());
    if sync {
        let es = l.const_u32(Scope::Workgroup as u32);
        l.op_void(Op::ControlBarrier, &[es, ms, semc])
    } else if !sem.is_empty() {
        l.op_void(Op::MemoryBarrier, &[ms, semc])
    } else {
        Ok(())
    }
}

/// `Barrier(mode)`: bit 0 = sync the thread group (execution barrier), bit 1
/// = UAV fence, global; bit 2 = UAV fence, thread group; bit 3 = groupshared
/// fence.
fn barrier(l: &mut Lowerer<'_>, args: &[Value]) -> LResult<()> {
    let Some(mode) = args.first().and_then(|a| l.m.const_uint(*a)) else {
        return malformed("barrier mode is not a constant");
    };
    let sync = mode & 1 != 0;
    let uav_global = mode & 2 != 0;
    let uav_group = mode & 4 != 0;
    let tgsm = mode & 8 != 0;
    let mut sem = MemorySemantics::empty();
    if uav_global || uav_group {
        sem |= MemorySemantics::UNIFORM_MEMORY | MemorySemantics::IMAGE_MEMORY;
    }
    if tgsm {
        sem |= MemorySemantics::WORKGROUP_MEMORY;
    }
    if !sem.is_empty() {
        sem |= MemorySemantics::ACQUIRE_RELEASE;
    }
    let mem_scope = if uav_global { Scope::Device } else { Scope::Workgroup };
    let ms = l.const_u32(mem_scope as u32);
    let semc = l.const_u32(sem.bits());
    if sync {
        let es = l.const_u32(Scope::Workgroup as u32);
        l.op_void(Op::ControlBarrier, &[es, ms, semc])
    } else if !sem.is_empty() {
        l.op_void(Op::MemoryBarrier, &[ms, semc])
    } else {
        Ok(())
    }
}
