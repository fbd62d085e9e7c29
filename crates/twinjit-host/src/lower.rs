//! Typed, lowered IR → Cranelift IR for one function.
//!
//! IR blocks map one-to-one to Cranelift blocks; IR values map to their flattened parts
//! (see `abi`). Raising instructions branch to one cold error block per function that stores
//! the error and returns status 1; calls propagate a non-zero status.

use crate::abi::{parts, record_offset as err_off, scalar_type, ErrorCode, RaiseSite, MAX_RECURSION};
use crate::runtime;
use crate::spill::CallSpills;
use crate::HostError;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{self as cl, types, BlockArg, InstBuilder, MemFlagsData};
use cranelift_frontend::FunctionBuilder;
use hashbrown::HashMap;
use smallvec::SmallVec;
use twinjit_diag::Span;
use twinjit_ir::abi::{Unsupported, MAX_RUNTIME_ARGS};
use twinjit_ir::builtins::{Helper, Intrinsic};
use twinjit_ir::{
    BinaryOp, Builtin, CmpOp, Const, Exception, Function, InstKind, Lowering, Scalar, Terminator, Type, UnaryOp, Value,
};

pub(crate) type Parts = SmallVec<[cl::Value; 4]>;

/// Declares (once) an imported runtime helper `name(params) -> rets` in the function.
pub(crate) type HelperImporter<'b, 'c> =
    dyn FnMut(&mut FunctionBuilder<'b>, &str, &[types::Type], &[types::Type]) -> cl::FuncRef + 'c;

pub(crate) struct FnLowering<'a, 'b> {
    pub b: FunctionBuilder<'b>,
    pub f: &'a Function,
    pub source_name: &'a str,
    pub vals: Vec<Parts>,
    pub blocks: Vec<cl::Block>,
    pub err_ptr: cl::Value,
    pub ret_ptr: cl::Value,
    pub err_block: Option<cl::Block>,
    pub prop_block: Option<cl::Block>,
    /// The unwind edge of the IR block being lowered (a `try` body's), and its landing blocks
    /// (error, propagation), made on first use.
    pub unwind: Option<twinjit_ir::BlockCall>,
    pub landing: (Option<cl::Block>, Option<cl::Block>),
    /// Every landing block with its unwind edge, filled at the end.
    pub landings: Vec<(cl::Block, twinjit_ir::BlockCall)>,
    /// For functions on a call cycle: the call depth on entry (restored on return).
    pub depth_on_entry: Option<cl::Value>,
    pub sites: &'a mut Vec<RaiseSite>,
    /// Callee name → (FuncRef, flattened return types).
    pub callees: &'a HashMap<String, (cl::FuncRef, Vec<types::Type>)>,
    /// Module-level arrays (`ConstArray`, by the address of the IR constant) → their symbol.
    pub consts: &'a HashMap<usize, cl::FuncRef>,
    /// Helper symbol → FuncRef.
    pub helpers: &'a mut HelperImporter<'b, 'a>,
    /// Float values live across calls, spilled at the calls (`spill`).
    pub spills: CallSpills,
    /// The loops run by a vector loop first (`simd`), and each one's entry block once made.
    pub simd: Vec<crate::simd::VecLoop>,
    pub vector_entries: Vec<Option<cl::Block>>,
    /// The IR block being lowered.
    pub current: twinjit_ir::Block,
    /// The block defining each value (see [`def_blocks`]).
    pub def_block: Vec<twinjit_ir::Block>,
    /// Compiling a kernel for `cuda-sim`: the program's shared-memory layout (`sim`).
    pub sim: Option<&'a crate::sim::SimLayout>,
    /// The index of the instruction being lowered.
    pub cur_inst: u32,
}

/// The vector type of `lanes` elements of type `s` (128 bits).
fn lane_type(s: Scalar, lanes: i64) -> types::Type {
    scalar_type(s).by(lanes as u32).expect("a 128-bit vector type")
}

/// The block defining each value of `f`: a parameter's block, an instruction's block.
pub(crate) fn def_blocks(f: &Function) -> Vec<twinjit_ir::Block> {
    let mut out = vec![Function::ENTRY; f.values.len()];
    for (b, bd) in f.blocks.iter().enumerate() {
        let b = twinjit_ir::Block(b as u32);
        for &p in &bd.params {
            out[p.index()] = b;
        }
        for &i in &bd.insts {
            if let Some(r) = f.insts[i.index()].result {
                out[r.index()] = b;
            }
        }
    }
    out
}

use twinjit_ir::abi::list_layout as ll;

/// The offset of a list payload field from the list's header.
fn list_field(offset: i32) -> i32 {
    crate::memory::HEADER as i32 + offset
}

fn flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl FnLowering<'_, '_> {
    pub(crate) fn one(&mut self, v: Value) -> cl::Value {
        self.get(v)[0]
    }

    /// The parts of `v` here (a spilled float part read from its variable).
    pub(crate) fn get(&mut self, v: Value) -> Parts {
        self.spills.read(&mut self.b, v, &self.vals[v.index()])
    }

    fn set(&mut self, v: Value, p: Parts) {
        self.spills.define(&mut self.b, v, &p);
        self.vals[v.index()] = p;
    }

    /// `call fr(args)`, keeping the float values live after the current IR instruction
    /// (`spill`).
    pub(crate) fn call(&mut self, fr: cl::FuncRef, args: &[cl::Value]) -> cl::Inst {
        self.spills.call(&mut self.b, fr, args)
    }

    pub(crate) fn iconst(&mut self, ty: types::Type, x: i64) -> cl::Value {
        self.b.ins().iconst(ty, x)
    }

    pub(crate) fn site(&mut self, span: Span) -> i64 {
        self.sites.push(RaiseSite::check(self.source_name, span));
        (self.sites.len() - 1) as i64
    }

    /// `raise`: the site with its exception, the runtime arguments stored as the record's
    /// values (`PyScalar::to_bits`), then the error path.
    fn raise(&mut self, e: &Exception<Value>, span: Span) {
        let exception = e.map(|v| self.scalar(*v));
        self.sites.push(RaiseSite { function: self.source_name.to_string(), span, exception: Some(exception) });
        let site = (self.sites.len() - 1) as i64;
        let mut values = Vec::new();
        for v in e.runtime().take(MAX_RUNTIME_ARGS) {
            let x = self.one(*v);
            let ty = self.scalar(*v);
            let ins = self.b.ins();
            values.push(match ty {
                Scalar::Int64 | Scalar::UInt64 => x,
                s if s.is_signed() => ins.sextend(types::I64, x),
                Scalar::Bool | Scalar::UInt8 | Scalar::UInt16 | Scalar::UInt32 => ins.uextend(types::I64, x),
                Scalar::Float32 => {
                    let d = ins.fpromote(types::F64, x);
                    self.b.ins().bitcast(types::I64, MemFlagsData::new(), d)
                }
                _ => ins.bitcast(types::I64, MemFlagsData::new(), x),
            });
        }
        // Values past the error block's three go straight into the record.
        for (k, &v) in values.iter().enumerate().skip(3) {
            self.b.ins().store(flags(), v, self.err_ptr, err_off::EXCEPTION_VALUES[k]);
        }
        while values.len() < 3 {
            values.push(self.iconst(types::I64, 0));
        }
        let eb = self.err_block();
        let k = self.iconst(types::I32, ErrorCode::Raised.raw() as i64);
        let s = self.iconst(types::I32, site);
        let args: [BlockArg; 5] = [k.into(), s.into(), values[0].into(), values[1].into(), values[2].into()];
        self.b.ins().jump(eb, &args);
    }

    /// A landing block (error: five parameters; propagation: the status) for the current IR
    /// block's unwind edge, if it has one.
    fn landing(&mut self, err: bool) -> Option<cl::Block> {
        let u = self.unwind.clone()?;
        let slot = if err { self.landing.0 } else { self.landing.1 };
        if let Some(b) = slot {
            return Some(b);
        }
        let blk = self.b.create_block();
        let params: &[types::Type] =
            if err { &[types::I32, types::I32, types::I64, types::I64, types::I64] } else { &[types::I32] };
        for &t in params {
            self.b.append_block_param(blk, t);
        }
        self.b.set_cold_block(blk);
        self.landings.push((blk, u));
        if err {
            self.landing.0 = Some(blk);
        } else {
            self.landing.1 = Some(blk);
        }
        Some(blk)
    }

    fn err_block(&mut self) -> cl::Block {
        if let Some(b) = self.landing(true) {
            return b;
        }
        if let Some(b) = self.err_block {
            return b;
        }
        let blk = self.b.create_block();
        for t in [types::I32, types::I32, types::I64, types::I64, types::I64] {
            self.b.append_block_param(blk, t);
        }
        self.b.set_cold_block(blk);
        self.err_block = Some(blk);
        blk
    }

    fn prop_block(&mut self) -> cl::Block {
        if let Some(b) = self.landing(false) {
            return b;
        }
        if let Some(b) = self.prop_block {
            return b;
        }
        let blk = self.b.create_block();
        self.b.append_block_param(blk, types::I32);
        self.b.set_cold_block(blk);
        self.prop_block = Some(blk);
        blk
    }

    /// Raises (kind, site, index, len, axis) when `cond` is true; continues in a new block.
    pub(crate) fn raise_if(
        &mut self,
        cond: cl::Value,
        kind: ErrorCode,
        span: Span,
        index: cl::Value,
        len: cl::Value,
        axis: i64,
    ) {
        let site = self.site(span);
        let eb = self.err_block();
        let cont = self.b.create_block();
        let k = self.iconst(types::I32, kind.raw() as i64);
        let s = self.iconst(types::I32, site);
        let a = self.iconst(types::I64, axis);
        let args: [BlockArg; 5] = [k.into(), s.into(), index.into(), len.into(), a.into()];
        self.b.ins().brif(cond, eb, &args, cont, &[]);
        self.b.switch_to_block(cont);
        self.b.seal_block(cont);
    }

    pub(crate) fn finish_error_blocks(&mut self) {
        // A caught exception: tell the memory manager (the references held where it was raised
        // are abandoned until the call ends), then the handler.
        for (blk, u) in std::mem::take(&mut self.landings) {
            self.b.switch_to_block(blk);
            self.b.seal_block(blk);
            let fr = (self.helpers)(&mut self.b, runtime::NRT_CAUGHT, &[], &[]);
            let mut across = self.spills.live_in(u.block);
            across.extend(u.args.iter().copied());
            across.sort();
            across.dedup();
            self.spills.across = across;
            self.call(fr, &[]);
            self.spills.across.clear();
            let args = self.edge_args(&u.args);
            self.b.ins().jump(self.blocks[u.block.index()], &args);
        }
        // A failing call of a function on a call cycle leaves its depth as it found it (a
        // caller may catch the error and go on).
        let depth = self.depth_on_entry;
        if let Some(eb) = self.err_block {
            self.b.switch_to_block(eb);
            self.b.seal_block(eb);
            let p: Vec<cl::Value> = self.b.block_params(eb).to_vec();
            let e = self.err_ptr;
            self.b.ins().store(flags(), p[0], e, err_off::KIND);
            self.b.ins().store(flags(), p[1], e, err_off::SITE);
            self.b.ins().store(flags(), p[2], e, err_off::INDEX);
            self.b.ins().store(flags(), p[3], e, err_off::LEN);
            self.b.ins().store(flags(), p[4], e, err_off::AXIS);
            if let Some(d) = depth {
                self.b.ins().store(flags(), d, e, err_off::DEPTH);
            }
            let one = self.iconst(types::I32, 1);
            self.b.ins().return_(&[one]);
        }
        if let Some(pb) = self.prop_block {
            self.b.switch_to_block(pb);
            self.b.seal_block(pb);
            let st = self.b.block_params(pb)[0];
            if let Some(d) = depth {
                self.b.ins().store(flags(), d, self.err_ptr, err_off::DEPTH);
            }
            self.b.ins().return_(&[st]);
        }
    }

    pub(crate) fn scalar(&self, v: Value) -> Scalar {
        self.f.ty(v).scalar().expect("typed scalar")
    }

    pub(crate) fn const_int(&self, v: Value) -> Option<i64> {
        self.f.const_int(v)
    }

    /// A constant integer, also seen through a cast (how `2` becomes a uint64 operand).
    fn const_int_through_cast(&self, v: Value) -> Option<i64> {
        match self.f.def_inst(v).map(|d| &d.kind) {
            Some(InstKind::Cast(s, x)) if s.is_int() => self.const_int(*x),
            _ => self.const_int(v),
        }
    }

    /// Entry of a recursive function: depth += 1, raising RecursionError past the limit.
    pub(crate) fn enter_recursive(&mut self) {
        let d = self.b.ins().load(types::I64, flags(), self.err_ptr, err_off::DEPTH);
        let d1 = self.b.ins().iadd_imm_s(d, 1);
        let too_deep = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, d1, MAX_RECURSION);
        let limit = self.iconst(types::I64, MAX_RECURSION);
        self.raise_if(too_deep, ErrorCode::Recursion, self.f.span, d1, limit, 0);
        self.b.ins().store(flags(), d1, self.err_ptr, err_off::DEPTH);
        self.depth_on_entry = Some(d);
    }

    pub(crate) fn lower_block(&mut self, ir_block: twinjit_ir::Block) -> Result<(), HostError> {
        let bd = &self.f.blocks[ir_block.index()];
        self.current = ir_block;
        self.unwind = bd.unwind.clone();
        self.landing = (None, None);
        for &p in &bd.params {
            let ps = self.vals[p.index()].clone();
            self.spills.define(&mut self.b, p, &ps);
        }
        for (i, &inst) in bd.insts.iter().enumerate() {
            let data = &self.f.insts[inst.index()];
            self.spills.enter_inst(ir_block, i);
            self.cur_inst = inst.index() as u32;
            let p = self.inst(&data.kind, data.result, data.span)?;
            if let Some(r) = data.result {
                self.set(r, p);
            }
        }
        self.spills.across.clear();
        self.term(&bd.term, bd.term_span)
    }

    fn edge_args(&mut self, args: &[Value]) -> Vec<BlockArg> {
        args.iter().flat_map(|a| self.get(*a)).map(BlockArg::from).collect()
    }

    fn term(&mut self, t: &Terminator, span: Span) -> Result<(), HostError> {
        match t {
            Terminator::Jump(c) => {
                let args = self.edge_args(&c.args);
                let to = self.edge_target(c.block);
                self.b.ins().jump(to, &args);
            }
            Terminator::Branch(c, t, e) => {
                let cond = self.one(*c);
                let ta = self.edge_args(&t.args);
                let ea = self.edge_args(&e.args);
                let (tt, et) = (self.edge_target(t.block), self.edge_target(e.block));
                self.b.ins().brif(cond, tt, &ta, et, &ea);
            }
            Terminator::Return(v) => {
                if let Some(v) = v {
                    let ps = self.get(*v);
                    for (k, p) in ps.iter().enumerate() {
                        self.b.ins().store(flags(), *p, self.ret_ptr, (8 * k) as i32);
                    }
                }
                if let Some(d) = self.depth_on_entry {
                    self.b.ins().store(flags(), d, self.err_ptr, err_off::DEPTH);
                }
                let zero = self.iconst(types::I32, 0);
                self.b.ins().return_(&[zero]);
            }
            Terminator::Raise(e) => self.raise(e, span),
            Terminator::Unreachable => {
                self.b.ins().trap(cl::TrapCode::unwrap_user(1));
            }
        }
        Ok(())
    }

    /// The Cranelift block an edge from the current block to `to` goes to: the vector loop's
    /// entry where `to` is a vectorised loop's header entered from here.
    fn edge_target(&mut self, to: twinjit_ir::Block) -> cl::Block {
        let here = self.current;
        // (A loop value held in variables would not see what the vector loop computes.)
        let Some(k) = self.simd.iter().position(|l| {
            let reduced = l.reductions.iter().flat_map(|r| [Some(r.param), self.f.insts[r.update.index()].result]);
            l.header == to
                && l.pre == here
                && !l.classes.keys().copied().map(Some).chain(reduced).flatten().any(|v| self.spills.is_spilled(v))
        }) else {
            return self.blocks[to.index()];
        };
        if let Some(b) = self.vector_entries[k] {
            return b;
        }
        // The header's parameters: the induction variable, then the reductions' values.
        let b = self.b.create_block();
        let header = self.blocks[to.index()];
        let tys: Vec<types::Type> =
            self.b.func.dfg.block_params(header).iter().map(|&p| self.b.func.dfg.value_type(p)).collect();
        for t in tys {
            self.b.append_block_param(b, t);
        }
        self.vector_entries[k] = Some(b);
        b
    }

    /// Emits the vector loop of every vectorised loop that was entered (see `simd`):
    ///
    /// ```text
    /// entry(i0, s0..): run the loop's offsets at i0; if i0 <= n - lanes and no two accesses
    ///            overlap within a vector: ucheck(i0, identities), else header(i0, s0..)
    /// ucheck(i, acc..): if i <= n - UNROLL * lanes: uloop(i, acc..) else ufold(i, acc..)
    /// uloop(i, acc..):  the work on lanes i .. i + lanes, then the next UNROLL - 1 vectors,
    ///            in order, vector k updating accumulator copy k; i += UNROLL * lanes;
    ///            if i <= n - UNROLL * lanes: uloop(..) else ufold(..)
    /// ufold(i, acc..): each reduction's UNROLL copies combined into one; vcheck(i, acc..)
    /// vcheck(i, acc..): if i <= n - lanes: vloop(..) else tail(..)
    /// vloop(i, acc..):  the work on lanes i .. i + lanes; i += lanes; if i <= n - lanes:
    ///            vloop(..) else tail(..)
    /// tail(i, acc..):   s = s0 op (the lanes of acc combined); guarded loop: header(i);
    ///            rotated: if i < n: header(i, s..) else exit (the updates read as s)
    /// ```
    ///
    /// The unrolled loop runs the vectors one after another, each as the one-vector loop would,
    /// so it needs no other overlap test; it only saves the counter's update and test.
    pub(crate) fn emit_vector_loops(&mut self) -> Result<(), HostError> {
        self.unwind = None;
        let loops = std::mem::take(&mut self.simd);
        for (lp, entry) in loops.iter().zip(std::mem::take(&mut self.vector_entries)) {
            if let Some(entry) = entry {
                self.vector_loop(lp, entry)?;
            }
        }
        Ok(())
    }

    /// `check(i, acc..): if i <= limit: body(i, acc..) else after(i, acc..)`, and
    /// `body(i, acc..)`: `vectors` vectors of the loop's work from lane `i` (vector `k` updating
    /// accumulator copy `k % copies`), then the same test at `i + vectors * lanes`. The
    /// accumulators are `copies` vectors per reduction, reduction by reduction.
    fn vector_run(
        &mut self,
        lp: &crate::simd::VecLoop,
        [check, body, after]: [cl::Block; 3],
        vectors: i64,
        copies: usize,
        limit: cl::Value,
    ) -> Result<(), HostError> {
        let test = |this: &mut Self, i: cl::Value, accs: &[cl::Value]| {
            let c = this.b.ins().icmp(IntCC::SignedLessThanOrEqual, i, limit);
            let args: Vec<BlockArg> = std::iter::once(i).chain(accs.iter().copied()).map(BlockArg::from).collect();
            this.b.ins().brif(c, body, &args, after, &args);
        };
        self.b.switch_to_block(check);
        let ps = self.b.block_params(check).to_vec();
        test(self, ps[0], &ps[1..]);
        self.b.switch_to_block(body);
        let ps = self.b.block_params(body).to_vec();
        let (i, mut accs) = (ps[0], ps[1..].to_vec());
        for k in 0..vectors {
            let ik = if k == 0 { i } else { self.b.ins().iadd_imm_s(i, k * lp.lanes) };
            let copy = k as usize % copies;
            let mut mine: Vec<cl::Value> = (0..lp.reductions.len()).map(|r| accs[r * copies + copy]).collect();
            self.vector_work(lp, ik, true, &mut mine)?;
            for (r, v) in mine.into_iter().enumerate() {
                accs[r * copies + copy] = v;
            }
        }
        let next = self.b.ins().iadd_imm_s(i, vectors * lp.lanes);
        test(self, next, &accs);
        Ok(())
    }

    /// `x op y` on lanes (vectors) or scalars of element type `s`.
    fn lane_op(&mut self, s: Scalar, op: BinaryOp, x: cl::Value, y: cl::Value) -> cl::Value {
        let float = s.is_float();
        match op {
            BinaryOp::Div if float => self.b.ins().fdiv(x, y),
            BinaryOp::Add if float => self.b.ins().fadd(x, y),
            BinaryOp::Sub if float => self.b.ins().fsub(x, y),
            BinaryOp::Mul if float => self.b.ins().fmul(x, y),
            BinaryOp::Add => self.b.ins().iadd(x, y),
            BinaryOp::Sub => self.b.ins().isub(x, y),
            BinaryOp::Mul => self.b.ins().imul(x, y),
            BinaryOp::BitAnd => self.b.ins().band(x, y),
            BinaryOp::BitOr => self.b.ins().bor(x, y),
            _ => self.b.ins().bxor(x, y),
        }
    }

    fn vector_loop(&mut self, lp: &crate::simd::VecLoop, entry: cl::Block) -> Result<(), HostError> {
        /// Vectors per iteration of the unrolled loop (and accumulator copies per reduction).
        const UNROLL: i64 = 4;
        // (Addresses are split by where their parts are defined: the loop's work block.)
        self.current = lp.work_block;
        let header = self.blocks[lp.header.index()];
        let reds = lp.reductions.len();
        let blocks: Vec<cl::Block> = (0..6).map(|_| self.b.create_block()).collect();
        let [ucheck, uloop, ufold, vcheck, vloop, tail] = blocks[..] else { unreachable!("six blocks") };
        for (k, &b) in blocks.iter().enumerate() {
            self.b.append_block_param(b, types::I64);
            let copies = if k < 3 { UNROLL as usize } else { 1 };
            for r in &lp.reductions {
                for _ in 0..copies {
                    self.b.append_block_param(b, lane_type(r.scalar, lp.lanes));
                }
            }
        }
        let esize = lp.elem.size() as i64;

        self.b.switch_to_block(entry);
        let entry_ps = self.b.block_params(entry).to_vec();
        let i0 = entry_ps[0];
        self.vector_work(lp, i0, false, &mut [])?;
        let n = self.one(lp.bound);
        let limit1 = self.b.ins().iadd_imm_s(n, -lp.lanes);
        let limit_u = self.b.ins().iadd_imm_s(n, -UNROLL * lp.lanes);
        let mut ok = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, i0, limit1);
        for &((a, o), (c, p)) in &lp.pairs {
            let (x, y) = (self.element_addr(a, o), self.element_addr(c, p));
            let d = self.b.ins().isub(x, y);
            let neg = self.b.ins().ineg(d);
            let dist = self.b.ins().smax(d, neg);
            let same = self.b.ins().icmp_imm_s(IntCC::Equal, d, 0);
            let apart = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, dist, lp.lanes * esize);
            let fine = self.b.ins().bor(same, apart);
            ok = self.b.ins().band(ok, fine);
        }
        // Each accumulator starts at its operation's identity (-0.0 for float sums: -0.0 + x
        // is x for every x).
        let mut start = vec![BlockArg::from(i0)];
        for r in &lp.reductions {
            let v = self.identity(r);
            start.extend(std::iter::repeat_n(BlockArg::from(v), UNROLL as usize));
        }
        let entry_args: Vec<BlockArg> = entry_ps.iter().copied().map(BlockArg::from).collect();
        self.b.ins().brif(ok, ucheck, &start, header, &entry_args);

        self.vector_run(lp, [ucheck, uloop, ufold], UNROLL, UNROLL as usize, limit_u)?;
        self.b.switch_to_block(ufold);
        let ps = self.b.block_params(ufold).to_vec();
        let mut folded = vec![BlockArg::from(ps[0])];
        for (k, r) in lp.reductions.iter().enumerate() {
            let c = &ps[1 + k * UNROLL as usize..1 + (k + 1) * UNROLL as usize];
            let op = r.combine();
            let (x, y) = (self.lane_op(r.scalar, op, c[0], c[1]), self.lane_op(r.scalar, op, c[2], c[3]));
            folded.push(BlockArg::from(self.lane_op(r.scalar, op, x, y)));
        }
        self.b.ins().jump(vcheck, &folded);
        self.vector_run(lp, [vcheck, vloop, tail], 1, 1, limit1)?;

        self.b.switch_to_block(tail);
        let ps = self.b.block_params(tail).to_vec();
        let i = ps[0];
        let mut scalars = Vec::with_capacity(reds);
        for (k, r) in lp.reductions.iter().enumerate() {
            let op = r.combine();
            let mut s = entry_ps[r.param_index];
            for lane in 0..lp.lanes {
                let x = self.b.ins().extractlane(ps[1 + k], lane as u8);
                s = self.lane_op(r.scalar, op, s, x);
            }
            if let Some(u) = self.f.insts[r.update.index()].result {
                self.vals[u.index()] = smallvec::smallvec![s];
            }
            scalars.push(s);
        }
        let again: Vec<BlockArg> = std::iter::once(i).chain(scalars).map(BlockArg::from).collect();
        match &lp.exit {
            None => {
                self.b.ins().jump(header, &again);
            }
            Some(e) => {
                let some = self.b.ins().icmp(IntCC::SignedLessThan, i, n);
                let args = self.edge_args(&e.args);
                let exit = self.blocks[e.block.index()];
                self.b.ins().brif(some, header, &again, exit, &args);
            }
        }
        Ok(())
    }

    /// A vector of reduction `r`'s identity (-0.0 for float sums: -0.0 + x is x for every x).
    fn identity(&mut self, r: &crate::simd::Reduction) -> cl::Value {
        let x = match (r.op, r.scalar.is_float()) {
            (BinaryOp::Mul, true) => self.fconst(r.scalar, 1.0),
            (_, true) => self.fconst(r.scalar, -0.0),
            (BinaryOp::Mul, false) => self.b.ins().iconst(types::I64, 1),
            (BinaryOp::BitAnd, false) => self.b.ins().iconst(types::I64, -1),
            _ => self.b.ins().iconst(types::I64, 0),
        };
        let lanes = 16 / r.scalar.size() as u32;
        self.b.ins().splat(lane_type(r.scalar, lanes as i64), x)
    }

    fn fconst(&mut self, s: Scalar, x: f64) -> cl::Value {
        if s == Scalar::Float32 {
            self.b.ins().f32const(x as f32)
        } else {
            self.b.ins().f64const(x)
        }
    }

    /// The loop's work at induction value `iv`: its invariant values and offsets (scalars, by
    /// the ordinary lowering), and with `vector` its loads, arithmetic and stores on all lanes
    /// and its reductions' updates of `accs` (one accumulator vector per reduction).
    /// The loop's values are rebound to what this emits (the scalar loop is already lowered).
    fn vector_work(
        &mut self,
        lp: &crate::simd::VecLoop,
        iv: cl::Value,
        vector: bool,
        accs: &mut [cl::Value],
    ) -> Result<(), HostError> {
        use crate::simd::Class;
        self.vals[lp.iv.index()] = smallvec::smallvec![iv];
        let flags = MemFlagsData::new().with_notrap();
        let vty_of = |this: &Self, v: Value| lane_type(this.f.ty(v).scalar().expect("a number"), lp.lanes);
        // A value's lanes: a vector value as it is, an invariant one splatted.
        let lanes = |this: &mut Self, v: Value| -> cl::Value {
            let x = this.one(v);
            if lp.classes.get(&v) == Some(&Class::Vec) {
                x
            } else {
                let t = vty_of(this, v);
                this.b.ins().splat(t, x)
            }
        };
        // `mask ? x : y` by lanes (the mask is integer lanes of `x`'s width).
        let pick = |this: &mut Self, mask: cl::Value, x: cl::Value, y: cl::Value| -> cl::Value {
            let t = this.b.func.dfg.value_type(x);
            let m = if this.b.func.dfg.value_type(mask) == t {
                mask
            } else {
                this.b.ins().bitcast(t, MemFlagsData::new().with_endianness(cl::Endianness::Little), mask)
            };
            this.b.ins().bitselect(m, x, y)
        };
        for &(inst, class) in &lp.work {
            let d = &self.f.insts[inst.index()];
            let p = match class {
                Class::Inv | Class::Off => self.inst(&d.kind, d.result, d.span)?,
                Class::Vec | Class::Red if !vector => continue,
                Class::Red => {
                    let k = lp.reductions.iter().position(|r| r.update == inst).expect("a reduction's update");
                    let r = &lp.reductions[k];
                    let mut x = lanes(self, r.x);
                    if let Some((c, taken, _)) = r.cond {
                        // The lanes where the update is not taken add the identity.
                        let (mask, id) = (self.one(c), self.identity(r));
                        x = if taken { pick(self, mask, x, id) } else { pick(self, mask, id, x) };
                    }
                    accs[k] = self.lane_op(r.scalar, r.op, accs[k], x);
                    continue;
                }
                Class::Vec => {
                    let s = d.result.and_then(|r| self.f.ty(r).scalar());
                    let x = match &d.kind {
                        InstKind::Load(a, o) => {
                            let dt = self.f.ty(*a).array().expect("an array").dtype;
                            let addr = self.element_addr(*a, *o);
                            self.b.ins().load(lane_type(dt, lp.lanes), flags, addr, 0)
                        }
                        InstKind::Store(a, o, v) => {
                            let x = lanes(self, *v);
                            let addr = self.element_addr(*a, *o);
                            self.b.ins().store(flags, x, addr, 0);
                            continue;
                        }
                        InstKind::Binary(op, a, c) => {
                            let (x, y) = (lanes(self, *a), lanes(self, *c));
                            self.lane_op(s.expect("a number"), *op, x, y)
                        }
                        InstKind::Compare(op, a, c) => {
                            let (x, y) = (lanes(self, *a), lanes(self, *c));
                            let t = self.f.ty(*a).scalar().expect("a number");
                            self.compare(*op, t, x, y)
                        }
                        InstKind::Select(c, a, e) => {
                            let (m, x, y) = (self.one(*c), lanes(self, *a), lanes(self, *e));
                            pick(self, m, x, y)
                        }
                        InstKind::Unary(UnaryOp::Neg, a) => {
                            let x = lanes(self, *a);
                            if s.is_some_and(Scalar::is_float) {
                                self.b.ins().fneg(x)
                            } else {
                                self.b.ins().ineg(x)
                            }
                        }
                        InstKind::Unary(UnaryOp::Invert, a) => {
                            let x = lanes(self, *a);
                            self.b.ins().bnot(x)
                        }
                        InstKind::Unary(_, a) => lanes(self, *a),
                        InstKind::Builtin(b, args) => {
                            let x = lanes(self, args[0]);
                            match b.info().lowering {
                                Lowering::Intrinsic(Intrinsic::Sqrt) => self.b.ins().sqrt(x),
                                _ => self.b.ins().fabs(x),
                            }
                        }
                        k => return Err(HostError::Internal(format!("simd: unexpected {k:?}"))),
                    };
                    smallvec::smallvec![x]
                }
            };
            if let Some(r) = d.result {
                self.vals[r.index()] = p;
            }
        }
        Ok(())
    }

    /// `select(c, a, d)` as the test `0 <= x < n` of an integer `x` against a bound `n` that is
    /// never negative (a dimension or a constant): `c and a` (`d` is `c`) or `a and c`, one
    /// side `x >= 0` and the other `x < n`. Then the test is one unsigned `x < n` (a negative
    /// `x` is a huge unsigned number), as a histogram's `if 0 <= b < nbins` wants.
    fn range_test(&self, c: Value, a: Value, d: Value) -> Option<(Value, Value)> {
        if d != c || *self.f.ty(c) != Type::BOOL {
            return None;
        }
        let def = |v: Value| self.f.def_inst(v).map(|i| &i.kind);
        let int = |v: Value| match def(v) {
            Some(InstKind::Const(Const::Int(k))) => Some(*k),
            _ => None,
        };
        // `x >= 0` in its spellings.
        let nonneg_test = |v: Value| match def(v) {
            Some(InstKind::Compare(CmpOp::Le, z, x)) | Some(InstKind::Compare(CmpOp::Ge, x, z))
                if int(*z) == Some(0) =>
            {
                Some(*x)
            }
            Some(InstKind::Compare(CmpOp::Lt, m, x)) | Some(InstKind::Compare(CmpOp::Gt, x, m))
                if int(*m) == Some(-1) =>
            {
                Some(*x)
            }
            _ => None,
        };
        // `x < n` with `n >= 0`.
        let below = |v: Value| match def(v) {
            Some(InstKind::Compare(CmpOp::Lt, x, n)) | Some(InstKind::Compare(CmpOp::Gt, n, x))
                if matches!(def(*n), Some(InstKind::Dim(..))) || int(*n).is_some_and(|k| k >= 0) =>
            {
                Some((*x, *n))
            }
            _ => None,
        };
        let signed = |v: Value| self.f.ty(v).scalar().is_some_and(|s| s.is_signed());
        for (lo, hi) in [(c, a), (a, c)] {
            if let (Some(x), Some((y, n))) = (nonneg_test(lo), below(hi)) {
                if x == y && signed(x) && self.f.ty(x) == self.f.ty(n) {
                    return Some((x, n));
                }
            }
        }
        None
    }

    /// `x op y` for operands of type `s`, scalars or lanes (then a mask, all ones where it
    /// holds): unsigned conditions for unsigned integers and bools.
    pub(crate) fn compare(&mut self, op: CmpOp, s: Scalar, x: cl::Value, y: cl::Value) -> cl::Value {
        if s.is_float() {
            // `a > b` is written `b < a` (the same for NaN): Cranelift turns
            // `select(b < a, b, a)` into `minsd` and its dual into `maxsd` (no branch),
            // and it matches only the less-than forms.
            let (cc, x, y) = match op {
                CmpOp::Eq => (FloatCC::Equal, x, y),
                CmpOp::Ne => (FloatCC::NotEqual, x, y),
                CmpOp::Lt => (FloatCC::LessThan, x, y),
                CmpOp::Le => (FloatCC::LessThanOrEqual, x, y),
                CmpOp::Gt => (FloatCC::LessThan, y, x),
                CmpOp::Ge => (FloatCC::LessThanOrEqual, y, x),
            };
            self.b.ins().fcmp(cc, x, y)
        } else {
            let cc = match (op, s == Scalar::Bool || s.is_unsigned()) {
                (CmpOp::Eq, _) => IntCC::Equal,
                (CmpOp::Ne, _) => IntCC::NotEqual,
                (CmpOp::Lt, false) => IntCC::SignedLessThan,
                (CmpOp::Le, false) => IntCC::SignedLessThanOrEqual,
                (CmpOp::Gt, false) => IntCC::SignedGreaterThan,
                (CmpOp::Ge, false) => IntCC::SignedGreaterThanOrEqual,
                (CmpOp::Lt, true) => IntCC::UnsignedLessThan,
                (CmpOp::Le, true) => IntCC::UnsignedLessThanOrEqual,
                (CmpOp::Gt, true) => IntCC::UnsignedGreaterThan,
                (CmpOp::Ge, true) => IntCC::UnsignedGreaterThanOrEqual,
            };
            self.b.ins().icmp(cc, x, y)
        }
    }

    pub(crate) fn call_helper(
        &mut self,
        name: &str,
        args: &[cl::Value],
        params: &[types::Type],
        ret: types::Type,
    ) -> cl::Value {
        let fr = (self.helpers)(&mut self.b, name, params, &[ret]);
        let call = self.call(fr, args);
        self.b.inst_results(call)[0]
    }

    pub(crate) fn inst(&mut self, kind: &InstKind, result: Option<Value>, span: Span) -> Result<Parts, HostError> {
        let rty = result.map(|r| self.f.ty(r).clone()).unwrap_or(Type::None);
        let one = |v: cl::Value| -> Parts { smallvec::smallvec![v] };
        if self.sim.is_some() {
            if let Some(parts) = self.half_inst(kind, &rty, span) {
                return parts;
            }
        }
        Ok(match kind {
            InstKind::Const(c) => {
                let Some(s) = rty.scalar() else { return Ok(Parts::new()) };
                let ct = scalar_type(s);
                one(match (c, s) {
                    (Const::Float(x), Scalar::Float32) => self.b.ins().f32const(*x as f32),
                    (Const::Float(x), _) => self.b.ins().f64const(*x),
                    (Const::Int(i), Scalar::Float32) => self.b.ins().f32const(*i as f32),
                    (Const::Int(i), Scalar::Float64) => self.b.ins().f64const(*i as f64),
                    (Const::Int(i), _) => self.b.ins().iconst(ct, *i),
                    (Const::Bool(x), _) => self.b.ins().iconst(ct, *x as i64),
                    (Const::None | Const::Str(_), _) => return Ok(Parts::new()),
                })
            }
            InstKind::Undef => {
                let ps = parts(&rty);
                ps.iter().map(|t| if t.is_float() { self.fzero(*t) } else { self.b.ins().iconst(*t, 0) }).collect()
            }
            InstKind::Unary(op, a) => {
                let x = self.one(*a);
                let s = self.scalar(*a);
                one(match (op, s) {
                    (UnaryOp::Pos, _) => x,
                    (UnaryOp::Neg, s) if s.is_float() => self.b.ins().fneg(x),
                    (UnaryOp::Neg, _) => self.b.ins().ineg(x),
                    (UnaryOp::Not, Scalar::Bool) => self.b.ins().bxor_imm_s(x, 1),
                    (UnaryOp::Not, s) if s.is_float() => {
                        let z = self.fzero(scalar_type(s));
                        self.b.ins().fcmp(FloatCC::Equal, x, z)
                    }
                    (UnaryOp::Not, _) => self.b.ins().icmp_imm_s(IntCC::Equal, x, 0),
                    (UnaryOp::Invert, Scalar::Bool) => self.b.ins().bxor_imm_s(x, 1),
                    (UnaryOp::Invert, _) => self.b.ins().bnot(x),
                })
            }
            InstKind::Binary(op, a, c) => one(self.binary(*op, *a, *c, span)?),
            InstKind::Compare(op, a, c) => {
                let (x, y) = (self.one(*a), self.one(*c));
                let s = self.scalar(*a);
                one(self.compare(*op, s, x, y))
            }
            InstKind::Cast(to, a) => {
                let x = self.one(*a);
                one(self.cast(x, self.scalar(*a), *to))
            }
            InstKind::Select(c, a, d) => {
                if let Some((x, n)) = self.range_test(*c, *a, *d) {
                    let (x, n) = (self.one(x), self.one(n));
                    return Ok(one(self.b.ins().icmp(IntCC::UnsignedLessThan, x, n)));
                }
                let cond = self.one(*c);
                let (xs, ys) = (self.get(*a), self.get(*d));
                xs.iter().zip(ys.iter()).map(|(x, y)| self.b.ins().select(cond, *x, *y)).collect()
            }
            InstKind::Call(name, args) => {
                let (fr, ret_types) = self
                    .callees
                    .get(name)
                    .cloned()
                    .ok_or_else(|| HostError::Internal(format!("missing callee {name}")))?;
                let slot = self.b.create_sized_stack_slot(cl::StackSlotData::new(
                    cl::StackSlotKind::ExplicitSlot,
                    (8 * ret_types.len().max(1)) as u32,
                    3,
                ));
                let ret_addr = self.b.ins().stack_addr(types::I64, slot, 0);
                let mut argv: Vec<cl::Value> = vec![self.err_ptr, ret_addr];
                for a in args {
                    argv.extend(self.get(*a));
                }
                let call = self.call(fr, &argv);
                let status = self.b.inst_results(call)[0];
                let pb = self.prop_block();
                let cont = self.b.create_block();
                self.b.ins().brif(status, pb, &[BlockArg::from(status)], cont, &[]);
                self.b.switch_to_block(cont);
                self.b.seal_block(cont);
                ret_types
                    .iter()
                    .enumerate()
                    .map(|(k, t)| self.b.ins().stack_load(types::I64, *t, slot, (8 * k) as i32))
                    .collect()
            }
            InstKind::ParallelFor(name, args) => {
                // F's arguments after the chunk index, in 8-byte slots the chunk trampoline reads.
                let (tramp, _) = self
                    .callees
                    .get(&format!("{name}.chunk"))
                    .cloned()
                    .ok_or_else(|| HostError::Internal(format!("missing chunk function of {name}")))?;
                let slots: Vec<cl::Value> = args[1..].iter().flat_map(|a| self.get(*a)).collect();
                let slot = self.b.create_sized_stack_slot(cl::StackSlotData::new(
                    cl::StackSlotKind::ExplicitSlot,
                    (8 * slots.len().max(1)) as u32,
                    3,
                ));
                for (k, v) in slots.iter().enumerate() {
                    self.b.ins().stack_store(types::I64, *v, slot, (8 * k) as i32);
                }
                let env = self.b.ins().stack_addr(types::I64, slot, 0);
                let fnaddr = self.b.ins().func_addr(types::I64, tramp);
                let n = self.one(args[0]);
                let status = self.call_helper(
                    crate::runtime::PARALLEL_FOR,
                    &[fnaddr, env, n, self.err_ptr],
                    &[types::I64; 4],
                    types::I32,
                );
                let pb = self.prop_block();
                let cont = self.b.create_block();
                self.b.ins().brif(status, pb, &[BlockArg::from(status)], cont, &[]);
                self.b.switch_to_block(cont);
                self.b.seal_block(cont);
                Parts::new()
            }
            InstKind::Builtin(bi, args) => match (bi.info().lowering, self.sim) {
                (Lowering::Kernel(k), Some(_)) => self.kernel_op(k, *bi, args, &rty, span)?,
                // cuda-sim refuses what the GPU target refuses, so a kernel it runs compiles there.
                (Lowering::Helper(h), Some(_)) if h.draws_host_random() => {
                    let (what, hint) = twinjit_ir::builtins::HOST_RANDOM_IN_KERNEL;
                    return Err(Self::unsupported_here(what.to_string(), span, hint));
                }
                _ => one(self.builtin(*bi, args, &rty, span)?),
            },
            InstKind::Dim(a, k) => one(self.vals[a.index()][1 + *k as usize]),
            InstKind::Stride(a, k) => {
                let nd = self.f.ty(*a).array().expect("array").ndim as usize;
                one(self.vals[a.index()][1 + nd + *k as usize])
            }
            InstKind::CheckIndex(i, n, axis) => {
                let (x, len) = (self.one(*i), self.one(*n));
                let bad = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, x, len);
                self.raise_if(bad, ErrorCode::Index, span, x, len, *axis as i64);
                Parts::new()
            }
            InstKind::CheckNonZero(a) => {
                let x = self.one(*a);
                let s = self.scalar(*a);
                let is_zero = if s.is_float() {
                    let z = self.fzero(scalar_type(s));
                    self.b.ins().fcmp(FloatCC::Equal, x, z)
                } else {
                    self.b.ins().icmp_imm_s(IntCC::Equal, x, 0)
                };
                let z = self.iconst(types::I64, 0);
                self.raise_if(is_zero, ErrorCode::ZeroDivision, span, z, z, 0);
                Parts::new()
            }
            InstKind::Load(a, o) => {
                let addr = self.element_addr(*a, *o);
                self.race_check(*a, addr, twinjit_ir::interp::race::AccessKind::Read, span);
                let dt = self.f.ty(*a).array().expect("array").dtype;
                if dt.is_complex() {
                    // (real, imaginary), each a float of half the element.
                    let half = dt.size() as i32 / 2;
                    let re = self.b.ins().load(scalar_type(dt), flags(), addr, 0);
                    let im = self.b.ins().load(scalar_type(dt), flags(), addr, half);
                    [re, im].into_iter().collect()
                } else {
                    one(self.b.ins().load(scalar_type(dt), flags(), addr, 0))
                }
            }
            InstKind::Store(a, o, v) => {
                let addr = self.element_addr(*a, *o);
                self.race_check(*a, addr, twinjit_ir::interp::race::AccessKind::Write, span);
                let dt = self.f.ty(*a).array().expect("array").dtype;
                let half = dt.size() as i32 / 2;
                let xs = self.get(*v);
                for (k, x) in xs.iter().enumerate() {
                    self.b.ins().store(flags(), *x, addr, k as i32 * half);
                }
                Parts::new()
            }
            InstKind::MakeTuple(vs) => vs.iter().flat_map(|v| self.get(*v)).collect(),
            InstKind::TupleGet(t, k) => {
                let Some(ts) = self.f.ty(*t).elements() else {
                    return Err(HostError::Internal("tupleget of non-tuple".into()));
                };
                let start: usize = ts[..*k as usize].iter().map(|t| parts(t).len()).sum();
                let n = parts(&ts[*k as usize]).len();
                self.get(*t)[start..start + n].iter().copied().collect()
            }
            InstKind::GetItem(..) | InstKind::SetItem(..) => {
                return Err(HostError::Internal("getitem/setitem reached the backend".into()))
            }
            InstKind::NewArray { dtype, shape, zeroed } => {
                let dims: Vec<cl::Value> = shape.iter().map(|d| self.one(*d)).collect();
                let mut args = dims.clone();
                // Past three dimensions, the checked product of the rest (-1 on overflow).
                while args.len() > 3 {
                    let last = args.pop().expect("more than three");
                    let prev = args.pop().expect("more than three");
                    let p = self.call_helper(runtime::DIMS_PRODUCT, &[prev, last], &[types::I64; 2], types::I64);
                    args.push(p);
                }
                while args.len() < 3 {
                    args.push(self.iconst(types::I64, 1));
                }
                args.push(self.iconst(types::I64, dtype.size() as i64));
                args.push(self.iconst(types::I8, *zeroed as i64));
                let i64s = [types::I64; 4];
                let params = [&i64s[..], &[types::I8]].concat();
                let mi = self.call_helper(runtime::NRT_NEW, &args, &params, types::I64);
                let failed = self.b.ins().icmp_imm_s(IntCC::Equal, mi, 0);
                self.raise_exception_if(failed, "MemoryError", twinjit_ir::abi::ALLOCATION_FAILED, span);
                let data = self.b.ins().iadd_imm_s(mi, crate::memory::HEADER as i64);
                // C strides, in elements.
                let mut strides = vec![self.iconst(types::I64, 1); dims.len()];
                for k in (0..dims.len().saturating_sub(1)).rev() {
                    strides[k] = self.b.ins().imul(strides[k + 1], dims[k + 1]);
                }
                std::iter::once(data).chain(dims).chain(strides).chain(std::iter::once(mi)).collect()
            }
            InstKind::View { base, offset, shape, strides } => {
                // The offset is in elements of the view's dtype (it may differ from the base's).
                let dt = rty.array().expect("a view is an array").dtype;
                let bp = self.vals[base.index()].clone();
                let off = self.one(*offset);
                let bytes = self.b.ins().imul_imm_s(off, dt.size() as i64);
                let data = self.b.ins().iadd(bp[0], bytes);
                let owner = *bp.last().expect("an array has an owner part");
                std::iter::once(data)
                    .chain(shape.iter().chain(strides).map(|v| self.one(*v)))
                    .chain(std::iter::once(owner))
                    .collect()
            }
            InstKind::IncRef(v) | InstKind::DecRef(v) => {
                let inc = matches!(kind, InstKind::IncRef(_));
                for mi in self.owners(*v) {
                    self.count(mi, inc);
                }
                Parts::new()
            }
            InstKind::NewList(n) => {
                let elem = rty.list_elem().cloned().unwrap_or(Type::None);
                let Some((size, mask)) = twinjit_ir::abi::list_elem_layout(&elem) else {
                    return Err(HostError::Unsupported(Unsupported {
                        what: format!("a list of {elem} (more than 64 parts per element)"),
                        span,
                        hint: "store smaller elements".into(),
                    }));
                };
                let args = [self.one(*n), self.iconst(types::I64, size as i64), self.iconst(types::I64, mask as i64)];
                let mi = self.call_helper(runtime::LIST_NEW, &args, &[types::I64; 3], types::I64);
                let failed = self.b.ins().icmp_imm_s(IntCC::Equal, mi, 0);
                self.raise_exception_if(failed, "MemoryError", twinjit_ir::abi::ALLOCATION_FAILED, span);
                one(mi)
            }
            InstKind::ListLen(l) => {
                let mi = self.one(*l);
                one(self.b.ins().load(types::I64, flags(), mi, list_field(ll::LEN)))
            }
            InstKind::ListGet(l, i) => {
                let elem = self.f.ty(*l).list_elem().cloned().unwrap_or(Type::None);
                let addr = self.list_element_addr(*l, *i, &elem);
                parts(&elem)
                    .into_iter()
                    .enumerate()
                    .map(|(k, t)| self.b.ins().load(t, flags(), addr, (k * ll::SLOT) as i32))
                    .collect()
            }
            InstKind::ListSet(l, i, v) => {
                let elem = self.f.ty(*l).list_elem().cloned().unwrap_or(Type::None);
                let addr = self.list_element_addr(*l, *i, &elem);
                let layout = twinjit_ir::abi::flatten(&elem);
                // The list takes a reference to what the new element holds, then drops the old
                // element's (in this order, so storing an element over itself is safe).
                for mi in self.owners(*v) {
                    self.count(mi, true);
                }
                let old: Vec<cl::Value> = layout
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.is_owner())
                    .map(|(k, _)| self.b.ins().load(types::I64, flags(), addr, (k * ll::SLOT) as i32))
                    .collect();
                for (k, x) in self.get(*v).into_iter().enumerate() {
                    self.b.ins().store(flags(), x, addr, (k * ll::SLOT) as i32);
                }
                for mi in old {
                    self.count(mi, false);
                }
                Parts::new()
            }
            InstKind::ListResize(l, n) => {
                // Growth by one element within the storage (`append` once the list has room,
                // the common case) is inline: the new element zeroed, the length stored. Any
                // other change of length calls the memory manager.
                let elem = self.f.ty(*l).list_elem().cloned().unwrap_or(Type::None);
                let slots = twinjit_ir::abi::list_elem_layout(&elem).map(|(s, _)| s / ll::SLOT).unwrap_or(1);
                let (mi, n) = (self.one(*l), self.one(*n));
                let len = self.b.ins().load(types::I64, flags(), mi, list_field(ll::LEN));
                let cap = self.b.ins().load(types::I64, flags(), mi, list_field(ll::CAP));
                let len1 = self.b.ins().iadd_imm_s(len, 1);
                let by_one = self.b.ins().icmp(IntCC::Equal, n, len1);
                let fits = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, n, cap);
                let fast_ok = self.b.ins().band(by_one, fits);
                let (fast, slow, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
                self.b.ins().brif(fast_ok, fast, &[], slow, &[]);
                self.b.switch_to_block(fast);
                self.b.seal_block(fast);
                let items = self.b.ins().load(types::I64, flags(), mi, list_field(ll::ITEMS));
                let off = self.b.ins().imul_imm_s(len, (slots * ll::SLOT) as i64);
                let addr = self.b.ins().iadd(items, off);
                let zero = self.iconst(types::I64, 0);
                for k in 0..slots {
                    self.b.ins().store(flags(), zero, addr, (k * ll::SLOT) as i32);
                }
                self.b.ins().store(flags(), n, mi, list_field(ll::LEN));
                self.b.ins().jump(done, &[]);
                self.b.switch_to_block(slow);
                self.b.seal_block(slow);
                let ok = self.call_helper(runtime::LIST_RESIZE, &[mi, n], &[types::I64; 2], types::I8);
                let failed = self.b.ins().icmp_imm_s(IntCC::Equal, ok, 0);
                self.raise_exception_if(failed, "MemoryError", twinjit_ir::abi::ALLOCATION_FAILED, span);
                self.b.ins().jump(done, &[]);
                self.b.switch_to_block(done);
                self.b.seal_block(done);
                Parts::new()
            }
            InstKind::FuncRef(_) => Parts::new(),
            InstKind::ConstArray(c) => {
                let Some(&fr) = self.consts.get(&(std::sync::Arc::as_ptr(c) as usize)) else {
                    return Err(HostError::Internal(format!("constant array `{}` was not defined", c.name)));
                };
                let data = self.b.ins().func_addr(types::I64, fr);
                let dims: Parts = c.shape.iter().chain(&c.strides()).map(|&d| self.iconst(types::I64, d)).collect();
                // No owner: borrowed, like an argument, so never counted or freed.
                std::iter::once(data).chain(dims).chain(std::iter::once(self.iconst(types::I64, 0))).collect()
            }
            InstKind::AllocArray { space, dtype, shape, .. } if self.sim.is_some() => {
                self.alloc_array(*space, *dtype, shape, span)?
            }
            InstKind::AllocArray { .. } => {
                return Err(HostError::Unsupported(Unsupported {
                    what: "cuda.shared.array / cuda.local.array".into(),
                    span,
                    hint: "these exist only in CUDA kernels; compile for the cuda target".into(),
                }))
            }
        })
    }

    /// The address of element `i` of list `l`.
    fn list_element_addr(&mut self, l: Value, i: Value, elem: &Type) -> cl::Value {
        let size = twinjit_ir::abi::list_elem_layout(elem).map(|(s, _)| s).unwrap_or(ll::SLOT);
        let mi = self.one(l);
        let items = self.b.ins().load(types::I64, flags(), mi, list_field(ll::ITEMS));
        let off = self.b.ins().imul_imm_s(self.vals[i.index()][0], size as i64);
        self.b.ins().iadd(items, off)
    }

    /// The references value `v` holds: the owner of every array in it and every list.
    fn owners(&self, v: Value) -> Vec<cl::Value> {
        twinjit_ir::abi::flatten(self.f.ty(v))
            .into_iter()
            .zip(self.vals[v.index()].iter())
            .filter(|(p, _)| p.is_owner())
            .map(|(_, x)| *x)
            .collect()
    }

    /// `incref`/`decref` of one owner, inline: nothing for a null owner (a lent array), an
    /// atomic add, and on a decrement to zero a call of the memory manager's free.
    fn count(&mut self, mi: cl::Value, inc: bool) {
        let owned = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(mi, owned, &[], done, &[]);
        self.b.switch_to_block(owned);
        self.b.seal_block(owned);
        let delta = self.iconst(types::I64, if inc { 1 } else { -1 });
        let old = self.b.ins().atomic_rmw(types::I64, MemFlagsData::trusted(), cl::AtomicRmwOp::Add, mi, delta);
        if inc {
            self.b.ins().jump(done, &[]);
        } else {
            let free = self.b.create_block();
            let last = self.b.ins().icmp_imm_s(IntCC::Equal, old, 1);
            self.b.ins().brif(last, free, &[], done, &[]);
            self.b.switch_to_block(free);
            self.b.seal_block(free);
            self.b.set_cold_block(free);
            let fr = (self.helpers)(&mut self.b, runtime::NRT_FREE, &[types::I64], &[]);
            self.call(fr, &[mi]);
            self.b.ins().jump(done, &[]);
        }
        self.b.switch_to_block(done);
        self.b.seal_block(done);
    }

    /// Raises `class(message)` (a constant exception) when `cond` is true; continues in a new
    /// block.
    fn raise_exception_if(&mut self, cond: cl::Value, class: &str, message: &str, span: Span) {
        let raise = self.b.create_block();
        let cont = self.b.create_block();
        self.b.ins().brif(cond, raise, &[], cont, &[]);
        self.b.switch_to_block(raise);
        self.b.seal_block(raise);
        self.b.set_cold_block(raise);
        let e = Exception { class: class.into(), args: vec![twinjit_ir::ExceptionArg::Str(message.into())] };
        self.raise(&e, span);
        self.b.switch_to_block(cont);
        self.b.seal_block(cont);
    }

    pub(crate) fn fzero(&mut self, t: types::Type) -> cl::Value {
        if t == types::F32 {
            self.b.ins().f32const(0.0)
        } else {
            self.b.ins().f64const(0.0)
        }
    }

    fn element_addr(&mut self, a: Value, off: Value) -> cl::Value {
        let dt = self.f.ty(a).array().expect("array").dtype;
        let data = self.vals[a.index()][0];
        let size = dt.size() as i64;
        let scaled = |this: &mut Self, v: Value| {
            let o = this.one(v);
            if size == 1 {
                o
            } else {
                this.b.ins().imul_imm_s(o, size)
            }
        };
        // `a[row + k]` with `row` from outside this block and `k` from inside (a row's offset
        // and a column counter): `(data + row * size) + k * size`. Cranelift hoists the first
        // sum out of the loop and folds the second into the load's address.
        if let Some(InstKind::Binary(BinaryOp::Add, x, y)) = self.f.def_inst(off).map(|d| &d.kind) {
            let (x, y) = (*x, *y);
            let here = |v: Value| self.def_block[v.index()] == self.current;
            if here(x) != here(y) {
                let (outer, inner) = if here(x) { (y, x) } else { (x, y) };
                let o = scaled(self, outer);
                let row = self.b.ins().iadd(data, o);
                let i = scaled(self, inner);
                return self.b.ins().iadd(row, i);
            }
        }
        let bytes = scaled(self, off);
        self.b.ins().iadd(data, bytes)
    }

    /// The IR's `cast` (see `twinjit_ir::interp::cast`, its definition): integers extend by
    /// their own signedness or wrap; floats truncate toward zero, saturating at int32 for
    /// int32, at int64 (uint64 for a non-negative float to uint64) otherwise, then wrap.
    pub(crate) fn cast(&mut self, x: cl::Value, from: Scalar, to: Scalar) -> cl::Value {
        use Scalar::*;
        if from == to {
            return x;
        }
        let (ft, tt) = (scalar_type(from), scalar_type(to));
        match (from, to) {
            (_, Bool) if from.is_float() => {
                let z = self.fzero(ft);
                self.b.ins().fcmp(FloatCC::NotEqual, x, z)
            }
            (_, Bool) => self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0),
            (Float32, Float64) => self.b.ins().fpromote(types::F64, x),
            (Float64, Float32) => self.b.ins().fdemote(types::F32, x),
            (_, Float32 | Float64) => {
                // Through 64 bits: Cranelift converts from i32/i64 only.
                let w = self.int_to_i64(x, from);
                if from == UInt64 {
                    self.b.ins().fcvt_from_uint(tt, w)
                } else {
                    self.b.ins().fcvt_from_sint(tt, w)
                }
            }
            (Float32 | Float64, Int32) => self.b.ins().fcvt_to_sint_sat(types::I32, x),
            (Float32 | Float64, UInt64) => {
                let s = self.b.ins().fcvt_to_sint_sat(types::I64, x);
                let u = self.b.ins().fcvt_to_uint_sat(types::I64, x);
                let z = self.fzero(ft);
                let nonneg = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, x, z);
                self.b.ins().select(nonneg, u, s)
            }
            (Float32 | Float64, _) => {
                let w = self.b.ins().fcvt_to_sint_sat(types::I64, x);
                if tt == types::I64 {
                    w
                } else {
                    self.b.ins().ireduce(tt, w)
                }
            }
            _ => {
                // Integer (or bool) to integer.
                if ft.bits() < tt.bits() {
                    if from.is_signed() {
                        self.b.ins().sextend(tt, x)
                    } else {
                        self.b.ins().uextend(tt, x)
                    }
                } else if ft.bits() > tt.bits() {
                    self.b.ins().ireduce(tt, x)
                } else {
                    x
                }
            }
        }
    }

    /// An integer or bool as an i64, extended by its signedness.
    pub(crate) fn int_to_i64(&mut self, x: cl::Value, s: Scalar) -> cl::Value {
        if scalar_type(s) == types::I64 {
            x
        } else if s.is_signed() {
            self.b.ins().sextend(types::I64, x)
        } else {
            self.b.ins().uextend(types::I64, x)
        }
    }

    /// `v` is the float constant 2.0 of its own type.
    fn is_two(&self, v: Value) -> bool {
        matches!(self.f.def_inst(v).map(|d| &d.kind), Some(InstKind::Const(Const::Float(x))) if *x == 2.0)
            || matches!(self.f.def_inst(v).map(|d| &d.kind), Some(InstKind::Const(Const::Int(2))))
    }

    fn binary(&mut self, op: BinaryOp, a: Value, c: Value, span: Span) -> Result<cl::Value, HostError> {
        let (x, y) = (self.one(a), self.one(c));
        let s = self.scalar(a);
        let t = scalar_type(s);
        if s.is_float() {
            let suffix = if s == Scalar::Float32 { "f32" } else { "f64" };
            return Ok(match op {
                BinaryOp::Add => self.b.ins().fadd(x, y),
                BinaryOp::Sub => self.b.ins().fsub(x, y),
                // `2.0 * x` is `x + x`, exactly (NaN, infinities and -0.0 too), as LLVM rewrites
                // it: no constant to materialise (Cranelift rematerialises a float constant in
                // every block that uses it, two instructions each).
                BinaryOp::Mul if self.is_two(a) => self.b.ins().fadd(y, y),
                BinaryOp::Mul if self.is_two(c) => self.b.ins().fadd(x, x),
                BinaryOp::Mul => self.b.ins().fmul(x, y),
                BinaryOp::Div => self.b.ins().fdiv(x, y),
                BinaryOp::FloorDiv => self.call_helper(&format!("twinjit_floordiv_{suffix}"), &[x, y], &[t, t], t),
                BinaryOp::Mod => self.call_helper(&format!("twinjit_mod_{suffix}"), &[x, y], &[t, t], t),
                BinaryOp::Pow if self.scalar(c).is_int() => {
                    let helper = format!("twinjit_powi_{suffix}_rt");
                    self.pow_by_int(x, y, c, t, span, &helper)
                }
                BinaryOp::Pow => {
                    self.call_helper(&libm_symbol(Builtin::MathPow, s == Scalar::Float32), &[x, y], &[t, t], t)
                }
                _ => return Err(HostError::Internal(format!("{} on floats", op.name()))),
            });
        }
        if s == Scalar::Bool {
            return Ok(match op {
                BinaryOp::BitAnd => self.b.ins().band(x, y),
                BinaryOp::BitOr => self.b.ins().bor(x, y),
                BinaryOp::BitXor => self.b.ins().bxor(x, y),
                _ => return Err(HostError::Internal(format!("{} on bools", op.name()))),
            });
        }
        if s.is_unsigned() {
            if let Some(r) = self.unsigned_binary(op, x, y, c, t) {
                return Ok(r);
            }
        }
        Ok(match op {
            BinaryOp::Add => self.b.ins().iadd(x, y),
            BinaryOp::Sub => self.b.ins().isub(x, y),
            BinaryOp::Mul => self.b.ins().imul(x, y),
            BinaryOp::Div => {
                let fx = self.b.ins().fcvt_from_sint(types::F64, x);
                let fy = self.b.ins().fcvt_from_sint(types::F64, y);
                self.b.ins().fdiv(fx, fy)
            }
            BinaryOp::FloorDiv | BinaryOp::Mod => self.int_divmod(op, x, y, c, t),
            BinaryOp::Pow => self.pow_by_int(x, y, c, t, span, "twinjit_powi_i64"),
            BinaryOp::BitAnd => self.b.ins().band(x, y),
            BinaryOp::BitOr => self.b.ins().bor(x, y),
            BinaryOp::BitXor => self.b.ins().bxor(x, y),
            BinaryOp::Shl | BinaryOp::Shr => {
                // Counts outside 0..64 give 0 (<<) or the sign (>>), never Cranelift's masking.
                let in_range = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, y, 64);
                let shifted = if op == BinaryOp::Shl { self.b.ins().ishl(x, y) } else { self.b.ins().sshr(x, y) };
                let other = if op == BinaryOp::Shl { self.iconst(t, 0) } else { self.b.ins().sshr_imm_s(x, 63) };
                self.b.ins().select(in_range, shifted, other)
            }
        })
    }

    /// The operators whose unsigned form differs from the signed one; `None` for the rest.
    fn unsigned_binary(
        &mut self,
        op: BinaryOp,
        x: cl::Value,
        y: cl::Value,
        c: Value,
        t: types::Type,
    ) -> Option<cl::Value> {
        Some(match op {
            BinaryOp::Div => {
                let (x, y) = (self.uint_to_i64(x, t), self.uint_to_i64(y, t));
                let fx = self.b.ins().fcvt_from_uint(types::F64, x);
                let fy = self.b.ins().fcvt_from_uint(types::F64, y);
                self.b.ins().fdiv(fx, fy)
            }
            BinaryOp::FloorDiv | BinaryOp::Mod => {
                // The IR's raw semantics: a zero divisor gives 0.
                let zero = self.iconst(t, 0);
                let one = self.iconst(t, 1);
                let y0 = self.b.ins().icmp_imm_s(IntCC::Equal, y, 0);
                let safe = self.b.ins().select(y0, one, y);
                let r = if op == BinaryOp::FloorDiv { self.b.ins().udiv(x, safe) } else { self.b.ins().urem(x, safe) };
                self.b.ins().select(y0, zero, r)
            }
            BinaryOp::Shr => {
                let in_range = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, y, t.bits() as i64);
                let shifted = self.b.ins().ushr(x, y);
                let zero = self.iconst(t, 0);
                self.b.ins().select(in_range, shifted, zero)
            }
            BinaryOp::Pow => match self.const_int_through_cast(c) {
                Some(e) if (0..=64).contains(&e) => self.powi_unrolled(x, e, t),
                _ => self.call_helper("twinjit_powi_u64", &[x, y], &[t, types::I64], t),
            },
            _ => return None,
        })
    }

    fn uint_to_i64(&mut self, x: cl::Value, t: types::Type) -> cl::Value {
        if t == types::I64 {
            x
        } else {
            self.b.ins().uextend(types::I64, x)
        }
    }

    /// `x ** y` with an integer exponent (x int or float, of type `t`): `0 ** negative` raises
    /// ZeroDivisionError as in Numba; small constant exponents are unrolled, others call
    /// `helper`.
    fn pow_by_int(
        &mut self,
        x: cl::Value,
        y: cl::Value,
        c: Value,
        t: types::Type,
        span: Span,
        helper: &str,
    ) -> cl::Value {
        let base0 = if t.is_float() {
            let z = self.fzero(t);
            self.b.ins().fcmp(FloatCC::Equal, x, z)
        } else {
            self.b.ins().icmp_imm_s(IntCC::Equal, x, 0)
        };
        let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, y, 0);
        let bad = self.b.ins().band(base0, neg);
        let zi = self.iconst(types::I64, 0);
        self.raise_if(bad, ErrorCode::ZeroDivision, span, zi, zi, 0);
        match self.const_int(c) {
            Some(e) if (0..=64).contains(&e) => self.powi_unrolled(x, e, t),
            _ => self.call_helper(helper, &[x, y], &[t, types::I64], t),
        }
    }

    /// `x ** e` for a constant `e >= 0` by the same square-and-multiply sequence as the
    /// interpreter (bit-identical for floats).
    fn powi_unrolled(&mut self, x: cl::Value, e: i64, t: types::Type) -> cl::Value {
        let float = t.is_float();
        let mut r: Option<cl::Value> = None;
        let mut base = x;
        let mut e = e as u64;
        while e != 0 {
            if e & 1 == 1 {
                r = Some(match r {
                    None => base,
                    Some(r) => {
                        if float {
                            self.b.ins().fmul(r, base)
                        } else {
                            self.b.ins().imul(r, base)
                        }
                    }
                });
            }
            e >>= 1;
            if e != 0 {
                base = if float { self.b.ins().fmul(base, base) } else { self.b.ins().imul(base, base) };
            }
        }
        match r {
            Some(r) => r,
            None if float => {
                if t == types::F32 {
                    self.b.ins().f32const(1.0)
                } else {
                    self.b.ins().f64const(1.0)
                }
            }
            None => self.iconst(t, 1),
        }
    }

    /// Python's `//` or `%` of integers of type `t` with the IR's raw semantics (a zero divisor
    /// gives 0; the error, under the Python model, is an explicit `checknonzero` before). For int64 operands that both fit in 32 bits unsigned, with a non-zero divisor
    /// (loop counters, sizes, most integers a program divides), the 32-bit unsigned division
    /// runs: several times faster than the 64-bit one on x86-64 (LLVM's "bypass slow
    /// division"), and with both operands non-negative the floor needs no adjustment.
    fn int_divmod(&mut self, op: BinaryOp, x: cl::Value, y: cl::Value, c: Value, t: types::Type) -> cl::Value {
        if t != types::I64 || self.const_int(c).is_some() {
            return self.int_divmod_general(op, x, y, c, t);
        }
        let (small, big, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.append_block_param(join, t);
        let both = self.b.ins().bor(x, y);
        let high = self.b.ins().ushr_imm_u(both, 32);
        let fits = self.b.ins().icmp_imm_s(IntCC::Equal, high, 0);
        let nonzero = self.b.ins().icmp_imm_s(IntCC::NotEqual, y, 0);
        let fast = self.b.ins().band(fits, nonzero);
        self.b.ins().brif(fast, small, &[], big, &[]);

        self.b.switch_to_block(small);
        self.b.seal_block(small);
        let (x32, y32) = (self.b.ins().ireduce(types::I32, x), self.b.ins().ireduce(types::I32, y));
        let r = if op == BinaryOp::FloorDiv { self.b.ins().udiv(x32, y32) } else { self.b.ins().urem(x32, y32) };
        let r = self.b.ins().uextend(t, r);
        self.b.ins().jump(join, &[r.into()]);

        self.b.switch_to_block(big);
        self.b.seal_block(big);
        let r = self.int_divmod_general(op, x, y, c, t);
        self.b.ins().jump(join, &[r.into()]);

        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.b.block_params(join)[0]
    }

    /// [`Self::int_divmod`] for any operands.
    fn int_divmod_general(&mut self, op: BinaryOp, x: cl::Value, y: cl::Value, c: Value, t: types::Type) -> cl::Value {
        if let Some(k) = self.const_int(c).filter(|&k| k > 0) {
            // Positive constant divisor: no zero or overflow guard needed.
            let r = self.b.ins().srem_imm_s(x, k);
            let rneg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, r, 0);
            return if op == BinaryOp::FloorDiv {
                let q = self.b.ins().sdiv_imm_s(x, k);
                let q1 = self.b.ins().iadd_imm_s(q, -1);
                self.b.ins().select(rneg, q1, q)
            } else {
                let r1 = self.b.ins().iadd_imm_s(r, k);
                self.b.ins().select(rneg, r1, r)
            };
        }
        let zero = self.iconst(t, 0);
        let one = self.iconst(t, 1);
        let y0 = self.b.ins().icmp_imm_s(IntCC::Equal, y, 0);
        let ym1 = self.b.ins().icmp_imm_s(IntCC::Equal, y, -1);
        let guard = self.b.ins().bor(y0, ym1);
        let safe = self.b.ins().select(guard, one, y);
        // The quotient only where it is wanted: a division may trap, so Cranelift keeps an
        // unused one (a second `idiv` for every `%`).
        let q = (op == BinaryOp::FloorDiv).then(|| {
            let q = self.b.ins().sdiv(x, safe);
            // y == -1: quotient -x (wrapping).
            let negx = self.b.ins().ineg(x);
            self.b.ins().select(ym1, negx, q)
        });
        let r = self.b.ins().srem(x, safe);
        // y == -1: remainder 0.
        let r = self.b.ins().select(ym1, zero, r);
        // Floor: adjust when the remainder is non-zero and its sign differs from the divisor's.
        let rnz = self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
        let sx = self.b.ins().bxor(r, y);
        let diff = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, sx, 0);
        let adj = self.b.ins().band(rnz, diff);
        let res = match q {
            Some(q) => {
                let q1 = self.b.ins().iadd_imm_s(q, -1);
                self.b.ins().select(adj, q1, q)
            }
            None => {
                let r1 = self.b.ins().iadd(r, y);
                self.b.ins().select(adj, r1, r)
            }
        };
        self.b.ins().select(y0, zero, res)
    }

    fn builtin(&mut self, bi: Builtin, args: &[Value], rty: &Type, span: Span) -> Result<cl::Value, HostError> {
        let unsupported =
            |hint: &str| HostError::Unsupported(Unsupported { what: bi.name().into(), span, hint: hint.into() });
        if rty.scalar().is_none() {
            return Err(unsupported("this builtin is not available on the host"));
        }
        if matches!(bi.info().lowering, Lowering::Helper(Helper::Gemm)) {
            // (m, k, n, then data and the two strides of a, b and c): an array's parts are
            // data, dims, strides, owner.
            let part = |this: &Self, v: Value, k: usize| this.vals[v.index()][k];
            let (a, b, c) = (args[0], args[1], args[2]);
            let f32 = self.f.ty(a).array().is_some_and(|t| t.dtype == Scalar::Float32);
            let mut xs = vec![part(self, a, 1), part(self, a, 2), part(self, b, 2)];
            for v in [a, b, c] {
                xs.extend([part(self, v, 0), part(self, v, 3), part(self, v, 4)]);
            }
            let params = vec![types::I64; xs.len()];
            return Ok(self.call_helper(runtime::helper_symbol(Helper::Gemm, f32), &xs, &params, types::I64));
        }
        if matches!(bi.info().lowering, Lowering::Intrinsic(Intrinsic::SameAddress)) {
            // The first parts: an array's data pointer, a list's object.
            let (x, y) = (self.vals[args[0].index()][0], self.vals[args[1].index()][0]);
            return Ok(self.b.ins().icmp(IntCC::Equal, x, y));
        }
        let mut xs: Vec<cl::Value> = args.iter().map(|a| self.one(*a)).collect();
        let mut arg_types: Vec<types::Type> = args.iter().map(|a| scalar_type(self.scalar(*a))).collect();
        // float16 math (cuda-sim) runs in float32 and rounds the result, as the interpreter's.
        let half = args.iter().any(|a| self.f.ty(*a).scalar() == Some(Scalar::Float16));
        if half {
            for (k, a) in args.iter().enumerate() {
                if self.scalar(*a) == Scalar::Float16 {
                    xs[k] = self.half_to_f32(xs[k]);
                    arg_types[k] = types::F32;
                }
            }
        }
        let t = arg_types.first().copied().unwrap_or(types::F64);
        let f32 = t == types::F32;
        let r = match bi.info().lowering {
            Lowering::Intrinsic(i) => match i {
                Intrinsic::Sqrt => self.b.ins().sqrt(xs[0]),
                Intrinsic::Fabs => self.b.ins().fabs(xs[0]),
                Intrinsic::Floor => self.b.ins().floor(xs[0]),
                Intrinsic::Ceil => self.b.ins().ceil(xs[0]),
                Intrinsic::Trunc => self.b.ins().trunc(xs[0]),
                Intrinsic::Rint => self.b.ins().nearest(xs[0]),
                Intrinsic::Copysign => self.b.ins().fcopysign(xs[0], xs[1]),
                Intrinsic::IsNan => self.b.ins().fcmp(FloatCC::Unordered, xs[0], xs[0]),
                Intrinsic::SameAddress => unreachable!("lowered above"),
                Intrinsic::IsInf | Intrinsic::IsFinite => {
                    let a = self.b.ins().fabs(xs[0]);
                    let inf =
                        if f32 { self.b.ins().f32const(f32::INFINITY) } else { self.b.ins().f64const(f64::INFINITY) };
                    let cc = if i == Intrinsic::IsInf { FloatCC::Equal } else { FloatCC::LessThan };
                    self.b.ins().fcmp(cc, a, inf)
                }
            },
            // The interpreter's own libm function, through the table's address: bit-identical.
            Lowering::Libm(m) => self.call_helper(&m.host_symbol(f32), &xs, &arg_types, t),
            Lowering::Helper(h) => {
                let ret = match h {
                    Helper::Gcd | Helper::RandomSeed | Helper::RandomBelow | Helper::PyRandomInt => types::I64,
                    Helper::GetNumThreads | Helper::SetNumThreads | Helper::ThreadId => types::I64,
                    Helper::PrintBytes
                    | Helper::PrintInt
                    | Helper::PrintUInt
                    | Helper::PrintFloat
                    | Helper::PrintBool
                    | Helper::PrintComplex => types::I64,
                    Helper::FrexpMantissa => t,
                    Helper::FrexpExponent => types::I32,
                    Helper::RandomDouble | Helper::RandomGauss | Helper::PyRandomFloat => types::F64,
                    Helper::Gemm => unreachable!("lowered above"),
                };
                self.call_helper(runtime::helper_symbol(h, f32), &xs, &arg_types, ret)
            }
            Lowering::Rewritten => return Err(unsupported("rewritten by type inference before the backend")),
            Lowering::Kernel(_) => {
                return Err(unsupported("CUDA intrinsics exist only in kernels compiled for the cuda target"))
            }
        };
        Ok(if half && rty.scalar() == Some(Scalar::Float16) && self.b.func.dfg.value_type(r) == types::F32 {
            self.f32_to_half(r)
        } else {
            r
        })
    }
}

/// The host import of a libm builtin (float `**` is `math.pow`'s function).
fn libm_symbol(b: Builtin, f32: bool) -> String {
    match b.info().lowering {
        Lowering::Libm(m) => m.host_symbol(f32),
        _ => unreachable!("{} is not a libm builtin", b.name()),
    }
}
