//! The binding model end to end: compile fixture shaders under the default
//! rule and under a user map, and read the descriptor decorations back from
//! the SPIR-V with rspirv's parser.

use dxjit::{compile, BindingMap, CompileOptions, DescriptorKind, ResourceClass};
use rspirv::dr::{load_words, Module, Operand};
use rspirv::spirv::{Decoration, Op, StorageClass};

fn fixture(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/compute").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// (storage class, set, binding) of every module-scope variable that has a binding, sorted.
fn descriptor_vars(m: &Module) -> Vec<(StorageClass, u32, u32)> {
    let deco = |id: u32, d: Decoration| {
        m.annotations.iter().find_map(|a| match (a.class.opcode, a.operands.as_slice()) {
            (Op::Decorate, [Operand::IdRef(t), Operand::Decoration(x), Operand::LiteralBit32(v)])
                if *t == id && *x == d =>
            {
                Some(*v)
            }
            _ => None,
        })
    };
    let mut out = Vec::new();
    for i in &m.types_global_values {
        if i.class.opcode != Op::Variable {
            continue;
        }
        let (Some(id), Some(Operand::StorageClass(sc))) = (i.result_id, i.operands.first()) else { continue };
        if let (Some(s), Some(b)) = (deco(id, Decoration::DescriptorSet), deco(id, Decoration::Binding)) {
            out.push((*sc, s, b));
        }
    }
    out.sort_by_key(|v| (v.1, v.2));
    out
}

fn has_push_constant_var(m: &Module) -> bool {
    m.types_global_values.iter().any(|i| {
        i.class.opcode == Op::Variable
            && matches!(i.operands.first(), Some(Operand::StorageClass(StorageClass::PushConstant)))
    })
}

#[test]
fn default_rule_in_spirv() {
    // t0 Texture2D, s0 + s1 samplers, u0 structured buffer.
    let cs = compile(&fixture("texture_load_sample.cs_6_0.dxil"), &CompileOptions::default()).unwrap();
    let m = load_words(&cs.spirv).unwrap();
    let vars = descriptor_vars(&m);
    assert!(vars.contains(&(StorageClass::UniformConstant, 0, 1)), "{vars:?}"); // t0 → 5*0+1
    assert!(vars.contains(&(StorageClass::StorageBuffer, 0, 2)), "{vars:?}"); // u0 → 5*0+2
    assert!(vars.contains(&(StorageClass::UniformConstant, 0, 3)), "{vars:?}"); // s0 → 5*0+3
    assert!(vars.contains(&(StorageClass::UniformConstant, 0, 8)), "{vars:?}"); // s1 → 5*1+3
    let t0 = cs.bindings.iter().find(|b| b.class == ResourceClass::Srv).unwrap();
    assert_eq!(
        (t0.set, t0.binding, t0.descriptor, t0.kind.as_str()),
        (0, 1, DescriptorKind::SampledImage, "Texture2D")
    );
    let samplers: Vec<_> =
        cs.bindings.iter().filter(|b| b.class == ResourceClass::Sampler).map(|b| b.binding).collect();
    assert_eq!(samplers.len(), 2);
    assert!(samplers.contains(&3) && samplers.contains(&8));
}

#[test]
fn user_map_in_spirv() {
    let map = BindingMap::from_toml_str(
        r#"
        [[binding]]
        class = "srv"
        register = 0
        set = 2
        binding = 10
        [[binding]]
        class = "sampler"
        register = 1
        set = 1
        binding = 0
        "#,
    )
    .unwrap();
    let opts = CompileOptions { binding_map: Some(map), ..Default::default() };
    let cs = compile(&fixture("texture_load_sample.cs_6_0.dxil"), &opts).unwrap();
    let vars = descriptor_vars(&load_words(&cs.spirv).unwrap());
    assert!(vars.contains(&(StorageClass::UniformConstant, 2, 10)), "{vars:?}");
    assert!(vars.contains(&(StorageClass::UniformConstant, 1, 0)), "{vars:?}");
    // Unmapped ranges keep the default rule.
    assert!(vars.contains(&(StorageClass::StorageBuffer, 0, 2)), "{vars:?}");
    assert!(vars.contains(&(StorageClass::UniformConstant, 0, 3)), "{vars:?}");
    assert!(!vars.iter().any(|v| v.1 == 0 && v.2 == 1), "t0 must have moved: {vars:?}");
    let t0 = cs.bindings.iter().find(|b| b.class == ResourceClass::Srv).unwrap();
    assert_eq!((t0.set, t0.binding), (2, 10));
}

#[test]
fn root_constants_to_push_constants() {
    let plain = compile(&fixture("cbuffer_packing.cs_6_0.dxil"), &CompileOptions::default()).unwrap();
    let m = load_words(&plain.spirv).unwrap();
    assert!(descriptor_vars(&m).contains(&(StorageClass::Uniform, 0, 0)));
    assert!(!has_push_constant_var(&m));
    assert!(plain.push_constants.is_none());

    let mut map = BindingMap::new();
    map.push_constant(0, 0);
    let opts = CompileOptions { binding_map: Some(map), ..Default::default() };
    let cs = compile(&fixture("cbuffer_packing.cs_6_0.dxil"), &opts).unwrap();
    let m = load_words(&cs.spirv).unwrap();
    assert!(has_push_constant_var(&m));
    assert!(!descriptor_vars(&m).iter().any(|v| v.0 == StorageClass::Uniform));
    let pc = cs.push_constants.expect("push constant range");
    assert!(pc.size >= 16 && pc.size.is_multiple_of(16));
    let b0 = cs.bindings.iter().find(|b| b.class == ResourceClass::Cbv).unwrap();
    assert_eq!(b0.descriptor, DescriptorKind::PushConstant);
}

#[test]
fn uav_counter_placement() {
    let mut map = BindingMap::new();
    map.bind_counter(0, 3, 5, 6);
    assert_eq!(dxjit::binding::place_counter(Some(&map), 0, 3), Some((5, 6)));
    assert_eq!(dxjit::binding::place_counter(None, 0, 3), Some((0, 19)));
}
