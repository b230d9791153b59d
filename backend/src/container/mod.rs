//! The DXBC container: the envelope D3D12 hands a driver in
//! `D3D12_SHADER_BYTECODE`, holding the DXIL program and its side tables.
//!
//! Header (32 bytes, little-endian): magic `DXBC`, a 16-byte digest, u16
//! major and u16 minor version (1.0), u32 total size, u32 part count; then
//! one u32 file offset per part. Each part is a fourcc, a u32 payload size
//! and the payload.
//!
//! [`Container::parse`] checks the header and that every part lies inside
//! the file; the parts are decoded lazily by the accessors. Nothing here
//! panics on any input, and nothing is allocated for a count before the
//! bytes it describes are known to exist.

pub mod digest;
pub mod error;
pub mod psv;
pub mod rdat;
pub(crate) mod reader;
pub mod rootsig;
pub mod signature;

pub use error::{ContainerError, FourCc};
pub use psv::Psv0;
pub use rootsig::RootSignature;
pub use signature::{Signature, SignatureElement};

use crate::ShaderKind;
use error::Result;
use reader::{cstr_at, Reader};

/// Size of the fixed container header, before the part-offset table.
pub const HEADER_SIZE: usize = 32;

/// One part of the container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part<'a> {
    pub fourcc: [u8; 4],
    /// File offset of the part's 8-byte header (fourcc, size).
    pub offset: usize,
    /// The payload (after the part header).
    pub data: &'a [u8],
}

impl Part<'_> {
    /// File offset of the payload.
    pub fn payload_offset(&self) -> usize {
        self.offset + 8
    }

    pub fn fourcc(&self) -> FourCc {
        FourCc(self.fourcc)
    }
}

/// Whether the container's digest matches its contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DigestStatus {
    /// The stored digest equals the computed one (signed by the validator).
    Valid,
    /// The stored digest is all zeros (never signed).
    Zero,
    /// The stored digest is non-zero and wrong.
    Mismatch,
}

impl DigestStatus {
    /// The word the corpus manifests use: `valid`, `zero`, `mismatch`.
    pub fn name(self) -> &'static str {
        match self {
            DigestStatus::Valid => "valid",
            DigestStatus::Zero => "zero",
            DigestStatus::Mismatch => "mismatch",
        }
    }
}

/// The program header and bitcode of a `DXIL` (or `ILDB`) part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DxilProgram<'a> {
    /// The part it came from (`DXIL` or `ILDB`).
    pub part: [u8; 4],
    pub shader_kind: ShaderKind,
    /// The raw program-version word.
    pub program_version: u32,
    /// Shader model (major, minor).
    pub shader_model: (u32, u32),
    /// Size of the program in 32-bit words, header included, as stored.
    pub size_in_dwords: u32,
    /// DXIL version (major, minor) from the bitcode header.
    pub dxil_version: (u32, u32),
    /// Offset of the bitcode, counted from the start of the bitcode header
    /// (payload byte 8), as stored.
    pub bitcode_offset: u32,
    /// The LLVM bitcode (starts with `BC 0xC0 0xDE`).
    pub bitcode: &'a [u8],
}

impl DxilProgram<'_> {
    /// Offset of the bitcode within the part payload.
    pub fn bitcode_offset_in_part(&self) -> usize {
        8 + self.bitcode_offset as usize
    }

    /// Decodes a program part payload (`DXIL` or `ILDB`).
    pub fn parse(part: [u8; 4], payload: &[u8]) -> Result<DxilProgram<'_>> {
        let pcc = FourCc(part);
        let mut r = Reader::new(payload, "DXIL program header");
        let program_version = r.u32()?;
        let size_in_dwords = r.u32()?;
        let kind_raw = program_version >> 16;
        let shader_kind = ShaderKind::from_u32(kind_raw).ok_or(ContainerError::InvalidValue {
            part: pcc,
            field: "program version shader kind",
            offset: 0,
            value: kind_raw as u64,
        })?;
        let shader_model = ((program_version >> 4) & 0xf, program_version & 0xf);
        let program_len = (size_in_dwords as usize).saturating_mul(4);
        let program = payload.get(..program_len).ok_or(ContainerError::Truncated {
            what: "DXIL program (size_in_dwords)",
            offset: 0,
            need: program_len,
            have: payload.len(),
        })?;
        let mut r = Reader::at(program, 8, "DXIL bitcode header");
        let magic: [u8; 4] = r.array_n()?;
        if &magic != b"DXIL" {
            return Err(ContainerError::BadPartMagic {
                part: pcc,
                offset: 8,
                expected: FourCc(*b"DXIL"),
                found: FourCc(magic),
            });
        }
        let version = r.u32()?;
        let bitcode_offset = r.u32()?;
        let bitcode_size = r.u32()? as usize;
        let start = 8usize.saturating_add(bitcode_offset as usize);
        let bitcode = start.checked_add(bitcode_size).and_then(|end| program.get(start..end)).ok_or(
            ContainerError::BadBitcodeHeader {
                part: pcc,
                offset: start,
                size: bitcode_size,
                reason: "bitcode lies outside the program",
            },
        )?;
        if start < 24 {
            return Err(ContainerError::BadBitcodeHeader {
                part: pcc,
                offset: start,
                size: bitcode_size,
                reason: "bitcode overlaps the bitcode header",
            });
        }
        if !bitcode.starts_with(b"BC\xC0\xDE") {
            return Err(ContainerError::BadBitcodeHeader {
                part: pcc,
                offset: start,
                size: bitcode_size,
                reason: "bitcode does not start with BC C0 DE",
            });
        }
        Ok(DxilProgram {
            part,
            shader_kind,
            program_version,
            shader_model,
            size_in_dwords,
            dxil_version: (version >> 8, version & 0xff),
            bitcode_offset,
            bitcode,
        })
    }
}

