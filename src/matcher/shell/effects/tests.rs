use super::*;

fn deleted(line: &str) -> Vec<(String, bool)> {
    let read = crate::matcher::shell::parse(line);
    read.commands
        .iter()
        .flat_map(touches)
        .filter(|d| d.touch == Touch::Delete)
        .map(|d| (d.path.to_owned(), d.recursive))
        .collect()
}

fn paths(list: &[(&str, bool)]) -> Vec<(String, bool)> {
    list.iter().map(|(p, r)| ((*p).to_owned(), *r)).collect()
}

#[test]
fn git_rm_and_mv_delete_and_move_in_the_working_tree() {
    assert_eq!(
        deleted("git rm -r -q policies/"),
        paths(&[("policies/", true)])
    );
    assert_eq!(deleted("git rm a b"), paths(&[("a", false), ("b", false)]));
    assert_eq!(
        deleted("git mv HOOKS.yaml old.yaml"),
        paths(&[("HOOKS.yaml", false)])
    );
    // Magic pathspecs and pathspecs from a file may name the whole tree.
    assert_eq!(deleted("git rm -r ':/'"), paths(&[(".", true)]));
    assert_eq!(
        deleted("git rm --pathspec-from-file=list"),
        paths(&[(".", true)])
    );
    // The index only, or nothing.
    for line in [
        "git rm -r --cached policies",
        "git rm -rn policies",
        "git status",
    ] {
        assert!(deleted(line).is_empty(), "{line}");
    }
    let read = crate::matcher::shell::parse("git -C /srv/app rm -r policies");
    let touched = read.commands.iter().flat_map(touches).collect::<Vec<_>>();
    assert!(!touched.is_empty());
    assert!(touched.iter().any(|t| t.base == Some("/srv/app")));
}

#[test]
fn reads_what_each_program_deletes() {
    assert_eq!(
        deleted("rm -rf build dist"),
        paths(&[("build", true), ("dist", true)])
    );
    assert_eq!(deleted("rm -f a.txt"), paths(&[("a.txt", false)]));
    assert_eq!(deleted("rm --rec --fo x"), paths(&[("x", true)]));
    // The reader writes an operand after `--` that looks like an option as `./-rf`.
    assert_eq!(deleted("rm -- -rf"), paths(&[("./-rf", false)]));
    assert_eq!(
        deleted("rm -R -- -x y"),
        paths(&[("./-x", true), ("y", true)])
    );
    assert_eq!(deleted("rmdir empty"), paths(&[("empty", false)]));
    assert_eq!(
        deleted("pytest -q --basetemp=/srv/gate tests/"),
        paths(&[("/srv/gate", true)])
    );
    assert_eq!(
        deleted("pytest --basetemp build/pt -x"),
        paths(&[("build/pt", true)])
    );
    assert!(deleted("pytest -q tests/").is_empty());
    assert_eq!(deleted("shred -u key"), paths(&[("key", false)]));
    assert!(deleted("shred key").is_empty());
    assert_eq!(
        deleted("find -L . /tmp/x -delete"),
        paths(&[("./**/*", true), ("/tmp/x/**/*", true)])
    );
    assert_eq!(
        deleted("find . -type f -name '*.pyc' -delete"),
        paths(&[("./**/*.pyc", false)])
    );
    assert!(deleted("find . -name '*.o'").is_empty());
    assert_eq!(
        deleted("rsync -a --delete src/ /backup/"),
        paths(&[("/backup/", true)])
    );
    assert!(deleted("ls -la").is_empty());
}

#[test]
fn reads_mode_and_owner_changes() {
    let changed = |line: &str| -> Vec<(String, bool)> {
        let read = crate::matcher::shell::parse(line);
        read.commands
            .iter()
            .flat_map(touches)
            .filter(|d| d.touch == Touch::Mode)
            .map(|d| (d.path.to_owned(), d.recursive))
            .collect()
    };
    assert_eq!(changed("chmod -R 777 ~"), paths(&[("~", true)]));
    assert_eq!(
        changed("chmod +x a.sh b.sh"),
        paths(&[("a.sh", false), ("b.sh", false)])
    );
    assert_eq!(changed("chown -R u:g /srv"), paths(&[("/srv", true)]));
    assert_eq!(changed("chmod --reference=a -R b"), paths(&[("b", true)]));
    assert!(changed("rm -rf x").is_empty());
}

