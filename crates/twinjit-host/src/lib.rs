//! twinjit's host backend: typed, lowered IR → Cranelift → machine code for this CPU.
//!
//! [`compile`] turns a [`TypedProgram`] (an entry specialisation and its callees) into a
//! [`CompiledProgram`]: one Cranelift JIT module holding every function plus an entry
//! trampoline with a fixed signature (see [`abi`]). Runtime errors come back as a status plus
//! an [`abi::ErrorRecord`] naming a raise site (function and span), never as a crash.
//!
//! [`compile_with_artifact`] also keeps the program's serialized form ([`CompiledProgram::to_bytes`],
//! format in `artifact`), and [`load`] links such bytes again in another process without the
//! front end or Cranelift's compiler (for the facade's on-disk cache).
//!
//! This crate knows nothing of Python source or of the facade's argument types; it relies on
//! the IR verifier's invariants (typed, lowered IR) and reports anything else as
//! [`HostError::Internal`].

#![deny(unsafe_op_in_unsafe_fn)]

pub mod abi;
mod artifact;
mod describe;
#[cfg(all(target_arch = "x86_64", unix))]
mod image;
mod link;
mod lower;
pub mod memory;
pub mod parallel;
mod runtime;
pub mod sim;
mod sim_lower;
mod simd;
mod spill;

pub use describe::host_description;
pub use link::{load, load_through_jit_module};
pub use twinjit_ir::abi::RaiseSite;

use abi::{parts, EntryFn, ErrorRecord};
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::{self as cl, types, AbiParam, InstBuilder, MemFlagsData};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module, ModuleError, ModuleReloc};
use hashbrown::HashMap;
use twinjit_ir::{InstKind, Scalar, Type, TypedProgram};

/// Why host compilation failed.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The program uses something the host target cannot run (a CUDA intrinsic).
    #[error("{} is not supported on the host target", .0.what)]
    Unsupported(twinjit_ir::abi::Unsupported),
    /// This machine's CPU is not supported by Cranelift.
    #[error("the host CPU is not supported: {0}")]
    Isa(String),
    /// A bug in twinjit (Cranelift rejected what we generated).
    #[error("internal host backend error: {0}")]
    Internal(String),
}

/// Why [`load`] refused an artifact. Every variant means "compile instead"; `Corrupt` also
/// means the stored bytes should be replaced.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Not an artifact, or a damaged one (the validator's finding).
    #[error("corrupt host artifact: {0}")]
    Corrupt(String),
    /// A well-formed artifact for another format version, target, CPU or twinjit version.
    #[error("incompatible host artifact: {0}")]
    Incompatible(String),
    /// The host cannot run code at all, or linking failed.
    #[error(transparent)]
    Host(#[from] HostError),
}

/// Options of a host compilation.
#[derive(Clone, Copy, Debug, Default)]
pub struct HostOptions {
    /// Keep the Cranelift IR text of every function (for `twinjit clif`).
    pub keep_clif: bool,
    /// Keep the machine code listing of every function (for `twinjit asm`).
    pub keep_asm: bool,
}

/// Where a program's machine code lives; freed when the program is dropped.
pub(crate) enum Code {
    /// A Cranelift JIT module (`None` only while `Drop` frees it).
    Jit(Option<Box<JITModule>>),
    /// A mapping of the direct loader (cache entries on x86-64 Unix); unmapped by its drop.
    #[cfg(all(target_arch = "x86_64", unix))]
    Image(#[allow(dead_code)] image::Image),
}

/// Machine code for one entry point and everything it calls.
pub struct CompiledProgram {
    code: Code,
    entry: EntryFn,
    /// Raise sites, indexed by `ErrorRecord::site`.
    pub sites: Vec<RaiseSite>,
    /// `(function, Cranelift IR)` when `keep_clif` was set.
    pub clif: Vec<(String, String)>,
    /// `(function, machine code listing)` when `keep_asm` was set.
    pub asm: Vec<(String, String)>,
    /// Number of 8-byte argument slots the entry reads.
    pub arg_slots: usize,
    /// Number of 8-byte result slots the entry writes.
    pub ret_slots: usize,
    /// What `to_bytes` returns (already validated); only with [`compile_with_artifact`].
    artifact: Option<Vec<u8>>,
}

// SAFETY: after `finalize_definitions` the module's code and data are immutable; the only
// mutation is freeing the memory in `Drop`, which takes `&mut self`.
unsafe impl Send for CompiledProgram {}
// SAFETY: as above; calling the entry concurrently is safe because compiled code keeps no
// state outside its arguments.
unsafe impl Sync for CompiledProgram {}

impl Drop for CompiledProgram {
    fn drop(&mut self) {
        if let Code::Jit(slot) = &mut self.code {
            let Some(m) = slot.take() else { return };
            // SAFETY: no function pointer into this module outlives `self`: `entry` is private
            // and callers reach it only through `&self`.
            unsafe { m.free_memory() };
        }
    }
}

impl std::fmt::Debug for CompiledProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledProgram")
            .field("arg_slots", &self.arg_slots)
            .field("ret_slots", &self.ret_slots)
            .finish()
    }
}

