//! Between a JIT module and an [`Artifact`]: capturing what `compile` defined (module ids
//! become symbol names), and [`load`], which declares and defines it all again in a fresh
//! module (names become new ids) and links it, with no Cranelift compilation.
//!
//! Capturing refuses (no artifact, compilation still succeeds) anything another process could
//! not resolve by name: data objects, anonymous functions, foreign function offsets, libcalls
//! outside `artifact::LIBCALLS`, value types outside `abi::parts`, relocation kinds not known
//! to `artifact`.

use crate::artifact::{self, Artifact, ArtifactFunction, ArtifactReloc, Body, RelocTarget};
use crate::{abi::EntryFn, catch_panic, isa, new_module, Code, CompiledProgram, HostError, LoadError};
use cranelift_codegen::ir::{AbiParam, ArgumentExtension, ArgumentPurpose};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module, ModuleReloc, ModuleRelocTarget};
use hashbrown::HashMap;
use twinjit_ir::abi::RaiseSite;

/// One function as `compile` defined it, before relocation.
pub(crate) struct CapturedFunction {
    pub id: FuncId,
    pub alignment: u64,
    pub code: Vec<u8>,
    pub relocs: Vec<ModuleReloc>,
}

/// The encoded artifact of a module `compile` finished, or `None` if it holds something
/// unstorable.
pub(crate) fn capture(
    module: &JITModule,
    captured: Vec<CapturedFunction>,
    entry: FuncId,
    sites: &[RaiseSite],
    arg_slots: usize,
    ret_slots: usize,
) -> Option<Vec<u8>> {
    let decls = module.declarations();
    let name_of = |id: FuncId| decls.get_function_decl(id).name.clone();
    let plain = |p: &AbiParam| {
        p.purpose == ArgumentPurpose::Normal
            && p.extension == ArgumentExtension::None
            && artifact::storable_type(p.value_type)
    };
    let n_decls = decls.get_functions().count();
    let mut bodies: HashMap<FuncId, Body> = HashMap::new();
    for c in captured {
        let mut relocs = Vec::with_capacity(c.relocs.len());
        for r in &c.relocs {
            let target = match r.name {
                ModuleRelocTarget::User { namespace: 0, index } if (index as usize) < n_decls => {
                    RelocTarget::Function(name_of(FuncId::from_u32(index))?)
                }
                ModuleRelocTarget::FunctionOffset(id, off) if id == c.id => RelocTarget::OwnOffset(off),
                ModuleRelocTarget::LibCall(lc) if artifact::LIBCALLS.contains(&lc) => RelocTarget::LibCall(lc),
                _ => return None,
            };
            relocs.push(ArtifactReloc { offset: r.offset, kind: r.kind, addend: r.addend, target });
        }
        let align = u32::try_from(c.alignment).ok().filter(|a| a.is_power_of_two() && *a <= artifact::MAX_ALIGN)?;
        bodies.insert(c.id, Body { align, code: c.code, relocs });
    }
    let mut functions = Vec::new();
    for (id, d) in decls.get_functions() {
        let sig = &d.signature;
        if !sig.params.iter().chain(&sig.returns).all(plain) {
            return None;
        }
        let body = bodies.remove(&id);
        match (d.linkage, &body) {
            (Linkage::Import, None) | (Linkage::Local, Some(_)) => {}
            _ => return None,
        }
        functions.push(ArtifactFunction {
            name: d.name.clone()?,
            linkage: d.linkage,
            call_conv: sig.call_conv,
            params: sig.params.iter().map(|p| p.value_type).collect(),
            returns: sig.returns.iter().map(|p| p.value_type).collect(),
            body,
        });
    }
    let artifact = Artifact {
        isa: crate::describe::artifact_description().to_string(),
        arg_slots: u32::try_from(arg_slots).ok()?,
        ret_slots: u32::try_from(ret_slots).ok()?,
        entry: name_of(entry)?,
        functions,
        sites: sites.to_vec(),
    };
    // What `load` would refuse must not be stored (a relocation kind of another architecture,
    // an unknown import): checking once here keeps the two sides in step.
    let bytes = artifact.encode();
    Artifact::decode(&bytes, &artifact.isa).ok().map(|_| bytes)
}

/// Links bytes from [`CompiledProgram::to_bytes`] into a callable program, in this or another
/// process (same target, CPU features and twinjit version, else [`LoadError::Incompatible`]).
///
/// Every offset, length and name is validated first: damaged bytes give
/// [`LoadError::Corrupt`], never a panic or an out-of-bounds write. Damage inside machine code
/// itself cannot be seen here; the caller's checksum must cover the bytes.
///
/// On x86-64 Unix the code is linked directly into a mapping of its own (`image.rs`), without
/// a Cranelift module; elsewhere through `cranelift_jit::JITModule`.
pub fn load(bytes: &[u8]) -> Result<CompiledProgram, LoadError> {
    #[cfg(all(target_arch = "x86_64", unix))]
    return catch_panic(|| load_direct(bytes));
    #[cfg(not(all(target_arch = "x86_64", unix)))]
    return catch_panic(|| load_with_jit_module(bytes));
}

