//! twinjit's CUDA code generator: typed, lowered IR → LLVM IR → PTX through LLVM 19's NVPTX
//! target (statically linked through inkwell). Needs no GPU and no CUDA installation, except
//! libdevice for kernels that call `math.*` transcendentals (see [`libdevice`]).
//!
//! [`emit_llvm`] writes the LLVM IR text of a [`TypedProgram`] (see `emit` for the
//! conventions); [`compile`] parses it, links libdevice when it is used, internalizes everything
//! but the entry, runs LLVM's `default<O3>` pipeline and prints PTX for the requested `sm_XX`.
//!
//! This crate knows nothing of Python source, of the facade's argument types or of the CUDA
//! driver. Invariant: it never hands LLVM an operation NVPTX cannot select (LLVM would abort the
//! process); everything else LLVM rejects comes back as [`PtxError::Internal`].

#![deny(unsafe_op_in_unsafe_fn)]

mod contract;
mod emit;
pub mod libdevice;
mod runtime_ir;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetTriple};
use inkwell::OptimizationLevel;
use std::path::PathBuf;
use std::sync::Once;
use twinjit_ir::TypedProgram;

pub use twinjit_ir::abi::{RaiseSite, GPU_MAX_RECURSION, GPU_RECORD_BYTES};

/// The architectures LLVM 19's NVPTX target knows.
pub const KNOWN_ARCHS: &[&str] = &[
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87",
    "sm_89", "sm_90", "sm_90a",
];

/// Why PTX generation failed.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PtxError {
    /// The program uses something the CUDA target cannot compile.
    #[error("{} is not supported on the CUDA target", .0.what)]
    Unsupported(twinjit_ir::abi::Unsupported),
    /// A kernel calls a libdevice function and libdevice was not found.
    #[error(
        "this kernel calls math functions from NVIDIA's libdevice, and libdevice.10.bc was not found; searched:\n{}\n\
         fix: set TWINJIT_LIBDEVICE to the file, set CUDA_HOME to a CUDA installation, or \
         `pip install nvidia-nvvm` (and set TWINJIT_NVIDIA_WHEELS to its site-packages if it is not found)",
        searched.iter().map(|p| format!("  {}", p.display())).collect::<Vec<_>>().join("\n")
    )]
    LibdeviceNotFound {
        /// Every path tried, in order.
        searched: Vec<PathBuf>,
    },
    /// The architecture is not one LLVM 19 can generate code for.
    #[error("unknown GPU architecture `{arch}` (LLVM 19 knows {})", KNOWN_ARCHS.join(", "))]
    UnknownArch {
        /// What was asked for.
        arch: String,
    },
    /// A bug in twinjit: LLVM rejected what we generated.
    #[error("internal PTX backend error: {0}")]
    Internal(String),
}

/// Which entry point the module gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EntryKind {
    /// `.entry NAME(gerr, params...)`: the program's entry must be a `@cuda.jit` kernel.
    #[default]
    Kernel,
    /// `.entry NAME(gerr, gret, params...)`: calls any function once and stores its result
    /// slots (8 bytes each) to `gret`; for running host functions on the GPU in tests.
    Call,
}

/// Options of a PTX compilation.
#[derive(Clone, Debug)]
pub struct PtxOptions {
    /// `sm_XX`.
    pub arch: String,
    /// The entry point's shape.
    pub entry: EntryKind,
    /// Fuse `a * b + c` into FMA where NVVM does (numba-cuda's default; see `contract`).
    pub contract: bool,
    /// `fastmath=True`: every fast-math flag on float arithmetic.
    pub fastmath: bool,
    /// LLVM optimisation (`default<O3>`); off only to debug the emitter.
    pub optimize: bool,
    /// Recursion deeper than this raises `RecursionError`.
    pub max_recursion: i64,
    /// What the launch guarantees of its arrays (a specialisation: see [`LaunchFacts`]).
    pub facts: LaunchFacts,
}

/// What a launch knows of its array arguments that a compiler of the source alone cannot, and
/// the kernel is specialised on (part of the cache key). Both are off by default: the kernel
/// then runs for any arguments. The facade computes them per launch from the device arrays'
/// address ranges and shapes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LaunchFacts {
    /// No two array arguments overlap in memory: the entry's array pointers are `noalias`, so
    /// LLVM may keep loads in registers across stores, reorder and widen them, and loads from
    /// arrays the kernel only reads take the read-only path (`ld.global.nc`). In a kernel that
    /// synchronises (a barrier, fence, warp vote or sync, atomic), only the arrays it never
    /// writes get `noalias`: LLVM would move a load of another thread's store across a barrier.
    pub noalias: bool,
    /// Every array argument has fewer than 2^31 elements: each dimension parameter of the entry
    /// carries `range(i64 0, 2^31)`, which LLVM uses to simplify index comparisons and
    /// wraps. (Redoing the offset arithmetic in 32 bits was tried: with Python's 64-bit loop
    /// variables LLVM re-extends every narrowed offset, and the PTX got longer.)
    pub index32: bool,
}

