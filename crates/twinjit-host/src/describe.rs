//! What identifies the code Cranelift generates on this machine, for cache keys and for the
//! check that a stored artifact fits this process: the target triple, the CPU features
//! Cranelift's native detection reads, the code-affecting settings twinjit chooses, and
//! twinjit's version (which pins the Cranelift version).
//!
//! On x86-64 twinjit reads the CPU features itself ([`x86_features`]) and configures the
//! Cranelift ISA from that list, so the description names exactly what code is compiled for
//! and a process that only loads cache entries never builds an ISA; tests check the list
//! against `std_detect` and against the ISA `cranelift_native` would build. Elsewhere the ISA
//! comes from `cranelift_native` and the description is read off it.

use cranelift_codegen::settings::{self, Configurable};

/// Shared settings twinjit sets (besides the verifier, which only checks and is on in debug
/// builds only).
pub(crate) const SETTINGS: &[(&str, &str)] = &[("opt_level", "speed"), ("preserve_frame_pointers", "true")];

/// Cranelift's shared flags for the host.
pub(crate) fn flags() -> Result<settings::Flags, String> {
    let mut b = settings::builder();
    for (k, v) in SETTINGS {
        b.set(k, v).map_err(|e| e.to_string())?;
    }
    b.set("enable_verifier", if cfg!(debug_assertions) { "true" } else { "false" }).map_err(|e| e.to_string())?;
    Ok(settings::Flags::new(b))
}

/// Where CPUID reports a feature.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
enum Reg {
    Leaf1Ecx,
    Leaf1Edx,
    Leaf7Ebx,
    Leaf7Ecx,
    Leaf7Sub1Eax,
    Ext1Ecx,
}

/// What the operating system must save for a feature to be usable (XCR0).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, PartialEq)]
enum State {
    None,
    Avx,
    Avx512,
}

/// An x86-64 feature Cranelift can use: `is_x86_feature_detected!`'s name for it, its
/// Cranelift flag (empty: required, no flag), and its CPUID bit.
#[cfg(target_arch = "x86_64")]
pub(crate) struct X86Feature {
    pub(crate) name: &'static str,
    pub(crate) flag: &'static str,
    reg: Reg,
    bit: u32,
    state: State,
}

#[cfg(target_arch = "x86_64")]
const fn feature(name: &'static str, flag: &'static str, reg: Reg, bit: u32, state: State) -> X86Feature {
    X86Feature { name, flag, reg, bit, state }
}

/// Every feature `cranelift_native` reads on x86-64 (its list as of Cranelift 0.135).
#[cfg(target_arch = "x86_64")]
pub(crate) const X86_FEATURES: &[X86Feature] = {
    use Reg::*;
    use State::{Avx, Avx512, None};
    &[
        feature("sse2", "", Leaf1Edx, 26, None),
        feature("cmpxchg16b", "has_cmpxchg16b", Leaf1Ecx, 13, None),
        feature("sse3", "has_sse3", Leaf1Ecx, 0, None),
        feature("ssse3", "has_ssse3", Leaf1Ecx, 9, None),
        feature("sse4.1", "has_sse41", Leaf1Ecx, 19, None),
        feature("sse4.2", "has_sse42", Leaf1Ecx, 20, None),
        feature("popcnt", "has_popcnt", Leaf1Ecx, 23, None),
        feature("avx", "has_avx", Leaf1Ecx, 28, Avx),
        feature("avx2", "has_avx2", Leaf7Ebx, 5, Avx),
        feature("fma", "has_fma", Leaf1Ecx, 12, Avx),
        feature("avxvnni", "has_avx_vnni", Leaf7Sub1Eax, 4, Avx),
        feature("avx512vnni", "has_avx512vnni", Leaf7Ecx, 11, Avx512),
        feature("bmi1", "has_bmi1", Leaf7Ebx, 3, None),
        feature("bmi2", "has_bmi2", Leaf7Ebx, 8, None),
        feature("avx512bitalg", "has_avx512bitalg", Leaf7Ecx, 12, Avx512),
        feature("avx512dq", "has_avx512dq", Leaf7Ebx, 17, Avx512),
        feature("avx512f", "has_avx512f", Leaf7Ebx, 16, Avx512),
        feature("avx512vl", "has_avx512vl", Leaf7Ebx, 31, Avx512),
        feature("avx512vbmi", "has_avx512vbmi", Leaf7Ecx, 1, Avx512),
        feature("lzcnt", "has_lzcnt", Ext1Ecx, 5, None),
    ]
};

