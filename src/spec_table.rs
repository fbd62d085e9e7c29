//! The per-signature table of a dispatcher, shared by host functions ([`crate::Function`]) and
//! kernels (`Kernel`): one slot per argument-type list, filled once. Lookups take a read lock
//! and scan a few entries; a compile runs outside the lock, so other signatures stay usable,
//! and concurrent first calls with the same types wait on the slot and share its result.

use crate::error::Error;
use smallvec::SmallVec;
use std::sync::{Arc, OnceLock, RwLock};
use twinjit_ir::Type;

/// Argument types of one specialisation.
pub(crate) type Types = SmallVec<[Type; 4]>;

type Slot<T> = Arc<OnceLock<Result<Arc<T>, Error>>>;

/// Compiled specialisations (or their compile errors) by argument types.
pub(crate) struct SpecTable<T> {
    slots: RwLock<Vec<(Types, Slot<T>)>>,
}

impl<T> Default for SpecTable<T> {
    fn default() -> Self {
        SpecTable { slots: RwLock::new(Vec::new()) }
    }
}

impl<T> SpecTable<T> {
    /// The finished entry whose types satisfy `matches`, without allocating (the call path).
    pub(crate) fn find(&self, matches: impl Fn(&[Type]) -> bool) -> Option<Result<Arc<T>, Error>> {
        let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
        slots.iter().find(|(t, _)| matches(t)).and_then(|(_, s)| s.get().cloned())
    }

    /// The entry for `types`, compiling it with `build` if no other caller has.
    pub(crate) fn get_or_build(
        &self,
        types: Types,
        build: impl FnOnce(&[Type]) -> Result<Arc<T>, Error>,
    ) -> Result<Arc<T>, Error> {
        if let Some(r) = self.find(|t| t == &types[..]) {
            return r;
        }
        let slot: Slot<T> = {
            let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
            match slots.iter().find(|(t, _)| *t == types) {
                Some((_, s)) => s.clone(),
                None => {
                    let s: Slot<T> = Arc::new(OnceLock::new());
                    slots.push((types.clone(), s.clone()));
                    s
                }
            }
        };
        slot.get_or_init(|| build(&types)).clone()
    }
}
