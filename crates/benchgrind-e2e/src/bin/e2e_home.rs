//! A binary benchmark of a program that reads its user's home (`e2e_home_reader`, its path in
//! `E2E_HOME_READER`), for the end-to-end test that counts do not follow whose account runs them
//! (`tests/unprivileged.rs`).

use benchgrind::{binary_benchmark, binary_benchmark_group, main, Command};

#[binary_benchmark]
#[bench::its_home()]
fn reader() -> Command {
    let program = std::env::var("E2E_HOME_READER").expect("E2E_HOME_READER names the reader");
    Command::new(program).build()
}

binary_benchmark_group!(name = home; benchmarks = reader);
main!(binary_benchmark_groups = home);
