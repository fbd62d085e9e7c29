//! The text form of the IR: `Display` for [`Function`]; `{:#}` adds spans (`@start..end`).
//! `crate::parse` reads both forms back.

use crate::function::*;
use crate::types::Type;
use std::fmt::{self, Write};

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spans = f.alternate();
        write!(f, "function @{}(", self.name)?;
        for (i, n) in self.param_names.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(n)?;
        }
        writeln!(f, ") -> {} {{", self.ret)?;
        for b in self.reverse_postorder_all() {
            let bd = &self.blocks[b.index()];
            write!(f, "{b}(")?;
            for (i, p) in bd.params.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_value_decl(f, *p, self.ty(*p))?;
            }
            f.write_char(')')?;
            if let Some(u) = &bd.unwind {
                f.write_str(" unwind ")?;
                write_call(f, u)?;
            }
            f.write_str(":\n")?;
            for &inst in &bd.insts {
                let data = &self.insts[inst.index()];
                f.write_str("    ")?;
                if let Some(r) = data.result {
                    write_value_decl(f, r, self.ty(r))?;
                    f.write_str(" = ")?;
                }
                write_kind(f, &data.kind)?;
                if spans && !data.span.is_dummy() {
                    write!(f, " @{}..{}", data.span.start, data.span.end)?;
                }
                f.write_char('\n')?;
            }
            f.write_str("    ")?;
            write_term(f, &bd.term)?;
            if spans && !bd.term_span.is_dummy() {
                write!(f, " @{}..{}", bd.term_span.start, bd.term_span.end)?;
            }
            f.write_char('\n')?;
        }
        f.write_str("}\n")
    }
}

impl Function {
    /// All blocks: reachable ones in reverse post-order, then unreachable ones by index, so
    /// printing never hides a block.
    pub(crate) fn reverse_postorder_all(&self) -> Vec<Block> {
        let mut order = self.reverse_postorder();
        let mut seen = vec![false; self.blocks.len()];
        for b in &order {
            seen[b.index()] = true;
        }
        order.extend((0..self.blocks.len()).filter(|&i| !seen[i]).map(|i| Block(i as u32)));
        order
    }
}

fn write_value_decl(f: &mut fmt::Formatter<'_>, v: Value, ty: &Type) -> fmt::Result {
    if *ty == Type::Unknown {
        write!(f, "{v}")
    } else {
        write!(f, "{v}: {ty}")
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, vs: &[Value]) -> fmt::Result {
    for (i, v) in vs.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{v}")?;
    }
    Ok(())
}

/// Prints a float so that it reads back bit-for-bit and always looks like a float.
/// Writes `items` as a Python tuple: `()`, `(a,)`, `(a, b)`.
pub fn python_tuple<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    f.write_str("(")?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    f.write_str(if items.len() == 1 { ",)" } else { ")" })
}

/// Python's `repr` of `complex(re, im)`: `2j`, `(1+2j)`, `(1.5-0j)`, `(nan+infj)` (the
/// parts as `repr(float)` without a trailing `.0`; the real part is left out when it is +0).
pub fn python_complex_repr(re: f64, im: f64) -> String {
    let part = |x: f64| {
        let t = python_float_repr(x);
        t.strip_suffix(".0").map(str::to_string).unwrap_or(t)
    };
    if re == 0.0 && re.is_sign_positive() {
        return format!("{}j", part(im));
    }
    let sign = if im.is_sign_negative() && !im.is_nan() { "" } else { "+" };
    format!("({}{sign}{}j)", part(re), part(im))
}

pub(crate) fn float_text(x: f64) -> String {
    python_float_repr(x)
}

