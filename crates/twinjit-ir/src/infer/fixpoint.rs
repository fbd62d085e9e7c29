//! The fixpoint: types every value of every specialisation reachable from one request.
//!
//! A fixpoint over the lattice `Unknown < concrete types` with Numba's unification
//! (`typing::unify`): within a function, values are typed in reverse post-order until nothing
//! changes; across functions, a callee's return type starts `Unknown` and callers are revisited
//! when it grows, which types recursion whenever a base case returns a typed value first (as
//! Numba requires).
//!
//! It changes no IR: its output is a type per value of each specialisation's untyped body. It
//! does not insert conversions (that is `rewrite`). Invariants: types only grow (by
//! unification) during the fixpoint; a type error counts as `Unknown` there and is reported
//! afterwards by calling [`Inferencer::result_type`] again on the final types.

use super::{err, mangle, InferOptions};
use crate::builtins::{Builtin, Typing};
use crate::function::*;
use crate::module::{FunctionKind, Module, ModuleFunction};
use crate::types::{ArrayType, Layout, Scalar, Type};
use crate::typing;
use hashbrown::HashMap;
use twinjit_diag::{Diagnostic, Span};

/// One specialisation: a module function and its argument types, with what the fixpoint knows.
pub(super) struct Instance {
    pub(super) fidx: usize,
    pub(super) args: Vec<Type>,
    pub(super) declared_ret: Option<Type>,
    /// A type per value of the untyped body.
    pub(super) types: Vec<Type>,
    pub(super) ret: Type,
    /// Whether some path returns nothing.
    pub(super) returns_none: bool,
    /// Specialisations that call this one (revisited when `ret` grows).
    pub(super) callers: Vec<usize>,
    pub(super) mangled: String,
    /// Per block of the body: whether it is reachable once branches whose condition the types
    /// decide are followed one way only (Numba's dead-branch pruning: `if x is None:` with `x`
    /// known to be None or not, `isinstance(x, int)`). Unreachable blocks are neither typed
    /// nor compiled.
    pub(super) live: Vec<bool>,
    /// Per block: the way its branch goes when its condition is decided by types.
    pub(super) taken: Vec<Option<bool>>,
}

/// Per block parameter of one block: (predecessor, which of its edges, argument).
type Incoming = Vec<Vec<(Block, usize, Value)>>;