impl LaunchFacts {
    /// Both facts: what a launch of distinct arrays, each under 2^31 elements, gets.
    pub const ALL: LaunchFacts = LaunchFacts { noalias: true, index32: true };

    /// The facts as a short name (`general`, `noalias`, `index32`, `noalias+index32`), for the
    /// cache key and the CLI.
    pub fn name(self) -> &'static str {
        match (self.noalias, self.index32) {
            (false, false) => "general",
            (true, false) => "noalias",
            (false, true) => "index32",
            (true, true) => "noalias+index32",
        }
    }

    /// Parses [`LaunchFacts::name`]'s spellings (also `all`, and `none` for `general`).
    pub fn parse(s: &str) -> Option<LaunchFacts> {
        Some(match s {
            "general" | "none" => LaunchFacts::default(),
            "noalias" => LaunchFacts { noalias: true, index32: false },
            "index32" => LaunchFacts { noalias: false, index32: true },
            "noalias+index32" | "index32+noalias" | "all" => LaunchFacts::ALL,
            _ => return None,
        })
    }

    /// The facts both `self` and `other` have.
    pub fn and(self, other: LaunchFacts) -> LaunchFacts {
        LaunchFacts { noalias: self.noalias && other.noalias, index32: self.index32 && other.index32 }
    }
}

impl Default for PtxOptions {
    fn default() -> Self {
        PtxOptions {
            arch: "sm_90".into(),
            entry: EntryKind::Kernel,
            contract: true,
            fastmath: false,
            optimize: true,
            max_recursion: GPU_MAX_RECURSION,
            facts: LaunchFacts::default(),
        }
    }
}

/// The LLVM IR text of a program, before LLVM has seen it.
#[derive(Clone, Debug)]
pub struct LlvmText {
    /// The module.
    pub text: String,
    /// The `.entry` symbol.
    pub entry: String,
    /// Raise sites, indexed by the error record's `site`.
    pub sites: Vec<RaiseSite>,
    /// Whether libdevice must be linked.
    pub uses_libdevice: bool,
}

/// A compiled PTX module.
#[derive(Clone, Debug)]
pub struct PtxModule {
    /// The PTX text.
    pub ptx: String,
    /// The `.entry` symbol to launch.
    pub entry: String,
    /// The architecture it was generated for.
    pub arch: String,
    /// Raise sites, indexed by the error record's `site`.
    pub sites: Vec<RaiseSite>,
    /// Whether libdevice was linked.
    pub used_libdevice: bool,
    /// For recursive programs: the per-thread stack the launch needs for `max_recursion`
    /// levels (set it with the driver's `CU_LIMIT_STACK_SIZE`); `None` when nothing recurses.
    pub stack_bytes: Option<usize>,
}

/// The global counter of the grid barrier (`g.sync()` of `cuda.cg.this_grid()`): present in a
/// module's PTX exactly when its kernel syncs the grid, which is how the launch knows to be
/// cooperative ([`PtxModule::grid_sync`]).
pub const GRID_BARRIER: &str = "__twinjit_grid_barrier";

impl PtxModule {
    /// Whether the kernel syncs its grid (`cuda.cg.this_grid().sync()`): it must be launched
    /// cooperatively, with every block resident at once.
    pub fn grid_sync(&self) -> bool {
        self.ptx.contains(GRID_BARRIER)
    }
}

/// The `.entry` symbol of a program: the kernel's source name (a PTX identifier).
pub fn entry_name(program: &TypedProgram) -> String {
    let n: String = program
        .entry()
        .source_name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    if n.starts_with(|c: char| c.is_ascii_digit()) || n.is_empty() {
        format!("_{n}")
    } else {
        n
    }
}

