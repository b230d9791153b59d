//! I/O signature parts: `ISG1`/`OSG1`/`PSG1` (DXIL, 32-byte records) and the
//! older `ISGN`/`OSGN`/`PCSG` (24-byte records) and `OSG5` (28-byte records,
//! with a stream index).
//!
//! Layout: a u32 element count and a u32 offset (from the start of the part
//! payload) to the element array; semantic names are NUL-terminated strings
//! whose offsets are also counted from the start of the payload.

use super::error::{ContainerError, FourCc, Result};
use super::reader::{cstr_at, Reader};
use crate::semantic_kind::SemanticKind;

/// The system value of a signature element (`D3D_NAME` numbering).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SystemValue {
    Undefined,
    Position,
    ClipDistance,
    CullDistance,
    RenderTargetArrayIndex,
    ViewportArrayIndex,
    VertexId,
    PrimitiveId,
    InstanceId,
    IsFrontFace,
    SampleIndex,
    FinalQuadEdgeTessFactor,
    FinalQuadInsideTessFactor,
    FinalTriEdgeTessFactor,
    FinalTriInsideTessFactor,
    FinalLineDetailTessFactor,
    FinalLineDensityTessFactor,
    Barycentrics,
    ShadingRate,
    CullPrimitive,
    Target,
    Depth,
    Coverage,
    DepthGreaterEqual,
    DepthLessEqual,
    StencilRef,
    InnerCoverage,
    /// A value this parser does not name.
    Other(u32),
}

impl SystemValue {
    pub fn from_u32(v: u32) -> SystemValue {
        use SystemValue::*;
        match v {
            0 => Undefined,
            1 => Position,
            2 => ClipDistance,
            3 => CullDistance,
            4 => RenderTargetArrayIndex,
            5 => ViewportArrayIndex,
            6 => VertexId,
            7 => PrimitiveId,
            8 => InstanceId,
            9 => IsFrontFace,
            10 => SampleIndex,
            11 => FinalQuadEdgeTessFactor,
            12 => FinalQuadInsideTessFactor,
            13 => FinalTriEdgeTessFactor,
            14 => FinalTriInsideTessFactor,
            15 => FinalLineDetailTessFactor,
            16 => FinalLineDensityTessFactor,
            23 => Barycentrics,
            24 => ShadingRate,
            25 => CullPrimitive,
            64 => Target,
            65 => Depth,
            66 => Coverage,
            67 => DepthGreaterEqual,
            68 => DepthLessEqual,
            69 => StencilRef,
            70 => InnerCoverage,
            other => Other(other),
        }
    }

    /// The DXIL semantic kind this system value is (`None` for a number this parser does not
    /// name). The tessellation factors, which `D3D_NAME` splits by domain and edge, are
    /// `TessFactor` or `InsideTessFactor` (an isoline's density factor is its second
    /// `TessFactor` row).
    pub fn semantic_kind(self) -> Option<SemanticKind> {
        use SemanticKind as K;
        use SystemValue::*;
        Some(match self {
            Undefined => K::Arbitrary,
            Position => K::Position,
            ClipDistance => K::ClipDistance,
            CullDistance => K::CullDistance,
            RenderTargetArrayIndex => K::RenderTargetArrayIndex,
            ViewportArrayIndex => K::ViewPortArrayIndex,
            VertexId => K::VertexID,
            PrimitiveId => K::PrimitiveID,
            InstanceId => K::InstanceID,
            IsFrontFace => K::IsFrontFace,
            SampleIndex => K::SampleIndex,
            FinalQuadEdgeTessFactor
            | FinalTriEdgeTessFactor
            | FinalLineDetailTessFactor
            | FinalLineDensityTessFactor => K::TessFactor,
            FinalQuadInsideTessFactor | FinalTriInsideTessFactor => K::InsideTessFactor,
            Barycentrics => K::Barycentrics,
            ShadingRate => K::ShadingRate,
            CullPrimitive => K::CullPrimitive,
            Target => K::Target,
            Depth => K::Depth,
            Coverage => K::Coverage,
            DepthGreaterEqual => K::DepthGreaterEqual,
            DepthLessEqual => K::DepthLessEqual,
            StencilRef => K::StencilRef,
            InnerCoverage => K::InnerCoverage,
            Other(_) => return None,
        })
    }
}

/// The component type of a signature element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComponentType {
    Unknown,
    U32,
    S32,
    F32,
    U16,
    S16,
    F16,
    U64,
    S64,
    F64,
    Other(u32),
}

impl ComponentType {
    pub fn from_u32(v: u32) -> ComponentType {
        use ComponentType::*;
        match v {
            0 => Unknown,
            1 => U32,
            2 => S32,
            3 => F32,
            4 => U16,
            5 => S16,
            6 => F16,
            7 => U64,
            8 => S64,
            9 => F64,
            other => Other(other),
        }
    }
}

