//! Compute jobs on a real Vulkan device (lavapipe by default) with validation on. Every test reports
//! itself SKIPPED and passes when no device exists.

mod common;

use common::*;
use dxjit_runtime::{
    BoundResource, ComputeJob, Filter, Format, ImageDesc, ImageDim, ResourceDesc, RuntimeError, SamplerDesc,
};

fn job<'a>(spirv: &'a [u32], resources: Vec<BoundResource>, dispatch: [u32; 3]) -> ComputeJob<'a> {
    ComputeJob {
        spirv,
        entry_point: "main",
        resources,
        push_constants: Vec::new(),
        dispatch,
        required_subgroup_size: None,
        scene: None,
    }
}

fn add_inputs(n: u32, salt: u32) -> (Vec<u32>, Vec<u32>) {
    let a: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761).wrapping_add(salt)).collect();
    let b: Vec<u32> = (0..n).map(|i| (i ^ salt).wrapping_mul(40_503)).collect();
    (a, b)
}

fn run_add(ctx: &dxjit_runtime::Context, spirv: &[u32], salt: u32) {
    let n = 256;
    let (a, b) = add_inputs(n, salt);
    let resources = vec![
        BoundResource::new(0, 0, ResourceDesc::StorageBuffer { data: u32s(&a) }),
        BoundResource::new(0, 1, ResourceDesc::StorageBuffer { data: u32s(&b) }),
        BoundResource::new(1, 0, ResourceDesc::StorageBuffer { data: vec![0xAB; n as usize * 4] }),
    ];
    let result = ctx.run_compute(&job(spirv, resources, [n / 64, 1, 1])).expect("add job runs");
    assert_eq!(result.resources.len(), 3);
    let c = to_u32s(result.get(1, 0, 0).expect("output buffer"));
    let expected: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    assert_eq!(c, expected);
    // Inputs come back unchanged.
    assert_eq!(to_u32s(result.get(0, 0, 0).expect("a")), a);
    assert_eq!(to_u32s(result.get(0, 1, 0).expect("b")), b);
}

#[test]
fn storage_buffer_add() {
    let Some((ctx, spirv)) = setup("storage_buffer_add", "add") else { return };
    run_add(&ctx, &spirv, 7);
    // A second job on the same context works as well.
    run_add(&ctx, &spirv, 99);
    assert_clean(ctx);
}

#[test]
fn uniform_buffer_and_push_constants() {
    let Some((ctx, spirv)) = setup("uniform_buffer_and_push_constants", "ubo_push") else { return };
    let (scale, bias, offset) = (3u32, 1000u32, 5u32);
    let mut ubo = u32s(&[scale, bias]);
    ubo.resize(256, 0);
    let mut j = job(
        &spirv,
        vec![
            BoundResource::new(0, 0, ResourceDesc::UniformBuffer { data: ubo }),
            BoundResource::new(0, 1, ResourceDesc::StorageBuffer { data: vec![0; 64 * 4] }),
        ],
        [2, 1, 1],
    );
    j.push_constants = offset.to_le_bytes().to_vec();
    let result = ctx.run_compute(&j).expect("ubo job runs");
    let out = to_u32s(result.get(0, 1, 0).expect("output"));
    let expected: Vec<u32> = (0..64).map(|i| i * scale + bias + offset).collect();
    assert_eq!(out, expected);
    assert_clean(ctx);
}

