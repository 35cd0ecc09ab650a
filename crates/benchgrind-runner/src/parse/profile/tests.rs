use super::*;

fn p(text: &str) -> Result<Profile, ParseError> {
    parse(Path::new("t.out"), text.as_bytes(), Read::Full)
}

fn totals(text: &str) -> Result<Profile, ParseError> {
    parse(Path::new("t.out"), text.as_bytes(), Read::Totals)
}

fn by_name<'a>(profile: &'a Profile, name: &str) -> &'a Function {
    profile
        .functions
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

// The shape Callgrind writes with compression: compressed names, relative lines, an inlined
// file, a call whose cost line sits between two self cost lines, a recursion level.
const TEXT: &str = "positions: line\nevents: Ir Dr\nob=(1) /bin/p\nfl=(1) a.c\n\
    fn=(1) main\n10 5 1\n+2 3\ncfn=(2) work\ncalls=1 20\n* 100 10\n+1 1\n\
    fi=(2) h.h\n7 4\nfe=(1)\n14 1\n\
    fn=(2)\n20 60 6\ncfn=(3) fib\ncalls=1 -10\n* 40 4\n\
    fl=(3) b.c\nfn=(3)\n5 10 1\ncfn=(4) fib'2\ncalls=2 5\n* 30 3\nfn=(4)\n5 30 3\n\
    totals: 115 11\n";

#[test]
fn self_inclusive_and_lines() {
    let profile = p(TEXT).unwrap();
    let main = by_name(&profile, "main");
    assert_eq!(main.self_cost, [14, 1]);
    assert_eq!(main.inclusive, [114, 11]);
    assert_eq!(main.file.as_deref(), Some("a.c"));
    assert_eq!(main.object.as_deref(), Some("/bin/p"));
    let line = |f: &Function, file: &str, l: u64| {
        let file = profile.files.iter().position(|x| x == file).unwrap();
        f.lines.get(&(file, l)).cloned()
    };
    // 10, +2 = 12, the call at * = 12 (not a self line), +1 = 13, then h.h:7 and a.c:14.
    assert_eq!(line(main, "a.c", 10), Some(vec![5, 1]));
    assert_eq!(line(main, "a.c", 12), Some(vec![3, 0]));
    assert_eq!(line(main, "a.c", 13), Some(vec![1, 0]));
    assert_eq!(line(main, "h.h", 7), Some(vec![4, 0]));
    assert_eq!(line(main, "a.c", 14), Some(vec![1, 0]));
    let fib = by_name(&profile, "fib");
    // fib'2 is merged into fib; the call between the levels is recursion.
    assert_eq!(fib.self_cost, [40, 4]);
    assert_eq!(fib.inclusive, [40, 4]);
    assert_eq!(fib.file.as_deref(), Some("b.c"));
    assert_eq!(by_name(&profile, "work").inclusive, [100, 10]);
    assert_eq!(profile.functions.len(), 3);
    assert_eq!(profile.self_sum(), [114, 11]);
    assert_eq!(profile.totals(), [115, 11]);
}

#[test]
fn the_call_graph_keeps_recursion_levels_apart() {
    let text = "positions: line\nevents: Ir Dr\nfl=(1) a.rs\nfn=(1) c::fib\n\
        7 4 1\ncfn=(2) c::fib'2\ncalls=1 -4\n* 30 5\n+2 1\nfn=(2)\n7 30 5\ncfn=(2)\n\
        calls=3 -4\n* 20 2\nfn=(3) c::bench\n18 2\ncfn=(1)\ncalls=1 -12\n* 35 6\n";
    let g = p(text).unwrap().graph;
    let names: Vec<_> = g.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["c::fib", "c::fib'2", "c::bench"]);
    assert_eq!(g.functions[0].self_cost, [5, 1]);
    assert_eq!(g.functions[1].self_cost, [30, 5]);
    assert_eq!(g.calls[&(0, 1)], [30, 5]);
    assert_eq!(g.calls[&(1, 1)], [20, 2]);
    assert_eq!(g.calls[&(2, 0)], [35, 6]);
    assert_eq!(g.totals(), [37, 6]);
}

#[test]
fn totals_alone_read_the_same_totals() {
    for text in [
        TEXT,
        "events: Ir Dr\nfn=a\n3 10 2\n+1 5\ncfn=b\ncalls=1 0\n4 100 50\nfn=b\n* 7 1\n",
    ] {
        assert_eq!(totals(text).unwrap().totals(), p(text).unwrap().totals());
    }
    // Without `totals:`, the cost lines but those of calls add up.
    let text = "events: Ir Dr\nfn=a\n3 10 2\n+1 5\ncfn=b\ncalls=1 0\n4 100 50\nfn=b\n* 7 1\n";
    assert_eq!(totals(text).unwrap().totals(), [22, 3]);
    let profile = totals(TEXT).unwrap();
    assert!(profile.functions.is_empty() && profile.graph.functions.is_empty());
    // A `totals:` line wins; short lines are zero-filled.
    let profile = totals("events: Ir Dr Dw\n1 1\ntotals: 9\n").unwrap();
    assert_eq!(profile.totals(), [9, 0, 0]);
    assert_eq!(profile.total("Dw"), Some(0));
    assert_eq!(profile.total("Bc"), None);
}

