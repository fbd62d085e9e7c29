//! CUDA's kernel operations lowered for `cuda-sim` (see `sim` for the model): registers read
//! from the thread's record behind the error pointer, barriers and warp operations as calls
//! that suspend the thread, atomics as calls, shared arrays in the block's buffer and local
//! arrays in stack slots.

use crate::abi::scalar_type;
use crate::abi::ErrorCode;
use crate::lower::{FnLowering, Parts};
use crate::runtime;
use crate::sim::{self, offset, SharedSite};
use crate::HostError;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{self as cl, types, InstBuilder, MemFlagsData};
use twinjit_diag::Span;
use twinjit_ir::abi::Unsupported;
use twinjit_ir::builtins::{BitOp, KernelOp, Register, VoteOp};
use twinjit_ir::interp::race::AccessKind;
use twinjit_ir::{AddressSpace, Builtin, Scalar, Type, Value};

fn flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl FnLowering<'_, '_> {
    /// A u32 field of the thread's record, as an i64.
    fn thread_u32(&mut self, off: i32) -> cl::Value {
        let v = self.b.ins().load(types::I32, flags(), self.err_ptr, off);
        self.b.ins().uextend(types::I64, v)
    }

    fn thread_i64(&mut self, off: i32) -> cl::Value {
        self.b.ins().load(types::I64, flags(), self.err_ptr, off)
    }

    /// An i64 as a value of the scalar type of `ty` (or of the tuple element `k`).
    fn i64_as(&mut self, v: cl::Value, ty: &Type) -> Result<cl::Value, HostError> {
        let s = ty.scalar().ok_or_else(|| HostError::Internal(format!("a kernel operation of type {ty}")))?;
        Ok(self.cast(v, Scalar::Int64, s))
    }

    /// A scalar's bits in an i64: integers extended by their signedness, floats by their bits.
    fn bits_of(&mut self, v: Value) -> cl::Value {
        let s = self.scalar(v);
        let x = self.one(v);
        self.bits_of_value(x, s)
    }

    /// [`Self::bits_of`] of a lowered value of scalar type `s`.
    fn bits_of_value(&mut self, x: cl::Value, s: Scalar) -> cl::Value {
        match s {
            Scalar::Float32 => {
                let i = self.b.ins().bitcast(types::I32, MemFlagsData::new(), x);
                self.b.ins().uextend(types::I64, i)
            }
            Scalar::Float64 => self.b.ins().bitcast(types::I64, MemFlagsData::new(), x),
            _ => self.int_to_i64(x, s),
        }
    }

    /// The value of scalar type `s` whose bits an i64 holds (the inverse of [`Self::bits_of`]).
    fn value_of_bits(&mut self, r: cl::Value, s: Scalar) -> cl::Value {
        match s {
            Scalar::Float32 => {
                let i = self.b.ins().ireduce(types::I32, r);
                self.b.ins().bitcast(types::F32, MemFlagsData::new(), i)
            }
            Scalar::Float64 => self.b.ins().bitcast(types::F64, MemFlagsData::new(), r),
            _ => {
                let t = scalar_type(s);
                if t == types::I64 {
                    r
                } else {
                    self.b.ins().ireduce(t, r)
                }
            }
        }
    }

    /// An integer (or bool) operand as an i64.
    fn int_arg(&mut self, v: Value) -> cl::Value {
        let s = self.scalar(v);
        let x = self.one(v);
        if s.is_float() {
            self.cast(x, s, Scalar::Int64)
        } else {
            self.int_to_i64(x, s)
        }
    }

    /// A predicate operand as 0 or 1 in an i64.
    fn pred_arg(&mut self, v: Value) -> cl::Value {
        let s = self.scalar(v);
        let x = self.one(v);
        let b = self.cast(x, s, Scalar::Bool);
        self.b.ins().uextend(types::I64, b)
    }

    pub(crate) fn unsupported_here(what: String, span: Span, hint: &str) -> HostError {
        HostError::Unsupported(Unsupported { what, span, hint: hint.into() })
    }

    /// A CUDA kernel operation (`Lowering::Kernel`) for `cuda-sim`.
    pub(crate) fn kernel_op(
        &mut self,
        k: KernelOp,
        bi: Builtin,
        args: &[Value],
        rty: &Type,
        span: Span,
    ) -> Result<Parts, HostError> {
        let one = |v: cl::Value| -> Parts { smallvec::smallvec![v] };
        if let Some(code) = sim::sync_code(k) {
            return self.sync_op(k, code, args, rty, span);
        }
        Ok(match k {
            KernelOp::Grid | KernelOp::Gridsize => {
                let n =
                    args.first().and_then(|a| self.const_int(*a)).filter(|n| (1..=3).contains(n)).ok_or_else(|| {
                        HostError::Internal(format!("{} without a constant dimension 1..3", bi.name()))
                    })?;
                let mut out = Parts::new();
                for axis in 0..n as i32 {
                    let v = if k == KernelOp::Grid {
                        let tid = self.thread_u32(offset::TID + 4 * axis);
                        let bid = self.thread_u32(offset::CTAID + 4 * axis);
                        let bdim = self.thread_u32(offset::NTID + 4 * axis);
                        let m = self.b.ins().imul(bid, bdim);
                        self.b.ins().iadd(m, tid)
                    } else {
                        let bdim = self.thread_u32(offset::NTID + 4 * axis);
                        let gdim = self.thread_u32(offset::NCTAID + 4 * axis);
                        self.b.ins().imul(bdim, gdim)
                    };
                    let ty = match rty {
                        Type::Tuple(ts) => ts.get(axis as usize).cloned().unwrap_or(Type::I64),
                        t => t.clone(),
                    };
                    out.push(self.i64_as(v, &ty)?);
                }
                out
            }
            KernelOp::Register(r) => {
                let v = match r {
                    Register::ThreadIdx(a) => self.thread_u32(offset::TID + 4 * a as i32),
                    Register::BlockIdx(a) => self.thread_u32(offset::CTAID + 4 * a as i32),
                    Register::BlockDim(a) => self.thread_u32(offset::NTID + 4 * a as i32),
                    Register::GridDim(a) => self.thread_u32(offset::NCTAID + 4 * a as i32),
                    Register::LaneId => self.thread_u32(offset::LANE),
                    Register::WarpSize => self.iconst(types::I64, 32),
                };
                one(self.i64_as(v, rty)?)
            }
            KernelOp::ActiveMask => {
                let v = self.thread_u32(offset::WARP_LANES);
                one(self.i64_as(v, rty)?)
            }
            KernelOp::LaneMaskLt => {
                let lane = self.thread_u32(offset::LANE);
                let bit = self.iconst(types::I64, 1);
                let m = self.b.ins().ishl(bit, lane);
                let v = self.b.ins().iadd_imm_s(m, -1);
                one(self.i64_as(v, rty)?)
            }
            KernelOp::ThisGrid | KernelOp::NanoSleep => Parts::new(),
            KernelOp::ThreadFence | KernelOp::ThreadFenceBlock | KernelOp::ThreadFenceSystem => {
                self.b.ins().fence();
                Parts::new()
            }
            KernelOp::Bits(op) => {
                let s = self.scalar(args[0]);
                let x = self.one(args[0]);
                let r = match op {
                    BitOp::Popc => self.b.ins().popcnt(x),
                    BitOp::Clz => self.b.ins().clz(x),
                    BitOp::Brev => self.b.ins().bitrev(x),
                    BitOp::Ffs => {
                        let t = self.b.ins().ctz(x);
                        let plus = self.b.ins().iadd_imm_s(t, 1);
                        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, x, 0);
                        let z = self.iconst(scalar_type(s), 0);
                        self.b.ins().select(zero, z, plus)
                    }
                };
                let out = rty.scalar().ok_or_else(|| HostError::Internal("a bit operation's type".into()))?;
                // Counts are small non-negative numbers: read them unsigned.
                let from = if op == BitOp::Brev { s } else { unsigned_of(s) };
                one(self.cast(r, from, out))
            }
            KernelOp::Atomic(aop) => {
                let Some(at) = self.f.ty(args[0]).array() else {
                    return Err(HostError::Internal("an atomic on a non-array".into()));
                };
                let Some(dcode) = sim::dtype_code(at.dtype) else {
                    return Err(Self::unsupported_here(
                        format!("{} on an array of {}", bi.name(), at.dtype.name()),
                        span,
                        "atomics take integer and float32/float64 arrays",
                    ));
                };
                let addr = self.atomic_address(args[0], args[1], at.ndim as usize, at.dtype, span);
                self.race_check(args[0], addr, AccessKind::Atomic, span);
                let code = self.iconst(types::I64, dcode << 8 | sim::atomic_code(aop));
                let v = self.atomic_operand(args[2], at.dtype);
                let v2 = match args.get(3) {
                    Some(a) => self.atomic_operand(*a, at.dtype),
                    None => self.iconst(types::I64, 0),
                };
                let old = self.call_helper(runtime::SIM_ATOMIC, &[addr, code, v, v2], &[types::I64; 4], types::I64);
                let r = self.value_of_bits(old, at.dtype);
                let out = rty.scalar().unwrap_or(at.dtype);
                one(self.cast(r, at.dtype, out))
            }
            // A cache operator changes nothing on a CPU: the element load or store (with its
            // race check), as `expand_indexing` left it (array, element offset[, value]).
            KernelOp::CacheLoad(_) => self.inst(&twinjit_ir::InstKind::Load(args[0], args[1]), None, span)?,
            KernelOp::CacheStore(_) => {
                self.inst(&twinjit_ir::InstKind::Store(args[0], args[1], args[2]), None, span)?
            }
            KernelOp::Fma => {
                let (a, b, c) = (self.one(args[0]), self.one(args[1]), self.one(args[2]));
                one(self.b.ins().fma(a, b, c))
            }
            KernelOp::Select => {
                let s = self.scalar(args[0]);
                let c0 = self.one(args[0]);
                let c = self.cast(c0, s, Scalar::Bool);
                let (a, b) = (self.get(args[1]), self.get(args[2]));
                a.iter().zip(&b).map(|(x, y)| self.b.ins().select(c, *x, *y)).collect()
            }
            _ => return Err(HostError::Internal(format!("{} reached the cuda-sim lowering", bi.name()))),
        })
    }

    /// With `cuda-sim`'s race checker: the access of element `addr` of array `a` reported to
    /// `sim::race_access` before it happens; a race raises (`ErrorCode::DataRace`, the details in
    /// the thread's record).
    pub(crate) fn race_check(&mut self, a: Value, addr: cl::Value, kind: AccessKind, span: Span) {
        if !self.sim.is_some_and(|l| l.race_check) {
            return;
        }
        let Some(at) = self.f.ty(a).array() else { return };
        let base = self.vals[a.index()][0];
        let site = self.site(span);
        let code = match kind {
            AccessKind::Read => 0,
            AccessKind::Write => 1,
            AccessKind::Atomic => 2,
        };
        let args = [
            self.err_ptr,
            addr,
            base,
            self.iconst(types::I64, at.dtype.size() as i64),
            self.iconst(types::I64, code),
            self.iconst(types::I64, site),
        ];
        let r = self.call_helper(runtime::SIM_RACE, &args, &[types::I64; 6], types::I64);
        let raced = self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
        let zero = self.iconst(types::I64, 0);
        self.raise_if(raced, ErrorCode::DataRace, span, zero, zero, 0);
    }

    /// An atomic's value operand converted to the element's type, as bits.
    fn atomic_operand(&mut self, v: Value, dt: Scalar) -> cl::Value {
        let s = self.scalar(v);
        let x = self.one(v);
        let c = self.cast(x, s, dt);
        self.bits_of_value(c, dt)
    }

    /// The address of `a[idx]` for an atomic: negative indices wrap as numba-cuda's do, and an
    /// index still outside the array raises `IndexError` (the interpreter's check).
    fn atomic_address(&mut self, a: Value, idx: Value, nd: usize, dt: Scalar, span: Span) -> cl::Value {
        let arr = self.get(a);
        let idx_types: Vec<Scalar> = match self.f.ty(idx) {
            Type::Tuple(ts) => ts.iter().filter_map(Type::scalar).collect(),
            t => t.scalar().into_iter().collect(),
        };
        let parts = self.get(idx);
        let mut off = self.iconst(types::I64, 0);
        for (k, (p, s)) in parts.iter().zip(&idx_types).enumerate().take(nd) {
            let raw = if s.is_float() { self.cast(*p, *s, Scalar::Int64) } else { self.int_to_i64(*p, *s) };
            let len = arr[1 + k];
            let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, raw, 0);
            let wrapped = self.b.ins().iadd(raw, len);
            let i = self.b.ins().select(neg, wrapped, raw);
            let out = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, len);
            self.raise_if(out, ErrorCode::Index, span, i, len, k as i64);
            let term = self.b.ins().imul(i, arr[1 + nd + k]);
            off = self.b.ins().iadd(off, term);
        }
        let bytes = self.b.ins().imul_imm_s(off, dt.size() as i64);
        self.b.ins().iadd(arr[0], bytes)
    }

    /// A barrier or warp operation: a call that suspends the thread (`sim::sync`, `sim::warp`).
    fn sync_op(&mut self, k: KernelOp, code: i64, args: &[Value], rty: &Type, span: Span) -> Result<Parts, HostError> {
        let site = self.site(span);
        let site = self.iconst(types::I64, site);
        let opv = self.iconst(types::I64, code);
        let me = self.err_ptr;
        match k {
            KernelOp::Barrier | KernelOp::GridSync | KernelOp::BarrierReduce(_) => {
                // `g.sync()` takes the grid group (no parts); only the reducing barriers have a
                // predicate.
                let pred = match (k, args.first()) {
                    (KernelOp::BarrierReduce(_), Some(p)) => self.pred_arg(*p),
                    _ => self.iconst(types::I64, 0),
                };
                let r = self.call_helper(runtime::SIM_SYNC, &[me, opv, pred, site], &[types::I64; 4], types::I64);
                if matches!(k, KernelOp::BarrierReduce(_)) {
                    Ok(smallvec::smallvec![self.i64_as(r, rty)?])
                } else {
                    Ok(Parts::new())
                }
            }
            _ => {
                let mask = match args.first() {
                    Some(m) => self.int_arg(*m),
                    None => self.iconst(types::I64, 0xffff_ffff),
                };
                let (value, b) = match k {
                    KernelOp::SyncWarp => (self.iconst(types::I64, 0), self.iconst(types::I64, 0)),
                    KernelOp::Vote(VoteOp::MatchAny | VoteOp::MatchAll) => {
                        (self.bits_of(args[1]), self.iconst(types::I64, 0))
                    }
                    KernelOp::Vote(_) => (self.pred_arg(args[1]), self.iconst(types::I64, 0)),
                    _ => {
                        let s = self.scalar(args[1]);
                        if s.is_complex() {
                            return Err(Self::unsupported_here(
                                format!("a shuffle of {}", s.name()),
                                span,
                                "shuffle integers or floats",
                            ));
                        }
                        (self.bits_of(args[1]), self.int_arg(args[2]))
                    }
                };
                let r =
                    self.call_helper(runtime::SIM_WARP, &[me, opv, mask, value, b, site], &[types::I64; 6], types::I64);
                Ok(match k {
                    KernelOp::SyncWarp => Parts::new(),
                    KernelOp::Vote(VoteOp::MatchAll) => {
                        let Type::Tuple(ts) = rty else {
                            return Err(HostError::Internal("match_all_sync's type".into()));
                        };
                        let lo = self.b.ins().band_imm_u(r, 0xffff_ffff);
                        let m = self.i64_as(lo, &ts[0])?;
                        let hi = self.b.ins().ushr_imm_u(r, 32);
                        let p = self.i64_as(hi, &ts[1])?;
                        smallvec::smallvec![m, p]
                    }
                    KernelOp::Shuffle(_) => {
                        let s = self.scalar(args[1]);
                        let v = self.value_of_bits(r, s);
                        let out = rty.scalar().unwrap_or(s);
                        smallvec::smallvec![self.cast(v, s, out)]
                    }
                    _ => smallvec::smallvec![self.i64_as(r, rty)?],
                })
            }
        }
    }

    /// float16 bits (an `i16`) as the float32 they hold (exact).
    pub(crate) fn half_to_f32(&mut self, x: cl::Value) -> cl::Value {
        self.call_helper(runtime::F16_TO_F32, &[x], &[types::I16], types::F32)
    }

    /// A float32 rounded once to float16 bits.
    pub(crate) fn f32_to_half(&mut self, x: cl::Value) -> cl::Value {
        self.call_helper(runtime::F32_TO_F16, &[x], &[types::F32], types::I16)
    }

    /// An instruction on float16 values, for `cuda-sim` (`None` for any other): float16 values
    /// are their 16 bits, and arithmetic runs in float32 with one rounding of the result, as the
    /// interpreter computes them (exact for `+ - * /`, which is what PTX's `.f16` instructions
    /// give); a conversion to float16 rounds once from the source's own value.
    pub(crate) fn half_inst(
        &mut self,
        kind: &twinjit_ir::InstKind,
        rty: &Type,
        span: Span,
    ) -> Option<Result<Parts, HostError>> {
        use twinjit_ir::half::f16;
        use twinjit_ir::{BinaryOp, Const, InstKind as K, UnaryOp};
        let half = |me: &Self, v: &Value| me.f.ty(*v).scalar() == Some(Scalar::Float16);
        let to_half = rty.scalar() == Some(Scalar::Float16);
        let one = |v: cl::Value| -> Option<Result<Parts, HostError>> { Some(Ok(smallvec::smallvec![v])) };
        match kind {
            K::Const(c) if to_half => {
                let x = match c {
                    Const::Float(x) => *x,
                    Const::Int(i) => *i as f64,
                    Const::Bool(b) => *b as i64 as f64,
                    Const::None | Const::Str(_) => return None,
                };
                one(self.iconst(types::I16, f16::from_f64(x).to_bits() as i16 as i64))
            }
            K::Unary(op, a) if half(self, a) => {
                let x = self.one(*a);
                match op {
                    UnaryOp::Pos => one(x),
                    // The sign bit: exact, NaN included.
                    UnaryOp::Neg => one(self.b.ins().bxor_imm_s(x, i16::MIN as i64)),
                    UnaryOp::Not => {
                        let w = self.half_to_f32(x);
                        let z = self.fzero(types::F32);
                        one(self.b.ins().fcmp(cranelift_codegen::ir::condcodes::FloatCC::Equal, w, z))
                    }
                    UnaryOp::Invert => Some(Err(HostError::Internal("~ of a float16".into()))),
                }
            }
            K::Binary(op, a, c) if half(self, a) && half(self, c) => {
                let (x, y) = (self.one(*a), self.one(*c));
                let (x, y) = (self.half_to_f32(x), self.half_to_f32(y));
                let r = match op {
                    BinaryOp::Add => self.b.ins().fadd(x, y),
                    BinaryOp::Sub => self.b.ins().fsub(x, y),
                    BinaryOp::Mul => self.b.ins().fmul(x, y),
                    BinaryOp::Div => self.b.ins().fdiv(x, y),
                    other => return Some(Err(HostError::Internal(format!("{} on float16", other.name())))),
                };
                one(self.f32_to_half(r))
            }
            K::Compare(op, a, c) if half(self, a) => {
                let (x, y) = (self.one(*a), self.one(*c));
                let (x, y) = (self.half_to_f32(x), self.half_to_f32(y));
                one(self.compare(*op, Scalar::Float32, x, y))
            }
            K::Cast(to, a) if half(self, a) || *to == Scalar::Float16 => {
                let from = self.scalar(*a);
                let x = self.one(*a);
                let r = match (from, *to) {
                    (Scalar::Float16, Scalar::Float16) => x,
                    (Scalar::Float16, to) => {
                        let w = self.half_to_f32(x);
                        self.cast(w, Scalar::Float32, to)
                    }
                    (Scalar::Float32, _) => self.f32_to_half(x),
                    (from, _) => {
                        // One rounding from the exact value: float64 holds every integer float16
                        // can represent without overflow, and every float32.
                        let w = self.cast(x, from, Scalar::Float64);
                        self.call_helper(runtime::F64_TO_F16, &[w], &[types::F64], types::I16)
                    }
                };
                one(r)
            }
            K::CheckNonZero(a) if half(self, a) => {
                // Zero of either sign.
                let x = self.one(*a);
                let mag = self.b.ins().band_imm_s(x, 0x7fff);
                let is_zero = self.b.ins().icmp_imm_s(IntCC::Equal, mag, 0);
                let z = self.iconst(types::I64, 0);
                self.raise_if(is_zero, ErrorCode::ZeroDivision, span, z, z, 0);
                Some(Ok(Parts::new()))
            }
            _ => None,
        }
    }

    /// `cuda.shared.array` / `cuda.local.array`: the parts of a C-contiguous array in the
    /// block's shared buffer or in a zero-filled stack slot (no owner: never counted).
    pub(crate) fn alloc_array(
        &mut self,
        space: AddressSpace,
        dtype: Scalar,
        shape: &[i64],
        span: Span,
    ) -> Result<Parts, HostError> {
        let size = dtype.size() as i64;
        let (data, dims): (cl::Value, Vec<cl::Value>) = match space {
            AddressSpace::Shared => {
                let layout = self.sim.ok_or_else(|| HostError::Internal("a shared array outside cuda-sim".into()))?;
                let site = layout.sites.get(&(self.f.name.clone(), self.cur_inst)).copied();
                match site {
                    Some(SharedSite::Static(off)) => {
                        let base = self.thread_i64(offset::SHARED);
                        let data = self.b.ins().iadd_imm_s(base, off);
                        (data, shape.iter().map(|&d| self.iconst(types::I64, d)).collect())
                    }
                    Some(SharedSite::Dynamic(k)) => {
                        let base = self.thread_i64(offset::DYN_SHARED);
                        let stride = self.thread_i64(offset::DYN_STRIDE);
                        let skip = self.b.ins().imul_imm_s(stride, k);
                        let data = self.b.ins().iadd(base, skip);
                        let bytes = self.thread_i64(offset::DYN_BYTES);
                        let n = self.b.ins().udiv_imm_u(bytes, size);
                        (data, vec![n])
                    }
                    None => return Err(HostError::Internal("a shared array outside the layout".into())),
                }
            }
            _ => {
                let n: i64 = shape.iter().product::<i64>().max(0);
                let bytes = n.checked_mul(size).filter(|&b| b <= 1 << 24).ok_or_else(|| {
                    Self::unsupported_here(
                        format!("a local array of {n} elements"),
                        span,
                        "cuda-sim keeps local arrays on a GPU thread's stack (at most 16 MiB)",
                    )
                })?;
                let slot_bytes = (bytes as u32).next_multiple_of(16).max(16);
                let slot = self.b.create_sized_stack_slot(cl::StackSlotData::new(
                    cl::StackSlotKind::ExplicitSlot,
                    slot_bytes,
                    4,
                ));
                let data = self.b.ins().stack_addr(types::I64, slot, 0);
                self.zero_fill(data, slot_bytes as i64);
                (data, shape.iter().map(|&d| self.iconst(types::I64, d)).collect())
            }
        };
        let mut strides = vec![self.iconst(types::I64, 1); dims.len()];
        for k in (0..dims.len().saturating_sub(1)).rev() {
            strides[k] = self.b.ins().imul(strides[k + 1], dims[k + 1]);
        }
        let owner = self.iconst(types::I64, 0);
        Ok(std::iter::once(data).chain(dims).chain(strides).chain(std::iter::once(owner)).collect())
    }

    /// Stores zeros over `bytes` (a multiple of 16) from `p`.
    fn zero_fill(&mut self, p: cl::Value, bytes: i64) {
        let zero = self.iconst(types::I64, 0);
        if bytes <= 128 {
            for k in (0..bytes).step_by(8) {
                self.b.ins().store(flags(), zero, p, k as i32);
            }
            return;
        }
        let head = self.b.create_block();
        let body = self.b.create_block();
        let done = self.b.create_block();
        let cur = self.b.append_block_param(head, types::I64);
        let end = self.b.ins().iadd_imm_s(p, bytes);
        self.b.ins().jump(head, &[p.into()]);
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, cur, end);
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(body);
        self.b.seal_block(body);
        self.b.ins().store(flags(), zero, cur, 0);
        self.b.ins().store(flags(), zero, cur, 8);
        let next = self.b.ins().iadd_imm_s(cur, 16);
        self.b.ins().jump(head, &[next.into()]);
        self.b.seal_block(head);
        self.b.switch_to_block(done);
        self.b.seal_block(done);
    }
}

/// The unsigned integer type of `s`'s width (bit counts read as non-negative).
fn unsigned_of(s: Scalar) -> Scalar {
    match s.size() {
        1 => Scalar::UInt8,
        2 => Scalar::UInt16,
        4 => Scalar::UInt32,
        _ => Scalar::UInt64,
    }
}
