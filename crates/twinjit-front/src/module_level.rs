//! Module level, read the way Numba reads it: the whole file is accepted and never run. Imports
//! (`imports.rs`) and top-level assignments (`globals.rs`) give names their meaning, decorated
//! functions are compiled (`decorators.rs`, `lower.rs`), and everything else (classes, driver
//! code, `if __name__ == "__main__":`, loops, prints) is plain Python that twinjit ignores.
//! What a compiled function cannot use is reported where it uses it.

use crate::decorators::{read_decorators, Decorated};
use crate::env::{Env, Global};
use crate::globals::{Bindings, Globals, ModuleNames};
use crate::imports;
use crate::lower::lower_function;
use crate::params::Params;
use crate::span;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use twinjit_diag::{Diagnostic, FileId};
use twinjit_ir::{Module, RefusedFunction};

pub(crate) fn lower(
    text: &str,
    file: FileId,
    file_name: &str,
    options: crate::LowerOptions,
) -> Result<Module, Vec<Diagnostic>> {
    let parsed = ruff_python_parser::parse_module(text);
    let parsed = match parsed {
        Ok(p) => p,
        Err(e) => {
            // Report every syntax error the parser recovered from, not just the first.
            let unchecked = ruff_python_parser::parse_unchecked_source(text, ruff_python_ast::PySourceType::Python);
            let mut diags: Vec<Diagnostic> = unchecked
                .errors()
                .iter()
                .take(20)
                .map(|e| Diagnostic::error(format!("syntax error: {}", e.error), span(file, e.location), "here"))
                .collect();
            if diags.is_empty() {
                diags.push(Diagnostic::error(format!("syntax error: {}", e.error), span(file, e.location), "here"));
            }
            return Err(diags);
        }
    };
    let body = &parsed.syntax().body;
    let rewritten = wrapped_defs(body);
    let body: &[Stmt] = rewritten.as_deref().unwrap_or(body);
    let overloaded = crate::overload::overload_defs(body);
    let body: &[Stmt] = overloaded.as_deref().unwrap_or(body);
    let mut diags = Vec::new();
    let mut env = Env::new();
    let globals = Globals { bindings: Bindings::of(body), file, file_name, text };
    // Pass 1: imports, constants and the names of functions, in order, as Python runs them.
    for stmt in body {
        match stmt {
            Stmt::Import(imp) => imports::import(imp, &mut env),
            Stmt::ImportFrom(imp) => imports::import_from(imp, &mut env),
            Stmt::FunctionDef(fd) => {
                let params = Params::of(&fd.parameters, &ModuleNames(&env), file);
                let g = match read_decorators(fd, &env, file, text) {
                    Ok(Decorated::Compiled(a, o)) => match &o.ufunc {
                        Some(u) => Global::Function {
                            kind: Some(if u.cuda { twinjit_ir::FunctionKind::Kernel } else { a.kind }),
                            params: crate::ufunc::params(params, u),
                            ufunc: Some(Box::new(u.clone())),
                        },
                        None => Global::Function { kind: Some(a.kind), params, ufunc: None },
                    },
                    Ok(Decorated::Refused(_)) => Global::Refused,
                    Ok(Decorated::Plain) if options.plain_as_njit => {
                        Global::Function { kind: Some(twinjit_ir::FunctionKind::Host), params, ufunc: None }
                    }
                    Ok(Decorated::Plain) | Err(_) => Global::Function { kind: None, params, ufunc: None },
                };
                if matches!(g, Global::Function { kind: Some(twinjit_ir::FunctionKind::Host), .. })
                    && crate::lower::has_yield(&fd.body)
                {
                    env.insert(
                        crate::lower::generator_key(fd.name.id.as_str()),
                        Global::Generator(std::rc::Rc::new(fd.clone())),
                    );
                }
                env.insert(fd.name.id.to_string(), g);
            }
            other => {
                // Imports inside blocks (`try: import cupy as cp`) bind too.
                nested_imports(other, &mut env);
                globals.statement(other, &mut env, &mut diags);
            }
        }
    }
    // Calls with dtypes, builtins or shapes as arguments call copies specialised for them.
    let defs: Vec<&ast::StmtFunctionDef> =
        body.iter().filter_map(|s| if let Stmt::FunctionDef(fd) = s { Some(fd) } else { None }).collect();
    let specialised = crate::specialise::specialise(&defs, &mut env, file, text);
    // Whether `.x .y .z .w` may be vector components: once for the module, not per function.
    let vectors = crate::lower::module_uses_vectors(text, &env);
    // Pass 2: function bodies.
    let mut module = Module::default();
    // The errors of refused bodies, reported with the module's when the module fails too.
    let mut body_errors = Vec::new();
    for item in &specialised.items {
        let fd = &*item.fd;
        let refuse = |diagnostics: Vec<Diagnostic>| {
            let specialised_as = specialised.literal_only.get(fd.name.id.as_str()).cloned().unwrap_or_default();
            // (A function already used only through its copies needs nothing more.)
            let needs_constants = if item.of.is_none() && specialised_as.is_empty() {
                constant_shapes_only(&diagnostics, specialised.shape_params.get(fd.name.id.as_str()), text)
            } else {
                Vec::new()
            };
            let generator = crate::lower::has_yield(&fd.body)
                && diagnostics.iter().all(|d| d.message == crate::lower::GENERATOR_ON_ITS_OWN);
            RefusedFunction {
                name: fd.name.id.to_string(),
                name_span: span(file, fd.name.range),
                diagnostics,
                specialised_as,
                needs_constants,
                generator,
            }
        };
        // `decorated`: a body error of a decorated function is reported with the module's.
        let (lowered, decorated) = match read_decorators(fd, &env, file, text) {
            Ok(Decorated::Plain) if options.plain_as_njit => {
                // As `njit(pyfunc)`: compiled when it can be, refused on its own when not.
                (lower_function(fd, plain_njit_attrs(), Default::default(), &env, file, text, vectors), false)
            }
            Ok(Decorated::Plain) => continue, // a plain Python function: not compiled.
            // A function whose body twinjit cannot compile is refused on its own, as Numba
            // fails only when such a function is called: the rest of the module loads, and
            // asking for it (or `twinjit check`) gives its located errors.
            Ok(Decorated::Compiled(attrs, options)) => {
                (lower_function(fd, attrs, options, &env, file, text, vectors), true)
            }
            Ok(Decorated::Refused(diagnostics)) => {
                module.refused.push(refuse(diagnostics));
                continue;
            }
            Err(mut d) => {
                diags.append(&mut d);
                continue;
            }
        };
        match lowered {
            Ok(mut f) => {
                if let Some((generic, bindings)) = &item.of {
                    // The cache key's source: the `def`, and what the copy is of.
                    f.source.push_str(&format!("\n# {generic} specialised for {bindings}\n"));
                }
                if f.options.ufunc.as_ref().is_some_and(|u| u.cuda) {
                    module.functions.extend(crate::ufunc::split_cuda(f))
                } else if f.options.ufunc.is_some() {
                    module.functions.extend(crate::ufunc::split(f))
                } else {
                    module.functions.push(f)
                }
            }
            Err(mut diagnostics) => {
                if let Some((generic, bindings)) = &item.of {
                    let note = format!("in `{generic}` specialised for {bindings} (as `{}`)", fd.name.id);
                    diagnostics = diagnostics.into_iter().map(|d| d.with_note(note.clone())).collect();
                }
                let r = refuse(diagnostics);
                // A function used only through its copies, or compiled once called with
                // constants, is not an error of the module.
                if decorated && r.is_error() {
                    body_errors.extend(r.diagnostics.iter().cloned());
                }
                module.refused.push(r);
            }
        }
    }
    if diags.is_empty() {
        Ok(module)
    } else {
        diags.extend(body_errors);
        diags.sort_by_key(|d| d.span().map(|s| s.start));
        Err(diags)
    }
}

