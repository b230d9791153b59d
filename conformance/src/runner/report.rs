//! Per-spec results, the text table, the closing line and the JSON report.

use super::image::{base64, ImageSet};
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Pass,
    Fail,
    Skipped,
    /// The compiler reported unsupported DXIL; counts as a failure.
    CompileUnsupported,
    /// The compiler reported unsupported DXIL and the spec says `expect = "unsupported"`; a pass.
    ExpectedUnsupported,
}

impl Status {
    pub fn text(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "FAIL",
            Status::Skipped => "skipped",
            Status::CompileUnsupported => "UNSUPPORTED",
            Status::ExpectedUnsupported => "pass (unsupported as expected)",
        }
    }

    pub fn is_pass(self) -> bool {
        matches!(self, Status::Pass | Status::ExpectedUnsupported)
    }

    pub fn is_fail(self) -> bool {
        matches!(self, Status::Fail | Status::CompileUnsupported)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SpecResult {
    pub name: String,
    pub path: PathBuf,
    pub shader: String,
    pub status: Status,
    /// Why it failed or was skipped (first mismatch, error text), empty on a plain pass.
    pub detail: String,
    /// Validation-layer messages seen while it ran.
    pub messages: Vec<String>,
    pub compile_ms: f64,
    pub run_ms: f64,
    pub total_ms: f64,
    /// A failing drawn spec: expected / actual / difference pictures of its probed colour targets
    /// (HTML report only).
    #[serde(skip)]
    pub images: Vec<ImageSet>,
}

impl SpecResult {
    pub fn new(name: &str, path: &Path) -> SpecResult {
        SpecResult {
            name: name.to_string(),
            path: path.to_path_buf(),
            shader: String::new(),
            status: Status::Fail,
            detail: String::new(),
            messages: Vec::new(),
            compile_ms: 0.0,
            run_ms: 0.0,
            total_ms: 0.0,
            images: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub device: String,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub specs: Vec<SpecResult>,
}

impl Report {
    pub fn new(device: String, specs: Vec<SpecResult>) -> Report {
        let passed = specs.iter().filter(|s| s.status.is_pass()).count();
        let failed = specs.iter().filter(|s| s.status.is_fail()).count();
        let skipped = specs.iter().filter(|s| s.status == Status::Skipped).count();
        Report { device, passed, failed, skipped, specs }
    }

    /// `N passed, N failed, N skipped`.
    pub fn closing_line(&self) -> String {
        format!("{} passed, {} failed, {} skipped", self.passed, self.failed, self.skipped)
    }

    /// One row per spec (name, status, compile/run times, detail), then the closing line.
    pub fn table(&self) -> String {
        let w = self.specs.iter().map(|s| s.name.len()).max().unwrap_or(4).max(4);
        let mut out = format!("{:<w$}  {:<11}  {:>9}  {:>9}  detail\n", "spec", "status", "compile", "run");
        for s in &self.specs {
            let status = if s.status == Status::ExpectedUnsupported { "pass (unsup)" } else { s.status.text() };
            let mut detail = s.detail.replace('\n', " ");
            if detail.len() > 160 {
                let mut cut = 157;
                while !detail.is_char_boundary(cut) {
                    cut -= 1;
                }
                detail.truncate(cut);
                detail.push_str("...");
            }
            out.push_str(&format!(
                "{:<w$}  {:<11}  {:>7.1}ms  {:>7.1}ms  {}\n",
                s.name, status, s.compile_ms, s.run_ms, detail
            ));
        }
        out.push_str(&self.closing_line());
        out.push('\n');
        out
    }

    /// JUnit XML (the schema CI systems read): one `<testsuite>` named after the device, one
    /// `<testcase>` per spec (classname = the suite folder), `<failure>` with the detail and the
    /// validation messages, `<skipped>` with the reason; times in seconds.
    pub fn to_junit_xml(&self) -> String {
        let total: f64 = self.specs.iter().map(|s| s.total_ms).sum::<f64>() / 1000.0;
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.push_str(&format!(
            "<testsuites name=\"dxjit conform\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{total:.3}\">\n",
            self.specs.len(),
            self.failed,
            self.skipped
        ));
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{total:.3}\">\n",
            xml(&self.device),
            self.specs.len(),
            self.failed,
            self.skipped
        ));
        for s in &self.specs {
            let class = s.path.parent().and_then(|p| p.file_name()).map_or("specs".into(), |n| n.to_string_lossy());
            out.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" time=\"{:.3}\"",
                xml(&class),
                xml(&s.name),
                xml(&s.path.to_string_lossy()),
                s.total_ms / 1000.0
            ));
            let mut body = String::new();
            if s.status.is_fail() {
                let kind = if s.status == Status::CompileUnsupported { "unsupported" } else { "fail" };
                body.push_str(&format!(
                    "      <failure type=\"{kind}\" message=\"{}\">{}</failure>\n",
                    xml(&s.detail),
                    xml(&[s.detail.clone()]
                        .into_iter()
                        .chain(s.messages.iter().cloned())
                        .collect::<Vec<_>>()
                        .join("\n"))
                ));
            } else if s.status == Status::Skipped {
                body.push_str(&format!("      <skipped message=\"{}\"/>\n", xml(&s.detail)));
            }
            if !s.shader.is_empty() {
                body.push_str(&format!("      <system-out>{}</system-out>\n", xml(&s.shader)));
            }
            if body.is_empty() {
                out.push_str("/>\n");
            } else {
                out.push_str(">\n");
                out.push_str(&body);
                out.push_str("    </testcase>\n");
            }
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }

    /// A self-contained HTML page: the summary, every failing spec with its detail and validation
    /// messages and, for drawn specs, the expected / actual / difference pictures side by side
    /// (PNG `data:` URIs), then a table of all specs.
    pub fn to_html(&self) -> String {
        let mut out = String::from(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dxjit conform</title><style>\n\
             body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}\n\
             td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;font-size:90%}\n\
             .fail{color:#b00}.pass{color:#070}.skipped{color:#777}\n\
             .imgs{display:flex;gap:1.5em}.imgs figure{margin:0}\n\
             .imgs img{image-rendering:pixelated;border:1px solid #888}pre{white-space:pre-wrap}\n\
             </style></head><body>\n",
        );
        out.push_str(&format!(
            "<h1>dxjit conform</h1>\n<p>device: {}<br><b>{}</b></p>\n",
            xml(&self.device),
            xml(&self.closing_line())
        ));
        let failing: Vec<&SpecResult> = self.specs.iter().filter(|s| s.status.is_fail()).collect();
        if !failing.is_empty() {
            out.push_str("<h2>Failures</h2>\n");
        }
        for s in failing {
            out.push_str(&format!(
                "<section id=\"{0}\"><h3 class=\"fail\">{0} — {1}</h3>\n<p>{2}</p>\n<pre>{3}</pre>\n",
                xml(&s.name),
                xml(s.status.text()),
                xml(&s.shader),
                xml(&s.detail)
            ));
            if !s.messages.is_empty() {
                out.push_str(&format!("<pre>{}</pre>\n", xml(&s.messages.join("\n"))));
            }
            for set in &s.images {
                out.push_str(&format!("<h4>{}</h4>\n<div class=\"imgs\">\n", xml(&set.label)));
                for (name, img) in [("expected", &set.expected), ("actual", &set.actual), ("difference", &set.diff)] {
                    out.push_str(&format!(
                        "<figure><img alt=\"{name}\" width=\"{}\" height=\"{}\" src=\"data:image/png;base64,{}\"><figcaption>{name}</figcaption></figure>\n",
                        img.width,
                        img.height,
                        base64(&img.to_png())
                    ));
                }
                out.push_str("</div>\n<p>expected: probe values (grey checkerboard: not probed); difference: red = texel outside the probe's tolerance</p>\n");
            }
            out.push_str("</section>\n");
        }
        out.push_str("<h2>All specs</h2>\n<table><tr><th>spec</th><th>status</th><th>ms</th><th>detail</th></tr>\n");
        for s in &self.specs {
            let class = if s.status.is_fail() {
                "fail"
            } else if s.status.is_pass() {
                "pass"
            } else {
                "skipped"
            };
            out.push_str(&format!(
                "<tr><td>{}</td><td class=\"{class}\">{}</td><td>{:.1}</td><td>{}</td></tr>\n",
                xml(&s.name),
                xml(s.status.text()),
                s.total_ms,
                xml(&s.detail)
            ));
        }
        out.push_str("</table>\n</body></html>\n");
        out
    }

    /// The report in the format the file name asks for: `.xml` JUnit XML, `.html`/`.htm` HTML,
    /// anything else JSON.
    pub fn render_for(&self, path: &Path) -> String {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("xml") => self.to_junit_xml(),
            Some("html" | "htm") => self.to_html(),
            _ => self.to_json(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// Text for XML/HTML attribute values and content (also drops characters XML 1.0 forbids).
fn xml(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            '\n' | '\t' | '\r' => o.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => o.push('?'),
            c => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::image::{ImageSet, Rgba8};

    fn result(name: &str, status: Status, detail: &str) -> SpecResult {
        let mut r = SpecResult::new(name, Path::new("specs/graphics/x.toml"));
        r.status = status;
        r.detail = detail.to_string();
        r.shader = "vs=a + ps=b".into();
        r.total_ms = 12.5;
        r
    }

    fn report() -> Report {
        let mut bad = result("bad<&>", Status::Fail, "probe[0] pixel (1,2): expected \"0\" <got> 1 & \u{1}");
        bad.messages.push("VUID-x: <message>".into());
        let px = Rgba8 { width: 1, height: 1, data: vec![255, 0, 0, 255] };
        bad.images.push(ImageSet { label: "target 0".into(), expected: px.clone(), actual: px.clone(), diff: px });
        Report::new(
            "dev \"x\"".into(),
            vec![
                result("ok", Status::Pass, ""),
                bad,
                result("skip", Status::Skipped, "device lacks int64"),
                result("unsup", Status::CompileUnsupported, "unsupported: ray query"),
            ],
        )
    }

    #[test]
    fn junit_xml_parses_and_counts() {
        let text = report().to_junit_xml();
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        assert_eq!((root.attribute("tests"), root.attribute("failures")), (Some("4"), Some("2")));
        let suite = root.children().find(|n| n.has_tag_name("testsuite")).expect("testsuite");
        assert_eq!(suite.attribute("name"), Some("dev \"x\""));
        assert_eq!(suite.attribute("skipped"), Some("1"));
        let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
        assert_eq!(cases.len(), 4);
        assert_eq!(cases[1].attribute("name"), Some("bad<&>"));
        assert_eq!(cases[1].attribute("classname"), Some("graphics"));
        assert_eq!(cases[1].attribute("time"), Some("0.013"));
        let failure = cases[1].children().find(|n| n.has_tag_name("failure")).expect("failure");
        assert!(failure.attribute("message").is_some_and(|m| m.contains("expected \"0\" <got> 1 & ?")));
        assert!(failure.text().is_some_and(|t| t.contains("VUID-x: <message>")));
        assert!(cases[0].children().all(|n| !n.has_tag_name("failure")));
        assert!(cases[2].children().any(|n| n.has_tag_name("skipped")));
        assert_eq!(
            cases[3].children().find(|n| n.has_tag_name("failure")).and_then(|f| f.attribute("type")),
            Some("unsupported")
        );
    }

    #[test]
    fn html_lists_failures_with_their_pictures() {
        let html = report().to_html();
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("bad&lt;&amp;&gt;"));
        assert_eq!(html.matches("src=\"data:image/png;base64,iVBORw0KGgo").count(), 3);
        for cap in ["expected", "actual", "difference"] {
            assert!(html.contains(&format!("<figcaption>{cap}</figcaption>")));
        }
        assert!(html.contains("2 passed, 2 failed, 1 skipped") || html.contains("1 passed, 2 failed, 1 skipped"));
    }

    #[test]
    fn report_format_follows_the_file_name() {
        let r = report();
        assert!(r.render_for(Path::new("a.xml")).starts_with("<?xml"));
        assert!(r.render_for(Path::new("a.HTML")).starts_with("<!DOCTYPE html>"));
        let json: serde_json::Value = serde_json::from_str(&r.render_for(Path::new("a.json"))).expect("json");
        assert_eq!(json["failed"], 2);
    }
}
