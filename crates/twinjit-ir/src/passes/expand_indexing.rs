//! `expand_indexing`: turns `getitem`/`setitem` on arrays into `load`/`store` with the index
//! arithmetic spelled out.
//!
//! For each axis: negative indices wrap (`i < 0 ? i + len : i`, skipped for non-negative
//! constants), then `checkindex` when bounds checking is on. The element offset is
//! `((i0 * d1 + i1) * d2 + i2)` for C-contiguous arrays (no stride loads) and
//! `i0 * s0 + i1 * s1 + i2 * s2` otherwise. Backends see only `load`/`store` at an offset.

use super::Pass;
use crate::builtins::KernelOp;
use crate::function::*;
use crate::types::{Layout, Scalar, Type};
use twinjit_diag::Span;

/// The pass; `boundscheck` inserts `checkindex`.
pub struct ExpandIndexing {
    /// Whether to check every index against its dimension.
    pub boundscheck: bool,
}

impl Pass for ExpandIndexing {
    fn name(&self) -> &'static str {
        "expand_indexing"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut changed = false;
        for b in 0..f.blocks.len() {
            let old = std::mem::take(&mut f.blocks[b].insts);
            let mut new = Vec::with_capacity(old.len());
            for inst in old {
                let kind = f.insts[inst.index()].kind.clone();
                let span = f.insts[inst.index()].span;
                match kind {
                    InstKind::GetItem(a, idx) if f.ty(a).array().is_some() => {
                        let off = self.offset(f, &mut new, a, &idx, span);
                        f.insts[inst.index()].kind = InstKind::Load(a, off);
                        changed = true;
                    }
                    InstKind::SetItem(a, idx, v) if f.ty(a).array().is_some() => {
                        let off = self.offset(f, &mut new, a, &idx, span);
                        f.insts[inst.index()].kind = InstKind::Store(a, off, v);
                        changed = true;
                    }
                    // A cache-hinted load or store: its index becomes an element offset.
                    InstKind::Builtin(bi, args)
                        if matches!(bi.kernel_op(), Some(KernelOp::CacheLoad(_) | KernelOp::CacheStore(_)))
                            && f.ty(args[1]).array().is_none()
                            && f.ty(args[0]).array().is_some() =>
                    {
                        let idx = index_values(f, &mut new, args[1], span);
                        let off = self.offset(f, &mut new, args[0], &idx, span);
                        let mut args = args;
                        args[1] = off;
                        f.insts[inst.index()].kind = InstKind::Builtin(bi, args);
                        changed = true;
                    }
                    _ => {}
                }
                new.push(inst);
            }
            f.blocks[b].insts = new;
        }
        changed
    }
}

fn emit(f: &mut Function, out: &mut Vec<Inst>, kind: InstKind, ty: Option<Type>, span: Span) -> Option<Value> {
    let i = f.make_inst(kind, ty, span);
    out.push(i);
    f.insts[i.index()].result
}

/// The int64 values of an element index: an integer, or each integer of a tuple.
fn index_values(f: &mut Function, out: &mut Vec<Inst>, index: Value, span: Span) -> Vec<Value> {
    let parts: Vec<(Value, Type)> = match f.ty(index).clone() {
        Type::Tuple(ts) => ts
            .into_iter()
            .enumerate()
            .map(|(k, t)| {
                (emit(f, out, InstKind::TupleGet(index, k as u32), Some(t.clone()), span).expect("result"), t)
            })
            .collect(),
        t => vec![(index, t)],
    };
    parts
        .into_iter()
        .map(|(v, t)| {
            if t == Type::I64 {
                v
            } else {
                emit(f, out, InstKind::Cast(Scalar::Int64, v), Some(Type::I64), span).expect("result")
            }
        })
        .collect()
}

fn non_negative_const(f: &Function, v: Value) -> bool {
    matches!(f.def_inst(v).map(|d| &d.kind), Some(InstKind::Const(Const::Int(k))) if *k >= 0)
}

impl ExpandIndexing {
    fn offset(&self, f: &mut Function, out: &mut Vec<Inst>, a: Value, idx: &[Value], span: Span) -> Value {
        let at = f.ty(a).array().expect("matched an array");
        let i64t = || Some(Type::I64);
        let mut dims = Vec::with_capacity(idx.len());
        let mut fixed = Vec::with_capacity(idx.len());
        for (k, &i) in idx.iter().enumerate() {
            let len = emit(f, out, InstKind::Dim(a, k as i64), i64t(), span).expect("result");
            let mut i = i;
            if !non_negative_const(f, i) {
                let zero = emit(f, out, InstKind::Const(Const::Int(0)), i64t(), span).expect("result");
                let neg = emit(f, out, InstKind::Compare(CmpOp::Lt, i, zero), Some(Type::BOOL), span).expect("result");
                let adj = emit(f, out, InstKind::Binary(BinaryOp::Add, i, len), i64t(), span).expect("result");
                i = emit(f, out, InstKind::Select(neg, adj, i), i64t(), span).expect("result");
            }
            if self.boundscheck {
                emit(f, out, InstKind::CheckIndex(i, len, k as u8), None, span);
            }
            dims.push(len);
            fixed.push(i);
        }
        match at.layout {
            Layout::C => {
                let mut off = fixed[0];
                for k in 1..fixed.len() {
                    let m = emit(f, out, InstKind::Binary(BinaryOp::Mul, off, dims[k]), i64t(), span).expect("result");
                    off = emit(f, out, InstKind::Binary(BinaryOp::Add, m, fixed[k]), i64t(), span).expect("result");
                }
                off
            }
            Layout::A => {
                let mut off: Option<Value> = None;
                for (k, &i) in fixed.iter().enumerate() {
                    let s = emit(f, out, InstKind::Stride(a, k as u8), i64t(), span).expect("result");
                    let m = emit(f, out, InstKind::Binary(BinaryOp::Mul, i, s), i64t(), span).expect("result");
                    off = Some(match off {
                        None => m,
                        Some(o) => emit(f, out, InstKind::Binary(BinaryOp::Add, o, m), i64t(), span).expect("result"),
                    });
                }
                off.expect("arrays have at least one dimension")
            }
        }
    }
}
