//! Typed, lowered IR → LLVM IR text for the NVPTX target.
//!
//! Like llvmlite (which Numba uses), the IR is produced as text and parsed by LLVM: the text is
//! what `twinjit llvm` prints, snapshot tests read it, and no LLVM object is touched until the
//! whole module is written. Only operations NVPTX can select are emitted: transcendentals are
//! calls of libdevice's `__nv_*` functions, never `llvm.exp`/`llvm.sin`/`llvm.pow` (which make
//! LLVM abort the process), and integer division is guarded (no `sdiv` by zero or `MIN / -1`).
//!
//! Conventions, the same as the host backend's: every function is
//! `i32 @"name$f"(ptr %err, ptr %ret, parts...)` returning status 0 or 1 (an error record in
//! `*err`, see [`crate::ErrorRecord`]), results stored to `ret` as 8-byte slots; values are
//! flattened into parts (a scalar is one part; an array is `data, shape.., strides..` with
//! strides in elements; a tuple is its elements' parts). IR blocks map to LLVM blocks, block
//! parameters to phis. The kernel entry `.entry NAME(gerr, parts...)` calls the body and, if it
//! failed, publishes the first error of the launch (with the thread and block ids) to `gerr`.

use crate::runtime_ir;
use crate::{EntryKind, PtxError, PtxOptions, RaiseSite};
use hashbrown::{HashMap, HashSet};
use std::collections::BTreeMap;
use std::fmt::Write;
use twinjit_diag::Span;
use twinjit_ir::abi::{
    flatten, record_offset, ErrorCode, Part as AbiPart, Unsupported, GPU_THREAD_IDS_OFFSET, MAX_RUNTIME_ARGS,
};
use twinjit_ir::builtins::{
    AtomicOp, BarrierReduce, BitOp, CacheHint, Helper, Intrinsic, KernelOp, Register, ShuffleKind, VoteOp,
};
use twinjit_ir::{
    AddressSpace, BinaryOp, Block, BlockCall, Builtin, CmpOp, Const, Function, FunctionKind, InstKind, Lowering,
    Scalar, Terminator, Type, TypedProgram, UnaryOp, Value,
};

/// One flattened part of a value: its LLVM type and an operand (register or constant).
#[derive(Clone, Debug)]
struct Part {
    ty: &'static str,
    op: String,
}

type Parts = Vec<Part>;

/// LLVM type of a scalar in registers.
fn reg_ty(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "i1",
        Scalar::Int8 | Scalar::UInt8 => "i8",
        Scalar::Int16 | Scalar::UInt16 => "i16",
        Scalar::Int32 | Scalar::UInt32 => "i32",
        Scalar::Int64 | Scalar::UInt64 => "i64",
        Scalar::Float32 => "float",
        Scalar::Float64 => "double",
        Scalar::Float16 => "half",
        // A complex value is two parts (`twinjit_ir::abi::flatten`); this is one part's type.
        Scalar::Complex64 => "float",
        Scalar::Complex128 => "double",
    }
}

/// LLVM type of an array element in memory: [`mem_ty`], or the pair of floats of a complex
/// element (which registers hold as two parts of [`mem_ty`]).
fn elem_ty(s: Scalar) -> &'static str {
    match s {
        Scalar::Complex64 => "[2 x float]",
        Scalar::Complex128 => "[2 x double]",
        s => mem_ty(s),
    }
}

/// LLVM type of a scalar in memory (bools are bytes).
fn mem_ty(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "i8",
        other => reg_ty(other),
    }
}

/// The LLVM types of the flattened parts of `t` (`twinjit_ir::abi::flatten`). An array's owner
/// is not among them: kernels own no buffers (every array is lent by the launch or is a
/// shared/local array), so reference counts are no-ops here.
pub(crate) fn part_types(t: &Type) -> Vec<&'static str> {
    flatten(t)
        .into_iter()
        .filter_map(|p| match p {
            AbiPart::Scalar(s) => Some(reg_ty(s)),
            AbiPart::Data(_) => Some("ptr"),
            AbiPart::Dim(_) | AbiPart::Stride(_) => Some("i64"),
            AbiPart::MemInfo => None,
            // Never in a kernel: list operations are refused below.
            AbiPart::List => Some("ptr"),
        })
        .collect()
}

/// An LLVM constant of type `ty` from an IR constant.
fn const_op(c: Const, s: Scalar) -> String {
    match (c, s) {
        (Const::Float(x), Scalar::Float32) => float_lit(x as f32 as f64),
        (Const::Float(x), Scalar::Float16) => half_lit(x),
        (Const::Int(i), Scalar::Float16) => half_lit(i as f64),
        (Const::Bool(b), Scalar::Float16) => half_lit(b as i64 as f64),
        (Const::Float(x), _) if s.is_float() => float_lit(x),
        (Const::Int(i), Scalar::Float32) => float_lit(i as f32 as f64),
        (Const::Int(i), Scalar::Float64) => float_lit(i as f64),
        (Const::Int(i), Scalar::Bool) => (i != 0).to_string(),
        // The pattern truncated to the width, written signed (LLVM's spelling of any integer).
        (Const::Int(i), s) if s.bits() < 64 => ((i << (64 - s.bits())) >> (64 - s.bits())).to_string(),
        (Const::Int(i), _) => i.to_string(),
        (Const::Bool(b), Scalar::Bool) => b.to_string(),
        (Const::Bool(b), Scalar::Float32 | Scalar::Float64) => float_lit(b as i64 as f64),
        (Const::Bool(b), _) => (b as i64).to_string(),
        (Const::Float(x), Scalar::Bool) => (x != 0.0).to_string(),
        (Const::Float(x), _) => (x as i64).to_string(),
        (Const::None | Const::Str(_), s) => zero_op(reg_ty(s)).to_string(),
    }
}

/// Which entry parameters get `noalias` under the `noalias` launch fact (no two arrays of the
/// launch overlap). Every one when the kernel does not synchronise (no barrier, fence, warp
/// vote or sync, grid sync, atomic or sleep, in it or anything it calls): threads then promise
/// each other nothing about plain memory. Otherwise only the arrays it never writes: LLVM takes
/// a barrier for a call that cannot touch a `noalias` argument's memory, so a load from an
/// array that another thread wrote before the barrier could move above it; an array nobody
/// writes during the launch can be read anywhere (and through the read-only path).
fn noalias_params(program: &TypedProgram) -> Vec<bool> {
    use twinjit_ir::builtins::KernelOp;
    let synchronises = program.functions.iter().any(|tf| {
        tf.func.insts.iter().any(|d| match &d.kind {
            InstKind::Builtin(b, _) => matches!(
                b.kernel_op(),
                Some(
                    KernelOp::Barrier
                        | KernelOp::BarrierReduce(_)
                        | KernelOp::GridSync
                        | KernelOp::ThreadFence
                        | KernelOp::ThreadFenceBlock
                        | KernelOp::ThreadFenceSystem
                        | KernelOp::NanoSleep
                        | KernelOp::SyncWarp
                        | KernelOp::Vote(_)
                        | KernelOp::Atomic(_)
                )
            ),
            _ => false,
        })
    });
    let n = program.entry().func.params().len();
    if !synchronises {
        return vec![true; n];
    }
    twinjit_ir::written_params::written_params(program)
        .into_iter()
        .map(|w| !w)
        .chain(std::iter::repeat(false))
        .take(n)
        .collect()
}

/// LLVM's exact hexadecimal float literal (a float constant is written as the double it equals).
fn float_lit(x: f64) -> String {
    format!("0x{:016X}", x.to_bits())
}

/// LLVM's literal of a `half`: `0xH` and the 16 bits of `x` rounded to float16.
fn half_lit(x: f64) -> String {
    format!("0xH{:04X}", twinjit_ir::half::f16::from_f64(x).to_bits())
}

fn zero_op(ty: &str) -> &'static str {
    match ty {
        "i1" => "false",
        "float" | "double" => "0.0",
        "ptr" => "null",
        _ => "0",
    }
}

/// LLVM's suffix for intrinsics overloaded on a float type.
fn fsuffix(ty: &str) -> &'static str {
    if ty == "float" {
        "f32"
    } else {
        "f64"
    }
}

/// Quotes a symbol name for LLVM IR (`@"fib$i8"`).
pub(crate) fn sym(name: &str) -> String {
    format!("@\"{name}\"")
}

/// The body's symbol for a specialisation.
fn body_sym(mangled: &str) -> String {
    sym(&format!("{mangled}$f"))
}

/// Module-wide state: declarations, helpers, shared-memory globals, raise sites.
pub(crate) struct ModuleEmitter<'p> {
    program: &'p TypedProgram,
    options: &'p PtxOptions,
    /// Intrinsic and libdevice declarations by name.
    decls: BTreeMap<String, String>,
    /// Runtime helpers used.
    helpers: std::collections::BTreeSet<&'static str>,
    globals: Vec<String>,
    /// Module-level arrays emitted as constant globals, by the address of their IR constant.
    const_arrays: HashMap<usize, String>,
    pub(crate) sites: Vec<RaiseSite>,
    recursive: HashSet<String>,
    ret_slots: HashMap<String, usize>,
    /// Whether any `__nv_*` function is called (libdevice must be linked).
    pub(crate) uses_libdevice: bool,
    /// The alignment of the dynamic shared memory every `cuda.shared.array(0, ...)` of the
    /// module shares: the largest any asks for; 0 when none is used.
    dynshared_align: u32,
}

impl<'p> ModuleEmitter<'p> {
    pub(crate) fn new(program: &'p TypedProgram, options: &'p PtxOptions) -> Self {
        let ret_slots =
            program.functions.iter().map(|tf| (tf.func.name.clone(), part_types(&tf.func.ret).len())).collect();
        ModuleEmitter {
            program,
            options,
            decls: BTreeMap::new(),
            dynshared_align: 0,
            helpers: Default::default(),
            globals: Vec::new(),
            const_arrays: HashMap::new(),
            sites: Vec::new(),
            recursive: twinjit_ir::call_graph::recursive_functions(program),
            ret_slots,
            uses_libdevice: false,
        }
    }

    fn declare(&mut self, name: &str, decl: &str) {
        if name.starts_with("__nv_") {
            self.uses_libdevice = true;
        }
        self.decls.entry(name.to_string()).or_insert_with(|| decl.to_string());
    }

    fn use_helper(&mut self, name: &'static str) {
        for (n, d) in runtime_ir::helper_needs(name) {
            self.declare(n, d);
        }
        self.helpers.insert(name);
    }

    /// The whole module's text; `entry_name` is the `.entry` symbol.
    pub(crate) fn emit_module(&mut self, entry_name: &str) -> Result<String, PtxError> {
        let mut bodies = String::new();
        for tf in &self.program.functions {
            let text = FnEmitter::new(self, &tf.func, &tf.source_name).emit()?;
            bodies.push_str(&text);
            bodies.push('\n');
        }
        let entry = self.program.entry();
        let wrapper = match self.options.entry {
            EntryKind::Kernel => {
                if entry.kind != FunctionKind::Kernel {
                    return Err(PtxError::Unsupported(Unsupported {
                        what: format!("launching `{}`, a {}", entry.source_name, entry.kind.describe()),
                        span: entry.func.span,
                        hint: "only @cuda.jit kernels are launched; device functions are called from kernels".into(),
                    }));
                }
                if !matches!(entry.func.ret, Type::None | Type::Unknown) {
                    return Err(PtxError::Unsupported(Unsupported {
                        what: format!("kernel `{}` returning a value", entry.source_name),
                        span: entry.func.span,
                        hint: "kernels return nothing; write results into an array argument".into(),
                    }));
                }
                self.kernel_entry(entry_name)
            }
            EntryKind::Call => {
                if entry.func.ret.holds_array() {
                    return Err(PtxError::Unsupported(Unsupported {
                        what: format!("`{}` returning an array from the GPU", entry.source_name),
                        span: entry.func.span,
                        hint: "run it on the host target (arrays returned to Rust live in host memory)".into(),
                    }));
                }
                self.call_entry(entry_name)
            }
        };
        let mut out = String::new();
        out.push_str("; twinjit: generated LLVM IR for the NVPTX target\n");
        out.push_str("target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n");
        out.push_str("target triple = \"nvptx64-nvidia-cuda\"\n\n");
        for g in &self.globals {
            out.push_str(g);
            out.push('\n');
        }
        if !self.globals.is_empty() {
            out.push('\n');
        }
        for h in &self.helpers {
            out.push_str(&runtime_ir::helper(h).unwrap_or_default());
            out.push('\n');
        }
        out.push_str(&bodies);
        out.push_str(&wrapper);
        out.push('\n');
        for d in self.decls.values() {
            out.push_str(d);
            out.push('\n');
        }
        if self.dynshared_align > 0 {
            let _ = writeln!(
                out,
                "@__tj_dynshared = external addrspace(3) global [0 x i8], align {}",
                self.dynshared_align
            );
        }
        let _ = writeln!(out, "\n!nvvm.annotations = !{{!0}}");
        let _ = writeln!(out, "!0 = !{{ptr {}, !\"kernel\", i32 1}}", sym(entry_name));
        let _ = writeln!(out, "!llvm.module.flags = !{{!1}}");
        let _ = writeln!(out, "!1 = !{{i32 4, !\"nvvm-reflect-ftz\", i32 0}}");
        Ok(out)
    }

