//! A direct loader for artifacts on x86-64 Unix: the code of every local function is copied
//! into one fresh mapping, the relocations are applied, and the mapping is made read-and-execute.
//!
//! It does what `cranelift_jit::JITModule` does for the same bytes (the same symbols, from
//! `runtime::symbols`; the same relocation arithmetic) without building a
//! Cranelift ISA or module, which is most of the cost of loading a cache entry in a fresh
//! process. [`crate::link`] uses the `JITModule` path on other targets; the tests run both on
//! the same artifacts.
//!
//! Everything here relies on `Artifact::decode`'s checks: relocations lie inside their
//! function's code, PC-relative ones point into local code (the same mapping, so always within
//! ±2 GiB), targets exist, and alignments are powers of two up to a page.

use crate::artifact::{Artifact, RelocTarget};
use crate::LoadError;
use cranelift_codegen::binemit::Reloc;

/// Machine code linked into a mapping of its own, unmapped on drop.
#[derive(Debug)]
pub(crate) struct Image {
    base: *mut u8,
    len: usize,
}

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: `base`/`len` are the mapping `link` created, not unmapped elsewhere; the
        // owner (`CompiledProgram`) hands out no pointer into it that outlives it.
        unsafe { libc::munmap(self.base.cast(), self.len) };
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(p).ok().filter(|p| p.is_power_of_two()).unwrap_or(4096)
}

/// The address of an external symbol: a runtime helper or a libm function of the builtins
/// table (the only imports compiled code has).
fn external(name: &str) -> Result<*const u8, LoadError> {
    crate::runtime::lookup(name)
        .ok_or_else(|| LoadError::Incompatible(format!("symbol `{name}` is not available in this process")))
}

/// Links `art` and returns the image with the address of its entry function.
pub(crate) fn link(art: &Artifact) -> Result<(Image, *const u8), LoadError> {
    // Layout: each local function at its alignment, in declaration order. (Programs have a
    // handful of functions: a list is cheaper here than a hash map.)
    let mut offsets: Vec<(&str, usize)> = Vec::with_capacity(art.functions.len());
    let mut end = 0usize;
    for f in &art.functions {
        if let Some(body) = &f.body {
            let align = body.align.max(1) as usize;
            let at = end.next_multiple_of(align);
            offsets.push((f.name.as_str(), at));
            end = at + body.code.len();
        }
    }
    let offset_of = |name: &str| offsets.iter().find(|(n, _)| *n == name).map(|(_, o)| *o);
    let page = page_size();
    let len = end.max(1).next_multiple_of(page);
    // SAFETY: an anonymous private mapping with no address hint has no preconditions.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return Err(LoadError::Incompatible(format!(
            "cannot map {len} bytes for code: {}",
            std::io::Error::last_os_error()
        )));
    }
    let image = Image { base: base.cast(), len };
    let base = image.base;
    let mut imports: Vec<(&str, *const u8)> = Vec::new();
    for f in &art.functions {
        if f.body.is_none() {
            imports.push((f.name.as_str(), external(&f.name)?));
        }
    }
    for f in &art.functions {
        let Some(body) = &f.body else { continue };
        let at = offset_of(&f.name).ok_or_else(|| LoadError::Corrupt(format!("`{}` has no place", f.name)))?;
        // SAFETY: `at + code.len() <= end <= len`: the layout above placed this function
        // inside the mapping, which is writable and does not overlap `code`.
        unsafe { std::ptr::copy_nonoverlapping(body.code.as_ptr(), base.add(at), body.code.len()) };
        for r in &body.relocs {
            let target = match &r.target {
                RelocTarget::Function(name) => match offset_of(name) {
                    // SAFETY: inside the mapping (see the layout).
                    Some(o) => unsafe { base.add(o) as *const u8 },
                    None => imports
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, p)| *p)
                        .ok_or_else(|| LoadError::Corrupt(format!("relocation to unknown `{name}`")))?,
                },
                // SAFETY: `decode` checked that the offset lies within this function's code.
                RelocTarget::OwnOffset(off) => unsafe { base.add(at + *off as usize) as *const u8 },
                RelocTarget::LibCall(lc) => external(&cranelift_module::default_libcall_names()(*lc))?,
            };
            let what = (target as i64).wrapping_add(r.addend);
            // SAFETY: `decode` checked `offset + width <= code.len()`, so the patched bytes lie
            // inside this function's copy in the writable mapping.
            let site = unsafe { base.add(at + r.offset as usize) };
            match r.kind {
                Reloc::Abs8 => unsafe { std::ptr::write_unaligned(site.cast::<u64>(), what as u64) },
                Reloc::X86PCRel4 | Reloc::X86CallPCRel4 => {
                    let pcrel = i32::try_from(what.wrapping_sub(site as i64)).map_err(|_| {
                        LoadError::Corrupt(format!("a PC-relative relocation in `{}` is out of range", f.name))
                    })?;
                    // SAFETY: as above.
                    unsafe { std::ptr::write_unaligned(site.cast::<i32>(), pcrel) }
                }
                other => return Err(LoadError::Incompatible(format!("relocation {other:?} on this target"))),
            }
        }
    }
    // SAFETY: the mapping is ours; from here on it is only read and executed (W^X).
    if unsafe { libc::mprotect(base.cast(), len, libc::PROT_READ | libc::PROT_EXEC) } != 0 {
        return Err(LoadError::Incompatible(format!(
            "cannot make code executable: {}",
            std::io::Error::last_os_error()
        )));
    }
    let entry = offset_of(&art.entry).ok_or_else(|| LoadError::Corrupt("the entry has no code".into()))?;
    // SAFETY: inside the mapping.
    let entry = unsafe { base.add(entry) as *const u8 };
    Ok((image, entry))
}
