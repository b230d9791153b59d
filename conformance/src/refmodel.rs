//! A neutral, comparable rendering of an LLVM module, for the differential
//! test of dxjit's own LLVM 3.7 bitcode reader against LLVM 14.
//!
//! Two independent readers render the same bitcode into an [`RModule`]; the
//! test compares them with [`diff`]. The reference side (LLVM 14 through
//! `llvm-ir`, and `llvm-sys` for metadata and flags) lives in
//! `conformance/tests/llvm_ref/`; this file has no LLVM dependency. Both sides must follow the rules below **exactly**; anything
//! not listed is rendered as read.
//!
//! # Normalisation rules
//!
//! ## Order
//! - `globals`: global variables in module order (bitcode record order).
//!   Global aliases and ifuncs are not rendered.
//! - `functions`: functions (definitions and declarations) in module order.
//! - `blocks`: in function order; `insts`: in block order.
//! - `named_metadata`: **sorted by name** (names are unique).
//! - `RInst::md`: sorted by kind name; `!dbg` is never included.
//! - `RInst::extra` and `RConst::Expr::extra`: **sorted lexicographically**,
//!   duplicates removed (so neither side has to agree on flag order).
//!
//! ## Names
//! - Global, function and struct names are the raw names without `@`/`%`
//!   sigil, quoting or escaping (e.g. `\u{1}?buf@@3UByteAddressBuffer@@A`);
//!   bytes that are not UTF-8 are replaced lossily (U+FFFD).
//! - Local value and block names are not rendered: values are referenced by
//!   position, see [`ROperand`].
//!
//! ## Types (the `ty` strings)
//! LLVM typed-pointer syntax, without any quoting:
//! `i1 i8 i16 i32 i64 iN half float double void label metadata`, `x86_fp80`,
//! `fp128`, `ppc_fp128`, `x86_mmx`, `token`;
//! identified (named) structs as `%` + raw name (`%dx.types.Handle`,
//! `%class.Texture2D<vector<float, 4> >` — no quotes);
//! literal structs `{ i32, float }` (empty: `{}`), packed `<{ i32, i8 }>`;
//! `[4 x float]`, `<4 x float>`; pointers `float*`, `float addrspace(3)*`
//! (address space 0 is not written); functions `ret (p1, p2)`, `ret (p1, ...)`
//! for varargs, `ret ()` / `ret (...)` with no parameters.
//! - `RGlobal::ty` is the value (pointee) type; `RFunction::ty` is the function
//!   type (not the pointer to it); `RInst::ty` is the result type, `void` when
//!   the instruction has none (store, br, void call, ...).
//!
//! ## Instructions
//! - `opcode`: the LLVM textual opcode (`add`, `fadd`, `icmp`, `call`, `phi`,
//!   `br`, `switch`, `ret`, `load`, `store`, `getelementptr`, `alloca`,
//!   `extractvalue`, `insertvalue`, `cmpxchg`, `atomicrmw`, `fence`, `select`,
//!   `zext`, `bitcast`, `unreachable`, ...).
//! - Operand order is LLVM's `User` operand order, except:
//!   - `call`: callee first (operand 0), then the arguments in order;
//!   - `br`: `[Block]` or `[cond, Block(true), Block(false)]`;
//!   - `switch`: `[cond, Block(default), Const(case0), Block(dest0), ...]`;
//!   - `phi`: `[value0, Block(pred0), value1, Block(pred1), ...]`;
//!   - `ret`: `[]` or `[value]`;
//!   - `store`: `[value, pointer]`; `load`: `[pointer]`;
//!   - `alloca`: `[array size]` (an `i32 1` constant when not given);
//!   - `extractvalue`: `[aggregate]`, `insertvalue`: `[aggregate, value]`,
//!     indices in `extra`;
//!   - `shufflevector`: `[v1, v2]`, the mask in `extra` (LLVM 3.7 stores the
//!     mask as a constant operand; it must be moved to `extra`).
//! - `extra` (then sorted):
//!   - `icmp`/`fcmp`: `pred=<eq|ne|ugt|uge|ult|ule|sgt|sge|slt|sle>` or
//!     `pred=<false|oeq|ogt|oge|olt|ole|one|ord|uno|ueq|ugt|uge|ult|ule|une|true>`;
//!   - `nuw`, `nsw`, `exact` on the binary operators that carry them;
//!   - fast-math flags on FP operators, `fcmp` and `call`, with LLVM 14's
//!     spelling: `fast` alone when all flags are set, otherwise any of
//!     `reassoc nnan ninf nsz arcp contract afn`. The LLVM 3.7 bitcode flag
//!     *UnsafeAlgebra* (bit 0) means all flags: render only `fast`;
//!   - `load`/`store`/`alloca`: `align=<bytes>` (always present, as LLVM 14
//!     has it: where the bitcode gives 0 LLVM 14 substitutes the ABI
//!     alignment of the type), `volatile`, and for atomic load/store
//!     `ordering=<o>`;
//!   - `getelementptr`: `inbounds`;
//!   - `extractvalue`/`insertvalue`: `idx=<i>,<j>,...`;
//!   - `shufflevector`: `mask=<m0>,<m1>,...` with `-1` for undef lanes;
//!   - `atomicrmw`: `rmw=<xchg|add|sub|and|nand|or|xor|max|min|umax|umin|fadd|fsub>`,
//!     `ordering=<o>`, `volatile`;
//!   - `cmpxchg`: `success=<o>`, `failure=<o>`, `volatile`, `weak`;
//!   - `fence`: `ordering=<o>`;
//!   - atomics (load/store/rmw/cmpxchg/fence) in the single-thread scope:
//!     `syncscope=singlethread`;
//!   - orderings `<o>`: `unordered monotonic acquire release acq_rel seq_cst`.
//!
//!   Alignment of atomics, `tail` on calls, calling conventions and
//!   attributes are not rendered.
//!
//! ## Operands ([`ROperand`])
//! - `Arg(i)`: the i-th parameter of the current function.
//! - `Inst(i)`: the i-th instruction of the current function, counting **all**
//!   instructions (void ones included) in block order from 0.
//! - `Block(i)`: the i-th basic block of the current function.
//! - `Global(name)` / `Function(name)`: a global variable (or alias) / a
//!   function used directly as an operand.
//! - `Const(c)`: any other constant, see below.
//! - `Metadata(md)`: a `metadata` operand (e.g. of `llvm.dbg.*` calls).
//!
//! ## Constants ([`RConst`])
//! - Integers: `Int { bits, value }` with `value` zero-extended and masked to
//!   `bits` (`i1 true` is `{1, 1}`, `i32 -1` is `{32, 0xffff_ffff}`).
//! - Floats: `Float { ty, bits }` with the raw IEEE bits of that width
//!   (`half` 16, `float` 32, `double` 64), NaN payloads kept.
//! - The zero value of an integer type is `Int{value:0}`, of an FP type
//!   `Float{bits:0}` (so `-0.0` stays distinct), of a pointer `Null(ty)`, of
//!   an array/struct/vector `AggregateZero(ty)` — also when written in the
//!   bitcode as an aggregate whose elements are all zero values.
//! - An aggregate whose elements are all `undef` is `Undef(ty)` (LLVM folds
//!   both cases). Otherwise arrays, structs, vectors, data arrays/vectors and
//!   strings (`c"..."`, element by element as `Int{8, byte}`, NUL included)
//!   are `Aggregate { ty, elems }`.
//! - `undef` (and `poison`, which 3.7 does not have) is `Undef(ty)`.
//! - A global variable/alias inside a constant is `Global(name)`, a function
//!   `Function(name)`.
//! - Constant expressions: `Expr { opcode, ty, operands, extra }` with the
//!   same opcode names and `extra` rules as instructions (`inbounds` on GEP,
//!   `pred=` on compares, `nuw`/`nsw`/`exact`, `idx=` on extract/insertvalue).
//!   A `getelementptr` constant expression's operands are `[pointer, idx...]`.
//!
//! ## Metadata ([`RMd`])
//! - `String(s)`: an `MDString` (lossy UTF-8).
//! - `Value(op)`: `ValueAsMetadata` — a constant (`Const`), global
//!   (`Global`), function (`Function`) or, in function-local metadata, an
//!   `Arg`/`Inst`.
//! - `Node(ops)`: a generic tuple (`!{...}`, distinct or not — distinctness
//!   is not rendered); null operands are `None`.
//! - `Other(desc)`: anything else. Specialised nodes (debug info and the
//!   like) are `Other(<LLVM class name>)`, e.g. `Other("DILocation")`,
//!   `Other("DICompileUnit")`. A node that appears again inside itself (a
//!   cycle, e.g. `!0 = distinct !{!0}` of loop metadata) renders at the
//!   inner occurrence as `Other("cycle")`. Recursion stops at depth
//!   [`MD_DEPTH_LIMIT`] (the top node is depth 0): a node at that depth is
//!   `Other("depth")`. Nodes shared in a DAG are rendered in full at each use.
//! - Named metadata operands are rendered with the same rules (each operand
//!   is a node at depth 0); instruction attachments likewise.
//! - A node whose only operand is null (`!{null}`) renders as `Node([])`,
//!   like `!{}`: LLVM's C API cannot tell them apart (`MetadataAsValue`
//!   canonicalises the first into the second).
//! - A `metadata` *instruction operand* that is a one-operand node holding a
//!   constant (`metadata !{i32 1}`) renders as `Metadata(Value(Const ..))`,
//!   like `metadata i32 1`, for the same reason. Inside nodes, named
//!   metadata and attachments `!{i32 1}` is always `Node([Value(..)])`.
//!
//! ## What LLVM 14 does that a 3.7 reader must mirror or expect
//! The reference is LLVM 14 reading 3.7 bitcode, not a neutral oracle:
//! - it auto-upgrades while reading (intrinsic renames, old scalar TBAA to
//!   struct-path form, `llvm.vectorizer.*` loop metadata renamed, debug info
//!   of a stale version dropped with a warning). On the shared corpus one
//!   fires: `llvm.lifetime.start`/`end` become `.p0i8` and their declarations
//!   move to the end of the function list; the differential test undoes
//!   exactly that on the reference side before comparing;
//! - a load/store/alloca written with alignment 0 gets the type's ABI
//!   alignment from the data layout (`align=` is then that value);
//! - *UnsafeAlgebra* becomes all seven fast-math flags, printed `fast`.
//!
//! On the shared corpus (693 modules) the attachment kinds seen are
//! `dx.controlflow.hints`, `dx.nonuniform`, `dx.precise`, `llvm.loop`,
//! `noalias` and `tbaa`; the only `Other` metadata is `Other("cycle")` (the
//! self reference of `dx.controlflow.hints` / `llvm.loop` nodes).

