//! The calls the PHP reader follows, as reviewed data: each function's name (as
//! [`function_name`] writes it) and what the call does, the functions whose value it
//! computes, and the built-ins that set variables passed to them. A call not listed has no
//! effect the reader reports.

/// What a call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sink {
    /// Runs its first argument as a shell line (`system`).
    Shell,
    /// `proc_open`: an argument vector given as an array, or a shell line.
    ProcOpen,
    /// `pcntl_exec(path, args)`: the program, then the items of its argument array.
    PcntlExec,
    /// Runs the argument at this position as PHP code (`eval`, `create_function`).
    Eval(usize),
    /// `assert`: a string is run as an expression.
    Assert,
    /// `preg_replace`: the replacement is run as code when a pattern has the `e` modifier.
    PregReplace,
    /// A virtual command: the program, its flags, then the arguments at these positions.
    Command(&'static str, &'static [&'static str], &'static [usize]),
    /// `copy(from, to)`: `cp` between paths, else a read and a write.
    CopyFile,
    /// `chmod MODE PATH` from `(path, mode)`.
    Chmod,
    /// `posix_kill(pid, signal)`: `kill -SIGNAL PID`.
    Kill,
    /// `chown ? PATH`: the new owner is not followed.
    Chown,
    /// Writes the file or stream its first argument names.
    Write,
    /// `fopen(path, mode)`: a read, a write, or both.
    Fopen,
    /// Reads the file, URL or stream its first argument names.
    Read,
    /// `stream_copy_to_stream(from, to)`.
    StreamCopy,
    /// `curl_init(url)`: a request, when it is given a URL.
    CurlInit,
    /// `curl_setopt($c, CURLOPT_URL, url)`.
    CurlSetopt,
    /// `curl_setopt_array($c, [CURLOPT_URL => url])`.
    CurlSetoptArray,
    /// A socket opened to the host and port at these positions.
    Socket { host: usize, port: usize },
    /// A connection to the URL its first argument names (`stream_socket_client`).
    Connect,
    /// A fork: a fork bomb when it is in a loop.
    Fork,
    /// Loads native code (`dl`).
    Native,
    /// `putenv`: an `LD_` variable loads native code.
    Putenv,
    /// Calls the callback at its first argument with the arguments after it.
    CallUserFunc,
    /// Calls the callback at its first argument with the items of the array after it.
    CallUserFuncArray,
    /// `array_map(callback, array)`: the callback is called with each item.
    ArrayMap,
    /// Calls the callback at this position (when given), with arguments not known.
    Callback(usize),
    /// `error_log(message, 3, path)`: type 3 appends the message to the file.
    ErrorLog,
}

use Sink::*;

/// The calls [`Php::apply`](super::Php::apply) reads, by name.
const SINKS: &[(&str, Sink)] = &[
    ("system", Shell),
    ("exec", Shell),
    ("shell_exec", Shell),
    ("passthru", Shell),
    ("popen", Shell),
    ("proc_open", ProcOpen),
    ("pcntl_exec", PcntlExec),
    ("eval", Eval(0)),
    ("assert", Assert),
    ("create_function", Eval(1)),
    ("preg_replace", PregReplace),
    ("preg_filter", PregReplace),
    ("unlink", Command("rm", &[], &[0])),
    ("rmdir", Command("rmdir", &[], &[0])),
    ("chdir", Command("cd", &[], &[0])),
    ("rename", Command("mv", &[], &[0, 1])),
    ("copy", CopyFile),
    ("chmod", Chmod),
    ("posix_kill", Kill),
    ("chown", Chown),
    ("lchown", Chown),
    ("chgrp", Chown),
    ("lchgrp", Chown),
    ("symlink", Command("ln", &["-s"], &[0, 1])),
    ("link", Command("ln", &[], &[0, 1])),
    ("file_put_contents", Write),
    ("error_log", ErrorLog),
    ("touch", Command("touch", &[], &[0])),
    ("fopen", Fopen),
    // A local file sent to an FTP server: read, as `cat` of it.
    ("ftp_put", Command("cat", &[], &[2])),
    ("ftp_append", Command("cat", &[], &[2])),
    ("file_get_contents", Read),
    ("file", Read),
    ("readfile", Read),
    ("highlight_file", Read),
    ("show_source", Read),
    ("php_strip_whitespace", Read),
    ("parse_ini_file", Read),
    ("simplexml_load_file", Read),
    ("get_headers", Read),
    ("get_meta_tags", Read),
    ("md5_file", Read),
    ("sha1_file", Read),
    ("curl_init", CurlInit),
    ("curl_setopt", CurlSetopt),
    ("curl_setopt_array", CurlSetoptArray),
    ("fsockopen", Socket { host: 0, port: 1 }),
    ("pfsockopen", Socket { host: 0, port: 1 }),
    ("socket_connect", Socket { host: 1, port: 2 }),
    ("stream_socket_client", Connect),
    ("stream_copy_to_stream", StreamCopy),
    ("ftp_connect", Socket { host: 0, port: 1 }),
    ("ftp_ssl_connect", Socket { host: 0, port: 1 }),
    ("pcntl_fork", Fork),
    ("dl", Native),
    ("putenv", Putenv),
    ("call_user_func", CallUserFunc),
    ("register_shutdown_function", CallUserFunc),
    ("forward_static_call", CallUserFunc),
    ("call_user_func_array", CallUserFuncArray),
    ("forward_static_call_array", CallUserFuncArray),
    ("array_map", ArrayMap),
    ("array_filter", Callback(1)),
    ("array_walk", Callback(1)),
    ("array_walk_recursive", Callback(1)),
    ("array_reduce", Callback(1)),
    ("usort", Callback(1)),
    ("uasort", Callback(1)),
    ("uksort", Callback(1)),
    ("iterator_apply", Callback(1)),
    ("preg_replace_callback", Callback(1)),
    ("ob_start", Callback(0)),
    ("set_error_handler", Callback(0)),
    ("set_exception_handler", Callback(0)),
    ("spl_autoload_register", Callback(0)),
    ("register_tick_function", Callback(0)),
    ("header_register_callback", Callback(0)),
];

