//! The race checker's bookkeeping, shared by the interpreter's grid runner (`cuda.rs`) and
//! `cuda-sim`: per element, the accesses since the last write that nothing orders, and the rule
//! deciding which pairs race. What orders two accesses (a barrier, a warp exchange, a grid sync)
//! is the caller's `ordered` test.

use smallvec::SmallVec;

/// How an element is accessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    /// A plain load.
    Read,
    /// A plain store.
    Write,
    /// A CUDA atomic (`cuda.atomic.add`, ...): atomics do not race with each other.
    Atomic,
}

/// One element's accesses since the last write that no barrier orders: the writer, the
/// readers and the atomic updaters (one entry per thread, at most `cap` of each).
#[derive(Debug)]
pub struct Record<A> {
    writer: Option<A>,
    readers: SmallVec<[A; 2]>,
    atomics: SmallVec<[A; 2]>,
}

impl<A> Default for Record<A> {
    fn default() -> Self {
        Record { writer: None, readers: SmallVec::new(), atomics: SmallVec::new() }
    }
}

impl<A: Copy> Record<A> {
    /// Records access `me` of `kind`; returns the first recorded access it races with (one that
    /// `ordered` says no barrier or exchange orders before it, and which conflicts: a write with
    /// anything, a read or an atomic with a write) and its kind. A plain read beside atomics is
    /// not a race: a compare-and-swap loop starts from one (`old = a[0]` before `atomic.cas`) and
    /// the atomic validates what it read.
    pub fn step(
        &mut self,
        me: A,
        kind: AccessKind,
        ordered: impl Fn(&A) -> bool,
        same_thread: impl Fn(&A) -> bool,
        cap: usize,
    ) -> Option<(A, AccessKind)> {
        let find = |list: &[A], k: AccessKind| list.iter().find(|a| !ordered(a)).map(|a| (*a, k));
        let clash = self
            .writer
            .filter(|w| !ordered(w))
            .map(|w| (w, AccessKind::Write))
            .or_else(|| if kind == AccessKind::Write { find(&self.readers, AccessKind::Read) } else { None })
            .or_else(|| if kind == AccessKind::Write { find(&self.atomics, AccessKind::Atomic) } else { None });
        let list = match kind {
            AccessKind::Write => {
                *self = Record { writer: Some(me), ..Record::default() };
                return clash;
            }
            AccessKind::Read => &mut self.readers,
            AccessKind::Atomic => &mut self.atomics,
        };
        if let Some(a) = list.iter_mut().find(|a| same_thread(a)) {
            *a = me;
        } else if list.len() < cap {
            list.push(me);
        }
        clash
    }
}

/// How an access reads as a verb, in the present and in the past.
pub fn verbs(kind: AccessKind) -> (&'static str, &'static str) {
    match kind {
        AccessKind::Read => ("reads", "read"),
        AccessKind::Write => ("writes", "wrote"),
        AccessKind::Atomic => ("atomically updates", "atomically updated"),
    }
}
