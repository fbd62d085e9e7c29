//! Reads the text form printed by `Display for Function` back into a [`Function`].
//!
//! Value numbers are kept as written (so `print(parse(text)) == text` for printed IR);
//! instruction numbers are assigned in text order. Spans (`@start..end`) are optional; without
//! them instructions get [`Span::DUMMY`].

use crate::builtins::Builtin;
use crate::exception::{Exception, ExceptionArg};
use crate::function::*;
use crate::types::{ArrayType, Layout, Scalar, Type};
use twinjit_diag::{FileId, Span};

/// A text-form parse error: line (from 1) and message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("IR text line {line}: {message}")]
pub struct IrParseError {
    /// 1-based line.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

/// Parses every function in `text`.
pub fn parse_functions(text: &str, file: FileId) -> Result<Vec<Function>, IrParseError> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim();
        if l.is_empty() || l.starts_with(';') {
            i += 1;
            continue;
        }
        let (f, next) = parse_one(&lines, i, file)?;
        out.push(f);
        i = next;
    }
    Ok(out)
}

/// Parses exactly one function.
pub fn parse_function(text: &str) -> Result<Function, IrParseError> {
    let mut fs = parse_functions(text, FileId(0))?;
    if fs.len() != 1 {
        return Err(IrParseError { line: 1, message: format!("expected one function, found {}", fs.len()) });
    }
    Ok(fs.remove(0))
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Float(f64),
    Punct(char),
    Str(String),
    Arrow,
    DotDot,
}

