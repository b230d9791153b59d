//! The reference images under conformance/specs/graphics/reference are drawn here from the
//! fixtures' descriptions (the `Expect:` lines of their .md files), never captured from a device:
//! this test redraws each one and requires the committed PNG to hold exactly that picture.
//! `DXJIT_WRITE_REFERENCES=1` (re)writes them.

use dxjit_conformance::runner::backend::Format;
use dxjit_conformance::runner::image::{read_png, texel_rgba8, Rgba8};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("specs/graphics/reference")
}

/// A `w` x `h` picture of a target of format `f` whose texel at (x, y) is `texel(x, y)` (raw bytes
/// of that format), shown as 8-bit RGBA the way the runner compares it.
fn draw(f: Format, w: u32, h: u32, texel: impl Fn(u32, u32) -> Vec<u8>) -> Rgba8 {
    let mut data = Vec::new();
    for y in 0..h {
        for x in 0..w {
            data.extend_from_slice(&texel_rgba8(f, &texel(x, y)));
        }
    }
    Rgba8 { width: w, height: h, data }
}

fn f32x4(v: [f32; 4]) -> Vec<u8> {
    v.iter().flat_map(|c| c.to_le_bytes()).collect()
}

/// graphics/two_windings.vs_6_0.md: x < 8: 0 if y <= 2x else 1; x >= 8: 2 if y <= 2x - 16 else 3.
fn two_windings_prim(x: u32, y: u32) -> u32 {
    let (x, y) = (x as i64, y as i64);
    if x < 8 {
        u32::from(y > 2 * x)
    } else if y <= 2 * x - 16 {
        2
    } else {
        3
    }
}

fn pictures() -> Vec<(&'static str, Rgba8)> {
    vec![
        // graphics/gs_point_quad.gs_6_0.md: x,y in [2,6) = (1,0,0,1); x in [11,13), y in [9,11) =
        // (0,1,0,1); every other pixel (0,0,0,0).
        (
            "gs_point_quad.png",
            draw(Format::R32G32B32A32Float, 16, 16, |x, y| {
                if (2..6).contains(&x) && (2..6).contains(&y) {
                    f32x4([1.0, 0.0, 0.0, 1.0])
                } else if (11..13).contains(&x) && (9..11).contains(&y) {
                    f32x4([0.0, 1.0, 0.0, 1.0])
                } else {
                    f32x4([0.0; 4])
                }
            }),
        ),
        // linkage/primid.ps_6_0.md (a): pixel = prim, R32_UINT.
        ("primid_no_gs.png", draw(Format::R32Uint, 16, 16, |x, y| two_windings_prim(x, y).to_le_bytes().to_vec())),
        // linkage/primid.ps_6_0.md (b): the same plus 100.
        ("primid_gs.png", draw(Format::R32Uint, 16, 16, |x, y| (two_windings_prim(x, y) + 100).to_le_bytes().to_vec())),
    ]
}

#[test]
fn reference_images_are_the_described_pictures() {
    let write = std::env::var_os("DXJIT_WRITE_REFERENCES").is_some();
    for (name, pic) in pictures() {
        let path = dir().join(name);
        if write {
            std::fs::write(&path, pic.to_png()).expect("write reference");
        }
        let got = read_png(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(got, pic, "{name} is not the picture its fixture describes");
    }
}
