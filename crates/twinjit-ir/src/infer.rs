//! Type inference: specialises untyped functions of a [`Module`] for argument types.
//!
//! One request (function + argument types) yields a [`TypedProgram`]: the entry specialisation
//! and every specialisation it calls, transitively. The algorithm is a fixpoint over the lattice
//! `Unknown < concrete types` with Numba's unification (`typing::unify`): within a function,
//! values are typed in reverse post-order until nothing changes; across functions, a callee's
//! return type starts `Unknown` and callers are revisited when it grows, which types recursion
//! whenever a base case returns a typed value first (as Numba requires).
//!
//! The rewrite that follows inserts every implicit conversion as an explicit `cast`, lowers
//! `min`/`max`/`abs`/`len`/`a.size`/`a.ndim`/`a.shape` to plain operations, turns conditions
//! into `bool` (Python truthiness), and inserts `checknonzero` before division under the Python
//! error model. Output is verified typed IR; errors are located diagnostics.

use crate::builtins::{AtomicOp, Builtin, KernelOp, Typing};
use crate::function::*;
use crate::module::{ErrorModel, FunctionKind, Module, ModuleFunction};
use crate::types::{ArrayType, Layout, Scalar, Type};
use crate::typing;
use hashbrown::HashMap;
use twinjit_diag::{Diagnostic, Span};

/// One typed specialisation.
#[derive(Clone, Debug)]
pub struct TypedFunction {
    /// Typed IR; its `name` is the mangled specialisation name (`fib$i8`).
    pub func: Function,
    /// The source-level name.
    pub source_name: String,
    /// Argument types of this specialisation.
    pub args: Vec<Type>,
    /// Host function, kernel or device function.
    pub kind: FunctionKind,
}

/// The result of inferring one entry point: the entry (index 0) and all its callees.
#[derive(Clone, Debug)]
pub struct TypedProgram {
    /// Specialisations; `functions[0]` is the entry.
    pub functions: Vec<TypedFunction>,
}

impl TypedProgram {
    /// The entry specialisation.
    pub fn entry(&self) -> &TypedFunction {
        &self.functions[0]
    }

    /// The specialisation with mangled name `name`.
    pub fn get(&self, name: &str) -> Option<&TypedFunction> {
        self.functions.iter().find(|f| f.func.name == name)
    }
}

/// Mangled name of a specialisation: `name$code$code`.
pub fn mangle(name: &str, args: &[Type]) -> String {
    let mut s = name.to_string();
    for a in args {
        s.push('$');
        s.push_str(&a.mangle());
    }
    s
}

/// Options that change typing.
#[derive(Clone, Copy, Debug, Default)]
pub struct InferOptions {
    /// Overrides every function's error model (CUDA compiles with `Numpy`).
    pub error_model: Option<ErrorModel>,
}

/// Infers `name` for `args` (and a declared return type, if the signature wrote one).
pub fn infer(
    module: &Module,
    name: &str,
    args: &[Type],
    declared_ret: Option<Type>,
    options: InferOptions,
) -> Result<TypedProgram, Vec<Diagnostic>> {
    let Some(fidx) = module.functions.iter().position(|f| f.name == name) else {
        return Err(vec![Diagnostic::error_unlocated(format!("no function named `{name}` in this module"))]);
    };
    let mf = &module.functions[fidx];
    if mf.body.params().len() != args.len() {
        return Err(vec![Diagnostic::error(
            format!(
                "`{name}` takes {} argument{} but the signature has {}",
                mf.body.params().len(),
                if mf.body.params().len() == 1 { "" } else { "s" },
                args.len()
            ),
            mf.name_span,
            "defined here",
        )]);
    }
    let mut cx = Inferencer { module, instances: Vec::new(), index: HashMap::new(), options };
    cx.instance(fidx, args.to_vec(), declared_ret);
    let mut work: std::collections::VecDeque<usize> = [0].into();
    let mut steps = 0usize;
    while let Some(i) = work.pop_front() {
        steps += 1;
        if steps > 100_000 || cx.instances.len() > 2_000 {
            return Err(vec![Diagnostic::error(
                "type inference does not terminate (too many specialisations)",
                mf.name_span,
                "while inferring this function",
            )
            .with_hint("a recursive call probably changes its argument types on every level")]);
        }
        let before = cx.instances.len();
        let old_ret = cx.instances[i].ret.clone();
        cx.solve(i);
        for n in before..cx.instances.len() {
            work.push_back(n);
        }
        if cx.instances[i].ret != old_ret {
            for &c in &cx.instances[i].callers.clone() {
                if !work.contains(&c) {
                    work.push_back(c);
                }
            }
        }
    }
    // Type errors were treated as "unknown" during the fixpoint; report them now, once each,
    // in source order, before rewriting anything.
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut bad = vec![false; cx.instances.len()];
    for (i, bad_i) in bad.iter_mut().enumerate() {
        let f = &cx.mf(i).body;
        let types = std::mem::take(&mut cx.instances[i].types);
        let mut found = Vec::new();
        for b in f.reverse_postorder() {
            for &inst in &f.blocks[b.index()].insts {
                if let Err(d) = cx.result_type(i, f, &f.insts[inst.index()], &types) {
                    found.push(d);
                }
            }
        }
        cx.instances[i].types = types;
        found.sort_by_key(|d| d.span().map(|s| s.start));
        for d in found {
            *bad_i = true;
            if !diags.contains(&d) {
                diags.push(d);
            }
        }
    }
    let mut out = Vec::new();
    for (i, _) in bad.iter().enumerate().filter(|(_, b)| !**b) {
        match cx.rewrite(i) {
            Ok(tf) => out.push(tf),
            Err(mut d) => diags.append(&mut d),
        }
    }
    if diags.is_empty() {
        Ok(TypedProgram { functions: out })
    } else {
        Err(diags)
    }
}

