//! Typed data pieces of a spec (`u32 = [..]`, `f32 = [..]`, `hex = ".."`, `iota`, `fill`) and their
//! little-endian byte encoding. Used for initial contents and for expected outputs, with the
//! [`Tolerance`] an expected output is compared with.

use super::error::SpecError;
use toml::{Table, Value};

/// Tolerance of an element-wise comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Tolerance {
    /// Same bits (floats: or both NaN).
    Exact,
    /// |expected - got| <= eps (floats only).
    Abs(f64),
    /// At most n units in the last place apart (floats only).
    Ulp(u64),
}

/// Element type of a data piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F16,
    F32,
    F64,
}

impl Elem {
    pub const ALL: [Elem; 11] = [
        Elem::U8,
        Elem::I8,
        Elem::U16,
        Elem::I16,
        Elem::U32,
        Elem::I32,
        Elem::U64,
        Elem::I64,
        Elem::F16,
        Elem::F32,
        Elem::F64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Elem::U8 => "u8",
            Elem::I8 => "i8",
            Elem::U16 => "u16",
            Elem::I16 => "i16",
            Elem::U32 => "u32",
            Elem::I32 => "i32",
            Elem::U64 => "u64",
            Elem::I64 => "i64",
            Elem::F16 => "f16",
            Elem::F32 => "f32",
            Elem::F64 => "f64",
        }
    }

    pub fn from_name(s: &str) -> Option<Elem> {
        Elem::ALL.into_iter().find(|e| e.name() == s)
    }

    pub fn size(self) -> usize {
        match self {
            Elem::U8 | Elem::I8 => 1,
            Elem::U16 | Elem::I16 | Elem::F16 => 2,
            Elem::U32 | Elem::I32 | Elem::F32 => 4,
            Elem::U64 | Elem::I64 | Elem::F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Elem::F16 | Elem::F32 | Elem::F64)
    }

    fn int_range(self) -> (i128, i128) {
        match self {
            Elem::U8 => (0, u8::MAX as i128),
            Elem::I8 => (i8::MIN as i128, i8::MAX as i128),
            Elem::U16 => (0, u16::MAX as i128),
            Elem::I16 => (i16::MIN as i128, i16::MAX as i128),
            Elem::U32 => (0, u32::MAX as i128),
            Elem::I32 => (i32::MIN as i128, i32::MAX as i128),
            Elem::U64 => (0, u64::MAX as i128),
            Elem::I64 => (i64::MIN as i128, i64::MAX as i128),
            // Raw bit patterns of floats given as integers/hex strings.
            Elem::F16 => (0, u16::MAX as i128),
            Elem::F32 => (0, u32::MAX as i128),
            Elem::F64 => (0, u64::MAX as i128),
        }
    }
}

/// One scalar of a data piece: integers keep their exact value, floats their value or raw bits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    Int(i128),
    Float(f64),
    /// Raw bit pattern of a float element (given as a hex string or integer).
    Bits(u64),
}

/// A parsed data piece: an element type and its elements, or raw bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    pub elem: Elem,
    pub values: Vec<Scalar>,
}

impl Piece {
    pub fn byte_len(&self) -> usize {
        self.values.len() * self.elem.size()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.byte_len());
        for v in &self.values {
            encode(self.elem, *v, &mut out);
        }
        out
    }
}

