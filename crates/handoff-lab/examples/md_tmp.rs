fn main() {
    let p = std::env::args().nth(1).unwrap();
    let r = handoff_lab::schema::ExchangeResults::load(std::path::Path::new(&p)).unwrap();
    print!("{}", handoff_lab::report::render_markdown(&r));
}
