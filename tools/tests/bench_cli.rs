//! `dxjit bench` on the project's fixtures: the JSON other tools read, the
//! pipeline timings and `--compare` against an earlier run.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn bench(args: &[&str]) -> (String, serde_json::Value, PathBuf) {
    let dir = std::env::temp_dir().join(format!("dxjit-bench-cli-{}-{}", std::process::id(), args.len()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let json = dir.join("run.json");
    let o = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .arg("bench")
        .arg(root().join("fixtures/compute"))
        .args(["--iterations", "2", "--threads", "2", "--top", "3", "--json"])
        .arg(&json)
        .args(args)
        .output()
        .expect("run dxjit");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json written")).expect("json");
    (out, v, json)
}

#[test]
fn bench_writes_the_documented_json_times_pipelines_and_compares() {
    let specs = root().join("conformance/specs/graphics");
    let (out, v, json) = bench(&["--pipelines", specs.to_str().expect("utf-8 path")]);
    // Per shader: the documented fields, every fixture compiled and timed.
    let shaders = v["shaders"].as_array().expect("shaders");
    let fixtures = std::fs::read_dir(root().join("fixtures/compute"))
        .expect("fixtures")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "dxil")))
        .count();
    assert_eq!(shaders.len(), fixtures);
    for s in shaders {
        assert!(s["path"].as_str().is_some_and(|p| p.ends_with(".dxil")), "{s}");
        assert_eq!(s["stage"], "compute", "{s}");
        assert_eq!(s["ok"], true, "{s}");
        let (med, p90, max) =
            (s["median_us"].as_f64().unwrap(), s["p90_us"].as_f64().unwrap(), s["max_us"].as_f64().unwrap());
        assert!(med > 0.0 && med <= p90 && p90 <= max, "{s}");
        assert!(s["spirv_bytes"].as_u64().unwrap() >= 20, "{s}");
        for phase in ["container", "bitcode", "metadata", "verify", "structurize", "lowering", "assembly"] {
            assert!(s["phases"][phase]["median_us"].as_f64().is_some(), "{phase}: {s}");
        }
        // The verifier is timed inside each compile: a share of it, not all of it.
        let share = s["verify_share"].as_f64().expect("verify_share");
        assert!((0.0..1.0).contains(&share), "{s}");
        if v["verifier"] == true {
            assert!(s["phases"]["verify"]["median_us"].as_f64().unwrap() > 0.0 && share > 0.0, "{s}");
        }
    }
    let share = &v["verify_share"];
    let (med, p90) = (share["median"].as_f64().expect("median"), share["p90"].as_f64().expect("p90"));
    assert!(0.0 <= med && med <= p90 && p90 < 1.0, "{share}");
    assert!(v["total_us"].as_f64().unwrap() > 0.0);
    assert!(v["shaders_per_second"].as_f64().unwrap() > 0.0);
    // Pipelines: every graphics spec is timed, linker and whole PSO compile.
    let specs_n = std::fs::read_dir(&specs)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "toml"))
        .count();
    let p = v["pipelines"]["specs"].as_array().expect("pipelines");
    assert_eq!(p.len(), specs_n);
    let compiled = p.iter().filter(|x| x["verdict"].as_str().is_some_and(|s| s.starts_with("compiled"))).count();
    let rejected = p.iter().filter(|x| x["verdict"].as_str().is_some_and(|s| s.starts_with("rejected"))).count();
    assert_eq!(compiled + rejected, specs_n, "{p:?}");
    assert!(compiled >= 10 && rejected >= 10, "{compiled} compiled, {rejected} rejected");
    for x in p {
        let link = x["link"]["median_us"].as_f64().unwrap();
        let whole = x["compile_pipeline"]["median_us"].as_f64().unwrap();
        assert!(link > 0.0 && whole > 0.0, "{x}");
        // Phases of the PSO compile: each stage read and decoded, linked; lowered only when linked.
        let ph = |p: &str| x["phases"][p]["median_us"].as_f64().unwrap_or_else(|| panic!("{p}: {x}"));
        assert!(ph("bitcode") > 0.0 && ph("link") > 0.0, "{x}");
        if x["verdict"].as_str().unwrap().starts_with("compiled") {
            assert!(ph("lowering") > 0.0 && ph("assembly") > 0.0, "{x}");
        }
    }
    assert!(out.contains("compile_pipeline"), "{out}");
    // --compare against the run just written: every shader in both, ratios printed.
    let (out2, _, _) = bench(&["--compare", json.to_str().unwrap()]);
    let line = out2.lines().find(|l| l.starts_with("compare with")).expect("compare header");
    assert!(line.contains(&format!("({} shaders in both", shaders.len())), "{line}");
    assert!(out2.contains("geometric mean of ratios"), "{out2}");
    assert!(out2.contains("shaders_per_second"), "{out2}");
}

/// DXIL libraries are timed per export, in their own section, apart from the other shaders.
#[test]
fn bench_times_library_exports_apart() {
    let dir = std::env::temp_dir().join(format!("dxjit-bench-cli-lib-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let json = dir.join("run.json");
    let o = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .arg("bench")
        .arg(root().join("fixtures/raytracing"))
        .arg(root().join("fixtures/rayquery"))
        .args(["--iterations", "2", "--threads", "2", "--top", "0", "--json"])
        .arg(&json)
        .output()
        .expect("run dxjit");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json written")).expect("json");
    // The two ray-query shaders are ordinary shaders; no library is among them.
    let shaders = v["shaders"].as_array().expect("shaders");
    assert_eq!(shaders.len(), 2, "{shaders:?}");
    assert!(shaders.iter().all(|s| s["stage"] != "library" && s["ok"] == true), "{shaders:?}");
    // Every export of the six fixture libraries (recursion's assembled), compiled and timed on its own.
    let lib = &v["library_exports"];
    let exports = lib["exports"].as_array().expect("library exports");
    assert_eq!(lib["libraries"], 6);
    assert_eq!(exports.len(), 22);
    assert_eq!(lib["compiled"], 22);
    for e in exports {
        assert_eq!(e["ok"], true, "{e}");
        assert!(e["export"].as_str().is_some_and(|x| !x.is_empty() && !x.contains('@')), "{e}");
        let stage = e["stage"].as_str().unwrap_or("");
        assert!(["raygeneration", "miss", "closesthit", "anyhit", "intersection", "callable"].contains(&stage), "{e}");
        let (med, max) = (e["median_us"].as_f64().unwrap(), e["max_us"].as_f64().unwrap());
        assert!(med > 0.0 && med <= max, "{e}");
        assert!(e["phases"]["lowering"]["median_us"].as_f64().is_some(), "{e}");
    }
    assert!(lib["median_us"].as_f64().unwrap() > 0.0);
    assert!(out.contains("library exports (22 of 22 exports of 6 libraries"), "{out}");
    assert!(out.contains("basic.lib_6_3.dxil#RayGen [raygeneration]"), "{out}");
}