/// Encodes one element little-endian. Values were range-checked when parsed.
pub fn encode(elem: Elem, v: Scalar, out: &mut Vec<u8>) {
    match elem {
        Elem::F16 => {
            let bits = match v {
                Scalar::Float(f) => f32_to_f16_bits(f as f32),
                Scalar::Bits(b) => b as u16,
                Scalar::Int(i) => i as u16,
            };
            out.extend_from_slice(&bits.to_le_bytes());
        }
        Elem::F32 => {
            let bits = match v {
                Scalar::Float(f) => (f as f32).to_bits(),
                Scalar::Bits(b) => b as u32,
                Scalar::Int(i) => i as u32,
            };
            out.extend_from_slice(&bits.to_le_bytes());
        }
        Elem::F64 => {
            let bits = match v {
                Scalar::Float(f) => f.to_bits(),
                Scalar::Bits(b) => b,
                Scalar::Int(i) => i as u64,
            };
            out.extend_from_slice(&bits.to_le_bytes());
        }
        _ => {
            let i = match v {
                Scalar::Int(i) => i,
                Scalar::Bits(b) => b as i128,
                Scalar::Float(f) => f as i128,
            };
            let bytes = (i as u64).to_le_bytes();
            out.extend_from_slice(&bytes[..elem.size()]);
        }
    }
}

/// Decodes one element from exactly `elem.size()` bytes.
pub fn decode(elem: Elem, b: &[u8]) -> Scalar {
    let mut w = [0u8; 8];
    let n = b.len().min(8);
    w[..n].copy_from_slice(&b[..n]);
    let raw = u64::from_le_bytes(w);
    match elem {
        Elem::U8 | Elem::U16 | Elem::U32 | Elem::U64 => Scalar::Int(raw as i128),
        Elem::I8 => Scalar::Int(raw as u8 as i8 as i128),
        Elem::I16 => Scalar::Int(raw as u16 as i16 as i128),
        Elem::I32 => Scalar::Int(raw as u32 as i32 as i128),
        Elem::I64 => Scalar::Int(raw as i64 as i128),
        Elem::F16 => Scalar::Float(f16_bits_to_f32(raw as u16) as f64),
        Elem::F32 => Scalar::Float(f32::from_bits(raw as u32) as f64),
        Elem::F64 => Scalar::Float(f64::from_bits(raw)),
    }
}

/// Text of an element for reports: integers in decimal with hex, floats with their bits.
pub fn show(elem: Elem, b: &[u8]) -> String {
    let mut w = [0u8; 8];
    let n = b.len().min(8);
    w[..n].copy_from_slice(&b[..n]);
    let raw = u64::from_le_bytes(w);
    let digits = elem.size() * 2;
    match decode(elem, b) {
        Scalar::Int(i) => format!("{i} (0x{raw:0digits$X})"),
        Scalar::Float(f) => format!("{f:?} (0x{raw:0digits$X})"),
        Scalar::Bits(_) => format!("0x{raw:0digits$X}"),
    }
}

/// IEEE half → single, exact.
pub fn f16_bits_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1F) as u32;
    let man = (h & 0x3FF) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: value = m * 2^-24.
            let v = m as f32 * f32::from_bits(0x3380_0000); // 2^-24
            return if sign != 0 { -v } else { v };
        }
        (0x1F, 0) => sign | 0x7F80_0000,
        (0x1F, m) => sign | 0x7F80_0000 | (m << 13) | 0x0040_0000,
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// IEEE single → half, round to nearest even (overflow → inf, NaN stays NaN).
pub fn f32_to_f16_bits(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xFF) as i32;
    let man = x & 0x7F_FFFF;
    if exp == 0xFF {
        return sign | 0x7C00 | if man != 0 { 0x200 | (man >> 13) as u16 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1F {
        return sign | 0x7C00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1u32 << shift) - 1);
        let mut r = m >> shift;
        if rest > half || (rest == half && (r & 1) != 0) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (man >> 13);
    let rest = man & 0x1FFF;
    if rest > 0x1000 || (rest == 0x1000 && (r & 1) != 0) {
        r += 1; // may carry into the exponent, up to inf: correct
    }
    sign | r as u16
}

/// The data keys a piece table may hold (exactly one of them).
pub const PIECE_KEYS: [&str; 14] =
    ["u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f16", "f32", "f64", "hex", "iota", "fill"];

