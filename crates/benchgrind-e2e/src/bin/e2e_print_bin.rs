//! Binary benchmarks that print, for the `--nocapture` tests: eight commands that each echo
//! their id to stdout and stderr, a setup that prints, and a command whose stdout is inherited.

use benchgrind::{binary_benchmark, binary_benchmark_group, main, Command, Stdio};

fn announce(id: &str) {
    println!("setup of prepared {id}");
}

#[binary_benchmark]
#[benches::ids("0", "1", "2", "3", "4", "5", "6", "7")]
fn echoes(id: &str) -> Command {
    Command::new("/bin/sh")
        .args([
            "-c",
            &format!("echo printed by echoes ids_{id}; echo stderr of echoes ids_{id} >&2"),
        ])
        .build()
}

#[binary_benchmark]
#[bench::with_setup(args = ("with_setup"), setup = announce("with_setup"))]
fn prepared(id: &str) -> Command {
    Command::new("/bin/sh")
        .args(["-c", &format!("echo printed by prepared {id}")])
        .build()
}

#[binary_benchmark]
#[bench::inherited()]
fn inherits() -> Command {
    Command::new("/bin/sh")
        .args(["-c", "echo printed by inherits inherited"])
        .stdout(Stdio::Inherit)
        .build()
}

binary_benchmark_group!(name = print_group; benchmarks = echoes, prepared, inherits);

main!(binary_benchmark_groups = print_group);
