//! Waiting for a binary benchmark's [`Delay`] before its command starts: a time, a path that
//! appears, a TCP port that accepts connections, a UDP peer that answers.
//!
//! Part of execute, the third stage: the wait happens in the harness before Valgrind starts the
//! command, so it costs nothing in the counts. A condition that does not hold within the
//! delay's timeout fails the benchmark with a message naming it.

use crate::error::Problem;
use crate::problem;
use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::config::delay::DEFAULT_POLL;
use crate::config::{Delay, DelayKind};

/// Waits until the condition holds (relative paths start at `cwd`, the command's working
/// directory); an error names the condition when the timeout passes first.
pub(crate) fn wait(delay: &Delay, cwd: &Path) -> Result<(), Problem> {
    let ready: Box<dyn Fn() -> bool> = match &delay.kind {
        DelayKind::DurationElapse(duration) => {
            std::thread::sleep(*duration);
            return Ok(());
        }
        DelayKind::TcpConnect(addr) => {
            let (addr, poll) = (*addr, delay.poll);
            Box::new(move || TcpStream::connect_timeout(&addr, poll.max(DEFAULT_POLL)).is_ok())
        }
        DelayKind::UdpResponse(addr, request) => {
            let (addr, request, poll) = (*addr, request.clone(), delay.poll);
            Box::new(move || udp_answers(addr, &request, poll))
        }
        DelayKind::PathExists(path) => {
            let path = cwd.join(path);
            Box::new(move || path.exists())
        }
    };
    let start = Instant::now();
    loop {
        if ready() {
            return Ok(());
        }
        if start.elapsed() >= delay.timeout {
            return Err(problem!(
                "the command's delay {} did not hold within {:?}; check the setup that should \
                 make it hold, or give Delay::timeout more time",
                delay.describe(),
                delay.timeout
            ));
        }
        std::thread::sleep(delay.poll);
    }
}

fn udp_answers(addr: SocketAddr, request: &[u8], wait: Duration) -> bool {
    let local: SocketAddr = if addr.is_ipv4() {
        "0.0.0.0:0".parse().expect("a valid address")
    } else {
        "[::]:0".parse().expect("a valid address")
    };
    let Ok(socket) = UdpSocket::bind(local) else {
        return false;
    };
    let mut buf = [0u8; 1];
    socket
        .set_read_timeout(Some(wait.max(DEFAULT_POLL)))
        .is_ok()
        && socket.send_to(request, addr).is_ok()
        && socket.recv(&mut buf).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_that_appears_ends_the_wait_and_a_missing_one_times_out() {
        let dir = tempfile::tempdir().unwrap();
        let ready = dir.path().join("ready");
        let writer = {
            let ready = ready.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                std::fs::write(ready, "").unwrap();
            })
        };
        let delay =
            Delay::new(DelayKind::PathExists("ready".into())).timeout(Duration::from_secs(5));
        assert_eq!(wait(&delay, dir.path()), Ok(()));
        writer.join().unwrap();

        let missing =
            Delay::new(DelayKind::PathExists("never".into())).timeout(Duration::from_millis(30));
        let e = wait(&missing, dir.path()).unwrap_err();
        assert!(e.contains("PathExists(never)"), "{e}");
    }

    #[test]
    fn a_listening_port_ends_the_wait() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let delay = Delay::new(DelayKind::TcpConnect(addr)).timeout(Duration::from_secs(5));
        assert_eq!(wait(&delay, Path::new(".")), Ok(()));
        drop(listener);
    }
}
