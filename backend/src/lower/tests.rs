//! Unit tests of lowering pieces: structured shapes of fixtures and the
//! dispatch table.

use super::*;

fn module(name: &str) -> Module {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/compute").join(name);
    let bytes = std::fs::read(&p).unwrap();
    let c = crate::container::Container::parse(&bytes).unwrap();
    crate::bitcode::read_module(c.dxil_program().unwrap().bitcode).unwrap()
}

fn main_fn(m: &Module) -> &Function {
    m.functions.iter().find(|f| f.name == "main").unwrap()
}

fn count(n: &Node, pred: &dyn Fn(&Node) -> bool) -> usize {
    let own = usize::from(pred(n));
    own + match n {
        Node::Seq(v) => v.iter().map(|c| count(c, pred)).sum(),
        Node::If { then_, else_, .. } => count(then_, pred) + count(else_, pred),
        Node::Switch { cases, default, .. } => {
            cases.iter().map(|c| count(&c.1, pred)).sum::<usize>() + count(default, pred)
        }
        Node::Loop { body } | Node::Scope { body } => count(body, pred),
        _ => 0,
    }
}

#[test]
fn structures_an_if() {
    let m = module("raw_buffer.cs_6_0.dxil");
    let f = main_fn(&m);
    let sf = structure(&m, f).unwrap();
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Loop { .. })), 0);
    // Every block appears exactly once.
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Block(_))), f.blocks.len());
}

#[test]
fn structures_a_loop_with_phis() {
    let m = module("groupshared_reduce.cs_6_0.dxil");
    let f = main_fn(&m);
    let sf = structure(&m, f).unwrap();
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Loop { .. })), 1);
    assert!(count(&sf.root, &|n| matches!(n, Node::Break)) >= 1);
    // The loop-carried phi gets a copy on entry and on the back edge.
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::PhiCopy { .. })), 2);
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Block(_))), f.blocks.len());
}

#[test]
fn structures_switch_fall_through() {
    let m = module("cf_switch.cs_6_0.dxil");
    let f = main_fn(&m);
    let sf = structure(&m, f).unwrap();
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Block(_))), f.blocks.len());
}

#[test]
fn dispatch_table_covers_the_core_families() {
    use crate::dxil_op::DxilOp::*;
    for op in [
        ThreadId,
        Barrier,
        RawBufferLoad,
        BufferStore,
        CBufferLoadLegacy,
        FMax,
        Ibfe,
        AtomicBinOp,
        TextureLoad,
        WaveActiveOp,
        QuadOp,
        CreateHandleFromHeap,
        WaveMatch,
        WaveMultiPrefixOp,
        Msad,
        Sample,
        CalculateLOD,
        DerivFineX,
        TextureGatherRaw,
        TextureStoreSample,
        LoadInput,
        StoreOutput,
        Discard,
        EmitStream,
        PrimitiveID,
        DomainLocation,
        StorePatchConstant,
        LoadOutputControlPoint,
    ] {
        assert!(handler(op).is_some(), "{}", op.name());
    }
    // Unimplemented ops have no handler, so they fail as Unsupported.
    for op in [TraceRay, AllocateRayQuery, WriteSamplerFeedback] {
        assert!(handler(op).is_none(), "{}", op.name());
    }
}

#[test]
fn unsupported_errors_name_the_feature_and_shader_model() {
    // SV_GroupIndex read through an op no compute shader may use (ViewID,
    // same shape: no arguments, i32 result) must be refused by name.
    let mut m = module("sysvals.cs_6_0.dxil");
    let mut replaced = false;
    for f in &mut m.functions {
        for i in &mut f.insts {
            if let InstKind::DxOp { op, .. } = &mut i.kind {
                if *op == crate::dxil_op::DxilOp::FlattenedThreadIdInGroup {
                    *op = crate::dxil_op::DxilOp::ViewID;
                    replaced = true;
                }
            }
        }
    }
    assert!(replaced);
    match crate::compile::compile_module(&m, &crate::CompileOptions::default()) {
        Err(crate::CompileError::Unsupported { feature, function, shader_model, .. }) => {
            assert!(feature.contains("ViewID"), "{feature}");
            assert_eq!(function, "main");
            assert_eq!(shader_model, "cs_6_0");
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn capability_names_match_debug() {
    for &c in super::CAPS_NAMED {
        assert_eq!(super::cap_name(c), Some(format!("{c:?}").as_str()));
    }
    assert_eq!(super::cap_name(rspirv::spirv::Capability::Kernel), None);
}
