//! The verifier with the reader's facts ([`verify_read`]) against the full
//! verifier ([`verify_decoded`]): the same verdict, error included, on every
//! fixture and on the hostile inputs (mutants that broke dxjit once; skipped
//! when `../shared/hostile` is absent).

use super::*;

fn dxil_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            dxil_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxil") {
            out.push(p);
        }
    }
}

/// The containers of the fixtures, the hostile inputs and, when present, the corpus.
fn every_module_file() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    dxil_files(&root.join("../fixtures"), &mut files);
    dxil_files(&root.join("../../shared/hostile"), &mut files);
    let corpus = std::env::var_os("DXJIT_CORPUS").map_or_else(|| root.join("../../shared/corpus"), Into::into);
    dxil_files(&corpus, &mut files);
    files
}

/// Both verdicts of one container, `None` where it does not get as far as the verifier.
fn verdicts(bytes: &[u8]) -> Option<(Result<()>, Result<()>, crate::bitcode::ReadFacts)> {
    let c = crate::container::Container::parse(bytes).ok()?;
    let (m, facts) = crate::bitcode::read_module_with_facts(c.dxil_program().ok()?.bitcode).ok()?;
    let info = crate::dxil::decode(&m).ok()?;
    Some((verify_read(&m, &info, &facts).map(drop), verify_decoded(&m, &info), facts))
}

#[test]
fn the_readers_facts_give_the_full_verdict_on_every_fixture() {
    let mut files = Vec::new();
    dxil_files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"), &mut files);
    assert!(files.len() > 50, "{} fixtures", files.len());
    let mut checked = 0;
    for p in &files {
        let Some((read, full, facts)) = verdicts(&std::fs::read(p).unwrap()) else { continue };
        assert_eq!(read, full, "{}", p.display());
        assert!(full.is_ok(), "{}: {full:?}", p.display());
        // DXC orders blocks so that every definition comes before its uses outside PHIs.
        assert!(facts.forward_refs.is_empty(), "{}: {:?}", p.display(), facts.forward_refs);
        // ... and types the operands of the instructions the reader looks at as LLVM's rules want.
        assert!(facts.untyped_operands.is_empty(), "{}: {:?}", p.display(), facts.untyped_operands);
        checked += 1;
    }
    assert!(checked > 50, "{checked} fixtures verified");
}

#[test]
fn the_readers_facts_give_the_full_verdict_on_hostile_inputs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/hostile");
    let mut files = Vec::new();
    dxil_files(&dir, &mut files);
    if files.is_empty() {
        eprintln!("SKIPPED the_readers_facts_give_the_full_verdict_on_hostile_inputs: no {}", dir.display());
        return;
    }
    let (mut rejected, mut with_forward_refs) = (0, 0);
    for p in &files {
        let Some((read, full, facts)) = verdicts(&std::fs::read(p).unwrap()) else { continue };
        assert_eq!(read, full, "{}", p.display());
        rejected += usize::from(full.is_err());
        with_forward_refs += usize::from(!facts.forward_refs.is_empty());
    }
    eprintln!(
        "hostile inputs: {} files, {rejected} rejected by the verifier, {with_forward_refs} with forward references",
        files.len()
    );
    // Some hostile inputs use a value before its definition (ssa.dominance / ssa.self-reference):
    // the reader lists their functions, so the verifier checks those operand by operand.
    assert!(with_forward_refs > 0);
}

