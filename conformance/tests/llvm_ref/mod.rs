//! LLVM 14 reference reader for the differential test: LLVM reads the
//! bitcode, `llvm-ir` turns it into a typed Rust module, and this file
//! renders that module into the neutral [`RModule`] following the rules in
//! `dxjit_conformance::refmodel`.
//!
//! Types, globals, functions, blocks, instructions (opcodes, operands,
//! result types, predicates, alignment, atomics, GEP and aggregate indices,
//! shuffle masks, phi incoming, switch cases, call targets) and constants
//! come from `llvm_ir::Module`. What llvm-ir 0.11 lacks for LLVM 14 comes
//! from the C API in [`sys`], which walks the same module in step: metadata,
//! the `nuw`/`nsw`/`exact` and fast-math flags, exact FP constant bits and
//! the function order (see LLVM.md).

#![allow(dead_code)]

mod sys;

#[allow(unused_imports)]
pub use sys::{assemble, verify};

use dxjit_conformance::refmodel::{RBlock, RConst, RFunction, RGlobal, RInst, RModule, ROperand};
use llvm_ir::constant::Float;
use llvm_ir::instruction::{Atomicity, MemoryOrdering, SynchronizationScope};
use llvm_ir::types::{FPType, NamedStructDef};
use llvm_ir::{Constant, ConstantRef, Instruction, Name, Operand, Terminator, Type, TypeRef};
use llvm_sys::prelude::LLVMValueRef;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Reads `bitcode` with LLVM 14 and renders it.
pub fn read_reference(bitcode: &[u8]) -> Result<RModule, String> {
    read_reference_diag(bitcode).map(|(m, _)| m)
}

/// Like [`read_reference`], also returning LLVM's non-error diagnostics
/// (warnings such as dropped invalid debug info).
pub fn read_reference_diag(bitcode: &[u8]) -> Result<(RModule, Vec<String>), String> {
    // The C API parse comes first: it has a diagnostic handler, so bad
    // bitcode is an error here rather than an exit in llvm-ir's context.
    let (mut sys, warnings) = sys::parse(bitcode)?;
    let ir = llvm_ir_module(bitcode)?;
    let m = Reader { ir: &ir, sys: &mut sys }.module()?;
    Ok((m, warnings))
}

/// `llvm_ir::Module` reads bitcode from a file only.
fn llvm_ir_module(bitcode: &[u8]) -> Result<llvm_ir::Module, String> {
    static SEQ: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "dxjit-llvm-ref-{}-{}.bc",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, bitcode).map_err(|e| format!("{}: {e}", path.display()))?;
    // llvm-ir panics on what it does not model; make that an error of this module.
    let r = std::panic::catch_unwind(|| llvm_ir::Module::from_bc_path(&path));
    let _ = std::fs::remove_file(&path);
    match r {
        Ok(m) => m.map_err(|e| format!("llvm-ir: {e}")),
        Err(p) => Err(format!(
            "llvm-ir panicked: {}",
            p.downcast_ref::<String>().map(String::as_str).or(p.downcast_ref::<&str>().copied()).unwrap_or("?")
        )),
    }
}

