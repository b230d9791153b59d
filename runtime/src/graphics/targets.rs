//! Render targets of a graphics job: creation (checked against the format's capabilities), clears,
//! layout transitions, the dynamic-rendering attachment descriptions (with resolves for multisampled
//! targets), and the read-back of every layer.

use ash::vk;
use gpu_allocator::MemoryLocation;

use super::state::{invalid, unsupported};
use super::{ClearColor, ColorTarget, DepthStencilTarget};
use crate::bind::format_properties;
use crate::scratch::{AllocId, Scratch};
use crate::{Format, RuntimeError};

const COLOR_STAGES: vk::PipelineStageFlags = vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT;
const COLOR_ACCESS: vk::AccessFlags = vk::AccessFlags::from_raw(
    vk::AccessFlags::COLOR_ATTACHMENT_READ.as_raw() | vk::AccessFlags::COLOR_ATTACHMENT_WRITE.as_raw(),
);
/// Depth/stencil attachments and their resolves (which happen in the colour-output stage).
const DEPTH_STAGES: vk::PipelineStageFlags = vk::PipelineStageFlags::from_raw(
    vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS.as_raw()
        | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS.as_raw()
        | vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT.as_raw(),
);
const DEPTH_ACCESS: vk::AccessFlags = vk::AccessFlags::from_raw(
    vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ.as_raw()
        | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE.as_raw()
        | vk::AccessFlags::COLOR_ATTACHMENT_WRITE.as_raw(),
);

/// Extent shared by every target of the job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Extent {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) layers: u32,
    pub(super) samples: u32,
}

/// One aspect's read-back: `(layer, offset in staging)` regions of `texel_bytes` per texel.
struct Readback {
    aspect: vk::ImageAspectFlags,
    texel_bytes: u64,
    regions: Vec<(u32, u64)>,
}

/// A created render target.
pub(super) struct Target {
    pub(super) format: Format,
    image: vk::Image,
    pub(super) view: vk::ImageView,
    /// Single-sample image the multisampled one resolves into (read back instead of `image`).
    resolve: Option<(vk::Image, vk::ImageView)>,
    depth: bool,
    aspect: vk::ImageAspectFlags,
    clear: vk::ClearValue,
    extent: Extent,
    staging: vk::Buffer,
    staging_mem: AllocId,
    readbacks: Vec<Readback>,
}

fn round_up(v: u64, to: u64) -> u64 {
    v.div_ceil(to).saturating_mul(to)
}

/// Checks that every target has the same extent and returns it.
pub(super) fn common_extent(
    colors: &[ColorTarget],
    depth: Option<&DepthStencilTarget>,
) -> Result<Option<Extent>, RuntimeError> {
    let mut all = colors
        .iter()
        .map(|t| Extent { width: t.width, height: t.height, layers: t.layers, samples: t.samples })
        .chain(depth.map(|d| Extent { width: d.width, height: d.height, layers: d.layers, samples: d.samples }));
    let Some(first) = all.next() else { return Ok(None) };
    if let Some(other) = all.find(|e| *e != first) {
        return Err(invalid(format!(
            "all render targets need the same width, height, layers and samples ({first:?} vs {other:?})"
        )));
    }
    if first.width == 0 || first.height == 0 || first.layers == 0 {
        return Err(invalid("render target width, height and layers must be at least 1"));
    }
    if !first.samples.is_power_of_two() || first.samples > 64 {
        return Err(invalid(format!("sample count {} is not a power of two up to 64", first.samples)));
    }
    Ok(Some(first))
}

fn view_type(layers: u32) -> vk::ImageViewType {
    if layers > 1 {
        vk::ImageViewType::TYPE_2D_ARRAY
    } else {
        vk::ImageViewType::TYPE_2D
    }
}

