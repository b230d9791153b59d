//! Module and function-body decoding (LLVM 3.7 record layouts).

use super::bitstream::{Cursor, CursorStorage, Entry, Record, UNABBREV_RECORD};
use super::error::{BitcodeError, ErrorKind as E, Result};
use crate::ir::*;

mod block {
    pub const MODULE: u32 = 8;
    pub const PARAMATTR: u32 = 9;
    pub const PARAMATTR_GROUP: u32 = 10;
    pub const CONSTANTS: u32 = 11;
    pub const FUNCTION: u32 = 12;
    pub const VALUE_SYMTAB: u32 = 14;
    pub const METADATA: u32 = 15;
    pub const METADATA_ATTACHMENT: u32 = 16;
    pub const TYPE: u32 = 17;
    pub const METADATA_KIND: u32 = 22;
}

/// Forward references to not-yet-defined instruction results are held as
/// `Value::Inst(InstId(FWD_BASE + k))` until the function body ends.
const FWD_BASE: u32 = 0xF000_0000;
const MAX_VALUES: usize = 1 << 24;
/// "No type" in dense type tables.
const NO_TYPE: u32 = u32::MAX;

/// Reads a DXIL bitcode module (the bytes after the DXIL program header).
pub fn read_module(bitcode: &[u8]) -> std::result::Result<Module, BitcodeError> {
    read_module_with_facts(bitcode).map(|(m, _)| m)
}

/// [`Reader::const_note`]: the constant is an aggregate, a data array or a GEP, cast or binary
/// expression ([`ReadFacts::shaped_consts`]).
const NOTE_SHAPED: u8 = 1;
/// [`Reader::const_note`]: the constant is an `undef` or an expression of an integer type
/// ([`ReadFacts::odd_int_consts`]).
const NOTE_ODD_INT: u8 = 2;

/// What reading established about a module. By construction, every operand
/// names a value the module (or its function) defines (operands resolve
/// through the reader's value table), and no instruction without a value is
/// named (void instructions get no value id) unless the type table holds
/// more than one `void`. Also by construction, a function's blocks are
/// contiguous non-empty runs of its instructions in order, covering them all,
/// each instruction records its block, each block ends in its only
/// terminator, and branch targets, PHI incoming blocks and operand lists are
/// in range; an `extractvalue` of an operand named before it has the type of
/// the operand's element at its indices, which exist. Recorded: the functions where an
/// instruction other than a PHI names one not before it, the functions with PHIs, those where a
/// PHI follows another instruction of its block, and those with a call or a binary operation,
/// comparison, `select`, `ret` or conditional branch whose operands are not of the types LLVM's
/// rules want. The verifier relies on these
/// only for the module exactly as read (`verify::verify_read`); a module
/// changed since must be verified in full.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadFacts {
    /// Functions with a non-PHI forward (or self) reference.
    pub forward_refs: Vec<crate::ir::FuncId>,
    /// Functions with at least one PHI.
    pub phis: Vec<crate::ir::FuncId>,
    /// Functions with a PHI after a non-PHI instruction of its block.
    pub late_phis: Vec<crate::ir::FuncId>,
    /// Functions with a call whose arguments named before it do not all have the types of
    /// the callee's parameters, or that names another function type than its callee's.
    pub untyped_calls: Vec<crate::ir::FuncId>,
    /// Functions with a binary operation, comparison, `select`, `ret` or conditional branch
    /// whose operands named before it do not have the types its rules want
    /// ([`FunctionFacts::untyped_operands`]).
    pub untyped_operands: Vec<crate::ir::FuncId>,
    /// The first and the last index of the constants that are aggregates, data arrays or
    /// GEP, cast or binary expressions (`None`: there are none); every other constant was read
    /// with a kind of its type.
    pub shaped_consts: Option<(u32, u32)>,
    /// The first and the last index of the constants of an integer type that are `undef` or
    /// expressions (`None`: there are none); every other constant of an integer type of at
    /// most 64 bits is an integer or a null.
    pub odd_int_consts: Option<(u32, u32)>,
    /// The type table as read.
    pub types: TypeFacts,
}

/// What reading established about the type table (its first [`TypeFacts::count`] types, those
/// of the bitcode; the reader interns more after). By construction, struct fields and array
/// elements hold data ([`Type::holds_data`]), pointers point at a type that may be pointed at
/// ([`Type::is_pointee`]) and vectors hold integers, floats or pointers
/// ([`Type::is_vector_element`]): LLVM's reader has these rules too. No type holds itself
/// ([`crate::ir::types::Types::holds_itself`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeFacts {
    /// The types read from the bitcode's type table: `list[..count]`.
    pub count: u32,
    /// Of those, the id of the first of each fixed kind (slots [`crate::ir::types::KNOWN_I1`],
    /// ...): `u32::MAX` where there is none.
    pub known: [u32; crate::ir::types::KNOWN],
    /// The first `void`.
    pub first_void: Option<TypeId>,
    /// More than one `void`.
    pub several_voids: bool,
    /// The first and the last index of the structs named `dx.types.*`, other than
    /// `dx.types.Handle` (`None`: there are none).
    pub dx_structs: Option<(u32, u32)>,
}

impl TypeFacts {
    /// Type `id` is of the kind of [`TypeFacts::known`] slot `slot`.
    #[inline(always)]
    fn note_known(&mut self, slot: usize, id: u32) {
        if let Some(k) = self.known.get_mut(slot) {
            *k = (*k).min(id);
        }
    }

    /// Type `id` is `t` (a scalar): `t`.
    #[inline(always)]
    fn scalar(&mut self, t: Type, id: u32) -> Type {
        if let Some(slot) = t.known_slot() {
            self.note_known(slot, id);
        }
        t
    }

    /// Type `id` is a struct named `name`.
    #[inline(always)]
    fn note_struct(&mut self, name: Option<&str>, id: u32) {
        let Some(rest) = name.and_then(|n| n.strip_prefix("dx.types.")) else { return };
        if rest == "Handle" {
            self.note_known(crate::ir::types::KNOWN_HANDLE, id);
        } else {
            let (lo, _) = self.dx_structs.unwrap_or((id, id));
            self.dx_structs = Some((lo, id));
        }
    }
}

impl Default for TypeFacts {
    fn default() -> TypeFacts {
        TypeFacts {
            count: 0,
            known: [u32::MAX; crate::ir::types::KNOWN],
            first_void: None,
            several_voids: false,
            dx_structs: None,
        }
    }
}

impl ReadFacts {
    /// What reading established about function `f` alone.
    pub fn function(&self, f: crate::ir::FuncId) -> FunctionFacts {
        FunctionFacts {
            forward_refs: self.forward_refs.contains(&f),
            phis: self.phis.contains(&f),
            late_phis: self.late_phis.contains(&f),
            untyped_calls: self.untyped_calls.contains(&f),
            untyped_operands: self.untyped_operands.contains(&f),
        }
    }
}

/// [`ReadFacts`] of one function.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FunctionFacts {
    /// An instruction other than a PHI names one at or after it.
    pub forward_refs: bool,
    /// The function has a PHI.
    pub phis: bool,
    /// A PHI follows a non-PHI instruction of its block.
    pub late_phis: bool,
    /// A call's argument named before it has another type than the callee's parameter, or
    /// the call names another function type than its callee's. Without this (and without
    /// [`FunctionFacts::forward_refs`]), every call's arguments have the callee's parameter
    /// types.
    pub untyped_calls: bool,
    /// A binary operation, comparison, `select`, `ret` or conditional branch has an operand
    /// named before it of another type than its rules want, or one the reader does not look
    /// at (a vector `select` condition). Without this (and without
    /// [`FunctionFacts::forward_refs`]), LLVM's operand-type rules of those instructions hold:
    /// a binary operation's and a comparison's operands are of one integer or floating-point
    /// type (a comparison's may be pointers), of the kind its opcode or predicate works on; a
    /// `select` chooses between values of one type by an `i1`; a conditional branch's
    /// condition is an `i1`; `ret` returns a value of the function's result type, or nothing
    /// from a `void` function.
    pub untyped_operands: bool,
}

/// [`read_module`], with what reading established about the module.
pub fn read_module_with_facts(bitcode: &[u8]) -> std::result::Result<(Module, ReadFacts), BitcodeError> {
    let scratch = SCRATCH.with(|s| s.take()).unwrap_or_default();
    let mut r = Reader::new(bitcode, scratch);
    let result = r.run();
    let (module, scratch, facts) = r.finish();
    // Keep the reader's working storage for the next module on this thread,
    // unless a huge module made it big.
    if scratch.capacity_bytes() <= MAX_KEPT_SCRATCH {
        SCRATCH.with(|s| s.set(Some(scratch)));
    }
    match result {
        Ok(()) => Ok((module, facts)),
        Err((kind, at)) => {
            let e = at.into_error(kind, &module);
            module.recycle();
            Err(e)
        }
    }
}

