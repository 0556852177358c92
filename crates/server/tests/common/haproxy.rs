//! A throw-away HAProxy for tests: one frontend on a free loopback port with
//! `option forwardfor`, passing every request to one server. It runs as a daemon, so it is
//! listening once starting it has returned; it is stopped when dropped. Where HAProxy is not
//! installed, starting fails with one line saying what to install.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;

/// A running HAProxy.
pub struct Haproxy {
    dir: PathBuf,
    /// Where clients connect.
    pub address: SocketAddr,
}

fn binary() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("haproxy"))
            .find(|file| file.is_file())
    });
    on_path.or_else(|| {
        let usual = PathBuf::from("/usr/sbin/haproxy");
        usual.is_file().then_some(usual)
    })
}

impl Haproxy {
    /// HAProxy in front of `server`, adding the client's address to `X-Forwarded-For` as a
    /// line of its own (`option forwardfor`).
    pub fn start(name: &str, server: SocketAddr) -> Result<Haproxy, String> {
        let binary = binary().ok_or(
            "HAProxy is missing: run 'sudo apt-get install haproxy' (or scripts/setup.sh)",
        )?;
        let dir =
            std::env::temp_dir().join(format!("bashni-haproxy-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let config = format!(
            "global
    maxconn 256

defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    timeout tunnel 1h

frontend site
    bind 127.0.0.1:{port}
    option forwardfor
    default_backend server

backend server
    server one {server}
"
        );
        let file = dir.join("haproxy.cfg");
        std::fs::write(&file, config).map_err(|e| format!("{}: {e}", file.display()))?;
        let started = Command::new(&binary)
            .arg("-D")
            .arg("-f")
            .arg(&file)
            .arg("-p")
            .arg(dir.join("pid"))
            .output()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let proxy = Haproxy {
            dir,
            address: SocketAddr::from(([127, 0, 0, 1], port)),
        };
        if !started.status.success() {
            return Err(format!(
                "haproxy did not start: {}",
                String::from_utf8_lossy(&started.stderr)
            ));
        }
        Ok(proxy)
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        if let Ok(pid) = std::fs::read_to_string(self.dir.join("pid")) {
            for pid in pid.split_whitespace() {
                let _ = Command::new("kill").arg(pid).status();
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
