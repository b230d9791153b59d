//! The module import graph of each crate has no cycles.
//!
//! How it is checked: every `.rs` file under `backend/src`, `conformance/src`
//! and `tools/src` is read with comments and string/char literals blanked.
//! Its `use` declarations (brace groups expanded; `crate::`, `super::`,
//! `self::` and child-module paths) and every `crate::…` / `super::…` path in
//! its code name the modules it depends on (the longest prefix that is a
//! module file). A dependency of module A on module B is projected to the
//! level where they meet: the two children of their common parent module
//! that contain A and B (`lower::math` → `compile` counts as `lower` →
//! `compile`; `runner::draw` → `runner::execute` stays as it is). A module
//! and its own descendants may use each other (the dispatch table in
//! `lower/mod.rs` and the op-family files under it). Within each parent,
//! the children must form a DAG: any strongly connected component of two or
//! more siblings is reported with the file-level imports that close it.
//! Test modules (files named `tests.rs` / `*_tests.rs`, inline `mod tests`)
//! are left out: they exercise the public API from inside the tree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

/// Imports the graph still has on purpose, each with why and who removes it.
/// The test fails when one of them is gone, so the list only shrinks.
/// (crate, importing module, imported module, why)
const KNOWN: &[(&str, &str, &str, &str)] = &[];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// `src/a/b.rs` → `[a, b]`, `src/a/mod.rs` → `[a]`, `src/lib.rs` → `[]`.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut segs: ModPath = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if matches!(segs.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        segs.pop();
    }
    segs
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The source with comments and the insides of string and char literals
/// replaced by spaces (newlines kept), so braces and paths in them are not seen.
fn blank(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank_range = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in out.iter_mut().take(to).skip(from) {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
                blank_range(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                let start = i;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                blank_range(&mut out, start, i);
            }
            b'r' if (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let body = i + 2 + hashes;
                let mut close = Vec::with_capacity(hashes + 1);
                close.push(b'"');
                close.extend(std::iter::repeat_n(b'#', hashes));
                let end = b[body..].windows(close.len()).position(|w| w == close).map_or(b.len(), |p| body + p);
                blank_range(&mut out, body, end);
                i = end + close.len();
            }
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                blank_range(&mut out, start, i.min(b.len()));
                i += 1;
            }
            b'\'' => {
                // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
                let end = if b.get(i + 1) == Some(&b'\\') {
                    b[i + 2..].iter().position(|&c| c == b'\'').map(|p| i + 2 + p)
                } else if b.get(i + 2) == Some(&b'\'') {
                    Some(i + 2)
                } else {
                    std::str::from_utf8(&b[i + 1..])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .filter(|c| c.len_utf8() > 1 && b.get(i + 1 + c.len_utf8()) == Some(&b'\''))
                        .map(|c| i + 1 + c.len_utf8())
                };
                match end {
                    Some(e) => {
                        blank_range(&mut out, i + 1, e);
                        i = e + 1;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// For each byte, the inline modules (`mod name { … }`) it is inside, as a
/// list of names; `None` inside an inline test module.
struct Scopes {
    /// (start, end, name) of each inline module body.
    mods: Vec<(usize, usize, String)>,
}

impl Scopes {
    fn new(text: &[u8]) -> Scopes {
        let mut mods = Vec::new();
        let mut stack: Vec<(usize, Option<String>)> = Vec::new();
        let mut i = 0;
        while i < text.len() {
            if text[i] == b'{' {
                // Is this `mod NAME {`?
                let before = &text[..i];
                let trimmed = before.trim_ascii_end();
                let name_start = trimmed.iter().rposition(|&c| !is_ident(c)).map_or(0, |p| p + 1);
                let name = String::from_utf8_lossy(&trimmed[name_start..]).into_owned();
                let kw = trimmed[..name_start].trim_ascii_end();
                let is_mod = kw.ends_with(b"mod") && (kw.len() == 3 || !is_ident(kw[kw.len() - 4])) && !name.is_empty();
                stack.push((i, is_mod.then_some(name)));
            } else if text[i] == b'}' {
                if let Some((start, Some(name))) = stack.pop() {
                    mods.push((start, i, name));
                }
            }
            i += 1;
        }
        Scopes { mods }
    }

    /// The inline module path at `pos`, outermost first.
    fn at(&self, pos: usize) -> Vec<&str> {
        let mut v: Vec<&(usize, usize, String)> = self.mods.iter().filter(|(s, e, _)| *s < pos && pos < *e).collect();
        v.sort_by_key(|m| m.0);
        v.into_iter().map(|m| m.2.as_str()).collect()
    }
}

/// Expands a use tree (`a::{b, c::{d, e as f}, self}`) into paths.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn go(prefix: &[String], s: &str, out: &mut Vec<Vec<String>>) {
        let s = s.trim();
        if let Some(open) = s.find('{') {
            let head: Vec<String> =
                s[..open].split("::").map(str::trim).filter(|t| !t.is_empty()).map(String::from).collect();
            let close = s.rfind('}').unwrap_or(s.len());
            let inner = &s[open + 1..close];
            let mut p = prefix.to_vec();
            p.extend(head);
            // Split the group at top-level commas.
            let (mut depth, mut last) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        go(&p, &inner[last..i], out);
                        last = i + 1;
                    }
                    _ => {}
                }
            }
            go(&p, &inner[last..], out);
        } else {
            let s = s.split(" as ").next().unwrap_or(s).trim();
            if s.is_empty() {
                return;
            }
            let mut p = prefix.to_vec();
            p.extend(s.split("::").map(|t| t.trim().to_string()).filter(|t| !t.is_empty() && t != "*"));
            out.push(p);
        }
    }
    let mut out = Vec::new();
    go(&[], tree, &mut out);
    out
}