fn written(line: &str) -> Vec<(String, Touch)> {
    let read = crate::matcher::shell::parse(line);
    read.commands
        .iter()
        .flat_map(touches)
        .filter(|d| matches!(d.touch, Touch::Overwrite | Touch::Append))
        .map(|d| (d.path.to_owned(), d.touch))
        .collect()
}

fn over(list: &[&str]) -> Vec<(String, Touch)> {
    list.iter()
        .map(|p| ((*p).to_owned(), Touch::Overwrite))
        .collect()
}

#[test]
fn reads_what_each_program_writes_over() {
    assert_eq!(written("echo x > ~/.bashrc"), over(&["~/.bashrc"]));
    assert_eq!(written("cmd 2> err.log >| out"), over(&["err.log", "out"]));
    assert_eq!(written("truncate -s 10M a b"), over(&["a", "b"]));
    assert_eq!(written("truncate -r ref --size=+1K a"), over(&["a"]));
    assert_eq!(
        written("fallocate --punch-hole --offset 0 --length 1MiB store.json"),
        over(&["store.json"])
    );
    assert_eq!(
        written("fallocate -l 1G -o 4k disk.img"),
        over(&["disk.img"])
    );
    // Cut to nothing, a file is as good as deleted.
    for line in ["truncate -s 0 a", "truncate --size=0 a", "truncate -s0 a"] {
        assert!(written(line).is_empty(), "{line}");
        let read = crate::matcher::shell::parse(line);
        let touched: Vec<Touch> = touches(&read.commands[0]).iter().map(|t| t.touch).collect();
        assert_eq!(touched, [Touch::Delete], "{line}");
    }
    assert_eq!(written("cat k | tee x y"), over(&["x", "y"]));
    assert_eq!(
        written("patchelf --add-needed /tmp/l.so --replace-needed a.so b.so /bin/x /bin/y"),
        over(&["/bin/x", "/bin/y"])
    );
    assert_eq!(
        written("patchelf --set-interpreter /tmp/ld --output out /bin/x"),
        over(&["out"])
    );
    assert!(written("patchelf --print-needed /bin/x").is_empty());
    assert_eq!(
        written("curl -s --trace-ascii HOOKS.yaml -o /dev/null https://x.example/"),
        over(&["HOOKS.yaml"])
    );
    assert_eq!(
        written("curl -D h.txt -c jar --stderr=- https://x.example/"),
        over(&["h.txt", "jar"])
    );
    assert_eq!(
        written("curl -sD h.txt -sSc jar https://x.example/"),
        over(&["h.txt", "jar"])
    );
    assert_eq!(
        written("dd if=/dev/zero of=disk.img bs=1M"),
        over(&["disk.img"])
    );
    assert_eq!(written("cp -r src ~/backup"), over(&["~/backup"]));
    assert_eq!(written("cp -t /etc a b"), over(&["/etc"]));
    assert_eq!(written("cp --target-directory=/etc a"), over(&["/etc"]));
    assert_eq!(
        written("install -m 755 tool ~/bin/tool"),
        over(&["~/bin/tool"])
    );
    assert_eq!(written("ln -sf evil ~/.profile"), over(&["~/.profile"]));
    assert_eq!(written("sed -i s/a/b/ ~/.bashrc"), over(&["~/.bashrc"]));
    assert_eq!(written("sed -i.bak -e s/a/b/ f g"), over(&["f", "g"]));
    // `-ie` is `-i` with the backup suffix `e`: the script is still the first operand.
    assert_eq!(written("sed -ie s/a/b/ f"), over(&["f"]));
    assert_eq!(written("sed -n -i -f s.sed f"), over(&["f"]));
    assert!(written("sed -e s/a/b/ f").is_empty());
    assert_eq!(
        written("ed -s ~/.bashrc <<< $'$a\\nsource /tmp/r\\n.\\nw\\nq'"),
        over(&["~/.bashrc"])
    );
    assert_eq!(written("ed -p '*' -s notes.txt"), over(&["notes.txt"]));
    // GNU sed takes an unambiguous prefix of a long option.
    assert_eq!(written("sed --in s/a/b/ ~/.bashrc"), over(&["~/.bashrc"]));
    assert_eq!(written("sed --in-pl=.b --expr s/a/b/ f"), over(&["f"]));
    assert!(written("sed --expr s/a/b/ f").is_empty());
    assert_eq!(
        written("perl -pi -e s/a/b/ ~/.bashrc"),
        over(&["~/.bashrc"])
    );
    assert_eq!(
        written("perl -0777 -i.bak -pe s/a/b/ f g"),
        over(&["f", "g"])
    );
    assert_eq!(written("perl -i script.pl f"), over(&["f"]));
    assert!(written("perl -pe s/a/b/ f").is_empty());
    assert_eq!(written("ruby -i -pe 'sub(/a/,\"b\")' f"), over(&["f"]));
    assert_eq!(written("gawk -i inplace '{print}' f"), over(&["f"]));
    assert!(written("gawk '{print}' f").is_empty());
    assert_eq!(written("uniq -c in.txt out.txt"), over(&["out.txt"]));
    assert_eq!(
        written("openssl enc -in a -out HOOKS.yaml"),
        over(&["HOOKS.yaml"])
    );
    assert_eq!(
        deleted("gzip -9 HOOKS.yaml"),
        [("HOOKS.yaml".to_owned(), false)]
    );
    assert!(deleted("gzip -k build.log").is_empty());
    assert!(deleted("gzip -c build.log").is_empty());
    assert_eq!(written("shred -n 3 key"), over(&["key"]));
    assert_eq!(written("sort -k 2 -o out in"), over(&["out"]));
    assert_eq!(
        written("curl -sSLo ~/bin/x https://e.x/x"),
        over(&["~/bin/x"])
    );
    assert_eq!(
        written("curl -H 'a: b' --output o https://e.x"),
        over(&["o"])
    );
    assert_eq!(
        written("wget -qO- https://e.x"),
        over(&[]).into_iter().collect::<Vec<_>>()
    );
    assert_eq!(written("wget -O f https://e.x"), over(&["f"]));
    assert_eq!(written("rsync -a src/ /srv/www/"), over(&["/srv/www/"]));
    assert!(written("rsync -a src/ host:/srv/www/").is_empty());
    assert_eq!(written("scp -P 22 host:key ~/.ssh/"), over(&["~/.ssh/"]));
    // Streams are not files.
    assert!(written("make 2>/dev/null >/dev/stderr | tee /dev/tty").is_empty());
}

