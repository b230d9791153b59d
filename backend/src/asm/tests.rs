//! Malformed text: each error names the line, the rule and what is wrong.

use super::parse_module;

const HEAD: &str = "target triple = \"dxil-ms-dx\"\n";

/// Parses `body` after a one-line header; the error's (line, rule, message).
fn err(body: &str) -> (u32, &'static str, String) {
    let text = format!("{HEAD}{body}");
    match parse_module(&text) {
        Ok(_) => panic!("parsed:\n{text}"),
        Err(e) => (e.line, e.rule, e.message),
    }
}

fn check(body: &str, line: u32, rule: &str, msg: &str) {
    let (l, r, m) = err(body);
    assert_eq!((l, r), (line, rule), "{body}\n-> {m}");
    assert!(m.contains(msg), "{body}\n-> {m} (wanted {msg:?})");
}

#[test]
fn malformed_text_errors_name_line_and_rule() {
    check(
        "define void @f() {\nbb0:\n  %0 = add i32 1, %x\n  ret void\n}\n",
        4,
        "instruction",
        "%x is not defined in @f",
    );
    check("define void @f() {\nbb0:\n  %0 = fadd i32 1, 2\n  ret void\n}\n", 4, "instruction", "fadd of i32");
    check("define void @f() {\nbb0:\n  %0 = add i32 1, 2\n}\n", 5, "instruction", "does not end with a terminator");
    check("define void @f() {\nbb0:\n  ret void\n  ret void\n}\n", 5, "instruction", "after a terminator");
    check("define void @f() {\nbb0:\n  br label %bb9\n}\n", 4, "instruction", "block %bb9 is not defined");
    check(
        "define void @f() {\nbb0:\n  %0 = add i32 1, 2\n  %0 = add i32 1, 2\n  ret void\n}\n",
        5,
        "instruction",
        "%0 is defined twice",
    );
    check(
        "define void @f() {\nbb0:\n  %0 = frobnicate i32 1\n  ret void\n}\n",
        4,
        "instruction",
        "unknown instruction",
    );
    check("define void @f() {\nbb0:\n  ret i32 1\n}\n", 4, "instruction", "ret i32 in a function returning void");
    check(
        "define void @f() {\nbb0:\n  %0 = add i8 300, 1\n  ret void\n}\n",
        4,
        "instruction",
        "300 does not fit in i8",
    );
    check(
        "define void @f() {\nbb0:\n  %0 = fadd float 0.1, 1.0\n  ret void\n}\n",
        4,
        "instruction",
        "not exactly a float",
    );
    check(
        "define void @f() {\nbb0:\n  call void @g()\n  ret void\n}\n",
        4,
        "instruction",
        "@g is not a declared function",
    );
    check(
        "define void @f() {\nbb0:\n  %0 = call i32 @dx.op.threadId.i32(i32 999, i32 0)\n  ret void\n}\ndeclare i32 @dx.op.threadId.i32(i32, i32)\n",
        4,
        "instruction",
        "unknown DXIL opcode 999",
    );
    check(
        "define void @f() {\nbb0:\n  %0 = call i32 @dx.op.threadId.i32(i32 94, i32 0)\n  ret void\n}\ndeclare i32 @dx.op.threadId.i32(i32, i32)\n",
        4,
        "instruction",
        "called through @dx.op.threadId.i32, which is of class threadId",
    );
    check("@g = global i65 0\n", 2, "type", "i65");
    check("@g = global %T zeroinitializer\n", 2, "type", "%T is never defined");
    check("@g = global [2 x i32] [i32 1]\n", 2, "constant", "1 elements for [2 x i32]");
    check("%T = type { i32 }\n%T = type { i32 }\n", 3, "type definition", "defined twice");
    check("!0 = !{!7}\n", 2, "metadata", "metadata !7 is not defined");
    check("!0 = !{}\n!0 = !{}\n", 3, "metadata", "defined twice");
    check("!named = !{!3}\n", 2, "metadata", "!3 is not defined");
    check("declare void @f() #4\n", 2, "function header", "attribute group #4 is not defined");
    check("declare void @f(i32 %x)\n", 2, "function header", "a declaration's parameters have no names");
    check("declare void @dx.op.nope.f32(i32)\n", 2, "function header", "unknown DXIL intrinsic");
    check("@g = global i32 0, align 3\n", 2, "global", "not a power of two");
    check("bogus\n@g = global i32 0\n", 2, "target", "unexpected `bogus` here");
    check(
        "define void @f() {\n  ret void\n}\nbogus\n",
        5,
        "function body",
        "expected `}` at the end of the function body",
    );
    check("@g = global i32 \"unterminated\n", 2, "token", "string runs past the end of the line");
    check("/* never closed\n", 2, "token", "unterminated /* comment");
    check("@g = global i32 0 ` \n", 2, "token", "unexpected character");
}