fn tokenize(line: &str) -> Result<Vec<Tok>, String> {
    let cs: Vec<char> = line.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && cs.get(i + 1) == Some(&'>') {
            out.push(Tok::Arrow);
            i += 2;
        } else if c == '.' && cs.get(i + 1) == Some(&'.') {
            out.push(Tok::DotDot);
            i += 2;
        } else if c.is_ascii_digit() || (c == '-' && cs.get(i + 1).is_some_and(|d| d.is_ascii_digit() || *d == 'i')) {
            let start = i;
            i += 1;
            while i < cs.len()
                && (cs[i].is_ascii_alphanumeric()
                    || (cs[i] == '.' && cs.get(i + 1) != Some(&'.'))
                    || ((cs[i] == '-' || cs[i] == '+') && matches!(cs[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            let s: String = cs[start..i].iter().collect();
            if s == "-inf" {
                out.push(Tok::Float(f64::NEG_INFINITY));
            } else if let Ok(v) = s.parse::<i64>() {
                out.push(Tok::Int(v));
            } else if let Ok(v) = s.parse::<f64>() {
                out.push(Tok::Float(v));
            } else {
                return Err(format!("bad number `{s}`"));
            }
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || matches!(cs[i], '_' | '$' | '.')) {
                i += 1;
            }
            out.push(Tok::Ident(cs[start..i].iter().collect()));
        } else if c == '"' {
            // A string literal as `print.rs` writes it.
            i += 1;
            let mut text = String::new();
            loop {
                match cs.get(i) {
                    None => return Err("unterminated string".into()),
                    Some('"') => break,
                    Some('\\') => {
                        i += 1;
                        match cs.get(i) {
                            Some('n') => text.push('\n'),
                            Some('r') => text.push('\r'),
                            Some('t') => text.push('\t'),
                            Some('\\') => text.push('\\'),
                            Some('"') => text.push('"'),
                            Some('u') if cs.get(i + 1) == Some(&'{') => {
                                let close = (i + 2..cs.len()).find(|&k| cs[k] == '}').ok_or("bad `\\u{..}` escape")?;
                                let hex: String = cs[i + 2..close].iter().collect();
                                let ch = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                                text.push(ch.ok_or_else(|| format!("bad escape `\\u{{{hex}}}`"))?);
                                i = close;
                            }
                            other => return Err(format!("bad escape `\\{}`", other.copied().unwrap_or(' '))),
                        }
                    }
                    Some(&ch) => text.push(ch),
                }
                i += 1;
            }
            i += 1;
            out.push(Tok::Str(text));
        } else if "()[]{},:=@".contains(c) {
            out.push(Tok::Punct(c));
            i += 1;
        } else {
            return Err(format!("unexpected character `{c}`"));
        }
    }
    Ok(out)
}

struct Line<'a> {
    toks: Vec<Tok>,
    pos: usize,
    line: usize,
    _src: &'a str,
}

impl Line<'_> {
    fn err<T>(&self, m: impl Into<String>) -> Result<T, IrParseError> {
        Err(IrParseError { line: self.line, message: m.into() })
    }
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }
    fn punct(&mut self, c: char) -> Result<(), IrParseError> {
        match self.next() {
            Some(Tok::Punct(p)) if p == c => Ok(()),
            other => self.err(format!("expected `{c}`, found {other:?}")),
        }
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    fn ident(&mut self) -> Result<String, IrParseError> {
        match self.next() {
            Some(Tok::Ident(s)) => Ok(s),
            other => self.err(format!("expected a name, found {other:?}")),
        }
    }
    /// Integers separated by commas up to `close` (consumed); at least one.
    fn ints_until(&mut self, close: char) -> Result<Vec<i64>, IrParseError> {
        let mut out = Vec::new();
        loop {
            out.push(self.int()?);
            if self.is_punct(close) {
                self.pos += 1;
                return Ok(out);
            }
            self.punct(',')?;
        }
    }

    fn int(&mut self) -> Result<i64, IrParseError> {
        match self.next() {
            Some(Tok::Int(i)) => Ok(i),
            other => self.err(format!("expected an integer, found {other:?}")),
        }
    }
    /// An integer that must fit `T` (an axis, a tuple index); `what` names it in the error.
    fn small_int<T: TryFrom<i64>>(&mut self, what: &str) -> Result<T, IrParseError> {
        let k = self.int()?;
        T::try_from(k).or_else(|_| self.err(format!("bad {what}")))
    }
    fn entity(&mut self, prefix: &str) -> Result<u32, IrParseError> {
        let s = self.ident()?;
        match s.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok()) {
            Some(n) => Ok(n),
            None => self.err(format!("expected `{prefix}N`, found `{s}`")),
        }
    }
    fn value(&mut self) -> Result<Value, IrParseError> {
        self.entity("v").map(Value)
    }
    fn values_until(&mut self, close: char) -> Result<Vec<Value>, IrParseError> {
        let mut vs = Vec::new();
        if self.is_punct(close) {
            self.pos += 1;
            return Ok(vs);
        }
        loop {
            vs.push(self.value()?);
            if self.is_punct(close) {
                self.pos += 1;
                return Ok(vs);
            }
            self.punct(',')?;
        }
    }
    fn ty(&mut self) -> Result<Type, IrParseError> {
        if self.is_punct('(') {
            self.pos += 1;
            let mut ts = Vec::new();
            loop {
                if self.is_punct(')') {
                    self.pos += 1;
                    return Ok(Type::Tuple(ts));
                }
                ts.push(self.ty()?);
                if self.is_punct(',') {
                    self.pos += 1;
                }
            }
        }
        let name = match self.next() {
            Some(Tok::Ident(s)) => s,
            other => return self.err(format!("expected a type, found {other:?}")),
        };
        match name.as_str() {
            "none" => Ok(Type::None),
            "list" => {
                self.punct('(')?;
                let e = self.ty()?;
                self.punct(')')?;
                Ok(Type::List(Box::new(e)))
            }
            "optional" => {
                self.punct('(')?;
                let e = self.ty()?;
                self.punct(')')?;
                Ok(Type::Optional(Box::new(e)))
            }
            "function" => {
                self.punct('(')?;
                let name = self.ident()?;
                self.punct(')')?;
                Ok(Type::Function(name))
            }
            // `str` alone is a run-time string; `str("text")` one known when compiling.
            "str" if !self.is_punct('(') => Ok(Type::String),
            "str" => {
                self.punct('(')?;
                let text = match self.next() {
                    Some(Tok::Str(text)) => text,
                    other => return self.err(format!("expected a string, found {other:?}")),
                };
                self.punct(')')?;
                Ok(Type::Str(text))
            }
            "array" => {
                self.punct('(')?;
                let d = self.ident()?;
                let Some(dtype) = Scalar::parse(&d) else { return self.err(format!("bad dtype `{d}`")) };
                self.punct(',')?;
                let ndim = self.int()?;
                self.punct(',')?;
                let layout = match self.ident()?.as_str() {
                    "C" => Layout::C,
                    "A" => Layout::A,
                    l => return self.err(format!("bad layout `{l}`")),
                };
                self.punct(')')?;
                if let Err(why) = crate::types::check_ndim(ndim as usize) {
                    return self.err(why);
                }
                Ok(Type::Array(ArrayType { dtype, ndim: ndim as u8, layout }))
            }
            s => match Scalar::parse(s) {
                Some(sc) => Ok(Type::Scalar(sc)),
                None => self.err(format!("unknown type `{s}`")),
            },
        }
    }
    /// `?` is not a token; an unknown type is written by leaving `: ty` out.
    fn opt_ty(&mut self) -> Result<Type, IrParseError> {
        if self.is_punct(':') {
            self.pos += 1;
            self.ty()
        } else {
            Ok(Type::Unknown)
        }
    }
    fn span(&mut self, file: FileId) -> Result<Span, IrParseError> {
        if self.is_punct('@') {
            self.pos += 1;
            let s = self.int()?;
            match self.next() {
                Some(Tok::DotDot) => {}
                other => return self.err(format!("expected `..`, found {other:?}")),
            }
            let e = self.int()?;
            Ok(Span::new(file, s as u32, e as u32))
        } else {
            Ok(Span::DUMMY)
        }
    }
    fn end(&self) -> Result<(), IrParseError> {
        if self.pos < self.toks.len() {
            return self.err(format!("unexpected {:?}", self.toks[self.pos]));
        }
        Ok(())
    }
    /// `ValueError` or `ValueError(arg, ...)` with string, number, bool and value arguments.
    fn exception(&mut self) -> Result<Exception<Value>, IrParseError> {
        let class = self.ident()?;
        let args = if self.is_punct('(') { self.exception_args(true)? } else { Vec::new() };
        Ok(Exception { class, args })
    }
    /// `(arg, ...)` of an exception; `format(piece, ...)` among them when `top`.
    fn exception_args(&mut self, top: bool) -> Result<Vec<ExceptionArg<Value>>, IrParseError> {
        self.punct('(')?;
        let mut args = Vec::new();
        while !self.is_punct(')') {
            if !args.is_empty() {
                self.punct(',')?;
            }
            args.push(match self.next() {
                Some(Tok::Str(s)) => ExceptionArg::Str(s),
                Some(Tok::Int(i)) => ExceptionArg::Int(i),
                Some(Tok::Float(x)) => ExceptionArg::Float(x),
                Some(Tok::Ident(s)) => match s.as_str() {
                    "true" => ExceptionArg::Bool(true),
                    "false" => ExceptionArg::Bool(false),
                    "nan" => ExceptionArg::Float(f64::NAN),
                    "inf" => ExceptionArg::Float(f64::INFINITY),
                    "format" if top => ExceptionArg::Format(self.exception_args(false)?),
                    _ => {
                        self.pos -= 1;
                        ExceptionArg::Runtime(self.value()?)
                    }
                },
                other => return self.err(format!("expected an exception argument, found {other:?}")),
            });
        }
        self.pos += 1;
        Ok(args)
    }
    fn block_call(&mut self) -> Result<BlockCall, IrParseError> {
        let b = self.entity("block")?;
        self.punct('(')?;
        let args = self.values_until(')')?;
        Ok(BlockCall { block: Block(b), args })
    }
}

