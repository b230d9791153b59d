//! What the reference reader takes from LLVM 14's C API (`llvm-sys`)
//! because `llvm-ir` 0.11 does not carry it for LLVM 14 (see LLVM.md):
//!
//! - parsing with a diagnostic handler (llvm-ir's own context has none, so
//!   a bitcode error would `exit(1)` the test) and LLVM's warnings;
//! - the function list in module order (llvm-ir splits definitions from
//!   declarations);
//! - `nuw`/`nsw`/`exact` and fast-math flags (no C getter before LLVM 17:
//!   read from the printed instruction);
//! - the exact bits of FP constants (llvm-ir has no `half` value and reads
//!   `float` through `double`, which quiets a signalling NaN);
//! - all metadata: named metadata, instruction attachments, `metadata`
//!   operands, and the values they hold.
//!
//! The llvm-ir side walks the same module in the same order and hands the
//! matching `LLVMValueRef` to the functions here.

use dxjit_conformance::refmodel::{RConst, RMd, RNamedMd, ROperand, MD_DEPTH_LIMIT};
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::core::*;
use llvm_sys::debuginfo::{LLVMGetMetadataKind, LLVMMetadataKind};
use llvm_sys::prelude::*;
use llvm_sys::{LLVMDiagnosticSeverity, LLVMOpcode, LLVMTypeKind, LLVMValueKind};
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};

/// A module parsed by LLVM 14 in its own context; both are disposed on drop.
pub struct Parsed {
    ctx: LLVMContextRef,
    pub module: LLVMModuleRef,
    /// Metadata kind id → name, discovered from printed instructions.
    kinds: HashMap<u32, String>,
}

impl Drop for Parsed {
    fn drop(&mut self) {
        unsafe {
            LLVMDisposeModule(self.module);
            LLVMContextDispose(self.ctx);
        }
    }
}

/// Parses `bitcode`; also returns LLVM's non-error diagnostics (warnings
/// such as dropped invalid debug info).
pub fn parse(bitcode: &[u8]) -> Result<(Parsed, Vec<String>), String> {
    unsafe {
        let ctx = LLVMContextCreate();
        let mut diags: Vec<(bool, String)> = Vec::new();
        // Without a handler LLVM prints and exit(1)s on a bitcode error.
        LLVMContextSetDiagnosticHandler(ctx, Some(on_diagnostic), &mut diags as *mut _ as *mut c_void);
        let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
            bitcode.as_ptr() as *const c_char,
            bitcode.len(),
            c"dxil".as_ptr(),
        );
        let mut module: LLVMModuleRef = std::ptr::null_mut();
        let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut module) != 0;
        LLVMDisposeMemoryBuffer(buf);
        // The handler's sink lives on this stack frame only.
        LLVMContextSetDiagnosticHandler(ctx, None, std::ptr::null_mut());
        if failed || module.is_null() {
            LLVMContextDispose(ctx);
            let errs: Vec<&str> = diags.iter().filter(|d| d.0).map(|d| d.1.as_str()).collect();
            return Err(format!("LLVM 14 could not read the bitcode: {}", errs.join("; ")));
        }
        let warnings = diags.into_iter().filter(|d| !d.0).map(|d| d.1).collect();
        Ok((Parsed { ctx, module, kinds: HashMap::new() }, warnings))
    }
}

extern "C" fn on_diagnostic(di: LLVMDiagnosticInfoRef, sink: *mut c_void) {
    unsafe {
        let sink = &mut *(sink as *mut Vec<(bool, String)>);
        let is_error = matches!(LLVMGetDiagInfoSeverity(di), LLVMDiagnosticSeverity::LLVMDSError);
        sink.push((is_error, take_message(LLVMGetDiagInfoDescription(di))));
    }
}

unsafe fn take_message(p: *mut c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    let s = CStr::from_ptr(p).to_string_lossy().into_owned();
    LLVMDisposeMessage(p);
    s
}

unsafe fn lossy(p: *const c_char, len: usize) -> String {
    if p.is_null() {
        return String::new();
    }
    String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
}

pub fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    unsafe { lossy(LLVMGetValueName2(v, &mut len), len) }
}

