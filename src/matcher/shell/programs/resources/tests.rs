use super::*;

/// The verbs of a command line, read by the shell reader (one simple command).
fn read(line: &str) -> Verbs {
    let parsed = crate::matcher::shell::parse(line);
    parsed
        .commands
        .iter()
        .rev()
        .find_map(|c| verbs(&c.program, &c.args))
        .unwrap_or_else(|| panic!("no resource command in {line:?}: {parsed:?}"))
}

fn matches(line: &str, wanted: &[&str]) -> bool {
    let wanted: Vec<String> = wanted.iter().map(|w| (*w).to_owned()).collect();
    read(line).any_of(&wanted)
}

const DESTRUCTIVE: &[&str] = &[
    "delete",
    "destroy",
    "drop",
    "purge",
    "terminate",
    "flush",
    "prune",
    "uninstall",
    "rb",
    "rm",
    "remove",
    "yank",
    "remove-owner",
    "unpublish",
    "publish",
    "del",
    "force",
    "all",
    "auto-approve",
    "drain",
    "reboot",
    "shutdown",
    "poweroff",
    "halt",
    "stop",
    "disable",
    "reset",
    "fill",
];

#[test]
fn global_options_before_the_verb_are_skipped_with_their_values() {
    for (line, path) in [
        ("kubectl -n prod delete pod x", &["delete"][..]),
        (
            "kubectl --namespace=prod --context ctx delete pod x",
            &["delete"],
        ),
        ("kubectl --kubeconfig /k get pods", &["get"]),
        (
            "kubectl rollout -n prod undo deploy/x",
            &["rollout", "undo"],
        ),
        ("aws --profile p s3 rm s3://b/k", &["s3", "rm"]),
        (
            "aws --prof p --region=us-east-1 s3 rm s3://b/k",
            &["s3", "rm"],
        ),
        (
            "aws ec2 terminate-instances --instance-ids i-1",
            &["ec2", "terminate-instances"],
        ),
        ("docker --context c system prune -af", &["system", "prune"]),
        ("docker -H tcp://h:2375 rm -f web", &["rm"]),
        (
            "docker compose -f a.yml -p app down -v",
            &["compose", "down"],
        ),
        (
            "gcloud --project p compute instances delete vm --zone z",
            &["compute", "instances", "delete", "vm"],
        ),
        (
            "gcloud compute instances describe vm",
            &["compute", "instances", "describe"],
        ),
        ("az vm delete -g rg -n vm --yes", &["vm", "delete"]),
        ("terraform -chdir=infra destroy", &["destroy"]),
        ("terraform state rm aws_s3_bucket.b", &["state", "rm"]),
        ("helm -n prod uninstall web", &["uninstall"]),
        ("systemctl --user stop app", &["stop"]),
        (
            "vault -address=https://v kv metadata delete secret/x",
            &["kv", "metadata", "delete"],
        ),
        ("gh repo delete o/r --yes", &["repo", "delete"]),
        ("npm --registry https://r publish", &["publish"]),
        ("restic -r /srv/repo forget --prune", &["forget"]),
    ] {
        let v = read(line);
        assert_eq!(v.words, path, "{line}");
        assert!(!v.unknown, "{line}");
    }
}

