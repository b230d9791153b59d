//! Turning [`BoundResource`]s into Vulkan buffers, images, views and samplers; recording their upload,
//! layout transitions and read-back; reading the results. Stage-agnostic: compute and graphics jobs
//! pass the pipeline stages that access the resources.

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::format::ImageDim;
use crate::reflect::{ImageTypeInfo, SpvDim};
use crate::resources::{BoundResource, ImageDesc, ResourceDesc, SamplerDesc, Subresource};
use crate::scratch::{AllocId, Scratch};
use crate::{Format, RuntimeError};

/// `(set, binding, array index, bytes)` of one resource after a job.
pub(crate) type ResourceContents = (u32, u32, u32, Vec<u8>);

/// A resource as created on the device.
pub(crate) enum Prepared {
    Buffer {
        buffer: vk::Buffer,
        staging: vk::Buffer,
        staging_mem: AllocId,
        size: u64,
        len: usize,
        /// Buffer device address (buffers reached through one).
        address: Option<u64>,
    },
    TexelBuffer {
        buffer: vk::Buffer,
        view: vk::BufferView,
        staging: vk::Buffer,
        staging_mem: AllocId,
        size: u64,
        len: usize,
    },
    Image(PreparedImage),
    Sampler(vk::Sampler),
    /// The job's top-level acceleration structure (see `raytracing::attach_scene`).
    Accel {
        handle: vk::AccelerationStructureKHR,
        address: u64,
    },
    /// A null descriptor: nothing created, nothing read back.
    Nothing,
}

pub(crate) struct PreparedImage {
    image: vk::Image,
    pub(crate) view: vk::ImageView,
    staging: vk::Buffer,
    staging_mem: AllocId,
    aspect: vk::ImageAspectFlags,
    /// Layout the shader sees the image in.
    pub(crate) layout: vk::ImageLayout,
    /// (subresource, offset in the staging buffer).
    regions: Vec<(Subresource, u64)>,
    /// Zero-fill instead of copying from staging.
    clear: bool,
    /// Multisampled images are neither uploaded nor read back.
    multisampled: bool,
    packed_len: usize,
    depth_format: bool,
    integer_format: bool,
    mips: u32,
    layers: u32,
}

impl Prepared {
    /// Descriptor payload for a buffer/image/texel/sampler descriptor.
    pub(crate) fn buffer_info(&self) -> Option<vk::DescriptorBufferInfo> {
        match self {
            Prepared::Buffer { buffer, size, .. } => {
                Some(vk::DescriptorBufferInfo { buffer: *buffer, offset: 0, range: *size })
            }
            _ => None,
        }
    }
}

fn invalid(res: &BoundResource, reason: impl Into<String>) -> RuntimeError {
    RuntimeError::InvalidResource {
        set: res.set,
        binding: res.binding,
        array_index: res.array_index,
        reason: reason.into(),
    }
}

fn round_up(v: u64, to: u64) -> u64 {
    v.div_ceil(to).saturating_mul(to)
}

const TRANSFER: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::TRANSFER_SRC.as_raw() | vk::BufferUsageFlags::TRANSFER_DST.as_raw(),
);

fn staging_for(scratch: &mut Scratch<'_>, name: &str, size: u64) -> Result<(vk::Buffer, AllocId), RuntimeError> {
    scratch.buffer(name, size, TRANSFER, MemoryLocation::GpuToCpu)
}