fn print_value(v: LLVMValueRef) -> String {
    unsafe { take_message(LLVMPrintValueToString(v)) }
}

fn chain<T: Copy>(first: T, next: impl Fn(T) -> T, is_null: impl Fn(&T) -> bool) -> Vec<T> {
    let mut out = Vec::new();
    let mut cur = first;
    while !is_null(&cur) {
        out.push(cur);
        cur = next(cur);
    }
    out
}

impl Parsed {
    /// Functions (definitions and declarations) in module order.
    pub fn functions(&self) -> Vec<LLVMValueRef> {
        unsafe { chain(LLVMGetFirstFunction(self.module), |f| LLVMGetNextFunction(f), |f| f.is_null()) }
    }

    /// Global variables in module order, with their initializers.
    pub fn globals(&self) -> Vec<(LLVMValueRef, LLVMValueRef)> {
        let gs = unsafe { chain(LLVMGetFirstGlobal(self.module), |g| LLVMGetNextGlobal(g), |g| g.is_null()) };
        gs.into_iter().map(|g| (g, unsafe { LLVMGetInitializer(g) })).collect()
    }
}

/// A function's instructions in block order, and its local values by position.
#[derive(Default)]
pub struct Locals {
    pub insts: Vec<LLVMValueRef>,
    index: HashMap<LLVMValueRef, ROperand>,
}

pub fn locals(f: LLVMValueRef) -> Locals {
    let mut loc = Locals::default();
    unsafe {
        for i in 0..LLVMCountParams(f) {
            loc.index.insert(LLVMGetParam(f, i), ROperand::Arg(i));
        }
        for bb in chain(LLVMGetFirstBasicBlock(f), |b| LLVMGetNextBasicBlock(b), |b| b.is_null()) {
            for i in chain(LLVMGetFirstInstruction(bb), |i| LLVMGetNextInstruction(i), |i| i.is_null()) {
                loc.index.insert(i, ROperand::Inst(loc.insts.len() as u32));
                loc.insts.push(i);
            }
        }
    }
    loc
}

/// The operands of instruction `i` in the refmodel's order (blocks as
/// values), for pairing with the llvm-ir operands.
pub fn operands(i: LLVMValueRef) -> Vec<LLVMValueRef> {
    use LLVMOpcode::*;
    unsafe {
        let block = |b| LLVMBasicBlockAsValue(b);
        match LLVMGetInstructionOpcode(i) {
            LLVMCall => {
                let mut v = vec![LLVMGetCalledValue(i)];
                v.extend((0..LLVMGetNumArgOperands(i)).map(|k| LLVMGetOperand(i, k)));
                v
            }
            LLVMBr if LLVMIsConditional(i) != 0 => {
                vec![LLVMGetCondition(i), block(LLVMGetSuccessor(i, 0)), block(LLVMGetSuccessor(i, 1))]
            }
            LLVMBr => vec![block(LLVMGetSuccessor(i, 0))],
            LLVMPHI => (0..LLVMCountIncoming(i))
                .flat_map(|k| [LLVMGetIncomingValue(i, k), block(LLVMGetIncomingBlock(i, k))])
                .collect(),
            LLVMShuffleVector => vec![LLVMGetOperand(i, 0), LLVMGetOperand(i, 1)],
            _ => (0..LLVMGetNumOperands(i)).map(|k| LLVMGetOperand(i, k as u32)).collect(),
        }
    }
}

/// Operand `k` of a constant (aggregate element or constant-expression operand).
pub fn const_operand(c: LLVMValueRef, k: usize) -> LLVMValueRef {
    unsafe {
        if LLVMIsAConstantDataSequential(c).is_null() {
            LLVMGetOperand(c, k as u32)
        } else {
            LLVMGetElementAsConstant(c, k as u32)
        }
    }
}

const FLAG_WORDS: [&str; 11] =
    ["nuw", "nsw", "exact", "fast", "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"];

/// `nuw`/`nsw`/`exact` and fast-math flags of an instruction or constant
/// expression: the words printed right after its first `opcode` token.
pub fn flags(v: LLVMValueRef, opcode: &str) -> Vec<String> {
    let text = print_value(v);
    let mut toks = text.split_whitespace().skip_while(|t| *t != opcode);
    toks.next();
    toks.take_while(|t| FLAG_WORDS.contains(t)).map(str::to_string).collect()
}

