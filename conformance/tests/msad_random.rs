//! Msad (HLSL `msad4`, vkd3d-proton's cs_msad.dxil) on random inputs, run on the Vulkan device,
//! against a reference implementation of D3D's masked sum of absolute differences written from
//! the HLSL documentation (a reference byte of 0 contributes nothing). SKIPs without a device or
//! corpus.
#![cfg(feature = "vulkan")]

use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::runner::{self, report::Status, vulkan::VulkanBackend, RunConfig};

/// msad4(reference, source, accum): alignment j compares the reference bytes with the source
/// bytes j..j+3 of the 8-byte source.
fn msad4(reference: u32, source: [u32; 2], accum: u32) -> [u32; 4] {
    let src = u64::from(source[0]) | u64::from(source[1]) << 32;
    let mut out = [0u32; 4];
    for (j, o) in out.iter_mut().enumerate() {
        let window = (src >> (8 * j)) as u32;
        let mut sum = accum;
        for i in 0..4 {
            let r = (reference >> (8 * i)) & 0xff;
            let s = (window >> (8 * i)) & 0xff;
            if r != 0 {
                sum = sum.wrapping_add(r.abs_diff(s));
            }
        }
        *o = sum;
    }
    out
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
    /// A word whose bytes are often 0 (masked) or extreme.
    fn word(&mut self) -> u32 {
        let mut w = 0;
        for i in 0..4 {
            let b = match self.next() % 4 {
                0 => 0,
                1 => 0xff,
                _ => self.next() & 0xff,
            };
            w |= b << (8 * i);
        }
        w
    }
}

#[test]
fn msad_matches_reference_on_random_inputs() {
    if Corpus::for_test("msad_random").is_none() {
        return;
    }
    let backend = match VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("SKIPPED msad_random: no Vulkan device ({e})");
            return;
        }
    };
    const N: usize = 256;
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let (mut init, mut expect) = (Vec::new(), Vec::new());
    for _ in 0..N {
        let (r, sx, sy) = (rng.word(), rng.word(), rng.word());
        let accum = rng.next() % 100_000;
        init.extend([r, sx, sy, accum]);
        expect.extend(msad4(r, [sx, sy], accum));
    }
    let list = |v: &[u32]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    let spec = format!(
        "description = \"msad4 on random inputs vs a reference implementation\"\n\
         shader = \"vkd3d-proton/shaders/cs_msad.dxil\"\n\
         dispatch = [{N}, 1, 1]\n\
         [[resource]]\nregister = \"t0\"\nkind = \"structured\"\nstride = 16\ninit = {{ u32 = [{}] }}\n\
         [[resource]]\nregister = \"u0\"\nkind = \"structured\"\nstride = 16\nsize = {}\n\
         [[resource.expect]]\nu32 = [{}]\n",
        list(&init),
        16 * N,
        list(&expect)
    );
    let dir = std::env::temp_dir().join(format!("dxjit_msad_random_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("msad_random.toml");
    std::fs::write(&path, spec).unwrap();
    let r = runner::run_file(&backend, &path, &RunConfig::default());
    let _ = std::fs::remove_dir_all(&dir);
    println!("msad_random: {} {}", r.status.text(), r.detail);
    assert_eq!(r.status, Status::Pass, "{}: {:?}", r.detail, r.messages);
}

#[test]
fn reference_matches_the_documented_example() {
    // The worked example of the HLSL msad4 documentation.
    let got = msad4(0xA100_B2C3, [0xD7B0_C372, 0x4F57_C2A3], 1);
    assert_eq!(got[0], 153);
    let got = msad4(0xA100_B2C3, [0xD7B0_C372, 0x4F57_C2A3], 2);
    assert_eq!(got[1], 6);
}