/// [`load`] through `cranelift_jit::JITModule` on every target (the direct loader's tests
/// compare the two).
#[doc(hidden)]
pub fn load_through_jit_module(bytes: &[u8]) -> Result<CompiledProgram, LoadError> {
    catch_panic(|| load_with_jit_module(bytes))
}

#[cfg(all(target_arch = "x86_64", unix))]
fn load_direct(bytes: &[u8]) -> Result<CompiledProgram, LoadError> {
    let art = Artifact::decode(bytes, crate::describe::artifact_description())?;
    let call_conv = cranelift_codegen::isa::CallConv::triple_default(&target_lexicon::HOST);
    if let Some(f) = art.functions.iter().find(|f| f.call_conv != call_conv) {
        return Err(LoadError::Corrupt(format!("`{}` has calling convention {}", f.name, f.call_conv)));
    }
    let (image, entry) = crate::image::link(&art)?;
    // SAFETY: as in `load_with_jit_module`: `decode` checked that the entry is a local
    // function declared `(i64, i64, i64) -> i32`, in the default calling convention (checked
    // just above), which is `EntryFn`; `entry` points at its linked code inside `image`.
    let entry: EntryFn = unsafe { std::mem::transmute::<*const u8, EntryFn>(entry) };
    Ok(loaded(Code::Image(image), entry, art))
}

/// The program of a linked artifact.
fn loaded(code: Code, entry: EntryFn, art: Artifact) -> CompiledProgram {
    CompiledProgram {
        code,
        entry,
        sites: art.sites,
        clif: Vec::new(),
        asm: Vec::new(),
        arg_slots: art.arg_slots as usize,
        ret_slots: art.ret_slots as usize,
        artifact: None,
    }
}

fn load_with_jit_module(bytes: &[u8]) -> Result<CompiledProgram, LoadError> {
    let isa = isa()?;
    let art = Artifact::decode(bytes, crate::describe::artifact_description())?;
    let mut module = new_module(isa);
    match define_all(&mut module, &art) {
        Ok(entry) => {
            let ptr = module.get_finalized_function(entry);
            // SAFETY: `decode` checked that the entry is a local function declared
            // `(i64, i64, i64) -> i32` in the default calling convention (checked in
            // `define_all`), which is `EntryFn` on the 64-bit targets Cranelift supports.
            let entry: EntryFn = unsafe { std::mem::transmute::<*const u8, EntryFn>(ptr) };
            Ok(loaded(Code::Jit(Some(Box::new(module))), entry, art))
        }
        Err(e) => {
            // SAFETY: nothing was finalized or handed out; no pointer into the module exists.
            unsafe { module.free_memory() };
            Err(e)
        }
    }
}

/// Declares and defines every function of `art`, links them, and returns the entry's id.
fn define_all(module: &mut JITModule, art: &Artifact) -> Result<FuncId, LoadError> {
    let call_conv = module.isa().default_call_conv();
    let mut ids: HashMap<&str, FuncId> = HashMap::with_capacity(art.functions.len());
    for f in &art.functions {
        if f.call_conv != call_conv {
            return Err(LoadError::Corrupt(format!("`{}` has calling convention {}", f.name, f.call_conv)));
        }
        let mut sig = module.make_signature();
        sig.params.extend(f.params.iter().map(|t| AbiParam::new(*t)));
        sig.returns.extend(f.returns.iter().map(|t| AbiParam::new(*t)));
        let id = module
            .declare_function(&f.name, f.linkage, &sig)
            .map_err(|e| LoadError::Corrupt(format!("declaring `{}`: {e}", f.name)))?;
        ids.insert(&f.name, id);
    }
    let internal = |e: cranelift_module::ModuleError| HostError::Internal(format!("{e:?}"));
    for f in &art.functions {
        let Some(body) = &f.body else { continue };
        let id = ids[f.name.as_str()];
        let relocs: Vec<ModuleReloc> = body
            .relocs
            .iter()
            .map(|r| ModuleReloc {
                offset: r.offset,
                kind: r.kind,
                addend: r.addend,
                name: match &r.target {
                    // `decode` checked that every target names a declared function.
                    RelocTarget::Function(name) => ids[name.as_str()].into(),
                    RelocTarget::OwnOffset(off) => ModuleRelocTarget::FunctionOffset(id, *off),
                    RelocTarget::LibCall(lc) => ModuleRelocTarget::LibCall(*lc),
                },
            })
            .collect();
        module.define_function_bytes(id, u64::from(body.align), &body.code, &relocs).map_err(internal)?;
    }
    module.finalize_definitions().map_err(internal)?;
    Ok(ids[art.entry.as_str()])
}