/// Creates the device objects for `res` and fills its staging memory. `image_type` is the shader's view
/// of the binding when reflection found one (decides arrayed views and checks dimensionality).
pub(crate) fn prepare(
    scratch: &mut Scratch<'_>,
    res: &BoundResource,
    image_type: Option<ImageTypeInfo>,
) -> Result<Prepared, RuntimeError> {
    let limits = *scratch.ctx.limits();
    let name = format!("set{} binding{}[{}]", res.set, res.binding, res.array_index);
    match &res.resource {
        ResourceDesc::UniformBuffer { data } | ResourceDesc::StorageBuffer { data } => {
            let uniform = matches!(res.resource, ResourceDesc::UniformBuffer { .. });
            if data.is_empty() {
                return Err(invalid(res, "buffer data is empty (size must be at least 1 byte)"));
            }
            let size = round_up(data.len() as u64, 4);
            let (max, usage) = if uniform {
                (u64::from(limits.max_uniform_buffer_range), vk::BufferUsageFlags::UNIFORM_BUFFER)
            } else {
                (u64::from(limits.max_storage_buffer_range), vk::BufferUsageFlags::STORAGE_BUFFER)
            };
            if size > max {
                return Err(invalid(res, format!("{size} bytes exceed the device's range limit of {max}")));
            }
            let (buffer, _) = scratch.buffer(&name, size, usage | TRANSFER, MemoryLocation::GpuOnly)?;
            let (staging, staging_mem) = staging_for(scratch, &name, size)?;
            fill(scratch.mapped(staging_mem)?, &[(0, data.as_slice())]);
            Ok(Prepared::Buffer { buffer, staging, staging_mem, size, len: data.len(), address: None })
        }
        ResourceDesc::AddressBuffer { data, .. } => {
            if !scratch.ctx.features().buffer_device_address {
                return Err(RuntimeError::Unsupported("buffer device address (bufferDeviceAddress)".into()));
            }
            if data.is_empty() {
                return Err(invalid(res, "buffer data is empty (size must be at least 1 byte)"));
            }
            let size = round_up(data.len() as u64, 4);
            let usage = vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::UNIFORM_BUFFER
                | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
            let (buffer, _) = scratch.buffer(&name, size, usage | TRANSFER, MemoryLocation::GpuOnly)?;
            let info = vk::BufferDeviceAddressInfo::default().buffer(buffer);
            // SAFETY: the buffer was created with SHADER_DEVICE_ADDRESS usage and bound to memory
            // allocated with the device-address flag (the allocator is created with it).
            let address = unsafe { scratch.device().get_buffer_device_address(&info) };
            let (staging, staging_mem) = staging_for(scratch, &name, size)?;
            fill(scratch.mapped(staging_mem)?, &[(0, data.as_slice())]);
            Ok(Prepared::Buffer { buffer, staging, staging_mem, size, len: data.len(), address: Some(address) })
        }
        // Acceleration structures come from the job's scene (`raytracing::attach_scene`).
        ResourceDesc::Null(_)
        | ResourceDesc::AccelerationStructure
        | ResourceDesc::AccelerationStructureAddress { .. } => Ok(Prepared::Nothing),
        ResourceDesc::UniformTexelBuffer { format, data } | ResourceDesc::StorageTexelBuffer { format, data } => {
            let storage = matches!(res.resource, ResourceDesc::StorageTexelBuffer { .. });
            let bpt = u64::from(format.bytes_per_texel());
            let len = data.len() as u64;
            if len == 0 || !len.is_multiple_of(bpt) {
                return Err(invalid(
                    res,
                    format!("texel buffer data of {len} bytes is not a positive multiple of {bpt} ({format:?})"),
                ));
            }
            if len / bpt > u64::from(limits.max_texel_buffer_elements) {
                return Err(invalid(res, format!("{} texels exceed maxTexelBufferElements", len / bpt)));
            }
            let (needed, usage, usage_name) = if storage {
                (
                    vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
                    vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER,
                    "storage texel buffers",
                )
            } else {
                (
                    vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER,
                    vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER,
                    "uniform texel buffers",
                )
            };
            let props = format_properties(scratch, *format);
            if !props.buffer_features.contains(needed) {
                return Err(RuntimeError::FormatUnsupported { format: *format, usage: usage_name });
            }
            let size = round_up(len, 4);
            let (buffer, _) = scratch.buffer(&name, size, usage | TRANSFER, MemoryLocation::GpuOnly)?;
            let view_info = vk::BufferViewCreateInfo::default().buffer(buffer).format(format.vk()).offset(0).range(len);
            let view = scratch.buffer_view(&view_info)?;
            let (staging, staging_mem) = staging_for(scratch, &name, size)?;
            fill(scratch.mapped(staging_mem)?, &[(0, data.as_slice())]);
            Ok(Prepared::TexelBuffer { buffer, view, staging, staging_mem, size, len: data.len() })
        }
        ResourceDesc::SampledImage(desc) => {
            prepare_image(scratch, res, desc, false, image_type, &name).map(Prepared::Image)
        }
        ResourceDesc::StorageImage(desc) => {
            prepare_image(scratch, res, desc, true, image_type, &name).map(Prepared::Image)
        }
        ResourceDesc::Sampler(desc) => prepare_sampler(scratch, res, desc).map(Prepared::Sampler),
    }
}

