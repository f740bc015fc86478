"""Prints a program that runs into one of the evaluator's limits
(evaluator_steps.test: loop, fib; evaluator_limits.test: deep, lists)."""
import sys

FUNCTIONS = {
    "loop": "(define (spin (n Int)) Int (sum (i 1 to n) (mod i 7)))",
    "fib": "(define (spin (n Int)) Int (if (< n 2) n (+ (spin (- n 1)) (spin (- n 2)))))",
    "deep": "(define (down (n Int)) Int (if (= n 0) 0 (+ 1 (down (- n 1)))))",
    "lists": "(define (many (n Int)) Int (sum (i 1 to n) (length (repeat i 1))))",
}
CALLS = {"loop": "(spin 1000000000000)", "fib": "(spin 60)", "deep": "(down 100000)",
         "lists": "(many 2000000)"}
which = sys.argv[1]
print(FUNCTIONS[which])
print(f"(Topology (Ring (+ 4 (* 0 {CALLS[which]}))))")
print("(NetworkChannelWidth 32bit)\n(NetworkFrequency 50MHz)\n(NetworkPacketSize 256bit)")
print("(MessageCreationInterval 2usec)")
