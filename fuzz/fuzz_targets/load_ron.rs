//! cargo-fuzz target: `tangent::fuzzing::load_ron` (see that module and fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangent::fuzzing::load_ron(data));