/// Parses one piece table: `{ u32 = [..] }`, `{ hex = "..." }`, `{ iota = {..} }`, `{ fill = {..} }`.
/// Keys other than the data key must be in `allowed_extra` (they belong to the caller).
pub fn parse_piece(t: &Table, ctx: &str, allowed_extra: &[&str]) -> Result<Piece, SpecError> {
    let mut found = None;
    for (k, v) in t {
        if PIECE_KEYS.contains(&k.as_str()) {
            if found.is_some() {
                return Err(SpecError::new(ctx, "more than one data key (use an array of tables to concatenate)"));
            }
            found = Some((k.as_str(), v));
        } else if !allowed_extra.contains(&k.as_str()) {
            return Err(SpecError::new(ctx, format!("unknown key `{k}`")));
        }
    }
    let Some((key, v)) = found else {
        return Err(SpecError::new(ctx, format!("no data key (one of {})", PIECE_KEYS.join(", "))));
    };
    let ctx = format!("{ctx}.{key}");
    match key {
        "hex" => {
            let s = v.as_str().ok_or_else(|| SpecError::new(&ctx, "must be a string of hex bytes"))?;
            Ok(Piece {
                elem: Elem::U8,
                values: parse_hex(s, &ctx)?.into_iter().map(|b| Scalar::Int(b as i128)).collect(),
            })
        }
        "iota" | "fill" => {
            let g = v.as_table().ok_or_else(|| SpecError::new(&ctx, "must be a table"))?;
            parse_generator(key, g, &ctx)
        }
        _ => {
            let elem = Elem::from_name(key).ok_or_else(|| SpecError::new(&ctx, "unknown element type"))?;
            let arr = v.as_array().ok_or_else(|| SpecError::new(&ctx, "must be an array"))?;
            let values = arr
                .iter()
                .enumerate()
                .map(|(i, v)| parse_scalar(elem, v, &format!("{ctx}[{i}]")))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Piece { elem, values })
        }
    }
}

/// Parses a data value: one piece table, or an array of piece tables concatenated.
pub fn parse_data(v: &Value, ctx: &str) -> Result<Vec<u8>, SpecError> {
    match v {
        Value::Table(t) => Ok(parse_piece(t, ctx, &[])?.to_bytes()),
        Value::Array(a) => {
            let mut out = Vec::new();
            for (i, p) in a.iter().enumerate() {
                let t = p.as_table().ok_or_else(|| SpecError::new(ctx, "array items must be data tables"))?;
                out.extend(parse_piece(t, &format!("{ctx}[{i}]"), &[])?.to_bytes());
            }
            Ok(out)
        }
        _ => Err(SpecError::new(ctx, "must be a data table or an array of data tables")),
    }
}

fn parse_hex(s: &str, ctx: &str) -> Result<Vec<u8>, SpecError> {
    let digits: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'_').collect();
    if digits.len() & 1 != 0 {
        return Err(SpecError::new(ctx, "odd number of hex digits"));
    }
    digits
        .chunks(2)
        .map(|p| {
            let t = std::str::from_utf8(p).unwrap_or("");
            u8::from_str_radix(t, 16).map_err(|_| SpecError::new(ctx, format!("bad hex byte `{t}`")))
        })
        .collect()
}