/// The LLVM IR text of `program` (what `twinjit llvm` prints).
pub fn emit_llvm(program: &TypedProgram, options: &PtxOptions) -> Result<LlvmText, PtxError> {
    // A GPU thread runs a host function's parallel loops chunk after chunk.
    let serial;
    let program = if program
        .functions
        .iter()
        .any(|tf| tf.func.insts.iter().any(|i| matches!(i.kind, twinjit_ir::InstKind::ParallelFor(..))))
    {
        let mut p = program.clone();
        p.functions.iter_mut().for_each(|tf| twinjit_ir::passes::parallel::serialize(&mut tf.func));
        serial = p;
        &serial
    } else {
        program
    };
    // Arrays under 2^31 elements: loop counters bounded by their dimensions cannot wrap.
    let narrowed;
    let program = if options.facts.index32 {
        let mut p = program.clone();
        twinjit_ir::passes::narrow_to_index32(&mut p)
            .map_err(|e| PtxError::Internal(format!("index32 variant: {e:?}")))?;
        narrowed = p;
        &narrowed
    } else {
        program
    };
    let entry = entry_name(program);
    let mut m = emit::ModuleEmitter::new(program, options);
    let text = m.emit_module(&entry)?;
    Ok(LlvmText { text, entry, sites: m.sites, uses_libdevice: m.uses_libdevice })
}

/// Compiles `program` to PTX (what `twinjit ptx` prints). Never panics: LLVM errors and panics
/// inside inkwell come back as [`PtxError::Internal`].
pub fn compile(program: &TypedProgram, options: &PtxOptions) -> Result<PtxModule, PtxError> {
    if !KNOWN_ARCHS.contains(&options.arch.as_str()) {
        return Err(PtxError::UnknownArch { arch: options.arch.clone() });
    }
    let llvm = emit_llvm(program, options)?;
    let libdevice = if llvm.uses_libdevice { Some(libdevice::bitcode()?) } else { None };
    let recursive = !twinjit_ir::call_graph::recursive_functions(program).is_empty();
    let opts = options.clone();
    let r = std::panic::catch_unwind(move || {
        let ptx = llvm_to_ptx(&llvm.text, &llvm.entry, libdevice.as_deref().map(Vec::as_slice), &opts)?;
        let stack_bytes = recursive.then(|| stack_estimate(&ptx, opts.max_recursion));
        Ok(PtxModule {
            stack_bytes,
            ptx,
            entry: llvm.entry,
            arch: opts.arch.clone(),
            sites: llvm.sites,
            used_libdevice: libdevice.is_some(),
        })
    });
    match r {
        Ok(r) => r,
        Err(p) => {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            Err(PtxError::Internal(format!("LLVM panicked: {}", msg.unwrap_or_else(|| "unknown panic".into()))))
        }
    }
}

/// Stack for `depth` levels of recursion: the largest frame (`__local_depot`) plus room for the
/// call's parameters and saved registers, per level.
fn stack_estimate(ptx: &str, depth: i64) -> usize {
    let frame = ptx
        .lines()
        .filter_map(|l| l.split("__local_depot").nth(1))
        .filter_map(|rest| rest.split('[').nth(1)?.split(']').next()?.parse::<usize>().ok())
        .max()
        .unwrap_or(0);
    (frame + 128) * depth.max(1) as usize
}

/// Optimises LLVM IR text for `options.arch` and prints PTX (also used by tests on hand-written
/// IR).
pub fn llvm_to_ptx(
    text: &str,
    entry: &str,
    libdevice: Option<&[u8]>,
    options: &PtxOptions,
) -> Result<String, PtxError> {
    static INIT: Once = Once::new();
    INIT.call_once(|| Target::initialize_nvptx(&InitializationConfig::default()));
    let triple = TargetTriple::create("nvptx64-nvidia-cuda");
    let target = Target::from_triple(&triple).map_err(|e| PtxError::Internal(format!("NVPTX target: {e}")))?;
    let tm = target
        .create_target_machine(
            &triple,
            &options.arch,
            "",
            OptimizationLevel::Aggressive,
            RelocMode::Default,
            CodeModel::Default,
        )
        .ok_or_else(|| PtxError::Internal(format!("cannot create an NVPTX target machine for {}", options.arch)))?;
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "twinjit");
    let module = ctx
        .create_module_from_ir(buf)
        .map_err(|e| PtxError::Internal(format!("LLVM rejected the generated IR: {}", e.to_string_lossy())))?;
    module
        .verify()
        .map_err(|e| PtxError::Internal(format!("generated IR does not verify: {}", e.to_string_lossy())))?;
    // libdevice's code is fused by NVVM's rule too (`contract::fuse_pairs`): its own functions
    // before O3, and the pairs that meet around its inlined calls after.
    let fuse_libdevice = libdevice.is_some() && options.contract && !options.fastmath;
    if let Some(bc) = libdevice {
        let mut ours = std::collections::HashSet::new();
        let mut f = module.get_first_function();
        while let Some(func) = f {
            ours.insert(func.get_name().to_string_lossy().into_owned());
            f = func.get_next_function();
        }
        link_libdevice(&ctx, &module, bc)?;
        if fuse_libdevice {
            contract::fuse_pairs(&ctx, &module, &ours);
        }
    }
    internalize(&module, entry);
    // Dropping the unused part of libdevice first keeps O3 from optimising hundreds of
    // functions that nothing calls.
    let passes = if options.optimize { "globaldce,default<O3>" } else { "globaldce" };
    module
        .run_passes(passes, &tm, PassBuilderOptions::create())
        .map_err(|e| PtxError::Internal(format!("LLVM passes failed: {}", e.to_string_lossy())))?;
    if fuse_libdevice {
        // Products and sums that meet only once libdevice is inlined (`1.0 + exp(-x)`).
        contract::fuse_pairs(&ctx, &module, &std::collections::HashSet::new());
    }
    let out = tm
        .write_to_memory_buffer(&module, FileType::Assembly)
        .map_err(|e| PtxError::Internal(format!("PTX emission failed: {}", e.to_string_lossy())))?;
    let ptx =
        String::from_utf8(out.as_slice().to_vec()).map_err(|e| PtxError::Internal(format!("PTX is not UTF-8: {e}")))?;
    // With contraction on (fastmath included), ptxas may fuse what is left, as for numba-cuda.
    Ok(if options.contract { contract::unpin_rounding(&ptx) } else { ptx })
}

