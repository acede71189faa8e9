#!/usr/bin/env python3
"""Segment lengths that look like real data: a group-by over a Zipf corpus.

A text of TOKENS tokens drawn from a vocabulary of VOCABULARY words, word k
(k = 1, 2, ...) with probability proportional to 1 / k^EXPONENT (Zipf's law
of word frequencies, EXPONENT 1). Grouping the text by word gives one
segment a word, as long as the word's count: a few words of a million
elements, hundreds of thousands of one or two. The counts are the expected
ones, rounded (a word expected less than half a time is an empty segment),
and the words come in a fixed shuffled order, as a hash group-by emits them.

    python3 bench/zipf_lengths.py > zipf.txt
    bench_compare --segments file:zipf.txt -m merge_path_segments

One length a line, the format of bench_compare --segments file:PATH; n is
their total (close to TOKENS). The same file every run: no randomness but a
seeded shuffle."""
import argparse
import random
import sys


def zipf_lengths(tokens, vocabulary, exponent, seed):
    weights = [k ** -exponent for k in range(1, vocabulary + 1)]
    scale = tokens / sum(weights)
    lengths = [int(w * scale + 0.5) for w in weights]
    random.Random(seed).shuffle(lengths)
    return lengths


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1 << 24, help="text length (default 2^24)")
    parser.add_argument("--vocabulary", type=int, default=1 << 20, help="words (default 2^20)")
    parser.add_argument("--exponent", type=float, default=1.0, help="Zipf exponent (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed (default 1)")
    args = parser.parse_args()
    if args.tokens < 1 or args.vocabulary < 1 or args.exponent <= 0:
        sys.exit("zipf_lengths.py: --tokens and --vocabulary must be 1 or more, --exponent above 0")
    lengths = zipf_lengths(args.tokens, args.vocabulary, args.exponent, args.seed)
    sys.stdout.write("\n".join(map(str, lengths)) + "\n")


if __name__ == "__main__":
    main()