pub(crate) fn format_properties(scratch: &Scratch<'_>, format: Format) -> vk::FormatProperties {
    // SAFETY: plain query on the context's physical device.
    unsafe { scratch.ctx.instance().get_physical_device_format_properties(scratch.ctx.physical_device, format.vk()) }
}

/// Copies `(offset, bytes)` chunks into a mapped staging area whose remainder is zeroed.
fn fill(mapped: &mut [u8], chunks: &[(usize, &[u8])]) {
    mapped.fill(0);
    for (offset, bytes) in chunks {
        if let Some(dst) = mapped.get_mut(*offset..offset.saturating_add(bytes.len())) {
            dst.copy_from_slice(bytes);
        }
    }
}

fn dim_name(d: SpvDim) -> &'static str {
    match d {
        SpvDim::D1 => "1D",
        SpvDim::D2 | SpvDim::Rect => "2D",
        SpvDim::D3 => "3D",
        SpvDim::Cube => "cube",
        SpvDim::Buffer => "buffer",
        SpvDim::SubpassData => "subpass",
        SpvDim::Other(_) => "unknown-dim",
    }
}

fn prepare_image(
    scratch: &mut Scratch<'_>,
    res: &BoundResource,
    desc: &ImageDesc,
    storage: bool,
    image_type: Option<ImageTypeInfo>,
    name: &str,
) -> Result<PreparedImage, RuntimeError> {
    let ImageDesc { dim, format, width, height, depth, layers, mips, samples, .. } = *desc;
    if format.has_stencil() {
        return Err(RuntimeError::FormatUnsupported {
            format,
            usage: "shader resources (depth/stencil formats are render targets only)",
        });
    }
    if width == 0 || height == 0 || depth == 0 || layers == 0 || mips == 0 || samples == 0 {
        return Err(invalid(res, "image width, height, depth, layers, mips and samples must all be at least 1"));
    }
    match dim {
        ImageDim::D1 if height != 1 || depth != 1 => return Err(invalid(res, "1D image with height or depth > 1")),
        ImageDim::D2 | ImageDim::Cube if depth != 1 => return Err(invalid(res, "2D/cube image with depth > 1")),
        ImageDim::D3 if layers != 1 => return Err(invalid(res, "3D images cannot have array layers")),
        ImageDim::Cube if layers % 6 != 0 || width != height => {
            return Err(invalid(res, "cube images need square faces and a multiple of 6 layers"))
        }
        _ => {}
    }
    let max_mips = 32 - width.max(height).max(depth).leading_zeros();
    if mips > max_mips {
        return Err(invalid(
            res,
            format!("{mips} mips requested, a {width}x{height}x{depth} image has at most {max_mips}"),
        ));
    }
    if !samples.is_power_of_two() || samples > 64 {
        return Err(invalid(res, format!("sample count {samples} is not a power of two up to 64")));
    }
    let multisampled = samples > 1;
    if multisampled && (dim != ImageDim::D2 || mips != 1) {
        return Err(invalid(res, "multisampled images must be 2D with one mip"));
    }
    if multisampled && !desc.data.is_empty() {
        return Err(invalid(res, "multisampled images cannot be initialised with data (leave `data` empty)"));
    }
    let packed_len = desc.packed_len();
    if !desc.data.is_empty() && desc.data.len() != packed_len {
        return Err(invalid(
            res,
            format!("image data is {} bytes, the packed subresources need {packed_len}", desc.data.len()),
        ));
    }

    // Compare with the shader's view of the binding.
    let per_layer = if dim == ImageDim::Cube { 6 } else { 1 };
    let arrayed = match image_type {
        Some(t) => {
            let matches = matches!(
                (t.dim, dim),
                (SpvDim::D1, ImageDim::D1)
                    | (SpvDim::D2 | SpvDim::Rect, ImageDim::D2)
                    | (SpvDim::D3, ImageDim::D3)
                    | (SpvDim::Cube, ImageDim::Cube)
            );
            if !matches || t.multisampled != multisampled {
                let ms = |m: bool| if m { " multisampled" } else { "" };
                return Err(RuntimeError::DescriptorTypeMismatch {
                    set: res.set,
                    binding: res.binding,
                    shader: format!(
                        "{}{}{} image",
                        dim_name(t.dim),
                        if t.arrayed { " array" } else { "" },
                        ms(t.multisampled)
                    ),
                    job: format!("{dim:?}{} image with {layers} layers", ms(multisampled)),
                });
            }
            t.arrayed
        }
        None => layers > per_layer,
    };
    let view_type = match (dim, arrayed) {
        (ImageDim::D1, false) => vk::ImageViewType::TYPE_1D,
        (ImageDim::D1, true) => vk::ImageViewType::TYPE_1D_ARRAY,
        (ImageDim::D2, false) => vk::ImageViewType::TYPE_2D,
        (ImageDim::D2, true) => vk::ImageViewType::TYPE_2D_ARRAY,
        (ImageDim::D3, _) => vk::ImageViewType::TYPE_3D,
        (ImageDim::Cube, false) => vk::ImageViewType::CUBE,
        (ImageDim::Cube, true) => vk::ImageViewType::CUBE_ARRAY,
    };
    if view_type == vk::ImageViewType::CUBE_ARRAY && !scratch.ctx.features().image_cube_array {
        return Err(RuntimeError::Unsupported("cube array images (imageCubeArray)".into()));
    }

    let (needed, usage, usage_name) = if storage {
        (vk::FormatFeatureFlags::STORAGE_IMAGE, vk::ImageUsageFlags::STORAGE, "storage images")
    } else {
        (vk::FormatFeatureFlags::SAMPLED_IMAGE, vk::ImageUsageFlags::SAMPLED, "sampled images")
    };
    if !format_properties(scratch, format).optimal_tiling_features.contains(needed) {
        return Err(RuntimeError::FormatUnsupported { format, usage: usage_name });
    }
    let usage = usage | vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST;
    let image_type_vk = match dim {
        ImageDim::D1 => vk::ImageType::TYPE_1D,
        ImageDim::D2 | ImageDim::Cube => vk::ImageType::TYPE_2D,
        ImageDim::D3 => vk::ImageType::TYPE_3D,
    };
    let flags =
        if dim == ImageDim::Cube { vk::ImageCreateFlags::CUBE_COMPATIBLE } else { vk::ImageCreateFlags::empty() };
    let samples_vk = vk::SampleCountFlags::from_raw(samples);
    // SAFETY: plain query on the context's physical device.
    let limits = unsafe {
        scratch.ctx.instance().get_physical_device_image_format_properties(
            scratch.ctx.physical_device,
            format.vk(),
            image_type_vk,
            vk::ImageTiling::OPTIMAL,
            usage,
            flags,
        )
    }
    .map_err(|_| RuntimeError::FormatUnsupported { format, usage: usage_name })?;
    let e = limits.max_extent;
    if width > e.width
        || height > e.height
        || depth > e.depth
        || mips > limits.max_mip_levels
        || layers > limits.max_array_layers
    {
        return Err(invalid(
            res,
            format!(
                "image exceeds the device's limits for {format:?} ({e:?}, {} mips, {} layers)",
                limits.max_mip_levels, limits.max_array_layers
            ),
        ));
    }
    if !limits.sample_counts.contains(samples_vk) {
        return Err(invalid(res, format!("{samples} samples not supported for {format:?} {usage_name}")));
    }

    let info = vk::ImageCreateInfo::default()
        .flags(flags)
        .image_type(image_type_vk)
        .format(format.vk())
        .extent(vk::Extent3D { width, height, depth })
        .mip_levels(mips)
        .array_layers(layers)
        .samples(samples_vk)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
        .sharing_mode(vk::SharingMode::EXCLUSIVE)
        .initial_layout(vk::ImageLayout::UNDEFINED);
    let image = scratch.image(name, &info)?;
    let aspect = format.aspect();
    let view_info =
        vk::ImageViewCreateInfo::default().image(image).view_type(view_type).format(format.vk()).subresource_range(
            vk::ImageSubresourceRange {
                aspect_mask: aspect,
                base_mip_level: 0,
                // Storage image descriptors see a single mip.
                level_count: if storage { 1 } else { mips },
                base_array_layer: 0,
                layer_count: if arrayed || dim == ImageDim::D3 { layers } else { per_layer },
            },
        );
    let view = scratch.image_view(&view_info)?;

    // Staging layout: each subresource at an offset aligned for buffer-image copies.
    let bpt = u64::from(format.bytes_per_texel());
    let align = if 16 % bpt == 0 { 16 } else { bpt * 16 };
    let mut regions = Vec::new();
    let mut offset = 0u64;
    for sub in desc.subresources() {
        regions.push((sub, offset));
        offset = round_up(offset.saturating_add(sub.len as u64), align);
    }
    let (staging, staging_mem) = staging_for(scratch, name, offset.max(4))?;
    let clear = desc.data.is_empty();
    if !clear {
        let chunks: Vec<(usize, &[u8])> = regions
            .iter()
            .filter_map(|(sub, off)| Some((*off as usize, desc.data.get(sub.offset..sub.offset + sub.len)?)))
            .collect();
        fill(scratch.mapped(staging_mem)?, &chunks);
    }
    let layout = if storage { vk::ImageLayout::GENERAL } else { vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL };
    Ok(PreparedImage {
        image,
        view,
        staging,
        staging_mem,
        aspect,
        layout,
        regions,
        clear,
        multisampled,
        packed_len,
        depth_format: format.is_depth(),
        integer_format: format.is_integer(),
        mips,
        layers,
    })
}

