//! Direct SPIR-V word emission for the lowering.
//!
//! One word vector per section of the SPIR-V logical layout (capabilities, extensions, extended
//! instruction set imports, memory model, entry points, execution modes, debug names,
//! annotations, types/constants/global variables, function bodies); every instruction is
//! encoded straight into its section (`word count << 16 | opcode`, result type, result id,
//! operands) and ids come from a counter. [`Emitter::finish`] writes the header (bound = the
//! counter) and concatenates the sections: no tree, no per-instruction allocation.
//!
//! The emitter also checks the function structure it is fed (instructions only inside a block,
//! labels only between blocks, function-scope `OpVariable` only at the start of a function's
//! first block) and instructions longer than the 16-bit word count allows: a violation is an
//! [`EmitError`], never silently malformed words.

use rspirv::spirv::{
    self, AddressingModel, Capability, Decoration, ExecutionMode, ExecutionModel, FunctionControl, MemoryModel, Op,
    Word,
};

/// The generator word of the header (tool id 15, the one rspirv writes: unchanged output).
const GENERATOR: Word = 0x000f_0000;

/// What the emitter refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum EmitError {
    #[error("SPIR-V {0:?} outside of a block")]
    NoBlock(Op),
    #[error("SPIR-V label {0} while a block is open")]
    BlockOpen(Word),
    #[error("SPIR-V function begun inside another function")]
    FunctionOpen,
    #[error("SPIR-V function ended or label emitted outside of a function")]
    NoFunction,
    #[error("SPIR-V function-scope OpVariable after the start of the first block")]
    LateVariable,
    #[error("SPIR-V {0:?} longer than 65535 words")]
    TooLong(Op),
}

/// Where the emitter is inside the function section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Between functions.
    Module,
    /// After `OpFunction`, before the first label.
    FunctionStart,
    /// Between blocks of a function.
    Function,
    /// Inside a block; `vars`: still at the start of the function's first block.
    Block { vars: bool },
}

/// Encodes `op` with operands `a ++ b ++ c` at the end of `sec`; false (nothing written) when the
/// instruction would not fit the 16-bit word count.
#[inline]
fn encode(sec: &mut Vec<Word>, op: Op, a: &[Word], b: &[Word], c: &[Word]) -> bool {
    let n = 1 + a.len() + b.len() + c.len();
    if n > 0xffff {
        return false;
    }
    sec.reserve(n);
    sec.push(((n as Word) << 16) | op as Word);
    sec.extend_from_slice(a);
    sec.extend_from_slice(b);
    sec.extend_from_slice(c);
    true
}

/// Appends the concatenation of `parts` as a literal string (UTF-8 bytes, then at least one
/// NUL, padded to a whole word). A NUL inside the text (possible in hostile metadata) would end
/// the literal early and shift every later operand, so it is written as `_` (see [`spirv_name`]).
fn put_string(sec: &mut Vec<Word>, parts: &[&[u8]]) {
    let (mut word, mut n) = (0u32, 0u32);
    for &b in parts.iter().flat_map(|p| p.iter()) {
        let b = if b == 0 { b'_' } else { b };
        word |= u32::from(b) << (8 * n);
        n += 1;
        if n == 4 {
            sec.push(word);
            (word, n) = (0, 0);
        }
    }
    sec.push(word);
}

/// Encodes `op head... "parts..." tail...`; false (nothing written) when too long.
fn encode_str(sec: &mut Vec<Word>, op: Op, head: &[Word], parts: &[&[u8]], tail: &[Word]) -> bool {
    let bytes: usize = parts.iter().map(|p| p.len()).sum();
    let n = 1 + head.len() + bytes / 4 + 1 + tail.len();
    if n > 0xffff {
        return false;
    }
    sec.reserve(n);
    sec.push(((n as Word) << 16) | op as Word);
    sec.extend_from_slice(head);
    put_string(sec, parts);
    sec.extend_from_slice(tail);
    true
}