/// The `HASH` part: a shader hash computed by the compiler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShaderHash {
    /// Bit 0: the hash includes the source.
    pub flags: u32,
    pub digest: [u8; 16],
}

/// The `VERS` part: compiler identification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionInfo<'a> {
    pub major: u16,
    pub minor: u16,
    pub flags: u32,
    pub commit_count: u32,
    pub commit_sha: &'a str,
    /// The custom version string, when present.
    pub version_string: Option<&'a str>,
}

/// A parsed DXBC container, borrowing the bytes it was parsed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container<'a> {
    /// The whole container.
    pub bytes: &'a [u8],
    pub digest: [u8; 16],
    pub major_version: u16,
    pub minor_version: u16,
    pub total_size: u32,
    /// The parts, in part-table order.
    pub parts: Vec<Part<'a>>,
}

impl<'a> Container<'a> {
    /// Parses the header and part table, checking that every part lies
    /// inside the container.
    pub fn parse(bytes: &'a [u8]) -> Result<Container<'a>> {
        let mut r = Reader::new(bytes, "container header");
        let magic: [u8; 4] = r.array_n()?;
        if &magic != b"DXBC" {
            return Err(ContainerError::BadMagic { found: magic });
        }
        let digest: [u8; 16] = r.array_n()?;
        let major_version = r.u16()?;
        let minor_version = r.u16()?;
        let total_size = r.u32()?;
        let part_count = r.u32_usize()?;
        if major_version != 1 {
            return Err(ContainerError::UnsupportedVersion { major: major_version, minor: minor_version });
        }
        if total_size as usize != bytes.len() {
            return Err(ContainerError::SizeMismatch { declared: total_size, actual: bytes.len() });
        }
        let mut table = Reader::new(r.array(part_count, 4)?, "part offset table");
        let mut parts = Vec::with_capacity(part_count);
        for index in 0..part_count {
            let offset = table.u32_usize()?;
            let mut ph = Reader::at(bytes, offset, "part header");
            let header = ph.array_n::<4>().and_then(|f| Ok((f, ph.u32()?)));
            let (fourcc, size) = header.map_err(|_| ContainerError::PartOutOfBounds {
                index,
                fourcc: FourCc(
                    bytes.get(offset..offset.saturating_add(4)).and_then(|s| s.try_into().ok()).unwrap_or([0; 4]),
                ),
                offset,
                size: 0,
                file_size: bytes.len(),
            })?;
            let data = ph.bytes(size as usize).map_err(|_| ContainerError::PartOutOfBounds {
                index,
                fourcc: FourCc(fourcc),
                offset,
                size,
                file_size: bytes.len(),
            })?;
            parts.push(Part { fourcc, offset, data });
        }
        Ok(Container { bytes, digest, major_version, minor_version, total_size, parts })
    }

    /// The first part with this fourcc.
    pub fn part(&self, fourcc: &[u8; 4]) -> Option<&Part<'a>> {
        self.parts.iter().find(|p| &p.fourcc == fourcc)
    }