/// The attributes `numba.njit(pyfunc)` gives a plain function (no decorator text: the cache
/// key's source is the `def` itself).
/// The parameters a refused function needs as constants, when every error of its body is a
/// shared or local array's shape read from one of its shape parameters (`shape_params`);
/// empty otherwise.
fn constant_shapes_only(
    diagnostics: &[Diagnostic],
    shape_params: Option<&hashbrown::HashSet<String>>,
    text: &str,
) -> Vec<String> {
    let Some(params) = shape_params else { return Vec::new() };
    let mut needed: Vec<String> = Vec::new();
    for d in diagnostics {
        let name = d.primary.as_ref().and_then(|l| text.get(l.span.start as usize..l.span.end as usize));
        match name {
            Some(n) if d.message == "the shape must be a constant" && params.contains(n) => {
                if !needed.iter().any(|x| x == n) {
                    needed.push(n.to_string());
                }
            }
            _ => return Vec::new(),
        }
    }
    needed
}

fn plain_njit_attrs() -> twinjit_ir::FunctionAttrs {
    twinjit_ir::FunctionAttrs {
        kind: twinjit_ir::FunctionKind::Host,
        signatures: Vec::new(),
        cache: false,
        boundscheck: None,
        fastmath: false,
        error_model: twinjit_ir::ErrorModel::Python,
        decorator: "njit(pyfunc)".into(),
    }
}

