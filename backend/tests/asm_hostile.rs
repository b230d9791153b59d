//! The assembler on broken text: fixtures' module text cut at many places
//! and with characters replaced must give a module or an `AsmError` with a
//! line inside the text, never a panic; what parses must also write, be
//! wrapped in a container and read back without a panic.

use std::path::Path;

fn text_of(fixture: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(fixture);
    let bytes = std::fs::read(&p).unwrap();
    let c = dxjit::container::Container::parse(&bytes).unwrap();
    let m = dxjit::bitcode::read_module(c.dxil_program().unwrap().bitcode).unwrap();
    dxjit::ir::print::print_module(&m)
}

fn try_text(t: &str) -> bool {
    match dxjit::asm::parse_module(t) {
        Ok(m) => {
            if let Ok(bc) = dxjit::bitcode::write_module(&m) {
                let _ = dxjit::bitcode::read_module(&bc);
            }
            let _ = dxjit::asm::container_of(&m, &Default::default());
            true
        }
        Err(e) => {
            let lines = t.lines().count().max(1) as u32;
            assert!(e.line >= 1 && e.line <= lines + 1, "line {} of {lines}: {e}", e.line);
            assert!(!e.message.is_empty());
            false
        }
    }
}

#[test]
fn broken_text_never_panics() {
    let mut cases = 0;
    for f in [
        "graphics/gs_point_quad.gs_6_0.dxil",
        "compute/cf_switch.cs_6_0.dxil",
        "tessellation/tri_integer_cw.hs_6_0.dxil",
    ] {
        let text = text_of(f);
        let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(13).collect();
        for &c in &cuts {
            try_text(&text[..c]);
            cases += 1;
        }
        // Replace one character by each of a few troublemakers.
        for (k, &c) in cuts.iter().enumerate().step_by(3) {
            let bad = ["\"", "%", "!", "{", "}", "0", "-", "@", ",", "x", "\u{e9}"][k % 11];
            let end = text[c..].chars().next().map_or(c, |ch| c + ch.len_utf8());
            let t = format!("{}{}{}", &text[..c], bad, &text[end..]);
            try_text(&t);
            cases += 1;
        }
    }
    eprintln!("{cases} broken texts, no panic");
    assert!(cases > 500, "{cases}");
}
