//! `dxjit asm` end to end: `dis` output assembles into a container whose
//! `dis` is the same text; `--bitcode` and `--root-signature`; malformed
//! text fails with the line, column and rule, never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(f: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(f)
}

fn dxjit(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxjit")).args(args).output().expect("run dxjit")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxjit-asm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn dis(p: &Path) -> String {
    let o = dxjit(&["dis".as_ref(), p.as_os_str()]);
    assert!(o.status.success(), "dis {}: {}", p.display(), String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn dis_output_assembles_to_a_container_with_the_same_dis() {
    for f in [
        "graphics/gs_point_quad.gs_6_0.dxil",
        "tessellation/tri_integer_cw.hs_6_0.dxil",
        "bindless/table_ranges.cs_6_0.dxil",
        // A library: its subobjects (a local root signature associated with the closest hit) go
        // through the printed !dx.subobjects into the assembled RDAT part.
        "raytracing/local_rootsig.lib_6_3.dxil",
    ] {
        let text = dis(&fixture(f));
        let ll = tmp(&format!("{}.ll", f.replace('/', "_")));
        std::fs::write(&ll, &text).unwrap();
        let o = dxjit(&["asm".as_ref(), ll.as_os_str()]);
        assert!(o.status.success(), "asm {f}: {}", String::from_utf8_lossy(&o.stderr));
        let out = ll.with_extension("dxil");
        assert_eq!(dis(&out), text, "{f}: dis of the assembled container");
        // Compiles like the original.
        let spv_a = tmp("a.spv");
        let spv_b = tmp("b.spv");
        let entry: &[&str] = if f.contains(".lib_") { &["--entry", "ClosestHit"] } else { &[] };
        for (src, spv) in [(fixture(f), &spv_a), (out.clone(), &spv_b)] {
            let mut args = vec!["compile".as_ref(), src.as_os_str(), "-o".as_ref(), spv.as_os_str()];
            args.extend(entry.iter().map(|a| std::ffi::OsStr::new(*a)));
            let o = dxjit(&args);
            assert!(o.status.success(), "compile {}: {}", src.display(), String::from_utf8_lossy(&o.stderr));
        }
        assert_eq!(std::fs::read(&spv_a).unwrap(), std::fs::read(&spv_b).unwrap(), "{f}: SPIR-V");
    }
}

#[test]
fn bitcode_and_root_signature() {
    let src = fixture("bindless/table_ranges.cs_6_0.dxil");
    let ll = tmp("rs.ll");
    std::fs::write(&ll, dis(&src)).unwrap();
    // --bitcode: bare LLVM bitcode, which dis reads too.
    let bc = tmp("rs.bc");
    let o = dxjit(&["asm".as_ref(), ll.as_os_str(), "--bitcode".as_ref(), "-o".as_ref(), bc.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read(&bc).unwrap().starts_with(b"BC\xC0\xDE"));
    assert!(dis(&bc).contains("define void @main()"));
    // --root-signature from a container: the RTS0 part is copied.
    let out = tmp("rs.dxil");
    let o = dxjit(&[
        "asm".as_ref(),
        ll.as_os_str(),
        "--root-signature".as_ref(),
        src.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (a, b) = (std::fs::read(&src).unwrap(), std::fs::read(&out).unwrap());
    let (ca, cb) = (dxjit::container::Container::parse(&a).unwrap(), dxjit::container::Container::parse(&b).unwrap());
    assert_eq!(ca.part(b"RTS0").unwrap().data, cb.part(b"RTS0").unwrap().data);
    assert_eq!(cb.digest_status(), dxjit::container::DigestStatus::Valid);
    // A file that is no root signature is refused.
    let o = dxjit(&["asm".as_ref(), ll.as_os_str(), "--root-signature".as_ref(), ll.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a root signature"));
}

#[test]
fn malformed_text_names_line_column_and_rule() {
    let ll = tmp("bad.ll");
    std::fs::write(
        &ll,
        "target triple = \"dxil-ms-dx\"\n\ndefine void @main() {\nbb0:\n  %0 = fadd float 1.0, %nope\n  ret void\n}\n",
    )
    .unwrap();
    let o = dxjit(&["asm".as_ref(), ll.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.ll:5:24: instruction: %nope is not defined in @main"), "{err}");
    assert!(err.contains("  %0 = fadd float 1.0, %nope\n"), "{err}");
    assert!(err.contains("^"), "{err}");
    let o = dxjit(&["asm".as_ref(), "/nonexistent/dxjit/x.ll".as_ref()]);
    assert_eq!(o.status.code(), Some(1));
}
