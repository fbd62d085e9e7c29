//! Which float additions become fused multiply-adds: NVVM's policy, followed so that kernels give
//! numba-cuda's bits where a product and a sum meet (Mandelbrot escape counts, complex
//! products, dot products).
//!
//! twinjit emits no `contract` flags (LLVM 19's own combiner would fuse other pairs: it also
//! fuses subtractions, and picks the multiplication with fewer uses); it decides here and emits
//! `llvm.fma` itself. The policy was read off numba-cuda's PTX (`cuda.compile_ptx`, NVVM of
//! CUDA 13, default `-fma=1`), probe by probe, and matches the passes that produce it:
//! - LLVM's `Reassociate` orders the operands of every commutative instruction, floats
//!   included, by rank: the operand of lower rank first (function arguments get ranks 3, 4, ...
//!   in order; each block in reverse post-order a base `(++rank) << 16`; phis, loads,
//!   divisions and calls in it the next ranks in program order; any other instruction the
//!   largest rank of its operands, capped at its block's base, plus one, a negation plus zero);
//! - `InstCombine` rewrites `x - C` as `x + (-C)`, `x - y * C` as `x + y * (-C)`, `x / 2^k`
//!   as `x * 2^-k`, `(-a) * b` as `-(a * b)` and `x + (-y)` as `x - y`;
//! - NVPTX's add combine fuses `fadd(fmul(a, b), c)` into `fma(a, b, c)` when every use of the
//!   product (fewer than five) is an `fadd`, trying the first operand's product, then the
//!   second's. A subtraction is never fused. A product used in another block than its sum
//!   counts as fused only when that sum is its one use (InstCombine sinks a single-use
//!   instruction into its user's block).
//!
//! Then ptxas, the driver's JIT, may fuse what NVVM printed without a rounding modifier
//! (`unpin_rounding` prints twinjit's unfused operations the same way), and `fuse_pairs` applies
//! the NVPTX rule to the pairs that only meet inside or around inlined libdevice code.
//!
//! float16 is never fused: numba-cuda computes it through calls of `cuda_fp16.h` functions.
//! With `fastmath=True` the kernel carries LLVM's fast-math flags instead and this plan is not
//! used; with contraction off (`EngineOptions::fp_contract`) nothing is fused.

use std::collections::HashMap;
use twinjit_ir::{BinaryOp, Block, Const, Function, InstKind, Scalar, Terminator, UnaryOp, Value, ValueDef};

/// One addition computed as `fma(a, b, addend)` (or `fma(a, b, -addend)`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fused {
    /// The product's first operand.
    pub a: Value,
    /// The product's second operand: a value, or the exact reciprocal of a division's
    /// constant power of two (InstCombine makes `x / 4.0` the product `x * 0.25`).
    pub b: Factor,
    /// What is added.
    pub addend: Value,
    /// `x - C` read as `x + (-C)`.
    pub negate_addend: bool,
}

/// The second factor of a fused product.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Factor {
    /// A value of the function.
    Value(Value),
    /// A float constant.
    Const(f64),
}

/// `1 / c` when it is exact (c a power of two, as InstCombine requires for `x / c -> x * (1/c)`).
fn exact_reciprocal(c: f64) -> Option<f64> {
    let r = 1.0 / c;
    (c.is_finite() && c != 0.0 && r.is_finite() && r != 0.0 && c.abs().log2().fract() == 0.0 && 1.0 / r == c)
        .then_some(r)
}

