//! The players' clocks, kept by the referee: each side has its game time for the whole game
//! (DXP's thinking time); its clock runs from the moment the referee hands it the move (the
//! opponent's move sent, or `go think`) until its answer arrives. The flag falls when a side
//! has used more than its time plus the margin; a move that arrives within the margin is
//! accepted and leaves the clock at zero.

use std::time::{Duration, Instant};

use arbiter_rules::Color;

/// Both clocks of a game.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Time left, White's then Black's.
    left: [Duration; 2],
    /// The time each side started with.
    initial: [Duration; 2],
    margin: Duration,
    /// The side whose clock runs, and since when.
    running: Option<(Color, Instant)>,
    /// The time each move took, in order.
    used: Vec<Duration>,
}

impl Clocks {
    /// Clocks with `white` and `black` game times, and the flag's `margin`.
    pub fn new(white: Duration, black: Duration, margin: Duration) -> Clocks {
        Clocks {
            left: [white, black],
            initial: [white, black],
            margin,
            running: None,
            used: Vec::new(),
        }
    }

    /// Starts `side`'s clock now.
    pub fn start(&mut self, side: Color) {
        self.start_at(side, Instant::now());
    }

    /// Starts `side`'s clock at `at`.
    pub fn start_at(&mut self, side: Color, at: Instant) {
        self.running = Some((side, at));
    }

    /// When the running side's flag falls (its time and the margin are used up).
    pub fn deadline(&self) -> Option<Instant> {
        self.running
            .map(|(side, at)| at + self.left[side as usize] + self.margin)
    }

    /// Stops the running clock at `at`: the move took the time since it started. Returns the
    /// time used, or `None` when the flag fell (more than the time left and the margin).
    pub fn stop_at(&mut self, at: Instant) -> Option<Duration> {
        let (side, since) = self.running.take()?;
        let used = at.saturating_duration_since(since);
        let left = &mut self.left[side as usize];
        if used > *left + self.margin {
            *left = Duration::ZERO;
            self.used.push(used);
            return None;
        }
        *left = left.saturating_sub(used);
        self.used.push(used);
        Some(used)
    }

    /// Stops the running clock now ([`Clocks::stop_at`]).
    pub fn stop(&mut self) -> Option<Duration> {
        self.stop_at(Instant::now())
    }

    /// The flag of the running side has fallen by `at`: its clock reads zero.
    pub fn flag(&mut self, at: Instant) {
        if let Some((side, since)) = self.running.take() {
            self.left[side as usize] = Duration::ZERO;
            self.used.push(at.saturating_duration_since(since));
        }
    }

    /// The time `side` has left (its clock stopped).
    pub fn left(&self, side: Color) -> Duration {
        self.left[side as usize]
    }

    /// The time `side` started with.
    pub fn initial(&self, side: Color) -> Duration {
        self.initial[side as usize]
    }

    /// The time each move took, in order (the last one up to the flag when it fell).
    pub fn used(&self) -> &[Duration] {
        &self.used
    }
}

/// A duration as PDN clock text: `h:mm:ss.t`.
pub fn clock_text(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let (h, rest) = (tenths / 36_000, tenths % 36_000);
    let (m, rest) = (rest / 600, rest % 600);
    format!("{h}:{m:02}:{:02}.{}", rest / 10, rest % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_runs_only_for_the_side_to_move() {
        let t0 = Instant::now();
        let mut c = Clocks::new(
            Duration::from_secs(10),
            Duration::from_secs(5),
            Duration::ZERO,
        );
        c.start_at(Color::White, t0);
        assert_eq!(c.deadline(), Some(t0 + Duration::from_secs(10)));
        assert_eq!(
            c.stop_at(t0 + Duration::from_secs(3)),
            Some(Duration::from_secs(3))
        );
        assert_eq!(c.left(Color::White), Duration::from_secs(7));
        assert_eq!(c.left(Color::Black), Duration::from_secs(5));
        c.start_at(Color::Black, t0 + Duration::from_secs(3));
        // Black's five seconds are used up after eight: the flag falls.
        assert_eq!(c.stop_at(t0 + Duration::from_secs(9)), None);
        assert_eq!(c.left(Color::Black), Duration::ZERO);
    }

    #[test]
    fn the_margin_accepts_a_late_move_and_leaves_zero() {
        let t0 = Instant::now();
        let mut c = Clocks::new(
            Duration::from_secs(1),
            Duration::from_secs(1),
            Duration::from_millis(500),
        );
        c.start_at(Color::White, t0);
        assert_eq!(c.deadline(), Some(t0 + Duration::from_millis(1500)));
        assert!(c.stop_at(t0 + Duration::from_millis(1400)).is_some());
        assert_eq!(c.left(Color::White), Duration::ZERO);
    }

    #[test]
    fn clock_text_is_hours_minutes_seconds_tenths() {
        assert_eq!(clock_text(Duration::from_millis(3_723_450)), "1:02:03.4");
        assert_eq!(clock_text(Duration::ZERO), "0:00:00.0");
    }
}
