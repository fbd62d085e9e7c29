//! What module-level names mean: imports, frozen numeric constants and the module's functions,
//! and, for every other module-level name, why it has no value a compiled function can read.

use crate::const_eval::ConstValue;
use crate::params::Params;
use hashbrown::HashMap;
use ruff_python_ast::Expr;
use twinjit_diag::Span;
use twinjit_ir::{Builtin, Const, FunctionKind, Scalar};

/// What an imported (or global) name refers to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Global {
    /// The `math` module.
    MathModule,
    /// The `cmath` module.
    CmathModule,
    /// The `numpy` module.
    NumpyModule,
    /// The `numba` module.
    NumbaModule,
    /// `numba.cuda`.
    CudaModule,
    /// `numba.types` (also `numba.core.types`).
    TypesModule,
    /// `numba.extending`.
    ExtendingModule,
    /// Python's `heapq` (its functions are builtins on lists).
    HeapqModule,
    /// `njit` / `jit` imported from numba, `register_jitable` from numba.extending.
    Decorator(&'static str),
    /// `prange` from numba.
    Prange,
    /// A numba type name such as `float32` (usable as a dtype).
    NumbaType(twinjit_ir::Scalar),
    /// A builtin imported from math or numpy (`from math import sqrt`, `from numpy import
    /// minimum`).
    MathFunction(Builtin),
    /// A constant imported from math (`from math import pi`).
    MathConst(f64),
    /// A frozen module-level constant; its integers fit int64 (module level checks).
    Const(ConstValue),
    /// `X = None` at module level.
    NoneConst,
    /// A namedtuple class (`collections.namedtuple('P', ['x', 'y'])`, `class P(NamedTuple)`):
    /// its fields as the parameters of its constructor. A value of it is a tuple; `p.x` reads
    /// the field by its position.
    NamedTuple(crate::params::Params),
    /// A module-level NumPy array twinjit computed (`const_array.rs`): frozen into the code
    /// of every function that reads it, read-only.
    Array(std::sync::Arc<twinjit_ir::ConstArray>),
    /// A module-level tuple of such arrays (`cases = (np.zeros(3), np.ones((2, 2)))`), read as a
    /// tuple of the frozen arrays (what `literal_unroll` iterates).
    ArrayTuple(Vec<std::sync::Arc<twinjit_ir::ConstArray>>),
    /// A NumPy scalar constant that is not int64/float64/bool (`np.float32(0.5)`): the value,
    /// already rounded to the type, and the type.
    Scalar(Scalar, ConstValue),
    /// A name twinjit cannot compile: a module (`time`, `cupy`, `numpy.typing`) or a name
    /// imported from one (`time.perf_counter`, `numba.vectorize`), as a dotted path.
    Opaque(String),
    /// A module-level name without a value a compiled function can read; reading it is a
    /// located error there.
    Unfrozen(Unfrozen),
    /// A function of this module.
    /// `ufunc`: what `@vectorize` / `@guvectorize` declared (a call is `ufunc_call` /
    /// `gufunc_call` of the inner function; `f.reduce`, `f.nin` read it).
    Function { kind: Option<FunctionKind>, params: Params, ufunc: Option<Box<twinjit_ir::UfuncSpec>> },
    /// A decorated function refused on its own (`target_backend='cuda'`).
    Refused,
    /// A compiled generator function's definition, kept under
    /// `lower::generators::generator_key(name)` for the `for` loops that inline it.
    Generator(std::rc::Rc<ruff_python_ast::StmtFunctionDef>),
    /// A module-level class deriving from an exception (`class MyError(ValueError): pass`):
    /// its name, which compiled code may raise.
    ExceptionClass(String),
}

/// Why a module-level name has no frozen value, and where it was assigned.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Unfrozen {
    /// The (first) assignment statement.
    pub(crate) assigned: Span,
    /// `file.py:LINE` of that statement, for messages.
    pub(crate) at: String,
    pub(crate) why: UnfrozenWhy,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum UnfrozenWhy {
    /// Assigned more than once (or by `+=`, `for`, `del`, ...); `again` is the second one.
    Reassigned { again: Span, again_at: String },
    /// Assigned inside a module-level block (`if`, `for`, `try`, `with`).
    InBlock,
    /// A NumPy array (`np.ones(10)`): the function that built it.
    Array(String, Option<String>),
    /// A string constant: its value when it is a plain literal (a dtype spelled as a string,
    /// `DT = 'float32'`, is read where a dtype is expected).
    Str(Option<String>),
    /// A class defined at module level.
    Class,
    /// Anything else: the source of the value.
    Value(String),
}

