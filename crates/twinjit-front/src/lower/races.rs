//! Race diagnostics for parallel `prange` loops (Numba compiles these silently and gives wrong
//! answers): a write to an array element that two iterations may both write.
//!
//! A write `a[idx] = v` (or `a[idx] op= v`) in the body of a parallel `prange` loop over `i` is
//! accepted when one of its indices is an injective function of `i` (`i`, `i + k`, `k - i`,
//! `2 * i`, `i * m + j`, or a name assigned once from such an expression), so distinct
//! iterations touch distinct elements along that axis; when `a` is an array the iteration made
//! itself (assigned in the body from anything but a subscript); or when `a` is a view taken in
//! the body (`row = out[i]`), whose own indices count as the write's leading indices. Anything
//! else (`y[0] += x[i]`, `y[i % 4] += ...`, `hist[bin] += 1`) is a located error. A line that
//! races on purpose says so with the comment `# twinjit: allow-race`.
//!
//! The analysis is syntactic and deliberately simple: it presumes an affine index with a
//! loop-invariant coefficient is injective (it cannot know that `j < m` in `i * m + j`), and it
//! checks writes only (a read of an element another iteration writes is not reported).
//! Scalars carried between iterations are checked on the typed IR by the `parallel` pass.

use super::*;
use ruff_python_ast::visitor::{walk_expr, Visitor};
use ruff_python_ast::Operator;

/// The pragma that accepts a racy write on its line.
pub(crate) const ALLOW_RACE: &str = "twinjit: allow-race";

struct Names<'n>(&'n mut Vec<String>);

impl<'a> Visitor<'a> for Names<'_> {
    fn visit_expr(&mut self, e: &'a Expr) {
        if let Expr::Name(n) = e {
            self.0.push(n.id.to_string());
        }
        walk_expr(self, e);
    }
}

fn names_in(e: &Expr) -> Vec<String> {
    let mut out = Vec::new();
    Names(&mut out).visit_expr(e);
    out
}

/// What the body assigns to each name.
#[derive(Default)]
struct Assigned<'e> {
    /// Each name's right-hand sides (`None` where the value is not one expression: a tuple
    /// unpacking's element, an inner loop's target over its iterable).
    rhs: HashMap<String, Vec<Option<&'e Expr>>>,
    /// Names whose value comes from an expression mentioning these names (for dependence).
    sources: HashMap<String, Vec<&'e Expr>>,
    /// Subscript writes: (target, whether the statement is an augmented assignment).
    writes: Vec<&'e ast::ExprSubscript>,
}

impl<'e> Assigned<'e> {
    fn target(&mut self, t: &'e Expr, value: Option<&'e Expr>, whole: bool) {
        match t {
            Expr::Name(n) => {
                let rhs = if whole { value } else { None };
                self.rhs.entry(n.id.to_string()).or_default().push(rhs);
                if let Some(v) = value {
                    self.sources.entry(n.id.to_string()).or_default().push(v);
                }
            }
            Expr::Tuple(tu) => tu.elts.iter().for_each(|x| self.target(x, value, false)),
            Expr::List(l) => l.elts.iter().for_each(|x| self.target(x, value, false)),
            Expr::Starred(s) => self.target(&s.value, value, false),
            Expr::Subscript(s) => self.writes.push(s),
            _ => {}
        }
    }

    fn stmts(&mut self, body: &'e [Stmt]) {
        for s in body {
            match s {
                Stmt::Assign(a) => a.targets.iter().for_each(|t| self.target(t, Some(&a.value), true)),
                Stmt::AugAssign(a) => {
                    // `x += e` depends on `e` (and on `x`); as a value it is not one expression.
                    if let Expr::Name(n) = &*a.target {
                        self.rhs.entry(n.id.to_string()).or_default().push(None);
                        self.sources.entry(n.id.to_string()).or_default().push(&a.value);
                    } else {
                        self.target(&a.target, Some(&a.value), false);
                    }
                }
                Stmt::AnnAssign(a) => self.target(&a.target, a.value.as_deref(), true),
                Stmt::For(f) => {
                    self.target(&f.target, Some(&f.iter), false);
                    self.stmts(&f.body);
                    self.stmts(&f.orelse);
                }
                Stmt::While(w) => {
                    self.stmts(&w.body);
                    self.stmts(&w.orelse);
                }
                Stmt::If(i) => {
                    self.stmts(&i.body);
                    for c in &i.elif_else_clauses {
                        self.stmts(&c.body);
                    }
                }
                Stmt::With(w) => self.stmts(&w.body),
                _ => {}
            }
        }
    }
}

struct Checker<'e> {
    var: String,
    assigned: Assigned<'e>,
    /// Names whose value depends on the loop variable.
    dep: HashSet<String>,
}