/// Numba's decorators called on a module-level plain `def` defined above, as Numba's users
/// wrap a Python function: `fast = njit(pyfunc)`, `fast = njit("f8(f8)", cache=True)(pyfunc)`,
/// `fast = njit(pyfunc, fastmath=True)`, `dev = cuda.jit(device=True)(pyfunc)`. Each assignment
/// becomes the `def` so decorated and named as the assignment's target, where the assignment
/// is; the plain `def` stays plain (and `f = njit(f)` replaces it, as Python rebinds `f`). The
/// body keeps its source locations, so its errors point into the plain `def`. `None` when the
/// module has no such assignment.
fn wrapped_defs(body: &[Stmt]) -> Option<Vec<Stmt>> {
    // Most modules have no `NAME = CALL(NAME)` at top level: then nothing to read.
    let candidate = |s: &Stmt| match s {
        Stmt::Assign(a) => matches!(
            (&a.targets[..], &*a.value),
            ([Expr::Name(_)], Expr::Call(c)) if matches!(&c.arguments.args[..], [Expr::Name(_)])
        ),
        _ => false,
    };
    if !body.iter().any(candidate) {
        return None;
    }
    let mut env = Env::new();
    // Plain `def`s by name, as bound at this point of the module: their index in `body`.
    let mut plain: hashbrown::HashMap<&str, usize> = hashbrown::HashMap::new();
    let mut replace: Vec<(usize, ast::StmtFunctionDef)> = Vec::new();
    let mut dropped: Vec<usize> = Vec::new();
    for (i, stmt) in body.iter().enumerate() {
        match stmt {
            Stmt::Import(imp) => imports::import(imp, &mut env),
            Stmt::ImportFrom(imp) => imports::import_from(imp, &mut env),
            Stmt::FunctionDef(fd) => {
                if fd.decorator_list.is_empty() {
                    plain.insert(fd.name.id.as_str(), i);
                } else {
                    plain.remove(fd.name.id.as_str());
                }
            }
            Stmt::Assign(a) => {
                let wrapped = match (&a.targets[..], &*a.value) {
                    ([Expr::Name(target)], Expr::Call(call)) => {
                        wrapping(call, &env).and_then(|(decorator, f)| plain.get(f).map(|&j| (target, decorator, j)))
                    }
                    _ => None,
                };
                if let Some((target, decorator, j)) = wrapped {
                    let Stmt::FunctionDef(fd) = &body[j] else { continue };
                    let mut def = fd.clone();
                    def.name.id = target.id.clone();
                    def.decorator_list = vec![ast::Decorator {
                        range: decorator.range(),
                        node_index: Default::default(),
                        expression: decorator,
                    }];
                    if target.id == fd.name.id {
                        dropped.push(j);
                    }
                    replace.push((i, def));
                }
                for t in &a.targets {
                    if let Expr::Name(n) = t {
                        plain.remove(n.id.as_str());
                    }
                }
            }
            other => nested_imports(other, &mut env),
        }
    }
    if replace.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(body.len());
    let mut replace = replace.into_iter().peekable();
    for (i, stmt) in body.iter().enumerate() {
        if replace.peek().is_some_and(|(at, _)| *at == i) {
            let (_, def) = replace.next().unwrap();
            out.push(Stmt::FunctionDef(def));
        } else if !dropped.contains(&i) {
            out.push(stmt.clone());
        }
    }
    Some(out)
}

