//! Whole compile: container → bitcode → metadata → structurize → lowering.
//! Any input must give SPIR-V or a typed error, never a panic or a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = dxjit::compile(data, &dxjit::CompileOptions::default());
});
