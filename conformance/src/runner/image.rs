//! Images for reports: a render target converted to 8-bit RGBA, the picture its probes expect, the
//! difference, and a small PNG writer (stored deflate blocks: no compression library needed) with
//! base64 for `data:` URIs in the HTML report.

use super::backend::Format;

/// An 8-bit RGBA image, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rgba8 {
    pub width: u32,
    pub height: u32,
    pub data: Vec<u8>,
}

/// Expected / actual / difference pictures of one colour target (a failing drawn spec).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageSet {
    /// `target 0`.
    pub label: String,
    pub expected: Rgba8,
    pub actual: Rgba8,
    pub diff: Rgba8,
}

/// Texels no probe covers, in the expected picture: a grey checkerboard ("not checked").
pub fn unchecked(x: u32, y: u32) -> [u8; 4] {
    if (x / 2 + y / 2).is_multiple_of(2) {
        [96, 96, 96, 255]
    } else {
        [128, 128, 128, 255]
    }
}

/// Channels, and how one channel of `f` is read: ('f' float32 | 'h' float16 | 'u' unsigned |
/// 's' signed | 'n' unorm8 | 'm' snorm8, bytes per channel).
fn layout(f: Format) -> (usize, char, usize) {
    match f {
        Format::R32Uint => (1, 'u', 4),
        Format::R32Sint => (1, 's', 4),
        Format::R32Float => (1, 'f', 4),
        Format::R32G32Uint => (2, 'u', 4),
        Format::R32G32Float => (2, 'f', 4),
        Format::R32G32B32A32Uint => (4, 'u', 4),
        Format::R32G32B32A32Sint => (4, 's', 4),
        Format::R32G32B32A32Float => (4, 'f', 4),
        Format::R16Float => (1, 'h', 2),
        Format::R16Uint => (1, 'u', 2),
        Format::R16G16B16A16Float => (4, 'h', 2),
        Format::R8Unorm => (1, 'n', 1),
        Format::R8Uint => (1, 'u', 1),
        Format::R8G8B8A8Unorm | Format::B8G8R8A8Unorm => (4, 'n', 1),
        Format::R8G8B8A8Uint => (4, 'u', 1),
        Format::R8G8B8A8Snorm => (4, 'm', 1),
    }
}

fn half_to_f32(h: u16) -> f32 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f32::from(h & 0x3ff);
    match e {
        0 => s * m * 2f32.powi(-24),
        31 => s * f32::INFINITY,
        _ => s * (1.0 + m / 1024.0) * 2f32.powi(e - 15),
    }
}

/// One texel (`bytes` of format `f`) as 8-bit RGBA for display: floats and normalized values
/// clamped to [0, 1], integers clamped to [0, 255]; missing channels 0, missing alpha opaque.
pub fn texel_rgba8(f: Format, bytes: &[u8]) -> [u8; 4] {
    let (n, class, size) = layout(f);
    let mut out = [0, 0, 0, 255];
    for (c, slot) in out.iter_mut().enumerate().take(n.min(4)) {
        let Some(b) = bytes.get(c * size..(c + 1) * size) else { break };
        let unit = |v: f32| if v.is_nan() { 0 } else { (v.clamp(0.0, 1.0) * 255.0).round() as u8 };
        *slot = match (class, size) {
            ('f', 4) => unit(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            ('h', 2) => unit(half_to_f32(u16::from_le_bytes([b[0], b[1]]))),
            ('n', 1) => b[0],
            ('m', 1) => unit(f32::from(b[0] as i8) / 127.0),
            ('u', _) => b.iter().rev().fold(0u64, |a, &x| a << 8 | u64::from(x)).min(255) as u8,
            ('s', 4) => i32::from_le_bytes([b[0], b[1], b[2], b[3]]).clamp(0, 255) as u8,
            _ => 0,
        };
    }
    if f == Format::B8G8R8A8Unorm {
        out.swap(0, 2);
    }
    out
}

/// The actual picture of one layer of a colour target read back as `img` (`w` x `h` texels).
pub fn actual(f: Format, img: &[u8], w: u32, h: u32, layer: u32) -> Rgba8 {
    let texel = layout(f).0 * layout(f).2;
    let mut data = Vec::with_capacity(w as usize * h as usize * 4);
    for y in 0..h {
        for x in 0..w {
            let o = ((layer as usize * h as usize + y as usize) * w as usize + x as usize) * texel;
            data.extend_from_slice(&img.get(o..o + texel).map_or([255, 0, 255, 255], |b| texel_rgba8(f, b)));
        }
    }
    Rgba8 { width: w, height: h, data }
}

/// Red where `bad(x, y)`, a dimmed copy of `actual` elsewhere.
pub fn diff(actual: &Rgba8, bad: impl Fn(u32, u32) -> bool) -> Rgba8 {
    let mut data = Vec::with_capacity(actual.data.len());
    for y in 0..actual.height {
        for x in 0..actual.width {
            if bad(x, y) {
                data.extend_from_slice(&[255, 0, 0, 255]);
            } else {
                let o = ((y * actual.width + x) * 4) as usize;
                let px = actual.data.get(o..o + 3).unwrap_or(&[0, 0, 0]);
                data.extend(px.iter().map(|&c| c / 4));
                data.push(255);
            }
        }
    }
    Rgba8 { width: actual.width, height: actual.height, data }
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in bytes {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    b << 16 | a
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

impl Rgba8 {
    /// Each texel scaled up `scale` times (small targets stay visible in a browser).
    pub fn scaled(&self, scale: u32) -> Rgba8 {
        let (w, h) = (self.width * scale, self.height * scale);
        let mut data = Vec::with_capacity(w as usize * h as usize * 4);
        for y in 0..h {
            for x in 0..w {
                let o = (((y / scale) * self.width + x / scale) * 4) as usize;
                data.extend_from_slice(self.data.get(o..o + 4).unwrap_or(&[0, 0, 0, 255]));
            }
        }
        Rgba8 { width: w, height: h, data }
    }

    /// The same picture with every alpha 255 (for display: a cleared (0, 0, 0, 0) target shows black).
    pub fn opaque(mut self) -> Rgba8 {
        for px in self.data.chunks_mut(4) {
            if let Some(a) = px.get_mut(3) {
                *a = 255;
            }
        }
        self
    }

    /// A PNG file (8-bit RGBA, no filtering, stored deflate blocks).
    pub fn to_png(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(self.data.len() + self.height as usize);
        let row = self.width as usize * 4;
        for y in 0..self.height as usize {
            raw.push(0); // filter: none
            raw.extend_from_slice(self.data.get(y * row..(y + 1) * row).unwrap_or(&[]));
        }
        let mut z = vec![0x78, 0x01];
        let mut blocks = raw.chunks(65535).peekable();
        if blocks.peek().is_none() {
            z.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
        }
        while let Some(b) = blocks.next() {
            z.push(u8::from(blocks.peek().is_none()));
            let len = b.len() as u16;
            z.extend_from_slice(&len.to_le_bytes());
            z.extend_from_slice(&(!len).to_le_bytes());
            z.extend_from_slice(b);
        }
        z.extend_from_slice(&adler32(&raw).to_be_bytes());
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&self.width.to_be_bytes());
        ihdr.extend_from_slice(&self.height.to_be_bytes());
        ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
        chunk(&mut out, b"IHDR", &ihdr);
        chunk(&mut out, b"IDAT", &z);
        chunk(&mut out, b"IEND", &[]);
        out
    }
}

/// Reads a PNG as 8-bit RGBA (8-bit RGB, RGBA, grey and grey+alpha; no 16-bit or palette).
pub fn read_png(path: &std::path::Path) -> Result<Rgba8, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().map_err(|e| e.to_string())?;
    let (w, h) = (reader.info().width, reader.info().height);
    if w > 4096 || h > 4096 {
        return Err(format!("{w}x{h}: reference images are at most 4096x4096 (the largest target)"));
    }
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    if info.bit_depth != png::BitDepth::Eight {
        return Err(format!("{:?}-bit channels: reference images are 8-bit", info.bit_depth));
    }
    let px: &[u8] = buf.get(..info.buffer_size()).ok_or("short frame")?;
    let data: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => px.to_vec(),
        png::ColorType::Rgb => px.chunks(3).flat_map(|c| [c[0], c[1], c[2], 255]).collect(),
        png::ColorType::Grayscale => px.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::GrayscaleAlpha => px.chunks(2).flat_map(|c| [c[0], c[0], c[0], c[1]]).collect(),
        png::ColorType::Indexed => return Err("palette images are not supported".into()),
    };
    Ok(Rgba8 { width: info.width, height: info.height, data })
}

