//! LLVM 14 reference reader for the differential test: parses LLVM bitcode
//! with LLVM itself (through `llvm-sys`, C API) and renders it into the
//! neutral [`RModule`] following the rules in `dxjit_conformance::refmodel`.
//!
//! Everything is read through the C API rather than `llvm-ir`: with LLVM 14
//! `llvm-ir` reports `nsw`/`nuw`/`exact` as always false, has no fast-math
//! flags and leaves metadata operands opaque, and aligning two readers over
//! one module would be fragile. Where the LLVM 14 C API itself has no getter
//! (`nsw`/`nuw`/`exact`, fast-math flags, a metadata kind's name, the sync
//! scope of atomic load/store/fence) the instruction is printed with
//! `LLVMPrintValueToString` and the words are taken from the text.

#![allow(dead_code)]

use dxjit_conformance::refmodel::{
    RBlock, RConst, RFunction, RGlobal, RInst, RMd, RModule, RNamedMd, ROperand, MD_DEPTH_LIMIT,
};
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::core::*;
use llvm_sys::debuginfo::{LLVMGetMetadataKind, LLVMMetadataKind};
use llvm_sys::prelude::*;
use llvm_sys::{
    LLVMAtomicOrdering, LLVMAtomicRMWBinOp, LLVMDiagnosticSeverity, LLVMOpcode, LLVMTypeKind, LLVMValueKind,
};
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};

/// Reads `bitcode` with LLVM 14 and renders it.
pub fn read_reference(bitcode: &[u8]) -> Result<RModule, String> {
    read_reference_diag(bitcode).map(|(m, _)| m)
}

/// Like [`read_reference`], also returning LLVM's non-error diagnostics
/// (warnings such as dropped invalid debug info).
pub fn read_reference_diag(bitcode: &[u8]) -> Result<(RModule, Vec<String>), String> {
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
        let result = if failed || module.is_null() {
            let errs: Vec<&str> = diags.iter().filter(|d| d.0).map(|d| d.1.as_str()).collect();
            Err(format!("LLVM 14 could not read the bitcode: {}", errs.join("; ")))
        } else {
            let r = Reader { ctx, kinds: HashMap::new() }.module(module);
            LLVMDisposeModule(module);
            r
        };
        LLVMContextDispose(ctx);
        let warnings = diags.into_iter().filter(|d| !d.0).map(|d| d.1).collect();
        result.map(|m| (m, warnings))
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

unsafe fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    let p = LLVMGetValueName2(v, &mut len);
    lossy(p, len)
}

unsafe fn print_value(v: LLVMValueRef) -> String {
    take_message(LLVMPrintValueToString(v))
}