    fn sreg(&mut self, name: &str) -> String {
        let f = format!("llvm.nvvm.read.ptx.sreg.{name}");
        self.declare(&f, &format!("declare i32 @{f}()"));
        format!("call i32 @{f}()")
    }

    /// Entry parameters: `(declaration, parts passed to the body)`; arrays arrive as global
    /// pointers, bools as bytes.
    fn entry_params(&self, lines: &mut String) -> (Vec<String>, Vec<String>) {
        let entry = self.program.entry();
        let mut decl = Vec::new();
        let mut pass = Vec::new();
        let mut n = 0;
        let facts = self.options.facts;
        let noalias = if facts.noalias { noalias_params(self.program) } else { vec![false; entry.func.params().len()] };
        for (k, p) in entry.func.params().iter().enumerate() {
            let kinds = flatten(entry.func.ty(*p)).into_iter().filter(|part| !matches!(part, AbiPart::MemInfo));
            for (ty, kind) in part_types(entry.func.ty(*p)).into_iter().zip(kinds) {
                let name = format!("%p{n}");
                n += 1;
                match ty {
                    "ptr" => {
                        let noalias = if noalias[k] { "noalias " } else { "" };
                        decl.push(format!("ptr addrspace(1) {noalias}{name}"));
                        let _ = writeln!(lines, "  {name}.g = addrspacecast ptr addrspace(1) {name} to ptr");
                        pass.push(format!("ptr {name}.g"));
                    }
                    "i1" => {
                        decl.push(format!("i8 {name}"));
                        let _ = writeln!(lines, "  {name}.b = icmp ne i8 {name}, 0");
                        pass.push(format!("i1 {name}.b"));
                    }
                    // Under `index32` every extent is below 2^31, which LLVM may use too.
                    "i64" if facts.index32 && matches!(kind, AbiPart::Dim(_)) => {
                        decl.push(format!("i64 range(i64 0, 2147483648) {name}"));
                        pass.push(format!("i64 {name}"));
                    }
                    t => {
                        decl.push(format!("{t} {name}"));
                        pass.push(format!("{t} {name}"));
                    }
                }
            }
        }
        (decl, pass)
    }

    fn kernel_entry(&mut self, entry_name: &str) -> String {
        let entry = self.program.entry();
        let mut pre = String::new();
        let (decl, pass) = self.entry_params(&mut pre);
        let body = body_sym(&entry.func.name);
        let mut s = String::new();
        let _ =
            writeln!(s, "define void {}(ptr addrspace(1) %gerr{}{}) {{", sym(entry_name), sep(&decl), decl.join(", "));
        let _ = writeln!(s, "entry:\n  %err = alloca [{RECORD_WORDS} x i64], align 8\n  %ret = alloca i64, align 8");
        s.push_str("  %depth = getelementptr inbounds i8, ptr %err, i64 32\n  store i64 0, ptr %depth, align 8\n");
        s.push_str(&pre);
        let _ = writeln!(s, "  %st = call i32 {body}(ptr %err, ptr %ret{}{})", sep(&pass), pass.join(", "));
        s.push_str("  %bad = icmp ne i32 %st, 0\n  br i1 %bad, label %fail, label %done\nfail:\n");
        s.push_str("  %kind = load i32, ptr %err, align 8\n");
        s.push_str("  %cas = cmpxchg ptr addrspace(1) %gerr, i32 0, i32 %kind monotonic monotonic\n");
        s.push_str(
            "  %first = extractvalue { i32, i1 } %cas, 1\n  br i1 %first, label %record, label %done\nrecord:\n",
        );
        // The site and the values of the thread's record (not its depth), then thread and
        // block ids.
        let offs = [record_offset::SITE].into_iter().chain(record_offset::EXCEPTION_VALUES);
        for (k, off) in offs.enumerate() {
            let (t, al) = if off == 4 { ("i32", 4) } else { ("i64", 8) };
            let _ = writeln!(s, "  %src{k} = getelementptr inbounds i8, ptr %err, i64 {off}");
            let _ = writeln!(s, "  %val{k} = load {t}, ptr %src{k}, align {al}");
            let _ = writeln!(s, "  %dst{k} = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 {off}");
            let _ = writeln!(s, "  store volatile {t} %val{k}, ptr addrspace(1) %dst{k}, align {al}");
        }
        for (k, reg) in ["tid.x", "tid.y", "tid.z", "ctaid.x", "ctaid.y", "ctaid.z"].iter().enumerate() {
            let call = self.sreg(reg);
            let _ = writeln!(s, "  %id{k} = {call}");
            let _ = writeln!(
                s,
                "  %idp{k} = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 {}",
                GPU_THREAD_IDS_OFFSET + 4 * k
            );
            let _ = writeln!(s, "  store volatile i32 %id{k}, ptr addrspace(1) %idp{k}, align 4");
        }
        s.push_str("  br label %done\ndone:\n  ret void\n}\n");
        s
    }

    /// A one-thread entry that calls a function and copies its result slots and error record
    /// to global memory: runs any (host-style) function on the GPU, for differential tests.
    fn call_entry(&mut self, entry_name: &str) -> String {
        let entry = self.program.entry();
        let mut pre = String::new();
        let (decl, pass) = self.entry_params(&mut pre);
        let body = body_sym(&entry.func.name);
        let slots = part_types(&entry.func.ret).len().max(1);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "define void {}(ptr addrspace(1) %gerr, ptr addrspace(1) %gret{}{}) {{",
            sym(entry_name),
            sep(&decl),
            decl.join(", ")
        );
        let _ = writeln!(
            s,
            "entry:\n  %err = alloca [{RECORD_WORDS} x i64], align 8\n  %ret = alloca [{slots} x i64], align 8"
        );
        s.push_str("  %depth = getelementptr inbounds i8, ptr %err, i64 32\n  store i64 0, ptr %depth, align 8\n");
        s.push_str(&pre);
        let _ = writeln!(s, "  %st = call i32 {body}(ptr %err, ptr %ret{}{})", sep(&pass), pass.join(", "));
        for k in 0..slots {
            let _ = writeln!(s, "  %r{k}p = getelementptr inbounds i64, ptr %ret, i64 {k}");
            let _ = writeln!(s, "  %r{k} = load i64, ptr %r{k}p, align 8");
            let _ = writeln!(s, "  %g{k}p = getelementptr inbounds i64, ptr addrspace(1) %gret, i64 {k}");
            let _ = writeln!(s, "  store i64 %r{k}, ptr addrspace(1) %g{k}p, align 8");
        }
        for k in 0..RECORD_WORDS {
            let _ = writeln!(s, "  %e{k}p = getelementptr inbounds i64, ptr %err, i64 {k}");
            let _ = writeln!(s, "  %e{k} = load i64, ptr %e{k}p, align 8");
            let _ = writeln!(s, "  %ge{k}p = getelementptr inbounds i64, ptr addrspace(1) %gerr, i64 {k}");
            let _ = writeln!(s, "  store i64 %e{k}, ptr addrspace(1) %ge{k}p, align 8");
        }
        let _ = writeln!(s, "  %stp = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 {GPU_THREAD_IDS_OFFSET}");
        s.push_str("  store i32 %st, ptr addrspace(1) %stp, align 4\n  ret void\n}\n");
        s
    }
}

/// The 8-byte words of an [`twinjit_ir::abi::ErrorRecord`].
const RECORD_WORDS: usize = GPU_THREAD_IDS_OFFSET / 8;

fn sep(v: &[String]) -> &'static str {
    if v.is_empty() {
        ""
    } else {
        ", "
    }
}

/// The LLVM text of one block while it is being written.
struct BlockText {
    label: String,
    /// The IR block whose parameters become this block's phis.
    ir_block: Option<Block>,
    body: String,
}

struct FnEmitter<'m, 'p> {
    m: &'m mut ModuleEmitter<'p>,
    f: &'p Function,
    source_name: &'p str,
    vals: Vec<Parts>,
    tmp: usize,
    done: Vec<BlockText>,
    cur: BlockText,
    /// Incoming `(value, from label)` per `(IR block, flattened parameter part)`.
    incoming: HashMap<(u32, usize), Vec<(String, String)>>,
    allocas: String,
    depth_on_entry: Option<String>,
    /// The unwind edge of the IR block being emitted (a `try` body's): its error exits go to
    /// the handler instead of returning.
    unwind: Option<BlockCall>,
    /// The `print(...)` being built: its printf format and arguments (type, operand), sent
    /// to `vprintf` as one call when its newline arrives (numba-cuda's one printf per print).
    print_fmt: String,
    print_args: Vec<(&'static str, String)>,
    /// Additions computed as fused multiply-adds (NVVM's policy, see `contract`).
    fma: std::collections::HashMap<Value, crate::contract::Fused>,
}

impl<'m, 'p> FnEmitter<'m, 'p> {
    fn new(m: &'m mut ModuleEmitter<'p>, f: &'p Function, source_name: &'p str) -> Self {
        let fma = if m.options.contract && !m.options.fastmath { crate::contract::plan(f) } else { Default::default() };
        FnEmitter {
            fma,
            m,
            f,
            source_name,
            vals: vec![Vec::new(); f.values.len()],
            tmp: 0,
            done: Vec::new(),
            cur: BlockText { label: "entry".into(), ir_block: None, body: String::new() },
            incoming: HashMap::new(),
            allocas: String::new(),
            depth_on_entry: None,
            unwind: None,
            print_fmt: String::new(),
            print_args: Vec::new(),
        }
    }

    fn t(&mut self) -> String {
        self.tmp += 1;
        format!("%t{}", self.tmp)
    }

    fn line(&mut self, l: impl AsRef<str>) {
        self.cur.body.push_str("  ");
        self.cur.body.push_str(l.as_ref());
        self.cur.body.push('\n');
    }

    /// `%tN = <rhs>`; returns `%tN`.
    fn def(&mut self, rhs: impl AsRef<str>) -> String {
        let t = self.t();
        self.line(format!("{t} = {}", rhs.as_ref()));
        t
    }

    fn start_block(&mut self, label: String, ir_block: Option<Block>) {
        let old = std::mem::replace(&mut self.cur, BlockText { label, ir_block, body: String::new() });
        self.done.push(old);
    }

    fn fresh_label(&mut self, what: &str) -> String {
        self.tmp += 1;
        format!("{what}{}", self.tmp)
    }

    fn one(&self, v: Value) -> &str {
        &self.vals[v.index()][0].op
    }

    fn one_part(&self, v: Value) -> Part {
        self.vals[v.index()][0].clone()
    }

    fn scalar(&self, v: Value) -> Scalar {
        self.f.ty(v).scalar().unwrap_or(Scalar::Int64)
    }

    fn internal(&self, m: impl Into<String>) -> PtxError {
        PtxError::Internal(format!("`{}`: {}", self.source_name, m.into()))
    }

