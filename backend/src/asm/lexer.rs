//! Tokens of the module text. Comments (`; …` to the end of the line and
//! `/* … */`) are skipped; strings and quoted names decode `\XX` escapes.

use super::error::{AsmError, Result};

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// `%name`, `%"quoted"`, `%17`: the name and whether it was quoted.
    Local(String, bool),
    /// `@name`, `@"quoted"`.
    Global(String),
    /// `!name` (named metadata, attachment kinds).
    MdName(String),
    /// `!17`.
    MdId(u64),
    /// `!"string"`.
    MdString(Vec<u8>),
    /// `!{`.
    MdOpen,
    /// `#17`.
    AttrRef(u64),
    /// `name:` or `"quoted":` (a block label).
    Label(String, bool),
    /// A decimal integer, sign included.
    Int(String),
    /// A decimal number with a point or an exponent.
    Float(String),
    /// `0x…` (double bits) or `0xH…` (half bits): the text after `0x`.
    Hex(String),
    /// `"…"`.
    Str(Vec<u8>),
    /// `c"…"`.
    CStr(Vec<u8>),
    /// A keyword or other bare word (`define`, `i32`, `x`, `nounwind`).
    Word(String),
    /// One of `= , ( ) [ ] { } < > * :`.
    Punct(char),
    /// `...`.
    Ellipsis,
    Eof,
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Local(n, _) => format!("`%{n}`"),
            Tok::Global(n) => format!("`@{n}`"),
            Tok::MdName(n) => format!("`!{n}`"),
            Tok::MdId(n) => format!("`!{n}`"),
            Tok::MdString(_) => "a metadata string".into(),
            Tok::MdOpen => "`!{`".into(),
            Tok::AttrRef(n) => format!("`#{n}`"),
            Tok::Label(n, _) => format!("label `{n}:`"),
            Tok::Int(t) | Tok::Float(t) => format!("`{t}`"),
            Tok::Hex(t) => format!("`0x{t}`"),
            Tok::Str(_) => "a string".into(),
            Tok::CStr(_) => "a c\"…\" string".into(),
            Tok::Word(w) => format!("`{w}`"),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::Ellipsis => "`...`".into(),
            Tok::Eof => "the end of the text".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_')
}

struct Lexer<'a> {
    b: &'a [u8],
    i: usize,
    line: u32,
    line_start: usize,
}

impl<'a> Lexer<'a> {
    fn col(&self, at: usize) -> u32 {
        // Columns count characters, not bytes.
        let start = self.line_start.min(at);
        std::str::from_utf8(&self.b[start..at]).map_or(at - start, |s| s.chars().count()) as u32 + 1
    }

    fn err(&self, at: usize, msg: impl Into<String>) -> AsmError {
        AsmError::new(self.line, self.col(at), "token", msg)
    }

    fn peek(&self, k: usize) -> u8 {
        self.b.get(self.i + k).copied().unwrap_or(0)
    }