/// What the call of function `name` (lower case, no namespace) does, if the reader
/// follows it.
pub(super) fn sink(name: &str) -> Option<Sink> {
    SINKS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// The functions whose value the reader computes.
pub(super) fn is_value_function(name: &str) -> bool {
    is_decoder(name)
        || matches!(
            name,
            "implode"
                | "join"
                | "strrev"
                | "chr"
                | "long2ip"
                | "str_replace"
                | "sprintf"
                | "vsprintf"
                | "getenv"
                | "strtolower"
                | "strtoupper"
                | "trim"
                | "ltrim"
                | "rtrim"
                | "strval"
                | "realpath"
                | "getcwd"
                | "glob"
                | "str_repeat"
                | "escapeshellarg"
                | "str_split"
                | "explode"
                | "array_reverse"
                | "array_map"
                | "file_get_contents"
                | "file"
                | "curl_exec"
                | "stream_get_contents"
                | "fopen"
                | "fgets"
                | "fread"
                | "socket_read"
                | "create_function"
        )
}

/// Calls that decode data: what they return was hidden.
pub(super) fn is_decoder(name: &str) -> bool {
    matches!(
        name,
        "base64_decode"
            | "hex2bin"
            | "gzinflate"
            | "gzuncompress"
            | "gzdecode"
            | "zlib_decode"
            | "bzdecompress"
            | "str_rot13"
            | "convert_uudecode"
            | "urldecode"
            | "rawurldecode"
            | "pack"
            | "quoted_printable_decode"
            | "html_entity_decode"
            | "openssl_decrypt"
    )
}

/// Built-in functions that set a variable passed to them: the first such argument.
pub(super) fn by_reference(name: &str) -> Option<usize> {
    Some(match name {
        "sort"
        | "rsort"
        | "usort"
        | "uasort"
        | "uksort"
        | "ksort"
        | "krsort"
        | "asort"
        | "arsort"
        | "natsort"
        | "natcasesort"
        | "shuffle"
        | "array_push"
        | "array_pop"
        | "array_shift"
        | "array_unshift"
        | "array_splice"
        | "array_walk"
        | "array_walk_recursive"
        | "array_multisort"
        | "settype"
        | "list" => 0,
        "parse_str"
        | "mb_parse_str"
        | "exec"
        | "getimagesize"
        | "openssl_public_encrypt"
        | "openssl_private_decrypt" => 1,
        "preg_match" | "preg_match_all" | "similar_text" | "sscanf" => 2,
        "str_replace" | "str_ireplace" => 3,
        "preg_replace" | "preg_replace_callback" => 4,
        _ => return None,
    })
}

/// A function's name as PHP looks it up: case-insensitive, the namespace left off.
pub(super) fn function_name(text: &str) -> String {
    text.rsplit('\\')
        .next()
        .unwrap_or(text)
        .trim()
        .to_ascii_lowercase()
}