/// [`crate::bitcode::ReadFacts::shaped_consts`] spans every aggregate, data array, GEP, cast and
/// binary expression among the constants (the only ones the verifier's constant rules look at in a
/// module as read), and is `None` only where there are none; [`crate::bitcode::ReadFacts::odd_int_consts`]
/// runs from the first to the last integer `undef` or expression: over the fixtures, the hostile
/// inputs and, when present, the corpus.
#[test]
fn shaped_constants_lie_in_the_range_the_reader_gives() {
    use crate::ir::{ConstExpr, ConstKind};
    let (root, files) = (std::path::Path::new(env!("CARGO_MANIFEST_DIR")), every_module_file());
    let (mut modules, mut with_shaped, mut with_odd) = (0, 0, 0);
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let Ok(c) = crate::container::Container::parse(&bytes) else { continue };
        let Ok(part) = c.dxil_program() else { continue };
        let Ok((m, facts)) = crate::bitcode::read_module_with_facts(part.bitcode) else { continue };
        let shaped: Vec<u32> = (0..m.consts.len() as u32)
            .filter(|&k| {
                matches!(
                    m.consts[k as usize].kind,
                    ConstKind::Aggregate(_)
                        | ConstKind::Data(_)
                        | ConstKind::Expr(ConstExpr::Gep { .. } | ConstExpr::Cast { .. } | ConstExpr::Binary { .. })
                )
            })
            .collect();
        // (DXC's modules type every operand as LLVM's rules want; only hostile inputs may not.)
        if !p.starts_with(root.join("../../shared/hostile")) {
            assert!(facts.untyped_operands.is_empty(), "{}: {:?}", p.display(), facts.untyped_operands);
        }
        match (facts.shaped_consts, shaped.first(), shaped.last()) {
            (None, None, None) => {}
            (Some((lo, hi)), Some(&first), Some(&last)) => {
                assert!(lo <= first && last <= hi, "{}: {first}..={last} outside {lo}..={hi}", p.display());
                with_shaped += 1;
            }
            (r, ..) => panic!("{}: range {r:?}, shaped constants {shaped:?}", p.display()),
        }
        // Likewise [`crate::bitcode::ReadFacts::odd_int_consts`]: every `undef` and expression
        // of an integer type.
        let odd: Vec<u32> = (0..m.consts.len() as u32)
            .filter(|&k| {
                let c = &m.consts[k as usize];
                matches!(c.kind, ConstKind::Undef | ConstKind::Expr(_))
                    && matches!(m.types.get(c.ty), crate::ir::Type::Int(_))
            })
            .collect();
        match (facts.odd_int_consts, odd.first(), odd.last()) {
            (None, None, None) => {}
            (Some((lo, hi)), Some(&first), Some(&last)) => {
                assert!(lo == first && last == hi, "{}: {first}..={last}, read as {lo}..={hi}", p.display());
                with_odd += 1;
            }
            (r, ..) => panic!("{}: range {r:?}, integer undef and expression constants {odd:?}", p.display()),
        }
        modules += 1;
    }
    eprintln!(
        "{modules} modules read, {with_shaped} with aggregate, data or GEP constants, {with_odd} with integer \
         undef or expression constants"
    );
    assert!(modules > 50 && with_shaped > 0, "{modules} modules, {with_shaped} with shaped constants");
    assert!(with_odd > 0, "no module with an integer undef");
}

/// The fixtures the tests below mutate: a vertex shader and compute shaders of loops, early
/// returns, bit operations, 64-bit and float arithmetic.
const MUTATED: [&str; 6] = [
    "compute/bitops.cs_6_0.dxil",
    "compute/cf_early_return.cs_6_0.dxil",
    "graphics/fullscreen.vs_6_0.dxil",
    "compute/cf_loop_multi_exit.cs_6_0.dxil",
    "compute/float_minmax_nan.cs_6_0.dxil",
    "compute/int64_double.cs_6_0.dxil",
];

/// Fixture `name` (under `backend/../fixtures`) as read, with the reader's facts and the index of
/// its first defined function.
fn fixture_as_read(name: &str) -> (crate::ir::Module, crate::bitcode::ReadFacts, usize) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let Ok(bytes) = std::fs::read(root.join(name)) else { panic!("fixture {name}") };
    let c = crate::container::Container::parse(&bytes).unwrap();
    let (m, facts) = crate::bitcode::read_module_with_facts(c.dxil_program().unwrap().bitcode).unwrap();
    let Some(fi) = m.functions.iter().position(|f| !f.is_declaration) else { panic!("{name}: no body") };
    (m, facts, fi)
}