fn make_image(
    scratch: &mut Scratch<'_>,
    name: &str,
    format: Format,
    extent: Extent,
    samples: u32,
    usage: vk::ImageUsageFlags,
    aspect: vk::ImageAspectFlags,
) -> Result<(vk::Image, vk::ImageView), RuntimeError> {
    let samples_vk = vk::SampleCountFlags::from_raw(samples);
    // SAFETY: plain query on the context's physical device.
    let props = unsafe {
        scratch.ctx.instance().get_physical_device_image_format_properties(
            scratch.ctx.physical_device,
            format.vk(),
            vk::ImageType::TYPE_2D,
            vk::ImageTiling::OPTIMAL,
            usage,
            vk::ImageCreateFlags::empty(),
        )
    }
    .map_err(|_| RuntimeError::FormatUnsupported { format, usage: "render targets" })?;
    if extent.width > props.max_extent.width
        || extent.height > props.max_extent.height
        || extent.layers > props.max_array_layers
    {
        return Err(invalid(format!("{name}: {extent:?} exceeds the device's limits for {format:?}")));
    }
    if !props.sample_counts.contains(samples_vk) {
        return Err(unsupported(format!("{samples} samples for {format:?} render targets")));
    }
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format.vk())
        .extent(vk::Extent3D { width: extent.width, height: extent.height, depth: 1 })
        .mip_levels(1)
        .array_layers(extent.layers)
        .samples(samples_vk)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
        .sharing_mode(vk::SharingMode::EXCLUSIVE)
        .initial_layout(vk::ImageLayout::UNDEFINED);
    let image = scratch.image(name, &info)?;
    let view_info = vk::ImageViewCreateInfo::default()
        .image(image)
        .view_type(view_type(extent.layers))
        .format(format.vk())
        .subresource_range(vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: extent.layers,
        });
    let view = scratch.image_view(&view_info)?;
    Ok((image, view))
}

fn depth_aspects(format: Format) -> vk::ImageAspectFlags {
    if format.has_stencil() {
        vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL
    } else {
        vk::ImageAspectFlags::DEPTH
    }
}

fn staging(
    scratch: &mut Scratch<'_>,
    name: &str,
    extent: Extent,
    aspects: &[(vk::ImageAspectFlags, u64)],
) -> Result<(vk::Buffer, AllocId, Vec<Readback>), RuntimeError> {
    let texels = u64::from(extent.width) * u64::from(extent.height);
    let mut offset = 0u64;
    let mut readbacks = Vec::new();
    for &(aspect, texel_bytes) in aspects {
        let mut regions = Vec::new();
        for layer in 0..extent.layers {
            regions.push((layer, offset));
            offset = round_up(offset + texels * texel_bytes, 16);
        }
        readbacks.push(Readback { aspect, texel_bytes, regions });
    }
    let (buffer, mem) =
        scratch.buffer(name, offset.max(4), vk::BufferUsageFlags::TRANSFER_DST, MemoryLocation::GpuToCpu)?;
    Ok((buffer, mem, readbacks))
}

/// Creates colour target `index`.
pub(super) fn color_target(
    scratch: &mut Scratch<'_>,
    index: usize,
    t: &ColorTarget,
    extent: Extent,
) -> Result<Target, RuntimeError> {
    let name = format!("colour target {index}");
    let features = format_properties(scratch, t.format).optimal_tiling_features;
    if t.format.is_depth() || !features.contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT) {
        return Err(RuntimeError::FormatUnsupported { format: t.format, usage: "colour render targets" });
    }
    if t.blend.is_some() && !features.contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT_BLEND) {
        return Err(RuntimeError::FormatUnsupported { format: t.format, usage: "blending" });
    }
    let clear = match (t.clear, t.format.is_integer()) {
        (ClearColor::Float(v), false) => vk::ClearColorValue { float32: v },
        (ClearColor::Uint(v), true) => vk::ClearColorValue { uint32: v },
        (ClearColor::Sint(v), true) => vk::ClearColorValue { int32: v },
        (c, _) => return Err(invalid(format!("{name}: clear value {c:?} does not suit {:?}", t.format))),
    };
    let aspect = vk::ImageAspectFlags::COLOR;
    let usage =
        vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::TRANSFER_SRC;
    let (image, view) = make_image(scratch, &name, t.format, extent, extent.samples, usage, aspect)?;
    let resolve = if extent.samples > 1 {
        let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
        Some(make_image(scratch, &format!("{name} resolve"), t.format, extent, 1, usage, aspect)?)
    } else {
        None
    };
    let (staging, staging_mem, readbacks) =
        staging(scratch, &name, extent, &[(aspect, u64::from(t.format.bytes_per_texel()))])?;
    Ok(Target {
        format: t.format,
        image,
        view,
        resolve,
        depth: false,
        aspect,
        clear: vk::ClearValue { color: clear },
        extent,
        staging,
        staging_mem,
        readbacks,
    })
}

