//! Source in a compiled language that the line writes and builds or runs (`gcc -x c -o
//! /tmp/u - <<EOF`, `java /tmp/K.java`). hookgate reads no C or Java: a program built from
//! source the line wrote, when that source calls functions that run programs, delete,
//! rename or open files and sockets, does what cannot be told, as a download does. Source
//! on the host is the project's own, built and run as before.

use crate::matcher::shell::env::{FileText, file_key};
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Reader};

/// Compilers of C and C++.
const COMPILERS: &[&str] = &["cc", "gcc", "g++", "c++", "clang", "clang++", "tcc"];

/// Compiler options whose value is the next word.
const WITH_VALUE: &[&str] = &[
    "-o",
    "-I",
    "-L",
    "-D",
    "-U",
    "-x",
    "-include",
    "-isystem",
    "-iquote",
    "-MF",
    "-MT",
    "-MQ",
    "-B",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
    "-arch",
    "-target",
];

/// Reads the source `program` builds or runs, when it is a compiler or `java`.
pub(in crate::matcher::shell::programs) fn compiled_source(
    r: &mut Reader,
    program: &str,
    args: &[Field],
    stdin: &Data,
) {
    if COMPILERS.contains(&program) {
        compiler(r, program, args, stdin);
    } else if program == "java" {
        // Java 11's source-file mode: the first operand, when it names a `.java` file.
        let source = args
            .iter()
            .find(|a| !a.text.starts_with('-'))
            .filter(|a| a.text.ends_with(".java"));
        if let Some(source) = source
            && acts(r, program, source, stdin)
        {
            r.unreadable("java runs source the line wrote, which calls functions that run programs, delete or connect");
        }
    }
}

/// `gcc [-o OUT] SOURCES`: the program built (`OUT`, `a.out` by default) is not known when
/// a source the line wrote acts; `tcc -run` runs it at once.
fn compiler(r: &mut Reader, program: &str, args: &[Field], stdin: &Data) {
    let only_compiles = args
        .iter()
        .any(|a| matches!(a.text.as_str(), "-c" | "-S" | "-E" | "-fsyntax-only"));
    let mut output = None;
    let mut acting = false;
    let mut k = 0;
    while let Some(a) = args.get(k) {
        let t = a.text.as_str();
        if WITH_VALUE.contains(&t) {
            if t == "-o" {
                output = args.get(k + 1).map(|o| o.text.clone());
            }
            k += 2;
            continue;
        }
        if let Some(out) = t.strip_prefix("-o").filter(|o| !o.is_empty()) {
            output = Some(out.to_owned());
        } else if t == "-" || !t.starts_with('-') {
            acting |= acts(r, program, a, stdin);
        }
        k += 1;
    }
    if !acting {
        return;
    }
    if program == "tcc" && args.iter().any(|a| a.text == "-run") {
        r.unreadable("tcc runs C source the line wrote, which calls functions that run programs, delete or connect");
    } else if !only_compiles {
        let output = output.unwrap_or_else(|| "a.out".to_owned());
        r.env.write_file(&output, FileText::Unknown, false);
    }
}

/// Whether the source `file` (or `-`, standard input) is text the line wrote that acts,
/// or not known at all.
fn acts(r: &mut Reader, program: &str, file: &Field, stdin: &Data) -> bool {
    let text = if file.text == "-" {
        Some(stdin.clone())
    } else {
        let data = super::file_text(r, &file.text, file.unknown, stdin);
        if r.is_host_file(&file_key(&file.text)) {
            return false;
        }
        data
    };
    match text {
        Some(Data::Known(text)) => super::unread::acts(program, &text),
        Some(Data::Unknown | Data::Listing(..)) => true,
        Some(Data::Nothing) | None => false,
    }
}
