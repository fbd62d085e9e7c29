//! What module-level names mean: imports, frozen numeric constants and the module's functions.

use crate::const_eval::ConstValue;
use hashbrown::HashMap;
use twinjit_ir::{Builtin, FunctionKind};

/// What an imported (or global) name refers to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Global {
    /// The `math` module.
    MathModule,
    /// The `numpy` module.
    NumpyModule,
    /// The `numba` module.
    NumbaModule,
    /// `numba.cuda`.
    CudaModule,
    /// `njit` / `jit` imported from numba.
    Decorator(&'static str),
    /// `prange` from numba.
    Prange,
    /// A numba type name such as `float32` (usable as a dtype).
    NumbaType(twinjit_ir::Scalar),
    /// A function imported from math (`from math import sqrt`).
    MathFunction(Builtin),
    /// A constant imported from math (`from math import pi`).
    MathConst(f64),
    /// A frozen module-level constant; its integers fit int64 (module level checks).
    Const(ConstValue),
    /// A function of this module.
    Function { kind: Option<FunctionKind>, params: usize },
}

pub(crate) type Env = HashMap<String, Global>;

/// The `math` function `name` (through the builtins table).
pub(crate) fn math_function(name: &str) -> Option<Builtin> {
    Builtin::from_path(&format!("math.{name}"))
}

/// The "supported: ..." hint for a module's functions, made from the builtins table.
pub(crate) fn supported_hint(module: &str, extra: &str) -> String {
    let names = twinjit_ir::builtins::paths_under(&format!("{module}."));
    format!("supported: {module}.{}{extra}", names.join(" "))
}

/// The `math` (and `numpy`) constants.
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

/// NumPy/Numba scalar type names usable as casts and dtypes.
pub(crate) fn dtype_name(name: &str) -> Option<twinjit_ir::Scalar> {
    use twinjit_ir::Scalar::*;
    Some(match name {
        "float32" | "single" => Float32,
        "float64" | "double" => Float64,
        "int32" | "intc" => Int32,
        "int64" | "intp" => Int64,
        "bool_" | "boolean" => Bool,
        _ => return None,
    })
}
