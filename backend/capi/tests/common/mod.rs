//! What the C-program tests share: building C sources against the library with the `cc` crate's
//! compiler, scratch folders, running a program and reading SPIR-V files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder holding libdxjit_capi.so (target/<profile>/deps, next to this test binary).
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent().expect("deps folder").to_path_buf()
}

/// A scratch folder for this test.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxjit-capi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

/// Compiles C sources with the `cc` crate's compiler; `shared`: a shared library; else a program
/// linked against libdxjit_capi.so (rpath set).
pub fn build_c(sources: &[PathBuf], out: &Path, shared: bool) -> PathBuf {
    let target = env!("DXJIT_CAPI_TARGET");
    let compiler = cc::Build::new()
        .target(target)
        .host(target)
        .opt_level(0)
        .debug(true)
        .cargo_metadata(false)
        .warnings(true)
        .get_compiler();
    let mut cmd = compiler.to_command();
    cmd.arg("-std=gnu11").arg("-Werror").arg("-I").arg(manifest_dir().join("include"));
    cmd.args(sources).arg("-o").arg(out);
    if shared {
        cmd.args(["-shared", "-fPIC"]);
    } else {
        let lib = lib_dir();
        assert!(lib.join("libdxjit_capi.so").exists(), "libdxjit_capi.so not built in {}", lib.display());
        cmd.arg("-L").arg(&lib).arg(format!("-Wl,-rpath,{}", lib.display()));
        cmd.args(["-ldxjit_capi", "-lpthread", "-ldl", "-lm"]);
    }
    let o = cmd.output().expect("run the C compiler");
    assert!(o.status.success(), "C compile of {sources:?} failed:\n{}", String::from_utf8_lossy(&o.stderr));
    out.to_path_buf()
}

pub fn c_source(name: &str) -> PathBuf {
    manifest_dir().join("tests/c").join(name)
}

/// Runs a command; panics with its output when it fails.
pub fn run(cmd: &mut Command) -> Output {
    let o = cmd.output().expect("run the C program");
    if !o.status.success() {
        panic!(
            "{cmd:?} exited with {}\nstdout:\n{}\nstderr:\n{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    o
}

pub fn read_words(path: &Path) -> Vec<u32> {
    let b = std::fs::read(path).expect("read SPIR-V");
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}