/// Creates the depth/stencil target.
pub(super) fn depth_target(
    scratch: &mut Scratch<'_>,
    d: &DepthStencilTarget,
    extent: Extent,
) -> Result<Target, RuntimeError> {
    let name = "depth/stencil target";
    let features = format_properties(scratch, d.format).optimal_tiling_features;
    if !d.format.is_depth() || !features.contains(vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT) {
        return Err(RuntimeError::FormatUnsupported { format: d.format, usage: "depth/stencil render targets" });
    }
    if d.stencil.is_some() && !d.format.has_stencil() {
        return Err(invalid(format!("stencil test with {:?}, which has no stencil", d.format)));
    }
    let aspect = depth_aspects(d.format);
    let usage = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
        | vk::ImageUsageFlags::TRANSFER_DST
        | vk::ImageUsageFlags::TRANSFER_SRC;
    let (image, view) = make_image(scratch, name, d.format, extent, extent.samples, usage, aspect)?;
    let resolve = if extent.samples > 1 {
        let usage = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
        Some(make_image(scratch, "depth/stencil resolve", d.format, extent, 1, usage, aspect)?)
    } else {
        None
    };
    let mut aspects = vec![(vk::ImageAspectFlags::DEPTH, u64::from(d.format.bytes_per_texel()))];
    if d.format.has_stencil() {
        aspects.push((vk::ImageAspectFlags::STENCIL, 1));
    }
    let (staging, staging_mem, readbacks) = staging(scratch, name, extent, &aspects)?;
    Ok(Target {
        format: d.format,
        image,
        view,
        resolve,
        depth: true,
        aspect,
        clear: vk::ClearValue {
            depth_stencil: vk::ClearDepthStencilValue { depth: d.clear_depth, stencil: u32::from(d.clear_stencil) },
        },
        extent,
        staging,
        staging_mem,
        readbacks,
    })
}

fn barrier(
    image: vk::Image,
    aspect: vk::ImageAspectFlags,
    layers: u32,
    (old, src): (vk::ImageLayout, vk::AccessFlags),
    (new, dst): (vk::ImageLayout, vk::AccessFlags),
) -> vk::ImageMemoryBarrier<'static> {
    vk::ImageMemoryBarrier::default()
        .old_layout(old)
        .new_layout(new)
        .src_access_mask(src)
        .dst_access_mask(dst)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: layers,
        })
}

impl Target {
    fn attachment_layout(&self) -> vk::ImageLayout {
        if self.depth {
            vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL
        } else {
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL
        }
    }

    fn access(&self) -> vk::AccessFlags {
        if self.depth {
            DEPTH_ACCESS
        } else {
            COLOR_ACCESS
        }
    }

    /// The attachment description for `vkCmdBeginRendering` (load the cleared contents, store, resolve
    /// multisampled targets: average for float colour, sample 0 for integer colour and depth/stencil).
    pub(super) fn attachment(&self) -> vk::RenderingAttachmentInfo<'static> {
        let mut info = vk::RenderingAttachmentInfo::default()
            .image_view(self.view)
            .image_layout(self.attachment_layout())
            .load_op(vk::AttachmentLoadOp::LOAD)
            .store_op(vk::AttachmentStoreOp::STORE);
        if let Some((_, view)) = self.resolve {
            let mode = if self.depth || self.format.is_integer() {
                vk::ResolveModeFlags::SAMPLE_ZERO
            } else {
                vk::ResolveModeFlags::AVERAGE
            };
            info = info.resolve_mode(mode).resolve_image_view(view).resolve_image_layout(self.attachment_layout());
        }
        info
    }
}

