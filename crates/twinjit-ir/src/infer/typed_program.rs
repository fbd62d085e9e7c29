//! `TypedProgram` and `TypedFunction`: what type inference hands to the passes, the backends and
//! the interpreter, and the mangled names of specialisations.
//!
//! Plain data; it does not know how it was inferred. Invariants: `functions[0]` is the entry;
//! every function's `name` is its mangled specialisation name (unique within a program), and
//! every `call` in it names another function of the same program.

use crate::function::Function;
use crate::module::FunctionKind;
use crate::types::Type;

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
    /// `fastmath=True`: the host may reassociate this function's float reductions (vector
    /// partial sums), as LLVM's `reassoc` flag lets Numba's.
    pub fastmath: bool,
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
