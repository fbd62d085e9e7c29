//! What identifies the code Cranelift generates on this machine, for cache keys and for the
//! check that a stored artifact fits this process: the target triple, the CPU features
//! Cranelift's native detection reads, the code-affecting settings twinjit chooses, and
//! twinjit's version (which pins the Cranelift version).
//!
//! On x86-64 the features are read with `is_x86_feature_detected!`, the same calls
//! `cranelift_native` makes, so a process that only loads cache entries never builds a
//! Cranelift ISA; a test checks that the flags `cranelift_native` enables follow from this
//! list. Elsewhere the description is read off the ISA.

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

/// `(std_detect name, Cranelift flag)` for every feature `cranelift_native` reads on x86-64.
#[cfg(target_arch = "x86_64")]
pub(crate) const X86_FEATURES: &[(&str, &str)] = &[
    ("sse2", ""),
    ("cmpxchg16b", "has_cmpxchg16b"),
    ("sse3", "has_sse3"),
    ("ssse3", "has_ssse3"),
    ("sse4.1", "has_sse41"),
    ("sse4.2", "has_sse42"),
    ("popcnt", "has_popcnt"),
    ("avx", "has_avx"),
    ("avx2", "has_avx2"),
    ("fma", "has_fma"),
    ("avxvnni", "has_avx_vnni"),
    ("avx512vnni", "has_avx512vnni"),
    ("bmi1", "has_bmi1"),
    ("bmi2", "has_bmi2"),
    ("avx512bitalg", "has_avx512bitalg"),
    ("avx512dq", "has_avx512dq"),
    ("avx512f", "has_avx512f"),
    ("avx512vl", "has_avx512vl"),
    ("avx512vbmi", "has_avx512vbmi"),
    ("lzcnt", "has_lzcnt"),
];

/// The detected subset of [`X86_FEATURES`], as `std_detect` names.
#[cfg(target_arch = "x86_64")]
pub(crate) fn x86_features() -> Vec<&'static str> {
    macro_rules! detected {
        ($($f:tt),*) => { [$(($f, std::is_x86_feature_detected!($f))),*] };
    }
    let all = detected!(
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
    debug_assert!(all.iter().map(|(n, _)| n).eq(X86_FEATURES.iter().map(|(n, _)| n)));
    all.into_iter().filter(|(_, on)| *on).map(|(n, _)| n).collect()
}

/// `TRIPLE [features]`.
#[cfg(target_arch = "x86_64")]
fn describe() -> String {
    format!("{} [{}]", target_lexicon::HOST, x86_features().join(","))
}

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
        let settings: Vec<String> = SETTINGS.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("twinjit-host {}; {}; {}", env!("CARGO_PKG_VERSION"), host_description(), settings.join(","))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ISA `cranelift_native` builds here enables exactly the flags of the features the
    /// description lists: a Cranelift upgrade that reads a feature missing from the list fails
    /// here (on a machine with that feature) instead of sharing cache entries across CPUs
    /// that differ in it.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_description_determines_the_isa_flags() {
        let isa = crate::isa().expect("host ISA");
        let on: std::collections::BTreeSet<String> =
            isa.isa_flags().iter().filter(|f| f.as_bool() == Some(true)).map(|f| f.name.to_string()).collect();
        let listed: std::collections::BTreeSet<String> = x86_features()
            .into_iter()
            .filter_map(|n| X86_FEATURES.iter().find(|(f, _)| *f == n).map(|(_, flag)| flag.to_string()))
            .filter(|flag| !flag.is_empty())
            .collect();
        assert_eq!(on, listed);
        assert!(host_description().starts_with(&format!("{} [", isa.triple())));
    }

    #[test]
    fn the_artifact_description_names_version_host_and_settings() {
        let d = artifact_description();
        assert!(d.starts_with(&format!("twinjit-host {}; ", env!("CARGO_PKG_VERSION"))), "{d}");
        assert!(d.contains(&host_description()) && d.ends_with("opt_level=speed,preserve_frame_pointers=true"), "{d}");
    }
}
