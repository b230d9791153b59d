//! Texel formats and sampler/image enums of the job description, with their Vulkan equivalents.
//!
//! Names follow DXGI order of components (`R10G10B10A2Unorm` is DXGI_FORMAT_R10G10B10A2_UNORM); the
//! in-memory layout of a texel is the DXGI one, which is what the mapped Vulkan format stores.

use ash::vk;

/// Texel format of a texel buffer or image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    R32Uint,
    R32Sint,
    R32Float,
    R32G32Uint,
    R32G32Sint,
    R32G32Float,
    /// Texel buffers only on most devices.
    R32G32B32Uint,
    /// Texel buffers only on most devices.
    R32G32B32Sint,
    /// Texel buffers only on most devices.
    R32G32B32Float,
    R32G32B32A32Uint,
    R32G32B32A32Sint,
    R32G32B32A32Float,
    R16Float,
    R16Uint,
    R16Sint,
    R16Unorm,
    R16Snorm,
    R16G16Float,
    R16G16Uint,
    R16G16Sint,
    R16G16Unorm,
    R16G16Snorm,
    R16G16B16A16Float,
    R16G16B16A16Uint,
    R16G16B16A16Sint,
    R16G16B16A16Unorm,
    R16G16B16A16Snorm,
    R8Unorm,
    R8Snorm,
    R8Uint,
    R8Sint,
    R8G8Unorm,
    R8G8Snorm,
    R8G8Uint,
    R8G8Sint,
    R8G8B8A8Unorm,
    R8G8B8A8UnormSrgb,
    R8G8B8A8Snorm,
    R8G8B8A8Uint,
    R8G8B8A8Sint,
    B8G8R8A8Unorm,
    B8G8R8A8UnormSrgb,
    /// DXGI_FORMAT_R10G10B10A2_UNORM (R in the low bits) = VK_FORMAT_A2B10G10R10_UNORM_PACK32.
    R10G10B10A2Unorm,
    /// DXGI_FORMAT_R10G10B10A2_UINT = VK_FORMAT_A2B10G10R10_UINT_PACK32.
    R10G10B10A2Uint,
    /// DXGI_FORMAT_R11G11B10_FLOAT (R in the low bits) = VK_FORMAT_B10G11R11_UFLOAT_PACK32.
    R11G11B10Float,
    /// DXGI_FORMAT_R9G9B9E5_SHAREDEXP = VK_FORMAT_E5B9G9R9_UFLOAT_PACK32.
    R9G9B9E5SharedExp,
    D32Float,
    D16Unorm,
    /// Depth/stencil targets only: DXGI_FORMAT_D24_UNORM_S8_UINT. Depth reads back as 4 bytes per texel
    /// (24-bit unorm in the low bits, high byte zero), stencil as 1 byte.
    D24UnormS8Uint,
    /// Depth/stencil targets only: DXGI_FORMAT_D32_FLOAT_S8X24_UINT. Depth reads back as f32, stencil as 1 byte.
    D32FloatS8Uint,
}