/// Largest reader working storage kept between modules.
const MAX_KEPT_SCRATCH: usize = 4 << 20;

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

/// The reader's working storage that does not end up in the module.
#[derive(Default)]
struct Scratch {
    cursor: CursorStorage,
    rec_ops: Vec<u64>,
    values: Vec<(Value, TypeId)>,
    ptr_cache: crate::fxhash::FxHashMap<(TypeId, u32), TypeId>,
    ptr_dense: Vec<[u32; 2]>,
    global_inits: Vec<(GlobalId, u32)>,
    bodies: Vec<FuncId>,
    fwd: Vec<u32>,
    strbuf: Vec<u8>,
    kinds_memo: Vec<KindsMemo>,
    kinds_memo_next: usize,
    string_memo: Vec<StringMemo>,
    string_memo_next: usize,
}

/// An unabbreviated TRIPLE or DATALAYOUT record seen before: its bits and
/// its text. Every module of a DXC build carries the same two, ~1000 bits
/// of vbr6 characters; equal bits decode to the same record.
#[derive(Default)]
struct StringMemo {
    code: u32,
    len: u64,
    chunks: Vec<u64>,
    text: String,
}

/// How many TRIPLE/DATALAYOUT records [`Scratch`] remembers, and the longest.
const STRING_MEMO: usize = 8;
const STRING_MEMO_BITS: u64 = 1 << 14;

/// A module-level metadata block that held only metadata kinds, as bytes and
/// what it decoded to. DXC writes the same kind table into every module, so
/// a byte-equal block (same abbreviation width, no BLOCKINFO abbreviations
/// for it) is applied from here instead of decoded again.
#[derive(Default)]
struct KindsMemo {
    block_id: u32,
    width: u32,
    body: Vec<u8>,
    /// Kinds with name spans relative to `names`.
    kinds: Vec<(u32, Str)>,
    names: String,
}

/// How many kind blocks [`Scratch`] remembers.
const KINDS_MEMO: usize = 16;

impl Scratch {
    fn capacity_bytes(&self) -> usize {
        self.cursor.capacity_bytes()
            + self.rec_ops.capacity() * 8
            + self.values.capacity() * std::mem::size_of::<(Value, TypeId)>()
            + self.ptr_cache.capacity() * 16
            + self.ptr_dense.capacity() * 8
            + self.global_inits.capacity() * 8
            + self.bodies.capacity() * 4
            + self.fwd.capacity() * 4
            + self.strbuf.capacity()
            + self
                .kinds_memo
                .iter()
                .map(|k| k.body.capacity() + k.kinds.capacity() * 12 + k.names.capacity())
                .sum::<usize>()
            + self.string_memo.iter().map(|m| m.chunks.capacity() * 8 + m.text.capacity()).sum::<usize>()
    }
}

/// Where an error happened, captured before the reader is taken apart.
struct ErrorAt {
    bit: u64,
    block: Option<u32>,
    record: Option<u32>,
    function: Option<FuncId>,
}

impl ErrorAt {
    fn into_error(self, kind: E, module: &Module) -> BitcodeError {
        BitcodeError {
            kind,
            bit: self.bit,
            block: self.block,
            record: self.record,
            function: self.function.and_then(|f| {
                let func = module.functions.get(f.index())?;
                Some(if func.name.is_empty() { format!("#{}", f.0) } else { func.name.clone() })
            }),
        }
    }
}

struct Reader<'a> {
    cur: Cursor<'a>,
    rec: Record,
    module: Module,
    relative_ids: bool,
    /// Absolute value ids → (value, type): module values, then the current function's.
    values: Vec<(Value, TypeId)>,
    /// Number of types the bitcode defined (later ones are derived by the reader).
    bitcode_types: u32,
    ptr_cache: crate::fxhash::FxHashMap<(TypeId, u32), TypeId>,
    /// Pointer types by pointee id, in address spaces 0 and 3 ([`NO_TYPE`]:
    /// none yet); other address spaces go through `ptr_cache`.
    ptr_dense: Vec<[u32; 2]>,
    global_inits: Vec<(GlobalId, u32)>,
    bodies: Vec<FuncId>,
    next_body: usize,
    cur_function: Option<FuncId>,
    cur_code: Option<u32>,
    /// Largest metadata id referenced, to check after reading.
    max_md_ref: Option<u32>,
    // Function-body state.
    module_values: usize,
    module_md_count: u32,
    local_md_base: u32,
    fwd: Vec<u32>,
    /// What reading established so far ([`ReadFacts`]).
    facts: ReadFacts,
    /// The function being read: [`FunctionFacts`].
    facts_here: FunctionFacts,
    /// What `constant` (which reads through `&self`) noted of the constant just read, for
    /// `read_constants` to take: [`NOTE_SHAPED`], [`NOTE_ODD_INT`].
    const_note: std::cell::Cell<u8>,
    /// Bytes of the string being decoded.
    strbuf: Vec<u8>,
    kinds_memo: Vec<KindsMemo>,
    kinds_memo_next: usize,
    string_memo: Vec<StringMemo>,
    string_memo_next: usize,
    section_names: usize,
    /// Cached ids of `void`, `i1`, `i32` (0: not yet looked up).
    common_tys: [Option<TypeId>; 3],
}

fn decode_signed(v: u64) -> i64 {
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v != 1 {
        -((v >> 1) as i64)
    } else {
        i64::MIN
    }
}

/// Appends a string from a record's character operands (each truncated to a
/// byte, invalid UTF-8 replaced) to the module's string pool, through `buf`.
fn pool_chars(pool: &mut String, buf: &mut Vec<u8>, ops: &[u64]) -> Result<Str> {
    buf.clear();
    buf.extend(ops.iter().map(|&c| c as u8));
    pool_bytes(pool, buf)
}

/// Appends bytes (invalid UTF-8 replaced) to the module's string pool.
fn pool_bytes(pool: &mut String, bytes: &[u8]) -> Result<Str> {
    let start = pool.len();
    match std::str::from_utf8(bytes) {
        Ok(s) => pool.push_str(s),
        Err(_) => pool.push_str(&String::from_utf8_lossy(bytes)),
    }
    if pool.len() > MAX_STRINGS {
        return Err(E::Limit("too much string data"));
    }
    Ok(Str { start: start as u32, len: (pool.len() - start) as u32 })
}

/// How a record's metadata ids map to the module's ([`Reader::md_ref`]): in a function
/// block, ids past the module's metadata are the function's, numbered from `local_base`.
#[derive(Clone, Copy)]
struct MdMap {
    local: bool,
    module_count: u32,
    local_base: u32,
}

impl MdMap {
    #[inline(always)]
    fn map(self, id: u64) -> Result<u32> {
        let id = u32::try_from(id).map_err(|_| E::BadMetadata(id))?;
        let mapped = if self.local && id >= self.module_count {
            self.local_base.checked_add(id - self.module_count).ok_or_else(|| E::BadMetadata(u64::from(id)))?
        } else {
            id
        };
        if mapped as usize > MAX_VALUES {
            return Err(E::BadMetadata(u64::from(id)));
        }
        Ok(mapped)
    }
}

/// A metadata node's operands (`0`: none, else the id plus one), mapped ([`MdMap`]) onto
/// `out`, the largest raising `max` ([`Reader::md_ref`] of each, with the largest taken once).
#[inline(always)]
fn node_ops(ops: &[u64], map: MdMap, out: &mut Vec<Option<MdId>>, max: &mut Option<u32>) -> Result<()> {
    out.reserve(ops.len());
    let mut hi = None::<u32>;
    for &o in ops {
        if o == 0 {
            out.push(None);
            continue;
        }
        let m = map.map(o - 1)?;
        hi = Some(hi.map_or(m, |h| h.max(m)));
        out.push(Some(MdId(m)));
    }
    if let Some(h) = hi {
        *max = Some(max.map_or(h, |x| x.max(h)));
    }
    Ok(())
}

/// Cap on the module's string pool (spans are 32-bit).
const MAX_STRINGS: usize = 1 << 30;

/// A string from a record's character operands (each truncated to a byte,
/// invalid UTF-8 replaced).
fn chars(ops: &[u64]) -> String {
    let mut s = String::new();
    set_chars(&mut s, ops);
    s
}

/// [`chars`] into `dst`, reusing its storage (a recycled function's name): the byte vector
/// becomes the string's storage.
fn set_chars(dst: &mut String, ops: &[u64]) {
    let mut bytes = std::mem::take(dst).into_bytes();
    bytes.clear();
    bytes.extend(ops.iter().map(|&c| c as u8));
    *dst = match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
}

/// Type `k` would hold type `e` (`what`: "an array of", ...), which it may not (LLVM's
/// `isValidElementType` rules: [`ReadFacts::types`]).
#[cold]
fn element_error(k: usize, what: &str, e: u64) -> E {
    E::MalformedOwned(format!("type #{k} is {what} type #{e}, which it may not hold"))
}

