//! `RTS0`: a serialized root signature (versions 1.0, 1.1 and 1.2).
//!
//! Layout (all offsets from the start of the part payload): a header of six
//! u32 (version, parameter count, parameter offset, static-sampler count,
//! static-sampler offset, flags); 12-byte parameter records (type,
//! visibility, payload offset). Descriptor tables hold a range count and a
//! range offset; ranges are 20 bytes in 1.0 and 24 bytes (with flags) from
//! 1.1. Root descriptors are 8 bytes in 1.0 and 12 (with flags) from 1.1.
//! Root constants are 12 bytes. Static samplers are 52 bytes, 56 (with
//! flags) in 1.2.

use super::error::{ContainerError, FourCc, Result};
use super::reader::Reader;

const PART: FourCc = FourCc(*b"RTS0");

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootSignatureVersion {
    V1_0,
    V1_1,
    V1_2,
}

impl RootSignatureVersion {
    fn from_u32(v: u32) -> Option<Self> {
        match v {
            1 => Some(Self::V1_0),
            2 => Some(Self::V1_1),
            3 => Some(Self::V1_2),
            _ => None,
        }
    }

    /// Whether ranges and root descriptors carry flags (1.1 and later).
    pub fn has_flags(self) -> bool {
        self != Self::V1_0
    }
}

/// `D3D12_SHADER_VISIBILITY`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShaderVisibility {
    All,
    Vertex,
    Hull,
    Domain,
    Geometry,
    Pixel,
    Amplification,
    Mesh,
    Other(u32),
}

impl ShaderVisibility {
    pub fn from_u32(v: u32) -> Self {
        use ShaderVisibility::*;
        match v {
            0 => All,
            1 => Vertex,
            2 => Hull,
            3 => Domain,
            4 => Geometry,
            5 => Pixel,
            6 => Amplification,
            7 => Mesh,
            o => Other(o),
        }
    }
}

/// `D3D12_DESCRIPTOR_RANGE_TYPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DescriptorRangeType {
    Srv,
    Uav,
    Cbv,
    Sampler,
    Other(u32),
}

