//! `read-file PATH EXPECTED`: exits with an error unless the file at PATH holds exactly EXPECTED.

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(expected)) = (args.next(), args.next()) else {
        eprintln!("usage: read-file PATH EXPECTED");
        std::process::exit(2);
    };
    match std::fs::read_to_string(&path) {
        Ok(content) if content == expected => {}
        Ok(content) => {
            eprintln!("read-file: {path} holds {content:?}, expected {expected:?}");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("read-file: cannot read {path}: {e}");
            std::process::exit(1);
        }
    }
}