    fn emit(mut self) -> Result<String, PtxError> {
        let f = self.f;
        // Parameters.
        let mut params = vec!["ptr %err".to_string(), "ptr %ret".to_string()];
        for p in f.params() {
            let tys = part_types(f.ty(*p));
            let mut parts = Vec::new();
            for (k, ty) in tys.iter().enumerate() {
                let name = format!("%a{}_{k}", p.0);
                params.push(format!("{ty} {name}"));
                parts.push(Part { ty, op: name });
            }
            self.vals[p.index()] = parts;
        }
        // Block parameters (phis) other than the entry's.
        for (bi, bd) in f.blocks.iter().enumerate() {
            if bi == 0 {
                continue;
            }
            for p in &bd.params {
                let parts = part_types(f.ty(*p))
                    .iter()
                    .enumerate()
                    .map(|(k, ty)| Part { ty, op: format!("%v{}_{k}", p.0) })
                    .collect();
                self.vals[p.index()] = parts;
            }
        }
        let order = f.reverse_postorder();
        for b in &order {
            if f.blocks[b.index()].succs().iter().any(|t| t.block == Function::ENTRY) {
                return Err(self.internal("a branch to the entry block"));
            }
        }
        if self.m.recursive.contains(&f.name) {
            self.enter_recursive();
        }
        self.line(format!("br label %b{}", order.first().map(|b| b.0).unwrap_or(0)));
        for b in order {
            let phis = if b == Function::ENTRY { None } else { Some(b) };
            self.start_block(format!("b{}", b.0), phis);
            let bd = &f.blocks[b.index()];
            self.unwind = bd.unwind.clone();
            for &inst in &bd.insts {
                let data = &f.insts[inst.index()];
                let parts = self.inst(&data.kind, data.result, data.span)?;
                if let Some(r) = data.result {
                    self.vals[r.index()] = parts;
                }
            }
            self.term(&bd.term, bd.term_span)?;
        }
        let last =
            std::mem::replace(&mut self.cur, BlockText { label: String::new(), ir_block: None, body: String::new() });
        self.done.push(last);
        let mut out = String::new();
        let _ = writeln!(out, "; {} ({})", self.source_name, f.name);
        let _ = writeln!(out, "define internal i32 {}({}) {{", body_sym(&f.name), params.join(", "));
        for (i, bt) in self.done.iter().enumerate() {
            let _ = writeln!(out, "{}:", bt.label);
            if i == 0 {
                out.push_str(&self.allocas);
            }
            if let Some(b) = bt.ir_block {
                let mut k = 0;
                for p in &f.blocks[b.index()].params {
                    for part in &self.vals[p.index()] {
                        let inc = self.incoming.get(&(b.0, k)).map(Vec::as_slice).unwrap_or(&[]);
                        if inc.is_empty() {
                            return Err(self.internal(format!("block {b} parameter without predecessors")));
                        }
                        let list: Vec<String> = inc.iter().map(|(v, l)| format!("[ {v}, %{l} ]")).collect();
                        let _ = writeln!(out, "  {} = phi {} {}", part.op, part.ty, list.join(", "));
                        k += 1;
                    }
                }
            }
            out.push_str(&bt.body);
        }
        out.push_str("}\n");
        Ok(out)
    }

    fn enter_recursive(&mut self) {
        let dp = self.def("getelementptr inbounds i8, ptr %err, i64 32");
        let d = self.def(format!("load i64, ptr {dp}, align 8"));
        let d1 = self.def(format!("add i64 {d}, 1"));
        let max = self.m.options.max_recursion;
        let deep = self.def(format!("icmp sgt i64 {d1}, {max}"));
        self.raise_if(&deep, ErrorCode::Recursion, self.f.span, &d1, &max.to_string(), 0);
        self.line(format!("store i64 {d1}, ptr {dp}, align 8"));
        self.depth_on_entry = Some(d);
    }

    /// Raises `kind` when `cond` holds: stores the record, returns status 1.
    fn raise_if(&mut self, cond: &str, kind: ErrorCode, span: Span, index: &str, len: &str, axis: i64) {
        self.m.sites.push(RaiseSite::check(self.source_name, span));
        let site = self.m.sites.len() - 1;
        let raise = self.fresh_label("raise");
        let cont = self.fresh_label("ok");
        self.line(format!(
            "br i1 {cond}, label %{raise}, label %{cont}, !prof !{{!\"branch_weights\", i32 1, i32 1048575}}"
        ));
        self.start_block(raise, None);
        if self.unwind.is_none() {
            self.line(format!("store i32 {}, ptr %err, align 8", kind.raw()));
            let sp = self.def("getelementptr inbounds i8, ptr %err, i64 4");
            self.line(format!("store i32 {site}, ptr {sp}, align 4"));
            for (off, v) in [(8, index.to_string()), (16, len.to_string()), (24, axis.to_string())] {
                let p = self.def(format!("getelementptr inbounds i8, ptr %err, i64 {off}"));
                self.line(format!("store i64 {v}, ptr {p}, align 8"));
            }
        }
        self.error_exit("1");
        self.start_block(cont, None);
    }

    /// Leaves the current error path with `status`: to the handler of the block's unwind edge,
    /// else returning it (a function on a call cycle restores its depth first, as a caller may
    /// catch the error).
    fn error_exit(&mut self, status: &str) {
        if let Some(u) = self.unwind.clone() {
            let args = self.edge_parts(&u);
            self.edge(&u, &args);
            self.line(format!("br label %b{}", u.block.0));
            return;
        }
        if let Some(d) = self.depth_on_entry.clone() {
            let dp = self.def("getelementptr inbounds i8, ptr %err, i64 32");
            self.line(format!("store i64 {d}, ptr {dp}, align 8"));
        }
        self.line(format!("ret i32 {status}"));
    }

    /// `raise`: the site with its exception; the runtime arguments as the record's values
    /// (`PyScalar::to_bits`); status 1.
    fn raise(&mut self, e: &twinjit_ir::Exception<Value>, span: Span) {
        let exception = e.map(|v| self.f.ty(*v).scalar().unwrap_or(Scalar::Int64));
        self.m.sites.push(RaiseSite { function: self.source_name.to_string(), span, exception: Some(exception) });
        let site = self.m.sites.len() - 1;
        let mut values = Vec::new();
        for v in e.runtime().take(MAX_RUNTIME_ARGS) {
            let x = self.one(*v).to_string();
            let s = self.f.ty(*v).scalar().unwrap_or(Scalar::Int64);
            let rt = reg_ty(s);
            values.push(match s {
                Scalar::Int64 | Scalar::UInt64 => x,
                s if s.is_signed() => self.def(format!("sext {rt} {x} to i64")),
                Scalar::Float32 => {
                    let d = self.def(format!("fpext float {x} to double"));
                    self.def(format!("bitcast double {d} to i64"))
                }
                Scalar::Float64 => self.def(format!("bitcast double {x} to i64")),
                _ => self.def(format!("zext {rt} {x} to i64")),
            });
        }
        values.resize(MAX_RUNTIME_ARGS, "0".to_string());
        if self.unwind.is_some() {
            return self.error_exit("1");
        }
        self.line(format!("store i32 {}, ptr %err, align 8", ErrorCode::Raised.raw()));
        let sp = self.def("getelementptr inbounds i8, ptr %err, i64 4");
        self.line(format!("store i32 {site}, ptr {sp}, align 4"));
        for (off, v) in record_offset::EXCEPTION_VALUES.iter().zip(values) {
            let p = self.def(format!("getelementptr inbounds i8, ptr %err, i64 {off}"));
            self.line(format!("store i64 {v}, ptr {p}, align 8"));
        }
        self.error_exit("1");
    }

    fn edge(&mut self, c: &BlockCall, args: &[Part]) {
        let from = self.cur.label.clone();
        for (k, a) in args.iter().enumerate() {
            self.incoming.entry((c.block.0, k)).or_default().push((a.op.clone(), from.clone()));
        }
    }

    fn edge_parts(&self, c: &BlockCall) -> Vec<Part> {
        c.args.iter().flat_map(|a| self.vals[a.index()].iter().cloned()).collect()
    }

    fn term(&mut self, t: &Terminator, span: Span) -> Result<(), PtxError> {
        match t {
            Terminator::Jump(c) => {
                let args = self.edge_parts(c);
                self.edge(c, &args);
                self.line(format!("br label %b{}", c.block.0));
            }
            Terminator::Branch(cond, a, b) => {
                let cv = self.one(*cond).to_string();
                if a.block == b.block {
                    // Both edges reach one block: choose the arguments, then jump once (a phi
                    // cannot take two values from one predecessor).
                    let (xa, xb) = (self.edge_parts(a), self.edge_parts(b));
                    let mut args = Vec::new();
                    for (x, y) in xa.iter().zip(&xb) {
                        let s = self.def(format!("select i1 {cv}, {} {}, {} {}", x.ty, x.op, y.ty, y.op));
                        args.push(Part { ty: x.ty, op: s });
                    }
                    self.edge(a, &args);
                    self.line(format!("br label %b{}", a.block.0));
                } else {
                    let (xa, xb) = (self.edge_parts(a), self.edge_parts(b));
                    self.edge(a, &xa);
                    self.edge(b, &xb);
                    self.line(format!("br i1 {cv}, label %b{}, label %b{}", a.block.0, b.block.0));
                }
            }
            Terminator::Return(v) => {
                if let Some(v) = v {
                    let parts = self.vals[v.index()].clone();
                    for (k, p) in parts.iter().enumerate() {
                        let slot = self.def(format!("getelementptr inbounds i64, ptr %ret, i64 {k}"));
                        self.line(format!("store {} {}, ptr {slot}, align 8", p.ty, p.op));
                    }
                }
                if let Some(d) = self.depth_on_entry.clone() {
                    let dp = self.def("getelementptr inbounds i8, ptr %err, i64 32");
                    self.line(format!("store i64 {d}, ptr {dp}, align 8"));
                }
                self.line("ret i32 0");
            }
            Terminator::Raise(e) => self.raise(e, span),
            Terminator::Unreachable => {
                let _ = span;
                self.m.declare("llvm.trap", "declare void @llvm.trap()");
                self.line("call void @llvm.trap()");
                self.line("unreachable");
            }
        }
        Ok(())
    }

    fn unsupported(&self, what: impl Into<String>, span: Span, hint: impl Into<String>) -> PtxError {
        PtxError::Unsupported(Unsupported { what: what.into(), span, hint: hint.into() })
    }