/// The dotted path a name or attribute chain stands for, with the module spelled out:
/// `cuda.jit` → `numba.cuda.jit`, `t.perf_counter` (`import time as t`) → `time.perf_counter`,
/// `nb.types.float64` → `numba.types.float64`. `None` when the root is not a module-level name
/// with a path (a local, a constant, a function of the module).
pub(crate) fn qualified(e: &Expr, env: &Env) -> Option<String> {
    match e {
        Expr::Name(n) => {
            let root = match env.get(n.id.as_str())? {
                Global::MathModule => "math".to_string(),
                Global::CmathModule => "cmath".to_string(),
                Global::NumpyModule => "numpy".to_string(),
                Global::NumbaModule => "numba".to_string(),
                Global::CudaModule => "numba.cuda".to_string(),
                Global::TypesModule => "numba.types".to_string(),
                Global::ExtendingModule => "numba.extending".to_string(),
                Global::HeapqModule => "heapq".to_string(),
                Global::Decorator("register_jitable") => "numba.extending.register_jitable".to_string(),
                Global::Decorator(d) => format!("numba.{d}"),
                Global::Prange => "numba.prange".to_string(),
                Global::NumbaType(s) => format!("numba.{}", s.name()),
                Global::Opaque(p) => p.clone(),
                _ => return None,
            };
            Some(root)
        }
        Expr::Attribute(a) => {
            let base = qualified(&a.value, env)?;
            let path = format!("{base}.{}", a.attr.id.as_str());
            // `numba.core.types` is `numba.types`.
            Some(match path.strip_prefix("numba.core.types") {
                Some(rest) => format!("numba.types{rest}"),
                None => path,
            })
        }
        _ => None,
    }
}

pub(crate) type Env = HashMap<String, Global>;

/// The `math` function `name` (through the builtins table).
pub(crate) fn math_function(name: &str) -> Option<Builtin> {
    Builtin::from_path(&format!("math.{name}"))
}

/// The `cmath` function `name` (through the builtins table).
pub(crate) fn cmath_function(name: &str) -> Option<Builtin> {
    Builtin::from_path(&format!("cmath.{name}"))
}

/// The Python builtins of the table (`abs`, `round`, ...), for hints.
pub(crate) fn python_builtins() -> Vec<&'static str> {
    Builtin::ALL.iter().flat_map(|b| b.info().paths.iter().copied()).filter(|p| !p.contains('.')).collect()
}

/// The NumPy function `name` (through the builtins table: `numpy.NAME`).
pub(crate) fn numpy_function(name: &str) -> Option<Builtin> {
    Builtin::from_path(&format!("numpy.{name}"))
}

/// The "supported: ..." hint for `np.*`, made from the builtins table.
pub(crate) fn numpy_hint() -> String {
    use twinjit_ir::Typing;
    let (mut scalar, mut arrays, mut reductions) = (Vec::new(), Vec::new(), Vec::new());
    for b in twinjit_ir::Builtin::ALL {
        for p in b.info().paths.iter().filter_map(|p| p.strip_prefix("numpy.")) {
            match b.info().typing {
                Typing::Alloc(_) | Typing::View(_) => arrays.push(p),
                Typing::Reduce(_) => reductions.push(p),
                _ => scalar.push(p),
            }
        }
    }
    format!(
        "supported: the NumPy scalar casts (np.float32, np.uint8, ...), np.pi e inf nan euler_gamma newaxis, \
         np.finfo(dtype).eps/max/min/tiny/resolution, np.iinfo(dtype).max/min, np.{} on numbers and arrays, \
         np.{} making arrays, and the reductions np.{}",
        scalar.join(" "),
        arrays.join(" "),
        reductions.join(" ")
    )
}