#[test]
fn texel_buffers() {
    let Some((ctx, spirv)) = setup("texel_buffers", "texel") else { return };
    let n = 32usize;
    let src: Vec<u8> = (0..n * 4).map(|i| (i * 37 % 256) as u8).collect();
    let result = ctx
        .run_compute(&job(
            &spirv,
            vec![
                BoundResource::new(
                    0,
                    0,
                    ResourceDesc::UniformTexelBuffer { format: Format::R8G8B8A8Unorm, data: src.clone() },
                ),
                BoundResource::new(
                    0,
                    1,
                    ResourceDesc::StorageTexelBuffer { format: Format::R32G32B32A32Float, data: vec![0; n * 16] },
                ),
            ],
            [(n / 16) as u32, 1, 1],
        ))
        .expect("texel job runs");
    let out = to_f32s(result.get(0, 1, 0).expect("storage texel buffer"));
    assert_eq!(out.len(), n * 4);
    for (i, (got, byte)) in out.iter().zip(&src).enumerate() {
        let want = f32::from(*byte) / 255.0 * 2.0;
        assert!((got - want).abs() < 1e-5, "component {i}: got {got}, want {want}");
    }
    assert_eq!(result.get(0, 0, 0).expect("uniform texel buffer"), src.as_slice());
    assert_clean(ctx);
}

#[test]
fn sampled_image_and_sampler() {
    let Some((ctx, spirv)) = setup("sampled_image_and_sampler", "sample") else { return };
    // Mip 0 (4x4): (x, y, 0, 1); mip 1 (2x2): (100 + x, 100 + y, 1, 1).
    let mut texels = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            texels.extend([x as f32, y as f32, 0.0, 1.0]);
        }
    }
    for y in 0..2 {
        for x in 0..2 {
            texels.extend([100.0 + x as f32, 100.0 + y as f32, 1.0, 1.0]);
        }
    }
    let image = ImageDesc {
        dim: ImageDim::D2,
        format: Format::R32G32B32A32Float,
        width: 4,
        height: 4,
        depth: 1,
        layers: 1,
        mips: 2,
        samples: 1,
        data: f32s(&texels),
    };
    assert_eq!(image.packed_len(), image.data.len());
    let sampler = SamplerDesc { filter: Filter::Point, ..Default::default() };
    let result = ctx
        .run_compute(&job(
            &spirv,
            vec![
                BoundResource::new(0, 0, ResourceDesc::SampledImage(image.clone())),
                BoundResource::new(0, 1, ResourceDesc::Sampler(sampler)),
                BoundResource::new(0, 2, ResourceDesc::StorageBuffer { data: vec![0; 16 * 3 * 16] }),
            ],
            [1, 1, 1],
        ))
        .expect("sample job runs");
    // Samplers are not part of the result.
    assert_eq!(result.resources.len(), 2);
    let out = to_f32s(result.get(0, 2, 0).expect("output"));
    for y in 0..4u32 {
        for x in 0..4u32 {
            let base = ((y * 4 + x) * 3 * 4) as usize;
            let mip0 = [x as f32, y as f32, 0.0, 1.0];
            let mip1 = [100.0 + (x / 2) as f32, 100.0 + (y / 2) as f32, 1.0, 1.0];
            assert_eq!(out[base..base + 4], mip0, "sample lod 0 at ({x}, {y})");
            assert_eq!(out[base + 4..base + 8], mip1, "sample lod 1 at ({x}, {y})");
            assert_eq!(out[base + 8..base + 12], mip0, "fetch at ({x}, {y})");
        }
    }
    assert_eq!(result.get(0, 0, 0).expect("image"), image.data.as_slice());
    assert_clean(ctx);
}

#[test]
fn storage_image_write() {
    let Some((ctx, spirv)) = setup("storage_image_write", "storage_image") else { return };
    let result = ctx
        .run_compute(&job(
            &spirv,
            vec![
                BoundResource::new(
                    0,
                    0,
                    ResourceDesc::StorageImage(ImageDesc::new_2d(Format::R32Uint, 8, 8, Vec::new())),
                ),
                BoundResource::new(
                    0,
                    1,
                    ResourceDesc::StorageImage(ImageDesc::new_2d(Format::R8G8B8A8Unorm, 8, 8, vec![0x55; 8 * 8 * 4])),
                ),
            ],
            [1, 1, 1],
        ))
        .expect("storage image job runs");
    let u = to_u32s(result.get(0, 0, 0).expect("r32ui image"));
    let want_u: Vec<u32> = (0..8).flat_map(|y| (0..8).map(move |x| x + 100 * y + 1)).collect();
    assert_eq!(u, want_u);
    let f = result.get(0, 1, 0).expect("rgba8 image");
    let want_f: Vec<u8> = (0..8u8).flat_map(|y| (0..8u8).flat_map(move |x| [30 * x, 30 * y, 0, 255])).collect();
    assert_eq!(f, want_f.as_slice());
    assert_clean(ctx);
}

