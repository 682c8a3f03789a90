//! Tests of `platform.rs`: every recorded machine in data/fixtures/platform/ is classified as its
//! file expects, and the readers parse what Linux writes.
use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Fixture {
    expect: Expect,
    #[serde(default)]
    container: Option<String>,
    #[serde(default)]
    kernel_release: String,
    #[serde(default)]
    dmi: BTreeMap<String, String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    kind: PlaceKind,
    provider: Option<Provider>,
    instance_type: Option<String>,
    instance_id: Option<String>,
}

fn fixtures() -> Vec<(String, Fixture)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fixtures/platform");
    let mut all: Vec<(String, Fixture)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let f: Fixture = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, f)
        })
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

#[test]
fn every_recorded_machine_is_classified_as_expected() {
    let all = fixtures();
    let providers: std::collections::HashSet<_> = all
        .iter()
        .filter(|(_, f)| f.expect.kind == PlaceKind::Cloud)
        .filter_map(|(_, f)| f.expect.provider)
        .collect();
    assert!(
        providers.len() >= 4,
        "at least four cloud providers recorded"
    );
    for kind in [
        PlaceKind::Notebook,
        PlaceKind::Wsl,
        PlaceKind::Laptop,
        PlaceKind::OwnMachine,
    ] {
        assert!(
            all.iter().any(|(_, f)| f.expect.kind == kind),
            "{kind:?} recorded"
        );
    }
    for (name, f) in all {
        let signs = Signs {
            dmi: f.dmi,
            env: f.env,
            kernel_release: f.kernel_release,
            container: f.container,
        };
        let p = classify(&signs);
        assert_eq!(p.kind, f.expect.kind, "{name}: {p:?}");
        assert_eq!(p.provider, f.expect.provider, "{name}: {p:?}");
        assert_eq!(p.instance_type, f.expect.instance_type, "{name}: {p:?}");
        assert_eq!(p.instance_id, f.expect.instance_id, "{name}: {p:?}");
        assert!(!p.evidence.is_empty(), "{name}: says why");
        if p.kind == PlaceKind::Cloud {
            assert!(p.stop_hint().is_some(), "{name}: a cloud says how to stop");
        }
    }
}

#[test]
fn stop_hints_fill_in_the_id_and_stop_the_meter() {
    let aws = Platform {
        kind: PlaceKind::Cloud,
        provider: Some(Provider::Aws),
        instance_type: Some("g5.xlarge".into()),
        instance_id: Some("i-0abc".into()),
        evidence: String::new(),
    };
    assert_eq!(
        aws.stop_hint().unwrap(),
        "aws ec2 stop-instances --instance-ids i-0abc"
    );
    let azure = Platform {
        provider: Some(Provider::Azure),
        instance_id: None,
        ..aws.clone()
    };
    assert!(azure.stop_hint().unwrap().contains("deallocate"));
    let home = Platform {
        kind: PlaceKind::Laptop,
        provider: None,
        ..aws
    };
    assert_eq!(home.stop_hint(), None);
}

#[test]
fn dmi_files_and_variables_are_read_trimmed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sys_vendor"), "Amazon EC2\n").unwrap();
    std::fs::write(dir.path().join("product_name"), "g4dn.xlarge\n").unwrap();
    let signs = Signs::read_from(
        dir.path(),
        |k| (k == "RUNPOD_GPU_COUNT").then(|| "2".to_string()),
        None,
    );
    assert_eq!(signs.dmi["sys_vendor"], "Amazon EC2");
    assert_eq!(signs.dmi.len(), 2, "absent files are absent, not empty");
    assert_eq!(signs.env.len(), 1);
    let p = classify(&signs);
    assert_eq!(p.provider, Some(Provider::Aws));
    assert_eq!(p.instance_type.as_deref(), Some("g4dn.xlarge"));
}

#[test]
fn ec2_types_are_told_from_other_product_names() {
    for good in ["g5.xlarge", "p4d.24xlarge", "c7g.metal", "g6e.2xlarge"] {
        assert!(looks_like_ec2_type(good), "{good}");
    }
    for bad in [
        "",
        "HVM domU",
        "Standard PC (Q35)",
        ".xlarge",
        "g5.",
        "G5.XLARGE",
    ] {
        assert!(!looks_like_ec2_type(bad), "{bad}");
    }
}

#[test]
fn process_one_start_is_read_past_a_name_with_spaces() {
    // /proc/1/stat of a container whose init is "my init": field 22 = 12345 ticks.
    let stat = "1 (my init) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 12345 100 200";
    assert_eq!(pid1_start_s(stat), Some(123.45));
    assert_eq!(pid1_start_s("garbage"), None);
}
