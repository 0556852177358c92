//! A throw-away PostgreSQL server for tests: `initdb` into a temporary folder, listening on a
//! Unix socket there only, stopped and removed when dropped. Run as root, it runs as the
//! `postgres` user (PostgreSQL refuses root). Where PostgreSQL is not installed, starting
//! fails with one line saying what to install.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A running PostgreSQL server.
pub struct Postgres {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
    as_postgres: bool,
}

fn find_bin() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("BASHNI_PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    found.sort();
    found.pop()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

impl Postgres {
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }

    /// Starts a fresh server.
    pub fn start(name: &str) -> Result<Postgres, String> {
        let bin = find_bin().ok_or(
            "PostgreSQL is missing: run 'sudo apt-get install postgresql' (or scripts/setup.sh) \
             or set BASHNI_PG_BIN to the folder of initdb",
        )?;
        let dir = std::env::temp_dir().join(format!("bashni-pg-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let as_postgres = is_root();
        if as_postgres {
            let owned = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status()
                .map_err(|e| format!("chown: {e}"))?;
            if !owned.success() {
                return Err("cannot give the test folder to the postgres user".into());
            }
        }
        let port = 20_000 + (std::process::id() % 20_000) as u16 + name.len() as u16 * 7;
        let server = Postgres {
            dir,
            bin,
            port,
            as_postgres,
        };
        let data = server.dir.join("data");
        let run = |mut command: Command, what: &str| -> Result<(), String> {
            let output = command.output().map_err(|e| format!("{what}: {e}"))?;
            if output.status.success() {
                Ok(())
            } else {
                Err(format!(
                    "{what} failed: {}{}",
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                ))
            }
        };
        let mut initdb = server.command("initdb");
        initdb.arg("-D").arg(&data).args([
            "-U",
            "bashni",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ]);
        run(initdb, "initdb")?;
        let options = format!(
            "-k {} -c listen_addresses='' -p {} -c fsync=off -c max_connections=200",
            server.dir.display(),
            server.port
        );
        let mut start = server.command("pg_ctl");
        start
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(server.dir.join("log"))
            .args(["-o", &options, "-w", "start"]);
        run(start, "pg_ctl start")?;
        Ok(server)
    }

    /// The address of database `db` on this server.
    pub fn url(&self, db: &str) -> String {
        format!(
            "postgresql://bashni@localhost/{db}?host={}&port={}",
            self.dir.display(),
            self.port
        )
    }

    /// Makes an empty database called `name`; returns its address.
    pub async fn database(&self, name: &str) -> Result<String, Box<dyn std::error::Error>> {
        let (client, connection) =
            tokio_postgres::connect(&self.url("postgres"), tokio_postgres::NoTls).await?;
        let driver = tokio::spawn(connection);
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await?;
        drop(client);
        let _ = driver.await;
        Ok(self.url(name))
    }

    /// Stops the server at once (as a crash or an outage would), keeping its files.
    pub fn stop(&self) -> Result<(), String> {
        let mut stop = self.command("pg_ctl");
        stop.arg("-D")
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "-w", "stop"]);
        let done = stop.output().map_err(|e| format!("pg_ctl: {e}"))?;
        if done.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&done.stderr).into_owned())
        }
    }

    /// The server's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let mut stop = self.command("pg_ctl");
        stop.arg("-D")
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "-w", "stop"]);
        let _ = stop.output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