/// The additions of `f` that are fused, by their result.
pub(crate) fn plan(f: &Function) -> HashMap<Value, Fused> {
    let mut out = HashMap::new();
    let float = |v: Value| matches!(f.ty(v).scalar(), Some(Scalar::Float32 | Scalar::Float64));
    let kind = |v: Value| f.def_inst(v).map(|d| &d.kind);
    let is_neg = |v: Value| matches!(kind(v), Some(InstKind::Unary(UnaryOp::Neg, _)));
    let is_const = |v: Value| matches!(kind(v), Some(InstKind::Const(Const::Float(_) | Const::Int(_))));
    let float_const = |v: Value| match kind(v) {
        Some(InstKind::Const(Const::Float(c))) => Some(*c),
        Some(InstKind::Const(Const::Int(c))) => Some(*c as f64),
        _ => None,
    };
    // `x * 1.0` is `x` and `x * -1.0` is `-x` once InstCombine has run: not products.
    let unit = |v: Value| matches!(float_const(v), Some(c) if c.abs() == 1.0);
    let mul_operands = |v: Value| match kind(v) {
        Some(InstKind::Binary(BinaryOp::Mul, x, y))
            if float(v) && !is_neg(*x) && !is_neg(*y) && !unit(*x) && !unit(*y) =>
        {
            Some((*x, Factor::Value(*y)))
        }
        Some(InstKind::Binary(BinaryOp::Div, x, y)) if float(v) && !is_neg(*x) => {
            Some((*x, Factor::Const(exact_reciprocal(float_const(*y)?)?)))
        }
        _ => None,
    };
    // `y * C` (or `C * y`): `x - y * C` becomes `x + y * (-C)` (the DAG combiner negates the
    // constant), except where `y` is a part of a complex number loaded from an array: there
    // NVVM keeps the subtraction (`z[i] * x` with a real `x`, whose `b * 0.0` stays
    // subtracted; observed: the two parts arrive through one vector load).
    let complex_part = |v: Value| match kind(v) {
        Some(InstKind::TupleGet(t, _)) => matches!(kind(*t), Some(InstKind::Load(..))),
        _ => false,
    };
    let const_product = |v: Value| match kind(v) {
        Some(InstKind::Binary(BinaryOp::Mul, a, b)) if float(v) => match (float_const(*a), float_const(*b)) {
            (_, Some(c)) if !is_neg(*a) && !complex_part(*a) => Some((*a, c)),
            (Some(c), None) if !is_neg(*b) && !complex_part(*b) => Some((*b, c)),
            _ => None,
        },
        _ => None,
    };
    // Where each instruction is, and every use of every value: (block, is a use an fadd fuses).
    let mut block_of = vec![None; f.insts.len()];
    let mut uses: HashMap<Value, Vec<(Block, bool)>> = HashMap::new();
    let mut any_mul = false;
    for (bi, bd) in f.blocks.iter().enumerate() {
        let b = Block(bi as u32);
        for &inst in &bd.insts {
            block_of[inst.index()] = Some(b);
            let data = &f.insts[inst.index()];
            let r = data.result.filter(|r| float(*r));
            let fadd_use = |v: Value| match (&data.kind, r) {
                (InstKind::Binary(BinaryOp::Add, x, y), Some(_)) => {
                    let other = if *x == v { *y } else { *x };
                    !is_neg(other)
                }
                (InstKind::Binary(BinaryOp::Sub, x, y), Some(_)) => {
                    (*x == v && *y != v && is_const(*y)) || (*y == v && *x != v && const_product(v).is_some())
                }
                _ => false,
            };
            any_mul |= matches!(data.kind, InstKind::Binary(BinaryOp::Mul | BinaryOp::Div, ..)) && r.is_some();
            for v in data.kind.operands() {
                uses.entry(v).or_default().push((b, fadd_use(v)));
            }
        }
        for v in bd.end_operands() {
            uses.entry(v).or_default().push((b, false));
        }
    }
    if !any_mul {
        return out;
    }
    let def_block = |v: Value| match f.values[v.index()].def {
        ValueDef::Inst(i) => block_of[i.index()],
        ValueDef::Param(b, _) => Some(b),
    };
    let fusable = |v: Value| -> Option<(Value, Factor)> {
        let ops = mul_operands(v)?;
        let us = uses.get(&v)?;
        let home = def_block(v);
        let ok = (1..5).contains(&us.len())
            && us.iter().all(|(_, fadd)| *fadd)
            && (us.len() == 1 || us.iter().all(|(b, _)| Some(*b) == home));
        ok.then_some(ops)
    };
    let mut ranks = Ranks::new(f, &block_of);
    for bd in &f.blocks {
        for &inst in &bd.insts {
            let data = &f.insts[inst.index()];
            let Some(r) = data.result.filter(|r| float(*r)) else { continue };
            match data.kind {
                InstKind::Binary(BinaryOp::Add, x, y) if !is_neg(x) && !is_neg(y) => {
                    let (l, rr) = ranks.canonical(x, y);
                    if let Some((a, b)) = fusable(l) {
                        out.insert(r, Fused { a, b, addend: rr, negate_addend: false });
                    } else if let Some((a, b)) = fusable(rr) {
                        out.insert(r, Fused { a, b, addend: l, negate_addend: false });
                    }
                }
                InstKind::Binary(BinaryOp::Sub, x, y) if is_const(y) => {
                    if let Some((a, b)) = fusable(x) {
                        out.insert(r, Fused { a, b, addend: y, negate_addend: true });
                    }
                }
                InstKind::Binary(BinaryOp::Sub, x, y) if !is_neg(x) => {
                    if let (Some(_), Some((a, c))) = (fusable(y), const_product(y)) {
                        out.insert(r, Fused { a, b: Factor::Const(-c), addend: x, negate_addend: false });
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// `Reassociate`'s ranks (LLVM 7, the base of NVVM).
struct Ranks<'f> {
    f: &'f Function,
    block_of: &'f [Option<Block>],
    block_base: Vec<u64>,
    rank: HashMap<Value, u64>,
    /// For an instruction of a loop's test copied to the loop's end: its block's back-edge
    /// arguments and the loop header's parameters they become.
    test_of: HashMap<Value, Block>,
    back_args: HashMap<Block, HashMap<Value, Value>>,
}

impl<'f> Ranks<'f> {
    fn new(f: &'f Function, block_of: &'f [Option<Block>]) -> Self {
        let mut rank = HashMap::new();
        let mut r: u64 = 2;
        for p in f.params() {
            r += 1;
            rank.insert(*p, r);
        }
        let mut block_base = vec![0; f.blocks.len()];
        for b in f.reverse_postorder() {
            r += 1;
            let mut bb = r << 16;
            block_base[b.index()] = bb;
            let bd = &f.blocks[b.index()];
            if b != Function::ENTRY {
                for p in &bd.params {
                    bb += 1;
                    rank.insert(*p, bb);
                }
            }
            for &inst in &bd.insts {
                let data = &f.insts[inst.index()];
                let unmovable = match data.kind {
                    InstKind::Load(..) | InstKind::Call(..) | InstKind::Builtin(..) => true,
                    // SROA splits a complex load into one load per part, in order.
                    InstKind::TupleGet(t, _) => matches!(f.def_inst(t).map(|d| &d.kind), Some(InstKind::Load(..))),
                    InstKind::Binary(BinaryOp::FloorDiv | BinaryOp::Mod, ..) => true,
                    // InstCombine has made a division by a power of two a product by then.
                    InstKind::Binary(BinaryOp::Div, _, y) => !matches!(
                        f.def_inst(y).map(|d| &d.kind),
                        Some(InstKind::Const(Const::Float(c))) if exact_reciprocal(*c).is_some()
                    ),
                    _ => false,
                };
                if let (true, Some(res)) = (unmovable, data.result) {
                    bb += 1;
                    rank.insert(res, bb);
                }
            }
        }
        // The front end rotates loops itself: a `while` test is copied to the loop's end and
        // reads what the body computed, where NVVM's Reassociate (which runs before LLVM
        // rotates loops) sees the header's phis. That copy is ranked as reading the phis.
        let rpo = f.reverse_postorder();
        let mut pos = vec![usize::MAX; f.blocks.len()];
        for (k, b) in rpo.iter().enumerate() {
            pos[b.index()] = k;
        }
        let mut test_of = HashMap::new();
        let mut back_args = HashMap::new();
        for &b in &rpo {
            let bd = &f.blocks[b.index()];
            let Terminator::Branch(c, t, e) = &bd.term else { continue };
            let mut args = HashMap::new();
            for tgt in [t, e] {
                if pos[tgt.block.index()] <= pos[b.index()] {
                    for (a, p) in tgt.args.iter().zip(&f.blocks[tgt.block.index()].params) {
                        args.insert(*a, *p);
                    }
                }
            }
            if args.is_empty() {
                continue;
            }
            let mut stack = vec![*c];
            while let Some(v) = stack.pop() {
                let ValueDef::Inst(i) = f.values[v.index()].def else { continue };
                if block_of[i.index()] == Some(b) && test_of.insert(v, b).is_none() {
                    stack.extend(f.insts[i.index()].kind.operands());
                }
            }
            back_args.insert(b, args);
        }
        Ranks { f, block_of, block_base, rank, test_of, back_args }
    }

    fn get(&mut self, v: Value) -> u64 {
        if let Some(r) = self.rank.get(&v) {
            return *r;
        }
        let Some(data) = self.f.def_inst(v) else { return 0 };
        if matches!(data.kind, InstKind::Const(_)) {
            return 0;
        }
        let ValueDef::Inst(i) = self.f.values[v.index()].def else { return 0 };
        let cap = self.block_of[i.index()].map(|b| self.block_base[b.index()]).unwrap_or(u64::MAX);
        let renamed = self.test_of.get(&v).and_then(|b| self.back_args.get(b)).cloned();
        let mut r = 0;
        for op in data.kind.operands() {
            if r == cap {
                break;
            }
            let op = renamed.as_ref().and_then(|m| m.get(&op).copied()).unwrap_or(op);
            r = r.max(self.get(op));
        }
        if !matches!(data.kind, InstKind::Unary(UnaryOp::Neg | UnaryOp::Invert, _)) {
            r += 1;
        }
        self.rank.insert(v, r);
        r
    }

    /// The operands of a commutative instruction in `Reassociate`'s order: a constant second,
    /// else the lower rank first (ties keep the written order).
    fn canonical(&mut self, x: Value, y: Value) -> (Value, Value) {
        let konst = |v: Value| matches!(self.f.def_inst(v).map(|d| &d.kind), Some(InstKind::Const(_)));
        if x == y || konst(y) {
            return (x, y);
        }
        if konst(x) || self.get(y) < self.get(x) {
            (y, x)
        } else {
            (x, y)
        }
    }
}

/// The same rule on the optimised module, for the pairs `plan` cannot see: a product computed
/// inside a libdevice function meeting a sum of the kernel once the call is inlined (`1.0 +
/// exp(-x)`: libdevice's `expf` ends in a multiplication), and libdevice's own plain pairs
/// (its instructions carry no `contract` flag, so LLVM leaves them; NVVM fuses them like any
/// other). An `fadd` whose first (else second) operand is an `fmul` of its block, every use of
/// which (fewer than five) is an `fadd` of that block, becomes `llvm.fma`. On the kernel's own
/// code this agrees with `plan`: what `plan` fused is already an `llvm.fma`, and what it left
/// has a use or a shape (a subtraction, a negation) this rule refuses too.
///
/// Run also on libdevice's functions as linked, before optimisation (`skip` names the kernel's
/// own functions): libdevice's bitcode comes from NVIDIA's compiler, which writes `x - a * b`
/// as `x + (-a) * b`, a pair NVVM fuses and LLVM 19's InstCombine would turn into a subtraction.
pub(crate) fn fuse_pairs<'c>(
    ctx: &'c inkwell::context::Context,
    module: &inkwell::module::Module<'c>,
    skip: &std::collections::HashSet<String>,
) {
    use inkwell::types::AnyTypeEnum;
    use inkwell::values::{BasicMetadataValueEnum, BasicValue, InstructionOpcode, Operand, ValueKind};
    let Some(fma) = inkwell::intrinsics::Intrinsic::find("llvm.fma") else { return };
    let builder = ctx.create_builder();
    let fusable = |m: inkwell::values::InstructionValue<'c>, home: inkwell::basic_block::BasicBlock<'c>| {
        if m.get_opcode() != InstructionOpcode::FMul || m.get_parent() != Some(home) {
            return false;
        }
        let mut n = 0;
        let mut u = m.get_first_use();
        while let Some(us) = u {
            n += 1;
            let ok = match us.get_user() {
                inkwell::values::AnyValueEnum::FloatValue(v) => v
                    .as_instruction()
                    .is_some_and(|i| i.get_opcode() == InstructionOpcode::FAdd && i.get_parent() == Some(home)),
                _ => false,
            };
            if !ok || n >= 5 {
                return false;
            }
            u = us.get_next_use();
        }
        n > 0
    };
    let mut f = module.get_first_function();
    while let Some(func) = f {
        f = func.get_next_function();
        if func.count_basic_blocks() == 0 || skip.contains(&*func.get_name().to_string_lossy()) {
            continue;
        }
        for bb in func.get_basic_blocks() {
            let mut next = bb.get_first_instruction();
            while let Some(add) = next {
                next = add.get_next_instruction();
                if add.get_opcode() != InstructionOpcode::FAdd {
                    continue;
                }
                let AnyTypeEnum::FloatType(ft) = add.get_type() else { continue };
                if ft != ctx.f32_type() && ft != ctx.f64_type() {
                    continue;
                }
                let operand = |k: u32| match add.get_operand(k) {
                    Some(Operand::Value(v)) => Some(v),
                    _ => None,
                };
                let (Some(x), Some(y)) = (operand(0), operand(1)) else { continue };
                let pick = [(x, y), (y, x)].into_iter().find_map(|(m, other)| {
                    let mi = m.as_instruction_value()?;
                    fusable(mi, bb).then_some((mi, other))
                });
                let Some((mul, addend)) = pick else { continue };
                let (Some(Operand::Value(a)), Some(Operand::Value(b))) = (mul.get_operand(0), mul.get_operand(1))
                else {
                    continue;
                };
                let Some(decl) = fma.get_declaration(module, &[ft.into()]) else { continue };
                builder.position_before(&add);
                let args: [BasicMetadataValueEnum; 3] = [a.into(), b.into(), addend.into()];
                let Ok(call) = builder.build_call(decl, &args, "") else { continue };
                let ci = match call.try_as_basic_value() {
                    ValueKind::Basic(v) => v.as_instruction_value(),
                    ValueKind::Instruction(i) => Some(i),
                };
                let Some(ci) = ci else { continue };
                add.replace_all_uses_with(&ci);
                add.erase_from_basic_block();
            }
        }
    }
}

/// NVVM prints the float `add`, `sub` and `mul` it did not fuse without a rounding modifier,
/// which lets ptxas (the driver's JIT, `--fmad=true` by default) fuse them further; LLVM prints
/// `.rn`, which forbids it. numba-cuda's results are those of NVVM's choices followed by ptxas's,
/// so twinjit's PTX drops the modifier from those three instructions (f32 and f64; float16 is
/// never fused) where contraction is on, and ptxas sees the same operations NVVM would have
/// left it. `fma.rn`, `div.rn` and `sqrt.rn` keep theirs.
pub(crate) fn unpin_rounding(ptx: &str) -> String {
    const PINNED: [(&str, &str); 6] = [
        ("add.rn.f32", "add.f32"),
        ("add.rn.f64", "add.f64"),
        ("sub.rn.f32", "sub.f32"),
        ("sub.rn.f64", "sub.f64"),
        ("mul.rn.f32", "mul.f32"),
        ("mul.rn.f64", "mul.f64"),
    ];
    let mut out = String::with_capacity(ptx.len());
    for line in ptx.split_inclusive('\n') {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        match PINNED.iter().find(|(from, _)| body.starts_with(from) && body[from.len()..].starts_with([' ', '\t'])) {
            Some((from, to)) => {
                out.push_str(indent);
                out.push_str(to);
                out.push_str(&body[from.len()..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unpin_rounding;

    #[test]
    fn only_add_sub_and_mul_lose_their_rounding_modifier() {
        let ptx = "\tmul.rn.f64 \t%fd5, %fd1, %fd3;\n\tfma.rn.f64 \t%fd9, %fd2, %fd3, %fd7;\n\tadd.rn.f32 \t%f1, %f2, %f3;\n\
                   \tsub.rn.f64 \t%fd8, %fd5, %fd6;\n\tdiv.rn.f64 \t%fd1, %fd2, %fd3;\n\tadd.rn.f16 \t%rs1, %rs2, %rs3;\n\
                   \tmul.rn.f64x2 \t%fd1, %fd2, %fd3;\n";
        let want =
            "\tmul.f64 \t%fd5, %fd1, %fd3;\n\tfma.rn.f64 \t%fd9, %fd2, %fd3, %fd7;\n\tadd.f32 \t%f1, %f2, %f3;\n\
                    \tsub.f64 \t%fd8, %fd5, %fd6;\n\tdiv.rn.f64 \t%fd1, %fd2, %fd3;\n\tadd.rn.f16 \t%rs1, %rs2, %rs3;\n\
                    \tmul.rn.f64x2 \t%fd1, %fd2, %fd3;\n";
        assert_eq!(unpin_rounding(ptx), want);
    }
}
