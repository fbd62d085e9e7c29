//! The rewrite: builds the typed IR of one specialisation from its untyped body and the types
//! the fixpoint found (`TWINJIT_DUMP=rewrite`).
//!
//! It inserts every implicit conversion as an explicit `cast`, lowers builtins by their typing
//! class (`min`/`max`/`abs`/`len`/`a.size`/`a.ndim`/`a.shape` become plain operations, float
//! math gets its arguments in the result's float type), turns conditions into `bool` (Python
//! truthiness), and inserts `checknonzero` before division under the Python error model.
//!
//! It does not type anything: every value's type comes from the fixpoint, and a rule it applies
//! comes from `typing`. Invariants: it runs only on specialisations without a type error; its
//! output verifies at `Level::Typed` (operand types match exactly, no implicit conversion is
//! left); errors it still finds (return and path conflicts) are located diagnostics.

use super::fixpoint::{const_index, Inferencer, Instance};
use super::{err, TypedFunction};
use crate::builtins::{Builtin, ListOp, Typing, Ufunc};
use crate::function::*;
use crate::module::{ErrorModel, FunctionKind, Module};
use crate::types::{Scalar, Type};
use crate::typing;
use hashbrown::HashMap;
use twinjit_diag::{Diagnostic, Span};

/// Numba's message when an operand of an array expression does not broadcast to the result
/// (`{}`: the operand's position), with both shapes (`{src}`, `{dst}`: `shape_message`).
const BROADCAST_SHAPES: &str = "unable to broadcast argument {} of shape {src} to output array of shape {dst}";

/// Numba's message when a slice assignment's source does not fit, with both shapes.
const SLICE_SHAPES: &str = "cannot assign slice of shape {dst} from input of shape {src}";

mod arrays;
mod broadcast;
mod complex;
mod dicts;
mod elementwise;
mod fancy;
mod hashing;
mod heaps;
mod linalg;
mod lists;
mod numpy_fns;
mod random;
mod reductions;
mod sorting;
mod strings;
mod user_ufunc;

struct Rewriter<'a> {
    src: &'a Function,
    /// The inferred types of the source values (owned: an instruction's optional operands
    /// are swapped for their value type while it is rewritten).
    types: Vec<Type>,
    g: Function,
    vmap: Vec<Option<Value>>,
    error_model: ErrorModel,
    instances: &'a [Instance],
    index: &'a HashMap<(usize, Vec<Type>), usize>,
    module: &'a Module,
    diags: Vec<Diagnostic>,
    /// The elementwise array operations computed inside their consumer's loop (by source
    /// value; see `elementwise.rs`).
    fused: Vec<bool>,
    /// Per source block: reachable after dead-branch pruning (see `Instance::live`).
    live: Vec<bool>,
    /// Per source block: the way a branch the types decide goes.
    taken: Vec<Option<bool>>,
    /// Whether this is host code (not a kernel or device function): runtime helpers such as
    /// `gemm` are available.
    host: bool,
    /// Where the rest of each source block's code goes: the block itself, or the block after
    /// the last loop or check a rewrite split it at (see `arrays.rs`).
    pub(super) cur: Vec<Block>,
    /// While a `target='parallel'` ufunc is rewritten: its elementwise loop is a `prange`.
    parallel: bool,
    /// `parallel=True`: every array expression's elementwise loop is a `prange` (Numba's
    /// parfors for array expressions).
    parallel_fn: bool,
}

/// Rewrites specialisation `i` of a solved fixpoint into typed IR.
pub(super) fn rewrite(cx: &Inferencer, i: usize) -> Result<TypedFunction, Vec<Diagnostic>> {
    let inst = &cx.instances[i];
    let mf = cx.mf(i);
    let src = &mf.body;
    let mut diags = Vec::new();
    // An empty list nothing is put into has no element type (Numba: "Cannot infer the type").
    for d in &src.insts {
        if let (InstKind::Builtin(Builtin::ListNew, _), Some(r)) = (&d.kind, d.result) {
            if !inst.types[r.index()].is_known()
                && src
                    .blocks
                    .iter()
                    .enumerate()
                    .any(|(k, b)| inst.live[k] && b.insts.iter().any(|i| src.insts[i.index()].result == Some(r)))
            {
                diags.push(
                    err(d.span, "cannot infer the type of this list's elements", "empty list").with_hint(
                        "Numba must see what an empty list receives: append to it in this function, or start from a literal like [0.0]",
                    ),
                );
                return Err(diags);
            }
        }
    }
    if inst.ret == Type::Unknown && !inst.returns_none {
        let has_return =
            src.blocks.iter().enumerate().any(|(k, b)| inst.live[k] && matches!(b.term, Terminator::Return(Some(_))));
        if has_return {
            diags.push(
                err(mf.name_span, format!("cannot infer the return type of `{}`", mf.name), "in this function")
                    .with_hint("a recursive function needs a base case that returns before recursing"),
            );
            return Err(diags);
        }
    }
    let ret = if inst.ret == Type::Unknown { Type::None } else { inst.ret.clone() };
    if mf.attrs.kind == FunctionKind::Kernel && ret != Type::None {
        diags.push(err(mf.name_span, "a kernel cannot return a value", "this kernel returns a value").with_hint(
            "write results into an array argument, or make it a device function with @cuda.jit(device=True)",
        ));
    }
    // A bare `return` beside numbers made the result optional; beside arrays or tuples it is
    // refused (optionals of those are not supported).
    if inst.returns_none && ret != Type::None && !matches!(ret, Type::Optional(_)) && inst.declared_ret.is_none() {
        diags.push(
            err(
                mf.name_span,
                format!("`{}` returns {ret} on some paths and None on others", mf.name),
                "in this function",
            )
            .with_hint("return a value on every path (optional values are supported for numbers only)"),
        );
    }
    let mut g = Function::new(inst.mangled.clone(), src.span);
    g.param_names = src.param_names.clone();
    g.param_spans = src.param_spans.clone();
    g.ret = ret;
    let error_model = cx.options.error_model.unwrap_or(mf.attrs.error_model);
    let mut rw = Rewriter {
        src,
        types: inst.types.clone(),
        g,
        vmap: vec![None; src.values.len()],
        error_model,
        instances: &cx.instances,
        index: &cx.index,
        module: cx.module,
        diags,
        fused: {
            // A clip with a None bound is evaluated at its own instruction, where the rewrite
            // stands the bound in (see `inst`), never inside a consumer's loop.
            let mut fused = elementwise::fusable(src, &inst.types);
            for d in &src.insts {
                if let (InstKind::Builtin(Builtin::NpClip, args), Some(r)) = (&d.kind, d.result) {
                    if args.iter().skip(1).take(2).any(|a| inst.types[a.index()] == Type::None) {
                        fused[r.index()] = false;
                    }
                }
            }
            fused
        },
        live: inst.live.clone(),
        taken: inst.taken.clone(),
        host: mf.attrs.kind == FunctionKind::Host,
        cur: (0..src.blocks.len() as u32).map(Block).collect(),
        parallel: false,
        parallel_fn: mf.options.parallel,
    };
    rw.run();
    if rw.diags.is_empty() {
        if let Some(d) = complex::unexpanded(&rw.g) {
            rw.diags.push(d);
        }
    }
    if rw.diags.is_empty() {
        Ok(TypedFunction {
            func: rw.g,
            source_name: mf.name.clone(),
            args: inst.args.clone(),
            kind: mf.attrs.kind,
            fastmath: mf.attrs.fastmath,
        })
    } else {
        Err(rw.diags)
    }
}