/// Python's `repr(float)`: the shortest digits that round-trip, in fixed notation when the
/// decimal exponent is in `-4..16` (`0.0001`, `1000000000000000.0`), else scientific with a
/// signed exponent of at least two digits (`1e-05`, `5e+19`); `nan`, `inf`, `-inf`.
pub fn python_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    // Rust's `{:e}` gives the same shortest round-trip digits: `-1.2345e-5`, `5e19`, `0e0`.
    let sci = format!("{x:e}");
    let (mant, exp) = sci.split_once('e').expect("`{:e}` has an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let (sign, mant) = match mant.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mant),
    };
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    if (-4..16).contains(&exp) {
        if exp >= 0 {
            let k = exp as usize + 1;
            let (int, frac) = if digits.len() > k {
                (digits[..k].to_string(), digits[k..].to_string())
            } else {
                (format!("{digits}{}", "0".repeat(k - digits.len())), String::new())
            };
            let frac = if frac.is_empty() { "0".to_string() } else { frac };
            format!("{sign}{int}.{frac}")
        } else {
            format!("{sign}0.{}{digits}", "0".repeat((-exp - 1) as usize))
        }
    } else {
        let rest = if digits.len() > 1 { format!(".{}", &digits[1..]) } else { String::new() };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{}{rest}e{esign}{:02}", &digits[..1], exp.abs())
    }
}

fn write_kind(f: &mut fmt::Formatter<'_>, k: &InstKind) -> fmt::Result {
    match k {
        InstKind::Const(c) => match c {
            Const::Int(i) => write!(f, "const {i}"),
            Const::Float(x) => write!(f, "const {}", float_text(*x)),
            Const::Bool(b) => write!(f, "const {b}"),
            Const::None => f.write_str("const none"),
            Const::Str(text) => {
                f.write_str("const ")?;
                write_str_literal(f, text)
            }
        },
        InstKind::Undef => f.write_str("undef"),
        InstKind::Unary(op, a) => write!(f, "{} {a}", op.name()),
        InstKind::Binary(op, a, b) => write!(f, "{} {a}, {b}", op.name()),
        InstKind::Compare(op, a, b) => write!(f, "{} {a}, {b}", op.name()),
        InstKind::Cast(s, a) => write!(f, "cast {} {a}", s.name()),
        InstKind::Select(c, a, b) => write!(f, "select {c}, {a}, {b}"),
        InstKind::Call(name, args) => {
            write!(f, "call @{name}(")?;
            write_list(f, args)?;
            f.write_str(")")
        }
        InstKind::ParallelFor(name, args) => {
            write!(f, "parallel_for @{name}(")?;
            write_list(f, args)?;
            f.write_str(")")
        }
        InstKind::Builtin(b, args) => {
            write!(f, "builtin {}(", b.name())?;
            write_list(f, args)?;
            f.write_str(")")
        }
        InstKind::Dim(a, k) => write!(f, "dim {a}, {k}"),
        InstKind::GetItem(a, idx) => {
            write!(f, "getitem {a}[")?;
            write_list(f, idx)?;
            f.write_str("]")
        }
        InstKind::SetItem(a, idx, v) => {
            write!(f, "setitem {a}[")?;
            write_list(f, idx)?;
            write!(f, "] = {v}")
        }
        InstKind::MakeTuple(vs) => {
            f.write_str("tuple (")?;
            write_list(f, vs)?;
            f.write_str(")")
        }
        InstKind::TupleGet(a, i) => write!(f, "tupleget {a}, {i}"),
        InstKind::AllocArray { space, dtype, shape, align } => {
            let sp = match space {
                AddressSpace::Shared => "shared",
                AddressSpace::Local => "local",
            };
            write!(f, "alloc {sp} {}[", dtype.name())?;
            for (i, d) in shape.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{d}")?;
            }
            f.write_str("]")?;
            if *align != 0 {
                write!(f, " align {align}")?;
            }
            Ok(())
        }
        InstKind::FuncRef(name) => write!(f, "funcref @{name}"),
        InstKind::ConstArray(c) => {
            write!(f, "constarray {} {}[", c.name, c.dtype.name())?;
            for (i, d) in c.shape.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{d}")?;
            }
            f.write_str("] (")?;
            for (i, p) in c.parts().iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                match p {
                    Const::Int(i) => write!(f, "{i}")?,
                    Const::Float(x) => f.write_str(&float_text(*x))?,
                    Const::Bool(b) => write!(f, "{b}")?,
                    Const::None | Const::Str(_) => f.write_str("none")?,
                }
            }
            f.write_str(")")
        }
        InstKind::Stride(a, k) => write!(f, "stride {a}, {k}"),
        InstKind::NewArray { dtype, shape, zeroed } => {
            write!(f, "newarray {}{}[", if *zeroed { "zeroed " } else { "" }, dtype.name())?;
            write_list(f, shape)?;
            f.write_str("]")
        }
        InstKind::View { base, offset, shape, strides } => {
            write!(f, "view {base}, {offset}, [")?;
            write_list(f, shape)?;
            f.write_str("], [")?;
            write_list(f, strides)?;
            f.write_str("]")
        }
        InstKind::NewList(n) => write!(f, "newlist {n}"),
        InstKind::ListLen(l) => write!(f, "listlen {l}"),
        InstKind::ListGet(l, i) => write!(f, "listget {l}[{i}]"),
        InstKind::ListSet(l, i, v) => write!(f, "listset {l}[{i}] = {v}"),
        InstKind::ListResize(l, n) => write!(f, "listresize {l}, {n}"),
        InstKind::IncRef(a) => write!(f, "incref {a}"),
        InstKind::DecRef(a) => write!(f, "decref {a}"),
        InstKind::CheckIndex(i, n, axis) => write!(f, "checkindex {i}, {n}, {axis}"),
        InstKind::CheckNonZero(a) => write!(f, "checknonzero {a}"),
        InstKind::Load(a, o) => write!(f, "load {a}[{o}]"),
        InstKind::Store(a, o, v) => write!(f, "store {a}[{o}] = {v}"),
    }
}