/// For a call that applies a JIT decorator to a function's name, the decorator (as it would
/// be written with `@`) and the name: `njit(f)`, `njit(sig, ...)(f)` and `cuda.jit(...)(f)`
/// give their callee, `njit(f, fastmath=True)` gives `njit(fastmath=True)`.
fn wrapping<'a>(call: &'a ast::ExprCall, env: &Env) -> Option<(Expr, &'a str)> {
    let [Expr::Name(f)] = &call.arguments.args[..] else { return None };
    if !crate::decorators::is_jit_decorator(&call.func, env) {
        return None;
    }
    if call.arguments.keywords.is_empty() {
        return Some(((*call.func).clone(), f.id.as_str()));
    }
    if matches!(&*call.func, Expr::Call(_)) {
        return None;
    }
    let arguments = ast::Arguments { args: Box::new([]), ..call.arguments.clone() };
    let decorator = ast::ExprCall { func: call.func.clone(), arguments, ..call.clone() };
    Some((Expr::Call(decorator), f.id.as_str()))
}

/// Applies the imports nested in a module-level block (not in functions or classes).
fn nested_imports(stmt: &Stmt, env: &mut Env) {
    let each = |body: &[Stmt], env: &mut Env| body.iter().for_each(|s| nested_imports(s, env));
    match stmt {
        Stmt::Import(imp) => imports::import(imp, env),
        Stmt::ImportFrom(imp) => imports::import_from(imp, env),
        Stmt::If(i) => {
            each(&i.body, env);
            i.elif_else_clauses.iter().for_each(|c| each(&c.body, env));
        }
        Stmt::Try(t) => {
            each(&t.body, env);
            for h in &t.handlers {
                let ruff_python_ast::ExceptHandler::ExceptHandler(h) = h;
                each(&h.body, env);
            }
            each(&t.orelse, env);
            each(&t.finalbody, env);
        }
        Stmt::With(w) => each(&w.body, env),
        _ => {}
    }
}