#[test]
fn uncompressed_names_parts_and_ids_never_defined() {
    // As Callgrind writes with `--compress-strings=no`, `(below main)` included, and a
    // joined profile's note of its parts.
    let text = "# callgrind format\npid: 7\ncmd:  ./prog a\n\
        # benchgrind part: pid=7 thread=1 totals=5 cmd=./prog a\n\
        # benchgrind part: pid=7 thread=2 totals=4 cmd=./prog a\n\
        positions: line\nevents: Ir\nfl=a.c\nfn=(below main)\n1 5\nfn=worker\n2 4\n\
        totals: 9\n";
    let profile = p(text).unwrap();
    assert_eq!(by_name(&profile, "(below main)").self_cost, [5]);
    assert_eq!(
        (profile.pid, profile.cmd.as_deref()),
        (Some(7), Some("./prog a"))
    );
    let parts: Vec<_> = profile
        .parts
        .iter()
        .map(|p| (p.id.thread, p.totals[0]))
        .collect();
    assert_eq!(parts, [(1, 5), (2, 4)]);
    assert_eq!(totals(text).unwrap().parts, profile.parts);
    // Older Callgrind runs wrote some forked processes' profiles with ids they never
    // defined: the function is read, named by its id.
    let profile =
        p("events: Ir\nfl=(1) a.c\nfn=(0) main\n1 2\nfi=(2)\n3 4\nfn=(5)\n1 1\n").unwrap();
    assert_eq!(by_name(&profile, "main").self_cost, [6]);
    assert!(profile.files.contains(&"(2)".to_owned()));
    assert_eq!(by_name(&profile, "(5)").self_cost, [1]);
}

#[test]
fn instruction_and_line_positions() {
    let text = "positions: instr line\nevents: Ir\nfl=a.c\nfn=f\n0x10 3 1\n+4 +1 2\n* -1 4\n";
    let profile = p(text).unwrap();
    let f = &profile.functions[0];
    assert_eq!(f.self_cost, [7]);
    assert_eq!(f.lines[&(0, 3)], [5]);
    assert_eq!(f.lines[&(0, 4)], [2]);
    assert!(p("positions: instr\nevents: Ir\nfn=f\n1 2\n")
        .unwrap()
        .functions[0]
        .lines
        .is_empty());
}

// Found by the explain_profile fuzz target (fuzz/README.md): costs adding up past 2^64
// overflowed (a panic with overflow checks, a wrong sum without).
#[test]
fn costs_past_two_to_the_64_saturate() {
    let max = u64::MAX;
    let text = format!(
        "events: Ir\nfn=main\n1 {max}\n2 {max}\ncfn=work\ncalls=1 1\n3 {max}\n\
         fn=work\n1 {max}\n"
    );
    let profile = p(&text).unwrap();
    let main = by_name(&profile, "main");
    assert_eq!(main.self_cost, [max]);
    assert_eq!(main.inclusive, [max]);
    assert_eq!(profile.totals(), [max]);
    assert_eq!(totals(&text).unwrap().totals(), [max]);
}

#[test]
fn damaged_files_name_the_line() {
    for (text, line, words) in [
        ("events: Ir\nfn=a\n1 x\n", 3, "`x` is not a count"),
        ("events: Ir\n1 2\n", 2, "before any `fn=`"),
        ("fn=a\n1 2\n", 1, "before the `events:` line"),
        ("events: Ir\nfn=a\ncalls=1 2\n", 3, "without a `cfn=`"),
        (
            "events: Ir\nfn=a\ncfn=b\ncalls=1 2\nfn=c\n",
            5,
            "not followed by the cost",
        ),
        ("events: Ir\nfn=a\nx 1\n", 3, "unrecognised line"),
        ("events: Ir\nfn=a\n1 1 2\n", 3, "2 costs for 1 events"),
        ("events: Ir\nfn=a\n+x 1\n", 3, "not a position"),
        ("events: Ir\ntotals: 1 2\n", 2, "2 costs for 1 events"),
        // Found by fuzzing (fuzz/fuzz_targets/callgrind_profile.rs), minimized.
        ("events:m\ntotals:\nevents:b 6", 3, "other events"),
    ] {
        let e = p(text).unwrap_err();
        assert_eq!(e.line(), Some(line), "{text}: {e}");
        assert!(e.to_string().contains(words), "{e}");
        assert!(e.to_string().starts_with(&format!("t.out:{line}: ")), "{e}");
    }
    let e = p("events: Ir\nfn=a\ncfn=b\ncalls=1 2\n").unwrap_err();
    assert!(e.to_string().contains("truncated"), "{e}");
    assert!(p("").unwrap_err().to_string().contains("no `events:`"));
    assert!(p("events: Ir\n1 5\nevents: Ir\nfn=a\n2 6\n").is_err());
    assert!(totals("events: Ir\n1 5\nevents: Ir\n2 6\n").is_ok());
}
