//! A binary benchmark's [`Delay`]: the command starts only once a time has passed, a path
//! exists, a TCP port accepts connections or a UDP peer answers (iai-callgrind 0.14's `Delay`
//! and `DelayKind`), typically for a server that a parallel setup starts
//! (`Command::setup_parallel`).
//!
//! Stage 3 of the pipeline (execute): the wait happens in the harness, before Valgrind starts
//! the command, so it costs nothing in the counts. A condition that does not hold within the
//! timeout fails the benchmark with a message naming it.

use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a condition is checked by default.
const DEFAULT_POLL: Duration = Duration::from_millis(10);
/// How long a condition may take by default.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// What the command waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DelayKind {
    /// This much time.
    DurationElapse(Duration),
    /// A TCP connection to this address succeeds.
    TcpConnect(SocketAddr),
    /// A UDP datagram with these bytes sent to this address gets an answer.
    UdpResponse(SocketAddr, Vec<u8>),
    /// This path exists (relative paths start at the command's working directory).
    PathExists(PathBuf),
}

/// A condition the command waits for, checked every `poll` until `timeout`.
///
/// ```rust
/// use std::time::Duration;
/// use benchgrind_runner::delay::{Delay, DelayKind};
///
/// let mut delay = Delay::new(DelayKind::PathExists("server.ready".into()));
/// delay.poll(Duration::from_millis(5)).timeout(Duration::from_secs(2));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delay {
    pub(crate) kind: DelayKind,
    pub(crate) poll: Duration,
    pub(crate) timeout: Duration,
}

impl Delay {
    /// Waits for `kind`.
    pub fn new(kind: DelayKind) -> Delay {
        Delay {
            kind,
            poll: DEFAULT_POLL,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// Waits this long.
    pub fn from_duration(duration: Duration) -> Delay {
        Delay::new(DelayKind::DurationElapse(duration))
    }

    /// Waits until a TCP connection to `addr` succeeds.
    pub fn from_tcp_socket<T: Into<SocketAddr>>(addr: T) -> Delay {
        Delay::new(DelayKind::TcpConnect(addr.into()))
    }

    /// Waits until a UDP datagram with `request` sent to `addr` gets an answer.
    pub fn from_udp_request<T: Into<SocketAddr>, U: Into<Vec<u8>>>(addr: T, request: U) -> Delay {
        Delay::new(DelayKind::UdpResponse(addr.into(), request.into()))
    }

    /// Waits until `path` exists.
    pub fn from_path<T: Into<PathBuf>>(path: T) -> Delay {
        Delay::new(DelayKind::PathExists(path.into()))
    }

    /// How often the condition is checked (default: 10 ms).
    pub fn poll<T: Into<Duration>>(&mut self, poll: T) -> &mut Self {
        self.poll = poll.into();
        self
    }

    /// How long the condition may take before the benchmark fails (default: 600 s).
    pub fn timeout<T: Into<Duration>>(&mut self, timeout: T) -> &mut Self {
        self.timeout = timeout.into();
        self
    }

    /// Waits until the condition holds; an error names it when the timeout passes first.
    pub(crate) fn wait(&self, cwd: &Path) -> Result<(), String> {
        let ready: Box<dyn Fn() -> bool> = match &self.kind {
            DelayKind::DurationElapse(duration) => {
                std::thread::sleep(*duration);
                return Ok(());
            }
            DelayKind::TcpConnect(addr) => {
                let addr = *addr;
                let poll = self.poll;
                Box::new(move || TcpStream::connect_timeout(&addr, poll.max(DEFAULT_POLL)).is_ok())
            }
            DelayKind::UdpResponse(addr, request) => {
                let (addr, request, poll) = (*addr, request.clone(), self.poll);
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
            if start.elapsed() >= self.timeout {
                return Err(format!(
                    "the command's delay {} did not hold within {:?}; check the setup that should \
                     make it hold, or give Delay::timeout more time",
                    self.describe(),
                    self.timeout
                ));
            }
            std::thread::sleep(self.poll);
        }
    }

    fn describe(&self) -> String {
        match &self.kind {
            DelayKind::DurationElapse(d) => format!("DurationElapse({d:?})"),
            DelayKind::TcpConnect(addr) => format!("TcpConnect({addr})"),
            DelayKind::UdpResponse(addr, _) => format!("UdpResponse({addr})"),
            DelayKind::PathExists(path) => format!("PathExists({})", path.display()),
        }
    }
}

impl From<Duration> for Delay {
    fn from(duration: Duration) -> Self {
        Delay::from_duration(duration)
    }
}

impl From<&mut Delay> for Delay {
    fn from(value: &mut Delay) -> Self {
        value.clone()
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
        let mut delay = Delay::new(DelayKind::PathExists("ready".into()));
        delay.timeout(Duration::from_secs(5));
        assert_eq!(delay.wait(dir.path()), Ok(()));
        writer.join().unwrap();

        let mut missing = Delay::new(DelayKind::PathExists("never".into()));
        missing.timeout(Duration::from_millis(30));
        let e = missing.wait(dir.path()).unwrap_err();
        assert!(e.contains("PathExists(never)"), "{e}");
    }

    #[test]
    fn a_listening_port_ends_the_wait() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let mut delay = Delay::new(DelayKind::TcpConnect(addr));
        delay.timeout(Duration::from_secs(5));
        assert_eq!(delay.wait(Path::new(".")), Ok(()));
        drop(listener);
    }
}
