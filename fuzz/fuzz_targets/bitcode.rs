//! Bitcode reader: raw bitcode in, a module or a typed error out; the text
//! printer runs over whatever was read, since later passes walk it too.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = dxjit::bitcode::read_module(data) {
        let _ = dxjit::ir::print::print_module(&m);
    }
});