    fn first_of(&self, fourccs: &[&[u8; 4]]) -> Option<&Part<'a>> {
        fourccs.iter().find_map(|f| self.part(f))
    }

    /// The DXIL program: from the `DXIL` part, else from `ILDB`.
    pub fn dxil_program(&self) -> Result<DxilProgram<'a>> {
        let p = self.first_of(&[b"DXIL", b"ILDB"]).ok_or(ContainerError::MissingPart(FourCc(*b"DXIL")))?;
        DxilProgram::parse(p.fourcc, p.data)
    }

    fn signature(&self, fourccs: &[&[u8; 4]]) -> Result<Option<Signature<'a>>> {
        match self.first_of(fourccs) {
            Some(p) => Signature::parse(p.fourcc, p.data).map(Some),
            None => Ok(None),
        }
    }

    /// `ISG1` (or the older `ISGN`).
    pub fn input_signature(&self) -> Result<Option<Signature<'a>>> {
        self.signature(&[b"ISG1", b"ISGN"])
    }

    /// `OSG1` (or the older `OSG5`/`OSGN`).
    pub fn output_signature(&self) -> Result<Option<Signature<'a>>> {
        self.signature(&[b"OSG1", b"OSG5", b"OSGN"])
    }

    /// `PSG1` (or the older `PCSG`): hull/domain patch constants, or mesh
    /// per-primitive outputs.
    pub fn patch_constant_signature(&self) -> Result<Option<Signature<'a>>> {
        self.signature(&[b"PSG1", b"PCSG"])
    }

    /// `PSV0`, decoded.
    pub fn psv0(&self) -> Result<Option<Psv0<'a>>> {
        let Some(p) = self.part(b"PSV0") else { return Ok(None) };
        let kind = self.dxil_program().ok().map(|d| d.shader_kind);
        Psv0::parse(p.data, kind).map(Some)
    }

    /// `SFI0`: the optional-feature mask, when present and 8 bytes or more.
    pub fn feature_flags(&self) -> Option<u64> {
        Reader::new(self.part(b"SFI0")?.data, "SFI0").u64().ok()
    }

    /// `HASH`.
    pub fn hash(&self) -> Result<Option<ShaderHash>> {
        let Some(p) = self.part(b"HASH") else { return Ok(None) };
        let mut r = Reader::new(p.data, "HASH");
        Ok(Some(ShaderHash { flags: r.u32()?, digest: r.array_n()? }))
    }

    /// `RTS0`, decoded.
    pub fn root_signature(&self) -> Result<Option<RootSignature>> {
        match self.part(b"RTS0") {
            Some(p) => RootSignature::parse(p.data).map(Some),
            None => Ok(None),
        }
    }

    /// `VERS`, decoded.
    pub fn version_info(&self) -> Result<Option<VersionInfo<'a>>> {
        let Some(p) = self.part(b"VERS") else { return Ok(None) };
        let mut r = Reader::new(p.data, "VERS");
        let major = r.u16()?;
        let minor = r.u16()?;
        let flags = r.u32()?;
        let commit_count = r.u32()?;
        let list_size = r.u32_usize()?;
        let list = r.bytes(list_size)?;
        let bad = |offset, reason| ContainerError::BadString {
            part: FourCc(*b"VERS"),
            field: "version string list",
            offset,
            reason,
        };
        let commit_sha = if list.is_empty() { "" } else { cstr_at(list, 0).map_err(|e| bad(16, e))? };
        let second = commit_sha.len() + 1;
        let version_string = match list.get(second..) {
            Some(rest) if rest.first().is_some_and(|&b| b != 0) => {
                Some(cstr_at(list, second).map_err(|e| bad(16 + second, e))?)
            }
            _ => None,
        };
        Ok(Some(VersionInfo { major, minor, flags, commit_count, commit_sha, version_string }))
    }

    /// `RDAT` (runtime data for libraries): recognised, returned raw.
    pub fn rdat(&self) -> Option<&'a [u8]> {
        self.part(b"RDAT").map(|p| p.data)
    }

    /// `RDAT` (DXIL libraries), decoded: functions and state subobjects.
    pub fn runtime_data(&self) -> Result<Option<rdat::Rdat>> {
        match self.part(b"RDAT") {
            Some(p) => rdat::Rdat::parse(p.data).map(Some),
            None => Ok(None),
        }
    }

    /// DXIL libraries: the global (`local = false`) or local root signature the library's
    /// subobjects associate with export `export` (plain or mangled name), decoded; see
    /// [`rdat::Rdat::root_signature_for`]. `None` without `RDAT` or without an association.
    pub fn export_root_signature(&self, export: &str, local: bool) -> Result<Option<RootSignature>> {
        let Some(rdat) = self.runtime_data()? else { return Ok(None) };
        let name = crate::dxil::library::export_name(export);
        match rdat.root_signature_for(name, local) {
            Some(bytes) => RootSignature::parse(bytes).map(Some),
            None => Ok(None),
        }
    }

    /// The digest recomputed from the container bytes.
    pub fn computed_digest(&self) -> [u8; 16] {
        digest::dxbc_digest(self.bytes.get(20..).unwrap_or(&[]))
    }

    /// Whether the stored digest is valid, zero (unsigned) or wrong.
    pub fn digest_status(&self) -> DigestStatus {
        if self.digest == [0; 16] {
            DigestStatus::Zero
        } else if self.digest == self.computed_digest() {
            DigestStatus::Valid
        } else {
            DigestStatus::Mismatch
        }
    }
}

#[cfg(test)]
mod tests;