impl CompiledProgram {
    /// The serialized program for [`load`]: `Some` when compiled by [`compile_with_artifact`]
    /// and everything the code refers to can be named in another process.
    pub fn to_bytes(&self) -> Option<Vec<u8>> {
        self.artifact.clone()
    }

    /// Calls the entry with arguments flattened into 8-byte slots (see [`abi`]).
    ///
    /// # Safety
    /// `args` must hold `arg_slots` slots laid out for the entry's signature, array data
    /// pointers must be valid for every access the bounds-checked (or, with bounds checks
    /// off, the program's own) indexing makes, and `ret` must have room for `ret_slots`.
    pub unsafe fn call(&self, args: &[u64], ret: &mut [u64]) -> Result<(), ErrorRecord> {
        debug_assert!(args.len() >= self.arg_slots && ret.len() >= self.ret_slots);
        let mut err = ErrorRecord::default();
        // SAFETY: the caller upholds the layout contract above; `err` outlives the call.
        let status = unsafe { (self.entry)(&mut err, ret.as_mut_ptr(), args.as_ptr()) };
        if status == 0 {
            Ok(())
        } else {
            Err(err)
        }
    }
}

/// The host ISA, detected once per process (CPU feature detection is not free).
fn isa() -> Result<cranelift_codegen::isa::OwnedTargetIsa, HostError> {
    static ISA: std::sync::OnceLock<Result<cranelift_codegen::isa::OwnedTargetIsa, String>> =
        std::sync::OnceLock::new();
    match ISA.get_or_init(|| detect_isa().map_err(|e| e.to_string())) {
        Ok(isa) => Ok(isa.clone()),
        Err(e) => Err(HostError::Isa(e.clone())),
    }
}

fn detect_isa() -> Result<cranelift_codegen::isa::OwnedTargetIsa, HostError> {
    let flags = describe::flags().map_err(HostError::Internal)?;
    #[cfg(target_arch = "x86_64")]
    let builder = {
        use cranelift_codegen::settings::Configurable;
        let isa_err = |e: &dyn std::fmt::Display| HostError::Isa(e.to_string());
        let mut b = cranelift_codegen::isa::lookup(target_lexicon::HOST).map_err(|e| isa_err(&e))?;
        let detected = describe::x86_features();
        if !detected.iter().any(|f| f.name == "sse2") {
            return Err(HostError::Isa("x86-64 code needs SSE2".into()));
        }
        for f in detected.iter().filter(|f| !f.flag.is_empty()) {
            b.enable(f.flag).map_err(|e| isa_err(&e))?;
        }
        b
    };
    #[cfg(not(target_arch = "x86_64"))]
    let builder = cranelift_native::builder().map_err(|e| HostError::Isa(e.to_string()))?;
    builder.finish(flags).map_err(|e| HostError::Isa(e.to_string()))
}

fn signature(module: &JITModule, param_parts: &[types::Type]) -> cl::Signature {
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(types::I64));
    sig.params.push(AbiParam::new(types::I64));
    sig.params.extend(param_parts.iter().map(|t| AbiParam::new(*t)));
    sig.returns.push(AbiParam::new(types::I32));
    sig
}

/// Compiles `program` (verified, lowered typed IR) to machine code.
///
/// Cranelift and cranelift-jit panic on some internal failures (an unresolvable symbol, a
/// codegen bug); such a panic is caught here and returned as [`HostError::Internal`], so a
/// twinjit bug never takes the embedding process down.
pub fn compile(program: &TypedProgram, options: &HostOptions) -> Result<CompiledProgram, HostError> {
    catch_panic(|| compile_inner(program, options, false, None))
}

