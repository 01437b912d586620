//! Assignments, and the variables whose value bash runs as code later (`PROMPT_COMMAND`,
//! the prompts, traps' variables).

use super::super::env::Value;
use super::super::expand::Field;
use super::{Data, Io, Reader};
use brush_parser::ast;

impl Reader {
    /// Applies an assignment; returns it as an environment entry for the command it
    /// prefixes. `persist`: it stays set after the command (no command, or a declaration).
    pub(super) fn assignment(
        &mut self,
        a: &ast::Assignment,
        persist: bool,
    ) -> Option<(String, Value)> {
        // bash's table of command names (`BASH_CMDS[ls]=/bin/rm`) and of aliases, and a
        // function a child bash imports from the environment (`BASH_FUNC_make%%`): a
        // command name then runs something else than it says.
        let target = match &a.name {
            ast::AssignmentName::VariableName(n) | ast::AssignmentName::ArrayElementName(n, _) => n,
        };
        if matches!(target.as_str(), "BASH_CMDS" | "BASH_ALIASES")
            || target.starts_with("BASH_FUNC_")
        {
            self.unreadable(
                "the line changes what a command name runs (BASH_CMDS, BASH_ALIASES, BASH_FUNC_)",
            );
        }
        let (name, value) = match (&a.name, &a.value) {
            (ast::AssignmentName::VariableName(n), ast::AssignmentValue::Scalar(w)) => {
                let mut value = self.expand_string(&w.value);
                if a.append {
                    value = match (self.env.get(n), value) {
                        (Value::Known(old), Value::Known(new)) => Value::Known(old + &new),
                        _ => Value::Unknown,
                    };
                    // `a+=x` on an array appends to its first element and keeps the rest.
                    if self.env.array(n).is_some_and(|items| items.len() > 1) {
                        if persist {
                            self.steps += self.env.set_element(n, "0".to_owned(), value);
                        }
                        return None;
                    }
                }
                (n.clone(), value)
            }
            (ast::AssignmentName::VariableName(n), ast::AssignmentValue::Array(items)) => {
                let mut values = Vec::new();
                for (_, w) in items {
                    for f in self.expand(&w.value) {
                        values.push(if f.unknown {
                            Value::Unknown
                        } else {
                            Value::Known(f.text)
                        });
                    }
                }
                // `a+=(x)` appends to what `a` holds: an array or a scalar the line set, or
                // one it did not, from the environment (any word, or none).
                if a.append {
                    if persist && self.env.append_each_way(n, &values) {
                        return None;
                    }
                    let mut old = match self.env.array(n) {
                        Some(items) => items,
                        None if self.env.is_builtin(n) => vec![self.env.get(n)],
                        None => vec![Value::Unknown],
                    };
                    old.extend(values);
                    values = old;
                }
                if persist {
                    self.env.set_array(n, values);
                }
                return None;
            }
            (ast::AssignmentName::ArrayElementName(n, index), value) => {
                let value = match value {
                    ast::AssignmentValue::Scalar(w) => self.expand_string(&w.value),
                    ast::AssignmentValue::Array(_) => Value::Unknown,
                };
                let appends = a.append;
                let index = match self.expand_string(index) {
                    Value::Known(i) => {
                        super::super::arith::eval(&i, &self.env).map_or(i, |k| k.to_string())
                    }
                    Value::Unknown => {
                        self.env.set(n, Value::Unknown);
                        return None;
                    }
                };
                // `a[1]+=x` appends to the element.
                let value = match (appends, value) {
                    (false, value) => value,
                    (true, Value::Known(new)) => match self.env.element(n, &index) {
                        Value::Known(old) => Value::Known(old + &new),
                        Value::Unknown => Value::Unknown,
                    },
                    (true, Value::Unknown) => Value::Unknown,
                };
                if persist {
                    self.steps += self.env.set_element(n, index, value);
                }
                return None;
            }
        };
        self.special_variable(&name, &value);
        // bash evaluates a variable named in arithmetic (`$((x))`, `[[ $x -eq 0 ]]`, `let`)
        // as an expression, and expands an array subscript inside it: a value such as
        // `a[$(rm -rf ~)]` runs its command then.
        if let Value::Known(text) = &value
            && (text.contains("[$(") || text.contains("[`") || text.contains("[${"))
        {
            self.unreadable(
                "a value holds a command that bash runs when it evaluates the value as arithmetic",
            );
        }
        if persist {
            self.env.set(&name, value.clone());
        }
        Some((name, value))
    }

    /// Variables whose value bash runs as code later: read that code now.
    pub(in crate::matcher::shell) fn special_variable(&mut self, name: &str, value: &Value) {
        match (name, value) {
            ("PROMPT_COMMAND", Value::Known(code)) => {
                self.script(code, Data::Nothing);
            }
            ("PS0" | "PS1" | "PS2" | "PS4", Value::Known(prompt)) => {
                // Prompts expand their substitutions each time they are shown.
                self.expand_string(&format!("\"{}\"", prompt.replace('"', "\\\"")));
            }
            // PS0, PS1 and PS2 are shown only by an interactive shell: a value not known
            // (`PS1="(.venv) ${PS1-}"` in a virtualenv's activate script) runs nothing in
            // the shell a tool runs. PS4 is expanded by `set -x` in any shell.
            ("PROMPT_COMMAND" | "PS4", Value::Unknown) => {
                self.unreadable("a prompt or PROMPT_COMMAND comes from an unknown value");
            }
            // Options and code every later interpreter of the line takes from its
            // environment (`NODE_OPTIONS='-r ./x.js' npm test`): read as that interpreter
            // would read them on its command line, before a program of its own.
            ("NODE_OPTIONS" | "PERL5OPT" | "RUBYOPT", Value::Known(options)) => {
                let program = match name {
                    "NODE_OPTIONS" => "node",
                    "PERL5OPT" => "perl",
                    _ => "ruby",
                };
                let mut fields = vec![Field::literal(program)];
                fields.extend(options.split_whitespace().map(|o| {
                    match o.starts_with('-') || program == "node" {
                        true => Field::literal(o),
                        // perl and ruby take their switches without the dash too.
                        false => Field::literal(&format!("-{o}")),
                    }
                }));
                fields.extend(["-e", ""].map(Field::literal));
                self.reached(format!("from {name}"), |r| {
                    r.run(fields, &Io::default(), Data::Nothing, &[])
                });
            }
            // `perl -d` runs `PERL5DB` as the debugger's code, in place of perl5db.pl. No
            // routine line sets it, so it is read whether or not a later perl takes `-d`.
            ("PERL5DB", Value::Known(code)) => {
                let fields = ["perl", "-e", code.as_str()].map(Field::literal).to_vec();
                self.reached(format!("from {name}"), |r| {
                    r.run(fields, &Io::default(), Data::Nothing, &[])
                });
            }
            ("PERL5DB", Value::Unknown) => {
                self.unreadable("PERL5DB, the code perl -d runs, comes from an unknown value");
            }
            // Lua runs `LUA_INIT` (or the file after its `@`) before anything else.
            (lua, Value::Known(init)) if lua == "LUA_INIT" || lua.starts_with("LUA_INIT_5_") => {
                let fields = match init.strip_prefix('@') {
                    Some(file) => vec![Field::literal("lua"), Field::literal(file)],
                    None => ["lua", "-e", init.as_str()].map(Field::literal).to_vec(),
                };
                self.reached(format!("from {name}"), |r| {
                    r.run(fields, &Io::default(), Data::Nothing, &[])
                });
            }
            _ => {}
        }
    }
}