/// Images of several view types round-trip through upload and read-back, and the shader sees the
/// sizes, layer and level counts the descriptions ask for.
#[test]
fn image_view_types_and_packing() {
    let Some((ctx, spirv)) = setup("image_view_types_and_packing", "image_query") else { return };
    let pattern = |len: usize, salt: u32| -> Vec<u8> {
        (0..len as u32).map(|i| (i.wrapping_mul(2_246_822_519).wrapping_add(salt) >> 13) as u8).collect()
    };
    let mut arr2d = ImageDesc { layers: 3, mips: 2, ..ImageDesc::new_2d(Format::R32Uint, 4, 2, Vec::new()) };
    arr2d.data = pattern(arr2d.packed_len(), 1);
    assert_eq!(arr2d.packed_len(), 3 * (4 * 2 + 2) * 4);
    let mut vol =
        ImageDesc { dim: ImageDim::D3, depth: 2, ..ImageDesc::new_2d(Format::R8G8B8A8Unorm, 4, 4, Vec::new()) };
    vol.data = pattern(vol.packed_len(), 2);
    let mut cube =
        ImageDesc { dim: ImageDim::Cube, layers: 6, mips: 2, ..ImageDesc::new_2d(Format::R8Unorm, 2, 2, Vec::new()) };
    cube.data = pattern(cube.packed_len(), 3);
    let mut line =
        ImageDesc { dim: ImageDim::D1, layers: 2, mips: 4, ..ImageDesc::new_2d(Format::R16Uint, 8, 1, Vec::new()) };
    line.data = pattern(line.packed_len(), 4);
    assert_eq!(line.packed_len(), 2 * (8 + 4 + 2 + 1) * 2);
    let result = ctx
        .run_compute(&job(
            &spirv,
            vec![
                BoundResource::new(0, 0, ResourceDesc::SampledImage(arr2d.clone())),
                BoundResource::new(0, 1, ResourceDesc::StorageImage(vol.clone())),
                BoundResource::new(0, 2, ResourceDesc::SampledImage(cube.clone())),
                BoundResource::new(0, 3, ResourceDesc::SampledImage(line.clone())),
                BoundResource::new(0, 4, ResourceDesc::StorageBuffer { data: vec![0; 12 * 4] }),
            ],
            [1, 1, 1],
        ))
        .expect("image query job runs");
    assert_eq!(to_u32s(result.get(0, 4, 0).expect("sizes")), [4, 2, 3, 2, 4, 4, 2, 2, 2, 2, 8, 2]);
    assert_eq!(result.get(0, 0, 0).expect("2d array"), arr2d.data.as_slice());
    assert_eq!(result.get(0, 1, 0).expect("3d"), vol.data.as_slice());
    assert_eq!(result.get(0, 2, 0).expect("cube"), cube.data.as_slice());
    assert_eq!(result.get(0, 3, 0).expect("1d array"), line.data.as_slice());
    assert_clean(ctx);
}

