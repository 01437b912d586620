//! The harness's own tests: each would fail if the sandbox, the trace reading or the
//! comparison broke.

use std::time::Duration;

use hookgate::shell::parse;

use super::sandbox::{self, HOME, TIMEOUT};
use super::{Event, Verdict, check, check_against};

fn execs(events: &[Event]) -> Vec<(String, Vec<String>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Exec { program, args, .. } => Some((program.clone(), args.clone())),
            _ => None,
        })
        .collect()
}

fn deleted(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Deleted { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn oracle_a_wrong_prediction_for_rm_rf_home_is_unsound() {
    // A prediction that saw nothing and did not say unreadable.
    let mut nothing = parse("ls");
    nothing.commands.clear();
    nothing.unreadable = None;
    let case = check_against("rm -rf ~", nothing);
    let Verdict::Unsound { unpredicted } = &case.verdict else {
        panic!("{}", case.report());
    };
    let rm = ("rm".to_owned(), vec!["-rf".to_owned(), HOME.to_owned()]);
    assert!(execs(unpredicted).contains(&rm), "{}", case.report());
    let gone = deleted(unpredicted);
    for path in [
        format!("{HOME}/.ssh/id_rsa"),
        format!("{HOME}/project/src/main.rs"),
    ] {
        assert!(
            gone.contains(&path),
            "{path} not deleted:\n{}",
            case.report()
        );
    }
    // The reader's own prediction of the same line covers it all.
    assert_eq!(check("rm -rf ~").verdict, Verdict::Sound);
}

#[test]
fn oracle_a_program_named_by_a_variable_really_runs() {
    let case = check("x=rm; $x -rf ~");
    let rm = ("rm".to_owned(), vec!["-rf".to_owned(), HOME.to_owned()]);
    assert!(execs(&case.events).contains(&rm), "{}", case.report());
    assert!(
        deleted(&case.events).contains(&format!("{HOME}/.aws/credentials")),
        "{}",
        case.report()
    );
}

#[test]
fn oracle_secret_reads_are_seen_through_redirects_and_symlinks() {
    let case = check("cat < ~/.netrc; ln -s ~/.ssh/id_rsa k; cat k; grep -c x .env");
    let read: Vec<&str> = case
        .events
        .iter()
        .filter_map(|e| match e {
            Event::SecretRead { path, .. } => Some(path.as_str()),
            _ => None,
        })
        .collect();
    for secret in sandbox::secrets() {
        if secret.ends_with("credentials") {
            continue;
        }
        assert!(
            read.contains(&secret.as_str()),
            "{secret}:\n{}",
            case.report()
        );
    }
}

#[test]
fn oracle_the_fork_bomb_ends_within_the_timeout() {
    let case = check(":(){ :|:& };:");
    assert!(
        case.run.elapsed < TIMEOUT + Duration::from_secs(3),
        "{}",
        case.report()
    );
    // The cap, not only the clock, stopped it: forks failed.
    assert!(
        case.run.stderr.contains("fork") || case.run.stderr.contains("Resource"),
        "{}",
        case.run.stderr
    );
}

#[test]
fn oracle_a_stand_in_is_seen_running() {
    let name = sandbox::stand_ins().first().copied().unwrap_or("true");
    let case = check(&format!("{name} --version x"));
    let ran = (
        name.to_owned(),
        vec!["--version".to_owned(), "x".to_owned()],
    );
    assert!(execs(&case.events).contains(&ran), "{}", case.report());
    if !std::path::Path::new("/usr/bin/sudo").exists() {
        assert!(sandbox::stand_ins().contains(&"sudo"));
    }
}

#[test]
fn oracle_arguments_come_back_byte_for_byte() {
    let case = check(r#"/bin/echo $'a\nb' '"q\' $'\x01\x7f' 'é' '' "$HOME""#);
    let echo = execs(&case.events);
    let expected = ["a\nb", "\"q\\", "\u{1}\u{7f}", "é", "", HOME];
    let expected: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(echo, [("echo".to_owned(), expected)], "{}", case.report());
}

#[test]
fn oracle_the_interpreter_of_an_env_script_is_part_of_the_script() {
    let case = check("printf '#!/usr/bin/env bash\\necho hi\\n' > t.sh; chmod +x t.sh; ./t.sh a");
    let programs: Vec<String> = execs(&case.events).into_iter().map(|(p, _)| p).collect();
    assert_eq!(programs, ["chmod", "t.sh"], "{}", case.report());
}

#[test]
fn oracle_the_sandbox_keeps_everything_outside_it_safe() {
    // A canary that only the read-only mount protects: world-writable, in a world-writable
    // directory the sandbox can see.
    let target = super::corpus::target_dir();
    let dir = target.join(format!("oracle-canary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("canary dir");
    let canary = dir.join("canary");
    std::fs::write(&canary, "alive").expect("canary");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    std::fs::set_permissions(&canary, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let d = dir.display();
    let line = format!(
        "id -u; grep CapEff /proc/self/status; cat /proc/net/dev; \
         rm -rf {d}; echo x > {d}/new; echo x > /etc/oracle; rm -rf ~; \
         rm -rf --no-preserve-root /"
    );
    let case = check(&line);
    assert_eq!(
        std::fs::read_to_string(&canary).ok().as_deref(),
        Some("alive")
    );
    assert!(!dir.join("new").exists());
    assert!(!std::path::Path::new("/etc/oracle").exists());
    std::fs::remove_dir_all(&dir).expect("remove the canary");
    // It did run: the home went.
    assert!(
        deleted(&case.events).contains(&format!("{HOME}/.ssh/id_rsa")),
        "{}",
        case.report()
    );
    // As an unprivileged uid, no capabilities, no network but loopback.
    let out = &case.run.stdout;
    let uid: u32 = out
        .lines()
        .next()
        .and_then(|l| l.parse().ok())
        .expect("uid");
    assert_ne!(uid, 0, "{out}");
    assert!(out.contains("CapEff:\t0000000000000000"), "{out}");
    let interfaces: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once(':').map(|(n, _)| n.trim()))
        .filter(|n| !n.contains(' ') && !n.starts_with("Cap") && !n.is_empty())
        .collect();
    assert_eq!(interfaces, ["lo"], "{out}");
}

#[test]
fn oracle_a_connection_from_interpreter_code_must_be_predicted() {
    let line = "python3 -c 'import socket; socket.create_connection((\"10.9.8.7\", 4444))'";
    // The prediction without the virtual `nc` the code reader adds.
    let mut without = parse(line);
    without.commands.retain(|c| c.program != "nc");
    let case = check_against(line, without);
    let Verdict::Unsound { unpredicted } = &case.verdict else {
        panic!("{}", case.report());
    };
    assert!(
        unpredicted.iter().any(|e| matches!(
            e,
            Event::Connect { address, .. } if address == "10.9.8.7:4444"
        )),
        "{}",
        case.report()
    );
    assert_eq!(check(line).verdict, Verdict::Sound);
}
