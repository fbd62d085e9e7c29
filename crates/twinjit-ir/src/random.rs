//! `np.random`'s generator as Numba implements it in nopython code: one Mersenne Twister
//! (MT19937) per thread, seeded by `init_genrand` (`np.random.seed(s)`, as NumPy's legacy
//! `RandomState` seeds from an integer), doubles from two 32-bit draws (`genrand_res53`),
//! normal draws by the polar Box-Muller method with the second value cached, and bounded
//! integers by rejection on the low bits of fresh draws (Numba's `_randrange_impl` for the
//! NumPy state). The interpreter and the host runtime both draw from here, so a seeded
//! function gives the same numbers on either, and the same as under Numba.

use crate::libm::{acos, cos, exp, log, pow};
use std::cell::RefCell;

const N: usize = 624;
const M: usize = 397;

/// The generator's state.
pub struct Mt19937 {
    mt: [u32; N],
    index: usize,
    gauss: Option<f64>,
}

impl Mt19937 {
    /// A generator seeded with `seed` (only its low 32 bits count, as in Numba).
    pub fn new(seed: u32) -> Self {
        let mut mt = [0u32; N];
        let mut s = seed;
        for (pos, m) in mt.iter_mut().enumerate() {
            *m = s;
            s = 1_812_433_253u32.wrapping_mul(s ^ (s >> 30)).wrapping_add(pos as u32 + 1);
        }
        Mt19937 { mt, index: N, gauss: None }
    }