    fn inst(&mut self, kind: &InstKind, result: Option<Value>, span: Span) -> Result<Parts, PtxError> {
        let rty = result.map(|r| self.f.ty(r).clone()).unwrap_or(Type::None);
        let one = |ty: &'static str, op: String| vec![Part { ty, op }];
        Ok(match kind {
            InstKind::Const(c) => match rty.scalar() {
                Some(s) => one(reg_ty(s), const_op(*c, s)),
                None => Vec::new(),
            },
            InstKind::Undef => part_types(&rty).into_iter().map(|ty| Part { ty, op: zero_op(ty).into() }).collect(),
            InstKind::Unary(op, a) => {
                let x = self.one_part(*a);
                let s = self.scalar(*a);
                let r = match (op, s) {
                    (UnaryOp::Pos, _) => x.op.clone(),
                    (UnaryOp::Neg, s) if s.is_float() => self.def(format!("fneg {} {}", x.ty, x.op)),
                    (UnaryOp::Neg, _) => self.def(format!("sub {} 0, {}", x.ty, x.op)),
                    (UnaryOp::Not | UnaryOp::Invert, Scalar::Bool) => self.def(format!("xor i1 {}, true", x.op)),
                    (UnaryOp::Not, s) if s.is_float() => {
                        return Ok(one("i1", self.def(format!("fcmp oeq {} {}, 0.0", x.ty, x.op))))
                    }
                    (UnaryOp::Not, _) => return Ok(one("i1", self.def(format!("icmp eq {} {}, 0", x.ty, x.op)))),
                    (UnaryOp::Invert, _) => self.def(format!("xor {} {}, -1", x.ty, x.op)),
                };
                one(x.ty, r)
            }
            InstKind::Binary(..) if result.is_some_and(|r| self.fma.contains_key(&r)) => {
                let fu = self.fma[&result.unwrap_or(Value(0))];
                let (x, z) = (self.one_part(fu.a), self.one_part(fu.addend));
                let t = x.ty;
                let y = match fu.b {
                    crate::contract::Factor::Value(v) => self.one_part(v).op,
                    crate::contract::Factor::Const(c) => const_op(Const::Float(c), self.scalar(fu.a)),
                };
                let z = if fu.negate_addend { self.def(format!("fneg {t} {}", z.op)) } else { z.op };
                one(t, self.intrinsic("fma", t, &[&x.op, &y, &z]))
            }
            InstKind::Binary(op, a, c) => {
                let ty = rty.scalar().map(reg_ty).unwrap_or("i64");
                one(ty, self.binary(*op, *a, *c, span)?)
            }
            InstKind::Compare(op, a, c) => {
                let (x, y) = (self.one_part(*a), self.one(*c).to_string());
                let s = self.scalar(*a);
                let pred = if s.is_float() {
                    match op {
                        CmpOp::Eq => "fcmp oeq",
                        CmpOp::Ne => "fcmp une",
                        CmpOp::Lt => "fcmp olt",
                        CmpOp::Le => "fcmp ole",
                        CmpOp::Gt => "fcmp ogt",
                        CmpOp::Ge => "fcmp oge",
                    }
                } else {
                    let b = s == Scalar::Bool || s.is_unsigned();
                    match op {
                        CmpOp::Eq => "icmp eq",
                        CmpOp::Ne => "icmp ne",
                        CmpOp::Lt if b => "icmp ult",
                        CmpOp::Le if b => "icmp ule",
                        CmpOp::Gt if b => "icmp ugt",
                        CmpOp::Ge if b => "icmp uge",
                        CmpOp::Lt => "icmp slt",
                        CmpOp::Le => "icmp sle",
                        CmpOp::Gt => "icmp sgt",
                        CmpOp::Ge => "icmp sge",
                    }
                };
                one("i1", self.def(format!("{pred} {} {}, {y}", x.ty, x.op)))
            }
            InstKind::Cast(to, a) => {
                let x = self.one_part(*a);
                let from = self.scalar(*a);
                one(reg_ty(*to), self.cast(&x, from, *to))
            }
            InstKind::Select(c, a, b) => {
                let cv = self.one(*c).to_string();
                let (xs, ys) = (self.vals[a.index()].clone(), self.vals[b.index()].clone());
                let mut out = Vec::new();
                for (x, y) in xs.iter().zip(&ys) {
                    let r = self.def(format!("select i1 {cv}, {} {}, {} {}", x.ty, x.op, y.ty, y.op));
                    out.push(Part { ty: x.ty, op: r });
                }
                out
            }
            InstKind::Call(name, args) => self.call(name, args, &rty)?,
            InstKind::ParallelFor(..) => {
                return Err(self.unsupported("parallel_for", span, "serialised before the backend"))
            }
            InstKind::Builtin(bi, args) => self.builtin(*bi, args, &rty, span)?,
            InstKind::Dim(a, k) => vec![self.vals[a.index()][1 + *k as usize].clone()],
            InstKind::Stride(a, k) => {
                let nd = self.f.ty(*a).array().map(|t| t.ndim as usize).unwrap_or(0);
                vec![self.vals[a.index()][1 + nd + *k as usize].clone()]
            }
            InstKind::CheckIndex(i, n, axis) => {
                let (x, len) = (self.one(*i).to_string(), self.one(*n).to_string());
                let bad = self.def(format!("icmp uge i64 {x}, {len}"));
                self.raise_if(&bad, ErrorCode::Index, span, &x, &len, *axis as i64);
                Vec::new()
            }
            InstKind::CheckNonZero(a) => {
                let x = self.one_part(*a);
                let z = if self.scalar(*a).is_float() {
                    self.def(format!("fcmp oeq {} {}, 0.0", x.ty, x.op))
                } else if x.ty == "i1" {
                    self.def(format!("xor i1 {}, true", x.op))
                } else {
                    self.def(format!("icmp eq {} {}, 0", x.ty, x.op))
                };
                self.raise_if(&z, ErrorCode::ZeroDivision, span, "0", "0", 0);
                Vec::new()
            }
            InstKind::Load(a, o) => {
                let dt = self.f.ty(*a).array().map(|t| t.dtype).ok_or_else(|| self.internal("load of a non-array"))?;
                let p = self.element_ptr(*a, self.one(*o).to_string(), dt);
                let mt = mem_ty(dt);
                if dt.is_complex() {
                    // (real, imaginary), each a float of half the element.
                    let half = dt.size() / 2;
                    let re = self.def(format!("load {mt}, ptr {p}, align {half}"));
                    let q = self.def(format!("getelementptr inbounds i8, ptr {p}, i64 {half}"));
                    let im = self.def(format!("load {mt}, ptr {q}, align {half}"));
                    return Ok(vec![Part { ty: mt, op: re }, Part { ty: mt, op: im }]);
                }
                let v = self.def(format!("load {mt}, ptr {p}, align {}", dt.size()));
                if dt == Scalar::Bool {
                    one("i1", self.def(format!("icmp ne i8 {v}, 0")))
                } else {
                    one(reg_ty(dt), v)
                }
            }
            InstKind::Store(a, o, v) => {
                let dt = self.f.ty(*a).array().map(|t| t.dtype).ok_or_else(|| self.internal("store to a non-array"))?;
                let p = self.element_ptr(*a, self.one(*o).to_string(), dt);
                if dt.is_complex() {
                    let half = dt.size() / 2;
                    let parts = self.vals[v.index()].clone();
                    let q = self.def(format!("getelementptr inbounds i8, ptr {p}, i64 {half}"));
                    for (part, at) in parts.iter().zip([p, q]) {
                        self.line(format!("store {} {}, ptr {at}, align {half}", part.ty, part.op));
                    }
                    return Ok(Vec::new());
                }
                let x = self.mem_value(*v, dt);
                self.line(format!("store {} {x}, ptr {p}, align {}", mem_ty(dt), dt.size()));
                Vec::new()
            }
            InstKind::MakeTuple(vs) => vs.iter().flat_map(|v| self.vals[v.index()].iter().cloned()).collect(),
            InstKind::TupleGet(t, k) => {
                let Some(ts) = self.f.ty(*t).elements() else { return Err(self.internal("tupleget of a non-tuple")) };
                let start: usize = ts[..*k as usize].iter().map(|t| part_types(t).len()).sum();
                let n = part_types(&ts[*k as usize]).len();
                self.vals[t.index()][start..start + n].to_vec()
            }
            InstKind::AllocArray { space, dtype, shape, align } => {
                self.alloc_array(*space, *dtype, shape, (*align).max(16), span)?
            }
            InstKind::ConstArray(c) => self.const_array(c),
            InstKind::FuncRef(_) => Vec::new(),
            InstKind::View { base, offset, shape, strides } => {
                // The offset is in elements of the view's dtype (it may differ from the base's).
                let dt = rty.array().map(|t| t.dtype).ok_or_else(|| self.internal("view without an array type"))?;
                let data = self.element_ptr(*base, self.one(*offset).to_string(), dt);
                let mut parts = vec![Part { ty: "ptr", op: data }];
                for v in shape.iter().chain(strides) {
                    parts.push(Part { ty: "i64", op: self.one(*v).to_string() });
                }
                parts
            }
            InstKind::IncRef(_) | InstKind::DecRef(_) => Vec::new(),
            InstKind::NewList(_)
            | InstKind::ListLen(_)
            | InstKind::ListGet(..)
            | InstKind::ListSet(..)
            | InstKind::ListResize(..) => {
                return Err(self.unsupported(
                    "building or using a list",
                    span,
                    "lists exist on the host target only; use a cuda.local.array or an array argument",
                ))
            }
            InstKind::NewArray { .. } => {
                return Err(self.unsupported(
                    "allocating arrays (np.empty, np.zeros, ...)",
                    span,
                    "allocate on the host and pass the array in, or use cuda.local.array / cuda.shared.array",
                ))
            }
            InstKind::GetItem(..) | InstKind::SetItem(..) => {
                return Err(self.internal("getitem/setitem reached the backend"))
            }
        })
    }

    /// A scalar in its memory form (bools as bytes).
    fn mem_value(&mut self, v: Value, dt: Scalar) -> String {
        let x = self.one(v).to_string();
        if dt == Scalar::Bool {
            self.def(format!("zext i1 {x} to i8"))
        } else {
            x
        }
    }

    fn element_ptr(&mut self, a: Value, off: String, dt: Scalar) -> String {
        let data = self.vals[a.index()][0].op.clone();
        self.def(format!("getelementptr inbounds {}, ptr {data}, i64 {off}", elem_ty(dt)))
    }

    fn alloc_array(
        &mut self,
        space: AddressSpace,
        dt: Scalar,
        shape: &[i64],
        align: u32,
        span: Span,
    ) -> Result<Parts, PtxError> {
        let mt = elem_ty(dt);
        let dynamic = space == AddressSpace::Shared && shape.len() == 1 && shape[0] == 0;
        let mut parts = Vec::new();
        let count: i64 = shape.iter().product();
        if count < 0 || shape.iter().any(|&d| d < 0) || (count == 0 && !dynamic) {
            return Err(self.unsupported(format!("an array of shape {shape:?}"), span, "use positive dimensions"));
        }
        let bytes = count.saturating_mul(dt.size() as i64);
        if bytes > (1 << 30) {
            return Err(self.unsupported(
                format!("an array of {bytes} bytes"),
                span,
                "allocate it on the host and pass it in",
            ));
        }
        match space {
            AddressSpace::Shared if dynamic => {
                // One declaration for every dynamic shared array of the module, written at the
                // end with the largest alignment any of them asks for.
                self.m.dynshared_align = self.m.dynshared_align.max(align);
                let p = self.def("addrspacecast ptr addrspace(3) @__tj_dynshared to ptr");
                let sz = self.def("call i32 asm \"mov.u32 $0, %dynamic_smem_size;\", \"=r\"()");
                let sz64 = self.def(format!("zext i32 {sz} to i64"));
                let n = self.def(format!("udiv i64 {sz64}, {}", dt.size()));
                parts.push(Part { ty: "ptr", op: p });
                parts.push(Part { ty: "i64", op: n });
                parts.push(Part { ty: "i64", op: "1".into() });
                return Ok(parts);
            }
            AddressSpace::Shared => {
                let g = format!("@__tj_shared{}", self.m.globals.len());
                self.m
                    .globals
                    .push(format!("{g} = internal addrspace(3) global [{count} x {mt}] undef, align {align}"));
                let p = self.def(format!("addrspacecast ptr addrspace(3) {g} to ptr"));
                parts.push(Part { ty: "ptr", op: p });
            }
            AddressSpace::Local => {
                self.tmp += 1;
                let a = format!("%local{}", self.tmp);
                let _ = writeln!(self.allocas, "  {a} = alloca [{count} x {mt}], align {align}");
                self.m.declare("llvm.memset.p0.i64", "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)");
                self.line(format!("call void @llvm.memset.p0.i64(ptr {a}, i8 0, i64 {bytes}, i1 false)"));
                parts.push(Part { ty: "ptr", op: a });
            }
        }
        for d in shape {
            parts.push(Part { ty: "i64", op: d.to_string() });
        }
        for k in 0..shape.len() {
            let stride: i64 = shape[k + 1..].iter().product();
            parts.push(Part { ty: "i64", op: stride.to_string() });
        }
        Ok(parts)
    }

    /// A module-level array: a constant global in global memory (read through the generic
    /// pointer like any array; kernels never write it, inference refuses that), emitted once
    /// per module.
    fn const_array(&mut self, c: &std::sync::Arc<twinjit_ir::ConstArray>) -> Vec<Part> {
        let key = std::sync::Arc::as_ptr(c) as usize;
        let g = match self.m.const_arrays.get(&key) {
            Some(g) => g.clone(),
            None => {
                let g = format!("@__tj_const{}", self.m.const_arrays.len());
                let mt = elem_ty(c.dtype);
                let comp = c.dtype.component();
                // In memory a bool is a byte.
                let part = |p: &Const| match (p, comp) {
                    (Const::Bool(b), Scalar::Bool) => format!("i8 {}", u8::from(*b)),
                    (p, s) => format!("{} {}", mem_ty(s), const_op(*p, s)),
                };
                let parts = c.parts();
                let elems: Vec<String> = if c.dtype.is_complex() {
                    parts.chunks(2).map(|p| format!("{mt} [{}, {}]", part(&p[0]), part(&p[1]))).collect()
                } else {
                    parts.iter().map(part).collect()
                };
                let init =
                    if elems.is_empty() { "zeroinitializer".to_string() } else { format!("[{}]", elems.join(", ")) };
                self.m
                    .globals
                    .push(format!("{g} = internal addrspace(1) constant [{} x {mt}] {init}, align 16", elems.len()));
                self.m.const_arrays.insert(key, g.clone());
                g
            }
        };
        let p = self.def(format!("addrspacecast ptr addrspace(1) {g} to ptr"));
        let mut parts = vec![Part { ty: "ptr", op: p }];
        for d in c.shape.iter().chain(&c.strides()) {
            parts.push(Part { ty: "i64", op: d.to_string() });
        }
        parts
    }

