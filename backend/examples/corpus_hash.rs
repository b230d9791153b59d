//! Prints one line per corpus container: its path and a hash of the SPIR-V dxjit makes of it with
//! the default options (or the error kind). Two builds' outputs compared with `diff` show whether
//! a change altered any module (`cargo run --release -p dxjit --example corpus_hash -- DIR`).

fn main() {
    let root = std::env::args().nth(1).unwrap_or_else(|| "../shared/corpus".into());
    let mut files = Vec::new();
    collect(std::path::Path::new(&root), &mut files);
    files.sort();
    let opts = dxjit::CompileOptions::default();
    for f in files {
        let Ok(bytes) = std::fs::read(&f) else { continue };
        let line = match dxjit::compile(&bytes, &opts) {
            Ok(cs) => {
                let b: Vec<u8> = cs.spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
                format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&b))
            }
            Err(e) => format!("error {}", e.to_string().split(':').next().unwrap_or("")),
        };
        println!("{} {line}", f.display());
    }
}

fn collect(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxil") {
            out.push(p);
        }
    }
}