/// A job whose descriptor type contradicts the shader is refused with a clear error before any Vulkan
/// object is made; a push-constant range shorter than the shader's block is caught by the validation
/// layer, and the message reaches `take_validation_messages`.
#[test]
fn invalid_use_is_reported() {
    let Some(spirv) = assemble("invalid_use_is_reported", "add") else { return };
    let Some(bad_push) = assemble("invalid_use_is_reported", "push_mismatch") else { return };
    let Some(ctx) = context("invalid_use_is_reported") else { return };
    let resources = vec![
        BoundResource::new(0, 0, ResourceDesc::StorageBuffer { data: vec![0; 256] }),
        BoundResource::new(0, 1, ResourceDesc::StorageBuffer { data: vec![0; 256] }),
        BoundResource::new(1, 0, ResourceDesc::UniformBuffer { data: vec![0; 256] }),
    ];
    match ctx.run_compute(&job(&spirv, resources, [1, 1, 1])) {
        Err(RuntimeError::DescriptorTypeMismatch { set: 1, binding: 0, shader, job }) => {
            assert_eq!((shader.as_str(), job.as_str()), ("storage buffer", "uniform buffer"));
        }
        other => panic!("expected a descriptor type mismatch, got {other:?}"),
    }
    // A sampler the shader needs but the job lacks can never be a null descriptor.
    let Some(sample) = assemble("invalid_use_is_reported", "sample") else { return };
    let resources = vec![
        BoundResource::new(
            0,
            0,
            ResourceDesc::SampledImage(ImageDesc::new_2d(Format::R8G8B8A8Unorm, 4, 4, Vec::new())),
        ),
        BoundResource::new(0, 2, ResourceDesc::StorageBuffer { data: vec![0; 16 * 3 * 16] }),
    ];
    let err = ctx.run_compute(&job(&sample, resources, [1, 1, 1])).expect_err("missing sampler is an error");
    assert!(matches!(err, RuntimeError::MissingBinding { set: 0, binding: 1, .. }), "{err}");
    assert!(err.to_string().contains("sampler"), "{err}");
    assert!(ctx.take_validation_messages().is_empty());

    // Validation layer capture.
    let mut j =
        job(&bad_push, vec![BoundResource::new(0, 0, ResourceDesc::StorageBuffer { data: vec![0; 4] })], [1, 1, 1]);
    j.push_constants = vec![1, 2, 3, 4];
    let _ = ctx.run_compute(&j);
    let messages = ctx.take_validation_messages();
    assert!(
        messages.iter().any(|m| m.starts_with("error") && m.to_lowercase().contains("push constant")),
        "expected a push-constant validation error, got {messages:?}"
    );
    assert!(ctx.take_validation_messages().is_empty(), "messages are cleared once taken");
    let teardown = ctx.finish();
    assert!(teardown.is_empty(), "teardown: {teardown:?}");
}

/// A binding the shader declares but the job omits is bound as a null descriptor (reads give zero)
/// when robustness2 nullDescriptor exists, and is a clear error otherwise.
#[test]
fn missing_binding_null_descriptor() {
    let Some((ctx, spirv)) = setup("missing_binding_null_descriptor", "add") else { return };
    let a: Vec<u32> = (0..64).map(|i| i * 3 + 1).collect();
    let resources = vec![
        BoundResource::new(0, 0, ResourceDesc::StorageBuffer { data: u32s(&a) }),
        BoundResource::new(1, 0, ResourceDesc::StorageBuffer { data: vec![0; 64 * 4] }),
    ];
    match ctx.run_compute(&job(&spirv, resources, [1, 1, 1])) {
        Ok(result) => {
            assert!(ctx.features().null_descriptor);
            assert_eq!(to_u32s(result.get(1, 0, 0).expect("output")), a);
            assert_eq!(result.resources.len(), 2);
        }
        Err(RuntimeError::MissingBinding { set: 0, binding: 1, .. }) => assert!(!ctx.features().null_descriptor),
        Err(e) => panic!("unexpected error {e}"),
    }
    assert_clean(ctx);
}

