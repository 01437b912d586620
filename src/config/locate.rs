//! Finding the policy file when none is named on the command line.

use std::path::{Path, PathBuf};

use super::error::ConfigError;

/// Where a policy path came from, for messages and `/v1/status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigSource {
    /// `--config`.
    Flag,
    /// An environment variable (its name).
    Env(&'static str),
    /// `./HOOKS.yaml`.
    WorkingDirectory,
    /// `$OPENCLAW_WORKSPACE/HOOKS.yaml` (default `~/.openclaw/workspace`).
    Workspace,
}

/// Finds the policy file: `flag`, else `HOOKGATE_CONFIG`, else `OPENCLAW_HOOKS_CONFIG`, else
/// `./HOOKS.yaml`, else `$OPENCLAW_WORKSPACE/HOOKS.yaml` (default `~/.openclaw/workspace`).
///
/// A path named explicitly (flag or environment) is returned even if it does not exist, so
/// that the error names the file the user asked for rather than silently falling through.
pub fn locate_policy(
    flag: Option<&Path>,
    env: impl Fn(&str) -> Option<String>,
    cwd: &Path,
) -> Result<(PathBuf, ConfigSource), ConfigError> {
    if let Some(path) = flag {
        return Ok((path.to_path_buf(), ConfigSource::Flag));
    }
    for var in ["HOOKGATE_CONFIG", "OPENCLAW_HOOKS_CONFIG"] {
        if let Some(value) = env(var).filter(|v| !v.is_empty()) {
            return Ok((PathBuf::from(value), ConfigSource::Env(var)));
        }
    }
    let mut searched = Vec::new();
    let local = cwd.join("HOOKS.yaml");
    if local.is_file() {
        return Ok((local, ConfigSource::WorkingDirectory));
    }
    searched.push(local);
    let workspace = env("OPENCLAW_WORKSPACE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|home| Path::new(&home).join(".openclaw").join("workspace")));
    if let Some(workspace) = workspace {
        let candidate = workspace.join("HOOKS.yaml");
        if candidate.is_file() {
            return Ok((candidate, ConfigSource::Workspace));
        }
        searched.push(candidate);
    }
    Err(ConfigError::NotFound { searched })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn order_is_flag_env_cwd_workspace() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cwd = dir.path().join("cwd");
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(&cwd).expect("mkdir");
        std::fs::create_dir_all(&ws).expect("mkdir");
        std::fs::write(ws.join("HOOKS.yaml"), "version: 1\nhooks: []\n").expect("write");
        let ws_str = ws.to_string_lossy().to_string();

        let env = env_of(&[("OPENCLAW_WORKSPACE", &ws_str)]);
        assert_eq!(
            locate_policy(None, &env, &cwd).expect("ws").1,
            ConfigSource::Workspace
        );

        std::fs::write(cwd.join("HOOKS.yaml"), "version: 1\nhooks: []\n").expect("write");
        assert_eq!(
            locate_policy(None, &env, &cwd).expect("cwd").1,
            ConfigSource::WorkingDirectory
        );

        let env = env_of(&[
            ("OPENCLAW_WORKSPACE", &ws_str),
            ("OPENCLAW_HOOKS_CONFIG", "/x/o.yaml"),
        ]);
        assert_eq!(
            locate_policy(None, &env, &cwd).expect("env").0,
            PathBuf::from("/x/o.yaml")
        );

        let env = env_of(&[
            ("OPENCLAW_HOOKS_CONFIG", "/x/o.yaml"),
            ("HOOKGATE_CONFIG", "/x/h.yaml"),
        ]);
        assert_eq!(
            locate_policy(None, &env, &cwd).expect("env").1,
            ConfigSource::Env("HOOKGATE_CONFIG")
        );

        let flag = Path::new("/x/flag.yaml");
        assert_eq!(
            locate_policy(Some(flag), &env, &cwd).expect("flag").1,
            ConfigSource::Flag
        );
    }

    #[test]
    fn default_workspace_is_under_home_and_not_found_lists_paths() {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().to_string_lossy().to_string();
        let err = locate_policy(None, env_of(&[("HOME", &home)]), dir.path()).unwrap_err();
        let ConfigError::NotFound { searched } = err else {
            panic!("expected NotFound")
        };
        assert_eq!(
            searched[1],
            dir.path().join(".openclaw/workspace/HOOKS.yaml")
        );
    }
}