/// Capacity to reserve for the items of a block `bits` long whose records take
/// about `bits_per_item` bits each, bounded so a lying length cannot make
/// the reader allocate much more than the input justifies.
fn estimate(bits: u64, bits_per_item: u64) -> usize {
    (bits / bits_per_item).min(1 << 20) as usize
}

fn align_from(v: u64) -> Result<u32> {
    if v > 32 {
        return Err(E::Malformed("alignment exponent too large"));
    }
    Ok(((1u64 << v) >> 1) as u32)
}

fn ordering(v: u64) -> Result<Ordering> {
    Ok(match v {
        0 => Ordering::NotAtomic,
        1 => Ordering::Unordered,
        2 => Ordering::Monotonic,
        3 => Ordering::Acquire,
        4 => Ordering::Release,
        5 => Ordering::AcqRel,
        6 => Ordering::SeqCst,
        _ => return Err(E::Malformed("invalid atomic ordering")),
    })
}

fn cast_op(v: u64) -> Result<CastOp> {
    use CastOp::*;
    Ok(match v {
        0 => Trunc,
        1 => ZExt,
        2 => SExt,
        3 => FPToUI,
        4 => FPToSI,
        5 => UIToFP,
        6 => SIToFP,
        7 => FPTrunc,
        8 => FPExt,
        9 => PtrToInt,
        10 => IntToPtr,
        11 => BitCast,
        12 => AddrSpaceCast,
        _ => return Err(E::Malformed("invalid cast opcode")),
    })
}

fn bin_op(v: u64, float: bool) -> Result<BinOp> {
    use BinOp::*;
    Ok(match (v, float) {
        (0, false) => Add,
        (0, true) => FAdd,
        (1, false) => Sub,
        (1, true) => FSub,
        (2, false) => Mul,
        (2, true) => FMul,
        (3, false) => UDiv,
        (4, false) => SDiv,
        (4, true) => FDiv,
        (5, false) => URem,
        (6, false) => SRem,
        (6, true) => FRem,
        (7, false) => Shl,
        (8, false) => LShr,
        (9, false) => AShr,
        (10, false) => And,
        (11, false) => Or,
        (12, false) => Xor,
        _ => return Err(E::Malformed("invalid binary opcode for operand type")),
    })
}

fn rmw_op(v: u64) -> Result<RmwOp> {
    use RmwOp::*;
    Ok(match v {
        0 => Xchg,
        1 => Add,
        2 => Sub,
        3 => And,
        4 => Nand,
        5 => Or,
        6 => Xor,
        7 => Max,
        8 => Min,
        9 => UMax,
        10 => UMin,
        _ => return Err(E::Malformed("invalid atomicrmw operation")),
    })
}

fn op(ops: &[u64], i: usize) -> Result<u64> {
    match ops.get(i) {
        Some(&v) => Ok(v),
        None => Err(E::Malformed("record has too few operands")),
    }
}

impl<'a> Reader<'a> {
    fn new(bitcode: &'a [u8], mut sc: Scratch) -> Self {
        let rec = Record { ops: std::mem::take(&mut sc.rec_ops), ..Record::default() };
        sc.values.clear();
        sc.ptr_cache.clear();
        sc.ptr_dense.clear();
        sc.global_inits.clear();
        sc.bodies.clear();
        sc.fwd.clear();
        sc.strbuf.clear();
        Reader {
            cur: Cursor::with_storage(bitcode, std::mem::take(&mut sc.cursor)),
            rec,
            module: Module::from_spare(),
            relative_ids: false,
            values: std::mem::take(&mut sc.values),
            bitcode_types: 0,
            ptr_cache: std::mem::take(&mut sc.ptr_cache),
            ptr_dense: std::mem::take(&mut sc.ptr_dense),
            global_inits: std::mem::take(&mut sc.global_inits),
            bodies: std::mem::take(&mut sc.bodies),
            next_body: 0,
            cur_function: None,
            cur_code: None,
            max_md_ref: None,
            module_values: 0,
            module_md_count: 0,
            local_md_base: 0,
            fwd: std::mem::take(&mut sc.fwd),
            facts: ReadFacts::default(),
            facts_here: FunctionFacts::default(),
            const_note: std::cell::Cell::new(0),
            strbuf: std::mem::take(&mut sc.strbuf),
            kinds_memo: std::mem::take(&mut sc.kinds_memo),
            kinds_memo_next: sc.kinds_memo_next,
            string_memo: std::mem::take(&mut sc.string_memo),
            string_memo_next: sc.string_memo_next,
            section_names: 0,
            common_tys: [None; 3],
        }
    }

    /// Runs the reader; errors come with where they happened.
    fn run(&mut self) -> std::result::Result<(), (E, ErrorAt)> {
        self.run_inner().map_err(|kind| {
            let at = ErrorAt {
                bit: self.cur.bits.pos(),
                block: self.cur.block_id(),
                record: self.cur_code,
                function: self.cur_function,
            };
            (kind, at)
        })
    }

    /// The module read, the working storage (for reuse) and what reading established.
    fn finish(self) -> (Module, Scratch, ReadFacts) {
        let sc = Scratch {
            cursor: self.cur.into_storage(),
            rec_ops: self.rec.ops,
            values: self.values,
            ptr_cache: self.ptr_cache,
            ptr_dense: self.ptr_dense,
            global_inits: self.global_inits,
            bodies: self.bodies,
            fwd: self.fwd,
            strbuf: self.strbuf,
            kinds_memo: self.kinds_memo,
            kinds_memo_next: self.kinds_memo_next,
            string_memo: self.string_memo,
            string_memo_next: self.string_memo_next,
        };
        (self.module, sc, self.facts)
    }

    fn run_inner(&mut self) -> Result<()> {
        let magic = [self.cur.bits.read(8)?, self.cur.bits.read(8)?, self.cur.bits.read(8)?, self.cur.bits.read(8)?];
        if magic != [b'B' as u64, b'C' as u64, 0xC0, 0xDE] {
            return Err(E::BadMagic);
        }
        loop {
            match self.cur.advance()? {
                Entry::SubBlock(block::MODULE) => {
                    self.cur.enter(block::MODULE)?;
                    self.read_module_block()?;
                    return self.finish_module();
                }
                Entry::SubBlock(0) => {
                    self.cur.enter(0)?;
                }
                Entry::SubBlock(_) => self.cur.skip_block()?,
                Entry::EndBlock => return Err(E::Malformed("no module block")),
                Entry::Record(_) => return Err(E::Malformed("record at top level")),
            }
        }
    }

    /// Reads the next record of the current block into `self.rec`.
    fn read_rec(&mut self, abbrev: u32) -> Result<()> {
        self.cur_code = None;
        self.cur.read_record(abbrev, &mut self.rec)?;
        self.cur_code = Some(self.rec.code);
        Ok(())
    }

    fn read_module_block(&mut self) -> Result<()> {
        // Size the module's small tables up front (from the module's length,
        // so hostile lengths cannot inflate them) instead of growing them
        // from empty one push at a time.
        let bits = self.cur.block_bits_left();
        let m = &mut self.module;
        m.strings.reserve(estimate(bits, 24));
        m.globals.reserve(estimate(bits, 4096).max(4));
        m.functions.reserve(estimate(bits, 2048).max(4));
        m.named_metadata.reserve(8);
        m.named_md_ops.reserve(16);
        m.attr_groups.reserve(4);
        m.attrs.reserve(8);
        m.attr_lists.reserve(4);
        m.attr_list_groups.reserve(8);
        self.values.reserve(estimate(bits, 32));
        loop {
            match self.cur.advance()? {
                Entry::EndBlock => {
                    self.cur.leave();
                    return Ok(());
                }
                Entry::SubBlock(id) => {
                    self.cur_code = None;
                    match id {
                        0 => self.cur.enter(0)?,
                        block::TYPE => {
                            self.cur.enter(id)?;
                            self.read_types()?;
                        }
                        block::PARAMATTR_GROUP => {
                            self.cur.enter(id)?;
                            self.read_attr_groups()?;
                        }
                        block::PARAMATTR => {
                            self.cur.enter(id)?;
                            self.read_attr_lists()?;
                        }
                        block::CONSTANTS => {
                            self.cur.enter(id)?;
                            self.read_constants()?;
                        }
                        block::METADATA | block::METADATA_KIND => self.module_metadata_block(id)?,
                        block::VALUE_SYMTAB => {
                            self.cur.enter(id)?;
                            self.read_vst(false)?;
                        }
                        block::FUNCTION => {
                            self.cur.enter(id)?;
                            self.read_function_body()?;
                        }
                        _ => self.cur.skip_block()?,
                    }
                }
                Entry::Record(a) => {
                    if a == UNABBREV_RECORD && self.module_string_memo()? {
                        continue;
                    }
                    let start = self.cur.bits.pos();
                    self.read_rec(a)?;
                    self.module_record()?;
                    if a == UNABBREV_RECORD && matches!(self.rec.code, 2 | 3) {
                        self.remember_module_string(start);
                    }
                }
            }
        }
    }