struct Builder {
    f: Function,
    defined: Vec<bool>,
}

impl Builder {
    fn define(&mut self, v: Value, data: ValueData, line: usize) -> Result<(), IrParseError> {
        let i = v.index();
        if i > 1_000_000 {
            return Err(IrParseError { line, message: "value number too large".into() });
        }
        while self.f.values.len() <= i {
            self.f.values.push(ValueData { ty: Type::Unknown, def: ValueDef::Param(Block(u32::MAX), u32::MAX) });
            self.defined.push(false);
        }
        if self.defined[i] {
            return Err(IrParseError { line, message: format!("{v} defined twice") });
        }
        self.defined[i] = true;
        self.f.values[i] = data;
        Ok(())
    }
    fn block(&mut self, b: u32, line: usize) -> Result<Block, IrParseError> {
        if b > 1_000_000 {
            return Err(IrParseError { line, message: "block number too large".into() });
        }
        while self.f.blocks.len() <= b as usize {
            self.f.add_block();
        }
        Ok(Block(b))
    }
}

fn ret_type(l: &mut Line) -> Result<Type, IrParseError> {
    if let Some(Tok::Ident(s)) = l.peek() {
        if s == "?" {
            l.pos += 1;
            return Ok(Type::Unknown);
        }
    }
    l.ty()
}

