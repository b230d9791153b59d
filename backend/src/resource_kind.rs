//! DXIL resource kinds (`DXIL::ResourceKind`): what a resource range is (texture dimension,
//! typed/raw/structured buffer, constant buffer, sampler, acceleration structure), shared by the
//! binding model and lowering.

/// DXIL resource kinds (`DXIL::ResourceKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResKind {
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
}

impl ResKind {
    pub fn from_u64(v: u64) -> Option<ResKind> {
        use ResKind::*;
        Some(match v {
            1 => Texture1D,
            2 => Texture2D,
            3 => Texture2DMS,
            4 => Texture3D,
            5 => TextureCube,
            6 => Texture1DArray,
            7 => Texture2DArray,
            8 => Texture2DMSArray,
            9 => TextureCubeArray,
            10 => TypedBuffer,
            11 => RawBuffer,
            12 => StructuredBuffer,
            13 => CBuffer,
            14 => Sampler,
            15 => TBuffer,
            16 => RTAccelerationStructure,
            17 => FeedbackTexture2D,
            18 => FeedbackTexture2DArray,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        use ResKind::*;
        match self {
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
    pub fn is_texture(self) -> bool {
        use ResKind::*;
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
