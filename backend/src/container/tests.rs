//! Tests of the container envelope with small hand-built containers.

use super::*;

/// A program part payload: program header, bitcode header, `bitcode`.
pub(crate) fn program_part(kind: u32, sm: (u32, u32), bitcode: &[u8]) -> Vec<u8> {
    let mut p = Vec::new();
    let total = 24 + bitcode.len();
    let dwords = total.div_ceil(4);
    p.extend_from_slice(&((kind << 16) | (sm.0 << 4) | sm.1).to_le_bytes());
    p.extend_from_slice(&(dwords as u32).to_le_bytes());
    p.extend_from_slice(b"DXIL");
    p.extend_from_slice(&((1 << 8) | sm.1).to_le_bytes());
    p.extend_from_slice(&16u32.to_le_bytes());
    p.extend_from_slice(&(bitcode.len() as u32).to_le_bytes());
    p.extend_from_slice(bitcode);
    p.resize(dwords * 4, 0);
    p
}

/// A container of `parts`, laid out back to back, signed when `sign`.
pub(crate) fn build(parts: &[(&[u8; 4], Vec<u8>)], sign: bool) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // total size, patched below
    out.extend_from_slice(&(parts.len() as u32).to_le_bytes());
    let mut at = HEADER_SIZE + 4 * parts.len();
    for (_, data) in parts {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += 8 + data.len();
    }
    for (fourcc, data) in parts {
        out.extend_from_slice(*fourcc);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
    }
    let len = out.len() as u32;
    out[24..28].copy_from_slice(&len.to_le_bytes());
    if sign {
        let d = digest::dxbc_digest(&out[20..]);
        out[4..20].copy_from_slice(&d);
    }
    out
}

fn bitcode() -> Vec<u8> {
    let mut b = b"BC\xC0\xDE".to_vec();
    b.extend_from_slice(&[0x35, 0x14, 0, 0, 1, 2, 3, 4]);
    b
}

fn sample(sign: bool) -> Vec<u8> {
    let mut hash = 0u32.to_le_bytes().to_vec();
    hash.extend_from_slice(&[0xab; 16]);
    let mut vers = Vec::new();
    vers.extend_from_slice(&1u16.to_le_bytes());
    vers.extend_from_slice(&8u16.to_le_bytes());
    vers.extend_from_slice(&0u32.to_le_bytes());
    vers.extend_from_slice(&42u32.to_le_bytes());
    vers.extend_from_slice(&16u32.to_le_bytes());
    vers.extend_from_slice(b"abcdef0\x001.8.1\0\0\0\0");
    let empty_sig = [0u8, 0, 0, 0, 8, 0, 0, 0].to_vec();
    build(
        &[
            (b"SFI0", 0x10u64.to_le_bytes().to_vec()),
            (b"ISG1", empty_sig.clone()),
            (b"OSG1", empty_sig),
            (b"VERS", vers),
            (b"HASH", hash),
            (b"DXIL", program_part(5, (6, 6), &bitcode())),
        ],
        sign,
    )
}

/// Runs every accessor; used to check that nothing panics on bad input.
fn exercise(bytes: &[u8]) {
    if let Ok(c) = Container::parse(bytes) {
        let _ = c.dxil_program();
        let _ = c.input_signature();
        let _ = c.output_signature();
        let _ = c.patch_constant_signature();
        let _ = c.psv0();
        let _ = c.feature_flags();
        let _ = c.hash();
        let _ = c.root_signature();
        let _ = c.version_info();
        let _ = c.rdat();
        let _ = c.digest_status();
    }
}

#[test]
fn parses_hand_built_container() {
    let bytes = sample(true);
    let c = Container::parse(&bytes).unwrap();
    assert_eq!((c.major_version, c.minor_version), (1, 0));
    assert_eq!(c.total_size as usize, bytes.len());
    let names: Vec<_> = c.parts.iter().map(|p| p.fourcc).collect();
    assert_eq!(names, [*b"SFI0", *b"ISG1", *b"OSG1", *b"VERS", *b"HASH", *b"DXIL"]);
    assert_eq!(c.parts[0].offset, HEADER_SIZE + 6 * 4);
    assert_eq!(c.parts[0].payload_offset(), HEADER_SIZE + 6 * 4 + 8);
    assert_eq!(c.feature_flags(), Some(0x10));
    assert_eq!(c.hash().unwrap(), Some(ShaderHash { flags: 0, digest: [0xab; 16] }));
    let v = c.version_info().unwrap().unwrap();
    assert_eq!((v.major, v.minor, v.commit_count), (1, 8, 42));
    assert_eq!((v.commit_sha, v.version_string), ("abcdef0", Some("1.8.1")));
    assert!(c.input_signature().unwrap().unwrap().elements.is_empty());
    assert!(c.patch_constant_signature().unwrap().is_none());
    assert!(c.psv0().unwrap().is_none());
    assert!(c.root_signature().unwrap().is_none());
    assert!(c.rdat().is_none());
    let d = c.dxil_program().unwrap();
    assert_eq!(d.shader_kind, ShaderKind::Compute);
    assert_eq!(d.shader_model, (6, 6));
    assert_eq!(d.dxil_version, (1, 6));
    assert_eq!(d.bitcode_offset_in_part(), 24);
    assert_eq!(d.bitcode, bitcode().as_slice());
    assert_eq!(d.size_in_dwords as usize * 4, c.part(b"DXIL").unwrap().data.len());
    assert_eq!(c.digest_status(), DigestStatus::Valid);
}

