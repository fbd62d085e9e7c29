//! Matrix products of float matrices for `np.dot` and `@` in host code: `matrixmultiply`'s
//! packed, cache-blocked kernels (chosen over a hand-written GEMM: it is pure Rust, has no
//! system dependency, is well kept and within a small factor of a tuned BLAS on one thread).
//! The interpreter ([`gemm`], on its own storage) and compiled host code ([`gemm_raw`], through
//! the runtime) call the same kernels, so they agree to the bit. `c = a @ b` with `a` (m, k),
//! `b` (k, n), `c` (m, n); strides in elements, of any sign.
#![allow(unsafe_code)]

/// A float type `matrixmultiply` multiplies.
pub trait GemmFloat: Copy {
    /// `c = a @ b` (`beta = 0`: `c` is only written).
    ///
    /// # Safety
    /// The pointers and strides describe live matrices of those shapes; `c` overlaps neither
    /// `a` nor `b`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm_raw(
        mkn: (usize, usize, usize),
        a: *const Self,
        sa: (isize, isize),
        b: *const Self,
        sb: (isize, isize),
        c: *mut Self,
        sc: (isize, isize),
    );
}

impl GemmFloat for f64 {
    unsafe fn gemm_raw(
        (m, k, n): (usize, usize, usize),
        a: *const f64,
        (rsa, csa): (isize, isize),
        b: *const f64,
        (rsb, csb): (isize, isize),
        c: *mut f64,
        (rsc, csc): (isize, isize),
    ) {
        // SAFETY: the caller's contract.
        unsafe { matrixmultiply::dgemm(m, k, n, 1.0, a, rsa, csa, b, rsb, csb, 0.0, c, rsc, csc) }
    }
}

impl GemmFloat for f32 {
    unsafe fn gemm_raw(
        (m, k, n): (usize, usize, usize),
        a: *const f32,
        (rsa, csa): (isize, isize),
        b: *const f32,
        (rsb, csb): (isize, isize),
        c: *mut f32,
        (rsc, csc): (isize, isize),
    ) {
        // SAFETY: the caller's contract.
        unsafe { matrixmultiply::sgemm(m, k, n, 1.0, a, rsa, csa, b, rsb, csb, 0.0, c, rsc, csc) }
    }
}

/// Whether every element of a `rows x cols` matrix at `base` with `strides` lies in `len`.
fn inside(len: usize, base: i64, (rows, cols): (usize, usize), (rs, cs): (i64, i64)) -> bool {
    if rows == 0 || cols == 0 {
        return true;
    }
    let span = |n: usize, s: i64| -> Option<(i64, i64)> {
        let far = (n as i64 - 1).checked_mul(s)?;
        Some(if far < 0 { (far, 0) } else { (0, far) })
    };
    let (Some((r0, r1)), Some((c0, c1))) = (span(rows, rs), span(cols, cs)) else { return false };
    let (lo, hi) = (base + r0 + c0, base + r1 + c1);
    lo >= 0 && (hi as u64) < len as u64
}

/// `c = a @ b` on matrices stored in slices (`base` the element offset of `[0, 0]`); `None`,
/// computing nothing, when a matrix does not lie inside its slice.
#[allow(clippy::too_many_arguments)]
pub fn gemm<T: GemmFloat>(
    (m, k, n): (usize, usize, usize),
    (a, base_a, sa): (&[T], i64, (i64, i64)),
    (b, base_b, sb): (&[T], i64, (i64, i64)),
    (c, base_c, sc): (&mut [T], i64, (i64, i64)),
) -> Option<()> {
    if !(inside(a.len(), base_a, (m, k), sa)
        && inside(b.len(), base_b, (k, n), sb)
        && inside(c.len(), base_c, (m, n), sc))
    {
        return None;
    }
    let st = |s: (i64, i64)| (s.0 as isize, s.1 as isize);
    let at = |len: usize, base: i64| if len == 0 { 0 } else { base as usize };
    // SAFETY: every element of the three matrices lies inside its slice (checked above); `c`
    // is a distinct `&mut` slice, so it overlaps neither `a` nor `b`.
    unsafe {
        T::gemm_raw(
            (m, k, n),
            a.as_ptr().wrapping_add(at(a.len(), base_a)),
            st(sa),
            b.as_ptr().wrapping_add(at(b.len(), base_b)),
            st(sb),
            c.as_mut_ptr().wrapping_add(at(c.len(), base_c)),
            st(sc),
        )
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiplies_small_matrices_with_any_strides() {
        let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // 2 x 3, rows
        let b = [7.0, 8.0, 9.0, 10.0, 11.0, 12.0]; // 3 x 2, rows
        let mut c = [0.0; 4];
        gemm((2, 3, 2), (&a, 0, (3, 1)), (&b, 0, (2, 1)), (&mut c, 0, (2, 1))).unwrap();
        assert_eq!(c, [58.0, 64.0, 139.0, 154.0]);
        // `b` read by columns as a 3 x 2 matrix [[7, 10], [8, 11], [9, 12]]; `c` by columns.
        let mut d = [0.0; 4];
        gemm((2, 3, 2), (&a, 0, (3, 1)), (&b, 0, (1, 3)), (&mut d, 0, (1, 2))).unwrap();
        assert_eq!(d, [50.0, 122.0, 68.0, 167.0]);
    }

    #[test]
    fn refuses_matrices_outside_their_storage() {
        let a = [1.0f64; 4];
        let mut c = [0.0f64; 4];
        assert!(gemm((2, 2, 2), (&a, 0, (2, 1)), (&a, 1, (2, 1)), (&mut c, 0, (2, 1))).is_none());
        assert!(gemm((2, 2, 2), (&a, 0, (-2, 1)), (&a, 0, (2, 1)), (&mut c, 0, (2, 1))).is_none());
        assert!(gemm((2, 2, 2), (&a, 2, (-2, 1)), (&a, 0, (2, 1)), (&mut c, 0, (2, 1))).is_some());
    }
}
