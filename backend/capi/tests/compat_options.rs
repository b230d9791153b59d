//! The code-changing option types a layer sends through `dxil_spv_converter_add_option` take
//! effect in dxjit's compile: SUBGROUP_PROPERTIES / FORCE_SUBGROUP_SIZE become
//! `PipelineStateOptions::subgroup_size` (WaveGetLaneCount folded, `[WaveSize]` checked and the
//! reported range narrowed to the size dxjit chose); MIN_PRECISION_NATIVE_16BIT becomes
//! `native_min_precision` (min-precision types as real 16-bit types); and the native entry
//! points take the same settings.

use std::ffi::c_void;

use dxjit_capi::abi::{self, opt, CompiledSpirv, OptBool, OptU32Bool, OptU32x2, OptionBase};
use dxjit_capi::compat::*;
use dxjit_capi::native::*;
use dxjit_conformance::corpus;
use dxjit_conformance::spirv_val;

/// One option struct, as a layer builds it.
enum Opt {
    Subgroup(u32, u32),
    Force(u32),
    Native16(bool),
}

/// Runs the layer's sequence on `bytes` with `options`; the SPIR-V and the wave-size range
/// (min, max, preferred) the converter reports, or the run's result code.
fn run(bytes: &[u8], options: &[Opt]) -> Result<(Vec<u32>, [u32; 3]), i32> {
    let mut blob = std::ptr::null_mut();
    let mut conv = std::ptr::null_mut();
    // SAFETY (block): the interface's calls with valid pointers; every handle is freed.
    unsafe {
        assert_eq!(dxil_spv_parse_dxil_blob(bytes.as_ptr().cast::<c_void>(), bytes.len(), &mut blob), abi::SUCCESS);
        assert_eq!(dxil_spv_create_converter(blob, &mut conv), abi::SUCCESS);
        for o in options {
            let r = match *o {
                Opt::Subgroup(min, max) => {
                    let s = OptU32x2 { base: OptionBase { type_: opt::SUBGROUP_PROPERTIES }, a: min, b: max };
                    dxil_spv_converter_add_option(conv, &s.base)
                }
                Opt::Force(n) => {
                    let s = OptU32Bool { base: OptionBase { type_: opt::FORCE_SUBGROUP_SIZE }, value: n, flag: 1 };
                    dxil_spv_converter_add_option(conv, &s.base)
                }
                Opt::Native16(on) => {
                    let s =
                        OptBool { base: OptionBase { type_: opt::MIN_PRECISION_NATIVE_16BIT }, value: u8::from(on) };
                    dxil_spv_converter_add_option(conv, &s.base)
                }
            };
            assert_eq!(r, abi::SUCCESS);
        }
        let r = dxil_spv_converter_run(conv);
        let out = if r == abi::SUCCESS {
            let mut spirv = CompiledSpirv { data: std::ptr::null(), size: 0 };
            assert_eq!(dxil_spv_converter_get_compiled_spirv(conv, &mut spirv), abi::SUCCESS);
            let words = std::slice::from_raw_parts(spirv.data.cast::<u32>(), spirv.size / 4).to_vec();
            let mut w = [0u32; 3];
            let [a, b, c] = &mut w;
            assert_eq!(dxil_spv_converter_get_compute_wave_size_range(conv, a, b, c), abi::SUCCESS);
            Ok((words, w))
        } else {
            Err(r)
        };
        dxil_spv_converter_free(conv);
        dxil_spv_parsed_blob_free(blob);
        out
    }
}

fn reads_subgroup_size(words: &[u32]) -> bool {
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        if words[i] & 0xffff == 71 && n == 4 && words.get(i + 2) == Some(&11) && words.get(i + 3) == Some(&36) {
            return true;
        }
        i += n.max(1);
    }
    false
}

fn validate(words: &[u32]) {
    if std::process::Command::new(spirv_val::validator()).arg("--version").output().is_ok_and(|o| o.status.success()) {
        spirv_val::validate(words).expect("spirv-val");
    }
}

#[test]
fn subgroup_properties_fold_the_lane_count() {
    let bytes =
        std::fs::read(corpus::workspace_root().join("fixtures/compute/wave_arith.cs_6_0.dxil")).expect("fixture");
    // Without the option, and with a range of sizes: WaveGetLaneCount reads SubgroupSize.
    for opts in [&[][..], &[Opt::Subgroup(4, 64)]] {
        let (words, range) = run(&bytes, opts).expect("compiles");
        assert!(reads_subgroup_size(&words));
        assert_eq!(range, [0; 3]);
        validate(&words);
    }
    // One size (the device's only one, or the size a layer forces): a constant.
    for opts in [&[Opt::Subgroup(32, 32)][..], &[Opt::Subgroup(4, 64), Opt::Force(16)]] {
        let (words, _) = run(&bytes, opts).expect("compiles");
        assert!(!reads_subgroup_size(&words));
        validate(&words);
    }
    // Nonsense is refused as an option.
    let mut blob = std::ptr::null_mut();
    let mut conv = std::ptr::null_mut();
    // SAFETY: valid pointers; freed below.
    unsafe {
        assert_eq!(dxil_spv_parse_dxil_blob(bytes.as_ptr().cast(), bytes.len(), &mut blob), abi::SUCCESS);
        assert_eq!(dxil_spv_create_converter(blob, &mut conv), abi::SUCCESS);
        let s = OptU32x2 { base: OptionBase { type_: opt::SUBGROUP_PROPERTIES }, a: 64, b: 8 };
        assert_eq!(dxil_spv_converter_add_option(conv, &s.base), abi::ERROR_INVALID_ARGUMENT);
        dxil_spv_converter_free(conv);
        dxil_spv_parsed_blob_free(blob);
    }
}

