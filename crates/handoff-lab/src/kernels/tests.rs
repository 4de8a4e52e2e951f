//! Every kernel this CPU has against an independent oracle (an i128 sum, hand-computed totals).

use super::*;

/// The oracle: a plain i128 sum, which cannot overflow for any slice in memory.
fn oracle(b: &[i32]) -> i128 {
    b.iter().map(|&x| x as i128).sum()
}

fn kernels() -> Vec<Kernel> {
    let ks: Vec<Kernel> = available()
        .iter()
        .map(|&i| Kernel::new(i).unwrap())
        .collect();
    assert!(ks.iter().any(|k| k.isa() == Isa::Scalar));
    ks
}

/// Lengths around every vector and step boundary (4..64 lanes x 4) and the 64 Ki chunk.
const LENGTHS: [usize; 17] = [
    0, 1, 3, 4, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000, 65535, 65536, 65537,
];

#[test]
fn sums_match_the_oracle_on_odd_lengths_and_unaligned_starts() {
    // Values of both signs and all magnitudes, so a lost high or low half shows.
    let data: Vec<i32> = (0..70_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) ^ (i << 7)) as i32)
        .collect();
    for k in kernels() {
        for &n in &LENGTHS {
            for start in 0..4 {
                let b = &data[start..start + n];
                assert_eq!(
                    k.sum(b) as i128,
                    oracle(b),
                    "kernel {} len {n} start {start}",
                    k.name()
                );
            }
        }
    }
}

#[test]
fn sums_of_extreme_values_do_not_overflow() {
    // 200 000 > 2^16 elements: the chunk sums and the total both exceed i32.
    let n = 200_000usize;
    let max = vec![i32::MAX; n + 3];
    let min = vec![i32::MIN; n + 3];
    for k in kernels() {
        // Hand computation: 2147483647 * 200000 and -2147483648 * 200000.
        assert_eq!(k.sum(&max[..n]), 429_496_729_400_000, "{}", k.name());
        assert_eq!(k.sum(&min[3..]), -429_496_729_600_000, "{}", k.name());
        // Near the extremes but not equal, unaligned, across 3 chunks plus a tail.
        let near: Vec<i32> = (0..3 * 65_536 + 5)
            .map(|i| {
                if i % 2 == 0 {
                    i32::MAX - i
                } else {
                    i32::MIN + i
                }
            })
            .collect();
        assert_eq!(
            k.sum(&near[1..]) as i128,
            oracle(&near[1..]),
            "{}",
            k.name()
        );
    }
}

#[test]
fn fills_write_every_element_and_nothing_else() {
    for k in kernels() {
        for &n in &LENGTHS {
            for start in 0..4 {
                let mut b = vec![-7i32; n + 8];
                k.fill(&mut b[start..start + n], 0x1234_5678);
                for (i, &x) in b.iter().enumerate() {
                    let inside = (start..start + n).contains(&i);
                    let want = if inside { 0x1234_5678 } else { -7 };
                    assert_eq!(
                        x,
                        want,
                        "kernel {} len {n} start {start} index {i}",
                        k.name()
                    );
                }
            }
        }
    }
}

#[test]
fn choice_by_name_and_refusal_of_missing_ones() {
    assert_eq!(Kernel::choose("auto").unwrap(), Kernel::best());
    assert_eq!(Kernel::choose(" Scalar ").unwrap().isa(), Isa::Scalar);
    assert!(matches!(
        Kernel::choose("avx1024"),
        Err(KernelError::Unknown(_))
    ));
    // The widest available kernel comes first and is the best.
    assert_eq!(Kernel::best().isa(), available()[0]);
    match Isa::ALL.into_iter().find(|i| !available().contains(i)) {
        Some(missing) => {
            let e = Kernel::new(missing).unwrap_err().to_string();
            assert!(e.contains(missing.as_str()), "{e}");
            assert!(e.contains("scalar"), "{e} should list what the CPU has");
        }
        None => {
            eprintln!("SKIP: choice_by_name_and_refusal_of_missing_ones: this CPU has every kernel")
        }
    }
    #[cfg(target_arch = "x86_64")]
    {
        assert!(available().contains(&Isa::Sse2));
        assert!(!available().contains(&Isa::Neon));
        assert_eq!(
            available().contains(&Isa::Avx512),
            std::arch::is_x86_feature_detected!("avx512f")
        );
    }
}
