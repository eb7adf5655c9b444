//! A tiny deterministic generator (xorshift64) for test and benchmark data, so runs repeat.

/// Uniform numbers in [0, 1) from `seed`.
pub fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    }
}
