//! Turns calls of `dx.op.<class>.<overload>` into [`InstKind::DxOp`], checking
//! the opcode against the DXIL operation table: known opcode, the class the
//! function name says, an overload the op has, and the right argument count.

use super::*;
use crate::dxil_op::{split_function_name, DxilOp};

impl<'a> Reader<'a> {
    pub(super) fn decode_dx_ops(&mut self) -> Result<()> {
        // Which declared functions are DXIL intrinsics: (class, length of the overload suffix).
        let mut intrinsics = Vec::with_capacity(self.module.functions.len());
        for f in &self.module.functions {
            intrinsics.push(if f.name.starts_with("dx.op.") {
                match split_function_name(&f.name) {
                    Some((class, suffix)) => Some((class, suffix.len())),
                    None => return Err(E::Unsupported(format!("unknown DXIL intrinsic @{}", f.name))),
                }
            } else {
                None
            });
        }
        if intrinsics.iter().all(Option::is_none) {
            return Ok(());
        }
        for fi in 0..self.module.functions.len() {
            if self.module.functions[fi].is_declaration {
                continue;
            }
            self.cur_function = Some(FuncId(fi as u32));
            let mut func = std::mem::take(&mut self.module.functions[fi]);
            let r = self.decode_function_dx_ops(&mut func, &intrinsics);
            self.module.functions[fi] = func;
            r?;
        }
        self.cur_function = None;
        Ok(())
    }

    fn decode_function_dx_ops(
        &self,
        func: &mut Function,
        intrinsics: &[Option<(crate::dxil_op::OpClass, usize)>],
    ) -> Result<()> {
        for inst in &mut func.insts {
            let InstKind::Call { callee: Value::Function(callee), args, .. } = inst.kind else { continue };
            let Some((class, suffix_len)) = &intrinsics[callee.index()] else { continue };
            let name = &self.module.functions[callee.index()].name;
            let suffix = name.get(name.len() - suffix_len..).unwrap_or("");
            let first = func.value_pool.get(args.start as usize).copied();
            let Some(opcode) = first.filter(|_| args.len > 0).and_then(|v| self.module.const_uint(v)) else {
                return Err(E::MalformedOwned(format!("call of @{name} without a constant opcode")));
            };
            let op = u32::try_from(opcode)
                .ok()
                .and_then(DxilOp::from_u32)
                .ok_or_else(|| E::Unsupported(format!("unknown DXIL opcode {opcode} (call of @{name})")))?;
            let info = op.info();
            if info.class != *class {
                return Err(E::MalformedOwned(format!(
                    "opcode {opcode} ({}) called through @{name}, which is of class {}",
                    op.name(),
                    class.llvm_name()
                )));
            }
            let overload = info
                .overload_from_suffix(suffix)
                .ok_or_else(|| E::MalformedOwned(format!("{} has no overload '{suffix}' (@{name})", op.name())))?;
            if args.len as usize != info.call_arg_count() {
                return Err(E::MalformedOwned(format!(
                    "{} takes {} arguments, call of @{name} has {}",
                    op.name(),
                    info.call_arg_count(),
                    args.len
                )));
            }
            inst.kind =
                InstKind::DxOp { op, overload, callee, args: List { start: args.start + 1, len: args.len - 1 } };
        }
        Ok(())
    }
}
