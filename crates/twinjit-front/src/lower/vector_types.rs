//! numba-cuda's vector types: `cuda.float32x4(x, y, z, w)`, `cuda.int2(v1, 3)` and the other
//! 40 names (`int8x1` ... `float64x4` and their C aliases `char1` ... `double4`).
//!
//! numba-cuda makes each a struct of one to four components of its base type, read as `.x .y
//! .z .w`; its constructor takes numbers and other vectors whose components, taken in order,
//! fill the new vector (`float3(float2(1, 2), 3)`). twinjit's vector is the tuple of its
//! components: the constructor is `Builtin::CudaVector` (the name as a string constant, then the
//! arguments), which inference rewrites into casts to the base type and a tuple once it knows
//! which arguments are vectors; `.x .y .z .w` read components 0 to 3 in a module that names a
//! vector type (found as a namedtuple field is found, so a namedtuple that places `x` elsewhere
//! makes `.x` ambiguous there, with a located error).

use super::Lower;
use crate::env::{Env, Global};
use ruff_python_ast::{self as ast, Expr};
use twinjit_diag::{Diagnostic, Span};
use twinjit_ir::{builtins::cuda_vector, intern, Builtin, Const, InstKind, Value};

/// The components' names, in order.
pub(super) const FIELDS: [&str; 4] = ["x", "y", "z", "w"];

/// Whether the module names a vector type: imported from `numba.cuda`, or written
/// `MODULE.NAME` in its source where `MODULE` is `cuda` or a name bound to `numba.cuda`
/// (`from numba import cuda as cu`: `cu.float32x2`).
pub(crate) fn module_uses_vectors(text: &str, env: &Env) -> bool {
    let imported = env.iter().any(|(_, g)| {
        matches!(g, Global::Opaque(p) if p.strip_prefix("numba.cuda.").is_some_and(|n| cuda_vector(n).is_some()))
    });
    let mut prefixes: Vec<String> =
        env.iter().filter(|(_, g)| matches!(g, Global::CudaModule)).map(|(n, _)| format!("{n}.")).collect();
    prefixes.push("cuda.".to_string());
    imported
        || prefixes.iter().any(|prefix| {
            text.match_indices(prefix.as_str()).any(|(at, dot)| {
                let rest = &text[at + dot.len()..];
                let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                cuda_vector(&rest[..end]).is_some()
            })
        })
}

impl Lower<'_> {
    /// `NAME(args...)` of a vector type.
    pub(super) fn vector_call(&mut self, name: &str, c: &ast::ExprCall, span: Span) -> Value {
        if !c.arguments.keywords.is_empty() {
            return self.fail(
                Diagnostic::error(format!("{name}() takes no keyword arguments"), span, "keyword argument")
                    .with_hint("pass the components in order: numba-cuda's vector constructors are positional"),
            );
        }
        if c.arguments.args.iter().any(|e| matches!(e, Expr::Starred(_))) {
            return self.fail(Diagnostic::error(
                format!("`*args` in {name}() is not supported"),
                span,
                "pass the components one by one",
            ));
        }
        let k = self.konst(Const::Str(intern(name)), span);
        let mut vals = vec![k];
        vals.extend(c.arguments.args.iter().map(|a| self.expr(a)));
        self.emit(InstKind::Builtin(Builtin::CudaVector, vals), span)
    }
}
