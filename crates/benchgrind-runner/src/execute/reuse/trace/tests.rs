use super::calls::*;
use super::*;

fn trace(cwd: &str, log: &str) -> Traced {
    let mut tracer = Tracer::new(Path::new(cwd));
    tracer.log(log);
    tracer.finish()
}

#[test]
fn arguments_are_numbers_and_texts_whatever_the_text_holds() {
    assert_eq!(
        arguments("4294967196, 0x1fff000a30(a, b) c), 0 ) --> [async] ... "),
        vec![
            Arg::Number("4294967196"),
            Arg::Text("a, b) c"),
            Arg::Number("0")
        ]
    );
    assert_eq!(
        arguments("0x4035eb0(/etc) )[sync] --> Success(0x0) "),
        vec![Arg::Text("/etc")]
    );
    assert_eq!(arguments(")[sync]"), vec![]);
}

// The lines below are as Valgrind 3.19 wrote them for `cat`, `ls` and `sh` (paths changed).
#[test]
fn opens_stats_and_listings_are_inputs_with_their_results_placed() {
    let log = "\
==1== Command: prog
SYSCALL[1,1](257) sys_openat ( 4294967196, 0x1fff000a30(input.txt), 0 ) --> [async] ... 
SYSCALL[1,1](257) ... [async] --> Success(0x3) 
SYSCALL[1,1](21) sys_access ( 0x402a2a0(/etc/ld.so.preload), 4 )[sync] --> Failure(0x2) 
SYSCALL[1,1](262) sys_newfstatat ( 1, 0x49dcdd5(), 0x1fff000560 )[sync] --> Success(0x0) 
SYSCALL[1,1](257) sys_openat ( 4294967196, 0x1fff000a2b(/data), 591872 ) --> [async] ... 
SYSCALL[1,1](257) ... [async] --> Success(0x4) 
SYSCALL[1,1](217) sys_getdents64 ( 4, 0x403e2a0, 32768 ) --> [async] ... 
SYSCALL[1,1](217) ... [async] --> Success(0x50) 
SYSCALL[1,1](262) sys_newfstatat ( 4, 0x403e2c0(entry), 0x1fff000460, 256 )[sync] --> Success(0x0) 
SYSCALL[1,1](257) sys_openat ( 4294967196, 0x4035ea8(/dev/null), 577, 438 ) --> [async] ... 
SYSCALL[1,1](257) sys_openat ( 4294967196, 0x4035ea8(out.json), 577, 438 ) --> [async] ... 
SYSCALL[1,1](332) sys_statx ( 4294967196, 0x1fff000a31(/proc/self/maps), 2304, 4095, 0x1fff000420 )[sync] --> Success(0x0) 
";
    let traced = trace("/work", log);
    let inputs: Vec<_> = traced
        .inputs
        .iter()
        .map(|(p, l)| (p.to_str().unwrap(), *l))
        .collect();
    assert_eq!(
        inputs,
        [
            ("/data", true),
            ("/data/entry", false),
            ("/etc/ld.so.preload", false),
            ("/work/input.txt", false)
        ]
    );
    assert_eq!(
        traced.written.iter().collect::<Vec<_>>(),
        [Path::new("/work/out.json")]
    );
    assert!(traced.changed.is_empty());
    assert_eq!(traced.unplaced, None);
}

#[test]
fn changes_and_calls_that_cannot_be_placed_are_said() {
    let changed = trace(
        "/w",
        "SYSCALL[1,1](87) sys_unlink ( 0x1(old.txt) )[sync] --> Success(0x0) \n\
         SYSCALL[1,1](257) sys_openat ( 4294967196, 0x2(log), 1089, 420 ) --> [async] ... \n",
    );
    assert_eq!(
        changed.changed.iter().collect::<Vec<_>>(),
        [Path::new("/w/log"), Path::new("/w/old.txt")]
    );
    let unknown_fd = trace(
        "/w",
        "SYSCALL[1,1](262) sys_newfstatat ( 7, 0x3(x), 0x4, 0 )[sync] --> Success(0x0) \n",
    );
    assert!(unknown_fd
        .unplaced
        .unwrap()
        .contains("relative to a directory"));
    let entered = trace(
        "/w",
        "SYSCALL[1,1](80) sys_chdir ( 0x4035eb0(/etc) )[sync] --> Success(0x0) \n\
         SYSCALL[1,1](257) sys_openat ( 4294967196, 0x1(hostname), 0 ) --> [async] ... \n",
    );
    assert!(entered.inputs.contains_key(Path::new("/etc")));
    assert!(entered.unplaced.unwrap().contains("working directory"));
    let unknown = trace(
        "/w",
        "SYSCALL[1,1](999) sys_frobnicate ( 0x1(/x) )[sync] --> Success(0x0) \n",
    );
    assert!(unknown.unplaced.unwrap().contains("frobnicate"));
}