/// Type string in the refmodel syntax (LLVM typed-pointer syntax, names unquoted).
pub unsafe fn type_str(t: LLVMTypeRef) -> String {
    use LLVMTypeKind::*;
    match LLVMGetTypeKind(t) {
        LLVMVoidTypeKind => "void".into(),
        LLVMHalfTypeKind => "half".into(),
        LLVMBFloatTypeKind => "bfloat".into(),
        LLVMFloatTypeKind => "float".into(),
        LLVMDoubleTypeKind => "double".into(),
        LLVMX86_FP80TypeKind => "x86_fp80".into(),
        LLVMFP128TypeKind => "fp128".into(),
        LLVMPPC_FP128TypeKind => "ppc_fp128".into(),
        LLVMLabelTypeKind => "label".into(),
        LLVMMetadataTypeKind => "metadata".into(),
        LLVMX86_MMXTypeKind => "x86_mmx".into(),
        LLVMX86_AMXTypeKind => "x86_amx".into(),
        LLVMTokenTypeKind => "token".into(),
        LLVMIntegerTypeKind => format!("i{}", LLVMGetIntTypeWidth(t)),
        LLVMFunctionTypeKind => {
            let n = LLVMCountParamTypes(t) as usize;
            let mut ps = vec![std::ptr::null_mut(); n];
            LLVMGetParamTypes(t, ps.as_mut_ptr());
            let mut parts: Vec<String> = ps.iter().map(|&p| type_str(p)).collect();
            if LLVMIsFunctionVarArg(t) != 0 {
                parts.push("...".into());
            }
            format!("{} ({})", type_str(LLVMGetReturnType(t)), parts.join(", "))
        }
        LLVMStructTypeKind => {
            if LLVMIsLiteralStruct(t) == 0 {
                let p = LLVMGetStructName(t);
                if !p.is_null() {
                    return format!("%{}", CStr::from_ptr(p).to_string_lossy());
                }
            }
            let n = LLVMCountStructElementTypes(t) as usize;
            let mut es = vec![std::ptr::null_mut(); n];
            LLVMGetStructElementTypes(t, es.as_mut_ptr());
            let body: Vec<String> = es.iter().map(|&e| type_str(e)).collect();
            let packed = LLVMIsPackedStruct(t) != 0;
            match (packed, body.is_empty()) {
                (false, true) => "{}".into(),
                (true, true) => "<{}>".into(),
                (false, false) => format!("{{ {} }}", body.join(", ")),
                (true, false) => format!("<{{ {} }}>", body.join(", ")),
            }
        }
        LLVMArrayTypeKind => format!("[{} x {}]", LLVMGetArrayLength(t), type_str(LLVMGetElementType(t))),
        LLVMVectorTypeKind => format!("<{} x {}>", LLVMGetVectorSize(t), type_str(LLVMGetElementType(t))),
        LLVMScalableVectorTypeKind => {
            format!("<vscale x {} x {}>", LLVMGetVectorSize(t), type_str(LLVMGetElementType(t)))
        }
        LLVMPointerTypeKind => {
            let elem = LLVMGetElementType(t);
            let as_ = LLVMGetPointerAddressSpace(t);
            let base = if elem.is_null() { "ptr".to_string() } else { type_str(elem) };
            if as_ == 0 {
                format!("{base}*")
            } else {
                format!("{base} addrspace({as_})*")
            }
        }
    }
}

pub fn opcode_name(op: LLVMOpcode) -> &'static str {
    use LLVMOpcode::*;
    match op {
        LLVMRet => "ret",
        LLVMBr => "br",
        LLVMSwitch => "switch",
        LLVMIndirectBr => "indirectbr",
        LLVMInvoke => "invoke",
        LLVMUnreachable => "unreachable",
        LLVMCallBr => "callbr",
        LLVMFNeg => "fneg",
        LLVMAdd => "add",
        LLVMFAdd => "fadd",
        LLVMSub => "sub",
        LLVMFSub => "fsub",
        LLVMMul => "mul",
        LLVMFMul => "fmul",
        LLVMUDiv => "udiv",
        LLVMSDiv => "sdiv",
        LLVMFDiv => "fdiv",
        LLVMURem => "urem",
        LLVMSRem => "srem",
        LLVMFRem => "frem",
        LLVMShl => "shl",
        LLVMLShr => "lshr",
        LLVMAShr => "ashr",
        LLVMAnd => "and",
        LLVMOr => "or",
        LLVMXor => "xor",
        LLVMAlloca => "alloca",
        LLVMLoad => "load",
        LLVMStore => "store",
        LLVMGetElementPtr => "getelementptr",
        LLVMTrunc => "trunc",
        LLVMZExt => "zext",
        LLVMSExt => "sext",
        LLVMFPToUI => "fptoui",
        LLVMFPToSI => "fptosi",
        LLVMUIToFP => "uitofp",
        LLVMSIToFP => "sitofp",
        LLVMFPTrunc => "fptrunc",
        LLVMFPExt => "fpext",
        LLVMPtrToInt => "ptrtoint",
        LLVMIntToPtr => "inttoptr",
        LLVMBitCast => "bitcast",
        LLVMAddrSpaceCast => "addrspacecast",
        LLVMICmp => "icmp",
        LLVMFCmp => "fcmp",
        LLVMPHI => "phi",
        LLVMCall => "call",
        LLVMSelect => "select",
        LLVMUserOp1 => "userop1",
        LLVMUserOp2 => "userop2",
        LLVMVAArg => "va_arg",
        LLVMExtractElement => "extractelement",
        LLVMInsertElement => "insertelement",
        LLVMShuffleVector => "shufflevector",
        LLVMExtractValue => "extractvalue",
        LLVMInsertValue => "insertvalue",
        LLVMFreeze => "freeze",
        LLVMFence => "fence",
        LLVMAtomicCmpXchg => "cmpxchg",
        LLVMAtomicRMW => "atomicrmw",
        LLVMResume => "resume",
        LLVMLandingPad => "landingpad",
        LLVMCleanupRet => "cleanupret",
        LLVMCatchRet => "catchret",
        LLVMCatchPad => "catchpad",
        LLVMCleanupPad => "cleanuppad",
        LLVMCatchSwitch => "catchswitch",
    }
}

