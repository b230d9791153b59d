//! `include/dxjit.h` is generated from `src/native.rs` by cbindgen and checked in; this test
//! fails when the checked-in header is stale (regenerate with
//! `DXJIT_BLESS=1 cargo test -p dxjit-capi --test header`).

use std::path::Path;

#[test]
fn dxjit_h_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/native.rs"))
        .generate()
        .expect("cbindgen parses src/native.rs");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8 header");
    let path = dir.join("include/dxjit.h");
    if std::env::var_os("DXJIT_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/dxjit.h");
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == generated,
        "include/dxjit.h is stale: regenerate it with DXJIT_BLESS=1 cargo test -p dxjit-capi --test header"
    );
    // The header declares every exported native function.
    for f in ["dxjit_blob_parse", "dxjit_compile", "dxjit_compile_pipeline", "dxjit_cache_compile", "dxjit_version"] {
        assert!(generated.contains(&format!(" {f}(")), "{f} missing from dxjit.h");
    }
}
