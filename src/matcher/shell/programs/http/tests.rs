use super::*;

fn req(line: &str) -> Option<Request> {
    let mut words = line.split(' ').map(str::to_owned);
    let program = words.next().unwrap_or_default();
    request(&program, &words.collect::<Vec<_>>())
}

fn deletes(line: &str) -> bool {
    req(line).is_some_and(|r| r.sends(&["DELETE".to_owned(), "PURGE".to_owned()]))
}

#[test]
fn destructive_methods_to_remote_hosts() {
    for line in [
        "curl -X DELETE https://api.example.com/v1/users/1",
        "curl -XDELETE https://api.example.com/x",
        "curl --request=DELETE api.example.com/x",
        "curl -s -H Auth:x --request PURGE https://cdn.example.com/x",
        "curl -X delete https://api.example.com/x",
        "curl -sSfX DELETE https://api.example.com/x",
        "curl -X DELETE --resolve api.example.com:443:127.0.0.1 https://localhost/x",
        "curl -X '$(...)' https://api.example.com/x",
        "curl -X DELETE '$(...)'",
        "curl -K req.cfg",
        "wget --method=DELETE https://api.example.com/x",
        "wget --meth DELETE https://api.example.com/x",
        "wget -e method=DELETE https://api.example.com/x",
        "http DELETE api.example.com/x",
        "https delete api.example.com/x",
        "xh delete api.example.com/x",
        "http --auth u:p DELETE https://api.example.com/x",
        "gh api -X DELETE repos/o/r",
        "gh api --method DELETE /repos/o/r/releases/1",
        "glab api --method=DELETE projects/1",
    ] {
        assert!(deletes(line), "{line}");
    }
}

#[test]
fn local_hosts_reads_and_other_programs_pass() {
    for line in [
        "curl -X DELETE http://localhost:3000/api/x",
        "curl -X DELETE http://127.0.0.1:8080/x",
        "curl -X DELETE http://[::1]:8080/x",
        "curl -X DELETE app.localhost/x",
        "curl -X DELETE -o out.json --retry 3 http://0.0.0.0:5000/x",
        "curl https://api.example.com/x",
        "curl -d a=1 https://api.example.com/x",
        "curl -X GET https://api.example.com/delete",
        "http DELETE :3000/items/1",
        "http DELETE localhost:3000/items/1",
        "http api.example.com/delete",
        "xh get api.example.com/x",
        "wget https://example.com/file.tar.gz",
        "gh api repos/o/r/pulls",
        "gh pr list",
        "ls -X DELETE https://x",
    ] {
        assert!(!deletes(line), "{line}");
    }
    assert!(!is_local_url("http://127.0.0.1.evil.com/x"));
    assert!(!is_local_url("http://localhost@evil.com/x"));
    assert!(is_local_url("http://user@localhost:3000/x"));
}
