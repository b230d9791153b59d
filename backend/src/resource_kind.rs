//! DXIL resource kinds (`DXIL::ResourceKind`): what a resource range is (texture dimension,
//! typed/raw/structured buffer, constant buffer, sampler, acceleration structure). The one
//! resource-kind type of the crate: the metadata decoder (`dxil::ResourceKind`), the `PSV0`
//! parser (which keeps the raw number and converts), the binding model and lowering
//! (`lower::meta::ResKind`, a short name for it) all use it.

use serde::Serialize;

/// `DXIL::ResourceKind`; the discriminant is the DXIL number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// 0: what DXIL writes where no kind applies; never the kind of a range lowering sees.
    Invalid = 0,
    Texture1D = 1,
    Texture2D = 2,
    Texture2DMS = 3,
    Texture3D = 4,
    TextureCube = 5,
    Texture1DArray = 6,
    Texture2DArray = 7,
    Texture2DMSArray = 8,
    TextureCubeArray = 9,
    TypedBuffer = 10,
    RawBuffer = 11,
    StructuredBuffer = 12,
    CBuffer = 13,
    Sampler = 14,
    TBuffer = 15,
    RTAccelerationStructure = 16,
    FeedbackTexture2D = 17,
    FeedbackTexture2DArray = 18,
}

impl ResourceKind {
    const ALL: [ResourceKind; 19] = {
        use ResourceKind::*;
        [
            Invalid,
            Texture1D,
            Texture2D,
            Texture2DMS,
            Texture3D,
            TextureCube,
            Texture1DArray,
            Texture2DArray,
            Texture2DMSArray,
            TextureCubeArray,
            TypedBuffer,
            RawBuffer,
            StructuredBuffer,
            CBuffer,
            Sampler,
            TBuffer,
            RTAccelerationStructure,
            FeedbackTexture2D,
            FeedbackTexture2DArray,
        ]
    };

    /// From the number DXIL uses (metadata, `PSV0`, `AnnotateHandle` properties).
    pub fn from_u32(v: u32) -> Option<ResourceKind> {
        Self::ALL.get(v as usize).copied()
    }

    /// [`ResourceKind::from_u32`] for a wider number.
    pub fn from_u64(v: u64) -> Option<ResourceKind> {
        u32::try_from(v).ok().and_then(Self::from_u32)
    }

    /// The number DXIL uses.
    pub fn to_u32(self) -> u32 {
        self as u32
    }

    /// The DXIL name (`Texture2D`, `RTAccelerationStructure`), as messages and the compiled
    /// shader's resource interface spell it.
    pub fn name(self) -> &'static str {
        use ResourceKind::*;
        match self {
            Invalid => "Invalid",
            Texture1D => "Texture1D",
            Texture2D => "Texture2D",
            Texture2DMS => "Texture2DMS",
            Texture3D => "Texture3D",
            TextureCube => "TextureCube",
            Texture1DArray => "Texture1DArray",
            Texture2DArray => "Texture2DArray",
            Texture2DMSArray => "Texture2DMSArray",
            TextureCubeArray => "TextureCubeArray",
            TypedBuffer => "TypedBuffer",
            RawBuffer => "RawBuffer",
            StructuredBuffer => "StructuredBuffer",
            CBuffer => "CBuffer",
            Sampler => "Sampler",
            TBuffer => "TBuffer",
            RTAccelerationStructure => "RTAccelerationStructure",
            FeedbackTexture2D => "FeedbackTexture2D",
            FeedbackTexture2DArray => "FeedbackTexture2DArray",
        }
    }

    /// The short lower-case name `dxjit dis` prints and serializes (`texture2d`).
    pub fn short_name(self) -> &'static str {
        use ResourceKind::*;
        match self {
            Invalid => "invalid",
            Texture1D => "texture1d",
            Texture2D => "texture2d",
            Texture2DMS => "texture2dms",
            Texture3D => "texture3d",
            TextureCube => "texturecube",
            Texture1DArray => "texture1darray",
            Texture2DArray => "texture2darray",
            Texture2DMSArray => "texture2dmsarray",
            TextureCubeArray => "texturecubearray",
            TypedBuffer => "typedbuffer",
            RawBuffer => "rawbuffer",
            StructuredBuffer => "structuredbuffer",
            CBuffer => "cbuffer",
            Sampler => "sampler",
            TBuffer => "tbuffer",
            RTAccelerationStructure => "rtaccelerationstructure",
            FeedbackTexture2D => "feedbacktexture2d",
            FeedbackTexture2DArray => "feedbacktexture2darray",
        }
    }

    /// A (non-feedback) texture: 1D, 2D, 2DMS, 3D, cube, and their arrays.
    pub fn is_texture(self) -> bool {
        use ResourceKind::*;
        matches!(
            self,
            Texture1D
                | Texture2D
                | Texture2DMS
                | Texture3D
                | TextureCube
                | Texture1DArray
                | Texture2DArray
                | Texture2DMSArray
                | TextureCubeArray
        )
    }
}

/// Serialized as its short name (`"texture2d"`).
impl Serialize for ResourceKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.short_name())
    }
}

/// Its short name (`texture2d`).
impl std::fmt::Display for ResourceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.short_name())
    }
}

#[cfg(test)]
mod tests {
    use super::ResourceKind;

    #[test]
    fn numbers_round_trip() {
        for v in 0..19u32 {
            let k = ResourceKind::from_u32(v).expect("defined");
            assert_eq!(k.to_u32(), v);
            assert_eq!(k.name().to_ascii_lowercase(), k.short_name());
        }
        assert_eq!(ResourceKind::from_u32(19), None);
        assert_eq!(ResourceKind::from_u64(1 << 32 | 2), None);
        assert_eq!(ResourceKind::from_u64(16), Some(ResourceKind::RTAccelerationStructure));
    }
}
