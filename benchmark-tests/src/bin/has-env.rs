//! `has-env NAME VALUE`: exits with an error unless the environment variable NAME is VALUE.

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(name), Some(expected)) = (args.next(), args.next()) else {
        eprintln!("usage: has-env NAME VALUE");
        std::process::exit(2);
    };
    match std::env::var(&name) {
        Ok(value) if value == expected => {}
        Ok(value) => {
            eprintln!("has-env: {name} is {value:?}, expected {expected:?}");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("has-env: {name}: {e}");
            std::process::exit(1);
        }
    }
}