    /// One piece of `print(...)` in a kernel: added to the pending printf format (numba-cuda's
    /// formats: `%lld`/`%llu` for integers, `%f` for floats, the text itself for strings);
    /// the piece that ends in the newline sends the whole line with one `vprintf`.
    fn print_piece(&mut self, h: Helper, args: &[Value], xs: &[Part], span: Span) -> Result<(), PtxError> {
        let konst = |me: &Self, v: Value| match me.f.def_inst(v).map(|d| &d.kind) {
            Some(InstKind::Const(Const::Int(k))) => Some(*k),
            _ => None,
        };
        match h {
            Helper::PrintBytes => {
                let (Some(bits), Some(n)) = (konst(self, args[0]), konst(self, args[1])) else {
                    return Err(self.internal("print_bytes of a non-constant"));
                };
                let bytes = bits.to_le_bytes();
                let text = String::from_utf8_lossy(&bytes[..n.clamp(0, 8) as usize]).into_owned();
                self.print_fmt.push_str(&text.replace('%', "%%"));
            }
            Helper::PrintInt => {
                self.print_fmt.push_str("%lld");
                self.print_args.push(("i64", xs[0].op.clone()));
            }
            Helper::PrintUInt => {
                self.print_fmt.push_str("%llu");
                self.print_args.push(("i64", xs[0].op.clone()));
            }
            Helper::PrintFloat => {
                self.print_fmt.push_str("%f");
                self.print_args.push(("double", xs[0].op.clone()));
            }
            Helper::PrintBool => {
                let (t, f) = (self.string_const("True"), self.string_const("False"));
                let v = self.def(format!("select i1 {}, ptr {t}, ptr {f}", xs[0].op));
                self.print_fmt.push_str("%s");
                self.print_args.push(("ptr", v));
            }
            _ => return Err(self.internal("not a print piece")),
        }
        let _ = span;
        if self.print_fmt.ends_with('\n') {
            let text = std::mem::take(&mut self.print_fmt);
            let fmt = self.string_const(&text);
            let args = std::mem::take(&mut self.print_args);
            self.m.declare("vprintf", "declare i32 @vprintf(ptr, ptr)");
            let buf = if args.is_empty() {
                "null".to_string()
            } else {
                // The arguments as printf takes them: 8-byte slots in order.
                self.tmp += 1;
                let buf = format!("%printbuf{}", self.tmp);
                let _ = writeln!(self.allocas, "  {buf} = alloca [{} x i64], align 8", args.len());
                for (k, (ty, op)) in args.iter().enumerate() {
                    let slot = self.def(format!("getelementptr inbounds i64, ptr {buf}, i64 {k}"));
                    self.line(format!("store {ty} {op}, ptr {slot}, align 8"));
                }
                buf
            };
            self.def(format!("call i32 @vprintf(ptr {fmt}, ptr {buf})"));
        }
        Ok(())
    }

    /// A NUL-terminated module constant holding `text` (one per distinct text).
    fn string_const(&mut self, text: &str) -> String {
        let mut esc = String::new();
        for b in text.bytes() {
            if (b.is_ascii_graphic() && b != b'"' && b != b'\\') || b == b' ' {
                esc.push(b as char);
            } else {
                esc.push_str(&format!("\\{b:02X}"));
            }
        }
        let mut h: u64 = 0xcbf29ce484222325;
        for b in text.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
        let name = format!("__tj_str_{h:016x}");
        let decl = format!("@{name} = private unnamed_addr constant [{} x i8] c\"{esc}\\00\", align 1", text.len() + 1);
        self.m.declare(&name, &decl);
        format!("@{name}")
    }

    fn call(&mut self, name: &str, args: &[Value], rty: &Type) -> Result<Parts, PtxError> {
        let slots = *self.m.ret_slots.get(name).ok_or_else(|| self.internal(format!("missing callee {name}")))?;
        self.tmp += 1;
        let buf = format!("%retbuf{}", self.tmp);
        let _ = writeln!(self.allocas, "  {buf} = alloca [{} x i64], align 8", slots.max(1));
        let mut argv = vec!["ptr %err".to_string(), format!("ptr {buf}")];
        for a in args {
            argv.extend(self.vals[a.index()].iter().map(|p| format!("{} {}", p.ty, p.op)));
        }
        let st = self.def(format!("call i32 {}({})", body_sym(name), argv.join(", ")));
        let bad = self.def(format!("icmp ne i32 {st}, 0"));
        let prop = self.fresh_label("prop");
        let cont = self.fresh_label("ret");
        self.line(format!("br i1 {bad}, label %{prop}, label %{cont}"));
        self.start_block(prop, None);
        self.error_exit(&st);
        self.start_block(cont, None);
        let mut out = Vec::new();
        for (k, ty) in part_types(rty).into_iter().enumerate() {
            let p = self.def(format!("getelementptr inbounds i64, ptr {buf}, i64 {k}"));
            let v = self.def(format!("load {ty}, ptr {p}, align 8"));
            out.push(Part { ty, op: v });
        }
        Ok(out)
    }

    fn cast(&mut self, x: &Part, from: Scalar, to: Scalar) -> String {
        use Scalar::*;
        if from == to {
            return x.op.clone();
        }
        let (xt, xo) = (x.ty, &x.op);
        let tt = reg_ty(to);
        let rzi = |me: &mut Self, dst: &str| {
            let (dt, dc) = if dst.ends_with("32") { ("i32", "r") } else { ("i64", "l") };
            let (src, sc) = if xt == "float" { ("f32", "f") } else { ("f64", "d") };
            me.def(format!("call {dt} asm \"cvt.rzi.{dst}.{src} $0, $1;\", \"={dc},{sc}\"({xt} {xo})"))
        };
        if from == Float16 && !matches!(to, Bool | Float32 | Float64) {
            // To an integer: through float32, which holds every float16 exactly.
            let w = self.def(format!("fpext half {xo} to float"));
            return self.cast(&Part { ty: "float", op: w }, Float32, to);
        }
        match (from, to) {
            (f, Bool) if f.is_float() => self.def(format!("fcmp une {xt} {xo}, 0.0")),
            // One rounding (cvt.rn.f16.f32 / .f64), as float16() of the value rounds.
            (Float16, Float32 | Float64) => self.def(format!("fpext half {xo} to {tt}")),
            (Float32 | Float64, Float16) => self.def(format!("fptrunc {xt} {xo} to half")),
            (_, Bool) => self.def(format!("icmp ne {xt} {xo}, 0")),
            (Bool, t) if t.is_int() => self.def(format!("zext i1 {xo} to {tt}")),
            (Bool, _) => self.def(format!("uitofp i1 {xo} to {tt}")),
            (Float32, Float64) => self.def(format!("fpext float {xo} to double")),
            (Float64, Float32) => self.def(format!("fptrunc double {xo} to float")),
            (f, t) if f.is_int() && t.is_float() => {
                let op = if f.is_unsigned() { "uitofp" } else { "sitofp" };
                self.def(format!("{op} {xt} {xo} to {tt}"))
            }
            (f, t) if f.is_int() && t.is_int() => match f.bits().cmp(&t.bits()) {
                std::cmp::Ordering::Less if f.is_signed() => self.def(format!("sext {xt} {xo} to {tt}")),
                std::cmp::Ordering::Less => self.def(format!("zext {xt} {xo} to {tt}")),
                std::cmp::Ordering::Greater => self.def(format!("trunc {xt} {xo} to {tt}")),
                std::cmp::Ordering::Equal => xo.clone(),
            },
            // PTX's `cvt.rzi` truncates, saturates and turns NaN into 0: exactly the IR's
            // cast. (`llvm.fptosi.sat` would be expanded into compares and selects around
            // the same instruction.) Pure inline asm, so LLVM may still CSE and hoist it.
            (_, Int32) => rzi(self, "s32"),
            (_, Int64) => rzi(self, "s64"),
            (_, UInt64) => {
                let s = rzi(self, "s64");
                let u = rzi(self, "u64");
                let nonneg = self.def(format!("fcmp oge {xt} {xo}, 0.0"));
                self.def(format!("select i1 {nonneg}, i64 {u}, i64 {s}"))
            }
            (_, t) if t.is_int() => {
                let w = rzi(self, "s64");
                self.def(format!("trunc i64 {w} to {tt}"))
            }
            _ => xo.clone(),
        }
    }

    fn fmath_flags(&self) -> &'static str {
        // Contraction is decided by `contract::plan` (NVVM's policy), not left to LLVM.
        if self.m.options.fastmath {
            "fast "
        } else {
            ""
        }
    }

    fn binary(&mut self, op: BinaryOp, a: Value, c: Value, span: Span) -> Result<String, PtxError> {
        let (x, y) = (self.one_part(a), self.one_part(c));
        let s = self.scalar(a);
        let t = x.ty;
        if s.is_float() {
            let fl = self.fmath_flags();
            return Ok(match op {
                BinaryOp::Add => self.def(format!("fadd {fl}{t} {}, {}", x.op, y.op)),
                BinaryOp::Sub => self.def(format!("fsub {fl}{t} {}, {}", x.op, y.op)),
                BinaryOp::Mul => self.def(format!("fmul {fl}{t} {}, {}", x.op, y.op)),
                BinaryOp::Div => self.def(format!("fdiv {t} {}, {}", x.op, y.op)),
                BinaryOp::FloorDiv | BinaryOp::Mod => {
                    let h = if t == "float" { "__tj_divmod_f32" } else { "__tj_divmod_f64" };
                    self.m.use_helper(h);
                    let pair = self.def(format!("call {{ {t}, {t} }} @{h}({t} {}, {t} {})", x.op, y.op));
                    let k = if op == BinaryOp::FloorDiv { 0 } else { 1 };
                    self.def(format!("extractvalue {{ {t}, {t} }} {pair}, {k}"))
                }
                BinaryOp::Pow if self.scalar(c).is_int() => {
                    let h = if t == "float" { "__tj_powi_f32" } else { "__tj_powi_f64" };
                    self.pow_by_int(&x, &y, c, span, h)
                }
                BinaryOp::Pow => {
                    let f = if t == "float" { "__nv_powf" } else { "__nv_pow" };
                    self.libdevice_call(f, t, &[&x.op, &y.op])
                }
                _ => return Err(self.internal(format!("{} on floats", op.name()))),
            });
        }
        if s == Scalar::Bool {
            let o = match op {
                BinaryOp::BitAnd => "and",
                BinaryOp::BitOr => "or",
                BinaryOp::BitXor => "xor",
                _ => return Err(self.internal(format!("{} on bools", op.name()))),
            };
            return Ok(self.def(format!("{o} i1 {}, {}", x.op, y.op)));
        }
        // Integers: narrower operations other than the wrapping ones are done in i64 (extended
        // by the type's signedness) and truncated, exactly as the interpreter does.
        let unsigned = s.is_unsigned();
        let wide = |me: &mut Self, p: &Part| {
            if p.ty == "i64" {
                p.op.clone()
            } else {
                let ext = if unsigned { "zext" } else { "sext" };
                me.def(format!("{ext} {} {} to i64", p.ty, p.op))
            }
        };
        let narrow = |me: &mut Self, v: String| if t == "i64" { v } else { me.def(format!("trunc i64 {v} to {t}")) };
        if unsigned {
            match op {
                BinaryOp::Div => {
                    let fx = self.def(format!("uitofp {t} {} to double", x.op));
                    let fy = self.def(format!("uitofp {t} {} to double", y.op));
                    return Ok(self.def(format!("fdiv double {fx}, {fy}")));
                }
                BinaryOp::FloorDiv | BinaryOp::Mod => {
                    // A zero divisor gives 0 (the IR's raw semantics), never LLVM's poison.
                    let z = self.def(format!("icmp eq {t} {}, 0", y.op));
                    let safe = self.def(format!("select i1 {z}, {t} 1, {t} {}", y.op));
                    let o = if op == BinaryOp::FloorDiv { "udiv" } else { "urem" };
                    let r = self.def(format!("{o} {t} {}, {safe}", x.op));
                    return Ok(self.def(format!("select i1 {z}, {t} 0, {t} {r}")));
                }
                BinaryOp::Shr => {
                    let (wx, wy) = (wide(self, &x), wide(self, &y));
                    let inr = self.def(format!("icmp ult i64 {wy}, 64"));
                    let safe = self.def(format!("select i1 {inr}, i64 {wy}, i64 0"));
                    let sh = self.def(format!("lshr i64 {wx}, {safe}"));
                    let r = self.def(format!("select i1 {inr}, i64 {sh}, i64 0"));
                    return Ok(narrow(self, r));
                }
                _ => {}
            }
        }
        Ok(match op {
            BinaryOp::Add => self.def(format!("add {t} {}, {}", x.op, y.op)),
            BinaryOp::Sub => self.def(format!("sub {t} {}, {}", x.op, y.op)),
            BinaryOp::Mul => self.def(format!("mul {t} {}, {}", x.op, y.op)),
            BinaryOp::BitAnd => self.def(format!("and {t} {}, {}", x.op, y.op)),
            BinaryOp::BitOr => self.def(format!("or {t} {}, {}", x.op, y.op)),
            BinaryOp::BitXor => self.def(format!("xor {t} {}, {}", x.op, y.op)),
            BinaryOp::Div => {
                let fx = self.def(format!("sitofp {t} {} to double", x.op));
                let fy = self.def(format!("sitofp {t} {} to double", y.op));
                self.def(format!("fdiv double {fx}, {fy}"))
            }
            BinaryOp::FloorDiv | BinaryOp::Mod => {
                let h = if op == BinaryOp::FloorDiv { "__tj_floordiv_i64" } else { "__tj_mod_i64" };
                self.m.use_helper(h);
                let (wx, wy) = (wide(self, &x), wide(self, &y));
                let r = self.def(format!("call i64 @{h}(i64 {wx}, i64 {wy})"));
                narrow(self, r)
            }
            BinaryOp::Pow => {
                let (wx, wy) = (wide(self, &x), wide(self, &y));
                let r =
                    self.pow_by_int(&Part { ty: "i64", op: wx }, &Part { ty: "i64", op: wy }, c, span, "__tj_powi_i64");
                narrow(self, r)
            }
            BinaryOp::Shl | BinaryOp::Shr => {
                let (wx, wy) = (wide(self, &x), wide(self, &y));
                let inr = self.def(format!("icmp ult i64 {wy}, 64"));
                let safe = self.def(format!("select i1 {inr}, i64 {wy}, i64 63"));
                let r = if op == BinaryOp::Shl {
                    let sh = self.def(format!("shl i64 {wx}, {safe}"));
                    self.def(format!("select i1 {inr}, i64 {sh}, i64 0"))
                } else {
                    self.def(format!("ashr i64 {wx}, {safe}"))
                };
                narrow(self, r)
            }
        })
    }