    /// Applies the TRIPLE/DATALAYOUT record at the cursor from
    /// [`StringMemo`] when its bits were seen before.
    fn module_string_memo(&mut self) -> Result<bool> {
        let bits = &self.cur.bits;
        let Some(m) = self.string_memo.iter().find(|m| bits.peek_equal(&m.chunks, m.len)) else { return Ok(false) };
        self.cur.bits.skip_bits(m.len)?;
        self.cur_code = Some(m.code);
        let s = pool_bytes(&mut self.module.strings, m.text.as_bytes())?;
        if m.code == 2 {
            self.module.triple = s;
        } else {
            self.module.datalayout = s;
        }
        Ok(true)
    }

    /// Remembers the TRIPLE/DATALAYOUT record just read from bit `start`.
    fn remember_module_string(&mut self, start: u64) {
        let s = if self.rec.code == 2 { self.module.triple } else { self.module.datalayout };
        if self.cur.bits.pos() - start > STRING_MEMO_BITS {
            return;
        }
        if self.string_memo.len() < STRING_MEMO {
            self.string_memo.push(StringMemo::default());
        }
        let slot = self.string_memo_next % self.string_memo.len();
        self.string_memo_next = slot + 1;
        let Some(m) = self.string_memo.get_mut(slot) else { return };
        m.code = self.rec.code;
        m.chunks.clear();
        m.len = self.cur.bits.capture(start, &mut m.chunks);
        m.text.clear();
        m.text.push_str(self.module.strings.get(s.start as usize..(s.start + s.len) as usize).unwrap_or(""));
    }

    fn module_record(&mut self) -> Result<()> {
        let code = self.rec.code;
        let ops = std::mem::take(&mut self.rec.ops);
        let r = self.module_record_inner(code, &ops);
        self.rec.ops = ops;
        r
    }

    fn module_record_inner(&mut self, code: u32, ops: &[u64]) -> Result<()> {
        match code {
            1 => {
                // VERSION
                let v = op(ops, 0)?;
                if v > 1 {
                    return Err(E::Unsupported(format!("bitcode module version {v}")));
                }
                self.relative_ids = v == 1;
            }
            2 => self.module.triple = pool_chars(&mut self.module.strings, &mut self.strbuf, ops)?,
            3 => self.module.datalayout = pool_chars(&mut self.module.strings, &mut self.strbuf, ops)?,
            4 | 6 | 11 | 16 => {} // ASM, DEPLIB, GCNAME, SOURCE_FILENAME: not meaningful for DXIL
            5 => self.section_names += 1,
            7 => self.global_var(ops)?,
            8 => self.function_record(ops)?,
            9 | 14 => return Err(E::Unsupported("global alias".into())),
            12 => return Err(E::Unsupported("comdat".into())),
            13 => {} // VSTOFFSET
            _ => return Err(E::Unsupported(format!("module record code {code}"))),
        }
        Ok(())
    }

    fn ty(&self, id: u64) -> Result<TypeId> {
        if id < u64::from(self.bitcode_types) {
            Ok(TypeId(id as u32))
        } else {
            Err(E::BadType(id))
        }
    }

    fn ptr_to(&mut self, pointee: TypeId, addr_space: u32) -> TypeId {
        let slot = match addr_space {
            0 => 0,
            3 => 1,
            _ => {
                if let Some(&t) = self.ptr_cache.get(&(pointee, addr_space)) {
                    return t;
                }
                let t = self.module.types.intern(Type::Pointer { pointee, addr_space });
                self.ptr_cache.insert((pointee, addr_space), t);
                return t;
            }
        };
        let p = pointee.0 as usize;
        if let Some(&t) = self.ptr_dense.get(p).and_then(|e| e.get(slot)) {
            if t != NO_TYPE {
                return TypeId(t);
            }
        }
        let t = self.module.types.intern(Type::Pointer { pointee, addr_space });
        // `pointee` is a type of the table, so this is bounded by its size.
        if p >= self.ptr_dense.len() {
            self.ptr_dense.resize(p + 1, [NO_TYPE; 2]);
        }
        if let Some(e) = self.ptr_dense.get_mut(p).and_then(|e| e.get_mut(slot)) {
            *e = t.0;
        }
        t
    }

    /// Notes the bitcode's pointer types and `void`/`i1`/`i32` (their first
    /// occurrence, as [`Types::intern`] would find) so that deriving them
    /// does not search the type table.
    fn index_bitcode_types(&mut self) {
        let list = &self.module.types.list;
        self.ptr_dense.clear();
        self.ptr_dense.resize(list.len(), [NO_TYPE; 2]);
        for (i, t) in list.iter().enumerate() {
            let (slot, p) = match *t {
                Type::Pointer { pointee, addr_space: 0 } => (0, pointee),
                Type::Pointer { pointee, addr_space: 3 } => (1, pointee),
                Type::Void | Type::Int(1) | Type::Int(32) => {
                    let k = match t {
                        Type::Void => 0,
                        Type::Int(1) => 1,
                        _ => 2,
                    };
                    if self.common_tys[k].is_none() {
                        self.common_tys[k] = Some(TypeId(i as u32));
                    }
                    continue;
                }
                _ => continue,
            };
            if let Some(e) = self.ptr_dense.get_mut(p.0 as usize).and_then(|e| e.get_mut(slot)) {
                if *e == NO_TYPE {
                    *e = i as u32;
                }
            }
        }
    }

    fn int_ty(&mut self, bits: u32) -> TypeId {
        let slot = match bits {
            1 => 1,
            32 => 2,
            _ => return self.module.types.intern(Type::Int(bits)),
        };
        self.common_ty(slot, Type::Int(bits))
    }

    fn void_ty(&mut self) -> TypeId {
        self.common_ty(0, Type::Void)
    }

    fn common_ty(&mut self, slot: usize, t: Type) -> TypeId {
        if let Some(id) = self.common_tys[slot] {
            return id;
        }
        let id = self.module.types.intern(t);
        self.common_tys[slot] = Some(id);
        id
    }

    #[inline]
    fn push_value(&mut self, v: Value, ty: TypeId) -> Result<()> {
        if self.values.len() >= MAX_VALUES {
            return Err(E::Limit("too many values"));
        }
        self.values.push((v, ty));
        Ok(())
    }

    fn global_var(&mut self, ops: &[u64]) -> Result<()> {
        if ops.len() < 6 {
            return Err(E::Malformed("GLOBALVAR record too short"));
        }
        let mut ty = self.ty(ops[0])?;
        let is_const = ops[1] & 1 != 0;
        let addr_space;
        if ops[1] & 2 != 0 {
            addr_space = u32::try_from(ops[1] >> 2).map_err(|_| E::Malformed("address space too large"))?;
        } else {
            let (p, a) =
                self.module.types.pointee(ty).ok_or_else(|| E::TypeMismatch("global type is not a pointer"))?;
            ty = p;
            addr_space = a;
        }
        let ptr_ty = self.ptr_to(ty, addr_space);
        let id = GlobalId(self.module.globals.len() as u32);
        if ops[2] != 0 {
            let init = u32::try_from(ops[2] - 1).map_err(|_| E::BadValue(ops[2]))?;
            self.global_inits.push((id, init));
        }
        self.module.globals.push(Global {
            name: String::new(),
            value_ty: ty,
            ptr_ty,
            addr_space,
            is_const,
            init: None,
            linkage: ops[3] as u32,
            align: align_from(ops[4])?,
            thread_local: ops.get(7).copied().unwrap_or(0) as u32,
            unnamed_addr: ops.get(8).copied().unwrap_or(0) != 0,
        });
        self.push_value(Value::Global(id), ptr_ty)
    }

    fn function_record(&mut self, ops: &[u64]) -> Result<()> {
        if ops.len() < 8 {
            return Err(E::Malformed("FUNCTION record too short"));
        }
        let mut fty = self.ty(ops[0])?;
        if let Some((p, _)) = self.module.types.pointee(fty) {
            fty = p;
        }
        let ret = match self.module.types.get(fty) {
            Type::Function { vararg: true, .. } => return Err(E::Unsupported("variadic function".into())),
            Type::Function { ret, .. } => *ret,
            _ => return Err(E::TypeMismatch("function record type is not a function type")),
        };
        let ptr_ty = self.ptr_to(fty, 0);
        let attrs = u32::try_from(ops[4]).map_err(|_| E::Malformed("attribute list id too large"))?;
        let id = FuncId(self.module.functions.len() as u32);
        let is_proto = ops[2] != 0;
        let m = &mut self.module;
        let f = Function::push_spare(&mut m.functions);
        if let Type::Function { params, .. } = m.types.get(fty) {
            f.param_tys.extend_from_slice(params);
        }
        f.ty = fty;
        f.ptr_ty = ptr_ty;
        f.ret_ty = ret;
        f.is_declaration = is_proto;
        f.callconv = ops[1] as u32;
        f.linkage = ops[3] as u32;
        f.attrs = attrs;
        if !is_proto {
            self.bodies.push(id);
        }
        self.push_value(Value::Function(id), ptr_ty)
    }