pub(crate) fn stmt_kind(s: &Stmt) -> &'static str {
    match s {
        Stmt::FunctionDef(_) => "nested function definition",
        Stmt::ClassDef(_) => "class definition",
        Stmt::Return(_) => "return",
        Stmt::Delete(_) => "del",
        Stmt::TypeAlias(_) => "type alias",
        Stmt::Assign(_) => "assignment",
        Stmt::AugAssign(_) => "augmented assignment",
        Stmt::AnnAssign(_) => "annotated assignment",
        Stmt::For(_) => "for loop",
        Stmt::While(_) => "while loop",
        Stmt::If(_) => "if statement",
        Stmt::With(_) => "with statement",
        Stmt::Match(_) => "match statement",
        Stmt::Raise(_) => "raise",
        Stmt::Try(_) => "try statement",
        Stmt::Assert(_) => "assert",
        Stmt::Import(_) | Stmt::ImportFrom(_) => "import inside a function",
        Stmt::Global(_) => "global statement",
        Stmt::Nonlocal(_) => "nonlocal statement",
        Stmt::Expr(_) => "expression statement",
        Stmt::Pass(_) => "pass",
        Stmt::Break(_) => "break",
        Stmt::Continue(_) => "continue",
        Stmt::IpyEscapeCommand(_) => "IPython escape command",
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    /// Lowers `src` as a module: per function its kind, signatures and options; per refused
    /// function its first message; or every error with the text it points at.
    fn check(src: &str, expect: Expect) {
        let (_, r) = crate::lower_source("m.py", src);
        let got = match r {
            Ok(m) => {
                let mut out = String::new();
                for f in &m.functions {
                    let sigs: Vec<String> = f.attrs.signatures.iter().map(|s| s.to_string()).collect();
                    out += &format!(
                        "{}: {:?} [{}] cache={} fastmath={} {:?}\n",
                        f.name,
                        f.attrs.kind,
                        sigs.join("; "),
                        f.attrs.cache,
                        f.attrs.fastmath,
                        f.options
                    );
                }
                for r in &m.refused {
                    out += &format!("refused {}:\n", r.name);
                    if !r.specialised_as.is_empty() {
                        out += &format!("compiled only as {}\n", r.specialised_as.join(", "));
                    }
                    if !r.needs_constants.is_empty() {
                        out += &format!("compiled when called with constant {}\n", r.needs_constants.join(", "));
                    }
                    for d in &r.diagnostics {
                        let at = d.primary.as_ref().map_or("", |l| &src[l.span.start as usize..l.span.end as usize]);
                        out += &format!("error: {} @ `{at}`\n", d.message);
                        for n in &d.notes {
                            out += &format!("note: {n}\n");
                        }
                    }
                }
                out
            }
            Err(diags) => diags
                .iter()
                .map(|d| {
                    let at = d.primary.as_ref().map_or("", |l| &src[l.span.start as usize..l.span.end as usize]);
                    format!("error: {} @ `{at}`\n", d.message)
                })
                .collect(),
        };
        expect.assert_eq(&got);
    }

    #[test]
    fn any_import_and_any_module_statement_is_accepted() {
        check(
            r#"
from __future__ import annotations
import time, os, collections
import numpy.typing as npt
import cupy as cp
from . import sibling
from numba.extending import register_jitable
from numba import types, prange, vectorize, cuda, jit
from numba.core import types as core_types
from numba.cuda import int32, float32, void
import numba as nb

class Config:
    pass

x = cp.ones(10)
for k in range(3):
    print(k)
try:
    import scipy
except ImportError:
    scipy = None
with open("f") as fh:
    pass
del x
N = 4

@jit
def f(a: float, b: int = 0) -> float:
    """Docstring."""
    return a * N

if __name__ == "__main__":
    t0 = time.time()
    f(1.0)
"#,
            expect![[r#"
                f: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
            "#]],
        );
    }

    #[test]
    fn module_arrays_numpy_would_refuse_or_twinjit_cannot_compute_are_errors_at_the_read() {
        check(
            r#"
import numpy as np
from numba import njit
RAGGED = np.array([[1, 2], [3]])
OVER = np.array([1, 300], dtype=np.uint8)
HUGE = np.zeros((4096, 4096))
DEEP = np.zeros((1, 1, 1, 1, 1, 1, 1, 1, 1))
NOSTEP = np.arange(0, 5, 0)
SHAPE = np.arange(6).reshape(4, 2)
CPLX = np.array([1.0, 2j], dtype=np.float64)
OK = np.arange(6).reshape(2, -1).astype(np.float32).T

@njit
def f(i):
    return RAGGED[i] + OVER[i] + HUGE[i, i] + DEEP[0, 0, 0, 0, 0, 0, 0, 0, 0] + NOSTEP[i] + SHAPE[i, 0] + CPLX[i] + OK[i, 0]
"#,
            expect![[r#"
                refused f:
                error: global `RAGGED` (assigned at m.py:4) is a NumPy array (`np.array(...)`) that twinjit cannot compute: ragged nested sequences @ `RAGGED`
                error: global `OVER` (assigned at m.py:5) is a NumPy array (`np.array(...)`) that twinjit cannot compute: the integer 300 out of bounds for uint8 @ `OVER`
                error: global `HUGE` (assigned at m.py:6) is a NumPy array (`np.zeros(...)`) that twinjit cannot compute: an array larger than 16 MiB @ `HUGE`
                error: global `DEEP` (assigned at m.py:7) is a NumPy array (`np.zeros(...)`) that twinjit cannot compute: an array of 9 dimensions: twinjit's arrays have 1 to 8 @ `DEEP`
                error: global `NOSTEP` (assigned at m.py:8) is a NumPy array (`np.arange(...)`) that twinjit cannot compute: a zero step (NumPy raises ZeroDivisionError) @ `NOSTEP`
                error: global `SHAPE` (assigned at m.py:9) is a NumPy array (`np.arange(6).reshape(4, 2)`) that twinjit cannot compute: a reshape to a different number of elements (NumPy raises ValueError) @ `SHAPE`
                error: global `CPLX` (assigned at m.py:10) is a NumPy array (`np.array(...)`) that twinjit cannot compute: a complex element converted to float64 @ `CPLX`
            "#]],
        );
    }

    #[test]
    fn unusable_names_are_errors_where_compiled_code_uses_them() {
        check(
            r#"
import time
import numpy as np
from numba import njit
A = np.random.random(3)
S = "label"
R = 1
R = 2
if True:
    B = 1

@njit
def f(x):
    t = time.perf_counter()
    return x + A[0] + S + R + B + np.float32(0.5)
"#,
            expect![[r#"
                refused f:
                error: `time.perf_counter` cannot be called from compiled code @ `time.perf_counter()`
                error: global `A` (assigned at m.py:5) is a NumPy array (`np.random.random(...)`) that twinjit cannot compute: its values exist only when Python runs the module @ `A`
                error: global `R` (assigned at m.py:7) is reassigned at module level (line 8), so its value at compile time is not known @ `R`
                error: global `B` (assigned at m.py:10) is assigned inside a module-level block, so its value at compile time is not known @ `B`
            "#]],
        );
    }

    #[test]
    fn decorator_forms_and_options() {
        check(
            r#"
import numba
import numba as nb
from numba import njit, jit, cuda, types, float64, float32, int64, void, intp
from numba.extending import register_jitable
DEBUG = False

@njit
def a(x): return x
@jit
def b(x): return x
@numba.njit(cache=True, fastmath=True, nogil=True, parallel=True, boundscheck=False, error_model='numpy', inline='never', debug=True, opt=3)
def c(x): return x
@nb.jit(nopython=True, locals={'acc': float32})
def d(x):
    acc = x
    return acc
@register_jitable
def e(x): return x
@numba.extending.register_jitable
def f(x): return x
@cuda.jit(void(float32[:], numba.int32), lineinfo=True, lto=True, shared_memory_carveout="MaxShared", debug=DEBUG)
def g(a, n): pass
@numba.cuda.jit(device=True)
def h(x): return x
@nb.cuda.jit
def k(a): pass
@njit([float64(float64[:], int64), "float32(float32[:], int64)", types.float64(types.float64[:, ::1], types.intp)])
def m(a, n): return a[0]
@njit((types.Array(types.float64, 2, 'C'), types.UniTuple(types.float64, 3), types.boolean))
def n(a, t, b): return a[0, 0]
@jit(target_backend='cuda')
def trap(x): return x
"#,
            expect![[r#"
                a: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                b: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                c: Host [] cache=true fastmath=true DecoratorOptions { nopython: false, nogil: true, parallel: true, inline: Some("never"), debug: true, opt: Some("3"), lineinfo: false, target_backend: None, locals: [], ufunc: None }
                d: Host [] cache=false fastmath=false DecoratorOptions { nopython: true, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [("acc", Float32)], ufunc: None }
                e: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                f: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                g: Kernel [void(float32[:], int32)] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: true, target_backend: None, locals: [], ufunc: None }
                h: Device [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                k: Kernel [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                m: Host [float64(float64[:], int64); float32(float32[:], int64); float64(float64[:, ::1], int64)] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                n: Host [(float64[:, ::1], Tuple(float64, float64, float64), bool)] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                refused trap:
                error: `trap`: `target_backend='cuda'` does not compile for a GPU @ `target_backend='cuda'`
                note: Numba accepted `@jit(target_backend='cuda')` but never compiled it for a GPU: it silently ran on the CPU
            "#]],
        );
    }

    #[test]
    fn bad_decorators_and_signatures_are_located() {
        check(
            r#"
from numba import njit, jit, types, complex64, float64, complex128
@jit(forceobj=True)
def a(x): return x
@njit(fast_math=True)
def b(x): return x
@njit(float64(complex64))
def c(x): return x
@njit(types.unicode_type(types.float64[:, :, :, :]))
def d(x): return x
@njit(types.Array(types.float64, 2, 'F')(complex128))
def e(x): return x
@njit(float64)
def f(x): return x
@jit(target_backend='cuda', nopython=False)
def g(x): return x
@njit(inline=3)
def h(x): return x
"#,
            expect![[r#"
                error: object mode is not supported @ `forceobj=True`
                error: unknown decorator option `fast_math` @ `fast_math=True`
                error: the Numba type `unicode_type` is not supported yet @ `types.unicode_type`
                error: Fortran-order ('F') arrays are not supported yet @ `'F'`
                error: `float64` is a type, not a signature @ `float64`
                error: object mode is not supported @ `nopython=False`
                error: `inline` must be 'never', 'always', True, False or a cost model @ `inline=3`
            "#]],
        );
    }

    #[test]
    fn an_inline_cost_model_is_accepted_and_unused() {
        check(
            r#"
from numba import njit

class CostModel:
    def __init__(self, n):
        self.n = n
    def __call__(self, expr, caller, callee):
        return True

@njit(inline=CostModel(3))
def fact(n):
    return 1 if n <= 0 else n * fact(n - 1)
"#,
            expect![[r#"
                fact: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
            "#]],
        );
    }

    #[test]
    fn compile_time_arguments_specialise_the_callee_per_value() {
        check(
            r#"
from numba import cuda, uint32, int64
import math

@cuda.jit(device=True)
def binned(out, n, dt, op, k):
    sm = cuda.shared.array(n, dt)
    op(sm, 0, k)
    cuda.syncthreads()
    out[0] = sm[0]

@cuda.jit(device=True)
def apply(fn, x):
    return fn(x)

@cuda.jit
def kernel(out, x):
    binned(out, 32, uint32, cuda.atomic.add, 3)
    binned(out, 16, int64, cuda.atomic.max, 4)
    binned(out, 32, uint32, cuda.atomic.add, x[0])
    x[0] = apply(math.sqrt, x[0]) + apply(math.sqrt, 2.0)
"#,
            expect![[r#"
                apply: Device [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                kernel: Kernel [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                binned__lit1: Device [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                binned__lit2: Device [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                apply__lit1: Device [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                refused binned:
                compiled only as binned__lit1, binned__lit2
                error: the shape must be a constant @ `n`
            "#]],
        );
    }

    #[test]
    fn module_level_dtype_names_are_dtypes() {
        // numba-cuda's tests name their types this way: an alias of a type imported from
        // numba.cuda, and numpy_support.from_dtype of a module-level array's dtype.
        check(
            r#"
import numpy as np
from numba import cuda
from numba.cuda import float32
from numba.cuda.np import numpy_support as nps

nbtype = float32
arr = np.arange(4)
dt = nps.from_dtype(arr.dtype)
dt2 = np.dtype(nbtype)

@cuda.jit
def k(a):
    s = cuda.shared.array(4, dtype=nbtype)
    t = cuda.shared.array(4, dtype=dt)
    u = cuda.local.array(2, dt2)
    s[0] = 1.0
    t[0] = 2
    u[0] = 3.0
    a[0] = s[0] + t[0] + u[0]
"#,
            expect![[r#"
                k: Kernel [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
            "#]],
        );
    }

    #[test]
    fn a_device_function_whose_shape_is_a_parameter_waits_for_a_constant() {
        // Nothing here calls `block_sum`: numba-cuda would compile it for a literal `n`, and so
        // does twinjit (as a copy), so it is no error of the module. A shape that is a local
        // (`m`), or a parameter the body assigns to (`k`), can never be a constant: errors.
        check(
            r#"
from numba import cuda, int32

@cuda.jit(device=True)
def block_sum(x, n):
    buf = cuda.shared.array(n, int32)
    buf[0] = x[0]
    return buf[0]

@cuda.jit(device=True)
def local_shape(x):
    m = x.shape[0]
    buf = cuda.shared.array(m, int32)
    return buf[0]

@cuda.jit(device=True)
def reassigned(x, k):
    k = k + x[0]
    buf = cuda.shared.array(k, int32)
    return buf[0]
"#,
            expect![[r#"
                refused block_sum:
                compiled when called with constant n
                error: the shape must be a constant @ `n`
                refused local_shape:
                error: the shape must be a constant @ `m`
                refused reassigned:
                error: the shape must be a constant @ `k`
            "#]],
        );
    }

    #[test]
    fn untaken_literal_branches_are_pruned_a_failing_copy_names_its_bindings_and_plain_numbers_stay_arguments() {
        check(
            r#"
from numba import njit
import numpy as np

@njit
def pick(a, kind):
    if kind == "sum":
        return a.sum()
    return a.undefined_method()

@njit
def sums(a):
    return pick(a, "sum")

@njit
def bad(a):
    return pick(a, "other")
"#,
            expect![[r#"
                sums: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                bad: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                pick__lit1: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                refused pick:
                compiled only as pick__lit1, pick__lit2
                error: method call `.undefined_method()` is not supported @ `a.undefined_method()`
                refused pick__lit2:
                error: method call `.undefined_method()` is not supported @ `a.undefined_method()`
                note: in `pick` specialised for kind="other" (as `pick__lit2`)
            "#]],
        );
        check(
            r#"
from numba import njit

@njit
def scaled(x, k):
    return x * k

@njit
def f(x):
    return scaled(x, 3) + scaled(x, 0.5)
"#,
            expect![[r#"
                scaled: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                f: Host [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
            "#]],
        );
    }

    #[test]
    fn a_bool_literal_tested_in_a_branch_specialises_and_prunes_the_other_side() {
        // With `neg_idx` runtime, `bin` would be (int64, uint64) on one path and
        // (int64, float64) on the other; False prunes the `if`, as Numba's literal retry does.
        check(
            r#"
from numba import cuda, uint32, uint64

@cuda.jit(device=True)
def bump(ary, shape, neg_idx):
    tx = cuda.threadIdx.x
    sm = cuda.shared.array(shape, uint32)
    bin = (tx, uint64(tx))
    if neg_idx:
        bin = (bin[0] % shape[0], bin[1] % shape[1])
    v = 1 if not neg_idx else 2
    cuda.atomic.add(sm, bin, v)
    ary[0] = sm[0, 0]

@cuda.jit
def k(ary):
    bump(ary, (4, 8), False)
"#,
            expect![[r#"
                k: Kernel [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                bump__lit1: Device [] cache=false fastmath=false DecoratorOptions { nopython: false, nogil: false, parallel: false, inline: None, debug: false, opt: None, lineinfo: false, target_backend: None, locals: [], ufunc: None }
                refused bump:
                compiled only as bump__lit1
                error: the shape must be a constant @ `shape`
            "#]],
        );
    }
}