struct Crate {
    name: &'static str,
    modules: BTreeSet<ModPath>,
    /// (from module, to module) → the files and import text that make the edge.
    edges: BTreeMap<(ModPath, ModPath), Vec<String>>,
}

fn is_test_module(m: &ModPath) -> bool {
    m.last().is_some_and(|l| l == "tests" || l.ends_with("_tests"))
}

/// Resolves `path` (as written in module `at`) to the module it names, if it is one of ours.
fn resolve(modules: &BTreeSet<ModPath>, at: &ModPath, path: &[String]) -> Option<ModPath> {
    let mut base: ModPath;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &path[1..];
        }
        Some("super" | "self") => {
            base = at.clone();
            while let Some(s) = rest.first() {
                match s.as_str() {
                    "super" => {
                        base.pop()?;
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        Some(first) => {
            // A child module of `at` named directly (2018 paths); else an extern crate.
            let mut child = at.clone();
            child.push(first.to_string());
            if !modules.contains(&child) {
                return None;
            }
            base = at.clone();
        }
        None => return None,
    }
    let mut best = base.clone();
    for s in rest {
        base.push(s.clone());
        if modules.contains(&base) {
            best = base.clone();
        } else {
            break;
        }
    }
    Some(best)
}

fn read_crate(name: &'static str, src: &Path) -> Crate {
    let mut files = Vec::new();
    rs_files(src, &mut files);
    assert!(!files.is_empty(), "no sources under {}", src.display());
    let modules: BTreeSet<ModPath> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges: BTreeMap<(ModPath, ModPath), Vec<String>> = BTreeMap::new();
    for f in &files {
        let file_mod = module_of(src, f);
        if is_test_module(&file_mod) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let code = blank(&text);
        let scopes = Scopes::new(&code);
        let rel = f.strip_prefix(workspace()).unwrap_or(f).display().to_string();
        let mut add = |pos: usize, path: Vec<String>, what: &str| {
            let inline = scopes.at(pos);
            if inline.iter().any(|m| *m == "tests" || m.ends_with("_tests")) {
                return;
            }
            let mut at = file_mod.clone();
            at.extend(inline.iter().map(|s| s.to_string()));
            let Some(to) = resolve(&modules, &at, &path) else { return };
            let line = text[..pos.min(text.len())].lines().count().max(1);
            edges.entry((file_mod.clone(), to)).or_default().push(format!("{rel}:{line}: {what}"));
        };
        // `use` declarations.
        let mut i = 0;
        while let Some(p) = find_word(&code, b"use", i) {
            let end = code[p..].iter().position(|&c| c == b';').map_or(code.len(), |e| p + e);
            let tree = String::from_utf8_lossy(&code[p + 3..end]).into_owned();
            for path in expand_use(&tree) {
                let shown = format!("use {}", path.join("::"));
                add(p, path, &shown);
            }
            i = end;
        }
        // `crate::…` and `super::…` paths in code (outside `use`).
        for kw in [&b"crate"[..], &b"super"[..]] {
            let mut i = 0;
            while let Some(p) = find_word(&code, kw, i) {
                i = p + kw.len();
                if p >= 2 && &code[p - 2..p] == b"::" {
                    continue;
                }
                if !code[i..].starts_with(b"::") {
                    continue;
                }
                // Skip paths inside `use` declarations (handled above).
                let line_start = code[..p].iter().rposition(|&c| c == b'\n' || c == b';').map_or(0, |q| q + 1);
                let stmt = String::from_utf8_lossy(&code[line_start..p]);
                if stmt.trim_start().starts_with("use ") || stmt.trim_start().starts_with("pub use ") {
                    continue;
                }
                let mut end = i;
                while end < code.len() && (is_ident(code[end]) || code[end] == b':') {
                    end += 1;
                }
                let path: Vec<String> = String::from_utf8_lossy(&code[p..end])
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
                let shown = path.join("::");
                add(p, path, &shown);
            }
        }
    }
    Crate { name, modules, edges }
}

/// The next occurrence of `word` as a whole identifier at or after `from`.
fn find_word(code: &[u8], word: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i + word.len() <= code.len() {
        let p = code[i..].windows(word.len()).position(|w| w == word)? + i;
        let before_ok = p == 0 || !is_ident(code[p - 1]);
        let after_ok = code.get(p + word.len()).is_none_or(|&c| !is_ident(c));
        if before_ok && after_ok {
            return Some(p);
        }
        i = p + 1;
    }
    None
}

/// Sibling-level edges: (parent, child a, child b) → witnesses.
fn sibling_edges(c: &Crate) -> BTreeMap<ModPath, BTreeMap<(String, String), Vec<String>>> {
    let mut levels: BTreeMap<ModPath, BTreeMap<(String, String), Vec<String>>> = BTreeMap::new();
    for ((from, to), why) in &c.edges {
        let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
        if common == from.len() || common == to.len() {
            continue; // a module and its ancestor or descendant
        }
        let parent: ModPath = from[..common].to_vec();
        let key = (from[common].clone(), to[common].clone());
        let w = levels.entry(parent).or_default().entry(key).or_default();
        for y in why {
            w.push(format!("{} -> {}: {y}", from.join("::"), to.join("::")));
        }
    }
    levels
}

/// Strongly connected components of two or more nodes (Tarjan).
fn cycles(edges: &BTreeMap<(String, String), Vec<String>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let nodes: Vec<&String> = nodes.into_iter().collect();
    let idx = |n: &String| nodes.iter().position(|m| *m == n).unwrap_or(0);
    let adj: Vec<Vec<usize>> =
        nodes.iter().map(|n| edges.keys().filter(|(a, _)| a == *n).map(|(_, b)| idx(b)).collect()).collect();
    struct T<'a> {
        adj: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T<'_>, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in &t.adj[v] {
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let n = nodes.len();
    let mut t = T {
        adj: &adj,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    t.out
        .into_iter()
        .map(|c| {
            let mut names: Vec<String> = c.into_iter().map(|i| nodes[i].clone()).collect();
            names.sort();
            names
        })
        .collect()
}

fn check_crate(name: &'static str, dir: &str) -> (Vec<String>, usize) {
    let mut c = read_crate(name, &workspace().join(dir));
    // Known imports are taken out of the graph (and must still exist).
    let mut known_used = 0;
    for (krate, from, to, why) in KNOWN {
        if *krate != c.name {
            continue;
        }
        let key = c.edges.keys().find(|(a, b)| a.join("::") == *from && b.join("::") == *to).cloned();
        if let Some(k) = key {
            eprintln!("known import {from} -> {to} ({why}): {:?}", c.edges[&k]);
            c.edges.remove(&k);
            known_used += 1;
        }
    }
    let mut problems = Vec::new();
    for (parent, edges) in sibling_edges(&c) {
        for comp in cycles(&edges) {
            let at = if parent.is_empty() { "the crate root".to_string() } else { parent.join("::") };
            let mut msg = format!("{}: import cycle among {} in {at}:", c.name, comp.join(", "));
            for ((a, b), why) in &edges {
                if comp.contains(a) && comp.contains(b) {
                    msg.push_str(&format!("\n    {a} -> {b}: {}", why.first().map(String::as_str).unwrap_or("")));
                    if why.len() > 1 {
                        msg.push_str(&format!(" (+{} more)", why.len() - 1));
                    }
                }
            }
            problems.push(msg);
        }
    }
    eprintln!("{name}: {} modules, {} module-level imports, {} cycles", c.modules.len(), c.edges.len(), problems.len());
    (problems, known_used)
}

#[test]
fn no_import_cycles() {
    let mut problems = Vec::new();
    let mut known_used = 0;
    for (name, dir) in [("dxjit", "backend/src"), ("dxjit-conformance", "conformance/src"), ("dxjit-cli", "tools/src")]
    {
        let (p, k) = check_crate(name, dir);
        problems.extend(p);
        known_used += k;
    }
    for p in &problems {
        eprintln!("{p}");
    }
    assert!(problems.is_empty(), "{} import cycles (listed above)", problems.len());
    assert_eq!(known_used, KNOWN.len(), "an import listed in KNOWN is gone: remove it from the list");
}

/// The checker itself finds a cycle between two sibling files, through a
/// `use` group and through a path in code, and ignores comments, strings and
/// a parent/child pair.
#[test]
fn the_checker_sees_a_planted_cycle() {
    let dir = std::env::temp_dir().join(format!("dxjit-import-cycles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/room")).expect("scratch");
    let files = [
        ("src/lib.rs", "pub mod a;\npub mod room;\n// use crate::b::X;\nconst S: &str = \"crate::room::x\";\n"),
        ("src/a.rs", "use crate::{room::{x::Y, z}, a};\n"),
        ("src/room/mod.rs", "pub mod x;\npub mod y;\nuse self::x::Y;\n"),
        ("src/room/x.rs", "pub struct Y;\nfn f() -> super::y::Z { todo!() }\n"),
        ("src/room/y.rs", "pub struct Z;\nuse super::x::Y;\nuse super::super::room::Thing;\n"),
    ];
    for (p, t) in files {
        std::fs::write(dir.join(p), t).expect("write");
    }
    let c = read_crate("planted", &dir.join("src"));
    let levels = sibling_edges(&c);
    let room = levels.get(&vec!["room".to_string()]).expect("edges inside room");
    assert_eq!(cycles(room), vec![vec!["x".to_string(), "y".to_string()]]);
    let root = levels.get(&Vec::new()).expect("edges at the root");
    assert!(cycles(root).is_empty(), "{root:?}");
    assert!(root.contains_key(&("a".to_string(), "room".to_string())));
    assert!(!root.keys().any(|(a, _)| a == "b"), "a commented-out import was read: {root:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