#[test]
fn two_contexts_in_parallel_threads() {
    let Some(spirv) = assemble("two_contexts_in_parallel_threads", "add") else { return };
    let Some(probe) = context("two_contexts_in_parallel_threads") else { return };
    drop(probe);
    let threads: Vec<_> = (0..2u32)
        .map(|t| {
            let spirv = spirv.clone();
            std::thread::spawn(move || {
                let ctx = context("two_contexts_in_parallel_threads").expect("device exists");
                for round in 0..3 {
                    run_add(&ctx, &spirv, t * 1000 + round);
                }
                assert_clean(ctx);
            })
        })
        .collect();
    for t in threads {
        t.join().expect("thread succeeded");
    }
}

#[test]
fn features_are_reported() {
    let Some(ctx) = context("features_are_reported") else { return };
    let f = ctx.features();
    eprintln!("device {:?}: {f:#?}", ctx.device_name());
    assert!(!ctx.device_name().is_empty());
    assert!(f.api_version >= dxjit_runtime::vk::API_VERSION_1_2);
    assert!(f.subgroup_size >= 1);
    assert!(f.min_subgroup_size <= f.subgroup_size && f.subgroup_size <= f.max_subgroup_size);
    if ctx.device_name().contains("llvmpipe") {
        // Facts from /work/shared/notes/dxil-facts.md about lavapipe 22.3.
        assert!(f.robust_buffer_access2 && f.null_descriptor);
        assert!(f.shader_float64 && f.shader_int64 && f.shader_int16 && f.shader_float16 && f.shader_int8);
        assert!(f.storage_buffer_16bit_access && f.storage_buffer_8bit_access);
        assert!(f.tessellation_shader && f.geometry_shader && f.transform_feedback);
        assert!(f.vulkan_memory_model && f.shader_demote_to_helper_invocation);
        let driver = ctx.driver_description();
        eprintln!("driver: {driver}");
        assert!(driver.contains("Mesa"), "{driver}");
        if driver.contains("Mesa 22.") {
            assert!(!f.shader_storage_image_read_without_format);
            assert!(!f.runtime_descriptor_array);
        } else {
            // Mesa 25 lavapipe (Vulkan 1.4): what the bindless harness needs.
            assert!(f.api_version >= dxjit_runtime::vk::API_VERSION_1_3, "{driver}");
            assert!(f.descriptor_indexing && f.runtime_descriptor_array && f.buffer_device_address);
            assert!(f.shader_storage_image_read_without_format);
        }
    }
    assert_clean(ctx);
}

#[test]
fn required_subgroup_size() {
    let Some((ctx, spirv)) = setup("required_subgroup_size", "add") else { return };
    let size = ctx.features().subgroup_size;
    let (a, b) = add_inputs(64, 5);
    let mut j = job(
        &spirv,
        vec![
            BoundResource::new(0, 0, ResourceDesc::StorageBuffer { data: u32s(&a) }),
            BoundResource::new(0, 1, ResourceDesc::StorageBuffer { data: u32s(&b) }),
            BoundResource::new(1, 0, ResourceDesc::StorageBuffer { data: vec![0; 64 * 4] }),
        ],
        [1, 1, 1],
    );
    j.required_subgroup_size = Some(size);
    let result = ctx.run_compute(&j).expect("the device's own subgroup size is always accepted");
    let want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    assert_eq!(to_u32s(result.get(1, 0, 0).expect("output")), want);
    j.required_subgroup_size = Some(ctx.features().max_subgroup_size * 2);
    assert!(matches!(ctx.run_compute(&j), Err(RuntimeError::Unsupported(_))));
    assert_clean(ctx);
}

#[test]
fn bad_spirv_and_entry_point() {
    assert!(dxjit_runtime::spirv_from_words(&[1, 2, 3]).is_err());
    assert!(dxjit_runtime::spirv_from_words(&[0, 0, 0, 0]).is_err());
    let be = [0x07u8, 0x23, 0x02, 0x03, 0, 0, 0, 1];
    assert_eq!(dxjit_runtime::spirv_from_words(&be).expect("big endian"), [0x0723_0203, 1]);
    let Some((ctx, spirv)) = setup("bad_spirv_and_entry_point", "add") else { return };
    let mut j = job(&spirv, Vec::new(), [1, 1, 1]);
    j.entry_point = "nope";
    assert!(matches!(ctx.run_compute(&j), Err(RuntimeError::EntryPointNotFound { .. })));
    let garbage = [0x0723_0203u32, 0x10300, 0, 10, 0, 0xffff_0001];
    assert!(matches!(ctx.run_compute(&job(&garbage, Vec::new(), [1, 1, 1])), Err(RuntimeError::InvalidSpirv(_))));
    assert_clean(ctx);
}