/// [`compile`], also keeping the serialized program for [`CompiledProgram::to_bytes`]: a copy
/// of the machine code and relocations, so plain `compile` does not pay for it.
pub fn compile_with_artifact(program: &TypedProgram, options: &HostOptions) -> Result<CompiledProgram, HostError> {
    catch_panic(|| compile_inner(program, options, true, None))
}

/// Runs `f`, turning a panic inside Cranelift or cranelift-jit into [`HostError::Internal`].
pub(crate) fn catch_panic<T, E: From<HostError>>(f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(HostError::Internal(format!("Cranelift failed: {what}")).into())
        }
    }
}

/// An empty JIT module for `isa` that resolves the runtime helpers and the table's libm functions.
pub(crate) fn new_module(isa: cranelift_codegen::isa::OwnedTargetIsa) -> JITModule {
    let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
    for (name, ptr) in runtime::symbols() {
        jb.symbol(&**name, *ptr as *const u8);
    }
    JITModule::new(jb)
}

/// Defines the bytes of every module-level array the program reads (`InstKind::ConstArray`)
/// as a local symbol of the code, `twinjit.const.K` (a dotted name no Python function or
/// specialisation can have), 64-byte aligned: read-only memory that the artifact stores,
/// relocates and links like a function's code (compiled code never writes it: inference
/// refuses writes, `written_params::const_array_write`). Returns each constant's address in
/// the IR (shared by every specialisation that reads it) with its symbol.
fn define_const_arrays(
    module: &mut JITModule,
    program: &TypedProgram,
    mut captured: Option<&mut Vec<link::CapturedFunction>>,
) -> Result<Vec<(usize, FuncId)>, HostError> {
    let internal = |e: ModuleError| HostError::Internal(format!("{e:?}"));
    let mut out: Vec<(usize, FuncId)> = Vec::new();
    for tf in &program.functions {
        for inst in &tf.func.insts {
            let InstKind::ConstArray(c) = &inst.kind else { continue };
            let key = std::sync::Arc::as_ptr(c) as usize;
            if out.iter().any(|(k, _)| *k == key) {
                continue;
            }
            let sig = module.make_signature();
            let id = module
                .declare_function(&format!("twinjit.const.{}", out.len()), Linkage::Local, &sig)
                .map_err(internal)?;
            // A symbol has at least one byte; whole 8-byte words keep loads of the last element
            // inside it.
            let mut bytes = c.data.clone();
            bytes.resize(bytes.len().next_multiple_of(8).max(8), 0);
            module.define_function_bytes(id, 64, &bytes, &[]).map_err(internal)?;
            if let Some(cap) = captured.as_mut() {
                cap.push(link::CapturedFunction { id, alignment: 64, code: bytes, relocs: Vec::new() });
            }
            out.push((key, id));
        }
    }
    Ok(out)
}

/// Compiles `ctx.func` and defines it as `id`, as `Module::define_function` would, but through
/// `define_function_bytes` so that the bytes and relocations can be kept in `captured`.
fn define(
    module: &mut JITModule,
    id: FuncId,
    ctx: &mut cranelift_codegen::Context,
    captured: Option<&mut Vec<link::CapturedFunction>>,
) -> Result<(), HostError> {
    let internal = |e: ModuleError| HostError::Internal(format!("{e:?}"));
    ctx.compile(module.isa(), &mut ControlPlane::default()).map_err(|e| internal(e.into()))?;
    let code = ctx.compiled_code().expect("compiled just above");
    let relocs: Vec<ModuleReloc> =
        code.buffer.relocs().iter().map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, id)).collect();
    let alignment = u64::from(code.buffer.alignment);
    module.define_function_bytes(id, alignment, code.code_buffer(), &relocs).map_err(internal)?;
    if let Some(c) = captured {
        c.push(link::CapturedFunction { id, alignment, code: code.code_buffer().to_vec(), relocs });
    }
    Ok(())
}

/// Where `program` first has a float16 value (a scalar, an array's elements, inside a tuple or
/// list), if anywhere: the host target has no float16 (`cuda-sim` computes it in float32).
fn first_float16(program: &TypedProgram) -> Option<twinjit_diag::Span> {
    fn half(t: &Type) -> bool {
        match t {
            Type::Scalar(s) => *s == Scalar::Float16,
            Type::Array(a) => a.dtype == Scalar::Float16,
            Type::Tuple(ts) => ts.iter().any(half),
            Type::List(e) | Type::Optional(e) => half(e),
            _ => false,
        }
    }
    program.functions.iter().find_map(|tf| {
        let f = &tf.func;
        (0..f.values.len()).find(|&k| half(&f.values[k].ty)).map(|k| f.value_span(twinjit_ir::Value(k as u32)))
    })
}