/// `CmpInst::Predicate` values (FCMP_* 0..=15, ICMP_* 32..=41) to LLVM names.
fn predicate_name(p: i64) -> String {
    const F: [&str; 16] = [
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule", "une",
        "true",
    ];
    const I: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
    let n = match p {
        0..=15 => F[p as usize],
        32..=41 => I[(p - 32) as usize],
        _ => return format!("pred=?{p}"),
    };
    format!("pred={n}")
}

fn ordering_name(o: LLVMAtomicOrdering) -> Option<&'static str> {
    use LLVMAtomicOrdering::*;
    Some(match o {
        LLVMAtomicOrderingNotAtomic => return None,
        LLVMAtomicOrderingUnordered => "unordered",
        LLVMAtomicOrderingMonotonic => "monotonic",
        LLVMAtomicOrderingAcquire => "acquire",
        LLVMAtomicOrderingRelease => "release",
        LLVMAtomicOrderingAcquireRelease => "acq_rel",
        LLVMAtomicOrderingSequentiallyConsistent => "seq_cst",
    })
}

fn rmw_name(o: LLVMAtomicRMWBinOp) -> &'static str {
    use LLVMAtomicRMWBinOp::*;
    match o {
        LLVMAtomicRMWBinOpXchg => "xchg",
        LLVMAtomicRMWBinOpAdd => "add",
        LLVMAtomicRMWBinOpSub => "sub",
        LLVMAtomicRMWBinOpAnd => "and",
        LLVMAtomicRMWBinOpNand => "nand",
        LLVMAtomicRMWBinOpOr => "or",
        LLVMAtomicRMWBinOpXor => "xor",
        LLVMAtomicRMWBinOpMax => "max",
        LLVMAtomicRMWBinOpMin => "min",
        LLVMAtomicRMWBinOpUMax => "umax",
        LLVMAtomicRMWBinOpUMin => "umin",
        LLVMAtomicRMWBinOpFAdd => "fadd",
        LLVMAtomicRMWBinOpFSub => "fsub",
    }
}

const FLAG_WORDS: [&str; 11] =
    ["nuw", "nsw", "exact", "fast", "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"];

/// The flag words (`nuw nsw exact` and fast-math flags) printed right after
/// the first `opcode` token of `text`.
fn flags_after(text: &str, opcode: &str) -> Vec<String> {
    let mut toks = text.split_whitespace().skip_while(|t| *t != opcode);
    toks.next();
    toks.take_while(|t| FLAG_WORDS.contains(t)).map(str::to_string).collect()
}

fn can_have_flags(op: LLVMOpcode) -> bool {
    use LLVMOpcode::*;
    matches!(
        op,
        LLVMAdd
            | LLVMSub
            | LLVMMul
            | LLVMShl
            | LLVMUDiv
            | LLVMSDiv
            | LLVMLShr
            | LLVMAShr
            | LLVMFAdd
            | LLVMFSub
            | LLVMFMul
            | LLVMFDiv
            | LLVMFRem
            | LLVMFNeg
            | LLVMFCmp
            | LLVMCall
            | LLVMSelect
            | LLVMPHI
    )
}

unsafe fn indices(v: LLVMValueRef) -> String {
    let n = LLVMGetNumIndices(v) as usize;
    let p = LLVMGetIndices(v);
    let idx: Vec<String> = if n == 0 || p.is_null() {
        vec![]
    } else {
        std::slice::from_raw_parts(p, n).iter().map(|i| i.to_string()).collect()
    };
    format!("idx={}", idx.join(","))
}