/// Type string in the refmodel syntax (LLVM typed-pointer syntax, names unquoted).
pub fn type_str(t: &Type) -> String {
    let list = |ts: &[TypeRef]| ts.iter().map(|t| type_str(t)).collect::<Vec<_>>().join(", ");
    match t {
        Type::VoidType => "void".into(),
        Type::IntegerType { bits } => format!("i{bits}"),
        Type::PointerType { pointee_type, addr_space: 0 } => format!("{}*", type_str(pointee_type)),
        Type::PointerType { pointee_type, addr_space } => {
            format!("{} addrspace({addr_space})*", type_str(pointee_type))
        }
        Type::FPType(f) => match f {
            FPType::Half => "half",
            FPType::BFloat => "bfloat",
            FPType::Single => "float",
            FPType::Double => "double",
            FPType::FP128 => "fp128",
            FPType::X86_FP80 => "x86_fp80",
            FPType::PPC_FP128 => "ppc_fp128",
        }
        .into(),
        Type::FuncType { result_type, param_types, is_var_arg } => {
            let mut ps = list(param_types);
            if *is_var_arg {
                ps = if ps.is_empty() { "...".into() } else { format!("{ps}, ...") };
            }
            format!("{} ({ps})", type_str(result_type))
        }
        Type::VectorType { element_type, num_elements, scalable: false } => {
            format!("<{num_elements} x {}>", type_str(element_type))
        }
        Type::VectorType { element_type, num_elements, scalable: true } => {
            format!("<vscale x {num_elements} x {}>", type_str(element_type))
        }
        Type::ArrayType { element_type, num_elements } => format!("[{num_elements} x {}]", type_str(element_type)),
        Type::StructType { element_types, is_packed } => match (*is_packed, element_types.is_empty()) {
            (false, true) => "{}".into(),
            (true, true) => "<{}>".into(),
            (false, false) => format!("{{ {} }}", list(element_types)),
            (true, false) => format!("<{{ {} }}>", list(element_types)),
        },
        Type::NamedStructType { name } => format!("%{name}"),
        Type::X86_MMXType => "x86_mmx".into(),
        Type::X86_AMXType => "x86_amx".into(),
        Type::MetadataType => "metadata".into(),
        Type::LabelType => "label".into(),
        Type::TokenType => "token".into(),
    }
}

fn name_str(n: &Name) -> String {
    match n {
        Name::Name(s) => s.to_string(),
        Name::Number(_) => String::new(),
    }
}

fn ordering(o: MemoryOrdering) -> Option<&'static str> {
    Some(match o {
        MemoryOrdering::NotAtomic => return None,
        MemoryOrdering::Unordered => "unordered",
        MemoryOrdering::Monotonic => "monotonic",
        MemoryOrdering::Acquire => "acquire",
        MemoryOrdering::Release => "release",
        MemoryOrdering::AcquireRelease => "acq_rel",
        MemoryOrdering::SequentiallyConsistent => "seq_cst",
    })
}

/// `ordering=` (under `key`) and `syncscope=` words of an atomic operation.
fn atomic(a: &Atomicity, key: &str, extra: &mut Vec<String>) {
    if let Some(o) = ordering(a.mem_ordering) {
        extra.push(format!("{key}={o}"));
    }
    if a.synch_scope == SynchronizationScope::SingleThread {
        extra.push("syncscope=singlethread".into());
    }
}

fn idx(indices: &[u32]) -> String {
    format!("idx={}", indices.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(","))
}

