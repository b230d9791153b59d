//! Every vertex, pixel and geometry shader of the corpus compiles alone
//! (default link plan) to SPIR-V that passes `spirv-val`, or is rejected as
//! `Unsupported` naming the feature. Invalid SPIR-V, internal errors and
//! panics fail the test, and at least 90% must compile. Prints a summary line.

use dxjit_conformance::compile_tally::compile_corpus_stages;
use dxjit_conformance::spirv_val;

#[test]
fn compile_graphics_corpus() {
    let Some(t) = compile_corpus_stages("compile_graphics_corpus", &["vertex", "pixel", "geometry"], |cs| {
        spirv_val::validate(&cs.spirv)
    }) else {
        return;
    };
    let (total, valid) = (t.total(), t.valid());
    eprintln!("graphics corpus: {}", t.summary(true));
    t.assert_no_failures();
    assert!(valid * 10 >= total * 9, "only {valid} of {total} graphics shaders compile to valid SPIR-V");
}