fn prepare_sampler(
    scratch: &mut Scratch<'_>,
    res: &BoundResource,
    desc: &SamplerDesc,
) -> Result<vk::Sampler, RuntimeError> {
    let (filter, mip) = desc.filter.vk();
    let address = desc.address.vk();
    let limits = scratch.ctx.limits();
    let max_bias = limits.max_sampler_lod_bias;
    if desc.min_lod.is_nan() || desc.max_lod.is_nan() || desc.min_lod > desc.max_lod {
        return Err(invalid(res, format!("sampler min_lod {} > max_lod {}", desc.min_lod, desc.max_lod)));
    }
    let mut info = vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(mip)
        .address_mode_u(address)
        .address_mode_v(address)
        .address_mode_w(address)
        .mip_lod_bias(desc.mip_lod_bias.clamp(-max_bias, max_bias))
        .min_lod(desc.min_lod)
        .max_lod(desc.max_lod)
        .border_color(desc.border.vk(false))
        .unnormalized_coordinates(false);
    if let Some(op) = desc.compare {
        info = info.compare_enable(true).compare_op(op.vk());
    }
    if let Some(max) = desc.anisotropy {
        let features = scratch.ctx.features();
        if !features.sampler_anisotropy {
            return Err(RuntimeError::Unsupported("anisotropic filtering (samplerAnisotropy)".into()));
        }
        info = info.anisotropy_enable(true).max_anisotropy(max.clamp(1.0, features.max_sampler_anisotropy));
    }
    scratch.sampler(&info)
}