/// Records the clears of every target (all layers) and the transitions into attachment layouts.
pub(super) fn record_clears(device: &ash::Device, cb: vk::CommandBuffer, targets: &[&Target]) {
    let undefined = (vk::ImageLayout::UNDEFINED, vk::AccessFlags::empty());
    let transfer_dst = (vk::ImageLayout::TRANSFER_DST_OPTIMAL, vk::AccessFlags::TRANSFER_WRITE);
    let to_transfer: Vec<_> =
        targets.iter().map(|t| barrier(t.image, t.aspect, t.extent.layers, undefined, transfer_dst)).collect();
    let to_attachment: Vec<_> = targets
        .iter()
        .map(|t| barrier(t.image, t.aspect, t.extent.layers, transfer_dst, (t.attachment_layout(), t.access())))
        .collect();
    let resolves: Vec<_> = targets
        .iter()
        .filter_map(|t| {
            let (image, _) = t.resolve?;
            Some(barrier(image, t.aspect, t.extent.layers, undefined, (t.attachment_layout(), t.access())))
        })
        .collect();
    let any_depth = targets.iter().any(|t| t.depth);
    let dst_stages = if any_depth { DEPTH_STAGES } else { COLOR_STAGES };
    // SAFETY (all commands below): `cb` is recording; the images are alive and owned by the job's scratch.
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
        for t in targets {
            let range = vk::ImageSubresourceRange {
                aspect_mask: t.aspect,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: t.extent.layers,
            };
            if t.depth {
                device.cmd_clear_depth_stencil_image(
                    cb,
                    t.image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &t.clear.depth_stencil,
                    &[range],
                );
            } else {
                device.cmd_clear_color_image(
                    cb,
                    t.image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &t.clear.color,
                    &[range],
                );
            }
        }
        if !to_attachment.is_empty() {
            device.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                dst_stages,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_attachment,
            );
        }
        if !resolves.is_empty() {
            device.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                dst_stages,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &resolves,
            );
        }
    }
}

/// Records the copies of every target (its resolve image when multisampled) into its staging buffer.
pub(super) fn record_readback(device: &ash::Device, cb: vk::CommandBuffer, targets: &[&Target]) {
    let transfer_src = (vk::ImageLayout::TRANSFER_SRC_OPTIMAL, vk::AccessFlags::TRANSFER_READ);
    let barriers: Vec<_> = targets
        .iter()
        .map(|t| {
            let image = t.resolve.map_or(t.image, |(i, _)| i);
            barrier(image, t.aspect, t.extent.layers, (t.attachment_layout(), t.access()), transfer_src)
        })
        .collect();
    if barriers.is_empty() {
        return;
    }
    let any_depth = targets.iter().any(|t| t.depth);
    let src_stages = if any_depth { DEPTH_STAGES } else { COLOR_STAGES };
    // SAFETY (all commands below): `cb` is recording; images and buffers are alive and owned by the scratch.
    unsafe {
        device.cmd_pipeline_barrier(
            cb,
            src_stages,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &barriers,
        );
        for t in targets {
            let image = t.resolve.map_or(t.image, |(i, _)| i);
            let regions: Vec<vk::BufferImageCopy> = t
                .readbacks
                .iter()
                .flat_map(|r| {
                    r.regions.iter().map(move |&(layer, offset)| vk::BufferImageCopy {
                        buffer_offset: offset,
                        buffer_row_length: 0,
                        buffer_image_height: 0,
                        image_subresource: vk::ImageSubresourceLayers {
                            aspect_mask: r.aspect,
                            mip_level: 0,
                            base_array_layer: layer,
                            layer_count: 1,
                        },
                        image_offset: vk::Offset3D::default(),
                        image_extent: vk::Extent3D { width: t.extent.width, height: t.extent.height, depth: 1 },
                    })
                })
                .collect();
            device.cmd_copy_image_to_buffer(cb, image, vk::ImageLayout::TRANSFER_SRC_OPTIMAL, t.staging, &regions);
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

/// The packed contents of each aspect of `t` (colour or depth first, then stencil), after the fence.
pub(super) fn read_target(scratch: &mut Scratch<'_>, t: &Target) -> Result<Vec<Vec<u8>>, RuntimeError> {
    let texels = t.extent.width as usize * t.extent.height as usize;
    let d24 = t.format == Format::D24UnormS8Uint;
    let mapped = scratch.mapped(t.staging_mem)?;
    let mut out = Vec::new();
    for r in &t.readbacks {
        let layer_len = texels * r.texel_bytes as usize;
        let mut data = Vec::with_capacity(layer_len * r.regions.len());
        for &(_, offset) in &r.regions {
            let src = mapped.get(offset as usize..offset as usize + layer_len).ok_or_else(|| {
                RuntimeError::Allocation { what: "render target read-back".into(), message: "staging too small".into() }
            })?;
            data.extend_from_slice(src);
        }
        if d24 && r.aspect == vk::ImageAspectFlags::DEPTH {
            // The top byte of a D24 texel copied to a buffer is undefined.
            for texel in data.chunks_exact_mut(4) {
                texel[3] = 0;
            }
        }
        out.push(data);
    }
    Ok(out)
}