/// A value whose type is asked for.
enum ConstantOrOperand<'a> {
    Constant(&'a ConstantRef),
    Operand(&'a Operand),
}

/// An operand position of an llvm-ir instruction, in the refmodel's order.
enum Op<'a> {
    Value(&'a Operand),
    Const(&'a ConstantRef),
    Block(&'a Name),
}

/// Opcodes whose printed form may carry `nuw`/`nsw`/`exact` or fast-math flags.
const FLAGGED: [&str; 18] = [
    "add", "sub", "mul", "shl", "udiv", "sdiv", "lshr", "ashr", "fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fcmp",
    "call", "select", "phi",
];

/// llvm-ir values of one function, by position.
#[derive(Default)]
struct Locals<'a> {
    values: HashMap<&'a Name, ROperand>,
    blocks: HashMap<&'a Name, u32>,
}

struct Reader<'a> {
    ir: &'a llvm_ir::Module,
    sys: &'a mut sys::Parsed,
}

impl<'a> Reader<'a> {
    fn module(&mut self) -> Result<RModule, String> {
        let mut out = RModule::default();

        let sys_globals = self.sys.globals();
        if sys_globals.len() != self.ir.global_vars.len() {
            return Err("llvm-ir and the C API disagree on the globals".into());
        }
        for (g, &(_, init)) in self.ir.global_vars.iter().zip(&sys_globals) {
            let Type::PointerType { pointee_type, .. } = g.ty.as_ref() else {
                return Err(format!("global {} is not a pointer", g.name));
            };
            out.globals.push(RGlobal {
                name: name_str(&g.name),
                ty: type_str(pointee_type),
                addr_space: g.addr_space,
                is_const: g.is_constant,
                init: match &g.initializer {
                    Some(c) => Some(self.konst(c, init)?),
                    None => None,
                },
            });
        }

        // llvm-ir lists definitions and declarations apart; the C API gives
        // the module order.
        let mut defined: HashMap<&str, &llvm_ir::Function> =
            self.ir.functions.iter().map(|f| (f.name.as_str(), f)).collect();
        let mut declared: HashMap<&str, &llvm_ir::function::FunctionDeclaration> =
            self.ir.func_declarations.iter().map(|f| (f.name.as_str(), f)).collect();
        for f in self.sys.functions() {
            let name = sys::value_name(f);
            if let Some(d) = declared.remove(name.as_str()) {
                let ps: Vec<TypeRef> = d.parameters.iter().map(|p| p.ty.clone()).collect();
                out.functions.push(RFunction {
                    ty: fn_type(&d.return_type, &ps, d.is_var_arg),
                    name,
                    is_declaration: true,
                    blocks: vec![],
                });
            } else if let Some(d) = defined.remove(name.as_str()) {
                out.functions.push(self.function(d, f).map_err(|e| format!("@{name}: {e}"))?);
            } else {
                return Err(format!("llvm-ir has no function @{name}"));
            }
        }
        if !defined.is_empty() || !declared.is_empty() {
            return Err("llvm-ir has functions the C API does not list".into());
        }

        out.named_metadata = self.sys.named_metadata()?;
        out.canonicalize();
        Ok(out)
    }

    fn function(&mut self, f: &'a llvm_ir::Function, sys_f: LLVMValueRef) -> Result<RFunction, String> {
        let mut loc = Locals::default();
        for (i, p) in f.parameters.iter().enumerate() {
            loc.values.insert(&p.name, ROperand::Arg(i as u32));
        }
        let mut n = 0u32;
        for (bi, b) in f.basic_blocks.iter().enumerate() {
            loc.blocks.insert(&b.name, bi as u32);
            for r in b.instrs.iter().map(Instruction::try_get_result).chain([b.term.try_get_result()]) {
                if let Some(name) = r {
                    loc.values.insert(name, ROperand::Inst(n));
                }
                n += 1;
            }
        }
        let sys_loc = sys::locals(sys_f);
        if sys_loc.insts.len() != n as usize {
            return Err(format!("llvm-ir has {n} instructions, the C API {}", sys_loc.insts.len()));
        }
        let mut sys_insts = sys_loc.insts.iter().copied();
        let mut blocks = Vec::with_capacity(f.basic_blocks.len());
        for b in &f.basic_blocks {
            let mut insts = Vec::with_capacity(b.instrs.len() + 1);
            for i in &b.instrs {
                let s = sys_insts.next().ok_or("instruction count")?;
                insts.push(self.inst(i, s, &loc, &sys_loc)?);
            }
            let s = sys_insts.next().ok_or("instruction count")?;
            insts.push(self.term(&b.term, s, &loc, &sys_loc)?);
            blocks.push(RBlock { insts });
        }
        let ps: Vec<TypeRef> = f.parameters.iter().map(|p| p.ty.clone()).collect();
        Ok(RFunction {
            name: f.name.clone(),
            ty: fn_type(&f.return_type, &ps, f.is_var_arg),
            is_declaration: false,
            blocks,
        })
    }

    fn inst(
        &mut self,
        i: &'a Instruction,
        s: LLVMValueRef,
        loc: &Locals<'a>,
        sys_loc: &sys::Locals,
    ) -> Result<RInst, String> {
        use Instruction as I;
        use Op::*;
        let mut extra: Vec<String> = Vec::new();
        let v = Value;
        let (opcode, ops): (&str, Vec<Op>) = match i {
            I::Add(x) => ("add", vec![v(&x.operand0), v(&x.operand1)]),
            I::Sub(x) => ("sub", vec![v(&x.operand0), v(&x.operand1)]),
            I::Mul(x) => ("mul", vec![v(&x.operand0), v(&x.operand1)]),
            I::UDiv(x) => ("udiv", vec![v(&x.operand0), v(&x.operand1)]),
            I::SDiv(x) => ("sdiv", vec![v(&x.operand0), v(&x.operand1)]),
            I::URem(x) => ("urem", vec![v(&x.operand0), v(&x.operand1)]),
            I::SRem(x) => ("srem", vec![v(&x.operand0), v(&x.operand1)]),
            I::And(x) => ("and", vec![v(&x.operand0), v(&x.operand1)]),
            I::Or(x) => ("or", vec![v(&x.operand0), v(&x.operand1)]),
            I::Xor(x) => ("xor", vec![v(&x.operand0), v(&x.operand1)]),
            I::Shl(x) => ("shl", vec![v(&x.operand0), v(&x.operand1)]),
            I::LShr(x) => ("lshr", vec![v(&x.operand0), v(&x.operand1)]),
            I::AShr(x) => ("ashr", vec![v(&x.operand0), v(&x.operand1)]),
            I::FAdd(x) => ("fadd", vec![v(&x.operand0), v(&x.operand1)]),
            I::FSub(x) => ("fsub", vec![v(&x.operand0), v(&x.operand1)]),
            I::FMul(x) => ("fmul", vec![v(&x.operand0), v(&x.operand1)]),
            I::FDiv(x) => ("fdiv", vec![v(&x.operand0), v(&x.operand1)]),
            I::FRem(x) => ("frem", vec![v(&x.operand0), v(&x.operand1)]),
            I::FNeg(x) => ("fneg", vec![v(&x.operand)]),
            I::ExtractElement(x) => ("extractelement", vec![v(&x.vector), v(&x.index)]),
            I::InsertElement(x) => ("insertelement", vec![v(&x.vector), v(&x.element), v(&x.index)]),
            I::ShuffleVector(x) => {
                let Constant::Vector(lanes) = x.mask.as_ref() else {
                    return Err("shuffle mask is not a vector".into());
                };
                let mask: Vec<String> = lanes
                    .iter()
                    .map(|l| match l.as_ref() {
                        Constant::Int { value, .. } => Ok(value.to_string()),
                        Constant::Undef(_) => Ok("-1".to_string()),
                        other => Err(format!("shuffle mask lane {other:?}")),
                    })
                    .collect::<Result<_, _>>()?;
                extra.push(format!("mask={}", mask.join(",")));
                ("shufflevector", vec![v(&x.operand0), v(&x.operand1)])
            }
            I::ExtractValue(x) => {
                extra.push(idx(&x.indices));
                ("extractvalue", vec![v(&x.aggregate)])
            }
            I::InsertValue(x) => {
                extra.push(idx(&x.indices));
                ("insertvalue", vec![v(&x.aggregate), v(&x.element)])
            }
            I::Alloca(x) => {
                extra.push(format!("align={}", x.alignment));
                ("alloca", vec![v(&x.num_elements)])
            }
            I::Load(x) => {
                extra.push(format!("align={}", x.alignment));
                if x.volatile {
                    extra.push("volatile".into());
                }
                if let Some(a) = &x.atomicity {
                    atomic(a, "ordering", &mut extra);
                }
                ("load", vec![v(&x.address)])
            }
            I::Store(x) => {
                extra.push(format!("align={}", x.alignment));
                if x.volatile {
                    extra.push("volatile".into());
                }
                if let Some(a) = &x.atomicity {
                    atomic(a, "ordering", &mut extra);
                }
                ("store", vec![v(&x.value), v(&x.address)])
            }
            I::Fence(x) => {
                atomic(&x.atomicity, "ordering", &mut extra);
                ("fence", vec![])
            }
            I::CmpXchg(x) => {
                atomic(&x.atomicity, "success", &mut extra);
                if let Some(o) = ordering(x.failure_memory_ordering) {
                    extra.push(format!("failure={o}"));
                }
                if x.volatile {
                    extra.push("volatile".into());
                }
                if x.weak {
                    extra.push("weak".into());
                }
                ("cmpxchg", vec![v(&x.address), v(&x.expected), v(&x.replacement)])
            }
            I::AtomicRMW(x) => {
                extra.push(format!("rmw={}", x.operation));
                atomic(&x.atomicity, "ordering", &mut extra);
                if x.volatile {
                    extra.push("volatile".into());
                }
                ("atomicrmw", vec![v(&x.address), v(&x.value)])
            }
            I::GetElementPtr(x) => {
                if x.in_bounds {
                    extra.push("inbounds".into());
                }
                ("getelementptr", std::iter::once(&x.address).chain(&x.indices).map(v).collect())
            }
            I::Trunc(x) => ("trunc", vec![v(&x.operand)]),
            I::ZExt(x) => ("zext", vec![v(&x.operand)]),
            I::SExt(x) => ("sext", vec![v(&x.operand)]),
            I::FPTrunc(x) => ("fptrunc", vec![v(&x.operand)]),
            I::FPExt(x) => ("fpext", vec![v(&x.operand)]),
            I::FPToUI(x) => ("fptoui", vec![v(&x.operand)]),
            I::FPToSI(x) => ("fptosi", vec![v(&x.operand)]),
            I::UIToFP(x) => ("uitofp", vec![v(&x.operand)]),
            I::SIToFP(x) => ("sitofp", vec![v(&x.operand)]),
            I::PtrToInt(x) => ("ptrtoint", vec![v(&x.operand)]),
            I::IntToPtr(x) => ("inttoptr", vec![v(&x.operand)]),
            I::BitCast(x) => ("bitcast", vec![v(&x.operand)]),
            I::AddrSpaceCast(x) => ("addrspacecast", vec![v(&x.operand)]),
            I::ICmp(x) => {
                extra.push(format!("pred={}", x.predicate));
                ("icmp", vec![v(&x.operand0), v(&x.operand1)])
            }
            I::FCmp(x) => {
                extra.push(format!("pred={}", x.predicate));
                ("fcmp", vec![v(&x.operand0), v(&x.operand1)])
            }
            I::Phi(x) => ("phi", x.incoming_values.iter().flat_map(|(val, b)| [v(val), Block(b)]).collect()),
            I::Select(x) => ("select", vec![v(&x.condition), v(&x.true_value), v(&x.false_value)]),
            I::Freeze(x) => ("freeze", vec![v(&x.operand)]),
            I::Call(x) => {
                let callee = x.function.as_ref().right().ok_or("call of inline assembly")?;
                ("call", std::iter::once(callee).chain(x.arguments.iter().map(|(a, _)| a)).map(v).collect())
            }
            I::VAArg(x) => ("va_arg", vec![v(&x.arg_list)]),
            I::LandingPad(_) | I::CatchPad(_) | I::CleanupPad(_) => {
                return Err(format!("exception handling is not rendered: {i}"))
            }
        };
        let ty = match i {
            I::GetElementPtr(x) => {
                self.gep_type(&ConstantOrOperand::Operand(&x.address), x.indices.iter().map(|o| self.const_index(o)))?
            }
            I::Select(x) => type_str(&self.pointer_type(&ConstantOrOperand::Operand(&x.true_value))),
            I::ExtractValue(x) => {
                let mut t = self.ir.type_of(&x.aggregate);
                for &k in &x.indices {
                    t = self.step(&t, Some(k as u64))?;
                }
                type_str(&t)
            }
            _ => type_str(&self.ir.type_of(i)),
        };
        self.finish(opcode, ty, ops, extra, s, loc, sys_loc)
    }

    fn term(
        &mut self,
        t: &'a Terminator,
        s: LLVMValueRef,
        loc: &Locals<'a>,
        sys_loc: &sys::Locals,
    ) -> Result<RInst, String> {
        use Op::*;
        let (opcode, ops): (&str, Vec<Op>) = match t {
            Terminator::Ret(x) => ("ret", x.return_operand.iter().map(Value).collect()),
            Terminator::Br(x) => ("br", vec![Block(&x.dest)]),
            Terminator::CondBr(x) => ("br", vec![Value(&x.condition), Block(&x.true_dest), Block(&x.false_dest)]),
            Terminator::Switch(x) => {
                let mut ops = vec![Value(&x.operand), Block(&x.default_dest)];
                ops.extend(x.dests.iter().flat_map(|(c, b)| [Const(c), Block(b)]));
                ("switch", ops)
            }
            Terminator::IndirectBr(x) => {
                ("indirectbr", std::iter::once(Value(&x.operand)).chain(x.possible_dests.iter().map(Block)).collect())
            }
            Terminator::Unreachable(_) => ("unreachable", vec![]),
            other => return Err(format!("terminator not rendered: {other}")),
        };
        let ty = type_str(&self.ir.type_of(t));
        self.finish(opcode, ty, ops, vec![], s, loc, sys_loc)
    }

    /// Operands (paired with the C API's), flags and attachments.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &mut self,
        opcode: &str,
        ty: String,
        ops: Vec<Op>,
        mut extra: Vec<String>,
        s: LLVMValueRef,
        loc: &Locals<'a>,
        sys_loc: &sys::Locals,
    ) -> Result<RInst, String> {
        let sys_ops = sys::operands(s);
        if sys_ops.len() != ops.len() {
            return Err(format!("{opcode}: llvm-ir has {} operands, the C API {}", ops.len(), sys_ops.len()));
        }
        let mut operands = Vec::with_capacity(ops.len());
        for (op, &so) in ops.iter().zip(&sys_ops) {
            operands.push(match op {
                Op::Block(b) => ROperand::Block(*loc.blocks.get(b).ok_or_else(|| format!("no block {b}"))?),
                Op::Const(c) => ROperand::Const(self.konst(c, so)?),
                Op::Value(Operand::LocalOperand { name, .. }) => {
                    loc.values.get(name).cloned().ok_or_else(|| format!("no value {name}"))?
                }
                Op::Value(Operand::ConstantOperand(c)) => match c.as_ref() {
                    Constant::GlobalReference { name, ty } => {
                        global_ref(name, ty, ROperand::Function, ROperand::Global)
                    }
                    _ => ROperand::Const(self.konst(c, so)?),
                },
                Op::Value(Operand::MetadataOperand) => ROperand::Metadata(self.sys.md_operand(so, sys_loc)?),
            });
        }
        if FLAGGED.contains(&opcode) {
            extra.extend(sys::flags(s, opcode));
        }
        let md = self.sys.attachments(s, sys_loc)?;
        Ok(RInst { opcode: opcode.to_string(), ty, operands, extra, md })
    }

    /// A constant index operand's value (for GEP result types through structs).
    fn const_index(&self, o: &Operand) -> Option<u64> {
        match o {
            Operand::ConstantOperand(c) => match c.as_ref() {
                Constant::Int { value, .. } => Some(*value),
                _ => None,
            },
            _ => None,
        }
    }

    /// A GEP's result type. llvm-ir's own `type_of` drops the address space
    /// of the pointer (`i32*` for a GEP into `addrspace(3)`), so it is
    /// computed here from the typed address and indices.
    fn gep_type(
        &self,
        address: &ConstantOrOperand,
        indices: impl Iterator<Item = Option<u64>>,
    ) -> Result<String, String> {
        let Type::PointerType { pointee_type, addr_space } = self.pointer_type(address).as_ref().clone() else {
            return Err("GEP on something other than a pointer (vector GEPs are not rendered)".into());
        };
        let mut cur = pointee_type;
        // The first index steps over the pointer itself.
        for index in indices.skip(1) {
            cur = self.step(&cur, index)?;
        }
        Ok(type_str(&Type::PointerType { pointee_type: cur, addr_space }))
    }

    /// The element type that `index` selects in aggregate type `t` (llvm-ir's
    /// `type_of` panics on an `extractvalue` from a named struct).
    fn step(&self, t: &TypeRef, index: Option<u64>) -> Result<TypeRef, String> {
        Ok(match self.resolve(t).as_ref() {
            Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => element_type.clone(),
            Type::StructType { element_types, .. } => index
                .and_then(|i| element_types.get(i as usize))
                .cloned()
                .ok_or("struct index is not a constant in range")?,
            other => return Err(format!("index into {}", type_str(other))),
        })
    }

    /// The type of a value used as a pointer. llvm-ir types a global
    /// variable reference as a pointer in address space 0 whatever the
    /// global's own address space, so that comes from the global.
    fn pointer_type(&self, v: &ConstantOrOperand) -> TypeRef {
        let c: &ConstantRef = match *v {
            ConstantOrOperand::Operand(Operand::ConstantOperand(c)) | ConstantOrOperand::Constant(c) => c,
            ConstantOrOperand::Operand(o) => return self.ir.type_of(o),
        };
        if let Constant::GlobalReference { name, .. } = c.as_ref() {
            if let Some(g) = self.ir.global_vars.iter().find(|g| &g.name == name) {
                return g.ty.clone();
            }
        }
        self.ir.type_of(c)
    }

    /// A named struct's body; any other type as is.
    fn resolve(&self, t: &TypeRef) -> TypeRef {
        if let Type::NamedStructType { name } = t.as_ref() {
            if let Some(NamedStructDef::Defined(body)) = self.ir.types.named_struct_def(name) {
                return body.clone();
            }
        }
        t.clone()
    }

    /// The type of constant `c` (`s` in the C API). llvm-ir's struct
    /// constants do not keep the name of a named struct type, and the type
    /// it derives for them is the literal one; the name comes from the C API.
    fn const_type(&self, c: &ConstantRef, s: LLVMValueRef) -> String {
        match c.as_ref() {
            Constant::Struct { values, is_packed, .. } => match sys::const_struct_name(s) {
                Some(name) => format!("%{name}"),
                None => {
                    let ts: Vec<String> =
                        values.iter().enumerate().map(|(k, v)| self.const_type(v, sys::const_operand(s, k))).collect();
                    let body = if ts.is_empty() { "{}".to_string() } else { format!("{{ {} }}", ts.join(", ")) };
                    if *is_packed {
                        format!("<{body}>")
                    } else {
                        body
                    }
                }
            },
            _ => type_str(&self.ir.type_of(c)),
        }
    }

    /// Renders constant `c`; `s` is the same constant in the C API (for FP
    /// bits, flags and struct type names).
    fn konst(&self, c: &ConstantRef, s: LLVMValueRef) -> Result<RConst, String> {
        let ty = self.const_type(c, s);
        let elem = |k: usize, e: &ConstantRef| self.konst(e, sys::const_operand(s, k));
        let expr = |opcode: &str, ops: &[&ConstantRef], extra: Vec<String>| -> Result<RConst, String> {
            let operands = ops.iter().enumerate().map(|(k, o)| elem(k, o)).collect::<Result<_, _>>()?;
            Ok(RConst::Expr { opcode: opcode.into(), ty: ty.clone(), operands, extra })
        };
        let bin = |opcode: &str, a: &ConstantRef, b: &ConstantRef| expr(opcode, &[a, b], sys::flags(s, opcode));
        let cast = |opcode: &str, a: &ConstantRef| expr(opcode, &[a], vec![]);
        Ok(match c.as_ref() {
            Constant::Int { bits, value } => {
                if *bits > 64 {
                    return Err(format!("integer constant wider than 64 bits: {ty}"));
                }
                let mask = if *bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
                RConst::Int { bits: *bits, value: value & mask }
            }
            Constant::Float(Float::Half | Float::BFloat | Float::Single(_) | Float::Double(_)) => {
                RConst::Float { ty, bits: sys::fp_bits(s)? }
            }
            Constant::Null(_) => RConst::Null(ty),
            Constant::AggregateZero(_) => RConst::AggregateZero(ty),
            Constant::Undef(_) | Constant::Poison(_) => RConst::Undef(ty),
            Constant::Struct { values: elements, .. }
            | Constant::Array { elements, .. }
            | Constant::Vector(elements) => {
                let elems = elements.iter().enumerate().map(|(k, e)| elem(k, e)).collect::<Result<_, _>>()?;
                RConst::Aggregate { ty, elems }
            }
            Constant::GlobalReference { name, ty } => global_ref(name, ty, RConst::Function, RConst::Global),
            Constant::Add(x) => bin("add", &x.operand0, &x.operand1)?,
            Constant::Sub(x) => bin("sub", &x.operand0, &x.operand1)?,
            Constant::Mul(x) => bin("mul", &x.operand0, &x.operand1)?,
            Constant::UDiv(x) => bin("udiv", &x.operand0, &x.operand1)?,
            Constant::SDiv(x) => bin("sdiv", &x.operand0, &x.operand1)?,
            Constant::URem(x) => bin("urem", &x.operand0, &x.operand1)?,
            Constant::SRem(x) => bin("srem", &x.operand0, &x.operand1)?,
            Constant::And(x) => bin("and", &x.operand0, &x.operand1)?,
            Constant::Or(x) => bin("or", &x.operand0, &x.operand1)?,
            Constant::Xor(x) => bin("xor", &x.operand0, &x.operand1)?,
            Constant::Shl(x) => bin("shl", &x.operand0, &x.operand1)?,
            Constant::LShr(x) => bin("lshr", &x.operand0, &x.operand1)?,
            Constant::AShr(x) => bin("ashr", &x.operand0, &x.operand1)?,
            Constant::FAdd(x) => expr("fadd", &[&x.operand0, &x.operand1], vec![])?,
            Constant::FSub(x) => expr("fsub", &[&x.operand0, &x.operand1], vec![])?,
            Constant::FMul(x) => expr("fmul", &[&x.operand0, &x.operand1], vec![])?,
            Constant::FDiv(x) => expr("fdiv", &[&x.operand0, &x.operand1], vec![])?,
            Constant::FRem(x) => expr("frem", &[&x.operand0, &x.operand1], vec![])?,
            Constant::ExtractElement(x) => expr("extractelement", &[&x.vector, &x.index], vec![])?,
            Constant::InsertElement(x) => expr("insertelement", &[&x.vector, &x.element, &x.index], vec![])?,
            Constant::ExtractValue(x) => expr("extractvalue", &[&x.aggregate], vec![idx(&x.indices)])?,
            Constant::InsertValue(x) => expr("insertvalue", &[&x.aggregate, &x.element], vec![idx(&x.indices)])?,
            Constant::GetElementPtr(x) => {
                let ops: Vec<&ConstantRef> = std::iter::once(&x.address).chain(&x.indices).collect();
                let extra = if x.in_bounds { vec!["inbounds".to_string()] } else { vec![] };
                let indices = x.indices.iter().map(|i| match i.as_ref() {
                    Constant::Int { value, .. } => Some(*value),
                    _ => None,
                });
                let RConst::Expr { opcode, operands, extra, .. } = expr("getelementptr", &ops, extra)? else {
                    unreachable!()
                };
                RConst::Expr {
                    opcode,
                    ty: self.gep_type(&ConstantOrOperand::Constant(&x.address), indices)?,
                    operands,
                    extra,
                }
            }
            Constant::Trunc(x) => cast("trunc", &x.operand)?,
            Constant::ZExt(x) => cast("zext", &x.operand)?,
            Constant::SExt(x) => cast("sext", &x.operand)?,
            Constant::FPTrunc(x) => cast("fptrunc", &x.operand)?,
            Constant::FPExt(x) => cast("fpext", &x.operand)?,
            Constant::FPToUI(x) => cast("fptoui", &x.operand)?,
            Constant::FPToSI(x) => cast("fptosi", &x.operand)?,
            Constant::UIToFP(x) => cast("uitofp", &x.operand)?,
            Constant::SIToFP(x) => cast("sitofp", &x.operand)?,
            Constant::PtrToInt(x) => cast("ptrtoint", &x.operand)?,
            Constant::IntToPtr(x) => cast("inttoptr", &x.operand)?,
            Constant::BitCast(x) => cast("bitcast", &x.operand)?,
            Constant::AddrSpaceCast(x) => cast("addrspacecast", &x.operand)?,
            Constant::ICmp(x) => expr("icmp", &[&x.operand0, &x.operand1], vec![format!("pred={}", x.predicate)])?,
            Constant::FCmp(x) => expr("fcmp", &[&x.operand0, &x.operand1], vec![format!("pred={}", x.predicate)])?,
            Constant::Select(x) => expr("select", &[&x.condition, &x.true_value, &x.false_value], vec![])?,
            other => return Err(format!("unsupported constant {other}")),
        })
    }
}

/// A global value used directly: a function when its value type is a function type.
fn global_ref<T>(name: &Name, ty: &TypeRef, function: fn(String) -> T, global: fn(String) -> T) -> T {
    match ty.as_ref() {
        Type::FuncType { .. } => function(name_str(name)),
        _ => global(name_str(name)),
    }
}

fn fn_type(ret: &TypeRef, params: &[TypeRef], var_arg: bool) -> String {
    type_str(&Type::FuncType { result_type: ret.clone(), param_types: params.to_vec(), is_var_arg: var_arg })
}
