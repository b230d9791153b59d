//! Container parser: parse, then decode every part it can hand out.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(c) = dxjit::container::Container::parse(data) else { return };
    let _ = c.digest_status();
    let _ = c.feature_flags();
    let _ = c.hash();
    let _ = c.input_signature();
    let _ = c.output_signature();
    let _ = c.patch_constant_signature();
    let _ = c.psv0();
    let _ = c.root_signature();
    let _ = c.version_info();
    if let Ok(p) = c.dxil_program() {
        let _ = dxjit::bitcode::read_module(p.bitcode);
    }
});