#[test]
fn destructive_verbs_and_flags_match_and_reads_do_not() {
    for line in [
        "kubectl delete pod x",
        "kubectl drain node-1 --ignore-daemonsets",
        "kubectl apply --prune -f k8s/ -l app=x",
        "aws s3 rm s3://b --recursive",
        "aws s3 sync . s3://b --delete",
        "aws s3api delete-bucket --bucket b",
        "aws dynamodb delete-table --table-name t",
        "gcloud projects delete p",
        "gsutil -m rm -r gs://b",
        "gsutil rsync -d -r ./dist gs://b",
        "az group delete -n rg",
        "heroku apps:destroy --app x --confirm x",
        "terraform apply -auto-approve",
        "terraform apply --auto-approve=true",
        "tofu apply -destroy",
        "pulumi up --yes",
        "pulumi destroy",
        "docker rm -f web",
        "docker rm -vf web",
        "docker volume rm data",
        "docker system prune -af --volumes",
        "docker compose down --volumes",
        "docker-compose down -v",
        "podman rmi --force img",
        "helm uninstall web",
        "npm unpublish pkg@1.0.0",
        "cargo yank --version 1.0.0",
        "cargo owner --remove bob",
        "gem yank g -v 1",
        "rclone sync ./local remote:bucket",
        "rclone purge remote:bucket",
        "s3cmd sync --delete-removed ./ s3://b",
        "mc mirror --remove ./ minio/b",
        "borg delete ::archive",
        "systemctl stop nginx",
        "systemctl --no-pager disable --now nginx",
        "service nginx stop",
        "crontab -r",
        "crontab -u root -r",
        "dd if=/dev/zero of=/var/tmp/x bs=1M",
        "dd of=big bs=64M if=/dev/urandom iflag=fullblock",
        "iptables -F",
        "iptables -t nat --flush",
        "iptables --fl",
        "nft flush ruleset",
        "ufw disable",
        "kill -9 -1",
        "kill -KILL -1",
        "kill -s KILL -1",
        "kill -- -1",
        "reboot",
        "shutdown -h now",
        "poweroff",
        "init 6",
        "vault kv destroy -versions=1 secret/x",
        "op item delete x",
        "doppler secrets delete X --yes",
        "flyctl apps destroy app --yes",
        "wrangler kv:key delete --binding B k",
        "firebase firestore:delete --all-collections",
    ] {
        assert!(matches(line, DESTRUCTIVE), "{line}: {:?}", read(line));
    }
    for line in [
        "kubectl get pods -A",
        "kubectl -n prod describe pod x",
        "kubectl logs -f deploy/web",
        "kubectl delete pod x --dry-run=client",
        "kubectl delete pod x --dry-run",
        "kubectl delete --help",
        "aws s3 ls s3://b",
        "aws s3 cp s3://b/k ./k",
        "aws s3 sync s3://b ./local",
        "aws ec2 describe-instances",
        "aws ec2 terminate-instances --instance-ids i-1 --dry-run",
        "gcloud compute instances list",
        "gcloud container clusters get-credentials c --zone z",
        "az vm list -o table",
        "terraform plan -destroy",
        "terraform apply",
        "terraform init -upgrade",
        "pulumi preview",
        "docker ps -a",
        "docker logs -f web",
        "docker run --rm -it img",
        "docker compose down",
        "docker compose up -d --force-recreate",
        "helm list -A",
        "helm upgrade --install web ./chart",
        "npm publish --dry-run",
        "npm pack",
        "cargo publish --dry-run",
        "cargo package --list",
        "gh pr list",
        "gh release view v1",
        "rclone copy ./a remote:b",
        "rclone sync ./a remote:b --dry-run",
        "restic snapshots",
        "restic forget --keep-last 3 --prune --dry-run",
        "systemctl status nginx",
        "systemctl restart nginx",
        "crontab -l",
        "dd if=/dev/urandom of=key.bin bs=32 count=1",
        "dd if=/dev/zero of=/dev/null bs=1M",
        "dd if=disk.img of=copy.img",
        "iptables -L -n -v",
        "iptables -nvL",
        "nft list ruleset",
        "ufw status",
        "kill -9 1234",
        "kill -1 1234",
        "kill 0",
        "shutdown -c",
        "vault status",
        "op item list",
    ] {
        assert!(!matches(line, DESTRUCTIVE), "{line}: {:?}", read(line));
    }
    // Removing a stopped container is `rm`; forcing out a running one is also `force`.
    assert!(!matches("docker rm web", &["force"]));
    assert!(matches("docker container rm --force web", &["force"]));
}