impl Rewriter<'_> {
    fn run(&mut self) {
        let src = self.src;
        while self.g.blocks.len() < src.blocks.len() {
            self.g.add_block();
        }
        // Block parameters first so that back edges can name them.
        for (bi, b) in src.blocks.iter().enumerate() {
            for &p in &b.params {
                let mut t = self.types[p.index()].clone();
                if !t.is_known() {
                    // Only undefined values flow here (a variable assigned on no path); it
                    // gets type None and any use of it is a type error at the use.
                    t = Type::None;
                }
                let np = self.g.add_block_param(Block(bi as u32), t);
                self.vmap[p.index()] = Some(np);
            }
        }
        let rpo = src.reverse_postorder();
        for &b in &rpo {
            if !self.live[b.index()] {
                // Pruned: never typed, never reached.
                self.g.terminate(self.cur[b.index()], Terminator::Unreachable, src.blocks[b.index()].term_span);
                continue;
            }
            // The unwind edge's arguments are computed first (coercions and the zeros of
            // undefined variables go in a prefix block that cannot raise), then every block
            // the rewrite makes for `b`'s code takes the edge.
            let unwind = match &src.blocks[b.index()].unwind {
                Some(u) => match self.edge_args(b, u, src.blocks[b.index()].term_span) {
                    Ok(c) => {
                        let pre = self.cur[b.index()];
                        if !self.g.blocks[pre.index()].insts.is_empty() {
                            let n = self.g.add_block();
                            self.g.terminate(pre, Terminator::Jump(BlockCall { block: n, args: vec![] }), Span::DUMMY);
                            self.cur[b.index()] = n;
                        }
                        Some(c)
                    }
                    Err(d) => {
                        self.diags.push(d);
                        return;
                    }
                },
                None => None,
            };
            let (first, made) = (self.cur[b.index()], self.g.blocks.len());
            for &inst in &src.blocks[b.index()].insts {
                if let Err(d) = self.inst(b, &src.insts[inst.index()]) {
                    self.diags.push(d);
                    return;
                }
            }
            if let Err(d) = self.term(b) {
                self.diags.push(d);
                return;
            }
            if let Some(u) = unwind {
                for k in std::iter::once(first.index()).chain(made..self.g.blocks.len()) {
                    self.g.blocks[k].unwind = Some(u.clone());
                }
            }
        }
    }

    fn val(&self, v: Value) -> Value {
        self.vmap[v.index()].expect("operands are rewritten before their uses (dominance)")
    }

    fn ty(&self, v: Value) -> Type {
        self.g.ty(v).clone()
    }

    /// `print` of `x` (new value): Python's `str(x)`, or `repr(x)` inside a tuple (`repr`),
    /// as `print_*` pieces; the last piece's value. Integers print through int64 or uint64,
    /// floats through float64 (Numba prints a float32 as the double it converts to); a
    /// string's text and None are known, written as constants are.
    pub(super) fn print_value(&mut self, b: Block, x: Value, repr: bool, span: Span) -> Result<Value, Diagnostic> {
        let rt = Type::I64;
        let (h, t) = match self.ty(x) {
            Type::Tuple(ts) => {
                self.print_text(b, "(", span);
                for (k, t) in ts.iter().enumerate() {
                    if k > 0 {
                        self.print_text(b, ", ", span);
                    }
                    let e = self.push(b, InstKind::TupleGet(x, k as u32), t.clone(), span);
                    self.print_value(b, e, true, span)?;
                }
                return Ok(self.print_text(b, if ts.len() == 1 { ",)" } else { ")" }, span));
            }
            Type::List(_) | Type::Dict(..) | Type::Set(_) => return self.print_container(b, x, span),
            Type::String => return self.print_string(b, x, repr, span),
            Type::Str(text) if repr => return Ok(self.print_text(b, &crate::exception::str_repr(&text), span)),
            Type::Str(text) => return Ok(self.print_text(b, &text, span)),
            Type::None => return Ok(self.print_text(b, "None", span)),
            Type::Scalar(Scalar::Bool) => (Builtin::PrintBoolH, Type::BOOL),
            Type::Scalar(s) if s.is_complex() => {
                // Python's `str` of a complex (the parts as float64, as Numba prints).
                let (re, im) = self.cparts(b, x, span);
                let (re, im) = (self.coerce(b, re, &Type::F64, span)?, self.coerce(b, im, &Type::F64, span)?);
                return Ok(self.push(b, InstKind::Builtin(Builtin::PrintComplexH, vec![re, im]), rt, span));
            }
            Type::Scalar(s) if s.is_float() => (Builtin::PrintFloatH, Type::F64),
            Type::Scalar(s) if s.is_unsigned() => (Builtin::PrintUIntH, Type::U64),
            Type::Scalar(_) => (Builtin::PrintIntH, Type::I64),
            t => return Err(err(span, format!("print() of {t} is not supported yet"), "printed here")),
        };
        let v = self.coerce(b, x, &t, span)?;
        Ok(self.push(b, InstKind::Builtin(h, vec![v]), rt, span))
    }

    /// `text` written by `print_bytes` pieces; the last piece's value.
    pub(super) fn print_text(&mut self, b: Block, text: &str, span: Span) -> Value {
        let mut last = self.int(b, 0, span);
        for (bits, n) in crate::builtins::print_chunks(text) {
            let (bits, n) = (self.int(b, bits, span), self.int(b, n, span));
            last = self.push(b, InstKind::Builtin(Builtin::PrintBytes, vec![bits, n]), Type::I64, span);
        }
        last
    }

    /// How array `a` (new value) is indexed by the source indices `idx`: (a whole-array
    /// boolean mask, an array among other indices: NumPy's advanced indexing, `fancy.rs`).
    fn advanced_index(&self, a: Value, idx: &[Value]) -> (bool, bool) {
        let Some(at) = self.g.ty(a).array() else { return (false, false) };
        let is_array = |t: &Type| matches!(t, Type::Array(_));
        let types: Vec<&Type> = idx.iter().map(|i| self.g.ty(self.val(*i))).collect();
        match &types[..] {
            [Type::Array(it)] if it.dtype == Scalar::Bool && it.ndim == at.ndim => (true, false),
            ts => (false, ts.iter().any(|t| is_array(t) || matches!(t, Type::Tuple(es) if es.iter().any(is_array)))),
        }
    }

    pub(super) fn push(&mut self, b: Block, kind: InstKind, ty: Type, span: Span) -> Value {
        self.g.push(self.cur[b.index()], kind, Some(ty), span).expect("has result")
    }

    /// An instruction without a result, in source block `b`'s current block.
    pub(super) fn push_void(&mut self, b: Block, kind: InstKind, span: Span) {
        self.g.push(self.cur[b.index()], kind, None, span);
    }

    /// `x op y` in `x`'s type (operands already converted).
    fn emit_binary(&mut self, b: Block, span: Span, op: BinaryOp, x: Value, y: Value) -> Value {
        let t = self.ty(x);
        self.push(b, InstKind::Binary(op, x, y), t, span)
    }

    /// The bool constant `v` (a new value) is, if it is one.
    fn const_bool(&self, v: Value) -> Option<bool> {
        match self.g.def_inst(v).map(|d| &d.kind) {
            Some(InstKind::Const(Const::Bool(x))) => Some(*x),
            _ => None,
        }
    }

    /// `x op y` as a bool.
    fn emit_compare(&mut self, b: Block, span: Span, op: CmpOp, x: Value, y: Value) -> Value {
        self.push(b, InstKind::Compare(op, x, y), Type::BOOL, span)
    }

    /// `c ? x : y` in `x`'s type.
    fn emit_select(&mut self, b: Block, span: Span, c: Value, x: Value, y: Value) -> Value {
        let t = self.ty(x);
        self.push(b, InstKind::Select(c, x, y), t, span)
    }

    /// Converts `v` (new value) to `target`.
    fn coerce(&mut self, b: Block, v: Value, target: &Type, span: Span) -> Result<Value, Diagnostic> {
        let t = self.ty(v);
        if &t == target {
            return Ok(v);
        }
        match (&t, target) {
            (Type::Scalar(_), Type::Scalar(c)) if c.is_complex() => self.as_complex(b, v, *c, span),
            (Type::Scalar(z), Type::Scalar(Scalar::Bool)) if z.is_complex() => Ok(self.complex_truth(b, v, span)),
            (Type::Scalar(z), Type::Scalar(s)) if z.is_complex() => {
                Err(err(span, format!("can't convert {} to {}", z.name(), s.name()), "a complex number")
                    .with_hint("take z.real, z.imag or abs(z)"))
            }
            (Type::Scalar(_), Type::Scalar(s)) => Ok(self.push(b, InstKind::Cast(*s, v), target.clone(), span)),
            // A C array where any layout is expected: the same parts, as a view of itself.
            (Type::Array(x), Type::Array(y)) if x.dtype == y.dtype && x.ndim == y.ndim => {
                let zero = self.push(b, InstKind::Const(Const::Int(0)), Type::I64, span);
                let dims = self.dims(b, v, span);
                let strides = self.strides(b, v, span);
                Ok(self.push(b, InstKind::View { base: v, offset: zero, shape: dims, strides }, target.clone(), span))
            }
            (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
                let mut parts = Vec::new();
                for (k, y) in ys.clone().iter().enumerate() {
                    let e = self.push(b, InstKind::TupleGet(v, k as u32), xs[k].clone(), span);
                    parts.push(self.coerce(b, e, y, span)?);
                }
                Ok(self.push(b, InstKind::MakeTuple(parts), target.clone(), span))
            }
            (Type::Str(_), Type::String) => Ok(self.materialize(b, v, span)),
            (Type::None, Type::Optional(_)) => self.make_optional(b, None, target, span),
            (Type::Scalar(_), Type::Optional(inner)) => {
                let x = self.coerce(b, v, inner, span)?;
                self.make_optional(b, Some(x), target, span)
            }
            (Type::Optional(x), Type::Optional(inner)) => {
                let flag = self.push(b, InstKind::TupleGet(v, 0), Type::BOOL, span);
                let val = self.push(b, InstKind::TupleGet(v, 1), (**x).clone(), span);
                let val = self.coerce(b, val, inner, span)?;
                Ok(self.push(b, InstKind::MakeTuple(vec![flag, val]), target.clone(), span))
            }
            (Type::Optional(inner), _) => {
                let inner = (**inner).clone();
                let u = self.unwrap_optional(b, v, &inner, span);
                self.coerce(b, u, target, span)
            }
            _ => Err(err(span, format!("type conflict: expected {target}, found {t}"), format!("this is {t}"))
                .with_hint(conflict_hint(&t, target))),
        }
    }

    fn zero_of(&mut self, b: Block, t: &Type, span: Span) -> Result<Value, Diagnostic> {
        Ok(match t {
            Type::Scalar(s) if s.is_complex() => {
                let zero = self.konst_of(b, s.component(), 0.0, span);
                self.cmake(b, *s, zero, zero, span)
            }
            Type::Scalar(s) => {
                let c = match s {
                    Scalar::Bool => Const::Bool(false),
                    s if s.is_float() => Const::Float(0.0),
                    _ => Const::Int(0),
                };
                self.push(b, InstKind::Const(c), t.clone(), span)
            }
            Type::None => self.push(b, InstKind::Const(Const::None), Type::None, span),
            Type::Optional(_) => self.make_optional(b, None, t, span)?,
            Type::Tuple(ts) => {
                let mut parts = Vec::new();
                for e in ts.clone() {
                    parts.push(self.zero_of(b, &e, span)?);
                }
                self.push(b, InstKind::MakeTuple(parts), t.clone(), span)
            }
            _ => {
                return Err(err(span, "a variable holding an array is not assigned on every path", "used here")
                    .with_hint("assign the array before branches or loops"))
            }
        })
    }

    fn scalar_arg(&mut self, b: Block, v: Value, s: Scalar, span: Span) -> Result<Value, Diagnostic> {
        let nv = self.val(v);
        self.coerce(b, nv, &Type::Scalar(s), span)
    }

    fn truth(&mut self, b: Block, v: Value, span: Span) -> Result<Value, Diagnostic> {
        match self.ty(v) {
            Type::Scalar(Scalar::Bool) => Ok(v),
            Type::Scalar(s) if s.is_complex() => Ok(self.complex_truth(b, v, span)),
            Type::Scalar(_) => Ok(self.push(b, InstKind::Cast(Scalar::Bool, v), Type::BOOL, span)),
            t @ Type::Array(_) => {
                Err(err(span, format!("the truth value of an array ({t}) is ambiguous"), "used as a condition")
                    .with_hint("use a.any() or a.all(), or compare one element"))
            }
            // Python's: a list is true when it is not empty, a tuple when it has elements.
            Type::List(_) => {
                let n = self.push(b, InstKind::ListLen(v), Type::I64, span);
                let zero = self.int(b, 0, span);
                Ok(self.emit_compare(b, span, CmpOp::Ne, n, zero))
            }
            Type::String => Ok(self.string_truth(b, v, span)),
            Type::Dict(..) | Type::Set(_) => {
                let n = self.dict_len(b, v, span);
                let zero = self.int(b, 0, span);
                Ok(self.emit_compare(b, span, CmpOp::Ne, n, zero))
            }
            Type::Tuple(ts) => Ok(self.push(b, InstKind::Const(Const::Bool(!ts.is_empty())), Type::BOOL, span)),
            Type::None => Ok(self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span)),
            // A string is true when it is not empty.
            Type::Str(s) => Ok(self.push(b, InstKind::Const(Const::Bool(!s.is_empty())), Type::BOOL, span)),
            t => Err(err(span, format!("the truth value of {t} is not defined here"), "used as a condition")
                .with_hint("compare explicitly, e.g. `x > 0` or `len(a) > 0`")),
        }
    }

    fn check_undef_operands(&self, data: &InstData) -> Result<(), Diagnostic> {
        for op in data.kind.operands() {
            if self.fused[op.index()] {
                continue;
            }
            if matches!(self.src.def_inst(op).map(|d| &d.kind), Some(InstKind::Undef)) {
                return Err(err(
                    data.span,
                    "a variable used here is not assigned on every path before it",
                    "possibly unassigned",
                )
                .with_hint("assign it before the branch or loop"));
            }
            let nt = self.ty(self.val(op));
            if nt == Type::None
                && !matches!(
                    data.kind,
                    InstKind::MakeTuple(_)
                        | InstKind::Call(..)
                        | InstKind::GetItem(..)
                        | InstKind::SetItem(..)
                        | InstKind::Compare(CmpOp::Eq | CmpOp::Ne, ..)
                        | InstKind::Builtin(
                            Builtin::Is
                                | Builtin::IsInstance
                                | Builtin::Dtype
                                | Builtin::TupleSlice
                                | Builtin::SliceIndex
                                | Builtin::PrintValue
                                | Builtin::StrMethod
                                | Builtin::GridSync,
                            _
                        )
                )
                && !matches!(&data.kind, InstKind::Builtin(b, _) if matches!(b.info().typing, Typing::Alloc(_) | Typing::List(_) | Typing::Reduce(_) | Typing::Linalg(_) | Typing::Random(_) | Typing::Method(_) | Typing::Elementwise(_) | Typing::Ufunc(_) | Typing::View(_) | Typing::UserUfunc))
            {
                return Err(err(data.span, "a value used here is None (a variable that is never assigned, or a function without a return value)", "None used here"));
            }
        }
        Ok(())
    }

    fn inst(&mut self, b: Block, data: &InstData) -> Result<(), Diagnostic> {
        if matches!(data.kind, InstKind::Undef) {
            // Materialised lazily: uses in edges become zeros, other uses are errors.
            return Ok(());
        }
        self.check_undef_operands(data)?;
        // Optional operands are unwrapped (a `TypeError` on `None`) for every use but `is`:
        // the instruction is rewritten seeing their value types, as inference typed it.
        let mut swaps: Vec<(Value, Option<Value>, Type)> = Vec::new();
        let optional_vs_none = matches!(data.kind, InstKind::Compare(op, x, y)
            if super::fixpoint::optional_none_compare(op, &self.types[x.index()], &self.types[y.index()]));
        if !matches!(data.kind, InstKind::Builtin(Builtin::Is, _) | InstKind::MakeTuple(_)) && !optional_vs_none {
            for a in data.kind.operands() {
                // (Checked by reference: this runs for every operand of every instruction.)
                let (Type::Optional(t), Some(nv)) = (&self.types[a.index()], self.vmap[a.index()]) else { continue };
                if swaps.iter().any(|(x, _, _)| *x == a) {
                    continue;
                }
                let t = (**t).clone();
                let u = self.unwrap_optional(b, nv, &t, data.span);
                let old = std::mem::replace(&mut self.types[a.index()], t);
                swaps.push((a, self.vmap[a.index()], old));
                self.vmap[a.index()] = Some(u);
            }
        }
        // `np.clip(a, None, hi)` / `np.clip(a, lo, None)`: the missing bound is the extreme of
        // the array's dtype (infinity for floats), which clips nothing.
        if let InstKind::Builtin(Builtin::NpClip, args) = &data.kind {
            let dtype = self.types[args[0].index()].array().map(|at| at.dtype);
            for &a in args.iter().skip(1).take(2) {
                if let (Type::None, Some(d), false) =
                    (&self.types[a.index()], dtype, swaps.iter().any(|(x, _, _)| *x == a))
                {
                    let low = a == args[1];
                    let (c, ct) = if d.is_float() {
                        (Const::Float(if low { f64::NEG_INFINITY } else { f64::INFINITY }), Type::F64)
                    } else if d == Scalar::Bool {
                        (Const::Bool(!low), Type::BOOL)
                    } else {
                        // The extreme's 64-bit pattern, cast (wrapped) to the dtype.
                        let (lo, hi) = d.int_range();
                        let v = if low { lo } else { hi };
                        (Const::Int(v as u64 as i64), Type::I64)
                    };
                    let k = self.push(b, InstKind::Const(c), ct.clone(), data.span);
                    let k = if ct == Type::Scalar(d) {
                        k
                    } else {
                        self.push(b, InstKind::Cast(d, k), Type::Scalar(d), data.span)
                    };
                    swaps.push((a, self.vmap[a.index()], self.types[a.index()].clone()));
                    self.vmap[a.index()] = Some(k);
                    self.types[a.index()] = Type::Scalar(d);
                }
            }
        }
        let r = self.inst_unwrapped(b, data);
        for (a, v, t) in swaps.into_iter().rev() {
            self.vmap[a.index()] = v;
            self.types[a.index()] = t;
        }
        r
    }

    /// The value of optional `v` (of value type `t`), raising `TypeError("expected T, got
    /// None")` as Numba does when it is `None`.
    fn unwrap_optional(&mut self, b: Block, v: Value, t: &Type, span: Span) -> Value {
        let flag = self.push(b, InstKind::TupleGet(v, 0), Type::BOOL, span);
        let none = self.push(b, InstKind::Unary(UnaryOp::Not, flag), Type::BOOL, span);
        self.raise_if(b, none, "TypeError", &format!("expected {t}, got None"), span);
        self.push(b, InstKind::TupleGet(v, 1), t.clone(), span)
    }

    /// An optional of type `target` (`Optional(T)`): present with `value` (already a `T`), or
    /// `None` when `value` is `None`.
    fn make_optional(
        &mut self,
        b: Block,
        value: Option<Value>,
        target: &Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let inner = target.unwrapped().clone();
        let (flag, v) = match value {
            Some(v) => (true, v),
            None => (false, self.zero_of(b, &inner, span)?),
        };
        let f = self.push(b, InstKind::Const(Const::Bool(flag)), Type::BOOL, span);
        Ok(self.push(b, InstKind::MakeTuple(vec![f, v]), target.clone(), span))
    }

    fn inst_unwrapped(&mut self, b: Block, data: &InstData) -> Result<(), Diagnostic> {
        let span = data.span;
        if let Some(r) = data.result {
            if self.fused[r.index()] {
                // Computed inside its consumer's loop.
                return Ok(());
            }
            // An expression into a new array runs on the pool in a `parallel=True` function; one
            // into an existing array (`out=`), which may overlap its inputs, only when the ufunc
            // itself asks for it (`target='parallel'`).
            let parallel = self.parallel_ufunc(data);
            if elementwise::is_ufunc_out(data, &self.types) {
                self.parallel = parallel;
                let v = self.ufunc_into(b, data);
                self.parallel = false;
                self.vmap[r.index()] = Some(v?);
                return Ok(());
            }
            if elementwise::is_elementwise(data, &self.types) {
                self.parallel = parallel || self.parallel_fn;
                let v = self.elementwise(b, data);
                self.parallel = false;
                self.vmap[r.index()] = Some(v?);
                return Ok(());
            }
        }
        if let InstKind::Builtin(bi, args) = &data.kind {
            if let (Typing::Reduce(r), Some(&a0)) = (bi.info().typing, args.first()) {
                if self.fused[a0.index()] {
                    let src = self.expr_source(b, a0, span);
                    let rt = self.types[data.result.expect("has a result").index()].clone();
                    let v = self.reduce_folded(b, r, &src, rt, span)?;
                    self.vmap[data.result.expect("has a result").index()] = Some(v);
                    return Ok(());
                }
            }
        }
        if let InstKind::Builtin(Builtin::InPlace, args) = &data.kind {
            let target = self.val(args[0]);
            if matches!(self.ty(target), Type::Array(_)) {
                let m = "non-broadcastable output operand: the result of this in-place operator does not fit its array";
                self.store_elementwise(b, target, args[1], m, span)?;
                self.vmap[data.result.expect("has a result").index()] = Some(target);
            } else if matches!(self.ty(target), Type::List(_)) && matches!(self.ty(self.val(args[1])), Type::List(_)) {
                // `l += seq`: Python extends `l` itself (every alias sees it), so the items the
                // concatenation added are appended to `l`, converted to its element type.
                let joined = self.val(args[1]);
                self.list_extend_from(b, target, joined, span)?;
                self.vmap[data.result.expect("has a result").index()] = Some(target);
            } else {
                self.vmap[data.result.expect("has a result").index()] = Some(self.val(args[1]));
            }
            return Ok(());
        }
        let result_ty = data.result.map(|r| self.types[r.index()].clone());
        let out: Option<Value> = match &data.kind {
            InstKind::Undef => unreachable!("handled above"),
            _ if self.is_string_inst(&data.kind) => Some(self.string_inst(b, &data.kind, span)?),
            InstKind::Const(c) => {
                let t = result_ty.clone().unwrap_or(Type::None);
                Some(self.push(b, InstKind::Const(*c), t, span))
            }
            InstKind::Unary(UnaryOp::Not, a) | InstKind::Cast(Scalar::Bool, a)
                if matches!(self.ty(self.val(*a)), Type::List(_) | Type::Tuple(_) | Type::None | Type::Str(_)) =>
            {
                let v = self.val(*a);
                let t = self.truth(b, v, span)?;
                Some(match data.kind {
                    InstKind::Unary(..) => self.push(b, InstKind::Unary(UnaryOp::Not, t), Type::BOOL, span),
                    _ => t,
                })
            }
            InstKind::Unary(op, a) => {
                let s = self.ty(self.val(*a)).scalar().ok_or_else(|| self.expect_number(*a, span))?;
                let (operand, result) = typing::unary(*op, s).map_err(|m| err(span, m, "here"))?;
                if *op == UnaryOp::Not {
                    let v = self.val(*a);
                    let t = self.truth(b, v, span)?;
                    Some(self.push(b, InstKind::Unary(UnaryOp::Not, t), Type::BOOL, span))
                } else if operand.is_complex() {
                    let x = self.scalar_arg(b, *a, operand, span)?;
                    Some(self.complex_unary(b, *op, x, span))
                } else {
                    let x = self.scalar_arg(b, *a, operand, span)?;
                    let r = self.push(b, InstKind::Unary(*op, x), Type::Scalar(operand), span);
                    Some(self.coerce(b, r, &Type::Scalar(result), span)?)
                }
            }
            // Strings are their types: what is computed of them is a constant.
            InstKind::Binary(BinaryOp::Add | BinaryOp::Mul, ..) if matches!(result_ty, Some(Type::Str(_))) => {
                let Some(Type::Str(text)) = result_ty.clone() else { unreachable!("matched") };
                Some(self.push(b, InstKind::Const(Const::Str(crate::intern(&text))), Type::Str(text), span))
            }
            InstKind::Builtin(Builtin::Len, a) if matches!(self.types[a[0].index()], Type::Str(_)) => {
                let Type::Str(text) = &self.types[a[0].index()] else { unreachable!("matched") };
                let n = text.chars().count() as i64;
                Some(self.int(b, n, span))
            }
            InstKind::Builtin(Builtin::StrMethod, a) => {
                let v = super::fixpoint::str_method_of(a, &self.types).map_err(|m| err(span, m, "here"))?;
                Some(match v {
                    crate::builtins::StrValue::Str(s) => {
                        self.push(b, InstKind::Const(Const::Str(crate::intern(&s))), Type::Str(s), span)
                    }
                    crate::builtins::StrValue::Bool(x) => {
                        self.push(b, InstKind::Const(Const::Bool(x)), Type::BOOL, span)
                    }
                    crate::builtins::StrValue::Int(i) => self.int(b, i, span),
                })
            }
            InstKind::Builtin(Builtin::Contains, a)
                if super::fixpoint::str_contains(&self.types[a[0].index()], &self.types[a[1].index()]).is_some() =>
            {
                let v = super::fixpoint::str_contains(&self.types[a[0].index()], &self.types[a[1].index()]);
                Some(self.push(b, InstKind::Const(Const::Bool(v.expect("checked"))), Type::BOOL, span))
            }
            InstKind::Binary(BinaryOp::Add, a, c) if matches!(result_ty, Some(Type::Tuple(_))) => {
                let (x, y) = (self.val(*a), self.val(*c));
                let mut parts = self.elements(b, x, span);
                parts.extend(self.elements(b, y, span));
                Some(self.push(b, InstKind::MakeTuple(parts), result_ty.clone().expect("typed"), span))
            }
            InstKind::Compare(op, a, c)
                if super::fixpoint::typed_compare(*op, &self.ty(self.val(*a)), &self.ty(self.val(*c))).is_some() =>
            {
                let v = super::fixpoint::typed_compare(*op, &self.ty(self.val(*a)), &self.ty(self.val(*c)));
                Some(self.push(b, InstKind::Const(Const::Bool(v.expect("checked"))), Type::BOOL, span))
            }
            InstKind::Compare(op, a, c)
                if super::fixpoint::optional_none_compare(*op, &self.ty(self.val(*a)), &self.ty(self.val(*c))) =>
            {
                let o = if matches!(self.ty(self.val(*a)), Type::Optional(_)) { self.val(*a) } else { self.val(*c) };
                let present = self.push(b, InstKind::TupleGet(o, 0), Type::BOOL, span);
                if *op == CmpOp::Ne {
                    Some(present)
                } else {
                    Some(self.push(b, InstKind::Unary(UnaryOp::Not, present), Type::BOOL, span))
                }
            }
            InstKind::Compare(op, a, c) if matches!(self.ty(self.val(*a)), Type::Set(_)) => {
                let (x, y) = (self.val(*a), self.val(*c));
                Some(self.set_compare(b, *op, x, y, span)?)
            }
            InstKind::Compare(op, a, c) if matches!(self.ty(self.val(*a)), Type::List(_)) => {
                let (x, y) = (self.val(*a), self.val(*c));
                Some(self.compare_lists(b, *op, x, y, span)?)
            }
            InstKind::Compare(op, a, c) if matches!(self.ty(self.val(*a)), Type::Tuple(_)) => {
                let (x, y) = (self.val(*a), self.val(*c));
                Some(self.compare_tuples(b, *op, x, y, span)?)
            }
            InstKind::Binary(op, a, c) if matches!(result_ty, Some(Type::Set(_))) => {
                let (x, y) = (self.val(*a), self.val(*c));
                let which = match op {
                    BinaryOp::BitOr => crate::builtins::DictOp::SetUnion,
                    BinaryOp::BitAnd => crate::builtins::DictOp::SetIntersection,
                    BinaryOp::BitXor => crate::builtins::DictOp::SetSymmetricDifference,
                    _ => crate::builtins::DictOp::SetDifference,
                };
                Some(self.dict_op(b, which, &[x, y], result_ty.clone().expect("typed"), span)?)
            }
            InstKind::Binary(op, a, c) if matches!(result_ty, Some(Type::List(_))) => {
                let (x, y) = (self.val(*a), self.val(*c));
                Some(self.list_arith(b, *op, x, y, result_ty.clone().expect("typed"), span)?)
            }
            InstKind::Binary(op, a, c) => {
                let (sa, sc) = (self.scalar_ty(*a, span)?, self.scalar_ty(*c, span)?);
                let t = typing::binary(*op, sa, sc).map_err(|m| err(span, m, "here"))?;
                let x = self.scalar_arg(b, *a, t.lhs, span)?;
                let y = self.scalar_arg(b, *c, t.rhs, span)?;
                if t.result.is_complex() {
                    Some(self.complex_binary(b, *op, x, y, t.result, span)?)
                } else {
                    if matches!(op, BinaryOp::Div | BinaryOp::FloorDiv | BinaryOp::Mod)
                        && self.error_model == ErrorModel::Python
                    {
                        self.push_void(b, InstKind::CheckNonZero(y), span);
                    }
                    Some(self.push(b, InstKind::Binary(*op, x, y), Type::Scalar(t.result), span))
                }
            }
            InstKind::Compare(op, a, c) => {
                let (sa, sc) = (self.scalar_ty(*a, span)?, self.scalar_ty(*c, span)?);
                let s = typing::compare(*op, sa, sc);
                let x = self.scalar_arg(b, *a, s, span)?;
                let y = self.scalar_arg(b, *c, s, span)?;
                if s.is_complex() {
                    Some(self.complex_compare(b, *op, x, y, span))
                } else {
                    Some(self.push(b, InstKind::Compare(*op, x, y), Type::BOOL, span))
                }
            }
            // `bool(x)`: Python's truth (of a list, a dict, a tuple too).
            InstKind::Cast(Scalar::Bool, a) => {
                let v = self.val(*a);
                Some(self.truth(b, v, span)?)
            }
            InstKind::Cast(s, a) => {
                let v = self.val(*a);
                self.scalar_ty(*a, span)?;
                if *s == Scalar::Bool {
                    Some(self.truth(b, v, span)?)
                } else {
                    Some(self.coerce(b, v, &Type::Scalar(*s), span)?)
                }
            }
            InstKind::Select(c, x, y) => {
                let t = result_ty.clone().expect("select has a result");
                let cv = self.val(*c);
                let cond = self.truth(b, cv, span)?;
                let xv = self.val(*x);
                let xv = self.coerce(b, xv, &t, span)?;
                let yv = self.val(*y);
                let yv = self.coerce(b, yv, &t, span)?;
                Some(self.push(b, InstKind::Select(cond, xv, yv), t, span))
            }
            InstKind::Call(name, args) => Some(self.call(b, name, args, span)?),
            InstKind::Builtin(Builtin::CallValue, args) => {
                let Type::Function(name) = self.types[args[0].index()].clone() else {
                    return Err(err(span, "internal: a call of a value that is not a function", "here"));
                };
                Some(self.call(b, &name, &args[1..], span)?)
            }
            InstKind::FuncRef(_) => {
                let rt = result_ty.clone().expect("has result");
                Some(self.push(b, data.kind.clone(), rt, span))
            }
            InstKind::Builtin(bi, args) => self.builtin(b, *bi, args, result_ty.clone(), span)?,
            InstKind::Dim(a, k) => {
                let av = self.val(*a);
                let at = self.ty(av).array().expect("typed");
                let axis = typing::norm_axis(*k, at.ndim).expect("checked when typing");
                Some(self.push(b, InstKind::Dim(av, axis as i64), Type::I64, span))
            }
            InstKind::GetItem(a, idx) if idx.len() == 1 && self.fused[idx[0].index()] => {
                let av = self.val(*a);
                Some(self.masked_get_expr(b, av, idx[0], span)?)
            }
            InstKind::GetItem(a, idx) => {
                let av = self.val(*a);
                let (mask, advanced) = self.advanced_index(av, idx);
                match self.ty(av) {
                    Type::Array(_) if mask => Some(self.fancy_get(b, av, self.val(idx[0]), span)?),
                    Type::Array(_) if advanced => Some(self.advanced_get(b, av, idx, span)?),
                    Type::Array(_) if matches!(result_ty, Some(Type::Array(_))) => {
                        Some(self.subscript_view(b, av, idx, result_ty.clone().expect("typed"), span)?)
                    }
                    Type::Array(at) => {
                        let idx = self.indices(b, idx, span)?;
                        Some(self.push(b, InstKind::GetItem(av, idx), Type::Scalar(at.dtype), span))
                    }
                    Type::List(_) => {
                        let i = self.val(idx[0]);
                        Some(self.list_get(b, av, i, span)?)
                    }
                    Type::Dict(..) => {
                        let k = self.dict_key_of(b, idx, span);
                        Some(self.dict_get(b, av, k, span)?)
                    }
                    Type::Tuple(ts) => match const_index(self.src, idx, span) {
                        Ok(k) => {
                            let kk = typing::tuple_index(k, ts.len()).expect("checked when typing") as u32;
                            Some(self.push(b, InstKind::TupleGet(av, kk), ts[kk as usize].clone(), span))
                        }
                        Err(_) => {
                            let i = self.val(idx[0]);
                            Some(self.runtime_tuple_get(b, av, ts.len(), i, span)?)
                        }
                    },
                    t => return Err(err(span, format!("{t} is not subscriptable"), "indexed here")),
                }
            }
            InstKind::SetItem(a, idx, v)
                if matches!(self.ty(self.val(*a)), Type::List(_))
                    && matches!(
                        self.src.def_inst(idx[0]).map(|d| &d.kind),
                        Some(InstKind::Builtin(Builtin::SliceIndex, _))
                    ) =>
            {
                let Some(InstKind::Builtin(_, parts)) = self.src.def_inst(idx[0]).map(|d| d.kind.clone()) else {
                    unreachable!("matched above")
                };
                let parts: Vec<Value> = parts.iter().map(|p| self.val(*p)).collect();
                let (av, vv) = (self.val(*a), self.val(*v));
                self.list_set_slice(b, av, &parts, vv, span)?;
                None
            }
            InstKind::SetItem(a, idx, v) if matches!(self.ty(self.val(*a)), Type::Dict(..)) => {
                let (av, vv) = (self.val(*a), self.val(*v));
                let k = self.dict_key_of(b, idx, span);
                self.dict_set(b, av, k, vv, span)?;
                None
            }
            InstKind::SetItem(a, idx, v) if matches!(self.ty(self.val(*a)), Type::List(_)) => {
                let (av, i, vv) = (self.val(*a), self.val(idx[0]), self.val(*v));
                self.list_set(b, av, i, vv, span)?;
                None
            }
            InstKind::SetItem(a, idx, v) => {
                if let Some(InstKind::Builtin(Builtin::Flat, fa)) = self.src.def_inst(*a).map(|d| &d.kind) {
                    if self.types[fa[0].index()].array().is_some_and(|t| t.layout != crate::types::Layout::C) {
                        return Err(err(
                            span,
                            "storing through a.flat of an array that may not be contiguous is not supported",
                            "store",
                        )
                        .with_hint("index the array itself, or store into a.ravel() of a contiguous array"));
                    }
                }
                let av = self.val(*a);
                let Some(at) = self.ty(av).array() else {
                    return Err(err(span, format!("cannot assign into {}", self.ty(av)), "item assignment")
                        .with_hint("only array elements can be assigned"));
                };
                let idx_types: Vec<Type> = idx.iter().map(|i| self.ty(self.val(*i))).collect();
                match self.advanced_index(av, idx) {
                    (true, _) => {
                        let (i, vv) = (self.val(idx[0]), self.val(*v));
                        self.fancy_set(b, av, i, vv, span)?;
                        return Ok(());
                    }
                    (false, true) => {
                        let vv = self.val(*v);
                        self.advanced_set(b, av, idx, vv, span)?;
                        return Ok(());
                    }
                    (false, false) => {}
                }
                if matches!(typing::array_subscript(&at, &idx_types), Ok(Type::Array(_))) {
                    self.assign_view(b, av, idx, *v, span)?;
                    return Ok(());
                }
                let idx = self.indices(b, idx, span)?;
                let vv = self.val(*v);
                if self.ty(vv).scalar().is_none() {
                    return Err(err(
                        span,
                        format!("cannot store {} into an array of {}", self.ty(vv), at.dtype.name()),
                        "stored here",
                    ));
                }
                let vv = self.coerce(b, vv, &Type::Scalar(at.dtype), span)?;
                self.push_void(b, InstKind::SetItem(av, idx, vv), span);
                None
            }
            InstKind::MakeTuple(vs) => {
                let nv: Vec<Value> = vs.iter().map(|v| self.val(*v)).collect();
                let t = Type::Tuple(nv.iter().map(|v| self.ty(*v)).collect());
                Some(self.push(b, InstKind::MakeTuple(nv), t, span))
            }
            InstKind::TupleGet(t, k) => {
                let tv = self.val(*t);
                let rt = result_ty.clone().expect("has result");
                Some(self.push(b, InstKind::TupleGet(tv, *k), rt, span))
            }
            InstKind::AllocArray { .. } | InstKind::ConstArray(_) => {
                let rt = result_ty.clone().expect("has result");
                Some(self.push(b, data.kind.clone(), rt, span))
            }
            InstKind::Stride(..)
            | InstKind::NewArray { .. }
            | InstKind::View { .. }
            | InstKind::IncRef(_)
            | InstKind::DecRef(_)
            | InstKind::NewList(_)
            | InstKind::ListLen(_)
            | InstKind::ListGet(..)
            | InstKind::ListSet(..)
            | InstKind::ListResize(..)
            | InstKind::CheckIndex(..)
            | InstKind::CheckNonZero(..)
            | InstKind::Load(..)
            | InstKind::ParallelFor(..)
            | InstKind::Store(..) => {
                let mut k = data.kind.clone();
                k.map_operands(|v| self.vmap[v.index()].expect("dominance"));
                let ty = data.result.map(|r| self.types[r.index()].clone());
                self.g.push(self.cur[b.index()], k, ty, span)
            }
        };
        if let (Some(r), Some(o)) = (data.result, out) {
            self.vmap[r.index()] = Some(o);
        } else if let Some(r) = data.result {
            let none = self.push(b, InstKind::Const(Const::None), Type::None, span);
            self.vmap[r.index()] = Some(none);
        }
        Ok(())
    }

    /// The elements of tuple `t` (new value), read with `tupleget`.
    fn elements(&mut self, b: Block, t: Value, span: Span) -> Vec<Value> {
        let Type::Tuple(ts) = self.ty(t) else { unreachable!("a tuple") };
        ts.into_iter().enumerate().map(|(k, et)| self.push(b, InstKind::TupleGet(t, k as u32), et, span)).collect()
    }

    /// `t[i]` with a runtime index of a homogeneous `n`-tuple: a negative index wraps, an
    /// index out of range raises IndexError, then a select chain over the elements.
    fn runtime_tuple_get(&mut self, b: Block, t: Value, n: usize, i: Value, span: Span) -> Result<Value, Diagnostic> {
        let i = self.coerce(b, i, &Type::I64, span)?;
        let int = |this: &mut Self, k: i64| this.push(b, InstKind::Const(Const::Int(k)), Type::I64, span);
        let (zero, len) = (int(self, 0), int(self, n as i64));
        let neg = self.push(b, InstKind::Compare(CmpOp::Lt, i, zero), Type::BOOL, span);
        let wrapped = self.push(b, InstKind::Binary(BinaryOp::Add, i, len), Type::I64, span);
        let k = self.push(b, InstKind::Select(neg, wrapped, i), Type::I64, span);
        self.push_void(b, InstKind::CheckIndex(k, len, TUPLE_INDEX_AXIS), span);
        let elems = self.elements(b, t, span);
        let mut acc = elems[0];
        for (j, &e) in elems.iter().enumerate().skip(1) {
            let c = int(self, j as i64);
            let hit = self.push(b, InstKind::Compare(CmpOp::Eq, k, c), Type::BOOL, span);
            let et = self.ty(e);
            acc = self.push(b, InstKind::Select(hit, e, acc), et, span);
        }
        Ok(acc)
    }

    /// `x op y` of two numbers (converted as the operator does), two tuples or two lists.
    pub(super) fn compare_values(
        &mut self,
        b: Block,
        op: CmpOp,
        x: Value,
        y: Value,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        match (self.ty(x), self.ty(y)) {
            (Type::Scalar(sa), Type::Scalar(sc)) => {
                let s = typing::compare(op, sa, sc);
                let x = self.coerce(b, x, &Type::Scalar(s), span)?;
                let y = self.coerce(b, y, &Type::Scalar(s), span)?;
                if s.is_complex() && matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    return Ok(self.complex_compare(b, op, x, y, span));
                }
                Ok(self.push(b, InstKind::Compare(op, x, y), Type::BOOL, span))
            }
            (Type::List(_), _) => self.compare_lists(b, op, x, y, span),
            (a, c) if typing::is_string(&a) && typing::is_string(&c) => {
                let (px, py) = (self.points(b, x, span), self.points(b, y, span));
                self.compare_lists(b, op, px, py, span)
            }
            _ => self.compare_tuples(b, op, x, y, span),
        }
    }

    /// Python's tuple comparison: `==` element by element (and equal lengths); an order
    /// decided by the first position whose elements differ, else by the lengths.
    fn compare_tuples(&mut self, b: Block, op: CmpOp, x: Value, y: Value, span: Span) -> Result<Value, Diagnostic> {
        let (xs, ys) = (self.elements(b, x, span), self.elements(b, y, span));
        let konst = |this: &mut Self, v: bool| this.push(b, InstKind::Const(Const::Bool(v)), Type::BOOL, span);
        match op {
            CmpOp::Eq | CmpOp::Ne => {
                let mut acc = konst(self, xs.len() == ys.len());
                if xs.len() == ys.len() {
                    for (&p, &q) in xs.iter().zip(&ys) {
                        let e = self.compare_values(b, CmpOp::Eq, p, q, span)?;
                        acc = self.emit_binary(b, span, BinaryOp::BitAnd, acc, e);
                    }
                }
                if op == CmpOp::Ne {
                    acc = self.push(b, InstKind::Unary(UnaryOp::Not, acc), Type::BOOL, span);
                }
                Ok(acc)
            }
            _ => {
                let (nx, ny) = (xs.len(), ys.len());
                let by_len = match op {
                    CmpOp::Lt => nx < ny,
                    CmpOp::Le => nx <= ny,
                    CmpOp::Gt => nx > ny,
                    _ => nx >= ny,
                };
                let mut acc = konst(self, by_len);
                for (&p, &q) in xs.iter().zip(&ys).rev() {
                    let same = self.compare_values(b, CmpOp::Eq, p, q, span)?;
                    let strict = match op {
                        CmpOp::Lt | CmpOp::Le => CmpOp::Lt,
                        _ => CmpOp::Gt,
                    };
                    let decided = self.compare_values(b, strict, p, q, span)?;
                    acc = self.push(b, InstKind::Select(same, acc, decided), Type::BOOL, span);
                }
                Ok(acc)
            }
        }
    }

    fn expect_number(&self, v: Value, span: Span) -> Diagnostic {
        let t = self.ty(self.val(v));
        err(span, format!("expected a number here, found {t}"), format!("this is {t}"))
    }

    fn scalar_ty(&self, v: Value, span: Span) -> Result<Scalar, Diagnostic> {
        self.ty(self.val(v)).scalar().ok_or_else(|| self.expect_number(v, span))
    }

    /// Index operands: each an int64 (a tuple index is split into its elements).
    fn indices(&mut self, b: Block, idx: &[Value], span: Span) -> Result<Vec<Value>, Diagnostic> {
        let mut vals: Vec<Value> = Vec::new();
        if idx.len() == 1 {
            let v = self.val(idx[0]);
            if let Type::Tuple(ts) = self.ty(v) {
                for (k, t) in ts.iter().enumerate() {
                    vals.push(self.push(b, InstKind::TupleGet(v, k as u32), t.clone(), span));
                }
            } else {
                vals.push(v);
            }
        } else {
            vals = idx.iter().map(|v| self.val(*v)).collect();
        }
        let mut out = Vec::with_capacity(vals.len());
        for v in vals {
            // `a[i, ..., j]` with every dimension indexed: the `...` stands for no dimension.
            if matches!(self.ty(v), Type::Slice(crate::types::SliceKind::Ellipsis)) {
                continue;
            }
            out.push(self.coerce(b, v, &Type::I64, span)?);
        }
        Ok(out)
    }

    /// The direct call of module function `name` with `args` (a splat's elements spread),
    /// as the specialisation inference made for their types.
    fn call(&mut self, b: Block, name: &str, args: &[Value], span: Span) -> Result<Value, Diagnostic> {
        let cidx = self.module.functions.iter().position(|m| m.name == name).expect("checked when typing");
        let arg_types = super::fixpoint::call_arg_types(self.src, args, &self.types);
        let mut nargs: Vec<Value> = Vec::new();
        for a in args {
            let v = self.val(*a);
            if super::fixpoint::is_splat(self.src, *a) {
                let elems = self.elements(b, v, span);
                nargs.extend(elems);
            } else {
                nargs.push(v);
            }
        }
        // A callee with declared signatures takes its numbers converted to the chosen one.
        let (arg_types, _) = super::fixpoint::declared_call_types(&self.module.functions[cidx], arg_types);
        for (v, t) in nargs.iter_mut().zip(&arg_types) {
            let from = self.ty(*v).scalar();
            if let (Some(s), Some(from), true) = (t.scalar(), from, self.ty(*v) != *t) {
                *v = if s.is_complex() || from.is_complex() {
                    // A real number made complex (`coerce` builds the pair).
                    self.coerce(b, *v, t, span)?
                } else {
                    // Numba's conversions, the unsafe ones too (float64 -> int64 truncates).
                    self.push(b, InstKind::Cast(s, *v), t.clone(), span)
                };
            }
        }
        let Some(&ci) = self.index.get(&(cidx, arg_types.clone())) else {
            return Err(err(
                span,
                format!(
                    "internal: no specialisation of this call for ({})",
                    arg_types.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
                ),
                "here",
            ));
        };
        let callee = &self.instances[ci];
        let ret = if callee.ret == Type::Unknown { Type::None } else { callee.ret.clone() };
        Ok(self.push(b, InstKind::Call(callee.mangled.clone(), nargs), ret, span))
    }

    fn builtin(
        &mut self,
        b: Block,
        bi: Builtin,
        args: &[Value],
        rt: Option<Type>,
        span: Span,
    ) -> Result<Option<Value>, Diagnostic> {
        let rt = rt.expect("builtins have a result");
        if bi.info().typing == Typing::UserUfunc {
            return Ok(Some(self.user_ufunc(b, bi, args, rt, span)?));
        }
        let a0 = args.first().map(|a| self.val(*a));
        if let (Builtin::Real | Builtin::Imag, Some(a)) = (bi, a0) {
            if self.ty(a).array().is_some() {
                return Ok(Some(self.part_view(b, a, bi == Builtin::Imag, rt, span)));
            }
        }
        let mut nargs: Vec<Value> = args.iter().map(|a| self.val(*a)).collect();
        // A trailing `out=None` (or `decimals=None`) of a ufunc-like builtin is no argument.
        if matches!(bi.info().typing, Typing::Ufunc(_) | Typing::Elementwise(_))
            && nargs.len() > 1
            && !(bi == Builtin::NpClip && nargs.len() == 3)
            && nargs.last().is_some_and(|v| self.ty(*v) == Type::None)
        {
            nargs.pop();
        }
        // What the first argument is, read in place (this runs for every builtin).
        let (on_dict, on_list) = match a0.map(|a| self.g.ty(a)) {
            Some(Type::Dict(..) | Type::Set(_)) => (true, false),
            Some(Type::List(_)) => (false, true),
            _ => (false, false),
        };
        if on_dict
            && matches!(
                bi.info().typing,
                Typing::ArrayLen
                    | Typing::Contains
                    | Typing::List(ListOp::Pop | ListOp::Del | ListOp::Clear | ListOp::Remove)
                    | Typing::Alloc(crate::builtins::Alloc::Copy)
            )
        {
            return Ok(Some(self.dict_builtin(b, bi, &nargs, rt, span)?));
        }
        // `max(s)`, `sum(d)`: over the list of a set's elements (a dict's keys).
        if on_dict && matches!(bi.info().typing, Typing::MinMax | Typing::Sum) {
            let (k, _) = self.dict_types(nargs[0]);
            nargs[0] =
                self.dict_op(b, crate::builtins::DictOp::IterSource, &[nargs[0]], Type::List(Box::new(k)), span)?;
            return Ok(Some(self.list_builtin(b, bi, &nargs, rt, span)?));
        }
        let list_form = matches!(
            bi.info().typing,
            Typing::ArrayLen
                | Typing::IterLen
                | Typing::Contains
                | Typing::Sum
                | Typing::TupleSlice
                | Typing::Alloc(crate::builtins::Alloc::Copy | crate::builtins::Alloc::Array)
        ) || (bi.info().typing == Typing::MinMax && nargs.len() == 1);
        if on_list && list_form {
            return Ok(Some(self.list_builtin(b, bi, &nargs, rt, span)?));
        }
        Ok(Some(match bi.info().typing {
            Typing::Complex(op) => self.complex_builtin(b, op, &nargs, &rt, span)?,
            Typing::Abs if self.ty(nargs[0]).scalar().is_some_and(Scalar::is_complex) => {
                self.complex_abs(b, nargs[0], span)
            }
            Typing::List(op) => self.list_op(b, op, &nargs, rt, span)?,
            Typing::Heap(op) => self.heap_op(b, op, &nargs, rt, span)?,
            Typing::Dict(op) => self.dict_op(b, op, &nargs, rt, span)?,
            Typing::InPlace => unreachable!("rewritten by `inst`"),
            Typing::Reduce(r) => self.reduce(b, r, args, &nargs, rt, span)?,
            Typing::ArrayFlag(fortran) => {
                let a = nargs[0];
                if fortran {
                    self.f_contiguous(b, a, span)
                } else {
                    match self.c_contiguous(b, a, span) {
                        Some(c) => c,
                        None => self.push(b, InstKind::Const(Const::Bool(true)), Type::BOOL, span),
                    }
                }
            }
            Typing::IsInstance => {
                let bits = match self.src.def_inst(args[1]).map(|d| &d.kind) {
                    Some(InstKind::Const(Const::Int(k))) => *k,
                    _ => 0,
                };
                let yes = crate::builtins::isinstance_classes(&self.types[args[0].index()], bits);
                self.push(b, InstKind::Const(Const::Bool(yes)), Type::BOOL, span)
            }
            Typing::ShapeSize => {
                let dims = self.shape_values(b, nargs[0], span)?;
                self.product(b, &dims, span)
            }
            Typing::NditerShape => self.nditer_shape(b, &nargs, rt, span),
            Typing::NditerGet => self.nditer_get(b, nargs[0], nargs[1], rt, span),
            Typing::BroadcastShapes => self.broadcast_shapes(b, &nargs, rt, span)?,
            Typing::BroadcastArrays => self.broadcast_arrays(b, &nargs, rt, span)?,
            Typing::Unravel => {
                let dims = self.shape_values(b, nargs[0], span)?;
                let mut rem = self.coerce(b, nargs[1], &Type::I64, span)?;
                let mut idx = vec![rem; dims.len()];
                for k in (0..dims.len()).rev() {
                    if k == 0 {
                        idx[0] = rem;
                        break;
                    }
                    idx[k] = self.emit_binary(b, span, BinaryOp::Mod, rem, dims[k]);
                    rem = self.emit_binary(b, span, BinaryOp::FloorDiv, rem, dims[k]);
                }
                self.push(b, InstKind::MakeTuple(idx), rt, span)
            }
            Typing::Elementwise(crate::builtins::Elem::Where) if nargs.len() == 1 => {
                self.array_method(b, crate::builtins::ArrayMethod::Nonzero, args, &nargs, rt, span)?
            }
            Typing::Elementwise(e) => {
                let r = rt.scalar().expect("numbers give a number");
                self.elem_fn(b, e, &nargs, r, span)?
            }
            Typing::Method(m) => self.array_method(b, m, args, &nargs, rt, span)?,
            Typing::Linalg(l) => self.linalg(b, l, args, &nargs, rt, span)?,
            Typing::Random(r) => self.random_op(b, r, &nargs, rt, span)?,
            Typing::Threads => {
                let mut args = Vec::new();
                for &a in &nargs {
                    args.push(self.coerce(b, a, &Type::I64, span)?);
                }
                // The helpers return int64 (0 for `set_num_threads`, whose value is None).
                let v = self.push(b, InstKind::Builtin(bi, args), Type::I64, span);
                if rt == Type::None {
                    self.push(b, InstKind::Const(Const::None), rt, span)
                } else {
                    v
                }
            }
            Typing::Alloc(a) => self.alloc(b, a, &nargs, rt, span)?,
            Typing::View(v) => self.view_op(b, v, &nargs, rt, span)?,
            // Consumed by the subscript's rewrite (which reads the untyped operands); the value
            // itself is a dead placeholder.
            Typing::SliceIndex => self.push(b, InstKind::Const(Const::None), rt, span),
            Typing::Abs => {
                let x = a0.expect("arity checked");
                let s = rt.scalar().expect("typed");
                let x = self.coerce(b, x, &rt, span)?;
                if s.is_float() {
                    self.push(b, InstKind::Builtin(Builtin::Fabs, vec![x]), rt, span)
                } else if s.is_unsigned() {
                    x
                } else {
                    // In 64 bits, then back to the type (`abs(int8(-128))` wraps, as in Numba).
                    let wt = Type::Scalar(s.widened());
                    let x = self.coerce(b, x, &wt, span)?;
                    let zero = self.push(b, InstKind::Const(Const::Int(0)), wt.clone(), span);
                    let neg = self.push(b, InstKind::Compare(CmpOp::Lt, x, zero), Type::BOOL, span);
                    let nx = self.push(b, InstKind::Unary(UnaryOp::Neg, x), wt.clone(), span);
                    let r = self.push(b, InstKind::Select(neg, nx, x), wt, span);
                    self.coerce(b, r, &rt, span)?
                }
            }
            Typing::MinMax => {
                // Python's algorithm, as Numba reproduces it: keep the accumulator unless the
                // next value compares strictly smaller (min) / greater (max).
                let op = if bi == Builtin::Min { CmpOp::Lt } else { CmpOp::Gt };
                let items = self.items(b, &nargs, span);
                let mut acc = self.coerce(b, items[0], &rt, span)?;
                for &v in &items[1..] {
                    let v = self.coerce(b, v, &rt, span)?;
                    let c = self.push(b, InstKind::Compare(op, v, acc), Type::BOOL, span);
                    acc = self.push(b, InstKind::Select(c, v, acc), rt.clone(), span);
                }
                acc
            }
            Typing::Round => self.round(b, &nargs, rt, span)?,
            Typing::Hash => self.py_hash(b, nargs[0], span)?,
            Typing::Divmod => {
                let (sa, sb) = (self.ty(nargs[0]).scalar(), self.ty(nargs[1]).scalar());
                let t = typing::binary(BinaryOp::FloorDiv, sa.expect("typed"), sb.expect("typed"))
                    .map_err(|m| err(span, m, "here"))?;
                let x = self.coerce(b, nargs[0], &Type::Scalar(t.lhs), span)?;
                let y = self.coerce(b, nargs[1], &Type::Scalar(t.rhs), span)?;
                if self.error_model == ErrorModel::Python {
                    self.push_void(b, InstKind::CheckNonZero(y), span);
                }
                let r = Type::Scalar(t.result);
                let q = self.push(b, InstKind::Binary(BinaryOp::FloorDiv, x, y), r.clone(), span);
                let m = self.push(b, InstKind::Binary(BinaryOp::Mod, x, y), r, span);
                self.push(b, InstKind::MakeTuple(vec![q, m]), rt, span)
            }
            Typing::Pow => {
                let (sa, sb) = (self.ty(nargs[0]).scalar(), self.ty(nargs[1]).scalar());
                let t = typing::binary(BinaryOp::Pow, sa.expect("typed"), sb.expect("typed"))
                    .map_err(|m| err(span, m, "here"))?;
                let x = self.coerce(b, nargs[0], &Type::Scalar(t.lhs), span)?;
                let y = self.coerce(b, nargs[1], &Type::Scalar(t.rhs), span)?;
                if t.result.is_complex() {
                    // `pow(z, w)` of complex numbers is `z ** w`.
                    self.complex_binary(b, BinaryOp::Pow, x, y, t.result, span)?
                } else {
                    self.push(b, InstKind::Binary(BinaryOp::Pow, x, y), rt, span)
                }
            }
            Typing::Identity => {
                let (ta, tb) = (self.ty(nargs[0]), self.ty(nargs[1]));
                match (&ta, ta.scalar()) {
                    (_, Some(_)) if ta == tb => {
                        self.push(b, InstKind::Compare(CmpOp::Eq, nargs[0], nargs[1]), rt, span)
                    }
                    (Type::None, _) if tb == Type::None => self.push(b, InstKind::Const(Const::Bool(true)), rt, span),
                    // An optional is `None` when its flag is clear.
                    (Type::Optional(_), _) | (Type::None, _)
                        if matches!((&ta, &tb), (Type::Optional(_), Type::None) | (Type::None, Type::Optional(_))) =>
                    {
                        let o = if matches!(ta, Type::Optional(_)) { nargs[0] } else { nargs[1] };
                        let flag = self.push(b, InstKind::TupleGet(o, 0), Type::BOOL, span);
                        self.push(b, InstKind::Unary(UnaryOp::Not, flag), rt, span)
                    }
                    // Numba's `array_is` and `list_is`: the same buffer (viewed with the same
                    // shape and strides), the same list object.
                    (Type::Array(_), _) if ta == tb => {
                        let (a, c) = (nargs[0], nargs[1]);
                        let mut same =
                            self.push(b, InstKind::Builtin(Builtin::SameAddress, vec![a, c]), rt.clone(), span);
                        let (da, dc) = (self.dims(b, a, span), self.dims(b, c, span));
                        let (sa, sc) = (self.strides(b, a, span), self.strides(b, c, span));
                        for (x, y) in da.into_iter().zip(dc).chain(sa.into_iter().zip(sc)) {
                            let eq = self.emit_compare(b, span, CmpOp::Eq, x, y);
                            same = self.emit_binary(b, span, BinaryOp::BitAnd, same, eq);
                        }
                        same
                    }
                    (Type::List(_), _) if ta == tb => {
                        self.push(b, InstKind::Builtin(Builtin::SameAddress, nargs.to_vec()), rt, span)
                    }
                    (Type::Tuple(_), _) if ta == tb => {
                        return Err(err(span, "`is` between tuples is not supported", "here")
                            .with_hint("compare the tuples with `==`"))
                    }
                    _ => self.push(b, InstKind::Const(Const::Bool(false)), rt, span),
                }
            }
            Typing::Sum if matches!(a0.map(|a| self.ty(a)), Some(Type::Array(_))) => {
                // `sum(a[, start])` of a 1-D array: Python's order, in the result's type.
                let a = a0.expect("arity");
                let init = match nargs.get(1) {
                    Some(&s) => self.coerce(b, s, &rt, span)?,
                    None => self.zero_of(b, &rt, span)?,
                };
                let out = self.fold_elements(b, a, vec![init], span, &mut |rw, x, v| {
                    let x = rw.coerce(b, x, &rt, span)?;
                    Ok(vec![rw.emit_binary(b, span, BinaryOp::Add, v[0], x)])
                })?;
                out[0]
            }
            Typing::Sum => {
                // Python's order: ((start + t[0]) + t[1]) + ..., each `+` typed as the operator.
                let mut acc = match nargs.get(1) {
                    Some(&s) => s,
                    None => self.push(b, InstKind::Const(Const::Int(0)), Type::I64, span),
                };
                for v in self.items(b, &nargs[..1], span) {
                    let (sa, sv) = (self.ty(acc).scalar().expect("typed"), self.ty(v).scalar().expect("typed"));
                    let t = typing::binary(BinaryOp::Add, sa, sv).map_err(|m| err(span, m, "here"))?;
                    let x = self.coerce(b, acc, &Type::Scalar(t.lhs), span)?;
                    let y = self.coerce(b, v, &Type::Scalar(t.rhs), span)?;
                    acc = if t.result.is_complex() {
                        self.complex_binary(b, BinaryOp::Add, x, y, t.result, span)?
                    } else {
                        self.push(b, InstKind::Binary(BinaryOp::Add, x, y), Type::Scalar(t.result), span)
                    };
                }
                self.coerce(b, acc, &rt, span)?
            }
            Typing::ArrayLen | Typing::IterLen if matches!(a0.map(|a| self.ty(a)), Some(Type::Tuple(_))) => {
                let Some(Type::Tuple(ts)) = a0.map(|a| self.ty(a)) else { unreachable!("matched") };
                self.push(b, InstKind::Const(Const::Int(ts.len() as i64)), Type::I64, span)
            }
            Typing::ArrayStrides => {
                let a = a0.expect("arity");
                let at = self.ty(a).array().expect("typed");
                let size = self.push(b, InstKind::Const(Const::Int(at.dtype.size() as i64)), Type::I64, span);
                let strides: Vec<Value> = (0..at.ndim)
                    .map(|k| {
                        let s = self.push(b, InstKind::Stride(a, k), Type::I64, span);
                        self.push(b, InstKind::Binary(BinaryOp::Mul, s, size), Type::I64, span)
                    })
                    .collect();
                self.push(b, InstKind::MakeTuple(strides), rt, span)
            }
            Typing::Contains => {
                // Python's `any(x == e for e in t)`, each `==` typed as the operator.
                let (t, x) = (nargs[0], nargs[1]);
                let mut acc = self.push(b, InstKind::Const(Const::Bool(false)), Type::BOOL, span);
                for e in self.elements(b, t, span) {
                    let eq = self.compare_values(b, CmpOp::Eq, x, e, span)?;
                    acc = self.push(b, InstKind::Binary(BinaryOp::BitOr, acc, eq), Type::BOOL, span);
                }
                acc
            }
            Typing::TupleSlice if matches!(self.ty(a0.expect("arity")), Type::Array(_)) => {
                self.slice_view(b, a0.expect("arity"), &nargs[1..], rt, span)?
            }
            Typing::TupleSlice => {
                let t = a0.expect("arity");
                let n = match self.ty(t) {
                    Type::Tuple(ts) => ts.len(),
                    _ => unreachable!("checked when typing"),
                };
                let bounds = super::fixpoint::slice_bounds(self.src, &args[1..], span)?;
                let picks = typing::slice_indices(n, bounds[0], bounds[1], bounds[2]).expect("checked when typing");
                let parts: Vec<Value> = picks
                    .into_iter()
                    .map(|k| {
                        let et = match self.ty(t) {
                            Type::Tuple(ts) => ts[k].clone(),
                            _ => unreachable!("a tuple"),
                        };
                        self.push(b, InstKind::TupleGet(t, k as u32), et, span)
                    })
                    .collect();
                self.push(b, InstKind::MakeTuple(parts), rt, span)
            }
            // The tuple itself; the call reads its elements.
            Typing::Splat => a0.expect("arity"),
            // Rewritten as a call by `inst` before reaching here.
            Typing::CallValue | Typing::UserUfunc => {
                return Err(err(span, "internal: a call of a function value", "here"))
            }
            Typing::ArrayLen | Typing::IterLen => {
                let a = a0.expect("arity");
                self.push(b, InstKind::Dim(a, 0), Type::I64, span)
            }
            Typing::RangeIndex => {
                let a = a0.expect("arity");
                self.coerce(b, a, &Type::I64, span)?
            }
            Typing::ArrayNdim => {
                let a = a0.expect("arity");
                let n = self.ty(a).array().expect("typed").ndim;
                self.push(b, InstKind::Const(Const::Int(n as i64)), Type::I64, span)
            }
            Typing::ArraySize => {
                let a = a0.expect("arity");
                let n = self.ty(a).array().expect("typed").ndim;
                let mut acc = self.push(b, InstKind::Dim(a, 0), Type::I64, span);
                for k in 1..n {
                    let d = self.push(b, InstKind::Dim(a, k as i64), Type::I64, span);
                    acc = self.push(b, InstKind::Binary(BinaryOp::Mul, acc, d), Type::I64, span);
                }
                acc
            }
            Typing::ArrayDtype => self.zero_of(b, &rt, span)?,
            Typing::KernelArrayLike => {
                let dtype = self.ty(nargs[0]).scalar().expect("typed as a dtype's zero");
                let consts =
                    args[1..].iter().map(|a| const_index(self.src, &[*a], span)).collect::<Result<Vec<i64>, _>>()?;
                let space = if consts[0] == 0 {
                    crate::function::AddressSpace::Shared
                } else {
                    crate::function::AddressSpace::Local
                };
                // [space, alignment, dims...]
                let align = u32::try_from(consts[1]).unwrap_or(0);
                self.push(b, InstKind::AllocArray { space, dtype, shape: consts[2..].to_vec(), align }, rt, span)
            }
            Typing::SameDtype => {
                let same = nargs.len() == 2 && self.ty(nargs[0]) == self.ty(nargs[1]);
                self.push(b, InstKind::Const(Const::Bool(same)), rt, span)
            }
            Typing::ArrayItemsize | Typing::ArrayNbytes => {
                let a = a0.expect("arity");
                let at = self.ty(a).array().expect("typed");
                let item = self.push(b, InstKind::Const(Const::Int(at.dtype.size() as i64)), Type::I64, span);
                if bi.info().typing == Typing::ArrayItemsize {
                    item
                } else {
                    let mut acc = item;
                    for k in 0..at.ndim {
                        let d = self.push(b, InstKind::Dim(a, k as i64), Type::I64, span);
                        acc = self.emit_binary(b, span, BinaryOp::Mul, acc, d);
                    }
                    acc
                }
            }
            Typing::ArrayShape => {
                let a = a0.expect("arity");
                let dims = self.dims(b, a, span);
                self.push(b, InstKind::MakeTuple(dims), rt, span)
            }
            Typing::IntCtor => self.coerce(b, a0.expect("arity"), &rt, span)?,
            Typing::TupleCtor => a0.expect("arity"),
            Typing::Print if bi == Builtin::PrintBytes => self.push(b, InstKind::Builtin(bi, nargs), rt, span),
            Typing::Print => self.print_value(b, a0.expect("arity"), false, span)?,
            Typing::FloatToInt => {
                let x = a0.expect("arity");
                let s = self.ty(x).scalar().expect("typed");
                if s.is_float() {
                    let f = self.push(b, InstKind::Builtin(bi, vec![x]), Type::Scalar(s), span);
                    self.push(b, InstKind::Cast(Scalar::Int64, f), Type::I64, span)
                } else {
                    self.coerce(b, x, &Type::I64, span)?
                }
            }
            Typing::FloatPredicate => self.float_predicate(b, bi, a0.expect("arity"), span),
            Typing::FloatScale(factor) => {
                // Numba multiplies by the factor in the argument's float type.
                let x = self.coerce(b, nargs[0], &rt, span)?;
                let k = self.push(b, InstKind::Const(Const::Float(factor)), rt.clone(), span);
                self.push(b, InstKind::Binary(BinaryOp::Mul, x, k), rt, span)
            }
            Typing::FloatInt => {
                let x = self.coerce(b, nargs[0], &rt, span)?;
                let n = self.coerce(b, nargs[1], &Type::I32, span)?;
                self.push(b, InstKind::Builtin(bi, vec![x, n]), rt, span)
            }
            Typing::Frexp => {
                let ft = match &rt {
                    Type::Tuple(ts) => ts[0].clone(),
                    _ => unreachable!("frexp is typed as a tuple"),
                };
                let x = self.coerce(b, nargs[0], &ft, span)?;
                let m = self.push(b, InstKind::Builtin(Builtin::FrexpMantissa, vec![x]), ft, span);
                let e = self.push(b, InstKind::Builtin(Builtin::FrexpExponent, vec![x]), Type::I32, span);
                self.push(b, InstKind::MakeTuple(vec![m, e]), rt, span)
            }
            Typing::Modf => {
                // Python's modf: the fraction is fmod(x, 1) (exact), 0 for an infinity; both
                // parts carry the sign of x (modf(-0.5) == (-0.5, -0.0)); NaN gives NaNs.
                let ft = match &rt {
                    Type::Tuple(ts) => ts[0].clone(),
                    _ => unreachable!("modf is typed as a tuple"),
                };
                let x = self.coerce(b, nargs[0], &ft, span)?;
                let one = self.push(b, InstKind::Const(Const::Float(1.0)), ft.clone(), span);
                let zero = self.push(b, InstKind::Const(Const::Float(0.0)), ft.clone(), span);
                let r = self.push(b, InstKind::Builtin(Builtin::Fmod, vec![x, one]), ft.clone(), span);
                let inf = self.push(b, InstKind::Builtin(Builtin::IsInf, vec![x]), Type::BOOL, span);
                let r = self.push(b, InstKind::Select(inf, zero, r), ft.clone(), span);
                let frac = self.push(b, InstKind::Builtin(Builtin::Copysign, vec![r, x]), ft.clone(), span);
                let d = self.push(b, InstKind::Binary(BinaryOp::Sub, x, frac), ft.clone(), span);
                let whole = self.push(b, InstKind::Builtin(Builtin::Copysign, vec![d, x]), ft, span);
                self.push(b, InstKind::MakeTuple(vec![frac, whole]), rt, span)
            }
            Typing::CudaVector => {
                // Every component of the arguments in order, cast to the base type.
                let base = match &rt {
                    Type::Tuple(ts) => ts[0].scalar().expect("a vector of scalars"),
                    _ => unreachable!("a vector is typed as a tuple"),
                };
                let mut parts = Vec::new();
                for &a in &nargs[1..] {
                    match self.ty(a).clone() {
                        Type::Tuple(ts) => {
                            for (k, t) in ts.into_iter().enumerate() {
                                parts.push(self.push(b, InstKind::TupleGet(a, k as u32), t, span));
                            }
                        }
                        _ => parts.push(a),
                    }
                }
                let parts = parts
                    .into_iter()
                    .map(|p| {
                        if self.ty(p).scalar() == Some(base) {
                            p
                        } else {
                            self.push(b, InstKind::Cast(base, p), Type::Scalar(base), span)
                        }
                    })
                    .collect();
                self.push(b, InstKind::MakeTuple(parts), rt, span)
            }
            Typing::IntMath => {
                // Computed in int64 (the helper's width), then narrowed to the result type.
                let x = self.coerce(b, nargs[0], &Type::I64, span)?;
                let y = self.coerce(b, nargs[1], &Type::I64, span)?;
                let r = self.push(b, InstKind::Builtin(bi, vec![x, y]), Type::I64, span);
                self.coerce(b, r, &rt, span)?
            }
            Typing::FloatMath | Typing::Fma => {
                // Float math: arguments become the result's float type.
                for a in nargs.iter_mut() {
                    *a = self.coerce(b, *a, &rt, span)?;
                }
                self.push(b, InstKind::Builtin(bi, nargs), rt, span)
            }
            Typing::CacheLoad => self.push(b, InstKind::Builtin(bi, nargs), rt, span),
            Typing::CacheStore => {
                let at = self.ty(nargs[0]).array().expect("typed");
                nargs[2] = self.coerce(b, nargs[2], &Type::Scalar(at.dtype), span)?;
                self.push(b, InstKind::Builtin(bi, nargs), rt, span)
            }
            Typing::Atomic => {
                let at = self.ty(nargs[0]).array().expect("typed");
                for a in nargs.iter_mut().skip(2) {
                    *a = self.coerce(b, *a, &Type::Scalar(at.dtype), span)?;
                }
                self.push(b, InstKind::Builtin(bi, nargs), rt, span)
            }
            Typing::BarrierPredicate => {
                for a in nargs.iter_mut() {
                    *a = self.coerce(b, *a, &Type::I32, span)?;
                }
                self.push(b, InstKind::Builtin(bi, nargs), rt, span)
            }
            Typing::Select => {
                for a in nargs.iter_mut().skip(1) {
                    *a = self.coerce(b, *a, &rt, span)?;
                }
                self.push(b, InstKind::Builtin(bi, nargs), rt, span)
            }
            Typing::Ufunc(u) => self.ufunc(b, bi, u, &nargs, rt, span)?,
            Typing::GridIndex
            | Typing::SpecialRegister
            | Typing::NoResult
            | Typing::GridSync
            | Typing::ActiveMask
            | Typing::LaneMask
            | Typing::Bits(_)
            | Typing::Vote(_)
            | Typing::Shuffle
            | Typing::Internal => self.push(b, InstKind::Builtin(bi, nargs), rt, span),
        }))
    }

    /// The values `min`/`max`/`sum` run over: the arguments, or the elements of one tuple.
    fn items(&mut self, b: Block, args: &[Value], span: Span) -> Vec<Value> {
        match (args, args.first().map(|a| self.ty(*a))) {
            ([t], Some(Type::Tuple(ts))) => ts
                .iter()
                .enumerate()
                .map(|(k, et)| self.push(b, InstKind::TupleGet(*t, k as u32), et.clone(), span))
                .collect(),
            _ => args.to_vec(),
        }
    }

    /// `round(x)` (ties to even, then int64) and `round(x, ndigits)` by Numba's algorithm,
    /// with every branch computed and the result selected (no control flow in a rewrite):
    /// `x` if it is not finite; for `ndigits >= 0`, `y = x * 10**ndigits` (split as
    /// `10**(ndigits-22) * 1e22` past 22) gives `x` when infinite, else `rint(y) / 10**ndigits`;
    /// for `ndigits < 0`, `rint(x / 10**-ndigits) * 10**-ndigits`. `rint` runs in `x`'s own
    /// float type, the rest in float64, as in Numba.
    fn round(&mut self, b: Block, args: &[Value], rt: Type, span: Span) -> Result<Value, Diagnostic> {
        let x = args[0];
        let xs = self.ty(x).scalar().expect("typed");
        if args.len() == 1 {
            if !xs.is_float() {
                return self.coerce(b, x, &Type::I64, span);
            }
            let r = self.push(b, InstKind::Builtin(Builtin::NpRint, vec![x]), Type::Scalar(xs), span);
            return self.coerce(b, r, &Type::I64, span);
        }
        let ft = rt.clone();
        let f64t = Type::F64;
        let x = self.coerce(b, x, &ft, span)?;
        let xd = self.coerce(b, x, &f64t, span)?;
        let n = self.coerce(b, args[1], &Type::I64, span)?;
        let int = |this: &mut Self, k: i64| this.push(b, InstKind::Const(Const::Int(k)), Type::I64, span);
        let flt = |this: &mut Self, k: f64| this.push(b, InstKind::Const(Const::Float(k)), Type::F64, span);
        // rint in x's type, back in float64.
        let rint = |this: &mut Self, y: Value| -> Result<Value, Diagnostic> {
            let yf = this.coerce(b, y, &ft, span)?;
            let r = this.push(b, InstKind::Builtin(Builtin::NpRint, vec![yf]), ft.clone(), span);
            this.coerce(b, r, &Type::F64, span)
        };
        let ten = flt(self, 10.0);
        let (zero, k22) = (int(self, 0), int(self, 22));
        let nonneg = self.emit_compare(b, span, CmpOp::Ge, n, zero);
        let big = self.emit_compare(b, span, CmpOp::Gt, n, k22);
        let n22 = self.emit_binary(b, span, BinaryOp::Sub, n, k22);
        let e1 = self.emit_select(b, span, big, n22, n);
        let pow1 = self.emit_binary(b, span, BinaryOp::Pow, ten, e1);
        let (e22, one) = (flt(self, 1e22), flt(self, 1.0));
        let pow2 = self.emit_select(b, span, big, e22, one);
        let y = self.emit_binary(b, span, BinaryOp::Mul, xd, pow1);
        let y = self.emit_binary(b, span, BinaryOp::Mul, y, pow2);
        let ry = rint(self, y)?;
        let q = self.emit_binary(b, span, BinaryOp::Div, ry, pow2);
        let q = self.emit_binary(b, span, BinaryOp::Div, q, pow1);
        // Numba tests isinf, not isfinite: 0 * 10**400 is NaN and stays NaN.
        let yinf = self.push(b, InstKind::Builtin(Builtin::IsInf, vec![y]), Type::BOOL, span);
        let pos = self.emit_select(b, span, yinf, xd, q);
        let nn = self.push(b, InstKind::Unary(UnaryOp::Neg, n), Type::I64, span);
        let pown = self.emit_binary(b, span, BinaryOp::Pow, ten, nn);
        let yn = self.emit_binary(b, span, BinaryOp::Div, xd, pown);
        let ryn = rint(self, yn)?;
        let neg = self.emit_binary(b, span, BinaryOp::Mul, ryn, pown);
        let r = self.emit_select(b, span, nonneg, pos, neg);
        let xfin = self.push(b, InstKind::Builtin(Builtin::IsFinite, vec![xd]), Type::BOOL, span);
        let r = self.emit_select(b, span, xfin, r, xd);
        self.coerce(b, r, &rt, span)
    }

    /// `math.isnan(x)` and friends on a number (a constant for an integer).
    fn float_predicate(&mut self, b: Block, bi: Builtin, x: Value, span: Span) -> Value {
        let s = self.ty(x).scalar().expect("typed");
        if s.is_float() {
            self.push(b, InstKind::Builtin(bi, vec![x]), Type::BOOL, span)
        } else {
            let v = bi == Builtin::IsFinite;
            self.push(b, InstKind::Const(Const::Bool(v)), Type::BOOL, span)
        }
    }

    /// A NumPy ufunc on scalars, as Numba's scalar loops compute it. Integer and bool loops
    /// compute in int64 and narrow to the result type at the end (the values agree with
    /// Numba's narrower arithmetic); no `checknonzero`: ufuncs follow the NumPy error model.
    fn ufunc(
        &mut self,
        b: Block,
        bi: Builtin,
        u: Ufunc,
        args: &[Value],
        rt: Type,
        span: Span,
    ) -> Result<Value, Diagnostic> {
        let s = rt.scalar().expect("ufuncs give scalars");
        if let [x] = args {
            if let Some(c) = self.ty(*x).scalar().filter(|c| c.is_complex()) {
                if let Some(cu) = typing::complex_ufunc(bi) {
                    return self.complex_ufunc(b, cu, *x, c, span);
                }
            }
        }
        match u {
            Ufunc::Compare(op) => {
                let (sa, sb) = (self.ty(args[0]).scalar(), self.ty(args[1]).scalar());
                let t = Type::Scalar(typing::compare(op, sa.expect("numbers"), sb.expect("numbers")));
                let x = self.coerce(b, args[0], &t, span)?;
                let y = self.coerce(b, args[1], &t, span)?;
                return Ok(self.emit_compare(b, span, op, x, y));
            }
            Ufunc::Logical(op) => {
                let x = self.truth(b, args[0], span)?;
                let y = self.truth(b, args[1], span)?;
                return Ok(self.emit_binary(b, span, op, x, y));
            }
            Ufunc::LogicalNot => {
                let x = self.truth(b, args[0], span)?;
                return Ok(self.push(b, InstKind::Unary(UnaryOp::Not, x), Type::BOOL, span));
            }
            Ufunc::Invert if s == Scalar::Bool => {
                let x = self.truth(b, args[0], span)?;
                return Ok(self.push(b, InstKind::Unary(UnaryOp::Not, x), Type::BOOL, span));
            }
            _ => {}
        }
        let float = s.is_float();
        let ct = if float { rt.clone() } else { Type::Scalar(s.widened()) };
        let mut xs = Vec::with_capacity(args.len());
        for a in args {
            xs.push(self.coerce(b, *a, &ct, span)?);
        }
        let konst = |this: &mut Self, c: f64| {
            let k = if float { Const::Float(c) } else { Const::Int(c as i64) };
            this.push(b, InstKind::Const(k), ct.clone(), span)
        };
        // The smallest value of the (integer) result type, as an int64.
        let int_min = s.int_range().0.max(i64::MIN as i128) as i64;
        let r = match u {
            Ufunc::Float => self.push(b, InstKind::Builtin(bi, xs), ct, span),
            Ufunc::Scale(factor) => {
                let k = konst(self, factor);
                self.emit_binary(b, span, BinaryOp::Mul, xs[0], k)
            }
            Ufunc::Rounding if float => self.push(b, InstKind::Builtin(bi, xs), ct, span),
            Ufunc::Rounding | Ufunc::Positive => xs[0],
            Ufunc::Abs if float => self.push(b, InstKind::Builtin(Builtin::Fabs, xs), ct, span),
            Ufunc::Abs => {
                let zero = konst(self, 0.0);
                let neg = self.emit_compare(b, span, CmpOp::Lt, xs[0], zero);
                let nx = self.push(b, InstKind::Unary(UnaryOp::Neg, xs[0]), ct.clone(), span);
                self.emit_select(b, span, neg, nx, xs[0])
            }
            Ufunc::Negative => self.push(b, InstKind::Unary(UnaryOp::Neg, xs[0]), ct, span),
            Ufunc::Square => self.emit_binary(b, span, BinaryOp::Mul, xs[0], xs[0]),
            Ufunc::Sign => {
                // A float zero or NaN is its own sign; so is an integer zero.
                let (zero, one, minus) = (konst(self, 0.0), konst(self, 1.0), konst(self, -1.0));
                let pos = self.emit_compare(b, span, CmpOp::Gt, xs[0], zero);
                let neg = self.emit_compare(b, span, CmpOp::Lt, xs[0], zero);
                let r = self.emit_select(b, span, neg, minus, xs[0]);
                self.emit_select(b, span, pos, one, r)
            }
            Ufunc::Reciprocal if float => {
                let one = konst(self, 1.0);
                self.emit_binary(b, span, BinaryOp::Div, one, xs[0])
            }
            Ufunc::Reciprocal => {
                let f = self.coerce(b, xs[0], &Type::F64, span)?;
                let one = self.push(b, InstKind::Const(Const::Float(1.0)), Type::F64, span);
                self.emit_binary(b, span, BinaryOp::Div, one, f)
            }
            Ufunc::Minimum | Ufunc::Maximum | Ufunc::Fmin | Ufunc::Fmax => {
                let (x, y) = (xs[0], xs[1]);
                let op = if matches!(u, Ufunc::Minimum | Ufunc::Fmin) { CmpOp::Le } else { CmpOp::Ge };
                let keep = self.emit_compare(b, span, op, x, y);
                let r = self.emit_select(b, span, keep, x, y);
                match u {
                    // A NaN wins: x when x is NaN (a NaN y already lost the comparison).
                    Ufunc::Minimum | Ufunc::Maximum if float => {
                        let xnan = self.emit_compare(b, span, CmpOp::Ne, x, x);
                        self.emit_select(b, span, xnan, x, r)
                    }
                    // A NaN loses: x when y is NaN (a NaN x already lost the comparison).
                    Ufunc::Fmin | Ufunc::Fmax if float => {
                        let ynan = self.emit_compare(b, span, CmpOp::Ne, y, y);
                        self.emit_select(b, span, ynan, x, r)
                    }
                    _ => r,
                }
            }
            Ufunc::Power if float => self.emit_binary(b, span, BinaryOp::Pow, xs[0], xs[1]),
            Ufunc::Power if s.is_unsigned() => {
                let p = self.emit_binary(b, span, BinaryOp::Pow, xs[0], xs[1]);
                let pf = self.coerce(b, p, &Type::F64, span)?;
                self.coerce(b, pf, &rt, span)?
            }
            Ufunc::Power => {
                // Numba's integer power returns through float64; 0 to a negative power is
                // the type's minimum (never ZeroDivisionError).
                let (x, y) = (xs[0], xs[1]);
                let (zero, one) = (konst(self, 0.0), konst(self, 1.0));
                let x0 = self.emit_compare(b, span, CmpOp::Eq, x, zero);
                let yneg = self.emit_compare(b, span, CmpOp::Lt, y, zero);
                let zero_neg = self.emit_binary(b, span, BinaryOp::BitAnd, x0, yneg);
                let base = self.emit_select(b, span, zero_neg, one, x);
                let p = self.emit_binary(b, span, BinaryOp::Pow, base, y);
                let pf = self.coerce(b, p, &Type::F64, span)?;
                let pi = self.coerce(b, pf, &rt, span)?;
                let min = self.push(b, InstKind::Const(Const::Int(int_min)), rt.clone(), span);
                self.emit_select(b, span, zero_neg, min, pi)
            }
            Ufunc::Remainder if float => {
                // NumPy's remainder: fmod, then moved by the divisor when the signs differ.
                let (x, y) = (xs[0], xs[1]);
                let r = self.push(b, InstKind::Builtin(Builtin::Fmod, vec![x, y]), ct.clone(), span);
                let zero = konst(self, 0.0);
                let rnz = self.emit_compare(b, span, CmpOp::Ne, r, zero);
                let yneg = self.emit_compare(b, span, CmpOp::Lt, y, zero);
                let rneg = self.emit_compare(b, span, CmpOp::Lt, r, zero);
                let differ = self.emit_binary(b, span, BinaryOp::BitXor, yneg, rneg);
                let fix = self.emit_binary(b, span, BinaryOp::BitAnd, rnz, differ);
                let add = self.emit_select(b, span, fix, y, zero);
                self.emit_binary(b, span, BinaryOp::Add, r, add)
            }
            // The IR's integer `%` gives 0 for a zero divisor.
            Ufunc::Remainder => self.emit_binary(b, span, BinaryOp::Mod, xs[0], xs[1]),
            Ufunc::FloorDivide if float => {
                let q = self.emit_binary(b, span, BinaryOp::Div, xs[0], xs[1]);
                self.push(b, InstKind::Builtin(Builtin::NpFloor, vec![q]), ct, span)
            }
            Ufunc::FloorDivide if s.is_unsigned() => self.emit_binary(b, span, BinaryOp::FloorDiv, xs[0], xs[1]),
            Ufunc::FloorDivide => {
                // 0 for a zero divisor (the IR's `//`) and for MIN // -1 (NumPy's loop).
                let (x, y) = (xs[0], xs[1]);
                let q = self.emit_binary(b, span, BinaryOp::FloorDiv, x, y);
                let (zero, minus) = (konst(self, 0.0), konst(self, -1.0));
                let min = self.push(b, InstKind::Const(Const::Int(int_min)), Type::I64, span);
                let ym1 = self.emit_compare(b, span, CmpOp::Eq, y, minus);
                let xmin = self.emit_compare(b, span, CmpOp::Eq, x, min);
                let ovf = self.emit_binary(b, span, BinaryOp::BitAnd, ym1, xmin);
                self.emit_select(b, span, ovf, zero, q)
            }
            Ufunc::TrueDivide => self.emit_binary(b, span, BinaryOp::Div, xs[0], xs[1]),
            Ufunc::Arith(op) => self.emit_binary(b, span, op, xs[0], xs[1]),
            Ufunc::Invert => self.push(b, InstKind::Unary(UnaryOp::Invert, xs[0]), ct, span),
            Ufunc::Compare(_) | Ufunc::Logical(_) | Ufunc::LogicalNot => unreachable!("computed above"),
        };
        self.coerce(b, r, &rt, span)
    }

    fn edge_args(&mut self, b: Block, call: &BlockCall, span: Span) -> Result<BlockCall, Diagnostic> {
        let mut args = Vec::with_capacity(call.args.len());
        for (k, a) in call.args.iter().enumerate() {
            let target_param = self.g.blocks[call.block.index()].params[k];
            let pt = self.ty(target_param);
            let is_undef = matches!(self.src.def_inst(*a).map(|d| &d.kind), Some(InstKind::Undef));
            let v = if is_undef {
                self.zero_of(b, &pt, span)?
            } else {
                let v = self.val(*a);
                let vt = self.ty(v);
                if typing::unify(&vt, &pt).is_none() {
                    // Point at the later of the two definitions: that is where Python code
                    // changed the variable's kind.
                    let mut here = (self.src.value_span(*a), vt.clone());
                    let mut there =
                        self.incoming_of_type(call.block, k, &pt).map(|o| (self.src.value_span(o), pt.clone()));
                    if let Some(t) = &mut there {
                        if t.0.start > here.0.start {
                            std::mem::swap(t, &mut here);
                        }
                    }
                    let (other_ty, this_ty) =
                        (there.as_ref().map(|t| t.1.clone()).unwrap_or(pt.clone()), here.1.clone());
                    let mut d = err(
                        here.0,
                        format!("type conflict: a variable is {this_ty} here but {other_ty} on another path"),
                        format!("this is {this_ty}"),
                    )
                    .with_hint(conflict_hint(&this_ty, &other_ty));
                    if let Some((sp, t)) = there {
                        d = d.with_secondary(sp, format!("this is {t}"));
                    }
                    return Err(d);
                }
                self.coerce(b, v, &pt, span)?
            };
            args.push(v);
        }
        Ok(BlockCall { block: call.block, args })
    }

    /// An argument passed to parameter `k` of `block` (on any edge) whose type is `t`.
    fn incoming_of_type(&self, block: Block, k: usize, t: &Type) -> Option<Value> {
        self.src.blocks.iter().flat_map(|b| b.succs()).filter(|c| c.block == block).find_map(|c| {
            let a = *c.args.get(k)?;
            (&self.types[a.index()] == t).then_some(a)
        })
    }

    fn term(&mut self, b: Block) -> Result<(), Diagnostic> {
        let bd = &self.src.blocks[b.index()];
        let span = bd.term_span;
        let t = match &bd.term {
            Terminator::Jump(c) => Terminator::Jump(self.edge_args(b, c, span)?),
            // A branch the types decide (dead-branch pruning) is a jump.
            Terminator::Branch(_, x, y) if self.taken[b.index()].is_some() => {
                let to = if self.taken[b.index()] == Some(true) { x } else { y };
                Terminator::Jump(self.edge_args(b, to, span)?)
            }
            Terminator::Branch(c, x, y) => {
                let cv = self.val(*c);
                let cond = self.truth(b, cv, span)?;
                let x = self.edge_args(b, x, span)?;
                let y = self.edge_args(b, y, span)?;
                Terminator::Branch(cond, x, y)
            }
            Terminator::Return(Some(v)) => {
                let nv = self.val(*v);
                let ret = self.g.ret.clone();
                if ret == Type::None {
                    if self.ty(nv) == Type::None {
                        Terminator::Return(None)
                    } else {
                        return Err(err(span, "this function cannot return a value", "returns a value"));
                    }
                } else {
                    let vt = self.ty(nv);
                    if typing::unify(&vt, &ret).is_none() {
                        let d = err(
                            span,
                            format!("returns {vt} where the function returns {ret}"),
                            format!("this is {vt}"),
                        );
                        return Err(if matches!((&vt, &ret), (Type::Str(_), Type::Str(_))) {
                            d.with_hint(conflict_hint(&vt, &ret))
                        } else {
                            d
                        });
                    }
                    Terminator::Return(Some(self.coerce(b, nv, &ret, span)?))
                }
            }
            Terminator::Return(None) if matches!(self.g.ret, Type::Optional(_)) => {
                let ret = self.g.ret.clone();
                Terminator::Return(Some(self.make_optional(b, None, &ret, span)?))
            }
            Terminator::Return(None) => {
                if self.g.ret != Type::None {
                    return Err(err(
                        span,
                        format!("a path returns nothing, but the function returns {} elsewhere", self.g.ret),
                        "no value returned here (a bare `return`, or the end of the function)",
                    )
                    .with_hint("return a value on every path"));
                }
                Terminator::Return(None)
            }
            Terminator::Raise(e) => {
                let mut e = e.clone();
                // A string argument (`raise ValueError(msg)`, `"bad: " + method`) is known now.
                fn known_strings(a: &mut crate::ExceptionArg<Value>, types: &[Type]) {
                    match a {
                        crate::ExceptionArg::Runtime(r) => {
                            if let Type::Str(text) = &types[r.index()] {
                                *a = crate::ExceptionArg::Str(text.clone());
                            }
                        }
                        crate::ExceptionArg::Format(pieces) => pieces.iter_mut().for_each(|p| known_strings(p, types)),
                        _ => {}
                    }
                }
                e.args.iter_mut().for_each(|a| known_strings(a, &self.types));
                for r in e.runtime_mut() {
                    let nv = self.val(*r);
                    let t = self.ty(nv);
                    if !matches!(t, Type::Scalar(_)) {
                        return Err(err(
                            span,
                            format!(
                                "an exception argument is {t}; compiled code can raise with numbers and strings only"
                            ),
                            format!("this argument is {t}"),
                        ));
                    }
                    *r = nv;
                }
                Terminator::Raise(e)
            }
            Terminator::Unreachable => Terminator::Unreachable,
        };
        self.g.terminate(self.cur[b.index()], t, span);
        Ok(())
    }
}

/// The hint of a type conflict between `a` and `b`.
pub(super) fn conflict_hint(a: &Type, b: &Type) -> &'static str {
    if matches!((a, b), (Type::Str(_), Type::Str(_))) {
        "twinjit knows each string when it compiles (its value is its type), so a string cannot depend on a \
         value known only at run time; choose by a number (a flag or a code) and keep the strings constant"
    } else {
        "a variable must keep one kind of value (number, array or tuple) on every path"
    }
}