const SHADER_ACCESS: vk::AccessFlags = vk::AccessFlags::from_raw(
    vk::AccessFlags::SHADER_READ.as_raw()
        | vk::AccessFlags::SHADER_WRITE.as_raw()
        | vk::AccessFlags::UNIFORM_READ.as_raw(),
);

fn image_barrier(
    img: &PreparedImage,
    old: vk::ImageLayout,
    new: vk::ImageLayout,
    src: vk::AccessFlags,
    dst: vk::AccessFlags,
) -> vk::ImageMemoryBarrier<'static> {
    vk::ImageMemoryBarrier::default()
        .old_layout(old)
        .new_layout(new)
        .src_access_mask(src)
        .dst_access_mask(dst)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(img.image)
        .subresource_range(vk::ImageSubresourceRange {
            aspect_mask: img.aspect,
            base_mip_level: 0,
            level_count: img.mips,
            base_array_layer: 0,
            layer_count: img.layers,
        })
}

fn copy_regions(img: &PreparedImage) -> Vec<vk::BufferImageCopy> {
    img.regions
        .iter()
        .map(|(sub, offset)| vk::BufferImageCopy {
            buffer_offset: *offset,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: img.aspect,
                mip_level: sub.mip,
                base_array_layer: sub.layer,
                layer_count: 1,
            },
            image_offset: vk::Offset3D::default(),
            image_extent: vk::Extent3D { width: sub.width, height: sub.height, depth: sub.depth },
        })
        .collect()
}

