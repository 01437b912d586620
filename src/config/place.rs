//! The places a policy names (`match.command.deletes: [home, system]`); where a path is, is
//! worked out at decision time by [`crate::matcher::places`].

/// Where a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// Inside the workspace, and not one of the places below.
    Workspace,
    /// The workspace itself, or its `.git`.
    WorkspaceRoot,
    /// A build output or cache inside the workspace (`node_modules`, `target`, `build`, ...).
    Regenerable,
    /// `/tmp`, `/var/tmp`, `$TMPDIR` (below them, not the directories themselves).
    Temp,
    /// The home directory, or anything in it outside the workspace (another user's too).
    Home,
    /// Anywhere else: `/etc`, `/usr`, `/`, devices.
    System,
    /// A path the reader cannot place: a value not known, or relative without a `cwd`.
    Unknown,
    /// The gate's own files: the policy file and every file it brings in, the running
    /// hookgate binary, and, for a delete, a directory holding one. A path here is also in
    /// one of the places above; the gate is an extra place, not another.
    Gate,
}

impl Place {
    /// Every place, in the order the docs list them.
    pub const ALL: [Place; 8] = [
        Place::Workspace,
        Place::WorkspaceRoot,
        Place::Regenerable,
        Place::Temp,
        Place::Home,
        Place::System,
        Place::Unknown,
        Place::Gate,
    ];

    /// The name written in HOOKS.yaml.
    pub fn name(self) -> &'static str {
        match self {
            Place::Workspace => "workspace",
            Place::WorkspaceRoot => "workspace-root",
            Place::Regenerable => "regenerable",
            Place::Temp => "temp",
            Place::Home => "home",
            Place::System => "system",
            Place::Unknown => "unknown",
            Place::Gate => "gate",
        }
    }

    /// The place named `name` in HOOKS.yaml.
    pub fn from_name(name: &str) -> Option<Place> {
        Place::ALL.into_iter().find(|p| p.name() == name)
    }

    /// How a message says it: "in your home directory, outside the workspace".
    pub fn describe(self) -> &'static str {
        match self {
            Place::Workspace => "in the workspace",
            Place::WorkspaceRoot => "the workspace itself or its .git",
            Place::Regenerable => "build outputs in the workspace",
            Place::Temp => "temporary files",
            Place::Home => "in your home directory, outside the workspace",
            Place::System => "outside your home directory and the workspace",
            Place::Unknown => "somewhere hookgate cannot tell",
            Place::Gate => "hookgate's own files",
        }
    }
}
