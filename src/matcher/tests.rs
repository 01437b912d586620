use super::*;
use crate::config::Unparseable;
use crate::context::HookContext;
use serde_json::json;

/// [`check_subject`] with a subject of its own (unreadable commands match).
fn check(filter: &Filters, ctx: &HookContext) -> Result<Matched, Filter> {
    let subject = Subject::of(ctx, Unparseable::Match);
    check_subject(filter, PatternIds::default(), &subject)
}

fn pattern(p: &str) -> Option<Pattern> {
    Some(Pattern::new(p).expect("pattern"))
}

fn ctx(v: serde_json::Value) -> HookContext {
    serde_json::from_value(v).expect("context")
}

#[test]
fn empty_filter_matches_everything() {
    assert_eq!(
        check(&Filters::default(), &ctx(json!({"sessionKey": ""}))),
        Ok(Matched::Read)
    );
}

#[test]
fn a_match_made_only_because_the_command_is_unreadable_says_so() {
    let f = Filters {
        tool: Some(vec!["exec".into()]),
        command_pattern: pattern("^rm\\b"),
        ..Filters::default()
    };
    let call = |command: &str| {
        ctx(json!({"sessionKey": "s", "toolName": "exec", "toolArgs": {"command": command}}))
    };
    // An unterminated quote: not read, so the pattern matches per onUnparseable.
    assert_eq!(check(&f, &call("echo 'x")), Ok(Matched::Unread));
    assert_eq!(check(&f, &call("cd /; rm -rf x")), Ok(Matched::Read));
    assert_eq!(check(&f, &call("ls | wc")), Err(Filter::CommandPattern));
    // Filters that do not read the command match as read.
    let tool_only = Filters {
        tool: Some(vec!["exec".into()]),
        ..Filters::default()
    };
    assert_eq!(check(&tool_only, &call("echo 'x")), Ok(Matched::Read));
    let unparseable = Filters {
        unparseable: Some(true),
        ..Filters::default()
    };
    assert_eq!(check(&unparseable, &call("echo 'x")), Ok(Matched::Unread));
    assert_eq!(check(&unparseable, &call("ls")), Err(Filter::Unparseable));
}

#[test]
fn tool_is_exact_and_case_sensitive() {
    let f = Filters {
        tool: Some(vec!["exec".into()]),
        ..Filters::default()
    };
    assert_eq!(
        check(&f, &ctx(json!({"sessionKey": "s", "toolName": "exec"}))),
        Ok(Matched::Read)
    );
    assert_eq!(
        check(&f, &ctx(json!({"sessionKey": "s", "toolName": "Exec"}))),
        Err(Filter::Tool)
    );
    assert_eq!(
        check(&f, &ctx(json!({"sessionKey": "s"}))),
        Err(Filter::Tool)
    );
}

#[test]
fn command_pattern_uses_the_subject_and_is_unanchored() {
    let f = Filters {
        command_pattern: pattern("rm\\s+-rf"),
        ..Filters::default()
    };
    assert_eq!(
        check(
            &f,
            &ctx(json!({"sessionKey": "s", "toolArgs": {"command": "cd /; rm -rf x"}}))
        ),
        Ok(Matched::Read)
    );
    assert_eq!(
        check(
            &f,
            &ctx(json!({"sessionKey": "s", "prompt": "please rm -rf it"}))
        ),
        Ok(Matched::Read)
    );
    assert_eq!(
        check(&f, &ctx(json!({"sessionKey": "s"}))),
        Err(Filter::CommandPattern)
    );
    // An empty subject still matches a pattern that accepts "".
    let empty = Filters {
        command_pattern: pattern("^$"),
        ..Filters::default()
    };
    assert_eq!(
        check(&empty, &ctx(json!({"sessionKey": "s"}))),
        Ok(Matched::Read)
    );
}

#[test]
fn topic_id_compares_as_strings_and_star_needs_a_topic() {
    let f = |t: &str| Filters {
        topic_id: Some(t.into()),
        ..Filters::default()
    };
    assert_eq!(
        check(&f("42"), &ctx(json!({"sessionKey": "s", "topicId": 42}))),
        Ok(Matched::Read)
    );
    assert_eq!(
        check(&f("42"), &ctx(json!({"sessionKey": "s", "topicId": "42"}))),
        Ok(Matched::Read)
    );
    assert_eq!(
        check(&f("42"), &ctx(json!({"sessionKey": "s", "topicId": 420}))),
        Err(Filter::TopicId)
    );
    assert_eq!(
        check(&f("*"), &ctx(json!({"sessionKey": "s", "topicId": 1}))),
        Ok(Matched::Read)
    );
    assert_eq!(
        check(&f("*"), &ctx(json!({"sessionKey": "s"}))),
        Err(Filter::TopicId)
    );
    assert_eq!(
        check(&f("42"), &ctx(json!({"sessionKey": "s"}))),
        Err(Filter::TopicId)
    );
}

#[test]
fn sub_agent_and_session_pattern() {
    let sub = Filters {
        is_sub_agent: Some(true),
        ..Filters::default()
    };
    let main = Filters {
        is_sub_agent: Some(false),
        ..Filters::default()
    };
    let s = ctx(json!({"sessionKey": "agent:main:subagent:abc"}));
    let m = ctx(json!({"sessionKey": "agent:main:telegram:1"}));
    assert_eq!(check(&sub, &s), Ok(Matched::Read));
    assert_eq!(check(&sub, &m), Err(Filter::IsSubAgent));
    assert_eq!(check(&main, &m), Ok(Matched::Read));
    assert_eq!(check(&main, &s), Err(Filter::IsSubAgent));
    let sp = Filters {
        session_pattern: pattern("^agent:main:telegram"),
        ..Filters::default()
    };
    assert_eq!(check(&sp, &m), Ok(Matched::Read));
    assert_eq!(check(&sp, &s), Err(Filter::SessionPattern));
}

#[test]
fn filters_and_together_and_report_the_first_failure() {
    let f = Filters {
        tool: Some(vec!["exec".into()]),
        command_pattern: pattern("^rm"),
        is_sub_agent: Some(true),
        ..Filters::default()
    };
    let c = ctx(json!({"sessionKey": "main", "toolName": "exec", "toolArgs": {"command": "rm x"}}));
    assert_eq!(check(&f, &c), Err(Filter::IsSubAgent));
}