/// [`crate::bitcode::FunctionFacts::untyped_operands`]: in fixtures of every stage, each
/// operand of a binary operation, comparison, `select`, `ret` and conditional branch replaced by
/// a value of another type (an earlier instruction's result or a constant), and each `ret void`
/// given a value, then written and read back: the verdict with the reader's facts is the full
/// verifier's. Where the full verifier names `type.operand`, the reader noted the function
/// (or a forward reference); the fixtures as they are note nothing.
#[test]
fn operands_of_other_types_as_read_get_the_full_verdict() {
    use crate::ir::{InstKind, Value};
    let (mut tried, mut noted) = (0, 0);
    for name in MUTATED {
        let (m, facts, fi) = fixture_as_read(name);
        assert!(facts.untyped_operands.is_empty(), "{name}: {:?}", facts.untyped_operands);
        let f = &m.functions[fi];
        // One value of each type: earlier results and the module's constants.
        let mut by_type: Vec<(crate::ir::TypeId, Value)> = Vec::new();
        let candidates = (0..f.insts.len() as u32)
            .map(|i| (f.insts[i as usize].ty, Value::Inst(crate::ir::InstId(i))))
            .chain(m.consts.iter().enumerate().map(|(k, c)| (c.ty, Value::Const(crate::ir::ConstId(k as u32)))));
        for (t, v) in candidates {
            if !matches!(m.types.get(t), crate::ir::Type::Void) && !by_type.iter().any(|e| e.0 == t) {
                by_type.push((t, v));
            }
        }
        for (i, inst) in f.insts.iter().enumerate() {
            let slots = match &inst.kind {
                InstKind::Binary { .. } | InstKind::Cmp { .. } => 2,
                InstKind::Select { .. } => 3,
                InstKind::Ret { .. } | InstKind::CondBr { .. } => 1,
                _ => continue,
            };
            for slot in 0..slots {
                for &(t, v) in &by_type {
                    // Only values defined before the instruction (no forward reference).
                    if matches!(v, Value::Inst(d) if d.index() >= i) {
                        continue;
                    }
                    let mut e = m.clone();
                    let kind = &mut e.functions[fi].insts[i].kind;
                    let operand = match (kind, slot) {
                        (InstKind::Binary { lhs: o, .. } | InstKind::Cmp { lhs: o, .. }, 0) => o,
                        (InstKind::Binary { rhs: o, .. } | InstKind::Cmp { rhs: o, .. }, _) => o,
                        (InstKind::Select { cond: o, .. }, 0) => o,
                        (InstKind::Select { if_true: o, .. }, 1) => o,
                        (InstKind::Select { if_false: o, .. }, _) => o,
                        (InstKind::CondBr { cond: o, .. }, _) => o,
                        (InstKind::Ret { value }, _) => {
                            *value = Some(v);
                            value.as_mut().unwrap()
                        }
                        _ => unreachable!(),
                    };
                    if m.value_type(f, *operand) == t {
                        continue;
                    }
                    *operand = v;
                    let Ok(bytes) = crate::asm::container_of(&e, &Default::default()) else { continue };
                    let Some((read, full, facts)) = verdicts(&bytes) else { continue };
                    assert_eq!(read, full, "{name}: %{i} operand {slot} as a value of {}", m.types.display(t));
                    if full.as_ref().is_err_and(|e| e.rule == "type.operand") {
                        assert!(
                            !facts.untyped_operands.is_empty() || !facts.forward_refs.is_empty(),
                            "{name}: %{i} operand {slot}: {full:?} but the reader noted nothing"
                        );
                        noted += 1;
                    }
                    tried += 1;
                }
            }
        }
    }
    eprintln!("{tried} operands of other types written and read back, {noted} with a type.operand verdict");
    assert!(tried > 100 && noted > 50, "{tried} tried, {noted} noted");
}