#[test]
fn wave_size_is_checked_and_the_range_narrowed() {
    let Some(c) = corpus::Corpus::for_test("wave_size_is_checked_and_the_range_narrowed") else { return };
    let Some(set) = c.set("vkd3d-proton") else { return };
    let read = |n: &str| std::fs::read(set.root.join(format!("sm_advanced/{n}.dxil"))).expect("corpus blob");
    // [WaveSize(8, 16)]: without the layer's sizes the declared range; with 4..64 dxjit picks
    // 16 and reports exactly that, with WaveGetLaneCount folded.
    let range_8_16 = read("cs_wave_size_range_8_16");
    let (words, range) = run(&range_8_16, &[]).expect("compiles");
    assert_eq!(range, [8, 16, 0]);
    assert!(reads_subgroup_size(&words));
    let (words, range) = run(&range_8_16, &[Opt::Subgroup(4, 64)]).expect("compiles");
    assert_eq!(range, [16, 16, 16]);
    assert!(!reads_subgroup_size(&words));
    validate(&words);
    // [WaveSize(16)] on a device with only 32: refused.
    assert_eq!(run(&read("cs_wave_size_wave16"), &[Opt::Subgroup(32, 32)]).err(), Some(abi::ERROR_UNSUPPORTED_FEATURE));

    // The native API: the same through DxjitCompileOptions and dxjit_shader_required_subgroup_size.
    let mut o = std::mem::MaybeUninit::<DxjitCompileOptions>::uninit();
    // SAFETY: fills the struct.
    let mut o = unsafe {
        dxjit_compile_options_default(o.as_mut_ptr());
        o.assume_init()
    };
    o.subgroup_size_min = 4;
    o.subgroup_size_max = 64;
    let mut shader = std::ptr::null_mut();
    let mut size = 0;
    // SAFETY: valid pointers; the shader is freed.
    unsafe {
        assert_eq!(dxjit_compile(range_8_16.as_ptr(), range_8_16.len(), &o, &mut shader), DxjitResult::DXJIT_OK);
        assert_eq!(dxjit_shader_required_subgroup_size(shader, &mut size), DxjitResult::DXJIT_OK);
        dxjit_shader_free(shader);
    }
    assert_eq!(size, 16);
}

/// The capabilities a module declares (OpCapability operands).
fn capabilities(words: &[u32]) -> Vec<u32> {
    let mut v = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        if words[i] & 0xffff == 17 {
            v.push(words[i + 1]);
        }
        i += n.max(1);
    }
    v
}

#[test]
fn min_precision_native_16bit_takes_effect() {
    let Some(c) = corpus::Corpus::for_test("min_precision_native_16bit_takes_effect") else { return };
    let Some(set) = c.set("dxil-spirv") else { return };
    let bytes = std::fs::read(set.root.join("resources/min16-alloca-groupshared.sm60.comp.dxil")).expect("corpus blob");
    const FLOAT16: u32 = 9;
    // Off (the default, and sent as false): min16float computed at 32 bits.
    for opts in [&[][..], &[Opt::Native16(false)]] {
        let (words, _) = run(&bytes, opts).expect("compiles");
        assert!(!capabilities(&words).contains(&FLOAT16));
        validate(&words);
    }
    // On: real 16-bit floats.
    let (words, _) = run(&bytes, &[Opt::Native16(true)]).expect("compiles");
    assert!(capabilities(&words).contains(&FLOAT16));
    validate(&words);
    // The same through dxjit.h.
    let mut o = std::mem::MaybeUninit::<DxjitCompileOptions>::uninit();
    // SAFETY: fills the struct.
    let mut o = unsafe {
        dxjit_compile_options_default(o.as_mut_ptr());
        o.assume_init()
    };
    assert!(!o.native_min_precision);
    o.native_min_precision = true;
    let mut shader = std::ptr::null_mut();
    let (mut p, mut n) = (std::ptr::null(), 0usize);
    // SAFETY: valid pointers; the words are copied before the shader is freed.
    let native = unsafe {
        assert_eq!(dxjit_compile(bytes.as_ptr(), bytes.len(), &o, &mut shader), DxjitResult::DXJIT_OK);
        assert_eq!(dxjit_shader_spirv(shader, &mut p, &mut n), DxjitResult::DXJIT_OK);
        let v = std::slice::from_raw_parts(p, n).to_vec();
        dxjit_shader_free(shader);
        v
    };
    assert!(capabilities(&native).contains(&FLOAT16));
    validate(&native);
}
