//! The bitcode reader keeps working storage and remembered blocks (BLOCKINFO,
//! metadata kind tables) per thread between modules. Reading a module after
//! many others, failed reads included, must give exactly what a fresh thread
//! reads.

use std::path::{Path, PathBuf};

fn fixture_bitcodes() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut files = Vec::new();
    for area in ["compute", "graphics", "linkage", "tessellation"] {
        let Ok(dir) = std::fs::read_dir(root.join(area)) else { continue };
        for e in dir.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "dxil") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for p in files {
        let bytes = std::fs::read(&p).unwrap();
        let Ok(c) = dxjit::container::Container::parse(&bytes) else { continue };
        let Ok(prog) = c.dxil_program() else { continue };
        out.push((p, prog.bitcode.to_vec()));
    }
    out
}

fn fresh_thread_read(bc: &[u8]) -> Result<dxjit::ir::Module, dxjit::bitcode::BitcodeError> {
    let bc = bc.to_vec();
    std::thread::spawn(move || dxjit::bitcode::read_module(&bc)).join().unwrap()
}

#[test]
fn warm_reader_matches_fresh_reader() {
    let mods = fixture_bitcodes();
    assert!(mods.len() >= 20, "expected the committed fixtures, found {}", mods.len());
    // Warm this thread up on everything, with truncated and corrupted inputs between.
    for (_, bc) in &mods {
        let _ = dxjit::bitcode::read_module(bc);
        let _ = dxjit::bitcode::read_module(&bc[..bc.len() / 2]);
        let mut bad = bc.clone();
        let mid = bad.len() / 3;
        bad[mid] ^= 0x5a;
        let _ = dxjit::bitcode::read_module(&bad);
    }
    let mut compared = 0;
    for (p, bc) in mods.iter().rev() {
        let warm = dxjit::bitcode::read_module(bc);
        let cold = fresh_thread_read(bc);
        match (&warm, &cold) {
            (Ok(a), Ok(b)) => {
                assert!(a == b, "{}: warm and fresh reads differ", p.display());
                assert_eq!(dxjit::ir::print::print_module(a), dxjit::ir::print::print_module(b), "{}", p.display());
                compared += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{}", p.display()),
            _ => panic!("{}: warm {:?} vs fresh {:?}", p.display(), warm.is_ok(), cold.is_ok()),
        }
    }
    assert!(compared >= 20);
}
