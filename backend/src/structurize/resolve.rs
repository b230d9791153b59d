//! Phase 2: turn the multi-level branches of [`W`] into SPIR-V's one-level
//! exits.
//!
//! A `Br` to `z` compiles to, in order of preference:
//! 1. nothing, when control falls into `z` anyway (the branch is in tail
//!    position of selections, switch arms and sequences up to `Label(z)`, or
//!    up to the end of `z`'s loop body for a `Continue`);
//! 2. `Continue`, when `z` is the innermost loop (legal from inside nested
//!    switches and scopes too);
//! 3. `Break`, when the innermost breakable construct (loop, switch, scope)
//!    is followed by `z`;
//! 4. a ladder step: `SetVar(v, k); Break` out of the innermost construct,
//!    whose exit is followed by `if (v == k) { <the same branch again> }`.
//!
//! A region `BlockStart(z)..Label(z)` becomes a [`Node::Scope`] only when
//! some branch to `z` can be resolved no other way. That is found by a first
//! pass with no scopes at all, which records such targets; the second pass
//! runs with scopes for them (adding scopes only adds ways to resolve a
//! branch, so it cannot fail where the first one succeeded).

use super::stackify::{Shape, W};
use super::StructurizeError;
use crate::ir::BlockId;
use crate::structurize::tree::{Cond, Node, VarId};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fall {
    /// Control reaches block `z` through a forward edge.
    To(u32),
    /// Control reaches the continue block of the loop headed by `z`.
    Cont(u32),
    Nothing,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Loop(u32),
    Switch,
    Scope(u32),
}

struct Frame {
    kind: Kind,
    /// Where control goes when the construct is left by `Break`.
    after: Fall,
    var: Option<VarId>,
    pending: Vec<(u32, bool)>,
}

/// Output trees nested deeper than this are refused (lowering and the
/// demotion analysis walk the tree recursively).
pub const MAX_TREE_DEPTH: u32 = 512;

struct Resolver<'s, 'a> {
    shape: &'s Shape<'a>,
    depth: u32,
    scope: &'s [bool],
    frames: Vec<Frame>,
    vars: u32,
    missing: Vec<u32>,
}

impl<'s, 'a> Resolver<'s, 'a> {
    /// A resolver for one pass; `scope[b]`: block `b` gets a breakable scope.
    fn new(shape: &'s Shape<'a>, scope: &'s [bool]) -> Self {
        Resolver { shape, depth: 0, scope, frames: Vec::new(), vars: shape.dispatch_vars(), missing: Vec::new() }
    }
}

/// Returns the tree and the number of structurizer variables.
///
/// The first pass builds the tree without scopes; only when some branch
/// needs one (rare) is that tree dropped and built again with scopes for
/// those regions.
pub fn resolve(shape: &Shape<'_>, w: &[W]) -> Result<(Node, u32), StructurizeError> {
    let n = shape.cfg.len();
    let mut scope = vec![false; n];
    let mut r = Resolver::new(shape, &scope);
    let first = r.seq(w, Fall::Nothing)?;
    if r.missing.is_empty() {
        return Ok((seq_node(first), r.vars));
    }
    drop(first);
    let missing = std::mem::take(&mut r.missing);
    for &z in &missing {
        if let Some(s) = scope.get_mut(z as usize) {
            *s = true;
        }
    }
    let mut r = Resolver::new(shape, &scope);
    let second = r.seq(w, Fall::Nothing)?;
    if let Some(&z) = r.missing.first() {
        return Err(r.internal(z, "branch target without an enclosing region"));
    }
    Ok((seq_node(second), r.vars))
}

fn lookahead(items: &[W], fall: Fall) -> Fall {
    for it in items {
        match it {
            W::BlockStart(_) => continue,
            W::Label(z) => return Fall::To(*z),
            _ => return Fall::Nothing,
        }
    }
    fall
}