/// The minimum precision of a signature element (`ISG1`-style records only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MinPrecision {
    Default,
    Float16,
    Float2_8,
    Reserved,
    SInt16,
    UInt16,
    Any16,
    Any10,
    Other(u32),
}

impl MinPrecision {
    pub fn from_u32(v: u32) -> MinPrecision {
        use MinPrecision::*;
        match v {
            0 => Default,
            1 => Float16,
            2 => Float2_8,
            3 => Reserved,
            4 => SInt16,
            5 => UInt16,
            0xf0 => Any16,
            0xf1 => Any10,
            other => Other(other),
        }
    }
}

/// One signature record (one register row of one semantic index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureElement<'a> {
    /// Geometry-shader output stream (0 for layouts without a stream field).
    pub stream: u32,
    pub semantic_name: &'a str,
    pub semantic_index: u32,
    pub system_value: SystemValue,
    pub component_type: ComponentType,
    /// Register row; [`SignatureElement::UNPLACED`] for elements that are not
    /// packed into registers (e.g. `SV_Depth`).
    pub register: u32,
    /// Components present (bits x, y, z, w).
    pub mask: u8,
    /// For outputs: components the shader never writes. For inputs:
    /// components the shader always reads.
    pub rw_mask: u8,
    pub min_precision: MinPrecision,
}

impl SignatureElement<'_> {
    /// The register value of an element that has no register.
    pub const UNPLACED: u32 = u32::MAX;

    pub fn is_placed(&self) -> bool {
        self.register != Self::UNPLACED
    }
}

/// The record layout of a signature part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureLayout {
    /// `ISGN`/`OSGN`/`PCSG`: 24-byte records, no stream, no min precision.
    Sgn,
    /// `OSG5`: 28-byte records with a leading stream index.
    Sg5,
    /// `ISG1`/`OSG1`/`PSG1`: 32-byte records with stream and min precision.
    Sg1,
}

impl SignatureLayout {
    /// The layout used by a part of this fourcc, if it is a signature part.
    pub fn for_fourcc(fourcc: &[u8; 4]) -> Option<SignatureLayout> {
        match fourcc {
            b"ISG1" | b"OSG1" | b"PSG1" => Some(SignatureLayout::Sg1),
            b"OSG5" => Some(SignatureLayout::Sg5),
            b"ISGN" | b"OSGN" | b"PCSG" => Some(SignatureLayout::Sgn),
            _ => None,
        }
    }

    pub fn record_size(self) -> usize {
        match self {
            SignatureLayout::Sgn => 24,
            SignatureLayout::Sg5 => 28,
            SignatureLayout::Sg1 => 32,
        }
    }
}

/// A decoded signature part.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signature<'a> {
    pub elements: Vec<SignatureElement<'a>>,
}

