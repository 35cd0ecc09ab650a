//! A binary benchmark's [`Delay`]: the command starts only once a time has passed, a path
//! exists, a TCP port accepts connections or a UDP peer answers (iai-callgrind 0.14's `Delay`
//! and `DelayKind`), typically for a server that a parallel setup starts
//! (`Command::setup_parallel`).
//!
//! Part of configure, the first stage: what to wait for. The waiting is
//! [`crate::execute`]'s, in the harness before Valgrind starts the command, so it costs nothing
//! in the counts.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// How often a condition is checked by default.
pub(crate) const DEFAULT_POLL: Duration = Duration::from_millis(10);
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
/// use benchgrind_runner::config::{Delay, DelayKind};
///
/// let delay = Delay::new(DelayKind::PathExists("server.ready".into()))
///     .poll(Duration::from_millis(5))
///     .timeout(Duration::from_secs(2));
/// # let _ = delay;
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

    /// How often the condition is checked (default: 10 ms). By value, as in iai-callgrind and
    /// gungraun: `let d = Delay::from_path(p).poll(ms);`.
    pub fn poll<T: Into<Duration>>(mut self, poll: T) -> Self {
        self.poll = poll.into();
        self
    }

    /// How long the condition may take before the benchmark fails (default: 600 s). By value.
    pub fn timeout<T: Into<Duration>>(mut self, timeout: T) -> Self {
        self.timeout = timeout.into();
        self
    }

    /// The condition in a message: `PathExists(server.ready)`.
    pub(crate) fn describe(&self) -> String {
        match &self.kind {
            DelayKind::DurationElapse(d) => format!("DurationElapse({d:?})"),
            DelayKind::TcpConnect(addr) => format!("TcpConnect({addr})"),
            DelayKind::UdpResponse(addr, _) => format!("UdpResponse({addr})"),
            DelayKind::PathExists(path) => format!("PathExists({})", path.display()),
        }
    }
}

/// 60 seconds, as in gungraun.
impl Default for DelayKind {
    fn default() -> DelayKind {
        DelayKind::DurationElapse(Duration::from_secs(60))
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