fn parse_one(lines: &[&str], start: usize, file: FileId) -> Result<(Function, usize), IrParseError> {
    let mk = |i: usize| -> Result<Line, IrParseError> {
        let src = lines[i].replace("-> ?", "-> unknown_");
        let toks = tokenize(&src).map_err(|m| IrParseError { line: i + 1, message: m })?;
        Ok(Line { toks, pos: 0, line: i + 1, _src: lines[i] })
    };
    let mut l = mk(start)?;
    if l.ident()? != "function" {
        return l.err("expected `function`");
    }
    l.punct('@')?;
    let name = l.ident()?;
    l.punct('(')?;
    let mut param_names = Vec::new();
    if !l.is_punct(')') {
        loop {
            param_names.push(l.ident()?);
            if l.is_punct(')') {
                break;
            }
            l.punct(',')?;
        }
    }
    l.punct(')')?;
    match l.next() {
        Some(Tok::Arrow) => {}
        other => return l.err(format!("expected `->`, found {other:?}")),
    }
    let ret = if l.peek() == Some(&Tok::Ident("unknown_".into())) {
        l.pos += 1;
        Type::Unknown
    } else {
        ret_type(&mut l)?
    };
    l.punct('{')?;
    l.end()?;
    let mut b = Builder { f: Function::new(name, Span::DUMMY), defined: Vec::new() };
    b.f.param_names = param_names;
    b.f.ret = ret;
    let mut cur: Option<Block> = None;
    let mut i = start + 1;
    while i < lines.len() {
        let text = lines[i].trim();
        if text.is_empty() || text.starts_with(';') {
            i += 1;
            continue;
        }
        if text == "}" {
            return Ok((b.f, i + 1));
        }
        let mut l = mk(i)?;
        let line = i + 1;
        if text.starts_with("block") && text.ends_with(':') {
            let n = l.entity("block")?;
            let blk = b.block(n, line)?;
            l.punct('(')?;
            let mut idx = 0;
            if !l.is_punct(')') {
                loop {
                    let v = l.value()?;
                    let ty = l.opt_ty()?;
                    b.define(v, ValueData { ty, def: ValueDef::Param(blk, idx) }, line)?;
                    b.f.blocks[blk.index()].params.push(v);
                    idx += 1;
                    if l.is_punct(')') {
                        break;
                    }
                    l.punct(',')?;
                }
            }
            l.punct(')')?;
            if matches!(l.peek(), Some(Tok::Ident(s)) if s == "unwind") {
                l.pos += 1;
                let u = l.block_call()?;
                b.block(u.block.0, line)?;
                b.f.blocks[blk.index()].unwind = Some(u);
            }
            l.punct(':')?;
            l.end()?;
            cur = Some(blk);
            i += 1;
            continue;
        }
        let Some(blk) = cur else { return l.err("instruction outside a block") };
        // Terminators.
        if let Some(Tok::Ident(op)) = l.peek().cloned() {
            let term = match op.as_str() {
                "jump" => {
                    l.pos += 1;
                    Some(Terminator::Jump(l.block_call()?))
                }
                "br" => {
                    l.pos += 1;
                    let c = l.value()?;
                    l.punct(',')?;
                    let a = l.block_call()?;
                    l.punct(',')?;
                    let e = l.block_call()?;
                    Some(Terminator::Branch(c, a, e))
                }
                "return" => {
                    l.pos += 1;
                    if matches!(l.peek(), Some(Tok::Ident(s)) if s.starts_with('v')) {
                        Some(Terminator::Return(Some(l.value()?)))
                    } else {
                        Some(Terminator::Return(None))
                    }
                }
                "unreachable" => {
                    l.pos += 1;
                    Some(Terminator::Unreachable)
                }
                "raise" => {
                    l.pos += 1;
                    Some(Terminator::Raise(Box::new(l.exception()?)))
                }
                _ => None,
            };
            if let Some(t) = term {
                for c in t.targets() {
                    b.block(c.block.0, line)?;
                }
                let span = l.span(file)?;
                l.end()?;
                b.f.terminate(blk, t, span);
                i += 1;
                continue;
            }
        }
        // `vN[: ty] = op ...` or `op ...`
        let mut result = None;
        if matches!(l.toks.get(1), Some(Tok::Punct(':')) | Some(Tok::Punct('='))) {
            let v = l.value()?;
            let ty = l.opt_ty()?;
            l.punct('=')?;
            result = Some((v, ty));
        }
        let kind = parse_kind(&mut l, &mut b, line)?;
        let span = l.span(file)?;
        l.end()?;
        let inst = Inst(b.f.insts.len() as u32);
        b.f.insts.push(InstData { kind, result: result.as_ref().map(|r| r.0), span });
        if let Some((v, ty)) = result {
            b.define(v, ValueData { ty, def: ValueDef::Inst(inst) }, line)?;
        }
        b.f.blocks[blk.index()].insts.push(inst);
        i += 1;
    }
    Err(IrParseError { line: lines.len(), message: "missing `}`".into() })
}

