//! Command-line and environment configuration.

use std::path::PathBuf;

/// Where the server listens and which database it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeConfig {
    /// `--listen ADDR:PORT` or `TOURNEY_LISTEN`; default 127.0.0.1:8080.
    pub listen: String,
    /// `--db PATH` or `TOURNEY_DB`; default ./tourney.db.
    pub db: PathBuf,
    /// Origins that may write from a web page: `--cors-origin ORIGIN` (repeatable) or
    /// `TOURNEY_CORS_ORIGINS` (comma-separated); default none. Every origin may read.
    pub cors_origins: Vec<String>,
}

pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";
pub const DEFAULT_DB: &str = "tourney.db";

impl ServeConfig {
    /// Reads `--listen` / `--db` from `args` (after the subcommand), falling back to the
    /// environment, then to the defaults. Flags win over the environment.
    pub fn from_args(
        args: &[String],
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<ServeConfig, String> {
        let mut listen = env("TOURNEY_LISTEN").filter(|s| !s.is_empty());
        let mut db = env("TOURNEY_DB").filter(|s| !s.is_empty());
        let mut cors_origins: Vec<String> = env("TOURNEY_CORS_ORIGINS")
            .map(|list| origins(&list))
            .unwrap_or_default();
        let mut origins_from_flags = false;
        let mut i = 0;
        while i < args.len() {
            let arg = &args[i];
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) => (f, Some(v.to_string())),
                None => (arg.as_str(), None),
            };
            let mut value = || -> Result<String, String> {
                if let Some(v) = inline.clone() {
                    return Ok(v);
                }
                i += 1;
                args.get(i)
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            match flag {
                "--listen" => listen = Some(value()?),
                "--db" => db = Some(value()?),
                "--cors-origin" => {
                    let given = origins(&value()?);
                    if !origins_from_flags {
                        cors_origins.clear();
                        origins_from_flags = true;
                    }
                    cors_origins.extend(given);
                }
                other => return Err(format!("unknown option {other}")),
            }
            i += 1;
        }
        Ok(ServeConfig {
            listen: listen.unwrap_or_else(|| DEFAULT_LISTEN.to_string()),
            db: PathBuf::from(db.unwrap_or_else(|| DEFAULT_DB.to_string())),
            cors_origins,
        })
    }
}

/// The origins of a comma-separated list, without a trailing `/` (browsers send none).
fn origins(list: &str) -> Vec<String> {
    list.split(',')
        .map(|o| o.trim().trim_end_matches('/').to_string())
        .filter(|o| !o.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn defaults_environment_and_flags() {
        let none = |_: &str| None;
        let c = ServeConfig::from_args(&[], none).unwrap();
        assert_eq!(c.listen, DEFAULT_LISTEN);
        assert_eq!(c.db, PathBuf::from(DEFAULT_DB));
        let env = |k: &str| match k {
            "TOURNEY_LISTEN" => Some("0.0.0.0:9000".to_string()),
            "TOURNEY_DB" => Some("/tmp/x.db".to_string()),
            _ => None,
        };
        let c = ServeConfig::from_args(&[], env).unwrap();
        assert_eq!(c.listen, "0.0.0.0:9000");
        let c =
            ServeConfig::from_args(&args(&["--listen", "127.0.0.1:1", "--db=/a.db"]), env).unwrap();
        assert_eq!(c.listen, "127.0.0.1:1");
        assert_eq!(c.db, PathBuf::from("/a.db"));
        assert!(c.cors_origins.is_empty());
        assert!(ServeConfig::from_args(&args(&["--port", "1"]), none).is_err());
        assert!(ServeConfig::from_args(&args(&["--db"]), none).is_err());
    }

    #[test]
    fn write_origins_from_the_environment_or_the_flags() {
        let env = |k: &str| {
            (k == "TOURNEY_CORS_ORIGINS")
                .then(|| "https://a.example, https://b.example/".to_string())
        };
        let c = ServeConfig::from_args(&[], env).unwrap();
        assert_eq!(c.cors_origins, ["https://a.example", "https://b.example"]);
        let flags = args(&[
            "--cors-origin",
            "https://c.example",
            "--cors-origin=https://d.example",
        ]);
        let c = ServeConfig::from_args(&flags, env).unwrap();
        assert_eq!(c.cors_origins, ["https://c.example", "https://d.example"]);
    }
}