    // ---------------------------------------------------------------- types

    fn read_types(&mut self) -> Result<()> {
        let mut pending_name: Option<String> = None;
        let mut refs_max: Option<u64> = None;
        // Only identified (named) structs may be referenced before they are
        // defined (as in LLVM): every cycle runs through one, and one by value
        // (a struct that holds itself) is rejected after the table.
        let mut forward_refs: crate::fxhash::FxHashSet<u64> = Default::default();
        // A struct field or array element not defined yet: only then can a type hold itself.
        let mut forward_part = false;
        fn note_ref(refs_max: &mut Option<u64>, fwd: &mut crate::fxhash::FxHashSet<u64>, defined: usize, id: u64) {
            *refs_max = Some(refs_max.map_or(id, |m| m.max(id)));
            if id >= defined as u64 {
                fwd.insert(id);
            }
        }
        loop {
            match self.cur.advance()? {
                Entry::EndBlock => {
                    self.cur.leave();
                    self.cur_code = None;
                    break;
                }
                Entry::SubBlock(_) => self.cur.skip_block()?,
                Entry::Record(a) => {
                    self.read_rec(a)?;
                    let ops = &self.rec.ops;
                    // The id of the type this record defines.
                    let here = self.module.types.len() as u32;
                    let t = match self.rec.code {
                        1 => {
                            let n = op(ops, 0)?;
                            if n > self.cur.bits.remaining() {
                                return Err(E::Malformed("NUMENTRY larger than the bitcode"));
                            }
                            // Bounded by what the block can hold, not by the claimed count.
                            self.module.types.reserve((n as usize).min(estimate(self.cur.block_bits_left(), 4)));
                            continue;
                        }
                        2 => {
                            let tf = &mut self.facts.types;
                            if tf.first_void.is_some() {
                                tf.several_voids = true;
                            } else {
                                tf.first_void = Some(TypeId(here));
                            }
                            Type::Void
                        }
                        3 => self.facts.types.scalar(Type::Float, here),
                        4 => self.facts.types.scalar(Type::Double, here),
                        5 => Type::Label,
                        6 => {
                            let name = pending_name.take();
                            self.facts.types.note_struct(name.as_deref(), here);
                            Type::Struct { name, packed: false, opaque: true, elems: Vec::new() }
                        }
                        7 => {
                            let w = op(ops, 0)?;
                            if w == 0 || w > 64 {
                                return Err(E::Unsupported(format!("integer type i{w}")));
                            }
                            let t = Type::Int(w as u32);
                            if let Some(slot) = t.known_slot() {
                                self.facts.types.note_known(slot, here);
                            }
                            t
                        }
                        8 => {
                            let p = op(ops, 0)?;
                            note_ref(&mut refs_max, &mut forward_refs, self.module.types.len(), p);
                            // (A type not read yet is a named struct: see below.)
                            if !self.module.types.list.get(p as usize).is_none_or(Type::is_pointee) {
                                return Err(element_error(self.module.types.len(), "a pointer to", p));
                            }
                            let a = ops.get(1).copied().unwrap_or(0);
                            Type::Pointer {
                                pointee: TypeId(p as u32),
                                addr_space: u32::try_from(a).map_err(|_| E::Malformed("address space too large"))?,
                            }
                        }
                        9 | 21 => {
                            // FUNCTION_OLD: [vararg, attrid, retty, params]; FUNCTION: [vararg, retty, params]
                            let skip = if self.rec.code == 9 { 2 } else { 1 };
                            let vararg = op(ops, 0)? != 0;
                            let ret = op(ops, skip)?;
                            note_ref(&mut refs_max, &mut forward_refs, self.module.types.len(), ret);
                            let mut params = self.module.types.spare_list();
                            params.extend(ops[skip + 1..].iter().map(|&p| TypeId(p as u32)));
                            for &p in &ops[skip + 1..] {
                                note_ref(&mut refs_max, &mut forward_refs, self.module.types.len(), p);
                            }
                            Type::Function { ret: TypeId(ret as u32), params, vararg }
                        }
                        10 => self.facts.types.scalar(Type::Half, here),
                        11 | 12 => {
                            let n = op(ops, 0)?;
                            let e = op(ops, 1)?;
                            note_ref(&mut refs_max, &mut forward_refs, self.module.types.len(), e);
                            forward_part |= e >= u64::from(here);
                            let elem = self.module.types.list.get(e as usize);
                            if self.rec.code == 11 && !elem.is_none_or(Type::holds_data) {
                                return Err(element_error(self.module.types.len(), "an array of", e));
                            }
                            // A vector holds no struct, which is all a type not read yet can be.
                            if self.rec.code == 12 && !elem.is_some_and(Type::is_vector_element) {
                                return Err(element_error(self.module.types.len(), "a vector of", e));
                            }
                            if self.rec.code == 11 {
                                Type::Array { len: n, elem: TypeId(e as u32) }
                            } else {
                                let len = u32::try_from(n).map_err(|_| E::Malformed("vector too long"))?;
                                if len == 0 {
                                    return Err(E::Malformed("zero-length vector"));
                                }
                                Type::Vector { len, elem: TypeId(e as u32) }
                            }
                        }
                        16 => Type::Metadata,
                        18 | 20 => {
                            let packed = op(ops, 0)? != 0;
                            let mut elems = self.module.types.spare_list();
                            elems.extend(ops[1..].iter().map(|&p| TypeId(p as u32)));
                            for &p in &ops[1..] {
                                note_ref(&mut refs_max, &mut forward_refs, self.module.types.len(), p);
                                forward_part |= p >= u64::from(here);
                                if !self.module.types.list.get(p as usize).is_none_or(Type::holds_data) {
                                    return Err(element_error(self.module.types.len(), "a struct with a field of", p));
                                }
                            }
                            let name = if self.rec.code == 20 { pending_name.take() } else { None };
                            self.facts.types.note_struct(name.as_deref(), here);
                            if self.rec.code == 20 && name.is_none() {
                                // An identified struct without a name still is a distinct type.
                                Type::Struct {
                                    name: Some(format!("{}", self.module.types.len())),
                                    packed,
                                    opaque: false,
                                    elems,
                                }
                            } else {
                                Type::Struct { name, packed, opaque: false, elems }
                            }
                        }
                        19 => {
                            let mut name = self.module.types.spare_name();
                            set_chars(&mut name, ops);
                            pending_name = Some(name);
                            continue;
                        }
                        13..=15 => return Err(E::Unsupported("x86_fp80/fp128/ppc_fp128 type".into())),
                        17 => return Err(E::Unsupported("x86_mmx type".into())),
                        22 => return Err(E::Unsupported("token type".into())),
                        c => return Err(E::Unsupported(format!("type record code {c}"))),
                    };
                    if self.module.types.len() >= MAX_VALUES {
                        return Err(E::Limit("too many types"));
                    }
                    let id = self.module.types.len() as u64;
                    if forward_refs.contains(&id) && !matches!(&t, Type::Struct { name: Some(_), .. }) {
                        return Err(E::Malformed("forward reference to a type that is not a named struct"));
                    }
                    self.module.types.push(t);
                }
            }
        }
        self.bitcode_types = self.module.types.len() as u32;
        if let Some(m) = refs_max {
            if m >= u64::from(self.bitcode_types) {
                return Err(E::BadType(m));
            }
        }
        if forward_part {
            if let Some(t) = self.module.types.holds_itself() {
                return Err(E::MalformedOwned(format!(
                    "type #{} holds itself through its fields or elements (a type of no size)",
                    t.0
                )));
            }
        }
        self.facts.types.count = self.bitcode_types;
        self.index_bitcode_types();
        Ok(())
    }

    // ---------------------------------------------------------- attributes

