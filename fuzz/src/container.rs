//! The DXIL program part of a DXBC container: cut out its bitcode, and
//! build a container with new bitcode in its place (other parts kept).

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// (offset of the DXIL part's payload, the bitcode).
pub fn bitcode(c: &[u8]) -> Option<(usize, &[u8])> {
    if c.get(..4)? != b"DXBC" {
        return None;
    }
    let n = u32_at(c, 28)? as usize;
    for i in 0..n.min(64) {
        let off = u32_at(c, 32 + 4 * i)? as usize;
        if c.get(off..off + 4)? == b"DXIL" {
            let pay = off + 8;
            let bc_off = u32_at(c, pay + 16)? as usize;
            let bc_size = u32_at(c, pay + 20)? as usize;
            let start = pay + 8 + bc_off;
            return Some((pay, c.get(start..start.checked_add(bc_size)?)?));
        }
    }
    None
}

/// `c` with its DXIL part's bitcode replaced by `bc` (sizes and offsets
/// rewritten; the hash is left as it was, dxjit does not check it).
pub fn with_bitcode(c: &[u8], bc: &[u8]) -> Option<Vec<u8>> {
    let n = u32_at(c, 28)? as usize;
    if n > 64 {
        return None;
    }
    let mut parts: Vec<(&[u8], Vec<u8>)> = Vec::with_capacity(n);
    for i in 0..n {
        let off = u32_at(c, 32 + 4 * i)? as usize;
        let four = c.get(off..off + 4)?;
        let size = u32_at(c, off + 4)? as usize;
        let data = c.get(off + 8..(off + 8).checked_add(size)?)?;
        if four == b"DXIL" {
            // Program header: version, size in dwords, "DXIL", dxil version, bitcode offset (16), size.
            let mut d = Vec::with_capacity(24 + bc.len() + 3);
            d.extend_from_slice(data.get(..4)?);
            let mut body = bc.to_vec();
            while !body.len().is_multiple_of(4) {
                body.push(0);
            }
            d.extend_from_slice(&(((24 + body.len()) / 4) as u32).to_le_bytes());
            d.extend_from_slice(data.get(8..16)?);
            d.extend_from_slice(&16u32.to_le_bytes());
            d.extend_from_slice(&(body.len() as u32).to_le_bytes());
            d.extend_from_slice(&body);
            parts.push((four, d));
        } else {
            parts.push((four, data.to_vec()));
        }
    }
    let mut out = c.get(..32)?.to_vec();
    let mut off = 32 + 4 * n;
    for (_, d) in &parts {
        out.extend_from_slice(&(off as u32).to_le_bytes());
        off += 8 + d.len();
    }
    for (four, d) in &parts {
        out.extend_from_slice(four);
        out.extend_from_slice(&(d.len() as u32).to_le_bytes());
        out.extend_from_slice(d);
    }
    let total = out.len() as u32;
    out.get_mut(24..28)?.copy_from_slice(&total.to_le_bytes());
    Some(out)
}
