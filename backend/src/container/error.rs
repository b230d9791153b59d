//! Errors of the DXBC container parser. Every variant says what was being
//! read and where (part, byte offset, field), so a corrupt blob can be
//! diagnosed from the message alone.

use std::fmt;

/// A four-character part code, printed as text when it is printable ASCII
/// and as hex bytes otherwise.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FourCc(pub [u8; 4]);

impl FourCc {
    /// The code as a string when all four bytes are printable ASCII.
    pub fn as_str(&self) -> Option<&str> {
        if self.0.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
            std::str::from_utf8(&self.0).ok()
        } else {
            None
        }
    }
}

impl fmt::Display for FourCc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            Some(s) => f.write_str(s),
            None => {
                write!(f, "0x{:02x}{:02x}{:02x}{:02x}", self.0[0], self.0[1], self.0[2], self.0[3])
            }
        }
    }
}

impl fmt::Debug for FourCc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FourCc({self})")
    }
}

/// Something wrong with a DXBC container or one of its parts.
///
/// Offsets are byte offsets: `offset` in [`ContainerError::Truncated`] and
/// similar variants is counted from the start of the region named by
/// `what` (the file for the container header, the part payload for part
/// contents), as stated in each message.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum ContainerError {
    /// Fewer bytes were left than a field or table needs.
    #[error("{what}: truncated at byte {offset}: need {need} bytes, have {have}")]
    Truncated { what: &'static str, offset: usize, need: usize, have: usize },

    /// The file does not start with `DXBC`.
    #[error("container: bad magic {found:02x?} at byte 0, expected \"DXBC\"")]
    BadMagic { found: [u8; 4] },

    /// The header's total size disagrees with the number of bytes given.
    #[error("container: header total size {declared} does not match the {actual} bytes given")]
    SizeMismatch { declared: u32, actual: usize },

    /// An unsupported container version.
    #[error("container: unsupported version {major}.{minor} (only 1.x is known)")]
    UnsupportedVersion { major: u16, minor: u16 },

    /// A part's header or payload lies (partly) outside the file.
    #[error("part #{index} ({fourcc}): header at byte {offset} with payload size {size} lies outside the {file_size}-byte file")]
    PartOutOfBounds { index: usize, fourcc: FourCc, offset: usize, size: u32, file_size: usize },

    /// A required part is absent.
    #[error("container: missing part {0}")]
    MissingPart(FourCc),

    /// A part (or a header inside it) does not start with the magic expected.
    #[error("part {part}: bad magic {found} at payload byte {offset}, expected {expected}")]
    BadPartMagic { part: FourCc, offset: usize, expected: FourCc, found: FourCc },

    /// The LLVM bitcode inside a program part is malformed or out of place.
    #[error("part {part}: bad bitcode at payload byte {offset} (size {size}): {reason}")]
    BadBitcodeHeader { part: FourCc, offset: usize, size: usize, reason: &'static str },

    /// A field holds a value the format does not allow.
    #[error("part {part}: field {field} at payload byte {offset} has invalid value {value}")]
    InvalidValue { part: FourCc, field: &'static str, offset: usize, value: u64 },

    /// A string referenced by offset is out of range, unterminated or not UTF-8.
    #[error("part {part}: string for {field} at payload byte {offset}: {reason}")]
    BadString { part: FourCc, field: &'static str, offset: usize, reason: &'static str },

    /// A valid but unsupported layout or version.
    #[error("part {part}: unsupported {what}: {detail}")]
    Unsupported { part: FourCc, what: &'static str, detail: String },
}

/// Shorthand used by the part decoders.
pub type Result<T> = std::result::Result<T, ContainerError>;
