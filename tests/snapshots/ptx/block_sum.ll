; twinjit: generated LLVM IR for the NVPTX target
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__tj_shared0 = internal addrspace(3) global [128 x float] undef, align 16

define internal i64 @__tj_floordiv_i64(i64 %x, i64 %y) alwaysinline {
  %z = icmp eq i64 %y, 0
  %m1 = icmp eq i64 %y, -1
  %g = or i1 %z, %m1
  %safe = select i1 %g, i64 1, i64 %y
  %q0 = sdiv i64 %x, %safe
  %r0 = srem i64 %x, %safe
  %nx = sub i64 0, %x
  %q = select i1 %m1, i64 %nx, i64 %q0
  %r = select i1 %m1, i64 0, i64 %r0
  %rnz = icmp ne i64 %r, 0
  %sx = xor i64 %r, %y
  %diff = icmp slt i64 %sx, 0
  %adj = and i1 %rnz, %diff
  %q1 = sub i64 %q, 1
  %res = select i1 %adj, i64 %q1, i64 %q
  %out = select i1 %z, i64 0, i64 %res
  ret i64 %out
}

; block_sum (block_sum$af41C$af41C)
define internal i32 @"block_sum$af41C$af41C$f"(ptr %err, ptr %ret, ptr %a0_0, i64 %a0_1, i64 %a0_2, ptr %a1_0, i64 %a1_1, i64 %a1_2) {
entry:
  br label %b0
b0:
  %t1 = addrspacecast ptr addrspace(3) @__tj_shared0 to ptr
  %t2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t3 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t4 = zext i32 %t3 to i64
  %t5 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t6 = zext i32 %t5 to i64
  %t7 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t8 = zext i32 %t7 to i64
  %t9 = mul nuw nsw i64 %t6, %t8
  %t10 = add nuw nsw i64 %t9, %t4
  %t11 = icmp slt i64 %t10, %a0_1
  br i1 %t11, label %b1, label %b2
b2:
  %t12 = fptrunc double 0x0000000000000000 to float
  br label %b3
b1:
  %t13 = getelementptr inbounds float, ptr %a0_0, i64 %t10
  %t14 = load float, ptr %t13, align 4
  br label %b3
b3:
  %v2_0 = phi float [ %t12, %b2 ], [ %t14, %b1 ]
  %t15 = sext i32 %t2 to i64
  %t16 = getelementptr inbounds float, ptr %t1, i64 %t15
  store float %v2_0, ptr %t16, align 4
  call void @llvm.nvvm.barrier0()
  br label %b4
b4:
  %v3_0 = phi i64 [ 64, %b3 ], [ %t28, %b6 ]
  %t17 = icmp slt i64 %t15, %v3_0
  br i1 %t17, label %b7, label %b8
b8:
  br label %b6
b7:
  %t18 = getelementptr inbounds float, ptr %t1, i64 %t15
  %t19 = load float, ptr %t18, align 4
  %t20 = add i64 %t15, %v3_0
  %t21 = icmp slt i64 %t20, 0
  %t22 = add i64 %t20, 128
  %t23 = select i1 %t21, i64 %t22, i64 %t20
  %t24 = getelementptr inbounds float, ptr %t1, i64 %t23
  %t25 = load float, ptr %t24, align 4
  %t26 = fadd float %t19, %t25
  %t27 = getelementptr inbounds float, ptr %t1, i64 %t15
  store float %t26, ptr %t27, align 4
  br label %b6
b6:
  call void @llvm.nvvm.barrier0()
  %t28 = call i64 @__tj_floordiv_i64(i64 %v3_0, i64 2)
  %t29 = icmp sgt i64 %t28, 0
  br i1 %t29, label %b4, label %b5
b5:
  %t30 = icmp eq i64 %t15, 0
  br i1 %t30, label %b10, label %b11
b11:
  br label %b9
b10:
  %t31 = getelementptr inbounds float, ptr %t1, i64 0
  %t32 = load float, ptr %t31, align 4
  %t33 = icmp slt i64 0, 0
  %t34 = add i64 0, %a1_1
  %t35 = select i1 %t33, i64 %t34, i64 0
  %t36 = mul i64 %t35, %a1_2
  %t37 = getelementptr inbounds float, ptr %a1_0, i64 %t36
  %t38 = atomicrmw fadd ptr %t37, float %t32 monotonic, align 4
  br label %b9
b9:
  ret i32 0
}

