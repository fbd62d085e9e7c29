//! Module-level imports → [`Env`] entries. Every import is accepted, as Python accepts it:
//! what twinjit compiles (`math`, `cmath`, `numpy`, `numba` and the names it knows from them) gets its
//! meaning; every other module or name is bound as [`Global::Opaque`], so that only a compiled
//! function that *uses* it gets an error, located at the use.

use crate::env::{cmath_function, dtype_name, math_const, math_function, numpy_const, numpy_function, Env, Global};
use ruff_python_ast::{StmtImport, StmtImportFrom};

/// What `import NAME` (or `import NAME as x`) binds.
fn module(name: &str) -> Global {
    match name {
        "math" => Global::MathModule,
        "cmath" => Global::CmathModule,
        "numpy" => Global::NumpyModule,
        "numba" => Global::NumbaModule,
        "numba.cuda" => Global::CudaModule,
        "numba.types" | "numba.core.types" => Global::TypesModule,
        "numba.extending" => Global::ExtendingModule,
        "heapq" => Global::HeapqModule,
        other => Global::Opaque(other.to_string()),
    }
}

/// `import a.b.c as x` binds `x` to `a.b.c`; `import a.b.c` binds `a` to `a`.
pub(crate) fn import(imp: &StmtImport, env: &mut Env) {
    for alias in &imp.names {
        let name = alias.name.id.as_str();
        match &alias.asname {
            Some(bind) => {
                env.insert(bind.id.to_string(), module(name));
            }
            None => {
                let root = name.split('.').next().unwrap_or(name);
                env.insert(root.to_string(), module(root));
            }
        }
    }
}

/// `from m import a as b`: the names twinjit knows get their meaning, the rest are opaque.
pub(crate) fn import_from(imp: &StmtImportFrom, env: &mut Env) {
    let dots = ".".repeat(imp.level as usize);
    let module = format!("{dots}{}", imp.module.as_ref().map(|m| m.id.as_str()).unwrap_or(""));
    for alias in &imp.names {
        let name = alias.name.id.as_str();
        if name == "*" {
            // Binds names twinjit cannot list; a compiled function using one gets "not defined".
            continue;
        }
        let bind = alias.asname.as_ref().map(|a| a.id.as_str()).unwrap_or(name).to_string();
        let known = match (module.as_str(), name) {
            ("numba", "njit") => Some(Global::Decorator("njit")),
            ("numba", "jit") => Some(Global::Decorator("jit")),
            ("numba.cuda", "jit") => Some(Global::Decorator("cuda.jit")),
            ("numba" | "numba.extending" | "numba.core.extending", "register_jitable") => {
                Some(Global::Decorator("register_jitable"))
            }
            ("numba", "cuda") => Some(Global::CudaModule),
            ("numba", "prange") => Some(Global::Prange),
            ("numba", f) if twinjit_ir::builtins::Builtin::from_path(&format!("numba.{f}")).is_some() => {
                twinjit_ir::builtins::Builtin::from_path(&format!("numba.{f}")).map(Global::MathFunction)
            }
            ("numba" | "numba.core", "types") => Some(Global::TypesModule),
            ("numba", "extending") => Some(Global::ExtendingModule),
            ("numpy", f) if numpy_function(f).is_some() => numpy_function(f).map(Global::MathFunction),
            ("numpy", c) if numpy_const(c).is_some() => numpy_const(c).map(Global::MathConst),
            ("numba" | "numba.types" | "numba.core.types" | "numba.cuda" | "numpy", t) => {
                dtype_name(t).map(Global::NumbaType)
            }
            ("math", f) => math_function(f).map(Global::MathFunction).or_else(|| math_const(f).map(Global::MathConst)),
            ("heapq", f) => twinjit_ir::builtins::Builtin::from_path(&format!("heapq.{f}")).map(Global::MathFunction),
            ("cmath", f) => {
                cmath_function(f).map(Global::MathFunction).or_else(|| math_const(f).map(Global::MathConst))
            }
            _ => None,
        };
        let path = if module.ends_with('.') { format!("{module}{name}") } else { format!("{module}.{name}") };
        env.insert(bind, known.unwrap_or(Global::Opaque(path)));
    }
}