/// Links the part of libdevice the module calls. The bitcode is read lazily (function bodies stay
/// unread until the linker asks for them) and every libdevice definition becomes `linkonce_odr`,
/// which the linker copies only where something refers to it: the `__nv_*` functions the module
/// declares and, transitively, what their bodies call. So a kernel that calls `exp` reads and
/// links a few functions of libdevice's hundreds (clang's `-mlink-builtin-bitcode` does the same
/// with the linker's only-needed mode, which LLVM's C API does not expose).
fn link_libdevice<'c>(ctx: &'c Context, module: &Module<'c>, bc: &[u8]) -> Result<(), PtxError> {
    use inkwell::context::AsContextRef;
    use inkwell::llvm_sys::bit_reader::LLVMGetBitcodeModuleInContext2;
    use inkwell::llvm_sys::core::LLVMIsDeclaration;
    use inkwell::values::AsValueRef;
    let buf = MemoryBuffer::create_from_memory_range_copy(bc, "libdevice.10.bc");
    let mut raw = std::ptr::null_mut();
    // SAFETY: the context and the buffer are live; on success the new module owns the buffer
    // (LLVM's documented contract for the lazy reader), so the wrapper must not free it.
    let failed = unsafe { LLVMGetBitcodeModuleInContext2(ctx.as_ctx_ref(), buf.as_mut_ptr(), &mut raw) };
    if failed != 0 || raw.is_null() {
        return Err(PtxError::Internal("cannot parse libdevice (not LLVM bitcode this LLVM reads)".into()));
    }
    std::mem::forget(buf);
    // SAFETY: `raw` is a module of `ctx` that nothing else owns.
    let ld = unsafe { Module::new(raw) };
    // libdevice carries an older data layout; use ours so the linker does not warn.
    ld.set_triple(&module.get_triple());
    ld.set_data_layout(&module.get_data_layout());
    let mut f = ld.get_first_function();
    while let Some(func) = f {
        // A body not yet read is not a declaration (LLVM counts it as materializable).
        // SAFETY: `func` is a function of the live module `ld`.
        if unsafe { LLVMIsDeclaration(func.as_value_ref()) } == 0 {
            func.set_linkage(Linkage::LinkOnceODR);
        }
        f = func.get_next_function();
    }
    module
        .link_in_module(ld)
        .map_err(|e| PtxError::Internal(format!("linking libdevice failed: {}", e.to_string_lossy())))
}

/// Every defined function and global but the entry becomes internal, so `default<O3>` inlines
/// what it needs and drops the rest of libdevice.
fn internalize(module: &Module<'_>, entry: &str) {
    let mut f = module.get_first_function();
    while let Some(func) = f {
        let name = func.get_name().to_string_lossy().into_owned();
        if func.count_basic_blocks() > 0 && name != entry {
            func.set_linkage(Linkage::Internal);
        }
        f = func.get_next_function();
    }
    let mut g = module.get_first_global();
    while let Some(gv) = g {
        if !gv.is_declaration() {
            gv.set_linkage(Linkage::Internal);
        }
        g = gv.get_next_global();
    }
}
