//! `dxjit conform --report`: JUnit XML (parsed with roxmltree), HTML with expected / actual /
//! difference pictures for a failing drawn spec (screenshotted in headless Chromium when it is
//! installed), and JSON. Needs a Vulkan device (SKIPPED otherwise).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// gs_point_quad (graphics/gs_point_quad.gs_6_0.md) with the second square expected blue
/// instead of green: a drawn spec that fails on a correct compiler.
const WRONG: &str = r#"
description = "deliberately wrong expectation: the green square of gs_point_quad expected blue"
[pipeline]
vs = "fixtures/graphics/points.vs_6_0.dxil"
gs = "fixtures/graphics/gs_point_quad.gs_6_0.dxil"
ps = "fixtures/graphics/vcolor.ps_6_0.dxil"
topology = "point_list"
draw = { count = 2 }

[[pipeline.target]]
format = "r32g32b32a32_float"
width = 16
height = 16
rest = "clear"

[[probe]]
x = 2
y = 2
width = 4
height = 4
f32 = [1.0, 0.0, 0.0, 1.0]

[[probe]]
x = 11
y = 9
width = 2
height = 2
f32 = [0.0, 0.0, 1.0, 1.0]
"#;

fn conform(dir: &Path, report: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .current_dir(root())
        .args(["conform".as_ref(), dir.as_os_str(), "--report".as_ref(), report.as_os_str()])
        .output()
        .expect("run dxjit")
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |a, (i, &c)| a | u32::from(val(c)) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

#[test]
fn conform_reports_junit_xml_html_and_json() {
    let dir = std::env::temp_dir().join(format!("dxjit-conform-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let specs = dir.join("specs");
    std::fs::create_dir_all(&specs).expect("mkdir");
    std::fs::write(specs.join("quad_wrong_colour.toml"), WRONG).expect("write spec");
    std::fs::copy(
        root().join("conformance/specs/graphics/link_primid_gs_not_written_one_of.toml"),
        specs.join("primid_one_of.toml"),
    )
    .expect("copy spec");

    let xml_path = dir.join("r.xml");
    let o = conform(&specs, &xml_path);
    let stderr = String::from_utf8_lossy(&o.stderr);
    if o.status.code() == Some(2) && stderr.contains("no backend") {
        println!("SKIPPED conform_reports_junit_xml_html_and_json: no Vulkan device ({})", stderr.trim());
        return;
    }
    assert_eq!(o.status.code(), Some(1), "one spec fails: {stderr}");

    // JUnit XML.
    let text = std::fs::read_to_string(&xml_path).expect("xml report");
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("not XML: {e}\n{text}"));
    let suites = doc.root_element();
    assert_eq!(suites.tag_name().name(), "testsuites");
    assert_eq!((suites.attribute("tests"), suites.attribute("failures")), (Some("2"), Some("1")));
    let cases: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    let case = |name: &str| *cases.iter().find(|c| c.attribute("name") == Some(name)).expect(name);
    let failure = case("quad_wrong_colour").children().find(|n| n.has_tag_name("failure")).expect("failure");
    assert!(failure.attribute("message").is_some_and(|m| m.contains("pixel (11,9)")), "{text}");
    assert!(case("primid_one_of").children().all(|n| !n.has_tag_name("failure")));

    // HTML: the failing drawn spec with three PNG pictures.
    let html_path = dir.join("r.html");
    assert_eq!(conform(&specs, &html_path).status.code(), Some(1));
    let html = std::fs::read_to_string(&html_path).expect("html report");
    let pngs: Vec<Vec<u8>> = html
        .split("src=\"data:image/png;base64,")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(base64_decode)
        .collect();
    assert_eq!(pngs.len(), 3, "expected, actual, difference");
    for p in &pngs {
        assert_eq!(&p[..8], b"\x89PNG\r\n\x1a\n");
        // 16x16 target scaled to 256x256.
        assert_eq!(&p[16..24], &[0, 0, 1, 0, 0, 0, 1, 0]);
    }
    assert!(html.contains("quad_wrong_colour") && html.contains("pixel (11,9)"));

    // JSON.
    let json_path = dir.join("r.json");
    assert_eq!(conform(&specs, &json_path).status.code(), Some(1));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).expect("json report")).expect("json");
    assert_eq!((json["passed"].as_u64(), json["failed"].as_u64()), (Some(1), Some(1)));

    // The page in a browser: a screenshot when Chromium is installed.
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()));
    match chromium {
        None => println!("SKIPPED conform_reports_junit_xml_html_and_json (screenshot): no chromium"),
        Some(c) => {
            let shot = dir.join("report.png");
            let url = format!("file://{}", html_path.display());
            let o = Command::new(c)
                .args([
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--window-size=1100,900",
                ])
                .arg(format!("--screenshot={}", shot.display()))
                .arg(url)
                .output()
                .expect("run chromium");
            let png = std::fs::read(&shot).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
            assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
            assert_eq!(&png[16..24], &[0, 0, 4, 0x4c, 0, 0, 3, 0x84], "1100x900 screenshot");
            println!("screenshot: {}", shot.display());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