/// The raw IEEE bits of an FP constant (NaN payloads and signalling NaNs kept).
pub fn fp_bits(c: LLVMValueRef) -> Result<u64, String> {
    unsafe {
        let t = LLVMTypeOf(c);
        let width = match LLVMGetTypeKind(t) {
            LLVMTypeKind::LLVMHalfTypeKind | LLVMTypeKind::LLVMBFloatTypeKind => 16,
            LLVMTypeKind::LLVMFloatTypeKind => 32,
            LLVMTypeKind::LLVMDoubleTypeKind => 64,
            _ => return Err(format!("unsupported FP constant `{}`", print_value(c))),
        };
        // Bitcast constant-folds to a ConstantInt holding the exact bits.
        let as_int = LLVMConstBitCast(c, LLVMIntTypeInContext(LLVMGetTypeContext(t), width));
        if LLVMIsAConstantInt(as_int).is_null() {
            return Err(format!("FP constant did not fold to bits: {}", print_value(c)));
        }
        Ok(LLVMConstIntGetZExtValue(as_int))
    }
}

/// The name of an identified struct type.
fn struct_name(t: LLVMTypeRef) -> Option<String> {
    unsafe {
        if LLVMGetTypeKind(t) != LLVMTypeKind::LLVMStructTypeKind || LLVMIsLiteralStruct(t) != 0 {
            return None;
        }
        let p = LLVMGetStructName(t);
        (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
    }
}

/// The name of a struct constant's type: llvm-ir's `Constant::Struct` leaves
/// it out (`name: None`).
pub fn const_struct_name(c: LLVMValueRef) -> Option<String> {
    struct_name(unsafe { LLVMTypeOf(c) })
}

/// A type in the refmodel syntax, from LLVM's printer with struct names
/// unquoted (`%"a b"` → `%a b`, `\XX` escapes decoded). Only for values
/// held by metadata; every other type comes from llvm-ir.
fn type_text(t: LLVMTypeRef) -> String {
    if let Some(name) = struct_name(t) {
        return format!("%{name}"); // printed alone, a named struct prints its definition
    }
    let s = unsafe { take_message(LLVMPrintTypeToString(t)) };
    let (b, mut out, mut quoted, mut k) = (s.as_bytes(), Vec::new(), false, 0);
    while k < b.len() {
        match b[k] {
            b'"' => quoted = !quoted,
            b'\\' if quoted && k + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[k + 1..k + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                if let Some(byte) = hex {
                    out.push(byte);
                    k += 3;
                    continue;
                }
                out.push(b'\\');
            }
            c => out.push(c),
        }
        k += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Parsed {
    /// All named metadata, in module order.
    pub fn named_metadata(&mut self) -> Result<Vec<RNamedMd>, String> {
        let none = Locals::default();
        let mut out = Vec::new();
        unsafe {
            let m = self.module;
            let mut nm = LLVMGetFirstNamedMetadata(m);
            while !nm.is_null() {
                let mut len = 0usize;
                let np = LLVMGetNamedMetadataName(nm, &mut len);
                let name = lossy(np, len);
                let cname = std::ffi::CString::new(std::slice::from_raw_parts(np as *const u8, len))
                    .map_err(|_| format!("named metadata name with NUL: {name}"))?;
                let n = LLVMGetNamedMetadataNumOperands(m, cname.as_ptr()) as usize;
                let mut ops = vec![std::ptr::null_mut(); n];
                LLVMGetNamedMetadataOperands(m, cname.as_ptr(), ops.as_mut_ptr());
                let mut rops = Vec::with_capacity(n);
                for &o in &ops {
                    rops.push(self.md(o, &none, 0, &mut Vec::new(), true)?.unwrap_or(RMd::Other("null".into())));
                }
                out.push(RNamedMd { name, ops: rops });
                nm = LLVMGetNextNamedMetadata(nm);
            }
        }
        Ok(out)
    }

    /// Metadata attachments of an instruction other than `!dbg`, by kind name.
    pub fn attachments(&mut self, i: LLVMValueRef, loc: &Locals) -> Result<Vec<(String, RMd)>, String> {
        let mut md = Vec::new();
        unsafe {
            let mut count = 0usize;
            let entries = LLVMInstructionGetAllMetadataOtherThanDebugLoc(i, &mut count);
            if entries.is_null() {
                return Ok(md);
            }
            for k in 0..count as u32 {
                let kind = LLVMValueMetadataEntriesGetKind(entries, k);
                let node = LLVMValueMetadataEntriesGetMetadata(entries, k);
                let name = match self.kinds.get(&kind) {
                    Some(n) => Ok(n.clone()),
                    None => self.discover_kind(kind, &print_value(i)),
                };
                let r = name.and_then(|name| {
                    let v = LLVMMetadataAsValue(self.ctx, node);
                    let r = self.md(v, loc, 0, &mut Vec::new(), true)?;
                    Ok((name, r.unwrap_or(RMd::Other("null".into()))))
                });
                match r {
                    Ok(x) => md.push(x),
                    Err(e) => {
                        LLVMDisposeValueMetadataEntries(entries);
                        return Err(e);
                    }
                }
            }
            LLVMDisposeValueMetadataEntries(entries);
        }
        Ok(md)
    }

    /// The C API has no kind-id → name lookup. The printed instruction names
    /// its attachments (`, !dx.precise !3`); a candidate word whose id
    /// (`LLVMGetMDKindIDInContext`) equals `kind` is that kind's name, since
    /// ids and names are in one-to-one correspondence.
    fn discover_kind(&mut self, kind: u32, text: &str) -> Result<String, String> {
        let b = text.as_bytes();
        let mut k = 0;
        while k < b.len() {
            if b[k] == b'!' {
                let s = k + 1;
                let mut e = s;
                while e < b.len() && (b[e].is_ascii_alphanumeric() || b"-$._".contains(&b[e])) {
                    e += 1;
                }
                if e > s && !b[s].is_ascii_digit() {
                    let cand = &text[s..e];
                    let id = unsafe {
                        LLVMGetMDKindIDInContext(self.ctx, cand.as_ptr() as *const c_char, cand.len() as u32)
                    };
                    if id == kind {
                        self.kinds.insert(kind, cand.to_string());
                        return Ok(cand.to_string());
                    }
                }
                k = e.max(k + 1);
            } else {
                k += 1;
            }
        }
        Err(format!("cannot name metadata kind {kind} in `{}`", text.trim()))
    }

    /// A `metadata` instruction operand.
    pub fn md_operand(&mut self, v: LLVMValueRef, loc: &Locals) -> Result<RMd, String> {
        Ok(self.md(v, loc, 0, &mut Vec::new(), false)?.unwrap_or(RMd::Other("null".into())))
    }

    /// Renders a metadata value: a `MetadataAsValue`, or a plain value (a
    /// node operand that is `ConstantAsMetadata` comes back unwrapped).
    /// `None` for a null node operand.
    ///
    /// `node_pos`: the position can only hold an MDNode (named metadata
    /// operand, attachment, operand of a node). Every `MetadataAsValue` the
    /// C API hands out goes through `MetadataAsValue::get`, which
    /// canonicalises a one-operand node `!{C}` with a constant `C` to `C`
    /// itself and `!{null}` to `!{}`; in a node position a bare constant is
    /// therefore the node `!{C}` and is rendered as such. (`!{null}` stays
    /// indistinguishable from `!{}`: the refmodel rule renders both as
    /// `Node([])`.)
    fn md(
        &mut self,
        v: LLVMValueRef,
        loc: &Locals,
        depth: usize,
        stack: &mut Vec<LLVMMetadataRef>,
        node_pos: bool,
    ) -> Result<Option<RMd>, String> {
        if v.is_null() {
            return Ok(None);
        }
        unsafe {
            if !matches!(LLVMGetValueKind(v), LLVMValueKind::LLVMMetadataAsValueValueKind) {
                return Ok(Some(RMd::Value(Box::new(md_value(v, loc)?))));
            }
            let md = LLVMValueAsMetadata(v);
            use LLVMMetadataKind::*;
            Ok(Some(match LLVMGetMetadataKind(md) {
                LLVMMDStringMetadataKind => {
                    let mut len = 0u32;
                    let p = LLVMGetMDString(v, &mut len);
                    RMd::String(lossy(p, len as usize))
                }
                LLVMConstantAsMetadataMetadataKind | LLVMLocalAsMetadataMetadataKind => {
                    let mut inner = [std::ptr::null_mut(); 1];
                    LLVMGetMDNodeOperands(v, inner.as_mut_ptr());
                    let value = RMd::Value(Box::new(md_value(inner[0], loc)?));
                    if !node_pos {
                        value
                    } else if depth >= MD_DEPTH_LIMIT {
                        RMd::Other("depth".into())
                    } else {
                        RMd::Node(vec![Some(value)])
                    }
                }
                LLVMMDTupleMetadataKind => {
                    if stack.contains(&md) {
                        RMd::Other("cycle".into())
                    } else if depth >= MD_DEPTH_LIMIT {
                        RMd::Other("depth".into())
                    } else {
                        let n = LLVMGetMDNodeNumOperands(v) as usize;
                        let mut ops = vec![std::ptr::null_mut(); n];
                        LLVMGetMDNodeOperands(v, ops.as_mut_ptr());
                        stack.push(md);
                        let mut out = Vec::with_capacity(n);
                        for &o in &ops {
                            out.push(self.md(o, loc, depth + 1, stack, true)?);
                        }
                        stack.pop();
                        RMd::Node(out)
                    }
                }
                other => {
                    let d = format!("{other:?}");
                    let d = d.strip_prefix("LLVM").unwrap_or(&d);
                    let d = d.strip_suffix("MetadataKind").unwrap_or(d);
                    RMd::Other(d.to_string())
                }
            }))
        }
    }
}

/// A value held by metadata (`ValueAsMetadata`): a function-local value or
/// a constant. llvm-ir never sees these values, so they are read here.
fn md_value(v: LLVMValueRef, loc: &Locals) -> Result<ROperand, String> {
    if let Some(op) = loc.index.get(&v) {
        return Ok(op.clone());
    }
    unsafe {
        if !LLVMIsAFunction(v).is_null() {
            return Ok(ROperand::Function(value_name(v)));
        }
        if !LLVMIsAGlobalVariable(v).is_null() || !LLVMIsAGlobalAlias(v).is_null() {
            return Ok(ROperand::Global(value_name(v)));
        }
        if LLVMIsAConstant(v).is_null() {
            return Err(format!("metadata holds a foreign value `{}`", print_value(v)));
        }
    }
    md_const(v).map(ROperand::Const)
}

/// A constant held by metadata (directly or inside another constant).
fn md_const(c: LLVMValueRef) -> Result<RConst, String> {
    use LLVMValueKind::*;
    unsafe {
        if !LLVMIsAFunction(c).is_null() {
            return Ok(RConst::Function(value_name(c)));
        }
        if !LLVMIsAGlobalVariable(c).is_null() || !LLVMIsAGlobalAlias(c).is_null() {
            return Ok(RConst::Global(value_name(c)));
        }
        let t = LLVMTypeOf(c);
        let ty = type_text(t);
        let elems = |n: usize| (0..n).map(|k| md_const(const_operand(c, k))).collect::<Result<Vec<_>, _>>();
        Ok(match LLVMGetValueKind(c) {
            LLVMConstantIntValueKind => {
                let bits = LLVMGetIntTypeWidth(t);
                if bits > 64 {
                    return Err(format!("integer constant wider than 64 bits: {ty}"));
                }
                let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
                RConst::Int { bits, value: LLVMConstIntGetZExtValue(c) & mask }
            }
            LLVMConstantFPValueKind => RConst::Float { ty, bits: fp_bits(c)? },
            LLVMConstantPointerNullValueKind => RConst::Null(ty),
            LLVMUndefValueValueKind | LLVMPoisonValueKind => RConst::Undef(ty),
            LLVMConstantAggregateZeroValueKind => RConst::AggregateZero(ty),
            LLVMConstantDataArrayValueKind => RConst::Aggregate { elems: elems(LLVMGetArrayLength(t) as usize)?, ty },
            LLVMConstantDataVectorValueKind => RConst::Aggregate { elems: elems(LLVMGetVectorSize(t) as usize)?, ty },
            LLVMConstantArrayValueKind | LLVMConstantStructValueKind | LLVMConstantVectorValueKind => {
                RConst::Aggregate { elems: elems(LLVMGetNumOperands(c) as usize)?, ty }
            }
            LLVMConstantExprValueKind => {
                // `<type> <opcode> [flags or predicate] (...)`.
                let text = print_value(c);
                let raw_ty = take_message(LLVMPrintTypeToString(t));
                let mut words = text.strip_prefix(&raw_ty).unwrap_or(&text).split_whitespace();
                let opcode = words.next().unwrap_or("").to_string();
                let mut extra: Vec<String> = words.take_while(|w| !w.starts_with('(')).map(str::to_string).collect();
                if opcode == "icmp" || opcode == "fcmp" {
                    extra = extra.into_iter().map(|p| format!("pred={p}")).collect();
                }
                if opcode == "extractvalue" || opcode == "insertvalue" {
                    let n = LLVMGetNumIndices(c) as usize;
                    let idx = std::slice::from_raw_parts(LLVMGetIndices(c), n);
                    extra.push(format!("idx={}", idx.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",")));
                }
                RConst::Expr { opcode, ty, operands: elems(LLVMGetNumOperands(c) as usize)?, extra }
            }
            _ => return Err(format!("unsupported constant in metadata `{}`", print_value(c))),
        })
    }
}

/// Assembles LLVM 14 textual IR and returns it as bitcode (for self-tests of
/// the renderer on constructs the corpus lacks).
pub fn assemble(ir: &str) -> Result<Vec<u8>, String> {
    use llvm_sys::bit_writer::LLVMWriteBitcodeToMemoryBuffer;
    use llvm_sys::ir_reader::LLVMParseIRInContext;
    unsafe {
        let ctx = LLVMContextCreate();
        // LLVMParseIRInContext takes ownership of the buffer.
        let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir.as_ptr() as *const c_char, ir.len(), c"ir".as_ptr());
        let mut module = std::ptr::null_mut();
        let mut msg = std::ptr::null_mut();
        let r = if LLVMParseIRInContext(ctx, buf, &mut module, &mut msg) != 0 {
            Err(take_message(msg))
        } else {
            let out = LLVMWriteBitcodeToMemoryBuffer(module);
            let bytes =
                std::slice::from_raw_parts(LLVMGetBufferStart(out) as *const u8, LLVMGetBufferSize(out)).to_vec();
            LLVMDisposeMemoryBuffer(out);
            LLVMDisposeModule(module);
            Ok(bytes)
        };
        LLVMContextDispose(ctx);
        r
    }
}

/// Reads `bitcode` with LLVM 14 and runs LLVM's module verifier on it.
pub fn verify(bitcode: &[u8]) -> Result<(), String> {
    use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
    unsafe {
        let ctx = LLVMContextCreate();
        let mut diags: Vec<(bool, String)> = Vec::new();
        LLVMContextSetDiagnosticHandler(ctx, Some(on_diagnostic), &mut diags as *mut _ as *mut c_void);
        let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
            bitcode.as_ptr() as *const c_char,
            bitcode.len(),
            c"dxil".as_ptr(),
        );
        let mut module: LLVMModuleRef = std::ptr::null_mut();
        let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut module) != 0;
        LLVMDisposeMemoryBuffer(buf);
        let r = if failed || module.is_null() {
            Err("LLVM 14 could not read the bitcode".to_string())
        } else {
            let mut msg = std::ptr::null_mut();
            let bad = LLVMVerifyModule(module, LLVMVerifierFailureAction::LLVMReturnStatusAction, &mut msg) != 0;
            let text = take_message(msg);
            LLVMDisposeModule(module);
            if bad {
                Err(text)
            } else {
                Ok(())
            }
        };
        LLVMContextDispose(ctx);
        r
    }
}