/// Reads the features of [`X86_FEATURES`] that this CPU has and the OS has enabled, with at
/// most five CPUID instructions, once per process.
///
/// `std_detect` (behind `is_x86_feature_detected!`, which `cranelift_native` uses) reads more
/// leaves, and in a virtual machine every CPUID traps to the hypervisor (4.5-6 µs each on the
/// development VM, about 45 µs for `std_detect`'s first call): a noticeable part of a cache
/// hit in a fresh process. The same list configures the Cranelift ISA ([`crate::isa`]), so the
/// description names exactly what the code was compiled for; a test checks it against
/// `std_detect`, whose conservative rules it follows (XSAVE and OSXSAVE before XCR0; AVX-512
/// only with FMA and F16C; no BMI on Intel parts without usable AVX, erratum SKL052).
#[cfg(target_arch = "x86_64")]
pub(crate) fn x86_features() -> &'static [&'static X86Feature] {
    static DETECTED: std::sync::OnceLock<Vec<&'static X86Feature>> = std::sync::OnceLock::new();
    DETECTED.get_or_init(|| {
        use std::arch::x86_64::{__cpuid, __cpuid_count, CpuidResult};
        const NONE: CpuidResult = CpuidResult { eax: 0, ebx: 0, ecx: 0, edx: 0 };
        // Leaves above the maximum the CPU reports are not read.
        let l0 = __cpuid(0);
        let max = l0.eax;
        let intel = (l0.ebx, l0.edx, l0.ecx) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e); // "GenuineIntel"
        let l1 = if max >= 1 { __cpuid(1) } else { NONE };
        let l7 = if max >= 7 { __cpuid_count(7, 0) } else { NONE };
        let l7_1 = if max >= 7 && l7.eax >= 1 { __cpuid_count(7, 1) } else { NONE };
        // Every x86-64 processor has extended leaf 0x8000_0001 (it reports long mode).
        let e1 = __cpuid(0x8000_0001);
        // XCR0: which register state the OS saves on a context switch. AVX needs SSE and
        // AVX state (bits 1, 2); AVX-512 also needs opmask and ZMM state (bits 5, 6, 7).
        let bit = |r: u32, b: u32| r & (1 << b) != 0;
        let osxsave = bit(l1.ecx, 26) && bit(l1.ecx, 27);
        let xcr0 = if osxsave { xgetbv0() } else { 0 };
        let avx = bit(l1.ecx, 28) && xcr0 & 0b110 == 0b110;
        // As std_detect: AVX-512 only together with FMA and F16C (leaf 1 ECX bits 12, 29).
        let avx512 = avx && xcr0 & 0xe0 == 0xe0 && bit(l1.ecx, 12) && bit(l1.ecx, 29);
        // As std_detect (Intel erratum SKL052): Intel parts without usable AVX (Skylake
        // Pentium and Celeron) report BMI1/BMI2 but fault on them.
        let bmi_broken = intel && !avx;
        X86_FEATURES
            .iter()
            .filter(|f| {
                let reg = match f.reg {
                    Reg::Leaf1Ecx => l1.ecx,
                    Reg::Leaf1Edx => l1.edx,
                    Reg::Leaf7Ebx => l7.ebx,
                    Reg::Leaf7Ecx => l7.ecx,
                    Reg::Leaf7Sub1Eax => l7_1.eax,
                    Reg::Ext1Ecx => e1.ecx,
                };
                let usable = match f.state {
                    State::None => true,
                    State::Avx => avx,
                    State::Avx512 => avx512,
                };
                let quirk = bmi_broken && (f.name == "bmi1" || f.name == "bmi2");
                bit(reg, f.bit) && usable && !quirk
            })
            .collect()
    })
}

/// XCR0, read only when CPUID says the OS enabled XSAVE (so XGETBV exists).
#[cfg(target_arch = "x86_64")]
fn xgetbv0() -> u64 {
    #[target_feature(enable = "xsave")]
    fn read() -> u64 {
        // SAFETY: the caller checked OSXSAVE, so XGETBV is available and register 0 exists.
        unsafe { std::arch::x86_64::_xgetbv(0) }
    }
    // SAFETY: the `xsave` target feature is present: CPUID.1:ECX.OSXSAVE implies XSAVE.
    unsafe { read() }
}