define void @"block_sum"(ptr addrspace(1) %gerr, ptr addrspace(1) %p0, i64 %p1, i64 %p2, ptr addrspace(1) %p3, i64 %p4, i64 %p5) {
entry:
  %err = alloca [9 x i64], align 8
  %ret = alloca i64, align 8
  %depth = getelementptr inbounds i8, ptr %err, i64 32
  store i64 0, ptr %depth, align 8
  %p0.g = addrspacecast ptr addrspace(1) %p0 to ptr
  %p3.g = addrspacecast ptr addrspace(1) %p3 to ptr
  %st = call i32 @"block_sum$af41C$af41C$f"(ptr %err, ptr %ret, ptr %p0.g, i64 %p1, i64 %p2, ptr %p3.g, i64 %p4, i64 %p5)
  %bad = icmp ne i32 %st, 0
  br i1 %bad, label %fail, label %done
fail:
  %kind = load i32, ptr %err, align 8
  %cas = cmpxchg ptr addrspace(1) %gerr, i32 0, i32 %kind monotonic monotonic
  %first = extractvalue { i32, i1 } %cas, 1
  br i1 %first, label %record, label %done
record:
  %src0 = getelementptr inbounds i8, ptr %err, i64 4
  %val0 = load i32, ptr %src0, align 4
  %dst0 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 4
  store volatile i32 %val0, ptr addrspace(1) %dst0, align 4
  %src1 = getelementptr inbounds i8, ptr %err, i64 8
  %val1 = load i64, ptr %src1, align 8
  %dst1 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 8
  store volatile i64 %val1, ptr addrspace(1) %dst1, align 8
  %src2 = getelementptr inbounds i8, ptr %err, i64 16
  %val2 = load i64, ptr %src2, align 8
  %dst2 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 16
  store volatile i64 %val2, ptr addrspace(1) %dst2, align 8
  %src3 = getelementptr inbounds i8, ptr %err, i64 24
  %val3 = load i64, ptr %src3, align 8
  %dst3 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 24
  store volatile i64 %val3, ptr addrspace(1) %dst3, align 8
  %src4 = getelementptr inbounds i8, ptr %err, i64 40
  %val4 = load i64, ptr %src4, align 8
  %dst4 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 40
  store volatile i64 %val4, ptr addrspace(1) %dst4, align 8
  %src5 = getelementptr inbounds i8, ptr %err, i64 48
  %val5 = load i64, ptr %src5, align 8
  %dst5 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 48
  store volatile i64 %val5, ptr addrspace(1) %dst5, align 8
  %src6 = getelementptr inbounds i8, ptr %err, i64 56
  %val6 = load i64, ptr %src6, align 8
  %dst6 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 56
  store volatile i64 %val6, ptr addrspace(1) %dst6, align 8
  %src7 = getelementptr inbounds i8, ptr %err, i64 64
  %val7 = load i64, ptr %src7, align 8
  %dst7 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 64
  store volatile i64 %val7, ptr addrspace(1) %dst7, align 8
  %id0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idp0 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 72
  store volatile i32 %id0, ptr addrspace(1) %idp0, align 4
  %id1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %idp1 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 76
  store volatile i32 %id1, ptr addrspace(1) %idp1, align 4
  %id2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %idp2 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 80
  store volatile i32 %id2, ptr addrspace(1) %idp2, align 4
  %id3 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %idp3 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 84
  store volatile i32 %id3, ptr addrspace(1) %idp3, align 4
  %id4 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %idp4 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 88
  store volatile i32 %id4, ptr addrspace(1) %idp4, align 4
  %id5 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %idp5 = getelementptr inbounds i8, ptr addrspace(1) %gerr, i64 92
  store volatile i32 %id5, ptr addrspace(1) %idp5, align 4
  br label %done
done:
  ret void
}

declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()

!nvvm.annotations = !{!0}
!0 = !{ptr @"block_sum", !"kernel", i32 1}
!llvm.module.flags = !{!1}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