#[test]
fn digest_status_zero_and_mismatch() {
    let unsigned = sample(false);
    assert_eq!(Container::parse(&unsigned).unwrap().digest_status(), DigestStatus::Zero);
    let mut tampered = sample(true);
    let last = tampered.len() - 1;
    tampered[last] ^= 0x40;
    assert_eq!(Container::parse(&tampered).unwrap().digest_status(), DigestStatus::Mismatch);
    assert_eq!(DigestStatus::Mismatch.name(), "mismatch");
}

#[test]
fn digest_covers_both_final_block_cases() {
    // Tails of (len - 20) % 64 on both sides of 56 must sign and verify.
    for pad in 0..70usize {
        let bytes = build(&[(b"XTRA", vec![0x5a; pad * 4 % 256 + pad % 4])], true);
        let c = Container::parse(&bytes).unwrap();
        assert_eq!(c.digest_status(), DigestStatus::Valid, "pad {pad}");
    }
}

#[test]
fn header_errors() {
    let bytes = sample(true);
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert!(matches!(Container::parse(&bad), Err(ContainerError::BadMagic { .. })));
    let mut bad = bytes.clone();
    bad[20] = 2;
    assert!(matches!(Container::parse(&bad), Err(ContainerError::UnsupportedVersion { major: 2, .. })));
    assert!(matches!(Container::parse(&bytes[..bytes.len() - 1]), Err(ContainerError::SizeMismatch { .. })));
    assert!(matches!(Container::parse(&bytes[..10]), Err(ContainerError::Truncated { .. })));
    // A part offset past the end.
    let mut bad = bytes.clone();
    bad[32..36].copy_from_slice(&(bytes.len() as u32 - 4).to_le_bytes());
    assert!(matches!(Container::parse(&bad), Err(ContainerError::PartOutOfBounds { index: 0, .. })));
    // A part size past the end.
    let mut bad = bytes.clone();
    let first = u32::from_le_bytes(bytes[32..36].try_into().unwrap()) as usize;
    bad[first + 4..first + 8].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
    let e = Container::parse(&bad).unwrap_err();
    assert!(matches!(e, ContainerError::PartOutOfBounds { index: 0, fourcc: FourCc(f), .. } if &f == b"SFI0"), "{e}");
    assert!(e.to_string().contains("SFI0"), "{e}");
    // A huge part count.
    let mut bad = bytes.clone();
    bad[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(Container::parse(&bad), Err(ContainerError::Truncated { .. })));
}

#[test]
fn program_errors() {
    let ok = program_part(0, (6, 0), &bitcode());
    assert!(DxilProgram::parse(*b"DXIL", &ok).is_ok());
    let mut bad = ok.clone();
    bad[2] = 99; // shader kind 99
    assert!(matches!(DxilProgram::parse(*b"DXIL", &bad), Err(ContainerError::InvalidValue { value: 99, .. })));
    let mut bad = ok.clone();
    bad[8] = b'X';
    assert!(matches!(DxilProgram::parse(*b"DXIL", &bad), Err(ContainerError::BadPartMagic { .. })));
    let mut bad = ok.clone();
    bad[24] = b'X';
    assert!(matches!(DxilProgram::parse(*b"DXIL", &bad), Err(ContainerError::BadBitcodeHeader { .. })));
    let mut bad = ok.clone();
    bad[20] = 200; // bitcode size
    assert!(matches!(DxilProgram::parse(*b"DXIL", &bad), Err(ContainerError::BadBitcodeHeader { .. })));
    let mut bad = ok.clone();
    bad[16] = 0; // bitcode offset 0 overlaps the header
    assert!(matches!(DxilProgram::parse(*b"DXIL", &bad), Err(ContainerError::BadBitcodeHeader { .. })));
    let mut bad = ok.clone();
    bad[4] = 100; // size in dwords beyond the part
    assert!(matches!(DxilProgram::parse(*b"DXIL", &bad), Err(ContainerError::Truncated { .. })));
}

#[test]
fn missing_program_and_ildb_fallback() {
    let none = build(&[(b"SFI0", vec![0; 8])], true);
    let c = Container::parse(&none).unwrap();
    assert!(matches!(c.dxil_program(), Err(ContainerError::MissingPart(FourCc(f))) if &f == b"DXIL"));
    let ildb = build(&[(b"ILDB", program_part(1, (6, 2), &bitcode()))], true);
    let c = Container::parse(&ildb).unwrap();
    let p = c.dxil_program().unwrap();
    assert_eq!((p.part, p.shader_kind, p.shader_model), (*b"ILDB", ShaderKind::Vertex, (6, 2)));
}

#[test]
fn every_prefix_with_patched_size_never_panics() {
    let bytes = sample(true);
    for n in 0..=bytes.len() {
        let mut prefix = bytes[..n].to_vec();
        if prefix.len() >= 28 {
            prefix[24..28].copy_from_slice(&(n as u32).to_le_bytes());
        }
        exercise(&prefix);
        if n < bytes.len() {
            // Some part must now be out of bounds (or the header truncated).
            assert!(Container::parse(&prefix).is_err(), "prefix {n} parsed");
        }
    }
}

#[test]
fn random_byte_flips_never_panic() {
    let bytes = sample(true);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..5000 {
        let mut b = bytes.clone();
        for _ in 0..1 + next() % 4 {
            let i = (next() % b.len() as u64) as usize;
            b[i] = next() as u8;
        }
        exercise(&b);
    }
}