#[test]
fn device_override() {
    use dxjit_runtime::{Context, ContextOptions};
    let Some(ctx) = context("device_override") else { return };
    let name = ctx.device_name().to_string();
    assert_clean(ctx);
    let index = dxjit_runtime::vulkan_devices()
        .expect("devices")
        .iter()
        .find(|d| d.name == name)
        .map(|d| d.index)
        .expect("the chosen device is listed");
    let by_index =
        Context::new(&ContextOptions { validation: false, device: Some(index.to_string()) }).expect("by index");
    assert_eq!(by_index.device_name(), name);
    let needle = name.split_whitespace().next().unwrap_or_default().to_uppercase();
    let by_name = Context::new(&ContextOptions { validation: false, device: Some(needle) }).expect("by name");
    assert_eq!(by_name.device_name(), name);
    let missing = Context::new(&ContextOptions { validation: false, device: Some("no such gpu anywhere".into()) });
    assert!(matches!(missing, Err(RuntimeError::DeviceNotFound { .. })), "{missing:?}");
}

/// Descriptor arrays: elements are bound by `array_index`; the layout is sized by the shader's array
/// (3) even though the job's highest index is 2, and the hole at index 1 becomes a null descriptor
/// (or a clear error without nullDescriptor).
#[test]
fn descriptor_array_with_hole() {
    let Some((ctx, spirv)) = setup("descriptor_array_with_hole", "buffer_array") else { return };
    let b0: Vec<u32> = (0..16).map(|i| i * 10).collect();
    let b2: Vec<u32> = (0..16).map(|i| i + 1000).collect();
    let resources = vec![
        BoundResource { set: 0, binding: 0, array_index: 2, resource: ResourceDesc::StorageBuffer { data: u32s(&b2) } },
        BoundResource { set: 0, binding: 0, array_index: 0, resource: ResourceDesc::StorageBuffer { data: u32s(&b0) } },
        BoundResource::new(0, 1, ResourceDesc::StorageBuffer { data: vec![0; 16 * 4] }),
    ];
    match ctx.run_compute(&job(&spirv, resources.clone(), [1, 1, 1])) {
        Ok(result) => {
            let want: Vec<u32> = b0.iter().zip(&b2).map(|(a, c)| a + 3 * c).collect();
            assert_eq!(to_u32s(result.get(0, 1, 0).expect("out")), want);
            // Results follow the job's resource order.
            let order: Vec<_> = result.resources.iter().map(|(s, b, i, _)| (*s, *b, *i)).collect();
            assert_eq!(order, [(0, 0, 2), (0, 0, 0), (0, 1, 0)]);
        }
        Err(RuntimeError::MissingBinding { set: 0, binding: 0, .. }) => assert!(!ctx.features().null_descriptor),
        Err(e) => panic!("unexpected error {e}"),
    }
    // Binding the same slot twice is refused.
    let mut twice = resources;
    twice.push(BoundResource::new(0, 0, ResourceDesc::StorageBuffer { data: vec![0; 4] }));
    assert!(matches!(
        ctx.run_compute(&job(&spirv, twice, [1, 1, 1])),
        Err(RuntimeError::InvalidResource { set: 0, binding: 0, array_index: 0, .. })
    ));
    assert_clean(ctx);
}

