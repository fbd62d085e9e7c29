//! The types of operations on run-time strings ([`Type::String`]): a string that is not known
//! when compiling (`str(n)`, `s[i]`, a variable holding different strings on different paths)
//! and what is computed of it. Operations on strings known when compiling
//! ([`Type::Str`]) stay constants (`fixpoint.rs`); an operation types here only when one of
//! its strings is a run-time one, or when a constant string meets a run-time number (`s[i]`,
//! `s.find(x, i)`, `str(n)`). The rewrite (`rewrite/strings.rs`) writes them with the list
//! primitives.

use crate::builtins::Builtin;
use crate::function::{BinaryOp, CmpOp, Const, Function, InstKind, UnaryOp, Value};
use crate::types::{Scalar, Type};
use crate::typing::is_string;

/// The methods of run-time strings: name and the number of arguments (least, most).
/// Arguments are checked by [`method_type`]. `str(x)` is the method `__str__` of `x`.
pub(crate) const RUNTIME_METHODS: &[(&str, usize, usize)] = &[
    ("find", 1, 3),
    ("rfind", 1, 3),
    ("index", 1, 3),
    ("rindex", 1, 3),
    ("count", 1, 3),
    ("startswith", 1, 3),
    ("endswith", 1, 3),
    ("center", 1, 2),
    ("ljust", 1, 2),
    ("rjust", 1, 2),
    ("zfill", 1, 1),
    ("join", 1, 1),
    ("strip", 0, 1),
    ("lstrip", 0, 1),
    ("rstrip", 0, 1),
    ("split", 0, 2),
    ("replace", 2, 3),
    ("isspace", 0, 0),
];

fn is_int(t: &Type) -> bool {
    t.scalar().is_some_and(|s| s.is_int() || s == Scalar::Bool)
}

/// The type of `kind` when it computes with a run-time string, or when a string known when
/// compiling meets a run-time number; `None` for everything else (constants fold elsewhere).
pub(crate) fn runtime_string_type(f: &Function, kind: &InstKind, types: &[Type]) -> Option<Result<Type, String>> {
    let t = |v: &Value| &types[v.index()];
    let rt = |v: &Value| matches!(t(v), Type::String);
    let s = |v: &Value| is_string(t(v));
    Some(Ok(match kind {
        InstKind::Binary(BinaryOp::Add, a, b) if s(a) && s(b) && (rt(a) || rt(b)) => Type::String,
        // `s * n` with a run-time count (a constant one repeats a constant string when compiling).
        InstKind::Binary(BinaryOp::Mul, a, b)
            if (s(a) && is_int(t(b)) || is_int(t(a)) && s(b))
                && (rt(a) || rt(b) || super::fixpoint::str_repeat(f, *a, *b, types).is_none()) =>
        {
            Type::String
        }
        InstKind::Builtin(Builtin::Len, a) if a.len() == 1 && rt(&a[0]) => Type::I64,
        // `for c in s:` iterates the characters (each `s[k]`, a string of one).
        InstKind::Builtin(Builtin::IterLen, a) if a.len() == 1 && s(&a[0]) => Type::I64,
        // `float("inf")`, `int("42")`: a constant string read as Python reads the number.
        InstKind::Cast(sc, a) if *sc != Scalar::Bool && s(a) => match t(a) {
            Type::Str(text) => match parse_number(text, *sc) {
                Some(_) => Type::Scalar(*sc),
                None => {
                    return Some(Err(format!(
                        "could not convert string to {}: {}",
                        if sc.is_float() { "float" } else { "int" },
                        crate::exception::str_repr(text)
                    )))
                }
            },
            _ => return Some(Err(format!("{}() of a string computed at run time is not supported", sc.name()))),
        },
        // A string is never equal to a number, a tuple or a list (Python's `==` between types).
        InstKind::Compare(CmpOp::Eq | CmpOp::Ne, a, b)
            if s(a) != s(b)
                && [t(a), t(b)]
                    .iter()
                    .all(|x| matches!(x, Type::Scalar(_) | Type::Tuple(_) | Type::List(_)) || is_string(x)) =>
        {
            Type::BOOL
        }
        InstKind::Compare(_, a, b) if s(a) && s(b) && (rt(a) || rt(b)) => Type::BOOL,
        InstKind::Builtin(Builtin::Contains, a) if a.len() == 2 && s(&a[0]) && s(&a[1]) && (rt(&a[0]) || rt(&a[1])) => {
            Type::BOOL
        }
        InstKind::Unary(UnaryOp::Not, a) | InstKind::Cast(Scalar::Bool, a) if rt(a) => Type::BOOL,
        // `s[i]`: a string of one character.
        InstKind::GetItem(a, idx) if s(a) => match &idx[..] {
            [i] if is_int(t(i)) => Type::String,
            [i] => return Some(Err(format!("string indices must be integers, found {}", t(i)))),
            _ => return Some(Err("a string takes one index".into())),
        },
        // `s[lo:hi:step]`
        InstKind::Builtin(Builtin::TupleSlice, a) if s(&a[0]) => {
            if let Some(bad) = a[1..].iter().find(|v| !matches!(t(v), Type::None) && !is_int(t(v))) {
                return Some(Err(format!("slice bounds must be integers, found {}", t(bad))));
            }
            Type::String
        }
        // `s.count(x)` / `s.index(x)`: the list methods of the same name, on a string.
        InstKind::Builtin(b @ (Builtin::ListCount | Builtin::ListIndex), a) if s(&a[0]) => {
            let name = if *b == Builtin::ListCount { "count" } else { "index" };
            let args: Vec<&Type> = a[1..].iter().map(t).collect();
            return method_type(name, t(&a[0]), &args);
        }
        InstKind::Builtin(Builtin::StrMethod, a) => {
            if super::fixpoint::str_method_of(a, types).is_ok() {
                return None;
            }
            let name = match a.get(1).map(t) {
                Some(Type::Str(n)) => n.as_str(),
                _ => return None,
            };
            return method_type(name, t(&a[0]), &a[2..].iter().map(t).collect::<Vec<_>>());
        }
        _ => return None,
    }))
}