/// The first texel of an image comparison that differs, and how many do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mismatch {
    pub x: u32,
    pub y: u32,
    pub want: [u8; 4],
    pub got: [u8; 4],
    pub count: usize,
}

/// Texels of `got` farther than `tolerance` from `want` in some channel.
pub fn compare(want: &Rgba8, got: &Rgba8, tolerance: u8) -> Option<Mismatch> {
    let mut first = None;
    let mut count = 0;
    for (i, (w, g)) in want.data.chunks(4).zip(got.data.chunks(4)).enumerate() {
        if w.iter().zip(g).any(|(a, b)| a.abs_diff(*b) > tolerance) {
            count += 1;
            if first.is_none() {
                let x = i as u32 % want.width.max(1);
                let y = i as u32 / want.width.max(1);
                let arr = |s: &[u8]| [s[0], s[1], s[2], s[3]];
                first = Some((x, y, arr(w), arr(g)));
            }
        }
    }
    first.map(|(x, y, want, got)| Mismatch { x, y, want, got, count })
}

/// Standard base64 (with padding).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n =
            (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_structure_and_checksums() {
        let img = Rgba8 { width: 2, height: 1, data: vec![255, 0, 0, 255, 0, 255, 0, 255] };
        let png = img.to_png();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: length 13, 2x1, 8-bit RGBA; its CRC is that of "IHDR" + data.
        assert_eq!(&png[8..16], b"\0\0\0\x0dIHDR");
        assert_eq!(&png[16..24], &[0, 0, 0, 2, 0, 0, 0, 1]);
        assert_eq!(u32::from_be_bytes([png[29], png[30], png[31], png[32]]), crc32(&png[12..29]));
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
        assert!(png.ends_with(&[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82]));
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
    }

    #[test]
    fn base64_matches_rfc4648() {
        for (i, o) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE=")]
        {
            assert_eq!(base64(i.as_bytes()), o);
        }
    }

    #[test]
    fn texels_convert_for_display() {
        let f = |v: [f32; 4]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        assert_eq!(texel_rgba8(Format::R32G32B32A32Float, &f([1.0, 0.5, -1.0, 2.0])), [255, 128, 0, 255]);
        assert_eq!(texel_rgba8(Format::R32Uint, &300u32.to_le_bytes()), [255, 0, 0, 255]);
        assert_eq!(texel_rgba8(Format::B8G8R8A8Unorm, &[1, 2, 3, 4]), [3, 2, 1, 4]);
        assert_eq!(texel_rgba8(Format::R16Float, &0x3c00u16.to_le_bytes()), [255, 0, 0, 255]);
    }
}