#[test]
fn a_dry_run_counts_only_where_nothing_can_take_it_as_a_value() {
    for line in [
        "kubectl delete ns prod --cache-dir --dry-run",
        "kubectl delete ns prod --dry-run=none",
        "kubectl delete ns prod --dry-run none",
        "npm publish --dry-run false",
        "npm publish --dry-run=false",
        "cargo publish --dry-run \"$(cat f)\"",
    ] {
        assert!(matches(line, DESTRUCTIVE), "{line}: {:?}", read(line));
    }
}

#[test]
fn an_unknown_subcommand_matches_every_verb_list() {
    for line in [
        "kubectl $VERB pod x",
        "kubectl -n prod \"$(cat verb)\" pod x",
        "aws s3 $OP s3://b",
        "gcloud compute instances $(cat v) vm",
        "docker $CMD web",
        "terraform $(echo $A) -auto-approve",
    ] {
        let v = read(line);
        assert!(v.unknown, "{line}: {v:?}");
        assert!(matches(line, &["delete"]), "{line}");
    }
    // An unknown operand of a known verb is the verb's business, not a new subcommand.
    for line in [
        "kubectl logs $POD",
        "kubectl get pod \"$(kubectl get pods -o name | head -1)\"",
        "gcloud compute instances describe $VM",
        "gcloud compute instances create $VM",
        "docker logs $(docker ps -lq)",
        "kill $(lsof -t -i:3000)",
    ] {
        assert!(!matches(line, DESTRUCTIVE), "{line}: {:?}", read(line));
    }
}

#[test]
fn an_unlisted_option_is_read_both_ways() {
    // `--v 9`? `--flag`? Either way `delete` is read.
    assert!(matches("kubectl --unlisted delete pod x", &["delete"]));
    assert!(matches(
        "kubectl --unlisted value delete pod x",
        &["delete"]
    ));
    assert!(matches("docker --unlisted rm -f x", &["force"]));
    assert!(matches("kubectl -v 9 delete pod x", &["delete"]));
}

#[test]
fn wrappers_shells_and_xargs_are_read_through() {
    for line in [
        "sudo -u root kubectl delete ns prod",
        "env KUBECONFIG=/k timeout 60 kubectl delete ns prod",
        "bash -c 'kubectl delete ns prod'",
        "echo prod | xargs kubectl delete ns",
        "V=delete; kubectl $V ns prod",
    ] {
        assert!(matches(line, &["delete"]), "{line}");
    }
}

#[test]
fn each_program_has_one_row_and_no_row_is_empty() {
    let mut seen = std::collections::HashSet::new();
    for row in RESOURCES {
        assert!(!row.names.is_empty());
        for name in row.names {
            assert!(seen.insert(*name), "`{name}` has two rows");
            assert!(std::ptr::eq(find(name).expect("row"), row), "{name}");
        }
        for imply in row.implies {
            assert!(imply.path.len() <= row.depth, "{:?}: {imply:?}", row.names);
        }
    }
    assert!(find("ls").is_none());
}

#[test]
fn dd_from_an_endless_device_fills_the_disk_without_a_count_or_past_100_gib() {
    for line in [
        "dd if=/dev/zero of=f",
        "dd if=/dev/zero of=big.bin bs=1M count=2000000 status=progress",
        "dd if=/dev/urandom of=f bs=1G count=100",
        "dd if=/dev/zero of=f bs=1Mx1024 count=100",
        "dd if=/dev/zero of=f count=200000000000 iflag=count_bytes",
    ] {
        assert!(matches(line, &["fill"]), "{line}");
    }
    for line in [
        "dd if=/dev/zero of=disk.img bs=1M count=64",
        "dd if=/dev/zero of=f bs=1G count=99",
        "dd if=/dev/urandom of=seed bs=4k count=1k",
        "dd if=/dev/zero of=/dev/null bs=1M",
        "dd if=backup.img of=f bs=1M count=2000000",
    ] {
        assert!(!matches(line, &["fill"]), "{line}");
    }
}