fn write_call(f: &mut fmt::Formatter<'_>, c: &BlockCall) -> fmt::Result {
    write!(f, "{}(", c.block)?;
    write_list(f, &c.args)?;
    f.write_str(")")
}

fn write_term(f: &mut fmt::Formatter<'_>, t: &Terminator) -> fmt::Result {
    match t {
        Terminator::Jump(c) => {
            f.write_str("jump ")?;
            write_call(f, c)
        }
        Terminator::Branch(c, a, b) => {
            write!(f, "br {c}, ")?;
            write_call(f, a)?;
            f.write_str(", ")?;
            write_call(f, b)
        }
        Terminator::Return(Some(v)) => write!(f, "return {v}"),
        Terminator::Return(None) => f.write_str("return"),
        Terminator::Raise(e) => write_raise(f, e),
        Terminator::Unreachable => f.write_str("unreachable"),
    }
}

/// `raise ValueError("bad", 1, 2.5, true, v3)`; `raise ValueError` without arguments.
fn write_raise(f: &mut fmt::Formatter<'_>, e: &crate::exception::Exception<Value>) -> fmt::Result {
    write!(f, "raise {}", e.class)?;
    if e.args.is_empty() {
        return Ok(());
    }
    write_exception_args(f, &e.args)
}

/// `(a, b, ...)`; a `Format` argument as `format(piece, ...)`.
fn write_exception_args(f: &mut fmt::Formatter<'_>, args: &[crate::exception::ExceptionArg<Value>]) -> fmt::Result {
    use crate::exception::ExceptionArg;
    f.write_char('(')?;
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        match a {
            ExceptionArg::Str(s) => write_str_literal(f, s)?,
            ExceptionArg::Int(i) => write!(f, "{i}")?,
            ExceptionArg::Float(x) => f.write_str(&float_text(*x))?,
            ExceptionArg::Bool(b) => write!(f, "{b}")?,
            ExceptionArg::Runtime(v) => write!(f, "{v}")?,
            ExceptionArg::Format(p) => {
                f.write_str("format")?;
                write_exception_args(f, p)?;
            }
        }
    }
    f.write_char(')')
}

/// A string in double quotes; `\\`, `\"`, `\n`, `\r`, `\t` and `\u{XX}` for other control
/// characters (what `parse.rs` reads back).
pub(crate) fn write_str_literal(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '\\' => f.write_str("\\\\")?,
            '"' => f.write_str("\\\"")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c.is_control() => write!(f, "\\u{{{:x}}}", c as u32)?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

#[cfg(test)]
mod repr_tests {
    use super::python_float_repr as r;

    #[test]
    fn floats_print_as_python_repr() {
        for (x, want) in [
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (0.1 + 0.2, "0.30000000000000004"),
            (123.456, "123.456"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (5e19, "5e+19"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-1.5e-10, "-1.5e-10"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(r(x), want, "{x:?}");
        }
    }
}
