; twinjit: generated LLVM IR for the NVPTX target
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; vecadd (vecadd$af41C$af41C$af41C)
define internal i32 @"vecadd$af41C$af41C$af41C$f"(ptr %err, ptr %ret, ptr %a0_0, i64 %a0_1, i64 %a0_2, ptr %a1_0, i64 %a1_1, i64 %a1_2, ptr %a2_0, i64 %a2_1, i64 %a2_2) {
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
  %t9 = icmp slt i64 %t8, %a2_1
  br i1 %t9, label %b2, label %b3
b3:
  br label %b1
b2:
  %t10 = icmp uge i64 %t8, %a0_1
  br i1 %t10, label %raise11, label %ok12, !prof !{!"branch_weights", i32 1, i32 1048575}
raise11:
  store i32 2, ptr %err, align 8
  %t13 = getelementptr inbounds i8, ptr %err, i64 4
  store i32 0, ptr %t13, align 4
  %t14 = getelementptr inbounds i8, ptr %err, i64 8
  store i64 %t8, ptr %t14, align 8
  %t15 = getelementptr inbounds i8, ptr %err, i64 16
  store i64 %a0_1, ptr %t15, align 8
  %t16 = getelementptr inbounds i8, ptr %err, i64 24
  store i64 0, ptr %t16, align 8
  ret i32 1
ok12:
  %t17 = getelementptr inbounds float, ptr %a0_0, i64 %t8
  %t18 = load float, ptr %t17, align 4
  %t19 = icmp uge i64 %t8, %a1_1
  br i1 %t19, label %raise20, label %ok21, !prof !{!"branch_weights", i32 1, i32 1048575}
raise20:
  store i32 2, ptr %err, align 8
  %t22 = getelementptr inbounds i8, ptr %err, i64 4
  store i32 1, ptr %t22, align 4
  %t23 = getelementptr inbounds i8, ptr %err, i64 8
  store i64 %t8, ptr %t23, align 8
  %t24 = getelementptr inbounds i8, ptr %err, i64 16
  store i64 %a1_1, ptr %t24, align 8
  %t25 = getelementptr inbounds i8, ptr %err, i64 24
  store i64 0, ptr %t25, align 8
  ret i32 1
ok21:
  %t26 = getelementptr inbounds float, ptr %a1_0, i64 %t8
  %t27 = load float, ptr %t26, align 4
  %t28 = fadd float %t18, %t27
  %t29 = getelementptr inbounds float, ptr %a2_0, i64 %t8
  store float %t28, ptr %t29, align 4
  br label %b1
b1:
  ret i32 0
}

define void @"vecadd"(ptr addrspace(1) %gerr, ptr addrspace(1) %p0, i64 %p1, i64 %p2, ptr addrspace(1) %p3, i64 %p4, i64 %p5, ptr addrspace(1) %p6, i64 %p7, i64 %p8) {
entry:
  %err = alloca [9 x i64], align 8
  %ret = alloca i64, align 8
  %depth = getelementptr inbounds i8, ptr %err, i64 32
  store i64 0, ptr %depth, align 8
  %p0.g = addrspacecast ptr addrspace(1) %p0 to ptr
  %p3.g = addrspacecast ptr addrspace(1) %p3 to ptr
  %p6.g = addrspacecast ptr addrspace(1) %p6 to ptr
  %st = call i32 @"vecadd$af41C$af41C$af41C$f"(ptr %err, ptr %ret, ptr %p0.g, i64 %p1, i64 %p2, ptr %p3.g, i64 %p4, i64 %p5, ptr %p6.g, i64 %p7, i64 %p8)
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
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()

!nvvm.annotations = !{!0}
!0 = !{ptr @"vecadd", !"kernel", i32 1}
!llvm.module.flags = !{!1}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