struct Instance {
    fidx: usize,
    args: Vec<Type>,
    declared_ret: Option<Type>,
    types: Vec<Type>,
    ret: Type,
    /// Whether some path returns nothing.
    returns_none: bool,
    callers: Vec<usize>,
    mangled: String,
}

struct Inferencer<'m> {
    module: &'m Module,
    instances: Vec<Instance>,
    index: HashMap<(usize, Vec<Type>), usize>,
    options: InferOptions,
}

fn err(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    Diagnostic::error(message, span, label)
}

impl<'m> Inferencer<'m> {
    fn instance(&mut self, fidx: usize, args: Vec<Type>, declared_ret: Option<Type>) -> usize {
        if let Some(&i) = self.index.get(&(fidx, args.clone())) {
            return i;
        }
        let mf = &self.module.functions[fidx];
        let declared_ret =
            declared_ret.or_else(|| mf.attrs.signatures.iter().find(|s| s.args == args).and_then(|s| s.ret.clone()));
        let i = self.instances.len();
        self.instances.push(Instance {
            fidx,
            mangled: mangle(&mf.name, &args),
            args: args.clone(),
            declared_ret,
            types: Vec::new(),
            ret: Type::Unknown,
            returns_none: false,
            callers: Vec::new(),
        });
        self.index.insert((fidx, args), i);
        i
    }