fn parse_int_text(s: &str) -> Option<i128> {
    let t = s.trim().replace('_', "");
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b.to_string()),
        None => (false, t.clone()),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if let Some(b) = body.strip_prefix("0b") {
        i128::from_str_radix(b, 2).ok()?
    } else {
        body.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// One scalar for an element type. Integers: TOML integers or strings (`"0xFFFFFFFFFFFFFFFF"`).
/// Floats: TOML floats (incl. `nan`, `inf`) or integers (value), or strings (raw bits in hex).
pub fn parse_scalar(elem: Elem, v: &Value, ctx: &str) -> Result<Scalar, SpecError> {
    if elem.is_float() {
        return match v {
            Value::Float(f) => Ok(Scalar::Float(*f)),
            Value::Integer(i) => Ok(Scalar::Float(*i as f64)),
            Value::String(s) => {
                let bits = parse_int_text(s).ok_or_else(|| SpecError::new(ctx, format!("bad bit pattern `{s}`")))?;
                let (lo, hi) = elem.int_range();
                if bits < lo || bits > hi {
                    return Err(SpecError::new(ctx, format!("bit pattern `{s}` does not fit {}", elem.name())));
                }
                Ok(Scalar::Bits(bits as u64))
            }
            _ => Err(SpecError::new(ctx, "expected a number")),
        };
    }
    let i = match v {
        Value::Integer(i) => *i as i128,
        Value::String(s) => parse_int_text(s).ok_or_else(|| SpecError::new(ctx, format!("bad integer `{s}`")))?,
        _ => return Err(SpecError::new(ctx, "expected an integer")),
    };
    let (lo, hi) = elem.int_range();
    if i < lo || i > hi {
        return Err(SpecError::new(ctx, format!("{i} does not fit {}", elem.name())));
    }
    Ok(Scalar::Int(i))
}

fn parse_generator(key: &str, g: &Table, ctx: &str) -> Result<Piece, SpecError> {
    let allowed: &[&str] =
        if key == "iota" { &["type", "start", "step", "count"] } else { &["type", "value", "count"] };
    if let Some(k) = g.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(SpecError::new(ctx, format!("unknown key `{k}`")));
    }
    let ty = g.get("type").and_then(Value::as_str).unwrap_or("u32");
    let elem = Elem::from_name(ty).ok_or_else(|| SpecError::new(ctx, format!("unknown type `{ty}`")))?;
    let count = g
        .get("count")
        .and_then(Value::as_integer)
        .filter(|c| (0..=(1 << 24)).contains(c))
        .ok_or_else(|| SpecError::new(ctx, "needs `count` (0..2^24)"))? as usize;
    let num = |k: &str, d: Scalar| -> Result<Scalar, SpecError> {
        match g.get(k) {
            Some(v) => parse_scalar(elem, v, &format!("{ctx}.{k}")),
            None => Ok(d),
        }
    };
    let zero = if elem.is_float() { Scalar::Float(0.0) } else { Scalar::Int(0) };
    if key == "fill" {
        let v = g.get("value").ok_or_else(|| SpecError::new(ctx, "needs `value`"))?;
        let v = parse_scalar(elem, v, &format!("{ctx}.value"))?;
        return Ok(Piece { elem, values: vec![v; count] });
    }
    let one = if elem.is_float() { Scalar::Float(1.0) } else { Scalar::Int(1) };
    let start = num("start", zero)?;
    let step = num("step", one)?;
    let mut values = Vec::with_capacity(count);
    for k in 0..count {
        let v = match (start, step) {
            (Scalar::Int(s), Scalar::Int(d)) => {
                let (lo, hi) = elem.int_range();
                let x = s + d * k as i128;
                if x < lo || x > hi {
                    return Err(SpecError::new(ctx, format!("element {k} = {x} does not fit {}", elem.name())));
                }
                Scalar::Int(x)
            }
            (Scalar::Float(s), Scalar::Float(d)) => Scalar::Float(s + d * k as f64),
            _ => return Err(SpecError::new(ctx, "iota over raw float bit patterns is not supported")),
        };
        values.push(v);
    }
    Ok(Piece { elem, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(s: &str) -> Table {
        s.parse::<Table>().unwrap()
    }

    #[test]
    fn typed_lists_encode_little_endian() {
        let p = parse_piece(&table("u32 = [1, 0xFFFFFFFF]"), "t", &[]).unwrap();
        assert_eq!(p.to_bytes(), vec![1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]);
        let p = parse_piece(&table("i16 = [-2]"), "t", &[]).unwrap();
        assert_eq!(p.to_bytes(), vec![0xFE, 0xFF]);
        let p = parse_piece(&table("u64 = [\"0xFFFFFFFFFFFFFFFF\"]"), "t", &[]).unwrap();
        assert_eq!(p.to_bytes(), vec![0xFF; 8]);
        let p = parse_piece(&table("f32 = [1.5, -inf, \"0x7FC00001\"]"), "t", &[]).unwrap();
        assert_eq!(
            p.to_bytes(),
            [1.5f32.to_bits(), f32::NEG_INFINITY.to_bits(), 0x7FC0_0001]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<_>>()
        );
        let p = parse_piece(&table("f64 = [1.5]"), "t", &[]).unwrap();
        assert_eq!(p.to_bytes(), 1.5f64.to_bits().to_le_bytes().to_vec());
        let p = parse_piece(&table("hex = \"de ad_BE EF\""), "t", &[]).unwrap();
        assert_eq!(p.to_bytes(), vec![0xDE, 0xAD, 0xBE, 0xEF]);
    }

    #[test]
    fn out_of_range_and_bad_keys_are_errors() {
        assert!(parse_piece(&table("u32 = [-1]"), "t", &[]).is_err());
        assert!(parse_piece(&table("u8 = [256]"), "t", &[]).is_err());
        assert!(parse_piece(&table("i32 = [2147483648]"), "t", &[]).is_err());
        assert!(parse_piece(&table("u32 = [1]\nf32 = [1.0]"), "t", &[]).is_err());
        assert!(parse_piece(&table("x32 = [1]"), "t", &[]).is_err());
        assert!(parse_piece(&table("hex = \"abc\""), "t", &[]).is_err());
        assert!(parse_piece(&table("at = 4"), "t", &["at"]).is_err()); // no data key
        assert!(parse_piece(&table("at = 4\nu32 = [1]"), "t", &["at"]).is_ok());
    }

    #[test]
    fn generators() {
        let p = parse_piece(&table("iota = { start = 0x100, count = 3 }"), "t", &[]).unwrap();
        assert_eq!(p.values, vec![Scalar::Int(0x100), Scalar::Int(0x101), Scalar::Int(0x102)]);
        let p = parse_piece(&table("iota = { type = \"i32\", start = 5, step = -5, count = 3 }"), "t", &[]).unwrap();
        assert_eq!(p.to_bytes()[8..12], (-5i32).to_le_bytes());
        let p = parse_piece(&table("fill = { type = \"f32\", value = 2.0, count = 2 }"), "t", &[]).unwrap();
        assert_eq!(
            p.to_bytes(),
            [2.0f32.to_bits(), 2.0f32.to_bits()].iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<_>>()
        );
        assert!(parse_piece(&table("iota = { type = \"u8\", start = 250, count = 10 }"), "t", &[]).is_err());
        assert!(parse_piece(&table("fill = { count = 2 }"), "t", &[]).is_err());
    }

    #[test]
    fn concatenated_data() {
        let v: Value = table("d = [{ u32 = [1] }, { u16 = [2, 3] }]").remove("d").unwrap();
        assert_eq!(parse_data(&v, "d").unwrap(), vec![1, 0, 0, 0, 2, 0, 3, 0]);
    }

    #[test]
    fn half_conversions() {
        for (f, h) in [
            (1.0f32, 0x3C00u16),
            (-2.0, 0xC000),
            (65504.0, 0x7BFF),
            (0.5, 0x3800),
            (f32::from_bits(0x3EAA_A000), 0x3555),
        ] {
            assert_eq!(f32_to_f16_bits(f), h, "{f}");
            assert_eq!(f16_bits_to_f32(h), f);
        }
        assert_eq!(f32_to_f16_bits(0.1), 0x2E66);
        assert_eq!(f32_to_f16_bits(65520.0), 0x7C00); // rounds up to inf
        assert_eq!(f32_to_f16_bits(f32::NAN) & 0x7C00, 0x7C00);
        assert_eq!(f16_bits_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f32_to_f16_bits(2f32.powi(-24)), 0x0001);
        assert_eq!(f32_to_f16_bits(2f32.powi(-25)), 0x0000); // tie to even
        assert!(f16_bits_to_f32(0x7E00).is_nan());
    }
}