/// float16 is a CUDA type: Numba's CPU target has none (it cannot load a float16 element),
/// so the host target refuses it too, at the first value that has it.
fn refuse_float16(program: &TypedProgram) -> Result<(), HostError> {
    let Some(span) = first_float16(program) else { return Ok(()) };
    let hint = "float16 exists in CUDA kernels and device functions (@cuda.jit), as in Numba, whose CPU target \
                has no float16 either; use float32 on the host";
    Err(HostError::Unsupported(twinjit_ir::abi::Unsupported { what: "float16".into(), span, hint: hint.into() }))
}

pub(crate) fn compile_inner(
    program: &TypedProgram,
    options: &HostOptions,
    keep_artifact: bool,
    sim: Option<&sim::SimLayout>,
) -> Result<CompiledProgram, HostError> {
    if sim.is_none() {
        refuse_float16(program)?;
    }
    let mut module = new_module(isa()?);
    let mut captured = keep_artifact.then(Vec::new);
    let internal = |e: cranelift_module::ModuleError| HostError::Internal(e.to_string());

    // Declare every function first so that calls (and recursion) can refer to each other.
    let mut ids: HashMap<String, (FuncId, Vec<types::Type>)> = HashMap::new();
    for tf in &program.functions {
        let pp: Vec<types::Type> = tf.args.iter().flat_map(parts).collect();
        let sig = signature(&module, &pp);
        let id = module.declare_function(&tf.func.name, Linkage::Local, &sig).map_err(internal)?;
        ids.insert(tf.func.name.clone(), (id, parts(&tf.func.ret)));
    }
    // A chunk trampoline for each function `parallel_for` runs: `F.chunk(err, env, c)` reads
    // F's other arguments from the 8-byte slots at `env` and calls `F(err, env, c, ...)`
    // (runtime::twinjit_parallel_for calls it once per chunk).
    let mut chunk_targets: Vec<&twinjit_ir::TypedFunction> = Vec::new();
    for tf in &program.functions {
        for inst in &tf.func.insts {
            if let InstKind::ParallelFor(name, _) = &inst.kind {
                if let Some(t) = program.get(name) {
                    if !chunk_targets.iter().any(|c| c.func.name == t.func.name) {
                        chunk_targets.push(t);
                    }
                }
            }
        }
    }
    let mut csig = module.make_signature();
    for _ in 0..3 {
        csig.params.push(AbiParam::new(types::I64));
    }
    csig.returns.push(AbiParam::new(types::I32));
    for t in &chunk_targets {
        let name = format!("{}.chunk", t.func.name);
        let id = module.declare_function(&name, Linkage::Local, &csig).map_err(internal)?;
        ids.insert(name, (id, Vec::new()));
    }
    let consts = define_const_arrays(&mut module, program, captured.as_mut())?;
    let recursive = twinjit_ir::call_graph::recursive_functions(program);
    let mut sites = Vec::new();
    let mut clif = Vec::new();
    let mut asm = Vec::new();
    let mut fctx = FunctionBuilderContext::new();
    let mut ctx = module.make_context();
    let fconfig = module.target_config();
    for tf in &program.functions {
        // The scalar loops the vectoriser leaves run two iterations per trip (`unroll`). The
        // plan holds for the unrolled copy too: it only appends blocks and values, and leaves
        // the vectorised loops as they are.
        // The race checker sees every access: no vector loops then.
        let plan = if sim.is_some_and(|l| l.race_check) { Vec::new() } else { simd::plan(&tf.func, tf.fastmath) };
        let vectorised: Vec<twinjit_ir::Block> = plan.iter().map(|l| l.header).collect();
        // A kernel's allocation sites keep their instruction indices (the shared-memory layout
        // names them): such a function is not unrolled.
        let has_alloc = || tf.func.insts.iter().any(|i| matches!(i.kind, InstKind::AllocArray { .. }));
        let unrolled =
            if sim.is_some() && has_alloc() { None } else { twinjit_ir::passes::unroll::unroll(&tf.func, &vectorised) };
        let f = unrolled.as_ref().unwrap_or(&tf.func);
        let (id, _) = ids[&f.name].clone();
        let pp: Vec<types::Type> = tf.args.iter().flat_map(parts).collect();
        ctx.func.signature = signature(&module, &pp);
        // Callees referenced by this function.
        let mut callees: HashMap<String, (cl::FuncRef, Vec<types::Type>)> = HashMap::new();
        for inst in &f.insts {
            let callee = match &inst.kind {
                InstKind::Call(name, _) => Some(name.clone()),
                InstKind::ParallelFor(name, _) => Some(format!("{name}.chunk")),
                _ => None,
            };
            if let Some(name) = &callee {
                if !callees.contains_key(name) {
                    let (cid, rt) =
                        ids.get(name).cloned().ok_or_else(|| HostError::Internal(format!("missing callee {name}")))?;
                    let fr = module.declare_func_in_func(cid, &mut ctx.func);
                    callees.insert(name.clone(), (fr, rt));
                }
            }
        }
        // Module-level arrays this function reads, by the address of their IR constant.
        let mut const_refs: HashMap<usize, cl::FuncRef> = HashMap::new();
        for inst in &f.insts {
            if let InstKind::ConstArray(c) = &inst.kind {
                let key = std::sync::Arc::as_ptr(c) as usize;
                if let (false, Some(&(_, cid))) =
                    (const_refs.contains_key(&key), consts.iter().find(|(k, _)| *k == key))
                {
                    const_refs.insert(key, module.declare_func_in_func(cid, &mut ctx.func));
                }
            }
        }
        {
            let mut helper_refs: HashMap<String, cl::FuncRef> = HashMap::new();
            let module_ref = &mut module;
            let mut helpers =
                |b: &mut FunctionBuilder, name: &str, params: &[types::Type], rets: &[types::Type]| -> cl::FuncRef {
                    if let Some(r) = helper_refs.get(name) {
                        return *r;
                    }
                    debug_assert!(runtime::is_known_import(name), "add `{name}` to runtime::is_known_import");
                    let mut sig = module_ref.make_signature();
                    sig.params.extend(params.iter().map(|t| AbiParam::new(*t)));
                    sig.returns.extend(rets.iter().map(|t| AbiParam::new(*t)));
                    let hid = module_ref
                        .declare_function(name, Linkage::Import, &sig)
                        .expect("helper signatures are consistent");
                    let r = module_ref.declare_func_in_func(hid, b.func);
                    helper_refs.insert(name.to_string(), r);
                    r
                };
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let blocks: Vec<cl::Block> = f.blocks.iter().map(|_| b.create_block()).collect();
            let entry = blocks[0];
            b.append_block_params_for_function_params(entry);
            let params: Vec<cl::Value> = b.block_params(entry).to_vec();
            let (err_ptr, ret_ptr) = (params[0], params[1]);
            let mut vals = vec![smallvec::SmallVec::new(); f.values.len()];
            let mut k = 2;
            for &p in f.params() {
                let n = parts(f.ty(p)).len();
                vals[p.index()] = params[k..k + n].iter().copied().collect();
                k += n;
            }
            for (bi, bd) in f.blocks.iter().enumerate().skip(1) {
                for &p in &bd.params {
                    let ps: smallvec::SmallVec<[cl::Value; 4]> =
                        parts(f.ty(p)).into_iter().map(|t| b.append_block_param(blocks[bi], t)).collect();
                    vals[p.index()] = ps;
                }
            }
            let rpo = f.reverse_postorder();
            let spills = spill::CallSpills::new(f, &rpo, &mut b);
            let mut lw = lower::FnLowering {
                b,
                f,
                source_name: &tf.source_name,
                vals,
                blocks: blocks.clone(),
                err_ptr,
                ret_ptr,
                err_block: None,
                prop_block: None,
                unwind: None,
                landing: (None, None),
                landings: Vec::new(),
                depth_on_entry: None,
                sites: &mut sites,
                callees: &callees,
                consts: &const_refs,
                helpers: &mut helpers,
                spills,
                vector_entries: Vec::new(),
                simd: plan,
                current: twinjit_ir::Function::ENTRY,
                def_block: lower::def_blocks(f),
                sim,
                cur_inst: 0,
            };
            lw.vector_entries = vec![None; lw.simd.len()];
            let mut reached = vec![false; f.blocks.len()];
            for &blk in &rpo {
                reached[blk.index()] = true;
                lw.b.switch_to_block(blocks[blk.index()]);
                if blk == twinjit_ir::Function::ENTRY && recursive.contains(&f.name) {
                    lw.enter_recursive();
                }
                lw.lower_block(blk)?;
            }
            for (bi, r) in reached.iter().enumerate() {
                if !r {
                    lw.b.switch_to_block(blocks[bi]);
                    lw.b.ins().trap(cl::TrapCode::unwrap_user(1));
                }
            }
            lw.emit_vector_loops()?;
            lw.finish_error_blocks();
            lw.b.seal_all_blocks();
            lw.b.finalize(fconfig);
        }
        if options.keep_clif {
            clif.push((f.name.clone(), ctx.func.display().to_string()));
        }
        ctx.set_disasm(options.keep_asm);
        define(&mut module, id, &mut ctx, captured.as_mut())?;
        if options.keep_asm {
            let text = ctx.compiled_code().and_then(|c| c.vcode.clone()).unwrap_or_default();
            asm.push((f.name.clone(), text));
        }
        module.clear_context(&mut ctx);
    }

    for t in &chunk_targets {
        let (cid, _) = ids[&format!("{}.chunk", t.func.name)].clone();
        ctx.func.signature = csig.clone();
        let (fid, _) = ids[&t.func.name].clone();
        let fr = module.declare_func_in_func(fid, &mut ctx.func);
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let blk = b.create_block();
        b.append_block_params_for_function_params(blk);
        b.switch_to_block(blk);
        let p = b.block_params(blk).to_vec();
        let mut argv = vec![p[0], p[1], p[2]];
        let rest: Vec<types::Type> = t.args.iter().skip(1).flat_map(parts).collect();
        for (k, ty) in rest.iter().enumerate() {
            argv.push(b.ins().load(*ty, MemFlagsData::trusted(), p[1], (8 * k) as i32));
        }
        let call = b.ins().call(fr, &argv);
        let st = b.inst_results(call)[0];
        b.ins().return_(&[st]);
        b.seal_all_blocks();
        b.finalize(fconfig);
        define(&mut module, cid, &mut ctx, captured.as_mut())?;
        module.clear_context(&mut ctx);
    }

    // Entry trampoline: read flattened arguments from 8-byte slots and call the entry.
    let entry_tf = program.entry();
    let entry_parts: Vec<types::Type> = entry_tf.args.iter().flat_map(parts).collect();
    let mut tsig = module.make_signature();
    for _ in 0..3 {
        tsig.params.push(AbiParam::new(types::I64));
    }
    tsig.returns.push(AbiParam::new(types::I32));
    let tid = module.declare_function("twinjit_entry", Linkage::Local, &tsig).map_err(internal)?;
    ctx.func.signature = tsig;
    {
        let (eid, _) = ids[&entry_tf.func.name].clone();
        let fr = module.declare_func_in_func(eid, &mut ctx.func);
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let blk = b.create_block();
        b.append_block_params_for_function_params(blk);
        b.switch_to_block(blk);
        let p = b.block_params(blk).to_vec();
        let mut argv = vec![p[0], p[1]];
        for (k, t) in entry_parts.iter().enumerate() {
            argv.push(b.ins().load(*t, MemFlagsData::trusted(), p[2], (8 * k) as i32));
        }
        let call = b.ins().call(fr, &argv);
        let st = b.inst_results(call)[0];
        b.ins().return_(&[st]);
        b.seal_all_blocks();
        b.finalize(fconfig);
    }
    define(&mut module, tid, &mut ctx, captured.as_mut())?;
    module.clear_context(&mut ctx);
    module.finalize_definitions().map_err(internal)?;
    let (arg_slots, ret_slots) = (entry_parts.len(), parts(&entry_tf.func.ret).len());
    let artifact = captured.and_then(|c| link::capture(&module, c, tid, &sites, arg_slots, ret_slots));
    let ptr = module.get_finalized_function(tid);
    // SAFETY: `twinjit_entry` was defined above with exactly the `EntryFn` signature
    // (three pointer-sized integers in, i32 out) in the platform's default calling convention.
    let entry: EntryFn = unsafe { std::mem::transmute::<*const u8, EntryFn>(ptr) };
    Ok(CompiledProgram {
        code: Code::Jit(Some(Box::new(module))),
        entry,
        sites,
        clif,
        asm,
        arg_slots,
        ret_slots,
        artifact,
    })
}
