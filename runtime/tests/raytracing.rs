//! Acceleration structures, ray queries and ray-tracing pipelines (shaders in
//! `tests/shaders/{rq,rt}_*.spvasm`, SPIR-V 1.5). Devices without VK_KHR_ray_query /
//! VK_KHR_ray_tracing_pipeline skip by name.

mod common;

use common::{assemble_for, assert_clean, context, to_f32s, to_u32s, u32s};
use dxjit_runtime::{
    AddressOf, Blas, BoundResource, ComputeJob, Geometry, GeometryKind, Instance, RayTracingJob, ResourceDesc,
    RtShader, RtStage, Scene, ShaderGroup, ShaderRecord,
};

fn triangle(vertices: Vec<[f32; 3]>) -> Geometry {
    Geometry {
        kind: GeometryKind::Triangles { vertices, indices: None, transform: None },
        opaque: true,
        no_duplicate_any_hit: false,
    }
}

/// Two triangles of one BLAS: primitive 0 at z = 2 covering x + y <= 3.2 (rays 0-2), primitive 1
/// at z = 3 covering x >= 4.6 (rays 5-7); rays 3 and 4 miss.
fn scene() -> Scene {
    let mut g = triangle(vec![[-1.0, -1.0, 2.0], [4.2, -1.0, 2.0], [-1.0, 4.2, 2.0]]);
    if let GeometryKind::Triangles { vertices, .. } = &mut g.kind {
        vertices.extend([[4.6, -10.0, 3.0], [30.0, -10.0, 3.0], [4.6, 30.0, 3.0]]);
    }
    Scene {
        blas: vec![Blas { geometries: vec![g] }],
        instances: vec![Instance {
            blas: 0,
            transform: Instance::IDENTITY,
            custom_index: 0,
            mask: 0xff,
            sbt_offset: 0,
            flags: 0,
        }],
    }
}

#[test]
fn ray_query_in_compute() {
    let test = "ray_query_in_compute";
    let Some(spirv) = assemble_for(test, "rq_compute", "vulkan1.2") else { return };
    let Some(ctx) = context(test) else { return };
    if !ctx.features().ray_query {
        eprintln!("SKIPPED {test}: the device lacks VK_KHR_ray_query");
        return;
    }
    let job = ComputeJob {
        spirv: &spirv,
        entry_point: "main",
        resources: vec![
            BoundResource::new(0, 0, ResourceDesc::AccelerationStructure),
            BoundResource::new(0, 1, ResourceDesc::StorageBuffer { data: vec![0; 64] }),
        ],
        push_constants: Vec::new(),
        dispatch: [1, 1, 1],
        required_subgroup_size: None,
        scene: Some(scene()),
    };
    let r = ctx.run_compute(&job).expect("runs");
    let out = to_f32s(r.get(0, 1, 0).expect("read back"));
    // Committed type 1 (triangle) with T 2 or 3; 0 (nothing) for the two misses.
    for x in 0..8 {
        let (ty, t) = (out[2 * x], out[2 * x + 1]);
        match x {
            0..=2 => assert_eq!((ty, t), (1.0, 2.0), "ray {x}"),
            3 | 4 => assert_eq!(ty, 0.0, "ray {x}"),
            _ => assert_eq!((ty, t), (1.0, 3.0), "ray {x}"),
        }
    }
    assert_clean(ctx);
}

#[test]
fn ray_tracing_pipeline_with_shader_records() {
    let test = "ray_tracing_pipeline_with_shader_records";
    let (Some(rgen), Some(miss), Some(chit)) = (
        assemble_for(test, "rt_raygen", "vulkan1.2"),
        assemble_for(test, "rt_miss", "vulkan1.2"),
        assemble_for(test, "rt_closest", "vulkan1.2"),
    ) else {
        return;
    };
    let Some(ctx) = context(test) else { return };
    if !ctx.features().ray_tracing_pipeline {
        eprintln!("SKIPPED {test}: the device lacks VK_KHR_ray_tracing_pipeline");
        return;
    }
    let mut job = RayTracingJob {
        shaders: vec![
            RtShader { stage: RtStage::RayGeneration, spirv: &rgen, entry_point: "main" },
            RtShader { stage: RtStage::Miss, spirv: &miss, entry_point: "main" },
            RtShader { stage: RtStage::ClosestHit, spirv: &chit, entry_point: "main" },
        ],
        groups: vec![
            ShaderGroup::General(0),
            ShaderGroup::General(1),
            ShaderGroup::Triangles { closest_hit: Some(2), any_hit: None },
        ],
        max_recursion_depth: 1,
        raygen: ShaderRecord { group: 0, ..Default::default() },
        miss: vec![ShaderRecord { group: 1, ..Default::default() }],
        // The closest hit reads 0x100 from its record; bytes 8..16 receive the address of the
        // output buffer (a patch the shader ignores, checked against the read-back below).
        hit: vec![ShaderRecord {
            group: 2,
            data: u32s(&[0x100, 0, 0, 0]),
            patches: vec![(8, AddressOf::Resource { index: 1, offset: 0 })],
        }],
        callable: Vec::new(),
        resources: vec![
            BoundResource::new(0, 0, ResourceDesc::AccelerationStructure),
            BoundResource::new(0, 1, ResourceDesc::StorageBuffer { data: vec![0; 32] }),
        ],
        push_constants: Vec::new(),
        scene: Some(scene()),
        dispatch: [8, 1, 1],
    };
    // A record address must name a buffer with a device address.
    let err = ctx.run_ray_tracing(&job).expect_err("a storage buffer has no address");
    assert!(err.to_string().contains("device address"), "{err}");
    job.resources.push(BoundResource::new(9, 0, ResourceDesc::AddressBuffer { data: vec![0; 4], push_offset: None }));
    job.hit[0].patches[0].1 = AddressOf::Resource { index: 2, offset: 0 };
    let r = ctx.run_ray_tracing(&job).expect("runs");
    let out = to_u32s(r.get(0, 1, 0).expect("read back"));
    assert_eq!(out, [0x100, 0x100, 0x100, u32::MAX, u32::MAX, 0x101, 0x101, 0x101]);
    // A group in the wrong table is refused.
    job.miss[0].group = 2;
    let err = ctx.run_ray_tracing(&job).expect_err("a hit group in the miss table");
    assert!(err.to_string().contains("miss record 0"), "{err}");
    assert_clean(ctx);
}