/// Records the uploads of every prepared resource and the transitions into the layouts the shaders use.
/// `stages` are the pipeline stages whose shaders access the resources.
pub(crate) fn record_upload(
    device: &ash::Device,
    cb: vk::CommandBuffer,
    prepared: &[Prepared],
    stages: vk::PipelineStageFlags,
) {
    let images: Vec<&PreparedImage> =
        prepared.iter().filter_map(|p| if let Prepared::Image(i) = p { Some(i) } else { None }).collect();
    let to_transfer: Vec<_> = images
        .iter()
        .map(|i| {
            image_barrier(
                i,
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::AccessFlags::empty(),
                vk::AccessFlags::TRANSFER_WRITE,
            )
        })
        .collect();
    // SAFETY (all commands below): `cb` is recording; every handle is alive and owned by the job's scratch.
    unsafe {
        if !to_transfer.is_empty() {
            device.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_transfer,
            );
        }
        for p in prepared {
            match p {
                Prepared::Buffer { buffer, staging, size, .. }
                | Prepared::TexelBuffer { buffer, staging, size, .. } => {
                    device.cmd_copy_buffer(
                        cb,
                        *staging,
                        *buffer,
                        &[vk::BufferCopy { src_offset: 0, dst_offset: 0, size: *size }],
                    );
                }
                Prepared::Image(img) if img.clear || img.multisampled => {
                    let range = vk::ImageSubresourceRange {
                        aspect_mask: img.aspect,
                        base_mip_level: 0,
                        level_count: img.mips,
                        base_array_layer: 0,
                        layer_count: img.layers,
                    };
                    if img.depth_format {
                        let v = vk::ClearDepthStencilValue { depth: 0.0, stencil: 0 };
                        device.cmd_clear_depth_stencil_image(
                            cb,
                            img.image,
                            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                            &v,
                            &[range],
                        );
                    } else {
                        let v = if img.integer_format {
                            vk::ClearColorValue { uint32: [0; 4] }
                        } else {
                            vk::ClearColorValue { float32: [0.0; 4] }
                        };
                        device.cmd_clear_color_image(
                            cb,
                            img.image,
                            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                            &v,
                            &[range],
                        );
                    }
                }
                Prepared::Image(img) => {
                    device.cmd_copy_buffer_to_image(
                        cb,
                        img.staging,
                        img.image,
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                        &copy_regions(img),
                    );
                }
                Prepared::Sampler(_) | Prepared::Accel { .. } | Prepared::Nothing => {}
            }
        }
        let to_shader: Vec<_> = images
            .iter()
            .map(|i| {
                image_barrier(
                    i,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    i.layout,
                    vk::AccessFlags::TRANSFER_WRITE,
                    SHADER_ACCESS,
                )
            })
            .collect();
        let memory = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(SHADER_ACCESS)];
        device.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TRANSFER,
            stages,
            vk::DependencyFlags::empty(),
            &memory,
            &[],
            &to_shader,
        );
    }
}