/// The "supported: ..." hint for a module's functions, made from the builtins table.
pub(crate) fn supported_hint(module: &str, extra: &str) -> String {
    let names = twinjit_ir::builtins::paths_under(&format!("{module}."));
    format!("supported: {module}.{}{extra}", names.join(" "))
}

/// The `math` constants.
pub(crate) fn math_const(name: &str) -> Option<f64> {
    Some(match name {
        "pi" => std::f64::consts::PI,
        "e" => std::f64::consts::E,
        "inf" => f64::INFINITY,
        "nan" => f64::NAN,
        "tau" => std::f64::consts::TAU,
        _ => return None,
    })
}

/// The `numpy` constants (float64, as Numba types them).
pub(crate) fn numpy_const(name: &str) -> Option<f64> {
    Some(match name {
        "pi" => std::f64::consts::PI,
        "e" => std::f64::consts::E,
        "inf" => f64::INFINITY,
        "nan" => f64::NAN,
        "euler_gamma" => 0.577_215_664_901_532_9,
        _ => return None,
    })
}

/// The constant module's name `m` gives to `name` (`math.tau`, `np.euler_gamma`).
pub(crate) fn module_const(m: &Global, name: &str) -> Option<f64> {
    match m {
        Global::MathModule | Global::CmathModule => math_const(name),
        Global::NumpyModule => numpy_const(name),
        _ => None,
    }
}

/// `np.finfo(dtype).ATTR` / `np.iinfo(dtype).ATTR` as Numba folds them: the value and its
/// type (finfo in the float type, iinfo always int64).
pub(crate) fn type_info(func: &str, dtype: Scalar, attr: &str) -> Option<(Scalar, Const)> {
    use Scalar::*;
    let f = |x: f64| Some((dtype, Const::Float(x)));
    let i = |x: i64| Some((Int64, Const::Int(x)));
    match (func, dtype, attr) {
        ("finfo", Float64, "eps") => f(f64::EPSILON),
        ("finfo", Float64, "max") => f(f64::MAX),
        ("finfo", Float64, "min") => f(f64::MIN),
        ("finfo", Float64, "tiny") => f(f64::MIN_POSITIVE),
        ("finfo", Float64, "resolution") => f(1e-15),
        ("finfo", Float32, "eps") => f(f32::EPSILON as f64),
        ("finfo", Float32, "max") => f(f32::MAX as f64),
        ("finfo", Float32, "min") => f(f32::MIN as f64),
        ("finfo", Float32, "tiny") => f(f32::MIN_POSITIVE as f64),
        ("finfo", Float32, "resolution") => f(1e-6f32 as f64),
        ("finfo", Float16, "eps") => f(twinjit_ir::half::f16::EPSILON.to_f64()),
        ("finfo", Float16, "max") => f(twinjit_ir::half::f16::MAX.to_f64()),
        ("finfo", Float16, "min") => f(twinjit_ir::half::f16::MIN.to_f64()),
        ("finfo", Float16, "tiny") => f(twinjit_ir::half::f16::MIN_POSITIVE.to_f64()),
        ("finfo", Float16, "resolution") => f(twinjit_ir::half::f16::from_f64(1e-3).to_f64()),
        ("iinfo", UInt64, "max") => Some((UInt64, Const::Int(-1))),
        ("iinfo", d, "max") if d.is_int() => i(d.int_range().1 as i64),
        ("iinfo", d, "min") if d.is_int() => i(d.int_range().0 as i64),
        ("iinfo", d, "bits") if d.is_int() => i(d.bits() as i64),
        _ => None,
    }
}

pub(crate) use twinjit_ir::{dtype_name, dtype_string};

/// The dtype a dotted path names (`numpy.float32`, `numba.int8`, `numba.types.uint32`,
/// `numba.cuda.float32`: the last name a dtype, of a module that exports the dtypes).
pub(crate) fn dtype_path(path: &str) -> Option<Scalar> {
    let (module, last) = path.rsplit_once('.')?;
    matches!(module, "numpy" | "numba" | "numba.types" | "numba.core.types" | "numba.cuda")
        .then(|| dtype_name(last))
        .flatten()
}
