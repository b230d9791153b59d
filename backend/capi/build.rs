//! Records the target triple for the tests, which compile C programs with the `cc` crate outside
//! a build script (where `cc` would read it from the environment).

fn main() {
    println!("cargo:rustc-env=DXJIT_CAPI_TARGET={}", std::env::var("TARGET").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
}
