//! Input generators for the fuzz targets: a random argument signature, and a structured
//! random program of the supported subset printed as Python source (for differential testing
//! of the host target against the reference interpreter).
//!
//! Generated programs are valid by construction except for runtime errors (division by zero,
//! indices out of bounds), which both sides must report identically. Loops are `for` over
//! small constant ranges, so every program terminates quickly.

use arbitrary::{Arbitrary, Unstructured};
use std::fmt::Write;

/// Types a fuzzed signature picks from.
pub const TYPES: &[&str] = &[
    "int64", "int32", "float64", "float32", "boolean", "float64[:]", "int64[:]", "float32[:, :]", "float64[::1]",
    "int32[:, :, :]",
];

/// A signature of `arity` arguments chosen by `u`.
pub fn signature(u: &mut Unstructured, arity: usize) -> String {
    let args: Vec<&str> = (0..arity).map(|_| *u.choose(TYPES).unwrap_or(&"int64")).collect();
    format!("({})", args.join(", "))
}

/// Binary operators of generated expressions.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    BitAnd,
    Shl,
    Min,
    Max,
}

/// Comparisons.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Cmp {
    Lt,
    Le,
    Eq,
    Ne,
}

/// One of the four local variables (`v0`..`v3`) or parameters.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct Var(u8);

