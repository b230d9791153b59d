//! `dxjit compile` on graphics stages alone (default link plan).

use std::path::PathBuf;
use std::process::Command;

#[test]
fn compiles_vertex_pixel_and_geometry_shaders_alone() {
    let dir = std::env::temp_dir().join(format!("dxjit-compile-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for f in ["graphics/fullscreen.vs_6_0.dxil", "graphics/discard.ps_6_0.dxil", "graphics/gs_layers.gs_6_0.dxil"] {
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(f);
        let out = dir.join("out.spv");
        let o = Command::new(env!("CARGO_BIN_EXE_dxjit"))
            .arg("compile")
            .arg(&src)
            .arg("-o")
            .arg(&out)
            .output()
            .expect("run dxjit");
        assert_eq!(o.status.code(), Some(0), "{f}: {}", String::from_utf8_lossy(&o.stderr));
        let b = std::fs::read(&out).expect("output written");
        assert_eq!(u32::from_le_bytes([b[0], b[1], b[2], b[3]]), 0x0723_0203, "{f}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