#[test]
fn appends_and_refusals_to_replace_are_writes_not_overwrites() {
    let appended = |line: &str| {
        written(line)
            .into_iter()
            .filter(|(_, t)| *t == Touch::Append)
            .map(|(p, _)| p)
            .collect::<Vec<_>>()
    };
    assert_eq!(appended("echo x >> ~/.bashrc"), ["~/.bashrc"]);
    assert_eq!(appended("echo x | tee -a f"), ["f"]);
    assert_eq!(appended("cp -n a b"), ["b"]);
    assert_eq!(appended("ln -s target link"), ["link"]);
    assert_eq!(appended("ln -s /etc/passwd"), ["."]);
    assert_eq!(appended("install -d ~/x"), ["~/x"]);
}

#[test]
fn npm_installs_replace_what_node_modules_holds() {
    let inside = |line: &str| -> Vec<(String, Option<String>)> {
        let read = crate::matcher::shell::parse(line);
        read.commands
            .iter()
            .flat_map(touches)
            .filter(|d| d.touch == Touch::Delete && d.inside && d.recursive)
            .map(|d| (d.path.to_owned(), d.base.map(str::to_owned)))
            .collect()
    };
    let here = vec![("node_modules".to_owned(), None)];
    for line in [
        "npm install",
        "npm ci",
        "npm i left-pad",
        "npm --silent uninstall x",
    ] {
        assert_eq!(inside(line), here, "{line}");
    }
    assert_eq!(
        inside("npm --prefix web install"),
        [("node_modules".to_owned(), Some("web".to_owned()))]
    );
    for line in [
        "npm test",
        "npm run build",
        "npm install -g typescript",
        "npm view x",
    ] {
        assert_eq!(inside(line), [], "{line}");
    }
}

