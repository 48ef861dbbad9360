fn main() {
    use std::io::BufRead;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let f = citeproof::parse::refstring::parse(&line);
        println!("{line}\n  {}", serde_json::to_string(&f).unwrap());
    }
}
