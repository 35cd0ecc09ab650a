//! `echo [ARGS...]`: prints its arguments separated by spaces, as the system's `echo` does.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    println!("{}", args.join(" "));
}