fn parse_kind(l: &mut Line, b: &mut Builder, line: usize) -> Result<InstKind, IrParseError> {
    let _ = (b, line);
    let op = l.ident()?;
    if let Some(u) = UnaryOp::ALL.iter().find(|u| u.name() == op) {
        return Ok(InstKind::Unary(*u, l.value()?));
    }
    if let Some(bo) = BinaryOp::ALL.iter().find(|u| u.name() == op) {
        let a = l.value()?;
        l.punct(',')?;
        return Ok(InstKind::Binary(*bo, a, l.value()?));
    }
    if let Some(c) = CmpOp::ALL.iter().find(|u| u.name() == op) {
        let a = l.value()?;
        l.punct(',')?;
        return Ok(InstKind::Compare(*c, a, l.value()?));
    }
    Ok(match op.as_str() {
        "const" => match l.next() {
            Some(Tok::Int(i)) => InstKind::Const(Const::Int(i)),
            Some(Tok::Float(x)) => InstKind::Const(Const::Float(x)),
            Some(Tok::Str(text)) => InstKind::Const(Const::Str(crate::intern(&text))),
            Some(Tok::Ident(s)) => match s.as_str() {
                "true" => InstKind::Const(Const::Bool(true)),
                "false" => InstKind::Const(Const::Bool(false)),
                "none" => InstKind::Const(Const::None),
                "nan" => InstKind::Const(Const::Float(f64::NAN)),
                "inf" => InstKind::Const(Const::Float(f64::INFINITY)),
                _ => return l.err(format!("bad constant `{s}`")),
            },
            other => return l.err(format!("bad constant {other:?}")),
        },
        "undef" => InstKind::Undef,
        "cast" => {
            let s = l.ident()?;
            let Some(sc) = Scalar::parse(&s) else { return l.err(format!("bad cast type `{s}`")) };
            InstKind::Cast(sc, l.value()?)
        }
        "select" => {
            let c = l.value()?;
            l.punct(',')?;
            let a = l.value()?;
            l.punct(',')?;
            InstKind::Select(c, a, l.value()?)
        }
        "call" => {
            l.punct('@')?;
            let name = l.ident()?;
            l.punct('(')?;
            InstKind::Call(name, l.values_until(')')?)
        }
        "parallel_for" => {
            l.punct('@')?;
            let name = l.ident()?;
            l.punct('(')?;
            InstKind::ParallelFor(name, l.values_until(')')?)
        }
        "builtin" => {
            let name = l.ident()?;
            let Some(bi) = Builtin::from_name(&name) else { return l.err(format!("unknown builtin `{name}`")) };
            l.punct('(')?;
            InstKind::Builtin(bi, l.values_until(')')?)
        }
        "dim" => {
            let a = l.value()?;
            l.punct(',')?;
            InstKind::Dim(a, l.int()?)
        }
        "stride" => {
            let a = l.value()?;
            l.punct(',')?;
            InstKind::Stride(a, l.small_int("axis")?)
        }
        "getitem" => {
            let a = l.value()?;
            l.punct('[')?;
            InstKind::GetItem(a, l.values_until(']')?)
        }
        "setitem" => {
            let a = l.value()?;
            l.punct('[')?;
            let idx = l.values_until(']')?;
            l.punct('=')?;
            InstKind::SetItem(a, idx, l.value()?)
        }
        "tuple" => {
            l.punct('(')?;
            InstKind::MakeTuple(l.values_until(')')?)
        }
        "tupleget" => {
            let a = l.value()?;
            l.punct(',')?;
            InstKind::TupleGet(a, l.small_int("tuple index")?)
        }
        "alloc" => {
            let space = match l.ident()?.as_str() {
                "shared" => AddressSpace::Shared,
                "local" => AddressSpace::Local,
                s => return l.err(format!("bad address space `{s}`")),
            };
            let d = l.ident()?;
            let Some(dtype) = Scalar::parse(&d) else { return l.err(format!("bad dtype `{d}`")) };
            l.punct('[')?;
            let shape = l.ints_until(']')?;
            let align = if l.peek() == Some(&Tok::Ident("align".into())) {
                l.next();
                l.small_int("alignment")?
            } else {
                0
            };
            InstKind::AllocArray { space, dtype, shape, align }
        }
        "funcref" => {
            l.punct('@')?;
            InstKind::FuncRef(l.ident()?)
        }
        "constarray" => {
            let name = l.ident()?;
            let d = l.ident()?;
            let Some(dtype) = Scalar::parse(&d) else { return l.err(format!("bad dtype `{d}`")) };
            l.punct('[')?;
            let shape = l.ints_until(']')?;
            l.punct('(')?;
            let mut parts = Vec::new();
            while !l.is_punct(')') {
                parts.push(match l.next() {
                    Some(Tok::Int(i)) => Const::Int(i),
                    Some(Tok::Float(x)) => Const::Float(x),
                    Some(Tok::Ident(s)) if s == "true" || s == "false" => Const::Bool(s == "true"),
                    Some(Tok::Ident(s)) if s == "nan" => Const::Float(f64::NAN),
                    Some(Tok::Ident(s)) if s == "inf" => Const::Float(f64::INFINITY),
                    other => return l.err(format!("bad array element {other:?}")),
                });
                if !l.is_punct(')') {
                    l.punct(',')?;
                }
            }
            l.pos += 1;
            let c = ConstArray::from_parts(&name, dtype, shape, &parts);
            if c.data.len() != c.len() * dtype.size() {
                return l.err(format!("constarray {name}: {} components for its shape", parts.len()));
            }
            InstKind::ConstArray(std::sync::Arc::new(c))
        }
        "checkindex" => {
            let i = l.value()?;
            l.punct(',')?;
            let n = l.value()?;
            l.punct(',')?;
            InstKind::CheckIndex(i, n, l.small_int("axis")?)
        }
        "checknonzero" => InstKind::CheckNonZero(l.value()?),
        "newarray" => {
            let mut d = l.ident()?;
            let zeroed = d == "zeroed";
            if zeroed {
                d = l.ident()?;
            }
            let Some(dtype) = Scalar::parse(&d) else { return l.err(format!("bad dtype `{d}`")) };
            l.punct('[')?;
            InstKind::NewArray { dtype, shape: l.values_until(']')?, zeroed }
        }
        "view" => {
            let base = l.value()?;
            l.punct(',')?;
            let offset = l.value()?;
            l.punct(',')?;
            l.punct('[')?;
            let shape = l.values_until(']')?;
            l.punct(',')?;
            l.punct('[')?;
            InstKind::View { base, offset, shape, strides: l.values_until(']')? }
        }
        "newlist" => InstKind::NewList(l.value()?),
        "listlen" => InstKind::ListLen(l.value()?),
        "listget" => {
            let a = l.value()?;
            l.punct('[')?;
            let i = l.value()?;
            l.punct(']')?;
            InstKind::ListGet(a, i)
        }
        "listset" => {
            let a = l.value()?;
            l.punct('[')?;
            let i = l.value()?;
            l.punct(']')?;
            l.punct('=')?;
            InstKind::ListSet(a, i, l.value()?)
        }
        "listresize" => {
            let a = l.value()?;
            l.punct(',')?;
            InstKind::ListResize(a, l.value()?)
        }
        "incref" => InstKind::IncRef(l.value()?),
        "decref" => InstKind::DecRef(l.value()?),
        "load" => {
            let a = l.value()?;
            l.punct('[')?;
            let o = l.value()?;
            l.punct(']')?;
            InstKind::Load(a, o)
        }
        "store" => {
            let a = l.value()?;
            l.punct('[')?;
            let o = l.value()?;
            l.punct(']')?;
            l.punct('=')?;
            InstKind::Store(a, o, l.value()?)
        }
        other => return l.err(format!("unknown instruction `{other}`")),
    })
}