    /// `x ** y` with an int64 exponent: `0 ** negative` raises; constant exponents 0..=64 are
    /// unrolled with the interpreter's square-and-multiply sequence.
    fn pow_by_int(&mut self, x: &Part, y: &Part, c: Value, span: Span, helper: &'static str) -> String {
        let t = x.ty;
        let float = t != "i64" && t != "i32";
        let base0 = if float {
            self.def(format!("fcmp oeq {t} {}, 0.0", x.op))
        } else {
            self.def(format!("icmp eq {t} {}, 0", x.op))
        };
        let neg = self.def(format!("icmp slt i64 {}, 0", y.op));
        let bad = self.def(format!("and i1 {base0}, {neg}"));
        self.raise_if(&bad, ErrorCode::ZeroDivision, span, "0", "0", 0);
        let konst = match self.f.def_inst(c).map(|d| &d.kind) {
            Some(InstKind::Const(Const::Int(k))) if (0..=64).contains(k) => Some(*k as u64),
            _ => None,
        };
        let Some(mut e) = konst else {
            self.m.use_helper(helper);
            return self.def(format!("call {t} @{helper}({t} {}, i64 {})", x.op, y.op));
        };
        let mul = if float { "fmul" } else { "mul" };
        let mut r: Option<String> = None;
        let mut base = x.op.clone();
        while e != 0 {
            if e & 1 == 1 {
                r = Some(match r {
                    None => base.clone(),
                    Some(r) => self.def(format!("{mul} {t} {r}, {base}")),
                });
            }
            e >>= 1;
            if e != 0 {
                base = self.def(format!("{mul} {t} {base}, {base}"));
            }
        }
        r.unwrap_or_else(|| if float { float_lit(1.0) } else { "1".into() })
    }

    fn libdevice_call(&mut self, f: &str, t: &str, args: &[&str]) -> String {
        let params = vec![t; args.len()].join(", ");
        self.m.declare(f, &format!("declare {t} @{f}({params})"));
        let a: Vec<String> = args.iter().map(|x| format!("{t} {x}")).collect();
        self.def(format!("call {t} @{f}({})", a.join(", ")))
    }

    fn intrinsic(&mut self, name: &str, t: &str, args: &[&str]) -> String {
        let full = format!("llvm.{name}.{}", fsuffix(t));
        let params = vec![t; args.len()].join(", ");
        self.m.declare(&full, &format!("declare {t} @{full}({params})"));
        let a: Vec<String> = args.iter().map(|x| format!("{t} {x}")).collect();
        self.def(format!("call {t} @{full}({})", a.join(", ")))
    }

    /// `llvm.NAME.iN(args)` of integers of type `t`.
    fn int_intrinsic(&mut self, name: &str, t: &str, args: &[&str]) -> String {
        let full = format!("llvm.{name}.{t}");
        let params = vec![t; args.len()].join(", ");
        self.m.declare(&full, &format!("declare {t} @{full}({params})"));
        let a: Vec<String> = args.iter().map(|x| format!("{t} {x}")).collect();
        self.def(format!("call {t} @{full}({})", a.join(", ")))
    }

    /// An integer of LLVM type `t` as an i32 (zero-extended or truncated).
    fn int_to_i32(&mut self, x: &str, t: &str) -> String {
        match t {
            "i32" => x.to_string(),
            "i64" => self.def(format!("trunc i64 {x} to i32")),
            _ => self.def(format!("zext {t} {x} to i32")),
        }
    }

    fn i64_sreg(&mut self, reg: &str) -> String {
        let call = self.m.sreg(reg);
        let v = self.def(call);
        self.def(format!("zext i32 {v} to i64"))
    }

    fn builtin(&mut self, bi: Builtin, args: &[Value], rty: &Type, span: Span) -> Result<Parts, PtxError> {
        let xs: Vec<Part> = args
            .iter()
            .map(|a| self.vals[a.index()].first().cloned().unwrap_or(Part { ty: "i64", op: "0".into() }))
            .collect();
        let math = match bi.info().lowering {
            Lowering::Intrinsic(i) => i != Intrinsic::SameAddress,
            Lowering::Libm(_) => true,
            _ => false,
        };
        if math && xs.iter().any(|p| p.ty == "half") {
            // float16 math in float32, rounded once (what `cuda_fp16.h` does, and the
            // interpreter): exact for the rounding functions, correctly rounded for sqrt.
            let wide: Vec<Part> = xs
                .iter()
                .map(|p| match p.ty {
                    "half" => Part { ty: "float", op: self.def(format!("fpext half {} to float", p.op)) },
                    _ => p.clone(),
                })
                .collect();
            let half_out = rty.scalar() == Some(Scalar::Float16);
            let wty = if half_out { Type::F32 } else { rty.clone() };
            let mut r = self.builtin_parts(bi, args, wide, &wty, span)?;
            if half_out {
                if let Some(p) = r.first_mut() {
                    *p = Part { ty: "half", op: self.def(format!("fptrunc float {} to half", p.op)) };
                }
            }
            return Ok(r);
        }
        self.builtin_parts(bi, args, xs, rty, span)
    }

    /// [`Self::builtin`] on the first parts `xs` of `args`.
    fn builtin_parts(
        &mut self,
        bi: Builtin,
        args: &[Value],
        xs: Vec<Part>,
        rty: &Type,
        span: Span,
    ) -> Result<Parts, PtxError> {
        let one = |ty: &'static str, op: String| Ok(vec![Part { ty, op }]);
        let t = xs.first().map(|p| p.ty).unwrap_or("double");
        match bi.info().lowering {
            Lowering::Intrinsic(i) => match i {
                Intrinsic::Sqrt => one(t, self.intrinsic("sqrt", t, &[&xs[0].op])),
                Intrinsic::Fabs => one(t, self.intrinsic("fabs", t, &[&xs[0].op])),
                Intrinsic::Floor => one(t, self.intrinsic("floor", t, &[&xs[0].op])),
                Intrinsic::Ceil => one(t, self.intrinsic("ceil", t, &[&xs[0].op])),
                Intrinsic::Trunc => one(t, self.intrinsic("trunc", t, &[&xs[0].op])),
                Intrinsic::Rint => one(t, self.intrinsic("rint", t, &[&xs[0].op])),
                Intrinsic::Copysign => one(t, self.intrinsic("copysign", t, &[&xs[0].op, &xs[1].op])),
                Intrinsic::IsNan => one("i1", self.def(format!("fcmp uno {t} {}, {}", xs[0].op, xs[0].op))),
                Intrinsic::SameAddress => {
                    one("i1", self.def(format!("icmp eq {} {}, {}", xs[0].ty, xs[0].op, xs[1].op)))
                }
                Intrinsic::IsInf | Intrinsic::IsFinite => {
                    let a = self.intrinsic("fabs", t, &[&xs[0].op]);
                    let inf = float_lit(f64::INFINITY);
                    let pred = if i == Intrinsic::IsInf { "oeq" } else { "olt" };
                    one("i1", self.def(format!("fcmp {pred} {t} {a}, {inf}")))
                }
            },
            Lowering::Libm(m) => {
                let f = m.libdevice(t == "float");
                let params: Vec<&str> = xs.iter().map(|p| p.ty).collect();
                self.m.declare(&f, &format!("declare {t} @{f}({})", params.join(", ")));
                let a: Vec<String> = xs.iter().map(|p| format!("{} {}", p.ty, p.op)).collect();
                one(t, self.def(format!("call {t} @{f}({})", a.join(", "))))
            }
            Lowering::Helper(h) => {
                let f32 = t == "float";
                let (name, rt): (&'static str, &'static str) = match h {
                    Helper::Gcd => ("__tj_gcd_i64", "i64"),
                    // A GPU thread runs a host function's parallel loops alone.
                    Helper::GetNumThreads => return Ok(vec![Part { ty: "i64", op: "1".into() }]),
                    Helper::SetNumThreads | Helper::ThreadId => return Ok(vec![Part { ty: "i64", op: "0".into() }]),
                    Helper::FrexpMantissa if f32 => ("__tj_frexp_mantissa_f32", t),
                    Helper::FrexpMantissa => ("__tj_frexp_mantissa_f64", t),
                    Helper::FrexpExponent if f32 => ("__tj_frexp_exponent_f32", "i32"),
                    Helper::FrexpExponent => ("__tj_frexp_exponent_f64", "i32"),
                    Helper::Gemm => {
                        return Err(self.unsupported(bi.name(), span, "matrix products use loops in kernels"))
                    }
                    Helper::PrintComplex => {
                        return Err(self.unsupported(
                            "print() of a complex number",
                            span,
                            "numba-cuda cannot print complex numbers either; print z.real and z.imag",
                        ))
                    }
                    // `Helper::draws_host_random`, spelled out for the exhaustive match.
                    Helper::RandomSeed
                    | Helper::RandomDouble
                    | Helper::RandomGauss
                    | Helper::RandomBelow
                    | Helper::PyRandomInt
                    | Helper::PyRandomFloat => {
                        let (what, hint) = twinjit_ir::builtins::HOST_RANDOM_IN_KERNEL;
                        return Err(self.unsupported(what, span, hint));
                    }
                    Helper::PrintBytes
                    | Helper::PrintInt
                    | Helper::PrintUInt
                    | Helper::PrintFloat
                    | Helper::PrintBool => {
                        self.print_piece(h, args, &xs, span)?;
                        return one("i64", "0".into());
                    }
                };
                self.m.use_helper(name);
                let a: Vec<String> = xs.iter().map(|p| format!("{} {}", p.ty, p.op)).collect();
                one(rt, self.def(format!("call {rt} @{name}({})", a.join(", "))))
            }
            Lowering::Rewritten => Err(self.unsupported(bi.name(), span, "rewritten before the backend")),
            Lowering::Kernel(k) => self.kernel_op(k, bi, args, &xs, rty, span),
        }
    }