/// `TRIPLE [features]`, built without the formatting machinery (this runs in every process
/// that loads a cache entry, where first use of any code costs page faults).
#[cfg(target_arch = "x86_64")]
fn describe() -> String {
    let triple = [std::env::consts::ARCH, "-", std::env::consts::OS, "-", TARGET_ENV].concat();
    let names: Vec<&str> = x86_features().iter().map(|f| f.name).collect();
    [triple.as_str(), " [", &names.join(","), "]"].concat()
}

/// The C library of this build, as the target triple spells it.
#[cfg(target_arch = "x86_64")]
const TARGET_ENV: &str = if cfg!(target_env = "gnu") {
    "gnu"
} else if cfg!(target_env = "musl") {
    "musl"
} else if cfg!(target_env = "msvc") {
    "msvc"
} else {
    "other"
};

#[cfg(not(target_arch = "x86_64"))]
fn describe() -> String {
    match crate::isa() {
        Ok(isa) => {
            let flags: Vec<String> =
                isa.isa_flags().iter().filter(|f| f.as_bool() == Some(true)).map(|f| f.name.to_string()).collect();
            format!("{} [{}]", isa.triple(), flags.join(","))
        }
        Err(e) => format!("unsupported host: {e}"),
    }
}

/// The target triple and CPU features Cranelift compiles for on this machine, computed once.
pub fn host_description() -> String {
    static DESC: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DESC.get_or_init(describe).clone()
}

/// What an artifact records and `load` compares: producer and version, host, settings.
pub(crate) fn artifact_description() -> &'static str {
    static DESC: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DESC.get_or_init(|| {
        let settings: Vec<String> = SETTINGS.iter().map(|(k, v)| [*k, "=", v].concat()).collect();
        ["twinjit-host ", env!("CARGO_PKG_VERSION"), "; ", &host_description(), "; ", &settings.join(",")].concat()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// twinjit's CPU detection agrees with `std_detect`'s on every feature of the list.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_detection_agrees_with_std_detect() {
        macro_rules! std_detected {
            ($($f:tt),*) => { vec![$(($f, std::is_x86_feature_detected!($f))),*] };
        }
        let std = std_detected!(
            "sse2",
            "cmpxchg16b",
            "sse3",
            "ssse3",
            "sse4.1",
            "sse4.2",
            "popcnt",
            "avx",
            "avx2",
            "fma",
            "avxvnni",
            "avx512vnni",
            "bmi1",
            "bmi2",
            "avx512bitalg",
            "avx512dq",
            "avx512f",
            "avx512vl",
            "avx512vbmi",
            "lzcnt"
        );
        assert_eq!(std.len(), X86_FEATURES.len());
        for (f, (name, on)) in X86_FEATURES.iter().zip(std) {
            assert_eq!(f.name, name);
            assert_eq!(x86_features().iter().any(|d| d.name == name), on, "{name}");
        }
    }

    /// The ISA twinjit configures enables the same flags as the one `cranelift_native` would
    /// build here: a Cranelift upgrade that reads a feature missing from the list fails here
    /// (on a machine with that feature).
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_isa_matches_cranelift_natives() {
        let on = |isa: &dyn cranelift_codegen::isa::TargetIsa| -> Vec<String> {
            isa.isa_flags().iter().filter(|f| f.as_bool() == Some(true)).map(|f| f.name.to_string()).collect()
        };
        let ours = crate::isa().expect("host ISA");
        let native = cranelift_native::builder().unwrap().finish(flags().unwrap()).unwrap();
        assert_eq!(on(&*ours), on(&*native));
        // On Linux the description's triple is Cranelift's minus the vendor.
        #[cfg(target_os = "linux")]
        {
            let t = ours.triple();
            let expected = format!("{}-{}-{} [", t.architecture, t.operating_system, t.environment);
            assert!(host_description().starts_with(&expected), "{} vs {expected}", host_description());
        }
    }

    #[test]
    fn the_artifact_description_names_version_host_and_settings() {
        let d = artifact_description();
        assert!(d.starts_with(&format!("twinjit-host {}; ", env!("CARGO_PKG_VERSION"))), "{d}");
        assert!(d.contains(&host_description()) && d.ends_with("opt_level=speed,preserve_frame_pointers=true"), "{d}");
    }
}