#[cfg(test)]
mod tests {
    use super::parse_function;

    #[test]
    fn raise_terminators_round_trip_with_escapes() {
        let text = "function @f(x) -> none {\nblock0(v0: int64):\n    \
                    raise ValueError(\"say \\\"hi\\\"\\n\\\\ \\u{1b}\", -1, 2.5, true, nan, v0)\n}\n";
        let f = parse_function(text).expect("parses");
        assert_eq!(format!("{f}"), text);
        let crate::Terminator::Raise(e) = &f.blocks[0].term else { panic!("not a raise") };
        assert_eq!(e.args[0], crate::ExceptionArg::Str("say \"hi\"\n\\ \u{1b}".into()));
        let bare = "function @g() -> none {\nblock0():\n    raise AssertionError\n}\n";
        assert_eq!(format!("{}", parse_function(bare).expect("parses")), bare);
    }

    /// A message with run-time values (`format(...)`) reads back, renders as Python joins
    /// `str()`s, and its values count among the runtime arguments in order.
    #[test]
    fn format_arguments_round_trip_and_render() {
        let text = "function @f(a, b) -> none {\nblock0(v0: int64, v1: int64):\n    \
                    raise ValueError(format(\"cannot assign slice of shape (\", v0, \",) from input of shape (\", v1, \",)\"))\n}\n";
        let f = parse_function(text).expect("parses");
        assert_eq!(format!("{f}"), text);
        let crate::Terminator::Raise(e) = &f.blocks[0].term else { panic!("not a raise") };
        assert_eq!(e.runtime().count(), 2);
        let mut k = 0;
        let m = e.message(|_| {
            k += 1;
            crate::exception::PyScalar::Int(k + 1)
        });
        assert_eq!(m, "cannot assign slice of shape (2,) from input of shape (3,)");
        let site = e.map(|_| crate::Scalar::Int64);
        assert_eq!(crate::exception::Exception::decode(&site.encode()), Some(site));
        assert!(parse_function(&text.replace("format(\"", "format(format(\"")).is_err(), "no nesting");
    }
}