    fn read_attr_groups(&mut self) -> Result<()> {
        loop {
            match self.cur.advance()? {
                Entry::EndBlock => {
                    self.cur.leave();
                    return Ok(());
                }
                Entry::SubBlock(_) => self.cur.skip_block()?,
                Entry::Record(a) => {
                    self.read_rec(a)?;
                    if self.rec.code != 3 {
                        continue;
                    }
                    let ops = &self.rec.ops;
                    let id = op(ops, 0)? as u32;
                    let index = op(ops, 1)? as u32;
                    let attrs = &mut self.module.attrs;
                    let first = attrs.len();
                    let strings = &mut self.module.strings;
                    let buf = &mut self.strbuf;
                    let mut i = 2;
                    while i < ops.len() {
                        let kind = ops[i];
                        i += 1;
                        match kind {
                            0 => {
                                attrs.push(Attribute::Enum(op(ops, i)? as u32));
                                i += 1;
                            }
                            1 => {
                                attrs.push(Attribute::Int(op(ops, i)? as u32, op(ops, i + 1)?));
                                i += 2;
                            }
                            3 | 4 => {
                                let mut read_str = |i: &mut usize| -> Result<Str> {
                                    let start = *i;
                                    while *i < ops.len() && ops[*i] != 0 {
                                        *i += 1;
                                    }
                                    if *i >= ops.len() {
                                        return Err(E::Malformed("unterminated attribute string"));
                                    }
                                    let s = pool_chars(strings, buf, &ops[start..*i])?;
                                    *i += 1;
                                    Ok(s)
                                };
                                let key = read_str(&mut i)?;
                                let val = if kind == 4 { read_str(&mut i)? } else { Str::default() };
                                attrs.push(Attribute::Str(key, val));
                            }
                            _ => return Err(E::Unsupported(format!("attribute encoding {kind}"))),
                        }
                    }
                    let attrs = Self::list(first, attrs.len() - first)?;
                    self.module.attr_groups.push(AttrGroup { id, index, attrs });
                }
            }
        }
    }

    fn read_attr_lists(&mut self) -> Result<()> {
        loop {
            match self.cur.advance()? {
                Entry::EndBlock => {
                    self.cur.leave();
                    return Ok(());
                }
                Entry::SubBlock(_) => self.cur.skip_block()?,
                Entry::Record(a) => {
                    self.read_rec(a)?;
                    match self.rec.code {
                        2 => {
                            let groups = &mut self.module.attr_list_groups;
                            let l = Self::list(groups.len(), self.rec.ops.len())?;
                            groups.extend(self.rec.ops.iter().map(|&g| g as u32));
                            self.module.attr_lists.push(l);
                        }
                        1 => return Err(E::Unsupported("old-style attribute list".into())),
                        _ => {}
                    }
                }
            }
        }
    }

    // ----------------------------------------------------------- constants

    /// A value by absolute id that may be a forward reference to a constant
    /// of the block being read (`base_value`/`base_const`).
    fn const_operand(&self, id: u64, base_value: usize, base_const: usize, max_fwd: &mut usize) -> Result<Value> {
        let id = usize::try_from(id).map_err(|_| E::BadValue(id))?;
        if id < self.values.len() {
            return Ok(self.values[id].0);
        }
        if id < base_value || id - base_value > MAX_VALUES {
            return Err(E::BadValue(id as u64));
        }
        let c = base_const + (id - base_value);
        *max_fwd = (*max_fwd).max(c + 1);
        Ok(Value::Const(ConstId(c as u32)))
    }

    fn read_constants(&mut self) -> Result<()> {
        let mut cur_ty = self.int_ty(32);
        let base_value = self.values.len();
        let base_const = self.module.consts.len();
        let mut max_fwd = 0usize;
        let n = estimate(self.cur.block_bits_left(), 32);
        self.module.consts.reserve(n);
        self.values.reserve(n);
        loop {
            match self.cur.advance()? {
                Entry::EndBlock => {
                    self.cur.leave();
                    self.cur_code = None;
                    break;
                }
                Entry::SubBlock(_) => self.cur.skip_block()?,
                Entry::Record(a) => {
                    self.read_rec(a)?;
                    let code = self.rec.code;
                    if code == 1 {
                        cur_ty = self.ty(op(&self.rec.ops, 0)?)?;
                        continue;
                    }
                    let ops = std::mem::take(&mut self.rec.ops);
                    let kind = self.constant(code, &ops, cur_ty, base_value, base_const, &mut max_fwd);
                    self.rec.ops = ops;
                    let kind = kind?;
                    let id = ConstId(self.module.consts.len() as u32);
                    let note = self.const_note.get();
                    if note != 0 {
                        self.note_const(id, note);
                    }
                    self.module.consts.push(Const { ty: cur_ty, kind });
                    self.push_value(Value::Const(id), cur_ty)?;
                }
            }
        }
        if max_fwd > self.module.consts.len() {
            return Err(E::BadValue(max_fwd as u64));
        }
        Ok(())
    }

    fn constant(&self, code: u32, ops: &[u64], ty: TypeId, bv: usize, bc: usize, mf: &mut usize) -> Result<ConstKind> {
        // Structs are read as arrays of their element count (no copy of other types).
        let struct_as_array;
        let t: &Type = match self.module.types.get(ty) {
            Type::Struct { elems, .. } => {
                struct_as_array = Type::Array { len: elems.len() as u64, elem: ty };
                &struct_as_array
            }
            other => other,
        };
        let is_struct = matches!(self.module.types.get(ty), Type::Struct { .. });
        Ok(match code {
            2 => ConstKind::Null,
            3 => {
                self.note_odd_int(t);
                ConstKind::Undef
            }
            4 => {
                let &Type::Int(bits) = t else { return Err(E::TypeMismatch("integer constant of non-integer type")) };
                ConstKind::Int(mask_bits(decode_signed(op(ops, 0)?) as u64, bits))
            }
            5 => match *t {
                // A wide-integer record of a type of 64 bits or fewer is that type's value (LLVM
                // builds the APInt at the type's width from the low word); kept as `Int` so every
                // later check and lookup reads it.
                Type::Int(bits) if bits <= 64 => ConstKind::Int(mask_bits(decode_signed(op(ops, 0)?) as u64, bits)),
                Type::Int(_) => ConstKind::WideInt(ops.iter().map(|&w| decode_signed(w) as u64).collect()),
                _ => return Err(E::TypeMismatch("wide integer constant of non-integer type")),
            },
            6 => {
                let bits = match t {
                    Type::Half => 16,
                    Type::Float => 32,
                    Type::Double => 64,
                    _ => return Err(E::TypeMismatch("float constant of non-float type")),
                };
                ConstKind::Float(mask_bits(op(ops, 0)?, bits))
            }
            7 => {
                let n = match t {
                    Type::Array { len, .. } => *len,
                    Type::Vector { len, .. } => u64::from(*len),
                    _ => return Err(E::TypeMismatch("aggregate constant of non-aggregate type")),
                };
                if n != ops.len() as u64 {
                    return Err(E::Malformed("aggregate constant with wrong element count"));
                }
                let mut v = Vec::with_capacity(ops.len());
                for &o in ops {
                    v.push(self.const_operand(o, bv, bc, mf)?);
                }
                self.const_note.set(self.const_note.get() | NOTE_SHAPED);
                ConstKind::Aggregate(v)
            }
            8 | 9 => {
                let mut v: Vec<u64> = ops.iter().map(|&c| c & 0xff).collect();
                if code == 9 {
                    v.push(0);
                }
                self.const_note.set(self.const_note.get() | NOTE_SHAPED);
                ConstKind::Data(v)
            }
            22 => {
                let elem = match t {
                    Type::Array { elem, .. } | Type::Vector { elem, .. } if !is_struct => *elem,
                    _ => return Err(E::TypeMismatch("data constant of non-sequential type")),
                };
                let bits = self
                    .module
                    .types
                    .get(elem)
                    .scalar_bits()
                    .ok_or_else(|| E::TypeMismatch("data constant element"))?;
                self.const_note.set(self.const_note.get() | NOTE_SHAPED);
                ConstKind::Data(ops.iter().map(|&x| mask_bits(x, bits)).collect())
            }
            10 => {
                let lhs = self.const_operand(op(ops, 1)?, bv, bc, mf)?;
                let rhs = self.const_operand(op(ops, 2)?, bv, bc, mf)?;
                let float = self.module.types.get(self.elem_scalar(ty)).is_float();
                self.const_note.set(self.const_note.get() | NOTE_SHAPED);
                self.note_odd_int(t);
                ConstKind::Expr(ConstExpr::Binary {
                    op: bin_op(op(ops, 0)?, float)?,
                    lhs,
                    rhs,
                    flags: ops.get(3).copied().unwrap_or(0) as u32,
                })
            }
            11 => {
                let _opty = self.ty(op(ops, 1)?)?;
                let value = self.const_operand(op(ops, 2)?, bv, bc, mf)?;
                self.const_note.set(self.const_note.get() | NOTE_SHAPED);
                self.note_odd_int(t);
                ConstKind::Expr(ConstExpr::Cast { op: cast_op(op(ops, 0)?)?, value })
            }
            12 | 20 => {
                let mut i = 0;
                let mut source = None;
                if ops.len() % 2 == 1 {
                    source = Some(self.ty(ops[0])?);
                    i = 1;
                }
                let mut vals = Vec::new();
                let mut first_ty = None;
                while i + 1 < ops.len() {
                    let et = self.ty(ops[i])?;
                    first_ty.get_or_insert(et);
                    vals.push(self.const_operand(ops[i + 1], bv, bc, mf)?);
                    i += 2;
                }
                if vals.is_empty() {
                    return Err(E::Malformed("constant GEP without base"));
                }
                let base_ty = first_ty.ok_or_else(|| E::Malformed("constant GEP without base"))?;
                let source_ty = match source {
                    Some(s) => s,
                    None => {
                        self.module
                            .types
                            .pointee(base_ty)
                            .ok_or_else(|| E::TypeMismatch("GEP base is not a pointer"))?
                            .0
                    }
                };
                let base = vals.remove(0);
                self.const_note.set(self.const_note.get() | NOTE_SHAPED);
                ConstKind::Expr(ConstExpr::Gep { inbounds: code == 20, source_ty, base, indices: vals })
            }
            13 => {
                self.note_odd_int(t);
                ConstKind::Expr(ConstExpr::Select {
                    cond: self.const_operand(op(ops, 0)?, bv, bc, mf)?,
                    if_true: self.const_operand(op(ops, 1)?, bv, bc, mf)?,
                    if_false: self.const_operand(op(ops, 2)?, bv, bc, mf)?,
                })
            }
            14 => {
                self.note_odd_int(t);
                // [opty, opval, (idxty), idxval]
                let (v, i) = if ops.len() >= 4 { (op(ops, 1)?, op(ops, 3)?) } else { (op(ops, 1)?, op(ops, 2)?) };
                ConstKind::Expr(ConstExpr::ExtractElement {
                    vector: self.const_operand(v, bv, bc, mf)?,
                    index: self.const_operand(i, bv, bc, mf)?,
                })
            }
            15 => {
                self.note_odd_int(t);
                let idx = if ops.len() >= 4 { op(ops, 3)? } else { op(ops, 2)? };
                ConstKind::Expr(ConstExpr::InsertElement {
                    vector: self.const_operand(op(ops, 0)?, bv, bc, mf)?,
                    value: self.const_operand(op(ops, 1)?, bv, bc, mf)?,
                    index: self.const_operand(idx, bv, bc, mf)?,
                })
            }
            16 | 19 => {
                self.note_odd_int(t);
                let s = if code == 19 { 1 } else { 0 };
                ConstKind::Expr(ConstExpr::ShuffleVector {
                    a: self.const_operand(op(ops, s)?, bv, bc, mf)?,
                    b: self.const_operand(op(ops, s + 1)?, bv, bc, mf)?,
                    mask: self.const_operand(op(ops, s + 2)?, bv, bc, mf)?,
                })
            }
            17 => {
                self.note_odd_int(t);
                let pred =
                    CmpPred::from_u64(op(ops, 3)?).ok_or_else(|| E::Malformed("invalid comparison predicate"))?;
                ConstKind::Expr(ConstExpr::Cmp {
                    pred,
                    lhs: self.const_operand(op(ops, 1)?, bv, bc, mf)?,
                    rhs: self.const_operand(op(ops, 2)?, bv, bc, mf)?,
                })
            }
            18 | 23 => return Err(E::Unsupported("inline assembly".into())),
            21 => return Err(E::Unsupported("blockaddress constant".into())),
            c => return Err(E::Unsupported(format!("constant record code {c}"))),
        })
    }