/// A sequence as one node (flattening nested sequences).
pub fn seq_node(mut v: Vec<Node>) -> Node {
    if v.len() == 1 {
        v.pop().unwrap_or(Node::Seq(Vec::new()))
    } else {
        Node::Seq(v)
    }
}

impl Resolver<'_, '_> {
    fn internal(&self, b: u32, what: &str) -> StructurizeError {
        StructurizeError::Internal { func: self.shape.f.name.clone(), block: BlockId(b), what: what.into() }
    }

    fn seq(&mut self, items: &[W], fall: Fall) -> Result<Vec<Node>, StructurizeError> {
        let mut outs: Vec<Vec<Node>> = vec![Vec::new()];
        for (i, item) in items.iter().enumerate() {
            let rest = items.get(i + 1..).unwrap_or(&[]);
            match item {
                W::BlockStart(z) => {
                    if self.scope[*z as usize] {
                        self.enter(*z)?;
                        self.frames.push(Frame {
                            kind: Kind::Scope(*z),
                            after: Fall::To(*z),
                            var: None,
                            pending: Vec::new(),
                        });
                        outs.push(Vec::new());
                    }
                }
                W::Label(z) => {
                    if self.scope[*z as usize] {
                        self.depth -= 1;
                        let body = outs.pop().ok_or_else(|| self.internal(*z, "unbalanced region"))?;
                        let frame = self.frames.pop().ok_or_else(|| self.internal(*z, "unbalanced region"))?;
                        if frame.kind != Kind::Scope(*z) || outs.is_empty() {
                            return Err(self.internal(*z, "regions not nested"));
                        }
                        let node = Node::Scope { body: Box::new(seq_node(body)) };
                        let mut done = Vec::new();
                        self.finish(frame, node, &mut done)?;
                        if let Some(out) = outs.last_mut() {
                            out.extend(done);
                        }
                    }
                }
                other => {
                    let Some(out) = outs.last_mut() else { return Err(self.internal(0, "region stack")) };
                    self.item(other, rest, fall, out)?;
                }
            }
        }
        if outs.len() != 1 {
            return Err(self.internal(0, "region left open"));
        }
        Ok(outs.pop().unwrap_or_default())
    }

    fn enter(&mut self, b: u32) -> Result<(), StructurizeError> {
        self.depth += 1;
        if self.depth > MAX_TREE_DEPTH {
            return Err(StructurizeError::TooDeep {
                func: self.shape.f.name.clone(),
                block: BlockId(b),
                limit: MAX_TREE_DEPTH,
            });
        }
        Ok(())
    }

    fn item(&mut self, item: &W, rest: &[W], fall: Fall, out: &mut Vec<Node>) -> Result<(), StructurizeError> {
        let nested = matches!(item, W::If { .. } | W::Switch { .. } | W::Loop { .. });
        if nested {
            let at = match item {
                W::Loop { header, .. } => *header,
                _ => 0,
            };
            self.enter(at)?;
        }
        let r = self.item_inner(item, rest, fall, out);
        if nested {
            self.depth -= 1;
        }
        r
    }