    fn kernel_op(
        &mut self,
        k: KernelOp,
        bi: Builtin,
        args: &[Value],
        xs: &[Part],
        rty: &Type,
        span: Span,
    ) -> Result<Parts, PtxError> {
        let one = |ty: &'static str, op: String| Ok(vec![Part { ty, op }]);
        let t = xs.first().map(|p| p.ty).unwrap_or("double");
        match k {
            KernelOp::Grid | KernelOp::Gridsize => {
                let n = match args.first().and_then(|a| self.f.def_inst(*a)).map(|d| &d.kind) {
                    Some(InstKind::Const(Const::Int(n))) if (1..=3).contains(n) => *n as usize,
                    _ => return Err(self.internal("cuda.grid without a constant dimension")),
                };
                let mut out = Vec::new();
                for axis in ["x", "y", "z"].iter().take(n) {
                    let v = if k == KernelOp::Grid {
                        let tid = self.i64_sreg(&format!("tid.{axis}"));
                        let bid = self.i64_sreg(&format!("ctaid.{axis}"));
                        let bdim = self.i64_sreg(&format!("ntid.{axis}"));
                        let m = self.def(format!("mul nuw nsw i64 {bid}, {bdim}"));
                        self.def(format!("add nuw nsw i64 {m}, {tid}"))
                    } else {
                        let bdim = self.i64_sreg(&format!("ntid.{axis}"));
                        let gdim = self.i64_sreg(&format!("nctaid.{axis}"));
                        self.def(format!("mul nuw nsw i64 {bdim}, {gdim}"))
                    };
                    out.push(Part { ty: "i64", op: v });
                }
                Ok(out)
            }
            KernelOp::Register(r) => {
                let axis = |k: u8| ["x", "y", "z"][k as usize % 3];
                let reg = match r {
                    Register::ThreadIdx(k) => format!("tid.{}", axis(k)),
                    Register::BlockIdx(k) => format!("ctaid.{}", axis(k)),
                    Register::BlockDim(k) => format!("ntid.{}", axis(k)),
                    Register::GridDim(k) => format!("nctaid.{}", axis(k)),
                    Register::LaneId => "laneid".into(),
                    Register::WarpSize => "warpsize".into(),
                };
                let call = self.m.sreg(&reg);
                one("i32", self.def(call))
            }
            KernelOp::Barrier => {
                self.m.declare("llvm.nvvm.barrier0", "declare void @llvm.nvvm.barrier0()");
                self.line("call void @llvm.nvvm.barrier0()");
                Ok(Vec::new())
            }
            KernelOp::BarrierReduce(r) => {
                let name = match r {
                    BarrierReduce::Count => "llvm.nvvm.barrier0.popc",
                    BarrierReduce::And => "llvm.nvvm.barrier0.and",
                    BarrierReduce::Or => "llvm.nvvm.barrier0.or",
                };
                self.m.declare(name, &format!("declare i32 @{name}(i32)"));
                let s = self.scalar(args[0]);
                let p = self.cast(&xs[0], s, Scalar::Bool);
                let p32 = self.def(format!("zext i1 {p} to i32"));
                one("i32", self.def(format!("call i32 @{name}(i32 {p32})")))
            }
            KernelOp::ThisGrid => Ok(Vec::new()),
            KernelOp::GridSync => {
                self.grid_sync();
                Ok(Vec::new())
            }
            KernelOp::ThreadFence => {
                self.m.declare("llvm.nvvm.membar.gl", "declare void @llvm.nvvm.membar.gl()");
                self.line("call void @llvm.nvvm.membar.gl()");
                Ok(Vec::new())
            }
            KernelOp::ActiveMask => {
                let m = self.def("call i32 asm sideeffect \"activemask.b32 $0;\", \"=r\"()");
                one("i64", self.def(format!("zext i32 {m} to i64")))
            }
            KernelOp::ThreadFenceBlock | KernelOp::ThreadFenceSystem => {
                let name =
                    if k == KernelOp::ThreadFenceBlock { "llvm.nvvm.membar.cta" } else { "llvm.nvvm.membar.sys" };
                self.m.declare(name, &format!("declare void @{name}()"));
                self.line(format!("call void @{name}()"));
                Ok(Vec::new())
            }
            KernelOp::NanoSleep => {
                let ns = self.cast_to_i32(&xs[0], self.scalar(args[0]));
                self.line(format!("call void asm sideeffect \"nanosleep.u32 $0;\", \"r\"(i32 {ns})"));
                Ok(Vec::new())
            }
            KernelOp::SyncWarp => {
                let mask = match xs.first() {
                    Some(m) => self.cast_to_i32(m, self.scalar(args[0])),
                    None => "-1".to_string(),
                };
                self.m.declare("llvm.nvvm.bar.warp.sync", "declare void @llvm.nvvm.bar.warp.sync(i32)");
                self.line(format!("call void @llvm.nvvm.bar.warp.sync(i32 {mask})"));
                Ok(Vec::new())
            }
            KernelOp::LaneMaskLt => one("i32", self.def("call i32 asm \"mov.u32 $0, %lanemask_lt;\", \"=r\"()")),
            KernelOp::Bits(op) => {
                let x = &xs[0];
                let it = x.ty;
                let r = match op {
                    BitOp::Popc => self.int_intrinsic("ctpop", it, &[&x.op]),
                    BitOp::Brev => self.int_intrinsic("bitreverse", it, &[&x.op]),
                    BitOp::Clz | BitOp::Ffs => {
                        let name = if op == BitOp::Clz { "ctlz" } else { "cttz" };
                        let full = format!("llvm.{name}.{it}");
                        self.m.declare(&full, &format!("declare {it} @{full}({it}, i1)"));
                        let c = self.def(format!("call {it} @{full}({it} {}, i1 false)", x.op));
                        if op == BitOp::Clz {
                            c
                        } else {
                            // ffs: one plus the trailing zeros, 0 for 0 (as a uint32).
                            let plus = self.def(format!("add {it} {c}, 1"));
                            let zero = self.def(format!("icmp eq {it} {}, 0", x.op));
                            let f = self.def(format!("select i1 {zero}, {it} 0, {it} {plus}"));
                            return one("i32", self.int_to_i32(&f, it));
                        }
                    }
                };
                one(it, r)
            }
            KernelOp::Vote(v @ (VoteOp::MatchAny | VoteOp::MatchAll)) => {
                let mask = self.cast_to_i32(&xs[0], self.scalar(args[0]));
                // Equal values stay equal widened or reinterpreted: ints to i32 (i64 for the
                // 64-bit ones), floats by their bits.
                let s = self.scalar(args[1]);
                let (it, x) = match s {
                    Scalar::Float32 => ("i32", self.def(format!("bitcast float {} to i32", xs[1].op))),
                    Scalar::Float64 => ("i64", self.def(format!("bitcast double {} to i64", xs[1].op))),
                    Scalar::Int64 | Scalar::UInt64 => ("i64", xs[1].op.clone()),
                    _ => ("i32", self.cast_to_i32(&xs[1], s)),
                };
                if v == VoteOp::MatchAny {
                    let name = format!("llvm.nvvm.match.any.sync.{it}");
                    self.m.declare(&name, &format!("declare i32 @{name}(i32, {it})"));
                    one("i32", self.def(format!("call i32 @{name}(i32 {mask}, {it} {x})")))
                } else {
                    let name = format!("llvm.nvvm.match.all.sync.{it}p");
                    self.m.declare(&name, &format!("declare {{ i32, i1 }} @{name}(i32, {it})"));
                    let pair = self.def(format!("call {{ i32, i1 }} @{name}(i32 {mask}, {it} {x})"));
                    let m = self.def(format!("extractvalue {{ i32, i1 }} {pair}, 0"));
                    let p = self.def(format!("extractvalue {{ i32, i1 }} {pair}, 1"));
                    Ok(vec![Part { ty: "i32", op: m }, Part { ty: "i1", op: p }])
                }
            }
            KernelOp::Vote(v) => {
                let mask = self.cast_to_i32(&xs[0], self.scalar(args[0]));
                let p = self.cast(&xs[1], self.scalar(args[1]), Scalar::Bool);
                let (name, ret) = match v {
                    VoteOp::All => ("llvm.nvvm.vote.all.sync", "i1"),
                    VoteOp::Any => ("llvm.nvvm.vote.any.sync", "i1"),
                    VoteOp::Eq => ("llvm.nvvm.vote.uni.sync", "i1"),
                    VoteOp::Ballot => ("llvm.nvvm.vote.ballot.sync", "i32"),
                    VoteOp::MatchAny | VoteOp::MatchAll => unreachable!("matched above"),
                };
                self.m.declare(name, &format!("declare {ret} @{name}(i32, i1)"));
                one(ret, self.def(format!("call {ret} @{name}(i32 {mask}, i1 {p})")))
            }
            KernelOp::Fma => one(t, self.intrinsic("fma", t, &[&xs[0].op, &xs[1].op, &xs[2].op])),
            KernelOp::Select => {
                let c = self.cast(&xs[0], self.scalar(args[0]), Scalar::Bool);
                let parts = self.vals[args[1].index()].clone();
                let other = self.vals[args[2].index()].clone();
                let mut out = Vec::new();
                for (a, b) in parts.iter().zip(&other) {
                    out.push(Part {
                        ty: a.ty,
                        op: self.def(format!("select i1 {c}, {} {}, {} {}", a.ty, a.op, b.ty, b.op)),
                    });
                }
                Ok(out)
            }
            KernelOp::Atomic(op) => self.atomic(bi, op, args, span),
            KernelOp::Shuffle(kind) => self.shuffle(bi, kind, args, rty, span),
            KernelOp::CacheLoad(hint) => self.cache_op(hint, args, true),
            KernelOp::CacheStore(hint) => self.cache_op(hint, args, false),
        }
    }

    /// `cuda.ldcg(a, i)` / `cuda.stcg(a, i, v)` ...: `ld.global.cg.bN` / `st.global.cg.bN` on
    /// the element (inline PTX, as numba-cuda emits it; `expand_indexing` left `(array, element
    /// offset[, value])`). The asm clobbers memory, so LLVM keeps it in order with the kernel's
    /// other loads and stores. An 8-bit element travels in a 16-bit register.
    fn cache_op(&mut self, hint: CacheHint, args: &[Value], load: bool) -> Result<Parts, PtxError> {
        let Some(dt) = self.f.ty(args[0]).array().map(|t| t.dtype) else {
            return Err(self.internal("a cache-hinted access of a non-array"));
        };
        let p = self.element_ptr(args[0], self.one(args[1]).to_string(), dt);
        let bits = dt.size() * 8;
        let (it, c) = match bits {
            8 | 16 => ("i16", "h"),
            32 => ("i32", "r"),
            _ => ("i64", "l"),
        };
        let h = hint.ptx();
        if load {
            let raw = self.def(format!(
                "call {it} asm sideeffect \"ld.global.{h}.b{bits} $0, [$1];\", \"={c},l,~{{memory}}\"(ptr {p})"
            ));
            let v = if bits == 8 {
                self.def(format!("trunc i16 {raw} to i8"))
            } else if dt.is_float() {
                self.def(format!("bitcast {it} {raw} to {}", reg_ty(dt)))
            } else {
                raw
            };
            return Ok(vec![Part { ty: reg_ty(dt), op: v }]);
        }
        let x = self.one(args[2]).to_string();
        let raw = if bits == 8 {
            self.def(format!("zext i8 {x} to i16"))
        } else if dt.is_float() {
            self.def(format!("bitcast {} {x} to {it}", reg_ty(dt)))
        } else {
            x
        };
        self.line(format!(
            "call void asm sideeffect \"st.global.{h}.b{bits} [$0], $1;\", \"l,{c},~{{memory}}\"(ptr {p}, {it} {raw})"
        ));
        Ok(Vec::new())
    }

    /// Address of `a[idx]` for atomics (`idx` an integer or a tuple of integers).
    fn indexed_ptr(&mut self, a: Value, idx: Value, dt: Scalar) -> String {
        let nd = self.f.ty(a).array().map(|t| t.ndim as usize).unwrap_or(1);
        let idx_parts = self.vals[idx.index()].clone();
        let arr = self.vals[a.index()].clone();
        let mut off: Option<String> = None;
        for (k, ip) in idx_parts.iter().enumerate().take(nd) {
            let raw = if ip.ty == "i32" { self.def(format!("sext i32 {} to i64", ip.op)) } else { ip.op.clone() };
            // Negative indices wrap, as in numba-cuda's atomics.
            let neg = self.def(format!("icmp slt i64 {raw}, 0"));
            let wrapped = self.def(format!("add i64 {raw}, {}", arr[1 + k].op));
            let i64v = self.def(format!("select i1 {neg}, i64 {wrapped}, i64 {raw}"));
            let term = self.def(format!("mul i64 {i64v}, {}", arr[1 + nd + k].op));
            off = Some(match off {
                None => term,
                Some(o) => self.def(format!("add i64 {o}, {term}")),
            });
        }
        self.element_ptr(a, off.unwrap_or_else(|| "0".into()), dt)
    }