#[test]
fn a_move_takes_its_sources_away() {
    assert_eq!(
        deleted("mv ~/Documents /tmp/x"),
        paths(&[("~/Documents", false)])
    );
    assert_eq!(written("mv a ~/.bashrc"), over(&["~/.bashrc"]));
    assert_eq!(
        deleted("mv -t /tmp a b"),
        paths(&[("a", false), ("b", false)])
    );
    assert!(deleted("mv onlyone").is_empty());
    assert!(deleted("cp a b").is_empty());
}

#[test]
fn archivers_that_delete_what_they_archive() {
    assert_eq!(
        deleted("tar -czf /tmp/a.tgz --remove-files ~/Documents notes"),
        paths(&[("~/Documents", true), ("notes", true)])
    );
    assert_eq!(
        deleted("tar cfz /tmp/a.tgz --rem src"),
        paths(&[("src", true)])
    );
    assert!(deleted("tar -czf /tmp/a.tgz ~/Documents").is_empty());
    let read = crate::matcher::shell::parse("tar -C ~ -cf /tmp/a.tar --remove-files Documents");
    let touched = touches(&read.commands[0]);
    assert_eq!(touched[0].path, "Documents");
    assert_eq!(touched[0].base, Some("~"));
    // `-C a -C ..` is `a/..`: a directory this reader does not build is unknown.
    let read = crate::matcher::shell::parse("tar -C src -C .. -cf a.tar --remove-files x");
    let touched = touches(&read.commands[0]);
    assert_eq!(touched[0].base, Some(crate::matcher::shell::SUBSTITUTION));
    // Files listed in a file are not known.
    assert_eq!(
        deleted("tar --files-from list.txt -cf a.tar --remove-files"),
        paths(&[(crate::matcher::shell::SUBSTITUTION, false)])
    );
    assert_eq!(
        deleted("zip -rm /tmp/x.zip ~/Documents"),
        paths(&[("~/Documents", true)])
    );
    assert!(deleted("zip -r /tmp/x.zip ~/Documents").is_empty());
    assert_eq!(
        deleted("7z a -sdel /tmp/x.7z ~/Pictures"),
        paths(&[("~/Pictures", true)])
    );
    assert_eq!(
        deleted("rsync -a --remove-source-files ~/Music/ host:/backup/"),
        paths(&[("~/Music/", false)])
    );
}

