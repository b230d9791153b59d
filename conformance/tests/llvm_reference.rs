//! Reads every corpus module with LLVM 14 (the reference side of the
//! differential test of our bitcode reader) and checks the renderings are
//! plausible against the manifests. `--nocapture` also prints one module's
//! rendering as JSON and the timing.

mod llvm_ref;

use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::refmodel::{render_inst, RConst, RMd, RModule, ROperand};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    b.get(off..off + 4).map(|s| u32::from_le_bytes(s.try_into().unwrap()))
}

/// The LLVM bitcode inside a DXBC container's `DXIL` part (test-local helper,
/// deliberately independent of the crate's own container parser).
fn bitcode_of(container: &[u8]) -> Result<&[u8], String> {
    if container.get(0..4) != Some(b"DXBC") {
        return Err("not a DXBC container".into());
    }
    let parts = u32_at(container, 28).ok_or("short header")? as usize;
    for p in 0..parts {
        let off = u32_at(container, 32 + 4 * p).ok_or("short part table")? as usize;
        if container.get(off..off + 4) != Some(b"DXIL") {
            continue;
        }
        let size = u32_at(container, off + 4).ok_or("short part")? as usize;
        let payload = container.get(off + 8..off + 8 + size).ok_or("part past end")?;
        // u32 program version, u32 size in dwords, then the bitcode header.
        if payload.get(8..12) != Some(b"DXIL") {
            return Err("DXIL part without DXIL magic".into());
        }
        let bc_off = u32_at(payload, 16).ok_or("short DXIL header")? as usize;
        let bc_size = u32_at(payload, 20).ok_or("short DXIL header")? as usize;
        return payload.get(8 + bc_off..8 + bc_off + bc_size).ok_or_else(|| "bitcode past part end".into());
    }
    Err("no DXIL part".into())
}

fn stage_tag(stage: &str) -> &str {
    match stage {
        "pixel" => "ps",
        "vertex" => "vs",
        "geometry" => "gs",
        "hull" => "hs",
        "domain" => "ds",
        "compute" => "cs",
        "library" => "lib",
        "mesh" => "ms",
        "amplification" => "as",
        other => other,
    }
}

fn md_int(v: u64) -> Option<RMd> {
    Some(RMd::Value(Box::new(ROperand::Const(RConst::Int { bits: 32, value: v }))))
}

