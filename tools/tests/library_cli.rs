//! `dxjit dis` and `dxjit compile --entry` on DXIL libraries (ray tracing).

use std::path::PathBuf;
use std::process::Command;

fn fixture(f: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(f)
}

#[test]
fn dis_prints_library_exports_and_subobjects() {
    let o = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .arg("dis")
        .arg(fixture("raytracing/local_rootsig.lib_6_3.dxil"))
        .output()
        .expect("run dxjit");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let section: Vec<&str> = text
        .lines()
        .map(|l| l.strip_prefix("; ").unwrap_or(l))
        .skip_while(|l| *l != "library exports:")
        .take_while(|l| *l != "resources:")
        .filter(|l| !l.is_empty())
        .map(str::trim)
        .collect();
    assert_eq!(
        section,
        [
            "library exports:",
            "ClosestHit  closesthit",
            "Miss        miss",
            "RayGen      raygeneration",
            "subobjects:",
            "grs: global root signature (92 bytes)",
            "parameter 0: descriptor table of 1 ranges",
            "parameter 1: root SRV t0 space0",
            "lrs: local root signature (48 bytes)",
            "parameter 0: 1 root constants b0 space1",
            "lrsToHit: associates lrs with [ClosestHit]",
            "shaderConfig: shader config, max payload 16 bytes, max attributes 8 bytes",
            "pipelineConfig: pipeline config, max recursion depth 1",
            "HitGroup: triangle hit group, any hit -, closest hit ClosestHit, intersection -",
        ]
    );
    let o = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .args(["dis", "--json"])
        .arg(fixture("raytracing/procedural.lib_6_3.dxil"))
        .output()
        .expect("run dxjit");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let names: Vec<&str> =
        v["library"]["exports"].as_array().unwrap().iter().filter_map(|e| e["name"].as_str()).collect();
    assert_eq!(names, ["ClosestHit", "Intersection", "Miss", "RayGen"]);
    let hg = &v["library"]["subobjects"][3];
    assert_eq!(hg["kind"], "hit_group");
    assert_eq!(hg["hit_group_type"], "procedural_primitive");
    assert_eq!(hg["intersection"], "Intersection");
}

#[test]
fn compile_writes_one_export_by_plain_name() {
    let dir = std::env::temp_dir().join(format!("dxjit-library-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("out.spv");
    // (export, SPIR-V execution model: RayGenerationKHR 5313, IntersectionKHR 5314, ClosestHitKHR 5316, MissKHR 5317)
    for (export, model) in [("RayGen", 5313u32), ("Intersection", 5314), ("ClosestHit", 5316), ("Miss", 5317)] {
        let o = Command::new(env!("CARGO_BIN_EXE_dxjit"))
            .arg("compile")
            .arg(fixture("raytracing/procedural.lib_6_3.dxil"))
            .args(["--entry", export, "-o"])
            .arg(&out)
            .output()
            .expect("run dxjit");
        assert_eq!(o.status.code(), Some(0), "{export}: {}", String::from_utf8_lossy(&o.stderr));
        let b = std::fs::read(&out).expect("output written");
        let words: Vec<u32> = b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        // OpEntryPoint (opcode 15): exactly one, with this model and the plain name.
        let mut i = 5;
        let mut entries = Vec::new();
        while i < words.len() {
            let (n, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
            if op == 15 {
                let name: Vec<u8> =
                    words[i + 3..i + n].iter().flat_map(|w| w.to_le_bytes()).take_while(|&c| c != 0).collect();
                entries.push((words[i + 1], String::from_utf8(name).unwrap()));
            }
            i += n.max(1);
        }
        assert_eq!(entries, [(model, export.to_string())], "{export}");
    }
    // Without --entry a library has no single shader to compile: unsupported (exit 2).
    let o = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .arg("compile")
        .arg(fixture("raytracing/procedural.lib_6_3.dxil"))
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run dxjit");
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(dir);
}