    fn reshuffle(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX: u32 = 0x9908_b0df;
        for k in 0..N {
            let y = (self.mt[k] & UPPER) | (self.mt[(k + 1) % N] & LOWER);
            let mag = if y & 1 == 1 { MATRIX } else { 0 };
            self.mt[k] = self.mt[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.reshuffle();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A double in [0, 1) with 53 random bits.
    pub fn next_double(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// A standard normal draw.
    pub fn gauss(&mut self) -> f64 {
        if let Some(g) = self.gauss.take() {
            return g;
        }
        loop {
            let x1 = 2.0 * self.next_double() - 1.0;
            let x2 = 2.0 * self.next_double() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// The low `nbits` bits (1 to 64) of fresh draws, the high word first.
    fn bits(&mut self, nbits: u32) -> u64 {
        let low = |g: &mut Self, n: u32| (g.next_u32() & (u32::MAX >> (32 - n))) as u64;
        if nbits <= 32 {
            low(self, nbits)
        } else {
            let high = low(self, nbits - 32);
            let lo = self.next_u32() as u64;
            (high << 32) | lo
        }
    }

    /// Python's `getrandbits(nbits)` (1 to 64) as Numba draws it for the `random` module: the
    /// high bits of each 32-bit draw, the low word first (NumPy's order is the reverse).
    fn py_bits(&mut self, nbits: u32) -> u64 {
        let high = |g: &mut Self, n: u32| (g.next_u32() >> (32 - n)) as u64;
        if nbits <= 32 {
            high(self, nbits)
        } else {
            let lo = self.next_u32() as u64;
            (high(self, nbits - 32) << 32) | lo
        }
    }

    /// A uniform integer in `[0, n)` for `n >= 1`, as the `random` module draws it: as many
    /// bits as `n` has (not `n - 1`), again until below `n`.
    fn py_below(&mut self, n: i64) -> i64 {
        let nbits = 64 - (n as u64).leading_zeros();
        loop {
            let r = self.py_bits(nbits) as i64;
            if r < n {
                return r;
            }
        }
    }

    /// A uniform integer in `[0, n)` for `n >= 1`.
    pub fn below(&mut self, n: i64) -> i64 {
        if n <= 1 {
            return 0;
        }
        let nbits = 64 - ((n - 1) as u64).leading_zeros();
        loop {
            let r = self.bits(nbits) as i64;
            if r < n {
                return r;
            }
        }
    }
}

thread_local! {
    static STATE: RefCell<Mt19937> = RefCell::new(Mt19937::new(entropy_seed()));
}

thread_local! {
    /// The `random` module's generator: Numba keeps it apart from NumPy's, so
    /// `random.seed(1)` does not change what `np.random.random()` draws.
    static PY_STATE: RefCell<Mt19937> = RefCell::new(Mt19937::new(entropy_seed()));
}

/// What [`py_int`] computes.
pub mod py_int_kind {
    /// `random.seed(x)`; returns 0.
    pub const SEED: i64 = 0;
    /// A uniform integer in `[0, a)`, `a >= 1` (`randrange`'s draw).
    pub const BELOW: i64 = 1;
    /// `getrandbits(a)`, `1 <= a <= 64`, as the int64 of its bits.
    pub const BITS: i64 = 2;
    /// `randrange(a, b, c)`'s count of values (no draw): `b - a`, then for a negative step
    /// `(n + c + 1) // c` and for a step above one `(n + c - 1) // c`, as Numba computes it.
    pub const COUNT: i64 = 3;
}

/// What [`py_float`] computes.
pub mod py_float_kind {
    /// `random.random()`.
    pub const RANDOM: i64 = 0;
    /// A standard normal draw (`gauss` and `normalvariate` scale it).
    pub const GAUSS: i64 = 1;
    /// `gammavariate(a, b)` for `a, b > 0` (the caller checks).
    pub const GAMMA: i64 = 2;
    /// `betavariate(a, b)`.
    pub const BETA: i64 = 3;
    /// `-log(1 - random())`: `expovariate(l)` divides it by `l`.
    pub const EXPO: i64 = 4;
    /// `triangular(a, b)` (the mode in the middle).
    pub const TRIANGULAR: i64 = 5;
    /// `triangular(a, b, c)` (`c` the mode).
    pub const TRIANGULAR_MODE: i64 = 6;
    /// `paretovariate(a)`.
    pub const PARETO: i64 = 7;
    /// `weibullvariate(a, b)`.
    pub const WEIBULL: i64 = 8;
    /// `vonmisesvariate(a, b)`.
    pub const VONMISES: i64 = 9;
}

/// An integer operation of the `random` module on this thread's `random` generator (see
/// [`py_int_kind`]).
pub fn py_int(kind: i64, a: i64, b: i64, c: i64) -> i64 {
    match kind {
        py_int_kind::SEED => {
            PY_STATE.with(|s| *s.borrow_mut() = Mt19937::new(a as u32));
            0
        }
        py_int_kind::BELOW => PY_STATE.with(|s| s.borrow_mut().py_below(a.max(1))),
        py_int_kind::BITS => PY_STATE.with(|s| s.borrow_mut().py_bits(a.clamp(1, 64) as u32) as i64),
        _ => {
            let n = b.wrapping_sub(a);
            if c < 0 {
                n.wrapping_add(c).wrapping_add(1).wrapping_div(c)
            } else if c > 1 {
                n.wrapping_add(c).wrapping_sub(1).wrapping_div(c)
            } else {
                n
            }
        }
    }
}

/// A float draw of the `random` module from this thread's `random` generator (see
/// [`py_float_kind`]): the distributions are CPython's algorithms, drawing exactly as Numba's
/// compiled versions of them do.
pub fn py_float(kind: i64, a: f64, b: f64, c: f64) -> f64 {
    PY_STATE.with(|s| {
        let g = &mut *s.borrow_mut();
        match kind {
            py_float_kind::RANDOM => g.next_double(),
            py_float_kind::GAUSS => g.gauss(),
            py_float_kind::GAMMA => gamma(g, a, b),
            py_float_kind::BETA => {
                let y = gamma(g, a, 1.0);
                if y == 0.0 {
                    0.0
                } else {
                    y / (y + gamma(g, b, 1.0))
                }
            }
            py_float_kind::EXPO => -log(1.0 - g.next_double()),
            py_float_kind::TRIANGULAR => triangular_from(g.next_double(), 0.5, a, b),
            py_float_kind::TRIANGULAR_MODE => {
                if b == a {
                    return a;
                }
                triangular_from(g.next_double(), (c - a) / (b - a), a, b)
            }
            py_float_kind::PARETO => 1.0 / pow(1.0 - g.next_double(), 1.0 / a),
            py_float_kind::WEIBULL => a * pow(-log(1.0 - g.next_double()), 1.0 / b),
            _ => vonmises(g, a, b),
        }
    })
}

/// `triangular`'s result for the draw `u` and the mode's position `cut` in `[low, high]`.
fn triangular_from(u: f64, cut: f64, low: f64, high: f64) -> f64 {
    if u > cut {
        high + (low - high) * ((1.0 - u) * (1.0 - cut)).sqrt()
    } else {
        low + (high - low) * (u * cut).sqrt()
    }
}

/// CPython's `gammavariate` (Cheng's algorithm above 1, Kennedy and Gentle's GS below).
fn gamma(g: &mut Mt19937, alpha: f64, beta: f64) -> f64 {
    if alpha > 1.0 {
        let sg_magic = 1.0 + log(4.5);
        let ainv = (2.0 * alpha - 1.0).sqrt();
        let bbb = alpha - log(4.0);
        let ccc = alpha + ainv;
        loop {
            let u1 = g.next_double();
            if !(1e-7 < u1 && u1 < 0.9999999) {
                continue;
            }
            let u2 = 1.0 - g.next_double();
            let v = log(u1 / (1.0 - u1)) / ainv;
            let x = alpha * exp(v);
            let z = u1 * u1 * u2;
            let r = bbb + ccc * v - x;
            if r + sg_magic - 4.5 * z >= 0.0 || r >= log(z) {
                return x * beta;
            }
        }
    } else if alpha == 1.0 {
        -log(1.0 - g.next_double()) * beta
    } else {
        let e = std::f64::consts::E;
        loop {
            let u = g.next_double();
            let bb = (e + alpha) / e;
            let p = bb * u;
            let x = if p <= 1.0 { pow(p, 1.0 / alpha) } else { -log((bb - p) / alpha) };
            let u1 = g.next_double();
            let accept = if p > 1.0 { u1 <= pow(x, alpha - 1.0) } else { u1 <= exp(-x) };
            if accept {
                return x * beta;
            }
        }
    }
}

/// CPython's `vonmisesvariate` (Fisher's algorithm).
fn vonmises(g: &mut Mt19937, mu: f64, kappa: f64) -> f64 {
    let two_pi = 2.0 * std::f64::consts::PI;
    if kappa <= 1e-6 {
        return two_pi * g.next_double();
    }
    let s = 0.5 / kappa;
    let r = s + (1.0 + s * s).sqrt();
    let z = loop {
        let u1 = g.next_double();
        let z = cos(std::f64::consts::PI * u1);
        let d = z / (r + z);
        let u2 = g.next_double();
        if u2 < 1.0 - d * d || u2 <= (1.0 - d) * exp(d) {
            break z;
        }
    };
    let q = 1.0 / r;
    let f = (q + z) / (1.0 + q * z);
    let theta = if g.next_double() > 0.5 { mu + acos(f) } else { mu - acos(f) };
    // Python's float `%`: the result takes the divisor's sign.
    let m = theta % two_pi;
    if m == 0.0 {
        0.0
    } else if m < 0.0 {
        m + two_pi
    } else {
        m
    }
}

/// A seed for a thread that never calls `np.random.seed` (Numba seeds from the OS too).
fn entropy_seed() -> u32 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64));
    h.finish() as u32
}

/// `np.random.seed(seed)` for this thread.
pub fn seed(seed: i64) {
    STATE.with(|s| *s.borrow_mut() = Mt19937::new(seed as u32));
}

/// The next double in [0, 1) of this thread's generator.
pub fn next_double() -> f64 {
    STATE.with(|s| s.borrow_mut().next_double())
}

/// The next standard normal draw of this thread's generator.
pub fn gauss() -> f64 {
    STATE.with(|s| s.borrow_mut().gauss())
}

/// A uniform integer in `[0, n)` (`0` for `n <= 1`) from this thread's generator.
pub fn below(n: i64) -> i64 {
    STATE.with(|s| s.borrow_mut().below(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_mersenne_twister() {
        // The first outputs of MT19937 seeded by init_genrand(5489) (the reference
        // implementation's default seed): 3499211612, 581869302, 3890346734.
        let mut g = Mt19937::new(5489);
        assert_eq!([g.next_u32(), g.next_u32(), g.next_u32()], [3_499_211_612, 581_869_302, 3_890_346_734]);
    }

    #[test]
    fn bounded_integers_stay_in_range() {
        let mut g = Mt19937::new(1);
        for n in [1i64, 2, 3, 7, 1 << 33, i64::MAX] {
            for _ in 0..100 {
                let r = g.below(n);
                assert!((0..n.max(1)).contains(&r), "{r} not below {n}");
            }
        }
    }
}

/// numba-cuda's `numba.cuda.random` generators: xoroshiro128+ states, one per thread, made on
/// the host as `create_xoroshiro128p_states(n, seed, subsequence_start)` makes them, so a kernel
/// given these states draws numba-cuda's numbers (the draws themselves are compiled code).
pub mod xoroshiro128p {
    /// The next output of `s`, advancing it (xoroshiro128+ with rotations 55, 14, 36).
    pub fn next(s: &mut [u64; 2]) -> u64 {
        let (s0, mut s1) = (s[0], s[1]);
        let result = s0.wrapping_add(s1);
        s1 ^= s0;
        s[0] = s0.rotate_left(55) ^ s1 ^ (s1 << 14);
        s[1] = s1.rotate_left(36);
        result
    }

    /// Advances `s` by 2**64 outputs (the generator's jump polynomial).
    pub fn jump(s: &mut [u64; 2]) {
        const JUMP: [u64; 2] = [0xBEAC_0467_EBA5_FACB, 0xD86B_048B_86AA_9922];
        let mut t = [0u64; 2];
        for word in JUMP {
            for b in 0..64 {
                if word >> b & 1 == 1 {
                    t[0] ^= s[0];
                    t[1] ^= s[1];
                }
                next(s);
            }
        }
        *s = t;
    }

    /// The state SplitMix64 makes of a 64-bit seed (both words the same, as numba-cuda).
    pub fn seeded(seed: u64) -> [u64; 2] {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        [z, z]
    }

    /// `n` states for parallel generators: the first from `seed`, jumped `subsequence_start`
    /// times, each next one the previous jumped once (2**64 outputs apart). Flattened as the
    /// C-contiguous `uint64` array of shape `(n, 2)` a kernel receives.
    pub fn states(n: usize, seed: u64, subsequence_start: u64) -> Vec<u64> {
        let mut out = Vec::with_capacity(2 * n);
        if n == 0 {
            return out;
        }
        let mut s = seeded(seed);
        for _ in 0..subsequence_start {
            jump(&mut s);
        }
        out.extend(s);
        for _ in 1..n {
            jump(&mut s);
            out.extend(s);
        }
        out
    }
}

#[cfg(test)]
mod xoroshiro_tests {
    use super::xoroshiro128p::states;

    /// numba 0.68.1's `numba.cuda.random.init_xoroshiro128p_states_cpu(s, 42, 0)` for three states (the
    /// second and third are the first jumped once and twice).
    #[test]
    fn states_are_numba_cudas() {
        let expect = [
            0xbdd7_3226_2feb_6e95,
            0xbdd7_3226_2feb_6e95,
            0x045a_2c27_0718_bc3b,
            0x05b3_939a_23e5_33b4,
            0xa673_24e5_eccc_b8dc,
            0x4a81_bbd6_c315_729e,
        ];
        assert_eq!(states(3, 42, 0), expect);
        assert_eq!(states(2, 42, 1), expect[2..].to_vec());
        assert!(states(0, 1, 0).is_empty());
    }
}