/// A `dx.op` call's operands that must be integer constants, as read: in the [`MUTATED`]
/// fixtures, each constant operand of each call replaced by every constant of its type (integers,
/// nulls), by an `undef` and by an expression of that type, then written and read back. The
/// verdict with the reader's facts is the full verifier's (whose integer-constant rule reads the
/// constant's kind); an `undef` or an expression where the op wants an integer is rejected.
#[test]
fn constant_operands_of_other_kinds_as_read_get_the_full_verdict() {
    use crate::ir::{BinOp, Const, ConstExpr, ConstId, ConstKind, InstKind, Type, Value};
    let (mut tried, mut rejected) = (0, 0);
    for name in MUTATED {
        let (m, facts, fi) = fixture_as_read(name);
        assert!(facts.untyped_calls.is_empty(), "{name}: {:?}", facts.untyped_calls);
        let f = &m.functions[fi];
        for (i, inst) in f.insts.iter().enumerate() {
            let InstKind::DxOp { op, args, .. } = inst.kind else { continue };
            for (k, a) in f.values(args).iter().enumerate() {
                let Value::Const(orig) = *a else { continue };
                let t = m.konst(orig).ty;
                let Type::Int(_) = m.types.get(t) else { continue };
                // The replacements: the module's other constants of the type, an `undef`, and the
                // expression `add` of the operand to itself.
                let same: Vec<ConstId> =
                    (0..m.consts.len() as u32).map(ConstId).filter(|&j| m.konst(j).ty == t && j != orig).collect();
                let mut kinds: Vec<Option<ConstKind>> = same.iter().map(|_| None).collect();
                kinds.push(Some(ConstKind::Undef));
                kinds.push(Some(ConstKind::Expr(ConstExpr::Binary {
                    op: BinOp::Add,
                    lhs: Value::Const(orig),
                    rhs: Value::Const(orig),
                    flags: 0,
                })));
                for (n, kind) in kinds.into_iter().enumerate() {
                    let mut e = m.clone();
                    let with = match kind {
                        None => same[n],
                        Some(kind) => {
                            e.consts.push(Const { ty: t, kind });
                            ConstId(e.consts.len() as u32 - 1)
                        }
                    };
                    e.functions[fi].value_pool[args.start as usize + k] = Value::Const(with);
                    let Ok(bytes) = crate::asm::container_of(&e, &Default::default()) else { continue };
                    let Some((read, full, facts)) = verdicts(&bytes) else { continue };
                    assert_eq!(read, full, "{name}: %{i} ({op:?}) operand {k} as constant {}", with.0);
                    assert!(facts.untyped_calls.is_empty());
                    let odd = matches!(e.konst(with).kind, ConstKind::Undef | ConstKind::Expr(_));
                    if odd && full.as_ref().is_err_and(|e| e.rule.starts_with("dxop")) {
                        rejected += 1;
                    }
                    tried += 1;
                }
            }
        }
    }
    eprintln!(
        "{tried} constant operands of dx.op calls replaced, written and read back; \
         {rejected} undef or expression operands rejected"
    );
    assert!(tried > 100 && rejected > 20, "{tried} tried, {rejected} rejected");
}

