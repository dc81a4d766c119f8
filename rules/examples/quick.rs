fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = arbiter_rules::variant(&args[1]).unwrap();
    let d: u32 = args[2].parse().unwrap();
    let pos = if args.len() > 3 {
        v.parse_fen(&args[3]).unwrap()
    } else {
        v.start()
    };
    for depth in 1..=d {
        let t = std::time::Instant::now();
        let n = arbiter_rules::perft(v, &pos, depth).unwrap();
        let s = t.elapsed().as_secs_f64();
        println!("{depth} {n} {s:.3}s {:.1}M/s", n as f64 / s / 1e6);
    }
}