/// Records the copies of every buffer and image back into its staging memory, after the shaders in `stages`.
pub(crate) fn record_readback(
    device: &ash::Device,
    cb: vk::CommandBuffer,
    prepared: &[Prepared],
    stages: vk::PipelineStageFlags,
) {
    let images: Vec<&PreparedImage> = prepared
        .iter()
        .filter_map(|p| if let Prepared::Image(i) = p { Some(i) } else { None })
        .filter(|i| !i.multisampled)
        .collect();
    let to_transfer: Vec<_> = images
        .iter()
        .map(|i| {
            image_barrier(
                i,
                i.layout,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                SHADER_ACCESS,
                vk::AccessFlags::TRANSFER_READ,
            )
        })
        .collect();
    let memory = [vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::SHADER_WRITE)
        .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
    // SAFETY (all commands below): `cb` is recording; every handle is alive and owned by the job's scratch.
    unsafe {
        device.cmd_pipeline_barrier(
            cb,
            stages,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &memory,
            &[],
            &to_transfer,
        );
        for p in prepared {
            match p {
                Prepared::Buffer { buffer, staging, size, .. }
                | Prepared::TexelBuffer { buffer, staging, size, .. } => {
                    device.cmd_copy_buffer(
                        cb,
                        *buffer,
                        *staging,
                        &[vk::BufferCopy { src_offset: 0, dst_offset: 0, size: *size }],
                    );
                }
                Prepared::Image(img) if !img.multisampled => {
                    device.cmd_copy_image_to_buffer(
                        cb,
                        img.image,
                        vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                        img.staging,
                        &copy_regions(img),
                    );
                }
                Prepared::Image(_) | Prepared::Sampler(_) | Prepared::Accel { .. } | Prepared::Nothing => {}
            }
        }
        let host = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        device.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &host,
            &[],
            &[],
        );
    }
}

/// Reads every buffer and image back (after the job's fence signalled), in `resources` order; samplers
/// are skipped, multisampled images come back empty.
pub(crate) fn read_results(
    scratch: &mut Scratch<'_>,
    resources: &[BoundResource],
    prepared: &[Prepared],
) -> Result<Vec<ResourceContents>, RuntimeError> {
    let mut out = Vec::new();
    for (res, p) in resources.iter().zip(prepared) {
        let bytes = match p {
            Prepared::Buffer { staging_mem, len, .. } | Prepared::TexelBuffer { staging_mem, len, .. } => {
                scratch.mapped(*staging_mem)?.get(..*len).map(<[u8]>::to_vec).unwrap_or_default()
            }
            Prepared::Image(img) if img.multisampled => Vec::new(),
            Prepared::Image(img) => {
                let mapped = scratch.mapped(img.staging_mem)?;
                let mut data = vec![0u8; img.packed_len];
                for (sub, off) in &img.regions {
                    let src = mapped.get(*off as usize..*off as usize + sub.len);
                    let dst = data.get_mut(sub.offset..sub.offset + sub.len);
                    if let (Some(src), Some(dst)) = (src, dst) {
                        dst.copy_from_slice(src);
                    }
                }
                data
            }
            Prepared::Sampler(_) | Prepared::Accel { .. } | Prepared::Nothing => continue,
        };
        out.push((res.set, res.binding, res.array_index, bytes));
    }
    Ok(out)
}

/// Writes the device address of every [`ResourceDesc::AddressBuffer`] (with a push offset) and
/// [`ResourceDesc::AccelerationStructureAddress`] into the push constants
/// (`push` already padded to the job's push-constant size).
pub(crate) fn patch_addresses(
    resources: &[BoundResource],
    prepared: &[Prepared],
    push: &mut [u8],
) -> Result<(), RuntimeError> {
    for (res, p) in resources.iter().zip(prepared) {
        let (at, a) = match (&res.resource, p) {
            (
                ResourceDesc::AddressBuffer { push_offset: Some(push_offset), .. },
                Prepared::Buffer { address: Some(a), .. },
            ) => (*push_offset as usize, *a),
            (ResourceDesc::AccelerationStructureAddress { push_offset }, Prepared::Accel { address, .. }) => {
                (*push_offset as usize, *address)
            }
            _ => continue,
        };
        let len = push.len();
        let dst = push
            .get_mut(at..at + 8)
            .ok_or_else(|| invalid(res, format!("push offset {at} + 8 lies beyond the {len} push-constant bytes")))?;
        dst.copy_from_slice(&a.to_le_bytes());
    }
    Ok(())
}
