//! `try` / `except` / `else` / `finally`, in the forms Numba compiles.
//!
//! Numba catches only with a bare `except:` or `except Exception:` (exception matching is
//! limited to `Exception`), never binds the exception (`except Exception as e` is refused), and
//! cannot re-raise; `finally` runs on every way out of the `try` that compiled code has (the end
//! of the body, `return`, `break`, `continue`, the end of the handler). twinjit compiles the
//! same forms and refuses the others with a located error.
//!
//! **Unwind edges.** Every block made while a `try` body is lowered has an unwind edge to the
//! handler's entry (`BlockData::unwind`): whatever raises in it (a `raise`, a failed check, a
//! call that fails) continues there. The edge's arguments are the variables' values where the
//! exception was raised; the SSA builder fills them as for any predecessor, from the block's
//! final state. That is right because a block of a `try` body assigns variables only before its
//! first instruction: an assignment after an instruction (which might raise) starts a new block
//! first ([`Lower::def_var`]). So the state at every raising point of a block is its final
//! state, and the arguments are available at its start, as the IR requires.

use super::{unsupported, Lower};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use std::rc::Rc;
use twinjit_diag::Diagnostic;
use twinjit_ir::{Block, BlockCall, FunctionKind, Value};

/// A `try` statement being lowered.
#[derive(Clone)]
pub(crate) struct TryCtx {
    /// The handler's entry while the body is lowered (`None` in the `else` part and the
    /// handler, and for a `try` without `except`).
    handler: Option<Block>,
    /// The `finally` statements, run on every way out.
    finally: Option<Rc<Vec<Stmt>>>,
    /// `loops.len()` when the `try` started: a `break`/`continue` of a loop outside it leaves it.
    pub(crate) loops_at: usize,
}

impl Lower<'_> {
    /// The handler that code lowered now unwinds to: the innermost `try` body's.
    fn cur_handler(&self) -> Option<Block> {
        self.tries.iter().rev().find_map(|t| t.handler)
    }

    /// Gives a new block the current handler's unwind edge (its arguments come from SSA).
    pub(super) fn protect(&mut self, b: Block) {
        if let Some(h) = self.cur_handler() {
            self.f.blocks[b.index()].unwind = Some(BlockCall { block: h, args: Vec::new() });
            self.ssa.add_pred(h, b);
        }
    }

    /// Continues in a new block when the current one does not unwind where code lowered now
    /// must (after entering or leaving a `try` body).
    fn resync(&mut self) {
        let want = self.cur_handler();
        if self.f.blocks[self.cur.index()].unwind.as_ref().map(|u| u.block) != want {
            let n = self.new_block();
            self.jump(n, vec![], twinjit_diag::Span::DUMMY);
            self.seal(n);
            self.cur = n;
        }
    }

    /// Binds variable `var` to `v` in the current block; inside a `try` body, a block that
    /// already holds instructions ends first, so the handler sees the value only from the
    /// next raising point on (see the module documentation).
    pub(super) fn def_var(&mut self, var: &str, v: Value) {
        if self.cur_handler().is_some() && !self.f.blocks[self.cur.index()].insts.is_empty() {
            let n = self.new_block();
            self.jump(n, vec![], twinjit_diag::Span::DUMMY);
            self.seal(n);
            self.cur = n;
        }
        self.ssa.def(self.cur, var, v);
    }

    /// Runs the `finally` statements of the `try`s from index `from` outwards-in (innermost
    /// first), as a `return`, `break` or `continue` leaves them. Each runs where an exception in
    /// it goes to the handlers outside its own `try`.
    pub(super) fn run_finallies(&mut self, from: usize) {
        if self.tries[from.min(self.tries.len())..].iter().all(|t| t.finally.is_none()) {
            return;
        }
        let saved = self.tries.clone();
        for k in (from..saved.len()).rev() {
            self.tries.truncate(k);
            if let Some(fin) = &saved[k].finally {
                self.resync();
                self.block(fin);
            }
        }
        self.tries = saved;
        self.resync();
    }

    pub(super) fn try_stmt(&mut self, t: &ast::StmtTry) {
        let span = self.sp(t.range);
        if self.kind != FunctionKind::Host {
            self.diags.push(unsupported(
                span,
                "`try` in GPU code is",
                "numba-cuda raises exceptions in kernels only with debug=True and cannot catch them; check values before the operation instead",
            ));
            return;
        }
        if t.is_star {
            self.diags.push(unsupported(span, "`try` ... `except*` is", "use `except Exception:`"));
            return;
        }
        if !t.finalbody.is_empty() && self.in_inner() {
            self.diags.push(unsupported(
                span,
                "`try` ... `finally` inside an inner function is",
                "move the `try` into the enclosing function",
            ));
            return;
        }
        let mut handler_body: Option<&[Stmt]> = None;
        for (k, h) in t.handlers.iter().enumerate() {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            let hspan = self.sp(h.range);
            if k > 0 {
                self.diags.push(
                    Diagnostic::error("a second `except` clause can never be reached", hspan, "unreachable")
                        .with_hint("Numba matches only `Exception`, so the first clause catches everything"),
                );
                continue;
            }
            if let Some(ty) = &h.type_ {
                let exception = matches!(&**ty, Expr::Name(n) if n.id.as_str() == "Exception");
                if !exception {
                    self.diags.push(
                        Diagnostic::error(
                            "exception matching is limited to `Exception`",
                            self.sp(ty.range()),
                            "cannot be matched in compiled code",
                        )
                        .with_hint("write `except Exception:` (or a bare `except:`), as Numba requires"),
                    );
                }
            }
            if let Some(name) = &h.name {
                self.diags.push(
                    Diagnostic::error(
                        format!("the exception cannot be stored in a variable (`{}`)", name.id),
                        self.sp(name.range),
                        "exception objects do not exist in compiled code",
                    )
                    .with_hint("write `except Exception:` and handle the error without the object, as Numba requires"),
                );
            }
            handler_body = Some(&h.body);
        }
        let finally = (!t.finalbody.is_empty()).then(|| Rc::new(t.finalbody.clone()));
        // The handler's entry and the join after the statement unwind where the `try` itself
        // does (the outer handler, if any).
        let handler = handler_body.map(|_| self.new_block());
        let after = self.new_block();
        self.tries.push(TryCtx { handler, finally: finally.clone(), loops_at: self.loops.len() });
        self.resync();
        self.block(&t.body);
        // The `else` part runs when the body did not raise; exceptions there are not caught here.
        if let Some(ctx) = self.tries.last_mut() {
            ctx.handler = None;
        }
        self.resync();
        self.block(&t.orelse);
        let ctx = self.tries.pop().expect("this try");
        self.resync();
        if let Some(fin) = &finally {
            self.block(fin);
        }
        self.jump(after, vec![], span);
        if let (Some(h), Some(body)) = (handler, handler_body) {
            self.seal(h);
            self.cur = h;
            self.tries.push(TryCtx { handler: None, ..ctx });
            self.block(body);
            self.tries.pop();
            self.resync();
            if let Some(fin) = &finally {
                self.block(fin);
            }
            self.jump(after, vec![], span);
        }
        self.seal(after);
        self.cur = after;
    }

    /// The `try`s as an inlined inner function sees them: their handlers still catch what it
    /// raises, but its `return`, `break` and `continue` leave none of them (returns the
    /// caller's, to restore).
    pub(super) fn enter_inlined_tries(&mut self) -> Vec<TryCtx> {
        let saved = self.tries.clone();
        for t in &mut self.tries {
            t.finally = None;
            t.loops_at = 0;
        }
        saved
    }
}