/// Manifest fields the corpus `Entry` type does not carry, by `dxil_path`.
fn manifest_extras(root: &std::path::Path) -> HashMap<String, (u64, u64)> {
    let text = std::fs::read_to_string(root.join("manifest.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = HashMap::new();
    for e in v["entries"].as_array().unwrap() {
        let path = e["dxil_path"].as_str().unwrap().to_string();
        let insts = e["llvm_instruction_count"].as_u64().unwrap_or(0);
        let bc_size = e["bitcode_size"].as_u64().unwrap_or(0);
        out.insert(path, (insts, bc_size));
    }
    out
}

/// Records which opcodes, flags, attachment kinds, constant kinds and
/// `Other` metadata a module uses (once per module).
fn tally(m: &RModule, seen: &mut BTreeMap<String, usize>) {
    fn konst(c: &RConst, out: &mut BTreeSet<String>) {
        match c {
            RConst::Int { .. } => out.insert("const Int".into()),
            RConst::Float { ty, .. } => out.insert(format!("const Float {ty}")),
            RConst::Null(_) => out.insert("const Null".into()),
            RConst::Undef(_) => out.insert("const Undef".into()),
            RConst::AggregateZero(_) => out.insert("const AggregateZero".into()),
            RConst::Global(_) => out.insert("const Global".into()),
            RConst::Function(_) => out.insert("const Function".into()),
            RConst::Aggregate { elems, .. } => {
                elems.iter().for_each(|e| konst(e, out));
                out.insert("const Aggregate".into())
            }
            RConst::Expr { opcode, operands, extra, .. } => {
                operands.iter().for_each(|e| konst(e, out));
                out.insert(format!("const Expr {opcode} {}", extra.join(" ")))
            }
        };
    }
    fn md(m: &RMd, out: &mut BTreeSet<String>) {
        match m {
            RMd::Node(ops) => ops.iter().flatten().for_each(|o| md(o, out)),
            RMd::Other(d) => {
                out.insert(format!("md Other({d})"));
            }
            RMd::Value(v) => {
                if let ROperand::Const(c) = &**v {
                    konst(c, out)
                }
            }
            RMd::String(_) => {}
        }
    }
    let mut s = BTreeSet::new();
    for g in &m.globals {
        s.insert(format!("global addrspace({}) const={} init={}", g.addr_space, g.is_const, g.init.is_some()));
        if let Some(c) = &g.init {
            konst(c, &mut s);
        }
    }
    for i in m.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts) {
        s.insert(format!("inst {}", i.opcode));
        for x in &i.extra {
            let key = if x.starts_with("align=") || x.starts_with("idx=") { x.split('=').next().unwrap() } else { x };
            s.insert(format!("extra {} {key}", i.opcode));
        }
        for (k, v) in &i.md {
            s.insert(format!("attachment !{k}"));
            md(v, &mut s);
        }
        for o in &i.operands {
            match o {
                ROperand::Const(c) => konst(c, &mut s),
                ROperand::Metadata(v) => md(v, &mut s),
                ROperand::Global(_) => {
                    s.insert("operand Global".into());
                }
                _ => {}
            }
        }
    }
    for n in &m.named_metadata {
        n.ops.iter().for_each(|o| md(o, &mut s));
    }
    for k in s {
        *seen.entry(k).or_default() += 1;
    }
}

#[test]
fn llvm_reference_reads_corpus() {
    let Some(corpus) = Corpus::for_test("llvm_reference_reads_corpus") else {
        return;
    };
    let start = Instant::now();
    let mut read_time = std::time::Duration::ZERO;
    let mut failures: Vec<String> = Vec::new();
    let mut modules = 0usize;
    let (mut total_insts, mut total_manifest_insts) = (0usize, 0u64);
    let mut exact_counts = 0usize;
    let mut warnings = 0usize;
    let mut sample: Option<(String, RModule)> = None;
    // What the corpus exercises, for whoever writes the other side.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();

    for set in &corpus.sets {
        let extras = manifest_extras(&set.root);
        for e in &set.entries {
            let id = format!("{}/{}", set.name, e.dxil_path);
            let bytes = std::fs::read(set.path_of(e)).unwrap_or_else(|err| panic!("{id}: {err}"));
            let bc = match bitcode_of(&bytes) {
                Ok(b) => b,
                Err(err) => {
                    failures.push(format!("{id}: {err}"));
                    continue;
                }
            };
            let (manifest_insts, bc_size) = extras.get(&e.dxil_path).copied().unwrap_or((0, 0));
            if bc_size != 0 && bc.len() as u64 != bc_size {
                failures.push(format!("{id}: bitcode is {} bytes, manifest says {bc_size}", bc.len()));
            }
            let t = Instant::now();
            let r = llvm_ref::read_reference_diag(bc);
            read_time += t.elapsed();
            let (m, warns) = match r {
                Ok(x) => x,
                Err(err) => {
                    failures.push(format!("{id}: {err}"));
                    continue;
                }
            };
            modules += 1;
            for w in &warns {
                eprintln!("{id}: LLVM warning: {w}");
            }
            warnings += warns.len();

            // Functions: every entry point is a defined function.
            let defined: Vec<&str> =
                m.functions.iter().filter(|f| !f.is_declaration).map(|f| f.name.as_str()).collect();
            if defined.is_empty() {
                failures.push(format!("{id}: no defined function"));
            }
            for ep in &e.entry_points {
                // The manifest spells the mangling prefix byte 0x01 as `\01`.
                let ep = ep.replace("\\01", "\u{1}");
                if !defined.contains(&ep.as_str()) {
                    failures.push(format!("{id}: entry point {ep} is not a defined function ({defined:?})"));
                }
            }
            for f in &m.functions {
                if f.is_declaration != f.blocks.is_empty() {
                    failures.push(format!("{id}: @{} declaration/blocks disagree", f.name));
                }
            }

            // Instruction count versus the manifest's rough llvm-dis count.
            let n = m.instruction_count();
            total_insts += n;
            total_manifest_insts += manifest_insts;
            if n as u64 == manifest_insts {
                exact_counts += 1;
            } else {
                eprintln!("{id}: {n} instructions, manifest's llvm-dis count {manifest_insts}");
            }
            // llvm-dis line counting is rough (e.g. it counts a switch's closing
            // `], !dx.controlflow.hints !12` line), so allow a little slack.
            if (n as u64).abs_diff(manifest_insts) > 2.max(manifest_insts / 50) {
                failures.push(format!("{id}: {n} instructions, manifest says about {manifest_insts}"));
            }

            tally(&m, &mut seen);

            // Named metadata.
            if m.named("dx.entryPoints").is_none_or(|n| n.ops.is_empty()) {
                failures.push(format!("{id}: no !dx.entryPoints"));
            }
            let (major, minor) = e.shader_model.split_once('.').expect("shader_model like 6.0");
            let want = RMd::Node(vec![
                Some(RMd::String(stage_tag(&e.stage).to_string())),
                md_int(major.parse().unwrap()),
                md_int(minor.parse().unwrap()),
            ]);
            match m.named("dx.shaderModel") {
                Some(sm) if sm.ops == [want.clone()] => {}
                other => failures.push(format!(
                    "{id}: !dx.shaderModel is {}, expected [{}]",
                    serde_json::to_string(&other.map(|n| &n.ops)).unwrap(),
                    serde_json::to_string(&want).unwrap()
                )),
            }

            // Show a small shader with a switch, phis, flags and attachments
            // (or, in another corpus, the first compute shader with branches).
            // `DXJIT_LLVMREF_DUMP=<part of a path>` picks another module.
            let preferred = match std::env::var("DXJIT_LLVMREF_DUMP") {
                Ok(want) => id.contains(&want),
                Err(_) => e.dxil_path.ends_with("switch-merge-into-other-merge.comp.dxil"),
            };
            let fallback = sample.is_none()
                && std::env::var_os("DXJIT_LLVMREF_DUMP").is_none()
                && e.stage == "compute"
                && n < 60
                && m.functions.iter().any(|f| f.blocks.len() > 1);
            if preferred || fallback {
                sample = Some((id.clone(), m));
            }
        }
    }

    let elapsed = start.elapsed();
    if let Some((id, m)) = &sample {
        println!("=== RModule of {id} ===");
        println!("{}", serde_json::to_string_pretty(m).unwrap());
        println!("=== the same, one instruction a line ===");
        for f in m.functions.iter().filter(|f| !f.is_declaration) {
            println!("define {} @{:?}", f.ty, f.name);
            let mut k = 0;
            for (bi, b) in f.blocks.iter().enumerate() {
                println!(" block {bi}:");
                for i in &b.insts {
                    println!("  %{k} = {}", render_inst(i));
                    k += 1;
                }
            }
        }
    }
    println!(
        "llvm_reference: {modules} modules read in {:.2?} ({:.2?} inside LLVM read+render), \
         {total_insts} instructions (manifest llvm-dis count {total_manifest_insts}; \
         {exact_counts} modules exactly equal), {warnings} LLVM warnings",
        elapsed, read_time
    );
    println!("features seen (modules using each):");
    for (k, n) in &seen {
        println!("  {n:4}  {k}");
    }
    let expected: usize = corpus.sets.iter().map(|s| s.entries.len()).sum();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(modules, expected);
}

/// The renderer on hand-written IR, for what the corpus does not exercise.
#[test]
fn llvm_reference_renders_handwritten_ir() {
    let ir = r#"
%"class.Texture2D<vector<float, 4> >" = type { <4 x float>, i32 }
%opaque = type opaque
@lds = addrspace(3) global [4 x i32] undef, align 4
@tbl = internal constant [3 x float] [float 1.0, float 0x7FF4000000000000, float -0.0]
@str = private constant [3 x i8] c"hi\00"
@zero = global { i32, float } zeroinitializer
@ptr = global i32 addrspace(3)* getelementptr inbounds ([4 x i32], [4 x i32] addrspace(3)* @lds, i32 0, i32 2)
@h = global half 0xH3C00

declare void @ext(%"class.Texture2D<vector<float, 4> >"*, %opaque*, ...)

define float @f(float %a, i32 %n, <2 x float> %v) {
entry:
  %x = fadd nnan ninf float %a, 1.0
  %y = fmul fast float %x, %a
  %c = fcmp nsz olt float %y, 0.0
  %s = shl nuw i32 %n, 3
  %d = sdiv exact i32 %s, 2
  %sv = shufflevector <2 x float> %v, <2 x float> undef, <4 x i32> <i32 1, i32 undef, i32 0, i32 0>
  %p = getelementptr [4 x i32], [4 x i32] addrspace(3)* @lds, i32 0, i32 %n
  %cx = cmpxchg weak volatile i32 addrspace(3)* %p, i32 0, i32 %d syncscope("singlethread") acq_rel monotonic
  %l = load atomic i32, i32 addrspace(3)* %p seq_cst, align 4
  %ev = extractvalue { i32, i1 } %cx, 1
  br i1 %c, label %then, label %done, !prof !0

then:
  call void (%"class.Texture2D<vector<float, 4> >"*, %opaque*, ...) @ext(%"class.Texture2D<vector<float, 4> >"* null, %opaque* undef, i32 %l), !dx.precise !1
  br label %done

done:
  %r = phi float [ %y, %then ], [ %a, %entry ]
  ret float %r
}

!named = !{!1, !2, !3, !5}
!0 = !{!"branch_weights", i32 1, i32 2}
!1 = !{i32 1}
!2 = distinct !{!2, null, !"s", float 2.0, void ()* null, [4 x i32] addrspace(3)* @lds}
!3 = !{!4}
!4 = !{!1, !0}
!5 = !{!6}
!6 = !{null}
"#;
    let bc = llvm_ref::assemble(ir).expect("assemble");
    let m = llvm_ref::read_reference(&bc).expect("read");
    let int = |bits, value| RConst::Int { bits, value };

    // Globals, types and constants.
    let g = |name: &str| m.globals.iter().find(|g| g.name == name).unwrap();
    assert_eq!((g("lds").ty.as_str(), g("lds").addr_space), ("[4 x i32]", 3));
    assert_eq!(g("lds").init, Some(RConst::Undef("[4 x i32]".into())));
    assert!(g("tbl").is_const);
    assert_eq!(
        g("tbl").init,
        Some(RConst::Aggregate {
            ty: "[3 x float]".into(),
            elems: vec![
                RConst::Float { ty: "float".into(), bits: 0x3f80_0000 },
                RConst::Float { ty: "float".into(), bits: 0x7fa0_0000 }, // signalling NaN kept
                RConst::Float { ty: "float".into(), bits: 0x8000_0000 },
            ],
        })
    );
    assert_eq!(
        g("str").init,
        Some(RConst::Aggregate { ty: "[3 x i8]".into(), elems: vec![int(8, 104), int(8, 105), int(8, 0)] })
    );
    assert_eq!(g("zero").init, Some(RConst::AggregateZero("{ i32, float }".into())));
    assert_eq!(
        g("ptr").init,
        Some(RConst::Expr {
            opcode: "getelementptr".into(),
            ty: "i32 addrspace(3)*".into(),
            operands: vec![RConst::Global("lds".into()), int(32, 0), int(32, 2)],
            extra: vec!["inbounds".into()],
        })
    );
    assert_eq!(g("h").init, Some(RConst::Float { ty: "half".into(), bits: 0x3c00 }));
    let ext = m.functions.iter().find(|f| f.name == "ext").unwrap();
    assert_eq!(ext.ty, "void (%class.Texture2D<vector<float, 4> >*, %opaque*, ...)");
    assert!(ext.is_declaration && ext.blocks.is_empty());

    // Instructions.
    let f = m.functions.iter().find(|f| f.name == "f").unwrap();
    assert_eq!(f.ty, "float (float, i32, <2 x float>)");
    let insts: Vec<_> = f.blocks.iter().flat_map(|b| &b.insts).collect();
    let extra = |k: usize| insts[k].extra.join(" ");
    assert_eq!(extra(0), "ninf nnan");
    assert_eq!(
        insts[0].operands,
        [ROperand::Arg(0), ROperand::Const(RConst::Float { ty: "float".into(), bits: 0x3f80_0000 })]
    );
    assert_eq!(extra(1), "fast");
    assert_eq!(extra(2), "nsz pred=olt");
    assert_eq!(extra(3), "nuw");
    assert_eq!(extra(4), "exact");
    assert_eq!((insts[5].ty.as_str(), extra(5).as_str()), ("<4 x float>", "mask=1,-1,0,0"));
    assert_eq!(insts[5].operands.len(), 2);
    assert_eq!(extra(6), "");
    assert_eq!(insts[6].operands[0], ROperand::Global("lds".into()));
    assert_eq!(insts[7].ty, "{ i32, i1 }");
    assert_eq!(extra(7), "failure=monotonic success=acq_rel syncscope=singlethread volatile weak");
    assert_eq!(extra(8), "align=4 ordering=seq_cst");
    assert_eq!(extra(9), "idx=1");
    assert_eq!(insts[10].operands, [ROperand::Inst(2), ROperand::Block(1), ROperand::Block(2)]);
    assert_eq!(insts[10].md[0].0, "prof");
    assert_eq!(insts[11].opcode, "call");
    assert_eq!(insts[11].ty, "void");
    assert_eq!(
        insts[11].operands,
        [
            ROperand::Function("ext".into()),
            ROperand::Const(RConst::Null("%class.Texture2D<vector<float, 4> >*".into())),
            ROperand::Const(RConst::Undef("%opaque*".into())),
            ROperand::Inst(8),
        ]
    );
    assert_eq!(insts[11].md, [("dx.precise".to_string(), RMd::Node(vec![md_int(1)]))]);
    assert_eq!(insts[12].operands, [ROperand::Block(2)]);
    assert_eq!(insts[13].operands, [ROperand::Inst(1), ROperand::Block(1), ROperand::Arg(0), ROperand::Block(0)]);
    assert_eq!(insts[14].operands, [ROperand::Inst(13)]);

    // Metadata: cycles, nulls, DAG sharing, values.
    let named = m.named("named").unwrap();
    assert_eq!(named.ops[0], RMd::Node(vec![md_int(1)]));
    let RMd::Node(n2) = &named.ops[1] else { panic!("{:?}", named.ops[1]) };
    assert_eq!(n2[0], Some(RMd::Other("cycle".into())));
    assert_eq!(n2[1], None);
    assert_eq!(n2[2], Some(RMd::String("s".into())));
    assert_eq!(
        n2[3],
        Some(RMd::Value(Box::new(ROperand::Const(RConst::Float { ty: "float".into(), bits: 0x4000_0000 }))))
    );
    assert_eq!(n2[4], Some(RMd::Value(Box::new(ROperand::Const(RConst::Null("void ()*".into()))))));
    assert_eq!(n2[5], Some(RMd::Value(Box::new(ROperand::Global("lds".into())))));
    let want4 = RMd::Node(vec![
        Some(RMd::Node(vec![md_int(1)])),
        Some(RMd::Node(vec![Some(RMd::String("branch_weights".into())), md_int(1), md_int(2)])),
    ]);
    assert_eq!(named.ops[2], RMd::Node(vec![Some(want4)]));
    // `!{null}` is seen as `!{}` through the C API (refmodel rule).
    assert_eq!(named.ops[3], RMd::Node(vec![Some(RMd::Node(vec![]))]));
}