    fn mf(&self, i: usize) -> &'m ModuleFunction {
        &self.module.functions[self.instances[i].fidx]
    }

    /// Runs the intra-function fixpoint for instance `i` with the current callee estimates.
    fn solve(&mut self, i: usize) {
        let f = &self.mf(i).body;
        let mut types = vec![Type::Unknown; f.values.len()];
        for (p, t) in f.params().iter().zip(&self.instances[i].args) {
            types[p.index()] = t.clone();
        }
        let rpo = f.reverse_postorder();
        let mut incoming: Vec<Vec<Vec<Value>>> = f.blocks.iter().map(|b| vec![Vec::new(); b.params.len()]).collect();
        for &b in &rpo {
            for t in f.blocks[b.index()].term.targets() {
                for (k, a) in t.args.iter().enumerate() {
                    if let Some(slot) = incoming.get_mut(t.block.index()).and_then(|v| v.get_mut(k)) {
                        slot.push(*a);
                    }
                }
            }
        }
        for _round in 0..10_000 {
            let mut changed = false;
            for &b in &rpo {
                if b != Function::ENTRY {
                    for (k, &p) in f.blocks[b.index()].params.iter().enumerate() {
                        let mut t = types[p.index()].clone();
                        for a in &incoming[b.index()][k] {
                            if let Some(u) = typing::unify(&t, &types[a.index()]) {
                                t = u;
                            }
                        }
                        if t != types[p.index()] {
                            types[p.index()] = t;
                            changed = true;
                        }
                    }
                }
                for &inst in &f.blocks[b.index()].insts {
                    let data = &f.insts[inst.index()];
                    let Some(r) = data.result else { continue };
                    let t = self.result_type(i, f, data, &types).unwrap_or(Type::Unknown);
                    if t != types[r.index()] && typing::unify(&types[r.index()], &t).as_ref() == Some(&t) {
                        types[r.index()] = t;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut ret = Type::Unknown;
        let mut returns_none = false;
        for &b in &rpo {
            match &f.blocks[b.index()].term {
                Terminator::Return(Some(v)) => {
                    if let Some(u) = typing::unify(&ret, &types[v.index()]) {
                        ret = u;
                    }
                }
                Terminator::Return(None) => returns_none = true,
                _ => {}
            }
        }
        if ret == Type::Unknown && returns_none {
            ret = Type::None;
        }
        let inst = &mut self.instances[i];
        if let Some(d) = &inst.declared_ret {
            ret = d.clone();
        }
        inst.types = types;
        inst.ret = ret;
        inst.returns_none = returns_none;
    }

    /// The type of an instruction's result given operand types; `Ok(Unknown)` while an operand
    /// is still unknown; `Err` for a type error.
    fn result_type(&mut self, i: usize, f: &Function, data: &InstData, types: &[Type]) -> Result<Type, Diagnostic> {
        let span = data.span;
        let ty = |v: &Value| types[v.index()].clone();
        let ops = data.kind.operands();
        if ops.iter().any(|v| !types[v.index()].is_known()) && !matches!(data.kind, InstKind::MakeTuple(_)) {
            return Ok(Type::Unknown);
        }
        let scalar_of = |v: &Value| -> Result<Scalar, Diagnostic> {
            ty(v).scalar().ok_or_else(|| {
                err(span, format!("expected a number here, found {}", ty(v)), format!("this is {}", ty(v)))
            })
        };
        Ok(match &data.kind {
            InstKind::Const(c) => match c {
                Const::Int(_) => Type::I64,
                Const::Float(_) => Type::F64,
                Const::Bool(_) => Type::BOOL,
                Const::None => Type::None,
            },
            InstKind::Undef => Type::Unknown,
            InstKind::Unary(op, a) => {
                let s = scalar_of(a)?;
                let (_, r) = typing::unary(*op, s).map_err(|m| err(span, m, "here"))?;
                Type::Scalar(r)
            }
            InstKind::Binary(op, a, b) => {
                let (x, y) = (ty(a), ty(b));
                let (Some(sx), Some(sy)) = (x.scalar(), y.scalar()) else {
                    return Err(err(
                        span,
                        format!("unsupported operand types for {}: {x} and {y}", op.symbol()),
                        format!("{x} {} {y}", op.symbol()),
                    )
                    .with_hint(if x.array().is_some() || y.array().is_some() {
                        "whole-array arithmetic is not supported yet; write a loop over the elements"
                    } else {
                        "arithmetic works on numbers and booleans"
                    }));
                };
                Type::Scalar(typing::binary(*op, sx, sy).map_err(|m| err(span, m, "here"))?.result)
            }
            InstKind::Compare(op, a, b) => {
                let (x, y) = (ty(a), ty(b));
                if x.scalar().is_none() || y.scalar().is_none() {
                    return Err(err(
                        span,
                        format!("cannot compare {x} with {y} using {}", op.symbol()),
                        "comparison of non-numbers",
                    ));
                }
                Type::BOOL
            }
            InstKind::Cast(s, a) => {
                scalar_of(a)?;
                Type::Scalar(*s)
            }
            InstKind::Select(c, a, b) => {
                scalar_of(c)?;
                typing::unify(&ty(a), &ty(b)).ok_or_else(|| {
                    err(span, format!("the two branches have different types: {} and {}", ty(a), ty(b)), "here")
                })?
            }
            InstKind::Call(name, args) => {
                let Some(cidx) = self.module.functions.iter().position(|m| &m.name == name) else {
                    return Err(err(span, format!("unknown function `{name}`"), "not defined in this module"));
                };
                let callee = &self.module.functions[cidx];
                let caller_kind = self.mf(i).attrs.kind;
                match (caller_kind, callee.attrs.kind) {
                    (FunctionKind::Host, FunctionKind::Host)
                    | (FunctionKind::Kernel | FunctionKind::Device, FunctionKind::Device) => {}
                    (FunctionKind::Kernel | FunctionKind::Device, FunctionKind::Host) => {
                        // numba-cuda lets kernels call @njit functions; so do we.
                    }
                    (_, FunctionKind::Kernel) => {
                        return Err(err(
                            span,
                            format!("cannot call kernel `{name}` like a function"),
                            "kernels are launched, not called",
                        )
                        .with_hint("make the callee a device function: @cuda.jit(device=True)"));
                    }
                    (FunctionKind::Host, FunctionKind::Device) => {
                        return Err(err(
                            span,
                            format!("host function calls device function `{name}`"),
                            "device functions run only on the GPU",
                        ));
                    }
                }
                if callee.body.params().len() != args.len() {
                    return Err(err(
                        span,
                        format!(
                            "`{name}` takes {} arguments but {} were given",
                            callee.body.params().len(),
                            args.len()
                        ),
                        "wrong number of arguments",
                    ));
                }
                let arg_types: Vec<Type> = args.iter().map(&ty).collect();
                let c = self.instance(cidx, arg_types, None);
                if !self.instances[c].callers.contains(&i) {
                    self.instances[c].callers.push(i);
                }
                self.instances[c].ret.clone()
            }
            InstKind::Builtin(b, _) if b.is_cuda() && self.mf(i).attrs.kind == FunctionKind::Host => {
                return Err(err(
                    span,
                    format!("`{}` exists only in CUDA kernels and device functions", b.name()),
                    "in a host function",
                )
                .with_hint("decorate the function with @cuda.jit (or @cuda.jit(device=True))"));
            }
            InstKind::Builtin(b, args) if b.info().typing == Typing::GridIndex => {
                let n = match args.first().and_then(|a| f.def_inst(*a)).map(|d| &d.kind) {
                    Some(InstKind::Const(Const::Int(n))) if (1..=3).contains(n) => *n as usize,
                    _ => return Err(err(span, format!("{}() takes a constant 1, 2 or 3", b.name()), "here")),
                };
                if n == 1 {
                    Type::I64
                } else {
                    Type::Tuple(vec![Type::I64; n])
                }
            }
            InstKind::Builtin(b, args) => self.builtin_type(*b, args, types, span)?,
            InstKind::Dim(a, k) => {
                let at = array_of(&ty(a), span, "`.shape`")?;
                norm_axis(*k, at.ndim)
                    .ok_or_else(|| err(span, format!("axis {k} is out of range for a {}-D array", at.ndim), "here"))?;
                Type::I64
            }
            InstKind::GetItem(a, idx) => match ty(a) {
                Type::Array(at) => {
                    check_indices(&at, idx, types, span)?;
                    Type::Scalar(at.dtype)
                }
                Type::Tuple(ts) => {
                    let k = const_index(f, idx, span)?;
                    let n = ts.len() as i64;
                    let kk = if k < 0 { k + n } else { k };
                    if kk < 0 || kk >= n {
                        return Err(err(span, format!("tuple index {k} out of range for a {n}-tuple"), "here"));
                    }
                    ts[kk as usize].clone()
                }
                other => {
                    return Err(err(span, format!("{other} is not subscriptable"), "indexed here")
                        .with_hint("only arrays and tuples can be indexed"))
                }
            },
            InstKind::SetItem(..) | InstKind::Store(..) | InstKind::CheckIndex(..) | InstKind::CheckNonZero(..) => {
                Type::None
            }
            InstKind::MakeTuple(vs) => {
                let ts: Vec<Type> = vs.iter().map(&ty).collect();
                if !ts.iter().all(Type::is_known) {
                    return Ok(Type::Unknown);
                }
                Type::Tuple(ts)
            }
            InstKind::TupleGet(t, k) => match ty(t) {
                Type::Tuple(ts) if (*k as usize) < ts.len() => ts[*k as usize].clone(),
                Type::Tuple(ts) => {
                    return Err(err(
                        span,
                        format!("cannot unpack a {}-tuple into more names", ts.len()),
                        "wrong number of values to unpack",
                    ))
                }
                other => {
                    return Err(err(span, format!("cannot unpack {other}"), "not a tuple")
                        .with_hint("only tuples (such as a function's tuple return or cuda.grid(2)) can be unpacked"))
                }
            },
            InstKind::AllocArray { dtype, shape, .. } => {
                Type::Array(ArrayType { dtype: *dtype, ndim: shape.len() as u8, layout: Layout::C })
            }
            InstKind::Stride(..) => Type::I64,
            InstKind::Load(a, _) => Type::Scalar(array_of(&ty(a), span, "load")?.dtype),
        })
    }

    fn builtin_type(&self, b: Builtin, args: &[Value], types: &[Type], span: Span) -> Result<Type, Diagnostic> {
        let info = b.info();
        let (lo, hi) = (info.arity.0 as usize, info.arity.1 as usize);
        if args.len() < lo || args.len() > hi {
            let want = if lo == hi { lo.to_string() } else { format!("{lo} or more") };
            return Err(err(
                span,
                format!(
                    "{}() takes {want} argument{} but {} were given",
                    b.name(),
                    if want == "1" { "" } else { "s" },
                    args.len()
                ),
                "wrong number of arguments",
            ));
        }
        let ty = |k: usize| types[args[k].index()].clone();
        let scalar = |k: usize| -> Result<Scalar, Diagnostic> {
            ty(k).scalar().ok_or_else(|| {
                err(
                    span,
                    format!("{}() expects a number, found {}", b.name(), ty(k)),
                    format!("argument {} is {}", k + 1, ty(k)),
                )
            })
        };
        let integer = |k: usize| -> Result<Scalar, Diagnostic> {
            let s = scalar(k)?;
            if s.is_float() {
                return Err(err(
                    span,
                    format!("{}() expects an integer, found {}", b.name(), s.name()),
                    format!("argument {} is {}", k + 1, s.name()),
                )
                .with_hint("convert with int(...)"));
            }
            Ok(s)
        };
        let float_of_args = || -> Result<Scalar, Diagnostic> {
            let mut acc = typing::math_unary(scalar(0)?);
            for k in 1..args.len() {
                acc = typing::math_binary(acc, scalar(k)?);
            }
            Ok(acc)
        };
        Ok(match info.typing {
            Typing::FloatMath | Typing::FloatScale(_) => Type::Scalar(float_of_args()?),
            Typing::FloatToInt => {
                scalar(0)?;
                Type::I64
            }
            Typing::FloatPredicate => {
                scalar(0)?;
                Type::BOOL
            }
            Typing::FloatInt => {
                integer(1)?;
                Type::Scalar(typing::math_unary(scalar(0)?))
            }
            Typing::Frexp => Type::Tuple(vec![Type::Scalar(typing::math_unary(scalar(0)?)), Type::I32]),
            Typing::IntMath => {
                let (x, y) = (integer(0)?, integer(1)?);
                if x == Scalar::Int32 && y == Scalar::Int32 {
                    Type::I32
                } else {
                    Type::I64
                }
            }
            Typing::Abs => {
                let s = scalar(0)?;
                Type::Scalar(if s.is_float() { s } else { Scalar::Int64 })
            }
            Typing::MinMax => {
                let mut acc = scalar(0)?;
                for k in 1..args.len() {
                    acc = typing::unify_scalar(acc, scalar(k)?);
                }
                Type::Scalar(acc)
            }
            Typing::ArrayLen | Typing::ArraySize | Typing::ArrayNdim => {
                array_of(&ty(0), span, b.name())?;
                Type::I64
            }
            Typing::RangeIndex => match ty(0) {
                Type::Scalar(s) if !s.is_float() => Type::I64,
                t => {
                    return Err(err(
                        span,
                        format!("range() arguments must be integers, found {t}"),
                        format!("this is {t}"),
                    )
                    .with_hint("convert with int(...)"))
                }
            },
            Typing::ArrayShape => Type::Tuple(vec![Type::I64; array_of(&ty(0), span, "`.shape`")?.ndim as usize]),
            Typing::Internal => {
                return Err(err(span, format!("internal: `{}` reached type inference", b.name()), "here"))
            }
            // Typed in `result_type` from the constant argument, before reaching here.
            Typing::GridIndex => return Err(err(span, "internal: cuda.grid typed without its constant", "here")),
            Typing::SpecialRegister => Type::I32,
            Typing::NoResult => Type::None,
            Typing::BarrierPredicate => {
                // numba-cuda types the predicate as an Integer (a bool is refused) and passes
                // it as int32.
                if !scalar(0)?.is_int() {
                    return Err(err(
                        span,
                        format!("{}() takes an integer predicate, found {}", b.name(), ty(0)),
                        format!("this is {}", ty(0)),
                    )
                    .with_hint("convert a condition with int(...), as numba-cuda requires"));
                }
                Type::I32
            }
            Typing::ActiveMask => Type::I64,
            Typing::Atomic => {
                let is_cas = b.kernel_op() == Some(KernelOp::Atomic(AtomicOp::Cas));
                let at = array_of(&ty(0), span, b.name())?;
                let ok_dtype = if is_cas { at.dtype.is_int() } else { at.dtype != Scalar::Bool };
                if !ok_dtype {
                    return Err(err(
                        span,
                        format!("{}() does not support arrays of {}", b.name(), at.dtype.name()),
                        "this array",
                    )
                    .with_hint(if is_cas {
                        "numba-cuda's cas works on int32 and int64 arrays"
                    } else {
                        "atomics work on int32, int64, float32 and float64 arrays"
                    }));
                }
                let idx: Vec<Type> = match ty(1) {
                    Type::Tuple(ts) => ts,
                    t => vec![t],
                };
                if idx.len() != at.ndim as usize || !idx.iter().all(|t| t.scalar().is_some_and(|s| s.is_int())) {
                    return Err(err(
                        span,
                        format!(
                            "{}() on a {}-D array needs {} integer index(es), found {}",
                            b.name(),
                            at.ndim,
                            at.ndim,
                            ty(1)
                        ),
                        "bad index",
                    )
                    .with_hint("index a 2-D array with a tuple, e.g. cuda.atomic.add(a, (i, j), v)"));
                }
                for k in 2..args.len() {
                    scalar(k)?;
                }
                Type::Scalar(at.dtype)
            }
            Typing::Shuffle => ty(1),
            Typing::Fma => Type::Scalar(typing::math_binary(typing::math_binary(scalar(0)?, scalar(1)?), scalar(2)?)),
            Typing::Select => {
                typing::unify(&ty(1), &ty(2)).ok_or_else(|| err(span, "selp operands have different types", "here"))?
            }
        })
    }
}

fn array_of(t: &Type, span: Span, what: &str) -> Result<ArrayType, Diagnostic> {
    t.array().ok_or_else(|| err(span, format!("{what} needs an array, found {t}"), format!("this is {t}")))
}

fn norm_axis(k: i64, ndim: u8) -> Option<u8> {
    let n = ndim as i64;
    let kk = if k < 0 { k + n } else { k };
    (0..n).contains(&kk).then_some(kk as u8)
}

fn const_index(f: &Function, idx: &[Value], span: Span) -> Result<i64, Diagnostic> {
    if idx.len() == 1 {
        if let Some(InstData { kind: InstKind::Const(Const::Int(k)), .. }) = f.def_inst(idx[0]) {
            return Ok(*k);
        }
    }
    Err(err(span, "tuple index must be a constant integer", "not a constant")
        .with_hint("write the index as a literal, e.g. t[0]"))
}

fn check_indices(at: &ArrayType, idx: &[Value], types: &[Type], span: Span) -> Result<(), Diagnostic> {
    let idx_types: Vec<Type> = if idx.len() == 1 {
        match &types[idx[0].index()] {
            Type::Tuple(ts) => ts.clone(),
            t => vec![t.clone()],
        }
    } else {
        idx.iter().map(|v| types[v.index()].clone()).collect()
    };
    if idx_types.len() != at.ndim as usize {
        return Err(err(
            span,
            format!("a {}-D array needs {} indices, found {}", at.ndim, at.ndim, idx_types.len()),
            "wrong number of indices",
        )
        .with_hint("index every dimension (a[i, j]); slices and sub-array views are not supported yet"));
    }
    for t in &idx_types {
        if !t.scalar().is_some_and(|s| s.is_int()) {
            return Err(err(span, format!("array index must be an integer, found {t}"), "bad index")
                .with_hint("convert with int(...)"));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Rewrite to typed IR.

struct Rewriter<'a> {
    src: &'a Function,
    types: &'a [Type],
    g: Function,
    vmap: Vec<Option<Value>>,
    error_model: ErrorModel,
    instances: &'a [Instance],
    index: &'a HashMap<(usize, Vec<Type>), usize>,
    module: &'a Module,
    diags: Vec<Diagnostic>,
}

impl<'m> Inferencer<'m> {
    fn rewrite(&self, i: usize) -> Result<TypedFunction, Vec<Diagnostic>> {
        let inst = &self.instances[i];
        let mf = self.mf(i);
        let src = &mf.body;
        let mut diags = Vec::new();
        if inst.ret == Type::Unknown && !inst.returns_none {
            let has_return = src.blocks.iter().any(|b| matches!(b.term, Terminator::Return(Some(_))));
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
        if inst.returns_none && ret != Type::None && inst.declared_ret.is_none() {
            diags.push(
                err(
                    mf.name_span,
                    format!("`{}` returns {ret} on some paths and None on others", mf.name),
                    "in this function",
                )
                .with_hint("return a value on every path (optional values are not supported)"),
            );
        }
        let mut g = Function::new(inst.mangled.clone(), src.span);
        g.param_names = src.param_names.clone();
        g.param_spans = src.param_spans.clone();
        g.ret = ret;
        let error_model = self.options.error_model.unwrap_or(mf.attrs.error_model);
        let mut rw = Rewriter {
            src,
            types: &inst.types,
            g,
            vmap: vec![None; src.values.len()],
            error_model,
            instances: &self.instances,
            index: &self.index,
            module: self.module,
            diags,
        };
        rw.run();
        if rw.diags.is_empty() {
            Ok(TypedFunction { func: rw.g, source_name: mf.name.clone(), args: inst.args.clone(), kind: mf.attrs.kind })
        } else {
            Err(rw.diags)
        }
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
        }
    }

    fn val(&self, v: Value) -> Value {
        self.vmap[v.index()].expect("operands are rewritten before their uses (dominance)")
    }

    fn ty(&self, v: Value) -> Type {
        self.g.ty(v).clone()
    }

    fn push(&mut self, b: Block, kind: InstKind, ty: Type, span: Span) -> Value {
        self.g.push(b, kind, Some(ty), span).expect("has result")
    }

    /// Converts `v` (new value) to `target`.
    fn coerce(&mut self, b: Block, v: Value, target: &Type, span: Span) -> Result<Value, Diagnostic> {
        let t = self.ty(v);
        if &t == target {
            return Ok(v);
        }
        match (&t, target) {
            (Type::Scalar(_), Type::Scalar(s)) => Ok(self.push(b, InstKind::Cast(*s, v), target.clone(), span)),
            (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
                let mut parts = Vec::new();
                for (k, y) in ys.clone().iter().enumerate() {
                    let e = self.push(b, InstKind::TupleGet(v, k as u32), xs[k].clone(), span);
                    parts.push(self.coerce(b, e, y, span)?);
                }
                Ok(self.push(b, InstKind::MakeTuple(parts), target.clone(), span))
            }
            _ => Err(err(span, format!("type conflict: expected {target}, found {t}"), format!("this is {t}"))
                .with_hint("a variable must keep one kind of value (number, array or tuple) on every path")),
        }
    }

    fn zero_of(&mut self, b: Block, t: &Type, span: Span) -> Result<Value, Diagnostic> {
        Ok(match t {
            Type::Scalar(s) => {
                let c = match s {
                    Scalar::Bool => Const::Bool(false),
                    s if s.is_float() => Const::Float(0.0),
                    _ => Const::Int(0),
                };
                self.push(b, InstKind::Const(c), t.clone(), span)
            }
            Type::None => self.push(b, InstKind::Const(Const::None), Type::None, span),
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
            Type::Scalar(_) => Ok(self.push(b, InstKind::Cast(Scalar::Bool, v), Type::BOOL, span)),
            t => Err(err(span, format!("the truth value of {t} is not defined here"), "used as a condition")
                .with_hint("compare explicitly, e.g. `x > 0` or `len(a) > 0`")),
        }
    }

    fn check_undef_operands(&self, data: &InstData) -> Result<(), Diagnostic> {
        for op in data.kind.operands() {
            if matches!(self.src.def_inst(op).map(|d| &d.kind), Some(InstKind::Undef)) {
                return Err(err(
                    data.span,
                    "a variable used here is not assigned on every path before it",
                    "possibly unassigned",
                )
                .with_hint("assign it before the branch or loop"));
            }
            let nt = self.ty(self.val(op));
            if nt == Type::None && !matches!(data.kind, InstKind::MakeTuple(_) | InstKind::Call(..)) {
                return Err(err(data.span, "a value used here is None (a variable that is never assigned, or a function without a return value)", "None used here"));
            }
        }
        Ok(())
    }

    fn inst(&mut self, b: Block, data: &InstData) -> Result<(), Diagnostic> {
        let span = data.span;
        if matches!(data.kind, InstKind::Undef) {
            // Materialised lazily: uses in edges become zeros, other uses are errors.
            return Ok(());
        }
        self.check_undef_operands(data)?;
        let result_ty = data.result.map(|r| self.types[r.index()].clone());
        let out: Option<Value> = match &data.kind {
            InstKind::Undef => unreachable!("handled above"),
            InstKind::Const(c) => {
                let t = result_ty.clone().unwrap_or(Type::None);
                Some(self.push(b, InstKind::Const(*c), t, span))
            }
            InstKind::Unary(op, a) => {
                let s = self.ty(self.val(*a)).scalar().ok_or_else(|| self.expect_number(*a, span))?;
                let (operand, result) = typing::unary(*op, s).map_err(|m| err(span, m, "here"))?;
                if *op == UnaryOp::Not {
                    let v = self.val(*a);
                    let t = self.truth(b, v, span)?;
                    Some(self.push(b, InstKind::Unary(UnaryOp::Not, t), Type::BOOL, span))
                } else {
                    let x = self.scalar_arg(b, *a, operand, span)?;
                    Some(self.push(b, InstKind::Unary(*op, x), Type::Scalar(result), span))
                }
            }
            InstKind::Binary(op, a, c) => {
                let (sa, sc) = (self.scalar_ty(*a, span)?, self.scalar_ty(*c, span)?);
                let t = typing::binary(*op, sa, sc).map_err(|m| err(span, m, "here"))?;
                let x = self.scalar_arg(b, *a, t.lhs, span)?;
                let y = self.scalar_arg(b, *c, t.rhs, span)?;
                if matches!(op, BinaryOp::Div | BinaryOp::FloorDiv | BinaryOp::Mod)
                    && self.error_model == ErrorModel::Python
                {
                    self.g.push(b, InstKind::CheckNonZero(y), None, span);
                }
                Some(self.push(b, InstKind::Binary(*op, x, y), Type::Scalar(t.result), span))
            }
            InstKind::Compare(op, a, c) => {
                let (sa, sc) = (self.scalar_ty(*a, span)?, self.scalar_ty(*c, span)?);
                let s = typing::compare(*op, sa, sc);
                let x = self.scalar_arg(b, *a, s, span)?;
                let y = self.scalar_arg(b, *c, s, span)?;
                Some(self.push(b, InstKind::Compare(*op, x, y), Type::BOOL, span))
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
            InstKind::Call(name, args) => {
                let cidx = self.module.functions.iter().position(|m| &m.name == name).expect("checked when typing");
                let arg_types: Vec<Type> = args.iter().map(|a| self.types[a.index()].clone()).collect();
                let callee = &self.instances[self.index[&(cidx, arg_types)]];
                let nargs: Vec<Value> = args.iter().map(|a| self.val(*a)).collect();
                let ret = if callee.ret == Type::Unknown { Type::None } else { callee.ret.clone() };
                Some(self.push(b, InstKind::Call(callee.mangled.clone(), nargs), ret, span))
            }
            InstKind::Builtin(bi, args) => self.builtin(b, *bi, args, result_ty.clone(), span)?,
            InstKind::Dim(a, k) => {
                let av = self.val(*a);
                let at = self.ty(av).array().expect("typed");
                let axis = norm_axis(*k, at.ndim).expect("checked when typing");
                Some(self.push(b, InstKind::Dim(av, axis as i64), Type::I64, span))
            }
            InstKind::GetItem(a, idx) => {
                let av = self.val(*a);
                match self.ty(av) {
                    Type::Array(at) => {
                        let idx = self.indices(b, idx, span)?;
                        Some(self.push(b, InstKind::GetItem(av, idx), Type::Scalar(at.dtype), span))
                    }
                    Type::Tuple(ts) => {
                        let k = const_index(self.src, idx, span)?;
                        let n = ts.len() as i64;
                        let kk = if k < 0 { k + n } else { k } as u32;
                        Some(self.push(b, InstKind::TupleGet(av, kk), ts[kk as usize].clone(), span))
                    }
                    t => return Err(err(span, format!("{t} is not subscriptable"), "indexed here")),
                }
            }
            InstKind::SetItem(a, idx, v) => {
                let av = self.val(*a);
                let Some(at) = self.ty(av).array() else {
                    return Err(err(span, format!("cannot assign into {}", self.ty(av)), "item assignment")
                        .with_hint("only array elements can be assigned"));
                };
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
                self.g.push(b, InstKind::SetItem(av, idx, vv), None, span);
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
            InstKind::AllocArray { .. } => {
                let rt = result_ty.clone().expect("has result");
                Some(self.push(b, data.kind.clone(), rt, span))
            }
            InstKind::Stride(..)
            | InstKind::CheckIndex(..)
            | InstKind::CheckNonZero(..)
            | InstKind::Load(..)
            | InstKind::Store(..) => {
                let mut k = data.kind.clone();
                k.map_operands(|v| self.vmap[v.index()].expect("dominance"));
                let ty = data.result.map(|r| self.types[r.index()].clone());
                self.g.push(b, k, ty, span)
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
            out.push(self.coerce(b, v, &Type::I64, span)?);
        }
        Ok(out)
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
        let a0 = args.first().map(|a| self.val(*a));
        let mut nargs: Vec<Value> = args.iter().map(|a| self.val(*a)).collect();
        Ok(Some(match bi.info().typing {
            Typing::Abs => {
                let x = a0.expect("arity checked");
                let s = rt.scalar().expect("typed");
                let x = self.coerce(b, x, &rt, span)?;
                if s.is_float() {
                    self.push(b, InstKind::Builtin(Builtin::Fabs, vec![x]), rt, span)
                } else {
                    let zero = self.push(b, InstKind::Const(Const::Int(0)), rt.clone(), span);
                    let neg = self.push(b, InstKind::Compare(CmpOp::Lt, x, zero), Type::BOOL, span);
                    let nx = self.push(b, InstKind::Unary(UnaryOp::Neg, x), rt.clone(), span);
                    self.push(b, InstKind::Select(neg, nx, x), rt, span)
                }
            }
            Typing::MinMax => {
                // Python's algorithm, as Numba reproduces it: keep the accumulator unless the
                // next value compares strictly smaller (min) / greater (max).
                let op = if bi == Builtin::Min { CmpOp::Lt } else { CmpOp::Gt };
                let mut acc = self.coerce(b, nargs[0], &rt, span)?;
                for &v in &nargs[1..] {
                    let v = self.coerce(b, v, &rt, span)?;
                    let c = self.push(b, InstKind::Compare(op, v, acc), Type::BOOL, span);
                    acc = self.push(b, InstKind::Select(c, v, acc), rt.clone(), span);
                }
                acc
            }
            Typing::ArrayLen => {
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
            Typing::ArrayShape => {
                let a = a0.expect("arity");
                let n = self.ty(a).array().expect("typed").ndim;
                let dims: Vec<Value> =
                    (0..n).map(|k| self.push(b, InstKind::Dim(a, k as i64), Type::I64, span)).collect();
                self.push(b, InstKind::MakeTuple(dims), rt, span)
            }
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
            Typing::FloatPredicate => {
                let x = a0.expect("arity");
                let s = self.ty(x).scalar().expect("typed");
                if s.is_float() {
                    self.push(b, InstKind::Builtin(bi, vec![x]), Type::BOOL, span)
                } else {
                    let v = bi == Builtin::IsFinite;
                    self.push(b, InstKind::Const(Const::Bool(v)), Type::BOOL, span)
                }
            }
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
            Typing::GridIndex
            | Typing::SpecialRegister
            | Typing::NoResult
            | Typing::ActiveMask
            | Typing::Shuffle
            | Typing::Internal => self.push(b, InstKind::Builtin(bi, nargs), rt, span),
        }))
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
                    .with_hint("a variable must keep one kind of value (number, array or tuple) on every path");
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
        self.src.blocks.iter().flat_map(|b| b.term.targets()).filter(|c| c.block == block).find_map(|c| {
            let a = *c.args.get(k)?;
            (&self.types[a.index()] == t).then_some(a)
        })
    }

    fn term(&mut self, b: Block) -> Result<(), Diagnostic> {
        let bd = &self.src.blocks[b.index()];
        let span = bd.term_span;
        let t = match &bd.term {
            Terminator::Jump(c) => Terminator::Jump(self.edge_args(b, c, span)?),
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
                        return Err(err(
                            span,
                            format!("returns {vt} where the function returns {ret}"),
                            format!("this is {vt}"),
                        ));
                    }
                    Terminator::Return(Some(self.coerce(b, nv, &ret, span)?))
                }
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
            Terminator::Unreachable => Terminator::Unreachable,
        };
        self.g.terminate(b, t, span);
        Ok(())
    }
}