/// `name` as the emitter writes it into a literal string (embedded NULs as `_`), e.g. for the
/// entry-point name the API must pass to Vulkan.
pub fn spirv_name(name: &str) -> std::borrow::Cow<'_, str> {
    if name.contains('\0') {
        std::borrow::Cow::Owned(name.replace('\0', "_"))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

/// The decimal digits of `v` (in `buf`).
fn decimal(v: u32, buf: &mut [u8; 10]) -> &[u8] {
    let mut k = buf.len();
    let mut v = v;
    loop {
        k -= 1;
        buf[k] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &buf[k..]
}

/// The two words of a 64-bit literal (low word first).
pub(crate) fn lit64(v: u64) -> [Word; 2] {
    [v as Word, (v >> 32) as Word]
}

/// A SPIR-V module under construction, one word vector per logical-layout section.
#[derive(Debug)]
pub(crate) struct Emitter {
    next_id: Word,
    version: Word,
    capabilities: Vec<Word>,
    extensions: Vec<Word>,
    imports: Vec<Word>,
    memory_model: Vec<Word>,
    entry_points: Vec<Word>,
    execution_modes: Vec<Word>,
    debug: Vec<Word>,
    annotations: Vec<Word>,
    globals: Vec<Word>,
    functions: Vec<Word>,
    at: At,
    /// The first instruction that did not fit (reported by [`Self::finish`]).
    too_long: Option<Op>,
}

impl Default for Emitter {
    /// An emitter without storage (nothing allocated; version 1.0).
    fn default() -> Self {
        Emitter {
            next_id: 1,
            version: 1 << 16,
            capabilities: Vec::new(),
            extensions: Vec::new(),
            imports: Vec::new(),
            memory_model: Vec::new(),
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            debug: Vec::new(),
            annotations: Vec::new(),
            globals: Vec::new(),
            functions: Vec::new(),
            at: At::Module,
            too_long: None,
        }
    }
}

impl Emitter {
    /// An empty module of SPIR-V version `major.minor`; `code_words`: expected size of the
    /// function bodies (a capacity hint: sections start big enough for typical shaders, so
    /// they seldom grow).
    pub fn new(major: u8, minor: u8, code_words: usize) -> Self {
        Emitter {
            next_id: 1,
            version: (Word::from(major) << 16) | (Word::from(minor) << 8),
            capabilities: Vec::with_capacity(16),
            extensions: Vec::with_capacity(32),
            imports: Vec::with_capacity(8),
            memory_model: Vec::with_capacity(3),
            entry_points: Vec::with_capacity(32),
            execution_modes: Vec::with_capacity(16),
            debug: Vec::with_capacity(64),
            annotations: Vec::with_capacity(128),
            globals: Vec::with_capacity(512),
            functions: Vec::with_capacity(code_words.clamp(256, 1 << 20)),
            at: At::Module,
            too_long: None,
        }
    }

    /// Makes this emitter an empty module of SPIR-V version `major.minor` again, keeping the
    /// sections' storage (the lowering reuses one emitter per thread across compiles).
    pub fn reset(&mut self, major: u8, minor: u8, code_words: usize) {
        self.next_id = 1;
        self.version = (Word::from(major) << 16) | (Word::from(minor) << 8);
        for s in self.sections_mut() {
            s.clear();
        }
        self.functions.reserve(code_words.clamp(256, 1 << 20));
        self.at = At::Module;
        self.too_long = None;
    }

    fn sections_mut(&mut self) -> [&mut Vec<Word>; 10] {
        [
            &mut self.capabilities,
            &mut self.extensions,
            &mut self.imports,
            &mut self.memory_model,
            &mut self.entry_points,
            &mut self.execution_modes,
            &mut self.debug,
            &mut self.annotations,
            &mut self.globals,
            &mut self.functions,
        ]
    }

    /// The sections in logical-layout order.
    fn sections(&self) -> [&Vec<Word>; 10] {
        [
            &self.capabilities,
            &self.extensions,
            &self.imports,
            &self.memory_model,
            &self.entry_points,
            &self.execution_modes,
            &self.debug,
            &self.annotations,
            &self.globals,
            &self.functions,
        ]
    }

    /// Bytes of storage the sections hold.
    pub fn capacity_bytes(&self) -> usize {
        self.sections().iter().map(|s| s.capacity() * 4).sum()
    }

    /// A fresh id.
    #[inline]
    pub fn id(&mut self) -> Word {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// The id bound (one more than the largest id handed out).
    #[inline]
    pub fn bound(&self) -> Word {
        self.next_id
    }

    #[inline]
    fn check(&mut self, fits: bool, op: Op) {
        if !fits && self.too_long.is_none() {
            self.too_long = Some(op);
        }
    }

    // ---- module-level sections -----------------------------------------------------------

    pub fn capability(&mut self, c: Capability) {
        let ok = encode(&mut self.capabilities, Op::Capability, &[c as Word], &[], &[]);
        self.check(ok, Op::Capability);
    }

    pub fn extension(&mut self, name: &str) {
        let ok = encode_str(&mut self.extensions, Op::Extension, &[], &[name.as_bytes()], &[]);
        self.check(ok, Op::Extension);
    }

    /// `%id = OpExtInstImport "name"`.
    pub fn ext_inst_import(&mut self, name: &str) -> Word {
        let id = self.id();
        let ok = encode_str(&mut self.imports, Op::ExtInstImport, &[id], &[name.as_bytes()], &[]);
        self.check(ok, Op::ExtInstImport);
        id
    }

    pub fn memory_model(&mut self, a: AddressingModel, m: MemoryModel) {
        let ok = encode(&mut self.memory_model, Op::MemoryModel, &[a as Word, m as Word], &[], &[]);
        self.check(ok, Op::MemoryModel);
    }

    /// Replaces the addressing model of the module's `OpMemoryModel` (e.g. with
    /// `PhysicalStorageBuffer64` once a buffer address is dereferenced).
    pub fn set_addressing_model(&mut self, a: AddressingModel) {
        if let Some(w) = self.memory_model.get_mut(1) {
            *w = a as Word;
        }
    }

    pub fn entry_point(&mut self, model: ExecutionModel, f: Word, name: &str, interface: &[Word]) {
        let ok = encode_str(&mut self.entry_points, Op::EntryPoint, &[model as Word, f], &[name.as_bytes()], interface);
        self.check(ok, Op::EntryPoint);
    }

    pub fn execution_mode(&mut self, f: Word, mode: ExecutionMode, lits: &[Word]) {
        let ok = encode(&mut self.execution_modes, Op::ExecutionMode, &[f, mode as Word], lits, &[]);
        self.check(ok, Op::ExecutionMode);
    }

    /// `OpName %id "{prefix}{index}"` (without formatting a `String`).
    pub fn name_indexed(&mut self, id: Word, prefix: &str, index: u32) {
        let mut buf = [0; 10];
        let digits = decimal(index, &mut buf);
        let ok = encode_str(&mut self.debug, Op::Name, &[id], &[prefix.as_bytes(), digits], &[]);
        self.check(ok, Op::Name);
    }

    pub fn decorate(&mut self, id: Word, d: Decoration, lits: &[Word]) {
        let ok = encode(&mut self.annotations, Op::Decorate, &[id, d as Word], lits, &[]);
        self.check(ok, Op::Decorate);
    }

    pub fn member_decorate(&mut self, id: Word, member: u32, d: Decoration, lits: &[Word]) {
        let ok = encode(&mut self.annotations, Op::MemberDecorate, &[id, member, d as Word], lits, &[]);
        self.check(ok, Op::MemberDecorate);
    }

    /// `%id = op operands...` in the types/constants/globals section (a type: no result type).
    pub fn type_decl(&mut self, op: Op, operands: &[Word]) -> Word {
        let id = self.id();
        let ok = encode(&mut self.globals, op, &[id], operands, &[]);
        self.check(ok, op);
        id
    }

    /// `%id = op %ty operands...` in the types/constants/globals section (constants, variables).
    pub fn global_value(&mut self, op: Op, ty: Word, operands: &[Word]) -> Word {
        let id = self.id();
        let ok = encode(&mut self.globals, op, &[ty, id], operands, &[]);
        self.check(ok, op);
        id
    }

    // ---- functions ----------------------------------------------------------------------

    /// `%id = OpFunction %ret control %fn_ty`.
    pub fn begin_function(
        &mut self,
        ret: Word,
        id: Word,
        control: FunctionControl,
        fn_ty: Word,
    ) -> Result<(), EmitError> {
        if self.at != At::Module {
            return Err(EmitError::FunctionOpen);
        }
        encode(&mut self.functions, Op::Function, &[ret, id, control.bits(), fn_ty], &[], &[]);
        self.at = At::FunctionStart;
        Ok(())
    }

    pub fn end_function(&mut self) -> Result<(), EmitError> {
        match self.at {
            At::Function => {}
            At::Block { .. } => return Err(EmitError::NoBlock(Op::FunctionEnd)),
            At::Module | At::FunctionStart => return Err(EmitError::NoFunction),
        }
        encode(&mut self.functions, Op::FunctionEnd, &[], &[], &[]);
        self.at = At::Module;
        Ok(())
    }

    /// `%label = OpLabel`: starts a block.
    pub fn label(&mut self, label: Word) -> Result<(), EmitError> {
        let vars = match self.at {
            At::FunctionStart => true,
            At::Function => false,
            At::Block { .. } => return Err(EmitError::BlockOpen(label)),
            At::Module => return Err(EmitError::NoFunction),
        };
        encode(&mut self.functions, Op::Label, &[label], &[], &[]);
        self.at = At::Block { vars };
        Ok(())
    }

    /// Appends an instruction (all its words after the opcode in `a ++ b ++ c`) to the open block.
    #[inline]
    fn code(&mut self, op: Op, a: &[Word], b: &[Word], c: &[Word]) -> Result<(), EmitError> {
        match self.at {
            At::Block { vars } => {
                if op == Op::Variable {
                    if !vars {
                        return Err(EmitError::LateVariable);
                    }
                } else if vars {
                    self.at = At::Block { vars: false };
                }
            }
            _ => return Err(EmitError::NoBlock(op)),
        }
        if encode(&mut self.functions, op, a, b, c) {
            Ok(())
        } else {
            Err(EmitError::TooLong(op))
        }
    }

    /// `%id = op %ty pre... rest...` in the open block; returns the new id.
    #[inline]
    pub fn inst(&mut self, op: Op, ty: Word, pre: &[Word], rest: &[Word]) -> Result<Word, EmitError> {
        let id = self.id();
        self.code(op, &[ty, id], pre, rest)?;
        Ok(id)
    }

    /// An instruction without result in the open block (not a terminator).
    #[inline]
    pub fn inst_void(&mut self, op: Op, pre: &[Word], rest: &[Word]) -> Result<(), EmitError> {
        self.code(op, pre, rest, &[])
    }

    /// A block terminator (`OpBranch`, `OpReturn`, `OpSwitch`, ...): closes the open block.
    pub fn terminator(&mut self, op: Op, pre: &[Word], rest: &[Word]) -> Result<(), EmitError> {
        self.code(op, pre, rest, &[])?;
        self.at = At::Function;
        Ok(())
    }

    pub fn selection_merge(&mut self, merge: Word) -> Result<(), EmitError> {
        self.inst_void(Op::SelectionMerge, &[merge, spirv::SelectionControl::NONE.bits()], &[])
    }

    pub fn loop_merge(&mut self, merge: Word, cont: Word) -> Result<(), EmitError> {
        self.inst_void(Op::LoopMerge, &[merge, cont, spirv::LoopControl::NONE.bits()], &[])
    }

    pub fn branch(&mut self, target: Word) -> Result<(), EmitError> {
        self.terminator(Op::Branch, &[target], &[])
    }

    pub fn branch_conditional(&mut self, cond: Word, t: Word, f: Word) -> Result<(), EmitError> {
        self.terminator(Op::BranchConditional, &[cond, t, f], &[])
    }

    /// `OpSwitch %sel %default` followed by `targets` (literal word(s), label pairs, already
    /// flattened: one literal word per case for a 32-bit selector, two, low first, for 64 bits).
    pub fn switch(&mut self, sel: Word, default: Word, targets: &[Word]) -> Result<(), EmitError> {
        self.terminator(Op::Switch, &[sel, default], targets)
    }

    // ---- the module ---------------------------------------------------------------------

    /// The module's words: header, then the sections in logical-layout order (the sections
    /// keep their storage for [`Self::reset`]).
    pub fn finish(&mut self) -> Result<Vec<Word>, EmitError> {
        if let Some(op) = self.too_long {
            return Err(EmitError::TooLong(op));
        }
        if self.at != At::Module {
            return Err(EmitError::NoBlock(Op::FunctionEnd));
        }
        let sections = self.sections();
        let len = 5 + sections.iter().map(|s| s.len()).sum::<usize>();
        let mut out = Vec::with_capacity(len);
        out.extend_from_slice(&[spirv::MAGIC_NUMBER, self.version, GENERATOR, self.next_id, 0]);
        for s in sections {
            out.extend_from_slice(s);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op_word(n: u32, op: Op) -> Word {
        (n << 16) | op as Word
    }

    #[test]
    fn embedded_nul_cannot_end_a_string_early() {
        let mut e = Emitter::new(1, 3, 0);
        e.extension("A\0BC"); // written as "A_BC" + a NUL word
        let w = e.finish().unwrap();
        assert_eq!(&w[5..], &[op_word(3, Op::Extension), u32::from_le_bytes(*b"A_BC"), 0]);
        assert_eq!(spirv_name("ma\0in"), "ma_in");
        assert!(matches!(spirv_name("main"), std::borrow::Cow::Borrowed("main")));
    }

    #[test]
    fn strings_are_nul_terminated_and_padded_to_words() {
        let mut e = Emitter::new(1, 3, 0);
        e.extension("SPV_KHR"); // 7 bytes + NUL = 2 words
        e.extension("ABCD"); // 4 bytes: a whole NUL word follows
        e.extension("");
        let w = e.finish().unwrap();
        assert_eq!(
            &w[5..],
            &[
                op_word(3, Op::Extension),
                u32::from_le_bytes(*b"SPV_"),
                u32::from_le_bytes([b'K', b'H', b'R', 0]),
                op_word(3, Op::Extension),
                u32::from_le_bytes(*b"ABCD"),
                0,
                op_word(2, Op::Extension),
                0,
            ]
        );
    }

    #[test]
    fn indexed_names_spell_the_number() {
        let mut e = Emitter::new(1, 3, 0);
        e.name_indexed(5, "TEXCOORD", 12);
        e.name_indexed(6, "SV_Target", 0);
        e.name_indexed(7, "ab", u32::MAX);
        let w = e.finish().unwrap();
        assert_eq!(
            &w[5..],
            &[
                op_word(5, Op::Name),
                5,
                u32::from_le_bytes(*b"TEXC"),
                u32::from_le_bytes(*b"OORD"),
                u32::from_le_bytes([b'1', b'2', 0, 0]),
                op_word(5, Op::Name),
                6,
                u32::from_le_bytes(*b"SV_T"),
                u32::from_le_bytes(*b"arge"),
                u32::from_le_bytes([b't', b'0', 0, 0]),
                op_word(6, Op::Name),
                7,
                u32::from_le_bytes(*b"ab42"),
                u32::from_le_bytes(*b"9496"),
                u32::from_le_bytes(*b"7295"),
                0,
            ]
        );
    }

    #[test]
    fn entry_point_puts_the_interface_after_the_name() {
        let mut e = Emitter::new(1, 3, 0);
        e.entry_point(ExecutionModel::GLCompute, 4, "main", &[7, 8]);
        let w = e.finish().unwrap();
        assert_eq!(
            &w[5..],
            &[op_word(7, Op::EntryPoint), ExecutionModel::GLCompute as u32, 4, u32::from_le_bytes(*b"main"), 0, 7, 8]
        );
    }

    #[test]
    fn wide_literals_are_low_word_first() {
        let mut e = Emitter::new(1, 3, 0);
        let t = e.type_decl(Op::TypeInt, &[64, 0]);
        let c = e.global_value(Op::Constant, t, &lit64(0x1122_3344_5566_7788));
        assert_eq!((t, c), (1, 2));
        let w = e.finish().unwrap();
        assert_eq!(
            &w[5..],
            &[op_word(4, Op::TypeInt), 1, 64, 0, op_word(5, Op::Constant), 1, 2, 0x5566_7788, 0x1122_3344]
        );
    }

    #[test]
    fn header_carries_version_generator_and_bound() {
        let mut e = Emitter::new(1, 5, 0);
        for _ in 0..9 {
            e.id();
        }
        assert_eq!(e.bound(), 10);
        let w = e.finish().unwrap();
        assert_eq!(w, vec![0x0723_0203, 0x0001_0500, 0x000f_0000, 10, 0]);
    }

    #[test]
    fn sections_come_out_in_logical_layout_order() {
        // Emitted in reverse layout order; each section must land in its place.
        let mut e = Emitter::new(1, 3, 0);
        let void = e.type_decl(Op::TypeVoid, &[]);
        let fn_ty = e.type_decl(Op::TypeFunction, &[void]);
        let f = e.id();
        e.begin_function(void, f, FunctionControl::NONE, fn_ty).unwrap();
        let l = e.id();
        e.label(l).unwrap();
        e.terminator(Op::Return, &[], &[]).unwrap();
        e.end_function().unwrap();
        e.decorate(f, Decoration::RelaxedPrecision, &[]);
        e.name_indexed(f, "f", 0);
        e.execution_mode(f, ExecutionMode::LocalSize, &[1, 2, 3]);
        e.entry_point(ExecutionModel::GLCompute, f, "f", &[]);
        e.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
        let glsl = e.ext_inst_import("GLSL.std.450");
        e.extension("E");
        e.capability(Capability::Shader);
        let w = e.finish().unwrap();
        let ops: Vec<(u32, u32)> = {
            let mut v = Vec::new();
            let mut k = 5;
            while k < w.len() {
                v.push((w[k] & 0xffff, w[k] >> 16));
                k += (w[k] >> 16) as usize;
            }
            v
        };
        let expect = [
            (Op::Capability, 2),
            (Op::Extension, 2),
            (Op::ExtInstImport, 6),
            (Op::MemoryModel, 3),
            (Op::EntryPoint, 4),
            (Op::ExecutionMode, 6),
            (Op::Name, 3),
            (Op::Decorate, 3),
            (Op::TypeVoid, 2),
            (Op::TypeFunction, 3),
            (Op::Function, 5),
            (Op::Label, 2),
            (Op::Return, 1),
            (Op::FunctionEnd, 1),
        ];
        assert_eq!(ops, expect.iter().map(|&(o, n)| (o as u32, n)).collect::<Vec<_>>());
        assert_eq!(w[3], glsl + 1, "bound");
        assert_eq!(w.len(), 5 + expect.iter().map(|e| e.1 as usize).sum::<usize>());
        // The function's words, exactly.
        let fstart = w.len() - 9;
        assert_eq!(
            &w[fstart..],
            &[
                op_word(5, Op::Function),
                void,
                f,
                0,
                fn_ty,
                op_word(2, Op::Label),
                l,
                op_word(1, Op::Return),
                op_word(1, Op::FunctionEnd)
            ]
        );
    }

    #[test]
    fn switch_and_ext_inst_operands() {
        let mut e = Emitter::new(1, 3, 0);
        let f = e.id();
        e.begin_function(1, f, FunctionControl::NONE, 2).unwrap();
        e.label(10).unwrap();
        let x = e.inst(Op::ExtInst, 3, &[4, 31], &[5]).unwrap();
        e.selection_merge(11).unwrap();
        let mut targets = Vec::new();
        targets.extend_from_slice(&lit64(0x1_0000_0002));
        targets.push(12);
        e.switch(6, 11, &targets).unwrap();
        e.end_function().unwrap();
        let w = e.finish().unwrap();
        assert_eq!(
            &w[5..],
            &[
                op_word(5, Op::Function),
                1,
                f,
                0,
                2,
                op_word(2, Op::Label),
                10,
                op_word(6, Op::ExtInst),
                3,
                x,
                4,
                31,
                5,
                op_word(3, Op::SelectionMerge),
                11,
                0,
                op_word(6, Op::Switch),
                6,
                11,
                2,
                1,
                12,
                op_word(1, Op::FunctionEnd),
            ]
        );
    }

    #[test]
    fn function_structure_is_checked() {
        let mut e = Emitter::new(1, 3, 0);
        assert_eq!(e.inst_void(Op::Store, &[1, 2], &[]), Err(EmitError::NoBlock(Op::Store)));
        assert_eq!(e.label(3), Err(EmitError::NoFunction));
        e.begin_function(1, 2, FunctionControl::NONE, 3).unwrap();
        assert_eq!(e.begin_function(1, 2, FunctionControl::NONE, 3), Err(EmitError::FunctionOpen));
        e.label(4).unwrap();
        assert_eq!(e.label(5), Err(EmitError::BlockOpen(5)));
        // Variables at the start of the first block only.
        e.inst(Op::Variable, 6, &[spirv::StorageClass::Function as u32], &[]).unwrap();
        e.inst_void(Op::Store, &[7, 8], &[]).unwrap();
        assert_eq!(e.inst(Op::Variable, 6, &[7], &[]), Err(EmitError::LateVariable));
        assert_eq!(e.end_function(), Err(EmitError::NoBlock(Op::FunctionEnd)));
        e.branch(9).unwrap();
        e.label(9).unwrap();
        assert_eq!(e.inst(Op::Variable, 6, &[7], &[]), Err(EmitError::LateVariable));
        e.terminator(Op::Return, &[], &[]).unwrap();
        e.end_function().unwrap();
        assert!(e.finish().is_ok());
    }

    #[test]
    fn too_long_instructions_are_refused() {
        let mut e = Emitter::new(1, 3, 0);
        let elems = vec![1; 0xffff];
        e.global_value(Op::ConstantComposite, 2, &elems);
        assert_eq!(e.finish(), Err(EmitError::TooLong(Op::ConstantComposite)));
        let mut e = Emitter::new(1, 3, 0);
        let s = "x".repeat(4 * 0xffff);
        e.name_indexed(1, &s, 0);
        assert_eq!(e.finish(), Err(EmitError::TooLong(Op::Name)));
    }
}
