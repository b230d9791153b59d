//! The module-level grammar: items, types, globals, function headers,
//! attribute groups and metadata. Constants are in `consts.rs`, function
//! bodies in `body.rs`.
//!
//! The text is read in passes over one token list, so that nothing has to
//! be declared before it is used: the items are found first, then named
//! struct types, attribute groups, global and function headers, metadata,
//! global initialisers and function bodies, in that order.

use super::error::{AsmError, Result};
use super::lexer::{Tok, Token};
use super::state::{AttrKey, Item, ItemKind, Parser};
use crate::ir::attr;
use crate::ir::*;
use std::collections::HashMap;

fn int_width(w: &str) -> Option<u32> {
    let n = w.strip_prefix('i')?;
    if n.is_empty() || !n.bytes().all(|c| c.is_ascii_digit()) || n.starts_with('0') {
        return None;
    }
    n.parse().ok()
}

impl Parser {
    pub fn new(toks: Vec<Token>) -> Parser {
        Parser {
            toks,
            pos: 0,
            rule: "module",
            m: Module::default(),
            type_ids: HashMap::new(),
            named_types: HashMap::new(),
            named_defined: HashMap::new(),
            const_ids: HashMap::new(),
            global_ids: HashMap::new(),
            func_ids: HashMap::new(),
            global_inits: Vec::new(),
            bodies: Vec::new(),
            param_names: Vec::new(),
            md_ids: HashMap::new(),
            md_strings: HashMap::new(),
            md_values: HashMap::new(),
            kind_ids: HashMap::new(),
            group_ids: HashMap::new(),
            text_groups: HashMap::new(),
            next_group: 1,
            list_ids: HashMap::new(),
            pending_fn_attachments: Vec::new(),
            fs: None,
        }
    }

    // ------------------------------------------------------------ cursor

    pub fn tok(&self) -> &Tok {
        self.tok_at(0)
    }

    pub fn tok_at(&self, k: usize) -> &Tok {
        self.toks.get(self.pos + k).or_else(|| self.toks.last()).map_or(&Tok::Eof, |t| &t.tok)
    }

