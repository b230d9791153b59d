//! Small helpers shared by tests and tools until the container API lands.

/// The LLVM bitcode inside a DXBC container's `DXIL` part, or `None` when the
/// bytes are not a well-formed container with a DXIL part. Every offset and
/// size is bounds-checked; nothing here panics on malformed input.
///
/// This is a stop-gap: it will be replaced by `dxjit::container`.
pub fn bitcode_of(container: &[u8]) -> Option<&[u8]> {
    let u32_at = |b: &[u8], at: usize| -> Option<u32> {
        let s = b.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    };
    if container.get(0..4)? != b"DXBC" {
        return None;
    }
    let count = u32_at(container, 28)? as usize;
    for i in 0..count {
        let off = u32_at(container, 32usize.checked_add(i.checked_mul(4)?)?)? as usize;
        if container.get(off..off.checked_add(4)?)? != b"DXIL" {
            continue;
        }
        let part_size = u32_at(container, off + 4)? as usize;
        let payload = container.get(off + 8..(off + 8).checked_add(part_size)?)?;
        // Program header (8 bytes), then the bitcode header: "DXIL", version,
        // offset of the bitcode from the start of this header, bitcode size.
        if payload.get(8..12)? != b"DXIL" {
            return None;
        }
        let bc_off = u32_at(payload, 16)? as usize;
        let bc_size = u32_at(payload, 20)? as usize;
        let start = 8usize.checked_add(bc_off)?;
        return payload.get(start..start.checked_add(bc_size)?);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::bitcode_of;

    fn container(bitcode: &[u8]) -> Vec<u8> {
        let mut part = Vec::new();
        part.extend_from_slice(&0x0005_0060u32.to_le_bytes()); // cs_6_0
        part.extend_from_slice(&0u32.to_le_bytes());
        part.extend_from_slice(b"DXIL");
        part.extend_from_slice(&0x100u32.to_le_bytes());
        part.extend_from_slice(&16u32.to_le_bytes());
        part.extend_from_slice(&(bitcode.len() as u32).to_le_bytes());
        part.extend_from_slice(bitcode);
        let mut c = Vec::new();
        c.extend_from_slice(b"DXBC");
        c.extend_from_slice(&[0; 16]);
        c.extend_from_slice(&1u16.to_le_bytes());
        c.extend_from_slice(&0u16.to_le_bytes());
        let total = 32 + 4 + 8 + part.len();
        c.extend_from_slice(&(total as u32).to_le_bytes());
        c.extend_from_slice(&1u32.to_le_bytes());
        c.extend_from_slice(&36u32.to_le_bytes());
        c.extend_from_slice(b"DXIL");
        c.extend_from_slice(&(part.len() as u32).to_le_bytes());
        c.extend_from_slice(&part);
        c
    }

    #[test]
    fn extracts_bitcode() {
        let c = container(b"BC\xC0\xDEabcd");
        assert_eq!(bitcode_of(&c), Some(&b"BC\xC0\xDEabcd"[..]));
    }

    #[test]
    fn truncated_or_garbage_is_none() {
        let c = container(b"BC\xC0\xDEabcd");
        for n in 0..c.len() {
            assert_eq!(bitcode_of(&c[..n]), None, "prefix of {n} bytes");
        }
        assert_eq!(bitcode_of(b"not a container at all, really"), None);
        let mut bad = c.clone();
        bad[32..36].copy_from_slice(&u32::MAX.to_le_bytes()); // part offset
        assert_eq!(bitcode_of(&bad), None);
    }
}