use serde::Serialize;
use std::fmt::Write as _;

/// Depth at which metadata rendering stops (see the module doc).
pub const MD_DEPTH_LIMIT: usize = 32;

/// Most mismatches [`diff`] lists before it stops.
pub const DIFF_LIMIT: usize = 50;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct RModule {
    pub globals: Vec<RGlobal>,
    pub functions: Vec<RFunction>,
    pub named_metadata: Vec<RNamedMd>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RGlobal {
    pub name: String,
    /// Value (pointee) type.
    pub ty: String,
    pub addr_space: u32,
    pub is_const: bool,
    pub init: Option<RConst>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RFunction {
    pub name: String,
    /// Function type, e.g. `void (i32, float)`.
    pub ty: String,
    pub is_declaration: bool,
    pub blocks: Vec<RBlock>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RBlock {
    pub insts: Vec<RInst>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RInst {
    /// LLVM opcode name.
    pub opcode: String,
    /// Result type, `void` if none.
    pub ty: String,
    pub operands: Vec<ROperand>,
    /// Flags and attributes as `key=value` or bare words, sorted.
    pub extra: Vec<String>,
    /// Metadata attachments other than `!dbg`, sorted by kind name.
    pub md: Vec<(String, RMd)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum ROperand {
    Arg(u32),
    /// Index of the instruction in the function, counting all instructions
    /// in block order from 0, void ones included.
    Inst(u32),
    Block(u32),
    Global(String),
    Function(String),
    Const(RConst),
    Metadata(RMd),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum RConst {
    Int { bits: u32, value: u64 },
    Float { ty: String, bits: u64 },
    Null(String),
    Undef(String),
    AggregateZero(String),
    Aggregate { ty: String, elems: Vec<RConst> },
    Global(String),
    Function(String),
    Expr { opcode: String, ty: String, operands: Vec<RConst>, extra: Vec<String> },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum RMd {
    String(String),
    Value(Box<ROperand>),
    Node(Vec<Option<RMd>>),
    Other(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RNamedMd {
    pub name: String,
    pub ops: Vec<RMd>,
}

impl RModule {
    /// Applies the ordering rules that a renderer may leave to the end:
    /// named metadata sorted by name, `extra` lists sorted and deduplicated
    /// (also inside constant expressions), attachments sorted by kind.
    pub fn canonicalize(&mut self) {
        self.named_metadata.sort_by(|a, b| a.name.cmp(&b.name));
        for g in &mut self.globals {
            if let Some(c) = &mut g.init {
                canon_const(c);
            }
        }
        for f in &mut self.functions {
            for b in &mut f.blocks {
                for i in &mut b.insts {
                    i.extra.sort();
                    i.extra.dedup();
                    i.md.sort_by(|a, b| a.0.cmp(&b.0));
                    for op in &mut i.operands {
                        if let ROperand::Const(c) = op {
                            canon_const(c);
                        }
                    }
                }
            }
        }
    }

    /// Total number of instructions over all functions.
    pub fn instruction_count(&self) -> usize {
        self.functions.iter().flat_map(|f| &f.blocks).map(|b| b.insts.len()).sum()
    }

    pub fn named(&self, name: &str) -> Option<&RNamedMd> {
        self.named_metadata.iter().find(|n| n.name == name)
    }
}

fn canon_const(c: &mut RConst) {
    match c {
        RConst::Aggregate { elems, .. } => elems.iter_mut().for_each(canon_const),
        RConst::Expr { operands, extra, .. } => {
            operands.iter_mut().for_each(canon_const);
            extra.sort();
            extra.dedup();
        }
        _ => {}
    }
}

fn show<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("<unserializable: {e}>"))
}

struct Diff {
    out: Vec<String>,
    total: usize,
}

impl Diff {
    fn push(&mut self, msg: String) {
        self.total += 1;
        if self.out.len() < DIFF_LIMIT {
            self.out.push(msg);
        }
    }
    fn cmp<T: Serialize + PartialEq>(&mut self, what: &str, a: &T, b: &T) {
        if a != b {
            self.push(format!("{what}: {} != {}", show(a), show(b)));
        }
    }
    fn count(&mut self, what: &str, a: usize, b: usize) {
        if a != b {
            self.push(format!("{what}: count {a} != {b}"));
        }
    }
}

/// Lists human-readable mismatches between two renderings (`a` left, `b`
/// right), at most [`DIFF_LIMIT`] of them plus a final "... N more" line.
/// Empty when the modules are equal.
pub fn diff(a: &RModule, b: &RModule) -> Vec<String> {
    let mut d = Diff { out: Vec::new(), total: 0 };

    d.count("globals", a.globals.len(), b.globals.len());
    for (i, (ga, gb)) in a.globals.iter().zip(&b.globals).enumerate() {
        if ga != gb {
            let w = format!("global #{i} @{}", ga.name);
            d.cmp(&format!("{w} name"), &ga.name, &gb.name);
            d.cmp(&format!("{w} type"), &ga.ty, &gb.ty);
            d.cmp(&format!("{w} addr_space"), &ga.addr_space, &gb.addr_space);
            d.cmp(&format!("{w} is_const"), &ga.is_const, &gb.is_const);
            d.cmp(&format!("{w} init"), &ga.init, &gb.init);
        }
    }

    d.count("functions", a.functions.len(), b.functions.len());
    for (fi, (fa, fb)) in a.functions.iter().zip(&b.functions).enumerate() {
        if fa == fb {
            continue;
        }
        let w = format!("function #{fi} @{}", fa.name);
        d.cmp(&format!("{w} name"), &fa.name, &fb.name);
        d.cmp(&format!("{w} type"), &fa.ty, &fb.ty);
        d.cmp(&format!("{w} is_declaration"), &fa.is_declaration, &fb.is_declaration);
        d.count(&format!("{w} blocks"), fa.blocks.len(), fb.blocks.len());
        let mut base = 0usize; // function-wide index of the block's first instruction (left side)
        for (bi, (ba, bb)) in fa.blocks.iter().zip(&fb.blocks).enumerate() {
            let wb = format!("{w} block {bi}");
            if ba != bb {
                d.count(&format!("{wb} instructions"), ba.insts.len(), bb.insts.len());
                for (ii, (ia, ib)) in ba.insts.iter().zip(&bb.insts).enumerate() {
                    if ia != ib {
                        d.push(format!("{wb} inst {ii} (%{}): {} != {}", base + ii, render_inst(ia), render_inst(ib)));
                    }
                }
            }
            base += ba.insts.len();
        }
    }

    d.count("named metadata", a.named_metadata.len(), b.named_metadata.len());
    let mut names: Vec<&str> = a.named_metadata.iter().chain(&b.named_metadata).map(|n| n.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        match (a.named(name), b.named(name)) {
            (Some(na), Some(nb)) => {
                if na.ops.len() != nb.ops.len() {
                    d.count(&format!("!{name} operands"), na.ops.len(), nb.ops.len());
                }
                for (i, (oa, ob)) in na.ops.iter().zip(&nb.ops).enumerate() {
                    d.cmp(&format!("!{name} operand {i}"), oa, ob);
                }
            }
            (Some(_), None) => d.push(format!("!{name}: only on the left")),
            (None, Some(_)) => d.push(format!("!{name}: only on the right")),
            (None, None) => unreachable!(),
        }
    }

    if d.total > d.out.len() {
        let more = d.total - d.out.len();
        d.out.push(format!("... {more} more mismatches"));
    }
    d.out
}

/// A one-line rendering of an instruction for diff output.
pub fn render_inst(i: &RInst) -> String {
    let mut s = format!("{} {}", i.opcode, i.ty);
    for (k, op) in i.operands.iter().enumerate() {
        s.push_str(if k == 0 { " " } else { ", " });
        s.push_str(&show(op));
    }
    if !i.extra.is_empty() {
        let _ = write!(s, " [{}]", i.extra.join(" "));
    }
    for (k, md) in &i.md {
        let _ = write!(s, " !{k} {}", show(md));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(bits: u32, value: u64) -> RConst {
        RConst::Int { bits, value }
    }

    fn sample() -> RModule {
        RModule {
            globals: vec![RGlobal {
                name: "g".into(),
                ty: "[2 x float]".into(),
                addr_space: 3,
                is_const: false,
                init: Some(RConst::Undef("[2 x float]".into())),
            }],
            functions: vec![
                RFunction {
                    name: "main".into(),
                    ty: "void ()".into(),
                    is_declaration: false,
                    blocks: vec![
                        RBlock {
                            insts: vec![
                                RInst {
                                    opcode: "call".into(),
                                    ty: "i32".into(),
                                    operands: vec![
                                        ROperand::Function("dx.op.loadInput.i32".into()),
                                        ROperand::Const(int(32, 4)),
                                    ],
                                    extra: vec![],
                                    md: vec![],
                                },
                                RInst {
                                    opcode: "br".into(),
                                    ty: "void".into(),
                                    operands: vec![ROperand::Block(1)],
                                    extra: vec![],
                                    md: vec![],
                                },
                            ],
                        },
                        RBlock {
                            insts: vec![
                                RInst {
                                    opcode: "add".into(),
                                    ty: "i32".into(),
                                    operands: vec![ROperand::Inst(0), ROperand::Const(int(32, 1))],
                                    extra: vec!["nsw".into()],
                                    md: vec![(
                                        "dx.precise".into(),
                                        RMd::Node(vec![Some(RMd::Value(Box::new(ROperand::Const(int(32, 1)))))]),
                                    )],
                                },
                                RInst {
                                    opcode: "ret".into(),
                                    ty: "void".into(),
                                    operands: vec![],
                                    extra: vec![],
                                    md: vec![],
                                },
                            ],
                        },
                    ],
                },
                RFunction {
                    name: "dx.op.loadInput.i32".into(),
                    ty: "i32 (i32)".into(),
                    is_declaration: true,
                    blocks: vec![],
                },
            ],
            named_metadata: vec![RNamedMd {
                name: "dx.shaderModel".into(),
                ops: vec![RMd::Node(vec![
                    Some(RMd::String("cs".into())),
                    Some(RMd::Value(Box::new(ROperand::Const(int(32, 6))))),
                    Some(RMd::Value(Box::new(ROperand::Const(int(32, 0))))),
                ])],
            }],
        }
    }

    #[test]
    fn equal_models_have_no_diff() {
        let a = sample();
        assert!(diff(&a, &a.clone()).is_empty());
    }

    #[test]
    fn instruction_mismatch_names_function_block_and_index() {
        let a = sample();
        let mut b = sample();
        b.functions[0].blocks[1].insts[0].extra = vec!["nuw".into()];
        let d = diff(&a, &b);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].contains("function #0 @main block 1 inst 0 (%2)"), "{}", d[0]);
        assert!(d[0].contains("[nsw]") && d[0].contains("[nuw]"), "{}", d[0]);
    }

    #[test]
    fn operand_and_count_mismatches() {
        let a = sample();
        let mut b = sample();
        b.functions[0].blocks[0].insts[1].operands = vec![ROperand::Block(0)];
        b.functions[0].blocks[1].insts.pop();
        b.functions.pop();
        let d = diff(&a, &b);
        assert!(d.iter().any(|s| s == "functions: count 2 != 1"), "{d:?}");
        assert!(d.iter().any(|s| s.contains("block 0 inst 1 (%1)") && s.contains(r#"{"Block":1}"#)), "{d:?}");
        assert!(d.iter().any(|s| s.contains("block 1 instructions: count 2 != 1")), "{d:?}");
    }

    #[test]
    fn global_and_metadata_mismatches() {
        let a = sample();
        let mut b = sample();
        b.globals[0].addr_space = 0;
        b.named_metadata[0].ops[0] = RMd::Node(vec![Some(RMd::String("ps".into())), None]);
        b.named_metadata.push(RNamedMd { name: "llvm.ident".into(), ops: vec![] });
        let d = diff(&a, &b);
        assert!(d.iter().any(|s| s == "global #0 @g addr_space: 3 != 0"), "{d:?}");
        assert!(d.iter().any(|s| s.starts_with("!dx.shaderModel operand 0:")), "{d:?}");
        assert!(d.iter().any(|s| s == "!llvm.ident: only on the right"), "{d:?}");
        assert!(d.iter().any(|s| s == "named metadata: count 1 != 2"), "{d:?}");
    }

    #[test]
    fn diff_is_capped() {
        let a = sample();
        let mut b = sample();
        let inst = b.functions[0].blocks[0].insts[0].clone();
        let mut c = a.clone();
        c.functions[0].blocks[0].insts = vec![inst.clone(); 200];
        let mut other = inst;
        other.ty = "i64".into();
        b.functions[0].blocks[0].insts = vec![other; 200];
        let d = diff(&c, &b);
        assert_eq!(d.len(), DIFF_LIMIT + 1);
        assert_eq!(d.last().unwrap(), &format!("... {} more mismatches", 200 - DIFF_LIMIT));
    }

    #[test]
    fn canonicalize_sorts_extra_md_and_named() {
        let mut m = sample();
        m.named_metadata.insert(0, RNamedMd { name: "llvm.ident".into(), ops: vec![] });
        let i = &mut m.functions[0].blocks[1].insts[0];
        i.extra = vec!["nsw".into(), "nuw".into(), "nsw".into()];
        i.md.insert(0, ("zz".into(), RMd::Other("x".into())));
        m.canonicalize();
        let i = &m.functions[0].blocks[1].insts[0];
        assert_eq!(i.extra, ["nsw", "nuw"]);
        assert_eq!(i.md[0].0, "dx.precise");
        assert_eq!(m.named_metadata[0].name, "dx.shaderModel");
        assert_eq!(m.instruction_count(), 4);
    }

    #[test]
    fn serializes_to_json() {
        let j = serde_json::to_string(&sample()).unwrap();
        assert!(j.contains(r#""Int":{"bits":32,"value":6}"#), "{j}");
    }
}