    fn atomic(&mut self, bi: Builtin, aop: AtomicOp, args: &[Value], span: Span) -> Result<Parts, PtxError> {
        let Some(dt) = self.f.ty(args[0]).array().map(|t| t.dtype) else {
            return Err(self.internal("atomic on a non-array"));
        };
        if dt == Scalar::Bool {
            return Err(self.unsupported(format!("{} on a bool array", bi.name()), span, "use an int32 array"));
        }
        let t = reg_ty(dt);
        let float = dt.is_float();
        let p = self.indexed_ptr(args[0], args[1], dt);
        let v = self.one(args[2]).to_string();
        if aop == AtomicOp::Cas {
            let new = self.one(args[3]).to_string();
            let it = if dt.size() == 4 { "i32" } else { "i64" };
            let (o, n) = if float {
                (self.def(format!("bitcast {t} {v} to {it}")), self.def(format!("bitcast {t} {new} to {it}")))
            } else {
                (v, new)
            };
            let pair = self.def(format!("cmpxchg ptr {p}, {it} {o}, {it} {n} monotonic monotonic"));
            let old = self.def(format!("extractvalue {{ {it}, i1 }} {pair}, 0"));
            let r = if float { self.def(format!("bitcast {it} {old} to {t}")) } else { old };
            return Ok(vec![Part { ty: t, op: r }]);
        }
        if float && matches!(aop, AtomicOp::Max | AtomicOp::Min | AtomicOp::NanMax | AtomicOp::NanMin) {
            return Ok(vec![Part { ty: t, op: self.float_minmax_loop(aop, t, &p, &v) }]);
        }
        if matches!(aop, AtomicOp::Inc | AtomicOp::Dec) && dt == Scalar::UInt32 {
            // PTX's own `atom.inc/dec.u32` (LLVM 19 would expand `uinc_wrap` into a CAS loop).
            let ins = if aop == AtomicOp::Inc { "inc" } else { "dec" };
            let r = self.def(format!(
                "call i32 asm sideeffect \"atom.{ins}.u32 $0, [$1], $2;\", \"=r,l,r,~{{memory}}\"(ptr {p}, i32 {v})"
            ));
            return Ok(vec![Part { ty: t, op: r }]);
        }
        let op = match (aop, float) {
            (AtomicOp::Add, false) => "add",
            (AtomicOp::Add, true) => "fadd",
            (AtomicOp::Sub, false) => "sub",
            (AtomicOp::Sub, true) => "fsub",
            (AtomicOp::Max | AtomicOp::NanMax, _) if dt.is_unsigned() => "umax",
            (AtomicOp::Max | AtomicOp::NanMax, _) => "max",
            (AtomicOp::Min | AtomicOp::NanMin, _) if dt.is_unsigned() => "umin",
            (AtomicOp::Min | AtomicOp::NanMin, _) => "min",
            (AtomicOp::Exch, _) => "xchg",
            (AtomicOp::And, _) => "and",
            (AtomicOp::Or, _) => "or",
            (AtomicOp::Xor, _) => "xor",
            (AtomicOp::Inc, _) => "uinc_wrap",
            (AtomicOp::Dec, _) => "udec_wrap",
            (AtomicOp::Cas, _) => unreachable!("handled above"),
        };
        let r = self.def(format!("atomicrmw {op} ptr {p}, {t} {v} monotonic, align {}", dt.size()));
        Ok(vec![Part { ty: t, op: r }])
    }

    /// `g.sync()`: a grid-wide barrier on a counter in global memory ([`crate::GRID_BARRIER`]),
    /// the algorithm CUDA's cooperative groups use: the block meets at `bar.sync`; its thread 0
    /// adds 1 (block 0 adds `0x80000000 - (blocks - 1)`) after a fence, so once every block has
    /// arrived the counter's top bit has flipped and its low bits are back where they were
    /// (the barrier is reusable, launch after launch); it spins on a volatile load until it sees
    /// the flip, fences, and the block meets again. Every block must be resident at once: the
    /// launch is cooperative (`twinjit_cuda`), and a grid larger than the device can hold is
    /// refused before it starts.
    fn grid_sync(&mut self) {
        let g = crate::GRID_BARRIER;
        self.m.declare(g, &format!("@{g} = internal addrspace(1) global i32 0, align 4"));
        self.m.declare("llvm.nvvm.barrier0", "declare void @llvm.nvvm.barrier0()");
        self.m.declare("llvm.nvvm.membar.gl", "declare void @llvm.nvvm.membar.gl()");
        self.line("call void @llvm.nvvm.barrier0()");
        let sreg = |me: &mut Self, r: &str| {
            let call = me.m.sreg(r);
            me.def(call)
        };
        let (tx, ty, tz) = (sreg(self, "tid.x"), sreg(self, "tid.y"), sreg(self, "tid.z"));
        let t01 = self.def(format!("or i32 {tx}, {ty}"));
        let t = self.def(format!("or i32 {t01}, {tz}"));
        let leader = self.def(format!("icmp eq i32 {t}, 0"));
        let arrive = self.fresh_label("gsync_arrive");
        let spin = self.fresh_label("gsync_spin");
        let out = self.fresh_label("gsync_out");
        let done = self.fresh_label("gsync_done");
        self.line(format!("br i1 {leader}, label %{arrive}, label %{done}"));
        self.start_block(arrive, None);
        let (nx, ny, nz) = (sreg(self, "nctaid.x"), sreg(self, "nctaid.y"), sreg(self, "nctaid.z"));
        let nxy = self.def(format!("mul i32 {nx}, {ny}"));
        let blocks = self.def(format!("mul i32 {nxy}, {nz}"));
        let (bx, by, bz) = (sreg(self, "ctaid.x"), sreg(self, "ctaid.y"), sreg(self, "ctaid.z"));
        let b01 = self.def(format!("or i32 {bx}, {by}"));
        let b = self.def(format!("or i32 {b01}, {bz}"));
        let first = self.def(format!("icmp eq i32 {b}, 0"));
        let others = self.def(format!("sub i32 {blocks}, 1"));
        let flip = self.def(format!("sub i32 -2147483648, {others}"));
        let add = self.def(format!("select i1 {first}, i32 {flip}, i32 1"));
        self.line("call void @llvm.nvvm.membar.gl()");
        let old = self.def(format!("atomicrmw add ptr addrspace(1) @{g}, i32 {add} monotonic, align 4"));
        self.line(format!("br label %{spin}"));
        self.start_block(spin.clone(), None);
        let now = self.def(format!("load volatile i32, ptr addrspace(1) @{g}, align 4"));
        let x = self.def(format!("xor i32 {old}, {now}"));
        let top = self.def(format!("and i32 {x}, -2147483648"));
        let waiting = self.def(format!("icmp eq i32 {top}, 0"));
        self.line(format!("br i1 {waiting}, label %{spin}, label %{out}"));
        self.start_block(out, None);
        self.line("call void @llvm.nvvm.membar.gl()");
        self.line(format!("br label %{done}"));
        self.start_block(done, None);
        self.line("call void @llvm.nvvm.barrier0()");
    }

    /// Float `atomic.max/min/nanmax/nanmin` as numba-cuda's compare-and-swap loop (LLVM's
    /// `atomicrmw fmax` would replace a NaN element, which numba-cuda's `max` keeps): nothing is
    /// stored when `v` is NaN, or (`max/min`) when the element is NaN; otherwise `v` is swapped
    /// in while it beats the element (`nanmax/nanmin`: or the element is NaN). The result is
    /// the element as first read, as numba-cuda returns it.
    fn float_minmax_loop(&mut self, aop: AtomicOp, t: &str, p: &str, v: &str) -> String {
        let it = if t == "float" { "i32" } else { "i64" };
        let nan = matches!(aop, AtomicOp::NanMax | AtomicOp::NanMin);
        let cmp = match aop {
            AtomicOp::Max => "olt",
            AtomicOp::Min => "ogt",
            AtomicOp::NanMax => "ult",
            _ => "ugt",
        };
        let align = if t == "float" { 4 } else { 8 };
        let first = self.def(format!("load atomic {t}, ptr {p} monotonic, align {align}"));
        let other = if nan { v.to_string() } else { first.clone() };
        let skip = self.def(format!("fcmp uno {t} {v}, {other}"));
        let entry = self.cur.label.clone();
        let check = self.fresh_label("amm_check");
        let attempt = self.fresh_label("amm_try");
        let done = self.fresh_label("amm_done");
        self.line(format!("br i1 {skip}, label %{done}, label %{check}"));
        self.start_block(check.clone(), None);
        let cur = self.t();
        let seen = self.t();
        self.line(format!("{cur} = phi {t} [ {first}, %{entry} ], [ {seen}, %{attempt} ]"));
        let beat = self.def(format!("fcmp {cmp} {t} {cur}, {v}"));
        self.line(format!("br i1 {beat}, label %{attempt}, label %{done}"));
        self.start_block(attempt.clone(), None);
        let o = self.def(format!("bitcast {t} {cur} to {it}"));
        let n = self.def(format!("bitcast {t} {v} to {it}"));
        let pair = self.def(format!("cmpxchg ptr {p}, {it} {o}, {it} {n} monotonic monotonic"));
        let got = self.def(format!("extractvalue {{ {it}, i1 }} {pair}, 0"));
        self.line(format!("{seen} = bitcast {it} {got} to {t}"));
        self.line(format!("br label %{check}"));
        self.start_block(done, None);
        first
    }

    fn shuffle(
        &mut self,
        bi: Builtin,
        kind: ShuffleKind,
        args: &[Value],
        rty: &Type,
        span: Span,
    ) -> Result<Parts, PtxError> {
        let Some(s) = rty.scalar().filter(|s| !s.is_complex()) else {
            return Err(self.unsupported(format!("{} of a non-scalar", bi.name()), span, "shuffle scalars"));
        };
        // The clamp operand: the warp's last lane, except for `up` (lane 0), as numba-cuda.
        let (kind, clamp) = match kind {
            ShuffleKind::Down => ("down", 31),
            ShuffleKind::Xor => ("bfly", 31),
            ShuffleKind::Idx => ("idx", 31),
            ShuffleKind::Up => ("up", 0),
        };
        let mask = self.one_part(args[0]);
        let mask32 = self.cast_to_i32(&mask, self.scalar(args[0]));
        let lane = self.one_part(args[2]);
        let lane32 = self.cast_to_i32(&lane, self.scalar(args[2]));
        let name = format!("llvm.nvvm.shfl.sync.{kind}.i32");
        self.m.declare(&name, &format!("declare i32 @{name}(i32, i32, i32, i32)"));
        let v = self.one_part(args[1]);
        let shfl = |me: &mut Self, x: &str| {
            me.def(format!("call i32 @{name}(i32 {mask32}, i32 {x}, i32 {lane32}, i32 {clamp})"))
        };
        let r = match s {
            Scalar::Int32 | Scalar::UInt32 => shfl(self, &v.op),
            Scalar::Int8 | Scalar::Int16 | Scalar::UInt8 | Scalar::UInt16 => {
                let ext = if s.is_signed() { "sext" } else { "zext" };
                let b = self.def(format!("{ext} {} {} to i32", v.ty, v.op));
                let r = shfl(self, &b);
                self.def(format!("trunc i32 {r} to {}", v.ty))
            }
            Scalar::Float32 => {
                let b = self.def(format!("bitcast float {} to i32", v.op));
                let r = shfl(self, &b);
                self.def(format!("bitcast i32 {r} to float"))
            }
            Scalar::Float16 => {
                let h = self.def(format!("bitcast half {} to i16", v.op));
                let b = self.def(format!("zext i16 {h} to i32"));
                let r = shfl(self, &b);
                let t = self.def(format!("trunc i32 {r} to i16"));
                self.def(format!("bitcast i16 {t} to half"))
            }
            Scalar::Bool => {
                let b = self.def(format!("zext i1 {} to i32", v.op));
                let r = shfl(self, &b);
                self.def(format!("icmp ne i32 {r}, 0"))
            }
            Scalar::Int64 | Scalar::UInt64 | Scalar::Float64 | Scalar::Complex64 | Scalar::Complex128 => {
                let bits = if s == Scalar::Float64 {
                    self.def(format!("bitcast double {} to i64", v.op))
                } else {
                    v.op.clone()
                };
                let lo = self.def(format!("trunc i64 {bits} to i32"));
                let hi0 = self.def(format!("lshr i64 {bits}, 32"));
                let hi = self.def(format!("trunc i64 {hi0} to i32"));
                let rlo = shfl(self, &lo);
                let rhi = shfl(self, &hi);
                let l64 = self.def(format!("zext i32 {rlo} to i64"));
                let h64 = self.def(format!("zext i32 {rhi} to i64"));
                let hs = self.def(format!("shl i64 {h64}, 32"));
                let r = self.def(format!("or i64 {hs}, {l64}"));
                if s == Scalar::Float64 {
                    self.def(format!("bitcast i64 {r} to double"))
                } else {
                    r
                }
            }
        };
        Ok(vec![Part { ty: reg_ty(s), op: r }])
    }

    fn cast_to_i32(&mut self, p: &Part, s: Scalar) -> String {
        self.cast(p, s, Scalar::Int32)
    }
}