/// Per-function value numbering.
#[derive(Default)]
struct Locals {
    args: HashMap<LLVMValueRef, u32>,
    insts: HashMap<LLVMValueRef, u32>,
    blocks: HashMap<LLVMBasicBlockRef, u32>,
}

struct Reader {
    ctx: LLVMContextRef,
    /// Metadata kind id → name, discovered from printed instructions.
    kinds: HashMap<u32, String>,
}

impl Reader {
    unsafe fn module(mut self, m: LLVMModuleRef) -> Result<RModule, String> {
        let none = Locals::default();
        let mut out = RModule::default();

        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            let init = LLVMGetInitializer(g);
            out.globals.push(RGlobal {
                name: value_name(g),
                ty: type_str(LLVMGlobalGetValueType(g)),
                addr_space: LLVMGetPointerAddressSpace(LLVMTypeOf(g)),
                is_const: LLVMIsGlobalConstant(g) != 0,
                init: if init.is_null() { None } else { Some(self.konst(init)?) },
            });
            g = LLVMGetNextGlobal(g);
        }

        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            out.functions.push(self.function(f)?);
            f = LLVMGetNextFunction(f);
        }

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
            out.named_metadata.push(RNamedMd { name, ops: rops });
            nm = LLVMGetNextNamedMetadata(nm);
        }

        out.canonicalize();
        Ok(out)
    }

    unsafe fn function(&mut self, f: LLVMValueRef) -> Result<RFunction, String> {
        let name = value_name(f);
        let mut loc = Locals::default();
        for i in 0..LLVMCountParams(f) {
            loc.args.insert(LLVMGetParam(f, i), i);
        }
        let mut bbs = Vec::new();
        let mut bb = LLVMGetFirstBasicBlock(f);
        let mut n = 0u32;
        while !bb.is_null() {
            loc.blocks.insert(bb, bbs.len() as u32);
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                loc.insts.insert(i, n);
                n += 1;
                i = LLVMGetNextInstruction(i);
            }
            bbs.push(bb);
            bb = LLVMGetNextBasicBlock(bb);
        }
        let mut blocks = Vec::with_capacity(bbs.len());
        for &bb in &bbs {
            let mut insts = Vec::new();
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                insts.push(self.inst(i, &loc).map_err(|e| format!("@{name}: {e}"))?);
                i = LLVMGetNextInstruction(i);
            }
            blocks.push(RBlock { insts });
        }
        Ok(RFunction {
            name,
            ty: type_str(LLVMGlobalGetValueType(f)),
            is_declaration: LLVMIsDeclaration(f) != 0,
            blocks,
        })
    }

    unsafe fn block_ref(&self, bb: LLVMBasicBlockRef, loc: &Locals) -> Result<ROperand, String> {
        loc.blocks.get(&bb).map(|&i| ROperand::Block(i)).ok_or_else(|| "reference to a foreign block".into())
    }

    unsafe fn inst(&mut self, i: LLVMValueRef, loc: &Locals) -> Result<RInst, String> {
        use LLVMOpcode::*;
        let op = LLVMGetInstructionOpcode(i);
        let opcode = opcode_name(op);
        let mut operands = Vec::new();
        let mut extra: Vec<String> = Vec::new();
        let mut text: Option<String> = None;
        let all_ops = |s: &mut Self, operands: &mut Vec<ROperand>| -> Result<(), String> {
            for k in 0..LLVMGetNumOperands(i) {
                operands.push(s.operand(LLVMGetOperand(i, k as u32), loc)?);
            }
            Ok(())
        };
        match op {
            LLVMCall => {
                operands.push(self.operand(LLVMGetCalledValue(i), loc)?);
                for k in 0..LLVMGetNumArgOperands(i) {
                    operands.push(self.operand(LLVMGetOperand(i, k), loc)?);
                }
            }
            LLVMBr => {
                if LLVMIsConditional(i) != 0 {
                    operands.push(self.operand(LLVMGetCondition(i), loc)?);
                    operands.push(self.block_ref(LLVMGetSuccessor(i, 0), loc)?);
                    operands.push(self.block_ref(LLVMGetSuccessor(i, 1), loc)?);
                } else {
                    operands.push(self.block_ref(LLVMGetSuccessor(i, 0), loc)?);
                }
            }
            LLVMPHI => {
                for k in 0..LLVMCountIncoming(i) {
                    operands.push(self.operand(LLVMGetIncomingValue(i, k), loc)?);
                    operands.push(self.block_ref(LLVMGetIncomingBlock(i, k), loc)?);
                }
            }
            LLVMShuffleVector => {
                operands.push(self.operand(LLVMGetOperand(i, 0), loc)?);
                operands.push(self.operand(LLVMGetOperand(i, 1), loc)?);
                let undef = LLVMGetUndefMaskElem();
                let mask: Vec<String> = (0..LLVMGetNumMaskElements(i))
                    .map(|k| {
                        let m = LLVMGetMaskValue(i, k);
                        if m == undef {
                            "-1".to_string()
                        } else {
                            m.to_string()
                        }
                    })
                    .collect();
                extra.push(format!("mask={}", mask.join(",")));
            }
            _ => all_ops(self, &mut operands)?,
        }
        match op {
            LLVMICmp => extra.push(predicate_name(LLVMGetICmpPredicate(i) as i64)),
            LLVMFCmp => extra.push(predicate_name(LLVMGetFCmpPredicate(i) as i64)),
            LLVMLoad | LLVMStore => {
                extra.push(format!("align={}", LLVMGetAlignment(i)));
                if LLVMGetVolatile(i) != 0 {
                    extra.push("volatile".into());
                }
                if let Some(o) = ordering_name(LLVMGetOrdering(i)) {
                    extra.push(format!("ordering={o}"));
                    let t = text.get_or_insert_with(|| print_value(i));
                    if t.contains("syncscope(\"singlethread\")") {
                        extra.push("syncscope=singlethread".into());
                    }
                }
            }
            LLVMAlloca => extra.push(format!("align={}", LLVMGetAlignment(i))),
            LLVMGetElementPtr if LLVMIsInBounds(i) != 0 => extra.push("inbounds".into()),
            LLVMExtractValue | LLVMInsertValue => extra.push(indices(i)),
            LLVMAtomicRMW => {
                extra.push(format!("rmw={}", rmw_name(LLVMGetAtomicRMWBinOp(i))));
                if let Some(o) = ordering_name(LLVMGetOrdering(i)) {
                    extra.push(format!("ordering={o}"));
                }
                if LLVMGetVolatile(i) != 0 {
                    extra.push("volatile".into());
                }
                if LLVMIsAtomicSingleThread(i) != 0 {
                    extra.push("syncscope=singlethread".into());
                }
            }
            LLVMAtomicCmpXchg => {
                if let Some(o) = ordering_name(LLVMGetCmpXchgSuccessOrdering(i)) {
                    extra.push(format!("success={o}"));
                }
                if let Some(o) = ordering_name(LLVMGetCmpXchgFailureOrdering(i)) {
                    extra.push(format!("failure={o}"));
                }
                if LLVMGetVolatile(i) != 0 {
                    extra.push("volatile".into());
                }
                if LLVMGetWeak(i) != 0 {
                    extra.push("weak".into());
                }
                if LLVMIsAtomicSingleThread(i) != 0 {
                    extra.push("syncscope=singlethread".into());
                }
            }
            LLVMFence => {
                if let Some(o) = ordering_name(LLVMGetOrdering(i)) {
                    extra.push(format!("ordering={o}"));
                }
                let t = text.get_or_insert_with(|| print_value(i));
                if t.contains("syncscope(\"singlethread\")") {
                    extra.push("syncscope=singlethread".into());
                }
            }
            _ => {}
        }
        if can_have_flags(op) {
            let t = text.get_or_insert_with(|| print_value(i));
            extra.extend(flags_after(t, opcode));
        }

        // Metadata attachments other than !dbg.
        let mut md = Vec::new();
        let mut count = 0usize;
        let entries = LLVMInstructionGetAllMetadataOtherThanDebugLoc(i, &mut count);
        if !entries.is_null() {
            for k in 0..count as u32 {
                let kind = LLVMValueMetadataEntriesGetKind(entries, k);
                let node = LLVMValueMetadataEntriesGetMetadata(entries, k);
                let name = match self.kinds.get(&kind) {
                    Some(n) => n.clone(),
                    None => {
                        let t = text.get_or_insert_with(|| print_value(i));
                        self.discover_kind(kind, t)?
                    }
                };
                let v = LLVMMetadataAsValue(self.ctx, node);
                let r = self.md(v, loc, 0, &mut Vec::new(), true)?.unwrap_or(RMd::Other("null".into()));
                md.push((name, r));
            }
            LLVMDisposeValueMetadataEntries(entries);
        }

        Ok(RInst { opcode: opcode.to_string(), ty: type_str(LLVMTypeOf(i)), operands, extra, md })
    }

    /// The C API has no kind-id → name lookup. The printed instruction names
    /// its attachments (`, !dx.precise !3`); a candidate word whose id
    /// (`LLVMGetMDKindIDInContext`) equals `kind` is that kind's name, since
    /// ids and names are in one-to-one correspondence.
    unsafe fn discover_kind(&mut self, kind: u32, text: &str) -> Result<String, String> {
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
                    let id = LLVMGetMDKindIDInContext(self.ctx, cand.as_ptr() as *const c_char, cand.len() as u32);
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

    unsafe fn operand(&mut self, v: LLVMValueRef, loc: &Locals) -> Result<ROperand, String> {
        if v.is_null() {
            return Err("null operand".into());
        }
        if LLVMValueIsBasicBlock(v) != 0 {
            return self.block_ref(LLVMValueAsBasicBlock(v), loc);
        }
        if !LLVMIsAArgument(v).is_null() {
            return loc.args.get(&v).map(|&i| ROperand::Arg(i)).ok_or_else(|| "foreign argument".into());
        }
        if !LLVMIsAInstruction(v).is_null() {
            return loc.insts.get(&v).map(|&i| ROperand::Inst(i)).ok_or_else(|| "foreign instruction".into());
        }
        if !LLVMIsAFunction(v).is_null() {
            return Ok(ROperand::Function(value_name(v)));
        }
        if !LLVMIsAGlobalVariable(v).is_null() || !LLVMIsAGlobalAlias(v).is_null() {
            return Ok(ROperand::Global(value_name(v)));
        }
        if matches!(LLVMGetValueKind(v), LLVMValueKind::LLVMMetadataAsValueValueKind) {
            return Ok(ROperand::Metadata(
                self.md(v, loc, 0, &mut Vec::new(), false)?.unwrap_or(RMd::Other("null".into())),
            ));
        }
        if !LLVMIsAConstant(v).is_null() {
            return Ok(ROperand::Const(self.konst(v)?));
        }
        Err(format!("unsupported operand `{}`", print_value(v)))
    }

    unsafe fn konst(&mut self, c: LLVMValueRef) -> Result<RConst, String> {
        if !LLVMIsAFunction(c).is_null() {
            return Ok(RConst::Function(value_name(c)));
        }
        if !LLVMIsAGlobalVariable(c).is_null() || !LLVMIsAGlobalAlias(c).is_null() {
            return Ok(RConst::Global(value_name(c)));
        }
        let t = LLVMTypeOf(c);
        let ty = type_str(t);
        if !LLVMIsAConstantInt(c).is_null() {
            let bits = LLVMGetIntTypeWidth(t);
            if bits > 64 {
                return Err(format!("integer constant wider than 64 bits: {ty}"));
            }
            let v = LLVMConstIntGetZExtValue(c);
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            return Ok(RConst::Int { bits, value: v & mask });
        }
        if !LLVMIsAConstantFP(c).is_null() {
            let width = match LLVMGetTypeKind(t) {
                LLVMTypeKind::LLVMHalfTypeKind | LLVMTypeKind::LLVMBFloatTypeKind => 16,
                LLVMTypeKind::LLVMFloatTypeKind => 32,
                LLVMTypeKind::LLVMDoubleTypeKind => 64,
                _ => return Err(format!("unsupported FP constant type {ty}")),
            };
            // Bitcast constant-folds to a ConstantInt holding the exact bits
            // (NaN payloads and signalling NaNs included).
            let as_int = LLVMConstBitCast(c, LLVMIntTypeInContext(self.ctx, width));
            if LLVMIsAConstantInt(as_int).is_null() {
                return Err(format!("FP constant did not fold to bits: {}", print_value(c)));
            }
            return Ok(RConst::Float { ty, bits: LLVMConstIntGetZExtValue(as_int) });
        }
        if !LLVMIsAConstantPointerNull(c).is_null() {
            return Ok(RConst::Null(ty));
        }
        if !LLVMIsAUndefValue(c).is_null() {
            return Ok(RConst::Undef(ty));
        }
        if !LLVMIsAConstantAggregateZero(c).is_null() {
            return Ok(RConst::AggregateZero(ty));
        }
        if !LLVMIsAConstantDataSequential(c).is_null() {
            let n = match LLVMGetTypeKind(t) {
                LLVMTypeKind::LLVMArrayTypeKind => LLVMGetArrayLength(t),
                _ => LLVMGetVectorSize(t),
            };
            let mut elems = Vec::with_capacity(n as usize);
            for k in 0..n {
                elems.push(self.konst(LLVMGetElementAsConstant(c, k))?);
            }
            return Ok(RConst::Aggregate { ty, elems });
        }
        if !LLVMIsAConstantArray(c).is_null()
            || !LLVMIsAConstantStruct(c).is_null()
            || !LLVMIsAConstantVector(c).is_null()
        {
            let mut elems = Vec::new();
            for k in 0..LLVMGetNumOperands(c) {
                elems.push(self.konst(LLVMGetOperand(c, k as u32))?);
            }
            return Ok(RConst::Aggregate { ty, elems });
        }
        if !LLVMIsAConstantExpr(c).is_null() {
            use LLVMOpcode::*;
            let op = LLVMGetConstOpcode(c);
            let opcode = opcode_name(op);
            let mut operands = Vec::new();
            for k in 0..LLVMGetNumOperands(c) {
                operands.push(self.konst(LLVMGetOperand(c, k as u32))?);
            }
            let mut extra = Vec::new();
            match op {
                LLVMICmp => extra.push(predicate_name(LLVMGetICmpPredicate(c) as i64)),
                LLVMFCmp => extra.push(predicate_name(LLVMGetFCmpPredicate(c) as i64)),
                LLVMGetElementPtr if LLVMIsInBounds(c) != 0 => extra.push("inbounds".into()),
                LLVMExtractValue | LLVMInsertValue => extra.push(indices(c)),
                LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMUDiv | LLVMSDiv | LLVMLShr | LLVMAShr => {
                    extra.extend(flags_after(&print_value(c), opcode));
                }
                _ => {}
            }
            extra.sort();
            return Ok(RConst::Expr { opcode: opcode.to_string(), ty, operands, extra });
        }
        Err(format!("unsupported constant `{}`", print_value(c)))
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
    unsafe fn md(
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
        if !matches!(LLVMGetValueKind(v), LLVMValueKind::LLVMMetadataAsValueValueKind) {
            return Ok(Some(RMd::Value(Box::new(self.operand(v, loc)?))));
        }
        let md = LLVMValueAsMetadata(v);
        use LLVMMetadataKind::*;
        let kind = LLVMGetMetadataKind(md);
        Ok(Some(match kind {
            LLVMMDStringMetadataKind => {
                let mut len = 0u32;
                let p = LLVMGetMDString(v, &mut len);
                RMd::String(lossy(p, len as usize))
            }
            LLVMConstantAsMetadataMetadataKind | LLVMLocalAsMetadataMetadataKind => {
                let mut inner = [std::ptr::null_mut(); 1];
                LLVMGetMDNodeOperands(v, inner.as_mut_ptr());
                let value = RMd::Value(Box::new(self.operand(inner[0], loc)?));
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

/// Assembles LLVM 14 textual IR and returns it as bitcode (for self-tests of
/// the renderer on constructs the corpus lacks).
pub fn assemble(ir: &str) -> Result<Vec<u8>, String> {
    use llvm_sys::bit_writer::LLVMWriteBitcodeToMemoryBuffer;
    use llvm_sys::ir_reader::LLVMParseIRInContext;
    unsafe {
        let ctx = LLVMContextCreate();
        let mut diags: Vec<(bool, String)> = Vec::new();
        LLVMContextSetDiagnosticHandler(ctx, Some(on_diagnostic), &mut diags as *mut _ as *mut c_void);
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