impl<'e> Checker<'e> {
    fn new(var: &str, body: &'e [Stmt]) -> Self {
        let mut assigned = Assigned::default();
        assigned.stmts(body);
        let mut dep: HashSet<String> = HashSet::from([var.to_string()]);
        loop {
            let mut changed = false;
            for (n, srcs) in &assigned.sources {
                if !dep.contains(n) && srcs.iter().any(|e| names_in(e).iter().any(|m| dep.contains(m))) {
                    dep.insert(n.clone());
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Checker { var: var.to_string(), assigned, dep }
    }

    fn depends(&self, e: &Expr) -> bool {
        names_in(e).iter().any(|n| self.dep.contains(n))
    }

    /// The one expression a name is assigned in the body, if it is assigned exactly once.
    fn single(&self, n: &str) -> Option<&'e Expr> {
        match self.assigned.rhs.get(n).map(|v| v.as_slice()) {
            Some([Some(e)]) => Some(e),
            _ => None,
        }
    }

    /// Whether distinct iterations give distinct values of `e`.
    fn injective(&self, e: &Expr, depth: usize) -> bool {
        if depth > 16 {
            return false;
        }
        match e {
            Expr::Name(n) if n.id.as_str() == self.var => !self.assigned.rhs.contains_key(&self.var),
            Expr::Name(n) => self.single(n.id.as_str()).is_some_and(|v| self.injective(v, depth + 1)),
            Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::USub | ast::UnaryOp::UAdd) => {
                self.injective(&u.operand, depth + 1)
            }
            Expr::BinOp(b) => {
                let (l, r) = (&*b.left, &*b.right);
                match b.op {
                    Operator::Add | Operator::Sub => {
                        (self.injective(l, depth + 1) && !self.depends(r))
                            || (self.injective(r, depth + 1) && !self.depends(l))
                    }
                    Operator::Mult => {
                        let nonzero = |x: &Expr| !matches!(x, Expr::NumberLiteral(n) if matches!(&n.value, ast::Number::Int(i) if i.as_u64() == Some(0)));
                        (self.injective(l, depth + 1) && !self.depends(r) && nonzero(r))
                            || (self.injective(r, depth + 1) && !self.depends(l) && nonzero(l))
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// The array a write goes to and its indices, through views taken in the body; `None` for
    /// an array the iteration made itself.
    fn resolve(&self, s: &'e ast::ExprSubscript) -> Option<(String, Vec<&'e Expr>)> {
        let mut idx: Vec<&Expr> = indices(&s.slice);
        let mut base: &Expr = &s.value;
        for _ in 0..16 {
            match base {
                Expr::Subscript(inner) => {
                    let mut lead = indices(&inner.slice);
                    lead.extend(idx);
                    idx = lead;
                    base = &inner.value;
                }
                Expr::Name(n) => {
                    let name = n.id.as_str();
                    if !self.assigned.rhs.contains_key(name) {
                        return Some((name.to_string(), idx));
                    }
                    // A view taken in the body continues the chain; any other value assigned
                    // in the body is the iteration's own.
                    match self.single(name) {
                        Some(Expr::Subscript(v)) => {
                            let mut lead = indices(&v.slice);
                            lead.extend(idx);
                            idx = lead;
                            base = &v.value;
                        }
                        // Another name for the same array.
                        Some(other @ Expr::Name(_)) => base = other,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        None
    }
}

fn indices(slice: &Expr) -> Vec<&Expr> {
    match slice {
        Expr::Tuple(t) => t.elts.iter().collect(),
        e => vec![e],
    }
}

impl Lower<'_> {
    /// The race diagnostics of a parallel `prange` loop over `var` with body `body`.
    pub(super) fn prange_races(&mut self, var: &str, body: &[Stmt]) {
        let ck = Checker::new(var, body);
        for w in &ck.assigned.writes {
            let Some((array, idx)) = ck.resolve(w) else { continue };
            if idx.iter().any(|e| ck.injective(e, 0)) {
                continue;
            }
            let span = self.sp(w.range());
            if self.line_has(span, ALLOW_RACE) {
                continue;
            }
            self.diags.push(
                Diagnostic::error(
                    format!("iterations of this `prange` loop may write the same element of `{array}`"),
                    span,
                    format!("no index here is a one-to-one function of `{var}`"),
                )
                .with_hint(format!(
                    "iterations run at once on several threads, so concurrent updates of one element are lost \
                     (Numba gives wrong answers here); index the write by `{var}` (`{array}[{var}] = ...`), \
                     accumulate into a scalar reduction (`s += ...`), or use `range`. If the race is intended, \
                     end the line with `# {ALLOW_RACE}`"
                )),
            );
        }
    }
}