#[test]
fn archivers_write_what_they_unpack_into_their_directory() {
    let into = |line: &str| -> Vec<(String, Touch, bool)> {
        let read = crate::matcher::shell::parse(line);
        touches(&read.commands[0])
            .into_iter()
            .map(|t| (t.path.to_owned(), t.touch, t.inside))
            .collect()
    };
    let over = |dir: &str| vec![(dir.to_owned(), Touch::Overwrite, true)];
    assert_eq!(into("tar -xzf a.tgz"), over("."));
    assert_eq!(into("tar xzf a.tgz -C ~/"), over("~/"));
    assert_eq!(into("tar -xf a.tar --directory=/etc"), over("/etc"));
    assert_eq!(into("tar --extract --file a.tar -C out"), over("out"));
    assert_eq!(into("bsdtar -x -f a.tar -C /tmp/x"), over("/tmp/x"));
    // `-P` keeps absolute member names: anywhere below `/`.
    assert_eq!(into("tar -xPf a.tar"), over("/"));
    assert_eq!(into("tar --absolute-names -xf a.tar -C out"), over("/"));
    // Listing, or extracting to standard output, writes no file.
    assert!(into("tar -tzf a.tgz").is_empty());
    assert!(into("tar -xOf a.tar etc/passwd").is_empty());
    // Creating writes the archive, adding to it appends; `-f -` is standard output.
    let archive = |touch| vec![("a.tgz".to_owned(), touch, false)];
    assert_eq!(into("tar -czf a.tgz src"), archive(Touch::Overwrite));
    assert_eq!(into("tar czf a.tgz src"), archive(Touch::Overwrite));
    assert_eq!(
        into("tar --create --file=a.tgz src"),
        archive(Touch::Overwrite)
    );
    assert_eq!(into("tar -c --file a.tgz src"), archive(Touch::Overwrite));
    assert_eq!(into("tar -rf a.tgz x"), archive(Touch::Append));
    assert!(into("tar -czf - src").is_empty());
    // A value glued to `-f` is not a flag: `-fx` names the archive `x`.
    assert_eq!(
        into("tar -cfx src"),
        vec![("x".to_owned(), Touch::Overwrite, false)]
    );

    assert_eq!(into("unzip a.zip"), over("."));
    assert_eq!(into("unzip -o a.zip -d ~/.ssh"), over("~/.ssh"));
    assert_eq!(into("unzip -qd/tmp/t a.zip"), over("/tmp/t"));
    assert_eq!(
        into("unzip -n a.zip"),
        vec![(".".to_owned(), Touch::Append, true)]
    );
    assert!(into("unzip -l a.zip").is_empty());
    assert!(
        into("unzip -p a.zip x > y")
            .iter()
            .all(|(p, _, _)| p == "y")
    );

    assert_eq!(into("7z x a.7z -o/root/.config"), over("/root/.config"));
    assert_eq!(into("7z e a.7z"), over("."));
    assert!(into("7z x a.7z -so").is_empty());
    assert!(into("7z l a.7z").is_empty());
}

#[test]
fn downloads_mounts_and_copies_into_a_directory() {
    let touched = |line: &str| -> Vec<(String, Option<String>, bool)> {
        let read = crate::matcher::shell::parse(line);
        touches(&read.commands[0])
            .into_iter()
            .map(|t| (t.path.to_owned(), t.base.map(str::to_owned), t.inside))
            .collect()
    };
    let at =
        |path: &str, base: Option<&str>| vec![(path.to_owned(), base.map(str::to_owned), false)];
    assert_eq!(
        touched("curl -sSLO https://h/a/b.tgz?x=1"),
        at("b.tgz", None)
    );
    assert_eq!(
        touched("curl --output-dir /srv -O https://h/HOOKS.yaml"),
        at("HOOKS.yaml", Some("/srv"))
    );
    assert_eq!(
        touched("curl --output-dir d -o /abs https://h/x"),
        at("/abs", None)
    );
    // `-XPOST` holds an `O` that is the method's, not `-O`.
    assert!(touched("curl -XPOST https://h/v1/items").is_empty());
    assert_eq!(
        touched("mount --bind a.yaml /srv/HOOKS.yaml"),
        vec![
            ("/srv/HOOKS.yaml".to_owned(), None, false),
            ("/srv/HOOKS.yaml".to_owned(), None, true)
        ]
    );
    assert_eq!(
        touched("cp -r evil/. /srv"),
        vec![("/srv".to_owned(), None, true)]
    );
    assert_eq!(touched("cp a.txt b.txt"), at("b.txt", None));
}

#[test]
fn code_writes_arrive_as_tee() {
    assert_eq!(
        written(
            "python3 -c 'import os; open(os.path.expanduser(\"~/.bashrc\"), \"w\").write(\"x\")'"
        ),
        over(&["~/.bashrc"])
    );
}

#[test]
fn code_deletes_arrive_as_rm() {
    assert_eq!(
        deleted("python3 -c 'import shutil; shutil.rmtree(\"build\")'"),
        paths(&[("build", true)])
    );
}