/// The value of a branch condition when the types decide it: `x is None` (and `is not`) with
/// both types known and one of them None or both None; `isinstance`; `not` and `bool()` of such.
pub(super) fn decided(f: &Function, v: Value, types: &[Type]) -> Option<bool> {
    // A string (`if mode:`, a parameter too): true when not empty.
    if let Type::Str(s) = &types[v.index()] {
        return Some(!s.is_empty());
    }
    let d = f.def_inst(v)?;
    match &d.kind {
        InstKind::Const(Const::Bool(b)) => Some(*b),
        InstKind::Unary(UnaryOp::Not, x) => decided(f, *x, types).map(|b| !b),
        InstKind::Cast(Scalar::Bool, x) => decided(f, *x, types),
        InstKind::Builtin(Builtin::IsInstance, a) => {
            let t = &types[a[0].index()];
            let Some(InstKind::Const(Const::Int(bits))) = f.def_inst(a[1]).map(|d| &d.kind) else { return None };
            t.is_known().then(|| crate::builtins::isinstance_classes(t, *bits))
        }
        // `None == 2`; `a.ndim == 1`, `len(t) > 2` on a tuple: integers the types fix.
        InstKind::Compare(op, x, y) => typed_compare(*op, &types[x.index()], &types[y.index()]).or_else(|| {
            let (x, y) = (type_constant(f, *x, types)?, type_constant(f, *y, types)?);
            Some(op.eval(x, y))
        }),
        InstKind::Builtin(Builtin::Contains, a) => str_contains(&types[a[0].index()], &types[a[1].index()]),
        InstKind::Builtin(Builtin::StrMethod, a) => match str_method_of(a, types) {
            Ok(crate::builtins::StrValue::Bool(b)) => Some(b),
            Ok(crate::builtins::StrValue::Int(i)) => Some(i != 0),
            _ => None,
        },
        InstKind::Builtin(Builtin::Is, a) => {
            let (x, y) = (&types[a[0].index()], &types[a[1].index()]);
            if !x.is_known() || !y.is_known() {
                return None;
            }
            if matches!(x, Type::Optional(_)) || matches!(y, Type::Optional(_)) {
                return None;
            }
            match (x == &Type::None, y == &Type::None) {
                (true, true) => Some(true),
                (true, false) | (false, true) => Some(false),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A comparison the types decide. Two strings (their values are their types): Python's
/// order of their code points. `x == y` / `x != y` where one side is None and the other is not
/// (and neither may be): as in Numba, a constant (`None == 2` is False); both None: equal.
pub(super) fn typed_compare(op: CmpOp, x: &Type, y: &Type) -> Option<bool> {
    if let (Type::Str(a), Type::Str(b)) = (x, y) {
        // Rust's `str` order is the order of code points, as Python's.
        return Some(op.eval(a, b));
    }
    if !matches!(op, CmpOp::Eq | CmpOp::Ne) || !x.is_known() || !y.is_known() {
        return None;
    }
    if matches!(x, Type::Optional(_)) || matches!(y, Type::Optional(_)) {
        return None;
    }
    let (xn, yn) = (x == &Type::None, y == &Type::None);
    if !xn && !yn {
        return None;
    }
    Some((xn == yn) == (op == CmpOp::Eq))
}

/// `item in container` decided by the types: a string in a string (a substring), or in a tuple
/// whose items are all known (strings equal by value; items of other types are never equal to
/// a string, as in Python).
pub(super) fn str_contains(container: &Type, item: &Type) -> Option<bool> {
    match (container, item) {
        (Type::Str(c), Type::Str(i)) => Some(c.contains(i.as_str())),
        (Type::Tuple(items), Type::Str(i)) if items.iter().all(Type::is_known) => {
            Some(items.iter().any(|t| matches!(t, Type::Str(x) if x == i)))
        }
        (Type::Tuple(items), _) if items.iter().all(|t| matches!(t, Type::Str(_))) && item.is_known() => Some(false),
        _ => None,
    }
}

/// `s * n` / `n * s` of a string and a constant count: the repeated string (empty for `n <= 0`).
pub(super) fn str_repeat(f: &Function, a: Value, b: Value, types: &[Type]) -> Option<String> {
    let (s, n) = match (&types[a.index()], &types[b.index()]) {
        (Type::Str(s), _) => (s, b),
        (_, Type::Str(s)) => (s, a),
        _ => return None,
    };
    let n = usize::try_from(type_constant(f, n, types)?.max(0)).ok()?;
    // A bound on what compile time builds (a string constant of at most 1 MiB).
    (s.len().saturating_mul(n) <= 1 << 20).then(|| s.repeat(n))
}

/// `s.name(args)` of a string (operands: receiver, the name as a string constant, arguments).
pub(super) fn str_method_of(a: &[Value], types: &[Type]) -> Result<crate::builtins::StrValue, String> {
    let text = |v: &Value| match &types[v.index()] {
        Type::Str(s) => Some(s.as_str()),
        _ => None,
    };
    let name = a.get(1).and_then(text).unwrap_or("?");
    let Some(s) = text(&a[0]) else {
        let t = &types[a[0].index()];
        return Err(if name == "__str__" {
            format!("str() of {t} is not supported: twinjit knows a string only when it is a constant")
        } else {
            format!("`.{name}()` is a method of strings; this is {t}")
        });
    };
    let args: Option<Vec<&str>> = a[2..].iter().map(text).collect();
    let args = args.ok_or_else(|| format!("str.{name}() takes strings here"))?;
    crate::builtins::str_method(s, name, &args)
}

/// `x == None` / `x != None` with `x` optional: the test of its None flag, as `x is None`.
pub(super) fn optional_none_compare(op: CmpOp, x: &Type, y: &Type) -> bool {
    matches!(op, CmpOp::Eq | CmpOp::Ne)
        && matches!((x, y), (Type::Optional(_), Type::None) | (Type::None, Type::Optional(_)))
}

/// An integer the types fix: a constant, the `ndim` of an array, the length of a tuple.
fn type_constant(f: &Function, v: Value, types: &[Type]) -> Option<i64> {
    match &f.def_inst(v)?.kind {
        InstKind::Const(Const::Int(i)) => Some(*i),
        InstKind::Builtin(Builtin::Ndim, a) => match &types[a[0].index()] {
            Type::Array(at) => Some(at.ndim as i64),
            _ => None,
        },
        InstKind::Builtin(Builtin::Len, a) => match &types[a[0].index()] {
            Type::Tuple(items) => Some(items.len() as i64),
            Type::Str(text) => Some(text.chars().count() as i64),
            _ => None,
        },
        InstKind::Builtin(Builtin::StrMethod, a) => match str_method_of(a, types) {
            Ok(crate::builtins::StrValue::Int(i)) => Some(i),
            _ => None,
        },
        _ => None,
    }
}

/// The state of the fixpoint over one request.
pub(super) struct Inferencer<'m> {
    pub(super) module: &'m Module,
    pub(super) instances: Vec<Instance>,
    /// `(module function, argument types)` → index in `instances`.
    pub(super) index: HashMap<(usize, Vec<Type>), usize>,
    pub(super) options: InferOptions,
}

impl<'m> Inferencer<'m> {
    pub(super) fn new(module: &'m Module, options: InferOptions) -> Self {
        Inferencer { module, instances: Vec::new(), index: HashMap::new(), options }
    }

    pub(super) fn instance(&mut self, fidx: usize, args: Vec<Type>, declared_ret: Option<Type>) -> usize {
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
            live: Vec::new(),
            taken: Vec::new(),
        });
        self.index.insert((fidx, args), i);
        i
    }

    pub(super) fn mf(&self, i: usize) -> &'m ModuleFunction {
        &self.module.functions[self.instances[i].fidx]
    }

    /// Runs the intra-function fixpoint for instance `i` with the current callee estimates.
    pub(super) fn solve(&mut self, i: usize) {
        let f = &self.mf(i).body;
        let mut types = vec![Type::Unknown; f.values.len()];
        for (p, t) in f.params().iter().zip(&self.instances[i].args) {
            types[p.index()] = t.clone();
        }
        let rpo = f.reverse_postorder();
        // Per target block and parameter: (predecessor, which of its edges, argument).
        let mut incoming: Vec<Incoming> = f.blocks.iter().map(|b| vec![Vec::new(); b.params.len()]).collect();
        for &b in &rpo {
            for (e, t) in f.blocks[b.index()].succs().into_iter().enumerate() {
                for (k, a) in t.args.iter().enumerate() {
                    if let Some(slot) = incoming.get_mut(t.block.index()).and_then(|v| v.get_mut(k)) {
                        slot.push((b, e, *a));
                    }
                }
            }
        }
        let mut live = vec![false; f.blocks.len()];
        live[Function::ENTRY.index()] = true;
        let mut taken: Vec<Option<bool>> = vec![None; f.blocks.len()];
        // Whether edge `e` out of `b` can be taken (an unwind edge, after the terminator's, is
        // as live as its block).
        let edge_live = |live: &[bool], taken: &[Option<bool>], b: Block, e: usize| {
            live[b.index()]
                && (e >= f.blocks[b.index()].term.targets().len() || taken[b.index()].is_none_or(|t| (e == 0) == t))
        };
        for _round in 0..10_000 {
            let mut changed = false;
            for &b in &rpo {
                if !live[b.index()] {
                    continue;
                }
                if b != Function::ENTRY {
                    for (k, &p) in f.blocks[b.index()].params.iter().enumerate() {
                        let mut t = types[p.index()].clone();
                        for &(pb, e, a) in &incoming[b.index()][k] {
                            if !edge_live(&live, &taken, pb, e) {
                                continue;
                            }
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
                    changed |= refine_empty_lists(f, data, &incoming, &mut types);
                    changed |= refine_empty_dicts(f, data, &incoming, &mut types);
                    changed |= refine_empty_sets(f, data, &incoming, &mut types);
                    let Some(r) = data.result else { continue };
                    let t = self.result_type(i, f, data, &types).unwrap_or(Type::Unknown);
                    if t != types[r.index()] && typing::unify(&types[r.index()], &t).as_ref() == Some(&t) {
                        types[r.index()] = t;
                        changed = true;
                    }
                }
                // Successors: a branch the types decide goes one way only.
                let term = &f.blocks[b.index()].term;
                if let Terminator::Branch(c, ..) = term {
                    let d = decided(f, *c, &types);
                    if d != taken[b.index()] {
                        taken[b.index()] = d;
                        changed = true;
                    }
                }
                for (e, t) in f.blocks[b.index()].succs().into_iter().enumerate() {
                    if edge_live(&live, &taken, b, e) && !live[t.block.index()] {
                        live[t.block.index()] = true;
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
        let mut returns_value = false;
        let mut typing_error = false;
        for &b in rpo.iter().filter(|b| live[b.index()]) {
            match &f.blocks[b.index()].term {
                Terminator::Return(Some(v)) => {
                    returns_value = true;
                    if let Some(u) = typing::unify(&ret, &types[v.index()]) {
                        ret = u;
                    }
                }
                Terminator::Return(None) => returns_none = true,
                Terminator::Raise(e) if e.class == crate::exception::TYPING_ERROR => typing_error = true,
                _ => {}
            }
        }
        // A function that only raises returns nothing; unless a raise is an `@overload`'s
        // typing error: then the call has no type, and that error is the one reported.
        if ret == Type::Unknown && !returns_value && !typing_error {
            ret = Type::None;
        }
        // A number on some paths and nothing (a bare `return`, the end) on others: Optional.
        if returns_none && matches!(ret, Type::Scalar(_)) {
            ret = Type::Optional(Box::new(ret));
        }
        let inst = &mut self.instances[i];
        if let Some(d) = &inst.declared_ret {
            ret = d.clone();
        }
        inst.types = types;
        inst.ret = ret;
        inst.returns_none = returns_none;
        inst.live = live;
        inst.taken = taken;
    }

    /// The type of an instruction's result given operand types; `Ok(Unknown)` while an operand
    /// is still unknown; `Err` for a type error.
    /// The result type of calling module function `name` with `args` from instance `i`
    /// (instantiating the callee for the argument types).
    fn call_type(
        &mut self,
        i: usize,
        f: &Function,
        name: &str,
        args: &[Value],
        types: &[Type],
        span: Span,
    ) -> Result<Type, Diagnostic> {
        let Some(cidx) = self.module.functions.iter().position(|m| m.name == name) else {
            if let Some(r) = self.module.refused.iter().find(|r| r.name == name) {
                let why = r.diagnostics.first().map_or(String::new(), |d| d.message.clone());
                return Err(err(span, format!("`{name}` is not compiled ({why})"), "called here")
                    .with_secondary(r.name_span, "this function could not be compiled"));
            }
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
            (FunctionKind::Kernel | FunctionKind::Device, FunctionKind::Kernel) => {
                // numba-cuda compiles a `@cuda.jit` function lazily: called from a
                // kernel, it is a device function (every function of a PTX module is
                // an ordinary function; only the launch wrapper is an entry).
            }
            (FunctionKind::Host, FunctionKind::Kernel) => {
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
        let arg_types = call_arg_types(f, args, types);
        if callee.body.params().len() != arg_types.len() {
            return Err(err(
                span,
                format!("`{name}` takes {} arguments but {} were given", callee.body.params().len(), arg_types.len()),
                "wrong number of arguments",
            ));
        }
        let (arg_types, declared_ret) = declared_call_types(callee, arg_types);
        let c = self.instance(cidx, arg_types, declared_ret);
        if !self.instances[c].callers.contains(&i) {
            self.instances[c].callers.push(i);
        }
        Ok(self.instances[c].ret.clone())
    }

    pub(super) fn result_type(
        &mut self,
        i: usize,
        f: &Function,
        data: &InstData,
        types: &[Type],
    ) -> Result<Type, Diagnostic> {
        let span = data.span;
        // Every use of an optional but `is` and a tuple holding it sees its value type (the
        // rewrite unwraps it).
        let unwraps = !matches!(data.kind, InstKind::Builtin(Builtin::Is, _) | InstKind::MakeTuple(_));
        let ty = |v: &Value| match &types[v.index()] {
            Type::Optional(t) if unwraps => (**t).clone(),
            t => t.clone(),
        };
        let ops = data.kind.operands();
        if ops.iter().any(|v| !types[v.index()].is_known()) && !matches!(data.kind, InstKind::MakeTuple(_)) {
            return Ok(Type::Unknown);
        }
        let scalar_of = |v: &Value| -> Result<Scalar, Diagnostic> {
            ty(v).scalar().ok_or_else(|| {
                err(span, format!("expected a number here, found {}", ty(v)), format!("this is {}", ty(v)))
            })
        };
        if let Some(t) = super::strings::runtime_string_type(f, &data.kind, types) {
            return t.map_err(|m| err(span, m, "here"));
        }
        Ok(match &data.kind {
            InstKind::Const(c) => match c {
                Const::Int(_) => Type::I64,
                Const::Float(_) => Type::F64,
                Const::Bool(_) => Type::BOOL,
                Const::None => Type::None,
                Const::Str(text) => Type::Str(text.to_string()),
            },
            InstKind::Undef => Type::Unknown,
            // Strings: their values are their types, so what is computed of them is too (the
            // guards read the types in place: they run for every `+`, `*`, `len` and `in`).
            InstKind::Binary(BinaryOp::Add, a, b)
                if matches!((&types[a.index()], &types[b.index()]), (Type::Str(_), Type::Str(_))) =>
            {
                let (Type::Str(x), Type::Str(y)) = (&types[a.index()], &types[b.index()]) else {
                    unreachable!("matched")
                };
                Type::Str(format!("{x}{y}"))
            }
            InstKind::Builtin(Builtin::Len, a) if matches!(types[a[0].index()], Type::Str(_)) => Type::I64,
            // `"-" * 20`: repeated by a constant count.
            InstKind::Binary(BinaryOp::Mul, a, b)
                if matches!(types[a.index()], Type::Str(_)) || matches!(types[b.index()], Type::Str(_)) =>
            {
                let repeated = str_repeat(f, *a, *b, types).ok_or_else(|| {
                    err(span, format!("unsupported operand types for *: {} and {}", ty(a), ty(b)), "here")
                        .with_hint("a string repeats by a constant count (`\"-\" * 20`)")
                })?;
                Type::Str(repeated)
            }
            InstKind::Builtin(Builtin::StrMethod, a) => match str_method_of(a, types) {
                Ok(crate::builtins::StrValue::Str(s)) => Type::Str(s),
                Ok(crate::builtins::StrValue::Bool(_)) => Type::BOOL,
                Ok(crate::builtins::StrValue::Int(_)) => Type::I64,
                Err(m) => return Err(err(span, m, "here")),
            },
            InstKind::Builtin(Builtin::Contains, a)
                if str_contains(&types[a[0].index()], &types[a[1].index()]).is_some() =>
            {
                Type::BOOL
            }
            // Array expressions (NumPy's elementwise operators, broadcasting).
            InstKind::Unary(op, a) if typing::is_elementwise(&[ty(a)]) => {
                let (s, _) = typing::elementwise_operand(&ty(a)).expect("checked");
                let r = typing::elementwise_unary(*op, s).map_err(|m| err(span, m, "here"))?;
                typing::elementwise_result(r, &[ty(a)])
            }
            InstKind::Binary(op, a, b) if typing::is_elementwise(&[ty(a), ty(b)]) => {
                let (x, y) = (typing::elementwise_operand(&ty(a)), typing::elementwise_operand(&ty(b)));
                let r = typing::elementwise_binary(*op, x.expect("checked").0, y.expect("checked").0)
                    .map_err(|m| err(span, m, "here"))?;
                typing::elementwise_result(r, &[ty(a), ty(b)])
            }
            InstKind::Compare(op, a, b) if typing::is_elementwise(&[ty(a), ty(b)]) => {
                let complex = |t: &Type| typing::elementwise_operand(t).is_some_and(|(s, _)| s.is_complex());
                if (complex(&ty(a)) || complex(&ty(b))) && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    return Err(err(
                        span,
                        format!("'{}' is not supported between {} and {}", op.symbol(), ty(a), ty(b)),
                        "complex numbers are not ordered",
                    ));
                }
                typing::elementwise_result(Scalar::Bool, &[ty(a), ty(b)])
            }
            // Python's truth of a list, a tuple, None or a string (`if not items:`, `bool(items)`).
            InstKind::Unary(UnaryOp::Not, a) | InstKind::Cast(Scalar::Bool, a)
                if matches!(
                    ty(a),
                    Type::List(_) | Type::Dict(..) | Type::Set(_) | Type::Tuple(_) | Type::None | Type::Str(_)
                ) =>
            {
                Type::BOOL
            }
            InstKind::Unary(op, a) => {
                let s = scalar_of(a)?;
                let (_, r) = typing::unary(*op, s).map_err(|m| err(span, m, "here"))?;
                Type::Scalar(r)
            }
            // Set comparisons: subset, superset, equality.
            InstKind::Compare(_, a, b) if matches!((ty(a), ty(b)), (Type::Set(_), Type::Set(_))) => {
                typing::builtin(Builtin::SetIsSubset, &[ty(a), ty(b)]).map_err(|e| e.at(span))?
            }
            InstKind::Binary(BinaryOp::Add, a, b) if matches!((ty(a), ty(b)), (Type::Tuple(_), Type::Tuple(_))) => {
                let (Type::Tuple(mut x), Type::Tuple(y)) = (ty(a), ty(b)) else { unreachable!("matched") };
                x.extend(y);
                Type::Tuple(x)
            }
            // Set union, intersection and difference.
            InstKind::Binary(op @ (BinaryOp::BitOr | BinaryOp::BitAnd | BinaryOp::Sub | BinaryOp::BitXor), a, b)
                if matches!((ty(a), ty(b)), (Type::Set(_), Type::Set(_))) =>
            {
                let which = match op {
                    BinaryOp::BitOr => Builtin::SetUnion,
                    BinaryOp::BitAnd => Builtin::SetIntersection,
                    BinaryOp::BitXor => Builtin::SetSymmetricDifference,
                    _ => Builtin::SetDifference,
                };
                typing::builtin(which, &[ty(a), ty(b)]).map_err(|e| e.at(span))?
            }
            // List concatenation and repetition (`a + b`, `l * n`, `n * l`).
            InstKind::Binary(BinaryOp::Add, a, b) if matches!((ty(a), ty(b)), (Type::List(_), Type::List(_))) => {
                // Lists of numbers of two types concatenate into a list of their promotion
                // (`[1] + [2.0]` is a list(float64) in Numba), converting the items.
                let (x, y) = (ty(a), ty(b));
                if let (Some(Some(p)), Some(Some(q))) =
                    (x.list_elem().map(Type::scalar), y.list_elem().map(Type::scalar))
                {
                    if p != q && !p.is_complex() && !q.is_complex() {
                        return Ok(Type::List(Box::new(Type::Scalar(typing::unify_scalar(p, q)))));
                    }
                }
                typing::unify(&ty(a), &ty(b)).ok_or_else(|| {
                    err(span, format!("cannot concatenate {} and {}", ty(a), ty(b)), "lists of different types")
                })?
            }
            InstKind::Binary(BinaryOp::Mul, a, b) if matches!((ty(a), ty(b)), (Type::List(_), Type::Scalar(s)) | (Type::Scalar(s), Type::List(_)) if s.is_int()) => {
                if matches!(ty(a), Type::List(_)) {
                    ty(a)
                } else {
                    ty(b)
                }
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
                if typed_compare(*op, &x, &y).is_some() || optional_none_compare(*op, &x, &y) {
                    return Ok(Type::BOOL);
                }
                if !comparable(&x, &y) {
                    return Err(err(
                        span,
                        format!("cannot compare {x} with {y} using {}", op.symbol()),
                        "comparison of non-numbers",
                    ));
                }
                let complex = |t: &Type| t.scalar().is_some_and(Scalar::is_complex);
                if (complex(&x) || complex(&y)) && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    return Err(err(
                        span,
                        format!("'{}' is not supported between {x} and {y}", op.symbol()),
                        "complex numbers are not ordered",
                    )
                    .with_hint("compare abs(z), z.real or z.imag"));
                }
                Type::BOOL
            }
            InstKind::Cast(s, a) => {
                let from = scalar_of(a)?;
                if from.is_complex() && !s.is_complex() && *s != Scalar::Bool {
                    return Err(err(
                        span,
                        format!("can't convert {} to {}", from.name(), s.name()),
                        "a complex number",
                    )
                    .with_hint("take z.real, z.imag or abs(z)"));
                }
                Type::Scalar(*s)
            }
            InstKind::Select(c, a, b) => {
                scalar_of(c)?;
                typing::unify(&ty(a), &ty(b)).ok_or_else(|| {
                    err(span, format!("the two branches have different types: {} and {}", ty(a), ty(b)), "here")
                        .with_hint(super::rewrite::conflict_hint(&ty(a), &ty(b)))
                })?
            }
            InstKind::Call(name, args) => self.call_type(i, f, name, args, types, span)?,
            InstKind::FuncRef(name) => match self.module.functions.iter().find(|m| &m.name == name) {
                Some(_) => Type::Function(name.clone()),
                None => return Err(err(span, format!("unknown function `{name}`"), "not defined in this module")),
            },
            InstKind::Builtin(bi @ (Builtin::UfuncCall | Builtin::GufuncCall | Builtin::UfuncReduce), args) => {
                self.user_ufunc_type(i, *bi, args, types, span)?
            }
            // `f(x)` of a function value: the call of the function its type names.
            InstKind::Builtin(Builtin::CallValue, args) => match ty(&args[0]) {
                Type::Function(name) => self.call_type(i, f, &name, &args[1..], types, span)?,
                Type::Unknown => Type::Unknown,
                t => {
                    return Err(err(span, format!("{t} is not callable"), "called here")
                        .with_hint("only the module's compiled functions can be called through a variable"))
                }
            },
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
            InstKind::Builtin(Builtin::TupleSlice, args) if matches!(ty(&args[0]), Type::Array(_)) => {
                // `a[lo:hi:step]` of an array: a view.
                let bounds: Vec<Type> = args[1..].iter().map(&ty).collect();
                if !bounds.iter().all(Type::is_known) {
                    return Ok(Type::Unknown);
                }
                let slice = typing::builtin(Builtin::SliceIndex, &bounds).map_err(|e| e.at(span))?;
                let at = ty(&args[0]).array().expect("matched");
                typing::array_subscript(&at, &[slice]).map_err(|e| e.at(span))?
            }
            InstKind::Builtin(Builtin::TupleSlice, args) if matches!(ty(&args[0]), Type::List(_)) => {
                for a in &args[1..] {
                    if !matches!(ty(a), Type::None | Type::Scalar(Scalar::Bool))
                        && !ty(a).scalar().is_some_and(|s| s.is_int())
                    {
                        return Err(err(span, format!("slice bounds must be integers, found {}", ty(a)), "here"));
                    }
                }
                ty(&args[0])
            }
            InstKind::Builtin(Builtin::TupleSlice, args) => {
                let ts = match ty(&args[0]) {
                    Type::Tuple(ts) => ts,
                    t => {
                        return Err(err(span, format!("slicing {t} is not supported"), "sliced here").with_hint(
                            "only tuples can be sliced (with constant bounds); array views are not supported yet",
                        ))
                    }
                };
                let bounds = slice_bounds(f, &args[1..], span)?;
                let picks = typing::slice_indices(ts.len(), bounds[0], bounds[1], bounds[2])
                    .ok_or_else(|| err(span, "slice step cannot be zero", "here"))?;
                Type::Tuple(picks.into_iter().map(|k| ts[k].clone()).collect())
            }
            InstKind::Builtin(Builtin::Splat, args) => match ty(&args[0]) {
                t @ Type::Tuple(_) => t,
                t => {
                    return Err(err(span, format!("`*` unpacks a tuple, found {t}"), format!("this is {t}"))
                        .with_hint("only a tuple can be unpacked into a call's arguments"))
                }
            },
            InstKind::Builtin(b, args) => {
                let ts: Vec<Type> = args.iter().map(&ty).collect();
                typing::builtin(*b, &ts).map_err(|e| e.at(span))?
            }
            InstKind::Dim(a, k) => {
                let at = array_of(&ty(a), span, "`.shape`")?;
                typing::norm_axis(*k, at.ndim)
                    .ok_or_else(|| err(span, format!("axis {k} is out of range for a {}-D array", at.ndim), "here"))?;
                Type::I64
            }
            InstKind::GetItem(a, idx) => match ty(a) {
                Type::Array(at) => {
                    let idx: Vec<Type> = idx.iter().map(&ty).collect();
                    if !idx.iter().all(Type::is_known) {
                        return Ok(Type::Unknown);
                    }
                    typing::array_subscript(&at, &idx).map_err(|e| e.at(span))?
                }
                Type::Tuple(ts) => match const_index(f, idx, span) {
                    Ok(k) => ts[typing::tuple_index(k, ts.len()).map_err(|e| e.at(span))?].clone(),
                    Err(_) => runtime_tuple_index(&ts, &idx.iter().map(&ty).collect::<Vec<_>>(), span)?,
                },
                Type::List(e) => {
                    list_index(&idx.iter().map(&ty).collect::<Vec<_>>(), span)?;
                    *e
                }
                Type::Dict(k, v) => {
                    typing::dict_key(&k, &dict_key_type(idx, &ty)).map_err(|e| e.at(span))?;
                    *v
                }
                other => {
                    return Err(err(span, format!("{other} is not subscriptable"), "indexed here")
                        .with_hint("only arrays and tuples can be indexed"))
                }
            },
            // `l[a:b] = seq` / `l[a:b:c] = seq`: the items of another list.
            InstKind::SetItem(a, idx, v)
                if matches!(ty(a), Type::List(_)) && matches!(idx.iter().map(&ty).next(), Some(Type::Slice(_))) =>
            {
                let e = ty(a).list_elem().cloned().expect("matched");
                match ty(v) {
                    Type::Unknown => {}
                    Type::List(ve) if *ve == Type::Unknown || typing::list_accepts(&e, &ve) => {}
                    t => {
                        return Err(err(
                            span,
                            format!("cannot assign {t} to a slice of a list of {e}"),
                            "assigned here",
                        )
                        .with_hint("assign a list of the same element type: l[a:b] = [x, y]"))
                    }
                }
                Type::None
            }
            InstKind::SetItem(a, idx, v) if matches!(ty(a), Type::Dict(..)) => {
                let Type::Dict(k, e) = ty(a) else { unreachable!("matched") };
                let key = dict_key_type(idx, &ty);
                typing::dict_key(&k, &key).map_err(|e| e.at(span))?;
                typing::check_dict_key_type(&key).map_err(|e| e.at(span))?;
                if *e != Type::Unknown && !typing::list_accepts(&e, &ty(v)) {
                    return Err(err(span, format!("cannot store {} in a dict of {e} values", ty(v)), "stored here"));
                }
                Type::None
            }
            InstKind::SetItem(a, idx, v) if matches!(ty(a), Type::List(_)) => {
                list_index(&idx.iter().map(&ty).collect::<Vec<_>>(), span)?;
                let e = ty(a).list_elem().cloned().expect("matched");
                if !typing::list_accepts(&e, &ty(v)) {
                    return Err(err(span, format!("cannot store {} in a list of {e}", ty(v)), "stored here"));
                }
                Type::None
            }
            InstKind::SetItem(a, idx, _) => {
                // The same index rules as a read: a 2-D array assigned through one index
                // (`a[1] = 42`, a row in NumPy) is refused, never a store at a flat offset.
                if let Type::Array(at) = ty(a) {
                    let idx: Vec<Type> = idx.iter().map(&ty).collect();
                    if idx.iter().all(Type::is_known) {
                        typing::array_subscript(&at, &idx).map_err(|e| e.at(span))?;
                    }
                }
                Type::None
            }
            InstKind::Store(..) | InstKind::CheckIndex(..) | InstKind::CheckNonZero(..) => Type::None,
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
            InstKind::ConstArray(c) => {
                Type::Array(ArrayType { dtype: c.dtype, ndim: c.shape.len() as u8, layout: Layout::C })
            }
            InstKind::AllocArray { dtype, shape, .. } => {
                Type::Array(ArrayType { dtype: *dtype, ndim: shape.len() as u8, layout: Layout::C })
            }
            InstKind::Stride(..) => Type::I64,
            InstKind::Load(a, _) => Type::Scalar(array_of(&ty(a), span, "load")?.dtype),
            // Made after inference (by the rewrite and the refcount pass); typed as they are.
            InstKind::NewArray { dtype, shape, .. } => {
                Type::Array(ArrayType { dtype: *dtype, ndim: shape.len() as u8, layout: Layout::C })
            }
            InstKind::View { base, shape, .. } => {
                let at = array_of(&ty(base), span, "view")?;
                Type::Array(ArrayType { ndim: shape.len() as u8, layout: Layout::A, ..at })
            }
            InstKind::NewList(_) => Type::Unknown,
            InstKind::ListLen(_) => Type::I64,
            InstKind::ListGet(l, _) => ty(l).list_elem().cloned().unwrap_or(Type::Unknown),
            InstKind::IncRef(_)
            | InstKind::DecRef(_)
            | InstKind::ListSet(..)
            | InstKind::ListResize(..)
            | InstKind::ParallelFor(..) => Type::None,
        })
    }
}

/// The empty containers (`[]`, `{}`, `set()`: instructions of builtin `ctor`) that can flow
/// into `v` through block parameters: the ones what is put into `v` refines.
fn empty_roots(f: &Function, incoming: &[Incoming], v: Value, ctor: Builtin) -> Vec<Value> {
    let mut roots = Vec::new();
    let mut seen = Vec::new();
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        if seen.contains(&x) {
            continue;
        }
        seen.push(x);
        match f.values[x.index()].def {
            ValueDef::Inst(i) if matches!(&f.insts[i.index()].kind, InstKind::Builtin(c, _) if *c == ctor) => {
                roots.push(x)
            }
            ValueDef::Param(b, p) if b != Function::ENTRY => {
                stack.extend(incoming[b.index()].get(p as usize).into_iter().flatten().map(|&(_, _, a)| a))
            }
            _ => {}
        }
    }
    roots
}

/// Numba's refinement of `list(undefined)`: when an instruction puts elements into a list
/// (`append`, `insert`, `extend`, item assignment), every empty list `[]` that can flow into it
/// takes (unifies with) their type. Returns whether a type changed.
fn refine_empty_lists(f: &Function, data: &InstData, incoming: &[Incoming], types: &mut [Type]) -> bool {
    let (l, e) = match &data.kind {
        InstKind::Builtin(Builtin::ListAppend, a) => (a[0], types[a[1].index()].clone()),
        InstKind::Builtin(Builtin::ListInsert, a) => (a[0], types[a[2].index()].clone()),
        InstKind::Builtin(Builtin::ListExtend, a) => {
            (a[0], typing::iter_elem(&types[a[1].index()]).unwrap_or(Type::Unknown))
        }
        InstKind::SetItem(l, _, v) => (*l, types[v.index()].clone()),
        _ => return false,
    };
    if !e.is_known() || !matches!(types[l.index()], Type::List(_) | Type::Unknown) {
        return false;
    }
    // Arrays in a list are of any layout (a view and a new array both fit).
    let e = match e {
        Type::Array(a) => Type::Array(ArrayType { layout: Layout::A, ..a }),
        e => typing::stored(e),
    };
    let roots = empty_roots(f, incoming, l, Builtin::ListNew);
    let mut changed = false;
    for r in roots {
        let new = match types[r.index()].list_elem() {
            Some(old) if old.is_known() => {
                typing::unify(old, &e).filter(|t| !matches!(t, Type::Optional(_))).unwrap_or_else(|| old.clone())
            }
            _ => e.clone(),
        };
        let new = Type::List(Box::new(new));
        if types[r.index()] != new {
            types[r.index()] = new;
            changed = true;
        }
    }
    changed
}

/// The refinement of an empty set `set()`: `s.add(x)` and `s.update(iterable)` give every
/// empty set that can flow into them the element type. Returns whether a type changed.
fn refine_empty_sets(f: &Function, data: &InstData, incoming: &[Incoming], types: &mut [Type]) -> bool {
    let (s, e) = match &data.kind {
        InstKind::Builtin(Builtin::SetAdd, a) => (a[0], types[a[1].index()].clone()),
        InstKind::Builtin(Builtin::DictUpdate, a) if matches!(types[a[0].index()], Type::Set(_)) => {
            let e = match &types[a[1].index()] {
                Type::Set(e) => (**e).clone(),
                t => typing::iter_elem(t).unwrap_or(Type::Unknown),
            };
            (a[0], e)
        }
        _ => return false,
    };
    if !e.is_known() || !matches!(types[s.index()], Type::Set(_) | Type::Unknown) {
        return false;
    }
    let e = typing::stored(e);
    let roots = empty_roots(f, incoming, s, Builtin::SetNew);
    let mut changed = false;
    for r in roots {
        let new = match &types[r.index()] {
            Type::Set(old) if old.is_known() => {
                Type::Set(Box::new(typing::unify(old, &e).unwrap_or_else(|| (**old).clone())))
            }
            _ => Type::Set(Box::new(e.clone())),
        };
        if types[r.index()] != new {
            types[r.index()] = new;
            changed = true;
        }
    }
    changed
}

/// The type of the key of `d[i]`, or of `d[i, j]` (the tuple).
fn dict_key_type(idx: &[Value], ty: &dyn Fn(&Value) -> Type) -> Type {
    match idx {
        [one] => ty(one),
        _ => Type::Tuple(idx.iter().map(ty).collect()),
    }
}

/// The refinement of an empty dict `{}` (Numba's): when an instruction puts an entry into a
/// dict (item assignment, `setdefault`, `update`), every empty dict that can flow into it takes
/// (unifies with) the key and value types. Returns whether a type changed.
fn refine_empty_dicts(f: &Function, data: &InstData, incoming: &[Incoming], types: &mut [Type]) -> bool {
    // The receiver first: this runs for every instruction (every array store among them).
    let d = match &data.kind {
        InstKind::SetItem(d, ..) => *d,
        InstKind::Builtin(Builtin::DictSetdefault | Builtin::DictUpdate, a) => a[0],
        _ => return false,
    };
    if !matches!(types[d.index()], Type::Dict(..) | Type::Unknown) {
        return false;
    }
    let (k, v) = match &data.kind {
        InstKind::SetItem(_, idx, v) => {
            (dict_key_type(idx, &|x: &Value| types[x.index()].clone()), types[v.index()].clone())
        }
        InstKind::Builtin(Builtin::DictSetdefault, a) => (types[a[1].index()].clone(), types[a[2].index()].clone()),
        InstKind::Builtin(_, a) => match &types[a[1].index()] {
            Type::Dict(k, v) => ((**k).clone(), (**v).clone()),
            _ => return false,
        },
        _ => return false,
    };
    if !k.is_known() || !v.is_known() {
        return false;
    }
    let v = match v {
        Type::Array(a) => Type::Array(ArrayType { layout: Layout::A, ..a }),
        v => typing::stored(v),
    };
    let k = typing::stored(k);
    let roots = empty_roots(f, incoming, d, Builtin::DictNew);
    let join = |old: &Type, new: &Type| -> Type {
        if old.is_known() {
            typing::unify(old, new).filter(|t| !matches!(t, Type::Optional(_))).unwrap_or_else(|| old.clone())
        } else {
            new.clone()
        }
    };
    let mut changed = false;
    for r in roots {
        let new = match &types[r.index()] {
            Type::Dict(ok, ov) => Type::Dict(Box::new(join(ok, &k)), Box::new(join(ov, &v))),
            _ => Type::Dict(Box::new(k.clone()), Box::new(v.clone())),
        };
        if types[r.index()] != new {
            types[r.index()] = new;
            changed = true;
        }
    }
    changed
}

fn array_of(t: &Type, span: Span, what: &str) -> Result<ArrayType, Diagnostic> {
    typing::array_of(t, what).map_err(|e| e.at(span))
}

pub(super) fn const_index(f: &Function, idx: &[Value], span: Span) -> Result<i64, Diagnostic> {
    if idx.len() == 1 {
        if let Some(InstData { kind: InstKind::Const(Const::Int(k)), .. }) = f.def_inst(idx[0]) {
            return Ok(*k);
        }
    }
    Err(err(span, "tuple index must be a constant integer", "not a constant")
        .with_hint("write the index as a literal, e.g. t[0]"))
}

/// Checks the index of `l[i]` on a list: one integer.
fn list_index(idx: &[Type], span: Span) -> Result<(), Diagnostic> {
    match idx {
        [Type::Scalar(s)] if !s.is_float() => Ok(()),
        [t] => Err(err(span, format!("list indices must be integers, found {t}"), format!("this is {t}"))),
        _ => Err(err(span, "a list takes one index", "here")
            .with_hint("Numba's lists are one-dimensional: write l[i][j] for a list of lists")),
    }
}

/// The element type of `t[i]` with a runtime `i`: Numba indexes only homogeneous tuples so.
pub(super) fn runtime_tuple_index(ts: &[Type], idx: &[Type], span: Span) -> Result<Type, Diagnostic> {
    match idx {
        [Type::Scalar(s)] if s.is_int() => {}
        [t] => {
            return Err(err(span, format!("tuple indices must be integers, found {t}"), format!("this is {t}"))
                .with_hint("convert with int(...)"))
        }
        _ => return Err(err(span, "a tuple takes one index", "here")),
    }
    match typing::uniform(ts) {
        Some(t) => Ok(t.clone()),
        None if ts.is_empty() => Err(err(span, "tuple index out of range (the tuple is empty)", "here")),
        None => Err(err(
            span,
            format!("cannot index the heterogeneous tuple {} with a runtime index", Type::Tuple(ts.to_vec())),
            "the index is not a constant",
        )
        .with_hint("Numba indexes a tuple of mixed types only with a constant: write t[0], t[1], ...")),
    }
}

pub(super) use typing::comparable;

/// The constant bounds of a tuple slice (`None` where absent).
pub(super) fn slice_bounds(f: &Function, vs: &[Value], span: Span) -> Result<[Option<i64>; 3], Diagnostic> {
    let mut out = [None; 3];
    for (k, v) in vs.iter().enumerate() {
        out[k] = match f.def_inst(*v).map(|d| &d.kind) {
            Some(InstKind::Const(Const::Int(n))) => Some(*n),
            Some(InstKind::Const(Const::None)) => None,
            _ => {
                return Err(err(span, "tuple slice bounds must be constant integers", "not a constant").with_hint(
                    "a slice makes a new tuple whose length must be known when compiling: write t[1:], t[:2], t[::-1]",
                ))
            }
        };
    }
    Ok(out)
}

/// Whether `v` is a `*t` argument (its value is the tuple `t`).
pub(super) fn is_splat(f: &Function, v: Value) -> bool {
    matches!(f.def_inst(v).map(|d| &d.kind), Some(InstKind::Builtin(Builtin::Splat, _)))
}

/// The argument types a call of `callee` specialises it for, and its declared return type.
/// A function with signatures in its decorator (`@njit("float32(float32)")`,
/// `@cuda.jit("int64(int64, int64)", device=True)`) is compiled for those only, as Numba
/// compiles it: the call takes the signature its arguments convert to most cheaply, and each
/// number converts to that signature's type (an array stays as it is: its dtype and dimensions
/// already match). When no signature fits, the call specialises the function for its own
/// argument types (Numba would refuse it; twinjit compiled such calls so before it read the
/// signatures here, and keeps them working).
pub(super) fn declared_call_types(callee: &ModuleFunction, args: Vec<Type>) -> (Vec<Type>, Option<Type>) {
    let declared = &callee.attrs.signatures;
    let Some(k) = typing::pick_signature(declared, &args) else {
        return (args, None);
    };
    let sig = &declared[k];
    let converted = args
        .into_iter()
        .zip(&sig.args)
        .map(|(a, t)| if a.scalar().is_some() && t.scalar().is_some() { t.clone() } else { a })
        .collect();
    (converted, sig.ret.clone())
}

/// The argument types of a call, the elements of each `*t` argument in its place.
pub(super) fn call_arg_types(f: &Function, args: &[Value], types: &[Type]) -> Vec<Type> {
    let mut out = Vec::new();
    for a in args {
        match &types[a.index()] {
            Type::Tuple(ts) if is_splat(f, *a) => out.extend(ts.iter().cloned()),
            // An optional argument is unwrapped at the call (as every use but `is`).
            t => out.push(t.unwrapped().clone()),
        }
    }
    out
}