impl Format {
    /// The Vulkan format storing texels with the same memory layout.
    pub fn vk(&self) -> vk::Format {
        use Format::*;
        match self {
            R32Uint => vk::Format::R32_UINT,
            R32Sint => vk::Format::R32_SINT,
            R32Float => vk::Format::R32_SFLOAT,
            R32G32Uint => vk::Format::R32G32_UINT,
            R32G32Sint => vk::Format::R32G32_SINT,
            R32G32Float => vk::Format::R32G32_SFLOAT,
            R32G32B32Uint => vk::Format::R32G32B32_UINT,
            R32G32B32Sint => vk::Format::R32G32B32_SINT,
            R32G32B32Float => vk::Format::R32G32B32_SFLOAT,
            R32G32B32A32Uint => vk::Format::R32G32B32A32_UINT,
            R32G32B32A32Sint => vk::Format::R32G32B32A32_SINT,
            R32G32B32A32Float => vk::Format::R32G32B32A32_SFLOAT,
            R16Float => vk::Format::R16_SFLOAT,
            R16Uint => vk::Format::R16_UINT,
            R16Sint => vk::Format::R16_SINT,
            R16Unorm => vk::Format::R16_UNORM,
            R16Snorm => vk::Format::R16_SNORM,
            R16G16Float => vk::Format::R16G16_SFLOAT,
            R16G16Uint => vk::Format::R16G16_UINT,
            R16G16Sint => vk::Format::R16G16_SINT,
            R16G16Unorm => vk::Format::R16G16_UNORM,
            R16G16Snorm => vk::Format::R16G16_SNORM,
            R16G16B16A16Float => vk::Format::R16G16B16A16_SFLOAT,
            R16G16B16A16Uint => vk::Format::R16G16B16A16_UINT,
            R16G16B16A16Sint => vk::Format::R16G16B16A16_SINT,
            R16G16B16A16Unorm => vk::Format::R16G16B16A16_UNORM,
            R16G16B16A16Snorm => vk::Format::R16G16B16A16_SNORM,
            R8Unorm => vk::Format::R8_UNORM,
            R8Snorm => vk::Format::R8_SNORM,
            R8Uint => vk::Format::R8_UINT,
            R8Sint => vk::Format::R8_SINT,
            R8G8Unorm => vk::Format::R8G8_UNORM,
            R8G8Snorm => vk::Format::R8G8_SNORM,
            R8G8Uint => vk::Format::R8G8_UINT,
            R8G8Sint => vk::Format::R8G8_SINT,
            R8G8B8A8Unorm => vk::Format::R8G8B8A8_UNORM,
            R8G8B8A8UnormSrgb => vk::Format::R8G8B8A8_SRGB,
            R8G8B8A8Snorm => vk::Format::R8G8B8A8_SNORM,
            R8G8B8A8Uint => vk::Format::R8G8B8A8_UINT,
            R8G8B8A8Sint => vk::Format::R8G8B8A8_SINT,
            B8G8R8A8Unorm => vk::Format::B8G8R8A8_UNORM,
            B8G8R8A8UnormSrgb => vk::Format::B8G8R8A8_SRGB,
            R10G10B10A2Unorm => vk::Format::A2B10G10R10_UNORM_PACK32,
            R10G10B10A2Uint => vk::Format::A2B10G10R10_UINT_PACK32,
            R11G11B10Float => vk::Format::B10G11R11_UFLOAT_PACK32,
            R9G9B9E5SharedExp => vk::Format::E5B9G9R9_UFLOAT_PACK32,
            D32Float => vk::Format::D32_SFLOAT,
            D16Unorm => vk::Format::D16_UNORM,
            D24UnormS8Uint => vk::Format::D24_UNORM_S8_UINT,
            D32FloatS8Uint => vk::Format::D32_SFLOAT_S8_UINT,
        }
    }

    /// Size of one texel in bytes (for depth/stencil formats: of the depth aspect as copied to a buffer).
    pub fn bytes_per_texel(&self) -> u32 {
        use Format::*;
        match self {
            R8Unorm | R8Snorm | R8Uint | R8Sint => 1,
            R16Float | R16Uint | R16Sint | R16Unorm | R16Snorm | R8G8Unorm | R8G8Snorm | R8G8Uint | R8G8Sint
            | D16Unorm => 2,
            R32Uint | R32Sint | R32Float | R16G16Float | R16G16Uint | R16G16Sint | R16G16Unorm | R16G16Snorm
            | R8G8B8A8Unorm | R8G8B8A8UnormSrgb | R8G8B8A8Snorm | R8G8B8A8Uint | R8G8B8A8Sint | B8G8R8A8Unorm
            | B8G8R8A8UnormSrgb | R10G10B10A2Unorm | R10G10B10A2Uint | R11G11B10Float | R9G9B9E5SharedExp
            | D32Float | D24UnormS8Uint | D32FloatS8Uint => 4,
            R32G32Uint | R32G32Sint | R32G32Float | R16G16B16A16Float | R16G16B16A16Uint | R16G16B16A16Sint
            | R16G16B16A16Unorm | R16G16B16A16Snorm => 8,
            R32G32B32Uint | R32G32B32Sint | R32G32B32Float => 12,
            R32G32B32A32Uint | R32G32B32A32Sint | R32G32B32A32Float => 16,
        }
    }

    /// True for depth formats (image aspect DEPTH instead of COLOR).
    pub fn is_depth(&self) -> bool {
        matches!(self, Format::D32Float | Format::D16Unorm | Format::D24UnormS8Uint | Format::D32FloatS8Uint)
    }

