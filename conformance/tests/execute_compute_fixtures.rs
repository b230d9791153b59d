//! Executes a few compiled compute fixtures on the Vulkan device (lavapipe
//! by default, validation layer on) and checks the results their `.md`
//! states. Skips when no Vulkan device is available.

use dxjit::{compile, CompileOptions, DescriptorKind, ResourceClass, Robustness};
use dxjit_conformance::corpus::fixtures_root;
use dxjit_runtime::{BoundResource, ComputeJob, Context, ContextOptions, Format, ResourceDesc};

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn to_words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

struct Res {
    class: ResourceClass,
    register: u32,
    desc: ResourceDesc,
}

/// Compiles `name`, binds `res` where the shader says, dispatches, and returns the words of `out`.
fn run(
    ctx: &Context,
    name: &str,
    opts: &CompileOptions,
    res: Vec<Res>,
    dispatch: [u32; 3],
    out: (ResourceClass, u32),
) -> Vec<u32> {
    let bytes = std::fs::read(fixtures_root().join("compute").join(name)).unwrap();
    let cs = compile(&bytes, opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut bound = Vec::new();
    let mut out_at = None;
    for r in res {
        let b = cs
            .bindings
            .iter()
            .find(|b| b.class == r.class && b.lower_bound == r.register)
            .unwrap_or_else(|| panic!("{name}: no binding for {}{}", r.class.letter(), r.register));
        let kind_ok = matches!(
            (&r.desc, b.descriptor),
            (ResourceDesc::StorageBuffer { .. }, DescriptorKind::StorageBuffer)
                | (ResourceDesc::UniformBuffer { .. }, DescriptorKind::UniformBuffer)
                | (ResourceDesc::UniformTexelBuffer { .. }, DescriptorKind::UniformTexelBuffer)
                | (ResourceDesc::StorageTexelBuffer { .. }, DescriptorKind::StorageTexelBuffer)
        );
        assert!(kind_ok, "{name}: {}{} is a {:?}", r.class.letter(), r.register, b.descriptor);
        if (r.class, r.register) == out {
            out_at = Some((b.set, b.binding));
        }
        bound.push(BoundResource::new(b.set, b.binding, r.desc));
    }
    let job = ComputeJob {
        spirv: &cs.spirv,
        entry_point: &cs.entry_point,
        resources: bound,
        push_constants: Vec::new(),
        dispatch,
        required_subgroup_size: None,
        scene: None,
    };
    let result = ctx.run_compute(&job).unwrap_or_else(|e| panic!("{name}: {e}"));
    let msgs = ctx.take_validation_messages();
    assert!(msgs.is_empty(), "{name}: validation messages: {msgs:?}");
    let (s, b) = out_at.unwrap();
    to_words(result.get(s, b, 0).unwrap())
}

fn ctx(test: &str) -> Option<Context> {
    Context::for_test(test, &ContextOptions { validation: true, ..Default::default() }).unwrap()
}

#[test]
fn raw_buffer_executes() {
    let Some(ctx) = ctx("raw_buffer_executes") else { return };
    let input: Vec<u32> = (0..16).map(|i| 0x100 + i).collect();
    let out = run(
        &ctx,
        "raw_buffer.cs_6_0.dxil",
        &CompileOptions::default(),
        vec![
            Res { class: ResourceClass::Srv, register: 0, desc: ResourceDesc::StorageBuffer { data: words(&input) } },
            Res { class: ResourceClass::Uav, register: 0, desc: ResourceDesc::StorageBuffer { data: vec![0; 64] } },
        ],
        [1, 1, 1],
        (ResourceClass::Uav, 0),
    );
    assert_eq!(
        out,
        [0x101, 0x102, 0x103, 0x104, 0x109, 0x10A, 0x10B, 0x10E, 0x10F, 0x20F, 0x10F, 0x10E, 0x10D, 0x10C, 0x202, 0]
    );
}

#[test]
fn oob_access_executes_with_explicit_checks() {
    let Some(ctx) = ctx("oob_access_executes_with_explicit_checks") else { return };
    let opts = CompileOptions { robustness: Robustness::Explicit, ..Default::default() };
    let res = || {
        vec![
            Res {
                class: ResourceClass::Uav,
                register: 0,
                desc: ResourceDesc::StorageBuffer { data: words(&[1, 2, 3, 4]) },
            },
            Res {
                class: ResourceClass::Uav,
                register: 1,
                desc: ResourceDesc::StorageBuffer { data: words(&[10, 11, 12, 13]) },
            },
            Res {
                class: ResourceClass::Srv,
                register: 0,
                desc: ResourceDesc::UniformTexelBuffer { format: Format::R32Uint, data: words(&[20, 21, 22, 23]) },
            },
            Res { class: ResourceClass::Uav, register: 2, desc: ResourceDesc::StorageBuffer { data: vec![0; 32] } },
        ]
    };
    let out = run(&ctx, "oob_access.cs_6_0.dxil", &opts, res(), [1, 1, 1], (ResourceClass::Uav, 2));
    assert_eq!(out, [4, 0, 0, 13, 0, 23, 0, 7]);
    let raw = run(&ctx, "oob_access.cs_6_0.dxil", &opts, res(), [1, 1, 1], (ResourceClass::Uav, 0));
    assert_eq!(raw, [0x55, 2, 3, 4]);
    let sb = run(&ctx, "oob_access.cs_6_0.dxil", &opts, res(), [1, 1, 1], (ResourceClass::Uav, 1));
    assert_eq!(sb, [10, 11, 12, 13]);
}

#[test]
fn groupshared_loop_executes() {
    let Some(ctx) = ctx("groupshared_loop_executes") else { return };
    // A loop with a barrier in it (cf_nested_loops waits for the real structurizer).
    let opts = CompileOptions::default();
    let out = run(
        &ctx,
        "groupshared_reduce.cs_6_0.dxil",
        &opts,
        vec![Res { class: ResourceClass::Uav, register: 0, desc: ResourceDesc::StorageBuffer { data: vec![0; 16] } }],
        [4, 1, 1],
        (ResourceClass::Uav, 0),
    );
    assert_eq!(out, [2080, 6176, 10272, 14368]);
}

#[test]
fn sysvals_execute() {
    let Some(ctx) = ctx("sysvals_execute") else { return };
    let out = run(
        &ctx,
        "sysvals.cs_6_0.dxil",
        &CompileOptions::default(),
        vec![Res { class: ResourceClass::Uav, register: 0, desc: ResourceDesc::StorageBuffer { data: vec![0; 1024] } }],
        [2, 1, 1],
        (ResourceClass::Uav, 0),
    );
    for g in 0..2u32 {
        for z in 0..2u32 {
            for y in 0..2u32 {
                for x in 0..4u32 {
                    let gi = x + 4 * y + 8 * z;
                    let s = (16 * g + gi) as usize;
                    assert_eq!(out[8 * s..8 * s + 4], [4 * g + x, y, z, gi]);
                    assert_eq!(out[8 * s + 4..8 * s + 8], [x, y, z, g]);
                }
            }
        }
    }
}

fn one_in_one_out(ctx: &Context, name: &str, input: &[u32], out_words: usize, dispatch: [u32; 3]) -> Vec<u32> {
    let mut res = Vec::new();
    if !input.is_empty() {
        res.push(Res {
            class: ResourceClass::Srv,
            register: 0,
            desc: ResourceDesc::StorageBuffer { data: words(input) },
        });
    }
    res.push(Res {
        class: ResourceClass::Uav,
        register: 0,
        desc: ResourceDesc::StorageBuffer { data: vec![0; 4 * out_words] },
    });
    run(ctx, name, &CompileOptions::default(), res, dispatch, (ResourceClass::Uav, 0))
}

#[test]
fn bit_ops_execute() {
    let Some(ctx) = ctx("bit_ops_execute") else { return };
    let out = one_in_one_out(&ctx, "bitops.cs_6_0.dxil", &[0x00F01200, 0, 0xFFFFFFFF, 0xFFFFFFF0, 1], 16, [1, 1, 1]);
    assert_eq!(
        out[..15],
        [
            6, 0, 32, 23, 0xFFFFFFFF, 9, 0xFFFFFFFF, 3, 0xFFFFFFFF, 0, 0x00480F00, 0x80000000, 0x01, 0xFFFFFFF0,
            0x00F01A00
        ]
    );
}

#[test]
fn float_min_max_nan_execute() {
    let Some(ctx) = ctx("float_min_max_nan_execute") else { return };
    let out = one_in_one_out(
        &ctx,
        "float_minmax_nan.cs_6_0.dxil",
        &[0x7FC00000, 0x3F800000, 0xFF800000, 0x7F800000],
        16,
        [1, 1, 1],
    );
    assert_eq!(out[..4], [0x3F800000; 4]);
    assert_eq!(out[4], 1, "min(NaN, NaN) is NaN");
    assert_eq!(out[5..13], [0xFF800000, 0x7F800000, 0, 0, 0x3F800000, 1, 0, 1]);
}

#[test]
fn groupshared_atomics_execute() {
    let Some(ctx) = ctx("groupshared_atomics_execute") else { return };
    let out = one_in_one_out(&ctx, "atomics_groupshared.cs_6_0.dxil", &[], 10, [2, 1, 1]);
    for g in 0..2 {
        assert_eq!(out[5 * g..5 * g + 5], [2016, 63, 0xFFFFFFFF, 0xFFFFFFD8, 257], "group {g}");
    }
}
