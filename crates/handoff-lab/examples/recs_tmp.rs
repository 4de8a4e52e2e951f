fn main() {
    for p in std::env::args().skip(1) {
        let r = handoff_lab::schema::ExchangeResults::load(std::path::Path::new(&p)).unwrap();
        let rec = handoff_lab::report::recommend::recommend(&r);
        let picks: Vec<String> = rec
            .picks
            .iter()
            .map(|p| format!("{}/{}={}", p.class.name, p.placement, p.mode))
            .collect();
        println!("{p}: {}", picks.join(" | "));
    }
}