    pub fn bump(&mut self) -> Tok {
        let t = self.tok().clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    /// An error at token `at`.
    pub fn err_at(&self, at: usize, msg: impl Into<String>) -> AsmError {
        let (line, col) = self.toks.get(at).or_else(|| self.toks.last()).map_or((1, 1), |t| (t.line, t.col));
        AsmError::new(line, col, self.rule, msg)
    }

    /// An error at the current token.
    pub fn err(&self, msg: impl Into<String>) -> AsmError {
        self.err_at(self.pos, msg)
    }

    /// "expected X, found Y" at the current token.
    pub fn expected(&self, what: &str) -> AsmError {
        self.err(format!("expected {what}, found {}", self.tok().describe()))
    }

    pub fn is_punct(&self, c: char) -> bool {
        *self.tok() == Tok::Punct(c)
    }

    pub fn is_word(&self, w: &str) -> bool {
        matches!(self.tok(), Tok::Word(x) if x == w)
    }

    pub fn eat_punct(&mut self, c: char) -> bool {
        let yes = self.is_punct(c);
        if yes {
            self.bump();
        }
        yes
    }

    pub fn eat_word(&mut self, w: &str) -> bool {
        let yes = self.is_word(w);
        if yes {
            self.bump();
        }
        yes
    }

    pub fn expect_punct(&mut self, c: char) -> Result<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{c}`")))
        }
    }

    pub fn expect_word(&mut self, w: &str) -> Result<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{w}`")))
        }
    }

    /// An unsigned decimal integer.
    pub fn uint(&mut self, what: &str) -> Result<u64> {
        match self.tok().clone() {
            Tok::Int(t) if !t.starts_with('-') => {
                let v = t.parse::<u64>().map_err(|_| self.err(format!("{what} {t} is too large")))?;
                self.bump();
                Ok(v)
            }
            _ => Err(self.expected(what)),
        }
    }

    pub fn uint32(&mut self, what: &str) -> Result<u32> {
        let at = self.pos;
        let v = self.uint(what)?;
        u32::try_from(v).map_err(|_| self.err_at(at, format!("{what} {v} is too large")))
    }

    // ------------------------------------------------------------ items

    fn item_start(&self, k: usize) -> Option<ItemKind> {
        let t = |j: usize| self.toks.get(k + j).map(|t| &t.tok);
        match t(0)? {
            Tok::Word(w) if w == "target" || w == "source_filename" => Some(ItemKind::Target),
            Tok::Word(w) if w == "define" || w == "declare" => Some(ItemKind::Function),
            Tok::Word(w) if w == "attributes" => Some(ItemKind::Attributes),
            Tok::Local(..) if t(1) == Some(&Tok::Punct('=')) && t(2) == Some(&Tok::Word("type".into())) => {
                Some(ItemKind::Struct)
            }
            Tok::Global(_) if t(1) == Some(&Tok::Punct('=')) => Some(ItemKind::Global),
            Tok::MdName(_) if t(1) == Some(&Tok::Punct('=')) => Some(ItemKind::NamedMd),
            Tok::MdId(_) if t(1) == Some(&Tok::Punct('=')) => Some(ItemKind::NumberedMd),
            _ => None,
        }
    }

    /// Finds the top-level items: each runs to the next token, outside
    /// braces, that starts an item.
    pub fn scan(&mut self) -> Result<Vec<Item>> {
        let mut items = Vec::new();
        let mut k = 0;
        let last = self.toks.len().saturating_sub(1);
        while k < last {
            let Some(kind) = self.item_start(k) else {
                self.pos = k;
                return Err(self.expected("a top-level item (`define`, `declare`, `@global =`, `%type = type`, `!N =`, `attributes`, `target`)"));
            };
            let start = k;
            let mut depth = 0i64;
            k += 1;
            while k < last {
                if depth == 0 && self.item_start(k).is_some() {
                    break;
                }
                match &self.toks[k].tok {
                    Tok::Punct('{') | Tok::MdOpen => depth += 1,
                    Tok::Punct('}') => depth -= 1,
                    _ => {}
                }
                k += 1;
            }
            items.push(Item { kind, start, end: k });
        }
        Ok(items)
    }

    /// Checks that an item's parser stopped exactly at its end.
    pub fn item_done(&self, item: &Item) -> Result<()> {
        if self.pos != item.end {
            return Err(self.err(format!("unexpected {} here", self.tok().describe())));
        }
        Ok(())
    }

    /// Parses the whole module.
    pub fn run(&mut self) -> Result<()> {
        let items = self.scan()?;
        for it in items.iter().filter(|i| i.kind == ItemKind::Target) {
            self.pos = it.start;
            self.rule = "target";
            self.target()?;
            self.item_done(it)?;
        }
        // Named struct types: every name first, then the bodies.
        let structs: Vec<Item> = items.iter().filter(|i| i.kind == ItemKind::Struct).copied().collect();
        for it in &structs {
            self.pos = it.start;
            self.rule = "type definition";
            let Tok::Local(name, _) = self.tok().clone() else { return Err(self.expected("a type name")) };
            if self.named_defined.insert(name.clone(), it.start).is_some() {
                return Err(self.err(format!("type %{name} is defined twice")));
            }
            self.named_type(&name);
        }
        for it in &structs {
            self.pos = it.start;
            self.rule = "type definition";
            self.struct_def()?;
            self.item_done(it)?;
        }
        for it in items.iter().filter(|i| i.kind == ItemKind::Attributes) {
            self.pos = it.start;
            self.rule = "attribute group";
            self.attributes()?;
            self.item_done(it)?;
        }
        self.next_group = self.text_groups.values().copied().max().map_or(1, |g| g + 1);
        for it in &items {
            self.pos = it.start;
            match it.kind {
                ItemKind::Global => {
                    self.rule = "global";
                    self.global_header(it)?;
                }
                ItemKind::Function => {
                    self.rule = "function header";
                    self.function_header(it)?;
                }
                _ => {}
            }
        }
        self.metadata(&items)?;
        for (g, at) in std::mem::take(&mut self.global_inits) {
            self.pos = at;
            self.rule = "global initializer";
            let ty = self.m.globals[g.index()].value_ty;
            let v = self.value(ty)?;
            self.m.globals[g.index()].init = Some(v);
            if self.eat_punct(',') {
                self.expect_word("align")?;
                self.uint("alignment")?;
            }
        }
        for (f, start, end) in std::mem::take(&mut self.bodies) {
            self.pos = start;
            self.rule = "function body";
            self.function_body(f, end)?;
        }
        // Named structs used but never defined.
        let mut undefined: Vec<(usize, &String)> = self
            .named_types
            .iter()
            .filter(|(n, _)| !self.named_defined.contains_key(*n))
            .map(|(n, (_, at))| (*at, n))
            .collect();
        undefined.sort();
        if let Some((at, n)) = undefined.first() {
            self.rule = "type";
            return Err(self.err_at(*at, format!("type %{n} is never defined")));
        }
        self.finish_kinds();
        Ok(())
    }

    fn target(&mut self) -> Result<()> {
        if self.eat_word("source_filename") {
            self.expect_punct('=')?;
            return match self.bump() {
                Tok::Str(_) => Ok(()),
                _ => Err(self.err_at(self.pos - 1, "expected a string")),
            };
        }
        self.expect_word("target")?;
        let which = match self.bump() {
            Tok::Word(w) if w == "triple" || w == "datalayout" => w,
            _ => return Err(self.err_at(self.pos - 1, "expected `triple` or `datalayout` after `target`")),
        };
        self.expect_punct('=')?;
        let s = match self.bump() {
            Tok::Str(s) => s,
            _ => return Err(self.err_at(self.pos - 1, "expected a string")),
        };
        let s = String::from_utf8(s).map_err(|_| self.err_at(self.pos - 1, "string is not UTF-8"))?;
        let id = self.m.add_str(&s);
        if which == "triple" {
            self.m.triple = id;
        } else {
            self.m.datalayout = id;
        }
        Ok(())
    }

    // ------------------------------------------------------------ types

    pub fn intern(&mut self, t: Type) -> TypeId {
        if let Some(&id) = self.type_ids.get(&t) {
            return id;
        }
        let id = self.m.types.push(t.clone());
        self.type_ids.insert(t, id);
        id
    }

    pub fn named_type(&mut self, name: &str) -> TypeId {
        if let Some(&(id, _)) = self.named_types.get(name) {
            return id;
        }
        let id = self.m.types.push(Type::Struct {
            name: Some(name.to_string()),
            packed: false,
            opaque: true,
            elems: Vec::new(),
        });
        self.named_types.insert(name.to_string(), (id, self.pos));
        id
    }

    pub fn ptr_to(&mut self, pointee: TypeId, addr_space: u32) -> TypeId {
        self.intern(Type::Pointer { pointee, addr_space })
    }

    pub fn ty(&self, id: TypeId) -> &Type {
        self.m.types.get(id)
    }

    pub fn show(&self, id: TypeId) -> String {
        self.m.types.display_quoted(id)
    }

    fn struct_def(&mut self) -> Result<()> {
        let Tok::Local(name, _) = self.bump() else { return Err(self.expected("a type name")) };
        self.expect_punct('=')?;
        self.expect_word("type")?;
        let id = self.named_type(&name);
        let body = if self.eat_word("opaque") {
            Type::Struct { name: Some(name), packed: false, opaque: true, elems: Vec::new() }
        } else {
            let packed = self.is_punct('<');
            if packed {
                self.bump();
            }
            if !self.is_punct('{') {
                return Err(self.expected("a struct body `{ … }` or `opaque`"));
            }
            let elems = self.struct_elems()?;
            if packed {
                self.expect_punct('>')?;
            }
            Type::Struct { name: Some(name), packed, opaque: false, elems }
        };
        self.m.types.list[id.0 as usize] = body;
        Ok(())
    }

    /// `{ T, T }` (the cursor on `{`).
    fn struct_elems(&mut self) -> Result<Vec<TypeId>> {
        self.expect_punct('{')?;
        let mut elems = Vec::new();
        if self.eat_punct('}') {
            return Ok(elems);
        }
        loop {
            elems.push(self.parse_type()?);
            if self.eat_punct('}') {
                return Ok(elems);
            }
            self.expect_punct(',')?;
        }
    }

    /// A type.
    pub fn parse_type(&mut self) -> Result<TypeId> {
        let saved = self.rule;
        self.rule = "type";
        let r = self.parse_type_inner();
        self.rule = saved;
        r
    }

    fn parse_type_inner(&mut self) -> Result<TypeId> {
        let at = self.pos;
        let mut t = match self.tok().clone() {
            Tok::Word(w) => {
                self.bump();
                match w.as_str() {
                    "void" => self.intern(Type::Void),
                    "half" => self.intern(Type::Half),
                    "float" => self.intern(Type::Float),
                    "double" => self.intern(Type::Double),
                    "label" => self.intern(Type::Label),
                    "metadata" => self.intern(Type::Metadata),
                    _ => match int_width(&w) {
                        Some(n) if (1..=64).contains(&n) => self.intern(Type::Int(n)),
                        Some(n) => return Err(self.err_at(at, format!("integer type i{n}: widths 1 to 64 only"))),
                        None => return Err(self.err_at(at, format!("expected a type, found `{w}`"))),
                    },
                }
            }
            Tok::Local(name, _) => {
                self.bump();
                self.named_type(&name)
            }
            Tok::Punct('[') => {
                self.bump();
                let len = self.uint("array length")?;
                self.expect_word("x")?;
                let elem = self.parse_type_inner()?;
                self.expect_punct(']')?;
                self.intern(Type::Array { len, elem })
            }
            Tok::Punct('<') if self.tok_at(1) == &Tok::Punct('{') => {
                self.bump();
                let elems = self.struct_elems()?;
                self.expect_punct('>')?;
                self.intern(Type::Struct { name: None, packed: true, opaque: false, elems })
            }
            Tok::Punct('<') => {
                self.bump();
                let len = self.uint32("vector length")?;
                if len == 0 {
                    return Err(self.err_at(at, "zero-length vector"));
                }
                self.expect_word("x")?;
                let elem = self.parse_type_inner()?;
                self.expect_punct('>')?;
                self.intern(Type::Vector { len, elem })
            }
            Tok::Punct('{') => {
                let elems = self.struct_elems()?;
                self.intern(Type::Struct { name: None, packed: false, opaque: false, elems })
            }
            _ => return Err(self.expected("a type")),
        };
        loop {
            if self.eat_punct('*') {
                t = self.ptr_to(t, 0);
            } else if self.is_word("addrspace") && self.tok_at(1) == &Tok::Punct('(') {
                self.bump();
                self.bump();
                let a = self.uint32("address space")?;
                self.expect_punct(')')?;
                self.expect_punct('*')?;
                t = self.ptr_to(t, a);
            } else if self.is_punct('(') {
                self.bump();
                let mut params = Vec::new();
                let mut vararg = false;
                if !self.eat_punct(')') {
                    loop {
                        if self.tok() == &Tok::Ellipsis {
                            self.bump();
                            vararg = true;
                            self.expect_punct(')')?;
                            break;
                        }
                        params.push(self.parse_type_inner()?);
                        if self.eat_punct(')') {
                            break;
                        }
                        self.expect_punct(',')?;
                    }
                }
                t = self.intern(Type::Function { ret: t, params, vararg });
            } else {
                return Ok(t);
            }
        }
    }

    // ------------------------------------------------------------ attributes

    /// Attributes up to the first token that is not one.
    pub fn attr_list(&mut self) -> Result<Vec<AttrKey>> {
        let mut v = Vec::new();
        loop {
            match self.tok().clone() {
                Tok::Word(w) if attr::enum_kind(&w).is_some() => {
                    self.bump();
                    v.push(AttrKey::Enum(attr::enum_kind(&w).unwrap_or(0)));
                }
                Tok::Word(w) if attr::int_kind(&w).is_some() && self.tok_at(1) == &Tok::Punct('(') => {
                    self.bump();
                    self.bump();
                    let n = self.uint("attribute value")?;
                    self.expect_punct(')')?;
                    v.push(AttrKey::Int(attr::int_kind(&w).unwrap_or(0), n));
                }
                Tok::Word(w) if w == "kind" && self.tok_at(1) == &Tok::Punct('(') => {
                    self.bump();
                    self.bump();
                    let k = self.uint32("attribute kind")?;
                    if self.eat_punct(',') {
                        let n = self.uint("attribute value")?;
                        v.push(AttrKey::Int(k, n));
                    } else {
                        v.push(AttrKey::Enum(k));
                    }
                    self.expect_punct(')')?;
                }
                Tok::Str(k) => {
                    self.bump();
                    let key = String::from_utf8(k).map_err(|_| self.err_at(self.pos - 1, "string is not UTF-8"))?;
                    let mut val = String::new();
                    if self.eat_punct('=') {
                        match self.bump() {
                            Tok::Str(s) => {
                                val = String::from_utf8(s)
                                    .map_err(|_| self.err_at(self.pos - 1, "string is not UTF-8"))?;
                            }
                            _ => return Err(self.err_at(self.pos - 1, "expected a string after `=`")),
                        }
                    }
                    v.push(AttrKey::Str(key, val));
                }
                _ => return Ok(v),
            }
        }
    }

    fn add_group(&mut self, id: u32, index: u32, attrs: &[AttrKey]) {
        let start = self.m.attrs.len() as u32;
        for a in attrs {
            let a = match a {
                AttrKey::Enum(k) => Attribute::Enum(*k),
                AttrKey::Int(k, v) => Attribute::Int(*k, *v),
                AttrKey::Str(k, v) => {
                    let k = self.m.add_str(k);
                    let v = self.m.add_str(v);
                    Attribute::Str(k, v)
                }
            };
            self.m.attrs.push(a);
        }
        self.m.attr_groups.push(AttrGroup { id, index, attrs: List { start, len: attrs.len() as u32 } });
        self.group_ids.insert((index, attrs.to_vec()), id);
    }

    fn attributes(&mut self) -> Result<()> {
        self.expect_word("attributes")?;
        let at = self.pos;
        let Tok::AttrRef(g) = self.bump() else { return Err(self.err_at(at, "expected `#N`")) };
        self.expect_punct('=')?;
        self.expect_punct('{')?;
        let attrs = self.attr_list()?;
        self.expect_punct('}')?;
        let id = u32::try_from(g)
            .ok()
            .filter(|&g| g != 0 && g < u32::MAX / 2)
            .ok_or_else(|| self.err_at(at, format!("attribute group #{g}: numbers 1 to {} only", u32::MAX / 2 - 1)))?;
        if self.text_groups.insert(g, id).is_some() {
            return Err(self.err_at(at, format!("attribute group #{g} is defined twice")));
        }
        self.add_group(id, attr::FUNCTION_INDEX, &attrs);
        Ok(())
    }

    /// The group id of attributes `attrs` at `index` (a new group when none has them).
    fn group_for(&mut self, index: u32, attrs: &[AttrKey]) -> u32 {
        if let Some(&g) = self.group_ids.get(&(index, attrs.to_vec())) {
            return g;
        }
        let id = self.next_group;
        self.next_group += 1;
        self.add_group(id, index, attrs);
        id
    }

    /// `#G` references after a signature or call.
    pub fn fn_group_refs(&mut self) -> Result<Vec<u32>> {
        let mut v = Vec::new();
        while let Tok::AttrRef(g) = self.tok().clone() {
            let id =
                *self.text_groups.get(&g).ok_or_else(|| self.err(format!("attribute group #{g} is not defined")))?;
            self.bump();
            v.push(id);
        }
        Ok(v)
    }

    /// The 1-based attribute list of return, parameter and function attributes (0: none).
    pub fn attr_list_id(&mut self, ret: &[AttrKey], params: &[Vec<AttrKey>], fn_groups: &[u32]) -> u32 {
        let mut groups = Vec::new();
        if !ret.is_empty() {
            groups.push(self.group_for(0, ret));
        }
        for (i, p) in params.iter().enumerate() {
            if !p.is_empty() {
                groups.push(self.group_for(i as u32 + 1, p));
            }
        }
        groups.extend_from_slice(fn_groups);
        if groups.is_empty() {
            return 0;
        }
        if let Some(&l) = self.list_ids.get(&groups) {
            return l;
        }
        let start = self.m.attr_list_groups.len() as u32;
        self.m.attr_list_groups.extend_from_slice(&groups);
        self.m.attr_lists.push(List { start, len: groups.len() as u32 });
        let id = self.m.attr_lists.len() as u32;
        self.list_ids.insert(groups, id);
        id
    }

    // ------------------------------------------------------------ globals and functions

    fn linkage(&mut self) -> Result<u32> {
        match self.tok().clone() {
            Tok::Word(w) if w == "external" => {
                self.bump();
                Ok(0)
            }
            Tok::Word(w) if attr::linkage_code(&w).is_some() => {
                self.bump();
                Ok(attr::linkage_code(&w).unwrap_or(0))
            }
            Tok::Word(w) if w == "linkage" && self.tok_at(1) == &Tok::Punct('(') => {
                self.bump();
                self.bump();
                let n = self.uint32("linkage code")?;
                self.expect_punct(')')?;
                Ok(n)
            }
            _ => Ok(0),
        }
    }

    fn global_header(&mut self, item: &Item) -> Result<()> {
        let Tok::Global(name) = self.bump() else { return Err(self.expected("a global name")) };
        if self.global_ids.contains_key(&name) || self.func_ids.contains_key(&name) {
            return Err(self.err_at(item.start, format!("@{name} is defined twice")));
        }
        self.expect_punct('=')?;
        let linkage = self.linkage()?;
        let mut thread_local = 0;
        if self.eat_word("thread_local") {
            thread_local = 1;
            if self.eat_punct('(') {
                thread_local = match self.tok().clone() {
                    Tok::Word(w) if attr::tls_code(&w).is_some() => {
                        self.bump();
                        attr::tls_code(&w).unwrap_or(1)
                    }
                    Tok::Int(_) => self.uint32("thread-local mode")?,
                    _ => return Err(self.expected("a thread-local mode")),
                };
                self.expect_punct(')')?;
            }
        }
        let unnamed_addr = self.eat_word("unnamed_addr");
        let mut addr_space = 0;
        if self.eat_word("addrspace") {
            self.expect_punct('(')?;
            addr_space = self.uint32("address space")?;
            self.expect_punct(')')?;
        }
        let is_const = if self.eat_word("constant") {
            true
        } else if self.eat_word("global") {
            false
        } else {
            return Err(self.expected("`global` or `constant`"));
        };
        let value_ty = self.parse_type()?;
        if matches!(self.ty(value_ty), Type::Void | Type::Label | Type::Metadata | Type::Function { .. }) {
            return Err(self.err(format!("a global cannot hold a {}", self.show(value_ty))));
        }
        let ptr_ty = self.ptr_to(value_ty, addr_space);
        let id = GlobalId(self.m.globals.len() as u32);
        let mut align = 0;
        if self.pos < item.end && !self.is_punct(',') {
            self.global_inits.push((id, self.pos));
            // Skip the initialiser now; it is read once every global is known.
            let mut depth = 0i64;
            while self.pos < item.end {
                match self.tok() {
                    Tok::Punct('(' | '[' | '{' | '<') | Tok::MdOpen => depth += 1,
                    Tok::Punct(')' | ']' | '}' | '>') => depth -= 1,
                    Tok::Punct(',') if depth == 0 => break,
                    _ => {}
                }
                self.bump();
            }
        }
        if self.eat_punct(',') {
            self.expect_word("align")?;
            align = self.alignment()?;
        }
        self.item_done(item)?;
        self.m.globals.push(Global {
            name: name.clone(),
            value_ty,
            ptr_ty,
            addr_space,
            is_const,
            init: None,
            linkage,
            align,
            thread_local,
            unnamed_addr,
        });
        self.global_ids.insert(name, id);
        Ok(())
    }

    /// An alignment: 0 or a power of two up to 2^31.
    pub fn alignment(&mut self) -> Result<u32> {
        let at = self.pos;
        let a = self.uint("alignment")?;
        if a != 0 && (!a.is_power_of_two() || a > 1 << 31) {
            return Err(self.err_at(at, format!("alignment {a} is not a power of two up to 2^31")));
        }
        Ok(a as u32)
    }

    fn function_header(&mut self, item: &Item) -> Result<()> {
        let define = match self.bump() {
            Tok::Word(w) => w == "define",
            _ => false,
        };
        let linkage = self.linkage()?;
        let mut callconv = 0;
        if self.eat_word("cc") {
            callconv = self.uint32("calling convention")?;
        }
        let ret_attrs = self.attr_list()?;
        let ret = self.parse_type()?;
        let name_at = self.pos;
        let Tok::Global(name) = self.bump() else {
            return Err(self.err_at(name_at, "expected the function's `@name`"));
        };
        if self.global_ids.contains_key(&name) || self.func_ids.contains_key(&name) {
            return Err(self.err_at(name_at, format!("@{name} is defined twice")));
        }
        if name.starts_with("dx.op.") && crate::dxil_op::split_function_name(&name).is_none() {
            return Err(self.err_at(name_at, format!("unknown DXIL intrinsic @{name}")));
        }
        self.expect_punct('(')?;
        let mut params = Vec::new();
        let mut param_attrs = Vec::new();
        let mut names = Vec::new();
        if !self.eat_punct(')') {
            loop {
                if self.tok() == &Tok::Ellipsis {
                    return Err(self.err("variadic functions are not supported (DXIL has none)"));
                }
                let t = self.parse_type()?;
                if matches!(self.ty(t), Type::Void | Type::Label | Type::Metadata) {
                    return Err(self.err(format!("a parameter of type {}", self.show(t))));
                }
                params.push(t);
                param_attrs.push(self.attr_list()?);
                match self.tok().clone() {
                    Tok::Local(n, q) => {
                        if !define {
                            return Err(self.err("a declaration's parameters have no names"));
                        }
                        self.bump();
                        names.push(Some((n, q)));
                    }
                    _ => names.push(None),
                }
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        let fn_groups = self.fn_group_refs()?;
        let attrs = self.attr_list_id(&ret_attrs, &param_attrs, &fn_groups);
        let fn_ty = self.intern(Type::Function { ret, params: params.clone(), vararg: false });
        let ptr_ty = self.ptr_to(fn_ty, 0);
        let id = FuncId(self.m.functions.len() as u32);
        let mut fn_attachments = Vec::new();
        while let Tok::MdName(kind) = self.tok().clone() {
            self.bump();
            let md_at = self.pos;
            let Tok::MdId(n) = self.bump() else {
                return Err(self.err_at(md_at, "expected `!N` after an attachment kind"));
            };
            let k = self.kind_id(&kind);
            fn_attachments.push((k, n, md_at));
        }
        if define {
            if !self.is_punct('{') {
                return Err(self.expected("`{` (the function body)"));
            }
            self.bodies.push((id, self.pos, item.end));
            self.pos = item.end;
        }
        self.item_done(item)?;
        let mut f = Function {
            name: name.clone(),
            ty: fn_ty,
            ptr_ty,
            ret_ty: ret,
            param_tys: params,
            is_declaration: !define,
            linkage,
            callconv,
            attrs,
            ..Function::default()
        };
        // Attachment nodes are resolved once the metadata ids are known.
        f.fn_attachments = fn_attachments.iter().map(|&(k, n, _)| (k, MdId(n as u32))).collect();
        self.pending_fn_attachments.push((id, fn_attachments));
        self.m.functions.push(f);
        self.func_ids.insert(name, id);
        self.param_names.push(names);
        Ok(())
    }

    // ------------------------------------------------------------ metadata

    /// The kind id of an attachment kind name (LLVM's fixed kinds first).
    pub fn kind_id(&mut self, name: &str) -> u32 {
        if let Some(k) = attr::FIXED_MD_KINDS.iter().position(|k| *k == name) {
            return k as u32;
        }
        let next = attr::FIXED_MD_KINDS.len() as u32 + self.kind_ids.len() as u32;
        *self.kind_ids.entry(name.to_string()).or_insert(next)
    }

    fn finish_kinds(&mut self) {
        let mut custom: Vec<(u32, String)> = self.kind_ids.iter().map(|(n, k)| (*k, n.clone())).collect();
        custom.sort();
        for (k, n) in attr::FIXED_MD_KINDS.iter().enumerate() {
            let s = self.m.add_str(n);
            self.m.md_kinds.push((k as u32, s));
        }
        for (k, n) in custom {
            let s = self.m.add_str(&n);
            self.m.md_kinds.push((k, s));
        }
    }

    /// A `!N` reference to a numbered metadata entry.
    pub fn md_ref(&self, n: u64, at: usize) -> Result<MdId> {
        self.md_ids.get(&n).copied().ok_or_else(|| self.err_at(at, format!("metadata !{n} is not defined")))
    }

    fn md_string_id(&mut self, s: &str) -> MdId {
        if let Some(&id) = self.md_strings.get(s) {
            return id;
        }
        let id = MdId(self.m.metadata.len() as u32);
        let md = self.m.new_md_string(s);
        self.m.metadata.push(md);
        self.md_strings.insert(s.to_string(), id);
        id
    }

    fn md_value_id(&mut self, ty: TypeId, v: Value) -> MdId {
        if let Some(&id) = self.md_values.get(&(ty, v)) {
            return id;
        }
        let id = MdId(self.m.metadata.len() as u32);
        self.m.metadata.push(Metadata::Value { ty, value: v });
        self.md_values.insert((ty, v), id);
        id
    }

    fn md_text(&mut self, bytes: Vec<u8>, at: usize) -> Result<String> {
        String::from_utf8(bytes).map_err(|_| self.err_at(at, "metadata string is not UTF-8"))
    }

    fn metadata(&mut self, items: &[Item]) -> Result<()> {
        self.rule = "metadata";
        // Numbered entries take the ids 0.. in the order of their numbers.
        let mut numbered: Vec<(u64, Item)> = Vec::new();
        for it in items.iter().filter(|i| i.kind == ItemKind::NumberedMd) {
            let Tok::MdId(n) = self.toks[it.start].tok else { continue };
            numbered.push((n, *it));
        }
        numbered.sort_by_key(|x| x.0);
        for w in numbered.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(self.err_at(w[1].1.start, format!("metadata !{} is defined twice", w[1].0)));
            }
        }
        for (k, (n, _)) in numbered.iter().enumerate() {
            self.md_ids.insert(*n, MdId(k as u32));
            self.m.metadata.push(Metadata::Other { code: u32::MAX });
        }
        // Strings and values first (nodes name them inline), then nodes.
        for pass in 0..2 {
            for (k, (_, it)) in numbered.iter().enumerate() {
                self.pos = it.start + 2;
                let node = self.is_word("distinct") || self.tok() == &Tok::MdOpen;
                if node != (pass == 1) {
                    continue;
                }
                let md = self.md_entry()?;
                if let Metadata::String(s) = md {
                    let text = self.m.str(s).to_string();
                    self.md_strings.entry(text).or_insert(MdId(k as u32));
                }
                if let Metadata::Value { ty, value } = md {
                    self.md_values.entry((ty, value)).or_insert(MdId(k as u32));
                }
                self.m.metadata[k] = md;
                self.item_done(it)?;
            }
        }
        for it in items.iter().filter(|i| i.kind == ItemKind::NamedMd) {
            self.pos = it.start;
            let Tok::MdName(name) = self.bump() else { continue };
            self.expect_punct('=')?;
            if self.tok() != &Tok::MdOpen {
                return Err(self.expected("`!{`"));
            }
            self.bump();
            let mut ops = Vec::new();
            if !self.eat_punct('}') {
                loop {
                    let at = self.pos;
                    let Tok::MdId(n) = self.bump() else { return Err(self.err_at(at, "expected `!N`")) };
                    ops.push(self.md_ref(n, at)?);
                    if self.eat_punct('}') {
                        break;
                    }
                    self.expect_punct(',')?;
                }
            }
            self.item_done(it)?;
            self.m.add_named_md(&name, &ops);
        }
        for (f, atts) in std::mem::take(&mut self.pending_fn_attachments) {
            let mut resolved = Vec::new();
            for (k, n, at) in atts {
                self.rule = "function header";
                resolved.push((k, self.md_ref(n, at)?));
            }
            self.m.functions[f.index()].fn_attachments = resolved;
        }
        Ok(())
    }

    /// The body of `!N = …`.
    fn md_entry(&mut self) -> Result<Metadata> {
        match self.tok().clone() {
            Tok::MdString(s) => {
                let at = self.pos;
                self.bump();
                let text = self.md_text(s, at)?;
                Ok(self.m.new_md_string(&text))
            }
            Tok::Word(w) if w == "distinct" => {
                self.bump();
                if self.tok() != &Tok::MdOpen {
                    return Err(self.expected("`!{` after `distinct`"));
                }
                self.md_node(true)
            }
            Tok::MdOpen => self.md_node(false),
            Tok::Punct('<') if self.tok_at(1) == &Tok::Word("metadata".into()) => {
                self.bump();
                self.bump();
                self.expect_word("record")?;
                let code = self.uint32("record code")?;
                self.expect_punct('>')?;
                Ok(Metadata::Other { code })
            }
            _ => {
                let ty = self.parse_type()?;
                let v = self.value(ty)?;
                Ok(Metadata::Value { ty, value: v })
            }
        }
    }

    fn md_node(&mut self, distinct: bool) -> Result<Metadata> {
        self.bump(); // `!{`
        let mut ops = Vec::new();
        if !self.eat_punct('}') {
            loop {
                let at = self.pos;
                match self.tok().clone() {
                    Tok::Word(w) if w == "null" => {
                        self.bump();
                        ops.push(None);
                    }
                    Tok::MdId(n) => {
                        self.bump();
                        ops.push(Some(self.md_ref(n, at)?));
                    }
                    Tok::MdString(s) => {
                        self.bump();
                        let text = self.md_text(s, at)?;
                        ops.push(Some(self.md_string_id(&text)));
                    }
                    Tok::MdOpen => return Err(self.err("a node inside a node must be numbered (`!N`)")),
                    _ => {
                        let ty = self.parse_type()?;
                        let v = self.value(ty)?;
                        ops.push(Some(self.md_value_id(ty, v)));
                    }
                }
                if self.eat_punct('}') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        Ok(self.m.new_md_node(distinct, &ops))
    }
}