    /// Constant `id` is what `note` says: an aggregate, a data array or a GEP, cast or binary
    /// expression ([`NOTE_SHAPED`]: [`ReadFacts::shaped_consts`]), an integer `undef` or
    /// expression ([`NOTE_ODD_INT`]: [`ReadFacts::odd_int_consts`]).
    #[cold]
    fn note_const(&mut self, id: ConstId, note: u8) {
        self.const_note.set(0);
        let span = |r: Option<(u32, u32)>| Some((r.map_or(id.0, |(lo, _)| lo.min(id.0)), id.0));
        if note & NOTE_SHAPED != 0 {
            self.facts.shaped_consts = span(self.facts.shaped_consts);
        }
        if note & NOTE_ODD_INT != 0 {
            self.facts.odd_int_consts = span(self.facts.odd_int_consts);
        }
    }

    /// Notes an `undef` or an expression of an integer type `t` ([`NOTE_ODD_INT`]).
    #[inline]
    fn note_odd_int(&self, t: &Type) {
        if matches!(t, Type::Int(_)) {
            self.const_note.set(self.const_note.get() | NOTE_ODD_INT);
        }
    }

    /// The scalar element type of a vector type, or the type itself.
    fn elem_scalar(&self, ty: TypeId) -> TypeId {
        match self.module.types.get(ty) {
            Type::Vector { elem, .. } => *elem,
            _ => ty,
        }
    }

    // ------------------------------------------------------------ metadata

    fn md_ref(&mut self, id: u64) -> Result<MdId> {
        let mapped = self.md_map().map(id)?;
        self.max_md_ref = Some(self.max_md_ref.map_or(mapped, |m| m.max(mapped)));
        Ok(MdId(mapped))
    }

    fn md_map(&self) -> MdMap {
        MdMap { local: self.cur_function.is_some(), module_count: self.module_md_count, local_base: self.local_md_base }
    }

    fn push_md(&mut self, m: Metadata) -> Result<()> {
        if self.module.metadata.len() >= MAX_VALUES {
            return Err(E::Limit("too much metadata"));
        }
        self.module.metadata.push(m);
        Ok(())
    }

    /// A module-level METADATA or METADATA_KIND block, from [`KindsMemo`]
    /// when it is a kind table seen before.
    fn module_metadata_block(&mut self, id: u32) -> Result<()> {
        let h = self.cur.block_header()?;
        let memoizable = !self.cur.has_blockinfo_for(id);
        if memoizable {
            let body = self.cur.body(h);
            if let Some(k) =
                self.kinds_memo.iter().find(|k| k.block_id == id && k.width == h.width && k.body.as_slice() == body)
            {
                let base = self.module.strings.len();
                if base + k.names.len() > MAX_STRINGS {
                    return Err(E::Limit("too much string data"));
                }
                self.module.strings.push_str(&k.names);
                let base = base as u32;
                self.module
                    .md_kinds
                    .extend(k.kinds.iter().map(|&(kind, s)| (kind, Str { start: s.start + base, len: s.len })));
                self.cur.skip_body(h);
                self.cur_code = None;
                return self.check_md_refs();
            }
        }
        let m = &self.module;
        let before = (m.metadata.len(), m.md_ops.len(), m.named_metadata.len(), m.md_kinds.len(), m.strings.len());
        let max_ref = self.max_md_ref;
        self.cur.enter_block(id, h)?;
        self.read_metadata(false)?;
        let m = &self.module;
        let (md0, ops0, named0, kinds0, str0) = before;
        let kinds_only = m.metadata.len() == md0
            && m.md_ops.len() == ops0
            && m.named_metadata.len() == named0
            && self.max_md_ref == max_ref
            && m.md_kinds.len() > kinds0;
        if memoizable && kinds_only && self.cur.bits.pos() == h.end {
            if self.kinds_memo.len() < KINDS_MEMO {
                self.kinds_memo.push(KindsMemo::default());
            }
            let slot = self.kinds_memo_next % self.kinds_memo.len();
            self.kinds_memo_next = slot + 1;
            let body = self.cur.body(h);
            let Some(k) = self.kinds_memo.get_mut(slot) else { return Ok(()) };
            k.block_id = id;
            k.width = h.width;
            k.body.clear();
            k.body.extend_from_slice(body);
            k.names.clear();
            k.names.push_str(m.strings.get(str0..).unwrap_or(""));
            k.kinds.clear();
            let base = str0 as u32;
            k.kinds.extend(
                m.md_kinds
                    .get(kinds0..)
                    .unwrap_or(&[])
                    .iter()
                    .map(|&(kind, s)| (kind, Str { start: s.start - base, len: s.len })),
            );
        }
        Ok(())
    }

    fn read_metadata(&mut self, _local: bool) -> Result<()> {
        let mut pending_name: Option<Str> = None;
        // Size the pools from the block's length: strings take at least 8
        // bits a byte, node operands ~12 bits each.
        let bits = self.cur.block_bits_left();
        if self.cur.block_id() == Some(block::METADATA) {
            self.module.metadata.reserve(estimate(bits, 64));
            self.module.md_ops.reserve(estimate(bits, 24));
        } else {
            self.module.md_kinds.reserve(estimate(bits, 160));
        }
        self.module.strings.reserve(estimate(bits, 10));
        loop {
            match self.cur.advance()? {
                Entry::EndBlock => {
                    self.cur.leave();
                    self.cur_code = None;
                    if pending_name.is_some() {
                        return Err(E::Malformed("metadata NAME without NAMED_NODE"));
                    }
                    return self.check_md_refs();
                }
                Entry::SubBlock(_) => self.cur.skip_block()?,
                Entry::Record(a) => {
                    self.read_rec(a)?;
                    let code = self.rec.code;
                    let ops = std::mem::take(&mut self.rec.ops);
                    let r = self.metadata_record(code, &ops, &mut pending_name);
                    self.rec.ops = ops;
                    r?;
                }
            }
        }
    }

