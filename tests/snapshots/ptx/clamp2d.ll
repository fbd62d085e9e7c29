; twinjit: generated LLVM IR for the NVPTX target
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; clamp2d (clamp2d$af82C$f8$f8)
define internal i32 @"clamp2d$af82C$f8$f8$f"(ptr %err, ptr %ret, ptr %a0_0, i64 %a0_1, i64 %a0_2, i64 %a0_3, i64 %a0_4, double %a1_0, double %a2_0) {
entry:
  br label %b0
b0:
  %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t2 = zext i32 %t1 to i64
  %t3 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t4 = zext i32 %t3 to i64
  %t5 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t6 = zext i32 %t5 to i64
  %t7 = mul nuw nsw i64 %t4, %t6
  %t8 = add nuw nsw i64 %t7, %t2
  %t9 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %t10 = zext i32 %t9 to i64
  %t11 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %t12 = zext i32 %t11 to i64
  %t13 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %t14 = zext i32 %t13 to i64
  %t15 = mul nuw nsw i64 %t12, %t14
  %t16 = add nuw nsw i64 %t15, %t10
  %t17 = icmp slt i64 %t8, %a0_1
  %t18 = icmp slt i64 %t16, %a0_2
  %t19 = select i1 %t17, i1 %t18, i1 %t17
  br i1 %t19, label %b2, label %b3
b3:
  br label %b1
b2:
  %t20 = mul i64 %t8, %a0_2
  %t21 = add i64 %t20, %t16
  %t22 = getelementptr inbounds double, ptr %a0_0, i64 %t21
  %t23 = load double, ptr %t22, align 8
  %t24 = fcmp ogt double %a1_0, %t23
  %t25 = select i1 %t24, double %a1_0, double %t23
  %t26 = fcmp olt double %a2_0, %t25
  %t27 = select i1 %t26, double %a2_0, double %t25
  %t28 = getelementptr inbounds double, ptr %a0_0, i64 %t21
  store double %t27, ptr %t28, align 8
  br label %b1
b1:
  ret i32 0
}

; clamp (clamp$f8$f8$f8)
define internal i32 @"clamp$f8$f8$f8$f"(ptr %err, ptr %ret, double %a0_0, double %a1_0, double %a2_0) {
entry:
  br label %b0
b0:
  %t1 = fcmp ogt double %a1_0, %a0_0
  %t2 = select i1 %t1, double %a1_0, double %a0_0
  %t3 = fcmp olt double %a2_0, %t2
  %t4 = select i1 %t3, double %a2_0, double %t2
  %t5 = getelementptr inbounds i64, ptr %ret, i64 0
  store double %t4, ptr %t5, align 8
  ret i32 0
}

define void @"clamp2d"(ptr addrspace(1) %gerr, ptr addrspace(1) %p0, i64 %p1, i64 %p2, i64 %p3, i64 %p4, double %p5, double %p6) {
entry:
  %err = alloca [9 x i64], align 8
  %ret = alloca i64, align 8
  %depth = getelementptr inbounds i8, ptr %err, i64 32
  store i64 0, ptr %depth, align 8
  %p0.g = addrspacecast ptr addrspace(1) %p0 to ptr
  %st = call i32 @"clamp2d$af82C$f8$f8$f"(ptr %err, ptr %ret, ptr %p0.g, i64 %p1, i64 %p2, i64 %p3, i64 %p4, double %p5, double %p6)
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

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()

!nvvm.annotations = !{!0}
!0 = !{ptr @"clamp2d", !"kernel", i32 1}
!llvm.module.flags = !{!1}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