/// An expression.
#[derive(Arbitrary, Debug)]
pub enum Expr {
    Int(i8),
    BigInt(i64),
    Float(i16),
    Bool(bool),
    Var(Var),
    IntParam,
    FloatParam,
    Bin(Bin, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Cmp(Cmp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    IfExp(Box<Expr>, Box<Expr>, Box<Expr>),
    Load(Box<Expr>),
    Len,
    Sqrt(Box<Expr>),
    Floor(Box<Expr>),
    Abs(Box<Expr>),
    ToInt(Box<Expr>),
    ToFloat32(Box<Expr>),
}

/// A statement.
#[derive(Arbitrary, Debug)]
pub enum Stmt {
    Assign(Var, Expr),
    AugAdd(Var, Expr),
    AugMul(Var, Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    For(Var, u8, Vec<Stmt>),
    Store(Expr, Expr),
    Break,
    Continue,
}

/// A program: `def f(n, x, a)` with `n: int64`, `x: float64`, `a: float64[:]`.
#[derive(Arbitrary, Debug)]
pub struct Program {
    /// Initial values of `v0`..`v3` (kinds: int or float).
    pub init: [bool; 4],
    /// The body.
    pub body: Vec<Stmt>,
    /// The returned expression.
    pub ret: Expr,
}

const MAX_DEPTH: usize = 5;
const MAX_STMTS: usize = 24;

struct Printer {
    out: String,
    stmts: usize,
    loops: usize,
}

impl Printer {
    fn var(v: Var) -> String {
        format!("v{}", v.0 % 4)
    }

    fn expr(&self, e: &Expr, depth: usize) -> String {
        if depth > MAX_DEPTH {
            return "1".into();
        }
        let d = depth + 1;
        match e {
            Expr::Int(i) => format!("{i}"),
            Expr::BigInt(i) => format!("{}", i / 3),
            Expr::Float(f) => format!("{:?}", *f as f64 / 8.0),
            Expr::Bool(b) => if *b { "True" } else { "False" }.into(),
            Expr::Var(v) => Self::var(*v),
            Expr::IntParam => "n".into(),
            Expr::FloatParam => "x".into(),
            Expr::Bin(op, a, b) => {
                let (a, b) = (self.expr(a, d), self.expr(b, d));
                match op {
                    Bin::Add => format!("({a} + {b})"),
                    Bin::Sub => format!("({a} - {b})"),
                    Bin::Mul => format!("({a} * {b})"),
                    Bin::Div => format!("({a} / {b})"),
                    Bin::FloorDiv => format!("({a} // {b})"),
                    Bin::Mod => format!("({a} % {b})"),
                    // Small exponents keep results finite and the computation short.
                    Bin::Pow => format!("({a} ** (int({b}) % 5))"),
                    Bin::BitAnd => format!("(int({a}) & int({b}))"),
                    Bin::Shl => format!("(int({a}) << (int({b}) % 8))"),
                    Bin::Min => format!("min({a}, {b})"),
                    Bin::Max => format!("max({a}, {b})"),
                }
            }
            Expr::Neg(a) => format!("(-{})", self.expr(a, d)),
            Expr::Not(a) => format!("(not {})", self.expr(a, d)),
            Expr::Cmp(op, a, b) => {
                let o = match op {
                    Cmp::Lt => "<",
                    Cmp::Le => "<=",
                    Cmp::Eq => "==",
                    Cmp::Ne => "!=",
                };
                format!("({} {o} {})", self.expr(a, d), self.expr(b, d))
            }
            Expr::And(a, b) => format!("({} and {})", self.expr(a, d), self.expr(b, d)),
            Expr::IfExp(c, a, b) => format!("({} if {} else {})", self.expr(a, d), self.expr(c, d), self.expr(b, d)),
            Expr::Load(i) => format!("a[int({}) % 7 - 3]", self.expr(i, d)),
            Expr::Len => "len(a)".into(),
            Expr::Sqrt(a) => format!("math.sqrt(abs(float({})))", self.expr(a, d)),
            Expr::Floor(a) => format!("math.floor(float({}) / 3.0)", self.expr(a, d)),
            Expr::Abs(a) => format!("abs({})", self.expr(a, d)),
            Expr::ToInt(a) => format!("int(min(max(float({}), -1e9), 1e9))", self.expr(a, d)),
            Expr::ToFloat32(a) => format!("np.float32(float({}))", self.expr(a, d)),
        }
    }

    fn stmts(&mut self, body: &[Stmt], indent: usize) {
        let pad = "    ".repeat(indent);
        let before = self.out.len();
        for s in body {
            if self.stmts >= MAX_STMTS {
                break;
            }
            self.stmts += 1;
            match s {
                Stmt::Assign(v, e) => {
                    let _ = writeln!(self.out, "{pad}{} = {}", Self::var(*v), self.expr(e, 0));
                }
                Stmt::AugAdd(v, e) => {
                    let _ = writeln!(self.out, "{pad}{} += {}", Self::var(*v), self.expr(e, 0));
                }
                Stmt::AugMul(v, e) => {
                    let _ = writeln!(self.out, "{pad}{} *= {}", Self::var(*v), self.expr(e, 0));
                }
                Stmt::If(c, t, e) => {
                    let _ = writeln!(self.out, "{pad}if {}:", self.expr(c, 0));
                    self.stmts(t, indent + 1);
                    let _ = writeln!(self.out, "{pad}else:");
                    self.stmts(e, indent + 1);
                }
                Stmt::For(_, n, body) if indent < 4 => {
                    // Loop counters get their own names so that they stay integers.
                    self.loops += 1;
                    let _ = writeln!(self.out, "{pad}for i{} in range({}):", self.loops, n % 12);
                    self.stmts(body, indent + 1);
                }
                Stmt::For(..) => {}
                Stmt::Store(i, e) => {
                    let _ = writeln!(self.out, "{pad}a[int({}) % 7 - 3] = {}", self.expr(i, 0), self.expr(e, 0));
                }
                Stmt::Break | Stmt::Continue => {
                    // Only meaningful inside a loop; elsewhere a no-op statement.
                    let kw = if matches!(s, Stmt::Break) { "break" } else { "continue" };
                    if self.loops > 0 && indent > 1 {
                        let _ = writeln!(self.out, "{pad}{kw}");
                    }
                }
            }
        }
        if self.out.len() == before {
            let _ = writeln!(self.out, "{pad}pass");
        }
    }
}

impl Program {
    /// The program as a Python module defining `f(n, x, a)`.
    pub fn to_python(&self) -> String {
        let mut p = Printer { out: String::new(), stmts: 0, loops: 0 };
        p.out.push_str("import math\nimport numpy as np\nfrom numba import njit\n\n\n@njit\ndef f(n, x, a):\n");
        for (k, is_float) in self.init.iter().enumerate() {
            let _ = writeln!(p.out, "    v{k} = {}", if *is_float { "0.5" } else { "1" });
        }
        p.stmts(&self.body, 1);
        let _ = writeln!(p.out, "    return {}", p.expr(&self.ret, 0));
        p.out
    }
}