    fn metadata_record(&mut self, code: u32, ops: &[u64], pending_name: &mut Option<Str>) -> Result<()> {
        if pending_name.is_some() && code != 10 {
            return Err(E::Malformed("metadata NAME not followed by NAMED_NODE"));
        }
        match code {
            1 => {
                let s = pool_chars(&mut self.module.strings, &mut self.strbuf, ops)?;
                self.push_md(Metadata::String(s))?
            }
            2 => {
                let ty = self.ty(op(ops, 0)?)?;
                let id = op(ops, 1)?;
                let v = usize::try_from(id).ok().and_then(|i| self.values.get(i)).ok_or_else(|| E::BadValue(id))?.0;
                self.push_md(Metadata::Value { ty, value: v })?;
            }
            3 | 5 => {
                let l = Self::list(self.module.md_ops.len(), ops.len())?;
                node_ops(ops, self.md_map(), &mut self.module.md_ops, &mut self.max_md_ref)?;
                self.push_md(Metadata::Node { distinct: code == 5, ops: l })?;
            }
            4 => *pending_name = Some(pool_chars(&mut self.module.strings, &mut self.strbuf, ops)?),
            10 => {
                let name = pending_name.take().ok_or_else(|| E::Malformed("NAMED_NODE without NAME"))?;
                let l = Self::list(self.module.named_md_ops.len(), ops.len())?;
                self.module.named_md_ops.reserve(ops.len());
                for &o in ops {
                    let r = self.md_ref(o)?;
                    self.module.named_md_ops.push(r);
                }
                self.module.named_metadata.push(NamedMetadata { name, ops: l });
            }
            6 => {
                let id = op(ops, 0)? as u32;
                let name = pool_chars(&mut self.module.strings, &mut self.strbuf, &ops[1..])?;
                self.module.md_kinds.push((id, name));
            }
            7 | 12..=34 | 37 => self.push_md(Metadata::Other { code })?,
            35 => self.md_strings(ops)?,
            36 | 38 | 39 => {}
            8 | 9 => return Err(E::Unsupported("pre-3.6 metadata node encoding".into())),
            11 => return Err(E::Malformed("metadata attachment outside an attachment block")),
            c => return Err(E::Unsupported(format!("metadata record code {c}"))),
        }
        Ok(())
    }

    /// METADATA_STRINGS: [count, offset-size, blob] with vbr6 lengths then characters.
    fn md_strings(&mut self, ops: &[u64]) -> Result<()> {
        let count = op(ops, 0)?;
        let offset = usize::try_from(op(ops, 1)?).map_err(|_| E::Malformed("string offset"))?;
        let (s, e) = self.rec.blob.ok_or_else(|| E::Malformed("METADATA_STRINGS without blob"))?;
        let data = self.cur.data();
        let blob = data.get(s..e).ok_or_else(|| E::UnexpectedEof)?;
        if offset > blob.len() {
            return Err(E::Malformed("METADATA_STRINGS offset past blob"));
        }
        let mut lens = super::bitstream::Bits::new(&blob[..offset]);
        let mut chars_at = offset;
        for _ in 0..count {
            let n = usize::try_from(lens.read_vbr(6)?).map_err(|_| E::UnexpectedEof)?;
            let end = chars_at.checked_add(n).ok_or_else(|| E::UnexpectedEof)?;
            let bytes = blob.get(chars_at..end).ok_or_else(|| E::UnexpectedEof)?;
            let s = pool_bytes(&mut self.module.strings, bytes)?;
            self.push_md(Metadata::String(s))?;
            chars_at = end;
        }
        Ok(())
    }

    fn check_md_refs(&self) -> Result<()> {
        match self.max_md_ref {
            Some(m) if m as usize >= self.module.metadata.len() => Err(E::BadMetadata(u64::from(m))),
            _ => Ok(()),
        }
    }

    // -------------------------------------------------------- symbol table

    fn read_vst(&mut self, in_function: bool) -> Result<()> {
        loop {
            match self.cur.advance()? {
                Entry::EndBlock => {
                    self.cur.leave();
                    return Ok(());
                }
                Entry::SubBlock(_) => self.cur.skip_block()?,
                Entry::Record(a) => {
                    self.read_rec(a)?;
                    let ops = &self.rec.ops;
                    let (id, name_ops) = match self.rec.code {
                        1 | 2 => (op(ops, 0)?, &ops[1..]),
                        3 => (op(ops, 0)?, ops.get(2..).unwrap_or(&[])),
                        _ => continue,
                    };
                    if self.rec.code == 2 {
                        let f = self.cur_function.ok_or_else(|| E::Malformed("basic block name outside a function"))?;
                        let func = &mut self.module.functions[f.index()];
                        if id >= func.blocks.len() as u64 {
                            return Err(E::BadBlock(id));
                        }
                        func.names.push((LocalName::Block(BlockId(id as u32)), chars(name_ops)));
                        continue;
                    }
                    let v = usize::try_from(id).ok().and_then(|i| self.values.get(i)).ok_or_else(|| E::BadValue(id))?.0;
                    match (v, in_function) {
                        (Value::Global(g), _) => set_chars(&mut self.module.globals[g.index()].name, name_ops),
                        (Value::Function(f), _) => set_chars(&mut self.module.functions[f.index()].name, name_ops),
                        (Value::Arg(i), true) | (Value::Inst(InstId(i)), true) => {
                            let f = self.cur_function.ok_or_else(|| E::Malformed("local name outside a function"))?;
                            let ln =
                                if matches!(v, Value::Arg(_)) { LocalName::Arg(i) } else { LocalName::Inst(InstId(i)) };
                            self.module.functions[f.index()].names.push((ln, chars(name_ops)));
                        }
                        _ => {} // names of constants are meaningless
                    }
                }
            }
        }
    }

    // -------------------------------------------------------------- module end

    fn finish_module(&mut self) -> Result<()> {
        self.cur_function = None;
        self.cur_code = None;
        if self.next_body != self.bodies.len() {
            let f = self.bodies[self.next_body];
            self.cur_function = Some(f);
            return Err(E::Malformed("function body missing"));
        }
        if !self.bodies.is_empty() {
            self.values.truncate(self.module_values);
        }
        self.decode_dx_ops()?;
        for (g, init) in std::mem::take(&mut self.global_inits) {
            let v = self.values.get(init as usize).ok_or_else(|| E::BadValue(u64::from(init)))?.0;
            self.module.globals[g.index()].init = Some(v);
        }
        self.check_md_refs()
    }
}

mod dxop;
mod function;

#[cfg(test)]
mod md_tests {
    use super::*;

    #[test]
    fn node_operands_map_and_raise_the_largest_reference() {
        let module = MdMap { local: false, module_count: 0, local_base: 0 };
        let (mut out, mut max) = (Vec::new(), None);
        node_ops(&[0, 3, 8, 1], module, &mut out, &mut max).unwrap();
        assert_eq!(out, [None, Some(MdId(2)), Some(MdId(7)), Some(MdId(0))]);
        assert_eq!(max, Some(7));
        // Nulls alone leave the largest as it was; a smaller reference does not lower it.
        node_ops(&[0, 0], module, &mut out, &mut max).unwrap();
        node_ops(&[2], module, &mut out, &mut max).unwrap();
        assert_eq!((out.len(), max), (7, Some(7)));
        // In a function, ids past the module's metadata are the function's.
        let local = MdMap { local: true, module_count: 10, local_base: 40 };
        node_ops(&[10, 12], local, &mut out, &mut max).unwrap();
        assert_eq!(&out[7..], [Some(MdId(9)), Some(MdId(41))]);
        assert_eq!(max, Some(41));
    }

    #[test]
    fn node_operands_past_the_limits_are_bad_references() {
        let module = MdMap { local: false, module_count: 0, local_base: 0 };
        let (mut out, mut max) = (Vec::new(), None);
        let wide = u64::from(u32::MAX) + 2;
        assert!(matches!(node_ops(&[1, wide], module, &mut out, &mut max), Err(E::BadMetadata(id)) if id == wide - 1));
        let huge = MAX_VALUES as u64 + 2;
        assert!(matches!(node_ops(&[huge + 1], module, &mut out, &mut max), Err(E::BadMetadata(id)) if id == huge));
        let local = MdMap { local: true, module_count: 1, local_base: u32::MAX };
        assert!(matches!(node_ops(&[3], local, &mut out, &mut max), Err(E::BadMetadata(2))));
    }
}
