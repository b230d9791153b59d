//! Resource descriptions of a job (what to bind where, with which initial contents).
//! Shared by compute jobs and (later) graphics jobs.

use crate::format::{AddressMode, BorderColor, CompareOp, Filter, Format, ImageDim};
use crate::reflect::DescriptorKind;

/// One descriptor of a job: where it is bound and what it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundResource {
    pub set: u32,
    pub binding: u32,
    /// Element of a descriptor array (0 for a single descriptor).
    pub array_index: u32,
    pub resource: ResourceDesc,
}

impl BoundResource {
    /// A single (non-array) descriptor.
    pub fn new(set: u32, binding: u32, resource: ResourceDesc) -> BoundResource {
        BoundResource { set, binding, array_index: 0, resource }
    }
}

/// A resource and its initial contents.
#[derive(Clone, Debug, PartialEq)]
pub enum ResourceDesc {
    UniformBuffer {
        data: Vec<u8>,
    },
    StorageBuffer {
        data: Vec<u8>,
    },
    UniformTexelBuffer {
        format: Format,
        data: Vec<u8>,
    },
    StorageTexelBuffer {
        format: Format,
        data: Vec<u8>,
    },
    SampledImage(ImageDesc),
    StorageImage(ImageDesc),
    Sampler(SamplerDesc),
    /// A buffer reached through its 64-bit buffer device address instead of a descriptor (a D3D12
    /// root descriptor): created with `SHADER_DEVICE_ADDRESS` usage, its address is written
    /// (little-endian u64) into the job's push constants at byte `push_offset` (`None`: only a
    /// shader record holds it, see [`crate::AddressOf`]). The `(set, binding, array_index)` of its
    /// [`BoundResource`] only names it in the results. Needs `bufferDeviceAddress`.
    AddressBuffer {
        data: Vec<u8>,
        push_offset: Option<u32>,
    },
    /// The job's top-level acceleration structure ([`crate::Scene`]) in an acceleration-structure
    /// descriptor. Needs `VK_KHR_acceleration_structure`.
    AccelerationStructure,
    /// The job's top-level acceleration structure reached through its device address (a D3D12
    /// root SRV), written into the push constants at byte `push_offset`.
    AccelerationStructureAddress {
        push_offset: u32,
    },
    /// An explicitly empty element of a descriptor array (robustness2 `nullDescriptor` for buffer and
    /// image kinds; left unwritten in partially bound arrays for samplers): sizes a bindless heap
    /// array without a resource in its last element. Nothing is read back.
    Null(DescriptorKind),
}

impl ResourceDesc {
    /// The descriptor type this resource is bound as.
    pub fn kind(&self) -> DescriptorKind {
        match self {
            ResourceDesc::UniformBuffer { .. } => DescriptorKind::UniformBuffer,
            ResourceDesc::StorageBuffer { .. } => DescriptorKind::StorageBuffer,
            ResourceDesc::UniformTexelBuffer { .. } => DescriptorKind::UniformTexelBuffer,
            ResourceDesc::StorageTexelBuffer { .. } => DescriptorKind::StorageTexelBuffer,
            ResourceDesc::SampledImage(_) => DescriptorKind::SampledImage,
            ResourceDesc::StorageImage(_) => DescriptorKind::StorageImage,
            ResourceDesc::Sampler(_) => DescriptorKind::Sampler,
            ResourceDesc::AddressBuffer { .. } => DescriptorKind::StorageBuffer,
            ResourceDesc::AccelerationStructure | ResourceDesc::AccelerationStructureAddress { .. } => {
                DescriptorKind::AccelerationStructure
            }
            ResourceDesc::Null(kind) => *kind,
        }
    }
}

/// An image. `data` holds every subresource tightly packed: for each array layer (cube faces count as
/// layers), for each mip level from 0, the rows of each depth slice, texels in `format`'s layout with no
/// padding. Empty `data` means zero-filled. See [`ImageDesc::packed_len`].
#[derive(Clone, Debug, PartialEq)]
pub struct ImageDesc {
    pub dim: ImageDim,
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub layers: u32,
    pub mips: u32,
    pub samples: u32,
    pub data: Vec<u8>,
}

/// Extent of one subresource and where it lies in the packed data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subresource {
    pub layer: u32,
    pub mip: u32,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    /// Byte offset in the packed data.
    pub offset: usize,
    /// Byte length in the packed data.
    pub len: usize,
}

impl ImageDesc {
    /// A single-mip, single-sample 2D image.
    pub fn new_2d(format: Format, width: u32, height: u32, data: Vec<u8>) -> ImageDesc {
        ImageDesc { dim: ImageDim::D2, format, width, height, depth: 1, layers: 1, mips: 1, samples: 1, data }
    }

    /// Every subresource in packing order (layer-major, then mip), with sizes and offsets.
    pub fn subresources(&self) -> Vec<Subresource> {
        let bpt = self.format.bytes_per_texel() as usize;
        let mut out = Vec::new();
        let mut offset = 0usize;
        for layer in 0..self.layers {
            for mip in 0..self.mips {
                let m = |v: u32| v.checked_shr(mip).unwrap_or(0).max(1);
                let (width, height, depth) = (m(self.width), m(self.height), m(self.depth));
                let len =
                    (width as usize).saturating_mul(height as usize).saturating_mul(depth as usize).saturating_mul(bpt);
                out.push(Subresource { layer, mip, width, height, depth, offset, len });
                offset = offset.saturating_add(len);
            }
        }
        out
    }

    /// Length in bytes of the packed data of all subresources.
    pub fn packed_len(&self) -> usize {
        self.subresources().last().map_or(0, |s| s.offset.saturating_add(s.len))
    }
}

/// A sampler.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerDesc {
    pub filter: Filter,
    pub address: AddressMode,
    pub compare: Option<CompareOp>,
    pub border: BorderColor,
    pub min_lod: f32,
    pub max_lod: f32,
    pub mip_lod_bias: f32,
    /// Maximum anisotropy (enables anisotropic filtering; needs `samplerAnisotropy`).
    pub anisotropy: Option<f32>,
}

impl Default for SamplerDesc {
    /// Point filtering, clamp, no comparison, all mips.
    fn default() -> Self {
        SamplerDesc {
            filter: Filter::Point,
            address: AddressMode::Clamp,
            compare: None,
            border: BorderColor::TransparentBlack,
            min_lod: 0.0,
            max_lod: vk_lod_clamp_none(),
            mip_lod_bias: 0.0,
            anisotropy: None,
        }
    }
}

fn vk_lod_clamp_none() -> f32 {
    ash::vk::LOD_CLAMP_NONE
}
