//! `dxjit link` exit statuses and output on fixture pipelines.

use std::path::PathBuf;
use std::process::Command;

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(rel)
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxjit-link-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn dxjit(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dxjit")).arg("link").args(args).output().expect("run dxjit")
}

#[test]
fn linked_pipeline_writes_plan_json() {
    let out = out_dir("ok");
    let vs = fixture("linkage/sgv_row.vs_6_0.dxil");
    let ps = fixture("linkage/sgv_row.ps_6_0.dxil");
    let o = dxjit(&[vs.as_os_str(), ps.as_os_str(), "-o".as_ref(), out.as_os_str(), "--json".as_ref()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let written = std::fs::read_to_string(out.join("plan.json")).expect("plan.json");
    assert_eq!(String::from_utf8_lossy(&o.stdout), written);
    let v: serde_json::Value = serde_json::from_str(&written).expect("valid JSON");
    assert_eq!(v["stages"][1]["stage"], "pixel");
    for stage in ["vertex", "pixel"] {
        assert_spirv(&out.join(format!("{stage}.spv")));
    }
    let _ = std::fs::remove_dir_all(out);
}

/// A SPIR-V module: the magic number, then a header.
fn assert_spirv(path: &std::path::Path) {
    let b = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(b.len() > 20 && b.len().is_multiple_of(4), "{}: {} bytes", path.display(), b.len());
    assert_eq!(u32::from_le_bytes([b[0], b[1], b[2], b[3]]), 0x0723_0203, "{}", path.display());
}

#[test]
fn geometry_pipeline_writes_every_stage() {
    let out = out_dir("gs");
    let files = ["graphics/points.vs_6_0.dxil", "graphics/gs_point_quad.gs_6_0.dxil", "graphics/vcolor.ps_6_0.dxil"];
    let paths: Vec<PathBuf> = files.iter().map(|f| fixture(f)).collect();
    let mut args: Vec<&std::ffi::OsStr> = paths.iter().map(|p| p.as_os_str()).collect();
    args.extend(["-o".as_ref(), out.as_os_str()]);
    let o = dxjit(&args);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    for stage in ["vertex", "geometry", "pixel"] {
        assert_spirv(&out.join(format!("{stage}.spv")));
    }
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn tessellation_pipeline_writes_every_stage() {
    let out = out_dir("tess");
    let files = [
        "tessellation/cp.vs_6_0.dxil",
        "tessellation/passthrough.hs_6_0.dxil",
        "tessellation/passthrough.ds_6_0.dxil",
        "graphics/vcolor.ps_6_0.dxil",
    ];
    let paths: Vec<PathBuf> = files.iter().map(|f| fixture(f)).collect();
    let mut args: Vec<&std::ffi::OsStr> = paths.iter().map(|p| p.as_os_str()).collect();
    args.extend(["-o".as_ref(), out.as_os_str()]);
    let o = dxjit(&args);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("plan.json").exists());
    for stage in ["vertex", "hull", "domain", "pixel"] {
        assert_spirv(&out.join(format!("{stage}.spv")));
    }
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn rejected_pipeline_exits_3_naming_the_rule() {
    let out = out_dir("rej");
    let vs = fixture("linkage/rowshare.vs_6_0.dxil");
    let ps = fixture("linkage/reject_missing.ps_6_0.dxil");
    let o = dxjit(&[vs.as_os_str(), ps.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_eq!(o.status.code(), Some(3));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("SemanticNotFound") && err.contains("TEXCOORD5") && err.contains("register 1"), "{err}");
    assert!(!out.join("plan.json").exists());
}

#[test]
fn malformed_input_exits_1() {
    let out = out_dir("bad");
    let notdxil = fixture("linkage/rowshare.vs_6_0.md");
    let o = dxjit(&[notdxil.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    let layout = std::env::temp_dir().join(format!("dxjit-link-cli-{}-layout.toml", std::process::id()));
    std::fs::write(&layout, "[[element]]\nsemantic = \"POSITION\"\nformat = \"R7_FLOAT\"\n").expect("write");
    let vs = fixture("tessellation/cp.vs_6_0.dxil");
    let o = dxjit(&[vs.as_os_str(), "--input-layout".as_ref(), layout.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_file(layout);
}

/// D3D12 #681: a point-input geometry shader (gs_point_quad: `point VSOut p[1]`) in a PSO whose
/// primitive topology type is TRIANGLE is rejected; POINT links.
#[test]
fn topology_rule_681_exits_3_naming_the_rule() {
    let files = ["graphics/points.vs_6_0.dxil", "graphics/gs_point_quad.gs_6_0.dxil", "graphics/vcolor.ps_6_0.dxil"];
    let paths: Vec<PathBuf> = files.iter().map(|f| fixture(f)).collect();
    for (topology, code) in [("triangle", 3), ("line_strip", 3), ("point", 0), ("bogus", 1)] {
        let out = out_dir(&format!("topo-{topology}"));
        let mut args: Vec<&std::ffi::OsStr> = paths.iter().map(|p| p.as_os_str()).collect();
        args.extend(["--topology".as_ref(), topology.as_ref(), "-o".as_ref(), out.as_os_str()]);
        let o = dxjit(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "--topology {topology}: {err}");
        if code == 3 {
            assert!(err.contains("GsInputPrimitiveMismatch") && err.contains("#681"), "{err}");
            assert!(!out.join("plan.json").exists());
        }
        let _ = std::fs::remove_dir_all(out);
    }
}