#[test]
fn text_not_starting_with_an_item() {
    let e = parse_module("bogus\n").unwrap_err();
    assert_eq!((e.line, e.rule), (1, "module"));
    assert!(e.message.contains("expected a top-level item"), "{e}");
}

#[test]
fn hand_written_module_reads() {
    // Names, forward references, a loop with a phi, a switch, a dx.op call
    // without its comment, attachments and inline metadata.
    let text = r#"
target triple = "dxil-ms-dx"
%dx.types.Handle = type { i8* }
define void @main(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %next = add nsw i32 %i, 1
  %done = icmp sge i32 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !1
exit:
  %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  switch i32 %t, label %bb9 [ i32 1, label %exit2 ]
exit2:
  ret void
bb9:
  ret void
}
declare i32 @dx.op.threadId.i32(i32, i32) #1
attributes #1 = { nounwind readnone }
!0 = !{!"loop", i32 4}
!1 = distinct !{!1}
"#;
    let m = parse_module(text).unwrap();
    let f = &m.functions[0];
    assert_eq!(f.blocks.len(), 5);
    assert!(matches!(f.insts[0].kind, crate::ir::InstKind::Br { .. }));
    assert!(f.dx_op(crate::ir::InstId(5)).is_some());
    assert_eq!(f.attachments.len(), 1);
    assert_eq!(m.md_kind_name(f.attachments[0].kind), Some("llvm.loop"));
    // The inline string and i32 got metadata entries of their own.
    assert_eq!(m.metadata.len(), 4);
    let named: Vec<&str> = f.names.iter().map(|n| n.1.as_str()).collect();
    for n in ["n", "entry", "loop", "i", "next", "done", "exit", "t", "exit2"] {
        assert!(named.contains(&n), "{n}: {named:?}");
    }
    assert!(!named.contains(&"bb9"));
    // It writes and reads back equal.
    let bc = crate::bitcode::write_module(&m).unwrap();
    let back = crate::bitcode::read_module(&bc).unwrap();
    assert!(crate::ir::diff::diff_modules(&m, &back, 5).is_empty());
}

/// The oracle of the round-trip tests sees changes: each edit of a module's
/// text gives a module `ir::diff` tells apart from the original.
#[test]
fn diff_sees_every_kind_of_change() {
    let base = r#"target triple = "dxil-ms-dx"
%S = type { i32, float }
@g = addrspace(3) global [4 x float] undef, align 4
define void @main(i32 %n) #1 {
entry:
  %0 = fmul fast float 1.5, 2.0
  %1 = getelementptr inbounds [4 x float], [4 x float] addrspace(3)* @g, i32 0, i32 1
  store float %0, float addrspace(3)* %1, align 4
  %2 = icmp eq i32 %n, 3
  br i1 %2, label %a, label %b, !dx.x !0
a:
  ret void
b:
  ret void
}
attributes #1 = { nounwind }
!0 = !{!"s", i32 1, null}
!n = !{!0}
"#;
    let m = parse_module(base).unwrap();
    assert!(crate::ir::diff::diff_modules(&m, &parse_module(base).unwrap(), 5).is_empty());
    for (from, to) in [
        ("fmul fast", "fmul nnan"),
        ("1.5", "2.5"),
        ("{ i32, float }", "{ i32, i32 }"),
        ("align 4\ndefine", "align 8\ndefine"),
        ("addrspace(3) global", "addrspace(3) constant"),
        ("i32 0, i32 1", "i32 0, i32 2"),
        ("icmp eq", "icmp ne"),
        ("label %a, label %b", "label %b, label %a"),
        ("!dx.x", "!dx.y"),
        ("#1 {", "{"),
        ("{ nounwind }", "{ nounwind readnone }"),
        ("!\"s\"", "!\"t\""),
        ("null}", "i32 2}"),
        ("!n = !{!0}", "!m = !{!0}"),
        ("%n) #1", "%m) #1"),
        ("entry:", "start:"),
    ] {
        let edited = base.replacen(from, to, 1);
        assert_ne!(edited, base, "{from}");
        let edited = edited.replace("%n,", if to == "%m) #1" { "%m," } else { "%n," });
        let m2 = parse_module(&edited).unwrap_or_else(|e| panic!("{from} -> {to}: {e}"));
        assert!(!crate::ir::diff::diff_modules(&m, &m2, 5).is_empty(), "{from} -> {to} not seen");
    }
}