impl<'a> Signature<'a> {
    /// Decodes the payload of signature part `fourcc` (which selects the layout).
    pub fn parse(fourcc: [u8; 4], payload: &'a [u8]) -> Result<Signature<'a>> {
        let part = FourCc(fourcc);
        let layout = SignatureLayout::for_fourcc(&fourcc).ok_or_else(|| ContainerError::Unsupported {
            part,
            what: "signature layout",
            detail: "not a signature part".to_string(),
        })?;
        let mut hdr = Reader::new(payload, "signature header");
        let count = hdr.u32_usize()?;
        let offset = hdr.u32_usize()?;
        let size = layout.record_size();
        // Check the whole array exists before allocating for it.
        let records = Reader::at(payload, offset, "signature elements").array(count, size)?;
        let mut elements = Vec::with_capacity(count);
        for (i, rec) in records.chunks_exact(size).enumerate() {
            let base = offset + i * size;
            let mut r = Reader::new(rec, "signature element");
            let stream = match layout {
                SignatureLayout::Sgn => 0,
                SignatureLayout::Sg5 | SignatureLayout::Sg1 => r.u32()?,
            };
            let name_offset = r.u32_usize()?;
            let semantic_index = r.u32()?;
            let system_value = SystemValue::from_u32(r.u32()?);
            let component_type = ComponentType::from_u32(r.u32()?);
            let register = r.u32()?;
            let mask = r.u8()?;
            let rw_mask = r.u8()?;
            let _pad = r.u16()?;
            let min_precision = match layout {
                SignatureLayout::Sg1 => MinPrecision::from_u32(r.u32()?),
                _ => MinPrecision::Default,
            };
            let semantic_name = cstr_at(payload, name_offset).map_err(|reason| ContainerError::BadString {
                part,
                field: "semantic name",
                offset: base,
                reason,
            })?;
            elements.push(SignatureElement {
                stream,
                semantic_name,
                semantic_index,
                system_value,
                component_type,
                register,
                mask,
                rw_mask,
                min_precision,
            });
        }
        Ok(Signature { elements })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// (stream, name, index, system value, component type, register, mask, rw mask, min precision).
    type Rec<'s> = (u32, &'s str, u32, u32, u32, u32, u8, u8, u32);

    /// Builds an `ISG1`-layout payload.
    pub(crate) fn build_sg1(elems: &[Rec<'_>]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(elems.len() as u32).to_le_bytes());
        out.extend_from_slice(&8u32.to_le_bytes());
        let strings_at = 8 + 32 * elems.len();
        let mut strings = Vec::new();
        for &(stream, name, idx, sv, ty, reg, mask, rw, mp) in elems {
            let name_off = (strings_at + strings.len()) as u32;
            strings.extend_from_slice(name.as_bytes());
            strings.push(0);
            for v in [stream, name_off, idx, sv, ty, reg] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&[mask, rw, 0, 0]);
            out.extend_from_slice(&mp.to_le_bytes());
        }
        out.extend_from_slice(&strings);
        while out.len() % 4 != 0 {
            out.push(0);
        }
        out
    }

    #[test]
    fn decodes_isg1_records() {
        let p =
            build_sg1(&[(0, "SV_Position", 0, 1, 3, 0, 0xf, 0xf, 0), (0, "TEXCOORD", 3, 0, 1, u32::MAX, 0x3, 0x1, 1)]);
        let s = Signature::parse(*b"ISG1", &p).unwrap();
        assert_eq!(s.elements.len(), 2);
        let a = &s.elements[0];
        assert_eq!(a.semantic_name, "SV_Position");
        assert_eq!(a.system_value, SystemValue::Position);
        assert_eq!(a.component_type, ComponentType::F32);
        assert!(a.is_placed());
        let b = &s.elements[1];
        assert_eq!((b.semantic_name, b.semantic_index), ("TEXCOORD", 3));
        assert_eq!(b.component_type, ComponentType::U32);
        assert!(!b.is_placed());
        assert_eq!((b.mask, b.rw_mask), (0x3, 0x1));
        assert_eq!(b.min_precision, MinPrecision::Float16);
    }

    #[test]
    fn empty_signature() {
        let p = [0u8, 0, 0, 0, 8, 0, 0, 0];
        assert!(Signature::parse(*b"OSG1", &p).unwrap().elements.is_empty());
    }

    #[test]
    fn decodes_isgn_records() {
        // One 24-byte record: name offset, index, sv, type, register, mask, rw, pad.
        let mut p = vec![];
        for v in [1u32, 8, 32, 2, 0, 3, 1] {
            p.extend_from_slice(&v.to_le_bytes());
        }
        p.extend_from_slice(&[0x7, 0x7, 0, 0]);
        p.extend_from_slice(b"POS\0");
        let s = Signature::parse(*b"ISGN", &p).unwrap();
        let e = &s.elements[0];
        assert_eq!((e.stream, e.semantic_name, e.semantic_index), (0, "POS", 2));
        assert_eq!((e.component_type, e.register, e.mask), (ComponentType::F32, 1, 7));
        assert_eq!(e.min_precision, MinPrecision::Default);
    }

    #[test]
    fn rejects_bad_counts_and_names() {
        let mut p = build_sg1(&[(0, "A", 0, 0, 3, 0, 1, 1, 0)]);
        // Count too large for the bytes present.
        p[0] = 200;
        assert!(matches!(Signature::parse(*b"ISG1", &p), Err(ContainerError::Truncated { .. })));
        p[0] = 1;
        // Name offset out of range.
        p[12] = 0xff;
        assert!(matches!(Signature::parse(*b"ISG1", &p), Err(ContainerError::BadString { .. })));
        // Huge count must not allocate.
        let huge = [0xff, 0xff, 0xff, 0xff, 8, 0, 0, 0];
        assert!(Signature::parse(*b"ISG1", &huge).is_err());
        assert!(Signature::parse(*b"ISG1", &[1, 0]).is_err());
        assert!(Signature::parse(*b"XXXX", &p).is_err());
    }

    #[test]
    fn value_enums_keep_unknown_values() {
        assert_eq!(SystemValue::from_u32(999), SystemValue::Other(999));
        assert_eq!(SystemValue::from_u32(70), SystemValue::InnerCoverage);
        assert_eq!(ComponentType::from_u32(6), ComponentType::F16);
        assert_eq!(ComponentType::from_u32(12), ComponentType::Other(12));
        assert_eq!(MinPrecision::from_u32(0xf1), MinPrecision::Any10);
    }
}