    /// True for formats with a stencil aspect.
    pub fn has_stencil(&self) -> bool {
        matches!(self, Format::D24UnormS8Uint | Format::D32FloatS8Uint)
    }

    /// True when shaders see the format as integers (clears and border colours differ).
    pub fn is_integer(&self) -> bool {
        use Format::*;
        matches!(
            self,
            R32Uint
                | R32Sint
                | R32G32Uint
                | R32G32Sint
                | R32G32B32Uint
                | R32G32B32Sint
                | R32G32B32A32Uint
                | R32G32B32A32Sint
                | R16Uint
                | R16Sint
                | R16G16Uint
                | R16G16Sint
                | R16G16B16A16Uint
                | R16G16B16A16Sint
                | R8Uint
                | R8Sint
                | R8G8Uint
                | R8G8Sint
                | R8G8B8A8Uint
                | R8G8B8A8Sint
                | R10G10B10A2Uint
        )
    }

    pub(crate) fn aspect(&self) -> vk::ImageAspectFlags {
        if self.is_depth() {
            vk::ImageAspectFlags::DEPTH
        } else {
            vk::ImageAspectFlags::COLOR
        }
    }
}

/// Image dimensionality. Arrays are expressed through `ImageDesc::layers` (and the shader's image type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    D1,
    D2,
    D3,
    /// `layers` counts faces: 6 per cube.
    Cube,
}

/// Sampler filter (min, mag and mip alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    Point,
    Linear,
}

impl Filter {
    pub(crate) fn vk(self) -> (vk::Filter, vk::SamplerMipmapMode) {
        match self {
            Filter::Point => (vk::Filter::NEAREST, vk::SamplerMipmapMode::NEAREST),
            Filter::Linear => (vk::Filter::LINEAR, vk::SamplerMipmapMode::LINEAR),
        }
    }
}

/// Sampler address mode (U, V and W alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressMode {
    Wrap,
    Clamp,
    Mirror,
    Border,
}

impl AddressMode {
    pub(crate) fn vk(self) -> vk::SamplerAddressMode {
        match self {
            AddressMode::Wrap => vk::SamplerAddressMode::REPEAT,
            AddressMode::Clamp => vk::SamplerAddressMode::CLAMP_TO_EDGE,
            AddressMode::Mirror => vk::SamplerAddressMode::MIRRORED_REPEAT,
            AddressMode::Border => vk::SamplerAddressMode::CLAMP_TO_BORDER,
        }
    }
}

/// Depth comparison of a comparison sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
    Always,
}

impl CompareOp {
    pub(crate) fn vk(self) -> vk::CompareOp {
        match self {
            CompareOp::Never => vk::CompareOp::NEVER,
            CompareOp::Less => vk::CompareOp::LESS,
            CompareOp::Equal => vk::CompareOp::EQUAL,
            CompareOp::LessEqual => vk::CompareOp::LESS_OR_EQUAL,
            CompareOp::Greater => vk::CompareOp::GREATER,
            CompareOp::NotEqual => vk::CompareOp::NOT_EQUAL,
            CompareOp::GreaterEqual => vk::CompareOp::GREATER_OR_EQUAL,
            CompareOp::Always => vk::CompareOp::ALWAYS,
        }
    }
}

/// Border colour for `AddressMode::Border`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BorderColor {
    #[default]
    TransparentBlack,
    OpaqueBlack,
    OpaqueWhite,
}

impl BorderColor {
    pub(crate) fn vk(self, integer: bool) -> vk::BorderColor {
        match (self, integer) {
            (BorderColor::TransparentBlack, false) => vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
            (BorderColor::OpaqueBlack, false) => vk::BorderColor::FLOAT_OPAQUE_BLACK,
            (BorderColor::OpaqueWhite, false) => vk::BorderColor::FLOAT_OPAQUE_WHITE,
            (BorderColor::TransparentBlack, true) => vk::BorderColor::INT_TRANSPARENT_BLACK,
            (BorderColor::OpaqueBlack, true) => vk::BorderColor::INT_OPAQUE_BLACK,
            (BorderColor::OpaqueWhite, true) => vk::BorderColor::INT_OPAQUE_WHITE,
        }
    }
}