/// The limit rules' compact pass ([`limits::fits`]) vouches for a module exactly when the
/// rules one by one ([`limits::rule_by_rule`]) find nothing broken (but for a library with
/// groupshared memory, which it leaves to them): over the fixtures, the hostile inputs and the
/// corpus as they are, and over 40 mutants of each one's metadata — thread counts, stage
/// records, signature elements (ids, sizes, places, streams, system values, semantic indices),
/// entry kinds and functions, resource ranges.
#[test]
fn the_compact_limit_verdict_is_the_rules_verdict() {
    use crate::dxil::{DsState, GsState, MsState};
    use crate::SemanticKind as S;
    let files = every_module_file();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n.max(1)
    };
    let kinds =
        [S::Arbitrary, S::Position, S::Target, S::Depth, S::Coverage, S::VertexID, S::TessFactor, S::PrimitiveID];
    let (mut modules, mut vouched, mut refused) = (0, 0, 0);
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let Ok(c) = crate::container::Container::parse(&bytes) else { continue };
        let Ok(part) = c.dxil_program() else { continue };
        let Ok(m) = crate::bitcode::read_module(part.bitcode) else { continue };
        let Ok(info) = crate::dxil::decode(&m) else { continue };
        let allocas = limits::allocas(&m);
        modules += 1;
        let lenient =
            info.shader_model.kind == crate::ShaderKind::Library && m.globals.iter().any(|g| g.addr_space == 3);
        for round in 0..41 {
            let mut info = info.clone();
            if round > 0 && !info.entry_points.is_empty() {
                let k = next(info.entry_points.len() as u64) as usize;
                let n_eps = info.entry_points.len();
                let ep = &mut info.entry_points[k];
                let small = |x: u64| {
                    [0, 1, 2, 8, 32, 33, 64, 65, 128, 129, 256, 257, 1024, 1025, 16384, 16385][x as usize % 16]
                };
                match next(12) {
                    0 => ep.properties.num_threads = Some([small(next(16)), small(next(16)), small(next(16))]),
                    1 => {
                        ep.properties.gs = Some(GsState {
                            max_vertex_count: small(next(16)),
                            instance_count: small(next(16)),
                            ..ep.properties.gs.clone().unwrap_or(GsState {
                                input_primitive: crate::dxil::InputPrimitive::Point,
                                max_vertex_count: 1,
                                active_stream_mask: 1,
                                stream_primitive_topology: crate::dxil::PrimitiveTopology::PointList,
                                instance_count: 1,
                            })
                        })
                    }
                    2 => {
                        if let Some(hs) = &mut ep.properties.hs {
                            hs.input_control_points = small(next(16));
                            hs.max_tess_factor = [0.0, 1.0, 64.0, 64.5, f32::NAN, -1.0][next(6) as usize];
                        } else if let Some(ds) = &mut ep.properties.ds {
                            ds.input_control_points = small(next(16));
                        } else {
                            ep.properties.ds = Some(DsState {
                                domain: crate::dxil::TessDomain::Tri,
                                input_control_points: small(next(16)),
                            });
                        }
                    }
                    3 => {
                        let ms = ep.properties.ms.get_or_insert(MsState {
                            num_threads: [1, 1, 1],
                            max_vertex_count: 1,
                            max_primitive_count: 1,
                            output_topology: crate::dxil::MeshOutputTopology::Triangle,
                            payload_size_in_bytes: 0,
                        });
                        ms.max_vertex_count = small(next(16));
                        ms.payload_size_in_bytes = small(next(16));
                        ms.num_threads[0] = small(next(16));
                    }
                    4 => {
                        ep.properties.shader_kind =
                            Some(crate::ShaderKind::from_u32(next(16) as u32).unwrap_or(crate::ShaderKind::Pixel))
                    }
                    5 => {
                        if n_eps > 1 {
                            let f = info.entry_points[(k + 1) % n_eps].function;
                            info.entry_points[k].function = f;
                        }
                    }
                    6 => {
                        let res = info.entry_points[k].resources.as_mut().unwrap_or(&mut info.resources);
                        if let Some(b) = res
                            .srvs
                            .first_mut()
                            .map(|r| &mut r.binding)
                            .or(res.cbvs.first_mut().map(|r| &mut r.binding))
                        {
                            b.range_size = [None, Some(0), Some(1), Some(2)][next(4) as usize];
                        }
                        if let Some(u) = res.uavs.first_mut() {
                            if next(3) == 0 {
                                u.kind = crate::ResourceKind::TextureCube;
                            }
                        }
                    }
                    _ => {
                        let sig = match next(3) {
                            0 => &mut ep.inputs,
                            1 => &mut ep.outputs,
                            _ => &mut ep.patch_constants,
                        };
                        if sig.is_empty() {
                            continue;
                        }
                        let j = next(sig.len() as u64) as usize;
                        let e = &mut sig[j];
                        match next(9) {
                            0 => e.id = next(4) as u32,
                            1 => e.rows = next(34) as u32,
                            2 => e.cols = next(6) as u8,
                            3 => e.start_row = next(34) as i32 - 1,
                            4 => e.start_col = next(6) as i8 - 1,
                            5 => e.output_stream = Some(next(5) as u32),
                            6 => e.semantic_kind = kinds[next(kinds.len() as u64) as usize],
                            7 => e.semantic_indices = (0..next(3)).map(|_| next(10) as u32).collect(),
                            _ => {
                                let copy = sig[j].clone();
                                sig.push(copy);
                            }
                        }
                    }
                }
            }
            let rules = limits::rule_by_rule(&m, &info, &allocas);
            let fits = limits::fits(&m, &info, &allocas);
            if fits {
                assert_eq!(rules, Ok(()), "{} round {round}: vouched for", p.display());
                vouched += 1;
            } else {
                assert!(rules.is_err() || lenient, "{} round {round}: refused, the rules find nothing", p.display());
                refused += 1;
            }
        }
    }
    eprintln!("{modules} modules: {vouched} vouched, {refused} refused");
    assert!(
        modules > 100 && vouched > 1_000 && refused > 1_000,
        "{modules} modules: {vouched} vouched, {refused} refused"
    );
}