    fn item_inner(&mut self, item: &W, rest: &[W], fall: Fall, out: &mut Vec<Node>) -> Result<(), StructurizeError> {
        match item {
            W::Code(b) => out.push(Node::Block(BlockId(*b))),
            W::PhiCopy { phi, value } => out.push(Node::PhiCopy { phi: *phi, value: *value }),
            W::SetVar { var, value } => out.push(Node::SetVar { var: *var, value: *value }),
            W::If { cond, then_, else_ } => {
                let f = lookahead(rest, fall);
                let t = self.seq(then_, f)?;
                let e = self.seq(else_, f)?;
                out.push(Node::If { cond: cond.clone(), then_: Box::new(seq_node(t)), else_: Box::new(seq_node(e)) });
            }
            W::Switch { selector, cases, default } => {
                let after = lookahead(rest, fall);
                self.frames.push(Frame { kind: Kind::Switch, after, var: None, pending: Vec::new() });
                let mut arms = Vec::with_capacity(cases.len());
                for (labels, arm) in cases {
                    arms.push((labels.clone(), seq_node(self.seq(arm, after)?)));
                }
                let default = seq_node(self.seq(default, after)?);
                let frame = self.frames.pop().ok_or_else(|| self.internal(0, "frame stack"))?;
                let node = Node::Switch { selector: *selector, cases: arms, default: Box::new(default) };
                self.finish(frame, node, out)?;
            }
            W::Loop { header, body } => {
                let after = lookahead(rest, fall);
                self.frames.push(Frame { kind: Kind::Loop(*header), after, var: None, pending: Vec::new() });
                let body = self.seq(body, Fall::Cont(*header))?;
                let frame = self.frames.pop().ok_or_else(|| self.internal(*header, "frame stack"))?;
                let body = seq_node(body);
                self.finish(frame, Node::Loop { body: Box::new(body) }, out)?;
            }
            W::Br { target, cont } => self.jump(*target, *cont, lookahead(rest, fall), out)?,
            W::Return(v) => out.push(Node::Return(*v)),
            W::Unreachable => out.push(Node::Unreachable),
            W::BlockStart(_) | W::Label(_) => {}
        }
        Ok(())
    }

    /// Emits a finished construct, with its variable reset before it and the
    /// ladder dispatch after it.
    fn finish(&mut self, frame: Frame, node: Node, out: &mut Vec<Node>) -> Result<(), StructurizeError> {
        let Some(v) = frame.var else {
            out.push(node);
            return Ok(());
        };
        out.push(Node::SetVar { var: v, value: 0 });
        out.push(node);
        for (k, &(t, cont)) in frame.pending.iter().enumerate() {
            let mut arm = Vec::new();
            self.jump(t, cont, Fall::Nothing, &mut arm)?;
            out.push(Node::If {
                cond: Cond::VarEq(v, k as u32 + 1),
                then_: Box::new(seq_node(arm)),
                else_: Box::new(Node::Seq(Vec::new())),
            });
        }
        Ok(())
    }

    fn jump(&mut self, t: u32, cont: bool, fall: Fall, out: &mut Vec<Node>) -> Result<(), StructurizeError> {
        let want = if cont { Fall::Cont(t) } else { Fall::To(t) };
        if fall == want {
            return Ok(());
        }
        if cont {
            let inner_loop = self.frames.iter().rev().find(|f| matches!(f.kind, Kind::Loop(_)));
            if inner_loop.is_some_and(|f| f.kind == Kind::Loop(t)) {
                out.push(Node::Continue);
                return Ok(());
            }
        }
        let Some(top) = self.frames.last() else {
            return self.unresolved(t, cont, out);
        };
        if top.after == want {
            out.push(Node::Break);
            return Ok(());
        }
        let resolvable = self.frames.iter().any(|f| f.after == want || (cont && f.kind == Kind::Loop(t)));
        if !resolvable {
            return self.unresolved(t, cont, out);
        }
        let next_var = &mut self.vars;
        let Some(top) = self.frames.last_mut() else { return Err(self.internal(t, "frame stack")) };
        let v = *top.var.get_or_insert_with(|| {
            *next_var += 1;
            VarId(*next_var - 1)
        });
        let k = match top.pending.iter().position(|&p| p == (t, cont)) {
            Some(k) => k,
            None => {
                top.pending.push((t, cont));
                top.pending.len() - 1
            }
        };
        out.push(Node::SetVar { var: v, value: k as u32 + 1 });
        out.push(Node::Break);
        Ok(())
    }

    fn unresolved(&mut self, t: u32, cont: bool, out: &mut Vec<Node>) -> Result<(), StructurizeError> {
        if cont {
            return Err(self.internal(t, "continue outside its loop"));
        }
        self.missing.push(t);
        out.push(Node::Unreachable);
        Ok(())
    }
}