    /// Skips blanks and comments.
    fn skip(&mut self) -> Result<()> {
        loop {
            match self.peek(0) {
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                b' ' | b'\t' | b'\r' => self.i += 1,
                b';' => {
                    while self.i < self.b.len() && self.b[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                b'/' if self.peek(1) == b'*' => {
                    let start = self.i;
                    let (line, col) = (self.line, self.col(start));
                    self.i += 2;
                    loop {
                        if self.i >= self.b.len() {
                            return Err(AsmError::new(line, col, "token", "unterminated /* comment"));
                        }
                        if self.b[self.i] == b'*' && self.peek(1) == b'/' {
                            self.i += 2;
                            break;
                        }
                        if self.b[self.i] == b'\n' {
                            self.line += 1;
                            self.line_start = self.i + 1;
                        }
                        self.i += 1;
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// A `"…"` string at the cursor (which is on the opening quote).
    fn string(&mut self) -> Result<Vec<u8>> {
        let start = self.i;
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.b.get(self.i) else { return Err(self.err(start, "unterminated string")) };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(out);
                }
                b'\n' => return Err(self.err(start, "string runs past the end of the line")),
                b'\\' => {
                    if self.peek(1) == b'\\' {
                        out.push(b'\\');
                        self.i += 2;
                        continue;
                    }
                    let hex = |c: u8| (c as char).to_digit(16);
                    match (hex(self.peek(1)), hex(self.peek(2))) {
                        (Some(h), Some(l)) => {
                            out.push((h * 16 + l) as u8);
                            self.i += 3;
                        }
                        _ => {
                            return Err(
                                self.err(self.i, "a `\\` in a string must start `\\XX` (two hex digits) or `\\\\`")
                            )
                        }
                    }
                }
                _ => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// A bare name (`[-a-zA-Z$._0-9]*` with `\XX` escapes) at the cursor.
    fn bare_name(&mut self, escapes: bool) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        loop {
            let c = self.peek(0);
            if is_name_char(c) {
                out.push(c);
                self.i += 1;
            } else if escapes && c == b'\\' {
                let hex = |c: u8| (c as char).to_digit(16);
                match (hex(self.peek(1)), hex(self.peek(2))) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        self.i += 3;
                    }
                    _ => return Err(self.err(self.i, "a `\\` in a name must start `\\XX` (two hex digits)")),
                }
            } else {
                return Ok(out);
            }
        }
    }

    fn utf8(&self, at: usize, bytes: Vec<u8>) -> Result<String> {
        String::from_utf8(bytes).map_err(|_| self.err(at, "name is not UTF-8"))
    }

    fn number(&mut self) -> Tok {
        let start = self.i;
        if self.peek(0) == b'-' {
            self.i += 1;
        }
        if self.peek(0) == b'0' && self.peek(1) == b'x' {
            self.i += 2;
            let s = self.i;
            while self.peek(0).is_ascii_alphanumeric() {
                self.i += 1;
            }
            return Tok::Hex(String::from_utf8_lossy(&self.b[s..self.i]).into_owned());
        }
        while self.peek(0).is_ascii_digit() {
            self.i += 1;
        }
        let mut float = false;
        if self.peek(0) == b'.' && self.peek(1) != b'.' {
            float = true;
            self.i += 1;
            while self.peek(0).is_ascii_digit() {
                self.i += 1;
            }
        }
        if matches!(self.peek(0), b'e' | b'E')
            && (self.peek(1).is_ascii_digit() || (matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit()))
        {
            float = true;
            self.i += 2;
            while self.peek(0).is_ascii_digit() {
                self.i += 1;
            }
        }
        let text = String::from_utf8_lossy(&self.b[start..self.i]).into_owned();
        if float {
            Tok::Float(text)
        } else {
            Tok::Int(text)
        }
    }

    fn next(&mut self) -> Result<Token> {
        self.skip()?;
        let at = self.i;
        let (line, col) = (self.line, self.col(at));
        let c = self.peek(0);
        let tok = if self.i >= self.b.len() {
            Tok::Eof
        } else {
            match c {
                b'%' | b'@' => {
                    self.i += 1;
                    let (name, quoted) =
                        if self.peek(0) == b'"' { (self.string()?, true) } else { (self.bare_name(false)?, false) };
                    if name.is_empty() && !quoted {
                        return Err(self.err(at, format!("`{}` without a name", c as char)));
                    }
                    let name = self.utf8(at, name)?;
                    if c == b'%' {
                        if !quoted && self.peek(0) == b':' {
                            return Err(self.err(at, "a label is written `name:`, without `%`"));
                        }
                        Tok::Local(name, quoted)
                    } else {
                        Tok::Global(name)
                    }
                }
                b'!' => {
                    self.i += 1;
                    match self.peek(0) {
                        b'{' => {
                            self.i += 1;
                            Tok::MdOpen
                        }
                        b'"' => Tok::MdString(self.string()?),
                        d if d.is_ascii_digit() => {
                            let s = self.i;
                            while self.peek(0).is_ascii_digit() {
                                self.i += 1;
                            }
                            let text = String::from_utf8_lossy(&self.b[s..self.i]).into_owned();
                            Tok::MdId(text.parse().map_err(|_| self.err(at, "metadata id too large"))?)
                        }
                        _ => {
                            let name = self.bare_name(true)?;
                            if name.is_empty() {
                                return Err(self.err(at, "`!` without a name, id, string or `{`"));
                            }
                            Tok::MdName(self.utf8(at, name)?)
                        }
                    }
                }
                b'#' => {
                    self.i += 1;
                    let s = self.i;
                    while self.peek(0).is_ascii_digit() {
                        self.i += 1;
                    }
                    if s == self.i {
                        return Err(self.err(at, "`#` without an attribute group number"));
                    }
                    let text = String::from_utf8_lossy(&self.b[s..self.i]).into_owned();
                    Tok::AttrRef(text.parse().map_err(|_| self.err(at, "attribute group number too large"))?)
                }
                b'"' => {
                    let s = self.string()?;
                    if self.peek(0) == b':' {
                        self.i += 1;
                        Tok::Label(self.utf8(at, s)?, true)
                    } else {
                        Tok::Str(s)
                    }
                }
                b'c' if self.peek(1) == b'"' => {
                    self.i += 1;
                    Tok::CStr(self.string()?)
                }
                b'.' if self.peek(1) == b'.' && self.peek(2) == b'.' => {
                    self.i += 3;
                    Tok::Ellipsis
                }
                b'-' if self.peek(1).is_ascii_digit() => self.number(),
                d if d.is_ascii_digit() => {
                    // A numeric label (`3:`) or a number.
                    let s = self.i;
                    let mut k = s;
                    while self.b.get(k).is_some_and(|c| c.is_ascii_digit()) {
                        k += 1;
                    }
                    if self.b.get(k) == Some(&b':') {
                        self.i = k + 1;
                        Tok::Label(String::from_utf8_lossy(&self.b[s..k]).into_owned(), false)
                    } else {
                        self.number()
                    }
                }
                c if c.is_ascii_alphabetic() || matches!(c, b'$' | b'.' | b'_' | b'-') => {
                    let name = self.bare_name(false)?;
                    let name = self.utf8(at, name)?;
                    if self.peek(0) == b':' {
                        self.i += 1;
                        Tok::Label(name, false)
                    } else {
                        Tok::Word(name)
                    }
                }
                b'=' | b',' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'<' | b'>' | b'*' | b':' => {
                    self.i += 1;
                    Tok::Punct(c as char)
                }
                _ => {
                    let ch = std::str::from_utf8(&self.b[at..]).ok().and_then(|s| s.chars().next()).unwrap_or('?');
                    return Err(self.err(at, format!("unexpected character {ch:?}")));
                }
            }
        };
        Ok(Token { tok, line, col })
    }
}

/// Splits `text` into tokens, ending with [`Tok::Eof`].
pub fn tokenize(text: &str) -> Result<Vec<Token>> {
    let mut lx = Lexer { b: text.as_bytes(), i: 0, line: 1, line_start: 0 };
    let mut out = Vec::new();
    loop {
        let t = lx.next()?;
        let end = t.tok == Tok::Eof;
        out.push(t);
        if end {
            return Ok(out);
        }
    }
}
