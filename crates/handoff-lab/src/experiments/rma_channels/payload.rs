//! The bytes every transfer of `rma-channels` carries: a pattern derived from (sender,
//! sequence number), written by the producer and checked byte for byte by the consumer, and
//! the per-sender bookkeeping that catches a lost, duplicated or misdelivered transfer.

/// The tag of transfer `seq` of `sender` (what the 8-byte header of a frame or window slot
/// carries).
pub fn tag(sender: u64, seq: u64) -> u64 {
    (sender << 40) | seq
}

/// Word `k` of the pattern of `tag` (splitmix64 of the two).
#[inline]
fn word(tag: u64, k: u64) -> u64 {
    let mut z = tag
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(k.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(1);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Fills `buf` with the pattern of `tag` (byte `i` is byte `i % 8` of word `i / 8`).
pub fn fill(buf: &mut [u8], tag: u64) {
    let k = (buf.len() / 8) as u64;
    let mut chunks = buf.chunks_exact_mut(8);
    for (k, c) in (&mut chunks).enumerate() {
        c.copy_from_slice(&word(tag, k as u64).to_le_bytes());
    }
    let rest = chunks.into_remainder();
    let w = word(tag, k).to_le_bytes();
    let n = rest.len();
    rest.copy_from_slice(&w[..n]);
}

/// Whether every byte of `buf` matches the pattern of `tag`.
pub fn check(buf: &[u8], tag: u64) -> bool {
    let mut ok = true;
    let mut chunks = buf.chunks_exact(8);
    for (k, c) in (&mut chunks).enumerate() {
        let got = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        ok &= got == word(tag, k as u64);
    }
    let rest = chunks.remainder();
    let w = word(tag, (buf.len() / 8) as u64).to_le_bytes();
    ok & (rest == &w[..rest.len()])
}

/// What one consumer checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seen {
    /// Per sender: transfers and the sum of their sequence numbers.
    pub per_sender: Vec<(u64, u64)>,
    /// Transfers checked.
    pub checked: u64,
    /// Transfers with a wrong byte, or from no known sender.
    pub wrong: u64,
}

impl Seen {
    /// Nothing seen yet from `senders` senders.
    pub fn new(senders: usize) -> Seen {
        Seen {
            per_sender: vec![(0, 0); senders],
            ..Seen::default()
        }
    }

    /// Checks one received payload whose header said `tag` (sender and sequence, see [`tag`]).
    pub fn take(&mut self, tag: u64, payload: &[u8]) {
        self.checked += 1;
        let (s, seq) = (tag >> 40, tag & ((1 << 40) - 1));
        if !check(payload, tag) || s as usize >= self.per_sender.len() {
            self.wrong += 1;
            return;
        }
        let e = &mut self.per_sender[s as usize];
        e.0 += 1;
        e.1 += seq;
    }

    /// Adds another consumer's view.
    pub fn merge(&mut self, o: &Seen) {
        self.checked += o.checked;
        self.wrong += o.wrong;
        for (a, b) in self.per_sender.iter_mut().zip(&o.per_sender) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }

    /// Whether every sender's `per` transfers arrived exactly once, intact: no wrong byte,
    /// `per` per sender and their sequence numbers summing to 0 + 1 + … + per-1.
    pub fn complete(&self, per: u64) -> bool {
        let want = per * per.saturating_sub(1) / 2;
        self.wrong == 0 && self.per_sender.iter().all(|&(c, s)| c == per && s == want)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_is_checked() {
        for len in [1usize, 7, 8, 13, 4096] {
            let mut b = vec![0u8; len];
            fill(&mut b, tag(3, 9));
            assert!(check(&b, tag(3, 9)), "{len}");
            assert!(!check(&b, tag(3, 10)), "{len}");
            assert!(!check(&b, tag(2, 9)), "{len}");
            for i in [0, len / 2, len - 1] {
                let mut c = b.clone();
                c[i] ^= 0x40;
                assert!(!check(&c, tag(3, 9)), "byte {i} of {len}");
            }
        }
    }

    #[test]
    fn a_lost_duplicated_or_corrupt_transfer_is_counted() {
        let mut buf = vec![0u8; 64];
        let mut s = Seen::new(2);
        for seq in 0..4 {
            for sender in 0..2 {
                fill(&mut buf, tag(sender, seq));
                s.take(tag(sender, seq), &buf);
            }
        }
        assert!(s.complete(4));
        assert_eq!((s.checked, s.wrong), (8, 0));
        // Sender 1's transfer 2 twice instead of 3: same count, wrong sum.
        let mut d = Seen::new(2);
        for seq in [0, 1, 2, 2] {
            fill(&mut buf, tag(1, seq));
            d.take(tag(1, seq), &buf);
            fill(&mut buf, tag(0, seq));
            d.take(tag(0, seq), &buf);
        }
        assert!(!d.complete(4));
        // A flipped byte.
        let mut w = Seen::new(1);
        fill(&mut buf, tag(0, 0));
        buf[63] ^= 1;
        w.take(tag(0, 0), &buf);
        assert_eq!(w.wrong, 1);
        assert!(!w.complete(1));
    }
}
