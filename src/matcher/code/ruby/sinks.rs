//! The names the Ruby reader follows, as reviewed data: Kernel's private methods, the
//! methods that change their receiver, the core classes whose reopening stops folding, the
//! methods recognised by name alone, the modules' other names, and the calls that reach the
//! network or decode data. What each call does stays a match on qualified names in
//! `calls`: its arms hold guards and code of their own, which a table of names could not
//! hold without changing what is read.

/// Kernel's private methods: `send` reaches them on any receiver.
pub(super) const KERNEL: &str = "system exec spawn ` open eval fork syscall load require require_relative \
    autoload format sprintf instance_eval binding";

/// Methods that change their receiver in place: a name they are called on is not known.
const MUTATORS: &str = "<< concat prepend insert replace clear push append unshift pop shift []= \
    setbyte force_encoding delete delete_at delete_if keep_if fill store update";

/// Whether the method `name` changes its receiver in place.
pub(super) fn mutates(name: &str) -> bool {
    name.ends_with('!') || listed(MUTATORS, name)
}

/// Methods that return their receiver or one of its items, not a new object.
const HELD: &str = "first last fetch dig at sample min max min_by max_by find detect each \
    each_with_index then yield_self itself tap";

/// Whether `value` may be an object that something else holds too (an item of a list or
/// hash, or the receiver itself), so changing it in place changes that too.
pub(super) fn may_be_held(
    value: tree_sitter::Node<'_>,
    src: &crate::matcher::code::tree::Source<'_>,
) -> bool {
    match super::kind(value) {
        "element_reference" => true,
        "call" => super::by_field(value, "method").is_some_and(|m| listed(HELD, src.of(m))),
        "parenthesized_statements" => value
            .named_child(value.named_child_count().saturating_sub(1) as u32)
            .is_some_and(|v| may_be_held(v, src)),
        _ => false,
    }
}

/// Core classes whose methods the reader folds: reopening one makes folding unsound.
pub(super) const CORE: &str = "String Array Integer Symbol Kernel Object BasicObject Comparable Enumerable File \
    FileUtils Dir IO Pathname ENV URI Base64";

/// Whether `name` is one of the space-separated `list`.
pub(super) fn listed(list: &str, name: &str) -> bool {
    list.split(' ').any(|n| n == name)
}

/// Methods recognised on a receiver the reader does not follow, by their name alone
/// (`?.popen`).
pub(super) const BY_NAME: &[&str] = &[
    "system",
    "popen",
    "popen2",
    "popen2e",
    "popen3",
    "capture2",
    "capture2e",
    "capture3",
    "rm_rf",
    "rmtree",
    "remove_entry_secure",
    "eval",
    "instance_eval",
    "class_eval",
    "module_eval",
    "putbinaryfile",
    "puttextfile",
    "reopen",
];

/// The module names that are another name for the same module.
pub(super) fn canonical(name: &str) -> String {
    let name = name.trim_start_matches("::");
    match name {
        "Object" | "BasicObject" | "Kernel" | "Module" | "Class" => "Kernel".into(),
        "FileUtils::Verbose" | "FileUtils::NoWrite" | "FileUtils::DryRun" => "FileUtils".into(),
        "OpenURI" | "Kernel::URI" => "URI".into(),
        "Psych" => "YAML".into(),
        _ => name.to_owned(),
    }
}

/// Whether `include`/`extend` of a module brings a call the reader follows without a
/// receiver (`include FileUtils; rm_rf x`).
pub(super) fn is_module_call(q: &str) -> bool {
    let (module, _) = q.rsplit_once('.').unwrap_or(("", q));
    matches!(
        module,
        "FileUtils" | "Open3" | "Process" | "Base64" | "Fiddle" | "PTY"
    )
}

/// Calls that reach the network.
pub(super) fn is_network(q: &str) -> bool {
    let (module, method) = q.rsplit_once('.').unwrap_or(("", q));
    match module {
        "Net::HTTP" => matches!(
            method,
            "get"
                | "get_response"
                | "get_print"
                | "post"
                | "post_form"
                | "start"
                | "new"
                | "put"
                | "patch"
        ),
        "TCPSocket" | "Net::FTP" | "Net::Telnet" => matches!(method, "new" | "open"),
        "Socket" => method == "tcp",
        "Net::SMTP" | "Net::SSH" | "Net::POP3" => matches!(method, "start" | "new"),
        "HTTParty" | "Faraday" | "RestClient" | "HTTP" | "Excon" | "Typhoeus" | "HTTPX" => {
            matches!(
                method,
                "get"
                    | "post"
                    | "put"
                    | "patch"
                    | "delete"
                    | "head"
                    | "request"
                    | "new"
                    | "execute"
            )
        }
        _ => q == "URI.open",
    }
}

/// Calls that decode data: running what they return runs what was hidden.
pub(super) fn is_decoder(q: &str) -> bool {
    q.starts_with("Base64.") && q.contains("decode")
        || q.starts_with("Zlib")
        || matches!(q, "CGI.unescape" | "URI.decode_www_form_component")
}