impl DescriptorRangeType {
    pub fn from_u32(v: u32) -> Self {
        match v {
            0 => Self::Srv,
            1 => Self::Uav,
            2 => Self::Cbv,
            3 => Self::Sampler,
            o => Self::Other(o),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DescriptorRange {
    pub range_type: DescriptorRangeType,
    /// `u32::MAX` for unbounded.
    pub num_descriptors: u32,
    pub base_shader_register: u32,
    pub register_space: u32,
    /// 1.1+: `D3D12_DESCRIPTOR_RANGE_FLAGS`.
    pub flags: Option<u32>,
    /// `u32::MAX` means "append".
    pub offset_in_descriptors_from_table_start: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootDescriptor {
    pub shader_register: u32,
    pub register_space: u32,
    /// 1.1+: `D3D12_ROOT_DESCRIPTOR_FLAGS`.
    pub flags: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootParameterKind {
    DescriptorTable(Vec<DescriptorRange>),
    Constants { shader_register: u32, register_space: u32, num_32bit_values: u32 },
    Cbv(RootDescriptor),
    Srv(RootDescriptor),
    Uav(RootDescriptor),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootParameter {
    pub visibility: ShaderVisibility,
    pub kind: RootParameterKind,
}

/// `D3D12_STATIC_SAMPLER_DESC` (enumerations kept as their raw numbers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StaticSampler {
    pub filter: u32,
    pub address_u: u32,
    pub address_v: u32,
    pub address_w: u32,
    pub mip_lod_bias: f32,
    pub max_anisotropy: u32,
    pub comparison_func: u32,
    pub border_color: u32,
    pub min_lod: f32,
    pub max_lod: f32,
    pub shader_register: u32,
    pub register_space: u32,
    pub visibility: ShaderVisibility,
    /// 1.2: `D3D12_SAMPLER_FLAGS`.
    pub flags: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RootSignature {
    pub version: RootSignatureVersion,
    /// `D3D12_ROOT_SIGNATURE_FLAGS`.
    pub flags: u32,
    pub parameters: Vec<RootParameter>,
    pub static_samplers: Vec<StaticSampler>,
}

impl RootSignature {
    pub fn parse(payload: &[u8]) -> Result<RootSignature> {
        let mut h = Reader::new(payload, "RTS0 header");
        let raw_version = h.u32()?;
        let version = RootSignatureVersion::from_u32(raw_version).ok_or_else(|| ContainerError::Unsupported {
            part: PART,
            what: "root signature version",
            detail: format!("version word {raw_version:#x} (known: 1 = 1.0, 2 = 1.1, 3 = 1.2)"),
        })?;
        let num_params = h.u32_usize()?;
        let params_offset = h.u32_usize()?;
        let num_samplers = h.u32_usize()?;
        let samplers_offset = h.u32_usize()?;
        let flags = h.u32()?;

        let records = Reader::at(payload, params_offset, "RTS0 root parameters").array(num_params, 12)?;
        let mut parameters = Vec::with_capacity(num_params);
        for (i, rec) in records.chunks_exact(12).enumerate() {
            let mut r = Reader::new(rec, "RTS0 root parameter");
            let ty = r.u32()?;
            let visibility = ShaderVisibility::from_u32(r.u32()?);
            let at = r.u32_usize()?;
            let mut p = Reader::at(payload, at, "RTS0 root parameter payload");
            let descriptor = |p: &mut Reader<'_>| -> Result<RootDescriptor> {
                Ok(RootDescriptor {
                    shader_register: p.u32()?,
                    register_space: p.u32()?,
                    flags: if version.has_flags() { Some(p.u32()?) } else { None },
                })
            };
            let kind = match ty {
                0 => {
                    let count = p.u32_usize()?;
                    let ranges_at = p.u32_usize()?;
                    let size = if version.has_flags() { 24 } else { 20 };
                    let raw = Reader::at(payload, ranges_at, "RTS0 descriptor ranges").array(count, size)?;
                    let mut ranges = Vec::with_capacity(count);
                    for rec in raw.chunks_exact(size) {
                        let mut rr = Reader::new(rec, "RTS0 descriptor range");
                        let range_type = DescriptorRangeType::from_u32(rr.u32()?);
                        let num_descriptors = rr.u32()?;
                        let base_shader_register = rr.u32()?;
                        let register_space = rr.u32()?;
                        let flags = if version.has_flags() { Some(rr.u32()?) } else { None };
                        let offset_in_descriptors_from_table_start = rr.u32()?;
                        ranges.push(DescriptorRange {
                            range_type,
                            num_descriptors,
                            base_shader_register,
                            register_space,
                            flags,
                            offset_in_descriptors_from_table_start,
                        });
                    }
                    RootParameterKind::DescriptorTable(ranges)
                }
                1 => RootParameterKind::Constants {
                    shader_register: p.u32()?,
                    register_space: p.u32()?,
                    num_32bit_values: p.u32()?,
                },
                2 => RootParameterKind::Cbv(descriptor(&mut p)?),
                3 => RootParameterKind::Srv(descriptor(&mut p)?),
                4 => RootParameterKind::Uav(descriptor(&mut p)?),
                other => {
                    return Err(ContainerError::InvalidValue {
                        part: PART,
                        field: "root parameter type",
                        offset: params_offset + i * 12,
                        value: other as u64,
                    })
                }
            };
            parameters.push(RootParameter { visibility, kind });
        }

        let size = if version == RootSignatureVersion::V1_2 { 56 } else { 52 };
        let raw = Reader::at(payload, samplers_offset, "RTS0 static samplers").array(num_samplers, size)?;
        let mut static_samplers = Vec::with_capacity(num_samplers);
        for rec in raw.chunks_exact(size) {
            let mut r = Reader::new(rec, "RTS0 static sampler");
            static_samplers.push(StaticSampler {
                filter: r.u32()?,
                address_u: r.u32()?,
                address_v: r.u32()?,
                address_w: r.u32()?,
                mip_lod_bias: r.f32()?,
                max_anisotropy: r.u32()?,
                comparison_func: r.u32()?,
                border_color: r.u32()?,
                min_lod: r.f32()?,
                max_lod: r.f32()?,
                shader_register: r.u32()?,
                register_space: r.u32()?,
                visibility: ShaderVisibility::from_u32(r.u32()?),
                flags: if size == 56 { Some(r.u32()?) } else { None },
            });
        }
        Ok(RootSignature { version, flags, parameters, static_samplers })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push(out: &mut Vec<u8>, vals: &[u32]) {
        for v in vals {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// Version word `v`: a table with two ranges, 4 root constants, a CBV
    /// and a UAV root descriptor, and one static sampler.
    fn build(v: u32) -> Vec<u8> {
        let flags = v >= 2;
        let mut p = Vec::new();
        let params_at = 24u32;
        let payloads_at = params_at + 4 * 12;
        let table_at = payloads_at;
        let ranges_at = table_at + 8;
        let range_size = if flags { 24 } else { 20 };
        let consts_at = ranges_at + 2 * range_size;
        let desc_size = if flags { 12 } else { 8 };
        let cbv_at = consts_at + 12;
        let uav_at = cbv_at + desc_size;
        let samplers_at = uav_at + desc_size;
        push(&mut p, &[v, 4, params_at, 1, samplers_at, 0x1]);
        push(&mut p, &[0, 5, table_at, 1, 0, consts_at, 2, 1, cbv_at, 4, 7, uav_at]);
        push(&mut p, &[2, ranges_at]);
        for (ty, n, base, space, fl, off) in [(0u32, 4u32, 1u32, 0u32, 8u32, 0u32), (1, u32::MAX, 0, 3, 1, u32::MAX)] {
            if flags {
                push(&mut p, &[ty, n, base, space, fl, off]);
            } else {
                push(&mut p, &[ty, n, base, space, off]);
            }
        }
        push(&mut p, &[2, 1, 16]);
        for (reg, space) in [(0u32, 0u32), (5, 2)] {
            push(&mut p, &[reg, space]);
            if flags {
                push(&mut p, &[2]);
            }
        }
        push(&mut p, &[0x15, 1, 2, 3, 0.5f32.to_bits(), 16, 4, 2, 0f32.to_bits(), 1000f32.to_bits(), 7, 1, 5]);
        if v == 3 {
            push(&mut p, &[1]);
        }
        p
    }

    #[test]
    fn decodes_all_versions() {
        for v in 1..=3 {
            let p = build(v);
            let rs = RootSignature::parse(&p).unwrap();
            assert_eq!(rs.flags, 1);
            assert_eq!(rs.parameters.len(), 4);
            let RootParameterKind::DescriptorTable(ranges) = &rs.parameters[0].kind else { panic!("not a table") };
            assert_eq!(rs.parameters[0].visibility, ShaderVisibility::Pixel);
            assert_eq!(ranges.len(), 2);
            assert_eq!(ranges[0].range_type, DescriptorRangeType::Srv);
            assert_eq!((ranges[0].num_descriptors, ranges[0].base_shader_register), (4, 1));
            assert_eq!(ranges[1].range_type, DescriptorRangeType::Uav);
            assert_eq!(ranges[1].num_descriptors, u32::MAX);
            assert_eq!(ranges[1].register_space, 3);
            assert_eq!(ranges[1].offset_in_descriptors_from_table_start, u32::MAX);
            assert_eq!(
                rs.parameters[1].kind,
                RootParameterKind::Constants { shader_register: 2, register_space: 1, num_32bit_values: 16 }
            );
            let fl = if v >= 2 { Some(2) } else { None };
            assert_eq!(
                rs.parameters[2].kind,
                RootParameterKind::Cbv(RootDescriptor { shader_register: 0, register_space: 0, flags: fl })
            );
            assert_eq!(rs.parameters[3].visibility, ShaderVisibility::Mesh);
            assert_eq!(
                rs.parameters[3].kind,
                RootParameterKind::Uav(RootDescriptor { shader_register: 5, register_space: 2, flags: fl })
            );
            assert_eq!(ranges[0].flags, if v >= 2 { Some(8) } else { None });
            let s = rs.static_samplers[0];
            assert_eq!((s.filter, s.address_u, s.address_w), (0x15, 1, 3));
            assert_eq!((s.mip_lod_bias, s.max_lod), (0.5, 1000.0));
            assert_eq!((s.shader_register, s.register_space, s.visibility), (7, 1, ShaderVisibility::Pixel));
            assert_eq!(s.flags, if v == 3 { Some(1) } else { None });
            for n in 0..p.len() {
                assert!(RootSignature::parse(&p[..n]).is_err(), "v{v} prefix {n}");
            }
        }
    }

    #[test]
    fn rejects_unknown_version_and_parameter_type() {
        let mut p = build(2);
        p[0] = 9;
        assert!(matches!(RootSignature::parse(&p), Err(ContainerError::Unsupported { .. })));
        let mut p = build(2);
        p[24] = 9;
        assert!(matches!(RootSignature::parse(&p), Err(ContainerError::InvalidValue { .. })));
        let mut p = build(2);
        // A huge parameter count must fail, not allocate.
        p[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(RootSignature::parse(&p).is_err());
    }
}