/// Multisampled images start zeroed, can be read by the shader, and come back empty; giving them data
/// or a shader image type that disagrees about multisampling is an error.
#[test]
fn multisampled_image_is_zeroed() {
    let Some((ctx, spirv)) = setup("multisampled_image_is_zeroed", "ms_fetch") else { return };
    let ms = ImageDesc { samples: 4, ..ImageDesc::new_2d(Format::R32G32B32A32Float, 4, 4, Vec::new()) };
    let resources = vec![
        BoundResource::new(0, 0, ResourceDesc::SampledImage(ms.clone())),
        BoundResource::new(0, 1, ResourceDesc::StorageBuffer { data: vec![0xff; 16 * 16] }),
    ];
    let result = ctx.run_compute(&job(&spirv, resources.clone(), [1, 1, 1])).expect("ms job runs");
    assert_eq!(result.get(0, 0, 0), Some(&[][..]));
    assert_eq!(result.get(0, 1, 0).expect("out"), vec![0u8; 16 * 16].as_slice());
    let mut with_data = resources.clone();
    with_data[0].resource = ResourceDesc::SampledImage(ImageDesc { data: vec![0; ms.packed_len()], ..ms.clone() });
    assert!(matches!(ctx.run_compute(&job(&spirv, with_data, [1, 1, 1])), Err(RuntimeError::InvalidResource { .. })));
    let mut single = resources;
    single[0].resource = ResourceDesc::SampledImage(ImageDesc { samples: 1, ..ms });
    assert!(matches!(
        ctx.run_compute(&job(&spirv, single, [1, 1, 1])),
        Err(RuntimeError::DescriptorTypeMismatch { set: 0, binding: 0, .. })
    ));
    assert_clean(ctx);
}

/// A bindless heap (a 1,000-element runtime array of storage buffers, one buffer at element 700,
/// an explicit null element sizing it) indexed through a push-constant word, and a root descriptor:
/// a buffer reached through the device address the runtime writes into push bytes 0-7.
#[test]
fn bindless_heap_and_buffer_address() {
    let Some((ctx, spirv)) = setup("bindless_heap_and_buffer_address", "bindless") else { return };
    let f = ctx.features();
    if !(f.runtime_descriptor_array && f.buffer_device_address && f.descriptor_binding_partially_bound) {
        eprintln!(
            "SKIPPED bindless_heap_and_buffer_address: device lacks descriptor indexing or buffer device address"
        );
        return;
    }
    let heap: Vec<u32> = (0..8).map(|i| 1000 + i).collect();
    let root: Vec<u32> = (0..8).map(|i| 10 * i).collect();
    let mut push = vec![0u8; 12];
    push[8..12].copy_from_slice(&700u32.to_le_bytes());
    let resources = vec![
        BoundResource {
            set: 0,
            binding: 1,
            array_index: 700,
            resource: ResourceDesc::StorageBuffer { data: u32s(&heap) },
        },
        BoundResource {
            set: 0,
            binding: 1,
            array_index: 999,
            resource: ResourceDesc::Null(dxjit_runtime::reflect::DescriptorKind::StorageBuffer),
        },
        BoundResource::new(1, 0, ResourceDesc::StorageBuffer { data: vec![0; 32] }),
        BoundResource::new(7, 0, ResourceDesc::AddressBuffer { data: u32s(&root), push_offset: Some(0) }),
    ];
    let mut j = job(&spirv, resources, [1, 1, 1]);
    j.push_constants = push;
    let r = ctx.run_compute(&j).expect("bindless job runs");
    let out = to_u32s(r.get(1, 0, 0).expect("output"));
    let want: Vec<u32> = (0..8).map(|i| 1000 + i + 10 * i).collect();
    assert_eq!(out, want);
    // The shader wrote through the address; the buffer comes back under its name.
    assert_eq!(to_u32s(r.get(7, 0, 0).expect("root buffer")), (0..8).map(|i| 2 * i).collect::<Vec<u32>>());
    // Null elements come back as nothing.
    assert!(r.get(0, 1, 999).is_none());
    assert_clean(ctx);
}
