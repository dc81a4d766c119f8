//! An `arbiter serve` process for the tests that measure a replica from outside: started on a
//! free port, waited for until `/readyz` answers, read through `/proc`, killed when dropped.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running replica.
pub struct Replica {
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Replica {
    /// Starts `cmd` (which runs `arbiter serve`) on a free port, with its output discarded,
    /// and waits up to a minute for it to be ready.
    pub fn start(mut cmd: Command) -> Replica {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = cmd
            .env("ARBITER_ADDR", format!("127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start arbiter serve");
        let replica = Replica {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        let started = Instant::now();
        while !reqwest::blocking::get(format!("{}/readyz", replica.base))
            .is_ok_and(|r| r.status().is_success())
        {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the replica is not ready after a minute"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        replica
    }

    /// A memory field of its `/proc` status (`RssAnon:`, `VmHWM:`), in bytes.
    pub fn status(&self, key: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("read the replica's /proc status");
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("{key} in /proc status"));
        kib * 1024
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