/// The type of `recv.name(args)` computed at run time; `None` when this is not a run-time
/// string method (the constant path then reports its error).
fn method_type(name: &str, recv: &Type, args: &[&Type]) -> Option<Result<Type, String>> {
    if name == "__str__" {
        return Some(match recv {
            Type::String => Ok(Type::String),
            t if is_int(t) => Ok(Type::String),
            t => Err(format!(
                "str() of {t} is not supported: twinjit converts integers, booleans and strings to strings"
            )),
        });
    }
    if !is_string(recv) {
        return None;
    }
    let &(_, least, most) = RUNTIME_METHODS.iter().find(|(n, ..)| *n == name)?;
    if args.len() < least || args.len() > most {
        return Some(Err(if least == most {
            format!("str.{name}() takes {least} argument(s), found {}", args.len())
        } else {
            format!("str.{name}() takes {least} to {most} arguments, found {}", args.len())
        }));
    }
    let bound = |t: &Type| is_int(t) || *t == Type::None;
    let bad = |what: &str, t: &Type| Some(Err(format!("str.{name}(): {what} must be {}, found {t}", what_kind(what))));
    Some(Ok(match name {
        "find" | "rfind" | "index" | "rindex" | "count" | "startswith" | "endswith" => {
            let prefixes = matches!(name, "startswith" | "endswith")
                && matches!(args[0], Type::Tuple(ts) if ts.iter().all(is_string));
            if !is_string(args[0]) && !prefixes {
                return bad("the substring", args[0]);
            }
            if let Some(b) = args[1..].iter().find(|t| !bound(t)) {
                return bad("a bound", b);
            }
            if matches!(name, "startswith" | "endswith") {
                Type::BOOL
            } else {
                Type::I64
            }
        }
        "center" | "ljust" | "rjust" | "zfill" => {
            if !is_int(args[0]) {
                return bad("the width", args[0]);
            }
            if let Some(fill) = args.get(1).filter(|t| !is_string(t)) {
                return bad("the fill character", fill);
            }
            Type::String
        }
        "join" => {
            let ok = match args[0] {
                Type::List(e) => is_string(e),
                Type::Tuple(ts) => ts.iter().all(is_string),
                t => is_string(t),
            };
            if !ok {
                return bad("the argument", args[0]);
            }
            Type::String
        }
        "strip" | "lstrip" | "rstrip" => {
            if let Some(c) = args.first().filter(|t| !is_string(t) && **t != &Type::None) {
                return bad("the characters", c);
            }
            Type::String
        }
        "split" => {
            if let Some(c) = args.first().filter(|t| !is_string(t) && **t != &Type::None) {
                return bad("the separator", c);
            }
            if let Some(m) = args.get(1).filter(|t| !is_int(t)) {
                return bad("maxsplit", m);
            }
            Type::List(Box::new(Type::String))
        }
        "replace" => {
            if let Some(c) = args[..2].iter().find(|t| !is_string(t)) {
                return bad("the old and new strings", c);
            }
            if let Some(m) = args.get(2).filter(|t| !is_int(t)) {
                return bad("the count", m);
            }
            Type::String
        }
        "isspace" => Type::BOOL,
        _ => unreachable!("the methods of RUNTIME_METHODS"),
    }))
}

fn what_kind(what: &str) -> &'static str {
    match what {
        "the substring" | "the fill character" | "the characters" | "the separator" | "the old and new strings" => {
            "a string"
        }
        "the argument" => "a string, or a list or tuple of strings",
        _ => "an integer",
    }
}

/// The number a constant string spells, as Python's `float()` / `int()` read it (surrounding
/// whitespace and `_` between digits allowed; `inf`, `nan` for floats).
pub(crate) fn parse_number(text: &str, s: Scalar) -> Option<Const> {
    let t = text.trim();
    let bytes = t.as_bytes();
    // An underscore only between two digits.
    for (k, &c) in bytes.iter().enumerate() {
        if c == b'_'
            && !(k > 0 && k + 1 < bytes.len() && bytes[k - 1].is_ascii_digit() && bytes[k + 1].is_ascii_digit())
        {
            return None;
        }
    }
    let t = t.replace('_', "");
    if s.is_float() {
        // Rust also reads "infinity" and "nan" in any case, as Python does; it refuses "1e", "."
        // and friends, as Python does.
        t.parse::<f64>().ok().map(Const::Float)
    } else if s.is_int() {
        t.parse::<i64>().ok().map(Const::Int)
    } else {
        None
    }
}
